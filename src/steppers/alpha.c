/* Implicit generalized-alpha family: Newmark, HHT-alpha and generalized-alpha in one implementation
   (time-integration.md section 2, Chung-Hulbert convention: alpha_m and alpha_f weight the OLD state).

     x_{n+1} = x_n + h v_n + h^2/2 ((1 - 2 beta) a*_n + 2 beta a*_{n+1})
     v_{n+1} = v_n + h ((1 - gamma) a*_n + gamma a*_{n+1})
     (1 - alpha_m) M a*_{n+1} + alpha_m M a*_n = (1 - alpha_f) f_{n+1} + alpha_f f_n,   f = f_ext - K x - C v

   The unknown is x_{n+1}. With the predictors x~ = x_n + h v_n + h^2/2 (1 - 2 beta) a*_n and
   v~ = v_n + h (1 - gamma) a*_n, a*_{n+1} = (x_{n+1} - x~) / (beta h^2) and the step is the linear solve

     K_eff x_{n+1} = (1 - alpha_f) f_ext(t_{n+1}) + alpha_f f_n - alpha_m M a*_n + c_M M x~
                     + (1 - alpha_f) C (gamma / (beta h) x~ - v~),
     K_eff = c_M M + c_C C + (1 - alpha_f) K,  c_M = (1 - alpha_m) / (beta h^2),  c_C = (1 - alpha_f) gamma / (beta h).

   Linear fast path: K_eff is assembled once per step size, the KSP and its preconditioner are set up once
   and reused; a step builds the right-hand side, solves for the increment x_{n+1} - x_n (the system of a
   Newton step from x_n) warm-started from h v_n + h^2/2 a*_n, and updates. A change of
   step size rebuilds K_eff and extrapolates a*_n with seed paper 002 eq. (14) (digest section 2.5):
   a*_n += (alpha_m - alpha_f) (h_n / h_{n-1} - 1) (a*_n - a*_{n-1}), which keeps second order.

   Start-up: consistent initial acceleration M a_0 = f_ext(t_0) - K x_0 - C v_0.
   Ledger (direct): kinetic 1/2 v.M v, strain 1/2 x.K x, external work by the trapezoidal rule on the
   increments of x, damping work h <v>.C <v> with <v> the mean velocity of the step; what is left of the
   balance is the numerical dissipation of the method (zero to round-off for trapezoidal Newmark). */
#include <flexure/private/stepperimpl.h>
#include <petscblaslapack.h>
#include "alpha.h"

/* y = M x (lumped: pointwise; consistent: Mc). */
static PetscErrorCode MassMult(FlxStepper_Alpha *al, Vec x, Vec y)
{
  PetscFunctionBegin;
  if (al->consistent)
    PetscCall(MatMult(al->Mc, x, y));
  else
    PetscCall(VecPointwiseMult(y, al->Mass, x));
  PetscFunctionReturn(0);
}

/* Local (this rank's) part of x . y: the stepper core reduces the ledger once per flush. Not collective. */
PetscErrorCode FlxAlphaLocalDot(Vec x, Vec y, PetscReal *d)
{
  const PetscScalar *a, *b;
  PetscInt           n;
  PetscReal          s = 0;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(x, &a));
  PetscCall(VecGetArrayRead(y, &b));
  for (PetscInt i = 0; i < n; i++)
    s += PetscRealPart(a[i] * b[i]);
  PetscCall(VecRestoreArrayRead(y, &b));
  PetscCall(VecRestoreArrayRead(x, &a));
  *d = s;
  PetscFunctionReturn(0);
}

/* Spectral radius of a real 3 x 3 matrix (row-major). */
static PetscErrorCode SpectralRadius3(const PetscReal G[9], PetscReal *rho)
{
  PetscScalar  a[9], wr[3], wi[3], work[30], dummy[1];
  PetscBLASInt n = 3, lwork = 30, info, one = 1;

  PetscFunctionBegin;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      a[j * 3 + i] = G[i * 3 + j]; /* column-major */
  PetscCallBLAS("LAPACKgeev", LAPACKgeev_("N", "N", &n, a, &n, wr, wi, dummy, &one, dummy, &one, work, &lwork, &info));
  PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK geev failed (%d)", (int)info);
  *rho = 0;
  for (int k = 0; k < 3; k++)
    *rho = PetscMax(*rho, PetscSqrtReal(wr[k] * wr[k] + wi[k] * wi[k]));
  PetscFunctionReturn(0);
}

/* Amplification matrix of the method on x'' + 2 zeta w x' + w^2 x = 0 with h = 1, w = Omega; state
   (x, h v, h^2 a*), each column the image of a unit state, computed from the update itself. Omega = infinity
   gives the limit matrix (rho_inf): near infinity rho approaches rho_inf only as Omega^-1/2, because the
   limit has a repeated eigenvalue. */
static PetscErrorCode AlphaSpectralRadius(FlxStepper ts, PetscReal Omega, PetscReal zeta, PetscReal *rho)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  const PetscReal   k = Omega * Omega, c = 2 * zeta * Omega, am = al->am, af = al->af, be = al->beta, ga = al->gamma;
  PetscReal         G[9];

  PetscFunctionBegin;
  for (int j = 0; j < 3; j++) {
    PetscReal x0 = j == 0, v0 = j == 1, a0 = j == 2, xt, vt, a1;
    xt = x0 + v0 + (0.5 - be) * a0;
    vt = v0 + (1 - ga) * a0;
    if (Omega >= PETSC_INFINITY)
      a1 = -((1 - af) * xt + af * x0) / ((1 - af) * be); /* the limit Omega -> infinity (undamped) */
    else
      a1 = (-am * a0 - (1 - af) * (c * vt + k * xt) - af * (c * v0 + k * x0)) / ((1 - am) + (1 - af) * (c * ga + k * be));
    G[j]     = xt + be * a1;
    G[3 + j] = vt + ga * a1;
    G[6 + j] = a1;
  }
  if (Omega >= PETSC_INFINITY) {
    /* in the limit x_{n+1} = -alpha_f / (1 - alpha_f) x_n: the first row decouples; the (v, a) block is
       2 x 2 and its eigenvalues come from trace and determinant (a repeated root keeps ~1e-8 accuracy,
       where a general eigensolver on the triple root of generalized-alpha gives only ~1e-6) */
    PetscReal tr = G[4] + G[8], det = G[4] * G[8] - G[5] * G[7], disc = tr * tr / 4 - det;
    PetscReal r2 = disc < 0 ? PetscSqrtReal(PetscMax(det, 0)) : PetscMax(PetscAbsReal(tr / 2 + PetscSqrtReal(disc)), PetscAbsReal(tr / 2 - PetscSqrtReal(disc)));
    *rho         = PetscMax(PetscAbsReal(G[0]), r2);
  } else
    PetscCall(SpectralRadius3(G, rho));
  PetscFunctionReturn(0);
}

