/* FlxModel: options (materials, sections, boundary conditions, loads, initial conditions, point masses,
   damping), life cycle and accessors; sections and the node-set rule are in sections.c. Named things are
   declared by a list option and configured under their own prefix: -material_names steel -material_steel_E 210e9 ... */
#include <flexure/private/modelimpl.h>
#include <strings.h>

const char *const FlxDofNames[] = {"ux", "uy", "uz", "rx", "ry", "rz"};

static PetscErrorCode ConsistentMassProvider(FlxSystem, Mat *, void *);
static PetscErrorCode StiffnessProvider(FlxSystem, Mat *, void *);
static PetscErrorCode StiffnessDiagonalProvider(FlxSystem, Vec, void *);
static PetscErrorCode NearNullSpaceProvider(FlxSystem, MatNullSpace *, void *);
static PetscErrorCode SetRoundoff(FlxModel);

PetscErrorCode FlxModelCreate(FlxMesh mesh, FlxModel *model)
{
  FlxModel m;

  PetscFunctionBegin;
  PetscCall(PetscNew(&m));
  PetscCall(FlxMeshGetComm(mesh, &m->comm));
  m->mesh    = mesh;
  m->nlcache = PETSC_TRUE;
  m->balance = FLX_MACHINE_BALANCE;
  PetscCall(FlxSystemCreate(m->comm, &m->sys));
  *model = m;
  PetscFunctionReturn(0);
}

