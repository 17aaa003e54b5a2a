/* FlxMesh life cycle and accessors. */
#include <stdlib.h>
#include <string.h>
#include <flexure/private/meshimpl.h>

const char *const FlxCellTypeNames[] = {"line2", "tri3", "quad4"};
const PetscInt    FlxCellTypeNodes[] = {2, 3, 4};

PetscErrorCode FlxSerialMeshCreate(FlxSerialMesh **sm)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(sm));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSerialMeshDestroy(FlxSerialMesh **sm)
{
  PetscFunctionBegin;
  if (!*sm) PetscFunctionReturn(0);
  PetscCall(PetscFree((*sm)->xyz));
  PetscCall(PetscFree4((*sm)->type, (*sm)->cptr, (*sm)->conn, (*sm)->group));
  PetscCall(PetscFree((*sm)->gname));
  PetscCall(PetscFree((*sm)->gdim));
  PetscCall(PetscFree((*sm)->gpptr));
  PetscCall(PetscFree((*sm)->gpnodes));
  PetscCall(PetscFree((*sm)->part));
  PetscCall(PetscFree((*sm)->cpart));
  PetscCall(PetscFree((*sm)->perm));
  PetscCall(PetscFree(*sm));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSerialMeshAddGroup(FlxSerialMesh *sm, const char name[], PetscInt dim, PetscInt *g)
{
  char(*names)[FLX_NAME_LEN];
  PetscInt *dims;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(sm->ngroups + 1, &names));
  PetscCall(PetscMalloc1(sm->ngroups + 1, &dims));
  if (sm->ngroups) {
    PetscCall(PetscArraycpy(names, sm->gname, sm->ngroups));
    PetscCall(PetscArraycpy(dims, sm->gdim, sm->ngroups));
  }
  PetscCall(PetscStrncpy(names[sm->ngroups], name, FLX_NAME_LEN));
  dims[sm->ngroups] = dim;
  PetscCall(PetscFree(sm->gname));
  PetscCall(PetscFree(sm->gdim));
  sm->gname = names;
  sm->gdim  = dims;
  *g        = sm->ngroups++;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshCreate(MPI_Comm comm, FlxMesh *mesh)
{
  FlxMesh m;

  PetscFunctionBegin;
  PetscCall(FlxInitializePackage());
  PetscCall(PetscNew(&m));
  m->comm = comm;
  PetscCallMPI(MPI_Comm_rank(comm, &m->rank));
  PetscCallMPI(MPI_Comm_size(comm, &m->size));
  m->beam_length   = 1.0;
  m->beam_elements = 40;
  m->beam_dir[0]   = 1.0;
  m->tower_n[0] = m->tower_n[1] = 4;
  m->tower_n[2]                 = 40;
  m->tower_size[0] = m->tower_size[1] = 2.0;
  m->tower_size[2]                    = 40.0;
  m->plate_size[0] = m->plate_size[1] = 1.0;
  m->grid_n[0] = m->grid_n[1] = 16;
  m->cyl_radius               = 1.0;
  m->cyl_length               = 1.0;
  m->cyl_angle                = 90.0;
  *mesh                       = m;
  PetscFunctionReturn(0);
}

/* A generator's option given (given[k]: the table's k-th) with a mesh file, or with another generator, would be
   ignored: refuse it. */
static PetscErrorCode CheckGeneratorOptions(FlxMesh mesh, const PetscBool given[])
{
  static const struct {
    const char *name, *gens;
  } opt[] = {
    {"-mesh_beam_length", "beam"},          {"-mesh_beam_elements", "beam"},       {"-mesh_beam_direction", "beam"},      {"-mesh_tower_bays", "tower"},
    {"-mesh_tower_size", "tower"},          {"-mesh_divisions", "plate|cylinder"}, {"-mesh_plate_size", "plate"},         {"-mesh_plate_stiffeners", "plate"},
    {"-mesh_cylinder_radius", "cylinder"},  {"-mesh_cylinder_length", "cylinder"}, {"-mesh_cylinder_angle", "cylinder"}, {"-mesh_triangles", "plate|cylinder"},
    {"-mesh_mixed", "plate|cylinder"},
  };

  PetscFunctionBegin;
  for (size_t k = 0; k < sizeof(opt) / sizeof(opt[0]); k++) {
    PetscBool ok = PETSC_FALSE;
    char      gens[32], *tok, *save;
    if (!given[k]) continue;
    PetscCall(PetscStrncpy(gens, opt[k].gens, sizeof(gens)));
    for (tok = strtok_r(gens, "|", &save); tok && mesh->generator[0]; tok = strtok_r(NULL, "|", &save))
      if (!strcmp(tok, mesh->generator)) ok = PETSC_TRUE;
    PetscCheck(ok, mesh->comm, PETSC_ERR_USER_INPUT, "%s applies to -mesh_generate %s only, not to %s%s: remove it", opt[k].name, opt[k].gens, mesh->generator[0] ? "-mesh_generate " : "a mesh file (-mesh_file)", mesh->generator);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshSetFromOptions(FlxMesh mesh)
{
  PetscBool set, setg, gen[13] = {PETSC_FALSE};
  PetscInt  n = 3;

  PetscFunctionBegin;
  PetscOptionsBegin(mesh->comm, NULL, "Mesh options", "FlxMesh");
  PetscCall(PetscOptionsString("-mesh_file", "Gmsh mesh file: MSH 4.1 or 2.2, ASCII or binary", "FlxMeshSetFromOptions", mesh->file, mesh->file, sizeof(mesh->file), &set));
  PetscCall(PetscOptionsString("-mesh_generate", "Built-in generator instead of a file: beam, tower, plate or cylinder", "FlxMeshSetFromOptions", mesh->generator, mesh->generator, sizeof(mesh->generator), &setg));
  PetscCall(PetscOptionsReal("-mesh_beam_length", "Length of the generated beam", "FlxMeshSetFromOptions", mesh->beam_length, &mesh->beam_length, &gen[0]));
  PetscCall(PetscOptionsInt("-mesh_beam_elements", "Number of elements of the generated beam", "FlxMeshSetFromOptions", mesh->beam_elements, &mesh->beam_elements, &gen[1]));
  PetscCall(FlxOptionsRealArray("-mesh_beam_direction", "Direction of the generated beam", "FlxMeshSetFromOptions", mesh->beam_dir, &n, &gen[2]));
  n = 3;
  PetscCall(FlxOptionsIntArray("-mesh_tower_bays", "Bays of the generated tower in x, y, z", "FlxMeshSetFromOptions", mesh->tower_n, &n, &gen[3]));
  n = 3;
  PetscCall(FlxOptionsRealArray("-mesh_tower_size", "Width, depth and height of the generated tower", "FlxMeshSetFromOptions", mesh->tower_size, &n, &gen[4]));
  n = 2;
  PetscCall(FlxOptionsIntArray("-mesh_divisions", "Plate: divisions along x and y; cylinder: along the axis and around", "FlxMeshSetFromOptions", mesh->grid_n, &n, &gen[5]));
  PetscCheck(n == 2 || n == 0, mesh->comm, PETSC_ERR_USER_INPUT, "-mesh_divisions needs two counts");
  n = 2;
  PetscCall(FlxOptionsRealArray("-mesh_plate_size", "Plate: lengths along x and y", "FlxMeshSetFromOptions", mesh->plate_size, &n, &gen[6]));
  PetscCall(PetscOptionsInt("-mesh_plate_stiffeners", "Plate: number of beam stiffeners along x (group 'stiffeners'), equally spaced in y", "FlxMeshSetFromOptions", mesh->plate_stiffeners, &mesh->plate_stiffeners, &gen[7]));
  PetscCall(PetscOptionsReal("-mesh_cylinder_radius", "Cylinder: radius", "FlxMeshSetFromOptions", mesh->cyl_radius, &mesh->cyl_radius, &gen[8]));
  PetscCall(PetscOptionsReal("-mesh_cylinder_length", "Cylinder: length along the axis (x)", "FlxMeshSetFromOptions", mesh->cyl_length, &mesh->cyl_length, &gen[9]));
  PetscCall(PetscOptionsReal("-mesh_cylinder_angle", "Cylinder: opening angle in degrees, from +z towards +y (below 360)", "FlxMeshSetFromOptions", mesh->cyl_angle, &mesh->cyl_angle, &gen[10]));
  PetscCall(PetscOptionsBool("-mesh_triangles", "Plate and cylinder: triangles instead of quads", "FlxMeshSetFromOptions", mesh->tri, &mesh->tri, &gen[11]));
  PetscCall(PetscOptionsBool("-mesh_mixed", "Plate and cylinder: quads on the first half along x, triangles on the second (a mixed mesh)", "FlxMeshSetFromOptions", mesh->mixed, &mesh->mixed, &gen[12]));
  PetscOptionsEnd();
  PetscCheck(mesh->grid_n[0] > 0 && mesh->grid_n[1] > 0 && mesh->plate_size[0] > 0 && mesh->plate_size[1] > 0, mesh->comm, PETSC_ERR_USER_INPUT, "-mesh_divisions and -mesh_plate_size must be positive");
  PetscCheck(mesh->plate_stiffeners >= 0 && mesh->plate_stiffeners < mesh->grid_n[1] && (mesh->plate_stiffeners == 0 || mesh->grid_n[1] % (mesh->plate_stiffeners + 1) == 0), mesh->comm, PETSC_ERR_USER_INPUT,
             "-mesh_plate_stiffeners %" PetscInt_FMT ": the y divisions (%" PetscInt_FMT ") must be a multiple of stiffeners + 1, so that every stiffener lies on a mesh line", mesh->plate_stiffeners, mesh->grid_n[1]);
  PetscCheck(mesh->cyl_radius > 0 && mesh->cyl_length > 0 && mesh->cyl_angle > 0 && mesh->cyl_angle < 360, mesh->comm, PETSC_ERR_USER_INPUT, "-mesh_cylinder_radius and _length must be positive and -mesh_cylinder_angle in (0, 360)");
  PetscCheck(!(set && setg), mesh->comm, PETSC_ERR_USER_INPUT, "give either -mesh_file or -mesh_generate, not both");
  if (set || setg) PetscCall(CheckGeneratorOptions(mesh, gen));
  PetscCheck(!(mesh->tri && mesh->mixed), mesh->comm, PETSC_ERR_USER_INPUT, "give -mesh_triangles (triangles only) or -mesh_mixed (quads on the first half along x, triangles on the second), not both");
  PetscCheck(mesh->beam_elements > 0 && mesh->beam_length > 0, mesh->comm, PETSC_ERR_USER_INPUT, "-mesh_beam_elements and -mesh_beam_length must be positive");
  PetscCheck(mesh->tower_n[0] > 0 && mesh->tower_n[1] > 0 && mesh->tower_n[2] > 0, mesh->comm, PETSC_ERR_USER_INPUT, "-mesh_tower_bays needs three positive counts");
  if (set)
    PetscCall(PetscSNPrintf(mesh->source, sizeof(mesh->source), "%s", mesh->file));
  else if (setg)
    PetscCall(PetscSNPrintf(mesh->source, sizeof(mesh->source), "generated %s", mesh->generator));
  PetscFunctionReturn(0);
}

/* Read or generate on rank 0; user errors there become one collective error. */
static PetscErrorCode LoadSerial(FlxMesh mesh)
{
  PetscErrorCode ierr      = 0;

  PetscFunctionBegin;
  PetscCheck(mesh->file[0] || mesh->generator[0], mesh->comm, PETSC_ERR_USER_INPUT, "no mesh: give -mesh_file FILE.msh or -mesh_generate beam|tower|plate|cylinder");
  PetscCall(PetscLogEventBegin(FLX_MeshRead, 0, 0, 0, 0));
  if (mesh->rank == 0) {
    PetscCall(FlxSerialMeshCreate(&mesh->serial));
    if (mesh->file[0])
      ierr = FlxSerialMeshReadGmsh(mesh->file, mesh->serial);
    else
      ierr = FlxSerialMeshGenerate(mesh, mesh->serial);
  }
  PetscCall(PetscLogEventEnd(FLX_MeshRead, 0, 0, 0, 0));
  PetscCall(FlxCheckCollectiveError(mesh->comm, ierr, PETSC_ERR_FILE_UNEXPECTED, "the mesh could not be read (error above)"));
  PetscFunctionReturn(0);
}

/* qsort order of the cells' keys: type, then the sorted nodes (5 numbers), the cell last */
static int CompareCellKeys(const void *x, const void *y)
{
  const PetscInt *a = (const PetscInt *)x, *b = (const PetscInt *)y;

  for (int k = 0; k < 6; k++)
    if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
  return 0;
}

/* Cells of one type on the same nodes (a curve meshed twice, elements copied in a pre-processor): where sections take
   both, each adds its stiffness and mass. Said once, with the first pair and their groups, not refused (two layers
   may be meant; a group without a section adds nothing). The serial mesh on rank 0; collective. */
static PetscErrorCode NoteDuplicateCells(FlxMesh mesh)
{
  PetscInt info[6] = {0, -1, -1, 0, 0, 0}; /* count, the first pair (natural ids), its type, its groups */

  PetscFunctionBegin;
  if (mesh->rank == 0 && mesh->serial) {
    const FlxSerialMesh *sm = mesh->serial;
    const size_t         n  = (size_t)sm->ncells;
    PetscInt            *key = n > 1 ? (PetscInt *)malloc(6 * n * sizeof(PetscInt)) : NULL; /* only a note: no memory, no note */
    for (size_t i = 0; key && i < n; i++) {
      PetscInt *k = key + 6 * i, nn = sm->cptr[i + 1] - sm->cptr[i];
      k[0] = sm->type[i];
      for (int j = 0; j < 4; j++)
        k[1 + j] = j < nn ? sm->conn[sm->cptr[i] + j] : -1;
      (void)PetscSortInt(4, k + 1); /* cannot fail; no early return before the broadcast */
      k[5] = (PetscInt)i;
    }
    if (key) qsort(key, n, 6 * sizeof(PetscInt), CompareCellKeys);
    for (size_t i = 1; key && i < n; i++)
      if (!memcmp(key + 6 * (i - 1), key + 6 * i, 5 * sizeof(PetscInt))) {
        if (!info[0] || key[6 * i + 5] < info[2]) {
          info[1] = key[6 * (i - 1) + 5];
          info[2] = key[6 * i + 5];
          info[3] = key[6 * i];
        }
        info[0]++;
      }
    if (info[0]) {
      info[4] = sm->group[info[1]];
      info[5] = sm->group[info[2]];
    }
    free(key);
  }
  PetscCallMPI(MPI_Bcast(info, 6, MPIU_INT, 0, mesh->comm));
  if (info[0])
    PetscCall(PetscPrintf(mesh->comm, "flexure: note: %" PetscInt_FMT " element%s of the mesh repeat%s the nodes of another of %s type (the first: %s element %" PetscInt_FMT " of group '%s' repeats element %" PetscInt_FMT " of group '%s', natural order from 0): where sections take both, each adds its stiffness and mass; remove the duplicates unless two layers are meant\n", info[0],
                          info[0] > 1 ? "s" : "", info[0] > 1 ? "" : "s", info[0] > 1 ? "their" : "its", FlxCellTypeNames[info[3]], info[2], mesh->gname[info[5]], info[1], mesh->gname[info[4]]));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshSetUp(FlxMesh mesh)
{
  PetscFunctionBegin;
  if (mesh->setup) PetscFunctionReturn(0);
  PetscCall(FlxPhaseBegin(mesh->comm, mesh->file[0] ? "reading the mesh" : "generating the mesh"));
  PetscCall(LoadSerial(mesh));
  PetscCall(FlxPhaseBegin(mesh->comm, "partitioning the mesh (METIS)"));
  PetscCall(FlxMeshPartitionAndDistribute(mesh));
  PetscCall(NoteDuplicateCells(mesh));
  mesh->setup = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshDestroy(FlxMesh *mesh)
{
  FlxMesh m = *mesh;

  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(0);
  PetscCall(FlxSerialMeshDestroy(&m->serial));
  PetscCall(PetscFree(m->l2g));
  PetscCall(PetscFree(m->natural));
  PetscCall(PetscFree(m->xyz));
  PetscCall(PetscFree(m->ctype));
  PetscCall(PetscFree(m->cptr));
  PetscCall(PetscFree(m->conn));
  PetscCall(PetscFree(m->cgroup));
  PetscCall(PetscFree(m->cnatural));
  PetscCall(PetscFree(m->ctypeidx));
  PetscCall(PetscFree(m->cowned));
  PetscCall(PetscFree(m->gname));
  PetscCall(PetscFree(m->gdim));
  PetscCall(PetscFree(m->gnptr));
  PetscCall(PetscFree(m->gnodes));
  PetscCall(PetscFree2(m->dnz, m->onz));
  PetscCall(PetscFree(m));
  *mesh = NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshView(FlxMesh mesh, PetscViewer viewer)
{
  PetscInt loc[3], mn[3], mx[3], cut = mesh->rank == 0 && mesh->serial ? mesh->serial->edgecut : 0;
  PetscInt Ncells = 0;

  PetscFunctionBegin;
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++)
    Ncells += mesh->Ncells[t];
  loc[0] = mesh->ncowned;
  loc[1] = mesh->nowned;
  loc[2] = mesh->nghost;
  PetscCallMPI(MPI_Allreduce(loc, mn, 3, MPIU_INT, MPI_MIN, mesh->comm));
  PetscCallMPI(MPI_Allreduce(loc, mx, 3, MPIU_INT, MPI_MAX, mesh->comm));
  PetscCall(PetscViewerASCIIPrintf(viewer, "Mesh: %s\n", mesh->source));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  %" PetscInt_FMT " nodes (%" PetscInt_FMT " DOFs), %" PetscInt_FMT " elements:", mesh->Nnodes, 6 * mesh->Nnodes, Ncells));
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++)
    if (mesh->Ncells[t]) PetscCall(PetscViewerASCIIPrintf(viewer, " %" PetscInt_FMT " %s", mesh->Ncells[t], FlxCellTypeNames[t]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "; %" PetscInt_FMT " physical groups:", mesh->ngroups));
  for (PetscInt g = 0; g < mesh->ngroups; g++)
    PetscCall(PetscViewerASCIIPrintf(viewer, " %s", mesh->gname[g]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  Partition (METIS, nodal graph) on %d ranks: elements per rank %" PetscInt_FMT "..%" PetscInt_FMT ", nodes per rank %" PetscInt_FMT "..%" PetscInt_FMT ", ghost nodes per rank %" PetscInt_FMT "..%" PetscInt_FMT ", edge cut %" PetscInt_FMT "\n",
                                   mesh->size, mn[0], mx[0], mn[1], mx[1], mn[2], mx[2], cut));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshGetLocalSizes(FlxMesh mesh, PetscInt *nowned, PetscInt *nghost, PetscInt *ncells)
{
  PetscFunctionBegin;
  if (nowned) *nowned = mesh->nowned;
  if (nghost) *nghost = mesh->nghost;
  if (ncells) *ncells = mesh->ncells;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshGetNodeLayout(FlxMesh mesh, PetscInt *Nnodes, PetscInt *rstart)
{
  PetscFunctionBegin;
  if (Nnodes) *Nnodes = mesh->Nnodes;
  if (rstart) *rstart = mesh->rstart;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshGetCoordinates(FlxMesh mesh, const PetscReal **xyz)
{
  PetscFunctionBegin;
  *xyz = mesh->xyz;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshGetCell(FlxMesh mesh, PetscInt k, FlxCellType *type, PetscInt *nn, const PetscInt **nodes, PetscInt *group)
{
  PetscFunctionBegin;
  if (type) *type = mesh->ctype[k];
  if (nn) *nn = mesh->cptr[k + 1] - mesh->cptr[k];
  if (nodes) *nodes = mesh->conn + mesh->cptr[k];
  if (group) *group = mesh->cgroup[k];
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshIsCellOwned(FlxMesh mesh, PetscInt k, PetscBool *owned)
{
  PetscFunctionBegin;
  *owned = mesh->cowned[k];
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshGetCellNaturalId(FlxMesh mesh, PetscInt k, PetscInt *id)
{
  PetscFunctionBegin;
  *id = mesh->cnatural[k];
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshGetLocalToGlobal(FlxMesh mesh, const PetscInt **l2g)
{
  PetscFunctionBegin;
  *l2g = mesh->l2g;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshGetNaturalIds(FlxMesh mesh, const PetscInt **natural)
{
  PetscFunctionBegin;
  *natural = mesh->natural;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshGetNumGroups(FlxMesh mesh, PetscInt *ngroups)
{
  PetscFunctionBegin;
  *ngroups = mesh->ngroups;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshGetGroup(FlxMesh mesh, PetscInt g, const char **name, PetscInt *dim)
{
  PetscFunctionBegin;
  if (name) *name = mesh->gname[g];
  if (dim) *dim = mesh->gdim[g];
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshFindGroup(FlxMesh mesh, const char name[], PetscInt *g)
{
  PetscFunctionBegin;
  *g = -1;
  for (PetscInt k = 0; k < mesh->ngroups; k++) {
    PetscBool eq;
    PetscCall(PetscStrcmp(mesh->gname[k], name, &eq));
    if (eq) {
      *g = k;
      break;
    }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshGetGroupNodes(FlxMesh mesh, PetscInt g, PetscInt *n, const PetscInt **nodes)
{
  PetscFunctionBegin;
  *n     = mesh->gnptr[g + 1] - mesh->gnptr[g];
  *nodes = mesh->gnodes + mesh->gnptr[g];
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshGetPreallocation(FlxMesh mesh, const PetscInt **dnz, const PetscInt **onz)
{
  PetscFunctionBegin;
  *dnz = mesh->dnz;
  *onz = mesh->onz;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshNaturalToGlobal(FlxMesh mesh, PetscInt natural, PetscInt *global, PetscMPIInt *owner)
{
  PetscInt    buf[2] = {-1, -1};
  PetscMPIInt o;

  PetscFunctionBegin;
  if (mesh->rank == 0 && natural >= 0 && natural < mesh->serial->nnodes) {
    buf[0] = mesh->serial->perm[natural];
    buf[1] = mesh->serial->part[natural];
  }
  PetscCallMPI(MPI_Bcast(buf, 2, MPIU_INT, 0, mesh->comm));
  PetscCheck(buf[0] >= 0, mesh->comm, PETSC_ERR_USER_INPUT, "node %" PetscInt_FMT " is not in the mesh %s (it has nodes 0..%" PetscInt_FMT ")", natural, mesh->source, mesh->Nnodes - 1);
  o = (PetscMPIInt)buf[1];
  if (global) *global = buf[0];
  if (owner) *owner = o;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshGetSource(FlxMesh mesh, const char **source)
{
  PetscFunctionBegin;
  *source = mesh->source;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshGetComm(FlxMesh mesh, MPI_Comm *comm)
{
  PetscFunctionBegin;
  *comm = mesh->comm;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshGetCellTypeIndex(FlxMesh mesh, PetscInt k, PetscInt *idx)
{
  PetscFunctionBegin;
  *idx = mesh->ctypeidx[k];
  PetscFunctionReturn(0);
}

PetscErrorCode FlxMeshGetNumCellsOfType(FlxMesh mesh, FlxCellType t, PetscInt *N)
{
  PetscFunctionBegin;
  *N = mesh->Ncells[t];
  PetscFunctionReturn(0);
}
