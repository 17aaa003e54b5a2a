/* flexure-bench: the explicit step against the memory floor (docs/methods.md, "Performance").
   Usage (scripts/bench runs it): mpirun -np P flexure-bench -mesh_generate tower|plate ... [-bench_reps R]
   In one process, R interleaved repetitions (the order of the items rotating) of: a STREAM-like triad, PETSc's
   MatMult of the assembled K, flexure's deterministic product with the assembled K, the element loop (the linear
   cells of the model), the explicit steps of each preset (-bench_presets, -bench_steps steps from rest per timed
   solve) and, with -bench_nonlinear, the same mesh as a co-rotational model (its f_int and its first preset's step).
   Medians and ranges of ns per DOF and of each repetition's ratios; the roofline of each kernel: the bytes it must
   move against the triad's bandwidth, and (element loop) its time with its data in cache, the compute bound, both
   measured in every repetition (items of their own), so that each repetition's bound is of that repetition's machine.
   A read stream (one array summed) says what one stream of reads draws beside the triad's two reads and a write.
   With -bench_scaling on P > 1 ranks, the triad, the element loop, its time in cache and the first preset's step are
   also timed on rank 0 alone (the same mesh set up on a one-process communicator, the other ranks waiting), in one
   block with their P-rank partners in every repetition: the speed-up of each against the triad's own and against its
   roofline bound's, repetition by repetition, in one process. The triad's arrays: at least -bench_triad_mb (256 MB)
   each over all ranks (STREAM's rule). */
#include <flexure/flexure.h>
#include <slepcsys.h>

static const char help[] = "flexure-bench: ns per DOF of the explicit step, of the internal force's paths and of a STREAM triad, interleaved.\n";

#define MAXREP 64
#define MAXITEM 24 /* 8 presets, 4 products, the triad, the read stream and the in-cache loop, 2 co-rotational, 4 one-rank */

typedef enum {
  IT_TRIAD,
  IT_MATMULT,
  IT_ASSEMBLED,
  IT_ELEMENTS,
  IT_STEP,
  IT_NLFORCE,
  IT_NLSTEP,
  IT_INCACHE, /* the element loop with its data in cache (its compute bound): seconds per product */
  IT_READ     /* one array of the triad's size summed */
} ItemKind;

typedef struct {
  ItemKind   kind;
  char       name[64];
  FlxStepper ts;        /* steps */
  PetscInt   degree;    /* steps: the GCD degree */
  PetscBool  single;    /* timed on rank 0 alone (-bench_scaling) */
  PetscInt   ref;       /* the co-rotational step: the item of the linear step with its preset */
  PetscReal  t[MAXREP]; /* seconds per product, per step, or per triad */
} Item;

typedef struct {
  MPI_Comm                 comm;
  FlxMesh                  mesh; /* -bench_scaling: the one-rank copy's own mesh */
  FlxModel                 model, nlmodel;
  Mat                      K;
  Vec                      x, y, xn, yn;
  PetscInt                 N, nloc, products, steps;
  PetscReal               *ta, *tb, *tc; /* triad arrays */
  PetscInt                 ntriad;       /* doubles per array on this rank */
  PetscReal                triadbytes;   /* -bench_triad_mb: bytes per array at least, over all ranks of the run */
  FlxInternalForceRoofline rf;           /* the model's roofline: bytes, flops, the element loop's time in cache */
} Bench;

/* a = b + s c over n doubles per rank: seconds of one pass (24 bytes per entry: two reads and one write). */
static PetscErrorCode Triad(Bench *B, PetscReal *sec)
{
  PetscLogDouble t0, t1;
  PetscReal      best = 1e30;

  PetscFunctionBegin;
  for (int rep = 0; rep < 3; rep++) {
    PetscCallMPI(MPI_Barrier(B->comm));
    PetscCall(PetscTime(&t0));
    for (PetscInt i = 0; i < B->ntriad; i++)
      B->ta[i] = B->tb[i] + 3.0 * B->tc[i];
    PetscCallMPI(MPI_Barrier(B->comm));
    PetscCall(PetscTime(&t1));
    best = PetscMin(best, t1 - t0);
    B->tb[rep] += B->ta[B->ntriad - 1 - rep];
  }
  *sec = best;
  PetscFunctionReturn(0);
}

/* s = sum of one array of the triad's size (8 bytes per entry read): seconds of one pass, the best of three. */
static PetscErrorCode ReadStream(Bench *B, PetscReal *sec)
{
  PetscLogDouble t0, t1;
  PetscReal      best = 1e30, s[32] = {0}; /* 32 partial sums: independent lanes, no chain of additions */

  PetscFunctionBegin;
  for (int rep = 0; rep < 3; rep++) {
    PetscInt i;
    PetscCallMPI(MPI_Barrier(B->comm));
    PetscCall(PetscTime(&t0));
    for (i = 0; i + 32 <= B->ntriad; i += 32)
      for (int j = 0; j < 32; j++)
        s[j] += B->tb[i + j];
    for (; i < B->ntriad; i++)
      s[0] += B->tb[i];
    PetscCallMPI(MPI_Barrier(B->comm));
    PetscCall(PetscTime(&t1));
    best = PetscMin(best, t1 - t0);
  }
  for (int j = 1; j < 32; j++)
    s[0] += s[j];
  B->ta[0] = s[0]; /* kept */
  *sec     = best;
  PetscFunctionReturn(0);
}

