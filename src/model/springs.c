/* Discrete springs and dampers, translational and rotational, in global or given axes:
   - to ground on every node of a node group: -spring_names s, -spring_s_group G, -spring_s_stiffness
     "kx,ky,kz,krx,kry,krz", -spring_s_damping "cx,cy,cz,crx,cry,crz", -spring_s_axes global|"x1,x2,x3,y1,y2,y3";
   - between the two nodes of the line2 cells of a group that has a spring section: -section_s_stiffness
     and/or -section_s_damping make section s a spring section (-section_s_axes element|global|"x1,...,y3",
     default element: x along the cell, y as for beams). The cells belong to the mesh, so partitioning and
     the block preallocation include their coupling, and they are assembled in the global cell order (the same sums
     at any number of ranks).

   A spring acts on the relative motion at the midpoint of its cell, where both nodes are joined by rigid
   links: delta = (u_b + theta_b x d_b) - (u_a + theta_a x d_a) and theta_b - theta_a, d the offset of the
   midpoint from the node. Rigid-body motions of the pair load it with nothing, whatever its length and axes
   (a plain relative displacement would resist a rigid rotation of a non-zero-length cell through its shear
   springs). In spring axes Q delta the stiffness is diagonal: K_e = (Q B)^T diag(k) (Q B), and likewise the
   damping C_e with diag(c). Stiffness goes into K (it has the spring's blocks even for a pure damper), damping
   into C_d, a BAIJ matrix with the dampers' blocks alone; f_int(x, v) = K x + (b_K K + C_d) v.

   Springs have no mass: a node held only by springs needs a point mass (the mass check says so). The
   element-by-element bound of omega_max does not see them; it becomes sqrt(omega_e^2 + s) with s the
   Gershgorin bound of M^-1/2 K_s M^-1/2 over the free DOFs (Weyl: lambda(K_e + K_s) <= lambda(K_e) +
   lambda(K_s)), and the same bound of M^-1 C_d is handed to the steppers for the damped stability check. */
#include <flexure/private/modelimpl.h>

typedef enum {
  AXES_GLOBAL,
  AXES_ELEMENT,
  AXES_GIVEN
} SpringAxes;

typedef struct {
  char       name[FLX_NAME_LEN];
  char       group[FLX_NAME_LEN]; /* ground springs */
  PetscReal  k[6], c[6];
  SpringAxes axes;
  PetscReal  R[9]; /* rows: spring x, y, z in global coordinates (global and given axes) */
  PetscBool  damper;
} SpringDef;

struct _FlxSprings {
  PetscInt   nground;
  SpringDef  ground[FLX_MAX_NAMES];
  SpringDef *sec[FLX_MAX_NAMES]; /* spring data of section s, NULL for other sections */
  PetscBool  dampers;            /* some damping coefficient is non-zero (same on every rank) */
  PetscReal  ratebound, sbound;  /* Gershgorin bounds of M^-1 C_d and M^-1 K_s (1/s, 1/s^2) */
  PetscInt   nspringcells;       /* global */
  PetscBool *crow;               /* owned rows that get damping, during assembly (freed by destroy too) */
};

static const char *AxesNames[] = {"global", "element", "given"};

static PetscErrorCode GetSprings(FlxModel m, FlxSprings *sp)
{
  PetscFunctionBegin;
  if (!m->springs) PetscCall(PetscNew(&m->springs));
  *sp = m->springs;
  PetscFunctionReturn(0);
}

/* Six non-negative values "a,b,c,d,e,f" of option -{pre}{key}; set: whether it was given. */
/* Check six coefficients kx,ky,kz,krx,kry,krz (or cx,...) just read as -{pre}{key} (n values, set). */
static PetscErrorCode CheckSix(MPI_Comm comm, const char pre[], const char key[], const PetscReal v[6], PetscInt n, PetscBool set)
{
  static const char *kn[6] = {"kx", "ky", "kz", "krx", "kry", "krz"}, *cn[6] = {"cx", "cy", "cz", "crx", "cry", "crz"};
  PetscBool          k = (PetscBool)!strcmp(key, "stiffness");

  PetscFunctionBegin;
  if (!set) PetscFunctionReturn(0);
  PetscCheck(n == 6, comm, PETSC_ERR_USER_INPUT, "-%s%s has %" PetscInt_FMT " value%s: give six, %s (0 where there is none)", pre, key, n, n == 1 ? "" : "s", k ? "kx,ky,kz,krx,kry,krz in N/m and N m/rad" : "cx,cy,cz,crx,cry,crz in N s/m and N m s/rad");
  for (int d = 0; d < 6; d++)
    PetscCheck(v[d] >= 0, comm, PETSC_ERR_USER_INPUT, "-%s%s: %s = %g; a spring or damper coefficient must not be negative", pre, key, k ? kn[d] : cn[d], (double)v[d]);
  PetscFunctionReturn(0);
}

