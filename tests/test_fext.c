/* external_force_reuse_np{1,2}: f_ext(t) (src/model/loads.c) is not recomputed when the vector it wrote last is
   unchanged and every scale factor is the same, and is recomputed otherwise. Each call's result is compared bit for
   bit with the same f_ext computed by a second model set up from the same options (whose reuse is its own) into a
   fresh vector; whether a call skipped its work is read from the vector's object state, on every rank.
   A plate under a ramped pressure (t1 = 1), a constant tip force and gravity on a half-sine:
   - the same t twice: skipped, the same values;
   - the vector changed by its owner (zeroed; or only accessed for writing, values kept): recomputed;
   - changed on rank 0 alone (as a stepper writes the moving DOFs of the ranks that own some): recomputed there,
     skipped on the others, the same values everywhere (the work is local: the ranks may decide apart);
   - a t where a factor differs (on the ramp, on the half-sine): recomputed;
   - the ramp's plateau with the half-sine ended (every factor the same at t = 3 and t = 4): skipped;
   - another vector at the same t, even with the object state of the first: computed there (the reuse is of one
     vector, by its object id).
   A beam on a pad (a spring to ground) under base excitation (a sine), relative (-M r a_g) and absolute (the springs'
   ground ends moving: K_s r u_g + C_s r v_g): the same t twice skipped, a later t recomputed (only the base's factors
   change). */
#include <flexure/flexure.h>
#include <petsc/private/petscimpl.h> /* PetscObjectStateGet, PetscObjectStateSet */

static PetscInt fails = 0;

static PetscErrorCode Check(MPI_Comm comm, const char *what, PetscBool ok)
{
  PetscFunctionBegin;
  if (!ok) fails++;
  PetscCall(PetscPrintf(comm, "%-78s %s\n", what, ok ? "ok" : "FAILED"));
  PetscFunctionReturn(0);
}

/* f_ext(t) of sys into f; skipped: whether f's state stayed on this rank; same: f equals f_ext(t) of ref in a new
   vector, bit for bit (collective). */
static PetscErrorCode Call(FlxSystem sys, FlxSystem ref, Vec f, PetscReal t, PetscBool *skipped, PetscBool *same)
{
  PetscObjectState s0, s1;
  Vec              g;

  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)f, &s0));
  PetscCall(FlxSystemComputeExternalForce(sys, t, f));
  PetscCall(PetscObjectStateGet((PetscObject)f, &s1));
  *skipped = (PetscBool)(s0 == s1);
  PetscCall(VecDuplicate(f, &g));
  PetscCall(FlxSystemComputeExternalForce(ref, t, g));
  PetscCall(VecEqual(f, g, same));
  PetscCall(VecDestroy(&g));
  PetscFunctionReturn(0);
}

/* Call on every rank; ok when every rank skipped (want PETSC_TRUE) or none did (PETSC_FALSE) and the values are f_ext. */
static PetscErrorCode Expect(MPI_Comm comm, FlxSystem sys, FlxSystem ref, Vec f, PetscReal t, PetscBool want, const char *what)
{
  PetscBool skipped, same;
  int       mine, all[2];

  PetscFunctionBegin;
  PetscCall(Call(sys, ref, f, t, &skipped, &same));
  mine = skipped == want;
  PetscCallMPI(MPI_Allreduce(&mine, &all[0], 1, MPI_INT, MPI_MIN, comm));
  all[1] = same;
  PetscCall(Check(comm, what, (PetscBool)(all[0] && all[1])));
  PetscFunctionReturn(0);
}

