/* Gmsh MSH 4.1 sections $Entities, $Nodes and $Elements, ASCII or binary (one code: FlxMshInt, FlxMshSize and
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
#include "msh.h"

PetscErrorCode FlxMsh41ReadEntities(FlxMshReader *r)
{
  long long n[4], total = 0;

  PetscFunctionBegin;
  FlxMshCheck(r, !r->ent.cap, "a second $Entities section");
  FlxMshCheck(r, !r->sm->type, "$Entities after $Elements: the entities must come first");
  for (int d = 0; d < 4; d++) PetscCall(FlxMshSize(r, d == 0 ? "the number of points" : d == 1 ? "the number of curves" : d == 2 ? "the number of surfaces" : "the number of volumes", 0, LLONG_MAX, &n[d]));
  PetscCall(FlxMshRoom(r, n[0], 5, 28 + r->sizet, "points"));
  for (int d = 1; d < 4; d++) PetscCall(FlxMshRoom(r, n[d], 9, 52 + 2 * r->sizet, d == 1 ? "curves" : d == 2 ? "surfaces" : "volumes"));
  for (int d = 0; d < 4; d++) total += n[d];
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
      for (int k = 0; k < (d == 0 ? 3 : 6); k++) PetscCall(FlxMshReal(r, d == 0 ? "a coordinate of the point" : "a coordinate of the bounding box", &x));
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
      for (long long k = 0; k < nb; k++) PetscCall(FlxMshInt(r, "a bounding entity tag", -FLX_MSH_MAX_TAG, FLX_MSH_MAX_TAG, &t));
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
      for (int c = 0; c < 3; c++) PetscCall(FlxMshReal(r, "a node coordinate", &r->sm->xyz[3 * (id0 + i) + c]));
      for (long long c = 0; c < param * dim; c++) PetscCall(FlxMshReal(r, "a parametric coordinate", &uvw));
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
  for (PetscInt k = 1; k < n; k++) PetscCall(FlxMshGroup(r, (PetscInt)dim, r->entphys[r->entptr[e] + k], &r->ints[k - 1]));
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
        for (PetscInt k = 0; k < nn; k++) PetscCall(FlxMshAddMember(r, nodes[k], r->ints[x]));
      if (gtype == 15) PetscCall(FlxMshAddMember(r, nodes[0], g));
      else PetscCall(FlxMshAddCell(r, ct, nn, nodes, g));
    }
    nread += nb;
  }
  FlxMshCheck(r, nread == nelem, "the element blocks hold %lld elements but the header of $Elements announced %lld", nread, nelem);
  PetscCall(FlxMshExpectWord(r, "$EndElements"));
  PetscFunctionReturn(0);
}
