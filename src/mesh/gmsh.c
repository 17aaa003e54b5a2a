/* Gmsh mesh files (rank 0): MSH 4.1 and MSH 2.2, ASCII or binary, told apart by $MeshFormat. This file opens
   the file (regular files only, read whole into memory), reads $MeshFormat and $PhysicalNames and dispatches
   the other sections to mshsections.c; sections flexure does not use are skipped. Reads nodes (any
   positive tags, in any order), 2-node lines, 3-node triangles, 4-node quadrangles and points, and the
   physical groups with their names. Every error names the file and the line (binary data: the byte offset)
   and says what was expected and what was found. See msh.h. */
#include "msh.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Tokens, numbers and binary values, each checked: a token may be of any length, a number garbage or out of
   range, a count beyond what the bytes left can hold. */
const char *FlxMshWhere(FlxMshReader *r)
{
  if (r->binary)
    snprintf(r->where, sizeof(r->where), "%s: byte %zu (%s)", r->file, r->itempos, r->section);
  else
    snprintf(r->where, sizeof(r->where), "%s:%" PetscInt_FMT, r->file, r->itemline);
  return r->where;
}

/* A printable excerpt of a token for a message: at most 40 characters, non-printable bytes as '?'. */
const char *FlxMshFound(FlxMshReader *r, const unsigned char *t, size_t len)
{
  size_t n = len < 40 ? len : 40, k;

  for (k = 0; k < n; k++)
    r->found[k] = (t[k] >= 32 && t[k] < 127) ? (char)t[k] : '?';
  r->found[k] = 0;
  if (len > n) snprintf(r->found + n, sizeof(r->found) - n, "... (%zu characters)", len);
  return r->found;
}

