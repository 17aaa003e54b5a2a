/* Implementation of FlxStepper. Never included by public headers. */
#pragma once
#include <flexure/flexure.h>

#define FLX_LEDGER_ROW 7 /* a ledger row's sums: lsum[0 .. 3], then the steps' work, damping and internal work since the last row */

typedef struct {
  PetscErrorCode (*setfromoptions)(FlxStepper);
  PetscErrorCode (*setup)(FlxStepper);   /* allocate, compute the method's Omega_max */
  PetscErrorCode (*startup)(FlxStepper); /* from x0, v0: the first state; fills lsum for t0 */
  PetscErrorCode (*step)(FlxStepper);    /* t_n -> t_{n+1}; fills lsum for t_{n+1} */
  PetscErrorCode (*getstate)(FlxStepper, Vec *, Vec *, Vec *);
  PetscErrorCode (*probe)(FlxStepper, PetscInt, const PetscInt[], PetscReal[]);     /* x, v, a at t_n of local DOFs (-1: 0) */
  PetscErrorCode (*spectral_radius)(FlxStepper, PetscReal, PetscReal, PetscReal *); /* rho of the method at (Omega, zeta) */
  PetscErrorCode (*report)(FlxStepper, PetscViewer);                                /* statistics after a run */
  PetscErrorCode (*view)(FlxStepper, PetscViewer);
  PetscErrorCode (*describe)(FlxStepper, char[], size_t);
  PetscErrorCode (*progress)(FlxStepper, char[], size_t); /* extra text for the progress line (KSP iterations) */
  PetscErrorCode (*reaction)(FlxStepper, Vec);            /* reactions at t_n (FlxSystemComputeReactions on the stepper's state) */
  PetscErrorCode (*reset)(FlxStepper);                    /* free what setup made, keep the parameters (NULL: not supported) */
  PetscErrorCode (*destroy)(FlxStepper);
  PetscErrorCode (*getmultipliers)(FlxStepper, Vec *, Vec *); /* constrained systems (issue 16): lambda and psi at t_n */
} FlxStepperOps;

/* ==== Constrained systems (issue 16): the settings of the constrained steps (-ts_dae_*, constraints.c) and
   what they measure; data holds the type's own constrained-step data. ==== */
typedef enum {
  FLX_DAE_SOLVER_AUTO,
  FLX_DAE_SOLVER_LU,
  FLX_DAE_SOLVER_SCHUR,
  FLX_DAE_SOLVER_FIELDSPLIT,
  FLX_DAE_SOLVER_DENSE
} FlxDAESolver;
typedef enum {
  FLX_DAE_TANGENT_AUTO,
  FLX_DAE_TANGENT_FULL,
  FLX_DAE_TANGENT_DIAGONAL
} FlxDAETangent;
typedef struct {
  FlxDAESolver  solver;         /* -ts_dae_solver */
  FlxDAETangent tangent;        /* -ts_dae_tangent: the implicit steps' Newton matrix (full, or its diagonal) */
  PetscReal     rtol;           /* -ts_dae_rtol: the iterations stop when x_{n+1} stops changing */
  PetscInt      maxit;          /* -ts_dae_max_it */
  PetscReal     ic_tol;         /* -ts_dae_ic_tol */
  PetscBool     project_ic;     /* -ts_dae_project_ic */
  PetscBool     chord;          /* -ts_dae_chord: the constraint rows' Jacobian (implicit steps: the whole matrix) of the first iterate kept for the step */
  PetscBool     soi2;           /* -ts_dae_soi2: the implicit steppers as generalized-alpha-SOI2 (seed 002) instead of index 3 */
  PetscBool     step_adjust;    /* -ts_dae_step_adjust: seed 002 eq. (14) when the step changes */
  const char   *implicit_only;  /* the first of the implicit steppers' options given (NULL: none): the GCD refuses it */
  PetscReal     gmax, vmax;     /* largest |g(t, x)| and |G v + g_t| over the positions and velocities computed */
  PetscReal     xscale, vscale; /* largest |x|, |v| of the accepted steps: the iterations' tests are relative to them, so
                                   that a motion coming to rest still converges (relative to |v| -> 0, it could not);
                                   FlxDAETestScale */
  Vec      lambda0, psi0;       /* guesses of the initial multipliers (FlxStepperSetInitialMultipliers; NULL: zero) */
  PetscInt its, itmax, nsolves;
  void    *data;
} FlxStepperDAE;

/* The scale of a constrained step's convergence test on x or v: the larger of the iterate's max norm (now) and the
   largest of the run's accepted steps (run: ts->dae.xscale, vscale), never 0. */
static inline PetscReal FlxDAETestScale(PetscReal now, PetscReal run)
{
  return PetscMax(PetscMax(now, run), PETSC_SMALL);
}
/* ==== end of constrained systems ==== */

