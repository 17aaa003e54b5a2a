/* -help: flexure's option reference, built from the readers themselves. PETSc prints an option's line (name,
   value, default, help string) through the function pointer PetscHelpPrintf when -help is set; a collector
   takes those lines instead. The readers run on a private options database in "passes": first with only -help,
   then with NAME for every list of names (-load_names NAME), a placeholder for every option a failed check
   names (missing property: give -material_NAME_E), every option set (branches taken when an option is given),
   and each choice of every enum option (-ts_type newmark ...). A check that fails stops its reader; its message
   names the option to set (or, in the pass where every option is set, to clear) before the next round, until
   nothing changes. PETSc prints a block once per title: the collector forgets what was printed after each
   title, so repeated blocks (one per named thing) print again. */
#include <flexure/flexure.h>
#include <flexure/cli.h>
#include <ctype.h>

typedef struct {
  char *name;     /* -load_NAME_value */
  char *deflt;    /* default as PETSc prints it */
  char *text;     /* help string */
  char *choices;  /* "force gravity pressure" for enums, or NULL */
  char  kind;     /* r real, i integer, s string, b bool, e enum, a number list, S string list */
  int   required; /* a check of the minimal pass asked for it */
  int   flexure;  /* one of flexure's (manual page Flx...) rather than PETSc's */
  int   cleared;  /* cleared in the current pass (not set again) */
} HelpOpt;

static struct {
  HelpOpt *opt;
  int      n, cap;
  char    *line;
  size_t   len, linecap;
  char     fails[8192]; /* messages of the checks that failed in the current pass */
  PetscInt newopts;
  char   **kinds; /* lists of names: "load" for -load_names (user pass: their values, for NAME) */
  char   **kindvals;
  int      nkinds;
} H;

static PetscErrorCode (*SavedHelpPrintf)(MPI_Comm, const char[], ...);
static PetscErrorCode (*SavedVFPrintf)(FILE *, const char[], va_list);

static char *Dup(const char *s, size_t n)
{
  char *d = (char *)malloc(n + 1);
  if (d) {
    memcpy(d, s, n);
    d[n] = 0;
  }
  return d;
}

static HelpOpt *Find(const char *name)
{
  for (int k = 0; k < H.n; k++)
    if (!strcasecmp(H.opt[k].name, name)) return &H.opt[k];
  return NULL;
}

/* In the user's own pass, a name of a named thing becomes NAME: -load_tip_value is -load_NAME_value. */
static void Normalize(const char *in, char *out, size_t len)
{
  snprintf(out, len, "%s", in);
  for (int k = 0; k < H.nkinds; k++) {
    size_t kl = strlen(H.kinds[k]), best = 0;
    if (strncasecmp(in + 1, H.kinds[k], kl) || in[1 + kl] != '_') continue;
    const char *rest = in + 2 + kl, *v = H.kindvals[k];
    while (v && *v) { /* the longest declared name that starts the rest */
      const char *e = strchr(v, ',');
      size_t      l = e ? (size_t)(e - v) : strlen(v);
      if (l > best && !strncasecmp(rest, v, l) && rest[l] == '_') best = l;
      v = e ? e + 1 : NULL;
    }
    if (best) snprintf(out, len, "-%s_NAME%s", H.kinds[k], rest + best);
  }
}

