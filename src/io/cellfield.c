/* Cell fields of the results file (src/io/writer.c writes the rest): registration, the datasets of each frame or of
   a static solution, and their rows, whole or in pieces (FlxWriterBeginCellField). */
#include <flexure/writer.h>
#include <flexure/private/writerimpl.h>

/* Find or register cell field name; *isnew says whether it was registered now. */
static PetscErrorCode AddCellField(FlxWriter w, const char name[], PetscInt ncomp, const char *const compnames[], PetscBool isstatic, PetscInt *k, PetscBool *isnew)
{
  CellField *f;
  size_t     len = 1;

  PetscFunctionBegin;
  *isnew = PETSC_FALSE;
  for (*k = 0; *k < w->ncf; (*k)++)
    if (!strcmp(w->cf[*k].name, name) && w->cf[*k].isstatic == isstatic) break;
  if (*k < w->ncf) {
    PetscCheck(w->cf[*k].ncomp == ncomp, w->comm, PETSC_ERR_ARG_WRONG, "cell field %s written with %" PetscInt_FMT " components, earlier with %" PetscInt_FMT, name, ncomp, w->cf[*k].ncomp);
    PetscFunctionReturn(0);
  }
  for (PetscInt c = 0; c < ncomp; c++) {
    PetscCheck(compnames[c][0] && !strchr(compnames[c], ','), w->comm, PETSC_ERR_ARG_WRONG, "cell field %s: component name '%s' must be non-empty and hold no ','", name, compnames[c]);
    len += strlen(compnames[c]) + 1;
  }
  PetscCall(FlxWriterGrow(sizeof(CellField), w->ncf, &w->capcf, (void **)&w->cf));
  f = &w->cf[w->ncf];
  PetscCall(PetscStrallocpy(name, &f->name));
  f->ncomp    = ncomp;
  f->isstatic = isstatic;
  PetscCall(PetscMalloc1(ncomp, &f->comp));
  PetscCall(PetscCalloc1(len, &f->comps));
  for (PetscInt c = 0; c < ncomp; c++) {
    PetscCall(PetscStrallocpy(compnames[c], &f->comp[c]));
    PetscCall(PetscStrlcat(f->comps, c ? "," : "", len));
    PetscCall(PetscStrlcat(f->comps, compnames[c], len));
  }
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++)
    f->dset[t] = -1;
  *k     = w->ncf++;
  *isnew = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* The dataset of cell field f for type t, ready for rows: static /static/NAME/TYPE (created, open until the end),
   or /fields/NAME/TYPE extended to the frame just written. */
