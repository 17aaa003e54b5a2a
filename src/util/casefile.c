/* The case file, read and validated before PETSc sees it. PETSc 3.18's YAML reader (PetscOptionsInsertFileYAML)
   loads the document with libyaml and joins nested keys with '_'; it stops with a traceback on a syntax error,
   and silently misreads several things (checked against PETSc 3.18.5): a duplicate key keeps the last value
   (option names ignore case, so E and e collide), a merge key '<<' placed after an explicit key overrides it
   (YAML says the explicit key wins), `~` and `null` become the strings "~" and "null", empty list items are
   dropped, a list item that is a mapping both sets options and adds its key to the list, "a b" and "" are
   accepted as option names, a NUL byte ends the file, a name over 511 characters is cut, and "names: tip, side"
   declares a load " side". This parser follows the same walk, refuses each of them with the file, line and
   column, and drops the spaces around commas; flexure then sets the options itself (PetscOptionsSetValue before
   PetscInitialize), so PETSc never parses the file. Pure: no I/O, PETSc or MPI. */
#include <flexure/cli.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

typedef struct {
  yaml_document_t *doc;
  FlxCaseFile     *cf;
  const char      *fname;
  char            *err;
  size_t           errlen;
  char             prefix[2 * FLX_CASE_MAX_NAME + 2];
  size_t           plen;
  long             visited;
} Walk;

static int Fail(Walk *w, const yaml_mark_t *m, const char *fmt, ...)
{
  char    msg[768];
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  if (m)
    snprintf(w->err, w->errlen, "%s:%d:%d: %s", w->fname, (int)m->line + 1, (int)m->column + 1, msg);
  else
    snprintf(w->err, w->errlen, "%s: %s", w->fname, msg);
  return 1;
}

/* A printable excerpt of a scalar for messages (at most 40 characters). */
static const char *Excerpt(const char *s, char buf[48])
{
  size_t k = 0;
  for (; s[k] && k < 40; k++)
    buf[k] = isprint((unsigned char)s[k]) ? s[k] : '?';
  if (s[k]) {
    buf[k - 3] = buf[k - 2] = buf[k - 1] = '.';
  }
  buf[k] = 0;
  return buf;
}

static int AddOption(Walk *w, const char *name, const char *value, const yaml_mark_t *m, int merged)
{
  FlxCaseFile   *cf = w->cf;
  FlxCaseOption *o;

  if (cf->n == cf->cap) {
    int            cap = cf->cap ? 2 * cf->cap : 64;
    FlxCaseOption *p   = realloc(cf->opt, (size_t)cap * sizeof(*p));
    if (!p) return Fail(w, m, "out of memory reading the case file");
    cf->opt = p;
    cf->cap = cap;
  }
  o        = &cf->opt[cf->n];
  o->name  = strdup(name);
  o->value = strdup(value);
  if (o->value) { /* "tip, side" is tip,side: PETSc would keep the space in a list of names (" side") */
    char *d = o->value;
    for (const char *c = value; *c; c++) {
      if (*c == ' ' || *c == '\t') {
        const char *n = c;
        while (*n == ' ' || *n == '\t')
          n++;
        if (*n == ',' || (d > o->value && d[-1] == ',')) continue;
      }
      *d++ = *c;
    }
    *d = 0;
  }
  if (!o->name || !o->value) {
    free(o->name);
    free(o->value);
    return Fail(w, m, "out of memory reading the case file");
  }
  o->line   = (int)m->line + 1;
  o->column = (int)m->column + 1;
  o->merged = merged;
  cf->n++;
  return 0;
}

/* A key must be a name PETSc can hold: a letter, then letters, digits, '_' or '-'. */
static int CheckKey(Walk *w, yaml_node_t *key)
{
  const char *s = (const char *)key->data.scalar.value;
  char        ex[48];

  if (key->data.scalar.length != strlen(s)) return Fail(w, &key->start_mark, "a key holds a NUL character");
  if (!s[0]) return Fail(w, &key->start_mark, "empty key: every key needs a name");
  if (s[0] == '-') return Fail(w, &key->start_mark, "key '%s': write keys without the leading '-' of the command line", Excerpt(s, ex));
  if (!isalpha((unsigned char)s[0])) return Fail(w, &key->start_mark, "key '%s': a key starts with a letter", Excerpt(s, ex));
  for (const char *p = s; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-') return Fail(w, &key->start_mark, "key '%s': a key holds only letters, digits, '_' and '-' (found '%c')", Excerpt(s, ex), isprint((unsigned char)*p) ? *p : '?');
  return 0;
}

/* Tags: the standard ones (!!str, !!int ...) are fine; local tags (!include, !foo) are not honoured by PETSc. */
static int CheckTag(Walk *w, yaml_node_t *n)
{
  const char *tag = (const char *)n->tag;
  char        ex[48];

  if (!tag || !strncmp(tag, "tag:yaml.org,2002:", 18)) return 0;
  if (strstr(tag, "include")) return Fail(w, &n->start_mark, "'%s' is not supported: put every option in the case file", Excerpt(tag, ex));
  return Fail(w, &n->start_mark, "tag '%s' is not supported (PETSc reads the value as plain text)", Excerpt(tag, ex));
}

static int ScalarValue(Walk *w, yaml_node_t *n, const char **s)
{
  *s = (const char *)n->data.scalar.value;
  if (n->data.scalar.length != strlen(*s)) return Fail(w, &n->start_mark, "a value holds a NUL character");
  if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && (!strcmp(*s, "~") || !strcmp(*s, "null") || !strcmp(*s, "Null") || !strcmp(*s, "NULL")))
    return Fail(w, &n->start_mark, "null value '%s': give a value, leave it empty for a flag, or remove the key", *s);
  return 0;
}

