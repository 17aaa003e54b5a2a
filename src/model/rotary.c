/* Full nodal rotary inertia tensors of geometrically nonlinear models (docs/nonlinear.md, "Rotary inertia").

   By default a nonlinear model lumps a spherical rotary inertia j I at each node (assemble.c): no gyroscopic term,
   the explicit steppers stay explicit. Where the shape of the inertia matters (a spinning rotor, a top, a beam whose
   polar and bending rotary inertias differ), a node can carry the full tensor instead, J0 in its material frame,
   turned with the node (J = R J0 R^T) and with its gyroscopic term (the system's inertia tensors,
   src/steppers/inertia.c):
   - a beam section with -section_NAME_rotary_inertia tensor lumps, at each end, rho L/2 diag(Iy + Iz, Iy, Iz) (times
     -section_NAME_rotary_inertia_scale) in the element axes, E^T diag(...) E in global axes: the element's lumped
     values with their directions;
   - a point mass with -pointmass_NAME_inertia_tensor Jxx,Jyy,Jzz,Jxy,Jxz,Jyz adds that tensor (its entries, products
     of inertia with their minus sign: J_xy = -int x y dm), given in global axes at t = 0 (the material frame).
   A node with such contributions gets J0 = j I + their sum, j the spherical value of its other contributions
   (elements of spherical sections, -pointmass_NAME_inertia); the lumped mass vector keeps the smallest principal
   value of J0 there (a lower bound of the inertia: the automatic step computed from it stays safe). */
#include <flexure/private/modelimpl.h>
#include <flexure/private/elementimpl.h>

