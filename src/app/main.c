/* flexure command line (thin): flexure [run|static] CASE.yaml [options]. */
#include <flexure/flexure.h>
#include <slepcsys.h>

static const char help[] = "flexure: distributed structural dynamics of beams and shells (PETSc, METIS, HDF5).\n"
                           "Usage: mpirun -np P flexure [run|static|modes] CASE.yaml [options]\n"
                           "       flexure stability [-ts_gcd_preset P | -ts_gcd_degree D -ts_gcd_params a,b,... | -ts_type newmark|hht|genalpha ...] [-all_presets]\n"
                           "  run     transient analysis (default)\n"
                           "  static  linear static analysis K u = f with the loads at full value\n"
                           "  modes   natural frequencies and mode shapes (SLEPc): -modes_n K lowest, plus omega_max\n"
                           "  stability  Omega_max and rho(Omega) of a time stepper, computed from its own update\n"
                           "The case file is a YAML options file; options on the command line override it.\n";

typedef enum { MODE_RUN,
               MODE_STATIC,
               MODE_MODES } Mode;

/* flexure modes: table, /modes in the results file. */
static PetscErrorCode Modes(MPI_Comm comm, FlxModel model, FlxOutput out, const char cmdline[])
{
  FlxModes          md;
  FlxWriter         w;
  const char       *h5, *xdmf;
  const char *const other[] = {"static_", "ts_", NULL};

  PetscFunctionBegin;
  PetscCall(FlxModesCreate(model, &md));
  PetscCall(FlxModesSetFromOptions(md));
  PetscCall(FlxModesSolve(md));
  PetscCall(FlxOptionsCheckUnused(comm, other));
  PetscCall(FlxModesView(md, PETSC_VIEWER_STDOUT_(comm)));
  PetscCall(FlxOutputSetUp(out, model, NULL, cmdline));
  PetscCall(FlxOutputGetWriter(out, &w));
  PetscCall(FlxModesWrite(md, w));
  PetscCall(FlxOutputGetPath(out, &h5, &xdmf));
  PetscCall(PetscPrintf(comm, "flexure: modes written to %s (/modes; open %s in ParaView to step through the shapes)\n", h5, xdmf));
  PetscCall(FlxModesDestroy(&md));
  PetscFunctionReturn(0);
}

/* The objects of a run, also known to main(), which destroys them when Run fails: an error leaks nothing
   (scripts/sanitize). Run destroys them itself on success. */
typedef struct {
  FlxMesh    mesh;
  FlxModel   model;
  FlxStepper ts;
  FlxOutput  out;
  Vec        x, v;
} RunObjects;

static PetscErrorCode RunObjectsDestroy(RunObjects *o)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&o->x));
  PetscCall(VecDestroy(&o->v));
  PetscCall(FlxOutputDestroy(&o->out));
  PetscCall(FlxStepperDestroy(&o->ts));
  PetscCall(FlxModelDestroy(&o->model));
  PetscCall(FlxMeshDestroy(&o->mesh));
  PetscFunctionReturn(0);
}

