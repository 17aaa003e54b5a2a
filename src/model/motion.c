/* Boundary conditions and prescribed motion: the options (-bc_NAME_*, -base_*), the free-DOF mask, the list of
   moving DOFs with their motion, and the base excitation.

   A boundary condition without a value holds its DOFs at rest. With a value it prescribes their motion:
   x(t) = value f(t) (type displacement), or value times the first or second integral of f from t = 0 (type
   velocity or acceleration). The steppers take x, v, a, j and s of a moving DOF from the derivatives of that
   motion (FlxTimeFunctionEvaluateDerivatives: exact for every time function, those of the linear interpolant
   for tables).

   Base excitation: a support acceleration a_g(t) = value f(t) along the translations, e.g. a recorded ground
   motion (-base_function table -base_table_file quake.txt). Relative formulation: the unknowns are the motion
   relative to the supports, the supports stay fixed and the load is -M r a_g (r the rigid translation, lumped
   mass as for gravity). Absolute formulation: the supports' excited translations move with u_g = value int int
   f, v_g, a_g, as prescribed motion, and so do the ground ends of the springs to ground (-base_springs, default
   all): their force K_s (u - r u_g) + C_s (v - r v_g) takes K_s r u_g + C_s r v_g as a load (loads.c), as the
   relative formulation's springs act on the relative motion. For a stiffness-proportional (or no) damping both
   give the same relative motion; mass-proportional damping acts on the absolute velocity in one and the relative
   in the other. */
#include <flexure/private/modelimpl.h>

static const char *const MotionTypes[] = {"displacement", "velocity", "acceleration", "FlxMotionType", "FLX_MOTION_", NULL};
static PetscErrorCode    CheckConnected(FlxModel);
static const char *const BaseForms[] = {"none", "relative", "absolute", "FlxBaseFormulation", "FLX_BASE_", NULL};

/* DOF list: clamped (all six), pinned (translations) or a list of ux,uy,uz,rx,ry,rz; order[] gets the DOFs in the
   order given. */
static PetscErrorCode ParseDofs(MPI_Comm comm, const char opt[], const char str[], PetscBool dofs[6], PetscInt order[6], PetscInt *n)
{
  char buf[256], *tok, *save = NULL;

  PetscFunctionBegin;
  *n = 0;
  for (int d = 0; d < 6; d++)
    dofs[d] = PETSC_FALSE;
  if (!strcmp(str, "all") || !strcmp(str, "clamped") || !strcmp(str, "pinned")) {
    for (int d = 0; d < (str[0] == 'p' ? 3 : 6); d++) {
      dofs[d]       = PETSC_TRUE;
      order[(*n)++] = d;
    }
    PetscFunctionReturn(0);
  }
  PetscCheck(strlen(str) < sizeof(buf), comm, PETSC_ERR_USER_INPUT, "%s: '%s' is too long for a list of DOFs", opt, str);
  PetscCall(PetscStrncpy(buf, str, sizeof(buf)));
  for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    int found = -1;
    while (*tok == ' ')
      tok++;
    for (int d = 0; d < 6; d++)
      if (!strcmp(tok, FlxDofNames[d])) found = d;
    PetscCheck(found >= 0, comm, PETSC_ERR_USER_INPUT, "%s: unknown DOF '%s' (use clamped, pinned or a list of ux,uy,uz,rx,ry,rz)", opt, tok);
    PetscCheck(!dofs[found], comm, PETSC_ERR_USER_INPUT, "%s: DOF %s is listed twice", opt, tok);
    dofs[found]   = PETSC_TRUE;
    order[(*n)++] = found;
  }
  PetscCheck(*n > 0, comm, PETSC_ERR_USER_INPUT, "%s: no DOFs given", opt);
  PetscFunctionReturn(0);
}

/* Whether the user set any key of the time function (it is read even for homogeneous conditions, for -help). */
static PetscBool TimeFunctionGiven(const FlxTimeFunction *tf)
{
  return (PetscBool)(tf->type != FLX_TF_CONSTANT || tf->t0 != 0 || tf->t1 != 0 || tf->freq != 0 || tf->ntab > 0);
}

