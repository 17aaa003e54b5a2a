/* The gcd stepper's conditionally explicit solve for a_n (time-integration.md 1, "One solve shape for all degrees";
   seed paper 000 section 2 and eqs. 77-78): with stiffness-proportional damping or velocity-dependent forces,
   M a_n + f_int(x_n, w + c h a_n) = f_ext(t_n) by KSP on (1 + a_M c h) M + c h C (linear), Newton on the
   matrix-free Jacobian (nonlinear) or fixed-point iteration, converged on x_{n+1} and v_n. */
#include "gcdimpl.h"

/* Convergence of the iterations for a_n, from dx = max |change of a| (dxold: the previous one, dx1: the
   first): x_{n+1} (the paper's test) and the velocity v_n stop changing. On x_{n+1} alone a change of a of
   rtol |x| / (beta h^2) would pass, a velocity error of rtol |x| / h per step that grows as h shrinks. Both
   tests also pass once the change stops decreasing, i.e. the iteration has reached round-off: the velocity's
   round-off can be 1e-12 of |v| on a damped beam (v small against h a); x_{n+1} can cycle at 1.2e-14 of |x|
   (the cantilever example, b_K 1e-6, from rest). For x this is taken only within 100 rtol |x| and below the
   first change, so that a diverging iteration is never taken for a converged one. */
static PetscBool IterationConverged(FlxStepper_GCD *g, PetscReal h, PetscReal dx, PetscReal dxold, PetscReal dx1, PetscReal xn, PetscReal vn)
{
  PetscReal xlim = g->fp_rtol * PetscMax(xn, PETSC_SMALL), xch = FlxGCDDxDa(&g->p, h) * dx;
  PetscBool stalled = (PetscBool)(dx >= dxold);
  PetscBool xok     = (PetscBool)(xch <= xlim || (stalled && dx <= dx1 && xch <= 100 * xlim));
  PetscBool vok     = (PetscBool)(FlxGCDSolveCoefficient(&g->p) * h * dx <= g->fp_rtol * vn || stalled);
  return (PetscBool)(xok && vok);
}

static PetscErrorCode IterationCheck(FlxStepper ts, const char *what, PetscInt its, PetscReal tn, PetscReal dx, PetscReal xn, PetscReal vn)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;
  PetscReal       h = ts->dt;

  PetscFunctionBegin;
  PetscCheck(its <= g->fp_maxit, ts->comm, PETSC_ERR_NOT_CONVERGED, "the %s of the conditionally explicit step did not converge in %" PetscInt_FMT " iterations at t = %g s (last change of x_{n+1} %g, of v_n %g relative to -ts_gcd_fp_rtol %g): reduce -ts_dt, raise -ts_gcd_fp_rtol or -ts_gcd_fp_max_it%s", what, g->fp_maxit, (double)tn, (double)(FlxGCDDxDa(&g->p, h) * dx / PetscMax(xn, PETSC_SMALL)), (double)(FlxGCDSolveCoefficient(&g->p) * h * dx / PetscMax(vn, PETSC_SMALL)), (double)g->fp_rtol, g->solve != GCD_SOLVE_FIXED_POINT ? "" : g->linear ? ", or use -ts_gcd_solve ksp"
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                      : ", or use -ts_gcd_solve ksp (Newton)");
  PetscFunctionReturn(0);
}

/* Linear model: (M (1 + aM c h) + c h (bK K + C_d)) a = f_ext - K (x_n + bK w) - C_d w - aM M w, one KSP solve. */
static PetscErrorCode SolveLinear(FlxStepper ts, PetscReal tn, PetscInt *its)
{
  FlxStepper_GCD    *g = (FlxStepper_GCD *)ts->data;
  KSPConvergedReason reason;

  PetscFunctionBegin;
  PetscCall(FlxSystemComputeInternalForce(ts->sys, tn, g->X, g->Wv, g->Rhs)); /* K (x + bK w) + C_d w */
  PetscCall(VecAYPX(g->Rhs, -1.0, g->F));
  PetscCall(VecPointwiseMult(g->Vt, g->Mass, g->Wv));
  PetscCall(VecAXPY(g->Rhs, -g->aM, g->Vt));
  PetscCall(VecPointwiseMult(g->Rhs, g->Rhs, g->Free)); /* prescribed DOFs: a = 0, or the motion's */
  PetscCall(FlxGCDMotionSet(ts, g->Rhs, 2));
  PetscCall(VecCopy(g->A, g->Anew));
  PetscCall(FlxGCDMotionSet(ts, g->Anew, 2)); /* exact on the moving rows from the start: CG stays on the free ones */
  PetscCall(KSPSolve(g->ksp, g->Rhs, g->Anew));
  PetscCall(KSPGetConvergedReason(g->ksp, &reason));
  PetscCall(KSPGetIterationNumber(g->ksp, its));
  PetscCheck(reason > 0, ts->comm, PETSC_ERR_NOT_CONVERGED, "the conditionally explicit solve (M + c h C) a = r diverged at t = %g s (%s)", (double)tn, KSPConvergedReasons[reason]);
  PetscFunctionReturn(0);
}

