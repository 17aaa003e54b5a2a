/* The implicit generalized-alpha family on constrained systems (issue 16): the data shared by the index-3 step and
   the driver (alphadae.c) and the generalized-alpha-SOI2 step (alphasoi2.c). Private to src/steppers. */
#pragma once
#include "alpha.h"

typedef struct _AlphaSOI2 *AlphaSOI2;

typedef struct {
  FlxStepperOps  saved;
  PetscReal      am, af, beta, gamma;
  PetscReal      ratio[16];
  PetscInt       nratio;
  Vec            X, V, A, Aa, Aprev, Lam, X1, V1, Anew, Lam1, Da, Dl, R1, R2, Gv, Fold, MA, MAa, MAprev, Ft, Tv, Mass, Free; /* Aa, MAa: a*_n, M_n a*_n moved to the step (eq. 14) */
  Vec            Psi, Psi1;                                                                                                  /* velocity constraints' multipliers psi_n, psi_{n+1} (NULL without) */
  Mat            G1, Kv1, J, Mfull, Mi;                                                                                      /* Kv1: dk/dv at the iterate; Mfull: the system's M(t, x) (borrowed); Mi: M_{1+alpha} of the inertia */
  FlxSaddle      sp, sp2;                                                                                                    /* [[J, G^T], [G, 0]]; SOI2's second, [[(1 - am) M, U~^T], [C, 0]] (alphasoi2.c) */
  AlphaSOI2      soi2;                                                                                                       /* SOI2's own data (alphasoi2.c; NULL for index 3) */
  Vec            Jd;                                                                                                         /* diag(J), the Newton matrix's upper block with -ts_dae_tangent diagonal */
  PetscBool      diag;                                                                                                       /* the saddle-point matrices take diag(J) (the Schur route) */
  PetscBool      full, haveprev, adjust, general;                                                                            /* adjust: eq. (14) on step changes (-ts_dae_step_adjust); general: a general constraint force */
  PetscReal      aM, al, hprev, hcur;                                                                                        /* al = alpha_m - alpha_f; the last step taken; the step the control proposes */
  PetscInt       its, itmax, nsteps, ntry;
  PetscReal      tstep, kmax; /* wall time in the steps; largest |k(t, x, v)| of the velocity constraints */
  FlxAlphaAdapt *ad;          /* error control (the alpha type's) */
  PetscReal      tsad0;       /* the saddle-point solves' time at the end of the start-up */
  PetscInt       nsad0;
} AlphaDAE;

/* M (the lumped or the inertia's M_{1+alpha}) times x into y. Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaDAEMassMult(AlphaDAE *d, Vec x, Vec y);
/* M(t, x) into Mfull, when the inertia (alpha = 0) or the mass-proportional damping needs it at that state.
   Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaDAEMassAt(FlxStepper ts, AlphaDAE *d, PetscReal t, Vec x);
/* F = f_ext(t) - f_int(t, x, v) - a_M M v - fc(t, x, v, lambda, psi) (fc = G^T lambda + Kv^T psi, or the system's
   general constraint force), M, G and Kv at (t, x, v) already in Mfull, G1 and Kv1; psi NULL without velocity
   constraints. Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaDAEForce(FlxStepper ts, AlphaDAE *d, PetscReal t, Vec x, Vec v, Vec lambda, Vec psi, Vec F);

/* The Newton matrix of the equilibrium at the iterate (X1, V1) into J: (1 - af) beta h^2 [df_int/dx + gamma/(beta h)
   df_int/dv + dfc/dx + gamma/(beta h) dfc/dv] + (1 - am) M (and a_M's terms), fc's derivatives at (lam, psi) (Lt, Pt:
   its transposed derivatives in the multipliers, for a general force; G1, Kv1 otherwise). Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaDAETangent(FlxStepper ts, AlphaDAE *d, PetscReal t1, PetscReal h, Vec lam, Vec psi, Mat Lt, Mat Pt);
/* sp's operators [[J or diag(J), U^T], [C, 0]] (-ts_dae_tangent). Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaDAESetNewton(AlphaDAE *d, FlxSaddle sp, Mat U, Mat C);

/* ==== generalized-alpha-SOI2 (alphasoi2.c) ==== */
/* SOI2's data: the second saddle-point solver, the auxiliary unknowns, the stacked constraint rows of position and
   velocity constraints. Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaSOI2SetUp(FlxStepper ts, AlphaDAE *d);
/* The consistent a_0, lambda_0, psi_0 of a system with velocity constraints or a general constraint force (Newton
   from the multipliers of FlxStepperSetInitialMultipliers). Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaSOI2Consistent(FlxStepper ts, AlphaDAE *d);
/* One try of a step of size h from t (seed 002 eq. 13). Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaSOI2Attempt(FlxStepper ts, AlphaDAE *d, PetscReal t, PetscReal h, PetscBool *conv);
/* Free SOI2's data. Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaSOI2Destroy(AlphaDAE *d);
