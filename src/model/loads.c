/* Loads with time functions (nodal forces, gravity, pressure and traction on shells, line loads on beams and
   shell edges) and the static solve. */
#include <flexure/private/modelimpl.h>
#include <petsc/private/petscimpl.h> /* PetscObjectStateGet: whether f changed since the last f_ext */

static PetscErrorCode ExternalForce(FlxSystem, PetscReal, Vec, void *);
static PetscErrorCode ExternalForceRate(FlxSystem, PetscReal, Vec, void *);

/* Add the owned-node rows of an element force vector fe (6 per node) to a. */
static void AddOwned(PetscInt nn, const PetscInt nodes[], PetscInt nown, const PetscReal fe[], PetscScalar a[])
{
  for (PetscInt k = 0; k < nn; k++)
    if (nodes[k] < nown)
      for (int d = 0; d < 6; d++)
        a[6 * nodes[k] + d] += fe[6 * k + d];
}

/* Consistent nodal forces of a pressure or a traction on the shell elements of group g, summed per owned node
   over the local cells in the global cell order (the same order at any number of ranks). */
static PetscErrorCode SurfaceLoad(FlxModel m, FlxLoad *l, PetscInt g)
{
  PetscInt     nc, nown, ncg = 0;
  PetscScalar *a;
  PetscBool    bad      = PETSC_FALSE;
  char         msg[256] = "";
  const char  *kind     = l->type == FLX_LOAD_PRESSURE ? "pressure" : "traction";

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, &nc));
  PetscCall(VecDuplicate(m->mass, &l->g));
  PetscCall(VecZeroEntries(l->g));
  PetscCall(VecGetArray(l->g, &a));
  for (PetscInt c = 0; c < nc; c++) {
    const FlxSectionProps *p;
    FlxElementOps          ops;
    PetscReal              xyz[12], fe[24];
    const PetscInt        *nodes;
    PetscInt               nn, cg;
    PetscCall(FlxMeshGetCell(m->mesh, c, NULL, &nn, &nodes, &cg));
    if (cg != g) continue;
    ncg++;
    PetscCall(FlxModelElementProps(m, c, &p, &ops, xyz));
    if (!ops || !ops->pressure || !ops->traction) {
      char desc[256];
      PetscCall(FlxModelCellDescription(m, c, desc, sizeof(desc)));
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "load '%s': a %s needs shell elements, and %s is not one%s", l->name, kind, desc, ops ? "" : " (its group has no section)"));
      bad = PETSC_TRUE;
      break;
    }
    if (l->type == FLX_LOAD_PRESSURE)
      PetscCall(ops->pressure(xyz, p, l->value[0], fe));
    else
      PetscCall(ops->traction(xyz, p, l->value, fe));
    AddOwned(nn, nodes, nown, fe, a);
  }
  PetscCall(VecRestoreArray(l->g, &a));
  PetscCall(FlxCheckCollective(m->comm, bad, PETSC_ERR_USER_INPUT, msg));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ncg, 1, MPIU_INT, MPI_SUM, m->comm));
  PetscCheck(ncg > 0, m->comm, PETSC_ERR_USER_INPUT, "load '%s': group '%s' has no elements to carry a %s (-load_%s_group must name a surface group)", l->name, l->group, kind, l->name);
  PetscFunctionReturn(0);
}

