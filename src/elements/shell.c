/* Kernels shared by the shell elements (mitc4.c, dkt3.c): the flat local frame of an element, the rigid
   links that make a mildly warped quad exact for rigid-body motion, the global transformation, plane-stress
   matrices, the drilling penalty, lumped and consistent mass and pressure loads.

   Frame. Origin at the centroid; z = g1 x g2 / |g1 x g2| with g1, g2 the mid-side vectors along the two
   parametric directions (for a triangle, the two edges from node 0); x = g1 / |g1|; y = z x x. Nodes are
   projected onto this plane; h_i is the offset of node i along z (zero for flat elements).

   Warping. The flat element sits on the projected nodes, joined to the real ones by rigid links:
   u_proj = u - h (theta x z). A rigid-body motion of the real nodes is then a rigid-body motion of the flat
   element, so it gives zero force exactly. Quads with max |h_i| / sqrt(area) above max_warp are refused.

   Drilling. Flat elements have no stiffness for the rotation about the normal. flexure adds the
   Hughes-Brezzi penalty gamma (rz - omega)^2, omega = (v,x - u,y) / 2 the in-plane rotation of the membrane,
   gamma = drill G t (default drill = 1e-3). It vanishes for rigid-body motion, couples rz to the membrane
   instead of to a fictitious spring, and is small enough not to stiffen in-plane bending. */
#include <flexure/private/elementimpl.h>

const char *const FlxShellResultantNames[] = {"Nxx", "Nyy", "Nxy", "Mxx", "Myy", "Mxy", "Qx", "Qy", "sxx_top", "syy_top", "sxy_top", "sxx_bottom", "syy_bottom", "sxy_bottom"};
const char *const FlxShellStressNames[]    = {"Nxx", "Nyy", "Nxy", "Mxx", "Myy", "Mxy", "Qx", "Qy", "sxx_top", "syy_top", "sxy_top", "von_mises_top", "sxx_bottom", "syy_bottom", "sxy_bottom", "von_mises_bottom"};

