/* Unit checks of the time functions (src/model/timefn.c): for every type, the derivatives 1..4 against central
   differences of the one below, and the first and second integrals from t = 0 against Gauss
   quadrature of the function and of the first integral; tables (inline and from a file) against the same, and the
   file reader's refusals (unsorted, empty, not a number). The prescribed motions and the base excitation take x,
   v, a, j, s from these. */
#include <flexure/flexure.h>

/* Integral of out[k] over [0, t] by 3-point Gauss-Legendre on n panels per piece between the breaks (no function
   value at a break is used, so jumps and kinks cost nothing). */
static PetscErrorCode Integral(const FlxTimeFunction *tf, PetscInt k, PetscReal t, const PetscReal breaks[], PetscInt nb, PetscReal *res)
{
  const PetscReal g[3] = {-PetscSqrtReal(0.6), 0, PetscSqrtReal(0.6)}, w[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
  PetscReal       pts[8], s                                                 = 0;
  PetscInt        np = 0, n = 400;

  PetscFunctionBegin;
  pts[np++] = 0;
  for (PetscInt b = 0; b < nb; b++)
    if (breaks[b] > 0 && breaks[b] < t) pts[np++] = breaks[b];
  pts[np++] = t;
  for (PetscInt q = 0; q + 1 < np; q++) {
    PetscReal h = (pts[q + 1] - pts[q]) / n;
    for (PetscInt i = 0; i < n; i++)
      for (int j = 0; j < 3; j++) {
        PetscReal v;
        PetscCall(FlxTimeFunctionEvaluateDerivatives(tf, pts[q] + h * (i + 0.5 + 0.5 * g[j]), k, k, &v));
        s += w[j] * v * h / 2;
      }
  }
  *res = s;
  PetscFunctionReturn(0);
}

/* Check one function at the sample times: each derivative k = 1..kmax against the central difference of k - 1
   (skipping samples within 2 d of a break), and the integrals against quadrature. */
static PetscErrorCode CheckFunction(const char *name, const FlxTimeFunction *tf, PetscInt kmax, const PetscReal breaks[], PetscInt nb, PetscReal scale, PetscInt *fails)
{
  const PetscReal ts[] = {0.013, 0.21, 0.37, 0.55, 0.61, 0.88, 1.3};
  PetscReal       errd = 0, erri = 0;

  PetscFunctionBegin;
  for (size_t i = 0; i < sizeof(ts) / sizeof(ts[0]); i++) {
    PetscReal t = ts[i], d = 1e-4, out[7], p[7], m[7], I1, I2;
    PetscBool nearbreak = PETSC_FALSE;
    for (PetscInt b = 0; b < nb; b++)
      if (PetscAbsReal(t - breaks[b]) < 3 * d) nearbreak = PETSC_TRUE;
    PetscCall(FlxTimeFunctionEvaluateDerivatives(tf, t, -2, 4, out));
    PetscCall(FlxTimeFunctionEvaluateDerivatives(tf, t + d, -2, 4, p));
    PetscCall(FlxTimeFunctionEvaluateDerivatives(tf, t - d, -2, 4, m));
    if (!nearbreak)
      for (PetscInt k = -1; k <= kmax; k++) { /* d/dt of order k - 1 (index k + 1) is order k (index k + 2) */
        PetscReal fd = (p[k + 1] - m[k + 1]) / (2 * d), sc = PetscPowReal(scale, (PetscReal)k);
        errd = PetscMax(errd, PetscAbsReal(fd - out[k + 2]) / PetscMax(sc, 1));
      }
    PetscCall(Integral(tf, 0, t, breaks, nb, &I1));
    PetscCall(Integral(tf, -1, t, breaks, nb, &I2));
    erri = PetscMax(erri, PetscMax(PetscAbsReal(I1 - out[1]), PetscAbsReal(I2 - out[0])));
  }
  if (errd > 1e-5 || erri > 1e-12) (*fails)++;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s %-12s derivatives vs differences %.2e (tol 1e-5 of the scale), integrals vs Gauss quadrature %.2e (tol 1e-12)\n", errd > 1e-5 || erri > 1e-12 ? "FAIL:" : "PASS:", name, (double)errd, (double)erri));
  PetscFunctionReturn(0);
}

/* A time function from options under prefix "tf_" (the way the model reads them). */
static PetscErrorCode FromOptions(const char *const kv[], FlxTimeFunction *tf)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsClear(NULL));
  for (int i = 0; kv[i]; i += 2)
    PetscCall(PetscOptionsSetValue(NULL, kv[i], kv[i + 1]));
  PetscCall(FlxTimeFunctionSetFromOptions(PETSC_COMM_SELF, "tf_", "test", tf));
  PetscFunctionReturn(0);
}

