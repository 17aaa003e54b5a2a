/* The generic FlxWriter API on a generated stiffened plate (line2 and quad4 cells): frames with an extra node field and
   cell fields, history series (one in a sub-group), a static file, and names the writer must refuse. Values are
   functions of the natural index, frame and component, so check_writer_api.py verifies every one with h5py.
   Usage: mpirun -np P test_writer OUTDIR */
#include <flexure/flexure.h>

static const char *const BeamComps[12] = {"N_1", "Vy_1", "Vz_1", "T_1", "My_1", "Mz_1", "N_2", "Vy_2", "Vz_2", "T_2", "My_2", "Mz_2"};
static const char *const QuadComps[2]  = {"a", "b"};

/* A natural-order vector of n rows of width values, split in whole rows; value(row, col) = base + 10 row + col. */
static PetscErrorCode RowVector(MPI_Comm comm, PetscInt n, PetscInt width, PetscReal base, Vec *v)
{
  PetscMPIInt  rank, size;
  PetscInt     lo, hi;
  PetscScalar *a;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(VecCreateMPI(comm, width * (n / size + (rank < n % size)), PETSC_DETERMINE, v));
  PetscCall(VecGetOwnershipRange(*v, &lo, &hi));
  PetscCall(VecGetArray(*v, &a));
  for (PetscInt i = lo; i < hi; i++)
    a[i - lo] = base + 10.0 * (i / width) + (i % width);
  PetscCall(VecRestoreArray(*v, &a));
  PetscFunctionReturn(0);
}

static PetscErrorCode Transient(MPI_Comm comm, FlxMesh mesh, const char dir[])
{
  FlxWriter w;
  char      path[PETSC_MAX_PATH_LEN];
  PetscInt  N, E[FLX_NUM_CELL_TYPES], hb, hs;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetNodeLayout(mesh, &N, NULL));
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++)
    PetscCall(FlxMeshGetNumCellsOfType(mesh, (FlxCellType)t, &E[t]));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/api_transient.h5", dir));
  PetscCall(FlxWriterCreate(comm, path, &w));
  PetscCall(FlxWriterWriteMesh(w, mesh));
  PetscCall(FlxWriterDefineHistory(w, "reactions/base", 6, "Fx,Fy,Fz,Mx,My,Mz", &hb));
  PetscCall(FlxWriterDefineHistory(w, "single", 1, "s", &hs));
  for (PetscInt f = 0; f < 3; f++) {
    Vec       x, v, a, r, cf[FLX_NUM_CELL_TYPES] = {NULL, NULL, NULL}, q[FLX_NUM_CELL_TYPES] = {NULL, NULL, NULL};
    PetscReal rows[5 * 6], s[5], t[5];
    PetscCall(RowVector(comm, N, 6, 1000.0 * f, &x));
    PetscCall(RowVector(comm, N, 6, 1000.0 * f + 0.25, &v));
    PetscCall(RowVector(comm, N, 6, 1000.0 * f + 0.5, &a));
    PetscCall(RowVector(comm, N, 6, 1000.0 * f + 0.75, &r));
    PetscCall(RowVector(comm, E[FLX_CELL_LINE2], 12, 1e5 * f, &cf[FLX_CELL_LINE2]));
    PetscCall(RowVector(comm, E[FLX_CELL_QUAD4], 2, 1e5 * f + 0.5, &q[FLX_CELL_QUAD4]));
    PetscCall(FlxWriterWriteFields(w, 0.1 * f, x, v, a));
    PetscCall(FlxWriterWriteFrameNodeField(w, "reaction", r));
    PetscCall(FlxWriterWriteCellField(w, "beam_forces", 12, BeamComps, cf));
    if (f > 0) PetscCall(FlxWriterWriteCellField(w, "quad_field", 2, QuadComps, q)); /* starts at frame 1 */
    for (PetscInt i = 0; i < 5; i++) {
      t[i] = 5 * f + i;
      s[i] = -t[i];
      for (PetscInt c = 0; c < 6; c++)
        rows[6 * i + c] = 10 * t[i] + c;
    }
    PetscCall(FlxWriterAppendHistoryTime(w, 5, t));
    PetscCall(FlxWriterAppendHistory(w, hb, 5, rows));
    PetscCall(FlxWriterAppendHistory(w, hs, 5, s));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&v));
    PetscCall(VecDestroy(&a));
    PetscCall(VecDestroy(&r));
    PetscCall(VecDestroy(&cf[FLX_CELL_LINE2]));
    PetscCall(VecDestroy(&q[FLX_CELL_QUAD4]));
  }
  PetscCall(FlxWriterDestroy(&w));
  PetscFunctionReturn(0);
}