/* Local cells around each local node (CSR), for finding the shell elements along an edge. */
static PetscErrorCode NodeCells(FlxModel m, PetscInt **ptr, PetscInt **idx)
{
  PetscInt nown, nghost, nc, *p, *q, *off;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, &nghost, &nc));
  PetscCall(PetscCalloc1(nown + nghost + 1, &p));
  for (PetscInt c = 0; c < nc; c++) {
    const PetscInt *nodes;
    PetscInt        nn;
    PetscCall(FlxMeshGetCell(m->mesh, c, NULL, &nn, &nodes, NULL));
    for (PetscInt k = 0; k < nn; k++)
      p[nodes[k] + 1]++;
  }
  for (PetscInt i = 0; i < nown + nghost; i++)
    p[i + 1] += p[i];
  PetscCall(PetscMalloc1(p[nown + nghost] + 1, &q));
  PetscCall(PetscMalloc1(nown + nghost + 1, &off));
  PetscCall(PetscArraycpy(off, p, nown + nghost + 1));
  for (PetscInt c = 0; c < nc; c++) {
    const PetscInt *nodes;
    PetscInt        nn;
    PetscCall(FlxMeshGetCell(m->mesh, c, NULL, &nn, &nodes, NULL));
    for (PetscInt k = 0; k < nn; k++)
      q[off[nodes[k]]++] = c;
  }
  PetscCall(PetscFree(off));
  *ptr = p;
  *idx = q;
  PetscFunctionReturn(0);
}

/* Whether some shell element holds both nodes of the edge (n0, n1). */
static PetscErrorCode IsShellEdge(FlxModel m, const PetscInt ptr[], const PetscInt idx[], PetscInt n0, PetscInt n1, PetscBool *edge)
{
  PetscFunctionBegin;
  *edge = PETSC_FALSE;
  for (PetscInt q = ptr[n0]; q < ptr[n0 + 1] && !*edge; q++) {
    const FlxSectionProps *p;
    FlxElementOps          ops;
    const PetscInt        *nodes;
    PetscInt               nn;
    PetscReal              xyz[12];
    PetscCall(FlxModelElementProps(m, idx[q], &p, &ops, xyz));
    if (!ops || !ops->resultants) continue;
    PetscCall(FlxMeshGetCell(m->mesh, idx[q], NULL, &nn, &nodes, NULL));
    for (PetscInt k = 0; k < nn; k++)
      if (nodes[k] == n1) *edge = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

/* Line load on the line cells of group g: on beams, the element's consistent nodal forces (kept per owned cell
   for the section forces); on shell edges (line cells without a section along a shell element), a force and
   moment per length distributed linearly, q L / 2 to each node (global axes). */
static PetscErrorCode LineLoad(FlxModel m, FlxLoad *l, PetscInt g)
{
  PetscInt     nc, nown, cnt[3] = {0, 0, 0}, *ptr = NULL, *idx = NULL;
  PetscScalar *a;
  PetscBool    bad      = PETSC_FALSE;
  char         msg[512] = "";

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, &nc));
  PetscCall(NodeCells(m, &ptr, &idx));
  PetscCall(VecDuplicate(m->mass, &l->g));
  PetscCall(VecZeroEntries(l->g));
  PetscCall(VecGetArray(l->g, &a));
  PetscCall(PetscMalloc2(nc + 1, &l->ecell, 12 * nc + 1, &l->efd));
  for (PetscInt c = 0; c < nc && !bad; c++) {
    const FlxSectionProps *p;
    FlxElementOps          ops;
    FlxCellType            t;
    PetscReal              xyz[12], fe[12];
    const PetscInt        *nodes;
    PetscInt               nn, cg;
    PetscBool              owned, edge;
    char                   desc[256];
    PetscCall(FlxMeshGetCell(m->mesh, c, &t, &nn, &nodes, &cg));
    if (cg != g) continue;
    if (t != FLX_CELL_LINE2) {
      cnt[2]++;
      continue;
    }
    PetscCall(FlxModelElementProps(m, c, &p, &ops, xyz));
    PetscCall(FlxMeshIsCellOwned(m->mesh, c, &owned));
    if (ops && ops->line_load) { /* beam */
      PetscCall(ops->line_load(xyz, p, l->value, l->local, fe));
      AddOwned(nn, nodes, nown, fe, a);
      if (owned) {
        l->ecell[l->ne] = c;
        PetscCall(PetscArraycpy(l->efd + 12 * l->ne++, fe, 12));
      }
      cnt[0]++;
      continue;
    }
    PetscCall(FlxModelCellDescription(m, c, desc, sizeof(desc)));
    if (ops) {
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "load '%s': %s is an element of type %s, which takes no line load", l->name, desc, ops->name));
      bad = PETSC_TRUE;
      break;
    }
    PetscCall(IsShellEdge(m, ptr, idx, nodes[0], nodes[1], &edge));
    if (!edge) {
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "load '%s' (-load_%s_group %s): %s is neither a beam (its group has no section) nor along the edge of a shell element; a line load needs beams or shell edges", l->name, l->name, l->group, desc));
      bad = PETSC_TRUE;
      break;
    }
    if (l->local) {
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "load '%s': -load_%s_axes element applies to beams; %s is a shell edge, loaded in global axes", l->name, l->name, desc));
      bad = PETSC_TRUE;
      break;
    }
    {
      PetscReal L = PetscSqrtReal(PetscSqr(xyz[3] - xyz[0]) + PetscSqr(xyz[4] - xyz[1]) + PetscSqr(xyz[5] - xyz[2]));
      for (int d = 0; d < 6; d++)
        fe[d] = fe[6 + d] = l->value[d] * L / 2;
    }
    AddOwned(nn, nodes, nown, fe, a);
    cnt[1]++;
  }
  PetscCall(VecRestoreArray(l->g, &a));
  PetscCall(PetscFree(ptr));
  PetscCall(PetscFree(idx));
  { /* the loaded beams' vectors alone, not room for every local cell (12 doubles each: a load on a few beams of a large model) */
    PetscInt  *ec;
    PetscReal *ef;
    PetscCall(PetscMalloc2(l->ne + 1, &ec, 12 * l->ne + 1, &ef));
    PetscCall(PetscArraycpy(ec, l->ecell, l->ne));
    PetscCall(PetscArraycpy(ef, l->efd, 12 * l->ne));
    PetscCall(PetscFree2(l->ecell, l->efd));
    l->ecell = ec;
    l->efd   = ef;
  }
  PetscCall(FlxCheckCollective(m->comm, bad, PETSC_ERR_USER_INPUT, msg));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, cnt, 3, MPIU_INT, MPI_SUM, m->comm));
  PetscCheck(cnt[0] + cnt[1] > 0, m->comm, PETSC_ERR_USER_INPUT, "load '%s': a line load needs beam elements or shell edges, and group '%s' (-load_%s_group) has none (%s)", l->name, l->group, l->name,
             cnt[2] ? "it holds surface elements: use a pressure or a traction, or a curve group along the edge" : "it holds no line cells; the cells of a curve in several physical groups belong to the first");
  PetscFunctionReturn(0);
}

