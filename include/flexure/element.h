/* Element kernels: one element type per file, registered by name, filling a table of kernels. */
#pragma once
#include <petsc.h>

/* Material and section data an element sees (SI units). */
typedef struct {
  PetscReal E, nu, G, rho; /* material */
  PetscReal A, Iy, Iz, J;  /* beam section: area, second moments about local y and z, torsion constant */
  PetscReal Asy, Asz;      /* shear areas along local y and z (kappa A); 0 means shear-rigid (Euler-Bernoulli) */
  PetscReal orient[3];     /* beam orientation vector (in the local x-y plane) */
  PetscBool has_orient;    /* PETSC_FALSE: global Z, or global X for elements parallel to Z */
  PetscReal rotary_scale;  /* multiplies the lumped rotary inertia (1 = physical) */
  PetscReal t;             /* shell thickness (m) */
  PetscReal kappa_s;       /* shell transverse shear correction factor (5/6) */
  PetscReal drill;         /* shell drilling stiffness as a fraction of G t (Hughes-Brezzi penalty) */
  PetscReal max_warp;      /* shell quads: largest accepted warp, max |h_i| / sqrt(area) */
} FlxSectionProps;

/* Shell stress resultants at the element centre, in the element's local frame (x along the first
   parametric direction: the line from the midpoint of side 4-1 to that of side 2-3 for quads, edge 1-2 for
   triangles; z the normal): membrane forces Nxx Nyy Nxy (N/m), bending moments Mxx Myy Mxy (N m/m),
   transverse shears Qx Qy (N/m), and the stresses sxx syy sxy at the top (+z) and bottom surfaces (Pa). */
#define FLX_SHELL_NRESULTANTS 14
PETSC_EXTERN const char *const FlxShellResultantNames[];

typedef struct _FlxElementOps *FlxElementOps;
struct _FlxElementOps {
  const char *name;
  PetscInt    nnodes; /* 6 DOFs per node */
  /* Global-frame stiffness (row-major, 6 nnodes square). On invalid geometry returns PETSC_ERR_USER_INPUT after writing a reason to err. */
  PetscErrorCode (*stiffness)(const PetscReal xyz[], const FlxSectionProps *p, PetscReal K[], char err[], size_t len);
  /* Lumped (diagonal) mass in the global frame, 6 nnodes entries. */
  PetscErrorCode (*lumped_mass)(const PetscReal xyz[], const FlxSectionProps *p, PetscReal m[]);
  /* Consistent mass in the global frame (row-major). */
  PetscErrorCode (*consistent_mass)(const PetscReal xyz[], const FlxSectionProps *p, PetscReal M[]);
  /* Shells: global nodal forces (6 nnodes) of a pressure p acting against the element normal (right-hand
     rule of the node order). NULL for elements that take no pressure. */
  PetscErrorCode (*pressure)(const PetscReal xyz[], const FlxSectionProps *p, PetscReal pressure, PetscReal f[]);
  /* Shells: stress resultants (FLX_SHELL_NRESULTANTS values) from the global element displacements (6 nnodes). */
  PetscErrorCode (*resultants)(const PetscReal xyz[], const FlxSectionProps *p, const PetscReal u[], PetscReal r[]);
};

/* Register an element type by name with a function that fills its kernel table. Not collective. */
PETSC_EXTERN PetscErrorCode FlxElementRegister(const char name[], PetscErrorCode (*create)(FlxElementOps));
/* Get the kernel table of a registered element type. Not collective. */
PETSC_EXTERN PetscErrorCode FlxElementGetOps(const char name[], FlxElementOps *ops);

#define FLXELEMENTBEAM3D "beam3d"
#define FLXELEMENTMITC4 "mitc4"
#define FLXELEMENTDKT3 "dkt3"

/* Largest eigenvalue of M_e^-1 K_e for an element with diagonal mass m (n = 6 nnodes).
   An upper bound of omega_max^2 of the assembled lumped-mass system. Not collective. */
PETSC_EXTERN PetscErrorCode FlxElementOmegaSquaredBound(PetscInt n, const PetscReal K[], const PetscReal m[], PetscReal *lambda);
