/* Andrews' squeezer mechanism (issue 16; seed paper 004 section 3.7.1 [Schiehlen 1990]): seven rigid bodies in
   the plane joined by revolute joints, driven by a constant torque, with a spring; no gravity. The formulation of
   Hairer and Wanner (Solving ODEs II, section VII.7, eq. (7.11)) and of the IVP test set (Mazzia and Magherini,
   problem ANDREWS): the seven angles q = (beta, Theta, gamma, Phi, delta, Omega, epsilon) of the bodies, a mass
   matrix M(q), the applied and centrifugal forces f(q, q'), and six holonomic constraints g(q) = 0 (three loops
   closed at the fixed points A, B), M(q) q'' = f(q, q') - G(q)^T lambda. Data of seed 004's Table 2 (the classical
   values d = 0.028, da = 0.0115, e = 0.02, ea = 0.01421, ...), torque 0.033 N m, spring c0 = 4530 N/m, l0 = 0.07785 m;
   consistent initial angles of the test set at rest.
   The reference solution at t = 0.03 s (test set: PSIDE with tolerances 1e-14) is in tests/check_andrews.py.
   Prints, last, `angles = beta,Theta,gamma,Phi,delta,Omega,epsilon` at -ts_max_time (0.03 s); before it the common
   constrained-example lines, max_energy_error being max |E - E_0 - T (beta - beta_0)| (kinetic and spring energy
   against the torque's work, seed 004 eq. (23)).
   Usage: flexure-andrews -ts_type hht -ts_dt 1e-6 [-ts_max_time 0.03] */
#include "../common/dae.h"

static const char help[] = "Andrews' squeezer mechanism (seven bodies, six constraints) integrated by a flexure stepper.\n";

/* the test set's data (Hairer and Wanner (7.11)) */
static const PetscReal m1 = .04325, m2 = .00365, m3 = .02373, m4 = .00706, m5 = .07050, m6 = .00706, m7 = .05498;
static const PetscReal i1 = 2.194e-6, i2 = 4.410e-7, i3 = 5.255e-6, i4 = 5.667e-7, i5 = 1.169e-5, i6 = 5.667e-7, i7 = 1.912e-5;
static const PetscReal xa = -.06934, ya = -.00227, xb = -0.03635, yb = .03273, xc = .014, yc = .072;
static const PetscReal d = 28e-3, da = 115e-4, e = 2e-2, ea = 1421e-5, rr = 7e-3, ra = 92e-5, ss = 35e-3, sa = 1874e-5, sb = 1043e-5, sc = 18e-3, sd = 2e-2;
static const PetscReal ta = 2308e-5, tb = 916e-5, u = 4e-2, ua = 1228e-5, ub = 449e-5, zf = 2e-2, zt = 4e-2, fa = 1421e-5, mom = 0.033, c0 = 4530, lo = 0.07785;

typedef struct {
  PetscReal beta0; /* the initial driving angle (the torque's work) */
} Andrews;

/* the mass matrix M(q) (symmetric) */
static void Mass7(const PetscScalar q[], PetscReal M[49])
{
  const PetscReal coth = PetscCosReal(q[1]), siph = PetscSinReal(q[3]), siom = PetscSinReal(q[5]);
  for (int k = 0; k < 49; k++)
    M[k] = 0;
  M[0] = m1 * ra * ra + m2 * (rr * rr - 2 * da * rr * coth + da * da) + i1 + i2;
  M[1] = M[7] = m2 * (da * da - da * rr * coth) + i2;
  M[8]        = m2 * da * da + i2;
  M[16]       = m3 * (sa * sa + sb * sb) + i3;
  M[24]       = m4 * (e - ea) * (e - ea) + i4;
  M[25] = M[31] = m4 * ((e - ea) * (e - ea) + zt * (e - ea) * siph) + i4;
  M[32]         = m4 * (zt * zt + 2 * zt * (e - ea) * siph + (e - ea) * (e - ea)) + m5 * (ta * ta + tb * tb) + i4 + i5;
  M[40]         = m6 * (zf - fa) * (zf - fa) + i6;
  M[41] = M[47] = m6 * ((zf - fa) * (zf - fa) - u * (zf - fa) * siom) + i6;
  M[48]         = m6 * ((zf - fa) * (zf - fa) - 2 * u * (zf - fa) * siom + u * u) + m7 * (ua * ua + ub * ub) + i6 + i7;
}

/* the spring's end D and its force factor */
static void Spring(const PetscScalar q[], PetscReal *fx, PetscReal *fy, PetscReal *len)
{
  const PetscReal xd = sd * PetscCosReal(q[2]) + sc * PetscSinReal(q[2]) + xb, yd = sd * PetscSinReal(q[2]) - sc * PetscCosReal(q[2]) + yb;
  const PetscReal l = PetscSqrtReal((xd - xc) * (xd - xc) + (yd - yc) * (yd - yc)), f = -c0 * (l - lo) / l;
  *fx  = f * (xd - xc);
  *fy  = f * (yd - yc);
  *len = l;
}

