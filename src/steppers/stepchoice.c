/* FlxStepper's step choice (FlxStepperSetUp): omega_max and the critical step of the method, the damped checks
   (the method's damped spectral radius along the modes the system's damping allows), the dampers' rate estimated
   for a system that declares velocity-dependent forces without one, and the checks of a step given. */
#include <flexure/private/stepperimpl.h>

/* Round down to three significant digits, so the step is a readable number. */
PetscReal FlxStepperRoundStep(PetscReal h)
{
  PetscReal e = PetscPowReal(10.0, PetscFloorReal(PetscLog10Real(h)) - 2);
  return PetscFloorReal(h / e) * e;
}

/* The damped modes the system's damping allows, checked against the method at the step h: omega log-spaced from
   wmax down by the given decades (49 points), each at zeta(omega) = aM / (2 omega) + bK omega / 2 (Rayleigh), plus
   s r / (2 omega) for s = 0, 1/4, .., 1 when the dampers' rate bound r > 0 (the Rayleigh quotient of their matrix
   over a mass-normalized mode is at most r). *stable, or the first point where rho > 1: Omega, zeta, rho.
   Not collective. */
static PetscErrorCode DampedScan(FlxStepper ts, const PetscReal damp[3], PetscReal h, PetscReal wmax, PetscReal decades, PetscBool *stable, PetscReal *Om, PetscReal *z, PetscReal *rho)
{
  const PetscReal aM = damp[0], bK = damp[1], rate = damp[2];

  PetscFunctionBegin;
  *stable = PETSC_TRUE;
  for (int k = 0; k <= 48; k++) {
    const PetscReal w = wmax * PetscPowReal(10.0, -decades * k / 48);
    *Om               = w * h;
    for (int j = 0; j < (rate > 0 ? 5 : 1); j++) {
      *z = aM / (2 * w) + bK * w / 2 + 0.25 * j * rate / (2 * w);
      PetscCall(ts->ops.spectral_radius(ts, *Om, *z, rho));
      if (*rho > 1 + 1e-10) {
        *stable = PETSC_FALSE;
        PetscFunctionReturn(0);
      }
    }
  }
  PetscFunctionReturn(0);
}

/* The system's damping: Rayleigh aM, bK and the dampers' rate bound; PETSC_FALSE when it has none. */
static PetscErrorCode GetDamping(FlxStepper ts, PetscReal damp[3], PetscBool *any)
{
  PetscFunctionBegin;
  PetscCall(FlxSystemGetRayleigh(ts->sys, &damp[0], &damp[1]));
  PetscCall(FlxSystemGetDampingMatrix(ts->sys, NULL, &damp[2]));
  damp[2] += ts->drate_est;
  *any = (PetscBool)(damp[0] != 0 || damp[1] != 0 || damp[2] != 0);
  PetscFunctionReturn(0);
}

/* A system whose f_int is declared velocity dependent without a bound of its dampers' rate: the rate estimated at
   the initial state (at rest at the origin when the stepper is set up before its initial conditions), so the
   damped checks below do not pass such dampers by (a gcd4/gcd5 set that amplifies damped motion ran unchecked). With
   a mass-matrix function (M(q)) the estimate, which uses the lumped mass, is not made, and a note says so.
   Collective. */
static PetscErrorCode EstimateDampers(FlxStepper ts)
{
  PetscBool need, full;
  Vec       x = ts->x0, v = ts->v0, mass;

  PetscFunctionBegin;
  ts->drate_est = 0;
  PetscCall(FlxSystemNeedsDampingRate(ts->sys, &need));
  if (!need) PetscFunctionReturn(0);
  PetscCall(FlxSystemHasMassMatrixFunction(ts->sys, &full));
  if (full) {
    PetscCall(PetscPrintf(ts->comm, "note: f_int depends on the velocity and the system gives no bound of its dampers' rate: with a mass-matrix function it is not estimated, so the damped stability check sees no dampers (declare one with FlxSystemSetDampingRate)\n"));
    PetscFunctionReturn(0);
  }
  PetscCall(FlxSystemGetMass(ts->sys, &mass, NULL));
  if (!x || !v) { /* set up before the initial conditions: at rest at the origin */
    PetscCall(VecDuplicate(mass, &x));
    PetscCall(VecDuplicate(mass, &v));
    PetscCall(VecZeroEntries(x));
    PetscCall(VecZeroEntries(v));
  }
  PetscCall(FlxSystemEstimateDampingRate(ts->sys, ts->t0, x, v, 50, &ts->drate_est));
  if (x != ts->x0) PetscCall(VecDestroy(&x));
  if (v != ts->v0) PetscCall(VecDestroy(&v));
  if (ts->drate_est > 0) PetscCall(PetscPrintf(ts->comm, "note: f_int depends on the velocity and the system gives no bound of its dampers' rate (FlxSystemSetDampingRate): %g 1/s estimated at the initial state, for the damped stability check\n", (double)ts->drate_est));
  PetscFunctionReturn(0);
}

