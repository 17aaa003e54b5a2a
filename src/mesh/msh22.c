/* Gmsh MSH 2.2 sections $Nodes and $Elements, ASCII or binary. Layout (Gmsh reference manual, legacy MSH
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
#include "msh.h"

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
    for (int c = 0; c < 3; c++) PetscCall(FlxMshReal(r, "a node coordinate", &r->sm->xyz[3 * id + c]));
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
  for (PetscInt k = 0; copy && k < nn; k++) copy = (PetscBool)(r->prev_nodes[k] == nodes[k]);
  PetscCall(FlxMshGroup(r, dim, phys, &g));
  if (copy || gtype == 15)
    for (PetscInt k = 0; k < nn; k++) PetscCall(FlxMshAddMember(r, nodes[k], g));
  else {
    PetscCall(FlxMshAddCell(r, ct, nn, nodes, g));
    r->cgtype[r->sm->ncells - 1]  = (PetscInt)gtype;
    r->centity[r->sm->ncells - 1] = entity;
  }
  r->prev_valid  = PETSC_TRUE;
  r->prev_type   = (PetscInt)gtype;
  r->prev_entity = entity;
  r->prev_nn     = nn;
  for (PetscInt k = 0; k < nn; k++) r->prev_nodes[k] = nodes[k];
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
    PetscCall(FlxMshInt(r, k == 0 ? "the physical tag of the element" : k == 1 ? "the entity tag of the element" : "a tag of the element", -FLX_MSH_MAX_TAG, FLX_MSH_MAX_TAG, &t));
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
  if (r->binary) PetscCall(ReadBinary(r, n));
  else PetscCall(ReadAscii(r, n));
  PetscCall(FlxMshExpectWord(r, "$EndElements"));
  PetscFunctionReturn(0);
}
