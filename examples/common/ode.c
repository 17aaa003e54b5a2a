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
  if (m->ode->monitor) PetscCall(m->ode->monitor(t, xa, va, m->ode->ctx));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(VecRestoreArrayRead(v, &va));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxExampleDefaultOption(const char name[], const char value[])
{
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(PetscOptionsHasName(NULL, NULL, name, &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, name, value));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxExampleDefaultGCD(const char preset_params[])
{
  char      type[64] = FLXSTEPPERGCD;
  PetscBool set1, set2, set3, gcd;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-ts_type", type, sizeof(type), NULL));
  PetscCall(PetscStrcmp(type, FLXSTEPPERGCD, &gcd));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-ts_gcd_preset", &set1));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-ts_gcd_degree", &set2));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-ts_gcd_params", &set3));
  if (gcd && preset_params && !set1 && !set2) { /* the example's set, unless the user chose one */
    char deg[2] = {preset_params[0], 0};
    PetscCall(PetscOptionsSetValue(NULL, "-ts_gcd_degree", deg));
    if (!set3) PetscCall(PetscOptionsSetValue(NULL, "-ts_gcd_params", preset_params + 2));
  }
  /* the paper started its examples with the higher derivatives at 0 (its Table 7 is reproduced only so) */
  if (gcd) PetscCall(FlxExampleDefaultOption("-ts_gcd_startup", "zero"));
  PetscFunctionReturn(0);
}

/* The objects of a run, destroyed by FlxExampleRunODE whether the run succeeded or not (no leak after an
   error, scripts/sanitize). */
typedef struct {
  FlxSystem  sys;
  FlxStepper ts;
  Vec        mass, free, x0, v0;
} ODEObjects;

static PetscErrorCode RunODE(const FlxExampleODE *ode, ODEObjects *o, Monitor *mon)
{
  PetscScalar *a;
  PetscBool    help;

  PetscFunctionBegin;
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, ode->n, &o->mass));
  PetscCall(VecDuplicate(o->mass, &o->free));
  PetscCall(VecDuplicate(o->mass, &o->x0));
  PetscCall(VecDuplicate(o->mass, &o->v0));
  PetscCall(VecSet(o->mass, 1.0));
  PetscCall(VecSet(o->free, 1.0));
  PetscCall(VecGetArrayWrite(o->x0, &a));
  for (PetscInt i = 0; i < ode->n; i++)
    a[i] = ode->x0[i];
  PetscCall(VecRestoreArrayWrite(o->x0, &a));
  PetscCall(VecGetArrayWrite(o->v0, &a));
  for (PetscInt i = 0; i < ode->n; i++)
    a[i] = ode->v0[i];
  PetscCall(VecRestoreArrayWrite(o->v0, &a));
  PetscCall(FlxSystemCreate(PETSC_COMM_SELF, &o->sys));
  PetscCall(FlxSystemSetMass(o->sys, o->mass, o->free));
  PetscCall(FlxSystemSetInternalForce(o->sys, ode->fint, PETSC_FALSE, ode->ctx));
  PetscCall(FlxSystemSetVelocityDependent(o->sys, ode->vdep));
  PetscCall(FlxStepperCreate(PETSC_COMM_SELF, &o->ts));
  PetscCall(FlxStepperSetMaxTime(o->ts, 10.0));
  PetscCall(FlxExampleDefaultOption("-ts_monitor_interval", "-1")); /* quiet unless asked */
  PetscCall(FlxExampleDefaultGCD(ode->preset_params));
  PetscCall(FlxStepperSetFromOptions(o->ts));
  PetscCall(PetscOptionsHasHelp(NULL, &help));
  if (!help) { /* with -help the options are printed: nothing to run */
    PetscCall(FlxStepperSetSystem(o->ts, o->sys));
    PetscCall(FlxStepperSetInitialConditions(o->ts, 0.0, o->x0, o->v0));
    PetscCall(FlxStepperSetPostStep(o->ts, EnergyMonitor, mon));
    PetscCall(FlxStepperSetUp(o->ts));
    PetscCall(FlxOptionsCheckUnused(PETSC_COMM_SELF, NULL));
    if (ode->view) PetscCall(FlxStepperView(o->ts, PETSC_VIEWER_STDOUT_SELF));
    PetscCall(FlxStepperSolve(o->ts));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "energy error: largest at t = %.6g s; at the end E - E_0 = %.6e\n", (double)mon->tmax, (double)mon->last));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "max_energy_error = %.6e\n", (double)mon->maxerr));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxExampleRunODE(const FlxExampleODE *ode)
{
  Monitor        mon = {ode, 0, 0, 0, 0};
  ODEObjects     o   = {NULL, NULL, NULL, NULL, NULL, NULL};
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ierr = RunODE(ode, &o, &mon);
  if (ierr) PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); /* keep the first message */
  PetscCall(FlxStepperDestroy(&o.ts));
  PetscCall(FlxSystemDestroy(&o.sys));
  PetscCall(VecDestroy(&o.mass));
  PetscCall(VecDestroy(&o.free));
  PetscCall(VecDestroy(&o.x0));
  PetscCall(VecDestroy(&o.v0));
  if (ierr) PetscCall(PetscPopErrorHandler());
  PetscFunctionReturn(ierr);
}

int FlxExampleMain(int argc, char **argv, const char *help, const char *name, PetscErrorCode (*run)(void))
{
  int      code;
  MPI_Comm agree; /* the exit agreement's own communicator: nothing else may match its collectives */

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  MPI_Comm_dup(PETSC_COMM_WORLD, &agree);
  PetscCall(PetscPushErrorHandler(FlxErrorHandler, NULL));
  code = FlxExitAgreed(agree, name, run()); /* one line; a rank that failed alone prints its own */
  MPI_Comm_free(&agree);
  PetscPopErrorHandler();
  PetscCall(PetscFinalize());
  return code;
}
