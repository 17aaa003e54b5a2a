/* A chain of pendulums, distributed (issue 16, must-show 6 and 7): N point masses in the vertical plane, each
   joined to the one before by a rigid rod (the first to a fixed pivot at the origin), released from rest in a
   straight line under gravity. The masses are split over the ranks in contiguous blocks; rod i lives on the rank
   of mass i, so the constraint Jacobian G (N x 2N) is a distributed sparse matrix with rows where the rods live and
   the multipliers (the rods' tensions, scaled) share its layout. The stepper sees only the system's constraints.
   -chain_model springs replaces the rods by stiff axial springs (an unconstrained system with the same unknowns:
   the explicit GCD step, for the cost comparison of scripts/bench_dae.py).
   Prints, last: max_energy_error (max_n |E_n - E_0|), max_drift (max_n |g(x_n)|_inf) and final_tip = x,y; with
   -chain_history K the tip and the middle mass every K steps (for the comparison over ranks).
   Usage: mpiexec -n 4 flexure-chain -chain_n 64 -ts_dt 1e-4 -ts_max_time 0.2 */
#include "../common/ode.h"

static const char help[] = "A chain of pendulums (rigid rods, or stiff springs), distributed over the ranks.\n";

typedef struct {
  PetscInt   N, lo, hi;  /* masses; this rank's [lo, hi) */
  PetscReal  L, m, g, k; /* rod length, mass of each, gravity, spring stiffness (springs model) */
  PetscBool  springs;
  VecScatter prev; /* the previous rank's last mass (x, y) into ghost (2 entries; the pivot on rank 0) */
  Vec        ghost, vghost;
} Chain;

