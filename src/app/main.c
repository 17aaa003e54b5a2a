/* flexure command line: flexure [run|static|modes|stability] [CASE.yaml] [options].
   One error path: whatever fails, on any rank, every rank learns it, rank 0 prints one line
   "flexure: error: ..." on stderr and the program exits with the documented code (no traceback, no MPI_Abort).
   The case file is read and validated here, before PETSc starts; its options are set before PetscInitialize, so
   that the command line (which PETSc inserts during PetscInitialize) overrides them and PETSc never parses it. */
#include <flexure/flexure.h>
#include <flexure/cli.h>
#include <slepcsys.h>
#include <time.h>
#include <unistd.h>
#include <strings.h>

static const char usage[] = "flexure: distributed structural dynamics of beams and shells (PETSc, SLEPc, METIS, HDF5).\n"
                            "Usage: mpirun -np P flexure [SUBCOMMAND] CASE.yaml [options]\n"
                            "       flexure stability [-ts_gcd_preset P | -ts_gcd_degree D -ts_gcd_params a,b,... | -ts_type newmark|hht|genalpha ...] [-all_presets]\n"
                            "  run        transient analysis (the default)\n"
                            "  static     linear static analysis K u = f with the loads at full value\n"
                            "  modes      natural frequencies and mode shapes (SLEPc): -modes_n K lowest, plus omega_max\n"
                            "  stability  Omega_max and rho(Omega) of a time stepper, computed from its own update\n"
                            "The case file is YAML: nested keys are joined with '_' (material: {steel: {E: 210e9}} is\n"
                            "-material_steel_E 210e9); an option on the command line overrides the case file. Named things are\n"
                            "declared by a list and configured under their name: -load_names tip,wind then -load_tip_value ...\n"
                            "(NAME below). An option that nothing reads (a typo) stops the run before it starts.\n"
                            "Exit codes: 0 done; 1 bad input (case file, option, mesh, model); 2 the run went unstable or a solve\n"
                            "diverged (results up to then are in the file); 3 I/O or system failure (a write failed, the disk is\n"
                            "full, out of memory); 4 internal error. Every failure prints one line 'flexure: error: ...' on stderr.\n";

typedef enum { MODE_RUN,
               MODE_STATIC,
               MODE_MODES } Mode;

/* Everything a run holds, so that the error path can close it (the results file above all). */
typedef struct {
  FlxMesh    mesh;
  FlxModel   model;
  FlxStepper ts;
  FlxOutput  out;
  FlxModes   md;
  Vec        x, v;
  int        exitcode; /* FLX_EXIT_UNSTABLE when the run stopped as unstable */
  char       msg[2048];
} App;

/* flexure modes: table, /modes in the results file. */
static PetscErrorCode Modes(App *app, MPI_Comm comm, const char cmdline[])
{
  FlxWriter         w;
  const char       *h5, *xdmf;
  const char *const other[] = {"static_", "ts_", NULL};

  PetscFunctionBegin;
  PetscCall(FlxModesCreate(app->model, &app->md));
  PetscCall(FlxModesSetFromOptions(app->md));
  PetscCall(FlxPhaseBegin(comm, "solving the eigenproblem"));
  PetscCall(FlxModesSolve(app->md));
  PetscCall(FlxOptionsCheckUnused(comm, other));
  PetscCall(FlxPhaseBegin(comm, "setting up the output"));
  PetscCall(FlxOutputSetUp(app->out, app->model, NULL, cmdline));
  PetscCall(FlxPhaseSummary(comm, "modal analysis"));
  PetscCall(FlxModesView(app->md, PETSC_VIEWER_STDOUT_(comm)));
  PetscCall(FlxOutputGetWriter(app->out, &w));
  PetscCall(FlxModesWrite(app->md, w));
  {
    Vec xdef, xnat;
    PetscCall(FlxModesGetDeformedState(app->md, &xdef));
    if (xdef) { /* -modes_deformed: the static state the modes are about */
      PetscCall(FlxModelCreateNaturalVector(app->model, &xnat));
      PetscCall(FlxModelToNatural(app->model, xdef, xnat));
      PetscCall(FlxWriterWriteNodeField(w, "/static/displacement", xnat));
      PetscCall(VecDestroy(&xnat));
    }
  }
  PetscCall(FlxOutputGetPath(app->out, &h5, &xdmf));
  PetscCall(PetscPrintf(comm, "flexure: modes written to %s (/modes; open %s in ParaView to step through the shapes)\n", h5, xdmf));
  PetscFunctionReturn(0);
}

