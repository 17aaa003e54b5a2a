/* libFuzzer target for the case-file reader (FlxCaseFileParse): the bytes are a case file named "fuzz.yaml".
   Any input must give either one error line that starts with the file name, or options that are valid names,
   unique (ignoring case) and exactly those PETSc's own YAML reader sets for the same bytes (PETSc keeps the
   spaces around commas that flexure drops); anything else aborts, so the fuzzer reports it. Built with clang
   -fsanitize=fuzzer,address,undefined by scripts/fuzz; test_casefile replays inputs through the same function. */
#include <flexure/flexure.h>
#include <flexure/cli.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void Fail(const char *what, const char *detail)
{
  fprintf(stderr, "fuzz_casefile: %s: %s\n", what, detail ? detail : "");
  abort();
}

static PetscErrorCode Quiet(MPI_Comm comm, int line, const char *func, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  return n;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  PetscBool init;

  setenv("OMPI_MCA_opal_signal", "", 0); /* leave SIGSEGV and friends to the sanitizers */
  if (PetscInitialized(&init) || init) return 0;
  if (PetscOptionsSetValue(NULL, "-no_signal_handler", NULL)) abort();
  if (PetscInitializeNoArguments()) abort();
  return 0;
}

/* PETSc's value with the spaces around commas dropped, as flexure gives it. */
static void Squeeze(const char *in, char *out, size_t len)
{
  size_t k = 0;
  for (const char *c = in; *c && k + 1 < len; c++) {
    if (*c == ' ' || *c == '\t') {
      const char *n = c;
      while (*n == ' ' || *n == '\t')
        n++;
      if (*n == ',' || (k && out[k - 1] == ',')) continue;
    }
    out[k++] = *c;
  }
  out[k] = 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
  FlxCaseFile  cf;
  char         err[2048];
  PetscOptions o;
  char        *text;
  int          r = FlxCaseFileParse((const char *)data, size, "fuzz.yaml", &cf, err, sizeof(err));

  if (r) {
    if (r != 1 || strncmp(err, "fuzz.yaml", 9) || strchr(err, '\n') || cf.n || cf.opt) Fail("a refusal is one line that names the file", err);
    return 0;
  }
  for (int k = 0; k < cf.n; k++) {
    const char *n = cf.opt[k].name;
    size_t      l = strlen(n);
    char        bad[128];
    if (!l || l > FLX_CASE_MAX_NAME || !isalpha((unsigned char)n[0])) Fail("bad option name", n);
    for (size_t i = 0; i < l; i++)
      if (!isalnum((unsigned char)n[i]) && n[i] != '_' && n[i] != '-') Fail("bad character in an option name", n);
    for (int j = 0; j < k; j++)
      if (!strcasecmp(cf.opt[j].name, n)) Fail("an option twice", n);
    if (cf.opt[k].line < 1 || cf.opt[k].column < 1) Fail("bad position", n);
    (void)FlxValueIsNonFinite(cf.opt[k].value, bad, sizeof(bad));
  }
  /* the same options as PETSc's own reader: nothing it would set is missing, nothing is added */
  text = (char *)malloc(size + 1);
  if (!text) abort();
  memcpy(text, data, size);
  text[size] = 0;
  if (PetscOptionsCreate(&o)) abort();
  if (PetscPushErrorHandler(Quiet, NULL)) abort();
  if (PetscOptionsInsertStringYAML(o, text)) Fail("accepted, but PETSc's reader fails on it", (const char *)text);
  if (PetscPopErrorHandler()) abort();
  {
    PetscInt N;
    char   **names, **values;
    if (PetscOptionsLeftGet(o, &N, &names, &values)) abort(); /* every option PETSc set (none is used yet) */
    if (N != cf.n) Fail("PETSc sets another number of options", names && N ? names[0] : "");
    if (PetscOptionsLeftRestore(o, &N, &names, &values)) abort();
  }
  for (int k = 0; k < cf.n; k++) {
    char        name[FLX_CASE_MAX_NAME + 2], v[4096];
    const char *pv;
    PetscBool   set;
    snprintf(name, sizeof(name), "-%s", cf.opt[k].name);
    if (PetscOptionsFindPair(o, NULL, name, &pv, &set)) abort();
    if (!set) Fail("PETSc does not set", name);
    Squeeze(pv ? pv : "", v, sizeof(v));
    if (strlen(pv ? pv : "") < sizeof(v) - 1 && strcmp(v, cf.opt[k].value)) Fail("PETSc sets another value for", name);
  }
  if (PetscOptionsDestroy(&o)) abort();
  free(text);
  FlxCaseFileFree(&cf);
  return 0;
}
