/* Private to the gcd stepper type (gcd.c, gcdsolve.c, gcdstartup.c): its data and shared functions. */
#pragma once
#include <flexure/private/stepperimpl.h>
#include "gcd.h"

typedef enum {
  GCD_SOLVE_AUTO,
  GCD_SOLVE_EXPLICIT,
  GCD_SOLVE_KSP,
  GCD_SOLVE_FIXED_POINT
} GCDSolve;
typedef enum {
  GCD_STARTUP_EXACT,
  GCD_STARTUP_ZERO
} GCDStartup;

typedef struct {
  FlxGCDParams p;
  char         preset[64];
  Vec          X, V, A, J, S, D, G, F, Minv, W, Mass;
  PetscReal    aM, bK;
  GCDStartup   startup_type;
  const char  *startup;
  /* conditionally explicit solve (stiffness-proportional damping, velocity-dependent forces) */
  GCDSolve  solve, solve_user; /* in use (chosen at set-up); as asked (-ts_gcd_solve) */
  PetscBool linear;            /* the system is linear (ksp: one solve), or not (ksp: Newton) */
  Vec       Wv, Rhs, Anew, Zero, Free, Vt;
  Mat       Aop; /* shell: (1 + aM c h) M + c h (bK K + C_d), or the Newton Jacobian (ShellCtx) */
  Mat       Cd;  /* the system's damping matrix (borrowed; NULL: none) */
  KSP       ksp;
  PetscReal fp_rtol;
  PetscInt  fp_maxit, its_total, its_max, nsolves, kits_total; /* kits: Krylov iterations of Newton */
  /* prescribed motion of the moving DOFs (non-homogeneous boundary conditions) */
  PetscInt        nmov;
  const PetscInt *mov;
  PetscBool       hasmov;
  PetscReal      *mval, *msave; /* motion at t_n: 5 x nmov (x, v, a, j, s); x_n, x_n - x_{n-1}, f_int(x_n) of each */
  /* finite rotations (a system with a configuration update; gcdrotation.c) */
  PetscBool finite, magnus; /* the system composes rotations; Magnus-corrected increments (else component-wise) */
  PetscBool fused;          /* the system's local update, no tensors: kernel, Magnus and update range by range */
  Vec       Xo;             /* x_n once the step swapped X (x_n, read by the kernel) with Xo (x_{n+1} written) */
  /* nodal rotary inertia tensors (gcdrotation.c): a_n from the system's node-by-node solve in every solve shape */
  PetscBool     tensor;
  FlxGCDTensors tn;
  Vec           Rt; /* f_ext - f_int(x_n, v_n), the right-hand side of that solve */
} FlxStepper_GCD;

/* Operator of the conditionally explicit solve, identity on prescribed DOFs. Linear model: (1 + aM c h) M +
   c h (bK K + C_d), a shell over the system's own (deterministic) damping product: no copy of K, and the same
   sums at any rank count. Nonlinear model: the Newton Jacobian (1 + aM c h) M + c h df_int/dv at (x, vb), with the
   velocity derivative as a directional difference of f_int (matrix-free, so the stepper needs no C). */
typedef struct {
  FlxSystem      sys;
  PetscBool      nonlinear;
  PetscReal      s, t, nvb;           /* c h; time of the Newton base point, |vb|_2 */
  Vec            d, free, zero, diag; /* (1 + aM c h) m; mask; zeros; diagonal of the operator */
  Vec            x, vb, fb, vt;       /* nonlinear: base point x (borrowed), v and f_int(x, v) there; scratch */
  FlxGCDTensors *tn;                  /* nonlinear: the stepper's inertia tensors (n = 0: none), blocks at the base point */
  PetscReal      aM;
} ShellCtx;

/* Shared by gcd.c (the stepper), gcdsolve.c (the conditionally explicit solve for a_n) and gcdstartup.c. */
/* w = vhat - c h ahat into g->Wv (v_n = w + c h a_n). */
PetscErrorCode FlxGCDPredictW(FlxStepper ts);
/* dx_{n+1}/da_n of the update (convergence of the iterations for a_n measured on x_{n+1}, paper section 8). */
PetscReal FlxGCDDxDa(const FlxGCDParams *p, PetscReal h);
/* The moving DOFs of y set to row k of the motion at t_n (k = 1: the velocity predictor w). */
PetscErrorCode FlxGCDMotionSet(FlxStepper ts, Vec y, PetscInt k);
/* The strain energy at the start, x = x_0, from which the ledger's strain term sums the internal work (nonlinear
   systems). Collective. */
PetscErrorCode FlxGCDLedgerStrain(FlxStepper ts, Vec x);
/* Solve for a_n at t_n in the shape chosen at set-up (explicit, KSP or Newton, fixed point); its: iterations. */
PetscErrorCode FlxGCDSolveAcceleration(FlxStepper ts, PetscReal tn, PetscInt *its);
/* The KSP of the conditionally explicit solve and its shell operator. */
PetscErrorCode FlxGCDSetUpKSP(FlxStepper ts);
/* a_0 (and j_0, s_0) and the Taylor step to x_1 (time-integration.md 1, start-up). */
PetscErrorCode FlxGCDStartUp(FlxStepper ts);
