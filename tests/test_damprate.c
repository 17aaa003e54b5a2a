/* damping_rate_estimate: a system that declares f_int velocity dependent (FlxSystemSetVelocityDependent) but gives no
   bound of its dampers' rate (FlxSystemSetDampingRate) gets one estimated at the initial state
   (FlxSystemEstimateDampingRate, stepper.c EstimateDampers), so the explicit steppers' damped check sees its dampers.
   Three DOFs per rank (the same block on each: the estimate is collective), masses M = diag(1, 2, 0.5),
   f_int = K x + c x^3 + D v (nonlinear: the given-step path), with
   D = M^1/2 Q diag(0.5, 2, 5) Q^T M^1/2 (Q a rotation), so the largest eigenvalue of M^-1 sym(D) is 5, plus a skew
   (gyroscopic) part M^1/2 W M^1/2 in some cases:
   - the estimate is 5 to 1e-9 without the skew part; with it, in (0, 5]; a skew part alone gives 0;
   - gcd4_a3/4 at a given step (a set whose spectral radius exceeds 1 for damped motion) is refused with the
     damped check's message (before, such a system ran unchecked), also when set up before its initial conditions;
     gcd3 runs; a declared rate 0 is the user's word. */
#include <flexure/flexure.h>
#include <flexure/rotation.h>
#include "testcheck.h"

typedef struct {
  PetscReal D[9]; /* the velocity derivative, row-major */
} Ctx;

static PetscErrorCode Internal(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  const Ctx         *c    = (const Ctx *)ctx;
  const PetscReal    K[3] = {40, 90, 20};
  const PetscScalar *xa, *va;
  PetscScalar       *fa;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayRead(v, &va));
  PetscCall(VecGetArrayWrite(f, &fa));
  for (int i = 0; i < 3; i++)
    fa[i] = K[i] * xa[i] + 3 * xa[i] * xa[i] * xa[i] + c->D[3 * i] * va[0] + c->D[3 * i + 1] * va[1] + c->D[3 * i + 2] * va[2];
  PetscCall(VecRestoreArrayWrite(f, &fa));
  PetscCall(VecRestoreArrayRead(v, &va));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscFunctionReturn(0);
}

/* c->D = M^1/2 (sym Q diag(0.5, 2, 5) Q^T if sym, + skew W if skew) M^1/2. */
static void Damping(PetscBool sym, PetscBool skew, const PetscReal m[3], Ctx *c)
{
  const PetscReal psi[3] = {0.4, -0.7, 0.9}, lam[3] = {0.5, 2, 5}, w[3] = {1.5, -0.8, 2.2};
  PetscReal       Q[9], W[9];

  FlxRotExp(psi, Q);
  FlxRotSkew(w, W);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      PetscReal s = 0;
      for (int k = 0; k < 3 && sym; k++)
        s += Q[3 * i + k] * lam[k] * Q[3 * j + k];
      if (skew) s += W[3 * i + j];
      c->D[3 * i + j] = PetscSqrtReal(m[i]) * s * PetscSqrtReal(m[j]);
    }
}

/* FlxStepperSetUp of preset with -ts_dt 1e-3 (the initial conditions given before it, or after it when x0 is NULL);
   ierr its error code, found whether its message names the damped check. */