/* flexure static: K u = f, /static in the results file. */
static PetscErrorCode Static(App *app, MPI_Comm comm, const char cmdline[])
{
  FlxWriter         w;
  const char       *h5;
  Vec               xnat;
  const char *const other[] = {"ts_gcd_", "modes_", NULL};

  FlxStaticPath path = {0};
  PetscBool     nonlinear;

  PetscFunctionBegin;
  PetscCall(FlxModelIsNonlinear(app->model, &nonlinear));
  if (nonlinear) {
    PetscCall(FlxPhaseBegin(comm, "solving f_int(u) = lambda f (nonlinear)"));
    PetscCall(FlxModelSolveStaticNonlinear(app->model, app->x, &path));
  } else {
    PetscCall(FlxPhaseBegin(comm, "solving K u = f"));
    PetscCall(FlxModelSolveStatic(app->model, app->x));
  }
  PetscCall(FlxOptionsCheckUnused(comm, other));
  PetscCall(FlxPhaseBegin(comm, "setting up the output"));
  PetscCall(FlxOutputSetUp(app->out, app->model, NULL, cmdline));
  PetscCall(FlxPhaseSummary(comm, "static analysis"));
  PetscCall(FlxOutputGetWriter(app->out, &w));
  PetscCall(FlxModelCreateNaturalVector(app->model, &xnat));
  PetscCall(FlxModelToNatural(app->model, app->x, xnat));
  PetscCall(FlxWriterWriteNodeField(w, "/static/displacement", xnat));
  PetscCall(VecDestroy(&xnat));
  if (nonlinear) { /* the path */
    PetscCall(FlxWriterWritePath(w, path.n, path.lambda, path.x));
    PetscCall(FlxStaticPathDestroy(&path));
  }
  PetscCall(FlxModelWriteCellFields(app->model, w, FLX_LOADS_FULL, app->x)); /* element results with the loads at full value (co-rotational beams: in their co-rotated axes) */
  PetscCall(FlxOutputPrintProbes(app->out, app->x));
  PetscCall(FlxOutputWriteStaticReactions(app->out, app->x));
  PetscCall(FlxOutputGetPath(app->out, &h5, NULL));
  PetscCall(PetscPrintf(comm, "flexure: static solution written to %s (/static)\n", h5));
  PetscFunctionReturn(0);
}

/* What the run holds: the model (K only if a solve needs it), the stepper's vectors, the mesh, the output. */
static PetscErrorCode PrintMemory(App *app, MPI_Comm comm, const char head[], const char when[])
{
  PetscReal heap, peak;
  PetscInt  N;

  PetscFunctionBegin;
  PetscCall(FlxMemoryUsage(comm, &heap, &peak));
  PetscCall(VecGetSize(app->x, &N));
  PetscCall(PetscPrintf(comm, "%s %.0f B per DOF in use (heap, all ranks), peak resident %.0f B per DOF%s\n", head, (double)(heap / N), (double)(peak / N), when));
  PetscFunctionReturn(0);
}