struct _p_FlxStepper {
  MPI_Comm      comm;
  PetscMPIInt   rank;
  char          type[64];
  FlxStepperOps ops;
  void         *data;
  FlxSystem     sys;
  PetscBool     setup;

  PetscReal           t0, time, dt, max_time;
  PetscInt            step, max_steps, nsteps;
  PetscBool           dt_set, allow_unstable, use_bound;
  char                omega_file[PETSC_MAX_PATH_LEN]; /* -ts_omega_max_file: omega_max from 'flexure modes' */
  PetscReal           omega_given;                    /* -ts_omega_max, or read from omega_file */
  PetscReal           safety;
  PetscReal           Omega_max, omega_power, omega_bound, omega_used, h_crit;
  PetscInt            power_its, power_maxits;
  FlxOmegaConvergence power_how;  /* how the power iteration ended */
  PetscLogDouble      power_time; /* its wall time */
  PetscReal           power_rtol;
  Vec                 x0, v0;
  PetscReal           drate_est; /* the dampers' rate estimated at the initial state (FlxSystemEstimateDampingRate), 0: none */

  /* energy ledger: local partial sums of the current step (time-integration.md, ledger) */
  PetscReal  lsum[4];
  PetscInt   cap, nbuf;
  PetscReal *lbuf, *gbuf, *tbuf; /* cap x FLX_LEDGER_ROW local (the step's sums, and the work, damping and internal
                                    work increments of the steps since the last row), reduced; times */
  PetscInt  history_interval;    /* a ledger, probe and history row every this many steps (and the first and last) */
  PetscReal lacc[3];             /* work, damping and internal-work increments of the steps not recorded, local */
  PetscInt  nhist;               /* history columns of the history callback */
  PetscErrorCode (*histfn)(FlxStepper, PetscReal, PetscReal[], void *);
  void         *histctx;
  PetscReal    *hbuf, *hred; /* cap x nhist local, reduced on rank 0 */
  Vec           Rwork;       /* f_ext for the reaction fallback */
  FlxLedgerRow *rows;
  PetscReal     Wh, Dh, B0, scale, input, peak, maxrel, maxabs;
  PetscBool     strain_work; /* central-difference sums, lsum[1] the internal force's work (d_{n+1} + d_n) . f_int(x_n), as lsum[2]
                                the external one: the strain column is Ustart plus the work done (nonlinear systems: exact for gcd3) */
  PetscReal Ustart, Uh;      /* the strain energy at the start; the internal work summed so far */
  PetscBool ledger_direct;   /* lsum holds kinetic, strain, dW, dD of the step (implicit steppers); else the central-difference sums */
  PetscBool implicit;        /* unconditionally stable: no critical step, -ts_dt required */
  PetscReal hlast;           /* step just taken, when the stepper varies it (time accumulates) */
  PetscBool varstep;
  PetscBool haveB0;
  PetscReal max_energy_error;

  /* probes */
  PetscInt   nprobe, *plocal; /* local index or -1 */
  PetscReal *pbuf, *pred;     /* cap x nprobe x 3 */

  /* output and monitors */
  PetscInt             output_interval;
  FlxStepperOutputFn   fields;
  FlxStepperFlushFn    flush;
  void                *outctx;
  FlxStepperPostStepFn poststep;
  void                *postctx;
  PetscReal            monitor_interval, wall_start, wall_last;

  FlxStepperConvergedReason reason;
  char                      reason_msg[1536];
  FlxStepperDAE             dae; /* constrained systems (issue 16) */
};

PETSC_INTERN PetscErrorCode FlxStepperRegisterAll(void);
/* Whether step (after it is taken) gets a ledger, probe and history row. Not collective. */
PETSC_INTERN PetscBool      FlxStepperIsHistoryStep(FlxStepper ts, PetscInt step);
PETSC_INTERN PetscErrorCode FlxStepperFinalizeRegistry(void);
PETSC_INTERN PetscErrorCode FlxStepperCreate_GCD(FlxStepper);
PETSC_INTERN PetscErrorCode FlxStepperCreate_Alpha(FlxStepper);

/* ==== Constrained systems (issue 16): the saddle-point machinery shared by the constrained steppers
   (constraints.c). The saddle-point system is [[A, G^T], [H, 0]] [y; mu] = [r1; r2], A the mass (diagonal or
   assembled) or an iteration matrix, G the equilibrium's constraint Jacobian, H the constraint rows' (seed 000
   eq. 90 has G at x_n and H at the iterate of x_{n+1}). ==== */
