/* Implementation of FlxModel. Never included by public headers. */
#pragma once
#include <flexure/flexure.h>

#define FLX_MAX_NAMES 64

/* Deterministic products with an assembled MPIBAIJ operator of the model (kmult.c): all owned block rows
   (rows NULL) or the nrows local block rows given. Apply sets y at those rows, ApplyAdd adds to them,
   ApplyRows writes them compactly (6 nrows values). Collective. */
typedef struct _FlxKMult   *FlxKMult;
PETSC_INTERN PetscErrorCode FlxKMultCreate(FlxModel, Mat A, PetscInt nrows, const PetscInt rows[], FlxKMult *);
/* The same over all owned block rows, leaving out the blocks of A that are entirely zero (the same result, bit for
   bit: such a block adds nothing; a nonlinear model's K_lin has K's pattern with zero blocks for the co-rotational
   cells). Collective. */
PETSC_INTERN PetscErrorCode FlxKMultCreateNonzero(FlxModel, Mat A, FlxKMult *);
PETSC_INTERN PetscErrorCode FlxKMultApply(FlxKMult, Vec, Vec);
PETSC_INTERN PetscErrorCode FlxKMultApplyAdd(FlxKMult, Vec, Vec);
PETSC_INTERN PetscErrorCode FlxKMultApplyRows(FlxKMult, Vec, PetscReal[]);
/* The rows of A (sum_j coef[j] x[j]) written compactly, the ghost blocks of the n <= FLX_KMULT_MAXCOMB vectors
   exchanged in one round of messages. Collective. */
#define FLX_KMULT_MAXCOMB 3
PETSC_INTERN PetscErrorCode FlxKMultApplyRowsCombination(FlxKMult, PetscInt n, const PetscReal coef[], Vec x[], PetscReal[]);
PETSC_INTERN PetscErrorCode FlxKMultDestroy(FlxKMult *);

/* Element-by-element internal force of the linear cells (ebe.c): f = K x without the assembled K, bit-identical at any
   number of ranks, the halo exchange overlapped with the interior cells. Create: collective. Apply: f = K x over the
   linear cells and springs (all: also the beams of geometry nonlinear sections, linearized: the initial stiffness
   K_0 x), energy (may be NULL) the owned cells' strain energy; collective. GetCost: bytes read and written and
   flops of one product on this rank (owned: of its owned cells only, whose sum over the ranks does not depend on
   their number: the roofline of the path choice). Not collective except Create and Apply. */
typedef struct _FlxEbe     *FlxEbe;
PETSC_INTERN PetscErrorCode FlxEbeCreate(FlxModel, FlxEbe *);
PETSC_INTERN PetscErrorCode FlxEbeApply(FlxEbe, Vec x, Vec f, PetscBool all, PetscReal *energy);
PETSC_INTERN PetscErrorCode FlxEbeGetCost(FlxEbe, PetscBool all, PetscBool owned, PetscReal *bytes, PetscReal *flops);
/* Time of one product on this rank with every batch's data in cache (each class's first batches repeated): the
   loop's compute bound. Not collective. */
PETSC_INTERN PetscErrorCode FlxEbeComputeTime(FlxEbe, PetscReal *seconds);
/* Owned cells per kernel class (FLX_EBE_NCLASSES classes, names from FlxEbeClassName), cells that touch a ghost node
and owned nodes that sum their terms in slots (ebe.c's comment). */
#define FLX_EBE_NCLASSES 5
PETSC_INTERN PetscErrorCode FlxEbeGetCounts(FlxEbe, PetscInt counts[FLX_EBE_NCLASSES]);
PETSC_INTERN const char    *FlxEbeClassName(PetscInt);
PETSC_INTERN PetscErrorCode FlxEbeGetHalo(FlxEbe, PetscInt *near, PetscInt *mixed);
PETSC_INTERN PetscErrorCode FlxEbeDestroy(FlxEbe *);
/* *p: bytes zeroed on a 64-byte boundary (one cache line, an AVX-512 register) inside the allocation *raw, which
   PetscFree releases (PetscMalloc aligns to 16 only). Not collective. */
PETSC_INTERN PetscErrorCode FlxMallocAligned(size_t bytes, void **raw, void **p);

