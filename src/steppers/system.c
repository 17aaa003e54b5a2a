/* FlxSystem: the second-order system interface seen by the steppers. */
#include <flexure/flexure.h>

struct _p_FlxSystem {
  MPI_Comm              comm;
  Vec                   mass, free, x0;
  Mat                   K;
  FlxSystemInternalFn   fint;
  FlxSystemExternalFn   fext, fextrate;
  FlxSystemOmegaBoundFn bound;
  void                 *fintctx, *fextctx, *boundctx;
  PetscBool             linear, vdep;
  PetscReal             aM, bK;
  FlxSystemMatFn        mcfn;  /* consistent mass, assembled on first request */
  FlxSystemNullSpaceFn  nspfn; /* near-null space (rigid-body modes), built on first request */
  void                 *mcctx, *nspctx;
  Mat                   Mc;
  MatNullSpace          nsp;
  Mat                   Cd;    /* extra damping matrix (discrete dampers) */
  PetscReal             crate; /* bound of lambda_max(M^-1 C_d) */
  FlxSystemDampingFn    cmult; /* deterministic (b_K K + C_d) v */
  void                 *cctx;
  FlxSystemReactionFn   reac;
  void                 *reacctx;
  Vec                   rw[2]; /* work of the reaction fallback */
};

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
  *K = sys->K;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetOmegaBound(FlxSystem sys, FlxSystemOmegaBoundFn fn, void *ctx)
{
  PetscFunctionBegin;
  sys->bound    = fn;
  sys->boundctx = ctx;
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

/* Power iteration on M^-1 K restricted to free DOFs, with the M-inner-product Rayleigh quotient
   lambda = x.Kx / x.Mx, which converges to omega_max^2 from below. */
PetscErrorCode FlxSystemEstimateOmegaMax(FlxSystem sys, PetscInt maxits, PetscReal rtol, PetscReal *omega_power, PetscInt *its, PetscReal *omega_bound)
{
  Vec       x, y, zero, minv;
  PetscReal lambda = 0, lold = 0, xMx, xKx;
  PetscInt  k;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(FLX_CriticalStep, 0, 0, 0, 0));
  *omega_bound = -1;
  if (sys->bound) PetscCall(sys->bound(sys, omega_bound, sys->boundctx));
  PetscCall(VecDuplicate(sys->mass, &x));
  PetscCall(VecDuplicate(sys->mass, &y));
  PetscCall(VecDuplicate(sys->mass, &zero));
  PetscCall(VecDuplicate(sys->mass, &minv));
  PetscCall(VecZeroEntries(zero));
  PetscCall(VecPointwiseDivide(minv, sys->free, sys->mass));
  if (sys->x0)
    PetscCall(VecCopy(sys->x0, x));
  else
    PetscCall(VecSet(x, 1.0));
  PetscCall(VecPointwiseMult(x, x, sys->free));
  for (k = 0; k < maxits; k++) {
    PetscCall(VecPointwiseMult(y, x, sys->mass));
    PetscCall(VecDot(x, y, &xMx));
    if (!(xMx > 0)) break;
    PetscCall(VecScale(x, 1 / PetscSqrtReal(xMx)));
    PetscCall(sys->fint(sys, 0, x, zero, y, sys->fintctx));
    PetscCall(VecDot(x, y, &xKx));
    lambda = xKx;
    PetscCall(VecPointwiseMult(x, y, minv));
    if (k > 5 && PetscAbsReal(lambda - lold) <= rtol * PetscAbsReal(lambda)) break;
    lold = lambda;
  }
  *omega_power = PetscSqrtReal(PetscMax(lambda, 0));
  *its         = k;
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&zero));
  PetscCall(VecDestroy(&minv));
  PetscCall(PetscLogEventEnd(FLX_CriticalStep, 0, 0, 0, 0));
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
  if (rate) *rate = sys->crate;
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
    PetscCheck(sys->K, sys->comm, PETSC_ERR_ARG_WRONGSTATE, "stiffness-proportional damping needs the assembled stiffness (FlxSystemSetStiffness)");
    PetscCall(MatMult(sys->K, v, f));
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
