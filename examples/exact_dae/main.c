/* Seed paper 002's nonlinear test problem with an exact solution (Jay and Negrut, eq. 15; issue 16): y in R^2,
   a mass matrix M(t, y), one position constraint, one velocity (nonholonomic) constraint, and a force nonlinear in
   the multipliers lambda and psi:

     M(t, y) = [[y1, y2 - e^-2t], [sin(y1 - e^t), y1 y2]],   M(t, y) y'' = F(t, y, y', lambda, psi),
     F1 = e^t (y1 z2 + 2 y2 z1) + e^2t y1 lambda - y1 z2 psi - 2,
     F2 = e^-t (y2 z2 / 2 - 2 y1 z1 y2 z2 + y2 lambda^2) - y1 y2 z1 psi^3 + e^3t,
     g = y1^2 y2 - 1 = 0,   k = y1 z1 z2 + 2 = 0   (z = y'),

   from y = (1, 1), z = (1, -2), lambda = psi = 1 at t = 0 (consistent; a_0 = (1, 4)). Exact solution: y1 = z1 = e^t,
   y2 = e^-2t, z2 = -2 e^-2t, lambda = e^-t, psi = e^t. In flexure's form M a + f_int + fc = f_ext: f_ext = 0,
   f_int = -(the multiplier-free part of F), fc = -(the rest), the system's general constraint force
   (FlxSystemSetConstraintForce). Only generalized-alpha-SOI2 integrates it (-ts_dae_soi2).
   Prints the common constrained-example lines (final_q = y, final_v = z, final_a = the stepper's a_{n+alpha},
   final_lambda, final_psi, last_dt).
   Usage: flexure-exact-dae -ts_type genalpha -ts_genalpha_radius 0.2 -ts_dae_soi2 -ts_dt 0.01 [-ts_alpha_dt_ratios 1,2] */
#include "../common/dae.h"

static const char help[] = "Seed paper 002's test problem (15): a mass matrix M(t, y), a velocity constraint and forces nonlinear in the multipliers, with an exact solution.\n";

/* f_int = -(e^t (y1 z2 + 2 y2 z1) - 2, e^-t (y2 z2 / 2 - 2 y1 z1 y2 z2) + e^3t) */
static PetscErrorCode Internal(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  const PetscScalar *y, *z;
  PetscScalar       *r;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &y));
  PetscCall(VecGetArrayRead(v, &z));
  PetscCall(VecGetArrayWrite(f, &r));
  r[0] = -(PetscExpReal(t) * (y[0] * z[1] + 2 * y[1] * z[0]) - 2);
  r[1] = -(PetscExpReal(-t) * (0.5 * y[1] * z[1] - 2 * y[0] * z[0] * y[1] * z[1]) + PetscExpReal(3 * t));
  PetscCall(VecRestoreArrayWrite(f, &r));
  PetscCall(VecRestoreArrayRead(v, &z));
  PetscCall(VecRestoreArrayRead(x, &y));
  PetscFunctionReturn(0);
}

/* J += df_int/dy + shiftV df_int/dz */
static PetscErrorCode InternalJacobian(FlxSystem sys, PetscReal t, Vec x, Vec v, PetscReal sv, Mat J, void *ctx)
{
  const PetscScalar *y, *z;
  PetscReal          e = PetscExpReal(t), ei = PetscExpReal(-t), j[4];
  PetscInt           idx[2] = {0, 1};

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &y));
  PetscCall(VecGetArrayRead(v, &z));
  j[0] = -e * z[1] + sv * (-2 * e * y[1]);
  j[1] = -2 * e * z[0] + sv * (-e * y[0]);
  j[2] = ei * 2 * z[0] * y[1] * z[1] + sv * (ei * 2 * y[0] * y[1] * z[1]);
  j[3] = -ei * (0.5 * z[1] - 2 * y[0] * z[0] * z[1]) + sv * (-ei * (0.5 * y[1] - 2 * y[0] * z[0] * y[1]));
  PetscCall(VecRestoreArrayRead(v, &z));
  PetscCall(VecRestoreArrayRead(x, &y));
  PetscCall(MatSetValues(J, 2, idx, 2, idx, j, ADD_VALUES));
  PetscFunctionReturn(0);
}

