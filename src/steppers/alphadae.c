/* The implicit generalized-alpha family on systems with holonomic constraints, index 3 (issue 16): Newmark as in
   seed paper 001 (Gavrea, Negrut, Potra: "Newmark for index-3 multibody DAEs", eqs. 6-8), HHT and
   generalized-alpha in the same form (HHT-I3). newmark, hht and genalpha hand their step to this file when the
   system has constraints (one call in AlphaSetUp).

       x_{n+1} = x_n + h v_n + h^2/2 ((1 - 2 beta) a*_n + 2 beta a*_{n+1})
       v_{n+1} = v_n + h ((1 - gamma) a*_n + gamma a*_{n+1})
       (1 - alpha_m) M_{n+1} a*_{n+1} + alpha_m M_n a*_n = (1 - alpha_f) F_{n+1} + alpha_f F_n,
       F = f_ext - f_int(x, v) - a_M M v - G(x)^T lambda
       g(t_{n+1}, x_{n+1}) = 0                                                 (position level, index 3)

   The unknowns are a*_{n+1} and lambda_{n+1}; the constraint rows are divided by beta h^2 (001 section 3, the
   scaling (c)), so that the Newton matrix

       [ (1 - alpha_m) M + (1 - alpha_f) (gamma h C_t + beta h^2 (K_t + K_c))   G^T ] [ da          ]   [ -e1 ]
       [ G                                                                       0   ] [ (1-af) dlam ] = [ -e2 ]

   keeps its constraint block, G, independent of h (K_c = d(G^T lambda)/dx, 001 eq. 8). M may depend on x
   (M(t, x), seed 002 section 3: evaluated at the iterate; its derivative (M a)_x is left out of the matrix, a
   modified Newton). The iteration stops when x_{n+1} stops changing (-ts_dae_rtol); with error control
   (-ts_alpha_adapt, alphaadapt.c) by 001's test on the contraction rate, eq. (35)-(36b): (xi/(1 - xi)) |(beta - 1/6)
   h^2 da|_WRMS <= c times the step's error threshold, xi the ratio of successive corrections, c = 1e-3.
   Error control: seed 001's estimate (beta - 1/6) h^2 (a*_{n+1} - a*_n) (eq. 21) with the acceleration change
   projected onto the constraints' tangent space along J^-1 G^T (the Newton matrix's factorization: one more
   back-solve), in the norm of eq. (24), held per unit step or per step (alphaadapt.c). Each step of the stepper
   core (-ts_dt) is covered by as many accepted sub-steps as the control asks, the last one cut to land on it.
   When the step changes, a*_n and M_n a*_n are moved to the new step by seed 002 eq. (14a, b) (generalized-alpha
   keeps second order with variable steps). */
#include "alphadae.h"

PetscErrorCode FlxAlphaDAEMassMult(AlphaDAE *d, Vec x, Vec y)
{
  PetscFunctionBegin;
  if (d->full)
    PetscCall(MatMult(d->Mi, x, y));
  else
    PetscCall(VecPointwiseMult(y, d->Mass, x));
  PetscFunctionReturn(0);
}

/* Systems with M(t, x) (seed 002 section 3): the inertia terms (1 - am) M_{1+alpha} a*_{n+1} + am M_alpha a*_n take
   M_{1+alpha} at t_n + (1 + alpha) h, where a*_{n+1} approximates the acceleration (002 section 2.2): for
   alpha = alpha_m - alpha_f != 0 explicitly, M(t_n + (1 + alpha) h, x_n + (1 + alpha) h v_n), once per try (M at
   x_{n+1} would be O(h) off and make velocities, then positions, first order: seen on Andrews' squeezer); for
   alpha = 0 (Newmark) M(t_{n+1}, x_{n+1}) at the iterate (seed 001 eq. 6a). M_alpha a*_n is the previous step's
   M_{1+alpha} a*_n (MA). */
