/* The sections of the two MSH versions, ASCII or binary: MSH 4.1 $Entities, $Nodes, $Elements, then MSH 2.2
   $Nodes, $Elements. See msh.h. */
#include "msh.h"

/* MSH 4.1 sections $Entities, $Nodes and $Elements, ASCII or binary (one code: FlxMshInt, FlxMshSize and
   FlxMshReal read a token in ASCII, 4, data-size or 8 bytes in binary). Layout (Gmsh reference manual, MSH
   file format version 4.1):
     $Entities: numPoints numCurves numSurfaces numVolumes (size_t); per point: tag (int) x y z (double)
       numPhysicalTags (size_t) physicalTag (int)...; per curve, surface, volume: tag, minX minY minZ maxX maxY
       maxZ, numPhysicalTags, physicalTag..., numBoundingEntities (size_t) boundingTag (int)...
     $Nodes: numEntityBlocks numNodes minNodeTag maxNodeTag (size_t); per block: entityDim entityTag
       parametric (int) numNodesInBlock (size_t), the block's node tags (size_t), then its x y z (double, and
       u v w up to entityDim when parametric)
     $Elements: numEntityBlocks numElements minElementTag maxElementTag (size_t); per block: entityDim
       entityTag elementType (int) numElementsInBlock (size_t), then per element its tag and node tags
       (size_t). */

