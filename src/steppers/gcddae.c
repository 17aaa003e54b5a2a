/* GCD with holonomic constraints (seed paper 000 section 8, eqs. 79-90; issue 16), degrees 3, 4 and 5.

   The gcd type hands its step to this file when the system has constraints (one call in GCDSetUp). Every
   degree writes x_{n+1} and v_n as affine functions of the new acceleration a_n (time-integration.md 1, "One
   solve shape"):

       v_n = w + c h a_n,   x_{n+1} = xp + kappa a_n,   kappa = dx_{n+1}/da_n (h^2 (beta + alpha/2) for degree 3),

   and the step solves the equilibrium at t_n with the constraint forces and the constraints at t_{n+1}:

       M a_n + G(t_n, x_n)^T lambda_n = f_ext(t_n) - f_int(t_n, x_n, v_n)        (eq. 84/88)
       g(t_{n+1}, x_{n+1}) = 0                                                    (eq. 79)

   by Newton on the constraint (eq. 85: g linearized at the iterate of x_{n+1}) with the saddle-point matrix
   [[M, G_n^T], [H_k, 0]] of eq. 90, H_k = G(t_{n+1}, x^k_{n+1}). The unknowns are the acceleration and the
   multipliers themselves, and the constraint rows are scaled by 1/kappa (seed 001's scaling 1/(beta h^2)), so
   the matrix does not degrade as h shrinks; this is eq. 90 up to the change of unknowns s_n = (a_n - ahat) /
   beta_2, lambda / beta_2. The iteration stops when x_{n+1} stops changing (the paper's test; its change is
   kappa |da|): the constraints then hold at position level at every step, to round-off, without index
   reduction or stabilization. A velocity-dependent f_int stays in the same iteration as a fixed point on v_n
   (the conditionally explicit solve), so the saddle-point matrix keeps the mass block.

   Start-up: the initial conditions are checked (or projected, -ts_dae_project_ic), a_0 and lambda_0 are the
   consistent ones (acceleration-level saddle point), j_0 (and s_0) zero or differenced along the solution
   (-ts_gcd_startup), and x_1, the Taylor step, is moved onto g(t_1, x) = 0 along M^-1 G_0^T: that is the Taylor
   step with its highest derivative corrected, as the later steps do. */
#include <flexure/private/stepperimpl.h>
#include "gcd.h"

typedef struct {
  FlxStepperOps saved; /* the gcd type's operations, given back at reset */
  FlxGCDParams  p;
  PetscBool     exact;                                                /* -ts_gcd_startup exact */
  Vec           X, V, A, J, S, D, F, Fe, G, Minv, W, Xp, Fi, Xout;    /* state as gcd.c's; load with the constraint forces; predictors */
  Vec           Lam, Anew, Da, Dl, R1, R2, Gv, Adiag, Mass, Free, Tv; /* multipliers, the iteration's vectors; Mass, Free borrowed */
  Mat           Gn, H, Mfull;                                         /* G(t_n, x_n), G at the iterate, M(t_n, x_n) (the system's) */
  FlxSaddle     sp;
  PetscBool     vdep, full;
  PetscReal     aM;
  PetscInt      its, itmax, nsteps;
  PetscReal     tstep, tsad0; /* wall time in the steps; the saddle-point solves' before them (start-up) */
  PetscInt      nsad0;
  const char   *startup;
} GCDDAE;

/* x_{n+1} at a_n = 0 (xp) for the degree's update; w = vhat - c h ahat comes from FlxGCDPredict. */
static void PredictPosition(const FlxGCDParams *p, PetscInt n, PetscReal h, const PetscReal *X, const PetscReal *V, const PetscReal *A, const PetscReal *J, const PetscReal *S, const PetscReal *W, PetscReal *Xp)
{
  const PetscReal al = p->alpha, be = p->beta, ga = p->gamma, ze = p->zeta, h2 = h * h / 2, h3 = h * h * h / 6, h4 = h * h * h * h / 24;

  (void)be;
  for (PetscInt i = 0; i < n; i++) {
    if (p->degree == 3)
      Xp[i] = X[i] + h * W[i] + h2 * (1 - al) * A[i];
    else if (p->degree == 4) {
      const PetscReal ahat = A[i] + h * (1 - ga) * J[i];
      Xp[i]                = X[i] + h * W[i] + h3 * (al * (-ahat / (ga * h)) + (1 - al) * J[i]);
    } else {
      const PetscReal ahat = A[i] + h * J[i] + h2 * (1 - ga) * S[i], s0 = -2 * ahat / (ga * h * h), j0 = J[i] + h * ((1 - ze) * S[i] + ze * s0);
      Xp[i] = X[i] + h * W[i] + h3 * j0 + h4 * ((1 - al) * S[i] + al * s0);
    }
  }
}

