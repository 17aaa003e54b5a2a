/* Shared driver of the ODE examples (pendulum, spinning top): a system with unit masses integrated by a
   flexure stepper, with the energy error max_n |E(x_n, v_n) - E(t_0)| the paper reports. */
#pragma once
#include <flexure/flexure.h>

typedef PetscReal (*FlxExampleEnergyFn)(const PetscScalar x[], const PetscScalar v[], void *ctx);

typedef struct {
  PetscInt            n;       /* degrees of freedom (unit masses) */
  const PetscReal    *x0, *v0; /* initial state */
  FlxSystemInternalFn fint;    /* f_int(x, v): the equation is x'' + f_int = 0 */
  PetscBool           vdep;    /* f_int depends on v: conditionally explicit steps */
  FlxExampleEnergyFn  energy;  /* E(x, v) */
  void               *ctx;
  const char         *preset_params; /* default -ts_gcd_degree/-ts_gcd_params as "D:a,b,..." (NULL: gcd3) */
  PetscBool           view;          /* print the stepper */
  /* optional: called after every step with the state (t_n, x_n, v_n), e.g. to write a history (NULL: none) */
  PetscErrorCode (*monitor)(PetscReal t, const PetscScalar x[], const PetscScalar v[], void *ctx);
} FlxExampleODE;

/* Integrate to -ts_max_time (default 10 s); print "energy error: largest at t = T s; at the end E - E_0 = D"
   and "max_energy_error = <value>" last. With -ts_type gcd (the default) the example's degree and parameters
   apply unless -ts_gcd_preset or -ts_gcd_degree is given (-ts_gcd_params alone replaces the parameters of the
   example's degree), and the start-up is the paper's (-ts_gcd_startup zero) unless given. Unused options are
   rejected; with -help the options are printed and nothing runs. Not collective (1 rank). */
PetscErrorCode FlxExampleRunODE(const FlxExampleODE *ode);
/* Set an option unless the user gave it. Not collective. */
PetscErrorCode FlxExampleDefaultOption(const char name[], const char value[]);
/* With -ts_type gcd (the default): the example's degree and parameters "D:a,b,..." (NULL: gcd3) unless
   -ts_gcd_preset or -ts_gcd_degree is given, and the paper's start-up (-ts_gcd_startup zero) unless given. */
PetscErrorCode FlxExampleDefaultGCD(const char preset_params[]);
/* main(): initialize, run, print a one-line error as "<name>: error: ..." and return 1 on failure. */
int FlxExampleMain(int argc, char **argv, const char *help, const char *name, PetscErrorCode (*run)(void));
