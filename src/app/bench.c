/* flexure-bench: cost of an explicit step against one stiffness MatMult and the memory bandwidth.
   Usage (scripts/bench runs it): mpirun -np P flexure-bench -mesh_generate tower ... [-bench_steps N]
   -bench_nonlinear: a second model of the same mesh with -model_geometry nonlinear (co-rotational beams), timed in
   the same process, interleaved with the linear one (-bench_nonlinear_reps repetitions of -bench_steps steps each,
   medians reported), and the heap each model and its stepper hold, per DOF. */
#include <flexure/flexure.h>
#include <sys/resource.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

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

/* Heap in use summed over the ranks (bytes; glibc's mallinfo2: arena and mmapped blocks; 0 elsewhere). */
static PetscErrorCode HeapInUse(MPI_Comm comm, PetscReal *bytes)
{
  PetscReal loc = 0;

  PetscFunctionBegin;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  {
    struct mallinfo2 mi = mallinfo2();
    loc                 = (PetscReal)mi.uordblks + (PetscReal)mi.hblkhd;
  }
#endif
  PetscCallMPI(MPI_Allreduce(&loc, bytes, 1, MPIU_REAL, MPI_SUM, comm));
  PetscFunctionReturn(0);
}

static int CompareReal(const void *a, const void *b)
{
  PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return x < y ? -1 : (x > y ? 1 : 0);
}

static PetscReal Median(PetscInt n, const PetscReal v[])
{
  PetscReal w[64];

  n = PetscMin(n, 64);
  for (PetscInt i = 0; i < n; i++)
    w[i] = v[i];
  qsort(w, n, sizeof(PetscReal), CompareReal);
  return n % 2 ? w[n / 2] : 0.5 * (w[n / 2 - 1] + w[n / 2]);
}

/* A stepper on sys with the current options, at rest at t = 0, set up; dt > 0 imposes the step. */
static PetscErrorCode NewStepper(MPI_Comm comm, FlxSystem sys, Vec x, Vec v, PetscReal dt, FlxStepper *ts)
{
  PetscFunctionBegin;
  PetscCall(FlxStepperCreate(comm, ts));
  PetscCall(FlxStepperSetFromOptions(*ts));
  if (dt > 0) PetscCall(FlxStepperSetTimeStep(*ts, dt));
  PetscCall(VecZeroEntries(x));
  PetscCall(VecZeroEntries(v));
  PetscCall(FlxStepperSetSystem(*ts, sys));
  PetscCall(FlxStepperSetInitialConditions(*ts, 0, x, v));
  PetscCall(FlxStepperSetUp(*ts));
  PetscFunctionReturn(0);
}

/* Wall time per step of a solve of steps steps from rest (the start-up included). */
static PetscErrorCode TimeSolve(MPI_Comm comm, FlxStepper ts, PetscInt steps, PetscReal *sec)
{
  PetscLogDouble            t0, t1;
  FlxStepperConvergedReason reason;
  const char               *msg;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t0));
  PetscCall(FlxStepperSolve(ts));
  PetscCallMPI(MPI_Barrier(comm));
  PetscCall(PetscTime(&t1));
  PetscCall(FlxStepperGetConvergedReason(ts, &reason, &msg));
  PetscCheck(reason > 0, comm, PETSC_ERR_NOT_CONVERGED, "the benchmark run did not complete: %s", msg);
  *sec = (t1 - t0) / steps;
  PetscFunctionReturn(0);
}

/* -bench_nonlinear: the same mesh as a second model with every section co-rotational (-model_geometry nonlinear),
   its explicit step timed against the linear model's (sysl; the same preset, the linear model's automatic step) in
   interleaved repetitions after a warm-up solve of each; f_int of both (tkm: the linear one); the heap each model
   (heapl: the linear one's set-up) and its stepper hold, per DOF; the process's peak RSS per DOF. */
