/* Orders of the implicit generalized-alpha family with Newton on finite rotations (issue 14, the implicit part of
   must-show 6a; src/steppers/alphanewton.c). The manufactured rigid-body motion of test_gcd_rotation.c: one node
   with a spherical rotary inertia j turned by the external moment m(t) = j p x (exp(skew(p t)) q), whose exact
   motion is R(t) = exp(skew(p t)) exp(skew(q t)) (omega turns by several radians over T = 2 s, so successive
   rotation increments do not commute). The system is set up as a nonlinear one (configuration update, a zero
   Jacobian and strain energy: no stiffness), so the implicit steppers take their Newton path with composed
   rotations. Newmark (beta 1/4, gamma 1/2), HHT (alpha -0.1, -0.3) and generalized-alpha (rho_inf 0.8, 0.5, 0)
   are run at steps h, h/2, h/4; the orientation error |log(R_h^T R(T))| must fall at second order, and the
   angular velocity error too. */
#include <flexure/flexure.h>
#include <flexure/rotation.h>

#include "rotmotion.h"

typedef RotMotion Motion;

static PetscErrorCode Jacobian(FlxSystem sys, PetscReal t, Vec x, Vec v, PetscReal shiftV, Mat J, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscErrorCode Energy(FlxSystem sys, Vec x, PetscReal *e, void *ctx)
{
  PetscFunctionBegin;
  *e = 0;
  PetscFunctionReturn(0);
}

typedef struct {
  const char *type, *opt, *val;
} Method;

/* Orientation and angular velocity errors at T of the stepper's state. */
static PetscErrorCode StateErrors(Motion *mo, FlxStepper ts, PetscReal T, PetscReal err[2])
{
  Vec                x, v, a;
  const PetscScalar *xa, *va;
  PetscReal          psi[3], Rn[9], Re[9], Rp[9], Rq[9], E[9], e[3], pT[3], qT[3], wT[3];

  PetscFunctionBegin;
  PetscCall(FlxStepperGetState(ts, &x, &v, &a));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayRead(v, &va));
  for (int k = 0; k < 3; k++)
    psi[k] = xa[3 + k];
  TurnedQ(mo, T, wT);
  err[1] = 0;
  for (int k = 0; k < 3; k++) /* omega(T) = p + exp(skew(p T)) q */
    err[1] += PetscSqr(va[3 + k] - mo->p[k] - wT[k]);
  err[1] = PetscSqrtReal(err[1]);
  PetscCall(VecRestoreArrayRead(v, &va));
  PetscCall(VecRestoreArrayRead(x, &xa));
  FlxRotExp(psi, Rn);
  for (int k = 0; k < 3; k++) {
    pT[k] = mo->p[k] * T;
    qT[k] = mo->q[k] * T;
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
  err[0] = PetscSqrtReal(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
  PetscFunctionReturn(0);
}

/* Orientation and angular velocity errors at T of a run with step h; with again (not NULL), the stepper is then
   reset (FlxStepperReset), viewed, set up and run once more: again gets that run's errors. */
static PetscErrorCode Run(Motion *mo, const Method *me, PetscReal h, PetscReal T, PetscReal err[2], PetscReal *again)
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
    PetscCall(VecSetValue(mass, i, i < 3 ? 1.0 : mo->j, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(mass));
  PetscCall(VecAssemblyEnd(mass));
  PetscCall(VecZeroEntries(x0));
  TurnedQ(mo, 0, w0);
  for (PetscInt k = 0; k < 3; k++)
    PetscCall(VecSetValue(v0, 3 + k, mo->p[k] + w0[k], INSERT_VALUES));
  PetscCall(VecAssemblyBegin(v0));
  PetscCall(VecAssemblyEnd(v0));
  PetscCall(FlxSystemCreate(PETSC_COMM_SELF, &sys));
  PetscCall(FlxSystemSetMass(sys, mass, free));
  PetscCall(FlxSystemSetInternalForce(sys, Internal, PETSC_FALSE, NULL));
  PetscCall(FlxSystemSetExternalForce(sys, External, ExternalRate, mo));
  PetscCall(FlxSystemSetConfigurationUpdate(sys, Update, NULL));
  PetscCall(FlxSystemSetJacobian(sys, Jacobian, NULL));
  PetscCall(FlxSystemSetStrainEnergy(sys, Energy, NULL));
  PetscCall(FlxStepperCreate(PETSC_COMM_SELF, &ts));
  PetscCall(FlxStepperSetSystem(ts, sys));
  PetscCall(FlxStepperSetType(ts, me->type));
  PetscCall(PetscOptionsClearValue(NULL, "-ts_hht_alpha"));
  PetscCall(PetscOptionsClearValue(NULL, "-ts_genalpha_radius"));
  if (me->opt) PetscCall(PetscOptionsSetValue(NULL, me->opt, me->val));
  PetscCall(PetscOptionsSetValue(NULL, "-ts_monitor_interval", "-1"));
  PetscCall(FlxStepperSetFromOptions(ts));
  PetscCall(FlxStepperSetTimeStep(ts, h));
  PetscCall(FlxStepperSetMaxTime(ts, T));
  PetscCall(FlxStepperSetUp(ts));
  PetscCall(FlxStepperSetInitialConditions(ts, 0, x0, v0));
  PetscCall(FlxStepperSolve(ts));
  PetscCall(StateErrors(mo, ts, T, err));
  if (again) { /* the life cycle: Reset, View without side effects, SetUp, the same run */
    PetscReal e2[2];
    PetscCall(FlxStepperReset(ts));
    PetscCall(FlxStepperView(ts, PETSC_VIEWER_STDOUT_SELF));
    PetscCall(FlxStepperSetUp(ts));
    PetscCall(FlxStepperSetInitialConditions(ts, 0, x0, v0));
    PetscCall(FlxStepperSolve(ts));
    PetscCall(StateErrors(mo, ts, T, e2));
    *again = e2[0];
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
  Motion       mo        = {{0.3, -1.1, 0.7}, {1.3, 0.4, -0.5}, 2.5};
  const Method methods[] = {
      {"newmark", NULL, NULL},
      {"hht", "-ts_hht_alpha", "-0.1"},
      {"hht", "-ts_hht_alpha", "-0.3"},
      {"genalpha", "-ts_genalpha_radius", "0.8"},
      {"genalpha", "-ts_genalpha_radius", "0.5"},
      {"genalpha", "-ts_genalpha_radius", "0"},
  };
  PetscReal T = 2.0, h = 0.02;
  int       fails = 0;

  PetscCall(PetscInitialize(&argc, &argv, NULL, "Orders of the implicit steppers with Newton on finite rotations"));
  for (size_t c = 0; c < sizeof(methods) / sizeof(methods[0]); c++) {
    PetscReal e[3][2], o[2][2];
    PetscBool ok = PETSC_TRUE;
    for (int k = 0; k < 3; k++)
      PetscCall(Run(&mo, &methods[c], h / (1 << k), T, e[k], NULL));
    for (int q = 0; q < 2; q++) {
      o[q][0] = PetscLog2Real(e[0][q] / e[1][q]);
      o[q][1] = PetscLog2Real(e[1][q] / e[2][q]);
      ok      = (PetscBool)(ok && PetscAbsReal(o[q][1] - 2) < 0.1 && PetscAbsReal(o[q][0] - 2) < 0.2);
    }
    if (!ok) fails++;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %-8s %-20s %-4s orientation error at T = %g s: %.3e (h = %g), %.3e (h/2), %.3e (h/4): orders %.3f, %.3f; angular velocity error %.3e, %.3e, %.3e: orders %.3f, %.3f (want 2)\n", ok ? "PASS" : "FAIL", methods[c].type, methods[c].opt ? methods[c].opt : "(beta 1/4, gamma 1/2)", methods[c].val ? methods[c].val : "", (double)T,
                          (double)e[0][0], (double)h, (double)e[1][0], (double)e[2][0], (double)o[0][0], (double)o[0][1], (double)e[0][1], (double)e[1][1], (double)e[2][1], (double)o[1][0], (double)o[1][1]));
  }
  { /* the family's life cycle (FlxStepperReset): the same run after Reset, View and SetUp, bit for bit */
    PetscReal e[2], again;
    PetscBool ok;
    PetscCall(Run(&mo, &methods[3], h, T, e, &again));
    ok = (PetscBool)(again == e[0]);
    if (!ok) fails++;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: life cycle: genalpha run (orientation error %.6e), FlxStepperReset, View, SetUp, the same run: %.6e (bit-identical)\n", ok ? "PASS" : "FAIL", (double)e[0], (double)again));
  }
  PetscCall(PetscFinalize());
  return fails ? 1 : 0;
}