static PetscErrorCode Products(Bench *B, ItemKind kind, PetscReal *sec)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  if (kind == IT_INCACHE) { /* FlxEbeComputeTime on every rank, the slowest's */
    FlxInternalForceRoofline rf;
    PetscCall(FlxModelGetInternalForceRoofline(B->model, PETSC_TRUE, &rf));
    *sec = rf.ecompute;
    PetscFunctionReturn(0);
  }
  PetscCallMPI(MPI_Barrier(B->comm));
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < B->products; k++) {
    if (kind == IT_MATMULT)
      PetscCall(MatMult(B->K, B->x, B->y));
    else if (kind == IT_ASSEMBLED)
      PetscCall(FlxModelMultStiffness(B->model, FLX_FINT_ASSEMBLED, B->x, B->y));
    else if (kind == IT_ELEMENTS)
      PetscCall(FlxModelMultStiffness(B->model, FLX_FINT_ELEMENTS, B->x, B->y));
    else {
      FlxSystem sys;
      PetscCall(FlxModelGetSystem(B->nlmodel, &sys));
      PetscCall(FlxSystemComputeInternalForce(sys, 0, B->xn, B->xn, B->yn));
    }
  }
  PetscCallMPI(MPI_Barrier(B->comm));
  PetscCall(PetscTime(&t1));
  *sec = (t1 - t0) / B->products;
  PetscFunctionReturn(0);
}

/* After the start-up (step 0): the time the steps start from. */
typedef struct {
  MPI_Comm       comm;
  PetscLogDouble t0;
} StartCtx;

static PetscErrorCode AfterStartUp(FlxStepper ts, void *ctx)
{
  StartCtx *sc = (StartCtx *)ctx;
  PetscReal t;
  PetscInt  step;

  PetscFunctionBegin;
  PetscCall(FlxStepperGetTime(ts, &t, &step));
  if (step) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Barrier(sc->comm));
  PetscCall(PetscTime(&sc->t0));
  PetscFunctionReturn(0);
}

/* Seconds per step of a solve of B->steps steps from rest, the start-up (degrees 4 and 5: extra force evaluations,
   once per run) left out. */
static PetscErrorCode Solve(Bench *B, FlxStepper ts, PetscReal *sec)
{
  PetscLogDouble            t1;
  FlxStepperConvergedReason reason;
  const char               *msg;
  StartCtx                  sc = {B->comm, 0};

  PetscFunctionBegin;
  PetscCall(FlxStepperSetPostStep(ts, AfterStartUp, &sc));
  PetscCall(FlxStepperSolve(ts));
  PetscCallMPI(MPI_Barrier(B->comm));
  PetscCall(PetscTime(&t1));
  PetscCall(FlxStepperGetConvergedReason(ts, &reason, &msg));
  PetscCheck(reason > 0, B->comm, PETSC_ERR_NOT_CONVERGED, "the benchmark run did not complete: %s", msg);
  *sec = (t1 - sc.t0) / B->steps;
  PetscFunctionReturn(0);
}

/* A stepper of preset on sys, at rest at t = 0, for B->steps steps of dt (dt <= 0: its automatic step). */
static PetscErrorCode NewStepper(Bench *B, FlxModel model, const char preset[], PetscReal dt, FlxStepper *ts, PetscInt *degree)
{
  FlxSystem sys;
  Vec       x, v;
  PetscReal par[4];

  PetscFunctionBegin;
  PetscCall(PetscOptionsSetValue(NULL, "-ts_gcd_preset", preset));
  PetscCall(FlxModelGetSystem(model, &sys));
  PetscCall(FlxModelCreateVector(model, &x));
  PetscCall(FlxModelCreateVector(model, &v));
  PetscCall(FlxStepperCreate(B->comm, ts));
  PetscCall(FlxStepperSetFromOptions(*ts));
  if (dt > 0) PetscCall(FlxStepperSetTimeStep(*ts, dt));
  PetscCall(FlxStepperSetSystem(*ts, sys));
  PetscCall(FlxStepperSetInitialConditions(*ts, 0, x, v));
  PetscCall(FlxStepperSetUp(*ts));
  PetscCall(FlxStepperGetTimeStep(*ts, &dt));
  PetscCall(FlxStepperSetMaxTime(*ts, dt * B->steps));
  PetscCall(FlxStepperGCDGetParameters(*ts, degree, par, NULL));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&v));
  PetscFunctionReturn(0);
}

static int CompareReal(const void *a, const void *b)
{
  PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return x < y ? -1 : (x > y ? 1 : 0);
}

/* Median, smallest and largest of v[0..n). */
static void Stats(PetscInt n, const PetscReal v[], PetscReal *med, PetscReal *lo, PetscReal *hi)
{
  PetscReal w[MAXREP];

  for (PetscInt i = 0; i < n; i++)
    w[i] = v[i];
  qsort(w, n, sizeof(PetscReal), CompareReal);
  *med = n % 2 ? w[n / 2] : 0.5 * (w[n / 2 - 1] + w[n / 2]);
  *lo  = w[0];
  *hi  = w[n - 1];
}

/* The ratios a / b of every repetition: median and range. */
static void Ratio(PetscInt n, const PetscReal a[], const PetscReal b[], PetscReal *med, PetscReal *lo, PetscReal *hi)
{
  PetscReal r[MAXREP];

  for (PetscInt i = 0; i < n; i++)
    r[i] = a[i] / b[i];
  Stats(n, r, med, lo, hi);
}

/* Bytes per DOF a GCD step of degree d moves besides f_int: the fused kernel reads x, D, 1/m, v, a (and j, s), f_ext
   and f_int and writes x, v, a, D (and j, s). The benchmark's loads are constant: f_ext is not written again
   (loads.c). */
static PetscReal StepVectorBytes(PetscInt d)
{
  return 8.0 * (11 + 2 * (d - 3));
}

/* The roofline bound of one run of It (seconds) at bandwidth bw (bytes per second, all ranks) with roofline rf on the
   internal-force path path: bytes over bw for the assembled products, the larger of that and the in-cache time for
   the element loop (in cache: ecomp seconds), and a step's f_int plus its vector bytes; 0 for the other items. */
static PetscReal ItemBound(const FlxInternalForceRoofline *rf, FlxInternalForcePath path, const Item *It, PetscReal N, PetscReal bw, PetscReal ecomp)
{
  PetscReal e = PetscMax(rf->ebytes / bw, ecomp), k = rf->kbytes / bw;

  switch (It->kind) {
  case IT_MATMULT:
  case IT_ASSEMBLED:
    return k;
  case IT_ELEMENTS:
    return e;
  case IT_STEP:
    return (path == FLX_FINT_ELEMENTS ? e : k) + StepVectorBytes(It->degree) * N / bw;
  default:
    return 0;
  }
}

