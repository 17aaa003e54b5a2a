/* The storage order of nodes and cells (rank 0, before the distribution): reverse Cuthill-McKee on the nodal graph.

   Why: the element loop gathers the nodal values of each cell and adds its forces to them, and the assembled product
   reads x at the block columns of each row. Gmsh numbers the nodes of an unstructured surface in the order its
   mesher created them: the nodes of one cell lie tens of thousands of numbers apart and consecutive cells jump as
   far, so every gather and every sum misses the caches (a quad-dominant 5.8e5-DOF plate from Gmsh, 1 rank: element
   loop at 51 % of its memory bound, against 80 % or more on a plate numbered row by row). RCM numbers the nodes
   front by front, so a cell's nodes and the next cell's are close; the cells then go in the order of their
   lowest-numbered node in that numbering (then natural id).

   What it changes: only where things are stored. The global (PETSc) numbering within a rank follows the order of
   the owned nodes, and every rank keeps its cells in the global cell order computed here, a function of the mesh
   alone: the element loop's and the assembly's nodal sums still run over the same cells in the same order at any
   number of ranks (bit-identical histories). Natural ids (file order) are kept for input and output: groups,
   results and the deterministic K x (kmult.c) use them. When RCM does not shorten the mean distance between
   neighbouring nodes' numbers (a generated mesh numbered row by row), the nodes keep their natural order (and the
   cells are sorted by it: for a mesh numbered row by row, their natural order again). */
#include <flexure/private/meshimpl.h>

/* Breadth-first search of the component of s from s: the nodes by levels (neighbours by increasing degree, then
   number) appended to q[*nq ..]; visited marked with stamp, those numbered before (pos >= 0) skipped. Returns the
   last level's first index in q. */
static PetscInt Bfs(const PetscInt *xadj, const PetscInt *adj, const PetscInt *pos, PetscInt s, PetscInt stamp, PetscInt *mark, PetscInt *q, PetscInt *nq, PetscInt *scratch)
{
  PetscInt head = *nq, last = *nq, end;

  mark[s]    = stamp;
  q[(*nq)++] = s;
  while (head < *nq) {
    last = head;
    end  = *nq;
    for (; head < end; head++) {
      const PetscInt i = q[head];
      PetscInt       m = 0;
      for (PetscInt k = xadj[i]; k < xadj[i + 1]; k++)
        if (mark[adj[k]] != stamp && pos[adj[k]] < 0) { /* (the graph is symmetric: the second test only guards) */
          mark[adj[k]]       = stamp;
          scratch[2 * m]     = xadj[adj[k] + 1] - xadj[adj[k]]; /* degree, then number: sorted pairs */
          scratch[2 * m + 1] = adj[k];
          m++;
        }
      for (PetscInt a = 1; a < m; a++) /* insertion sort: a node has few neighbours */
        for (PetscInt b = a; b > 0 && (scratch[2 * b - 2] > scratch[2 * b] || (scratch[2 * b - 2] == scratch[2 * b] && scratch[2 * b - 1] > scratch[2 * b + 1])); b--) {
          PetscInt t0 = scratch[2 * b], t1 = scratch[2 * b + 1];
          scratch[2 * b]     = scratch[2 * b - 2];
          scratch[2 * b + 1] = scratch[2 * b - 1];
          scratch[2 * b - 2] = t0;
          scratch[2 * b - 1] = t1;
        }
      for (PetscInt a = 0; a < m; a++)
        q[(*nq)++] = scratch[2 * a + 1];
    }
  }
  return last;
}

/* Mean |i - j| over the edges of the graph numbered by pos (pos[i]: the number of node i). */
static PetscReal MeanSpan(PetscInt n, const PetscInt *xadj, const PetscInt *adj, const PetscInt *pos)
{
  PetscReal s = 0;
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt k = xadj[i]; k < xadj[i + 1]; k++)
      s += (PetscReal)PetscAbsInt(pos[i] - pos[adj[k]]);
  return xadj[n] ? s / (PetscReal)xadj[n] : 0;
}