/* A list: plain values joined with ',' (PETSc's reading of a YAML sequence). */
static int SequenceValue(Walk *w, yaml_node_t *seq, char **out)
{
  size_t cap = 64, len = 0;
  char  *buf = malloc(cap);

  if (!buf) return Fail(w, &seq->start_mark, "out of memory reading the case file");
  buf[0] = 0;
  for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++) {
    yaml_node_t *item = yaml_document_get_node(w->doc, *it);
    const char  *s;
    size_t       l;
    if (!item || item->type != YAML_SCALAR_NODE) {
      free(buf);
      return Fail(w, item ? &item->start_mark : &seq->start_mark, "a list holds only plain values (no lists or mappings inside a list)");
    }
    if (CheckTag(w, item) || ScalarValue(w, item, &s)) {
      free(buf);
      return 1;
    }
    if (!s[0]) {
      free(buf);
      return Fail(w, &item->start_mark, "empty list item (PETSc would drop it silently)");
    }
    l = strlen(s);
    if (len + l + 2 > cap) {
      char *p;
      while (len + l + 2 > cap)
        cap *= 2;
      p = realloc(buf, cap);
      if (!p) {
        free(buf);
        return Fail(w, &item->start_mark, "out of memory reading the case file");
      }
      buf = p;
    }
    if (len) buf[len++] = ',';
    memcpy(buf + len, s, l + 1);
    len += l;
  }
  *out = buf;
  return 0;
}

static int Mapping(Walk *w, yaml_node_t *map, int depth, int merged);

/* One key: value pair of a mapping, with the current prefix. */
static int Pair(Walk *w, yaml_node_t *key, yaml_node_t *val, int depth, int merged)
{
  const char *k = (const char *)key->data.scalar.value;
  size_t      klen, plen = w->plen;
  char        ex[48];
  int         ierr = 0;

  if (!strcmp(k, "<<")) { /* merge key: the mapping(s) it names, under the same prefix */
    int line = merged ? merged : (int)key->start_mark.line + 1;
    if (val->type == YAML_MAPPING_NODE) return Mapping(w, val, depth + 1, line);
    if (val->type != YAML_SEQUENCE_NODE) return Fail(w, &val->start_mark, "a merge key '<<' takes a mapping or a list of mappings");
    for (yaml_node_item_t *it = val->data.sequence.items.start; it < val->data.sequence.items.top; it++) {
      yaml_node_t *m = yaml_document_get_node(w->doc, *it);
      if (!m || m->type != YAML_MAPPING_NODE) return Fail(w, m ? &m->start_mark : &val->start_mark, "a merge key '<<' takes a mapping or a list of mappings");
      if (Mapping(w, m, depth + 1, line)) return 1;
    }
    return 0;
  }
  if (!strncmp(k, "$$", 2) && !strstr(k + 1, "$$")) { /* PETSc skips "$$" keys (a place for anchors), except !include
                                                          (its test finds the last "$$": "$$$" and "$$a$$" are options) */
    if (val->tag && strstr((const char *)val->tag, "include")) return Fail(w, &val->start_mark, "'!include' is not supported: put every option in the case file");
    return 0;
  }
  if (CheckKey(w, key) || CheckTag(w, val)) return 1;
  klen = strlen(k);
  if (!plen && (!strcasecmp(k, "h") || !strcasecmp(k, "help"))) return Fail(w, &key->start_mark, "'%s' belongs on the command line (-help)", k);
  if (plen + klen > FLX_CASE_MAX_NAME) return Fail(w, &key->start_mark, "option name '%s...' is longer than %d characters", Excerpt(w->prefix[0] ? w->prefix : k, ex), FLX_CASE_MAX_NAME);
  memcpy(w->prefix + plen, k, klen + 1);
  if (val->type == YAML_SCALAR_NODE) {
    const char *s;
    ierr = ScalarValue(w, val, &s) || AddOption(w, w->prefix, s, &key->start_mark, merged);
  } else if (val->type == YAML_SEQUENCE_NODE) {
    char *s = NULL;
    ierr    = SequenceValue(w, val, &s) || AddOption(w, w->prefix, s, &key->start_mark, merged);
    free(s);
  } else if (val->type == YAML_MAPPING_NODE) {
    if (depth + 1 > FLX_CASE_MAX_DEPTH)
      ierr = Fail(w, &key->start_mark, "mappings nested deeper than %d levels", FLX_CASE_MAX_DEPTH);
    else {
      w->prefix[plen + klen]     = '_';
      w->prefix[plen + klen + 1] = 0;
      w->plen                    = plen + klen + 1;
      ierr                       = Mapping(w, val, depth + 1, merged);
    }
  } else
    ierr = Fail(w, &val->start_mark, "unsupported value");
  w->plen         = plen;
  w->prefix[plen] = 0;
  return ierr;
}