/* Broadcast n values of type t from rank 0 of B->comm, the other ranks waiting idle: polling every 50 us rather
   than spinning, so that rank 0 alone has the machine to itself as a one-rank run would. Collective on B->comm. */
static PetscErrorCode IdleBcast(Bench *B, void *buf, int n, MPI_Datatype t)
{
  MPI_Request req;
  int         done = 0;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Ibcast(buf, n, t, 0, B->comm, &req));
  while (!done) {
    PetscCallMPI(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
    if (!done) PetscCall(PetscSleep(5e-5));
  }
  PetscFunctionReturn(0);
}

/* One timed run of It: on every rank of B, or (It->single) on rank 0 alone with B1 while the other ranks wait idle
   (polling every 50 us, not spinning: a one-rank run leaves the other cores free); the seconds on every rank.
   Collective on B->comm. */
static PetscErrorCode RunItem(Bench *B, Bench *B1, Item *It, PetscReal *sec)
{
  Bench      *b = It->single ? B1 : B;
  PetscMPIInt rank;
  PetscReal   s = 0;

  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(B->comm, &rank));
  if (It->single) PetscCallMPI(MPI_Barrier(B->comm));
  if (!It->single || rank == 0) {
    switch (It->kind) {
    case IT_TRIAD:
      ierr = Triad(b, &s);
      break;
    case IT_READ:
      ierr = ReadStream(b, &s);
      break;
    case IT_STEP:
    case IT_NLSTEP:
      ierr = Solve(b, It->ts, &s);
      break;
    default:
      ierr = Products(b, It->kind, &s);
    }
  }
  if (!It->single)
    PetscCall(ierr); /* the P-rank items fail on every rank together */
  else {             /* rank 0 alone: the waiting ranks learn its result, then its failure */
    PetscCall(IdleBcast(B, &s, 1, MPIU_REAL));
    PetscCall(FlxCheckCollectiveError(B->comm, ierr, PETSC_ERR_NOT_CONVERGED, "-bench_scaling: a one-rank item failed on rank 0"));
  }
  *sec = s;
  PetscFunctionReturn(0);
}

/* Triad arrays, initialised: each of T doubles in all over the P ranks of the run (p: the ranks of B->comm, P or 1),
   T the larger of 4 N and -bench_triad_mb x 1e6 / 8 (at least 3 per rank). STREAM's rule: each array at least 4 times
   the last-level caches in use (4 N doubles is 32 MB at 1e6 DOFs, this VM's L3; docs/methods.md). Not collective. */
static PetscErrorCode TriadSetUp(Bench *B)
{
  PetscMPIInt p;
  PetscReal   n;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(B->comm, &p));
  n = PetscMax(3.0, PetscMax(4.0 * B->N, B->triadbytes / sizeof(PetscReal)) / p);
  PetscCheck(n <= (PetscReal)PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-bench_triad_mb %g: %g doubles per array on a rank, more than PetscInt holds", (double)(B->triadbytes / 1e6), (double)n);
  B->ntriad = (PetscInt)n;
  PetscCall(PetscMalloc3(B->ntriad, &B->ta, B->ntriad, &B->tb, B->ntriad, &B->tc));
  for (PetscInt i = 0; i < B->ntriad; i++)
    B->ta[i] = 0, B->tb[i] = 1, B->tc[i] = 2;
  PetscFunctionReturn(0);
}

/* The one-rank copy on rank 0 (B1->comm): mesh, model, vectors, triad arrays, its roofline (B1->rf, with the element
   loop's in-cache time at 1 rank) and the stepper of preset at dt; its internal-force path in path1. Not collective. */
static PetscErrorCode SingleModel(Bench *B, Bench *B1, const char preset[], PetscReal dt, Item *step, FlxInternalForcePath *path1)
{
  PetscFunctionBegin;
  PetscCall(FlxMeshCreate(B1->comm, &B1->mesh));
  PetscCall(FlxMeshSetFromOptions(B1->mesh));
  PetscCall(FlxModelCreate(B1->mesh, &B1->model));
  PetscCall(FlxModelSetFromOptions(B1->model));
  PetscCall(FlxMeshSetUp(B1->mesh));
  PetscCall(FlxModelSetUp(B1->model));
  PetscCall(FlxModelGetInternalForcePath(B1->model, path1));
  PetscCall(FlxModelCreateVector(B1->model, &B1->x));
  PetscCall(VecDuplicate(B1->x, &B1->y));
  PetscCall(VecGetSize(B1->x, &B1->N));
  PetscCall(VecGetLocalSize(B1->x, &B1->nloc));
  PetscCheck(B1->N == B->N, PETSC_COMM_SELF, PETSC_ERR_PLIB, "-bench_scaling: the one-rank model has %" PetscInt_FMT " DOFs, not %" PetscInt_FMT, B1->N, B->N);
  PetscCall(TriadSetUp(B1));
  PetscCall(FlxModelMultStiffness(B1->model, FLX_FINT_ELEMENTS, B1->x, B1->y)); /* the element loop built, as the P-rank one */
  PetscCall(FlxModelGetInternalForceRoofline(B1->model, PETSC_TRUE, &B1->rf));  /* its compute bound at 1 rank */
  PetscCall(VecSet(B1->x, 1e-3));
  PetscCall(NewStepper(B1, B1->model, preset, dt, &step->ts, &step->degree));
  PetscFunctionReturn(0);
}

/* -bench_scaling: the mesh and the model set up again from the options on rank 0 alone (B1->comm; MPI_COMM_NULL on
   the other ranks), and four items timed there: the triad (over as many doubles as all ranks of B together), the
   element loop, its time in cache and the step of preset at dt. Appended to it[]; path: the P-rank model's
   internal-force path, which the copy must share. The copy's roofline and triad size are broadcast (ReportScaling's
   bounds); the other ranks wait idle meanwhile. Collective on B->comm (a failure on rank 0 stops every rank). */