/* kappa = dx_{n+1}/da_n */
static PetscReal Kappa(const FlxGCDParams *p, PetscReal h)
{
  PetscReal c = FlxGCDSolveCoefficient(p);
  if (p->degree == 3) return h * h * (c + p->alpha / 2);
  if (p->degree == 4) return h * h * (c + 0.5 + p->alpha / (6 * p->gamma));
  return h * h * (c + 0.5 + p->zeta / (3 * p->gamma) + p->alpha / (12 * p->gamma));
}

/* The mass block of the step, (1 + a_M c h) M (mass-proportional damping in the solve): diagonal into Adiag or
   the system's M(t, x) scaled (Mfull). */
static PetscErrorCode MassBlock(FlxStepper ts, PetscReal t, Vec x, PetscReal scale)
{
  GCDDAE *d = (GCDDAE *)ts->dae.data;

  PetscFunctionBegin;
  if (d->full) {
    PetscCall(FlxSystemComputeMassMatrix(ts->sys, t, x, &d->Mfull));
    if (scale != 1) PetscCall(MatScale(d->Mfull, scale));
  } else
    PetscCall(VecAXPBY(d->Adiag, scale, 0.0, d->Mass));
  PetscFunctionReturn(0);
}

/* y = M x with the step's mass block */
static PetscErrorCode MassMult(GCDDAE *d, Vec x, Vec y)
{
  PetscFunctionBegin;
  if (d->full)
    PetscCall(MatMult(d->Mfull, x, y));
  else
    PetscCall(VecPointwiseMult(y, d->Adiag, x));
  PetscFunctionReturn(0);
}

static PetscErrorCode RunKernel(FlxStepper ts, GCDDAE *d)
{
  PetscInt           n;
  const PetscScalar *F, *G, *Mi, *Aa;
  PetscScalar       *X, *V, *A, *J = NULL, *S = NULL, *D;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(d->X, &n));
  PetscCall(VecGetArrayRead(d->Fe, &F));
  PetscCall(VecGetArrayRead(d->G, &G));
  PetscCall(VecGetArrayRead(d->Minv, &Mi));
  PetscCall(VecGetArrayRead(d->Anew, &Aa));
  PetscCall(VecGetArray(d->X, &X));
  PetscCall(VecGetArray(d->V, &V));
  PetscCall(VecGetArray(d->A, &A));
  PetscCall(VecGetArray(d->D, &D));
  if (d->J) PetscCall(VecGetArray(d->J, &J));
  if (d->S) PetscCall(VecGetArray(d->S, &S));
  FlxGCDKernel(&d->p, n, ts->dt, 0.0, F, G, Mi, Aa, X, V, A, J, S, D, ts->lsum);
  if (d->S) PetscCall(VecRestoreArray(d->S, &S));
  if (d->J) PetscCall(VecRestoreArray(d->J, &J));
  PetscCall(VecRestoreArray(d->D, &D));
  PetscCall(VecRestoreArray(d->A, &A));
  PetscCall(VecRestoreArray(d->V, &V));
  PetscCall(VecRestoreArray(d->X, &X));
  PetscCall(VecRestoreArrayRead(d->Anew, &Aa));
  PetscCall(VecRestoreArrayRead(d->Minv, &Mi));
  PetscCall(VecRestoreArrayRead(d->G, &G));
  PetscCall(VecRestoreArrayRead(d->Fe, &F));
  PetscFunctionReturn(0);
}

