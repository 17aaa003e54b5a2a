/* Unit test of the case-file reader (FlxCaseFileParse): what PETSc 3.18's YAML reader would misread or fail on
   is refused with file, line and column; valid files give the options PETSc sets (checked against
   PetscOptionsInsertStringYAML itself). Also the command-line splitter and the non-finite value check. */
#include <flexure/flexure.h>
#include <flexure/cli.h>
#include <ctype.h>

static int failed = 0;

static void Check(int ok, const char *what, const char *detail)
{
  printf("%s: %s%s%s\n", ok ? "PASS" : "FAIL", what, detail ? ": " : "", detail ? detail : "");
  if (!ok) failed++;
}

/* A file that must be refused, with a message that holds expect (file:line:col and what). */
static void Refused(const char *yaml, const char *expect)
{
  FlxCaseFile cf;
  char        err[1024];
  int         r = FlxCaseFileParse(yaml, strlen(yaml), "case.yaml", &cf, err, sizeof(err));
  char        what[1200];

  snprintf(what, sizeof(what), "refused %-40.40s", yaml);
  for (char *c = what; *c; c++)
    if (*c == '\n') *c = '|';
  Check(r == 1 && strstr(err, expect) != NULL && !strchr(err, '\n'), what, err);
  FlxCaseFileFree(&cf);
}

/* A file that is accepted; its options must be exactly those PETSc's reader sets, and hold expect ("name=value;..."). */
static PetscErrorCode Accepted(const char *yaml, const char *expect)
{
  FlxCaseFile  cf;
  char         err[1024], got[4096] = "", what[1200];
  PetscOptions o;
  PetscInt     same = 1;
  int          r    = FlxCaseFileParse(yaml, strlen(yaml), "case.yaml", &cf, err, sizeof(err));

  PetscFunctionBegin;
  snprintf(what, sizeof(what), "accepted %-40.40s", yaml);
  for (char *c = what; *c; c++)
    if (*c == '\n') *c = '|';
  if (r) {
    Check(0, what, err);
    PetscFunctionReturn(0);
  }
  PetscCall(PetscOptionsCreate(&o));
  PetscCall(PetscOptionsInsertStringYAML(o, yaml));
  for (int k = 0; k < cf.n; k++) {
    char        name[300];
    const char *v;
    PetscBool   set;
    snprintf(name, sizeof(name), "-%s", cf.opt[k].name);
    PetscCall(PetscOptionsFindPair(o, NULL, name, &v, &set));
    if (!set || strcmp(v ? v : "", cf.opt[k].value)) same = 0;
    FlxStrlcat(got, cf.opt[k].name, sizeof(got));
    FlxStrlcat(got, "=", sizeof(got));
    FlxStrlcat(got, cf.opt[k].value, sizeof(got));
    FlxStrlcat(got, ";", sizeof(got));
  }
  {
    char *all;
    int   npetsc = 0;
    PetscCall(PetscOptionsGetAll(o, &all)); /* as many options as PETSc set */
    for (char *c = all; *c; c++)
      if (*c == '-' && (c == all || c[-1] == ' ') && isalpha((unsigned char)c[1])) npetsc++;
    if (npetsc != cf.n) same = 0;
    PetscCall(PetscFree(all));
  }
  PetscCall(PetscOptionsDestroy(&o));
  Check(same && strstr(got, expect) != NULL, what, got);
  FlxCaseFileFree(&cf);
  PetscFunctionReturn(0);
}