typedef struct _FlxNonlinear *FlxNonlinear; /* geometrically nonlinear models (nonlinear.c) */
/* Nodal rotations of nonlinear models as unit quaternions cached per owned node (noderot.c): Update: x_new = x (+) dx
   over the owned nodes start .. start + n - 1 (whole arrays of the DOF vectors; x_new may alias x; not collective);
   States: the states s (position, unit quaternion, 0: FLX_COROT_STATE per local node) of the local nodes from their
   DOFs (6 per node: xown for the owned nodes, xghost for the ghosts; collective: the ghosts' quaternions come from
   their owners), and fzero (may be NULL) zeroed at the owned nodes' DOFs in the same pass. */
typedef struct _FlxNodeRot   *FlxNodeRot;
PETSC_INTERN PetscErrorCode   FlxNodeRotCreate(FlxModel, FlxNodeRot *);
PETSC_INTERN PetscErrorCode   FlxNodeRotUpdate(FlxNodeRot, PetscInt start, PetscInt n, const PetscReal x[], const PetscReal dx[], PetscReal xnew[]);
PETSC_INTERN PetscErrorCode   FlxNodeRotStates(FlxNodeRot, const PetscReal xown[], const PetscReal xghost[], const PetscReal X[], PetscReal s[], PetscReal fzero[]);
PETSC_INTERN PetscErrorCode   FlxNodeRotDestroy(FlxNodeRot *);
typedef struct _FlxSprings   *FlxSprings;   /* discrete springs and dampers (springs.c) */
typedef struct _FlxReactions *FlxReactions; /* reactions at the prescribed DOFs (reactions.c) */

typedef struct {
  char      name[FLX_NAME_LEN];
  PetscReal E, nu, rho;
} FlxMaterial;

typedef struct {
  char               name[FLX_NAME_LEN];
  char               material[FLX_NAME_LEN];
  char               groups[FLX_MAX_NAMES][FLX_NAME_LEN];
  PetscInt           ngroups;
  PetscBool          shell;  /* shell (thickness) or beam (A, Iy, Iz, J) */
  PetscBool          spring; /* spring section (stiffness, damping): its line2 cells are springs (springs.c) */
  FlxSectionShape    shape;  /* beams: shape the properties come from (or none) */
  FlxShapeDimensions dims;
  char               element[FLX_NUM_CELL_TYPES][FLX_NAME_LEN]; /* element type per cell type ("" = none) */
  FlxSectionProps    props;
  FlxElementOps      ops[FLX_NUM_CELL_TYPES];
  PetscBool          nonlinear;     /* geometry nonlinear: co-rotational elements (nonlinear.c) */
  PetscBool          geomset;       /* -section_NAME_geometry given (else the model's -model_geometry) */
  PetscBool          rotary_tensor; /* -section_NAME_rotary_inertia tensor: full lumped rotary inertia at the nodes (rotary.c) */
} FlxSection;

/* What a prescribed value gives: the displacement itself, or a velocity or acceleration history whose
   integrals from t = 0 are the displacement. */
typedef enum { FLX_MOTION_DISPLACEMENT,
               FLX_MOTION_VELOCITY,
               FLX_MOTION_ACCELERATION } FlxMotionType;

typedef struct {
  char            name[FLX_NAME_LEN];
  char            group[FLX_NAME_LEN];
  PetscBool       dofs[6];
  PetscBool       prescribed; /* a value was given: non-homogeneous (motion value[d] times the time function) */
  PetscReal       value[6];
  FlxMotionType   mtype;
  FlxTimeFunction tf;
} FlxBC;

/* Base excitation: a support acceleration a_g(t) = value f(t) (translations), in the relative formulation
   (load -M r a_g on the free DOFs, supports fixed) or the absolute one (the supports' translations follow
   u_g = value int int f). */
