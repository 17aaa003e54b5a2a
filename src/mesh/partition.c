/* METIS partition of the serial mesh on rank 0 and distribution of nodes, cells and ghosts.

   Which graph: the NODAL graph (nodes adjacent when they share a cell). Degrees of freedom and matrix
   rows live on nodes, so balancing nodes balances the rows of K and the vectors, i.e. the MatMult and
   the fused vector update that make up an explicit step; the edge cut of the nodal graph counts the
   off-process block columns of K, i.e. the halo that MatMult exchanges every step. A dual (cell) graph
   would balance element work instead, which a linear model does only once, at assembly.
   Each cell goes to the owner of its first node. Global node numbers are contiguous per rank, in the storage order
   of order.c (reverse Cuthill-McKee) within a rank; every rank keeps its cells in order.c's global cell order. */
#include <flexure/private/meshimpl.h>
#include <metis.h>

#define METIS_CALL(call)                                                                                      \
  do {                                                                                                        \
    int _r = (call);                                                                                          \
    PetscCheck(_r == METIS_OK, PETSC_COMM_SELF, PETSC_ERR_LIB, "METIS failed with code %d in %s", _r, #call); \
  } while (0)

/* Drop nodes used by no cell and no point group (e.g. unused geometry points); keeps file order. */
static PetscErrorCode CompactNodes(FlxSerialMesh *sm)
{
  PetscInt *map, n = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(sm->nnodes, &map));
  for (PetscInt i = 0; i < sm->nnodes; i++)
    map[i] = -1;
  for (PetscInt k = 0; k < sm->cptr[sm->ncells]; k++)
    map[sm->conn[k]] = 0;
  for (PetscInt k = 0; sm->gpptr && k < sm->gpptr[sm->ngroups]; k++)
    map[sm->gpnodes[k]] = 0;
  for (PetscInt i = 0; i < sm->nnodes; i++)
    if (!map[i]) {
      for (int c = 0; c < 3; c++)
        sm->xyz[3 * n + c] = sm->xyz[3 * i + c];
      map[i] = n++;
    }
  for (PetscInt k = 0; k < sm->cptr[sm->ncells]; k++)
    sm->conn[k] = map[sm->conn[k]];
  for (PetscInt k = 0; sm->gpptr && k < sm->gpptr[sm->ngroups]; k++)
    sm->gpnodes[k] = map[sm->gpnodes[k]];
  sm->nnodes = n;
  PetscCall(PetscFree(map));
  PetscFunctionReturn(0);
}

/* Nodal graph in CSR, without self edges. */
static PetscErrorCode NodalGraph(FlxSerialMesh *sm, PetscInt **xadj, PetscInt **adj)
{
  PetscInt n = sm->nnodes, *nc, *ncells, *mark, *xa, *ad, cap, tot = 0;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(n + 1, &nc));
  for (PetscInt c = 0; c < sm->ncells; c++)
    for (PetscInt k = sm->cptr[c]; k < sm->cptr[c + 1]; k++)
      nc[sm->conn[k] + 1]++;
  for (PetscInt i = 0; i < n; i++)
    nc[i + 1] += nc[i];
  PetscCall(PetscMalloc1(nc[n] + 1, &ncells));
  {
    PetscInt *off;
    PetscCall(PetscMalloc1(n, &off));
    PetscCall(PetscArraycpy(off, nc, n));
    for (PetscInt c = 0; c < sm->ncells; c++)
      for (PetscInt k = sm->cptr[c]; k < sm->cptr[c + 1]; k++)
        ncells[off[sm->conn[k]]++] = c;
    PetscCall(PetscFree(off));
  }
  PetscCall(PetscMalloc1(n, &mark));
  for (PetscInt i = 0; i < n; i++)
    mark[i] = -1;
  PetscCall(PetscMalloc1(n + 1, &xa));
  cap = 4 * nc[n] + 16;
  PetscCall(PetscMalloc1(cap, &ad));
  xa[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt start = tot;
    for (PetscInt q = nc[i]; q < nc[i + 1]; q++) {
      PetscInt c = ncells[q];
      for (PetscInt k = sm->cptr[c]; k < sm->cptr[c + 1]; k++) {
        PetscInt j = sm->conn[k];
        if (j == i || mark[j] == i) continue;
        mark[j] = i;
        if (tot == cap) {
          PetscInt *tmp;
          PetscCall(PetscMalloc1(2 * cap, &tmp));
          PetscCall(PetscArraycpy(tmp, ad, tot));
          PetscCall(PetscFree(ad));
          ad = tmp;
          cap *= 2;
        }
        ad[tot++] = j;
      }
    }
    PetscCall(PetscSortInt(tot - start, ad + start));
    xa[i + 1] = tot;
  }
  PetscCall(PetscFree(nc));
  PetscCall(PetscFree(ncells));
  PetscCall(PetscFree(mark));
  *xadj = xa;
  *adj  = ad;
  PetscFunctionReturn(0);
}

