/* FlxWriter: HDF5 results file (parallel, collective) and its XDMF sidecar. */
#include <flexure/private/h5util.h>
#include <sys/stat.h>

#define FLX_MAX_PROBES 64

typedef struct {
  char     name[FLX_NAME_LEN];
  PetscInt ndof;
  hid_t    time, val[3];
} Probe;

struct _p_FlxWriter {
  MPI_Comm    comm;
  PetscMPIInt rank;
  char        h5[PETSC_MAX_PATH_LEN], xdmf[PETSC_MAX_PATH_LEN], h5base[PETSC_MAX_PATH_LEN];
  hid_t       file, time, fields[3], energy[6];
  PetscInt    N, ncells[FLX_NUM_CELL_TYPES], nframes;
  PetscReal  *frame_times;
  PetscInt    frame_cap;
  Probe       probe[FLX_MAX_PROBES];
  PetscInt    nprobe;
  double     *buf; /* staging for appended rows, grown on demand (no allocation once the run is going) */
  PetscInt    bufcap;
  hid_t       res[FLX_NUM_CELL_TYPES]; /* /fields/shell_resultants/TYPE, T x N_t x 14 (-1: none) */
  PetscInt    nres_frames;
  PetscInt    nmodes; /* modal results: the XDMF steps through the mode shapes */
  PetscReal  *mode_freq;
  hid_t       extra[16], hist[16], htime; /* temporary generic API: /fields/NAME, /history/NAME, /history/time */
  char        extraname[16][FLX_NAME_LEN];
  PetscInt    nextra, nhist, hcols[16];
};

