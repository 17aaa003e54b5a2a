/* MITC4: 4-node flat shell, 6 DOFs per node (Dvorkin and Bathe 1984, in its flat-facet form).

   Membrane: bilinear plane stress, 2x2 Gauss. Bending: Reissner-Mindlin plate with rotations of the normal
   beta_x = ry, beta_y = -rx, curvatures from the bilinear rotations, 2x2 Gauss. Transverse shear: the MITC
   assumed field. The covariant shear strains e_xi = w,xi + beta . x,xi and e_eta are sampled at the
   mid-sides (e_xi at (0, +-1), e_eta at (+-1, 0)) and interpolated linearly across the element, then
   mapped to Cartesian strains with the inverse Jacobian; this removes shear locking, so a thin strip
   (L/t = 1000) bends as a beam. Shear modulus kappa_s G t with kappa_s = 5/6. Drilling, warping and mass:
   shell.c. */
#include <flexure/private/elementimpl.h>

static const PetscReal XiN[4] = {-1, 1, 1, -1}, EtaN[4] = {-1, -1, 1, 1};

typedef struct {
  PetscReal N[4], dNx[4], dNy[4], detJ, Jinv[4], xr[2], yr[2], xs[2], ys[2];
} Point;

/* Shape functions at (xi, eta), derivatives in the local frame, Jacobian. */
static void Eval(const FlxShellFrame *f, PetscReal xi, PetscReal eta, Point *P)
{
  PetscReal dxi[4], deta[4], J[4] = {0, 0, 0, 0};
  for (int a = 0; a < 4; a++) {
    P->N[a] = 0.25 * (1 + xi * XiN[a]) * (1 + eta * EtaN[a]);
    dxi[a]  = 0.25 * XiN[a] * (1 + eta * EtaN[a]);
    deta[a] = 0.25 * EtaN[a] * (1 + xi * XiN[a]);
    J[0] += dxi[a] * f->x[a];
    J[1] += dxi[a] * f->y[a];
    J[2] += deta[a] * f->x[a];
    J[3] += deta[a] * f->y[a];
  }
  P->detJ    = J[0] * J[3] - J[1] * J[2];
  P->Jinv[0] = J[3] / P->detJ;
  P->Jinv[1] = -J[1] / P->detJ;
  P->Jinv[2] = -J[2] / P->detJ;
  P->Jinv[3] = J[0] / P->detJ;
  for (int a = 0; a < 4; a++) {
    P->dNx[a] = P->Jinv[0] * dxi[a] + P->Jinv[1] * deta[a];
    P->dNy[a] = P->Jinv[2] * dxi[a] + P->Jinv[3] * deta[a];
  }
  P->xr[0] = J[0]; /* x,xi  y,xi  x,eta  y,eta */
  P->yr[0] = J[1];
  P->xs[0] = J[2];
  P->ys[0] = J[3];
}

/* Row of the covariant shear strain along direction dir (0: xi, 1: eta) at (xi, eta), over the 24 local DOFs. */
static void CovariantShearRow(const FlxShellFrame *f, PetscReal xi, PetscReal eta, int dir, PetscReal row[24])
{
  Point     P;
  PetscReal dx, dy, dN[4];
  Eval(f, xi, eta, &P);
  dx = dir == 0 ? P.xr[0] : P.xs[0];
  dy = dir == 0 ? P.yr[0] : P.ys[0];
  for (int a = 0; a < 4; a++)
    dN[a] = dir == 0 ? 0.25 * XiN[a] * (1 + eta * EtaN[a]) : 0.25 * EtaN[a] * (1 + xi * XiN[a]);
  for (int i = 0; i < 24; i++)
    row[i] = 0;
  for (int a = 0; a < 4; a++) {
    row[6 * a + 2] = dN[a];
    row[6 * a + 4] = P.N[a] * dx;  /* beta_x = ry */
    row[6 * a + 3] = -P.N[a] * dy; /* beta_y = -rx */
  }
}

/* Cartesian transverse shear strains (2 x 24) of the assumed field at (xi, eta). */
static void ShearB(const FlxShellFrame *f, const PetscReal tying[4][24], const Point *P, PetscReal xi, PetscReal eta, PetscReal B[48])
{
  for (int i = 0; i < 24; i++) {
    PetscReal exi  = 0.5 * (1 + eta) * tying[0][i] + 0.5 * (1 - eta) * tying[1][i];
    PetscReal eeta = 0.5 * (1 + xi) * tying[2][i] + 0.5 * (1 - xi) * tying[3][i];
    B[i]           = P->Jinv[0] * exi + P->Jinv[1] * eeta;
    B[24 + i]      = P->Jinv[2] * exi + P->Jinv[3] * eeta;
  }
}

