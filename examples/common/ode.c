/* Shared driver of the ODE examples: see ode.h. */
#include "ode.h"

typedef struct {
  const FlxExampleODE *ode;
  PetscReal            E0, maxerr, tmax, last; /* max |E - E_0|, its time, E - E_0 at the last step */
} Monitor;

static PetscErrorCode EnergyMonitor(FlxStepper ts, void *ctx)
{
  Monitor           *m = (Monitor *)ctx;
  Vec                x, v;
  const PetscScalar *xa, *va;
  PetscInt           step;
  PetscReal          E, t;

  PetscFunctionBegin;
  PetscCall(FlxStepperGetState(ts, &x, &v, NULL));
  PetscCall(FlxStepperGetTime(ts, &t, &step));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayRead(v, &va));
  E = m->ode->energy(xa, va, m->ode->ctx);
  if (step == 0)
    m->E0 = E;
  else if (PetscAbsReal(E - m->E0) > m->maxerr) {
    m->maxerr = PetscAbsReal(E - m->E0);
    m->tmax   = t;
  }
  m->last = E - m->E0;
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(VecRestoreArrayRead(v, &va));
  PetscFunctionReturn(0);
}

/* Set an option unless the user gave it. */
static PetscErrorCode DefaultOption(const char name[], const char value[])
{
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasName(NULL, NULL, name, &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, name, value));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxExampleRunODE(const FlxExampleODE *ode)
{
  Monitor      mon = {ode, 0, 0, 0, 0};
  FlxSystem    sys;
  FlxStepper   ts;
  Vec          mass, free, x0, v0;
  PetscScalar *a;
  PetscBool    help;

  PetscFunctionBegin;
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, ode->n, &mass));
  PetscCall(VecDuplicate(mass, &free));
  PetscCall(VecDuplicate(mass, &x0));
  PetscCall(VecDuplicate(mass, &v0));
  PetscCall(VecSet(mass, 1.0));
  PetscCall(VecSet(free, 1.0));
  PetscCall(VecGetArrayWrite(x0, &a));
  for (PetscInt i = 0; i < ode->n; i++)
    a[i] = ode->x0[i];
  PetscCall(VecRestoreArrayWrite(x0, &a));
  PetscCall(VecGetArrayWrite(v0, &a));
  for (PetscInt i = 0; i < ode->n; i++)
    a[i] = ode->v0[i];
  PetscCall(VecRestoreArrayWrite(v0, &a));
  PetscCall(FlxSystemCreate(PETSC_COMM_SELF, &sys));
  PetscCall(FlxSystemSetMass(sys, mass, free));
  PetscCall(FlxSystemSetInternalForce(sys, ode->fint, PETSC_FALSE, ode->ctx));
  PetscCall(FlxSystemSetVelocityDependent(sys, ode->vdep));
  PetscCall(FlxStepperCreate(PETSC_COMM_SELF, &ts));
  PetscCall(FlxStepperSetMaxTime(ts, 10.0));
  PetscCall(DefaultOption("-ts_monitor_interval", "-1")); /* quiet unless asked */
  {
    char      type[64] = FLXSTEPPERGCD;
    PetscBool set1, set2, set3, gcd;
    PetscCall(PetscOptionsGetString(NULL, NULL, "-ts_type", type, sizeof(type), NULL));
    PetscCall(PetscStrcmp(type, FLXSTEPPERGCD, &gcd));
    PetscCall(PetscOptionsHasName(NULL, NULL, "-ts_gcd_preset", &set1));
    PetscCall(PetscOptionsHasName(NULL, NULL, "-ts_gcd_degree", &set2));
    PetscCall(PetscOptionsHasName(NULL, NULL, "-ts_gcd_params", &set3));
    if (gcd && ode->preset_params && !set1 && !set2) { /* the example's set, unless the user chose one */
      char deg[2] = {ode->preset_params[0], 0};
      PetscCall(PetscOptionsSetValue(NULL, "-ts_gcd_degree", deg));
      if (!set3) PetscCall(PetscOptionsSetValue(NULL, "-ts_gcd_params", ode->preset_params + 2));
    }
    /* the paper started its examples with the higher derivatives at 0 (its Table 7 is reproduced only so) */
    if (gcd) PetscCall(DefaultOption("-ts_gcd_startup", "zero"));
  }
  PetscCall(FlxStepperSetFromOptions(ts));
  PetscCall(PetscOptionsHasHelp(NULL, &help));
  if (!help) { /* with -help the options are printed: nothing to run */
    PetscCall(FlxStepperSetSystem(ts, sys));
    PetscCall(FlxStepperSetInitialConditions(ts, 0.0, x0, v0));
    PetscCall(FlxStepperSetPostStep(ts, EnergyMonitor, &mon));
    PetscCall(FlxStepperSetUp(ts));
    PetscCall(FlxOptionsCheckUnused(PETSC_COMM_SELF, NULL));
    if (ode->view) PetscCall(FlxStepperView(ts, PETSC_VIEWER_STDOUT_SELF));
    PetscCall(FlxStepperSolve(ts));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "energy error: largest at t = %.6g s; at the end E - E_0 = %.6e\n", (double)mon.tmax, (double)mon.last));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "max_energy_error = %.6e\n", (double)mon.maxerr));
  }
  PetscCall(FlxStepperDestroy(&ts));
  PetscCall(FlxSystemDestroy(&sys));
  PetscCall(VecDestroy(&mass));
  PetscCall(VecDestroy(&free));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&v0));
  PetscFunctionReturn(0);
}

int FlxExampleMain(int argc, char **argv, const char *help, const char *name, PetscErrorCode (*run)(void))
{
  PetscErrorCode ierr;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscPushErrorHandler(FlxErrorHandler, NULL));
  ierr = run();
  if (ierr) fprintf(stderr, "%s: error: %s\n", name, FlxErrorGetMessage());
  PetscPopErrorHandler();
  PetscCall(PetscFinalize());
  return ierr ? 1 : 0;
}
