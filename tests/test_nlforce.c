/* nonlinear_fast_force (issue 14, must-show 8): the explicit fast path of a nonlinear model's internal force (the
   per-cell cache and the SIMD kernel, src/elements/corotfast.c) against the general element kernels
   (-model_nonlinear_cache false) on the same mesh and state, at any number of ranks.

   Model: a small generated tower, every beam co-rotational, with translational springs and dampers to ground at its
   top (rotational ones: test_springrot.c), so that
   K_lin x and C_d v are part of f_int. States: (a) the whole tower turned rigidly by 1.24 rad about a skew axis and
   moved, plus small deformations (local rotations below 1e-3 rad: every cell in the SIMD lanes); (b) the same with
   the nodal rotations of its upper half perturbed by up to 0.5 rad about each axis (local rotations up to about
   1.5 rad: the SIMD lanes' series up to 0.141 rad, beyond them and Spurrier's first case the lanes the general
   kernel redoes). Checks at each: the strain energy first (no f_int before it: the cached loop), then f_int (forces
   relative to the largest force, moments to the largest force times the bay height: the moments of a nearly rigid
   turn are differences of nearly equal rotations, known to round-off of that scale) and the strain energy again
   (reused from f_int). */
#include <flexure/flexure.h>
#include <flexure/rotation.h>
#include "testcheck.h"

/* A number in [-1, 1) from a point (the same on every rank). */
static PetscReal Hash(const PetscReal X[3], PetscReal salt)
{
  PetscReal h = PetscSinReal(12.9898 * X[0] + 78.233 * X[1] + 37.719 * X[2] + salt) * 43758.5453;
  return 2 * (h - PetscFloorReal(h)) - 1;
}

/* The deformed state of the owned nodes (described above); big: amplitude of the rotations of the upper half. */
static PetscErrorCode DeformedState(FlxMesh mesh, PetscReal big, Vec x, Vec v)
{
  const PetscReal  psi0[3] = {0.5, -0.9, 0.7}, shift[3] = {0.3, -0.2, 0.1};
  const PetscReal *X;
  PetscReal        Q[9];
  PetscScalar     *xa, *va;
  PetscInt         nown;

  PetscFunctionBegin;
  FlxRotExp(psi0, Q);
  PetscCall(FlxMeshGetCoordinates(mesh, &X));
  PetscCall(FlxMeshGetLocalSizes(mesh, &nown, NULL, NULL));
  PetscCall(VecGetArray(x, &xa));
  PetscCall(VecGetArray(v, &va));
  for (PetscInt i = 0; i < nown; i++) {
    const PetscReal *Xi = X + 3 * i;
    PetscReal        dpsi[3], psi[3], b = Xi[2] > 1.5 ? big : 0;
    for (int c = 0; c < 3; c++) {
      xa[6 * i + c]     = Q[3 * c] * Xi[0] + Q[3 * c + 1] * Xi[1] + Q[3 * c + 2] * Xi[2] + shift[c] - Xi[c] + 2e-4 * Hash(Xi, c);
      dpsi[c]           = 1e-4 * Hash(Xi, 3 + c) + b * Hash(Xi, 6 + c);
      va[6 * i + c]     = Hash(Xi, 9 + c);
      va[6 * i + 3 + c] = Hash(Xi, 12 + c);
    }
    FlxRotUpdate(psi0, dpsi, psi);
    for (int c = 0; c < 3; c++)
      xa[6 * i + 3 + c] = psi[c];
  }
  PetscCall(VecRestoreArray(x, &xa));
  PetscCall(VecRestoreArray(v, &va));
  PetscFunctionReturn(0);
}

