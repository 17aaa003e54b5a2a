/* Assembly of the stiffness (MPIBAIJ, block size 6, exact preallocation from the nodal graph), the
   lumped mass, the consistent mass (on request) and the element-by-element frequency bound. */
#include <flexure/private/modelimpl.h>

/* Section properties, kernels and node coordinates of a local cell; p and ops NULL for node-set cells (no section). */
PetscErrorCode FlxModelElementProps(FlxModel m, PetscInt cell, const FlxSectionProps **p, FlxElementOps *ops, PetscReal xyz[])
{
  const PetscReal *X;
  const PetscInt  *nodes;
  PetscInt         nn;
  FlxCellType      t;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetCoordinates(m->mesh, &X));
  PetscCall(FlxMeshGetCell(m->mesh, cell, &t, &nn, &nodes, NULL));
  for (PetscInt a = 0; a < nn; a++)
    for (int c = 0; c < 3; c++)
      xyz[3 * a + c] = X[3 * nodes[a] + c];
  if (m->cell_section[cell] < 0) {
    *p   = NULL;
    *ops = NULL;
    PetscFunctionReturn(0);
  }
  *p   = &m->sec[m->cell_section[cell]].props;
  *ops = m->sec[m->cell_section[cell]].ops[t];
  PetscFunctionReturn(0);
}

/* Add the rows of an element matrix (row-major, 6 nn square) and lumped mass that belong to owned nodes.
   Every rank holds all cells touching its nodes (halo cells included) in the global cell order, so each block is
   summed in the same order at any number of ranks and nothing goes off-process. */
PetscErrorCode FlxModelAddOwnedRows(FlxModel m, Mat A, PetscInt nn, const PetscInt nodes[], const PetscReal Ke[], const PetscReal me[])
{
  PetscInt nown;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  for (PetscInt a = 0; a < nn; a++) {
    if (nodes[a] >= nown) continue;
    PetscCall(MatSetValuesBlockedLocal(A, 1, &nodes[a], nn, nodes, Ke + 36 * nn * a, ADD_VALUES));
    if (me) PetscCall(VecSetValuesBlockedLocal(m->mass, 1, &nodes[a], me + 6 * a, ADD_VALUES));
  }
  PetscFunctionReturn(0);
}

/* An MPIBAIJ (block size 6) over the model's DOFs with dnz, onz blocks in the owned block rows, the mesh's local to
   global map set; no new nonzero may be added later. Collective. */
