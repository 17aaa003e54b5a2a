/* Newton iterations of the implicit generalized-alpha family (Newmark, HHT, generalized-alpha) on nonlinear
   systems: finite rotations, co-rotational elements (docs/nonlinear.md, "Implicit steppers on nonlinear models").

   Formulation: the Lie-group generalized-alpha method of Bruls, Cardona and Arnold (Mech. Mach. Theory 48 (2012)
   121, eqs. 11-14; Arnold and Bruls, Multibody Syst. Dyn. 18 (2007) 185, eqs. 5-6), with equilibrium at t_{n+1}
   and the recursion for the algorithmic acceleration a*:

     x_{n+1} = x_n (+) dx,  dx = h v_n + h^2 (1/2 - beta) a*_n + h^2 beta a*_{n+1}
     v_{n+1} = v_n + h (1 - gamma) a*_n + h gamma a*_{n+1}
     (1 - alpha_m) a*_{n+1} + alpha_m a*_n = (1 - alpha_f) a_{n+1} + alpha_f a_n
     r(dx) = f_ext(t_{n+1}) - f_int(t_{n+1}, x_{n+1}, v_{n+1}) - M (a_{n+1} + a_M v_{n+1}) = 0

   (alpha_m, alpha_f weight the old state as in alpha.c; Newmark: alpha_m = alpha_f = 0, a* = a; HHT: alpha_m = 0).
   The rotational components of v, a, a* are the spatial angular velocity and its derivative, and the rotational
   part of dx is the step's spatial rotation increment: R_{n+1} = exp(skew(dtheta)) R_n. Spatial vectors of all
   nodes live in one fixed frame, so v, a and a* add as vectors, and with the spherical nodal rotary inertia j I of
   nonlinear models the rotational equations j omega' = m have no gyroscopic term: the update above is the
   Lie-group method written with right-trivialized (spatial) velocities. It is second order (the exponential of
   the integrated increment misses only the h^3 Magnus commutator per step; test alpha_rotation_orders).
   Why this form and not the Chung-Hulbert weighting of forces of the linear path: the residual is the true
   out-of-balance force at t_{n+1} (what the convergence test and the user see), the physical acceleration is a
   state (output, reactions), massless DOFs are in static equilibrium at t_{n+1}, and no force of the old state
   is carried. For a linear system with M a_0 consistent the two are the same method (identical iterates up to
   round-off: test implicit_newton).

   Newton: the unknown is dx. A correction delta solves J delta = r with
     J = df_int/dx + gamma/(beta h) df_int/dv + (c_A + gamma/(beta h) a_M) M T^-1(dtheta),
     c_A = (1 - alpha_m) / ((1 - alpha_f) beta h^2)
   (FlxSystemComputeJacobian with shiftV = gamma/(beta h), shiftA = c_A, plus the blocks M (T^-1 - I) of the
   rotational DOFs): delta is the spatial correction of the configuration x_{n+1}, and the step increment moves by
   T^-1(dtheta) delta (T the tangent of the rotation vector, FlxRotTangentInverse), so x_{n+1} = x_n (+) dx is
   rebuilt from x_n in every iteration. The damping matrix's columns are not multiplied by T^-1 (only the
   convergence rate notices). Prescribed DOFs: rows and columns of the identity (scaled to the mean diagonal), the
   motion imposed in the predictor. Predictor: a_{n+1} = a_n.
   - full Newton: the tangent is assembled and factored in every iteration;
   - modified Newton: the tangent is kept over iterations and steps, and re-formed when the step size changes, an
     iteration reduces the out-of-balance force by less than -ts_newton_refresh (0.25), or a step was cut; a try
     that fails from an earlier tangent is repeated once with a fresh one before the step is halved.
   Convergence (as flexure static): |r|_2 <= rtol f_ref + atol and the last correction |delta|_2 <= stol |dx|_2,
   f_ref the largest of |f_ext|, |f_int|, |M a| (free DOFs) over the converged states so far and the iterate; or,
   when the force stalls at the round-off of stiff members, the correction at round-off (1e-13 (|x| + |dx|); or, for a
   state itself at round-off, |x| + |dx| <= 1e-10 L sqrt(N), below 1e-13 L sqrt(N), L the model's size from
   FlxSystemGetRoundoff, N the number of DOFs: a model at rest) or its
   work |delta . r| below 1e-14 of the first one.
   Step control: the stepper core's step (-ts_dt, or its -ts_alpha_dt_ratios multiples) is kept, so output frames
   and histories land at the requested times; inside it a step whose Newton fails (iterations, a non-finite or
   growing residual, a failed linear solve, a degenerate element) is retried with half the step, and after
   -ts_newton_grow converged sub-steps the sub-step doubles back (up to the core's step). Below
   -ts_newton_min_dt or after -ts_newton_max_cuts halvings the run stops cleanly (FLX_STEPPER_DIVERGED_NEWTON)
   with the time, the step, the residual history of the last try and a hint. A change of sub-step applies eq. (14)
   of seed paper 002 to a*_n, as the linear path.

   SNES is not used: its iterates are vectors updated additively (x + lambda delta); here the iterate is
   x_n (+) dx with rotations composed, and a*, v and a of the method are functions of dx, so a SNES would iterate on
   dx with x rebuilt inside its residual, its line searches and its convergence tests would see the mixed
   translation/rotation increment rather than the out-of-balance force at the state, and its failure handling
   would not feed the step halving. The Newton here is short; the linear algebra is KSP (prefix ts_: LU by MUMPS by
   default, any KSP/PC by options), set up once, refactored only when the tangent changes.

   Energy ledger: kinetic 1/2 v.M v (with the spherical rotary inertia: 1/2 j |omega|^2), strain energy from the
   system (FlxSystemComputeStrainEnergy; 1/2 x.K x for a linear system), external work by the trapezoidal rule on
   the step increments (moments times the spatial rotation increment), damping work h <v>.C <v>; the rest is the
   method's numerical dissipation (for a nonlinear system not exactly zero for trapezoidal Newmark, which conserves
   energy only for linear ones). No allocation in the time loop: the work vectors are the linear path's idle
   ones. Options, set-up, view and report: alphanewtonsetup.c. */