/* flexure run: the transient. An unstable run stops cleanly with exit code 2. */
static PetscErrorCode Transient(App *app, MPI_Comm comm, const char cmdline[])
{
  FlxSystem                 sys;
  FlxStepperConvergedReason reason;
  const char               *msg, *h5, *xdmf;
  PetscReal                 maxrel, peak, t;
  PetscInt                  steps;
  PetscLogDouble            wall0, wall1;
  const char *const         other[] = {"static_", "modes_", NULL};

  PetscFunctionBegin;
  PetscCall(FlxModelGetSystem(app->model, &sys));
  PetscCall(FlxStepperSetSystem(app->ts, sys));
  PetscCall(FlxModelGetInitialConditions(app->model, app->x, app->v));
  PetscCall(FlxStepperSetInitialConditions(app->ts, 0.0, app->x, app->v));
  PetscCall(FlxPhaseBegin(comm, "setting up the time stepper"));
  PetscCall(FlxStepperSetUp(app->ts));
  PetscCall(FlxPhaseBegin(comm, "setting up the output"));
  PetscCall(FlxOutputSetUp(app->out, app->model, app->ts, cmdline));
  PetscCall(FlxPhaseSummary(comm, "set-up"));
  PetscCall(FlxStepperView(app->ts, PETSC_VIEWER_STDOUT_(comm)));
  PetscCall(PrintMemory(app, comm, "  memory:", ""));
  PetscCall(FlxOptionsCheckUnused(comm, other));
  { /* fault injection for the tests of the error path: one rank fails alone (FLX_FAULT_RANK=r) */
    const char *f = getenv("FLX_FAULT_RANK");
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(comm, &rank));
    PetscCheck(!f || atoi(f) != rank, PETSC_COMM_SELF, PETSC_ERR_SYS, "fault injected on rank %d alone (FLX_FAULT_RANK)", rank);
  }
  PetscCall(PetscTime(&wall0));
  PetscCall(FlxStepperSolve(app->ts));
  PetscCall(PetscTime(&wall1));
  PetscCall(FlxStepperGetConvergedReason(app->ts, &reason, &msg));
  PetscCall(FlxStepperGetEnergyError(app->ts, &maxrel, &peak));
  PetscCall(FlxStepperGetTime(app->ts, &t, &steps));
  PetscCall(FlxOutputGetPath(app->out, &h5, &xdmf));
  if (reason < 0) {
    PetscCall(PetscSNPrintf(app->msg, sizeof(app->msg), "%s. Results up to the last output are in %s", msg, h5));
    app->exitcode = FLX_EXIT_UNSTABLE;
  } else {
    const char *type;
    PetscBool   gcd;
    PetscCall(FlxStepperGetDescription(app->ts, &type, NULL, 0));
    PetscCall(PetscStrcmp(type, FLXSTEPPERGCD, &gcd));
    PetscCall(PrintMemory(app, comm, "flexure: memory:", " at the end (the solvers' start-up included)"));
    PetscCall(PetscPrintf(comm, "flexure: done: %" PetscInt_FMT " steps to t = %g s in %.3f s of wall time; largest %s %.3e of the peak energy %.6e J\n", steps, (double)t, (double)(wall1 - wall0), gcd ? "energy balance error" : "numerical dissipation", (double)maxrel, (double)peak));
    PetscCall(PetscPrintf(comm, "flexure: results in %s (open %s in ParaView)\n", h5, xdmf));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Run(App *app, MPI_Comm comm, Mode mode, const char cmdline[])
{
  PetscFunctionBegin;
  PetscCall(FlxMeshCreate(comm, &app->mesh));
  PetscCall(FlxMeshSetFromOptions(app->mesh));
  PetscCall(FlxModelCreate(app->mesh, &app->model));
  PetscCall(FlxModelSetFromOptions(app->model));
  if (mode == MODE_STATIC) PetscCall(FlxModelSetRequireHeld(app->model, "flexure static")); /* K u = f has no solution otherwise */
  PetscCall(FlxStepperCreate(comm, &app->ts));                                              /* also in static runs, so a case file serves both */
  PetscCall(FlxStepperSetFromOptions(app->ts));
  PetscCall(FlxOutputCreate(comm, &app->out));
  PetscCall(FlxOutputSetFromOptions(app->out));
  PetscCall(FlxOutputUseGroups(app->out, app->model)); /* probe groups are node sets */
  PetscCall(FlxMeshSetUp(app->mesh));
  PetscCall(FlxPhaseEnd(comm));
  PetscCall(FlxMeshView(app->mesh, PETSC_VIEWER_STDOUT_(comm)));
  PetscCall(FlxOutputSetUpProbes(app->out, app->mesh)); /* probe errors before the model's set-up */
  PetscCall(FlxPhaseBegin(comm, "assembling"));
  PetscCall(FlxModelSetUp(app->model));
  PetscCall(FlxPhaseEnd(comm));
  PetscCall(FlxModelView(app->model, PETSC_VIEWER_STDOUT_(comm)));
  PetscCall(FlxModelCreateVector(app->model, &app->x));
  PetscCall(FlxModelCreateVector(app->model, &app->v));
  if (mode == MODE_MODES)
    PetscCall(Modes(app, comm, cmdline));
  else if (mode == MODE_STATIC)
    PetscCall(Static(app, comm, cmdline));
  else
    PetscCall(Transient(app, comm, cmdline));
  PetscFunctionReturn(0);
}

/* Close everything (on the error path too, so the results file stays readable); errors here are ignored. */
static void AppDestroy(App *app)
{
  PetscCallVoid(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  (void)VecDestroy(&app->x);
  (void)VecDestroy(&app->v);
  (void)FlxModesDestroy(&app->md);
  (void)FlxOutputDestroy(&app->out);
  (void)FlxStepperDestroy(&app->ts);
  (void)FlxModelDestroy(&app->model);
  (void)FlxMeshDestroy(&app->mesh);
  (void)PetscPopErrorHandler();
}

/* The command line as one string (for the results file), however long. */
static char *JoinArgs(int argc, char **argv)
{
  size_t n = 1;
  char  *s;

  for (int k = 0; k < argc; k++)
    n += strlen(argv[k]) + 1;
  s = (char *)malloc(n);
  if (!s) return NULL;
  s[0] = 0;
  for (int k = 0; k < argc; k++) {
    strcat(s, argv[k]);
    if (k < argc - 1) strcat(s, " ");
  }
  return s;
}

/* Rank 0 reads the case file; every rank gets its bytes and validates them (the same verdict everywhere). A YAML
   file is parsed here only (plain options files are left to PETSc's -options_file). */
static int LoadCaseFile(MPI_Comm comm, const char *path, PetscBool forceyaml, FlxCaseFile *cf, PetscBool *yaml, char err[], size_t errlen)
{
  int       rank;
  long long n   = 0;
  char     *buf = NULL;
  size_t    len = 0, l = strlen(path);

  *yaml = (PetscBool)(forceyaml || (l > 5 && !strcmp(path + l - 5, ".yaml")) || (l > 4 && !strcmp(path + l - 4, ".yml")));
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) n = FlxCaseFileRead(path, &buf, &len, err, errlen) ? -1 : (long long)len;
  MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, comm);
  if (n < 0) {
    MPI_Bcast(err, (int)errlen, MPI_CHAR, 0, comm);
    return 1;
  }
  if (rank) buf = (char *)malloc((size_t)n + 1);
  if (!buf) {
    snprintf(err, errlen, "out of memory reading the case file '%s'", path);
    return 1; /* a broken machine: only this rank knows, the agreement is not reached here */
  }
  MPI_Bcast(buf, (int)n + 1, MPI_CHAR, 0, comm);
  if (*yaml && FlxCaseFileParse(buf, (size_t)n, path, cf, err, errlen)) {
    free(buf);
    return 1;
  }
  free(buf);
  return 0;
}