static PetscErrorCode Run(MPI_Comm comm, Mode mode, const char cmdline[], PetscInt *exitcode, RunObjects *o)
{
  FlxMesh    mesh;
  FlxModel   model;
  FlxStepper ts = NULL;
  FlxOutput  out;
  FlxSystem  sys;
  PetscBool  help;
  Vec        x, v;

  PetscFunctionBegin;
  *exitcode = 0;
  PetscCall(PetscOptionsHasHelp(NULL, &help));
  PetscCall(FlxMeshCreate(comm, &mesh));
  o->mesh = mesh;
  PetscCall(FlxMeshSetFromOptions(mesh));
  PetscCall(FlxModelCreate(mesh, &model));
  o->model = model;
  PetscCall(FlxModelSetFromOptions(model));
  PetscCall(FlxStepperCreate(comm, &ts)); /* also in static runs, so a case file serves both */
  o->ts = ts;
  PetscCall(FlxStepperSetFromOptions(ts));
  PetscCall(FlxOutputCreate(comm, &out));
  o->out = out;
  PetscCall(FlxOutputSetFromOptions(out));
  if (help) PetscFunctionReturn(0);          /* main() destroys the objects */
  PetscCall(FlxOutputUseGroups(out, model)); /* probe groups are node sets */
  PetscCall(FlxMeshSetUp(mesh));
  PetscCall(FlxMeshView(mesh, PETSC_VIEWER_STDOUT_(comm)));
  PetscCall(FlxOutputSetUpProbes(out, mesh)); /* probe errors before the model's set-up */
  PetscCall(FlxModelSetUp(model));
  PetscCall(FlxModelView(model, PETSC_VIEWER_STDOUT_(comm)));
  PetscCall(FlxModelGetSystem(model, &sys));
  PetscCall(FlxModelCreateVector(model, &x));
  o->x = x;
  PetscCall(FlxModelCreateVector(model, &v));
  o->v = v;
  if (mode == MODE_MODES)
    PetscCall(Modes(comm, model, out, cmdline));
  else if (mode == MODE_STATIC) {
    FlxWriter   w;
    const char *h5;
    PetscCall(FlxModelSolveStatic(model, x));
    {
      const char *const other[] = {"ts_gcd_", "modes_", NULL};
      PetscCall(FlxOptionsCheckUnused(comm, other));
    }
    PetscCall(FlxOutputSetUp(out, model, NULL, cmdline));
    PetscCall(FlxOutputGetWriter(out, &w));
    {
      Vec xnat;
      PetscCall(FlxModelCreateNaturalVector(model, &xnat));
      PetscCall(FlxModelToNatural(model, x, xnat));
      PetscCall(FlxWriterWriteNodeField(w, "/static/displacement", xnat));
      PetscCall(VecDestroy(&xnat));
    }
    PetscCall(FlxModelWriteCellFields(model, w, FLX_LOADS_FULL, x)); /* element results with the loads at full value */
    PetscCall(FlxOutputPrintProbes(out, x));
    PetscCall(FlxOutputWriteStaticReactions(out, x));
    PetscCall(FlxOutputGetPath(out, &h5, NULL));
    PetscCall(PetscPrintf(comm, "flexure: static solution written to %s (/static)\n", h5));
  } else {
    FlxStepperConvergedReason reason;
    const char               *msg, *h5, *xdmf;
    PetscReal                 maxrel, peak, t;
    PetscInt                  steps;
    PetscLogDouble            wall0, wall1;
    PetscCall(FlxStepperSetSystem(ts, sys));
    PetscCall(FlxModelGetInitialConditions(model, x, v));
    PetscCall(FlxStepperSetInitialConditions(ts, 0.0, x, v));
    PetscCall(FlxStepperSetUp(ts));
    PetscCall(FlxStepperView(ts, PETSC_VIEWER_STDOUT_(comm)));
    PetscCall(FlxOutputSetUp(out, model, ts, cmdline));
    {
      const char *const other[] = {"static_", "modes_", NULL};
      PetscCall(FlxOptionsCheckUnused(comm, other));
    }
    PetscCall(PetscTime(&wall0));
    PetscCall(FlxStepperSolve(ts));
    PetscCall(PetscTime(&wall1));
    PetscCall(FlxStepperGetConvergedReason(ts, &reason, &msg));
    PetscCall(FlxStepperGetEnergyError(ts, &maxrel, &peak));
    PetscCall(FlxStepperGetTime(ts, &t, &steps));
    PetscCall(FlxOutputGetPath(out, &h5, &xdmf));
    if (reason < 0) {
      PetscCall(PetscFPrintf(comm, PETSC_STDERR, "flexure: error: %s. Results up to the last output are in %s\n", msg, h5));
      *exitcode = 2;
    } else {
      const char *type;
      PetscBool   gcd;
      PetscCall(FlxStepperGetDescription(ts, &type, NULL, 0));
      PetscCall(PetscStrcmp(type, FLXSTEPPERGCD, &gcd));
      PetscCall(PetscPrintf(comm, "flexure: done: %" PetscInt_FMT " steps to t = %g s in %.3f s of wall time; largest %s %.3e of the peak energy %.6e J\n", steps, (double)t, (double)(wall1 - wall0), gcd ? "energy balance error" : "numerical dissipation", (double)maxrel, (double)peak));
      PetscCall(PetscPrintf(comm, "flexure: results in %s (open %s in ParaView)\n", h5, xdmf));
    }
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&v));
  PetscCall(FlxOutputDestroy(&out));
  PetscCall(FlxStepperDestroy(&ts));
  PetscCall(FlxModelDestroy(&model));
  PetscCall(FlxMeshDestroy(&mesh));
  *o = (RunObjects){NULL, NULL, NULL, NULL, NULL, NULL};
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const char    *cmd = "run", *casefile = NULL;
  char         **nargv, cmdline[4096]   = "";
  int            nargc = 0, i = 1;
  PetscErrorCode ierr;
  PetscInt       exitcode = 0;
  PetscMPIInt    rank;

  if (argc > 1 && (!strcmp(argv[1], "run") || !strcmp(argv[1], "static") || !strcmp(argv[1], "modes") || !strcmp(argv[1], "stability"))) cmd = argv[i++];
  if (argc > i && argv[i][0] != '-') casefile = argv[i++];
  nargv          = (char **)malloc(sizeof(char *) * (argc + 3));
  nargv[nargc++] = argv[0];
  if (casefile) {
    size_t l       = strlen(casefile);
    int    yaml    = (l > 5 && !strcmp(casefile + l - 5, ".yaml")) || (l > 4 && !strcmp(casefile + l - 4, ".yml"));
    nargv[nargc++] = (char *)(yaml ? "-options_file_yaml" : "-options_file");
    nargv[nargc++] = (char *)casefile;
  }
  for (; i < argc; i++)
    nargv[nargc++] = argv[i];
  nargv[nargc] = NULL;
  for (int k = 0; k < argc; k++) {
    strncat(cmdline, argv[k], sizeof(cmdline) - strlen(cmdline) - 2);
    strncat(cmdline, " ", sizeof(cmdline) - strlen(cmdline) - 1);
  }
  PetscCall(SlepcInitialize(&nargc, &nargv, NULL, help));
  if (!strcmp(cmd, "modes")) PetscCall(PetscOptionsSetValue(NULL, "-model_allow_rigid_body", "1")); /* free structures have rigid-body modes */
  PetscCall(PetscPushErrorHandler(FlxErrorHandler, NULL));
  if (!strcmp(cmd, "stability")) {
    ierr = FlxStabilityCommand(PETSC_COMM_WORLD);
    if (!ierr) ierr = FlxOptionsCheckUnused(PETSC_COMM_WORLD, NULL);
  } else {
    RunObjects o = {NULL, NULL, NULL, NULL, NULL, NULL};
    ierr         = Run(PETSC_COMM_WORLD, !strcmp(cmd, "static") ? MODE_STATIC : !strcmp(cmd, "modes") ? MODE_MODES
                                                                                                      : MODE_RUN,
                       cmdline, &exitcode, &o);
    if (ierr) PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); /* keep the first message */
    if (RunObjectsDestroy(&o) && !ierr) ierr = PETSC_ERR_LIB;                  /* after an error (or -help) */
    if (ierr) PetscCall(PetscPopErrorHandler());
  }
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (ierr) {
    if (rank == 0) fprintf(stderr, "flexure: error: %s\n", FlxErrorGetMessage());
    exitcode = ierr == PETSC_ERR_FILE_WRITE ? 3 : 1; /* 3: I/O or system failure (a full disk) */
  }
  PetscPopErrorHandler();
  if (SlepcFinalize()) exitcode = exitcode ? exitcode : 1;
  free(nargv);
  return (int)exitcode;
}
