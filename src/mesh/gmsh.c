/* Gmsh MSH 4.1 ASCII reader (rank 0). Reads nodes, 2-node lines, 3-node triangles, 4-node quads and
   points, and the physical groups with their names. Every error names the file, the line and what was expected. */
#include <flexure/private/meshimpl.h>
#include <ctype.h>

typedef struct {
  FILE       *fp;
  const char *file;
  char        line[4096];
  char       *pos;
  PetscInt    lineno;
  PetscBool   eof, failed;
  char        err[1024];
  const char *section; /* current section, for messages */
} Lexer;

#define LEXFAIL(lx, ...)                                                                                \
  do {                                                                                                  \
    if (!(lx)->failed) {                                                                                \
      char _m[768];                                                                                     \
      snprintf(_m, sizeof(_m), __VA_ARGS__);                                                            \
      snprintf((lx)->err, sizeof((lx)->err), "%s:%" PetscInt_FMT ": %s", (lx)->file, (lx)->lineno, _m); \
      (lx)->failed = PETSC_TRUE;                                                                        \
    }                                                                                                   \
    return 0;                                                                                           \
  } while (0)

/* Next whitespace-separated token, reading lines as needed. Returns NULL at end of file. */
static const char *NextToken(Lexer *lx)
{
  static char tok[512];
  for (;;) {
    if (lx->pos) {
      while (*lx->pos && isspace((unsigned char)*lx->pos))
        lx->pos++;
      if (*lx->pos) {
        size_t n = 0;
        if (*lx->pos == '"') { /* quoted name */
          lx->pos++;
          while (*lx->pos && *lx->pos != '"' && n < sizeof(tok) - 1)
            tok[n++] = *lx->pos++;
          if (*lx->pos == '"') lx->pos++;
        } else {
          while (*lx->pos && !isspace((unsigned char)*lx->pos) && n < sizeof(tok) - 1)
            tok[n++] = *lx->pos++;
        }
        tok[n] = 0;
        return tok;
      }
    }
    if (!fgets(lx->line, sizeof(lx->line), lx->fp)) {
      lx->eof = PETSC_TRUE;
      lx->pos = NULL;
      return NULL;
    }
    lx->lineno++;
    lx->pos = lx->line;
  }
}

static PetscErrorCode ExpectInt(Lexer *lx, const char *what, PetscInt *v)
{
  const char *t;
  char       *end;
  long long   val;

  PetscFunctionBegin;
  if (lx->failed) PetscFunctionReturn(0);
  t = NextToken(lx);
  if (!t) LEXFAIL(lx, "unexpected end of file in section %s while reading %s (is the file truncated?)", lx->section, what);
  val = strtoll(t, &end, 10);
  if (*end) LEXFAIL(lx, "expected %s (an integer) in section %s, found '%s'", what, lx->section, t);
  *v = (PetscInt)val;
  PetscFunctionReturn(0);
}

static PetscErrorCode ExpectReal(Lexer *lx, const char *what, PetscReal *v)
{
  const char *t;
  char       *end;

  PetscFunctionBegin;
  if (lx->failed) PetscFunctionReturn(0);
  t = NextToken(lx);
  if (!t) LEXFAIL(lx, "unexpected end of file in section %s while reading %s (is the file truncated?)", lx->section, what);
  *v = (PetscReal)strtod(t, &end);
  if (*end) LEXFAIL(lx, "expected %s (a number) in section %s, found '%s'", what, lx->section, t);
  PetscFunctionReturn(0);
}

static PetscErrorCode ExpectWord(Lexer *lx, const char *word)
{
  const char *t;
  PetscBool   eq;

  PetscFunctionBegin;
  if (lx->failed) PetscFunctionReturn(0);
  t = NextToken(lx);
  if (!t) LEXFAIL(lx, "unexpected end of file: expected '%s' (is the file truncated?)", word);
  PetscCall(PetscStrcmp(t, word, &eq));
  if (!eq) LEXFAIL(lx, "expected '%s', found '%s'", word, t);
  PetscFunctionReturn(0);
}

