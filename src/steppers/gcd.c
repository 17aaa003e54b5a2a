/* Generalized central differences (GCD) of degree 3, 4 and 5 (seed paper 000; time-integration.md 1).
   One implementation for the three degrees, following the common solve shape

       v_n = vhat + c h (a_n - ahat),   M a_n + f_int(x_n, v_n) = f_ext(t_n),

   and one fused pass over memory per step: given f_int(x_n) (one MatMult for a linear model) and
   f_ext(t_n), a single loop computes a_n, the highest derivative, v_n, x_{n+1}, and the local sums of
   the energy ledger. The same kernel, applied to unit history vectors, builds the amplification matrix
   for the stability analysis (stability.c), so the analysis is of the code that runs. */
#include <flexure/private/stepperimpl.h>
#include "gcd.h"

typedef enum {
  GCD_SOLVE_AUTO,
  GCD_SOLVE_EXPLICIT,
  GCD_SOLVE_KSP,
  GCD_SOLVE_FIXED_POINT
} GCDSolve;
static const char *const GCDSolves[] = {"auto", "explicit", "ksp", "fixed_point", "GCDSolve", "GCD_SOLVE_", NULL};
typedef enum {
  GCD_STARTUP_EXACT,
  GCD_STARTUP_ZERO
} GCDStartup;
static const char *const GCDStartups[] = {"exact", "zero", "GCDStartup", "GCD_STARTUP_", NULL};
static PetscErrorCode    SetUpKSP(FlxStepper);

typedef struct {
  FlxGCDParams p;
  char         preset[64];
  Vec          X, V, A, J, S, D, G, F, Minv, W, Mass;
  PetscReal    aM, bK;
  GCDStartup   startup_type;
  const char  *startup;
  /* conditionally explicit solve (stiffness-proportional damping, velocity-dependent forces) */
  GCDSolve  solve, solve_user; /* in use (chosen at set-up); as asked (-ts_gcd_solve) */
  PetscBool linear;            /* the system is linear (ksp: one solve), or not (ksp: Newton) */
  Vec       Wv, Rhs, Anew, Zero, Free, Vt;
  Mat       Aop; /* shell: (1 + aM c h) M + c h (bK K + C_d), or the Newton Jacobian (ShellCtx) */
  Mat       Cd;  /* the system's damping matrix (borrowed; NULL: none) */
  KSP       ksp;
  PetscReal fp_rtol;
  PetscInt  fp_maxit, its_total, its_max, nsolves, kits_total; /* kits: Krylov iterations of Newton */
  /* prescribed motion of the moving DOFs (non-homogeneous boundary conditions) */
  PetscInt        nmov;
  const PetscInt *mov;
  PetscBool       hasmov;
  PetscReal      *mval, *msave; /* motion at t_n: 5 x nmov (x, v, a, j, s); x_n, x_n - x_{n-1}, f_int(x_n) of each */
  /* finite rotations (a system with a configuration update; gcdrotation.c) */
  PetscBool finite, magnus; /* the system composes rotations; Magnus-corrected increments (else component-wise) */
  PetscBool energy;         /* the system has a strain energy: the ledger's strain term from it */
  Vec       Xo;             /* x_n while the kernel writes x_{n+1} */
} FlxStepper_GCD;

/* Operator of the conditionally explicit solve, identity on prescribed DOFs. Linear model: (1 + aM c h) M +
   c h (bK K + C_d), a shell over the system's own (deterministic) damping product: no copy of K, and the same
   sums at any rank count. Nonlinear model: the Newton Jacobian (1 + aM c h) M + c h df_int/dv at (x, vb), with the
   velocity derivative as a directional difference of f_int (matrix-free, so the stepper needs no C). */
typedef struct {
  FlxSystem sys;
  PetscBool nonlinear;
  PetscReal s, t, nvb;           /* c h; time of the Newton base point, |vb|_2 */
  Vec       d, free, zero, diag; /* (1 + aM c h) m; mask; zeros; diagonal of the operator */
  Vec       x, vb, fb, vt;       /* nonlinear: base point x (borrowed), v and f_int(x, v) there; scratch */
} ShellCtx;

PetscErrorCode FlxStepperGCDGetParameters(FlxStepper ts, PetscInt *degree, PetscReal params[4], const char **preset)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;
  PetscBool       isgcd;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(ts->type, FLXSTEPPERGCD, &isgcd));
  PetscCheck(isgcd, ts->comm, PETSC_ERR_ARG_WRONG, "stepper type %s is not gcd", ts->type);
  *degree   = g->p.degree;
  params[0] = g->p.alpha;
  params[1] = g->p.beta;
  params[2] = g->p.gamma;
  params[3] = g->p.zeta;
  if (preset) *preset = g->preset;
  PetscFunctionReturn(0);
}

