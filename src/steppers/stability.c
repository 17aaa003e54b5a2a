/* Stability of the GCD family, computed from the stepper's own kernel (time-integration.md 1,
   "Stability: computed, never assumed"): for a = -Omega^2 x with h = 1, one step maps the history
   y_n = (x_n, v_{n-1}, a_{n-1}[, j_{n-1}[, s_{n-1}]]) linearly to y_{n+1}; applying FlxGCDKernel to each
   unit history vector gives the columns of the amplification matrix A(Omega). */
#include <flexure/flexure.h>
#include <petscblaslapack.h>
#include "gcd.h"

/* Columns of A(Omega) for a = -Omega^2 x - 2 zeta Omega v (h = 1): with zeta = 0 the explicit kernel; with
   damping the conditionally explicit path (w from FlxGCDPredict, a_n solved for the scalar, then the kernel). */
static PetscErrorCode Amplification(const FlxGCDParams *p, PetscReal Omega, PetscReal zeta, PetscReal Amat[25])
{
  PetscInt  n = p->degree;
  PetscReal c = FlxGCDSolveCoefficient(p);

  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) {
    PetscReal y[5] = {0, 0, 0, 0, 0}, F = 0, G, minv = 1, D = 0, lsum[4], w, a;
    y[k] = 1;
    G    = Omega * Omega * y[0];
    if (zeta == 0)
      FlxGCDKernel(p, 1, 1.0, 0.0, &F, &G, &minv, NULL, &y[0], &y[1], &y[2], &y[3], &y[4], &D, lsum);
    else {
      FlxGCDPredict(p, 1, 1.0, &y[1], &y[2], &y[3], &y[4], &w);
      a = -(G + 2 * zeta * Omega * w) / (1 + 2 * zeta * Omega * c);
      FlxGCDKernel(p, 1, 1.0, 0.0, &F, &G, &minv, &a, &y[0], &y[1], &y[2], &y[3], &y[4], &D, lsum);
    }
    for (PetscInt i = 0; i < n; i++)
      Amat[i + n * k] = y[i]; /* column-major */
  }
  PetscFunctionReturn(0);
}

/* Eigenvalues of the amplification matrix A(Omega). */
static PetscErrorCode Eigenvalues(PetscInt degree, const PetscReal params[], PetscReal Omega, PetscReal zeta, PetscReal wr[5], PetscReal wi[5])
{
  FlxGCDParams p = {degree, params[0], params[1], degree >= 4 ? params[2] : 0, degree >= 5 ? params[3] : 0, PETSC_FALSE, PETSC_FALSE};
  PetscReal    A[25], work[64];
  PetscBLASInt n = (PetscBLASInt)degree, lwork = 64, info, one = 1;

  PetscFunctionBegin;
  PetscCheck(degree >= 3 && degree <= 5, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "GCD degree %" PetscInt_FMT " is not 3, 4 or 5", degree);
  PetscCall(Amplification(&p, Omega, zeta, A));
  PetscCallBLAS("LAPACKgeev", LAPACKgeev_("N", "N", &n, A, &n, wr, wi, NULL, &one, NULL, &one, work, &lwork, &info));
  PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK geev failed: %d", (int)info);
  PetscFunctionReturn(0);
}

