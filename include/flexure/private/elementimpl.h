#pragma once
#include <flexure/flexure.h>
PETSC_INTERN PetscErrorCode FlxElementRegisterAll(void);
PETSC_INTERN PetscErrorCode FlxElementFinalizeRegistry(void);
PETSC_INTERN PetscErrorCode FlxElementCreate_Beam3d(FlxElementOps);
PETSC_INTERN PetscErrorCode FlxElementCreate_MITC4(FlxElementOps);
PETSC_INTERN PetscErrorCode FlxElementCreate_DKT3(FlxElementOps);
/* Co-rotational form of beam3d (corotbeam.c): the internal_force and tangent kernels of its table. */
PETSC_INTERN PetscErrorCode FlxCorotBeamInternalForce(const PetscReal X0[], const PetscReal u[], const PetscReal R[], const FlxSectionProps *p, PetscReal f[], PetscReal *energy, char err[], size_t len);
PETSC_INTERN PetscErrorCode FlxCorotBeamTangent(const PetscReal X0[], const PetscReal u[], const PetscReal R[], const FlxSectionProps *p, PetscReal K[], char err[], size_t len);
/* Section forces of a co-rotational beam in its co-rotated axes (corotbeam.c; the linear element's convention). */
PETSC_INTERN PetscErrorCode FlxCorotBeamSectionForces(const PetscReal X0[], const PetscReal u[], const PetscReal R[], const FlxSectionProps *p, const PetscReal fd[], PetscReal r[], char err[], size_t len);
/* What a co-rotational beam keeps from its initial geometry and section (constant during a run): the initial length
   l0, the initial element axes E (rows e1, e2, e3: beam3d's frame) and the nonzero entries of the 7 x 7 local
   stiffness K_l at (u_x2, theta_1, theta_2): k = EA/l0, GJ/l0, then the bending entries about local y (diagonal,
   coupling of the two nodes), then about local z. */
typedef struct {
  PetscReal l0, E[9], k[6];
} FlxCorotBeamData;
/* Fill d from the initial node coordinates X0 (6) and the section. Invalid geometry: PETSC_ERR_USER_INPUT with a
   reason in err. Not collective. */
PETSC_INTERN PetscErrorCode FlxCorotBeamSetUp(const PetscReal X0[], const FlxSectionProps *p, FlxCorotBeamData *d, char err[], size_t len);
/* The reason of a degenerate element, from the kernel's code (1: the chord shorter than 1e-8 l0; 2: the frame
   degenerated). Not collective. */
PETSC_INTERN void FlxCorotBeamReason(int code, char err[], size_t len);

/* Explicit fast path (corotfast.c): a model's co-rotational cells in batches of FLX_COROT_LANES, structure of arrays
   inside a batch (lane l of every array is one cell), so that one SIMD pass computes a batch. Per cell: its two
   local nodes, its local cell number, whether this rank owns it (its strain energy counts here), its constant data
   (the element frame E by its unit quaternion e: 4 numbers instead of 9).
   n: cells in the batch (FLX_COROT_LANES except in the last one, whose free lanes repeat its first cell). */
#define FLX_COROT_LANES 8
#define FLX_COROT_STATE 8
typedef struct {
  PetscReal l0[FLX_COROT_LANES], e[4][FLX_COROT_LANES], k[6][FLX_COROT_LANES];
  PetscInt  node[2][FLX_COROT_LANES], cell[FLX_COROT_LANES], owned[FLX_COROT_LANES], n;
} FlxCorotBeamBatch;
/* Put a cell into lane l of batch b. Not collective. */
PETSC_INTERN void FlxCorotBeamBatchSet(FlxCorotBeamBatch *b, PetscInt l, PetscInt node0, PetscInt node1, PetscInt cell, PetscBool owned, const FlxCorotBeamData *d);
/* f[6 i + d] += the internal forces of the cells of the nb batches, in order, at their local nodes i < nown; energy
   (may be NULL) = the sum of the owned cells' strain energies in cell order. s: the state of every local node
   (FLX_COROT_STATE = 8 each, one cache line: current position, the unit quaternion of the rotation, 0). Arithmetic: the
   general kernel's formulas (lanes that need its rarer branches, large local rotations or degenerate geometry, go
   through it). Returns -1, or the local cell number of the first degenerate cell with the reason in err: with f the
   loop stops there (forces added up to it), with f NULL (the energy only, owned cells) it goes on and degenerate cells
   add nothing. Not collective. */
