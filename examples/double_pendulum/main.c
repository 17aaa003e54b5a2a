/* The double pendulum with stiff rotational spring-dampers of seed paper 001 section 6.2 (issue 16): two slender
   rods (masses m1 = 3, m2 = 0.3, half-lengths L1 = 1, L2 = 1.5, centroidal inertias m L^2 / 3) in the vertical plane,
   each described by its centre (x_i, y_i) and angle theta_i, joined to the ground and to each other by revolute
   joints (four constraints, eq. 52g) and by rotational spring-damper-actuators (k1 = 400, k2 = 3e5, c1 = 15, c2 = 5e4;
   zero-tension angles 3 pi/2 and 0), g = 9.81. Initial state of the paper: body 1 at rest at theta1 = 0, body 2 at
   theta2 = 23 pi/12 turning at 10 rad/s (its centre's position and velocity follow from the joints; the paper prints
   them rounded to 7 digits). T = 2 s.
   Prints the common constrained-example lines; final_q is (x1, y1, theta1, x2, y2, theta2).
   Usage: flexure-double-pendulum -ts_type newmark -ts_newmark_gamma 0.75 -ts_newmark_beta 0.390625 -ts_dt 1e-3 */
#include "../common/dae.h"

static const char help[] = "The double pendulum with stiff spring-dampers of seed paper 001 (section 6.2).\n";

typedef struct {
  PetscReal m1, m2, L1, L2, k1, k2, c1, c2, g;
} DoublePendulum;

static PetscErrorCode External(FlxSystem sys, PetscReal t, Vec f, void *ctx)
{
  DoublePendulum *p = (DoublePendulum *)ctx;
  PetscScalar    *a;

  PetscFunctionBegin;
  PetscCall(VecGetArrayWrite(f, &a));
  for (int i = 0; i < 6; i++)
    a[i] = 0;
  a[1] = -p->m1 * p->g;
  a[4] = -p->m2 * p->g;
  PetscCall(VecRestoreArrayWrite(f, &a));
  PetscFunctionReturn(0);
}

/* f_int = -(0, 0, Q1, 0, 0, Q2): the spring-damper moments of eq. (52) */
static PetscErrorCode Internal(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  DoublePendulum    *p = (DoublePendulum *)ctx;
  const PetscScalar *q, *w;
  PetscScalar       *r;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetArrayRead(v, &w));
  PetscCall(VecGetArrayWrite(f, &r));
  for (int i = 0; i < 6; i++)
    r[i] = 0;
  r[2] = -(1.5 * PETSC_PI * p->k1 - (p->k1 + p->k2) * q[2] - (p->c1 + p->c2) * w[2] + p->k2 * q[5] + p->c2 * w[5]);
  r[5] = -(p->k2 * (q[2] - q[5]) + p->c2 * (w[2] - w[5]));
  PetscCall(VecRestoreArrayWrite(f, &r));
  PetscCall(VecRestoreArrayRead(v, &w));
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscFunctionReturn(0);
}

/* eq. (52g): x1 - L1 cos th1, y1 - L1 sin th1, x1 + L1 cos th1 + L2 cos th2 - x2, y1 + L1 sin th1 + L2 sin th2 - y2 */
static PetscErrorCode Constraint(FlxSystem sys, PetscReal t, Vec x, Vec g, void *ctx)
{
  DoublePendulum    *p = (DoublePendulum *)ctx;
  const PetscScalar *q;
  PetscScalar       *r;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetArrayWrite(g, &r));
  r[0] = q[0] - p->L1 * PetscCosReal(q[2]);
  r[1] = q[1] - p->L1 * PetscSinReal(q[2]);
  r[2] = q[0] + p->L1 * PetscCosReal(q[2]) + p->L2 * PetscCosReal(q[5]) - q[3];
  r[3] = q[1] + p->L1 * PetscSinReal(q[2]) + p->L2 * PetscSinReal(q[5]) - q[4];
  PetscCall(VecRestoreArrayWrite(g, &r));
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscFunctionReturn(0);
}

static PetscErrorCode Jacobian(FlxSystem sys, PetscReal t, Vec x, Mat G, void *ctx)
{
  DoublePendulum    *p = (DoublePendulum *)ctx;
  const PetscScalar *q;
  PetscReal          s1, c1, s2, c2, gp[24] = {0};
  PetscInt           rows[4] = {0, 1, 2, 3}, cols[6] = {0, 1, 2, 3, 4, 5};

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &q));
  s1 = p->L1 * PetscSinReal(q[2]), c1 = p->L1 * PetscCosReal(q[2]), s2 = p->L2 * PetscSinReal(q[5]), c2 = p->L2 * PetscCosReal(q[5]);
  PetscCall(VecRestoreArrayRead(x, &q));
  gp[0] = 1, gp[2] = s1;                               /* row 0 */
  gp[7] = 1, gp[8] = -c1;                              /* row 1 */
  gp[12] = 1, gp[14] = -s1, gp[15] = -1, gp[17] = -s2; /* row 2 */
  gp[19] = 1, gp[20] = c1, gp[22] = -1, gp[23] = c2;   /* row 3 */
  PetscCall(MatSetValues(G, 4, rows, 6, cols, gp, INSERT_VALUES));
  PetscFunctionReturn(0);
}