/* Run the fused kernel on the vectors; Ag (a_n) NULL for the explicit solve. */
static PetscErrorCode RunKernel(FlxStepper ts, Vec Ag)
{
  FlxStepper_GCD    *g = (FlxStepper_GCD *)ts->data;
  PetscInt           n;
  const PetscScalar *F, *G, *Mi, *Aa = NULL;
  PetscScalar       *X, *V, *A, *J = NULL, *S = NULL, *D;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(g->X, &n));
  PetscCall(VecGetArrayRead(g->F, &F));
  PetscCall(VecGetArrayRead(g->G, &G));
  PetscCall(VecGetArrayRead(g->Minv, &Mi));
  if (Ag) PetscCall(VecGetArrayRead(Ag, &Aa));
  PetscCall(VecGetArray(g->X, &X));
  PetscCall(VecGetArray(g->V, &V));
  PetscCall(VecGetArray(g->A, &A));
  PetscCall(VecGetArray(g->D, &D));
  if (g->J) PetscCall(VecGetArray(g->J, &J));
  if (g->S) PetscCall(VecGetArray(g->S, &S));
  FlxGCDKernel(&g->p, n, ts->dt, g->aM, F, G, Mi, Aa, X, V, A, J, S, D, ts->lsum);
  if (g->S) PetscCall(VecRestoreArray(g->S, &S));
  if (g->J) PetscCall(VecRestoreArray(g->J, &J));
  PetscCall(VecRestoreArray(g->D, &D));
  PetscCall(VecRestoreArray(g->A, &A));
  PetscCall(VecRestoreArray(g->V, &V));
  PetscCall(VecRestoreArray(g->X, &X));
  if (Ag) PetscCall(VecRestoreArrayRead(Ag, &Aa));
  PetscCall(VecRestoreArrayRead(g->Minv, &Mi));
  PetscCall(VecRestoreArrayRead(g->G, &G));
  PetscCall(VecRestoreArrayRead(g->F, &F));
  PetscCall(PetscLogFlops(30.0 * n));
  PetscFunctionReturn(0);
}

/* w = vhat - c h ahat into g->Wv */
static PetscErrorCode Predict(FlxStepper ts)
{
  FlxStepper_GCD    *g = (FlxStepper_GCD *)ts->data;
  PetscInt           n;
  const PetscScalar *V, *A, *J = NULL, *S = NULL;
  PetscScalar       *W;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(g->X, &n));
  PetscCall(VecGetArrayRead(g->V, &V));
  PetscCall(VecGetArrayRead(g->A, &A));
  if (g->J) PetscCall(VecGetArrayRead(g->J, &J));
  if (g->S) PetscCall(VecGetArrayRead(g->S, &S));
  PetscCall(VecGetArrayWrite(g->Wv, &W));
  FlxGCDPredict(&g->p, n, ts->dt, V, A, J, S, W);
  PetscCall(VecRestoreArrayWrite(g->Wv, &W));
  if (g->S) PetscCall(VecRestoreArrayRead(g->S, &S));
  if (g->J) PetscCall(VecRestoreArrayRead(g->J, &J));
  PetscCall(VecRestoreArrayRead(g->A, &A));
  PetscCall(VecRestoreArrayRead(g->V, &V));
  PetscFunctionReturn(0);
}

/* dx_{n+1}/da_n of the update, to measure the convergence of the iterations for a_n on x_{n+1} (paper section 8) */
static PetscReal DxDa(const FlxGCDParams *p, PetscReal h)
{
  PetscReal c = FlxGCDSolveCoefficient(p);
  if (p->degree == 3) return h * h * (c + p->alpha / 2);
  if (p->degree == 4) return h * h * (c + 0.5 + p->alpha / (6 * p->gamma));
  return h * h * (c + 0.5 + p->zeta / (3 * p->gamma) + p->alpha / (12 * p->gamma));
}

/* Prescribed motion (time-integration.md 1: "Dirichlet DOFs never enter the update"). The kernel runs over every
   DOF; around it, the moving DOFs take x_{n+1}, v_n, a_n, j_n, s_n from their motion, and their ledger terms
   are replaced: no kinetic or external-load term (the support carries them), and the work of the support on
   the structure, f_int(x_n) . (x_{n+1} - x_{n-1}) / 2, as external work. */
static PetscErrorCode MotionBefore(FlxStepper ts)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;
  PetscScalar    *X, *D, *G, *F;

  PetscFunctionBegin;
  if (!g->nmov) PetscFunctionReturn(0);
  PetscCall(VecGetArray(g->X, &X));
  PetscCall(VecGetArray(g->D, &D));
  PetscCall(VecGetArray(g->G, &G));
  PetscCall(VecGetArray(g->F, &F));
  for (PetscInt k = 0; k < g->nmov; k++) {
    PetscInt i          = g->mov[k];
    g->msave[3 * k]     = X[i];
    g->msave[3 * k + 1] = D[i];
    g->msave[3 * k + 2] = G[i];
    G[i] = F[i] = 0; /* the kernel adds nothing to the ledger for them */
  }
  PetscCall(VecRestoreArray(g->F, &F));
  PetscCall(VecRestoreArray(g->G, &G));
  PetscCall(VecRestoreArray(g->D, &D));
  PetscCall(VecRestoreArray(g->X, &X));
  PetscFunctionReturn(0);
}

static PetscErrorCode MotionAfter(FlxStepper ts, PetscReal tn)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;
  PetscScalar    *X, *D, *G, *H[4] = {NULL, NULL, NULL, NULL};
  Vec             hist[4] = {g->V, g->A, g->J, g->S};
  PetscReal      *xn1     = g->mval + 4 * g->nmov; /* x at t_{n+1}, after the derivatives at t_n (row 4 is s_n: used before) */
  PetscInt        n       = g->nmov;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(0);
  for (int k = 1; k < g->p.degree; k++) {
    PetscCall(VecGetArray(hist[k - 1], &H[k - 1]));
    for (PetscInt j = 0; j < n; j++)
      H[k - 1][g->mov[j]] = g->mval[k * n + j];
    PetscCall(VecRestoreArray(hist[k - 1], &H[k - 1]));
  }
  PetscCall(FlxSystemComputePrescribedMotion(ts->sys, tn + ts->dt, 0, 0, xn1));
  PetscCall(VecGetArray(g->X, &X));
  PetscCall(VecGetArray(g->D, &D));
  PetscCall(VecGetArray(g->G, &G));
  for (PetscInt j = 0; j < n; j++) {
    PetscInt  i = g->mov[j];
    PetscReal x = g->msave[3 * j], dold = g->msave[3 * j + 1], gi = g->msave[3 * j + 2];
    X[i] = xn1[j];
    D[i] = xn1[j] - x;
    G[i] = gi;
    ts->lsum[1] += (xn1[j] + x - dold) * gi;
    ts->lsum[2] += (xn1[j] - x + dold) * gi;
  }
  PetscCall(VecRestoreArray(g->G, &G));
  PetscCall(VecRestoreArray(g->D, &D));
  PetscCall(VecRestoreArray(g->X, &X));
  PetscFunctionReturn(0);
}

