/* HDF5 helpers for collective writes where rank 0 holds the data. */
#include <flexure/private/h5util.h>

PetscErrorCode FlxH5CreateExtendible(hid_t loc, const char name[], hid_t type, int r, const hsize_t dims[], hid_t *dset)
{
  hsize_t cur[4], max[4], chunk[4];
  hid_t   space, plist;

  PetscFunctionBegin;
  for (int i = 0; i < r; i++) {
    cur[i]   = i ? dims[i] : 0;
    max[i]   = i ? dims[i] : H5S_UNLIMITED;
    chunk[i] = i ? (dims[i] ? dims[i] : 1) : 1;
  }
  if (r == 1) chunk[0] = 1024;
  if (r == 2 && dims[1] * 1024 <= 65536) chunk[0] = 1024 / (dims[1] ? dims[1] : 1) + 1;
  if (r == 3 && dims[1] > 65536) chunk[1] = 65536;
  FLX_H5ID(space, H5Screate_simple(r, cur, max));
  FLX_H5ID(plist, H5Pcreate(H5P_DATASET_CREATE));
  FLX_H5(H5Pset_chunk(plist, r, chunk));
  FLX_H5ID(*dset, H5Dcreate2(loc, name, type, space, H5P_DEFAULT, plist, H5P_DEFAULT));
  FLX_H5(H5Pclose(plist));
  FLX_H5(H5Sclose(space));
  PetscFunctionReturn(0);
}

static PetscErrorCode CollectiveXfer(hid_t *xfer)
{
  PetscFunctionBegin;
  FLX_H5ID(*xfer, H5Pcreate(H5P_DATASET_XFER));
  FLX_H5(H5Pset_dxpl_mpio(*xfer, H5FD_MPIO_COLLECTIVE));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxH5WriteRoot(hid_t loc, const char name[], hid_t type, int r, const hsize_t dims[], const void *data, PetscMPIInt rank)
{
  hid_t space, dset, xfer;

  PetscFunctionBegin;
  FLX_H5ID(space, H5Screate_simple(r, dims, NULL));
  FLX_H5ID(dset, H5Dcreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  PetscCall(CollectiveXfer(&xfer));
  if (rank != 0) FLX_H5(H5Sselect_none(space));
  FLX_H5(H5Dwrite(dset, type, rank ? space : H5S_ALL, space, xfer, data));
  FLX_H5(H5Pclose(xfer));
  FLX_H5(H5Dclose(dset));
  FLX_H5(H5Sclose(space));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxH5AppendRoot(hid_t dset, hid_t type, hsize_t n, const void *data, PetscMPIInt rank)
{
  hid_t   fspace, mspace, xfer;
  hsize_t dims[4], start[4] = {0, 0, 0, 0}, count[4];
  int     r;

  PetscFunctionBegin;
  FLX_H5ID(fspace, H5Dget_space(dset));
  FLX_H5ID(r, H5Sget_simple_extent_ndims(fspace));
  FLX_H5(H5Sget_simple_extent_dims(fspace, dims, NULL));
  FLX_H5(H5Sclose(fspace));
  start[0] = dims[0];
  dims[0] += n;
  FLX_H5(H5Dset_extent(dset, dims));
  FLX_H5ID(fspace, H5Dget_space(dset));
  for (int i = 0; i < r; i++)
    count[i] = i ? dims[i] : n;
  FLX_H5ID(mspace, H5Screate_simple(r, count, NULL));
  if (rank == 0)
    FLX_H5(H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL));
  else {
    FLX_H5(H5Sselect_none(fspace));
    FLX_H5(H5Sselect_none(mspace));
  }
  PetscCall(CollectiveXfer(&xfer));
  FLX_H5(H5Dwrite(dset, type, mspace, fspace, xfer, data));
  FLX_H5(H5Pclose(xfer));
  FLX_H5(H5Sclose(mspace));
  FLX_H5(H5Sclose(fspace));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxReadModesOmegaMax(MPI_Comm comm, const char path[], PetscReal *omega_max)
{
  PetscMPIInt rank;
  double      v  = 0;
  int         ok = 0;
  char        msg[PETSC_MAX_PATH_LEN + 128];

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    H5E_auto2_t fn;
    void       *data;
    hid_t       f, d;
    H5Eget_auto2(H5E_DEFAULT, &fn, &data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* a missing file or dataset is reported below, in one line */
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f >= 0) {
      d = H5Dopen2(f, "/modes/omega_max", H5P_DEFAULT);
      if (d >= 0) {
        ok = H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) >= 0 && v > 0;
        H5Dclose(d);
      }
      H5Fclose(f);
    }
    H5Eset_auto2(H5E_DEFAULT, fn, data);
  }
  PetscCallMPI(MPI_Bcast(&ok, 1, MPI_INT, 0, comm));
  PetscCallMPI(MPI_Bcast(&v, 1, MPI_DOUBLE, 0, comm));
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "cannot read /modes/omega_max from %s: run 'flexure modes' on this model first (-output_file)", path));
  PetscCheck(ok, comm, PETSC_ERR_FILE_READ, "%s", msg);
  *omega_max = (PetscReal)v;
  PetscFunctionReturn(0);
}