/* Physical tags of the entities, per dimension: entity tag -> its physical tags (CSR) */
typedef struct {
  PetscInt  n[4];
  PetscInt *tag[4], *pptr[4], *ptags[4];
} Entities;

static PetscErrorCode ReadEntities(Lexer *lx, Entities *ent)
{
  PetscFunctionBegin;
  for (int d = 0; d < 4; d++)
    PetscCall(ExpectInt(lx, "number of entities", &ent->n[d]));
  if (lx->failed) PetscFunctionReturn(0);
  for (int d = 0; d < 4; d++) {
    PetscInt cap = ent->n[d] + 1;
    PetscCall(PetscMalloc2(ent->n[d] + 1, &ent->tag[d], ent->n[d] + 1, &ent->pptr[d]));
    PetscCall(PetscMalloc1(cap, &ent->ptags[d]));
    ent->pptr[d][0] = 0;
    for (PetscInt e = 0; e < ent->n[d] && !lx->failed; e++) {
      PetscReal x;
      PetscInt  nphys, nb, tmp;
      PetscCall(ExpectInt(lx, "entity tag", &ent->tag[d][e]));
      for (int k = 0; k < (d == 0 ? 3 : 6); k++)
        PetscCall(ExpectReal(lx, "entity coordinate", &x));
      PetscCall(ExpectInt(lx, "number of physical tags", &nphys));
      if (lx->failed) break;
      if (nphys < 0 || nphys > 1000) LEXFAIL(lx, "implausible number of physical tags %" PetscInt_FMT, nphys);
      if (ent->pptr[d][e] + nphys > cap) {
        PetscInt *t;
        cap = 2 * (ent->pptr[d][e] + nphys);
        PetscCall(PetscMalloc1(cap, &t));
        PetscCall(PetscArraycpy(t, ent->ptags[d], ent->pptr[d][e]));
        PetscCall(PetscFree(ent->ptags[d]));
        ent->ptags[d] = t;
      }
      for (PetscInt k = 0; k < nphys; k++)
        PetscCall(ExpectInt(lx, "physical tag", &ent->ptags[d][ent->pptr[d][e] + k]));
      ent->pptr[d][e + 1] = ent->pptr[d][e] + nphys;
      if (d > 0) {
        PetscCall(ExpectInt(lx, "number of bounding entities", &nb));
        for (PetscInt k = 0; k < nb; k++)
          PetscCall(ExpectInt(lx, "bounding entity tag", &tmp));
      }
    }
  }
  PetscCall(ExpectWord(lx, "$EndEntities"));
  PetscFunctionReturn(0);
}

/* Physical tags of entity (dim, tag): count and pointer (0 when it is in no physical group). */
static PetscInt EntityPhysical(const Entities *ent, PetscInt dim, PetscInt tag, const PetscInt **tags)
{
  for (PetscInt e = 0; e < ent->n[dim]; e++)
    if (ent->tag[dim][e] == tag) {
      *tags = ent->ptags[dim] + ent->pptr[dim][e];
      return ent->pptr[dim][e + 1] - ent->pptr[dim][e];
    }
  return 0;
}

/* Append (node, group) to the point-membership list, growing it. */
static PetscErrorCode AddMember(PetscInt **pts, PetscInt **ptsg, PetscInt *n, PetscInt *cap, PetscInt node, PetscInt g)
{
  PetscFunctionBegin;
  if (*n == *cap) {
    PetscInt *a, *b;
    *cap = 2 * *cap + 16;
    PetscCall(PetscMalloc2(*cap, &a, *cap, &b));
    PetscCall(PetscArraycpy(a, *pts, *n));
    PetscCall(PetscArraycpy(b, *ptsg, *n));
    PetscCall(PetscFree2(*pts, *ptsg));
    *pts  = a;
    *ptsg = b;
  }
  (*pts)[*n]      = node;
  (*ptsg)[(*n)++] = g;
  PetscFunctionReturn(0);
}