typedef struct {
  FlxBaseFormulation form;
  PetscReal          value[3];
  FlxTimeFunction    tf;
  char               bcs[FLX_MAX_NAMES][FLX_NAME_LEN]; /* the boundary conditions whose groups are the supports */
  PetscInt           nbcs;
  char               springs[FLX_MAX_NAMES][FLX_NAME_LEN]; /* the ground springs whose ground ends move (absolute) */
  PetscInt           nsprings;                             /* -1: all */
  Vec                g;                                    /* relative: -M r */
  Vec                gk, gc;                               /* absolute: K_s r, C_s r of the ground springs that move with the ground (NULL: none) */
} FlxBase;

/* The moving prescribed DOFs (owned, local indices into the DOF vector), in increasing local index. */
typedef struct {
  PetscInt   n;
  PetscInt  *idx, *src; /* src: BC index, or -1 for the base excitation */
  PetscReal *scale;     /* value of the DOF's motion */
  PetscInt  *shift;     /* 0 displacement, 1 velocity, 2 acceleration: order of the integral of f that is x */
} FlxMotion;

typedef enum { FLX_LOAD_FORCE,
               FLX_LOAD_GRAVITY,
               FLX_LOAD_PRESSURE,
               FLX_LOAD_LINE,
               FLX_LOAD_TRACTION } FlxLoadType;

typedef struct {
  char            name[FLX_NAME_LEN];
  char            group[FLX_NAME_LEN]; /* empty for gravity on the whole model */
  FlxLoadType     type;
  PetscReal       value[6];
  FlxTimeFunction tf;
  PetscInt        n; /* nodal: owned DOF entries (local index into the DOF vector) */
  PetscInt       *idx;
  PetscReal      *val;
  Vec             g;     /* gravity: mass times acceleration on translations; pressure, line, traction: consistent nodal forces */
  PetscBool       local; /* line loads: value in element axes */
  PetscInt        ne;    /* line loads on beams: owned beam cells (increasing) and their consistent load vectors (12 each, global) */
  PetscInt       *ecell;
  PetscReal      *efd;
} FlxLoad;

typedef enum { FLX_IC_DISPLACEMENT,
               FLX_IC_VELOCITY,
               FLX_IC_MODE,
               FLX_IC_SPIN } FlxICType;
typedef struct {
  char      name[FLX_NAME_LEN];
  char      group[FLX_NAME_LEN];
  FlxICType type;
  PetscReal value[6];
  char      file[PETSC_MAX_PATH_LEN]; /* mode: results file of 'flexure modes' */
  PetscInt  mode;                     /* mode: 1-based number */
  PetscReal amplitude;                /* mode: largest translation of the shape */
  PetscReal point[3];                 /* spin: a point of the axis */
  PetscBool steady;                   /* spin: start in the steadily spinning state (spin.c) */
} FlxIC;

typedef struct {
  char      name[FLX_NAME_LEN];
  char      group[FLX_NAME_LEN];
  PetscReal mass, inertia[3];
  PetscReal tensor[6]; /* -pointmass_NAME_inertia_tensor Jxx,Jyy,Jzz,Jxy,Jxz,Jyz (rotary.c) */
  PetscBool has_tensor;
} FlxPointMass;

/* Cell fields (shell resultants, beam forces, ...: ncomp values per cell) go to the results file in rounds, so that no
   rank holds a whole field: rank r's rows of the natural order of a cell type, [lo, lo + nwin), are written C at a
   time; round j gathers the rows j C .. (j + 1) C - 1 of every rank's window from the owners of their cells. */
typedef enum { FLX_FIELD_SHELL_RESULTANTS,
               FLX_FIELD_SHELL_STRESSES,
               FLX_FIELD_BEAM_FORCES,
               FLX_FIELD_BEAM_STRESSES,
               FLX_NUM_FIELDS } FlxCellFieldKind;
typedef struct {
  PetscInt     width;    /* the widest field the type's cells carry (0: none) */
  PetscInt     R, C;     /* rounds, rows of a window per round */
  PetscInt     lo, nwin; /* this rank's natural rows */
  PetscInt    *ptr;      /* round j: owned cells cell[ptr[j] .. ptr[j + 1]) (local ids, increasing) */
  PetscInt    *cell;
  PetscSFNode *leaf; /* a round's cells' places in the windows (its star forest is built at each output) */
  PetscScalar *own, *win;
  MPI_Datatype unit; /* a row: width scalars */
} FlxCellRows;

