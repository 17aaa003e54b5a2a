/* flexure-tsalpha2: the same model through PETSc's TSALPHA2, for verification and benchmarks.

   Usage: mpirun -np P flexure-tsalpha2 CASE.yaml -tsalpha2_dt H -tsalpha2_steps N [-tsalpha2_radius R]
          [-tsalpha2_probe_node n -tsalpha2_probe_dof d -tsalpha2_output FILE.csv] [-alpha2_ksp_* -alpha2_pc_*]

   The model (mesh, sections, loads, constraints, Rayleigh damping) is flexure's; TSALPHA2 sees it through
   TSSetI2Function / TSSetI2Jacobian:
     F(t, U, V, A) = M A + C V + K U - f_ext(t)            (free DOFs; prescribed: d U)
     J = dF/dU + shift_V dF/dV + shift_A dF/dA = K + shift_V C + shift_A M, rebuilt at every Jacobian call
   as a TSALPHA2 user would. Conventions: PETSc's alpha_m, alpha_f weight the NEW state, flexure's
   (Chung-Hulbert, time-integration.md section 2) the old one, so PETSc gets 1 - alpha_m, 1 - alpha_f.

   Start: TSALPHA2 estimates the initial acceleration with two half backward-Euler steps (TSAlpha_Restart);
   flexure uses the consistent one. For the comparison the restart is skipped (private TS field
   steprestart) and both start from the same a_0 = 0, which is exact for a model at rest with f_ext(0) = 0
   (use a ramp). TSALPHA2 also evaluates f_ext at t_n + alpha_f h instead of weighting f_ext(t_n) and
   f_ext(t_{n+1}): the same for loads linear over each step (a ramp whose corner falls on a step). */
#include <flexure/flexure.h>
#include <slepcsys.h>
#include <petsc/private/tsimpl.h>

static const char help[] = "flexure-tsalpha2: a flexure model integrated by PETSc TSALPHA2 (verification, benchmarks).\n";

typedef struct {
  FlxModel       model;
  FlxSystem      sys;
  Mat            K, Kaij, Cd, Cdaij; /* Cd: discrete dampers (NULL: none) */
  Vec            mass, free, w, f;
  PetscReal      aM, bK, diag;
  IS             fixed;
  PetscInt       probe; /* global DOF or -1 */
  FILE          *out;
  PetscLogDouble t0, tfirst, tlast;
  PetscInt       nsteps;
} Ctx;

