/* Strict options: an option that nothing used fails the run before it starts (a typo in a ten-hour run is a
   lost day), naming where it came from and the nearest option flexure knows. Exceptions, each exact: PETSc's
   diagnostics that a solver reads only while it solves (-ts_ksp_converged_reason: checked after the run) or
   PetscFinalize reads (-options_left), the case file's options of another subcommand, and the case file's keys
   of named things the command line dropped (-load_names a when the case declares a,b). */
#include <flexure/flexure.h>
#include <flexure/cli.h>
#include <ctype.h>

static const FlxCaseFile    *CaseFile;
static const FlxCommandLine *CmdLine;

PetscErrorCode FlxOptionsSetSources(const FlxCaseFile *cf, const FlxCommandLine *cl)
{
  PetscFunctionBegin;
  CaseFile = cf;
  CmdLine  = cl;
  PetscFunctionReturn(0);
}

/* Read by KSPSolve after a solve (PETSc 3.18), with the solver's prefix. */
static const char *const KSPDiagnostics[] = {"ksp_view", "ksp_view_pre", "ksp_view_mat", "ksp_view_pmat", "ksp_view_rhs", "ksp_view_solution", "ksp_view_mat_explicit", "ksp_view_preconditioned_operator_explicit", "ksp_view_eigenvalues", "ksp_view_eigenvalues_explicit", "ksp_view_singularvalues", "ksp_view_final_residual", "ksp_view_final_residual_vecs", "ksp_converged_reason", "ksp_converged_rate", NULL};
/* Read by EPSSolve after a solve (SLEPc 3.18). */
static const char *const EPSDiagnostics[] = {"eps_view", "eps_view_pre", "eps_view_mat0", "eps_view_mat1", "eps_view_vectors", "eps_view_values", "eps_converged_reason", "eps_error_absolute", "eps_error_relative", "eps_error_backward", NULL};
/* Read at every assembly of a matrix or vector, with or without a solver's prefix. */
static const char *const ObjectDiagnostics[] = {"mat_view", "vec_view", NULL};
/* Read by PetscFinalize or when first needed. */
static const char *const FinalizeOptions[] = {"options_left", "options_view", "citations", "get_total_flops", "memory_view", "malloc_dump", "malloc_view", "log_view", "log_view_memory", "log_view_gpu_time", "objects_dump", "tmp", "shared_tmp", "not_shared_tmp", NULL};
/* The prefixes of the solvers flexure creates: KSPs (and the KSP of a spectral transformation), EPSs. */
static const char *const KSPPrefixes[] = {"ts_", "ts_gcd_", "ts_alpha_mass_", "static_", "modes_st_", "modes_max_st_", NULL};
static const char *const EPSPrefixes[] = {"modes_", "modes_max_", NULL};

