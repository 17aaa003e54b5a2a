/* Cell fields of a solution, gathered in the natural order of each cell type for the results file: shell
   stress resultants in the element frame and in a consistent frame with von Mises stresses, beam section
   forces and the stresses of shape sections. Cells of a type that do not carry a field get rows of NaN. */
#include <flexure/private/modelimpl.h>
#include <flexure/private/elementimpl.h>
#include <flexure/rotation.h>

static const PetscInt FieldComponents[FLX_NUM_FIELDS] = {FLX_SHELL_NRESULTANTS, FLX_SHELL_NSTRESSES, FLX_BEAM_NFORCES, FLX_BEAM_NSTRESSES};

/* Whether local cell c carries field f. */
static PetscErrorCode CellHasField(FlxModel m, PetscInt c, FlxCellFieldKind f, PetscBool *has)
{
  FlxSection   *s;
  FlxElementOps ops;
  FlxCellType   t;

  PetscFunctionBegin;
  *has = PETSC_FALSE;
  if (m->cell_section[c] < 0) PetscFunctionReturn(0);
  s = &m->sec[m->cell_section[c]];
  PetscCall(FlxMeshGetCell(m->mesh, c, &t, NULL, NULL, NULL));
  ops = s->ops[t];
  if (f == FLX_FIELD_SHELL_RESULTANTS || f == FLX_FIELD_SHELL_STRESSES)
    *has = ops->resultants ? PETSC_TRUE : PETSC_FALSE;
  else if (f == FLX_FIELD_BEAM_FORCES)
    *has = ops->section_forces ? PETSC_TRUE : PETSC_FALSE;
  else
    *has = ops->section_forces && s->props.rp.n > 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* Scatter to local node values, the row of every owned cell among the owned cells of its type, and the rows' storage
   of each type, for the largest field its cells carry. */
static PetscErrorCode SetUpCellRows(FlxModel m)
{
  PetscInt        nown, nghost, nc, cnt[FLX_NUM_CELL_TYPES] = {0}, width[FLX_NUM_CELL_TYPES] = {0};
  const PetscInt *l2g;
  IS              is;
  PetscMPIInt     rank, size;

  PetscFunctionBegin;
  if (m->crow) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_rank(m->comm, &rank));
  PetscCallMPI(MPI_Comm_size(m->comm, &size));
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, &nghost, &nc));
  PetscCall(FlxMeshGetLocalToGlobal(m->mesh, &l2g));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 6 * (nown + nghost), &m->uloc));
  PetscCall(ISCreateBlock(PETSC_COMM_SELF, 6, nown + nghost, l2g, PETSC_COPY_VALUES, &is));
  PetscCall(VecScatterCreate(m->mass, is, m->uloc, NULL, &m->toloc));
  PetscCall(ISDestroy(&is));
  PetscCall(PetscMalloc1(nc + 1, &m->crow));
  for (PetscInt c = 0; c < nc; c++) {
    FlxCellType t;
    PetscBool   owned, hc;
    PetscCall(FlxMeshIsCellOwned(m->mesh, c, &owned));
    PetscCall(FlxMeshGetCell(m->mesh, c, &t, NULL, NULL, NULL));
    m->crow[c] = owned ? cnt[t]++ : -1;
    if (!owned) continue;
    for (int f = 0; f < FLX_NUM_FIELDS; f++) {
      PetscCall(CellHasField(m, c, (FlxCellFieldKind)f, &hc));
      if (hc) width[t] = PetscMax(width[t], FieldComponents[f]);
    }
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, width, FLX_NUM_CELL_TYPES, MPIU_INT, MPI_MAX, m->comm));
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
    PetscInt N;
    if (!width[t]) continue;
    PetscCall(FlxMeshGetNumCellsOfType(m->mesh, (FlxCellType)t, &N));
    PetscCall(PetscMalloc1(width[t] * cnt[t] + 1, &m->cfown[t]));
    PetscCall(PetscMalloc1(width[t] * (N / size + (rank < N % size)) + 1, &m->cfnat[t]));
  }
  PetscFunctionReturn(0);
}