/* Gravity on a group of elements: their own lumped translational masses times g at the owned nodes, summed over the
   local cells of group g in the global cell order (the same sums at any rank count). The nodes' whole lumped mass
   would add the mass of other elements and point masses that share them: gravity on a plate's stiffeners weighed
   263 N against their 148 N (found by a helper). */
static PetscErrorCode GroupWeight(FlxModel m, PetscInt g, const PetscReal value[3], PetscScalar a[])
{
  PetscInt nown, nc;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, &nc));
  for (PetscInt c = 0; c < nc; c++) {
    const FlxSectionProps *p;
    FlxElementOps          ops;
    PetscReal              xyz[12], me[24];
    const PetscInt        *nodes;
    PetscInt               nn, cg;
    PetscCall(FlxMeshGetCell(m->mesh, c, NULL, &nn, &nodes, &cg));
    if (cg != g || (m->cell_section[c] >= 0 && m->sec[m->cell_section[c]].spring)) continue; /* springs have no mass */
    PetscCall(FlxModelElementProps(m, c, &p, &ops, xyz));
    if (!ops) continue; /* a node-set cell: no mass */
    PetscCall(ops->lumped_mass(xyz, p, me));
    for (PetscInt i = 0; i < 6 * nn; i++) /* the weight: translations times g, no moment */
      me[i] = i % 6 < 3 ? me[i] * value[i % 6] : 0;
    AddOwned(nn, nodes, nown, me, a);
  }
  PetscFunctionReturn(0);
}

