/* The paper's simple pendulum (seed paper 000, section 3; time-integration.md "The paper's reproducible
   numbers") integrated by flexure's own steppers through the second-order system interface.
   A point mass of 1 kg on a massless rod of 1 m, theta measured from the horizontal, released from rest
   at theta = 0: theta'' = -(g / L) cos(theta). Energy per unit mass E = 1/2 L^2 theta'^2 + g L sin(theta).
   Prints max_energy_error = max_n |E(x_n, v_n) - E(t_0)| as its last line.
   Usage: flexure-pendulum -ts_gcd_preset gcd4_a3/4 -ts_dt 1e-3 [-ts_max_time 10] */
#include "../common/ode.h"

static const char help[] = "The paper's simple pendulum integrated by a flexure stepper.\n";

typedef struct {
  PetscReal g, L;
} Pendulum;

/* f_int(theta) = (g / L) cos(theta), with unit mass: theta'' + f_int = 0 */
static PetscErrorCode InternalForce(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  Pendulum          *p = (Pendulum *)ctx;
  const PetscScalar *xa;
  PetscScalar       *fa;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayWrite(f, &fa));
  fa[0] = p->g / p->L * PetscCosReal(xa[0]);
  PetscCall(VecRestoreArrayWrite(f, &fa));
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscFunctionReturn(0);
}

static PetscReal Energy(const PetscScalar x[], const PetscScalar v[], void *ctx)
{
  const Pendulum *p = (const Pendulum *)ctx;
  return 0.5 * p->L * p->L * v[0] * v[0] + p->g * p->L * PetscSinReal(x[0]);
}

static PetscErrorCode Run(void)
{
  Pendulum      p    = {9.81, 1.0};
  PetscReal     zero = 0;
  FlxExampleODE ode  = {1, &zero, &zero, InternalForce, PETSC_FALSE, Energy, &p, NULL, PETSC_FALSE, NULL};

  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "Pendulum", "");
  PetscCall(PetscOptionsReal("-pendulum_g", "Gravity (m/s^2)", "", p.g, &p.g, NULL));
  PetscCall(PetscOptionsReal("-pendulum_length", "Rod length (m)", "", p.L, &p.L, NULL));
  PetscCall(PetscOptionsBool("-pendulum_view", "Print the stepper", "", ode.view, &ode.view, NULL));
  PetscOptionsEnd();
  PetscCall(FlxExampleRunODE(&ode));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  return FlxExampleMain(argc, argv, help, "flexure-pendulum", Run);
}