/* Vectors (on the type's shared rows) and scatters of field f for the cell types where some cell carries it. */
static PetscErrorCode SetUpField(FlxModel m, FlxCellFieldKind f)
{
  FlxCellField *cf = &m->field[f];
  PetscInt      nc, cnt[FLX_NUM_CELL_TYPES] = {0}, has[FLX_NUM_CELL_TYPES] = {0}, *nat[FLX_NUM_CELL_TYPES];
  PetscMPIInt   rank, size;
  PetscBool     hc;

  PetscFunctionBegin;
  if (cf->setup) PetscFunctionReturn(0);
  PetscCall(SetUpCellRows(m));
  cf->ncomp = FieldComponents[f];
  PetscCallMPI(MPI_Comm_rank(m->comm, &rank));
  PetscCallMPI(MPI_Comm_size(m->comm, &size));
  PetscCall(FlxMeshGetLocalSizes(m->mesh, NULL, NULL, &nc));
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++)
    PetscCall(PetscMalloc1(nc + 1, &nat[t]));
  for (PetscInt c = 0; c < nc; c++) {
    FlxCellType t;
    if (m->crow[c] < 0) continue;
    PetscCall(FlxMeshGetCell(m->mesh, c, &t, NULL, NULL, NULL));
    PetscCall(FlxMeshGetCellTypeIndex(m->mesh, c, &nat[t][cnt[t]++]));
    PetscCall(CellHasField(m, c, f, &hc));
    if (hc) has[t] = 1;
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, has, FLX_NUM_CELL_TYPES, MPIU_INT, MPI_MAX, m->comm));
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
    if (has[t]) {
      PetscInt N;
      IS       is;
      PetscCall(FlxMeshGetNumCellsOfType(m->mesh, (FlxCellType)t, &N));
      PetscCall(VecCreateMPIWithArray(m->comm, 1, cf->ncomp * cnt[t], PETSC_DETERMINE, m->cfown[t], &cf->own[t]));
      PetscCall(VecCreateMPIWithArray(m->comm, 1, cf->ncomp * (N / size + (rank < N % size)), PETSC_DETERMINE, m->cfnat[t], &cf->nat[t])); /* whole rows per rank */
      PetscCall(ISCreateBlock(m->comm, cf->ncomp, cnt[t], nat[t], PETSC_COPY_VALUES, &is));
      PetscCall(VecScatterCreate(cf->own[t], NULL, cf->nat[t], is, &cf->sct[t]));
      PetscCall(ISDestroy(&is));
    }
    PetscCall(PetscFree(nat[t]));
  }
  cf->setup = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* Evaluate field f on every owned cell (NaN where it does not apply) and gather it in natural order. */
/* Section forces of local cell c: the element's (linear sections), or the co-rotational beam's in its co-rotated axes
   (geometry nonlinear sections: the rotational DOFs of ue are rotation vectors). A degenerate element leaves a row of
   NaN and its message in msg (bad). */
static PetscErrorCode SectionForces(FlxModel m, PetscInt c, FlxElementOps ops, const PetscReal xyz[], const FlxSectionProps *p, const PetscReal ue[], const PetscReal fd[], PetscReal row[], PetscBool *bad, char msg[], size_t len)
{
  PetscReal      R[18];
  char           err[256], desc[256];
  PetscErrorCode ierr;

  PetscFunctionBegin;
  if (!m->sec[m->cell_section[c]].nonlinear) {
    PetscCall(ops->section_forces(xyz, p, ue, fd, row));
    PetscFunctionReturn(0);
  }
  for (int a = 0; a < 2; a++)
    FlxRotExp(ue + 6 * a + 3, R + 9 * a);
  ierr = FlxCorotBeamSectionForces(xyz, ue, R, p, fd, row, err, sizeof(err));
  if (ierr == PETSC_ERR_USER_INPUT) {
    for (PetscInt i = 0; i < FLX_BEAM_NFORCES; i++)
      row[i] = (PetscReal)NAN;
    if (!*bad) {
      PetscCall(FlxModelCellDescription(m, c, desc, sizeof(desc)));
      PetscCall(PetscSNPrintf(msg, len, "section forces of co-rotational %s: %s", desc, err));
    }
    *bad = PETSC_TRUE;
  } else
    PetscCall(ierr);
  PetscFunctionReturn(0);
}

