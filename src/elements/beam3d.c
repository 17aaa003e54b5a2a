/* 3D two-node shear-flexible (Timoshenko) beam, 6 DOFs per node (ux uy uz rx ry rz).

   Stiffness: the "interdependent interpolation" element (Przemieniecki), exact for static end loads of
   a prismatic Timoshenko beam, with shear parameters Phi_y = 12 E Iz / (G Asy L^2) (bending in the
   local x-y plane) and Phi_z = 12 E Iy / (G Asz L^2) (local x-z plane); Asy = Asz = 0 gives the
   Euler-Bernoulli limit Phi = 0.

   Local axes: x along the element; the orientation vector v lies in the local x-y plane,
   z = x cross v / |x cross v|, y = z cross x. Without an orientation vector, v = global Z, or global X
   for an element parallel to Z.

   Lumped mass: rho A L / 2 in each translation at each node. Rotary inertia: at each node
   rho L/2 (Iy + Iz) about the local x axis, rho L/2 Iy about y and rho L/2 Iz about z, times
   rotary_scale; in the global frame the diagonal of that tensor is kept (exact for elements along a
   global axis, trace-preserving otherwise). With this lumping the highest rotational frequency of an
   element is about sqrt(8 E / rho) / L (the end rotation against 4 E I / L), the same order as the
   axial one (2 sqrt(E / rho) / L), so rotations do not drive the critical step for slender beams;
   rotary_scale > 1 lowers it further (see README). */
#include <flexure/private/elementimpl.h>

typedef struct {
  PetscReal L, R[9]; /* rows: local x, y, z in global coordinates */
} Frame;

