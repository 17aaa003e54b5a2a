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
#include <flexure/rotation.h>
#include "gcd.h"

void FlxGCDMagnusIncrement(PetscInt n, PetscReal e, const PetscReal *V, const PetscReal *A, const PetscReal *J, PetscReal *D)
{
  const PetscReal c3 = e * e * e / 12, c4 = e * e * e * e / 24;

  for (PetscInt b = 0; b + 6 <= n; b += 6) {
    PetscReal wa[3], wj[3] = {0, 0, 0};
    FlxRotCross(V + b + 3, A + b + 3, wa);
    if (J) FlxRotCross(V + b + 3, J + b + 3, wj);
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

PetscErrorCode FlxGCDTensorsSetUp(FlxSystem sys, FlxGCDTensors *t, PetscBool *has)
{
  PetscFunctionBegin;
  PetscCall(FlxGCDTensorsDestroy(t));
  PetscCall(FlxSystemGetInertiaTensors(sys, &t->n, &t->dof, has));
  if (*has) PetscCall(PetscMalloc3(9 * t->n + 1, &t->Js, 3 * t->n + 1, &t->dold, 27 * t->n + 1, &t->blk));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxGCDTensorsDestroy(FlxGCDTensors *t)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(t->Js, t->dold, t->blk));
  t->n   = 0;
  t->dof = NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxGCDTensorsLedgerBefore(FlxSystem sys, FlxGCDTensors *t, Vec X, Vec D)
{
  const PetscScalar *d;

  PetscFunctionBegin;
  if (!t->n) PetscFunctionReturn(0);
  PetscCall(FlxSystemComputeInertiaTensors(sys, X, t->Js));
  PetscCall(VecGetArrayRead(D, &d));
  for (PetscInt k = 0; k < t->n; k++)
    for (int e = 0; e < 3; e++)
      t->dold[3 * k + e] = d[t->dof[k] + e];
  PetscCall(VecRestoreArrayRead(D, &d));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxGCDTensorsLedgerAfter(FlxGCDTensors *t, PetscReal aM, Vec Minv, Vec D, Vec V, Vec A, Vec F, Vec G, PetscReal lsum[4])
{
  const PetscScalar *mi, *d, *v, *a, *f, *g;

  PetscFunctionBegin;
  if (!t->n) PetscFunctionReturn(0);
  PetscCall(VecGetArrayRead(Minv, &mi));
  PetscCall(VecGetArrayRead(D, &d));
  PetscCall(VecGetArrayRead(V, &v));
  PetscCall(VecGetArrayRead(A, &a));
  PetscCall(VecGetArrayRead(F, &f));
  PetscCall(VecGetArrayRead(G, &g));
  for (PetscInt k = 0; k < t->n; k++) {
    const PetscInt   i = t->dof[k];
    const PetscReal *J = t->Js + 9 * k, *dold = t->dold + 3 * k;
    PetscReal        dn[3] = {d[i], d[i + 1], d[i + 2]}, vn[3] = {v[i], v[i + 1], v[i + 2]}, Jo[3], Jn[3], Jv[3];
    FlxRotMatVec(J, dold, Jo);
    FlxRotMatVec(J, dn, Jn);
    FlxRotMatVec(J, vn, Jv);
    for (int e = 0; e < 3; e++) {
      const PetscReal m = mi[i + e] > 0 ? 1 / mi[i + e] : 0;
      lsum[0] += dold[e] * Jo[e] + dn[e] * Jn[e] - m * (dold[e] * dold[e] + dn[e] * dn[e]);
      lsum[3] += (dn[e] + dold[e]) * (aM * Jv[e] - (f[i + e] - g[i + e] - m * a[i + e]));
    }
  }
  PetscCall(VecRestoreArrayRead(G, &g));
  PetscCall(VecRestoreArrayRead(F, &f));
  PetscCall(VecRestoreArrayRead(A, &a));
  PetscCall(VecRestoreArrayRead(V, &v));
  PetscCall(VecRestoreArrayRead(D, &d));
  PetscCall(VecRestoreArrayRead(Minv, &mi));
  PetscFunctionReturn(0);
}

void FlxGCDTensorsMult(const FlxGCDTensors *t, PetscReal aM, PetscReal s, const PetscScalar d[], const PetscScalar x[], PetscScalar y[])
{
  for (PetscInt k = 0; k < t->n; k++) {
    const PetscInt   i = t->dof[k];
    const PetscReal *J = t->blk + 27 * k, *Kv = J + 18;
    for (int r = 0; r < 3; r++) {
      PetscReal sum = -d[i + r] * x[i + r];
      for (int c = 0; c < 3; c++)
        sum += ((1 + aM * s) * J[3 * r + c] + s * Kv[3 * r + c]) * x[i + c];
      y[i + r] += sum;
    }
  }
}