static PetscErrorCode ReadBC(FlxModel m, FlxBC *b)
{
  char      pre[128], owner[160], dofs[256] = "clamped", opt[160];
  PetscReal v[6];
  PetscInt  nv = 6, order[6], nd;
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(pre, sizeof(pre), "bc_%s_", b->name));
  PetscCall(PetscSNPrintf(owner, sizeof(owner), "boundary condition '%s'", b->name));
  PetscOptionsBegin(m->comm, pre, "Boundary condition", "FlxModel");
  PetscCall(PetscOptionsString("-group", "Physical group (or node set) whose nodes are constrained", "FlxModelSetFromOptions", b->group, b->group, FLX_NAME_LEN, &set));
  PetscCheck(set, m->comm, PETSC_ERR_USER_INPUT, "boundary condition '%s' has no group: give -%sgroup NAME", b->name, pre);
  PetscCall(PetscOptionsString("-dofs", "Constrained DOFs: clamped, pinned, or a list of ux,uy,uz,rx,ry,rz", "FlxModelSetFromOptions", dofs, dofs, sizeof(dofs), NULL));
  PetscCall(FlxOptionsRealArray("-value", "Prescribed motion: one value for every DOF of -dofs, or one per DOF in the order listed (m, rad; times the time function); without it the DOFs are held at rest", "FlxModelSetFromOptions", v, &nv, &b->prescribed));
  PetscCall(PetscOptionsEnum("-type", "What -value and the time function prescribe: displacement, velocity or acceleration (integrated from t = 0)", "FlxModelSetFromOptions", MotionTypes, (PetscEnum)b->mtype, (PetscEnum *)&b->mtype, NULL));
  PetscOptionsEnd();
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%sdofs", pre));
  PetscCall(ParseDofs(m->comm, opt, dofs, b->dofs, order, &nd));
  PetscCall(FlxTimeFunctionSetFromOptions(m->comm, pre, owner, &b->tf));
  if (!b->prescribed) {
    PetscCheck(!TimeFunctionGiven(&b->tf) && b->mtype == FLX_MOTION_DISPLACEMENT, m->comm, PETSC_ERR_USER_INPUT, "%s: a time function or -%stype without -%svalue: give the value of the prescribed motion, or drop them to hold the DOFs at rest", owner, pre, pre);
    PetscFunctionReturn(0);
  }
  PetscCheck(nv == 1 || nv == nd, m->comm, PETSC_ERR_USER_INPUT, "-%svalue has %" PetscInt_FMT " numbers: give one for all %" PetscInt_FMT " DOFs of -%sdofs, or one per DOF", pre, nv, nd, pre);
  for (PetscInt k = 0; k < nd; k++) {
    b->value[order[k]] = v[nv == 1 ? 0 : k];
    PetscCheck(!PetscIsInfOrNanReal(b->value[order[k]]), m->comm, PETSC_ERR_USER_INPUT, "-%svalue: %g is not a finite number", pre, (double)b->value[order[k]]);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadBase(FlxModel m)
{
  FlxBase  *bs = &m->base;
  PetscInt  n  = 3;
  char     *list[FLX_MAX_NAMES], *slist[FLX_MAX_NAMES];
  PetscInt  nb = FLX_MAX_NAMES, ns = FLX_MAX_NAMES;
  PetscBool setv, setb, sets;

  PetscFunctionBegin;
  PetscOptionsBegin(m->comm, "base_", "Base excitation", "FlxModel");
  PetscCall(PetscOptionsEnum("-formulation", "Base excitation: none, relative (load -M r a_g, supports fixed, results relative to them) or absolute (supports move with the ground)", "FlxModelSetFromOptions", BaseForms, (PetscEnum)bs->form, (PetscEnum *)&bs->form, NULL));
  PetscCall(FlxOptionsRealArray("-value", "Ground acceleration a_g = value f(t): gx,gy,gz (m/s^2 per unit of the time function; with a table of accelerations, the direction and scale)", "FlxModelSetFromOptions", bs->value, &n, &setv));
  PetscCall(PetscOptionsStringArray("-bcs", "Absolute formulation: the boundary conditions whose nodes are the supports that move with the ground (default: all; the relative formulation moves them all)", "FlxModelSetFromOptions", list, &nb, &setb));
  PetscCall(PetscOptionsStringArray("-springs", "Absolute formulation: the springs to ground (-spring_names) whose ground ends move with the ground (default: all; none: none; the relative formulation moves them all)", "FlxModelSetFromOptions", slist, &ns, &sets));
  PetscOptionsEnd();
  PetscCall(FlxTimeFunctionSetFromOptions(m->comm, "base_", "the base excitation", &bs->tf));
  bs->nbcs = setb ? nb : 0;
  for (PetscInt k = 0; k < bs->nbcs; k++) {
    PetscCheck(strlen(list[k]) < FLX_NAME_LEN, m->comm, PETSC_ERR_USER_INPUT, "-base_bcs: the name '%s' is longer than %d characters", list[k], FLX_NAME_LEN - 1);
    PetscCall(PetscStrncpy(bs->bcs[k], list[k], FLX_NAME_LEN));
    PetscCall(PetscFree(list[k]));
  }
  bs->nsprings = sets ? (ns == 1 && !strcmp(slist[0], "none") ? 0 : ns) : -1;
  for (PetscInt k = 0; k < (sets ? ns : 0); k++) {
    PetscCheck(strlen(slist[k]) < FLX_NAME_LEN, m->comm, PETSC_ERR_USER_INPUT, "-base_springs: the name '%s' is longer than %d characters", slist[k], FLX_NAME_LEN - 1);
    PetscCall(PetscStrncpy(bs->springs[k], slist[k], FLX_NAME_LEN));
    PetscCall(PetscFree(slist[k]));
  }
  if (bs->form == FLX_BASE_NONE) {
    PetscCheck(!setv && !setb && !sets && !TimeFunctionGiven(&bs->tf), m->comm, PETSC_ERR_USER_INPUT, "base excitation keys given without -base_formulation relative|absolute");
    PetscFunctionReturn(0);
  }
  PetscCheck(bs->form == FLX_BASE_ABSOLUTE || (!setb && !sets), m->comm, PETSC_ERR_USER_INPUT, "-base_%s chooses what moves with the ground in the absolute formulation; the relative formulation moves every support and the ground end of every spring to ground with it: use -base_formulation absolute for supports that do not all move", setb ? "bcs" : "springs");
  PetscCheck(setv && n == 3, m->comm, PETSC_ERR_USER_INPUT, "-base_formulation %s needs -base_value gx,gy,gz (the ground acceleration per unit of the time function)", BaseForms[bs->form]);
  for (int d = 0; d < 3; d++)
    PetscCheck(!PetscIsInfOrNanReal(bs->value[d]), m->comm, PETSC_ERR_USER_INPUT, "-base_value: %g is not a finite number", (double)bs->value[d]);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelReadBCs(FlxModel m)
{
  char    *list[FLX_MAX_NAMES];
  PetscInt n = FLX_MAX_NAMES;

  PetscFunctionBegin;
  PetscOptionsBegin(m->comm, NULL, "Boundary conditions", "FlxModel");
  PetscCall(PetscOptionsStringArray("-bc_names", "Names of the boundary conditions; each configured with -bc_NAME_group, _dofs and, for a prescribed motion, _value, _type and a time function", "FlxModelSetFromOptions", list, &n, NULL));
  PetscOptionsEnd();
  m->nbc = n;
  for (PetscInt k = 0; k < n; k++) {
    PetscCheck(strlen(list[k]) < FLX_NAME_LEN, m->comm, PETSC_ERR_USER_INPUT, "-bc_names: the name '%s' is longer than %d characters", list[k], FLX_NAME_LEN - 1);
    PetscCall(PetscStrncpy(m->bc[k].name, list[k], FLX_NAME_LEN));
    PetscCall(PetscFree(list[k]));
    for (PetscInt j = 0; j < k; j++)
      PetscCheck(strcmp(m->bc[j].name, m->bc[k].name), m->comm, PETSC_ERR_USER_INPUT, "-bc_names: '%s' is given twice", m->bc[k].name);
  }
  for (PetscInt k = 0; k < m->nbc; k++)
    PetscCall(ReadBC(m, &m->bc[k]));
  PetscCall(ReadBase(m));
  PetscFunctionReturn(0);
}

/* Natural node and DOF name of local DOF i, for messages. */
static PetscErrorCode DofName(FlxSystem sys, PetscInt i, char name[], size_t len, void *ctx)
{
  FlxModel        m = (FlxModel)ctx;
  const PetscInt *nat;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetNaturalIds(m->mesh, &nat));
  PetscCall(PetscSNPrintf(name, len, "node %" PetscInt_FMT " DOF %s", nat[i / 6], FlxDofNames[i % 6]));
  PetscFunctionReturn(0);
}

/* The moving DOFs' motion: each source (a BC or the base) evaluated once, then scaled per DOF. */
static PetscErrorCode MotionFn(FlxSystem sys, PetscReal t, PetscInt kmin, PetscInt kmax, PetscReal vals[], void *ctx)
{
  FlxModel         m  = (FlxModel)ctx;
  const FlxMotion *mv = &m->motion;
  PetscReal        der[FLX_MAX_NAMES + 1][7]; /* derivatives -2..4 of each source's time function */
  PetscBool        done[FLX_MAX_NAMES + 1] = {PETSC_FALSE};

  PetscFunctionBegin;
  for (PetscInt i = 0; i < mv->n; i++) {
    PetscInt s = mv->src[i] + 1;
    if (!done[s]) {
      PetscCall(FlxTimeFunctionEvaluateDerivatives(s ? &m->bc[s - 1].tf : &m->base.tf, t, -2, 4, der[s]));
      done[s] = PETSC_TRUE;
    }
    for (PetscInt k = kmin; k <= kmax; k++)
      vals[(k - kmin) * mv->n + i] = mv->scale[i] * der[s][k - mv->shift[i] + 2];
  }
  PetscFunctionReturn(0);
}

/* The BC of each local DOF: owner[i] = BC index (-1 none; -2 the base); conflicts between a prescribed motion and
   any other condition on the same DOF are refused, naming the node. */
static PetscErrorCode AssignDofs(FlxModel m, PetscInt owner[], PetscInt nloc)
{
  char      msg[512] = "";
  PetscBool bad      = PETSC_FALSE;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < nloc; i++)
    owner[i] = -1;
  for (PetscInt k = 0; k < m->nbc && !bad; k++) {
    PetscInt        g, n;
    const PetscInt *nodes;
    char            what[128];
    PetscCall(PetscSNPrintf(what, sizeof(what), "boundary condition '%s' (-bc_%s_group)", m->bc[k].name, m->bc[k].name));
    PetscCall(FlxModelRequireGroup(m, what, m->bc[k].group, &g));
    PetscCall(FlxMeshGetGroupNodes(m->mesh, g, &n, &nodes));
    for (PetscInt i = 0; i < n && !bad; i++)
      for (int d = 0; d < 6 && !bad; d++) {
        PetscInt dof = 6 * nodes[i] + d, o = owner[dof];
        if (!m->bc[k].dofs[d]) continue;
        if (o >= 0 && (m->bc[o].prescribed || m->bc[k].prescribed)) {
          char name[128];
          PetscCall(DofName(m->sys, dof, name, sizeof(name), m));
          PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s is constrained by boundary conditions '%s' and '%s', and %s prescribes a motion: a DOF takes one prescribed motion, or is held at rest", name, m->bc[o].name, m->bc[k].name, m->bc[k].prescribed ? m->bc[k].name : m->bc[o].name));
          bad = PETSC_TRUE;
        }
        if (o < 0 || m->bc[k].prescribed) owner[dof] = k;
      }
  }
  PetscCall(FlxCheckCollective(m->comm, bad, PETSC_ERR_USER_INPUT, msg));
  PetscFunctionReturn(0);
}

