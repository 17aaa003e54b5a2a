/* FlxSystem's constraints (issue 16, system.h "Constraints"): holonomic constraints g(t, x) = 0, velocity
   (nonholonomic) constraints k(t, x, v) = 0, a general constraint force and the mass matrix M(t, x). */
#include <flexure/private/systemimpl.h>

PetscErrorCode FlxSystemDestroyConstraints(FlxSystem sys)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&sys->cons.G));
  PetscCall(MatDestroy(&sys->cons.M));
  PetscCall(MatDestroy(&sys->cons.Kv));
  PetscCall(MatDestroy(&sys->cons.Kx));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetConstraints(FlxSystem sys, Mat G, FlxSystemConstraintFn g, FlxSystemConstraintJacobianFn jac, PetscBool linear, void *ctx)
{
  PetscInt m = 0;

  PetscFunctionBegin;
  if (G) PetscCall(PetscObjectReference((PetscObject)G));
  PetscCall(MatDestroy(&sys->cons.G));
  sys->cons.G      = G;
  sys->cons.g      = g;
  sys->cons.jac    = jac;
  sys->cons.linear = linear;
  sys->cons.ctx    = ctx;
  if (G) PetscCall(MatGetSize(G, &m, NULL));
  PetscCheck(!G || (g && jac), sys->comm, PETSC_ERR_ARG_NULL, "FlxSystemSetConstraints needs the constraint function and its Jacobian");
  sys->cons.has = m > 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetConstraintDerivatives(FlxSystem sys, FlxSystemConstraintRateFn rate, FlxSystemConstraintCurvatureFn curvature, FlxSystemConstraintHessianFn hessian, void *ctx)
{
  PetscFunctionBegin;
  sys->cons.rate = rate;
  sys->cons.curv = curvature;
  sys->cons.hess = hessian;
  sys->cons.dctx = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetConstraintNameFunction(FlxSystem sys, FlxSystemConstraintNameFn fn, void *ctx)
{
  PetscFunctionBegin;
  sys->cons.name    = fn;
  sys->cons.namectx = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemHasConstraints(FlxSystem sys, PetscBool *has)
{
  PetscFunctionBegin;
  *has = sys->cons.has;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemGetConstraintMatrix(FlxSystem sys, Mat *G)
{
  PetscFunctionBegin;
  *G = sys->cons.G;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemCreateMultiplierVector(FlxSystem sys, Vec *lambda)
{
  PetscFunctionBegin;
  PetscCheck(sys->cons.G, sys->comm, PETSC_ERR_ARG_WRONGSTATE, "the system has no constraints (FlxSystemSetConstraints)");
  PetscCall(MatCreateVecs(sys->cons.G, NULL, lambda));
  PetscCall(VecZeroEntries(*lambda));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeConstraint(FlxSystem sys, PetscReal t, Vec x, Vec g)
{
  PetscFunctionBegin;
  PetscCheck(sys->cons.g, sys->comm, PETSC_ERR_ARG_WRONGSTATE, "the system has no constraints (FlxSystemSetConstraints)");
  PetscCall(sys->cons.g(sys, t, x, g, sys->cons.ctx));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeConstraintJacobian(FlxSystem sys, PetscReal t, Vec x, Mat G)
{
  PetscFunctionBegin;
  PetscCheck(sys->cons.jac, sys->comm, PETSC_ERR_ARG_WRONGSTATE, "the system has no constraints (FlxSystemSetConstraints)");
  PetscCall(sys->cons.jac(sys, t, x, G, sys->cons.ctx));
  PetscCall(MatAssemblyBegin(G, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(G, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeConstraintRate(FlxSystem sys, PetscReal t, Vec x, Vec w)
{
  PetscFunctionBegin;
  if (sys->cons.rate)
    PetscCall(sys->cons.rate(sys, t, x, w, sys->cons.dctx));
  else
    PetscCall(VecZeroEntries(w));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeConstraintCurvature(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec w)
{
  PetscFunctionBegin;
  if (sys->cons.curv) {
    PetscCall(sys->cons.curv(sys, t, x, v, w, sys->cons.dctx));
    PetscFunctionReturn(0);
  }
  PetscCheck(sys->cons.linear && !sys->cons.rate, sys->comm, PETSC_ERR_ARG_WRONGSTATE, "the constraints are nonlinear or rheonomic: give their curvature G_x(v, v) + 2 G_t v + g_tt (FlxSystemSetConstraintDerivatives)");
  PetscCall(VecZeroEntries(w));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemAddConstraintHessian(FlxSystem sys, PetscReal t, Vec x, Vec lambda, PetscReal scale, Mat J, PetscBool *has)
{
  PetscFunctionBegin;
  if (has) *has = sys->cons.hess || sys->cons.linear ? PETSC_TRUE : PETSC_FALSE;
  if (sys->cons.hess) PetscCall(sys->cons.hess(sys, t, x, lambda, scale, J, sys->cons.dctx));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemGetConstraintName(FlxSystem sys, PetscInt i, char name[], size_t len)
{
  PetscInt lo = 0;

  PetscFunctionBegin;
  if (sys->cons.name) {
    PetscCall(sys->cons.name(sys, i, name, len, sys->cons.namectx));
    PetscFunctionReturn(0);
  }
  if (sys->cons.G) PetscCall(MatGetOwnershipRange(sys->cons.G, &lo, NULL));
  PetscCall(PetscSNPrintf(name, len, "constraint %" PetscInt_FMT, lo + i));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetMassMatrixFunction(FlxSystem sys, Mat M, FlxSystemMassMatrixFn fn, void *ctx)
{
  PetscFunctionBegin;
  if (M) PetscCall(PetscObjectReference((PetscObject)M));
  PetscCall(MatDestroy(&sys->cons.M));
  sys->cons.M    = M;
  sys->cons.mfn  = fn;
  sys->cons.mctx = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemHasMassMatrixFunction(FlxSystem sys, PetscBool *has)
{
  PetscFunctionBegin;
  *has = sys->cons.mfn ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeMassMatrix(FlxSystem sys, PetscReal t, Vec x, Mat *M)
{
  PetscFunctionBegin;
  *M = NULL;
  if (!sys->cons.mfn) PetscFunctionReturn(0);
  PetscCall(sys->cons.mfn(sys, t, x, sys->cons.M, sys->cons.mctx));
  PetscCall(MatAssemblyBegin(sys->cons.M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(sys->cons.M, MAT_FINAL_ASSEMBLY));
  *M = sys->cons.M;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetVelocityConstraints(FlxSystem sys, Mat Kv, Mat Kx, FlxSystemVelocityConstraintFn k, FlxSystemVelocityConstraintJacobianFn jac, FlxSystemVelocityConstraintRateFn rate, void *ctx)
{
  PetscInt m = 0;

  PetscFunctionBegin;
  PetscCheck(!Kv || (k && jac), sys->comm, PETSC_ERR_ARG_NULL, "FlxSystemSetVelocityConstraints needs the constraint function and its Jacobian");
  if (Kv) PetscCall(PetscObjectReference((PetscObject)Kv));
  if (Kx) PetscCall(PetscObjectReference((PetscObject)Kx));
  PetscCall(MatDestroy(&sys->cons.Kv));
  PetscCall(MatDestroy(&sys->cons.Kx));
  sys->cons.Kv    = Kv;
  sys->cons.Kx    = Kx;
  sys->cons.k     = k;
  sys->cons.kjac  = jac;
  sys->cons.krate = rate;
  sys->cons.kctx  = ctx;
  if (Kv) PetscCall(MatGetSize(Kv, &m, NULL));
  sys->cons.hasv = m > 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemHasVelocityConstraints(FlxSystem sys, PetscBool *has)
{
  PetscFunctionBegin;
  *has = sys->cons.hasv;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemGetVelocityConstraintMatrices(FlxSystem sys, Mat *Kv, Mat *Kx)
{
  PetscFunctionBegin;
  if (Kv) *Kv = sys->cons.Kv;
  if (Kx) *Kx = sys->cons.Kx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemCreateVelocityMultiplierVector(FlxSystem sys, Vec *psi)
{
  PetscFunctionBegin;
  PetscCheck(sys->cons.Kv, sys->comm, PETSC_ERR_ARG_WRONGSTATE, "the system has no velocity constraints (FlxSystemSetVelocityConstraints)");
  PetscCall(MatCreateVecs(sys->cons.Kv, NULL, psi));
  PetscCall(VecZeroEntries(*psi));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeVelocityConstraint(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec k)
{
  PetscFunctionBegin;
  PetscCheck(sys->cons.k, sys->comm, PETSC_ERR_ARG_WRONGSTATE, "the system has no velocity constraints (FlxSystemSetVelocityConstraints)");
  PetscCall(sys->cons.k(sys, t, x, v, k, sys->cons.kctx));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeVelocityConstraintJacobian(FlxSystem sys, PetscReal t, Vec x, Vec v, Mat Kv, Mat Kx)
{
  PetscFunctionBegin;
  PetscCheck(sys->cons.kjac, sys->comm, PETSC_ERR_ARG_WRONGSTATE, "the system has no velocity constraints (FlxSystemSetVelocityConstraints)");
  if (Kx && !sys->cons.Kx) PetscCall(MatZeroEntries(Kx));
  PetscCall(sys->cons.kjac(sys, t, x, v, Kv, sys->cons.Kx ? Kx : NULL, sys->cons.kctx));
  PetscCall(MatAssemblyBegin(Kv, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Kv, MAT_FINAL_ASSEMBLY));
  if (Kx) {
    PetscCall(MatAssemblyBegin(Kx, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(Kx, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeVelocityConstraintRemainder(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec w)
{
  PetscFunctionBegin;
  if (sys->cons.krate)
    PetscCall(sys->cons.krate(sys, t, x, v, w, sys->cons.kctx));
  else
    PetscCall(VecZeroEntries(w));
  if (sys->cons.Kx) { /* a set-up operation: work copies of the matrices */
    Mat Kv, Kx;
    PetscCall(MatDuplicate(sys->cons.Kv, MAT_DO_NOT_COPY_VALUES, &Kv));
    PetscCall(MatDuplicate(sys->cons.Kx, MAT_DO_NOT_COPY_VALUES, &Kx));
    PetscCall(FlxSystemComputeVelocityConstraintJacobian(sys, t, x, v, Kv, Kx));
    PetscCall(MatMultAdd(Kx, v, w, w));
    PetscCall(MatDestroy(&Kv));
    PetscCall(MatDestroy(&Kx));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSetConstraintForce(FlxSystem sys, FlxSystemConstraintForceFn fc, FlxSystemConstraintForceJacobianFn jac, void *ctx)
{
  PetscFunctionBegin;
  PetscCheck(!fc || jac, sys->comm, PETSC_ERR_ARG_NULL, "FlxSystemSetConstraintForce needs the force's derivatives (Lt, Pt and the tangent)");
  sys->cons.fc    = fc;
  sys->cons.fcjac = jac;
  sys->cons.fcctx = ctx;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemHasConstraintForce(FlxSystem sys, PetscBool *has)
{
  PetscFunctionBegin;
  *has = sys->cons.fc ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeConstraintForce(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec lambda, Vec psi, Mat G, Mat Kv, Vec fc)
{
  PetscFunctionBegin;
  if (sys->cons.fc) {
    PetscCall(sys->cons.fc(sys, t, x, v, lambda, psi, fc, sys->cons.fcctx));
    PetscFunctionReturn(0);
  }
  PetscCall(MatMultTranspose(G, lambda, fc));
  if (Kv && psi) PetscCall(MatMultTransposeAdd(Kv, psi, fc, fc));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeConstraintForceJacobian(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec lambda, Vec psi, Mat G, Mat Kv, Mat Lt, Mat Pt, PetscReal shiftV, Mat J)
{
  PetscFunctionBegin;
  if (sys->cons.fc) {
    PetscCall(sys->cons.fcjac(sys, t, x, v, lambda, psi, Lt, Pt, shiftV, J, sys->cons.fcctx));
    PetscCall(MatAssemblyBegin(Lt, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(Lt, MAT_FINAL_ASSEMBLY));
    if (Pt) {
      PetscCall(MatAssemblyBegin(Pt, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(Pt, MAT_FINAL_ASSEMBLY));
    }
    PetscFunctionReturn(0);
  }
  if (Lt != G) PetscCall(MatCopy(G, Lt, SAME_NONZERO_PATTERN));
  if (Pt && Pt != Kv) PetscCall(MatCopy(Kv, Pt, SAME_NONZERO_PATTERN));
  if (J) PetscCall(FlxSystemAddConstraintHessian(sys, t, x, lambda, 1.0, J, NULL));
  PetscFunctionReturn(0);
}