#include <flexure/rotation.h>
#include "alpha.h"

/* Set the moving DOFs' entries of y to vals (NULL: zero). */
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

/* Ledger sums of the state (local): kinetic 1/2 v.M v without the moving DOFs, and the strain energy (the
   system's, summed over the ranks: on rank 0; or 1/2 x.K x). */
static PetscErrorCode StateEnergy(FlxStepper ts, PetscReal lsum[2])
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;

  PetscFunctionBegin;
  PetscCall(VecPointwiseMult(al->W, al->Mass, al->V));
  PetscCall(SetMoving(al, al->W, NULL));
  PetscCall(FlxAlphaLocalDot(al->V, al->W, &lsum[0]));
  if (al->nw->tensor) { /* the tensor nodes' omega^T J omega in place of the lumped entries */
    PetscReal c;
    PetscCall(FlxSystemComputeInertiaCorrection(ts->sys, al->X, al->V, al->V, &c));
    lsum[0] += c;
  }
  lsum[0] *= 0.5;
  if (al->nw->energy) {
    PetscReal U;
    PetscCall(FlxSystemComputeStrainEnergy(ts->sys, al->X, &U, NULL));
    lsum[1] = ts->rank ? 0 : U;
  } else {
    PetscCall(MatMult(al->K, al->X, al->W));
    PetscCall(FlxAlphaLocalDot(al->X, al->W, &lsum[1]));
    lsum[1] *= 0.5;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaNewtonStartUp(FlxStepper ts)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton    nw = al->nw;
  PetscReal         s[3], g[3];

  PetscFunctionBegin;
  PetscCall(VecPointwiseMult(al->X, ts->x0, al->Free));
  PetscCall(VecPointwiseMult(al->V, ts->v0, al->Free));
  {
    Vec y[2] = {al->X, al->V};
    PetscCall(FlxSystemApplyPrescribedMotion(ts->sys, ts->t0, 0, 1, y));
  }
  PetscCall(FlxSystemComputeExternalForce(ts->sys, ts->t0, al->Fext));
  PetscCall(FlxSystemComputeInternalForce(ts->sys, ts->t0, al->X, al->V, nw->Fint));
  /* consistent a_0 = M^-1 (f_ext - f_int - a_M M v) on the free DOFs with mass, the motion's on moving ones */
  PetscCall(VecPointwiseMult(al->W, al->Mass, al->V));
  PetscCall(VecAXPBYPCZ(al->W, 1.0, -1.0, -al->aM, al->Fext, nw->Fint));
  PetscCall(VecPointwiseMult(al->Aphys, al->Minv, al->W));
  if (nw->tensor) { /* tensor nodes: J (a + a_M v) + v x J v = f_ext - f_int */
    PetscCall(VecWAXPY(nw->R, -1.0, nw->Fint, al->Fext));
    PetscCall(FlxSystemSolveInertia(ts->sys, al->X, al->V, 0, nw->R, al->Aphys));
  }
  PetscCall(FlxSystemApplyPrescribedMotion(ts->sys, ts->t0, 2, 2, &al->Aphys));
  PetscCall(VecCopy(al->Aphys, al->A));
  PetscCall(VecCopy(al->A, al->Aold));
  if (al->nmov) {
    const PetscScalar *f;
    PetscCall(VecGetArrayRead(nw->Fint, &f));
    for (PetscInt j = 0; j < al->nmov; j++)
      nw->fmov[j] = PetscRealPart(f[al->mov[j]]);
    PetscCall(VecRestoreArrayRead(nw->Fint, &f));
  }
  { /* the force scale of the convergence test starts from the initial state */
    Vec v[3] = {al->Fext, nw->Fint, al->W};
    PetscCall(VecPointwiseMult(al->W, al->Mass, al->Aphys));
    for (int k = 0; k < 3; k++) {
      PetscCall(VecPointwiseMult(v[k], v[k], al->Free));
      PetscCall(VecNorm(v[k], NORM_2, &g[k]));
    }
    PetscCall(FlxSystemComputeExternalForce(ts->sys, ts->t0, al->Fext)); /* unmasked again, for the work */
    nw->fref = PetscMax(g[0], PetscMax(g[1], g[2]));
  }
  {
    PetscReal L;
    PetscInt  N;
    PetscCall(FlxSystemGetRoundoff(ts->sys, &L, NULL));
    PetscCall(VecGetSize(al->X, &N));
    nw->dfloor = 1e-13 * L * PetscSqrtReal((PetscReal)N);
  }
  PetscCall(StateEnergy(ts, s));
  ts->lsum[0] = s[0];
  ts->lsum[1] = s[1];
  ts->lsum[2] = ts->lsum[3] = 0;
  al->hprev                 = 0;
  nw->level = nw->ngood = 0;
  nw->Jvalid            = PETSC_FALSE;
  nw->nsub = nw->nits = nw->itsmax = nw->itsstep = nw->ncuts = nw->njac = nw->nres = nw->nfloor = 0;
  nw->hmin                                                                                      = PETSC_MAX_REAL;
  nw->hcur                                                                                      = ts->dt * (al->nratio ? al->ratio[0] : 1);
  PetscCall(FlxAlphaAdaptStart(&al->adapt, al->X));
  nw->tres = nw->tjac = nw->tsol = 0;
  PetscFunctionReturn(0);
}

