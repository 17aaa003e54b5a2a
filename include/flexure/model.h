/* FlxModel: materials, sections, boundary conditions, loads, initial conditions and the assembled
   operators (lumped mass Vec, stiffness MPIBAIJ with block size 6, consistent mass on request). */
#pragma once
#include <flexure/mesh.h>
#include <flexure/system.h>

typedef struct _p_FlxModel *FlxModel;

/* Time functions of loads and prescribed motions: value(t), its derivatives and its integrals. */
typedef enum {
  FLX_TF_CONSTANT,
  FLX_TF_STEP,
  FLX_TF_RAMP,
  FLX_TF_SINE,
  FLX_TF_HALFSINE,
  FLX_TF_TABLE,
  FLX_TF_SMOOTHRAMP
} FlxTimeFunctionType;
PETSC_EXTERN const char *const FlxTimeFunctionTypes[];

typedef struct {
  FlxTimeFunctionType type;
  PetscReal           t0, t1, freq;
  PetscInt            ntab;
  PetscReal          *tab;  /* t0, v0, t1, v1, ... */
  PetscReal          *prim; /* table: first and second primitives at the knots (2 per knot) */
} FlxTimeFunction;

/* Read the time function of options prefix pre (e.g. "load_tip_": -load_tip_function, _t0, _t1, _frequency,
   _table or _table_file); owner names it in messages. Collective. */
PETSC_EXTERN PetscErrorCode FlxTimeFunctionSetFromOptions(MPI_Comm comm, const char pre[], const char owner[], FlxTimeFunction *tf);
/* Value and time derivative at t. Not collective. */
PETSC_EXTERN PetscErrorCode FlxTimeFunctionEvaluate(const FlxTimeFunction *tf, PetscReal t, PetscReal *f, PetscReal *dfdt);
/* out[k - kmin] = the k-th derivative of f at t for k = kmin..kmax, -2 <= kmin <= kmax <= 4: k = -1, -2 are the
   first and second integrals from t = 0, k >= 1 the derivatives (one-sided at breaks; those of the linear
   interpolant for tables; jumps of steps and tables contribute no Dirac terms). Not collective. */
PETSC_EXTERN PetscErrorCode FlxTimeFunctionEvaluateDerivatives(const FlxTimeFunction *tf, PetscReal t, PetscInt kmin, PetscInt kmax, PetscReal out[]);
PETSC_EXTERN PetscErrorCode FlxTimeFunctionDestroy(FlxTimeFunction *tf);

/* Create a model over a set-up mesh. Collective. */
PETSC_EXTERN PetscErrorCode FlxModelCreate(FlxMesh mesh, FlxModel *model);
/* Read materials, sections, bcs, loads, initial conditions, point masses, damping. Collective. */
PETSC_EXTERN PetscErrorCode FlxModelSetFromOptions(FlxModel model);
/* The analysis needs every rigid-body motion held (a static solve): the set-up's rigid-body check runs even with
   -model_allow_rigid_body, and its message names the analysis (why, e.g. "flexure static"). Before FlxModelSetUp.
   Logically collective. */
PETSC_EXTERN PetscErrorCode FlxModelSetRequireHeld(FlxModel model, const char why[]);
/* Check the input against the mesh and assemble K and the lumped mass. Collective. */
PETSC_EXTERN PetscErrorCode FlxModelSetUp(FlxModel model);
/* Print a summary. Collective. */
PETSC_EXTERN PetscErrorCode FlxModelView(FlxModel model, PetscViewer viewer);
PETSC_EXTERN PetscErrorCode FlxModelDestroy(FlxModel *model);

/* The second-order system the steppers integrate (owned by the model). Not collective. */
PETSC_EXTERN PetscErrorCode FlxModelGetSystem(FlxModel model, FlxSystem *sys);
/* A new DOF vector (6 per owned node, global PETSc numbering). Collective. */
PETSC_EXTERN PetscErrorCode FlxModelCreateVector(FlxModel model, Vec *v);
/* Initial displacement and velocity from the -ic_ options (zero on prescribed DOFs). Collective. */
PETSC_EXTERN PetscErrorCode FlxModelGetInitialConditions(FlxModel model, Vec x, Vec v);
/* Assembled stiffness, without constraints (MPIBAIJ, block size 6; assembled on the first request when the internal
   force runs element by element); do not change it in place. Collective. */
