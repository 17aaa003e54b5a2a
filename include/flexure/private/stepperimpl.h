/* Implementation of FlxStepper. Never included by public headers. */
#pragma once
#include <flexure/flexure.h>

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
} FlxStepperOps;

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

  /* energy ledger: local partial sums of the current step (time-integration.md, ledger) */
  PetscReal  lsum[4];
  PetscInt   cap, nbuf;
  PetscReal *lbuf, *gbuf, *tbuf; /* cap x 6 local (the step's sums, and the work and damping increments of the
                                    steps since the last row), reduced; times */
  PetscInt  history_interval;    /* a ledger, probe and history row every this many steps (and the first and last) */
  PetscReal lacc[2];             /* work and damping increments of the steps not recorded, local */
  PetscInt  nhist;               /* history columns of the history callback */
  PetscErrorCode (*histfn)(FlxStepper, PetscReal, PetscReal[], void *);
  void         *histctx;
  PetscReal    *hbuf, *hred; /* cap x nhist local, reduced on rank 0 */
  Vec           Rwork;       /* f_ext for the reaction fallback */
  FlxLedgerRow *rows;
  PetscReal     Wh, Dh, B0, scale, input, peak, maxrel;
  PetscBool     ledger_direct; /* lsum holds kinetic, strain, dW, dD of the step (implicit steppers); else the central-difference sums */
  PetscBool     implicit;      /* unconditionally stable: no critical step, -ts_dt required */
  PetscReal     hlast;         /* step just taken, when the stepper varies it (time accumulates) */
  PetscBool     varstep;
  PetscBool     haveB0;
  PetscReal     max_energy_error;

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
  char                      reason_msg[1024];
};

PETSC_INTERN PetscErrorCode FlxStepperRegisterAll(void);
/* Whether step (after it is taken) gets a ledger, probe and history row. Not collective. */
PETSC_INTERN PetscBool      FlxStepperIsHistoryStep(FlxStepper ts, PetscInt step);
PETSC_INTERN PetscErrorCode FlxStepperFinalizeRegistry(void);
PETSC_INTERN PetscErrorCode FlxStepperCreate_GCD(FlxStepper);
PETSC_INTERN PetscErrorCode FlxStepperCreate_Alpha(FlxStepper);
