/* Element kernels: one element type per file, registered by name, filling a table of kernels. */
#pragma once
#include <petsc.h>

/* Material and section data an element sees (SI units). */
typedef struct {
  PetscReal E, nu, G, rho;         /* material */
  PetscReal A, Iy, Iz, J;          /* beam section: area, second moments about local y and z, torsion constant */
  PetscReal Asy, Asz;              /* shear areas along local y and z (kappa A); 0 means shear-rigid (Euler-Bernoulli) */
  PetscReal orient[3];             /* beam orientation vector (in the local x-y plane) */
  PetscBool has_orient;            /* PETSC_FALSE: global Z, or global X for elements parallel to Z */
  PetscReal rotary_scale;          /* multiplies the lumped rotary inertia (1 = physical) */
} FlxSectionProps;

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
};

/* Register an element type by name with a function that fills its kernel table. Not collective. */
PETSC_EXTERN PetscErrorCode FlxElementRegister(const char name[], PetscErrorCode (*create)(FlxElementOps));
/* Get the kernel table of a registered element type. Not collective. */
PETSC_EXTERN PetscErrorCode FlxElementGetOps(const char name[], FlxElementOps *ops);

#define FLXELEMENTBEAM3D "beam3d"

/* Largest eigenvalue of M_e^-1 K_e for an element with diagonal mass m (n = 6 nnodes).
   An upper bound of omega_max^2 of the assembled lumped-mass system. Not collective. */
PETSC_EXTERN PetscErrorCode FlxElementOmegaSquaredBound(PetscInt n, const PetscReal K[], const PetscReal m[], PetscReal *lambda);