/* Set the moving DOFs of a vector to row k of the motion at t_n (k = 1: v, 2: a), minus c h a_n for k = 1 (the
   velocity predictor w of the conditionally explicit solve, v_n = w + c h a_n). */
static PetscErrorCode MotionSet(FlxStepper ts, Vec y, PetscInt k)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;
  PetscScalar    *a;
  PetscReal       ch = FlxGCDSolveCoefficient(&g->p) * ts->dt;

  PetscFunctionBegin;
  if (!g->nmov) PetscFunctionReturn(0);
  PetscCall(VecGetArray(y, &a));
  for (PetscInt j = 0; j < g->nmov; j++)
    a[g->mov[j]] = g->mval[k * g->nmov + j] - (k == 1 ? ch * g->mval[2 * g->nmov + j] : 0);
  PetscCall(VecRestoreArray(y, &a));
  PetscFunctionReturn(0);
}

/* Convergence of the iterations for a_n, from dx = max |change of a| (dxold: the previous one, dx1: the
   first): x_{n+1} (the paper's test) and the velocity v_n stop changing. On x_{n+1} alone a change of a of
   rtol |x| / (beta h^2) would pass, a velocity error of rtol |x| / h per step that grows as h shrinks. Both
   tests also pass once the change stops decreasing, i.e. the iteration has reached round-off: the velocity's
   round-off can be 1e-12 of |v| on a damped beam (v small against h a); x_{n+1} can cycle at 1.2e-14 of |x|
   (the cantilever example, b_K 1e-6, from rest). For x this is taken only within 100 rtol |x| and below the
   first change, so that a diverging iteration is never taken for a converged one. */
