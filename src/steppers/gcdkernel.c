/* The GCD family's parameter sets and its fused pass (time-integration.md 1, paper eqs. 15-16, 40-43, 69-73):
   one loop over the DOFs computes a_n, the highest derivative, v_n, x_{n+1} and the local sums of the energy
   ledger. Shared by the stepper (gcd.c) and the stability analysis (stability.c), so that the analysis is of
   the code that runs. */
#include <flexure/flexure.h>
#include "gcd.h"

/* Paper's parameter sets (000, Tables 1-6). */
static const struct {
  const char *name;
  PetscInt    degree;
  PetscReal   par[4];
  const char *note;
} Presets[] = {
    {"gcd3", 3, {1, 0.5, 0, 0}, "central differences, reformulated (paper eqs. 15-16 with (1, 1/2)); Omega_max 2"},
    {"cd_classic", 3, {1, 0.5, 0, 0}, "classic central differences, velocities by differencing displacements (paper eqs. 4-6); for comparison only"},
    {"gcd3_a4/3", 3, {4.0 / 3, 0.5, 0, 0}, "degree 3 (4/3, 1/2); Omega_max sqrt(12/5)"},
    {"gcd3_a2", 3, {2, 0.5, 0, 0}, "degree 3 (2, 1/2); Omega_max sqrt(4/3)"},
    {"gcd4_a1/4", 4, {0.25, 1.0 / 3, 0.5, 0}, "degree 4 (1/4, 1/3, 1/2); Omega_max 1.264911"},
    {"gcd4_a3/4", 4, {0.75, 1.0 / 3, 0.5, 0}, "degree 4 (3/4, 1/3, 1/2)"},
    {"gcd4_a5/4", 4, {1.25, 1.0 / 3, 0.5, 0}, "degree 4 (5/4, 1/3, 1/2): no stable interval"},
    {"gcd5_paper", 5, {0.8, 1, 1, 1}, "degree 5 (4/5, 1, 1, 1) of the paper: no stable interval (rho(0.1) = 1.0026729)"},
    {"gcd5", 5, {1, 0.8, 0.7, 0.5}, "degree 5 (1, 4/5, 7/10, 1/2) found by scripts/search_gcd_params.py: Omega_max 1.4770979, pendulum 5.60e-7 at h = 1e-2, 5.51e-11 at 1e-3"},
    {"gcd4_damped", 4, {1.8, 1.8, 2, 0}, "degree 4 (1.8, 1.8, 2), stable with damping (search with -stability_search_zeta): Omega_max 1.6641006, pendulum 2.61e-4 at h = 1e-2, 2.41e-6 at 1e-3"},
    {"gcd5_damped", 5, {1.25, 1.5, 1.25, 0.75}, "degree 5 (5/4, 3/2, 5/4, 3/4), stable with damping up to zeta 2 for Omega <= 1: Omega_max 1.5491933, pendulum 1.14e-6 at h = 1e-2, 1.14e-10 at 1e-3"},
};

PetscErrorCode FlxGCDGetPreset(PetscInt k, const char **name, PetscInt *degree, PetscReal params[4], const char **note)
{
  PetscFunctionBegin;
  *name = NULL;
  if (k < 0 || k >= (PetscInt)(sizeof(Presets) / sizeof(Presets[0]))) PetscFunctionReturn(0);
  *name   = Presets[k].name;
  *degree = Presets[k].degree;
  for (int i = 0; i < 4; i++)
    params[i] = Presets[k].par[i];
  if (note) *note = Presets[k].note;
  PetscFunctionReturn(0);
}

/* The ledger sums are the only reductions of the fused pass; let the compiler vectorize them (their order
   within a rank changes, the state update does not). */
#if defined(_OPENMP) || defined(FLX_HAVE_OPENMP_SIMD)
#define FLX_SIMD_REDUCTION _Pragma("omp simd reduction(+ : s0, s1, s2, s3)")
#else
#define FLX_SIMD_REDUCTION
#endif

/* Known parts of the common solve shape (time-integration.md 1): v_n = vhat + c h (a_n - ahat). */
#define GCD_HATS3 \
  const PetscReal ahat = 0, vhat = V[i] + h * (1 - be) * A[i]
