/* Nonlinear statics of a model with geometry nonlinear sections (flexure static): equilibrium
   f_int(x) = lambda F, with F the static load at full value (conservative: fixed directions).
   - Load control (-static_increments N): Newton at lambda = 1/N, 2/N, ..., 1; a step whose Newton fails is
     halved (up to -static_max_cuts times) and the halves are solved in turn.
   - Arc length (-static_arclength): Crisfield's cylindrical form (M. A. Crisfield, Computers & Structures 13
     (1981) 55; Non-linear Finite Element Analysis of Solids and Structures, vol. 1, 1991, sec. 9.3): the increment
     Du of a step satisfies Du . Du = dl^2; each iteration solves K du_r = r and K du_t = F, and the load change s
     solves |Du + du_r + s du_t|^2 = dl^2; of the two roots the one whose new increment makes the smaller angle
     with the current one (largest (Du + du_r + s du_t) . Du) is taken (Crisfield's rule); the predictor's sign
     follows the previous step's increment (du_t . Du_prev). A negative discriminant, or a Newton that fails,
     halves dl and restarts the step. dl adapts to the iterations (target 5). The path runs until lambda reaches
     -static_arclength_final or for -static_arclength_steps steps (then the last state is the result).
   Prescribed displacements (boundary conditions with a -value, displacement type) scale with lambda as the loads
   do: each load increment first moves the prescribed DOFs by their share (through the configuration update, so a
   prescribed rotation is composed), then Newton balances the free DOFs; the reference force of the convergence
   test is then also the prescribed DOFs' reactions |f_int|_2 there. Arc length with prescribed displacements is
   refused.
   Convergence: the out-of-balance force |lambda F - f_int|_2 <= rtol max(|lambda|, 0.01) |F|_2 and the last
   iteration's correction |du|_2 <= stol |Du|_2 (the step's increment), or the correction at round-off,
   |du|_2 <= 1e-13 (|x|_2 + |Du|_2) (stiff members leave a residual of round-off of their internal forces). Iterates compose rotations through the
   system's configuration update. The tangent is the system's Jacobian; the linear solver is KSP (prefix
   static_: LU, MUMPS on more than one rank), as the linear static solve. SNES is not used: the arc-length
   constraint and the multiplicative update of the rotations are outside its vector-space Newton. */
#include <flexure/private/modelimpl.h>

#define FLX_MAX_HIST 64

typedef struct {
  FlxModel  m;
  FlxSystem sys;
  Vec       F, r, du, dut, dur, Du, Dprev, xs, zero, free;
  Vec       up;    /* prescribed displacements at full value (NULL: none) */
  PetscReal Rnorm; /* |f_int|_2 on the prescribed DOFs at the last residual (with up only) */
  Mat       J, Jc;
  KSP       ksp;
  IS        fixed;
  PetscReal Fnorm, hist[FLX_MAX_HIST];
  PetscReal W, W0; /* |du . r| of the last correction and of the step's first one (energy criterion) */
  PetscInt  nhist, its;
  char      cause[512]; /* why the last Newton stopped early (an element that failed at an iterate); empty otherwise */
} NL;