static PetscErrorCode ExpectRefused(const char *file, const char *contents, const char *what, PetscInt *fails)
{
  FILE           *fp = fopen(file, "w");
  FlxTimeFunction tf;
  PetscErrorCode  ierr;
  const char     *kv[] = {"-tf_function", "table", "-tf_table_file", file, NULL};

  PetscFunctionBegin;
  fputs(contents, fp);
  fclose(fp);
  PetscCall(PetscPushErrorHandler(FlxErrorHandler, NULL));
  ierr = FromOptions(kv, &tf);
  PetscCall(PetscPopErrorHandler());
  if (!ierr || !strstr(FlxErrorGetMessage(), what)) (*fails)++;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s table file %s refused: %s\n", !ierr || !strstr(FlxErrorGetMessage(), what) ? "FAIL:" : "PASS:", what, FlxErrorGetMessage()));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscInt fails = 0;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  {
    struct {
      const char *name, *kv[12];
      PetscInt    kmax;
      PetscReal   breaks[4], scale;
      PetscInt    nb;
    } cases[] = {
        {"constant", {NULL}, 4, {0}, 1, 0},
        {"step", {"-tf_function", "step", "-tf_t0", "0.3", NULL}, 4, {0.3}, 1, 1},
        {"ramp", {"-tf_function", "ramp", "-tf_t0", "0.2", "-tf_t1", "0.6", NULL}, 4, {0.2, 0.6}, 3, 2},
        {"smoothramp", {"-tf_function", "smoothramp", "-tf_t0", "0.1", "-tf_t1", "0.9", NULL}, 4, {0.1, 0.9}, 2, 2},
        {"sine", {"-tf_function", "sine", "-tf_frequency", "1.7", "-tf_t0", "0.05", NULL}, 4, {0.05}, 11, 1},
        {"halfsine", {"-tf_function", "halfsine", "-tf_t0", "0.2", "-tf_t1", "0.7", NULL}, 4, {0.2, 0.7}, 7, 2},
        {"table", {"-tf_function", "table", "-tf_table", "0.1,1,0.4,-2,0.5,3,1.0,0.5", NULL}, 4, {0.1, 0.4, 0.5, 1.0}, 1, 4},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
      FlxTimeFunction tf;
      PetscCall(FromOptions(cases[c].kv, &tf));
      PetscCall(CheckFunction(cases[c].name, &tf, cases[c].kmax, cases[c].breaks, cases[c].nb, cases[c].scale, &fails));
      PetscCall(FlxTimeFunctionDestroy(&tf));
    }
  }
  { /* a table file (a recorded acceleration) equals the same table inline, and is not cut at any length */
    const char     *file = "test_timefn_table.txt";
    FILE           *fp   = fopen(file, "w");
    FlxTimeFunction a, b;
    char            inl[65536] = "";
    PetscReal       err        = 0;
    fprintf(fp, "# time acceleration\n");
    for (int i = 0; i < 1000; i++) {
      char item[64];
      fprintf(fp, "%.17g, %.17g\n", 0.001 * i, PetscSinReal(0.037 * i * i));
      PetscCall(PetscSNPrintf(item, sizeof(item), "%s%.17g,%.17g", i ? "," : "", 0.001 * i, PetscSinReal(0.037 * i * i)));
      PetscCall(PetscStrlcat(inl, item, sizeof(inl)));
    }
    fclose(fp);
    {
      const char *kv[] = {"-tf_function", "table", "-tf_table_file", file, NULL};
      PetscCall(FromOptions(kv, &a));
    }
    {
      const char *kv[] = {"-tf_function", "table", "-tf_table", inl, NULL};
      PetscCall(FromOptions(kv, &b));
    }
    for (PetscReal t = -0.1; t < 1.2; t += 0.0137) {
      PetscReal x[7], y[7];
      PetscCall(FlxTimeFunctionEvaluateDerivatives(&a, t, -2, 4, x));
      PetscCall(FlxTimeFunctionEvaluateDerivatives(&b, t, -2, 4, y));
      for (int k = 0; k < 7; k++)
        err = PetscMax(err, PetscAbsReal(x[k] - y[k]));
    }
    if (a.ntab != 1000 || b.ntab != 1000 || err > 0) fails++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s 1000-row table file and the same table inline: %d and %d rows, largest difference %.2e\n", a.ntab != 1000 || b.ntab != 1000 || err > 0 ? "FAIL:" : "PASS:", (int)a.ntab, (int)b.ntab, (double)err));
    PetscCall(FlxTimeFunctionDestroy(&a));
    PetscCall(FlxTimeFunctionDestroy(&b));
    PetscCall(ExpectRefused(file, "0 1\n0.2 3\n0.1 2\n", "does not increase", &fails));
    PetscCall(ExpectRefused(file, "# nothing here\n\n", "holds no (time, value) rows", &fails));
    PetscCall(ExpectRefused(file, "0 1\n0.1 abc\n", "not a number", &fails));
    PetscCall(ExpectRefused(file, "0 1\n0.1 nan\n", "not a finite number", &fails));
    PetscCall(ExpectRefused(file, "0 1\n0.1\n", "one number where two are expected", &fails));
    remove(file);
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %d failed checks\n", fails ? "FAIL" : "PASS", (int)fails));
  PetscCall(PetscFinalize());
  return fails ? 1 : 0;
}
