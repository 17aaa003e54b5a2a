/* Constrained systems (issue 16): the saddle-point machinery shared by the constrained steppers, their options
   (-ts_dae_*) and the diagnosis of a singular saddle-point matrix (the initial conditions, the violations and the
   multipliers' accessor: daeinit.c).

   The saddle-point system of every constrained step is

       [ A  G^T ] [ y  ]   [ r1 ]
       [ H  0   ] [ mu ] = [ r2 ]

   A the mass (lumped: diagonal; or M(t, x) assembled) or an iteration matrix, G the equilibrium's constraint
   Jacobian and H the constraint rows' (seed 000 eq. 90: G at x_n, H at the iterate of x_{n+1}; seed 001: both
   at the iterate). The solvers (-ts_dae_solver):
   - lu: the blocks in a MATNEST converted to one AIJ matrix (n + m rows, each rank its DOFs then its
     constraints) and factored by MUMPS (LU with pivoting: A may be singular, e.g. a massless coordinate that a
     constraint holds). Cost: one sparse factorization of n + m unknowns per new H.
   - schur: a lumped (diagonal) A eliminated by division: the Schur complement S = H A^-1 G^T (m x m) assembled
     as a sparse product (its pattern kept, so the symbolic factorization is done once) and solved by the KSP with
     prefix ts_dae_ (LU: PETSc's on one rank, S gathered on every rank by PCREDUNDANT on several; MUMPS or
     SuperLU_DIST by -ts_dae_pc_type lu -ts_dae_pc_factor_mat_solver_type ..., or an iterative solve, for a very
     large m), then y = A^-1 (r1 - G^T mu). Cost: the product and one factorization of m unknowns per new H.
   - fieldsplit: the same elimination by PETSc's PCFIELDSPLIT on the MATNEST (Schur factorization full, A00 by
     Jacobi, S by "selfp", -ts_dae_fieldsplit_*): the general route (an assembled A with an inner KSP), but PETSc
     3.18 rebuilds S's pattern (and the symbolic factorization) at every new H.
   - dense: LAPACK LU with partial pivoting of the whole matrix on one rank, for the small multibody examples
     (n + m <= 64), where MUMPS's fixed cost per factorization (about 0.1 ms) would be most of the step.
   auto (the default) takes dense on one rank for n + m <= 64, else schur when A is a lumped mass with no zero on
   a free DOF (the factorization is then of the m x m complement only, and the elimination of the mass block is
   a division), else lu. */
#include <flexure/private/stepperimpl.h>
#include <petscblaslapack.h>

static const char *const FlxDAESolvers[]  = {"auto", "lu", "schur", "fieldsplit", "dense", "FlxDAESolver", "FLX_DAE_SOLVER_", NULL};
static const char *const FlxDAETangents[] = {"auto", "full", "diagonal", "FlxDAETangent", "FLX_DAE_TANGENT_", NULL};
static PetscLogEvent     FLX_SaddleSolve  = 0;

struct _n_FlxSaddle {
  FlxStepper      ts;
  FlxSystem       sys;
  MPI_Comm        comm;
  FlxDAESolver    solver; /* lu or schur (auto resolved at the first SetOperators) */
  PetscInt        n, m, N, M;
  Mat             A, Gt, H, Z, K, Kaij; /* blocks, the nest, its AIJ copy (lu) */
  Vec             free, b, s;           /* free mask (borrowed); combined right-hand side and solution (lu) */
  Vec             bn[2], sn[2];         /* nest vectors (schur) */
  IS              is[2];
  KSP             ksp;
  PetscBool       diag, configured, hasfixed;
  IS              fixed;     /* prescribed DOFs (global rows) */
  PetscInt        nsolve;    /* solves so far */
  PetscReal       tsolve;    /* their wall time */
  char            desc[256]; /* what runs, for View */
  PetscScalar    *Kd, *xd;   /* dense: the LU factors (column-major, n + m square) and a right-hand side */
  PetscBLASInt   *piv;
  PetscBool       singular;  /* dense: the last factorization met a zero pivot */
  Mat             Hs, Gz, S; /* schur: H A^-1, G without the prescribed columns (Gt its transpose), S = H A^-1 G^T */
  IS              call[2];   /* lu: the nest's column index sets gathered on every rank (cidx: their indices) */
  const PetscInt *cidx[2];
  PetscInt       *cbuf; /* lu: a row's columns in the assembled matrix */
  Vec             ainv, t1, t2, t3;
};

