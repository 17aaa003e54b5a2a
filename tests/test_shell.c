/* Unit checks of the shell elements (mitc4, dkt3):
   - rigid-body motions give zero force for flat and warped quads and for triangles in general 3D position;
   - the stiffness is symmetric;
   - membrane and constant-bending patch tests on the MacNeal-Harder patch (5 distorted quads, or 10
     triangles), in the XY plane and in a rotated plane: interior nodes reproduce the linear (membrane) or
     quadratic (bending) field and every element returns the exact constant resultants;
   - no shear locking: a cantilever strip with L/t = 1000 under a tip shear bends as an Euler beam;
   - bad geometry (zero thickness, coincident nodes, bow-tie, warped beyond the limit) is refused. */
#include <flexure/flexure.h>

#define MAXN 64
static PetscInt fails = 0;

static void Report(PetscBool ok, const char *fmt, PetscReal a, PetscReal b)
{
  char buf[256];
  snprintf(buf, sizeof(buf), fmt, (double)a, (double)b);
  printf("%s %s\n", ok ? "ok  " : "FAIL", buf);
  if (!ok) fails++;
}

/* Rigid-body force and symmetry of one element. */
static PetscErrorCode CheckRigid(FlxElementOps ops, PetscInt nn, const PetscReal xyz[], const FlxSectionProps *p, const char *what)
{
  const PetscInt n = 6 * nn;
  PetscReal      K[576], kmax = 0, asym = 0, rb = 0;
  char           err[256];

  PetscFunctionBegin;
  PetscCall(ops->stiffness(xyz, p, K, err, sizeof(err)));
  for (PetscInt i = 0; i < n * n; i++)
    kmax = PetscMax(kmax, PetscAbsReal(K[i]));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < n; j++)
      asym = PetscMax(asym, PetscAbsReal(K[n * i + j] - K[n * j + i]));
  for (int k = 0; k < 6; k++) {
    PetscReal u[24] = {0};
    for (PetscInt a = 0; a < nn; a++) {
      const PetscReal *r = xyz + 3 * a;
      if (k < 3)
        u[6 * a + k] = 1;
      else {
        PetscReal th[3] = {0, 0, 0};
        th[k - 3]       = 1;
        u[6 * a + 0]    = th[1] * r[2] - th[2] * r[1];
        u[6 * a + 1]    = th[2] * r[0] - th[0] * r[2];
        u[6 * a + 2]    = th[0] * r[1] - th[1] * r[0];
        u[6 * a + k]    = 1;
      }
    }
    for (PetscInt i = 0; i < n; i++) {
      PetscReal f = 0;
      for (PetscInt j = 0; j < n; j++)
        f += K[n * i + j] * u[j];
      rb = PetscMax(rb, PetscAbsReal(f));
    }
  }
  printf("%s %s: rigid-body force / max|K| = %.2e, |K - K^T| / max|K| = %.2e\n", rb <= 1e-10 * kmax && asym <= 1e-14 * kmax ? "ok  " : "FAIL", what, (double)(rb / kmax), (double)(asym / kmax));
  if (rb > 1e-10 * kmax || asym > 1e-14 * kmax) fails++;
  PetscFunctionReturn(0);
}

typedef struct {
  PetscInt  nnodes, ncells, nn;
  PetscReal xyz[3 * MAXN];
  PetscInt  conn[4 * MAXN];
} Patch;