/* Nonlinear model, Newton (the paper's linearization, eqs. 77-78): G(a) = M a + aM M v + f_int(x_n, v) - f_ext
   with v = w + c h a; each correction solves G'(a) da = -G(a) by KSP on the matrix-free Jacobian (ShellMult). */
static PetscErrorCode SolveNewton(FlxStepper ts, PetscReal tn, PetscInt *its)
{
  FlxStepper_GCD    *g  = (FlxStepper_GCD *)ts->data;
  PetscReal          ch = FlxGCDSolveCoefficient(&g->p) * ts->dt, dx = 0, dxold = PETSC_MAX_REAL, dx1 = 0, xn, vn = 0;
  ShellCtx          *sc;
  KSPConvergedReason reason;
  PetscInt           kits;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(g->Aop, &sc));
  sc->x = g->X;
  sc->t = tn;
  PetscCall(VecCopy(g->A, g->Anew));
  PetscCall(FlxGCDMotionSet(ts, g->Anew, 2));
  PetscCall(VecNorm(g->X, NORM_INFINITY, &xn));
  for (*its = 1; *its <= g->fp_maxit; (*its)++) {
    PetscCall(VecWAXPY(sc->vb, ch, g->Anew, g->Wv)); /* v = w + c h a */
    PetscCall(VecNorm(sc->vb, NORM_2, &sc->nvb));
    PetscCall(FlxSystemComputeInternalForce(ts->sys, tn, g->X, sc->vb, sc->fb));
    PetscCall(VecWAXPY(g->Vt, g->aM, sc->vb, g->Anew));
    PetscCall(VecPointwiseMult(g->Vt, g->Vt, g->Mass)); /* M (a + aM v) */
    if (g->tensor) {                                    /* J (a + aM v) + v x J v on the tensor nodes, and the operator's blocks */
      PetscCall(FlxSystemComputeInertiaForce(ts->sys, g->X, sc->vb, g->Anew, g->Vt));
      PetscCall(FlxSystemComputeInertiaTangent(ts->sys, g->X, sc->vb, sc->vb, g->tn.blk));
    }
    PetscCall(VecWAXPY(g->Rhs, -1.0, sc->fb, g->F));
    PetscCall(VecAXPY(g->Rhs, -1.0, g->Vt));
    PetscCall(VecPointwiseMult(g->Rhs, g->Rhs, g->Free)); /* -G(a); prescribed DOFs: a = 0 */
    PetscCall(VecZeroEntries(g->Vt));
    PetscCall(KSPSolve(g->ksp, g->Rhs, g->Vt));
    PetscCall(KSPGetConvergedReason(g->ksp, &reason));
    PetscCheck(reason > 0, ts->comm, PETSC_ERR_NOT_CONVERGED, "the Newton correction of the conditionally explicit step diverged at t = %g s (%s)", (double)tn, KSPConvergedReasons[reason]);
    PetscCall(KSPGetIterationNumber(g->ksp, &kits));
    g->kits_total += kits;
    PetscCall(VecAXPY(g->Anew, 1.0, g->Vt));
    PetscCall(VecNormBegin(g->Vt, NORM_INFINITY, &dx));
    PetscCall(VecNormBegin(sc->vb, NORM_INFINITY, &vn));
    PetscCall(VecNormEnd(g->Vt, NORM_INFINITY, &dx));
    PetscCall(VecNormEnd(sc->vb, NORM_INFINITY, &vn));
    if (*its == 1) dx1 = dx;
    if (IterationConverged(g, ts->dt, dx, dxold, dx1, xn, vn)) break;
    dxold = dx;
  }
  PetscCall(IterationCheck(ts, "Newton iteration", *its, tn, dx, xn, vn));
  PetscFunctionReturn(0);
}

