/* Generalized-alpha-SOI2 and HHT-SOI2 (seed paper 002, Jay and Negrut, eq. 13; HHT: eq. 17), the implicit steppers'
   form for constrained systems with -ts_dae_soi2 (issue 16): position constraints g(t, y) = 0, their velocity form
   g_t + G z = 0, and velocity (nonholonomic) constraints k(t, y, z) = 0, with a force f(t, y, z, lambda, psi) that
   may be nonlinear in the multipliers (the system's general constraint force; otherwise f = f_0 - G^T lambda -
   Kv^T psi). One step (t_0, y_0, z_0, a_alpha, lambda_0, psi_0) -> (t_1, y_1, z_1, a_{1+alpha}, lambda_1, psi_1):

     y_1  = y_0 + h z_0 + h^2/2 ((1 - 2 beta) a_alpha + 2 beta a~)                                        (13a)
     z~_1 = z_0 + h ((1 - gamma) a_alpha + gamma a~),  z_1 = z_0 + h ((1 - gamma) a_alpha + gamma a)       (13b, c)
     (1 - am) M_{1+alpha} a~ + am M_alpha a_alpha = (1 - af) f(t_1, y_1, z_1, lambda~, psi~) + af f_0      (13d)
     (1 - am) M_{1+alpha} a  + am M_alpha a_alpha = (1 - af) f(t_1, y_1, z_1, lambda, psi) + af f_0        (13e)
     g(t_1, y_1) = 0,  g_t + G z_1 = 0,  k(t_1, y_1, z~_1) = 0,  k(t_1, y_1, z_1) = 0                     (13f-i)

   a = a_{1+alpha} and (lambda, psi) hold the velocity-level constraints (13g, i), the auxiliary a~ = a + delta~ and
   (lambda~, psi~) the position constraint and the velocity constraints at z~ (13f, h); the auxiliaries are local to
   the step. The iteration (without the O(h) couplings of the two sets, so linear at a rate O(h)) alternates two
   saddle-point solves, with C = [G; Kv] the constraint rows (position and velocity constraints stacked, each rank
   its rows of G then its rows of Kv) and U = [(dfc/dlambda)^T; (dfc/dpsi)^T] (= C for the additive force):
     [[J, U^T], [C, 0]] [da; (1 - af) d(lambda, psi)] = [-r_a; -(g_t + G z_1; k(z_1)) / (gamma h)]
     [[(1 - am) M, U~^T], [C, 0]] [ddelta; (1 - af) d(lambda~, psi~)] = [-r_d; -(g / (beta h^2) - (g_t + G z_1) /
         (gamma h); (k(z~_1) - k(z_1)) / (gamma h))]
   with r_a the residual of (13e), J its tangent in a (the tangent of f_int and of fc in x and v, and (1 - am) M),
   r_d = (1 - am) M delta~ + (1 - af) (fc(lambda~, psi~) - fc(lambda, psi)) the difference (13d) - (13e), and U~
   at (lambda~, psi~); the targets of the second solve discount what the first one's correction does to y_1 and z~_1.
   Stopped when y_1 and z_1 stop changing (-ts_dae_rtol). M_{1+alpha} (seed 002 section 3) and eq. (14) on step
   changes: alphadae.c. The start: a_alpha = a_0 with the consistent a_0, lambda_0, psi_0 (Newton when the force is
   nonlinear in the multipliers, from FlxStepperSetInitialMultipliers). */
#include "alphadae.h"

struct _AlphaSOI2 {
  Mat       Ms;                         /* (1 - am) M_{1+alpha} (M(t, x) systems) */
  Vec       Md;                         /* (1 - am) times the lumped mass */
  Vec       Dt, Dd;                     /* delta~ = a~ - a and its correction */
  PetscBool hasv;                       /* velocity constraints */
  PetscInt  mg, mk;                     /* this rank's rows of G and Kv */
  Mat       Lt, Pt;                     /* (dfc/dlambda)^T, (dfc/dpsi)^T of a general force */
  Mat       C, U;                       /* [G; Kv] and [Lt; Pt] (without velocity constraints: G1, and G1 or Lt) */
  Vec       Mul1, MulT, S1, S2, Sd, Sw; /* stacked: (lambda, psi) of the iterate, (lambda~, psi~), the right-hand sides, a correction, work */
  Vec       LamT, PsiT, Kw, Kw2, Z;     /* lambda~, psi~; k(z_1), k(z~_1); z~_1 */
};