/* Assemble the dense stiffness of a patch and solve with the DOFs in fixed[] prescribed to u[] (in place). */
static PetscErrorCode SolvePatch(FlxElementOps ops, const Patch *P, const FlxSectionProps *p, const PetscBool fixed[], const PetscReal F[], PetscReal u[])
{
  const PetscInt N = 6 * P->nnodes, n = 6 * P->nn;
  PetscReal     *K, *A, *b;
  PetscInt       nf = 0, *map;

  PetscFunctionBegin;
  PetscCall(PetscCalloc4(N * N, &K, N * N, &A, N, &b, N, &map));
  for (PetscInt c = 0; c < P->ncells; c++) {
    PetscReal xyz[12], Ke[576];
    char      err[256];
    for (PetscInt a = 0; a < P->nn; a++)
      for (int d = 0; d < 3; d++)
        xyz[3 * a + d] = P->xyz[3 * P->conn[P->nn * c + a] + d];
    PetscCall(ops->stiffness(xyz, p, Ke, err, sizeof(err)));
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt j = 0; j < n; j++)
        K[(6 * P->conn[P->nn * c + i / 6] + i % 6) * N + 6 * P->conn[P->nn * c + j / 6] + j % 6] += Ke[i * n + j];
  }
  for (PetscInt i = 0; i < N; i++)
    if (!fixed[i]) map[nf++] = i;
  for (PetscInt r = 0; r < nf; r++) {
    b[r] = F ? F[map[r]] : 0;
    for (PetscInt j = 0; j < N; j++)
      if (fixed[j]) b[r] -= K[map[r] * N + j] * u[j];
    for (PetscInt c = 0; c < nf; c++)
      A[r * nf + c] = K[map[r] * N + map[c]];
  }
  for (PetscInt k = 0; k < nf; k++) { /* Gaussian elimination, partial pivoting */
    PetscInt piv = k;
    for (PetscInt r = k + 1; r < nf; r++)
      if (PetscAbsReal(A[r * nf + k]) > PetscAbsReal(A[piv * nf + k])) piv = r;
    for (PetscInt c = 0; c < nf; c++) {
      PetscReal t     = A[k * nf + c];
      A[k * nf + c]   = A[piv * nf + c];
      A[piv * nf + c] = t;
    }
    {
      PetscReal t = b[k];
      b[k]        = b[piv];
      b[piv]      = t;
    }
    for (PetscInt r = k + 1; r < nf; r++) {
      PetscReal l = A[r * nf + k] / A[k * nf + k];
      for (PetscInt c = k; c < nf; c++)
        A[r * nf + c] -= l * A[k * nf + c];
      b[r] -= l * b[k];
    }
  }
  for (PetscInt k = nf - 1; k >= 0; k--) {
    PetscReal s = b[k];
    for (PetscInt c = k + 1; c < nf; c++)
      s -= A[k * nf + c] * b[c];
    b[k] = s / A[k * nf + k];
  }
  for (PetscInt r = 0; r < nf; r++)
    u[map[r]] = b[r];
  PetscCall(PetscFree4(K, A, b, map));
  PetscFunctionReturn(0);
}

/* MacNeal-Harder patch (0.24 x 0.12, four interior nodes), as 5 quads or 10 triangles, mapped by the
   rotation Q (rows: images of x, y, z). */
static void MakePatch(PetscInt nn, const PetscReal Q[9], Patch *P)
{
  const PetscReal xy[8][2] = {{0, 0}, {0.24, 0}, {0.24, 0.12}, {0, 0.12}, {0.04, 0.02}, {0.18, 0.03}, {0.16, 0.08}, {0.08, 0.08}};
  const PetscInt  q[5][4]  = {{0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}, {4, 5, 6, 7}};
  P->nnodes                = 8;
  P->nn                    = nn;
  for (int i = 0; i < 8; i++)
    for (int d = 0; d < 3; d++)
      P->xyz[3 * i + d] = Q[d] * xy[i][0] + Q[3 + d] * xy[i][1];
  if (nn == 4) {
    P->ncells = 5;
    for (int c = 0; c < 5; c++)
      for (int a = 0; a < 4; a++)
        P->conn[4 * c + a] = q[c][a];
  } else {
    P->ncells = 10;
    for (int c = 0; c < 5; c++) {
      const PetscInt t[6] = {q[c][0], q[c][1], q[c][2], q[c][0], q[c][2], q[c][3]};
      for (int a = 0; a < 6; a++)
        P->conn[6 * c + a] = t[a];
    }
  }
}

/* Exact fields in the patch plane. Membrane: u = 1e-3 (x + y/2), v = 1e-3 (y + x), rz = (v,x - u,y)/2.
   Bending: w = 1e-3 (x^2 + x y + y^2) / 2, rx = w,y, ry = -w,x. Local values, mapped by Q. */
static void Exact(PetscBool bending, const PetscReal Q[9], PetscReal x, PetscReal y, PetscReal u[6])
{
  PetscReal l[6] = {0};
  if (!bending) {
    l[0] = 1e-3 * (x + y / 2);
    l[1] = 1e-3 * (y + x);
    l[5] = 0.5 * (1e-3 - 0.5e-3);
  } else {
    l[2] = 1e-3 * (x * x + x * y + y * y) / 2;
    l[3] = 1e-3 * (x / 2 + y);
    l[4] = -1e-3 * (x + y / 2);
  }
  for (int d = 0; d < 3; d++) {
    u[d]     = Q[d] * l[0] + Q[3 + d] * l[1] + Q[6 + d] * l[2];
    u[3 + d] = Q[d] * l[3] + Q[3 + d] * l[4] + Q[6 + d] * l[5];
  }
}

