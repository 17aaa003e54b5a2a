/* FlxSystem: the second-order system M a + f_int(t, x, v) = f_ext(t) that steppers integrate.
   Steppers see only this interface, never elements: the same stepper integrates a one-DOF pendulum
   and a million-DOF shell model. */
#pragma once
#include <petsc.h>

typedef struct _p_FlxSystem *FlxSystem;

/* f_int(t, x, v): internal force (elastic and any velocity-dependent force except the mass-proportional
   damping a_M M v, which the stepper applies itself). */
typedef PetscErrorCode (*FlxSystemInternalFn)(FlxSystem, PetscReal t, Vec x, Vec v, Vec f, void *ctx);
/* f_ext(t), or its first time derivative (for the start-up of higher-degree methods). */
typedef PetscErrorCode (*FlxSystemExternalFn)(FlxSystem, PetscReal t, Vec f, void *ctx);
/* Upper bound of the highest natural frequency (rad/s), e.g. element by element, and (when what is not NULL)
   a sentence saying what sets it (collective then). */
typedef PetscErrorCode (*FlxSystemOmegaBoundFn)(FlxSystem, PetscReal *omega, char what[], size_t len, void *ctx);
/* How the omega_max power iteration ended. */
typedef enum {
  FLX_OMEGA_NOT_CONVERGED, /* iteration cap reached */
  FLX_OMEGA_CONVERGED,     /* to the tolerance */
  FLX_OMEGA_NOT_RUN
} FlxOmegaConvergence;

/* Velocity part of a linear internal force: f = C v with C = b_K K + C_d (the stepper applies a_M M v itself). */
typedef PetscErrorCode (*FlxSystemDampingFn)(FlxSystem, Vec v, Vec f, void *ctx);
/* Reactions at the prescribed DOFs, R = f_int(x, v) + a_M M v + M a - f_ext there, with x = x1 - x0 (x0 may be
   NULL; the GCD steppers hold x_{n+1} and the last increment) and v, a, fext possibly NULL (zero). Only the
   entries of prescribed DOFs of R are written: the caller keeps R zero on the free DOFs. */
typedef PetscErrorCode (*FlxSystemReactionFn)(FlxSystem, Vec x1, Vec x0, Vec v, Vec a, Vec fext, Vec R, void *ctx);

/* Provider of an assembled matrix (the consistent mass), owned by the provider. */
typedef PetscErrorCode (*FlxSystemMatFn)(FlxSystem, Mat *M, void *ctx);
/* Provider of the near-null space of K (rigid-body modes, for algebraic multigrid); the system owns it. */
typedef PetscErrorCode (*FlxSystemNullSpaceFn)(FlxSystem, MatNullSpace *nsp, void *ctx);

/* Prescribed motion of the n moving DOFs (non-homogeneous boundary conditions): vals[(k - kmin) n + i] = the k-th
   time derivative (k = 0 displacement ... 4 snap) at t of moving DOF i, for k = kmin..kmax. */
typedef PetscErrorCode (*FlxSystemMotionFn)(FlxSystem, PetscReal t, PetscInt kmin, PetscInt kmax, PetscReal vals[], void *ctx);