PetscErrorCode FlxStepperDAESetFromOptions(FlxStepper ts)
{
  FlxStepperDAE *d = &ts->dae;
  PetscBool      st = PETSC_FALSE, ss = PETSC_FALSE, sa = PETSC_FALSE;

  PetscFunctionBegin;
  PetscOptionsBegin(ts->comm, NULL, "Constrained systems (steppers on systems with constraints)", "FlxStepper");
  PetscCall(PetscOptionsEnum("-ts_dae_solver", "Saddle-point solve of a constrained step: auto (dense for n + m <= 64 on one rank, else schur with a lumped mass, else lu), lu (MUMPS on the assembled saddle-point matrix), schur (the Schur complement G M^-1 G^T of a lumped mass, factored by MUMPS), fieldsplit (the same by PCFIELDSPLIT) or dense (LAPACK, one rank)", "FlxSaddle", FlxDAESolvers, (PetscEnum)d->solver, (PetscEnum *)&d->solver, NULL));
  PetscCall(PetscOptionsReal("-ts_dae_rtol", "Constrained step: iterate until the change of x_{n+1} (and of v) is below this fraction of the larger of max |x_{n+1}| (max |v|) and the largest of the run's accepted steps", "FlxStepper", d->rtol, &d->rtol, NULL));
  PetscCall(PetscOptionsInt("-ts_dae_max_it", "Constrained step: maximum iterations per step before the run stops as not converged", "FlxStepper", d->maxit, &d->maxit, NULL));
  PetscCall(PetscOptionsReal("-ts_dae_ic_tol", "Largest violation of the constraints by the initial position (|g|) and velocity (|G v + g_t|) accepted", "FlxStepper", d->ic_tol, &d->ic_tol, NULL));
  PetscCall(PetscOptionsBool("-ts_dae_chord", "Constrained step: keep the saddle-point matrix of the step's first iterate (gcd: the constraint rows; implicit steppers: the whole Newton matrix) for the step: one factorization per step, linear convergence", "FlxStepper", d->chord, &d->chord, NULL));
  PetscCall(PetscOptionsEnum("-ts_dae_tangent", "Implicit steppers on constrained systems: the Newton matrix's upper block, full (J: LU of the whole saddle-point matrix) or diagonal (diag(J): the Schur complement G diag(J)^-1 G^T, a modified Newton unless J is diagonal); auto: diagonal when J's pattern is diagonal, else full", "FlxStepper", FlxDAETangents, (PetscEnum)d->tangent, (PetscEnum *)&d->tangent, &st));
  PetscCall(PetscOptionsBool("-ts_dae_soi2", "Implicit steppers on constrained systems: generalized-alpha-SOI2 / HHT-SOI2 (seed 002: position and velocity constraints, second order in a and lambda) instead of index 3 (seed 001)", "FlxStepper", d->soi2, &d->soi2, &ss));
  PetscCall(PetscOptionsBool("-ts_dae_step_adjust", "Implicit steppers on constrained systems: move a* to a new step size by seed 002 eq. (14) (false: for showing the order drop without it)", "FlxStepper", d->step_adjust, &d->step_adjust, &sa));
  PetscCall(PetscOptionsBool("-ts_dae_project_ic", "Project initial conditions that violate the constraints onto them (mass-weighted) instead of refusing them", "FlxStepper", d->project_ic, &d->project_ic, NULL));
  PetscOptionsEnd();
  /* refused by the constrained GCD when they ask for something (their defaults are harmless in a shared options file) */
  d->implicit_only = st && d->tangent != FLX_DAE_TANGENT_AUTO ? "-ts_dae_tangent" : ss && d->soi2 ? "-ts_dae_soi2" : sa && !d->step_adjust ? "-ts_dae_step_adjust" : NULL;
  PetscCheck(d->rtol > 0 && d->rtol < 1, ts->comm, PETSC_ERR_USER_INPUT, "-ts_dae_rtol %g: give a tolerance in (0, 1)", (double)d->rtol);
  PetscCheck(d->maxit > 0, ts->comm, PETSC_ERR_USER_INPUT, "-ts_dae_max_it must be positive");
  PetscCheck(d->ic_tol >= 0, ts->comm, PETSC_ERR_USER_INPUT, "-ts_dae_ic_tol must not be negative");
  PetscFunctionReturn(0);
}

static PetscErrorCode SaddleConfigure(FlxSaddle, Vec, Mat, Mat);
PetscErrorCode        FlxSaddleSetOperators(FlxSaddle, Vec, Mat, Mat, Mat);