static PetscErrorCode PatchTest(FlxElementOps ops, PetscInt nn, PetscBool bending, const PetscReal Q[9], const FlxSectionProps *p, const char *what)
{
  Patch           P;
  PetscBool       fixed[48];
  PetscReal       u[48], ex[48], err = 0, scale = 0, rerr = 0, rscale = 0, rex[8];
  const PetscReal c = p->E / (1 - p->nu * p->nu), D = c * p->t * p->t * p->t / 12;
  const PetscReal exx = 1e-3, eyy = 1e-3, gxy = 1.5e-3, kxx = -1e-3, kyy = -1e-3, kxy = -1e-3;

  PetscFunctionBegin;
  MakePatch(nn, Q, &P);
  for (int i = 0; i < 8; i++) {
    PetscReal       x = i == 1 || i == 2 ? 0.24 : 0, y = i >= 2 && i <= 3 ? 0.12 : 0;
    const PetscReal xy[8][2] = {{0, 0}, {0.24, 0}, {0.24, 0.12}, {0, 0.12}, {0.04, 0.02}, {0.18, 0.03}, {0.16, 0.08}, {0.08, 0.08}};
    x = xy[i][0], y = xy[i][1];
    Exact(bending, Q, x, y, ex + 6 * i);
    for (int d = 0; d < 6; d++) {
      fixed[6 * i + d] = i < 4;
      u[6 * i + d]     = i < 4 ? ex[6 * i + d] : 0;
    }
  }
  PetscCall(SolvePatch(ops, &P, p, fixed, NULL, u));
  for (int i = 0; i < 48; i++) {
    err   = PetscMax(err, PetscAbsReal(u[i] - ex[i]));
    scale = PetscMax(scale, PetscAbsReal(ex[i]));
  }
  rex[0] = c * p->t * (exx + p->nu * eyy), rex[1] = c * p->t * (eyy + p->nu * exx), rex[2] = c * p->t * (1 - p->nu) / 2 * gxy;
  rex[3] = D * (kxx + p->nu * kyy), rex[4] = D * (kyy + p->nu * kxx), rex[5] = D * (1 - p->nu) / 2 * kxy;
  for (PetscInt e = 0; e < P.ncells; e++) {
    PetscReal xyz[12], ue[24], r[FLX_SHELL_NRESULTANTS];
    for (PetscInt a = 0; a < nn; a++) {
      for (int d = 0; d < 3; d++)
        xyz[3 * a + d] = P.xyz[3 * P.conn[nn * e + a] + d];
      for (int d = 0; d < 6; d++)
        ue[6 * a + d] = u[6 * P.conn[nn * e + a] + d];
    }
    PetscCall(ops->resultants(xyz, p, ue, r));
    { /* each element reports in its own frame: compare the invariants (trace, determinant) of the tensor */
      const PetscReal *a = r + (bending ? 3 : 0), *x = rex + (bending ? 3 : 0);
      PetscReal        tr = a[0] + a[1], trx = x[0] + x[1], det = a[0] * a[1] - a[2] * a[2], detx = x[0] * x[1] - x[2] * x[2];
      PetscReal        s = PetscAbsReal(x[0]) + PetscAbsReal(x[1]) + PetscAbsReal(x[2]);
      rerr               = PetscMax(rerr, PetscMax(PetscAbsReal(tr - trx) / s, PetscAbsReal(det - detx) / (s * s)));
      rscale             = 1;
    }
  }
  {
    char fmt[256];
    snprintf(fmt, sizeof(fmt), "%s %s patch test: interior DOF error / max = %%.2e, resultant error / max = %%.2e (tolerance 1e-9)", what, bending ? "constant-bending" : "membrane");
    Report(err <= 1e-9 * scale && rerr <= 1e-9 * rscale, fmt, err / scale, rerr / rscale);
  }
  PetscFunctionReturn(0);
}

