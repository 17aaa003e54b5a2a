/* Built-in mesh generators (rank 0), for models too big to ship as files and for benchmarks:
   a straight beam of n elements, a 3D lattice tower of beams that scales past 1e6 DOFs, a flat
   rectangular plate (quads or triangles, optional beam stiffeners) and a cylindrical panel. */
#include <flexure/private/meshimpl.h>
#include <unistd.h>

static PetscErrorCode AllocCells(FlxSerialMesh *sm, PetscInt nnodes, PetscInt ncells)
{
  PetscFunctionBegin;
  sm->nnodes = nnodes;
  sm->ncells = ncells;
  PetscCall(PetscMalloc1(3 * nnodes, &sm->xyz));
  PetscCall(PetscMalloc4(ncells, &sm->type, ncells + 1, &sm->cptr, 2 * ncells, &sm->conn, ncells, &sm->group));
  for (PetscInt c = 0; c <= ncells; c++)
    sm->cptr[c] = 2 * c;
  for (PetscInt c = 0; c < ncells; c++)
    sm->type[c] = FLX_CELL_LINE2;
  PetscFunctionReturn(0);
}

/* point groups given as lists */
static PetscErrorCode SetPointGroups(FlxSerialMesh *sm, PetscInt npg, const PetscInt gid[], const PetscInt count[], PetscInt *const nodes[])
{
  PetscInt tot = 0, k = 0;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(sm->ngroups + 1, &sm->gpptr));
  for (PetscInt i = 0; i < npg; i++) {
    sm->gpptr[gid[i] + 1] = count[i];
    tot += count[i];
  }
  for (PetscInt g = 0; g < sm->ngroups; g++)
    sm->gpptr[g + 1] += sm->gpptr[g];
  PetscCall(PetscMalloc1(tot + 1, &sm->gpnodes));
  for (PetscInt g = 0; g < sm->ngroups; g++)
    for (PetscInt i = 0; i < npg; i++)
      if (gid[i] == g)
        for (PetscInt j = 0; j < count[i]; j++)
          sm->gpnodes[k++] = nodes[i][j];
  PetscFunctionReturn(0);
}

/* Straight beam along beam_dir from the origin: groups "beam" (cells), "root" and "tip" (points). */
static PetscErrorCode GenerateBeam(FlxMesh mesh, FlxSerialMesh *sm)
{
  PetscInt  n = mesh->beam_elements, gbeam, groot, gtip, root = 0, tip = n;
  PetscReal nrm = PetscSqrtReal(PetscSqr(mesh->beam_dir[0]) + PetscSqr(mesh->beam_dir[1]) + PetscSqr(mesh->beam_dir[2]));

  PetscFunctionBegin;
  PetscCall(AllocCells(sm, n + 1, n));
  PetscCall(FlxSerialMeshAddGroup(sm, "beam", 1, &gbeam));
  PetscCall(FlxSerialMeshAddGroup(sm, "root", 0, &groot));
  PetscCall(FlxSerialMeshAddGroup(sm, "tip", 0, &gtip));
  for (PetscInt i = 0; i <= n; i++)
    for (int c = 0; c < 3; c++)
      sm->xyz[3 * i + c] = mesh->beam_length * i / n * mesh->beam_dir[c] / nrm;
  for (PetscInt e = 0; e < n; e++) {
    sm->conn[2 * e]     = e;
    sm->conn[2 * e + 1] = e + 1;
    sm->group[e]        = gbeam;
  }
  {
    PetscInt  gid[2] = {groot, gtip}, cnt[2] = {1, 1};
    PetscInt *nodes[2] = {&root, &tip};
    PetscCall(SetPointGroups(sm, 2, gid, cnt, nodes));
  }
  PetscFunctionReturn(0);
}

/* Lattice tower of nx x ny x nz bays: horizontal beams on every level, columns, and one diagonal brace
   in every bay of every vertical face plane. Groups "frame" (all cells), "base" and "top" (points). */