/* Create a system on comm. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemCreate(MPI_Comm comm, FlxSystem *sys);
/* Destroy. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemDestroy(FlxSystem *sys);
/* Lumped (diagonal) mass and the free-DOF mask (1 free, 0 prescribed). References are taken. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetMass(FlxSystem sys, Vec mass, Vec free);
PETSC_EXTERN PetscErrorCode FlxSystemGetMass(FlxSystem sys, Vec *mass, Vec *free);
/* The prescribed DOFs (free mask 0), owned ones, global numbering; destroy the IS. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemCreatePrescribedIS(FlxSystem sys, IS *fixed);
/* Prescribed motion: the n owned moving DOFs (local indices into the DOF vector, among the prescribed ones of
   the free mask; increasing) and the function giving their motion. The steppers set x, v, a (and j, s) of these
   DOFs from it; the other prescribed DOFs stay at rest. idx is copied. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetPrescribedMotion(FlxSystem sys, PetscInt n, const PetscInt idx[], FlxSystemMotionFn fn, void *ctx);
/* The moving DOFs on this rank, and whether any rank has one (has may be NULL). Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemGetPrescribedMotion(FlxSystem sys, PetscInt *n, const PetscInt *idx[], PetscBool *has);
/* Evaluate the motion of the local moving DOFs: vals[(k - kmin) n + i], k = kmin..kmax (0 <= kmin <= kmax <= 4). Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputePrescribedMotion(FlxSystem sys, PetscReal t, PetscInt kmin, PetscInt kmax, PetscReal vals[]);
/* Set the entries of the moving DOFs of y[k - kmin] (NULL entries skipped) to the motion's k-th derivative at t. Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemApplyPrescribedMotion(FlxSystem sys, PetscReal t, PetscInt kmin, PetscInt kmax, Vec y[]);
/* A name for local DOF i in messages (e.g. "node 12 DOF uy"); the model provides it. */
typedef PetscErrorCode (*FlxSystemDofNameFn)(FlxSystem, PetscInt i, char name[], size_t len, void *ctx);
PETSC_EXTERN PetscErrorCode FlxSystemSetDofNameFunction(FlxSystem sys, FlxSystemDofNameFn fn, void *ctx);
/* Fail collectively when a free DOF has no mass (explicit methods and modes need a regular lumped mass), naming
   the DOF; what says who needs it. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemCheckMass(FlxSystem sys, const char what[]);

/* Internal force callback; linear = PETSC_TRUE when f_int(x, v) = K x + C v (enables exact start-up derivatives). Logically collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetInternalForce(FlxSystem sys, FlxSystemInternalFn fn, PetscBool linear, void *ctx);
/* External force callback and, optionally, its time derivative. Logically collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetExternalForce(FlxSystem sys, FlxSystemExternalFn fn, FlxSystemExternalFn rate, void *ctx);
/* Rayleigh damping C = aM M + bK K. Logically collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetRayleigh(FlxSystem sys, PetscReal aM, PetscReal bK);
PETSC_EXTERN PetscErrorCode FlxSystemGetRayleigh(FlxSystem sys, PetscReal *aM, PetscReal *bK);
/* Extra damping matrix C_d (discrete dampers, same layout as the stiffness; f_int(x, v) must include C_d v), a
   bound of the largest eigenvalue of M^-1 C_d (1/s, for the damped stability check of explicit steppers) and
   optionally a deterministic product f = (b_K K + C_d) v (NULL: MatMult). Reference taken; Cd NULL removes the
   matrix (the product stays: b_K K v). Logically collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetDampingMatrix(FlxSystem sys, Mat Cd, PetscReal rate, FlxSystemDampingFn mult, void *ctx);
/* The extra damping matrix (NULL when none) and the bound of the dampers' rate: the matrix's plus that of
   FlxSystemSetDampingRate (either may be NULL; the explicit steppers' damped stability checks read it). Not
   collective. */