/* Cantilever strip L x b x t, clamped at x = 0, total tip force P along z at x = L; nu = 0. */
static PetscErrorCode ThinStrip(FlxElementOps ops, PetscInt nn, const char *what)
{
  const PetscInt  nx = 20, ny = 2;
  const PetscReal L = 1, b = 0.1, t = 1e-3, Ptot = 1e-3;
  FlxSectionProps p = {0};
  Patch          *P;
  PetscBool      *fixed;
  PetscReal      *u, *F, wtip = 0, ref;

  PetscFunctionBegin;
  PetscCall(PetscNew(&P));
  p.E = 2.1e11, p.nu = 0, p.G = p.E / 2, p.rho = 7850, p.t = t, p.kappa_s = 5.0 / 6, p.drill = 1e-3, p.max_warp = 0.1, p.rotary_scale = 1;
  P->nnodes = (nx + 1) * (ny + 1);
  P->nn     = nn;
  for (PetscInt j = 0; j <= ny; j++)
    for (PetscInt i = 0; i <= nx; i++) {
      P->xyz[3 * (j * (nx + 1) + i)]     = L * i / nx;
      P->xyz[3 * (j * (nx + 1) + i) + 1] = b * j / ny;
      P->xyz[3 * (j * (nx + 1) + i) + 2] = 0;
    }
  P->ncells = 0;
  for (PetscInt j = 0; j < ny; j++)
    for (PetscInt i = 0; i < nx; i++) {
      PetscInt n0 = j * (nx + 1) + i, q[4] = {n0, n0 + 1, n0 + nx + 2, n0 + nx + 1};
      if (nn == 4) {
        for (int a = 0; a < 4; a++)
          P->conn[4 * P->ncells + a] = q[a];
        P->ncells++;
      } else {
        PetscInt tri[6] = {q[0], q[1], q[2], q[0], q[2], q[3]};
        for (int a = 0; a < 6; a++)
          P->conn[3 * P->ncells + a] = tri[a];
        P->ncells += 2;
      }
    }
  PetscCall(PetscCalloc3(6 * P->nnodes, &fixed, 6 * P->nnodes, &u, 6 * P->nnodes, &F));
  for (PetscInt j = 0; j <= ny; j++) {
    for (int d = 0; d < 6; d++)
      fixed[6 * (j * (nx + 1)) + d] = PETSC_TRUE;
    F[6 * (j * (nx + 1) + nx) + 2] = Ptot * (j == 0 || j == ny ? 0.5 : 1) / ny;
  }
  PetscCall(SolvePatch(ops, P, &p, fixed, F, u));
  for (PetscInt j = 0; j <= ny; j++)
    wtip += u[6 * (j * (nx + 1) + nx) + 2] / (ny + 1);
  ref = Ptot * L * L * L / (3 * p.E * b * t * t * t / 12) + Ptot * L / (p.kappa_s * p.G * b * t);
  {
    char fmt[256];
    snprintf(fmt, sizeof(fmt), "%s thin strip L/t = 1000 (%d x %d %s): tip deflection / beam theory = %%.6f, |error| = %%.2e (tolerance 0.02)", what, (int)nx, (int)ny, nn == 4 ? "quads" : "quads split in triangles");
    Report(PetscAbsReal(wtip / ref - 1) < 0.02, fmt, wtip / ref, PetscAbsReal(wtip / ref - 1));
  }
  PetscCall(PetscFree3(fixed, u, F));
  PetscCall(PetscFree(P));
  PetscFunctionReturn(0);
}