static void Tying(const FlxShellFrame *f, PetscReal tying[4][24])
{
  CovariantShearRow(f, 0, 1, 0, tying[0]);  /* A: e_xi at eta = +1 */
  CovariantShearRow(f, 0, -1, 0, tying[1]); /* C: e_xi at eta = -1 */
  CovariantShearRow(f, 1, 0, 1, tying[2]);  /* B: e_eta at xi = +1 */
  CovariantShearRow(f, -1, 0, 1, tying[3]); /* D: e_eta at xi = -1 */
}

static void MembraneBendingB(const Point *P, PetscReal Bm[72], PetscReal Bb[72])
{
  for (int i = 0; i < 72; i++)
    Bm[i] = Bb[i] = 0;
  for (int a = 0; a < 4; a++) {
    Bm[6 * a]          = P->dNx[a];
    Bm[24 + 6 * a + 1] = P->dNy[a];
    Bm[48 + 6 * a]     = P->dNy[a];
    Bm[48 + 6 * a + 1] = P->dNx[a];
    Bb[6 * a + 4]      = P->dNx[a];
    Bb[24 + 6 * a + 3] = -P->dNy[a];
    Bb[48 + 6 * a + 4] = P->dNy[a];
    Bb[48 + 6 * a + 3] = -P->dNx[a];
  }
}

