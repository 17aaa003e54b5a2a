/* FlxStepper: a PETSc-TS-style time stepper for the second-order system FlxSystem.
   Types are registered by name (-ts_type) and see only the FlxSystem interface. */
#pragma once
#include <flexure/system.h>

typedef struct _p_FlxStepper *FlxStepper;
typedef const char           *FlxStepperType;
#define FLXSTEPPERGCD "gcd"
#define FLXSTEPPERNEWMARK "newmark"
#define FLXSTEPPERHHT "hht"
#define FLXSTEPPERGENALPHA "genalpha"

typedef enum {
  FLX_STEPPER_DIVERGED_NEWTON   = -4, /* Newton of an implicit step on a nonlinear system failed at the smallest step allowed */
  FLX_STEPPER_DIVERGED_SOLVE    = -3, /* a linear solve of an implicit step failed */
  FLX_STEPPER_DIVERGED_ENERGY   = -2, /* energy balance error beyond -ts_max_energy_error: unstable */
  FLX_STEPPER_DIVERGED_NANORINF = -1,
  FLX_STEPPER_ITERATING         = 0,
  FLX_STEPPER_CONVERGED_TIME    = 1,
  FLX_STEPPER_CONVERGED_ITS     = 2
} FlxStepperConvergedReason;

/* One row of the energy ledger (global values). */
/* One row of the energy ledger. Balance: kinetic + strain - external_work + damping + numerical = const.
   numerical is the energy an implicit method dissipates (generalized-alpha, HHT, dissipative Newmark);
   0 for the explicit GCD steppers, whose ledger is exact. */
typedef struct {
  PetscReal time, kinetic, strain, external_work, damping, numerical;
} FlxLedgerRow;

/* Called at output steps with the state at t. */
typedef PetscErrorCode (*FlxStepperOutputFn)(FlxStepper, PetscInt step, PetscReal t, Vec x, Vec v, Vec a, void *ctx);
/* Called when the ledger and probe buffers are flushed: nrows rows (one per history step); probe values (rank 0
   only, else NULL) are nrows x nprobe x 3 (displacement, velocity, acceleration of each probed DOF) and the
   history values (rank 0 only, else NULL; NULL without a history callback) nrows x ncol, summed over ranks. */
typedef PetscErrorCode (*FlxStepperFlushFn)(FlxStepper, PetscInt nrows, const FlxLedgerRow rows[], const PetscReal probes[], const PetscReal history[], void *ctx);
/* History callback: this rank's part of ncol values at time t (summed over the ranks at the flush), e.g. reaction
   totals. Called on every rank at each history step. */
typedef PetscErrorCode (*FlxStepperHistoryFn)(FlxStepper, PetscReal t, PetscReal local[], void *ctx);
typedef PetscErrorCode (*FlxStepperPostStepFn)(FlxStepper, void *ctx);

/* Life cycle (all collective). */
PETSC_EXTERN PetscErrorCode FlxStepperCreate(MPI_Comm comm, FlxStepper *ts);
PETSC_EXTERN PetscErrorCode FlxStepperSetSystem(FlxStepper ts, FlxSystem sys);
PETSC_EXTERN PetscErrorCode FlxStepperSetType(FlxStepper ts, FlxStepperType type);
PETSC_EXTERN PetscErrorCode FlxStepperSetFromOptions(FlxStepper ts);
/* Method stability analysis, omega_max estimates and the step size. */
PETSC_EXTERN PetscErrorCode FlxStepperSetUp(FlxStepper ts);
/* Initial time, displacement and velocity (copied). */
PETSC_EXTERN PetscErrorCode FlxStepperSetInitialConditions(FlxStepper ts, PetscReal t0, Vec x0, Vec v0);
/* Advance to the final time (-ts_max_time) or -ts_max_steps; stops cleanly on divergence (see GetConvergedReason). */
PETSC_EXTERN PetscErrorCode FlxStepperSolve(FlxStepper ts);
/* Print the method; after SetUp also the critical step, the step size and the method's analysis (no side
   effects: View never sets up). */