static PetscErrorCode CreateBAIJ(FlxModel m, const PetscInt dnz[], const PetscInt onz[], Mat *A)
{
  PetscInt nown;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  PetscCall(MatCreate(m->comm, A));
  PetscCall(MatSetSizes(*A, 6 * nown, 6 * nown, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetType(*A, MATBAIJ));
  PetscCall(MatSetBlockSize(*A, 6));
  PetscCall(MatXAIJSetPreallocation(*A, 6, dnz, onz, NULL, NULL));
  PetscCall(MatSetLocalToGlobalMapping(*A, m->l2g, m->l2g));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  PetscCall(MatSetOption(*A, MAT_NO_OFF_PROC_ENTRIES, PETSC_TRUE));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelCreateBAIJ(FlxModel m, Mat *A)
{
  const PetscInt *dnz, *onz;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetPreallocation(m->mesh, &dnz, &onz));
  PetscCall(CreateBAIJ(m, dnz, onz, A));
  PetscFunctionReturn(0);
}

static int ComparePair(const void *a, const void *b)
{
  const PetscInt *x = (const PetscInt *)a, *y = (const PetscInt *)b;
  return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : (x[1] < y[1] ? -1 : (x[1] > y[1] ? 1 : 0));
}

PetscErrorCode FlxModelCreateBAIJBlocks(FlxModel m, PetscInt n, PetscInt pairs[], Mat *A)
{
  PetscInt nown, *dnz, *onz;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  PetscCall(PetscCalloc2(nown + 1, &dnz, nown + 1, &onz));
  if (n) qsort(pairs, (size_t)n, 2 * sizeof(PetscInt), ComparePair);
  for (PetscInt k = 0; k < n; k++) {
    if (k && pairs[2 * k] == pairs[2 * k - 2] && pairs[2 * k + 1] == pairs[2 * k - 1]) continue; /* a repeat */
    PetscCheck(pairs[2 * k] >= 0 && pairs[2 * k] < nown, PETSC_COMM_SELF, PETSC_ERR_PLIB, "block row %" PetscInt_FMT " is not owned", pairs[2 * k]);
    if (pairs[2 * k + 1] < nown)
      dnz[pairs[2 * k]]++;
    else
      onz[pairs[2 * k]]++;
  }
  PetscCall(CreateBAIJ(m, dnz, onz, A));
  PetscCall(PetscFree2(dnz, onz));
  PetscFunctionReturn(0);
}

/* The diagonal entries of an element matrix (6 nn square) on owned nodes into m->kdiag (the connectivity check). */
static PetscErrorCode AddDiagonal(FlxModel m, PetscInt nn, const PetscInt nodes[], const PetscReal Ke[])
{
  PetscInt nown;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  for (PetscInt a = 0; a < nn; a++) {
    PetscReal dg[6];
    if (nodes[a] >= nown) continue;
    for (int c = 0; c < 6; c++)
      dg[c] = Ke[(6 * a + c) * 6 * nn + 6 * a + c];
    PetscCall(VecSetValuesBlockedLocal(m->kdiag, 1, &nodes[a], dg, ADD_VALUES));
  }
  PetscFunctionReturn(0);
}

/* Element-by-element bound: max over elements of lambda_max(M_e^-1 K_e) >= omega_max^2 (computed at assembly). */
static PetscErrorCode OmegaBound(FlxSystem sys, PetscReal *omega, char what[], size_t len, void *ctx)
{
  PetscFunctionBegin;
  *omega = ((FlxModel)ctx)->omega_bound;
  if (what) PetscCall(FlxModelDescribeCriticalElement((FlxModel)ctx, what, len));
  PetscFunctionReturn(0);
}

/* f_int = K (x + b_K v) + C_d v (the element loop or the assembled product); the mass-proportional part of the
   damping is the stepper's. */
static PetscErrorCode InternalForce(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  FlxModel m = (FlxModel)ctx;

  PetscFunctionBegin;
  if (m->bK != 0) {
    PetscCall(VecWAXPY(m->work, m->bK, v, x));
    PetscCall(FlxModelApplyStiffness(m, m->work, f));
  } else
    PetscCall(FlxModelApplyStiffness(m, x, f));
  if (m->kmultC) PetscCall(FlxKMultApplyAdd(m->kmultC, v, f)); /* discrete dampers (springs.c) */
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelApplyStiffness(FlxModel m, Vec x, Vec f)
{
  PetscFunctionBegin;
  if (m->fint_elements)
    PetscCall(FlxEbeApply(m->ebe, x, f, PETSC_FALSE, NULL));
  else
    PetscCall(FlxKMultApply(m->kmult, x, f));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelApplyInitialStiffness(FlxModel m, Vec x, Vec f)
{
  PetscFunctionBegin;
  if (m->fint_elements)
    PetscCall(FlxEbeApply(m->ebe, x, f, PETSC_TRUE, NULL));
  else
    PetscCall(FlxKMultApply(m->kmult, x, f));
  PetscFunctionReturn(0);
}

/* Finite rotations (geometrically nonlinear models): a spherical nodal rotary inertia j I, j the largest of the
   node's three lumped values in global axes (for a beam along a global axis its polar value rho L/2 (Iy + Iz)), so
   that the rotational equations in spatial form are j omega' = m, without a gyroscopic term, and the explicit
   steppers stay explicit (docs/nonlinear.md, "Rotary inertia"). Never less than the lumped values: the rotational
   frequencies, and so the critical step, do not rise. Collective. */
static PetscErrorCode SphericalRotaryInertia(FlxModel m)
{
  PetscScalar *a;
  PetscInt     n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(m->mass, &n));
  PetscCall(VecGetArray(m->mass, &a));
  for (PetscInt i = 0; i < n; i += 6) {
    const PetscReal j = PetscMax(PetscMax(a[i + 3], a[i + 4]), a[i + 5]);
    a[i + 3] = a[i + 4] = a[i + 5] = j;
  }
  PetscCall(VecRestoreArray(m->mass, &a));
  PetscFunctionReturn(0);
}

/* Deterministic start vector for the power iteration: a hash of the natural DOF number, so that the
   estimate, and so the step size, do not depend on the number of ranks. */
static PetscErrorCode PowerStart(FlxModel m)
{
  Vec             x0;
  PetscScalar    *a;
  PetscInt        nown;
  const PetscInt *nat;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  PetscCall(FlxMeshGetNaturalIds(m->mesh, &nat));
  PetscCall(VecDuplicate(m->mass, &x0));
  PetscCall(VecGetArray(x0, &a));
  for (PetscInt i = 0; i < nown; i++)
    for (int d = 0; d < 6; d++) {
      unsigned long long h = (unsigned long long)(6 * nat[i] + d) * 0x9E3779B97F4A7C15ULL;
      h ^= h >> 31;
      h *= 0xBF58476D1CE4E5B9ULL;
      h ^= h >> 29;
      a[6 * i + d] = (PetscScalar)((double)(h >> 11) / 9007199254740992.0 - 0.5);
    }
  PetscCall(VecRestoreArray(x0, &a));
  PetscCall(FlxSystemSetPowerStart(m->sys, x0));
  PetscCall(VecDestroy(&x0));
  PetscFunctionReturn(0);
}

static PetscErrorCode CreateNaturalScatter(FlxModel m)
{
  PetscInt        nown;
  const PetscInt *nat;
  IS              to;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  PetscCall(FlxMeshGetNaturalIds(m->mesh, &nat));
  PetscCall(VecCreateMPI(m->comm, 6 * nown, PETSC_DETERMINE, &m->xnat));
  PetscCall(ISCreateBlock(m->comm, 6, nown, nat, PETSC_COPY_VALUES, &to));
  PetscCall(VecScatterCreate(m->mass, NULL, m->xnat, to, &m->tonat));
  PetscCall(ISDestroy(&to));
  PetscFunctionReturn(0);
}

/* The diagonal of a spring's stiffness into the connectivity check's diagonal (owned rows). */
static PetscErrorCode SpringDiagonal(FlxModel m, PetscInt nn, const PetscInt nodes[], const PetscReal Ke[], const PetscReal Ce[], void *ctx)
{
  PetscFunctionBegin;
  PetscCall(AddDiagonal(m, nn, nodes, Ke));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelAssemble(FlxModel m)
{
  PetscInt        nown, nghost, nc;
  const PetscInt *l2g;
  PetscBool       bad      = PETSC_FALSE;
  char            msg[512] = "";
  PetscReal       lmax     = 0, lambda;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(FLX_Assemble, 0, 0, 0, 0));
  m->crit_cell = -1;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, &nghost, &nc));
  PetscCall(FlxMeshGetLocalToGlobal(m->mesh, &l2g));
  PetscCall(ISLocalToGlobalMappingCreate(m->comm, 6, nown + nghost, l2g, PETSC_COPY_VALUES, &m->l2g));
  PetscCall(VecCreateMPI(m->comm, 6 * nown, PETSC_DETERMINE, &m->mass));
  PetscCall(VecSetBlockSize(m->mass, 6));
  PetscCall(VecSetLocalToGlobalMapping(m->mass, m->l2g));
  PetscCall(VecZeroEntries(m->mass));
  PetscCall(VecDuplicate(m->mass, &m->kdiag));
  PetscCall(VecZeroEntries(m->kdiag));
  PetscCall(FlxModelAssembleSprings(m)); /* springs.c: checks, dampers into C_d */
  PetscCall(FlxModelVisitSprings(m, SpringDiagonal, NULL));
  for (PetscInt c = 0; c < nc && !bad; c++) {
    const FlxSectionProps *p;
    FlxElementOps          ops;
    PetscReal              xyz[12], Ke[24 * 24], me[24];
    const PetscInt        *nodes;
    PetscInt               nn;
    char                   err[256];
    PetscErrorCode         ierr;
    if (m->cell_section[c] >= 0 && m->sec[m->cell_section[c]].spring) continue; /* springs.c */
    PetscCall(FlxModelElementProps(m, c, &p, &ops, xyz));
    if (!ops) continue; /* node-set cell */
    PetscCall(FlxMeshGetCell(m->mesh, c, NULL, &nn, &nodes, NULL));
    ierr = ops->stiffness(xyz, p, Ke, err, sizeof(err));
    if (ierr == PETSC_ERR_USER_INPUT) {
      char desc[256];
      PetscCall(FlxModelCellDescription(m, c, desc, sizeof(desc)));
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: %s", desc, err));
      bad = PETSC_TRUE;
      break;
    }
    PetscCall(ierr);
    PetscCall(ops->lumped_mass(xyz, p, me));
    if (m->sec[m->cell_section[c]].rotary_tensor) PetscCall(FlxModelRotaryTensorCell(m, c, xyz, p, nn, nodes, me)); /* rotary.c */
    PetscCall(FlxElementOmegaSquaredBound(6 * nn, Ke, me, &lambda));
    if (lambda > lmax) {
      lmax         = lambda;
      m->crit_cell = c;
    }
    if (m->sec[m->cell_section[c]].rotary_tensor) PetscCall(FlxModelRotaryTensorDrop(nn, me)); /* the rotary inertia went to the nodal tensors */
    for (PetscInt a = 0; a < nn; a++)
      if (nodes[a] < nown) PetscCall(VecSetValuesBlockedLocal(m->mass, 1, &nodes[a], me + 6 * a, ADD_VALUES));
    PetscCall(AddDiagonal(m, nn, nodes, Ke));
  }
  m->crit_lambda = lmax;
  PetscCallMPI(MPI_Allreduce(&lmax, &m->omega_bound, 1, MPIU_REAL, MPI_MAX, m->comm));
  m->omega_bound = PetscSqrtReal(m->omega_bound);
  PetscCall(FlxCheckCollective(m->comm, bad, PETSC_ERR_USER_INPUT, msg));
  PetscCall(VecAssemblyBegin(m->mass));
  PetscCall(VecAssemblyEnd(m->mass));
  PetscCall(VecAssemblyBegin(m->kdiag));
  PetscCall(VecAssemblyEnd(m->kdiag));
  /* point masses on the owned nodes of their groups */
  for (PetscInt k = 0; k < m->npm; k++) {
    PetscInt        g, n;
    const PetscInt *nodes;
    PetscScalar    *a;
    char            what[128];
    PetscCall(PetscSNPrintf(what, sizeof(what), "point mass '%s' (-pointmass_%s_group)", m->pm[k].name, m->pm[k].name));
    PetscCall(FlxModelRequireGroup(m, what, m->pm[k].group, &g));
    PetscCall(FlxMeshGetGroupNodes(m->mesh, g, &n, &nodes));
    PetscCall(VecGetArray(m->mass, &a));
    for (PetscInt i = 0; i < n; i++)
      for (int d = 0; d < 3; d++) {
        a[6 * nodes[i] + d] += m->pm[k].mass;
        a[6 * nodes[i] + 3 + d] += m->pm[k].inertia[d];
      }
    PetscCall(VecRestoreArray(m->mass, &a));
  }
  PetscCall(FlxModelRotaryTensorPointMasses(m)); /* rotary.c */
  if (m->nonlinear) PetscCall(SphericalRotaryInertia(m));
  PetscCall(VecDuplicate(m->mass, &m->work));
  PetscCall(CreateNaturalScatter(m));
  PetscCall(PowerStart(m));
  PetscCall(FlxModelChooseInternalForce(m)); /* model.c: the element loop, or K assembled now */
  PetscCall(FlxSystemSetInternalForce(m->sys, InternalForce, PETSC_TRUE, m));
  PetscCall(FlxSystemSetOmegaBound(m->sys, OmegaBound, m));
  PetscCall(PetscLogEventEnd(FLX_Assemble, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* Spring visitor of the stiffness assembly: into K (a pure damper too: K keeps its blocks) and K_lin. */
static PetscErrorCode SpringStiffness(FlxModel m, PetscInt nn, const PetscInt nodes[], const PetscReal Ke[], const PetscReal Ce[], void *ctx)
{
  PetscFunctionBegin;
  PetscCall(FlxModelAddOwnedRows(m, m->K, nn, nodes, Ke, NULL));
  if (m->Klin) PetscCall(FlxModelAddOwnedRows(m, m->Klin, nn, nodes, Ke, NULL));
  PetscFunctionReturn(0);
}

/* The assembled stiffness K (and, for nonlinear models, K_lin), on first need: the implicit steppers, modes, static
   solves, stiffness-proportional damping's solve, or the assembled path of the internal force. The springs first,
   then the cells in the global cell order (the order of every block's sums at any number of ranks). Collective. */
PetscErrorCode FlxModelAssembleStiffness(FlxModel m)
{
  PetscInt nc;

  PetscFunctionBegin;
  if (m->K) PetscFunctionReturn(0);
  PetscCall(PetscLogEventBegin(FLX_Assemble, 0, 0, 0, 0));
  PetscCall(FlxMeshGetLocalSizes(m->mesh, NULL, NULL, &nc));
  PetscCall(FlxModelCreateBAIJ(m, &m->K));
  if (m->nonlinear) PetscCall(FlxModelCreateBAIJ(m, &m->Klin));
  PetscCall(FlxModelVisitSprings(m, SpringStiffness, NULL));
  for (PetscInt c = 0; c < nc; c++) {
    const FlxSectionProps *p;
    FlxElementOps          ops;
    PetscReal              xyz[12], Ke[24 * 24];
    const PetscInt        *nodes;
    PetscInt               nn;
    char                   err[256];
    if (m->cell_section[c] >= 0 && m->sec[m->cell_section[c]].spring) continue;
    PetscCall(FlxModelElementProps(m, c, &p, &ops, xyz));
    if (!ops) continue;
    PetscCall(FlxMeshGetCell(m->mesh, c, NULL, &nn, &nodes, NULL));
    PetscCall(ops->stiffness(xyz, p, Ke, err, sizeof(err))); /* the geometry was checked by FlxModelAssemble */
    PetscCall(FlxModelAddOwnedRows(m, m->K, nn, nodes, Ke, NULL));
    if (m->Klin) { /* nonlinear models: the linear elements' stiffness; zero blocks (the pattern) for co-rotational ones */
      if (m->sec[m->cell_section[c]].nonlinear) PetscCall(PetscArrayzero(Ke, 36 * nn * nn));
      PetscCall(FlxModelAddOwnedRows(m, m->Klin, nn, nodes, Ke, NULL));
    }
  }
  PetscCall(MatAssemblyBegin(m->K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(m->K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(m->K, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(FlxKMultCreate(m, m->K, 0, NULL, &m->kmult));
  if (m->Klin) {
    PetscCall(MatAssemblyBegin(m->Klin, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(m->Klin, MAT_FINAL_ASSEMBLY));
    PetscCall(FlxKMultCreateNonzero(m, m->Klin, &m->kmultlin)); /* the co-rotational cells' zero blocks left out */
    if (m->setup) PetscCall(FlxModelFreeZeroKlin(m));
  }
  PetscCall(FlxSystemSetStiffness(m->sys, m->K));
  PetscCall(PetscLogEventEnd(FLX_Assemble, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* The rows of K of the nrows local block rows rows[] (owned nodes), assembled alone into A (the other rows empty):
   the reactions' rows when K itself is not assembled. Same entries, summed in the same order, as K's rows.
   Collective. */
typedef struct {
  char *sel; /* owned nodes whose rows are wanted */
  Mat   A;
} RowsCtx;

static PetscErrorCode AddSelectedRows(FlxModel m, RowsCtx *rc, PetscInt nn, const PetscInt nodes[], const PetscReal Ke[])
{
  PetscInt nown;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  for (PetscInt a = 0; a < nn; a++)
    if (nodes[a] < nown && rc->sel[nodes[a]]) PetscCall(MatSetValuesBlockedLocal(rc->A, 1, &nodes[a], nn, nodes, Ke + 36 * nn * a, ADD_VALUES));
  PetscFunctionReturn(0);
}

static PetscErrorCode SpringRows(FlxModel m, PetscInt nn, const PetscInt nodes[], const PetscReal Ke[], const PetscReal Ce[], void *ctx)
{
  PetscFunctionBegin;
  PetscCall(AddSelectedRows(m, (RowsCtx *)ctx, nn, nodes, Ke));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelAssembleRows(FlxModel m, PetscInt nrows, const PetscInt rows[], Mat *A)
{
  PetscInt        nown, nc, *d, *o;
  const PetscInt *dnz, *onz;
  RowsCtx         rc;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, &nc));
  PetscCall(FlxMeshGetPreallocation(m->mesh, &dnz, &onz));
  PetscCall(PetscCalloc3(nown + 1, &rc.sel, nown + 1, &d, nown + 1, &o));
  for (PetscInt k = 0; k < nrows; k++) {
    rc.sel[rows[k]] = 1;
    d[rows[k]]      = dnz[rows[k]];
    o[rows[k]]      = onz[rows[k]];
  }
  PetscCall(MatCreate(m->comm, A));
  PetscCall(MatSetSizes(*A, 6 * nown, 6 * nown, PETSC_DETERMINE, PETSC_DETERMINE));
  PetscCall(MatSetType(*A, MATBAIJ));
  PetscCall(MatSetBlockSize(*A, 6));
  PetscCall(MatXAIJSetPreallocation(*A, 6, d, o, NULL, NULL));
  PetscCall(MatSetLocalToGlobalMapping(*A, m->l2g, m->l2g));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  PetscCall(MatSetOption(*A, MAT_NO_OFF_PROC_ENTRIES, PETSC_TRUE));
  rc.A = *A;
  PetscCall(FlxModelVisitSprings(m, SpringRows, &rc));
  for (PetscInt c = 0; c < nc; c++) {
    const FlxSectionProps *p;
    FlxElementOps          ops;
    PetscReal              xyz[12], Ke[24 * 24];
    const PetscInt        *nodes;
    PetscInt               nn;
    PetscBool              any = PETSC_FALSE;
    char                   err[256];
    if (m->cell_section[c] >= 0 && m->sec[m->cell_section[c]].spring) continue;
    PetscCall(FlxMeshGetCell(m->mesh, c, NULL, &nn, &nodes, NULL));
    for (PetscInt a = 0; a < nn; a++)
      if (nodes[a] < nown && rc.sel[nodes[a]]) any = PETSC_TRUE;
    if (!any) continue;
    PetscCall(FlxModelElementProps(m, c, &p, &ops, xyz));
    if (!ops) continue;
    PetscCall(ops->stiffness(xyz, p, Ke, err, sizeof(err)));
    PetscCall(AddSelectedRows(m, &rc, nn, nodes, Ke));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree3(rc.sel, d, o));
  PetscFunctionReturn(0);
}

/* The parts of the consistent mass that are not elements': the point masses (diagonal), and zero blocks where
   the stiffness has blocks without element mass (spring cells, nodes held only by springs), so that M_c has
   K's pattern (the implicit steppers add it to a copy of K). */
static PetscErrorCode ConsistentMassExtras(FlxModel m)
{
  PetscInt   nown, nc;
  PetscReal *pm, blk[36], Z[144] = {0};

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, &nc));
  for (PetscInt c = 0; c < nc; c++) {
    const PetscInt *nodes;
    if (m->cell_section[c] < 0 || !m->sec[m->cell_section[c]].spring) continue;
    PetscCall(FlxMeshGetCell(m->mesh, c, NULL, NULL, &nodes, NULL));
    PetscCall(FlxModelAddOwnedRows(m, m->Mc, 2, nodes, Z, NULL));
  }
  PetscCall(PetscCalloc1(6 * nown + 1, &pm));
  for (PetscInt k = 0; k < m->npm; k++) {
    PetscInt        g, n;
    const PetscInt *nodes;
    PetscCall(FlxMeshFindGroup(m->mesh, m->pm[k].group, &g));
    PetscCall(FlxMeshGetGroupNodes(m->mesh, g, &n, &nodes));
    for (PetscInt i = 0; i < n; i++)
      for (int d = 0; d < 3; d++) {
        pm[6 * nodes[i] + d] += m->pm[k].mass;
        pm[6 * nodes[i] + 3 + d] += m->pm[k].inertia[d];
      }
  }
  for (PetscInt i = 0; i < nown; i++) {
    for (int a = 0; a < 36; a++)
      blk[a] = a % 7 ? 0 : pm[6 * i + a / 7];
    PetscCall(MatSetValuesBlockedLocal(m->Mc, 1, &i, 1, &i, blk, ADD_VALUES));
  }
  PetscCall(PetscFree(pm));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelGetConsistentMass(FlxModel m, Mat *M)
{
  PetscInt nc;

  PetscFunctionBegin;
  if (!m->Mc) {
    PetscCall(PetscLogEventBegin(FLX_Assemble, 0, 0, 0, 0));
    PetscCall(FlxModelCreateBAIJ(m, &m->Mc));
    PetscCall(FlxMeshGetLocalSizes(m->mesh, NULL, NULL, &nc));
    for (PetscInt c = 0; c < nc; c++) {
      const FlxSectionProps *p;
      FlxElementOps          ops;
      PetscReal              xyz[12], Me[24 * 24];
      const PetscInt        *nodes;
      PetscInt               nn;
      if (m->cell_section[c] >= 0 && m->sec[m->cell_section[c]].spring) continue; /* springs have no mass */
      PetscCall(FlxModelElementProps(m, c, &p, &ops, xyz));
      if (!ops) continue; /* node-set cell */
      PetscCall(FlxMeshGetCell(m->mesh, c, NULL, &nn, &nodes, NULL));
      PetscCall(ops->consistent_mass(xyz, p, Me));
      PetscCall(FlxModelAddOwnedRows(m, m->Mc, nn, nodes, Me, NULL));
    }
    PetscCall(ConsistentMassExtras(m));
    PetscCall(MatAssemblyBegin(m->Mc, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(m->Mc, MAT_FINAL_ASSEMBLY));
    PetscCall(PetscLogEventEnd(FLX_Assemble, 0, 0, 0, 0));
  }
  *M = m->Mc;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelCreateNaturalVector(FlxModel m, Vec *xnat)
{
  PetscFunctionBegin;
  PetscCall(VecDuplicate(m->xnat, xnat));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelToNatural(FlxModel m, Vec x, Vec xnat)
{
  PetscFunctionBegin;
  PetscCall(VecScatterBegin(m->tonat, x, xnat, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(m->tonat, x, xnat, INSERT_VALUES, SCATTER_FORWARD));
  PetscFunctionReturn(0);
}