static inline void Cross(const PetscReal a[3], const PetscReal b[3], PetscReal c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static inline PetscReal Norm3(const PetscReal a[3])
{
  return PetscSqrtReal(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

PetscErrorCode FlxShellFrameCompute(PetscInt nn, const PetscReal xyz[], const FlxSectionProps *p, FlxShellFrame *f, char err[], size_t len)
{
  PetscReal c[3] = {0, 0, 0}, g1[3], g2[3], z[3], nz, n1, lmin = PETSC_MAX_REAL, lmax = 0;

  PetscFunctionBegin;
  f->nn = nn;
  if (!(p->t > 0)) {
    snprintf(err, len, "shell thickness %g is not positive", (double)p->t);
    PetscFunctionReturn(PETSC_ERR_USER_INPUT);
  }
  for (PetscInt a = 0; a < nn; a++) {
    const PetscReal *X = xyz + 3 * ((a + 1) % nn), *Y = xyz + 3 * a;
    PetscReal        e[3] = {X[0] - Y[0], X[1] - Y[1], X[2] - Y[2]}, l = Norm3(e);
    lmin = PetscMin(lmin, l);
    lmax = PetscMax(lmax, l);
    for (int d = 0; d < 3; d++)
      c[d] += xyz[3 * a + d] / nn;
  }
  if (!(lmin > 1e-8 * lmax)) {
    snprintf(err, len, "degenerate %s: two nodes coincide (shortest edge %g, longest %g)", nn == 4 ? "quad" : "triangle", (double)lmin, (double)lmax);
    PetscFunctionReturn(PETSC_ERR_USER_INPUT);
  }
  for (int d = 0; d < 3; d++) {
    if (nn == 4) {
      g1[d] = xyz[3 + d] + xyz[6 + d] - xyz[d] - xyz[9 + d];
      g2[d] = xyz[6 + d] + xyz[9 + d] - xyz[d] - xyz[3 + d];
    } else {
      g1[d] = xyz[3 + d] - xyz[d];
      g2[d] = xyz[6 + d] - xyz[d];
    }
  }
  Cross(g1, g2, z);
  nz = Norm3(z);
  n1 = Norm3(g1);
  if (!(nz > 1e-8 * n1 * Norm3(g2))) {
    PetscReal a1[3], a2[3], t1[3], t2[3], s = 0;
    if (nn == 4) { /* a bow-tie has zero mean area but non-zero corner triangles */
      for (int d = 0; d < 3; d++) {
        a1[d] = xyz[3 + d] - xyz[d];
        a2[d] = xyz[6 + d] - xyz[d];
      }
      Cross(a1, a2, t1);
      for (int d = 0; d < 3; d++)
        a1[d] = xyz[9 + d] - xyz[d];
      Cross(a2, a1, t2);
      s = Norm3(t1) + Norm3(t2);
    }
    if (s > 1e-8 * lmax * lmax)
      snprintf(err, len, "inverted quad: the node order crosses itself (bow-tie); list the nodes around the element");
    else
      snprintf(err, len, "degenerate %s: zero area (collinear nodes)", nn == 4 ? "quad" : "triangle");
    PetscFunctionReturn(PETSC_ERR_USER_INPUT);
  }
  for (int d = 0; d < 3; d++) {
    f->R[6 + d] = z[d] / nz;
    f->R[d]     = g1[d] / n1;
  }
  Cross(f->R + 6, f->R, f->R + 3);
  f->area = 0;
  f->warp = 0;
  for (PetscInt a = 0; a < nn; a++) {
    PetscReal r[3] = {xyz[3 * a] - c[0], xyz[3 * a + 1] - c[1], xyz[3 * a + 2] - c[2]};
    f->x[a]        = r[0] * f->R[0] + r[1] * f->R[1] + r[2] * f->R[2];
    f->y[a]        = r[0] * f->R[3] + r[1] * f->R[4] + r[2] * f->R[5];
    f->h[a]        = nn == 3 ? 0 : r[0] * f->R[6] + r[1] * f->R[7] + r[2] * f->R[8]; /* a triangle is flat: round-off */
  }
  /* signed corner areas: all positive for a convex element in the order of its nodes */
  for (PetscInt a = 0; a < nn; a++) {
    PetscInt  b = (a + 1) % nn, q = (a + nn - 1) % nn;
    PetscReal cr = (f->x[b] - f->x[a]) * (f->y[q] - f->y[a]) - (f->y[b] - f->y[a]) * (f->x[q] - f->x[a]);
    if (!(cr > 1e-10 * lmax * lmax)) {
      snprintf(err, len, "inverted or non-convex %s: the corner at its node %d has a non-positive Jacobian (nodes out of order, a bow-tie, or a re-entrant corner)", nn == 4 ? "quad" : "triangle", (int)a + 1);
      PetscFunctionReturn(PETSC_ERR_USER_INPUT);
    }
  }
  for (PetscInt a = 0; a < nn; a++) {
    PetscInt b = (a + 1) % nn;
    f->area += 0.5 * (f->x[a] * f->y[b] - f->x[b] * f->y[a]);
  }
  for (PetscInt a = 0; a < nn; a++)
    f->warp = PetscMax(f->warp, PetscAbsReal(f->h[a]) / PetscSqrtReal(f->area));
  if (f->warp > p->max_warp) {
    snprintf(err, len, "warped quad: warp %.3g (largest node offset from the mean plane / sqrt(area)) exceeds the limit %.3g; refine the mesh or split into triangles (or raise the section's max_warp)", (double)f->warp, (double)p->max_warp);
    PetscFunctionReturn(PETSC_ERR_USER_INPUT);
  }
  PetscFunctionReturn(0);
}

/* Rows of the 6x6 node transformation T_a: local flat-node DOFs = T_a global real-node DOFs. */
static void NodeT(const FlxShellFrame *f, PetscInt a, PetscReal T[36])
{
  const PetscReal *R = f->R, h = f->h[a];
  for (int i = 0; i < 36; i++)
    T[i] = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      T[i * 6 + j]           = R[3 * i + j];
      T[(3 + i) * 6 + 3 + j] = R[3 * i + j];
    }
  for (int j = 0; j < 3; j++) { /* u_l += h (-theta_l,y, theta_l,x, 0) */
    T[0 * 6 + 3 + j] = -h * R[3 + j];
    T[1 * 6 + 3 + j] = h * R[j];
  }
}

void FlxShellToGlobal(const FlxShellFrame *f, const PetscReal Kl[], PetscReal Kg[])
{
  const PetscInt n = 6 * f->nn;
  PetscReal      T[4][36], tmp[24 * 24];

  for (PetscInt a = 0; a < f->nn; a++)
    NodeT(f, a, T[a]);
  for (PetscInt i = 0; i < n; i++) /* tmp = Kl T */
    for (PetscInt b = 0; b < f->nn; b++)
      for (int c = 0; c < 6; c++) {
        PetscReal s = 0;
        for (int k = 0; k < 6; k++)
          s += Kl[i * n + 6 * b + k] * T[b][k * 6 + c];
        tmp[i * n + 6 * b + c] = s;
      }
  for (PetscInt a = 0; a < f->nn; a++) /* Kg = T^T tmp */
    for (int r = 0; r < 6; r++)
      for (PetscInt j = 0; j < n; j++) {
        PetscReal s = 0;
        for (int k = 0; k < 6; k++)
          s += T[a][k * 6 + r] * tmp[(6 * a + k) * n + j];
        Kg[(6 * a + r) * n + j] = s;
      }
}

void FlxShellDisplacementToLocal(const FlxShellFrame *f, const PetscReal ug[], PetscReal ul[])
{
  for (PetscInt a = 0; a < f->nn; a++) {
    PetscReal T[36];
    NodeT(f, a, T);
    for (int i = 0; i < 6; i++) {
      PetscReal s = 0;
      for (int k = 0; k < 6; k++)
        s += T[i * 6 + k] * ug[6 * a + k];
      ul[6 * a + i] = s;
    }
  }
}

void FlxShellPlaneStress(const FlxSectionProps *p, PetscReal scale, PetscReal D[9])
{
  PetscReal c = scale * p->E / (1 - p->nu * p->nu);
  D[0] = D[4] = c;
  D[1] = D[3] = c * p->nu;
  D[2] = D[5] = D[6] = D[7] = 0;
  D[8]                      = c * (1 - p->nu) / 2;
}

void FlxShellAddBtDB(PetscInt n, PetscInt nr, const PetscReal B[], const PetscReal D[], PetscReal w, PetscReal K[])
{
  PetscReal DB[3 * 24];
  for (PetscInt r = 0; r < nr; r++)
    for (PetscInt j = 0; j < n; j++) {
      PetscReal s = 0;
      for (PetscInt k = 0; k < nr; k++)
        s += D[r * nr + k] * B[k * n + j];
      DB[r * n + j] = w * s;
    }
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt r = 0; r < nr; r++) {
      PetscReal b = B[r * n + i];
      if (b == 0) continue;
      for (PetscInt j = 0; j < n; j++)
        K[i * n + j] += b * DB[r * n + j];
    }
}

void FlxShellAddDrilling(const FlxShellFrame *f, PetscReal gamma, PetscReal w, const PetscReal N[], const PetscReal dNx[], const PetscReal dNy[], PetscReal Kl[])
{
  const PetscInt n     = 6 * f->nn;
  PetscReal      b[24] = {0};
  for (PetscInt a = 0; a < f->nn; a++) { /* rz - (v,x - u,y) / 2 */
    b[6 * a + 0] = 0.5 * dNy[a];
    b[6 * a + 1] = -0.5 * dNx[a];
    b[6 * a + 5] = N[a];
  }
  FlxShellAddBtDB(n, 1, b, &gamma, w, Kl);
}

void FlxShellResultantsFinish(const FlxSectionProps *p, PetscReal r[])
{
  const PetscReal t = p->t;
  for (int k = 0; k < 3; k++) {
    r[8 + k]  = r[k] / t + 6 * r[3 + k] / (t * t);
    r[11 + k] = r[k] / t - 6 * r[3 + k] / (t * t);
  }
}

/* Translational mass rho t int N_a; rotary inertia rho t^3/12 int N_a about each axis (the drilling
   rotation included, so that the lumped mass is regular), times rotary_scale. Frame-independent. */
PetscErrorCode FlxShellLumpedMass(PetscInt nn, const PetscReal wnode[], const FlxSectionProps *p, PetscReal m[])
{
  const PetscReal rt = p->rho * p->t, ri = p->rotary_scale * p->rho * p->t * p->t * p->t / 12;

  PetscFunctionBegin;
  for (PetscInt a = 0; a < nn; a++)
    for (int d = 0; d < 3; d++) {
      m[6 * a + d]     = rt * wnode[a];
      m[6 * a + 3 + d] = ri * wnode[a];
    }
  PetscFunctionReturn(0);
}

/* Consistent mass from nq quadrature points with shape values N (nq x nn) and weights w (incl. the area
   Jacobian): translations rho t int N_a N_b, rotations rho t^3/12 int N_a N_b (times rotary_scale). */
PetscErrorCode FlxShellConsistentMass(PetscInt nn, PetscInt nq, const PetscReal N[], const PetscReal w[], const FlxSectionProps *p, PetscReal M[])
{
  const PetscInt  n  = 6 * nn;
  const PetscReal rt = p->rho * p->t, ri = p->rotary_scale * p->rho * p->t * p->t * p->t / 12;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n * n; i++)
    M[i] = 0;
  for (PetscInt a = 0; a < nn; a++)
    for (PetscInt b = 0; b < nn; b++) {
      PetscReal s = 0;
      for (PetscInt q = 0; q < nq; q++)
        s += w[q] * N[q * nn + a] * N[q * nn + b];
      for (int d = 0; d < 3; d++) {
        M[(6 * a + d) * n + 6 * b + d]         = rt * s;
        M[(6 * a + 3 + d) * n + 6 * b + 3 + d] = ri * s;
      }
    }
  PetscFunctionReturn(0);
}

