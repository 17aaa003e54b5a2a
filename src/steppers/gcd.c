/* Generalized central differences (GCD) of degree 3, 4 and 5 (seed paper 000; time-integration.md 1).
   One implementation for the three degrees, following the common solve shape

       v_n = vhat + c h (a_n - ahat),   M a_n + f_int(x_n, v_n) = f_ext(t_n),

   and one fused pass over memory per step: given f_int(x_n) (one MatMult for a linear model) and
   f_ext(t_n), a single loop computes a_n, the highest derivative, v_n, x_{n+1}, and the local sums of
   the energy ledger. The same kernel, applied to unit history vectors, builds the amplification matrix
   for the stability analysis (stability.c), so the analysis is of the code that runs. */
#include "gcdimpl.h"

static const char *const GCDSolves[]   = {"auto", "explicit", "ksp", "fixed_point", "GCDSolve", "GCD_SOLVE_", NULL};
static const char *const GCDStartups[] = {"exact", "zero", "GCDStartup", "GCD_STARTUP_", NULL};

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

#define GCD_RANGE 768 /* DOFs (128 nodes) per range of the fused finite-rotation pass: its vectors' ranges fit in L1/L2 */

/* Finite rotations, fused: per range of whole nodes, the kernel (X = x_n kept), D's rotational part made the rotation
   increment (gcdrotation.c) and x_{n+1} = x_n (+) D into Xn by the system's local update, while the range is in
   cache: one pass over memory instead of three. The ledger sums add up range by range. */
static PetscErrorCode FusedFinite(FlxStepper ts, PetscInt n, const PetscScalar *F, const PetscScalar *G, const PetscScalar *Mi, const PetscScalar *Aa, const PetscScalar *X, PetscScalar *V, PetscScalar *A, PetscScalar *J, PetscScalar *S, PetscScalar *D, PetscScalar *Xn)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;

  PetscFunctionBegin;
  for (int k = 0; k < 4; k++)
    ts->lsum[k] = 0;
  for (PetscInt i = 0; i < n; i += GCD_RANGE) {
    const PetscInt m = PetscMin(GCD_RANGE, n - i);
    PetscReal      part[4];
    FlxGCDKernelKeepX(&g->p, m, ts->dt, g->aM, F + i, G + i, Mi + i, Aa ? Aa + i : NULL, X + i, V + i, A + i, J ? J + i : NULL, S ? S + i : NULL, D + i, part);
    for (int k = 0; k < 4; k++)
      ts->lsum[k] += part[k];
    if (g->magnus) FlxGCDMagnusIncrement(m, ts->dt, V + i, A + i, J ? J + i : NULL, D + i);
    PetscCall(FlxSystemUpdateConfigurationLocal(ts->sys, i, m, X, D, Xn));
  }
  if (g->magnus) PetscCall(PetscLogFlops(15.0 * n / 6));
  PetscFunctionReturn(0);
}

/* Run the fused kernel on the vectors; Ag (a_n) NULL for the explicit solve. Finite rotations: X = x_n is kept (the
   kernel does not store x_{n+1}); fused, x_{n+1} goes to Xo (FiniteRotationStep swaps them). */
