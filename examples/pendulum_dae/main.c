/* The pendulum in Cartesian coordinates as a DAE, integrated by a flexure stepper through the system's
   constraints (issue 16).
   -pendulum_case 000 (the default): seed paper 000 section 8 (eqs. 80-82, Table 11): the pendulum's centre of
   mass (x, y) and its angle theta from the downward vertical, masses (m, m, I_zz) with I_zz = 0 (the point mass
   of the paper's section 3 pendulum: m = 1 kg at L = 1 m, g = 9.81 m/s^2), held by two constraints
   x - L sin(theta) = 0, y + L cos(theta) = 0; released from rest at theta = 90 degrees (horizontal), 10 s. The
   paper's method is GCD degree 5 with every parameter 1, its default here.
   -pendulum_case 001: seed paper 001 section 6.1: a point mass (x, y), m = 1, L = 1, one constraint
   x^2 + y^2 - L^2 = 0, released from rest at q_0 = (sin(pi/3), -cos(pi/3)), g = 9.81 in -y, 4 s.
   Prints, last: max_energy_error (max_n |E(x_n, v_n) - E_0|), max_drift (max_n |g(x_n)|_inf), final_q = x,y and
   final_v = vx,vy at -ts_max_time, with full precision.
   Usage: flexure-pendulum-dae [-pendulum_case 000|001] [-ts_type gcd|newmark|hht|genalpha] -ts_dt 1e-3 */
#include "../common/dae.h"

static const char help[] = "The pendulum in Cartesian coordinates as a DAE (seed papers 000 and 001).\n";

typedef struct {
  PetscReal g, L, m, Izz;
  PetscInt  kase;      /* 0: seed 000, 1: seed 001, 2: seed 002 (a rod with a torsional spring-damper) */
  PetscReal k, c;      /* case 002: the spring and damper at the pivot */
  PetscBool redundant; /* case 000: the rod length as a third, redundant constraint (the diagnosis of bad input) */
} Pendulum;

/* gravity on the centre of mass */
static PetscErrorCode External(FlxSystem sys, PetscReal t, Vec f, void *ctx)
{
  Pendulum *p = (Pendulum *)ctx;

  PetscFunctionBegin;
  PetscCall(VecZeroEntries(f));
  PetscCall(VecSetValue(f, 1, -p->m * p->g, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(f));
  PetscCall(VecAssemblyEnd(f));
  PetscFunctionReturn(0);
}

/* case 002: the spring-damper at the pivot, c theta' + k (theta - 3 pi/2) (seed 002 eq. (16)); otherwise none */
static PetscErrorCode Internal(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  Pendulum          *p = (Pendulum *)ctx;
  const PetscScalar *q, *w;

  PetscFunctionBegin;
  PetscCall(VecZeroEntries(f));
  if (p->kase != 2) PetscFunctionReturn(0);
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetArrayRead(v, &w));
  PetscCall(VecSetValue(f, 2, p->c * w[2] + p->k * (q[2] - 1.5 * PETSC_PI), INSERT_VALUES));
  PetscCall(VecRestoreArrayRead(v, &w));
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscCall(VecAssemblyBegin(f));
  PetscCall(VecAssemblyEnd(f));
  PetscFunctionReturn(0);
}

/* 000: (x - L sin(theta), y + L cos(theta)); 001: x^2 + y^2 - L^2; 002: (x - L cos(theta), y - L sin(theta)) */
static PetscErrorCode Constraint(FlxSystem sys, PetscReal t, Vec x, Vec g, void *ctx)
{
  Pendulum          *p = (Pendulum *)ctx;
  const PetscScalar *q;
  PetscScalar       *r;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetArrayWrite(g, &r));
  if (p->kase == 0) {
    r[0] = q[0] - p->L * PetscSinReal(q[2]);
    r[1] = q[1] + p->L * PetscCosReal(q[2]);
    if (p->redundant) r[2] = q[0] * q[0] + q[1] * q[1] - p->L * p->L;
  } else if (p->kase == 2) {
    r[0] = q[0] - p->L * PetscCosReal(q[2]);
    r[1] = q[1] - p->L * PetscSinReal(q[2]);
  } else
    r[0] = q[0] * q[0] + q[1] * q[1] - p->L * p->L;
  PetscCall(VecRestoreArrayWrite(g, &r));
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscFunctionReturn(0);
}