/* Absolute base excitation: the excited translations of the supports' DOFs move with the ground (owner -2). */
static PetscErrorCode BaseSupports(FlxModel m, PetscInt owner[], PetscInt nloc)
{
  FlxBase  *bs = &m->base;
  PetscBool use[FLX_MAX_NAMES];

  PetscFunctionBegin;
  for (PetscInt k = 0; k < m->nbc; k++)
    use[k] = bs->nbcs ? PETSC_FALSE : PETSC_TRUE;
  for (PetscInt j = 0; j < bs->nbcs; j++) {
    PetscInt found = -1;
    for (PetscInt k = 0; k < m->nbc; k++)
      if (!strcmp(m->bc[k].name, bs->bcs[j])) found = k;
    PetscCheck(found >= 0, m->comm, PETSC_ERR_USER_INPUT, "-base_bcs: '%s' is not a boundary condition of -bc_names", bs->bcs[j]);
    use[found] = PETSC_TRUE;
  }
  for (PetscInt k = 0; k < m->nbc; k++) {
    if (!use[k]) continue;
    for (int d = 0; d < 3; d++) {
      PetscCheck(bs->value[d] == 0 || m->bc[k].dofs[d], m->comm, PETSC_ERR_USER_INPUT, "base excitation along %s: boundary condition '%s' does not constrain %s, so its nodes cannot follow the ground (add %s to -bc_%s_dofs, or leave it out of -base_bcs)", FlxDofNames[d], m->bc[k].name, FlxDofNames[d], FlxDofNames[d], m->bc[k].name);
      PetscCheck(bs->value[d] == 0 || !m->bc[k].prescribed, m->comm, PETSC_ERR_USER_INPUT, "boundary condition '%s' prescribes a motion and is a support of the absolute base excitation: leave it out of -base_bcs", m->bc[k].name);
    }
  }
  for (PetscInt i = 0; i < nloc; i++) {
    PetscInt o = owner[i], d = i % 6;
    if (o >= 0 && d < 3 && bs->value[d] != 0 && use[o]) owner[i] = -2;
  }
  PetscFunctionReturn(0);
}

