/* The paper's simple pendulum (seed paper 000, section 3; time-integration.md "The paper's reproducible
   numbers") integrated by flexure's own steppers through the second-order system interface.
   A point mass of 1 kg on a massless rod of 1 m, theta measured from the horizontal, released from rest
   at theta = 0: theta'' = -(g / L) cos(theta). Energy per unit mass E = 1/2 L^2 theta'^2 + g L sin(theta).
   Prints max_energy_error = max_n |E(x_n, v_n) - E(t_0)| as its last line.
   Usage: flexure-pendulum -ts_gcd_preset gcd4_a3/4 -ts_dt 1e-3 [-ts_max_time 10] */
#include <flexure/flexure.h>

static const char help[] = "The paper's simple pendulum integrated by a flexure stepper.\n";

typedef struct {
  PetscReal g, L, E0, maxerr;
} Pendulum;

/* f_int(theta) = (g / L) cos(theta), with unit mass: theta'' + f_int = 0 */
static PetscErrorCode InternalForce(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  Pendulum          *p = (Pendulum *)ctx;
  const PetscScalar *xa;
  PetscScalar       *fa;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayWrite(f, &fa));
  fa[0] = p->g / p->L * PetscCosReal(xa[0]);
  PetscCall(VecRestoreArrayWrite(f, &fa));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscFunctionReturn(0);
}

static PetscReal Energy(const Pendulum *p, PetscReal th, PetscReal w)
{
  return 0.5 * p->L * p->L * w * w + p->g * p->L * PetscSinReal(th);
}

static PetscErrorCode PostStep(FlxStepper ts, void *ctx)
{
  Pendulum          *p = (Pendulum *)ctx;
  Vec                x, v;
  const PetscScalar *xa, *va;
  PetscInt           step;

  PetscFunctionBegin;
  PetscCall(FlxStepperGetState(ts, &x, &v, NULL));
  PetscCall(FlxStepperGetTime(ts, NULL, &step));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayRead(v, &va));
  if (step == 0) p->E0 = Energy(p, xa[0], va[0]);
  else p->maxerr = PetscMax(p->maxerr, PetscAbsReal(Energy(p, xa[0], va[0]) - p->E0));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(VecRestoreArrayRead(v, &va));
  PetscFunctionReturn(0);
}

static PetscErrorCode Run(void)
{
  Pendulum   p = {9.81, 1.0, 0, 0};
  FlxSystem  sys;
  FlxStepper ts;
  Vec        mass, free, x0, v0;
  PetscBool  view = PETSC_FALSE;

  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "Pendulum", "");
  PetscCall(PetscOptionsReal("-pendulum_g", "Gravity (m/s^2)", "", p.g, &p.g, NULL));
  PetscCall(PetscOptionsReal("-pendulum_length", "Rod length (m)", "", p.L, &p.L, NULL));
  PetscCall(PetscOptionsBool("-pendulum_view", "Print the stepper", "", view, &view, NULL));
  PetscOptionsEnd();
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 1, &mass));
  PetscCall(VecDuplicate(mass, &free));
  PetscCall(VecDuplicate(mass, &x0));
  PetscCall(VecDuplicate(mass, &v0));
  PetscCall(VecSet(mass, 1.0));
  PetscCall(VecSet(free, 1.0));
  PetscCall(VecSet(x0, 0.0));
  PetscCall(VecSet(v0, 0.0));
  PetscCall(FlxSystemCreate(PETSC_COMM_SELF, &sys));
  PetscCall(FlxSystemSetMass(sys, mass, free));
  PetscCall(FlxSystemSetInternalForce(sys, InternalForce, PETSC_FALSE, &p));
  PetscCall(FlxStepperCreate(PETSC_COMM_SELF, &ts));
  PetscCall(FlxStepperSetMaxTime(ts, 10.0));
  {
    PetscBool set;
    PetscCall(PetscOptionsHasName(NULL, NULL, "-ts_monitor_interval", &set));
    if (!set) PetscCall(PetscOptionsSetValue(NULL, "-ts_monitor_interval", "-1")); /* quiet unless asked */
  }
  PetscCall(FlxStepperSetFromOptions(ts));
  PetscCall(FlxStepperSetSystem(ts, sys));
  PetscCall(FlxStepperSetInitialConditions(ts, 0.0, x0, v0));
  PetscCall(FlxStepperSetPostStep(ts, PostStep, &p));
  PetscCall(FlxStepperSetUp(ts));
  if (view) PetscCall(FlxStepperView(ts, PETSC_VIEWER_STDOUT_SELF));
  PetscCall(FlxStepperSolve(ts));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "max_energy_error = %.6e\n", (double)p.maxerr));
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
  PetscErrorCode ierr;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscPushErrorHandler(FlxErrorHandler, NULL));
  ierr = Run();
  if (ierr) fprintf(stderr, "flexure-pendulum: error: %s\n", FlxErrorGetMessage());
  PetscPopErrorHandler();
  PetscCall(PetscFinalize());
  return ierr ? 1 : 0;
}