static PetscBool InList(const char *s, const char *const list[])
{
  for (int k = 0; list[k]; k++)
    if (!strcasecmp(s, list[k])) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* Skip the prefixes of inner solvers: mg_levels_, mg_levels_3_, mg_coarse_, sub_, redundant_ (any order). */
static const char *SkipInner(const char *s)
{
  for (;;) {
    if (!strncasecmp(s, "mg_levels_", 10)) {
      s += 10;
      const char *d = s;
      while (*d >= '0' && *d <= '9')
        d++;
      if (d > s && *d == '_') s = d + 1;
    } else if (!strncasecmp(s, "mg_coarse_", 10))
      s += 10;
    else if (!strncasecmp(s, "sub_", 4))
      s += 4;
    else if (!strncasecmp(s, "redundant_", 10))
      s += 10;
    else
      return s;
  }
}

/* A diagnostic PETSc reads only during a solve (or at finalize); finalize: one of the latter. */
static PetscBool IsDiagnostic(const char *name, PetscBool *finalize)
{
  *finalize = InList(name, FinalizeOptions);
  if (*finalize || InList(name, ObjectDiagnostics)) return PETSC_TRUE;
  for (int p = 0; KSPPrefixes[p]; p++) {
    size_t l = strlen(KSPPrefixes[p]);
    if (strncasecmp(name, KSPPrefixes[p], l)) continue;
    const char *rest = SkipInner(name + l);
    if (InList(rest, KSPDiagnostics) || InList(rest, ObjectDiagnostics)) return PETSC_TRUE;
  }
  for (int p = 0; EPSPrefixes[p]; p++) {
    size_t l = strlen(EPSPrefixes[p]);
    if (!strncasecmp(name, EPSPrefixes[p], l) && (InList(name + l, EPSDiagnostics) || InList(name + l, ObjectDiagnostics))) return PETSC_TRUE;
  }
  return PETSC_FALSE;
}

static PetscBool OnCommandLine(const char *name)
{
  if (!CmdLine) return PETSC_FALSE;
  for (int k = 0; k < CmdLine->nopt; k++) {
    const char *c = CmdLine->name[k];
    while (*c == '-')
      c++;
    if (!strcasecmp(c, name) || (!strcasecmp(c, "h") && !strcasecmp(name, "help"))) return PETSC_TRUE;
  }
  return PETSC_FALSE;
}

/* Is word (length l) one of the comma-separated names in list? */
static PetscBool InNames(const char *list, const char *word, size_t l)
{
  while (list && *list) {
    const char *e = strchr(list, ',');
    size_t      n = e ? (size_t)(e - list) : strlen(list);
    while (n && *list == ' ')
      list++, n--;
    while (n && list[n - 1] == ' ')
      n--;
    if (n == l && !strncasecmp(list, word, l)) return PETSC_TRUE;
    list = e ? e + 1 : NULL;
  }
  return PETSC_FALSE;
}

/* A key of a named thing that the case file declares (-kind_names in the case) and the run dropped (the
   -kind_names in force does not hold it): -load_b_value with the case's load: {names: a,b} and -load_names a.
   The longest declared name wins (names a and a_b). */
static PetscErrorCode IsDropped(const char *name, PetscBool *dropped)
{
  PetscFunctionBegin;
  *dropped = PETSC_FALSE;
  if (!CaseFile) PetscFunctionReturn(0);
  for (int k = 0; k < CaseFile->n; k++) {
    const FlxCaseOption *o = &CaseFile->opt[k];
    size_t               l = strlen(o->name), kl = l - 6, best = 0;
    const char          *v, *active;
    char                 opt[FLX_CASE_MAX_NAME + 2];
    PetscBool            set;
    if (l <= 6 || strcasecmp(o->name + kl, "_names") || strncasecmp(name, o->name, kl) || name[kl] != '_') continue;
    for (v = o->value; v && *v;) { /* the longest declared name that starts the rest of the key */
      const char *e = strchr(v, ','), *rest = name + kl + 1;
      size_t      n = e ? (size_t)(e - v) : strlen(v);
      if (n > best && !strncasecmp(rest, v, n) && rest[n] == '_') best = n;
      v = e ? e + 1 : NULL;
    }
    if (!best) continue;
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%.*s_names", (int)kl, o->name));
    PetscCall(PetscOptionsFindPair(NULL, NULL, opt, &active, &set));
    if (set && !InNames(active, name + kl + 1, best)) *dropped = PETSC_TRUE;
  }
  PetscFunctionReturn(0);
}

/* The subcommand that reads options of this prefix, or NULL. */
static const char *CommandOf(const char *name)
{
  if (!strncasecmp(name, "modes_", 6)) return "modes";
  if (!strncasecmp(name, "static_", 7)) return "static";
  if (!strncasecmp(name, "ts_", 3)) return "run";
  return NULL;
}

static int Distance(const char *a, const char *b)
{
  int la = (int)strlen(a), lb = (int)strlen(b), prev[256], cur[256];

  if (la > 250 || lb > 250) return 1000;
  for (int j = 0; j <= lb; j++)
    prev[j] = j;
  for (int i = 1; i <= la; i++) {
    cur[0] = i;
    for (int j = 1; j <= lb; j++) {
      int sub = prev[j - 1] + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
      cur[j]  = PetscMin(PetscMin(prev[j] + 1, cur[j - 1] + 1), sub);
    }
    for (int j = 0; j <= lb; j++)
      prev[j] = cur[j];
  }
  return prev[lb];
}

/* The option of the reference nearest to name (named things compared with NAME), "=" if name is one, or "" if
   none is near. */
static PetscErrorCode Suggest(MPI_Comm comm, const char *name, char *out, size_t len)
{
  PetscInt           n;
  const char *const *ref;
  char               norm[512], thing[256] = "";
  int                best = 1000, bestk = -1;

  PetscFunctionBegin;
  out[0] = 0;
  PetscCall(FlxHelpGetOptionNames(comm, &n, &ref));
  PetscCall(PetscSNPrintf(norm, sizeof(norm), "-%s", name));
  for (PetscInt k = 0; k < n; k++) { /* -load_tip_valeu against -load_NAME_value: put NAME in for tip */
    const char *r = ref[k], *nm = strstr(r, "_NAME_"), *rest, *names = NULL;
    char        opt[300], tmp[512];
    size_t      kl, best = 0;
    PetscBool   set = PETSC_FALSE;
    if (!nm) continue;
    kl = (size_t)(nm - r);
    if (strncasecmp(r, norm, kl + 1)) continue;
    rest = norm + kl + 1;
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "%.*s_names", (int)kl, r));
    PetscCall(PetscOptionsFindPair(NULL, NULL, opt, &names, &set));
    for (const char *v = set ? names : NULL; v && *v;) { /* the longest name in force that starts the rest */
      const char *e = strchr(v, ',');
      size_t      l = e ? (size_t)(e - v) : strlen(v);
      if (l > best && !strncasecmp(rest, v, l) && rest[l] == '_') best = l;
      v = e ? e + 1 : NULL;
    }
    if (!best) { /* not a name in force: up to the next '_' */
      const char *u = strchr(rest, '_');
      best          = u ? (size_t)(u - rest) : 0;
    }
    if (!best || best >= sizeof(thing)) continue;
    PetscCall(PetscSNPrintf(thing, sizeof(thing), "%.*s", (int)best, rest));
    PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%.*sNAME%s", (int)(kl + 1), r, rest + best));
    PetscCall(PetscStrncpy(norm, tmp, sizeof(norm)));
    break;
  }
  for (PetscInt k = 0; k < n; k++) {
    int d = Distance(norm, ref[k]);
    if (d && strlen(norm) >= 8 && !strncasecmp(ref[k], norm, strlen(norm))) d = 1; /* cut short: -model_allow_rigid */
    if (d < best) {
      best  = d;
      bestk = (int)k;
    }
  }
  if (bestk >= 0 && best == 0)
    PetscCall(PetscStrncpy(out, "=", len)); /* an option of the reference, unused here */
  else if (bestk >= 0 && best <= PetscMax(2, (int)strlen(norm) / 6)) {
    const char *nm = strstr(ref[bestk], "NAME");
    if (nm && thing[0])
      PetscCall(PetscSNPrintf(out, len, "%.*s%s%s", (int)(nm - ref[bestk]), ref[bestk], thing, nm + 4));
    else
      PetscCall(PetscSNPrintf(out, len, "%s", ref[bestk]));
  }
  PetscFunctionReturn(0);
}