static PetscErrorCode MassOfStep(FlxStepper ts, AlphaDAE *d, PetscReal t, PetscReal h)
{
  PetscFunctionBegin;
  if (!d->full || d->al == 0) PetscFunctionReturn(0);
  PetscCall(VecWAXPY(d->Tv, (1 + d->al) * h, d->V, d->X));
  PetscCall(FlxSystemComputeMassMatrix(ts->sys, t + (1 + d->al) * h, d->Tv, &d->Mfull));
  PetscCall(MatCopy(d->Mfull, d->Mi, SAME_NONZERO_PATTERN));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaDAEMassAt(FlxStepper ts, AlphaDAE *d, PetscReal t, Vec x)
{
  PetscFunctionBegin;
  if (d->full && (d->al == 0 || d->aM != 0)) PetscCall(FlxSystemComputeMassMatrix(ts->sys, t, x, &d->Mfull));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaDAEForce(FlxStepper ts, AlphaDAE *d, PetscReal t, Vec x, Vec v, Vec lambda, Vec psi, Vec F)
{
  PetscFunctionBegin;
  PetscCall(FlxSystemComputeExternalForce(ts->sys, t, F));
  PetscCall(FlxSystemComputeInternalForce(ts->sys, t, x, v, d->Ft));
  PetscCall(VecAXPY(F, -1.0, d->Ft));
  if (d->aM != 0) { /* M at (t, x) */
    if (d->full)
      PetscCall(MatMult(d->Mfull, v, d->Ft));
    else
      PetscCall(VecPointwiseMult(d->Ft, d->Mass, v));
    PetscCall(VecAXPY(F, -d->aM, d->Ft));
  }
  PetscCall(FlxSystemComputeConstraintForce(ts->sys, t, x, v, lambda, psi, d->G1, d->Kv1, d->Ft));
  PetscCall(VecAXPY(F, -1.0, d->Ft));
  PetscCall(VecPointwiseMult(F, F, d->Free)); /* prescribed DOFs at rest */
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaDAETangent(FlxStepper ts, AlphaDAE *d, PetscReal t1, PetscReal h, Vec lam, Vec psi, Mat Lt, Mat Pt)
{
  const PetscReal b = d->beta, gm = d->gamma, s = (1 - d->af) * b * h * h;

  PetscFunctionBegin;
  PetscCall(FlxSystemComputeJacobian(ts->sys, t1, d->X1, d->V1, gm / (b * h), d->full ? 0 : (1 - d->am) / s, d->J));
  PetscCall(FlxSystemComputeConstraintForceJacobian(ts->sys, t1, d->X1, d->V1, lam, psi, d->G1, d->Kv1, Lt, Pt, gm / (b * h), d->J));
  PetscCall(MatAssemblyBegin(d->J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(d->J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatScale(d->J, s));
  if (d->full) PetscCall(MatAXPY(d->J, 1 - d->am, d->Mi, DIFFERENT_NONZERO_PATTERN));
  if (d->aM != 0 && d->full) PetscCall(MatAXPY(d->J, s * d->aM * gm / (b * h), d->Mfull, DIFFERENT_NONZERO_PATTERN));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaDAESetNewton(AlphaDAE *d, FlxSaddle sp, Mat U, Mat C)
{
  PetscFunctionBegin;
  if (d->diag) {
    PetscCall(MatGetDiagonal(d->J, d->Jd));
    PetscCall(FlxSaddleSetOperators(sp, d->Jd, NULL, U, C));
  } else
    PetscCall(FlxSaddleSetOperators(sp, NULL, d->J, U, C));
  PetscFunctionReturn(0);
}

/* One try of a step of size h from (t, X, V, A, Lam): Newton on (a*, lambda); conv says whether it converged. */
static PetscErrorCode Attempt(FlxStepper ts, AlphaDAE *d, PetscReal t, PetscReal h, PetscBool *conv)
{
  const PetscReal b = d->beta, gm = d->gamma, t1 = t + h, bh2 = b * h * h, c = 1e-3;
  PetscReal       dx = 0, dxold = PETSC_MAX_REAL, xn, vn, nq = 0, nqold = 0, tol = ts->dae.rtol;
  PetscInt        k;

  PetscFunctionBegin;
  *conv = PETSC_FALSE;
  PetscCall(VecCopy(d->Aa, d->Anew)); /* predictor: a*_{n+1} = a*_n, lambda_{n+1} = lambda_n (001 section 5) */
  PetscCall(VecCopy(d->Lam, d->Lam1));
  for (k = 0;; k++) {
    /* x_{n+1}, v_{n+1} of the iterate */
    PetscCall(VecWAXPY(d->X1, h, d->V, d->X));
    PetscCall(VecAXPBYPCZ(d->X1, h * h / 2 * (1 - 2 * b), bh2, 1.0, d->Aa, d->Anew));
    PetscCall(VecWAXPY(d->V1, h * (1 - gm), d->Aa, d->V));
    PetscCall(VecAXPY(d->V1, h * gm, d->Anew));
    if (k) { /* converged? */
      PetscBool stalled = (PetscBool)(dx >= dxold);
      PetscCall(VecNorm(d->X1, NORM_INFINITY, &xn));
      PetscCall(VecNorm(d->V1, NORM_INFINITY, &vn));
      if (d->ad->on) { /* 001 eqs. (35), (36b): the error left in the estimate is below c times its threshold */
        PetscReal xi = k > 1 ? nq / nqold : 0.5;
        if (k > 1 && xi < 1 && xi / (1 - xi) * nq * PetscAbsReal(h * h * (b - 1.0 / 6)) <= c * FlxAlphaAdaptThreshold(d->ad, h)) {
          *conv = PETSC_TRUE;
          break;
        }
      } else {
        const PetscReal xs = FlxDAETestScale(xn, ts->dae.xscale), vs = FlxDAETestScale(vn, ts->dae.vscale);
        if ((bh2 * dx <= tol * xs || (stalled && bh2 * dx <= 100 * tol * xs)) && (h * gm * dx <= tol * vs || stalled)) {
          *conv = PETSC_TRUE;
          break;
        }
      }
      if (k >= ts->dae.maxit || PetscIsInfOrNanReal(dx)) break;
      dxold = dx;
    }
    /* residuals: e1 = (1 - am) M1 a* + am M_n a*_n - (1 - af) F_{n+1} - af F_n, e2 = g / (beta h^2) */
    PetscCall(FlxAlphaDAEMassAt(ts, d, t1, d->X1));
    PetscCall(FlxSystemComputeConstraintJacobian(ts->sys, t1, d->X1, d->G1));
    PetscCall(FlxSystemComputeConstraint(ts->sys, t1, d->X1, d->Gv));
    PetscCall(FlxAlphaDAEForce(ts, d, t1, d->X1, d->V1, d->Lam1, NULL, d->R1));
    PetscCall(VecScale(d->R1, 1 - d->af));
    PetscCall(VecAXPY(d->R1, d->af, d->Fold));
    PetscCall(VecAXPY(d->R1, -d->am, d->MAa));
    PetscCall(FlxAlphaDAEMassMult(d, d->Anew, d->Tv));
    PetscCall(VecAXPY(d->R1, -(1 - d->am), d->Tv));
    PetscCall(VecPointwiseMult(d->R1, d->R1, d->Free)); /* -e1 */
    PetscCall(VecAXPBY(d->R2, -1.0 / bh2, 0.0, d->Gv)); /* -e2 */
    if (!k || !ts->dae.chord) {                         /* the Newton matrix; -ts_dae_chord: the first iterate's for the step */
      PetscCall(FlxAlphaDAETangent(ts, d, t1, h, d->Lam1, NULL, d->G1, NULL));
      PetscCall(FlxAlphaDAESetNewton(d, d->sp, d->G1, d->G1));
    }
    PetscCall(FlxSaddleSolve(d->sp, d->R1, d->R2, d->Da, d->Dl, "the implicit constrained step", t1));
    PetscCall(VecAXPY(d->Anew, 1.0, d->Da));
    PetscCall(VecAXPY(d->Lam1, 1.0 / (1 - d->af), d->Dl));
    PetscCall(VecNorm(d->Da, NORM_INFINITY, &dx));
    nqold = nq;
    if (d->ad->on) PetscCall(FlxAlphaAdaptNorm(d->ad, d->Da, &nq)); /* |da|_WRMS, eq. (24) */
  }
  d->its += k;
  d->itmax = PetscMax(d->itmax, k);
  PetscFunctionReturn(0);
}

/* Seed 002 eq. (14a, b): a*_n and M_n a*_n for a step h after the step hprev, into Aa and MAa (the previous step's
   adjusted values in Aprev, MAprev: a_{n-1+alpha}). */
static PetscErrorCode AdjustStep(AlphaDAE *d, PetscReal h)
{
  const PetscReal al = d->am - d->af;

  PetscFunctionBegin;
  PetscCall(VecCopy(d->A, d->Aa));
  PetscCall(VecCopy(d->MA, d->MAa));
  if (!d->haveprev || al == 0 || d->hprev <= 0 || h == d->hprev || !d->adjust) PetscFunctionReturn(0);
  {
    const PetscReal r = al * (h / d->hprev - 1);
    PetscCall(VecAXPBYPCZ(d->Aa, -r, r, 1.0, d->Aprev, d->A)); /* a + r (a - a_prev) */
    PetscCall(VecAXPBYPCZ(d->MAa, -r, r, 1.0, d->MAprev, d->MA));
  }
  PetscFunctionReturn(0);
}

/* The converged try becomes the state at t + h. */
static PetscErrorCode Commit(FlxStepper ts, AlphaDAE *d, PetscReal t1, PetscReal h)
{
  PetscFunctionBegin;
  PetscCall(VecCopy(d->Aa, d->Aprev));
  PetscCall(VecCopy(d->MAa, d->MAprev));
  d->haveprev = PETSC_TRUE;
  d->hprev    = h;
  PetscCall(VecCopy(d->X1, d->X));
  PetscCall(VecCopy(d->V1, d->V));
  PetscCall(VecCopy(d->Anew, d->A));
  PetscCall(VecCopy(d->Lam1, d->Lam));
  { /* the scales of the iterations' tests: accepted steps only (a try that error control rejects must not widen them) */
    PetscReal xn, vn;
    PetscCall(VecNorm(d->X, NORM_INFINITY, &xn));
    PetscCall(VecNorm(d->V, NORM_INFINITY, &vn));
    ts->dae.xscale = PetscMax(ts->dae.xscale, xn);
    ts->dae.vscale = PetscMax(ts->dae.vscale, vn);
  }
  if (d->Psi) PetscCall(VecCopy(d->Psi1, d->Psi));
  /* F_{n+1} and M_{n+1} a*_{n+1} at the converged state (M, G of the last iterate: the same point to the tolerance) */
  PetscCall(FlxSystemComputeConstraintJacobian(ts->sys, t1, d->X, d->G1));
  PetscCall(FlxAlphaDAEMassAt(ts, d, t1, d->X));
  if (d->Kv1) PetscCall(FlxSystemComputeVelocityConstraintJacobian(ts->sys, t1, d->X, d->V, d->Kv1, NULL));
  PetscCall(FlxAlphaDAEForce(ts, d, t1, d->X, d->V, d->Lam, d->Psi, d->Fold));
  PetscCall(FlxAlphaDAEMassMult(d, d->A, d->MA));
  { /* the violations */
    PetscReal gp, gv;
    PetscCall(FlxDAEViolation(ts, t1, d->X, d->V, d->G1, &gp, &gv));
    ts->dae.gmax = PetscMax(ts->dae.gmax, gp);
    ts->dae.vmax = PetscMax(ts->dae.vmax, gv);
  }
  d->nsteps++;
  PetscFunctionReturn(0);
}

/* The error control's acceleration change: a*_{n+1} - a*_n of the converged try projected onto the constraints'
   tangent space along J^-1 G^T, [[J, G^T], [G, 0]] [y; mu] = [J da; 0] with the Newton matrix's last
   factorization (one back-solve; alphaadapt.c says why), into Da. */
static PetscErrorCode TangentialChange(AlphaDAE *d, PetscReal t1)
{
  PetscFunctionBegin;
  if (d->Psi) { /* velocity constraints restrict velocities, not positions: the change as it is */
    PetscCall(VecWAXPY(d->Da, -1.0, d->Aa, d->Anew));
    PetscFunctionReturn(0);
  }
  PetscCall(VecWAXPY(d->Tv, -1.0, d->Aa, d->Anew));
  if (d->diag) /* the block factored: diag(J) */
    PetscCall(VecPointwiseMult(d->R1, d->Jd, d->Tv));
  else
    PetscCall(MatMult(d->J, d->Tv, d->R1));
  PetscCall(VecPointwiseMult(d->R1, d->R1, d->Free));
  PetscCall(VecZeroEntries(d->R2));
  PetscCall(FlxSaddleSolve(d->sp, d->R1, d->R2, d->Da, d->Dl, "the error estimate", t1));
  PetscFunctionReturn(0);
}

/* One step of the stepper core: one step of -ts_dt (times its ratio), or with error control as many accepted
   sub-steps as it takes to get there. */
static PetscErrorCode DAEStep(FlxStepper ts)
{
  AlphaDAE       *d  = (AlphaDAE *)ts->dae.data;
  FlxAlphaAdapt  *ad = d->ad;
  const PetscReal H = ts->dt * (d->nratio ? d->ratio[ts->step % d->nratio] : 1), t0 = ts->time, tend = t0 + H;
  PetscReal       t = t0;
  PetscLogDouble  w0, w1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&w0));
  ts->hlast = H;
  while (t < tend - 1e-12 * H) {
    PetscReal h = ad->on ? PetscMin(d->hcur, tend - t) : H, r = 0;
    PetscBool conv, accept;
    if (ad->on && tend - t - h < 1e-3 * h) h = tend - t; /* do not leave a sliver */
    PetscCall(AdjustStep(d, h));
    PetscCall(MassOfStep(ts, d, t, h));
    if (ts->dae.soi2)
      PetscCall(FlxAlphaSOI2Attempt(ts, d, t, h, &conv));
    else
      PetscCall(Attempt(ts, d, t, h, &conv));
    d->ntry++;
    if (!ad->on && !conv) {
      ts->reason = FLX_STEPPER_DIVERGED_NEWTON;
      PetscCall(PetscSNPrintf(ts->reason_msg, sizeof(ts->reason_msg), "the implicit constrained step (%s) to t = %g s did not converge in %" PetscInt_FMT " Newton iterations (-ts_dae_max_it, tolerance -ts_dae_rtol %g on the change of x_{n+1}); reduce -ts_dt or use error control (-ts_alpha_adapt)", ts->type, (double)(t + h), ts->dae.maxit, (double)ts->dae.rtol));
      PetscFunctionReturn(0);
    }
    if (ad->on) {
      if (conv) {
        PetscCall(TangentialChange(d, t + h));
        PetscCall(FlxAlphaAdaptRatio(ad, h, d->Da, d->X1, &r));
      }
      PetscCall(FlxAlphaAdaptNext(ad, h, conv, r, &accept, &d->hcur));
      if (!accept) { /* rejected: the state stays, the step shrinks */
        if (d->hcur < 1e-12 * H) {
          ts->reason = FLX_STEPPER_DIVERGED_NEWTON;
          PetscCall(PetscSNPrintf(ts->reason_msg, sizeof(ts->reason_msg), "the implicit constrained step (%s) at t = %g s: the error control cut the step to %g s without meeting -ts_alpha_adapt_rtol %g (last estimate %g times its threshold%s)", ts->type, (double)t, (double)d->hcur, (double)ad->rtol, (double)r, conv ? "" : ", Newton did not converge"));
          PetscFunctionReturn(0);
        }
        continue;
      }
    }
    PetscCall(Commit(ts, d, t + h, h));
    t += h;
  }
  { /* ledger (direct): kinetic energy at t_{n+1} */
    PetscReal k;
    PetscCall(FlxAlphaDAEMassMult(d, d->V, d->Tv));
    PetscCall(VecDot(d->Tv, d->V, &k));
    ts->lsum[0] = ts->rank ? 0 : k / 2;
    ts->lsum[1] = ts->lsum[2] = ts->lsum[3] = 0;
  }
  PetscCall(PetscTime(&w1));
  d->tstep += w1 - w0;
  PetscFunctionReturn(0);
}

/* Start-up: the initial conditions checked (or projected), the consistent a_0 and lambda_0 (a*_0 = a_0, seed 002
   section 2), F_0 and M_0 a_0. */
static PetscErrorCode DAEStartUp(FlxStepper ts)
{
  AlphaDAE *d = (AlphaDAE *)ts->dae.data;
  Vec       Ad;

  PetscFunctionBegin;
  d->its = d->itmax = d->nsteps = d->ntry = 0;
  d->tstep                                = 0;
  d->haveprev                             = PETSC_FALSE;
  d->hcur                                 = ts->dt * (d->nratio ? d->ratio[0] : 1);
  ts->dae.gmax = ts->dae.vmax = 0;
  PetscCall(VecPointwiseMult(d->X, ts->x0, d->Free));
  PetscCall(VecPointwiseMult(d->V, ts->v0, d->Free));
  if (d->full) PetscCall(FlxSystemComputeMassMatrix(ts->sys, ts->t0, d->X, &d->Mfull));
  Ad = d->full ? NULL : d->Mass;
  PetscCall(FlxDAEInitialConditions(ts, d->Psi ? NULL : d->sp, ts->t0, Ad, d->full ? d->Mfull : NULL, d->X, d->V));
  if (d->full) PetscCall(FlxSystemComputeMassMatrix(ts->sys, ts->t0, d->X, &d->Mfull));
  if (d->Psi) PetscCall(FlxDAECheckVelocityConstraints(ts, ts->t0, d->X, d->V));
  if (d->Psi || d->general)
    PetscCall(FlxAlphaSOI2Consistent(ts, d)); /* a_0, lambda_0, psi_0 by Newton */
  else
    PetscCall(FlxDAEConsistentAcceleration(ts, d->sp, ts->t0, Ad, d->full ? d->Mfull : NULL, d->X, d->V, d->A, d->Lam));
  if (d->full && d->Mi != d->Mfull) PetscCall(MatCopy(d->Mfull, d->Mi, SAME_NONZERO_PATTERN)); /* M_alpha a*_0 = M_0 a_0 */
  PetscCall(FlxSystemComputeConstraintJacobian(ts->sys, ts->t0, d->X, d->G1));
  if (d->Kv1) PetscCall(FlxSystemComputeVelocityConstraintJacobian(ts->sys, ts->t0, d->X, d->V, d->Kv1, NULL));
  PetscCall(FlxAlphaDAEForce(ts, d, ts->t0, d->X, d->V, d->Lam, d->Psi, d->Fold));
  PetscCall(FlxAlphaDAEMassMult(d, d->A, d->MA));
  PetscCall(FlxAlphaAdaptStart(d->ad, d->X)); /* 001 eq. (24): Y_i = max(1, max_j |q_i(t_j)|) */
  {
    PetscReal gp, gv, k;
    PetscCall(FlxDAEViolation(ts, ts->t0, d->X, d->V, d->G1, &gp, &gv));
    ts->dae.gmax = gp;
    ts->dae.vmax = gv;
    PetscCall(FlxAlphaDAEMassMult(d, d->V, d->Tv));
    PetscCall(VecDot(d->Tv, d->V, &k));
    ts->lsum[0] = ts->rank ? 0 : k / 2;
    ts->lsum[1] = ts->lsum[2] = ts->lsum[3] = 0;
  }
  PetscCall(FlxSaddleGetStatistics(d->sp, &d->nsad0, &d->tsad0)); /* the report counts the steps' solves */
  if (d->sp2) {
    PetscInt  n2;
    PetscReal t2;
    PetscCall(FlxSaddleGetStatistics(d->sp2, &n2, &t2));
    d->nsad0 += n2;
    d->tsad0 += t2;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode DAEGetState(FlxStepper ts, Vec *x, Vec *v, Vec *a)
{
  AlphaDAE *d = (AlphaDAE *)ts->dae.data;

  PetscFunctionBegin;
  if (x) *x = d->X;
  if (v) *v = d->V;
  if (a) *a = d->A; /* the algorithmic a* (the physical acceleration for Newmark) */
  PetscFunctionReturn(0);
}

static PetscErrorCode DAEGetMultipliers(FlxStepper ts, Vec *lambda, Vec *psi)
{
  AlphaDAE *d = (AlphaDAE *)ts->dae.data;

  PetscFunctionBegin;
  if (lambda) *lambda = d->Lam;
  if (psi) *psi = d->Psi;
  PetscFunctionReturn(0);
}

static PetscErrorCode DAEProbe(FlxStepper ts, PetscInt n, const PetscInt idx[], PetscReal out[])
{
  AlphaDAE          *d = (AlphaDAE *)ts->dae.data;
  const PetscScalar *X, *V, *A;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(d->X, &X));
  PetscCall(VecGetArrayRead(d->V, &V));
  PetscCall(VecGetArrayRead(d->A, &A));
  for (PetscInt k = 0; k < n; k++) {
    PetscInt i     = idx[k];
    out[3 * k]     = i >= 0 ? X[i] : 0;
    out[3 * k + 1] = i >= 0 ? V[i] : 0;
    out[3 * k + 2] = i >= 0 ? A[i] : 0;
  }
  PetscCall(VecRestoreArrayRead(d->A, &A));
  PetscCall(VecRestoreArrayRead(d->V, &V));
  PetscCall(VecRestoreArrayRead(d->X, &X));
  PetscFunctionReturn(0);
}

static PetscErrorCode DAEView(FlxStepper ts, PetscViewer viewer)
{
  AlphaDAE *d = (AlphaDAE *)ts->dae.data;
  PetscInt  m;
  Mat       G;

  PetscFunctionBegin;
  PetscCall(FlxSystemGetConstraintMatrix(ts->sys, &G));
  PetscCall(MatGetSize(G, &m, NULL));
  if (ts->dae.soi2) {
    PetscInt mk = 0;
    if (d->Kv1) PetscCall(MatGetSize(d->Kv1, &mk, NULL));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  constraints (seed 002, SOI2): %" PetscInt_FMT " holonomic constraints at position and velocity level and %" PetscInt_FMT " velocity constraints (eq. 13: a and (lambda, psi) for the velocity-level rows, a~ and (lambda~, psi~) for the position constraints and the velocity constraints at z~), %s; alpha_m %g, alpha_f %g, beta %g, gamma %g; step changes %s\n", m, mk, d->general ? "the system's constraint force (nonlinear in the multipliers)" : "constraint force G^T lambda + Kv^T psi",
                                     (double)d->am, (double)d->af, (double)d->beta, (double)d->gamma, d->adjust ? "adjust a* by eq. (14)" : "without eq. (14) (-ts_dae_step_adjust false)"));
  } else
    PetscCall(PetscViewerASCIIPrintf(viewer, "  constraints (seed 001, index 3): %" PetscInt_FMT " holonomic constraints at position level; Newton on (a*, lambda) with the constraint rows scaled by 1/(beta h^2), alpha_m %g, alpha_f %g, beta %g, gamma %g%s\n", m, (double)d->am, (double)d->af, (double)d->beta, (double)d->gamma, d->full ? "; M(t, x) at the iterate" : ""));
  if (d->ad->on) {
    PetscCall(FlxAlphaAdaptView(d->ad, viewer));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  the acceleration change projected onto the constraints' tangent space; Newton stopped by the contraction rate (seed 001 eq. 35, c = 1e-3)\n"));
  } else
    PetscCall(PetscViewerASCIIPrintf(viewer, "  fixed steps; Newton until x_{n+1} changes by less than -ts_dae_rtol %g\n", (double)ts->dae.rtol));
  PetscCall(FlxSaddleView(d->sp, viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode DAEReport(FlxStepper ts, PetscViewer viewer)
{
  AlphaDAE *d = (AlphaDAE *)ts->dae.data;

  PetscFunctionBegin;
  if (!d->nsteps) PetscFunctionReturn(0);
  {
    PetscInt  ns, n2   = 0;
    PetscReal ts1, ts2 = 0;
    PetscCall(FlxSaddleGetStatistics(d->sp, &ns, &ts1));
    if (d->sp2) PetscCall(FlxSaddleGetStatistics(d->sp2, &n2, &ts2));
    ns -= d->nsad0;
    ts1 -= d->tsad0;
    PetscCall(PetscViewerASCIIPrintf(viewer, "implicit constrained %s: %.1f%% of the steps' time in the saddle-point solves (%" PetscInt_FMT " solves, %.3g ms each)\n", ts->type, 100 * (ts1 + ts2) / PetscMax(d->tstep, 1e-300), ns + n2, 1e3 * (ts1 + ts2) / PetscMax(ns + n2, 1)));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "implicit constrained %s: %" PetscInt_FMT " steps, %.2f Newton iterations per try on average, at most %" PetscInt_FMT "; %.4g ms per step of -ts_dt; largest violation |g| = %.3e (position, enforced), |G v + g_t| = %.3e (velocity, %s)\n", ts->type, d->nsteps, (double)d->its / PetscMax(d->ntry, 1), d->itmax, 1e3 * d->tstep / PetscMax(ts->step, 1), (double)ts->dae.gmax, (double)ts->dae.vmax, ts->dae.soi2 ? "enforced" : "not enforced"));
  PetscCall(FlxAlphaAdaptReport(d->ad, viewer));
  PetscFunctionReturn(0);
}

static PetscErrorCode DAEReset(FlxStepper ts)
{
  AlphaDAE *d      = (AlphaDAE *)ts->dae.data;
  Vec      *vecs[] = {&d->X, &d->V, &d->A, &d->Aa, &d->Aprev, &d->Lam, &d->X1, &d->V1, &d->Anew, &d->Lam1, &d->Da, &d->Dl, &d->R1, &d->R2, &d->Gv, &d->Fold, &d->MA, &d->MAa, &d->MAprev, &d->Ft, &d->Tv};

  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(0);
  PetscCall(FlxAlphaSOI2Destroy(d)); /* first: it may share G1 */
  for (size_t k = 0; k < sizeof(vecs) / sizeof(vecs[0]); k++)
    PetscCall(VecDestroy(vecs[k]));
  PetscCall(MatDestroy(&d->G1));
  PetscCall(MatDestroy(&d->J));
  PetscCall(MatDestroy(&d->Kv1));
  PetscCall(VecDestroy(&d->Jd));
  if (d->Mi != d->Mfull) PetscCall(MatDestroy(&d->Mi));
  PetscCall(FlxSaddleDestroy(&d->sp));
  PetscCall(FlxSaddleDestroy(&d->sp2));
  PetscCall(VecDestroy(&d->Psi));
  PetscCall(VecDestroy(&d->Psi1));
  ts->ops = d->saved; /* the alpha type again */
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

/* -ts_dae_tangent: the Newton matrix's upper block J itself, or its diagonal (the Schur route; auto: when J's pattern,
   assembled at the initial state, is diagonal, so that the diagonal is J: the pendulum's point masses). */
static PetscErrorCode NewtonMatrixType(FlxStepper ts, AlphaDAE *d)
{
  PetscFunctionBegin;
  PetscCheck(ts->dae.tangent != FLX_DAE_TANGENT_DIAGONAL || !d->full, ts->comm, PETSC_ERR_USER_INPUT, "-ts_dae_tangent diagonal needs the lumped mass: this system has a mass matrix M(t, x); use -ts_dae_tangent full");
  d->diag = ts->dae.tangent == FLX_DAE_TANGENT_DIAGONAL ? PETSC_TRUE : PETSC_FALSE;
  if (ts->dae.tangent == FLX_DAE_TANGENT_AUTO && !d->full) {
    PetscInt lo, hi, off = 0;
    PetscCall(MatGetOwnershipRange(d->J, &lo, &hi));
    for (PetscInt r = lo; r < hi && !off; r++) {
      const PetscInt *cols;
      PetscInt        nc;
      PetscCall(MatGetRow(d->J, r, &nc, &cols, NULL));
      for (PetscInt k = 0; k < nc; k++)
        if (cols[k] != r) off = 1;
      PetscCall(MatRestoreRow(d->J, r, &nc, &cols, NULL));
    }
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &off, 1, MPIU_INT, MPI_MAX, ts->comm));
    d->diag = off ? PETSC_FALSE : PETSC_TRUE;
  }
  if (d->diag) {
    PetscCall(MatCreateVecs(d->J, &d->Jd, NULL));
    PetscCall(MatGetDiagonal(d->J, d->Jd));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaDAESetUp(FlxStepper ts)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  AlphaDAE         *d;
  Vec               mass, free;
  Mat               G;
  PetscBool         finite, hasmov;

  PetscFunctionBegin;
  PetscCall(FlxSystemHasConfigurationUpdate(ts->sys, &finite));
  PetscCheck(!finite, ts->comm, PETSC_ERR_USER_INPUT, "constraints on a system with finite rotations are not supported yet");
  PetscCall(FlxSystemGetPrescribedMotion(ts->sys, NULL, NULL, &hasmov));
  PetscCheck(!hasmov, ts->comm, PETSC_ERR_USER_INPUT, "constraints together with prescribed motion (moving supports) are not supported yet: hold the moving DOF by a rheonomic constraint instead");
  PetscCheck(!al->consistent, ts->comm, PETSC_ERR_USER_INPUT, "-ts_alpha_mass consistent with constraints is not supported yet: give the system's mass matrix (FlxSystemSetMassMatrixFunction) or use the lumped mass");
  PetscCheck(!al->adapt.on || ts->dae.soi2 || PetscAbsReal(al->gamma - 0.5) > 1e-12 || PetscAbsReal(al->am - al->af) > 1e-12, ts->comm, PETSC_ERR_USER_INPUT, "-ts_alpha_adapt with the index-3 %s (gamma = 1/2, alpha_m = alpha_f: no numerical dissipation): its accelerations and multipliers are weakly unstable when the step changes (an oscillation that grows at every change), so the error control keeps cutting the step; use -ts_dae_soi2 (velocity constraints enforced: the same method with error control works), or a dissipative member (-ts_type hht, genalpha)", al->fam == ALPHA_NEWMARK ? "trapezoidal rule" : "method");
  {
    PetscBool nodiss = (PetscBool)(!ts->dae.soi2 && PetscAbsReal(al->gamma - 0.5) <= 1e-12 && PetscAbsReal(al->am - al->af) <= 1e-12), varying = PETSC_FALSE;
    for (PetscInt k = 1; k < al->nratio; k++)
      if (al->ratio[k] != al->ratio[0]) varying = PETSC_TRUE;
    /* the same weak instability without the error control: an energy error of 1e8 J on a 4.9 J pendulum at step
       ratios 1, 1.1, exit 0 (found by a helper) */
    PetscCheck(!(nodiss && varying), ts->comm, PETSC_ERR_USER_INPUT, "-ts_alpha_dt_ratios with the index-3 %s (gamma = 1/2, alpha_m = alpha_f: no numerical dissipation): its accelerations and multipliers are weakly unstable when the step changes, and the run goes wrong; use -ts_dae_soi2, or a dissipative member (-ts_type hht, genalpha)", al->fam == ALPHA_NEWMARK ? "trapezoidal rule" : "method");
  }
  PetscCheck(ts->x0, ts->comm, PETSC_ERR_ARG_WRONGSTATE, "a constrained system needs its initial conditions before FlxStepperSetUp (FlxStepperSetInitialConditions)");
  PetscCall(PetscNew(&d));
  ts->dae.data    = d;
  d->saved        = ts->ops; /* from here on, a failure of the set-up leaves d to DAEReset / DAEDestroy */
  ts->ops.reset   = DAEReset;
  ts->ops.destroy = DAEDestroy;
  d->am           = al->am;
  d->af           = al->af;
  d->beta         = al->beta;
  d->gamma        = al->gamma;
  d->al           = al->am - al->af;
  d->ad           = &al->adapt;
  d->nratio       = al->nratio;
  for (PetscInt k = 0; k < al->nratio; k++)
    d->ratio[k] = al->ratio[k];
  PetscCall(FlxSystemGetMass(ts->sys, &mass, &free));
  d->Mass = mass;
  d->Free = free;
  PetscCall(FlxAlphaAdaptSetUp(ts, &al->adapt, al->beta, free));
  {
    Vec *v[] = {&d->X, &d->V, &d->A, &d->Aa, &d->Aprev, &d->X1, &d->V1, &d->Anew, &d->Da, &d->R1, &d->Fold, &d->MA, &d->MAa, &d->MAprev, &d->Ft, &d->Tv};
    for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
      PetscCall(VecDuplicate(mass, v[k]));
  }
  PetscCall(FlxSystemCreateMultiplierVector(ts->sys, &d->Lam));
  {
    Vec *v[] = {&d->Lam1, &d->Dl, &d->R2, &d->Gv};
    for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
      PetscCall(VecDuplicate(d->Lam, v[k]));
  }
  PetscCall(FlxSystemGetConstraintMatrix(ts->sys, &G));
  PetscCall(MatDuplicate(G, MAT_DO_NOT_COPY_VALUES, &d->G1));
  PetscCall(FlxSystemHasMassMatrixFunction(ts->sys, &d->full));
  {
    PetscReal bK;
    PetscCall(FlxSystemGetRayleigh(ts->sys, &d->aM, &bK));
  }
  /* the Newton matrix (the Jacobian's pattern) and the saddle-point solver, configured at the initial state */
  PetscCall(FlxSystemComputeConstraintJacobian(ts->sys, ts->t0, ts->x0, d->G1));
  PetscCall(FlxSystemCreateJacobianMatrix(ts->sys, &d->J));
  PetscCall(FlxSystemComputeJacobian(ts->sys, ts->t0, ts->x0, ts->v0, 0, 1, d->J));
  if (d->full) {
    PetscCall(FlxSystemComputeMassMatrix(ts->sys, ts->t0, ts->x0, &d->Mfull));
    PetscCall(MatAXPY(d->J, 1.0, d->Mfull, DIFFERENT_NONZERO_PATTERN));
    if (d->al != 0)
      PetscCall(MatDuplicate(d->Mfull, MAT_COPY_VALUES, &d->Mi));
    else
      d->Mi = d->Mfull;
  }
  d->adjust = ts->dae.step_adjust;
  PetscCall(NewtonMatrixType(ts, d));
  if (ts->dae.soi2) /* the saddle-point solvers of the position and velocity constraints */
    PetscCall(FlxAlphaSOI2SetUp(ts, d));
  else
    PetscCall(FlxSaddleCreate(ts, d->diag ? d->Jd : NULL, d->diag ? NULL : d->J, d->G1, &d->sp));
  ts->ops.startup        = DAEStartUp;
  ts->ops.step           = DAEStep;
  ts->ops.getstate       = DAEGetState;
  ts->ops.getmultipliers = DAEGetMultipliers;
  ts->ops.probe          = DAEProbe;
  ts->ops.reaction       = NULL; /* the core's fallback: R = f_int + M a - f_ext from the state */
  ts->ops.view           = DAEView;
  ts->ops.report         = DAEReport;
  ts->ops.progress       = NULL;
  ts->ops.reset          = DAEReset;
  ts->ops.destroy        = DAEDestroy;
  ts->Omega_max          = PETSC_INFINITY;
  ts->implicit           = PETSC_TRUE;
  ts->ledger_direct      = PETSC_TRUE;
  ts->varstep            = PETSC_TRUE;
  PetscFunctionReturn(0);
}
