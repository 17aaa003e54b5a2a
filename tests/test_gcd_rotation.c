/* Orders of the GCD steppers on finite rotations (issue 14, must-show 6a; time-integration.md 1, "Finite
   rotations"). One rigid node with a spherical rotary inertia j (no gyroscopic term) turned by a known external
   moment along the manufactured motion

       R(t) = exp(skew(p t)) exp(skew(q t)),  omega(t) = p + exp(skew(p t)) q,  m(t) = j omega'(t) = j p x (exp(skew(p t)) q)

   whose angular velocity changes direction (omega x omega' != 0): the case where successive rotation increments
   do not commute. The system is set up as any nonlinear one (configuration update, no stiffness); each degree
   is run at steps h and h/2 and the orientation error |log(R_h^T R(T))| gives the order. With -ts_gcd_magnus
   false (component-wise increments) degrees 4 and 5 fall to second order; the test checks that too, so the
   correction is shown to matter, not just to do no harm. */
#include <flexure/flexure.h>
#include <flexure/rotation.h>

#include "rotmotion.h"

typedef struct {
  RotMotion   m;             /* the motion (first: the system's callbacks take &mo->m) */
  const char *lifecycle;     /* after the run: Reset, this preset, SetUp and run again */
  PetscReal   lifecycle_err; /* its error */
} Motion;

