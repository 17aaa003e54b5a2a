/* The implicit generalized-alpha family's data, shared by the linear path (alpha.c) and the Newton iterations on
   nonlinear systems (alphanewton.c). Private to src/steppers. */
#pragma once
#include <flexure/private/stepperimpl.h>

typedef struct _FlxAlphaNewton *FlxAlphaNewton;

/* Error control of the implicit steppers (alphaadapt.c; -ts_alpha_adapt*): seed 001's local error estimate
   delta = (beta - 1/6) h^2 (a*_{n+1} - a*_n) in its weighted RMS norm (eq. 24), held per unit step (the default:
   the global error proportional to the tolerance) or per step (seed 001 eqs. 25-26). */
typedef enum {
  ALPHA_ADAPT_UNIT_STEP,
  ALPHA_ADAPT_STEP
} FlxAlphaAdaptType;

typedef struct {
  PetscBool         on;                /* -ts_alpha_adapt */
  PetscReal         rtol;              /* -ts_alpha_adapt_rtol: the tolerance eps */
  FlxAlphaAdaptType type;              /* -ts_alpha_adapt_type */
  PetscReal         safety;            /* -ts_alpha_adapt_safety: unit_step holds e <= safety eps h / (t_end - t_0) */
  PetscReal         coef, span, p;     /* beta - 1/6; t_end - t_0; the free DOFs */
  Vec               Y, W, free;        /* weights max(1, max_j |x_i(t_j)|) (eq. 24); work; the free mask (borrowed) */
  PetscInt          nacc, nrej, nfail; /* accepted steps, rejected ones (by Newton) */
  PetscReal         rmax, hmin, hmax;  /* largest accepted e / threshold; smallest and largest accepted step */
} FlxAlphaAdapt;

typedef enum {
  ALPHA_NEWMARK,
  ALPHA_HHT,
  ALPHA_GENALPHA
} AlphaFamily;

typedef struct {
  AlphaFamily fam;
  PetscReal   am, af, beta, gamma;                 /* Chung-Hulbert */
  PetscReal   rho_inf, hht;                        /* the user's parameter (generalized-alpha, HHT) */
  PetscBool   explicit_params, consistent, direct; /* direct: preonly (a factorization) solves for x_{n+1} itself */
  PetscReal   aM, bK;
  PetscReal   ratio[16];
  PetscInt    nratio;
  Vec         X, V, A, Aold, F, Fext, Fext1, Xt, Vt, W, Rhs, Xn, KX, KV, Minv, Aphys, B, G, SG; /* B: right-hand side of the increment system K_eff d = b; G, SG: its guess's free part and K_eff G */
  Vec         Mass, Free;                                                                /* the system's */
  Mat         K, Mc, McBC, Keff;                                                         /* Keff, ksp, hK: the current slot */
  Mat         Cd;                                                                        /* the system's damping matrix of discrete dampers (borrowed; NULL: none) */
  KSP         ksp, kspM;
  PetscInt    nslot, cur; /* one K_eff and KSP per step size in use (variable steps cycle through a few) */
  PetscReal   hslot[16];
  Mat         Kslot[16], Pslot[16], Sslot[16]; /* K_eff (BAIJ), its AIJ copy for building preconditioners, its SBAIJ copy for products */
  KSP         kslot[16];
  IS          fixed;     /* prescribed DOFs (global numbering) */
  PetscReal   dslot[16]; /* the diagonal given to the prescribed rows of each K_eff */
  /* prescribed motion of the moving DOFs: x, v, a at t_{n+1} (3 x nmov) and K x_n there; the lifting vector */
  PetscInt        nmov;
  const PetscInt *mov;
  PetscBool       hasmov;
  PetscReal      *mval, *mkx; /* mkx: (K x_n) and x_n of the moving DOFs */
  Vec             Xp;
  PetscReal       hK, hprev;
  PetscInt        its, itsmax, itslast, nsolve, nbuild;
  PetscLogDouble  tbuild, tpc, tsolve, tstep, tfirst, tstep0; /* K_eff builds, preconditioner set-ups, KSP solves, whole steps, the first step */
  PetscBool       newton;                                     /* the Newton path (alphanewton.c) integrates this system: set by SetUp */
  FlxAlphaNewton  nw;                                         /* its options and data (NULL until SetFromOptions or SetUp) */
  FlxAlphaAdapt   adapt;                                      /* error control (alphaadapt.c) */
} FlxStepper_Alpha;