/* The options unused on every rank (an option is used if any rank used it), as "name\n..." on every rank. */
static PetscErrorCode UnusedEverywhere(MPI_Comm comm, char **list)
{
  PetscMPIInt size, rank, len, *lens = NULL, *displs = NULL, total = 0;
  char       *all = NULL, *mine;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  mine = *list;
  len  = (PetscMPIInt)strlen(mine) + 1;
  if (size == 1) PetscFunctionReturn(0);
  if (rank == 0) PetscCall(PetscMalloc2(size, &lens, size, &displs));
  PetscCallMPI(MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, comm));
  if (rank == 0) {
    for (PetscMPIInt r = 0; r < size; r++) {
      displs[r] = total;
      total += lens[r];
    }
    PetscCall(PetscMalloc1(total, &all));
  }
  PetscCallMPI(MPI_Gatherv(mine, len, MPI_CHAR, all, lens, displs, MPI_CHAR, 0, comm));
  if (rank == 0) { /* keep rank 0's names that every other rank lists too */
    char *out, *p = mine;
    PetscCall(PetscCalloc1(len, &out));
    while (*p) {
      char     *e          = strchr(p, '\n');
      PetscBool everywhere = PETSC_TRUE;
      *e                   = 0;
      for (PetscMPIInt r = 1; r < size && everywhere; r++) {
        PetscBool found = PETSC_FALSE;
        for (char *q = all + displs[r]; *q && !found;) {
          char *f = strchr(q, '\n');
          if ((size_t)(f - q) == strlen(p) && !strncmp(q, p, strlen(p))) found = PETSC_TRUE;
          q = f + 1;
        }
        everywhere = found;
      }
      if (everywhere) {
        FlxStrlcat(out, p, (size_t)len);
        FlxStrlcat(out, "\n", (size_t)len);
      }
      p = e + 1;
    }
    PetscCall(PetscFree(mine));
    mine = out;
    len  = (PetscMPIInt)strlen(mine) + 1;
    PetscCall(PetscFree2(lens, displs));
    PetscCall(PetscFree(all));
  }
  PetscCallMPI(MPI_Bcast(&len, 1, MPI_INT, 0, comm));
  if (rank) {
    PetscCall(PetscFree(mine));
    PetscCall(PetscMalloc1(len, &mine));
  }
  PetscCallMPI(MPI_Bcast(mine, len, MPI_CHAR, 0, comm));
  *list = mine;
  PetscFunctionReturn(0);
}