/* The predictor of a sub-step of size h: a_{n+1} = a_n, hence a*_{n+1} and dx; the moving DOFs take the motion's
   increment (mval holds the motion at t_{n+1}). */
static PetscErrorCode Predict(FlxStepper ts, PetscReal h)
{
  FlxStepper_Alpha  *al = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton     nw = al->nw;
  const PetscReal    be = al->beta, am = al->am;
  const PetscScalar *V, *Ast, *Ap, *fr, *X;
  PetscScalar       *Dx;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(al->X, &n));
  PetscCall(VecGetArrayRead(al->V, &V));
  PetscCall(VecGetArrayRead(nw->Ast, &Ast));
  PetscCall(VecGetArrayRead(al->Aphys, &Ap));
  PetscCall(VecGetArrayRead(al->Free, &fr));
  PetscCall(VecGetArrayWrite(nw->Dx, &Dx));
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal as1 = (Ap[i] - am * Ast[i]) / (1 - am);
    Dx[i]               = fr[i] * (h * V[i] + h * h * ((0.5 - be) * Ast[i] + be * as1));
  }
  if (al->nmov) {
    PetscCall(VecGetArrayRead(al->X, &X));
    for (PetscInt j = 0; j < al->nmov; j++)
      Dx[al->mov[j]] = al->mval[j] - X[al->mov[j]];
    PetscCall(VecRestoreArrayRead(al->X, &X));
  }
  PetscCall(VecRestoreArrayWrite(nw->Dx, &Dx));
  PetscCall(VecRestoreArrayRead(al->Free, &fr));
  PetscCall(VecRestoreArrayRead(al->Aphys, &Ap));
  PetscCall(VecRestoreArrayRead(nw->Ast, &Ast));
  PetscCall(VecRestoreArrayRead(al->V, &V));
  PetscFunctionReturn(0);
}

/* The state of the iterate dx (x_{n+1}, a*_{n+1}, v_{n+1}, a_{n+1}) and its out-of-balance force r, with |r| and
   the force scale of the iterate. ok false when f_int cannot be evaluated there (a degenerate element: the
   message goes to nw->cause). Collective. */
static PetscErrorCode Evaluate(FlxStepper ts, PetscReal h, PetscReal t1, PetscReal *rn, PetscBool *ok)
{
  FlxStepper_Alpha  *al = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton     nw = al->nw;
  const PetscReal    be = al->beta, ga = al->gamma, am = al->am, af = al->af, aM = al->aM;
  const PetscScalar *Dx, *V, *Ast, *Ap, *fr, *Fe, *Fi, *Ms, *a1, *v1, *In = NULL;
  PetscScalar       *X1, *V1, *As1, *A1, *R;
  PetscReal          s[4] = {0, 0, 0, 0}, g[4];
  PetscInt           n, nm = al->nmov;
  PetscErrorCode     ierr;
  PetscLogDouble     t0, tE;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  *ok = PETSC_TRUE;
  PetscCall(FlxSystemUpdateConfiguration(ts->sys, al->X, nw->Dx, nw->X1));
  PetscCall(VecGetLocalSize(al->X, &n));
  PetscCall(VecGetArrayRead(nw->Dx, &Dx));
  PetscCall(VecGetArrayRead(al->V, &V));
  PetscCall(VecGetArrayRead(nw->Ast, &Ast));
  PetscCall(VecGetArrayRead(al->Aphys, &Ap));
  PetscCall(VecGetArrayRead(al->Free, &fr));
  PetscCall(VecGetArray(nw->X1, &X1));
  PetscCall(VecGetArrayWrite(nw->V1, &V1));
  PetscCall(VecGetArrayWrite(nw->As1, &As1));
  PetscCall(VecGetArrayWrite(nw->A1, &A1));
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal as1 = fr[i] * (Dx[i] - h * V[i] - h * h * (0.5 - be) * Ast[i]) / (be * h * h);
    As1[i]              = as1;
    V1[i]               = fr[i] * (V[i] + h * ((1 - ga) * Ast[i] + ga * as1));
    A1[i]               = fr[i] * ((1 - am) * as1 + am * Ast[i] - af * Ap[i]) / (1 - af);
  }
  for (PetscInt j = 0; j < nm; j++) { /* the motion at t_{n+1}, exactly */
    const PetscInt i = al->mov[j];
    X1[i]            = al->mval[j];
    V1[i]            = al->mval[nm + j];
    A1[i] = As1[i] = al->mval[2 * nm + j];
  }
  PetscCall(VecRestoreArrayWrite(nw->A1, &A1));
  PetscCall(VecRestoreArrayWrite(nw->As1, &As1));
  PetscCall(VecRestoreArrayWrite(nw->V1, &V1));
  PetscCall(VecRestoreArray(nw->X1, &X1));
  PetscCall(VecRestoreArrayRead(al->Aphys, &Ap));
  PetscCall(VecRestoreArrayRead(nw->Ast, &Ast));
  PetscCall(VecRestoreArrayRead(al->V, &V));
  PetscCall(VecRestoreArrayRead(nw->Dx, &Dx));
  /* f_int: a degenerate element (raised collectively: an input error at t = 0, a failed solve later) makes the try
     fail, not the run */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = FlxSystemComputeInternalForce(ts->sys, t1, nw->X1, nw->V1, nw->Fint);
  PetscCall(PetscPopErrorHandler());
  nw->nres++;
  if (ierr == PETSC_ERR_USER_INPUT || ierr == PETSC_ERR_NOT_CONVERGED) {
    const char *text, *specific;
    PetscCall(PetscErrorMessage(ierr, &text, (char **)&specific));
    PetscCall(PetscSNPrintf(nw->cause, sizeof(nw->cause), "; the internal force failed at the last iterate: %s", specific ? specific : text));
    PetscCall(VecRestoreArrayRead(al->Free, &fr));
    *ok = PETSC_FALSE;
    PetscFunctionReturn(0);
  }
  PetscCall(ierr);
  if (nw->tensor) { /* the inertial force: M (a + a_M v), on the tensor nodes J (a + a_M v) + v x J v */
    PetscCall(VecWAXPY(al->W, aM, nw->V1, nw->A1));
    PetscCall(VecPointwiseMult(al->W, al->W, al->Mass));
    PetscCall(FlxSystemComputeInertiaForce(ts->sys, nw->X1, nw->V1, nw->A1, al->W));
    PetscCall(VecGetArrayRead(al->W, &In));
  }
  PetscCall(VecGetArrayRead(al->Fext1, &Fe));
  PetscCall(VecGetArrayRead(nw->Fint, &Fi));
  PetscCall(VecGetArrayRead(al->Mass, &Ms));
  PetscCall(VecGetArrayRead(nw->A1, &a1));
  PetscCall(VecGetArrayRead(nw->V1, &v1));
  PetscCall(VecGetArrayWrite(nw->R, &R));
  for (PetscInt i = 0; i < n; i++) {
    const PetscReal ma = Ms[i] * a1[i], r = In ? fr[i] * (Fe[i] - Fi[i] - In[i]) : fr[i] * (Fe[i] - Fi[i] - ma - aM * Ms[i] * v1[i]);
    R[i] = r;
    s[0] += r * r;
    s[1] += fr[i] * Fe[i] * Fe[i];
    s[2] += fr[i] * Fi[i] * Fi[i];
    s[3] += fr[i] * ma * ma;
  }
  PetscCall(VecRestoreArrayWrite(nw->R, &R));
  PetscCall(VecRestoreArrayRead(nw->V1, &v1));
  PetscCall(VecRestoreArrayRead(nw->A1, &a1));
  PetscCall(VecRestoreArrayRead(al->Mass, &Ms));
  PetscCall(VecRestoreArrayRead(nw->Fint, &Fi));
  PetscCall(VecRestoreArrayRead(al->Fext1, &Fe));
  PetscCall(VecRestoreArrayRead(al->Free, &fr));
  if (In) PetscCall(VecRestoreArrayRead(al->W, &In));
  PetscCallMPI(MPI_Allreduce(s, g, 4, MPIU_REAL, MPI_SUM, ts->comm));
  *rn      = PetscSqrtReal(g[0]);
  nw->fcur = PetscSqrtReal(PetscMax(g[1], PetscMax(g[2], g[3])));
  PetscCall(PetscTime(&tE));
  nw->tres += tE - t0;
  PetscFunctionReturn(0);
}