/* With damping the modes sit on zeta(omega) (DampedScan): check the method's damped spectral radius along it from
   omega_max / 1000 to omega_max and lower h_crit until all are stable. Growth that a smaller step cannot remove (some
   higher-degree sets with mass damping) is refused with the rate. */
static PetscErrorCode DampedCriticalStep(FlxStepper ts)
{
  PetscReal damp[3], rho = 0, Om = 0, z = 0;
  PetscBool any, ok = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(GetDamping(ts, damp, &any));
  if (!any) PetscFunctionReturn(0);
  for (int it = 0; it < 200 && !ok; it++) {
    PetscCall(DampedScan(ts, damp, ts->h_crit, ts->omega_used, 3, &ok, &Om, &z, &rho));
    if (!ok) ts->h_crit *= 0.98;
  }
  PetscCheck(ok || ts->allow_unstable, ts->comm, PETSC_ERR_USER_INPUT, "no stable step for this method with the damping (Rayleigh aM = %g, bK = %g, discrete dampers up to %g 1/s): at Omega = %g, zeta = %g the spectral radius is %.10g at any step tried; use central differences (gcd3) or a damped preset (gcd4_damped, gcd5_damped), or force with -ts_allow_unstable", (double)damp[0], (double)damp[1], (double)damp[2], (double)Om, (double)z, (double)rho);
  PetscFunctionReturn(0);
}

/* A system without omega_max (nonlinear with no initial stiffness: the constrained examples) at the step given:
   where its damped modes lie is unknown, so the method's damped spectral radius is checked (DampedScan) over Omega
   from half its Omega_max (the modes well inside the stable interval; those near its end are the step's choice, and
   any damping moves that end) down to 1e-4 of it. A set that amplifies damped motion there (the paper's degree-4 and
   degree-5 sets: rho - 1 grows with Omega zeta, so a smaller step does not help; gcd4_a3/4 had run seed 002's damped
   pendulum to a velocity of 3 m/s at rest, exit 0) is refused, naming the point. */