struct _p_FlxModel {
  MPI_Comm     comm;
  FlxMesh      mesh;
  PetscInt     nmat, nsec, nbc, nload, nic, npm;
  FlxMaterial  mat[FLX_MAX_NAMES];
  FlxSection   sec[FLX_MAX_NAMES];
  FlxBC        bc[FLX_MAX_NAMES];
  FlxLoad      load[FLX_MAX_NAMES];
  FlxIC        ic[FLX_MAX_NAMES];
  FlxPointMass pm[FLX_MAX_NAMES];
  FlxBase      base;
  FlxMotion    motion;
  PetscBool    note_static_motion; /* the note on motions without a static value was printed */
  PetscReal    aM, bK;
  PetscReal    omega_bound; /* element-by-element bound of omega_max (rad/s) */
  PetscInt     crit_cell;   /* local cell with the largest element frequency on this rank (-1: none) */
  PetscReal    crit_lambda; /* its lambda_max(M_e^-1 K_e) */
  PetscBool    allow_rigid;
  char         require_held[64];  /* the analysis that needs every rigid-body motion held ("": none) */
  PetscInt    *cell_section;      /* section of each local cell; -1 for node-set cells (a group without a section) */
  char (*usegroup)[FLX_NAME_LEN]; /* groups used as node sets outside the model (probes, springs) */
  PetscInt             nusegroup;
  PetscReal            shell_axis[3]; /* global axis whose projection is x of the consistent shell frame */
  PetscInt             cellrows;      /* rows per rank and round of the cell fields' output (-output_cell_rows) */
  PetscInt             nconstrained;  /* global number of prescribed DOFs */
  Vec                  mass, free, work;
  Mat                  K, Mc;
  FlxKMult             kmult;         /* deterministic K x (kmult.c) */
  FlxEbe               ebe;           /* element-by-element K x (ebe.c; NULL: not built) */
  PetscBool            fint_elements; /* the chosen path: the element loop (else the assembled K) */
  FlxInternalForcePath fint_type;     /* -model_internal_force: 0 auto, 1 elements, 2 assembled */
  PetscReal            balance;       /* -model_machine_balance: flops per byte of this machine */
  struct {                            /* the path's roofline (global sums of one product), for the view */
    PetscReal ebytes, eflops, kbytes, kflops;
    PetscBool chosen_by_roofline;
  } fint;
  Vec                    kdiag;  /* diagonal of K from the element pass (the connectivity check; kept after the set-up with b_K) */
  Mat                    Cd;     /* damping matrix of the discrete dampers (NULL: none), same layout as K */
  FlxKMult               kmultC; /* deterministic C_d v, over the rows that have dampers */
  FlxSprings             springs;
  FlxReactions           reactions;
  ISLocalToGlobalMapping l2g;
  VecScatter             tonat;
  Vec                    xnat;
  FlxSystem              sys;
  PetscBool              setup;
  PetscBool              nonlinear; /* some section has geometry nonlinear */
  Mat                    Klin;      /* nonlinear models: stiffness of the linear elements and springs (K: of all, linearized) */
  FlxKMult               kmultlin;
  FlxNonlinear           nl;
  PetscBool              nlcache; /* -model_nonlinear_cache: the explicit fast path of f_int (nonlinear.c) */
  PetscReal             *rotj;    /* full rotary inertia tensors of tensor sections and point masses, 9 per owned node (rotary.c; NULL: none) */
  struct {                        /* nonlinear statics (nlstatic.c) */
    PetscInt  increments, max_it, max_cuts, arc_steps;
    PetscBool arclength, monitor;
    PetscReal rtol, stol, arc_length, arc_final;
  } st;
  /* cell fields (resultants.c), set up on first use */
  VecScatter toloc; /* global DOF vector -> local (owned and ghost nodes) */
  Vec        uloc;
  PetscBool  cfsetup;                                      /* rows below set up */
  PetscBool  fieldhas[FLX_NUM_FIELDS][FLX_NUM_CELL_TYPES]; /* some cell of the type carries the field */
  struct {                                                 /* the last external force written (loads.c): a vector left unchanged since, with the same */
    PetscObjectId    id;                                   /* scale factors, already holds f_ext (0: none) */
    PetscObjectState state;
    PetscReal        s[FLX_MAX_NAMES + 3];
  } fext;
  FlxCellRows cfrows[FLX_NUM_CELL_TYPES];
};

