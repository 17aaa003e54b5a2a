/* Implementation of FlxMesh. Never included by public headers. */
#pragma once
#include <flexure/flexure.h>

/* The whole mesh as read or generated, on rank 0 only, in natural (file) order. */
typedef struct {
  PetscInt     nnodes;
  PetscReal   *xyz; /* 3 * nnodes */
  PetscInt     ncells;
  FlxCellType *type;  /* ncells */
  PetscInt    *cptr;  /* ncells + 1 */
  PetscInt    *conn;  /* natural node ids */
  PetscInt    *group; /* group of each cell */
  PetscInt     ngroups;
  char (*gname)[FLX_NAME_LEN];
  PetscInt *gdim;
  PetscInt *gpptr, *gpnodes; /* nodes of dimension-0 groups (points), CSR over groups */
  PetscInt *part;            /* owner rank of each node (after partitioning) */
  PetscInt *cpart;           /* owner rank of each cell */
  PetscInt *perm;            /* natural node id -> global (PETSc) id */
  PetscInt  edgecut;
} FlxSerialMesh;

struct _p_FlxMesh {
  MPI_Comm    comm;
  PetscMPIInt rank, size;
  char        file[PETSC_MAX_PATH_LEN];
  char        source[PETSC_MAX_PATH_LEN + 64];
  char        generator[32];
  /* generator parameters */
  PetscReal beam_length, beam_dir[3];
  PetscInt  beam_elements;
  PetscInt  tower_n[3];
  PetscReal tower_size[3];
  PetscReal plate_size[2];
  PetscInt  grid_n[2]; /* plate and cylinder divisions */
  PetscInt  plate_stiffeners;
  PetscReal cyl_radius, cyl_length, cyl_angle;
  PetscBool tri;   /* plate and cylinder: triangles (each quad split along a diagonal) */
  PetscBool mixed; /* plate and cylinder: quads on the first half, triangles on the second */
  PetscBool setup;

  FlxSerialMesh *serial; /* rank 0 only; kept until the mesh is written */

  /* distributed data */
  PetscInt     Nnodes, Ncells[FLX_NUM_CELL_TYPES];
  PetscInt     nowned, nghost, rstart;
  PetscInt    *l2g;             /* nowned + nghost global node ids */
  PetscInt    *natural;         /* nowned natural ids */
  PetscReal   *xyz;             /* 3 * (nowned + nghost) */
  PetscInt     ncells, ncowned; /* local cells (owned and halo), owned ones */
  PetscBool   *cowned;
  FlxCellType *ctype;
  PetscInt    *cptr, *conn, *cgroup, *cnatural, *ctypeidx; /* ctypeidx: index among the cells of its type (the row in /mesh/TYPE) */
  PetscInt     ngroups;
  char (*gname)[FLX_NAME_LEN];
  PetscInt *gdim;
  PetscInt *gnptr, *gnodes; /* owned nodes of each group, CSR over groups */
  PetscInt *dnz, *onz;
};

/* Serial mesh helpers (rank 0). */
PETSC_INTERN PetscErrorCode FlxSerialMeshCreate(FlxSerialMesh **sm);
PETSC_INTERN PetscErrorCode FlxSerialMeshDestroy(FlxSerialMesh **sm);
PETSC_INTERN PetscErrorCode FlxSerialMeshAddGroup(FlxSerialMesh *sm, const char name[], PetscInt dim, PetscInt *g);
/* Storage order of nodes and cells for locality (order.c, rank 0): norder[k], corder[k] the natural ids of the k-th
   stored node and cell (allocated). xadj, adj: the nodal graph. */
PETSC_INTERN PetscErrorCode FlxSerialMeshLocalityOrder(const FlxSerialMesh *sm, const PetscInt *xadj, const PetscInt *adj, PetscInt **norder, PetscInt **corder);
/* Read a Gmsh MSH 4.1 or 2.2 file, ASCII or binary, into the empty sm (rank 0). Errors name the file and line
   (or byte offset) and are raised on this rank only; sm may then hold part of the mesh (FlxSerialMeshDestroy). */
PETSC_INTERN PetscErrorCode FlxSerialMeshReadGmsh(const char file[], FlxSerialMesh *sm);
/* The same from the file's bytes in memory (buf[0..size), need not be NUL-terminated); name is used in messages. */
PETSC_INTERN PetscErrorCode FlxSerialMeshReadGmshBuffer(const char name[], const char buf[], size_t size, FlxSerialMesh *sm);
PETSC_INTERN PetscErrorCode FlxSerialMeshGenerate(FlxMesh mesh, FlxSerialMesh *sm);
/* Partition (METIS) and distribute the serial mesh of rank 0. Collective. */
PETSC_INTERN PetscErrorCode FlxMeshPartitionAndDistribute(FlxMesh mesh);
