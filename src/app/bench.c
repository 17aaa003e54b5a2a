/* flexure-bench: cost of an explicit step against one stiffness MatMult and the memory bandwidth.
   Usage (scripts/bench runs it): mpirun -np P flexure-bench -mesh_generate tower ... [-bench_steps N] */
#include <flexure/flexure.h>

static const char help[] = "flexure-bench: ns per DOF of an explicit step, of one MatMult and of a STREAM triad.\n";

/* STREAM-like triad a = b + s c over n doubles per rank; returns the aggregate bandwidth in GB/s
   (24 bytes per entry: two reads and one write). */
static PetscErrorCode Triad(MPI_Comm comm, PetscInt n, PetscReal *gbs)
{
  PetscReal     *a, *b, *c, best = 1e30;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(n, &a, n, &b, n, &c));
  for (PetscInt i = 0; i < n; i++)
    a[i] = 0, b[i] = 1, c[i] = 2;
  for (int rep = 0; rep < 10; rep++) {
    PetscReal dt;
    PetscCallMPI(MPI_Barrier(comm));
    PetscCall(PetscTime(&t0));
    for (PetscInt i = 0; i < n; i++)
      a[i] = b[i] + 3.0 * c[i];
    PetscCallMPI(MPI_Barrier(comm));
    PetscCall(PetscTime(&t1));
    dt   = t1 - t0;
    best = PetscMin(best, dt);
    b[rep] += a[n - 1 - rep];
  }
  {
    PetscReal loc = 24.0 * n, tot;
    PetscCallMPI(MPI_Allreduce(&loc, &tot, 1, MPIU_REAL, MPI_SUM, comm));
    *gbs = tot / best / 1e9;
  }
  PetscCall(PetscFree3(a, b, c));
  PetscFunctionReturn(0);
}

static PetscErrorCode TimeOp(MPI_Comm comm, PetscInt reps, PetscErrorCode (*op)(void *, Vec, Vec), void *ctx, Vec x, Vec y, PetscReal *sec)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(op(ctx, x, y));
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < reps; k++)
    PetscCall(op(ctx, x, y));
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t1));
  *sec = (t1 - t0) / reps;
  PetscFunctionReturn(0);
}

static PetscErrorCode OpMatMult(void *ctx, Vec x, Vec y)
{
  return MatMult((Mat)ctx, x, y);
}

static PetscErrorCode OpForce(void *ctx, Vec x, Vec y)
{
  return FlxSystemComputeInternalForce((FlxSystem)ctx, 0, x, x, y);
}