/* Physical acceleration a = M^-1 (f_ext - K x - C v) = M^-1 f on the free DOFs (for output). */
static PetscErrorCode PhysicalAcceleration(FlxStepper ts)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;

  PetscFunctionBegin;
  if (!al->consistent)
    PetscCall(VecPointwiseMult(al->Aphys, al->Minv, al->F));
  else {
    KSPConvergedReason reason;
    PetscCall(VecPointwiseMult(al->W, al->F, al->Free));
    PetscCall(KSPSolve(al->kspM, al->W, al->Aphys));
    PetscCall(KSPGetConvergedReason(al->kspM, &reason));
    PetscCheck(reason > 0, ts->comm, PETSC_ERR_NOT_CONVERGED, "the consistent-mass solve M a = f for the acceleration diverged (%s): raise -ts_alpha_mass_ksp_max_it or -ts_alpha_mass_ksp_rtol", KSPConvergedReasons[reason]);
  }
  PetscCall(FlxSystemApplyPrescribedMotion(ts->sys, ts->time, 2, 2, &al->Aphys));
  PetscFunctionReturn(0);
}

static PetscErrorCode AlphaSetUp(FlxStepper ts)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  PetscBool         linear;
  Vec              *vecs[] = ALPHA_WORK_VECS(al);

  PetscFunctionBegin;
  { /* ==== constrained systems (issue 16): the index-3 step of alphadae.c takes over ==== */
    PetscBool cons;
    PetscCall(FlxDAECheckSupported(ts, ts->dae.soi2, &cons));
    if (cons) {
      PetscCall(FlxAlphaDAESetUp(ts));
      PetscFunctionReturn(0);
    }
  }
  PetscCall(FlxSystemIsLinear(ts->sys, &linear));
  PetscCall(FlxSystemGetStiffness(ts->sys, &al->K));
  PetscCall(FlxAlphaNewtonApplies(ts, linear, &al->newton)); /* nonlinear systems: Newton (alphanewton.c) */
  PetscCheck(al->newton || al->K, ts->comm, PETSC_ERR_USER_INPUT, "-ts_type %s: the implicit steppers need a linear system with an assembled stiffness (FlxSystemSetStiffness); this system has none", ts->type);
  PetscCall(FlxSystemGetMass(ts->sys, &al->Mass, &al->Free));
  PetscCall(FlxSystemGetRayleigh(ts->sys, &al->aM, &al->bK));
  PetscCall(FlxSystemGetDampingMatrix(ts->sys, &al->Cd, NULL)); /* C = aM M + bK K + C_d */
  for (size_t k = 0; k < sizeof(vecs) / sizeof(vecs[0]); k++)
    PetscCall(VecDuplicate(al->Mass, vecs[k]));
  { /* M^-1 on the free DOFs; 0 where a DOF has no mass (a massless DOF is in static equilibrium) */
    PetscScalar       *mi;
    const PetscScalar *ms, *fr;
    PetscInt           n;
    PetscCall(VecGetLocalSize(al->Mass, &n));
    PetscCall(VecGetArrayWrite(al->Minv, &mi));
    PetscCall(VecGetArrayRead(al->Mass, &ms));
    PetscCall(VecGetArrayRead(al->Free, &fr));
    for (PetscInt i = 0; i < n; i++)
      mi[i] = PetscRealPart(ms[i]) > 0 ? fr[i] / ms[i] : 0;
    PetscCall(VecRestoreArrayRead(al->Free, &fr));
    PetscCall(VecRestoreArrayRead(al->Mass, &ms));
    PetscCall(VecRestoreArrayWrite(al->Minv, &mi));
  }
  PetscCall(FlxSystemCreatePrescribedIS(ts->sys, &al->fixed));
  PetscCall(FlxSystemGetPrescribedMotion(ts->sys, &al->nmov, &al->mov, &al->hasmov));
  PetscCall(PetscFree2(al->mval, al->mkx));
  PetscCall(PetscMalloc2(3 * al->nmov + 1, &al->mval, 2 * al->nmov + 1, &al->mkx));
  if (al->hasmov && !al->Xp) PetscCall(VecDuplicate(al->Mass, &al->Xp));
  if (al->consistent) {
    KSP k;
    PC  pc;
    PetscCall(FlxSystemGetConsistentMass(ts->sys, &al->Mc));
    PetscCheck(al->Mc, ts->comm, PETSC_ERR_USER_INPUT, "-ts_alpha_mass consistent: this system has no consistent mass");
    PetscCall(MatDuplicate(al->Mc, MAT_COPY_VALUES, &al->McBC));
    PetscCall(MatZeroRowsColumnsIS(al->McBC, al->fixed, 1.0, NULL, NULL));
    PetscCall(KSPCreate(ts->comm, &k));
    PetscCall(KSPSetOptionsPrefix(k, "ts_alpha_mass_"));
    PetscCall(KSPSetType(k, KSPCG));
    PetscCall(KSPGetPC(k, &pc));
    PetscCall(PCSetType(pc, PCJACOBI));
    PetscCall(KSPSetTolerances(k, 1e-13, 1e-300, PETSC_DEFAULT, 10000));
    PetscCall(KSPSetOperators(k, al->McBC, al->McBC));
    PetscCall(KSPSetFromOptions(k));
    al->kspM = k;
  }
  if (al->newton)
    PetscCall(FlxAlphaNewtonSetUp(ts));
  else if (!al->nslot)
    PetscCall(FlxAlphaNewSlot(ts));
  if (ts->dt_set && !al->newton) { /* K_eff and the preconditioner of the first step now: PCSetUp reads the options of the
       hierarchy (-ts_mg_levels_*, ...) before the check for unused options, and the set-up is timed apart
       (no step given: FlxStepperSetUp says so next) */
    PetscReal h = ts->dt * (al->nratio ? al->ratio[0] : 1);
    PetscBool build;
    PetscCall(FlxAlphaSelectSlot(ts, h, &build));
    if (build) PetscCall(FlxAlphaBuildKeff(ts, h));
  }
  ts->Omega_max     = PETSC_INFINITY;
  ts->implicit      = PETSC_TRUE;
  ts->ledger_direct = PETSC_TRUE;
  ts->varstep       = al->nratio > 0 || al->adapt.on ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* Prescribed motion (time-integration.md 2: prescribed DOFs take their motion). x_{n+1}, v_{n+1} and a*_{n+1} of
   a moving DOF are its motion's at t_{n+1} (in mval); its predictors are chosen so that the method's update gives
   exactly these (x~ = x - beta h^2 a*, v~ = v - gamma h a*); K_eff's prescribed columns move to the right-hand
   side. The moving DOFs leave the kinetic, load and damping terms of the ledger (the support carries them) and
   add the work of the support on the structure, (K x)_p . dx_p. */