/* The step's predictors: w into W, xp into Xp. */
static PetscErrorCode Predict(FlxStepper ts, GCDDAE *d)
{
  PetscInt           n;
  const PetscScalar *X, *V, *A, *J = NULL, *S = NULL;
  PetscScalar       *W, *Xp;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(d->X, &n));
  PetscCall(VecGetArrayRead(d->X, &X));
  PetscCall(VecGetArrayRead(d->V, &V));
  PetscCall(VecGetArrayRead(d->A, &A));
  if (d->J) PetscCall(VecGetArrayRead(d->J, &J));
  if (d->S) PetscCall(VecGetArrayRead(d->S, &S));
  PetscCall(VecGetArrayWrite(d->W, &W));
  PetscCall(VecGetArrayWrite(d->Xp, &Xp));
  FlxGCDPredict(&d->p, n, ts->dt, V, A, J, S, W);
  PredictPosition(&d->p, n, ts->dt, X, V, A, J, S, W, Xp);
  PetscCall(VecRestoreArrayWrite(d->Xp, &Xp));
  PetscCall(VecRestoreArrayWrite(d->W, &W));
  if (d->S) PetscCall(VecRestoreArrayRead(d->S, &S));
  if (d->J) PetscCall(VecRestoreArrayRead(d->J, &J));
  PetscCall(VecRestoreArrayRead(d->A, &A));
  PetscCall(VecRestoreArrayRead(d->V, &V));
  PetscCall(VecRestoreArrayRead(d->X, &X));
  PetscFunctionReturn(0);
}

/* One constrained step (see the file's comment): Anew = a_n and Lam = lambda_n, then the fused kernel. */
static PetscErrorCode DAEStep(FlxStepper ts)
{
  GCDDAE        *d = (GCDDAE *)ts->dae.data;
  PetscReal      h = ts->dt, tn = ts->t0 + (ts->step + 1) * h, t1 = tn + h, kap = Kappa(&d->p, h), ch = FlxGCDSolveCoefficient(&d->p) * h;
  PetscReal      dx = 0, dxold = PETSC_MAX_REAL, xn = 0, vn = 0, gn = 0, tol = ts->dae.rtol;
  PetscInt       k;
  PetscLogDouble w0, w1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&w0));
  PetscCall(FlxSystemComputeExternalForce(ts->sys, tn, d->F));
  PetscCall(MassBlock(ts, tn, d->X, 1 + d->aM * ch));
  PetscCall(FlxSystemComputeConstraintJacobian(ts->sys, tn, d->X, d->Gn));
  PetscCall(Predict(ts, d));
  if (!d->vdep) PetscCall(FlxSystemComputeInternalForce(ts->sys, tn, d->X, d->V, d->Fi));
  PetscCall(VecCopy(d->A, d->Anew)); /* warm start: a_{n-1}, lambda_{n-1} */
  for (k = 0;; k++) {
    PetscCall(VecWAXPY(d->Tv, kap, d->Anew, d->Xp)); /* x_{n+1} = xp + kappa a */
    PetscCall(FlxSystemComputeConstraint(ts->sys, t1, d->Tv, d->Gv));
    if (k) { /* converged when x_{n+1} (and v_n) stopped changing, or the change stalled at round-off */
      PetscBool stalled = (PetscBool)(dx >= dxold);
      PetscCall(VecNorm(d->Tv, NORM_INFINITY, &xn));
      const PetscReal xs = FlxDAETestScale(xn, ts->dae.xscale), vs = FlxDAETestScale(vn, ts->dae.vscale);
      if ((kap * dx <= tol * xs || (stalled && kap * dx <= 100 * tol * xs)) && (!d->vdep || ch * dx <= tol * vs || stalled)) {
        ts->dae.xscale = PetscMax(ts->dae.xscale, xn);
        if (d->vdep) ts->dae.vscale = PetscMax(ts->dae.vscale, vn);
        break;
      }
      if (k >= ts->dae.maxit) { /* stop the run with the reason (every rank: the norms are global) */
        PetscCall(VecNorm(d->Gv, NORM_INFINITY, &gn));
        ts->reason = FLX_STEPPER_DIVERGED_NEWTON;
        PetscCall(PetscSNPrintf(ts->reason_msg, sizeof(ts->reason_msg), "the constrained GCD step to t = %g s did not converge in %" PetscInt_FMT " iterations (-ts_dae_max_it): last change of x_{n+1} %g and of v %g relative to their scales, against -ts_dae_rtol %g, constraint violation |g| %g%s; reduce -ts_dt", (double)t1, ts->dae.maxit, (double)(kap * dx / FlxDAETestScale(xn, ts->dae.xscale)), (double)(d->vdep ? ch * dx / FlxDAETestScale(vn, ts->dae.vscale) : 0), (double)tol, (double)gn, d->vdep ? " (the velocity-dependent forces are a fixed point: it converges for c h |M^-1 dF/dv| < 1)" : ""));
        PetscFunctionReturn(0);
      }
      dxold = dx;
    }
    /* r1 = f_ext - f_int(x_n, v) - a_M M w - (1 + a_M c h) M a - G_n^T lambda, v = w + c h a; r2 = -g / kappa */
    if (d->vdep) {
      PetscCall(VecWAXPY(d->Da, ch, d->Anew, d->W));
      PetscCall(VecNorm(d->Da, NORM_INFINITY, &vn));
      PetscCall(FlxSystemComputeInternalForce(ts->sys, tn, d->X, d->Da, d->Fi));
    }
    PetscCall(VecWAXPY(d->R1, -1.0, d->Fi, d->F));
    PetscCall(MassMult(d, d->Anew, d->Da));
    PetscCall(VecAXPY(d->R1, -1.0, d->Da));
    if (d->aM != 0) { /* - a_M M w (the mass block holds (1 + a_M c h) M) */
      PetscCall(MassMult(d, d->W, d->Da));
      PetscCall(VecAXPY(d->R1, -d->aM / (1 + d->aM * ch), d->Da));
    }
    PetscCall(MatMultTranspose(d->Gn, d->Lam, d->Da));
    PetscCall(VecAXPY(d->R1, -1.0, d->Da));
    PetscCall(VecPointwiseMult(d->R1, d->R1, d->Free)); /* prescribed DOFs stay at rest */
    PetscCall(VecAXPBY(d->R2, -1.0 / kap, 0.0, d->Gv));
    if (!k || !ts->dae.chord) { /* Newton: H at the iterate; chord: H of the first iterate kept for the step */
      PetscCall(FlxSystemComputeConstraintJacobian(ts->sys, t1, d->Tv, d->H));
      PetscCall(FlxSaddleSetOperators(d->sp, d->full ? NULL : d->Adiag, d->full ? d->Mfull : NULL, d->Gn, d->H));
    }
    PetscCall(FlxSaddleSolve(d->sp, d->R1, d->R2, d->Da, d->Dl, "the constrained GCD step", tn));
    PetscCall(VecAXPY(d->Anew, 1.0, d->Da));
    PetscCall(VecAXPY(d->Lam, 1.0, d->Dl));
    PetscCall(VecNorm(d->Da, NORM_INFINITY, &dx));
  }
  PetscCall(VecNorm(d->Gv, NORM_INFINITY, &gn));
  ts->dae.gmax = PetscMax(ts->dae.gmax, gn);
  d->its += k;
  d->itmax = PetscMax(d->itmax, k);
  d->nsteps++;
  /* the kernel: the constraint forces join the load in the ledger (their work is the method's error) */
  if (d->vdep) { /* the elastic part f_int(x_n, 0), as gcd.c: the rest of the residual is the damping force */
    PetscCall(VecZeroEntries(d->Da));
    PetscCall(FlxSystemComputeInternalForce(ts->sys, tn, d->X, d->Da, d->Fi));
  }
  PetscCall(VecCopy(d->Fi, d->G));
  PetscCall(MatMultTranspose(d->Gn, d->Lam, d->Da));
  PetscCall(VecWAXPY(d->Fe, -1.0, d->Da, d->F));
  PetscCall(RunKernel(ts, d));
  { /* velocity level at t_n: |G(t_n, x_n) v_n + g_t| (not enforced by the method; measured) */
    PetscReal gv;
    PetscCall(VecWAXPY(d->Tv, -1.0, d->D, d->X));
    PetscCall(FlxSystemComputeConstraintRate(ts->sys, tn, d->Tv, d->R2));
    PetscCall(MatMultAdd(d->Gn, d->V, d->R2, d->R2));
    PetscCall(VecNorm(d->R2, NORM_INFINITY, &gv));
    ts->dae.vmax = PetscMax(ts->dae.vmax, gv);
  }
  PetscCall(PetscTime(&w1));
  d->tstep += w1 - w0;
  PetscFunctionReturn(0);
}

