/* FlxWriter: the HDF5 results file (parallel, collective): creation under a temporary name, /mesh and node groups,
   attributes, node and cell fields of frames, static solutions and modes, flush and close. The series (history,
   energy, probes) live in series.c, the XDMF in xdmf.c. */
#include <flexure/private/writerimpl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

/* Open MPI's I/O layer copies the file name into 256-byte buffers (sharedfp/lockedfile adds ".locktest.RANK"): a longer
   name aborts inside MPI_File_open. Longer paths are opened through their directory's descriptor (/proc/self/fd). */
#define FLX_MPIIO_NAME_MAX 230
#define FLX_NAME_MAX 200 /* the file's name: "/proc/self/fd/N/" + name + ".tmp" stays within FLX_MPIIO_NAME_MAX */

static const char *KinNames[3] = {"displacement", "velocity", "acceleration"};

void FlxWriterSetWhat(FlxWriter w, const char fmt[], ...)
{
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(w->what, sizeof(w->what), fmt, ap);
  va_end(ap);
}

PetscErrorCode FlxWriterGrow(size_t size, PetscInt n, PetscInt *cap, void **a)
{
  void *tmp;

  PetscFunctionBegin;
  if (n < *cap) PetscFunctionReturn(0);
  *cap = 2 * *cap + 8;
  PetscCall(PetscCalloc(size * (size_t)*cap, &tmp));
  if (n) PetscCall(PetscMemcpy(tmp, *a, size * (size_t)n));
  PetscCall(PetscFree(*a));
  *a = tmp;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterStaging(FlxWriter w, PetscInt n, double **buf)
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

PetscErrorCode FlxWriterCheckName(FlxWriter w, const char name[], const char kind[], PetscBool slash_ok)
{
  size_t      len   = strlen(name);
  const char *slash = strchr(name, '/');

  PetscFunctionBegin;
  PetscCheck(len > 0 && len < 256, w->comm, PETSC_ERR_USER_INPUT, "%s name '%s' must have 1 to 255 characters", kind, name);
  PetscCheck(!slash || (slash_ok && slash != name && slash[1] && !strchr(slash + 1, '/')), w->comm, PETSC_ERR_USER_INPUT, "%s name '%s' must not contain '/'%s", kind, name, slash_ok ? " except once between two names" : "");
  PetscCheck(strcmp(name, ".") && strcmp(name, ".."), w->comm, PETSC_ERR_USER_INPUT, "%s name '%s' is not allowed", kind, name);
  PetscFunctionReturn(0);
}

/* Close every open object and the file; returns whether H5Fclose failed. Collective. Rank 0 then trims the space
   reserve, or removes a file that never got its name (set-up failed before its mesh was flushed). */
static int CloseObjects(FlxWriter w)
{
  FlxH5IO *io  = &w->io;
  int      bad = 0;

  for (PetscInt k = 0; k < w->nnf; k++)
    if (w->nf[k].dset >= 0) H5Dclose(w->nf[k].dset), w->nf[k].dset = -1;
  for (PetscInt k = 0; k < w->ncf; k++)
    for (int t = 0; t < FLX_NUM_CELL_TYPES; t++)
      if (w->cf[k].dset[t] >= 0) H5Dclose(w->cf[k].dset[t]), w->cf[k].dset[t] = -1;
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) /* a static cell field cut short by an error */
    if (w->curcf >= 0 && w->sdset[t] >= 0) H5Dclose(w->sdset[t]), w->sdset[t] = -1;
  if (w->time >= 0) H5Dclose(w->time), w->time = -1;
  FlxWriterCloseSeries(w);
  if (io->file >= 0) bad = H5Fclose(io->file) < 0;
  if (bad) FlxH5CloseFailed();
  io->file = -1;
  if (io->rank == 0) {
    if (io->fd >= 0) close(io->fd);
    io->fd = -1;
    if (w->renamed)
      FlxH5TrimReserve(w->h5);
    else
      (void)unlink(w->h5tmp);
  }
  FlxH5Unregister(io);
  return bad;
}

/* The error path (and PetscFinalize for a writer never destroyed): close everything, errors ignored. Collective.
   A writer that had no I/O error (another error ended the run) also gets its last XDMF. */