static PetscErrorCode ComputeField(FlxModel m, FlxCellFieldKind f, PetscReal t, Vec u, Vec r[])
{
  FlxCellField      *cf = &m->field[f];
  PetscInt           nc;
  const PetscScalar *ul;
  PetscScalar       *ra[FLX_NUM_CELL_TYPES] = {NULL};
  PetscBool          bad                    = PETSC_FALSE;
  char               msg[512]               = "";
  FlxLoadCursor      lc;

  PetscFunctionBegin;
  PetscCall(SetUpField(m, f));
  PetscCall(VecScatterBegin(m->toloc, u, m->uloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(m->toloc, u, m->uloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(FlxModelDistributedLoadsBegin(m, t, &lc)); /* the beams' line loads, cell by cell */
  PetscCall(FlxMeshGetLocalSizes(m->mesh, NULL, NULL, &nc));
  PetscCall(VecGetArrayRead(m->uloc, &ul));
  for (int k = 0; k < FLX_NUM_CELL_TYPES; k++)
    if (cf->own[k]) PetscCall(VecGetArray(cf->own[k], &ra[k]));
  for (PetscInt c = 0; c < nc; c++) {
    const FlxSectionProps *p;
    FlxElementOps          ops;
    FlxCellType            ct;
    PetscReal              xyz[12], ue[24], *row, s[FLX_BEAM_NFORCES], fd[12];
    const PetscInt        *nodes;
    PetscInt               nn;
    PetscBool              hc;
    if (m->crow[c] < 0) continue;
    PetscCall(FlxMeshGetCell(m->mesh, c, &ct, &nn, &nodes, NULL));
    if (!ra[ct]) continue;
    row = ra[ct] + cf->ncomp * m->crow[c];
    PetscCall(CellHasField(m, c, f, &hc));
    if (!hc) {
      for (PetscInt i = 0; i < cf->ncomp; i++)
        row[i] = (PetscReal)NAN;
      continue;
    }
    PetscCall(FlxModelElementProps(m, c, &p, &ops, xyz));
    for (PetscInt a = 0; a < nn; a++)
      for (int d = 0; d < 6; d++)
        ue[6 * a + d] = PetscRealPart(ul[6 * nodes[a] + d]);
    switch (f) {
    case FLX_FIELD_SHELL_RESULTANTS:
      PetscCall(ops->resultants(xyz, p, ue, row));
      break;
    case FLX_FIELD_SHELL_STRESSES:
      PetscCall(FlxShellStresses(ops, xyz, p, ue, m->shell_axis, row));
      break;
    case FLX_FIELD_BEAM_FORCES:
      FlxModelDistributedLoadOfCell(m, &lc, c, fd);
      PetscCall(SectionForces(m, c, ops, xyz, p, ue, fd, row, &bad, msg, sizeof(msg)));
      break;
    default:
      FlxModelDistributedLoadOfCell(m, &lc, c, fd);
      PetscCall(SectionForces(m, c, ops, xyz, p, ue, fd, s, &bad, msg, sizeof(msg)));
      FlxSectionStresses(p, s, &row[0], &row[1], &row[2]);
      FlxSectionStresses(p, s + 6, &row[3], &row[4], &row[5]);
    }
  }
  for (int k = 0; k < FLX_NUM_CELL_TYPES; k++)
    if (cf->own[k]) PetscCall(VecRestoreArray(cf->own[k], &ra[k]));
  PetscCall(VecRestoreArrayRead(m->uloc, &ul));
  PetscCall(FlxCheckCollective(m->comm, bad, PETSC_ERR_NOT_CONVERGED, msg));
  for (int k = 0; k < FLX_NUM_CELL_TYPES; k++) {
    r[k] = cf->nat[k];
    if (!cf->own[k]) continue;
    PetscCall(VecScatterBegin(cf->sct[k], cf->own[k], cf->nat[k], INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(cf->sct[k], cf->own[k], cf->nat[k], INSERT_VALUES, SCATTER_FORWARD));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelComputeResultants(FlxModel m, Vec u, Vec r[])
{
  PetscFunctionBegin;
  PetscCall(ComputeField(m, FLX_FIELD_SHELL_RESULTANTS, 0, u, r));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelComputeShellStresses(FlxModel m, Vec u, Vec r[])
{
  PetscFunctionBegin;
  PetscCall(ComputeField(m, FLX_FIELD_SHELL_STRESSES, 0, u, r));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelComputeBeamForces(FlxModel m, PetscReal t, Vec u, Vec r[])
{
  PetscFunctionBegin;
  PetscCall(ComputeField(m, FLX_FIELD_BEAM_FORCES, t, u, r));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelComputeBeamStresses(FlxModel m, PetscReal t, Vec u, Vec r[])
{
  PetscFunctionBegin;
  PetscCall(ComputeField(m, FLX_FIELD_BEAM_STRESSES, t, u, r));
  PetscFunctionReturn(0);
}

/* Write the fields of cell types where some cell carries them; skip a field that no cell carries. */
static PetscErrorCode WriteField(FlxWriter w, const char name[], PetscInt ncomp, const char *const comps[], Vec r[])
{
  PetscBool any = PETSC_FALSE;

  PetscFunctionBegin;
  for (int k = 0; k < FLX_NUM_CELL_TYPES; k++)
    if (r[k]) any = PETSC_TRUE;
  if (any) PetscCall(FlxWriterWriteCellField(w, name, ncomp, comps, r));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelWriteCellFields(FlxModel m, FlxWriter w, PetscReal t, Vec u)
{
  PetscBool shells, beams, shapes;
  Vec       r[FLX_NUM_CELL_TYPES];

  PetscFunctionBegin;
  PetscCall(FlxModelHasShells(m, &shells));
  PetscCall(FlxModelHasBeams(m, &beams, &shapes));
  if (shells) {
    PetscCall(FlxModelComputeResultants(m, u, r));
    PetscCall(WriteField(w, "shell_resultants", FLX_SHELL_NRESULTANTS, FlxShellResultantNames, r));
    PetscCall(FlxModelComputeShellStresses(m, u, r));
    PetscCall(WriteField(w, "shell_stresses", FLX_SHELL_NSTRESSES, FlxShellStressNames, r));
  }
  if (beams) {
    PetscCall(FlxModelComputeBeamForces(m, t, u, r));
    PetscCall(WriteField(w, "beam_forces", FLX_BEAM_NFORCES, FlxBeamForceNames, r));
  }
  if (shapes) {
    PetscCall(FlxModelComputeBeamStresses(m, t, u, r));
    PetscCall(WriteField(w, "beam_stresses", FLX_BEAM_NSTRESSES, FlxBeamStressNames, r));
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

PetscErrorCode FlxModelHasBeams(FlxModel m, PetscBool *beams, PetscBool *shapes)
{
  PetscFunctionBegin;
  if (beams) *beams = PETSC_FALSE;
  if (shapes) *shapes = PETSC_FALSE;
  for (PetscInt s = 0; s < m->nsec; s++) {
    if (m->sec[s].shell) continue;
    if (beams) *beams = PETSC_TRUE;
    if (shapes && m->sec[s].shape != FLX_SHAPE_NONE) *shapes = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelDestroyResultants(FlxModel m)
{
  PetscFunctionBegin;
  PetscCall(VecScatterDestroy(&m->toloc));
  PetscCall(VecDestroy(&m->uloc));
  PetscCall(PetscFree(m->crow));
  for (int f = 0; f < FLX_NUM_FIELDS; f++)
    for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
      PetscCall(VecDestroy(&m->field[f].own[t]));
      PetscCall(VecDestroy(&m->field[f].nat[t]));
      PetscCall(VecScatterDestroy(&m->field[f].sct[t]));
    }
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
    PetscCall(PetscFree(m->cfown[t]));
    PetscCall(PetscFree(m->cfnat[t]));
  }
  PetscFunctionReturn(0);
}