/* Relative base excitation: the load vector -M r (r the unit rigid translation times value), free DOFs only. */
/* -M r a_g on every node, the supports' included: the steppers do not use it on prescribed DOFs, but the reactions
   R = f_int + M a - f_ext there then carry the supports' own inertia m a_g, as in the absolute formulation. */
static PetscErrorCode BaseLoad(FlxModel m)
{
  PetscScalar       *g;
  const PetscScalar *ms;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(m->mass, &m->base.g));
  PetscCall(VecGetLocalSize(m->mass, &n));
  PetscCall(VecGetArray(m->base.g, &g));
  PetscCall(VecGetArrayRead(m->mass, &ms));
  for (PetscInt i = 0; i < n; i++)
    g[i] = i % 6 < 3 ? -ms[i] * m->base.value[i % 6] : 0;
  PetscCall(VecRestoreArrayRead(m->mass, &ms));
  PetscCall(VecRestoreArray(m->base.g, &g));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelSetUpBCs(FlxModel m)
{
  PetscScalar *f;
  PetscReal    nfree;
  PetscInt     N, nloc, *owner, cnt = 0;
  FlxMotion   *mv = &m->motion;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(m->mass, &nloc));
  PetscCall(PetscMalloc1(nloc + 1, &owner));
  PetscCall(AssignDofs(m, owner, nloc));
  if (m->base.form == FLX_BASE_ABSOLUTE) PetscCall(BaseSupports(m, owner, nloc));
  PetscCall(VecDuplicate(m->mass, &m->free));
  PetscCall(VecGetArray(m->free, &f));
  for (PetscInt i = 0; i < nloc; i++) {
    f[i] = owner[i] == -1 ? 1.0 : 0.0;
    if (owner[i] == -2 || (owner[i] >= 0 && m->bc[owner[i]].prescribed && m->bc[owner[i]].value[i % 6] != 0)) cnt++;
  }
  PetscCall(VecRestoreArray(m->free, &f));
  PetscCall(VecSum(m->free, &nfree));
  PetscCall(VecGetSize(m->free, &N));
  m->nconstrained = N - (PetscInt)(nfree + 0.5);
  PetscCall(PetscMalloc4(cnt + 1, &mv->idx, cnt + 1, &mv->src, cnt + 1, &mv->scale, cnt + 1, &mv->shift));
  mv->n = 0;
  for (PetscInt i = 0; i < nloc; i++) {
    PetscInt o = owner[i];
    if (o == -2) {
      mv->idx[mv->n]   = i;
      mv->src[mv->n]   = -1;
      mv->scale[mv->n] = m->base.value[i % 6];
      mv->shift[mv->n] = FLX_MOTION_ACCELERATION;
      mv->n++;
    } else if (o >= 0 && m->bc[o].prescribed && m->bc[o].value[i % 6] != 0) {
      mv->idx[mv->n]   = i;
      mv->src[mv->n]   = o;
      mv->scale[mv->n] = m->bc[o].value[i % 6];
      mv->shift[mv->n] = m->bc[o].mtype;
      mv->n++;
    }
  }
  PetscCall(PetscFree(owner));
  PetscCall(FlxSystemSetPrescribedMotion(m->sys, mv->n, mv->idx, MotionFn, m));
  PetscCall(FlxSystemSetDofNameFunction(m->sys, DofName, m));
  if (m->base.form == FLX_BASE_RELATIVE) PetscCall(BaseLoad(m));
  if (m->base.form == FLX_BASE_ABSOLUTE) PetscCall(FlxModelGroundSpringBaseVectors(m, m->base.nsprings, m->base.springs, m->base.value, &m->base.gk, &m->base.gc));
  PetscCall(CheckConnected(m));
  PetscFunctionReturn(0);
}

