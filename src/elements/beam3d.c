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
   rotary_scale > 1 lowers it further (see README).

   Line loads: consistent nodal forces from the element's own interpolation (exact fixed-end forces, see
   Beam3dLineLoad). Section forces: K_e u_e minus that vector, in element axes, the first node's sign reversed
   (tension positive, the same moment sign at both ends). */
#include <flexure/private/elementimpl.h>

const char *const FlxBeamForceNames[]  = {"N_1", "Vy_1", "Vz_1", "T_1", "My_1", "Mz_1", "N_2", "Vy_2", "Vz_2", "T_2", "My_2", "Mz_2"};
const char *const FlxBeamStressNames[] = {"sigma_max_1", "sigma_min_1", "von_mises_1", "sigma_max_2", "sigma_min_2", "von_mises_2"};

/* Element axes of the initial geometry (also the co-rotational beam's reference frame, corotbeam.c). */
PetscErrorCode FlxBeam3dFrame(const PetscReal xyz[], const FlxSectionProps *p, FlxBeamFrame *f, char err[], size_t len)
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

/* Shear parameters Phi_y (bending in the local x-y plane) and Phi_z (x-z plane); 0 for shear-rigid sections. */
static void ShearParameters(const FlxSectionProps *p, PetscReal L, PetscReal *py, PetscReal *pz)
{
  *py = p->Asy > 0 ? 12 * p->E * p->Iz / (p->G * p->Asy * L * L) : 0;
  *pz = p->Asz > 0 ? 12 * p->E * p->Iy / (p->G * p->Asz * L * L) : 0;
}

/* Local stiffness (element axes, 12 x 12); shared with the co-rotational beam (corotbeam.c). */
void FlxBeam3dLocalStiffness(const FlxSectionProps *p, PetscReal L, PetscReal Kl[144])
{
  PetscReal L2 = L * L, py, pz, ea = p->E * p->A / L, gj = p->G * p->J / L;

  ShearParameters(p, L, &py, &pz);
  for (int i = 0; i < 144; i++)
    Kl[i] = 0;
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
}

/* v = T u (local from global), T = diag(R, R, R, R); transpose: u = T^T v. */
static void Rotate(const PetscReal R[9], PetscBool transpose, const PetscReal u[12], PetscReal v[12])
{
  for (int b = 0; b < 4; b++)
    for (int r = 0; r < 3; r++) {
      PetscReal s = 0;
      for (int k = 0; k < 3; k++)
        s += (transpose ? R[k * 3 + r] : R[r * 3 + k]) * u[3 * b + k];
      v[3 * b + r] = s;
    }
}

static PetscErrorCode Beam3dStiffness(const PetscReal xyz[], const FlxSectionProps *p, PetscReal K[], char err[], size_t len)
{
  FlxBeamFrame f;
  PetscReal    Kl[144];

  PetscFunctionBegin;
  {
    PetscErrorCode ierr = FlxBeam3dFrame(xyz, p, &f, err, len);
    if (ierr) PetscFunctionReturn(ierr);
  }
  FlxBeam3dLocalStiffness(p, f.L, Kl);
  ToGlobal(f.R, Kl, K);
  PetscFunctionReturn(0);
}

/* Consistent nodal loads of a uniform distributed force (qx, qy, qz) and moment (mx, my, mz) per length:
   the work of the load on the element's own interpolation. The interdependent-interpolation shape functions
   are the exact homogeneous solutions of the Timoshenko beam (Przemieniecki, Theory of Matrix Structural
   Analysis, 1968, sec. 5.6), so by Betti's theorem these are the fixed-end forces and the nodal displacements
   of a uniformly loaded beam are exact. A force per length gives q L / 2 and the moments +-q L^2 / 12 at any
   Phi; a moment per length m about local z, acting on the section rotation theta_z
   (theta_z = 6 (xi^2 - xi) / ((1 + Phi) L) v_1 + ...), gives -+m / (1 + Phi) on the transverse DOFs and
   m L Phi / (2 (1 + Phi)) on both rotations (Euler-Bernoulli: -m, +m and no moments). */
static PetscErrorCode Beam3dLineLoad(const PetscReal xyz[], const FlxSectionProps *p, const PetscReal q[6], PetscBool local, PetscReal f[])
{
  FlxBeamFrame fr;
  char         err[256];
  PetscReal    ql[6], fl[12] = {0}, L, py, pz;

  PetscFunctionBegin;
  PetscCall(FlxBeam3dFrame(xyz, p, &fr, err, sizeof(err)));
  L = fr.L;
  ShearParameters(p, L, &py, &pz);
  for (int h = 0; h < 2; h++)
    for (int r = 0; r < 3; r++) {
      PetscReal s = 0;
      for (int k = 0; k < 3; k++)
        s += fr.R[r * 3 + k] * q[3 * h + k];
      ql[3 * h + r] = local ? q[3 * h + r] : s;
    }
  fl[0] = fl[6] = ql[0] * L / 2; /* axial */
  fl[3] = fl[9] = ql[3] * L / 2; /* torsion */
  /* x-y plane (theta_z = v'): qy, mz */
  fl[1] += ql[1] * L / 2 - ql[5] / (1 + py);
  fl[7] += ql[1] * L / 2 + ql[5] / (1 + py);
  fl[5] += ql[1] * L * L / 12 + ql[5] * L * py / (2 * (1 + py));
  fl[11] += -ql[1] * L * L / 12 + ql[5] * L * py / (2 * (1 + py));
  /* x-z plane (theta_y = -w'): qz, my */
  fl[2] += ql[2] * L / 2 + ql[4] / (1 + pz);
  fl[8] += ql[2] * L / 2 - ql[4] / (1 + pz);
  fl[4] += -ql[2] * L * L / 12 + ql[4] * L * pz / (2 * (1 + pz));
  fl[10] += ql[2] * L * L / 12 + ql[4] * L * pz / (2 * (1 + pz));
  Rotate(fr.R, PETSC_TRUE, fl, f);
  PetscFunctionReturn(0);
}