static PetscErrorCode MassMatrix(FlxSystem sys, PetscReal t, Vec x, Mat M, void *ctx)
{
  const PetscScalar *q;
  PetscReal          m[49];
  PetscInt           idx[7] = {0, 1, 2, 3, 4, 5, 6};

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &q));
  Mass7(q, m);
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscCall(MatSetValues(M, 7, idx, 7, idx, m, INSERT_VALUES));
  PetscFunctionReturn(0);
}

/* f_int = -f(q, q'): the driving torque, the spring and the centrifugal and Coriolis terms (all on the left) */
static PetscErrorCode Internal(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  const PetscScalar *q, *w;
  PetscScalar       *r;
  PetscReal          fx, fy, l;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetArrayRead(v, &w));
  PetscCall(VecGetArrayWrite(f, &r));
  Spring(q, &fx, &fy, &l);
  {
    const PetscReal sith = PetscSinReal(q[1]), siga = PetscSinReal(q[2]), coga = PetscCosReal(q[2]), coph = PetscCosReal(q[3]), coom = PetscCosReal(q[5]);
    r[0] = -(mom - m2 * da * rr * w[1] * (w[1] + 2 * w[0]) * sith);
    r[1] = -(m2 * da * rr * w[0] * w[0] * sith);
    r[2] = -(fx * (sc * coga - sd * siga) + fy * (sd * coga + sc * siga));
    r[3] = -(m4 * zt * (e - ea) * w[4] * w[4] * coph);
    r[4] = -(-m4 * zt * (e - ea) * w[3] * (w[3] + 2 * w[4]) * coph);
    r[5] = -(-m6 * u * (zf - fa) * w[6] * w[6] * coom);
    r[6] = -(m6 * u * (zf - fa) * w[5] * (w[5] + 2 * w[6]) * coom);
  }
  PetscCall(VecRestoreArrayWrite(f, &r));
  PetscCall(VecRestoreArrayRead(v, &w));
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscFunctionReturn(0);
}

/* the six loop-closure constraints (A and B fixed) */
static PetscErrorCode Constraint(FlxSystem sys, PetscReal t, Vec x, Vec g, void *ctx)
{
  const PetscScalar *q;
  PetscScalar       *r;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetArrayWrite(g, &r));
  {
    const PetscReal cb = rr * PetscCosReal(q[0]) - d * PetscCosReal(q[0] + q[1]), sbt = rr * PetscSinReal(q[0]) - d * PetscSinReal(q[0] + q[1]);
    r[0] = cb - ss * PetscSinReal(q[2]) - xb;
    r[1] = sbt + ss * PetscCosReal(q[2]) - yb;
    r[2] = cb - e * PetscSinReal(q[3] + q[4]) - zt * PetscCosReal(q[4]) - xa;
    r[3] = sbt + e * PetscCosReal(q[3] + q[4]) - zt * PetscSinReal(q[4]) - ya;
    r[4] = cb - zf * PetscCosReal(q[5] + q[6]) - u * PetscSinReal(q[6]) - xa;
    r[5] = sbt - zf * PetscSinReal(q[5] + q[6]) + u * PetscCosReal(q[6]) - ya;
  }
  PetscCall(VecRestoreArrayWrite(g, &r));
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscFunctionReturn(0);
}

/* G = dg/dq (every entry of the dense 6 x 7 pattern set) */
static PetscErrorCode Jacobian(FlxSystem sys, PetscReal t, Vec x, Mat G, void *ctx)
{
  const PetscScalar *q;
  PetscReal          gp[42];
  PetscInt           rows[6] = {0, 1, 2, 3, 4, 5}, cols[7] = {0, 1, 2, 3, 4, 5, 6};

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &q));
  {
    const PetscReal sbt = d * PetscSinReal(q[0] + q[1]), cbt = d * PetscCosReal(q[0] + q[1]), a0 = -rr * PetscSinReal(q[0]) + sbt, b0 = rr * PetscCosReal(q[0]) - cbt;
    const PetscReal cpd = e * PetscCosReal(q[3] + q[4]), spd = e * PetscSinReal(q[3] + q[4]), soe = zf * PetscSinReal(q[5] + q[6]), coe = zf * PetscCosReal(q[5] + q[6]);
    for (int k = 0; k < 42; k++)
      gp[k] = 0;
    for (int r = 0; r < 6; r += 2) { /* the common part: the crank O-F and the bar E-F */
      gp[7 * r]           = a0;
      gp[7 * r + 1]       = sbt;
      gp[7 * (r + 1)]     = b0;
      gp[7 * (r + 1) + 1] = -cbt;
    }
    gp[2]  = -ss * PetscCosReal(q[2]);
    gp[9]  = -ss * PetscSinReal(q[2]);
    gp[17] = -cpd;
    gp[18] = -cpd + zt * PetscSinReal(q[4]);
    gp[24] = -spd;
    gp[25] = -spd - zt * PetscCosReal(q[4]);
    gp[33] = soe;
    gp[34] = soe - u * PetscCosReal(q[6]);
    gp[40] = -coe;
    gp[41] = -coe - u * PetscSinReal(q[6]);
  }
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscCall(MatSetValues(G, 6, rows, 7, cols, gp, INSERT_VALUES));
  PetscFunctionReturn(0);
}

