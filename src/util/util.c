/* Small utilities shared by every part of flexure: package registration, collective checks, parsing, tiny eigensolver. */
#include <flexure/flexure.h>
#include <flexure/private/stepperimpl.h>
#include <flexure/private/elementimpl.h>
#include <flexure/cli.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

PetscLogEvent FLX_MeshRead, FLX_MeshPartition, FLX_MeshDistribute, FLX_Assemble, FLX_ForceInt, FLX_ForceExt, FLX_Update,
    FLX_LedgerFlush, FLX_Output, FLX_CriticalStep, FLX_StaticSolve;
PetscClassId     FLX_CLASSID;
static PetscBool FlxPackageInitialized = PETSC_FALSE;

static PetscErrorCode FlxFinalizePackage(void)
{
  PetscFunctionBegin;
  PetscCall(FlxStepperFinalizeRegistry());
  PetscCall(FlxElementFinalizeRegistry());
  FlxPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxInitializePackage(void)
{
  PetscFunctionBegin;
  if (FlxPackageInitialized) PetscFunctionReturn(0);
  FlxPackageInitialized = PETSC_TRUE;
  PetscCall(FlxMemoryAlignInstall());
  PetscCall(PetscRegisterFinalize(FlxFinalizePackage));
  PetscCall(PetscClassIdRegister("flexure", &FLX_CLASSID));
  PetscCall(PetscLogEventRegister("FlxMeshRead", FLX_CLASSID, &FLX_MeshRead));
  PetscCall(PetscLogEventRegister("FlxMeshPartition", FLX_CLASSID, &FLX_MeshPartition));
  PetscCall(PetscLogEventRegister("FlxMeshDistrib", FLX_CLASSID, &FLX_MeshDistribute));
  PetscCall(PetscLogEventRegister("FlxAssemble", FLX_CLASSID, &FLX_Assemble));
  PetscCall(PetscLogEventRegister("FlxForceInt", FLX_CLASSID, &FLX_ForceInt));
  PetscCall(PetscLogEventRegister("FlxForceExt", FLX_CLASSID, &FLX_ForceExt));
  PetscCall(PetscLogEventRegister("FlxUpdate", FLX_CLASSID, &FLX_Update));
  PetscCall(PetscLogEventRegister("FlxLedgerFlush", FLX_CLASSID, &FLX_LedgerFlush));
  PetscCall(PetscLogEventRegister("FlxOutput", FLX_CLASSID, &FLX_Output));
  PetscCall(PetscLogEventRegister("FlxCriticalStep", FLX_CLASSID, &FLX_CriticalStep));
  PetscCall(PetscLogEventRegister("FlxStaticSolve", FLX_CLASSID, &FLX_StaticSolve));
  PetscCall(FlxStepperRegisterAll());
  PetscCall(FlxElementRegisterAll());
  PetscFunctionReturn(0);
}

PetscErrorCode FlxCheckCollective(MPI_Comm comm, PetscBool failed, PetscErrorCode code, const char msg[])
{
  PetscMPIInt rank, size, first, mine;
  char        buf[1024];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  mine = failed ? rank : size;
  PetscCallMPI(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first == size) PetscFunctionReturn(0);
  buf[0] = 0;
  if (rank == first && msg) PetscCall(PetscStrncpy(buf, msg, sizeof(buf)));
  PetscCallMPI(MPI_Bcast(buf, sizeof(buf), MPI_CHAR, first, comm));
  SETERRQ(comm, code, "%s", buf);
}

PetscErrorCode FlxCheckCollectiveError(MPI_Comm comm, PetscErrorCode ierr, PetscErrorCode code, const char fallback[])
{
  PetscFunctionBegin;
  PetscCall(FlxCheckCollective(comm, ierr ? PETSC_TRUE : PETSC_FALSE, code, ierr && FlxErrorGetMessage()[0] ? FlxErrorGetMessage() : fallback));
  PetscFunctionReturn(0);
}

size_t FlxStrlcat(char s[], const char t[], size_t n)
{
  size_t l = strnlen(s, n), m = strlen(t);

  if (l + 1 >= n) return l + m;
  if (m > n - l - 1) {
    memcpy(s + l, t, n - l - 1);
    s[n - 1] = 0;
  } else
    memcpy(s + l, t, m + 1);
  return l + m;
}

static PetscBool ParseOneReal(const char *s, PetscReal *v)
{
  char  *end;
  double num = strtod(s, &end);

  if (end == s) return PETSC_FALSE;
  while (*end == ' ')
    end++;
  if (*end == '/') {
    const char *d   = end + 1;
    double      den = strtod(d, &end);
    if (end == d || den == 0.0) return PETSC_FALSE;
    num /= den;
  }
  while (*end == ' ')
    end++;
  if (*end) return PETSC_FALSE;
  *v = (PetscReal)num;
  return PETSC_TRUE;
}

PetscErrorCode FlxParseRealList(const char str[], PetscInt max, PetscReal vals[], PetscInt *n, PetscBool *ok)
{
  char     buf[1024], *tok, *save = NULL;
  PetscInt k = 0;

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  PetscCall(PetscStrncpy(buf, str, sizeof(buf)));
  for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    while (*tok == ' ')
      tok++;
    if (k >= max || !ParseOneReal(tok, &vals[k])) {
      *ok = PETSC_FALSE;
      break;
    }
    k++;
  }
  *n = k;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSymEigenvalues(PetscInt n, PetscReal A[], PetscReal w[])
{
  PetscFunctionBegin;
  for (PetscInt sweep = 0; sweep < 100; sweep++) {
    PetscReal off = 0, diag = 0;
    for (PetscInt i = 0; i < n; i++) {
      diag += A[i * n + i] * A[i * n + i];
      for (PetscInt j = i + 1; j < n; j++)
        off += A[i * n + j] * A[i * n + j];
    }
    if (off <= 1e-30 * diag || off == 0) break;
    for (PetscInt p = 0; p < n; p++) {
      for (PetscInt q = p + 1; q < n; q++) {
        PetscReal apq = A[p * n + q], theta, t, c, s;
        if (PetscAbsReal(apq) < 1e-300) continue;
        theta = (A[q * n + q] - A[p * n + p]) / (2 * apq);
        t     = (theta >= 0 ? 1.0 : -1.0) / (PetscAbsReal(theta) + PetscSqrtReal(theta * theta + 1));
        c     = 1 / PetscSqrtReal(t * t + 1);
        s     = t * c;
        for (PetscInt k = 0; k < n; k++) { /* columns p, q */
          PetscReal akp = A[k * n + p], akq = A[k * n + q];
          A[k * n + p] = c * akp - s * akq;
          A[k * n + q] = s * akp + c * akq;
        }
        for (PetscInt k = 0; k < n; k++) { /* rows p, q */
          PetscReal apk = A[p * n + k], aqk = A[q * n + k];
          A[p * n + k] = c * apk - s * aqk;
          A[q * n + k] = s * apk + c * aqk;
        }
      }
    }
  }
  for (PetscInt i = 0; i < n; i++)
    w[i] = A[i * n + i];
  PetscCall(PetscSortReal(n, w));
  PetscFunctionReturn(0);
}

static char           FlxLastError[2048];
static PetscErrorCode FlxLastCode;

/* User input (exit 1): the checks of flexure's readers and PETSc's own argument errors (a value that is not a
   number, PETSc's "Unknown option X for -opt" of enum options, an unknown solver type, a missing solver package,
   a model too large for 32-bit indices). */
static PetscBool IsInputError(PetscErrorCode n, const char *mess)
{
  switch (n) {
  case PETSC_ERR_USER_INPUT:
  case PETSC_ERR_FILE_OPEN:
  case PETSC_ERR_FILE_UNEXPECTED:
  case PETSC_ERR_FILE_READ:
  case PETSC_ERR_ARG_OUTOFRANGE:
  case PETSC_ERR_ARG_WRONG:
  case PETSC_ERR_ARG_INCOMP:
  case PETSC_ERR_ARG_WRONGSTATE:
  case PETSC_ERR_ARG_UNKNOWN_TYPE:
  case PETSC_ERR_MISSING_FACTOR:
  case PETSC_ERR_INT_OVERFLOW:
    return PETSC_TRUE;
  case PETSC_ERR_USER:
    return (PetscBool)(mess && (!strncmp(mess, "Unknown option", 14) || !strncmp(mess, "Unknown logical value", 21) || !strncmp(mess, "Unable to open options file", 27)));
  default:
    return PETSC_FALSE;
  }
}

/* The run went unstable or a solve failed (exit 2). */
static PetscBool IsSolveError(PetscErrorCode n)
{
  return (PetscBool)(n == PETSC_ERR_NOT_CONVERGED || n == PETSC_ERR_CONV_FAILED || n == PETSC_ERR_MAT_LU_ZRPVT || n == PETSC_ERR_MAT_CH_ZRPVT || n == PETSC_ERR_FP);
}

/* I/O or system failure (exit 3): a write that failed (a full disk), the system, memory, MPI. */
static PetscBool IsSystemError(PetscErrorCode n)
{
  return (PetscBool)(n == PETSC_ERR_FILE_WRITE || n == PETSC_ERR_SYS || n == PETSC_ERR_MEM || n == PETSC_ERR_MPI);
}

PetscErrorCode FlxErrorHandler(MPI_Comm comm, int line, const char *func, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL) {
    FlxLastCode = n;
    if (IsInputError(n, mess) || n == PETSC_ERR_NOT_CONVERGED)
      snprintf(FlxLastError, sizeof(FlxLastError), "%s", mess ? mess : "unknown error");
    else if (n == PETSC_ERR_FILE_WRITE) /* the writer names the file and the cause (no space left on device) */
      snprintf(FlxLastError, sizeof(FlxLastError), "%s", mess && mess[0] ? mess : "a write failed");
    else if (IsSystemError(n))
      snprintf(FlxLastError, sizeof(FlxLastError), "%s [in %s()]", mess && mess[0] ? mess : n == PETSC_ERR_MEM ? "out of memory"
                                                                                                               : "system error",
               func);
    else
      snprintf(FlxLastError, sizeof(FlxLastError), "%s [internal error %d in %s() at %s:%d]", mess ? mess : "", (int)n, func, file, line);
    for (char *c = FlxLastError; *c; c++) /* one line */
      if (*c == '\n' || *c == '\r' || *c == '\t') *c = ' ';
    for (size_t l = strlen(FlxLastError); l && FlxLastError[l - 1] == ' ';)
      FlxLastError[--l] = 0;
  }
  return n;
}