/* One line of PETSc's option help: "  -name <now X : formerly Y>: text (manpage)" and its variants. */
static void ParseLine(const char *l)
{
  char        name[512], deflt[512] = "", *text, *choices = NULL, man[256] = "";
  const char *p    = l + 2, *q;
  char        kind = 's';
  size_t      n;
  HelpOpt    *o;

  for (n = 0; p[n] && p[n] != ' ' && p[n] != ':' && p[n] != '<' && n < sizeof(name) - 1; n++)
    name[n] = p[n];
  name[n] = 0;
  p += n;
  if (*p == ':') kind = 'b';
  while (*p == ':' || *p == ' ')
    p++;
  if (*p == '<' && (q = strchr(p, '>'))) {
    char        br[512];
    const char *f;
    snprintf(br, sizeof(br), "%.*s", (int)(q - p - 1), p + 1);
    if ((f = strstr(br, " : formerly "))) {
      snprintf(deflt, sizeof(deflt), "%s", f + 12);
      if (kind != 'b') {
        char *end;
        (void)strtol(deflt, &end, 10);
        kind = (deflt[0] && !*end) ? 'i' : 's';
      }
    } else if ((f = strstr(br, " : "))) {
      snprintf(deflt, sizeof(deflt), "%s", f + 3);
      if (kind != 'b') kind = 'r';
    } else {
      snprintf(deflt, sizeof(deflt), "%s", br);
      kind = !strcmp(br, "string1,string2,...") ? 'S' : 'a';
      if (kind == 'S') deflt[0] = 0;
    }
    p = q + 1;
    while (*p == ':' || *p == ' ')
      p++;
  }
  text = Dup(p, strlen(p));
  if (!text) return;
  n = strlen(text);
  while (n && (text[n - 1] == '\n' || text[n - 1] == ' '))
    text[--n] = 0;
  if (n && text[n - 1] == ')') { /* the manual page, last */
    char *open = strrchr(text, '(');
    if (open && open > text && open[-1] == ' ') {
      snprintf(man, sizeof(man), "%.*s", (int)(text + n - 1 - open - 1), open + 1);
      open[-1] = 0;
    }
  }
  {
    char  *c    = strstr(text, " (choose one of) ");
    size_t skip = 17;
    if (!c) {
      c    = strstr(text, " (one of) ");
      skip = 10;
    }
    if (!c && (c = strstr(text, " (choose from) "))) skip = 15;
    if (c) {
      choices = Dup(c + skip, strlen(c + skip));
      *c      = 0;
      kind    = 'e';
    }
  }
  {
    char norm[512];
    Normalize(name, norm, sizeof(norm));
    o = Find(norm);
    if (!o) {
      if (H.n == H.cap) {
        int      cap = H.cap ? 2 * H.cap : 256;
        HelpOpt *np  = (HelpOpt *)realloc(H.opt, (size_t)cap * sizeof(*np));
        if (!np) {
          free(text);
          free(choices);
          return;
        }
        H.opt = np;
        H.cap = cap;
      }
      o = &H.opt[H.n++];
      memset(o, 0, sizeof(*o));
      o->name    = Dup(norm, strlen(norm));
      o->deflt   = Dup(deflt, strlen(deflt));
      o->text    = text;
      o->choices = choices;
      o->kind    = kind;
      o->flexure = !strncmp(man, "Flx", 3);
      H.newopts++;
      text = choices = NULL;
    } else if (!o->choices && choices) {
      o->choices = choices;
      choices    = NULL;
    }
  }
  free(text);
  free(choices);
}

static void Feed(const char *buf)
{
  size_t l = strlen(buf);
  char  *nl;

  if (!strncmp(buf, "-------", 7)) { /* a new options block: PETSc checks its title before printing, so forget it now */
    (void)PetscOptionsHelpPrintedDestroy(&PetscOptionsHelpPrintedSingleton);
    return;
  }
  if (H.len + l + 1 > H.linecap) {
    size_t cap = 2 * (H.len + l + 1);
    char  *np  = (char *)realloc(H.line, cap);
    if (!np) return;
    H.line    = np;
    H.linecap = cap;
  }
  memcpy(H.line + H.len, buf, l + 1);
  H.len += l;
  while ((nl = strchr(H.line, '\n'))) {
    *nl = 0;
    if (!strncmp(H.line, "  -", 3)) ParseLine(H.line);
    H.len -= (size_t)(nl + 1 - H.line);
    memmove(H.line, nl + 1, H.len + 1);
  }
}

/* Takes the place of PETSc's PetscHelpPrintf during the passes. */
static PetscErrorCode Collect(MPI_Comm comm, const char fmt[], ...)
{
  char    buf[8192];
  size_t  full;
  va_list ap;

  va_start(ap, fmt);
  PetscVSNPrintf(buf, sizeof(buf), fmt, &full, ap);
  va_end(ap);
  Feed(buf);
  return 0;
}

/* And of PetscVFPrintf: enum options with a function list (-ts_type) print their line with PetscFPrintf. */
static PetscErrorCode CollectVF(FILE *fd, const char fmt[], va_list ap)
{
  char   buf[8192];
  size_t full;

  if (fd != stdout) return SavedVFPrintf(fd, fmt, ap);
  PetscVSNPrintf(buf, sizeof(buf), fmt, &full, ap);
  Feed(buf);
  return 0;
}

/* In the passes a failed check stops its reader; its message names what the reader needs. */
static PetscErrorCode HelpErrorHandler(MPI_Comm comm, int line, const char *func, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL && mess) {
    size_t l = strlen(H.fails);
    snprintf(H.fails + l, sizeof(H.fails) - l, "%s\n", mess);
  }
  return n;
}

