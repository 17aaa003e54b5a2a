/* FlxStepper core: registry, life cycle, the time loop (the step choice: stepchoice.c), the energy ledger,
   probes, output and progress. The types (gcd.c, ...) supply start-up and step. */
#include <flexure/private/stepperimpl.h>

static PetscFunctionList FlxStepperList = NULL;

PetscErrorCode FlxStepperRegister(const char name[], PetscErrorCode (*create)(FlxStepper))
{
  PetscFunctionBegin;
  PetscCall(PetscFunctionListAdd(&FlxStepperList, name, create));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperFinalizeRegistry(void)
{
  PetscFunctionBegin;
  PetscCall(PetscFunctionListDestroy(&FlxStepperList));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperRegisterAll(void)
{
  PetscFunctionBegin;
  PetscCall(FlxStepperRegister(FLXSTEPPERGCD, FlxStepperCreate_GCD));
  PetscCall(FlxStepperRegister(FLXSTEPPERNEWMARK, FlxStepperCreate_Alpha));
  PetscCall(FlxStepperRegister(FLXSTEPPERHHT, FlxStepperCreate_Alpha));
  PetscCall(FlxStepperRegister(FLXSTEPPERGENALPHA, FlxStepperCreate_Alpha));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperCreate(MPI_Comm comm, FlxStepper *ts)
{
  FlxStepper s;

  PetscFunctionBegin;
  PetscCall(FlxInitializePackage());
  PetscCall(PetscNew(&s));
  s->comm = comm;
  PetscCallMPI(MPI_Comm_rank(comm, &s->rank));
  s->max_time         = 1.0;
  s->max_steps        = PETSC_MAX_INT;
  s->safety           = 0.9;
  s->power_maxits     = 500;
  s->power_rtol       = 1e-6;
  s->cap              = 256;
  s->max_energy_error = 10;
  s->monitor_interval = 5;
  s->history_interval = 1;
  s->dae.rtol         = 1e-14; /* constrained systems (issue 16): -ts_dae_* */
  s->dae.maxit        = 50;
  s->dae.ic_tol       = 1e-10;
  s->dae.step_adjust  = PETSC_TRUE;
  *ts                 = s;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperSetSystem(FlxStepper ts, FlxSystem sys)
{
  PetscFunctionBegin;
  ts->sys = sys;
  PetscFunctionReturn(0);
}

/* Free what FlxStepperSetUp allocated in the core (the ledger buffers) and mark the stepper not set up. */
static PetscErrorCode ResetCore(FlxStepper ts)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(ts->lbuf, ts->gbuf, ts->tbuf));
  PetscCall(PetscFree(ts->rows));
  ts->setup = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperReset(FlxStepper ts)
{
  PetscFunctionBegin;
  if (!ts->setup) PetscFunctionReturn(0);
  PetscCheck(ts->ops.reset, ts->comm, PETSC_ERR_SUP, "stepper type %s cannot be reset yet: create a new stepper", ts->type);
  PetscCall(ts->ops.reset(ts));
  PetscCall(ResetCore(ts));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperSetType(FlxStepper ts, FlxStepperType type)
{
  PetscErrorCode (*create)(FlxStepper) = NULL;
  PetscBool same;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(ts->type, type, &same));
  if (same) PetscFunctionReturn(0);
  PetscCall(PetscFunctionListFind(FlxStepperList, type, &create));
  PetscCheck(create, ts->comm, PETSC_ERR_USER_INPUT, "unknown stepper type '%s' (-ts_type); available: gcd, newmark, hht, genalpha", type);
  PetscCall(ResetCore(ts)); /* after SetUp too: the new type sets up afresh */
  if (ts->ops.destroy) PetscCall(ts->ops.destroy(ts));
  PetscCall(PetscMemzero(&ts->ops, sizeof(ts->ops)));
  PetscCall(PetscStrncpy(ts->type, type, sizeof(ts->type)));
  PetscCall(create(ts));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperSetFromOptions(FlxStepper ts)
{
  char      type[64] = FLXSTEPPERGCD;
  PetscBool set;

  PetscFunctionBegin;
  if (ts->type[0]) PetscCall(PetscStrncpy(type, ts->type, sizeof(type)));
  PetscOptionsBegin(ts->comm, NULL, "Time stepper options", "FlxStepper");
  PetscCall(PetscOptionsFList("-ts_type", "Time stepper", "FlxStepperSetType", FlxStepperList, type, type, sizeof(type), NULL));
  {
    char dts[64] = "auto";
    if (ts->dt_set) PetscCall(PetscSNPrintf(dts, sizeof(dts), "%g", (double)ts->dt));
    PetscCall(PetscOptionsString("-ts_dt", "Time step (s), or auto: safety times the critical step of an explicit method (an implicit method needs a number: the step sets its accuracy)", "FlxStepperSetTimeStep", dts, dts, sizeof(dts), &set));
    if (set) {
      char  *end;
      double v = strtod(dts, &end);
      if (!strcmp(dts, "auto"))
        ts->dt_set = PETSC_FALSE;
      else {
        PetscCheck(end != dts && !*end && isfinite(v) && v > 0, ts->comm, PETSC_ERR_USER_INPUT, "-ts_dt %s: give a positive time step (s) or auto", dts);
        ts->dt     = (PetscReal)v;
        ts->dt_set = PETSC_TRUE;
      }
    }
  }
  PetscCall(PetscOptionsReal("-ts_max_time", "Final time (s)", "FlxStepperSetMaxTime", ts->max_time, &ts->max_time, NULL));
  PetscCall(PetscOptionsInt("-ts_max_steps", "Maximum number of steps", "FlxStepperSolve", ts->max_steps, &ts->max_steps, NULL));
  PetscCall(PetscOptionsReal("-ts_safety", "Safety factor on the critical step", "FlxStepperSetUp", ts->safety, &ts->safety, NULL));
  PetscCall(PetscOptionsBool("-ts_allow_unstable", "Run with a step above the critical one, or a parameter set without a stable interval", "FlxStepperSetUp", ts->allow_unstable, &ts->allow_unstable, NULL));
  PetscCall(PetscOptionsBool("-ts_omega_bound", "Take omega_max from the element-by-element bound (guaranteed stable, smaller step) instead of the Lanczos estimate", "FlxStepperSetUp", ts->use_bound, &ts->use_bound, NULL));
  PetscCall(PetscOptionsString("-ts_omega_max_file", "Take omega_max from /modes/omega_max of a 'flexure modes' results file", "FlxStepperSetUp", ts->omega_file, ts->omega_file, sizeof(ts->omega_file), NULL));
  PetscCall(PetscOptionsReal("-ts_omega_max", "Take omega_max (rad/s) from this value instead of estimating it", "FlxStepperSetUp", ts->omega_given, &ts->omega_given, NULL));
  PetscCall(PetscOptionsInt("-ts_omega_max_it", "omega_max estimate (Lanczos): maximum restarts", "FlxStepperSetUp", ts->power_maxits, &ts->power_maxits, NULL));
  PetscCall(PetscOptionsReal("-ts_omega_rtol", "omega_max estimate (Lanczos): relative residual tolerance on omega_max^2 (the estimate is within it of an eigenvalue)", "FlxStepperSetUp", ts->power_rtol, &ts->power_rtol, NULL));
  PetscCall(PetscOptionsReal("-ts_max_energy_error", "Stop as unstable when the energy balance error exceeds this multiple of the energy put in", "FlxStepperSolve", ts->max_energy_error, &ts->max_energy_error, NULL));
  PetscCall(PetscOptionsReal("-ts_monitor_interval", "Seconds between progress lines (negative: none)", "FlxStepperSolve", ts->monitor_interval, &ts->monitor_interval, NULL));
  PetscCall(PetscOptionsInt("-ts_ledger_buffer", "Steps buffered between reductions of the energy ledger and probes", "FlxStepperSolve", ts->cap, &ts->cap, NULL));
  PetscOptionsEnd();
  PetscCheck(!PetscIsInfOrNanReal(ts->max_time) && ts->max_time > ts->t0, ts->comm, PETSC_ERR_USER_INPUT, "-ts_max_time %g: give a finite final time after the start (%g s)", (double)ts->max_time, (double)ts->t0);
  PetscCheck(ts->max_steps >= 0, ts->comm, PETSC_ERR_USER_INPUT, "-ts_max_steps must not be negative");
  PetscCheck(!PetscIsInfOrNanReal(ts->safety) && !PetscIsInfOrNanReal(ts->omega_given) && ts->omega_given >= 0, ts->comm, PETSC_ERR_USER_INPUT, "-ts_safety and -ts_omega_max must be finite (and -ts_omega_max positive)");
  PetscCheck(ts->safety > 0 && ts->safety <= 1, ts->comm, PETSC_ERR_USER_INPUT, "-ts_safety must be in (0, 1]");
  PetscCheck(ts->cap > 0, ts->comm, PETSC_ERR_USER_INPUT, "-ts_ledger_buffer must be positive");
  PetscCheck(!PetscIsInfOrNanReal(ts->max_energy_error) && ts->max_energy_error > 0, ts->comm, PETSC_ERR_USER_INPUT, "-ts_max_energy_error %g: give a positive multiple of the energy put in (default 10; the run stops as unstable above it)", (double)ts->max_energy_error);
  PetscCheck(!PetscIsInfOrNanReal(ts->power_rtol) && ts->power_rtol > 0 && ts->power_rtol < 1, ts->comm, PETSC_ERR_USER_INPUT, "-ts_omega_rtol %g: give the omega_max estimate's relative tolerance in (0, 1) (default 1e-6)", (double)ts->power_rtol);
  PetscCheck(ts->power_maxits > 0, ts->comm, PETSC_ERR_USER_INPUT, "-ts_omega_max_it %" PetscInt_FMT ": give a positive number of restarts (default 500)", ts->power_maxits);
  PetscCall(FlxStepperDAESetFromOptions(ts)); /* constrained systems (issue 16) */
  PetscCall(FlxStepperSetType(ts, type));
  if (ts->ops.setfromoptions) PetscCall(ts->ops.setfromoptions(ts));
  PetscFunctionReturn(0);
}

/* Number of steps to the final time (or the step cap). */
static PetscErrorCode CountSteps(FlxStepper ts)
{
  PetscReal n = PetscCeilReal((ts->max_time - ts->t0) / ts->dt - 1e-9);

  PetscFunctionBegin;
  ts->nsteps = (PetscInt)PetscMax(0, PetscMin(n, (PetscReal)ts->max_steps));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperSetUp(FlxStepper ts)
{
  PetscFunctionBegin;
  if (ts->setup) PetscFunctionReturn(0);
  PetscCheck(ts->sys, ts->comm, PETSC_ERR_ARG_WRONGSTATE, "no system: call FlxStepperSetSystem()");
  if (!ts->type[0]) PetscCall(FlxStepperSetType(ts, FLXSTEPPERGCD));
  PetscCall(ts->ops.setup(ts));
  PetscCall(FlxStepperChooseStep(ts));
  PetscCall(CountSteps(ts));
  PetscCall(PetscMalloc3(FLX_LEDGER_ROW * ts->cap, &ts->lbuf, FLX_LEDGER_ROW * ts->cap, &ts->gbuf, ts->cap, &ts->tbuf));
  PetscCall(PetscMalloc1(ts->cap, &ts->rows));
  ts->setup = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperSetInitialConditions(FlxStepper ts, PetscReal t0, Vec x0, Vec v0)
{
  PetscFunctionBegin;
  ts->t0 = t0;
  if (!ts->x0) PetscCall(VecDuplicate(x0, &ts->x0));
  if (!ts->v0) PetscCall(VecDuplicate(v0, &ts->v0));
  PetscCall(VecCopy(x0, ts->x0));
  PetscCall(VecCopy(v0, ts->v0));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperSetProbes(FlxStepper ts, PetscInt n, const PetscInt gdofs[])
{
  PetscInt lo, hi;
  Vec      mass;

  PetscFunctionBegin;
  PetscCall(FlxSystemGetMass(ts->sys, &mass, NULL));
  PetscCall(VecGetOwnershipRange(mass, &lo, &hi));
  PetscCall(PetscFree(ts->plocal));
  PetscCall(PetscFree2(ts->pbuf, ts->pred));
  ts->nprobe = n;
  PetscCall(PetscMalloc1(n + 1, &ts->plocal));
  for (PetscInt k = 0; k < n; k++)
    ts->plocal[k] = (gdofs[k] >= lo && gdofs[k] < hi) ? gdofs[k] - lo : -1;
  PetscCall(PetscMalloc2(3 * n * ts->cap + 1, &ts->pbuf, 3 * n * ts->cap + 1, &ts->pred));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperSetOutput(FlxStepper ts, PetscInt interval, FlxStepperOutputFn fields, FlxStepperFlushFn flush, void *ctx)
{
  PetscFunctionBegin;
  ts->output_interval = interval;
  ts->fields          = fields;
  ts->flush           = flush;
  ts->outctx          = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperSetPostStep(FlxStepper ts, FlxStepperPostStepFn fn, void *ctx)
{
  PetscFunctionBegin;
  ts->poststep = fn;
  ts->postctx  = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperSetHistoryInterval(FlxStepper ts, PetscInt interval)
{
  PetscFunctionBegin;
  PetscCheck(interval > 0, ts->comm, PETSC_ERR_USER_INPUT, "the history interval must be positive (-output_history_interval)");
  ts->history_interval = interval;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperGetHistoryInterval(FlxStepper ts, PetscInt *interval)
{
  PetscFunctionBegin;
  *interval = ts->history_interval;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperSetHistoryFunction(FlxStepper ts, PetscInt ncol, FlxStepperHistoryFn fn, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(ts->hbuf, ts->hred));
  ts->nhist   = fn ? ncol : 0;
  ts->histfn  = fn;
  ts->histctx = ctx;
  if (ts->nhist) PetscCall(PetscMalloc2(ts->nhist * ts->cap, &ts->hbuf, ts->nhist * ts->cap, &ts->hred));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperComputeReactions(FlxStepper ts, Vec R)
{
  PetscFunctionBegin;
  if (ts->ops.reaction)
    PetscCall(ts->ops.reaction(ts, R));
  else {
    Vec x, v, a;
    if (!ts->Rwork) PetscCall(VecDuplicate(R, &ts->Rwork));
    PetscCall(ts->ops.getstate(ts, &x, &v, &a));
    PetscCall(FlxSystemComputeExternalForce(ts->sys, ts->time, ts->Rwork));
    PetscCall(FlxSystemComputeReactions(ts->sys, x, NULL, v, a, ts->Rwork, R));
  }
  PetscFunctionReturn(0);
}

/* After each step: a ledger row with the probed values and the history values at history steps (every
   history_interval steps, the first and the last); at the others only the work and damping increments are
   accumulated, so the ledger's sums stay those of every step. */
PetscBool FlxStepperIsHistoryStep(FlxStepper ts, PetscInt step)
{
  return (PetscBool)(step % ts->history_interval == 0 || step == ts->nsteps);
}

static PetscErrorCode Record(FlxStepper ts)
{
  PetscReal *l = ts->lbuf + FLX_LEDGER_ROW * ts->nbuf;

  PetscFunctionBegin;
  if (!FlxStepperIsHistoryStep(ts, ts->step)) {
    ts->lacc[0] += ts->lsum[2];
    ts->lacc[1] += ts->lsum[3];
    if (ts->strain_work) ts->lacc[2] += ts->lsum[1];
    PetscFunctionReturn(0);
  }
  for (int k = 0; k < 4; k++)
    l[k] = ts->lsum[k];
  for (int k = 0; k < 3; k++) {
    l[4 + k]    = ts->lacc[k];
    ts->lacc[k] = 0;
  }
  ts->tbuf[ts->nbuf] = ts->time;
  if (ts->nprobe) PetscCall(ts->ops.probe(ts, ts->nprobe, ts->plocal, ts->pbuf + 3 * ts->nprobe * ts->nbuf));
  if (ts->nhist) PetscCall(ts->histfn(ts, ts->time, ts->hbuf + ts->nhist * ts->nbuf, ts->histctx));
  ts->nbuf++;
  PetscFunctionReturn(0);
}

static PetscErrorCode Progress(FlxStepper ts, PetscBool force)
{
  PetscLogDouble now;

  PetscFunctionBegin;
  PetscCall(PetscTime(&now));
  if (ts->monitor_interval < 0 || (!force && now - ts->wall_last < ts->monitor_interval)) PetscFunctionReturn(0);
  ts->wall_last = now;
  {
    PetscReal frac = ts->nsteps ? (PetscReal)ts->step / ts->nsteps : 1, eta = frac > 0 ? (now - ts->wall_start) * (1 - frac) / frac : 0;
    char      extra[128] = "";
    if (ts->ops.progress) PetscCall(ts->ops.progress(ts, extra, sizeof(extra)));
    PetscCall(PetscPrintf(ts->comm, "  step %" PetscInt_FMT "/%" PetscInt_FMT "  t = %.6e s  dt = %.4e s  %s %.2e (peak energy %.4e J)%s  ETA %.0f s\n", ts->step, ts->nsteps, (double)ts->time, (double)ts->dt, ts->ledger_direct ? "numerical dissipation" : "energy balance error", (double)ts->maxrel, (double)ts->peak, extra, (double)eta));
  }
  PetscFunctionReturn(0);
}

/* What a blow-up check compared against, for its message: the energy put in, or the round-off floor when that is
   larger (FlxSystemSetRoundoff). */
static PetscErrorCode Against(PetscReal given, PetscReal efloor, char buf[], size_t len)
{
  PetscFunctionBegin;
  if (given >= efloor)
    PetscCall(PetscSNPrintf(buf, len, "%g J put in", (double)given));
  else
    PetscCall(PetscSNPrintf(buf, len, "the round-off floor %g J; %g J put in", (double)efloor, (double)given));
  PetscFunctionReturn(0);
}

/* Reduce the buffered ledger and probes, turn them into energies (the exact discrete ledger of
   time-integration.md), detect blow-up and hand the rows to the flush callback. */
static PetscErrorCode Flush(FlxStepper ts)
{
  PetscReal h = ts->dt, efloor;
  PetscBool linear;
  char      against[96];

  PetscFunctionBegin;
  if (!ts->nbuf) PetscFunctionReturn(0);
  PetscCall(PetscLogEventBegin(FLX_LedgerFlush, 0, 0, 0, 0));
  PetscCall(FlxSystemIsLinear(ts->sys, &linear));
  PetscCall(FlxSystemGetRoundoff(ts->sys, NULL, &efloor));            /* round-off energies: never an instability */
  if (!linear) PetscCall(FlxSystemHasStrainEnergy(ts->sys, &linear)); /* a nonlinear system's ledger holds with its strain energy */
  PetscCallMPI(MPI_Allreduce(ts->lbuf, ts->gbuf, (PetscMPIInt)(FLX_LEDGER_ROW * ts->nbuf), MPIU_REAL, MPI_SUM, ts->comm));
  for (PetscInt k = 0; k < ts->nbuf; k++) {
    const PetscReal *g = ts->gbuf + FLX_LEDGER_ROW * k;
    FlxLedgerRow    *r = &ts->rows[k];
    PetscReal        B, err;
    r->time = ts->tbuf[k];
    /* the steps since the last row */
    ts->Wh += ts->ledger_direct ? g[4] : g[4] / 2;
    ts->Dh += ts->ledger_direct ? g[5] : g[5] / 2;
    if (ts->strain_work && !ts->haveB0) ts->Uh = ts->Ustart - g[1] / 4; /* the first row's strain: U(x_0) */
    if (ts->strain_work) ts->Uh += g[6] / 2;
    if (ts->ledger_direct) { /* kinetic and strain energy at t, work and damping increments of the step */
      r->kinetic       = g[0];
      r->strain        = g[1];
      r->external_work = (ts->Wh += g[2]);
      r->damping       = (ts->Dh += g[3]);
    } else {
      r->kinetic       = g[0] / (4 * h * h);
      r->strain        = (ts->strain_work ? ts->Uh : 0) + g[1] / 4;
      r->external_work = ts->Wh + g[2] / 4;
      r->damping       = ts->Dh + g[3] / 4;
      ts->Wh += g[2] / 2;
      ts->Dh += g[3] / 2;
      if (ts->strain_work) ts->Uh += g[1] / 2;
    }
    r->numerical = 0;
    B            = r->kinetic + r->strain - r->external_work + r->damping;
    if (ts->ledger_direct && ts->haveB0 && !PetscIsInfOrNanReal(B)) r->numerical = ts->B0 - B; /* what the method dissipated */
    if (PetscIsInfOrNanReal(B)) {
      if (ts->reason >= 0) {
        ts->reason = FLX_STEPPER_DIVERGED_NANORINF;
        PetscCall(PetscSNPrintf(ts->reason_msg, sizeof(ts->reason_msg), "the solution became Inf or NaN at t = %g s", (double)r->time));
      }
      continue;
    }
    if (!ts->haveB0) {
      ts->B0     = B;
      ts->scale  = PetscAbsReal(B);
      ts->haveB0 = PETSC_TRUE;
    }
    ts->scale = PetscMax(ts->scale, PetscMax(PetscAbsReal(r->external_work), PetscAbsReal(r->damping)));
    ts->input = PetscMax(ts->input, PetscAbsReal(ts->B0) + PetscAbsReal(r->external_work));
    ts->peak  = PetscMax(ts->peak, r->kinetic + r->strain);
    err       = ts->ledger_direct ? B - ts->B0 : PetscAbsReal(B - ts->B0); /* implicit: numerical dissipation is not an error, energy creation is */
    if (!linear) continue;
    /* the largest |B - B0| so far against the peak energy so far: a row's error against the peak at that row let the
       first rows, whose peak is tiny, set the figure (gcd5 cantilever: 5.9e-3 printed for 4.1e-8; found by a helper) */
    ts->maxabs = PetscMax(ts->maxabs, PetscAbsReal(B - ts->B0));
    if (ts->peak > 0) ts->maxrel = ts->maxabs / PetscMax(PetscMax(ts->peak, ts->scale), efloor);
    if (ts->reason >= 0 && err > ts->max_energy_error * PetscMax(PetscMax(ts->scale, efloor), PETSC_SMALL * ts->peak) && PetscMax(ts->scale, efloor) > 0) {
      ts->reason = FLX_STEPPER_DIVERGED_ENERGY;
      PetscCall(Against(ts->scale, efloor, against, sizeof(against)));
      PetscCall(PetscSNPrintf(ts->reason_msg, sizeof(ts->reason_msg), "the energy grew without bound at t = %g s (balance error %g J against %s)", (double)r->time, (double)err, against));
    }
    /* a passive structure cannot hold more energy than it was given (the check that still works when the
       damping work is the residual of a solved step) */
    if (ts->reason >= 0 && PetscMax(ts->input, efloor) > 0 && r->kinetic + r->strain > ts->max_energy_error * PetscMax(ts->input, efloor)) {
      ts->reason = FLX_STEPPER_DIVERGED_ENERGY;
      PetscCall(Against(ts->input, efloor, against, sizeof(against)));
      PetscCall(PetscSNPrintf(ts->reason_msg, sizeof(ts->reason_msg), "the energy grew without bound at t = %g s (%g J held against %s)", (double)r->time, (double)(r->kinetic + r->strain), against));
    }
  }
  if (ts->nprobe) PetscCallMPI(MPI_Reduce(ts->pbuf, ts->pred, (PetscMPIInt)(3 * ts->nprobe * ts->nbuf), MPIU_REAL, MPI_SUM, 0, ts->comm));
  if (ts->nhist) PetscCallMPI(MPI_Reduce(ts->hbuf, ts->hred, (PetscMPIInt)(ts->nhist * ts->nbuf), MPIU_REAL, MPI_SUM, 0, ts->comm));
  if (ts->flush) PetscCall(ts->flush(ts, ts->nbuf, ts->rows, ts->rank == 0 ? ts->pred : NULL, ts->rank == 0 && ts->nhist ? ts->hred : NULL, ts->outctx));
  ts->nbuf = 0;
  PetscCall(PetscLogEventEnd(FLX_LedgerFlush, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

static PetscErrorCode Output(FlxStepper ts)
{
  Vec x, v, a;

  PetscFunctionBegin;
  PetscCall(Flush(ts));
  if (!ts->fields || ts->reason < 0) PetscFunctionReturn(0);
  PetscCall(ts->ops.getstate(ts, &x, &v, &a));
  PetscCall(ts->fields(ts, ts->step, ts->time, x, v, a, ts->outctx));
  PetscFunctionReturn(0);
}

/* One step. A step that fails as a solve (PETSC_ERR_NOT_CONVERGED, raised on every rank: an element turned over, a
   solve diverged) is, after the energy grew, the instability's symptom and not its cause: a step above the critical one
   can turn an element over between two flushes of the ledger, and the element would take the blame. So the ledger of
   the steps before it is flushed and checked; when it shows the growth, the run stops as unstable (ts->reason) with the
   failure, in cause, as its consequence. Otherwise the failure is raised as it came. */
static PetscErrorCode Step(FlxStepper ts, char cause[], size_t len)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  cause[0] = 0;
  ierr     = ts->ops.step(ts);
  if (ierr == PETSC_ERR_NOT_CONVERGED) {
    const char *text, *specific = NULL;
    PetscCall(PetscErrorMessage(ierr, &text, (char **)&specific));
    PetscCall(PetscStrncpy(cause, specific && specific[0] ? specific : text, len));
    PetscCall(Flush(ts));
    if (ts->reason < 0) PetscFunctionReturn(0);
    cause[0] = 0;
  }
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperSolve(FlxStepper ts)
{
  char cause[512];

  PetscFunctionBegin;
  PetscCall(FlxStepperSetUp(ts));
  PetscCheck(ts->x0, ts->comm, PETSC_ERR_ARG_WRONGSTATE, "no initial conditions: call FlxStepperSetInitialConditions()");
  PetscCall(CountSteps(ts));
  ts->Wh = ts->Dh = ts->B0 = ts->scale = ts->input = ts->peak = ts->maxrel = ts->maxabs = 0; /* a fresh ledger per solve */
  ts->dae.xscale = ts->dae.vscale = 0;
  ts->haveB0                      = PETSC_FALSE;
  ts->nbuf                        = 0;
  ts->lacc[0] = ts->lacc[1] = ts->lacc[2] = ts->Uh = 0;
  PetscCall(PetscTime(&ts->wall_start));
  ts->wall_last = ts->wall_start;
  ts->step      = 0;
  ts->time      = ts->t0;
  ts->reason    = FLX_STEPPER_ITERATING;
  cause[0]      = 0;
  PetscCall(ts->ops.startup(ts));
  PetscCall(Record(ts));
  if (ts->poststep) PetscCall(ts->poststep(ts, ts->postctx));
  PetscCall(Output(ts));
  while (ts->reason == FLX_STEPPER_ITERATING) {
    if (ts->step >= ts->nsteps) {
      ts->reason = ts->step >= ts->max_steps ? FLX_STEPPER_CONVERGED_ITS : FLX_STEPPER_CONVERGED_TIME;
      break;
    }
    PetscCall(PetscLogEventBegin(FLX_Update, 0, 0, 0, 0));
    PetscCall(Step(ts, cause, sizeof(cause)));
    PetscCall(PetscLogEventEnd(FLX_Update, 0, 0, 0, 0));
    if (cause[0]) break; /* the step failed after the energy grew: stopped as unstable */
    ts->step++;
    ts->time = ts->varstep ? ts->time + ts->hlast : ts->t0 + ts->step * ts->dt;
    PetscCall(Record(ts));
    if (ts->poststep) PetscCall(ts->poststep(ts, ts->postctx));
    if (ts->step == ts->nsteps || (ts->output_interval > 0 && ts->step % ts->output_interval == 0)) {
      PetscCall(PetscLogEventBegin(FLX_Output, 0, 0, 0, 0));
      PetscCall(Output(ts));
      PetscCall(PetscLogEventEnd(FLX_Output, 0, 0, 0, 0));
    } else if (ts->nbuf == ts->cap) {
      PetscCall(Flush(ts));
      PetscCall(Progress(ts, PETSC_FALSE));
    } else if (ts->step % 64 == 0)
      PetscCall(Progress(ts, PETSC_FALSE)); /* long history intervals fill the buffer rarely */
  }
  PetscCall(Flush(ts));
  if (ts->reason < 0 && ts->omega_used > 0) {
    char tail[512];
    if (ts->dt > ts->safety * ts->h_crit)
      PetscCall(PetscSNPrintf(tail, sizeof(tail), " after %" PetscInt_FMT " steps of dt = %g s: unstable. The critical step is %g s (Omega_max %g / omega_max %g rad/s); use -ts_dt <= %g or omit -ts_dt", ts->step, (double)ts->dt, (double)ts->h_crit, (double)ts->Omega_max, (double)ts->omega_used, (double)FlxStepperRoundStep(ts->safety * ts->h_crit)));
    else /* the step was stable for the initial state: saying "lower the step to the critical one" would mislead */
      PetscCall(PetscSNPrintf(tail, sizeof(tail), " after %" PetscInt_FMT " steps of dt = %g s, within the critical step %g s of the initial state (Omega_max %g / omega_max %g rad/s): a nonlinear system's omega_max can rise during the run (stretching, spinning, stress stiffening), so lower -ts_dt; for a linear system the Lanczos estimate of omega_max may be low: run with -ts_omega_bound (the element-by-element bound)", ts->step, (double)ts->dt, (double)ts->h_crit, (double)ts->Omega_max, (double)ts->omega_used));
    PetscCall(PetscStrlcat(ts->reason_msg, tail, sizeof(ts->reason_msg)));
  }
  if (ts->reason < 0 && cause[0]) {
    char next[640];
    PetscCall(PetscSNPrintf(next, sizeof(next), ". Step %" PetscInt_FMT " then failed: %s", ts->step + 1, cause));
    PetscCall(PetscStrlcat(ts->reason_msg, next, sizeof(ts->reason_msg)));
  }
  PetscCall(Progress(ts, PETSC_TRUE));
  if (ts->ops.report) PetscCall(ts->ops.report(ts, PETSC_VIEWER_STDOUT_(ts->comm)));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperView(FlxStepper ts, PetscViewer viewer)
{
  char desc[256];

  PetscFunctionBegin;
  if (!ts->type[0]) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "Stepper: no type set yet (FlxStepperSetType or -ts_type)\n"));
    PetscFunctionReturn(0);
  }
  PetscCall(ts->ops.describe(ts, desc, sizeof(desc)));
  PetscCall(PetscViewerASCIIPrintf(viewer, "Stepper: %s\n", desc));
  if (!ts->setup) { /* no side effects: the step and the method's analysis come with FlxStepperSetUp */
    PetscCall(PetscViewerASCIIPrintf(viewer, "  not set up yet: the critical step and the step size are chosen by FlxStepperSetUp\n"));
    PetscFunctionReturn(0);
  }
  if (ts->omega_used > 0) {
    char what[512];
    if (ts->omega_given > 0)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  omega_max: %.6e rad/s given (%s%s), %.6e rad/s element-by-element bound (from above)\n", (double)ts->omega_given, ts->omega_file[0] ? "/modes/omega_max of " : "-ts_omega_max", ts->omega_file, (double)ts->omega_bound));
    else if (ts->power_how == FLX_OMEGA_NOT_RUN)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  omega_max: %.6e rad/s element-by-element bound (from above, -ts_omega_bound)\n", (double)ts->omega_bound));
    else {
      static const char *how[] = {"NOT converged in -ts_omega_max_it restarts: the step uses the element-by-element bound (safe; raise -ts_omega_max_it for a larger step)", "converged to -ts_omega_rtol", ""};
      PetscCall(PetscViewerASCIIPrintf(viewer, "  omega_max: %.6e rad/s by Lanczos on M^-1/2 K M^-1/2 (%" PetscInt_FMT " products, %.2f s; %s), %.6e rad/s element-by-element bound (from above)\n", (double)ts->omega_power, ts->power_its, (double)ts->power_time, how[ts->power_how], (double)ts->omega_bound));
    }
    PetscCall(FlxSystemDescribeOmegaBound(ts->sys, what, sizeof(what)));
    if (what[0]) PetscCall(PetscViewerASCIIPrintf(viewer, "  highest element frequency in %s\n", what));
    PetscReal hu = ts->Omega_max / ts->omega_used; /* undamped; h_crit is lower when damping needed it */
    PetscCall(PetscViewerASCIIPrintf(viewer, "  critical step: Omega_max %.10g / omega_max = %.6e s (bound-safe %.6e s)", (double)ts->Omega_max, (double)hu, (double)(ts->omega_bound > 0 ? ts->Omega_max / ts->omega_bound : 0)));
    if (ts->h_crit < hu * (1 - 1e-12)) PetscCall(PetscViewerASCIIPrintf(viewer, ", lowered to %.6e s by the damped stability analysis", (double)ts->h_crit));
    PetscCall(PetscViewerASCIIPrintf(viewer, "; dt = %.6e s (%s, %.3f of critical); %" PetscInt_FMT " steps to t = %g s\n", (double)ts->dt, ts->dt_set ? "-ts_dt" : "automatic", (double)(ts->dt / ts->h_crit), ts->nsteps, (double)(ts->t0 + ts->nsteps * ts->dt)));
  } else
    PetscCall(PetscViewerASCIIPrintf(viewer, "  dt = %.6e s; %" PetscInt_FMT " steps to t = %g s\n", (double)ts->dt, ts->nsteps, (double)ts->max_time));
  if (ts->ops.view) PetscCall(ts->ops.view(ts, viewer));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperSpectralRadius(FlxStepper ts, PetscReal Omega, PetscReal zeta, PetscReal *rho)
{
  PetscFunctionBegin;
  PetscCheck(ts->ops.spectral_radius, ts->comm, PETSC_ERR_ARG_WRONGSTATE, "set the stepper type first");
  PetscCall(ts->ops.spectral_radius(ts, Omega, zeta, rho));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperDestroy(FlxStepper *ts)
{
  FlxStepper s = *ts;

  PetscFunctionBegin;
  if (!s) PetscFunctionReturn(0);
  if (s->ops.destroy) PetscCall(s->ops.destroy(s));
  PetscCall(ResetCore(s));
  PetscCall(VecDestroy(&s->x0));
  PetscCall(VecDestroy(&s->v0));
  PetscCall(VecDestroy(&s->dae.lambda0));
  PetscCall(VecDestroy(&s->dae.psi0));
  PetscCall(PetscFree(s->plocal));
  PetscCall(PetscFree2(s->pbuf, s->pred));
  PetscCall(PetscFree2(s->hbuf, s->hred));
  PetscCall(VecDestroy(&s->Rwork));
  PetscCall(PetscFree(s));
  *ts = NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperSetTimeStep(FlxStepper ts, PetscReal dt)
{
  PetscFunctionBegin;
  ts->dt     = dt;
  ts->dt_set = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperGetTimeStep(FlxStepper ts, PetscReal *dt)
{
  PetscFunctionBegin;
  *dt = ts->dt;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperSetMaxTime(FlxStepper ts, PetscReal tmax)
{
  PetscFunctionBegin;
  ts->max_time = tmax;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperGetTime(FlxStepper ts, PetscReal *t, PetscInt *step)
{
  PetscFunctionBegin;
  if (t) *t = ts->time;
  if (step) *step = ts->step;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperGetNumSteps(FlxStepper ts, PetscInt *nsteps)
{
  PetscFunctionBegin;
  *nsteps = ts->nsteps;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperGetCriticalStep(FlxStepper ts, PetscReal *hcrit, PetscReal *Omega_max, PetscReal *omega_power, PetscReal *omega_bound)
{
  PetscFunctionBegin;
  if (hcrit) *hcrit = ts->h_crit;
  if (Omega_max) *Omega_max = ts->Omega_max;
  if (omega_power) *omega_power = ts->omega_power;
  if (omega_bound) *omega_bound = ts->omega_bound;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperGetState(FlxStepper ts, Vec *x, Vec *v, Vec *a)
{
  PetscFunctionBegin;
  PetscCall(ts->ops.getstate(ts, x, v, a));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperGetConvergedReason(FlxStepper ts, FlxStepperConvergedReason *reason, const char **msg)
{
  PetscFunctionBegin;
  if (reason) *reason = ts->reason;
  if (msg) *msg = ts->reason_msg;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperGetEnergyError(FlxStepper ts, PetscReal *maxrel, PetscReal *peak)
{
  PetscFunctionBegin;
  if (maxrel) *maxrel = ts->maxrel;
  if (peak) *peak = ts->peak;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperGetDescription(FlxStepper ts, const char **type, char desc[], size_t len)
{
  PetscFunctionBegin;
  if (type) *type = ts->type;
  if (desc) PetscCall(ts->ops.describe(ts, desc, len));
  PetscFunctionReturn(0);
}
