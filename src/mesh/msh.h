/* Gmsh MSH readers (rank 0): internals shared by gmsh.c (the file, tokens, numbers and binary values checked
   against the bytes left, hash tables, $MeshFormat, $PhysicalNames, the section loop), mshsections.c (the
   sections of MSH 4.1 and 2.2) and mshbuild.c (nodes, cells, groups of the serial mesh).

   The whole file is read into memory and never trusted: every count is compared with what the bytes left can
   hold before anything is allocated, every tag is range-checked and mapped through a hash table (never an
   array indexed by tag), every number is finite. A failure raises one PETSc error of code
   PETSC_ERR_FILE_UNEXPECTED whose message is "FILE:LINE: what was expected, what was found" (ASCII) or
   "FILE: byte OFFSET: ..." (binary data has no lines); every temporary lives in FlxMshReader and is freed by
   FlxMshReaderDestroy(), whatever happened. */
#pragma once
#include <flexure/private/meshimpl.h>

#define FLX_MSH_MAX_TAG 2147483647LL /* tags must fit flexure's 32-bit PetscInt */

/* Open-addressing hash table, int64 key (>= 0) -> PetscInt value. */
typedef struct {
  long long *key; /* -1: empty slot */
  PetscInt  *val;
  size_t     cap, n; /* cap: power of two */
} FlxMshHash;

typedef struct {
  /* the input */
  const char          *file; /* name used in messages */
  const unsigned char *buf;
  size_t               size, pos;
  PetscInt             line;     /* line of pos (counted in ASCII text only) */
  size_t               itempos;  /* start of the item being read, for messages */
  PetscInt             itemline; /* its line */
  const char          *section;  /* e.g. "$Nodes" */
  PetscBool            binary;   /* binary data in the sections (file type 1) */
  PetscInt             version;  /* 41 or 22 */
  PetscInt             sizet;    /* bytes of a size_t in MSH 4.1 binary (data-size) */
  char                *num;      /* NUL-terminated copy of a number token, sized to it */
  size_t               numcap;
  char                 where[PETSC_MAX_PATH_LEN + 96];
  char                 found[96]; /* printable excerpt of a token */

  /* the mesh being built (nodes and cells go straight into sm; groups and memberships are kept here and
     moved into sm by FlxMshFinish) */
  FlxSerialMesh *sm;
  PetscInt       nnodes_cap, ncells_cap, nconn;
  FlxMshHash     nodes; /* node tag -> natural node id */
  PetscInt      *dense; /* the same as an array over [dense_lo, dense_lo + dense_n) when the tags are dense */
  long long      dense_lo, dense_n;
  FlxMshHash     etags; /* element tags seen (duplicates), outside [ebits_lo, ebits_lo + ebits_n) */
  unsigned char *ebits; /* element tags seen, inside it */
  long long      ebits_lo, ebits_n;
  FlxMshHash     groups;  /* (dim << 32 | (uint32) physical tag) -> group index */
  FlxMshHash     members; /* (group << 32 | node) of point memberships (duplicates) */
  PetscInt       ngroups, gcap, nnamed;
  char (*gname)[FLX_NAME_LEN];
  PetscInt  *gdim, *gtag;                /* dimension and physical tag of each group */
  FlxMshHash names;                      /* hash of a group name -> group (names must be unique) */
  PetscInt  *mnode, *mgroup, nmem, mcap; /* point memberships (node, group) in order of appearance */
  PetscInt  *ints;                       /* scratch: tags of one element, groups of one entity */
  size_t     intscap;

  /* MSH 4.1 $Entities: (dim << 32 | tag) -> entity index; its physical tags in CSR */
  FlxMshHash ent;
  PetscInt   nent, entcap, *entptr, *entphys, nphys, physcap;

  /* MSH 2.2: Gmsh type and entity of each cell (to order them as MSH 4.1 does); the previous element, to
     recognise Gmsh's copies of an element in several physical groups */
  PetscInt *cgtype, *centity;
  PetscInt  prev_type, prev_entity, prev_nn, prev_nodes[4];
  PetscBool prev_valid;
} FlxMshReader;

/* Raise the reader's error at the current item: PetscCheck with "FILE:LINE: " or "FILE: byte N: " in front. */
#define FlxMshCheck(r, cond, fmt, ...) PetscCheck((cond), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: " fmt, FlxMshWhere(r), ##__VA_ARGS__)