static PetscErrorCode Allocate(FlxModel m)
{
  PetscInt nown;

  PetscFunctionBegin;
  if (m->rotj) PetscFunctionReturn(0);
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  PetscCall(PetscCalloc1(9 * nown + 1, &m->rotj));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelRotaryTensorCell(FlxModel m, PetscInt c, const PetscReal xyz[], const FlxSectionProps *p, PetscInt nn, const PetscInt nodes[], PetscReal me[])
{
  FlxBeamFrame f;
  PetscInt     nown;
  PetscReal    J[3], jmin;
  char         err[256];

  PetscFunctionBegin;
  PetscCall(Allocate(m));
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  PetscCall(FlxBeam3dFrame(xyz, p, &f, err, sizeof(err))); /* a degenerate cell was refused by its stiffness */
  J[0] = p->rotary_scale * p->rho * f.L / 2 * (p->Iy + p->Iz);
  J[1] = p->rotary_scale * p->rho * f.L / 2 * p->Iy;
  J[2] = p->rotary_scale * p->rho * f.L / 2 * p->Iz;
  jmin = PetscMin(J[0], PetscMin(J[1], J[2]));
  for (PetscInt a = 0; a < nn; a++) {
    if (nodes[a] < nown)
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
          m->rotj[9 * nodes[a] + 3 * i + j] += f.R[i] * f.R[j] * J[0] + f.R[3 + i] * f.R[3 + j] * J[1] + f.R[6 + i] * f.R[6 + j] * J[2];
    for (int d = 3; d < 6; d++)
      me[6 * a + d] = jmin; /* the element's frequency bound with its smallest rotary inertia */
  }
  (void)c;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelRotaryTensorDrop(PetscInt nn, PetscReal me[])
{
  PetscFunctionBegin;
  for (PetscInt a = 0; a < nn; a++)
    for (int d = 3; d < 6; d++)
      me[6 * a + d] = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelRotaryTensorPointMasses(FlxModel m)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < m->npm; k++) {
    const PetscReal *t    = m->pm[k].tensor;
    const PetscReal  T[9] = {t[0], t[3], t[4], t[3], t[1], t[5], t[4], t[5], t[2]};
    PetscInt         g, n;
    const PetscInt  *nodes;
    if (!m->pm[k].has_tensor) continue;
    PetscCall(Allocate(m));
    PetscCall(FlxMeshFindGroup(m->mesh, m->pm[k].group, &g));
    PetscCall(FlxMeshGetGroupNodes(m->mesh, g, &n, &nodes));
    for (PetscInt i = 0; i < n; i++)
      for (int e = 0; e < 9; e++)
        m->rotj[9 * nodes[i] + e] += T[e];
  }
  PetscFunctionReturn(0);
}

/* Eigenvalues of a symmetric 3 x 3 matrix, smallest and largest (trigonometric solution of the characteristic
   cubic; Smith, Comm. ACM 4 (1961) 168). */
static void SymmetricEigenRange(const PetscReal A[9], PetscReal *lmin, PetscReal *lmax)
{
  const PetscReal p1 = A[1] * A[1] + A[2] * A[2] + A[5] * A[5], q = (A[0] + A[4] + A[8]) / 3;
  PetscReal       p2, p, B[9], r, phi;

  if (p1 == 0) {
    *lmin = PetscMin(A[0], PetscMin(A[4], A[8]));
    *lmax = PetscMax(A[0], PetscMax(A[4], A[8]));
    return;
  }
  p2 = PetscSqr(A[0] - q) + PetscSqr(A[4] - q) + PetscSqr(A[8] - q) + 2 * p1;
  p  = PetscSqrtReal(p2 / 6);
  for (int e = 0; e < 9; e++)
    B[e] = (A[e] - (e % 4 == 0 ? q : 0)) / p;
  r     = (B[0] * (B[4] * B[8] - B[5] * B[7]) - B[1] * (B[3] * B[8] - B[5] * B[6]) + B[2] * (B[3] * B[7] - B[4] * B[6])) / 2;
  r     = PetscMax(-1.0, PetscMin(1.0, r));
  phi   = PetscAcosReal(r) / 3;
  *lmax = q + 2 * p * PetscCosReal(phi);
  *lmin = q + 2 * p * PetscCosReal(phi + 2 * PETSC_PI / 3);
}

PetscErrorCode FlxModelSetUpRotaryTensors(FlxModel m)
{
  PetscBool          any = m->rotj ? PETSC_TRUE : PETSC_FALSE, bad = PETSC_FALSE;
  PetscInt           nown, n                                       = 0, *dof;
  PetscReal         *J0;
  PetscScalar       *ma;
  const PetscScalar *fr;
  const PetscInt    *nat;
  char               msg[512] = "";

  PetscFunctionBegin;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &any, 1, MPIU_BOOL, MPI_LOR, m->comm));
  if (!any) PetscFunctionReturn(0);
  PetscCheck(m->nonlinear, m->comm, PETSC_ERR_USER_INPUT, "a full rotary inertia tensor (-section_NAME_rotary_inertia tensor, -pointmass_NAME_inertia_tensor) turns with its node and has a gyroscopic term: it needs finite rotations (-model_geometry nonlinear or -section_NAME_geometry nonlinear); a linear model takes principal values in global axes (-pointmass_NAME_inertia)");
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  PetscCall(FlxMeshGetNaturalIds(m->mesh, &nat));
  PetscCall(PetscMalloc2(nown + 1, &dof, 9 * nown + 1, &J0));
  PetscCall(VecGetArray(m->mass, &ma));
  PetscCall(VecGetArrayRead(m->free, &fr));
  for (PetscInt i = 0; m->rotj && i < nown && !bad; i++) { /* a rank without tensors joins the collectives below */
    const PetscReal *T = m->rotj + 9 * i;
    PetscReal        lmin, lmax, nf = 0;
    PetscBool        zero = PETSC_TRUE;
    for (int e = 0; e < 9; e++)
      if (T[e] != 0) zero = PETSC_FALSE;
    if (zero) continue;
    for (int d = 3; d < 6; d++)
      nf += PetscRealPart(fr[6 * i + d]);
    if (nf == 0) continue; /* rotations held: no equation */
    if (nf != 3) {
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "node %" PetscInt_FMT " has a full rotary inertia tensor and only some of its rotations prescribed: hold all three (or none), or use a spherical rotary inertia there", nat[i]));
      bad = PETSC_TRUE;
      break;
    }
    for (int e = 0; e < 9; e++)
      J0[9 * n + e] = T[e] + (e % 4 == 0 ? PetscRealPart(ma[6 * i + 3]) : 0); /* j I + tensors (j spherical, assemble.c) */
    SymmetricEigenRange(J0 + 9 * n, &lmin, &lmax);
    if (!(lmin > 1e-12 * lmax)) {
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "node %" PetscInt_FMT ": its rotary inertia tensor is not positive definite (principal values from %g to %g kg m^2): explicit and implicit steps need inertia about every axis of a free node", nat[i], (double)lmin, (double)lmax));
      bad = PETSC_TRUE;
      break;
    }
    for (int d = 3; d < 6; d++)
      ma[6 * i + d] = lmin;
    dof[n++] = 6 * i + 3;
  }
  PetscCall(VecRestoreArrayRead(m->free, &fr));
  PetscCall(VecRestoreArray(m->mass, &ma));
  {
    PetscBool anybad = bad;
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &anybad, 1, MPIU_BOOL, MPI_LOR, m->comm));
    if (!anybad) PetscCall(FlxSystemSetInertiaTensors(m->sys, n, dof, J0));
  }
  PetscCall(PetscFree2(dof, J0));
  PetscCall(FlxCheckCollective(m->comm, bad, PETSC_ERR_USER_INPUT, msg));
  PetscFunctionReturn(0);
}
