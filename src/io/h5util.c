/* HDF5 helpers of the results file: collective error decisions, space reservation, collective writes where rank 0
   holds the data, and the registry of open files closed before MPI ends. */
#define _GNU_SOURCE
#include <flexure/private/h5util.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

static void Publish(FlxH5IO *);

typedef struct {
  char inner[256]; /* innermost description on the HDF5 error stack */
  int  nospace, quota;
} StackInfo;

static herr_t WalkStack(unsigned n, const H5E_error2_t *e, void *ctx)
{
  StackInfo *s = (StackInfo *)ctx;

  (void)n;
  if (e->desc && e->desc[0]) {
    snprintf(s->inner, sizeof(s->inner), "%s", e->desc);
    if (strstr(e->desc, "No space left") || strstr(e->desc, "errno = 28") || strstr(e->desc, "NO_SPACE")) s->nospace = 1;
    if (strstr(e->desc, "quota") || strstr(e->desc, "QUOTA")) s->quota = 1;
  }
  return 0;
}

/* Whether the file system holding path is full (under 64 KiB left for the user). */
PetscBool FlxH5DiskFull(const char path[])
{
  char           dir[PETSC_MAX_PATH_LEN];
  struct statvfs sv;

  snprintf(dir, sizeof(dir), "%s", path);
  if (statvfs(dirname(dir), &sv)) return PETSC_FALSE;
  return (PetscBool)((double)sv.f_bavail * (double)sv.f_frsize < 65536.0);
}

/* Why the last HDF5 call failed on this rank, as a message naming the file. */
static void Reason(FlxH5IO *io, int err, const char call[], char msg[], size_t len)
{
  StackInfo s;
  char      what[160] = "";

  memset(&s, 0, sizeof(s));
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, WalkStack, &s);
  H5Eclear2(H5E_DEFAULT);
  if (io->what && io->what[0]) snprintf(what, sizeof(what), " (writing %s)", io->what);
  if (err == ENOSPC || s.nospace || FlxH5DiskFull(io->path))
    snprintf(msg, len, "cannot write the results file %.700s%s: no space left on device", io->path, what);
  else if (err == EDQUOT || s.quota)
    snprintf(msg, len, "cannot write the results file %.700s%s: disk quota exceeded", io->path, what);
  else
    snprintf(msg, len, "cannot write the results file %.700s%s: HDF5 call %s failed%s%s", io->path, what, call, s.inner[0] ? ": " : "", s.inner);
}

PetscErrorCode FlxH5Fail(FlxH5IO *io, PetscBool failed, const char msg[])
{
  int mine = failed ? 1 : 0, any;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, io->comm));
  if (!any) PetscFunctionReturn(0);
  if (!io->failed) {
    io->failed = PETSC_TRUE;
    if (io->abort) (void)io->abort(io); /* collective; errors ignored: the first one is what the user needs */
  }
  PetscCall(FlxCheckCollective(io->comm, failed, PETSC_ERR_FILE_WRITE, msg));
  PetscFunctionReturn(0);
}

void FlxH5Local(FlxH5IO *io, const char call[])
{
  if (!io->pending[0]) Reason(io, errno, call, io->pending, sizeof(io->pending));
}

/* Test hook: FLX_TEST_H5_FAIL=RANK:N makes the N-th collective check on rank RANK report a failure, so the tests can
   show that an HDF5 error on any one rank stops every rank (no hang) with the file closed and readable. */
static PetscBool Injected(FlxH5IO *io)
{
  static int  parsed = 0, frank = -1;
  static long fcount = -1, count = 0;

  if (!parsed) {
    const char *e = getenv("FLX_TEST_H5_FAIL");
    parsed        = 1;
    if (e && sscanf(e, "%d:%ld", &frank, &fcount) != 2) frank = -1;
  }
  return (PetscBool)(frank == io->rank && ++count == fcount);
}