#if defined(PETSC_HAVE_POSIX_MEMALIGN) && !defined(PETSC_HAVE_MEMKIND)
static PetscErrorCode PlainFree(void *p, int line, const char func[], const char file[])
{
  free(p); /* PETSc's plain allocator is posix_memalign here */
  return 0;
}
#endif

/* Pop the error handler pushed before PETSc started: its block came from PETSc's plain allocator, which a traced one
   (-malloc_debug, -malloc_dump) refuses to free ("Block ... is corrupted"); PETSc's PetscMallocResetDRAM does not
   restore the traced allocator after PetscMallocSetDRAM, so the free is swapped here. Without a plain free to swap
   in, the block is left (a few bytes). */
static void PopEarlyErrorHandler(void)
{
  PetscBool traced = PETSC_FALSE;

  (void)PetscMallocGetDebug(&traced, NULL, NULL);
  if (!traced) {
    (void)PetscPopErrorHandler();
    return;
  }
#if defined(PETSC_HAVE_POSIX_MEMALIGN) && !defined(PETSC_HAVE_MEMKIND)
  {
    PetscErrorCode (*tracedfree)(void *, int, const char[], const char[]) = PetscTrFree;
    PetscTrFree                                                           = PlainFree;
    (void)PetscPopErrorHandler();
    PetscTrFree = tracedfree;
  }
#endif
}