void FlxShellPressureLoad(const FlxShellFrame *f, const PetscReal wnode[], PetscReal pressure, PetscReal fg[])
{
  for (PetscInt a = 0; a < f->nn; a++)
    for (int d = 0; d < 6; d++)
      fg[6 * a + d] = d < 3 ? -pressure * wnode[a] * f->R[6 + d] : 0;
}

void FlxShellTractionLoad(const FlxShellFrame *f, const PetscReal wnode[], const PetscReal t[3], PetscReal fg[])
{
  for (PetscInt a = 0; a < f->nn; a++)
    for (int d = 0; d < 6; d++)
      fg[6 * a + d] = d < 3 ? t[d] * wnode[a] : 0;
}

/* Rotate an in-plane symmetric tensor (xx, yy, xy) by the angle whose cosine and sine are c, s (new x = c x + s y). */
static void RotateTensor(PetscReal c, PetscReal s, const PetscReal a[3], PetscReal b[3])
{
  b[0] = c * c * a[0] + s * s * a[1] + 2 * c * s * a[2];
  b[1] = s * s * a[0] + c * c * a[1] - 2 * c * s * a[2];
  b[2] = -c * s * a[0] + c * s * a[1] + (c * c - s * s) * a[2];
}

static PetscReal VonMises(const PetscReal s[3])
{
  return PetscSqrtReal(PetscMax(0, s[0] * s[0] - s[0] * s[1] + s[1] * s[1] + 3 * s[2] * s[2]));
}

