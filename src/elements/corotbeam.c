/* Co-rotational 3D beam: the Timoshenko beam of beam3d.c (its local stiffness, shared, not copied) in an
   element-independent co-rotational frame, after Battini and Pacoste (Comput. Methods Appl. Mech. Engrg. 191
   (2002) 1755, section 3) and Crisfield (ibid. 81 (1990) 131). Equations as used here (C1)-(C7), with the
   notation of docs/nonlinear.md:

   (C1) State: node positions x_a = X_a + u_a and nodal rotations R_a = exp(skew(psi_a)) (spatial, each node's
        initial frame the identity); E = initial element axes (rows e1, e2, e3, beam3d's frame).
   (C2) Co-rotational frame R_r = [r1 r2 r3]: r1 = (x_2 - x_1) / l_n; q = (R_1 e2 + R_2 e2) / 2;
        r3 = r1 x q / |r1 x q|; r2 = r3 x r1 (Battini and Pacoste eqs. (6)-(8)).
   (C3) Local rotations Rbar_a = R_r^T R_a E^T, theta_a = log(Rbar_a); local elongation ubar = l_n - l_0.
   (C4) Local force of the linear element, f_l = (N, m_1, m_2) = K_l (ubar, theta_1, theta_2), K_l the 7 x 7 part
        of beam3d's local stiffness at DOFs (u_x2, theta_1, theta_2) (node 1 at the origin and node 2 on the axis in
        the co-rotational frame); strain energy (1/2) p^T K_l p.
   (C5) Moments conjugate to the local spins: mt_a = T(theta_a)^-T m_a (T the tangent operator of rotation.h;
        Battini and Pacoste's B_a, eq. (20)).
   (C6) Spin of the frame, from the variations of (C2): w_r = R_r (w1, w2, w3) with w3 = r2 . dd / l_n,
        w2 = -r3 . dd / l_n, w1 = (q_x / q_y) w2 + sum_a (q_a x r3) . dw_a / (2 q_y), q_x = r1 . q, q_y = r2 . q
        (this is Battini and Pacoste's G matrix, eq. (A.7), written as vectors).
   (C7) Global force from dE = N dl_n + sum_a mt_a . R_r^T (dw_a - w_r), with s = mt_1 + mt_2 and
        g = (s_1 q_x / q_y + s_2) / l_n:  f_x2 = -f_x1 = N r1 + g r3 - (s_3 / l_n) r2,
        f_wa = R_r mt_a - s_1 / (2 q_y) (q_a x r3). Moment equilibrium holds identically.
   Tangent: the exact derivative of (C7) with respect to the translations and the spatial spins (R_a ->
   exp(skew(dw)) R_a), by complex-step differentiation of the same code (Squire and Trapp, SIAM Rev. 40 (1998) 110;
   Martins, Sturdza and Alonso, ACM TOMS 29 (2003) 245): f(x + i h e_j) has imaginary part h K e_j + O(h^3), with
   no subtractive cancellation, so h = 1e-30 gives K to round-off. It holds the material part B^T K_l B and the
   whole geometric part (Battini and Pacoste's K_h and K_m) without writing them out; it is not symmetric away from
   equilibrium (the spatial spins are not a vector space). Cost: 12 complex force evaluations per element. */
#include <flexure/private/elementimpl.h>
#include <complex.h>

#define FLX_S PetscReal
#define FLX_SQRT PetscSqrtReal
#define FLX_ATAN PetscAtanReal
#define FLX_SIN PetscSinReal
#define FLX_COS PetscCosReal
#define FLX_RE(x) (x)
#define FLX_FN(name) Real##name
#include "corotkernel.h"
#undef FLX_S
#undef FLX_SQRT
#undef FLX_ATAN
#undef FLX_SIN
#undef FLX_COS
#undef FLX_RE
#undef FLX_FN
#define FLX_S double complex
#define FLX_SQRT csqrt
#define FLX_ATAN catan
#define FLX_SIN csin
#define FLX_COS ccos
#define FLX_RE(x) creal(x)
#define FLX_FN(name) Cplx##name
#include "corotkernel.h"

/* K_l = the rows and columns (u_x2, theta_1, theta_2) of beam3d's local stiffness; its nonzero pattern (axial,
   torsion, and bending about local y and z uncoupled) is checked here, so that the kernel's f_l = K_l p may use the
   six entries only. */
