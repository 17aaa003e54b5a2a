/* The gcd stepper's start-up (time-integration.md 1, "Start-up"): a_0 from the equation of motion, j_0 and s_0
   for degrees 4 and 5 (exact for linear systems, differenced along the solution for nonlinear ones, or zero as in
   the paper's examples), then the Taylor step x_1. */
#include "gcdimpl.h"

/* a = M^-1 (f - f_int(y, z)) - aM z, for the start-up derivatives (linear: f_int(v, a) = K v + C' a). */
static PetscErrorCode Derivative(FlxStepper ts, PetscReal t, Vec f, Vec y, Vec z, Vec out)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;

  PetscFunctionBegin;
  PetscCall(FlxSystemComputeInternalForce(ts->sys, t, y, z, g->G));
  PetscCall(VecAYPX(g->G, -1.0, f));
  PetscCall(VecPointwiseMult(out, g->G, g->Minv));
  PetscCall(VecAXPY(out, -g->aM, z));
  if (g->tensor) PetscCall(FlxSystemSolveInertia(ts->sys, y, z, 0, g->G, out)); /* J (a + aM z) + z x J z = f - f_int */
  PetscFunctionReturn(0);
}

/* Start-up derivatives of a nonlinear system (-ts_gcd_startup exact): j_0 = a'(t_0) and s_0 = a''(t_0) of the
   acceleration along the solution, a(t) = M^-1 (f_ext(t) - f_int(x(t), v(t))) - aM v(t), by five-point central
   differences with step d = h/2 over the Taylor curve x(e) = x_0 + e v_0 + e^2/2 a_0 + e^3/6 j_0 + e^4/24 s_0,
   v(e) = x'(e), with f_ext(t_0 + e) = f_ext(t_0) + e f_ext'(t_0) (f_ext'' = 0 as in the linear case; a load
   that starts at t_0 is not differenced across its start). The stencils are exact for quartics, so the first
   pass (j_0 = s_0 = 0 in the curve) gives j_0 and the second s_0, each to O(d^4). 8 force evaluations, once per
   run; the stepper still sees only f_int. Collective. */
static PetscErrorCode NonlinearDerivatives(FlxStepper ts)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;
  const PetscReal d = ts->dt / 2, w1[5] = {1, -8, 0, 8, -1}, w2[5] = {-1, 16, -30, 16, -1};
  PetscScalar     c1[5], c2[5];
  Vec            *w, hist[5] = {g->X, g->V, g->A, g->J, g->S};

  PetscFunctionBegin;
  for (int k = 0; k < 5; k++) {
    c1[k] = w1[k] / (12 * d);
    c2[k] = w2[k] / (12 * d * d);
  }
  PetscCall(VecDuplicateVecs(g->X, 9, &w)); /* w[0..4] a(e_k), w[5] x(e), w[6] v(e), w[7] f_ext'(t_0), w[8] f_ext(t_0) */
  PetscCall(FlxSystemComputeExternalForceRate(ts->sys, ts->t0, w[7]));
  PetscCall(FlxSystemComputeExternalForce(ts->sys, ts->t0, w[8]));
  PetscCall(VecCopy(g->A, w[2])); /* e = 0 */
  for (int pass = 0; pass < 2; pass++) {
    for (int k = 0; k < 5; k++) {
      const PetscReal e = (k - 2) * d, cx[5] = {1, e, e * e / 2, e * e * e / 6, e * e * e * e / 24};
      if (k == 2) continue;
      PetscCall(VecZeroEntries(w[5]));
      PetscCall(VecCopy(g->V, w[6]));
      for (int m = 1; m < g->p.degree; m++) {
        PetscCall(VecAXPY(w[5], cx[m], hist[m]));
        if (m + 1 < g->p.degree) PetscCall(VecAXPY(w[6], cx[m], hist[m + 1]));
      }
      if (g->finite) /* x(e) = x_0 (+) Theta(e): the Magnus increment, as the steps compose */
        PetscCall(FlxGCDComposeIncrement(ts->sys, g->magnus, e, g->V, g->A, g->J, w[5], g->X, w[5]));
      else
        PetscCall(VecAXPY(w[5], 1.0, g->X));
      PetscCall(VecWAXPY(g->F, e, w[7], w[8]));
      PetscCall(Derivative(ts, ts->t0 + e, g->F, w[5], w[6], w[k]));
    }
    PetscCall(VecZeroEntries(g->J));
    PetscCall(VecMAXPY(g->J, 5, c1, w));
    if (g->S) {
      PetscCall(VecZeroEntries(g->S));
      PetscCall(VecMAXPY(g->S, 5, c2, w));
    }
  }
  PetscCall(VecDestroyVecs(9, &w));
  PetscFunctionReturn(0);
}