static PetscErrorCode CloseAll(FlxH5IO *io)
{
  FlxWriter w = (FlxWriter)io;
  PetscBool ok;
  int       err;

  (void)CloseObjects(w);
  if (!io->failed && w->renamed) {
    w->xdmf_cost = 0;
    (void)FlxWriterWriteXdmf(w, &ok, &err);
  }
  return 0;
}

/* The name MPI opens (an alias through the directory's descriptor when the path is too long for Open MPI). */
static PetscErrorCode MPIName(FlxWriter w, char name[], size_t len, int *dirfd)
{
  const char *slash = strrchr(w->h5tmp, '/');
  char        dir[PETSC_MAX_PATH_LEN];
  int         fd = -1, ok;

  PetscFunctionBegin;
  *dirfd = -1;
  PetscCall(PetscStrncpy(name, w->h5tmp, len));
  if (strlen(w->h5tmp) <= FLX_MPIIO_NAME_MAX) PetscFunctionReturn(0);
  PetscCall(PetscStrncpy(dir, w->h5tmp, sizeof(dir)));
  if (slash)
    dir[slash - w->h5tmp > 0 ? slash - w->h5tmp : 1] = 0;
  else
    PetscCall(PetscStrncpy(dir, ".", sizeof(dir)));
  fd = open(dir, O_RDONLY | O_DIRECTORY);
  if (fd >= 0) PetscCall(PetscSNPrintf(name, len, "/proc/self/fd/%d/%s", fd, slash ? slash + 1 : w->h5tmp));
  ok = fd >= 0 && strlen(name) <= FLX_MPIIO_NAME_MAX;
  PetscCall(FlxCheckCollective(w->comm, (PetscBool)!ok, PETSC_ERR_FILE_OPEN, "-output_file: the path is too long for Open MPI's I/O layer and its directory cannot be opened to shorten it: choose a shorter path"));
  *dirfd = fd;
  PetscFunctionReturn(0);
}

static PetscErrorCode SetPaths(FlxWriter w, const char path[])
{
  size_t      len   = strlen(path);
  const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;

  PetscFunctionBegin;
  PetscCheck(len > 0 && len + 8 < sizeof(w->h5), w->comm, PETSC_ERR_USER_INPUT, "-output_file must name a file (at most %d characters)", (int)sizeof(w->h5) - 8);
  PetscCheck(base[0], w->comm, PETSC_ERR_USER_INPUT, "-output_file %s names a directory, not a file", path);
  PetscCheck(strlen(base) <= FLX_NAME_MAX, w->comm, PETSC_ERR_USER_INPUT, "-output_file: the file's name (after the last '/') has %d characters, more than the %d that Open MPI's I/O layer accepts: choose a shorter name", (int)strlen(base), FLX_NAME_MAX);
  /* the XDMF refers to the file as NAME:/dataset and Xdmf3 splits at ':' and '|' */
  PetscCheck(!strpbrk(base, ":|"), w->comm, PETSC_ERR_USER_INPUT, "-output_file %s: the file name must not contain ':' or '|' (the XDMF cannot refer to it)", path);
  PetscCall(PetscStrncpy(w->h5, path, sizeof(w->h5)));
  PetscCall(PetscSNPrintf(w->h5tmp, sizeof(w->h5tmp), "%s.tmp", path));
  PetscCall(PetscStrncpy(w->xdmf, path, sizeof(w->xdmf)));
  if (len > 3 && !strcmp(path + len - 3, ".h5")) w->xdmf[len - 3] = 0;
  PetscCall(PetscStrlcat(w->xdmf, ".xdmf", sizeof(w->xdmf)));
  PetscCall(PetscStrncpy(w->h5base, base, sizeof(w->h5base)));
  PetscCall(PetscStrncpy(w->io.path, path, sizeof(w->io.path)));
  PetscFunctionReturn(0);
}

/* Rank 0: create the directories of the path (mkdir -p); failures show up when the file is created. */
static void MakeDirs(const char path[])
{
  char dir[PETSC_MAX_PATH_LEN];

  snprintf(dir, sizeof(dir), "%s", path);
  for (char *p = dir + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      (void)mkdir(dir, 0777);
      *p = '/';
    }
}