PETSC_EXTERN PetscErrorCode FlxModelGetStiffness(FlxModel model, Mat *K);
/* How the internal force of the linear cells is computed (-model_internal_force): element by element (no assembled K)
   or through the assembled stiffness; auto chooses by the roofline of both. */
typedef enum {
  FLX_FINT_AUTO,
  FLX_FINT_ELEMENTS,
  FLX_FINT_ASSEMBLED
} FlxInternalForcePath;
/* The path the model chose at set-up. Not collective. */
PETSC_EXTERN PetscErrorCode FlxModelGetInternalForcePath(FlxModel model, FlxInternalForcePath *path);
/* y = K x (every cell and spring; the co-rotational beams of nonlinear models linearized at the initial state) through path (elements: the element loop, built on first use;
   assembled: the deterministic product with K, assembled on first use), whatever path the model runs on; both sum in
   natural order (the same bits at any number of ranks). Collective. */
PETSC_EXTERN PetscErrorCode FlxModelMultStiffness(FlxModel model, FlxInternalForcePath path, Vec x, Vec y);
/* The roofline of one product K x (global sums): bytes read and written and flops of the element loop and of the
   assembled product, and the element loop's time with its data in cache (the slowest rank's; its compute bound,
   measured now, a fraction of a second; 0 without the loop). Collective. */
typedef struct {
  PetscReal ebytes, eflops, kbytes, kflops, ecompute;
} FlxInternalForceRoofline;
PETSC_EXTERN PetscErrorCode FlxModelGetInternalForceRoofline(FlxModel model, PetscBool measure, FlxInternalForceRoofline *r);
/* Consistent mass, assembled on first request. Collective. */
PETSC_EXTERN PetscErrorCode FlxModelGetConsistentMass(FlxModel model, Mat *M);
/* A vector in natural (file) node order, 6 per node, for output. Collective. */
PETSC_EXTERN PetscErrorCode FlxModelCreateNaturalVector(FlxModel model, Vec *xnat);
/* Scatter a DOF vector to natural (file) node order. Collective. */
PETSC_EXTERN PetscErrorCode FlxModelToNatural(FlxModel model, Vec x, Vec xnat);
/* Global DOF index (PETSc numbering) of DOF d (0..5) of natural node n. Collective. */
PETSC_EXTERN PetscErrorCode FlxModelNaturalDof(FlxModel model, PetscInt node, PetscInt d, PetscInt *gdof);
/* Solve K u = f with the constraints applied, f the loads at full value (time functions taken as 1); KSP prefix static_. Collective. */
/* The six rigid-body motions (translations; rotations about the centroid with their rotational DOFs);
   constrained: zeroed on the prescribed DOFs. Destroy the vectors. Collective. */
PETSC_EXTERN PetscErrorCode FlxModelCreateRigidBodyVectors(FlxModel model, PetscBool constrained, Vec R[6]);
#define FLX_LOADS_FULL PETSC_INFINITY
typedef struct _p_FlxWriter *FlxWriter; /* writer.h */
/* Write the element results of u with w's cell-field API, at the frame just written (transient) or under /static:
   shell_resultants (FLX_SHELL_NRESULTANTS per element, element frame) and shell_stresses (FLX_SHELL_NSTRESSES:
   resultants, surface and von Mises stresses in the consistent frame of -output_shell_axis) of shells; beam_forces
   (FLX_BEAM_NFORCES, FlxBeamForceNames: N Vy Vz T My Mz at the first node, then the second, element axes; tension
   positive, the same moment sign at both ends) of beams, with the distributed loads at time t subtracted
   (FLX_LOADS_FULL: at full value, as in the static solve); beam_stresses (FLX_BEAM_NSTRESSES) of shape sections.
   Cells of a type that do not carry a field get rows of NaN. Written in rounds of bounded size (no rank holds a
   whole field). Collective. */
