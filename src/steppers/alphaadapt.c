/* Error control of the implicit generalized-alpha family (Newmark, HHT, generalized-alpha), with or without
   constraints (-ts_alpha_adapt; docs/methods.md, "Error control of the implicit steppers").

   Estimate (seed 001 section 4.1, eqs. 20-23): the local error of the positions of a step of size h is
       delta = x_{n+1} - x~(t_{n+1}) = (beta - 1/6) h^3 x'''(t_n) + O(h^4) ~ (beta - 1/6) h^2 (a*_{n+1} - a*_n),
   from quantities the step has (no extra solve), measured in the weighted RMS norm of eq. (24),
       e = sqrt(1/p sum_i (delta_i / Y_i)^2),  Y_i = max(1, max_j |x_i(t_j)|),
   over the p free DOFs (a prescribed DOF has no error, and counting it would dilute the norm of a finite-element
   model whose supports hold most DOFs).
   On a constrained system the caller projects a*_{n+1} - a*_n onto the constraints' tangent space first: the
   position constraints hold at t_{n+1}, so delta has no normal component, and the normal part of the
   acceleration change is the multipliers' response to the velocity-level consistency error, an O(1)-relative
   noise that a step change excites (index 3) and that made the control of seed 001 chatter.

   Control (-ts_alpha_adapt_type):
   - unit_step (the default): error per unit step, e <= s eps h / (t_end - t_0), s = -ts_alpha_adapt_safety. The
     local errors of the N steps then add up to at most s eps over the run, so the global error at t_end is
     proportional to eps (tolerance proportionality) and below it when the problem propagates the local errors
     with a factor below 1/s (the tests: the pendulum, the double pendulum, an oscillator). Since e ~ h^3, e/h ~ h^2
     and the next step is h_new = 0.9 h r^(-1/2), r = e / (s eps h / (t_end - t_0)).
   - step: seed 001's per-step test e <= eps (eq. 25) and h_new = 0.9 h (eps/e)^(1/3) (eq. 26): the local error
     per step is eps, so the global error grows as eps^(2/3) (with N ~ eps^(-1/3) steps) and is not bounded by
     eps (on seed 001's pendulum 107 eps at 1e-4, 569 eps at 1e-6).
   The step after an accepted or rejected try follows the same formula, within [h/10, 5 h] (a rejected try at
   most 0.9 h); a try whose Newton iteration fails is retried with h/4. */
#include "alpha.h"

static const char *const AdaptTypes[] = {"unit_step", "step", "FlxAlphaAdaptType", "ALPHA_ADAPT_", NULL};