static PetscErrorCode BeamFrame(const PetscReal xyz[], const FlxSectionProps *p, Frame *f, char err[], size_t len)
{
  PetscReal d[3], v[3], z[3], nz, nv;

  PetscFunctionBegin;
  for (int c = 0; c < 3; c++)
    d[c] = xyz[3 + c] - xyz[c];
  f->L = PetscSqrtReal(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  if (!(f->L > 0)) {
    snprintf(err, len, "zero length (coincident nodes)");
    PetscFunctionReturn(PETSC_ERR_USER_INPUT);
  }
  for (int c = 0; c < 3; c++)
    d[c] /= f->L;
  if (p->has_orient) {
    for (int c = 0; c < 3; c++)
      v[c] = p->orient[c];
  } else {
    v[0] = v[1] = 0;
    v[2]        = 1;
    if (PetscAbsReal(d[2]) > 0.999) {
      v[0] = 1;
      v[2] = 0;
    }
  }
  nv   = PetscSqrtReal(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  z[0] = d[1] * v[2] - d[2] * v[1];
  z[1] = d[2] * v[0] - d[0] * v[2];
  z[2] = d[0] * v[1] - d[1] * v[0];
  nz   = PetscSqrtReal(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
  if (!(nz > 1e-6 * nv)) {
    snprintf(err, len, "the orientation vector (%g, %g, %g) is parallel to the element axis: choose another orientation", (double)v[0], (double)v[1], (double)v[2]);
    PetscFunctionReturn(PETSC_ERR_USER_INPUT);
  }
  for (int c = 0; c < 3; c++) {
    f->R[c]     = d[c];
    f->R[6 + c] = z[c] / nz;
  }
  f->R[3] = f->R[7] * d[2] - f->R[8] * d[1];
  f->R[4] = f->R[8] * d[0] - f->R[6] * d[2];
  f->R[5] = f->R[6] * d[1] - f->R[7] * d[0];
  PetscFunctionReturn(0);
}

/* Kg = T^T Kl T with T = diag(R, R, R, R). */
static void ToGlobal(const PetscReal R[9], const PetscReal Kl[144], PetscReal Kg[144])
{
  PetscReal tmp[144];
  for (int i = 0; i < 12; i++) /* tmp = Kl T */
    for (int b = 0; b < 4; b++)
      for (int c = 0; c < 3; c++) {
        PetscReal s = 0;
        for (int k = 0; k < 3; k++)
          s += Kl[i * 12 + 3 * b + k] * R[k * 3 + c];
        tmp[i * 12 + 3 * b + c] = s;
      }
  for (int a = 0; a < 4; a++) /* Kg = T^T tmp */
    for (int r = 0; r < 3; r++)
      for (int j = 0; j < 12; j++) {
        PetscReal s = 0;
        for (int k = 0; k < 3; k++)
          s += R[k * 3 + r] * tmp[(3 * a + k) * 12 + j];
        Kg[(3 * a + r) * 12 + j] = s;
      }
}

/* Add a 4x4 bending block on DOFs idx with coefficients scaled by c. */
static void AddBlock4(PetscReal K[144], const int idx[4], const PetscReal B[16], PetscReal c)
{
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      K[idx[i] * 12 + idx[j]] += c * B[i * 4 + j];
}

static PetscErrorCode Beam3dStiffness(const PetscReal xyz[], const FlxSectionProps *p, PetscReal K[], char err[], size_t len)
{
  Frame     f;
  PetscReal Kl[144] = {0}, L, L2, py, pz, ea, gj;

  PetscFunctionBegin;
  {
    PetscErrorCode ierr = BeamFrame(xyz, p, &f, err, len);
    if (ierr) PetscFunctionReturn(ierr);
  }
  L              = f.L;
  L2             = L * L;
  py             = p->Asy > 0 ? 12 * p->E * p->Iz / (p->G * p->Asy * L2) : 0;
  pz             = p->Asz > 0 ? 12 * p->E * p->Iy / (p->G * p->Asz * L2) : 0;
  ea             = p->E * p->A / L;
  gj             = p->G * p->J / L;
  Kl[0 * 12 + 0] = Kl[6 * 12 + 6] = ea;
  Kl[0 * 12 + 6] = Kl[6 * 12 + 0] = -ea;
  Kl[3 * 12 + 3] = Kl[9 * 12 + 9] = gj;
  Kl[3 * 12 + 9] = Kl[9 * 12 + 3] = -gj;
  {
    const int       iy[4] = {1, 5, 7, 11}, iz[4] = {2, 4, 8, 10};
    const PetscReal By[16] = {12, 6 * L, -12, 6 * L, 6 * L, (4 + py) * L2, -6 * L, (2 - py) * L2, -12, -6 * L, 12, -6 * L, 6 * L, (2 - py) * L2, -6 * L, (4 + py) * L2};
    const PetscReal Bz[16] = {12, -6 * L, -12, -6 * L, -6 * L, (4 + pz) * L2, 6 * L, (2 - pz) * L2, -12, 6 * L, 12, 6 * L, -6 * L, (2 - pz) * L2, 6 * L, (4 + pz) * L2};
    AddBlock4(Kl, iy, By, p->E * p->Iz / ((1 + py) * L2 * L));
    AddBlock4(Kl, iz, Bz, p->E * p->Iy / ((1 + pz) * L2 * L));
  }
  ToGlobal(f.R, Kl, K);
  PetscFunctionReturn(0);
}

static PetscErrorCode Beam3dLumpedMass(const PetscReal xyz[], const FlxSectionProps *p, PetscReal m[])
{
  Frame     f;
  char      err[256];
  PetscReal mt, J[3];

  PetscFunctionBegin;
  PetscCall(BeamFrame(xyz, p, &f, err, sizeof(err)));
  mt   = p->rho * p->A * f.L / 2;
  J[0] = p->rotary_scale * p->rho * f.L / 2 * (p->Iy + p->Iz);
  J[1] = p->rotary_scale * p->rho * f.L / 2 * p->Iy;
  J[2] = p->rotary_scale * p->rho * f.L / 2 * p->Iz;
  for (int a = 0; a < 2; a++)
    for (int c = 0; c < 3; c++) {
      PetscReal jr = 0;
      for (int k = 0; k < 3; k++)
        jr += f.R[k * 3 + c] * f.R[k * 3 + c] * J[k];
      m[6 * a + c]     = mt;
      m[6 * a + 3 + c] = jr;
    }
  PetscFunctionReturn(0);
}

/* Consistent mass of the Euler-Bernoulli beam (cubic bending, linear axial and torsion). */
static PetscErrorCode Beam3dConsistentMass(const PetscReal xyz[], const FlxSectionProps *p, PetscReal M[])
{
  Frame     f;
  char      err[256];
  PetscReal Ml[144] = {0}, L, L2, m, mj;

  PetscFunctionBegin;
  PetscCall(BeamFrame(xyz, p, &f, err, sizeof(err)));
  L              = f.L;
  L2             = L * L;
  m              = p->rho * p->A * L;
  mj             = p->rotary_scale * p->rho * (p->Iy + p->Iz) * L;
  Ml[0 * 12 + 0] = Ml[6 * 12 + 6] = m / 3;
  Ml[0 * 12 + 6] = Ml[6 * 12 + 0] = m / 6;
  Ml[3 * 12 + 3] = Ml[9 * 12 + 9] = mj / 3;
  Ml[3 * 12 + 9] = Ml[9 * 12 + 3] = mj / 6;
  {
    const int       iy[4] = {1, 5, 7, 11}, iz[4] = {2, 4, 8, 10};
    const PetscReal By[16] = {156, 22 * L, 54, -13 * L, 22 * L, 4 * L2, 13 * L, -3 * L2, 54, 13 * L, 156, -22 * L, -13 * L, -3 * L2, -22 * L, 4 * L2};
    const PetscReal Bz[16] = {156, -22 * L, 54, 13 * L, -22 * L, 4 * L2, -13 * L, -3 * L2, 54, -13 * L, 156, 22 * L, 13 * L, -3 * L2, 22 * L, 4 * L2};
    AddBlock4(Ml, iy, By, m / 420);
    AddBlock4(Ml, iz, Bz, m / 420);
  }
  ToGlobal(f.R, Ml, M);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxElementCreate_Beam3d(FlxElementOps ops)
{
  PetscFunctionBegin;
  ops->name            = FLXELEMENTBEAM3D;
  ops->nnodes          = 2;
  ops->stiffness       = Beam3dStiffness;
  ops->lumped_mass     = Beam3dLumpedMass;
  ops->consistent_mass = Beam3dConsistentMass;
  PetscFunctionReturn(0);
}