static PetscErrorCode OpenFile(FlxWriter w)
{
  char  name[PETSC_MAX_PATH_LEN], msg[PETSC_MAX_PATH_LEN + 256];
  hid_t fapl;
  int   dirfd, err = 0, ok;

  PetscFunctionBegin;
  if (w->rank == 0) {
    struct stat st;
    MakeDirs(w->h5);
    err = !stat(w->h5, &st) && !S_ISREG(st.st_mode); /* a directory, a device (/dev/null): never replaced */
  }
  PetscCallMPI(MPI_Bcast(&err, 1, MPI_INT, 0, w->comm));
  PetscCheck(!err, w->comm, PETSC_ERR_USER_INPUT, "-output_file %s exists and is not a regular file", w->h5);
  PetscCall(MPIName(w, name, sizeof(name), &dirfd));
  FlxH5Init();
  PetscCall(FlxH5PreCheck(&w->io, w->h5tmp)); /* a full disk at start, before HDF5 touches the file */
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  FLX_H5LID(&w->io, fapl, H5Pcreate(H5P_FILE_ACCESS));
  FLX_H5L(&w->io, H5Pset_fapl_mpio(fapl, w->comm, MPI_INFO_NULL));
  errno      = 0;
  w->io.file = H5Fcreate(name, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  err        = errno;
  H5Pclose(fapl);
  if (dirfd >= 0) close(dirfd);
  ok = w->io.file >= 0;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, w->comm));
  if (!ok) {
    if (w->io.file >= 0) H5Fclose(w->io.file);
    w->io.file = -1;
    if (w->rank == 0) (void)unlink(w->h5tmp);
    PetscCallMPI(MPI_Bcast(&err, 1, MPI_INT, 0, w->comm));
    if (err == ENOSPC)
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "cannot create the results file %s (-output_file): no space left on device", w->h5));
    else
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "cannot create the results file %s (-output_file)%s%s: does its directory exist and is it writable?", w->h5, err ? ": " : "", err ? strerror(err) : ""));
    SETERRQ(w->comm, err == ENOSPC ? PETSC_ERR_FILE_WRITE : PETSC_ERR_FILE_OPEN, "%s", msg);
  }
  if (w->rank == 0) w->io.fd = open(w->h5tmp, O_RDWR);
  PetscCall(FlxH5Register(&w->io));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterCreate(MPI_Comm comm, const char path[], FlxWriter *wout)
{
  FlxWriter w;

  PetscFunctionBegin;
  *wout = NULL;
  PetscCall(PetscNew(&w));
  w->comm = comm;
  PetscCallMPI(MPI_Comm_rank(comm, &w->rank));
  PetscCallMPI(MPI_Comm_size(comm, &w->size));
  w->io.comm      = comm;
  w->io.rank      = w->rank;
  w->io.file      = -1;
  w->io.fd        = -1;
  w->io.fallocate = PETSC_TRUE;
  w->io.abort     = CloseAll;
  w->io.what      = w->what;
  w->time = w->htime = -1;
  w->curcf           = -1;
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++)
    w->sdset[t] = -1;
  for (int k = 0; k < 6; k++)
    w->energy[k] = -1;
  w->xdmf_cost = 0;
  {
    PetscErrorCode ierr = SetPaths(w, path);
    if (!ierr) ierr = OpenFile(w);
    if (ierr) PetscCall(PetscFree(w));
    PetscCall(ierr);
  }
  *wout = w;
  FlxWriterSetWhat(w, "the file's groups");
  PetscCall(FlxWriterCreateSeries(w));
  PetscFunctionReturn(0);
}

/* Write the rows (width values each, memory type mtype) held by this rank, rows lo..lo+cnt-1, into dset (2D, or
   row 'row' of a 3D one). */