PETSC_INTERN PetscErrorCode FlxModelAssemble(FlxModel model);
/* The assembled K (and K_lin), on first need (assemble.c). Collective. */
PETSC_INTERN PetscErrorCode FlxModelAssembleStiffness(FlxModel model);
/* An MPIBAIJ matrix holding only K's block rows rows[] (local owned nodes), with K's entries. Collective. */
PETSC_INTERN PetscErrorCode FlxModelAssembleRows(FlxModel model, PetscInt nrows, const PetscInt rows[], Mat *A);
/* f = K x through the chosen path (element loop or assembled), and the initial stiffness K_0 x (nonlinear models:
   their co-rotational beams linearized; linear models: K x). Collective. */
PETSC_INTERN PetscErrorCode FlxModelApplyStiffness(FlxModel model, Vec x, Vec f);
PETSC_INTERN PetscErrorCode FlxModelApplyInitialStiffness(FlxModel model, Vec x, Vec f);
/* Choose the internal force's path (-model_internal_force; auto: the roofline of both) and build it; print the
   choice and its roofline (ebe.c). Collective. */
PETSC_INTERN PetscErrorCode    FlxModelChooseInternalForce(FlxModel model);
PETSC_INTERN PetscErrorCode    FlxModelViewInternalForce(FlxModel model, PetscViewer viewer);
PETSC_INTERN const char *const FlxInternalForcePaths[]; /* auto, elements, assembled (PetscOptionsEnum list) */
/* Default of -model_machine_balance (flops per byte): measured by flexure-bench on the development machine, the element
   kernels' in-cache rate over the STREAM triad's bandwidth: 0.45 .. 0.49 for the beams' kernel, 0.8 .. 0.9 for the
   shells' (its lower value: the roofline then favours the assembled product). */
#define FLX_MACHINE_BALANCE 0.5
/* nonlinear.c: the nonlinear internal force, Jacobian, configuration update and strain energy of a model with
   geometry nonlinear sections (nothing otherwise). Collective. */