static PetscErrorCode Mass(FlxSystem sys, PetscReal t, Vec x, Mat M, void *ctx)
{
  const PetscScalar *y;
  PetscReal          m[4];
  PetscInt           idx[2] = {0, 1};

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &y));
  m[0] = y[0], m[1] = y[1] - PetscExpReal(-2 * t), m[2] = PetscSinReal(y[0] - PetscExpReal(t)), m[3] = y[0] * y[1];
  PetscCall(VecRestoreArrayRead(x, &y));
  PetscCall(MatSetValues(M, 2, idx, 2, idx, m, INSERT_VALUES));
  PetscFunctionReturn(0);
}

/* g = y1^2 y2 - 1 */
static PetscErrorCode Constraint(FlxSystem sys, PetscReal t, Vec x, Vec g, void *ctx)
{
  const PetscScalar *y;
  PetscScalar       *r;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &y));
  PetscCall(VecGetArrayWrite(g, &r));
  r[0] = y[0] * y[0] * y[1] - 1;
  PetscCall(VecRestoreArrayWrite(g, &r));
  PetscCall(VecRestoreArrayRead(x, &y));
  PetscFunctionReturn(0);
}

static PetscErrorCode ConstraintJacobian(FlxSystem sys, PetscReal t, Vec x, Mat G, void *ctx)
{
  const PetscScalar *y;
  PetscReal          gy[2];
  PetscInt           row = 0, cols[2] = {0, 1};

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &y));
  gy[0] = 2 * y[0] * y[1], gy[1] = y[0] * y[0];
  PetscCall(VecRestoreArrayRead(x, &y));
  PetscCall(MatSetValues(G, 1, &row, 2, cols, gy, INSERT_VALUES));
  PetscFunctionReturn(0);
}

/* g_yy(z, z) = 2 y2 z1^2 + 4 y1 z1 z2 */
static PetscErrorCode Curvature(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec w, void *ctx)
{
  const PetscScalar *y, *z;
  PetscScalar       *r;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &y));
  PetscCall(VecGetArrayRead(v, &z));
  PetscCall(VecGetArrayWrite(w, &r));
  r[0] = 2 * y[1] * z[0] * z[0] + 4 * y[0] * z[0] * z[1];
  PetscCall(VecRestoreArrayWrite(w, &r));
  PetscCall(VecRestoreArrayRead(v, &z));
  PetscCall(VecRestoreArrayRead(x, &y));
  PetscFunctionReturn(0);
}

/* k = y1 z1 z2 + 2 */
static PetscErrorCode VelocityConstraint(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec k, void *ctx)
{
  const PetscScalar *y, *z;
  PetscScalar       *r;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &y));
  PetscCall(VecGetArrayRead(v, &z));
  PetscCall(VecGetArrayWrite(k, &r));
  r[0] = y[0] * z[0] * z[1] + 2;
  PetscCall(VecRestoreArrayWrite(k, &r));
  PetscCall(VecRestoreArrayRead(v, &z));
  PetscCall(VecRestoreArrayRead(x, &y));
  PetscFunctionReturn(0);
}

/* Kv = (y1 z2, y1 z1), Kx = (z1 z2, 0) */
static PetscErrorCode VelocityConstraintJacobian(FlxSystem sys, PetscReal t, Vec x, Vec v, Mat Kv, Mat Kx, void *ctx)
{
  const PetscScalar *y, *z;
  PetscReal          kv[2], kx[2];
  PetscInt           row = 0, cols[2] = {0, 1};

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &y));
  PetscCall(VecGetArrayRead(v, &z));
  kv[0] = y[0] * z[1], kv[1] = y[0] * z[0];
  kx[0] = z[0] * z[1], kx[1] = 0;
  PetscCall(VecRestoreArrayRead(v, &z));
  PetscCall(VecRestoreArrayRead(x, &y));
  PetscCall(MatSetValues(Kv, 1, &row, 2, cols, kv, INSERT_VALUES));
  if (Kx) PetscCall(MatSetValues(Kx, 1, &row, 2, cols, kx, INSERT_VALUES));
  PetscFunctionReturn(0);
}

