/* The manufactured rigid-body rotation shared by test_gcd_rotation.c and test_alpha_rotation.c: one node (6 DOFs)
   with a spherical rotary inertia j turned by the external moment m(t) = j p x (exp(skew(p t)) q), whose exact
   motion is R(t) = exp(skew(p t)) exp(skew(q t)), omega(t) = p + exp(skew(p t)) q. The system's callbacks: the moment
   and its rate, a zero internal force, and the configuration update of a model (translations add, rotation vectors
   compose with spatial increments). */
#pragma once
#include <flexure/flexure.h>
#include <flexure/rotation.h>

typedef struct {
  PetscReal p[3], q[3], j;
} RotMotion;

static void Cross(const PetscReal a[3], const PetscReal b[3], PetscReal c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

/* exp(skew(p t)) q */
static void TurnedQ(const RotMotion *mo, PetscReal t, PetscReal out[3])
{
  PetscReal R[9], pt[3] = {mo->p[0] * t, mo->p[1] * t, mo->p[2] * t};
  FlxRotExp(pt, R);
  for (int i = 0; i < 3; i++)
    out[i] = R[3 * i] * mo->q[0] + R[3 * i + 1] * mo->q[1] + R[3 * i + 2] * mo->q[2];
}

static PetscErrorCode External(FlxSystem sys, PetscReal t, Vec f, void *ctx)
{
  RotMotion  *mo = (RotMotion *)ctx;
  PetscReal   eq[3], m[3];
  PetscScalar a[6] = {0, 0, 0, 0, 0, 0};

  PetscFunctionBegin;
  TurnedQ(mo, t, eq);
  Cross(mo->p, eq, m);
  for (int k = 0; k < 3; k++)
    a[3 + k] = mo->j * m[k];
  PetscCall(VecZeroEntries(f));
  for (PetscInt i = 0; i < 6; i++)
    PetscCall(VecSetValue(f, i, a[i], INSERT_VALUES));
  PetscCall(VecAssemblyBegin(f));
  PetscCall(VecAssemblyEnd(f));
  PetscFunctionReturn(0);
}

/* d m / dt = j p x (p x exp(skew(p t)) q) */
static PetscErrorCode ExternalRate(FlxSystem sys, PetscReal t, Vec f, void *ctx)
{
  RotMotion  *mo = (RotMotion *)ctx;
  PetscReal   eq[3], m1[3], m2[3];
  PetscScalar a[6] = {0, 0, 0, 0, 0, 0};

  PetscFunctionBegin;
  TurnedQ(mo, t, eq);
  Cross(mo->p, eq, m1);
  Cross(mo->p, m1, m2);
  for (int k = 0; k < 3; k++)
    a[3 + k] = mo->j * m2[k];
  PetscCall(VecZeroEntries(f));
  for (PetscInt i = 0; i < 6; i++)
    PetscCall(VecSetValue(f, i, a[i], INSERT_VALUES));
  PetscCall(VecAssemblyBegin(f));
  PetscCall(VecAssemblyEnd(f));
  PetscFunctionReturn(0);
}

static PetscErrorCode Internal(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(VecZeroEntries(f));
  PetscFunctionReturn(0);
}

/* translations add, rotation vectors compose with spatial increments (what a model's update does) */
static PetscErrorCode Update(FlxSystem sys, Vec x, Vec dx, Vec xnew, void *ctx)
{
  const PetscScalar *d;
  PetscScalar       *xa, *na;
  PetscReal          psi[3], pn[3];

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(dx, &d));
  PetscCall(VecGetArray(x, &xa));
  for (int k = 0; k < 3; k++)
    psi[k] = xa[3 + k];
  FlxRotUpdate(psi, d + 3, pn);
  PetscCall(VecRestoreArray(x, &xa));
  if (xnew != x) PetscCall(VecCopy(x, xnew));
  PetscCall(VecGetArray(xnew, &na));
  for (int k = 0; k < 3; k++) {
    na[k] += d[k];
    na[3 + k] = pn[k];
  }
  PetscCall(VecRestoreArray(xnew, &na));
  PetscCall(VecRestoreArrayRead(dx, &d));
  PetscFunctionReturn(0);
}

/* no stiffness: a zero tangent and strain energy (the mass term is the stepper's) */
