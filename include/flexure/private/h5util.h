/* HDF5 helpers of the results file. Every rank makes the same HDF5 calls, and FLX_H5/FLX_H5ID decide the
   outcome of each call collectively: a failure on any rank (a full disk seen by the rank that writes) stops every
   rank at the same call, closes the file so that everything flushed before stays readable, and raises the same
   PETSC_ERR_FILE_WRITE error everywhere, naming the file and the cause. Nothing waits in a collective write for a
   rank that has left. */
#pragma once
#include <flexure/flexure.h>
#include <hdf5.h>

typedef struct _FlxH5IO FlxH5IO;
struct _FlxH5IO {
  MPI_Comm    comm;
  PetscMPIInt rank;
  char        path[PETSC_MAX_PATH_LEN]; /* the results file as the user named it (messages) */
  hid_t       file;                     /* -1 once closed */
  PetscBool   failed;                   /* an I/O error was raised: the file is closed, the writer refuses work */
  int         fd;                       /* rank 0: the file opened once more, to reserve space ahead of HDF5 (-1: none) */
  PetscBool   fallocate;                /* the file system allocates blocks for us (fallocate works) */
  int         sboff;                    /* rank 0: offset of the end-of-file address in the superblock (0: not yet
                                           known, -1: a superblock version whose address is not patched) */
  unsigned long long published;         /* rank 0: the end-of-file address Publish last wrote there */
  const char        *what;              /* what is being written, for messages (a dataset name or "the mesh") */
  char               pending[1024];     /* a local call failed: reported at the next collective check */
  double             eoa;               /* upper bound of HDF5's end of allocation (same on every rank) */
  double             reserved;          /* the file's size as rank 0 last made or saw it (same on every rank) */
  /* Collective: close every open object and the file after a failure (errors ignored). Set by the owner. */
  PetscErrorCode (*abort)(FlxH5IO *);
};

/* Collective: raise the outcome of an HDF5 call made on every rank of io->comm. When any rank failed, the file is
   closed (io->abort) and every rank raises PETSC_ERR_FILE_WRITE with the first failing rank's reason. */
PETSC_INTERN PetscErrorCode FlxH5Check(FlxH5IO *io, PetscBool failed, const char call[]);
/* Collective: fail as FlxH5Check does, with a message given by the first rank where failed is set. */
PETSC_INTERN PetscErrorCode FlxH5Fail(FlxH5IO *io, PetscBool failed, const char msg[]);
/* Collective: HDF5 is about to allocate up to bytes more (chunks, contiguous data, object headers): keep the file's
   blocks allocated (rank 0, fallocate) beyond the bound of HDF5's end of allocation plus a margin, so a full disk is
   found here, before HDF5 writes anything, and the file, closed at once, stays complete (its metadata goes to blocks
   already held); the file's size also stays above every address HDF5 records, so a run killed during a flush leaves a
   file that opens. Communicates only when the reserve must grow. */
PETSC_INTERN PetscErrorCode FlxH5Reserve(FlxH5IO *io, double bytes);
/* Collective, after H5Fflush: learn the file's size (HDF5 cuts it to its end of allocation). */
PETSC_INTERN PetscErrorCode FlxH5Resync(FlxH5IO *io);
/* Collective, before HDF5 creates tmp: rank 0 creates it and allocates the first reserve, so a full disk at start is
   reported (no space left on device) before HDF5 touches the file. */
PETSC_INTERN PetscErrorCode FlxH5PreCheck(FlxH5IO *io, const char tmp[]);
/* Keep HDF5 from cleaning up at exit, after MPI_Finalize (PetscFinalize closes it). Call before any HDF5 call. */
PETSC_INTERN void FlxH5Init(void);
/* An H5Fclose failed: HDF5 must not be closed at PetscFinalize (it would crash on the half-closed file). */
PETSC_INTERN void FlxH5CloseFailed(void);
/* Whether the file system holding path is full (under 64 KiB left). Not collective. */
PETSC_INTERN PetscBool FlxH5DiskFull(const char path[]);
/* Rank 0 after the file is closed: trim the reserve (the file ends at HDF5's end of allocation). Not collective. */
PETSC_INTERN void FlxH5TrimReserve(const char path[]);
/* The registry of open results files, closed by PetscFinalize before MPI ends (on an error path the application may
   never reach FlxWriterDestroy; HDF5 must not close an MPI-IO file after MPI_Finalize). Not collective. */
PETSC_INTERN PetscErrorCode FlxH5Register(FlxH5IO *io);
PETSC_INTERN void           FlxH5Unregister(FlxH5IO *io);

/* Record the failure of a local HDF5 call (one that communicates with no other rank: dataspaces, property lists,
   closing); the next collective check reports it. Not collective. */
PETSC_INTERN void FlxH5Local(FlxH5IO *io, const char call[]);

/* FLX_H5: calls that may communicate (create, write, extend, flush) are checked collectively; FLX_H5L: local calls. */
#define FLX_H5(io, call) PetscCall(FlxH5Check((io), (PetscBool)((call) < 0), #call))
#define FLX_H5ID(io, var, call)                                 \
  do {                                                          \
    var = (call);                                               \
    PetscCall(FlxH5Check((io), (PetscBool)((var) < 0), #call)); \
  } while (0)
#define FLX_H5L(io, call)                    \
  do {                                       \
    if ((call) < 0) FlxH5Local((io), #call); \
  } while (0)
#define FLX_H5LID(io, var, call)            \
  do {                                      \
    var = (call);                           \
    if ((var) < 0) FlxH5Local((io), #call); \
  } while (0)

/* Create a chunked dataset of rank r with an unlimited first dimension (initial extent 0). Collective. */
PETSC_INTERN PetscErrorCode FlxH5CreateExtendible(FlxH5IO *io, hid_t loc, const char name[], hid_t type, int r, const hsize_t dims[], hid_t *dset);
/* Create a contiguous dataset (its storage reserved), a group, or grow a chunked dataset to dims (the new chunks
   reserved). Collective. */
PETSC_INTERN PetscErrorCode FlxH5CreateDataset(FlxH5IO *io, hid_t loc, const char name[], hid_t type, int r, const hsize_t dims[], hid_t *dset);
PETSC_INTERN PetscErrorCode FlxH5CreateGroup(FlxH5IO *io, hid_t loc, const char name[], hid_t *g);
PETSC_INTERN PetscErrorCode FlxH5SetExtent(FlxH5IO *io, hid_t dset, const hsize_t dims[]);
/* Write a whole dataset from rank 0 (other ranks pass nothing). Collective. */
PETSC_INTERN PetscErrorCode FlxH5WriteRoot(FlxH5IO *io, hid_t loc, const char name[], hid_t type, int r, const hsize_t dims[], const void *data);
/* Grow dataset's first dimension by n rows and write them from rank 0. Collective. */
PETSC_INTERN PetscErrorCode FlxH5AppendRoot(FlxH5IO *io, hid_t dset, hid_t type, hsize_t n, const void *data);
/* Write a string attribute on loc (replacing one of that name). Collective, same value on all ranks. */
PETSC_INTERN PetscErrorCode FlxH5WriteStringAttribute(FlxH5IO *io, hid_t loc, const char name[], const char value[]);
/* Create the group at path (absolute, its parent existing) unless it exists. Collective. */
PETSC_INTERN PetscErrorCode FlxH5EnsureGroup(FlxH5IO *io, const char path[]);
/* The I/O context of an open results file (for code given only the file id, e.g. FlxMeshWriteHDF5). Not collective. */
PETSC_INTERN PetscErrorCode FlxH5GetIO(hid_t file, FlxH5IO **io);
