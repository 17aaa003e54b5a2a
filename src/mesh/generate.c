/* Built-in mesh generators (rank 0), for models too big to ship as files:
   a straight beam of n elements, and a 3D lattice tower of beams that scales past 1e6 DOFs. */
#include <flexure/private/meshimpl.h>

static PetscErrorCode AllocCells(FlxSerialMesh *sm, PetscInt nnodes, PetscInt ncells)
{
  PetscFunctionBegin;
  sm->nnodes = nnodes;
  sm->ncells = ncells;
  PetscCall(PetscMalloc1(3 * nnodes, &sm->xyz));
  PetscCall(PetscMalloc4(ncells, &sm->type, ncells + 1, &sm->cptr, 2 * ncells, &sm->conn, ncells, &sm->group));
  for (PetscInt c = 0; c <= ncells; c++) sm->cptr[c] = 2 * c;
  for (PetscInt c = 0; c < ncells; c++) sm->type[c] = FLX_CELL_LINE2;
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
  for (PetscInt g = 0; g < sm->ngroups; g++) sm->gpptr[g + 1] += sm->gpptr[g];
  PetscCall(PetscMalloc1(tot + 1, &sm->gpnodes));
  for (PetscInt g = 0; g < sm->ngroups; g++)
    for (PetscInt i = 0; i < npg; i++)
      if (gid[i] == g)
        for (PetscInt j = 0; j < count[i]; j++) sm->gpnodes[k++] = nodes[i][j];
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
    for (int c = 0; c < 3; c++) sm->xyz[3 * i + c] = mesh->beam_length * i / n * mesh->beam_dir[c] / nrm;
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
  PetscInt nx = mesh->tower_n[0], ny = mesh->tower_n[1], nz = mesh->tower_n[2];
  PetscInt nnodes = (nx + 1) * (ny + 1) * (nz + 1), ncells, c = 0, gframe, gbase, gtop;
  PetscInt nhx = nx * (ny + 1) * (nz + 1), nhy = (nx + 1) * ny * (nz + 1), ncol = (nx + 1) * (ny + 1) * nz;
  PetscInt ndx = nx * nz * (ny + 1), ndy = ny * nz * (nx + 1), nlev = (nx + 1) * (ny + 1);
  PetscInt *base, *top;

#define NID(i, j, k) ((k) * nlev + (j) * (nx + 1) + (i))
  PetscFunctionBegin;
  ncells = nhx + nhy + ncol + ndx + ndy;
  PetscCall(AllocCells(sm, nnodes, ncells));
  PetscCall(FlxSerialMeshAddGroup(sm, "frame", 1, &gframe));
  PetscCall(FlxSerialMeshAddGroup(sm, "base", 0, &gbase));
  PetscCall(FlxSerialMeshAddGroup(sm, "top", 0, &gtop));
  for (PetscInt k = 0; k <= nz; k++)
    for (PetscInt j = 0; j <= ny; j++)
      for (PetscInt i = 0; i <= nx; i++) {
        PetscInt n          = NID(i, j, k);
        sm->xyz[3 * n + 0] = mesh->tower_size[0] * i / nx;
        sm->xyz[3 * n + 1] = mesh->tower_size[1] * j / ny;
        sm->xyz[3 * n + 2] = mesh->tower_size[2] * k / nz;
      }
#define ADD(a, b) \
  do { \
    sm->conn[2 * c] = (a); \
    sm->conn[2 * c + 1] = (b); \
    sm->group[c++] = gframe; \
  } while (0)
  /* cells level by level, so that the natural order has locality */
  for (PetscInt k = 0; k <= nz; k++) {
    for (PetscInt j = 0; j <= ny; j++)
      for (PetscInt i = 0; i < nx; i++) ADD(NID(i, j, k), NID(i + 1, j, k));
    for (PetscInt j = 0; j < ny; j++)
      for (PetscInt i = 0; i <= nx; i++) ADD(NID(i, j, k), NID(i, j + 1, k));
    if (k == nz) break;
    for (PetscInt j = 0; j <= ny; j++)
      for (PetscInt i = 0; i <= nx; i++) ADD(NID(i, j, k), NID(i, j, k + 1));
    for (PetscInt j = 0; j <= ny; j++)
      for (PetscInt i = 0; i < nx; i++) ADD(NID(i, j, k), NID(i + 1, j, k + 1));
    for (PetscInt j = 0; j < ny; j++)
      for (PetscInt i = 0; i <= nx; i++) ADD(NID(i, j, k), NID(i, j + 1, k + 1));
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

PetscErrorCode FlxSerialMeshGenerate(FlxMesh mesh, FlxSerialMesh *sm)
{
  PetscBool isbeam, istower;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(mesh->generator, "beam", &isbeam));
  PetscCall(PetscStrcmp(mesh->generator, "tower", &istower));
  if (isbeam) PetscCall(GenerateBeam(mesh, sm));
  else if (istower) PetscCall(GenerateTower(mesh, sm));
  else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "unknown mesh generator '%s' (-mesh_generate): use beam or tower", mesh->generator);
  PetscFunctionReturn(0);
}
