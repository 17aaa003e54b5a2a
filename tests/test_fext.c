/* external_force_reuse_np{1,2}: f_ext(t) (src/model/loads.c) is not recomputed when the vector it wrote last is
   unchanged and every scale factor is the same, and is recomputed otherwise. A plate under a ramped pressure (t1 = 1),
   a constant tip force and gravity on a half-sine; each call's result against the same f_ext computed into a fresh
   vector (bits), and whether the call skipped its work (the vector's object state unchanged):
   - the same t twice: skipped, the same values;
   - the vector changed by its owner (zeroed; or only accessed for writing, values kept): recomputed;
   - a t where a factor differs (on the ramp, on the half-sine): recomputed;
   - the ramp's plateau with the half-sine ended (every factor the same at t = 3 and t = 4): skipped;
   - another vector at the same t: computed there (the memo is of one vector). */
#include <flexure/flexure.h>
#include <petsc/private/petscimpl.h> /* PetscObjectStateGet */

static PetscInt fails = 0;

static PetscErrorCode Check(MPI_Comm comm, const char *what, PetscBool ok)
{
  PetscFunctionBegin;
  if (!ok) fails++;
  PetscCall(PetscPrintf(comm, "%-70s %s\n", what, ok ? "ok" : "FAILED"));
  PetscFunctionReturn(0);
}

/* f_ext(t) of sys into f; skipped: whether f's state stayed; same: f equals f_ext(t) of ref (the same model set up
   again, whose memo is its own) in a new vector, bit for bit. */
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

int main(int argc, char **argv)
{
  FlxMesh      mesh;
  FlxModel     model, mref;
  FlxSystem    sys, ref;
  Vec          f, h;
  MPI_Comm     comm;
  PetscBool    skipped, same;
  PetscReal    nrm;
  PetscScalar *a;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  comm = PETSC_COMM_WORLD;
  PetscCall(PetscOptionsInsertString(NULL, "-mesh_generate plate -mesh_plate_size 1.0,0.8 -mesh_divisions 12,10 "
                                           "-material_names steel -material_steel_E 210e9 -material_steel_nu 0.3 -material_steel_rho 7850 "
                                           "-section_names skin -section_skin_groups plate -section_skin_material steel -section_skin_thickness 0.004 "
                                           "-bc_names x0 -bc_x0_group x0 -bc_x0_dofs clamped "
                                           "-load_names p,tip,g -load_p_type pressure -load_p_group plate -load_p_value 1000 -load_p_function ramp -load_p_t1 1 "
                                           "-load_tip_group x1 -load_tip_value 0,0,-50 "
                                           "-load_g_type gravity -load_g_group plate -load_g_value 0,0,-9.81 -load_g_function halfsine -load_g_t1 2"));
  PetscCall(FlxMeshCreate(comm, &mesh));
  PetscCall(FlxMeshSetFromOptions(mesh));
  PetscCall(FlxModelCreate(mesh, &model));
  PetscCall(FlxModelSetFromOptions(model));
  PetscCall(FlxMeshSetUp(mesh));
  PetscCall(FlxModelSetUp(model));
  PetscCall(FlxModelCreate(mesh, &mref));
  PetscCall(FlxModelSetFromOptions(mref));
  PetscCall(FlxModelSetUp(mref));
  PetscCall(FlxOptionsCheckUnused(comm, NULL));
  PetscCall(FlxModelGetSystem(model, &sys));
  PetscCall(FlxModelGetSystem(mref, &ref));
  PetscCall(FlxModelCreateVector(model, &f));
  PetscCall(VecDuplicate(f, &h));

  PetscCall(Call(sys, ref, f, 0.5, &skipped, &same));
  PetscCall(Check(comm, "first call at t = 0.5: computed", (PetscBool)(!skipped && same)));
  PetscCall(VecNorm(f, NORM_INFINITY, &nrm));
  PetscCall(Check(comm, "f_ext(0.5) is not zero", (PetscBool)(nrm > 0)));
  PetscCall(Call(sys, ref, f, 0.5, &skipped, &same));
  PetscCall(Check(comm, "t = 0.5 again, the vector unchanged: skipped, the same values", (PetscBool)(skipped && same)));
  PetscCall(VecZeroEntries(f));
  PetscCall(Call(sys, ref, f, 0.5, &skipped, &same));
  PetscCall(Check(comm, "t = 0.5 after the owner zeroed it: recomputed", (PetscBool)(!skipped && same)));
  PetscCall(VecGetArray(f, &a)); /* written by its owner, values kept: the state moves */
  PetscCall(VecRestoreArray(f, &a));
  PetscCall(Call(sys, ref, f, 0.5, &skipped, &same));
  PetscCall(Check(comm, "t = 0.5 after a write access: recomputed", (PetscBool)(!skipped && same)));
  PetscCall(Call(sys, ref, f, 0.75, &skipped, &same));
  PetscCall(Check(comm, "t = 0.75 (ramp and half-sine moved): recomputed", (PetscBool)(!skipped && same)));
  PetscCall(Call(sys, ref, f, 1.5, &skipped, &same));
  PetscCall(Check(comm, "t = 1.5 (ramp on its plateau, half-sine moved): recomputed", (PetscBool)(!skipped && same)));
  PetscCall(Call(sys, ref, f, 3.0, &skipped, &same));
  PetscCall(Check(comm, "t = 3 (plateau, half-sine over): recomputed", (PetscBool)(!skipped && same)));
  PetscCall(Call(sys, ref, f, 4.0, &skipped, &same));
  PetscCall(Check(comm, "t = 4 (every factor as at t = 3): skipped, the same values", (PetscBool)(skipped && same)));
  PetscCall(Call(sys, ref, h, 4.0, &skipped, &same));
  PetscCall(Check(comm, "another vector at t = 4: computed there", (PetscBool)(!skipped && same)));
  PetscCall(Call(sys, ref, f, 0.5, &skipped, &same));
  PetscCall(Check(comm, "back to t = 0.5 on the first vector: recomputed", (PetscBool)(!skipped && same)));

  PetscCall(VecDestroy(&h));
  PetscCall(VecDestroy(&f));
  PetscCall(FlxModelDestroy(&mref));
  PetscCall(FlxModelDestroy(&model));
  PetscCall(FlxMeshDestroy(&mesh));
  PetscCall(PetscPrintf(comm, "%s\n", fails ? "FAILED" : "all checks passed"));
  PetscCall(PetscFinalize());
  return fails ? 1 : 0;
}