/* Fixed point: a <- ((f_ext - f_int(x_n, w + c h a)) / m - aM w) / (1 + aM c h), until x_{n+1} and v_n stop changing. */
static PetscErrorCode SolveFixedPoint(FlxStepper ts, PetscReal tn, PetscInt *its)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;
  PetscReal       c = FlxGCDSolveCoefficient(&g->p), h = ts->dt, den = 1 / (1 + g->aM * c * h);
  PetscReal       dx = 0, dxold = PETSC_MAX_REAL, dx1 = 0, xn, vn = 0;

  PetscFunctionBegin;
  PetscCall(VecCopy(g->A, g->Anew));
  PetscCall(FlxGCDMotionSet(ts, g->Anew, 2));
  PetscCall(VecNorm(g->X, NORM_INFINITY, &xn));
  for (*its = 1; *its <= g->fp_maxit; (*its)++) {
    PetscCall(VecWAXPY(g->Vt, c * h, g->Anew, g->Wv)); /* v = w + c h a */
    PetscCall(FlxSystemComputeInternalForce(ts->sys, tn, g->X, g->Vt, g->Rhs));
    PetscCall(VecAYPX(g->Rhs, -1.0, g->F));
    if (g->tensor) PetscCall(VecCopy(g->Rhs, g->Rt));
    PetscCall(VecPointwiseMult(g->Rhs, g->Rhs, g->Minv));
    PetscCall(VecAXPY(g->Rhs, -g->aM, g->Wv));
    PetscCall(VecScale(g->Rhs, den));                                                            /* new a */
    if (g->tensor) PetscCall(FlxSystemSolveInertia(ts->sys, g->X, g->Wv, c * h, g->Rt, g->Rhs)); /* the tensor nodes' a, gyroscopic term solved exactly */
    PetscCall(FlxGCDMotionSet(ts, g->Rhs, 2));
    PetscCall(VecAXPY(g->Anew, -1.0, g->Rhs)); /* old - new */
    PetscCall(VecNormBegin(g->Anew, NORM_INFINITY, &dx));
    PetscCall(VecNormBegin(g->Vt, NORM_INFINITY, &vn));
    PetscCall(VecNormEnd(g->Anew, NORM_INFINITY, &dx));
    PetscCall(VecNormEnd(g->Vt, NORM_INFINITY, &vn));
    PetscCall(VecCopy(g->Rhs, g->Anew));
    if (*its == 1) dx1 = dx;
    if (IterationConverged(g, h, dx, dxold, dx1, xn, vn)) break;
    dxold = dx;
  }
  PetscCall(IterationCheck(ts, "fixed-point iteration", *its, tn, dx, xn, vn));
  PetscFunctionReturn(0);
}

/* Conditionally explicit solve for a_n: M a + f_int(x_n, w + c h a) = f_ext, with mass-proportional damping
   aM M (w + c h a) (time-integration.md 1, "One solve shape"). */
PetscErrorCode FlxGCDSolveAcceleration(FlxStepper ts, PetscReal tn, PetscInt *its)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;

  PetscFunctionBegin;
  PetscCall(FlxGCDPredictW(ts));
  PetscCall(FlxGCDMotionSet(ts, g->Wv, 1));
  if (g->solve == GCD_SOLVE_FIXED_POINT)
    PetscCall(SolveFixedPoint(ts, tn, its));
  else if (g->linear)
    PetscCall(SolveLinear(ts, tn, its));
  else
    PetscCall(SolveNewton(ts, tn, its));
  PetscFunctionReturn(0);
}

static PetscErrorCode ShellMult(Mat A, Vec x, Vec y)
{
  ShellCtx *sc;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &sc));
  if (sc->nonlinear) {                                             /* c h df_int/dv x ~ c h (f_int(x_b, v_b + e x) - f_int(x_b, v_b)) / e */
    PetscReal nx, h0 = PETSC_SQRT_MACHINE_EPSILON * (1 + sc->nvb); /* the size of the velocity perturbation, whatever |x| */
    PetscCall(VecNorm(x, NORM_2, &nx));
    if (nx > 0) {
      PetscCall(VecWAXPY(sc->vt, h0 / nx, x, sc->vb));
      PetscCall(FlxSystemComputeInternalForce(sc->sys, sc->t, sc->x, sc->vt, y));
      PetscCall(VecAXPY(y, -1.0, sc->fb));
      PetscCall(VecScale(y, sc->s * nx / h0));
    } else
      PetscCall(VecZeroEntries(y));
  } else {
    PetscCall(FlxSystemComputeDampingForce(sc->sys, x, y)); /* (b_K K + C_d) x */
    PetscCall(VecScale(y, sc->s));
  }
  PetscCall(VecPointwiseMult(y, y, sc->free));
  {
    PetscScalar       *ya;
    const PetscScalar *xa, *da, *fa;
    PetscInt           n;
    PetscCall(VecGetLocalSize(y, &n));
    PetscCall(VecGetArray(y, &ya));
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecGetArrayRead(sc->d, &da));
    PetscCall(VecGetArrayRead(sc->free, &fa));
    for (PetscInt i = 0; i < n; i++)
      ya[i] = fa[i] > 0 ? ya[i] + da[i] * xa[i] : xa[i];
    if (sc->tn && sc->tn->n) FlxGCDTensorsMult(sc->tn, sc->aM, sc->s, da, xa, ya); /* the tensor nodes' blocks replace d */
    PetscCall(VecRestoreArrayRead(sc->free, &fa));
    PetscCall(VecRestoreArrayRead(sc->d, &da));
    PetscCall(VecRestoreArrayRead(x, &xa));
    PetscCall(VecRestoreArray(y, &ya));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ShellGetDiagonal(Mat A, Vec d)
{
  ShellCtx *sc;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &sc));
  PetscCall(VecCopy(sc->diag, d));
  PetscFunctionReturn(0);
}

