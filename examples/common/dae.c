/* Shared driver of the small constrained examples: see dae.h. */
#include "dae.h"

typedef struct {
  const FlxExampleDAE *dae;
  FlxSystem            sys;
  Vec                  g, w, k; /* constraint values; G v + g_t; k(t, x, v) */
  Mat                  G;
  PetscReal            E0, maxerr, tmax, drift, vdrift, kdrift, tprev, hlast;
} Monitor;

/* After every step: the energy error, |g(t_n, x_n)| and |G(t_n, x_n) v_n + g_t| of the state at t_n. */
static PetscErrorCode DAEMonitor(FlxStepper ts, void *ctx)
{
  Monitor           *m = (Monitor *)ctx;
  Vec                x, v;
  const PetscScalar *xa, *va;
  PetscInt           step;
  PetscReal          E, t, gn, vn;

  PetscFunctionBegin;
  PetscCall(FlxStepperGetState(ts, &x, &v, NULL));
  PetscCall(FlxStepperGetTime(ts, &t, &step));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayRead(v, &va));
  E = m->dae->energy ? m->dae->energy(xa, va, m->dae->ctx) : 0;
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(VecRestoreArrayRead(v, &va));
  if (step > 0) m->hlast = t - m->tprev;
  m->tprev = t;
  if (m->k) {
    PetscReal kn;
    PetscCall(FlxSystemComputeVelocityConstraint(m->sys, t, x, v, m->k));
    PetscCall(VecNorm(m->k, NORM_INFINITY, &kn));
    m->kdrift = PetscMax(m->kdrift, kn);
  }
  if (step == 0)
    m->E0 = E;
  else if (PetscAbsReal(E - m->E0) > m->maxerr) {
    m->maxerr = PetscAbsReal(E - m->E0);
    m->tmax   = t;
  }
  PetscCall(FlxSystemComputeConstraint(m->sys, t, x, m->g));
  PetscCall(VecNorm(m->g, NORM_INFINITY, &gn));
  PetscCall(FlxSystemComputeConstraintJacobian(m->sys, t, x, m->G));
  PetscCall(FlxSystemComputeConstraintRate(m->sys, t, x, m->w));
  PetscCall(MatMultAdd(m->G, v, m->w, m->w));
  PetscCall(VecNorm(m->w, NORM_INFINITY, &vn));
  m->drift  = PetscMax(m->drift, gn);
  m->vdrift = PetscMax(m->vdrift, vn);
  PetscFunctionReturn(0);
}

/* The tangent of f_int by central differences (the examples are small): J += df/dx + shiftV df/dv. */
static PetscErrorCode DifferencedJacobian(FlxSystem sys, PetscReal t, Vec x, Vec v, PetscReal shiftV, Mat J, void *ctx)
{
  const FlxExampleDAE *dae = (const FlxExampleDAE *)ctx;
  Vec                  xp, fp, fm;
  PetscInt             n = dae->n;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(x, &xp));
  PetscCall(VecDuplicate(x, &fp));
  PetscCall(VecDuplicate(x, &fm));
  for (int which = 0; which < 2; which++) { /* x, then v */
    Vec       base = which ? v : x;
    PetscReal s    = which ? shiftV : 1;
    if (s == 0) continue;
    for (PetscInt j = 0; j < n; j++) {
      const PetscScalar *b, *a1, *a2;
      PetscScalar       *c;
      PetscReal          del;
      PetscCall(VecGetArrayRead(base, &b));
      del = 1e-6 * PetscMax(1.0, PetscAbsReal(PetscRealPart(b[j])));
      PetscCall(VecRestoreArrayRead(base, &b));
      for (int sg = -1; sg <= 1; sg += 2) {
        PetscCall(VecCopy(base, xp));
        PetscCall(VecGetArray(xp, &c));
        c[j] += sg * del;
        PetscCall(VecRestoreArray(xp, &c));
        PetscCall(dae->fint(sys, t, which ? x : xp, which ? xp : v, sg > 0 ? fp : fm, dae->ctx));
      }
      PetscCall(VecGetArrayRead(fp, &a1));
      PetscCall(VecGetArrayRead(fm, &a2));
      for (PetscInt i = 0; i < n; i++)
        PetscCall(MatSetValue(J, i, j, s * (a1[i] - a2[i]) / (2 * del), ADD_VALUES));
      PetscCall(VecRestoreArrayRead(fm, &a2));
      PetscCall(VecRestoreArrayRead(fp, &a1));
    }
  }
  PetscCall(VecDestroy(&xp));
  PetscCall(VecDestroy(&fp));
  PetscCall(VecDestroy(&fm));
  PetscFunctionReturn(0);
}

/* The objects of a run, destroyed whether the run succeeded or not. */
typedef struct {
  FlxSystem  sys;
  FlxStepper ts;
  Vec        mass, free, x0, v0, lam0, psi0;
  Mat        G, M, Kv, Kx;
} DAEObjects;