static inline PetscBool IsSpace(unsigned char c)
{
  return (PetscBool)(c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f');
}

/* Next whitespace-separated token. what: what is expected, for the message at the end of the file; NULL if
   the end of the file is allowed (then *t = NULL there). */
PetscErrorCode FlxMshToken(FlxMshReader *r, const char *what, const unsigned char **t, size_t *len)
{
  PetscFunctionBegin;
  while (r->pos < r->size && IsSpace(r->buf[r->pos])) {
    if (r->buf[r->pos] == '\n') r->line++;
    r->pos++;
  }
  r->itempos  = r->pos;
  r->itemline = r->line;
  *t          = NULL;
  *len        = 0;
  if (r->pos == r->size) {
    FlxMshCheck(r, !what, "expected %s in %s, found the end of the file (is the file truncated?)", what, r->section);
    PetscFunctionReturn(0);
  }
  *t = r->buf + r->pos;
  while (r->pos < r->size && !IsSpace(r->buf[r->pos]))
    r->pos++;
  *len = (size_t)(r->buf + r->pos - *t);
  PetscFunctionReturn(0);
}

PetscBool FlxMshTokenIs(const unsigned char *t, size_t len, const char *word)
{
  return (PetscBool)(t && len == strlen(word) && !memcmp(t, word, len));
}

PetscErrorCode FlxMshExpectWord(FlxMshReader *r, const char *word)
{
  const unsigned char *t;
  size_t               len;

  PetscFunctionBegin;
  PetscCall(FlxMshToken(r, word, &t, &len));
  FlxMshCheck(r, FlxMshTokenIs(t, len, word), "expected %s, found '%s'", word, FlxMshFound(r, t, len));
  PetscFunctionReturn(0);
}

/* Binary files: the rest of a header line (spaces, a carriage return) and its newline, after which the binary
   data begins. */
PetscErrorCode FlxMshEndLine(FlxMshReader *r)
{
  PetscFunctionBegin;
  while (r->pos < r->size && (r->buf[r->pos] == ' ' || r->buf[r->pos] == '\t' || r->buf[r->pos] == '\r'))
    r->pos++;
  r->itempos = r->pos;
  FlxMshCheck(r, r->pos < r->size, "expected a newline and binary data in %s, found the end of the file (is the file truncated?)", r->section);
  FlxMshCheck(r, r->buf[r->pos] == '\n', "expected a newline before the binary data in %s, found '%s'", r->section, FlxMshFound(r, r->buf + r->pos, 1));
  r->pos++;
  r->line++;
  PetscFunctionReturn(0);
}

/* Decimal integer of any length, optional sign; saturates at +-2^62 (beyond any range we accept). */
static PetscBool ParseInt(const unsigned char *t, size_t len, long long *v)
{
  size_t    k   = 0;
  long long val = 0, sign = 1;

  if (k < len && (t[k] == '+' || t[k] == '-')) sign = t[k++] == '-' ? -1 : 1;
  if (k == len) return PETSC_FALSE;
  for (; k < len; k++) {
    if (t[k] < '0' || t[k] > '9') return PETSC_FALSE;
    val = val < (1LL << 58) ? 10 * val + (t[k] - '0') : 1LL << 62;
  }
  *v = sign * val;
  return PETSC_TRUE;
}

static void RangeText(char *buf, size_t n, long long lo, long long hi)
{
  if (hi == LLONG_MAX)
    snprintf(buf, n, "an integer of at least %lld", lo);
  else
    snprintf(buf, n, "an integer in [%lld, %lld]", lo, hi);
}

/* Why a tag is out of range, when the range is that of tags. */
static const char *TagHint(long long v, long long lo, long long hi)
{
  if (hi == FLX_MSH_MAX_TAG && v > hi) return ": flexure's indices are 32-bit, so tags must stay below 2^31 (renumber the mesh)";
  if (lo >= 1 && v <= 0) return ": Gmsh tags start at 1";
  return "";
}

PetscErrorCode FlxMshAsciiInt(FlxMshReader *r, const char *what, long long lo, long long hi, long long *v)
{
  const unsigned char *t;
  size_t               len;
  char                 range[96];

  PetscFunctionBegin;
  PetscCall(FlxMshToken(r, what, &t, &len));
  FlxMshCheck(r, ParseInt(t, len, v), "expected %s (an integer) in %s, found '%s'", what, r->section, FlxMshFound(r, t, len));
  if (*v >= lo && *v <= hi) PetscFunctionReturn(0);
  RangeText(range, sizeof(range), lo, hi);
  FlxMshCheck(r, PETSC_FALSE, "expected %s in %s (%s), found %s%s", what, r->section, range, FlxMshFound(r, t, len), TagHint(*v, lo, hi));
  PetscFunctionReturn(0);
}

/* n bytes of binary data at the current position. */
static PetscErrorCode Bytes(FlxMshReader *r, size_t n, const char *what, const unsigned char **p)
{
  PetscFunctionBegin;
  r->itempos = r->pos;
  FlxMshCheck(r, r->size - r->pos >= n, "expected %s (%zu bytes) in %s, found %s (is the file truncated?)", what, n, r->section, r->size == r->pos ? "the end of the file" : "fewer bytes before the end of the file");
  *p = r->buf + r->pos;
  r->pos += n;
  PetscFunctionReturn(0);
}

static PetscErrorCode BinaryRange(FlxMshReader *r, const char *what, long long lo, long long hi, long long v, unsigned long long u, PetscBool isunsigned)
{
  char range[96];

  PetscFunctionBegin;
  if (isunsigned ? u <= (unsigned long long)LLONG_MAX && (long long)u >= lo && (long long)u <= hi : v >= lo && v <= hi) PetscFunctionReturn(0);
  RangeText(range, sizeof(range), lo, hi); /* only for the message: formatting is slow */
  if (isunsigned)
    FlxMshCheck(r, u <= (unsigned long long)LLONG_MAX && (long long)u >= lo && (long long)u <= hi, "expected %s in %s (%s), found %llu%s", what, r->section, range, u, TagHint(u > (unsigned long long)LLONG_MAX ? LLONG_MAX : (long long)u, lo, hi));
  else
    FlxMshCheck(r, v >= lo && v <= hi, "expected %s in %s (%s), found %lld%s", what, r->section, range, v, TagHint(v, lo, hi));
  PetscFunctionReturn(0);
}

/* An int of the file: a token in ASCII, 4 bytes in binary. */
PetscErrorCode FlxMshInt(FlxMshReader *r, const char *what, long long lo, long long hi, long long *v)
{
  const unsigned char *p;
  int                  i;

  PetscFunctionBegin;
  if (!r->binary) {
    PetscCall(FlxMshAsciiInt(r, what, lo, hi, v));
    PetscFunctionReturn(0);
  }
  PetscCall(Bytes(r, 4, what, &p));
  memcpy(&i, p, 4);
  *v = i;
  PetscCall(BinaryRange(r, what, lo, hi, *v, 0, PETSC_FALSE));
  PetscFunctionReturn(0);
}

/* A size_t of MSH 4.1: a token in ASCII, data-size bytes (4 or 8) in binary. */
PetscErrorCode FlxMshSize(FlxMshReader *r, const char *what, long long lo, long long hi, long long *v)
{
  const unsigned char *p;
  unsigned long long   u;

  PetscFunctionBegin;
  if (!r->binary) {
    PetscCall(FlxMshAsciiInt(r, what, lo, hi, v));
    PetscFunctionReturn(0);
  }
  PetscCall(Bytes(r, (size_t)r->sizet, what, &p));
  if (r->sizet == 8)
    memcpy(&u, p, 8);
  else {
    unsigned int u4;
    memcpy(&u4, p, 4);
    u = u4;
  }
  PetscCall(BinaryRange(r, what, lo, hi, 0, u, PETSC_TRUE));
  *v = (long long)u;
  PetscFunctionReturn(0);
}

/* A double of the file (8 bytes in binary); NaN and infinity are refused. */
PetscErrorCode FlxMshReal(FlxMshReader *r, const char *what, PetscReal *v)
{
  const unsigned char *t;
  size_t               len;
  double               d;

  PetscFunctionBegin;
  if (r->binary) {
    PetscCall(Bytes(r, 8, what, &t));
    memcpy(&d, t, 8);
    FlxMshCheck(r, isfinite(d), "expected %s (a finite number), found %g", what, d);
  } else {
    char *end;
    PetscCall(FlxMshToken(r, what, &t, &len));
    if (len + 1 > r->numcap) { /* a copy for strtod, sized to the token */
      PetscCall(PetscFree(r->num));
      r->numcap = 2 * len + 64;
      PetscCall(PetscMalloc1(r->numcap, &r->num));
    }
    memcpy(r->num, t, len);
    r->num[len] = 0;
    d           = strtod(r->num, &end);
    FlxMshCheck(r, len > 0 && end == r->num + len, "expected %s (a number) in %s, found '%s'", what, r->section, FlxMshFound(r, t, len));
    FlxMshCheck(r, isfinite(d), "expected %s (a finite number) in %s, found '%s'", what, r->section, FlxMshFound(r, t, len));
  }
  *v = (PetscReal)d;
  PetscFunctionReturn(0);
}

/* Check that the bytes left can hold count items of at least ascii_tokens tokens (two bytes each: a character
   and a separator) or binary_bytes bytes, before anything is allocated for them. */
PetscErrorCode FlxMshRoom(FlxMshReader *r, long long count, long long ascii_tokens, long long binary_bytes, const char *what)
{
  unsigned long long per = (unsigned long long)(r->binary ? binary_bytes : 2 * ascii_tokens), left = r->size - r->pos;

  PetscFunctionBegin;
  FlxMshCheck(r, count >= 0 && (unsigned long long)count <= left / per, "%s announces %lld %s, but the %llu bytes left in the file hold at most %llu (is the count garbled or the file truncated?)", r->section, count, what, left, left / per);
  PetscFunctionReturn(0);
}

/* Skip a section we do not read, up to its $End line. name: the section's token ("$Foo"). */
PetscErrorCode FlxMshSkipSection(FlxMshReader *r, const unsigned char *name, size_t len)
{
  char   end[256];
  size_t n, start = r->pos;

  PetscFunctionBegin;
  FlxMshCheck(r, len < sizeof(end) - 4, "expected a section name, found '%s'", FlxMshFound(r, name, len));
  memcpy(end, "$End", 4);
  memcpy(end + 4, name + 1, len - 1);
  n = len + 3;
  for (size_t p = r->pos; p + n <= r->size; p++) {
    const unsigned char *hit = memchr(r->buf + p, '$', r->size - p - n + 1);
    if (!hit) break;
    p = (size_t)(hit - r->buf);
    if (!memcmp(hit, end, n) && p > 0 && IsSpace(r->buf[p - 1]) && (p + n == r->size || IsSpace(r->buf[p + n]))) {
      for (size_t q = start; q < p; q++)
        r->line += r->buf[q] == '\n';
      r->pos = p + n;
      PetscFunctionReturn(0);
    }
  }
  end[n] = 0;
  FlxMshCheck(r, PETSC_FALSE, "section %s has no %s (is the file truncated?)", FlxMshFound(r, name, len), end);
  PetscFunctionReturn(0);
}

/* Hash tables: open addressing with linear probing, at most half full. */
static inline size_t Slot(long long key, size_t cap)
{
  unsigned long long x = (unsigned long long)key;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)(x & (cap - 1));
}