static PetscErrorCode PartitionNodes(FlxSerialMesh *sm, PetscMPIInt size, const PetscInt *xadj, const PetscInt *adj)
{
  PetscFunctionBegin;
  PetscCall(PetscCalloc1(sm->nnodes, &sm->part));
  sm->edgecut = 0;
  if (size > 1) {
    idx_t nv = (idx_t)sm->nnodes, ncon = 1, np = (idx_t)size, objval, *xa, *ad, *part;
    idx_t opts[METIS_NOPTIONS];
    PetscCheck(sm->nnodes >= size, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "the mesh has %" PetscInt_FMT " nodes, fewer than the %d ranks", sm->nnodes, size);
    PetscCall(PetscMalloc3(sm->nnodes + 1, &xa, xadj[sm->nnodes], &ad, sm->nnodes, &part));
    for (PetscInt i = 0; i <= sm->nnodes; i++)
      xa[i] = (idx_t)xadj[i];
    for (PetscInt i = 0; i < xadj[sm->nnodes]; i++)
      ad[i] = (idx_t)adj[i];
    METIS_CALL(METIS_SetDefaultOptions(opts));
    opts[METIS_OPTION_SEED]      = 42; /* deterministic */
    opts[METIS_OPTION_NUMBERING] = 0;
    METIS_CALL(METIS_PartGraphKway(&nv, &ncon, xa, ad, NULL, NULL, NULL, &np, NULL, NULL, opts, &objval, part));
    for (PetscInt i = 0; i < sm->nnodes; i++)
      sm->part[i] = part[i];
    sm->edgecut = objval;
    PetscCall(PetscFree3(xa, ad, part));
  }
  PetscFunctionReturn(0);
}

/* A rank holds the cells it owns and the halo cells owned elsewhere that touch one of its nodes, so that
   it can assemble its rows from every contributing cell, in the global cell order, without off-process
   entries: the assembled values then do not depend on the partition. */
