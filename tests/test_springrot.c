/* nonlinear_rotational_springs: springs with rotational stiffness in a geometrically nonlinear model (springrot.c),
   on a small 3D frame of co-rotational beams (tests/data/spring_joint.msh): two beams joined at a point by a
   zero-length spring cell (anisotropic translational and rotational stiffness in skew axes), a rotational-only
   spring cell of non-zero length bracing them, and (model A) a spring to ground in skew axes at the tip, the root
   clamped. In a state with nodal rotations up to about 1 rad (relative rotations of the springs up to about 2 rad):
   - A: f_int is the gradient of the strain energy (central differences along spatial increments) and the Jacobian
     its derivative (J d against central differences of f_int);
   - B (no ground spring, no support): a rigid rotation of the deformed frame by 1.4 rad about a skew axis leaves the
     strain energy unchanged and turns every nodal force and moment with it (objectivity); the strain energy rebuilt
     from x equals the one kept from f_int, and the general element loop gives the cached loop's forces and energy;
   - C: a relative rotation of 2.8 rad runs; turned on to 3.35 rad, where the log wraps to 2.93 rad the other way,
     the internal force stops with the spring's message; back at 2.8 rad (a retry from the last good state) it runs. */
#include <flexure/flexure.h>
#include <flexure/rotation.h>
#include "testcheck.h"

/* A number in [-1, 1) from a node's natural id (the same at any number of ranks). */
static PetscReal Hash(PetscInt id, PetscReal salt)
{
  PetscReal h = PetscSinReal(12.9898 * (PetscReal)id + 78.233 * salt) * 43758.5453;
  return 2 * (h - PetscFloorReal(h)) - 1;
}

static PetscErrorCode Model(FlxMesh mesh, PetscBool ground, FlxModel *model)
{
  PetscFunctionBegin;
  if (ground) {
    PetscCall(PetscOptionsSetValue(NULL, "-bc_names", "root"));
    PetscCall(PetscOptionsSetValue(NULL, "-spring_names", "g"));
    PetscCall(PetscOptionsClearValue(NULL, "-model_allow_rigid_body"));
  } else {
    PetscCall(PetscOptionsClearValue(NULL, "-bc_names"));
    PetscCall(PetscOptionsClearValue(NULL, "-spring_names"));
    PetscCall(PetscOptionsSetValue(NULL, "-model_allow_rigid_body", "true"));
  }
  PetscCall(FlxModelCreate(mesh, model));
  PetscCall(FlxModelSetFromOptions(*model));
  PetscCall(FlxModelSetUp(*model));
  PetscFunctionReturn(0);
}

/* The deformed state (rotations up to about 1 rad per node, small translations), zero at the root in model A;
   with Q (not NULL) the same turned rigidly by Q = exp(psi0) about the origin; d: a direction of increments. */
static PetscErrorCode State(FlxMesh mesh, PetscBool clamped, const PetscReal psi0[3], Vec x, Vec d)
{
  const PetscReal *X;
  const PetscInt  *nat;
  PetscReal        Q[9];
  PetscScalar     *xa, *da;
  PetscInt         nown;

  PetscFunctionBegin;
  FlxRotExp(psi0, Q);
  PetscCall(FlxMeshGetCoordinates(mesh, &X));
  PetscCall(FlxMeshGetNaturalIds(mesh, &nat));
  PetscCall(FlxMeshGetLocalSizes(mesh, &nown, NULL, NULL));
  PetscCall(VecGetArray(x, &xa));
  PetscCall(VecGetArray(d, &da));
  for (PetscInt i = 0; i < nown; i++) {
    const PetscReal *Xi   = X + 3 * i;
    const PetscBool  root = (PetscBool)(clamped && nat[i] == 0);
    PetscReal        p[3], u[3], psi[3];
    for (int c = 0; c < 3; c++) {
      u[c]              = root ? 0 : 0.05 * Hash(nat[i], c);
      p[c]              = root ? 0 : 0.6 * Hash(nat[i], 3 + c);
      da[6 * i + c]     = root ? 0 : Hash(nat[i], 6 + c);
      da[6 * i + 3 + c] = root ? 0 : Hash(nat[i], 9 + c);
    }
    for (int c = 0; c < 3; c++) /* Q (X + u) - X */
      xa[6 * i + c] = Q[3 * c] * (Xi[0] + u[0]) + Q[3 * c + 1] * (Xi[1] + u[1]) + Q[3 * c + 2] * (Xi[2] + u[2]) - Xi[c];
    FlxRotUpdate(p, psi0, psi); /* exp(psi0) exp(p) */
    for (int c = 0; c < 3; c++)
      xa[6 * i + 3 + c] = psi[c];
  }
  PetscCall(VecRestoreArray(x, &xa));
  PetscCall(VecRestoreArray(d, &da));
  PetscFunctionReturn(0);
}

