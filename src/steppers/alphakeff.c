/* The alpha family's linear path: one K_eff = c_M M + c_C C + (1 - alpha_f) K per step size (a slot with its
   matrix, preconditioner matrices and KSP, reused while the step size recurs), its assembly, and the solver set-up
   (CG + GAMG by default on a symmetric block copy; alpha.c's header comment gives the step). */
#include <flexure/private/stepperimpl.h>
#include "alpha.h"

/* A KSP for a new step size: CG + GAMG by default (near-null space: the six rigid-body modes); any KSP/PC
   with -ts_ksp_*, -ts_pc_*. It solves for the increment d = x_{n+1} - x_n, so PETSc's default test (rtol
   times |b|, b the residual at x_n) is that of a Newton step from x_n, independent of the step size and
   the same threshold as TSALPHA2's; the guess (the step with the last acceleration held) only starts it
   closer. The norm is unpreconditioned: |b - K_eff d| is an out-of-balance force, and |b| needs no extra
   preconditioner application. */
PetscErrorCode FlxAlphaNewSlot(FlxStepper ts)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  KSP               k;
  PC                pc;

  PetscFunctionBegin;
  PetscCall(KSPCreate(ts->comm, &k));
  PetscCall(KSPSetOptionsPrefix(k, "ts_"));
  PetscCall(KSPSetType(k, KSPCG));
  PetscCall(KSPGetPC(k, &pc));
  PetscCall(PCSetType(pc, PCGAMG));
  PetscCall(KSPSetTolerances(k, 1e-10, 1e-300, PETSC_DEFAULT, 10000));
  PetscCall(KSPSetNormType(k, KSP_NORM_UNPRECONDITIONED)); /* |b - K_eff d|: a force imbalance, and |b| costs no preconditioner application */
  PetscCall(KSPSetFromOptions(k));
  al->kslot[al->nslot] = k;
  al->Kslot[al->nslot] = NULL;
  al->Pslot[al->nslot] = NULL;
  al->Sslot[al->nslot] = NULL;
  al->hslot[al->nslot] = 0;
  al->cur              = al->nslot++;
  al->ksp              = k;
  al->Keff             = NULL;
  PetscFunctionReturn(0);
}

/* Make the slot of step h current: reuse it, take the unused first one, open a new one, or rebuild the
   oldest when all 16 are taken. Returns whether K_eff must be (re)built. */
PetscErrorCode FlxAlphaSelectSlot(FlxStepper ts, PetscReal h, PetscBool *build)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;

  PetscFunctionBegin;
  *build = PETSC_FALSE;
  for (PetscInt i = 0; i < al->nslot; i++)
    if (al->hslot[i] == h) {
      al->cur  = i;
      al->ksp  = al->kslot[i];
      al->Keff = al->Kslot[i];
      PetscFunctionReturn(0);
    }
  *build = PETSC_TRUE;
  if (al->hslot[0] == 0)
    al->cur = 0;
  else if (al->nslot < 16)
    PetscCall(FlxAlphaNewSlot(ts));
  else { /* the hierarchy of the oldest was made for its K_eff (and compacted): set it up from scratch */
    al->cur = (al->cur + 1) % 16;
    PetscCall(KSPReset(al->kslot[al->cur]));
  }
  al->ksp  = al->kslot[al->cur];
  al->Keff = al->Kslot[al->cur];
  PetscFunctionReturn(0);
}

/* A copy of K_eff (current slot) in another storage type, created or refilled, marked symmetric (and SPD) with
   the near-null space. */
static PetscErrorCode ConvertKeff(FlxStepper_Alpha *al, MatType type, MatNullSpace nsp, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(MatConvert(al->Keff, type, *A ? MAT_REUSE_MATRIX : MAT_INITIAL_MATRIX, A));
  PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(*A, MAT_SPD, PETSC_TRUE));
  if (nsp) PetscCall(MatSetNearNullSpace(*A, nsp));
  PetscFunctionReturn(0);
}

/* GAMG builds its coarse operators and interpolations in AIJ. For the same reason as K_eff's SBAIJ copy, the
   smoothers and residuals of the levels between the finest and the coarsest get SBAIJ copies of their operators,
   and the interpolations (and restrictions, their transposes) BAIJ copies when their block sizes allow (6 x 6
   for beam and shell models). The preconditioner matrices (Jacobi diagonals, the coarse factorization) stay.
   A compacted hierarchy cannot be set up again (GAMG would form PtAP of AIJ with BAIJ): a slot whose K_eff
   changes gets KSPReset first (SelectSlot). Collective. */
static PetscErrorCode CompactHierarchy(KSP ksp)
{
  PC        pc;
  PetscBool gamg;
  PetscInt  nl;

  PetscFunctionBegin;
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCGAMG, &gamg));
  if (!gamg) PetscFunctionReturn(0);
  PetscCall(PCMGGetLevels(pc, &nl));
  for (PetscInt l = 1; l < nl; l++) {
    Mat      P, Pb;
    PetscInt rbs, cbs;
    PetscCall(PCMGGetInterpolation(pc, l, &P));
    PetscCall(MatGetBlockSizes(P, &rbs, &cbs));
    if (rbs == cbs && rbs > 1) {
      PetscCall(MatConvert(P, MATBAIJ, MAT_INITIAL_MATRIX, &Pb));
      PetscCall(PCMGSetInterpolation(pc, l, Pb));
      PetscCall(PCMGSetRestriction(pc, l, Pb)); /* applied as its transpose; frees the AIJ P */
      PetscCall(MatDestroy(&Pb));
    }
  }
  for (PetscInt l = 1; l < nl - 1; l++) {
    KSP smoother;
    Mat A, B, S;
    PetscCall(PCMGGetSmoother(pc, l, &smoother));
    PetscCall(KSPGetOperators(smoother, &A, &B));
    PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE)); /* a Galerkin product of a symmetric K_eff */
    PetscCall(MatConvert(A, MATSBAIJ, MAT_INITIAL_MATRIX, &S));
    PetscCall(KSPSetOperators(smoother, S, B));
    PetscCall(PCMGSetResidual(pc, l, PCMGResidualDefault, S));
    PetscCall(MatDestroy(&S));
  }
  PetscFunctionReturn(0);
}