PetscErrorCode FlxMsh41ReadEntities(FlxMshReader *r)
{
  long long n[4], total = 0;

  PetscFunctionBegin;
  FlxMshCheck(r, !r->ent.cap, "a second $Entities section");
  FlxMshCheck(r, !r->sm->type, "$Entities after $Elements: the entities must come first");
  for (int d = 0; d < 4; d++)
    PetscCall(FlxMshSize(r, d == 0 ? "the number of points" : d == 1 ? "the number of curves"
                                                          : d == 2   ? "the number of surfaces"
                                                                     : "the number of volumes",
                         0, LLONG_MAX, &n[d]));
  PetscCall(FlxMshRoom(r, n[0], 5, 28 + r->sizet, "points"));
  for (int d = 1; d < 4; d++)
    PetscCall(FlxMshRoom(r, n[d], 9, 52 + 2 * r->sizet, d == 1 ? "curves" : d == 2 ? "surfaces"
                                                                                   : "volumes"));
  for (int d = 0; d < 4; d++)
    total += n[d];
  FlxMshCheck(r, total <= PETSC_MAX_INT / 2, "%lld entities are beyond flexure's 32-bit indices", total);
  PetscCall(FlxMshHashInit(&r->ent, (size_t)total));
  PetscCall(PetscMalloc1(total + 1, &r->entptr));
  r->entptr[0] = 0;
  for (int d = 0; d < 4; d++) {
    for (long long e = 0; e < n[d]; e++) {
      long long tag, nphys, nb, t;
      PetscReal x;
      PetscInt  old;
      PetscBool added;
      PetscCall(FlxMshInt(r, "an entity tag", 1, FLX_MSH_MAX_TAG, &tag));
      PetscCall(FlxMshHashAdd(&r->ent, (long long)d << 32 | tag, r->nent, &old, &added));
      FlxMshCheck(r, added, "the entity of dimension %d and tag %lld is defined a second time in $Entities", d, tag);
      for (int k = 0; k < (d == 0 ? 3 : 6); k++)
        PetscCall(FlxMshReal(r, d == 0 ? "a coordinate of the point" : "a coordinate of the bounding box", &x));
      PetscCall(FlxMshSize(r, "the number of physical tags", 0, LLONG_MAX, &nphys));
      PetscCall(FlxMshRoom(r, nphys, 1, 4, "physical tags"));
      if (r->nphys + nphys > r->physcap) {
        PetscInt *a;
        FlxMshCheck(r, r->nphys + nphys <= PETSC_MAX_INT / 2, "more physical tags than flexure's 32-bit indices hold");
        r->physcap = (PetscInt)(2 * (r->nphys + nphys) + 16);
        PetscCall(PetscMalloc1(r->physcap, &a));
        if (r->nphys) PetscCall(PetscArraycpy(a, r->entphys, r->nphys));
        PetscCall(PetscFree(r->entphys));
        r->entphys = a;
      }
      for (long long k = 0; k < nphys; k++) {
        PetscCall(FlxMshInt(r, "a physical tag", -FLX_MSH_MAX_TAG, FLX_MSH_MAX_TAG, &t));
        FlxMshCheck(r, t != 0, "expected a physical tag in $Entities, found 0 (physical tags are non-zero)");
        r->entphys[r->nphys++] = (PetscInt)t;
      }
      r->entptr[++r->nent] = r->nphys;
      if (d == 0) continue;
      PetscCall(FlxMshSize(r, "the number of bounding entities", 0, LLONG_MAX, &nb));
      PetscCall(FlxMshRoom(r, nb, 1, 4, "bounding entities"));
      for (long long k = 0; k < nb; k++)
        PetscCall(FlxMshInt(r, "a bounding entity tag", -FLX_MSH_MAX_TAG, FLX_MSH_MAX_TAG, &t));
    }
  }
  PetscCall(FlxMshExpectWord(r, "$EndEntities"));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMsh41ReadNodes(FlxMshReader *r)
{
  long long nblocks, nnodes, mintag, maxtag, nread = 0;

  PetscFunctionBegin;
  PetscCall(FlxMshSize(r, "the number of node blocks", 0, LLONG_MAX, &nblocks));
  PetscCall(FlxMshRoom(r, nblocks, 4, 12 + r->sizet, "node blocks"));
  PetscCall(FlxMshSize(r, "the number of nodes", 0, LLONG_MAX, &nnodes));
  PetscCall(FlxMshRoom(r, nnodes, 4, r->sizet + 24, "nodes"));
  PetscCall(FlxMshSize(r, "the smallest node tag", nnodes ? 1 : 0, FLX_MSH_MAX_TAG, &mintag));
  PetscCall(FlxMshSize(r, "the largest node tag", mintag, FLX_MSH_MAX_TAG, &maxtag));
  FlxMshCheck(r, !nnodes || nnodes <= maxtag - mintag + 1, "%lld nodes cannot have distinct tags in the range [%lld, %lld] of the $Nodes header", nnodes, mintag, maxtag);
  PetscCall(FlxMshStartNodes(r, nnodes));
  for (long long b = 0; b < nblocks; b++) {
    long long dim, etag, param, nb, tag;
    PetscInt  id0 = r->sm->nnodes, id;
    PetscReal uvw;
    PetscCall(FlxMshInt(r, "the dimension of the entity", 0, 3, &dim));
    PetscCall(FlxMshInt(r, "the entity tag", 1, FLX_MSH_MAX_TAG, &etag));
    PetscCall(FlxMshInt(r, "the parametric flag (0 or 1)", 0, 1, &param));
    PetscCall(FlxMshSize(r, "the number of nodes in the block", 0, nnodes - nread, &nb));
    if (param && !dim) param = 0; /* a point has no parametric coordinates */
    PetscCall(FlxMshRoom(r, nb, 4 + param * dim, r->sizet + 24 + 8 * param * dim, "nodes"));
    for (long long i = 0; i < nb; i++) {
      PetscCall(FlxMshSize(r, "a node tag within the header's range", mintag, maxtag, &tag));
      PetscCall(FlxMshAddNode(r, tag, &id));
    }
    for (long long i = 0; i < nb; i++) {
      for (int c = 0; c < 3; c++)
        PetscCall(FlxMshReal(r, "a node coordinate", &r->sm->xyz[3 * (id0 + i) + c]));
      for (long long c = 0; c < param * dim; c++)
        PetscCall(FlxMshReal(r, "a parametric coordinate", &uvw));
    }
    nread += nb;
  }
  FlxMshCheck(r, nread == nnodes, "the node blocks hold %lld nodes but the header of $Nodes announced %lld", nread, nnodes);
  PetscCall(FlxMshExpectWord(r, "$EndNodes"));
  PetscCall(FlxMshEndNodes(r));
  PetscFunctionReturn(0);
}

/* Groups of the entity (dim, tag): *g the first physical group (-1 if none), the others in r->ints[0..nx). */
static PetscErrorCode EntityGroups(FlxMshReader *r, long long dim, long long tag, PetscInt *g, PetscInt *nx)
{
  PetscInt e, n;

  PetscFunctionBegin;
  *g  = -1;
  *nx = 0;
  if (!FlxMshHashFind(&r->ent, dim << 32 | tag, &e)) PetscFunctionReturn(0);
  n = r->entptr[e + 1] - r->entptr[e];
  if (!n) PetscFunctionReturn(0);
  PetscCall(FlxMshGrowInts(r, (size_t)n + 4));
  PetscCall(FlxMshGroup(r, (PetscInt)dim, r->entphys[r->entptr[e]], g));
  for (PetscInt k = 1; k < n; k++)
    PetscCall(FlxMshGroup(r, (PetscInt)dim, r->entphys[r->entptr[e] + k], &r->ints[k - 1]));
  *nx = n - 1;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMsh41ReadElements(FlxMshReader *r)
{
  long long nblocks, nelem, mintag, maxtag, nread = 0;

  PetscFunctionBegin;
  PetscCall(FlxMshSize(r, "the number of element blocks", 0, LLONG_MAX, &nblocks));
  PetscCall(FlxMshRoom(r, nblocks, 4, 12 + r->sizet, "element blocks"));
  PetscCall(FlxMshSize(r, "the number of elements", 0, LLONG_MAX, &nelem));
  PetscCall(FlxMshRoom(r, nelem, 2, 2 * r->sizet, "elements"));
  PetscCall(FlxMshSize(r, "the smallest element tag", nelem ? 1 : 0, FLX_MSH_MAX_TAG, &mintag));
  PetscCall(FlxMshSize(r, "the largest element tag", mintag, FLX_MSH_MAX_TAG, &maxtag));
  FlxMshCheck(r, !nelem || nelem <= maxtag - mintag + 1, "%lld elements cannot have distinct tags in the range [%lld, %lld] of the $Elements header", nelem, mintag, maxtag);
  PetscCall(FlxMshStartElements(r, nelem, mintag, maxtag));
  for (long long b = 0; b < nblocks; b++) {
    long long   dim, etag, gtype, nb, tag, t;
    PetscInt    nn, tdim, g, nx, nodes[4];
    FlxCellType ct;
    PetscCall(FlxMshInt(r, "the dimension of the entity", 0, 3, &dim));
    PetscCall(FlxMshInt(r, "the entity tag", 1, FLX_MSH_MAX_TAG, &etag));
    PetscCall(FlxMshInt(r, "the element type", -FLX_MSH_MAX_TAG, FLX_MSH_MAX_TAG, &gtype));
    PetscCall(FlxMshSize(r, "the number of elements in the block", 0, nelem - nread, &nb));
    if (!nb) continue;
    if (gtype != 1 && gtype != 2 && gtype != 3 && gtype != 15) PetscCall(FlxMshSize(r, "an element tag", mintag, maxtag, &tag)); /* to name the element */
    PetscCall(FlxMshElementType(r, gtype == 1 || gtype == 2 || gtype == 3 || gtype == 15 ? -1 : tag, gtype, &ct, &nn, &tdim));
    FlxMshCheck(r, tdim == dim, "a block of elements of type %lld (dimension %" PetscInt_FMT ") in an entity of dimension %lld", gtype, tdim, dim);
    PetscCall(FlxMshRoom(r, nb, 1 + nn, (1 + nn) * r->sizet, "elements"));
    PetscCall(EntityGroups(r, dim, etag, &g, &nx));
    for (long long e = 0; e < nb; e++) {
      PetscCall(FlxMshSize(r, "an element tag within the header's range", mintag, maxtag, &tag));
      PetscCall(FlxMshElementTag(r, tag));
      for (PetscInt k = 0; k < nn; k++) {
        PetscCall(FlxMshSize(r, "a node tag", 1, FLX_MSH_MAX_TAG, &t));
        PetscCall(FlxMshNodeId(r, tag, t, &nodes[k]));
      }
      if (g < 0) continue; /* in no physical group: not part of the model */
      for (PetscInt x = 0; x < nx; x++)
        for (PetscInt k = 0; k < nn; k++)
          PetscCall(FlxMshAddMember(r, nodes[k], r->ints[x]));
      if (gtype == 15)
        PetscCall(FlxMshAddMember(r, nodes[0], g));
      else
        PetscCall(FlxMshAddCell(r, ct, nn, nodes, g));
    }
    nread += nb;
  }
  FlxMshCheck(r, nread == nelem, "the element blocks hold %lld elements but the header of $Elements announced %lld", nread, nelem);
  PetscCall(FlxMshExpectWord(r, "$EndElements"));
  PetscFunctionReturn(0);
}

/* MSH 2.2 sections $Nodes and $Elements, ASCII or binary. Layout (Gmsh reference manual, legacy MSH
   file format version 2):
     $Nodes: number-of-nodes (an ASCII line), then per node: node-number x y z (binary: int, 3 doubles)
     $Elements: number-of-elements (an ASCII line), then
       ASCII: per element: elm-number elm-type number-of-tags tag... node-number...
       binary: blocks of one element type: elm-type number-of-elements-following number-of-tags (int), then
         per element: elm-number tag... node-number... (int)
   The first tag is the physical group (0: none), the second the elementary entity. Gmsh writes an element
   that lies in several physical groups once per group, under new numbers: a copy of the previous element
   (same type, entity and nodes) in another group puts its nodes in that group, as MSH 4.1's entity with
   several physical tags does, and is not a second cell. */

PetscErrorCode FlxMsh22ReadNodes(FlxMshReader *r)
{
  long long n, tag;
  PetscInt  id;

  PetscFunctionBegin;
  PetscCall(FlxMshAsciiInt(r, "the number of nodes", 0, LLONG_MAX, &n));
  if (r->binary) PetscCall(FlxMshEndLine(r));
  PetscCall(FlxMshRoom(r, n, 4, 28, "nodes"));
  PetscCall(FlxMshStartNodes(r, n));
  for (long long i = 0; i < n; i++) {
    PetscCall(FlxMshInt(r, "a node tag", 1, FLX_MSH_MAX_TAG, &tag));
    PetscCall(FlxMshAddNode(r, tag, &id));
    for (int c = 0; c < 3; c++)
      PetscCall(FlxMshReal(r, "a node coordinate", &r->sm->xyz[3 * id + c]));
  }
  PetscCall(FlxMshExpectWord(r, "$EndNodes"));
  PetscCall(FlxMshEndNodes(r));
  PetscFunctionReturn(0);
}

/* One element: tags in r->ints[0..ntags), its nodes' natural ids in nodes. */
static PetscErrorCode AddElement(FlxMshReader *r, long long gtype, FlxCellType ct, PetscInt nn, PetscInt dim, long long ntags, const PetscInt nodes[])
{
  PetscInt  phys = ntags > 0 ? r->ints[0] : 0, entity = ntags > 1 ? r->ints[1] : 0, g;
  PetscBool copy;

  PetscFunctionBegin;
  if (!phys) { /* in no physical group (Gmsh's Mesh.SaveAll): not part of the model */
    r->prev_valid = PETSC_FALSE;
    PetscFunctionReturn(0);
  }
  copy = (PetscBool)(r->prev_valid && ntags > 1 && r->prev_type == gtype && r->prev_entity == entity && r->prev_nn == nn);
  for (PetscInt k = 0; copy && k < nn; k++)
    copy = (PetscBool)(r->prev_nodes[k] == nodes[k]);
  PetscCall(FlxMshGroup(r, dim, phys, &g));
  if (copy || gtype == 15)
    for (PetscInt k = 0; k < nn; k++)
      PetscCall(FlxMshAddMember(r, nodes[k], g));
  else {
    PetscCall(FlxMshAddCell(r, ct, nn, nodes, g));
    r->cgtype[r->sm->ncells - 1]  = (PetscInt)gtype;
    r->centity[r->sm->ncells - 1] = entity;
  }
  r->prev_valid  = PETSC_TRUE;
  r->prev_type   = (PetscInt)gtype;
  r->prev_entity = entity;
  r->prev_nn     = nn;
  for (PetscInt k = 0; k < nn; k++)
    r->prev_nodes[k] = nodes[k];
  PetscFunctionReturn(0);
}

/* Tags and nodes of element tag (after its type and number of tags), then the element itself. */
static PetscErrorCode ReadElementBody(FlxMshReader *r, long long tag, long long gtype, FlxCellType ct, PetscInt nn, PetscInt dim, long long ntags)
{
  PetscInt  nodes[4];
  long long t;

  PetscFunctionBegin;
  PetscCall(FlxMshGrowInts(r, (size_t)ntags + 4));
  for (long long k = 0; k < ntags; k++) {
    PetscCall(FlxMshInt(r, k == 0 ? "the physical tag of the element" : k == 1 ? "the entity tag of the element"
                                                                               : "a tag of the element",
                        -FLX_MSH_MAX_TAG, FLX_MSH_MAX_TAG, &t));
    r->ints[k] = (PetscInt)t;
  }
  for (PetscInt k = 0; k < nn; k++) {
    PetscCall(FlxMshInt(r, "a node tag", 1, FLX_MSH_MAX_TAG, &t));
    PetscCall(FlxMshNodeId(r, tag, t, &nodes[k]));
  }
  PetscCall(AddElement(r, gtype, ct, nn, dim, ntags, nodes));
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadAscii(FlxMshReader *r, long long n)
{
  PetscFunctionBegin;
  for (long long i = 0; i < n; i++) {
    long long   tag, gtype, ntags;
    PetscInt    nn, dim;
    FlxCellType ct;
    PetscCall(FlxMshInt(r, "an element tag", 1, FLX_MSH_MAX_TAG, &tag));
    PetscCall(FlxMshElementTag(r, tag));
    PetscCall(FlxMshInt(r, "the element type", -FLX_MSH_MAX_TAG, FLX_MSH_MAX_TAG, &gtype));
    PetscCall(FlxMshElementType(r, tag, gtype, &ct, &nn, &dim));
    PetscCall(FlxMshInt(r, "the number of tags of the element", 0, FLX_MSH_MAX_TAG, &ntags));
    PetscCall(FlxMshRoom(r, ntags + nn, 1, 4, "tags and nodes"));
    PetscCall(ReadElementBody(r, tag, gtype, ct, nn, dim, ntags));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadBinary(FlxMshReader *r, long long n)
{
  long long nread = 0;

  PetscFunctionBegin;
  while (nread < n) {
    long long   gtype, nb, ntags, tag = -1;
    PetscInt    nn, dim;
    FlxCellType ct;
    PetscCall(FlxMshInt(r, "the element type of a block", -FLX_MSH_MAX_TAG, FLX_MSH_MAX_TAG, &gtype));
    PetscCall(FlxMshInt(r, "the number of elements in the block", 1, n - nread, &nb));
    PetscCall(FlxMshInt(r, "the number of tags of the block's elements", 0, FLX_MSH_MAX_TAG, &ntags));
    for (long long e = 0; e < nb; e++) {
      PetscCall(FlxMshInt(r, "an element tag", 1, FLX_MSH_MAX_TAG, &tag));
      PetscCall(FlxMshElementTag(r, tag));
      PetscCall(FlxMshElementType(r, tag, gtype, &ct, &nn, &dim));
      if (!e) PetscCall(FlxMshRoom(r, nb, 1, 4 * (ntags + nn), "elements"));
      PetscCall(ReadElementBody(r, tag, gtype, ct, nn, dim, ntags));
    }
    nread += nb;
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMsh22ReadElements(FlxMshReader *r)
{
  long long n;

  PetscFunctionBegin;
  PetscCall(FlxMshAsciiInt(r, "the number of elements", 0, LLONG_MAX, &n));
  if (r->binary) PetscCall(FlxMshEndLine(r));
  PetscCall(FlxMshRoom(r, n, 4, 8, "elements"));
  PetscCall(FlxMshStartElements(r, n, 1, 0));
  PetscCall(PetscMalloc2(n + 1, &r->cgtype, n + 1, &r->centity));
  r->prev_valid = PETSC_FALSE;
  if (r->binary)
    PetscCall(ReadBinary(r, n));
  else
    PetscCall(ReadAscii(r, n));
  PetscCall(FlxMshExpectWord(r, "$EndElements"));
  PetscFunctionReturn(0);
}