static PetscErrorCode RunKernel(FlxStepper ts, Vec Ag)
{
  FlxStepper_GCD    *g = (FlxStepper_GCD *)ts->data;
  PetscInt           n;
  const PetscScalar *F, *G, *Mi, *Aa = NULL, *Xr;
  PetscScalar       *X = NULL, *V, *A, *J = NULL, *S = NULL, *D, *Xn = NULL;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(g->X, &n));
  PetscCall(VecGetArrayRead(g->F, &F));
  PetscCall(VecGetArrayRead(g->G, &G));
  PetscCall(VecGetArrayRead(g->Minv, &Mi));
  if (Ag) PetscCall(VecGetArrayRead(Ag, &Aa));
  if (g->finite)
    PetscCall(VecGetArrayRead(g->X, &Xr)); /* x_n kept: its state unchanged (the system may cache on it) */
  else {
    PetscCall(VecGetArray(g->X, &X));
    Xr = X;
  }
  PetscCall(VecGetArray(g->V, &V));
  PetscCall(VecGetArray(g->A, &A));
  PetscCall(VecGetArray(g->D, &D));
  if (g->J) PetscCall(VecGetArray(g->J, &J));
  if (g->S) PetscCall(VecGetArray(g->S, &S));
  if (g->fused) {
    PetscCall(VecGetArrayWrite(g->Xo, &Xn));
    PetscCall(FusedFinite(ts, n, F, G, Mi, Aa, Xr, V, A, J, S, D, Xn));
    PetscCall(VecRestoreArrayWrite(g->Xo, &Xn));
  } else if (g->finite)
    FlxGCDKernelKeepX(&g->p, n, ts->dt, g->aM, F, G, Mi, Aa, Xr, V, A, J, S, D, ts->lsum);
  else
    FlxGCDKernel(&g->p, n, ts->dt, g->aM, F, G, Mi, Aa, X, V, A, J, S, D, ts->lsum);
  if (g->S) PetscCall(VecRestoreArray(g->S, &S));
  if (g->J) PetscCall(VecRestoreArray(g->J, &J));
  PetscCall(VecRestoreArray(g->D, &D));
  PetscCall(VecRestoreArray(g->A, &A));
  PetscCall(VecRestoreArray(g->V, &V));
  if (g->finite)
    PetscCall(VecRestoreArrayRead(g->X, &Xr));
  else
    PetscCall(VecRestoreArray(g->X, &X));
  if (Ag) PetscCall(VecRestoreArrayRead(Ag, &Aa));
  PetscCall(VecRestoreArrayRead(g->Minv, &Mi));
  PetscCall(VecRestoreArrayRead(g->G, &G));
  PetscCall(VecRestoreArrayRead(g->F, &F));
  PetscCall(PetscLogFlops(30.0 * n));
  PetscFunctionReturn(0);
}

/* w = vhat - c h ahat into g->Wv */
PetscErrorCode FlxGCDPredictW(FlxStepper ts)
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
PetscReal FlxGCDDxDa(const FlxGCDParams *p, PetscReal h)
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
  FlxStepper_GCD    *g = (FlxStepper_GCD *)ts->data;
  const PetscScalar *X;
  PetscScalar       *D, *G, *F;

  PetscFunctionBegin;
  if (!g->nmov) PetscFunctionReturn(0);
  PetscCall(VecGetArrayRead(g->X, &X)); /* read only: its state unchanged */
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
  PetscCall(VecRestoreArrayRead(g->X, &X));
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
    ts->lsum[1] += (g->p.work ? xn1[j] - x + dold : xn1[j] + x - dold) * gi;
    ts->lsum[2] += (xn1[j] - x + dold) * gi;
  }
  PetscCall(VecRestoreArray(g->G, &G));
  PetscCall(VecRestoreArray(g->D, &D));
  PetscCall(VecRestoreArray(g->X, &X));
  PetscFunctionReturn(0);
}

/* Set the moving DOFs of a vector to row k of the motion at t_n (k = 1: v, 2: a), minus c h a_n for k = 1 (the
   velocity predictor w of the conditionally explicit solve, v_n = w + c h a_n). */
PetscErrorCode FlxGCDMotionSet(FlxStepper ts, Vec y, PetscInt k)
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

/* Nonlinear system with a strain energy (p.work): the ledger's strain term is the strain energy U(x_0) at the start
   plus the work of the internal force since, summed as the external work is, (D_{n+1} + D_n) . f_int(x_n) / 2
   per step. The central-difference identity M (D_{n+1} - D_n) / h^2 = f_ext - f_int makes the balance exact for
   gcd3 (1, 1/2) whatever f_int (the sum (x_{n+1} + x_{n-1}) . f_int(x_n) of linear systems is 4 U only for a
   linear force; U(x_n) against the step's velocities left an error of the high modes' (h omega)^2, 3 % on a
   cantilever under a step load). x = x_0; collective. */
PetscErrorCode FlxGCDLedgerStrain(FlxStepper ts, Vec x)
{
  PetscFunctionBegin;
  PetscCall(FlxSystemComputeStrainEnergy(ts->sys, x, &ts->Ustart, NULL));
  PetscFunctionReturn(0);
}