/* The tensor nodes' inertial tangent (FlxSystemComputeInertiaTangent at the iterate, b = a + a_M v): in spatial
   corrections [(c_A + a_M s_V) J + s_V (skew(v) J - skew(J v))] T^-1 + d(J b + v x J v)/dtheta, in place of the
   (c_A + a_M s_V) m T^-1 of the lumped entries that FlxSystemComputeJacobian and the finite-rotation blocks added. */
static PetscErrorCode TensorTangent(FlxStepper ts, PetscReal sA, PetscReal sV, PetscInt rstart)
{
  FlxStepper_Alpha  *al = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton     nw = al->nw;
  const PetscReal    sM = sA + sV * al->aM;
  const PetscScalar *Dx, *Ms;

  PetscFunctionBegin;
  PetscCall(VecWAXPY(al->W, al->aM, nw->V1, nw->A1));
  PetscCall(FlxSystemComputeInertiaTangent(ts->sys, nw->X1, nw->V1, al->W, nw->tblk));
  PetscCall(VecGetArrayRead(nw->Dx, &Dx));
  PetscCall(VecGetArrayRead(al->Mass, &Ms));
  for (PetscInt k = 0; k < nw->ntn; k++) {
    const PetscInt   b = nw->tdof[k], idx[3] = {rstart + b, rstart + b + 1, rstart + b + 2};
    const PetscReal *J = nw->tblk + 27 * k, *Kt = J + 9, *Kv = J + 18;
    PetscReal        th[3] = {Dx[b], Dx[b + 1], Dx[b + 2]}, Ti[9], Mv[9];
    PetscScalar      B[9];
    FlxRotTangentInverse(th, Ti);
    for (int e = 0; e < 9; e++)
      Mv[e] = sM * (J[e] - (e % 4 == 0 ? Ms[b + e / 4] : 0)) + sV * Kv[e];
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++)
        B[3 * r + c] = Kt[3 * r + c] + Mv[3 * r] * Ti[c] + Mv[3 * r + 1] * Ti[3 + c] + Mv[3 * r + 2] * Ti[6 + c];
    PetscCall(MatSetValues(nw->J, 3, idx, 3, idx, B, ADD_VALUES));
  }
  PetscCall(VecRestoreArrayRead(al->Mass, &Ms));
  PetscCall(VecRestoreArrayRead(nw->Dx, &Dx));
  PetscFunctionReturn(0);
}