/* Largest |a - b| and |b| over the translational (k = 0) or rotational (k = 1) components. */
static PetscErrorCode MaxDiff(MPI_Comm comm, Vec a, Vec b, int k, PetscReal *diff, PetscReal *ref)
{
  const PetscScalar *pa, *pb;
  PetscInt           n;
  PetscReal          loc[2] = {0, 0}, glob[2];

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(a, &n));
  PetscCall(VecGetArrayRead(a, &pa));
  PetscCall(VecGetArrayRead(b, &pb));
  for (PetscInt i = 0; i < n; i++)
    if ((i % 6 >= 3) == k) {
      loc[0] = PetscMax(loc[0], PetscAbsScalar(pa[i] - pb[i]));
      loc[1] = PetscMax(loc[1], PetscAbsScalar(pb[i]));
    }
  PetscCall(VecRestoreArrayRead(a, &pa));
  PetscCall(VecRestoreArrayRead(b, &pb));
  PetscCallMPI(MPI_Allreduce(loc, glob, 2, MPIU_REAL, MPI_MAX, comm));
  *diff = glob[0];
  *ref  = glob[1];
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const char *opts = "-mesh_generate tower -mesh_tower_bays 2,2,6 -mesh_tower_size 1,1,3 -material_names steel -material_steel_E 210e9 "
                     "-material_steel_nu 0.3 -material_steel_rho 7850 -section_names tube -section_tube_groups frame -section_tube_material steel "
                     "-section_tube_A 1.2e-3 -section_tube_Iy 1.0e-6 -section_tube_Iz 2.0e-6 -section_tube_J 2.0e-6 -bc_names base -bc_base_group base "
                     "-spring_names top -spring_top_group top -spring_top_stiffness 1e6,2e6,3e6,0,0,0 -spring_top_damping 10,20,30,0,0,0 "
                     "-model_geometry nonlinear";
  MPI_Comm    comm;
  FlxMesh     mesh;
  FlxModel    model[2];
  FlxSystem   sys[2];
  Vec         x, v, f[2];
  PetscReal   e[2], d, r, fmax, L = 0.5; /* L: the bay height, the elements' length scale */

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(FlxInitializePackage());
  comm = PETSC_COMM_WORLD;
  PetscCall(PetscOptionsInsertString(NULL, opts));
  PetscCall(FlxMeshCreate(comm, &mesh));
  PetscCall(FlxMeshSetFromOptions(mesh));
  PetscCall(FlxMeshSetUp(mesh));
  for (int k = 0; k < 2; k++) { /* 0: the fast path (default), 1: the general kernels */
    PetscCall(PetscOptionsSetValue(NULL, "-model_nonlinear_cache", k ? "false" : "true"));
    PetscCall(FlxModelCreate(mesh, &model[k]));
    PetscCall(FlxModelSetFromOptions(model[k]));
    PetscCall(FlxModelSetUp(model[k]));
    PetscCall(FlxModelGetSystem(model[k], &sys[k]));
    PetscCall(FlxModelCreateVector(model[k], &f[k]));
  }
  PetscCall(FlxModelCreateVector(model[0], &x));
  PetscCall(FlxModelCreateVector(model[0], &v));
  for (int st = 0; st < 2; st++) {
    const char *name = st ? "(b) large local rotations" : "(a) small local rotations";
    char        what[128];
    PetscCall(DeformedState(mesh, st ? 0.5 : 0, x, v));
    for (int k = 0; k < 2; k++)
      PetscCall(FlxSystemComputeStrainEnergy(sys[k], x, &e[k], NULL));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s: strain energy (cached loop), relative", name));
    PetscCall(Check(comm, what, PetscAbsReal(e[0] - e[1]) / e[1], 1e-14));
    for (int k = 0; k < 2; k++) {
      PetscCall(FlxSystemComputeInternalForce(sys[k], 0, x, v, f[k]));
      PetscCall(FlxSystemComputeStrainEnergy(sys[k], x, &e[k], NULL));
    }
    PetscCall(MaxDiff(comm, f[0], f[1], 0, &d, &fmax));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s: forces, fast - general, relative to max |f|", name));
    PetscCall(Check(comm, what, d / fmax, 1e-14));
    PetscCall(MaxDiff(comm, f[0], f[1], 1, &d, &r));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s: moments, fast - general, relative to max |f| L", name));
    PetscCall(Check(comm, what, d / (fmax * L), 1e-14));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s: strain energy after f_int (reused), relative", name));
    PetscCall(Check(comm, what, PetscAbsReal(e[0] - e[1]) / e[1], 1e-14));
  }
  PetscCall(PetscPrintf(comm, "%s\n", testcheck_fails ? "nonlinear_fast_force: FAILED" : "nonlinear_fast_force: all checks passed"));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&v));
  for (int k = 0; k < 2; k++) {
    PetscCall(VecDestroy(&f[k]));
    PetscCall(FlxModelDestroy(&model[k]));
  }
  PetscCall(FlxMeshDestroy(&mesh));
  PetscCall(PetscFinalize());
  return testcheck_fails ? 1 : 0;
}