static PetscErrorCode SetMoving(FlxStepper_Alpha *al, Vec y, const PetscReal vals[])
{
  PetscScalar *a;

  PetscFunctionBegin;
  if (!al->nmov) PetscFunctionReturn(0);
  PetscCall(VecGetArray(y, &a));
  for (PetscInt j = 0; j < al->nmov; j++)
    a[al->mov[j]] = vals ? vals[j] : 0;
  PetscCall(VecRestoreArray(y, &a));
  PetscFunctionReturn(0);
}

/* The moving DOFs' predictors and their entries of W (what M multiplies) and of the right-hand side, as the
   fused pass computes them for the others. */
static PetscErrorCode MotionPredict(FlxStepper ts, PetscReal h)
{
  FlxStepper_Alpha  *al = (FlxStepper_Alpha *)ts->data;
  const PetscReal    be = al->beta, ga = al->gamma, am = al->am, af = al->af, cM = (1 - am) / (be * h * h), q = ga / (be * h);
  PetscScalar       *Xt, *Vt, *W, *R;
  const PetscScalar *A, *Ms, *Fe, *F;
  PetscInt           n = al->nmov;

  PetscFunctionBegin;
  PetscCall(VecGetArray(al->Xt, &Xt));
  PetscCall(VecGetArray(al->Vt, &Vt));
  PetscCall(VecGetArray(al->W, &W));
  PetscCall(VecGetArray(al->Rhs, &R));
  PetscCall(VecGetArrayRead(al->A, &A));
  PetscCall(VecGetArrayRead(al->Mass, &Ms));
  PetscCall(VecGetArrayRead(al->Fext1, &Fe));
  PetscCall(VecGetArrayRead(al->F, &F));
  for (PetscInt j = 0; j < n; j++) {
    PetscInt        i  = al->mov[j];
    const PetscReal xt = al->mval[j] - be * h * h * al->mval[2 * n + j], vt = al->mval[n + j] - ga * h * al->mval[2 * n + j];
    const PetscReal mw = -am * A[i] + cM * xt + (1 - af) * al->aM * (q * xt - vt);
    Xt[i]              = xt;
    Vt[i]              = vt;
    W[i]               = mw;
    R[i]               = (1 - af) * Fe[i] + af * F[i] + (al->consistent ? 0 : Ms[i] * mw);
  }
  PetscCall(VecRestoreArrayRead(al->F, &F));
  PetscCall(VecRestoreArrayRead(al->Fext1, &Fe));
  PetscCall(VecRestoreArrayRead(al->Mass, &Ms));
  PetscCall(VecRestoreArrayRead(al->A, &A));
  PetscCall(VecRestoreArray(al->Rhs, &R));
  PetscCall(VecRestoreArray(al->W, &W));
  PetscCall(VecRestoreArray(al->Vt, &Vt));
  PetscCall(VecRestoreArray(al->Xt, &Xt));
  PetscFunctionReturn(0);
}

/* Lifting, on the completed and masked right-hand side: r_f -= K_eff,fp x_p with K_eff = (1 - af + cC bK) K +
   (cM + cC aM) M (a lumped M couples no DOFs), and r_p = d x_p, d the identity scale of the prescribed rows.
   Collective (one product with K; with consistent mass one with M). */
static PetscErrorCode MotionLift(FlxStepper ts, PetscReal h)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  const PetscReal   cM = (1 - al->am) / (al->beta * h * h), cC = (1 - al->af) * al->gamma / (al->beta * h);

  PetscFunctionBegin;
  PetscCall(VecZeroEntries(al->Xp));
  PetscCall(SetMoving(al, al->Xp, al->mval));
  PetscCall(MatMult(al->K, al->Xp, al->W));
  PetscCall(VecScale(al->W, (1 - al->af) + cC * al->bK));
  if (al->consistent) {
    PetscCall(MatMult(al->Mc, al->Xp, al->Xn));
    PetscCall(VecAXPY(al->W, cM + cC * al->aM, al->Xn));
  }
  PetscCall(VecPointwiseMult(al->W, al->W, al->Free));
  PetscCall(VecAXPY(al->Rhs, -1.0, al->W));
  PetscCall(VecAXPY(al->Rhs, al->dslot[al->cur], al->Xp));
  PetscFunctionReturn(0);
}

/* Ledger sums of the state (local): kinetic 1/2 v.M v and strain 1/2 x.K x (KX = K x given). */
static PetscErrorCode StateEnergy(FlxStepper_Alpha *al, PetscReal lsum[2])
{
  PetscFunctionBegin;
  PetscCall(MassMult(al, al->V, al->W));
  PetscCall(SetMoving(al, al->W, NULL));
  PetscCall(FlxAlphaLocalDot(al->V, al->W, &lsum[0]));
  PetscCall(FlxAlphaLocalDot(al->X, al->KX, &lsum[1]));
  lsum[0] *= 0.5;
  lsum[1] *= 0.5;
  PetscFunctionReturn(0);
}

/* f = f_ext - K x - C v (C = aM M + bK K + C_d) with KX = K x (and KV = K v when b_K != 0) computed here; masked to the free DOFs. */
static PetscErrorCode ResidualForce(FlxStepper ts, Vec X, Vec V, Vec Fext, Vec F)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;

  PetscFunctionBegin;
  PetscCall(MatMult(al->K, X, al->KX));
  PetscCall(VecWAXPY(F, -1.0, al->KX, Fext));
  if (al->bK != 0) {
    PetscCall(MatMult(al->K, V, al->KV));
    PetscCall(VecAXPY(F, -al->bK, al->KV));
  }
  if (al->Cd) {
    PetscCall(MatMult(al->Cd, V, al->W));
    PetscCall(VecAXPY(F, -1.0, al->W));
  }
  if (al->aM != 0) {
    PetscCall(MassMult(al, V, al->W));
    PetscCall(VecAXPY(F, -al->aM, al->W));
  }
  PetscCall(VecPointwiseMult(F, F, al->Free));
  PetscFunctionReturn(0);
}

