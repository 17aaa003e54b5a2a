/* Finite rotations (include/flexure/rotation.h). Formulas: Rodrigues' formula; the quaternion of a rotation
   matrix by Spurrier's algorithm (the largest of q0^2 and the qi^2 is computed from the diagonal, the others
   from off-diagonal sums and differences, so that no division by a small number occurs); the tangent operator of
   the rotation vector and its inverse as in Ibrahimbegovic, Frey and Kozar, Int. J. Numer. Meth. Eng. 38 (1995)
   3653, eqs. (12), (15) (written for spatial spins, i.e. the left Jacobian). */
#include <flexure/rotation.h>

void FlxRotSkew(const PetscReal v[3], PetscReal S[9])
{
  S[0] = 0;
  S[1] = -v[2];
  S[2] = v[1];
  S[3] = v[2];
  S[4] = 0;
  S[5] = -v[0];
  S[6] = -v[1];
  S[7] = v[0];
  S[8] = 0;
}

/* Coefficients of Rodrigues' formula: a1 = sin(a)/a, a2 = (1 - cos a)/a^2, a3 = (a - sin a)/a^3 (Taylor near 0). */
static void Coefficients(PetscReal a, PetscReal *a1, PetscReal *a2, PetscReal *a3)
{
  PetscReal a2s = a * a;

  if (a < 1e-4) {
    *a1 = 1 - a2s / 6 * (1 - a2s / 20);
    *a2 = 0.5 - a2s / 24 * (1 - a2s / 30);
    *a3 = 1.0 / 6 - a2s / 120 * (1 - a2s / 42);
  } else {
    *a1 = PetscSinReal(a) / a;
    *a2 = (1 - PetscCosReal(a)) / a2s;
    *a3 = (a - PetscSinReal(a)) / (a2s * a);
  }
}

/* M = I + c1 S + c2 S^2 with S = skew(v). */
static void Series(const PetscReal v[3], PetscReal c1, PetscReal c2, PetscReal M[9])
{
  PetscReal S[9];

  FlxRotSkew(v, S);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      PetscReal s2 = v[i] * v[j] - (i == j ? v[0] * v[0] + v[1] * v[1] + v[2] * v[2] : 0); /* S^2 = v v^T - |v|^2 I */
      M[3 * i + j] = (i == j ? 1 : 0) + c1 * S[3 * i + j] + c2 * s2;
    }
}

void FlxRotExp(const PetscReal psi[3], PetscReal R[9])
{
  PetscReal a = PetscSqrtReal(psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2]), a1, a2, a3;

  Coefficients(a, &a1, &a2, &a3);
  Series(psi, a1, a2, R);
}

void FlxRotToQuaternion(const PetscReal R[9], PetscReal q[4])
{
  PetscReal tr = R[0] + R[4] + R[8], m = tr;
  int       k = -1;

  for (int i = 0; i < 3; i++)
    if (R[4 * i] > m) {
      m = R[4 * i];
      k = i;
    }
  if (k < 0) {
    q[0] = 0.5 * PetscSqrtReal(1 + tr);
    q[1] = (R[7] - R[5]) / (4 * q[0]);
    q[2] = (R[2] - R[6]) / (4 * q[0]);
    q[3] = (R[3] - R[1]) / (4 * q[0]);
  } else {
    int       j = (k + 1) % 3, l = (k + 2) % 3;
    PetscReal qk = PetscSqrtReal(0.5 * R[4 * k] + 0.25 * (1 - tr));
    q[1 + k]     = qk;
    q[0]         = (R[3 * l + j] - R[3 * j + l]) / (4 * qk);
    q[1 + j]     = (R[3 * j + k] + R[3 * k + j]) / (4 * qk);
    q[1 + l]     = (R[3 * l + k] + R[3 * k + l]) / (4 * qk);
    if (q[0] < 0)
      for (int c = 0; c < 4; c++)
        q[c] = -q[c];
  }
}

void FlxRotFromQuaternion(const PetscReal q[4], PetscReal R[9])
{
  const PetscReal w = q[0], x = q[1], y = q[2], z = q[3];

  R[0] = 1 - 2 * (y * y + z * z);
  R[1] = 2 * (x * y - w * z);
  R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z);
  R[4] = 1 - 2 * (x * x + z * z);
  R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y);
  R[7] = 2 * (y * z + w * x);
  R[8] = 1 - 2 * (x * x + y * y);
}

void FlxRotLog(const PetscReal R[9], PetscReal psi[3])
{
  PetscReal q[4], s, a, f;

  FlxRotToQuaternion(R, q);
  s = PetscSqrtReal(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  a = 2 * PetscAtan2Real(s, q[0]); /* in [0, pi] since q0 >= 0 */
  if (s < 1e-8)
    f = 2 / q[0] * (1 - s * s / (3 * q[0] * q[0])); /* a / s = 2 atan(s/q0)/s */
  else
    f = a / s;
  for (int c = 0; c < 3; c++)
    psi[c] = f * q[1 + c];
}

void FlxRotCompose(const PetscReal A[9], const PetscReal B[9], PetscReal C[9])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

void FlxRotUpdate(const PetscReal psi[3], const PetscReal dtheta[3], PetscReal psinew[3])
{
  PetscReal R[9], D[9], C[9];

  FlxRotExp(psi, R);
  FlxRotExp(dtheta, D);
  FlxRotCompose(D, R, C);
  FlxRotLog(C, psinew);
}

void FlxRotTangent(const PetscReal psi[3], PetscReal T[9])
{
  PetscReal a = PetscSqrtReal(psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2]), a1, a2, a3;

  Coefficients(a, &a1, &a2, &a3);
  Series(psi, a2, a3, T);
}

void FlxRotTangentInverse(const PetscReal psi[3], PetscReal Ti[9])
{
  PetscReal a = PetscSqrtReal(psi[0] * psi[0] + psi[1] * psi[1] + psi[2] * psi[2]), c;

  if (a < 1e-4)
    c = 1.0 / 12 + a * a / 720; /* (1 - (a/2) cot(a/2))/a^2 */
  else
    c = (1 - 0.5 * a * PetscCosReal(0.5 * a) / PetscSinReal(0.5 * a)) / (a * a);
  Series(psi, -0.5, c, Ti);
}