#define GCD_HATS4 \
  const PetscReal jo = J[i], ahat = A[i] + h * (1 - ga) * jo, vhat = V[i] + h * A[i] + h2 * (1 - be) * jo
#define GCD_HATS5 \
  const PetscReal jo = J[i], so = S[i], ahat = A[i] + h * jo + h2 * (1 - ga) * so, vhat = V[i] + h * A[i] + h2 * jo + h3 * (1 - be) * so
/* a_n: given (conditionally explicit solve), or the explicit diagonal solve with mass-proportional damping */
#define GCD_ACCEL (solved ? Ag[i] : (mi * (F[i] - G[i]) - aM * (vhat - c * h * ahat)) * den)
/* ledger sums; the damping force is aM M v_n (explicit) or the residual f_ext - K x - M a (solved) */
#define GCD_LEDGER(xprev)                                                           \
  do {                                                                              \
    const PetscReal dn = xn - x, m = mi > 0 ? 1 / mi : 0;                           \
    s0 += m * (dold * dold + dn * dn);                                              \
    s1 += (work ? dn + dold : xn + (xprev)) * G[i];                                 \
    s2 += (dn + dold) * F[i];                                                       \
    s3 += (dn + dold) * (solved ? (mi > 0 ? F[i] - G[i] - m * a : 0) : aM * m * v); \
    D[i] = dn;                                                                      \
  } while (0)

PetscReal FlxGCDSolveCoefficient(const FlxGCDParams *p)
{
  return p->degree == 3 ? p->beta : p->degree == 4 ? p->beta / (2 * p->gamma)
                                                   : p->beta / (3 * p->gamma);
}

void FlxGCDPredict(const FlxGCDParams *p, PetscInt n, PetscReal h, const PetscReal *V, const PetscReal *A, const PetscReal *J, const PetscReal *S, PetscReal *W)
{
  const PetscReal be = p->beta, ga = p->gamma, h2 = h * h / 2, h3 = h * h * h / 6, c = FlxGCDSolveCoefficient(p);

  if (p->degree == 3)
    for (PetscInt i = 0; i < n; i++) {
      GCD_HATS3;
      W[i] = vhat - c * h * ahat;
    }
  else if (p->degree == 4)
    for (PetscInt i = 0; i < n; i++) {
      GCD_HATS4;
      W[i] = vhat - c * h * ahat;
    }
  else
    for (PetscInt i = 0; i < n; i++) {
      GCD_HATS5;
      (void)so;
      W[i] = vhat - c * h * ahat;
    }
}

/* The fused pass; solved (a compile-time constant of its callers): a_n given in Ag. A constant, so that no loop
   holds a branch on Ag (a load from it could not be hoisted into a select) and every loop vectorizes. keepx (also a
   constant): X is read only (finite rotations: x_{n+1} = x_n (+) D is the system's; no store of x_{n+1}). */
#define GCD_STORE_X(v)      \
  do {                      \
    if (!keepx) X[i] = (v); \
  } while (0)