/* Every reader of flexure, in the order a run calls them; each one's failure stops only itself. On
   PETSC_COMM_SELF: PETSc prints on the first rank of a communicator only, and no rank waits for another. */
static PetscErrorCode RunReaders(void)
{
  MPI_Comm   comm  = PETSC_COMM_SELF; /* every rank builds the same reference on its own */
  FlxMesh    mesh  = NULL;
  FlxModel   model = NULL;
  FlxStepper ts    = NULL;
  FlxOutput  out   = NULL;
  FlxModes   md    = NULL;

  PetscFunctionBegin;
  PetscCall(PetscPushErrorHandler(HelpErrorHandler, NULL));
  if (!FlxMeshCreate(comm, &mesh)) {
    (void)FlxMeshSetFromOptions(mesh);
    if (!FlxModelCreate(mesh, &model)) {
      (void)FlxModelSetFromOptions(model);
      if (!FlxModesCreate(model, &md)) (void)FlxModesSetFromOptions(md);
    }
  }
  if (!FlxStepperCreate(comm, &ts)) (void)FlxStepperSetFromOptions(ts);
  if (!FlxOutputCreate(comm, &out)) (void)FlxOutputSetFromOptions(out);
  (void)FlxStabilityCommand(comm);
  (void)FlxModesDestroy(&md);
  (void)FlxOutputDestroy(&out);
  (void)FlxStepperDestroy(&ts);
  (void)FlxModelDestroy(&model);
  (void)FlxMeshDestroy(&mesh);
  PetscCall(PetscPopErrorHandler());
  PetscFunctionReturn(0);
}

/* A value a reader accepts for an option it requires (or that takes a branch when given). */
static const char *Placeholder(const HelpOpt *o)
{
  switch (o->kind) {
  case 'S':
  case 's':
    return "NAME";
  case 'r':
    return "0.25";
  case 'i':
    return "2";
  case 'b':
    return "1";
  case 'a':
    return strpbrk(o->deflt, ".e") ? "0.25,0.25,0.25" : "2,2,2";
  default:
    return NULL;
  }
}

typedef enum { PASS_MINIMAL,
               PASS_ALL,
               PASS_VARIATION } PassMode;

/* After a round: set the options the failed checks named and that are not set (a placeholder); in the pass where
   every option is set, clear those the minimal database does not hold (a value that does not fit). In the
   minimal pass an option a message names alone is marked required ("missing property: give -material_NAME_E";
   "give one of -a or -b" marks neither). Counts the changes. */
static PetscErrorCode SetAskedFor(PetscOptions db, PetscOptions base, PassMode mode, PetscInt *nchanged)
{
  const char *line = H.fails;

  PetscFunctionBegin;
  *nchanged = 0;
  while (*line) {
    const char *end = strchr(line, '\n'), *p = line;
    HelpOpt    *named[8];
    int         nn = 0;
    if (!end) end = line + strlen(line);
    while ((p = memchr(p, '-', (size_t)(end - p)))) {
      char     name[256];
      size_t   n = 0;
      HelpOpt *o;
      if (p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) {
        p++;
        continue;
      }
      name[n++] = *p++;
      while (p < end && (isalnum((unsigned char)*p) || *p == '_') && n < sizeof(name) - 1)
        name[n++] = *p++;
      name[n] = 0;
      if (n < 3 || !(o = Find(name))) continue;
      if (nn < 8) named[nn++] = o;
    }
    for (int k = 0; k < nn; k++) {
      PetscBool set, inbase = PETSC_FALSE;
      PetscCall(PetscOptionsHasName(db, NULL, named[k]->name, &set));
      if (base) PetscCall(PetscOptionsHasName(base, NULL, named[k]->name, &inbase));
      if (set && mode == PASS_ALL && !inbase) {
        PetscCall(PetscOptionsClearValue(db, named[k]->name));
        named[k]->cleared = 1;
        (*nchanged)++;
      } else if (!set && !named[k]->cleared && Placeholder(named[k])) {
        PetscCall(PetscOptionsSetValue(db, named[k]->name, Placeholder(named[k])));
        if (mode == PASS_MINIMAL && nn == 1) named[k]->required = 1;
        (*nchanged)++;
      }
    }
    line = *end ? end + 1 : end;
  }
  PetscFunctionReturn(0);
}