static PetscBool CellOnRank(const FlxSerialMesh *sm, PetscInt c, PetscMPIInt r)
{
  if (sm->cpart[c] == r) return PETSC_TRUE;
  for (PetscInt k = sm->cptr[c]; k < sm->cptr[c + 1]; k++)
    if (sm->part[sm->conn[k]] == r) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* Everything a rank receives, packed into one int and one real buffer. */
typedef struct {
  PetscInt   hdr[8]; /* nowned, ncells, nconn, nghost, nmember, rstart */
  PetscInt  *ints;
  PetscReal *reals;
} Pack;

/* What rank 0 keeps while it packs the ranks' data. */
typedef struct {
  PetscInt *xadj, *adj, *norder, *corder; /* nodal graph, storage orders (Partition) */
  PetscInt *rstart, *mptr, *midx, *ghostmark, *tidx;
} Dist;

/* The data of rank r: its owned nodes in storage order (norder), its owned and halo cells in the global cell order
   (corder; tidx: a cell's index among the cells of its type, in natural order). */
static PetscErrorCode PackRank(FlxSerialMesh *sm, PetscMPIInt r, Dist *d, Pack *pk)
{
  const PetscInt *rstart = d->rstart, *xadj = d->xadj, *adj = d->adj, *mptr = d->mptr, *midx = d->midx, *norder = d->norder, *corder = d->corder, *tidx = d->tidx;
  PetscInt       *ghostmark = d->ghostmark;
  PetscInt        nown = 0, nc = 0, ncn = 0, ngh = 0, nmem = 0, *ip, *ghosts;
  PetscReal      *rp;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < sm->nnodes; i++)
    if (sm->part[i] == r) {
      nown++;
      nmem += mptr[i + 1] - mptr[i];
    }
  for (PetscInt c = 0; c < sm->ncells; c++)
    if (CellOnRank(sm, c, r)) {
      nc++;
      ncn += sm->cptr[c + 1] - sm->cptr[c];
      for (PetscInt k = sm->cptr[c]; k < sm->cptr[c + 1]; k++) {
        PetscInt j = sm->conn[k];
        if (sm->part[j] != r && ghostmark[j] != r) {
          ghostmark[j] = r;
          ngh++;
        }
      }
    }
  PetscCall(PetscMalloc1(ngh + 1, &ghosts));
  ngh = 0;
  for (PetscInt c = 0; c < sm->ncells; c++)
    if (CellOnRank(sm, c, r))
      for (PetscInt k = sm->cptr[c]; k < sm->cptr[c + 1]; k++) {
        PetscInt j = sm->conn[k];
        if (ghostmark[j] == r) {
          ghostmark[j]  = -2 - r; /* counted once */
          ghosts[ngh++] = sm->perm[j];
        }
      }
  PetscCall(PetscSortInt(ngh, ghosts));
  pk->hdr[0] = nown;
  pk->hdr[1] = nc;
  pk->hdr[2] = ncn;
  pk->hdr[3] = ngh;
  pk->hdr[4] = nmem;
  pk->hdr[5] = rstart[r];
  PetscCall(PetscMalloc1(4 * nown + 1 + nmem + 6 * nc + 1 + ncn + ngh + 1, &pk->ints));
  PetscCall(PetscMalloc1(3 * (nown + ngh) + 1, &pk->reals));
  ip = pk->ints;
  rp = pk->reals;
  /* owned nodes (storage order): natural id, dnz, onz, membership */
  for (PetscInt k = 0; k < sm->nnodes; k++) {
    const PetscInt i = norder[k];
    if (sm->part[i] == r) {
      PetscInt d = 1, o = 0;
      for (PetscInt q = xadj[i]; q < xadj[i + 1]; q++) {
        if (sm->part[adj[q]] == r)
          d++;
        else
          o++;
      }
      *ip++ = i;
      *ip++ = d;
      *ip++ = o;
      for (int c = 0; c < 3; c++)
        *rp++ = sm->xyz[3 * i + c];
    }
  }
  *ip++ = 0;
  for (PetscInt k = 0, acc = 0; k < sm->nnodes; k++)
    if (sm->part[norder[k]] == r) {
      acc += mptr[norder[k] + 1] - mptr[norder[k]];
      *ip++ = acc;
    }
  for (PetscInt k = 0; k < sm->nnodes; k++)
    if (sm->part[norder[k]] == r)
      for (PetscInt q = mptr[norder[k]]; q < mptr[norder[k] + 1]; q++)
        *ip++ = midx[q];
  /* cells (owned and halo, global cell order): type, group, natural id, index among the cells of its type,
     owned flag, cptr, conn (global ids) */
  for (PetscInt k = 0; k < sm->ncells; k++) {
    const PetscInt c = corder[k];
    if (CellOnRank(sm, c, r)) {
      *ip++ = sm->type[c];
      *ip++ = sm->group[c];
      *ip++ = c;
      *ip++ = tidx[c];
      *ip++ = sm->cpart[c] == r;
    }
  }
  *ip++ = 0;
  for (PetscInt k = 0, acc = 0; k < sm->ncells; k++)
    if (CellOnRank(sm, corder[k], r)) {
      acc += sm->cptr[corder[k] + 1] - sm->cptr[corder[k]];
      *ip++ = acc;
    }
  for (PetscInt k = 0; k < sm->ncells; k++)
    if (CellOnRank(sm, corder[k], r))
      for (PetscInt q = sm->cptr[corder[k]]; q < sm->cptr[corder[k] + 1]; q++)
        *ip++ = sm->perm[sm->conn[q]];
  /* ghosts (global ids, sorted) and their coordinates */
  {
    PetscInt *inv; /* global -> natural for ghosts */
    PetscCall(PetscMalloc1(sm->nnodes, &inv));
    for (PetscInt i = 0; i < sm->nnodes; i++)
      inv[sm->perm[i]] = i;
    for (PetscInt g = 0; g < ngh; g++) {
      *ip++ = ghosts[g];
      for (int c = 0; c < 3; c++)
        *rp++ = sm->xyz[3 * inv[ghosts[g]] + c];
    }
    PetscCall(PetscFree(inv));
  }
  PetscCall(PetscFree(ghosts));
  pk->hdr[6] = ip - pk->ints;
  pk->hdr[7] = rp - pk->reals;
  PetscFunctionReturn(0);
}

