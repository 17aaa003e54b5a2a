/* element_loop_np{1,2,4} (issue 15, must-show 5): the element-by-element product K x (src/model/ebe.c) against the
   deterministic product with the assembled K (src/model/kmult.c), and the element product at 1, 2 and 4 ranks.

   Models: a lattice tower of linear beams; a plate of MITC4 quads; a plate of DKT3 triangles; a curved, mixed mesh
   (quads and triangles, warped quads) of a cylindrical panel; a mixed model (a stiffened plate: MITC4 skin, beam3d
   stiffeners, quads and triangles, springs to ground); the tower with every beam co-rotational (its initial
   stiffness K_0 x, the co-rotational beams linearized). x: every DOF a number hashed from its natural id (the same at
   any number of ranks). Checks, per model:
   - |y_elements - y_assembled|_inf / |y_assembled|_inf <= 1e-14;
   - the element product, in natural order, bit for bit the one computed on sub-communicators of 1 and 2 ranks (the
     same model set up again there): the halo exchange, the near and far cells and the slots of the nodes on the
     partition boundary sum in the one-rank order. With 4 ranks the partitions have mixed nodes of every kind. */
#include <flexure/flexure.h>
#include <flexure/private/elementimpl.h>
#include "testcheck.h"

/* A number in [-1, 1) from a natural DOF number. */
static PetscReal Hash(PetscInt k)
{
  unsigned long long h = (unsigned long long)(k + 1) * 0x9E3779B97F4A7C15ULL;
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 29;
  return (PetscReal)((double)(h >> 11) / 4503599627370496.0 - 1.0);
}

/* The case's model on comm: options set, mesh and model set up; x hashed; y the element product in natural order
   gathered on the communicator's rank 0 (nat: its values there, N of them; the caller frees). */
static PetscErrorCode RunCase(MPI_Comm comm, const char opts[], PetscBool compare, PetscReal *err, PetscScalar **nat, PetscInt *N)
{
  FlxMesh            mesh;
  FlxModel           model;
  Vec                x, ye, ya, xn, y0;
  VecScatter         sct;
  PetscInt           nown;
  const PetscInt    *natid;
  PetscScalar       *xa;
  const PetscScalar *y0a;
  PetscMPIInt        rank;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscOptionsClear(NULL));
  PetscCall(PetscOptionsInsertString(NULL, opts));
  PetscCall(FlxMeshCreate(comm, &mesh));
  PetscCall(FlxMeshSetFromOptions(mesh));
  PetscCall(FlxModelCreate(mesh, &model));
  PetscCall(FlxModelSetFromOptions(model));
  PetscCall(FlxMeshSetUp(mesh));
  PetscCall(FlxPhaseSummary(comm, "mesh")); /* the set-up phases are per process: closed and counted from zero on this communicator's ranks */
  PetscCall(FlxModelSetUp(model));
  PetscCall(FlxModelCreateVector(model, &x));
  PetscCall(VecDuplicate(x, &ye));
  PetscCall(VecDuplicate(x, &ya));
  PetscCall(FlxMeshGetLocalSizes(mesh, &nown, NULL, NULL));
  PetscCall(FlxMeshGetNaturalIds(mesh, &natid));
  PetscCall(VecGetArray(x, &xa));
  for (PetscInt i = 0; i < nown; i++)
    for (int d = 0; d < 6; d++)
      xa[6 * i + d] = Hash(6 * natid[i] + d);
  PetscCall(VecRestoreArray(x, &xa));
  PetscCall(FlxModelMultStiffness(model, FLX_FINT_ELEMENTS, x, ye));
  if (compare) {
    PetscReal nd, na;
    PetscCall(FlxModelMultStiffness(model, FLX_FINT_ASSEMBLED, x, ya));
    PetscCall(VecNorm(ya, NORM_INFINITY, &na));
    PetscCall(VecAXPY(ya, -1.0, ye));
    PetscCall(VecNorm(ya, NORM_INFINITY, &nd));
    *err = nd / na;
  }
  PetscCall(FlxModelCreateNaturalVector(model, &xn));
  PetscCall(FlxModelToNatural(model, ye, xn));
  PetscCall(VecScatterCreateToZero(xn, &sct, &y0));
  PetscCall(VecScatterBegin(sct, xn, y0, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sct, xn, y0, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetSize(y0, N));
  *nat = NULL;
  if (!rank) {
    PetscCall(PetscMalloc1(*N, nat));
    PetscCall(VecGetArrayRead(y0, &y0a));
    PetscCall(PetscArraycpy(*nat, y0a, *N));
    PetscCall(VecRestoreArrayRead(y0, &y0a));
  }
  PetscCall(VecScatterDestroy(&sct));
  PetscCall(VecDestroy(&y0));
  PetscCall(VecDestroy(&xn));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&ye));
  PetscCall(VecDestroy(&ya));
  PetscCall(FlxModelDestroy(&model));
  PetscCall(FlxMeshDestroy(&mesh));
  PetscFunctionReturn(0);
}

