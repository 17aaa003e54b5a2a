/* Finite rotations in the GCD steppers (time-integration.md 1, "Finite rotations"; docs/nonlinear.md).

   A system with a configuration update (FlxSystemSetConfigurationUpdate) carries 6 DOFs per node: translations,
   then the rotation vector psi of the node's frame (x) and the spatial angular velocity omega and its
   derivatives (v, a, j, s). The fused kernel integrates omega like any other velocity: the rotational part of
   its increment D is D_rot = int_{t_n}^{t_n + h} omega dt to the order of the method. Rotations do not commute,
   so that integral is not the rotation increment. For R' = skew(omega) R the increment is
   R_{n+1} = exp(skew(Theta)) R_n with Theta the Magnus series (Iserles and Norsett 1999); with
   omega(t_n + t) = w + t a + t^2/2 j + t^3/6 s and [skew(p), skew(q)] = skew(p x q):

       Theta = int omega dt - h^3/12 w x a - h^4/24 w x j + O(h^5)

   (the second Magnus term 1/2 int int [A(t1), A(t2)]; the third has no h^4 part: its w x (w x a) terms integrate
   to zero). Without the correction the increment is off by O(h^3) per step, and degrees 4 and 5 fall to
   second order on rotations (test gcd_rotation_orders). */
#include <flexure/private/stepperimpl.h>
#include "gcd.h"

static inline void Cross(const PetscReal p[3], const PetscReal q[3], PetscReal r[3])
{
  r[0] = p[1] * q[2] - p[2] * q[1];
  r[1] = p[2] * q[0] - p[0] * q[2];
  r[2] = p[0] * q[1] - p[1] * q[0];
}

void FlxGCDMagnusIncrement(PetscInt n, PetscReal e, const PetscReal *V, const PetscReal *A, const PetscReal *J, PetscReal *D)
{
  const PetscReal c3 = e * e * e / 12, c4 = e * e * e * e / 24;

  for (PetscInt b = 0; b + 6 <= n; b += 6) {
    PetscReal wa[3], wj[3] = {0, 0, 0};
    Cross(V + b + 3, A + b + 3, wa);
    if (J) Cross(V + b + 3, J + b + 3, wj);
    for (int k = 0; k < 3; k++)
      D[b + 3 + k] -= c3 * wa[k] + c4 * wj[k];
  }
}

PetscErrorCode FlxGCDComposeIncrement(FlxSystem sys, PetscBool magnus, PetscReal e, Vec V, Vec A, Vec J, Vec D, Vec X0, Vec X)
{
  PetscFunctionBegin;
  if (magnus) {
    const PetscScalar *v, *a, *j = NULL;
    PetscScalar       *d;
    PetscInt           n;
    PetscCall(VecGetLocalSize(D, &n));
    PetscCall(VecGetArrayRead(V, &v));
    PetscCall(VecGetArrayRead(A, &a));
    if (J) PetscCall(VecGetArrayRead(J, &j));
    PetscCall(VecGetArray(D, &d));
    FlxGCDMagnusIncrement(n, e, v, a, j, d);
    PetscCall(VecRestoreArray(D, &d));
    if (J) PetscCall(VecRestoreArrayRead(J, &j));
    PetscCall(VecRestoreArrayRead(A, &a));
    PetscCall(VecRestoreArrayRead(V, &v));
    PetscCall(PetscLogFlops(15.0 * n / 6));
  }
  PetscCall(FlxSystemUpdateConfiguration(sys, X0, D, X));
  PetscFunctionReturn(0);
}