/* The tangent at the iterate, for the sub-step h (see the header), prescribed rows and columns replaced by the
   identity scaled to the mean diagonal; handed to the KSP (factored at the next solve). Collective. */
static PetscErrorCode Tangent(FlxStepper ts, PetscReal h, PetscReal t1)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton    nw = al->nw;
  const PetscReal   sA = (1 - al->am) / ((1 - al->af) * al->beta * h * h), sV = al->gamma / (al->beta * h);
  PetscReal         dmean;
  PetscInt          N;
  PetscLogDouble    t0, tE;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(FlxSystemComputeJacobian(ts->sys, t1, nw->X1, nw->V1, sV, sA, nw->J));
  if (nw->finite) { /* M (T^-1(dtheta) - I) on the rotational DOFs: the iterate's mass term in spatial corrections */
    const PetscScalar *Dx, *Ms, *fr;
    PetscInt           n, rstart;
    PetscCall(VecGetLocalSize(nw->Dx, &n));
    PetscCall(VecGetOwnershipRange(nw->Dx, &rstart, NULL));
    PetscCall(VecGetArrayRead(nw->Dx, &Dx));
    PetscCall(VecGetArrayRead(al->Mass, &Ms));
    PetscCall(VecGetArrayRead(al->Free, &fr));
    for (PetscInt b = 0; b < n; b += 6) {
      PetscReal   th[3] = {Dx[b + 3], Dx[b + 4], Dx[b + 5]}, Ti[9];
      PetscScalar B[9];
      PetscInt    idx[3] = {rstart + b + 3, rstart + b + 4, rstart + b + 5};
      if (th[0] == 0 && th[1] == 0 && th[2] == 0) continue;
      FlxRotTangentInverse(th, Ti);
      for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
          B[3 * r + c] = fr[b + 3 + r] * (sA + sV * al->aM) * Ms[b + 3 + r] * (Ti[3 * r + c] - (r == c));
      PetscCall(MatSetValues(nw->J, 3, idx, 3, idx, B, ADD_VALUES));
    }
    PetscCall(VecRestoreArrayRead(al->Free, &fr));
    PetscCall(VecRestoreArrayRead(al->Mass, &Ms));
    PetscCall(VecRestoreArrayRead(nw->Dx, &Dx));
    if (nw->tensor) PetscCall(TensorTangent(ts, sA, sV, rstart));
    PetscCall(MatAssemblyBegin(nw->J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(nw->J, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(MatGetDiagonal(nw->J, al->W));
  PetscCall(VecNorm(al->W, NORM_1, &dmean));
  PetscCall(VecGetSize(al->W, &N));
  dmean = dmean > 0 ? dmean / N : 1;
  PetscCall(MatZeroRowsColumnsIS(nw->J, al->fixed, dmean, NULL, NULL));
  PetscCall(KSPSetOperators(nw->ksp, nw->J, nw->J));
  nw->Jvalid = PETSC_TRUE;
  nw->hJ     = h;
  nw->njac++;
  PetscCall(PetscTime(&tE));
  nw->tjac += tE - t0;
  PetscFunctionReturn(0);
}

/* J delta = r; the correction of dx is T^-1(dtheta) delta on the rotational DOFs, zero on the prescribed ones (a
   node with some rotational DOFs prescribed keeps their spatial increments: T^-1 mixes the components, so the
   correction is projected, and Newton converges there at a linear rate of order |dtheta|). ok false when the solve failed (a singular
   tangent, a diverged Krylov method, a non-finite correction). Collective. */
static PetscErrorCode Correct(FlxStepper ts, PetscBool *ok)
{
  FlxStepper_Alpha  *al = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton     nw = al->nw;
  KSPConvergedReason reason;
  PetscErrorCode     ierr;
  PetscLogDouble     t0, tE;
  PetscReal          w[2], g[2];

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = KSPSolve(nw->ksp, nw->R, nw->Del);
  PetscCall(PetscPopErrorHandler());
  *ok = PETSC_TRUE;
  if (ierr == PETSC_ERR_MAT_LU_ZRPVT || ierr == PETSC_ERR_MAT_CH_ZRPVT) {
    PetscCall(PetscSNPrintf(nw->cause, sizeof(nw->cause), "; the tangent became singular (zero pivot)"));
    *ok = PETSC_FALSE;
  } else {
    PetscCall(ierr);
    PetscCall(KSPGetConvergedReason(nw->ksp, &reason));
    if (reason < 0) {
      PetscCall(PetscSNPrintf(nw->cause, sizeof(nw->cause), "; the linear solve failed (%s)", KSPConvergedReasons[reason]));
      *ok = PETSC_FALSE;
    }
  }
  if (*ok && nw->finite) {
    const PetscScalar *Dx;
    PetscScalar       *d;
    PetscInt           n;
    PetscCall(VecGetLocalSize(nw->Dx, &n));
    PetscCall(VecGetArrayRead(nw->Dx, &Dx));
    PetscCall(VecGetArray(nw->Del, &d));
    for (PetscInt b = 0; b < n; b += 6) {
      PetscReal th[3] = {Dx[b + 3], Dx[b + 4], Dx[b + 5]}, Ti[9], e[3] = {d[b + 3], d[b + 4], d[b + 5]};
      if (th[0] == 0 && th[1] == 0 && th[2] == 0) continue;
      FlxRotTangentInverse(th, Ti);
      for (int r = 0; r < 3; r++)
        d[b + 3 + r] = Ti[3 * r] * e[0] + Ti[3 * r + 1] * e[1] + Ti[3 * r + 2] * e[2];
    }
    PetscCall(VecRestoreArray(nw->Del, &d));
    PetscCall(VecRestoreArrayRead(nw->Dx, &Dx));
  }
  if (*ok) {
    PetscCall(VecPointwiseMult(nw->Del, nw->Del, al->Free)); /* prescribed DOFs stay (T^-1 mixes a node's rotational components) */
    PetscCall(FlxAlphaLocalDot(nw->Del, nw->Del, &w[0]));
    PetscCall(FlxAlphaLocalDot(nw->Del, nw->R, &w[1]));
    PetscCallMPI(MPI_Allreduce(w, g, 2, MPIU_REAL, MPI_SUM, ts->comm));
    nw->dun  = PetscSqrtReal(g[0]);
    nw->work = PetscAbsReal(g[1]);
    if (PetscIsInfOrNanReal(nw->dun)) {
      PetscCall(PetscSNPrintf(nw->cause, sizeof(nw->cause), "; the correction was not finite"));
      *ok = PETSC_FALSE;
    } else
      PetscCall(VecAXPY(nw->Dx, 1.0, nw->Del));
  }
  PetscCall(PetscTime(&tE));
  nw->tsol += tE - t0;
  PetscFunctionReturn(0);
}

/* Converged (as flexure static): the force below rtol f_ref + atol and the last correction below stol of the
   step's increment; or, once the force stalls at the round-off of stiff members, the correction at round-off or
   the work of the last correction |delta . r| below 1e-14 of the first one.
   Or the force has reached the round-off floor of f_int: the chord of a stiff co-rotational member is the
   difference of its node positions, so its force carries an error of about eps E A whatever the displacement,
   and from rest or under small loads that floor lies above rtol f_ref. Recognized as a stall after a correction
   with a fresh tangent (the force not halved although the linear model predicts it gone) while the corrections
   have fallen (below 1/10 of the first) and either are negligible (1e-3 of the increment) or the step started
   near the floor (its first force within 1e3 of the stall): with an exact tangent a genuine failure cannot look
   like this, since a correction that small leaves only its quadratic term. Counted in the report. */
static PetscErrorCode Converged(FlxStepper ts, PetscInt k, PetscReal rn, PetscReal rprev, PetscReal r0, PetscBool fresh, PetscReal t1, PetscBool *conv)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton    nw = al->nw;
  PetscReal         tol;

  PetscFunctionBegin;
  tol = nw->rtol * PetscMax(nw->fref, nw->fcur) + nw->atol;
  if (k > 0) {
    PetscCall(VecNorm(nw->Dx, NORM_2, &nw->dxn));
    PetscCall(VecNorm(nw->X1, NORM_2, &nw->xn));
  }
  if (nw->monitor) PetscCall(PetscPrintf(ts->comm, "    Newton %2" PetscInt_FMT " (t = %.6g s): out-of-balance force %.3e (tolerance %.3e), correction %.3e of the increment %.3e\n", k, (double)t1, (double)rn, (double)tol, k ? (double)nw->dun : 0.0, k ? (double)nw->dxn : 0.0));
  *conv = (PetscBool)(rn == 0);
  if (k > 0) *conv = (PetscBool)(*conv || (rn <= tol && nw->dun <= nw->stol * nw->dxn) || nw->dun <= 1e-13 * (nw->xn + nw->dxn) || (nw->xn + nw->dxn <= 1e3 * nw->dfloor && nw->dun <= nw->dfloor) || (nw->dun <= nw->stol * nw->dxn && nw->work <= 1e-14 * nw->work0));
  if (!*conv && k >= 2 && fresh && rn >= 0.5 * rprev && nw->dun <= 0.1 * nw->dun0 && (nw->dun <= 1e-3 * nw->dxn || r0 <= 1e3 * rn)) {
    *conv = PETSC_TRUE;
    nw->nfloor++;
  }
  PetscFunctionReturn(0);
}

/* One try of a sub-step t_n -> t1 = t_n + h from the committed state. conv: Newton converged. Collective. */
static PetscErrorCode Attempt(FlxStepper ts, PetscReal h, PetscReal t1, PetscBool *conv)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton    nw = al->nw;
  PetscReal         rn, rprev = 0, r0 = 0;
  PetscBool         ok, fresh = PETSC_FALSE;

  PetscFunctionBegin;
  *conv        = PETSC_FALSE;
  nw->nhist    = 0;
  nw->cause[0] = 0;
  PetscCall(VecCopy(al->A, nw->Ast));
  if (al->hprev > 0 && h != al->hprev && al->am != al->af) { /* eq. (14): a*_n to t_n + (am - af) h */
    PetscCall(VecAXPBYPCZ(nw->Ast, (al->am - al->af) * (h / al->hprev - 1), -(al->am - al->af) * (h / al->hprev - 1), 1.0, al->A, al->Aold));
  }
  PetscCall(FlxSystemComputeExternalForce(ts->sys, t1, al->Fext1));
  if (al->nmov) PetscCall(FlxSystemComputePrescribedMotion(ts->sys, t1, 0, 2, al->mval));
  PetscCall(Predict(ts, h));
  if (nw->type == NEWTON_FULL || nw->hJ != h) nw->Jvalid = PETSC_FALSE;
  nw->stale = nw->Jvalid;
  for (nw->its = 0;; nw->its++) {
    PetscCall(Evaluate(ts, h, t1, &rn, &ok));
    if (!ok) break;
    if (nw->nhist < NEWTON_HIST) nw->hist[nw->nhist++] = rn;
    if (PetscIsInfOrNanReal(rn)) {
      PetscCall(PetscSNPrintf(nw->cause, sizeof(nw->cause), "; the out-of-balance force became Inf or NaN"));
      break;
    }
    if (nw->its == 0) r0 = rn;
    PetscCall(Converged(ts, nw->its, rn, rprev, r0, fresh, t1, conv));
    if (*conv || nw->its == nw->max_it) break;
    if (nw->its >= 2 && rn > 1e6 * PetscMax(r0, nw->rtol * nw->fref)) {
      PetscCall(PetscSNPrintf(nw->cause, sizeof(nw->cause), "; the out-of-balance force grew by %.1e", (double)(rn / PetscMax(r0, PETSC_SMALL))));
      break;
    }
    if (nw->type == NEWTON_MODIFIED && nw->its > 0 && rn > nw->refresh * rprev) nw->Jvalid = PETSC_FALSE; /* slow: a fresh tangent */
    fresh = (PetscBool)!nw->Jvalid;
    if (fresh) PetscCall(Tangent(ts, h, t1));
    if (nw->type == NEWTON_FULL) nw->Jvalid = PETSC_FALSE;
    PetscCall(Correct(ts, &ok));
    if (!ok) break;
    if (nw->its == 0) {
      nw->work0 = nw->work;
      nw->dun0  = nw->dun;
    }
    rprev = rn;
  }
  PetscFunctionReturn(0);
}

/* Accept the try: the ledger's work and damping increments of the sub-step, then the state moves. */
static PetscErrorCode Commit(FlxStepper ts, PetscReal h, PetscReal *dW, PetscReal *dD)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton    nw = al->nw;
  PetscReal         w, d1 = 0, d2 = 0, d3 = 0;

  PetscFunctionBegin;
  PetscCall(VecAXPY(al->Fext, 1.0, al->Fext1)); /* trapezoidal work of the loads on the increment */
  PetscCall(SetMoving(al, al->Fext, NULL));
  PetscCall(FlxAlphaLocalDot(nw->Dx, al->Fext, &w));
  *dW += 0.5 * w;
  if (al->nmov) { /* the supports' work: f_int at the moving DOFs at the mean of the step times their increment */
    const PetscScalar *f, *dx;
    PetscCall(VecGetArrayRead(nw->Fint, &f));
    PetscCall(VecGetArrayRead(nw->Dx, &dx));
    for (PetscInt j = 0; j < al->nmov; j++) {
      *dW += 0.5 * (nw->fmov[j] + PetscRealPart(f[al->mov[j]])) * PetscRealPart(dx[al->mov[j]]);
      nw->fmov[j] = PetscRealPart(f[al->mov[j]]);
    }
    PetscCall(VecRestoreArrayRead(nw->Dx, &dx));
    PetscCall(VecRestoreArrayRead(nw->Fint, &f));
  }
  if (al->aM != 0 || al->bK != 0 || al->Cd) { /* h <v>.C<v>, <v> = (v_n + v_{n+1}) / 2, C = a_M M + b_K K + C_d */
    PetscCall(VecAXPBY(al->V, 0.5, 0.5, nw->V1));
    if (al->aM != 0) {
      PetscCall(VecPointwiseMult(al->W, al->Mass, al->V));
      PetscCall(SetMoving(al, al->W, NULL));
      PetscCall(FlxAlphaLocalDot(al->V, al->W, &d1));
      if (nw->tensor) {
        PetscReal cj;
        PetscCall(FlxSystemComputeInertiaCorrection(ts->sys, nw->X1, al->V, al->V, &cj));
        d1 += cj;
      }
    }
    if (al->bK != 0) {
      PetscCall(MatMult(al->K, al->V, al->W));
      PetscCall(SetMoving(al, al->W, NULL));
      PetscCall(FlxAlphaLocalDot(al->V, al->W, &d2));
    }
    if (al->Cd) {
      PetscCall(MatMult(al->Cd, al->V, al->W));
      PetscCall(FlxAlphaLocalDot(al->V, al->W, &d3));
    }
    *dD += h * (al->aM * d1 + al->bK * d2 + d3);
  }
  PetscCall(VecCopy(nw->Ast, al->Aold));
  PetscCall(VecCopy(nw->As1, al->A));
  PetscCall(VecCopy(nw->A1, al->Aphys));
  PetscCall(VecCopy(nw->V1, al->V));
  PetscCall(VecCopy(nw->X1, al->X));
  PetscCall(VecCopy(al->Fext1, al->Fext));
  nw->fref  = PetscMax(nw->fref, nw->fcur);
  al->hprev = h;
  nw->nsub++;
  nw->nits += nw->its;
  nw->itsstep += nw->its;
  nw->itsmax = PetscMax(nw->itsmax, nw->its);
  nw->hmin   = PetscMin(nw->hmin, h);
  PetscFunctionReturn(0);
}