/* Every node of the second beam (natural ids 3 to 5) turned rigidly by angle about z through the joint (1, 0, 0),
   the others at rest. */
static PetscErrorCode Turned(FlxMesh mesh, PetscReal angle, Vec x)
{
  const PetscReal *X;
  const PetscInt  *nat;
  PetscScalar     *xa;
  PetscInt         nown;
  const PetscReal  c = PetscCosReal(angle), s = PetscSinReal(angle);

  PetscFunctionBegin;
  PetscCall(FlxMeshGetCoordinates(mesh, &X));
  PetscCall(FlxMeshGetNaturalIds(mesh, &nat));
  PetscCall(FlxMeshGetLocalSizes(mesh, &nown, NULL, NULL));
  PetscCall(VecZeroEntries(x));
  PetscCall(VecGetArray(x, &xa));
  for (PetscInt i = 0; i < nown; i++) {
    const PetscReal dx = X[3 * i] - 1, dy = X[3 * i + 1];
    if (nat[i] < 3) continue;
    xa[6 * i]     = 1 + c * dx - s * dy - X[3 * i];
    xa[6 * i + 1] = s * dx + c * dy - dy;
    xa[6 * i + 5] = angle;
  }
  PetscCall(VecRestoreArray(x, &xa));
  PetscFunctionReturn(0);
}

