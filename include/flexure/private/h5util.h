/* HDF5 helpers: every HDF5 call goes through FLX_H5 so a failure becomes a PETSc error. */
#pragma once
#include <flexure/flexure.h>
#include <hdf5.h>

#define FLX_H5(call)                                                                               \
  do {                                                                                             \
    if ((call) < 0) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "HDF5 call failed: %s", #call); \
  } while (0)
#define FLX_H5ID(var, call)                                                                       \
  do {                                                                                            \
    var = (call);                                                                                 \
    if ((var) < 0) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "HDF5 call failed: %s", #call); \
  } while (0)

/* Create a chunked dataset of rank r with an unlimited first dimension (initial extent 0). Collective. */
PETSC_INTERN PetscErrorCode FlxH5CreateExtendible(hid_t loc, const char name[], hid_t type, int r, const hsize_t dims[], hid_t *dset);
/* Write a whole dataset from rank 0 (other ranks pass nothing). Collective. */
PETSC_INTERN PetscErrorCode FlxH5WriteRoot(hid_t loc, const char name[], hid_t type, int r, const hsize_t dims[], const void *data, PetscMPIInt rank);
/* Grow dataset's first dimension by n rows and write them from rank 0. Collective. */
PETSC_INTERN PetscErrorCode FlxH5AppendRoot(hid_t dset, hid_t type, hsize_t n, const void *data, PetscMPIInt rank);
