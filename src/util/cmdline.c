/* The command line of flexure before PETSc sees it: subcommand, case file and options split with PETSc's own
   rule, the case file read (a regular file of bounded size), non-finite numbers found. Pure functions. */
#include <flexure/cli.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const Commands[] = {"run", "static", "modes", "stability", NULL};

/* PETSc 3.18's PetscOptionsValidKey(): "-" (or "--") and a letter, and not a number such as -inf or -1e3. */
static int IsKey(const char *s)
{
  char *end;

  if (!s || s[0] != '-') return 0;
  if (s[1] == '-') s++;
  if (!isalpha((unsigned char)s[1])) return 0;
  (void)strtod(s, &end);
  if (end != s && !(*end == '_' || isalnum((unsigned char)*end))) return 0;
  return 1;
}

static int IsCommand(const char *s)
{
  for (int k = 0; Commands[k]; k++)
    if (!strcmp(s, Commands[k])) return 1;
  return 0;
}

/* A word that names no file and has neither '.' nor '/' was probably meant as a subcommand. */
static int LooksLikeCommand(const char *s)
{
  struct stat st;
  return !strchr(s, '.') && !strchr(s, '/') && stat(s, &st) != 0;
}

int FlxCommandLineParse(int argc, char **argv, FlxCommandLine *cl, char *err, size_t errlen)
{
  memset(cl, 0, sizeof(*cl));
  cl->command = "run";
  cl->name    = calloc((size_t)argc + 1, sizeof(char *));
  cl->value   = calloc((size_t)argc + 1, sizeof(char *));
  if (!cl->name || !cl->value) {
    snprintf(err, errlen, "out of memory");
    FlxCommandLineFree(cl);
    return 1;
  }
  int gotcmd = 0;
  for (int k = 1; k < argc; k++) {
    const char *a = argv[k];
    if (IsKey(a)) {
      const char *v = (k + 1 < argc && !IsKey(argv[k + 1])) ? argv[k + 1] : NULL;
      if (!strcmp(a, "-help") || !strcmp(a, "-h") || !strcmp(a, "--help")) {
        cl->help = 1;
        if (v) {
          if (!strcmp(v, "petsc"))
            cl->help = 2;
          else if (!strcmp(v, "intro"))
            cl->help = 3;
          else if (!strcmp(v, "0") || !strcasecmp(v, "false") || !strcasecmp(v, "no"))
            cl->help = 0;
          else if (strcmp(v, "1") && strcasecmp(v, "true") && strcasecmp(v, "yes")) {
            snprintf(err, errlen, "-help %s: use -help (flexure's options) or -help petsc (PETSc's as well)", v);
            FlxCommandLineFree(cl);
            return 1;
          }
          k++;
        }
        continue;
      }
      cl->name[cl->nopt]    = a;
      cl->value[cl->nopt++] = v;
      if (v) k++;
    } else if (IsCommand(a)) {
      if (gotcmd) {
        snprintf(err, errlen, "two subcommands ('%s' and '%s'): give one", cl->command, a);
        FlxCommandLineFree(cl);
        return 1;
      }
      cl->command = a;
      gotcmd      = 1;
    } else if (!cl->casefile) {
      cl->casefile = a;
    } else {
      if (!gotcmd && LooksLikeCommand(cl->casefile))
        snprintf(err, errlen, "unknown subcommand '%s': use run, static, modes or stability (flexure [SUBCOMMAND] CASE.yaml [options])", cl->casefile);
      else if (IsCommand(a))
        snprintf(err, errlen, "two subcommands ('%s' and '%s'): give one", cl->command, a);
      else if (a[0] == '-' || strchr(a, ','))
        snprintf(err, errlen, "unexpected argument '%s' after the case file '%s': an option takes one word (quote lists without spaces: -load_tip_value 0,-100,0)", a, cl->casefile);
      else
        snprintf(err, errlen, "unexpected argument '%s' after the case file '%s': flexure takes one case file and options -name value", a, cl->casefile);
      FlxCommandLineFree(cl);
      return 1;
    }
  }
  return 0;
}