/* group index of physical (dim, tag), adding an unnamed group when needed */
static PetscErrorCode GroupOf(FlxSerialMesh *sm, PetscInt *pdim, PetscInt *ptag, PetscInt nnamed, PetscInt dim, PetscInt tag, PetscInt *g)
{
  char name[FLX_NAME_LEN];

  PetscFunctionBegin;
  for (PetscInt k = 0; k < nnamed; k++)
    if (pdim[k] == dim && ptag[k] == tag) {
      *g = k;
      PetscFunctionReturn(0);
    }
  PetscCall(PetscSNPrintf(name, sizeof(name), "physical_%" PetscInt_FMT "_%" PetscInt_FMT, dim, tag));
  for (PetscInt k = nnamed; k < sm->ngroups; k++) {
    PetscBool eq;
    PetscCall(PetscStrcmp(sm->gname[k], name, &eq));
    if (eq) {
      *g = k;
      PetscFunctionReturn(0);
    }
  }
  PetscCall(FlxSerialMeshAddGroup(sm, name, dim, g));
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadNodes(Lexer *lx, FlxSerialMesh *sm, PetscInt **tagmap, PetscInt *maxtag)
{
  PetscInt nblocks, nnodes, mintag, n = 0;

  PetscFunctionBegin;
  PetscCall(ExpectInt(lx, "number of node blocks", &nblocks));
  PetscCall(ExpectInt(lx, "number of nodes", &nnodes));
  PetscCall(ExpectInt(lx, "minimum node tag", &mintag));
  PetscCall(ExpectInt(lx, "maximum node tag", maxtag));
  if (lx->failed) PetscFunctionReturn(0);
  if (nnodes < 0 || *maxtag < 0 || *maxtag > 100000000 || *maxtag < nnodes - 1) LEXFAIL(lx, "implausible node count %" PetscInt_FMT " or maximum tag %" PetscInt_FMT, nnodes, *maxtag);
  PetscCall(PetscMalloc1(3 * nnodes, &sm->xyz));
  PetscCall(PetscMalloc1(*maxtag + 1, tagmap));
  for (PetscInt i = 0; i <= *maxtag; i++)
    (*tagmap)[i] = -1;
  sm->nnodes = nnodes;
  for (PetscInt b = 0; b < nblocks && !lx->failed; b++) {
    PetscInt edim, etag, param, nb, *tags;
    PetscCall(ExpectInt(lx, "entity dimension", &edim));
    PetscCall(ExpectInt(lx, "entity tag", &etag));
    PetscCall(ExpectInt(lx, "parametric flag", &param));
    PetscCall(ExpectInt(lx, "number of nodes in block", &nb));
    if (lx->failed) break;
    if (n + nb > nnodes) LEXFAIL(lx, "node blocks hold more nodes than the %" PetscInt_FMT " announced", nnodes);
    if (param) LEXFAIL(lx, "parametric node coordinates are not supported: save the mesh without them (Mesh.SaveParametric = 0)");
    PetscCall(PetscMalloc1(nb, &tags));
    for (PetscInt i = 0; i < nb; i++) {
      PetscCall(ExpectInt(lx, "node tag", &tags[i]));
      if (lx->failed) break;
      if (tags[i] < 1 || tags[i] > *maxtag) {
        PetscCall(PetscFree(tags));
        LEXFAIL(lx, "node tag %" PetscInt_FMT " is outside [1, %" PetscInt_FMT "] announced in the header", tags[i], *maxtag);
      }
      (*tagmap)[tags[i]] = n + i;
    }
    for (PetscInt i = 0; i < nb; i++)
      for (int c = 0; c < 3; c++)
        PetscCall(ExpectReal(lx, "node coordinate", &sm->xyz[3 * (n + i) + c]));
    PetscCall(PetscFree(tags));
    n += nb;
  }
  if (!lx->failed && n != nnodes) LEXFAIL(lx, "found %" PetscInt_FMT " nodes but the header announced %" PetscInt_FMT, n, nnodes);
  PetscCall(ExpectWord(lx, "$EndNodes"));
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadElements(Lexer *lx, FlxSerialMesh *sm, const Entities *ent, PetscInt *pdim, PetscInt *ptag, PetscInt nnamed, const PetscInt *tagmap, PetscInt maxtag)
{
  PetscInt  nblocks, nelem, mintag, maxetag, nc = 0, nconn = 0, nread = 0;
  PetscInt *pts = NULL, npts = 0, *ptsg = NULL, cap = 0;

  PetscFunctionBegin;
  PetscCall(ExpectInt(lx, "number of element blocks", &nblocks));
  PetscCall(ExpectInt(lx, "number of elements", &nelem));
  PetscCall(ExpectInt(lx, "minimum element tag", &mintag));
  PetscCall(ExpectInt(lx, "maximum element tag", &maxetag));
  if (lx->failed) PetscFunctionReturn(0);
  if (!tagmap) LEXFAIL(lx, "$Elements before $Nodes");
  if (nelem < 0) LEXFAIL(lx, "negative element count");
  PetscCall(PetscMalloc4(nelem, &sm->type, nelem + 1, &sm->cptr, 4 * nelem, &sm->conn, nelem, &sm->group));
  cap = nelem + 16;
  PetscCall(PetscMalloc2(cap, &pts, cap, &ptsg));
  sm->cptr[0] = 0;
  for (PetscInt b = 0; b < nblocks && !lx->failed; b++) {
    PetscInt        edim, etag, gtype, nb, nn, nphys, g = -1, gextra[8], nextra = 0;
    const PetscInt *phys = NULL;
    FlxCellType     ct   = FLX_CELL_LINE2;
    PetscCall(ExpectInt(lx, "entity dimension", &edim));
    PetscCall(ExpectInt(lx, "entity tag", &etag));
    PetscCall(ExpectInt(lx, "element type", &gtype));
    PetscCall(ExpectInt(lx, "number of elements in block", &nb));
    if (lx->failed) break;
    switch (gtype) {
    case 1:
      ct = FLX_CELL_LINE2;
      nn = 2;
      break;
    case 2:
      ct = FLX_CELL_TRI3;
      nn = 3;
      break;
    case 3:
      ct = FLX_CELL_QUAD4;
      nn = 4;
      break;
    case 15:
      nn = 1;
      break;
    default:
      LEXFAIL(lx, "unknown or unsupported element type %" PetscInt_FMT " (flexure reads Gmsh types 1 = 2-node line, 2 = 3-node triangle, 3 = 4-node quad, 15 = point; use first-order elements)", gtype);
    }
    if (edim < 0 || edim > 3) LEXFAIL(lx, "entity dimension %" PetscInt_FMT " is not in 0..3", edim);
    if (nb < 0 || nread + nb > nelem) LEXFAIL(lx, "element blocks hold more elements than the %" PetscInt_FMT " announced in the header", nelem);
    nread += nb;
    /* an entity in several physical groups: its cells take the first one (sections, element groups);
       their nodes belong to all of them (boundary conditions, loads, probes) */
    nphys = EntityPhysical(ent, edim, etag, &phys);
    if (nphys > 0) PetscCall(GroupOf(sm, pdim, ptag, nnamed, edim, phys[0], &g));
    for (PetscInt k = 1; k < nphys && nextra < 8; k++)
      PetscCall(GroupOf(sm, pdim, ptag, nnamed, edim, phys[k], &gextra[nextra++]));
    for (PetscInt e = 0; e < nb && !lx->failed; e++) {
      PetscInt etagv, nodes[4];
      PetscCall(ExpectInt(lx, "element tag", &etagv));
      for (PetscInt k = 0; k < nn; k++) {
        PetscCall(ExpectInt(lx, "element node tag", &nodes[k]));
        if (lx->failed) break;
        if (nodes[k] < 1 || nodes[k] > maxtag || tagmap[nodes[k]] < 0) LEXFAIL(lx, "element %" PetscInt_FMT " refers to node %" PetscInt_FMT ", which is not defined in $Nodes", etagv, nodes[k]);
      }
      if (lx->failed) break;
      if (g < 0) continue; /* outside every physical group: not part of the model */
      for (PetscInt x = 0; x < nextra; x++)
        for (PetscInt k = 0; k < nn; k++)
          PetscCall(AddMember(&pts, &ptsg, &npts, &cap, tagmap[nodes[k]], gextra[x]));
      if (gtype == 15) {
        PetscCall(AddMember(&pts, &ptsg, &npts, &cap, tagmap[nodes[0]], g));
        continue;
      }
      sm->type[nc]  = ct;
      sm->group[nc] = g;
      for (PetscInt k = 0; k < nn; k++)
        sm->conn[nconn++] = tagmap[nodes[k]];
      sm->cptr[++nc] = nconn;
    }
  }
  sm->ncells = nc;
  if (!lx->failed && nread != nelem) LEXFAIL(lx, "found %" PetscInt_FMT " elements but the header announced %" PetscInt_FMT, nread, nelem);
  PetscCall(ExpectWord(lx, "$EndElements"));
  if (!lx->failed) { /* point groups: CSR of their nodes */
    PetscCall(PetscCalloc1(sm->ngroups + 1, &sm->gpptr));
    for (PetscInt i = 0; i < npts; i++)
      sm->gpptr[ptsg[i] + 1]++;
    for (PetscInt g = 0; g < sm->ngroups; g++)
      sm->gpptr[g + 1] += sm->gpptr[g];
    PetscCall(PetscMalloc1(npts + 1, &sm->gpnodes));
    {
      PetscInt *off;
      PetscCall(PetscMalloc1(sm->ngroups, &off));
      for (PetscInt g = 0; g < sm->ngroups; g++)
        off[g] = sm->gpptr[g];
      for (PetscInt i = 0; i < npts; i++)
        sm->gpnodes[off[ptsg[i]]++] = pts[i];
      PetscCall(PetscFree(off));
    }
  }
  PetscCall(PetscFree2(pts, ptsg));
  PetscFunctionReturn(0);
}

static PetscErrorCode SkipSection(Lexer *lx, const char *name)
{
  char        endname[256];
  const char *t;
  PetscBool   eq = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(endname, sizeof(endname), "$End%s", name + 1));
  while (!eq && (t = NextToken(lx)))
    PetscCall(PetscStrcmp(t, endname, &eq));
  if (!eq) LEXFAIL(lx, "unexpected end of file: section %s has no %s (is the file truncated?)", name, endname);
  PetscFunctionReturn(0);
}

/* Read the file into sm. On a user error, sets err (file:line: message) and returns 0 with *failed set. */
static PetscErrorCode ReadGmshFile(Lexer *lx, FlxSerialMesh *sm)
{
  Entities    ent  = {{0}, {0}, {0}, {0}};
  PetscInt   *pdim = NULL, *ptag = NULL, nnamed = 0, *tagmap = NULL, maxtag = 0;
  PetscBool   haveFmt = PETSC_FALSE, haveNodes = PETSC_FALSE, haveElems = PETSC_FALSE;
  const char *t;

  PetscFunctionBegin;
  while (!lx->failed && (t = NextToken(lx))) {
    char sec[256];
    PetscCall(PetscStrncpy(sec, t, sizeof(sec)));
    lx->section = sec;
    if (!strcmp(sec, "$MeshFormat")) {
      PetscReal ver;
      PetscInt  ftype, dsize;
      PetscCall(ExpectReal(lx, "format version", &ver));
      PetscCall(ExpectInt(lx, "file type", &ftype));
      PetscCall(ExpectInt(lx, "data size", &dsize));
      if (lx->failed) break;
      if (ver < 4.1 - 1e-9 || ver >= 5) LEXFAIL(lx, "MSH format version %g is not supported: save as MSH 4.1 (gmsh -format msh41)", (double)ver);
      if (ftype != 0) LEXFAIL(lx, "binary MSH files are not supported: save as ASCII (Mesh.Binary = 0)");
      PetscCall(ExpectWord(lx, "$EndMeshFormat"));
      haveFmt = PETSC_TRUE;
    } else if (!strcmp(sec, "$PhysicalNames")) {
      PetscInt n;
      PetscCall(ExpectInt(lx, "number of physical names", &n));
      if (lx->failed) break;
      PetscCall(PetscMalloc2(n, &pdim, n, &ptag));
      for (PetscInt k = 0; k < n && !lx->failed; k++) {
        const char *name;
        PetscInt    g;
        PetscCall(ExpectInt(lx, "physical dimension", &pdim[k]));
        PetscCall(ExpectInt(lx, "physical tag", &ptag[k]));
        if (lx->failed) break;
        name = NextToken(lx);
        if (!name) LEXFAIL(lx, "unexpected end of file in $PhysicalNames (is the file truncated?)");
        PetscCall(FlxSerialMeshAddGroup(sm, name, pdim[k], &g));
      }
      nnamed = n;
      PetscCall(ExpectWord(lx, "$EndPhysicalNames"));
    } else if (!strcmp(sec, "$Entities")) {
      PetscCall(ReadEntities(lx, &ent));
    } else if (!strcmp(sec, "$Nodes")) {
      if (!haveFmt) LEXFAIL(lx, "$Nodes before $MeshFormat: not a Gmsh MSH 4.1 file");
      PetscCall(ReadNodes(lx, sm, &tagmap, &maxtag));
      haveNodes = PETSC_TRUE;
    } else if (!strcmp(sec, "$Elements")) {
      PetscCall(ReadElements(lx, sm, &ent, pdim, ptag, nnamed, tagmap, maxtag));
      haveElems = PETSC_TRUE;
    } else if (sec[0] == '$') {
      PetscCall(SkipSection(lx, sec));
    } else
      LEXFAIL(lx, "expected a section header such as $Nodes, found '%s'", sec);
  }
  if (!lx->failed && !haveFmt) LEXFAIL(lx, "no $MeshFormat section: not a Gmsh MSH 4.1 file");
  if (!lx->failed && (!haveNodes || !haveElems)) LEXFAIL(lx, "the file has no %s section (is the file truncated?)", haveNodes ? "$Elements" : "$Nodes");
  if (!lx->failed && sm->ncells == 0) LEXFAIL(lx, "no elements in any physical group: define physical groups in the .geo file");
  for (int d = 0; d < 4; d++) {
    PetscCall(PetscFree2(ent.tag[d], ent.pptr[d]));
    PetscCall(PetscFree(ent.ptags[d]));
  }
  PetscCall(PetscFree2(pdim, ptag));
  PetscCall(PetscFree(tagmap));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSerialMeshReadGmsh(const char file[], FlxSerialMesh *sm)
{
  Lexer lx;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&lx, sizeof(lx)));
  lx.file    = file;
  lx.section = "(start of file)";
  lx.fp      = fopen(file, "r");
  PetscCheck(lx.fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot open mesh file %s (-mesh_file)", file);
  PetscCall(ReadGmshFile(&lx, sm));
  fclose(lx.fp);
  PetscCheck(!lx.failed, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s", lx.err);
  PetscFunctionReturn(0);
}