static int Mapping(Walk *w, yaml_node_t *map, int depth, int merged)
{
  if (depth > 2 * FLX_CASE_MAX_DEPTH) return Fail(w, &map->start_mark, "mappings nested (or merged into each other) deeper than %d levels", 2 * FLX_CASE_MAX_DEPTH);
  for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
    yaml_node_t *key = yaml_document_get_node(w->doc, p->key);
    yaml_node_t *val = yaml_document_get_node(w->doc, p->value);
    if (!key || !val) return Fail(w, &map->start_mark, "corrupt YAML document");
    if (++w->visited > FLX_CASE_MAX_NODES) return Fail(w, &key->start_mark, "the case file expands to more than %d keys (aliases?)", FLX_CASE_MAX_NODES);
    if (key->type != YAML_SCALAR_NODE) return Fail(w, &key->start_mark, "a key must be a plain name, not a list or a mapping");
    if (Pair(w, key, val, depth, merged)) return 1;
  }
  return 0;
}

/* libyaml's message for a syntax error, with the position of the problem. */
static int SyntaxError(Walk *w, yaml_parser_t *p, const char *buf, size_t len)
{
  const char *problem = p->problem ? p->problem : "cannot be read";

  if (p->error == YAML_MEMORY_ERROR) return Fail(w, NULL, "out of memory reading the case file");
  if (p->error == YAML_READER_ERROR) { /* encoding: only an offset */
    yaml_mark_t m = {p->problem_offset, 0, 0};
    for (size_t k = 0; k < p->problem_offset && k < len; k++) {
      if (buf[k] == '\n') {
        m.line++;
        m.column = 0;
      } else
        m.column++;
    }
    return Fail(w, &m, "not a text file in UTF-8 (%s)", problem);
  }
  if (p->context && p->context_mark.line != p->problem_mark.line)
    return Fail(w, &p->problem_mark, "YAML syntax error: %s (%s at line %d)", problem, p->context, (int)p->context_mark.line + 1);
  if (p->context) return Fail(w, &p->problem_mark, "YAML syntax error: %s (%s)", problem, p->context);
  return Fail(w, &p->problem_mark, "YAML syntax error: %s", problem);
}

typedef struct {
  const FlxCaseOption *o;
  int                  k;
} Sorted;

static int CompareSorted(const void *a, const void *b)
{
  const Sorted *x = a, *y = b;
  int           c = strcasecmp(x->o->name, y->o->name);
  return c ? c : x->k - y->k;
}

/* Duplicates (names compared without case, as PETSc does). An explicit key may override one brought in earlier by
   a merge key (YAML and PETSc agree on that); any other repetition would be read differently, or is a slip. */