static PetscErrorCode AlphaStartUp(FlxStepper ts)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;

  PetscFunctionBegin;
  if (al->newton) {
    PetscCall(FlxAlphaNewtonStartUp(ts));
    PetscFunctionReturn(0);
  }
  PetscCall(VecPointwiseMult(al->X, ts->x0, al->Free));
  PetscCall(VecPointwiseMult(al->V, ts->v0, al->Free));
  {
    Vec y[2] = {al->X, al->V};
    PetscCall(FlxSystemApplyPrescribedMotion(ts->sys, ts->t0, 0, 1, y));
  }
  PetscCall(FlxSystemComputeExternalForce(ts->sys, ts->t0, al->Fext));
  PetscCall(ResidualForce(ts, al->X, al->V, al->Fext, al->F));
  PetscCall(PhysicalAcceleration(ts)); /* consistent a_0 */
  PetscCall(VecCopy(al->Aphys, al->A));
  PetscCall(VecCopy(al->A, al->Aold));
  PetscCall(StateEnergy(al, ts->lsum));
  ts->lsum[2] = ts->lsum[3] = 0;
  al->hprev                 = 0;
  PetscFunctionReturn(0);
}

/* The guess's free part G, scaled by s = G.b / G.K_eff G: the best multiple of it in K_eff's energy norm, so that CG
   starts no farther from the solution than from zero (K_eff's prescribed rows and columns are zeroed: G's prescribed
   rows are kept). A load applied at t_n makes a*_n large where the mass is small, and h^2/2 a* then overshoots
   wherever h is long against the local periods: on the example cantilever with a sudden tip load, Newmark at
   h = 2e-3 s (30 steps per period) started from a residual 2.6e4 |b| and stopped as DIVERGED_DTOL (found by a
   helper); scaled, it starts below |b|. One product with K_eff and two reductions per step. */
static PetscErrorCode ScaleGuess(FlxStepper_Alpha *al)
{
  PetscReal gb, gsg;

  PetscFunctionBegin;
  PetscCall(VecPointwiseMult(al->G, al->Xn, al->Free));
  PetscCall(MatMult(al->Sslot[al->cur], al->G, al->SG));
  PetscCall(VecDot(al->G, al->B, &gb));
  PetscCall(VecDot(al->G, al->SG, &gsg));
  if (gsg > 0) PetscCall(VecAXPY(al->Xn, gb / gsg - 1, al->G));
  PetscFunctionReturn(0);
}

/* x~ = x + h v + h^2/2 (1 - 2 beta) a*, v~ = v + h (1 - gamma) a*, and the right-hand side. */
static PetscErrorCode PredictAndRhs(FlxStepper ts, PetscReal h)
{
  FlxStepper_Alpha  *al = (FlxStepper_Alpha *)ts->data;
  const PetscReal    be = al->beta, ga = al->gamma, am = al->am, af = al->af, cM = (1 - am) / (be * h * h), q = ga / (be * h);
  const PetscScalar *X, *V, *A, *F, *Fe, *Ms;
  PetscScalar       *Xt, *Vt, *W, *R;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(al->X, &n));
  PetscCall(VecGetArrayRead(al->X, &X));
  PetscCall(VecGetArrayRead(al->V, &V));
  PetscCall(VecGetArrayRead(al->A, &A));
  PetscCall(VecGetArrayRead(al->F, &F));
  PetscCall(VecGetArrayRead(al->Fext1, &Fe));
  PetscCall(VecGetArrayRead(al->Mass, &Ms));
  PetscCall(VecGetArrayWrite(al->Xt, &Xt));
  PetscCall(VecGetArrayWrite(al->Vt, &Vt));
  PetscCall(VecGetArrayWrite(al->W, &W));
  PetscCall(VecGetArrayWrite(al->Rhs, &R));
  for (PetscInt i = 0; i < n; i++) { /* one pass; W = the vector M multiplies (consistent mass) */
    const PetscReal xt = X[i] + h * V[i] + 0.5 * h * h * (1 - 2 * be) * A[i], vt = V[i] + h * (1 - ga) * A[i];
    const PetscReal mw = -am * A[i] + cM * xt + (1 - af) * al->aM * (q * xt - vt);
    Xt[i]              = xt;
    Vt[i]              = vt;
    W[i]               = mw;
    R[i]               = (1 - af) * Fe[i] + af * F[i] + (al->consistent ? 0 : Ms[i] * mw);
  }
  PetscCall(VecRestoreArrayWrite(al->Rhs, &R));
  PetscCall(VecRestoreArrayWrite(al->W, &W));
  PetscCall(VecRestoreArrayWrite(al->Vt, &Vt));
  PetscCall(VecRestoreArrayWrite(al->Xt, &Xt));
  PetscCall(VecRestoreArrayRead(al->Mass, &Ms));
  PetscCall(VecRestoreArrayRead(al->Fext1, &Fe));
  PetscCall(VecRestoreArrayRead(al->F, &F));
  PetscCall(VecRestoreArrayRead(al->A, &A));
  PetscCall(VecRestoreArrayRead(al->V, &V));
  PetscCall(VecRestoreArrayRead(al->X, &X));
  if (al->nmov) PetscCall(MotionPredict(ts, h));
  if (al->consistent) PetscCall(MatMultAdd(al->Mc, al->W, al->Rhs, al->Rhs));
  if (al->bK != 0 || al->Cd) { /* (1 - af) (bK K + C_d) (q x~ - v~) */
    PetscCall(VecAXPBYPCZ(al->W, q, -1.0, 0.0, al->Xt, al->Vt));
    if (al->bK != 0) {
      PetscCall(MatMult(al->K, al->W, al->Xn));
      PetscCall(VecAXPY(al->Rhs, (1 - af) * al->bK, al->Xn));
    }
    if (al->Cd) {
      PetscCall(MatMult(al->Cd, al->W, al->Xn));
      PetscCall(VecAXPY(al->Rhs, 1 - af, al->Xn));
    }
  }
  PetscCall(VecPointwiseMult(al->Rhs, al->Rhs, al->Free));
  if (al->hasmov) PetscCall(MotionLift(ts, h));
  PetscFunctionReturn(0);
}