/* Set up the KSP and preconditioner of the current slot, timed. Collective. */
static PetscErrorCode SetUpSolver(FlxStepper_Alpha *al)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(KSPSetUp(al->ksp));
  PetscCall(CompactHierarchy(al->ksp));
  PetscCall(PetscTime(&t1));
  al->tpc += t1 - t0;
  PetscFunctionReturn(0);
}

/* K_eff for step h: (1 - af + c_C bK) K + c_C C_d + (c_M + c_C aM) M, prescribed rows and columns replaced by the
   identity (scaled to the mean diagonal), near-null space attached; then the KSP and its preconditioner are
   set up (SetUpSolver) and kept until the next rebuild. Collective. */
PetscErrorCode FlxAlphaBuildKeff(FlxStepper ts, PetscReal h)
{
  FlxStepper_Alpha *al = (FlxStepper_Alpha *)ts->data;
  const PetscReal   cM = (1 - al->am) / (al->beta * h * h), cC = (1 - al->af) * al->gamma / (al->beta * h);
  PetscLogDouble    t0, t1;
  MatNullSpace      nsp;
  PetscReal         dmean;
  PetscInt          N;

  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  { /* K_eff is assembled in BAIJ (block size 6). Iterative solves do their Krylov and fine-level smoother
       products on an SBAIJ copy (the upper triangle: half the bytes of a memory-bound product, measured 1.45x
       faster steps on the 1e6-DOF tower than BAIJ). The preconditioner is built from BAIJ for the point and
       point-block Jacobi, otherwise from an AIJ copy: GAMG (PETSc 3.18 has no graph of BAIJ), the
       factorizations (MUMPS), SOR and the rest, which PETSc implements for AIJ */
    PC        pc;
    PetscBool fact, pbaij;
    PetscCall(KSPGetPC(al->ksp, &pc));
    PetscCall(PetscObjectTypeCompareAny((PetscObject)pc, &fact, PCCHOLESKY, PCLU, ""));
    PetscCall(PetscObjectTypeCompareAny((PetscObject)pc, &pbaij, PCJACOBI, PCPBJACOBI, PCNONE, ""));
    { /* warm start from the predictor, except for a direct solve (preonly refuses a nonzero guess) */
      PetscBool preonly;
      PetscCall(PetscObjectTypeCompare((PetscObject)al->ksp, KSPPREONLY, &preonly));
      PetscCall(KSPSetInitialGuessNonzero(al->ksp, preonly ? PETSC_FALSE : PETSC_TRUE));
      al->direct = preonly;
    }
    if (fact) { /* MUMPS unless the user chose a solver */
      MatSolverType st;
      PetscCall(PCFactorGetMatSolverType(pc, &st));
      if (!st) PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
    }
    if (!al->Keff)
      PetscCall(MatDuplicate(al->K, MAT_COPY_VALUES, &al->Keff));
    else
      PetscCall(MatCopy(al->K, al->Keff, SAME_NONZERO_PATTERN));
    PetscCall(MatScale(al->Keff, (1 - al->af) + cC * al->bK));
    if (al->Cd) PetscCall(MatAXPY(al->Keff, cC, al->Cd, SUBSET_NONZERO_PATTERN)); /* its blocks are K's */
    if (al->consistent)
      PetscCall(MatAXPY(al->Keff, cM + cC * al->aM, al->Mc, SAME_NONZERO_PATTERN));
    else {
      PetscCall(VecCopy(al->Mass, al->W));
      PetscCall(VecScale(al->W, cM + cC * al->aM));
      PetscCall(MatDiagonalSet(al->Keff, al->W, ADD_VALUES));
    }
    PetscCall(MatGetDiagonal(al->Keff, al->W));
    PetscCall(VecNorm(al->W, NORM_1, &dmean));
    PetscCall(VecGetSize(al->W, &N));
    dmean /= N;
    al->dslot[al->cur] = dmean;
    PetscCall(MatZeroRowsColumnsIS(al->Keff, al->fixed, dmean, NULL, NULL));
    PetscCall(MatSetOption(al->Keff, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(FlxSystemGetNearNullSpace(ts->sys, &nsp));
    if (nsp) PetscCall(MatSetNearNullSpace(al->Keff, nsp));
    if (!pbaij) PetscCall(ConvertKeff(al, MATAIJ, nsp, &al->Pslot[al->cur]));
    if (!al->direct) PetscCall(ConvertKeff(al, MATSBAIJ, nsp, &al->Sslot[al->cur]));
    {
      Mat Pmat = pbaij ? al->Keff : al->Pslot[al->cur];
      PetscCall(KSPSetOperators(al->ksp, al->direct ? Pmat : al->Sslot[al->cur], Pmat));
    }
  }
  al->Kslot[al->cur] = al->Keff;
  al->hslot[al->cur] = h;
  al->hK             = h;
  al->nbuild++;
  PetscCall(PetscTime(&t1));
  al->tbuild += t1 - t0;
  PetscCall(SetUpSolver(al));
  PetscFunctionReturn(0);
}
