/* Nodal rotary inertia tensors of a FlxSystem (include/flexure/system.h; docs/nonlinear.md "Rotary inertia").

   A node with a full rotary inertia J0 (material frame) has the spatial inertia J = R J0 R^T and the rotational
   equations of Euler in spatial form, d(J omega)/dt = m, i.e. (with mass-proportional damping a_M)

       g(x, v, a) = J (a + a_M v) + v x J v = m      (v = omega, a = omega'),

   since dJ/dt omega = omega x J omega - J (omega x omega). Its derivatives with respect to the spatial rotation
   increment dtheta of the node (J -> J + skew(dtheta) J - J skew(dtheta)) and to v:

       dg/dtheta = -skew(J b) + J skew(b) + skew(v) (J skew(v) - skew(J v)),   b = a + a_M v,
       dg/dv     = a_M J + skew(v) J - skew(J v).

   The conditionally explicit steps (GCD) solve g(x, w + c a, a) = r for a node by node: the gyroscopic force is
   local to the node, so this 3 x 3 nonlinear solve is exact (Newton to round-off) whatever the gyroscopic
   frequency |J^-1 (skew(v) J - skew(J v))| against the step, which a fixed point on the whole system would need
   to resolve. */
#include <flexure/rotation.h>
#include "inertia.h"

PetscErrorCode FlxInertiaDestroy(FlxInertia *in)
{
  PetscFunctionBegin;
  if (!*in) PetscFunctionReturn(0);
  PetscCall(PetscFree3((*in)->dof, (*in)->J0, (*in)->Js));
  PetscCall(PetscFree(*in));
  PetscFunctionReturn(0);
}

/* C = A B (3 x 3, row-major) */
static inline void MatMat3(const PetscReal A[9], const PetscReal B[9], PetscReal C[9])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

/* x = A^-1 b by cofactors; PETSC_FALSE when A is singular to round-off. */
static PetscBool Solve3(const PetscReal A[9], const PetscReal b[3], PetscReal x[3])
{
  PetscReal C[9], det, nrm = 0;

  C[0] = A[4] * A[8] - A[5] * A[7], C[1] = A[2] * A[7] - A[1] * A[8], C[2] = A[1] * A[5] - A[2] * A[4];
  C[3] = A[5] * A[6] - A[3] * A[8], C[4] = A[0] * A[8] - A[2] * A[6], C[5] = A[2] * A[3] - A[0] * A[5];
  C[6] = A[3] * A[7] - A[4] * A[6], C[7] = A[1] * A[6] - A[0] * A[7], C[8] = A[0] * A[4] - A[1] * A[3];
  det = A[0] * C[0] + A[1] * C[3] + A[2] * C[6];
  for (int i = 0; i < 9; i++)
    nrm = PetscMax(nrm, PetscAbsReal(A[i]));
  if (!(PetscAbsReal(det) > 1e-14 * nrm * nrm * nrm)) return PETSC_FALSE;
  FlxRotMatVec(C, b, x);
  for (int i = 0; i < 3; i++)
    x[i] /= det;
  return PETSC_TRUE;
}