static PetscErrorCode AlphaStep(FlxStepper ts)
{
  FlxStepper_Alpha  *al = (FlxStepper_Alpha *)ts->data;
  PetscReal          h = ts->dt * (al->nratio ? al->ratio[ts->step % al->nratio] : 1), t1 = ts->time + h, dW, dD, e[2];
  KSPConvergedReason reason;
  PetscLogDouble     t0, tE;
  PetscInt           its;

  PetscFunctionBegin;
  if (al->newton) {
    PetscCall(FlxAlphaNewtonStep(ts));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscTime(&t0));
  al->tstep0 = t0;
  ts->hlast  = h;
  if (h != al->hK) {
    PetscBool build;
    PetscCall(FlxAlphaSelectSlot(ts, h, &build));
    if (build)
      PetscCall(FlxAlphaBuildKeff(ts, h));
    else
      al->hK = h;
  }
  if (al->hprev > 0 && h != al->hprev && al->am != al->af) { /* eq. (14): a*_n to t_n + (am - af) h_n */
    PetscReal s = (al->am - al->af) * (h / al->hprev - 1);
    PetscCall(VecWAXPY(al->W, -1.0, al->Aold, al->A));
    PetscCall(VecAXPY(al->A, s, al->W));
  }
  PetscCall(FlxSystemComputeExternalForce(ts->sys, t1, al->Fext1));
  if (al->nmov) { /* the motion at t_{n+1} (x, v, a) and (K x_n) of the moving DOFs, for the support work */
    const PetscScalar *kx, *x;
    PetscCall(FlxSystemComputePrescribedMotion(ts->sys, t1, 0, 2, al->mval));
    PetscCall(VecGetArrayRead(al->KX, &kx));
    PetscCall(VecGetArrayRead(al->X, &x));
    for (PetscInt j = 0; j < al->nmov; j++) {
      al->mkx[j]            = kx[al->mov[j]];
      al->mkx[al->nmov + j] = x[al->mov[j]];
    }
    PetscCall(VecRestoreArrayRead(al->X, &x));
    PetscCall(VecRestoreArrayRead(al->KX, &kx));
  }
  PetscCall(PredictAndRhs(ts, h));
  /* Increment form, the linear system of a Newton step from x_n (what TSALPHA2 solves): K_eff d = b with
     b = rhs - K_eff x_n, started from h v_n + h^2/2 a*_n; KSP's default test stops at rtol |b| */
  PetscCall(PetscTime(&t0));
  if (al->direct)
    PetscCall(KSPSolve(al->ksp, al->Rhs, al->Xn)); /* no test to scale; b would lose digits */
  else {
    PetscCall(MatMult(al->Sslot[al->cur], al->X, al->B));
    PetscCall(VecAYPX(al->B, -1.0, al->Rhs));
    /* guess d0 = h v + h^2/2 a* = x~ - x_n + beta h^2 a* (the step with a* held: 10% fewer iterations than x~) */
    PetscCall(VecWAXPY(al->Xn, -1.0, al->X, al->Xt));
    PetscCall(VecAXPY(al->Xn, al->beta * h * h, al->A));
    PetscCall(ScaleGuess(al));
    if (al->nmov) { /* the moving rows exact from the start: the Krylov iteration stays on the free ones */
      PetscScalar       *d;
      const PetscScalar *x;
      PetscCall(VecGetArray(al->Xn, &d));
      PetscCall(VecGetArrayRead(al->X, &x));
      for (PetscInt j = 0; j < al->nmov; j++)
        d[al->mov[j]] = al->mval[j] - x[al->mov[j]];
      PetscCall(VecRestoreArrayRead(al->X, &x));
      PetscCall(VecRestoreArray(al->Xn, &d));
    }
    PetscCall(KSPSolve(al->ksp, al->B, al->Xn)); /* Xn holds d, then x_n + d */
    PetscCall(VecAXPY(al->Xn, 1.0, al->X));
  }
  PetscCall(SetMoving(al, al->Xn, al->mval)); /* exactly the motion, whatever the solver's tolerance */
  PetscCall(PetscTime(&tE));
  al->tsolve += tE - t0;
  PetscCall(KSPGetConvergedReason(al->ksp, &reason));
  PetscCall(KSPGetIterationNumber(al->ksp, &its));
  al->its += its;
  al->itslast = its;
  al->itsmax  = PetscMax(al->itsmax, its);
  al->nsolve++;
  if (reason < 0) {
    ts->reason = FLX_STEPPER_DIVERGED_SOLVE;
    PetscCall(PetscSNPrintf(ts->reason_msg, sizeof(ts->reason_msg), "the linear solve of the implicit step to t = %g s diverged (%s after %" PetscInt_FMT " iterations); try a direct solver (-ts_ksp_type preonly -ts_pc_type cholesky -ts_pc_factor_mat_solver_type mumps) or raise -ts_ksp_max_it", (double)t1, KSPConvergedReasons[reason], its));
    ts->lsum[2] = ts->lsum[3] = 0;
    PetscFunctionReturn(0);
  }
  /* a*_{n+1}, v_{n+1}; work and damping increments before the state moves */
  PetscCall(VecCopy(al->A, al->Aold));
  PetscCall(VecWAXPY(al->A, -1.0, al->Xt, al->Xn));
  PetscCall(VecScale(al->A, 1 / (al->beta * h * h)));
  PetscCall(VecPointwiseMult(al->A, al->A, al->Free));
  PetscCall(SetMoving(al, al->A, al->nmov ? al->mval + 2 * al->nmov : NULL));
  PetscCall(VecWAXPY(al->W, -1.0, al->X, al->Xn)); /* x_{n+1} - x_n */
  PetscCall(VecAXPY(al->Fext, 1.0, al->Fext1));
  PetscCall(SetMoving(al, al->Fext, NULL));
  PetscCall(FlxAlphaLocalDot(al->W, al->Fext, &dW));
  dW *= 0.5;
  PetscCall(VecWAXPY(al->W, al->gamma * h, al->A, al->Vt)); /* v_{n+1} = v~ + gamma h a*_{n+1} */
  PetscCall(VecCopy(al->V, al->Vt));                        /* Vt: v_n from here on */
  PetscCall(VecCopy(al->W, al->V));
  PetscCall(VecCopy(al->Xn, al->X));
  dD = 0;
  if (al->aM != 0 || al->bK != 0 || al->Cd) { /* h <v>.C<v>, <v> = (v_n + v_{n+1}) / 2, C = aM M + bK K + C_d */
    PetscReal d1 = 0, d2 = 0, d3 = 0;
    PetscCall(VecAXPBY(al->Vt, 0.5, 0.5, al->V));
    if (al->aM != 0) {
      PetscCall(MassMult(al, al->Vt, al->W));
      PetscCall(SetMoving(al, al->W, NULL));
      PetscCall(FlxAlphaLocalDot(al->Vt, al->W, &d1));
    }
    if (al->bK != 0) {
      PetscCall(MatMult(al->K, al->Vt, al->W));
      PetscCall(SetMoving(al, al->W, NULL));
      PetscCall(FlxAlphaLocalDot(al->Vt, al->W, &d2));
    }
    if (al->Cd) {
      PetscCall(MatMult(al->Cd, al->Vt, al->W));
      PetscCall(FlxAlphaLocalDot(al->Vt, al->W, &d3));
    }
    dD = h * (al->aM * d1 + al->bK * d2 + d3);
  }
  PetscCall(VecCopy(al->Fext1, al->Fext));
  PetscCall(ResidualForce(ts, al->X, al->V, al->Fext, al->F)); /* f_{n+1}, K x_{n+1} */
  PetscCall(StateEnergy(al, e));
  if (al->nmov) { /* work of the supports: (K x)_p at the mean of the step times dx_p */
    const PetscScalar *kx, *x;
    PetscCall(VecGetArrayRead(al->KX, &kx));
    PetscCall(VecGetArrayRead(al->X, &x));
    for (PetscInt j = 0; j < al->nmov; j++)
      dW += 0.5 * (kx[al->mov[j]] + al->mkx[j]) * (x[al->mov[j]] - al->mkx[al->nmov + j]);
    PetscCall(VecRestoreArrayRead(al->X, &x));
    PetscCall(VecRestoreArrayRead(al->KX, &kx));
  }
  ts->lsum[0] = e[0];
  ts->lsum[1] = e[1];
  ts->lsum[2] = dW;
  ts->lsum[3] = dD;
  al->hprev   = h;
  PetscCall(PetscTime(&tE));
  if (al->nsolve == 1)
    al->tfirst = tE - al->tstep0;
  else
    al->tstep += tE - al->tstep0;
  PetscFunctionReturn(0);
}