/* Membership CSR: node -> groups it belongs to (point groups and the groups of its cells). */
static PetscErrorCode NodeGroups(FlxSerialMesh *sm, PetscInt **mptr, PetscInt **midx)
{
  PetscInt *cnt, *stamp, *ptr = NULL, *idx = NULL;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(sm->nnodes + 1, &cnt));
  PetscCall(PetscMalloc1(sm->nnodes, &stamp));
  for (int pass = 0; pass < 2; pass++) {
    for (PetscInt i = 0; i < sm->nnodes; i++)
      stamp[i] = -1;
    if (pass == 1) {
      for (PetscInt i = 0; i < sm->nnodes; i++)
        cnt[i + 1] += cnt[i];
      PetscCall(PetscMalloc1(cnt[sm->nnodes] + 1, &idx));
      PetscCall(PetscMalloc1(sm->nnodes + 1, &ptr));
      PetscCall(PetscArraycpy(ptr, cnt, sm->nnodes + 1));
    }
    for (PetscInt g = 0; g < sm->ngroups; g++) {
      for (PetscInt q = sm->gpptr[g]; q < sm->gpptr[g + 1]; q++) {
        PetscInt i = sm->gpnodes[q];
        if (stamp[i] == g) continue;
        stamp[i] = g;
        if (pass == 0)
          cnt[i + 1]++;
        else
          idx[ptr[i]++] = g;
      }
      for (PetscInt c = 0; c < sm->ncells; c++)
        if (sm->group[c] == g)
          for (PetscInt k = sm->cptr[c]; k < sm->cptr[c + 1]; k++) {
            PetscInt i = sm->conn[k];
            if (stamp[i] == g) continue;
            stamp[i] = g;
            if (pass == 0)
              cnt[i + 1]++;
            else
              idx[ptr[i]++] = g;
          }
    }
  }
  PetscCall(PetscFree(ptr));
  PetscCall(PetscFree(stamp));
  *mptr = cnt;
  *midx = idx;
  PetscFunctionReturn(0);
}