static PetscErrorCode WriteRowsRaw(FlxWriter w, hid_t dset, PetscInt row, PetscInt lo, PetscInt cnt, PetscInt width, hid_t mtype, const void *data)
{
  PetscFunctionBegin;
  PetscCall(FlxWriterWriteRowsStrided(w, dset, row, lo, cnt, width, width, mtype, data));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterWriteRowsStrided(FlxWriter w, hid_t dset, PetscInt row, PetscInt lo, PetscInt cnt, PetscInt width, PetscInt mwidth, hid_t mtype, const void *data)
{
  hid_t   fspace, mspace, xfer;
  hsize_t start[3], count[3], mdims[3], mstart[3] = {0, 0, 0};
  int     r = row < 0 ? 2 : 3, o = row < 0 ? 0 : 1;

  PetscFunctionBegin;
  FLX_H5LID(&w->io, fspace, H5Dget_space(dset));
  if (row >= 0) {
    start[0] = (hsize_t)row;
    count[0] = 1;
  }
  start[o]     = (hsize_t)lo;
  count[o]     = (hsize_t)cnt;
  start[o + 1] = 0;
  count[o + 1] = (hsize_t)width;
  FLX_H5L(&w->io, H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL));
  for (int k = 0; k < r; k++)
    mdims[k] = count[k];
  mdims[r - 1] = (hsize_t)mwidth;
  FLX_H5LID(&w->io, mspace, H5Screate_simple(r, mdims, NULL));
  if (mwidth != width) FLX_H5L(&w->io, H5Sselect_hyperslab(mspace, H5S_SELECT_SET, mstart, NULL, count, NULL));
  FLX_H5LID(&w->io, xfer, H5Pcreate(H5P_DATASET_XFER));
  FLX_H5L(&w->io, H5Pset_dxpl_mpio(xfer, H5FD_MPIO_COLLECTIVE));
  FLX_H5(&w->io, H5Dwrite(dset, mtype, mspace, fspace, xfer, data));
  FLX_H5L(&w->io, H5Pclose(xfer));
  FLX_H5L(&w->io, H5Sclose(mspace));
  FLX_H5L(&w->io, H5Sclose(fspace));
  PetscFunctionReturn(0);
}

/* Write the rows of x (width values each, distributed in contiguous ranges) into dset (2D, or row of a 3D one). */
static PetscErrorCode WriteRows(FlxWriter w, hid_t dset, PetscInt row, Vec x, PetscInt width)
{
  PetscInt           lo, hi;
  const PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(VecGetOwnershipRange(x, &lo, &hi));
  PetscCheck(lo % width == 0 && hi % width == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "vector layout [%" PetscInt_FMT ", %" PetscInt_FMT ") is not in whole rows of %" PetscInt_FMT, lo, hi, width);
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(WriteRowsRaw(w, dset, row, lo / width, (hi - lo) / width, width, H5T_NATIVE_DOUBLE, a));
  PetscCall(VecRestoreArrayRead(x, &a));
  PetscFunctionReturn(0);
}

