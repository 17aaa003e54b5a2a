/* The Newton path of the implicit steppers on nonlinear systems (alphanewton.c): its options (-ts_newton_*), set-up
   (the Jacobian matrix, the KSP with prefix ts_: LU by MUMPS by default), probes, view, report and progress line. */
#include "alpha.h"

static const char *const NewtonTypes[] = {"full", "modified", "FlxNewtonType", "NEWTON_", NULL};

static PetscErrorCode NewtonCreate(FlxStepper_Alpha *al)
{
  FlxAlphaNewton nw;

  PetscFunctionBegin;
  if (al->nw) PetscFunctionReturn(0);
  PetscCall(PetscNew(&nw));
  nw->type     = NEWTON_FULL;
  nw->rtol     = 1e-8;
  nw->stol     = 1e-8;
  nw->max_it   = 15;
  nw->max_cuts = 10;
  nw->grow     = 4;
  nw->refresh  = 0.25;
  al->nw       = nw;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaNewtonSetFromOptions(FlxStepper ts)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton    nw;

  PetscFunctionBegin;
  PetscCall(NewtonCreate(al));
  nw = al->nw;
  PetscOptionsBegin(ts->comm, NULL, "Implicit steppers on nonlinear systems: Newton iterations (-ts_type newmark|hht|genalpha)", "FlxStepperAlpha");
  PetscCall(PetscOptionsEnum("-ts_newton_type", "Newton: full (tangent assembled every iteration) or modified (tangent kept over iterations and steps while it converges)", "FlxStepperAlpha", NewtonTypes, (PetscEnum)nw->type, (PetscEnum *)&nw->type, NULL));
  PetscCall(PetscOptionsReal("-ts_newton_rtol", "Newton: out-of-balance force relative to the largest force of the run (external, internal, inertia)", "FlxStepperAlpha", nw->rtol, &nw->rtol, NULL));
  PetscCall(PetscOptionsReal("-ts_newton_atol", "Newton: absolute out-of-balance force added to the relative tolerance", "FlxStepperAlpha", nw->atol, &nw->atol, NULL));
  PetscCall(PetscOptionsReal("-ts_newton_stol", "Newton: last correction relative to the step's increment", "FlxStepperAlpha", nw->stol, &nw->stol, NULL));
  PetscCall(PetscOptionsInt("-ts_newton_max_it", "Newton iterations (linear solves) of a step before it is halved", "FlxStepperAlpha", nw->max_it, &nw->max_it, NULL));
  PetscCall(PetscOptionsInt("-ts_newton_max_cuts", "Halvings of -ts_dt allowed for a step whose Newton fails before the run stops", "FlxStepperAlpha", nw->max_cuts, &nw->max_cuts, NULL));
  PetscCall(PetscOptionsReal("-ts_newton_min_dt", "Smallest step a failing Newton may be halved to (s; 0: only -ts_newton_max_cuts limits)", "FlxStepperAlpha", nw->min_dt, &nw->min_dt, NULL));
  PetscCall(PetscOptionsInt("-ts_newton_grow", "Converged steps after a halving before the step doubles back (up to -ts_dt)", "FlxStepperAlpha", nw->grow, &nw->grow, NULL));
  PetscCall(PetscOptionsReal("-ts_newton_refresh", "Modified Newton: re-form the tangent when an iteration reduces the out-of-balance force by less than this factor", "FlxStepperAlpha", nw->refresh, &nw->refresh, NULL));
  PetscCall(PetscOptionsBool("-ts_newton_monitor", "Print the out-of-balance force and the correction of every Newton iteration", "FlxStepperAlpha", nw->monitor, &nw->monitor, NULL));
  PetscCall(PetscOptionsBool("-ts_newton_linear", "Iterate with Newton on a linear system too (verification: the same results as the linear path)", "FlxStepperAlpha", nw->on_linear, &nw->on_linear, NULL));
  PetscOptionsEnd();
  PetscCheck(nw->rtol > 0 && nw->stol > 0 && nw->atol >= 0, ts->comm, PETSC_ERR_USER_INPUT, "-ts_newton_rtol and -ts_newton_stol must be positive, -ts_newton_atol not negative");
  PetscCheck(nw->max_it > 0 && nw->max_cuts >= 0 && nw->max_cuts <= 40 && nw->grow > 0, ts->comm, PETSC_ERR_USER_INPUT, "-ts_newton_max_it and -ts_newton_grow must be positive, -ts_newton_max_cuts in [0, 40]");
  PetscCheck(nw->min_dt >= 0 && nw->refresh > 0 && nw->refresh <= 1, ts->comm, PETSC_ERR_USER_INPUT, "-ts_newton_min_dt must not be negative, -ts_newton_refresh in (0, 1]");
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaNewtonApplies(FlxStepper ts, PetscBool linear, PetscBool *applies)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;

  PetscFunctionBegin;
  PetscCall(NewtonCreate(al));
  *applies = (PetscBool)(!linear || al->nw->on_linear || al->adapt.on); /* error control: the Newton path's sub-steps */
  PetscCheck(!*applies || !al->consistent, ts->comm, PETSC_ERR_USER_INPUT, "-ts_alpha_mass consistent: the Newton iterations of the implicit steppers on %s use the lumped mass; remove the option", !linear ? "geometrically nonlinear models" : al->adapt.on ? "a linear system with error control (-ts_alpha_adapt)"
                                                                                                                                                                                                                                                               : "a linear system (-ts_newton_linear)");
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaNewtonSetUp(FlxStepper ts)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton    nw = al->nw;
  PC                pc;
  PetscInt          n;

  PetscFunctionBegin;
  PetscCall(FlxSystemHasConfigurationUpdate(ts->sys, &nw->finite));
  PetscCall(FlxSystemHasStrainEnergy(ts->sys, &nw->energy));
  PetscCall(FlxSystemGetInertiaTensors(ts->sys, &nw->ntn, &nw->tdof, &nw->tensor));
  PetscCall(PetscFree(nw->tblk));
  if (nw->tensor) PetscCall(PetscMalloc1(27 * nw->ntn + 1, &nw->tblk));
  PetscCheck(!nw->tensor || nw->finite, ts->comm, PETSC_ERR_ARG_WRONGSTATE, "a system with nodal inertia tensors needs finite rotations (a configuration update)");
  PetscCall(VecGetLocalSize(al->Mass, &n));
  PetscCheck(!nw->finite || n % 6 == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "a system with finite rotations has 6 DOFs per node");
  PetscCheck(nw->energy || al->K, ts->comm, PETSC_ERR_USER_INPUT, "-ts_type %s: the system has neither a strain energy (FlxSystemSetStrainEnergy) nor an assembled stiffness for the energy ledger", ts->type);
  if (!nw->J) {
    PetscCall(FlxSystemCreateJacobianMatrix(ts->sys, &nw->J));
    PetscCall(KSPCreate(ts->comm, &nw->ksp));
    PetscCall(KSPSetOptionsPrefix(nw->ksp, "ts_"));
    PetscCall(KSPSetType(nw->ksp, KSPPREONLY));
    PetscCall(KSPGetPC(nw->ksp, &pc));
    PetscCall(PCSetType(pc, PCLU));
    PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS)); /* 2.5 x faster factorizations than PETSc's LU on a tower */
    PetscCall(KSPSetErrorIfNotConverged(nw->ksp, PETSC_FALSE));
    PetscCall(KSPSetFromOptions(nw->ksp));
    PetscCall(VecDuplicate(al->Mass, &nw->Ast));
    PetscCall(PetscMalloc1(al->nmov + 1, &nw->fmov));
  }
  PetscCall(FlxAlphaAdaptSetUp(ts, &al->adapt, al->beta, al->Free));
  nw->X1   = al->Xt;
  nw->V1   = al->Vt;
  nw->As1  = al->KV;
  nw->A1   = al->F;
  nw->Dx   = al->Xn;
  nw->Del  = al->B;
  nw->R    = al->Rhs;
  nw->Fint = al->KX;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaNewtonReset(FlxStepper ts)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton    nw = al->nw;

  PetscFunctionBegin;
  if (!nw) PetscFunctionReturn(0);
  PetscCall(MatDestroy(&nw->J));
  PetscCall(KSPDestroy(&nw->ksp));
  PetscCall(VecDestroy(&nw->Ast));
  PetscCall(PetscFree(nw->fmov));
  PetscCall(PetscFree(nw->tblk));
  nw->X1 = nw->V1 = nw->As1 = nw->A1 = nw->Dx = nw->Del = nw->R = nw->Fint = NULL; /* the family's work vectors */
  nw->tdof                                                                 = NULL;
  nw->ntn                                                                  = 0;
  nw->tensor = nw->Jvalid = PETSC_FALSE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaNewtonDestroy(FlxStepper ts)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;

  PetscFunctionBegin;
  PetscCall(FlxAlphaNewtonReset(ts));
  PetscCall(PetscFree(al->nw));
  PetscFunctionReturn(0);
}