PETSC_EXTERN PetscErrorCode FlxModelWriteCellFields(FlxModel model, FlxWriter w, PetscReal t, Vec u);
/* Whether the model has shell sections. Not collective. */
PETSC_EXTERN PetscErrorCode FlxModelHasShells(FlxModel model, PetscBool *has);
/* Whether the model has beam sections, and beam sections with a shape (stresses). Not collective. */
PETSC_EXTERN PetscErrorCode FlxModelHasBeams(FlxModel model, PetscBool *beams, PetscBool *shapes);
/* Declare that physical group is used as a node set outside the model (probes, springs), so that a cell
   group without a section that only they name is not refused as unused. Before FlxModelSetUp, with the same
   groups on every rank. Not collective. */
PETSC_EXTERN PetscErrorCode FlxModelUseGroup(FlxModel model, const char group[]);
PETSC_EXTERN PetscErrorCode FlxModelSolveStatic(FlxModel model, Vec u);
/* Load-deflection path of a nonlinear static solve: n converged states (load factor, natural-order displacement). */
typedef struct {
  PetscInt   n, cap;
  PetscReal *lambda;
  Vec       *x;
} FlxStaticPath;
/* Nonlinear statics (-static_increments N: Newton at load factors 1/N .. 1, halving a step whose Newton fails;
   -static_arclength: Crisfield's cylindrical arc length), from u = 0: the final state into u and the path (every
   converged step; free it with FlxStaticPathDestroy). Fails collectively with the step, the residual history and a
   hint. Collective. */
PETSC_EXTERN PetscErrorCode FlxModelSolveStaticNonlinear(FlxModel model, Vec u, FlxStaticPath *path);
PETSC_EXTERN PetscErrorCode FlxStaticPathDestroy(FlxStaticPath *path);
/* Whether some section has geometry nonlinear (co-rotational elements, finite rotations in x). Not collective. */
PETSC_EXTERN PetscErrorCode FlxModelIsNonlinear(FlxModel model, PetscBool *nonlinear);
/* The loads at full value (time functions taken as 1), as the static solve uses them. Collective. */
PETSC_EXTERN PetscErrorCode FlxModelComputeStaticLoad(FlxModel model, Vec f);
/* The prescribed displacements of a static solve: the moving DOFs' entries of u (this rank's) set to lambda times
   the -value of their displacement-type boundary condition (time functions ignored, as for the loads); velocity and
   acceleration histories and the base excitation have no static value: their DOFs stay at rest and a note says so
   (once). any: whether some DOF gets a displacement (on any rank). Collective. */
PETSC_EXTERN PetscErrorCode FlxModelSetStaticMotion(FlxModel model, PetscReal lambda, Vec u, PetscBool *any);
/* Name of boundary condition k (NULL past the last), and the point of its moment totals (-bc_NAME_moment_point). Not collective. */
PETSC_EXTERN PetscErrorCode FlxModelGetBCName(FlxModel model, PetscInt k, const char **name);
PETSC_EXTERN PetscErrorCode FlxModelGetReactionPoint(FlxModel model, PetscInt k, PetscReal p[3]);
/* This rank's part of the reaction totals of each boundary condition k: local[6 k + 0..5] = fx fy fz mx my mz
   (moments about its point) from the reaction vector R (FlxSystemComputeReactions). Not collective. */
PETSC_EXTERN PetscErrorCode FlxModelComputeReactionTotals(FlxModel model, Vec R, PetscReal local[]);
/* Reactions K u - f of a static solution u (f the loads at full value) on the prescribed DOFs, zero elsewhere. Collective. */
PETSC_EXTERN PetscErrorCode FlxModelComputeStaticReactions(FlxModel model, Vec u, Vec R);
PETSC_EXTERN PetscErrorCode FlxModelGetMesh(FlxModel model, FlxMesh *mesh);

/* Base excitation: none, relative (the unknowns are displacements relative to the ground, loaded by -M r a_g) or
   absolute (the unknowns are absolute, the supports follow u_g). */
typedef enum { FLX_BASE_NONE,
               FLX_BASE_RELATIVE,
               FLX_BASE_ABSOLUTE } FlxBaseFormulation;
/* Base excitation at t: formulation (a FlxBaseFormulation) and the ground displacement, velocity and
   acceleration (translations; any of them may be NULL). Not collective. */
PETSC_EXTERN PetscErrorCode FlxModelGetBaseMotion(FlxModel model, PetscReal t, PetscInt *form, PetscReal ug[3], PetscReal vg[3], PetscReal ag[3]);

/* DOF names in storage order. */
PETSC_EXTERN const char *const FlxDofNames[];
