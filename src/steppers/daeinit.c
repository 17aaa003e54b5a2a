/* Constrained systems (issue 16): what the constrained steppers share besides the saddle-point solves
   (constraints.c): the checks (or projection) of the initial conditions, the consistent initial acceleration and
   multipliers, the constraint violations, and the stepper's accessors of the multipliers and violations. */
#include <flexure/private/stepperimpl.h>

static PetscLogEvent FLX_Constraint = 0;

PetscErrorCode FlxStepperGetMultipliers(FlxStepper ts, Vec *lambda)
{
  PetscFunctionBegin;
  *lambda = NULL;
  if (ts->ops.getmultipliers) PetscCall(ts->ops.getmultipliers(ts, lambda, NULL));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxDAECheckSupported(FlxStepper ts, PetscBool soi2, PetscBool *cons)
{
  PetscBool hol, vel, gen;

  PetscFunctionBegin;
  PetscCall(FlxSystemHasConstraints(ts->sys, &hol));
  PetscCall(FlxSystemHasVelocityConstraints(ts->sys, &vel));
  PetscCall(FlxSystemHasConstraintForce(ts->sys, &gen));
  PetscCheck(!vel || hol, ts->comm, PETSC_ERR_USER_INPUT, "velocity (nonholonomic) constraints without position (holonomic) ones are not supported yet");
  PetscCheck(soi2 || !(vel || gen), ts->comm, PETSC_ERR_USER_INPUT, "-ts_type %s%s: this system has %s, which only generalized-alpha-SOI2 integrates (-ts_type newmark|hht|genalpha -ts_dae_soi2)", ts->type, strcmp(ts->type, FLXSTEPPERGCD) ? " (index 3)" : "", vel ? "velocity (nonholonomic) constraints" : "a constraint force nonlinear in the multipliers (FlxSystemSetConstraintForce)");
  *cons = hol;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperGetVelocityMultipliers(FlxStepper ts, Vec *psi)
{
  PetscFunctionBegin;
  *psi = NULL;
  if (ts->ops.getmultipliers) PetscCall(ts->ops.getmultipliers(ts, NULL, psi));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperSetInitialMultipliers(FlxStepper ts, Vec lambda0, Vec psi0)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&ts->dae.lambda0));
  PetscCall(VecDestroy(&ts->dae.psi0));
  if (lambda0) {
    PetscCall(VecDuplicate(lambda0, &ts->dae.lambda0));
    PetscCall(VecCopy(lambda0, ts->dae.lambda0));
  }
  if (psi0) {
    PetscCall(VecDuplicate(psi0, &ts->dae.psi0));
    PetscCall(VecCopy(psi0, ts->dae.psi0));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStepperGetConstraintViolation(FlxStepper ts, PetscReal *gpos, PetscReal *gvel)
{
  PetscFunctionBegin;
  if (gpos) *gpos = ts->dae.gmax;
  if (gvel) *gvel = ts->dae.vmax;
  PetscFunctionReturn(0);
}

/* The worst violation of a constraint vector: |w|_inf and a sentence naming it. */
static PetscErrorCode WorstConstraint(FlxSystem sys, Vec w, PetscReal *val, char name[], size_t len)
{
  PetscInt gi;
  Mat      G;

  PetscFunctionBegin;
  PetscCall(VecNorm(w, NORM_INFINITY, val));
  PetscCall(FlxSystemGetConstraintMatrix(sys, &G));
  {
    Vec t;
    PetscCall(VecDuplicate(w, &t));
    PetscCall(VecCopy(w, t));
    PetscCall(VecAbs(t));
    PetscReal mx;
    PetscCall(VecMax(t, &gi, &mx));
    PetscCall(VecDestroy(&t));
  }
  PetscCall(FlxDAENameConstraints(sys, G, 1, &gi, name, len));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxDAEViolation(FlxStepper ts, PetscReal t, Vec x, Vec v, Mat G, PetscReal *gpos, PetscReal *gvel)
{
  Vec w, u;
  Mat Gc = G;

  PetscFunctionBegin;
  if (!FLX_Constraint) PetscCall(PetscLogEventRegister("FlxConstraint", FLX_CLASSID, &FLX_Constraint));
  PetscCall(PetscLogEventBegin(FLX_Constraint, 0, 0, 0, 0));
  PetscCall(FlxSystemCreateMultiplierVector(ts->sys, &w));
  PetscCall(FlxSystemComputeConstraint(ts->sys, t, x, w));
  PetscCall(VecNorm(w, NORM_INFINITY, gpos));
  if (v && gvel) {
    if (!Gc) {
      PetscCall(FlxSystemGetConstraintMatrix(ts->sys, &Gc));
      PetscCall(MatDuplicate(Gc, MAT_DO_NOT_COPY_VALUES, &Gc));
      PetscCall(FlxSystemComputeConstraintJacobian(ts->sys, t, x, Gc));
    }
    PetscCall(VecDuplicate(w, &u));
    PetscCall(FlxSystemComputeConstraintRate(ts->sys, t, x, u));
    PetscCall(MatMultAdd(Gc, v, u, u));
    PetscCall(VecNorm(u, NORM_INFINITY, gvel));
    PetscCall(VecDestroy(&u));
    if (!G) PetscCall(MatDestroy(&Gc));
  }
  PetscCall(VecDestroy(&w));
  PetscCall(PetscLogEventEnd(FLX_Constraint, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* The Newton loop of FlxDAEProjectPosition on its work objects (created and destroyed by the caller, so that an
   error inside leaves nothing behind). */
static PetscErrorCode ProjectPositionLoop(FlxStepper ts, FlxSaddle sp, PetscReal t, Vec Adiag, Mat Amat, Mat Gref, Vec x, const char what[], Vec g, Vec mu, Vec r1, Vec dx, Mat H)
{
  PetscReal gn = 0, xn, dn = 0;
  PetscInt  it, maxit = PetscMax(ts->dae.maxit, 20); /* a set-up operation: at least 20 iterations */

  PetscFunctionBegin;
  PetscCall(VecZeroEntries(r1));
  for (it = 0; it < maxit; it++) {
    PetscCall(FlxSystemComputeConstraint(ts->sys, t, x, g));
    PetscCall(VecNorm(g, NORM_INFINITY, &gn));
    PetscCall(VecNorm(x, NORM_INFINITY, &xn));
    if (it && (dn <= ts->dae.rtol * PetscMax(xn, PETSC_SMALL) || gn == 0)) break;
    PetscCall(FlxSystemComputeConstraintJacobian(ts->sys, t, x, H));
    PetscCall(FlxSaddleSetOperators(sp, Adiag, Amat, Gref, H));
    PetscCall(VecScale(g, -1.0));
    PetscCall(FlxSaddleSolve(sp, r1, g, dx, mu, what, t));
    PetscCall(VecAXPY(x, 1.0, dx));
    PetscCall(VecNorm(dx, NORM_INFINITY, &dn));
  }
  PetscCheck(it < maxit, ts->comm, PETSC_ERR_NOT_CONVERGED, "the projection of %s onto the constraints did not converge in %" PetscInt_FMT " Newton iterations at t = %g s (|g| = %g, last change %g): the constraints may be inconsistent there (-ts_dae_max_it)", what, maxit, (double)t, (double)gn, (double)dn);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxDAEProjectPosition(FlxStepper ts, FlxSaddle sp, PetscReal t, Vec Adiag, Mat Amat, Mat Gref, Vec x, const char what[])
{
  Vec            g, mu, r1, dx;
  Mat            H;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(FlxSystemCreateMultiplierVector(ts->sys, &g));
  PetscCall(VecDuplicate(g, &mu));
  PetscCall(VecDuplicate(x, &r1));
  PetscCall(VecDuplicate(x, &dx));
  PetscCall(MatDuplicate(Gref, MAT_DO_NOT_COPY_VALUES, &H));
  ierr = ProjectPositionLoop(ts, sp, t, Adiag, Amat, Gref, x, what, g, mu, r1, dx, H);
  PetscCall(MatDestroy(&H));
  PetscCall(VecDestroy(&g));
  PetscCall(VecDestroy(&mu));
  PetscCall(VecDestroy(&r1));
  PetscCall(VecDestroy(&dx));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* The velocity projection of FlxDAEInitialConditions: M dv + G^T mu = 0, G (v + dv) + g_t = 0, with w = G v + g_t. */
static PetscErrorCode ProjectVelocity(FlxSaddle sp, PetscReal t0, Vec Adiag, Mat Amat, Mat G, Vec w, Vec v, Vec mu, Vec r1, Vec dv)
{
  PetscFunctionBegin;
  PetscCall(VecZeroEntries(r1));
  PetscCall(VecScale(w, -1.0));
  PetscCall(FlxSaddleSetOperators(sp, Adiag, Amat, G, G));
  PetscCall(FlxSaddleSolve(sp, r1, w, dv, mu, "the projection of the initial velocity", t0));
  PetscCall(VecAXPY(v, 1.0, dv));
  PetscFunctionReturn(0);
}

/* FlxDAEInitialConditions on its work objects w (a multiplier vector) and G (a copy of the constraint matrix). */
static PetscErrorCode InitialConditions(FlxStepper ts, FlxSaddle sp, PetscReal t0, Vec Adiag, Mat Amat, Vec x, Vec v, Vec w, Mat G)
{
  PetscReal gp, gv;
  char      name[256];

  PetscFunctionBegin;
  PetscCall(FlxSystemComputeConstraint(ts->sys, t0, x, w));
  PetscCall(WorstConstraint(ts->sys, w, &gp, name, sizeof(name)));
  if (gp > ts->dae.ic_tol) {
    PetscCheck(ts->dae.project_ic, ts->comm, PETSC_ERR_USER_INPUT, "the initial position violates the constraint %s by %g (|g|, tolerance -ts_dae_ic_tol %g): give a consistent initial position, or -ts_dae_project_ic to move it onto the constraints", name, (double)gp, (double)ts->dae.ic_tol);
    PetscCall(FlxSystemComputeConstraintJacobian(ts->sys, t0, x, G));
    PetscCheck(sp, ts->comm, PETSC_ERR_USER_INPUT, "the initial position violates the constraint %s by %g: -ts_dae_project_ic does not project a system with velocity constraints; give a consistent initial position", name, (double)gp);
    PetscCall(FlxDAEProjectPosition(ts, sp, t0, Adiag, Amat, G, x, "the initial position"));
    PetscCall(PetscPrintf(ts->comm, "note: the initial position violated the constraint %s by %g: projected onto the constraints (-ts_dae_project_ic)\n", name, (double)gp));
  }
  PetscCall(FlxSystemComputeConstraintJacobian(ts->sys, t0, x, G));
  PetscCall(FlxSystemComputeConstraintRate(ts->sys, t0, x, w));
  PetscCall(MatMultAdd(G, v, w, w));
  PetscCall(WorstConstraint(ts->sys, w, &gv, name, sizeof(name)));
  if (gv > ts->dae.ic_tol) {
    Vec            mu, r1, dv;
    PetscErrorCode ierr;
    PetscCheck(ts->dae.project_ic, ts->comm, PETSC_ERR_USER_INPUT, "the initial velocity violates the constraint %s by %g (|G v + g_t|, tolerance -ts_dae_ic_tol %g): give a consistent initial velocity, or -ts_dae_project_ic to project it", name, (double)gv, (double)ts->dae.ic_tol);
    PetscCheck(sp, ts->comm, PETSC_ERR_USER_INPUT, "the initial velocity violates the constraint %s by %g: -ts_dae_project_ic does not project a system with velocity constraints; give a consistent initial velocity", name, (double)gv);
    PetscCall(VecDuplicate(w, &mu));
    PetscCall(VecDuplicate(x, &r1));
    PetscCall(VecDuplicate(x, &dv));
    ierr = ProjectVelocity(sp, t0, Adiag, Amat, G, w, v, mu, r1, dv);
    PetscCall(VecDestroy(&mu));
    PetscCall(VecDestroy(&r1));
    PetscCall(VecDestroy(&dv));
    PetscCall(ierr);
    PetscCall(PetscPrintf(ts->comm, "note: the initial velocity violated the constraint %s by %g: projected (-ts_dae_project_ic)\n", name, (double)gv));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxDAEInitialConditions(FlxStepper ts, FlxSaddle sp, PetscReal t0, Vec Adiag, Mat Amat, Vec x, Vec v)
{
  Vec            w;
  Mat            G;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(FlxSystemCreateMultiplierVector(ts->sys, &w));
  PetscCall(FlxSystemGetConstraintMatrix(ts->sys, &G));
  PetscCall(MatDuplicate(G, MAT_DO_NOT_COPY_VALUES, &G));
  ierr = InitialConditions(ts, sp, t0, Adiag, Amat, x, v, w, G);
  PetscCall(MatDestroy(&G));
  PetscCall(VecDestroy(&w));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxDAECheckVelocityConstraints(FlxStepper ts, PetscReal t0, Vec x, Vec v)
{
  Vec       k;
  PetscReal kn;
  PetscInt  i;

  PetscFunctionBegin;
  PetscCall(FlxSystemCreateVelocityMultiplierVector(ts->sys, &k));
  PetscCall(FlxSystemComputeVelocityConstraint(ts->sys, t0, x, v, k));
  PetscCall(VecAbs(k));
  PetscCall(VecMax(k, &i, &kn));
  PetscCall(VecDestroy(&k));
  PetscCheck(kn <= ts->dae.ic_tol, ts->comm, PETSC_ERR_USER_INPUT, "the initial state violates the velocity constraint %" PetscInt_FMT " by %g (|k(t_0, x_0, v_0)|, tolerance -ts_dae_ic_tol %g): give a consistent initial velocity (velocity constraints are not projected)", i, (double)kn, (double)ts->dae.ic_tol);
  PetscFunctionReturn(0);
}

/* FlxDAEConsistentAcceleration on its work objects f, e (state vectors), w (a multiplier vector) and G. */
static PetscErrorCode ConsistentAcceleration(FlxStepper ts, FlxSaddle sp, PetscReal t, Vec Adiag, Mat Amat, Vec x, Vec v, Vec a, Vec lambda, Vec f, Vec e, Vec w, Mat G)
{
  PetscReal aM, bK;
  Vec       free;

  PetscFunctionBegin;
  PetscCall(FlxSystemComputeConstraintJacobian(ts->sys, t, x, G));
  PetscCall(FlxSystemComputeInternalForce(ts->sys, t, x, v, f));
  PetscCall(VecScale(f, -1.0));
  PetscCall(FlxSystemComputeExternalForce(ts->sys, t, e)); /* + f_ext - a_M M v */
  PetscCall(VecAXPY(f, 1.0, e));
  PetscCall(FlxSystemGetRayleigh(ts->sys, &aM, &bK));
  if (aM != 0) {
    if (Adiag)
      PetscCall(VecPointwiseMult(e, Adiag, v));
    else
      PetscCall(MatMult(Amat, v, e));
    PetscCall(VecAXPY(f, -aM, e));
  }
  PetscCall(FlxSystemGetMass(ts->sys, NULL, &free));
  PetscCall(VecPointwiseMult(f, f, free)); /* prescribed DOFs at rest: a = 0 */
  PetscCall(FlxSystemComputeConstraintCurvature(ts->sys, t, x, v, w));
  PetscCall(VecScale(w, -1.0));
  PetscCall(FlxSaddleSetOperators(sp, Adiag, Amat, G, G));
  PetscCall(FlxSaddleSolve(sp, f, w, a, lambda, "the consistent initial acceleration", t));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxDAEConsistentAcceleration(FlxStepper ts, FlxSaddle sp, PetscReal t, Vec Adiag, Mat Amat, Vec x, Vec v, Vec a, Vec lambda)
{
  Vec            f, e, w;
  Mat            G;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(x, &f));
  PetscCall(VecDuplicate(x, &e));
  PetscCall(VecDuplicate(lambda, &w));
  PetscCall(FlxSystemGetConstraintMatrix(ts->sys, &G));
  PetscCall(MatDuplicate(G, MAT_DO_NOT_COPY_VALUES, &G));
  ierr = ConsistentAcceleration(ts, sp, t, Adiag, Amat, x, v, a, lambda, f, e, w, G);
  PetscCall(MatDestroy(&G));
  PetscCall(VecDestroy(&f));
  PetscCall(VecDestroy(&e));
  PetscCall(VecDestroy(&w));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}
