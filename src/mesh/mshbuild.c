/* Gmsh MSH readers: the serial mesh built from what the sections read. Nodes take their natural id in order
   of appearance, whatever their tags; cells of supported types in a physical group are kept in order of
   appearance with the group of their entity's first physical tag; the nodes of every cell of an entity also
   belong to its other physical groups, and point elements put their node in their groups. Groups are the
   named ones ($PhysicalNames, in file order) followed by the unnamed ones ("physical_DIM_TAG") in order of
   first use. See msh.h. */
#include "msh.h"
#include <string.h>

PetscErrorCode FlxMshReaderDestroy(FlxMshReader *r)
{
  PetscFunctionBegin;
  PetscCall(FlxMshHashFree(&r->nodes));
  PetscCall(FlxMshHashFree(&r->etags));
  PetscCall(PetscFree(r->dense));
  PetscCall(PetscFree(r->ebits));
  PetscCall(FlxMshHashFree(&r->groups));
  PetscCall(FlxMshHashFree(&r->names));
  PetscCall(FlxMshHashFree(&r->members));
  PetscCall(FlxMshHashFree(&r->ent));
  PetscCall(PetscFree(r->gname));
  PetscCall(PetscFree(r->gdim));
  PetscCall(PetscFree(r->gtag));
  PetscCall(PetscFree2(r->cgtype, r->centity));
  PetscCall(PetscFree(r->mnode));
  PetscCall(PetscFree(r->mgroup));
  PetscCall(PetscFree(r->ints));
  PetscCall(PetscFree(r->num));
  PetscCall(PetscFree(r->entptr));
  PetscCall(PetscFree(r->entphys));
  PetscFunctionReturn(0);
}