const char *FlxErrorGetMessage(void)
{
  return FlxLastError;
}

int FlxErrorGetExitCode(void)
{
  if (!FlxLastCode) return FLX_EXIT_OK;
  if (IsInputError(FlxLastCode, FlxLastError)) return FLX_EXIT_INPUT;
  if (IsSolveError(FlxLastCode)) return FLX_EXIT_UNSTABLE;
  if (IsSystemError(FlxLastCode)) return FLX_EXIT_SYSTEM;
  return FLX_EXIT_INTERNAL;
}

/* Set-up phases: one line when a phase starts (so a large model never sits silent), the times in one line. */
static struct {
  char           what[16][64];
  PetscLogDouble t[16];
  int            n, open;
  PetscLogDouble start;
} Phases;

PetscErrorCode FlxPhaseEnd(MPI_Comm comm)
{
  PetscLogDouble now;

  PetscFunctionBegin;
  if (!Phases.open) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Barrier(comm)); /* the slowest rank's time */
  PetscCall(PetscTime(&now));
  Phases.t[Phases.n - 1] = now - Phases.start;
  Phases.open            = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxPhaseBegin(MPI_Comm comm, const char what[])
{
  PetscFunctionBegin;
  PetscCall(FlxPhaseEnd(comm));
  if (Phases.n == 16) PetscFunctionReturn(0);
  PetscCall(PetscStrncpy(Phases.what[Phases.n], what, sizeof(Phases.what[0])));
  Phases.n++;
  Phases.open = 1;
  PetscCall(PetscPrintf(comm, "flexure: %s ...\n", what));
  PetscCall(PetscTime(&Phases.start));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxPhaseSummary(MPI_Comm comm, const char what[])
{
  PetscLogDouble total = 0;
  char           line[1024];

  PetscFunctionBegin;
  PetscCall(FlxPhaseEnd(comm));
  if (!Phases.n) PetscFunctionReturn(0);
  for (int k = 0; k < Phases.n; k++)
    total += Phases.t[k];
  PetscCall(PetscSNPrintf(line, sizeof(line), "flexure: %s in %.2f s (", what, (double)total));
  for (int k = 0; k < Phases.n; k++) {
    char item[128];
    PetscCall(PetscSNPrintf(item, sizeof(item), "%s%s %.2f s", k ? ", " : "", Phases.what[k], (double)Phases.t[k]));
    FlxStrlcat(line, item, sizeof(line));
  }
  FlxStrlcat(line, ")\n", sizeof(line));
  PetscCall(PetscPrintf(comm, "%s", line));
  Phases.n = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMemoryUsage(MPI_Comm comm, PetscReal *heap, PetscReal *peak)
{
  PetscReal     loc[2] = {0, 0};
  struct rusage ru;

  PetscFunctionBegin;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  {
    struct mallinfo2 mi = mallinfo2();
    loc[0]              = (PetscReal)mi.uordblks + (PetscReal)mi.hblkhd;
  }
#endif
  if (!getrusage(RUSAGE_SELF, &ru)) loc[1] = ru.ru_maxrss * 1024.0; /* kB on Linux */
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, loc, 2, MPIU_REAL, MPIU_SUM, comm));
  if (heap) *heap = loc[0];
  if (peak) *peak = loc[1];
  PetscFunctionReturn(0);
}