/* Start-up derivatives j_0 (and s_0) of a constrained system (-ts_gcd_startup exact): the consistent
   acceleration a(t) = [[M, G^T], [G, 0]]^-1 [f_ext - f_int; -(G_x(v, v) + 2 G_t v + g_tt)] differenced along the
   Taylor curve x(e) = x_0 + e v_0 + e^2/2 a_0 + e^3/6 j_0 + e^4/24 s_0 by five-point stencils with step h/2, two
   passes (as gcd.c does for an unconstrained nonlinear system): 8 saddle-point solves, once per run. */
static PetscErrorCode StartDerivatives(FlxStepper ts, GCDDAE *d)
{
  const PetscReal e0 = ts->dt / 2, w1[5] = {1, -8, 0, 8, -1}, w2[5] = {-1, 16, -30, 16, -1};
  PetscScalar     c1[5], c2[5];
  Vec            *w, hist[5] = {d->X, d->V, d->A, d->J, d->S};

  PetscFunctionBegin;
  for (int k = 0; k < 5; k++) {
    c1[k] = w1[k] / (12 * e0);
    c2[k] = w2[k] / (12 * e0 * e0);
  }
  PetscCall(VecDuplicateVecs(d->X, 7, &w)); /* w[0..4] a(e_k), w[5] x(e), w[6] v(e) */
  PetscCall(VecCopy(d->A, w[2]));
  for (int pass = 0; pass < 2; pass++) {
    for (int k = 0; k < 5; k++) {
      const PetscReal e = (k - 2) * e0, cx[5] = {1, e, e * e / 2, e * e * e / 6, e * e * e * e / 24};
      if (k == 2) continue;
      PetscCall(VecCopy(d->X, w[5]));
      PetscCall(VecCopy(d->V, w[6]));
      for (int m = 1; m < d->p.degree; m++) {
        PetscCall(VecAXPY(w[5], cx[m], hist[m]));
        if (m + 1 < d->p.degree) PetscCall(VecAXPY(w[6], cx[m], hist[m + 1]));
      }
      PetscCall(MassBlock(ts, ts->t0 + e, w[5], 1.0));
      PetscCall(FlxDAEConsistentAcceleration(ts, d->sp, ts->t0 + e, d->full ? NULL : d->Adiag, d->full ? d->Mfull : NULL, w[5], w[6], w[k], d->Dl));
    }
    PetscCall(VecZeroEntries(d->J));
    PetscCall(VecMAXPY(d->J, 5, c1, w));
    if (d->S) {
      PetscCall(VecZeroEntries(d->S));
      PetscCall(VecMAXPY(d->S, 5, c2, w));
    }
  }
  PetscCall(VecDestroyVecs(7, &w));
  PetscFunctionReturn(0);
}