PETSC_INTERN PetscInt FlxCorotBeamAddForces(PetscInt nb, const FlxCorotBeamBatch b[], const PetscReal s[], PetscInt nown, PetscReal f[], PetscReal *energy, char err[], size_t len);

/* Shared beam kernels (beam3d.c): the element axes of a two-node beam (length L; rows of R: local x, y, z in
   global coordinates; invalid geometry returns PETSC_ERR_USER_INPUT with a reason in err) and the local 12 x 12
   Timoshenko stiffness. Not collective. */
typedef struct {
  PetscReal L, R[9];
} FlxBeamFrame;
PETSC_INTERN PetscErrorCode FlxBeam3dFrame(const PetscReal xyz[], const FlxSectionProps *p, FlxBeamFrame *f, char err[], size_t len);
PETSC_INTERN void           FlxBeam3dLocalStiffness(const FlxSectionProps *p, PetscReal L, PetscReal Kl[144]);

/* Shared shell kernels (shell.c). A shell element works in a flat local frame: origin at the centroid,
   z the normal, x and y in the (mean) plane. Local DOFs per node: u v w rx ry rz. */
typedef struct {
  PetscInt  nn;
  PetscReal R[9];             /* rows: local x, y, z (normal) in global coordinates */
  PetscReal x[4], y[4], h[4]; /* local in-plane coordinates of the projected nodes; offsets along z */
  PetscReal area;             /* projected area */
  PetscReal warp;             /* max |h_i| / sqrt(area) */
} FlxShellFrame;

PETSC_INTERN PetscErrorCode FlxShellFrameCompute(PetscInt nn, const PetscReal xyz[], const FlxSectionProps *p, FlxShellFrame *f, char err[], size_t len);
PETSC_INTERN void           FlxShellToGlobal(const FlxShellFrame *f, const PetscReal Kl[], PetscReal Kg[]);
PETSC_INTERN void           FlxShellDisplacementToLocal(const FlxShellFrame *f, const PetscReal ug[], PetscReal ul[]);
PETSC_INTERN void           FlxShellPlaneStress(const FlxSectionProps *p, PetscReal scale, PetscReal D[9]);
PETSC_INTERN void           FlxShellAddDrilling(const FlxShellFrame *f, PetscReal gamma, PetscReal w, const PetscReal N[], const PetscReal dNx[], const PetscReal dNy[], PetscReal Kl[]);
PETSC_INTERN void           FlxShellAddBtDB(PetscInt n, PetscInt nr, const PetscReal B[], const PetscReal D[], PetscReal w, PetscReal K[]);
PETSC_INTERN void           FlxShellResultantsFinish(const FlxSectionProps *p, PetscReal r[]);
PETSC_INTERN PetscErrorCode FlxShellLumpedMass(PetscInt nn, const PetscReal wnode[], const FlxSectionProps *p, PetscReal m[]);
PETSC_INTERN PetscErrorCode FlxShellConsistentMass(PetscInt nn, PetscInt nq, const PetscReal N[], const PetscReal w[], const FlxSectionProps *p, PetscReal M[]);
PETSC_INTERN void           FlxShellTractionLoad(const FlxShellFrame *f, const PetscReal wnode[], const PetscReal t[3], PetscReal fg[]);
PETSC_INTERN void           FlxShellPressureLoad(const FlxShellFrame *f, const PetscReal wnode[], PetscReal pressure, PetscReal fg[]);