PETSC_EXTERN PetscErrorCode FlxSystemGetDampingMatrix(FlxSystem sys, Mat *Cd, PetscReal *rate);
/* For a system whose velocity-dependent forces include dampers without a damping matrix (the constrained examples): a
   bound r >= 0 (1/s) of the largest eigenvalue of M^-1 times the symmetric part of their velocity derivative, for the
   damped stability checks of explicit steppers (FlxStepperSetUp; with a step given and no omega_max, a method that
   amplifies some damped motion the dampers can give is refused). Added to a damping matrix's bound. Without it, a
   system declared velocity dependent gets the rate estimated at its initial state (FlxSystemEstimateDampingRate);
   a rate given here, 0 too, is taken as it is. Logically collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetDampingRate(FlxSystem sys, PetscReal rate);
/* PETSC_TRUE when f_int is declared velocity dependent (FlxSystemSetVelocityDependent) and no rate bound of its
   dampers was given (FlxSystemSetDampingRate). Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemNeedsDampingRate(FlxSystem sys, PetscBool *need);
/* An estimate of the dampers' rate at (t, x, v): the largest Rayleigh quotient z . D z / z . M z over maxits power
   iterates z <- M^-1 D z, D z the central difference of f_int in v along z (free DOFs; exact for dampers linear in v)
   less the declared (b_K K + C_d) z, so at most the largest eigenvalue of M^-1 sym(D) and, for dampers, converging
   to it; skew (gyroscopic) parts add nothing. M is the lumped mass vector. 0 without f_int or it. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemEstimateDampingRate(FlxSystem sys, PetscReal t, Vec x, Vec v, PetscInt maxits, PetscReal *rate);
/* f = (b_K K + C_d) v, the velocity part of a linear f_int without a_M M v. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeDampingForce(FlxSystem sys, Vec v, Vec f);
/* Reaction callback (a cheap one, from the rows of the prescribed DOFs). Logically collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetReactionFunction(FlxSystem sys, FlxSystemReactionFn fn, void *ctx);
/* R = f_int(x1 - x0, v) + a_M M v + M a - f_ext on the prescribed DOFs (see FlxSystemReactionFn); without a
   callback from full products (costly). R must be zero on the free DOFs. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeReactions(FlxSystem sys, Vec x1, Vec x0, Vec v, Vec a, Vec fext, Vec R);
/* Assembled stiffness (optional; implicit methods and diagnostics). Reference taken. Get: the provider's matrix
   (assembled on the first request) when none was set. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetStiffness(FlxSystem sys, Mat K);
PETSC_EXTERN PetscErrorCode FlxSystemGetStiffness(FlxSystem sys, Mat *K);
/* Provider of the assembled stiffness for a system that does not assemble it unless asked (element-by-element
   internal force: explicit runs never ask). Logically collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetStiffnessFunction(FlxSystem sys, FlxSystemMatFn fn, void *ctx);
/* K's diagonal into d (the Jacobi preconditioner of the conditionally explicit solves with b_K K) without
   assembling K: Set a provider (logically collective); Get calls it, or takes the assembled stiffness's diagonal
   when none was set (an error if the system has neither). Collective. */
typedef PetscErrorCode (*FlxSystemDiagonalFn)(FlxSystem, Vec d, void *ctx);
PETSC_EXTERN PetscErrorCode FlxSystemSetStiffnessDiagonalFunction(FlxSystem sys, FlxSystemDiagonalFn fn, void *ctx);
PETSC_EXTERN PetscErrorCode FlxSystemGetStiffnessDiagonal(FlxSystem sys, Vec d);
/* f = K_0 x with K_0 the stiffness of the initial state of a nonlinear system (its linearization; the omega_max
   estimate of the critical step), without assembling it. Logically collective. */
