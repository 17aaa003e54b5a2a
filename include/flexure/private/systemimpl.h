/* Implementation of FlxSystem (system.c; the constraints: systemcons.c). Never included by public headers. */
#pragma once
#include <flexure/flexure.h>

/* ==== Constraints (issue 16): what the system holds for them (systemcons.c). ==== */
typedef struct {
  Mat                            G;   /* dg/dx, m x n (the provider's matrix; its rows give the multipliers' layout) */
  PetscBool                      has; /* on any rank */
  PetscBool                      linear;
  FlxSystemConstraintFn          g;
  FlxSystemConstraintJacobianFn  jac;
  FlxSystemConstraintRateFn      rate;
  FlxSystemConstraintCurvatureFn curv;
  FlxSystemConstraintHessianFn   hess;
  FlxSystemConstraintNameFn      name;
  void                          *ctx, *dctx, *namectx;
  Mat                            M; /* M(t, x) */
  FlxSystemMassMatrixFn          mfn;
  void                          *mctx;
  /* velocity (nonholonomic) constraints k(t, x, v) = 0 */
  Mat                                   Kv, Kx; /* dk/dv (its rows give psi's layout), dk/dx (NULL: k does not depend on x) */
  PetscBool                             hasv;   /* on any rank */
  FlxSystemVelocityConstraintFn         k;
  FlxSystemVelocityConstraintJacobianFn kjac;
  FlxSystemVelocityConstraintRateFn     krate;
  void                                 *kctx;
  /* a general constraint force fc(t, x, v, lambda, psi) (NULL: G^T lambda + Kv^T psi) */
  FlxSystemConstraintForceFn         fc;
  FlxSystemConstraintForceJacobianFn fcjac;
  void                              *fcctx;
} FlxSystemCons;
/* ==== end of constraints (issue 16) ==== */

struct _p_FlxSystem {
  MPI_Comm               comm;
  Vec                    mass, free, x0;
  Mat                    K;
  FlxSystemInternalFn    fint;
  FlxSystemExternalFn    fext, fextrate;
  FlxSystemOmegaBoundFn  bound;
  void                  *fintctx, *fextctx, *boundctx;
  PetscBool              linear, vdep;
  PetscReal              aM, bK;
  PetscReal              rlen, efloor; /* round-off scales: the model's size (m), the energy of round-off displacements (J); 0: none */
  FlxSystemMatFn         mcfn;         /* consistent mass, assembled on first request */
  FlxSystemNullSpaceFn   nspfn;        /* near-null space (rigid-body modes), built on first request */
  void                  *mcctx, *nspctx;
  Mat                    Mc;
  MatNullSpace           nsp;
  Mat                    Cd;    /* extra damping matrix (discrete dampers) */
  PetscReal              crate; /* bound of lambda_max(M^-1 C_d) */
  PetscReal              drate; /* the same for dampers without a matrix (FlxSystemSetDampingRate) */
  PetscBool              drate_set;
  FlxSystemDampingFn     cmult; /* deterministic (b_K K + C_d) v */
  void                  *cctx;
  FlxSystemReactionFn    reac;
  void                  *reacctx;
  Vec                    rw[2]; /* work of the reaction fallback */
  PetscInt               nmov;  /* prescribed motion: local moving DOFs */
  PetscInt              *mov;
  PetscBool              hasmov; /* on any rank */
  PetscReal             *movbuf;
  FlxSystemMotionFn      movfn;
  void                  *movctx;
  FlxSystemDofNameFn     namefn;
  void                  *namectx;
  FlxSystemUpdateFn      update; /* configuration update x (+) dx (NULL: additive) */
  void                  *updatectx;
  FlxSystemUpdateLocalFn updatelocal; /* its form on a range of the local arrays (NULL: none) */
  FlxSystemJacobianFn    jac;         /* tangent of f_int (NULL: linear systems, K + shiftV (b_K K + C_d)) */
  void                  *jacctx;
  FlxSystemMatFn         kfn; /* provider of the assembled stiffness, on first request (NULL: sys->K as set) */
  void                  *kctx;
  FlxSystemDiagonalFn    kdfn; /* provider of K's diagonal (NULL: from the assembled K) */
  void                  *kdctx;
  FlxSystemProductFn     k0; /* f = K_0 x, the initial (linearized) stiffness of a nonlinear system, unassembled */
  void                  *k0ctx;
  FlxSystemEnergyFn      energy; /* strain energy of nonlinear systems */
  void                  *energyctx;
  Vec                    jw;      /* work of FlxSystemComputeJacobian */
  FlxSystemCons          cons;    /* constraints and M(t, x) (issue 16) */
  struct _FlxInertia    *inertia; /* nodal rotary inertia tensors (src/steppers/inertia.c; NULL: none) */
};

/* Free what the constraints hold (systemcons.c). Collective. */
PETSC_INTERN PetscErrorCode FlxSystemDestroyConstraints(FlxSystem);