static PetscErrorCode GenerateTower(FlxMesh mesh, FlxSerialMesh *sm)
{
  PetscInt  nx = mesh->tower_n[0], ny = mesh->tower_n[1], nz = mesh->tower_n[2];
  PetscInt  nnodes = (nx + 1) * (ny + 1) * (nz + 1), ncells, c = 0, gframe, gbase, gtop;
  PetscInt  nhx = nx * (ny + 1) * (nz + 1), nhy = (nx + 1) * ny * (nz + 1), ncol = (nx + 1) * (ny + 1) * nz;
  PetscInt  ndx = nx * nz * (ny + 1), ndy = ny * nz * (nx + 1), nlev = (nx + 1) * (ny + 1);
  PetscInt *base, *top;

#define NID(i, j, k) ((k)*nlev + (j) * (nx + 1) + (i))
  PetscFunctionBegin;
  ncells = nhx + nhy + ncol + ndx + ndy;
  PetscCall(AllocCells(sm, nnodes, ncells));
  PetscCall(FlxSerialMeshAddGroup(sm, "frame", 1, &gframe));
  PetscCall(FlxSerialMeshAddGroup(sm, "base", 0, &gbase));
  PetscCall(FlxSerialMeshAddGroup(sm, "top", 0, &gtop));
  for (PetscInt k = 0; k <= nz; k++)
    for (PetscInt j = 0; j <= ny; j++)
      for (PetscInt i = 0; i <= nx; i++) {
        PetscInt n         = NID(i, j, k);
        sm->xyz[3 * n + 0] = mesh->tower_size[0] * i / nx;
        sm->xyz[3 * n + 1] = mesh->tower_size[1] * j / ny;
        sm->xyz[3 * n + 2] = mesh->tower_size[2] * k / nz;
      }
#define ADD(a, b)                 \
  do {                            \
    sm->conn[2 * c]     = (a);    \
    sm->conn[2 * c + 1] = (b);    \
    sm->group[c++]      = gframe; \
  } while (0)
  /* cells level by level, so that the natural order has locality */
  for (PetscInt k = 0; k <= nz; k++) {
    for (PetscInt j = 0; j <= ny; j++)
      for (PetscInt i = 0; i < nx; i++)
        ADD(NID(i, j, k), NID(i + 1, j, k));
    for (PetscInt j = 0; j < ny; j++)
      for (PetscInt i = 0; i <= nx; i++)
        ADD(NID(i, j, k), NID(i, j + 1, k));
    if (k == nz) break;
    for (PetscInt j = 0; j <= ny; j++)
      for (PetscInt i = 0; i <= nx; i++)
        ADD(NID(i, j, k), NID(i, j, k + 1));
    for (PetscInt j = 0; j <= ny; j++)
      for (PetscInt i = 0; i < nx; i++)
        ADD(NID(i, j, k), NID(i + 1, j, k + 1));
    for (PetscInt j = 0; j < ny; j++)
      for (PetscInt i = 0; i <= nx; i++)
        ADD(NID(i, j, k), NID(i, j + 1, k + 1));
  }
  PetscCheck(c == ncells, PETSC_COMM_SELF, PETSC_ERR_PLIB, "tower generator: %" PetscInt_FMT " cells instead of %" PetscInt_FMT, c, ncells);
  PetscCall(PetscMalloc2(nlev, &base, nlev, &top));
  for (PetscInt i = 0; i < nlev; i++) {
    base[i] = i;
    top[i]  = nz * nlev + i;
  }
  {
    PetscInt  gid[2] = {gbase, gtop}, cnt[2] = {nlev, nlev};
    PetscInt *nodes[2] = {base, top};
    PetscCall(SetPointGroups(sm, 2, gid, cnt, nodes));
  }
  PetscCall(PetscFree2(base, top));
#undef ADD
#undef NID
  PetscFunctionReturn(0);
}

/* A structured nx x ny grid of quads (or triangles, each quad split along its 0-2 diagonal) mapped by
   map(s, r) with s, r in [0, 1]; node (i, j) is j (nx + 1) + i. Cells of group gcell, plus nstiff lines
   along s at equally spaced r (group gline), sharing the grid nodes. Node sets: the four sides, the four
   corners and the centre (the node nearest to s = r = 1/2). Side names: names[0..3] for s = 0, s = 1,
   r = 0, r = 1. */
typedef void (*GridMap)(FlxMesh, PetscReal, PetscReal, PetscReal[3]);

