/* Stability of the GCD family, computed from the stepper's own kernel (time-integration.md 1,
   "Stability: computed, never assumed"): for a = -Omega^2 x with h = 1, one step maps the history
   y_n = (x_n, v_{n-1}, a_{n-1}[, j_{n-1}[, s_{n-1}]]) linearly to y_{n+1}; applying FlxGCDKernel to each
   unit history vector gives the columns of the amplification matrix A(Omega). */
#include <flexure/flexure.h>
#include <petscblaslapack.h>
#include "gcd.h"

static PetscErrorCode Amplification(const FlxGCDParams *p, PetscReal Omega, PetscReal Amat[25])
{
  PetscInt n = p->degree;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) {
    PetscReal y[5] = {0, 0, 0, 0, 0}, F = 0, G, minv = 1, D = 0, lsum[4];
    y[k] = 1;
    G    = Omega * Omega * y[0];
    FlxGCDKernel(p, 1, 1.0, 0.0, &F, &G, &minv, &y[0], &y[1], &y[2], &y[3], &y[4], &D, lsum);
    for (PetscInt i = 0; i < n; i++) Amat[i + n * k] = y[i]; /* column-major */
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxGCDSpectralRadius(PetscInt degree, const PetscReal params[], PetscReal Omega, PetscReal *rho)
{
  FlxGCDParams p = {degree, params[0], params[1], degree >= 4 ? params[2] : 0, degree >= 5 ? params[3] : 0, PETSC_FALSE};
  PetscReal    A[25], wr[5], wi[5], work[64];
  PetscBLASInt n = (PetscBLASInt)degree, lwork = 64, info, one = 1;

  PetscFunctionBegin;
  PetscCheck(degree >= 3 && degree <= 5, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "GCD degree %" PetscInt_FMT " is not 3, 4 or 5", degree);
  PetscCall(Amplification(&p, Omega, A));
  PetscCallBLAS("LAPACKgeev", LAPACKgeev_("N", "N", &n, A, &n, wr, wi, NULL, &one, NULL, &one, work, &lwork, &info));
  PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK geev failed: %d", (int)info);
  *rho = 0;
  for (PetscInt i = 0; i < degree; i++) *rho = PetscMax(*rho, PetscSqrtReal(wr[i] * wr[i] + wi[i] * wi[i]));
  PetscFunctionReturn(0);
}

/* Scan Omega upward from 0 in steps of 1e-3 to the first Omega with rho > 1 + 1e-10, then bisect. */
PetscErrorCode FlxGCDOmegaMax(PetscInt degree, const PetscReal params[], PetscReal *Omega_max)
{
  const PetscReal tol = 1e-10, dO = 1e-3, Omax = 20;
  PetscReal       lo = 0, hi = -1, rho;

  PetscFunctionBegin;
  for (PetscReal O = dO; O <= Omax; O += dO) {
    PetscCall(FlxGCDSpectralRadius(degree, params, O, &rho));
    if (rho > 1 + tol) {
      hi = O;
      break;
    }
    lo = O;
  }
  if (hi < 0) {
    *Omega_max = Omax;
    PetscFunctionReturn(0);
  }
  if (lo == 0) {
    *Omega_max = 0;
    PetscFunctionReturn(0);
  }
  for (int it = 0; it < 80; it++) {
    PetscReal mid = 0.5 * (lo + hi);
    PetscCall(FlxGCDSpectralRadius(degree, params, mid, &rho));
    if (rho > 1 + tol) hi = mid;
    else lo = mid;
  }
  *Omega_max = lo;
  PetscFunctionReturn(0);
}