/* The mesh and two models (model, ref) of the options opts; their systems. */
static PetscErrorCode SetUp(MPI_Comm comm, const char opts[], FlxMesh *mesh, FlxModel model[2], FlxSystem sys[2])
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsClear(NULL));
  PetscCall(PetscOptionsInsertString(NULL, opts));
  PetscCall(FlxMeshCreate(comm, mesh));
  PetscCall(FlxMeshSetFromOptions(*mesh));
  for (int k = 0; k < 2; k++) {
    PetscCall(FlxModelCreate(*mesh, &model[k]));
    PetscCall(FlxModelSetFromOptions(model[k]));
  }
  PetscCall(FlxMeshSetUp(*mesh));
  for (int k = 0; k < 2; k++) {
    PetscCall(FlxModelSetUp(model[k]));
    PetscCall(FlxModelGetSystem(model[k], &sys[k]));
  }
  PetscCall(FlxOptionsCheckUnused(comm, NULL));
  PetscFunctionReturn(0);
}

static PetscErrorCode TearDown(FlxMesh *mesh, FlxModel model[2])
{
  PetscFunctionBegin;
  for (int k = 0; k < 2; k++)
    PetscCall(FlxModelDestroy(&model[k]));
  PetscCall(FlxMeshDestroy(mesh));
  PetscFunctionReturn(0);
}

#define STEEL "-material_names steel -material_steel_E 210e9 -material_steel_nu 0.3 -material_steel_rho 7850 "
#define PAD \
  "-mesh_generate beam -mesh_beam_elements 6 -mesh_beam_length 1 -mesh_beam_direction 0,0,1 " STEEL "-section_names bar -section_bar_groups beam -section_bar_material steel -section_bar_shape rectangle -section_bar_b 0.02 -section_bar_h 0.02 -spring_names pad -spring_pad_group root -spring_pad_stiffness 2e6,2e6,1e8,1e4,1e4,1e5 -spring_pad_damping 200,200,0,0,0,0 -base_value 1,0,0 -base_function sine -base_frequency 20 "

