/* The parts of a model: the sets of nodes that its elements join, with the nodes that hang on them by springs alone
   (node sets and point masses join nothing). A mesh whose nodes were never merged, or pieces that nothing connects,
   has several; the rigid-body check (rigid.c) holds each to its supports and to the parts already held. */
#include <flexure/private/modelimpl.h>

static PetscInt Root(PetscInt *up, PetscInt i)
{
  while (up[i] != i) {
    up[i] = up[up[i]]; /* path halving */
    i     = up[i];
  }
  return i;
}

/* Labels of the local nodes' parts, global and the same at any number of ranks: the smallest natural id of the part's
   nodes (-1 for a node in no element and no spring cell). Elements join their nodes; a spring cell joins its ends when
   one of them is in no element (an anchor, a mass on springs belongs to the part it hangs on); a spring between two
   elements' nodes joins nothing (rigid.c decides whether it holds). Local union-find over the local cells (each rank
   has every cell of its owned nodes), then the labels travel through the ghost nodes until no rank changes one (a part
   that crosses the partition k times needs about k rounds). Collective. */
static PetscErrorCode LabelNodes(FlxModel m, PetscInt label[])
{
  PetscInt           nown, nghost, nc, nl, *up, rounds = 0, *best;
  const PetscInt    *l2g, *nat;
  PetscBool         *elem, *in;
  Vec                g, l;
  IS                 is;
  VecScatter         sct;
  PetscScalar       *ga;
  const PetscScalar *la;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, &nghost, &nc));
  PetscCall(FlxMeshGetLocalToGlobal(m->mesh, &l2g));
  PetscCall(FlxMeshGetNaturalIds(m->mesh, &nat));
  nl = nown + nghost;
  PetscCall(PetscMalloc2(nl + 1, &up, nl + 1, &best));
  PetscCall(PetscCalloc2(nl + 1, &elem, nl + 1, &in));
  PetscCall(VecCreateMPI(m->comm, nown, PETSC_DETERMINE, &g));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, nl, &l));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, nl, l2g, PETSC_USE_POINTER, &is));
  PetscCall(VecScatterCreate(g, is, l, NULL, &sct));
  for (PetscInt i = 0; i < nl; i++)
    up[i] = i;
  for (PetscInt c = 0; c < nc; c++) { /* elements join their nodes */
    const PetscInt *nodes;
    PetscInt        nn;
    if (m->cell_section[c] < 0 || FlxModelCellIsSpring(m, c)) continue;
    PetscCall(FlxMeshGetCell(m->mesh, c, NULL, &nn, &nodes, NULL));
    for (PetscInt a = 0; a < nn; a++) {
      elem[nodes[a]] = in[nodes[a]] = PETSC_TRUE;
      if (a) {
        PetscInt r0 = Root(up, nodes[0]), r1 = Root(up, nodes[a]);
        if (r0 != r1) up[PetscMax(r0, r1)] = PetscMin(r0, r1);
      }
    }
  }
  PetscCall(VecGetArray(g, &ga)); /* whether a ghost is in an element: its owner knows */
  for (PetscInt i = 0; i < nown; i++)
    ga[i] = elem[i] ? 1 : 0;
  PetscCall(VecRestoreArray(g, &ga));
  PetscCall(VecScatterBegin(sct, g, l, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sct, g, l, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(l, &la));
  for (PetscInt i = nown; i < nl; i++)
    elem[i] = (PetscBool)(PetscRealPart(la[i]) > 0.5);
  PetscCall(VecRestoreArrayRead(l, &la));
  for (PetscInt c = 0; c < nc; c++) { /* spring cells with an end in no element join it to the other end's part */
    const PetscInt *nodes;
    PetscInt        nn, r0, r1;
    if (!FlxModelCellIsSpring(m, c)) continue;
    PetscCall(FlxMeshGetCell(m->mesh, c, NULL, &nn, &nodes, NULL));
    if (nn != 2 || (elem[nodes[0]] && elem[nodes[1]])) continue;
    in[nodes[0]] = in[nodes[1]] = PETSC_TRUE;
    r0                          = Root(up, nodes[0]);
    r1                          = Root(up, nodes[1]);
    if (r0 != r1) up[PetscMax(r0, r1)] = PetscMin(r0, r1);
  }
  for (PetscInt i = 0; i < nl; i++)
    label[i] = i < nown && in[i] ? nat[i] : PETSC_MAX_INT; /* ghosts: from their owners below */
  for (;;) {
    PetscBool changed = PETSC_FALSE, any;
    PetscCall(VecGetArray(g, &ga));
    for (PetscInt i = 0; i < nown; i++)
      ga[i] = (PetscScalar)label[i];
    PetscCall(VecRestoreArray(g, &ga));
    PetscCall(VecScatterBegin(sct, g, l, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(sct, g, l, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGetArrayRead(l, &la));
    for (PetscInt i = nown; i < nl; i++) /* a ghost's label is its owner's */
      label[i] = (PetscInt)PetscRealPart(la[i]);
    PetscCall(VecRestoreArrayRead(l, &la));
    for (PetscInt i = 0; i < nl; i++)
      best[i] = PETSC_MAX_INT;
    for (PetscInt i = 0; i < nl; i++) { /* each local part: the smallest label of its nodes */
      const PetscInt r = Root(up, i);
      best[r]          = PetscMin(best[r], label[i]);
    }
    for (PetscInt i = 0; i < nown; i++) {
      const PetscInt v = in[i] ? best[Root(up, i)] : PETSC_MAX_INT;
      if (v != label[i]) changed = PETSC_TRUE;
      label[i] = v;
    }
    PetscCallMPI(MPI_Allreduce(&changed, &any, 1, MPIU_BOOL, MPI_LOR, m->comm));
    if (!any || ++rounds > 100000) break;
  }
  for (PetscInt i = 0; i < nl; i++) /* ghosts hold their owners' labels of the last round: final */
    if (label[i] == PETSC_MAX_INT) label[i] = -1;
  PetscCall(VecScatterDestroy(&sct));
  PetscCall(ISDestroy(&is));
  PetscCall(VecDestroy(&g));
  PetscCall(VecDestroy(&l));
  PetscCall(PetscFree2(elem, in));
  PetscCall(PetscFree2(up, best));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelGetParts(FlxModel m, PetscInt *nparts, PetscInt **part, PetscInt **first)
{
  PetscInt    nown, nghost, nl, nloc = 0, *label, *mine, *all = NULL, ntot = 0, K = 0;
  PetscMPIInt size, n, *counts, *displs;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, &nghost, NULL));
  nl = nown + nghost;
  PetscCall(PetscMalloc1(nl + 1, &label));
  PetscCall(LabelNodes(m, label));
  PetscCall(PetscMalloc1(nown + 1, &mine)); /* this rank's distinct labels */
  for (PetscInt i = 0; i < nown; i++)
    if (label[i] >= 0) mine[nloc++] = label[i];
  PetscCall(PetscSortRemoveDupsInt(&nloc, mine));
  PetscCallMPI(MPI_Comm_size(m->comm, &size));
  PetscCall(PetscMalloc2(size, &counts, size + 1, &displs));
  PetscCall(PetscMPIIntCast(nloc, &n));
  PetscCallMPI(MPI_Allgather(&n, 1, MPI_INT, counts, 1, MPI_INT, m->comm));
  displs[0] = 0;
  for (PetscMPIInt r = 0; r < size; r++)
    displs[r + 1] = displs[r] + counts[r];
  ntot = displs[size];
  PetscCall(PetscMalloc1(ntot + 1, &all));
  PetscCallMPI(MPI_Allgatherv(mine, n, MPIU_INT, all, counts, displs, MPIU_INT, m->comm));
  K = ntot;
  PetscCall(PetscSortRemoveDupsInt(&K, all)); /* parts numbered by their smallest natural node id */
  for (PetscInt i = 0; i < nl; i++) {
    PetscInt loc = -1;
    if (label[i] >= 0) PetscCall(PetscFindInt(label[i], K, all, &loc));
    label[i] = loc;
  }
  *nparts = K;
  *part   = label;
  if (first) {
    PetscCall(PetscMalloc1(K + 1, first));
    PetscCall(PetscArraycpy(*first, all, K));
  }
  PetscCall(PetscFree(all));
  PetscCall(PetscFree2(counts, displs));
  PetscCall(PetscFree(mine));
  PetscFunctionReturn(0);
}