typedef PetscErrorCode (*FlxSystemProductFn)(FlxSystem, Vec x, Vec f, void *ctx);
PETSC_EXTERN PetscErrorCode FlxSystemSetInitialStiffnessProduct(FlxSystem sys, FlxSystemProductFn fn, void *ctx);
/* Whether the system has an initial stiffness (set, provided or as a product): its critical step can be estimated.
   Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemHasInitialStiffness(FlxSystem sys, PetscBool *has);
/* Consistent mass: provider, and the matrix (NULL when the system has none; assembled on first call). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetConsistentMassFunction(FlxSystem sys, FlxSystemMatFn fn, void *ctx);
PETSC_EXTERN PetscErrorCode FlxSystemGetConsistentMass(FlxSystem sys, Mat *M);
/* Near-null space of the stiffness (the six rigid-body motions of beams and shells, rotations included):
   provider, and the space (NULL when none). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetNearNullSpaceFunction(FlxSystem sys, FlxSystemNullSpaceFn fn, void *ctx);
PETSC_EXTERN PetscErrorCode FlxSystemGetNearNullSpace(FlxSystem sys, MatNullSpace *nsp);
/* Optional omega bound callback and a deterministic start vector for the power iteration
   (independent of the number of ranks, so the step size is too). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetOmegaBound(FlxSystem sys, FlxSystemOmegaBoundFn fn, void *ctx);
PETSC_EXTERN PetscErrorCode FlxSystemSetPowerStart(FlxSystem sys, Vec x0);

/* Round-off scales (0, the default: none). length: the model's size L; its coordinates carry eps L of round-off, and
   when the state itself is at round-off (a model at rest: |x| + |dx| <= 1e-10 L sqrt(N)) the implicit Newton takes a
   correction below 1e-13 L sqrt(N) (2-norm, N DOFs; about 450 eps L per DOF) as converged. energy: the largest energy that
   round-off displacements can hold; the stepper's blow-up and balance checks never compare against less. A
   co-rotational f_int is zero at its reference configuration only to round-off, so a model at rest moves by
   round-off and holds energy of that order while nothing was put in. Logically collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetRoundoff(FlxSystem sys, PetscReal length, PetscReal energy);
PETSC_EXTERN PetscErrorCode FlxSystemGetRoundoff(FlxSystem sys, PetscReal *length, PetscReal *energy);

/* Evaluate f_int(t, x, v). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeInternalForce(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec f);
/* Evaluate f_ext(t) (zero when none is set). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeExternalForce(FlxSystem sys, PetscReal t, Vec f);
/* Evaluate d f_ext/dt (zero when no rate is set). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeExternalForceRate(FlxSystem sys, PetscReal t, Vec f);
/* Declare that f_int depends on the velocity (beyond Rayleigh damping and C_d): the explicit steppers then solve
   for the acceleration (conditionally explicit). Logically collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetVelocityDependent(FlxSystem sys, PetscBool vdep);
/* PETSC_TRUE when f_int depends on v (declared, stiffness-proportional damping or a damping matrix). Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemIsVelocityDependent(FlxSystem sys, PetscBool *vdep);
/* PETSC_TRUE for a linear system. Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemIsLinear(FlxSystem sys, PetscBool *linear);
/* Estimate omega_max: Lanczos on M^-1/2 K M^-1/2 over the free DOFs (SLEPc, options -ts_omega_eps_*; relative
   tolerance rtol on omega_max^2, at most maxits restarts; its = matrix products; from below until converged), and
   the upper bound (or -1 when the system has none). maxits = 0: the bound only. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemEstimateOmegaMax(FlxSystem sys, PetscInt maxits, PetscReal rtol, PetscReal *omega_power, PetscInt *its, FlxOmegaConvergence *how, PetscReal *omega_bound);
/* The upper bound of omega_max and what sets it (empty when unknown). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemDescribeOmegaBound(FlxSystem sys, char what[], size_t len);

/* Nonlinear systems (finite rotations; docs/nonlinear.md). The state: 6 DOFs per node, translations then the
   rotation vector psi of the node's frame relative to its initial frame (|psi| <= pi, R = exp(skew(psi))); v and a
   carry the spatial angular velocity and its derivative.
   Configuration update x_new = x (+) dx: translations add; rotations compose, R_new = exp(skew(dtheta)) R with
   dtheta the spatial increment in dx; writes the new rotation vector into x_new (may alias x). */
typedef PetscErrorCode (*FlxSystemUpdateFn)(FlxSystem, Vec x, Vec dx, Vec xnew, void *ctx);
/* Set the configuration update (NULL: everything adds). Logically collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetConfigurationUpdate(FlxSystem sys, FlxSystemUpdateFn fn, void *ctx);
/* Whether a configuration update is set (the system has finite rotations). Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemHasConfigurationUpdate(FlxSystem sys, PetscBool *has);
/* x_new = x (+) dx (x + dx when no update is set); xnew may alias x. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemUpdateConfiguration(FlxSystem sys, Vec x, Vec dx, Vec xnew);
/* The same update on the local arrays (whole, of x's layout) for the local DOFs [start, start + n) only, start and n
   multiples of 6; xnew must not alias x. Optional (with the Vec form's ctx): lets a stepper fuse the update into
   its own pass over the DOFs, a range at a time while it is in cache. Not collective. */
typedef PetscErrorCode (*FlxSystemUpdateLocalFn)(FlxSystem, PetscInt start, PetscInt n, const PetscScalar x[], const PetscScalar dx[], PetscScalar xnew[], void *ctx);
/* Set the local form (after FlxSystemSetConfigurationUpdate; NULL: none). Logically collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetConfigurationUpdateLocal(FlxSystem sys, FlxSystemUpdateLocalFn fn);
/* Whether the local form is set. Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemHasConfigurationUpdateLocal(FlxSystem sys, PetscBool *has);
/* xnew = x (+) dx on the local DOFs [start, start + n) through the local form (which must be set). Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemUpdateConfigurationLocal(FlxSystem sys, PetscInt start, PetscInt n, const PetscScalar x[], const PetscScalar dx[], PetscScalar xnew[]);
/* Tangent of the internal force at (t, x, v) with respect to the spatial increments: dF/dx + shiftV dF/dv,
   assembled (ADD_VALUES, then assembled) into J, a matrix from FlxSystemCreateJacobianMatrix. Not necessarily
   symmetric away from equilibrium. Excludes the mass (a_M M v included). */
