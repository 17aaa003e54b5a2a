/* Mode shapes read back from a results file of 'flexure modes' (initial conditions from a mode). */
#include <flexure/private/modelimpl.h>
#include <hdf5.h>

/* Check the file on rank 0: /modes/shape exists, has the model's node count and at least mode rows. */
static PetscErrorCode CheckModesFile(FlxModel m, const char path[], PetscInt mode, const char what[])
{
  PetscMPIInt rank;
  PetscInt    N;
  char        msg[PETSC_MAX_PATH_LEN + 512] = "";

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(m->comm, &rank));
  PetscCall(FlxMeshGetNodeLayout(m->mesh, &N, NULL));
  if (rank == 0) {
    H5E_auto2_t fn;
    void       *data;
    hid_t       f, d, sp;
    hsize_t     dims[3] = {0, 0, 0};
    int         nd      = -1;
    H5Eget_auto2(H5E_DEFAULT, &fn, &data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    f = FlxInputFileProblem(what, path, msg, sizeof(msg)) ? -1 : H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) {
      if (!msg[0]) PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: cannot open %s as an HDF5 file", what, path));
    } else {
      d = H5Dopen2(f, "/modes/shape", H5P_DEFAULT);
      if (d < 0)
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: %s has no /modes/shape: give a results file of 'flexure modes'", what, path));
      else {
        sp = H5Dget_space(d);
        nd = sp >= 0 ? H5Sget_simple_extent_dims(sp, dims, NULL) : -1;
        if (sp >= 0) H5Sclose(sp);
        H5Dclose(d);
        if (nd != 3 || dims[2] != 6)
          PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: /modes/shape of %s is not a K x N x 6 dataset", what, path));
        else if ((PetscInt)dims[1] != N)
          PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: the modes in %s are of a mesh with %llu nodes, this model has %" PetscInt_FMT ": run 'flexure modes' on this model", what, path, (unsigned long long)dims[1], N));
        else if (mode > (PetscInt)dims[0])
          PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: mode %" PetscInt_FMT " is beyond the %llu modes in %s (rerun 'flexure modes' with -modes_n %" PetscInt_FMT ")", what, mode, (unsigned long long)dims[0], path, mode));
      }
      H5Fclose(f);
    }
    H5Eset_auto2(H5E_DEFAULT, fn, data);
  }
  PetscCall(FlxCheckCollective(m->comm, msg[0] ? PETSC_TRUE : PETSC_FALSE, PETSC_ERR_USER_INPUT, msg));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelReadModeShape(FlxModel m, const char path[], PetscInt mode, PetscReal amplitude, const char what[], Vec u)
{
  Vec          xnat;
  PetscInt     lo, hi;
  PetscScalar *a;
  PetscReal    umax = 0;
  int          ok   = 1, all;

  PetscFunctionBegin;
  PetscCall(CheckModesFile(m, path, mode, what));
  PetscCall(FlxModelCreateNaturalVector(m, &xnat));
  PetscCall(VecGetOwnershipRange(xnat, &lo, &hi));
  PetscCall(VecGetArray(xnat, &a));
  { /* every rank reads its rows of natural nodes (read-only, independent) */
    hid_t   f, d, fs, ms;
    hsize_t start[3] = {(hsize_t)(mode - 1), (hsize_t)(lo / 6), 0}, count[3] = {1, (hsize_t)((hi - lo) / 6), 6};
    f  = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    d  = f >= 0 ? H5Dopen2(f, "/modes/shape", H5P_DEFAULT) : -1;
    fs = d >= 0 ? H5Dget_space(d) : -1;
    ms = H5Screate_simple(3, count, NULL);
    if (fs < 0 || ms < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) < 0 || (hi > lo && H5Dread(d, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, a) < 0)) ok = 0;
    if (ms >= 0) H5Sclose(ms);
    if (fs >= 0) H5Sclose(fs);
    if (d >= 0) H5Dclose(d);
    if (f >= 0) H5Fclose(f);
  }
  for (PetscInt i = 0; i < (hi - lo) / 6; i++)
    umax = PetscMax(umax, PetscSqrtReal(a[6 * i] * a[6 * i] + a[6 * i + 1] * a[6 * i + 1] + a[6 * i + 2] * a[6 * i + 2]));
  PetscCall(VecRestoreArray(xnat, &a));
  PetscCallMPI(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, m->comm));
  PetscCheck(all, m->comm, PETSC_ERR_FILE_READ, "%s: cannot read mode %" PetscInt_FMT " from %s", what, mode, path);
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &umax, 1, MPIU_REAL, MPI_MAX, m->comm));
  PetscCheck(umax > 0, m->comm, PETSC_ERR_USER_INPUT, "%s: mode %" PetscInt_FMT " of %s has no translation to scale to the amplitude", what, mode, path);
  PetscCall(VecScatterBegin(m->tonat, xnat, u, INSERT_VALUES, SCATTER_REVERSE));
  PetscCall(VecScatterEnd(m->tonat, xnat, u, INSERT_VALUES, SCATTER_REVERSE));
  PetscCall(VecScale(u, amplitude / umax));
  PetscCall(VecDestroy(&xnat));
  PetscFunctionReturn(0);
}