static PetscErrorCode Unpack(FlxMesh mesh, Pack *pk)
{
  PetscInt   nown = pk->hdr[0], nc = pk->hdr[1], ncn = pk->hdr[2], ngh = pk->hdr[3], nmem = pk->hdr[4];
  PetscInt  *ip = pk->ints, *mptr, *midx, *cnt;
  PetscReal *rp = pk->reals;

  PetscFunctionBegin;
  mesh->nowned = nown;
  mesh->nghost = ngh;
  mesh->rstart = pk->hdr[5];
  mesh->ncells = nc;
  PetscCall(PetscMalloc1(nown + ngh, &mesh->l2g));
  PetscCall(PetscMalloc1(nown, &mesh->natural));
  PetscCall(PetscMalloc1(3 * (nown + ngh), &mesh->xyz));
  PetscCall(PetscMalloc2(nown, &mesh->dnz, nown, &mesh->onz));
  for (PetscInt i = 0; i < nown; i++) {
    mesh->natural[i] = *ip++;
    mesh->dnz[i]     = *ip++;
    mesh->onz[i]     = *ip++;
    mesh->l2g[i]     = mesh->rstart + i;
  }
  PetscCall(PetscArraycpy(mesh->xyz, rp, 3 * (nown + ngh)));
  mptr = ip;
  ip += nown + 1;
  midx = ip;
  ip += nmem;
  PetscCall(PetscMalloc1(nc, &mesh->ctype));
  PetscCall(PetscMalloc1(nc, &mesh->cgroup));
  PetscCall(PetscMalloc1(nc, &mesh->cnatural));
  PetscCall(PetscMalloc1(nc, &mesh->ctypeidx));
  PetscCall(PetscMalloc1(nc, &mesh->cowned));
  PetscCall(PetscMalloc1(nc + 1, &mesh->cptr));
  PetscCall(PetscMalloc1(ncn + 1, &mesh->conn));
  for (PetscInt c = 0; c < nc; c++) {
    mesh->ctype[c]    = (FlxCellType)*ip++;
    mesh->cgroup[c]   = *ip++;
    mesh->cnatural[c] = *ip++;
    mesh->ctypeidx[c] = *ip++;
    mesh->cowned[c]   = *ip++ ? PETSC_TRUE : PETSC_FALSE;
    mesh->ncowned += mesh->cowned[c];
  }
  PetscCall(PetscArraycpy(mesh->cptr, ip, nc + 1));
  ip += nc + 1;
  {
    const PetscInt *gconn = ip, *ghosts = ip + ncn;
    for (PetscInt g = 0; g < ngh; g++)
      mesh->l2g[nown + g] = ghosts[g];
    for (PetscInt k = 0; k < ncn; k++) {
      PetscInt gid = gconn[k], loc;
      if (gid >= mesh->rstart && gid < mesh->rstart + nown)
        mesh->conn[k] = gid - mesh->rstart;
      else {
        PetscCall(PetscFindInt(gid, ngh, ghosts, &loc));
        PetscCheck(loc >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "ghost node %" PetscInt_FMT " missing", gid);
        mesh->conn[k] = nown + loc;
      }
    }
  }
  /* owned nodes of each group */
  PetscCall(PetscCalloc1(mesh->ngroups + 1, &cnt));
  for (PetscInt q = 0; q < nmem; q++)
    cnt[midx[q] + 1]++;
  for (PetscInt g = 0; g < mesh->ngroups; g++)
    cnt[g + 1] += cnt[g];
  mesh->gnptr = cnt;
  PetscCall(PetscMalloc1(nmem + 1, &mesh->gnodes));
  {
    PetscInt *off;
    PetscCall(PetscMalloc1(mesh->ngroups + 1, &off));
    PetscCall(PetscArraycpy(off, cnt, mesh->ngroups + 1));
    for (PetscInt i = 0; i < nown; i++)
      for (PetscInt q = mptr[i]; q < mptr[i + 1]; q++)
        mesh->gnodes[off[midx[q]]++] = i;
    PetscCall(PetscFree(off));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode BroadcastGlobals(FlxMesh mesh)
{
  PetscInt buf[2 + FLX_NUM_CELL_TYPES] = {0};

  PetscFunctionBegin;
  if (mesh->rank == 0) {
    FlxSerialMesh *sm = mesh->serial;
    buf[0]            = sm->nnodes;
    buf[1]            = sm->ngroups;
    for (PetscInt c = 0; c < sm->ncells; c++)
      buf[2 + sm->type[c]]++;
  }
  PetscCallMPI(MPI_Bcast(buf, 2 + FLX_NUM_CELL_TYPES, MPIU_INT, 0, mesh->comm));
  mesh->Nnodes  = buf[0];
  mesh->ngroups = buf[1];
  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++)
    mesh->Ncells[t] = buf[2 + t];
  {
    PetscErrorCode ierr = PetscMalloc1(mesh->ngroups + 1, &mesh->gname);
    if (!ierr) ierr = PetscMalloc1(mesh->ngroups + 1, &mesh->gdim);
    PetscCall(FlxCheckCollectiveError(mesh->comm, ierr, PETSC_ERR_MEM, "out of memory for the group names"));
  }
  if (mesh->rank == 0) {
    PetscCall(PetscArraycpy(mesh->gname, mesh->serial->gname, mesh->ngroups));
    PetscCall(PetscArraycpy(mesh->gdim, mesh->serial->gdim, mesh->ngroups));
  }
  PetscCallMPI(MPI_Bcast(mesh->gname, (PetscMPIInt)(mesh->ngroups * FLX_NAME_LEN), MPI_CHAR, 0, mesh->comm));
  PetscCallMPI(MPI_Bcast(mesh->gdim, (PetscMPIInt)mesh->ngroups, MPIU_INT, 0, mesh->comm));
  PetscFunctionReturn(0);
}

/* Rank 0: compact, build the nodal graph, partition it and choose the storage order (order.c). */
static PetscErrorCode Partition(FlxMesh mesh, PetscInt **xadj, PetscInt **adj, PetscInt **norder, PetscInt **corder)
{
  FlxSerialMesh *sm = mesh->serial;

  PetscFunctionBegin;
  if (!sm->gpptr) PetscCall(PetscCalloc1(sm->ngroups + 1, &sm->gpptr));
  PetscCall(CompactNodes(sm));
  PetscCall(PetscLogEventBegin(FLX_MeshPartition, 0, 0, 0, 0));
  PetscCall(NodalGraph(sm, xadj, adj));
  PetscCall(PartitionNodes(sm, mesh->size, *xadj, *adj));
  PetscCall(FlxSerialMeshLocalityOrder(sm, *xadj, *adj, norder, corder));
  PetscCall(PetscLogEventEnd(FLX_MeshPartition, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}

/* Rank 0, before any rank is sent its data: the cells' owners, the global node numbers (contiguous per rank, storage
   order within a rank), each cell's index among its type's and the nodes' group membership. */
static PetscErrorCode Prepare(FlxMesh mesh, Dist *d)
{
  FlxSerialMesh *sm = mesh->serial;
  PetscInt      *cnt, ntype[FLX_NUM_CELL_TYPES] = {0};

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(sm->ncells, &sm->cpart));
  for (PetscInt c = 0; c < sm->ncells; c++)
    sm->cpart[c] = sm->part[sm->conn[sm->cptr[c]]];
  PetscCall(PetscMalloc1(mesh->size + 1, &d->rstart));
  PetscCall(PetscCalloc1(mesh->size + 1, &cnt));
  for (PetscInt i = 0; i < sm->nnodes; i++)
    cnt[sm->part[i]]++;
  d->rstart[0] = 0;
  for (PetscMPIInt r = 0; r < mesh->size; r++)
    d->rstart[r + 1] = d->rstart[r] + cnt[r];
  PetscCall(PetscMalloc1(sm->ncells + 1, &d->tidx));
  for (PetscInt c = 0; c < sm->ncells; c++)
    d->tidx[c] = ntype[sm->type[c]]++;
  PetscCall(PetscMalloc1(sm->nnodes, &sm->perm));
  PetscCall(PetscArraycpy(cnt, d->rstart, mesh->size));
  for (PetscInt k = 0; k < sm->nnodes; k++)
    sm->perm[d->norder[k]] = cnt[sm->part[d->norder[k]]]++;
  PetscCall(PetscFree(cnt));
  PetscCall(NodeGroups(sm, &d->mptr, &d->midx));
  PetscCall(PetscMalloc1(sm->nnodes, &d->ghostmark));
  for (PetscInt i = 0; i < sm->nnodes; i++)
    d->ghostmark[i] = -1;
  PetscFunctionReturn(0);
}

static PetscErrorCode DistFree(Dist *d)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(d->xadj));
  PetscCall(PetscFree(d->adj));
  PetscCall(PetscFree(d->norder));
  PetscCall(PetscFree(d->corder));
  PetscCall(PetscFree(d->rstart));
  PetscCall(PetscFree(d->mptr));
  PetscCall(PetscFree(d->midx));
  PetscCall(PetscFree(d->ghostmark));
  PetscCall(PetscFree(d->tidx));
  PetscFunctionReturn(0);
}