typedef PetscErrorCode (*FlxSystemJacobianFn)(FlxSystem, PetscReal t, Vec x, Vec v, PetscReal shiftV, Mat J, void *ctx);
/* Set the Jacobian callback. Logically collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetJacobian(FlxSystem sys, FlxSystemJacobianFn fn, void *ctx);
/* A matrix for the Jacobian: the stiffness's pattern and type (MPIBAIJ bs 6 for models), or without a stiffness
   a dense-block AIJ matrix (small systems). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemCreateJacobianMatrix(FlxSystem sys, Mat *J);
/* J = dF/dx + shiftV dF/dv + (shiftA + shiftV a_M) M_lumped (zeroed first; pass shiftA = 0 and add a consistent
   mass yourself if you use one). Without a callback (linear systems): K + shiftV (b_K K + C_d). Prescribed DOFs
   are left to the caller. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeJacobian(FlxSystem sys, PetscReal t, Vec x, Vec v, PetscReal shiftV, PetscReal shiftA, Mat J);
/* Strain energy of the configuration x (the elements' sum; this rank's part). */
typedef PetscErrorCode (*FlxSystemEnergyFn)(FlxSystem, Vec x, PetscReal *elocal, void *ctx);
/* Set the strain energy callback (nonlinear systems; linear ones use x^T K x / 2). Logically collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetStrainEnergy(FlxSystem sys, FlxSystemEnergyFn fn, void *ctx);
/* Whether a strain energy callback is set. Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemHasStrainEnergy(FlxSystem sys, PetscBool *has);
/* Strain energy summed over the ranks (0 and has = PETSC_FALSE without a callback; has may be NULL). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeStrainEnergy(FlxSystem sys, Vec x, PetscReal *e, PetscBool *has);

/* ==== Constraints (issue 16): holonomic constraints g(t, x) = 0 with Lagrange multipliers, and a mass matrix
   M(t, x) for the problems that have one. The equation becomes M a + f_int(t, x, v) + G^T lambda = f_ext(t),
   g(t, x) = 0, G = dg/dx. G is a distributed sparse matrix, m x n, its rows owned on the rank where the constraint
   lives; the multipliers have G's row layout. The stepper sees only these calls, never what makes the
   constraints (joints, rigid links, a pendulum's rod). docs/methods.md "Constrained systems". ==== */
/* g(t, x), into g (the multipliers' layout). */
typedef PetscErrorCode (*FlxSystemConstraintFn)(FlxSystem, PetscReal t, Vec x, Vec g, void *ctx);
/* G = dg/dx at (t, x), into the matrix given to FlxSystemSetConstraints (the same nonzero pattern every call). */
typedef PetscErrorCode (*FlxSystemConstraintJacobianFn)(FlxSystem, PetscReal t, Vec x, Mat G, void *ctx);
/* w = g_t(t, x): the velocity constraint is G v + g_t = 0 (rheonomic constraints only). */
typedef PetscErrorCode (*FlxSystemConstraintRateFn)(FlxSystem, PetscReal t, Vec x, Vec w, void *ctx);
/* w = G_x(v, v) + 2 G_t v + g_tt at (t, x, v): the acceleration constraint is G a + w = 0 (seed 001 eq. 4c). */
typedef PetscErrorCode (*FlxSystemConstraintCurvatureFn)(FlxSystem, PetscReal t, Vec x, Vec v, Vec w, void *ctx);
/* J += scale d(G(t, x)^T lambda)/dx (the constraint forces' tangent, for Newton), assembled with ADD_VALUES
   into a matrix of the Jacobian's pattern (FlxSystemCreateJacobianMatrix); the caller assembles J after. */