/* gmsh.c: input */
PETSC_INTERN const char    *FlxMshWhere(FlxMshReader *r);
PETSC_INTERN const char    *FlxMshFound(FlxMshReader *r, const unsigned char *t, size_t len);
PETSC_INTERN PetscErrorCode FlxMshToken(FlxMshReader *r, const char *what, const unsigned char **t, size_t *len);
PETSC_INTERN PetscBool      FlxMshTokenIs(const unsigned char *t, size_t len, const char *word);
PETSC_INTERN PetscErrorCode FlxMshExpectWord(FlxMshReader *r, const char *word);
PETSC_INTERN PetscErrorCode FlxMshEndLine(FlxMshReader *r);
PETSC_INTERN PetscErrorCode FlxMshInt(FlxMshReader *r, const char *what, long long lo, long long hi, long long *v);
PETSC_INTERN PetscErrorCode FlxMshSize(FlxMshReader *r, const char *what, long long lo, long long hi, long long *v);
PETSC_INTERN PetscErrorCode FlxMshAsciiInt(FlxMshReader *r, const char *what, long long lo, long long hi, long long *v);
PETSC_INTERN PetscErrorCode FlxMshReal(FlxMshReader *r, const char *what, PetscReal *v);
PETSC_INTERN PetscErrorCode FlxMshRoom(FlxMshReader *r, long long count, long long ascii_tokens, long long binary_bytes, const char *what);
PETSC_INTERN PetscErrorCode FlxMshSkipSection(FlxMshReader *r, const unsigned char *name, size_t len);

/* gmsh.c: hash tables */
PETSC_INTERN PetscErrorCode FlxMshHashInit(FlxMshHash *h, size_t n);
PETSC_INTERN PetscErrorCode FlxMshHashFree(FlxMshHash *h);
PETSC_INTERN PetscBool      FlxMshHashFind(const FlxMshHash *h, long long key, PetscInt *val);
PETSC_INTERN PetscErrorCode FlxMshHashAdd(FlxMshHash *h, long long key, PetscInt val, PetscInt *old, PetscBool *added);

/* mshbuild.c: the mesh */
PETSC_INTERN PetscErrorCode FlxMshReaderDestroy(FlxMshReader *r);
PETSC_INTERN PetscErrorCode FlxMshGrowInts(FlxMshReader *r, size_t n);
PETSC_INTERN PetscErrorCode FlxMshAddNamedGroup(FlxMshReader *r, PetscInt dim, long long tag, const char *name, size_t len);
PETSC_INTERN PetscErrorCode FlxMshGroup(FlxMshReader *r, PetscInt dim, long long tag, PetscInt *g);
PETSC_INTERN PetscErrorCode FlxMshStartNodes(FlxMshReader *r, long long n);
PETSC_INTERN PetscErrorCode FlxMshAddNode(FlxMshReader *r, long long tag, PetscInt *id);
PETSC_INTERN PetscErrorCode FlxMshEndNodes(FlxMshReader *r);
PETSC_INTERN PetscErrorCode FlxMshNodeId(FlxMshReader *r, long long etag, long long tag, PetscInt *id);
PETSC_INTERN PetscErrorCode FlxMshStartElements(FlxMshReader *r, long long n, long long lo, long long hi);
PETSC_INTERN PetscErrorCode FlxMshElementTag(FlxMshReader *r, long long tag);
PETSC_INTERN PetscErrorCode FlxMshElementType(FlxMshReader *r, long long etag, long long gtype, FlxCellType *ct, PetscInt *nn, PetscInt *dim);
PETSC_INTERN PetscErrorCode FlxMshAddCell(FlxMshReader *r, FlxCellType ct, PetscInt nn, const PetscInt nodes[], PetscInt g);
PETSC_INTERN PetscErrorCode FlxMshAddMember(FlxMshReader *r, PetscInt node, PetscInt g);
PETSC_INTERN PetscErrorCode FlxMshFinish(FlxMshReader *r);

/* mshsections.c: the sections of each version */
PETSC_INTERN PetscErrorCode FlxMsh41ReadEntities(FlxMshReader *r);
PETSC_INTERN PetscErrorCode FlxMsh41ReadNodes(FlxMshReader *r);
PETSC_INTERN PetscErrorCode FlxMsh41ReadElements(FlxMshReader *r);
PETSC_INTERN PetscErrorCode FlxMsh22ReadNodes(FlxMshReader *r);
PETSC_INTERN PetscErrorCode FlxMsh22ReadElements(FlxMshReader *r);
