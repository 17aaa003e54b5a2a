/* FlxWriter series, appended at history steps: /history/NAME and /history/time, the energy ledger /energy and the
   probes /probes/NAME. Rows are valid on rank 0 and written collectively; no allocation once the run is going
   (the staging buffer grows on demand). */
#include <flexure/private/writerimpl.h>

static const char *EnergyNames[6] = {"time", "kinetic", "strain", "external_work", "damping", "numerical_dissipation"};

PetscErrorCode FlxWriterCreateSeries(FlxWriter w)
{
  hid_t g;

  PetscFunctionBegin;
  PetscCall(FlxH5CreateGroup(&w->io, w->io.file, "/energy", &g));
  for (int k = 0; k < 6; k++) {
    hsize_t dims[1] = {0};
    PetscCall(FlxH5CreateExtendible(&w->io, g, EnergyNames[k], H5T_NATIVE_DOUBLE, 1, dims, &w->energy[k]));
  }
  FLX_H5L(&w->io, H5Gclose(g));
  PetscCall(FlxH5EnsureGroup(&w->io, "/probes"));
  PetscFunctionReturn(0);
}

void FlxWriterCloseSeries(FlxWriter w)
{
  for (int k = 0; k < 6; k++)
    if (w->energy[k] >= 0) H5Dclose(w->energy[k]), w->energy[k] = -1;
  for (PetscInt p = 0; p < w->nprobe; p++) {
    if (w->probe[p].time >= 0) H5Dclose(w->probe[p].time), w->probe[p].time = -1;
    for (int k = 0; k < 3; k++)
      if (w->probe[p].val[k] >= 0) H5Dclose(w->probe[p].val[k]), w->probe[p].val[k] = -1;
  }
  for (PetscInt h = 0; h < w->nhist; h++)
    if (w->hist[h].dset >= 0) H5Dclose(w->hist[h].dset), w->hist[h].dset = -1;
  if (w->htime >= 0) H5Dclose(w->htime), w->htime = -1;
}