PetscErrorCode FlxMITC4LocalStiffness(const PetscReal xyz[], const FlxSectionProps *p, FlxShellFrame *f, PetscReal Kl[], char err[], size_t len)
{
  PetscReal       Dm[9], Db[9], Ds[4], tying[4][24];
  const PetscReal g = 1 / PetscSqrtReal(3.0), ks = p->kappa_s * p->G * p->t;

  PetscFunctionBegin;
  { /* invalid geometry: return the code quietly, the caller names the element */
    PetscErrorCode ierr = FlxShellFrameCompute(4, xyz, p, f, err, len);
    if (ierr) return ierr;
  }
  for (int i = 0; i < 576; i++)
    Kl[i] = 0;
  FlxShellPlaneStress(p, p->t, Dm);
  FlxShellPlaneStress(p, p->t * p->t * p->t / 12, Db);
  Ds[0] = Ds[3] = ks;
  Ds[1] = Ds[2] = 0;
  Tying(f, tying);
  for (int q = 0; q < 4; q++) {
    PetscReal xi = XiN[q] * g, eta = EtaN[q] * g, Bm[72], Bb[72], Bs[48];
    Point     P;
    Eval(f, xi, eta, &P);
    MembraneBendingB(&P, Bm, Bb);
    ShearB(f, tying, &P, xi, eta, Bs);
    FlxShellAddBtDB(24, 3, Bm, Dm, P.detJ, Kl);
    FlxShellAddBtDB(24, 3, Bb, Db, P.detJ, Kl);
    FlxShellAddBtDB(24, 2, Bs, Ds, P.detJ, Kl);
    FlxShellAddDrilling(f, p->drill * p->G * p->t, P.detJ, P.N, P.dNx, P.dNy, Kl);
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Stiffness(const PetscReal xyz[], const FlxSectionProps *p, PetscReal K[], char err[], size_t len)
{
  FlxShellFrame f;
  PetscReal     Kl[576];

  PetscFunctionBegin;
  {
    PetscErrorCode ierr = FlxMITC4LocalStiffness(xyz, p, &f, Kl, err, len);
    if (ierr) return ierr;
  }
  FlxShellToGlobal(&f, Kl, K);
  PetscFunctionReturn(0);
}

/* int N_a dA (2x2 Gauss) and the shape values and weights at the Gauss points. */
static PetscErrorCode NodeWeights(const PetscReal xyz[], const FlxSectionProps *p, FlxShellFrame *f, PetscReal wnode[4], PetscReal Nq[16], PetscReal wq[4])
{
  const PetscReal g = 1 / PetscSqrtReal(3.0);
  char            err[256];

  PetscFunctionBegin;
  PetscCall(FlxShellFrameCompute(4, xyz, p, f, err, sizeof(err)));
  for (int a = 0; a < 4; a++)
    wnode[a] = 0;
  for (int q = 0; q < 4; q++) {
    Point P;
    Eval(f, XiN[q] * g, EtaN[q] * g, &P);
    wq[q] = P.detJ;
    for (int a = 0; a < 4; a++) {
      Nq[4 * q + a] = P.N[a];
      wnode[a] += P.N[a] * P.detJ;
    }
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode LumpedMass(const PetscReal xyz[], const FlxSectionProps *p, PetscReal m[])
{
  FlxShellFrame f;
  PetscReal     w[4], Nq[16], wq[4];

  PetscFunctionBegin;
  PetscCall(NodeWeights(xyz, p, &f, w, Nq, wq));
  PetscCall(FlxShellLumpedMass(4, w, p, m));
  PetscFunctionReturn(0);
}

static PetscErrorCode ConsistentMass(const PetscReal xyz[], const FlxSectionProps *p, PetscReal M[])
{
  FlxShellFrame f;
  PetscReal     w[4], Nq[16], wq[4];

  PetscFunctionBegin;
  PetscCall(NodeWeights(xyz, p, &f, w, Nq, wq));
  PetscCall(FlxShellConsistentMass(4, 4, Nq, wq, p, M));
  PetscFunctionReturn(0);
}

static PetscErrorCode Pressure(const PetscReal xyz[], const FlxSectionProps *p, PetscReal pr, PetscReal fg[])
{
  FlxShellFrame f;
  PetscReal     w[4], Nq[16], wq[4];

  PetscFunctionBegin;
  PetscCall(NodeWeights(xyz, p, &f, w, Nq, wq));
  FlxShellPressureLoad(&f, w, pr, fg);
  PetscFunctionReturn(0);
}

static PetscErrorCode Traction(const PetscReal xyz[], const FlxSectionProps *p, const PetscReal t[3], PetscReal fg[])
{
  FlxShellFrame f;
  PetscReal     w[4], Nq[16], wq[4];

  PetscFunctionBegin;
  PetscCall(NodeWeights(xyz, p, &f, w, Nq, wq));
  FlxShellTractionLoad(&f, w, t, fg);
  PetscFunctionReturn(0);
}

static PetscErrorCode Resultants(const PetscReal xyz[], const FlxSectionProps *p, const PetscReal ug[], PetscReal r[])
{
  FlxShellFrame f;
  PetscReal     ul[24], Dm[9], Db[9], tying[4][24], Bm[72], Bb[72], Bs[48], e[8] = {0};
  Point         P;
  char          err[256];

  PetscFunctionBegin;
  PetscCall(FlxShellFrameCompute(4, xyz, p, &f, err, sizeof(err)));
  FlxShellDisplacementToLocal(&f, ug, ul);
  FlxShellPlaneStress(p, p->t, Dm);
  FlxShellPlaneStress(p, p->t * p->t * p->t / 12, Db);
  Tying(&f, tying);
  Eval(&f, 0, 0, &P);
  MembraneBendingB(&P, Bm, Bb);
  ShearB(&f, tying, &P, 0, 0, Bs);
  for (int i = 0; i < 24; i++) {
    for (int k = 0; k < 3; k++) {
      e[k] += Bm[24 * k + i] * ul[i];
      e[3 + k] += Bb[24 * k + i] * ul[i];
    }
    for (int k = 0; k < 2; k++)
      e[6 + k] += Bs[24 * k + i] * ul[i];
  }
  for (int k = 0; k < 3; k++) {
    r[k]     = Dm[3 * k] * e[0] + Dm[3 * k + 1] * e[1] + Dm[3 * k + 2] * e[2];
    r[3 + k] = Db[3 * k] * e[3] + Db[3 * k + 1] * e[4] + Db[3 * k + 2] * e[5];
  }
  for (int k = 0; k < 2; k++)
    r[6 + k] = p->kappa_s * p->G * p->t * e[6 + k];
  FlxShellResultantsFinish(p, r);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxElementCreate_MITC4(FlxElementOps ops)
{
  PetscFunctionBegin;
  ops->name            = FLXELEMENTMITC4;
  ops->nnodes          = 4;
  ops->stiffness       = Stiffness;
  ops->lumped_mass     = LumpedMass;
  ops->consistent_mass = ConsistentMass;
  ops->pressure        = Pressure;
  ops->resultants      = Resultants;
  ops->traction        = Traction;
  PetscFunctionReturn(0);
}