/* G_x(v, v) */
static PetscErrorCode Curvature(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec w, void *ctx)
{
  DoublePendulum    *p = (DoublePendulum *)ctx;
  const PetscScalar *q, *u;
  PetscScalar       *r;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetArrayRead(v, &u));
  PetscCall(VecGetArrayWrite(w, &r));
  {
    const PetscReal a1 = u[2] * u[2], a2 = u[5] * u[5];
    r[0] = p->L1 * PetscCosReal(q[2]) * a1;
    r[1] = p->L1 * PetscSinReal(q[2]) * a1;
    r[2] = -p->L1 * PetscCosReal(q[2]) * a1 - p->L2 * PetscCosReal(q[5]) * a2;
    r[3] = -p->L1 * PetscSinReal(q[2]) * a1 - p->L2 * PetscSinReal(q[5]) * a2;
  }
  PetscCall(VecRestoreArrayWrite(w, &r));
  PetscCall(VecRestoreArrayRead(v, &u));
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscFunctionReturn(0);
}

/* J += s d(G^T lambda)/dq: only the angles' rows and columns */
static PetscErrorCode Hessian(FlxSystem sys, PetscReal t, Vec x, Vec lambda, PetscReal s, Mat J, void *ctx)
{
  DoublePendulum    *p = (DoublePendulum *)ctx;
  const PetscScalar *q, *l;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetArrayRead(lambda, &l));
  {
    const PetscReal c1 = p->L1 * PetscCosReal(q[2]), s1 = p->L1 * PetscSinReal(q[2]), c2 = p->L2 * PetscCosReal(q[5]), s2 = p->L2 * PetscSinReal(q[5]);
    PetscCall(MatSetValue(J, 2, 2, s * (c1 * (l[0] - l[2]) + s1 * (l[1] - l[3])), ADD_VALUES));
    PetscCall(MatSetValue(J, 5, 5, s * (-c2 * l[2] - s2 * l[3]), ADD_VALUES));
  }
  PetscCall(VecRestoreArrayRead(lambda, &l));
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscFunctionReturn(0);
}

static PetscReal Energy(const PetscScalar x[], const PetscScalar v[], void *ctx)
{
  const DoublePendulum *p    = (const DoublePendulum *)ctx;
  const PetscReal       m[6] = {p->m1, p->m1, p->m1 * p->L1 * p->L1 / 3, p->m2, p->m2, p->m2 * p->L2 * p->L2 / 3};
  PetscReal             E    = p->m1 * p->g * x[1] + p->m2 * p->g * x[4];
  for (int i = 0; i < 6; i++)
    E += 0.5 * m[i] * v[i] * v[i];
  /* the springs' energy; the dampers take energy out, so E is not conserved (a measure of the dissipation) */
  E += 0.5 * p->k1 * PetscSqr(x[2] - 1.5 * PETSC_PI) + 0.5 * p->k2 * PetscSqr(x[2] - x[5]);
  return E;
}

static PetscErrorCode Run(void)
{
  DoublePendulum  p = {3, 0.3, 1, 1.5, 400, 3e5, 15, 5e4, 9.81};
  PetscReal       x0[6], v0[6], mass[6];
  const PetscReal th2 = 23 * PETSC_PI / 12, w2 = 10;
  FlxExampleDAE   dae;
  PetscBool       view = PETSC_FALSE, help;

  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "Double pendulum", "");
  PetscCall(PetscOptionsBool("-double_pendulum_view", "Print the stepper", "", view, &view, NULL));
  PetscOptionsEnd();
  x0[0] = p.L1, x0[1] = 0, x0[2] = 0;
  x0[3] = 2 * p.L1 + p.L2 * PetscCosReal(th2), x0[4] = p.L2 * PetscSinReal(th2), x0[5] = th2;
  v0[0] = v0[1] = v0[2] = 0;
  v0[3] = -p.L2 * PetscSinReal(th2) * w2, v0[4] = p.L2 * PetscCosReal(th2) * w2, v0[5] = w2;
  mass[0] = mass[1] = p.m1, mass[2] = p.m1 * p.L1 * p.L1 / 3;
  mass[3] = mass[4] = p.m2, mass[5] = p.m2 * p.L2 * p.L2 / 3;
  PetscCall(PetscMemzero(&dae, sizeof(dae)));
  dae.n = 6, dae.m = 4, dae.tmax = 2;
  dae.x0 = x0, dae.v0 = v0, dae.mass = mass;
  dae.fint = Internal, dae.fext = External, dae.vdep = PETSC_TRUE;
  /* the dampers' C on (theta1, theta2) is [[c1 + c2, -c2], [-c2, c2]]: Gershgorin bound of M^-1 C */
  dae.damprate = PetscMax((p.c1 + 2 * p.c2) / mass[2], 2 * p.c2 / mass[5]);
  dae.g = Constraint, dae.jac = Jacobian, dae.curv = Curvature, dae.hess = Hessian;
  dae.energy = Energy, dae.ctx = &p, dae.view = view;
  PetscCall(FlxExampleRunDAE(&dae, NULL, NULL, &help));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  return FlxExampleMain(argc, argv, help, "flexure-double-pendulum", Run);
}