/* The kernels alone (src/elements/beamfast.c, shellfast.c): a batch of FLX_EBE_LANES different cells -- beams in
   skew directions with an orientation vector, quads warped up to 0.08 (max |h| / sqrt(area)) in general position,
   triangles in general position -- against K_e u of the element's stiffness op, for a hashed u; largest difference
   relative to the largest |K_e u| of the batch. */
static PetscErrorCode CheckKernels(MPI_Comm comm)
{
  FlxSectionProps p;
  FlxElementOps   ops[3];
  const char     *el[3] = {FLXELEMENTBEAM3D, FLXELEMENTMITC4, FLXELEMENTDKT3}, *what[3] = {"kernel: 8 skew beams (beamfast.c)", "kernel: 8 warped quads in general position (shellfast.c)", "kernel: 8 triangles in general position (shellfast.c)"};
  const PetscInt  nn[3] = {2, 4, 3};

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&p, sizeof(p)));
  p.E = 210e9, p.nu = 0.3, p.G = p.E / (2 * (1 + p.nu)), p.rho = 7850, p.A = 1.2e-3, p.Iy = 1e-6, p.Iz = 3e-6, p.J = 2e-6, p.Asy = 1e-3, p.Asz = 0.8e-3;
  p.orient[0] = 0.3, p.orient[1] = -0.4, p.orient[2] = 0.866, p.has_orient = PETSC_TRUE, p.rotary_scale = 1, p.t = 0.01, p.kappa_s = 5.0 / 6, p.drill = 1e-3, p.max_warp = 0.1;
  for (int k = 0; k < 3; k++)
    PetscCall(FlxElementGetOps(el[k], &ops[k]));
  for (int k = 0; k < 3; k++) {
    static FlxBeamBatch bb;
    static FlxQuadBatch qb;
    static FlxTriBatch  tb;
    PetscReal           x[6 * 4 * FLX_EBE_LANES], fe[24][FLX_EBE_LANES], ref[24][FLX_EBE_LANES], en[FLX_EBE_LANES], diff = 0, fmax = 0;
    for (int l = 0; l < FLX_EBE_LANES; l++) {
      PetscReal     xyz[12], K[576], Kl[576], c = PetscCosReal(0.7 * l + 0.3), s = PetscSinReal(0.7 * l + 0.3);
      FlxShellFrame f;
      char          err[256];
      for (PetscInt a = 0; a < nn[k]; a++) { /* a unit-ish cell turned about a skew axis, the quads' corners lifted */
        const PetscReal ux[4] = {0, 1.1, 1.0, -0.1}, uy[4] = {0, 0.1, 0.9, 1.2}, lift = k == 1 ? (a % 2 ? 0.04 : -0.04) * (1 + 0.1 * l) : 0;
        const PetscReal px = k == 0 ? (a ? 1.3 : 0) : (k == 2 ? ux[a] + 0.2 * a * a : ux[a]), py = k == 0 ? (a ? 0.2 + 0.1 * l : 0) : uy[a], pz = k == 0 ? (a ? 0.5 : 0) : lift;
        xyz[3 * a]     = c * px - s * py + 0.1 * l;
        xyz[3 * a + 1] = s * c * px + c * c * py - s * pz;
        xyz[3 * a + 2] = s * s * px + s * c * py + c * pz;
      }
      PetscCall(ops[k]->stiffness(xyz, &p, K, err, sizeof(err)));
      for (PetscInt a = 0; a < nn[k]; a++)
        for (int d = 0; d < 6; d++)
          x[6 * (nn[k] * l + a) + d] = Hash(1000 * k + 6 * (nn[k] * l + a) + d) * (d < 3 ? 1e-3 : 1e-2);
      for (PetscInt i = 0; i < 6 * nn[k]; i++) {
        PetscReal r = 0;
        for (PetscInt j = 0; j < 6 * nn[k]; j++)
          r += K[6 * nn[k] * i + j] * x[6 * nn[k] * l + j];
        ref[i][l] = r;
        fmax      = PetscMax(fmax, PetscAbsReal(r));
      }
      if (k == 0) {
        FlxCorotBeamData d;
        PetscCall(FlxCorotBeamSetUp(xyz, &p, &d, err, sizeof(err)));
        FlxBeamBatchSet(&bb, l, &d);
        for (int a = 0; a < 2; a++)
          bb.gi[a][l] = 2 * l + a;
      } else if (k == 1) {
        PetscCall(FlxMITC4LocalStiffness(xyz, &p, &f, Kl, err, sizeof(err)));
        PetscCall(FlxQuadBatchSet(&qb, l, &f, Kl));
        for (int a = 0; a < 4; a++)
          qb.gi[a][l] = 4 * l + a;
      } else {
        PetscCall(FlxDKT3LocalStiffness(xyz, &p, &f, Kl, err, sizeof(err)));
        PetscCall(FlxTriBatchSet(&tb, l, &f, &p, Kl));
        for (int a = 0; a < 3; a++)
          tb.gi[a][l] = 3 * l + a;
      }
    }
    if (k == 0)
      FlxBeamBatchForce(&bb, x, fe, en);
    else if (k == 1)
      FlxQuadBatchForce(&qb, x, fe, en, &qb);
    else
      FlxTriBatchForce(&tb, x, fe, en);
    {
      PetscReal ediff = 0, emax = 0;
      char      ew[128];
      for (int l = 0; l < FLX_EBE_LANES; l++) {
        PetscReal e = 0;
        for (PetscInt i = 0; i < 6 * nn[k]; i++) {
          diff = PetscMax(diff, PetscAbsReal(fe[i][l] - ref[i][l]));
          e += 0.5 * x[6 * nn[k] * l + i] * ref[i][l];
        }
        ediff = PetscMax(ediff, PetscAbsReal(en[l] - e));
        emax  = PetscMax(emax, PetscAbsReal(e));
      }
      PetscCall(Check(comm, what[k], diff / fmax, 1e-14));
      PetscCall(PetscSNPrintf(ew, sizeof(ew), "%s: strain energies u.K u / 2", what[k]));
      PetscCall(Check(comm, ew, ediff / emax, 1e-14));
    }
  }
  for (int k = 0; k < 3; k++)
    PetscCall(PetscFree(ops[k]));
  PetscFunctionReturn(0);
}

