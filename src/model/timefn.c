/* Time functions of loads and prescribed motions: constant, step, ramp, smooth ramp, sine, half-sine pulse and
   tabulated (in the options or in a two-column file, e.g. a recorded ground acceleration).

   Besides the value, a prescribed motion needs the function's derivatives (up to the fourth for the degree-5
   GCD stepper, which carries x, v, a, j and s) and its integrals (a velocity or acceleration history gives
   the displacement by one or two integrations). Both are exact for every type: closed forms for the analytic
   ones, and for a table those of its piecewise-linear interpolant (slope inside an interval, higher
   derivatives zero; integrals piecewise quadratic and cubic, accumulated at the knots once). Jumps (step,
   table ends) carry no Dirac terms: a step in displacement is imposed as a jump of x with v = a = 0. */
#include <flexure/flexure.h>

const char *const FlxTimeFunctionTypes[] = {"constant", "step", "ramp", "sine", "halfsine", "table", "smoothramp", "FlxTimeFunctionType", "FLX_TF_", NULL};

/* Read a table file of (time, value) rows on rank 0: '#' starts a comment, columns separated by blanks or
   commas. Refuses non-numbers, non-finite values, rows without two numbers, an empty file and times that do
   not increase, naming the file and line. Collective. */
static PetscErrorCode ReadTableFile(MPI_Comm comm, const char path[], const char opt[], PetscInt *npairs, PetscReal **tab)
{
  PetscMPIInt rank;
  PetscInt    n                             = 0;
  PetscReal  *t                             = NULL;
  char        msg[PETSC_MAX_PATH_LEN + 256] = "";

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    FILE    *fp     = FlxInputFileProblem(opt, path, msg, sizeof(msg)) ? NULL : fopen(path, "r");
    char    *line   = NULL;
    size_t   cap    = 0;
    PetscInt lineno = 0, tcap = 0;
    ssize_t  len;
    if (!fp && !msg[0]) PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: cannot open the table file %s", opt, path));
    while (fp && !msg[0] && (len = getline(&line, &cap, fp)) >= 0) {
      char     *p = line, *hash = strchr(line, '#'), *end;
      PetscReal v[2];
      int       k = 0;
      lineno++;
      if (hash) *hash = 0;
      while (*p && !msg[0]) {
        double d;
        int    tl;
        while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\r' || *p == '\n')
          p++;
        if (!*p) break;
        d  = strtod(p, &end);
        tl = (int)PetscMin(strcspn(p, " \t,\r\n"), 40); /* the token, for messages */
        if (end == p || (*end && !strchr(" \t,\r\n", *end)))
          PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s:%" PetscInt_FMT ": not a number: '%.*s' (%s expects two columns, time and value)", path, lineno, tl, p, opt));
        else if (!isfinite(d))
          PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s:%" PetscInt_FMT ": '%.*s' is not a finite number (%s)", path, lineno, tl, p, opt));
        else if (k == 2)
          PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s:%" PetscInt_FMT ": more than two numbers on a line (%s expects time and value)", path, lineno, opt));
        else
          v[k++] = (PetscReal)d;
        p = end;
      }
      if (msg[0] || k == 0) continue;
      if (k != 2) {
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s:%" PetscInt_FMT ": one number where two are expected (time and value, %s)", path, lineno, opt));
        break;
      }
      if (n > 0 && !(v[0] > t[2 * n - 2])) {
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s:%" PetscInt_FMT ": time %g does not increase (the previous row has %g): the rows of %s must be sorted by time", path, lineno, (double)v[0], (double)t[2 * n - 2], opt));
        break;
      }
      if (n == tcap) {
        PetscReal *nt;
        tcap = 2 * tcap + 64;
        PetscCall(PetscMalloc1(2 * tcap, &nt));
        if (n) PetscCall(PetscArraycpy(nt, t, 2 * n));
        PetscCall(PetscFree(t));
        t = nt;
      }
      t[2 * n]     = v[0];
      t[2 * n + 1] = v[1];
      n++;
    }
    if (fp && !msg[0] && n == 0) PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: the table file %s holds no (time, value) rows", opt, path));
    if (fp) fclose(fp);
    free(line);
  }
  if (msg[0]) PetscCall(PetscFree(t)); /* the rows read before the bad one */
  PetscCall(FlxCheckCollective(comm, msg[0] ? PETSC_TRUE : PETSC_FALSE, PETSC_ERR_USER_INPUT, msg));
  PetscCallMPI(MPI_Bcast(&n, 1, MPIU_INT, 0, comm));
  if (rank) PetscCall(PetscMalloc1(2 * n, &t));
  PetscCallMPI(MPI_Bcast(t, (PetscMPIInt)(2 * n), MPIU_REAL, 0, comm));
  *npairs = n;
  *tab    = t;
  PetscFunctionReturn(0);
}