PetscErrorCode FlxModelReadStaticOptions(FlxModel m)
{
  PetscFunctionBegin;
  m->st.increments = 10;
  m->st.max_it     = 25;
  m->st.max_cuts   = 10;
  m->st.arc_steps  = 200;
  m->st.rtol       = 1e-9;
  m->st.stol       = 1e-9;
  m->st.arc_length = 0;
  m->st.arc_final  = 1;
  PetscOptionsBegin(m->comm, "static_", "Nonlinear statics (models with geometry nonlinear sections)", "FlxModel");
  PetscCall(PetscOptionsInt("-increments", "Load increments: Newton at load factors 1/N .. 1", "FlxModelSolveStaticNonlinear", m->st.increments, &m->st.increments, NULL));
  PetscCall(PetscOptionsBool("-arclength", "Arc length (Crisfield's cylindrical form) instead of load increments: follows the path past limit points", "FlxModelSolveStaticNonlinear", m->st.arclength, &m->st.arclength, NULL));
  PetscCall(PetscOptionsReal("-arclength_length", "Initial arc length (0: that of the first load increment 1/N, linear predictor)", "FlxModelSolveStaticNonlinear", m->st.arc_length, &m->st.arc_length, NULL));
  PetscCall(PetscOptionsInt("-arclength_steps", "Largest number of arc-length steps", "FlxModelSolveStaticNonlinear", m->st.arc_steps, &m->st.arc_steps, NULL));
  PetscCall(PetscOptionsReal("-arclength_final", "Arc length: stop once the load factor reaches this value", "FlxModelSolveStaticNonlinear", m->st.arc_final, &m->st.arc_final, NULL));
  PetscCall(PetscOptionsInt("-newton_max_it", "Newton iterations per step before the step is halved", "FlxModelSolveStaticNonlinear", m->st.max_it, &m->st.max_it, NULL));
  PetscCall(PetscOptionsInt("-max_cuts", "Halvings of a step (load increment or arc length) before the solve stops", "FlxModelSolveStaticNonlinear", m->st.max_cuts, &m->st.max_cuts, NULL));
  PetscCall(PetscOptionsReal("-newton_rtol", "Newton: out-of-balance force relative to the load", "FlxModelSolveStaticNonlinear", m->st.rtol, &m->st.rtol, NULL));
  PetscCall(PetscOptionsBool("-newton_monitor", "Print the out-of-balance force and the correction of every Newton iteration", "FlxModelSolveStaticNonlinear", m->st.monitor, &m->st.monitor, NULL));
  PetscCall(PetscOptionsReal("-newton_stol", "Newton: last correction relative to the step's increment", "FlxModelSolveStaticNonlinear", m->st.stol, &m->st.stol, NULL));
  PetscOptionsEnd();
  PetscCheck(m->st.increments > 0, m->comm, PETSC_ERR_USER_INPUT, "-static_increments must be positive");
  PetscCheck(m->st.max_it > 0 && m->st.max_cuts >= 0 && m->st.arc_steps > 0, m->comm, PETSC_ERR_USER_INPUT, "-static_newton_max_it and -static_arclength_steps must be positive, -static_max_cuts not negative");
  PetscCheck(m->st.rtol > 0 && m->st.stol > 0 && m->st.arc_length >= 0, m->comm, PETSC_ERR_USER_INPUT, "-static_newton_rtol and -static_newton_stol must be positive, -static_arclength_length not negative");
  PetscFunctionReturn(0);
}

/* An element that fails at an iterate (length to zero, frame lost, turned over: raised collectively) fails the
   iteration, not the run: the step is halved, and the last failure's reason goes into nl->cause for the message. */