static int CheckDuplicates(Walk *w)
{
  FlxCaseFile *cf  = w->cf;
  Sorted      *s   = malloc((size_t)(cf->n ? cf->n : 1) * sizeof(*s));
  int          bad = -1, first = -1;

  if (!s) return Fail(w, NULL, "out of memory reading the case file");
  for (int k = 0; k < cf->n; k++) {
    s[k].o = &cf->opt[k];
    s[k].k = k;
  }
  qsort(s, (size_t)cf->n, sizeof(*s), CompareSorted);
  for (int k = 1; k < cf->n; k++) {
    const FlxCaseOption *a = s[k - 1].o, *b = s[k].o;
    if (strcasecmp(a->name, b->name)) continue;
    if (a->merged && !b->merged) continue;
    if (bad < 0 || s[k].k < bad) {
      bad   = s[k].k;
      first = s[k - 1].k;
    }
  }
  if (bad < 0) { /* keep the last of each name (an explicit key over a merged one), as PETSc does */
    char *drop = calloc((size_t)(cf->n ? cf->n : 1), 1);
    int   m    = 0;
    if (!drop) {
      free(s);
      return Fail(w, NULL, "out of memory reading the case file");
    }
    for (int k = 1; k < cf->n; k++)
      if (!strcasecmp(s[k - 1].o->name, s[k].o->name)) drop[s[k - 1].k] = 1;
    for (int k = 0; k < cf->n; k++) {
      if (drop[k]) {
        free(cf->opt[k].name);
        free(cf->opt[k].value);
      } else
        cf->opt[m++] = cf->opt[k];
    }
    cf->n = m;
    free(drop);
  }
  free(s);
  if (bad >= 0) {
    const FlxCaseOption *a = &cf->opt[first], *b = &cf->opt[bad];
    yaml_mark_t          m = {0, (size_t)((b->merged ? b->merged : b->line) - 1), b->merged ? 0 : (size_t)(b->column - 1)};
    if (b->merged) return Fail(w, &m, "'%s' is set at line %d and again by this merge key '<<' (from line %d): YAML keeps the explicit key, PETSc would take the merged one; put '<<' first", b->name, a->line, b->line);
    return Fail(w, &m, "'%s' is set twice (also at line %d%s): remove one", b->name, a->line, strcmp(a->name, b->name) ? ", option names ignore case" : "");
  }
  return 0;
}

int FlxCaseFileParse(const char *buf, size_t len, const char *fname, FlxCaseFile *cf, char *err, size_t errlen)
{
  yaml_parser_t parser;
  Walk          w;
  int           ierr = 0;

  memset(cf, 0, sizeof(*cf));
  memset(&w, 0, sizeof(w));
  w.cf     = cf;
  w.fname  = fname ? fname : "case file";
  w.err    = err;
  w.errlen = errlen;
  if (errlen) err[0] = 0;
  cf->file = strdup(w.fname);
  if (!cf->file) return Fail(&w, NULL, "out of memory reading the case file");
  if (len > FLX_CASE_MAX_BYTES) {
    ierr = Fail(&w, NULL, "%zu bytes: a case file is at most %d MB", len, FLX_CASE_MAX_BYTES >> 20);
    goto out;
  }
  {
    const char *nul = memchr(buf, 0, len);
    if (nul) {
      yaml_mark_t m = {0, 0, 0};
      for (const char *p = buf; p < nul; p++) {
        if (*p == '\n') {
          m.line++;
          m.column = 0;
        } else
          m.column++;
      }
      ierr = Fail(&w, &m, "NUL byte: not a text file (PETSc would stop reading here)");
      goto out;
    }
  }
  if (!yaml_parser_initialize(&parser)) {
    ierr = Fail(&w, NULL, "out of memory reading the case file");
    goto out;
  }
  yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
  for (;;) { /* every document, as PETSc reads them: until one has no root */
    yaml_document_t doc;
    yaml_node_t    *root;
    if (!yaml_parser_load(&parser, &doc)) {
      ierr = SyntaxError(&w, &parser, buf, len);
      break;
    }
    root = yaml_document_get_root_node(&doc);
    if (!root) {
      yaml_document_delete(&doc);
      break;
    }
    w.doc = &doc;
    if (root->type == YAML_SCALAR_NODE && !root->data.scalar.value[0])
      ierr = 0; /* an empty document */
    else if (root->type != YAML_MAPPING_NODE)
      ierr = Fail(&w, &root->start_mark, "a case file is a mapping of keys to values (key: value), not a %s", root->type == YAML_SEQUENCE_NODE ? "list" : "plain value");
    else
      ierr = Mapping(&w, root, 0, 0);
    yaml_document_delete(&doc);
    if (ierr) break;
  }
  yaml_parser_delete(&parser);
  if (!ierr) ierr = CheckDuplicates(&w);
out:
  if (ierr) FlxCaseFileFree(cf);
  return ierr;
}

void FlxCaseFileFree(FlxCaseFile *cf)
{
  if (!cf) return;
  for (int k = 0; k < cf->n; k++) {
    free(cf->opt[k].name);
    free(cf->opt[k].value);
  }
  free(cf->opt);
  free(cf->file);
  memset(cf, 0, sizeof(*cf));
}

const FlxCaseOption *FlxCaseFileFind(const FlxCaseFile *cf, const char *name)
{
  if (!cf || !name) return NULL;
  if (name[0] == '-') name++;
  for (int k = cf->n - 1; k >= 0; k--)
    if (!strcasecmp(cf->opt[k].name, name)) return &cf->opt[k];
  return NULL;
}
