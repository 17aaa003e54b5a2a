/* Shell stress resultants per element (membrane forces, moments, transverse shears, surface stresses),
   gathered in the natural order of each cell type for the results file. */
#include <flexure/private/modelimpl.h>

static PetscErrorCode SetUpResultants(FlxModel m)
{
  PetscInt        nown, nghost, nc, cnt[FLX_NUM_CELL_TYPES] = {0}, *nat[FLX_NUM_CELL_TYPES];
  const PetscInt *l2g;
  IS              is;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, &nghost, &nc));
  PetscCall(FlxMeshGetLocalToGlobal(m->mesh, &l2g));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 6 * (nown + nghost), &m->uloc));
  PetscCall(ISCreateBlock(PETSC_COMM_SELF, 6, nown + nghost, l2g, PETSC_COPY_VALUES, &is));
  PetscCall(VecScatterCreate(m->mass, is, m->uloc, NULL, &m->toloc));
  PetscCall(ISDestroy(&is));
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++)
    PetscCall(PetscMalloc1(nc + 1, &nat[t]));
  for (PetscInt c = 0; c < nc; c++) {
    const FlxSectionProps *p;
    FlxElementOps          ops;
    FlxCellType            t;
    PetscBool              owned;
    PetscReal              xyz[12];
    PetscCall(FlxMeshIsCellOwned(m->mesh, c, &owned));
    if (!owned) continue;
    PetscCall(FlxMeshGetCell(m->mesh, c, &t, NULL, NULL, NULL));
    PetscCall(FlxModelElementProps(m, c, &p, &ops, xyz));
    if (!ops->resultants) continue;
    PetscCall(FlxMeshGetCellTypeIndex(m->mesh, c, &nat[t][cnt[t]++]));
  }
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
    PetscInt N, tot;
    PetscCallMPI(MPI_Allreduce(&cnt[t], &tot, 1, MPIU_INT, MPI_SUM, m->comm));
    PetscCall(FlxMeshGetNumCellsOfType(m->mesh, (FlxCellType)t, &N));
    if (tot > 0) { /* every cell of this type is a shell (a type serves one element family) */
      PetscCheck(tot == N, m->comm, PETSC_ERR_USER_INPUT, "resultants: %" PetscInt_FMT " of %" PetscInt_FMT " %s cells are shells", tot, N, FlxCellTypeNames[t]);
      PetscCall(VecCreateMPI(m->comm, FLX_SHELL_NRESULTANTS * cnt[t], PETSC_DETERMINE, &m->rown[t]));
      { /* whole rows per rank */
        PetscMPIInt rank, size;
        PetscCallMPI(MPI_Comm_rank(m->comm, &rank));
        PetscCallMPI(MPI_Comm_size(m->comm, &size));
        PetscCall(VecCreateMPI(m->comm, FLX_SHELL_NRESULTANTS * (N / size + (rank < N % size)), PETSC_DETERMINE, &m->rnat[t]));
      }
      PetscCall(ISCreateBlock(m->comm, FLX_SHELL_NRESULTANTS, cnt[t], nat[t], PETSC_COPY_VALUES, &is));
      PetscCall(VecScatterCreate(m->rown[t], NULL, m->rnat[t], is, &m->res2nat[t]));
      PetscCall(ISDestroy(&is));
    }
    PetscCall(PetscFree(nat[t]));
  }
  m->res_setup = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelComputeResultants(FlxModel m, Vec u, Vec r[])
{
  PetscInt           nc, cnt[FLX_NUM_CELL_TYPES] = {0};
  const PetscScalar *ul;
  PetscScalar       *ra[FLX_NUM_CELL_TYPES] = {NULL};

  PetscFunctionBegin;
  if (!m->res_setup) PetscCall(SetUpResultants(m));
  PetscCall(VecScatterBegin(m->toloc, u, m->uloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(m->toloc, u, m->uloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(FlxMeshGetLocalSizes(m->mesh, NULL, NULL, &nc));
  PetscCall(VecGetArrayRead(m->uloc, &ul));
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++)
    if (m->rown[t]) PetscCall(VecGetArray(m->rown[t], &ra[t]));
  for (PetscInt c = 0; c < nc; c++) {
    const FlxSectionProps *p;
    FlxElementOps          ops;
    FlxCellType            t;
    PetscBool              owned;
    PetscReal              xyz[12], ue[24];
    const PetscInt        *nodes;
    PetscInt               nn;
    PetscCall(FlxMeshIsCellOwned(m->mesh, c, &owned));
    if (!owned) continue;
    PetscCall(FlxMeshGetCell(m->mesh, c, &t, &nn, &nodes, NULL));
    PetscCall(FlxModelElementProps(m, c, &p, &ops, xyz));
    if (!ops->resultants) continue;
    for (PetscInt a = 0; a < nn; a++)
      for (int d = 0; d < 6; d++)
        ue[6 * a + d] = PetscRealPart(ul[6 * nodes[a] + d]);
    PetscCall(ops->resultants(xyz, p, ue, ra[t] + FLX_SHELL_NRESULTANTS * cnt[t]++));
  }
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++)
    if (m->rown[t]) PetscCall(VecRestoreArray(m->rown[t], &ra[t]));
  PetscCall(VecRestoreArrayRead(m->uloc, &ul));
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
    r[t] = m->rnat[t];
    if (!m->rown[t]) continue;
    PetscCall(VecScatterBegin(m->res2nat[t], m->rown[t], m->rnat[t], INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(m->res2nat[t], m->rown[t], m->rnat[t], INSERT_VALUES, SCATTER_FORWARD));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelHasShells(FlxModel m, PetscBool *has)
{
  PetscFunctionBegin;
  *has = PETSC_FALSE;
  for (PetscInt s = 0; s < m->nsec; s++)
    if (m->sec[s].shell) *has = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelDestroyResultants(FlxModel m)
{
  PetscFunctionBegin;
  PetscCall(VecScatterDestroy(&m->toloc));
  PetscCall(VecDestroy(&m->uloc));
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
    PetscCall(VecDestroy(&m->rown[t]));
    PetscCall(VecDestroy(&m->rnat[t]));
    PetscCall(VecScatterDestroy(&m->res2nat[t]));
  }
  PetscFunctionReturn(0);
}