static PetscErrorCode AlphaGetState(FlxStepper ts, Vec *x, Vec *v, Vec *a)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;

  PetscFunctionBegin;
  if (a && !al->newton) PetscCall(PhysicalAcceleration(ts)); /* the Newton path holds the physical a_{n+1} */
  if (x) *x = al->X;
  if (v) *v = al->V;
  if (a) *a = al->Aphys;
  PetscFunctionReturn(0);
}

/* Probes: x, v and a (lumped mass: the physical M^-1 f; consistent mass: the algorithmic a*). */
static PetscErrorCode AlphaProbe(FlxStepper ts, PetscInt n, const PetscInt idx[], PetscReal out[])
{
  FlxStepper_Alpha  *al = (FlxStepper_Alpha *)ts->data;
  const PetscScalar *X, *V, *A, *F, *Mi;

  PetscFunctionBegin;
  if (al->newton) {
    PetscCall(FlxAlphaNewtonProbe(ts, n, idx, out));
    PetscFunctionReturn(0);
  }
  PetscCall(VecGetArrayRead(al->X, &X));
  PetscCall(VecGetArrayRead(al->V, &V));
  PetscCall(VecGetArrayRead(al->A, &A));
  PetscCall(VecGetArrayRead(al->F, &F));
  PetscCall(VecGetArrayRead(al->Minv, &Mi));
  for (PetscInt k = 0; k < n; k++) {
    PetscInt i     = idx[k];
    out[3 * k]     = i >= 0 ? X[i] : 0;
    out[3 * k + 1] = i >= 0 ? V[i] : 0;
    out[3 * k + 2] = i >= 0 ? (al->consistent || !(Mi[i] > 0) ? A[i] : Mi[i] * F[i]) : 0; /* prescribed: a from the motion */
  }
  PetscCall(VecRestoreArrayRead(al->Minv, &Mi));
  PetscCall(VecRestoreArrayRead(al->F, &F));
  PetscCall(VecRestoreArrayRead(al->A, &A));
  PetscCall(VecRestoreArrayRead(al->V, &V));
  PetscCall(VecRestoreArrayRead(al->X, &X));
  PetscFunctionReturn(0);
}

/* Reactions at t_n with the algorithmic acceleration (zero on fixed supports) and f_ext(t_n) = Fext. With
   consistent mass the inertia of the support rows is the lumped one. */
static PetscErrorCode AlphaReaction(FlxStepper ts, Vec R)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;

  PetscFunctionBegin;
  PetscCall(FlxSystemComputeReactions(ts->sys, al->X, NULL, al->V, al->A, al->Fext, R));
  PetscFunctionReturn(0);
}

static PetscErrorCode AlphaDescribe(FlxStepper ts, char desc[], size_t len)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  char              par[160];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(par, sizeof(par), "alpha_m %.6g, alpha_f %.6g, beta %.6g, gamma %.6g", (double)al->am, (double)al->af, (double)al->beta, (double)al->gamma));
  if (al->fam == ALPHA_NEWMARK)
    PetscCall(PetscSNPrintf(desc, len, "Newmark (beta %.6g, gamma %.6g)%s", (double)al->beta, (double)al->gamma, al->beta == 0.25 && al->gamma == 0.5 ? ", trapezoidal" : ""));
  else if (al->fam == ALPHA_HHT)
    PetscCall(PetscSNPrintf(desc, len, "HHT-alpha (alpha %.6g: %s)", (double)al->hht, par));
  else if (al->explicit_params)
    PetscCall(PetscSNPrintf(desc, len, "generalized-alpha (%s)", par));
  else
    PetscCall(PetscSNPrintf(desc, len, "generalized-alpha (rho_inf %.6g: %s)", (double)al->rho_inf, par));
  PetscFunctionReturn(0);
}

static PetscErrorCode AlphaView(FlxStepper ts, PetscViewer viewer)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  KSPType           kt;
  PCType            pt;
  PC                pc;
  PetscReal         rho, rtol;
  MatNullSpace      nsp;

  PetscFunctionBegin;
  if (al->newton) {
    PetscCall(FlxAlphaNewtonView(ts, viewer));
    PetscFunctionReturn(0);
  }
  PetscCall(AlphaSpectralRadius(ts, PETSC_INFINITY, 0, &rho));
  PetscCall(KSPGetType(al->ksp, &kt));
  PetscCall(KSPGetPC(al->ksp, &pc));
  PetscCall(PCGetType(pc, &pt));
  PetscCall(KSPGetTolerances(al->ksp, &rtol, NULL, NULL, NULL));
  PetscCall(FlxSystemGetNearNullSpace(ts->sys, &nsp));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  implicit, unconditionally stable; spectral radius at Omega -> infinity: rho_inf = %.6f (computed)%s\n", (double)rho, 2 * al->beta >= al->gamma ? "" : " WARNING: 2 beta < gamma"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  linear path: K_eff = c_M M + c_C C + (1 - alpha_f) K assembled once per step size; KSP %s + PC %s (rtol %g on the force imbalance relative to that at x_n, solved for the increment, started from h v + h^2/2 a*)%s, set up once and reused\n", kt, pt ? pt : "none", (double)rtol, nsp ? ", near-null space: 6 rigid-body modes" : ""));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  mass: %s; Rayleigh a_M %g, b_K %g%s; start-up: consistent initial acceleration%s\n", al->consistent ? "consistent" : "lumped", (double)al->aM, (double)al->bK, al->Cd ? ", discrete dampers C_d" : "", al->nratio ? "; variable steps (eq. 14 extrapolation of a*)" : ""));
  PetscFunctionReturn(0);
}