/* Read "-<what>_names a,b,c" into names. */
static PetscErrorCode ReadNames(MPI_Comm comm, const char what[], const char help[], char names[][FLX_NAME_LEN], PetscInt *n)
{
  char     opt[64], *list[FLX_MAX_NAMES];
  PetscInt nmax = FLX_MAX_NAMES;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%s_names", what));
  PetscOptionsBegin(comm, NULL, "Model", "FlxModel");
  PetscCall(PetscOptionsStringArray(opt, help, "FlxModelSetFromOptions", list, &nmax, NULL));
  PetscOptionsEnd();
  {
    char msg[256] = "";
    for (PetscInt k = 0; k < nmax && !msg[0]; k++) {
      size_t len = strlen(list[k]);
      if (!len || len >= FLX_NAME_LEN) PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s '%.80s': a name of %s must have 1 to %d characters", opt, list[k], what, FLX_NAME_LEN - 1));
      for (PetscInt j = 0; j < k && !msg[0]; j++)
        if (!strcasecmp(list[j], list[k])) PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: '%s' is given twice", opt, list[k]));
    }
    for (PetscInt k = 0; k < nmax; k++) {
      if (!msg[0]) PetscCall(PetscStrncpy(names[k], list[k], FLX_NAME_LEN));
      PetscCall(PetscFree(list[k])); /* also after an error: nothing leaks */
    }
    PetscCheck(!msg[0], comm, PETSC_ERR_USER_INPUT, "%s", msg);
  }
  *n = nmax;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelReadNames(MPI_Comm comm, const char what[], const char help[], char names[][FLX_NAME_LEN], PetscInt *n)
{
  PetscFunctionBegin;
  PetscCall(ReadNames(comm, what, help, names, n));
  PetscFunctionReturn(0);
}

static PetscErrorCode RequireReal(PetscOptionItems *PetscOptionsObject, MPI_Comm comm, const char pre[], const char key[], const char help[], PetscBool positive, PetscReal *v)
{
  PetscBool set;
  char      opt[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%s", key));
  PetscCall(PetscOptionsReal(opt, help, "FlxModelSetFromOptions", *v, v, &set));
  PetscCheck(set, comm, PETSC_ERR_USER_INPUT, "missing property: give -%s%s (%s)", pre, key, help);
  PetscCheck(!PetscIsInfOrNanReal(*v), comm, PETSC_ERR_USER_INPUT, "-%s%s = %g is not a finite number (%s)", pre, key, (double)*v, help);
  PetscCheck(!positive || *v > 0, comm, PETSC_ERR_USER_INPUT, "-%s%s = %g must be positive (%s)", pre, key, (double)*v, help);
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadMaterials(FlxModel m)
{
  char names[FLX_MAX_NAMES][FLX_NAME_LEN];

  PetscFunctionBegin;
  PetscCall(ReadNames(m->comm, "material", "Names of the materials; each configured with -material_NAME_E, _nu, _rho", names, &m->nmat));
  for (PetscInt k = 0; k < m->nmat; k++) {
    FlxMaterial *mt = &m->mat[k];
    char         pre[128];
    PetscCall(PetscStrncpy(mt->name, names[k], FLX_NAME_LEN));
    PetscCall(PetscSNPrintf(pre, sizeof(pre), "material_%s_", mt->name));
    PetscOptionsBegin(m->comm, pre, "Material", "FlxModel");
    PetscCall(RequireReal(PetscOptionsObject, m->comm, pre, "E", "Young's modulus (Pa)", PETSC_TRUE, &mt->E));
    PetscCall(RequireReal(PetscOptionsObject, m->comm, pre, "nu", "Poisson's ratio", PETSC_FALSE, &mt->nu));
    PetscCall(RequireReal(PetscOptionsObject, m->comm, pre, "rho", "Density (kg/m^3; 0 for a massless structure whose free DOFs get mass from point masses)", PETSC_FALSE, &mt->rho));
    PetscOptionsEnd();
    PetscCheck(mt->rho >= 0, m->comm, PETSC_ERR_USER_INPUT, "-%srho = %g must not be negative", pre, (double)mt->rho);
    PetscCheck(mt->nu > -1 && mt->nu < 0.5, m->comm, PETSC_ERR_USER_INPUT, "-%snu = %g is outside (-1, 0.5)", pre, (double)mt->nu);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadSixValues(PetscOptionItems *PetscOptionsObject, MPI_Comm comm, const char pre[], const char key[], const char help[], PetscInt minvals, PetscReal v[6], PetscBool required)
{
  PetscInt  n = 7; /* one more than read: a 7th value is refused, not dropped */
  PetscBool set;
  PetscReal w[7];
  char      opt[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%s", key));
  for (int d = 0; d < 7; d++)
    w[d] = d < 6 ? v[d] : 0;
  PetscCall(PetscOptionsRealArray(opt, help, "FlxModelSetFromOptions", w, &n, &set)); /* not the counting wrapper: 7 or more values are refused below */
  PetscCheck(!required || set, comm, PETSC_ERR_USER_INPUT, "missing property: give -%s%s (%s)", pre, key, help);
  PetscCheck(!set || n >= minvals, comm, PETSC_ERR_USER_INPUT, "-%s%s needs at least %" PetscInt_FMT " values", pre, key, minvals);
  PetscCheck(!set || n <= 6, comm, PETSC_ERR_USER_INPUT, "-%s%s has more than 6 values: give at most fx,fy,fz,mx,my,mz (or ux,uy,uz,rx,ry,rz)", pre, key);
  for (PetscInt d = 0; d < 6; d++)
    v[d] = set && d < n ? w[d] : 0;
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadLoads(FlxModel m)
{
  char              names[FLX_MAX_NAMES][FLX_NAME_LEN];
  const char *const types[] = {"force", "gravity", "pressure", "line", "traction", "FlxLoadType", "FLX_LOAD_", NULL};
  const char *const axes[]  = {"global", "element", "FlxLoadAxes", "FLX_AXES_", NULL};

  PetscFunctionBegin;
  PetscCall(ReadNames(m->comm, "load", "Names of the loads; each configured with -load_NAME_type, _group, _value, _function", names, &m->nload));
  for (PetscInt k = 0; k < m->nload; k++) {
    FlxLoad  *l = &m->load[k];
    char      pre[128], owner[128];
    PetscEnum ax = (PetscEnum)0;
    PetscBool set, axset;
    PetscCall(PetscStrncpy(l->name, names[k], FLX_NAME_LEN));
    PetscCall(PetscSNPrintf(pre, sizeof(pre), "load_%s_", l->name));
    PetscCall(PetscSNPrintf(owner, sizeof(owner), "load '%s'", l->name));
    PetscOptionsBegin(m->comm, pre, "Load", "FlxModel");
    PetscCall(PetscOptionsEnum("-type", "force (nodal force and moment on each node of the group), gravity (acceleration on the mass), pressure (on the shell elements of the group), line (force and moment per length on the beams or shell edges of the group) or traction (force per area in global axes on the shell elements of the group)", "FlxModelSetFromOptions", types, (PetscEnum)l->type, (PetscEnum *)&l->type, NULL));
    PetscCall(PetscOptionsString("-group", "Physical group of the loaded nodes or elements (gravity: default the whole model)", "FlxModelSetFromOptions", l->group, l->group, FLX_NAME_LEN, &set));
    PetscCall(ReadSixValues(PetscOptionsObject, m->comm, pre, "value", "force: fx,fy,fz[,mx,my,mz] per node (N, N m); gravity: gx,gy,gz (m/s^2); pressure: p (Pa, pushes against the element normal); line: fx,fy,fz[,mx,my,mz] per length (N/m, N m/m); traction: tx,ty,tz (Pa)", l->type == FLX_LOAD_PRESSURE ? 1 : 3, l->value, PETSC_TRUE));
    PetscCall(PetscOptionsEnum("-axes", "Line loads on beams: axes of the value, global or element (x along the beam, y and z its section axes)", "FlxModelSetFromOptions", axes, ax, &ax, &axset));
    PetscOptionsEnd();
    l->local = ax ? PETSC_TRUE : PETSC_FALSE;
    PetscCheck(l->type != FLX_LOAD_PRESSURE || (l->value[1] == 0 && l->value[2] == 0), m->comm, PETSC_ERR_USER_INPUT, "-%svalue: a pressure takes one value (Pa)", pre);
    PetscCheck(l->type != FLX_LOAD_TRACTION || (l->value[3] == 0 && l->value[4] == 0 && l->value[5] == 0), m->comm, PETSC_ERR_USER_INPUT, "-%svalue: a traction takes three values tx,ty,tz (Pa)", pre);
    PetscCheck(l->type != FLX_LOAD_GRAVITY || (l->value[3] == 0 && l->value[4] == 0 && l->value[5] == 0), m->comm, PETSC_ERR_USER_INPUT, "-%svalue: gravity takes three values gx,gy,gz (m/s^2)", pre);
    PetscCheck(!axset || l->type == FLX_LOAD_LINE, m->comm, PETSC_ERR_USER_INPUT, "-%saxes applies to line loads only (load '%s' is a %s load, in global axes)", pre, l->name, types[l->type]);
    PetscCheck(set || l->type == FLX_LOAD_GRAVITY, m->comm, PETSC_ERR_USER_INPUT, "load '%s' has no group: give -%sgroup NAME", l->name, pre);
    PetscCall(FlxTimeFunctionSetFromOptions(m->comm, pre, owner, &l->tf));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadICsAndMasses(FlxModel m)
{
  char              names[FLX_MAX_NAMES][FLX_NAME_LEN];
  const char *const types[] = {"displacement", "velocity", "mode", "spin", "FlxICType", "FLX_IC_", NULL};

  PetscFunctionBegin;
  PetscCall(ReadNames(m->comm, "ic", "Names of the initial conditions; each configured with -ic_NAME_type, and _group and _value (displacement, velocity; spin with _point) or _file, _mode and _amplitude (a mode shape)", names, &m->nic));
  for (PetscInt k = 0; k < m->nic; k++) {
    FlxIC    *c = &m->ic[k];
    char      pre[128];
    PetscBool set, setv, setf, setp;
    PetscCall(PetscStrncpy(c->name, names[k], FLX_NAME_LEN));
    PetscCall(PetscSNPrintf(pre, sizeof(pre), "ic_%s_", c->name));
    c->mode = 1;
    PetscOptionsBegin(m->comm, pre, "Initial condition", "FlxModel");
    PetscCall(PetscOptionsEnum("-type", "displacement or velocity (six values on a group), mode (a mode shape of 'flexure modes' times an amplitude, whole model) or spin (the velocity of a rigid rotation of the group: angular velocity wx,wy,wz about an axis through -ic_NAME_point)", "FlxModelSetFromOptions", types, (PetscEnum)c->type, (PetscEnum *)&c->type, NULL));
    PetscCall(PetscOptionsString("-group", "Physical group (or node set) of the nodes", "FlxModelSetFromOptions", c->group, c->group, FLX_NAME_LEN, &set));
    PetscCall(ReadSixValues(PetscOptionsObject, m->comm, pre, "value", "Six values ux,uy,uz,rx,ry,rz (or their rates); spin: the angular velocity wx,wy,wz (rad/s)", c->type == FLX_IC_SPIN ? 3 : 1, c->value, c->type != FLX_IC_MODE ? PETSC_TRUE : PETSC_FALSE));
    {
      PetscInt np = 3;
      PetscCall(FlxOptionsRealArray("-point", "Spin: a point of the rotation axis x,y,z (m; default the origin)", "FlxModelSetFromOptions", c->point, &np, &setp));
      PetscCheck(!setp || np == 3, m->comm, PETSC_ERR_USER_INPUT, "-%spoint takes three coordinates x,y,z", pre);
    }
    PetscCall(PetscOptionsBool("-steady", "Spin: start in the steadily spinning state (geometry nonlinear models): the configuration in which the structure, turning rigidly at -ic_NAME_value, is in equilibrium with its centrifugal forces (found by Newton), with the velocities of that rigid rotation", "FlxModelSetFromOptions", c->steady, &c->steady, NULL));
    PetscCall(PetscOptionsString("-file", "Mode shape: results file of 'flexure modes' on this model", "FlxModelSetFromOptions", c->file, c->file, sizeof(c->file), &setf));
    PetscCall(PetscOptionsInt("-mode", "Mode shape: mode number (1 = the lowest)", "FlxModelSetFromOptions", c->mode, &c->mode, NULL));
    PetscCall(PetscOptionsReal("-amplitude", "Mode shape: largest nodal translation of the initial displacement (m)", "FlxModelSetFromOptions", c->amplitude, &c->amplitude, NULL));
    PetscOptionsEnd();
    setv = (PetscBool)(c->value[0] != 0 || c->value[1] != 0 || c->value[2] != 0 || c->value[3] != 0 || c->value[4] != 0 || c->value[5] != 0);
    if (c->type == FLX_IC_MODE) {
      PetscCheck(setf, m->comm, PETSC_ERR_USER_INPUT, "initial condition '%s' (mode): give -%sfile MODES.h5 (from 'flexure modes' on this model), -%smode and -%samplitude", c->name, pre, pre, pre);
      PetscCheck(!set && !setv, m->comm, PETSC_ERR_USER_INPUT, "initial condition '%s' (mode): a mode shape applies to the whole model; drop -%sgroup and -%svalue", c->name, pre, pre);
      PetscCheck(c->mode >= 1, m->comm, PETSC_ERR_USER_INPUT, "-%smode %" PetscInt_FMT ": modes are numbered from 1", pre, c->mode);
      PetscCheck(c->amplitude != 0 && !PetscIsInfOrNanReal(c->amplitude), m->comm, PETSC_ERR_USER_INPUT, "initial condition '%s' (mode): -%samplitude must be a finite nonzero length", c->name, pre);
    } else {
      PetscCheck(set, m->comm, PETSC_ERR_USER_INPUT, "initial condition '%s' has no group: give -%sgroup NAME", c->name, pre);
      PetscCheck(!setf, m->comm, PETSC_ERR_USER_INPUT, "initial condition '%s': -%sfile is for -%stype mode", c->name, pre, pre);
    }
    PetscCheck(!setp || c->type == FLX_IC_SPIN, m->comm, PETSC_ERR_USER_INPUT, "initial condition '%s': -%spoint is for -%stype spin", c->name, pre, pre);
    PetscCheck(!c->steady || c->type == FLX_IC_SPIN, m->comm, PETSC_ERR_USER_INPUT, "initial condition '%s': -%ssteady is for -%stype spin", c->name, pre, pre);
    PetscCheck(c->type != FLX_IC_SPIN || (c->value[3] == 0 && c->value[4] == 0 && c->value[5] == 0), m->comm, PETSC_ERR_USER_INPUT, "-%svalue: a spin takes three values, the angular velocity wx,wy,wz (rad/s)", pre);
  }
  PetscCall(ReadNames(m->comm, "pointmass", "Names of the point masses; each configured with -pointmass_NAME_group, _mass, _inertia or _inertia_tensor", names, &m->npm));
  for (PetscInt k = 0; k < m->npm; k++) {
    FlxPointMass *p = &m->pm[k];
    char          pre[128];
    PetscInt      n = 3, n6;
    PetscBool     set, seti = PETSC_FALSE;
    PetscCall(PetscStrncpy(p->name, names[k], FLX_NAME_LEN));
    PetscCall(PetscSNPrintf(pre, sizeof(pre), "pointmass_%s_", p->name));
    PetscOptionsBegin(m->comm, pre, "Point mass", "FlxModel");
    PetscCall(PetscOptionsString("-group", "Physical group of the nodes that carry the mass (each node gets it)", "FlxModelSetFromOptions", p->group, p->group, FLX_NAME_LEN, &set));
    PetscCall(RequireReal(PetscOptionsObject, m->comm, pre, "mass", "Mass per node (kg)", PETSC_FALSE, &p->mass));
    PetscCall(FlxOptionsRealArray("-inertia", "Rotary inertia per node about x, y, z (kg m^2; nonlinear models lump the largest about every axis)", "FlxModelSetFromOptions", p->inertia, &n, &seti));
    n6 = 6;
    PetscCall(FlxOptionsRealArray("-inertia_tensor", "Full rotary inertia tensor per node Jxx,Jyy,Jzz,Jxy,Jxz,Jyz (kg m^2; J_xy = -int x y dm), global axes at t = 0, turning with the node, with its gyroscopic term (geometry nonlinear models only)", "FlxModelSetFromOptions", p->tensor, &n6, &p->has_tensor));
    PetscOptionsEnd();
    PetscCheck(!p->has_tensor || n6 == 6, m->comm, PETSC_ERR_USER_INPUT, "-%sinertia_tensor takes six values Jxx,Jyy,Jzz,Jxy,Jxz,Jyz", pre);
    PetscCheck(set, m->comm, PETSC_ERR_USER_INPUT, "point mass '%s' has no group: give -%sgroup NAME", p->name, pre);
    PetscCheck(p->mass >= 0, m->comm, PETSC_ERR_USER_INPUT, "-%smass must not be negative", pre);
    PetscCheck(!seti || n == 3, m->comm, PETSC_ERR_USER_INPUT, "-%sinertia takes three values Ix,Iy,Iz (kg m^2); %" PetscInt_FMT " given", pre, n);
    PetscCheck(p->inertia[0] >= 0 && p->inertia[1] >= 0 && p->inertia[2] >= 0, m->comm, PETSC_ERR_USER_INPUT, "-%sinertia must not be negative (%g, %g, %g)", pre, (double)p->inertia[0], (double)p->inertia[1], (double)p->inertia[2]);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelSetFromOptions(FlxModel m)
{
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(ReadMaterials(m));
  PetscCall(FlxModelReadSections(m));
  PetscCall(FlxModelReadBCs(m));
  PetscCall(ReadLoads(m));
  PetscCall(ReadICsAndMasses(m));
  PetscCall(FlxModelReadReactionOptions(m));
  PetscCall(FlxModelReadSprings(m));
  PetscCall(FlxModelReadGeometry(m));
  PetscCall(FlxModelReadStaticOptions(m));
  PetscOptionsBegin(m->comm, NULL, "Model", "FlxModel");
  PetscCall(PetscOptionsReal("-damping_mass", "Rayleigh damping: mass-proportional coefficient a_M (1/s), C = a_M M + b_K K", "FlxModelSetFromOptions", m->aM, &m->aM, NULL));
  PetscCall(PetscOptionsReal("-damping_stiffness", "Rayleigh damping: stiffness-proportional coefficient b_K (s)", "FlxModelSetFromOptions", m->bK, &m->bK, NULL));
  PetscCall(PetscOptionsBool("-model_nonlinear_cache", "Geometry nonlinear sections: internal force through a per-cell cache of the co-rotational elements' constant data (false: the general element kernels, which rebuild it at every call; slower, for checks)", "FlxModelSetFromOptions", m->nlcache, &m->nlcache, NULL));
  PetscCall(PetscOptionsEnum("-model_internal_force", "Internal force of the linear elements in explicit runs: auto (the faster by the roofline of both: bytes and flops of one product against -model_machine_balance), elements (element by element, K not assembled unless an implicit, modal or static solve or b_K damping needs it) or assembled (the assembled stiffness K)", "FlxModelSetFromOptions", FlxInternalForcePaths, (PetscEnum)m->fint_type, (PetscEnum *)&m->fint_type, NULL));
  PetscCall(PetscOptionsReal("-model_machine_balance", "Flops per byte of memory traffic this machine sustains (its compute rate over its bandwidth; flexure-bench measures it): the roofline of -model_internal_force auto", "FlxModelSetFromOptions", m->balance, &m->balance, NULL));
  PetscCall(PetscOptionsBool("-model_allow_rigid_body", "Accept a model with rigid-body motions (free-flying structure)", "FlxModelSetFromOptions", m->allow_rigid, &m->allow_rigid, NULL));
  PetscOptionsEnd();
  PetscCheck(m->aM >= 0 && m->bK >= 0, m->comm, PETSC_ERR_USER_INPUT, "-damping_mass and -damping_stiffness must not be negative");
  PetscCheck(m->balance > 0 && !PetscIsInfOrNanReal(m->balance), m->comm, PETSC_ERR_USER_INPUT, "-model_machine_balance %g must be a positive number of flops per byte", (double)m->balance);
  {
    PetscInt n       = 3;
    m->shell_axis[0] = 1;
    m->shell_axis[1] = m->shell_axis[2] = 0;
    PetscOptionsBegin(m->comm, NULL, "Output options", "FlxModel");
    PetscCall(FlxOptionsRealArray("-output_shell_axis", "Global axis whose projection on each shell element is x of the consistent frame of shell_stresses (fallback global Z, then X, where it is within 0.1 degree of the normal)", "FlxModelSetFromOptions", m->shell_axis, &n, &set));
    m->cellrows = 32768;
    PetscCall(PetscOptionsInt("-output_cell_rows", "Rows per rank and round of the cell fields' output (element forces, resultants, stresses): the output's buffers hold that many rows of one field", "FlxModelSetFromOptions", m->cellrows, &m->cellrows, NULL));
    PetscOptionsEnd();
    PetscCheck(m->cellrows >= 1, m->comm, PETSC_ERR_USER_INPUT, "-output_cell_rows %" PetscInt_FMT " must be at least 1", m->cellrows);
    PetscCheck(!set || (n == 3 && PetscSqrtReal(PetscSqr(m->shell_axis[0]) + PetscSqr(m->shell_axis[1]) + PetscSqr(m->shell_axis[2])) > 0), m->comm, PETSC_ERR_USER_INPUT, "-output_shell_axis needs three components, not all zero");
  }
  PetscFunctionReturn(0);
}

/* Group index by name, or a collective error that lists the groups of the mesh. */
PetscErrorCode FlxModelRequireGroup(FlxModel m, const char what[], const char group[], PetscInt *g)
{
  char        list[1024] = "";
  const char *src, *name;
  PetscInt    ng;

  PetscFunctionBegin;
  PetscCall(FlxMeshFindGroup(m->mesh, group, g));
  if (*g >= 0) PetscFunctionReturn(0);
  PetscCall(FlxMeshGetNumGroups(m->mesh, &ng));
  for (PetscInt k = 0; k < ng; k++) {
    PetscCall(FlxMeshGetGroup(m->mesh, k, &name, NULL));
    PetscCall(PetscStrlcat(list, k ? ", " : "", sizeof(list)));
    PetscCall(PetscStrlcat(list, name, sizeof(list)));
  }
  PetscCall(FlxMeshGetSource(m->mesh, &src));
  SETERRQ(m->comm, PETSC_ERR_USER_INPUT, "%s: unknown physical group '%s': mesh %s has the groups %s", what, group, src, list);
}

PetscErrorCode FlxModelCellDescription(FlxModel m, PetscInt cell, char buf[], size_t len)
{
  PetscInt    id, g;
  FlxCellType t;
  const char *gname;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetCellNaturalId(m->mesh, cell, &id));
  PetscCall(FlxMeshGetCell(m->mesh, cell, &t, NULL, NULL, &g));
  PetscCall(FlxMeshGetGroup(m->mesh, g, &gname, NULL));
  PetscCall(PetscSNPrintf(buf, len, "element %" PetscInt_FMT " (%s, group '%s')", id, FlxCellTypeNames[t], gname));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelSetRequireHeld(FlxModel m, const char why[])
{
  PetscFunctionBegin;
  PetscCall(PetscStrncpy(m->require_held, why ? why : "", sizeof(m->require_held)));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelSetUp(FlxModel m)
{
  PetscFunctionBegin;
  if (m->setup) PetscFunctionReturn(0);
  PetscCall(FlxModelCheckNodeSets(m));
  PetscCall(FlxModelAssignSections(m));
  PetscCall(FlxModelAssemble(m));
  PetscCall(FlxModelSetUpBCs(m));
  PetscCall(FlxModelFinishSprings(m));
  PetscCall(FlxModelSetUpLoads(m));
  for (PetscInt k = 0; k < m->nic; k++) {
    PetscInt g;
    char     what[128];
    if (m->ic[k].type == FLX_IC_MODE) continue;
    PetscCall(PetscSNPrintf(what, sizeof(what), "initial condition '%s' (-ic_%s_group)", m->ic[k].name, m->ic[k].name));
    PetscCall(FlxModelRequireGroup(m, what, m->ic[k].group, &g));
  }
  if (!m->allow_rigid || m->require_held[0]) PetscCall(FlxModelCheckRigidBody(m));
  PetscCall(FlxSystemSetMass(m->sys, m->mass, m->free));
  if (m->K) PetscCall(FlxSystemSetStiffness(m->sys, m->K));
  PetscCall(FlxSystemSetStiffnessFunction(m->sys, StiffnessProvider, m)); /* assembled on first need */
  PetscCall(FlxSystemSetConsistentMassFunction(m->sys, ConsistentMassProvider, m));
  PetscCall(FlxSystemSetNearNullSpaceFunction(m->sys, NearNullSpaceProvider, m));
  PetscCall(FlxSystemSetRayleigh(m->sys, m->aM, m->bK));
  PetscCall(SetRoundoff(m));
  PetscCall(FlxModelSetUpReactions(m));
  PetscCall(FlxModelSetUpNonlinear(m));
  if (m->bK == 0) PetscCall(VecDestroy(&m->kdiag)); /* kept for b_K: the Jacobi preconditioner of the explicit solve */
  PetscCall(FlxSystemSetStiffnessDiagonalFunction(m->sys, StiffnessDiagonalProvider, m));
  m->setup = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* K's diagonal: from the element pass of the set-up (kept with b_K), else from K (assembled if it was not). */
static PetscErrorCode StiffnessDiagonalProvider(FlxSystem sys, Vec d, void *ctx)
{
  FlxModel m = (FlxModel)ctx;
  Mat      K = NULL;

  PetscFunctionBegin;
  if (m->kdiag) {
    PetscCall(VecCopy(m->kdiag, d));
    PetscFunctionReturn(0);
  }
  PetscCall(FlxModelGetStiffness(m, &K));
  PetscCall(MatGetDiagonal(K, d));
  PetscFunctionReturn(0);
}

static PetscErrorCode StiffnessProvider(FlxSystem sys, Mat *K, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(FlxModelGetStiffness((FlxModel)ctx, K));
  PetscFunctionReturn(0);
}

static PetscErrorCode ConsistentMassProvider(FlxSystem sys, Mat *M, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(FlxModelGetConsistentMass((FlxModel)ctx, M));
  PetscFunctionReturn(0);
}

/* The six rigid-body motions, orthonormalized, as the near-null space for GAMG. */
static PetscErrorCode NearNullSpaceProvider(FlxSystem sys, MatNullSpace *nsp, void *ctx)
{
  FlxModel m = (FlxModel)ctx;
  Vec      R[6];

  PetscFunctionBegin;
  PetscCall(FlxModelCreateRigidBodyVectors(m, PETSC_FALSE, R));
  for (PetscInt k = 0; k < 6; k++) {
    PetscScalar dots[6];
    PetscReal   nrm;
    if (k) {
      PetscCall(VecMDot(R[k], k, R, dots));
      for (PetscInt j = 0; j < k; j++)
        dots[j] = -dots[j];
      PetscCall(VecMAXPY(R[k], k, dots, R));
    }
    PetscCall(VecNormalize(R[k], &nrm));
  }
  PetscCall(MatNullSpaceCreate(m->comm, PETSC_FALSE, 6, R, nsp));
  for (PetscInt k = 0; k < 6; k++)
    PetscCall(VecDestroy(&R[k]));
  PetscFunctionReturn(0);
}

/* Total mass of the translations along x (point masses included), its first moments s[1..3], and the bounding box
   of the nodes. Collective. */
static PetscErrorCode MassAndBox(FlxModel m, PetscReal s[4], PetscReal lo[3], PetscReal hi[3])
{
  const PetscScalar *ms;
  const PetscReal   *X;
  PetscInt           nown;

  PetscFunctionBegin;
  for (int d = 0; d < 4; d++)
    s[d] = 0;
  for (int d = 0; d < 3; d++) {
    lo[d] = PETSC_MAX_REAL;
    hi[d] = PETSC_MIN_REAL;
  }
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  PetscCall(FlxMeshGetCoordinates(m->mesh, &X));
  PetscCall(VecGetArrayRead(m->mass, &ms));
  for (PetscInt i = 0; i < nown; i++) {
    s[0] += ms[6 * i];
    for (int d = 0; d < 3; d++) {
      s[1 + d] += ms[6 * i] * X[3 * i + d];
      lo[d] = PetscMin(lo[d], X[3 * i + d]);
      hi[d] = PetscMax(hi[d], X[3 * i + d]);
    }
  }
  PetscCall(VecRestoreArrayRead(m->mass, &ms));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, s, 4, MPIU_REAL, MPI_SUM, m->comm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, lo, 3, MPIU_REAL, MPI_MIN, m->comm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, hi, 3, MPIU_REAL, MPI_MAX, m->comm));
  PetscFunctionReturn(0);
}

/* The system's round-off scales (FlxSystemSetRoundoff): L the bounding box's diagonal, and the largest energy that
   displacements of delta = 100 eps L can hold, 3 M omega_bound^2 delta^2 (M the total mass, omega_bound >=
   omega_max). A co-rotational f_int is zero at its reference configuration only to round-off of the nodal
   coordinates (eps L_e, L_e an element's length), and the steps add their own, slowly (a tower at rest: 1.4e-15 J
   after 12000 steps, against a floor of 2.3e-11 J): 100 eps L leaves room for both, and stays far below any
   displacement an engineer would read (2e-14 L). Collective. */
static PetscErrorCode SetRoundoff(FlxModel m)
{
  PetscReal s[4], lo[3], hi[3], L2 = 0;

  PetscFunctionBegin;
  PetscCall(MassAndBox(m, s, lo, hi));
  for (int d = 0; d < 3; d++)
    L2 += hi[d] > lo[d] ? PetscSqr(hi[d] - lo[d]) : 0;
  PetscCall(FlxSystemSetRoundoff(m->sys, PetscSqrtReal(L2), 3 * s[0] * PetscSqr(m->omega_bound) * PetscSqr(100 * PETSC_MACHINE_EPSILON) * L2));
  PetscFunctionReturn(0);
}

/* Total mass, centre of mass and bounding box: a unit slip (E in MPa in an SI model, a mesh in mm) shows at once. */
static PetscErrorCode ViewSummary(FlxModel m, PetscViewer viewer)
{
  PetscReal s[4], lo[3], hi[3];

  PetscFunctionBegin;
  PetscCall(MassAndBox(m, s, lo, hi));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  total mass %.6g kg, centre of mass (%.6g, %.6g, %.6g), bounding box (%.6g, %.6g, %.6g) to (%.6g, %.6g, %.6g)\n", (double)s[0], (double)(s[0] > 0 ? s[1] / s[0] : 0), (double)(s[0] > 0 ? s[2] / s[0] : 0), (double)(s[0] > 0 ? s[3] / s[0] : 0), (double)lo[0], (double)lo[1], (double)lo[2], (double)hi[0], (double)hi[1], (double)hi[2]));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelView(FlxModel m, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "Model: %" PetscInt_FMT " materials, %" PetscInt_FMT " sections, %" PetscInt_FMT " boundary conditions (%" PetscInt_FMT " prescribed DOFs), %" PetscInt_FMT " loads, %" PetscInt_FMT " initial conditions, %" PetscInt_FMT " point masses\n", m->nmat, m->nsec, m->nbc, m->nconstrained, m->nload, m->nic, m->npm));
  PetscCall(ViewSummary(m, viewer));
  for (PetscInt s = 0; s < m->nsec; s++) {
    const FlxSectionProps *p = &m->sec[s].props;
    if (m->sec[s].spring) continue; /* FlxModelViewSprings */
    if (m->sec[s].shell)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  section %s: shell (%s quads, %s triangles), material %s (E %g, nu %g, rho %g), thickness %g, shear correction %g, drilling %g G t, rotary inertia x%g\n", m->sec[s].name, m->sec[s].element[FLX_CELL_QUAD4], m->sec[s].element[FLX_CELL_TRI3], m->sec[s].material, (double)p->E, (double)p->nu, (double)p->rho, (double)p->t, (double)p->kappa_s, (double)p->drill, (double)p->rotary_scale));
    else {
      char shape[160] = "";
      if (m->sec[s].shape != FLX_SHAPE_NONE) {
        const FlxShapeDimensions *d = &m->sec[s].dims;
        switch (m->sec[s].shape) {
        case FLX_SHAPE_RECTANGLE:
          PetscCall(PetscSNPrintf(shape, sizeof(shape), "rectangle b %g h %g, ", (double)d->b, (double)d->h));
          break;
        case FLX_SHAPE_CIRCLE:
          PetscCall(PetscSNPrintf(shape, sizeof(shape), "circle d %g, ", (double)d->d));
          break;
        case FLX_SHAPE_TUBE:
          PetscCall(PetscSNPrintf(shape, sizeof(shape), "tube d %g t %g, ", (double)d->d, (double)d->t));
          break;
        default:
          PetscCall(PetscSNPrintf(shape, sizeof(shape), "%s b %g h %g tf %g tw %g, ", FlxSectionShapes[m->sec[s].shape], (double)d->b, (double)d->h, (double)d->tf, (double)d->tw));
        }
      }
      PetscCall(PetscViewerASCIIPrintf(viewer, "  section %s: %s, material %s (E %g, nu %g, rho %g), %sA %g, Iy %g, Iz %g, J %g, shear areas %g %g%s, rotary inertia x%g\n", m->sec[s].name, m->sec[s].element[FLX_CELL_LINE2], m->sec[s].material, (double)p->E, (double)p->nu, (double)p->rho, shape, (double)p->A, (double)p->Iy, (double)p->Iz, (double)p->J, (double)p->Asy, (double)p->Asz, p->Asy > 0 ? "" : " (Euler-Bernoulli)", (double)p->rotary_scale));
    }
  }
  PetscCall(FlxModelViewInternalForce(m, viewer));
  if (m->aM > 0 || m->bK > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  Rayleigh damping: a_M = %g 1/s, b_K = %g s\n", (double)m->aM, (double)m->bK));
  PetscCall(FlxModelViewSprings(m, viewer));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelDestroy(FlxModel *model)
{
  FlxModel m = *model;

  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(0);
  for (PetscInt k = 0; k < m->nsec; k++)
    for (int t = 0; t < FLX_NUM_CELL_TYPES; t++)
      PetscCall(PetscFree(m->sec[k].ops[t]));
  PetscCall(FlxModelDestroyBCs(m));
  for (PetscInt k = 0; k < m->nload; k++) {
    PetscCall(FlxTimeFunctionDestroy(&m->load[k].tf));
    PetscCall(PetscFree2(m->load[k].idx, m->load[k].val));
    PetscCall(VecDestroy(&m->load[k].g));
  }
  PetscCall(FlxModelDestroyResultants(m));
  PetscCall(FlxModelDestroySprings(m));
  PetscCall(FlxModelDestroyReactions(m));
  PetscCall(PetscFree(m->cell_section));
  PetscCall(PetscFree(m->usegroup));
  for (PetscInt k = 0; k < m->nload; k++)
    PetscCall(PetscFree2(m->load[k].ecell, m->load[k].efd));
  PetscCall(VecDestroy(&m->mass));
  PetscCall(VecDestroy(&m->free));
  PetscCall(VecDestroy(&m->work));
  PetscCall(MatDestroy(&m->K));
  PetscCall(FlxKMultDestroy(&m->kmult));
  PetscCall(FlxEbeDestroy(&m->ebe));
  PetscCall(VecDestroy(&m->kdiag));
  PetscCall(MatDestroy(&m->Mc));
  PetscCall(ISLocalToGlobalMappingDestroy(&m->l2g));
  PetscCall(VecScatterDestroy(&m->tonat));
  PetscCall(VecDestroy(&m->xnat));
  PetscCall(FlxModelDestroyNonlinear(m));
  PetscCall(FlxSystemDestroy(&m->sys));
  PetscCall(PetscFree(m));
  *model = NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelGetSystem(FlxModel m, FlxSystem *sys)
{
  PetscFunctionBegin;
  *sys = m->sys;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelGetMesh(FlxModel m, FlxMesh *mesh)
{
  PetscFunctionBegin;
  *mesh = m->mesh;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelCreateVector(FlxModel m, Vec *v)
{
  PetscFunctionBegin;
  PetscCall(VecDuplicate(m->mass, v));
  PetscCall(VecZeroEntries(*v));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelGetStiffness(FlxModel m, Mat *K)
{
  PetscFunctionBegin;
  PetscCall(FlxModelAssembleStiffness(m));
  *K = m->K;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelGetInitialConditions(FlxModel m, Vec x, Vec v)
{
  PetscScalar       *xa, *va;
  const PetscScalar *fr;

  PetscFunctionBegin;
  PetscCall(VecZeroEntries(x));
  PetscCall(VecZeroEntries(v));
  for (PetscInt k = 0; k < m->nic; k++) /* mode shapes first: values on groups then overwrite them */
    if (m->ic[k].type == FLX_IC_MODE) {
      char what[256];
      PetscCall(PetscSNPrintf(what, sizeof(what), "initial condition '%s' (-ic_%s_file)", m->ic[k].name, m->ic[k].name));
      PetscCall(FlxModelReadModeShape(m, m->ic[k].file, m->ic[k].mode, m->ic[k].amplitude, what, m->work));
      PetscCall(VecAXPY(x, 1.0, m->work));
    }
  PetscCall(VecGetArray(x, &xa));
  PetscCall(VecGetArray(v, &va));
  PetscCall(VecGetArrayRead(m->free, &fr));
  for (PetscInt k = 0; k < m->nic; k++) {
    const FlxIC     *c = &m->ic[k];
    PetscInt         g, n;
    const PetscInt  *nodes;
    const PetscReal *X, *w = c->value;
    PetscScalar     *a = c->type == FLX_IC_DISPLACEMENT ? xa : va;
    PetscInt         held = 0;
    if (c->type == FLX_IC_MODE) continue;
    PetscCall(FlxMeshFindGroup(m->mesh, c->group, &g));
    PetscCall(FlxMeshGetGroupNodes(m->mesh, g, &n, &nodes));
    PetscCall(FlxMeshGetCoordinates(m->mesh, &X));
    for (PetscInt i = 0; i < n; i++) {
      const PetscInt  j    = nodes[i];
      const PetscReal r[3] = {X[3 * j] - c->point[0], X[3 * j + 1] - c->point[1], X[3 * j + 2] - c->point[2]};
      PetscReal       val[6];
      if (c->type == FLX_IC_SPIN) { /* rigid rotation: v = w x (X - point), angular velocity w */
        val[0] = w[1] * r[2] - w[2] * r[1];
        val[1] = w[2] * r[0] - w[0] * r[2];
        val[2] = w[0] * r[1] - w[1] * r[0];
        for (int d = 0; d < 3; d++)
          val[3 + d] = w[d];
      } else
        for (int d = 0; d < 6; d++)
          val[d] = w[d];
      for (int d = 0; d < 6; d++) {
        a[6 * j + d] = val[d] * fr[6 * j + d];
        if (val[d] != 0 && fr[6 * j + d] == 0) held++;
      }
    }
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &held, 1, MPIU_INT, MPI_SUM, m->comm));
    if (held) /* said, not silent: a support keeps its prescribed motion */
      PetscCall(PetscPrintf(m->comm, "flexure: note: initial condition '%s' gives non-zero values to %" PetscInt_FMT " DOF%s that boundary conditions prescribe: %s prescribed motion (the value is not applied there)\n", c->name, held, held > 1 ? "s" : "", held > 1 ? "they keep their" : "it keeps its"));
  }
  PetscCall(VecRestoreArrayRead(m->free, &fr));
  PetscCall(VecRestoreArray(x, &xa));
  PetscCall(VecRestoreArray(v, &va));
  PetscCall(VecPointwiseMult(x, x, m->free));
  for (PetscInt k = 0; k < m->nic; k++)
    if (m->ic[k].steady) PetscCall(FlxModelSteadySpin(m, k, x, v)); /* spin.c */
  PetscFunctionReturn(0);
}
