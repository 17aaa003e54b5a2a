/* GCD kernel shared by the stepper and the stability analysis. */
#pragma once
#include <petsc.h>

typedef struct {
  PetscInt  degree;
  PetscReal alpha, beta, gamma, zeta; /* contiguous: FlxGCDSpectralRadius takes &alpha */
  PetscBool classic;                  /* classic central differences, paper eqs. 4-6 (J holds x_{n-1}) */
  PetscBool work;                     /* ledger: lsum[1] sums the internal force's work (D_new + D_old) . G (nonlinear systems) */
} FlxGCDParams;

/* One step over n DOFs (time-integration.md 1). In: X = x_n, V, A, J, S at t_{n-1}, D = x_n - x_{n-1},
   G = f_int(x_n), F = f_ext(t_n), minv (0 on prescribed DOFs), aM mass-proportional damping.
   Ag: NULL for the explicit diagonal solve (G = f_int(x_n), mass-proportional damping aM), or a_n from a
   conditionally explicit solve (G then the elastic force K x_n only).
   Out: X = x_{n+1}, V, A, J, S at t_n, D = x_{n+1} - x_n, and the local ledger sums.
   Classic central differences (p->classic, for comparison only): J holds x_{n-1} and
   x_{n+1} = 2 x_n - x_{n-1} + h^2 a_n, v_n = (x_{n+1} - x_{n-1}) / (2 h) (paper eqs. 4-6). */
void FlxGCDKernel(const FlxGCDParams *p, PetscInt n, PetscReal h, PetscReal aM, const PetscReal *F, const PetscReal *G, const PetscReal *minv, const PetscReal *Ag, PetscReal *X, PetscReal *V, PetscReal *A, PetscReal *J, PetscReal *S, PetscReal *D, PetscReal lsum[4]);

/* The same with X = x_n read only (x_{n+1} not stored): the step of a system with finite rotations. */
void FlxGCDKernelKeepX(const FlxGCDParams *p, PetscInt n, PetscReal h, PetscReal aM, const PetscReal *F, const PetscReal *G, const PetscReal *minv, const PetscReal *Ag, const PetscReal *X, PetscReal *V, PetscReal *A, PetscReal *J, PetscReal *S, PetscReal *D, PetscReal lsum[4]);

/* c of the solve shape v_n = vhat + c h (a_n - ahat). */
PetscReal FlxGCDSolveCoefficient(const FlxGCDParams *p);
/* w = vhat - c h ahat, so that v_n = w + c h a_n (the velocity the conditionally explicit solve sees). */
void FlxGCDPredict(const FlxGCDParams *p, PetscInt n, PetscReal h, const PetscReal *V, const PetscReal *A, const PetscReal *J, const PetscReal *S, PetscReal *W);

/* Finite rotations (gcdrotation.c): D's rotational components (6 DOFs per node, the last 3 rotational), the
   integral of omega over a step e, become the spatial rotation increment of the Magnus expansion,
   D_rot -= e^3/12 w x a + e^4/24 w x j with w, a, j the angular velocity and its derivatives at the start
   (J may be NULL). */
void FlxGCDMagnusIncrement(PetscInt n, PetscReal e, const PetscReal *V, const PetscReal *A, const PetscReal *J, PetscReal *D);
/* X = X0 (+) D through the system's configuration update, D corrected first (FlxGCDMagnusIncrement) when magnus.
   Collective. */
PetscErrorCode FlxGCDComposeIncrement(FlxSystem sys, PetscBool magnus, PetscReal e, Vec V, Vec A, Vec J, Vec D, Vec X0, Vec X);

/* ==== Constrained systems (issue 16, gcddae.c) ==== */
/* The gcd type on a system with constraints: set up the constrained step of seed 000 section 8 and take over the
   stepper's operations (given back at reset). exact: -ts_gcd_startup exact. Collective. */
PetscErrorCode FlxGCDDAESetUp(FlxStepper ts, const FlxGCDParams *p, PetscBool exact);
/* Nodal rotary inertia tensors (gcdrotation.c; FlxSystemSetInertiaTensors): the nodes whose rotational equations
   are J (a + a_M v) + v x J v = m. Their accelerations come from the system's node-by-node solve
   (FlxSystemSolveInertia), in every solve shape, and their ledger terms use J instead of the lumped entries. */
typedef struct {
  PetscInt        n;    /* local tensor nodes */
  const PetscInt *dof;  /* first rotational DOF of each (the system's array) */
  PetscReal      *Js;   /* spatial tensors at x_n, 9 per node */
  PetscReal      *dold; /* D's rotational part before the kernel (x_n - x_{n-1}), 3 per node */
  PetscReal      *blk;  /* tangent blocks of FlxSystemComputeInertiaTangent, 27 per node (Newton) */
} FlxGCDTensors;
/* Whether the system has tensors (any rank), and the work for them. Collective. */
PetscErrorCode FlxGCDTensorsSetUp(FlxSystem sys, FlxGCDTensors *t, PetscBool *has);
PetscErrorCode FlxGCDTensorsDestroy(FlxGCDTensors *t);
/* Before the kernel: the spatial tensors at x_n = X and the old increments from D. Not collective. */
PetscErrorCode FlxGCDTensorsLedgerBefore(FlxSystem sys, FlxGCDTensors *t, Vec X, Vec D);
/* After the kernel (D = x_{n+1} - x_n, V = v_n, A = a_n): the kinetic sum with J in place of the lumped entries,
   and the damping sum with a_M J v_n (the kernel took the residual F - G - m a). Not collective. */
PetscErrorCode FlxGCDTensorsLedgerAfter(FlxGCDTensors *t, PetscReal aM, Vec Minv, Vec D, Vec V, Vec A, Vec F, Vec G, PetscReal lsum[4]);
/* y += ((1 + aM s) J + s (skew(v) J - skew(J v)) - diag(d)) x on the tensor nodes' rotational rows (the Newton
   operator of the conditionally explicit step, from the blocks in t->blk). Not collective. */
void FlxGCDTensorsMult(const FlxGCDTensors *t, PetscReal aM, PetscReal s, const PetscScalar d[], const PetscScalar x[], PetscScalar y[]);