/* The work vectors, created in SetUp and destroyed in Destroy. */
#define ALPHA_WORK_VECS(al)                                                                                                                                                                          \
  {                                                                                                                                                                                                  \
    &(al)->X, &(al)->V, &(al)->A, &(al)->Aold, &(al)->F, &(al)->Fext, &(al)->Fext1, &(al)->Xt, &(al)->Vt, &(al)->W, &(al)->Rhs, &(al)->Xn, &(al)->KX, &(al)->KV, &(al)->Minv, &(al)->Aphys, &(al)->B, &(al)->G, &(al)->SG \
  }

/* The Newton path's options and state (alphanewton.c: the iterations and the step control; alphanewtonsetup.c: options,
   set-up, view and report). */
#define NEWTON_HIST 40

typedef enum {
  NEWTON_FULL,
  NEWTON_MODIFIED
} NewtonType;

struct _FlxAlphaNewton {
  /* options */
  NewtonType type;
  PetscReal  rtol, atol, stol, min_dt, refresh;
  PetscInt   max_it, max_cuts, grow;
  PetscBool  monitor, on_linear;
  /* set-up */
  PetscBool       finite, energy; /* rotations compose; the system has a strain energy */
  PetscBool       tensor;         /* the system has nodal inertia tensors (FlxSystemSetInertiaTensors) */
  PetscInt        ntn;            /* local tensor nodes, their first rotational DOFs (the system's), tangent blocks (27 each) */
  const PetscInt *tdof;
  PetscReal      *tblk;
  Mat             J;
  KSP             ksp;
  Vec             Ast;                               /* a*_n adjusted to the sub-step (eq. 14) */
  Vec             X1, V1, As1, A1, Dx, Del, R, Fint; /* borrowed: the linear path's work vectors, idle here */
  PetscReal      *fmov;                              /* f_int of the moving DOFs at t_n (work of the supports) */
  /* iterations and step control */
  PetscBool Jvalid, stale; /* a tangent is set up; the last try started from one of an earlier iterate */
  PetscReal hJ, fref, fcur, dxn, xn, dun, dun0, work0, work;
  PetscReal dfloor; /* 1e-13 L sqrt(N) (FlxSystemGetRoundoff): a correction at round-off of a state itself at round-off (below 1e3 dfloor) */
  PetscReal hcur;   /* error control: the next sub-step */
  PetscInt  level, ngood;
  PetscReal hist[NEWTON_HIST];
  PetscInt  nhist, its;
  char      cause[512]; /* why the last try stopped before its iterations ran out (empty otherwise) */
  /* statistics */
  PetscInt       nsub, nits, itsmax, itsstep, ncuts, njac, nres, nfloor;
  PetscReal      hmin;
  PetscLogDouble tres, tjac, tsol;
};

/* The Newton path (alphanewton.c). Options (-ts_newton_*), read with the family's; creates nw. Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaNewtonSetFromOptions(FlxStepper ts);
/* Whether the Newton path integrates this system (nonlinear, or -ts_newton_linear); creates nw. Not collective. */
PETSC_INTERN PetscErrorCode FlxAlphaNewtonApplies(FlxStepper ts, PetscBool linear, PetscBool *applies);
/* Set up the Newton path after the family's common set-up (vectors, mass, prescribed DOFs). Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaNewtonSetUp(FlxStepper ts);
/* The stepper operations of the Newton path. */
PETSC_INTERN PetscErrorCode FlxAlphaNewtonStartUp(FlxStepper ts);
PETSC_INTERN PetscErrorCode FlxAlphaNewtonStep(FlxStepper ts);
PETSC_INTERN PetscErrorCode FlxAlphaNewtonProbe(FlxStepper ts, PetscInt n, const PetscInt idx[], PetscReal out[]);
PETSC_INTERN PetscErrorCode FlxAlphaNewtonView(FlxStepper ts, PetscViewer viewer);
PETSC_INTERN PetscErrorCode FlxAlphaNewtonReport(FlxStepper ts, PetscViewer viewer);
PETSC_INTERN PetscErrorCode FlxAlphaNewtonProgress(FlxStepper ts, char buf[], size_t len);
/* Free what FlxAlphaNewtonSetUp made, keeping the options (FlxStepperReset). Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaNewtonReset(FlxStepper ts);
/* Free the Newton path's data (nw). Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaNewtonDestroy(FlxStepper ts);
/* Local (this rank's) part of x . y (alpha.c). Not collective. */
PETSC_INTERN PetscErrorCode FlxAlphaLocalDot(Vec x, Vec y, PetscReal *d);

