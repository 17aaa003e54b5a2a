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
