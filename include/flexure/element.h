/* Element kernels: one element type per file, registered by name, filling a table of kernels. */
#pragma once
#include <petsc.h>

/* Stress-recovery points of a beam section shape (shapes.c): points (y, z) of the section in element axes,
   at which the normal stress sigma = N/A + My z/Iy - Mz y/Iz and a shear stress tau along the boundary
   tangent t = x cross n (n the outward normal; counter-clockwise seen from +x) are evaluated, with
   tau = cT T + cVy Vy + cVz Vz from elementary formulas (Saint-Venant torsion, Bredt, Jourawski). */
#define FLX_MAX_RECOVERY 8
typedef struct {
  PetscInt  n; /* 0: no shape (explicit A, Iy, Iz, J): no stresses */
  PetscReal y[FLX_MAX_RECOVERY], z[FLX_MAX_RECOVERY];
  PetscReal cT[FLX_MAX_RECOVERY], cVy[FLX_MAX_RECOVERY], cVz[FLX_MAX_RECOVERY];
} FlxRecoveryPoints;

/* Material and section data an element sees (SI units). */
typedef struct {
  PetscReal         E, nu, G, rho; /* material */
  PetscReal         A, Iy, Iz, J;  /* beam section: area, second moments about local y and z, torsion constant */
  PetscReal         Asy, Asz;      /* shear areas along local y and z (kappa A); 0 means shear-rigid (Euler-Bernoulli) */
  PetscReal         orient[3];     /* beam orientation vector (in the local x-y plane) */
  PetscBool         has_orient;    /* PETSC_FALSE: global Z, or global X for elements parallel to Z */
  PetscReal         rotary_scale;  /* multiplies the lumped rotary inertia (1 = physical) */
  PetscReal         t;             /* shell thickness (m) */
  PetscReal         kappa_s;       /* shell transverse shear correction factor (5/6) */
  PetscReal         drill;         /* shell drilling stiffness as a fraction of G t (Hughes-Brezzi penalty) */
  PetscReal         max_warp;      /* shell quads: largest accepted warp, max |h_i| / sqrt(area) */
  FlxRecoveryPoints rp;            /* beam section shapes: stress-recovery points */
} FlxSectionProps;

/* Beam section shapes (shapes.c). Dimensions (m): the depth h runs along local y (the orientation vector's
   direction), the width b along local z.
   rectangle: b, h; circle: d; tube: d (outer), t; box: b, h, tf (walls normal to y), tw (walls normal to z);
   isection: b (flange width), h (total depth), tf (flange thickness), tw (web thickness). */
typedef enum { FLX_SHAPE_NONE,
               FLX_SHAPE_RECTANGLE,
               FLX_SHAPE_CIRCLE,
               FLX_SHAPE_TUBE,
               FLX_SHAPE_BOX,
               FLX_SHAPE_ISECTION } FlxSectionShape;
PETSC_EXTERN const char *const FlxSectionShapes[];
typedef struct {
  PetscReal b, h, d, t, tf, tw;
} FlxShapeDimensions;
/* Whether dimension key ("b", "h", "d", "t", "tf", "tw") is one of shape's. Not collective. */
PETSC_EXTERN PetscBool FlxSectionShapeUses(FlxSectionShape shape, const char key[]);
/* A, Iy, Iz, J, the shear areas Asy, Asz (Cowper's factors with p->nu) and the stress-recovery points of a
   shape into p. Invalid dimensions: returns PETSC_ERR_USER_INPUT after writing the reason to err. Not collective. */
PETSC_EXTERN PetscErrorCode FlxSectionShapeCompute(FlxSectionShape shape, const FlxShapeDimensions *dim, FlxSectionProps *p, char err[], size_t len);
/* Torsion constant of a b x h rectangle (Saint-Venant, series solution). Not collective. */
PETSC_EXTERN PetscReal FlxRectangleTorsionConstant(PetscReal b, PetscReal h);
/* Largest and smallest normal stress and largest von Mises stress sqrt(sigma^2 + 3 tau^2) over the recovery
   points of a section under the section forces s = N Vy Vz T My Mz. Not collective. */
PETSC_EXTERN void FlxSectionStresses(const FlxSectionProps *p, const PetscReal s[6], PetscReal *smax, PetscReal *smin, PetscReal *vm);

/* Beam section forces: N Vy Vz T My Mz at the element's first node, then at its second (element axes). */
#define FLX_BEAM_NFORCES 12
PETSC_EXTERN const char *const FlxBeamForceNames[];
/* Beam stresses of shape sections: largest and smallest normal stress and largest von Mises stress over
   the recovery points, at the first node, then the second. */