static PetscBool IterationConverged(FlxStepper_GCD *g, PetscReal h, PetscReal dx, PetscReal dxold, PetscReal dx1, PetscReal xn, PetscReal vn)
{
  PetscReal xlim = g->fp_rtol * PetscMax(xn, PETSC_SMALL), xch = DxDa(&g->p, h) * dx;
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
  PetscCheck(its <= g->fp_maxit, ts->comm, PETSC_ERR_NOT_CONVERGED, "the %s of the conditionally explicit step did not converge in %" PetscInt_FMT " iterations at t = %g s (last change of x_{n+1} %g, of v_n %g relative to -ts_gcd_fp_rtol %g): reduce -ts_dt, raise -ts_gcd_fp_rtol or -ts_gcd_fp_max_it%s", what, g->fp_maxit, (double)tn, (double)(DxDa(&g->p, h) * dx / PetscMax(xn, PETSC_SMALL)), (double)(FlxGCDSolveCoefficient(&g->p) * h * dx / PetscMax(vn, PETSC_SMALL)), (double)g->fp_rtol, g->solve != GCD_SOLVE_FIXED_POINT ? "" : g->linear ? ", or use -ts_gcd_solve ksp"
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
  PetscCall(MotionSet(ts, g->Rhs, 2));
  PetscCall(VecCopy(g->A, g->Anew));
  PetscCall(MotionSet(ts, g->Anew, 2)); /* exact on the moving rows from the start: CG stays on the free ones */
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
  PetscCall(MotionSet(ts, g->Anew, 2));
  PetscCall(VecNorm(g->X, NORM_INFINITY, &xn));
  for (*its = 1; *its <= g->fp_maxit; (*its)++) {
    PetscCall(VecWAXPY(sc->vb, ch, g->Anew, g->Wv)); /* v = w + c h a */
    PetscCall(VecNorm(sc->vb, NORM_2, &sc->nvb));
    PetscCall(FlxSystemComputeInternalForce(ts->sys, tn, g->X, sc->vb, sc->fb));
    PetscCall(VecWAXPY(g->Vt, g->aM, sc->vb, g->Anew));
    PetscCall(VecPointwiseMult(g->Vt, g->Vt, g->Mass)); /* M (a + aM v) */
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
  PetscCall(MotionSet(ts, g->Anew, 2));
  PetscCall(VecNorm(g->X, NORM_INFINITY, &xn));
  for (*its = 1; *its <= g->fp_maxit; (*its)++) {
    PetscCall(VecWAXPY(g->Vt, c * h, g->Anew, g->Wv)); /* v = w + c h a */
    PetscCall(FlxSystemComputeInternalForce(ts->sys, tn, g->X, g->Vt, g->Rhs));
    PetscCall(VecAYPX(g->Rhs, -1.0, g->F));
    PetscCall(VecPointwiseMult(g->Rhs, g->Rhs, g->Minv));
    PetscCall(VecAXPY(g->Rhs, -g->aM, g->Wv));
    PetscCall(VecScale(g->Rhs, den)); /* new a */
    PetscCall(MotionSet(ts, g->Rhs, 2));
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
static PetscErrorCode SolveAcceleration(FlxStepper ts, PetscReal tn, PetscInt *its)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;

  PetscFunctionBegin;
  PetscCall(Predict(ts));
  PetscCall(MotionSet(ts, g->Wv, 1));
  if (g->solve == GCD_SOLVE_FIXED_POINT)
    PetscCall(SolveFixedPoint(ts, tn, its));
  else if (g->linear)
    PetscCall(SolveLinear(ts, tn, its));
  else
    PetscCall(SolveNewton(ts, tn, its));
  PetscFunctionReturn(0);
}

/* Nonlinear system with a strain energy: the ledger's strain term at x is 4 U(x) (the kernel's sum is
   (x_{n+1} + x_{n-1}) f_int(x_n), which is 4 U for a linear force only), on rank 0 (the rows are summed). */
static PetscErrorCode LedgerStrain(FlxStepper ts, Vec x)
{
  PetscReal U;

  PetscFunctionBegin;
  PetscCall(FlxSystemComputeStrainEnergy(ts->sys, x, &U, NULL));
  ts->lsum[1] = ts->rank ? 0 : 4 * U;
  PetscFunctionReturn(0);
}

/* Finite rotations: x_{n+1} = x_n (+) D with D's rotational part made the spatial rotation increment (the
   kernel added it component-wise), then the ledger's strain energy at x_n when this step is recorded. */
static PetscErrorCode FiniteRotationStep(FlxStepper ts)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;

  PetscFunctionBegin;
  PetscCall(FlxGCDComposeIncrement(ts->sys, g->magnus, ts->dt, g->V, g->A, g->J, g->D, g->Xo, g->X));
  if (g->energy && FlxStepperIsHistoryStep(ts, ts->step + 1)) PetscCall(LedgerStrain(ts, g->Xo));
  PetscFunctionReturn(0);
}

static PetscErrorCode GCDStep(FlxStepper ts)
{
  FlxStepper_GCD *g  = (FlxStepper_GCD *)ts->data;
  PetscReal       tn = ts->t0 + (ts->step + 1) * ts->dt;

  PetscFunctionBegin;
  if (g->finite) PetscCall(VecCopy(g->X, g->Xo));
  PetscCall(FlxSystemComputeExternalForce(ts->sys, tn, g->F));
  if (g->nmov) PetscCall(FlxSystemComputePrescribedMotion(ts->sys, tn, 0, g->p.degree - 1, g->mval)); /* x, v, a, j, s at t_n */
  if (g->solve == GCD_SOLVE_EXPLICIT) {
    PetscCall(FlxSystemComputeInternalForce(ts->sys, tn, g->X, g->V, g->G));
    PetscCall(MotionBefore(ts));
    PetscCall(RunKernel(ts, NULL));
  } else {
    PetscInt its = 0;
    PetscCall(SolveAcceleration(ts, tn, &its));
    PetscCall(FlxSystemComputeInternalForce(ts->sys, tn, g->X, g->Zero, g->G)); /* elastic force, for the ledger */
    g->its_total += its;
    g->its_max = PetscMax(g->its_max, its);
    g->nsolves++;
    PetscCall(MotionBefore(ts));
    PetscCall(RunKernel(ts, g->Anew));
  }
  if (g->finite) PetscCall(FiniteRotationStep(ts));
  PetscCall(MotionAfter(ts, tn));
  PetscFunctionReturn(0);
}

/* a = M^-1 (f - f_int(y, z)) - aM z, for the start-up derivatives (linear: f_int(v, a) = K v + C' a). */
static PetscErrorCode Derivative(FlxStepper ts, PetscReal t, Vec f, Vec y, Vec z, Vec out)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;

  PetscFunctionBegin;
  PetscCall(FlxSystemComputeInternalForce(ts->sys, t, y, z, g->G));
  PetscCall(VecAYPX(g->G, -1.0, f));
  PetscCall(VecPointwiseMult(out, g->G, g->Minv));
  PetscCall(VecAXPY(out, -g->aM, z));
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
static PetscErrorCode GCDStartUp(FlxStepper ts)
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
  if (g->solve == GCD_SOLVE_KSP) PetscCall(SetUpKSP(ts));
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
      s[1] += (x1[i] + x_1[i]) * G[i];
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
  if (g->energy) PetscCall(LedgerStrain(ts, g->X));
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

static PetscErrorCode GCDGetState(FlxStepper ts, Vec *x, Vec *v, Vec *a)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;

  PetscFunctionBegin;
  if (g->finite) /* rotations compose: x_n is kept */
    PetscCall(VecCopy(g->Xo, g->W));
  else
    PetscCall(VecWAXPY(g->W, -1.0, g->D, g->X)); /* x_n = x_{n+1} - (x_{n+1} - x_n) */
  if (x) *x = g->W;
  if (v) *v = g->V;
  if (a) *a = g->A;
  PetscFunctionReturn(0);
}

static PetscErrorCode GCDProbe(FlxStepper ts, PetscInt n, const PetscInt idx[], PetscReal out[])
{
  FlxStepper_GCD    *g = (FlxStepper_GCD *)ts->data;
  const PetscScalar *X, *D = NULL, *V, *A;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(g->finite ? g->Xo : g->X, &X)); /* finite rotations: x_n is kept */
  if (!g->finite) PetscCall(VecGetArrayRead(g->D, &D));
  PetscCall(VecGetArrayRead(g->V, &V));
  PetscCall(VecGetArrayRead(g->A, &A));
  for (PetscInt k = 0; k < n; k++) {
    PetscInt i     = idx[k];
    out[3 * k]     = i >= 0 ? X[i] - (D ? D[i] : 0) : 0;
    out[3 * k + 1] = i >= 0 ? V[i] : 0;
    out[3 * k + 2] = i >= 0 ? A[i] : 0;
  }
  PetscCall(VecRestoreArrayRead(g->A, &A));
  PetscCall(VecRestoreArrayRead(g->V, &V));
  if (!g->finite) PetscCall(VecRestoreArrayRead(g->D, &D));
  PetscCall(VecRestoreArrayRead(g->finite ? g->Xo : g->X, &X));
  PetscFunctionReturn(0);
}