static PetscErrorCode SetArray(Vec v, const PetscReal a[], PetscInt n)
{
  PetscScalar *p;

  PetscFunctionBegin;
  PetscCall(VecGetArrayWrite(v, &p));
  for (PetscInt i = 0; i < n; i++)
    p[i] = a[i];
  PetscCall(VecRestoreArrayWrite(v, &p));
  PetscFunctionReturn(0);
}

static PetscErrorCode PrintList(const char *name, Vec y, PetscInt nout)
{
  const PetscScalar *a;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(y, &n));
  if (nout > 0) n = PetscMin(n, nout);
  PetscCall(VecGetArrayRead(y, &a));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s = ", name));
  for (PetscInt i = 0; i < n; i++)
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%.17g%s", (double)PetscRealPart(a[i]), i + 1 < n ? "," : "\n"));
  PetscCall(VecRestoreArrayRead(y, &a));
  PetscFunctionReturn(0);
}

static PetscErrorCode RunDAE(const FlxExampleDAE *dae, DAEObjects *o, Monitor *mon, PetscReal xf[], PetscReal vf[], PetscBool *help)
{
  PetscFunctionBegin;
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, dae->n, &o->mass));
  PetscCall(VecDuplicate(o->mass, &o->free));
  PetscCall(VecDuplicate(o->mass, &o->x0));
  PetscCall(VecDuplicate(o->mass, &o->v0));
  PetscCall(SetArray(o->mass, dae->mass, dae->n));
  PetscCall(VecSet(o->free, 1.0));
  PetscCall(SetArray(o->x0, dae->x0, dae->n));
  PetscCall(SetArray(o->v0, dae->v0, dae->n));
  /* the constraint Jacobian: a dense pattern (small systems), every entry set by the example */
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, dae->m, dae->n, dae->n, NULL, &o->G));
  PetscCall(FlxSystemCreate(PETSC_COMM_SELF, &o->sys));
  PetscCall(FlxSystemSetMass(o->sys, o->mass, o->free));
  if (dae->fint) {
    PetscCall(FlxSystemSetInternalForce(o->sys, dae->fint, PETSC_FALSE, dae->ctx));
    if (dae->fjac)
      PetscCall(FlxSystemSetJacobian(o->sys, dae->fjac, dae->ctx));
    else
      PetscCall(FlxSystemSetJacobian(o->sys, DifferencedJacobian, (void *)dae));
  }
  if (dae->fext) PetscCall(FlxSystemSetExternalForce(o->sys, dae->fext, NULL, dae->ctx));
  PetscCall(FlxSystemSetVelocityDependent(o->sys, dae->vdep));
  if (dae->damprate > 0) PetscCall(FlxSystemSetDampingRate(o->sys, dae->damprate)); /* 0: none given (the stepper estimates one when it can) */
  PetscCall(FlxSystemSetConstraints(o->sys, o->G, dae->g, dae->jac, PETSC_FALSE, dae->ctx));
  PetscCall(FlxSystemSetConstraintDerivatives(o->sys, dae->rate, dae->curv, dae->hess, dae->ctx));
  if (dae->name) PetscCall(FlxSystemSetConstraintNameFunction(o->sys, dae->name, dae->ctx));
  if (dae->massfn) {
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, dae->n, dae->n, dae->n, NULL, &o->M));
    PetscCall(FlxSystemSetMassMatrixFunction(o->sys, o->M, dae->massfn, dae->ctx));
  }
  if (dae->mk) { /* velocity constraints: dense-pattern Kv and Kx */
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, dae->mk, dae->n, dae->n, NULL, &o->Kv));
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, dae->mk, dae->n, dae->n, NULL, &o->Kx));
    PetscCall(FlxSystemSetVelocityConstraints(o->sys, o->Kv, o->Kx, dae->k, dae->kjac, NULL, dae->ctx));
  }
  if (dae->fc) PetscCall(FlxSystemSetConstraintForce(o->sys, dae->fc, dae->fcjac, dae->ctx));
  PetscCall(FlxStepperCreate(PETSC_COMM_SELF, &o->ts));
  PetscCall(FlxStepperSetMaxTime(o->ts, dae->tmax));
  PetscCall(FlxExampleDefaultOption("-ts_monitor_interval", "-1"));
  PetscCall(FlxExampleDefaultGCD(dae->preset_params));
  PetscCall(FlxStepperSetFromOptions(o->ts));
  PetscCall(PetscOptionsHasHelp(NULL, help));
  if (*help) PetscFunctionReturn(0); /* the options are printed: nothing to run */
  PetscCall(FlxSystemCreateMultiplierVector(o->sys, &mon->g));
  PetscCall(VecDuplicate(mon->g, &mon->w));
  if (dae->mk) PetscCall(FlxSystemCreateVelocityMultiplierVector(o->sys, &mon->k));
  if (dae->lambda0 || dae->psi0) { /* guesses of the initial multipliers */
    PetscCall(VecDuplicate(mon->g, &o->lam0));
    PetscCall(VecZeroEntries(o->lam0));
    PetscCall(SetArray(o->lam0, dae->lambda0, dae->lambda0 ? dae->m : 0));
    if (dae->mk) {
      PetscCall(VecDuplicate(mon->k, &o->psi0));
      PetscCall(VecZeroEntries(o->psi0));
      PetscCall(SetArray(o->psi0, dae->psi0, dae->psi0 ? dae->mk : 0));
    }
    PetscCall(FlxStepperSetInitialMultipliers(o->ts, o->lam0, o->psi0));
  }
  PetscCall(MatDuplicate(o->G, MAT_DO_NOT_COPY_VALUES, &mon->G));
  mon->sys = o->sys;
  PetscCall(FlxStepperSetSystem(o->ts, o->sys));
  PetscCall(FlxStepperSetInitialConditions(o->ts, 0.0, o->x0, o->v0));
  PetscCall(FlxStepperSetPostStep(o->ts, DAEMonitor, mon));
  PetscCall(FlxStepperSetUp(o->ts));
  PetscCall(FlxOptionsCheckUnused(PETSC_COMM_SELF, NULL));
  if (dae->view) PetscCall(FlxStepperView(o->ts, PETSC_VIEWER_STDOUT_SELF));
  PetscCall(FlxStepperSolve(o->ts));
  {
    FlxStepperConvergedReason reason;
    const char               *msg;
    PetscCall(FlxStepperGetConvergedReason(o->ts, &reason, &msg));
    PetscCheck(reason >= 0, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "%s", msg);
  }
  {
    Vec                x, v, lambda;
    const PetscScalar *a;
    PetscCall(FlxStepperGetState(o->ts, &x, &v, NULL));
    PetscCall(FlxStepperGetMultipliers(o->ts, &lambda));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "energy error: largest at t = %.6g s\n", (double)mon->tmax));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "max_velocity_violation = %.17g\n", (double)mon->vdrift));
    PetscCall(PrintList("final_lambda", lambda, 0));
    if (mon->k) {
      Vec psi;
      PetscCall(FlxStepperGetVelocityMultipliers(o->ts, &psi));
      PetscCall(PrintList("final_psi", psi, 0));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "max_k_violation = %.17g\n", (double)mon->kdrift));
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "last_dt = %.17g\n", (double)mon->hlast));
    {
      PetscReal tf; /* the state's time: a fixed step ends at ceil(T / h) h when -ts_max_time is not a multiple of it */
      PetscCall(FlxStepperGetTime(o->ts, &tf, NULL));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "final_t = %.17g\n", (double)tf));
    }
    {
      Vec a;
      PetscCall(FlxStepperGetState(o->ts, NULL, NULL, &a));
      PetscCall(PrintList("final_a", a, 0)); /* the stepper's acceleration (algorithmic a* for hht and genalpha) */
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "max_energy_error = %.17g\n", (double)mon->maxerr));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "max_drift = %.17g\n", (double)mon->drift));
    PetscCall(PrintList("final_q", x, dae->nout));
    PetscCall(PrintList("final_v", v, dae->nout));
    PetscCall(VecGetArrayRead(x, &a));
    for (PetscInt i = 0; xf && i < dae->n; i++)
      xf[i] = PetscRealPart(a[i]);
    PetscCall(VecRestoreArrayRead(x, &a));
    PetscCall(VecGetArrayRead(v, &a));
    for (PetscInt i = 0; vf && i < dae->n; i++)
      vf[i] = PetscRealPart(a[i]);
    PetscCall(VecRestoreArrayRead(v, &a));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxExampleRunDAE(const FlxExampleDAE *dae, PetscReal xfinal[], PetscReal vfinal[], PetscBool *help)
{
  Monitor        mon;
  DAEObjects     o;
  PetscBool      h = PETSC_FALSE;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&mon, sizeof(mon)));
  PetscCall(PetscMemzero(&o, sizeof(o)));
  mon.dae = dae;
  ierr    = RunDAE(dae, &o, &mon, xfinal, vfinal, &h);
  if (ierr) PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); /* keep the first message */
  PetscCall(FlxStepperDestroy(&o.ts));
  PetscCall(FlxSystemDestroy(&o.sys));
  PetscCall(VecDestroy(&o.mass));
  PetscCall(VecDestroy(&o.free));
  PetscCall(VecDestroy(&o.x0));
  PetscCall(VecDestroy(&o.v0));
  PetscCall(MatDestroy(&o.G));
  PetscCall(MatDestroy(&o.M));
  PetscCall(MatDestroy(&o.Kv));
  PetscCall(MatDestroy(&o.Kx));
  PetscCall(VecDestroy(&o.lam0));
  PetscCall(VecDestroy(&o.psi0));
  PetscCall(VecDestroy(&mon.k));
  PetscCall(VecDestroy(&mon.g));
  PetscCall(VecDestroy(&mon.w));
  PetscCall(MatDestroy(&mon.G));
  if (ierr) PetscCall(PetscPopErrorHandler());
  if (help) *help = h;
  PetscFunctionReturn(ierr);
}