static PetscErrorCode Jacobian(FlxSystem sys, PetscReal t, Vec x, Mat G, void *ctx)
{
  Pendulum          *p = (Pendulum *)ctx;
  const PetscScalar *q;
  const PetscInt     c3[3] = {0, 1, 2}, r0 = 0, r1 = 1;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &q));
  if (p->kase == 0) { /* eq. 85's H: [[1, 0, -L cos], [0, 1, -L sin]] */
    const PetscScalar a[3] = {1, 0, -p->L * PetscCosReal(q[2])}, b[3] = {0, 1, -p->L * PetscSinReal(q[2])};
    PetscCall(MatSetValues(G, 1, &r0, 3, c3, a, INSERT_VALUES));
    PetscCall(MatSetValues(G, 1, &r1, 3, c3, b, INSERT_VALUES));
    if (p->redundant) {
      const PetscInt    r2   = 2;
      const PetscScalar c[3] = {2 * q[0], 2 * q[1], 0};
      PetscCall(MatSetValues(G, 1, &r2, 3, c3, c, INSERT_VALUES));
    }
  } else if (p->kase == 2) { /* [[1, 0, L sin], [0, 1, -L cos]] */
    const PetscScalar a[3] = {1, 0, p->L * PetscSinReal(q[2])}, b[3] = {0, 1, -p->L * PetscCosReal(q[2])};
    PetscCall(MatSetValues(G, 1, &r0, 3, c3, a, INSERT_VALUES));
    PetscCall(MatSetValues(G, 1, &r1, 3, c3, b, INSERT_VALUES));
  } else {
    const PetscScalar a[2] = {2 * q[0], 2 * q[1]};
    PetscCall(MatSetValues(G, 1, &r0, 2, c3, a, INSERT_VALUES));
  }
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscFunctionReturn(0);
}

/* G_x(v, v): 000 (L sin(theta) theta'^2, -L cos(theta) theta'^2); 001 2 |v|^2; 002 (L cos(theta) theta'^2, L sin(theta) theta'^2) */
static PetscErrorCode Curvature(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec w, void *ctx)
{
  Pendulum          *p = (Pendulum *)ctx;
  const PetscScalar *q, *u;
  PetscScalar       *r;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetArrayRead(v, &u));
  PetscCall(VecGetArrayWrite(w, &r));
  if (p->kase == 0) {
    r[0] = p->L * PetscSinReal(q[2]) * u[2] * u[2];
    r[1] = -p->L * PetscCosReal(q[2]) * u[2] * u[2];
    if (p->redundant) r[2] = 2 * (u[0] * u[0] + u[1] * u[1]);
  } else if (p->kase == 2) {
    r[0] = p->L * PetscCosReal(q[2]) * u[2] * u[2];
    r[1] = p->L * PetscSinReal(q[2]) * u[2] * u[2];
  } else
    r[0] = 2 * (u[0] * u[0] + u[1] * u[1]);
  PetscCall(VecRestoreArrayWrite(w, &r));
  PetscCall(VecRestoreArrayRead(v, &u));
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscFunctionReturn(0);
}

/* J += s d(G^T lambda)/dx: 000 d/dtheta (-L cos lambda_1 - L sin lambda_2); 001 2 lambda I; 002 d/dtheta (L sin lambda_1 - L cos lambda_2) */
static PetscErrorCode Hessian(FlxSystem sys, PetscReal t, Vec x, Vec lambda, PetscReal s, Mat J, void *ctx)
{
  Pendulum          *p = (Pendulum *)ctx;
  const PetscScalar *q, *l;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetArrayRead(lambda, &l));
  if (p->kase == 0) {
    PetscCall(MatSetValue(J, 2, 2, s * p->L * (PetscSinReal(q[2]) * l[0] - PetscCosReal(q[2]) * l[1]), ADD_VALUES));
    if (p->redundant) {
      PetscCall(MatSetValue(J, 0, 0, 2 * s * l[2], ADD_VALUES));
      PetscCall(MatSetValue(J, 1, 1, 2 * s * l[2], ADD_VALUES));
    }
  } else if (p->kase == 2) {
    PetscCall(MatSetValue(J, 2, 2, s * p->L * (PetscCosReal(q[2]) * l[0] + PetscSinReal(q[2]) * l[1]), ADD_VALUES));
  } else {
    PetscCall(MatSetValue(J, 0, 0, 2 * s * l[0], ADD_VALUES));
    PetscCall(MatSetValue(J, 1, 1, 2 * s * l[0], ADD_VALUES));
  }
  PetscCall(VecRestoreArrayRead(lambda, &l));
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscFunctionReturn(0);
}