/* Reactions at t_n: the state is x_n = X - D (X = x_{n+1}), v_n = V, a_n = A, f_ext(t_n) = F. */
static PetscErrorCode GCDReaction(FlxStepper ts, Vec R)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;

  PetscFunctionBegin;
  PetscCall(FlxSystemComputeReactions(ts->sys, g->finite ? g->Xo : g->X, g->finite ? NULL : g->D, g->V, g->A, g->F, R));
  PetscFunctionReturn(0);
}

static PetscErrorCode GCDSpectralRadius(FlxStepper ts, PetscReal Omega, PetscReal zeta, PetscReal *rho)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;

  PetscFunctionBegin;
  PetscCall(FlxGCDSpectralRadiusDamped(g->p.degree, &g->p.alpha, Omega, zeta, rho));
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

static PetscErrorCode SetUpKSP(FlxStepper ts)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;
  Mat             K;
  PetscReal       c = FlxGCDSolveCoefficient(&g->p), h = ts->dt;
  ShellCtx       *sc;
  PetscInt        n, N;
  PetscBool       linear = g->linear;

  PetscFunctionBegin;
  PetscCall(FlxSystemGetStiffness(ts->sys, &K));
  PetscCheck(K || !linear, ts->comm, PETSC_ERR_ARG_WRONGSTATE, "-ts_gcd_solve ksp on a linear system needs its assembled stiffness");
  PetscCall(MatDestroy(&g->Aop));
  PetscCall(PetscNew(&sc));
  sc->sys       = ts->sys;
  sc->nonlinear = (PetscBool)!linear;
  sc->s         = c * h;
  sc->free      = g->Free;
  sc->zero      = g->Zero;
  PetscCall(VecDuplicate(g->Mass, &sc->d));
  PetscCall(VecDuplicate(g->Mass, &sc->diag));
  PetscCall(VecCopy(g->Mass, sc->d));
  PetscCall(VecScale(sc->d, 1 + g->aM * c * h));
  if (linear) { /* s (bK K_ii + Cd_ii) + d_i on free DOFs, 1 on prescribed ones */
    PetscCall(MatGetDiagonal(K, sc->diag));
    PetscCall(VecScale(sc->diag, g->bK));
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

static PetscErrorCode GCDSetUp(FlxStepper ts)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;
  Vec             mass, free;
  PetscBool       linear, vdep;
  Vec            *vecs[] = {&g->X, &g->V, &g->A, &g->D, &g->G, &g->F, &g->Minv, &g->W};

  PetscFunctionBegin;
  { /* ==== constrained system (issue 16): the constrained step of gcddae.c takes over ==== */
    PetscBool cons;
    PetscCall(FlxDAECheckSupported(ts, PETSC_FALSE, &cons));
    if (cons) {
      PetscCall(FlxGCDDAESetUp(ts, &g->p, (PetscBool)(g->startup_type == GCD_STARTUP_EXACT)));
      PetscFunctionReturn(0);
    }
  }
  PetscCall(FlxSystemGetMass(ts->sys, &mass, &free));
  PetscCall(FlxSystemGetRayleigh(ts->sys, &g->aM, &g->bK));
  PetscCall(FlxSystemGetDampingMatrix(ts->sys, &g->Cd, NULL));
  PetscCall(FlxSystemIsLinear(ts->sys, &linear));
  g->Mass = mass;
  g->Free = free;
  PetscCall(FlxSystemIsVelocityDependent(ts->sys, &vdep));
  g->solve = g->solve_user;
  if (g->solve == GCD_SOLVE_AUTO) g->solve = !vdep ? GCD_SOLVE_EXPLICIT : (linear ? GCD_SOLVE_KSP : GCD_SOLVE_FIXED_POINT);
  PetscCheck(g->solve != GCD_SOLVE_EXPLICIT || !vdep, ts->comm, PETSC_ERR_USER_INPUT, "the internal force depends on the velocity (-damping_stiffness %g, discrete dampers or a velocity-dependent system): the GCD step is conditionally explicit, use -ts_gcd_solve ksp or fixed_point", (double)g->bK);
  PetscCheck(!(g->p.classic && g->solve != GCD_SOLVE_EXPLICIT), ts->comm, PETSC_ERR_USER_INPUT, "the classic central differences preset is explicit only (no stiffness-proportional damping)");
  for (size_t k = 0; k < sizeof(vecs) / sizeof(vecs[0]); k++)
    PetscCall(VecDuplicate(mass, vecs[k]));
  if (g->p.degree >= 4 || g->p.classic) PetscCall(VecDuplicate(mass, &g->J));
  if (g->p.degree >= 5) PetscCall(VecDuplicate(mass, &g->S));
  if (g->solve != GCD_SOLVE_EXPLICIT) {
    Vec *cv[] = {&g->Wv, &g->Rhs, &g->Anew, &g->Zero, &g->Vt};
    for (size_t k = 0; k < sizeof(cv) / sizeof(cv[0]); k++)
      PetscCall(VecDuplicate(mass, cv[k]));
    PetscCall(VecZeroEntries(g->Zero));
  }
  g->linear = linear;
  PetscCall(FlxSystemHasConfigurationUpdate(ts->sys, &g->finite));
  if (g->finite) {
    PetscInt n;
    PetscCall(VecGetLocalSize(mass, &n));
    PetscCheck(n % 6 == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "a system with finite rotations has 6 DOFs per node (translations, then rotations): %" PetscInt_FMT " local DOFs", n);
    PetscCheck(!g->p.classic, ts->comm, PETSC_ERR_USER_INPUT, "the classic central differences preset (cd_classic) differences displacements and cannot carry finite rotations: use gcd3 (the same method, reformulated)");
    PetscCall(VecDuplicate(mass, &g->Xo));
    PetscCall(FlxSystemHasStrainEnergy(ts->sys, &g->energy));
  }
  if (g->solve == GCD_SOLVE_KSP && !g->ksp) { /* created here so that its options are read before the run */
    PC pc;
    PetscCall(KSPCreate(ts->comm, &g->ksp));
    PetscCall(KSPSetOptionsPrefix(g->ksp, "ts_gcd_"));
    PetscCall(KSPSetType(g->ksp, linear ? KSPCG : KSPGMRES));
    PetscCall(KSPGetPC(g->ksp, &pc));
    PetscCall(PCSetType(pc, PCJACOBI));
    PetscCall(KSPSetTolerances(g->ksp, linear ? 1e-14 : 1e-10, 1e-300, PETSC_DEFAULT, 1000)); /* Newton corrections need not be exact */
    PetscCall(KSPSetInitialGuessNonzero(g->ksp, PETSC_TRUE));
    PetscCall(KSPSetFromOptions(g->ksp));
  }
  PetscCall(FlxSystemCheckMass(ts->sys, "the explicit GCD step"));
  PetscCall(VecPointwiseDivide(g->Minv, free, mass));
  PetscCall(FlxSystemGetPrescribedMotion(ts->sys, &g->nmov, &g->mov, &g->hasmov));
  PetscCall(PetscFree2(g->mval, g->msave));
  PetscCall(PetscMalloc2(5 * g->nmov + 1, &g->mval, 3 * g->nmov + 1, &g->msave));
  PetscCall(FlxGCDOmegaMax(g->p.degree, &g->p.alpha, &ts->Omega_max));
  if (g->p.degree < 4)
    g->startup = "a_0 from the equation of motion, x_1 by the Taylor step";
  else if (g->startup_type == GCD_STARTUP_ZERO)
    g->startup = "a_0 from the equation of motion, higher derivatives 0 (-ts_gcd_startup zero, as the paper's examples); x_1 by the Taylor step";
  else if (linear)
    g->startup = g->p.degree == 4 ? "a_0, j_0 exact from the equation of motion and its derivative; x_1 by the Taylor step" : "a_0, j_0, s_0 exact from the equation of motion and its derivatives (f_ext'' = 0); x_1 by the Taylor step";
  else
    g->startup = g->p.degree == 4 ? "a_0 from the equation of motion, j_0 its derivative along the solution (nonlinear system: five-point differences, step h/2); x_1 by the Taylor step" : "a_0 from the equation of motion, j_0 and s_0 its derivatives along the solution (nonlinear system: five-point differences, step h/2); x_1 by the Taylor step";
  PetscFunctionReturn(0);
}