/* /mesh/node_groups: N x G, 1 where node n belongs to group g (the node sets that BCs and loads use). */
static PetscErrorCode WriteNodeGroups(FlxWriter w, FlxMesh mesh)
{
  PetscInt           G, nloc, lo, hi, n;
  const PetscInt    *nat, *nodes;
  Vec                mem;
  const PetscScalar *a;
  unsigned char     *u;
  hid_t              dset;
  hsize_t            dims[2];
  char               names[8192] = "";

  PetscFunctionBegin;
  PetscCall(FlxMeshGetNumGroups(mesh, &G));
  w->ngroups = G;
  if (!G || !w->N) PetscFunctionReturn(0);
  PetscCall(PetscMalloc1(G, &w->gname));
  for (PetscInt g = 0; g < G; g++) {
    const char *name;
    PetscCall(FlxMeshGetGroup(mesh, g, &name, NULL));
    PetscCall(PetscStrallocpy(name, &w->gname[g]));
    PetscCall(PetscStrlcat(names, g ? "," : "", sizeof(names)));
    PetscCall(PetscStrlcat(names, name, sizeof(names)));
  }
  nloc = w->N / w->size + (w->rank < w->N % w->size);
  PetscCall(VecCreateMPI(w->comm, nloc * G, PETSC_DETERMINE, &mem));
  PetscCall(FlxMeshGetNaturalIds(mesh, &nat));
  for (PetscInt g = 0; g < G; g++) {
    PetscCall(FlxMeshGetGroupNodes(mesh, g, &n, &nodes));
    for (PetscInt i = 0; i < n; i++)
      PetscCall(VecSetValue(mem, nat[nodes[i]] * G + g, 1.0, INSERT_VALUES));
  }
  PetscCall(VecAssemblyBegin(mem));
  PetscCall(VecAssemblyEnd(mem));
  PetscCall(VecGetOwnershipRange(mem, &lo, &hi));
  PetscCall(VecGetArrayRead(mem, &a));
  PetscCall(PetscMalloc1(hi - lo + 1, &u));
  for (PetscInt i = 0; i < hi - lo; i++)
    u[i] = a[i] != 0.0;
  PetscCall(VecRestoreArrayRead(mem, &a));
  dims[0] = (hsize_t)w->N;
  dims[1] = (hsize_t)G;
  PetscCall(FlxH5CreateDataset(&w->io, w->io.file, "/mesh/node_groups", H5T_NATIVE_UCHAR, 2, dims, &dset));
  PetscCall(WriteRowsRaw(w, dset, -1, lo / G, (hi - lo) / G, G, H5T_NATIVE_UCHAR, u));
  PetscCall(FlxH5WriteStringAttribute(&w->io, dset, "groups", names));
  FLX_H5L(&w->io, H5Dclose(dset));
  PetscCall(PetscFree(u));
  PetscCall(VecDestroy(&mem));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterWriteMesh(FlxWriter w, FlxMesh mesh)
{
  double   bytes;
  PetscInt G;

  PetscFunctionBegin;
  PetscCheck(!w->io.failed, w->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", w->h5);
  PetscCall(FlxMeshGetNodeLayout(mesh, &w->N, NULL));
  PetscCall(FlxMeshGetNumGroups(mesh, &G));
  bytes = (double)w->N * (24.0 + G);
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
    PetscCall(FlxMeshGetNumCellsOfType(mesh, (FlxCellType)t, &w->ncells[t]));
    bytes += (double)w->ncells[t] * (8.0 * FlxCellTypeNodes[t] + 32.0);
  }
  FlxWriterSetWhat(w, "the mesh");
  PetscCall(FlxH5Reserve(&w->io, bytes)); /* the mesh's datasets, written by the mesh itself */
  PetscCall(FlxMeshWriteHDF5(mesh, (long long)w->io.file));
  PetscCall(WriteNodeGroups(w, mesh));
  w->mesh_written = PETSC_TRUE;
  PetscCall(FlxWriterFlush(w));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterSetAttribute(FlxWriter w, const char name[], const char value[])
{
  PetscFunctionBegin;
  PetscCheck(!w->io.failed, w->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", w->h5);
  FlxWriterSetWhat(w, "the attribute %s", name);
  PetscCall(FlxH5WriteStringAttribute(&w->io, w->io.file, name, value));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterSetAttributeReal(FlxWriter w, const char name[], PetscReal value)
{
  hid_t  space, attr;
  double v = (double)value;

  PetscFunctionBegin;
  PetscCheck(!w->io.failed, w->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", w->h5);
  FlxWriterSetWhat(w, "the attribute %s", name);
  PetscCall(FlxH5Reserve(&w->io, 4096));
  FLX_H5LID(&w->io, space, H5Screate(H5S_SCALAR));
  if (H5Aexists(w->io.file, name) > 0) FLX_H5(&w->io, H5Adelete(w->io.file, name));
  FLX_H5ID(&w->io, attr, H5Acreate2(w->io.file, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT));
  FLX_H5(&w->io, H5Awrite(attr, H5T_NATIVE_DOUBLE, &v));
  FLX_H5L(&w->io, H5Aclose(attr));
  FLX_H5L(&w->io, H5Sclose(space));
  PetscFunctionReturn(0);
}

/* Register a node field (path below the root) with its XDMF labels; *k is its index. */
static PetscErrorCode AddNodeField(FlxWriter w, const char path[], const char label[], PetscInt *k)
{
  NodeField  *f;
  char        l2[300];
  const char *second = "rotation";

  PetscFunctionBegin;
  PetscCall(FlxWriterGrow(sizeof(NodeField), w->nnf, &w->capnf, (void **)&w->nf));
  *k = w->nnf++;
  f  = &w->nf[*k];
  if (strstr(label, "reaction") || strstr(label, "force")) second = "moment";
  PetscCall(PetscSNPrintf(l2, sizeof(l2), "%s_%s", label, second));
  PetscCall(PetscStrallocpy(path, &f->name));
  PetscCall(PetscStrallocpy(label, &f->label));
  PetscCall(PetscStrallocpy(l2, &f->label2));
  f->dset = -1;
  PetscFunctionReturn(0);
}

static PetscInt FindNodeField(FlxWriter w, const char path[])
{
  for (PetscInt k = 0; k < w->nnf; k++)
    if (!strcmp(w->nf[k].name, path)) return k;
  return -1;
}

/* Write xnat as row nframes-1 of the transient node field /fields/name (created on first use). */
static PetscErrorCode FrameNodeField(FlxWriter w, const char name[], Vec xnat)
{
  char       path[300];
  PetscInt   k;
  hsize_t    dims[3] = {0, (hsize_t)w->N, 6};
  NodeField *f;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "fields/%s", name));
  k = FindNodeField(w, path);
  if (k < 0) {
    PetscCall(AddNodeField(w, path, name, &k));
    PetscCall(FlxH5CreateExtendible(&w->io, w->io.file, path, H5T_NATIVE_DOUBLE, 3, dims, &w->nf[k].dset));
    w->nf[k].first = w->nframes - 1;
  }
  f       = &w->nf[k];
  dims[0] = (hsize_t)w->nframes;
  PetscCall(FlxH5SetExtent(&w->io, f->dset, dims));
  PetscCall(WriteRows(w, f->dset, w->nframes - 1, xnat, 6));
  f->nrows = w->nframes;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterWriteFields(FlxWriter w, PetscReal t, Vec x, Vec v, Vec a)
{
  Vec    vecs[3] = {x, v, a};
  double tt      = (double)t;

  PetscFunctionBegin;
  PetscCheck(!w->io.failed, w->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", w->h5);
  if (w->dirty) PetscCall(FlxWriterFlush(w)); /* the previous frame, if its writer did not flush it */
  FlxWriterSetWhat(w, "frame %" PetscInt_FMT " (t = %g s)", w->nframes, (double)t);
  if (w->time < 0) {
    hsize_t dims[1] = {0};
    PetscCall(FlxH5EnsureGroup(&w->io, "/fields"));
    PetscCall(FlxH5CreateExtendible(&w->io, w->io.file, "/time", H5T_NATIVE_DOUBLE, 1, dims, &w->time));
  }
  if (w->nframes == w->frame_cap) {
    PetscReal *tmp;
    w->frame_cap = 2 * w->frame_cap + 64;
    PetscCall(PetscMalloc1(w->frame_cap, &tmp));
    if (w->nframes) PetscCall(PetscArraycpy(tmp, w->frame_times, w->nframes));
    PetscCall(PetscFree(w->frame_times));
    w->frame_times = tmp;
  }
  w->frame_times[w->nframes++] = t;
  for (int k = 0; k < 3; k++)
    PetscCall(FrameNodeField(w, KinNames[k], vecs[k]));
  PetscCall(FlxH5AppendRoot(&w->io, w->time, H5T_NATIVE_DOUBLE, 1, &tt));
  w->dirty = PETSC_TRUE; /* flushed by FlxWriterFlush, the next frame or the end */
  PetscFunctionReturn(0);
}

/* Write a static node field /static/name (N x 6) and register it for the XDMF. */
static PetscErrorCode StaticNodeField(FlxWriter w, const char path[], const char label[], Vec x)
{
  hid_t    dset;
  hsize_t  dims[2] = {(hsize_t)w->N, 6};
  PetscInt k;

  PetscFunctionBegin;
  PetscCall(FlxH5CreateDataset(&w->io, w->io.file, path, H5T_NATIVE_DOUBLE, 2, dims, &dset));
  PetscCall(WriteRows(w, dset, -1, x, 6));
  FLX_H5L(&w->io, H5Dclose(dset));
  if (!strncmp(path, "/static/", 8) && FindNodeField(w, path + 1) < 0) PetscCall(AddNodeField(w, path + 1, label, &k));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterWriteFrameNodeField(FlxWriter w, const char name[], Vec xnat)
{
  PetscFunctionBegin;
  PetscCheck(!w->io.failed, w->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", w->h5);
  PetscCall(FlxWriterCheckName(w, name, "node field", PETSC_FALSE));
  FlxWriterSetWhat(w, "the node field %s", name);
  if (w->nframes)
    PetscCall(FrameNodeField(w, name, xnat));
  else {
    char path[300];
    PetscCall(PetscSNPrintf(path, sizeof(path), "/static/%s", name));
    PetscCall(FlxH5EnsureGroup(&w->io, "/static"));
    PetscCall(StaticNodeField(w, path, name, xnat));
  }
  w->dirty = PETSC_TRUE; /* flushed by FlxWriterFlush, the next frame or the end */
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterWriteNodeField(FlxWriter w, const char name[], Vec x)
{
  char        grp[PETSC_MAX_PATH_LEN], *slash;
  const char *label = strrchr(name, '/');

  PetscFunctionBegin;
  PetscCheck(!w->io.failed, w->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", w->h5);
  FlxWriterSetWhat(w, "%s", name);
  PetscCall(PetscStrncpy(grp, name, sizeof(grp)));
  slash = strrchr(grp, '/');
  if (slash && slash != grp) {
    *slash = 0;
    PetscCall(FlxH5EnsureGroup(&w->io, grp));
  }
  PetscCall(StaticNodeField(w, name, label ? label + 1 : name, x));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterWritePath(FlxWriter w, PetscInt n, const PetscReal lambda[], Vec x[])
{
  hid_t   dset;
  hsize_t dims[3] = {(hsize_t)n, (hsize_t)w->N, 6}, nd = (hsize_t)n;
  double *f;

  PetscFunctionBegin;
  PetscCheck(!w->io.failed, w->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", w->h5);
  FlxWriterSetWhat(w, "the static path");
  PetscCall(FlxH5EnsureGroup(&w->io, "/static"));
  PetscCall(FlxH5EnsureGroup(&w->io, "/static/path"));
  PetscCall(PetscMalloc1(n + 1, &f));
  for (PetscInt i = 0; i < n; i++)
    f[i] = (double)lambda[i];
  PetscCall(FlxH5WriteRoot(&w->io, w->io.file, "/static/path/load_factor", H5T_NATIVE_DOUBLE, 1, &nd, f));
  PetscCall(PetscFree(f));
  PetscCall(FlxH5CreateDataset(&w->io, w->io.file, "/static/path/displacement", H5T_NATIVE_DOUBLE, 3, dims, &dset));
  for (PetscInt i = 0; i < n; i++)
    PetscCall(WriteRows(w, dset, i, x[i], 6));
  FLX_H5L(&w->io, H5Dclose(dset));
  PetscCall(FlxWriterFlush(w));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterWriteModes(FlxWriter w, PetscInt n, const PetscReal freq[], const PetscBool rigid[], PetscReal omega_max, Vec shapes[])
{
  hid_t    dset;
  hsize_t  dims[3] = {(hsize_t)n, (hsize_t)w->N, 6}, one = 1, nd = (hsize_t)n;
  double  *f, om = (double)omega_max;
  int     *r;
  PetscInt k;

  PetscFunctionBegin;
  PetscCheck(!w->io.failed, w->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", w->h5);
  FlxWriterSetWhat(w, "the modes");
  PetscCall(FlxH5EnsureGroup(&w->io, "/modes"));
  PetscCall(PetscMalloc2(n + 1, &f, n + 1, &r));
  for (PetscInt i = 0; i < n; i++) {
    f[i] = (double)freq[i];
    r[i] = rigid[i] ? 1 : 0;
  }
  PetscCall(FlxH5WriteRoot(&w->io, w->io.file, "/modes/frequency", H5T_NATIVE_DOUBLE, 1, &nd, f));
  PetscCall(FlxH5WriteRoot(&w->io, w->io.file, "/modes/rigid_body", H5T_NATIVE_INT, 1, &nd, r));
  PetscCall(FlxH5WriteRoot(&w->io, w->io.file, "/modes/omega_max", H5T_NATIVE_DOUBLE, 1, &one, &om));
  PetscCall(PetscFree2(f, r));
  PetscCall(FlxH5CreateDataset(&w->io, w->io.file, "/modes/shape", H5T_NATIVE_DOUBLE, 3, dims, &dset));
  for (PetscInt i = 0; i < n; i++)
    PetscCall(WriteRows(w, dset, i, shapes[i], 6));
  FLX_H5L(&w->io, H5Dclose(dset));
  PetscCall(PetscFree(w->mode_freq));
  PetscCall(PetscMalloc1(n + 1, &w->mode_freq));
  for (PetscInt i = 0; i < n; i++)
    w->mode_freq[i] = freq[i];
  w->nmodes = n;
  PetscCall(AddNodeField(w, "modes/shape", "mode_shape", &k));
  w->nf[k].nrows = n;
  PetscCall(FlxWriterFlush(w));
  PetscFunctionReturn(0);
}

/* Rank 0: give the file its name once its mesh is flushed. */
static PetscErrorCode Rename(FlxWriter w)
{
  int  err = 0;
  char msg[2 * PETSC_MAX_PATH_LEN];

  PetscFunctionBegin;
  if (w->renamed || !w->mesh_written) PetscFunctionReturn(0);
  if (w->rank == 0 && rename(w->h5tmp, w->h5)) err = errno;
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "cannot rename %s to %s: %s", w->h5tmp, w->h5, strerror(err)));
  PetscCall(FlxH5Fail(&w->io, (PetscBool)(err != 0), msg));
  w->renamed = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterFlush(FlxWriter w)
{
  PetscBool ok;
  int       err = 0;
  char      msg[PETSC_MAX_PATH_LEN + 128];

  PetscFunctionBegin;
  PetscCheck(!w->io.failed, w->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", w->h5);
  w->dirty = PETSC_FALSE;
  FLX_H5(&w->io, H5Fflush(w->io.file, H5F_SCOPE_GLOBAL));
  PetscCall(FlxH5Resync(&w->io));
  if (!w->renamed && w->mesh_written) w->xdmf_cost = 0; /* the XDMF exists before the file gets its name */
  PetscCall(FlxWriterWriteXdmf(w, &ok, &err));
  if (err == ENOSPC)
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "cannot write the XDMF file %s: no space left on device", w->xdmf));
  else
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "cannot write the XDMF file %s: %s", w->xdmf, strerror(err)));
  PetscCall(FlxH5Fail(&w->io, (PetscBool)!ok, msg));
  PetscCall(Rename(w));
  PetscFunctionReturn(0);
}

static PetscErrorCode FreeAll(FlxWriter w)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < w->nnf; k++) {
    PetscCall(PetscFree(w->nf[k].name));
    PetscCall(PetscFree(w->nf[k].label));
    PetscCall(PetscFree(w->nf[k].label2));
  }
  for (PetscInt k = 0; k < w->ncf; k++) {
    for (PetscInt c = 0; c < w->cf[k].ncomp; c++)
      PetscCall(PetscFree(w->cf[k].comp[c]));
    PetscCall(PetscFree(w->cf[k].comp));
    PetscCall(PetscFree(w->cf[k].comps));
    PetscCall(PetscFree(w->cf[k].name));
  }
  for (PetscInt g = 0; g < w->ngroups && w->gname; g++)
    PetscCall(PetscFree(w->gname[g]));
  PetscCall(PetscFree(w->gname));
  PetscCall(PetscFree(w->nf));
  PetscCall(PetscFree(w->cf));
  PetscCall(FlxWriterFreeSeries(w));
  PetscCall(PetscFree(w->frame_times));
  PetscCall(PetscFree(w->mode_freq));
  PetscCall(PetscFree(w->buf));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxWriterDestroy(FlxWriter *wp)
{
  FlxWriter      w    = *wp;
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  if (!w) PetscFunctionReturn(0);
  *wp = NULL;
  if (!w->io.failed && w->io.file >= 0) {
    FlxWriterSetWhat(w, "the end of the file");
    w->xdmf_cost = 0;                 /* the last XDMF is always written */
    ierr         = FlxWriterFlush(w); /* on failure the file is closed and the error raised on every rank */
    if (!ierr) {
      int bad = CloseObjects(w);
      if (MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, w->comm)) bad = 1;
      if (bad) ierr = PetscError(w->comm, __LINE__, PETSC_FUNCTION_NAME, __FILE__, PETSC_ERR_FILE_WRITE, PETSC_ERROR_INITIAL, "cannot close the results file %s: %s", w->h5, FlxH5DiskFull(w->h5) ? "no space left on device" : "HDF5 could not write its last metadata");
    }
  } else if (w->io.file >= 0)
    (void)CloseObjects(w);
  FlxH5Unregister(&w->io);
  PetscCall(FreeAll(w));
  PetscCall(PetscFree(w));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}