/* Consistent nodal forces of every load at full value; errors name the load and its group. */
PetscErrorCode FlxModelSetUpLoads(FlxModel m)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < m->nload; k++) {
    FlxLoad        *l = &m->load[k];
    PetscInt        g = -1, n = 0;
    const PetscInt *nodes = NULL;
    if (l->group[0]) { /* it exists and has nodes (FlxModelSetUp checked) */
      PetscCall(FlxMeshFindGroup(m->mesh, l->group, &g));
      PetscCall(FlxMeshGetGroupNodes(m->mesh, g, &n, &nodes));
    }
    if (l->type == FLX_LOAD_FORCE) {
      l->n = 0;
      PetscCall(PetscMalloc2(6 * n + 1, &l->idx, 6 * n + 1, &l->val));
      for (PetscInt i = 0; i < n; i++)
        for (int d = 0; d < 6; d++)
          if (l->value[d] != 0) {
            l->idx[l->n]   = 6 * nodes[i] + d;
            l->val[l->n++] = l->value[d];
          }
    } else if (l->type == FLX_LOAD_PRESSURE || l->type == FLX_LOAD_TRACTION)
      PetscCall(SurfaceLoad(m, l, g));
    else if (l->type == FLX_LOAD_LINE)
      PetscCall(LineLoad(m, l, g));
    else {
      PetscScalar       *a;
      const PetscScalar *ms;
      PetscCall(VecDuplicate(m->mass, &l->g));
      PetscCall(VecZeroEntries(l->g));
      PetscCall(VecGetArray(l->g, &a));
      PetscCall(VecGetArrayRead(m->mass, &ms));
      PetscBool elements = PETSC_FALSE; /* a set of elements: a section names the group */
      for (PetscInt s = 0; g >= 0 && s < m->nsec; s++)
        for (PetscInt j = 0; j < m->sec[s].ngroups; j++)
          if (!strcmp(m->sec[s].groups[j], l->group)) elements = PETSC_TRUE;
      if (elements)
        PetscCall(GroupWeight(m, g, l->value, a)); /* the weight of the group's elements alone */
      else if (g >= 0) {                           /* a node set: the whole lumped mass of its nodes, point masses included */
        for (PetscInt i = 0; i < n; i++)
          for (int d = 0; d < 3; d++)
            a[6 * nodes[i] + d] = ms[6 * nodes[i] + d] * l->value[d];
      } else {
        PetscInt nloc;
        PetscCall(VecGetLocalSize(m->mass, &nloc));
        for (PetscInt i = 0; i < nloc / 6; i++)
          for (int d = 0; d < 3; d++)
            a[6 * i + d] = ms[6 * i + d] * l->value[d];
      }
      PetscCall(VecRestoreArrayRead(m->mass, &ms));
      PetscCall(VecRestoreArray(l->g, &a));
    }
  }
  m->fext.id = 0; /* the loads may have changed: no f_ext is current */
  PetscCall(FlxSystemSetExternalForce(m->sys, ExternalForce, ExternalForceRate, m));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelDistributedLoadsBegin(FlxModel m, PetscReal t, FlxLoadCursor *lc)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < m->nload; k++) {
    PetscReal ds;
    lc->s[k]   = 1;
    lc->pos[k] = 0;
    if (m->load[k].ne && t != FLX_LOADS_FULL) PetscCall(FlxTimeFunctionEvaluate(&m->load[k].tf, t, &lc->s[k], &ds));
  }
  PetscFunctionReturn(0);
}

void FlxModelDistributedLoadOfCell(FlxModel m, FlxLoadCursor *lc, PetscInt c, PetscReal fd[12])
{
  for (int i = 0; i < 12; i++)
    fd[i] = 0;
  for (PetscInt k = 0; k < m->nload; k++) { /* the loads in their order: the sums of the full vector before */
    const FlxLoad *l = &m->load[k];
    while (lc->pos[k] < l->ne && l->ecell[lc->pos[k]] < c)
      lc->pos[k]++;
    if (lc->pos[k] < l->ne && l->ecell[lc->pos[k]] == c)
      for (int i = 0; i < 12; i++)
        fd[i] += lc->s[k] * l->efd[12 * lc->pos[k] + i];
  }
}

