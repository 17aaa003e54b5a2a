/* DKT3: 3-node flat shell, 6 DOFs per node, for triangles and mixed meshes.

   Bending: the discrete Kirchhoff triangle (Batoz, Bathe and Ho 1980). The rotations of the normal
   beta_x = ry, beta_y = -rx are quadratic, with the Kirchhoff constraints imposed at the corners and
   mid-sides; curvatures are linear, integrated with 3 points. No transverse shear strain, so no shear
   locking at any thickness (thin shells; the transverse shears in the output come from equilibrium,
   Q = div M). Membrane: constant strain. Drilling, mass and pressure: shell.c (3-point rule for the
   drilling penalty). */
#include <flexure/private/elementimpl.h>

typedef struct {
  PetscReal a[3], b[3], c[3], d[3], e[3]; /* Batoz's coefficients for the sides 23, 31, 12 */
  PetscReal x21, y21, x31, y31, det;
} DKT;

static void Setup(const FlxShellFrame *f, DKT *k)
{
  static const int Si[3] = {1, 2, 0}, Sj[3] = {2, 0, 1};
  for (int s = 0; s < 3; s++) {
    PetscReal xij = f->x[Si[s]] - f->x[Sj[s]], yij = f->y[Si[s]] - f->y[Sj[s]], l2 = xij * xij + yij * yij;
    k->a[s] = -xij / l2;
    k->b[s] = 0.75 * xij * yij / l2;
    k->c[s] = (0.25 * xij * xij - 0.5 * yij * yij) / l2;
    k->d[s] = -yij / l2;
    k->e[s] = (0.25 * yij * yij - 0.5 * xij * xij) / l2;
  }
  k->x21 = f->x[1] - f->x[0];
  k->y21 = f->y[1] - f->y[0];
  k->x31 = f->x[2] - f->x[0];
  k->y31 = f->y[2] - f->y[0];
  k->det = k->x21 * k->y31 - k->x31 * k->y21;
}

/* Hx, Hy (9 each, DOFs w, rx, ry per node) as linear combinations of the six quadratic functions N
   (corners 1-3, mid-sides 4 = 23, 5 = 31, 6 = 12); applied to N or to its derivatives. */
static void H(const DKT *k, const PetscReal N[6], PetscReal Hx[9], PetscReal Hy[9])
{
  const PetscReal *a = k->a, *b = k->b, *c = k->c, *d = k->d, *e = k->e; /* index 0,1,2 = sides 4,5,6 */
  Hx[0] = 1.5 * (a[2] * N[5] - a[1] * N[4]);
  Hx[1] = b[1] * N[4] + b[2] * N[5];
  Hx[2] = N[0] - c[1] * N[4] - c[2] * N[5];
  Hx[3] = 1.5 * (a[0] * N[3] - a[2] * N[5]);
  Hx[4] = b[2] * N[5] + b[0] * N[3];
  Hx[5] = N[1] - c[2] * N[5] - c[0] * N[3];
  Hx[6] = 1.5 * (a[1] * N[4] - a[0] * N[3]);
  Hx[7] = b[0] * N[3] + b[1] * N[4];
  Hx[8] = N[2] - c[0] * N[3] - c[1] * N[4];
  Hy[0] = 1.5 * (d[2] * N[5] - d[1] * N[4]);
  Hy[1] = -N[0] + e[1] * N[4] + e[2] * N[5];
  Hy[2] = -Hx[1];
  Hy[3] = 1.5 * (d[0] * N[3] - d[2] * N[5]);
  Hy[4] = -N[1] + e[2] * N[5] + e[0] * N[3];
  Hy[5] = -Hx[4];
  Hy[6] = 1.5 * (d[1] * N[4] - d[0] * N[3]);
  Hy[7] = -N[2] + e[0] * N[3] + e[1] * N[4];
  Hy[8] = -Hx[7];
}

/* Curvature rows (3 x 18 local DOFs) at (xi, eta). */
static void BendingB(const DKT *k, PetscReal xi, PetscReal eta, PetscReal B[54])
{
  PetscReal l = 1 - xi - eta, Nxi[6], Neta[6], Hxx[9], Hyx[9], Hxe[9], Hye[9];
  Nxi[0]      = -(4 * l - 1);
  Neta[0]     = -(4 * l - 1);
  Nxi[1]      = 4 * xi - 1;
  Neta[1]     = 0;
  Nxi[2]      = 0;
  Neta[2]     = 4 * eta - 1;
  Nxi[3]      = 4 * eta;
  Neta[3]     = 4 * xi;
  Nxi[4]      = -4 * eta;
  Neta[4]     = 4 * (l - eta);
  Nxi[5]      = 4 * (l - xi);
  Neta[5]     = -4 * xi;
  H(k, Nxi, Hxx, Hyx);
  H(k, Neta, Hxe, Hye);
  for (int i = 0; i < 54; i++)
    B[i] = 0;
  for (int a = 0; a < 3; a++)
    for (int j = 0; j < 3; j++) {
      int       src = 3 * a + j, dst = 6 * a + 2 + j; /* w, rx, ry -> local DOFs 2, 3, 4 */
      PetscReal bxx = (k->y31 * Hxx[src] - k->y21 * Hxe[src]) / k->det;
      PetscReal bxy = (-k->x31 * Hxx[src] + k->x21 * Hxe[src]) / k->det;
      PetscReal byx = (k->y31 * Hyx[src] - k->y21 * Hye[src]) / k->det;
      PetscReal byy = (-k->x31 * Hyx[src] + k->x21 * Hye[src]) / k->det;
      B[dst]        = bxx;
      B[18 + dst]   = byy;
      B[36 + dst]   = bxy + byx;
    }
}

