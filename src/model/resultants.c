/* Cell fields of a solution, written in the natural order of each cell type to the results file: shell stress
   resultants in the element frame and in a consistent frame with von Mises stresses, beam section forces and the
   stresses of shape sections. Cells of a type that do not carry a field get rows of NaN. They are written in rounds
   of at most -output_cell_rows rows per rank (32768; FlxCellRows), so the output needs no copy of a whole field: a few
   MB per rank. */
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

/* The owner rank of row k of N rows split evenly in whole rows (the first N % size ranks one more), and its offset. */
static void EvenOwner(PetscInt N, PetscMPIInt size, PetscInt k, PetscMPIInt *r, PetscInt *off)
{
  const PetscInt q = N / size, rem = N % size;

  if (k < rem * (q + 1)) {
    *r   = (PetscMPIInt)(k / (q + 1));
    *off = k - (q + 1) * *r;
  } else {
    *r   = (PetscMPIInt)(rem + (k - rem * (q + 1)) / q);
    *off = (k - rem * (q + 1)) % q;
  }
}

/* Type t's rounds: this rank's window and its owned cells by round; the rows' buffers. Collective. */
static PetscErrorCode SetUpRows(FlxModel m, int t)
{
  FlxCellRows *cr = &m->cfrows[t];
  PetscInt     N, nc, q, rem, cnt = 0, most = 0, *round;
  PetscMPIInt  rank, size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(m->comm, &rank));
  PetscCallMPI(MPI_Comm_size(m->comm, &size));
  PetscCall(FlxMeshGetNumCellsOfType(m->mesh, (FlxCellType)t, &N));
  PetscCall(FlxMeshGetLocalSizes(m->mesh, NULL, NULL, &nc));
  q        = N / size;
  rem      = N % size;
  cr->lo   = rank * q + PetscMin(rank, rem);
  cr->nwin = q + (rank < rem);
  cr->C    = m->cellrows;
  cr->R    = (q + (rem > 0) + cr->C - 1) / cr->C; /* the largest window's rounds: the same on every rank */
  PetscCall(PetscCalloc1(cr->R + 2, &cr->ptr));
  PetscCall(PetscMalloc1(nc + 1, &round));
  for (PetscInt c = 0; c < nc; c++) { /* each owned cell's round and place in its window */
    FlxCellType ct;
    PetscBool   owned;
    PetscInt    k, off;
    PetscMPIInt r;
    round[c] = -1;
    PetscCall(FlxMeshGetCell(m->mesh, c, &ct, NULL, NULL, NULL));
    PetscCall(FlxMeshIsCellOwned(m->mesh, c, &owned));
    if (ct != (FlxCellType)t || !owned) continue;
    PetscCall(FlxMeshGetCellTypeIndex(m->mesh, c, &k));
    EvenOwner(N, size, k, &r, &off);
    round[c] = off / cr->C;
    cr->ptr[round[c] + 1]++;
    cnt++;
  }
  for (PetscInt j = 0; j < cr->R; j++) {
    most = PetscMax(most, cr->ptr[j + 1]);
    cr->ptr[j + 1] += cr->ptr[j];
  }
  PetscCall(PetscMalloc1(cnt + 1, &cr->cell));
  {
    PetscInt *at;
    PetscCall(PetscMalloc1(cr->R + 1, &at));
    PetscCall(PetscArraycpy(at, cr->ptr, cr->R + 1));
    for (PetscInt c = 0; c < nc; c++) /* increasing local id within a round (the line loads' cursor) */
      if (round[c] >= 0) cr->cell[at[round[c]]++] = c;
    PetscCall(PetscFree(at));
  }
  PetscCall(PetscFree(round));
  PetscCall(PetscCalloc3(cr->width * most + 1, &cr->own, cr->width * PetscMin(cr->C, cr->nwin) + 1, &cr->win, most + 1, &cr->leaf));
  PetscCallMPI(MPI_Type_contiguous((PetscMPIInt)cr->width, MPIU_SCALAR, &cr->unit));
  PetscCallMPI(MPI_Type_commit(&cr->unit));
  PetscFunctionReturn(0);
}