/* fc = -(e^2t y1 lambda - y1 z2 psi, e^-t y2 lambda^2 - y1 y2 z1 psi^3) */
static PetscErrorCode Force(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec lambda, Vec psi, Vec fc, void *ctx)
{
  const PetscScalar *y, *z, *l, *p;
  PetscScalar       *r;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &y));
  PetscCall(VecGetArrayRead(v, &z));
  PetscCall(VecGetArrayRead(lambda, &l));
  PetscCall(VecGetArrayRead(psi, &p));
  PetscCall(VecGetArrayWrite(fc, &r));
  r[0] = -(PetscExpReal(2 * t) * y[0] * l[0] - y[0] * z[1] * p[0]);
  r[1] = -(PetscExpReal(-t) * y[1] * l[0] * l[0] - y[0] * y[1] * z[0] * p[0] * p[0] * p[0]);
  PetscCall(VecRestoreArrayWrite(fc, &r));
  PetscCall(VecRestoreArrayRead(psi, &p));
  PetscCall(VecRestoreArrayRead(lambda, &l));
  PetscCall(VecRestoreArrayRead(v, &z));
  PetscCall(VecRestoreArrayRead(x, &y));
  PetscFunctionReturn(0);
}

/* Lt = (dfc/dlambda)^T, Pt = (dfc/dpsi)^T, J += dfc/dy + sv dfc/dz */
static PetscErrorCode ForceJacobian(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec lambda, Vec psi, Mat Lt, Mat Pt, PetscReal sv, Mat J, void *ctx)
{
  const PetscScalar *y, *z, *l, *p;
  PetscReal          lt[2], pt[2], j[4], e2 = PetscExpReal(2 * t), ei = PetscExpReal(-t);
  PetscInt           row = 0, idx[2] = {0, 1};

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &y));
  PetscCall(VecGetArrayRead(v, &z));
  PetscCall(VecGetArrayRead(lambda, &l));
  PetscCall(VecGetArrayRead(psi, &p));
  {
    const PetscReal p3 = p[0] * p[0] * p[0];
    lt[0] = -e2 * y[0], lt[1] = -2 * ei * y[1] * l[0];
    pt[0] = y[0] * z[1], pt[1] = 3 * y[0] * y[1] * z[0] * p[0] * p[0];
    j[0] = -e2 * l[0] + z[1] * p[0];
    j[1] = sv * y[0] * p[0];
    j[2] = y[1] * z[0] * p3 + sv * y[0] * y[1] * p3;
    j[3] = -ei * l[0] * l[0] + y[0] * z[0] * p3;
  }
  PetscCall(VecRestoreArrayRead(psi, &p));
  PetscCall(VecRestoreArrayRead(lambda, &l));
  PetscCall(VecRestoreArrayRead(v, &z));
  PetscCall(VecRestoreArrayRead(x, &y));
  PetscCall(MatSetValues(Lt, 1, &row, 2, idx, lt, INSERT_VALUES));
  if (Pt) PetscCall(MatSetValues(Pt, 1, &row, 2, idx, pt, INSERT_VALUES));
  if (J) PetscCall(MatSetValues(J, 2, idx, 2, idx, j, ADD_VALUES));
  PetscFunctionReturn(0);
}

static PetscErrorCode Run(void)
{
  const PetscReal x0[2] = {1, 1}, v0[2] = {1, -2}, mass[2] = {1, 1}, lam0[1] = {1}, psi0[1] = {1};
  FlxExampleDAE   dae;
  PetscBool       view = PETSC_FALSE, help;

  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "Seed 002's exact-solution problem (15)", "");
  PetscCall(PetscOptionsBool("-exact_dae_view", "Print the stepper", "", view, &view, NULL));
  PetscOptionsEnd();
  PetscCall(PetscMemzero(&dae, sizeof(dae)));
  dae.n = 2, dae.m = 1, dae.mk = 1, dae.tmax = 1;
  dae.x0 = x0, dae.v0 = v0, dae.mass = mass;
  dae.fint = Internal, dae.fjac = InternalJacobian, dae.vdep = PETSC_TRUE, dae.massfn = Mass;
  dae.g = Constraint, dae.jac = ConstraintJacobian, dae.curv = Curvature;
  dae.k = VelocityConstraint, dae.kjac = VelocityConstraintJacobian;
  dae.fc = Force, dae.fcjac = ForceJacobian, dae.lambda0 = lam0, dae.psi0 = psi0;
  dae.ctx = NULL, dae.view = view;
  PetscCall(FlxExampleRunDAE(&dae, NULL, NULL, &help));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  return FlxExampleMain(argc, argv, help, "flexure-exact-dae", Run);
}