static PetscErrorCode I2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ptr)
{
  Ctx *c = (Ctx *)ptr;

  PetscFunctionBegin;
  PetscCall(VecWAXPY(c->w, c->bK, V, U)); /* K (U + bK V) */
  PetscCall(MatMult(c->K, c->w, F));
  if (c->Cd) PetscCall(MatMultAdd(c->Cd, V, F, F));
  PetscCall(VecWAXPY(c->w, c->aM, V, A)); /* M (A + aM V) */
  PetscCall(VecPointwiseMult(c->w, c->w, c->mass));
  PetscCall(VecAXPY(F, 1.0, c->w));
  PetscCall(FlxSystemComputeExternalForce(c->sys, t, c->f));
  PetscCall(VecAXPY(F, -1.0, c->f));
  PetscCall(VecPointwiseMult(F, F, c->free));
  { /* prescribed DOFs: F = d U */
    const PetscScalar *fr, *u;
    PetscScalar       *fa;
    PetscInt           n;
    PetscCall(VecGetLocalSize(F, &n));
    PetscCall(VecGetArrayRead(c->free, &fr));
    PetscCall(VecGetArrayRead(U, &u));
    PetscCall(VecGetArray(F, &fa));
    for (PetscInt i = 0; i < n; i++)
      if (PetscRealPart(fr[i]) < 0.5) fa[i] = c->diag * u[i];
    PetscCall(VecRestoreArray(F, &fa));
    PetscCall(VecRestoreArrayRead(U, &u));
    PetscCall(VecRestoreArrayRead(c->free, &fr));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal sV, PetscReal sA, Mat J, Mat P, void *ptr)
{
  Ctx *c = (Ctx *)ptr;

  PetscFunctionBegin;
  PetscCall(MatCopy(c->Kaij, P, SAME_NONZERO_PATTERN));
  PetscCall(MatScale(P, 1 + sV * c->bK));
  if (c->Cdaij) PetscCall(MatAXPY(P, sV, c->Cdaij, SUBSET_NONZERO_PATTERN));
  PetscCall(VecCopy(c->mass, c->w));
  PetscCall(VecScale(c->w, sA + sV * c->aM));
  PetscCall(MatDiagonalSet(P, c->w, ADD_VALUES));
  PetscCall(MatZeroRowsColumnsIS(P, c->fixed, c->diag, NULL, NULL));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* With SNESKSPONLY (one linear solve, the natural choice for a linear model) PETSc 3.18 does not evaluate
   the residual at the solution, and TSALPHA2 then takes its new velocity and acceleration from the stage
   vectors of the last evaluation, at the initial guess: the results are wrong (measured: 98% off on the
   cantilever). One residual evaluation after the solve refreshes them (one extra MatMult per step). */
static PetscErrorCode PostStage(TS ts, PetscReal t, PetscInt i, Vec *Y)
{
  SNES snes;
  Vec  x, f;

  PetscFunctionBegin;
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESGetSolution(snes, &x));
  PetscCall(SNESGetFunction(snes, &f, NULL, NULL));
  PetscCall(SNESComputeFunction(snes, x, f));
  PetscFunctionReturn(0);
}

/* Skip TSALPHA2's backward-Euler restart: start from the consistent a_0 = 0 (see the header). */
static PetscErrorCode PreStep(TS ts)
{
  PetscFunctionBegin;
  if (ts->steps == 0) ts->steprestart = PETSC_FALSE;
  PetscFunctionReturn(0);
}

static PetscErrorCode Monitor(TS ts, PetscInt step, PetscReal t, Vec U, void *ptr)
{
  Ctx           *c = (Ctx *)ptr;
  PetscReal      v = 0, g;
  PetscInt       lo, hi;
  PetscLogDouble now;
  MPI_Comm       comm;

  PetscFunctionBegin;
  PetscCall(PetscTime(&now));
  if (step == 1) c->tfirst = now - c->t0;
  c->tlast  = now;
  c->nsteps = step;
  PetscCall(PetscObjectGetComm((PetscObject)ts, &comm));
  if (c->probe >= 0) {
    PetscCall(VecGetOwnershipRange(U, &lo, &hi));
    if (c->probe >= lo && c->probe < hi) {
      const PetscScalar *u;
      PetscCall(VecGetArrayRead(U, &u));
      v = PetscRealPart(u[c->probe - lo]);
      PetscCall(VecRestoreArrayRead(U, &u));
    }
    PetscCallMPI(MPI_Reduce(&v, &g, 1, MPIU_REAL, MPI_SUM, 0, comm));
    if (c->out) fprintf(c->out, "%.17g %.17g\n", (double)t, (double)g);
  }
  PetscFunctionReturn(0);
}

/* Refuse misspelled options; let through the options of a flexure run (-ts_, -output_, -probe_, -modes_, -static_,
   -stability_) that a case file shared with flexure carries and this tool does not read (its own are -tsalpha2_ and
   -alpha2_), but not when given on the command line (argv), where this tool would ignore them. Collective. */
static PetscErrorCode CheckUnused(MPI_Comm comm, int argc, char **argv)
{
  const char *const skip[] = {"ts_", "output_", "probe_", "modes_", "static_", "stability_"};
  PetscInt          N;
  char            **names, **values;

  PetscFunctionBegin;
  PetscCall(PetscOptionsLeftGet(NULL, &N, &names, &values));
  for (PetscInt i = 0; i < N; i++)
    for (size_t k = 0; k < sizeof(skip) / sizeof(skip[0]); k++)
      if (!strncmp(names[i], skip[k], strlen(skip[k]))) {
        PetscBool given = PETSC_FALSE;
        for (int j = 1; j < argc && !given; j++)
          given = (PetscBool)(argv[j][0] == '-' && !strcasecmp(argv[j] + 1, names[i]));
        if (given) continue;
        char      opt[256];
        PetscBool flg;
        PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%s", names[i]));
        PetscCall(PetscOptionsHasName(NULL, NULL, opt, &flg)); /* marks it used */
      }
  PetscCall(PetscOptionsLeftRestore(NULL, &N, &names, &values));
  PetscCall(FlxOptionsCheckUnused(comm, NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode Run(MPI_Comm comm, int argc, char **argv)
{
  FlxMesh      mesh;
  Ctx          c = {0};
  TS           ts;
  SNES         snes;
  KSP          ksp;
  PC           pc;
  Mat          J;
  Vec          U, V;
  MatNullSpace nsp;
  PetscReal    h = 1e-4, r = 0.8, am, af, be, ga;
  PetscInt     steps = 100, node = -1, dof = 1;
  char         path[PETSC_MAX_PATH_LEN] = "";
  PetscBool    restart                  = PETSC_FALSE;
  PetscMPIInt  rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscOptionsBegin(comm, NULL, "flexure-tsalpha2", NULL);
  PetscCall(PetscOptionsReal("-tsalpha2_dt", "Time step", NULL, h, &h, NULL));
  PetscCall(PetscOptionsInt("-tsalpha2_steps", "Number of steps", NULL, steps, &steps, NULL));
  PetscCall(PetscOptionsReal("-tsalpha2_radius", "rho_inf of generalized-alpha", NULL, r, &r, NULL));
  PetscCall(PetscOptionsInt("-tsalpha2_probe_node", "Natural node recorded every step", NULL, node, &node, NULL));
  PetscCall(PetscOptionsInt("-tsalpha2_probe_dof", "DOF of that node (0..5)", NULL, dof, &dof, NULL));
  PetscCall(PetscOptionsString("-tsalpha2_output", "CSV file of (t, value) of the probe", NULL, path, path, sizeof(path), NULL));
  PetscCall(PetscOptionsBool("-tsalpha2_restart", "Keep TSALPHA2's own start (backward-Euler estimate of a_0)", NULL, restart, &restart, NULL));
  PetscOptionsEnd();
  PetscCall(FlxMeshCreate(comm, &mesh));
  PetscCall(FlxMeshSetFromOptions(mesh));
  PetscCall(FlxModelCreate(mesh, &c.model));
  PetscCall(FlxModelSetFromOptions(c.model));
  PetscCall(FlxMeshSetUp(mesh));
  PetscCall(FlxModelSetUp(c.model));
  PetscCall(FlxModelGetSystem(c.model, &c.sys));
  PetscCall(FlxSystemGetMass(c.sys, &c.mass, &c.free));
  PetscCall(FlxSystemGetRayleigh(c.sys, &c.aM, &c.bK));
  PetscCall(FlxModelGetStiffness(c.model, &c.K));
  PetscCall(MatConvert(c.K, MATAIJ, MAT_INITIAL_MATRIX, &c.Kaij));
  PetscCall(FlxSystemGetDampingMatrix(c.sys, &c.Cd, NULL));
  if (c.Cd) PetscCall(MatConvert(c.Cd, MATAIJ, MAT_INITIAL_MATRIX, &c.Cdaij));
  PetscCall(VecDuplicate(c.mass, &c.w));
  PetscCall(VecDuplicate(c.mass, &c.f));
  PetscCall(VecDuplicate(c.mass, &U));
  PetscCall(VecDuplicate(c.mass, &V));
  PetscCall(FlxModelGetInitialConditions(c.model, U, V));
  { /* prescribed DOFs and the diagonal scale of their identity rows */
    PetscInt N;
    PetscCall(FlxSystemCreatePrescribedIS(c.sys, &c.fixed));
    PetscCall(MatGetDiagonal(c.Kaij, c.w));
    PetscCall(VecNorm(c.w, NORM_1, &c.diag));
    PetscCall(VecGetSize(c.w, &N));
    c.diag /= N;
  }
  c.probe = -1;
  if (node >= 0) PetscCall(FlxModelNaturalDof(c.model, node, dof, &c.probe));
  {
    PetscBool bad = PETSC_FALSE;
    char      msg[PETSC_MAX_PATH_LEN + 32];
    if (path[0] && rank == 0) {
      c.out = fopen(path, "w");
      bad   = c.out ? PETSC_FALSE : PETSC_TRUE;
    }
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "cannot write %s (-tsalpha2_output)", path));
    PetscCall(FlxCheckCollective(comm, bad, PETSC_ERR_FILE_OPEN, msg));
  }
  PetscCheck(r >= 0 && r <= 1, comm, PETSC_ERR_USER_INPUT, "-tsalpha2_radius %g: use rho_inf in [0, 1]", (double)r);
  if (!restart) { /* the skipped restart assumes a_0 = 0: a model at rest with no load at t0 */
    PetscReal nf, nu, nv;
    PetscCall(FlxSystemComputeExternalForce(c.sys, 0, c.f));
    PetscCall(VecPointwiseMult(c.f, c.f, c.free));
    PetscCall(VecNorm(c.f, NORM_INFINITY, &nf));
    PetscCall(VecNorm(U, NORM_INFINITY, &nu));
    PetscCall(VecNorm(V, NORM_INFINITY, &nv));
    PetscCheck(nf == 0 && nu == 0 && nv == 0, comm, PETSC_ERR_USER_INPUT, "flexure-tsalpha2 starts from a_0 = 0, which needs a model at rest with no load at t = 0 (here |f_ext(0)| %g, |x0| %g, |v0| %g): ramp the load from zero, or give -tsalpha2_restart for TSALPHA2's own start", (double)nf, (double)nu, (double)nv);
  }
  PetscCall(MatDuplicate(c.Kaij, MAT_DO_NOT_COPY_VALUES, &J));
  PetscCall(FlxSystemGetNearNullSpace(c.sys, &nsp));
  if (nsp) PetscCall(MatSetNearNullSpace(J, nsp));
  PetscCall(MatSetOption(J, MAT_SPD, PETSC_TRUE));

  PetscCall(TSCreate(comm, &ts));
  PetscCall(TSSetOptionsPrefix(ts, "alpha2_"));
  PetscCall(TSSetType(ts, TSALPHA2));
  am = (2 * r - 1) / (r + 1); /* Chung-Hulbert (flexure) */
  af = r / (r + 1);
  ga = 0.5 - am + af;
  be = (1 - am + af) * (1 - am + af) / 4;
  PetscCall(TSAlpha2SetParams(ts, 1 - am, 1 - af, ga, be)); /* PETSc convention */
  PetscCall(TSSetI2Function(ts, NULL, I2Function, &c));
  PetscCall(TSSetI2Jacobian(ts, J, J, I2Jacobian, &c));
  PetscCall(TS2SetSolution(ts, U, V));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxSteps(ts, steps));
  PetscCall(TSSetMaxTime(ts, 1e30));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESSetType(snes, SNESKSPONLY));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPCG));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCGAMG));
  PetscCall(KSPSetTolerances(ksp, 1e-10, 1e-300, PETSC_DEFAULT, 10000));
  if (!restart) PetscCall(TSSetPreStep(ts, PreStep));
  PetscCall(TSSetPostStage(ts, PostStage));
  PetscCall(TSMonitorSet(ts, Monitor, &c, NULL));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(PetscTime(&c.t0));
  PetscCall(TSSolve(ts, U));
  PetscCall(CheckUnused(comm, argc, argv)); /* after the solve: PETSc reads some of its -alpha2_ options lazily */
  {
    PetscInt kits;
    PetscCall(TSGetKSPIterations(ts, &kits));
    PetscCall(PetscPrintf(comm, "tsalpha2: %" PetscInt_FMT " steps of %g s (rho_inf %g: PETSc alpha_m %g, alpha_f %g, gamma %g, beta %g); first step %.4f s (set-up included), then %.6g s per step; KSP iterations %.2f per step\n", c.nsteps, (double)h, (double)r, (double)(1 - am), (double)(1 - af), (double)ga, (double)be, (double)c.tfirst,
                          (double)(c.nsteps > 1 ? (c.tlast - c.t0 - c.tfirst) / (c.nsteps - 1) : 0), (double)kits / PetscMax(c.nsteps, 1)));
  }
  if (c.out) fclose(c.out);
  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&J));
  PetscCall(MatDestroy(&c.Kaij));
  PetscCall(MatDestroy(&c.Cdaij));
  PetscCall(ISDestroy(&c.fixed));
  PetscCall(VecDestroy(&U));
  PetscCall(VecDestroy(&V));
  PetscCall(VecDestroy(&c.w));
  PetscCall(VecDestroy(&c.f));
  PetscCall(FlxModelDestroy(&c.model));
  PetscCall(FlxMeshDestroy(&mesh));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char   **nargv;
  int      nargc = 0;
  int      code;
  MPI_Comm agree; /* the exit agreement's own communicator */

  nargv          = (char **)malloc(sizeof(char *) * (argc + 3));
  nargv[nargc++] = argv[0];
  for (int i = 1; i < argc; i++) {
    size_t l = strlen(argv[i]);
    if (i == 1 && argv[i][0] != '-' && l > 5 && !strcmp(argv[i] + l - 5, ".yaml")) nargv[nargc++] = (char *)"-options_file_yaml";
    nargv[nargc++] = argv[i];
  }
  nargv[nargc] = NULL;
  PetscCall(SlepcInitialize(&nargc, &nargv, NULL, help));
  MPI_Comm_dup(PETSC_COMM_WORLD, &agree);
  PetscCall(PetscPushErrorHandler(FlxErrorHandler, NULL));
  code = FlxExitAgreed(agree, "flexure-tsalpha2", Run(PETSC_COMM_WORLD, nargc, nargv));
  MPI_Comm_free(&agree);
  PetscPopErrorHandler();
  PetscCall(SlepcFinalize());
  free(nargv);
  return code;
}