PetscErrorCode FlxSaddleCreate(FlxStepper ts, Vec Adiag, Mat Amat, Mat Gpat, FlxSaddle *sp)
{
  FlxSaddle s;
  Vec       mass;

  PetscFunctionBegin;
  if (!FLX_SaddleSolve) {
    PetscCall(PetscLogEventRegister("FlxSaddleSolve", FLX_CLASSID, &FLX_SaddleSolve));
  }
  PetscCall(PetscNew(&s));
  *sp       = s; /* the caller's FlxSaddleDestroy frees it if the set-up below fails */
  s->ts     = ts;
  s->sys    = ts->sys;
  s->comm   = ts->comm;
  s->solver = ts->dae.solver;
  PetscCall(FlxSystemGetMass(ts->sys, &mass, &s->free));
  PetscCall(MatGetLocalSize(Gpat, &s->m, &s->n)); /* the constraint rows: G, or G and Kv stacked (SOI2) */
  PetscCall(MatGetSize(Gpat, &s->M, &s->N));
  PetscCall(FlxSystemCreatePrescribedIS(ts->sys, &s->fixed));
  {
    PetscInt nf;
    PetscCall(ISGetSize(s->fixed, &nf));
    s->hasfixed = nf > 0 ? PETSC_TRUE : PETSC_FALSE;
  }
  PetscCall(SaddleConfigure(s, Adiag, Amat, Gpat));
  if (s->ksp) { /* factor once now: the factorization's options (-ts_dae_mat_mumps_*) are read before the run (a
                   failure here is left to the first solve, which diagnoses it) */
    PetscCall(FlxSaddleSetOperators(s, Adiag, Amat, Gpat, Gpat));
    PetscCall(KSPSetUp(s->ksp));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSaddleDestroy(FlxSaddle *sp)
{
  FlxSaddle s = *sp;

  PetscFunctionBegin;
  if (!s) PetscFunctionReturn(0);
  PetscCall(MatDestroy(&s->A));
  PetscCall(MatDestroy(&s->Gt));
  PetscCall(MatDestroy(&s->H));
  PetscCall(MatDestroy(&s->Z));
  PetscCall(MatDestroy(&s->K));
  PetscCall(MatDestroy(&s->Kaij));
  for (int k = 0; k < 2; k++) {
    if (s->call[k]) PetscCall(ISRestoreIndices(s->call[k], &s->cidx[k]));
    PetscCall(ISDestroy(&s->call[k]));
  }
  PetscCall(PetscFree(s->cbuf));
  PetscCall(VecDestroy(&s->b));
  PetscCall(VecDestroy(&s->s));
  for (int k = 0; k < 2; k++) {
    PetscCall(VecDestroy(&s->bn[k]));
    PetscCall(VecDestroy(&s->sn[k]));
  }
  PetscCall(ISDestroy(&s->fixed));
  PetscCall(KSPDestroy(&s->ksp));
  PetscCall(PetscFree3(s->Kd, s->xd, s->piv));
  PetscCall(MatDestroy(&s->Hs));
  PetscCall(MatDestroy(&s->Gz));
  PetscCall(MatDestroy(&s->S));
  PetscCall(VecDestroy(&s->ainv));
  PetscCall(VecDestroy(&s->t1));
  PetscCall(VecDestroy(&s->t2));
  PetscCall(VecDestroy(&s->t3));
  PetscCall(PetscFree(*sp));
  PetscFunctionReturn(0);
}

/* The first time: the blocks, the nest and the KSP of the solver chosen. */
static PetscErrorCode SaddleConfigure(FlxSaddle s, Vec Adiag, Mat Amat, Mat G)
{
  Mat blocks[4];
  PC  pc;

  PetscFunctionBegin;
  s->diag = Adiag ? PETSC_TRUE : PETSC_FALSE;
  {
    PetscReal mmin = 0;
    if (s->diag) { /* the smallest mass on a free DOF */
      Vec                t;
      PetscScalar       *a;
      const PetscScalar *f;
      PetscCall(VecDuplicate(Adiag, &t));
      PetscCall(VecCopy(Adiag, t));
      PetscCall(VecGetArray(t, &a));
      PetscCall(VecGetArrayRead(s->free, &f));
      for (PetscInt i = 0; i < s->n; i++)
        if (PetscRealPart(f[i]) < 0.5) a[i] = 1; /* prescribed DOFs: identity rows */
      PetscCall(VecRestoreArrayRead(s->free, &f));
      PetscCall(VecRestoreArray(t, &a));
      PetscCall(VecMin(t, NULL, &mmin));
      PetscCall(VecDestroy(&t));
    }
    if (s->solver == FLX_DAE_SOLVER_AUTO) {
      PetscMPIInt size;
      PetscCallMPI(MPI_Comm_size(s->comm, &size));
      s->solver = s->diag && mmin > 0 ? FLX_DAE_SOLVER_SCHUR : FLX_DAE_SOLVER_LU;
      if (size == 1 && s->N + s->M <= 64) s->solver = FLX_DAE_SOLVER_DENSE;
    }
    PetscCheck((s->solver != FLX_DAE_SOLVER_SCHUR && s->solver != FLX_DAE_SOLVER_FIELDSPLIT) || !s->diag || mmin > 0, s->comm, PETSC_ERR_USER_INPUT, "-ts_dae_solver %s divides by the lumped mass, and a free DOF has none (%g): use -ts_dae_solver lu", FlxDAESolvers[s->solver], (double)mmin);
  }
  if (s->solver == FLX_DAE_SOLVER_DENSE) {
    PetscMPIInt size;
    PetscInt    nt = s->N + s->M;
    PetscCallMPI(MPI_Comm_size(s->comm, &size));
    PetscCheck(size == 1, s->comm, PETSC_ERR_USER_INPUT, "-ts_dae_solver dense runs on one rank only: use lu or schur");
    PetscCall(PetscMalloc3(nt * nt, &s->Kd, nt, &s->xd, nt, &s->piv));
    if (!s->diag) PetscCall(MatDuplicate(Amat, MAT_COPY_VALUES, &s->A));
    PetscCall(MatDuplicate(G, MAT_COPY_VALUES, &s->H));
    PetscCall(PetscSNPrintf(s->desc, sizeof(s->desc), "dense: LAPACK LU with partial pivoting of the saddle-point matrix (%" PetscInt_FMT " + %" PetscInt_FMT " unknowns, one rank)", s->N, s->M));
    s->configured = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  PetscCheck(s->solver != FLX_DAE_SOLVER_SCHUR || s->diag, s->comm, PETSC_ERR_USER_INPUT, "-ts_dae_solver schur needs a lumped (diagonal) mass: this system's mass matrix is assembled; use -ts_dae_solver lu or fieldsplit");
  if (s->solver == FLX_DAE_SOLVER_SCHUR) {
    PetscCall(VecDuplicate(Adiag, &s->ainv));
    PetscCall(VecDuplicate(Adiag, &s->t1));
    PetscCall(VecDuplicate(Adiag, &s->t3));
    PetscCall(MatCreateVecs(G, NULL, &s->t2));
    PetscCall(MatDuplicate(G, MAT_COPY_VALUES, &s->H));
    PetscCall(MatDuplicate(G, MAT_COPY_VALUES, &s->Hs));
    PetscCall(MatDuplicate(G, MAT_COPY_VALUES, &s->Gz));
    PetscCall(MatTranspose(s->Gz, MAT_INITIAL_MATRIX, &s->Gt));
    PetscCall(MatMatMult(s->Hs, s->Gt, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &s->S));
    PetscCall(KSPCreate(s->comm, &s->ksp));
    PetscCall(KSPSetOptionsPrefix(s->ksp, "ts_dae_"));
    PetscCall(KSPSetType(s->ksp, KSPPREONLY));
    PetscCall(KSPGetPC(s->ksp, &pc));
    PetscCall(PCSetType(pc, PCLU));
    { /* one rank: PETSc's LU (S has a positive diagonal; MUMPS pays about 1 us per pivot on a chain's path-like
         elimination tree: 60 ms against 0.9 ms for 5e4 rods); several: MUMPS */
      PetscMPIInt size;
      PetscCallMPI(MPI_Comm_size(s->comm, &size));
      if (size > 1) { /* several ranks: S gathered on every rank and factored there (PCREDUNDANT): 35 ms per
                         step for 5e4 rods on 2 ranks, against 240 ms with SuperLU_DIST and 520 ms with MUMPS */
        PC  rpc;
        KSP rksp;
        PetscCall(PCSetType(pc, PCREDUNDANT));
        PetscCall(PCRedundantGetKSP(pc, &rksp));
        PetscCall(KSPGetPC(rksp, &rpc));
        PetscCall(PCSetType(rpc, PCLU));
      }
    }
    PetscCall(KSPSetOperators(s->ksp, s->S, s->S));
    PetscCall(KSPSetFromOptions(s->ksp));
    {
      PCType pt;
      PetscCall(PCGetType(pc, &pt));
      PetscCall(PetscSNPrintf(s->desc, sizeof(s->desc), "schur: the lumped mass eliminated, S = G M^-1 G^T (%" PetscInt_FMT " x %" PetscInt_FMT ") assembled and solved by the KSP -ts_dae_ksp_* (preconditioner %s)", s->M, s->M, pt));
    }
    s->configured = PETSC_TRUE;
    PetscFunctionReturn(0);
  }
  if (s->diag) { /* A: a diagonal AIJ matrix */
    PetscCall(MatCreateAIJ(s->comm, s->n, s->n, s->N, s->N, 1, NULL, 0, NULL, &s->A));
    PetscCall(MatSetOption(s->A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
    PetscCall(MatDiagonalSet(s->A, Adiag, INSERT_VALUES));
  } else
    PetscCall(MatDuplicate(Amat, MAT_COPY_VALUES, &s->A));
  PetscCall(MatTranspose(G, MAT_INITIAL_MATRIX, &s->Gt));
  PetscCall(MatDuplicate(G, MAT_COPY_VALUES, &s->H));
  PetscCall(MatCreateAIJ(s->comm, s->m, s->m, s->M, s->M, 1, NULL, 0, NULL, &s->Z)); /* zero block, diagonal stored */
  {
    PetscInt lo, hi;
    PetscCall(MatGetOwnershipRange(s->Z, &lo, &hi));
    for (PetscInt i = lo; i < hi; i++)
      PetscCall(MatSetValue(s->Z, i, i, 0.0, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(s->Z, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(s->Z, MAT_FINAL_ASSEMBLY));
  }
  blocks[0] = s->A;
  blocks[1] = s->Gt;
  blocks[2] = s->H;
  blocks[3] = s->Z;
  PetscCall(MatCreateNest(s->comm, 2, NULL, 2, NULL, blocks, &s->K));
  PetscCall(MatNestGetISs(s->K, s->is, NULL));
  PetscCall(KSPCreate(s->comm, &s->ksp));
  PetscCall(KSPSetOptionsPrefix(s->ksp, "ts_dae_"));
  PetscCall(KSPSetType(s->ksp, KSPPREONLY));
  PetscCall(KSPGetPC(s->ksp, &pc));
  if (s->solver == FLX_DAE_SOLVER_LU) {
    PetscInt maxrow = 0;
    PetscCall(MatConvert(s->K, MATAIJ, MAT_INITIAL_MATRIX, &s->Kaij)); /* the pattern, kept: NestValues */
    PetscCall(MatSetOption(s->Kaij, MAT_NEW_NONZERO_LOCATION_ERR, PETSC_TRUE));
    for (int k = 0; k < 2; k++) {
      PetscCall(ISAllGather(s->is[k], &s->call[k]));
      PetscCall(ISGetIndices(s->call[k], &s->cidx[k]));
    }
    for (PetscInt r = 0; r < s->n + s->m; r++) { /* the longest row of a block */
      PetscInt lo, nc;
      PetscCall(MatGetOwnershipRange(s->Kaij, &lo, NULL));
      PetscCall(MatGetRow(s->Kaij, lo + r, &nc, NULL, NULL));
      maxrow = PetscMax(maxrow, nc);
      PetscCall(MatRestoreRow(s->Kaij, lo + r, &nc, NULL, NULL));
    }
    PetscCall(PetscMalloc1(maxrow + 1, &s->cbuf));
    PetscCall(MatCreateVecs(s->Kaij, &s->s, &s->b));
    PetscCall(PCSetType(pc, PCLU));
    PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
    PetscCall(KSPSetOperators(s->ksp, s->Kaij, s->Kaij));
    { /* MUMPS's workspace estimate does not foresee the delayed pivots of the zero block (the 5e4-rod chain fails
         with the default 20% extra, INFOG(1) = -9): 200% more by default (-ts_dae_mat_mumps_icntl_14 changes it).
         PETSc 3.18's PCFactorSetUpMatSolverType creates the factor without the PC's prefix: give it first, so that
         the factorization reads -ts_dae_mat_mumps_* */
      Mat F;
      PetscCall(MatSetOptionsPrefixFactor(s->Kaij, "ts_dae_"));
      PetscCall(PCFactorSetUpMatSolverType(pc));
      PetscCall(PCFactorGetMatrix(pc, &F));
      PetscCall(MatMumpsSetIcntl(F, 14, 200));
    }
    PetscCall(PetscSNPrintf(s->desc, sizeof(s->desc), "lu: MUMPS LU of the assembled saddle-point matrix (%" PetscInt_FMT " + %" PetscInt_FMT " unknowns)", s->N, s->M));
  } else {
    PetscCall(PCSetType(pc, PCFIELDSPLIT));
    PetscCall(PCFieldSplitSetIS(pc, "0", s->is[0]));
    PetscCall(PCFieldSplitSetIS(pc, "1", s->is[1]));
    PetscCall(PCFieldSplitSetType(pc, PC_COMPOSITE_SCHUR));
    PetscCall(PCFieldSplitSetSchurFactType(pc, PC_FIELDSPLIT_SCHUR_FACT_FULL));
    PetscCall(PCFieldSplitSetSchurPre(pc, PC_FIELDSPLIT_SCHUR_PRE_SELFP, NULL));
    PetscCall(KSPSetOperators(s->ksp, s->K, s->K));
    PetscCall(VecCreateMPI(s->comm, s->n, s->N, &s->bn[0]));
    PetscCall(VecCreateMPI(s->comm, s->m, s->M, &s->bn[1]));
    PetscCall(VecDuplicate(s->bn[0], &s->sn[0]));
    PetscCall(VecDuplicate(s->bn[1], &s->sn[1]));
    PetscCall(VecCreateNest(s->comm, 2, s->is, s->bn, &s->b));
    PetscCall(VecCreateNest(s->comm, 2, s->is, s->sn, &s->s));
    PetscCall(PetscSNPrintf(s->desc, sizeof(s->desc), "fieldsplit: PCFIELDSPLIT, mass block by Jacobi, Schur complement H M^-1 G^T (%" PetscInt_FMT " x %" PetscInt_FMT ", selfp) factored by MUMPS (-ts_dae_fieldsplit_*)", s->M, s->M));
  }
  PetscCall(KSPSetFromOptions(s->ksp));
  if (s->solver == FLX_DAE_SOLVER_FIELDSPLIT) { /* the sub-solvers: exact for a diagonal mass */
    KSP     *sub;
    PetscInt nsub;
    PC       spc;
    PetscCall(KSPSetUp(s->ksp));
    PetscCall(PCFieldSplitGetSubKSP(pc, &nsub, &sub));
    PetscCall(KSPSetType(sub[0], KSPPREONLY));
    PetscCall(KSPGetPC(sub[0], &spc));
    PetscCall(PCSetType(spc, PCJACOBI));
    PetscCall(KSPSetType(sub[1], KSPPREONLY));
    PetscCall(KSPGetPC(sub[1], &spc));
    PetscCall(PCSetType(spc, PCLU));
    PetscCall(PCFactorSetMatSolverType(spc, MATSOLVERMUMPS));
    PetscCall(KSPSetFromOptions(sub[0]));
    PetscCall(KSPSetFromOptions(sub[1]));
    PetscCall(PetscFree(sub));
  }
  s->configured = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* dense: the whole matrix, column-major, factored in place (prescribed DOFs: identity rows). */
static PetscErrorCode DenseFactor(FlxSaddle s, Vec Adiag, Mat Amat, Mat G, Mat H)
{
  PetscInt           nt = s->N + s->M, ncols;
  const PetscInt    *cols;
  const PetscScalar *vals, *fr;
  PetscScalar       *K = s->Kd;
  PetscBLASInt       bn, info;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(K, nt * nt));
  if (Adiag) {
    const PetscScalar *a;
    PetscCall(VecGetArrayRead(Adiag, &a));
    for (PetscInt i = 0; i < s->N; i++)
      K[i + nt * i] = a[i];
    PetscCall(VecRestoreArrayRead(Adiag, &a));
  } else
    for (PetscInt i = 0; i < s->N; i++) {
      PetscCall(MatGetRow(Amat, i, &ncols, &cols, &vals));
      for (PetscInt k = 0; k < ncols; k++)
        K[i + nt * cols[k]] = vals[k];
      PetscCall(MatRestoreRow(Amat, i, &ncols, &cols, &vals));
    }
  for (PetscInt r = 0; r < s->M; r++) {
    PetscCall(MatGetRow(G, r, &ncols, &cols, &vals));
    for (PetscInt k = 0; k < ncols; k++)
      K[cols[k] + nt * (s->N + r)] = vals[k];
    PetscCall(MatRestoreRow(G, r, &ncols, &cols, &vals));
    PetscCall(MatGetRow(H, r, &ncols, &cols, &vals));
    for (PetscInt k = 0; k < ncols; k++)
      K[s->N + r + nt * cols[k]] = vals[k];
    PetscCall(MatRestoreRow(H, r, &ncols, &cols, &vals));
  }
  PetscCall(VecGetArrayRead(s->free, &fr));
  for (PetscInt i = 0; i < s->N; i++)
    if (PetscRealPart(fr[i]) < 0.5) {
      for (PetscInt j = 0; j < nt; j++)
        K[i + nt * j] = 0;
      K[i + nt * i] = 1;
    }
  PetscCall(VecRestoreArrayRead(s->free, &fr));
  PetscCall(MatCopy(H, s->H, SAME_NONZERO_PATTERN));
  PetscCall(PetscBLASIntCast(nt, &bn));
  {
    PetscReal kmax = 0, umin;
    for (PetscInt i = 0; i < nt * nt; i++)
      kmax = PetscMax(kmax, PetscAbsScalar(K[i]));
    PetscCallBLAS("LAPACKgetrf", LAPACKgetrf_(&bn, &bn, K, &bn, s->piv, &info));
    umin = PETSC_MAX_REAL;
    for (PetscInt i = 0; i < nt; i++)
      umin = PetscMin(umin, PetscAbsScalar(K[i + nt * i]));
    /* singular: an exact zero pivot, or one at round-off of the largest entry (a dependent row leaves about
       eps |K| there, its value and sign depending on the order of the operations) */
    s->singular = info != 0 || !(umin > 1e-13 * kmax) ? PETSC_TRUE : PETSC_FALSE;
  }
  PetscFunctionReturn(0);
}

/* lu: the blocks' values into the assembled matrix, its pattern kept (MatConvert with MAT_REUSE_MATRIX preallocates
   it again on several ranks: a new pattern, for which PCLU drops MUMPS's analysis, and with it its settings). */
static PetscErrorCode NestValues(FlxSaddle s)
{
  Mat blk[2][2] = {
      {s->A, s->Gt},
      {s->H, NULL}};

  PetscFunctionBegin;
  PetscCall(MatZeroEntries(s->Kaij));
  for (int i = 0; i < 2; i++) {
    const PetscInt *rows;
    PetscInt        bm;
    PetscCall(ISGetLocalSize(s->is[i], &bm));
    PetscCall(ISGetIndices(s->is[i], &rows));
    for (int j = 0; j < 2; j++) {
      PetscInt rstart;
      if (!blk[i][j]) continue;
      PetscCall(MatGetOwnershipRange(blk[i][j], &rstart, NULL));
      for (PetscInt r = 0; r < bm; r++) {
        const PetscInt    *cols;
        const PetscScalar *vals;
        PetscInt           nc;
        PetscCall(MatGetRow(blk[i][j], rstart + r, &nc, &cols, &vals));
        for (PetscInt k = 0; k < nc; k++)
          s->cbuf[k] = s->cidx[j][cols[k]];
        PetscCall(MatSetValues(s->Kaij, 1, &rows[r], nc, s->cbuf, vals, INSERT_VALUES));
        PetscCall(MatRestoreRow(blk[i][j], rstart + r, &nc, &cols, &vals));
      }
    }
    PetscCall(ISRestoreIndices(s->is[i], &rows));
  }
  PetscCall(MatAssemblyBegin(s->Kaij, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(s->Kaij, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(0);
}

static PetscErrorCode SetOperators(FlxSaddle s, Vec Adiag, Mat Amat, Mat G, Mat H)
{
  PetscFunctionBegin;
  if (s->solver == FLX_DAE_SOLVER_DENSE) {
    PetscCall(DenseFactor(s, Adiag, Amat, G, H));
    PetscFunctionReturn(0);
  }
  if (s->solver == FLX_DAE_SOLVER_SCHUR) { /* S = (H A^-1) (G diag(free))^T, the pattern kept */
    PetscCall(VecPointwiseDivide(s->ainv, s->free, Adiag));
    PetscCall(MatCopy(H, s->H, SAME_NONZERO_PATTERN));
    PetscCall(MatCopy(H, s->Hs, SAME_NONZERO_PATTERN));
    PetscCall(MatDiagonalScale(s->Hs, NULL, s->ainv));
    PetscCall(MatCopy(G, s->Gz, SAME_NONZERO_PATTERN));
    if (s->hasfixed) PetscCall(MatDiagonalScale(s->Gz, NULL, s->free));
    PetscCall(MatTranspose(s->Gz, MAT_REUSE_MATRIX, &s->Gt));
    PetscCall(MatMatMult(s->Hs, s->Gt, MAT_REUSE_MATRIX, PETSC_DEFAULT, &s->S));
    PetscFunctionReturn(0);
  }
  if (s->diag) {
    PetscCheck(Adiag, s->comm, PETSC_ERR_ARG_WRONGSTATE, "the saddle-point solver was set up with a diagonal block");
    PetscCall(MatDiagonalSet(s->A, Adiag, INSERT_VALUES));
  } else if (Adiag) { /* a diagonal block (the lumped mass at start-up) in a solver set up for an assembled one */
    PetscCall(MatZeroEntries(s->A));
    PetscCall(MatDiagonalSet(s->A, Adiag, INSERT_VALUES));
  } else
    PetscCall(MatCopy(Amat, s->A, SAME_NONZERO_PATTERN));
  PetscCall(MatTransposeSetPrecursor(G, s->Gt)); /* G may be another matrix of the same pattern than last time */
  PetscCall(MatTranspose(G, MAT_REUSE_MATRIX, &s->Gt));
  PetscCall(MatCopy(H, s->H, SAME_NONZERO_PATTERN));
  if (s->hasfixed) { /* prescribed DOFs: a_i = r1_i, no constraint force on them */
    PetscCall(MatZeroRowsIS(s->A, s->fixed, 1.0, NULL, NULL));
    PetscCall(MatZeroRowsIS(s->Gt, s->fixed, 0.0, NULL, NULL));
  }
  if (s->solver == FLX_DAE_SOLVER_LU)
    PetscCall(NestValues(s));
  else { /* the blocks changed: a new state of the nest sets the fieldsplit up again */
    PetscCall(MatAssemblyBegin(s->K, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(s->K, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(0);
}

/* The new blocks, timed and logged with the solves (the product H A^-1 G^T and the factorization belong to them). */
PetscErrorCode FlxSaddleSetOperators(FlxSaddle s, Vec Adiag, Mat Amat, Mat G, Mat H)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(FLX_SaddleSolve, 0, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  PetscCall(SetOperators(s, Adiag, Amat, G, H));
  PetscCall(PetscTime(&t1));
  s->tsolve += t1 - t0;
  PetscCall(PetscLogEventEnd(FLX_SaddleSolve, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* Copy local parts: combined vector (each rank its n entries, then its m) from/to the two blocks. */
static PetscErrorCode SplitCopy(FlxSaddle s, Vec c, Vec u, Vec w, PetscBool into)
{
  PetscFunctionBegin;
  if (s->solver == FLX_DAE_SOLVER_LU) {
    PetscScalar *a, *b;
    PetscCall(VecGetArray(c, &a));
    PetscCall(VecGetArray(u, &b));
    if (into)
      PetscCall(PetscArraycpy(a, b, s->n));
    else
      PetscCall(PetscArraycpy(b, a, s->n));
    PetscCall(VecRestoreArray(u, &b));
    PetscCall(VecGetArray(w, &b));
    if (into)
      PetscCall(PetscArraycpy(a + s->n, b, s->m));
    else
      PetscCall(PetscArraycpy(b, a + s->n, s->m));
    PetscCall(VecRestoreArray(w, &b));
    PetscCall(VecRestoreArray(c, &a));
  } else {
    Vec *sub = c == s->b ? s->bn : s->sn;
    if (into) {
      PetscCall(VecCopy(u, sub[0]));
      PetscCall(VecCopy(w, sub[1]));
    } else {
      PetscCall(VecCopy(sub[0], u));
      PetscCall(VecCopy(sub[1], w));
    }
  }
  PetscFunctionReturn(0);
}

/* FlxDAENameConstraints: see stepperimpl.h. */
PetscErrorCode FlxDAENameConstraints(FlxSystem sys, Mat G, PetscInt k, const PetscInt gidx[], char out[], size_t len)
{
  PetscInt       lo, hi, mg = 0, klo = 0;
  unsigned char *buf;
  const size_t   w = 128;
  MPI_Comm       comm;
  Mat            G0, Kv;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)G, &comm));
  PetscCall(MatGetOwnershipRange(G, &lo, &hi));
  PetscCall(FlxSystemGetConstraintMatrix(sys, &G0)); /* rows past this rank's holonomic ones: velocity constraints */
  PetscCall(MatGetLocalSize(G0, &mg, NULL));
  PetscCall(FlxSystemGetVelocityConstraintMatrices(sys, &Kv, NULL));
  if (Kv) PetscCall(MatGetOwnershipRange(Kv, &klo, NULL));
  PetscCall(PetscCalloc1(w * k + 1, &buf));
  for (PetscInt j = 0; j < k; j++) {
    if (gidx[j] < lo || gidx[j] >= hi) continue;
    if (gidx[j] - lo < mg)
      PetscCall(FlxSystemGetConstraintName(sys, gidx[j] - lo, (char *)buf + w * j, w - 1));
    else
      PetscCall(PetscSNPrintf((char *)buf + w * j, w - 1, "velocity constraint %" PetscInt_FMT, klo + gidx[j] - lo - mg));
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, buf, (PetscMPIInt)(w * k), MPI_UNSIGNED_CHAR, MPI_MAX, comm));
  out[0] = 0;
  for (PetscInt j = 0; j < k; j++) {
    if (j) FlxStrlcat(out, j == k - 1 ? " and " : ", ", len);
    FlxStrlcat(out, "'", len);
    FlxStrlcat(out, (char *)buf + w * j, len);
    FlxStrlcat(out, "'", len);
  }
  PetscCall(PetscFree(buf));
  PetscFunctionReturn(0);
}

/* A singular saddle-point matrix: find the first constraint row of H that depends on the rows before it (the
   Gram matrix H H^T gathered on every rank and eliminated in order; up to 1000 constraints) and name it with the
   constraints it combines. */
static PetscErrorCode DiagnoseSingular(FlxSaddle s, char msg[], size_t len, PetscBool *named)
{
  Mat          S, Sred;
  PetscInt     M = s->M, dep = -1, nz = 0, gidx[8];
  PetscScalar *d = NULL;

  PetscFunctionBegin;
  msg[0] = 0;
  *named = PETSC_FALSE;
  if (M > 1000) {
    PetscCall(PetscSNPrintf(msg, len, " (%" PetscInt_FMT " constraints: too many to name the dependent ones)", M));
    PetscFunctionReturn(0);
  }
  PetscCall(MatMatTransposeMult(s->H, s->H, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &S));
  { /* all of S on every rank, dense (M <= 1000) */
    IS   all;
    Mat *sub;
    PetscCall(ISCreateStride(PETSC_COMM_SELF, M, 0, 1, &all));
    PetscCall(MatCreateSubMatrices(S, 1, &all, &all, MAT_INITIAL_MATRIX, &sub));
    PetscCall(MatConvert(sub[0], MATSEQDENSE, MAT_INITIAL_MATRIX, &Sred));
    PetscCall(MatDestroySubMatrices(1, &sub));
    PetscCall(ISDestroy(&all));
  }
  PetscCall(MatDenseGetArray(Sred, &d)); /* column-major, symmetric: d[i + M j] = S_ij */
  {                                      /* Cholesky, in order, of the independent rows found so far: L (ni x ni, row-major in L[a M + b]) */
    PetscInt  *ind, ni = 0;
    PetscReal *L, *c, *y;
    PetscCall(PetscMalloc4(M, &ind, M * M, &L, M, &c, M, &y));
    for (PetscInt k = 0; k < M && dep < 0; k++) {
      PetscReal skk = PetscRealPart(d[k + M * k]), r = skk;
      for (PetscInt a = 0; a < ni; a++) { /* y = L^-1 S(ind, k) */
        PetscReal sum = PetscRealPart(d[ind[a] + M * k]);
        for (PetscInt b = 0; b < a; b++)
          sum -= L[a * M + b] * y[b];
        y[a] = sum / L[a * M + a];
        r -= y[a] * y[a];
      }
      if (r > 1e-10 * skk && skk > 0) { /* independent: a new row of L */
        for (PetscInt b = 0; b < ni; b++)
          L[ni * M + b] = y[b];
        L[ni * M + ni] = PetscSqrtReal(r);
        ind[ni++]      = k;
        continue;
      }
      dep = k; /* row k is a combination of the rows before it: the coefficients c = L^-T y */
      for (PetscInt a = ni - 1; a >= 0; a--) {
        PetscReal sum = y[a];
        for (PetscInt b = a + 1; b < ni; b++)
          sum -= L[b * M + a] * c[b];
        c[a] = sum / L[a * M + a];
      }
      {
        PetscReal cmax = 0;
        for (PetscInt a = 0; a < ni; a++)
          cmax = PetscMax(cmax, PetscAbsReal(c[a]));
        for (PetscInt a = 0; a < ni && nz < 7; a++)
          if (PetscAbsReal(c[a]) > 1e-8 * cmax) gidx[1 + nz++] = ind[a];
      }
    }
    PetscCall(PetscFree4(ind, L, c, y));
  }
  PetscCall(MatDenseRestoreArray(Sred, &d));
  PetscCall(MatDestroy(&Sred));
  PetscCall(MatDestroy(&S));
  if (dep < 0) {
    PetscCall(PetscSNPrintf(msg, len, ": the constraint rows are independent, so the mass is singular on a motion the constraints allow (a massless DOF that no constraint holds?)"));
    PetscFunctionReturn(0);
  }
  gidx[0] = dep;
  *named  = PETSC_TRUE;
  {
    char names[1024];
    PetscCall(FlxDAENameConstraints(s->sys, s->H, 1 + nz, gidx, names, sizeof(names)));
    if (nz)
      PetscCall(PetscSNPrintf(msg, len, ": the constraints %s are redundant or inconsistent (the first one's Jacobian row is a combination of the others'); remove one of them", names));
    else
      PetscCall(PetscSNPrintf(msg, len, ": the constraint %s has a zero Jacobian row (it does not depend on the position there)", names));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSaddleSolve(FlxSaddle s, Vec r1, Vec r2, Vec y, Vec mu, const char what[], PetscReal t)
{
  KSPConvergedReason reason;
  PetscReal          nrm;
  PetscLogDouble     t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(FLX_SaddleSolve, 0, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  if (s->solver == FLX_DAE_SOLVER_DENSE) {
    PetscBLASInt       bn, one = 1, info;
    const PetscScalar *a;
    PetscScalar       *b;
    if (s->singular) {
      char      diag[1536];
      PetscBool named;
      PetscCall(DiagnoseSingular(s, diag, sizeof(diag), &named));
      SETERRQ(s->comm, named ? PETSC_ERR_USER_INPUT : PETSC_ERR_NOT_CONVERGED, "the saddle-point solve of %s at t = %g s failed (a zero pivot, or one below 1e-13 of the largest entry, in the LU factorization: the matrix [[M, G^T], [G, 0]] is singular)%s", what, (double)t, diag);
    }
    PetscCall(VecGetArrayRead(r1, &a));
    PetscCall(PetscArraycpy(s->xd, a, s->N));
    PetscCall(VecRestoreArrayRead(r1, &a));
    PetscCall(VecGetArrayRead(r2, &a));
    PetscCall(PetscArraycpy(s->xd + s->N, a, s->M));
    PetscCall(VecRestoreArrayRead(r2, &a));
    PetscCall(PetscBLASIntCast(s->N + s->M, &bn));
    PetscCallBLAS("LAPACKgetrs", LAPACKgetrs_("N", &bn, &one, s->Kd, &bn, s->piv, s->xd, &bn, &info));
    PetscCall(VecGetArrayWrite(y, &b));
    PetscCall(PetscArraycpy(b, s->xd, s->N));
    PetscCall(VecRestoreArrayWrite(y, &b));
    PetscCall(VecGetArrayWrite(mu, &b));
    PetscCall(PetscArraycpy(b, s->xd + s->N, s->M));
    PetscCall(VecRestoreArrayWrite(mu, &b));
    PetscCall(PetscTime(&t1));
    s->nsolve++;
    s->tsolve += t1 - t0;
    PetscCall(PetscLogEventEnd(FLX_SaddleSolve, 0, 0, 0, 0));
    PetscFunctionReturn(0);
  }
  if (s->solver == FLX_DAE_SOLVER_SCHUR) { /* S mu = H A^-1 r1 - r2, y = A^-1 (r1 - G^T mu) */
    PetscCall(MatMult(s->Hs, r1, s->t2));
    if (s->hasfixed) { /* the prescribed DOFs' y = r1 in the constraint rows */
      PetscCall(VecPointwiseMult(s->t3, s->free, r1));
      PetscCall(VecAYPX(s->t3, -1.0, r1));
      PetscCall(MatMultAdd(s->H, s->t3, s->t2, s->t2));
    }
    PetscCall(VecAXPY(s->t2, -1.0, r2));
    PetscCall(KSPSolve(s->ksp, s->t2, mu));
    PetscCall(KSPGetConvergedReason(s->ksp, &reason));
    PetscCall(VecNorm(mu, NORM_INFINITY, &nrm));
  } else {
    PetscCall(SplitCopy(s, s->b, r1, r2, PETSC_TRUE));
    PetscCall(KSPSolve(s->ksp, s->b, s->s));
    PetscCall(KSPGetConvergedReason(s->ksp, &reason));
    PetscCall(VecNorm(s->s, NORM_INFINITY, &nrm));
  }
  if (reason < 0 || PetscIsInfOrNanReal(nrm)) {
    char           diag[1536];
    PetscBool      named;
    MatFactorError ferr = MAT_FACTOR_NOERROR;
    PC             pc;
    PetscBool      fact;
    PetscCall(KSPGetPC(s->ksp, &pc));
    PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCLU, &fact));
    if (fact) {
      Mat F;
      PetscCall(PCFactorGetMatrix(pc, &F));
      PetscCall(MatFactorGetError(F, &ferr));
      PetscCheck(ferr == MAT_FACTOR_NOERROR || ferr == MAT_FACTOR_NUMERIC_ZEROPIVOT || ferr == MAT_FACTOR_STRUCT_ZEROPIVOT, s->comm, PETSC_ERR_NOT_CONVERGED, "the saddle-point solve of %s at t = %g s failed: the factorization failed (error type %d: %s; MUMPS: more workspace with -ts_dae_mat_mumps_icntl_14, now 200%%)", what, (double)t, (int)ferr, ferr == MAT_FACTOR_OUTMEMORY ? "out of memory" : "other");
    }
    PetscCall(DiagnoseSingular(s, diag, sizeof(diag), &named));
    SETERRQ(s->comm, named ? PETSC_ERR_USER_INPUT : PETSC_ERR_NOT_CONVERGED, "the saddle-point solve of %s at t = %g s failed (%s: the matrix [[M, G^T], [G, 0]] is singular)%s", what, (double)t, reason < 0 ? KSPConvergedReasons[reason] : "Inf or NaN", diag);
  }
  if (s->solver == FLX_DAE_SOLVER_SCHUR) {
    PetscCall(MatMultTranspose(s->Gz, mu, s->t1));
    PetscCall(VecAYPX(s->t1, -1.0, r1));
    PetscCall(VecPointwiseMult(y, s->ainv, s->t1));
    if (s->hasfixed) PetscCall(VecAXPY(y, 1.0, s->t3));
  } else
    PetscCall(SplitCopy(s, s->s, y, mu, PETSC_FALSE));
  PetscCall(PetscTime(&t1));
  s->nsolve++;
  s->tsolve += t1 - t0;
  PetscCall(PetscLogEventEnd(FLX_SaddleSolve, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSaddleGetStatistics(FlxSaddle s, PetscInt *nsolve, PetscReal *seconds)
{
  PetscFunctionBegin;
  *nsolve  = s->nsolve;
  *seconds = s->tsolve;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSaddleView(FlxSaddle s, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "  saddle-point solve (-ts_dae_solver, -ts_dae_ksp_*, -ts_dae_pc_*): %s\n", s->configured ? s->desc : "chosen at the first solve"));
  if (s->nsolve) PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt_FMT " saddle-point solves so far, %.3g ms each\n", s->nsolve, 1e3 * s->tsolve / s->nsolve));
  PetscFunctionReturn(0);
}