static PetscErrorCode GCDDescribe(FlxStepper ts, char desc[], size_t len)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;
  char            par[128];

  PetscFunctionBegin;
  if (g->p.degree == 3)
    PetscCall(PetscSNPrintf(par, sizeof(par), "alpha %.10g, beta %.10g", (double)g->p.alpha, (double)g->p.beta));
  else if (g->p.degree == 4)
    PetscCall(PetscSNPrintf(par, sizeof(par), "alpha %.10g, beta %.10g, gamma %.10g", (double)g->p.alpha, (double)g->p.beta, (double)g->p.gamma));
  else
    PetscCall(PetscSNPrintf(par, sizeof(par), "alpha %.10g, beta %.10g, gamma %.10g, zeta %.10g", (double)g->p.alpha, (double)g->p.beta, (double)g->p.gamma, (double)g->p.zeta));
  PetscCall(PetscSNPrintf(desc, len, "gcd degree %" PetscInt_FMT " (%s)%s%s", g->p.degree, par, g->preset[0] ? ", preset " : "", g->preset));
  PetscFunctionReturn(0);
}

static PetscErrorCode GCDView(FlxStepper ts, PetscViewer viewer)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "  method stability: Omega_max = %.10g (computed from the amplification matrix of this stepper)\n", (double)ts->Omega_max));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  start-up: %s\n", g->startup ? g->startup : "chosen at set-up"));
  if (g->finite) PetscCall(PetscViewerASCIIPrintf(viewer, "  finite rotations: x_{n+1} = x_n (+) D through the system's configuration update, %s\n", g->magnus ? "rotation increments of the Magnus expansion (D_rot - h^3/12 w x a - h^4/24 w x j)" : "component-wise rotation increments (-ts_gcd_magnus false: degrees 4 and 5 drop to second order on rotations)"));
  if (g->solve == GCD_SOLVE_EXPLICIT)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  explicit: diagonal solve with the lumped mass%s\n", g->aM > 0 ? " (mass-proportional damping included)" : ""));
  else
    PetscCall(PetscViewerASCIIPrintf(viewer, "  conditionally explicit (Rayleigh a_M %g, b_K %g%s): %s solve of (M + c h C) a = r, c = %g%s\n", (double)g->aM, (double)g->bK, g->Cd ? ", discrete dampers C_d" : "", GCDSolves[g->solve], (double)FlxGCDSolveCoefficient(&g->p), g->solve == GCD_SOLVE_FIXED_POINT ? " (convergence on x_{n+1} and v_n)" : !g->linear ? " (Newton on the matrix-free Jacobian M (1 + a_M c h) + c h df_int/dv, GMRES + Jacobi on M, -ts_gcd_ksp_*; convergence on x_{n+1} and v_n)"
                                                                                                                                                                                                                                                                                                                                                                      : " (CG + Jacobi, -ts_gcd_ksp_*)"));
  PetscFunctionReturn(0);
}

