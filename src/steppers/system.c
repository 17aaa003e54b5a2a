/* FlxSystem: the second-order system interface seen by the steppers. */
#include <flexure/private/systemimpl.h>
#include <slepceps.h>
#include "inertia.h"

PetscErrorCode FlxSystemCreate(MPI_Comm comm, FlxSystem *sys)
{
  PetscFunctionBegin;
  PetscCall(FlxInitializePackage());
  PetscCall(PetscNew(sys));
  (*sys)->comm = comm;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemDestroy(FlxSystem *sys)
{
  PetscFunctionBegin;
  if (!*sys) PetscFunctionReturn(0);
  PetscCall(VecDestroy(&(*sys)->mass));
  PetscCall(VecDestroy(&(*sys)->free));
  PetscCall(VecDestroy(&(*sys)->x0));
  PetscCall(MatDestroy(&(*sys)->K));
  PetscCall(MatNullSpaceDestroy(&(*sys)->nsp));
  PetscCall(MatDestroy(&(*sys)->Cd));
  PetscCall(VecDestroy(&(*sys)->rw[0]));
  PetscCall(VecDestroy(&(*sys)->rw[1]));
  PetscCall(PetscFree2((*sys)->mov, (*sys)->movbuf));
  PetscCall(VecDestroy(&(*sys)->jw));
  PetscCall(FlxSystemDestroyConstraints(*sys)); /* issue 16 */
  PetscCall(FlxInertiaDestroy(&(*sys)->inertia));
  PetscCall(PetscFree(*sys));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetMass(FlxSystem sys, Vec mass, Vec free)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectReference((PetscObject)mass));
  PetscCall(PetscObjectReference((PetscObject)free));
  PetscCall(VecDestroy(&sys->mass));
  PetscCall(VecDestroy(&sys->free));
  sys->mass = mass;
  sys->free = free;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemGetMass(FlxSystem sys, Vec *mass, Vec *free)
{
  PetscFunctionBegin;
  if (mass) *mass = sys->mass;
  if (free) *free = sys->free;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetInternalForce(FlxSystem sys, FlxSystemInternalFn fn, PetscBool linear, void *ctx)
{
  PetscFunctionBegin;
  sys->fint    = fn;
  sys->linear  = linear;
  sys->fintctx = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetExternalForce(FlxSystem sys, FlxSystemExternalFn fn, FlxSystemExternalFn rate, void *ctx)
{
  PetscFunctionBegin;
  sys->fext     = fn;
  sys->fextrate = rate;
  sys->fextctx  = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetRayleigh(FlxSystem sys, PetscReal aM, PetscReal bK)
{
  PetscFunctionBegin;
  sys->aM = aM;
  sys->bK = bK;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemGetRayleigh(FlxSystem sys, PetscReal *aM, PetscReal *bK)
{
  PetscFunctionBegin;
  if (aM) *aM = sys->aM;
  if (bK) *bK = sys->bK;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetStiffness(FlxSystem sys, Mat K)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectReference((PetscObject)K));
  PetscCall(MatDestroy(&sys->K));
  sys->K = K;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemGetStiffness(FlxSystem sys, Mat *K)
{
  PetscFunctionBegin;
  if (!sys->K && sys->kfn) {
    Mat A = NULL;
    PetscCall(sys->kfn(sys, &A, sys->kctx));
    if (A && !sys->K) PetscCall(FlxSystemSetStiffness(sys, A));
  }
  *K = sys->K;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetStiffnessFunction(FlxSystem sys, FlxSystemMatFn fn, void *ctx)
{
  PetscFunctionBegin;
  sys->kfn  = fn;
  sys->kctx = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetStiffnessDiagonalFunction(FlxSystem sys, FlxSystemDiagonalFn fn, void *ctx)
{
  PetscFunctionBegin;
  sys->kdfn  = fn;
  sys->kdctx = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemGetStiffnessDiagonal(FlxSystem sys, Vec d)
{
  Mat K;

  PetscFunctionBegin;
  if (sys->kdfn) {
    PetscCall(sys->kdfn(sys, d, sys->kdctx));
    PetscFunctionReturn(0);
  }
  PetscCall(FlxSystemGetStiffness(sys, &K));
  PetscCheck(K, sys->comm, PETSC_ERR_ARG_WRONGSTATE, "the stiffness's diagonal needs a provider (FlxSystemSetStiffnessDiagonalFunction) or the assembled stiffness (FlxSystemSetStiffness)");
  PetscCall(MatGetDiagonal(K, d));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetInitialStiffnessProduct(FlxSystem sys, FlxSystemProductFn fn, void *ctx)
{
  PetscFunctionBegin;
  sys->k0    = fn;
  sys->k0ctx = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemHasInitialStiffness(FlxSystem sys, PetscBool *has)
{
  PetscFunctionBegin;
  *has = (PetscBool)(sys->K || sys->kfn || sys->k0);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetOmegaBound(FlxSystem sys, FlxSystemOmegaBoundFn fn, void *ctx)
{
  PetscFunctionBegin;
  sys->bound    = fn;
  sys->boundctx = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetRoundoff(FlxSystem sys, PetscReal length, PetscReal energy)
{
  PetscFunctionBegin;
  PetscCheck(length >= 0 && energy >= 0 && !PetscIsInfOrNanReal(length) && !PetscIsInfOrNanReal(energy), sys->comm, PETSC_ERR_ARG_OUTOFRANGE, "FlxSystemSetRoundoff: the length %g and the energy %g must be finite and >= 0", (double)length, (double)energy);
  sys->rlen   = length;
  sys->efloor = energy;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemGetRoundoff(FlxSystem sys, PetscReal *length, PetscReal *energy)
{
  PetscFunctionBegin;
  if (length) *length = sys->rlen;
  if (energy) *energy = sys->efloor;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetPowerStart(FlxSystem sys, Vec x0)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectReference((PetscObject)x0));
  PetscCall(VecDestroy(&sys->x0));
  sys->x0 = x0;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeInternalForce(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec f)
{
  PetscFunctionBegin;
  PetscCheck(sys->fint, sys->comm, PETSC_ERR_ARG_WRONGSTATE, "the system has no internal force (FlxSystemSetInternalForce)");
  PetscCall(PetscLogEventBegin(FLX_ForceInt, 0, 0, 0, 0));
  PetscCall(sys->fint(sys, t, x, v, f, sys->fintctx));
  PetscCall(PetscLogEventEnd(FLX_ForceInt, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeExternalForce(FlxSystem sys, PetscReal t, Vec f)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(FLX_ForceExt, 0, 0, 0, 0));
  if (sys->fext)
    PetscCall(sys->fext(sys, t, f, sys->fextctx));
  else
    PetscCall(VecZeroEntries(f));
  PetscCall(PetscLogEventEnd(FLX_ForceExt, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeExternalForceRate(FlxSystem sys, PetscReal t, Vec f)
{
  PetscFunctionBegin;
  if (sys->fextrate)
    PetscCall(sys->fextrate(sys, t, f, sys->fextctx));
  else
    PetscCall(VecZeroEntries(f));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetVelocityDependent(FlxSystem sys, PetscBool vdep)
{
  PetscFunctionBegin;
  sys->vdep = vdep;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemIsVelocityDependent(FlxSystem sys, PetscBool *vdep)
{
  PetscFunctionBegin;
  *vdep = (PetscBool)(sys->vdep || sys->bK != 0 || sys->Cd);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemIsLinear(FlxSystem sys, PetscBool *linear)
{
  PetscFunctionBegin;
  *linear = sys->linear;
  PetscFunctionReturn(0);
}

/* omega_max^2 is the largest eigenvalue of A = D K D on the free DOFs, D = M^-1/2 (zero on prescribed DOFs): a
   symmetric operator applied matrix-free through f_int(x, 0) = K x. Lanczos (SLEPc's Krylov-Schur) converges to it
   in tens to hundreds of products where the power iteration needed thousands on large models; its start vector is
   the system's deterministic one, so the estimate (and the step) does not depend on the number of ranks beyond
   round-off. Options -ts_omega_eps_* tune it. */
typedef struct {
  FlxSystem sys;
  Vec       d, t, zero;
  PetscInt  nprod;
  PetscReal theta, bound2, rtol; /* largest Ritz value so far; the bound squared */
} OmegaCtx;

/* Record the largest Ritz value of each restart (from below). */
static PetscErrorCode OmegaMonitor(EPS eps, PetscInt its, PetscInt nconv, PetscScalar *eigr, PetscScalar *eigi, PetscReal *errest, PetscInt nest, void *ctx)
{
  OmegaCtx *oc = (OmegaCtx *)ctx;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < nest; k++)
    oc->theta = PetscMax(oc->theta, PetscRealPart(eigr[k]));
  PetscFunctionReturn(0);
}

/* Converged as usual, or once the largest Ritz value is within the tolerance of the upper bound: both enclose
   omega_max^2 then (uniform meshes, whose top of the spectrum clusters at an element's own mode). */
static PetscErrorCode OmegaStop(EPS eps, PetscInt its, PetscInt max_it, PetscInt nconv, PetscInt nev, EPSConvergedReason *reason, void *ctx)
{
  OmegaCtx *oc = (OmegaCtx *)ctx;

  PetscFunctionBegin;
  PetscCall(EPSStoppingBasic(eps, its, max_it, nconv, nev, reason, NULL));
  if (*reason == EPS_CONVERGED_ITERATING && oc->bound2 > 0 && oc->bound2 - oc->theta <= oc->rtol * oc->theta) *reason = EPS_CONVERGED_USER;
  PetscFunctionReturn(0);
}

static PetscErrorCode OmegaMult(Mat A, Vec x, Vec y)
{
  OmegaCtx *oc;

  PetscFunctionBegin;
  PetscCall(MatShellGetContext(A, &oc));
  PetscCall(VecPointwiseMult(oc->t, x, oc->d));
  if (!oc->sys->linear && oc->sys->k0) /* nonlinear model: its initial (linearized) stiffness */
    PetscCall(oc->sys->k0(oc->sys, oc->t, y, oc->sys->k0ctx));
  else if (!oc->sys->linear && oc->sys->K)
    PetscCall(MatMult(oc->sys->K, oc->t, y));
  else
    PetscCall(oc->sys->fint(oc->sys, 0, oc->t, oc->zero, y, oc->sys->fintctx));
  PetscCall(VecPointwiseMult(y, y, oc->d));
  oc->nprod++;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemEstimateOmegaMax(FlxSystem sys, PetscInt maxits, PetscReal rtol, PetscReal *omega_power, PetscInt *its, FlxOmegaConvergence *how, PetscReal *omega_bound)
{
  OmegaCtx     oc = {sys, NULL, NULL, NULL, 0, 0, 0, rtol};
  Mat          A;
  EPS          eps;
  Vec          x0;
  PetscInt     n, N, nconv = 0;
  PetscScalar  lambda = 0;
  PetscScalar *d;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(FLX_CriticalStep, 0, 0, 0, 0));
  *omega_bound = -1;
  *omega_power = 0;
  *its         = 0;
  *how         = FLX_OMEGA_NOT_RUN;
  if (sys->bound) PetscCall(sys->bound(sys, omega_bound, NULL, 0, sys->boundctx));
  if (maxits <= 0) {
    PetscCall(PetscLogEventEnd(FLX_CriticalStep, 0, 0, 0, 0));
    PetscFunctionReturn(0);
  }
  PetscCall(VecDuplicate(sys->mass, &oc.d));
  PetscCall(VecDuplicate(sys->mass, &oc.t));
  PetscCall(VecDuplicate(sys->mass, &oc.zero));
  PetscCall(VecDuplicate(sys->mass, &x0));
  PetscCall(VecZeroEntries(oc.zero));
  PetscCall(VecGetLocalSize(sys->mass, &n));
  PetscCall(VecGetSize(sys->mass, &N));
  { /* D = free / sqrt(m); massless DOFs are refused before (explicit methods) */
    const PetscScalar *m, *f;
    PetscCall(VecGetArrayRead(sys->mass, &m));
    PetscCall(VecGetArrayRead(sys->free, &f));
    PetscCall(VecGetArrayWrite(oc.d, &d));
    for (PetscInt i = 0; i < n; i++)
      d[i] = PetscRealPart(m[i]) > 0 ? f[i] / PetscSqrtReal(PetscRealPart(m[i])) : 0;
    PetscCall(VecRestoreArrayWrite(oc.d, &d));
    PetscCall(VecRestoreArrayRead(sys->free, &f));
    PetscCall(VecRestoreArrayRead(sys->mass, &m));
  }
  if (sys->x0)
    PetscCall(VecCopy(sys->x0, x0));
  else
    PetscCall(VecSet(x0, 1.0));
  PetscCall(VecPointwiseMult(x0, x0, sys->free));
  PetscCall(MatCreateShell(sys->comm, n, n, N, N, &oc, &A));
  PetscCall(MatShellSetOperation(A, MATOP_MULT, (void (*)(void))OmegaMult));
  PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(EPSCreate(sys->comm, &eps));
  PetscCall(EPSSetOptionsPrefix(eps, "ts_omega_"));
  PetscCall(EPSSetOperators(eps, A, NULL));
  PetscCall(EPSSetProblemType(eps, EPS_HEP));
  PetscCall(EPSSetType(eps, EPSKRYLOVSCHUR));
  PetscCall(EPSSetWhichEigenpairs(eps, EPS_LARGEST_REAL));
  PetscCall(EPSSetDimensions(eps, 1, PetscMin(N, 32), PETSC_DEFAULT));
  PetscCall(EPSSetTolerances(eps, rtol, maxits));
  PetscCall(EPSSetInitialSpace(eps, 1, &x0));
  oc.bound2 = *omega_bound > 0 ? *omega_bound * *omega_bound : 0;
  PetscCall(EPSMonitorSet(eps, OmegaMonitor, &oc, NULL));
  PetscCall(EPSSetStoppingTestFunction(eps, OmegaStop, &oc, NULL));
  PetscCall(EPSSetFromOptions(eps));
  PetscCall(EPSSolve(eps));
  PetscCall(EPSGetConverged(eps, &nconv));
  {
    EPSConvergedReason reason;
    PetscCall(EPSGetConvergedReason(eps, &reason));
    if (nconv > 0) {
      PetscCall(EPSGetEigenvalue(eps, 0, &lambda, NULL));
      *how = FLX_OMEGA_CONVERGED;
    } else if (reason == EPS_CONVERGED_USER) {
      lambda = oc.theta;
      *how   = FLX_OMEGA_CONVERGED;
    } else
      *how = FLX_OMEGA_NOT_CONVERGED; /* the caller falls back to the bound */
  }
  *omega_power = PetscSqrtReal(PetscMax(PetscRealPart(lambda), 0));
  *its         = oc.nprod;
  PetscCall(EPSDestroy(&eps));
  PetscCall(MatDestroy(&A));
  PetscCall(VecDestroy(&x0));
  PetscCall(VecDestroy(&oc.d));
  PetscCall(VecDestroy(&oc.t));
  PetscCall(VecDestroy(&oc.zero));
  PetscCall(PetscLogEventEnd(FLX_CriticalStep, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemDescribeOmegaBound(FlxSystem sys, char what[], size_t len)
{
  PetscReal w;

  PetscFunctionBegin;
  what[0] = 0;
  if (sys->bound) PetscCall(sys->bound(sys, &w, what, len, sys->boundctx));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetConsistentMassFunction(FlxSystem sys, FlxSystemMatFn fn, void *ctx)
{
  PetscFunctionBegin;
  sys->mcfn  = fn;
  sys->mcctx = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemGetConsistentMass(FlxSystem sys, Mat *M)
{
  PetscFunctionBegin;
  if (!sys->Mc && sys->mcfn) PetscCall(sys->mcfn(sys, &sys->Mc, sys->mcctx));
  *M = sys->Mc;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetNearNullSpaceFunction(FlxSystem sys, FlxSystemNullSpaceFn fn, void *ctx)
{
  PetscFunctionBegin;
  sys->nspfn  = fn;
  sys->nspctx = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemGetNearNullSpace(FlxSystem sys, MatNullSpace *nsp)
{
  PetscFunctionBegin;
  if (!sys->nsp && sys->nspfn) PetscCall(sys->nspfn(sys, &sys->nsp, sys->nspctx));
  *nsp = sys->nsp;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemCreatePrescribedIS(FlxSystem sys, IS *fixed)
{
  const PetscScalar *f;
  PetscInt           n, lo, cnt = 0, *idx;

  PetscFunctionBegin;
  PetscCheck(sys->free, sys->comm, PETSC_ERR_ARG_WRONGSTATE, "the system has no mass and free mask yet");
  PetscCall(VecGetLocalSize(sys->free, &n));
  PetscCall(VecGetOwnershipRange(sys->free, &lo, NULL));
  PetscCall(PetscMalloc1(n + 1, &idx));
  PetscCall(VecGetArrayRead(sys->free, &f));
  for (PetscInt i = 0; i < n; i++)
    if (PetscRealPart(f[i]) < 0.5) idx[cnt++] = lo + i;
  PetscCall(VecRestoreArrayRead(sys->free, &f));
  PetscCall(ISCreateGeneral(sys->comm, cnt, idx, PETSC_OWN_POINTER, fixed));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetDampingMatrix(FlxSystem sys, Mat Cd, PetscReal rate, FlxSystemDampingFn mult, void *ctx)
{
  PetscFunctionBegin;
  if (Cd) PetscCall(PetscObjectReference((PetscObject)Cd));
  PetscCall(MatDestroy(&sys->Cd));
  sys->Cd    = Cd;
  sys->crate = Cd ? rate : 0;
  sys->cmult = mult;
  sys->cctx  = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemGetDampingMatrix(FlxSystem sys, Mat *Cd, PetscReal *rate)
{
  PetscFunctionBegin;
  if (Cd) *Cd = sys->Cd;
  if (rate) *rate = sys->crate + sys->drate; /* both kinds of dampers: the bounds add */
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetDampingRate(FlxSystem sys, PetscReal rate)
{
  PetscFunctionBegin;
  PetscCheck(rate >= 0 && !PetscIsInfOrNanReal(rate), sys->comm, PETSC_ERR_ARG_OUTOFRANGE, "FlxSystemSetDampingRate: the rate bound %g must be finite and not negative", (double)rate);
  sys->drate     = rate;
  sys->drate_set = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemNeedsDampingRate(FlxSystem sys, PetscBool *need)
{
  PetscFunctionBegin;
  *need = (PetscBool)(sys->vdep && !sys->drate_set && sys->fint && sys->mass);
  PetscFunctionReturn(0);
}

/* z <- f_int(x, v + e z) - f_int(x, v - e z), over 2 e: D z, D the velocity derivative of f_int at (x, v). */
static PetscErrorCode VelocityDerivative(FlxSystem sys, PetscReal t, Vec x, Vec v, PetscReal e, Vec z, Vec vp, Vec f0, Vec f1)
{
  PetscFunctionBegin;
  PetscCall(VecWAXPY(vp, e, z, v));
  PetscCall(FlxSystemComputeInternalForce(sys, t, x, vp, f1));
  PetscCall(VecWAXPY(vp, -e, z, v));
  PetscCall(FlxSystemComputeInternalForce(sys, t, x, vp, f0));
  PetscCall(VecWAXPY(z, -1.0, f0, f1));
  PetscCall(VecScale(z, 1 / (2 * e)));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemEstimateDampingRate(FlxSystem sys, PetscReal t, Vec x, Vec v, PetscInt maxits, PetscReal *rate)
{
  Vec          z, w, vp, f0, f1;
  PetscInt     lo, hi;
  PetscReal    vmax, zmax, zw, zmz, z2, w2, prev = -1;
  PetscScalar *za;

  PetscFunctionBegin;
  *rate = 0;
  if (!sys->fint || !sys->mass) PetscFunctionReturn(0);
  PetscCall(VecDuplicate(v, &z));
  PetscCall(VecDuplicate(v, &w));
  PetscCall(VecDuplicate(v, &vp));
  PetscCall(VecDuplicate(v, &f0));
  PetscCall(VecDuplicate(v, &f1));
  PetscCall(VecGetOwnershipRange(z, &lo, &hi));
  PetscCall(VecGetArrayWrite(z, &za));
  for (PetscInt i = lo; i < hi; i++) /* a start with every mode in it, the same at any number of ranks */
    za[i - lo] = 1 + 0.5 * PetscSinReal((PetscReal)i);
  PetscCall(VecRestoreArrayWrite(z, &za));
  if (sys->free) PetscCall(VecPointwiseMult(z, z, sys->free));
  PetscCall(VecNorm(v, NORM_INFINITY, &vmax));
  for (PetscInt k = 0; k < maxits; k++) {
    PetscCall(VecNorm(z, NORM_INFINITY, &zmax));
    if (zmax == 0) break;
    PetscCall(VecScale(z, 1 / zmax));
    PetscCall(VecCopy(z, w));
    PetscCall(VelocityDerivative(sys, t, x, v, 1e-4 * PetscMax(vmax, 1), w, vp, f0, f1));
    if (sys->bK != 0 || sys->Cd) { /* the declared part (b_K K + C_d) v is counted by the checks already */
      PetscCall(FlxSystemComputeDampingForce(sys, z, f0));
      PetscCall(VecAXPY(w, -1.0, f0));
    }
    if (sys->free) PetscCall(VecPointwiseMult(w, w, sys->free));
    PetscCall(VecDot(z, w, &zw));
    PetscCall(VecPointwiseMult(f0, z, sys->mass));
    PetscCall(VecDot(z, f0, &zmz));
    PetscCall(VecNorm(z, NORM_2, &z2));
    PetscCall(VecNorm(w, NORM_2, &w2));
    if (PetscAbsReal(zw) <= 1e-8 * z2 * w2) zw = 0; /* round-off of a skew (gyroscopic) part: no dissipation */
    if (zmz > 0) *rate = PetscMax(*rate, zw / zmz); /* a Rayleigh quotient of M^-1 sym(D): below its largest eigenvalue */
    if (zmz > 0 && PetscAbsReal(zw / zmz - prev) <= 1e-10 * PetscAbsReal(zw / zmz)) break;
    prev = zmz > 0 ? zw / zmz : prev;
    PetscCall(VecPointwiseDivide(z, w, sys->mass)); /* the next iterate: M^-1 D z (free DOFs; others zero) */
    if (sys->free) PetscCall(VecPointwiseMult(z, z, sys->free));
  }
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&w));
  PetscCall(VecDestroy(&vp));
  PetscCall(VecDestroy(&f0));
  PetscCall(VecDestroy(&f1));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeDampingForce(FlxSystem sys, Vec v, Vec f)
{
  PetscFunctionBegin;
  if (sys->cmult) {
    PetscCall(sys->cmult(sys, v, f, sys->cctx));
    PetscFunctionReturn(0);
  }
  PetscCall(VecZeroEntries(f));
  if (sys->bK != 0) {
    Mat K;
    PetscCall(FlxSystemGetStiffness(sys, &K));
    PetscCheck(K, sys->comm, PETSC_ERR_ARG_WRONGSTATE, "stiffness-proportional damping needs the assembled stiffness (FlxSystemSetStiffness)");
    PetscCall(MatMult(K, v, f));
    PetscCall(VecScale(f, sys->bK));
  }
  if (sys->Cd) PetscCall(MatMultAdd(sys->Cd, v, f, f));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetReactionFunction(FlxSystem sys, FlxSystemReactionFn fn, void *ctx)
{
  PetscFunctionBegin;
  sys->reac    = fn;
  sys->reacctx = ctx;
  PetscFunctionReturn(0);
}

/* Fallback: full products, masked to the prescribed DOFs. */
PetscErrorCode FlxSystemComputeReactions(FlxSystem sys, Vec x1, Vec x0, Vec v, Vec a, Vec fext, Vec R)
{
  Vec x, w;

  PetscFunctionBegin;
  if (sys->reac) {
    PetscCall(sys->reac(sys, x1, x0, v, a, fext, R, sys->reacctx));
    PetscFunctionReturn(0);
  }
  if (!sys->rw[0]) {
    PetscCall(VecDuplicate(sys->mass, &sys->rw[0]));
    PetscCall(VecDuplicate(sys->mass, &sys->rw[1]));
  }
  x = sys->rw[0];
  w = sys->rw[1];
  if (x0)
    PetscCall(VecWAXPY(x, -1.0, x0, x1));
  else
    PetscCall(VecCopy(x1, x));
  if (v)
    PetscCall(FlxSystemComputeInternalForce(sys, 0, x, v, R));
  else {
    PetscCall(VecZeroEntries(w));
    PetscCall(FlxSystemComputeInternalForce(sys, 0, x, w, R));
  }
  if (v && sys->aM != 0) {
    PetscCall(VecPointwiseMult(w, sys->mass, v));
    PetscCall(VecAXPY(R, sys->aM, w));
  }
  if (a) {
    PetscCall(VecPointwiseMult(w, sys->mass, a));
    PetscCall(VecAXPY(R, 1.0, w));
  }
  if (fext) PetscCall(VecAXPY(R, -1.0, fext));
  PetscCall(VecPointwiseMult(w, R, sys->free));
  PetscCall(VecAXPY(R, -1.0, w)); /* keep the prescribed entries */
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetPrescribedMotion(FlxSystem sys, PetscInt n, const PetscInt idx[], FlxSystemMotionFn fn, void *ctx)
{
  PetscInt any = n > 0;

  PetscFunctionBegin;
  PetscCall(PetscFree2(sys->mov, sys->movbuf));
  PetscCall(PetscMalloc2(n + 1, &sys->mov, 5 * n + 1, &sys->movbuf));
  PetscCall(PetscArraycpy(sys->mov, idx, n));
  sys->nmov   = n;
  sys->movfn  = fn;
  sys->movctx = ctx;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPIU_INT, MPI_MAX, sys->comm));
  sys->hasmov = any ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemGetPrescribedMotion(FlxSystem sys, PetscInt *n, const PetscInt *idx[], PetscBool *has)
{
  PetscFunctionBegin;
  if (n) *n = sys->nmov;
  if (idx) *idx = sys->mov;
  if (has) *has = sys->hasmov;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputePrescribedMotion(FlxSystem sys, PetscReal t, PetscInt kmin, PetscInt kmax, PetscReal vals[])
{
  PetscFunctionBegin;
  PetscCheck(kmin >= 0 && kmax <= 4 && kmin <= kmax, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "motion derivatives %" PetscInt_FMT "..%" PetscInt_FMT " outside 0..4", kmin, kmax);
  if (sys->nmov) PetscCall(sys->movfn(sys, t, kmin, kmax, vals, sys->movctx));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemApplyPrescribedMotion(FlxSystem sys, PetscReal t, PetscInt kmin, PetscInt kmax, Vec y[])
{
  PetscFunctionBegin;
  if (!sys->nmov) PetscFunctionReturn(0);
  PetscCall(FlxSystemComputePrescribedMotion(sys, t, kmin, kmax, sys->movbuf));
  for (PetscInt k = kmin; k <= kmax; k++) {
    PetscScalar *a;
    if (!y[k - kmin]) continue;
    PetscCall(VecGetArray(y[k - kmin], &a));
    for (PetscInt i = 0; i < sys->nmov; i++)
      a[sys->mov[i]] = sys->movbuf[(k - kmin) * sys->nmov + i];
    PetscCall(VecRestoreArray(y[k - kmin], &a));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetDofNameFunction(FlxSystem sys, FlxSystemDofNameFn fn, void *ctx)
{
  PetscFunctionBegin;
  sys->namefn  = fn;
  sys->namectx = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemCheckMass(FlxSystem sys, const char what[])
{
  const PetscScalar *m, *f;
  PetscInt           n, bad = -1;
  char               msg[512] = "", name[128];

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(sys->mass, &n));
  PetscCall(VecGetArrayRead(sys->mass, &m));
  PetscCall(VecGetArrayRead(sys->free, &f));
  for (PetscInt i = 0; i < n && bad < 0; i++)
    if (PetscRealPart(f[i]) > 0.5 && !(PetscRealPart(m[i]) > 0)) bad = i;
  PetscCall(VecRestoreArrayRead(sys->free, &f));
  PetscCall(VecRestoreArrayRead(sys->mass, &m));
  if (bad >= 0) {
    if (sys->namefn)
      PetscCall(sys->namefn(sys, bad, name, sizeof(name), sys->namectx));
    else
      PetscCall(PetscSNPrintf(name, sizeof(name), "DOF %" PetscInt_FMT " (local)", bad));
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s has no mass, and %s needs mass on every free DOF: give its elements a density, add a point mass (with rotary inertia for rotations: -pointmass_NAME_inertia), or constrain it", name, what));
  }
  PetscCall(FlxCheckCollective(sys->comm, bad >= 0 ? PETSC_TRUE : PETSC_FALSE, PETSC_ERR_USER_INPUT, msg));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetConfigurationUpdate(FlxSystem sys, FlxSystemUpdateFn fn, void *ctx)
{
  PetscFunctionBegin;
  sys->update      = fn;
  sys->updatectx   = ctx;
  sys->updatelocal = NULL; /* set its local form after it */
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemHasConfigurationUpdate(FlxSystem sys, PetscBool *has)
{
  PetscFunctionBegin;
  *has = sys->update ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemUpdateConfiguration(FlxSystem sys, Vec x, Vec dx, Vec xnew)
{
  PetscFunctionBegin;
  if (sys->update)
    PetscCall(sys->update(sys, x, dx, xnew, sys->updatectx));
  else
    PetscCall(VecWAXPY(xnew, 1.0, x, dx)); /* VecWAXPY allows xnew == x */
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetConfigurationUpdateLocal(FlxSystem sys, FlxSystemUpdateLocalFn fn)
{
  PetscFunctionBegin;
  sys->updatelocal = fn;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemHasConfigurationUpdateLocal(FlxSystem sys, PetscBool *has)
{
  PetscFunctionBegin;
  *has = sys->updatelocal ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemUpdateConfigurationLocal(FlxSystem sys, PetscInt start, PetscInt n, const PetscScalar x[], const PetscScalar dx[], PetscScalar xnew[])
{
  PetscFunctionBegin;
  PetscCheck(sys->updatelocal, PETSC_COMM_SELF, PETSC_ERR_ORDER, "FlxSystemUpdateConfigurationLocal: the system has no local configuration update (FlxSystemSetConfigurationUpdateLocal)");
  PetscCall(sys->updatelocal(sys, start, n, x, dx, xnew, sys->updatectx));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetJacobian(FlxSystem sys, FlxSystemJacobianFn fn, void *ctx)
{
  PetscFunctionBegin;
  sys->jac    = fn;
  sys->jacctx = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemCreateJacobianMatrix(FlxSystem sys, Mat *J)
{
  Mat K = NULL;

  PetscFunctionBegin;
  PetscCall(FlxSystemGetStiffness(sys, &K));
  if (K) {
    PetscCall(MatDuplicate(K, MAT_DO_NOT_COPY_VALUES, J));
  } else { /* small systems without a stiffness pattern: dense local blocks */
    PetscInt n, N;
    PetscCheck(sys->mass, sys->comm, PETSC_ERR_ARG_WRONGSTATE, "FlxSystemCreateJacobianMatrix needs the mass (FlxSystemSetMass) or the stiffness pattern (FlxSystemSetStiffness)");
    PetscCall(VecGetLocalSize(sys->mass, &n));
    PetscCall(VecGetSize(sys->mass, &N));
    PetscCall(MatCreateAIJ(sys->comm, n, n, N, N, n, NULL, N - n, NULL, J));
    PetscCall(MatSetOption(*J, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeJacobian(FlxSystem sys, PetscReal t, Vec x, Vec v, PetscReal shiftV, PetscReal shiftA, Mat J)
{
  PetscFunctionBegin;
  PetscCall(MatZeroEntries(J));
  if (sys->jac) {
    PetscCall(sys->jac(sys, t, x, v, shiftV, J, sys->jacctx));
  } else {
    Mat K;
    PetscCall(FlxSystemGetStiffness(sys, &K));
    PetscCheck(sys->linear && K, sys->comm, PETSC_ERR_ARG_WRONGSTATE, "the system has neither a Jacobian (FlxSystemSetJacobian) nor an assembled linear stiffness");
    PetscCall(MatAXPY(J, 1.0 + shiftV * sys->bK, K, SAME_NONZERO_PATTERN));
    if (sys->Cd && shiftV != 0) PetscCall(MatAXPY(J, shiftV, sys->Cd, SUBSET_NONZERO_PATTERN));
  }
  if ((shiftA != 0 || shiftV * sys->aM != 0) && sys->mass) {
    if (!sys->jw) PetscCall(VecDuplicate(sys->mass, &sys->jw));
    PetscCall(VecAXPBY(sys->jw, shiftA + shiftV * sys->aM, 0.0, sys->mass));
    PetscCall(MatDiagonalSet(J, sys->jw, ADD_VALUES));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetStrainEnergy(FlxSystem sys, FlxSystemEnergyFn fn, void *ctx)
{
  PetscFunctionBegin;
  sys->energy    = fn;
  sys->energyctx = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemHasStrainEnergy(FlxSystem sys, PetscBool *has)
{
  PetscFunctionBegin;
  *has = sys->energy ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeStrainEnergy(FlxSystem sys, Vec x, PetscReal *e, PetscBool *has)
{
  PetscFunctionBegin;
  *e = 0;
  if (has) *has = sys->energy ? PETSC_TRUE : PETSC_FALSE;
  if (sys->energy) {
    PetscReal el = 0;
    PetscCall(sys->energy(sys, x, &el, sys->energyctx));
    PetscCall(MPIU_Allreduce(&el, e, 1, MPIU_REAL, MPIU_SUM, sys->comm));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemGetInertia_Private(FlxSystem sys, FlxInertia **slot)
{
  PetscFunctionBegin;
  *slot = &sys->inertia;
  PetscFunctionReturn(0);
}