/* Create the group at path (absolute, one level below an existing one) unless it exists. Collective. */
static PetscErrorCode EnsureGroup(hid_t file, const char path[])
{
  PetscFunctionBegin;
  if (H5Lexists(file, path, H5P_DEFAULT) <= 0) {
    hid_t g;
    FLX_H5ID(g, H5Gcreate2(file, path, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    FLX_H5(H5Gclose(g));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Staging(FlxWriter w, PetscInt n, double **buf)
{
  PetscFunctionBegin;
  if (n > w->bufcap) {
    PetscCall(PetscFree(w->buf));
    w->bufcap = PetscMax(n, 2 * w->bufcap);
    PetscCall(PetscMalloc1(w->bufcap, &w->buf));
  }
  *buf = w->buf;
  PetscFunctionReturn(0);
}

static const char *FieldNames[3]  = {"displacement", "velocity", "acceleration"};
static const char *EnergyNames[6] = {"time", "kinetic", "strain", "external_work", "damping", "numerical_dissipation"};

PetscErrorCode FlxWriterCreate(MPI_Comm comm, const char path[], FlxWriter *wout)
{
  FlxWriter w;
  hid_t     fapl, g;
  size_t    len;

  PetscFunctionBegin;
  PetscCall(PetscNew(&w));
  w->comm = comm;
  PetscCallMPI(MPI_Comm_rank(comm, &w->rank));
  PetscCall(PetscStrncpy(w->h5, path, sizeof(w->h5)));
  PetscCall(PetscStrlen(path, &len));
  PetscCall(PetscStrncpy(w->xdmf, path, sizeof(w->xdmf)));
  if (len > 3 && !strcmp(path + len - 3, ".h5")) w->xdmf[len - 3] = 0;
  PetscCall(PetscStrlcat(w->xdmf, ".xdmf", sizeof(w->xdmf)));
  {
    const char *slash = strrchr(path, '/');
    PetscCall(PetscStrncpy(w->h5base, slash ? slash + 1 : path, sizeof(w->h5base)));
  }
  if (w->rank == 0) { /* create the directories of the path (mkdir -p); failures show up at H5Fcreate */
    char dir[PETSC_MAX_PATH_LEN];
    PetscCall(PetscStrncpy(dir, path, sizeof(dir)));
    for (char *p = dir + 1; *p; p++)
      if (*p == '/') {
        *p = 0;
        (void)mkdir(dir, 0777);
        *p = '/';
      }
  }
  PetscCallMPI(MPI_Barrier(comm));
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  FLX_H5ID(fapl, H5Pcreate(H5P_FILE_ACCESS));
  FLX_H5(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL));
  w->file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  FLX_H5(H5Pclose(fapl));
  PetscCheck(w->file >= 0, comm, PETSC_ERR_FILE_OPEN, "cannot create the results file %s (-output_file): does its directory exist and is it writable?", path);
  for (int k = 0; k < 3; k++)
    w->fields[k] = -1;
  for (int k = 0; k < FLX_NUM_CELL_TYPES; k++)
    w->res[k] = -1;
  FLX_H5ID(g, H5Gcreate2(w->file, "/energy", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  for (int k = 0; k < 6; k++) {
    hsize_t dims[1] = {0};
    PetscCall(FlxH5CreateExtendible(g, EnergyNames[k], H5T_NATIVE_DOUBLE, 1, dims, &w->energy[k]));
  }
  FLX_H5(H5Gclose(g));
  FLX_H5ID(g, H5Gcreate2(w->file, "/probes", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  FLX_H5(H5Gclose(g));
  *wout = w;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterWriteMesh(FlxWriter w, FlxMesh mesh)
{
  PetscFunctionBegin;
  PetscCall(FlxMeshWriteHDF5(mesh, (long long)w->file));
  PetscCall(FlxMeshGetNodeLayout(mesh, &w->N, NULL));
  {
    PetscInt nc[FLX_NUM_CELL_TYPES] = {0}, lnc;
    PetscCall(FlxMeshGetLocalSizes(mesh, NULL, NULL, &lnc));
    for (PetscInt c = 0; c < lnc; c++) {
      FlxCellType t;
      PetscBool   owned;
      PetscCall(FlxMeshGetCell(mesh, c, &t, NULL, NULL, NULL));
      PetscCall(FlxMeshIsCellOwned(mesh, c, &owned));
      nc[t] += owned;
    }
    PetscCallMPI(MPI_Allreduce(nc, w->ncells, FLX_NUM_CELL_TYPES, MPIU_INT, MPI_SUM, w->comm));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterSetAttribute(FlxWriter w, const char name[], const char value[])
{
  hid_t  type, space, attr;
  size_t len;

  PetscFunctionBegin;
  PetscCall(PetscStrlen(value, &len));
  FLX_H5ID(type, H5Tcopy(H5T_C_S1));
  FLX_H5(H5Tset_size(type, len ? len : 1));
  FLX_H5ID(space, H5Screate(H5S_SCALAR));
  if (H5Aexists(w->file, name) > 0) FLX_H5(H5Adelete(w->file, name));
  FLX_H5ID(attr, H5Acreate2(w->file, name, type, space, H5P_DEFAULT, H5P_DEFAULT));
  FLX_H5(H5Awrite(attr, type, len ? value : " "));
  FLX_H5(H5Aclose(attr));
  FLX_H5(H5Sclose(space));
  FLX_H5(H5Tclose(type));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterSetAttributeReal(FlxWriter w, const char name[], PetscReal value)
{
  hid_t  space, attr;
  double v = (double)value;

  PetscFunctionBegin;
  FLX_H5ID(space, H5Screate(H5S_SCALAR));
  if (H5Aexists(w->file, name) > 0) FLX_H5(H5Adelete(w->file, name));
  FLX_H5ID(attr, H5Acreate2(w->file, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT));
  FLX_H5(H5Awrite(attr, H5T_NATIVE_DOUBLE, &v));
  FLX_H5(H5Aclose(attr));
  FLX_H5(H5Sclose(space));
  PetscFunctionReturn(0);
}

/* Write the local rows of a natural-order node vector into row 'row' of a T x N x 6 dataset
   (or, with row < 0, into an N x 6 dataset). */
/* Write the rows (width values each) of x, distributed in contiguous ranges, into dset (2D, or row of a 3D one). */
static PetscErrorCode WriteRows(FlxWriter w, hid_t dset, PetscInt row, Vec x, PetscInt width)
{
  PetscInt           lo, hi;
  const PetscScalar *a;
  hid_t              fspace, mspace, xfer;
  hsize_t            start[3], count[3];
  int                r = row < 0 ? 2 : 3, o = row < 0 ? 0 : 1;

  PetscFunctionBegin;
  PetscCall(VecGetOwnershipRange(x, &lo, &hi));
  PetscCall(VecGetArrayRead(x, &a));
  FLX_H5ID(fspace, H5Dget_space(dset));
  if (row >= 0) {
    start[0] = (hsize_t)row;
    count[0] = 1;
  }
  start[o]     = (hsize_t)(lo / width);
  count[o]     = (hsize_t)((hi - lo) / width);
  start[o + 1] = 0;
  count[o + 1] = (hsize_t)width;
  FLX_H5(H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL));
  FLX_H5ID(mspace, H5Screate_simple(r, count, NULL));
  FLX_H5ID(xfer, H5Pcreate(H5P_DATASET_XFER));
  FLX_H5(H5Pset_dxpl_mpio(xfer, H5FD_MPIO_COLLECTIVE));
  FLX_H5(H5Dwrite(dset, H5T_NATIVE_DOUBLE, mspace, fspace, xfer, a));
  FLX_H5(H5Pclose(xfer));
  FLX_H5(H5Sclose(mspace));
  FLX_H5(H5Sclose(fspace));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterWriteFields(FlxWriter w, PetscReal t, Vec x, Vec v, Vec a)
{
  Vec     vecs[3] = {x, v, a};
  double  tt      = (double)t;
  hsize_t dims[3] = {0, (hsize_t)w->N, 6};

  PetscFunctionBegin;
  if (w->fields[0] < 0) {
    hid_t g;
    FLX_H5ID(g, H5Gcreate2(w->file, "/fields", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    for (int k = 0; k < 3; k++)
      PetscCall(FlxH5CreateExtendible(g, FieldNames[k], H5T_NATIVE_DOUBLE, 3, dims, &w->fields[k]));
    FLX_H5(H5Gclose(g));
    PetscCall(FlxH5CreateExtendible(w->file, "/time", H5T_NATIVE_DOUBLE, 1, dims, &w->time));
  }
  for (int k = 0; k < 3; k++) {
    dims[0] = (hsize_t)(w->nframes + 1);
    FLX_H5(H5Dset_extent(w->fields[k], dims));
    PetscCall(WriteRows(w, w->fields[k], w->nframes, vecs[k], 6));
  }
  PetscCall(FlxH5AppendRoot(w->time, H5T_NATIVE_DOUBLE, 1, &tt, w->rank));
  if (w->nframes == w->frame_cap) {
    PetscReal *tmp;
    w->frame_cap = 2 * w->frame_cap + 64;
    PetscCall(PetscMalloc1(w->frame_cap, &tmp));
    if (w->nframes) PetscCall(PetscArraycpy(tmp, w->frame_times, w->nframes));
    PetscCall(PetscFree(w->frame_times));
    w->frame_times = tmp;
  }
  w->frame_times[w->nframes++] = t;
  PetscCall(FlxWriterFlush(w));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterWriteNodeField(FlxWriter w, const char name[], Vec x)
{
  hid_t   space, dset;
  hsize_t dims[2] = {(hsize_t)w->N, 6};
  char    grp[256], *slash;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(grp, name, sizeof(grp)));
  slash = strrchr(grp, '/');
  if (slash && slash != grp) {
    *slash = 0;
    PetscCall(EnsureGroup(w->file, grp));
  }
  FLX_H5ID(space, H5Screate_simple(2, dims, NULL));
  FLX_H5ID(dset, H5Dcreate2(w->file, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  PetscCall(WriteRows(w, dset, -1, x, 6));
  FLX_H5(H5Dclose(dset));
  FLX_H5(H5Sclose(space));
  PetscFunctionReturn(0);
}

/* Attribute "components" naming the columns of a resultant dataset. */
static PetscErrorCode WriteComponents(hid_t ds)
{
  hid_t type, space, attr;
  char  names[512] = "";

  PetscFunctionBegin;
  for (int k = 0; k < FLX_SHELL_NRESULTANTS; k++) {
    PetscCall(PetscStrlcat(names, k ? "," : "", sizeof(names)));
    PetscCall(PetscStrlcat(names, FlxShellResultantNames[k], sizeof(names)));
  }
  FLX_H5ID(type, H5Tcopy(H5T_C_S1));
  FLX_H5(H5Tset_size(type, strlen(names)));
  FLX_H5ID(space, H5Screate(H5S_SCALAR));
  FLX_H5ID(attr, H5Acreate2(ds, "components", type, space, H5P_DEFAULT, H5P_DEFAULT));
  FLX_H5(H5Awrite(attr, type, names));
  FLX_H5(H5Aclose(attr));
  FLX_H5(H5Sclose(space));
  FLX_H5(H5Tclose(type));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterWriteResultants(FlxWriter w, Vec r[])
{
  hsize_t dims[3] = {0, 0, FLX_SHELL_NRESULTANTS};

  PetscFunctionBegin;
  if (w->fields[0] < 0) { /* no frames: a static solution, /static/shell_resultants/TYPE (N_t x 14) */
    for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
      hid_t   space, dset;
      hsize_t d2[2] = {(hsize_t)w->ncells[t], FLX_SHELL_NRESULTANTS};
      char    name[128];
      if (!r[t]) continue;
      PetscCall(EnsureGroup(w->file, "/static/shell_resultants"));
      PetscCall(PetscSNPrintf(name, sizeof(name), "/static/shell_resultants/%s", FlxCellTypeNames[t]));
      FLX_H5ID(space, H5Screate_simple(2, d2, NULL));
      FLX_H5ID(dset, H5Dcreate2(w->file, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
      PetscCall(WriteRows(w, dset, -1, r[t], FLX_SHELL_NRESULTANTS));
      PetscCall(WriteComponents(dset));
      FLX_H5(H5Dclose(dset));
      FLX_H5(H5Sclose(space));
    }
    PetscFunctionReturn(0);
  }
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
    if (!r[t]) continue;
    if (w->res[t] < 0) {
      char name[128];
      PetscCall(EnsureGroup(w->file, "/fields/shell_resultants"));
      PetscCall(PetscSNPrintf(name, sizeof(name), "/fields/shell_resultants/%s", FlxCellTypeNames[t]));
      dims[1] = (hsize_t)w->ncells[t];
      PetscCall(FlxH5CreateExtendible(w->file, name, H5T_NATIVE_DOUBLE, 3, dims, &w->res[t]));
      PetscCall(WriteComponents(w->res[t]));
    }
    dims[0] = (hsize_t)w->nframes;
    dims[1] = (hsize_t)w->ncells[t];
    FLX_H5(H5Dset_extent(w->res[t], dims));
    PetscCall(WriteRows(w, w->res[t], w->nframes - 1, r[t], FLX_SHELL_NRESULTANTS));
  }
  w->nres_frames = w->nframes;
  PetscCall(FlxWriterFlush(w));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterWriteModes(FlxWriter w, PetscInt n, const PetscReal freq[], const PetscBool rigid[], PetscReal omega_max, Vec shapes[])
{
  hid_t   space, dset;
  hsize_t dims[3] = {(hsize_t)n, (hsize_t)w->N, 6}, one = 1, nd = (hsize_t)n;
  double *f;
  int    *r;

  PetscFunctionBegin;
  PetscCall(EnsureGroup(w->file, "/modes"));
  PetscCall(PetscMalloc2(n + 1, &f, n + 1, &r));
  for (PetscInt k = 0; k < n; k++) {
    f[k] = (double)freq[k];
    r[k] = rigid[k] ? 1 : 0;
  }
  PetscCall(FlxH5WriteRoot(w->file, "/modes/frequency", H5T_NATIVE_DOUBLE, 1, &nd, f, w->rank));
  PetscCall(FlxH5WriteRoot(w->file, "/modes/rigid_body", H5T_NATIVE_INT, 1, &nd, r, w->rank));
  {
    double om = (double)omega_max;
    PetscCall(FlxH5WriteRoot(w->file, "/modes/omega_max", H5T_NATIVE_DOUBLE, 1, &one, &om, w->rank));
  }
  PetscCall(PetscFree2(f, r));
  FLX_H5ID(space, H5Screate_simple(3, dims, NULL));
  FLX_H5ID(dset, H5Dcreate2(w->file, "/modes/shape", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  for (PetscInt k = 0; k < n; k++)
    PetscCall(WriteRows(w, dset, k, shapes[k], 6));
  FLX_H5(H5Dclose(dset));
  FLX_H5(H5Sclose(space));
  PetscCall(PetscFree(w->mode_freq));
  PetscCall(PetscMalloc1(n + 1, &w->mode_freq));
  for (PetscInt k = 0; k < n; k++)
    w->mode_freq[k] = freq[k];
  w->nmodes = n;
  PetscCall(FlxWriterFlush(w));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterAppendEnergy(FlxWriter w, PetscInt n, const FlxLedgerRow rows[])
{
  double *col;

  PetscFunctionBegin;
  PetscCall(Staging(w, n + 1, &col));
  for (int k = 0; k < 6; k++) {
    for (PetscInt i = 0; i < n; i++)
      col[i] = (double)(&rows[i].time)[k];
    PetscCall(FlxH5AppendRoot(w->energy[k], H5T_NATIVE_DOUBLE, (hsize_t)n, col, w->rank));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterDefineProbe(FlxWriter w, const char name[], PetscInt ndof, const char dofnames[])
{
  Probe      *p = &w->probe[w->nprobe];
  hid_t       g, type, space, attr;
  hsize_t     dims[2] = {0, (hsize_t)ndof};
  char        path[256];
  const char *vn[3] = {"values", "velocity", "acceleration"};

  PetscFunctionBegin;
  PetscCheck(w->nprobe < FLX_MAX_PROBES, w->comm, PETSC_ERR_USER_INPUT, "at most %d probes", FLX_MAX_PROBES);
  PetscCall(PetscStrncpy(p->name, name, sizeof(p->name)));
  p->ndof = ndof;
  PetscCall(PetscSNPrintf(path, sizeof(path), "/probes/%s", name));
  FLX_H5ID(g, H5Gcreate2(w->file, path, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  PetscCall(FlxH5CreateExtendible(g, "time", H5T_NATIVE_DOUBLE, 1, dims, &p->time));
  for (int k = 0; k < 3; k++)
    PetscCall(FlxH5CreateExtendible(g, vn[k], H5T_NATIVE_DOUBLE, 2, dims, &p->val[k]));
  FLX_H5ID(type, H5Tcopy(H5T_C_S1));
  FLX_H5(H5Tset_size(type, strlen(dofnames) + 1));
  FLX_H5ID(space, H5Screate(H5S_SCALAR));
  FLX_H5ID(attr, H5Acreate2(g, "dofs", type, space, H5P_DEFAULT, H5P_DEFAULT));
  FLX_H5(H5Awrite(attr, type, dofnames));
  FLX_H5(H5Aclose(attr));
  FLX_H5(H5Sclose(space));
  FLX_H5(H5Tclose(type));
  FLX_H5(H5Gclose(g));
  w->nprobe++;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterAppendProbe(FlxWriter w, PetscInt pi, PetscInt n, const PetscReal times[], const PetscReal values[], PetscInt stride)
{
  Probe  *p   = &w->probe[pi];
  double *buf = NULL;

  PetscFunctionBegin;
  PetscCall(Staging(w, n * p->ndof + 1, &buf));
  PetscCall(FlxH5AppendRoot(p->time, H5T_NATIVE_DOUBLE, (hsize_t)n, times, w->rank));
  for (int k = 0; k < 3; k++) {
    if (w->rank == 0)
      for (PetscInt i = 0; i < n; i++)
        for (PetscInt d = 0; d < p->ndof; d++)
          buf[i * p->ndof + d] = (double)values[i * stride + 3 * d + k];
    PetscCall(FlxH5AppendRoot(p->val[k], H5T_NATIVE_DOUBLE, (hsize_t)n, buf, w->rank));
  }
  PetscFunctionReturn(0);
}

/* Rank 0 writes the XDMF file; *ok reports whether it could (checked collectively by the caller). */
static PetscErrorCode WriteXdmf(FlxWriter w, PetscBool *ok)
{
  FILE       *fp;
  const char *topo[FLX_NUM_CELL_TYPES] = {"Polyline\" NodesPerElement=\"2", "Triangle", "Quadrilateral"};

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  if (w->rank != 0) PetscFunctionReturn(0);
  fp = fopen(w->xdmf, "w");
  if (!fp) {
    *ok = PETSC_FALSE;
    PetscFunctionReturn(0);
  }
  fprintf(fp, "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n<Domain>\n<Grid Name=\"flexure\" GridType=\"Collection\" CollectionType=\"Temporal\">\n");
  for (PetscInt f = 0; f < (w->nmodes ? w->nmodes : w->nframes); f++) {
    if (w->nmodes)
      fprintf(fp, " <Grid Name=\"mode%d (%.6g Hz)\" GridType=\"Collection\" CollectionType=\"Spatial\">\n  <Time Value=\"%d\"/>\n", (int)f + 1, (double)w->mode_freq[f], (int)f + 1);
    else
      fprintf(fp, " <Grid Name=\"frame%d\" GridType=\"Collection\" CollectionType=\"Spatial\">\n  <Time Value=\"%.17g\"/>\n", (int)f, (double)w->frame_times[f]);
    for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
      if (!w->ncells[t]) continue;
      fprintf(fp, "  <Grid Name=\"%s\" GridType=\"Uniform\">\n", FlxCellTypeNames[t]);
      fprintf(fp, "   <Topology TopologyType=\"%s\" NumberOfElements=\"%d\">\n    <DataItem Dimensions=\"%d %d\" NumberType=\"Int\" Precision=\"8\" Format=\"HDF\">%s:/mesh/%s/connectivity</DataItem>\n   </Topology>\n", topo[t], (int)w->ncells[t], (int)w->ncells[t], (int)FlxCellTypeNodes[t], w->h5base, FlxCellTypeNames[t]);
      fprintf(fp, "   <Geometry GeometryType=\"XYZ\">\n    <DataItem Dimensions=\"%d 3\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">%s:/mesh/coordinates</DataItem>\n   </Geometry>\n", (int)w->N, w->h5base);
      for (int k = 0; k < (w->nmodes ? 1 : 3); k++)
        for (int part = 0; part < 2; part++) {
          static const char *suffix[2] = {"", "_rotation"};
          const char        *name = w->nmodes ? "mode_shape" : FieldNames[k], *path = w->nmodes ? "modes/shape" : NULL;
          char               dpath[64];
          PetscInt           nrows = w->nmodes ? w->nmodes : w->nframes;
          if (!path) {
            snprintf(dpath, sizeof(dpath), "fields/%s", FieldNames[k]);
            path = dpath;
          }
          fprintf(fp, "   <Attribute Name=\"%s%s\" AttributeType=\"Vector\" Center=\"Node\">\n    <DataItem ItemType=\"HyperSlab\" Dimensions=\"%d 3\" Type=\"HyperSlab\">\n", name, suffix[part], (int)w->N);
          fprintf(fp, "     <DataItem Dimensions=\"3 3\" Format=\"XML\">%d 0 %d 1 1 1 1 %d 3</DataItem>\n", (int)f, 3 * part, (int)w->N);
          fprintf(fp, "     <DataItem Dimensions=\"%d %d 6\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">%s:/%s</DataItem>\n    </DataItem>\n   </Attribute>\n", (int)nrows, (int)w->N, w->h5base, path);
        }
      if (!w->nmodes && w->res[t] >= 0 && f < w->nres_frames)
        for (int k = 0; k < FLX_SHELL_NRESULTANTS; k++) {
          fprintf(fp, "   <Attribute Name=\"%s\" AttributeType=\"Scalar\" Center=\"Cell\">\n    <DataItem ItemType=\"HyperSlab\" Dimensions=\"%d 1\" Type=\"HyperSlab\">\n", FlxShellResultantNames[k], (int)w->ncells[t]);
          fprintf(fp, "     <DataItem Dimensions=\"3 3\" Format=\"XML\">%d 0 %d 1 1 1 1 %d 1</DataItem>\n", (int)f, k, (int)w->ncells[t]);
          fprintf(fp, "     <DataItem Dimensions=\"%d %d %d\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">%s:/fields/shell_resultants/%s</DataItem>\n    </DataItem>\n   </Attribute>\n", (int)w->nres_frames, (int)w->ncells[t], FLX_SHELL_NRESULTANTS, w->h5base, FlxCellTypeNames[t]);
        }
      fprintf(fp, "   <Attribute Name=\"partition\" AttributeType=\"Scalar\" Center=\"Cell\">\n    <DataItem Dimensions=\"%d\" NumberType=\"Int\" Precision=\"8\" Format=\"HDF\">%s:/mesh/%s/partition</DataItem>\n   </Attribute>\n", (int)w->ncells[t], w->h5base, FlxCellTypeNames[t]);
      fprintf(fp, "  </Grid>\n");
    }
    fprintf(fp, " </Grid>\n");
  }
  fprintf(fp, "</Grid>\n</Domain>\n</Xdmf>\n");
  fclose(fp);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterFlush(FlxWriter w)
{
  PetscBool ok;
  char      msg[PETSC_MAX_PATH_LEN + 64];

  PetscFunctionBegin;
  FLX_H5(H5Fflush(w->file, H5F_SCOPE_GLOBAL));
  PetscCall(WriteXdmf(w, &ok));
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "cannot write the XDMF file %s", w->xdmf));
  PetscCall(FlxCheckCollective(w->comm, (PetscBool)!ok, PETSC_ERR_FILE_OPEN, msg));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterDestroy(FlxWriter *wp)
{
  FlxWriter w = *wp;

  PetscFunctionBegin;
  if (!w) PetscFunctionReturn(0);
  PetscCall(FlxWriterFlush(w));
  for (int k = 0; k < 3; k++)
    if (w->fields[k] >= 0) FLX_H5(H5Dclose(w->fields[k]));
  if (w->fields[0] >= 0) FLX_H5(H5Dclose(w->time));
  for (int k = 0; k < 6; k++)
    FLX_H5(H5Dclose(w->energy[k]));
  for (int k = 0; k < FLX_NUM_CELL_TYPES; k++)
    if (w->res[k] >= 0) FLX_H5(H5Dclose(w->res[k]));
  for (PetscInt k = 0; k < w->nextra; k++)
    FLX_H5(H5Dclose(w->extra[k]));
  for (PetscInt k = 0; k < w->nhist; k++)
    FLX_H5(H5Dclose(w->hist[k]));
  if (w->nhist) FLX_H5(H5Dclose(w->htime));
  for (PetscInt p = 0; p < w->nprobe; p++) {
    FLX_H5(H5Dclose(w->probe[p].time));
    for (int k = 0; k < 3; k++)
      FLX_H5(H5Dclose(w->probe[p].val[k]));
  }
  FLX_H5(H5Fclose(w->file));
  PetscCall(PetscFree(w->frame_times));
  PetscCall(PetscFree(w->mode_freq));
  PetscCall(PetscFree(w->buf));
  PetscCall(PetscFree(w));
  *wp = NULL;
  PetscFunctionReturn(0);
}

/* String attribute on an open object. */
static PetscErrorCode StringAttribute(hid_t obj, const char name[], const char value[])
{
  hid_t type, space, attr;

  PetscFunctionBegin;
  FLX_H5ID(type, H5Tcopy(H5T_C_S1));
  FLX_H5(H5Tset_size(type, strlen(value) + 1));
  FLX_H5ID(space, H5Screate(H5S_SCALAR));
  FLX_H5ID(attr, H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT));
  FLX_H5(H5Awrite(attr, type, value));
  FLX_H5(H5Aclose(attr));
  FLX_H5(H5Sclose(space));
  FLX_H5(H5Tclose(type));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterSetProbeNode(FlxWriter w, PetscInt p, PetscInt node)
{
  hid_t     g, space, attr;
  char      path[256];
  long long v = (long long)node;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "/probes/%s", w->probe[p].name));
  FLX_H5ID(g, H5Gopen2(w->file, path, H5P_DEFAULT));
  FLX_H5ID(space, H5Screate(H5S_SCALAR));
  FLX_H5ID(attr, H5Acreate2(g, "node", H5T_NATIVE_LLONG, space, H5P_DEFAULT, H5P_DEFAULT));
  FLX_H5(H5Awrite(attr, H5T_NATIVE_LLONG, &v));
  FLX_H5(H5Aclose(attr));
  FLX_H5(H5Sclose(space));
  FLX_H5(H5Gclose(g));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterWriteFrameNodeField(FlxWriter w, const char name[], Vec xnat)
{
  PetscInt k;
  hsize_t  dims[3] = {0, (hsize_t)w->N, 6};
  char     path[256];

  PetscFunctionBegin;
  if (w->fields[0] < 0) {
    PetscCall(PetscSNPrintf(path, sizeof(path), "/static/%s", name));
    PetscCall(FlxWriterWriteNodeField(w, path, xnat));
    PetscFunctionReturn(0);
  }
  for (k = 0; k < w->nextra; k++)
    if (!strcmp(w->extraname[k], name)) break;
  if (k == w->nextra) {
    PetscCheck(k < 16, w->comm, PETSC_ERR_SUP, "too many extra fields");
    PetscCall(PetscSNPrintf(path, sizeof(path), "/fields/%s", name));
    PetscCall(FlxH5CreateExtendible(w->file, path, H5T_NATIVE_DOUBLE, 3, dims, &w->extra[k]));
    PetscCall(PetscStrncpy(w->extraname[k], name, FLX_NAME_LEN));
    w->nextra++;
  }
  dims[0] = (hsize_t)w->nframes;
  FLX_H5(H5Dset_extent(w->extra[k], dims));
  PetscCall(WriteRows(w, w->extra[k], w->nframes - 1, xnat, 6));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterDefineHistory(FlxWriter w, const char name[], PetscInt ncol, const char colnames[], PetscInt *id)
{
  hsize_t dims[2] = {0, (hsize_t)ncol};
  char    path[256], grp[256], *slash;

  PetscFunctionBegin;
  PetscCheck(w->nhist < 16, w->comm, PETSC_ERR_SUP, "too many history series");
  PetscCall(EnsureGroup(w->file, "/history"));
  if (!w->nhist) PetscCall(FlxH5CreateExtendible(w->file, "/history/time", H5T_NATIVE_DOUBLE, 1, dims, &w->htime));
  PetscCall(PetscSNPrintf(path, sizeof(path), "/history/%s", name));
  PetscCall(PetscStrncpy(grp, path, sizeof(grp)));
  slash = strrchr(grp, '/');
  if (slash && slash != grp + 8) {
    *slash = 0;
    PetscCall(EnsureGroup(w->file, grp));
  }
  PetscCall(FlxH5CreateExtendible(w->file, path, H5T_NATIVE_DOUBLE, 2, dims, &w->hist[w->nhist]));
  PetscCall(StringAttribute(w->hist[w->nhist], "columns", colnames));
  w->hcols[w->nhist] = ncol;
  *id                = w->nhist++;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterAppendHistory(FlxWriter w, PetscInt id, PetscInt n, const PetscReal rows[])
{
  PetscFunctionBegin;
  PetscCall(FlxH5AppendRoot(w->hist[id], H5T_NATIVE_DOUBLE, (hsize_t)n, rows, w->rank));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterAppendHistoryTime(FlxWriter w, PetscInt n, const PetscReal t[])
{
  PetscFunctionBegin;
  if (w->nhist) PetscCall(FlxH5AppendRoot(w->htime, H5T_NATIVE_DOUBLE, (hsize_t)n, t, w->rank));
  PetscFunctionReturn(0);
}
