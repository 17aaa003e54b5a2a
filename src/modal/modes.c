/* FlxModes: modal analysis with SLEPc.

   Problem. The lumped mass M is diagonal, so K x = lambda M x on the free DOFs is brought to the standard
   symmetric form A y = lambda y with A = M^-1/2 K_ff M^-1/2 and x = M^-1/2 y (mass-normalized modes).
   K_ff is the stiffness restricted to the free DOFs (MatCreateSubMatrix of the AIJ copy of K).

   Highest frequency. Krylov-Schur for the largest eigenvalue of A (prefix -modes_max_): omega_max of the
   lumped-mass system, the number the explicit step is made of.

   Lowest modes. Shift-and-invert around sigma = -modes_shift_factor * omega_max^2 (default 1e-10): the
   shift is negative so that A - sigma I is positive definite even for a free-flying structure, and small
   so that the lowest modes are well separated. Direct solve by default (MUMPS Cholesky); any KSP/PC with
   -modes_st_ksp_type, -modes_st_pc_type.

   Six more eigenpairs than asked are computed and dropped: with exactly repeated frequencies (square
   plates, symmetric sections) the last one asked for can otherwise be skipped for the next distinct one.

   Rigid-body modes. A mode is reported as rigid-body when its mass-weighted projection on the rigid-body
   motions the constraints allow holds all but 1e-6 of it and its eigenvalue is below 1e-8 omega_max^2. */
#include <flexure/flexure.h>
#include <slepceps.h>

struct _p_FlxModes {
  MPI_Comm       comm;
  FlxModel       model;
  PetscInt       nreq, nconv;
  PetscReal      shift_factor, omega_max, *hz, *lambda;
  PetscBool     *rigid;
  Vec           *shapes; /* natural order */
  PetscLogDouble wall;
  PetscBool      deformed; /* about the deformed static state (nonlinear models) */
  Mat            Kt;       /* its symmetrized tangent stiffness */
  Vec            xdef;     /* the static state (DOF vector) */
};