int main(int argc, char **argv)
{
  MPI_Comm       comm;
  FlxMesh        mesh;
  FlxModel       model;
  FlxStepper     ts;
  FlxSystem      sys;
  Mat            K;
  Vec            x, v;
  PetscInt       steps = 200, reps = 50, N, nloc;
  PetscReal      gbs = 0, tmm, tkm, tstep, bytes, nnzb;
  PetscLogDouble t0, t1;
  PetscMPIInt    size;
  MatInfo        info;
  char           desc[256], *presets[16];
  PetscInt       npre = 16;
  PetscBool      set;
  PetscReal      tfirst = 1;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscOptionsBegin(comm, NULL, "Benchmark", "flexure-bench");
  PetscCall(PetscOptionsInt("-bench_steps", "Explicit steps timed", "", steps, &steps, NULL));
  PetscCall(PetscOptionsInt("-bench_reps", "Repetitions of each product", "", reps, &reps, NULL));
  PetscCall(PetscOptionsStringArray("-bench_presets", "GCD presets timed one after the other (default gcd3)", "", presets, &npre, &set));
  PetscOptionsEnd();
  if (!set) {
    npre = 1;
    PetscCall(PetscStrallocpy("gcd3", &presets[0]));
  }
  PetscCall(FlxMeshCreate(comm, &mesh));
  PetscCall(FlxMeshSetFromOptions(mesh));
  PetscCall(FlxModelCreate(mesh, &model));
  PetscCall(FlxModelSetFromOptions(model));
  PetscCall(FlxStepperCreate(comm, &ts));
  PetscCall(FlxStepperSetFromOptions(ts));
  PetscCall(PetscTime(&t0));
  PetscCall(FlxMeshSetUp(mesh));
  PetscCall(FlxMeshView(mesh, PETSC_VIEWER_STDOUT_(comm)));
  PetscCall(FlxModelSetUp(model));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscPrintf(comm, "set-up (mesh, partition, assembly, checks): %.2f s\n", t1 - t0));
  PetscCall(FlxModelGetSystem(model, &sys));
  PetscCall(FlxModelGetStiffness(model, &K));
  PetscCall(FlxModelCreateVector(model, &x));
  PetscCall(FlxModelCreateVector(model, &v));
  PetscCall(VecGetSize(x, &N));
  PetscCall(VecGetLocalSize(x, &nloc));
  PetscCall(VecSet(x, 1e-3));
  PetscCall(MatGetInfo(K, MAT_GLOBAL_SUM, &info));
  nnzb = info.nz_used / 36;
  PetscCall(Triad(comm, 4 * nloc, &gbs));
  PetscCall(TimeOp(comm, reps, OpMatMult, K, x, v, &tmm));
  PetscCall(TimeOp(comm, reps, OpForce, sys, x, v, &tkm));
  { /* the two products must agree */
    Vec       w;
    PetscReal nd, nv;
    PetscCall(VecDuplicate(x, &w));
    PetscCall(VecSetRandom(x, NULL));
    PetscCall(MatMult(K, x, w));
    PetscCall(OpForce(sys, x, v));
    PetscCall(VecNorm(w, NORM_INFINITY, &nv));
    PetscCall(VecAXPY(w, -1.0, v));
    PetscCall(VecNorm(w, NORM_INFINITY, &nd));
    PetscCall(PetscPrintf(comm, "bench: |PETSc K x - flexure K x| / |K x| = %.2e\n", (double)(nd / nv)));
    PetscCall(VecDestroy(&w));
  }
  /* compulsory traffic of a step: the matrix (36 values + 1 index per block) and about 11 vector streams */
  bytes = nnzb * (36 * 8 + 4) + 11.0 * 8 * N;
  PetscCall(PetscPrintf(comm, "bench: ranks %d, DOFs %" PetscInt_FMT ", blocks %.0f\n", size, N, (double)nnzb));
  PetscCall(PetscPrintf(comm, "bench: triad %.2f GB/s -> bandwidth bound of a step %.2f ns/DOF (%.0f bytes/DOF)\n", (double)gbs, (double)(bytes / (gbs * 1e9) / N * 1e9), (double)(bytes / N)));
  PetscCall(PetscPrintf(comm, "bench: PETSc MatMult %.2f ns/DOF; flexure K x (deterministic order) %.2f ns/DOF\n", (double)(tmm / N * 1e9), (double)(tkm / N * 1e9)));
  for (PetscInt k = 0; k < npre; k++) { /* every stepper on the same model, one after the other */
    PetscCall(PetscOptionsSetValue(NULL, "-ts_gcd_preset", presets[k]));
    PetscCall(FlxStepperDestroy(&ts));
    PetscCall(FlxStepperCreate(comm, &ts));
    PetscCall(FlxStepperSetFromOptions(ts));
    PetscCall(VecZeroEntries(x));
    PetscCall(VecZeroEntries(v));
    PetscCall(FlxStepperSetSystem(ts, sys));
    PetscCall(FlxStepperSetInitialConditions(ts, 0, x, v));
    PetscCall(FlxStepperSetUp(ts));
    PetscCall(FlxStepperGetDescription(ts, NULL, desc, sizeof(desc)));
    {
      PetscReal dt;
      PetscCall(FlxStepperGetTimeStep(ts, &dt));
      PetscCall(FlxStepperSetMaxTime(ts, dt * steps));
    }
    PetscCallMPI(MPI_Barrier(comm));
    PetscCall(PetscTime(&t0));
    PetscCall(FlxStepperSolve(ts));
    PetscCallMPI(MPI_Barrier(comm));
    PetscCall(PetscTime(&t1));
    tstep = (t1 - t0) / steps;
    {
      FlxStepperConvergedReason reason;
      const char               *msg;
      PetscCall(FlxStepperGetConvergedReason(ts, &reason, &msg));
      PetscCheck(reason > 0, comm, PETSC_ERR_NOT_CONVERGED, "the benchmark run did not complete: %s", msg);
    }
    if (k == 0) tfirst = tstep;
    PetscCall(PetscPrintf(comm, "bench: %-10s step %7.2f ns/DOF = %.3f x MatMult = %.3f x %s step (%s)\n", presets[k], (double)(tstep / N * 1e9), (double)(tstep / tmm), (double)(tstep / tfirst), presets[0], desc));
  }
  for (PetscInt k = 0; k < npre; k++)
    PetscCall(PetscFree(presets[k]));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&v));
  PetscCall(FlxStepperDestroy(&ts));
  PetscCall(FlxModelDestroy(&model));
  PetscCall(FlxMeshDestroy(&mesh));
  PetscCall(PetscFinalize());
  return 0;
}