/* Scatter to local node values; which types carry which fields; each such type's rounds. Collective. */
static PetscErrorCode SetUpCellFields(FlxModel m)
{
  PetscInt        nown, nghost, nc;
  PetscInt        has[FLX_NUM_FIELDS][FLX_NUM_CELL_TYPES] = {{0}};
  const PetscInt *l2g;
  IS              is;

  PetscFunctionBegin;
  if (m->cfsetup) PetscFunctionReturn(0);
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, &nghost, &nc));
  PetscCall(FlxMeshGetLocalToGlobal(m->mesh, &l2g));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 6 * (nown + nghost), &m->uloc));
  PetscCall(ISCreateBlock(PETSC_COMM_SELF, 6, nown + nghost, l2g, PETSC_COPY_VALUES, &is));
  PetscCall(VecScatterCreate(m->mass, is, m->uloc, NULL, &m->toloc));
  PetscCall(ISDestroy(&is));
  for (PetscInt c = 0; c < nc; c++) {
    FlxCellType t;
    PetscBool   owned, hc;
    PetscCall(FlxMeshIsCellOwned(m->mesh, c, &owned));
    if (!owned) continue;
    PetscCall(FlxMeshGetCell(m->mesh, c, &t, NULL, NULL, NULL));
    for (int f = 0; f < FLX_NUM_FIELDS; f++) {
      PetscCall(CellHasField(m, c, (FlxCellFieldKind)f, &hc));
      if (hc) has[f][t] = 1;
    }
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &has[0][0], FLX_NUM_FIELDS * FLX_NUM_CELL_TYPES, MPIU_INT, MPI_MAX, m->comm));
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
    FlxCellRows *cr = &m->cfrows[t];
    cr->width       = 0;
    for (int f = 0; f < FLX_NUM_FIELDS; f++) {
      m->fieldhas[f][t] = (PetscBool)has[f][t];
      if (has[f][t]) cr->width = PetscMax(cr->width, FieldComponents[f]);
    }
    if (cr->width) PetscCall(SetUpRows(m, t));
  }
  m->cfsetup = PETSC_TRUE;
  PetscFunctionReturn(0);
}

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

/* Round j of type t: its owned cells' rows (leaves) to their places in the windows of round j (roots). Collective. */
static PetscErrorCode RoundSF(FlxModel m, int t, PetscInt j, PetscSF *sf)
{
  FlxCellRows *cr = &m->cfrows[t];
  PetscInt     N, n = cr->ptr[j + 1] - cr->ptr[j];
  PetscMPIInt  size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(m->comm, &size));
  PetscCall(FlxMeshGetNumCellsOfType(m->mesh, (FlxCellType)t, &N));
  for (PetscInt q = 0; q < n; q++) {
    PetscInt    k, off;
    PetscMPIInt r;
    PetscCall(FlxMeshGetCellTypeIndex(m->mesh, cr->cell[cr->ptr[j] + q], &k));
    EvenOwner(N, size, k, &r, &off);
    cr->leaf[q].rank  = r;
    cr->leaf[q].index = off % cr->C;
  }
  PetscCall(PetscSFCreate(m->comm, sf));
  PetscCall(PetscSFSetGraph(*sf, PetscMax(0, PetscMin(cr->C, cr->nwin - j * cr->C)), n, NULL, PETSC_COPY_VALUES, cr->leaf, PETSC_USE_POINTER));
  PetscCall(PetscSFSetUp(*sf));
  PetscFunctionReturn(0);
}

/* Row of field f of owned local cell c (NaN where it does not apply); lc: the line loads' cursor of this round. */
static PetscErrorCode CellRow(FlxModel m, FlxCellFieldKind f, PetscInt c, const PetscScalar ul[], FlxLoadCursor *lc, PetscReal row[], PetscBool *bad, char msg[], size_t len)
{
  const FlxSectionProps *p;
  FlxElementOps          ops;
  PetscReal              xyz[12], ue[24], s[FLX_BEAM_NFORCES], fd[12];
  const PetscInt        *nodes;
  PetscInt               nn;
  PetscBool              hc;

  PetscFunctionBegin;
  PetscCall(CellHasField(m, c, f, &hc));
  if (!hc) {
    for (PetscInt i = 0; i < FieldComponents[f]; i++)
      row[i] = (PetscReal)NAN;
    PetscFunctionReturn(0);
  }
  PetscCall(FlxMeshGetCell(m->mesh, c, NULL, &nn, &nodes, NULL));
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
    FlxModelDistributedLoadOfCell(m, lc, c, fd);
    PetscCall(SectionForces(m, c, ops, xyz, p, ue, fd, row, bad, msg, len));
    break;
  default:
    FlxModelDistributedLoadOfCell(m, lc, c, fd);
    PetscCall(SectionForces(m, c, ops, xyz, p, ue, fd, s, bad, msg, len));
    FlxSectionStresses(p, s, &row[0], &row[1], &row[2]);
    FlxSectionStresses(p, s + 6, &row[3], &row[4], &row[5]);
  }
  PetscFunctionReturn(0);
}

