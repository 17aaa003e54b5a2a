/* Gmsh mesh files (rank 0): MSH 4.1 and MSH 2.2, ASCII or binary, told apart by $MeshFormat. This file opens
   the file (regular files only, read whole into memory), reads $MeshFormat and $PhysicalNames and dispatches
   the other sections to msh41.c and msh22.c; sections flexure does not use are skipped. Reads nodes (any
   positive tags, in any order), 2-node lines, 3-node triangles, 4-node quadrangles and points, and the
   physical groups with their names. Every error names the file and the line (binary data: the byte offset)
   and says what was expected and what was found. See msh.h. */
#include "msh.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
  if (FlxMshTokenIs(t, len, "4.1")) r->version = 41;
  else if (FlxMshTokenIs(t, len, "2.2")) r->version = 22;
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
  while (r->pos < r->size && (r->buf[r->pos] == ' ' || r->buf[r->pos] == '\t')) r->pos++;
  r->itempos  = r->pos;
  r->itemline = r->line;
  FlxMshCheck(r, r->pos < r->size, "expected a quoted physical name in $PhysicalNames, found the end of the file (is the file truncated?)");
  FlxMshCheck(r, r->buf[r->pos] == '"', "expected a quoted physical name (\"name\") in $PhysicalNames, found '%s'", FlxMshFound(r, r->buf + r->pos, 1));
  start = ++r->pos;
  while (r->pos < r->size && r->buf[r->pos] != '"' && r->buf[r->pos] != '\n') r->pos++;
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
  PetscCheck(fd >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot open the mesh file %s: %s", file, strerror(errno));
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
