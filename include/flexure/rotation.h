/* Finite rotations: SO(3) exponential and logarithm, composition, the tangent operator of the rotation vector.
   Conventions (see docs/nonlinear.md): 3x3 matrices are row-major; a rotation vector psi = angle * axis with
   |psi| <= pi from the logarithm; R = exp(skew(psi)) (Rodrigues); spatial spins: a variation of R is
   dR = skew(dtheta) R, and dtheta = T(psi) dpsi. Plain functions, no PETSc objects: not collective. */
#pragma once
#include <petscsys.h>

/* c = a x b (c may alias neither). Not collective. */
static inline void FlxRotCross(const PetscReal a[3], const PetscReal b[3], PetscReal c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}
/* y = A x, A 3 x 3 row-major (y may not alias x). Not collective. */
static inline void FlxRotMatVec(const PetscReal A[9], const PetscReal x[3], PetscReal y[3])
{
  for (int i = 0; i < 3; i++)
    y[i] = A[3 * i] * x[0] + A[3 * i + 1] * x[1] + A[3 * i + 2] * x[2];
}
/* S = skew(v): S w = v x w. */
PETSC_EXTERN void FlxRotSkew(const PetscReal v[3], PetscReal S[9]);
/* R = exp(skew(psi)) (Rodrigues' formula, Taylor series of the coefficients below 1e-4 rad). */
PETSC_EXTERN void FlxRotExp(const PetscReal psi[3], PetscReal R[9]);
/* psi = log(R), |psi| <= pi, through the unit quaternion of R (Spurrier's algorithm), stable at 0 and at pi.
   At exactly pi either of the two opposite vectors may come out. R must be orthonormal. */
PETSC_EXTERN void FlxRotLog(const PetscReal R[9], PetscReal psi[3]);
/* Unit quaternion q = (q0, q1, q2, q3), q0 >= 0, of a rotation matrix (Spurrier, J. Guid. Control 1 (1978) 440). */
PETSC_EXTERN void FlxRotToQuaternion(const PetscReal R[9], PetscReal q[4]);
/* Row-major rotation matrix R of the unit quaternion q (q0 the scalar part): FlxRotToQuaternion's inverse. Not
   collective. */
PETSC_EXTERN void FlxRotFromQuaternion(const PetscReal q[4], PetscReal R[9]);
/* C = A B (C may alias neither). */
PETSC_EXTERN void FlxRotCompose(const PetscReal A[9], const PetscReal B[9], PetscReal C[9]);
/* psinew = log(exp(skew(dtheta)) exp(skew(psi))): a spatial increment dtheta applied to the rotation vector psi. */
PETSC_EXTERN void FlxRotUpdate(const PetscReal psi[3], const PetscReal dtheta[3], PetscReal psinew[3]);
/* T(psi) = I + (1 - cos a)/a^2 skew(psi) + (a - sin a)/a^3 skew(psi)^2, a = |psi|: the spatial spin of a
   variation of the rotation vector, dtheta = T(psi) dpsi (the left Jacobian of SO(3)). */
PETSC_EXTERN void FlxRotTangent(const PetscReal psi[3], PetscReal T[9]);
/* T(psi)^-1 = I - skew(psi)/2 + (1 - (a/2) cot(a/2))/a^2 skew(psi)^2, finite for a < 2 pi. */
PETSC_EXTERN void FlxRotTangentInverse(const PetscReal psi[3], PetscReal Ti[9]);