static PetscErrorCode SetUp(MPI_Comm comm, FlxSystem sys, Vec x0, Vec v0, const char preset[], PetscErrorCode *ierr, PetscBool *found)
{
  FlxStepper ts;
  char      *hit;

  PetscFunctionBegin;
  PetscCall(PetscOptionsSetValue(NULL, "-ts_gcd_preset", preset));
  PetscCall(PetscOptionsSetValue(NULL, "-ts_dt", "1e-3"));
  PetscCall(FlxStepperCreate(comm, &ts));
  PetscCall(FlxStepperSetFromOptions(ts));
  PetscCall(FlxStepperSetSystem(ts, sys));
  if (x0) PetscCall(FlxStepperSetInitialConditions(ts, 0.0, x0, v0));
  PetscCall(PetscPushErrorHandler(FlxErrorHandler, NULL));
  *ierr = FlxStepperSetUp(ts);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscStrstr(FlxErrorGetMessage(), "amplifies damped motion", &hit));
  *found = (PetscBool)(*ierr && hit);
  if (*ierr) PetscCall(PetscPrintf(comm, "  %s: %.160s...\n", preset, FlxErrorGetMessage()));
  PetscCall(FlxStepperDestroy(&ts));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const PetscReal m[3] = {1, 2, 0.5};
  MPI_Comm        comm;
  PetscInt        lo;
  Ctx             c;
  FlxSystem       sys;
  Vec             mass, free, x0, v0;
  PetscReal       rate;
  PetscErrorCode  ierr;
  PetscBool       found;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(FlxInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscCall(VecCreateMPI(comm, 3, PETSC_DECIDE, &mass));
  PetscCall(VecGetOwnershipRange(mass, &lo, NULL));
  PetscCall(VecDuplicate(mass, &free));
  PetscCall(VecDuplicate(mass, &x0));
  PetscCall(VecDuplicate(mass, &v0));
  for (PetscInt i = 0; i < 3; i++)
    PetscCall(VecSetValue(mass, lo + i, m[i], INSERT_VALUES));
  PetscCall(VecAssemblyBegin(mass));
  PetscCall(VecAssemblyEnd(mass));
  PetscCall(VecSet(free, 1.0));
  PetscCall(VecSet(x0, 0.1));
  PetscCall(VecSet(v0, -0.3));
  PetscCall(FlxSystemCreate(comm, &sys));
  PetscCall(FlxSystemSetMass(sys, mass, free));
  PetscCall(FlxSystemSetInternalForce(sys, Internal, PETSC_FALSE, &c));
  PetscCall(FlxSystemSetVelocityDependent(sys, PETSC_TRUE));

  Damping(PETSC_TRUE, PETSC_FALSE, m, &c);
  PetscCall(FlxSystemEstimateDampingRate(sys, 0, x0, v0, 50, &rate));
  PetscCall(Check(comm, "estimate, symmetric D: |rate - 5| / 5", PetscAbsReal(rate - 5) / 5, 1e-10));
  Damping(PETSC_TRUE, PETSC_TRUE, m, &c);
  PetscCall(FlxSystemEstimateDampingRate(sys, 0, x0, v0, 50, &rate));
  PetscCall(PetscPrintf(comm, "  with a skew part: %.6g 1/s\n", (double)rate));
  PetscCall(Check(comm, "estimate, symmetric + skew D: in (0, 5] (1 if not)", rate > 0 && rate <= 5 * (1 + 1e-12) ? 0 : 1, 0));
  Damping(PETSC_FALSE, PETSC_TRUE, m, &c);
  PetscCall(FlxSystemEstimateDampingRate(sys, 0, x0, v0, 50, &rate));
  PetscCall(Check(comm, "estimate, skew D alone (gyroscopic: no dissipation)", rate, 0));

  Damping(PETSC_TRUE, PETSC_FALSE, m, &c);
  PetscCall(SetUp(comm, sys, x0, v0, "gcd4_a3/4", &ierr, &found));
  PetscCall(Check(comm, "gcd4_a3/4, dampers not declared: refused by the damped check (1 if not)", found ? 0 : 1, 0));
  PetscCall(SetUp(comm, sys, NULL, NULL, "gcd4_a3/4", &ierr, &found));
  PetscCall(Check(comm, "gcd4_a3/4, set up before the initial conditions: refused (1 if not)", found ? 0 : 1, 0));
  PetscCall(SetUp(comm, sys, x0, v0, "gcd3", &ierr, &found));
  PetscCall(Check(comm, "gcd3, dampers not declared: set up (error code)", (PetscReal)ierr, 0));
  Damping(PETSC_FALSE, PETSC_TRUE, m, &c);
  PetscCall(SetUp(comm, sys, x0, v0, "gcd4_a3/4", &ierr, &found));
  PetscCall(Check(comm, "gcd4_a3/4, a skew velocity term only: set up (error code)", (PetscReal)ierr, 0));
  Damping(PETSC_TRUE, PETSC_FALSE, m, &c);
  PetscCall(FlxSystemSetDampingRate(sys, 0));
  PetscCall(SetUp(comm, sys, x0, v0, "gcd4_a3/4", &ierr, &found));
  PetscCall(Check(comm, "gcd4_a3/4, a rate of 0 declared: set up, the user's word (error code)", (PetscReal)ierr, 0));

  PetscCall(PetscPrintf(comm, "%s\n", testcheck_fails ? "damping_rate_estimate: FAILED" : "damping_rate_estimate: all checks passed"));
  PetscCall(FlxSystemDestroy(&sys));
  PetscCall(VecDestroy(&mass));
  PetscCall(VecDestroy(&free));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&v0));
  PetscCall(PetscFinalize());
  return testcheck_fails ? 1 : 0;
}