/* Distance of the principal eigenvalue to the exact exp(i Omega): the local error of one step of a = -Omega^2 x. */
static PetscErrorCode PrincipalError(PetscInt degree, const PetscReal params[], PetscReal Omega, PetscReal *err)
{
  PetscReal wr[5], wi[5];

  PetscFunctionBegin;
  PetscCall(Eigenvalues(degree, params, Omega, 0, wr, wi));
  *err = PETSC_MAX_REAL;
  for (PetscInt i = 0; i < degree; i++)
    *err = PetscMin(*err, PetscSqrtReal(PetscSqr(wr[i] - PetscCosReal(Omega)) + PetscSqr(PetscAbsReal(wi[i]) - PetscSinReal(Omega))));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxGCDSpectralRadius(PetscInt degree, const PetscReal params[], PetscReal Omega, PetscReal *rho)
{
  PetscFunctionBegin;
  PetscCall(FlxGCDSpectralRadiusDamped(degree, params, Omega, 0, rho));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxGCDSpectralRadiusDamped(PetscInt degree, const PetscReal params[], PetscReal Omega, PetscReal zeta, PetscReal *rho)
{
  PetscReal wr[5], wi[5];

  PetscFunctionBegin;
  PetscCall(Eigenvalues(degree, params, Omega, zeta, wr, wi));
  *rho = 0;
  for (PetscInt i = 0; i < degree; i++)
    *rho = PetscMax(*rho, PetscSqrtReal(wr[i] * wr[i] + wi[i] * wi[i]));
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
    if (rho > 1 + tol)
      hi = mid;
    else
      lo = mid;
  }
  *Omega_max = lo;
  PetscFunctionReturn(0);
}

static PetscErrorCode FormatParams(PetscInt degree, const PetscReal p[], char buf[], size_t len)
{
  PetscFunctionBegin;
  if (degree == 3)
    PetscCall(PetscSNPrintf(buf, len, "%.10g,%.10g", (double)p[0], (double)p[1]));
  else if (degree == 4)
    PetscCall(PetscSNPrintf(buf, len, "%.10g,%.10g,%.10g", (double)p[0], (double)p[1], (double)p[2]));
  else
    PetscCall(PetscSNPrintf(buf, len, "%.10g,%.10g,%.10g,%.10g", (double)p[0], (double)p[1], (double)p[2], (double)p[3]));
  PetscFunctionReturn(0);
}

/* Grid search of a degree's parameter space for sets stable up to at least Omega_min; a few spot values
   of rho reject most sets before the full scan. Prints one line per set found. */
static PetscErrorCode Search(MPI_Comm comm, PetscInt degree, const PetscReal range[3], PetscReal Omega_min, PetscInt nz, const PetscReal zeta[])
{
  const PetscReal spot[] = {1e-3, 1e-2, 0.1, 0.3, 0.6, 1.0};
  PetscInt        n = (PetscInt)PetscFloorReal((range[1] - range[0]) / range[2] + 0.5) + 1, np = degree - 1, total = 1, found = 0;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < np; k++)
    total *= n;
  for (PetscInt idx = 0; idx < total; idx++) {
    PetscReal p[4] = {0, 0, 0, 0}, rho, O;
    PetscBool ok   = PETSC_TRUE;
    char      buf[128];
    for (PetscInt k = 0, r = idx; k < np; k++, r /= n)
      p[k] = range[0] + (r % n) * range[2];
    if ((degree >= 4 && p[2] == 0)) continue;
    for (size_t s = 0; s < sizeof(spot) / sizeof(spot[0]) && ok && spot[s] <= Omega_min + 1e-12; s++) {
      PetscCall(FlxGCDSpectralRadius(degree, p, spot[s], &rho));
      if (rho > 1 + 1e-10) ok = PETSC_FALSE;
    }
    if (!ok) continue;
    PetscCall(FlxGCDOmegaMax(degree, p, &O));
    if (O < Omega_min) continue;
    for (PetscInt z = 0; z < nz && ok; z++) /* stable with damping too (conditionally explicit step) */
      for (PetscReal Om = 0.01; Om <= Omega_min && ok; Om += 0.05) {
        PetscCall(FlxGCDSpectralRadiusDamped(degree, p, Om, zeta[z], &rho));
        if (rho > 1 + 1e-10) ok = PETSC_FALSE;
      }
    if (!ok) continue;
    PetscCall(FormatParams(degree, p, buf, sizeof(buf)));
    {
      PetscReal e = 0;
      PetscCall(PrincipalError(degree, p, 0.1, &e));
      PetscCall(PetscPrintf(comm, "candidate degree=%" PetscInt_FMT " params=%s Omega_max=%.10f error(0.1)=%.3e\n", degree, buf, (double)O, (double)e));
    }
    found++;
  }
  PetscCall(PetscPrintf(comm, "searched %" PetscInt_FMT " sets, %" PetscInt_FMT " stable up to Omega >= %g\n", total, found, (double)Omega_min));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxStabilityCommand(MPI_Comm comm)
{
  PetscBool   all  = PETSC_FALSE, help;
  PetscInt    npts = 41, sdeg = 0, nr = 3, degree;
  PetscReal   Omax = -1, range[3] = {0, 2, 0.1}, Omin = 1, params[4], O, zeta[8];
  PetscInt    nz = 8;
  PetscBool   zset;
  FlxStepper  ts;
  char        buf[128];
  const char *preset;

  PetscFunctionBegin;
  PetscOptionsBegin(comm, NULL, "Stability analysis (flexure stability)", "FlxStability");
  PetscCall(PetscOptionsBool("-all_presets", "One line per preset: name, degree, parameters, Omega_max", "FlxStabilityCommand", all, &all, NULL));
  PetscCall(PetscOptionsReal("-stability_omega", "Largest Omega of the rho(Omega) table (default 1.5 Omega_max, or 3)", "FlxStabilityCommand", Omax, &Omax, NULL));
  PetscCall(PetscOptionsInt("-stability_points", "Rows of the rho(Omega) table", "FlxStabilityCommand", npts, &npts, NULL));
  PetscCall(PetscOptionsInt("-stability_search_degree", "Search this degree's parameter space (3, 4 or 5)", "FlxStabilityCommand", sdeg, &sdeg, NULL));
  PetscCall(FlxOptionsRealArray("-stability_search_range", "lo,hi,step of every parameter in the search", "FlxStabilityCommand", range, &nr, NULL));
  PetscCall(PetscOptionsReal("-stability_search_min", "Keep sets stable up to at least this Omega", "FlxStabilityCommand", Omin, &Omin, NULL));
  PetscCall(FlxOptionsRealArray("-stability_search_zeta", "Also require stability with these damping ratios (conditionally explicit step)", "FlxStabilityCommand", zeta, &nz, &zset));
  if (!zset) nz = 0;
  PetscOptionsEnd();
  PetscCall(FlxStepperCreate(comm, &ts));
  {
    PetscErrorCode ierr = FlxStepperSetFromOptions(ts);
    if (ierr) PetscCall(FlxStepperDestroy(&ts)); /* a bad option leaks nothing */
    PetscCall(ierr);
  }
  PetscCall(PetscOptionsHasHelp(NULL, &help));
  if (help) {
    PetscCall(FlxStepperDestroy(&ts));
    PetscFunctionReturn(0);
  }
  {
    const char *type;
    char        desc[256];
    PetscBool   isgcd;
    PetscCall(FlxStepperGetDescription(ts, &type, desc, sizeof(desc)));
    PetscCall(PetscStrcmp(type, FLXSTEPPERGCD, &isgcd));
    if (!isgcd) { /* implicit: rho on a log grid of Omega, and rho_inf */
      PetscReal rinf, rmax = 0;
      PetscCall(PetscPrintf(comm, "%s\n%14s %18s\n", desc, "Omega", "rho"));
      for (PetscInt k = 0; k < npts; k++) {
        PetscReal Om = (Omax > 0 ? Omax : 1e4) * PetscPowReal(10.0, -6.0 * (npts - 1 - k) / PetscMax(npts - 1, 1)), rho;
        PetscCall(FlxStepperSpectralRadius(ts, Om, 0, &rho));
        rmax = PetscMax(rmax, rho);
        PetscCall(PetscPrintf(comm, "%14.6e %18.12f\n", (double)Om, (double)rho));
      }
      PetscCall(FlxStepperSpectralRadius(ts, PETSC_INFINITY, 0, &rinf));
      PetscCall(PetscPrintf(comm, "rho_inf = %.10f\nmax rho over the table = %.12f (%s)\n", (double)rinf, (double)rmax, rmax <= 1 + 1e-12 ? "stable" : "UNSTABLE"));
      PetscCall(FlxStepperDestroy(&ts));
      PetscFunctionReturn(0);
    }
  }
  if (all) {
    for (PetscInt k = 0;; k++) {
      const char *name;
      PetscCall(FlxGCDGetPreset(k, &name, &degree, params, NULL));
      if (!name) break;
      PetscCall(FlxGCDOmegaMax(degree, params, &O));
      PetscCall(FormatParams(degree, params, buf, sizeof(buf)));
      PetscCall(PetscPrintf(comm, "%s degree=%" PetscInt_FMT " params=%s Omega_max=%.10f\n", name, degree, buf, (double)O));
    }
  } else if (sdeg) {
    PetscCheck(sdeg >= 3 && sdeg <= 5 && nr == 3 && range[2] > 0, comm, PETSC_ERR_USER_INPUT, "-stability_search_degree 3|4|5 with -stability_search_range lo,hi,step");
    PetscCall(Search(comm, sdeg, range, Omin, nz, zeta));
  } else {
    PetscCall(FlxStepperGCDGetParameters(ts, &degree, params, &preset));
    PetscCall(FlxGCDOmegaMax(degree, params, &O));
    PetscCall(FormatParams(degree, params, buf, sizeof(buf)));
    PetscCall(PetscPrintf(comm, "gcd degree %" PetscInt_FMT " params %s%s%s\n", degree, buf, preset[0] ? " preset " : "", preset));
    PetscCall(PetscPrintf(comm, "Omega_max = %.10f%s\n", (double)O, O > 0 ? "" : " (no stable interval: rho > 1 for every Omega > 0)"));
    if (Omax <= 0) Omax = O > 0 ? 1.5 * O : 3;
    PetscCall(PetscPrintf(comm, "%14s %18s\n", "Omega", "rho"));
    for (PetscInt k = 0; k < npts; k++) {
      PetscReal Om = Omax * k / PetscMax(npts - 1, 1), rho;
      PetscCall(FlxGCDSpectralRadius(degree, params, Om, &rho));
      PetscCall(PetscPrintf(comm, "%14.8f %18.12f\n", (double)Om, (double)rho));
    }
  }
  PetscCall(FlxStepperDestroy(&ts));
  PetscFunctionReturn(0);
}