/* Orientation error at T of the stepper's state. */
static PetscErrorCode OrientationError(Motion *mo, FlxStepper ts, PetscReal T, PetscReal *err)
{
  Vec                x;
  const PetscScalar *xa;
  PetscReal          psi[3], Rn[9], Re[9], Rp[9], Rq[9], E[9], e[3], pT[3], qT[3];

  PetscFunctionBegin;
  PetscCall(FlxStepperGetState(ts, &x, NULL, NULL));
  PetscCall(VecGetArrayRead(x, &xa));
  for (int k = 0; k < 3; k++)
    psi[k] = xa[3 + k];
  PetscCall(VecRestoreArrayRead(x, &xa));
  FlxRotExp(psi, Rn);
  for (int k = 0; k < 3; k++) {
    pT[k] = mo->m.p[k] * T;
    qT[k] = mo->m.q[k] * T;
  }
  FlxRotExp(pT, Rp);
  FlxRotExp(qT, Rq);
  FlxRotCompose(Rp, Rq, Re);
  for (int i = 0; i < 3; i++) /* E = Rn^T Re */
    for (int k = 0; k < 3; k++) {
      E[3 * i + k] = 0;
      for (int l = 0; l < 3; l++)
        E[3 * i + k] += Rn[3 * l + i] * Re[3 * l + k];
    }
  FlxRotLog(E, e);
  *err = PetscSqrtReal(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
  PetscFunctionReturn(0);
}

/* Orientation error at T of a run with step h. */
static PetscErrorCode Run(Motion *mo, const char preset[], PetscBool magnus, PetscReal h, PetscReal T, PetscReal *err)
{
  FlxSystem  sys;
  FlxStepper ts;
  Vec        mass, free, x0, v0;
  PetscReal  w0[3];

  PetscFunctionBegin;
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 6, &mass));
  PetscCall(VecDuplicate(mass, &free));
  PetscCall(VecDuplicate(mass, &x0));
  PetscCall(VecDuplicate(mass, &v0));
  PetscCall(VecSet(free, 1));
  for (PetscInt i = 0; i < 6; i++)
    PetscCall(VecSetValue(mass, i, i < 3 ? 1.0 : mo->m.j, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(mass));
  PetscCall(VecAssemblyEnd(mass));
  PetscCall(VecZeroEntries(x0));
  TurnedQ(&mo->m, 0, w0);
  for (PetscInt k = 0; k < 3; k++)
    PetscCall(VecSetValue(v0, 3 + k, mo->m.p[k] + w0[k], INSERT_VALUES));
  PetscCall(VecAssemblyBegin(v0));
  PetscCall(VecAssemblyEnd(v0));
  PetscCall(FlxSystemCreate(PETSC_COMM_SELF, &sys));
  PetscCall(FlxSystemSetMass(sys, mass, free));
  PetscCall(FlxSystemSetInternalForce(sys, Internal, PETSC_FALSE, NULL));
  PetscCall(FlxSystemSetExternalForce(sys, External, ExternalRate, &mo->m));
  PetscCall(FlxSystemSetConfigurationUpdate(sys, Update, NULL));
  PetscCall(FlxStepperCreate(PETSC_COMM_SELF, &ts));
  PetscCall(FlxStepperSetSystem(ts, sys));
  PetscCall(FlxStepperSetType(ts, FLXSTEPPERGCD));
  PetscCall(PetscOptionsSetValue(NULL, "-ts_gcd_preset", preset));
  PetscCall(PetscOptionsSetValue(NULL, "-ts_gcd_magnus", magnus ? "true" : "false"));
  PetscCall(PetscOptionsSetValue(NULL, "-ts_monitor_interval", "-1"));
  PetscCall(FlxStepperSetFromOptions(ts));
  PetscCall(FlxStepperSetTimeStep(ts, h));
  PetscCall(FlxStepperSetMaxTime(ts, T));
  PetscCall(FlxStepperSetUp(ts));
  PetscCall(FlxStepperSetInitialConditions(ts, 0, x0, v0));
  PetscCall(FlxStepperSolve(ts));
  PetscCall(OrientationError(mo, ts, T, err));
  if (mo->lifecycle) { /* View has no side effects; Reset, a typed setter and SetUp again give a fresh stepper's run */
    PetscReal e2;
    PetscCall(FlxStepperReset(ts));
    PetscCall(FlxStepperView(ts, PETSC_VIEWER_STDOUT_SELF));
    PetscCall(FlxStepperGCDSetPreset(ts, mo->lifecycle));
    PetscCall(FlxStepperSetUp(ts));
    PetscCall(FlxStepperSetInitialConditions(ts, 0, x0, v0));
    PetscCall(FlxStepperSolve(ts));
    PetscCall(OrientationError(mo, ts, T, &e2));
    mo->lifecycle_err = e2;
  }
  PetscCall(FlxStepperDestroy(&ts));
  PetscCall(FlxSystemDestroy(&sys));
  PetscCall(VecDestroy(&mass));
  PetscCall(VecDestroy(&free));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&v0));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  /* p and q skew, of different sizes: omega turns by several radians over T */
  Motion mo = {{{0.3, -1.1, 0.7}, {1.3, 0.4, -0.5}, 2.5}, NULL, 0};
  struct {
    const char *preset;
    PetscReal   order, h;
  } cases[] = {
      {"gcd3", 2, 0.02},
      {"gcd4_a1/4", 3, 0.02},
      {"gcd5", 4, 0.02},
  };
  PetscReal T     = 2.0;
  int       fails = 0;

  PetscCall(PetscInitialize(&argc, &argv, NULL, "Orders of the GCD steppers on finite rotations"));
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    for (int mag = 1; mag >= 0; mag--) {
      PetscReal e1, e2, e3, o1, o2, want = mag ? cases[c].order : 2, h = cases[c].h;
      PetscBool ok;
      if (!mag && cases[c].order == 2) continue;
      PetscCall(Run(&mo, cases[c].preset, (PetscBool)mag, h, T, &e1));
      PetscCall(Run(&mo, cases[c].preset, (PetscBool)mag, h / 2, T, &e2));
      PetscCall(Run(&mo, cases[c].preset, (PetscBool)mag, h / 4, T, &e3));
      o1 = PetscLog2Real(e1 / e2);
      o2 = PetscLog2Real(e2 / e3);
      ok = (PetscBool)(PetscAbsReal(o2 - want) < 0.15 && PetscAbsReal(o1 - want) < 0.3);
      if (!ok) fails++;
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %-10s %s: orientation error at T = %g s: %.3e (h = %g), %.3e (h/2), %.3e (h/4); observed orders %.3f, %.3f (want %g)\n", ok ? "PASS" : "FAIL", cases[c].preset, mag ? "Magnus increments  " : "component-wise     ", (double)T, (double)e1, (double)h, (double)e2, (double)e3, (double)o1, (double)o2, (double)want));
    }
  }
  { /* life cycle: a gcd3 stepper reset and made gcd5 runs as a fresh gcd5 stepper, bit for bit */
    PetscReal e3, e5;
    PetscBool ok;
    mo.lifecycle = "gcd5";
    PetscCall(Run(&mo, "gcd3", PETSC_TRUE, 0.02, T, &e3));
    mo.lifecycle = NULL;
    PetscCall(Run(&mo, "gcd5", PETSC_TRUE, 0.02, T, &e5));
    ok = (PetscBool)(mo.lifecycle_err == e5 && e3 != e5);
    if (!ok) fails++;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: life cycle: gcd3 (error %.3e), FlxStepperReset, FlxStepperGCDSetPreset gcd5, SetUp, Solve: error %.6e, a fresh gcd5 stepper %.6e (bit-identical)\n", ok ? "PASS" : "FAIL", (double)e3, (double)mo.lifecycle_err, (double)e5));
  }
  PetscCall(PetscFinalize());
  return fails ? 1 : 0;
}