static PetscErrorCode DampedCheckGivenStep(FlxStepper ts, const char desc[])
{
  PetscReal damp[3], rho = 0, Om = 0, z = 0, h = ts->dt;
  PetscBool any, ok;

  PetscFunctionBegin;
  PetscCall(GetDamping(ts, damp, &any));
  if (!any || ts->Omega_max <= 0) PetscFunctionReturn(0);
  PetscCall(DampedScan(ts, damp, h, 0.5 * ts->Omega_max / h, 4, &ok, &Om, &z, &rho));
  if (ok) PetscFunctionReturn(0);
  PetscCheck(ts->allow_unstable, ts->comm, PETSC_ERR_USER_INPUT, "%s amplifies damped motion: with the damping (Rayleigh aM = %g, bK = %g, dampers up to %g 1/s, the system's rate bound) at dt = %g, a mode the damping allows at Omega = %g (omega = %g rad/s) with damping ratio %g has the spectral radius %.10g; use central differences (gcd3) or a damped preset (gcd4_damped, gcd5_damped), a smaller -ts_dt if the damping ratio there is large, or force with -ts_allow_unstable", desc, (double)damp[0], (double)damp[1], (double)damp[2], (double)h, (double)Om, (double)(Om / h), (double)z, (double)rho);
  PetscCall(PetscPrintf(ts->comm, "WARNING: %s amplifies damped motion (Omega = %g, damping ratio %g: spectral radius %.10g); running anyway (-ts_allow_unstable)\n", desc, (double)Om, (double)z, (double)rho));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperChooseStep(FlxStepper ts)
{
  PetscBool linear;
  char      desc[256];

  PetscFunctionBegin;
  PetscCall(FlxSystemIsLinear(ts->sys, &linear));
  PetscCall(ts->ops.describe(ts, desc, sizeof(desc)));
  if (ts->implicit) { /* unconditionally stable: the step is the user's accuracy choice */
    PetscCheck(ts->dt_set, ts->comm, PETSC_ERR_USER_INPUT, "%s is implicit and unconditionally stable: give the step with -ts_dt H (it sets the accuracy, not the stability; 'auto' is the critical step of explicit methods)", desc);
    PetscFunctionReturn(0);
  }
  PetscCall(EstimateDampers(ts));
  if (!linear) { /* a model's initial (linearized) stiffness gives the critical step of the initial state */
    PetscBool K;
    PetscCall(FlxSystemHasInitialStiffness(ts->sys, &K)); /* assembled or not */
    if (K) linear = PETSC_TRUE;
    if (K && !ts->dt_set) PetscCall(PetscPrintf(ts->comm, "note: the system is nonlinear; the step comes from the critical step of its initial (linearized) state: stretching, spinning or stress stiffening can raise omega_max during the run, so keep -ts_safety or give -ts_dt\n"));
  }
  if (linear) {
    PetscBool given;
    if (ts->omega_file[0]) PetscCall(FlxReadModesOmegaMax(ts->comm, ts->omega_file, &ts->omega_given));
    given = (PetscBool)(ts->omega_given > 0);
    {
      PetscLogDouble t0, t1;
      PetscCall(PetscTime(&t0));
      PetscCall(FlxSystemEstimateOmegaMax(ts->sys, ts->use_bound || given ? 0 : ts->power_maxits, ts->power_rtol, &ts->omega_power, &ts->power_its, &ts->power_how, &ts->omega_bound));
      PetscCall(PetscTime(&t1));
      ts->power_time = t1 - t0;
    }
    /* an estimate that did not converge may lie far below omega_max: the bound is safe */
    ts->omega_used = given ? ts->omega_given : (ts->use_bound && ts->omega_bound > 0) || !(ts->omega_power > 0) || (ts->power_how == FLX_OMEGA_NOT_CONVERGED && ts->omega_bound > 0) ? ts->omega_bound
                                                                                                                                                                                     : ts->omega_power;
    PetscCheck(ts->omega_used > 0, ts->comm, PETSC_ERR_USER_INPUT, "the system has no stiffness: omega_max = 0; give -ts_dt");
    ts->h_crit = ts->Omega_max / ts->omega_used;
  } else
    PetscCheck(ts->dt_set, ts->comm, PETSC_ERR_USER_INPUT, "the system is nonlinear: give the step with -ts_dt");
  if (ts->Omega_max <= 0) { /* the method has no stable interval */
    char      growth[256] = "";
    PetscReal rho;
    if (ts->dt_set && ts->omega_used > 0) {
      PetscCall(ts->ops.spectral_radius(ts, ts->omega_used * ts->dt, 0, &rho));
      PetscCall(PetscSNPrintf(growth, sizeof(growth), "; at dt = %g (Omega = %g for omega_max %g rad/s) the highest mode grows by rho = %.10g per step", (double)ts->dt, (double)(ts->omega_used * ts->dt), (double)ts->omega_used, (double)rho));
    }
    PetscCheck(ts->allow_unstable && ts->dt_set, ts->comm, PETSC_ERR_USER_INPUT, "%s has no stable interval: rho(Omega) > 1 for every Omega > 0%s. Choose another parameter set, or force it with -ts_allow_unstable and -ts_dt", desc, growth);
    PetscCall(PetscPrintf(ts->comm, "WARNING: %s has no stable interval%s (-ts_allow_unstable)\n", desc, growth));
    PetscFunctionReturn(0);
  }
  if (!linear) {
    PetscCall(DampedCheckGivenStep(ts, desc));
    PetscFunctionReturn(0);
  }
  PetscCall(DampedCriticalStep(ts));
  if (!ts->dt_set) {
    ts->dt = FlxStepperRoundStep(ts->safety * ts->h_crit);
    PetscFunctionReturn(0);
  }
  if (ts->dt > ts->h_crit) {
    PetscCheck(ts->allow_unstable, ts->comm, PETSC_ERR_USER_INPUT, "-ts_dt %g is above the critical step %g s of %s (Omega_max %g / omega_max %g rad/s): use -ts_dt <= %g (safety %g) or omit -ts_dt; -ts_allow_unstable runs it anyway", (double)ts->dt, (double)ts->h_crit, desc, (double)ts->Omega_max, (double)ts->omega_used, (double)FlxStepperRoundStep(ts->safety * ts->h_crit), (double)ts->safety);
    PetscCall(PetscPrintf(ts->comm, "WARNING: -ts_dt %g is above the critical step %g s; running anyway (-ts_allow_unstable)\n", (double)ts->dt, (double)ts->h_crit));
  } else if (ts->dt > ts->safety * ts->h_crit) {
    PetscCall(PetscPrintf(ts->comm, "WARNING: -ts_dt %g is within the safety margin of the critical step %g s (safety %g): the omega_max estimate converges from below\n", (double)ts->dt, (double)ts->h_crit, (double)ts->safety));
  }
  PetscFunctionReturn(0);
}