/* Fault injection for the tests of the distribution's error paths (tests/check_cli.py): FLX_FAULT_MESH=STAGE:R
   fails stage STAGE (pack: rank 0 packing rank R's data; alloc: rank R allocating its receive buffers; unpack: rank R
   unpacking) as an out-of-memory error would. Not collective. */
static PetscErrorCode Fault(const char stage[], PetscMPIInt r)
{
  const char *f = getenv("FLX_FAULT_MESH");
  size_t      n = strlen(stage);

  PetscFunctionBegin;
  PetscCheck(!f || strncmp(f, stage, n) || f[n] != ':' || atoi(f + n + 1) != r, PETSC_COMM_SELF, PETSC_ERR_MEM, "fault injected while distributing the mesh: %s, rank %d (FLX_FAULT_MESH)", stage, (int)r);
  PetscFunctionReturn(0);
}

/* Rank 0 sends rank r its data (pk), or a header of -1 when its packing failed (ok false); the rank answers whether
   it could allocate its buffers, and only then is sent them, so that a failure on either side leaves no rank waiting
   (the caller makes it collective). */
static PetscErrorCode SendRank(MPI_Comm comm, PetscMPIInt r, PetscBool ok, Pack *pk)
{
  PetscInt ready = 0;

  PetscFunctionBegin;
  if (!ok)
    for (int i = 0; i < 8; i++)
      pk->hdr[i] = -1;
  PetscCallMPI(MPI_Send(pk->hdr, 8, MPIU_INT, r, 0, comm));
  if (!ok) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Recv(&ready, 1, MPIU_INT, r, 3, comm, MPI_STATUS_IGNORE));
  if (ready) {
    PetscCallMPI(MPI_Send(pk->ints, (PetscMPIInt)pk->hdr[6], MPIU_INT, r, 1, comm));
    PetscCallMPI(MPI_Send(pk->reals, (PetscMPIInt)pk->hdr[7], MPIU_REAL, r, 2, comm));
  }
  PetscFunctionReturn(0);
}