/* Largest |a - b| over all components, and the largest |b|. */
static PetscErrorCode MaxDiff(MPI_Comm comm, Vec a, Vec b, PetscReal *diff, PetscReal *ref)
{
  PetscReal n;

  PetscFunctionBegin;
  PetscCall(VecNorm(b, NORM_INFINITY, ref));
  PetscCall(VecAXPY(a, -1.0, b));
  PetscCall(VecNorm(a, NORM_INFINITY, &n));
  PetscCall(VecAXPY(a, 1.0, b));
  *diff = n;
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const char     *opts    = "-mesh_file tests/data/spring_joint.msh -model_geometry nonlinear -material_names m -material_m_E 1e8 -material_m_nu 0.3 "
                            "-material_m_rho 1000 -section_names b,j,r -section_b_groups beam -section_b_material m -section_b_A 1e-4 "
                            "-section_b_Iy 1e-8 -section_b_Iz 2e-8 -section_b_J 1.5e-8 -section_j_groups joint -section_j_stiffness 1e5,2e4,3e5,1e3,2e3,5e2 "
                            "-section_j_axes 1,1,0,-1,1,1 -section_r_groups brace -section_r_stiffness 0,0,0,3e2,1e2,2e2 -section_r_axes 0,1,1,1,0,0 "
                            "-bc_root_group root -bc_root_dofs clamped -spring_g_group tip -spring_g_stiffness 1e3,1e3,1e3,4e2,1e2,7e2 -spring_g_axes 1,2,0,-2,1,3";
  const PetscReal zero[3] = {0, 0, 0}, psi0[3] = {0.7, -0.9, 0.8}, eps = 1e-6;
  MPI_Comm        comm;
  FlxMesh         mesh;
  FlxModel        model;
  FlxSystem       sys;
  Vec             x, d, v, f, g, xp, xm, fp, fm, Jd, dd;
  Mat             J;
  PetscReal       ep, em, e0, e1, er, fd, err, ref, Q[9];

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(FlxInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscCall(PetscOptionsInsertString(NULL, opts));
  PetscCall(FlxMeshCreate(comm, &mesh));
  PetscCall(FlxMeshSetFromOptions(mesh));
  PetscCall(FlxMeshSetUp(mesh));

  /* A: gradient and tangent */
  PetscCall(Model(mesh, PETSC_TRUE, &model));
  PetscCall(FlxModelGetSystem(model, &sys));
  PetscCall(FlxModelCreateVector(model, &x));
  PetscCall(VecDuplicate(x, &d));
  PetscCall(VecDuplicate(x, &v));
  PetscCall(VecDuplicate(x, &f));
  PetscCall(VecDuplicate(x, &xp));
  PetscCall(VecDuplicate(x, &xm));
  PetscCall(VecDuplicate(x, &fp));
  PetscCall(VecDuplicate(x, &fm));
  PetscCall(VecDuplicate(x, &Jd));
  PetscCall(VecDuplicate(x, &dd));
  PetscCall(State(mesh, PETSC_TRUE, zero, x, d));
  PetscCall(FlxSystemComputeInternalForce(sys, 0, x, v, f));
  PetscCall(VecCopy(d, dd));
  PetscCall(VecScale(dd, eps));
  PetscCall(FlxSystemUpdateConfiguration(sys, x, dd, xp));
  PetscCall(VecScale(dd, -1));
  PetscCall(FlxSystemUpdateConfiguration(sys, x, dd, xm));
  PetscCall(FlxSystemComputeStrainEnergy(sys, xp, &ep, NULL));
  PetscCall(FlxSystemComputeStrainEnergy(sys, xm, &em, NULL));
  PetscCall(VecDot(f, d, &fd));
  {
    PetscReal nf, nd;
    PetscCall(VecNorm(f, NORM_2, &nf));
    PetscCall(VecNorm(d, NORM_2, &nd));
    PetscCall(Check(comm, "A: f_int . d against the energy's central difference, relative to |f| |d|", PetscAbsReal((ep - em) / (2 * eps) - fd) / (nf * nd), 1e-10));
  }
  PetscCall(FlxSystemComputeInternalForce(sys, 0, xp, v, fp));
  PetscCall(FlxSystemComputeInternalForce(sys, 0, xm, v, fm));
  PetscCall(VecAXPY(fp, -1.0, fm));
  PetscCall(VecScale(fp, 1 / (2 * eps)));
  PetscCall(FlxSystemCreateJacobianMatrix(sys, &J));
  PetscCall(FlxSystemComputeJacobian(sys, 0, x, v, 0, 0, J));
  PetscCall(MatMult(J, d, Jd));
  PetscCall(MaxDiff(comm, Jd, fp, &err, &ref));
  PetscCall(Check(comm, "A: Jacobian d against central differences of f_int, relative to max", err / ref, 1e-8));
  PetscCall(MatDestroy(&J));
  PetscCall(FlxModelDestroy(&model));

  /* B: objectivity; the strain energy by its two paths (rebuilt from x, or kept from the last f_int at x) and by
     the general element loop (-model_nonlinear_cache false) */
  PetscCall(Model(mesh, PETSC_FALSE, &model));
  PetscCall(FlxModelGetSystem(model, &sys));
  PetscCall(State(mesh, PETSC_FALSE, zero, x, d));
  PetscCall(FlxSystemComputeStrainEnergy(sys, x, &er, NULL)); /* no f_int at x yet: rebuilt */
  PetscCall(FlxSystemComputeInternalForce(sys, 0, x, v, f));
  PetscCall(FlxSystemComputeStrainEnergy(sys, x, &e0, NULL)); /* kept from f_int */
  PetscCall(Check(comm, "B: strain energy rebuilt against kept from f_int, relative", PetscAbsReal(er - e0) / e0, 1e-15));
  {
    FlxModel  gm;
    FlxSystem gs;
    PetscReal eg;
    PetscCall(PetscOptionsSetValue(NULL, "-model_nonlinear_cache", "false"));
    PetscCall(Model(mesh, PETSC_FALSE, &gm));
    PetscCall(PetscOptionsClearValue(NULL, "-model_nonlinear_cache"));
    PetscCall(FlxModelGetSystem(gm, &gs));
    PetscCall(FlxSystemComputeInternalForce(gs, 0, x, v, fm));
    PetscCall(FlxSystemComputeStrainEnergy(gs, x, &eg, NULL));
    PetscCall(MaxDiff(comm, fm, f, &err, &ref));
    PetscCall(Check(comm, "B: general element loop against the cached one: forces, relative to max", err / ref, 1e-14));
    PetscCall(Check(comm, "B: general element loop against the cached one: strain energy, relative", PetscAbsReal(eg - e0) / e0, 1e-14));
    PetscCall(FlxModelDestroy(&gm));
  }
  PetscCall(State(mesh, PETSC_FALSE, psi0, xp, d));
  PetscCall(FlxSystemComputeInternalForce(sys, 0, xp, v, fp));
  PetscCall(FlxSystemComputeStrainEnergy(sys, xp, &e1, NULL));
  PetscCall(Check(comm, "B: strain energy after a rigid rotation of 1.4 rad, relative", PetscAbsReal(e1 - e0) / e0, 1e-13));
  FlxRotExp(psi0, Q);
  {
    const PetscScalar *fa;
    PetscScalar       *ga;
    PetscInt           n;
    PetscCall(VecDuplicate(x, &g));
    PetscCall(VecGetLocalSize(f, &n));
    PetscCall(VecGetArrayRead(f, &fa));
    PetscCall(VecGetArray(g, &ga));
    for (PetscInt i = 0; i < n; i += 3) /* Q f, three components at a time (forces, moments) */
      for (int c = 0; c < 3; c++)
        ga[i + c] = Q[3 * c] * fa[i] + Q[3 * c + 1] * fa[i + 1] + Q[3 * c + 2] * fa[i + 2];
    PetscCall(VecRestoreArray(g, &ga));
    PetscCall(VecRestoreArrayRead(f, &fa));
  }
  PetscCall(MaxDiff(comm, fp, g, &err, &ref));
  PetscCall(Check(comm, "B: forces and moments after the rigid rotation against Q f, relative to max", err / ref, 1e-13));
  /* C: the second beam and the springs' second nodes turned rigidly about z through the joint by 2.8 rad, then by
     3.35 rad, where the relative rotation's log wraps to 2.93 rad the other way: that f_int stops; then 2.8 rad again */
  for (int k = 0; k < 3; k++) {
    PetscErrorCode ierr;
    PetscCall(Turned(mesh, k == 1 ? 3.35 : 2.8, x));
    PetscCall(PetscPushErrorHandler(FlxErrorHandler, NULL));
    ierr = FlxSystemComputeInternalForce(sys, 0, x, v, f);
    PetscCall(PetscPopErrorHandler());
    if (k != 1)
      PetscCall(Check(comm, k ? "C: back at 2.8 rad after the refusal (a retry) runs (error code)" : "C: a relative rotation of 2.8 rad runs (error code)", (PetscReal)ierr, 0));
    else {
      char *found;
      PetscCall(PetscStrstr(FlxErrorGetMessage(), "has turned by more than pi, from 2.800 rad", &found));
      PetscCall(PetscPrintf(comm, "C: message: %s\n", FlxErrorGetMessage()));
      PetscCall(Check(comm, "C: 3.35 rad (the log wrapped to 2.93 the other way) stops, naming the jump", ierr && found ? 0 : 1, 0));
    }
  }
  PetscCall(PetscPrintf(comm, "%s\n", testcheck_fails ? "nonlinear_rotational_springs: FAILED" : "nonlinear_rotational_springs: all checks passed"));
  PetscCall(VecDestroy(&g));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&d));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&f));
  PetscCall(VecDestroy(&xp));
  PetscCall(VecDestroy(&xm));
  PetscCall(VecDestroy(&fp));
  PetscCall(VecDestroy(&fm));
  PetscCall(VecDestroy(&Jd));
  PetscCall(VecDestroy(&dd));
  PetscCall(FlxModelDestroy(&model));
  PetscCall(FlxMeshDestroy(&mesh));
  PetscCall(PetscFinalize());
  return testcheck_fails ? 1 : 0;
}