static PetscErrorCode DAEStartUp(FlxStepper ts)
{
  GCDDAE         *d = (GCDDAE *)ts->dae.data;
  const PetscReal h = ts->dt, t0 = ts->t0, c[5] = {1, h, h * h / 2, h * h * h / 6, h * h * h * h / 24};
  Vec             hist[5] = {d->X, d->V, d->A, d->J, d->S};
  PetscReal       gp, gv;

  PetscFunctionBegin;
  d->its = d->itmax = d->nsteps = 0;
  d->tstep                      = 0;
  ts->dae.gmax = ts->dae.vmax = 0;
  PetscCall(VecPointwiseMult(d->X, ts->x0, d->Free));
  PetscCall(VecPointwiseMult(d->V, ts->v0, d->Free));
  PetscCall(MassBlock(ts, t0, d->X, 1.0));
  PetscCall(FlxDAEInitialConditions(ts, d->sp, t0, d->full ? NULL : d->Adiag, d->full ? d->Mfull : NULL, d->X, d->V));
  PetscCall(MassBlock(ts, t0, d->X, 1.0));
  PetscCall(FlxDAEConsistentAcceleration(ts, d->sp, t0, d->full ? NULL : d->Adiag, d->full ? d->Mfull : NULL, d->X, d->V, d->A, d->Lam));
  if (d->J) PetscCall(VecZeroEntries(d->J));
  if (d->S) PetscCall(VecZeroEntries(d->S));
  if (d->p.degree >= 4 && d->exact) PetscCall(StartDerivatives(ts, d));
  /* x_1: the Taylor step, moved onto g(t_1, x) = 0 along M^-1 G(t_0, x_0)^T */
  PetscCall(VecCopy(d->X, d->Xp));
  for (int k = 1; k < d->p.degree; k++)
    PetscCall(VecAXPY(d->Xp, c[k], hist[k]));
  PetscCall(FlxSystemComputeConstraintJacobian(ts->sys, t0, d->X, d->Gn));
  PetscCall(MassBlock(ts, t0, d->X, 1.0));
  PetscCall(FlxDAEProjectPosition(ts, d->sp, t0 + h, d->full ? NULL : d->Adiag, d->full ? d->Mfull : NULL, d->Gn, d->Xp, "the first step's position x_1"));
  PetscCall(FlxDAEViolation(ts, t0, d->X, d->V, d->Gn, &gp, &gv));
  ts->dae.gmax = gp;
  ts->dae.vmax = gv;
  PetscCall(FlxDAEViolation(ts, t0 + h, d->Xp, NULL, NULL, &gp, NULL));
  ts->dae.gmax = PetscMax(ts->dae.gmax, gp);
  { /* ledger at t_0: the kinetic energy (2 h^2 m v^2, as the central-difference sums), the rest 0 */
    const PetscScalar *m, *v;
    PetscInt           n;
    ts->lsum[0] = 0;
    PetscCall(VecGetLocalSize(d->V, &n));
    PetscCall(VecGetArrayRead(d->Mass, &m));
    PetscCall(VecGetArrayRead(d->V, &v));
    for (PetscInt i = 0; i < n; i++)
      ts->lsum[0] += 2 * h * h * PetscRealPart(m[i] * v[i] * v[i]);
    PetscCall(VecRestoreArrayRead(d->V, &v));
    PetscCall(VecRestoreArrayRead(d->Mass, &m));
    ts->lsum[1] = ts->lsum[2] = ts->lsum[3] = 0;
  }
  PetscCall(VecWAXPY(d->D, -1.0, d->X, d->Xp));
  PetscCall(VecCopy(d->Xp, d->X));
  PetscCall(FlxSaddleGetStatistics(d->sp, &d->nsad0, &d->tsad0)); /* the report counts the steps' solves */
  PetscFunctionReturn(0);
}