static PetscErrorCode Static(MPI_Comm comm, FlxMesh mesh, const char dir[])
{
  FlxWriter w;
  char      path[PETSC_MAX_PATH_LEN];
  PetscInt  N, E, id;
  Vec       x, cf[FLX_NUM_CELL_TYPES] = {NULL, NULL, NULL};

  PetscFunctionBegin;
  PetscCall(FlxMeshGetNodeLayout(mesh, &N, NULL));
  PetscCall(FlxMeshGetNumCellsOfType(mesh, FLX_CELL_LINE2, &E));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/api_static.h5", dir));
  PetscCall(FlxWriterCreate(comm, path, &w));
  PetscCall(FlxWriterWriteMesh(w, mesh));
  PetscCall(RowVector(comm, N, 6, 0.125, &x));
  PetscCall(RowVector(comm, E, 12, 0.375, &cf[FLX_CELL_LINE2]));
  PetscCall(FlxWriterWriteFrameNodeField(w, "displacement", x));
  PetscCall(FlxWriterWriteFrameNodeField(w, "reaction", x));
  PetscCall(FlxWriterWriteCellField(w, "beam_forces", 12, BeamComps, cf));
  { /* names the writer refuses, collectively, with a message (and the file stays usable) */
    const char *bad[] = {"a/b/c", "/a", "a/", "", "..", "time", "reactions/base", "reactions/base/x"};
    PetscCall(FlxWriterDefineHistory(w, "reactions/base", 6, "Fx,Fy,Fz,Mx,My,Mz", &id));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    for (int k = 0; k < 8; k++) {
      PetscErrorCode ierr = FlxWriterDefineHistory(w, bad[k], 1, "c", &id);
      PetscCall(PetscPrintf(comm, "refused history '%s': %s\n", bad[k], ierr ? "yes" : "NO"));
    }
    {
      PetscErrorCode ierr = FlxWriterWriteCellField(w, "a/b", 12, BeamComps, cf);
      PetscCall(PetscPrintf(comm, "refused cell field 'a/b': %s\n", ierr ? "yes" : "NO"));
      ierr = FlxWriterDefineProbe(w, "p/q", 1, "ux");
      PetscCall(PetscPrintf(comm, "refused probe 'p/q': %s\n", ierr ? "yes" : "NO"));
      ierr = FlxWriterDefineProbe(w, "p", 1, "ux");
      if (!ierr) ierr = FlxWriterDefineProbe(w, "p", 1, "ux") ? 0 : 1;
      PetscCall(PetscPrintf(comm, "refused duplicate probe 'p': %s\n", !ierr ? "yes" : "NO"));
    }
    PetscCall(PetscPopErrorHandler());
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&cf[FLX_CELL_LINE2]));
  PetscCall(FlxWriterDestroy(&w));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  FlxMesh  mesh;
  MPI_Comm comm;

  PetscCall(PetscInitialize(&argc, &argv, NULL, "test_writer OUTDIR: the generic writer API"));
  PetscCheck(argc > 1, PETSC_COMM_WORLD, PETSC_ERR_USER_INPUT, "usage: test_writer OUTDIR");
  comm = PETSC_COMM_WORLD;
  PetscCall(FlxInitializePackage());
  PetscCall(PetscOptionsSetValue(NULL, "-mesh_generate", "plate"));
  PetscCall(PetscOptionsSetValue(NULL, "-mesh_divisions", "4,4"));
  PetscCall(PetscOptionsSetValue(NULL, "-mesh_plate_stiffeners", "1"));
  PetscCall(FlxMeshCreate(comm, &mesh));
  PetscCall(FlxMeshSetFromOptions(mesh));
  PetscCall(FlxMeshSetUp(mesh));
  PetscCall(Transient(comm, mesh, argv[1]));
  PetscCall(Static(comm, mesh, argv[1]));
  PetscCall(FlxMeshDestroy(&mesh));
  PetscCall(PetscFinalize());
  return 0;
}