PetscErrorCode FlxSystemSetInertiaTensors(FlxSystem sys, PetscInt n, const PetscInt dof[], const PetscReal J0[])
{
  FlxInertia *slot, in;
  Vec         mass;
  MPI_Comm    comm;
  PetscInt    nl;

  PetscFunctionBegin;
  PetscCall(FlxSystemGetMass(sys, &mass, NULL));
  PetscCheck(mass, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "FlxSystemSetInertiaTensors needs the mass first (FlxSystemSetMass)");
  PetscCall(PetscObjectGetComm((PetscObject)mass, &comm));
  PetscCall(VecGetLocalSize(mass, &nl));
  PetscCall(FlxSystemGetInertia_Private(sys, &slot));
  PetscCall(FlxInertiaDestroy(slot));
  PetscCall(PetscNew(&in));
  in->n = n;
  PetscCall(PetscMalloc3(n + 1, &in->dof, 9 * n + 1, &in->J0, 9 * n + 1, &in->Js));
  for (PetscInt k = 0; k < n; k++) {
    PetscCheck(dof[k] >= 0 && dof[k] + 3 <= nl, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "inertia tensor %" PetscInt_FMT ": DOF %" PetscInt_FMT " outside the %" PetscInt_FMT " local DOFs", k, dof[k], nl);
    in->dof[k] = dof[k];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        in->J0[9 * k + 3 * i + j] = 0.5 * (J0[9 * k + 3 * i + j] + J0[9 * k + 3 * j + i]);
  }
  in->has = (PetscBool)(n > 0);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &in->has, 1, MPIU_BOOL, MPI_LOR, comm));
  *slot = in;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemGetInertiaTensors(FlxSystem sys, PetscInt *n, const PetscInt *dof[], PetscBool *has)
{
  FlxInertia *slot;

  PetscFunctionBegin;
  PetscCall(FlxSystemGetInertia_Private(sys, &slot));
  if (n) *n = *slot ? (*slot)->n : 0;
  if (dof) *dof = *slot ? (*slot)->dof : NULL;
  if (has) *has = *slot ? (*slot)->has : PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* J = R J0 R^T for every local tensor node into Js (9 per node). */
static PetscErrorCode Spatial(FlxInertia in, Vec x, PetscReal Js[])
{
  const PetscScalar *xa;

  PetscFunctionBegin;
  PetscCall(VecGetArrayRead(x, &xa));
  for (PetscInt k = 0; k < in->n; k++) {
    PetscReal psi[3] = {xa[in->dof[k]], xa[in->dof[k] + 1], xa[in->dof[k] + 2]}, R[9], RJ[9];
    FlxRotExp(psi, R);
    MatMat3(R, in->J0 + 9 * k, RJ);
    for (int i = 0; i < 3; i++) /* RJ R^T */
      for (int j = 0; j < 3; j++)
        Js[9 * k + 3 * i + j] = RJ[3 * i] * R[3 * j] + RJ[3 * i + 1] * R[3 * j + 1] + RJ[3 * i + 2] * R[3 * j + 2];
  }
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(PetscLogFlops(60.0 * in->n));
  PetscFunctionReturn(0);
}

/* The system's tensors, or NULL when it has none on this rank. */
static PetscErrorCode Get(FlxSystem sys, FlxInertia *in)
{
  FlxInertia *slot;

  PetscFunctionBegin;
  PetscCall(FlxSystemGetInertia_Private(sys, &slot));
  *in = *slot && (*slot)->n ? *slot : NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeInertiaTensors(FlxSystem sys, Vec x, PetscReal Js[])
{
  FlxInertia in;

  PetscFunctionBegin;
  PetscCall(Get(sys, &in));
  if (in) PetscCall(Spatial(in, x, Js));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeInertiaForce(FlxSystem sys, Vec x, Vec v, Vec a, Vec f)
{
  FlxInertia         in;
  PetscReal          aM;
  const PetscScalar *va, *aa;
  PetscScalar       *fa;

  PetscFunctionBegin;
  PetscCall(Get(sys, &in));
  if (!in) PetscFunctionReturn(0);
  PetscCall(FlxSystemGetRayleigh(sys, &aM, NULL));
  PetscCall(Spatial(in, x, in->Js));
  PetscCall(VecGetArrayRead(v, &va));
  PetscCall(VecGetArrayRead(a, &aa));
  PetscCall(VecGetArray(f, &fa));
  for (PetscInt k = 0; k < in->n; k++) {
    const PetscInt   i    = in->dof[k];
    const PetscReal *J    = in->Js + 9 * k;
    PetscReal        w[3] = {va[i], va[i + 1], va[i + 2]}, b[3] = {aa[i] + aM * w[0], aa[i + 1] + aM * w[1], aa[i + 2] + aM * w[2]}, Jb[3], Jw[3], g[3];
    FlxRotMatVec(J, b, Jb);
    FlxRotMatVec(J, w, Jw);
    FlxRotCross(w, Jw, g);
    for (int d = 0; d < 3; d++)
      fa[i + d] = Jb[d] + g[d];
  }
  PetscCall(VecRestoreArray(f, &fa));
  PetscCall(VecRestoreArrayRead(a, &aa));
  PetscCall(VecRestoreArrayRead(v, &va));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemSolveInertia(FlxSystem sys, Vec x, Vec w, PetscReal c, Vec r, Vec a)
{
  FlxInertia        *slot, in;
  PetscReal          aM;
  const PetscScalar *wa, *ra;
  PetscScalar       *aa;
  PetscInt           bad = -1;
  MPI_Comm           comm;
  char               msg[512] = "";

  PetscFunctionBegin;
  PetscCall(FlxSystemGetInertia_Private(sys, &slot));
  if (!*slot || !(*slot)->has) PetscFunctionReturn(0); /* no tensor on any rank (has: reduced) */
  PetscCall(PetscObjectGetComm((PetscObject)a, &comm));
  PetscCall(Get(sys, &in));
  if (!in) { /* none on this rank: only the collective verdict */
    PetscCall(FlxCheckCollective(comm, PETSC_FALSE, PETSC_ERR_NOT_CONVERGED, msg));
    PetscFunctionReturn(0);
  }
  PetscCall(FlxSystemGetRayleigh(sys, &aM, NULL));
  PetscCall(Spatial(in, x, in->Js));
  PetscCall(VecGetArrayRead(w, &wa));
  PetscCall(VecGetArrayRead(r, &ra));
  PetscCall(VecGetArray(a, &aa));
  for (PetscInt k = 0; k < in->n && bad < 0; k++) {
    const PetscInt   i     = in->dof[k];
    const PetscReal *J     = in->Js + 9 * k;
    const PetscReal  w0[3] = {wa[i], wa[i + 1], wa[i + 2]}, rr[3] = {ra[i], ra[i + 1], ra[i + 2]};
    PetscReal        acc[3] = {0, 0, 0}, dold = PETSC_MAX_REAL;
    PetscBool        done = PETSC_FALSE;
    /* Newton on F(a) = J (a + a_M v) + v x J v - r, v = w + c a, from a = 0; F is quadratic in a */
    for (int it = 0; it < 60 && !done; it++) {
      PetscReal v[3], b[3], Jb[3], Jv[3], g[3], F[3], D[9], S[9], SJ[9], da[3], dn = 0, an = 0;
      for (int d = 0; d < 3; d++) {
        v[d] = w0[d] + c * acc[d];
        b[d] = acc[d] + aM * v[d];
      }
      FlxRotMatVec(J, b, Jb);
      FlxRotMatVec(J, v, Jv);
      FlxRotCross(v, Jv, g);
      for (int d = 0; d < 3; d++)
        F[d] = Jb[d] + g[d] - rr[d];
      /* dF/da = (1 + a_M c) J + c (skew(v) J - skew(J v)) */
      FlxRotSkew(v, S);
      MatMat3(S, J, SJ);
      FlxRotSkew(Jv, S);
      for (int e = 0; e < 9; e++)
        D[e] = (1 + aM * c) * J[e] + c * (SJ[e] - S[e]);
      if (!Solve3(D, F, da)) {
        bad = k;
        break;
      }
      for (int d = 0; d < 3; d++) {
        acc[d] -= da[d];
        dn = PetscMax(dn, PetscAbsReal(da[d]));
        an = PetscMax(an, PetscAbsReal(acc[d]));
      }
      done = (PetscBool)(dn <= 4 * PETSC_MACHINE_EPSILON * an || dn == 0 || (it > 2 && dn >= dold)); /* round-off reached */
      dold = dn;
    }
    if (!done && bad < 0) bad = k;
    for (int d = 0; d < 3; d++)
      aa[i + d] = acc[d];
  }
  PetscCall(VecRestoreArray(a, &aa));
  PetscCall(VecRestoreArrayRead(r, &ra));
  PetscCall(VecRestoreArrayRead(w, &wa));
  if (bad >= 0) PetscCall(PetscSNPrintf(msg, sizeof(msg), "the rotational equations J (a + a_M v) + v x J v = m of the node with local DOFs %" PetscInt_FMT "..%" PetscInt_FMT " (a full rotary inertia tensor) could not be solved for its angular acceleration (singular or not converging): check the tensor (positive definite) and the step", in->dof[bad], in->dof[bad] + 2));
  PetscCall(FlxCheckCollective(comm, bad >= 0 ? PETSC_TRUE : PETSC_FALSE, PETSC_ERR_NOT_CONVERGED, msg)); /* every rank stops */
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeInertiaCorrection(FlxSystem sys, Vec x, Vec u, Vec w, PetscReal *local)
{
  FlxInertia         in;
  Vec                mass;
  const PetscScalar *ua, *wa, *ma;

  PetscFunctionBegin;
  *local = 0;
  PetscCall(Get(sys, &in));
  if (!in) PetscFunctionReturn(0);
  PetscCall(FlxSystemGetMass(sys, &mass, NULL));
  PetscCall(Spatial(in, x, in->Js));
  PetscCall(VecGetArrayRead(u, &ua));
  PetscCall(VecGetArrayRead(w, &wa));
  PetscCall(VecGetArrayRead(mass, &ma));
  for (PetscInt k = 0; k < in->n; k++) {
    const PetscInt   i     = in->dof[k];
    const PetscReal *J     = in->Js + 9 * k;
    PetscReal        wv[3] = {wa[i], wa[i + 1], wa[i + 2]}, Jw[3];
    FlxRotMatVec(J, wv, Jw);
    for (int d = 0; d < 3; d++)
      *local += ua[i + d] * (Jw[d] - ma[i + d] * wv[d]);
  }
  PetscCall(VecRestoreArrayRead(mass, &ma));
  PetscCall(VecRestoreArrayRead(w, &wa));
  PetscCall(VecRestoreArrayRead(u, &ua));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSystemComputeInertiaTangent(FlxSystem sys, Vec x, Vec v, Vec b, PetscReal blocks[])
{
  FlxInertia         in;
  const PetscScalar *va, *ba;

  PetscFunctionBegin;
  PetscCall(Get(sys, &in));
  if (!in) PetscFunctionReturn(0);
  PetscCall(Spatial(in, x, in->Js));
  PetscCall(VecGetArrayRead(v, &va));
  PetscCall(VecGetArrayRead(b, &ba));
  for (PetscInt k = 0; k < in->n; k++) {
    const PetscInt   i = in->dof[k];
    const PetscReal *J = in->Js + 9 * k;
    PetscReal       *B = blocks + 27 * k, w[3] = {va[i], va[i + 1], va[i + 2]}, bb[3] = {ba[i], ba[i + 1], ba[i + 2]};
    PetscReal        Jb[3], Jw[3], Sw[9], Sb[9], SJb[9], SJw[9], JSb[9], JSw[9], SwJ[9], G[9], SwG[9];
    FlxRotMatVec(J, bb, Jb);
    FlxRotMatVec(J, w, Jw);
    FlxRotSkew(w, Sw);
    FlxRotSkew(bb, Sb);
    FlxRotSkew(Jb, SJb);
    FlxRotSkew(Jw, SJw);
    MatMat3(J, Sb, JSb);
    MatMat3(J, Sw, JSw);
    MatMat3(Sw, J, SwJ);
    for (int e = 0; e < 9; e++)
      G[e] = JSw[e] - SJw[e]; /* J skew(v) - skew(J v) */
    MatMat3(Sw, G, SwG);
    for (int e = 0; e < 9; e++) {
      B[e]      = J[e];
      B[9 + e]  = -SJb[e] + JSb[e] + SwG[e];
      B[18 + e] = SwJ[e] - SJw[e];
    }
  }
  PetscCall(VecRestoreArrayRead(b, &ba));
  PetscCall(VecRestoreArrayRead(v, &va));
  PetscFunctionReturn(0);
}