PETSC_EXTERN PetscErrorCode FlxStepperView(FlxStepper ts, PetscViewer viewer);
/* Free what SetUp made and keep the parameters, so that the system, the options or the type can change and
   SetUp runs again (SetType after SetUp resets too). */
PETSC_EXTERN PetscErrorCode FlxStepperReset(FlxStepper ts);
PETSC_EXTERN PetscErrorCode FlxStepperDestroy(FlxStepper *ts);
/* Register a stepper type. Not collective. */
PETSC_EXTERN PetscErrorCode FlxStepperRegister(const char name[], PetscErrorCode (*create)(FlxStepper));

/* Settings and queries. */
PETSC_EXTERN PetscErrorCode FlxStepperSetTimeStep(FlxStepper ts, PetscReal dt);
PETSC_EXTERN PetscErrorCode FlxStepperGetTimeStep(FlxStepper ts, PetscReal *dt);
PETSC_EXTERN PetscErrorCode FlxStepperSetMaxTime(FlxStepper ts, PetscReal tmax);
PETSC_EXTERN PetscErrorCode FlxStepperGetTime(FlxStepper ts, PetscReal *t, PetscInt *step);
/* Number of steps the run will take (after SetUp). Not collective. */
PETSC_EXTERN PetscErrorCode FlxStepperGetNumSteps(FlxStepper ts, PetscInt *nsteps);
/* Critical step h_crit = Omega_max / omega_max and the estimates behind it. Not collective. */
PETSC_EXTERN PetscErrorCode FlxStepperGetCriticalStep(FlxStepper ts, PetscReal *hcrit, PetscReal *Omega_max, PetscReal *omega_power, PetscReal *omega_bound);
/* State at the current time t_n (x_n, v_n, a_n); the vectors belong to the stepper. Collective. */
PETSC_EXTERN PetscErrorCode FlxStepperGetState(FlxStepper ts, Vec *x, Vec *v, Vec *a);
PETSC_EXTERN PetscErrorCode FlxStepperGetConvergedReason(FlxStepper ts, FlxStepperConvergedReason *reason, const char **msg);
/* Largest relative energy balance error and the peak energy seen so far. Not collective. */
PETSC_EXTERN PetscErrorCode FlxStepperGetEnergyError(FlxStepper ts, PetscReal *maxrel, PetscReal *peak);
/* DOFs (global indices) recorded every step. Collective. */
PETSC_EXTERN PetscErrorCode FlxStepperSetProbes(FlxStepper ts, PetscInt n, const PetscInt gdofs[]);
/* Output every interval steps (0: only first and last) and the flush callback. Logically collective. */
PETSC_EXTERN PetscErrorCode FlxStepperSetOutput(FlxStepper ts, PetscInt interval, FlxStepperOutputFn fields, FlxStepperFlushFn flush, void *ctx);
PETSC_EXTERN PetscErrorCode FlxStepperSetPostStep(FlxStepper ts, FlxStepperPostStepFn fn, void *ctx);
/* A ledger, probe and history row every interval steps (and at the first and the last step; default 1). The
   ledger's work and damping sums still take every step. Logically collective. */
PETSC_EXTERN PetscErrorCode FlxStepperSetHistoryInterval(FlxStepper ts, PetscInt interval);
PETSC_EXTERN PetscErrorCode FlxStepperGetHistoryInterval(FlxStepper ts, PetscInt *interval);
/* History callback with ncol values per history step (after FlxStepperSetUp). Logically collective. */
PETSC_EXTERN PetscErrorCode FlxStepperSetHistoryFunction(FlxStepper ts, PetscInt ncol, FlxStepperHistoryFn fn, void *ctx);
/* Reactions R = f_int(x, v) + a_M M v + M a - f_ext at the prescribed DOFs for the state at the current time
   (FlxSystemComputeReactions); R must be zero on the free DOFs (it stays so). Collective. */
PETSC_EXTERN PetscErrorCode FlxStepperComputeReactions(FlxStepper ts, Vec R);
/* Type name and a one-line description of the parameters (for attributes). Not collective. */
PETSC_EXTERN PetscErrorCode FlxStepperGetDescription(FlxStepper ts, const char **type, char desc[], size_t len);