static PetscErrorCode ExpectRefused(FlxElementOps ops, const PetscReal xyz[], const FlxSectionProps *p, const char *what)
{
  PetscReal K[576];
  char      err[256] = "";

  PetscFunctionBegin;
  if (ops->stiffness(xyz, p, K, err, sizeof(err)) == PETSC_ERR_USER_INPUT)
    printf("ok   %s refused: %s\n", what, err);
  else {
    printf("FAIL %s accepted\n", what);
    fails++;
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  FlxElementOps   q4, t3;
  FlxSectionProps p     = {0};
  const PetscReal I3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  PetscReal       Q[9];

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(FlxElementGetOps(FLXELEMENTMITC4, &q4));
  PetscCall(FlxElementGetOps(FLXELEMENTDKT3, &t3));
  p.E = 1e6, p.nu = 0.25, p.G = p.E / 2.5, p.rho = 1000, p.t = 1e-3, p.kappa_s = 5.0 / 6, p.drill = 1e-3, p.max_warp = 0.1, p.rotary_scale = 1;
  { /* a rotation: rows are the images of x, y, z */
    PetscReal a = 0.7, b = -0.4, c = 1.1, Rz[9] = {PetscCosReal(a), PetscSinReal(a), 0, -PetscSinReal(a), PetscCosReal(a), 0, 0, 0, 1};
    PetscReal Rx[9] = {1, 0, 0, 0, PetscCosReal(b), PetscSinReal(b), 0, -PetscSinReal(b), PetscCosReal(b)};
    PetscReal Ry[9] = {PetscCosReal(c), 0, -PetscSinReal(c), 0, 1, 0, PetscSinReal(c), 0, PetscCosReal(c)}, T[9];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        T[3 * i + j] = Rz[3 * i] * Rx[j] + Rz[3 * i + 1] * Rx[3 + j] + Rz[3 * i + 2] * Rx[6 + j];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        Q[3 * i + j] = T[3 * i] * Ry[j] + T[3 * i + 1] * Ry[3 + j] + T[3 * i + 2] * Ry[6 + j];
  }
  {
    const PetscReal flat[12]   = {0, 0, 0, 2, 0.1, 0, 1.8, 1.5, 0, -0.2, 1.2, 0};
    const PetscReal warped[12] = {0, 0, 0.02, 2, 0.1, -0.02, 1.8, 1.5, 0.02, -0.2, 1.2, -0.02};
    const PetscReal tri[9]     = {0.1, 0.2, 0.3, 1.4, -0.3, 0.9, 0.5, 1.1, -0.4};
    PetscReal       g[12], gw[12];
    for (int a = 0; a < 4; a++)
      for (int d = 0; d < 3; d++) {
        g[3 * a + d]  = Q[d] * flat[3 * a] + Q[3 + d] * flat[3 * a + 1] + Q[6 + d] * flat[3 * a + 2] + 0.3 * d;
        gw[3 * a + d] = Q[d] * warped[3 * a] + Q[3 + d] * warped[3 * a + 1] + Q[6 + d] * warped[3 * a + 2] + 0.3 * d;
      }
    PetscCall(CheckRigid(q4, 4, flat, &p, "mitc4 flat quad (XY)"));
    PetscCall(CheckRigid(q4, 4, g, &p, "mitc4 flat quad (rotated)"));
    PetscCall(CheckRigid(q4, 4, warped, &p, "mitc4 warped quad (warp 0.014)"));
    PetscCall(CheckRigid(q4, 4, gw, &p, "mitc4 warped quad (rotated)"));
    PetscCall(CheckRigid(t3, 3, tri, &p, "dkt3 triangle (3D)"));
  }
  for (int r = 0; r < 2; r++)
    for (int bend = 0; bend < 2; bend++) {
      char what[64];
      snprintf(what, sizeof(what), "mitc4 (%s)", r ? "rotated plane" : "XY plane");
      PetscCall(PatchTest(q4, 4, (PetscBool)bend, r ? Q : I3, &p, what));
      snprintf(what, sizeof(what), "dkt3 (%s)", r ? "rotated plane" : "XY plane");
      PetscCall(PatchTest(t3, 3, (PetscBool)bend, r ? Q : I3, &p, what));
    }
  PetscCall(ThinStrip(q4, 4, "mitc4"));
  PetscCall(ThinStrip(t3, 3, "dkt3"));
  {
    const PetscReal bowtie[12] = {0, 0, 0, 1, 0, 0, 0.1, 1, 0, 0.9, 1.1, 0};
    const PetscReal warp[12]   = {0, 0, 0, 1, 0, 0.3, 1, 1, 0, 0, 1, 0.3};
    const PetscReal same[12]   = {0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0};
    const PetscReal line[9]    = {0, 0, 0, 1, 1, 1, 2, 2, 2};
    const PetscReal sq[12]     = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    PetscCall(ExpectRefused(q4, bowtie, &p, "bow-tie quad"));
    PetscCall(ExpectRefused(q4, warp, &p, "warped quad"));
    PetscCall(ExpectRefused(q4, same, &p, "quad with coincident nodes"));
    PetscCall(ExpectRefused(t3, line, &p, "triangle with collinear nodes"));
    p.t = 0;
    PetscCall(ExpectRefused(q4, sq, &p, "zero thickness"));
    p.t = -1e-3;
    PetscCall(ExpectRefused(t3, line, &p, "negative thickness"));
  }
  PetscCall(PetscFree(q4));
  PetscCall(PetscFree(t3));
  printf("%s: %d failed checks\n", fails ? "FAIL" : "PASS", (int)fails);
  PetscCall(PetscFinalize());
  return fails ? 1 : 0;
}