PetscErrorCode FlxH5Check(FlxH5IO *io, PetscBool failed, const char call[])
{
  int  err       = errno, mine, any;
  char msg[1024] = "";

  PetscFunctionBegin;
  if (Injected(io) && !failed && !io->pending[0]) snprintf(io->pending, sizeof(io->pending), "cannot write the results file %.700s (writing %.150s): HDF5 call %s failed: injected by FLX_TEST_H5_FAIL", io->path, io->what ? io->what : "", call);
  mine = failed || io->pending[0];
  PetscCallMPI(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, io->comm));
  if (!any) {
    Publish(io);
    PetscFunctionReturn(0);
  }
  if (io->pending[0])
    PetscCall(PetscStrncpy(msg, io->pending, sizeof(msg)));
  else if (failed)
    Reason(io, err, call, msg, sizeof(msg));
  PetscCall(FlxH5Fail(io, (PetscBool)mine, msg));
  PetscFunctionReturn(0);
}

/* Rank 0: write into the superblock on disk an end-of-file address at least the file's size and HDF5's end of
   allocation, the file extended to it first. HDF5 flushes its metadata before the superblock that covers it, so a
   run killed between the two would leave metadata pointing past the recorded end ("addr overflow"); with the
   recorded end kept at the reserved size, every address HDF5 allocated before the next reservation lies below it
   and within the file, at every instant. Superblocks of versions 0 and 1 (the default format, no checksum) only. */
static void Publish(FlxH5IO *io)
{
  static const unsigned char sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  unsigned char              head[64], val[8];
  struct stat                st;
  unsigned long long         stored = 0, target;

  if (io->rank != 0 || io->fd < 0 || io->file < 0 || io->failed || io->sboff < 0) return;
  if (pread(io->fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) || memcmp(head, sig, 8)) return; /* not flushed yet */
  if (!io->sboff) io->sboff = head[8] == 0 && head[13] == 8 ? 40 : head[8] == 1 && head[13] == 8 ? 44
                                                                                                 : -1;
  if (io->sboff < 0 || fstat(io->fd, &st)) return;
  for (int i = 7; i >= 0; i--)
    stored = stored << 8 | head[io->sboff + i];
  target = PetscMax(stored, (unsigned long long)st.st_size); /* what HDF5 last recorded, or more */
  target = PetscMax(target, (unsigned long long)io->reserved);
  if ((unsigned long long)st.st_size < target && ftruncate(io->fd, (off_t)target)) return;
  if (target == stored) return;
  for (int i = 0; i < 8; i++)
    val[i] = (unsigned char)(target >> (8 * i) & 0xff);
  if (pwrite(io->fd, val, sizeof(val), io->sboff) == (ssize_t)sizeof(val)) io->published = target;
}

/* Rank 0: HDF5's end of allocation as its superblock on disk records it, when HDF5 wrote it after our last Publish
   (it does so at a flush that moved it); -1 otherwise. */
static double Recorded(FlxH5IO *io)
{
  unsigned char      b[8];
  unsigned long long stored = 0;

  if (io->rank != 0 || io->fd < 0 || io->sboff <= 0 || pread(io->fd, b, 8, io->sboff) != 8) return -1;
  for (int i = 7; i >= 0; i--)
    stored = stored << 8 | b[i];
  return stored == io->published ? -1 : (double)stored;
}

/* Space kept free beyond the estimate of HDF5's end of allocation (metadata HDF5 allocates that no helper counted). */
#define FLX_H5_MARGIN 262144.0