/* Set every list of names to NAME. */
static PetscErrorCode SetNames(PetscOptions db, PetscInt *nset)
{
  PetscFunctionBegin;
  *nset = 0;
  for (int k = 0; k < H.n; k++) {
    size_t    l = strlen(H.opt[k].name);
    PetscBool set;
    if (H.opt[k].kind != 'S' || l < 7 || strcmp(H.opt[k].name + l - 6, "_names")) continue;
    PetscCall(PetscOptionsHasName(db, NULL, H.opt[k].name, &set));
    if (set) continue;
    PetscCall(PetscOptionsSetValue(db, H.opt[k].name, "NAME"));
    (*nset)++;
  }
  PetscFunctionReturn(0);
}

/* One pass on db: the readers run, then the options their failed checks named are set (or cleared), until
   nothing changes (each round moves a reader at least one check further). */
static PetscErrorCode Pass(PetscOptions db, PetscOptions base, PassMode mode)
{
  PetscFunctionBegin;
  for (int k = 0; k < H.n; k++)
    H.opt[k].cleared = 0;
  for (int it = 0; it < 200; it++) {
    PetscInt nnames = 0, nchanged = 0;
    H.fails[0] = 0;
    H.newopts  = 0;
    PetscCall(PetscOptionsPush(db));
    PetscCall(RunReaders());
    PetscCall(PetscOptionsPop());
    PetscCall(SetNames(db, &nnames));
    PetscCall(SetAskedFor(db, base, mode, &nchanged));
    if (!nnames && !nchanged && !H.newopts) break;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode NewDatabase(PetscOptions *db, PetscOptions base)
{
  PetscFunctionBegin;
  PetscCall(PetscOptionsCreate(db));
  PetscCall(PetscOptionsSetValue(*db, "-help", NULL));
  if (base) { /* a copy: the placeholders hold no spaces */
    char *all;
    PetscCall(PetscOptionsGetAll(base, &all));
    PetscCall(PetscOptionsInsertString(*db, all));
    PetscCall(PetscFree(all));
  }
  PetscFunctionReturn(0);
}

/* Every enum's choices in turn, on the minimal database. */
static PetscErrorCode Variations(PetscOptions base)
{
  PetscFunctionBegin;
  for (int k = 0; k < H.n && k < 2000; k++) {
    char *choices, *tok, *save = NULL;
    if (H.opt[k].kind != 'e' || !H.opt[k].choices || !H.opt[k].flexure) continue;
    choices = Dup(H.opt[k].choices, strlen(H.opt[k].choices));
    if (!choices) continue;
    for (tok = strtok_r(choices, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
      PetscOptions db;
      if (!strcmp(tok, H.opt[k].deflt)) continue;
      PetscCall(NewDatabase(&db, base));
      PetscCall(PetscOptionsSetValue(db, H.opt[k].name, tok));
      PetscCall(Pass(db, NULL, PASS_VARIATION));
      PetscCall(PetscOptionsDestroy(&db));
    }
    free(choices);
  }
  PetscFunctionReturn(0);
}

/* Lists of names in the user's database (for NAME in the user's pass). */
static PetscErrorCode GetKinds(void)
{
  PetscFunctionBegin;
  for (int k = 0; k < H.n; k++) {
    size_t      l = strlen(H.opt[k].name);
    const char *v;
    PetscBool   set;
    char      **nk, **nv;
    if (l < 8 || strcmp(H.opt[k].name + l - 6, "_names")) continue;
    PetscCall(PetscOptionsFindPair(NULL, NULL, H.opt[k].name, &v, &set));
    if (!set || !v) continue;
    nk = (char **)realloc(H.kinds, (size_t)(H.nkinds + 1) * sizeof(char *));
    if (nk) H.kinds = nk;
    nv = (char **)realloc(H.kindvals, (size_t)(H.nkinds + 1) * sizeof(char *));
    if (nv) H.kindvals = nv;
    if (!nk || !nv) break;
    H.kinds[H.nkinds]    = Dup(H.opt[k].name + 1, l - 7);
    H.kindvals[H.nkinds] = Dup(v, strlen(v));
    H.nkinds++;
  }
  PetscFunctionReturn(0);
}

/* The passes: the minimal one, every option set, every enum choice, then the user's own options. */
static PetscErrorCode Passes(PetscBool user)
{
  PetscOptions db, all;
  PetscBool    wasset;

  PetscFunctionBegin;
  PetscCall(NewDatabase(&db, NULL));
  PetscCall(Pass(db, NULL, PASS_MINIMAL));
  PetscCall(NewDatabase(&all, db));
  for (int k = 0; k < H.n; k++) { /* every option given: the branches taken when one is set */
    PetscBool set;
    if (!H.opt[k].flexure || !Placeholder(&H.opt[k])) continue;
    PetscCall(PetscOptionsHasName(all, NULL, H.opt[k].name, &set));
    if (!set) PetscCall(PetscOptionsSetValue(all, H.opt[k].name, Placeholder(&H.opt[k])));
  }
  PetscCall(Pass(all, db, PASS_ALL));
  PetscCall(PetscOptionsDestroy(&all));
  PetscCall(Variations(db));
  PetscCall(PetscOptionsDestroy(&db));
  if (user) { /* what the user's case reads (named things get NAME) */
    PetscCall(GetKinds());
    PetscCall(PetscOptionsHasHelp(NULL, &wasset));
    if (!wasset) PetscCall(PetscOptionsSetValue(NULL, "-help", NULL));
    H.fails[0] = 0;
    PetscCall(RunReaders());
    if (!wasset) PetscCall(PetscOptionsClearValue(NULL, "-help"));
  }
  PetscFunctionReturn(0);
}

/* Build the reference once, with PETSc's printing taken by the collector (and given back, error or not). */
static PetscErrorCode Build(PetscBool user)
{
  static PetscBool built = PETSC_FALSE;
  PetscErrorCode   ierr;

  PetscFunctionBegin;
  if (built) PetscFunctionReturn(0);
  built           = PETSC_TRUE;
  SavedHelpPrintf = PetscHelpPrintf;
  SavedVFPrintf   = PetscVFPrintf;
  PetscHelpPrintf = Collect;
  PetscVFPrintf   = CollectVF;
  ierr            = Passes(user);
  PetscHelpPrintf = SavedHelpPrintf;
  PetscVFPrintf   = SavedVFPrintf;
  PetscCall(ierr);
  PetscCall(PetscOptionsHelpPrintedDestroy(&PetscOptionsHelpPrintedSingleton));
  PetscFunctionReturn(0);
}

/* Groups: the first word of an option, in the order of a case file. */
static const struct {
  const char *key, *title;
} Groups[] = {
    {"mesh", "mesh: the mesh, from a Gmsh file or a generator"},
    {"material", "material: linear isotropic materials (-material_names a,b; then -material_a_E ...)"},
    {"section", "section: beam and shell sections by physical group (-section_names ...)"},
    {"bc", "bc: boundary conditions on node groups (-bc_names ...)"},
    {"load", "load: loads with their time functions (-load_names ...)"},
    {"base", "base: base excitation, a support acceleration history"},
    {"ic", "ic: initial conditions (-ic_names ...)"},
    {"pointmass", "pointmass: point masses on node groups (-pointmass_names ...)"},
    {"spring", "spring: discrete springs and dampers (-spring_names ...)"},
    {"damping", "damping: Rayleigh damping C = a_M M + b_K K"},
    {"model", "model: the model as a whole"},
    {"ts", "ts: time stepping (flexure run)"},
    {"output", "output: the results file"},
    {"probe", "probe: node DOFs recorded at every history step (-probe_names ...)"},
    {"modes", "modes: natural frequencies and mode shapes (flexure modes)"},
    {"static", "static: the static solve (flexure static)"},
    {"stability", "stability: stability analysis of a time stepper (flexure stability)"},
};

static void GroupOf(const char *name, char *g, size_t len)
{
  size_t n = 0;
  if (!strcasecmp(name, "-all_presets")) {
    snprintf(g, len, "stability");
    return;
  }
  for (name++; name[n] && name[n] != '_' && n < len - 1; n++)
    g[n] = name[n];
  g[n] = 0;
}

static PetscErrorCode PrintOption(MPI_Comm comm, const HelpOpt *o)
{
  char d[600];

  PetscFunctionBegin;
  if (o->required)
    snprintf(d, sizeof(d), "required");
  else if (o->kind == 'b')
    snprintf(d, sizeof(d), "%s", !strcasecmp(o->deflt, "TRUE") ? "true" : "false");
  else if (o->kind == 'a')
    snprintf(d, sizeof(d), "list"); /* PETSc prints a list's first value only */
  else if (!o->deflt[0] || !strcmp(o->deflt, "(null)"))
    snprintf(d, sizeof(d), "none");
  else
    snprintf(d, sizeof(d), "%s", o->deflt);
  if (o->choices)
    PetscCall(PetscPrintf(comm, "  %s <%s>: %s (one of: %s)\n", o->name, d, o->text, o->choices));
  else
    PetscCall(PetscPrintf(comm, "  %s <%s>: %s\n", o->name, d, o->text));
  PetscFunctionReturn(0);
}

static const char SolverText[] = "Solvers: PETSc and SLEPc options under these prefixes (-help petsc lists PETSc's general options):\n"
                                 "  -ts_ksp_*, -ts_pc_*, -ts_mg_levels_*: implicit steppers (newmark, hht, genalpha): CG + GAMG, rtol 1e-10\n"
                                 "  -ts_gcd_ksp_*, -ts_gcd_pc_*: GCD's conditionally explicit solve (-ts_gcd_solve ksp): CG or GMRES + Jacobi\n"
                                 "  -ts_alpha_mass_ksp_*, -ts_alpha_mass_pc_*: consistent-mass solve of the implicit steppers: CG + Jacobi\n"
                                 "  -ts_dae_ksp_*, -ts_dae_pc_*, -ts_dae_fieldsplit_*: saddle-point solve of constrained systems (-ts_dae_solver lu, schur): MUMPS\n"
                                 "  -static_ksp_*, -static_pc_*: flexure static: direct LU (MUMPS on more than one rank)\n"
                                 "  -modes_eps_*, -modes_st_*: flexure modes (SLEPc, shift-and-invert); -modes_max_eps_*: its omega_max\n"
                                 "  Diagnostics read during a solve (-ts_ksp_converged_reason, -static_ksp_view, ...) are checked after the run.\n";

PetscErrorCode FlxHelpPrint(MPI_Comm comm, const char usage[], PetscBool petsc)
{
  int   ng     = (int)(sizeof(Groups) / sizeof(Groups[0]));
  char *done   = NULL;
  char  g[128] = "";

  PetscFunctionBegin;
  PetscCall(Build(PETSC_TRUE));
  PetscCall(PetscPrintf(comm, "%s", usage));
  PetscCall(PetscCalloc1(H.n + 1, &done));
  for (int k = 0; k <= ng; k++) { /* the known groups in order, then the others as they come */
    for (int j = 0; j < H.n; j++) {
      const HelpOpt *o = &H.opt[j];
      PetscBool      first;
      if (!o->flexure || done[j]) continue;
      GroupOf(o->name, g, sizeof(g));
      if (k < ng && strcmp(g, Groups[k].key)) continue;
      if (k == ng) {
        PetscBool known = PETSC_FALSE;
        for (int i = 0; i < ng; i++)
          if (!strcmp(g, Groups[i].key)) known = PETSC_TRUE;
        if (known) continue;
      }
      first = PETSC_TRUE;
      for (int i = 0; i < H.n; i++) {
        char gi[128];
        if (!H.opt[i].flexure || done[i]) continue;
        GroupOf(H.opt[i].name, gi, sizeof(gi));
        if (strcmp(gi, g)) continue;
        if (first) PetscCall(PetscPrintf(comm, "\n%s\n", k < ng ? Groups[k].title : g));
        first = PETSC_FALSE;
        PetscCall(PrintOption(comm, &H.opt[i]));
        done[i] = 1;
      }
    }
  }
  PetscCall(PetscPrintf(comm, "\n%s", SolverText));
  if (petsc) {
    PetscBool first = PETSC_TRUE;
    for (int j = 0; j < H.n; j++) {
      if (H.opt[j].flexure) continue;
      if (first) PetscCall(PetscPrintf(comm, "\nPETSc options read by flexure's readers:\n"));
      first = PETSC_FALSE;
      PetscCall(PrintOption(comm, &H.opt[j]));
    }
  }
  PetscCall(PetscFree(done));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxHelpGetOptionNames(MPI_Comm comm, PetscInt *n, const char *const **names)
{
  static const char **list  = NULL;
  static PetscInt     nlist = 0;

  PetscFunctionBegin;
  if (!list) {
    PetscCall(Build(PETSC_FALSE));
    list = (const char **)malloc((size_t)(H.n + 1) * sizeof(char *));
    for (int k = 0; list && k < H.n; k++)
      if (H.opt[k].flexure) list[nlist++] = H.opt[k].name;
  }
  *n     = nlist;
  *names = list;
  PetscFunctionReturn(0);
}