static PetscErrorCode GCDReport(FlxStepper ts, PetscViewer viewer)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;

  PetscFunctionBegin;
  if (g->solve != GCD_SOLVE_EXPLICIT && g->nsolves) PetscCall(PetscViewerASCIIPrintf(viewer, "conditionally explicit %s solve: %.2f iterations per step on average, at most %" PetscInt_FMT ", over %" PetscInt_FMT " steps\n", GCDSolves[g->solve], (double)g->its_total / g->nsolves, g->its_max, g->nsolves));
  if (g->solve == GCD_SOLVE_KSP && !g->linear && g->its_total) PetscCall(PetscViewerASCIIPrintf(viewer, "  (Newton iterations; %.2f Krylov iterations each on average)\n", (double)g->kits_total / g->its_total));
  PetscFunctionReturn(0);
}

static PetscErrorCode GCDSetFromOptions(FlxStepper ts)
{
  FlxStepper_GCD *g           = (FlxStepper_GCD *)ts->data;
  char            params[256] = "", preset[64] = "";
  PetscBool       setp, setpre, setd;
  PetscInt        degree = g->p.degree;

  PetscFunctionBegin;
  PetscOptionsBegin(ts->comm, NULL, "Generalized central differences (-ts_type gcd)", "FlxStepper");
  PetscCall(PetscOptionsString("-ts_gcd_preset", "Parameter set by name: gcd3, cd_classic, gcd3_a4/3, gcd3_a2, gcd4_a1/4, gcd4_a3/4, gcd4_a5/4, gcd5_paper, gcd5, gcd4_damped, gcd5_damped", "FlxStepperGCD", preset, preset, sizeof(preset), &setpre));
  PetscCall(PetscOptionsInt("-ts_gcd_degree", "Degree: 3, 4 or 5", "FlxStepperGCD", degree, &degree, &setd));
  PetscCall(PetscOptionsString("-ts_gcd_params", "alpha,beta[,gamma[,zeta]] as the degree needs (fractions allowed: 4/3)", "FlxStepperGCD", params, params, sizeof(params), &setp));
  PetscCall(PetscOptionsEnum("-ts_gcd_solve", "Solve for a_n: auto, explicit, ksp or fixed_point (conditionally explicit, for stiffness-proportional damping or velocity-dependent forces)", "FlxStepperGCD", GCDSolves, (PetscEnum)g->solve_user, (PetscEnum *)&g->solve_user, NULL));
  PetscCall(PetscOptionsEnum("-ts_gcd_startup", "Degrees 4 and 5: j_0 (and s_0) exact from the equation of motion (analytic when linear, differenced along the solution when nonlinear) or zero (the paper's examples)", "FlxStepperGCD", GCDStartups, (PetscEnum)g->startup_type, (PetscEnum *)&g->startup_type, NULL));
  PetscCall(PetscOptionsReal("-ts_gcd_fp_rtol", "Fixed point and Newton: tolerance on the changes of x_{n+1} and v_n relative to max |x| and max |v|", "FlxStepperGCD", g->fp_rtol, &g->fp_rtol, NULL));
  PetscCall(PetscOptionsBool("-ts_gcd_magnus", "Finite rotations: rotation increments corrected for the non-commutativity of successive rotations (Magnus expansion to h^4; keeps the order of degrees 4 and 5), or component-wise (false: for order studies only)", "FlxStepperGCD", g->magnus, &g->magnus, NULL));
  PetscCall(PetscOptionsInt("-ts_gcd_fp_max_it", "Fixed point and Newton: maximum iterations per step", "FlxStepperGCD", g->fp_maxit, &g->fp_maxit, NULL));
  PetscOptionsEnd();
  PetscCheck(!(setpre && (setp || setd)), ts->comm, PETSC_ERR_USER_INPUT, "give either -ts_gcd_preset or -ts_gcd_degree/-ts_gcd_params, not both");
  if (setpre) {
    PetscCall(FlxStepperGCDSetPreset(ts, preset));
    PetscFunctionReturn(0);
  }
  PetscCheck(degree >= 3 && degree <= 5, ts->comm, PETSC_ERR_USER_INPUT, "-ts_gcd_degree %" PetscInt_FMT ": the degree must be 3, 4 or 5", degree);
  if (setd && !setp) {
    PetscCheck(degree == 3, ts->comm, PETSC_ERR_USER_INPUT, "-ts_gcd_degree %" PetscInt_FMT " needs -ts_gcd_params (alpha,beta,gamma%s) or a -ts_gcd_preset", degree, degree == 5 ? ",zeta" : "");
  }
  if (setp) {
    PetscReal v[4] = {0, 0, 0, 0};
    PetscInt  n;
    PetscBool ok;
    PetscCall(FlxParseRealList(params, 4, v, &n, &ok));
    PetscCheck(ok && n == degree - 1, ts->comm, PETSC_ERR_USER_INPUT, "-ts_gcd_params '%s': degree %" PetscInt_FMT " needs %" PetscInt_FMT " numbers (%s)", params, degree, degree - 1, degree == 3 ? "alpha,beta" : degree == 4 ? "alpha,beta,gamma"
                                                                                                                                                                                                                                 : "alpha,beta,gamma,zeta");
    PetscCheck(degree < 4 || v[2] != 0, ts->comm, PETSC_ERR_USER_INPUT, "-ts_gcd_params: gamma must not be 0 (the highest derivative is recovered by dividing by gamma)");
    PetscCall(FlxStepperGCDSetParameters(ts, degree, v));
  }
  g->p.degree = degree;
  PetscFunctionReturn(0);
}