/* The run cannot go on: the reason with the time, the step, the residual history of the last try and a hint. */
static PetscErrorCode Fail(FlxStepper ts, PetscReal tn, PetscReal h, PetscInt cuts)
{
  FlxStepper_Alpha *al        = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton    nw        = al->nw;
  char              hist[512] = "";
  size_t            k         = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < nw->nhist && k + 16 < sizeof(hist); i++)
    k += (size_t)snprintf(hist + k, sizeof(hist) - k, "%s%.2e", i ? " " : "", (double)nw->hist[i]);
  ts->reason = FLX_STEPPER_DIVERGED_NEWTON;
  PetscCall(PetscSNPrintf(ts->reason_msg, sizeof(ts->reason_msg), "Newton did not converge in step %" PetscInt_FMT " at t = %g s, even with the step cut to %g s (-ts_dt %g s halved %" PetscInt_FMT " times, the most %s allows); out-of-balance force per iteration of the last try: %s (tolerance %.2e)%s; hint: a smaller -ts_dt, more -ts_newton_max_it or -ts_newton_max_cuts, -ts_newton_type full, or check the model and loads (a load beyond a limit point, a mechanism, an element turned inside out)",
                          ts->step + 1, (double)tn, (double)h, (double)ts->dt, cuts, cuts < nw->max_cuts ? "-ts_newton_min_dt" : "-ts_newton_max_cuts", hist[0] ? hist : "none", (double)(nw->rtol * PetscMax(nw->fref, nw->fcur) + nw->atol), nw->cause));
  ts->lsum[2] = ts->lsum[3] = 0;
  PetscFunctionReturn(0);
}