static PetscErrorCode SetUpSingle(Bench *B, Bench *B1, const char preset[], PetscReal dt, FlxInternalForcePath path, Item it[], PetscInt *nit)
{
  PetscMPIInt          rank;
  Item                *It      = &it[*nit];
  int                  code[2] = {0, 0};
  FlxInternalForcePath path1   = path;

  PetscFunctionBegin;
  PetscCheck(*nit + 4 <= MAXITEM, B->comm, PETSC_ERR_PLIB, "flexure-bench: more than %d items", MAXITEM);
  PetscCallMPI(MPI_Comm_rank(B->comm, &rank));
  PetscCall(PetscMemzero(B1, sizeof(*B1)));
  PetscCallMPI(MPI_Comm_split(B->comm, rank ? MPI_UNDEFINED : 0, 0, &B1->comm));
  B1->steps      = B->steps;
  B1->products   = B->products;
  B1->triadbytes = B->triadbytes;
  It[0].kind = IT_TRIAD, It[1].kind = IT_ELEMENTS, It[2].kind = IT_STEP, It[3].kind = IT_INCACHE;
  PetscCall(PetscStrncpy(It[0].name, "triad", sizeof(It[0].name)));
  PetscCall(PetscStrncpy(It[1].name, "element loop", sizeof(It[1].name)));
  PetscCall(PetscSNPrintf(It[2].name, sizeof(It[2].name), "%s step", preset));
  PetscCall(PetscStrncpy(It[3].name, "element loop in cache", sizeof(It[3].name)));
  for (int j = 0; j < 4; j++)
    It[j].single = PETSC_TRUE;
  *nit += 4;
  PetscCall(FlxPhaseEnd(B->comm)); /* the set-up phases' timer: closed on every rank, then on rank 0's own */
  if (!rank) {
    code[0] = (int)SingleModel(B, B1, preset, dt, &It[2], &path1);
    code[1] = (int)path1;
    if (!code[0]) code[0] = (int)FlxPhaseEnd(B1->comm);
  }
  PetscCall(IdleBcast(B, code, 2, MPI_INT));
  PetscCall(FlxCheckCollectiveError(B->comm, rank ? 0 : (PetscErrorCode)code[0], PETSC_ERR_USER_INPUT, "-bench_scaling: the one-rank copy of the model could not be set up on rank 0"));
  PetscCallMPI(MPI_Bcast(&B1->rf, sizeof(B1->rf) / sizeof(PetscReal), MPIU_REAL, 0, B->comm));
  PetscCallMPI(MPI_Bcast(&B1->ntriad, 1, MPIU_INT, 0, B->comm));
  PetscCheck(code[1] == (int)path, B->comm, PETSC_ERR_PLIB, "-bench_scaling: the one-rank copy chose another internal-force path than the %s model: give -model_internal_force", "P-rank");
  PetscFunctionReturn(0);
}

/* The P-rank item whose speed-up the one-rank item S measures: the first of its kind (the first preset's step is the
   first step item). */
static PetscInt Partner(PetscInt nit, const Item it[], const Item *S)
{
  for (PetscInt k = 0; k < nit; k++)
    if (!it[k].single && it[k].kind == S->kind) return k;
  return -1;
}

/* The order of the items in repetition r (r < 0: the warm-up): the items rotate, but the one-rank items of
   -bench_scaling and their P-rank partners run together as one block, forward in even repetitions and backward in
   odd ones, so that each repetition's speed-ups (and their quotient by the triad's) compare measurements seconds apart
   instead of minutes: this VM's memory bandwidth drifts within a repetition of every item. Not collective. */
static void RepetitionOrder(PetscInt nit, const Item it[], PetscInt r, PetscInt order[])
{
  PetscInt  unit[MAXITEM], nu = 0, blk[MAXITEM], nb = 0, k = 0;
  PetscBool inblk[MAXITEM] = {PETSC_FALSE};

  for (PetscInt q = 0; q < nit; q++)
    if (it[q].single) {
      PetscInt p = Partner(nit, it, &it[q]);
      if (p >= 0 && !inblk[p]) blk[nb++] = p, inblk[p] = PETSC_TRUE;
      blk[nb++] = q, inblk[q] = PETSC_TRUE;
    }
  for (PetscInt q = 0; q < nit; q++) /* the units: every other item, and the block (-1) where its first member is */
    if (!inblk[q])
      unit[nu++] = q;
    else if (nb && q == blk[0])
      unit[nu++] = -1;
  for (PetscInt u = 0; u < nu; u++) {
    PetscInt v = unit[(u + (r < 0 ? 0 : r)) % nu];
    if (v >= 0)
      order[k++] = v;
    else
      for (PetscInt j = 0; j < nb; j++)
        order[k++] = blk[r % 2 ? nb - 1 - j : j];
  }
}

/* -bench_scaling's report: each one-rank item's speed-up on the P ranks against the triad's, and against the speed-up
   of its own roofline bound (ItemBound at each repetition's triad bandwidths and in-cache times at 1 and P ranks): a
   kernel compute bound at 1 rank and memory bound at P is not held to the triad's speed-up; a memory-bound one's bound
   moves with the triad. Repetition by repetition; medians and ranges. Collective on B->comm. */