/* The stepper must be of type gcd and not set up (FlxStepperReset first). */
static PetscErrorCode GCDCheckSettable(FlxStepper ts, const char what[])
{
  PetscBool isgcd;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(ts->type, FLXSTEPPERGCD, &isgcd));
  PetscCheck(isgcd, ts->comm, PETSC_ERR_ARG_WRONG, "%s: stepper type %s is not gcd", what, ts->type);
  PetscCheck(!ts->setup, ts->comm, PETSC_ERR_ARG_WRONGSTATE, "%s after FlxStepperSetUp: call FlxStepperReset first", what);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperGCDSetPreset(FlxStepper ts, const char preset[])
{
  FlxStepper_GCD *g    = (FlxStepper_GCD *)ts->data;
  const char     *name = NULL;
  PetscReal       par[4];
  PetscInt        degree = 3;

  PetscFunctionBegin;
  PetscCall(GCDCheckSettable(ts, "FlxStepperGCDSetPreset"));
  for (PetscInt k = 0;; k++) {
    PetscCall(FlxGCDGetPreset(k, &name, &degree, par, NULL));
    if (!name || !strcmp(name, preset)) break;
  }
  PetscCheck(name, ts->comm, PETSC_ERR_USER_INPUT, "unknown -ts_gcd_preset '%s'; available: gcd3, cd_classic, gcd3_a4/3, gcd3_a2, gcd4_a1/4, gcd4_a3/4, gcd4_a5/4, gcd5_paper, gcd5, gcd4_damped, gcd5_damped", preset);
  g->p.degree  = degree;
  g->p.alpha   = par[0];
  g->p.beta    = par[1];
  g->p.gamma   = par[2];
  g->p.zeta    = par[3];
  g->p.classic = !strcmp(preset, "cd_classic") ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscStrncpy(g->preset, preset, sizeof(g->preset)));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperGCDSetParameters(FlxStepper ts, PetscInt degree, const PetscReal params[])
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;

  PetscFunctionBegin;
  PetscCall(GCDCheckSettable(ts, "FlxStepperGCDSetParameters"));
  PetscCheck(degree >= 3 && degree <= 5, ts->comm, PETSC_ERR_ARG_OUTOFRANGE, "GCD degree %" PetscInt_FMT ": the degree must be 3, 4 or 5", degree);
  PetscCheck(degree < 4 || params[2] != 0, ts->comm, PETSC_ERR_ARG_OUTOFRANGE, "GCD parameters: gamma must not be 0 (the highest derivative is recovered by dividing by gamma)");
  g->p.degree  = degree;
  g->p.alpha   = params[0];
  g->p.beta    = params[1];
  g->p.gamma   = degree >= 4 ? params[2] : 0;
  g->p.zeta    = degree >= 5 ? params[3] : 0;
  g->p.classic = PETSC_FALSE;
  g->preset[0] = 0;
  PetscFunctionReturn(0);
}

/* Free what GCDSetUp made; the parameters stay. */
static PetscErrorCode GCDReset(FlxStepper ts)
{
  FlxStepper_GCD *g      = (FlxStepper_GCD *)ts->data;
  Vec            *vecs[] = {&g->X, &g->V, &g->A, &g->J, &g->S, &g->D, &g->G, &g->F, &g->Minv, &g->W, &g->Wv, &g->Rhs, &g->Anew, &g->Zero, &g->Vt, &g->Xo};

  PetscFunctionBegin;
  for (size_t k = 0; k < sizeof(vecs) / sizeof(vecs[0]); k++)
    PetscCall(VecDestroy(vecs[k]));
  PetscCall(MatDestroy(&g->Aop));
  PetscCall(KSPDestroy(&g->ksp));
  PetscCall(PetscFree2(g->mval, g->msave));
  g->Mass = g->Free = NULL; /* the system's */
  g->Cd             = NULL;
  g->finite = g->energy = PETSC_FALSE;
  PetscFunctionReturn(0);
}

static PetscErrorCode GCDDestroy(FlxStepper ts)
{
  PetscFunctionBegin;
  PetscCall(GCDReset(ts));
  PetscCall(PetscFree(ts->data));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperCreate_GCD(FlxStepper ts)
{
  FlxStepper_GCD *g;

  PetscFunctionBegin;
  PetscCall(PetscNew(&g));
  g->p.degree = 3;
  g->p.alpha  = 1;
  g->p.beta   = 0.5;
  g->fp_rtol  = 1e-14;
  g->fp_maxit = 100;
  g->magnus   = PETSC_TRUE;
  PetscCall(PetscStrncpy(g->preset, "gcd3", sizeof(g->preset)));
  ts->data                = g;
  ts->ops.setfromoptions  = GCDSetFromOptions;
  ts->ops.setup           = GCDSetUp;
  ts->ops.startup         = GCDStartUp;
  ts->ops.step            = GCDStep;
  ts->ops.getstate        = GCDGetState;
  ts->ops.probe           = GCDProbe;
  ts->ops.reaction        = GCDReaction;
  ts->ops.spectral_radius = GCDSpectralRadius;
  ts->ops.view            = GCDView;
  ts->ops.report          = GCDReport;
  ts->ops.describe        = GCDDescribe;
  ts->ops.reset           = GCDReset;
  ts->ops.destroy         = GCDDestroy;
  PetscFunctionReturn(0);
}