/* (x, y) of mass lo - 1 (the pivot (0, 0) for lo = 0) from a DOF vector. */
static PetscErrorCode Previous(Chain *c, Vec x, Vec ghost, PetscReal p[2])
{
  const PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(VecScatterBegin(c->prev, x, ghost, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(c->prev, x, ghost, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(ghost, &a));
  p[0] = c->lo ? PetscRealPart(a[0]) : 0;
  p[1] = c->lo ? PetscRealPart(a[1]) : 0;
  PetscCall(VecRestoreArrayRead(ghost, &a));
  PetscFunctionReturn(0);
}

/* Rod i from mass i - 1 (or the pivot) to mass i: d = x_i - x_{i-1}, local i - lo. */
#define ROD(q, prv, i, d)                                                  \
  do {                                                                     \
    const PetscReal *b_ = (i) > c->lo ? (q) + 2 * ((i)-c->lo - 1) : (prv); \
    (d)[0]              = (q)[2 * ((i)-c->lo)] - b_[0];                    \
    (d)[1]              = (q)[2 * ((i)-c->lo) + 1] - b_[1];                \
  } while (0)

/* g_i = |x_i - x_{i-1}|^2 - L^2 */
static PetscErrorCode Constraint(FlxSystem sys, PetscReal t, Vec x, Vec g, void *ctx)
{
  Chain             *c = (Chain *)ctx;
  const PetscScalar *q;
  PetscScalar       *r;
  PetscReal          p[2], d[2];

  PetscFunctionBegin;
  PetscCall(Previous(c, x, c->ghost, p));
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetArrayWrite(g, &r));
  for (PetscInt i = c->lo; i < c->hi; i++) {
    ROD(q, p, i, d);
    r[i - c->lo] = d[0] * d[0] + d[1] * d[1] - c->L * c->L;
  }
  PetscCall(VecRestoreArrayWrite(g, &r));
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscFunctionReturn(0);
}

/* row i: 2 d on mass i, -2 d on mass i - 1 */
static PetscErrorCode Jacobian(FlxSystem sys, PetscReal t, Vec x, Mat G, void *ctx)
{
  Chain             *c = (Chain *)ctx;
  const PetscScalar *q;
  PetscReal          p[2], d[2];

  PetscFunctionBegin;
  PetscCall(Previous(c, x, c->ghost, p));
  PetscCall(VecGetArrayRead(x, &q));
  for (PetscInt i = c->lo; i < c->hi; i++) {
    PetscInt    cols[4] = {2 * i, 2 * i + 1, 2 * i - 2, 2 * i - 1};
    PetscScalar v[4];
    ROD(q, p, i, d);
    v[0] = 2 * d[0], v[1] = 2 * d[1], v[2] = -2 * d[0], v[3] = -2 * d[1];
    PetscCall(MatSetValues(G, 1, &i, i ? 4 : 2, cols, v, INSERT_VALUES));
  }
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscFunctionReturn(0);
}

/* G_x(v, v)_i = 2 |v_i - v_{i-1}|^2 */
static PetscErrorCode Curvature(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec w, void *ctx)
{
  Chain             *c = (Chain *)ctx;
  const PetscScalar *u;
  PetscScalar       *r;
  PetscReal          p[2], d[2];

  PetscFunctionBegin;
  PetscCall(Previous(c, v, c->vghost, p));
  PetscCall(VecGetArrayRead(v, &u));
  PetscCall(VecGetArrayWrite(w, &r));
  for (PetscInt i = c->lo; i < c->hi; i++) {
    ROD(u, p, i, d);
    r[i - c->lo] = 2 * (d[0] * d[0] + d[1] * d[1]);
  }
  PetscCall(VecRestoreArrayWrite(w, &r));
  PetscCall(VecRestoreArrayRead(v, &u));
  PetscFunctionReturn(0);
}

/* J += s d(G^T lambda)/dx: 2 s lambda_i [[I, -I], [-I, I]] on masses (i, i - 1) */
static PetscErrorCode Hessian(FlxSystem sys, PetscReal t, Vec x, Vec lambda, PetscReal s, Mat J, void *ctx)
{
  Chain             *c = (Chain *)ctx;
  const PetscScalar *l;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(lambda, &l));
  for (PetscInt i = c->lo; i < c->hi; i++) {
    const PetscReal a = 2 * s * PetscRealPart(l[i - c->lo]);
    for (PetscInt k = 0; k < 2; k++) {
      PetscCall(MatSetValue(J, 2 * i + k, 2 * i + k, a, ADD_VALUES));
      if (i) {
        PetscCall(MatSetValue(J, 2 * i - 2 + k, 2 * i - 2 + k, a, ADD_VALUES));
        PetscCall(MatSetValue(J, 2 * i + k, 2 * i - 2 + k, -a, ADD_VALUES));
        PetscCall(MatSetValue(J, 2 * i - 2 + k, 2 * i + k, -a, ADD_VALUES));
      }
    }
  }
  PetscCall(VecRestoreArrayRead(lambda, &l));
  PetscFunctionReturn(0);
}

/* the tangent of f_int: none for the rods (the constraint forces' tangent comes from Hessian) */
static PetscErrorCode NoTangent(FlxSystem sys, PetscReal t, Vec x, Vec v, PetscReal shiftV, Mat J, void *ctx)
{
  PetscFunctionBegin;
  PetscFunctionReturn(0);
}

/* The pattern of the implicit steppers' Newton matrix: each mass's x (y) with its neighbours' x (y), the couplings
   of d(G^T lambda)/dx; given as a (zero) stiffness so that FlxSystemCreateJacobianMatrix takes it. */