int main(int argc, char **argv)
{
  FlxMesh          mesh;
  FlxModel         model[2];
  FlxSystem        sys[2];
  Vec              f, h;
  MPI_Comm         comm;
  PetscReal        nrm;
  PetscScalar     *a;
  PetscMPIInt      rank, size;
  PetscObjectState st;
  const char      *form[2] = {"relative", "absolute"};

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(SetUp(comm,
                  "-mesh_generate plate -mesh_plate_size 1.0,0.8 -mesh_divisions 12,10 " STEEL "-section_names skin -section_skin_groups plate -section_skin_material steel -section_skin_thickness 0.004 "
                  "-bc_names x0 -bc_x0_group x0 -bc_x0_dofs clamped "
                  "-load_names p,tip,g -load_p_type pressure -load_p_group plate -load_p_value 1000 -load_p_function ramp -load_p_t1 1 "
                  "-load_tip_group x1 -load_tip_value 0,0,-50 "
                  "-load_g_type gravity -load_g_group plate -load_g_value 0,0,-9.81 -load_g_function halfsine -load_g_t1 2",
                  &mesh, model, sys));
  PetscCall(FlxModelCreateVector(model[0], &f));
  PetscCall(VecDuplicate(f, &h));
  PetscCall(Expect(comm, sys[0], sys[1], f, 0.5, PETSC_FALSE, "plate: first call at t = 0.5: computed"));
  PetscCall(VecNorm(f, NORM_INFINITY, &nrm));
  PetscCall(Check(comm, "plate: f_ext(0.5) is not zero", (PetscBool)(nrm > 0)));
  PetscCall(Expect(comm, sys[0], sys[1], f, 0.5, PETSC_TRUE, "plate: t = 0.5 again, the vector unchanged: skipped, the same values"));
  PetscCall(VecZeroEntries(f));
  PetscCall(Expect(comm, sys[0], sys[1], f, 0.5, PETSC_FALSE, "plate: t = 0.5 after the owner zeroed it: recomputed"));
  PetscCall(VecGetArray(f, &a)); /* written by its owner, values kept: the state moves */
  PetscCall(VecRestoreArray(f, &a));
  PetscCall(Expect(comm, sys[0], sys[1], f, 0.5, PETSC_FALSE, "plate: t = 0.5 after a write access: recomputed"));
  if (size > 1) { /* rank 0 alone writes (zeros) into f: it recomputes, the others skip */
    PetscBool skipped, same;
    int       ok = 1, all;
    if (!rank) {
      PetscInt n;
      PetscCall(VecGetLocalSize(f, &n));
      PetscCall(VecGetArray(f, &a));
      PetscCall(PetscArrayzero(a, n));
      PetscCall(VecRestoreArray(f, &a));
    }
    PetscCall(Call(sys[0], sys[1], f, 0.5, &skipped, &same));
    ok = (rank ? skipped : !skipped) && same;
    PetscCallMPI(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm));
    PetscCall(Check(comm, "plate: f changed on rank 0 alone: recomputed there, skipped elsewhere, f_ext", (PetscBool)all));
  }
  PetscCall(Expect(comm, sys[0], sys[1], f, 0.75, PETSC_FALSE, "plate: t = 0.75 (ramp and half-sine moved): recomputed"));
  PetscCall(Expect(comm, sys[0], sys[1], f, 1.5, PETSC_FALSE, "plate: t = 1.5 (ramp on its plateau, half-sine moved): recomputed"));
  PetscCall(Expect(comm, sys[0], sys[1], f, 3.0, PETSC_FALSE, "plate: t = 3 (plateau, half-sine over): recomputed"));
  PetscCall(Expect(comm, sys[0], sys[1], f, 4.0, PETSC_TRUE, "plate: t = 4 (every factor as at t = 3): skipped, the same values"));
  PetscCall(PetscObjectStateGet((PetscObject)f, &st));
  PetscCall(PetscObjectStateSet((PetscObject)h, st)); /* another vector with the first's state: told apart by its id */
  PetscCall(Expect(comm, sys[0], sys[1], h, 4.0, PETSC_FALSE, "plate: another vector at t = 4, with the first's state: computed there"));
  PetscCall(Expect(comm, sys[0], sys[1], f, 0.5, PETSC_FALSE, "plate: back to t = 0.5 on the first vector: recomputed"));
  PetscCall(VecDestroy(&h));
  PetscCall(VecDestroy(&f));
  PetscCall(TearDown(&mesh, model));

  for (int k = 0; k < 2; k++) { /* base excitation: only the base's factors move with t */
    char opts[2048], what[128];
    PetscCall(PetscSNPrintf(opts, sizeof(opts), "%s-base_formulation %s", PAD, form[k]));
    PetscCall(SetUp(comm, opts, &mesh, model, sys));
    PetscCall(FlxModelCreateVector(model[0], &f));
    PetscCall(PetscSNPrintf(what, sizeof(what), "pad, %s base: t = 0.01: computed, not zero", form[k]));
    PetscCall(Expect(comm, sys[0], sys[1], f, 0.01, PETSC_FALSE, what));
    PetscCall(VecNorm(f, NORM_INFINITY, &nrm));
    PetscCall(Check(comm, what, (PetscBool)(nrm > 0)));
    PetscCall(PetscSNPrintf(what, sizeof(what), "pad, %s base: t = 0.01 again: skipped, the same values", form[k]));
    PetscCall(Expect(comm, sys[0], sys[1], f, 0.01, PETSC_TRUE, what));
    PetscCall(PetscSNPrintf(what, sizeof(what), "pad, %s base: t = 0.02 (the base's factors moved): recomputed", form[k]));
    PetscCall(Expect(comm, sys[0], sys[1], f, 0.02, PETSC_FALSE, what));
    PetscCall(VecDestroy(&f));
    PetscCall(TearDown(&mesh, model));
  }

  PetscCall(PetscOptionsClear(NULL));
  PetscCall(PetscPrintf(comm, "%s\n", fails ? "FAILED" : "all checks passed"));
  PetscCall(PetscFinalize());
  return fails ? 1 : 0;
}
