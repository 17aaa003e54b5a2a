/* /mesh of the results file: coordinates and connectivity in natural (file) order, written from rank 0. */
#include <flexure/private/meshimpl.h>
#include <flexure/private/h5util.h>

PetscErrorCode FlxMeshWriteHDF5(FlxMesh mesh, long long file_id)
{
  hid_t          file = (hid_t)file_id, g, gt;
  FlxSerialMesh *sm   = mesh->serial;
  PetscInt       Nc   = 0;
  hsize_t        dims[2];
  FlxH5IO       *io;

  PetscFunctionBegin;
  PetscCall(FlxH5GetIO(file, &io)); /* the results file's error path: HDF5 failures are decided collectively */
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++)
    Nc += mesh->Ncells[t];
  PetscCheck(mesh->rank != 0 || sm, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "the serial mesh was released before it was written");
  PetscCall(FlxH5CreateGroup(io, file, "/mesh", &g));
  dims[0] = (hsize_t)mesh->Nnodes;
  dims[1] = 3;
  PetscCall(FlxH5WriteRoot(io, g, "coordinates", H5T_NATIVE_DOUBLE, 2, dims, mesh->rank == 0 ? sm->xyz : NULL));
  {
    long long *part = NULL;
    if (mesh->rank == 0) {
      PetscCall(PetscMalloc1(Nc + 1, &part));
      for (PetscInt c = 0; c < Nc; c++)
        part[c] = sm->cpart[c];
    }
    dims[0] = (hsize_t)Nc;
    PetscCall(FlxH5WriteRoot(io, g, "partition", H5T_NATIVE_LLONG, 1, dims, part));
    PetscCall(PetscFree(part));
  }
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
    long long *conn = NULL, *part = NULL, *grp = NULL;
    PetscInt   nn = FlxCellTypeNodes[t], k = 0;
    if (!mesh->Ncells[t]) continue;
    if (mesh->rank == 0) {
      PetscCall(PetscMalloc3(nn * mesh->Ncells[t], &conn, mesh->Ncells[t], &part, mesh->Ncells[t], &grp));
      for (PetscInt c = 0; c < sm->ncells; c++) {
        if (sm->type[c] != (FlxCellType)t) continue;
        for (PetscInt a = 0; a < nn; a++)
          conn[nn * k + a] = sm->conn[sm->cptr[c] + a];
        part[k]  = sm->cpart[c];
        grp[k++] = sm->group[c];
      }
    }
    PetscCall(FlxH5CreateGroup(io, g, FlxCellTypeNames[t], &gt));
    dims[0] = (hsize_t)mesh->Ncells[t];
    dims[1] = (hsize_t)nn;
    PetscCall(FlxH5WriteRoot(io, gt, "connectivity", H5T_NATIVE_LLONG, 2, dims, conn));
    PetscCall(FlxH5WriteRoot(io, gt, "partition", H5T_NATIVE_LLONG, 1, dims, part));
    PetscCall(FlxH5WriteRoot(io, gt, "group", H5T_NATIVE_LLONG, 1, dims, grp));
    FLX_H5L(io, H5Gclose(gt));
    if (mesh->rank == 0) PetscCall(PetscFree3(conn, part, grp));
  }
  { /* group names, comma separated, in group-index order */
    char  *names;
    size_t len = 1;
    for (PetscInt k = 0; k < mesh->ngroups; k++)
      len += strlen(mesh->gname[k]) + 1;
    PetscCall(PetscCalloc1(len, &names));
    for (PetscInt k = 0; k < mesh->ngroups; k++) {
      PetscCall(PetscStrlcat(names, k ? "," : "", len));
      PetscCall(PetscStrlcat(names, mesh->gname[k], len));
    }
    PetscCall(FlxH5WriteStringAttribute(io, g, "groups", names));
    PetscCall(PetscFree(names));
  }
  FLX_H5L(io, H5Gclose(g));
  PetscFunctionReturn(0);
}