static PetscErrorCode TangentPattern(Chain *c, MPI_Comm comm, Mat *K)
{
  PetscFunctionBegin;
  PetscCall(MatCreateAIJ(comm, 2 * (c->hi - c->lo), 2 * (c->hi - c->lo), 2 * c->N, 2 * c->N, 3, NULL, 2, NULL, K)); /* off-process: both neighbours when a rank holds one mass */
  for (PetscInt i = c->lo; i < c->hi; i++)
    for (PetscInt k = 0; k < 2; k++) {
      PetscInt r = 2 * i + k;
      PetscCall(MatSetValue(*K, r, r, 0.0, INSERT_VALUES));
      if (i > 0) PetscCall(MatSetValue(*K, r, r - 2, 0.0, INSERT_VALUES));
      if (i + 1 < c->N) PetscCall(MatSetValue(*K, r, r + 2, 0.0, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(*K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*K, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscErrorCode Name(FlxSystem sys, PetscInt i, char name[], size_t len, void *ctx)
{
  Chain *c = (Chain *)ctx;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(name, len, "rod %" PetscInt_FMT " (mass %" PetscInt_FMT " to %s %" PetscInt_FMT ")", c->lo + i, c->lo + i, c->lo + i ? "mass" : "the pivot", c->lo + i - 1));
  PetscFunctionReturn(0);
}

/* gravity */
static PetscErrorCode External(FlxSystem sys, PetscReal t, Vec f, void *ctx)
{
  Chain       *c = (Chain *)ctx;
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCall(VecGetArrayWrite(f, &a));
  for (PetscInt i = 0; i < c->hi - c->lo; i++) {
    a[2 * i]     = 0;
    a[2 * i + 1] = -c->m * c->g;
  }
  PetscCall(VecRestoreArrayWrite(f, &a));
  PetscFunctionReturn(0);
}

/* rods: none; springs: k (|d| - L) d/|d| on mass i and its opposite on mass i - 1 (the rank of mass i adds both) */
static PetscErrorCode Internal(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  Chain             *c = (Chain *)ctx;
  const PetscScalar *q;
  PetscReal          p[2], d[2];

  PetscFunctionBegin;
  PetscCall(VecZeroEntries(f));
  if (!c->springs) PetscFunctionReturn(0);
  PetscCall(Previous(c, x, c->ghost, p));
  PetscCall(VecGetArrayRead(x, &q));
  for (PetscInt i = c->lo; i < c->hi; i++) {
    PetscReal   l, s;
    PetscScalar fv[2];
    PetscInt    rows[2] = {2 * i, 2 * i + 1};
    ROD(q, p, i, d);
    l     = PetscSqrtReal(d[0] * d[0] + d[1] * d[1]);
    s     = c->k * (l - c->L) / l;
    fv[0] = s * d[0], fv[1] = s * d[1];
    PetscCall(VecSetValues(f, 2, rows, fv, ADD_VALUES));
    if (i) {
      rows[0] -= 2, rows[1] -= 2, fv[0] = -fv[0], fv[1] = -fv[1];
      PetscCall(VecSetValues(f, 2, rows, fv, ADD_VALUES));
    }
  }
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscCall(VecAssemblyBegin(f));
  PetscCall(VecAssemblyEnd(f));
  PetscFunctionReturn(0);
}

typedef struct {
  Chain    *c;
  FlxSystem sys;
  Vec       g;
  PetscReal E0, maxerr, drift;
  PetscInt  hist;    /* -chain_history */
  PetscInt  tip;     /* global index of the tip's x DOF */
  PetscBool measure; /* -chain_measure: energy and drift every step */
} Monitor;

static PetscErrorCode ChainMonitor(FlxStepper ts, void *ctx)
{
  Monitor           *mo = (Monitor *)ctx;
  Chain             *c  = mo->c;
  Vec                x, v;
  const PetscScalar *q, *u;
  PetscReal          e[1] = {0}, t, gn = 0;
  PetscInt           step;

  PetscFunctionBegin;
  PetscCall(FlxStepperGetState(ts, &x, &v, NULL));
  PetscCall(FlxStepperGetTime(ts, &t, &step));
  if (!mo->measure) PetscFunctionReturn(0);
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetArrayRead(v, &u));
  for (PetscInt i = 0; i < c->hi - c->lo; i++)
    e[0] += 0.5 * c->m * (u[2 * i] * u[2 * i] + u[2 * i + 1] * u[2 * i + 1]) + c->m * c->g * q[2 * i + 1];
  PetscCall(VecRestoreArrayRead(v, &u));
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, e, 1, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)x)));
  if (step == 0) mo->E0 = e[0];
  mo->maxerr = PetscMax(mo->maxerr, PetscAbsReal(e[0] - mo->E0));
  if (mo->g) {
    PetscCall(FlxSystemComputeConstraint(mo->sys, t, x, mo->g));
    PetscCall(VecNorm(mo->g, NORM_INFINITY, &gn));
    mo->drift = PetscMax(mo->drift, gn);
  }
  if (mo->hist > 0 && step % mo->hist == 0) { /* the tip and the middle mass */
    PetscInt  idx[4] = {mo->tip, mo->tip + 1, 2 * (c->N / 2), 2 * (c->N / 2) + 1};
    PetscReal val[4] = {0, 0, 0, 0};
    PetscInt  lo, hi;
    PetscCall(VecGetOwnershipRange(x, &lo, &hi));
    PetscCall(VecGetArrayRead(x, &q));
    for (int k = 0; k < 4; k++)
      if (idx[k] >= lo && idx[k] < hi) val[k] = PetscRealPart(q[idx[k] - lo]);
    PetscCall(VecRestoreArrayRead(x, &q));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, val, 4, MPIU_REAL, MPIU_SUM, PetscObjectComm((PetscObject)x)));
    PetscCall(PetscPrintf(PetscObjectComm((PetscObject)x), "history t = %.10g tip = %.17g,%.17g middle = %.17g,%.17g drift = %.3e\n", (double)t, (double)val[0], (double)val[1], (double)val[2], (double)val[3], (double)gn));
  }
  PetscFunctionReturn(0);
}