typedef PetscErrorCode (*FlxSystemConstraintHessianFn)(FlxSystem, PetscReal t, Vec x, Vec lambda, PetscReal scale, Mat J, void *ctx);
/* A name for local constraint i in messages (e.g. "joint 3 (rod length)"). */
typedef PetscErrorCode (*FlxSystemConstraintNameFn)(FlxSystem, PetscInt i, char name[], size_t len, void *ctx);
/* M(t, x) assembled into M (a non-constant mass matrix, seed 002 section 3). */
typedef PetscErrorCode (*FlxSystemMassMatrixFn)(FlxSystem, PetscReal t, Vec x, Mat M, void *ctx);

/* Holonomic constraints: G (m x n, columns laid out as the DOF vector; a reference is taken) receives dg/dx from
   jac; g evaluates the constraints. linear = PETSC_TRUE declares g affine in x (then G_x(v, v) = 0). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetConstraints(FlxSystem sys, Mat G, FlxSystemConstraintFn g, FlxSystemConstraintJacobianFn jac, PetscBool linear, void *ctx);
/* The constraints' time and second derivatives: rate (NULL: scleronomic, g_t = 0), curvature (NULL allowed only
   for linear scleronomic constraints) and hessian (NULL: the tangent of G^T lambda is left out, a modified Newton).
   Logically collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetConstraintDerivatives(FlxSystem sys, FlxSystemConstraintRateFn rate, FlxSystemConstraintCurvatureFn curvature, FlxSystemConstraintHessianFn hessian, void *ctx);
/* Names of the constraints in messages. Logically collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetConstraintNameFunction(FlxSystem sys, FlxSystemConstraintNameFn fn, void *ctx);
/* Whether the system has constraints (on any rank). Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemHasConstraints(FlxSystem sys, PetscBool *has);
/* The constraint Jacobian matrix given to FlxSystemSetConstraints (borrowed; NULL without constraints). Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemGetConstraintMatrix(FlxSystem sys, Mat *G);
/* A vector in the multipliers' layout (G's rows), zeroed. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemCreateMultiplierVector(FlxSystem sys, Vec *lambda);
/* g = g(t, x). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeConstraint(FlxSystem sys, PetscReal t, Vec x, Vec g);
/* G = dg/dx at (t, x), into G (the matrix of FlxSystemGetConstraintMatrix or a duplicate), assembled. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeConstraintJacobian(FlxSystem sys, PetscReal t, Vec x, Mat G);
/* w = g_t(t, x) (zero when scleronomic). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeConstraintRate(FlxSystem sys, PetscReal t, Vec x, Vec w);
/* w = G_x(v, v) + 2 G_t v + g_tt (zero for linear scleronomic constraints). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeConstraintCurvature(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec w);
/* J += scale d(G^T lambda)/dx, unassembled (ADD_VALUES); has = PETSC_FALSE (and J untouched) without a hessian
   callback. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemAddConstraintHessian(FlxSystem sys, PetscReal t, Vec x, Vec lambda, PetscReal scale, Mat J, PetscBool *has);
/* A name for local constraint i ("constraint 12" by default, global numbering). Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemGetConstraintName(FlxSystem sys, PetscInt i, char name[], size_t len);
/* Position-dependent mass matrix: M (n x n, the DOF layout; a reference is taken) receives M(t, x) from fn. The
   lumped mass of FlxSystemSetMass still gives the layout and the free mask. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetMassMatrixFunction(FlxSystem sys, Mat M, FlxSystemMassMatrixFn fn, void *ctx);
/* Whether a mass matrix function is set. Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemHasMassMatrixFunction(FlxSystem sys, PetscBool *has);
/* M(t, x) assembled into the system's matrix, returned borrowed (NULL without a mass matrix function). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeMassMatrix(FlxSystem sys, PetscReal t, Vec x, Mat *M);

/* Velocity (nonholonomic) constraints k(t, x, v) = 0 with multipliers psi (seed 002 section 5, eq. 11): the
   equation becomes M a + f_int + G^T lambda + Kv^T psi = f_ext, Kv = dk/dv, or with a general constraint force
   M a + f_int + fc(t, x, v, lambda, psi) = f_ext (seed 002 eq. 11: forces nonlinear in the multipliers). Kv is
   m_k x n, its rows owned where the constraint lives (psi has its row layout). The acceleration-level form is
   Kv a + Kx v + k_t = 0, Kx = dk/dx. Only generalized-alpha-SOI2 (-ts_dae_soi2) integrates them; the other
   methods refuse them. */