#define FLX_BEAM_NSTRESSES 6
PETSC_EXTERN const char *const FlxBeamStressNames[];

/* Shell stress resultants at the element centre, in the element's local frame (x along the first
   parametric direction: the line from the midpoint of side 4-1 to that of side 2-3 for quads, edge 1-2 for
   triangles; z the normal): membrane forces Nxx Nyy Nxy (N/m), bending moments Mxx Myy Mxy (N m/m),
   transverse shears Qx Qy (N/m), and the stresses sxx syy sxy at the top (+z) and bottom surfaces (Pa). */
#define FLX_SHELL_NRESULTANTS 14
PETSC_EXTERN const char *const FlxShellResultantNames[];
/* The same in a frame consistent across elements (x the projection of a chosen global axis on the element's
   plane; z the element normal), with the von Mises stress at the top and bottom surfaces: Nxx Nyy Nxy Mxx Myy
   Mxy Qx Qy, sxx syy sxy von_mises at the top, then at the bottom. */
#define FLX_SHELL_NSTRESSES 16
PETSC_EXTERN const char *const FlxShellStressNames[];

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
  /* Shells: global nodal forces of a uniform traction t (force per area, global axes). NULL otherwise. */
  PetscErrorCode (*traction)(const PetscReal xyz[], const FlxSectionProps *p, const PetscReal t[3], PetscReal f[]);
  /* Beams: global nodal forces and moments, consistent with the element's interpolation, of a uniform
     distributed force q[0..2] and moment q[3..5] per unit length, in element axes (local) or global axes.
     NULL for elements without line loads. */
  PetscErrorCode (*line_load)(const PetscReal xyz[], const FlxSectionProps *p, const PetscReal q[6], PetscBool local, PetscReal f[]);
  /* Beams: section forces (FLX_BEAM_NFORCES) from the global element displacements u and the element's
     consistent distributed-load vector fd (global, NULL for none): the element axes components of
     K_e u - fd, with the sign of the first node reversed (tension positive; the force and moment that the
     part of the beam beyond a section exerts on the part before it, at both ends). NULL otherwise. */
  PetscErrorCode (*section_forces)(const PetscReal xyz[], const FlxSectionProps *p, const PetscReal u[], const PetscReal fd[], PetscReal r[]);
  /* Geometrically nonlinear form (NULL: none; docs/nonlinear.md). X0: initial node coordinates; u: element DOFs
     (6 nnodes, the translations are used); R: nodal rotation matrices (9 per node, row-major, global frame,
     spatial: R = exp(skew(psi))). internal_force: global nodal forces and moments f (6 nnodes, conjugate to the
     translations and the spatial spins) and the strain energy (may be NULL). tangent: df/d(translations, spatial
     spins), row-major, not symmetric in general. Degenerate geometry (length or frame lost): PETSC_ERR_USER_INPUT
     after writing a reason to err. */
  PetscErrorCode (*internal_force)(const PetscReal X0[], const PetscReal u[], const PetscReal R[], const FlxSectionProps *p, PetscReal f[], PetscReal *energy, char err[], size_t len);
  PetscErrorCode (*tangent)(const PetscReal X0[], const PetscReal u[], const PetscReal R[], const FlxSectionProps *p, PetscReal K[], char err[], size_t len);
};

/* Register an element type by name with a function that fills its kernel table. Not collective. */
PETSC_EXTERN PetscErrorCode FlxElementRegister(const char name[], PetscErrorCode (*create)(FlxElementOps));
/* Get the kernel table of a registered element type. Not collective. */
PETSC_EXTERN PetscErrorCode FlxElementGetOps(const char name[], FlxElementOps *ops);

#define FLXELEMENTBEAM3D "beam3d"
#define FLXELEMENTMITC4 "mitc4"
#define FLXELEMENTDKT3 "dkt3"

/* Shell stresses in the consistent frame (FLX_SHELL_NSTRESSES values) of a shell element with kernels ops:
   x the projection of the global axis on the element's plane; where the axis is within 0.1 degree of the
   normal, that of global Z, and where Z is too, that of global X. Not collective. */
PETSC_EXTERN PetscErrorCode FlxShellStresses(FlxElementOps ops, const PetscReal xyz[], const FlxSectionProps *p, const PetscReal u[], const PetscReal axis[3], PetscReal r[]);

/* Largest eigenvalue of M_e^-1 K_e for an element with diagonal mass m (n = 6 nnodes).
   An upper bound of omega_max^2 of the assembled lumped-mass system. Not collective. */
PETSC_EXTERN PetscErrorCode FlxElementOmegaSquaredBound(PetscInt n, const PetscReal K[], const PetscReal m[], PetscReal *lambda);