static PetscErrorCode ReportScaling(Bench *B, Bench *B1, FlxInternalForcePath path, PetscInt reps, PetscInt nit, Item it[])
{
  Item       *tri = NULL, *tri1 = NULL, *ic = NULL, *ic1 = NULL;
  PetscMPIInt size;
  PetscReal   N = (PetscReal)B->N, tsp[MAXREP], isp[MAXREP], bsp[MAXREP], m1, m2, lo, hi, ts, tl, th, rel, rl, rh, bs, bl, bh;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(B->comm, &size));
  for (PetscInt q = 0; q < nit; q++) {
    if (it[q].kind == IT_TRIAD && it[q].single) tri1 = &it[q];
    if (it[q].kind == IT_TRIAD && !it[q].single) tri = &it[q];
    if (it[q].kind == IT_INCACHE) *(it[q].single ? &ic1 : &ic) = &it[q];
  }
  if (!tri1) PetscFunctionReturn(0);
  for (PetscInt r = 0; r < reps; r++)
    tsp[r] = tri1->t[r] / tri->t[r];
  Stats(reps, tsp, &ts, &tl, &th);
  PetscCall(PetscPrintf(B->comm, "bench: scaling, 1 rank against %d, interleaved in this process: the triad's speed-up %.2f (%.2f .. %.2f); %.0f MB per array\n", size, (double)ts, (double)tl, (double)th, (double)(8.0 * B->ntriad * size / 1e6)));
  Stats(reps, ic1->t, &m1, &lo, &hi);
  Stats(reps, ic->t, &m2, &bl, &bh);
  PetscCall(PetscPrintf(B->comm, "bench: scaling, element loop's compute bound (in cache): 1 rank %.2f (%.2f .. %.2f), %d ranks %.2f (%.2f .. %.2f) ns/DOF\n", (double)(m1 / N * 1e9), (double)(lo / N * 1e9), (double)(hi / N * 1e9), size, (double)(m2 / N * 1e9), (double)(bl / N * 1e9), (double)(bh / N * 1e9)));
  for (PetscInt q = 0; q < nit; q++) {
    Item *S = &it[q], *P;
    if (!S->single || S == tri1 || S == ic1) continue;
    P = &it[Partner(nit, it, S)];
    Stats(reps, S->t, &m1, &lo, &hi);
    Stats(reps, P->t, &m2, &lo, &hi);
    Ratio(reps, S->t, P->t, &ts, &tl, &th);
    for (PetscInt r = 0; r < reps; r++) {
      /* P's kind and degree for both (the same preset; the one-rank stepper exists on rank 0 only) */
      PetscReal b1 = ItemBound(&B1->rf, path, P, N, 24.0 * B1->ntriad / tri1->t[r], ic1->t[r]), b2 = ItemBound(&B->rf, path, P, N, 24.0 * B->ntriad * size / tri->t[r], ic->t[r]);
      isp[r] = S->t[r] / P->t[r] / tsp[r];
      bsp[r] = b1 / b2;
    }
    Stats(reps, isp, &rel, &rl, &rh);
    PetscCall(PetscPrintf(B->comm, "bench: scaling, %s: 1 rank %.2f, %d ranks %.2f ns/DOF; speed-up %.2f (%.2f .. %.2f) = %.2f x the triad's (%.2f .. %.2f)", S->name, (double)(m1 / N * 1e9), size, (double)(m2 / N * 1e9), (double)ts, (double)tl, (double)th, (double)rel, (double)rl, (double)rh));
    Stats(reps, bsp, &bs, &bl, &bh);
    for (PetscInt r = 0; r < reps; r++)
      isp[r] = S->t[r] / P->t[r] / bsp[r];
    Stats(reps, isp, &rel, &rl, &rh);
    PetscCall(PetscPrintf(B->comm, "; its bound's speed-up %.2f (%.2f .. %.2f): %.2f x it (%.2f .. %.2f)\n", (double)bs, (double)bl, (double)bh, (double)rel, (double)rl, (double)rh));
  }
  PetscFunctionReturn(0);
}

/* The benchmark between PetscInitialize and PetscFinalize: in a function of its own, so that an error returns to
   main, which finalizes, instead of the MPI_Abort PETSc raises for errors in main() itself. Collective. */