/* -{pre}axes: "global", "element" (sections only) or the spring's x and y axes "x1,x2,x3,y1,y2,y3" (orthogonal). */
static PetscErrorCode ReadAxes(PetscOptionItems *PetscOptionsObject, MPI_Comm comm, const char pre[], PetscBool section, SpringDef *s)
{
  char      str[256] = "";
  PetscBool set;

  PetscFunctionBegin;
  s->axes = section ? AXES_ELEMENT : AXES_GLOBAL;
  PetscCall(PetscStrncpy(str, AxesNames[s->axes], sizeof(str)));
  PetscCall(PetscOptionsString("-axes", section ? "Spring axes: element (x along the cell, y as for beams), global, or the spring's x and y axes x1,x2,x3,y1,y2,y3" : "Spring axes: global, or the spring's x and y axes x1,x2,x3,y1,y2,y3", "FlxModelSetFromOptions", str, str, sizeof(str), &set));
  for (int i = 0; i < 9; i++)
    s->R[i] = (i % 4 == 0) ? 1 : 0;
  if (!strcmp(str, "global"))
    s->axes = AXES_GLOBAL;
  else if (section && !strcmp(str, "element"))
    s->axes = AXES_ELEMENT;
  else {
    PetscReal v[6], nx, ny, dot;
    PetscInt  n;
    PetscBool ok;
    PetscCall(FlxParseRealList(str, 6, v, &n, &ok));
    PetscCheck(ok && n == 6, comm, PETSC_ERR_USER_INPUT, "-%saxes '%s': give %sthe spring's x and y axes as six numbers x1,x2,x3,y1,y2,y3", pre, str, section ? "element, global or " : "global or ");
    nx = PetscSqrtReal(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    ny = PetscSqrtReal(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
    PetscCheck(nx > 0 && ny > 0, comm, PETSC_ERR_USER_INPUT, "-%saxes '%s': the %s axis is zero", pre, str, nx > 0 ? "y" : "x");
    dot = (v[0] * v[3] + v[1] * v[4] + v[2] * v[5]) / (nx * ny);
    PetscCheck(PetscAbsReal(dot) <= 1e-6, comm, PETSC_ERR_USER_INPUT, "-%saxes '%s': the x and y axes are not orthogonal (cosine of their angle %.3g; at most 1e-6)", pre, str, (double)dot);
    for (int c = 0; c < 3; c++) {
      s->R[c]     = v[c] / nx;
      s->R[3 + c] = v[3 + c] / ny;
    }
    s->R[6] = s->R[1] * s->R[5] - s->R[2] * s->R[4];
    s->R[7] = s->R[2] * s->R[3] - s->R[0] * s->R[5];
    s->R[8] = s->R[0] * s->R[4] - s->R[1] * s->R[3];
    s->axes = AXES_GIVEN;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadCoefficients(PetscOptionItems *PetscOptionsObject, MPI_Comm comm, const char pre[], const char what[], SpringDef *s)
{
  PetscBool setk, setc;
  PetscInt  nk = 6, nc = 6;

  PetscFunctionBegin;
  for (int d = 0; d < 6; d++)
    s->k[d] = s->c[d] = 0;
  PetscCall(FlxOptionsRealArray("-stiffness", "Spring stiffness kx,ky,kz,krx,kry,krz in the spring's axes (N/m, N m/rad)", "FlxModelSetFromOptions", s->k, &nk, &setk));
  PetscCall(CheckSix(comm, pre, "stiffness", s->k, nk, setk));
  PetscCall(FlxOptionsRealArray("-damping", "Damper coefficients cx,cy,cz,crx,cry,crz in the spring's axes (N s/m, N m s/rad)", "FlxModelSetFromOptions", s->c, &nc, &setc));
  PetscCall(CheckSix(comm, pre, "damping", s->c, nc, setc));
  PetscCheck(setk || setc, comm, PETSC_ERR_USER_INPUT, "%s has no values: give -%sstiffness kx,ky,kz,krx,kry,krz and/or -%sdamping cx,cy,cz,crx,cry,crz", what, pre, pre);
  s->damper = PETSC_FALSE;
  for (int d = 0; d < 6; d++)
    if (s->c[d] > 0) s->damper = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelReadSprings(FlxModel m)
{
  FlxSprings sp = NULL;
  char      *list[FLX_MAX_NAMES];
  PetscInt   n = FLX_MAX_NAMES;

  PetscFunctionBegin;
  PetscCall(GetSprings(m, &sp));
  PetscOptionsBegin(m->comm, NULL, "Springs", "FlxModel");
  PetscCall(PetscOptionsStringArray("-spring_names", "Names of the springs and dampers to ground; each configured with -spring_NAME_group, _stiffness, _damping, _axes", "FlxModelSetFromOptions", list, &n, NULL));
  PetscOptionsEnd();
  sp->nground = n;
  for (PetscInt k = 0; k < n; k++) {
    SpringDef *s = &sp->ground[k];
    char       pre[128], what[128];
    PetscBool  set;
    PetscCall(PetscStrncpy(s->name, list[k], FLX_NAME_LEN));
    PetscCall(PetscFree(list[k]));
    PetscCall(PetscSNPrintf(pre, sizeof(pre), "spring_%s_", s->name));
    PetscCall(PetscSNPrintf(what, sizeof(what), "spring '%s'", s->name));
    PetscOptionsBegin(m->comm, pre, "Spring to ground", "FlxModel");
    PetscCall(PetscOptionsString("-group", "Node group (physical group or point group): a spring to ground on each of its nodes", "FlxModelSetFromOptions", s->group, s->group, FLX_NAME_LEN, &set));
    PetscCall(ReadAxes(PetscOptionsObject, m->comm, pre, PETSC_FALSE, s));
    PetscCall(ReadCoefficients(PetscOptionsObject, m->comm, pre, what, s));
    PetscOptionsEnd();
    PetscCheck(set, m->comm, PETSC_ERR_USER_INPUT, "spring '%s' has no group: give -%sgroup NAME (its nodes get the spring to ground)", s->name, pre);
    PetscCall(FlxModelUseGroup(m, s->group)); /* a node set (a group of cells without a section is not unused) */
    if (s->damper) sp->dampers = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelReadSpringSection(FlxModel m, PetscInt si, const char pre[], PetscBool *isspring)
{
  FlxSection *sec = &m->sec[si];
  FlxSprings  sp  = NULL;
  SpringDef  *s;
  PetscBool   hk, hc;
  char       *glist[FLX_MAX_NAMES], what[128];
  PetscInt    ng = FLX_MAX_NAMES;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasName(NULL, pre, "-stiffness", &hk));
  PetscCall(PetscOptionsHasName(NULL, pre, "-damping", &hc));
  *isspring = (PetscBool)(hk || hc);
  if (!*isspring) PetscFunctionReturn(0);
  PetscCall(GetSprings(m, &sp));
  PetscCall(PetscNew(&s));
  sp->sec[si] = s;
  PetscCall(PetscStrncpy(s->name, sec->name, FLX_NAME_LEN));
  PetscCall(PetscSNPrintf(what, sizeof(what), "spring section '%s'", sec->name));
  PetscOptionsBegin(m->comm, pre, "Spring section", "FlxModel");
  PetscCall(PetscOptionsStringArray("-groups", "Physical groups whose line cells are springs between their two nodes", "FlxModelSetFromOptions", glist, &ng, &hk));
  if (!hk) ng = 0;
  sec->ngroups = ng;
  for (PetscInt g = 0; g < ng; g++) { /* kept at once: an error below leaks nothing */
    PetscCall(PetscStrncpy(sec->groups[g], glist[g], FLX_NAME_LEN));
    PetscCall(PetscFree(glist[g]));
  }
  PetscCheck(ng > 0, m->comm, PETSC_ERR_USER_INPUT, "section '%s' has no groups: give -%sgroups GROUP[,GROUP...]", sec->name, pre);
  PetscCall(ReadAxes(PetscOptionsObject, m->comm, pre, PETSC_TRUE, s));
  PetscCall(ReadCoefficients(PetscOptionsObject, m->comm, pre, what, s));
  PetscOptionsEnd();
  sec->spring = PETSC_TRUE;
  sec->shell  = PETSC_FALSE;
  /* a kernel table without kernels, so that loops over the cells of a model (loads, resultants) see an
     element that takes no pressure and has no resultants; assembly treats spring cells here */
  PetscCall(PetscNew(&sec->ops[FLX_CELL_LINE2]));
  sec->ops[FLX_CELL_LINE2]->name   = "spring";
  sec->ops[FLX_CELL_LINE2]->nnodes = 2;
  PetscCall(PetscStrncpy(sec->element[FLX_CELL_LINE2], "spring", FLX_NAME_LEN));
  if (s->damper) sp->dampers = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* d x theta = skew(d) theta, into the 3 x 3 block (row-major, leading dimension ld) of S, times sign. */
static void AddSkew(PetscReal *S, PetscInt ld, const PetscReal d[3], PetscReal sign)
{
  S[1] += -sign * d[2];
  S[2] += sign * d[1];
  S[ld] += sign * d[2];
  S[ld + 2] += -sign * d[0];
  S[2 * ld] += -sign * d[1];
  S[2 * ld + 1] += sign * d[0];
}

/* The length of a spring cell with nodes at xyz (0: zero length, within round-off of its coordinates). */
static PetscReal CellLength(const PetscReal xyz[6])
{
  PetscReal L = 0, scale = 0;

  for (int c = 0; c < 3; c++) {
    L += PetscSqr(xyz[3 + c] - xyz[c]);
    scale = PetscMax(scale, PetscMax(PetscAbsReal(xyz[c]), PetscAbsReal(xyz[3 + c])));
  }
  L = PetscSqrtReal(L);
  return L > 1e-12 * scale ? L : 0;
}

/* Rotation (rows: spring axes) of a spring cell; *bad for a zero-length cell with element axes. */
static PetscErrorCode CellAxes(const SpringDef *s, const PetscReal xyz[6], PetscReal R[9], PetscBool *bad)
{
  PetscReal d[3], L = CellLength(xyz), v[3] = {0, 0, 1}, z[3], nz;

  PetscFunctionBegin;
  *bad = PETSC_FALSE;
  if (s->axes != AXES_ELEMENT) {
    for (int i = 0; i < 9; i++)
      R[i] = s->R[i];
    PetscFunctionReturn(0);
  }
  for (int c = 0; c < 3; c++)
    d[c] = xyz[3 + c] - xyz[c];
  if (L == 0) {
    *bad = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  for (int c = 0; c < 3; c++)
    d[c] /= L;
  if (PetscAbsReal(d[2]) > 0.999) { /* as beams: orientation global Z, or X for cells along Z */
    v[0] = 1;
    v[2] = 0;
  }
  z[0] = d[1] * v[2] - d[2] * v[1];
  z[1] = d[2] * v[0] - d[0] * v[2];
  z[2] = d[0] * v[1] - d[1] * v[0];
  nz   = PetscSqrtReal(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
  for (int c = 0; c < 3; c++) {
    R[c]     = d[c];
    R[6 + c] = z[c] / nz;
  }
  R[3] = R[7] * R[2] - R[8] * R[1];
  R[4] = R[8] * R[0] - R[6] * R[2];
  R[5] = R[6] * R[1] - R[7] * R[0];
  PetscFunctionReturn(0);
}

/* Element matrix (row-major, 12 x 12) of a spring cell with coefficients k in the axes R. */
static void CellMatrix(const PetscReal xyz[6], const PetscReal R[9], const PetscReal k[6], PetscReal Ke[144])
{
  PetscReal B[6 * 12] = {0}, G[6 * 12] = {0}, mid[3], da[3], db[3];

  for (int c = 0; c < 3; c++) {
    mid[c] = 0.5 * (xyz[c] + xyz[3 + c]);
    da[c]  = mid[c] - xyz[c];
    db[c]  = mid[c] - xyz[3 + c];
  }
  /* delta_t = u_b - d_b x theta_b - u_a + d_a x theta_a; delta_r = theta_b - theta_a */
  for (int i = 0; i < 6; i++) {
    B[12 * i + i]     = -1;
    B[12 * i + 6 + i] = 1;
  }
  AddSkew(B + 3, 12, da, 1.0);
  AddSkew(B + 9, 12, db, -1.0);
  for (int i = 0; i < 6; i++) /* G = blockdiag(R, R) B */
    for (int j = 0; j < 12; j++) {
      PetscReal s = 0;
      for (int l = 0; l < 3; l++)
        s += R[3 * (i % 3) + l] * B[12 * (3 * (i / 3) + l) + j];
      G[12 * i + j] = s;
    }
  for (int a = 0; a < 12; a++)
    for (int b = 0; b < 12; b++) {
      PetscReal s = 0;
      for (int i = 0; i < 6; i++)
        s += G[12 * i + a] * k[i] * G[12 * i + b];
      Ke[12 * a + b] = s;
    }
}

/* Nodal 6 x 6 matrix of a spring to ground: blockdiag(R, R)^T diag(k) blockdiag(R, R). */
static void GroundMatrix(const PetscReal R[9], const PetscReal k[6], PetscReal Kn[36])
{
  for (int i = 0; i < 36; i++)
    Kn[i] = 0;
  for (int blk = 0; blk < 2; blk++)
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++) {
        PetscReal s = 0;
        for (int l = 0; l < 3; l++)
          s += R[3 * l + a] * k[3 * blk + l] * R[3 * l + b];
        Kn[6 * (3 * blk + a) + 3 * blk + b] = s;
      }
}

/* A 3 x 3 block of GroundMatrix: translational (blk 0, R^T diag(k[0], k[1], k[2]) R) or rotational (blk 1). */
static void Block3(const PetscReal R[9], const PetscReal k[6], int blk, PetscReal K3[9])
{
  PetscReal Kn[36];

  GroundMatrix(R, k, Kn);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      K3[3 * i + j] = Kn[6 * (3 * blk + i) + 3 * blk + j];
}

/* The nodes of a spring to ground's group on this rank (an unknown group is refused, naming the spring). Collective. */
static PetscErrorCode GroundNodes(FlxModel m, const SpringDef *s, PetscInt *n, const PetscInt **nodes)
{
  PetscInt g;
  char     what[128];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(what, sizeof(what), "spring '%s' (-spring_%s_group)", s->name, s->name));
  PetscCall(FlxModelRequireGroup(m, what, s->group, &g));
  PetscCall(FlxMeshGetGroupNodes(m->mesh, g, n, nodes));
  PetscFunctionReturn(0);
}

/* Loop over the spring cells (the global cell order) and the ground springs (in -spring_names order) of this rank:
   fn(nn, nodes, Ke, Ce, ctx) with the element matrices of stiffness and damping. Errors are collective. */
typedef PetscErrorCode (*SpringVisitor)(FlxModel, PetscInt nn, const PetscInt nodes[], const PetscReal Ke[], const PetscReal Ce[], void *);

static PetscErrorCode VisitSprings(FlxModel m, SpringVisitor fn, void *ctx)
{
  FlxSprings       sp = m->springs;
  PetscInt         nc;
  const PetscReal *X;
  PetscBool        bad      = PETSC_FALSE;
  char             msg[512] = "";

  PetscFunctionBegin;
  if (!sp) PetscFunctionReturn(0);
  PetscCall(FlxMeshGetLocalSizes(m->mesh, NULL, NULL, &nc));
  PetscCall(FlxMeshGetCoordinates(m->mesh, &X));
  for (PetscInt c = 0; c < nc && !bad; c++) {
    const SpringDef *s = m->cell_section[c] >= 0 ? sp->sec[m->cell_section[c]] : NULL;
    const PetscInt  *nodes;
    PetscInt         nn;
    PetscReal        xyz[6], R[9], Ke[144], Ce[144];
    if (!s) continue;
    PetscCall(FlxMeshGetCell(m->mesh, c, NULL, &nn, &nodes, NULL));
    for (int a = 0; a < 2; a++)
      for (int d = 0; d < 3; d++)
        xyz[3 * a + d] = X[3 * nodes[a] + d];
    PetscCall(CellAxes(s, xyz, R, &bad));
    if (bad) {
      char desc[256];
      PetscCall(FlxModelCellDescription(m, c, desc, sizeof(desc)));
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: a spring cell of zero length has no axis of its own: give section '%s' explicit axes (-section_%s_axes global or x1,x2,x3,y1,y2,y3)", desc, s->name, s->name));
      break;
    }
    CellMatrix(xyz, R, s->k, Ke);
    if (s->damper) CellMatrix(xyz, R, s->c, Ce);
    PetscCall(fn(m, 2, nodes, Ke, s->damper ? Ce : NULL, ctx));
  }
  PetscCall(FlxCheckCollective(m->comm, bad, PETSC_ERR_USER_INPUT, msg));
  for (PetscInt k = 0; k < sp->nground; k++) {
    const SpringDef *s = &sp->ground[k];
    const PetscInt  *nodes;
    PetscInt         n;
    PetscReal        Kn[36], Cn[36];
    PetscCall(GroundNodes(m, s, &n, &nodes));
    GroundMatrix(s->R, s->k, Kn);
    if (s->damper) GroundMatrix(s->R, s->c, Cn);
    for (PetscInt i = 0; i < n; i++)
      PetscCall(fn(m, 1, &nodes[i], Kn, s->damper ? Cn : NULL, ctx));
  }
  PetscFunctionReturn(0);
}

/* Absolute base excitation: the forces that the moving ground ends of ground springs exert on their nodes per unit
   of the ground's displacement (gk = K_n r) and velocity (gc = C_n r + b_K K_n r: the Rayleigh damping b_K K acts on
   the springs too), r = (value, 0, 0, 0) at each node, summed over the ground springs named (n < 0: all); owned rows;
   NULL when no spring is named (gc: when there is no damping). Collective. */
PetscErrorCode FlxModelGroundSpringBaseVectors(FlxModel m, PetscInt n, const char names[][FLX_NAME_LEN], const PetscReal value[3], Vec *gk, Vec *gc)
{
  FlxSprings sp = m->springs;
  PetscInt   ng = sp ? sp->nground : 0, nown;
  PetscBool  use[FLX_MAX_NAMES], any = PETSC_FALSE, damp = PETSC_FALSE;

  PetscFunctionBegin;
  *gk = *gc = NULL;
  for (PetscInt k = 0; k < ng; k++)
    use[k] = (PetscBool)(n < 0);
  for (PetscInt j = 0; j < n; j++) {
    PetscInt found = -1;
    for (PetscInt k = 0; k < ng; k++)
      if (!strcmp(sp->ground[k].name, names[j])) found = k;
    PetscCheck(found >= 0, m->comm, PETSC_ERR_USER_INPUT, "-base_springs: '%s' is not a spring to ground of -spring_names", names[j]);
    use[found] = PETSC_TRUE;
  }
  for (PetscInt k = 0; k < ng; k++)
    if (use[k]) {
      any  = PETSC_TRUE;
      damp = (PetscBool)(damp || sp->ground[k].damper || m->bK > 0);
    }
  if (!any) PetscFunctionReturn(0);
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  for (int v = 0; v < (damp ? 2 : 1); v++) {
    Vec         *out = v ? gc : gk;
    PetscScalar *a;
    PetscCall(VecDuplicate(m->mass, out));
    PetscCall(VecZeroEntries(*out));
    PetscCall(VecGetArray(*out, &a));
    for (PetscInt k = 0; k < ng; k++) {
      const SpringDef *s = &sp->ground[k];
      const PetscInt  *nodes;
      PetscInt         g, nn;
      PetscReal        Kn[36];
      if (!use[k] || (v && !s->damper)) continue;
      PetscCall(FlxMeshFindGroup(m->mesh, s->group, &g));
      PetscCall(FlxMeshGetGroupNodes(m->mesh, g, &nn, &nodes));
      GroundMatrix(s->R, v ? s->c : s->k, Kn);
      for (PetscInt i = 0; i < nn; i++)
        if (nodes[i] < nown)
          for (int r = 0; r < 6; r++)
            a[6 * nodes[i] + r] += Kn[6 * r] * value[0] + Kn[6 * r + 1] * value[1] + Kn[6 * r + 2] * value[2];
    }
    PetscCall(VecRestoreArray(*out, &a));
  }
  if (m->bK > 0) PetscCall(VecAXPY(*gc, m->bK, *gk));
  PetscFunctionReturn(0);
}

PetscBool FlxModelCellIsSpring(FlxModel m, PetscInt c)
{
  return (PetscBool)(m->springs && m->cell_section[c] >= 0 && m->springs->sec[m->cell_section[c]]);
}

PetscErrorCode FlxModelVisitSprings(FlxModel m, SpringVisitor fn, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(VisitSprings(m, fn, ctx));
  PetscFunctionReturn(0);
}

static PetscErrorCode AddSpring(FlxModel m, PetscInt nn, const PetscInt nodes[], const PetscReal Ke[], const PetscReal Ce[], void *ctx)
{
  FlxSprings sp = m->springs;
  PetscInt   nown;

  PetscFunctionBegin;
  if (!Ce) PetscFunctionReturn(0); /* the stiffness: into K by FlxModelAssembleStiffness, into the element loop by ebe.c */
  PetscCall(FlxModelAddOwnedRows(m, m->Cd, nn, nodes, Ce, NULL));
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  for (PetscInt a = 0; a < nn; a++)
    if (nodes[a] < nown) sp->crow[nodes[a]] = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* Geometrically nonlinear models: translational stiffness acts on u_b - u_a (or u), exact at finite rotations for
   springs to ground and for spring cells of zero length (anisotropic ones with their axes carried by the first node,
   springrot.c); rotational stiffness on the relative rotation (springrot.c), exact at any length. A cell of non-zero length with translational stiffness would join its nodes by rigid offsets
   theta x d, which is not conservative once nodes turn finitely (a stiff joint between co-rotational beams fluttered
   and blew up after 0.05 rad of rigid spin, found by a helper): refused. Collective. */
static PetscErrorCode CheckFiniteRotations(FlxModel m)
{
  FlxSprings       sp = m->springs;
  PetscInt         nc;
  const PetscReal *X;
  PetscBool        bad      = PETSC_FALSE;
  char             msg[640] = "";

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, NULL, NULL, &nc));
  PetscCall(FlxMeshGetCoordinates(m->mesh, &X));
  for (PetscInt c = 0; c < nc && !bad; c++) {
    const SpringDef *s = m->cell_section[c] >= 0 ? sp->sec[m->cell_section[c]] : NULL;
    const PetscInt  *nodes;
    PetscReal        xyz[6], L;
    if (!s || (s->k[0] == 0 && s->k[1] == 0 && s->k[2] == 0)) continue; /* rotational stiffness alone, or a damper (it only dissipates) */
    PetscCall(FlxMeshGetCell(m->mesh, c, NULL, NULL, &nodes, NULL));
    for (int d = 0; d < 3; d++) {
      xyz[d]     = X[3 * nodes[0] + d];
      xyz[3 + d] = X[3 * nodes[1] + d];
    }
    if ((L = CellLength(xyz)) > 0) {
      char desc[256];
      PetscCall(FlxModelCellDescription(m, c, desc, sizeof(desc)));
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s (spring section '%s') has length %g m and translational stiffness: a spring cell of non-zero length joins its nodes by rigid offsets theta x d, which is not conservative once nodes turn finitely (the model is geometrically nonlinear); join the nodes at one point (a zero-length cell), keep rotational stiffness only (-section_%s_stiffness 0,0,0,krx,kry,krz), or run with -model_geometry linear", desc, s->name, (double)L, s->name));
      bad = PETSC_TRUE;
    }
  }
  PetscCall(FlxCheckCollective(m->comm, bad, PETSC_ERR_USER_INPUT, msg));
  PetscFunctionReturn(0);
}

/* The springs of this rank that a geometrically nonlinear model treats beyond their linear matrix: the spring cells
   (global cell order), then the springs to ground (-spring_names order, the group's nodes in local order):
   fn(m, nn, nodes, Kr, Kt, name, ctx) with, in global axes at the start (R^T diag(k) R),
   - Kr the 3 x 3 rotational stiffness (NULL: none);
   - Kt the 3 x 3 translational stiffness of a zero-length cell whose translational stiffness is anisotropic (NULL
     otherwise): its axes turn with the cell's first node (springrot.c). Isotropic stiffness has no axes to turn, and
     a spring to ground keeps the axes of the ground.
   Collective (the ground springs' groups are checked). */
PetscErrorCode FlxModelVisitNonlinearSprings(FlxModel m, PetscErrorCode (*fn)(FlxModel, PetscInt, const PetscInt[], const PetscReal[], const PetscReal[], const char[], void *), void *ctx)
{
  FlxSprings       sp = m->springs;
  PetscInt         nc;
  const PetscReal *X;

  PetscFunctionBegin;
  if (!sp) PetscFunctionReturn(0);
  PetscCall(FlxMeshGetLocalSizes(m->mesh, NULL, NULL, &nc));
  PetscCall(FlxMeshGetCoordinates(m->mesh, &X));
  for (PetscInt c = 0; c < nc; c++) {
    const SpringDef *s = m->cell_section[c] >= 0 ? sp->sec[m->cell_section[c]] : NULL;
    const PetscInt  *nodes;
    PetscReal        xyz[6], R[9], Kr[9], Kt[9];
    PetscBool        bad, rot, trans;
    if (!s) continue;
    rot   = (PetscBool)(s->k[3] != 0 || s->k[4] != 0 || s->k[5] != 0);
    trans = (PetscBool)(s->k[0] != s->k[1] || s->k[1] != s->k[2]);
    if (!rot && !trans) continue;
    PetscCall(FlxMeshGetCell(m->mesh, c, NULL, NULL, &nodes, NULL));
    for (int a = 0; a < 2; a++)
      for (int d = 0; d < 3; d++)
        xyz[3 * a + d] = X[3 * nodes[a] + d];
    PetscCall(CellAxes(s, xyz, R, &bad));
    if (bad) continue;                            /* refused by the assembly (VisitSprings) */
    if (CellLength(xyz) > 0) trans = PETSC_FALSE; /* with translational stiffness refused (CheckFiniteRotations) */
    if (!rot && !trans) continue;
    Block3(R, s->k, 1, Kr);
    Block3(R, s->k, 0, Kt);
    PetscCall(fn(m, 2, nodes, rot ? Kr : NULL, trans ? Kt : NULL, s->name, ctx));
  }
  for (PetscInt k = 0; k < sp->nground; k++) {
    const SpringDef *s = &sp->ground[k];
    const PetscInt  *nodes;
    PetscInt         n;
    PetscReal        Kr[9];
    if (s->k[3] == 0 && s->k[4] == 0 && s->k[5] == 0) continue;
    PetscCall(GroundNodes(m, s, &n, &nodes));
    Block3(s->R, s->k, 1, Kr);
    for (PetscInt i = 0; i < n; i++)
      PetscCall(fn(m, 1, &nodes[i], Kr, NULL, s->name, ctx));
  }
  PetscFunctionReturn(0);
}

typedef struct {
  PetscInt  n, nown;
  PetscInt *pairs; /* NULL: count only */
} DamperBlocks;

/* Spring visitor: the blocks (row, column) of the owned rows of the damping matrices. */
static PetscErrorCode CountDamperBlocks(FlxModel m, PetscInt nn, const PetscInt nodes[], const PetscReal Ke[], const PetscReal Ce[], void *ctx)
{
  DamperBlocks *db = (DamperBlocks *)ctx;

  PetscFunctionBegin;
  if (!Ce) PetscFunctionReturn(0);
  if (!db->nown) PetscCall(FlxMeshGetLocalSizes(m->mesh, &db->nown, NULL, NULL));
  for (PetscInt a = 0; a < nn; a++)
    if (nodes[a] < db->nown)
      for (PetscInt b = 0; b < nn; b++) {
        if (db->pairs) {
          db->pairs[2 * db->n]     = nodes[a];
          db->pairs[2 * db->n + 1] = nodes[b];
        }
        db->n++;
      }
  PetscFunctionReturn(0);
}

/* Check the spring groups (before any element is assembled) and assemble C_d. Called by FlxModelAssemble before the
   elements. Collective. */
PetscErrorCode FlxModelAssembleSprings(FlxModel m)
{
  FlxSprings sp = m->springs;
  PetscInt   nown, nc, ncl = 0, nrows = 0, *rows;

  PetscFunctionBegin;
  if (!sp) PetscFunctionReturn(0);
  for (PetscInt k = 0; k < sp->nground; k++) { /* unknown groups refused before any work */
    PetscInt g;
    char     what[128];
    PetscCall(PetscSNPrintf(what, sizeof(what), "spring '%s' (-spring_%s_group)", sp->ground[k].name, sp->ground[k].name));
    PetscCall(FlxModelRequireGroup(m, what, sp->ground[k].group, &g));
  }
  if (m->nonlinear) PetscCall(CheckFiniteRotations(m));
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, &nc));
  for (PetscInt c = 0; c < nc; c++) {
    PetscBool owned;
    PetscCall(FlxMeshIsCellOwned(m->mesh, c, &owned));
    if (owned && m->cell_section[c] >= 0 && sp->sec[m->cell_section[c]]) ncl++;
  }
  PetscCallMPI(MPI_Allreduce(&ncl, &sp->nspringcells, 1, MPIU_INT, MPI_SUM, m->comm));
  if (sp->dampers) { /* C_d holds the dampers' blocks alone (a few nodes' rows, not the mesh's pattern) */
    DamperBlocks db = {0, 0, NULL};
    PetscCall(VisitSprings(m, CountDamperBlocks, &db));
    PetscCall(PetscMalloc1(2 * db.n + 1, &db.pairs));
    db.n = 0;
    PetscCall(VisitSprings(m, CountDamperBlocks, &db));
    PetscCall(FlxModelCreateBAIJBlocks(m, db.n, db.pairs, &m->Cd));
    PetscCall(PetscFree(db.pairs));
  }
  PetscCall(PetscFree(sp->crow));
  PetscCall(PetscCalloc1(nown + 1, &sp->crow));
  PetscCall(VisitSprings(m, AddSpring, NULL));
  if (m->Cd) {
    PetscCall(MatAssemblyBegin(m->Cd, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(m->Cd, MAT_FINAL_ASSEMBLY));
    PetscCall(MatSetOption(m->Cd, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(PetscMalloc1(nown + 1, &rows));
    for (PetscInt i = 0; i < nown; i++)
      if (sp->crow[i]) rows[nrows++] = i;
    PetscCall(FlxKMultCreate(m, m->Cd, nrows, rows, &m->kmultC));
    PetscCall(PetscFree(rows));
  }
  PetscCall(PetscFree(sp->crow));
  PetscFunctionReturn(0);
}

typedef struct {
  const PetscScalar *ml, *fl; /* local (owned and ghost) mass and free mask */
  PetscReal         *rk, *rc; /* Gershgorin row sums of the owned DOFs */
} BoundCtx;

static PetscErrorCode RowSums(FlxModel m, PetscInt nn, const PetscInt nodes[], const PetscReal Ke[], const PetscReal Ce[], void *ctx)
{
  BoundCtx *bc = (BoundCtx *)ctx;
  PetscInt  nown, n = 6 * nn;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  for (PetscInt a = 0; a < nn; a++) {
    if (nodes[a] >= nown) continue;
    for (PetscInt i = 6 * a; i < 6 * a + 6; i++) {
      PetscInt  ii = 6 * nodes[a] + i % 6;
      PetscReal mi = PetscRealPart(bc->ml[ii]);
      if (PetscRealPart(bc->fl[ii]) < 0.5 || !(mi > 0)) continue;
      for (PetscInt j = 0; j < n; j++) {
        PetscInt  jj = 6 * nodes[j / 6] + j % 6;
        PetscReal mj = PetscRealPart(bc->ml[jj]), s;
        if (PetscRealPart(bc->fl[jj]) < 0.5 || !(mj > 0)) continue;
        s = 1 / PetscSqrtReal(mi * mj);
        bc->rk[ii] += PetscAbsReal(Ke[n * i + j]) * s;
        if (Ce) bc->rc[ii] += PetscAbsReal(Ce[n * i + j]) * s;
      }
    }
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode DampingMult(FlxSystem sys, Vec v, Vec f, void *ctx)
{
  FlxModel m = (FlxModel)ctx;

  PetscFunctionBegin;
  if (m->bK != 0) {
    PetscCall(FlxModelApplyStiffness(m, v, f));
    PetscCall(VecScale(f, m->bK));
  } else
    PetscCall(VecZeroEntries(f));
  if (m->kmultC) PetscCall(FlxKMultApplyAdd(m->kmultC, v, f));
  PetscFunctionReturn(0);
}

/* With the masses and constraints known: the springs' part of the omega_max bound, the rate bound of the
   dampers, and C_d handed to the system. Called by FlxModelSetUp after the constraints. Collective. */
PetscErrorCode FlxModelFinishSprings(FlxModel m)
{
  FlxSprings      sp = m->springs;
  PetscInt        nown, nghost;
  const PetscInt *l2g;
  Vec             ml, fl;
  IS              is;
  VecScatter      sct;
  BoundCtx        bc;
  PetscReal       lmax[2] = {0, 0}, gmax[2];

  PetscFunctionBegin;
  if (!sp || (!sp->nground && !sp->nspringcells)) {
    PetscCall(FlxSystemSetDampingMatrix(m->sys, NULL, 0, DampingMult, m)); /* the deterministic b_K K v */
    PetscFunctionReturn(0);
  }
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, &nghost, NULL));
  PetscCall(FlxMeshGetLocalToGlobal(m->mesh, &l2g));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 6 * (nown + nghost), &ml));
  PetscCall(VecDuplicate(ml, &fl));
  PetscCall(ISCreateBlock(PETSC_COMM_SELF, 6, nown + nghost, l2g, PETSC_COPY_VALUES, &is));
  PetscCall(VecScatterCreate(m->mass, is, ml, NULL, &sct));
  PetscCall(VecScatterBegin(sct, m->mass, ml, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sct, m->mass, ml, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterBegin(sct, m->free, fl, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sct, m->free, fl, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(PetscCalloc2(6 * nown + 1, &bc.rk, 6 * nown + 1, &bc.rc));
  PetscCall(VecGetArrayRead(ml, &bc.ml));
  PetscCall(VecGetArrayRead(fl, &bc.fl));
  PetscCall(VisitSprings(m, RowSums, &bc));
  PetscCall(VecRestoreArrayRead(fl, &bc.fl));
  PetscCall(VecRestoreArrayRead(ml, &bc.ml));
  for (PetscInt i = 0; i < 6 * nown; i++) {
    lmax[0] = PetscMax(lmax[0], bc.rk[i]);
    lmax[1] = PetscMax(lmax[1], bc.rc[i]);
  }
  PetscCallMPI(MPI_Allreduce(lmax, gmax, 2, MPIU_REAL, MPI_MAX, m->comm));
  sp->sbound     = gmax[0];
  sp->ratebound  = gmax[1];
  m->omega_bound = PetscSqrtReal(m->omega_bound * m->omega_bound + sp->sbound);
  PetscCall(PetscFree2(bc.rk, bc.rc));
  PetscCall(VecScatterDestroy(&sct));
  PetscCall(ISDestroy(&is));
  PetscCall(VecDestroy(&ml));
  PetscCall(VecDestroy(&fl));
  PetscCall(FlxSystemSetDampingMatrix(m->sys, m->Cd, sp->ratebound, DampingMult, m));
  PetscFunctionReturn(0);
}

static PetscErrorCode FormatSix(const PetscReal v[6], char buf[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(buf, len, "%g, %g, %g, %g, %g, %g", (double)v[0], (double)v[1], (double)v[2], (double)v[3], (double)v[4], (double)v[5]));
  PetscFunctionReturn(0);
}

static PetscErrorCode ViewDef(PetscViewer viewer, const SpringDef *s, const char head[])
{
  char k[256], c[256], ax[160];

  PetscFunctionBegin;
  PetscCall(FormatSix(s->k, k, sizeof(k)));
  PetscCall(FormatSix(s->c, c, sizeof(c)));
  if (s->axes == AXES_GIVEN)
    PetscCall(PetscSNPrintf(ax, sizeof(ax), "x (%.4g, %.4g, %.4g), y (%.4g, %.4g, %.4g)", (double)s->R[0], (double)s->R[1], (double)s->R[2], (double)s->R[3], (double)s->R[4], (double)s->R[5]));
  else
    PetscCall(PetscStrncpy(ax, s->axes == AXES_GLOBAL ? "global" : "element (x along the cell)", sizeof(ax)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  %s: stiffness (%s), damping (%s), axes %s\n", head, k, c, ax));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelViewSprings(FlxModel m, PetscViewer viewer)
{
  FlxSprings sp = m->springs;
  char       head[256];

  PetscFunctionBegin;
  if (!sp) PetscFunctionReturn(0);
  for (PetscInt s = 0; s < m->nsec; s++)
    if (sp->sec[s]) {
      PetscCall(PetscSNPrintf(head, sizeof(head), "section %s: springs between the two nodes of its line cells (%" PetscInt_FMT " in the model)", m->sec[s].name, sp->nspringcells));
      PetscCall(ViewDef(viewer, sp->sec[s], head));
    }
  for (PetscInt k = 0; k < sp->nground; k++) {
    PetscInt g, n, N;
    PetscCall(FlxMeshFindGroup(m->mesh, sp->ground[k].group, &g));
    const PetscInt *nodes;
    PetscCall(FlxMeshGetGroupNodes(m->mesh, g, &n, &nodes));
    PetscCallMPI(MPI_Allreduce(&n, &N, 1, MPIU_INT, MPI_SUM, m->comm));
    PetscCall(PetscSNPrintf(head, sizeof(head), "spring %s: to ground on the %" PetscInt_FMT " nodes of group '%s'", sp->ground[k].name, N, sp->ground[k].group));
    PetscCall(ViewDef(viewer, &sp->ground[k], head));
  }
  if (sp->sbound > 0 || sp->ratebound > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  springs: omega^2 bound +%g rad^2/s^2 (Gershgorin, in the element-by-element bound)%s", (double)sp->sbound, m->Cd ? "" : "\n"));
  if (m->Cd) PetscCall(PetscViewerASCIIPrintf(viewer, "; dampers: rate bound lambda_max(M^-1 C_d) <= %g 1/s (damped stability check); f_int(x, v) = K x + (b_K K + C_d) v\n", (double)sp->ratebound));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelDestroySprings(FlxModel m)
{
  FlxSprings sp = m->springs;

  PetscFunctionBegin;
  PetscCall(MatDestroy(&m->Cd));
  PetscCall(FlxKMultDestroy(&m->kmultC));
  if (!sp) PetscFunctionReturn(0);
  for (PetscInt s = 0; s < FLX_MAX_NAMES; s++)
    PetscCall(PetscFree(sp->sec[s]));
  PetscCall(PetscFree(sp->crow));
  PetscCall(PetscFree(m->springs));
  PetscFunctionReturn(0);
}