/* With error control (-ts_alpha_adapt, alphaadapt.c): the sub-steps of [t0, t0 + H] the control asks for, the last
   one cut to land on t0 + H; a try of a modified Newton that fails from an old tangent is repeated once with a
   fresh one first. Collective. */
static PetscErrorCode AdaptStep(FlxStepper ts, PetscReal H, PetscReal *dW, PetscReal *dD)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton    nw = al->nw;
  const PetscReal   t0 = ts->time, tend = t0 + H;
  PetscReal         t = t0;

  PetscFunctionBegin;
  while (t < tend - 1e-12 * H) {
    PetscReal h = PetscMin(nw->hcur, tend - t), r = 0;
    PetscBool conv, accept;
    if (tend - t - h < 1e-3 * h) h = tend - t; /* do not leave a sliver */
    PetscCall(Attempt(ts, h, h == tend - t ? tend : t + h, &conv));
    if (!conv && nw->stale) {
      nw->Jvalid = PETSC_FALSE;
      continue;
    }
    if (conv) { /* seed 001's estimate from a*_{n+1} - a*_n */
      PetscCall(VecWAXPY(al->W, -1.0, nw->Ast, nw->As1));
      PetscCall(FlxAlphaAdaptRatio(&al->adapt, h, al->W, nw->X1, &r));
    }
    PetscCall(FlxAlphaAdaptNext(&al->adapt, h, conv, r, &accept, &nw->hcur));
    if (!accept) {
      nw->Jvalid = PETSC_FALSE;
      if (!conv) nw->ncuts++;
      if (nw->hcur < PetscMax(nw->min_dt, 1e-12 * H)) {
        ts->reason = FLX_STEPPER_DIVERGED_NEWTON;
        PetscCall(PetscSNPrintf(ts->reason_msg, sizeof(ts->reason_msg), "the error control cut the step at t = %g s to %g s without meeting -ts_alpha_adapt_rtol %g (last estimate %g times its threshold%s; -ts_newton_min_dt %g)", (double)t, (double)nw->hcur, (double)al->adapt.rtol, (double)r, conv ? "" : ", Newton did not converge", (double)nw->min_dt));
        ts->lsum[2] = ts->lsum[3] = 0;
        PetscFunctionReturn(0);
      }
      continue;
    }
    PetscCall(Commit(ts, h, dW, dD));
    t = h == tend - t ? tend : t + h;
  }
  PetscFunctionReturn(0);
}