typedef struct _n_FlxSaddle *FlxSaddle;
/* Read -ts_dae_* (called by FlxStepperSetFromOptions). Collective. */
PETSC_INTERN PetscErrorCode FlxStepperDAESetFromOptions(FlxStepper);
/* A saddle-point solver for the stepper's system (-ts_dae_solver, KSP prefix ts_dae_), chosen and configured (its
   options read) for A = diag(Adiag) or Amat and the pattern of G (assembled): at set-up, so that its options are
   read before the run. Collective. */
/* The step choice of FlxStepperSetUp (stepchoice.c): omega_max, h_crit, the damped checks and dt. Collective. */
PETSC_INTERN PetscErrorCode FlxStepperChooseStep(FlxStepper ts);
/* h rounded down to three significant digits (a readable step). Not collective. */
PETSC_INTERN PetscReal      FlxStepperRoundStep(PetscReal h);
PETSC_INTERN PetscErrorCode FlxSaddleCreate(FlxStepper, Vec Adiag, Mat Amat, Mat G, FlxSaddle *);
/* The blocks: A = diag(Adiag) (Amat NULL) or Amat (Adiag NULL); G and H, m x n (H may be G). Prescribed DOFs of
   the system's free mask get an identity row and no constraint force. The matrices are copied into the solver's
   operator (the callers may change theirs after). Collective. */
PETSC_INTERN PetscErrorCode FlxSaddleSetOperators(FlxSaddle, Vec Adiag, Mat Amat, Mat G, Mat H);
/* Solve for y (n) and mu (m); fails with a message naming dependent constraints when the matrix is singular,
   what says which solve. Collective. */
PETSC_INTERN PetscErrorCode FlxSaddleSolve(FlxSaddle, Vec r1, Vec r2, Vec y, Vec mu, const char what[], PetscReal t);
/* Solves so far and their wall time. Not collective. */
PETSC_INTERN PetscErrorCode FlxSaddleGetStatistics(FlxSaddle, PetscInt *nsolve, PetscReal *seconds);
/* Which solver runs, and its cost per solve (for View). */
PETSC_INTERN PetscErrorCode FlxSaddleView(FlxSaddle, PetscViewer);
PETSC_INTERN PetscErrorCode FlxSaddleDestroy(FlxSaddle *);
/* Refuse initial conditions that violate the velocity (nonholonomic) constraints beyond -ts_dae_ic_tol, naming the
   worst (global index). Collective. */
PETSC_INTERN PetscErrorCode FlxDAECheckVelocityConstraints(FlxStepper ts, PetscReal t0, Vec x, Vec v);
/* Whether the stepper hands its step to its constrained form (cons: the system has holonomic constraints), after
   refusing what that form cannot integrate: velocity constraints or a general constraint force unless soi2, velocity
   constraints without holonomic ones. Collective. */
PETSC_INTERN PetscErrorCode FlxDAECheckSupported(FlxStepper ts, PetscBool soi2, PetscBool *cons);
/* Names of up to 8 constraints by their global rows in G (the owners name them), quoted and joined into out on every
   rank. Collective. */
PETSC_INTERN PetscErrorCode FlxDAENameConstraints(FlxSystem sys, Mat G, PetscInt k, const PetscInt gidx[], char out[], size_t len);
/* Initial conditions (t0, x, v): refuse a violation of the constraints beyond -ts_dae_ic_tol, naming the worst
   constraint, or project x and v onto them (mass-weighted; -ts_dae_project_ic). A: the mass (diagonal or matrix).
   Collective. */
PETSC_INTERN PetscErrorCode FlxDAEInitialConditions(FlxStepper, FlxSaddle, PetscReal t0, Vec Adiag, Mat Amat, Vec x, Vec v);
/* Consistent a_0 and lambda_0: [[M, G^T], [G, 0]] [a; lambda] = [f_ext - f_int(x, v); -(G_x(v, v) + 2 G_t v + g_tt)].
   Collective. */
PETSC_INTERN PetscErrorCode FlxDAEConsistentAcceleration(FlxStepper, FlxSaddle, PetscReal t, Vec Adiag, Mat Amat, Vec x, Vec v, Vec a, Vec lambda);
/* Move x onto g(t, x) = 0 along M^-1 Gref^T (Newton; Gref the Jacobian at a reference point, assembled). Collective. */
PETSC_INTERN PetscErrorCode FlxDAEProjectPosition(FlxStepper, FlxSaddle, PetscReal t, Vec Adiag, Mat Amat, Mat Gref, Vec x, const char what[]);
/* |g(t, x)|_inf, and (when v is given) |G(t, x) v + g_t|_inf with G assembled at x by the caller (NULL: assembled here). Collective. */
PETSC_INTERN PetscErrorCode FlxDAEViolation(FlxStepper, PetscReal t, Vec x, Vec v, Mat G, PetscReal *gpos, PetscReal *gvel);
