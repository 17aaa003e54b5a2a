/* Shared driver of the small constrained examples (the pendulum as a DAE, ...): a system with holonomic
   constraints integrated by a flexure stepper, with the energy error max_n |E(x_n, v_n) - E(t_0)| and the
   constraint drift max_n |g(t_n, x_n)|_inf measured by the driver itself. One rank. */
#pragma once
#include "ode.h"

typedef struct {
  PetscInt                       n, m;           /* coordinates, constraints */
  const PetscReal               *x0, *v0, *mass; /* initial state, lumped mass (0 where a constraint alone holds a coordinate) */
  FlxSystemInternalFn            fint;           /* f_int(t, x, v) (NULL: none) */
  FlxSystemJacobianFn            fjac;           /* its tangent df/dx + shiftV df/dv (NULL: central differences, for the implicit steppers) */
  FlxSystemExternalFn            fext;           /* f_ext(t) (NULL: none) */
  PetscBool                      vdep;           /* f_int depends on v */
  PetscReal                      damprate;       /* dampers among them: bound of lambda_max(M^-1 sym(df_int/dv)) (1/s; FlxSystemSetDampingRate), 0 none */
  FlxSystemConstraintFn          g;
  FlxSystemConstraintJacobianFn  jac;  /* into a dense-pattern m x n matrix */
  FlxSystemConstraintRateFn      rate; /* NULL: scleronomic */
  FlxSystemConstraintCurvatureFn curv;
  FlxSystemConstraintHessianFn   hess;
  FlxSystemConstraintNameFn      name;   /* NULL: "constraint i" */
  FlxSystemMassMatrixFn          massfn; /* NULL: the lumped mass */
  FlxExampleEnergyFn             energy; /* NULL: none (max_energy_error 0) */
  /* velocity constraints (mk of them) and a general constraint force (seed 002; generalized-alpha-SOI2 only) */
  PetscInt                              mk;
  FlxSystemVelocityConstraintFn         k;
  FlxSystemVelocityConstraintJacobianFn kjac; /* Kv, Kx into dense-pattern mk x n matrices */
  FlxSystemConstraintForceFn            fc;   /* NULL: G^T lambda + Kv^T psi */
  FlxSystemConstraintForceJacobianFn    fcjac;
  const PetscReal                      *lambda0, *psi0; /* guesses of the initial multipliers (NULL: zero) */
  void                                 *ctx;
  const char                           *preset_params; /* default gcd degree and parameters "D:a,b,..." (NULL: gcd3) */
  PetscReal                             tmax;          /* default -ts_max_time */
  PetscBool                             view;          /* print the stepper */
  PetscInt                              nout;          /* coordinates printed in final_q and final_v (the first ones; 0: all) */
} FlxExampleDAE;

/* Integrate to -ts_max_time; print the energy error's time, the largest velocity-level violation
   |G v + g_t|_inf (with velocity constraints also max |k|_inf as max_k_violation), the multipliers at the end
   (final_psi too), the last step (last_dt), and then as the last four lines
   max_energy_error = E, max_drift = D (max_n |g(t_n, x_n)|_inf), final_q = x_1,...,x_nout and final_v = ...
   (%.17g). xfinal, vfinal (may be NULL) receive the final state. Unused options are rejected; with -help the
   options are printed and nothing runs (help = PETSC_TRUE then). Not collective (1 rank). */
PetscErrorCode FlxExampleRunDAE(const FlxExampleDAE *dae, PetscReal xfinal[], PetscReal vfinal[], PetscBool *help);