#define STEEL "-material_names steel -material_steel_E 210e9 -material_steel_nu 0.3 -material_steel_rho 7850 "
#define TOWER "-mesh_generate tower -mesh_tower_bays 3,3,12 -mesh_tower_size 2,2,6 " STEEL "-section_names tube -section_tube_groups frame -section_tube_material steel -section_tube_A 1.2e-3 -section_tube_Iy 1.0e-6 -section_tube_Iz 2.0e-6 -section_tube_J 2.0e-6 -section_tube_orientation 1,1,0 -bc_names base -bc_base_group base "
#define PLATE "-mesh_generate plate -mesh_plate_size 1.0,0.8 -mesh_divisions 24,20 " STEEL "-section_names skin -section_skin_groups plate -section_skin_material steel -section_skin_thickness 0.004 -bc_names x0 -bc_x0_group x0 -bc_x0_dofs clamped "

int main(int argc, char **argv)
{
  MPI_Comm    world, sub;
  PetscMPIInt size, rank;
  const char *names[] = {"tower of linear beams (beam3d)", "plate of MITC4 quads", "plate of DKT3 triangles", "cylindrical panel, quads and triangles (curved, warped quads)", "stiffened plate: MITC4, DKT3, beam3d, springs to ground", "tower of co-rotational beams (initial stiffness)"};
  const char *opts[]  = {TOWER,
                         PLATE,
                         PLATE "-mesh_triangles",
                         "-mesh_generate cylinder -mesh_divisions 16,18 -mesh_cylinder_radius 1 -mesh_cylinder_length 2 -mesh_cylinder_angle 120 " STEEL "-section_names skin -section_skin_groups shell -section_skin_material steel -section_skin_thickness 0.004 -section_skin_max_warp 1 -bc_names x0 -bc_x0_group x0 -bc_x0_dofs clamped -mesh_mixed",
                         "-mesh_generate plate -mesh_plate_size 1.0,0.8 -mesh_divisions 24,20 -mesh_plate_stiffeners 3 -mesh_mixed " STEEL "-section_names skin,bar -section_skin_groups plate -section_skin_material steel -section_skin_thickness 0.004 -section_bar_groups stiffeners -section_bar_material steel -section_bar_A 2.4e-4 -section_bar_Iz 3.2e-8 -section_bar_Iy 7.2e-10 -section_bar_J 2.88e-9 -bc_names x0 -bc_x0_group x0 -bc_x0_dofs clamped -spring_names g -spring_g_group x1 -spring_g_stiffness 1e7,2e7,3e7,1e4,2e4,3e4",
                         TOWER "-model_geometry nonlinear"};

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  world = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(world, &size));
  PetscCallMPI(MPI_Comm_rank(world, &rank));
  PetscCall(CheckKernels(world));
  { /* the arrays of the step's vectors start on a cache line (src/util/memalign.c): vector loads do not split */
    Vec          v;
    PetscScalar *a;
    PetscBool    aligned;
    PetscCall(FlxInitializePackage());
    PetscCall(FlxMemoryAligned(&aligned));
    PetscCall(VecCreateMPI(world, 200000, PETSC_DETERMINE, &v));
    PetscCall(VecGetArray(v, &a));
    PetscCall(Check(world, "Vec array's offset from a 64-byte boundary (bytes)", (PetscReal)((size_t)a % 64), 0));
    PetscCall(Check(world, "PETSc's allocations 64-byte aligned (FlxMemoryAligned: 0 yes)", aligned ? 0 : 1, 0));
    PetscCall(VecRestoreArray(v, &a));
    PetscCall(VecDestroy(&v));
  }
  for (size_t c = 0; c < sizeof(opts) / sizeof(opts[0]); c++) {
    PetscScalar *y = NULL, *ys;
    PetscInt     N, Ns;
    PetscReal    err = 0;
    char         what[256];
    PetscCall(RunCase(world, opts[c], PETSC_TRUE, &err, &y, &N));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s, %d ranks: |K_e x - K x| / |K x|", names[c], (int)size));
    PetscCall(Check(world, what, err, 1e-14));
    for (PetscMPIInt s = 1; s < size; s *= 2) { /* the same model on the first s ranks */
      PetscReal diff = 0;
      PetscCallMPI(MPI_Comm_split(world, rank < s ? 0 : MPI_UNDEFINED, rank, &sub));
      if (sub != MPI_COMM_NULL) {
        PetscCall(RunCase(sub, opts[c], PETSC_FALSE, NULL, &ys, &Ns));
        if (!rank) {
          PetscCheck(Ns == N, PETSC_COMM_SELF, PETSC_ERR_PLIB, "sizes differ");
          for (PetscInt i = 0; i < N; i++)
            if (ys[i] != y[i]) diff = PetscMax(diff, PetscAbsScalar(ys[i] - y[i]) + 1e-300);
          PetscCall(PetscFree(ys));
        }
        PetscCallMPI(MPI_Comm_free(&sub));
      }
      PetscCallMPI(MPI_Bcast(&diff, 1, MPIU_REAL, 0, world));
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s: largest difference, %d against %d ranks (bits)", names[c], (int)size, (int)s));
      PetscCall(Check(world, what, diff, 0));
    }
    PetscCall(PetscFree(y));
  }
  PetscCall(PetscOptionsClear(NULL));
  PetscCall(PetscPrintf(world, "%s\n", testcheck_fails ? "FAILED" : "all checks passed"));
  PetscCall(PetscFinalize());
  return testcheck_fails ? 1 : 0;
}
