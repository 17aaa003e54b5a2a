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
   local nodes, its local cell number, whether this rank owns it (its strain energy counts here), its constant data.
   n: cells in the batch (FLX_COROT_LANES except in the last one, whose free lanes repeat its first cell). */
#define FLX_COROT_LANES 8
typedef struct {
  PetscReal l0[FLX_COROT_LANES], E[9][FLX_COROT_LANES], k[6][FLX_COROT_LANES];
  PetscInt  node[2][FLX_COROT_LANES], cell[FLX_COROT_LANES], owned[FLX_COROT_LANES], n;
} FlxCorotBeamBatch;
/* Put a cell into lane l of batch b. Not collective. */
PETSC_INTERN void FlxCorotBeamBatchSet(FlxCorotBeamBatch *b, PetscInt l, PetscInt node0, PetscInt node1, PetscInt cell, PetscBool owned, const FlxCorotBeamData *d);
/* f[6 i + d] += the internal forces of the cells of the nb batches, in order, at their local nodes i < nown; energy
   (may be NULL) = the sum of the owned cells' strain energies in cell order. s: the state of every local node (12
   each: current position, then the rotation matrix, row-major). Arithmetic: the general kernel's formulas (lanes
   that need its rarer branches, large local rotations or degenerate geometry, go through it). Returns -1, or the
   local cell number of the first degenerate cell with the reason in err: with f the loop stops there (forces added
   up to it), with f NULL (the energy only, owned cells) it goes on and degenerate cells add nothing. Not
   collective. */
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