/* k(t, x, v), into k (psi's layout). */
typedef PetscErrorCode (*FlxSystemVelocityConstraintFn)(FlxSystem, PetscReal t, Vec x, Vec v, Vec k, void *ctx);
/* Kv = dk/dv and Kx = dk/dx at (t, x, v) into the matrices given to FlxSystemSetVelocityConstraints (Kx NULL when
   none was given; the same nonzero patterns every call). */
typedef PetscErrorCode (*FlxSystemVelocityConstraintJacobianFn)(FlxSystem, PetscReal t, Vec x, Vec v, Mat Kv, Mat Kx, void *ctx);
/* w = k_t(t, x, v), the explicit time derivative (rheonomic velocity constraints). */
typedef PetscErrorCode (*FlxSystemVelocityConstraintRateFn)(FlxSystem, PetscReal t, Vec x, Vec v, Vec w, void *ctx);
/* fc(t, x, v, lambda, psi): the constraint forces (psi NULL without velocity constraints). */
typedef PetscErrorCode (*FlxSystemConstraintForceFn)(FlxSystem, PetscReal t, Vec x, Vec v, Vec lambda, Vec psi, Vec fc, void *ctx);
/* The derivatives of fc at (t, x, v, lambda, psi): Lt = (dfc/dlambda)^T (m x n, G's pattern) and Pt = (dfc/dpsi)^T
   (m_k x n, Kv's pattern; NULL without velocity constraints), and, when J is not NULL, J += dfc/dx + shiftV dfc/dv
   (ADD_VALUES into a matrix of the Jacobian's pattern, FlxSystemCreateJacobianMatrix; the caller assembles J). */
typedef PetscErrorCode (*FlxSystemConstraintForceJacobianFn)(FlxSystem, PetscReal t, Vec x, Vec v, Vec lambda, Vec psi, Mat Lt, Mat Pt, PetscReal shiftV, Mat J, void *ctx);

/* Velocity constraints: k, its Jacobians (Kv required, Kx optional: NULL when k does not depend on x; references
   are taken) and the optional rate k_t (NULL: zero). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetVelocityConstraints(FlxSystem sys, Mat Kv, Mat Kx, FlxSystemVelocityConstraintFn k, FlxSystemVelocityConstraintJacobianFn jac, FlxSystemVelocityConstraintRateFn rate, void *ctx);
/* Whether the system has velocity constraints (on any rank). Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemHasVelocityConstraints(FlxSystem sys, PetscBool *has);
/* The matrices given to FlxSystemSetVelocityConstraints (borrowed; NULL without). Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemGetVelocityConstraintMatrices(FlxSystem sys, Mat *Kv, Mat *Kx);
/* A vector in psi's layout (Kv's rows), zeroed. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemCreateVelocityMultiplierVector(FlxSystem sys, Vec *psi);
/* k = k(t, x, v). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeVelocityConstraint(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec k);
/* Kv, Kx at (t, x, v) into matrices of their patterns (Kx may be NULL: not computed; zero when the system has
   none), assembled. Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeVelocityConstraintJacobian(FlxSystem sys, PetscReal t, Vec x, Vec v, Mat Kv, Mat Kx);
/* w = Kx v + k_t, the acceleration-level remainder (Kv a + w = 0). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeVelocityConstraintRemainder(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec w);
/* A general constraint force and its derivatives (replacing G^T lambda + Kv^T psi). Logically collective. */
PETSC_EXTERN PetscErrorCode FlxSystemSetConstraintForce(FlxSystem sys, FlxSystemConstraintForceFn fc, FlxSystemConstraintForceJacobianFn jac, void *ctx);
/* Whether a general constraint force is set. Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemHasConstraintForce(FlxSystem sys, PetscBool *has);
/* fc(t, x, v, lambda, psi) from the general force, or G^T lambda + Kv^T psi with G, Kv evaluated by the caller (given:
   they are used only without a general force; Kv and psi NULL without velocity constraints). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeConstraintForce(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec lambda, Vec psi, Mat G, Mat Kv, Vec fc);
/* The derivatives of the constraint force: Lt, Pt (copies of G, Kv without a general force) and J += dfc/dx + shiftV
   dfc/dv (J NULL: skipped; without a general force the hessian callback's d(G^T lambda)/dx, if any). Collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeConstraintForceJacobian(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec lambda, Vec psi, Mat G, Mat Kv, Mat Lt, Mat Pt, PetscReal shiftV, Mat J);
/* ==== end of constraints (issue 16) ==== */
/* ==== Nodal rotary inertia tensors (issue 14; docs/nonlinear.md "Rotary inertia") ===========================
   A system with finite rotations may give some nodes a full rotary inertia J0 (3 x 3, symmetric, positive definite
   together with the rest of the node's rotary inertia), stated in the node's material frame, i.e. its initial
   frame (every node's initial frame is the identity): it turns with the node, J = R J0 R^T, R = exp(skew(psi)) from
   the rotation vector in x. The rotational equations of such a node are Euler's in spatial form,

       J (omega' + a_M omega) + omega x J omega = m,

   instead of the lumped m_i a_i = f_i: configuration-dependent 3 x 3 blocks and a gyroscopic force. The lumped
   mass vector keeps, on those three DOFs, the smallest principal value of J0 (a lower bound of the inertia, so
   the stability estimates that use it stay on the safe side); steppers that honour the tensors (all of flexure's)
   replace its use there by the functions below. A node's three rotational DOFs must all be free. */
