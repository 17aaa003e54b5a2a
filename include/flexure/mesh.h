/* FlxMesh: a distributed mesh of beams and shells, read on rank 0 (Gmsh MSH 4.1) or generated,
   partitioned with METIS and distributed with ghost nodes. */
#pragma once
#include <petsc.h>

typedef struct _p_FlxMesh *FlxMesh;

typedef enum {
  FLX_CELL_LINE2 = 0,
  FLX_CELL_TRI3  = 1,
  FLX_CELL_QUAD4 = 2,
  FLX_NUM_CELL_TYPES
} FlxCellType;
PETSC_EXTERN const char *const FlxCellTypeNames[];
PETSC_EXTERN const PetscInt    FlxCellTypeNodes[];

/* Create an empty mesh on comm. Collective. */
PETSC_EXTERN PetscErrorCode FlxMeshCreate(MPI_Comm comm, FlxMesh *mesh);
/* Read -mesh_file or -mesh_generate and their parameters. Collective. */
PETSC_EXTERN PetscErrorCode FlxMeshSetFromOptions(FlxMesh mesh);
/* Read or generate on rank 0, partition with METIS, distribute. Collective. */
PETSC_EXTERN PetscErrorCode FlxMeshSetUp(FlxMesh mesh);
/* Print sizes and the partition quality (elements, edge cut, ghosts per rank). Collective. */
PETSC_EXTERN PetscErrorCode FlxMeshView(FlxMesh mesh, PetscViewer viewer);
/* Free the mesh. Collective. */
PETSC_EXTERN PetscErrorCode FlxMeshDestroy(FlxMesh *mesh);

/* Local sizes: owned nodes, ghost nodes, local cells (the owned cells and the halo cells owned elsewhere
   that touch an owned node, in the global cell order: a function of the mesh alone, the same at any number of ranks;
   natural order, or by reverse Cuthill-McKee for locality; never assume increasing natural ids). Not collective. */
PETSC_EXTERN PetscErrorCode FlxMeshGetLocalSizes(FlxMesh mesh, PetscInt *nowned, PetscInt *nghost, PetscInt *ncells);
/* Global number of nodes and the first owned node in the global (PETSc) numbering. Not collective. */
PETSC_EXTERN PetscErrorCode FlxMeshGetNodeLayout(FlxMesh mesh, PetscInt *Nnodes, PetscInt *rstart);
/* Local coordinates (3 per local node: owned first, then ghosts). Not collective. */
PETSC_EXTERN PetscErrorCode FlxMeshGetCoordinates(FlxMesh mesh, const PetscReal **xyz);
/* Cell k: type, number of nodes, local node ids, group index. Not collective. */
PETSC_EXTERN PetscErrorCode FlxMeshGetCell(FlxMesh mesh, PetscInt k, FlxCellType *type, PetscInt *nn, const PetscInt **nodes, PetscInt *group);
/* Whether local cell k is owned by this rank (PETSC_FALSE for halo cells). Not collective. */
PETSC_EXTERN PetscErrorCode FlxMeshIsCellOwned(FlxMesh mesh, PetscInt k, PetscBool *owned);
/* Natural (file-order) global id of cell k. Not collective. */
PETSC_EXTERN PetscErrorCode FlxMeshGetCellNaturalId(FlxMesh mesh, PetscInt k, PetscInt *id);
/* Index of cell k among the cells of its type, in natural order (its row in /mesh/TYPE/connectivity). Not collective. */
PETSC_EXTERN PetscErrorCode FlxMeshGetCellTypeIndex(FlxMesh mesh, PetscInt k, PetscInt *idx);
/* Global number of cells of type t. Not collective. */
PETSC_EXTERN PetscErrorCode FlxMeshGetNumCellsOfType(FlxMesh mesh, FlxCellType t, PetscInt *N);
/* Global (PETSc) node id of each local node (owned then ghost). Not collective. */
PETSC_EXTERN PetscErrorCode FlxMeshGetLocalToGlobal(FlxMesh mesh, const PetscInt **l2g);
/* Natural (file-order) id of each owned node. Not collective. */
PETSC_EXTERN PetscErrorCode FlxMeshGetNaturalIds(FlxMesh mesh, const PetscInt **natural);
/* Physical groups: count, and name/dimension of group g. Not collective. */
PETSC_EXTERN PetscErrorCode FlxMeshGetNumGroups(FlxMesh mesh, PetscInt *ngroups);
PETSC_EXTERN PetscErrorCode FlxMeshGetGroup(FlxMesh mesh, PetscInt g, const char **name, PetscInt *dim);
/* Index of the group called name, or -1. Not collective. */
PETSC_EXTERN PetscErrorCode FlxMeshFindGroup(FlxMesh mesh, const char name[], PetscInt *g);
/* Owned nodes that belong to group g (node set: the group's points, or the nodes of its cells). Not collective. */
PETSC_EXTERN PetscErrorCode FlxMeshGetGroupNodes(FlxMesh mesh, PetscInt g, PetscInt *n, const PetscInt **nodes);
/* Block preallocation (in nodes) of the owned rows: diagonal and off-diagonal block counts. Not collective. */
PETSC_EXTERN PetscErrorCode FlxMeshGetPreallocation(FlxMesh mesh, const PetscInt **dnz, const PetscInt **onz);
/* Global node id (PETSc numbering) of natural node id, and its owner rank. Collective. */
PETSC_EXTERN PetscErrorCode FlxMeshNaturalToGlobal(FlxMesh mesh, PetscInt natural, PetscInt *global, PetscMPIInt *owner);
/* Write /mesh (coordinates, connectivity per cell type, partition, groups) into an open HDF5 file. Collective. */
PETSC_EXTERN PetscErrorCode FlxMeshWriteHDF5(FlxMesh mesh, long long file_id);
/* Communicator of the mesh. Not collective. */
PETSC_EXTERN PetscErrorCode FlxMeshGetComm(FlxMesh mesh, MPI_Comm *comm);
/* Source of the mesh, for attributes and messages. Not collective. */
PETSC_EXTERN PetscErrorCode FlxMeshGetSource(FlxMesh mesh, const char **source);