/* ==== Error control (alphaadapt.c) ==== */
/* Options -ts_alpha_adapt* into ad. Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaAdaptSetFromOptions(FlxStepper ts, FlxAlphaAdapt *ad);
/* Check the method (beta != 1/6), take the span t_end - t_0 and create the weights; free: the system's free-DOF
   mask (borrowed). Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaAdaptSetUp(FlxStepper ts, FlxAlphaAdapt *ad, PetscReal beta, Vec free);
/* The counters and the weights back to the start (Y from x0). Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaAdaptStart(FlxAlphaAdapt *ad, Vec x0);
/* The threshold of a step of size h: eps (per step) or safety eps h / (t_end - t_0) (per unit step). */
PETSC_INTERN PetscReal FlxAlphaAdaptThreshold(const FlxAlphaAdapt *ad, PetscReal h);
/* The weighted RMS norm of eq. (24) over the free DOFs, sqrt(1/p sum (v_i / Y_i)^2). Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaAdaptNorm(FlxAlphaAdapt *ad, Vec v, PetscReal *nrm);
/* e / threshold for a step of size h whose acceleration change is da = a*_{n+1} - a*_n (projected onto the
   constraints' tangent space by the caller when there are constraints): e = |(beta - 1/6) h^2 da|_WRMS (eq. 24),
   the weights updated with x1 first. Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaAdaptRatio(FlxAlphaAdapt *ad, PetscReal h, Vec da, Vec x1, PetscReal *ratio);
/* The outcome of a try of size h with ratio r (accepted when converged and r <= 1) and the next step
   (0.9 h r^(-1/2) per unit step, 0.9 h r^(-1/3) per step, eq. 26; within [h/10, 5 h]; h/4 after a failed Newton).
   Not collective. */
PETSC_INTERN PetscErrorCode FlxAlphaAdaptNext(FlxAlphaAdapt *ad, PetscReal h, PetscBool converged, PetscReal r, PetscBool *accept, PetscReal *hnext);
/* One line of the view and the report's clause. Collective on the viewer. */
PETSC_INTERN PetscErrorCode FlxAlphaAdaptView(const FlxAlphaAdapt *ad, PetscViewer viewer);
PETSC_INTERN PetscErrorCode FlxAlphaAdaptReport(const FlxAlphaAdapt *ad, PetscViewer viewer);
/* Free the vectors. Not collective. */
PETSC_INTERN PetscErrorCode FlxAlphaAdaptReset(FlxAlphaAdapt *ad);

/* ==== Constrained systems (issue 16, alphadae.c) ==== */
/* newmark, hht or genalpha on a system with constraints: set up the index-3 step of seed 001 and take over the
   stepper's operations (given back at reset). Collective. */
PETSC_INTERN PetscErrorCode FlxAlphaDAESetUp(FlxStepper ts);

/* The linear path's K_eff slots (alphakeff.c): a new slot (KSP set up from the options), the slot of step size h
   (build: K_eff must be assembled into it), and the assembly of K_eff for h with its preconditioner. Collective. */
PetscErrorCode FlxAlphaNewSlot(FlxStepper ts);
PetscErrorCode FlxAlphaSelectSlot(FlxStepper ts, PetscReal h, PetscBool *build);
PetscErrorCode FlxAlphaBuildKeff(FlxStepper ts, PetscReal h);