/* Finite rotations: x_{n+1} = x_n (+) D into Xo with D's rotational part made the spatial rotation increment (the
   kernel added it component-wise; fused: done range by range in RunKernel), X and Xo swapped (X = x_{n+1}, Xo = x_n:
   no copy). */
static PetscErrorCode FiniteRotationStep(FlxStepper ts)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;
  Vec             t;

  PetscFunctionBegin;
  if (!g->fused) PetscCall(FlxGCDComposeIncrement(ts->sys, g->magnus, ts->dt, g->V, g->A, g->J, g->D, g->X, g->Xo));
  t     = g->X;
  g->X  = g->Xo;
  g->Xo = t;
  PetscFunctionReturn(0);
}

/* Explicit step of a system with inertia tensors: a_n = (M^-1 (f_ext - f_int) - aM w) / (1 + aM c h) on the lumped
   DOFs (the kernel's formula), the tensor nodes' from J (a + aM v) + v x J v = f_ext - f_int, v = w + c h a. */
static PetscErrorCode TensorAcceleration(FlxStepper ts)
{
  FlxStepper_GCD *g  = (FlxStepper_GCD *)ts->data;
  PetscReal       ch = FlxGCDSolveCoefficient(&g->p) * ts->dt;

  PetscFunctionBegin;
  PetscCall(FlxGCDPredictW(ts));
  PetscCall(FlxGCDMotionSet(ts, g->Wv, 1));
  PetscCall(VecWAXPY(g->Rt, -1.0, g->G, g->F));
  PetscCall(VecPointwiseMult(g->Anew, g->Rt, g->Minv));
  PetscCall(VecAXPY(g->Anew, -g->aM, g->Wv));
  PetscCall(VecScale(g->Anew, 1 / (1 + g->aM * ch)));
  PetscCall(FlxGCDMotionSet(ts, g->Anew, 2));
  PetscCall(FlxSystemSolveInertia(ts->sys, g->X, g->Wv, ch, g->Rt, g->Anew));
  PetscFunctionReturn(0);
}