PetscErrorCode FlxCorotBeamSetUp(const PetscReal X0[], const FlxSectionProps *p, FlxCorotBeamData *d, char err[], size_t len)
{
  const int    idx[7] = {6, 3, 4, 5, 9, 10, 11};
  FlxBeamFrame fr;
  PetscReal    Kl[144], K7[49], k[7][7];

  PetscFunctionBegin;
  {
    PetscErrorCode ierr = FlxBeam3dFrame(X0, p, &fr, err, len);
    if (ierr) PetscFunctionReturn(ierr);
  }
  d->l0 = fr.L;
  for (int i = 0; i < 9; i++)
    d->E[i] = fr.R[i];
  FlxBeam3dLocalStiffness(p, fr.L, Kl);
  for (int i = 0; i < 7; i++)
    for (int j = 0; j < 7; j++)
      K7[7 * i + j] = Kl[12 * idx[i] + idx[j]];
  d->k[0] = K7[0];
  d->k[1] = K7[7 * 1 + 1];
  d->k[2] = K7[7 * 2 + 2];
  d->k[3] = K7[7 * 2 + 5];
  d->k[4] = K7[7 * 3 + 3];
  d->k[5] = K7[7 * 3 + 6];
  for (int i = 0; i < 7; i++) /* the matrix the six entries stand for */
    for (int j = 0; j < 7; j++)
      k[i][j] = 0;
  k[0][0] = d->k[0];
  k[1][1] = k[4][4] = d->k[1];
  k[1][4] = k[4][1] = -d->k[1];
  k[2][2] = k[5][5] = d->k[2];
  k[2][5] = k[5][2] = d->k[3];
  k[3][3] = k[6][6] = d->k[4];
  k[3][6] = k[6][3] = d->k[5];
  for (int i = 0; i < 7; i++)
    for (int j = 0; j < 7; j++)
      PetscCheck(K7[7 * i + j] == k[i][j], PETSC_COMM_SELF, PETSC_ERR_PLIB, "co-rotational beam: the local stiffness entry (%d, %d) is outside the pattern the kernel assumes", i, j);
  PetscFunctionReturn(0);
}

void FlxCorotBeamReason(int code, char err[], size_t len)
{
  if (code == 1)
    snprintf(err, len, "its length went to zero (the nodes met)");
  else if (code == 2)
    snprintf(err, len, "its co-rotational frame degenerated (a nodal y axis turned into the chord)");
  else
    snprintf(err, len, "it turned over (an end rotated by more than 162 degrees against its chord)");
}

/* Nodal states (position, rotation matrix) of the element from X0, the element DOFs u and the nodal rotations R. */
static void NodeStates(const PetscReal X0[], const PetscReal u[], const PetscReal R[], PetscReal s[24])
{
  for (int a = 0; a < 2; a++) {
    for (int c = 0; c < 3; c++)
      s[12 * a + c] = X0[3 * a + c] + u[6 * a + c];
    for (int i = 0; i < 9; i++)
      s[12 * a + 3 + i] = R[9 * a + i];
  }
}

/* Internal force (12, global) and strain energy of the co-rotational beam; u: element DOFs (translations used),
   R: nodal rotation matrices (9 per node). Degenerate geometry: PETSC_ERR_USER_INPUT with a reason in err. */
PetscErrorCode FlxCorotBeamInternalForce(const PetscReal X0[], const PetscReal u[], const PetscReal R[], const FlxSectionProps *p, PetscReal f[], PetscReal *energy, char err[], size_t len)
{
  FlxCorotBeamData cd;
  PetscReal        s[24], e;
  int              code;

  PetscFunctionBegin;
  {
    PetscErrorCode ierr = FlxCorotBeamSetUp(X0, p, &cd, err, len);
    if (ierr) PetscFunctionReturn(ierr);
  }
  NodeStates(X0, u, R, s);
  code = RealCorotForce(&cd, s, s + 12, f, &e);
  if (code) {
    FlxCorotBeamReason(code, err, len);
    PetscFunctionReturn(PETSC_ERR_USER_INPUT);
  }
  if (energy) *energy = e;
  PetscFunctionReturn(0);
}