static PetscErrorCode AlphaReport(FlxStepper ts, PetscViewer viewer)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;

  PetscFunctionBegin;
  if (al->newton)
    PetscCall(FlxAlphaNewtonReport(ts, viewer));
  else if (al->nsolve)
    PetscCall(PetscViewerASCIIPrintf(viewer, "implicit: %" PetscInt_FMT " steps, KSP iterations %.2f per step on average (at most %" PetscInt_FMT "); K_eff built %" PetscInt_FMT " time(s) in %.3f s; preconditioner set-up %.3f s; first step %.4f s, then %.6g s per step (solve %.6g s)\n", al->nsolve, (double)al->its / al->nsolve, al->itsmax, al->nbuild, (double)al->tbuild, (double)al->tpc, (double)al->tfirst, (double)(al->nsolve > 1 ? al->tstep / (al->nsolve - 1) : 0), (double)(al->tsolve / al->nsolve)));
  PetscFunctionReturn(0);
}

static PetscErrorCode AlphaProgress(FlxStepper ts, char buf[], size_t len)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;

  PetscFunctionBegin;
  if (al->newton) {
    PetscCall(FlxAlphaNewtonProgress(ts, buf, len));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscSNPrintf(buf, len, "  KSP its %" PetscInt_FMT " (mean %.1f)", al->itslast, al->nsolve ? (double)al->its / al->nsolve : 0.0));
  PetscFunctionReturn(0);
}

/* A user's generalized-alpha parameters: the spectral radius of the undamped amplification matrix at most 1 from
   Omega = h omega = 1e-3 to 1e6 and at infinity (the ranges above are necessary, not sufficient, once gamma is
   raised: -ts_genalpha_gamma 0.6 with beta 1/4 passed them and blew up; found by a helper). */
static PetscErrorCode CheckUnconditional(FlxStepper ts)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;

  PetscFunctionBegin;
  for (int k = 0; k <= 91; k++) {
    const PetscReal Om = k <= 90 ? PetscPowReal(10.0, -3 + k / 10.0) : PETSC_INFINITY;
    PetscReal       rho;
    PetscCall(AlphaSpectralRadius(ts, Om, 0, &rho));
    PetscCheck(rho <= 1 + 1e-10, ts->comm, PETSC_ERR_USER_INPUT, "generalized-alpha with alpha_m %g, alpha_f %g, beta %g, gamma %g is not unconditionally stable: its spectral radius is %.10g at h omega = %g; raise -ts_genalpha_beta (beta >= (gamma + 1/2)^2 / 4 is safe) or give -ts_genalpha_radius alone", (double)al->am, (double)al->af, (double)al->beta, (double)al->gamma, (double)rho, (double)Om);
  }
  PetscFunctionReturn(0);
}

/* Parameters by family, checked against the unconditional-stability ranges. */
static PetscErrorCode AlphaSetFromOptions(FlxStepper ts)
{
  FlxStepper_Alpha *al     = (FlxStepper_Alpha *)ts->data;
  const char       *mass[] = {"lumped", "consistent", "FlxAlphaMass", "", NULL};
  PetscEnum         mc     = al->consistent ? (PetscEnum)1 : (PetscEnum)0;
  PetscInt          nr     = 16;
  PetscBool         set0 = PETSC_FALSE, set1, set2, set3, set4;

  PetscFunctionBegin;
  PetscOptionsBegin(ts->comm, NULL, "Implicit generalized-alpha family (-ts_type newmark|hht|genalpha)", "FlxStepper");
  PetscCall(PetscOptionsEnum("-ts_alpha_mass", "Mass matrix of the implicit step: lumped or consistent", "FlxStepperAlpha", mass, mc, &mc, NULL));
  PetscCall(FlxOptionsRealArray("-ts_alpha_dt_ratios", "Cycle the step through these multiples of -ts_dt (normalized to mean 1): variable steps", "FlxStepperAlpha", al->ratio, &nr, &set1));
  al->nratio = set1 ? nr : 0;
  if (al->fam == ALPHA_NEWMARK) {
    PetscCall(PetscOptionsReal("-ts_newmark_beta", "Newmark beta", "FlxStepperAlpha", al->beta, &al->beta, NULL));
    PetscCall(PetscOptionsReal("-ts_newmark_gamma", "Newmark gamma", "FlxStepperAlpha", al->gamma, &al->gamma, NULL));
  } else if (al->fam == ALPHA_HHT) {
    PetscCall(PetscOptionsReal("-ts_hht_alpha", "HHT alpha in [-1/3, 0] (0: trapezoidal)", "FlxStepperAlpha", al->hht, &al->hht, NULL));
  } else {
    PetscCall(PetscOptionsReal("-ts_genalpha_radius", "Spectral radius at infinite frequency rho_inf in [0, 1] (sets alpha_m, alpha_f, beta and gamma)", "FlxStepperAlpha", al->rho_inf, &al->rho_inf, &set0));
    PetscCall(PetscOptionsReal("-ts_genalpha_alpha_m", "alpha_m (Chung-Hulbert: weight of the old acceleration)", "FlxStepperAlpha", al->am, &al->am, &set1));
    PetscCall(PetscOptionsReal("-ts_genalpha_alpha_f", "alpha_f (Chung-Hulbert: weight of the old force)", "FlxStepperAlpha", al->af, &al->af, &set2));
    PetscCall(PetscOptionsReal("-ts_genalpha_beta", "beta (default (gamma + 1/2)^2 / 4, i.e. (1 - alpha_m + alpha_f)^2 / 4 with the default gamma)", "FlxStepperAlpha", al->beta, &al->beta, &set3));
    PetscCall(PetscOptionsReal("-ts_genalpha_gamma", "gamma (default 1/2 - alpha_m + alpha_f)", "FlxStepperAlpha", al->gamma, &al->gamma, &set4));
    al->explicit_params = (PetscBool)(set1 || set2 || set3 || set4);
    PetscCheck(!(set0 && al->explicit_params), ts->comm, PETSC_ERR_USER_INPUT, "-ts_genalpha_radius sets alpha_m, alpha_f, beta and gamma itself: give either the radius or -ts_genalpha_alpha_m, _alpha_f (and optionally _beta, _gamma), not both");
  }
  PetscOptionsEnd();
  PetscCall(FlxAlphaNewtonSetFromOptions(ts));
  PetscCall(FlxAlphaAdaptSetFromOptions(ts, &al->adapt));
  al->consistent = mc ? PETSC_TRUE : PETSC_FALSE;
  if (al->nratio) {
    PetscReal s = 0;
    for (PetscInt k = 0; k < al->nratio; k++) {
      PetscCheck(al->ratio[k] > 0, ts->comm, PETSC_ERR_USER_INPUT, "-ts_alpha_dt_ratios: every ratio must be positive");
      s += al->ratio[k] / al->nratio;
    }
    for (PetscInt k = 0; k < al->nratio; k++)
      al->ratio[k] /= s;
  }
  if (al->fam == ALPHA_NEWMARK) {
    PetscCheck(al->gamma >= 0.5 && al->gamma <= 1, ts->comm, PETSC_ERR_USER_INPUT, "-ts_newmark_gamma %g is out of range: use gamma in [1/2, 1] (1/2: second order; above: dissipative, first order)", (double)al->gamma);
    PetscCheck(al->beta >= al->gamma / 2 && al->beta <= 1, ts->comm, PETSC_ERR_USER_INPUT, "-ts_newmark_beta %g is out of range: unconditional stability needs beta in [gamma/2, 1] = [%g, 1]", (double)al->beta, (double)(al->gamma / 2));
    al->am = al->af = 0;
  } else if (al->fam == ALPHA_HHT) {
    PetscCheck(al->hht >= -1.0 / 3 - 1e-15 && al->hht <= 0, ts->comm, PETSC_ERR_USER_INPUT, "-ts_hht_alpha %g is out of range: use alpha in [-1/3, 0]", (double)al->hht);
    al->am    = 0;
    al->af    = -al->hht;
    al->beta  = (1 - al->hht) * (1 - al->hht) / 4;
    al->gamma = 0.5 - al->hht;
  } else if (!al->explicit_params) {
    PetscReal r = al->rho_inf;
    PetscCheck(r >= 0 && r <= 1, ts->comm, PETSC_ERR_USER_INPUT, "-ts_genalpha_radius %g is out of range: use rho_inf in [0, 1]", (double)r);
    al->am    = (2 * r - 1) / (r + 1);
    al->af    = r / (r + 1);
    al->gamma = 0.5 - al->am + al->af;
    al->beta  = PetscSqr(1 - al->am + al->af) / 4;
  } else {
    if (!set4) al->gamma = 0.5 - al->am + al->af;
    if (!set3) al->beta = PetscSqr(al->gamma + 0.5) / 4; /* (1 - alpha_m + alpha_f)^2 / 4 with the default gamma */
    PetscCheck(al->am <= al->af && al->af <= 0.5, ts->comm, PETSC_ERR_USER_INPUT, "-ts_genalpha_alpha_m %g, -ts_genalpha_alpha_f %g are out of range: unconditional stability needs alpha_m <= alpha_f <= 1/2", (double)al->am, (double)al->af);
    PetscCheck(al->gamma >= 0.5 - al->am + al->af - 1e-14, ts->comm, PETSC_ERR_USER_INPUT, "-ts_genalpha_gamma %g is out of range: use gamma >= 1/2 - alpha_m + alpha_f = %g (equal: second order)", (double)al->gamma, (double)(0.5 - al->am + al->af));
    PetscCheck(al->beta >= 0.25 + 0.5 * (al->af - al->am) - 1e-14, ts->comm, PETSC_ERR_USER_INPUT, "-ts_genalpha_beta %g is out of range: unconditional stability needs beta >= 1/4 + (alpha_f - alpha_m)/2 = %g", (double)al->beta, (double)(0.25 + 0.5 * (al->af - al->am)));
    PetscCall(CheckUnconditional(ts));
  }
  PetscFunctionReturn(0);
}