PetscErrorCode FlxMshHashInit(FlxMshHash *h, size_t n)
{
  size_t cap = 16;

  PetscFunctionBegin;
  while (cap < 2 * n)
    cap *= 2;
  PetscCall(FlxMshHashFree(h));
  PetscCall(PetscMalloc2(cap, &h->key, cap, &h->val));
  for (size_t i = 0; i < cap; i++)
    h->key[i] = -1;
  h->cap = cap;
  h->n   = 0;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMshHashFree(FlxMshHash *h)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(h->key, h->val));
  h->cap = h->n = 0;
  PetscFunctionReturn(0);
}

PetscBool FlxMshHashFind(const FlxMshHash *h, long long key, PetscInt *val)
{
  if (!h->cap) return PETSC_FALSE;
  for (size_t i = Slot(key, h->cap);; i = (i + 1) & (h->cap - 1)) {
    if (h->key[i] == key) {
      if (val) *val = h->val[i];
      return PETSC_TRUE;
    }
    if (h->key[i] < 0) return PETSC_FALSE;
  }
}

/* Add key -> val; when key is there already, leave it and return its value in *old with *added false. */
PetscErrorCode FlxMshHashAdd(FlxMshHash *h, long long key, PetscInt val, PetscInt *old, PetscBool *added)
{
  size_t i;

  PetscFunctionBegin;
  if (2 * (h->n + 1) > h->cap) {
    FlxMshHash big = {NULL, NULL, 0, 0};
    PetscCall(FlxMshHashInit(&big, h->n + 1 > h->cap ? h->n + 1 : h->cap));
    for (size_t k = 0; k < h->cap; k++)
      if (h->key[k] >= 0) {
        size_t j = Slot(h->key[k], big.cap);
        while (big.key[j] >= 0)
          j = (j + 1) & (big.cap - 1);
        big.key[j] = h->key[k];
        big.val[j] = h->val[k];
      }
    big.n = h->n;
    PetscCall(FlxMshHashFree(h));
    *h = big;
  }
  for (i = Slot(key, h->cap); h->key[i] >= 0; i = (i + 1) & (h->cap - 1))
    if (h->key[i] == key) {
      if (old) *old = h->val[i];
      *added = PETSC_FALSE;
      PetscFunctionReturn(0);
    }
  h->key[i] = key;
  h->val[i] = val;
  h->n++;
  *added = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* $MeshFormat: version file-type data-size, and in binary files the integer 1 (byte order). */
static PetscErrorCode ReadFormat(FlxMshReader *r)
{
  const unsigned char *t;
  size_t               len;
  long long            ftype, dsize;
  int                  one;

  PetscFunctionBegin;
  PetscCall(FlxMshToken(r, "$MeshFormat", &t, &len));
  FlxMshCheck(r, FlxMshTokenIs(t, len, "$MeshFormat"), "not a Gmsh mesh file: expected $MeshFormat at the start, found '%s'", FlxMshFound(r, t, len));
  r->section = "$MeshFormat";
  PetscCall(FlxMshToken(r, "the format version", &t, &len));
  if (FlxMshTokenIs(t, len, "4.1"))
    r->version = 41;
  else if (FlxMshTokenIs(t, len, "2.2"))
    r->version = 22;
  FlxMshCheck(r, r->version, "MSH format version '%s' is not read: flexure reads MSH 4.1 and 2.2, ASCII or binary (gmsh -format msh41 or -format msh22)", FlxMshFound(r, t, len));
  PetscCall(FlxMshAsciiInt(r, "the file type (0 ASCII, 1 binary)", 0, 1, &ftype));
  PetscCall(FlxMshAsciiInt(r, "the data size", 4, 8, &dsize));
  FlxMshCheck(r, dsize == 8 || (r->version == 41 && dsize == 4), "expected the data size %s in $MeshFormat, found %lld", r->version == 41 ? "4 or 8 (the bytes of a size_t)" : "8 (the bytes of a double)", dsize);
  r->sizet = (PetscInt)dsize;
  if (ftype) {
    const unsigned char *p;
    r->binary = PETSC_TRUE;
    PetscCall(FlxMshEndLine(r));
    r->itempos = r->pos;
    FlxMshCheck(r, r->size - r->pos >= 4, "expected the binary integer 1 after the header line of $MeshFormat, found the end of the file (is the file truncated?)");
    p = r->buf + r->pos;
    memcpy(&one, p, 4);
    r->pos += 4;
    FlxMshCheck(r, one != 0x01000000, "the binary file was written on a machine of the other byte order: save it as ASCII (gmsh without -bin)");
    FlxMshCheck(r, one == 1, "expected the binary integer 1 after the header line of $MeshFormat, found %d (is the file garbled?)", one);
  }
  PetscCall(FlxMshExpectWord(r, "$EndMeshFormat"));
  PetscFunctionReturn(0);
}

/* A quoted name on the current line. */
static PetscErrorCode QuotedName(FlxMshReader *r, const char **name, size_t *len)
{
  size_t start;

  PetscFunctionBegin;
  while (r->pos < r->size && (r->buf[r->pos] == ' ' || r->buf[r->pos] == '\t'))
    r->pos++;
  r->itempos  = r->pos;
  r->itemline = r->line;
  FlxMshCheck(r, r->pos < r->size, "expected a quoted physical name in $PhysicalNames, found the end of the file (is the file truncated?)");
  FlxMshCheck(r, r->buf[r->pos] == '"', "expected a quoted physical name (\"name\") in $PhysicalNames, found '%s'", FlxMshFound(r, r->buf + r->pos, 1));
  start = ++r->pos;
  while (r->pos < r->size && r->buf[r->pos] != '"' && r->buf[r->pos] != '\n')
    r->pos++;
  FlxMshCheck(r, r->pos < r->size && r->buf[r->pos] == '"', "the physical name '%s' has no closing quote on its line", FlxMshFound(r, r->buf + start, r->pos - start));
  *name = (const char *)r->buf + start;
  *len  = r->pos - start;
  r->pos++;
  PetscFunctionReturn(0);
}

/* $PhysicalNames (ASCII in binary files too): number, then dimension tag "name" per line. */
static PetscErrorCode ReadPhysicalNames(FlxMshReader *r)
{
  long long n, dim, tag;

  PetscFunctionBegin;
  FlxMshCheck(r, !r->nnamed, "a second $PhysicalNames section");
  FlxMshCheck(r, !r->sm->type, "$PhysicalNames after $Elements: the names must come first");
  PetscCall(FlxMshAsciiInt(r, "the number of physical names", 0, LLONG_MAX, &n));
  PetscCall(FlxMshRoom(r, n, 4, 8, "physical names"));
  for (long long k = 0; k < n; k++) {
    const char *name;
    size_t      len;
    PetscCall(FlxMshAsciiInt(r, "the dimension of a physical group (0 to 3)", 0, 3, &dim));
    PetscCall(FlxMshAsciiInt(r, "a physical tag", -FLX_MSH_MAX_TAG, FLX_MSH_MAX_TAG, &tag));
    FlxMshCheck(r, tag != 0, "expected a physical tag in $PhysicalNames, found 0 (physical tags are non-zero)");
    PetscCall(QuotedName(r, &name, &len));
    PetscCall(FlxMshAddNamedGroup(r, (PetscInt)dim, tag, name, len));
  }
  PetscCall(FlxMshExpectWord(r, "$EndPhysicalNames"));
  PetscFunctionReturn(0);
}

/* The sections after $MeshFormat, in any order that keeps names, entities and nodes before the elements. */
static PetscErrorCode ReadSections(FlxMshReader *r)
{
  const unsigned char *t;
  size_t               len;

  PetscFunctionBegin;
  for (;;) {
    r->section = "the file";
    PetscCall(FlxMshToken(r, NULL, &t, &len));
    if (!t) break;
    if (FlxMshTokenIs(t, len, "$PhysicalNames")) {
      r->section = "$PhysicalNames";
      PetscCall(ReadPhysicalNames(r));
    } else if (FlxMshTokenIs(t, len, "$Entities") && r->version == 41) {
      r->section = "$Entities";
      if (r->binary) PetscCall(FlxMshEndLine(r));
      PetscCall(FlxMsh41ReadEntities(r));
    } else if (FlxMshTokenIs(t, len, "$Nodes")) {
      r->section = "$Nodes";
      FlxMshCheck(r, !r->sm->xyz, "a second $Nodes section");
      if (r->version == 41 && r->binary) PetscCall(FlxMshEndLine(r));
      PetscCall(r->version == 41 ? FlxMsh41ReadNodes(r) : FlxMsh22ReadNodes(r));
    } else if (FlxMshTokenIs(t, len, "$Elements")) {
      r->section = "$Elements";
      FlxMshCheck(r, !r->sm->type, "a second $Elements section");
      FlxMshCheck(r, r->sm->xyz, "$Elements before $Nodes: the nodes must come first");
      if (r->version == 41 && r->binary) PetscCall(FlxMshEndLine(r));
      PetscCall(r->version == 41 ? FlxMsh41ReadElements(r) : FlxMsh22ReadElements(r));
    } else if (FlxMshTokenIs(t, len, "$PartitionedEntities")) {
      FlxMshCheck(r, PETSC_FALSE, "partitioned meshes are not read: save the mesh unpartitioned (flexure partitions it itself)");
    } else if (len > 1 && t[0] == '$' && !(len > 4 && !memcmp(t, "$End", 4))) {
      PetscCall(FlxMshSkipSection(r, t, len));
    } else {
      FlxMshCheck(r, PETSC_FALSE, "expected a section such as $Nodes or $Elements, found '%s'", FlxMshFound(r, t, len));
    }
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadAll(FlxMshReader *r)
{
  PetscFunctionBegin;
  PetscCall(ReadFormat(r));
  PetscCall(ReadSections(r));
  PetscCall(FlxMshFinish(r));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSerialMeshReadGmshBuffer(const char name[], const char buf[], size_t size, FlxSerialMesh *sm)
{
  FlxMshReader   r;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCheck(!sm->nnodes && !sm->ncells && !sm->ngroups && !sm->xyz, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "the serial mesh must be empty");
  PetscCall(PetscMemzero(&r, sizeof(r)));
  r.file     = name;
  r.buf      = (const unsigned char *)buf;
  r.size     = size;
  r.line     = 1;
  r.itemline = 1;
  r.section  = "the file";
  r.sm       = sm;
  ierr       = ReadAll(&r);
  PetscCall(FlxMshReaderDestroy(&r));
  PetscFunctionReturn(ierr);
}

PetscErrorCode FlxSerialMeshReadGmsh(const char file[], FlxSerialMesh *sm)
{
  struct stat    st;
  int            fd, err = 0;
  char          *buf;
  size_t         size, got = 0;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* O_NONBLOCK: a FIFO must not block the open */
  if (fd < 0) {
    char cwd[PETSC_MAX_PATH_LEN] = "", where[PETSC_MAX_PATH_LEN + 64] = "";
    err = errno;
    if (file[0] != '/' && getcwd(cwd, sizeof(cwd))) PetscCall(PetscSNPrintf(where, sizeof(where), " (a relative path is read from the directory flexure runs in, %s)", cwd));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot open the mesh file %s: %s%s", file, strerror(err), where);
  }
  if (fstat(fd, &st)) {
    err = errno;
    close(fd);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot read the mesh file %s: %s", file, strerror(err));
  }
  if (!S_ISREG(st.st_mode) || st.st_size == 0) {
    close(fd);
    PetscCheck(!S_ISDIR(st.st_mode), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "the mesh file %s is a directory: give a Gmsh .msh file", file);
    PetscCheck(!S_ISREG(st.st_mode), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "the mesh file %s is empty", file);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "the mesh file %s is not a regular file (a device, a FIFO or a socket): give a Gmsh .msh file", file);
  }
  size = (size_t)st.st_size;
  if (PetscMalloc1(size, &buf)) {
    close(fd);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM, "the mesh file %s (%zu bytes) does not fit in memory", file, size);
  }
  while (got < size) { /* a file that shrinks while it is read is read as far as it goes */
    ssize_t n = read(fd, buf + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) err = errno;
    if (n <= 0) break;
    got += (size_t)n;
  }
  close(fd);
  if (err) PetscCall(PetscFree(buf));
  PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "cannot read the mesh file %s: %s", file, strerror(err));
  ierr = FlxSerialMeshReadGmshBuffer(file, buf, got, sm);
  PetscCall(PetscFree(buf));
  PetscFunctionReturn(ierr);
}
