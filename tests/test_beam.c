/* Unit checks of the beam3d element: rigid-body motions give zero force, the stiffness is symmetric,
   the lumped mass sums to rho A L per translation, and the Euler-Bernoulli limit of a cantilever
   element reproduces P L^3 / (3 E I). */
#include <flexure/flexure.h>

static PetscErrorCode CheckElement(FlxElementOps ops, const PetscReal xyz[6], const FlxSectionProps *p, PetscInt *fails)
{
  PetscReal K[144], m[12], kmax = 0, asym = 0, rb = 0, msum[3] = {0, 0, 0}, L;
  char      err[256];

  PetscFunctionBegin;
  PetscCall(ops->stiffness(xyz, p, K, err, sizeof(err)));
  PetscCall(ops->lumped_mass(xyz, p, m));
  for (int i = 0; i < 144; i++)
    kmax = PetscMax(kmax, PetscAbsReal(K[i]));
  for (int i = 0; i < 12; i++)
    for (int j = 0; j < 12; j++)
      asym = PetscMax(asym, PetscAbsReal(K[12 * i + j] - K[12 * j + i]));
  /* six rigid-body motions about the first node */
  for (int k = 0; k < 6; k++) {
    PetscReal u[12] = {0}, f, fmax = 0, th[3] = {0, 0, 0};
    for (int a = 0; a < 2; a++) {
      PetscReal r[3] = {xyz[3 * a] - xyz[0], xyz[3 * a + 1] - xyz[1], xyz[3 * a + 2] - xyz[2]};
      if (k < 3)
        u[6 * a + k] = 1;
      else {
        th[0] = th[1] = th[2] = 0;
        th[k - 3]             = 1;
        u[6 * a + 0]          = th[1] * r[2] - th[2] * r[1];
        u[6 * a + 1]          = th[2] * r[0] - th[0] * r[2];
        u[6 * a + 2]          = th[0] * r[1] - th[1] * r[0];
        u[6 * a + k]          = 1;
      }
    }
    for (int i = 0; i < 12; i++) {
      f = 0;
      for (int j = 0; j < 12; j++)
        f += K[12 * i + j] * u[j];
      fmax = PetscMax(fmax, PetscAbsReal(f));
    }
    rb = PetscMax(rb, fmax);
  }
  L = PetscSqrtReal(PetscSqr(xyz[3] - xyz[0]) + PetscSqr(xyz[4] - xyz[1]) + PetscSqr(xyz[5] - xyz[2]));
  for (int c = 0; c < 3; c++)
    msum[c] = m[c] + m[6 + c];
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "element (%g,%g,%g)-(%g,%g,%g): |K - K^T|/|K| = %.2e, rigid-body force/|K| = %.2e, mass sums/(rho A L) = %.15g %.15g %.15g\n", (double)xyz[0], (double)xyz[1], (double)xyz[2], (double)xyz[3], (double)xyz[4], (double)xyz[5], (double)(asym / kmax), (double)(rb / kmax), (double)(msum[0] / (p->rho * p->A * L)), (double)(msum[1] / (p->rho * p->A * L)), (double)(msum[2] / (p->rho * p->A * L))));
  if (asym > 1e-14 * kmax) (*fails)++;
  if (rb > 1e-10 * kmax) (*fails)++; /* rotations about the far node involve lengths up to ~3 */
  for (int c = 0; c < 3; c++)
    if (PetscAbsReal(msum[c] / (p->rho * p->A * L) - 1) > 1e-14) (*fails)++;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  FlxElementOps   ops;
  FlxSectionProps p         = {0};
  PetscInt        fails     = 0;
  const PetscReal geo[4][6] = {
      {0, 0, 0, 1, 0, 0},
      {0, 0, 0, 0, 0, 2.5},
      {0.3, -0.2, 1.1, 1.7, 0.9, -0.4},
      {1, 2, 3, 1.1, 2.05, 3.3},
  };

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(FlxElementGetOps(FLXELEMENTBEAM3D, &ops));
  p.E = 210e9, p.nu = 0.3, p.G = p.E / 2.6, p.rho = 7850;
  p.A = 4e-4, p.Iy = 1.2e-8, p.Iz = 2.1e-8, p.J = 2.0e-8, p.Asy = p.Asz = 5.0 / 6 * p.A;
  p.rotary_scale = 1;
  for (int g = 0; g < 4; g++)
    PetscCall(CheckElement(ops, geo[g], &p, &fails));
  p.has_orient = PETSC_TRUE;
  p.orient[0] = 0.3, p.orient[1] = 1, p.orient[2] = 0.2;
  PetscCall(CheckElement(ops, geo[2], &p, &fails));
  { /* one-element cantilever along x, clamped at node 0, exact for Timoshenko. With the default orientation
       (global Z) local y = global Z and local z = -global Y: a force in Z bends about local z (Iz, Asy),
       a force in Y about local y (Iy, Asz). */
    PetscReal xyz[6] = {0, 0, 0, 2, 0, 0}, K[144], L = 2, P = 1000;
    const int dof[2][2] = {{8, 10}, {7, 11}}; /* (uz, ry) and (uy, rz) of node 1 */
    char      err[256];
    p.has_orient = PETSC_FALSE;
    for (int c = 0; c < 4; c++) {
      if (c == 2) p.Asy = p.Asz = 0; /* shear-rigid: the Euler-Bernoulli limit */
      PetscCall(ops->stiffness(xyz, &p, K, err, sizeof(err)));
      const int *dd  = dof[c % 2];
      PetscReal  k11 = K[dd[0] * 13], k15 = K[dd[0] * 12 + dd[1]], k55 = K[dd[1] * 13];
      PetscReal  w   = P * k55 / (k11 * k55 - k15 * k15);
      PetscReal  ref = c % 2 == 0 ? P * L * L * L / (3 * p.E * p.Iz) + (p.Asy > 0 ? P * L / (p.G * p.Asy) : 0) : P * L * L * L / (3 * p.E * p.Iy) + (p.Asz > 0 ? P * L / (p.G * p.Asz) : 0);
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "one-element %s cantilever, force along global %s: tip deflection %.15e, PL^3/3EI [+ PL/kGA] = %.15e, relative error %.2e\n", c < 2 ? "Timoshenko" : "Euler-Bernoulli", c % 2 ? "Y" : "Z", (double)w, (double)ref, (double)PetscAbsReal(w / ref - 1)));
      if (PetscAbsReal(w / ref - 1) > 1e-12) fails++;
    }
    /* an orientation vector parallel to the axis is refused */
    p.has_orient = PETSC_TRUE;
    p.orient[0] = 1, p.orient[1] = 0, p.orient[2] = 0;
    if (ops->stiffness(xyz, &p, K, err, sizeof(err)) != PETSC_ERR_USER_INPUT)
      fails++;
    else
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "parallel orientation refused: %s\n", err));
  }
  PetscCall(PetscFree(ops));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %" PetscInt_FMT " failed checks\n", fails ? "FAIL" : "PASS", fails));
  PetscCall(PetscFinalize());
  return fails ? 1 : 0;
}