static inline __attribute__((always_inline)) void Kernel(const FlxGCDParams *p, PetscInt n, PetscReal h, PetscReal aM, const PetscReal *restrict F, const PetscReal *restrict G, const PetscReal *restrict minv, const PetscReal *restrict Ag, PetscReal *restrict X, PetscReal *restrict V, PetscReal *restrict A, PetscReal *restrict J, PetscReal *restrict S, PetscReal *restrict D, PetscReal lsum[4], const int solved, const int keepx)
{
  const PetscReal al = p->alpha, be = p->beta, ga = p->gamma, ze = p->zeta, h2 = h * h / 2, h3 = h * h * h / 6, h4 = h * h * h * h / 24;
  const PetscReal c = FlxGCDSolveCoefficient(p), den = 1 / (1 + aM * c * h), igh = 1 / (ga * h), igh2 = 2 / (ga * h * h);
  PetscReal       s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  const int       work = p->work ? 1 : 0;

  if (p->classic) { /* eqs. 4-6: velocity by differencing displacements */
    FLX_SIMD_REDUCTION
    for (PetscInt i = 0; i < n; i++) {
      const PetscReal x = X[i], xm = J[i], dold = D[i], mi = minv[i];
      const PetscReal vhat = (x - xm) / h, ahat = 0; /* aM v_n with v_n ~ (x_n - x_{n-1}) / h + h a_n */
      const PetscReal a  = GCD_ACCEL;
      const PetscReal xn = 2 * x - xm + h * h * a;
      const PetscReal v  = (xn - xm) / (2 * h);
      GCD_LEDGER(xm);
      J[i] = x;
      GCD_STORE_X(xn);
      V[i] = v;
      A[i] = a;
    }
  } else if (p->degree == 3) { /* eqs. 15-16 */
    FLX_SIMD_REDUCTION
    for (PetscInt i = 0; i < n; i++) {
      const PetscReal x = X[i], dold = D[i], mi = minv[i];
      GCD_HATS3;
      const PetscReal a  = GCD_ACCEL;
      const PetscReal v  = vhat + c * h * (a - ahat);
      const PetscReal xn = x + h * v + h2 * (al * a + (1 - al) * A[i]);
      GCD_LEDGER(x - dold);
      GCD_STORE_X(xn);
      V[i] = v;
      A[i] = a;
    }
  } else if (p->degree == 4) { /* eqs. 40-43 */
    FLX_SIMD_REDUCTION
    for (PetscInt i = 0; i < n; i++) {
      const PetscReal x = X[i], dold = D[i], mi = minv[i];
      GCD_HATS4;
      const PetscReal a  = GCD_ACCEL;
      const PetscReal j  = (a - ahat) * igh; /* 1 / (gamma h): no division in the loop */
      const PetscReal v  = vhat + c * h * (a - ahat);
      const PetscReal xn = x + h * v + h2 * a + h3 * (al * j + (1 - al) * jo);
      GCD_LEDGER(x - dold);
      GCD_STORE_X(xn);
      V[i] = v;
      A[i] = a;
      J[i] = j;
    }
  } else { /* degree 5, eqs. 69-73 */
    FLX_SIMD_REDUCTION
    for (PetscInt i = 0; i < n; i++) {
      const PetscReal x = X[i], dold = D[i], mi = minv[i];
      GCD_HATS5;
      const PetscReal a  = GCD_ACCEL;
      const PetscReal s  = (a - ahat) * igh2; /* 2 / (gamma h^2) */
      const PetscReal j  = jo + h * ((1 - ze) * so + ze * s);
      const PetscReal v  = vhat + c * h * (a - ahat);
      const PetscReal xn = x + h * v + h2 * a + h3 * j + h4 * ((1 - al) * so + al * s);
      GCD_LEDGER(x - dold);
      GCD_STORE_X(xn);
      V[i] = v;
      A[i] = a;
      J[i] = j;
      S[i] = s;
    }
  }
  lsum[0] = s0;
  lsum[1] = s1;
  lsum[2] = s2;
  lsum[3] = s3;
}

void FlxGCDKernel(const FlxGCDParams *p, PetscInt n, PetscReal h, PetscReal aM, const PetscReal *F, const PetscReal *G, const PetscReal *minv, const PetscReal *Ag, PetscReal *X, PetscReal *V, PetscReal *A, PetscReal *J, PetscReal *S, PetscReal *D, PetscReal lsum[4])
{
  if (Ag)
    Kernel(p, n, h, aM, F, G, minv, Ag, X, V, A, J, S, D, lsum, 1, 0);
  else
    Kernel(p, n, h, aM, F, G, minv, NULL, X, V, A, J, S, D, lsum, 0, 0);
}

void FlxGCDKernelKeepX(const FlxGCDParams *p, PetscInt n, PetscReal h, PetscReal aM, const PetscReal *F, const PetscReal *G, const PetscReal *minv, const PetscReal *Ag, const PetscReal *X, PetscReal *V, PetscReal *A, PetscReal *J, PetscReal *S, PetscReal *D, PetscReal lsum[4])
{
  if (Ag)
    Kernel(p, n, h, aM, F, G, minv, Ag, (PetscReal *)X, V, A, J, S, D, lsum, 1, 1); /* X is not written (keepx) */
  else
    Kernel(p, n, h, aM, F, G, minv, NULL, (PetscReal *)X, V, A, J, S, D, lsum, 0, 1);
}
