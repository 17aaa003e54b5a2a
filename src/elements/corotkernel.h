/* Body of the co-rotational beam's internal force (corotbeam.c), written once for a scalar type FLX_S and
   included with PetscReal (the force; also by corotfast.c, whose SIMD lanes share its series and fall back on it)
   and with a C99 complex type (the tangent by complex-step differentiation). Every branch tests real parts only, so the complex version is the analytic continuation of the
   real one. The caller defines FLX_S, FLX_SQRT, FLX_ATAN, FLX_SIN, FLX_COS, FLX_RE and FLX_FN(name). */

static inline void FLX_FN(Cross)(const FLX_S a[3], const FLX_S b[3], FLX_S c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static inline FLX_S FLX_FN(Dot)(const FLX_S a[3], const FLX_S b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Where the kernels use the series below (else atan, cot): y2, the squared tangent of half a local rotation, below
   0.005 (local rotations below 0.141 rad, 8.1 degrees), and a2, the squared local rotation, below 0.02. An element's
   ends turn against its chord by far less in a mesh that resolves the deformation; corotfast.c's SIMD lanes take
   these branches and leave larger local rotations to the general kernel. */
#define FLX_COROT_Y2_SERIES 0.005
#define FLX_COROT_A2_SERIES 0.02

/* atan(y)/y as a function of y2 = y^2, by its series sum_k (-1)^k y2^k / (2k + 1), k <= 6 (y2 < 0.005: truncation
   y2^7/15 = 5.2e-18), in Estrin's scheme: pairs of terms combined by y2^2 and y2^4, so that the chain of
   dependent operations is 3 long instead of Horner's 6 (the co-rotational kernel waits on it). */
static inline FLX_S FLX_FN(AtanRatio)(FLX_S y2)
{
  FLX_S z2 = y2 * y2, z4 = z2 * z2;
  FLX_S p0 = 1 - y2 * (1.0 / 3), p1 = 1.0 / 5 - y2 * (1.0 / 7), p2 = 1.0 / 9 - y2 * (1.0 / 11);
  return (p0 + z2 * p1) + z4 * (p2 + z2 * (1.0 / 13));
}

/* (1 - (a/2) cot(a/2)) / a^2 as a function of a2 = a^2, by its series sum_k |B_2k| a^(2k-2) / (2k)!, k <= 5
   (a2 < 0.02: relative truncation below 3e-17; B the Bernoulli numbers), in Estrin's scheme. */
static inline FLX_S FLX_FN(CotSeries)(FLX_S a2)
{
  FLX_S b2 = a2 * a2;
  FLX_S p0 = 1.0 / 12 + a2 * (1.0 / 720), p1 = 1.0 / 30240 + a2 * (1.0 / 1209600);
  return (p0 + b2 * p1) + (b2 * b2) * (1.0 / 47900160);
}

/* Rotation vector of a rotation matrix of angle below pi (Spurrier's quaternion, as FlxRotLog), analytic in R:
   the factor angle / |q_v| = 2 atan(y) / (y q0), y^2 = y2 = |q_v|^2 / q0^2, with atan(y)/y by its series below
   FLX_COROT_Y2_SERIES, else by atan. With a dominant trace and the series, the quaternion cancels: q_v = dv / (4 q0),
   dv the antisymmetric part's axial vector (R7 - R5, R2 - R6, R3 - R1), and 4 q0^2 = 1 + tr, so y2 = |dv|^2 w^2 and
   psi = 2 w (atan(y)/y) dv with w = 1 / (1 + tr): a division and no square root. corotfast.c repeats that branch
   (rearranged: its BatchForce): keep the two in step. */
static inline void FLX_FN(Log)(const FLX_S R[9], FLX_S psi[3])
{
  FLX_S     q[4], s2, y2, f, h, iq, tr = R[0] + R[4] + R[8];
  PetscReal m = FLX_RE(tr);
  int       k = -1;

  for (int i = 0; i < 3; i++)
    if (FLX_RE(R[4 * i]) > m) {
      m = FLX_RE(R[4 * i]);
      k = i;
    }
  if (k < 0) {
    FLX_S w = 1 / (1 + tr), dv[3] = {R[7] - R[5], R[2] - R[6], R[3] - R[1]};
    y2 = FLX_FN(Dot)(dv, dv) * (w * w);     /* tan^2 of half the angle: |q_v|^2 / q0^2, q0^2 = (1 + tr) / 4 */
    if (FLX_RE(y2) < FLX_COROT_Y2_SERIES) { /* psi = 2 atan(y) / (y q0) q_v = 2 w (atan(y) / y) dv, no square root */
      f = 2 * w * FLX_FN(AtanRatio)(y2);
      for (int c = 0; c < 3; c++)
        psi[c] = f * dv[c];
      return;
    }
    q[0] = 0.5 * FLX_SQRT(1 + tr);
    h    = 0.25 / q[0];
    q[1] = (R[7] - R[5]) * h;
    q[2] = (R[2] - R[6]) * h;
    q[3] = (R[3] - R[1]) * h;
  } else {
    int   j = (k + 1) % 3, l = (k + 2) % 3;
    FLX_S qk = FLX_SQRT(0.5 * R[4 * k] + 0.25 * (1 - tr));
    h        = 0.25 / qk;
    q[1 + k] = qk;
    q[0]     = (R[3 * l + j] - R[3 * j + l]) * h;
    q[1 + j] = (R[3 * j + k] + R[3 * k + j]) * h;
    q[1 + l] = (R[3 * l + k] + R[3 * k + l]) * h;
    if (FLX_RE(q[0]) < 0)
      for (int c = 0; c < 4; c++)
        q[c] = -q[c];
  }
  iq = 1 / q[0];
  s2 = q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  y2 = s2 * (iq * iq);
  if (FLX_RE(y2) < FLX_COROT_Y2_SERIES)
    f = 2 * iq * FLX_FN(AtanRatio)(y2);
  else {
    FLX_S s = FLX_SQRT(s2);
    f       = 2 * FLX_ATAN(s * iq) / s;
  }
  for (int c = 0; c < 3; c++)
    psi[c] = f * q[1 + c];
}

/* mt = T(psi)^-T m = m + psi x m / 2 + c psi x (psi x m), c = (1 - (a/2) cot(a/2)) / a^2 (FlxRotTangentInverse);
   below a^2 = FLX_COROT_A2_SERIES c by its series (CotSeries). */
static inline void FLX_FN(TinvT)(const FLX_S psi[3], const FLX_S m[3], FLX_S mt[3])
{
  FLX_S a2 = FLX_FN(Dot)(psi, psi), c, pm[3], ppm[3];

  if (FLX_RE(a2) < FLX_COROT_A2_SERIES)
    c = FLX_FN(CotSeries)(a2);
  else {
    FLX_S a = FLX_SQRT(a2);
    c       = (1 - 0.5 * a * FLX_COS(0.5 * a) / FLX_SIN(0.5 * a)) / a2;
  }
  FLX_FN(Cross)
  (psi, m, pm);
  FLX_FN(Cross)
  (psi, pm, ppm);
  for (int i = 0; i < 3; i++)
    mt[i] = m[i] + 0.5 * pm[i] + c * ppm[i];
}

/* Internal force f (12: force and moment at node 1, then node 2, global axes, conjugate to the spatial spins) and
   strain energy of the co-rotational beam with constant data cd (FlxCorotBeamData) at the nodal states n1, n2 (12
   each: current position, then the rotation matrix row-major). Returns 1 when the chord is shorter than 1e-8 of the
   initial length, 2 when the co-rotational frame degenerates (the mean nodal y axis turns into the chord), 3 when an
   end turned over (its local rotation against the co-rotated frame beyond 0.9 pi, where the logarithm nears its wrap
   and the element's small local rotations are long gone). See corotbeam.c for the equations. */
static inline int FLX_FN(CorotForce)(const FlxCorotBeamData *cd, const FLX_S n1[12], const FLX_S n2[12], FLX_S f[12], FLX_S *energy)
{
  const FLX_S *R[2] = {n1 + 3, n2 + 3};
  FLX_S        d[3], r1[3], r2[3], r3[3], qn[2][3], q[3], ln, il, n3, th[2][3], p[7], fl[7], mt[2][3], s[3], qx, qy, iqy, g;

  for (int c = 0; c < 3; c++)
    d[c] = n2[c] - n1[c];
  ln = FLX_SQRT(FLX_FN(Dot)(d, d));
  if (!(FLX_RE(ln) > 1e-8 * cd->l0)) return 1;
  il = 1 / ln;
  for (int c = 0; c < 3; c++)
    r1[c] = d[c] * il;
  for (int a = 0; a < 2; a++) /* q_a = R_a e2: the nodal triad's y axis (eq. (C2)) */
    for (int i = 0; i < 3; i++)
      qn[a][i] = R[a][3 * i] * cd->E[3] + R[a][3 * i + 1] * cd->E[4] + R[a][3 * i + 2] * cd->E[5];
  for (int c = 0; c < 3; c++)
    q[c] = 0.5 * (qn[0][c] + qn[1][c]);
  FLX_FN(Cross)
  (r1, q, r3);
  n3 = FLX_SQRT(FLX_FN(Dot)(r3, r3));
  if (!(FLX_RE(n3) > 1e-6)) return 2;
  n3 = 1 / n3;
  for (int c = 0; c < 3; c++)
    r3[c] *= n3;
  FLX_FN(Cross)
  (r3, r1, r2);
  qx  = FLX_FN(Dot)(r1, q);
  qy  = FLX_FN(Dot)(r2, q);
  iqy = 1 / qy;
  for (int a = 0; a < 2; a++) { /* local rotation: Rbar_a = Rr^T R_a E^T (eq. (C3)), theta_a = log(Rbar_a) */
    FLX_S Rb[9], Te[9];
    for (int i = 0; i < 3; i++) /* columns of R_a E^T: the nodal triad */
      for (int b = 0; b < 3; b++)
        Te[3 * i + b] = R[a][3 * i] * cd->E[3 * b] + R[a][3 * i + 1] * cd->E[3 * b + 1] + R[a][3 * i + 2] * cd->E[3 * b + 2];
    for (int i = 0; i < 3; i++) {
      const FLX_S *ri = i == 0 ? r1 : i == 1 ? r2
                                             : r3;
      for (int b = 0; b < 3; b++)
        Rb[3 * i + b] = ri[0] * Te[b] + ri[1] * Te[3 + b] + ri[2] * Te[6 + b];
    }
    FLX_FN(Log)
    (Rb, th[a]);
    if (!(FLX_RE(FLX_FN(Dot)(th[a], th[a])) < 0.81 * PETSC_PI * PETSC_PI)) return 3; /* turned over: |theta| beyond 0.9 pi */
  }
  p[0] = ln - cd->l0;
  for (int c = 0; c < 3; c++) {
    p[1 + c] = th[0][c];
    p[4 + c] = th[1][c];
  }
  /* local force of the linear element, f_l = K_l p (eq. (C4)); K_l's nonzero entries (FlxCorotBeamData.k) */
  fl[0]   = cd->k[0] * p[0];
  fl[1]   = cd->k[1] * p[1] - cd->k[1] * p[4];
  fl[2]   = cd->k[2] * p[2] + cd->k[3] * p[5];
  fl[3]   = cd->k[4] * p[3] + cd->k[5] * p[6];
  fl[4]   = -cd->k[1] * p[1] + cd->k[1] * p[4];
  fl[5]   = cd->k[3] * p[2] + cd->k[2] * p[5];
  fl[6]   = cd->k[5] * p[3] + cd->k[4] * p[6];
  *energy = 0.5 * ((p[0] * fl[0] + (p[1] * fl[1] + p[2] * fl[2] + p[3] * fl[3])) + (p[4] * fl[4] + p[5] * fl[5] + p[6] * fl[6])); /* p . K_l p / 2 */
  FLX_FN(TinvT)
  (th[0], fl + 1, mt[0]); /* moments conjugate to the local spins (eq. (C5)) */
  FLX_FN(TinvT)
  (th[1], fl + 4, mt[1]);
  for (int c = 0; c < 3; c++)
    s[c] = mt[0][c] + mt[1][c];
  g = (s[0] * qx * iqy + s[1]) * il; /* eq. (C7) */
  for (int c = 0; c < 3; c++) {
    f[6 + c] = fl[0] * r1[c] + g * r3[c] - s[2] * il * r2[c];
    f[c]     = -f[6 + c];
  }
  for (int a = 0; a < 2; a++) {
    FLX_S qr[3];
    FLX_FN(Cross)
    (qn[a], r3, qr);
    for (int c = 0; c < 3; c++)
      f[6 * a + 3 + c] = r1[c] * mt[a][0] + r2[c] * mt[a][1] + r3[c] * mt[a][2] - s[0] * 0.5 * iqy * qr[c];
  }
  return 0;
}

/* For the section forces (corotbeam.c), not for the force above, whose code stays as it is so that its results, and
   those of its complex-step tangent (compiled with FMA contraction), do not move by round-off: the same steps.
   The co-rotated frame and the local deformations of the element with constant data cd at the nodal states n1, n2
   (12 each: current position, then the rotation matrix row-major), eqs. (C2), (C3): the chord length ln and its
   inverse il, the frame's axes r1, r2, r3, the nodal triads' y axes qn, their mean q with its components qx, qy along
   r1, r2 and 1/qy, and the local rotations th.
   Returns 1 when the chord is shorter than 1e-8 of the initial length, 2 when the co-rotational frame degenerates
   (the mean nodal y axis turns into the chord), 3 when an end turned over (its local rotation against the
   co-rotated frame beyond 0.9 pi, where the logarithm nears its wrap and the element's small local rotations are
   long gone). */
static inline int FLX_FN(CorotLocal)(const FlxCorotBeamData *cd, const FLX_S n1[12], const FLX_S n2[12], FLX_S *ln, FLX_S *il, FLX_S r1[3], FLX_S r2[3], FLX_S r3[3], FLX_S qn[2][3], FLX_S q[3], FLX_S *qx, FLX_S *qy, FLX_S *iqy, FLX_S th[2][3])
{
  const FLX_S *R[2] = {n1 + 3, n2 + 3};
  FLX_S        d[3], n3;

  for (int c = 0; c < 3; c++)
    d[c] = n2[c] - n1[c];
  *ln = FLX_SQRT(FLX_FN(Dot)(d, d));
  if (!(FLX_RE(*ln) > 1e-8 * cd->l0)) return 1;
  *il = 1 / *ln;
  for (int c = 0; c < 3; c++)
    r1[c] = d[c] * *il;
  for (int a = 0; a < 2; a++) /* q_a = R_a e2: the nodal triad's y axis (eq. (C2)) */
    for (int i = 0; i < 3; i++)
      qn[a][i] = R[a][3 * i] * cd->E[3] + R[a][3 * i + 1] * cd->E[4] + R[a][3 * i + 2] * cd->E[5];
  for (int c = 0; c < 3; c++)
    q[c] = 0.5 * (qn[0][c] + qn[1][c]);
  FLX_FN(Cross)
  (r1, q, r3);
  n3 = FLX_SQRT(FLX_FN(Dot)(r3, r3));
  if (!(FLX_RE(n3) > 1e-6)) return 2;
  n3 = 1 / n3;
  for (int c = 0; c < 3; c++)
    r3[c] *= n3;
  FLX_FN(Cross)
  (r3, r1, r2);
  *qx  = FLX_FN(Dot)(r1, q);
  *qy  = FLX_FN(Dot)(r2, q);
  *iqy = 1 / *qy;
  for (int a = 0; a < 2; a++) { /* local rotation: Rbar_a = Rr^T R_a E^T (eq. (C3)), theta_a = log(Rbar_a) */
    FLX_S Rb[9], Te[9];
    for (int i = 0; i < 3; i++) /* columns of R_a E^T: the nodal triad */
      for (int b = 0; b < 3; b++)
        Te[3 * i + b] = R[a][3 * i] * cd->E[3 * b] + R[a][3 * i + 1] * cd->E[3 * b + 1] + R[a][3 * i + 2] * cd->E[3 * b + 2];
    for (int i = 0; i < 3; i++) {
      const FLX_S *ri = i == 0 ? r1 : i == 1 ? r2
                                             : r3;
      for (int b = 0; b < 3; b++)
        Rb[3 * i + b] = ri[0] * Te[b] + ri[1] * Te[3 + b] + ri[2] * Te[6 + b];
    }
    FLX_FN(Log)
    (Rb, th[a]);
    if (!(FLX_RE(FLX_FN(Dot)(th[a], th[a])) < 0.81 * PETSC_PI * PETSC_PI)) return 3; /* turned over: |theta| beyond 0.9 pi */
  }
  return 0;
}