static PetscErrorCode GenerateGrid(FlxMesh mesh, FlxSerialMesh *sm, const char cellgroup[], GridMap map, const char *const names[4], PetscInt nstiff)
{
  PetscInt nx = mesh->grid_n[0], ny = mesh->grid_n[1], nq = nx * ny, ncell = mesh->tri ? 2 * nq : mesh->mixed ? nq + ny * (nx - nx / 2)
                                                                                                              : nq,
           nline = nstiff * nx, c = 0, k = 0;
  PetscInt gcell, gline = -1, gid[9], cnt[9], *lists[9], centre;
  char     corner[64];

  PetscFunctionBegin;
  sm->nnodes = (nx + 1) * (ny + 1);
  sm->ncells = ncell + nline;
  PetscCall(PetscMalloc1(3 * sm->nnodes, &sm->xyz));
  PetscCall(PetscMalloc4(sm->ncells, &sm->type, sm->ncells + 1, &sm->cptr, 4 * sm->ncells, &sm->conn, sm->ncells, &sm->group));
  PetscCall(FlxSerialMeshAddGroup(sm, cellgroup, 2, &gcell));
  if (nstiff) PetscCall(FlxSerialMeshAddGroup(sm, "stiffeners", 1, &gline));
  for (int q = 0; q < 4; q++)
    PetscCall(FlxSerialMeshAddGroup(sm, names[q], 0, &gid[q]));
  for (int q = 0; q < 4; q++) {
    PetscCall(PetscSNPrintf(corner, sizeof(corner), "%s_%s", names[q % 2], names[2 + q / 2]));
    PetscCall(FlxSerialMeshAddGroup(sm, corner, 0, &gid[4 + q]));
  }
  PetscCall(FlxSerialMeshAddGroup(sm, "centre", 0, &gid[8]));
  for (PetscInt j = 0; j <= ny; j++)
    for (PetscInt i = 0; i <= nx; i++)
      map(mesh, (PetscReal)i / nx, (PetscReal)j / ny, sm->xyz + 3 * (j * (nx + 1) + i));
  sm->cptr[0] = 0;
  for (PetscInt j = 0; j < ny; j++)
    for (PetscInt i = 0; i < nx; i++) {
      PetscInt n0 = j * (nx + 1) + i, q[4] = {n0, n0 + 1, n0 + nx + 2, n0 + nx + 1};
      if (!mesh->tri && !(mesh->mixed && i >= nx / 2)) { /* mixed: quads on the first half in s, triangles on the rest */
        sm->type[c] = FLX_CELL_QUAD4;
        for (int a = 0; a < 4; a++)
          sm->conn[k++] = q[a];
        sm->group[c++] = gcell;
        sm->cptr[c]    = k;
      } else
        for (int h = 0; h < 2; h++) {
          sm->type[c]    = FLX_CELL_TRI3;
          sm->conn[k++]  = q[0];
          sm->conn[k++]  = q[1 + h];
          sm->conn[k++]  = q[2 + h];
          sm->group[c++] = gcell;
          sm->cptr[c]    = k;
        }
    }
  for (PetscInt s = 1; s <= nstiff; s++) {
    PetscInt j = s * ny / (nstiff + 1);
    for (PetscInt i = 0; i < nx; i++) {
      sm->type[c]    = FLX_CELL_LINE2;
      sm->conn[k++]  = j * (nx + 1) + i;
      sm->conn[k++]  = j * (nx + 1) + i + 1;
      sm->group[c++] = gline;
      sm->cptr[c]    = k;
    }
  }
  PetscCall(PetscMalloc4(ny + 1, &lists[0], ny + 1, &lists[1], nx + 1, &lists[2], nx + 1, &lists[3]));
  for (PetscInt j = 0; j <= ny; j++) {
    lists[0][j] = j * (nx + 1);
    lists[1][j] = j * (nx + 1) + nx;
  }
  for (PetscInt i = 0; i <= nx; i++) {
    lists[2][i] = i;
    lists[3][i] = ny * (nx + 1) + i;
  }
  cnt[0] = cnt[1] = ny + 1;
  cnt[2] = cnt[3] = nx + 1;
  lists[4]        = &lists[2][0];  /* s0 r0 */
  lists[5]        = &lists[2][nx]; /* s1 r0 */
  lists[6]        = &lists[3][0];  /* s0 r1 */
  lists[7]        = &lists[3][nx]; /* s1 r1 */
  centre          = (ny / 2) * (nx + 1) + nx / 2;
  lists[8]        = &centre;
  for (int q = 4; q < 9; q++)
    cnt[q] = 1;
  PetscCall(SetPointGroups(sm, 9, gid, cnt, lists));
  PetscCall(PetscFree4(lists[0], lists[1], lists[2], lists[3]));
  PetscFunctionReturn(0);
}