/* a += s g over this rank's entries: no collective call, so that ranks may decide apart whether f_ext is current
   (ExternalForce: a stepper writes into f on the ranks that own moving DOFs only). Not collective. */
static PetscErrorCode AddScaled(PetscScalar *a, PetscReal s, Vec g)
{
  const PetscScalar *ga;
  PetscInt           n;

  PetscFunctionBegin;
  if (s == 0) PetscFunctionReturn(0);
  PetscCall(VecGetLocalSize(g, &n));
  PetscCall(VecGetArrayRead(g, &ga));
  for (PetscInt i = 0; i < n; i++)
    a[i] += s * ga[i];
  PetscCall(VecRestoreArrayRead(g, &ga));
  PetscCall(PetscLogFlops(2.0 * n));
  PetscFunctionReturn(0);
}

/* Sum of the loads, each scaled by its time function (rate = PETSC_TRUE: by its derivative; static: by 1). Every
   factor of time here is one of LoadFactors' too: ExternalForce reuses f when they are all unchanged. Local work
   only (AddScaled). Not collective. */
static PetscErrorCode SumLoads(FlxModel m, PetscReal t, PetscInt mode, Vec f)
{
  PetscScalar *a;
  PetscInt     n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(f, &n));
  PetscCall(VecGetArray(f, &a));
  PetscCall(PetscArrayzero(a, n));
  for (PetscInt k = 0; k < m->nload; k++) {
    FlxLoad  *l = &m->load[k];
    PetscReal s = 1, ds = 0;
    if (mode != 2) PetscCall(FlxTimeFunctionEvaluate(&l->tf, t, &s, &ds));
    if (mode == 1) s = ds;
    if (s == 0) continue;
    for (PetscInt i = 0; i < l->n; i++)
      a[l->idx[i]] += s * l->val[i];
  }
  for (PetscInt k = 0; k < m->nload; k++) {
    FlxLoad  *l = &m->load[k];
    PetscReal s = 1, ds = 0;
    if (!l->g) continue;
    if (mode != 2) PetscCall(FlxTimeFunctionEvaluate(&l->tf, t, &s, &ds));
    if (mode == 1) s = ds;
    PetscCall(AddScaled(a, s, l->g));
  }
  if (m->base.g) { /* relative base excitation: -M r a_g(t) */
    PetscReal s = 1, ds = 0;
    if (mode != 2) PetscCall(FlxTimeFunctionEvaluate(&m->base.tf, t, &s, &ds));
    if (mode == 1) s = ds;
    PetscCall(AddScaled(a, s, m->base.g));
  }
  if (m->base.gk && mode != 2) { /* absolute base excitation, springs to ground: K_s r u_g(t) + C_s r v_g(t) */
    PetscReal d[3];              /* the second and first integrals of the ground acceleration's time function, and f */
    PetscCall(FlxTimeFunctionEvaluateDerivatives(&m->base.tf, t, -2, 0, d));
    PetscCall(AddScaled(a, d[mode], m->base.gk));
    if (m->base.gc) PetscCall(AddScaled(a, d[mode + 1], m->base.gc));
  }
  PetscCall(VecRestoreArray(f, &a));
  PetscFunctionReturn(0);
}

/* The scale factors of f_ext at t (SumLoads, mode 0): every load's time function, the relative base excitation's and
   the two of the absolute one's springs (0 where absent). */
static PetscErrorCode LoadFactors(FlxModel m, PetscReal t, PetscReal s[])
{
  PetscReal ds, d[3];

  PetscFunctionBegin;
  for (PetscInt k = 0; k < m->nload; k++)
    PetscCall(FlxTimeFunctionEvaluate(&m->load[k].tf, t, &s[k], &ds));
  s[m->nload] = s[m->nload + 1] = s[m->nload + 2] = 0;
  if (m->base.g) PetscCall(FlxTimeFunctionEvaluate(&m->base.tf, t, &s[m->nload], &ds));
  if (m->base.gk) {
    PetscCall(FlxTimeFunctionEvaluateDerivatives(&m->base.tf, t, -2, 0, d));
    s[m->nload + 1] = d[0];
    s[m->nload + 2] = d[1];
  }
  PetscFunctionReturn(0);
}