/* A rank other than 0 receives its data; *ierr: its own failure (a header of -1: rank 0's, reported there). */
static PetscErrorCode RecvRank(MPI_Comm comm, Pack *pk, PetscErrorCode *ierr)
{
  PetscInt ready;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Recv(pk->hdr, 8, MPIU_INT, 0, 0, comm, MPI_STATUS_IGNORE));
  if (pk->hdr[6] < 0) {
    *ierr = PETSC_ERR_USER_INPUT;
    PetscFunctionReturn(0);
  }
  {
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(comm, &rank));
    *ierr = Fault("alloc", rank);
  }
  if (!*ierr) *ierr = PetscMalloc1(pk->hdr[6] + 1, &pk->ints);
  if (!*ierr) *ierr = PetscMalloc1(pk->hdr[7] + 1, &pk->reals);
  ready = !*ierr;
  PetscCallMPI(MPI_Send(&ready, 1, MPIU_INT, 0, 3, comm));
  if (ready) {
    PetscCallMPI(MPI_Recv(pk->ints, (PetscMPIInt)pk->hdr[6], MPIU_INT, 0, 1, comm, MPI_STATUS_IGNORE));
    PetscCallMPI(MPI_Recv(pk->reals, (PetscMPIInt)pk->hdr[7], MPIU_REAL, 0, 2, comm, MPI_STATUS_IGNORE));
  }
  PetscFunctionReturn(0);
}

/* Partition the serial mesh of rank 0 and give every rank its nodes, cells and ghosts. A failure of rank 0's serial
   work (too few nodes for the ranks, METIS, memory) or of any rank's packing, transfer or unpacking is one collective
   error. Collective. */
PetscErrorCode FlxMeshPartitionAndDistribute(FlxMesh mesh)
{
  Pack           pk   = {{0}, NULL, NULL};
  Dist           d    = {0};
  PetscErrorCode ierr = 0;

  PetscFunctionBegin;
  if (mesh->rank == 0) {
    ierr = Partition(mesh, &d.xadj, &d.adj, &d.norder, &d.corder);
    if (!ierr) ierr = Prepare(mesh, &d);
  }
  PetscCall(FlxCheckCollectiveError(mesh->comm, ierr, PETSC_ERR_USER_INPUT, "the mesh could not be partitioned (error above)"));
  PetscCall(FlxPhaseBegin(mesh->comm, "distributing the mesh"));
  PetscCall(BroadcastGlobals(mesh));
  PetscCall(PetscLogEventBegin(FLX_MeshDistribute, 0, 0, 0, 0));
  if (mesh->rank == 0) {
    for (PetscMPIInt r = mesh->size - 1; r >= 0; r--) {
      if (!ierr) ierr = Fault("pack", r);
      if (!ierr) ierr = PackRank(mesh->serial, r, &d, &pk);
      if (r > 0) {
        PetscCall(SendRank(mesh->comm, r, (PetscBool)!ierr, &pk));
        PetscCall(PetscFree(pk.ints));
        PetscCall(PetscFree(pk.reals));
      }
    }
    PetscCall(DistFree(&d));
  } else
    PetscCall(RecvRank(mesh->comm, &pk, &ierr));
  if (!ierr) ierr = Fault("unpack", mesh->rank);
  if (!ierr) ierr = Unpack(mesh, &pk);
  PetscCall(PetscFree(pk.ints));
  PetscCall(PetscFree(pk.reals));
  PetscCall(FlxCheckCollectiveError(mesh->comm, ierr, PETSC_ERR_MEM, "the mesh could not be distributed (error above, on rank 0 or another rank)"));
  PetscCall(PetscLogEventEnd(FLX_MeshDistribute, 0, 0, 0, 0));
  PetscFunctionReturn(0);
}