static PetscErrorCode Name(FlxSystem sys, PetscInt i, char name[], size_t len, void *ctx)
{
  Pendulum         *p      = (Pendulum *)ctx;
  const char *const n000[] = {"pivot x (x - L sin(theta))", "pivot y (y + L cos(theta))", "rod length (x^2 + y^2 - L^2)"};
  const char *const n002[] = {"pivot x (x - L cos(theta))", "pivot y (y - L sin(theta))"};

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(name, len, "%s", p->kase == 0 ? n000[i] : p->kase == 2 ? n002[i]
                                                                                 : n000[2]));
  PetscFunctionReturn(0);
}

static PetscReal Energy(const PetscScalar x[], const PetscScalar v[], void *ctx)
{
  const Pendulum *p = (const Pendulum *)ctx;
  return 0.5 * p->m * (v[0] * v[0] + v[1] * v[1]) + (p->kase != 1 ? 0.5 * p->Izz * v[2] * v[2] : 0) + p->m * p->g * x[1] + (p->kase == 2 ? 0.5 * p->k * PetscSqr(x[2] - 1.5 * PETSC_PI) : 0);
}

static PetscErrorCode Run(void)
{
  Pendulum      p = {9.81, 1.0, 1.0, 0.0, 0, 0, 0, PETSC_FALSE};
  PetscBool     setL, setm;
  char          kase[8] = "000";
  PetscReal     x0[3], v0[3] = {0, 0, 0}, mass[3], xin[3], vin[3];
  PetscInt      nx = 3, nv = 3;
  FlxExampleDAE dae;
  PetscBool     view = PETSC_FALSE, help, setx, setv;

  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "Pendulum as a DAE", "");
  PetscCall(PetscOptionsString("-pendulum_case", "Data of seed paper 000 (section 8: centre of mass and angle, two constraints), 001 (section 6.1: point mass, one constraint) or 002 (eq. (16): a rod on a torsional spring-damper, m 5, L 2, 2 s)", "", kase, kase, sizeof(kase), NULL));
  PetscCall(PetscOptionsReal("-pendulum_g", "Gravity (m/s^2)", "", p.g, &p.g, NULL));
  PetscCall(PetscOptionsReal("-pendulum_length", "Rod length (m; case 002: distance of the centre of mass from the pivot, default 2)", "", p.L, &p.L, &setL));
  PetscCall(PetscOptionsReal("-pendulum_mass", "Mass (kg; case 002: default 5)", "", p.m, &p.m, &setm));
  PetscCall(PetscOptionsReal("-pendulum_inertia", "Case 000: moment of inertia about the centre of mass (kg m^2; 0: the paper's point mass)", "", p.Izz, &p.Izz, NULL));
  PetscCall(PetscOptionsRealArray("-pendulum_x0", "Initial position x,y (case 000: x,y,theta) instead of the paper's", "", xin, &nx, &setx));
  PetscCall(PetscOptionsRealArray("-pendulum_v0", "Initial velocity vx,vy (case 000: vx,vy,theta') instead of rest", "", vin, &nv, &setv));
  PetscCall(PetscOptionsBool("-pendulum_redundant", "Case 000: add the rod length x^2 + y^2 = L^2 as a third constraint, redundant with the other two (shows the diagnosis of a singular saddle-point matrix)", "", p.redundant, &p.redundant, NULL));
  PetscCall(PetscOptionsBool("-pendulum_view", "Print the stepper", "", view, &view, NULL));
  PetscOptionsEnd();
  PetscCheck(!strcmp(kase, "000") || !strcmp(kase, "001") || !strcmp(kase, "002"), PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "-pendulum_case %s: give 000, 001 or 002 (the pendulums of seed papers 000, 001, 002)", kase);
  PetscCheck(p.L > 0 && p.m > 0 && p.Izz >= 0, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "-pendulum_length and -pendulum_mass must be positive, -pendulum_inertia not negative");
  p.kase = !strcmp(kase, "000") ? 0 : !strcmp(kase, "001") ? 1
                                                           : 2;
  if (p.kase == 2) { /* seed 002 eq. (16): m 5, L 2, k 3000, c 100, theta(0) = 3 pi/2, theta'(0) = 10 */
    if (!setL) p.L = 2;
    if (!setm) p.m = 5;
    p.k = 3000, p.c = 100, p.Izz = p.m * p.L * p.L / 3;
  }
  PetscCall(PetscMemzero(&dae, sizeof(dae)));
  if (p.kase == 0) { /* theta = 90 degrees: horizontal */
    const PetscReal th = PETSC_PI / 2;
    x0[0] = p.L * PetscSinReal(th), x0[1] = -p.L * PetscCosReal(th), x0[2] = th;
    mass[0] = mass[1] = p.m, mass[2] = p.Izz;
    dae.n = 3, dae.m = 2, dae.tmax = 10;
  } else if (p.kase == 2) {
    const PetscReal th = 1.5 * PETSC_PI, w = 10;
    x0[0] = p.L * PetscCosReal(th), x0[1] = p.L * PetscSinReal(th), x0[2] = th;
    v0[0] = -p.L * PetscSinReal(th) * w, v0[1] = p.L * PetscCosReal(th) * w, v0[2] = w;
    mass[0] = mass[1] = p.m, mass[2] = p.Izz;
    dae.n = 3, dae.m = 2, dae.tmax = 2, dae.vdep = PETSC_TRUE;
    dae.damprate = p.c / p.Izz; /* the damper on theta: M^-1 C = c / Izz on that DOF */
  } else {
    x0[0] = PetscSinReal(PETSC_PI / 3) * p.L, x0[1] = -PetscCosReal(PETSC_PI / 3) * p.L;
    mass[0] = mass[1] = p.m;
    dae.n = 2, dae.m = 1, dae.tmax = 4;
  }
  PetscCheck(!setx || nx == dae.n, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "-pendulum_x0: give %" PetscInt_FMT " numbers", dae.n);
  PetscCheck(!setv || nv == dae.n, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "-pendulum_v0: give %" PetscInt_FMT " numbers", dae.n);
  for (PetscInt i = 0; i < dae.n; i++) {
    if (setx) x0[i] = xin[i];
    if (setv) v0[i] = vin[i];
  }
  if (p.redundant && p.kase == 0) dae.m = 3;
  dae.x0 = x0, dae.v0 = v0, dae.mass = mass, dae.name = Name;
  dae.fint = Internal, dae.fext = External;
  dae.g = Constraint, dae.jac = Jacobian, dae.curv = Curvature, dae.hess = Hessian;
  dae.energy = Energy, dae.ctx = &p;
  dae.preset_params = "5:1,1,1,1"; /* the paper's DAE method (section 8: "all the parameters were set to 1") */
  {                                /* that set has no stable interval (rho > 1 by 1e-3 per step at Omega = 0.1): run it as the paper did, with
                                      the stepper's warning, when it is the set in force */
    PetscBool set1, set2;
    PetscCall(PetscOptionsHasName(NULL, NULL, "-ts_gcd_preset", &set1));
    PetscCall(PetscOptionsHasName(NULL, NULL, "-ts_gcd_degree", &set2));
    if (!set1 && !set2) PetscCall(FlxExampleDefaultOption("-ts_allow_unstable", "1"));
  }
  dae.view = view;
  dae.nout = 2;
  PetscCall(FlxExampleRunDAE(&dae, NULL, NULL, &help));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  return FlxExampleMain(argc, argv, help, "flexure-pendulum-dae", Run);
}