/* G_x(v, v): each trigonometric term of g times minus its angle's rate squared */
static PetscErrorCode Curvature(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec w, void *ctx)
{
  const PetscScalar *q, *p;
  PetscScalar       *r;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &q));
  PetscCall(VecGetArrayRead(v, &p));
  PetscCall(VecGetArrayWrite(w, &r));
  {
    const PetscReal b2 = p[0] * p[0], bt2 = (p[0] + p[1]) * (p[0] + p[1]), g2 = p[2] * p[2], pd2 = (p[3] + p[4]) * (p[3] + p[4]), d2 = p[4] * p[4], oe2 = (p[5] + p[6]) * (p[5] + p[6]), e2 = p[6] * p[6];
    const PetscReal cb = -rr * PetscCosReal(q[0]) * b2 + d * PetscCosReal(q[0] + q[1]) * bt2, sbt = -rr * PetscSinReal(q[0]) * b2 + d * PetscSinReal(q[0] + q[1]) * bt2;
    r[0] = cb + ss * PetscSinReal(q[2]) * g2;
    r[1] = sbt - ss * PetscCosReal(q[2]) * g2;
    r[2] = cb + e * PetscSinReal(q[3] + q[4]) * pd2 + zt * PetscCosReal(q[4]) * d2;
    r[3] = sbt - e * PetscCosReal(q[3] + q[4]) * pd2 + zt * PetscSinReal(q[4]) * d2;
    r[4] = cb + zf * PetscCosReal(q[5] + q[6]) * oe2 + u * PetscSinReal(q[6]) * e2;
    r[5] = sbt + zf * PetscSinReal(q[5] + q[6]) * oe2 - u * PetscCosReal(q[6]) * e2;
  }
  PetscCall(VecRestoreArrayWrite(w, &r));
  PetscCall(VecRestoreArrayRead(v, &p));
  PetscCall(VecRestoreArrayRead(x, &q));
  PetscFunctionReturn(0);
}

static PetscErrorCode Name(FlxSystem sys, PetscInt i, char name[], size_t len, void *ctx)
{
  const char *const n[] = {"B closed (x)", "B closed (y)", "A closed through H-E (x)", "A closed through H-E (y)", "A closed through G-E (x)", "A closed through G-E (y)"};

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(name, len, "%s", n[i]));
  PetscFunctionReturn(0);
}

/* kinetic and spring energy minus the torque's work (seed 004 eq. (23)) */
static PetscReal Energy(const PetscScalar x[], const PetscScalar v[], void *ctx)
{
  const Andrews *a = (const Andrews *)ctx;
  PetscReal      M[49], k = 0, fx, fy, l;

  Mass7(x, M);
  for (int i = 0; i < 7; i++)
    for (int j = 0; j < 7; j++)
      k += 0.5 * PetscRealPart(v[i]) * M[7 * i + j] * PetscRealPart(v[j]);
  Spring(x, &fx, &fy, &l);
  return k + 0.5 * c0 * (l - lo) * (l - lo) - mom * (PetscRealPart(x[0]) - a->beta0);
}

static PetscErrorCode Run(void)
{
  const PetscReal q0[7] = {-0.0617138900142764496358948458001, 0, 0.455279819163070380255912382449, 0.222668390165885884674473185609, 0.487364979543842550225598953530, -0.222668390165885884674473185609, 1.23054744454982119249735015568};
  PetscReal       v0[7] = {0, 0, 0, 0, 0, 0, 0}, mass[7], qf[7], M[49];
  Andrews         a     = {q0[0]};
  FlxExampleDAE   dae;
  PetscBool       view = PETSC_FALSE, help;

  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_SELF, NULL, "Andrews' squeezer", "");
  PetscCall(PetscOptionsBool("-andrews_view", "Print the stepper", "", view, &view, NULL));
  PetscOptionsEnd();
  Mass7(q0, M);
  for (int i = 0; i < 7; i++)
    mass[i] = M[8 * i]; /* the lumped mass gives the layout (and the ledger's scale); the steps use M(q) */
  PetscCall(PetscMemzero(&dae, sizeof(dae)));
  dae.n = 7, dae.m = 6, dae.tmax = 0.03;
  dae.x0 = q0, dae.v0 = v0, dae.mass = mass;
  dae.fint = Internal, dae.vdep = PETSC_TRUE, dae.massfn = MassMatrix;
  dae.g = Constraint, dae.jac = Jacobian, dae.curv = Curvature, dae.name = Name;
  dae.energy = Energy, dae.ctx = &a, dae.view = view;
  PetscCall(FlxExampleRunDAE(&dae, qf, NULL, &help));
  if (!help) PetscCall(PetscPrintf(PETSC_COMM_SELF, "angles = %.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", (double)qf[0], (double)qf[1], (double)qf[2], (double)qf[3], (double)qf[4], (double)qf[5], (double)qf[6]));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  return FlxExampleMain(argc, argv, help, "flexure-andrews", Run);
}