/* The error message: each option with where it comes from and a hint; at most 8 listed. */
static PetscErrorCode Describe(MPI_Comm comm, char *list, char *msg, size_t len)
{
  int   count = 0, shown = 0;
  char *p;

  PetscFunctionBegin;
  for (p = list; *p; p = strchr(p, '\n') + 1)
    count++;
  msg[0] = 0;
  for (p = list; *p && shown < 8; shown++) {
    char                *e = strchr(p, '\n'), where[FLX_CASE_MAX_NAME + 64] = "", hint[600] = "", item[1400];
    const FlxCaseOption *co;
    const char          *cmd;
    *e = 0;
    co = OnCommandLine(p) ? NULL : FlxCaseFileFind(CaseFile, p);
    if (co)
      PetscCall(PetscSNPrintf(where, sizeof(where), "%s:%d", CaseFile->file, co->line));
    else if (OnCommandLine(p))
      PetscCall(PetscSNPrintf(where, sizeof(where), "command line"));
    if (CaseFile || CmdLine) { /* flexure itself (other programs read other options) */
      char s[512];
      PetscCall(Suggest(comm, p, s, sizeof(s)));
      if (s[0] == '=' && (cmd = CommandOf(p)) && CmdLine && strcmp(cmd, CmdLine->command))
        PetscCall(PetscSNPrintf(hint, sizeof(hint), "read only by flexure %s", cmd));
      else if (s[0] == '=')
        PetscCall(PetscSNPrintf(hint, sizeof(hint), "not read with these settings"));
      else if (s[0])
        PetscCall(PetscSNPrintf(hint, sizeof(hint), "did you mean %s?", s));
    }
    PetscCall(PetscSNPrintf(item, sizeof(item), "%s-%s%s%s%s%s%s", shown ? "; " : "", p, where[0] || hint[0] ? " (" : "", where, where[0] && hint[0] ? ", " : "", hint, where[0] || hint[0] ? ")" : ""));
    FlxStrlcat(msg, item, len);
    *e = '\n';
    p  = e + 1;
  }
  if (count > shown) {
    char more[64];
    PetscCall(PetscSNPrintf(more, sizeof(more), "; and %d more", count - shown));
    FlxStrlcat(msg, more, len);
  }
  PetscFunctionReturn(0);
}