/* The table as given inline: count its entries first, so that no length limit cuts it. */
static PetscErrorCode ReadTableOption(PetscOptionItems *PetscOptionsObject, const char pre[], PetscInt *n, PetscReal **tab, PetscBool *set)
{
  const char *raw;
  PetscInt    cnt = 1;

  PetscFunctionBegin;
  PetscCall(PetscOptionsFindPair(NULL, pre, "-table", &raw, set));
  for (const char *c = raw; *set && c && *c; c++)
    cnt += *c == ',';
  PetscCall(PetscMalloc1(cnt + 1, tab));
  *n = cnt;
  PetscCall(FlxOptionsRealArray("-table", "Tabulated function t0,v0,t1,v1,... (linear between points, constant outside)", "FlxTimeFunctionSetFromOptions", *tab, n, set));
  PetscFunctionReturn(0);
}

/* First and second primitives of a table at its knots (from the first knot). */
static PetscErrorCode TablePrimitives(FlxTimeFunction *tf)
{
  const PetscReal *T = tf->tab;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(2 * tf->ntab, &tf->prim));
  tf->prim[0] = tf->prim[1] = 0;
  for (PetscInt k = 0; k + 1 < tf->ntab; k++) {
    PetscReal dt = T[2 * k + 2] - T[2 * k], v0 = T[2 * k + 1], v1 = T[2 * k + 3], F1 = tf->prim[2 * k], F2 = tf->prim[2 * k + 1];
    tf->prim[2 * k + 2] = F1 + 0.5 * (v0 + v1) * dt;
    tf->prim[2 * k + 3] = F2 + F1 * dt + dt * dt * (2 * v0 + v1) / 6;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxTimeFunctionSetFromOptions(MPI_Comm comm, const char pre[], const char owner[], FlxTimeFunction *tf)
{
  char      file[PETSC_MAX_PATH_LEN] = "", opt[256];
  PetscBool set                      = PETSC_FALSE, setf;
  PetscInt  n                        = 0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(tf, sizeof(*tf)));
  tf->type = FLX_TF_CONSTANT;
  PetscOptionsBegin(comm, pre, "Time function", "FlxTimeFunction");
  PetscCall(PetscOptionsEnum("-function", "Time function: constant, step (1 from t0), ramp (0 at t0 to 1 at t1), smoothramp (C2 quintic 0 at t0 to 1 at t1: excites few high modes), sine (sin 2 pi f (t - t0) from t0), halfsine (pulse from t0 to t1), table", "FlxTimeFunctionSetFromOptions", FlxTimeFunctionTypes, (PetscEnum)tf->type, (PetscEnum *)&tf->type, NULL));
  PetscCall(PetscOptionsReal("-t0", "Start time of the time function (s)", "FlxTimeFunctionSetFromOptions", tf->t0, &tf->t0, NULL));
  PetscCall(PetscOptionsReal("-t1", "End time of the ramp or pulse (s)", "FlxTimeFunctionSetFromOptions", tf->t1, &tf->t1, NULL));
  PetscCall(PetscOptionsReal("-frequency", "Frequency of the sine (Hz)", "FlxTimeFunctionSetFromOptions", tf->freq, &tf->freq, NULL));
  PetscCall(ReadTableOption(PetscOptionsObject, pre, &n, &tf->tab, &set));
  PetscCall(PetscOptionsString("-table_file", "Table from a file of (time, value) rows, e.g. a recorded acceleration ('#' comments; blanks or commas)", "FlxTimeFunctionSetFromOptions", file, file, sizeof(file), &setf));
  PetscOptionsEnd();
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%s", pre));
  PetscCheck(!(set && setf), comm, PETSC_ERR_USER_INPUT, "%s: give either %stable or %stable_file, not both", owner, opt, opt);
  PetscCheck(!PetscIsInfOrNanReal(tf->t0), comm, PETSC_ERR_USER_INPUT, "%s: %st0 = %g is not a finite time", owner, opt, (double)tf->t0);
  PetscCheck(!PetscIsInfOrNanReal(tf->t1), comm, PETSC_ERR_USER_INPUT, "%s: %st1 = %g is not a finite time", owner, opt, (double)tf->t1);
  PetscCheck(!PetscIsInfOrNanReal(tf->freq), comm, PETSC_ERR_USER_INPUT, "%s: %sfrequency = %g is not a finite frequency", owner, opt, (double)tf->freq);
  if (setf) {
    char o[300];
    PetscCall(PetscFree(tf->tab));
    PetscCall(PetscSNPrintf(o, sizeof(o), "%stable_file", opt));
    PetscCall(ReadTableFile(comm, file, o, &tf->ntab, &tf->tab));
    PetscCheck(tf->type == FLX_TF_TABLE, comm, PETSC_ERR_USER_INPUT, "%s: %stable_file needs %sfunction table", owner, opt, opt);
  } else {
    tf->ntab = set ? n / 2 : 0;
    PetscCheck(tf->type != FLX_TF_TABLE || (set && n >= 2 && n % 2 == 0), comm, PETSC_ERR_USER_INPUT, "%s: the table function needs %stable t0,v0,t1,v1,... (pairs) or %stable_file FILE", owner, opt, opt);
    PetscCheck(!set || tf->type == FLX_TF_TABLE, comm, PETSC_ERR_USER_INPUT, "%s: %stable needs %sfunction table", owner, opt, opt);
    for (PetscInt k = 0; k < 2 * tf->ntab; k++)
      PetscCheck(!PetscIsInfOrNanReal(tf->tab[k]), comm, PETSC_ERR_USER_INPUT, "%s: entry %" PetscInt_FMT " of %stable is %g, not a finite number", owner, k + 1, opt, (double)tf->tab[k]);
    for (PetscInt k = 1; k < tf->ntab; k++)
      PetscCheck(tf->tab[2 * k] > tf->tab[2 * k - 2], comm, PETSC_ERR_USER_INPUT, "%s: the times of %stable must increase (%g after %g)", owner, opt, (double)tf->tab[2 * k], (double)tf->tab[2 * k - 2]);
  }
  if (tf->type == FLX_TF_TABLE) PetscCall(TablePrimitives(tf));
  PetscCheck(!((tf->type == FLX_TF_RAMP || tf->type == FLX_TF_SMOOTHRAMP || tf->type == FLX_TF_HALFSINE) && !(tf->t1 > tf->t0)), comm, PETSC_ERR_USER_INPUT, "%s: %s needs %st1 > %st0", owner, FlxTimeFunctionTypes[tf->type], opt, opt);
  PetscCheck(!(tf->type == FLX_TF_SINE && !(tf->freq > 0)), comm, PETSC_ERR_USER_INPUT, "%s: sine needs %sfrequency > 0", owner, opt);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxTimeFunctionEvaluate(const FlxTimeFunction *tf, PetscReal t, PetscReal *f, PetscReal *dfdt)
{
  PetscReal out[2];

  PetscFunctionBegin;
  PetscCall(FlxTimeFunctionEvaluateDerivatives(tf, t, 0, 1, out));
  if (f) *f = out[0];
  if (dfdt) *dfdt = out[1];
  PetscFunctionReturn(0);
}

/* Derivatives k = 0..4 at t (d[k]) and the primitives F1, F2 (p[0], p[1]) from the function's own origin. */
static void Evaluate(const FlxTimeFunction *tf, PetscReal t, PetscReal d[5], PetscReal p[2])
{
  const PetscReal tau = t - tf->t0, T = tf->t1 - tf->t0;

  for (int k = 0; k < 5; k++)
    d[k] = 0;
  p[0] = p[1] = 0;
  switch (tf->type) {
  case FLX_TF_CONSTANT:
    d[0] = 1;
    p[0] = t;
    p[1] = t * t / 2;
    break;
  case FLX_TF_STEP:
    d[0] = t >= tf->t0 ? 1 : 0;
    if (tau > 0) {
      p[0] = tau;
      p[1] = tau * tau / 2;
    }
    break;
  case FLX_TF_RAMP:
    if (t >= tf->t1) {
      d[0] = 1;
      p[0] = T / 2 + (tau - T);
      p[1] = T * T / 6 + T / 2 * (tau - T) + (tau - T) * (tau - T) / 2;
    } else if (t > tf->t0) {
      d[0] = (t - tf->t0) / (tf->t1 - tf->t0);
      d[1] = 1 / (tf->t1 - tf->t0);
      p[0] = tau * tau / (2 * T);
      p[1] = tau * tau * tau / (6 * T);
    }
    break;
  case FLX_TF_SMOOTHRAMP: /* 10 s^3 - 15 s^4 + 6 s^5: value, slope and curvature continuous */
    if (t >= tf->t1) {
      d[0] = 1;
      p[0] = T / 2 + (tau - T);
      p[1] = T * T / 7 + T / 2 * (tau - T) + (tau - T) * (tau - T) / 2;
    } else if (t > tf->t0) {
      PetscReal s = (t - tf->t0) / T, s2 = s * s, s3 = s2 * s;
      d[0] = s * s * s * (10 - 15 * s + 6 * s * s); /* the same expressions as before derivatives were added */
      d[1] = 30 * s * s * (1 - s) * (1 - s) / T;
      d[2] = (60 * s - 180 * s2 + 120 * s3) / (T * T);
      d[3] = (60 - 360 * s + 360 * s2) / (T * T * T);
      d[4] = (-360 + 720 * s) / (T * T * T * T);
      p[0] = T * s2 * s2 * (2.5 - 3 * s + s2);
      p[1] = T * T * s2 * s3 * (0.5 - 0.5 * s + s2 / 7);
    }
    break;
  case FLX_TF_SINE:
  case FLX_TF_HALFSINE: {
    PetscReal w = tf->type == FLX_TF_SINE ? 2 * PETSC_PI * tf->freq : PETSC_PI / T, wk = 1;
    PetscBool in = tf->type == FLX_TF_SINE ? (PetscBool)(t >= tf->t0) : (PetscBool)(t >= tf->t0 && t <= tf->t1);
    if (in) {
      for (int k = 0; k < 5; k++, wk *= w)
        d[k] = wk * PetscSinReal(w * tau + k * PETSC_PI / 2);
      d[0] = PetscSinReal(w * tau);
      d[1] = w * PetscCosReal(w * tau);
      p[0] = (1 - PetscCosReal(w * tau)) / w;
      p[1] = tau / w - PetscSinReal(w * tau) / (w * w);
    } else if (tf->type == FLX_TF_HALFSINE && t > tf->t1) {
      p[0] = 2 / w;
      p[1] = T / w + 2 / w * (tau - T);
    }
  } break;
  case FLX_TF_TABLE: {
    const PetscReal *K = tf->tab, *P = tf->prim;
    PetscInt         n = tf->ntab, L = n - 1;
    if (t <= K[0]) {
      PetscReal s = t - K[0];
      d[0]        = K[1];
      p[0]        = K[1] * s;
      p[1]        = K[1] * s * s / 2;
    } else if (t >= K[2 * L]) {
      PetscReal s = t - K[2 * L];
      d[0]        = K[2 * L + 1];
      p[0]        = P[2 * L] + K[2 * L + 1] * s;
      p[1]        = P[2 * L + 1] + P[2 * L] * s + K[2 * L + 1] * s * s / 2;
    } else {
      PetscInt lo = 0, hi = L; /* the interval k with K[2k] <= t < K[2k+2] */
      while (hi - lo > 1) {
        PetscInt mid = (lo + hi) / 2;
        if (t < K[2 * mid])
          hi = mid;
        else
          lo = mid;
      }
      {
        PetscReal s = t - K[2 * lo], sl = (K[2 * lo + 3] - K[2 * lo + 1]) / (K[2 * lo + 2] - K[2 * lo]);
        d[1] = sl;
        d[0] = K[2 * lo + 1] + sl * s;
        p[0] = P[2 * lo] + K[2 * lo + 1] * s + sl * s * s / 2;
        p[1] = P[2 * lo + 1] + P[2 * lo] * s + K[2 * lo + 1] * s * s / 2 + sl * s * s * s / 6;
      }
    }
  } break;
  }
}

PetscErrorCode FlxTimeFunctionEvaluateDerivatives(const FlxTimeFunction *tf, PetscReal t, PetscInt kmin, PetscInt kmax, PetscReal out[])
{
  PetscReal d[5], p[2], d0[5], p0[2] = {0, 0};

  PetscFunctionBegin;
  PetscCheck(kmin >= -2 && kmax <= 4 && kmin <= kmax, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "derivative orders %" PetscInt_FMT "..%" PetscInt_FMT " outside -2..4", kmin, kmax);
  Evaluate(tf, t, d, p);
  if (kmin < 0) Evaluate(tf, 0, d0, p0); /* integrals from t = 0: I1 = F1(t) - F1(0), I2 = F2(t) - F2(0) - F1(0) t */
  for (PetscInt k = kmin; k <= kmax; k++)
    out[k - kmin] = k >= 0 ? d[k] : k == -1 ? p[0] - p0[0]
                                            : p[1] - p0[1] - p0[0] * t;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxTimeFunctionDestroy(FlxTimeFunction *tf)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(tf->tab));
  PetscCall(PetscFree(tf->prim));
  PetscFunctionReturn(0);
}