/* Stability of a GCD parameter set, computed from the stepper's own update (time-integration.md 1):
   spectral radius of the amplification matrix at Omega = omega h. Not collective. */
PETSC_EXTERN PetscErrorCode FlxGCDSpectralRadius(PetscInt degree, const PetscReal params[], PetscReal Omega, PetscReal *rho);
/* The same for a = -omega^2 x - 2 zeta omega v with the velocity term in the conditionally explicit solve. */
PETSC_EXTERN PetscErrorCode FlxGCDSpectralRadiusDamped(PetscInt degree, const PetscReal params[], PetscReal Omega, PetscReal zeta, PetscReal *rho);
/* Largest Omega reached from 0 with rho <= 1 (0 when there is no stable interval). Not collective. */
PETSC_EXTERN PetscErrorCode FlxGCDOmegaMax(PetscInt degree, const PetscReal params[], PetscReal *Omega_max);
/* Preset k of the GCD family (name NULL past the last). Not collective. */
PETSC_EXTERN PetscErrorCode FlxGCDGetPreset(PetscInt k, const char **name, PetscInt *degree, PetscReal params[4], const char **note);
/* Degree and (alpha, beta, gamma, zeta) of a gcd stepper. Not collective. */
/* Typed setters of the gcd type (before SetUp, or after FlxStepperReset): a preset by name (-ts_gcd_preset), or
   the degree and its parameters alpha, beta[, gamma[, zeta]] (-ts_gcd_degree, -ts_gcd_params). Logically collective. */
PETSC_EXTERN PetscErrorCode FlxStepperGCDSetPreset(FlxStepper ts, const char preset[]);
PETSC_EXTERN PetscErrorCode FlxStepperGCDSetParameters(FlxStepper ts, PetscInt degree, const PetscReal params[]);
PETSC_EXTERN PetscErrorCode FlxStepperGCDGetParameters(FlxStepper ts, PetscInt *degree, PetscReal params[4], const char **preset);
/* The 'flexure stability' command: Omega_max and rho(Omega) of the stepper set by the options, one line
   per preset with -all_presets, or a parameter search with -stability_search_degree. Collective. */
PETSC_EXTERN PetscErrorCode FlxStabilityCommand(MPI_Comm comm);
/* Spectral radius of the stepper's amplification matrix at Omega = omega h with damping ratio zeta (after
   FlxStepperSetFromOptions). Not collective. */
PETSC_EXTERN PetscErrorCode FlxStepperSpectralRadius(FlxStepper ts, PetscReal Omega, PetscReal zeta, PetscReal *rho);

/* ==== Constrained systems (issue 16; the system's constraints, system.h) ==== */
/* Multipliers lambda at t_n (the state's; the vector belongs to the stepper; NULL without constraints). Collective. */
PETSC_EXTERN PetscErrorCode FlxStepperGetMultipliers(FlxStepper ts, Vec *lambda);
/* Multipliers psi of the velocity constraints at t_n (the stepper's vector; NULL without). Collective. */
PETSC_EXTERN PetscErrorCode FlxStepperGetVelocityMultipliers(FlxStepper ts, Vec *psi);
/* Guesses of the initial multipliers lambda_0 (and psi_0; either may be NULL) for the consistent start of a system
   whose constraint force is nonlinear in them (FlxSystemSetConstraintForce: Newton from these; several roots are
   possible); copied. Call before FlxStepperSetUp. Collective. */
PETSC_EXTERN PetscErrorCode FlxStepperSetInitialMultipliers(FlxStepper ts, Vec lambda0, Vec psi0);
/* Largest constraint violations over the run so far: |g(t, x)|_inf over the positions the stepper computed and
   |G v + g_t|_inf over its velocities (0 without constraints); either may be NULL. Not collective. */
PETSC_EXTERN PetscErrorCode FlxStepperGetConstraintViolation(FlxStepper ts, PetscReal *gpos, PetscReal *gvel);
/* ==== end of constrained systems ==== */