/* Section forces at both ends: element axes components of K_e u - fd, the first node's negated. */
static PetscErrorCode Beam3dSectionForces(const PetscReal xyz[], const FlxSectionProps *p, const PetscReal u[], const PetscReal fd[], PetscReal r[])
{
  FlxBeamFrame fr;
  char         err[256];
  PetscReal    Kl[144], ul[12], fdl[12] = {0};

  PetscFunctionBegin;
  PetscCall(FlxBeam3dFrame(xyz, p, &fr, err, sizeof(err)));
  FlxBeam3dLocalStiffness(p, fr.L, Kl);
  Rotate(fr.R, PETSC_FALSE, u, ul);
  if (fd) Rotate(fr.R, PETSC_FALSE, fd, fdl);
  for (int i = 0; i < 12; i++) {
    PetscReal s = -fdl[i];
    for (int j = 0; j < 12; j++)
      s += Kl[i * 12 + j] * ul[j];
    r[i] = i < 6 ? -s : s;
  }
  PetscFunctionReturn(0);
}

/* Lumped mass: rho A L / 2 per translation at each node, and a diagonal rotary inertia in global axes from the
   element-axis tensor T = R^T diag(J_x, J_y, J_z) R (J_x = rho L/2 (Iy + Iz), J_y = rho L/2 Iy, J_z = rho L/2 Iz):
   T's diagonal plus the torsional inertia it misses along the element's axis a, put where a points:
   D_c = T_cc + (J_x - sum_c a_c^2 T_cc) a_c^2 / sum_c a_c^4. So a^T D a = J_x, the torsional inertia, along any
   axis; the deficit, J_y sum a_c^2 z_c^2 + J_z sum a_c^2 y_c^2, is never negative and vanishes for an element along
   a global axis (D = T). T's diagonal alone left two thirds of J_x along (1, 1, 1): torsion frequency +22.5%, found
   by a helper. The bending axes' rotary inertia, a small correction for slender beams, is not exact off the global
   axes (no diagonal can be). */
static PetscErrorCode Beam3dLumpedMass(const PetscReal xyz[], const FlxSectionProps *p, PetscReal m[])
{
  FlxBeamFrame f;
  char         err[256];
  PetscReal    mt, J[3];

  PetscFunctionBegin;
  PetscCall(FlxBeam3dFrame(xyz, p, &f, err, sizeof(err)));
  mt   = p->rho * p->A * f.L / 2;
  J[0] = p->rotary_scale * p->rho * f.L / 2 * (p->Iy + p->Iz);
  J[1] = p->rotary_scale * p->rho * f.L / 2 * p->Iy;
  J[2] = p->rotary_scale * p->rho * f.L / 2 * p->Iz;
  {
    PetscReal Tcc[3], deficit = J[0], s4 = 0;
    for (int c = 0; c < 3; c++) {
      const PetscReal a2 = f.R[c] * f.R[c];
      Tcc[c] = 0;
      for (int k = 0; k < 3; k++)
        Tcc[c] += f.R[k * 3 + c] * f.R[k * 3 + c] * J[k];
      deficit -= a2 * Tcc[c];
      s4 += a2 * a2; /* at least 1/3 */
    }
    deficit = PetscMax(deficit, 0); /* round-off */
    for (int a = 0; a < 2; a++)
      for (int c = 0; c < 3; c++) {
        m[6 * a + c]     = mt;
        m[6 * a + 3 + c] = Tcc[c] + deficit * f.R[c] * f.R[c] / s4;
      }
  }
  PetscFunctionReturn(0);
}

/* Consistent mass of the Euler-Bernoulli beam (cubic bending, linear axial and torsion). */
static PetscErrorCode Beam3dConsistentMass(const PetscReal xyz[], const FlxSectionProps *p, PetscReal M[])
{
  FlxBeamFrame f;
  char         err[256];
  PetscReal    Ml[144] = {0}, L, L2, m, mj;

  PetscFunctionBegin;
  PetscCall(FlxBeam3dFrame(xyz, p, &f, err, sizeof(err)));
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
  ops->line_load       = Beam3dLineLoad;
  ops->section_forces  = Beam3dSectionForces;
  ops->internal_force  = FlxCorotBeamInternalForce; /* corotbeam.c */
  ops->tangent         = FlxCorotBeamTangent;
  PetscFunctionReturn(0);
}