/* Element-by-element internal force of linear elements (docs/methods.md, "Performance"; the loop, its halo exchange
   and its summation order are the model's, src/model/ebe.c). The cells of one kernel class are stored in batches of
   FLX_EBE_LANES, structure of arrays inside a batch (lane l of every array is one cell), with what does not change
   during a run precomputed; SIMD passes over the lanes (one; four for the quads) compute the nodal forces of a batch into fe[6 nn][FLX_EBE_LANES] (global
   axes, the cell's node a at rows 6 a .. 6 a + 5), from x (6 values per node) at the gather indices gi. The model
   adds them node by node (scatter indices si: >= 0 a local node, -1 none, <= -2 the slot -2 - si of a node whose
   sum is finished later) in the batches' order. n: cells in the batch (the free lanes of the last one repeat its
   first cell, computed and never added); own: bit l set when lane l's cell is owned (its strain energy counts on
   this rank). en (may be NULL): the cells' strain energies u_e . f_e / 2. */
#define FLX_EBE_LANES 8
#define FLX_EBE_ALIGN __attribute__((aligned(64))) /* a batch starts on a cache line (allocate with FlxEbeMalloc) */
#define FLX_EBE_HEAD(nn, gtype) \
  gtype gi[nn][FLX_EBE_LANES];  \
  int   si[nn][FLX_EBE_LANES];  \
  int   n, own

/* Linear Timoshenko beams (beam3d; beamfast.c): 1/L, the element axes x and z (y = z x x), and the six entries of the
   local stiffness a co-rotational beam keeps (FlxCorotBeamData.k); the transverse terms follow from them
   (12 c = 2 (k_11 + k_12) / L^2, 6 L c = (k_11 + k_12) / L: K_l's rows sum to zero for rigid motions). 13 numbers
   and four indices per cell. */
typedef struct FLX_EBE_ALIGN {
  PetscReal il[FLX_EBE_LANES], e1[3][FLX_EBE_LANES], e3[3][FLX_EBE_LANES], k[6][FLX_EBE_LANES];
  FLX_EBE_HEAD(2, int);
} FlxBeamBatch;
/* Put a cell (local node numbers in gi/si set by the caller) with its constant data into lane l. Not collective. */
PETSC_INTERN void FlxBeamBatchSet(FlxBeamBatch *b, PetscInt l, const FlxCorotBeamData *d);
PETSC_INTERN void FlxBeamBatchForce(const FlxBeamBatch *b, const PetscReal x[], PetscReal fe[][FLX_EBE_LANES], PetscReal en[]);
/* Arithmetic and data of one cell of each kernel class, for the roofline (flops of the kernel, bytes it reads). */
#define FLX_BEAM_FLOPS 141
#define FLX_BEAM_BYTES ((PetscInt)(13 * sizeof(PetscReal) + 4 * sizeof(int)))

/* Flat shells (MITC4 quads, DKT3 triangles; shellfast.c): the local frame (axes x and z, y = z x x), the nodes'
   offsets h from the mean plane (quads), the in-plane coordinates dx, dy of nodes 1 .. nn - 1 relative to node 0's
   and the local stiffness, which for these flat elements splits into a membrane block (u, v, theta_z of each node:
   the drilling penalty couples theta_z to the membrane) and a bending block (w, theta_x, theta_y). Both vanish for
   the three rigid motions of the element's plane, so each is kept as its rows and columns of nodes 1 .. nn - 1,
   symmetric, as the upper triangle (row by row): 3 (nn - 1) (3 (nn - 1) + 1) / 2 numbers; node 0's rows follow from
   equilibrium. The global forces are T^T P^T K_r P T u with T the frame and the rigid links of the offsets
   (shell.c) and P the motion relative to node 0's rigid motion (shellfast.c). */