PetscErrorCode FlxH5Reserve(FlxH5IO *io, double bytes)
{
  int    err = 0;
  double target;
  char   msg[1024] = "", what[160] = "";

  PetscFunctionBegin;
  PetscCheck(!io->failed, io->comm, PETSC_ERR_FILE_WRITE, "the results file %s was closed after an earlier error", io->path);
  io->eoa += bytes; /* every rank counts the same: the decision below is the same everywhere */
  if (io->eoa + FLX_H5_MARGIN <= io->reserved) PetscFunctionReturn(0);
  target = io->eoa + 2 * FLX_H5_MARGIN; /* reserve ahead, so most calls need no communication */
  if (io->rank == 0 && io->fd >= 0) {
    struct stat st;
    if (!fstat(io->fd, &st) && (double)st.st_size < target) {
      if (io->fallocate && fallocate(io->fd, 0, st.st_size, (off_t)target - st.st_size)) {
        if (errno == EOPNOTSUPP || errno == ENOSYS)
          io->fallocate = PETSC_FALSE;
        else
          err = errno;
      }
      if (!io->fallocate && !err && ftruncate(io->fd, (off_t)target)) err = errno; /* no blocks: at least the size */
    }
    if (!err) Publish(io);
  }
  PetscCallMPI(MPI_Bcast(&err, 1, MPI_INT, 0, io->comm));
  io->reserved = target;
  if (err) {
    if (io->what && io->what[0]) snprintf(what, sizeof(what), " (writing %s)", io->what);
    if (err == ENOSPC)
      snprintf(msg, sizeof(msg), "cannot write the results file %.700s%s: no space left on device", io->path, what);
    else if (err == EDQUOT)
      snprintf(msg, sizeof(msg), "cannot write the results file %.700s%s: disk quota exceeded", io->path, what);
    else
      snprintf(msg, sizeof(msg), "cannot write the results file %.700s%s: %s", io->path, what, strerror(err));
    PetscCall(FlxH5Fail(io, (PetscBool)(io->rank == 0), msg));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxH5Resync(FlxH5IO *io)
{
  double v[2] = {-1, -1};

  PetscFunctionBegin;
  if (io->rank == 0 && io->fd >= 0) {
    struct stat st;
    if (!fstat(io->fd, &st)) v[0] = (double)st.st_size;
    v[1] = Recorded(io);
  }
  PetscCallMPI(MPI_Bcast(v, 2, MPI_DOUBLE, 0, io->comm));
  if (v[0] >= 0) { /* HDF5 sets the size to its end of allocation when that moved: a bound of it, exact then */
    io->reserved = v[0];
    io->eoa      = PetscMin(io->eoa, v[0]);
  }
  if (v[1] >= 0) io->eoa = v[1]; /* exact: the superblock HDF5 wrote at this flush */
  Publish(io);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxH5PreCheck(FlxH5IO *io, const char tmp[])
{
  int  err = 0;
  char msg[1024];

  PetscFunctionBegin;
  if (io->rank == 0) {
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0)
      err = errno;
    else {
      if (fallocate(fd, 0, 0, (off_t)(2 * FLX_H5_MARGIN)) && errno != EOPNOTSUPP && errno != ENOSYS) err = errno;
      close(fd);
      if (err) (void)unlink(tmp);
    }
  }
  PetscCallMPI(MPI_Bcast(&err, 1, MPI_INT, 0, io->comm));
  if (!err) PetscFunctionReturn(0);
  snprintf(msg, sizeof(msg), "cannot create the results file %.700s (-output_file): %s", io->path, err == ENOSPC ? "no space left on device" : err == EDQUOT ? "disk quota exceeded"
                                                                                                                                                             : strerror(err));
  SETERRQ(io->comm, err == ENOSPC || err == EDQUOT ? PETSC_ERR_FILE_WRITE : PETSC_ERR_FILE_OPEN, "%s%s", msg, err == ENOSPC || err == EDQUOT ? "" : ": does its directory exist and is it writable?");
}

static PetscBool closeFailed_ = PETSC_FALSE;

void FlxH5Init(void)
{
  static PetscBool done = PETSC_FALSE;

  if (done) return;
  done = PETSC_TRUE;
  /* HDF5 must not clean up at exit, after MPI_Finalize: PetscFinalize closes the library (CloseAllAtFinalize) */
  (void)H5dont_atexit();
}

void FlxH5CloseFailed(void)
{
  closeFailed_ = PETSC_TRUE;
}

void FlxH5TrimReserve(const char path[])
{
  H5E_auto2_t fn;
  void       *data;
  hid_t       f;
  haddr_t     eoa = 0;
  struct stat st;

  H5Eget_auto2(H5E_DEFAULT, &fn, &data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f >= 0) {
    if (H5Fget_eoa(f, &eoa) < 0) eoa = 0;
    H5Fclose(f);
  }
  H5Eset_auto2(H5E_DEFAULT, fn, data);
  if (eoa > 0 && !stat(path, &st) && st.st_size > (off_t)eoa) (void)!truncate(path, (off_t)eoa);
}

/* Registry of open results files. */
static FlxH5IO **Open_  = NULL;
static PetscInt  nOpen_ = 0, capOpen_ = 0;
static PetscBool finalizeRegistered_ = PETSC_FALSE;

static PetscErrorCode CloseAllAtFinalize(void)
{
  PetscFunctionBegin;
  while (nOpen_ > 0) { /* writers an error path never destroyed: close them (collective, every rank has the same) */
    FlxH5IO *io = Open_[nOpen_ - 1];
    FlxH5Unregister(io);
    if (io->file >= 0 && io->abort) (void)io->abort(io);
  }
  PetscCall(PetscFree(Open_));
  capOpen_            = 0;
  finalizeRegistered_ = PETSC_FALSE;
  /* now, while MPI is alive (HDF5's own exit handler would run after MPI_Finalize); not after a failed H5Fclose:
     HDF5 keeps a half-destroyed file then, and closing the library would crash on it */
  if (!closeFailed_) H5close();
  PetscFunctionReturn(0);
}

PetscErrorCode FlxH5Register(FlxH5IO *io)
{
  PetscFunctionBegin;
  if (!finalizeRegistered_) {
    PetscCall(PetscRegisterFinalize(CloseAllAtFinalize));
    finalizeRegistered_ = PETSC_TRUE;
  }
  if (nOpen_ == capOpen_) {
    FlxH5IO **tmp;
    capOpen_ = 2 * capOpen_ + 4;
    PetscCall(PetscMalloc1(capOpen_, &tmp));
    if (nOpen_) PetscCall(PetscArraycpy(tmp, Open_, nOpen_));
    PetscCall(PetscFree(Open_));
    Open_ = tmp;
  }
  Open_[nOpen_++] = io;
  PetscFunctionReturn(0);
}

void FlxH5Unregister(FlxH5IO *io)
{
  for (PetscInt k = 0; k < nOpen_; k++)
    if (Open_[k] == io) {
      Open_[k] = Open_[--nOpen_];
      break;
    }
}

PetscErrorCode FlxH5GetIO(hid_t file, FlxH5IO **io)
{
  PetscFunctionBegin;
  *io = NULL;
  for (PetscInt k = 0; k < nOpen_; k++)
    if (Open_[k]->file == file) *io = Open_[k];
  PetscCheck(*io, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "HDF5 file %lld is not an open results file", (long long)file);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxH5CreateExtendible(FlxH5IO *io, hid_t loc, const char name[], hid_t type, int r, const hsize_t dims[], hid_t *dset)
{
  hsize_t cur[4], max[4], chunk[4];
  hid_t   space, plist;

  PetscFunctionBegin;
  for (int i = 0; i < r; i++) {
    cur[i]   = i ? dims[i] : 0;
    max[i]   = i ? dims[i] : H5S_UNLIMITED;
    chunk[i] = i ? (dims[i] ? dims[i] : 1) : 1;
  }
  if (r == 1) chunk[0] = 1024;
  if (r == 2 && dims[1] * 1024 <= 65536) chunk[0] = 1024 / (dims[1] ? dims[1] : 1) + 1;
  if (r == 3 && dims[1] > 65536) chunk[1] = 65536;
  PetscCall(FlxH5Reserve(io, 4096)); /* its object header (chunks are counted when the dataset grows) */
  FLX_H5LID(io, space, H5Screate_simple(r, cur, max));
  FLX_H5LID(io, plist, H5Pcreate(H5P_DATASET_CREATE));
  FLX_H5L(io, H5Pset_chunk(plist, r, chunk));
  FLX_H5ID(io, *dset, H5Dcreate2(loc, name, type, space, H5P_DEFAULT, plist, H5P_DEFAULT));
  FLX_H5L(io, H5Pclose(plist));
  FLX_H5L(io, H5Sclose(space));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxH5CreateDataset(FlxH5IO *io, hid_t loc, const char name[], hid_t type, int r, const hsize_t dims[], hid_t *dset)
{
  hid_t  space;
  double bytes = (double)H5Tget_size(type);

  PetscFunctionBegin;
  for (int i = 0; i < r; i++)
    bytes *= (double)dims[i];
  PetscCall(FlxH5Reserve(io, bytes + 4096)); /* contiguous storage is allocated when created (parallel HDF5) */
  FLX_H5LID(io, space, H5Screate_simple(r, dims, NULL));
  FLX_H5ID(io, *dset, H5Dcreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  FLX_H5L(io, H5Sclose(space));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxH5CreateGroup(FlxH5IO *io, hid_t loc, const char name[], hid_t *g)
{
  PetscFunctionBegin;
  PetscCall(FlxH5Reserve(io, 4096));
  FLX_H5ID(io, *g, H5Gcreate2(loc, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxH5SetExtent(FlxH5IO *io, hid_t dset, const hsize_t dims[])
{
  hid_t   space, plist;
  hsize_t old[4], chunk[4];
  int     r;
  double  nold = 1, nnew = 1, csize;

  PetscFunctionBegin;
  FLX_H5LID(io, space, H5Dget_space(dset));
  FLX_H5LID(io, r, H5Sget_simple_extent_dims(space, old, NULL));
  FLX_H5L(io, H5Sclose(space));
  FLX_H5LID(io, plist, H5Dget_create_plist(dset));
  FLX_H5L(io, H5Pget_chunk(plist, 4, chunk));
  FLX_H5L(io, H5Pclose(plist));
  FLX_H5LID(io, space, H5Dget_type(dset));
  csize = (double)H5Tget_size(space);
  FLX_H5L(io, H5Tclose(space));
  for (int i = 0; i < r && i < 4; i++) { /* chunks allocated when the new rows are written */
    nold *= PetscCeilReal((double)old[i] / (double)chunk[i]);
    nnew *= PetscCeilReal((double)dims[i] / (double)chunk[i]);
    csize *= (double)chunk[i];
  }
  PetscCall(FlxH5Reserve(io, nnew > nold ? (nnew - nold) * (csize + 8192) : 0)); /* and chunk-index nodes */
  FLX_H5(io, H5Dset_extent(dset, dims));
  PetscFunctionReturn(0);
}

static PetscErrorCode CollectiveXfer(FlxH5IO *io, hid_t *xfer)
{
  PetscFunctionBegin;
  FLX_H5LID(io, *xfer, H5Pcreate(H5P_DATASET_XFER));
  FLX_H5L(io, H5Pset_dxpl_mpio(*xfer, H5FD_MPIO_COLLECTIVE));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxH5WriteRoot(FlxH5IO *io, hid_t loc, const char name[], hid_t type, int r, const hsize_t dims[], const void *data)
{
  hid_t space, dset, xfer;

  PetscFunctionBegin;
  PetscCall(FlxH5CreateDataset(io, loc, name, type, r, dims, &dset));
  FLX_H5LID(io, space, H5Dget_space(dset));
  PetscCall(CollectiveXfer(io, &xfer));
  if (io->rank) FLX_H5L(io, H5Sselect_none(space));
  FLX_H5(io, H5Dwrite(dset, type, io->rank ? space : H5S_ALL, space, xfer, data));
  FLX_H5L(io, H5Pclose(xfer));
  FLX_H5L(io, H5Dclose(dset));
  FLX_H5L(io, H5Sclose(space));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxH5AppendRoot(FlxH5IO *io, hid_t dset, hid_t type, hsize_t n, const void *data)
{
  hid_t   fspace, mspace, xfer;
  hsize_t dims[4], start[4] = {0, 0, 0, 0}, count[4];
  int     r;

  PetscFunctionBegin;
  FLX_H5LID(io, fspace, H5Dget_space(dset));
  FLX_H5LID(io, r, H5Sget_simple_extent_ndims(fspace));
  FLX_H5L(io, H5Sget_simple_extent_dims(fspace, dims, NULL));
  FLX_H5L(io, H5Sclose(fspace));
  start[0] = dims[0];
  dims[0] += n;
  PetscCall(FlxH5SetExtent(io, dset, dims));
  FLX_H5LID(io, fspace, H5Dget_space(dset));
  for (int i = 0; i < r; i++)
    count[i] = i ? dims[i] : n;
  FLX_H5LID(io, mspace, H5Screate_simple(r, count, NULL));
  if (io->rank == 0)
    FLX_H5L(io, H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL));
  else {
    FLX_H5L(io, H5Sselect_none(fspace));
    FLX_H5L(io, H5Sselect_none(mspace));
  }
  PetscCall(CollectiveXfer(io, &xfer));
  FLX_H5(io, H5Dwrite(dset, type, mspace, fspace, xfer, data));
  FLX_H5L(io, H5Pclose(xfer));
  FLX_H5L(io, H5Sclose(mspace));
  FLX_H5L(io, H5Sclose(fspace));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxH5WriteStringAttribute(FlxH5IO *io, hid_t loc, const char name[], const char value[])
{
  hid_t  type, space, attr;
  size_t len = strlen(value);

  PetscFunctionBegin;
  PetscCheck(len < 65000, io->comm, PETSC_ERR_ARG_SIZ, "%s: %d characters do not fit in an HDF5 attribute (64 KiB)", name, (int)len);
  PetscCall(FlxH5Reserve(io, 4096.0 + len));
  FLX_H5LID(io, type, H5Tcopy(H5T_C_S1));
  FLX_H5L(io, H5Tset_size(type, len ? len : 1));
  FLX_H5LID(io, space, H5Screate(H5S_SCALAR));
  if (H5Aexists(loc, name) > 0) FLX_H5(io, H5Adelete(loc, name));
  FLX_H5ID(io, attr, H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT));
  FLX_H5(io, H5Awrite(attr, type, len ? value : " "));
  FLX_H5L(io, H5Aclose(attr));
  FLX_H5L(io, H5Sclose(space));
  FLX_H5L(io, H5Tclose(type));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxH5EnsureGroup(FlxH5IO *io, const char path[])
{
  htri_t exists;

  PetscFunctionBegin;
  FLX_H5ID(io, exists, H5Lexists(io->file, path, H5P_DEFAULT));
  if (!exists) {
    hid_t g;
    PetscCall(FlxH5CreateGroup(io, io->file, path, &g));
    FLX_H5L(io, H5Gclose(g));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxReadModesOmegaMax(MPI_Comm comm, const char path[], PetscReal *omega_max)
{
  PetscMPIInt rank;
  double      v  = 0;
  int         ok = 0;
  char        msg[PETSC_MAX_PATH_LEN + 128];

  PetscFunctionBegin;
  FlxH5Init();
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    H5E_auto2_t fn;
    void       *data;
    hid_t       f, d;
    H5Eget_auto2(H5E_DEFAULT, &fn, &data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* a missing file or dataset is reported below, in one line */
    f = FlxInputFileProblem("-ts_omega_max_file", path, msg, sizeof(msg)) ? -1 : H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f >= 0) {
      d = H5Dopen2(f, "/modes/omega_max", H5P_DEFAULT);
      if (d >= 0) {
        ok = H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) >= 0 && v > 0;
        H5Dclose(d);
      }
      H5Fclose(f);
    }
    H5Eset_auto2(H5E_DEFAULT, fn, data);
  }
  { /* a directory, a FIFO, a device: rank 0's own words */
    int       bad = rank == 0 && FlxInputFileProblem("-ts_omega_max_file", path, msg, sizeof(msg));
    PetscBool b   = bad ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(FlxCheckCollective(comm, b, PETSC_ERR_USER_INPUT, msg));
  }
  PetscCallMPI(MPI_Bcast(&ok, 1, MPI_INT, 0, comm));
  PetscCallMPI(MPI_Bcast(&v, 1, MPI_DOUBLE, 0, comm));
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "cannot read /modes/omega_max from %s: run 'flexure modes' on this model first (-output_file)", path));
  PetscCheck(ok, comm, PETSC_ERR_FILE_READ, "%s", msg);
  *omega_max = (PetscReal)v;
  PetscFunctionReturn(0);
}