static PetscErrorCode DAEGetState(FlxStepper ts, Vec *x, Vec *v, Vec *a)
{
  GCDDAE *d = (GCDDAE *)ts->dae.data;

  PetscFunctionBegin;
  PetscCall(VecWAXPY(d->Xout, -1.0, d->D, d->X)); /* x_n = x_{n+1} - (x_{n+1} - x_n) */
  if (x) *x = d->Xout;
  if (v) *v = d->V;
  if (a) *a = d->A;
  PetscFunctionReturn(0);
}

static PetscErrorCode DAEGetMultipliers(FlxStepper ts, Vec *lambda, Vec *psi)
{
  GCDDAE *d = (GCDDAE *)ts->dae.data;

  PetscFunctionBegin;
  if (lambda) *lambda = d->Lam;
  if (psi) *psi = NULL;
  PetscFunctionReturn(0);
}

static PetscErrorCode DAEProbe(FlxStepper ts, PetscInt n, const PetscInt idx[], PetscReal out[])
{
  GCDDAE            *d = (GCDDAE *)ts->dae.data;
  const PetscScalar *X, *D, *V, *A;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(d->X, &X));
  PetscCall(VecGetArrayRead(d->D, &D));
  PetscCall(VecGetArrayRead(d->V, &V));
  PetscCall(VecGetArrayRead(d->A, &A));
  for (PetscInt k = 0; k < n; k++) {
    PetscInt i     = idx[k];
    out[3 * k]     = i >= 0 ? X[i] - D[i] : 0;
    out[3 * k + 1] = i >= 0 ? V[i] : 0;
    out[3 * k + 2] = i >= 0 ? A[i] : 0;
  }
  PetscCall(VecRestoreArrayRead(d->A, &A));
  PetscCall(VecRestoreArrayRead(d->V, &V));
  PetscCall(VecRestoreArrayRead(d->D, &D));
  PetscCall(VecRestoreArrayRead(d->X, &X));
  PetscFunctionReturn(0);
}

/* Reactions at t_n, the constraint forces on prescribed DOFs included (the load holds f_ext - G^T lambda). */
static PetscErrorCode DAEReaction(FlxStepper ts, Vec R)
{
  GCDDAE *d = (GCDDAE *)ts->dae.data;

  PetscFunctionBegin;
  PetscCall(FlxSystemComputeReactions(ts->sys, d->X, d->D, d->V, d->A, d->Fe, R));
  PetscFunctionReturn(0);
}