PetscErrorCode FlxModesCreate(FlxModel model, FlxModes *modes)
{
  FlxModes md;
  FlxMesh  mesh;

  PetscFunctionBegin;
  PetscCall(PetscNew(&md));
  PetscCall(FlxModelGetMesh(model, &mesh));
  PetscCall(FlxMeshGetComm(mesh, &md->comm));
  md->model        = model;
  md->nreq         = 6;
  md->shift_factor = 1e-10;
  *modes           = md;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModesSetFromOptions(FlxModes md)
{
  PetscFunctionBegin;
  PetscOptionsBegin(md->comm, "modes_", "Modal analysis", "FlxModes");
  PetscCall(PetscOptionsInt("-n", "Number of lowest modes", "FlxModesSetFromOptions", md->nreq, &md->nreq, NULL));
  PetscCall(PetscOptionsBool("-deformed", "Modes about the deformed static state of a model with geometry nonlinear sections: the nonlinear static solve (-static_* options) runs first and its tangent stiffness (stress stiffening) replaces K", "FlxModesSetFromOptions", md->deformed, &md->deformed, NULL));
  PetscCall(PetscOptionsReal("-shift_factor", "Shift of the shift-and-invert: sigma = -factor omega_max^2", "FlxModesSetFromOptions", md->shift_factor, &md->shift_factor, NULL));
  PetscOptionsEnd();
  PetscCheck(md->nreq > 0, md->comm, PETSC_ERR_USER_INPUT, "-modes_n must be positive");
  PetscCheck(md->shift_factor > 0 && md->shift_factor < 1, md->comm, PETSC_ERR_USER_INPUT, "-modes_shift_factor must be in (0, 1)");
  PetscFunctionReturn(0);
}

/* A = M^-1/2 K_ff M^-1/2 over the free DOFs; idx: local full index of each local free DOF; d = M^-1/2. */
static PetscErrorCode BuildOperator(FlxModes md, Mat *A, Vec *d, PetscInt **idx)
{
  FlxSystem          sys;
  Mat                K, Kaij;
  Vec                mass;
  const PetscScalar *m;
  PetscInt           nloc, rstart, nf = 0;
  IS                 is;
  PetscScalar       *a;

  PetscFunctionBegin;
  PetscCall(FlxModelGetSystem(md->model, &sys));
  PetscCall(FlxModelGetStiffness(md->model, &K));
  if (md->Kt) K = md->Kt;
  PetscCall(FlxSystemGetMass(sys, &mass, NULL));
  {
    PetscBool tensors;
    PetscCall(FlxSystemGetInertiaTensors(sys, NULL, NULL, &tensors));
    PetscCheck(!tensors, md->comm, PETSC_ERR_USER_INPUT, "modes: the model has full rotary inertia tensors (-section_NAME_rotary_inertia tensor or -pointmass_NAME_inertia_tensor), and the modal analysis works with the lumped (diagonal) mass only: use the spherical rotary inertia (the default) for modes");
  }
  PetscCall(VecGetLocalSize(mass, &nloc));
  PetscCall(VecGetOwnershipRange(mass, &rstart, NULL));
  { /* free DOFs: the complement of the prescribed ones; idx = their local index in the full vector */
    IS              fixed;
    const PetscInt *gi;
    PetscCall(FlxSystemCreatePrescribedIS(sys, &fixed));
    PetscCall(ISComplement(fixed, rstart, rstart + nloc, &is));
    PetscCall(ISDestroy(&fixed));
    PetscCall(ISGetLocalSize(is, &nf));
    PetscCall(PetscMalloc1(nf + 1, idx));
    PetscCall(ISGetIndices(is, &gi));
    for (PetscInt j = 0; j < nf; j++)
      (*idx)[j] = gi[j] - rstart;
    PetscCall(ISRestoreIndices(is, &gi));
  }
  PetscCall(MatConvert(K, MATAIJ, MAT_INITIAL_MATRIX, &Kaij));
  PetscCall(MatCreateSubMatrix(Kaij, is, is, MAT_INITIAL_MATRIX, A));
  PetscCall(MatDestroy(&Kaij));
  PetscCall(ISDestroy(&is));
  PetscCall(VecCreateMPI(md->comm, nf, PETSC_DETERMINE, d));
  PetscCall(VecGetArrayRead(mass, &m));
  PetscCall(VecGetArray(*d, &a));
  for (PetscInt j = 0; j < nf; j++)
    a[j] = 1 / PetscSqrtReal(PetscRealPart(m[(*idx)[j]]));
  PetscCall(VecRestoreArray(*d, &a));
  PetscCall(VecRestoreArrayRead(mass, &m));
  PetscCall(MatDiagonalScale(*A, *d, *d));
  PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(*A, MAT_SPD, PETSC_FALSE));
  PetscFunctionReturn(0);
}

