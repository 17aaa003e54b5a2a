/* The paper's spinning top (seed paper 000, section 6): a symmetric top on a fixed point, in ZXZ Euler
   angles q = (phi, theta, psi), integrated by flexure's GCD stepper through the second-order system
   interface. The gyroscopic forces make f_int depend on the velocity, so each step is conditionally
   explicit (fixed-point iteration, convergence measured on x_{n+1}).
   Data of the paper: I_xx = I_yy = 5e-5 kg m^2, I_zz = 2e-4 kg m^2 about the fixed point, m = 0.02 kg,
   l = 0.05 m, g = 9.81 m/s^2, spin 4 pi rad/s about the axis, theta = pi/6, 10 s.
   Lagrangian L = I1/2 (theta'^2 + phi'^2 sin^2 theta) + I3/2 (psi' + phi' cos theta)^2 - m g l cos theta,
   so M(theta) q'' = b(q, q') with M = [[I1 s^2 + I3 c^2, 0, I3 c], [0, I1, 0], [I3 c, 0, I3]] and
   b = -(dM/dtheta q') theta' + e_theta (q'.dM/dtheta q' / 2 + m g l sin theta). As a system with unit
   mass: f_int(q, q') = -M^-1 b. Energy E = q'.M q' / 2 + m g l cos theta.
   Prints max_energy_error = max_n |E(x_n, v_n) - E(t_0)| as its last line. With -top_angles FILE the Euler
   angles are written every -top_angles_interval steps as lines "t phi theta psi" (the reference of the
   finite-element top, tests/check_top_fe.py). */
#include "../common/ode.h"

static const char help[] = "The paper's spinning top integrated by a flexure stepper (conditionally explicit).\n";

typedef struct {
  PetscReal I1, I3, mgl;
  FILE     *angles; /* -top_angles: history of the Euler angles (NULL: none) */
  PetscInt  interval, count;
} Top;

/* Write t, phi, theta, psi every p->interval steps. */
static PetscErrorCode WriteAngles(PetscReal t, const PetscScalar q[], const PetscScalar w[], void *ctx)
{
  Top *p = (Top *)ctx;

  PetscFunctionBegin;
  (void)w;
  if (p->angles && p->count++ % p->interval == 0) PetscCall(PetscFPrintf(PETSC_COMM_SELF, p->angles, "%.17g %.17g %.17g %.17g\n", (double)t, (double)q[0], (double)q[1], (double)q[2]));
  PetscFunctionReturn(0);
}

static void MassMatrix(const Top *p, PetscReal th, PetscReal M[9], PetscReal dM[9])
{
  PetscReal s = PetscSinReal(th), c = PetscCosReal(th);
  M[0] = p->I1 * s * s + p->I3 * c * c, M[1] = 0, M[2] = p->I3 * c;
  M[3] = 0, M[4] = p->I1, M[5] = 0;
  M[6] = p->I3 * c, M[7] = 0, M[8] = p->I3;
  dM[0] = 2 * (p->I1 - p->I3) * s * c, dM[1] = 0, dM[2] = -p->I3 * s;
  dM[3] = 0, dM[4] = 0, dM[5] = 0;
  dM[6] = -p->I3 * s, dM[7] = 0, dM[8] = 0;
}

static PetscErrorCode InternalForce(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  Top               *p = (Top *)ctx;
  const PetscScalar *q, *w;
  PetscScalar       *fa;
  PetscReal          M[9], dM[9], b[3], dMw[3], quad = 0, det, Mi[9];

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetArrayRead(v, &w));
  PetscCall(VecGetArrayWrite(f, &fa));
  MassMatrix(p, q[1], M, dM);
  for (int i = 0; i < 3; i++) {
    dMw[i] = dM[3 * i] * w[0] + dM[3 * i + 1] * w[1] + dM[3 * i + 2] * w[2];
    quad += w[i] * dMw[i];
  }
  for (int i = 0; i < 3; i++)
    b[i] = -dMw[i] * w[1];
  b[1] += 0.5 * quad + p->mgl * PetscSinReal(q[1]);
  /* M^-1 by cofactors (3 x 3) */
  det   = M[0] * (M[4] * M[8] - M[5] * M[7]) - M[1] * (M[3] * M[8] - M[5] * M[6]) + M[2] * (M[3] * M[7] - M[4] * M[6]);
  Mi[0] = (M[4] * M[8] - M[5] * M[7]) / det, Mi[1] = (M[2] * M[7] - M[1] * M[8]) / det, Mi[2] = (M[1] * M[5] - M[2] * M[4]) / det;
  Mi[3] = (M[5] * M[6] - M[3] * M[8]) / det, Mi[4] = (M[0] * M[8] - M[2] * M[6]) / det, Mi[5] = (M[2] * M[3] - M[0] * M[5]) / det;
  Mi[6] = (M[3] * M[7] - M[4] * M[6]) / det, Mi[7] = (M[1] * M[6] - M[0] * M[7]) / det, Mi[8] = (M[0] * M[4] - M[1] * M[3]) / det;
  for (int i = 0; i < 3; i++)
    fa[i] = -(Mi[3 * i] * b[0] + Mi[3 * i + 1] * b[1] + Mi[3 * i + 2] * b[2]);
  PetscCall(VecRestoreArrayWrite(f, &fa));
  PetscCall(VecRestoreArrayRead(v, &w));
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscFunctionReturn(0);
}

/* E = I1/2 (theta'^2 + phi'^2 sin^2 theta) + I3/2 (psi' + phi' cos theta)^2 + m g l cos theta */
static PetscReal Energy(const PetscScalar q[], const PetscScalar w[], void *ctx)
{
  const Top *p = (const Top *)ctx;
  PetscReal  s = PetscSinReal(q[1]), c = PetscCosReal(q[1]), w3 = w[2] + w[0] * c;
  return 0.5 * p->I1 * (w[1] * w[1] + w[0] * w[0] * s * s) + 0.5 * p->I3 * w3 * w3 + p->mgl * c;
}

static PetscErrorCode Run(void)
{
  Top             p     = {5e-5, 2e-4, 2e-2 * 9.81 * 0.05, NULL, 1, 0};
  const PetscReal x0[3] = {0, PETSC_PI / 6, 0}, v0[3] = {0, 0, 4 * PETSC_PI};
  FlxExampleODE   ode                      = {3, x0, v0, InternalForce, PETSC_TRUE, Energy, &p, "5:1.62,1.03522,1.0291293,1.016", PETSC_FALSE, WriteAngles};
  char            file[PETSC_MAX_PATH_LEN] = "";
  PetscBool       set;
  PetscErrorCode  ierr;

  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "Spinning top", "");
  PetscCall(PetscOptionsBool("-top_view", "Print the stepper", "", ode.view, &ode.view, NULL));
  PetscCall(PetscOptionsString("-top_angles", "Write the Euler angles (t phi theta psi per line) to this file", "", file, file, sizeof(file), &set));
  PetscCall(PetscOptionsInt("-top_angles_interval", "Write the angles every this many steps", "", p.interval, &p.interval, NULL));
  PetscOptionsEnd();
  PetscCheck(p.interval > 0, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "-top_angles_interval must be positive");
  if (set) PetscCall(PetscFOpen(PETSC_COMM_SELF, file, "w", &p.angles));
  ierr = FlxExampleRunODE(&ode);
  if (p.angles) PetscCall(PetscFClose(PETSC_COMM_SELF, p.angles));
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  return FlxExampleMain(argc, argv, help, "flexure-spinning-top", Run);
}