/* Fail on any option that nothing used: call it once every option has been read, before the run. other[]:
   prefixes of the other subcommands' options (e.g. "modes_"), let through when they come from the case file
   (a case file serves every subcommand). Collective: an option counts as used if any rank used it. */
PetscErrorCode FlxOptionsCheckUnused(MPI_Comm comm, const char *const other[])
{
  PetscInt N;
  char   **names, **values, *list;
  size_t   cap = 1;

  PetscFunctionBegin;
  PetscCall(PetscOptionsLeftGet(NULL, &N, &names, &values));
  for (PetscInt k = 0; k < N; k++)
    cap += strlen(names[k]) + 1;
  PetscCall(PetscCalloc1(cap, &list));
  for (PetscInt k = 0; k < N; k++) {
    PetscBool fin, skip = PETSC_FALSE, fromcase = (PetscBool)(CaseFile && FlxCaseFileFind(CaseFile, names[k]) && !OnCommandLine(names[k]));
    if (IsDiagnostic(names[k], &fin)) continue; /* PETSc reads it later; FlxOptionsWarnUnusedDiagnostics checks */
    if (fromcase) {
      for (int o = 0; other && other[o]; o++)
        if (!strncasecmp(names[k], other[o], strlen(other[o]))) skip = PETSC_TRUE;
      if (!skip) PetscCall(IsDropped(names[k], &skip));
    } else if (!CaseFile && !CmdLine) { /* a program without sources (the examples): the other prefixes pass */
      for (int o = 0; other && other[o]; o++)
        if (!strncasecmp(names[k], other[o], strlen(other[o]))) skip = PETSC_TRUE;
    }
    if (skip) continue;
    FlxStrlcat(list, names[k], cap);
    FlxStrlcat(list, "\n", cap);
  }
  PetscCall(PetscOptionsLeftRestore(NULL, &N, &names, &values));
  PetscCall(UnusedEverywhere(comm, &list));
  if (list[0]) {
    char msg[1800];
    int  n = 0;
    for (char *p = list; *p; p = strchr(p, '\n') + 1)
      n++;
    PetscCall(Describe(comm, list, msg, sizeof(msg)));
    PetscCall(PetscFree(list));
    SETERRQ(comm, PETSC_ERR_USER_INPUT, "unknown or unused option%s %s: check the spelling (-help lists every option)", n > 1 ? "s" : "", msg);
  }
  PetscCall(PetscFree(list));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxOptionsWarnUnusedDiagnostics(MPI_Comm comm)
{
  PetscInt N;
  char   **names, **values;

  PetscFunctionBegin;
  PetscCall(PetscOptionsLeftGet(NULL, &N, &names, &values));
  for (PetscInt k = 0; k < N; k++) {
    PetscBool fin;
    if (IsDiagnostic(names[k], &fin) && !fin) PetscCall(PetscPrintf(comm, "flexure: warning: option -%s was not used (no solver of that prefix ran)\n", names[k]));
  }
  PetscCall(PetscOptionsLeftRestore(NULL, &N, &names, &values));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxOptionsCheckFinite(MPI_Comm comm, const FlxCaseFile *cf, const FlxCommandLine *cl)
{
  char bad[128];

  PetscFunctionBegin;
  for (int k = 0; cl && k < cl->nopt; k++)
    PetscCheck(!FlxValueIsNonFinite(cl->value[k], bad, sizeof(bad)), comm, PETSC_ERR_USER_INPUT, "%s %s (command line): '%s' is not a finite number", cl->name[k], cl->value[k], bad);
  for (int k = 0; cf && k < cf->n; k++) {
    if (OnCommandLine(cf->opt[k].name)) continue; /* overridden */
    PetscCheck(!FlxValueIsNonFinite(cf->opt[k].value, bad, sizeof(bad)), comm, PETSC_ERR_USER_INPUT, "%s:%d: -%s %s: '%s' is not a finite number", cf->file, cf->opt[k].line, cf->opt[k].name, cf->opt[k].value, bad);
  }
  PetscFunctionReturn(0);
}

/* Does value hold item (the whole value, or one of its comma-separated items)? */
static PetscBool HoldsItem(const char *value, const char *item)
{
  size_t l = strlen(item);
  if (!value) return PETSC_FALSE;
  if (!strcmp(value, item)) return PETSC_TRUE;
  for (const char *p = value; p && *p;) {
    const char *e = strchr(p, ',');
    size_t      n = e ? (size_t)(e - p) : strlen(p);
    while (n && *p == ' ')
      p++, n--;
    if (n == l && !strncmp(p, item, l)) return PETSC_TRUE;
    p = e ? e + 1 : NULL;
  }
  return PETSC_FALSE;
}

void FlxOptionsExplainError(char msg[], size_t len)
{
  char        value[256] = "", what[64] = "", out[1024];
  const char *p;
  size_t      n;

  if (!strncmp(msg, "Input string ", 13) && (p = strstr(msg, " has no "))) {
    n = (size_t)(p - msg - 13);
    snprintf(value, sizeof(value), "%.*s", (int)PetscMin(n, sizeof(value) - 1), msg + 13);
    snprintf(what, sizeof(what), "%s", strstr(p, "integer") ? "an integer" : "a number");
  } else if (!strncmp(msg, "Unknown logical value: ", 23)) {
    snprintf(value, sizeof(value), "%s", msg + 23);
    snprintf(what, sizeof(what), "true or false");
  }
  if (!value[0]) return;
  for (int k = 0; CmdLine && k < CmdLine->nopt; k++)
    if (HoldsItem(CmdLine->value[k], value)) {
      snprintf(out, sizeof(out), "%s %s (command line): '%s' is not %s", CmdLine->name[k], CmdLine->value[k], value, what);
      snprintf(msg, len, "%s", out);
      return;
    }
  for (int k = 0; CaseFile && k < CaseFile->n; k++)
    if (!OnCommandLine(CaseFile->opt[k].name) && HoldsItem(CaseFile->opt[k].value, value)) {
      snprintf(out, sizeof(out), "%s:%d: -%s %s: '%s' is not %s", CaseFile->file, CaseFile->opt[k].line, CaseFile->opt[k].name, CaseFile->opt[k].value, value, what);
      snprintf(msg, len, "%s", out);
      return;
    }
}

/* Refuse a list option with more than cap values (its count is the number of comma-separated items). */
static PetscErrorCode CheckCount(PetscOptionItems *o, const char opt[], PetscInt cap)
{
  char      buf[4096];
  PetscBool set;
  PetscInt  items = 1;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(o->options, o->prefix, opt, buf, sizeof(buf), &set));
  if (!set) PetscFunctionReturn(0);
  for (const char *c = buf; *c; c++)
    if (*c == ',') items++;
  PetscCheck(items <= cap, o->comm, PETSC_ERR_USER_INPUT, "-%s%s takes at most %" PetscInt_FMT " value%s; %" PetscInt_FMT " were given (%s)", o->prefix ? o->prefix : "", opt + 1, cap, cap > 1 ? "s" : "", items, buf);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxOptionsRealArray_Private(PetscOptionItems *o, const char opt[], const char text[], const char man[], PetscReal v[], PetscInt *n, PetscBool *set)
{
  PetscInt cap = *n;

  PetscFunctionBegin;
  PetscCall(PetscOptionsRealArray_Private(o, opt, text, man, v, n, set));
  if (*n == cap) PetscCall(CheckCount(o, opt, cap));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxOptionsIntArray_Private(PetscOptionItems *o, const char opt[], const char text[], const char man[], PetscInt v[], PetscInt *n, PetscBool *set)
{
  PetscInt cap = *n;

  PetscFunctionBegin;
  PetscCall(PetscOptionsIntArray_Private(o, opt, text, man, v, n, set));
  if (*n == cap) PetscCall(CheckCount(o, opt, cap));
  PetscFunctionReturn(0);
}