#define FLX_QUAD_NK 45
#define FLX_TRI_NK 21
typedef struct FLX_EBE_ALIGN {
  PetscReal e1[3][FLX_EBE_LANES], e3[3][FLX_EBE_LANES], h[4][FLX_EBE_LANES], dx[3][FLX_EBE_LANES], dy[3][FLX_EBE_LANES];
  PetscReal km[FLX_QUAD_NK][FLX_EBE_LANES], kb[FLX_QUAD_NK][FLX_EBE_LANES];
  FLX_EBE_HEAD(4, long); /* node numbers (64-bit, as the kernels were tuned; the nodal values are read by FLX_GATHER6) */
} FlxQuadBatch;
typedef struct FLX_EBE_ALIGN {
  PetscReal e1[3][FLX_EBE_LANES], e3[3][FLX_EBE_LANES], dn[6][FLX_EBE_LANES], mc[4][FLX_EBE_LANES], dx[2][FLX_EBE_LANES], dy[2][FLX_EBE_LANES];
  PetscReal kb[FLX_TRI_NK][FLX_EBE_LANES]; /* no offsets: flat */
  FLX_EBE_HEAD(3, long);
} FlxTriBatch;
/* Pack the local stiffness Kl (6 nn square, row-major, local DOFs u v w rx ry rz per node) and frame f of a shell
   into lane l; PETSC_ERR_PLIB when Kl couples the membrane and bending blocks (not a flat element) or does not
   vanish for the rigid motions of its plane. Not collective.
   FlxQuadBatchForce prefetches the batch pf (NULL: none; the loop passes the one two ahead) into the outer caches,
   a quarter after each of its four passes. */
PETSC_INTERN PetscErrorCode FlxQuadBatchSet(FlxQuadBatch *b, PetscInt l, const FlxShellFrame *f, const PetscReal Kl[]);
PETSC_INTERN PetscErrorCode FlxTriBatchSet(FlxTriBatch *b, PetscInt l, const FlxShellFrame *f, const FlxSectionProps *p, const PetscReal Kl[]);
PETSC_INTERN void           FlxQuadBatchForce(const FlxQuadBatch *b, const PetscReal x[], PetscReal fe[][FLX_EBE_LANES], PetscReal en[], const FlxQuadBatch *pf);
PETSC_INTERN void           FlxTriBatchForce(const FlxTriBatch *b, const PetscReal x[], PetscReal fe[][FLX_EBE_LANES], PetscReal en[]);
#define FLX_QUAD_FLOPS (2 * 2 * 81 + 4 * 21 + 8 * 34 + 2 * 9 + 2 * 18 + 1) /* blocks, P and P^T, T and T^T, y = z x x twice, energy */
#define FLX_QUAD_BYTES ((PetscInt)((16 + 2 * FLX_QUAD_NK) * sizeof(PetscReal) + 4 * sizeof(long) + 4 * sizeof(int)))
#define FLX_TRI_FLOPS (2 * 36 + 2 * 14 + 75 + 6 * 30 + 9 + 2 * 15 + 1) /* bending block, P and P^T, membrane, T and T^T, y = z x x, energy */
#define FLX_TRI_BYTES ((PetscInt)((20 + FLX_TRI_NK) * sizeof(PetscReal) + 3 * sizeof(long) + 3 * sizeof(int)))
/* The flat frame and local stiffness (before the transformation to global axes) of a MITC4 or DKT3 shell: the
   kernels of their stiffness op (mitc4.c, dkt3.c). Invalid geometry: PETSC_ERR_USER_INPUT with a reason in err. */
PETSC_INTERN PetscErrorCode FlxMITC4LocalStiffness(const PetscReal xyz[], const FlxSectionProps *p, FlxShellFrame *f, PetscReal Kl[], char err[], size_t len);
PETSC_INTERN PetscErrorCode FlxDKT3LocalStiffness(const PetscReal xyz[], const FlxSectionProps *p, FlxShellFrame *f, PetscReal Kl[], char err[], size_t len);