/* S = the rows of A (this rank's) then those of B, one AIJ matrix: created at the first call (reuse
   MAT_INITIAL_MATRIX) with the union of the patterns, then only the values. Collective. */
static PetscErrorCode StackRows(Mat A, Mat B, MatReuse reuse, Mat *S)
{
  PetscInt           ma, mb, n, N, alo, blo, lo, nc;
  const PetscInt    *cols;
  const PetscScalar *vals;

  PetscFunctionBegin;
  PetscCall(MatGetLocalSize(A, &ma, &n));
  PetscCall(MatGetLocalSize(B, &mb, NULL));
  PetscCall(MatGetSize(A, NULL, &N));
  PetscCall(MatGetOwnershipRange(A, &alo, NULL));
  PetscCall(MatGetOwnershipRange(B, &blo, NULL));
  if (reuse == MAT_INITIAL_MATRIX) {
    PetscInt *dnz, *onz, cs, ce;
    MPI_Comm  comm;
    PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
    PetscCall(MatGetOwnershipRangeColumn(A, &cs, &ce));
    PetscCall(PetscCalloc2(ma + mb + 1, &dnz, ma + mb + 1, &onz));
    for (PetscInt i = 0; i < ma + mb; i++) {
      Mat      X = i < ma ? A : B;
      PetscInt r = i < ma ? alo + i : blo + i - ma;
      PetscCall(MatGetRow(X, r, &nc, &cols, NULL));
      for (PetscInt j = 0; j < nc; j++) {
        if (cols[j] >= cs && cols[j] < ce)
          dnz[i]++;
        else
          onz[i]++;
      }
      PetscCall(MatRestoreRow(X, r, &nc, &cols, NULL));
    }
    PetscCall(MatCreateAIJ(comm, ma + mb, n, PETSC_DETERMINE, N, 0, dnz, 0, onz, S));
    PetscCall(PetscFree2(dnz, onz));
  }
  PetscCall(MatGetOwnershipRange(*S, &lo, NULL));
  for (PetscInt i = 0; i < ma + mb; i++) {
    Mat      X = i < ma ? A : B;
    PetscInt r = i < ma ? alo + i : blo + i - ma, row = lo + i;
    PetscCall(MatGetRow(X, r, &nc, &cols, &vals));
    PetscCall(MatSetValues(*S, 1, &row, nc, cols, vals, INSERT_VALUES));
    PetscCall(MatRestoreRow(X, r, &nc, &cols, &vals));
  }
  PetscCall(MatAssemblyBegin(*S, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*S, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

/* out = (lam; psi) in the stacked layout, or lam without velocity constraints. Not collective. */
static PetscErrorCode Join(AlphaSOI2 s, Vec lam, Vec psi, Vec out)
{
  PetscScalar       *o;
  const PetscScalar *a;

  PetscFunctionBegin;
  if (!s->hasv) {
    PetscCall(VecCopy(lam, out));
    PetscFunctionReturn(0);
  }
  PetscCall(VecGetArrayWrite(out, &o));
  PetscCall(VecGetArrayRead(lam, &a));
  PetscCall(PetscArraycpy(o, a, s->mg));
  PetscCall(VecRestoreArrayRead(lam, &a));
  PetscCall(VecGetArrayRead(psi, &a));
  PetscCall(PetscArraycpy(o + s->mg, a, s->mk));
  PetscCall(VecRestoreArrayRead(psi, &a));
  PetscCall(VecRestoreArrayWrite(out, &o));
  PetscFunctionReturn(0);
}

/* (lam; psi) = in. Not collective. */
static PetscErrorCode Split(AlphaSOI2 s, Vec in, Vec lam, Vec psi)
{
  const PetscScalar *i;
  PetscScalar       *a;

  PetscFunctionBegin;
  if (!s->hasv) {
    PetscCall(VecCopy(in, lam));
    PetscFunctionReturn(0);
  }
  PetscCall(VecGetArrayRead(in, &i));
  PetscCall(VecGetArrayWrite(lam, &a));
  PetscCall(PetscArraycpy(a, i, s->mg));
  PetscCall(VecRestoreArrayWrite(lam, &a));
  PetscCall(VecGetArrayWrite(psi, &a));
  PetscCall(PetscArraycpy(a, i + s->mg, s->mk));
  PetscCall(VecRestoreArrayWrite(psi, &a));
  PetscCall(VecRestoreArrayRead(in, &i));
  PetscFunctionReturn(0);
}

/* The constraint rows C = [G1; Kv1] (G1 and Kv1 evaluated). Collective. */
static PetscErrorCode Rows(AlphaDAE *d)
{
  AlphaSOI2 s = d->soi2;

  PetscFunctionBegin;
  if (s->hasv) PetscCall(StackRows(d->G1, d->Kv1, MAT_REUSE_MATRIX, &s->C));
  PetscFunctionReturn(0);
}

/* U = [(dfc/dlambda)^T; (dfc/dpsi)^T] at (lam, psi) and (J not NULL) J += dfc/dx + shiftV dfc/dv, at (t, x, v); the
   additive force: U = C, J += d(G^T lambda)/dx (the hessian callback). Collective. */
static PetscErrorCode ForceRows(FlxStepper ts, AlphaDAE *d, PetscReal t, Vec x, Vec v, Vec lam, Vec psi, PetscReal shiftV, Mat J)
{
  AlphaSOI2 s = d->soi2;

  PetscFunctionBegin;
  if (!d->general) {
    PetscCall(FlxSystemComputeConstraintForceJacobian(ts->sys, t, x, v, lam, psi, d->G1, d->Kv1, d->G1, d->Kv1, shiftV, J));
    PetscFunctionReturn(0);
  }
  PetscCall(FlxSystemComputeConstraintForceJacobian(ts->sys, t, x, v, lam, psi, d->G1, d->Kv1, s->Lt, s->Pt, shiftV, J));
  if (s->hasv) PetscCall(StackRows(s->Lt, s->Pt, MAT_REUSE_MATRIX, &s->U));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaSOI2SetUp(FlxStepper ts, AlphaDAE *d)
{
  AlphaSOI2 s;
  Mat       Kv, Kx;
  Vec       mass;

  PetscFunctionBegin;
  PetscCall(PetscNew(&s));
  d->soi2 = s;
  PetscCall(FlxSystemGetMass(ts->sys, &mass, NULL));
  PetscCall(FlxSystemHasVelocityConstraints(ts->sys, &s->hasv));
  PetscCall(FlxSystemHasConstraintForce(ts->sys, &d->general));
  PetscCall(MatGetLocalSize(d->G1, &s->mg, NULL));
  if (s->hasv) { /* psi, Kv at the initial state and the stacked rows */
    PetscCall(FlxSystemGetVelocityConstraintMatrices(ts->sys, &Kv, &Kx));
    PetscCall(MatGetLocalSize(Kv, &s->mk, NULL));
    PetscCall(MatDuplicate(Kv, MAT_DO_NOT_COPY_VALUES, &d->Kv1));
    PetscCall(FlxSystemCreateVelocityMultiplierVector(ts->sys, &d->Psi));
    PetscCall(VecDuplicate(d->Psi, &d->Psi1));
    PetscCall(VecDuplicate(d->Psi, &s->PsiT));
    PetscCall(VecDuplicate(d->Psi, &s->Kw));
    PetscCall(VecDuplicate(d->Psi, &s->Kw2));
    PetscCall(VecDuplicate(mass, &s->Z));
    PetscCall(FlxSystemComputeVelocityConstraintJacobian(ts->sys, ts->t0, ts->x0, ts->v0, d->Kv1, NULL));
    PetscCall(StackRows(d->G1, d->Kv1, MAT_INITIAL_MATRIX, &s->C));
  } else
    s->C = d->G1;
  if (d->general) { /* the force's derivatives: matrices of G's and Kv's patterns */
    PetscCall(MatDuplicate(d->G1, MAT_COPY_VALUES, &s->Lt));
    if (s->hasv) PetscCall(MatDuplicate(d->Kv1, MAT_COPY_VALUES, &s->Pt));
    if (s->hasv)
      PetscCall(StackRows(s->Lt, s->Pt, MAT_INITIAL_MATRIX, &s->U));
    else
      s->U = s->Lt;
  } else
    s->U = s->C;
  PetscCall(MatCreateVecs(s->C, NULL, &s->Mul1));
  {
    Vec *v[] = {&s->MulT, &s->S1, &s->S2, &s->Sd, &s->Sw};
    for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
      PetscCall(VecDuplicate(s->Mul1, v[k]));
  }
  PetscCall(VecDuplicate(d->Lam, &s->LamT));
  PetscCall(VecDuplicate(mass, &s->Dt));
  PetscCall(VecDuplicate(mass, &s->Dd));
  PetscCall(VecDuplicate(mass, &s->Md));
  PetscCall(FlxSaddleCreate(ts, d->diag ? d->Jd : NULL, d->diag ? NULL : d->J, s->C, &d->sp)); /* [[J, U^T], [C, 0]] */
  if (d->full) {                                                                               /* [[(1 - am) M, U~^T], [C, 0]] */
    PetscCall(MatDuplicate(d->Mfull, MAT_COPY_VALUES, &s->Ms));
    PetscCall(FlxSaddleCreate(ts, NULL, s->Ms, s->C, &d->sp2));
  } else
    PetscCall(FlxSaddleCreate(ts, mass, NULL, s->C, &d->sp2));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaSOI2Destroy(AlphaDAE *d)
{
  AlphaSOI2 s = d->soi2;

  PetscFunctionBegin;
  if (!s) PetscFunctionReturn(0);
  PetscCall(MatDestroy(&s->Ms));
  if (s->U != s->C && s->U != s->Lt) PetscCall(MatDestroy(&s->U));
  if (s->C != d->G1) PetscCall(MatDestroy(&s->C));
  PetscCall(MatDestroy(&s->Lt));
  PetscCall(MatDestroy(&s->Pt));
  {
    Vec *v[] = {&s->Md, &s->Dt, &s->Dd, &s->Mul1, &s->MulT, &s->S1, &s->S2, &s->Sd, &s->Sw, &s->LamT, &s->PsiT, &s->Kw, &s->Kw2, &s->Z};
    for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
      PetscCall(VecDestroy(v[k]));
  }
  PetscCall(PetscFree(d->soi2));
  PetscFunctionReturn(0);
}

/* The mass block (1 - am) M_{1+alpha} of the second solve, or M itself (scale 1, the start). */
static PetscErrorCode SetMassBlock(AlphaDAE *d, PetscReal scale)
{
  AlphaSOI2 s = d->soi2;

  PetscFunctionBegin;
  if (d->full) {
    PetscCall(MatCopy(d->Mi, s->Ms, SAME_NONZERO_PATTERN));
    PetscCall(MatScale(s->Ms, scale));
  } else
    PetscCall(VecAXPBY(s->Md, scale, 0.0, d->Mass));
  PetscCall(FlxSaddleSetOperators(d->sp2, d->full ? NULL : s->Md, d->full ? s->Ms : NULL, s->U, s->C));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaSOI2Consistent(FlxStepper ts, AlphaDAE *d)
{
  AlphaSOI2 s     = d->soi2;
  PetscInt  maxit = PetscMax(ts->dae.maxit, 20), it;
  PetscReal dm = 0, mn = 0;

  PetscFunctionBegin;
  /* the acceleration-level rows: G a + (G_x(v, v) + 2 G_t v + g_tt) = 0, Kv a + (Kx v + k_t) = 0, into S2 */
  PetscCall(FlxSystemComputeConstraintJacobian(ts->sys, ts->t0, d->X, d->G1));
  PetscCall(FlxSystemComputeConstraintCurvature(ts->sys, ts->t0, d->X, d->V, d->Gv));
  if (s->hasv) {
    PetscCall(FlxSystemComputeVelocityConstraintJacobian(ts->sys, ts->t0, d->X, d->V, d->Kv1, NULL));
    PetscCall(FlxSystemComputeVelocityConstraintRemainder(ts->sys, ts->t0, d->X, d->V, s->Kw));
  }
  PetscCall(Join(s, d->Gv, s->Kw, s->S2));
  PetscCall(Rows(d));
  PetscCall(VecZeroEntries(d->Lam)); /* the guesses: FlxStepperSetInitialMultipliers, or zero */
  if (ts->dae.lambda0) PetscCall(VecCopy(ts->dae.lambda0, d->Lam));
  if (d->Psi) PetscCall(VecZeroEntries(d->Psi));
  if (ts->dae.psi0 && d->Psi) PetscCall(VecCopy(ts->dae.psi0, d->Psi));
  PetscCall(Join(s, d->Lam, d->Psi, s->Mul1));
  PetscCall(VecZeroEntries(d->A));
  if (d->full) { /* M(t_0, x_0), also as the inertia's */
    PetscCall(FlxSystemComputeMassMatrix(ts->sys, ts->t0, d->X, &d->Mfull));
    if (d->Mi != d->Mfull) PetscCall(MatCopy(d->Mfull, d->Mi, SAME_NONZERO_PATTERN));
  }
  for (it = 0; it < maxit; it++) { /* Newton on M a + f_int + fc(lambda, psi) = f_ext and the rows */
    PetscCall(Split(s, s->Mul1, d->Lam, d->Psi));
    PetscCall(FlxAlphaDAEForce(ts, d, ts->t0, d->X, d->V, d->Lam, d->Psi, d->R1));
    PetscCall(FlxAlphaDAEMassMult(d, d->A, d->Tv));
    PetscCall(VecAXPY(d->R1, -1.0, d->Tv));
    PetscCall(VecPointwiseMult(d->R1, d->R1, d->Free));
    PetscCall(MatMult(s->C, d->A, s->S1)); /* -(C a + w) */
    PetscCall(VecAXPY(s->S1, 1.0, s->S2));
    PetscCall(VecScale(s->S1, -1.0));
    PetscCall(ForceRows(ts, d, ts->t0, d->X, d->V, d->Lam, d->Psi, 0, NULL));
    PetscCall(SetMassBlock(d, 1.0));
    PetscCall(FlxSaddleSolve(d->sp2, d->R1, s->S1, d->Da, s->Sd, "the consistent initial acceleration and multipliers", ts->t0));
    PetscCall(VecAXPY(d->A, 1.0, d->Da));
    PetscCall(VecAXPY(s->Mul1, 1.0, s->Sd));
    PetscCall(VecNorm(s->Sd, NORM_INFINITY, &dm));
    PetscCall(VecNorm(s->Mul1, NORM_INFINITY, &mn));
    if (dm <= 1e-13 * PetscMax(mn, 1)) break;
  }
  PetscCheck(it < maxit, ts->comm, PETSC_ERR_NOT_CONVERGED, "the consistent initial acceleration and multipliers at t = %g s: Newton did not converge in %" PetscInt_FMT " iterations (last change of the multipliers %g): the constraint force is nonlinear in them; give guesses near the solution (FlxStepperSetInitialMultipliers)", (double)ts->t0, maxit, (double)dm);
  PetscCall(Split(s, s->Mul1, d->Lam, d->Psi));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaSOI2Attempt(FlxStepper ts, AlphaDAE *d, PetscReal t, PetscReal h, PetscBool *conv)
{
  AlphaSOI2       s = d->soi2;
  const PetscReal b = d->beta, gm = d->gamma, t1 = t + h, bh2 = b * h * h;
  PetscReal       dx = 0, dxold = PETSC_MAX_REAL, dv = 0, xn, vn, tol = ts->dae.rtol;
  PetscInt        k;

  PetscFunctionBegin;
  *conv = PETSC_FALSE;
  PetscCall(VecCopy(d->Aa, d->Anew));
  PetscCall(Join(s, d->Lam, d->Psi, s->Mul1));
  PetscCall(VecCopy(s->Mul1, s->MulT)); /* lambda~ = lambda_n: mu~ = 0 */
  PetscCall(VecZeroEntries(s->Dt));
  for (k = 0;; k++) {
    PetscCall(VecWAXPY(d->Tv, 1.0, d->Anew, s->Dt)); /* a~ = a + delta~ */
    PetscCall(VecWAXPY(d->X1, h, d->V, d->X));
    PetscCall(VecAXPBYPCZ(d->X1, h * h / 2 * (1 - 2 * b), bh2, 1.0, d->Aa, d->Tv));
    PetscCall(VecWAXPY(d->V1, h * (1 - gm), d->Aa, d->V));
    PetscCall(VecAXPY(d->V1, h * gm, d->Anew));
    if (k) {
      PetscBool stalled = (PetscBool)(dx >= dxold);
      PetscCall(VecNorm(d->X1, NORM_INFINITY, &xn));
      PetscCall(VecNorm(d->V1, NORM_INFINITY, &vn));
      const PetscReal xs = FlxDAETestScale(xn, ts->dae.xscale), vs = FlxDAETestScale(vn, ts->dae.vscale);
      if ((bh2 * dx <= tol * xs || (stalled && bh2 * dx <= 100 * tol * xs)) && (h * gm * dv <= tol * vs || stalled)) {
        *conv = PETSC_TRUE; /* the scales grow at the commit (alphadae.c) */
        break;
      }
      if (k >= ts->dae.maxit || PetscIsInfOrNanReal(dx)) break;
      dxold = dx;
    }
    PetscCall(FlxAlphaDAEMassAt(ts, d, t1, d->X1));
    PetscCall(FlxSystemComputeConstraintJacobian(ts->sys, t1, d->X1, d->G1));
    if (s->hasv) PetscCall(FlxSystemComputeVelocityConstraintJacobian(ts->sys, t1, d->X1, d->V1, d->Kv1, NULL));
    PetscCall(Rows(d));
    PetscCall(Split(s, s->Mul1, d->Lam1, d->Psi1));
    /* -r_a = (1 - af) f(lambda, psi) + af f_0 - am M a_alpha - (1 - am) M a (13e) */
    PetscCall(FlxAlphaDAEForce(ts, d, t1, d->X1, d->V1, d->Lam1, d->Psi1, d->R1));
    PetscCall(VecScale(d->R1, 1 - d->af));
    PetscCall(VecAXPY(d->R1, d->af, d->Fold));
    PetscCall(VecAXPY(d->R1, -d->am, d->MAa));
    PetscCall(FlxAlphaDAEMassMult(d, d->Anew, d->Tv));
    PetscCall(VecAXPY(d->R1, -(1 - d->am), d->Tv));
    PetscCall(VecPointwiseMult(d->R1, d->R1, d->Free));
    /* the velocity-level rows (g_t + G z_1; k(z_1)) / (gamma h) into S1 (negated), the position-level ones into S2 */
    PetscCall(FlxSystemComputeConstraintRate(ts->sys, t1, d->X1, d->R2));
    PetscCall(MatMultAdd(d->G1, d->V1, d->R2, d->R2));
    PetscCall(VecScale(d->R2, -1.0 / (gm * h)));
    PetscCall(FlxSystemComputeConstraint(ts->sys, t1, d->X1, d->Gv));
    PetscCall(VecAXPBY(d->Gv, -1.0, -1.0 / bh2, d->R2)); /* -(g / (beta h^2) - (g_t + G z_1) / (gamma h)) */
    if (s->hasv) {                                       /* k(z_1), k(z~_1), z~_1 = z_1 + gamma h delta~ */
      PetscCall(FlxSystemComputeVelocityConstraint(ts->sys, t1, d->X1, d->V1, s->Kw));
      PetscCall(VecWAXPY(s->Z, gm * h, s->Dt, d->V1));
      PetscCall(FlxSystemComputeVelocityConstraint(ts->sys, t1, d->X1, s->Z, s->Kw2));
      PetscCall(VecAXPY(s->Kw2, -1.0, s->Kw));
      PetscCall(VecScale(s->Kw2, -1.0 / (gm * h)));
      PetscCall(VecScale(s->Kw, -1.0 / (gm * h)));
    }
    PetscCall(Join(s, d->R2, s->Kw, s->S1));
    PetscCall(Join(s, d->Gv, s->Kw2, s->S2));
    if (!k || !ts->dae.chord) { /* J and U at the iterate; -ts_dae_chord: the first iterate's for the step */
      PetscCall(FlxAlphaDAETangent(ts, d, t1, h, d->Lam1, d->Psi1, d->general ? s->Lt : d->G1, d->general ? s->Pt : d->Kv1));
      if (d->general && s->hasv) PetscCall(StackRows(s->Lt, s->Pt, MAT_REUSE_MATRIX, &s->U));
      PetscCall(FlxAlphaDAESetNewton(d, d->sp, s->U, s->C));
    }
    PetscCall(FlxSaddleSolve(d->sp, d->R1, s->S1, d->Da, s->Sd, "the SOI2 step (velocity-level constraints)", t1));
    PetscCall(VecAXPY(d->Anew, 1.0, d->Da));
    PetscCall(VecAXPY(s->Mul1, 1.0 / (1 - d->af), s->Sd));
    /* -r_d = -(1 - am) M delta~ - (1 - af) (fc(lambda~, psi~) - fc(lambda, psi)), (13d) - (13e) */
    PetscCall(Split(s, s->Mul1, d->Lam1, d->Psi1));
    PetscCall(Split(s, s->MulT, s->LamT, s->PsiT));
    PetscCall(FlxSystemComputeConstraintForce(ts->sys, t1, d->X1, d->V1, d->Lam1, d->Psi1, d->G1, d->Kv1, d->R1));
    PetscCall(FlxSystemComputeConstraintForce(ts->sys, t1, d->X1, d->V1, s->LamT, s->PsiT, d->G1, d->Kv1, d->Tv));
    PetscCall(VecAXPBY(d->R1, -(1 - d->af), 1 - d->af, d->Tv));
    PetscCall(FlxAlphaDAEMassMult(d, s->Dt, d->Tv));
    PetscCall(VecAXPY(d->R1, -(1 - d->am), d->Tv));
    PetscCall(VecPointwiseMult(d->R1, d->R1, d->Free));
    if (!k || !ts->dae.chord) {
      if (d->general) PetscCall(ForceRows(ts, d, t1, d->X1, d->V1, s->LamT, s->PsiT, 0, NULL));
      PetscCall(SetMassBlock(d, 1 - d->am));
    }
    PetscCall(FlxSaddleSolve(d->sp2, d->R1, s->S2, s->Dd, s->Sd, "the SOI2 step (position-level constraints)", t1));
    PetscCall(VecAXPY(s->Dt, 1.0, s->Dd));
    PetscCall(VecAXPY(s->MulT, 1.0 / (1 - d->af), s->Sd));
    PetscCall(VecWAXPY(d->Tv, 1.0, d->Da, s->Dd));
    PetscCall(VecNorm(d->Tv, NORM_INFINITY, &dx));
    PetscCall(VecNorm(d->Da, NORM_INFINITY, &dv));
  }
  PetscCall(Split(s, s->Mul1, d->Lam1, d->Psi1));
  d->its += k;
  d->itmax = PetscMax(d->itmax, k);
  PetscFunctionReturn(0);
}