PetscErrorCode FlxWriterFreeSeries(FlxWriter w)
{
  PetscFunctionBegin;
  for (PetscInt p = 0; p < w->nprobe; p++)
    PetscCall(PetscFree(w->probe[p].name));
  for (PetscInt h = 0; h < w->nhist; h++)
    PetscCall(PetscFree(w->hist[h].name));
  PetscCall(PetscFree(w->probe));
  PetscCall(PetscFree(w->hist));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterAppendEnergy(FlxWriter w, PetscInt n, const FlxLedgerRow rows[])
{
  double *col;

  PetscFunctionBegin;
  PetscCheck(!w->io.failed, w->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", w->h5);
  FlxWriterSetWhat(w, "the energy ledger");
  PetscCall(FlxWriterStaging(w, n + 1, &col));
  for (int k = 0; k < 6; k++) {
    for (PetscInt i = 0; i < n; i++)
      col[i] = (double)(&rows[i].time)[k];
    PetscCall(FlxH5AppendRoot(&w->io, w->energy[k], H5T_NATIVE_DOUBLE, (hsize_t)n, col));
  }
  PetscFunctionReturn(0);
}

/* Create a group /probes/NAME or /history/A with the attribute name = value on it or on a dataset. */
static PetscErrorCode StringAttribute(FlxWriter w, hid_t loc, const char name[], const char value[])
{
  PetscFunctionBegin;
  PetscCall(FlxH5WriteStringAttribute(&w->io, loc, name, value));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterDefineProbe(FlxWriter w, const char name[], PetscInt ndof, const char dofnames[])
{
  Probe      *p;
  hid_t       g;
  hsize_t     dims[2] = {0, (hsize_t)ndof};
  char        path[300];
  const char *vn[3] = {"values", "velocity", "acceleration"};

  PetscFunctionBegin;
  PetscCheck(!w->io.failed, w->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", w->h5);
  PetscCall(FlxWriterCheckName(w, name, "probe (-probe_names)", PETSC_FALSE));
  for (PetscInt k = 0; k < w->nprobe; k++)
    PetscCheck(strcmp(w->probe[k].name, name), w->comm, PETSC_ERR_USER_INPUT, "probe '%s' is listed twice in -probe_names", name);
  PetscCheck(ndof > 0 && ndof <= 6, w->comm, PETSC_ERR_ARG_OUTOFRANGE, "probe '%s' records %" PetscInt_FMT " DOFs (1 to 6)", name, ndof);
  FlxWriterSetWhat(w, "the probe %s", name);
  if (w->nprobe == w->capprobe) {
    Probe *tmp;
    w->capprobe = 2 * w->capprobe + 8;
    PetscCall(PetscCalloc1(w->capprobe, &tmp));
    if (w->nprobe) PetscCall(PetscArraycpy(tmp, w->probe, w->nprobe));
    PetscCall(PetscFree(w->probe));
    w->probe = tmp;
  }
  p       = &w->probe[w->nprobe++];
  p->ndof = ndof;
  p->time = p->val[0] = p->val[1] = p->val[2] = -1;
  PetscCall(PetscStrallocpy(name, &p->name));
  PetscCall(PetscSNPrintf(path, sizeof(path), "/probes/%s", name));
  PetscCall(FlxH5CreateGroup(&w->io, w->io.file, path, &g));
  PetscCall(FlxH5CreateExtendible(&w->io, g, "time", H5T_NATIVE_DOUBLE, 1, dims, &p->time));
  for (int k = 0; k < 3; k++)
    PetscCall(FlxH5CreateExtendible(&w->io, g, vn[k], H5T_NATIVE_DOUBLE, 2, dims, &p->val[k]));
  PetscCall(StringAttribute(w, g, "dofs", dofnames));
  FLX_H5L(&w->io, H5Gclose(g));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterSetProbeNode(FlxWriter w, PetscInt pi, PetscInt node)
{
  hid_t     g, space, attr;
  char      path[300];
  long long v = (long long)node;

  PetscFunctionBegin;
  PetscCheck(!w->io.failed, w->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", w->h5);
  PetscCheck(pi >= 0 && pi < w->nprobe, w->comm, PETSC_ERR_ARG_OUTOFRANGE, "no probe %" PetscInt_FMT, pi);
  FlxWriterSetWhat(w, "the node of the probe %s", w->probe[pi].name);
  PetscCall(PetscSNPrintf(path, sizeof(path), "/probes/%s", w->probe[pi].name));
  FLX_H5ID(&w->io, g, H5Gopen2(w->io.file, path, H5P_DEFAULT));
  FLX_H5LID(&w->io, space, H5Screate(H5S_SCALAR));
  FLX_H5ID(&w->io, attr, H5Acreate2(g, "node", H5T_NATIVE_LLONG, space, H5P_DEFAULT, H5P_DEFAULT));
  FLX_H5(&w->io, H5Awrite(attr, H5T_NATIVE_LLONG, &v));
  FLX_H5L(&w->io, H5Aclose(attr));
  FLX_H5L(&w->io, H5Sclose(space));
  FLX_H5L(&w->io, H5Gclose(g));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterAppendProbe(FlxWriter w, PetscInt pi, PetscInt n, const PetscReal times[], const PetscReal values[], PetscInt stride)
{
  Probe  *p   = &w->probe[pi];
  double *buf = NULL;

  PetscFunctionBegin;
  PetscCheck(!w->io.failed, w->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", w->h5);
  FlxWriterSetWhat(w, "the probe %s", p->name);
  PetscCall(FlxWriterStaging(w, n * PetscMax(p->ndof, 1) + 1, &buf));
  if (w->rank == 0)
    for (PetscInt i = 0; i < n; i++)
      buf[i] = (double)times[i];
  PetscCall(FlxH5AppendRoot(&w->io, p->time, H5T_NATIVE_DOUBLE, (hsize_t)n, buf));
  for (int k = 0; k < 3; k++) {
    if (w->rank == 0)
      for (PetscInt i = 0; i < n; i++)
        for (PetscInt d = 0; d < p->ndof; d++)
          buf[i * p->ndof + d] = (double)values[i * stride + 3 * d + k];
    PetscCall(FlxH5AppendRoot(&w->io, p->val[k], H5T_NATIVE_DOUBLE, (hsize_t)n, buf));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterDefineHistory(FlxWriter w, const char name[], PetscInt ncol, const char colnames[], PetscInt *id)
{
  History    *h;
  hsize_t     dims[2] = {0, (hsize_t)ncol};
  char        path[300];
  const char *slash = strchr(name, '/');

  PetscFunctionBegin;
  PetscCheck(!w->io.failed, w->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", w->h5);
  PetscCall(FlxWriterCheckName(w, name, "history series", PETSC_TRUE));
  PetscCheck(strcmp(name, "time"), w->comm, PETSC_ERR_ARG_WRONG, "history series name 'time' is reserved for /history/time");
  PetscCheck(ncol > 0, w->comm, PETSC_ERR_ARG_OUTOFRANGE, "history series %s needs at least one column", name);
  for (PetscInt k = 0; k < w->nhist; k++) {
    size_t l = strlen(w->hist[k].name);
    PetscCheck(strcmp(w->hist[k].name, name), w->comm, PETSC_ERR_USER_INPUT, "history series %s is defined twice (two names that are the same?)", name);
    PetscCheck(strncmp(w->hist[k].name, name, l) || name[l] != '/', w->comm, PETSC_ERR_USER_INPUT, "history series %s would be inside the series %s", name, w->hist[k].name);
  }
  FlxWriterSetWhat(w, "the history series %s", name);
  PetscCall(FlxH5EnsureGroup(&w->io, "/history"));
  if (slash) {
    PetscCall(PetscSNPrintf(path, sizeof(path), "/history/%.*s", (int)(slash - name), name));
    PetscCall(FlxH5EnsureGroup(&w->io, path));
  }
  PetscCall(FlxWriterGrow(sizeof(History), w->nhist, &w->caphist, (void **)&w->hist));
  h       = &w->hist[w->nhist];
  h->ncol = ncol;
  h->dset = -1;
  PetscCall(PetscStrallocpy(name, &h->name));
  *id = w->nhist++;
  PetscCall(PetscSNPrintf(path, sizeof(path), "/history/%s", name));
  PetscCall(FlxH5CreateExtendible(&w->io, w->io.file, path, H5T_NATIVE_DOUBLE, 2, dims, &h->dset));
  PetscCall(StringAttribute(w, h->dset, "columns", colnames));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterAppendHistory(FlxWriter w, PetscInt id, PetscInt n, const PetscReal rows[])
{
  History *h;
  double  *buf;

  PetscFunctionBegin;
  PetscCheck(!w->io.failed, w->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", w->h5);
  PetscCheck(id >= 0 && id < w->nhist, w->comm, PETSC_ERR_ARG_OUTOFRANGE, "no history series %" PetscInt_FMT, id);
  h = &w->hist[id];
  FlxWriterSetWhat(w, "the history series %s", h->name);
  PetscCall(FlxWriterStaging(w, n * h->ncol + 1, &buf));
  if (w->rank == 0)
    for (PetscInt i = 0; i < n * h->ncol; i++)
      buf[i] = (double)rows[i];
  PetscCall(FlxH5AppendRoot(&w->io, h->dset, H5T_NATIVE_DOUBLE, (hsize_t)n, buf));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterAppendHistoryTime(FlxWriter w, PetscInt n, const PetscReal t[])
{
  double *buf;

  PetscFunctionBegin;
  PetscCheck(!w->io.failed, w->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", w->h5);
  FlxWriterSetWhat(w, "/history/time");
  if (w->htime < 0) {
    hsize_t dims[1] = {0};
    PetscCall(FlxH5EnsureGroup(&w->io, "/history"));
    PetscCall(FlxH5CreateExtendible(&w->io, w->io.file, "/history/time", H5T_NATIVE_DOUBLE, 1, dims, &w->htime));
  }
  PetscCall(FlxWriterStaging(w, n + 1, &buf));
  if (w->rank == 0)
    for (PetscInt i = 0; i < n; i++)
      buf[i] = (double)t[i];
  PetscCall(FlxH5AppendRoot(&w->io, w->htime, H5T_NATIVE_DOUBLE, (hsize_t)n, buf));
  PetscFunctionReturn(0);
}