PetscErrorCode FlxAlphaAdaptSetFromOptions(FlxStepper ts, FlxAlphaAdapt *ad)
{
  PetscFunctionBegin;
  if (ad->rtol == 0) { /* defaults */
    ad->rtol   = 1e-4;
    ad->safety = 0.2;
  }
  PetscOptionsBegin(ts->comm, NULL, "Error control of the implicit steppers (-ts_type newmark|hht|genalpha)", "FlxStepperAlpha");
  PetscCall(PetscOptionsBool("-ts_alpha_adapt", "Error control: sub-steps within each -ts_dt chosen by seed 001's local error estimate (beta - 1/6) h^2 (a*_{n+1} - a*_n), accepted or rejected (constrained or not)", "FlxStepperAlpha", ad->on, &ad->on, NULL));
  PetscCall(PetscOptionsReal("-ts_alpha_adapt_rtol", "Error control: tolerance eps on the weighted RMS position error (seed 001 eq. 24: scale max(1, max |x_i|)); unit_step: a bound of the global error at -ts_max_time", "FlxStepperAlpha", ad->rtol, &ad->rtol, NULL));
  PetscCall(PetscOptionsEnum("-ts_alpha_adapt_type", "Error control: unit_step (local error <= safety eps h / (t_end - t_0): the global error proportional to eps) or step (seed 001: local error <= eps per step)", "FlxStepperAlpha", AdaptTypes, (PetscEnum)ad->type, (PetscEnum *)&ad->type, NULL));
  PetscCall(PetscOptionsReal("-ts_alpha_adapt_safety", "Error control, unit_step: fraction of eps the local errors may add up to over the run (the margin for their propagation)", "FlxStepperAlpha", ad->safety, &ad->safety, NULL));
  PetscOptionsEnd();
  PetscCheck(ad->rtol > 0, ts->comm, PETSC_ERR_USER_INPUT, "-ts_alpha_adapt_rtol %g must be positive", (double)ad->rtol);
  PetscCheck(ad->safety > 0 && ad->safety <= 1, ts->comm, PETSC_ERR_USER_INPUT, "-ts_alpha_adapt_safety %g: give a factor in (0, 1]", (double)ad->safety);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaAdaptSetUp(FlxStepper ts, FlxAlphaAdapt *ad, PetscReal beta, Vec free)
{
  PetscFunctionBegin;
  if (!ad->on) PetscFunctionReturn(0);
  PetscCheck(PetscAbsReal(beta - 1.0 / 6) > 1e-8, ts->comm, PETSC_ERR_USER_INPUT, "-ts_alpha_adapt: the error estimate (beta - 1/6) h^2 (a_{n+1} - a_n) vanishes for beta = 1/6; choose another beta");
  ad->coef = beta - 1.0 / 6;
  ad->span = ts->max_time - ts->t0;
  PetscCall(VecDestroy(&ad->Y));
  PetscCall(VecDestroy(&ad->W));
  PetscCall(VecDuplicate(free, &ad->Y));
  PetscCall(VecDuplicate(free, &ad->W));
  ad->free = free;
  PetscCall(VecSum(free, &ad->p));
  ad->p = PetscMax(ad->p, 1);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaAdaptStart(FlxAlphaAdapt *ad, Vec x0)
{
  PetscFunctionBegin;
  if (!ad->on) PetscFunctionReturn(0);
  ad->nacc = ad->nrej = ad->nfail = 0;
  ad->rmax                        = 0;
  ad->hmin                        = PETSC_MAX_REAL;
  ad->hmax                        = 0;
  PetscCall(VecSet(ad->Y, 1.0));
  PetscCall(VecCopy(x0, ad->W));
  PetscCall(VecAbs(ad->W));
  PetscCall(VecPointwiseMax(ad->Y, ad->Y, ad->W));
  PetscFunctionReturn(0);
}

PetscReal FlxAlphaAdaptThreshold(const FlxAlphaAdapt *ad, PetscReal h)
{
  return ad->type == ALPHA_ADAPT_STEP ? ad->rtol : ad->safety * ad->rtol * h / ad->span;
}

PetscErrorCode FlxAlphaAdaptNorm(FlxAlphaAdapt *ad, Vec v, PetscReal *nrm)
{
  PetscFunctionBegin;
  PetscCall(VecPointwiseDivide(ad->W, v, ad->Y));
  PetscCall(VecPointwiseMult(ad->W, ad->W, ad->free)); /* p: the free DOFs (a moving support's are its motion's) */
  PetscCall(VecNorm(ad->W, NORM_2, nrm));
  *nrm /= PetscSqrtReal(ad->p);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaAdaptRatio(FlxAlphaAdapt *ad, PetscReal h, Vec da, Vec x1, PetscReal *ratio)
{
  PetscReal e;

  PetscFunctionBegin;
  PetscCall(VecCopy(x1, ad->W));
  PetscCall(VecAbs(ad->W));
  PetscCall(VecPointwiseMax(ad->Y, ad->Y, ad->W));
  PetscCall(FlxAlphaAdaptNorm(ad, da, &e));
  e *= PetscAbsReal(ad->coef) * h * h;
  *ratio = e / FlxAlphaAdaptThreshold(ad, h);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaAdaptNext(FlxAlphaAdapt *ad, PetscReal h, PetscBool converged, PetscReal r, PetscBool *accept, PetscReal *hnext)
{
  const PetscReal p = ad->type == ALPHA_ADAPT_STEP ? 1.0 / 3 : 0.5;

  PetscFunctionBegin;
  *accept = (PetscBool)(converged && r <= 1);
  if (!converged) {
    ad->nrej++;
    ad->nfail++;
    *hnext = h / 4;
  } else if (!*accept) {
    ad->nrej++;
    *hnext = h * PetscMax(0.1, PetscMin(0.9, 0.9 * PetscPowReal(r, -p)));
  } else {
    ad->nacc++;
    ad->rmax = PetscMax(ad->rmax, r);
    ad->hmin = PetscMin(ad->hmin, h);
    ad->hmax = PetscMax(ad->hmax, h);
    *hnext   = r > 0 ? h * PetscMin(2.0, 0.9 * PetscPowReal(r, -p)) : 2 * h;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaAdaptView(const FlxAlphaAdapt *ad, PetscViewer viewer)
{
  PetscFunctionBegin;
  if (!ad->on) PetscFunctionReturn(0);
  if (ad->type == ALPHA_ADAPT_STEP)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  error control (seed 001 section 4, per step): e = |(beta - 1/6) h^2 (a*_{n+1} - a*_n)|_WRMS <= -ts_alpha_adapt_rtol %g; h_new = 0.9 h (eps/e)^(1/3)\n", (double)ad->rtol));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "  error control (per unit step, seed 001's estimate): e = |(beta - 1/6) h^2 (a*_{n+1} - a*_n)|_WRMS <= %g eps h / %g s, eps = -ts_alpha_adapt_rtol %g (the global error at t_end proportional to eps); h_new = 0.9 h (threshold/e)^(1/2)\n", (double)ad->safety, (double)ad->span, (double)ad->rtol));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaAdaptReport(const FlxAlphaAdapt *ad, PetscViewer viewer)
{
  PetscFunctionBegin;
  if (!ad->on) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPrintf(viewer, "error control (%s, -ts_alpha_adapt_rtol %g): %" PetscInt_FMT " accepted steps, %" PetscInt_FMT " rejected (%" PetscInt_FMT " by Newton); steps %.3e .. %.3e s; largest accepted error estimate %.3f of its threshold\n", ad->type == ALPHA_ADAPT_STEP ? "per step" : "per unit step", (double)ad->rtol, ad->nacc, ad->nrej, ad->nfail, (double)(ad->nacc ? ad->hmin : 0), (double)ad->hmax, (double)ad->rmax));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaAdaptReset(FlxAlphaAdapt *ad)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&ad->Y));
  PetscCall(VecDestroy(&ad->W));
  PetscFunctionReturn(0);
}