/* A free DOF with neither mass nor stiffness belongs to nothing: refuse it, naming the node. */
static PetscErrorCode CheckConnected(FlxModel m)
{
  const PetscScalar *ms, *fr, *kd;
  PetscInt           n, bad = -1;
  char               msg[256] = "", name[128];

  PetscFunctionBegin;
  PetscCall(VecCopy(m->kdiag, m->work)); /* K's diagonal, from the assembly's element pass */
  PetscCall(VecGetLocalSize(m->mass, &n));
  PetscCall(VecGetArrayRead(m->mass, &ms));
  PetscCall(VecGetArrayRead(m->free, &fr));
  PetscCall(VecGetArrayRead(m->work, &kd));
  for (PetscInt i = 0; i < n && bad < 0; i++)
    if (fr[i] > 0.5 && !(ms[i] > 0) && !(PetscAbsScalar(kd[i]) > 0)) bad = i;
  PetscCall(VecRestoreArrayRead(m->work, &kd));
  PetscCall(VecRestoreArrayRead(m->free, &fr));
  PetscCall(VecRestoreArrayRead(m->mass, &ms));
  if (bad >= 0) {
    PetscCall(DofName(m->sys, bad, name, sizeof(name), m));
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s has neither mass nor stiffness: is the node connected to any element, spring or point mass?", name));
  }
  PetscCall(FlxCheckCollective(m->comm, bad >= 0 ? PETSC_TRUE : PETSC_FALSE, PETSC_ERR_USER_INPUT, msg));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelDestroyBCs(FlxModel m)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < m->nbc; k++)
    PetscCall(FlxTimeFunctionDestroy(&m->bc[k].tf));
  PetscCall(FlxTimeFunctionDestroy(&m->base.tf));
  PetscCall(VecDestroy(&m->base.g));
  PetscCall(VecDestroy(&m->base.gk));
  PetscCall(VecDestroy(&m->base.gc));
  PetscCall(PetscFree4(m->motion.idx, m->motion.src, m->motion.scale, m->motion.shift));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelSetStaticMotion(FlxModel m, PetscReal lambda, Vec u, PetscBool *any)
{
  const FlxMotion *mv = &m->motion;
  PetscScalar     *a;
  PetscInt         flag[FLX_MAX_NAMES + 1] = {0}, n = m->nbc + 1; /* 1 displacement, 2 no static value; [nbc] the base */

  PetscFunctionBegin;
  PetscCall(VecGetArray(u, &a));
  for (PetscInt i = 0; i < mv->n; i++) {
    PetscInt s = mv->src[i] >= 0 ? mv->src[i] : m->nbc;
    if (mv->src[i] >= 0 && mv->shift[i] == FLX_MOTION_DISPLACEMENT) {
      a[mv->idx[i]] = lambda * mv->scale[i];
      flag[s]       = 1;
    } else
      flag[s] = 2;
  }
  PetscCall(VecRestoreArray(u, &a));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, flag, (PetscMPIInt)n, MPIU_INT, MPI_MAX, m->comm));
  *any = PETSC_FALSE;
  for (PetscInt k = 0; k < n; k++) {
    if (flag[k] == 1) *any = PETSC_TRUE;
    if (flag[k] != 2 || m->note_static_motion) continue;
    if (k < m->nbc)
      PetscCall(PetscPrintf(m->comm, "flexure: note: boundary condition '%s' prescribes %s history, which has no static value: flexure static holds its DOFs at rest (a static imposed displacement is -bc_%s_type displacement)\n", m->bc[k].name, m->bc[k].mtype == FLX_MOTION_VELOCITY ? "a velocity" : "an acceleration", m->bc[k].name));
    else
      PetscCall(PetscPrintf(m->comm, "flexure: note: the base excitation is a transient input: flexure static holds the supports at rest\n"));
  }
  m->note_static_motion = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelGetBaseMotion(FlxModel m, PetscReal t, PetscInt *form, PetscReal ug[3], PetscReal vg[3], PetscReal ag[3])
{
  PetscReal d[3];

  PetscFunctionBegin;
  *form = (PetscInt)m->base.form;
  if (m->base.form == FLX_BASE_NONE) PetscFunctionReturn(0);
  PetscCall(FlxTimeFunctionEvaluateDerivatives(&m->base.tf, t, -2, 0, d));
  for (int k = 0; k < 3; k++) {
    if (ug) ug[k] = m->base.value[k] * d[0];
    if (vg) vg[k] = m->base.value[k] * d[1];
    if (ag) ag[k] = m->base.value[k] * d[2];
  }
  PetscFunctionReturn(0);
}