/* Start-up (time-integration.md 1): a_0 from the equation of motion; for degrees 4 and 5 j_0 (and s_0)
   from its time derivatives (-ts_gcd_startup exact: analytic for a linear system with f_ext'' taken as 0,
   NonlinearDerivatives otherwise) or 0 (-ts_gcd_startup zero, as the paper's examples); x_1 by the Taylor
   step. The ledger at t_0 uses the backward Taylor point x_{-1}. */
PetscErrorCode FlxGCDStartUp(FlxStepper ts)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;
  PetscReal       h = ts->dt, t0 = ts->t0, c[5] = {1, h, h * h / 2, h * h * h / 6, h * h * h * h / 24};
  PetscBool       linear = g->linear;
  Vec             xm, Fsave;

  PetscFunctionBegin;
  g->its_total = g->its_max = g->nsolves = g->kits_total = 0;
  PetscCall(VecCopy(ts->x0, g->X));
  PetscCall(VecCopy(ts->v0, g->V));
  { /* prescribed DOFs (minv = 0): at rest, or moving with their motion */
    Vec free, y[2] = {g->X, g->V};
    PetscCall(FlxSystemGetMass(ts->sys, NULL, &free));
    PetscCall(VecPointwiseMult(g->X, g->X, free));
    PetscCall(VecPointwiseMult(g->V, g->V, free));
    PetscCall(FlxSystemApplyPrescribedMotion(ts->sys, t0, 0, 1, y));
  }
  if (g->solve == GCD_SOLVE_KSP) PetscCall(FlxGCDSetUpKSP(ts));
  PetscCall(FlxSystemComputeExternalForce(ts->sys, t0, g->F));
  PetscCall(Derivative(ts, t0, g->F, g->X, g->V, g->A));
  PetscCall(FlxSystemApplyPrescribedMotion(ts->sys, t0, 2, 2, &g->A));
  if (g->J) PetscCall(VecZeroEntries(g->J));
  if (g->S) PetscCall(VecZeroEntries(g->S));
  if (g->p.degree >= 4 && g->startup_type == GCD_STARTUP_EXACT && linear) {
    PetscCall(VecDuplicate(g->X, &Fsave));
    PetscCall(FlxSystemComputeExternalForceRate(ts->sys, t0, Fsave));
    PetscCall(Derivative(ts, t0, Fsave, g->V, g->A, g->J));
    PetscCall(FlxSystemApplyPrescribedMotion(ts->sys, t0, 3, 3, &g->J));
    if (g->p.degree == 5) {
      PetscCall(VecZeroEntries(Fsave));
      PetscCall(Derivative(ts, t0, Fsave, g->A, g->J, g->S));
      PetscCall(FlxSystemApplyPrescribedMotion(ts->sys, t0, 4, 4, &g->S));
    }
    PetscCall(VecDestroy(&Fsave));
  } else if (g->p.degree >= 4 && g->startup_type == GCD_STARTUP_EXACT) {
    Vec y[2] = {g->J, g->S};
    PetscCall(NonlinearDerivatives(ts));
    PetscCall(FlxSystemApplyPrescribedMotion(ts->sys, t0, 3, g->p.degree - 1, y));
  }
  /* ledger at t_0: elastic force f_int(x_0, 0) and f_ext(t_0) */
  PetscCall(FlxSystemComputeInternalForce(ts->sys, t0, g->X, g->Zero ? g->Zero : g->V, g->G));
  PetscCall(FlxSystemComputeExternalForce(ts->sys, t0, g->F));
  PetscCall(VecDuplicate(g->X, &xm));
  {
    Vec       hist[5] = {g->X, g->V, g->A, g->J, g->S};
    PetscReal cp[5], cm[5];
    for (int k = 0; k < 5; k++) {
      cp[k] = c[k];
      cm[k] = (k % 2 ? -1 : 1) * c[k];
    }
    PetscCall(VecCopy(g->X, xm));
    PetscCall(VecCopy(g->X, g->W));
    for (int k = 1; k < g->p.degree; k++) {
      PetscCall(VecAXPY(g->W, cp[k], hist[k]));
      PetscCall(VecAXPY(xm, cm[k], hist[k]));
    }
    PetscCall(FlxSystemApplyPrescribedMotion(ts->sys, t0 + h, 0, 0, &g->W)); /* moving DOFs: their own x_1 and x_{-1} */
    PetscCall(FlxSystemApplyPrescribedMotion(ts->sys, t0 - h, 0, 0, &xm));
  }
  { /* sums with x_1 = W, x_{-1} = xm */
    PetscReal          s[4] = {0, 0, 0, 0};
    const PetscScalar *x1, *x0, *x_1, *G, *F, *Mi, *V, *A;
    PetscInt           n;
    PetscCall(VecGetLocalSize(g->X, &n));
    PetscCall(VecGetArrayRead(g->W, &x1));
    PetscCall(VecGetArrayRead(g->X, &x0));
    PetscCall(VecGetArrayRead(xm, &x_1));
    PetscCall(VecGetArrayRead(g->G, &G));
    PetscCall(VecGetArrayRead(g->F, &F));
    PetscCall(VecGetArrayRead(g->Minv, &Mi));
    PetscCall(VecGetArrayRead(g->V, &V));
    PetscCall(VecGetArrayRead(g->A, &A));
    for (PetscInt i = 0; i < n; i++) {
      PetscReal dn = x1[i] - x0[i], dold = x0[i] - x_1[i], m = Mi[i] > 0 ? 1 / Mi[i] : 0;
      s[0] += m * (dold * dold + dn * dn);
      s[1] += (g->p.work ? dn + dold : x1[i] + x_1[i]) * G[i];
      s[2] += (dn + dold) * (Mi[i] > 0 ? F[i] : G[i]);                                               /* prescribed DOFs: the work of the support on the structure */
      s[3] += (dn + dold) * (g->Zero ? (Mi[i] > 0 ? F[i] - G[i] - m * A[i] : 0) : g->aM * m * V[i]); /* damping force, as the kernel */
    }
    PetscCall(VecRestoreArrayRead(g->A, &A));
    PetscCall(VecRestoreArrayRead(g->V, &V));
    PetscCall(VecRestoreArrayRead(g->Minv, &Mi));
    PetscCall(VecRestoreArrayRead(g->F, &F));
    PetscCall(VecRestoreArrayRead(g->G, &G));
    PetscCall(VecRestoreArrayRead(xm, &x_1));
    PetscCall(VecRestoreArrayRead(g->X, &x0));
    PetscCall(VecRestoreArrayRead(g->W, &x1));
    for (int k = 0; k < 4; k++)
      ts->lsum[k] = s[k];
  }
  if (g->tensor) { /* the tensor nodes' kinetic and damping terms, with x_1 - x_0 and x_0 - x_{-1} */
    PetscCall(VecWAXPY(g->Rt, -1.0, xm, g->X));
    PetscCall(FlxGCDTensorsLedgerBefore(ts->sys, &g->tn, g->X, g->Rt));
    PetscCall(VecWAXPY(g->Rt, -1.0, g->X, g->W));
    PetscCall(FlxGCDTensorsLedgerAfter(&g->tn, g->aM, g->Minv, g->Rt, g->V, g->A, g->F, g->G, ts->lsum));
  }
  if (g->p.work) PetscCall(FlxGCDLedgerStrain(ts, g->X));
  if (g->p.classic) PetscCall(VecCopy(g->X, g->J)); /* x_{n-1} for the first step */
  PetscCall(VecWAXPY(g->D, -1.0, g->X, g->W));      /* D = x_1 - x_0 */
  if (g->finite) {                                  /* x_1 = x_0 (+) Theta; Xo keeps x_0 */
    PetscCall(VecCopy(g->X, g->Xo));
    PetscCall(FlxGCDComposeIncrement(ts->sys, g->magnus, h, g->V, g->A, g->J, g->D, g->Xo, g->X));
  } else
    PetscCall(VecCopy(g->W, g->X)); /* X = x_1 */
  PetscCall(VecDestroy(&xm));
  PetscFunctionReturn(0);
}
