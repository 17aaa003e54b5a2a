/* Implementation of FlxModel. Never included by public headers. */
#pragma once
#include <flexure/flexure.h>

#define FLX_MAX_NAMES 64

/* Deterministic products with an assembled MPIBAIJ operator of the model (kmult.c): all owned block rows
   (rows NULL) or the nrows local block rows given. Apply sets y at those rows, ApplyAdd adds to them,
   ApplyRows writes them compactly (6 nrows values). Collective. */
typedef struct _FlxKMult   *FlxKMult;
PETSC_INTERN PetscErrorCode FlxKMultCreate(FlxModel, Mat A, PetscInt nrows, const PetscInt rows[], FlxKMult *);
PETSC_INTERN PetscErrorCode FlxKMultApply(FlxKMult, Vec, Vec);
PETSC_INTERN PetscErrorCode FlxKMultApplyAdd(FlxKMult, Vec, Vec);
PETSC_INTERN PetscErrorCode FlxKMultApplyRows(FlxKMult, Vec, PetscReal[]);
PETSC_INTERN PetscErrorCode FlxKMultDestroy(FlxKMult *);

typedef struct _FlxSprings   *FlxSprings;   /* discrete springs and dampers (springs.c) */
typedef struct _FlxReactions *FlxReactions; /* reactions at the prescribed DOFs (reactions.c) */

typedef struct {
  char      name[FLX_NAME_LEN];
  PetscReal E, nu, rho;
} FlxMaterial;

typedef struct {
  char            name[FLX_NAME_LEN];
  char            material[FLX_NAME_LEN];
  char            groups[FLX_MAX_NAMES][FLX_NAME_LEN];
  PetscInt        ngroups;
  PetscBool       shell;                                     /* shell (thickness) or beam (A, Iy, Iz, J) */
  PetscBool       spring;                                    /* spring section (stiffness, damping): line2 cells are springs (springs.c) */
  char            element[FLX_NUM_CELL_TYPES][FLX_NAME_LEN]; /* element type per cell type ("" = none) */
  FlxSectionProps props;
  FlxElementOps   ops[FLX_NUM_CELL_TYPES];
} FlxSection;

typedef struct {
  char      name[FLX_NAME_LEN];
  char      group[FLX_NAME_LEN];
  PetscBool dofs[6];
} FlxBC;

typedef enum { FLX_LOAD_FORCE,
               FLX_LOAD_GRAVITY,
               FLX_LOAD_PRESSURE } FlxLoadType;

typedef struct {
  char            name[FLX_NAME_LEN];
  char            group[FLX_NAME_LEN]; /* empty for gravity on the whole model */
  FlxLoadType     type;
  PetscReal       value[6];
  FlxTimeFunction tf;
  PetscInt        n; /* nodal: owned DOF entries (local index into the DOF vector) */
  PetscInt       *idx;
  PetscReal      *val;
  Vec             g; /* gravity: mass times acceleration on translations; pressure: consistent nodal forces */
} FlxLoad;

typedef struct {
  char      name[FLX_NAME_LEN];
  char      group[FLX_NAME_LEN];
  PetscBool velocity;
  PetscReal value[6];
} FlxIC;

typedef struct {
  char      name[FLX_NAME_LEN];
  char      group[FLX_NAME_LEN];
  PetscReal mass, inertia[3];
} FlxPointMass;

struct _p_FlxModel {
  MPI_Comm               comm;
  FlxMesh                mesh;
  PetscInt               nmat, nsec, nbc, nload, nic, npm;
  FlxMaterial            mat[FLX_MAX_NAMES];
  FlxSection             sec[FLX_MAX_NAMES];
  FlxBC                  bc[FLX_MAX_NAMES];
  FlxLoad                load[FLX_MAX_NAMES];
  FlxIC                  ic[FLX_MAX_NAMES];
  FlxPointMass           pm[FLX_MAX_NAMES];
  PetscReal              aM, bK;
  PetscReal              omega_bound; /* element-by-element bound of omega_max (rad/s) */
  PetscBool              allow_rigid;
  PetscInt              *cell_section; /* section of each local cell */
  PetscInt               nconstrained; /* global number of prescribed DOFs */
  Vec                    mass, free, work;
  Mat                    K, Mc;
  FlxKMult               kmult;  /* deterministic K x (kmult.c) */
  Mat                    Cd;     /* damping matrix of the discrete dampers (NULL: none), same layout as K */
  FlxKMult               kmultC; /* deterministic C_d v, over the rows that have dampers */
  FlxSprings             springs;
  FlxReactions           reactions;
  ISLocalToGlobalMapping l2g;
  VecScatter             tonat;
  Vec                    xnat;
  FlxSystem              sys;
  PetscBool              setup;
  /* shell resultants (resultants.c), set up on first use */
  VecScatter toloc; /* global DOF vector -> local (owned and ghost nodes) */
  Vec        uloc;
  Vec        rown[FLX_NUM_CELL_TYPES], rnat[FLX_NUM_CELL_TYPES]; /* owned cells; natural order */
  VecScatter res2nat[FLX_NUM_CELL_TYPES];
  PetscBool  res_setup;
};

PETSC_INTERN PetscErrorCode FlxModelAssemble(FlxModel model);
/* An MPIBAIJ matrix (block size 6) with the stiffness's exact preallocation and local-to-global mapping. Collective. */
PETSC_INTERN PetscErrorCode FlxModelCreateBAIJ(FlxModel model, Mat *A);
/* Add the rows of an element matrix (row-major, 6 nn square) and lumped mass (may be NULL) that belong to owned nodes. Not collective. */
PETSC_INTERN PetscErrorCode FlxModelAddOwnedRows(FlxModel model, Mat A, PetscInt nn, const PetscInt nodes[], const PetscReal Ke[], const PetscReal me[]);
/* Springs and dampers (springs.c): ground springs (-spring_*) and spring sections. */
PETSC_INTERN PetscErrorCode FlxModelReadSprings(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelReadSpringSection(FlxModel model, PetscInt s, const char pre[], PetscBool *isspring);
PETSC_INTERN PetscErrorCode FlxModelAssembleSprings(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelFinishSprings(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelViewSprings(FlxModel model, PetscViewer viewer);
PETSC_INTERN PetscErrorCode FlxModelDestroySprings(FlxModel model);
/* Reactions (reactions.c). */
PETSC_INTERN PetscErrorCode FlxModelReadReactionOptions(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelSetUpReactions(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelDestroyReactions(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelDestroyResultants(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelSetUpLoads(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelCheckRigidBody(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelElementProps(FlxModel model, PetscInt cell, const FlxSectionProps **p, FlxElementOps *ops, PetscReal xyz[]);
/* Index of the physical group called group, or a collective error that names what asked for it and lists the mesh's groups. */
PETSC_INTERN PetscErrorCode FlxModelRequireGroup(FlxModel m, const char what[], const char group[], PetscInt *g);
PETSC_INTERN PetscErrorCode FlxModelCellDescription(FlxModel model, PetscInt cell, char buf[], size_t len);