/* At the end of a program (plain MPI, not PETSc errors): every rank learns whether any failed, with the exit code and
   message (msg, len) of the lowest failing rank. A rank that failed alone while the others wait in a collective
   operation would wait here for ever: after 30 s (FLX_AGREE_TIMEOUT in the environment) it prints
   "prog: error: msg" itself and exits (Open MPI's mpirun then stops the others). Collective. */
int FlxAgreeOnExit(MPI_Comm comm, const char prog[], int code, char msg[], int len)
{
  MPI_Request req;
  int         worst = 0, flag = 0, rank, size, first, mine;
  double      t0 = MPI_Wtime(), timeout = getenv("FLX_AGREE_TIMEOUT") ? atof(getenv("FLX_AGREE_TIMEOUT")) : 30.0;

  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Iallreduce(&code, &worst, 1, MPI_INT, MPI_MAX, comm, &req);
  while (!flag) {
    struct timespec ms = {0, 1000000};
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    if (flag) break;
    if (code && MPI_Wtime() - t0 > timeout) {
      fprintf(stderr, "%s: error: %s (rank %d; the other ranks did not answer)\n", prog, msg, rank);
      fflush(stderr);
      fflush(stdout);
      _exit(code);
    }
    nanosleep(&ms, NULL);
  }
  if (!worst) return 0;
  mine = code ? rank : size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  MPI_Bcast(&code, 1, MPI_INT, first, comm);
  MPI_Bcast(msg, len, MPI_CHAR, first, comm);
  return code;
}