/* Section forces of the co-rotational beam (FLX_BEAM_NFORCES: N Vy Vz T My Mz at the first node, then the second,
   in the co-rotated element axes r1, r2, r3, with the linear element's signs: tension positive, the same moment sign
   at both ends): the element's end forces, i.e. its internal force (C7) at each node (12, global, in equilibrium with
   the nodes' loads), turned into the co-rotated axes (N = r1 . f_x2 = the local axial force of f_l, Vy = -s3 / l_n and
   Vz = (s1 q_x / q_y + s2) / l_n the shears from the element's equilibrium over its current chord, the moments
   R_r mt_a - s1 / (2 q_y) (q_a x r3) turned back: f_l's m_a when the local rotations are small), less fd (12,
   global; NULL: none), the consistent distributed-load vector turned into the same axes, as the linear element does.
   u: element DOFs (translations used), R: nodal rotation matrices. Degenerate geometry: PETSC_ERR_USER_INPUT with a
   reason in err. */
PetscErrorCode FlxCorotBeamSectionForces(const PetscReal X0[], const PetscReal u[], const PetscReal R[], const FlxSectionProps *p, const PetscReal fd[], PetscReal r[], char err[], size_t len)
{
  FlxCorotBeamData cd;
  PetscReal        s[24], ln, il, r1[3], r2[3], r3[3], qn[2][3], q[3], qx, qy, iqy, th[2][3], f[12], e;
  int              code;

  PetscFunctionBegin;
  {
    PetscErrorCode ierr = FlxCorotBeamSetUp(X0, p, &cd, err, len);
    if (ierr) PetscFunctionReturn(ierr);
  }
  NodeStates(X0, u, R, s);
  code = RealCorotLocal(&cd, s, s + 12, &ln, &il, r1, r2, r3, qn, q, &qx, &qy, &iqy, th);
  if (!code) code = RealCorotForce(&cd, s, s + 12, f, &e);
  if (code) {
    FlxCorotBeamReason(code, err, len);
    PetscFunctionReturn(PETSC_ERR_USER_INPUT);
  }
  for (int b = 0; b < 4; b++) /* forces, moments at node 1, then node 2, in the co-rotated axes */
    for (int i = 0; i < 3; i++) {
      const PetscReal *ri = i == 0 ? r1 : i == 1 ? r2
                                                 : r3;
      PetscReal        v  = ri[0] * f[3 * b] + ri[1] * f[3 * b + 1] + ri[2] * f[3 * b + 2];
      if (fd) v -= ri[0] * fd[3 * b] + ri[1] * fd[3 * b + 1] + ri[2] * fd[3 * b + 2];
      r[3 * b + i] = b < 2 ? -v : v;
    }
  PetscFunctionReturn(0);
}

/* Tangent K (12 x 12, row-major): derivative of the internal force with respect to the translations and the
   spatial spins, by complex step. */
PetscErrorCode FlxCorotBeamTangent(const PetscReal X0[], const PetscReal u[], const PetscReal R[], const FlxSectionProps *p, PetscReal K[], char err[], size_t len)
{
  const PetscReal  h = 1e-30;
  FlxCorotBeamData cd;
  PetscReal        s[24];
  double complex   sc[24], fc[12], e;

  PetscFunctionBegin;
  {
    PetscErrorCode ierr = FlxCorotBeamSetUp(X0, p, &cd, err, len);
    if (ierr) PetscFunctionReturn(ierr);
  }
  NodeStates(X0, u, R, s);
  for (int j = 0; j < 12; j++) {
    int a = j / 6, k = j % 6, code;
    for (int i = 0; i < 24; i++)
      sc[i] = s[i];
    if (k < 3)
      sc[12 * a + k] += I * h;
    else { /* R_a + i h skew(e_k) R_a */
      PetscReal S[9], w[3] = {0, 0, 0};
      w[k - 3] = 1;
      FlxRotSkew(w, S);
      for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
          sc[12 * a + 3 + 3 * r + c] += I * h * (S[3 * r] * R[9 * a + c] + S[3 * r + 1] * R[9 * a + 3 + c] + S[3 * r + 2] * R[9 * a + 6 + c]);
    }
    code = CplxCorotForce(&cd, sc, sc + 12, fc, &e);
    if (code) {
      FlxCorotBeamReason(code, err, len);
      PetscFunctionReturn(PETSC_ERR_USER_INPUT);
    }
    for (int i = 0; i < 12; i++)
      K[12 * i + j] = cimag(fc[i]) / h;
  }
  PetscFunctionReturn(0);
}