/* Grow a PetscInt array of *cap entries, n of them used, to hold at least need. */
static PetscErrorCode Grow(PetscInt **a, PetscInt n, PetscInt *cap, size_t need)
{
  PetscInt *b;
  size_t    c = (size_t)*cap;

  PetscFunctionBegin;
  if (need <= c) PetscFunctionReturn(0);
  PetscCheck(need <= (size_t)PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "the mesh needs more than 2^31 entries in one list, beyond flexure's 32-bit indices");
  while (c < need)
    c = 2 * c + 16;
  if (c > (size_t)PETSC_MAX_INT) c = (size_t)PETSC_MAX_INT;
  PetscCall(PetscMalloc1(c, &b));
  if (n) PetscCall(PetscArraycpy(b, *a, n));
  PetscCall(PetscFree(*a));
  *a   = b;
  *cap = (PetscInt)c;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMshGrowInts(FlxMshReader *r, size_t n)
{
  PetscInt cap = (PetscInt)r->intscap;

  PetscFunctionBegin;
  PetscCall(Grow(&r->ints, 0, &cap, n));
  r->intscap = (size_t)cap;
  PetscFunctionReturn(0);
}

/* Names must be unique, so a 62-bit FNV-1a hash of the name maps to its group (collisions probe on). */
static PetscErrorCode NameIndex(FlxMshReader *r, const char *name, PetscInt g, PetscInt *existing)
{
  const long long    mask = (1LL << 62) - 1;
  unsigned long long h    = 1469598103934665603ULL;
  long long          key;

  PetscFunctionBegin;
  for (const char *c = name; *c; c++)
    h = (h ^ (unsigned char)*c) * 1099511628211ULL;
  key = (long long)(h & (unsigned long long)mask);
  for (;;) {
    PetscInt  old;
    PetscBool added;
    PetscCall(FlxMshHashAdd(&r->names, key, g, &old, &added));
    *existing = added ? -1 : old;
    if (added || !strcmp(r->gname[old], name)) break;
    key = (key + 1) & mask;
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode NewGroup(FlxMshReader *r, PetscInt dim, long long tag, const char *name, PetscInt *g)
{
  PetscInt  existing = -1, old;
  PetscBool added;

  PetscFunctionBegin;
  if (r->ngroups == r->gcap) {
    char(*names)[FLX_NAME_LEN];
    PetscInt *dims, *tags, cap = 2 * r->gcap + 8;
    PetscCall(PetscMalloc1(cap, &names));
    PetscCall(PetscMalloc1(cap, &dims));
    PetscCall(PetscMalloc1(cap, &tags));
    if (r->ngroups) {
      PetscCall(PetscArraycpy(names, r->gname, r->ngroups));
      PetscCall(PetscArraycpy(dims, r->gdim, r->ngroups));
      PetscCall(PetscArraycpy(tags, r->gtag, r->ngroups));
    }
    PetscCall(PetscFree(r->gname));
    PetscCall(PetscFree(r->gdim));
    PetscCall(PetscFree(r->gtag));
    r->gname = names;
    r->gdim  = dims;
    r->gtag  = tags;
    r->gcap  = cap;
  }
  PetscCall(PetscStrncpy(r->gname[r->ngroups], name, FLX_NAME_LEN));
  r->gdim[r->ngroups] = dim;
  r->gtag[r->ngroups] = (PetscInt)tag;
  PetscCall(NameIndex(r, r->gname[r->ngroups], r->ngroups, &existing));
  FlxMshCheck(r, existing < 0, "the physical groups (dimension %" PetscInt_FMT ", tag %" PetscInt_FMT ") and (dimension %" PetscInt_FMT ", tag %lld) are both named '%s': give every physical group its own name", r->gdim[existing], r->gtag[existing], dim, tag, name);
  PetscCall(FlxMshHashAdd(&r->groups, (long long)dim << 32 | (unsigned int)tag, r->ngroups, &old, &added));
  FlxMshCheck(r, added, "the physical group of dimension %" PetscInt_FMT " and tag %lld is named twice ('%s' and '%s')", dim, tag, r->gname[old], name);
  *g = r->ngroups++;
  PetscFunctionReturn(0);
}

/* A name from $PhysicalNames: 1 to FLX_NAME_LEN - 1 characters, no comma (lists of groups are comma-separated
   in the options) and no control character. Names are never truncated. */
PetscErrorCode FlxMshAddNamedGroup(FlxMshReader *r, PetscInt dim, long long tag, const char *name, size_t len)
{
  char     buf[FLX_NAME_LEN];
  PetscInt g;

  PetscFunctionBegin;
  FlxMshCheck(r, len > 0, "the physical group of dimension %" PetscInt_FMT " and tag %lld has an empty name: name it or remove the name", dim, tag);
  FlxMshCheck(r, len < FLX_NAME_LEN, "the physical name '%s' is longer than flexure's limit of %d characters: shorten it", FlxMshFound(r, (const unsigned char *)name, len), FLX_NAME_LEN - 1);
  for (size_t k = 0; k < len; k++) {
    unsigned char c = (unsigned char)name[k];
    FlxMshCheck(r, c != ',' && c >= 32 && c != 127, "the physical name '%s' holds a %s, which flexure's group lists cannot name: rename the group", FlxMshFound(r, (const unsigned char *)name, len), c == ',' ? "comma" : "control character");
  }
  memcpy(buf, name, len);
  buf[len] = 0;
  PetscCall(NewGroup(r, dim, tag, buf, &g));
  r->nnamed++;
  PetscFunctionReturn(0);
}

/* The group of physical tag (dim, tag): the named one, or an unnamed "physical_DIM_TAG" made at first use. */
PetscErrorCode FlxMshGroup(FlxMshReader *r, PetscInt dim, long long tag, PetscInt *g)
{
  char name[FLX_NAME_LEN];

  PetscFunctionBegin;
  if (FlxMshHashFind(&r->groups, (long long)dim << 32 | (unsigned int)tag, g)) PetscFunctionReturn(0);
  PetscCall(PetscSNPrintf(name, sizeof(name), "physical_%" PetscInt_FMT "_%lld", dim, tag));
  PetscCall(NewGroup(r, dim, tag, name, g));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMshStartNodes(FlxMshReader *r, long long n)
{
  PetscFunctionBegin;
  FlxMshCheck(r, !r->sm->xyz, "a second $Nodes section");
  FlxMshCheck(r, n <= PETSC_MAX_INT / 3, "%lld nodes are beyond flexure's 32-bit indices", n);
  PetscCall(PetscMalloc1(3 * n + 1, &r->sm->xyz));
  r->nnodes_cap = (PetscInt)n;
  PetscCall(FlxMshHashInit(&r->nodes, (size_t)n));
  PetscFunctionReturn(0);
}

/* Give node tag its natural id (the next one); a tag defined twice is refused. */
PetscErrorCode FlxMshAddNode(FlxMshReader *r, long long tag, PetscInt *id)
{
  PetscInt  old;
  PetscBool added;

  PetscFunctionBegin;
  FlxMshCheck(r, r->sm->nnodes < r->nnodes_cap, "more nodes than the %" PetscInt_FMT " announced in the header of $Nodes", r->nnodes_cap);
  PetscCall(FlxMshHashAdd(&r->nodes, tag, r->sm->nnodes, &old, &added));
  FlxMshCheck(r, added, "node tag %lld is defined a second time in $Nodes (every node needs its own tag)", tag);
  *id = r->sm->nnodes++;
  PetscFunctionReturn(0);
}

/* After $Nodes: when the tags fill at least half of their range (as Gmsh writes them), an array over the range
   (at most twice the number of nodes, so bounded by the file) replaces the hash for the lookups. */
PetscErrorCode FlxMshEndNodes(FlxMshReader *r)
{
  const FlxMshHash *h  = &r->nodes;
  long long         lo = LLONG_MAX, hi = LLONG_MIN;

  PetscFunctionBegin;
  for (size_t i = 0; i < h->cap; i++)
    if (h->key[i] >= 0) {
      lo = PetscMin(lo, h->key[i]);
      hi = PetscMax(hi, h->key[i]);
    }
  if (!h->n || hi - lo + 1 > 2 * (long long)h->n + 16) PetscFunctionReturn(0);
  r->dense_lo = lo;
  r->dense_n  = hi - lo + 1;
  PetscCall(PetscMalloc1(r->dense_n, &r->dense));
  for (long long k = 0; k < r->dense_n; k++)
    r->dense[k] = -1;
  for (size_t i = 0; i < h->cap; i++)
    if (h->key[i] >= 0) r->dense[h->key[i] - lo] = h->val[i];
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMshNodeId(FlxMshReader *r, long long etag, long long tag, PetscInt *id)
{
  PetscBool found;

  PetscFunctionBegin;
  if (r->dense) {
    long long k = tag - r->dense_lo;
    *id         = k >= 0 && k < r->dense_n ? r->dense[k] : -1;
    found       = (PetscBool)(*id >= 0);
  } else
    found = FlxMshHashFind(&r->nodes, tag, id);
  FlxMshCheck(r, found, "element %lld refers to node %lld, which is not defined in $Nodes", etag, tag);
  PetscFunctionReturn(0);
}

/* n elements, their tags announced in [lo, hi] (MSH 4.1) or not (lo > hi: MSH 2.2, where Gmsh numbers them
   from 1). Tags in a dense range are marked in a byte array (at most twice the count), others hashed. */
PetscErrorCode FlxMshStartElements(FlxMshReader *r, long long n, long long lo, long long hi)
{
  FlxSerialMesh *sm = r->sm;

  PetscFunctionBegin;
  FlxMshCheck(r, !sm->type, "a second $Elements section");
  FlxMshCheck(r, sm->xyz, "$Elements before $Nodes: the nodes must come first");
  FlxMshCheck(r, n <= PETSC_MAX_INT / 4, "%lld elements are beyond flexure's 32-bit indices", n);
  PetscCall(PetscMalloc4(n + 1, &sm->type, n + 1, &sm->cptr, 4 * n + 1, &sm->conn, n + 1, &sm->group));
  sm->cptr[0]   = 0;
  r->ncells_cap = (PetscInt)n;
  if (lo > hi) {
    lo = 1;
    hi = n;
  }
  if (n && hi - lo + 1 <= 2 * n + 16) {
    r->ebits_lo = lo;
    r->ebits_n  = hi - lo + 1;
    PetscCall(PetscCalloc1(r->ebits_n, &r->ebits));
  }
  PetscCall(FlxMshHashInit(&r->etags, r->ebits ? 16 : (size_t)n));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMshElementTag(FlxMshReader *r, long long tag)
{
  PetscInt  old;
  PetscBool added;

  PetscFunctionBegin;
  if (r->ebits && tag >= r->ebits_lo && tag - r->ebits_lo < r->ebits_n) {
    added                       = (PetscBool)!r->ebits[tag - r->ebits_lo];
    r->ebits[tag - r->ebits_lo] = 1;
  } else
    PetscCall(FlxMshHashAdd(&r->etags, tag, 0, &old, &added));
  FlxMshCheck(r, added, "element tag %lld is used a second time in $Elements (every element needs its own tag)", tag);
  PetscFunctionReturn(0);
}

static const char *const GmshTypeNames[] = {"", "2-node line", "3-node triangle", "4-node quadrangle", "4-node tetrahedron", "8-node hexahedron", "6-node prism", "5-node pyramid", "3-node second-order line", "6-node second-order triangle", "9-node second-order quadrangle", "10-node second-order tetrahedron", "27-node second-order hexahedron", "18-node second-order prism", "14-node second-order pyramid", "point", "8-node second-order quadrangle", "20-node second-order hexahedron", "15-node second-order prism", "13-node second-order pyramid"};

/* Cell type, node count and dimension of Gmsh element type gtype; other types are refused naming element etag. */
PetscErrorCode FlxMshElementType(FlxMshReader *r, long long etag, long long gtype, FlxCellType *ct, PetscInt *nn, PetscInt *dim)
{
  const char *name = "", *hint = "";

  PetscFunctionBegin;
  switch (gtype) {
  case 1:
    *ct  = FLX_CELL_LINE2;
    *nn  = 2;
    *dim = 1;
    PetscFunctionReturn(0);
  case 2:
    *ct  = FLX_CELL_TRI3;
    *nn  = 3;
    *dim = 2;
    PetscFunctionReturn(0);
  case 3:
    *ct  = FLX_CELL_QUAD4;
    *nn  = 4;
    *dim = 2;
    PetscFunctionReturn(0);
  case 15:
    *ct  = FLX_CELL_LINE2; /* unused: a point is a group membership */
    *nn  = 1;
    *dim = 0;
    PetscFunctionReturn(0);
  default:
    break;
  }
  if (gtype >= 4 && gtype < (long long)PETSC_STATIC_ARRAY_LENGTH(GmshTypeNames)) name = GmshTypeNames[gtype];
  if (gtype == 4 || gtype == 5 || gtype == 6 || gtype == 7 || gtype == 11 || gtype == 12 || gtype == 13 || gtype == 14 || gtype >= 17) hint = "; flexure has beam and shell elements only: put no volumes in physical groups";
  if (gtype == 8 || gtype == 9 || gtype == 10 || gtype == 16 || gtype > 19) hint = "; mesh with first-order elements (Mesh.ElementOrder = 1, gmsh -order 1)";
  FlxMshCheck(r, PETSC_FALSE, "element %lld: unknown or unsupported element type %lld%s%s%s: flexure reads Gmsh types 1 (2-node line), 2 (3-node triangle), 3 (4-node quadrangle) and 15 (point)%s", etag, gtype, name[0] ? " (" : "", name, name[0] ? ")" : "", hint);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMshAddCell(FlxMshReader *r, FlxCellType ct, PetscInt nn, const PetscInt nodes[], PetscInt g)
{
  FlxSerialMesh *sm = r->sm;

  PetscFunctionBegin;
  FlxMshCheck(r, sm->ncells < r->ncells_cap, "more elements than the %" PetscInt_FMT " announced in the header of $Elements", r->ncells_cap);
  sm->type[sm->ncells]  = ct;
  sm->group[sm->ncells] = g;
  for (PetscInt k = 0; k < nn; k++)
    sm->conn[r->nconn++] = nodes[k];
  sm->cptr[++sm->ncells] = r->nconn;
  PetscFunctionReturn(0);
}

/* Node in group g (a point group, or another physical group of a cell's entity); each pair kept once. */
PetscErrorCode FlxMshAddMember(FlxMshReader *r, PetscInt node, PetscInt g)
{
  PetscInt  old, cap = r->mcap;
  PetscBool added;

  PetscFunctionBegin;
  PetscCall(FlxMshHashAdd(&r->members, (long long)g << 32 | node, 0, &old, &added));
  if (!added) PetscFunctionReturn(0);
  if (r->nmem == r->mcap) {
    PetscInt cap2 = r->mcap;
    PetscCall(Grow(&r->mnode, r->nmem, &cap, (size_t)r->nmem + 1));
    PetscCall(Grow(&r->mgroup, r->nmem, &cap2, (size_t)r->nmem + 1));
    r->mcap = cap;
  }
  r->mnode[r->nmem]    = node;
  r->mgroup[r->nmem++] = g;
  PetscFunctionReturn(0);
}

typedef struct {
  PetscInt a, b, c, i;
} Key;

static int CompareKeys(const void *x, const void *y)
{
  const Key *p = (const Key *)x, *q = (const Key *)y;
  if (p->a != q->a) return p->a < q->a ? -1 : 1;
  if (p->b != q->b) return p->b < q->b ? -1 : 1;
  if (p->c != q->c) return p->c < q->c ? -1 : 1;
  return p->i < q->i ? -1 : p->i > q->i;
}

/* MSH 2.2 files list elements by type (all triangles, then all quadrangles), MSH 4.1 files by entity: put
   the cells in 4.1's order (dimension, entity, Gmsh type, then file order), so both number cells alike. */
static PetscErrorCode SortCells22(FlxMshReader *r)
{
  FlxSerialMesh *sm = r->sm;
  PetscInt       n = sm->ncells, k = 0;
  Key           *key;
  FlxCellType   *type;
  PetscInt      *cptr, *conn, *group;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n, &key));
  for (PetscInt c = 0; c < n; c++) {
    key[c].a = sm->type[c] == FLX_CELL_LINE2 ? 1 : 2;
    key[c].b = r->centity[c];
    key[c].c = r->cgtype[c];
    key[c].i = c;
  }
  qsort(key, (size_t)n, sizeof(Key), CompareKeys);
  PetscCall(PetscMalloc4(r->ncells_cap + 1, &type, r->ncells_cap + 1, &cptr, 4 * r->ncells_cap + 1, &conn, r->ncells_cap + 1, &group));
  cptr[0] = 0;
  for (PetscInt c = 0; c < n; c++) {
    PetscInt o = key[c].i;
    type[c]    = sm->type[o];
    group[c]   = sm->group[o];
    for (PetscInt q = sm->cptr[o]; q < sm->cptr[o + 1]; q++)
      conn[k++] = sm->conn[q];
    cptr[c + 1] = k;
  }
  PetscCall(PetscFree4(sm->type, sm->cptr, sm->conn, sm->group));
  sm->type  = type;
  sm->cptr  = cptr;
  sm->conn  = conn;
  sm->group = group;
  PetscCall(PetscFree(key));
  PetscFunctionReturn(0);
}

/* Unnamed groups are made in order of first use, which differs between versions: renumber them by
   (dimension, tag) after the named ones. */
static PetscErrorCode SortUnnamedGroups(FlxMshReader *r)
{
  PetscInt n = r->ngroups - r->nnamed, *map;
  Key     *key;
  char(*names)[FLX_NAME_LEN];
  PetscInt *dims;

  PetscFunctionBegin;
  if (n < 2) PetscFunctionReturn(0);
  PetscCall(PetscMalloc1(n, &key));
  PetscCall(PetscMalloc1(r->ngroups, &map));
  PetscCall(PetscMalloc1(r->ngroups, &names));
  PetscCall(PetscMalloc1(r->ngroups, &dims));
  for (PetscInt k = 0; k < n; k++) {
    PetscInt g = r->nnamed + k;
    key[k].a   = r->gdim[g];
    key[k].b   = r->gtag[g];
    key[k].c   = 0;
    key[k].i   = g;
  }
  qsort(key, (size_t)n, sizeof(Key), CompareKeys);
  for (PetscInt g = 0; g < r->nnamed; g++)
    map[g] = g;
  for (PetscInt k = 0; k < n; k++)
    map[key[k].i] = r->nnamed + k;
  for (PetscInt g = 0; g < r->ngroups; g++) {
    memcpy(names[map[g]], r->gname[g], FLX_NAME_LEN);
    dims[map[g]] = r->gdim[g];
  }
  for (PetscInt c = 0; c < r->sm->ncells; c++)
    r->sm->group[c] = map[r->sm->group[c]];
  for (PetscInt i = 0; i < r->nmem; i++)
    r->mgroup[i] = map[r->mgroup[i]];
  PetscCall(PetscFree(r->gname));
  PetscCall(PetscFree(r->gdim));
  r->gname = names;
  r->gdim  = dims;
  PetscCall(PetscFree(key));
  PetscCall(PetscFree(map));
  PetscFunctionReturn(0);
}

/* Hand the groups over to the serial mesh, with the point memberships as CSR over groups, each group's nodes
   in natural order. */
PetscErrorCode FlxMshFinish(FlxMshReader *r)
{
  FlxSerialMesh *sm = r->sm;
  PetscInt      *off;

  PetscFunctionBegin;
  r->itempos  = r->size;
  r->itemline = r->line;
  FlxMshCheck(r, sm->xyz && sm->type, "the file has no %s section (is the file truncated?)", sm->xyz ? "$Elements" : "$Nodes");
  FlxMshCheck(r, sm->ncells > 0, "no elements of the supported types in any physical group: define physical groups (Physical Curve, Physical Surface) in the .geo file");
  if (r->version == 22) PetscCall(SortCells22(r));
  PetscCall(SortUnnamedGroups(r));
  sm->ngroups = r->ngroups;
  sm->gname   = r->gname;
  sm->gdim    = r->gdim;
  r->gname    = NULL;
  r->gdim     = NULL;
  PetscCall(PetscCalloc1(sm->ngroups + 1, &sm->gpptr));
  PetscCall(PetscMalloc1(r->nmem + 1, &sm->gpnodes));
  for (PetscInt i = 0; i < r->nmem; i++)
    sm->gpptr[r->mgroup[i] + 1]++;
  for (PetscInt g = 0; g < sm->ngroups; g++)
    sm->gpptr[g + 1] += sm->gpptr[g];
  PetscCall(PetscMalloc1(sm->ngroups + 1, &off));
  PetscCall(PetscArraycpy(off, sm->gpptr, sm->ngroups + 1));
  for (PetscInt i = 0; i < r->nmem; i++)
    sm->gpnodes[off[r->mgroup[i]]++] = r->mnode[i];
  for (PetscInt g = 0; g < sm->ngroups; g++)
    PetscCall(PetscSortInt(sm->gpptr[g + 1] - sm->gpptr[g], sm->gpnodes + sm->gpptr[g]));
  PetscCall(PetscFree(off));
  PetscFunctionReturn(0);
}