/* f_ext(t). Skipped when f is the vector this wrote last, unchanged since (its object state), and every scale factor
   is the same: constant loads, or a time function on a plateau, cost an explicit step no pass over the vector (the
   1e6-DOF plate under pressure: a zeroing and an AXPY, 32 of about 260 bytes per DOF a step moves). */
static PetscErrorCode ExternalForce(FlxSystem sys, PetscReal t, Vec f, void *ctx)
{
  FlxModel         m = (FlxModel)ctx;
  PetscReal        s[FLX_MAX_NAMES + 3];
  PetscObjectId    id;
  PetscObjectState state;
  PetscBool        same;

  PetscFunctionBegin;
  PetscCall(LoadFactors(m, t, s));
  PetscCall(PetscObjectGetId((PetscObject)f, &id));
  PetscCall(PetscObjectStateGet((PetscObject)f, &state));
  same = (PetscBool)(m->fext.id == id && m->fext.state == state);
  for (PetscInt k = 0; same && k < m->nload + 3; k++)
    same = (PetscBool)(s[k] == m->fext.s[k]);
  if (same) PetscFunctionReturn(0);
  PetscCall(SumLoads(m, t, 0, f));
  m->fext.id = id;
  PetscCall(PetscObjectStateGet((PetscObject)f, &m->fext.state));
  PetscCall(PetscArraycpy(m->fext.s, s, m->nload + 3));
  PetscFunctionReturn(0);
}

static PetscErrorCode ExternalForceRate(FlxSystem sys, PetscReal t, Vec f, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(SumLoads((FlxModel)ctx, t, 1, f));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelSolveStatic(FlxModel m, Vec u)
{
  Mat                Kc;
  Vec                f;
  KSP                ksp;
  PC                 pc;
  IS                 rows;
  KSPConvergedReason reason;
  PetscMPIInt        size;
  PetscBool          any;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(FLX_StaticSolve, 0, 0, 0, 0));
  PetscCall(VecDuplicate(m->mass, &f));
  PetscCall(SumLoads(m, 0, 2, f));
  PetscCall(FlxSystemCreatePrescribedIS(m->sys, &rows));
  PetscCall(FlxModelAssembleStiffness(m));
  PetscCall(MatConvert(m->K, MATAIJ, MAT_INITIAL_MATRIX, &Kc));
  PetscCall(VecZeroEntries(u));
  PetscCall(FlxModelSetStaticMotion(m, 1.0, u, &any)); /* prescribed displacements; MatZeroRowsColumns moves K_fp u_p to f */
  PetscCall(MatZeroRowsColumnsIS(Kc, rows, 1.0, u, f));
  PetscCall(KSPCreate(m->comm, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, "static_"));
  PetscCall(KSPSetOperators(ksp, Kc, Kc));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCallMPI(MPI_Comm_size(m->comm, &size));
  PetscCall(PCSetType(pc, PCLU));
  if (size > 1) PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSolve(ksp, f, u));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCheck(reason > 0, m->comm, PETSC_ERR_NOT_CONVERGED, "the static solve failed (%s): is the model constrained?", KSPConvergedReasons[reason]);
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&Kc));
  PetscCall(ISDestroy(&rows));
  PetscCall(VecDestroy(&f));
  PetscCall(PetscLogEventEnd(FLX_StaticSolve, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelComputeStaticLoad(FlxModel m, Vec f)
{
  PetscFunctionBegin;
  PetscCall(SumLoads(m, 0, 2, f));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelNaturalDof(FlxModel m, PetscInt node, PetscInt d, PetscInt *gdof)
{
  PetscInt g;

  PetscFunctionBegin;
  PetscCall(FlxMeshNaturalToGlobal(m->mesh, node, &g, NULL));
  *gdof = 6 * g + d;
  PetscFunctionReturn(0);
}