static PetscErrorCode SolveLargest(FlxModes md, Mat A)
{
  EPS       eps;
  PetscInt  nconv;
  PetscReal lmax;

  PetscFunctionBegin;
  PetscCall(EPSCreate(md->comm, &eps));
  PetscCall(EPSSetOptionsPrefix(eps, "modes_max_"));
  PetscCall(EPSSetOperators(eps, A, NULL));
  PetscCall(EPSSetProblemType(eps, EPS_HEP));
  PetscCall(EPSSetWhichEigenpairs(eps, EPS_LARGEST_REAL));
  PetscCall(EPSSetDimensions(eps, 1, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(EPSSetTolerances(eps, 1e-8, 10000));
  PetscCall(EPSSetFromOptions(eps));
  PetscCall(EPSSolve(eps));
  PetscCall(EPSGetConverged(eps, &nconv));
  PetscCheck(nconv >= 1, md->comm, PETSC_ERR_NOT_CONVERGED, "modes: the largest eigenvalue did not converge; raise -modes_max_eps_max_it or -modes_max_eps_ncv");
  PetscCall(EPSGetEigenvalue(eps, 0, &lmax, NULL));
  md->omega_max = PetscSqrtReal(PetscMax(lmax, 0));
  PetscCall(EPSDestroy(&eps));
  PetscFunctionReturn(0);
}

/* Fraction of x (full vector) that lies in the M-span of the allowed rigid-body motions. */
static PetscErrorCode RigidFraction(FlxModes md, Vec x, Vec Rm[], PetscInt nr, Vec mass, Vec work, PetscReal *frac)
{
  PetscReal xx, s = 0;

  PetscFunctionBegin;
  PetscCall(VecPointwiseMult(work, mass, x));
  PetscCall(VecDot(x, work, &xx));
  for (PetscInt k = 0; k < nr; k++) {
    PetscReal c;
    PetscCall(VecDot(Rm[k], work, &c));
    s += c * c;
  }
  *frac = xx > 0 ? s / xx : 0;
  PetscFunctionReturn(0);
}

/* M-orthonormal basis of the rigid-body motions the constraints allow (Gram-Schmidt; dependent ones dropped). */
static PetscErrorCode RigidBasis(FlxModes md, Vec mass, Vec work, Vec R[6], PetscInt *nr)
{
  PetscFunctionBegin;
  PetscCall(FlxModelCreateRigidBodyVectors(md->model, PETSC_TRUE, R));
  *nr = 0;
  for (PetscInt k = 0; k < 6; k++) {
    PetscReal n0, n;
    PetscCall(VecPointwiseMult(work, mass, R[k]));
    PetscCall(VecDot(R[k], work, &n0));
    for (PetscInt j = 0; j < *nr; j++) {
      PetscReal c;
      PetscCall(VecDot(R[j], work, &c));
      PetscCall(VecAXPY(R[k], -c, R[j]));
    }
    PetscCall(VecPointwiseMult(work, mass, R[k]));
    PetscCall(VecDot(R[k], work, &n));
    if (n > 1e-12 * n0 && n > 0) {
      PetscCall(VecScale(R[k], 1 / PetscSqrtReal(n)));
      if (k != *nr) {
        Vec t  = R[*nr];
        R[*nr] = R[k];
        R[k]   = t;
      }
      (*nr)++;
    }
  }
  PetscFunctionReturn(0);
}

/* The nonlinear static state and its tangent, symmetrized (K_t + K_t^T)/2: at equilibrium under forces the tangent
   with respect to spatial spins is symmetric but for terms of the applied moments and the out-of-balance force. */
static PetscErrorCode DeformedStiffness(FlxModes md)
{
  FlxSystem     sys;
  FlxStaticPath path;
  Mat           J, Jt;
  PetscBool     nonlinear;

  PetscFunctionBegin;
  PetscCall(FlxModelIsNonlinear(md->model, &nonlinear));
  PetscCheck(nonlinear, md->comm, PETSC_ERR_USER_INPUT, "-modes_deformed needs a model with a geometry nonlinear section (-section_NAME_geometry nonlinear or -model_geometry nonlinear)");
  PetscCall(FlxModelGetSystem(md->model, &sys));
  PetscCall(FlxModelCreateVector(md->model, &md->xdef));
  PetscCall(FlxModelSolveStaticNonlinear(md->model, md->xdef, &path));
  PetscCall(FlxStaticPathDestroy(&path));
  PetscCall(FlxSystemCreateJacobianMatrix(sys, &J));
  PetscCall(FlxSystemComputeJacobian(sys, 0, md->xdef, NULL, 0, 0, J));
  PetscCall(MatConvert(J, MATAIJ, MAT_INITIAL_MATRIX, &md->Kt));
  PetscCall(MatDestroy(&J));
  PetscCall(MatTranspose(md->Kt, MAT_INITIAL_MATRIX, &Jt));
  PetscCall(MatAXPY(md->Kt, 1.0, Jt, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatScale(md->Kt, 0.5));
  PetscCall(MatDestroy(&Jt));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModesGetDeformedState(FlxModes md, Vec *x)
{
  PetscFunctionBegin;
  *x = md->xdef;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModesSolve(FlxModes md)
{
  Mat            A;
  Vec            d, y, full, mass, free, work, R[6];
  PetscInt      *idx, nr;
  EPS            eps;
  ST             st;
  KSP            ksp;
  PC             pc;
  FlxSystem      sys;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(FlxModelGetSystem(md->model, &sys));
  PetscCall(FlxSystemCheckMass(sys, "the modal analysis (K x = omega^2 M x with the lumped mass)"));
  if (md->deformed && !md->Kt) PetscCall(DeformedStiffness(md));
  PetscCall(BuildOperator(md, &A, &d, &idx));
  PetscCall(SolveLargest(md, A));
  PetscCall(EPSCreate(md->comm, &eps));
  PetscCall(EPSSetOptionsPrefix(eps, "modes_"));
  PetscCall(EPSSetOperators(eps, A, NULL));
  PetscCall(EPSSetProblemType(eps, EPS_HEP));
  {
    PetscInt nfree;
    PetscCall(MatGetSize(A, &nfree, NULL));
    PetscCheck(md->nreq <= nfree, md->comm, PETSC_ERR_USER_INPUT, "-modes_n %" PetscInt_FMT ": the model has only %" PetscInt_FMT " free DOFs", md->nreq, nfree);
    /* extra pairs: Krylov methods can miss one of a repeated pair at the end of the window */
    PetscInt nev = PetscMin(md->nreq + 6, nfree);
    PetscCall(EPSSetDimensions(eps, nev, nfree < 2 * nev + 10 ? nfree : PETSC_DEFAULT, PETSC_DEFAULT));
  }
  PetscCall(EPSSetWhichEigenpairs(eps, EPS_TARGET_MAGNITUDE));
  PetscCall(EPSSetTarget(eps, -md->shift_factor * md->omega_max * md->omega_max));
  PetscCall(EPSSetTolerances(eps, 1e-10, PETSC_DEFAULT));
  PetscCall(EPSGetST(eps, &st));
  PetscCall(STSetType(st, STSINVERT));
  PetscCall(STGetKSP(st, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCCHOLESKY));
  PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  PetscCall(EPSSetFromOptions(eps));
  PetscCall(EPSSolve(eps));
  PetscCall(EPSGetConverged(eps, &md->nconv));
  PetscCheck(md->nconv > 0, md->comm, PETSC_ERR_NOT_CONVERGED, "modes: no eigenpair converged (try -modes_eps_ncv or another -modes_st_pc_type)");
  if (md->nconv < md->nreq) PetscCall(PetscPrintf(md->comm, "WARNING: only %" PetscInt_FMT " of the %" PetscInt_FMT " modes asked for converged (try -modes_eps_ncv, -modes_eps_max_it)\n", md->nconv, md->nreq));
  md->nconv = PetscMin(md->nconv, md->nreq);
  PetscCall(PetscCalloc3(md->nconv, &md->hz, md->nconv, &md->lambda, md->nconv, &md->rigid));
  PetscCall(PetscCalloc1(md->nconv, &md->shapes));
  PetscCall(FlxModelGetSystem(md->model, &sys));
  PetscCall(FlxSystemGetMass(sys, &mass, &free));
  PetscCall(VecDuplicate(mass, &full));
  PetscCall(VecDuplicate(mass, &work));
  PetscCall(MatCreateVecs(A, &y, NULL));
  PetscCall(RigidBasis(md, mass, work, R, &nr));
  for (PetscInt k = 0; k < md->nconv; k++) {
    PetscReal          lam, frac = 0, vmax, vmin;
    const PetscScalar *ya, *da;
    PetscScalar       *fa;
    PetscInt           nf;
    PetscCall(EPSGetEigenpair(eps, k, &lam, NULL, y, NULL));
    PetscCall(VecGetLocalSize(y, &nf));
    PetscCall(VecZeroEntries(full));
    PetscCall(VecGetArrayRead(y, &ya));
    PetscCall(VecGetArrayRead(d, &da));
    PetscCall(VecGetArray(full, &fa));
    for (PetscInt j = 0; j < nf; j++)
      fa[idx[j]] = da[j] * ya[j];
    PetscCall(VecRestoreArray(full, &fa));
    PetscCall(VecRestoreArrayRead(d, &da));
    PetscCall(VecRestoreArrayRead(y, &ya));
    PetscCall(RigidFraction(md, full, R, nr, mass, work, &frac));
    md->lambda[k] = lam;
    md->rigid[k]  = (PetscBool)(frac > 1 - 1e-6 && lam < 1e-8 * md->omega_max * md->omega_max);
    /* omega^2 < 0 beyond round-off (a deformed state past buckling, -modes_deformed): written as a negative frequency,
       -sqrt(-lambda); within round-off of 0 (a mechanism), 0 */
    md->hz[k] = md->rigid[k] || PetscAbsReal(lam) < 1e-12 * md->omega_max * md->omega_max ? 0 : (lam < 0 ? -1 : 1) * PetscSqrtReal(PetscAbsReal(lam)) / (2 * PETSC_PI);
    PetscCall(FlxModelCreateNaturalVector(md->model, &md->shapes[k]));
    PetscCall(FlxModelToNatural(md->model, full, md->shapes[k]));
    PetscCall(VecMax(md->shapes[k], NULL, &vmax)); /* sign convention: the largest entry is positive */
    PetscCall(VecMin(md->shapes[k], NULL, &vmin));
    if (-vmin > vmax) PetscCall(VecScale(md->shapes[k], -1));
  }
  for (PetscInt k = 0; k < 6; k++)
    PetscCall(VecDestroy(&R[k]));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&full));
  PetscCall(VecDestroy(&work));
  PetscCall(EPSDestroy(&eps));
  PetscCall(VecDestroy(&d));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFree(idx));
  PetscCall(PetscTime(&t1));
  md->wall = t1 - t0;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModesView(FlxModes md, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "Modes: %" PetscInt_FMT " lowest of the lumped-mass system (SLEPc, shift-and-invert), %.2f s\n", md->nconv, (double)md->wall));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  mode   frequency (Hz)   omega (rad/s)    period (s)\n"));
  for (PetscInt k = 0; k < md->nconv; k++) {
    if (md->rigid[k])
      PetscCall(PetscViewerASCIIPrintf(viewer, "  %4" PetscInt_FMT "   rigid-body mode (omega^2 = %.3e, round-off)\n", k + 1, (double)md->lambda[k]));
    else if (md->hz[k] == 0)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  %4" PetscInt_FMT "   zero-energy mode, not rigid (omega^2 = %.3e, round-off): a mechanism\n", k + 1, (double)md->lambda[k]));
    else if (md->hz[k] < 0)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  %4" PetscInt_FMT "   %14.8g   unstable: omega^2 = %.6g < 0 (the state is past buckling; the frequency is written negative, -sqrt(-omega^2) / 2 pi)\n", k + 1, (double)md->hz[k], (double)md->lambda[k]));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer, "  %4" PetscInt_FMT "   %14.8g   %13.8g   %11.6g\n", k + 1, (double)md->hz[k], (double)(2 * PETSC_PI * md->hz[k]), (double)(1 / md->hz[k])));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "  omega_max = %.10g rad/s (%.6g Hz): central-difference critical step 2/omega_max = %.6g s\n", (double)md->omega_max, (double)(md->omega_max / (2 * PETSC_PI)), (double)(2 / md->omega_max)));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModesWrite(FlxModes md, FlxWriter w)
{
  PetscFunctionBegin;
  PetscCall(FlxWriterWriteModes(w, md->nconv, md->hz, md->rigid, md->omega_max, md->shapes));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModesGetNumModes(FlxModes md, PetscInt *n)
{
  PetscFunctionBegin;
  *n = md->nconv;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModesGetFrequency(FlxModes md, PetscInt k, PetscReal *hz, PetscBool *rigid)
{
  PetscFunctionBegin;
  PetscCheck(k >= 0 && k < md->nconv, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "mode %" PetscInt_FMT " of %" PetscInt_FMT, k, md->nconv);
  if (hz) *hz = md->hz[k];
  if (rigid) *rigid = md->rigid[k];
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModesGetOmegaMax(FlxModes md, PetscReal *omega_max)
{
  PetscFunctionBegin;
  *omega_max = md->omega_max;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModesDestroy(FlxModes *modes)
{
  FlxModes md = *modes;

  PetscFunctionBegin;
  if (!md) PetscFunctionReturn(0);
  for (PetscInt k = 0; k < md->nconv; k++)
    PetscCall(VecDestroy(&md->shapes[k]));
  PetscCall(PetscFree(md->shapes));
  PetscCall(PetscFree3(md->hz, md->lambda, md->rigid));
  PetscCall(MatDestroy(&md->Kt));
  PetscCall(VecDestroy(&md->xdef));
  PetscCall(PetscFree(md));
  *modes = NULL;
  PetscFunctionReturn(0);
}