/* Free what AlphaSetUp made (work vectors, K_eff slots, the consistent-mass solve, the Newton path's set-up); the
   family's parameters and options stay. */
static PetscErrorCode AlphaReset(FlxStepper ts)
{
  FlxStepper_Alpha *al     = (FlxStepper_Alpha *)ts->data;
  Vec              *vecs[] = ALPHA_WORK_VECS(al);

  PetscFunctionBegin;
  for (size_t k = 0; k < sizeof(vecs) / sizeof(vecs[0]); k++)
    PetscCall(VecDestroy(vecs[k]));
  for (PetscInt i = 0; i < al->nslot; i++) {
    PetscCall(MatDestroy(&al->Kslot[i]));
    PetscCall(MatDestroy(&al->Pslot[i]));
    PetscCall(MatDestroy(&al->Sslot[i]));
    PetscCall(KSPDestroy(&al->kslot[i]));
  }
  al->nslot = al->cur = 0;
  al->Keff            = NULL;
  al->ksp             = NULL;
  PetscCall(MatDestroy(&al->McBC));
  PetscCall(KSPDestroy(&al->kspM));
  PetscCall(ISDestroy(&al->fixed));
  PetscCall(PetscFree2(al->mval, al->mkx));
  PetscCall(VecDestroy(&al->Xp));
  PetscCall(FlxAlphaNewtonReset(ts));
  PetscCall(FlxAlphaAdaptReset(&al->adapt));
  al->Mass = al->Free = NULL; /* the system's */
  al->K = al->Mc = NULL;
  al->Cd         = NULL;
  al->newton     = PETSC_FALSE;
  PetscFunctionReturn(0);
}

static PetscErrorCode AlphaDestroy(FlxStepper ts)
{
  PetscFunctionBegin;
  PetscCall(AlphaReset(ts));
  PetscCall(FlxAlphaNewtonDestroy(ts));
  PetscCall(PetscFree(ts->data));
  PetscFunctionReturn(0);
}

/* One create function for the three types: the family follows the registered name. */
PetscErrorCode FlxStepperCreate_Alpha(FlxStepper ts)
{
  FlxStepper_Alpha *al;

  PetscFunctionBegin;
  PetscCall(PetscNew(&al));
  al->fam                 = !strcmp(ts->type, FLXSTEPPERNEWMARK) ? ALPHA_NEWMARK : !strcmp(ts->type, FLXSTEPPERHHT) ? ALPHA_HHT
                                                                                                                    : ALPHA_GENALPHA;
  al->beta                = 0.25;
  al->gamma               = 0.5;
  al->hht                 = -0.1;
  al->rho_inf             = 0.8;
  ts->data                = al;
  ts->ops.setfromoptions  = AlphaSetFromOptions;
  ts->ops.setup           = AlphaSetUp;
  ts->ops.startup         = AlphaStartUp;
  ts->ops.step            = AlphaStep;
  ts->ops.getstate        = AlphaGetState;
  ts->ops.probe           = AlphaProbe;
  ts->ops.reaction        = AlphaReaction;
  ts->ops.spectral_radius = AlphaSpectralRadius;
  ts->ops.view            = AlphaView;
  ts->ops.report          = AlphaReport;
  ts->ops.describe        = AlphaDescribe;
  ts->ops.progress        = AlphaProgress;
  ts->ops.reset           = AlphaReset;
  ts->ops.destroy         = AlphaDestroy;
  PetscFunctionReturn(0);
}