/* At the end of a tool or example whose body returned ierr on this rank: the lowest failing rank's message printed
   once, "prog: error: ...", by FlxAgreeOnExit on agree (a communicator nothing else used: MPI_Comm_dup of
   PETSC_COMM_WORLD before the body). Returns the exit code, 0 or 1. Collective. */
int FlxExitAgreed(MPI_Comm agree, const char prog[], PetscErrorCode ierr)
{
  char msg[2048 + 1];
  int  rank, code;

  MPI_Comm_rank(agree, &rank);
  PetscStrncpy(msg, ierr ? FlxErrorGetMessage() : "", sizeof(msg));
  code = FlxAgreeOnExit(agree, prog, ierr ? 1 : 0, msg, (int)sizeof(msg));
  if (code && !rank) fprintf(stderr, "%s: error: %s\n", prog, msg);
  return code ? 1 : 0;
}

int FlxInputFileProblem(const char what[], const char path[], char msg[], size_t len)
{
  struct stat st;

  if (stat(path, &st)) {
    snprintf(msg, len, "%s: cannot open %s: %s", what, path, strerror(errno));
    return 1;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(msg, len, "%s: %s is %s, not a file to read", what, path, S_ISDIR(st.st_mode) ? "a directory" : "not a regular file (a device, a FIFO or a socket)");
    return 1;
  }
  return 0;
}