static PetscErrorCode ElementFailure(NL *nl, PetscErrorCode ierr, PetscBool *failed)
{
  PetscFunctionBegin;
  *failed = PETSC_FALSE;
  if (ierr == PETSC_ERR_USER_INPUT || ierr == PETSC_ERR_NOT_CONVERGED) {
    const char *text, *specific;
    PetscCall(PetscErrorMessage(ierr, &text, (char **)&specific));
    PetscCall(PetscSNPrintf(nl->cause, sizeof(nl->cause), "; the internal force failed at the last iterate: %s", specific ? specific : text));
    *failed = PETSC_TRUE;
  } else
    PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* r = lambda F - f_int(x) on the free DOFs; its 2-norm (Inf when an element failed at x). */
static PetscErrorCode Residual(NL *nl, Vec x, PetscReal lambda, PetscReal *rn)
{
  PetscErrorCode ierr;
  PetscBool      failed;

  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = FlxSystemComputeInternalForce(nl->sys, 0, x, nl->zero, nl->r);
  PetscCall(PetscPopErrorHandler());
  PetscCall(ElementFailure(nl, ierr, &failed));
  if (failed) {
    *rn = PETSC_INFINITY;
    if (nl->nhist < FLX_MAX_HIST) nl->hist[nl->nhist++] = *rn;
    PetscFunctionReturn(0);
  }
  PetscCall(VecAYPX(nl->r, -1.0, nl->F)); /* F - f: scaled below */
  PetscCall(VecAXPY(nl->r, lambda - 1.0, nl->F));
  if (nl->up) { /* the reactions: -r on the prescribed DOFs (F is zero there) */
    PetscCall(VecPointwiseMult(nl->du, nl->r, nl->free));
    PetscCall(VecAXPY(nl->du, -1.0, nl->r));
    PetscCall(VecNorm(nl->du, NORM_2, &nl->Rnorm));
  }
  PetscCall(VecPointwiseMult(nl->r, nl->r, nl->free));
  PetscCall(VecNorm(nl->r, NORM_2, rn));
  if (nl->nhist < FLX_MAX_HIST) nl->hist[nl->nhist++] = *rn;
  PetscFunctionReturn(0);
}

/* Tangent at x, prescribed rows and columns replaced by the identity, handed to the KSP. ok false when an element
   failed at x. */
static PetscErrorCode Factor(NL *nl, Vec x, PetscBool *ok)
{
  PetscErrorCode ierr;
  PetscBool      failed;

  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = FlxSystemComputeJacobian(nl->sys, 0, x, nl->zero, 0, 0, nl->J);
  PetscCall(PetscPopErrorHandler());
  PetscCall(ElementFailure(nl, ierr, &failed));
  *ok = (PetscBool)!failed;
  if (failed) PetscFunctionReturn(0);
  PetscCall(MatConvert(nl->J, MATAIJ, nl->Jc ? MAT_REUSE_MATRIX : MAT_INITIAL_MATRIX, &nl->Jc));
  PetscCall(MatZeroRowsColumnsIS(nl->Jc, nl->fixed, 1.0, NULL, NULL));
  PetscCall(KSPSetOperators(nl->ksp, nl->Jc, nl->Jc));
  PetscFunctionReturn(0);
}

/* y = K^-1 b (b zero on prescribed DOFs); ok false when the solve failed (singular tangent). */
static PetscErrorCode LinSolve(NL *nl, Vec b, Vec y, PetscBool *ok)
{
  KSPConvergedReason reason;
  PetscErrorCode     ierr;

  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = KSPSolve(nl->ksp, b, y);
  PetscCall(PetscPopErrorHandler());
  if (ierr == PETSC_ERR_MAT_LU_ZRPVT || ierr == PETSC_ERR_MAT_CH_ZRPVT) {
    *ok = PETSC_FALSE;
    PetscFunctionReturn(0);
  }
  PetscCall(ierr);
  PetscCall(KSPGetConvergedReason(nl->ksp, &reason));
  *ok = (PetscBool)(reason > 0);
  if (*ok) {
    PetscReal n;
    PetscCall(VecNorm(y, NORM_2, &n));
    *ok = (PetscBool)!PetscIsInfOrNanReal(n);
  }
  PetscFunctionReturn(0);
}

/* Converged: the out-of-balance force below rtol of the load and the last correction below stol of the step's
   increment; or, once the force stalls at the round-off of stiff members' internal forces, the correction at
   round-off or the work of the last correction |du . r| below 1e-14 of the step's first one (Bathe's energy test). */
static PetscErrorCode Converged(NL *nl, Vec x, PetscReal lambda, PetscReal rn, PetscReal dun, PetscBool *conv)
{
  PetscReal Dun, xn, fref = PetscMax(PetscAbsReal(lambda), 0.01) * nl->Fnorm;

  PetscFunctionBegin;
  if (nl->up) fref = PetscMax(fref, nl->Rnorm);
  PetscCall(VecNorm(nl->Du, NORM_2, &Dun));
  PetscCall(VecNorm(x, NORM_2, &xn));
  if (nl->m->st.monitor) PetscCall(PetscPrintf(nl->m->comm, "    Newton %2" PetscInt_FMT ": out-of-balance force %.3e, correction %.3e\n", nl->its, (double)rn, dun == PETSC_MAX_REAL ? 0.0 : (double)dun));
  *conv = (PetscBool)((rn <= nl->m->st.rtol * fref && (rn == 0 || dun <= nl->m->st.stol * Dun)) || dun <= 1e-13 * (xn + Dun) || (dun <= nl->m->st.stol * Dun && nl->W <= 1e-14 * nl->W0));
  PetscFunctionReturn(0);
}

/* Newton at fixed load factor lambda from x (updated in place); Du accumulates the step's increment. */
static PetscErrorCode Newton(NL *nl, Vec x, PetscReal lambda, PetscBool *conv)
{
  PetscReal rn, dun = PETSC_MAX_REAL;
  PetscBool ok;

  PetscFunctionBegin;
  *conv        = PETSC_FALSE;
  nl->nhist    = 0;
  nl->cause[0] = 0;
  nl->W = nl->W0 = PETSC_MAX_REAL;
  for (nl->its = 0; nl->its <= nl->m->st.max_it; nl->its++) {
    PetscCall(Residual(nl, x, lambda, &rn));
    if (PetscIsInfOrNanReal(rn)) break;
    PetscCall(Converged(nl, x, lambda, rn, dun, conv));
    if (*conv) break;
    if (nl->its == nl->m->st.max_it) break;
    PetscCall(Factor(nl, x, &ok));
    if (!ok) break;
    PetscCall(LinSolve(nl, nl->r, nl->du, &ok));
    if (!ok) break;
    PetscCall(VecNorm(nl->du, NORM_2, &dun));
    PetscCall(VecDot(nl->du, nl->r, &nl->W));
    nl->W = PetscAbsReal(nl->W);
    if (nl->its == 0) nl->W0 = nl->W;
    PetscCall(VecAXPY(nl->Du, 1.0, nl->du));
    PetscCall(FlxSystemUpdateConfiguration(nl->sys, x, nl->du, x));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode PathAdd(FlxModel m, FlxStaticPath *path, PetscReal lambda, Vec x)
{
  PetscFunctionBegin;
  if (path->n == path->cap) {
    PetscReal *l;
    Vec       *v;
    path->cap = 2 * path->cap + 16;
    PetscCall(PetscMalloc2(path->cap, &l, path->cap, &v));
    if (path->n) {
      PetscCall(PetscArraycpy(l, path->lambda, path->n));
      PetscCall(PetscArraycpy(v, path->x, path->n));
    }
    PetscCall(PetscFree2(path->lambda, path->x));
    path->lambda = l;
    path->x      = v;
  }
  path->lambda[path->n] = lambda;
  PetscCall(FlxModelCreateNaturalVector(m, &path->x[path->n]));
  PetscCall(FlxModelToNatural(m, x, path->x[path->n]));
  path->n++;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStaticPathDestroy(FlxStaticPath *path)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < path->n; i++)
    PetscCall(VecDestroy(&path->x[i]));
  PetscCall(PetscFree2(path->lambda, path->x));
  path->n = path->cap = 0;
  PetscFunctionReturn(0);
}

/* The residual history of the last Newton as text. */
static void History(NL *nl, char buf[], size_t len)
{
  size_t k = 0;
  buf[0]   = 0;
  for (PetscInt i = 0; i < nl->nhist && k + 16 < len; i++) {
    if (nl->hist[i] >= PETSC_INFINITY) /* an element failed there */
      k += (size_t)snprintf(buf + k, len - k, "%s(element failed)", i ? " " : "");
    else
      k += (size_t)snprintf(buf + k, len - k, "%s%.2e", i ? " " : "", (double)nl->hist[i]);
  }
}

static PetscErrorCode LoadControl(NL *nl, Vec x, FlxStaticPath *path)
{
  FlxModel  m   = nl->m;
  PetscInt  N   = m->st.increments;
  PetscReal lam = 0;
  PetscBool conv;
  char      hist[512];

  PetscFunctionBegin;
  for (PetscInt k = 1; k <= N; k++) {
    PetscReal target = (PetscReal)k / N, step = target - lam;
    PetscInt  cuts = 0;
    while (lam < target) {
      PetscReal next = cuts ? PetscMin(lam + step, target) : target;
      PetscCall(VecCopy(x, nl->xs));
      PetscCall(VecZeroEntries(nl->Du));
      if (nl->up) { /* the prescribed DOFs' share of the increment */
        PetscCall(VecAXPY(nl->Du, next - lam, nl->up));
        PetscCall(FlxSystemUpdateConfiguration(nl->sys, x, nl->Du, x));
      }
      PetscCall(Newton(nl, x, next, &conv));
      if (!conv) {
        PetscCall(VecCopy(nl->xs, x));
        History(nl, hist, sizeof(hist));
        PetscCheck(cuts < m->st.max_cuts, m->comm, PETSC_ERR_NOT_CONVERGED, "nonlinear static: Newton did not converge at load factor %g (increment %" PetscInt_FMT " of %" PetscInt_FMT ", after %" PetscInt_FMT " halvings of the step, from load factor %g); out-of-balance force per iteration: %s%s; hint: a limit point or snap-through needs -static_arclength; else raise -static_increments or -static_newton_max_it, or check the supports (a mechanism has a singular tangent) and elements that collapse or turn over", (double)next, k, N, cuts, (double)lam, hist, nl->cause);
        cuts++;
        step = 0.5 * (next - lam);
        continue;
      }
      lam = next == target ? target : next;
      PetscCall(PathAdd(m, path, lam, x));
      PetscCall(PetscPrintf(m->comm, "  load factor %-10.6g  Newton iterations %" PetscInt_FMT "\n", (double)lam, nl->its));
    }
  }
  PetscFunctionReturn(0);
}

/* Roots of a s^2 + b s + c = 0, real; ok false when none. */
static PetscBool Roots(PetscReal a, PetscReal b, PetscReal c, PetscReal s[2])
{
  PetscReal d = b * b - 4 * a * c, q;
  if (d < 0 || a <= 0) return PETSC_FALSE;
  q    = -0.5 * (b + (b >= 0 ? 1 : -1) * PetscSqrtReal(d));
  s[0] = q / a;
  s[1] = q != 0 ? c / q : s[0];
  return PETSC_TRUE;
}

/* One arc-length step of length dl from (x, lam) (updated on success). */
static PetscErrorCode ArcStep(NL *nl, Vec x, PetscReal *lam, PetscReal dl, PetscBool first, PetscBool *conv)
{
  FlxModel  m  = nl->m;
  PetscReal l0 = *lam, rn, nt, dun = PETSC_MAX_REAL, dot, s;
  PetscBool ok;

  PetscFunctionBegin;
  *conv        = PETSC_FALSE;
  nl->nhist    = 0;
  nl->cause[0] = 0;
  nl->W = nl->W0 = PETSC_MAX_REAL;
  PetscCall(Factor(nl, x, &ok));
  if (!ok) PetscFunctionReturn(0);
  PetscCall(LinSolve(nl, nl->F, nl->dut, &ok));
  if (!ok) PetscFunctionReturn(0);
  PetscCall(VecNorm(nl->dut, NORM_2, &nt));
  s = dl / nt;
  if (!first) {
    PetscCall(VecDot(nl->dut, nl->Dprev, &dot));
    if (dot < 0) s = -s;
  }
  PetscCall(VecAXPBY(nl->Du, s, 0.0, nl->dut));
  *lam = l0 + s;
  PetscCall(FlxSystemUpdateConfiguration(nl->sys, x, nl->Du, x));
  for (nl->its = 1; nl->its <= m->st.max_it; nl->its++) {
    PetscReal a, b, c, ab[2], q[2], roots[2];
    PetscCall(Residual(nl, x, *lam, &rn));
    if (PetscIsInfOrNanReal(rn)) PetscFunctionReturn(0);
    PetscCall(Converged(nl, x, *lam, rn, dun, conv));
    if (*conv) PetscFunctionReturn(0);
    PetscCall(Factor(nl, x, &ok));
    if (!ok) PetscFunctionReturn(0);
    PetscCall(LinSolve(nl, nl->r, nl->dur, &ok));
    if (ok) PetscCall(LinSolve(nl, nl->F, nl->dut, &ok));
    if (!ok) PetscFunctionReturn(0);
    PetscCall(VecWAXPY(nl->du, 1.0, nl->Du, nl->dur)); /* Du + du_r */
    PetscCall(VecDot(nl->dut, nl->dut, &a));
    PetscCall(VecDot(nl->dut, nl->du, &b));
    PetscCall(VecDot(nl->du, nl->du, &c));
    if (!Roots(a, 2 * b, c - dl * dl, roots)) PetscFunctionReturn(0);
    PetscCall(VecDot(nl->du, nl->Du, &ab[0])); /* (Du + du_r + s du_t) . Du = ab0 + s ab1 */
    PetscCall(VecDot(nl->dut, nl->Du, &ab[1]));
    q[0] = ab[0] + roots[0] * ab[1];
    q[1] = ab[0] + roots[1] * ab[1];
    s    = q[0] >= q[1] ? roots[0] : roots[1];
    PetscCall(VecWAXPY(nl->du, s, nl->dut, nl->dur));
    PetscCall(VecNorm(nl->du, NORM_2, &dun));
    PetscCall(VecDot(nl->dur, nl->r, &nl->W));
    nl->W = PetscAbsReal(nl->W);
    if (nl->its == 1) nl->W0 = nl->W;
    PetscCall(VecAXPY(nl->Du, 1.0, nl->du));
    *lam += s;
    PetscCall(FlxSystemUpdateConfiguration(nl->sys, x, nl->du, x));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ArcLength(NL *nl, Vec x, FlxStaticPath *path)
{
  FlxModel  m   = nl->m;
  PetscReal lam = 0, dl = m->st.arc_length, dl0;
  PetscBool conv, ok;
  char      hist[512];

  PetscFunctionBegin;
  if (dl == 0) { /* the first load increment's linear predictor */
    PetscCall(Factor(nl, x, &ok));
    if (ok) PetscCall(LinSolve(nl, nl->F, nl->dut, &ok));
    PetscCheck(ok, m->comm, PETSC_ERR_NOT_CONVERGED, "nonlinear static: the initial tangent is singular: check the supports (a mechanism)");
    PetscCall(VecNorm(nl->dut, NORM_2, &dl));
    dl /= m->st.increments;
  }
  dl0 = dl;
  for (PetscInt k = 1; k <= m->st.arc_steps && lam < m->st.arc_final; k++) {
    PetscInt  cuts = 0;
    PetscReal l0   = lam;
    for (;;) {
      PetscCall(VecCopy(x, nl->xs));
      PetscCall(ArcStep(nl, x, &lam, dl, (PetscBool)(k == 1), &conv));
      if (conv) break;
      PetscCall(VecCopy(nl->xs, x));
      lam = l0;
      History(nl, hist, sizeof(hist));
      PetscCheck(cuts < m->st.max_cuts, m->comm, PETSC_ERR_NOT_CONVERGED, "nonlinear static: the arc-length path cannot continue at step %" PetscInt_FMT " from load factor %g: no converged step down to arc length %g (%" PetscInt_FMT " halvings); out-of-balance force per iteration of the last try: %s%s; hint: a smaller -static_arclength_length, more -static_newton_max_it, or check for a bifurcation (an imperfection helps)", k, (double)l0, (double)dl, cuts, hist, nl->cause);
      cuts++;
      dl *= 0.5;
    }
    PetscCall(VecCopy(nl->Du, nl->Dprev));
    PetscCall(PathAdd(m, path, lam, x));
    PetscCall(PetscPrintf(m->comm, "  arc-length step %-4" PetscInt_FMT " load factor %-12.6g Newton iterations %" PetscInt_FMT "\n", k, (double)lam, nl->its));
    dl = PetscMin(dl * PetscMin(PetscMax(PetscSqrtReal(5.0 / PetscMax(nl->its, 1)), 0.5), 2.0), 4 * dl0);
  }
  if (lam < m->st.arc_final) PetscCall(PetscPrintf(m->comm, "flexure: the arc-length path ends after -static_arclength_steps %" PetscInt_FMT " steps at load factor %g (below -static_arclength_final %g)\n", m->st.arc_steps, (double)lam, (double)m->st.arc_final));
  PetscFunctionReturn(0);
}

/* Free the solver's work. */
static PetscErrorCode NLFree(NL *nl)
{
  Vec *vecs[] = {&nl->F, &nl->r, &nl->du, &nl->dut, &nl->dur, &nl->Du, &nl->Dprev, &nl->xs, &nl->zero};

  PetscFunctionBegin;
  for (size_t i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++)
    PetscCall(VecDestroy(vecs[i]));
  PetscCall(VecDestroy(&nl->up));
  PetscCall(ISDestroy(&nl->fixed));
  PetscCall(MatDestroy(&nl->J));
  PetscCall(MatDestroy(&nl->Jc));
  PetscCall(KSPDestroy(&nl->ksp));
  PetscFunctionReturn(0);
}

/* The solver's work and the checks of what it is given; on failure the caller's NLFree frees what was made. */
static PetscErrorCode NLSetUp(NL *nl, FlxModel m)
{
  PC          pc;
  PetscMPIInt size;
  Vec        *vecs[] = {&nl->F, &nl->r, &nl->du, &nl->dut, &nl->dur, &nl->Du, &nl->Dprev, &nl->xs, &nl->zero};
  PetscBool   any;

  PetscFunctionBegin;
  nl->m   = m;
  nl->sys = m->sys;
  for (size_t i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++) {
    PetscCall(VecDuplicate(m->mass, vecs[i]));
    PetscCall(VecZeroEntries(*vecs[i]));
  }
  nl->free = m->free;
  PetscCall(FlxModelComputeStaticLoad(m, nl->F));
  PetscCall(VecPointwiseMult(nl->F, nl->F, nl->free));
  PetscCall(VecNorm(nl->F, NORM_2, &nl->Fnorm));
  PetscCall(FlxModelSetStaticMotion(m, 1.0, nl->xs, &any));
  if (any) {
    PetscCall(VecDuplicate(nl->xs, &nl->up));
    PetscCall(VecCopy(nl->xs, nl->up));
  }
  PetscCheck(!(any && m->st.arclength), m->comm, PETSC_ERR_USER_INPUT, "nonlinear static: -static_arclength with prescribed displacements (a boundary condition with a -bc_NAME_value) is not supported: use load increments (-static_increments N), which scale the loads and the prescribed displacements together");
  PetscCheck(nl->Fnorm > 0 || any, m->comm, PETSC_ERR_USER_INPUT, "nonlinear static: the static load is zero on the free DOFs and nothing is prescribed: give loads (-load_names) acting at t = 0 or a prescribed displacement (-bc_NAME_value)");
  PetscCall(FlxSystemCreatePrescribedIS(m->sys, &nl->fixed));
  PetscCall(FlxSystemCreateJacobianMatrix(m->sys, &nl->J));
  PetscCall(KSPCreate(m->comm, &nl->ksp));
  PetscCall(KSPSetOptionsPrefix(nl->ksp, "static_"));
  PetscCall(KSPSetType(nl->ksp, KSPPREONLY));
  PetscCall(KSPGetPC(nl->ksp, &pc));
  PetscCallMPI(MPI_Comm_size(m->comm, &size));
  PetscCall(PCSetType(pc, PCLU));
  if (size > 1) PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  PetscCall(KSPSetErrorIfNotConverged(nl->ksp, PETSC_FALSE));
  PetscCall(KSPSetFromOptions(nl->ksp));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelSolveStaticNonlinear(FlxModel m, Vec u, FlxStaticPath *path)
{
  NL             nl = {0};
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCheck(m->nonlinear, m->comm, PETSC_ERR_ARG_WRONGSTATE, "the model has no geometry nonlinear section");
  PetscCall(PetscLogEventBegin(FLX_StaticSolve, 0, 0, 0, 0));
  PetscCall(PetscMemzero(path, sizeof(*path)));
  ierr = NLSetUp(&nl, m);
  if (!ierr) {
    PetscCall(VecZeroEntries(u));
    PetscCall(PetscPrintf(m->comm, "flexure: nonlinear static, %s\n", m->st.arclength ? "arc length (Crisfield, cylindrical)" : "load increments with Newton"));
    ierr = m->st.arclength ? ArcLength(&nl, u, path) : LoadControl(&nl, u, path);
  }
  PetscCall(NLFree(&nl)); /* also when the set-up or the solve failed: nothing leaks */
  PetscCall(PetscLogEventEnd(FLX_StaticSolve, 0, 0, 0, 0));
  if (ierr) PetscCall(FlxStaticPathDestroy(path)); /* the steps converged before the failure */
  PetscCall(ierr);
  PetscFunctionReturn(0);
}