/* Linear shape functions and their Cartesian derivatives. */
static void Linear(const DKT *k, PetscReal xi, PetscReal eta, PetscReal N[3], PetscReal dNx[3], PetscReal dNy[3])
{
  const PetscReal dxi[3] = {-1, 1, 0}, deta[3] = {-1, 0, 1};
  N[0] = 1 - xi - eta;
  N[1] = xi;
  N[2] = eta;
  for (int a = 0; a < 3; a++) {
    dNx[a] = (k->y31 * dxi[a] - k->y21 * deta[a]) / k->det;
    dNy[a] = (-k->x31 * dxi[a] + k->x21 * deta[a]) / k->det;
  }
}

static void MembraneB(const DKT *k, PetscReal Bm[54])
{
  PetscReal N[3], dNx[3], dNy[3];
  Linear(k, 1.0 / 3, 1.0 / 3, N, dNx, dNy);
  for (int i = 0; i < 54; i++)
    Bm[i] = 0;
  for (int a = 0; a < 3; a++) {
    Bm[6 * a]          = dNx[a];
    Bm[18 + 6 * a + 1] = dNy[a];
    Bm[36 + 6 * a]     = dNy[a];
    Bm[36 + 6 * a + 1] = dNx[a];
  }
}

static const PetscReal QXi[3] = {1.0 / 6, 2.0 / 3, 1.0 / 6}, QEta[3] = {1.0 / 6, 1.0 / 6, 2.0 / 3};