static PetscErrorCode BenchNonlinear(MPI_Comm comm, FlxMesh mesh, FlxSystem sysl, Vec xl, Vec vl, PetscReal heapl, PetscInt steps, PetscInt reps, PetscReal tkm)
{
  FlxModel   mnl;
  FlxSystem  sys;
  FlxStepper tsl, ts;
  Vec        x, v, w;
  PetscReal  dt, h0, h1, h2, hsl, tfn, tfl, tl[64], tn[64], ratio[64], N, rss, rsstot, lmin, lmax, nmin, nmax, rmin, rmax, t;
  PetscInt   n;
  char       desc[256];

  PetscFunctionBegin;
  reps = PetscMax(1, PetscMin(reps, 64));
  PetscCall(HeapInUse(comm, &h0));
  PetscCall(NewStepper(comm, sysl, xl, vl, 0, &tsl));
  PetscCall(FlxStepperGetTimeStep(tsl, &dt));
  PetscCall(FlxStepperSetMaxTime(tsl, dt * steps));
  PetscCall(TimeSolve(comm, tsl, steps, &t)); /* warm-up */
  PetscCall(HeapInUse(comm, &h1));
  hsl = h1 - h0;
  PetscCall(HeapInUse(comm, &h0));
  PetscCall(PetscOptionsSetValue(NULL, "-model_geometry", "nonlinear"));
  PetscCall(FlxModelCreate(mesh, &mnl));
  PetscCall(FlxModelSetFromOptions(mnl));
  PetscCall(FlxModelSetUp(mnl));
  PetscCall(PetscOptionsClearValue(NULL, "-model_geometry"));
  PetscCall(HeapInUse(comm, &h1));
  PetscCall(FlxModelGetSystem(mnl, &sys));
  PetscCall(FlxModelCreateVector(mnl, &x));
  PetscCall(FlxModelCreateVector(mnl, &v));
  PetscCall(FlxModelCreateVector(mnl, &w));
  PetscCall(VecGetSize(x, &n));
  N = n;
  PetscCall(VecSet(x, 1e-3)); /* every node turned by 1.7e-3 rad: small local rotations (the SIMD lanes) */
  PetscCall(TimeOp(comm, 10, OpForce, sys, x, w, &tfn));
  PetscCall(VecSet(x, 0.25)); /* by 0.43 rad, the chords not: local rotations beyond the SIMD lanes' series */
  PetscCall(TimeOp(comm, 3, OpForce, sys, x, w, &tfl));
  PetscCall(NewStepper(comm, sys, x, v, dt, &ts));
  PetscCall(FlxStepperSetMaxTime(ts, dt * steps));
  PetscCall(FlxStepperGetDescription(ts, NULL, desc, sizeof(desc)));
  PetscCall(TimeSolve(comm, ts, steps, &t)); /* warm-up */
  PetscCall(HeapInUse(comm, &h2));
  for (PetscInt r = 0; r < reps; r++) { /* interleaved, the order alternating */
    if (r % 2 == 0) {
      PetscCall(TimeSolve(comm, tsl, steps, &tl[r]));
      PetscCall(TimeSolve(comm, ts, steps, &tn[r]));
    } else {
      PetscCall(TimeSolve(comm, ts, steps, &tn[r]));
      PetscCall(TimeSolve(comm, tsl, steps, &tl[r]));
    }
    ratio[r] = tn[r] / tl[r];
  }
  {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    rss = ru.ru_maxrss * 1024.0; /* kB on Linux */
    PetscCallMPI(MPI_Allreduce(&rss, &rsstot, 1, MPIU_REAL, MPI_SUM, comm));
  }
  lmin = lmax = tl[0];
  nmin = nmax = tn[0];
  rmin = rmax = ratio[0];
  for (PetscInt r = 1; r < reps; r++) {
    rmin = PetscMin(rmin, ratio[r]);
    rmax = PetscMax(rmax, ratio[r]);
    lmin = PetscMin(lmin, tl[r]);
    lmax = PetscMax(lmax, tl[r]);
    nmin = PetscMin(nmin, tn[r]);
    nmax = PetscMax(nmax, tn[r]);
  }
  PetscCall(PetscPrintf(comm, "bench: nonlinear: the same tower with -model_geometry nonlinear (co-rotational beams) beside the linear one: %s, dt %.4g s, %" PetscInt_FMT " interleaved repetitions of %" PetscInt_FMT " steps from rest\n", desc, (double)dt, reps, steps));
  PetscCall(PetscPrintf(comm, "bench: nonlinear: f_int %.2f ns/DOF at small local rotations (the SIMD lanes), %.2f ns/DOF at local rotations of 0.43 rad (the general kernel); linear K x %.2f ns/DOF\n", (double)(tfn / N * 1e9), (double)(tfl / N * 1e9), (double)(tkm / N * 1e9)));
  PetscCall(PetscPrintf(comm, "bench: nonlinear: step linear %.2f ns/DOF (%.2f..%.2f), co-rotational %.2f ns/DOF (%.2f..%.2f): medians (ranges); ratio %.2f (median of the repetitions' ratios, %.2f..%.2f)\n", (double)(Median(reps, tl) / N * 1e9), (double)(lmin / N * 1e9), (double)(lmax / N * 1e9), (double)(Median(reps, tn) / N * 1e9), (double)(nmin / N * 1e9), (double)(nmax / N * 1e9), (double)Median(reps, ratio), (double)rmin, (double)rmax));
  PetscCall(PetscPrintf(comm, "bench: nonlinear: heap per DOF: linear model %.0f B, its stepper %.0f B (total %.0f B); nonlinear model %.0f B, its stepper %.0f B (total %.0f B); peak RSS per DOF of the process (mesh, both models) %.0f B\n", (double)(heapl / N), (double)(hsl / N), (double)((heapl + hsl) / N), (double)((h1 - h0) / N), (double)((h2 - h1) / N), (double)((h2 - h0) / N), (double)(rsstot / N)));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&w));
  PetscCall(FlxStepperDestroy(&ts));
  PetscCall(FlxStepperDestroy(&tsl));
  PetscCall(FlxModelDestroy(&mnl));
  PetscFunctionReturn(0);
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
  PetscBool      set, nonlinear = PETSC_FALSE;
  PetscReal      tfirst  = 1, heap0, heap1;
  PetscInt       nlsteps = 100, nlreps = 7;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscOptionsBegin(comm, NULL, "Benchmark", "flexure-bench");
  PetscCall(PetscOptionsInt("-bench_steps", "Explicit steps timed", "", steps, &steps, NULL));
  PetscCall(PetscOptionsInt("-bench_reps", "Repetitions of each product", "", reps, &reps, NULL));
  PetscCall(PetscOptionsStringArray("-bench_presets", "GCD presets timed one after the other (default gcd3)", "", presets, &npre, &set));
  PetscCall(PetscOptionsBool("-bench_nonlinear", "Also time the model with -model_geometry nonlinear (co-rotational beams) against the linear one, interleaved in this process (the first preset)", "", nonlinear, &nonlinear, NULL));
  PetscCall(PetscOptionsInt("-bench_nonlinear_steps", "Steps of each timed solve of the linear-nonlinear comparison", "", nlsteps, &nlsteps, NULL));
  PetscCall(PetscOptionsInt("-bench_nonlinear_reps", "Interleaved repetitions of the linear-nonlinear comparison (at most 64; medians reported)", "", nlreps, &nlreps, NULL));
  PetscOptionsEnd();
  if (nonlinear) PetscCall(PetscOptionsSetValue(NULL, "-model_geometry", "linear")); /* the reference: the linear model */
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
  PetscCall(HeapInUse(comm, &heap0));
  PetscCall(FlxModelSetUp(model));
  PetscCall(HeapInUse(comm, &heap1));
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
  if (nonlinear) {
    PetscCall(PetscOptionsSetValue(NULL, "-ts_gcd_preset", presets[0]));
    PetscCall(BenchNonlinear(comm, mesh, sys, x, v, heap1 - heap0, nlsteps, nlreps, tkm));
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