void FlxCommandLineFree(FlxCommandLine *cl)
{
  free((void *)cl->name);
  free((void *)cl->value);
  cl->name = cl->value = NULL;
  cl->nopt             = 0;
}

static int NonFiniteItem(const char *s)
{
  char  *end;
  double v;

  while (isspace((unsigned char)*s))
    s++;
  if (!*s) return 0;
  {
    const char *u = s + (*s == '+' || *s == '-');
    if (!strcasecmp(u, ".inf") || !strcasecmp(u, ".nan")) return 1; /* YAML's spellings */
  }
  v = strtod(s, &end);
  if (end == s) return 0;
  while (isspace((unsigned char)*end))
    end++;
  if (*end == '/') { /* a fraction, as FlxParseRealList reads them */
    const char *d = end + 1;
    double      w = strtod(d, &end);
    if (end == d) return 0;
    while (isspace((unsigned char)*end))
      end++;
    if (*end) return 0;
    return !isfinite(v) || !isfinite(w) || (w != 0 && !isfinite(v / w));
  }
  if (*end) return 0;
  return !isfinite(v);
}

int FlxValueIsNonFinite(const char *value, char *bad, size_t badlen)
{
  const char *p = value;

  if (!value) return 0;
  for (;;) {
    const char *q = strchr(p, ',');
    size_t      l = q ? (size_t)(q - p) : strlen(p);
    char        item[128];
    if (l < sizeof(item)) {
      memcpy(item, p, l);
      item[l] = 0;
      if (NonFiniteItem(item)) {
        snprintf(bad, badlen, "%s", item);
        return 1;
      }
    }
    if (!q) break;
    p = q + 1;
  }
  return 0;
}

int FlxCaseFileRead(const char *path, char **buf, size_t *len, char *err, size_t errlen)
{
  struct stat st;
  int         fd;
  size_t      n = 0, cap;
  char       *b;

  *buf = NULL;
  *len = 0;
  fd   = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT && LooksLikeCommand(path))
      snprintf(err, errlen, "unknown subcommand '%s', and no case file of that name: use run, static, modes or stability (flexure [SUBCOMMAND] CASE.yaml [options])", path);
    else if (errno == ENOENT)
      snprintf(err, errlen, "case file '%s' not found", path);
    else
      snprintf(err, errlen, "cannot open the case file '%s': %s", path, strerror(errno));
    return 1;
  }
  if (fstat(fd, &st)) {
    snprintf(err, errlen, "cannot read the case file '%s': %s", path, strerror(errno));
    close(fd);
    return 1;
  }
  if (S_ISDIR(st.st_mode) || !S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "'%s' is %s, not a case file", path, S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
    close(fd);
    return 1;
  }
  if (st.st_size > FLX_CASE_MAX_BYTES) {
    snprintf(err, errlen, "case file '%s' has %lld bytes: a case file is at most %d MB (tables belong in files of their own)", path, (long long)st.st_size, FLX_CASE_MAX_BYTES >> 20);
    close(fd);
    return 1;
  }
  cap = (size_t)st.st_size + 1;
  b   = malloc(cap + 1);
  if (!b) {
    snprintf(err, errlen, "out of memory reading the case file '%s'", path);
    close(fd);
    return 1;
  }
  for (;;) { /* until the end, even if the file grows while it is read (up to the limit) */
    ssize_t r;
    if (n == cap) {
      char *p;
      if (cap > FLX_CASE_MAX_BYTES) {
        snprintf(err, errlen, "case file '%s' grew beyond %d MB while it was read", path, FLX_CASE_MAX_BYTES >> 20);
        free(b);
        close(fd);
        return 1;
      }
      cap *= 2;
      p = realloc(b, cap + 1);
      if (!p) {
        snprintf(err, errlen, "out of memory reading the case file '%s'", path);
        free(b);
        close(fd);
        return 1;
      }
      b = p;
    }
    r = read(fd, b + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      snprintf(err, errlen, "cannot read the case file '%s': %s", path, strerror(errno));
      free(b);
      close(fd);
      return 1;
    }
    if (r == 0) break;
    n += (size_t)r;
  }
  close(fd);
  b[n] = 0;
  *buf = b;
  *len = n;
  return 0;
}