/* One step of the stepper core (H = -ts_dt, or its ratio), in sub-steps H / 2^level: a failed try halves the
   sub-step, -ts_newton_grow converged ones double it back when aligned (with error control: AdaptStep).
   Collective. */
PetscErrorCode FlxAlphaNewtonStep(FlxStepper ts)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton    nw = al->nw;
  const PetscReal   H = ts->dt * (al->nratio ? al->ratio[ts->step % al->nratio] : 1), t0 = ts->time;
  const PetscInt    L     = nw->max_cuts;
  const long long   units = 1LL << L;
  long long         pos   = 0;
  PetscInt          level = PetscMin(nw->level, L);
  PetscReal         dW = 0, dD = 0, e[2];

  PetscFunctionBegin;
  ts->hlast   = H;
  nw->itsstep = 0;
  if (al->adapt.on) {
    PetscCall(AdaptStep(ts, H, &dW, &dD));
    if (ts->reason < 0) PetscFunctionReturn(0);
    pos = units;
  }
  while (pos < units) {
    const long long size = 1LL << (L - level);
    const PetscReal h = H * (PetscReal)size / (PetscReal)units, tn = t0 + H * (PetscReal)pos / (PetscReal)units, t1 = pos + size == units ? t0 + H : t0 + H * (PetscReal)(pos + size) / (PetscReal)units;
    PetscBool       conv;
    PetscCall(Attempt(ts, h, t1, &conv));
    if (conv) {
      PetscCall(Commit(ts, h, &dW, &dD));
      pos += size;
      if (++nw->ngood >= nw->grow && level > 0 && pos % (2 * size) == 0) {
        level--;
        nw->ngood = 0;
      }
      continue;
    }
    if (nw->stale) { /* modified Newton from an old tangent: the same step once more with a fresh one */
      nw->Jvalid = PETSC_FALSE;
      continue;
    }
    if (level >= L || h / 2 < nw->min_dt) {
      PetscCall(Fail(ts, tn, h, level));
      PetscFunctionReturn(0);
    }
    level++;
    nw->ngood  = 0;
    nw->Jvalid = PETSC_FALSE;
    nw->ncuts++;
  }
  nw->level = level;
  if (FlxStepperIsHistoryStep(ts, ts->step + 1))
    PetscCall(StateEnergy(ts, e));
  else
    e[0] = e[1] = 0;
  ts->lsum[0] = e[0];
  ts->lsum[1] = e[1];
  ts->lsum[2] = dW;
  ts->lsum[3] = dD;
  PetscFunctionReturn(0);
}