/* Field f of the displacement u, with the distributed loads at time t, into w: round by round for each type that
   carries it, the owners' rows to the windows' ranks, then written. A field no cell carries is skipped. Collective. */
static PetscErrorCode WriteField(FlxModel m, FlxWriter w, FlxCellFieldKind f, const char name[], const char *const comps[], PetscReal t, Vec u)
{
  const PetscScalar *ul;
  PetscBool          any = PETSC_FALSE, bad = PETSC_FALSE;
  char               msg[512] = "";

  PetscFunctionBegin;
  PetscCall(SetUpCellFields(m));
  for (int k = 0; k < FLX_NUM_CELL_TYPES; k++)
    if (m->fieldhas[f][k]) any = PETSC_TRUE;
  if (!any) PetscFunctionReturn(0);
  PetscCall(VecScatterBegin(m->toloc, u, m->uloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(m->toloc, u, m->uloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(FlxWriterBeginCellField(w, name, FieldComponents[f], comps, m->fieldhas[f]));
  PetscCall(VecGetArrayRead(m->uloc, &ul));
  for (int k = 0; k < FLX_NUM_CELL_TYPES; k++) {
    FlxCellRows *cr = &m->cfrows[k];
    if (!m->fieldhas[f][k]) continue;
    for (PetscInt j = 0; j < cr->R; j++) {
      FlxLoadCursor lc;
      PetscSF       sf;
      PetscCall(FlxModelDistributedLoadsBegin(m, t, &lc)); /* the beams' line loads, cell by cell */
      for (PetscInt q = cr->ptr[j]; q < cr->ptr[j + 1]; q++)
        PetscCall(CellRow(m, f, cr->cell[q], ul, &lc, cr->own + cr->width * (q - cr->ptr[j]), &bad, msg, sizeof(msg)));
      PetscCall(RoundSF(m, k, j, &sf)); /* built for the round and freed: no index of every cell kept between outputs */
      PetscCall(PetscSFReduceBegin(sf, cr->unit, cr->own, cr->win, MPI_REPLACE));
      PetscCall(PetscSFReduceEnd(sf, cr->unit, cr->own, cr->win, MPI_REPLACE));
      PetscCall(PetscSFDestroy(&sf));
      PetscCall(FlxWriterWriteCellFieldRows(w, k, cr->lo + j * cr->C, PetscMax(0, PetscMin(cr->C, cr->nwin - j * cr->C)), cr->width, cr->win));
    }
  }
  PetscCall(VecRestoreArrayRead(m->uloc, &ul));
  PetscCall(FlxWriterEndCellField(w));
  PetscCall(FlxCheckCollective(m->comm, bad, PETSC_ERR_NOT_CONVERGED, msg));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelWriteCellFields(FlxModel m, FlxWriter w, PetscReal t, Vec u)
{
  PetscBool shells, beams, shapes;

  PetscFunctionBegin;
  PetscCall(FlxModelHasShells(m, &shells));
  PetscCall(FlxModelHasBeams(m, &beams, &shapes));
  if (shells) {
    PetscCall(WriteField(m, w, FLX_FIELD_SHELL_RESULTANTS, "shell_resultants", FlxShellResultantNames, t, u));
    PetscCall(WriteField(m, w, FLX_FIELD_SHELL_STRESSES, "shell_stresses", FlxShellStressNames, t, u));
  }
  if (beams) PetscCall(WriteField(m, w, FLX_FIELD_BEAM_FORCES, "beam_forces", FlxBeamForceNames, t, u));
  if (shapes) PetscCall(WriteField(m, w, FLX_FIELD_BEAM_STRESSES, "beam_stresses", FlxBeamStressNames, t, u));
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
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
    FlxCellRows *cr = &m->cfrows[t];
    if (!cr->width) continue;
    PetscCall(PetscFree(cr->ptr));
    PetscCall(PetscFree(cr->cell));
    PetscCall(PetscFree3(cr->own, cr->win, cr->leaf));
    PetscCallMPI(MPI_Type_free(&cr->unit));
    cr->width = 0;
  }
  m->cfsetup = PETSC_FALSE;
  PetscFunctionReturn(0);
}