PETSC_INTERN PetscErrorCode    FlxModelSetUpNonlinear(FlxModel model);
PETSC_INTERN const char *const FlxGeometries[]; /* linear, nonlinear (PetscOptionsEnum list) */
/* Apply -model_geometry to the sections that do not set their own; refuse nonlinear shells. Collective. */
PETSC_INTERN PetscErrorCode FlxModelReadGeometry(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelDestroyNonlinear(FlxModel model);
/* Free K_lin when it is zero (every element co-rotational, no springs). Collective. */
PETSC_INTERN PetscErrorCode FlxModelFreeZeroKlin(FlxModel model);
/* rotary.c: full nodal rotary inertia tensors (nonlinear models). During assembly: a cell of a section with
   -section_NAME_rotary_inertia tensor moves the rotational part of its lumped mass me into the tensors of its owned
   nodes (me keeps the smallest principal value, for the element's frequency bound, until FlxModelRotaryTensorDrop
   zeroes it before me is added); point masses with -pointmass_NAME_inertia_tensor add theirs. After the BCs: the
   nodes with tensors get J0 = j I + tensors (j the spherical value), the mass vector the smallest principal value
   of J0, and the system the tensors (FlxSystemSetInertiaTensors). Collective (the last two). */
PETSC_INTERN PetscErrorCode FlxModelRotaryTensorCell(FlxModel model, PetscInt cell, const PetscReal xyz[], const FlxSectionProps *p, PetscInt nn, const PetscInt nodes[], PetscReal me[]);
PETSC_INTERN PetscErrorCode FlxModelRotaryTensorDrop(PetscInt nn, PetscReal me[]);
PETSC_INTERN PetscErrorCode FlxModelRotaryTensorPointMasses(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelSetUpRotaryTensors(FlxModel model);
/* spin.c: initial condition ic (a spin with -ic_NAME_steady): the steadily spinning state, x the relative equilibrium
   (Newton from x), v the velocities of its rigid rotation. Collective. */
PETSC_INTERN PetscErrorCode FlxModelSteadySpin(FlxModel model, PetscInt ic, Vec x, Vec v);
PETSC_INTERN PetscErrorCode FlxModelReadStaticOptions(FlxModel model);
/* Read "-<what>_names a,b,c" into names. Collective. */
PETSC_INTERN PetscErrorCode FlxModelReadNames(MPI_Comm comm, const char what[], const char help[], char names[][FLX_NAME_LEN], PetscInt *n);
/* sections.c: read the sections; check the node sets that bcs, loads, ics and point masses name (they exist and
   have nodes); map every local cell to its section (-1: node set) and refuse unused cell groups. Collective. */
PETSC_INTERN PetscErrorCode FlxModelReadSections(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelCheckNodeSets(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelAssignSections(FlxModel model);
/* An MPIBAIJ matrix (block size 6) with the stiffness's exact preallocation and local-to-global mapping. Collective. */
/* parts.c: the parts of the model, the node sets its elements join: K, the part of each local node (owned, then
   ghost; -1 where no element touches it), numbered by their smallest natural node id, and those ids (first, K; may be
   NULL). Free part and first with PetscFree. Collective. */
PETSC_INTERN PetscErrorCode FlxModelGetParts(FlxModel model, PetscInt *K, PetscInt **part, PetscInt **first);
PETSC_INTERN PetscErrorCode FlxModelCreateBAIJ(FlxModel model, Mat *A);
/* An MPIBAIJ with exactly the blocks (row, column) of pairs[2 n] (local node indices, rows owned; sorted in place,
   repeats allowed): a sparse operator such as the dampers' C_d, not the mesh's full pattern. Collective. */
PETSC_INTERN PetscErrorCode FlxModelCreateBAIJBlocks(FlxModel model, PetscInt n, PetscInt pairs[], Mat *A);
/* Add the rows of an element matrix (row-major, 6 nn square) and lumped mass (may be NULL) that belong to owned nodes. Not collective. */
PETSC_INTERN PetscErrorCode FlxModelAddOwnedRows(FlxModel model, Mat A, PetscInt nn, const PetscInt nodes[], const PetscReal Ke[], const PetscReal me[]);
/* Springs and dampers (springs.c): ground springs (-spring_*) and spring sections. */
PETSC_INTERN PetscErrorCode FlxModelReadSprings(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelReadSpringSection(FlxModel model, PetscInt s, const char pre[], PetscBool *isspring);
PETSC_INTERN PetscErrorCode FlxModelAssembleSprings(FlxModel model);
/* Visit the spring cells (the global cell order) and the ground springs (in -spring_names order) of this rank:
   fn(model, nn, nodes, Ke, Ce, ctx) with their stiffness and damping matrices (Ce NULL: no damping). Collective. */
/* Whether local cell c is a spring cell (a line cell of a spring section). Not collective. */
PETSC_INTERN PetscBool      FlxModelCellIsSpring(FlxModel model, PetscInt c);
PETSC_INTERN PetscErrorCode FlxModelGroundSpringBaseVectors(FlxModel model, PetscInt n, const char names[][FLX_NAME_LEN], const PetscReal value[3], Vec *gk, Vec *gc);
PETSC_INTERN PetscErrorCode FlxModelVisitSprings(FlxModel model, PetscErrorCode (*fn)(FlxModel, PetscInt, const PetscInt[], const PetscReal[], const PetscReal[], void *), void *ctx);
/* The springs of this rank with rotational stiffness or, on zero-length cells, anisotropic translational stiffness:
   fn(model, nn, nodes, Kr, Kt, name, ctx), Kr and Kt the 3 x 3 rotational and translational stiffness in global axes
   at the start (NULL: none to treat) (springs.c). Collective (the ground springs' groups are checked). */
PETSC_INTERN PetscErrorCode FlxModelVisitNonlinearSprings(FlxModel model, PetscErrorCode (*fn)(FlxModel, PetscInt, const PetscInt[], const PetscReal[], const PetscReal[], const char[], void *), void *ctx);
/* Springs of geometrically nonlinear models (springrot.c): the exact force, energy and tangent of the rotational
   energy V = 1/2 phi . K phi, phi = log(R_a^T R_b), and of the translational energy 1/2 d . R_a K_t R_a^T d of a
   zero-length cell with anisotropic stiffness (its axes carried by node a), minus the linear ones that K_lin carries.
   Create: NULL when no rank has one (collective). AddForce (t: for the message): f's owned rows += the difference at
   the nodal states s (FLX_COROT_STATE per local node), energy (may be NULL) its owned springs' energy difference;
   bad/msg: a spring turned past 3 rad (the caller makes it collective). AddTangent: into J (owned rows, ADD_VALUES).
   Not collective. */
typedef struct _FlxRotSprings *FlxRotSprings;
PETSC_INTERN PetscErrorCode    FlxRotSpringsCreate(FlxModel, FlxRotSprings *);
PETSC_INTERN PetscErrorCode    FlxRotSpringsAddForce(FlxModel, FlxRotSprings, PetscReal t, const PetscReal s[], PetscScalar f[], PetscReal *energy, char msg[], size_t len, PetscBool *bad);
PETSC_INTERN PetscErrorCode    FlxRotSpringsAddTangent(FlxModel, FlxRotSprings, const PetscReal s[], Mat J);
PETSC_INTERN PetscErrorCode    FlxRotSpringsDestroy(FlxRotSprings *);
PETSC_INTERN PetscErrorCode    FlxModelFinishSprings(FlxModel model);
PETSC_INTERN PetscErrorCode    FlxModelViewSprings(FlxModel model, PetscViewer viewer);
PETSC_INTERN PetscErrorCode    FlxModelDestroySprings(FlxModel model);
/* Reactions (reactions.c). */
PETSC_INTERN PetscErrorCode FlxModelReadReactionOptions(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelSetUpReactions(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelDestroyReactions(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelDestroyResultants(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelSetUpLoads(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelCheckRigidBody(FlxModel model);
/* Boundary conditions (motion.c): options, the free-DOF mask, the moving DOFs and the base excitation. */
PETSC_INTERN PetscErrorCode FlxModelReadBCs(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelSetUpBCs(FlxModel model);
PETSC_INTERN PetscErrorCode FlxModelDestroyBCs(FlxModel model);
/* What sets the element-by-element frequency bound: the element, its group and the kind of its highest mode
   (critical.c). Collective. */
PETSC_INTERN PetscErrorCode FlxModelDescribeCriticalElement(FlxModel model, char buf[], size_t len);
/* Mode `mode` (1-based) of a 'flexure modes' results file, scaled so its largest nodal translation is amplitude,
   into the DOF vector u; what names the option in messages. Collective. */
PETSC_INTERN PetscErrorCode FlxModelReadModeShape(FlxModel model, const char path[], PetscInt mode, PetscReal amplitude, const char what[], Vec u);
PETSC_INTERN PetscErrorCode FlxModelElementProps(FlxModel model, PetscInt cell, const FlxSectionProps **p, FlxElementOps *ops, PetscReal xyz[]);
/* Index of the physical group called group, or a collective error that names what asked for it and lists the mesh's groups. */
PETSC_INTERN PetscErrorCode FlxModelRequireGroup(FlxModel m, const char what[], const char group[], PetscInt *g);
/* Consistent distributed-load vectors of the beam line loads at time t (FLX_LOADS_FULL: full value), cell by cell:
   Begin evaluates the loads' time functions; OfCell gives owned local cell c's vector (zero if unloaded), for
   cells in increasing order (a cursor per load over its loaded cells), without a vector of every cell. Not
   collective. */
typedef struct {
  PetscReal s[FLX_MAX_NAMES];
  PetscInt  pos[FLX_MAX_NAMES];
} FlxLoadCursor;
PETSC_INTERN PetscErrorCode FlxModelDistributedLoadsBegin(FlxModel model, PetscReal t, FlxLoadCursor *lc);
PETSC_INTERN void           FlxModelDistributedLoadOfCell(FlxModel model, FlxLoadCursor *lc, PetscInt c, PetscReal fd[12]);
PETSC_INTERN PetscErrorCode FlxModelCellDescription(FlxModel model, PetscInt cell, char buf[], size_t len);