PetscErrorCode FlxShellStresses(FlxElementOps ops, const PetscReal xyz[], const FlxSectionProps *p, const PetscReal u[], const PetscReal axis[3], PetscReal r[])
{
  FlxShellFrame   f;
  char            err[256];
  PetscReal       re[FLX_SHELL_NRESULTANTS], a[3], n[3], x[3], nx, c, s;
  const PetscReal sin01 = PetscSinReal(0.1 * PETSC_PI / 180);

  PetscFunctionBegin;
  PetscCheck(ops->resultants, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "element %s has no resultants", ops->name);
  PetscCall(FlxShellFrameCompute(ops->nnodes, xyz, p, &f, err, sizeof(err)));
  PetscCall(ops->resultants(xyz, p, u, re));
  for (int d = 0; d < 3; d++)
    n[d] = f.R[6 + d];
  for (int pass = 0; pass < 3; pass++) { /* the axis, else global Z, else global X */
    PetscReal na = Norm3(axis), an;
    for (int d = 0; d < 3; d++)
      a[d] = pass == 0 ? axis[d] / na : (d == (pass == 1 ? 2 : 0) ? 1 : 0);
    an = a[0] * n[0] + a[1] * n[1] + a[2] * n[2];
    for (int d = 0; d < 3; d++)
      x[d] = a[d] - an * n[d];
    nx = Norm3(x);
    if (nx > sin01) break;
  }
  c = (x[0] * f.R[0] + x[1] * f.R[1] + x[2] * f.R[2]) / nx; /* new x in the element frame */
  s = (x[0] * f.R[3] + x[1] * f.R[4] + x[2] * f.R[5]) / nx;
  RotateTensor(c, s, re, r);         /* N */
  RotateTensor(c, s, re + 3, r + 3); /* M */
  r[6] = c * re[6] + s * re[7];      /* Q */
  r[7] = -s * re[6] + c * re[7];
  RotateTensor(c, s, re + 8, r + 8); /* top surface */
  r[11] = VonMises(r + 8);
  RotateTensor(c, s, re + 11, r + 12); /* bottom surface */
  r[15] = VonMises(r + 12);
  PetscFunctionReturn(0);
}