static PetscErrorCode Run(void)
{
  Bench                B, B1;
  FlxMesh              mesh;
  Item                 it[MAXITEM];
  PetscInt             nit = 0, reps = 7, npre = 8, nlsteps = 0;
  char                *presets[8];
  PetscBool            set, nonlinear = PETSC_FALSE, scaling = PETSC_FALSE;
  PetscInt             nlpre = -1;
  PetscReal            dtnl;
  PetscMPIInt          size;
  PetscReal            heap0, heap1, heap2, heap3, peak, dt = 0, triadmb = 256;
  FlxInternalForcePath path;
  PetscLogDouble       t0, t1;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&B, sizeof(B)));
  PetscCall(PetscMemzero(&B1, sizeof(B1)));
  PetscCall(PetscMemzero(it, sizeof(it)));
  B.comm     = PETSC_COMM_WORLD;
  B.steps    = 100;
  B.products = 10;
  PetscCallMPI(MPI_Comm_size(B.comm, &size));
  PetscOptionsBegin(B.comm, NULL, "Benchmark", "flexure-bench");
  PetscCall(PetscOptionsInt("-bench_reps", "Interleaved repetitions of every item (at most 64; medians and ranges reported)", "", reps, &reps, NULL));
  PetscCall(PetscOptionsInt("-bench_steps", "Explicit steps of each timed solve", "", B.steps, &B.steps, NULL));
  PetscCall(PetscOptionsInt("-bench_products", "Products of each timed product (MatMult, K x, element loop, co-rotational f_int)", "", B.products, &B.products, NULL));
  PetscCall(PetscOptionsStringArray("-bench_presets", "GCD presets whose steps are timed (default gcd3,gcd4_a3/4,gcd5; ratios against the first; their bounds count no f_ext written per step: constant loads, as scripts/bench's models)", "", presets, &npre, &set));
  PetscCall(PetscOptionsBool("-bench_nonlinear", "Also the same mesh as a model with -model_geometry nonlinear (co-rotational beams): its f_int and its step with the first preset that carries finite rotations (not cd_classic), at the linear model's step with that preset", "", nonlinear, &nonlinear, NULL));
  PetscCall(PetscOptionsReal("-bench_triad_mb", "Megabytes per array of the STREAM-like triad, at least, over all ranks (STREAM's rule: 4 x the caches in use; default 256, about 8 x a 32 MiB L3; 0: 4 doubles per DOF alone)", "", triadmb, &triadmb, NULL));
  PetscCheck(triadmb >= 0, B.comm, PETSC_ERR_ARG_OUTOFRANGE, "-bench_triad_mb %g: give a size of 0 (4 x the DOFs) or more", (double)triadmb);
  PetscCall(PetscOptionsBool("-bench_scaling", "On P > 1 ranks, also time the triad, the element loop, its time in cache and the first preset's step on rank 0 alone, in one block with their P-rank partners in every repetition: each one's speed-up against the triad's and against its roofline bound's, in one process", "", scaling, &scaling, NULL));
  PetscOptionsEnd();
  B.triadbytes = triadmb * 1e6;
  reps         = PetscMax(1, PetscMin(reps, MAXREP));
  if (!set) {
    const char *def[3] = {"gcd3", "gcd4_a3/4", "gcd5"};
    npre               = 3;
    for (int k = 0; k < 3; k++)
      PetscCall(PetscStrallocpy(def[k], &presets[k]));
  }
  if (nonlinear) PetscCall(PetscOptionsSetValue(NULL, "-model_geometry", "linear")); /* the reference: the linear model */
  PetscCall(FlxMeshCreate(B.comm, &mesh));
  PetscCall(FlxMeshSetFromOptions(mesh));
  PetscCall(FlxModelCreate(mesh, &B.model));
  PetscCall(FlxModelSetFromOptions(B.model));
  PetscCall(PetscTime(&t0));
  PetscCall(FlxMeshSetUp(mesh));
  PetscCall(FlxMeshView(mesh, PETSC_VIEWER_STDOUT_(B.comm)));
  PetscCall(FlxMemoryUsage(B.comm, &heap0, NULL));
  PetscCall(FlxModelSetUp(B.model));
  PetscCall(FlxMemoryUsage(B.comm, &heap1, NULL));
  PetscCall(PetscTime(&t1));
  PetscCall(FlxModelView(B.model, PETSC_VIEWER_STDOUT_(B.comm)));
  PetscCall(PetscPrintf(B.comm, "set-up (mesh, partition, model): %.2f s\n", t1 - t0));
  PetscCall(FlxModelGetInternalForcePath(B.model, &path));
  PetscCall(FlxModelCreateVector(B.model, &B.x));
  PetscCall(VecDuplicate(B.x, &B.y));
  PetscCall(VecGetSize(B.x, &B.N));
  PetscCall(VecGetLocalSize(B.x, &B.nloc));
  PetscCheck(npre <= 8, B.comm, PETSC_ERR_ARG_OUTOFRANGE, "-bench_presets: at most 8 presets");
  for (PetscInt k = 0; k < npre; k++) { /* the steppers first: the heap of an explicit run before K is assembled */
    Item *It = &it[nit++];
    It->kind = IT_STEP;
    PetscCall(PetscSNPrintf(It->name, sizeof(It->name), "%s step", presets[k]));
    PetscCall(NewStepper(&B, B.model, presets[k], 0, &It->ts, &It->degree));
    if (k == 0) PetscCall(FlxStepperGetTimeStep(It->ts, &dt));
  }
  PetscCall(FlxMemoryUsage(B.comm, &heap2, &peak));
  PetscCall(FlxModelGetStiffness(B.model, &B.K));                         /* for PETSc's MatMult and the assembled path */
  PetscCall(FlxModelMultStiffness(B.model, FLX_FINT_ELEMENTS, B.x, B.y)); /* builds the element loop if the model chose K */
  PetscCall(FlxModelMultStiffness(B.model, FLX_FINT_ASSEMBLED, B.x, B.y));
  PetscCall(FlxMemoryUsage(B.comm, &heap3, NULL));
  PetscCall(PetscPrintf(B.comm, "bench: ranks %d, DOFs %" PetscInt_FMT "; memory per DOF (heap summed over the ranks): model %.0f B (path %s), with its %" PetscInt_FMT " steppers %.0f B; the other path's operator adds %.0f B; peak resident %.0f B\n", size, B.N, (double)((heap1 - heap0) / B.N), path == FLX_FINT_ELEMENTS ? "elements" : "assembled", npre, (double)((heap2 - heap0) / B.N), (double)((heap3 - heap2) / B.N), (double)(peak / B.N)));
  {
    PetscBool aligned;
    PetscCall(FlxMemoryAligned(&aligned));
    PetscCall(PetscPrintf(B.comm, "bench: vector arrays %s\n", aligned ? "64-byte aligned" : "NOT 64-byte aligned (PETSc's own allocator kept: -malloc_debug or similar, or -malloc_hbw): vector loads split across cache lines"));
  }
  { /* the two products agree */
    Vec       w;
    PetscReal nd, nv;
    PetscCall(VecDuplicate(B.x, &w));
    PetscCall(VecSetRandom(B.x, NULL));
    PetscCall(FlxModelMultStiffness(B.model, FLX_FINT_ASSEMBLED, B.x, w));
    PetscCall(FlxModelMultStiffness(B.model, FLX_FINT_ELEMENTS, B.x, B.y));
    PetscCall(VecNorm(w, NORM_INFINITY, &nv));
    PetscCall(VecAXPY(w, -1.0, B.y));
    PetscCall(VecNorm(w, NORM_INFINITY, &nd));
    PetscCall(PetscPrintf(B.comm, "bench: |element loop - assembled K x|_inf / |K x|_inf = %.2e (random x)\n", (double)(nd / nv)));
    PetscCall(VecDestroy(&w));
  }
  PetscCall(FlxModelGetInternalForceRoofline(B.model, PETSC_TRUE, &B.rf));
  {
    const ItemKind k[6] = {IT_TRIAD, IT_MATMULT, IT_ASSEMBLED, IT_ELEMENTS, IT_INCACHE, IT_READ};
    const char    *n[6] = {"triad", "PETSc MatMult", "flexure K x (assembled)", "element loop", "element loop in cache", "read stream"};
    for (int j = 0; j < 6; j++) {
      it[nit].kind = k[j];
      PetscCall(PetscStrncpy(it[nit++].name, n[j], sizeof(it[0].name)));
    }
  }
  if (scaling && size > 1) PetscCall(SetUpSingle(&B, &B1, presets[0], dt, path, it, &nit));
  if (nonlinear) { /* the co-rotational model */
    PetscCheck(nit + 2 <= MAXITEM, B.comm, PETSC_ERR_PLIB, "flexure-bench: more than %d items", MAXITEM);
    PetscCall(PetscOptionsSetValue(NULL, "-model_geometry", "nonlinear"));
    PetscCall(FlxModelCreate(mesh, &B.nlmodel));
    PetscCall(FlxModelSetFromOptions(B.nlmodel));
    PetscCall(FlxModelSetUp(B.nlmodel));
    PetscCall(PetscOptionsClearValue(NULL, "-model_geometry"));
    PetscCall(FlxModelCreateVector(B.nlmodel, &B.xn));
    PetscCall(VecDuplicate(B.xn, &B.yn));
    PetscCall(VecSet(B.xn, 1e-3)); /* every node turned by 1.7e-3 rad: small local rotations (the SIMD lanes) */
    it[nit].kind = IT_NLFORCE;
    PetscCall(PetscStrncpy(it[nit++].name, "co-rotational f_int", sizeof(it[0].name)));
    for (PetscInt k = 0; k < npre && nlpre < 0; k++) /* cd_classic differences displacements: no finite rotations */
      if (strcmp(presets[k], "cd_classic")) nlpre = k;
    PetscCheck(nlpre >= 0, B.comm, PETSC_ERR_USER_INPUT, "-bench_nonlinear: no preset of -bench_presets carries finite rotations (cd_classic differences displacements): add gcd3, or drop -bench_nonlinear (scripts/bench: FLX_BENCH_NONLINEAR=0)");
    it[nit].kind = IT_NLSTEP;
    it[nit].ref  = nlpre; /* the linear step it is compared with: the same preset's */
    PetscCall(PetscSNPrintf(it[nit].name, sizeof(it[0].name), "co-rotational %s step", presets[nlpre]));
    PetscCall(FlxStepperGetTimeStep(it[nlpre].ts, &dtnl)); /* the linear model's step with that preset */
    PetscCall(NewStepper(&B, B.nlmodel, presets[nlpre], dtnl, &it[nit].ts, &it[nit].degree));
    nit++;
    nlsteps = 1;
  }
  PetscCall(TriadSetUp(&B));
  PetscCall(FlxOptionsCheckUnused(B.comm, NULL)); /* a misspelled option is refused before the timing */
  PetscCall(VecSet(B.x, 1e-3));
  for (PetscInt r = -1; r < reps; r++) { /* r = -1 warms every item up */
    PetscInt order[MAXITEM];
    RepetitionOrder(nit, it, r, order);
    for (PetscInt q = 0; q < nit; q++) {
      Item     *It = &it[order[q]];
      PetscReal s  = 0;
      PetscCall(RunItem(&B, &B1, It, &s));
      if (r >= 0) It->t[r] = s;
    }
  }
  { /* report */
    Item     *tri = NULL, *mm = NULL, *el = NULL, *as = NULL, *s0 = NULL, *nlf = NULL, *nls = NULL, *ic = NULL, *rd = NULL;
    PetscReal med, lo, hi, rm, rl, rh, bw, N = (PetscReal)B.N, memb, comb, cl, ch, bwr[MAXREP];
    for (PetscInt q = 0; q < nit; q++) {
      if (it[q].single) continue;
      if (it[q].kind == IT_TRIAD) tri = &it[q];
      if (it[q].kind == IT_MATMULT) mm = &it[q];
      if (it[q].kind == IT_ELEMENTS) el = &it[q];
      if (it[q].kind == IT_ASSEMBLED) as = &it[q];
      if (it[q].kind == IT_STEP && !s0) s0 = &it[q];
      if (it[q].kind == IT_NLFORCE) nlf = &it[q];
      if (it[q].kind == IT_NLSTEP) nls = &it[q];
      if (it[q].kind == IT_INCACHE) ic = &it[q];
      if (it[q].kind == IT_READ) rd = &it[q];
    }
    Stats(reps, tri->t, &med, &lo, &hi);
    bw = 24.0 * B.ntriad * size / med; /* bytes per second, all ranks */
    for (PetscInt r = 0; r < reps; r++)
      bwr[r] = 24.0 * B.ntriad * size / tri->t[r]; /* each repetition's */
    PetscCall(PetscPrintf(B.comm, "bench: %" PetscInt_FMT " interleaved repetitions (%" PetscInt_FMT " products or %" PetscInt_FMT " steps each); medians (range)\n", reps, B.products, B.steps));
    PetscCall(PetscPrintf(B.comm, "bench: triad %.2f GB/s (%.2f .. %.2f)\n", (double)(bw / 1e9), (double)(24.0 * B.ntriad * size / hi / 1e9), (double)(24.0 * B.ntriad * size / lo / 1e9)));
    Stats(reps, rd->t, &med, &lo, &hi);
    Ratio(reps, tri->t, rd->t, &rm, &rl, &rh);
    PetscCall(PetscPrintf(B.comm, "bench: read stream %.2f GB/s (%.2f .. %.2f) = %.2f x the triad's (%.2f .. %.2f): what a kernel reading one stream draws (one array summed, 8 B an entry)\n", (double)(8.0 * B.ntriad * size / med / 1e9), (double)(8.0 * B.ntriad * size / hi / 1e9), (double)(8.0 * B.ntriad * size / lo / 1e9), (double)(rm / 3), (double)(rl / 3), (double)(rh / 3)));
    memb = B.rf.ebytes / bw;
    Stats(reps, ic->t, &comb, &cl, &ch); /* the in-cache time of every repetition: the compute bound of that repetition */
    PetscCall(PetscPrintf(B.comm, "bench: roofline: element loop %.1f B/DOF, %.1f flops/DOF (%.2f flops/B): memory bound %.2f ns/DOF, compute bound (in cache) %.2f ns/DOF (%.2f .. %.2f; %.1f Gflop/s) -> %s bound; machine balance %.2f flops/B (in-cache rate / triad)\n", (double)(B.rf.ebytes / N), (double)(B.rf.eflops / N), (double)(B.rf.eflops / B.rf.ebytes), (double)(memb / N * 1e9), (double)(comb / N * 1e9), (double)(cl / N * 1e9), (double)(ch / N * 1e9), (double)(comb > 0 ? B.rf.eflops / comb / 1e9 : 0), comb > memb ? "compute" : "memory", (double)(comb > 0 ? B.rf.eflops / comb / bw : 0)));
    PetscCall(PetscPrintf(B.comm, "bench: roofline: assembled K %.1f B/DOF, %.1f flops/DOF (%.2f flops/B): memory bound %.2f ns/DOF -> memory bound\n", (double)(B.rf.kbytes / N), (double)(B.rf.kflops / N), (double)(B.rf.kflops / B.rf.kbytes), (double)(B.rf.kbytes / bw / N * 1e9)));
    for (PetscInt q = 0; q < nit; q++) {
      Item     *It = &it[q];
      PetscReal bnd[MAXREP], pct[MAXREP], bm, pm, x0, x1;
      char      extra[256] = "";
      if (It->kind == IT_TRIAD || It->kind == IT_READ || It->kind == IT_INCACHE || It->single) continue;
      Stats(reps, It->t, &med, &lo, &hi);
      Ratio(reps, It->t, mm->t, &rm, &rl, &rh);
      for (PetscInt r = 0; r < reps; r++) { /* each repetition's bound, at its triad bandwidth and in-cache time */
        bnd[r] = ItemBound(&B.rf, path, It, N, bwr[r], ic->t[r]);
        pct[r] = 100 * bnd[r] / It->t[r];
      }
      Stats(reps, bnd, &bm, &x0, &x1);
      Stats(reps, pct, &pm, &x0, &x1);
      if (bm > 0) PetscCall(PetscSNPrintf(extra, sizeof(extra), "; bound %.2f ns/DOF, %.0f%% of it (%.0f .. %.0f)", (double)(bm / N * 1e9), (double)pm, (double)x0, (double)x1));
      if (It->kind == IT_STEP && It != s0) {
        PetscReal q0, q1, q2;
        char      more[96];
        Ratio(reps, It->t, s0->t, &q0, &q1, &q2);
        PetscCall(PetscSNPrintf(more, sizeof(more), "; %.3f x %s (%.3f .. %.3f)", (double)q0, s0->name, (double)q1, (double)q2));
        FlxStrlcat(extra, more, sizeof(extra));
      }
      if (It->kind == IT_NLSTEP) { /* against the linear step of the same preset (the steps are items 0 .. npre - 1) */
        PetscReal q0, q1, q2;
        char      more[96];
        Ratio(reps, It->t, it[It->ref].t, &q0, &q1, &q2);
        PetscCall(PetscSNPrintf(more, sizeof(more), "; %.3f x the linear %s (%.3f .. %.3f)", (double)q0, it[It->ref].name, (double)q1, (double)q2));
        FlxStrlcat(extra, more, sizeof(extra));
      }
      if (It->kind == IT_NLFORCE) {
        PetscReal q0, q1, q2;
        char      more[96];
        Ratio(reps, It->t, el->t, &q0, &q1, &q2);
        PetscCall(PetscSNPrintf(more, sizeof(more), "; %.3f x the element loop (%.3f .. %.3f)", (double)q0, (double)q1, (double)q2));
        FlxStrlcat(extra, more, sizeof(extra));
      }
      PetscCall(PetscPrintf(B.comm, "bench: %-26s %7.2f ns/DOF (%.2f .. %.2f) = %.3f x MatMult (%.3f .. %.3f)%s\n", It->name, (double)(med / N * 1e9), (double)(lo / N * 1e9), (double)(hi / N * 1e9), (double)rm, (double)rl, (double)rh, extra));
    }
    (void)as;
    (void)nlf;
    (void)nls;
    (void)nlsteps;
  }
  PetscCall(ReportScaling(&B, &B1, path, reps, nit, it));
  for (PetscInt q = 0; q < nit; q++)
    PetscCall(FlxStepperDestroy(&it[q].ts));
  for (PetscInt k = 0; k < npre; k++)
    PetscCall(PetscFree(presets[k]));
  PetscCall(PetscFree3(B.ta, B.tb, B.tc));
  PetscCall(VecDestroy(&B.x));
  PetscCall(VecDestroy(&B.y));
  PetscCall(VecDestroy(&B.xn));
  PetscCall(VecDestroy(&B.yn));
  PetscCall(FlxModelDestroy(&B.nlmodel));
  PetscCall(FlxModelDestroy(&B.model));
  PetscCall(PetscFree3(B1.ta, B1.tb, B1.tc));
  PetscCall(VecDestroy(&B1.x));
  PetscCall(VecDestroy(&B1.y));
  PetscCall(FlxModelDestroy(&B1.model));
  PetscCall(FlxMeshDestroy(&B1.mesh));
  if (B1.comm != MPI_COMM_NULL && B1.comm) PetscCallMPI(MPI_Comm_free(&B1.comm));
  PetscCall(FlxMeshDestroy(&mesh));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  int      code;
  MPI_Comm agree; /* the exit agreement's own communicator */

  PetscCall(SlepcInitialize(&argc, &argv, NULL, help)); /* omega_max by Lanczos (SLEPc) unless -ts_omega_bound */
  MPI_Comm_dup(PETSC_COMM_WORLD, &agree);
  PetscCall(PetscPushErrorHandler(FlxErrorHandler, NULL)); /* one line, no traceback */
  code = FlxExitAgreed(agree, "flexure-bench", Run());
  MPI_Comm_free(&agree);
  PetscCall(PetscPopErrorHandler());
  PetscCall(SlepcFinalize());
  return code;
}