static PetscErrorCode CellFieldOfType(FlxWriter w, CellField *f, int t)
{
  char    path[400];
  hsize_t dims[3] = {0, (hsize_t)w->ncells[t], (hsize_t)f->ncomp};

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "/%s/%s/%s", f->isstatic ? "static" : "fields", f->name, FlxCellTypeNames[t]));
  f->has[t] = PETSC_TRUE;
  if (f->isstatic) {
    PetscCall(FlxH5CreateDataset(&w->io, w->io.file, path, H5T_NATIVE_DOUBLE, 2, dims + 1, &w->sdset[t]));
    PetscCall(FlxH5WriteStringAttribute(&w->io, w->sdset[t], "components", f->comps));
    PetscFunctionReturn(0);
  }
  if (f->dset[t] < 0) {
    PetscCall(FlxH5CreateExtendible(&w->io, w->io.file, path, H5T_NATIVE_DOUBLE, 3, dims, &f->dset[t]));
    PetscCall(FlxH5WriteStringAttribute(&w->io, f->dset[t], "components", f->comps));
    f->first[t] = w->nframes - 1;
  }
  dims[0] = (hsize_t)w->nframes;
  PetscCall(FlxH5SetExtent(&w->io, f->dset[t], dims));
  f->nrows[t] = w->nframes;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterBeginCellField(FlxWriter w, const char name[], PetscInt ncomp, const char *const compnames[], const PetscBool has[])
{
  PetscBool isstatic = (PetscBool)(w->nframes == 0), isnew;
  PetscInt  k;

  PetscFunctionBegin;
  PetscCheck(!w->io.failed, w->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", w->h5);
  PetscCheck(w->curcf < 0, w->comm, PETSC_ERR_ARG_WRONGSTATE, "cell field %s begun before the end of %s", name, w->cf[w->curcf].name);
  PetscCall(FlxWriterCheckName(w, name, "cell field", PETSC_FALSE));
  PetscCheck(ncomp > 0, w->comm, PETSC_ERR_ARG_OUTOFRANGE, "cell field %s needs at least one component", name);
  FlxWriterSetWhat(w, "the cell field %s", name);
  PetscCall(AddCellField(w, name, ncomp, compnames, isstatic, &k, &isnew));
  if (isnew) {
    char grp[300];
    PetscCall(FlxH5EnsureGroup(&w->io, isstatic ? "/static" : "/fields"));
    PetscCall(PetscSNPrintf(grp, sizeof(grp), "/%s/%s", isstatic ? "static" : "fields", name));
    PetscCall(FlxH5EnsureGroup(&w->io, grp));
  }
  w->curcf = k;
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
    w->sdset[t] = -1;
    if (has[t]) PetscCall(CellFieldOfType(w, &w->cf[k], t));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterWriteCellFieldRows(FlxWriter w, int t, PetscInt lo, PetscInt n, PetscInt width, const PetscScalar rows[])
{
  CellField *f;

  PetscFunctionBegin;
  PetscCheck(w->curcf >= 0, w->comm, PETSC_ERR_ARG_WRONGSTATE, "cell field rows without FlxWriterBeginCellField");
  f = &w->cf[w->curcf];
  PetscCheck(f->has[t] && width >= f->ncomp, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "cell field %s: rows of type %s not begun, or narrower (%" PetscInt_FMT ") than its %" PetscInt_FMT " components", f->name, FlxCellTypeNames[t], width, f->ncomp);
  if (f->isstatic)
    PetscCall(FlxWriterWriteRowsStrided(w, w->sdset[t], -1, lo, n, f->ncomp, width, H5T_NATIVE_DOUBLE, rows));
  else
    PetscCall(FlxWriterWriteRowsStrided(w, f->dset[t], w->nframes - 1, lo, n, f->ncomp, width, H5T_NATIVE_DOUBLE, rows));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterEndCellField(FlxWriter w)
{
  PetscFunctionBegin;
  PetscCheck(w->curcf >= 0, w->comm, PETSC_ERR_ARG_WRONGSTATE, "FlxWriterEndCellField without FlxWriterBeginCellField");
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++)
    if (w->sdset[t] >= 0) {
      FLX_H5L(&w->io, H5Dclose(w->sdset[t]));
      w->sdset[t] = -1;
    }
  w->curcf = -1;
  w->dirty = PETSC_TRUE; /* flushed by FlxWriterFlush, the next frame or the end */
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterWriteCellField(FlxWriter w, const char name[], PetscInt ncomp, const char *const compnames[], Vec r[])
{
  PetscBool has[FLX_NUM_CELL_TYPES];

  PetscFunctionBegin;
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++)
    has[t] = (PetscBool)(r[t] != NULL);
  PetscCall(FlxWriterBeginCellField(w, name, ncomp, compnames, has));
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
    PetscInt           lo, hi;
    const PetscScalar *a;
    if (!r[t]) continue;
    PetscCall(VecGetOwnershipRange(r[t], &lo, &hi));
    PetscCheck(lo % ncomp == 0 && hi % ncomp == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "vector layout [%" PetscInt_FMT ", %" PetscInt_FMT ") is not in whole rows of %" PetscInt_FMT, lo, hi, ncomp);
    PetscCall(VecGetArrayRead(r[t], &a));
    PetscCall(FlxWriterWriteCellFieldRows(w, t, lo / ncomp, (hi - lo) / ncomp, ncomp, a));
    PetscCall(VecRestoreArrayRead(r[t], &a));
  }
  PetscCall(FlxWriterEndCellField(w));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterWriteResultants(FlxWriter w, Vec r[])
{
  PetscFunctionBegin;
  PetscCall(FlxWriterWriteCellField(w, "shell_resultants", FLX_SHELL_NRESULTANTS, FlxShellResultantNames, r));
  PetscFunctionReturn(0);
}