static PetscErrorCode DAEView(FlxStepper ts, PetscViewer viewer)
{
  GCDDAE  *d = (GCDDAE *)ts->dae.data;
  PetscInt m;
  Mat      G;

  PetscFunctionBegin;
  PetscCall(FlxSystemGetConstraintMatrix(ts->sys, &G));
  PetscCall(MatGetSize(G, &m, NULL));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  method stability: Omega_max = %.10g (the unconstrained method's; constraints do not raise omega_max)\n", (double)ts->Omega_max));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  constraints (seed 000 section 8): %" PetscInt_FMT " holonomic constraints held at position level every step; Newton on g(t_{n+1}, x_{n+1}) = 0 with [[M, G(x_n)^T], [G(x_{n+1}^k), 0]], until x_{n+1} changes by less than -ts_dae_rtol %g%s\n", m, (double)ts->dae.rtol, d->vdep ? "; the velocity-dependent forces by fixed point in the same iteration" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  start-up: %s\n", d->startup));
  PetscCall(FlxSaddleView(d->sp, viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode DAEReport(FlxStepper ts, PetscViewer viewer)
{
  GCDDAE *d = (GCDDAE *)ts->dae.data;

  PetscInt  ns;
  PetscReal tsad;

  PetscFunctionBegin;
  PetscCall(FlxSaddleGetStatistics(d->sp, &ns, &tsad));
  ns -= d->nsad0;
  tsad -= d->tsad0;
  if (d->nsteps) PetscCall(PetscViewerASCIIPrintf(viewer, "constrained GCD: %.4g ms per step, %.1f%% of it in the saddle-point solves (%.3g ms each, %" PetscInt_FMT " solves in all)\n", 1e3 * d->tstep / d->nsteps, 100 * tsad / PetscMax(d->tstep, 1e-300), 1e3 * tsad / PetscMax(ns, 1), ns));
  if (d->nsteps) PetscCall(PetscViewerASCIIPrintf(viewer, "constrained GCD: %.2f saddle-point solves per step on average, at most %" PetscInt_FMT ", over %" PetscInt_FMT " steps; largest violation |g| = %.3e (position, enforced), |G v + g_t| = %.3e (velocity, not enforced)\n", (double)d->its / d->nsteps, d->itmax, d->nsteps, (double)ts->dae.gmax, (double)ts->dae.vmax));
  PetscFunctionReturn(0);
}

static PetscErrorCode DAEReset(FlxStepper ts)
{
  GCDDAE *d      = (GCDDAE *)ts->dae.data;
  Vec    *vecs[] = {&d->X, &d->V, &d->A, &d->J, &d->S, &d->D, &d->F, &d->Fe, &d->G, &d->Minv, &d->W, &d->Xp, &d->Fi, &d->Xout, &d->Lam, &d->Anew, &d->Da, &d->Dl, &d->R1, &d->R2, &d->Gv, &d->Adiag, &d->Tv};

  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(0);
  for (size_t k = 0; k < sizeof(vecs) / sizeof(vecs[0]); k++)
    PetscCall(VecDestroy(vecs[k]));
  PetscCall(MatDestroy(&d->Gn));
  PetscCall(MatDestroy(&d->H));
  PetscCall(FlxSaddleDestroy(&d->sp));
  ts->ops = d->saved; /* the gcd type again */
  PetscCall(PetscFree(ts->dae.data));
  if (ts->ops.reset) PetscCall(ts->ops.reset(ts));
  PetscFunctionReturn(0);
}

static PetscErrorCode DAEDestroy(FlxStepper ts)
{
  PetscFunctionBegin;
  PetscCall(DAEReset(ts));
  if (ts->ops.destroy) PetscCall(ts->ops.destroy(ts));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxGCDDAESetUp(FlxStepper ts, const FlxGCDParams *p, PetscBool exact)
{
  GCDDAE   *d;
  Vec       mass, free;
  Mat       G;
  PetscBool finite, hasmov;

  PetscFunctionBegin;
  PetscCheck(!p->classic, ts->comm, PETSC_ERR_USER_INPUT, "the classic central differences preset (cd_classic) has no constrained step: use gcd3 (the same method, reformulated)");
  PetscCheck(!ts->dae.implicit_only, ts->comm, PETSC_ERR_USER_INPUT, "%s applies to the implicit steppers on constrained systems (-ts_type newmark, hht, genalpha); the constrained GCD step (seed 000 section 8) has no such variant: remove it, or change -ts_type", ts->dae.implicit_only);
  PetscCall(FlxSystemHasConfigurationUpdate(ts->sys, &finite));
  PetscCheck(!finite, ts->comm, PETSC_ERR_USER_INPUT, "constraints on a system with finite rotations are not supported yet");
  PetscCall(FlxSystemGetPrescribedMotion(ts->sys, NULL, NULL, &hasmov));
  PetscCheck(!hasmov, ts->comm, PETSC_ERR_USER_INPUT, "constraints together with prescribed motion (moving supports) are not supported yet: hold the moving DOF by a rheonomic constraint instead");
  PetscCall(PetscNew(&d));
  {
    Vec *v2[] = {&d->X, &d->V, &d->A, &d->D, &d->F, &d->Fe, &d->G, &d->Minv, &d->W, &d->Xp, &d->Fi, &d->Xout, &d->Anew, &d->Da, &d->R1, &d->Adiag, &d->Tv};
    PetscCall(FlxSystemGetMass(ts->sys, &mass, &free));
    for (size_t k = 0; k < sizeof(v2) / sizeof(v2[0]); k++)
      PetscCall(VecDuplicate(mass, v2[k]));
  }
  ts->dae.data    = d;
  d->saved        = ts->ops; /* from here on, a failure of the set-up leaves d to DAEReset / DAEDestroy */
  ts->ops.reset   = DAEReset;
  ts->ops.destroy = DAEDestroy;
  d->p            = *p;
  d->exact        = exact;
  d->Mass         = mass;
  d->Free         = free;
  if (p->degree >= 4) PetscCall(VecDuplicate(mass, &d->J));
  if (p->degree >= 5) PetscCall(VecDuplicate(mass, &d->S));
  PetscCall(FlxSystemCreateMultiplierVector(ts->sys, &d->Lam));
  PetscCall(VecDuplicate(d->Lam, &d->Dl));
  PetscCall(VecDuplicate(d->Lam, &d->R2));
  PetscCall(VecDuplicate(d->Lam, &d->Gv));
  PetscCall(FlxSystemGetConstraintMatrix(ts->sys, &G));
  PetscCall(MatDuplicate(G, MAT_DO_NOT_COPY_VALUES, &d->Gn));
  PetscCall(MatDuplicate(G, MAT_DO_NOT_COPY_VALUES, &d->H));
  PetscCall(FlxSystemHasMassMatrixFunction(ts->sys, &d->full));
  PetscCall(FlxSystemIsVelocityDependent(ts->sys, &d->vdep));
  {
    PetscReal bK;
    PetscCall(FlxSystemGetRayleigh(ts->sys, &d->aM, &bK));
  }
  { /* 1 / m on free DOFs with mass, 0 elsewhere (for the ledger) */
    PetscScalar       *mi;
    const PetscScalar *m, *f;
    PetscInt           n;
    PetscCall(VecGetLocalSize(mass, &n));
    PetscCall(VecGetArrayRead(mass, &m));
    PetscCall(VecGetArrayRead(free, &f));
    PetscCall(VecGetArrayWrite(d->Minv, &mi));
    for (PetscInt i = 0; i < n; i++)
      mi[i] = PetscRealPart(m[i]) > 0 ? f[i] / m[i] : 0;
    PetscCall(VecRestoreArrayWrite(d->Minv, &mi));
    PetscCall(VecRestoreArrayRead(free, &f));
    PetscCall(VecRestoreArrayRead(mass, &m));
  }
  { /* the saddle-point solver, configured on the mass and G's pattern at the initial state */
    PetscCheck(ts->x0, ts->comm, PETSC_ERR_ARG_WRONGSTATE, "a constrained system needs its initial conditions before FlxStepperSetUp (FlxStepperSetInitialConditions)");
    PetscCall(FlxSystemComputeConstraintJacobian(ts->sys, ts->t0, ts->x0, d->Gn));
    if (d->full) PetscCall(FlxSystemComputeMassMatrix(ts->sys, ts->t0, ts->x0, &d->Mfull));
    PetscCall(FlxSaddleCreate(ts, d->full ? NULL : mass, d->full ? d->Mfull : NULL, d->Gn, &d->sp));
  }
  PetscCall(FlxGCDOmegaMax(p->degree, &p->alpha, &ts->Omega_max));
  if (p->degree < 4)
    d->startup = "consistent a_0, lambda_0 (acceleration-level saddle point); x_1 by the Taylor step moved onto the constraints";
  else if (!exact)
    d->startup = "consistent a_0, lambda_0; higher derivatives 0 (-ts_gcd_startup zero); x_1 by the Taylor step moved onto the constraints";
  else
    d->startup = "consistent a_0, lambda_0; j_0 (and s_0) the consistent acceleration differenced along the solution (five points, step h/2); x_1 by the Taylor step moved onto the constraints";
  ts->ops.startup        = DAEStartUp;
  ts->ops.step           = DAEStep;
  ts->ops.getstate       = DAEGetState;
  ts->ops.getmultipliers = DAEGetMultipliers;
  ts->ops.probe          = DAEProbe;
  ts->ops.reaction       = DAEReaction;
  ts->ops.view           = DAEView;
  ts->ops.report         = DAEReport;
  ts->ops.reset          = DAEReset;
  ts->ops.destroy        = DAEDestroy;
  PetscFunctionReturn(0);
}