static PetscErrorCode ShellDestroy(Mat A)
{
  ShellCtx *sc;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &sc));
  PetscCall(VecDestroy(&sc->d));
  PetscCall(VecDestroy(&sc->diag));
  PetscCall(VecDestroy(&sc->vb));
  PetscCall(VecDestroy(&sc->fb));
  PetscCall(VecDestroy(&sc->vt));
  PetscCall(PetscFree(sc));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxGCDSetUpKSP(FlxStepper ts)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;
  PetscReal       c = FlxGCDSolveCoefficient(&g->p), h = ts->dt;
  ShellCtx       *sc;
  PetscInt        n, N;
  PetscBool       linear = g->linear;

  PetscFunctionBegin;
  PetscCall(MatDestroy(&g->Aop));
  PetscCall(PetscNew(&sc));
  sc->sys       = ts->sys;
  sc->nonlinear = (PetscBool)!linear;
  sc->s         = c * h;
  sc->free      = g->Free;
  sc->zero      = g->Zero;
  sc->tn        = g->tensor ? &g->tn : NULL;
  sc->aM        = g->aM;
  PetscCall(VecDuplicate(g->Mass, &sc->d));
  PetscCall(VecDuplicate(g->Mass, &sc->diag));
  PetscCall(VecCopy(g->Mass, sc->d));
  PetscCall(VecScale(sc->d, 1 + g->aM * c * h));
  if (linear) { /* s (bK K_ii + Cd_ii) + d_i on free DOFs, 1 on prescribed ones; K's diagonal without assembling K */
    PetscCall(VecZeroEntries(sc->diag));
    if (g->bK != 0) {
      PetscCall(FlxSystemGetStiffnessDiagonal(ts->sys, sc->diag));
      PetscCall(VecScale(sc->diag, g->bK));
    }
    if (g->Cd) {
      PetscCall(MatGetDiagonal(g->Cd, g->Vt));
      PetscCall(VecAXPY(sc->diag, 1.0, g->Vt));
    }
    PetscCall(VecAXPBY(sc->diag, 1.0, sc->s, sc->d));
  } else { /* Newton: the mass part d_i (Jacobi on M); base point (x_0, v_0) until the first step sets it */
    PetscCall(VecCopy(sc->d, sc->diag));
    PetscCall(VecDuplicate(g->Mass, &sc->vb));
    PetscCall(VecDuplicate(g->Mass, &sc->fb));
    PetscCall(VecDuplicate(g->Mass, &sc->vt));
    sc->x = g->X;
    sc->t = ts->t0;
    PetscCall(VecCopy(g->V, sc->vb));
    PetscCall(VecNorm(sc->vb, NORM_2, &sc->nvb));
    PetscCall(FlxSystemComputeInternalForce(ts->sys, sc->t, sc->x, sc->vb, sc->fb));
  }
  PetscCall(VecPointwiseMult(sc->diag, sc->diag, g->Free));
  PetscCall(VecAXPY(sc->diag, -1.0, g->Free));
  PetscCall(VecShift(sc->diag, 1.0));
  PetscCall(VecGetLocalSize(g->Mass, &n));
  PetscCall(VecGetSize(g->Mass, &N));
  PetscCall(MatCreateShell(ts->comm, n, n, N, N, sc, &g->Aop));
  PetscCall(MatShellSetOperation(g->Aop, MATOP_MULT, (void (*)(void))ShellMult));
  PetscCall(MatShellSetOperation(g->Aop, MATOP_GET_DIAGONAL, (void (*)(void))ShellGetDiagonal));
  PetscCall(MatShellSetOperation(g->Aop, MATOP_DESTROY, (void (*)(void))ShellDestroy));
  PetscCall(MatSetOption(g->Aop, MAT_SYMMETRIC, linear)); /* gyroscopic df_int/dv is not symmetric */
  PetscCall(KSPSetOperators(g->ksp, g->Aop, g->Aop));
  PetscCall(KSPSetUp(g->ksp));
  PetscFunctionReturn(0);
}