static PetscErrorCode GCDStep(FlxStepper ts)
{
  FlxStepper_GCD *g  = (FlxStepper_GCD *)ts->data;
  PetscReal       tn = ts->t0 + (ts->step + 1) * ts->dt;

  PetscFunctionBegin;
  PetscCall(FlxSystemComputeExternalForce(ts->sys, tn, g->F));
  if (g->nmov) PetscCall(FlxSystemComputePrescribedMotion(ts->sys, tn, 0, g->p.degree - 1, g->mval)); /* x, v, a, j, s at t_n */
  if (g->solve == GCD_SOLVE_EXPLICIT && g->tensor) {                                                  /* a_n given to the kernel: lumped DOFs as the kernel, tensor nodes solved */
    PetscCall(FlxSystemComputeInternalForce(ts->sys, tn, g->X, g->V, g->G));
    PetscCall(TensorAcceleration(ts));
    PetscCall(MotionBefore(ts));
    PetscCall(FlxGCDTensorsLedgerBefore(ts->sys, &g->tn, g->X, g->D));
    PetscCall(RunKernel(ts, g->Anew));
    PetscCall(FlxGCDTensorsLedgerAfter(&g->tn, g->aM, g->Minv, g->D, g->V, g->A, g->F, g->G, ts->lsum));
  } else if (g->solve == GCD_SOLVE_EXPLICIT) {
    PetscCall(FlxSystemComputeInternalForce(ts->sys, tn, g->X, g->V, g->G));
    PetscCall(MotionBefore(ts));
    PetscCall(RunKernel(ts, NULL));
  } else {
    PetscInt its = 0;
    PetscCall(FlxGCDSolveAcceleration(ts, tn, &its));
    PetscCall(FlxSystemComputeInternalForce(ts->sys, tn, g->X, g->Zero, g->G)); /* elastic force, for the ledger */
    g->its_total += its;
    g->its_max = PetscMax(g->its_max, its);
    g->nsolves++;
    PetscCall(MotionBefore(ts));
    if (g->tensor) PetscCall(FlxGCDTensorsLedgerBefore(ts->sys, &g->tn, g->X, g->D));
    PetscCall(RunKernel(ts, g->Anew));
    if (g->tensor) PetscCall(FlxGCDTensorsLedgerAfter(&g->tn, g->aM, g->Minv, g->D, g->V, g->A, g->F, g->G, ts->lsum));
  }
  if (g->finite) PetscCall(FiniteRotationStep(ts));
  PetscCall(MotionAfter(ts, tn));
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

static PetscErrorCode GCDSetUp(FlxStepper ts)
{
  FlxStepper_GCD *g = (FlxStepper_GCD *)ts->data;
  Vec             mass, free;
  PetscBool       linear, vdep;
  Vec            *vecs[] = {&g->X, &g->V, &g->A, &g->D, &g->G, &g->F, &g->Minv, &g->W};

  PetscFunctionBegin;
  g->p.work       = PETSC_FALSE; /* set below for a nonlinear system with a strain energy (not a constrained one) */
  ts->strain_work = PETSC_FALSE;
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
  PetscCall(FlxGCDTensorsSetUp(ts->sys, &g->tn, &g->tensor));
  g->solve = g->solve_user;
  if (g->solve == GCD_SOLVE_AUTO) g->solve = !vdep ? GCD_SOLVE_EXPLICIT : (linear ? GCD_SOLVE_KSP : GCD_SOLVE_FIXED_POINT);
  PetscCheck(g->solve != GCD_SOLVE_EXPLICIT || !vdep, ts->comm, PETSC_ERR_USER_INPUT, "the internal force depends on the velocity (-damping_stiffness %g, discrete dampers or a velocity-dependent system): the GCD step is conditionally explicit, use -ts_gcd_solve ksp or fixed_point", (double)g->bK);
  PetscCheck(!(g->p.classic && g->solve != GCD_SOLVE_EXPLICIT), ts->comm, PETSC_ERR_USER_INPUT, "the classic central differences preset is explicit only (no stiffness-proportional damping)");
  for (size_t k = 0; k < sizeof(vecs) / sizeof(vecs[0]); k++)
    PetscCall(VecDuplicate(mass, vecs[k]));
  if (g->p.degree >= 4 || g->p.classic) PetscCall(VecDuplicate(mass, &g->J));
  if (g->p.degree >= 5) PetscCall(VecDuplicate(mass, &g->S));
  if (g->tensor) PetscCall(VecDuplicate(mass, &g->Rt));
  if (g->solve != GCD_SOLVE_EXPLICIT || g->tensor) {
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
    PetscCall(FlxSystemHasStrainEnergy(ts->sys, &g->p.work)); /* the ledger's strain term by the internal force's work (FlxGCDLedgerStrain) */
    PetscCall(FlxSystemHasConfigurationUpdateLocal(ts->sys, &g->fused));
    g->fused = (PetscBool)(g->fused && !g->tensor); /* tensors: their ledger reads D between the kernel and Magnus */
  }
  PetscCheck(!g->tensor || g->finite, ts->comm, PETSC_ERR_ARG_WRONGSTATE, "a system with nodal inertia tensors needs finite rotations (a configuration update)");
  ts->strain_work = g->p.work; /* the core's accumulation of it */
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
  Vec            *vecs[] = {&g->X, &g->V, &g->A, &g->J, &g->S, &g->D, &g->G, &g->F, &g->Minv, &g->W, &g->Wv, &g->Rhs, &g->Anew, &g->Zero, &g->Vt, &g->Xo, &g->Rt};

  PetscFunctionBegin;
  for (size_t k = 0; k < sizeof(vecs) / sizeof(vecs[0]); k++)
    PetscCall(VecDestroy(vecs[k]));
  PetscCall(MatDestroy(&g->Aop));
  PetscCall(KSPDestroy(&g->ksp));
  PetscCall(PetscFree2(g->mval, g->msave));
  g->Mass = g->Free = NULL; /* the system's */
  g->Cd             = NULL;
  g->finite = g->tensor = g->fused = PETSC_FALSE;
  PetscCall(FlxGCDTensorsDestroy(&g->tn));
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
  ts->ops.startup         = FlxGCDStartUp;
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