/* norder[k]: the natural id of the k-th node in storage order; corder[k]: the natural id of the k-th cell (both
   allocated here). xadj, adj: the nodal graph (partition.c's NodalGraph). Not collective (rank 0). */
PetscErrorCode FlxSerialMeshLocalityOrder(const FlxSerialMesh *sm, const PetscInt *xadj, const PetscInt *adj, PetscInt **norder, PetscInt **corder)
{
  const PetscInt n = sm->nnodes;
  PetscInt      *mark, *q, *pos, *scratch, *key, nq = 0, maxdeg = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++)
    maxdeg = PetscMax(maxdeg, xadj[i + 1] - xadj[i]);
  PetscCall(PetscMalloc4(n + 1, &mark, n + 1, &q, n + 1, &pos, 2 * maxdeg + 2, &scratch));
  for (PetscInt i = 0; i < n; i++)
    mark[i] = pos[i] = -1; /* pos: >= 0 once numbered */
  /* each component from a pseudo-peripheral node: from its lowest-numbered node, the least connected node of the
     last level, twice (George and Liu's heuristic, shortened); every search has its own stamp */
  for (PetscInt s = 0, stamp = 0; s < n; s++) {
    PetscInt start = s, n0 = nq;
    if (pos[s] >= 0) continue;
    for (int round = 0; round < 2; round++) {
      PetscInt best = -1, first = Bfs(xadj, adj, pos, start, stamp++, mark, q, &nq, scratch);
      for (PetscInt k = first; k < nq; k++)
        if (best < 0 || xadj[q[k] + 1] - xadj[q[k]] < xadj[best + 1] - xadj[best]) best = q[k];
      nq    = n0; /* a probe: undone */
      start = best;
    }
    (void)Bfs(xadj, adj, pos, start, stamp++, mark, q, &nq, scratch); /* the numbering */
    for (PetscInt k = n0; k < nq; k++)
      pos[q[k]] = 0;
  }
  PetscCheck(nq == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "node ordering: %" PetscInt_FMT " of %" PetscInt_FMT " nodes numbered", nq, n);
  for (PetscInt k = 0; k < n; k++) /* reverse */
    pos[q[n - 1 - k]] = k;
  {
    PetscReal rcm = MeanSpan(n, xadj, adj, pos), nat;
    for (PetscInt i = 0; i < n; i++)
      mark[i] = i;
    nat = MeanSpan(n, xadj, adj, mark);
    PetscCall(PetscInfo(NULL, "node storage order: %s (mean |i - j| over the nodal graph's edges: natural %g, RCM %g)\n", rcm < nat ? "RCM" : "natural", (double)nat, (double)rcm));
    if (!(rcm < nat))
      for (PetscInt i = 0; i < n; i++)
        pos[i] = i;
  }
  PetscCall(PetscMalloc1(n + 1, norder));
  for (PetscInt i = 0; i < n; i++)
    (*norder)[pos[i]] = i;
  /* cells by the storage number of their first-stored node, then natural id */
  PetscCall(PetscMalloc1(sm->ncells + 1, &key));
  PetscCall(PetscMalloc1(sm->ncells + 1, corder));
  for (PetscInt c = 0; c < sm->ncells; c++) {
    PetscInt m = PETSC_MAX_INT;
    for (PetscInt k = sm->cptr[c]; k < sm->cptr[c + 1]; k++)
      m = PetscMin(m, pos[sm->conn[k]]);
    key[c]       = m;
    (*corder)[c] = c;
  }
  PetscCall(PetscSortIntWithArray(sm->ncells, key, *corder)); /* not stable: ties broken below */
  for (PetscInt a = 0, b; a < sm->ncells; a = b) {
    for (b = a + 1; b < sm->ncells && key[b] == key[a]; b++) {
    }
    PetscCall(PetscSortInt(b - a, *corder + a));
  }
  PetscCall(PetscFree(key));
  PetscCall(PetscFree4(mark, q, pos, scratch));
  PetscFunctionReturn(0);
}