static void PlateMap(FlxMesh mesh, PetscReal s, PetscReal r, PetscReal x[3])
{
  x[0] = s * mesh->plate_size[0];
  x[1] = r * mesh->plate_size[1];
  x[2] = 0;
}

/* Axis along x; the angle phi runs from +z towards +y, so the outward normal is the element normal. */
static void CylinderMap(FlxMesh mesh, PetscReal s, PetscReal r, PetscReal x[3])
{
  PetscReal phi = r * mesh->cyl_angle * PETSC_PI / 180;
  x[0]          = s * mesh->cyl_length;
  x[1]          = mesh->cyl_radius * PetscSinReal(phi);
  x[2]          = mesh->cyl_radius * PetscCosReal(phi);
}

/* Refuse a generated mesh whose DOFs PetscInt cannot index (the counts overflowed into a huge allocation) or whose
   serial copy on rank 0 alone exceeds this machine's memory, naming the option and the sizes. */
static PetscErrorCode CheckSize(const char opt[], double nodes, double cells)
{
  double mem = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE), need = 24 * nodes + 48 * cells;

  PetscFunctionBegin;
  PetscCheck(6 * nodes < (double)PETSC_MAX_INT && 4 * cells < (double)PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "%s: the generated mesh would have %.3g nodes (%.3g DOFs) and %.3g cells, beyond what this build of PETSc indexes (%d-bit integers: at most %.3g DOFs); give fewer divisions", opt, nodes, 6 * nodes, cells, (int)(8 * sizeof(PetscInt)), (double)PETSC_MAX_INT);
  PetscCheck(mem <= 0 || need < mem, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "%s: the generated mesh (%.3g nodes, %.3g cells) needs %.3g GB on rank 0 alone, more than this machine's %.3g GB; give fewer divisions", opt, nodes, cells, need / 1e9, mem / 1e9);
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSerialMeshGenerate(FlxMesh mesh, FlxSerialMesh *sm)
{
  PetscBool                isbeam, istower, isplate, iscyl;
  static const char *const plate[4] = {"x0", "x1", "y0", "y1"}, *const cyl[4] = {"x0", "x1", "phi0", "phi1"};

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(mesh->generator, "beam", &isbeam));
  PetscCall(PetscStrcmp(mesh->generator, "tower", &istower));
  PetscCall(PetscStrcmp(mesh->generator, "plate", &isplate));
  PetscCall(PetscStrcmp(mesh->generator, "cylinder", &iscyl));
  if (isbeam) PetscCall(CheckSize("-mesh_beam_elements", (double)mesh->beam_elements + 1, (double)mesh->beam_elements));
  if (istower) {
    double nx = mesh->tower_n[0], ny = mesh->tower_n[1], nz = mesh->tower_n[2];
    PetscCall(CheckSize("-mesh_tower_bays", (nx + 1) * (ny + 1) * (nz + 1), nx * (ny + 1) * (nz + 1) + (nx + 1) * ny * (nz + 1) + (nx + 1) * (ny + 1) * nz + nx * nz * (ny + 1) + ny * nz * (nx + 1)));
  }
  if (isplate || iscyl) {
    double nx = mesh->grid_n[0], ny = mesh->grid_n[1];
    PetscCall(CheckSize("-mesh_divisions", (nx + 1) * (ny + 1), 2 * nx * ny + (double)mesh->plate_stiffeners * nx));
  }
  if (isbeam)
    PetscCall(GenerateBeam(mesh, sm));
  else if (istower)
    PetscCall(GenerateTower(mesh, sm));
  else if (isplate)
    PetscCall(GenerateGrid(mesh, sm, "plate", PlateMap, plate, mesh->plate_stiffeners));
  else if (iscyl)
    PetscCall(GenerateGrid(mesh, sm, "shell", CylinderMap, cyl, 0));
  else
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "unknown mesh generator '%s' (-mesh_generate): use beam, tower, plate or cylinder", mesh->generator);
  PetscFunctionReturn(0);
}