/* Set the n local nodes with tensors: dof[k] the local index of node k's first rotational DOF (its x rotation), J0
   nine numbers per node (row-major, symmetrized). Copied. Collective (whether any rank has one is reduced). */
PETSC_EXTERN PetscErrorCode FlxSystemSetInertiaTensors(FlxSystem sys, PetscInt n, const PetscInt dof[], const PetscReal J0[]);
/* The local tensor nodes (n, dof; either may be NULL) and whether any rank has one (has may be NULL). Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemGetInertiaTensors(FlxSystem sys, PetscInt *n, const PetscInt *dof[], PetscBool *has);
/* The spatial tensors J = R J0 R^T at the configuration x, nine numbers per local tensor node into Js. Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeInertiaTensors(FlxSystem sys, Vec x, PetscReal Js[]);
/* On the tensor nodes' rotational DOFs only, f = J (a + a_M v) + v x J v (the inertial force with mass-proportional
   damping); other entries of f untouched. Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeInertiaForce(FlxSystem sys, Vec x, Vec v, Vec a, Vec f);
/* On the tensor nodes' rotational DOFs only, solve J (a + a_M v) + v x J v = r with v = w + c a (c >= 0: the
   conditionally explicit steps' velocity, or c = 0 and w = v) for a, by Newton on each node's three equations to
   round-off; other entries of a untouched. Collective when some rank has tensor nodes: a node that cannot be solved
   stops every rank with its message. */
PETSC_EXTERN PetscErrorCode FlxSystemSolveInertia(FlxSystem sys, Vec x, Vec w, PetscReal c, Vec r, Vec a);
/* Local sum over the tensor nodes of u_rot^T (J - diag(m)) w_rot, m the lumped mass vector there: what turns the
   lumped quadratic form u^T M w into the true one (kinetic energy 1/2 v^T M v + 1/2 this with u = w = v). Not
   collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeInertiaCorrection(FlxSystem sys, Vec x, Vec u, Vec w, PetscReal *local);
/* Tangent blocks of the inertial force g = J b + v x J v (b = a + a_M v) at each local tensor node, 27 numbers per
   node (row-major 3 x 3 each): J; dg/dtheta at fixed v and b (theta the spatial rotation increment of the node:
   J -> J + skew(dtheta) J - J skew(dtheta)); dg/dv of the gyroscopic part, skew(v) J - skew(J v). Not collective. */
PETSC_EXTERN PetscErrorCode FlxSystemComputeInertiaTangent(FlxSystem sys, Vec x, Vec v, Vec b, PetscReal blocks[]);
/* ==== end of nodal rotary inertia tensors ===================================================================== */