PetscErrorCode FlxDKT3LocalStiffness(const PetscReal xyz[], const FlxSectionProps *p, FlxShellFrame *f, PetscReal Kl[], char err[], size_t len)
{
  DKT       k;
  PetscReal Dm[9], Db[9], Bm[54], Bb[54];

  PetscFunctionBegin;
  { /* invalid geometry: return the code quietly, the caller names the element */
    PetscErrorCode ierr = FlxShellFrameCompute(3, xyz, p, f, err, len);
    if (ierr) return ierr;
  }
  for (int i = 0; i < 324; i++)
    Kl[i] = 0;
  Setup(f, &k);
  FlxShellPlaneStress(p, p->t, Dm);
  FlxShellPlaneStress(p, p->t * p->t * p->t / 12, Db);
  MembraneB(&k, Bm);
  FlxShellAddBtDB(18, 3, Bm, Dm, f->area, Kl);
  for (int q = 0; q < 3; q++) {
    PetscReal N[3], dNx[3], dNy[3];
    BendingB(&k, QXi[q], QEta[q], Bb);
    FlxShellAddBtDB(18, 3, Bb, Db, f->area / 3, Kl);
    Linear(&k, QXi[q], QEta[q], N, dNx, dNy);
    FlxShellAddDrilling(f, p->drill * p->G * p->t, f->area / 3, N, dNx, dNy, Kl);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Stiffness(const PetscReal xyz[], const FlxSectionProps *p, PetscReal K[], char err[], size_t len)
{
  FlxShellFrame f;
  PetscReal     Kl[324];

  PetscFunctionBegin;
  {
    PetscErrorCode ierr = FlxDKT3LocalStiffness(xyz, p, &f, Kl, err, len);
    if (ierr) return ierr;
  }
  FlxShellToGlobal(&f, Kl, K);
  PetscFunctionReturn(0);
}

static PetscErrorCode Frame(const PetscReal xyz[], const FlxSectionProps *p, FlxShellFrame *f)
{
  char err[256];

  PetscFunctionBegin;
  PetscCall(FlxShellFrameCompute(3, xyz, p, f, err, sizeof(err)));
  PetscFunctionReturn(0);
}

static PetscErrorCode LumpedMass(const PetscReal xyz[], const FlxSectionProps *p, PetscReal m[])
{
  FlxShellFrame f;
  PetscReal     w[3];

  PetscFunctionBegin;
  PetscCall(Frame(xyz, p, &f));
  for (int a = 0; a < 3; a++)
    w[a] = f.area / 3;
  PetscCall(FlxShellLumpedMass(3, w, p, m));
  PetscFunctionReturn(0);
}

static PetscErrorCode ConsistentMass(const PetscReal xyz[], const FlxSectionProps *p, PetscReal M[])
{
  FlxShellFrame f;
  PetscReal     Nq[9], wq[3];

  PetscFunctionBegin;
  PetscCall(Frame(xyz, p, &f));
  for (int q = 0; q < 3; q++) {
    Nq[3 * q]     = 1 - QXi[q] - QEta[q];
    Nq[3 * q + 1] = QXi[q];
    Nq[3 * q + 2] = QEta[q];
    wq[q]         = f.area / 3;
  }
  PetscCall(FlxShellConsistentMass(3, 3, Nq, wq, p, M));
  PetscFunctionReturn(0);
}

static PetscErrorCode Pressure(const PetscReal xyz[], const FlxSectionProps *p, PetscReal pr, PetscReal fg[])
{
  FlxShellFrame f;
  PetscReal     w[3];

  PetscFunctionBegin;
  PetscCall(Frame(xyz, p, &f));
  for (int a = 0; a < 3; a++)
    w[a] = f.area / 3;
  FlxShellPressureLoad(&f, w, pr, fg);
  PetscFunctionReturn(0);
}

static PetscErrorCode Traction(const PetscReal xyz[], const FlxSectionProps *p, const PetscReal t[3], PetscReal fg[])
{
  FlxShellFrame f;
  PetscReal     w[3];

  PetscFunctionBegin;
  PetscCall(Frame(xyz, p, &f));
  for (int a = 0; a < 3; a++)
    w[a] = f.area / 3;
  FlxShellTractionLoad(&f, w, t, fg);
  PetscFunctionReturn(0);
}

/* Membrane forces and moments at the centroid; Q = (Mxx,x + Mxy,y, Mxy,x + Myy,y) from the linear moment field. */
static PetscErrorCode Resultants(const PetscReal xyz[], const FlxSectionProps *p, const PetscReal ug[], PetscReal r[])
{
  FlxShellFrame   f;
  DKT             k;
  PetscReal       ul[18], Dm[9], Db[9], Bm[54], Bb[54], em[3] = {0}, kap[3][3] = {{0}}, Mv[3][3];
  const PetscReal vx[3] = {0, 1, 0}, vy[3] = {0, 0, 1};

  PetscFunctionBegin;
  PetscCall(Frame(xyz, p, &f));
  Setup(&f, &k);
  FlxShellDisplacementToLocal(&f, ug, ul);
  FlxShellPlaneStress(p, p->t, Dm);
  FlxShellPlaneStress(p, p->t * p->t * p->t / 12, Db);
  MembraneB(&k, Bm);
  for (int v = 0; v < 3; v++) {
    BendingB(&k, vx[v], vy[v], Bb);
    for (int i = 0; i < 18; i++)
      for (int c = 0; c < 3; c++)
        kap[v][c] += Bb[18 * c + i] * ul[i];
  }
  for (int i = 0; i < 18; i++)
    for (int c = 0; c < 3; c++)
      em[c] += Bm[18 * c + i] * ul[i];
  for (int v = 0; v < 3; v++)
    for (int c = 0; c < 3; c++)
      Mv[v][c] = Db[3 * c] * kap[v][0] + Db[3 * c + 1] * kap[v][1] + Db[3 * c + 2] * kap[v][2];
  for (int c = 0; c < 3; c++) {
    r[c]     = Dm[3 * c] * em[0] + Dm[3 * c + 1] * em[1] + Dm[3 * c + 2] * em[2];
    r[3 + c] = (Mv[0][c] + Mv[1][c] + Mv[2][c]) / 3;
  }
  { /* gradients of the linear moment field */
    PetscReal dM[3][2];
    for (int c = 0; c < 3; c++) {
      PetscReal dxi = Mv[1][c] - Mv[0][c], deta = Mv[2][c] - Mv[0][c];
      dM[c][0] = (k.y31 * dxi - k.y21 * deta) / k.det;
      dM[c][1] = (-k.x31 * dxi + k.x21 * deta) / k.det;
    }
    r[6] = dM[0][0] + dM[2][1];
    r[7] = dM[2][0] + dM[1][1];
  }
  FlxShellResultantsFinish(p, r);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxElementCreate_DKT3(FlxElementOps ops)
{
  PetscFunctionBegin;
  ops->name            = FLXELEMENTDKT3;
  ops->nnodes          = 3;
  ops->stiffness       = Stiffness;
  ops->lumped_mass     = LumpedMass;
  ops->consistent_mass = ConsistentMass;
  ops->pressure        = Pressure;
  ops->resultants      = Resultants;
  ops->traction        = Traction;
  PetscFunctionReturn(0);
}
