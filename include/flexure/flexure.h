/* flexure: distributed structural-dynamics finite elements on PETSc.
   Umbrella header: include this one in applications. */
#pragma once
#include <petsc.h>

#define FLX_NAME_LEN 64

/* Log events, one per phase, so -log_view breaks a run down. */
PETSC_EXTERN PetscLogEvent FLX_MeshRead, FLX_MeshPartition, FLX_MeshDistribute, FLX_Assemble, FLX_ForceInt, FLX_ForceExt,
    FLX_Update, FLX_LedgerFlush, FLX_Output, FLX_CriticalStep, FLX_StaticSolve;
PETSC_EXTERN PetscClassId FLX_CLASSID;

/* Register the flexure types (steppers, elements) and log events. Not collective; called by FlxInitialize(). */
PETSC_EXTERN PetscErrorCode FlxInitializePackage(void);
/* Make PETSc's allocations 64-byte aligned (src/util/memalign.c: PETSc's own are 16-byte aligned, and vector loads
   across cache lines halved the speed of the explicit step), unless PETSc traces them (-malloc_debug). Called by
   FlxInitializePackage. Not collective. */
PETSC_EXTERN PetscErrorCode FlxMemoryAlignInstall(void);
/* aligned: whether PETSc's allocations are 64-byte aligned. Not collective. */
PETSC_EXTERN PetscErrorCode FlxMemoryAligned(PetscBool *aligned);

/* Raise the same user-input error on every rank of comm when any rank has failed=PETSC_TRUE.
   The message of the lowest failing rank is used, so the error is collective and nothing hangs.
   Collective. */
PETSC_EXTERN PetscErrorCode FlxCheckCollective(MPI_Comm comm, PetscBool failed, PetscErrorCode code, const char msg[]);
/* After work that ran on some ranks only and returned ierr there (0 elsewhere): FlxCheckCollective with the failing
   rank's message as FlxErrorHandler recorded it (fallback when none was). Collective. */
PETSC_EXTERN PetscErrorCode FlxCheckCollectiveError(MPI_Comm comm, PetscErrorCode ierr, PetscErrorCode code, const char fallback[]);
/* At a program's end: the exit code and message of the lowest failing rank on every rank; a rank that failed alone
   prints its message and exits after 30 s if the others never answer (they wait in a collective). comm must be a
   communicator that nothing else uses (MPI_Comm_dup at the start), or its collectives could match others'. Collective. */
PETSC_EXTERN int FlxAgreeOnExit(MPI_Comm comm, const char prog[], int code, char msg[], int len);
/* The end of a tool whose body returned ierr: FlxAgreeOnExit on agree (MPI_Comm_dup'ed before the body), the message
   printed once as "prog: error: ..."; returns the exit code (0 or 1). Collective. */
PETSC_EXTERN int FlxExitAgreed(MPI_Comm agree, const char prog[], PetscErrorCode ierr);

/* Set-up phases: FlxPhaseBegin prints "flexure: <what> ..." on rank 0 (so a large model never sits silent) and
   times the phase until the next FlxPhaseBegin or FlxPhaseEnd; FlxPhaseSummary prints one line with the time of
   every phase since the last summary. Collective. */
PETSC_EXTERN PetscErrorCode FlxPhaseBegin(MPI_Comm comm, const char what[]);
PETSC_EXTERN PetscErrorCode FlxPhaseEnd(MPI_Comm comm);
PETSC_EXTERN PetscErrorCode FlxPhaseSummary(MPI_Comm comm, const char what[]);

/* Append t to the string s of size n, cutting it to fit (what strlcat does; PETSc 3.18's PetscStrlcat bounds
   the copy by n - strlen(t), which cuts short strings and can write past s). Returns strlen(s) + strlen(t). */
PETSC_EXTERN size_t FlxStrlcat(char s[], const char t[], size_t n);

/* Parse a comma-separated list of reals, e.g. "1,0.5" or "4/3,1/2" (fractions allowed). Not collective. */
PETSC_EXTERN PetscErrorCode FlxParseRealList(const char str[], PetscInt max, PetscReal vals[], PetscInt *n, PetscBool *ok);

/* Why path cannot be read as an input file, into msg prefixed by what (the option): missing, a directory, or not a
   regular file (a FIFO or a device would block or never end the reader); 0 for a regular file. Not collective. */
PETSC_EXTERN int FlxInputFileProblem(const char what[], const char path[], char msg[], size_t len);
/* Memory of the processes of comm, summed over them (bytes): heap in use now (glibc's mallinfo2: arena and mmapped
   blocks; 0 elsewhere) and the peak resident set size. Collective. */
PETSC_EXTERN PetscErrorCode FlxMemoryUsage(MPI_Comm comm, PetscReal *heap, PetscReal *peak);
/* PetscOptionsRealArray and PetscOptionsIntArray that refuse more values than the array holds (PETSc reads the
   first *n and drops the rest silently): *n is the capacity on input, the count read on output. Use inside
   PetscOptionsBegin/End as PETSc's. Collective. */
PETSC_EXTERN PetscErrorCode FlxOptionsRealArray_Private(PetscOptionItems *, const char[], const char[], const char[], PetscReal[], PetscInt *, PetscBool *);
PETSC_EXTERN PetscErrorCode FlxOptionsIntArray_Private(PetscOptionItems *, const char[], const char[], const char[], PetscInt[], PetscInt *, PetscBool *);
#define FlxOptionsRealArray(a, b, c, d, e, f) FlxOptionsRealArray_Private(PetscOptionsObject, a, b, c, d, e, f)
#define FlxOptionsIntArray(a, b, c, d, e, f) FlxOptionsIntArray_Private(PetscOptionsObject, a, b, c, d, e, f)

/* Eigenvalues of a small dense symmetric matrix (row-major, n x n), ascending, by cyclic Jacobi. A is overwritten. Not collective. */
PETSC_EXTERN PetscErrorCode FlxSymEigenvalues(PetscInt n, PetscReal A[], PetscReal w[]);

#include <flexure/mesh.h>
#include <flexure/element.h>
#include <flexure/system.h>
#include <flexure/model.h>
#include <flexure/stepper.h>
#include <flexure/writer.h>
#include <flexure/modes.h>
#include <flexure/rotation.h>

/* Error handler that records the first message of an error instead of printing a traceback; the
   command line prints it as one line. Install with PetscPushErrorHandler(FlxErrorHandler, NULL). */
PETSC_EXTERN PetscErrorCode FlxErrorHandler(MPI_Comm, int, const char *, const char *, PetscErrorCode, PetscErrorType, const char *, void *);
/* The message recorded for the most recent error (empty if none). Not collective. */
PETSC_EXTERN const char *FlxErrorGetMessage(void);
/* Fail with one message naming every option nothing used (typos), except solver diagnostics that PETSc reads
   only during a solve and options starting with one of other[] (NULL-terminated, may be NULL). Logically
   collective. */
PETSC_EXTERN PetscErrorCode FlxOptionsCheckUnused(MPI_Comm comm, const char *const other[]);
