/* libFuzzer target for the Gmsh MSH readers (4.1 and 2.2, ASCII and binary): the bytes are read in process as a
   mesh file named "fuzz.msh". Any input must give either a serial mesh whose every index is in range and every
   coordinate finite, or one user-input error (PETSC_ERR_FILE_UNEXPECTED) on one line that starts with the file
   name; anything else aborts, so the fuzzer reports it. Built with clang -fsanitize=fuzzer,address,undefined
   by scripts/fuzz; msh_tool.c replays inputs through the same function in the normal build. */
#include <flexure/private/meshimpl.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static PetscErrorCode fuzz_code;
static char           fuzz_msg[4096];

static PetscErrorCode Capture(MPI_Comm comm, int line, const char *func, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL) {
    fuzz_code = n;
    snprintf(fuzz_msg, sizeof(fuzz_msg), "%s", mess ? mess : "");
  }
  return n;
}

static void Fail(const char *what)
{
  fprintf(stderr, "fuzz_msh: %s (error %d: %s)\n", what, (int)fuzz_code, fuzz_msg);
  abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  setenv("OMPI_MCA_opal_signal", "", 0); /* leave SIGSEGV and friends to the sanitizers */
  if (PetscOptionsSetValue(NULL, "-no_signal_handler", NULL)) abort();
  if (PetscInitializeNoArguments()) abort();
  if (PetscPushErrorHandler(Capture, NULL)) abort();
  return 0;
}

/* Every index of a mesh that was read is in range and every coordinate finite. */
static void CheckMesh(const FlxSerialMesh *sm)
{
  if (sm->nnodes < 0 || sm->ncells <= 0 || sm->ngroups < 0) Fail("bad counts");
  for (PetscInt i = 0; i < 3 * sm->nnodes; i++)
    if (!isfinite(sm->xyz[i])) Fail("a coordinate is not finite");
  if (sm->cptr[0] != 0) Fail("cptr[0] != 0");
  for (PetscInt c = 0; c < sm->ncells; c++) {
    if (sm->type[c] < 0 || sm->type[c] >= FLX_NUM_CELL_TYPES) Fail("bad cell type");
    if (sm->cptr[c + 1] - sm->cptr[c] != FlxCellTypeNodes[sm->type[c]]) Fail("bad cell size");
    if (sm->group[c] < 0 || sm->group[c] >= sm->ngroups) Fail("bad cell group");
    for (PetscInt k = sm->cptr[c]; k < sm->cptr[c + 1]; k++)
      if (sm->conn[k] < 0 || sm->conn[k] >= sm->nnodes) Fail("a cell node is out of range");
  }
  if (!sm->gpptr || sm->gpptr[0] != 0) Fail("no point-group CSR");
  for (PetscInt g = 0; g < sm->ngroups; g++) {
    size_t len = strnlen(sm->gname[g], FLX_NAME_LEN);
    if (len == 0 || len == FLX_NAME_LEN) Fail("a group name is empty or not terminated");
    if (sm->gdim[g] < 0 || sm->gdim[g] > 3) Fail("bad group dimension");
    if (sm->gpptr[g + 1] < sm->gpptr[g]) Fail("point-group CSR not monotone");
    for (PetscInt h = 0; h < g; h++)
      if (!strcmp(sm->gname[g], sm->gname[h])) Fail("two groups have the same name");
    for (PetscInt k = sm->gpptr[g]; k < sm->gpptr[g + 1]; k++)
      if (sm->gpnodes[k] < 0 || sm->gpnodes[k] >= sm->nnodes) Fail("a point-group node is out of range");
  }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
  FlxSerialMesh *sm = NULL;
  PetscErrorCode ierr;

  fuzz_code   = 0;
  fuzz_msg[0] = 0;
  if (FlxSerialMeshCreate(&sm)) Fail("cannot create the serial mesh");
  ierr = FlxSerialMeshReadGmshBuffer("fuzz.msh", (const char *)data, size, sm);
  if (ierr) {
    if (ierr != PETSC_ERR_FILE_UNEXPECTED || fuzz_code != ierr) Fail("an error that is not a file error");
    if (strncmp(fuzz_msg, "fuzz.msh:", 9) || strchr(fuzz_msg, '\n') || strlen(fuzz_msg) > 1000) Fail("a message that does not start with the file name or is not one line");
  } else
    CheckMesh(sm);
  if (FlxSerialMeshDestroy(&sm)) Fail("cannot destroy the serial mesh");
  return 0;
}