int main(int argc, char **argv)
{
  FlxCommandLine cl;
  FlxCaseFile    cf = {0};
  App            app;
  MPI_Comm       agree;
  char           err[2048] = "", *cmdline, **nargv;
  PetscBool      yaml      = PETSC_FALSE;
  int            code = 0, rank, provided, nargc = 0;
  PetscErrorCode ierr = 0;

  memset(&app, 0, sizeof(app));
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_dup(MPI_COMM_WORLD, &agree);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  cmdline = JoinArgs(argc, argv);
  if (FlxCommandLineParse(argc, argv, &cl, err, sizeof(err)))
    code = FLX_EXIT_INPUT;
  else if (argc == 1) {
    snprintf(err, sizeof(err), "no case file: flexure [SUBCOMMAND] CASE.yaml [options] (flexure -help lists every option)");
    code = FLX_EXIT_INPUT;
  } else if (cl.help == 3) {
    if (rank == 0) printf("%s", usage);
    FlxCommandLineFree(&cl);
    free(cmdline);
    MPI_Comm_free(&agree);
    MPI_Finalize();
    return 0;
  } else if (cl.casefile && LoadCaseFile(MPI_COMM_WORLD, cl.casefile, PETSC_FALSE, &cf, &yaml, err, sizeof(err)))
    code = FLX_EXIT_INPUT;
  for (int k = 0; !code && k < cl.nopt; k++) { /* YAML files given to PETSc's -options_file(_yaml): checked the same way */
    FlxCaseFile extra = {0};
    PetscBool   isyaml;
    if (!cl.value[k] || (strcasecmp(cl.name[k], "-options_file_yaml") && strcasecmp(cl.name[k], "-options_file"))) continue;
    if (LoadCaseFile(MPI_COMM_WORLD, cl.value[k], (PetscBool)!strcasecmp(cl.name[k], "-options_file_yaml"), &extra, &isyaml, err, sizeof(err))) code = FLX_EXIT_INPUT;
    FlxCaseFileFree(&extra);
  }
  if (code) { /* before PETSc: every rank knows the same (the file's verdict was broadcast) */
    code = FlxAgreeOnExit(agree, "flexure", code, err, (int)sizeof(err));
    if (rank == 0) fprintf(stderr, "flexure: error: %s\n", err);
    FlxCaseFileFree(&cf);
    FlxCommandLineFree(&cl);
    free(cmdline);
    MPI_Comm_free(&agree);
    MPI_Finalize();
    return code;
  }
  for (int k = 0; k < cf.n; k++) { /* the case file's options, below the command line's (PETSc inserts those later) */
    char name[FLX_CASE_MAX_NAME + 2];
    snprintf(name, sizeof(name), "-%s", cf.opt[k].name);
    if (PetscOptionsSetValue(NULL, name, cf.opt[k].value[0] ? cf.opt[k].value : NULL)) {
      snprintf(err, sizeof(err), "%s:%d: PETSc refused the option -%s", cf.file, cf.opt[k].line, cf.opt[k].name);
      code = FlxAgreeOnExit(agree, "flexure", FLX_EXIT_INPUT, err, (int)sizeof(err));
      if (rank == 0) fprintf(stderr, "flexure: error: %s\n", err);
      MPI_Comm_free(&agree);
      MPI_Finalize();
      return code;
    }
  }
  nargv          = (char **)malloc(sizeof(char *) * (size_t)(2 * cl.nopt + 5));
  nargv[nargc++] = argv[0];
  if (cl.casefile && !yaml) {
    nargv[nargc++] = (char *)"-options_file";
    nargv[nargc++] = (char *)cl.casefile;
  }
  for (int k = 0; k < cl.nopt; k++) {
    nargv[nargc++] = (char *)cl.name[k];
    if (cl.value[k]) nargv[nargc++] = (char *)cl.value[k];
  }
  if (cl.help == 2) nargv[nargc++] = (char *)"-help"; /* PETSc prints its general options */
  nargv[nargc] = NULL;
  {
    char **pargv = nargv;
    ierr         = PetscPushErrorHandler(FlxErrorHandler, NULL); /* errors of PetscInitialize too (a missing -options_file) */
    if (!ierr) ierr = SlepcInitialize(&nargc, &pargv, NULL, NULL);
  }
  if (ierr) { /* nothing of PETSc can be used */
    snprintf(err, sizeof(err), "PETSc could not start: %s (check PETSc's options on the command line, in PETSC_OPTIONS or in a .petscrc file)", FlxErrorGetMessage()[0] ? FlxErrorGetMessage() : "unknown error");
    code = FlxAgreeOnExit(agree, "flexure", FLX_EXIT_INPUT, err, (int)sizeof(err));
    if (rank == 0) fprintf(stderr, "flexure: error: %s\n", err);
    MPI_Comm_free(&agree);
    MPI_Finalize();
    return code;
  }
  PetscCallAbort(PETSC_COMM_WORLD, FlxOptionsSetSources(&cf, &cl));
  for (int i = 0; i < cl.nopt; i++) /* PETSc keeps the last of two values: said, not silent (scripts append overrides) */
    for (int j = i + 1; j < cl.nopt; j++)
      if (!strcasecmp(cl.name[i], cl.name[j]) && (!cl.value[i] != !cl.value[j] || (cl.value[i] && strcmp(cl.value[i], cl.value[j]))))
        PetscCallAbort(PETSC_COMM_WORLD, PetscPrintf(PETSC_COMM_WORLD, "flexure: warning: %s is given twice on the command line (%s, then %s): the last value is used\n", cl.name[i], cl.value[i] ? cl.value[i] : "no value", cl.value[j] ? cl.value[j] : "no value"));
  if (!strcmp(cl.command, "modes")) PetscCallAbort(PETSC_COMM_WORLD, PetscOptionsSetValue(NULL, "-model_allow_rigid_body", "1")); /* free structures have rigid-body modes */
  ierr = FlxOptionsCheckFinite(PETSC_COMM_WORLD, &cf, &cl);
  if (!ierr && cl.help)
    ierr = FlxHelpPrint(PETSC_COMM_WORLD, usage, cl.help == 2 ? PETSC_TRUE : PETSC_FALSE);
  else if (!ierr && !strcmp(cl.command, "stability")) {
    ierr = FlxStabilityCommand(PETSC_COMM_WORLD);
    if (!ierr) ierr = FlxOptionsCheckUnused(PETSC_COMM_WORLD, NULL);
  } else if (!ierr)
    ierr = Run(&app, PETSC_COMM_WORLD, !strcmp(cl.command, "static") ? MODE_STATIC : !strcmp(cl.command, "modes") ? MODE_MODES
                                                                                                                  : MODE_RUN,
               cmdline);
  if (ierr) {
    code = FlxErrorGetExitCode();
    if (!code) code = FLX_EXIT_INTERNAL;
    PetscStrncpy(err, FlxErrorGetMessage(), sizeof(err));
    if (code == FLX_EXIT_INPUT) FlxOptionsExplainError(err, sizeof(err));
  } else if (app.exitcode) {
    code = app.exitcode;
    PetscStrncpy(err, app.msg, sizeof(err));
  }
  code = FlxAgreeOnExit(agree, "flexure", code, err, (int)sizeof(err));
  if (code && rank == 0) fprintf(stderr, "flexure: error: %s\n", err);
  AppDestroy(&app);
  if (!code && !cl.help) (void)FlxOptionsWarnUnusedDiagnostics(PETSC_COMM_WORLD);
  PopEarlyErrorHandler();
  if (SlepcFinalize() && !code) code = FLX_EXIT_SYSTEM;
  FlxCaseFileFree(&cf);
  FlxCommandLineFree(&cl);
  free(nargv);
  free(cmdline);
  MPI_Comm_free(&agree);
  MPI_Finalize();
  return code;
}