typedef struct {
  FlxSystem  sys;
  FlxStepper ts;
  Vec        mass, free, x0, v0, g;
  Mat        G;
  Chain      c;
} Objects;

static PetscErrorCode RunChain(Objects *o)
{
  MPI_Comm    comm  = PETSC_COMM_WORLD;
  Chain      *c     = &o->c;
  PetscReal   total = 1, mtot = 1, angle = 0;
  PetscInt    nloc;
  PetscBool   help, view = PETSC_FALSE;
  PetscMPIInt rank, size;
  Monitor     mo = {c, NULL, NULL, 0, 0, 0, 0, 0, PETSC_TRUE};

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  c->N = 64, c->g = 9.81, c->k = 1e6;
  PetscOptionsBegin(comm, NULL, "Chain of pendulums", "");
  PetscCall(PetscOptionsInt("-chain_n", "Number of masses (2 unknowns each)", "", c->N, &c->N, NULL));
  PetscCall(PetscOptionsReal("-chain_length", "Total length (m)", "", total, &total, NULL));
  PetscCall(PetscOptionsReal("-chain_mass", "Total mass (kg)", "", mtot, &mtot, NULL));
  PetscCall(PetscOptionsReal("-chain_angle", "Initial angle of the straight chain below the horizontal (rad)", "", angle, &angle, NULL));
  PetscCall(PetscOptionsBool("-chain_springs", "Stiff axial springs instead of rigid rods (unconstrained: the explicit step)", "", c->springs, &c->springs, NULL));
  PetscCall(PetscOptionsReal("-chain_spring_stiffness", "Axial stiffness of each spring (N/m)", "", c->k, &c->k, NULL));
  PetscCall(PetscOptionsInt("-chain_history", "Print the tip and the middle mass every this many steps (0: never)", "", mo.hist, &mo.hist, NULL));
  PetscCall(PetscOptionsBool("-chain_measure", "Measure the energy error and the drift after every step (false: time the steps alone)", "", mo.measure, &mo.measure, NULL));
  PetscCall(PetscOptionsBool("-chain_view", "Print the stepper", "", view, &view, NULL));
  PetscOptionsEnd();
  PetscCheck(c->N >= size && total > 0 && mtot > 0, comm, PETSC_ERR_USER_INPUT, "-chain_n must be at least the number of ranks (%d), -chain_length and -chain_mass positive", size);
  c->L = total / c->N, c->m = mtot / c->N;
  nloc = c->N / size + (rank < c->N % size ? 1 : 0);
  PetscCallMPI(MPI_Scan(&nloc, &c->hi, 1, MPIU_INT, MPI_SUM, comm));
  c->lo  = c->hi - nloc;
  mo.tip = 2 * (c->N - 1);
  PetscCall(VecCreateMPI(comm, 2 * nloc, 2 * c->N, &o->mass));
  PetscCall(VecDuplicate(o->mass, &o->free));
  PetscCall(VecDuplicate(o->mass, &o->x0));
  PetscCall(VecDuplicate(o->mass, &o->v0));
  PetscCall(VecSet(o->mass, c->m));
  PetscCall(VecSet(o->free, 1.0));
  PetscCall(VecZeroEntries(o->v0));
  {
    PetscScalar *a;
    PetscCall(VecGetArrayWrite(o->x0, &a));
    for (PetscInt i = c->lo; i < c->hi; i++) {
      a[2 * (i - c->lo)]     = (i + 1) * c->L * PetscCosReal(angle);
      a[2 * (i - c->lo) + 1] = -(i + 1) * c->L * PetscSinReal(angle);
    }
    PetscCall(VecRestoreArrayWrite(o->x0, &a));
  }
  { /* the scatter of the previous rank's last mass */
    IS       from, to;
    PetscInt idx[2] = {PetscMax(2 * c->lo - 2, 0), PetscMax(2 * c->lo - 1, 1)};
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2, &c->ghost));
    PetscCall(VecDuplicate(c->ghost, &c->vghost));
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, 2, idx, PETSC_COPY_VALUES, &from));
    PetscCall(ISCreateStride(PETSC_COMM_SELF, 2, 0, 1, &to));
    PetscCall(VecScatterCreate(o->x0, from, c->ghost, to, &c->prev));
    PetscCall(ISDestroy(&from));
    PetscCall(ISDestroy(&to));
  }
  PetscCall(FlxSystemCreate(comm, &o->sys));
  PetscCall(FlxSystemSetMass(o->sys, o->mass, o->free));
  PetscCall(FlxSystemSetInternalForce(o->sys, Internal, PETSC_FALSE, c));
  PetscCall(FlxSystemSetExternalForce(o->sys, External, NULL, c));
  if (!c->springs) {
    PetscCall(MatCreateAIJ(comm, nloc, 2 * nloc, c->N, 2 * c->N, 4, NULL, 2, NULL, &o->G));
    PetscCall(FlxSystemSetConstraints(o->sys, o->G, Constraint, Jacobian, PETSC_FALSE, c));
    PetscCall(FlxSystemSetConstraintDerivatives(o->sys, NULL, Curvature, Hessian, c));
    PetscCall(FlxSystemSetConstraintNameFunction(o->sys, Name, c));
    PetscCall(FlxSystemCreateMultiplierVector(o->sys, &o->g));
    { /* the implicit steppers (newmark, hht, genalpha) iterate with Newton: they need the tangent's pattern */
      char      type[64] = "gcd";
      PetscBool gcd;
      PetscCall(PetscOptionsGetString(NULL, NULL, "-ts_type", type, sizeof(type), NULL));
      PetscCall(PetscStrcmp(type, "gcd", &gcd));
      if (!gcd) {
        Mat K;
        PetscCall(TangentPattern(c, comm, &K));
        PetscCall(FlxSystemSetStiffness(o->sys, K));
        PetscCall(MatDestroy(&K));
        PetscCall(FlxSystemSetJacobian(o->sys, NoTangent, c));
      }
    }
  }
  PetscCall(FlxStepperCreate(comm, &o->ts));
  PetscCall(FlxStepperSetMaxTime(o->ts, 0.1));
  PetscCall(FlxExampleDefaultOption("-ts_monitor_interval", "-1"));
  PetscCall(FlxStepperSetFromOptions(o->ts));
  PetscCall(PetscOptionsHasHelp(NULL, &help));
  if (help) PetscFunctionReturn(0);
  mo.sys = o->sys;
  mo.g   = o->g;
  PetscCall(FlxStepperSetSystem(o->ts, o->sys));
  PetscCall(FlxStepperSetInitialConditions(o->ts, 0.0, o->x0, o->v0));
  PetscCall(FlxStepperSetPostStep(o->ts, ChainMonitor, &mo));
  PetscCall(FlxStepperSetUp(o->ts));
  PetscCall(FlxOptionsCheckUnused(comm, NULL));
  if (view) PetscCall(FlxStepperView(o->ts, PETSC_VIEWER_STDOUT_(comm)));
  {
    PetscLogDouble t0, t1;
    PetscInt       steps;
    PetscCall(PetscTime(&t0));
    PetscCall(FlxStepperSolve(o->ts));
    PetscCall(PetscTime(&t1));
    PetscCall(FlxStepperGetTime(o->ts, NULL, &steps));
    PetscCall(PetscPrintf(comm, "%s chain of %" PetscInt_FMT " masses (%" PetscInt_FMT " unknowns) on %d ranks: %" PetscInt_FMT " steps in %.3f s, %.4g ms per step\n", c->springs ? "spring" : "rigid-rod", c->N, 2 * c->N, size, steps, (double)(t1 - t0), 1e3 * (t1 - t0) / PetscMax(steps, 1)));
  }
  {
    FlxStepperConvergedReason reason;
    const char               *msg;
    PetscCall(FlxStepperGetConvergedReason(o->ts, &reason, &msg));
    PetscCheck(reason >= 0, comm, PETSC_ERR_NOT_CONVERGED, "%s", msg);
  }
  {
    Vec       x;
    PetscReal tip[2] = {0, 0};
    PetscInt  lo, hi;
    PetscCall(FlxStepperGetState(o->ts, &x, NULL, NULL));
    PetscCall(VecGetOwnershipRange(x, &lo, &hi));
    if (mo.tip >= lo && mo.tip < hi) {
      const PetscScalar *q;
      PetscCall(VecGetArrayRead(x, &q));
      tip[0] = PetscRealPart(q[mo.tip - lo]), tip[1] = PetscRealPart(q[mo.tip + 1 - lo]);
      PetscCall(VecRestoreArrayRead(x, &q));
    }
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, tip, 2, MPIU_REAL, MPIU_SUM, comm));
    PetscCall(PetscPrintf(comm, "max_energy_error = %.17g\nmax_drift = %.17g\nfinal_tip = %.17g,%.17g\n", (double)mo.maxerr, (double)mo.drift, (double)tip[0], (double)tip[1]));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Run(void)
{
  Objects        o;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&o, sizeof(o)));
  ierr = RunChain(&o);
  if (ierr) PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  PetscCall(FlxStepperDestroy(&o.ts));
  PetscCall(FlxSystemDestroy(&o.sys));
  PetscCall(VecDestroy(&o.mass));
  PetscCall(VecDestroy(&o.free));
  PetscCall(VecDestroy(&o.x0));
  PetscCall(VecDestroy(&o.v0));
  PetscCall(VecDestroy(&o.g));
  PetscCall(MatDestroy(&o.G));
  PetscCall(VecScatterDestroy(&o.c.prev));
  PetscCall(VecDestroy(&o.c.ghost));
  PetscCall(VecDestroy(&o.c.vghost));
  if (ierr) PetscCall(PetscPopErrorHandler());
  PetscFunctionReturn(ierr);
}

int main(int argc, char **argv)
{
  return FlxExampleMain(argc, argv, help, "flexure-chain", Run);
}
