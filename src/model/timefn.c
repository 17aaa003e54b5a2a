/* Time functions of loads: constant, step, ramp, sine, half-sine pulse and tabulated. */
#include <flexure/flexure.h>

const char *const FlxTimeFunctionTypes[] = {"constant", "step", "ramp", "sine", "halfsine", "table", "smoothramp", "FlxTimeFunctionType", "FLX_TF_", NULL};

PetscErrorCode FlxTimeFunctionSetFromOptions(MPI_Comm comm, const char pre[], const char owner[], FlxTimeFunction *tf)
{
  char      opt[256], help[256];
  PetscBool set;
  PetscInt  n = 256;

  PetscFunctionBegin;
  tf->type = FLX_TF_CONSTANT;
  tf->t0   = 0;
  tf->t1   = 0;
  tf->freq = 0;
  PetscOptionsBegin(comm, pre, "Time function", "FlxTimeFunction");
  PetscCall(PetscOptionsEnum("-function", "Time function: constant, step (1 from t0), ramp (0 at t0 to 1 at t1), smoothramp (C2 quintic 0 at t0 to 1 at t1: excites few high modes), sine (sin 2 pi f (t - t0) from t0), halfsine (pulse from t0 to t1), table", "FlxTimeFunctionSetFromOptions", FlxTimeFunctionTypes, (PetscEnum)tf->type, (PetscEnum *)&tf->type, NULL));
  PetscCall(PetscOptionsReal("-t0", "Start time of the time function", "FlxTimeFunctionSetFromOptions", tf->t0, &tf->t0, NULL));
  PetscCall(PetscOptionsReal("-t1", "End time of the ramp or pulse", "FlxTimeFunctionSetFromOptions", tf->t1, &tf->t1, NULL));
  PetscCall(PetscOptionsReal("-frequency", "Frequency of the sine (Hz)", "FlxTimeFunctionSetFromOptions", tf->freq, &tf->freq, NULL));
  PetscCall(PetscMalloc1(n, &tf->tab));
  PetscCall(PetscOptionsRealArray("-table", "Tabulated function t0,v0,t1,v1,... (linear between points, constant outside)", "FlxTimeFunctionSetFromOptions", tf->tab, &n, &set));
  PetscOptionsEnd();
  tf->ntab = set ? n / 2 : 0;
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%s", pre));
  PetscCall(PetscSNPrintf(help, sizeof(help), "%s", owner));
  PetscCheck(tf->type != FLX_TF_TABLE || (set && n >= 2 && n % 2 == 0), comm, PETSC_ERR_USER_INPUT, "%s: the table function needs %stable t0,v0,t1,v1,... (pairs)", help, opt);
  for (PetscInt k = 1; k < tf->ntab; k++)
    PetscCheck(tf->tab[2 * k] > tf->tab[2 * k - 2], comm, PETSC_ERR_USER_INPUT, "%s: the times of %stable must increase", help, opt);
  PetscCheck(!((tf->type == FLX_TF_RAMP || tf->type == FLX_TF_SMOOTHRAMP || tf->type == FLX_TF_HALFSINE) && !(tf->t1 > tf->t0)), comm, PETSC_ERR_USER_INPUT, "%s: %s needs %st1 > %st0", help, FlxTimeFunctionTypes[tf->type], opt, opt);
  PetscCheck(!(tf->type == FLX_TF_SINE && !(tf->freq > 0)), comm, PETSC_ERR_USER_INPUT, "%s: sine needs %sfrequency > 0", help, opt);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxTimeFunctionEvaluate(const FlxTimeFunction *tf, PetscReal t, PetscReal *f, PetscReal *dfdt)
{
  PetscReal v = 0, d = 0;

  PetscFunctionBegin;
  switch (tf->type) {
  case FLX_TF_CONSTANT:
    v = 1;
    break;
  case FLX_TF_STEP:
    v = t >= tf->t0 ? 1 : 0;
    break;
  case FLX_TF_RAMP:
    if (t >= tf->t1)
      v = 1;
    else if (t > tf->t0) {
      v = (t - tf->t0) / (tf->t1 - tf->t0);
      d = 1 / (tf->t1 - tf->t0);
    }
    break;
  case FLX_TF_SMOOTHRAMP: /* 10 s^3 - 15 s^4 + 6 s^5: value, slope and curvature continuous */
    if (t >= tf->t1)
      v = 1;
    else if (t > tf->t0) {
      PetscReal T = tf->t1 - tf->t0, s = (t - tf->t0) / T;
      v = s * s * s * (10 - 15 * s + 6 * s * s);
      d = 30 * s * s * (1 - s) * (1 - s) / T;
    }
    break;
  case FLX_TF_SINE:
    if (t >= tf->t0) {
      v = PetscSinReal(2 * PETSC_PI * tf->freq * (t - tf->t0));
      d = 2 * PETSC_PI * tf->freq * PetscCosReal(2 * PETSC_PI * tf->freq * (t - tf->t0));
    }
    break;
  case FLX_TF_HALFSINE:
    if (t >= tf->t0 && t <= tf->t1) {
      PetscReal w = PETSC_PI / (tf->t1 - tf->t0);
      v           = PetscSinReal(w * (t - tf->t0));
      d           = w * PetscCosReal(w * (t - tf->t0));
    }
    break;
  case FLX_TF_TABLE: {
    const PetscReal *T = tf->tab;
    PetscInt         n = tf->ntab;
    if (t <= T[0])
      v = T[1];
    else if (t >= T[2 * (n - 1)])
      v = T[2 * (n - 1) + 1];
    else
      for (PetscInt k = 0; k < n - 1; k++)
        if (t < T[2 * k + 2]) {
          d = (T[2 * k + 3] - T[2 * k + 1]) / (T[2 * k + 2] - T[2 * k]);
          v = T[2 * k + 1] + d * (t - T[2 * k]);
          break;
        }
  } break;
  }
  if (f) *f = v;
  if (dfdt) *dfdt = d;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxTimeFunctionDestroy(FlxTimeFunction *tf)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(tf->tab));
  PetscFunctionReturn(0);
}