/* Probes: x, v and the physical acceleration a. */
PetscErrorCode FlxAlphaNewtonProbe(FlxStepper ts, PetscInt n, const PetscInt idx[], PetscReal out[])
{
  FlxStepper_Alpha  *al = (FlxStepper_Alpha *)ts->data;
  const PetscScalar *X, *V, *A;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(al->X, &X));
  PetscCall(VecGetArrayRead(al->V, &V));
  PetscCall(VecGetArrayRead(al->Aphys, &A));
  for (PetscInt k = 0; k < n; k++) {
    PetscInt i     = idx[k];
    out[3 * k]     = i >= 0 ? X[i] : 0;
    out[3 * k + 1] = i >= 0 ? V[i] : 0;
    out[3 * k + 2] = i >= 0 ? A[i] : 0;
  }
  PetscCall(VecRestoreArrayRead(al->Aphys, &A));
  PetscCall(VecRestoreArrayRead(al->V, &V));
  PetscCall(VecRestoreArrayRead(al->X, &X));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaNewtonView(FlxStepper ts, PetscViewer viewer)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton    nw = al->nw;
  KSPType           kt;
  PCType            pt;
  PC                pc;
  MatSolverType     st = NULL;

  PetscFunctionBegin;
  PetscCall(KSPGetType(nw->ksp, &kt));
  PetscCall(KSPGetPC(nw->ksp, &pc));
  PetscCall(PCGetType(pc, &pt));
  if (pt && (!strcmp(pt, PCLU) || !strcmp(pt, PCCHOLESKY) || !strcmp(pt, PCILU))) PetscCall(PCFactorGetMatSolverType(pc, &st));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  implicit, Newton at every step (Lie-group generalized-alpha: equilibrium at t_{n+1}, x_{n+1} = x_n (+) dx%s): %s Newton (%s); converged when the out-of-balance force <= %g x the largest force of the run%s and the last correction <= %g x the step's increment; at most %" PetscInt_FMT " iterations\n", nw->finite ? " with composed rotations" : "",
                                   NewtonTypes[nw->type], nw->type == NEWTON_FULL ? "tangent assembled every iteration" : "tangent kept while each iteration reduces the force by -ts_newton_refresh", (double)nw->rtol, nw->atol > 0 ? " + -ts_newton_atol" : "", (double)nw->stol, nw->max_it));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  a step whose Newton fails is halved (at most %" PetscInt_FMT " times%s), doubling back after %" PetscInt_FMT " converged steps; linear solver KSP %s + PC %s%s%s; mass lumped; Rayleigh a_M %g%s\n", nw->max_cuts, nw->min_dt > 0 ? ", not below -ts_newton_min_dt" : "", nw->grow, kt, pt ? pt : "none", st ? " " : "", st ? st : "", (double)al->aM, al->Cd ? ", discrete dampers C_d" : ""));
  PetscCall(FlxAlphaAdaptView(&al->adapt, viewer));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaNewtonReport(FlxStepper ts, PetscViewer viewer)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton    nw = al->nw;

  PetscFunctionBegin;
  if (!nw->nsub) PetscFunctionReturn(0);
  PetscCall(PetscViewerASCIIPrintf(viewer, "implicit Newton (%s): %" PetscInt_FMT " steps, %" PetscInt_FMT " halvings (smallest step %g s); Newton iterations per step %.2f on average (at most %" PetscInt_FMT "); %" PetscInt_FMT " tangents (%.3f s), %" PetscInt_FMT " residuals (%.3f s), linear solves %.3f s; %" PetscInt_FMT " steps converged to the round-off of f_int\n", NewtonTypes[nw->type], nw->nsub, nw->ncuts, (double)nw->hmin,
                                   (double)nw->nits / nw->nsub, nw->itsmax, nw->njac, (double)nw->tjac, nw->nres, (double)nw->tres, (double)nw->tsol, nw->nfloor));
  PetscCall(FlxAlphaAdaptReport(&al->adapt, viewer));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxAlphaNewtonProgress(FlxStepper ts, char buf[], size_t len)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  FlxAlphaNewton    nw = al->nw;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(buf, len, "  Newton its %" PetscInt_FMT " (mean %.2f, max %" PetscInt_FMT "), halvings %" PetscInt_FMT, nw->itsstep, nw->nsub ? (double)nw->nits / nw->nsub : 0.0, nw->itsmax, nw->ncuts));
  PetscFunctionReturn(0);
}