static void Line(int argc, const char *const args[], const char *expect)
{
  FlxCommandLine cl;
  char           err[1024] = "", got[1024] = "", what[256];
  int            r = FlxCommandLineParse(argc, (char **)args, &cl, err, sizeof(err));

  snprintf(what, sizeof(what), "command line %s %s %s", argc > 1 ? args[1] : "", argc > 2 ? args[2] : "", argc > 3 ? args[3] : "");
  if (r)
    snprintf(got, sizeof(got), "error: %s", err);
  else {
    snprintf(got, sizeof(got), "cmd=%s case=%s help=%d", cl.command, cl.casefile ? cl.casefile : "-", cl.help);
    for (int k = 0; k < cl.nopt; k++) {
      FlxStrlcat(got, " ", sizeof(got));
      FlxStrlcat(got, cl.name[k], sizeof(got));
      FlxStrlcat(got, "=", sizeof(got));
      FlxStrlcat(got, cl.value[k] ? cl.value[k] : "(none)", sizeof(got));
    }
    FlxCommandLineFree(&cl);
  }
  Check(strstr(got, expect) != NULL, what, got);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* test_casefile replay FILE|DIR...: every file through the fuzz target's checks (tests/fuzz/fuzz_casefile.c). */
static int Replay(int argc, char **argv)
{
  int n = 0;
  for (int k = 2; k < argc; k++) {
    char  cmd[4200];
    FILE *ls;
    char  path[4096];
    snprintf(cmd, sizeof(cmd), "find '%s' -type f | sort", argv[k]);
    ls = popen(cmd, "r");
    while (ls && fgets(path, sizeof(path), ls)) {
      char  *buf;
      size_t len;
      char   err[1024];
      path[strcspn(path, "\n")] = 0;
      if (FlxCaseFileRead(path, &buf, &len, err, sizeof(err))) {
        printf("FAIL: %s\n", err);
        return 1;
      }
      LLVMFuzzerTestOneInput((const unsigned char *)buf, len);
      free(buf);
      n++;
    }
    if (ls) pclose(ls);
  }
  printf("PASS: %d inputs replayed through the fuzz target's checks\n", n);
  return 0;
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  if (argc > 1 && !strcmp(argv[1], "replay")) {
    int r = Replay(argc, argv);
    PetscCall(PetscFinalize());
    return r;
  }
  /* syntax and structure */
  Refused("mesh:\n  file: x\n bad: [\n", "case.yaml:3:2: YAML syntax error");
  Refused("a: 1\n\tb: 2\n", "case.yaml:2:1: YAML syntax error");
  Refused("a: [1, 2\n", "YAML syntax error");
  Refused("a: \"unterminated\n", "YAML syntax error");
  Refused("- 1\n- 2\n", "case.yaml:1:1: a case file is a mapping");
  Refused("hello\n", "a case file is a mapping");
  Refused("a: 1\n---\n- x\n", "case.yaml:3:1: a case file is a mapping");
  {
    const char  nul[] = "a: 1\nb: 2\0c: 3\n";
    FlxCaseFile cf;
    char        err[256];
    int         r = FlxCaseFileParse(nul, sizeof(nul) - 1, "case.yaml", &cf, err, sizeof(err));
    Check(r == 1 && strstr(err, "case.yaml:2:5: NUL byte"), "refused a NUL byte", err);
  }
  Refused("a: \xff\xfe\n", "not a text file in UTF-8");
  /* what PETSc would misread */
  Refused("a: 1\nb: 2\na: 3\n", "case.yaml:3:1: 'a' is set twice (also at line 1)");
  Refused("load:\n  tip: {value: 1}\nload_tip_value: 2\n", "case.yaml:3:1: 'load_tip_value' is set twice (also at line 2)");
  Refused("material:\n  steel: {E: 1, e: 2}\n", "option names ignore case");
  Refused("base: &b {E: 1}\nm:\n  E: 5\n  <<: *b\n", "put '<<' first");
  Refused("a: ~\n", "case.yaml:1:4: null value '~'");
  Refused("a: null\n", "null value 'null'");
  Refused("a: [1, [2, 3]]\n", "case.yaml:1:8: a list holds only plain values");
  Refused("a: [{x: 1}, {y: 2}]\n", "a list holds only plain values");
  Refused("a: [1, \"\", 2]\n", "empty list item");
  Refused("\"a b\": 1\n", "case.yaml:1:1: key 'a b': a key holds only letters");
  Refused("\"\": 1\n", "empty key");
  Refused("\"-x\": 1\n", "without the leading '-'");
  Refused("1abc: 1\n", "a key starts with a letter");
  Refused("h:\n", "'h' belongs on the command line (-help)");
  Refused("? [a, b]\n: 1\n", "a key must be a plain name");
  Refused("a: !foo 1\n", "tag '!foo' is not supported");
  Refused("$$x: !include other.yaml\n", "'!include' is not supported");
  Refused("a: !include other.yaml\n", "is not supported: put every option in the case file");
  Refused("a: &a {b: *a}\n", "deeper than");
  Refused("a: &a {<<: *a}\n", "deeper than");
  Refused("a: *nothing\n", "YAML syntax error");
  {
    char deep[2048] = "";
    for (int k = 0; k < 20; k++) {
      for (int i = 0; i < k; i++)
        FlxStrlcat(deep, " ", sizeof(deep));
      FlxStrlcat(deep, "k:\n", sizeof(deep));
    }
    for (int i = 0; i < 20; i++)
      FlxStrlcat(deep, " ", sizeof(deep));
    FlxStrlcat(deep, "v: 1\n", sizeof(deep));
    Refused(deep, "case.yaml:17:17: mappings nested deeper than 16 levels");
  }
  {
    static char big[1200];
    memset(big, 'a', 300);
    strcpy(big + 300, ": 1\n");
    Refused(big, "is longer than 255 characters");
  }
  {
    /* alias expansion: 10 levels of 10 merges would make 10^10 keys */
    static char bomb[8192];
    FlxStrlcat(bomb, "l0: &l0 {a: 1}\n", sizeof(bomb));
    for (int k = 1; k < 10; k++) {
      char line[512];
      snprintf(line, sizeof(line), "l%d: &l%d {<<: [*l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d]}\n", k, k, k - 1, k - 1, k - 1, k - 1, k - 1, k - 1, k - 1, k - 1, k - 1, k - 1);
      FlxStrlcat(bomb, line, sizeof(bomb));
    }
    Refused(bomb, "expands to more than 100000 keys");
  }
  /* valid files: the same options as PETSc sets */
  PetscCall(Accepted("mesh:\n  file: meshes/c.msh\nmaterial:\n  names: steel\n  steel: {E: 210e9, nu: 0.3}\n", "mesh_file=meshes/c.msh;material_names=steel;material_steel_E=210e9;material_steel_nu=0.3;"));
  PetscCall(Accepted("load: {names: [a, b], a: {value: [0, -100, 0]}}\n", "load_names=a,b;load_a_value=0,-100,0;"));
  PetscCall(Accepted("$$steel: &steel {E: 1, rho: 2}\nmaterial:\n  a: *steel\n  b: {<<: *steel, rho: 3}\n", "material_a_E=1;material_a_rho=2;material_b_E=1;material_b_rho=3;"));
  PetscCall(Accepted("log_view:\nts: {type: gcd}\n", "log_view=;ts_type=gcd;"));
  PetscCall(Accepted("a: 1\n---\nb: 2\n", "a=1;b=2;"));
  PetscCall(Accepted("# only a comment\n", ""));
  PetscCall(Accepted("", ""));
  PetscCall(Accepted("a: \"null\"\nb: !!str 5\nc: []\n", "a=null;b=5;c=;"));
  {
    FlxCaseFile cf;
    char        err[256];
    int         r = FlxCaseFileParse("load:\n  names: tip, side\n  tip: {value: \"0, -100 ,0\"}\n", 54, "case.yaml", &cf, err, sizeof(err));
    Check(!r && cf.n == 2 && !strcmp(cf.opt[0].value, "tip,side") && !strcmp(cf.opt[1].value, "0,-100,0"), "spaces around commas dropped (PETSc would declare a load ' side')", r ? err : cf.opt[0].value);
    FlxCaseFileFree(&cf);
  }
  /* the command line, split as PETSc splits it */
  {
    const char *a1[] = {"flexure", "static", "case.yaml", "-ts_dt", "1e-3", "-flag", "-x", "-1", NULL};
    Line(8, a1, "cmd=static case=case.yaml help=0 -ts_dt=1e-3 -flag=(none) -x=-1");
    const char *a2[] = {"flexure", "case.yaml", "modes", "-modes_n", "3", NULL};
    Line(5, a2, "cmd=modes case=case.yaml help=0 -modes_n=3");
    const char *a3[] = {"flexure", "statik", "case.yaml", NULL};
    Line(3, a3, "error: unknown subcommand 'statik'");
    const char *a4[] = {"flexure", "case.yaml", "-load_tip_value", "0,", "-100,", "0", NULL};
    Line(6, a4, "error: unexpected argument '-100,' after the case file 'case.yaml': an option takes one word");
    const char *a5[] = {"flexure", "-help", "petsc", NULL};
    Line(3, a5, "cmd=run case=- help=2");
    const char *a6[] = {"flexure", "case.yaml", "-ts_max_time", "-inf", "-h", NULL};
    Line(5, a6, "cmd=run case=case.yaml help=1 -ts_max_time=-inf");
    const char *a7[] = {"flexure", "static", "modes", "case.yaml", NULL};
    Line(4, a7, "error: two subcommands ('static' and 'modes')");
    const char *a8[] = {"flexure", "-help", "verbose", NULL};
    Line(3, a8, "error: -help verbose");
  }
  {
    char bad[128];
    Check(FlxValueIsNonFinite("nan", bad, sizeof(bad)) && !strcmp(bad, "nan"), "nan is not finite", NULL);
    Check(FlxValueIsNonFinite("0, -Inf, 1", bad, sizeof(bad)) && !strcmp(bad, " -Inf"), "a list with -Inf", bad);
    Check(FlxValueIsNonFinite("1e999", bad, sizeof(bad)), "1e999 overflows", NULL);
    Check(FlxValueIsNonFinite("1/0", bad, sizeof(bad)) == 0 && FlxValueIsNonFinite("inf/2", bad, sizeof(bad)), "fractions", NULL);
    Check(!FlxValueIsNonFinite("nan.h5", bad, sizeof(bad)) && !FlxValueIsNonFinite("infinite_beam", bad, sizeof(bad)) && !FlxValueIsNonFinite("1e300,2", bad, sizeof(bad)), "names and finite numbers pass", NULL);
  }
  printf("%s: %d failed checks\n", failed ? "FAIL" : "PASS", failed);
  PetscCall(PetscFinalize());
  return failed ? 1 : 0;
}
