/* Element-by-element internal force of the linear cells: f = K x without the assembled K (docs/methods.md,
   "Performance"). The cells are grouped by kernel class (linear beams, the beams of geometry nonlinear sections
   linearized, MITC4 quads, DKT3 triangles, and a dense class for springs and any element without a kernel of its
   own), each class in batches of FLX_EBE_LANES cells (src/elements/beamfast.c, shellfast.c: one SIMD lane per cell,
   the constant data precomputed), and the batches' forces are added node by node.

   Summation order. Every rank holds its owned cells and the halo cells that touch its owned nodes (the mesh's local
   cells, in the global cell order of src/mesh/order.c) and adds only the rows of its owned nodes. Within a class the
   cells are visited in that order and the classes in a fixed order, so every nodal sum runs over the same terms in
   the same order at any number of ranks: the product, and the explicit histories, are bit-identical at 1, 2 and 4 ranks.

   Halo exchange overlapped with the interior cells. The cells whose nodes are all owned ("far") need no ghost
   values: they run between VecScatterBegin and VecScatterEnd of the ghost values; the others ("near") after. An
   owned node touched by both kinds would get its sums in another order than at one rank (far cells first): its
   contributions go to slots instead, one per (cell, node), and are summed at the end in class and cell order,
   which is the one-rank order. Such nodes are one layer around the partition boundary. Near cells read
   their nodes from a compact buffer: the owned nodes they touch (copied) and the ghosts (the scatter's target).

   No allocation in the product; its arithmetic is counted (FlxEbeGetCost) for the choice between this loop and the
   assembled product (model.c). */
#include <flexure/private/modelimpl.h>
#include <flexure/private/elementimpl.h>

#define W FLX_EBE_LANES

typedef enum {
  CLS_BEAM,   /* beam3d of linear sections */
  CLS_BEAMNL, /* beam3d of geometry nonlinear sections, linearized (K_0 x only) */
  CLS_QUAD,   /* MITC4 */
  CLS_TRI,    /* DKT3 */
  CLS_DENSE,  /* springs, any other element: its global matrix */
  NCLS
} Cls; /* NCLS == FLX_EBE_NCLASSES */
static const char *const ClsNames[NCLS] = {"linear beams", "co-rotational beams, linearized", "MITC4 quads", "DKT3 triangles", "springs and other cells (dense matrices)"};

/* A dense cell: its matrix (6 nn square, row-major, global axes) at koff in the pool. */
typedef struct {
  int      nn, gi[4], si[4], own;
  PetscInt koff;
} Dense;

/* The cells of one set (0 far, 1 near): per class the batches (or dense cells). */
typedef struct {
  PetscInt      n[NCLS];     /* batches (dense: cells) */
  PetscInt      cells[NCLS]; /* cells */
  FlxBeamBatch *beam[2];     /* CLS_BEAM, CLS_BEAMNL */
  FlxQuadBatch *quad;
  FlxTriBatch  *tri;
  Dense        *dense;
  void         *raw[4]; /* the allocations of the aligned arrays */
} Set;

struct _FlxEbe {
  FlxModel   m;
  PetscInt   nown, nghost;
  Set        set[2];
  PetscReal *kpool; /* dense matrices */
  /* halo: compact buffer of the near cells' nodes, owned copies then ghosts */
  PetscInt   nno, *own; /* owned nodes copied into xn[0 .. 6 nno) */
  PetscReal *xn;
  Vec        xg; /* xn's ghost part */
  VecScatter sct;
  /* slots: per mixed node its slots in class and cell order */
  PetscInt   nslot, nmix, *mix, *mixptr, *mixslot;
  char      *slotnl; /* the slot belongs to a CLS_BEAMNL cell */
  PetscReal *slot;
  PetscInt   owned[NCLS]; /* owned cells per class (springs: those whose first node is owned) */
  PetscReal  flops[2];    /* of one product on this rank (FlxEbeGetCost), without and with the CLS_BEAMNL cells */
};

PetscErrorCode FlxMallocAligned(size_t bytes, void **raw, void **p)
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc(bytes + 64, raw));
  PetscCall(PetscMemzero(*raw, bytes + 64));
  *p = (void *)(((uintptr_t)*raw + 63) & ~(uintptr_t)63);
  PetscFunctionReturn(0);
}

/* The class of local cell c (-1: none in this loop: node sets, spring cells, which the dense class gets from the
   spring visitor). */
static PetscErrorCode CellClass(FlxModel m, PetscInt c, int *cls)
{
  const FlxSection *s;
  FlxCellType       t;
  PetscBool         b, q, tr;

  PetscFunctionBegin;
  *cls = -1;
  if (m->cell_section[c] < 0) PetscFunctionReturn(0);
  s = &m->sec[m->cell_section[c]];
  if (s->spring) PetscFunctionReturn(0);
  PetscCall(FlxMeshGetCell(m->mesh, c, &t, NULL, NULL, NULL));
  if (!s->ops[t]) PetscFunctionReturn(0);
  PetscCall(PetscStrcmp(s->ops[t]->name, FLXELEMENTBEAM3D, &b));
  PetscCall(PetscStrcmp(s->ops[t]->name, FLXELEMENTMITC4, &q));
  PetscCall(PetscStrcmp(s->ops[t]->name, FLXELEMENTDKT3, &tr));
  if (b && t == FLX_CELL_LINE2)
    *cls = s->nonlinear ? CLS_BEAMNL : CLS_BEAM;
  else if (q && t == FLX_CELL_QUAD4)
    *cls = CLS_QUAD;
  else if (tr && t == FLX_CELL_TRI3)
    *cls = CLS_TRI;
  else
    *cls = CLS_DENSE;
  PetscFunctionReturn(0);
}

/* Build state shared by the passes over the cells. */
typedef struct {
  FlxEbe    e;
  int       pass; /* 0: count, 1: fill */
  PetscInt  fill[2][NCLS];
  char     *hasfar, *hasnear; /* owned nodes */
  PetscInt *cmp;              /* local node -> compact near index (-1 none) */
  PetscInt  nkpool, ntup, captup;
  PetscInt *tup;         /* slot tuples: node, class, order, slot */
  PetscInt  seq, ncells; /* order of a spring in the dense class (after the ncells local mesh cells) */
} Build;

/* Lane l's node indices of a cell: gather (owned node, or compact index for near cells) and scatter targets. */
static PetscErrorCode CellIndices(Build *bd, int near, PetscInt nn, const PetscInt nodes[], int cls, PetscInt order, int gi[], int si[])
{
  FlxEbe e = bd->e;

  PetscFunctionBegin;
  for (PetscInt a = 0; a < nn; a++) {
    PetscInt i = nodes[a];
    gi[a]      = (int)(near ? bd->cmp[i] : i);
    if (i >= e->nown)
      si[a] = -1;
    else if (bd->hasfar[i] && bd->hasnear[i]) { /* mixed: a slot */
      if (bd->ntup + 1 > bd->captup) {
        PetscInt *t;
        bd->captup = 2 * bd->captup + 64;
        PetscCall(PetscMalloc1(4 * bd->captup, &t));
        if (bd->ntup) PetscCall(PetscArraycpy(t, bd->tup, 4 * bd->ntup));
        PetscCall(PetscFree(bd->tup));
        bd->tup = t;
      }
      bd->tup[4 * bd->ntup]     = i;
      bd->tup[4 * bd->ntup + 1] = cls;
      bd->tup[4 * bd->ntup + 2] = order;
      bd->tup[4 * bd->ntup + 3] = e->nslot;
      bd->ntup++;
      si[a] = (int)(-2 - e->nslot++);
    } else
      si[a] = (int)i;
  }
  PetscFunctionReturn(0);
}

/* Count (pass 0) or store (pass 1) a mesh cell of class cls. */
static PetscErrorCode AddCell(Build *bd, PetscInt c, int cls)
{
  FlxEbe                 e = bd->e;
  FlxModel               m = e->m;
  const PetscInt        *nodes;
  PetscInt               nn, k, l;
  PetscBool              owned;
  int                    near = 0, gi[4], si[4];
  Set                   *S;
  const FlxSectionProps *p;
  FlxElementOps          ops;
  PetscReal              xyz[12];
  char                   err[256];

  PetscFunctionBegin;
  PetscCall(FlxMeshGetCell(m->mesh, c, NULL, &nn, &nodes, NULL));
  for (PetscInt a = 0; a < nn; a++)
    if (nodes[a] >= e->nown) near = 1;
  S = &e->set[near];
  if (bd->pass == 0) {
    for (PetscInt a = 0; a < nn; a++)
      if (nodes[a] < e->nown) (near ? bd->hasnear : bd->hasfar)[nodes[a]] = 1;
    S->cells[cls]++;
    if (cls == CLS_DENSE) bd->nkpool += 36 * nn * nn;
    PetscFunctionReturn(0);
  }
  PetscCall(FlxMeshIsCellOwned(m->mesh, c, &owned));
  PetscCall(FlxModelElementProps(m, c, &p, &ops, xyz));
  PetscCall(CellIndices(bd, near, nn, nodes, cls, c, gi, si));
  if (owned) e->owned[cls]++;
  k = bd->fill[near][cls] / W;
  l = bd->fill[near][cls] % W;
  bd->fill[near][cls]++;
#define LANE(B)                         \
  do {                                  \
    for (PetscInt a = 0; a < nn; a++) { \
      (B)->gi[a][l] = gi[a];            \
      (B)->si[a][l] = si[a];            \
    }                                   \
    (B)->n = (int)l + 1;                \
    if (owned) (B)->own |= 1 << l;      \
  } while (0)
  if (cls == CLS_BEAM || cls == CLS_BEAMNL) {
    FlxCorotBeamData d;
    FlxBeamBatch    *B = &S->beam[cls == CLS_BEAMNL][k];
    PetscCall(FlxCorotBeamSetUp(xyz, p, &d, err, sizeof(err))); /* geometry checked by the assembly before */
    FlxBeamBatchSet(B, l, &d);
    LANE(B);
  } else if (cls == CLS_QUAD || cls == CLS_TRI) {
    FlxShellFrame f;
    PetscReal     Kl[576];
    if (cls == CLS_QUAD) {
      FlxQuadBatch *B = &S->quad[k];
      PetscCall(FlxMITC4LocalStiffness(xyz, p, &f, Kl, err, sizeof(err)));
      PetscCall(FlxQuadBatchSet(B, l, &f, Kl));
      LANE(B);
    } else {
      FlxTriBatch *B = &S->tri[k];
      PetscCall(FlxDKT3LocalStiffness(xyz, p, &f, Kl, err, sizeof(err)));
      PetscCall(FlxTriBatchSet(B, l, &f, p, Kl));
      LANE(B);
    }
  } else {
    Dense *d = &S->dense[bd->fill[near][cls] - 1];
    PetscCall(ops->stiffness(xyz, p, e->kpool + bd->nkpool, err, sizeof(err)));
    d->nn   = (int)nn;
    d->koff = bd->nkpool;
    d->own  = owned ? 1 : 0;
    for (PetscInt a = 0; a < nn; a++) {
      d->gi[a] = gi[a];
      d->si[a] = si[a];
    }
    bd->nkpool += 36 * nn * nn;
  }
#undef LANE
  PetscFunctionReturn(0);
}

/* Spring visitor: springs and ground springs are dense cells (their stiffness only; dampers are C_d's). */
static PetscErrorCode AddSpring(FlxModel m, PetscInt nn, const PetscInt nodes[], const PetscReal Ke[], const PetscReal Ce[], void *ctx)
{
  Build    *bd   = (Build *)ctx;
  FlxEbe    e    = bd->e;
  PetscBool any  = PETSC_FALSE;
  int       near = 0, gi[4], si[4];
  Set      *S;

  PetscFunctionBegin;
  for (PetscInt a = 0; a < nn; a++) {
    if (nodes[a] >= e->nown)
      near = 1;
    else
      any = PETSC_TRUE;
  }
  if (!any) PetscFunctionReturn(0);
  S = &e->set[near];
  if (bd->pass == 0) {
    for (PetscInt a = 0; a < nn; a++)
      if (nodes[a] < e->nown) (near ? bd->hasnear : bd->hasfar)[nodes[a]] = 1;
    S->cells[CLS_DENSE]++;
    bd->nkpool += 36 * nn * nn;
    PetscFunctionReturn(0);
  }
  PetscCall(CellIndices(bd, near, nn, nodes, CLS_DENSE, bd->ncells + bd->seq++, gi, si)); /* after the mesh cells */
  {
    Dense *d = &S->dense[bd->fill[near][CLS_DENSE]++];
    d->nn    = (int)nn;
    d->koff  = bd->nkpool;
    d->own   = nodes[0] < e->nown; /* its strain energy counts on the rank of its first node */
    e->owned[CLS_DENSE] += d->own;
    for (PetscInt a = 0; a < nn; a++) {
      d->gi[a] = gi[a];
      d->si[a] = si[a];
    }
    PetscCall(PetscArraycpy(e->kpool + bd->nkpool, Ke, 36 * nn * nn));
    bd->nkpool += 36 * nn * nn;
  }
  PetscFunctionReturn(0);
}

/* The free lanes of each set's last batch repeat its first cell, never added. */
#define PAD(B, nn)                          \
  do {                                      \
    for (PetscInt l = (B)->n; l < W; l++) { \
      for (int a = 0; a < nn; a++) {        \
        (B)->gi[a][l] = (B)->gi[a][0];      \
        (B)->si[a][l] = -1;                 \
      }                                     \
    }                                       \
  } while (0)

static void PadBeam(FlxBeamBatch *B)
{
  for (PetscInt l = B->n; l < W; l++) {
    B->il[l] = B->il[0];
    for (int c = 0; c < 3; c++) {
      B->e1[c][l] = B->e1[c][0];
      B->e3[c][l] = B->e3[c][0];
    }
    for (int c = 0; c < 6; c++)
      B->k[c][l] = B->k[c][0];
  }
  PAD(B, 2);
}

static void PadQuad(FlxQuadBatch *B)
{
  for (PetscInt l = B->n; l < W; l++) {
    for (int c = 0; c < 3; c++) {
      B->e1[c][l] = B->e1[c][0];
      B->e3[c][l] = B->e3[c][0];
    }
    for (int c = 0; c < 4; c++)
      B->h[c][l] = B->h[c][0];
    for (int c = 0; c < 3; c++) {
      B->dx[c][l] = B->dx[c][0];
      B->dy[c][l] = B->dy[c][0];
    }
    for (int c = 0; c < FLX_QUAD_NK; c++) {
      B->km[c][l] = B->km[c][0];
      B->kb[c][l] = B->kb[c][0];
    }
  }
  PAD(B, 4);
}

static void PadTri(FlxTriBatch *B)
{
  for (PetscInt l = B->n; l < W; l++) {
    for (int c = 0; c < 3; c++) {
      B->e1[c][l] = B->e1[c][0];
      B->e3[c][l] = B->e3[c][0];
    }
    for (int c = 0; c < 6; c++)
      B->dn[c][l] = B->dn[c][0];
    for (int c = 0; c < 4; c++)
      B->mc[c][l] = B->mc[c][0];
    for (int c = 0; c < 2; c++) {
      B->dx[c][l] = B->dx[c][0];
      B->dy[c][l] = B->dy[c][0];
    }
    for (int c = 0; c < FLX_TRI_NK; c++)
      B->kb[c][l] = B->kb[c][0];
  }
  PAD(B, 3);
}

static int CompareTuple(const void *a, const void *b)
{
  const PetscInt *x = (const PetscInt *)a, *y = (const PetscInt *)b;
  for (int k = 0; k < 3; k++)
    if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
  return 0;
}

/* Visit every cell of the loop (mesh cells in the global cell order, then the springs). */
static PetscErrorCode Pass(Build *bd)
{
  FlxModel m = bd->e->m;
  PetscInt nc;

  PetscFunctionBegin;
  bd->nkpool = 0;
  bd->seq    = 0;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, NULL, NULL, &nc));
  bd->ncells = nc;
  for (PetscInt c = 0; c < nc; c++) {
    int cls;
    PetscCall(CellClass(m, c, &cls));
    if (cls >= 0) PetscCall(AddCell(bd, c, cls));
  }
  PetscCall(FlxModelVisitSprings(m, AddSpring, bd));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxEbeCreate(FlxModel m, FlxEbe *out)
{
  FlxEbe          e;
  Build           bd;
  PetscInt        nloc, rstart;
  const PetscInt *l2g;
  PetscMPIInt     size;

  PetscFunctionBegin;
  PetscCall(PetscNew(&e));
  e->m = m;
  PetscCallMPI(MPI_Comm_size(m->comm, &size));
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &e->nown, &e->nghost, NULL));
  PetscCall(FlxMeshGetLocalToGlobal(m->mesh, &l2g));
  PetscCall(FlxMeshGetNodeLayout(m->mesh, NULL, &rstart));
  for (PetscInt i = 0; i < e->nown; i++) /* x's local array holds the owned nodes in local order */
    PetscCheck(l2g[i] == rstart + i, PETSC_COMM_SELF, PETSC_ERR_PLIB, "element loop: owned node %" PetscInt_FMT " is not in local order in the DOF vector", i);
  nloc = e->nown + e->nghost;
  PetscCall(PetscMemzero(&bd, sizeof(bd)));
  bd.e = e;
  PetscCall(PetscCalloc3(e->nown + 1, &bd.hasfar, e->nown + 1, &bd.hasnear, nloc + 1, &bd.cmp));
  PetscCall(Pass(&bd)); /* count; which owned nodes far and near cells touch */
  for (PetscInt i = 0; i < nloc; i++)
    bd.cmp[i] = -1;
  for (int s = 0; s < 2; s++) { /* allocate */
    Set *S = &e->set[s];
    for (int c = 0; c < NCLS; c++)
      S->n[c] = c == CLS_DENSE ? S->cells[c] : (S->cells[c] + W - 1) / W;
    PetscCall(FlxMallocAligned(sizeof(FlxBeamBatch) * (S->n[CLS_BEAM] + 1), &S->raw[0], (void **)&S->beam[0]));
    PetscCall(FlxMallocAligned(sizeof(FlxBeamBatch) * (S->n[CLS_BEAMNL] + 1), &S->raw[1], (void **)&S->beam[1]));
    PetscCall(FlxMallocAligned(sizeof(FlxQuadBatch) * (S->n[CLS_QUAD] + 1), &S->raw[2], (void **)&S->quad));
    PetscCall(FlxMallocAligned(sizeof(FlxTriBatch) * (S->n[CLS_TRI] + 1), &S->raw[3], (void **)&S->tri));
    PetscCall(PetscCalloc1(S->n[CLS_DENSE] + 1, &S->dense));
  }
  PetscCall(PetscMalloc1(bd.nkpool + 1, &e->kpool));
  /* compact numbering of the near cells' nodes: the owned ones they touch, then every ghost */
  for (PetscInt i = 0; i < e->nown; i++)
    if (bd.hasnear[i]) e->nno++;
  PetscCall(PetscMalloc1(e->nno + 1, &e->own));
  e->nno = 0;
  for (PetscInt i = 0; i < e->nown; i++)
    if (bd.hasnear[i]) {
      bd.cmp[i]        = e->nno;
      e->own[e->nno++] = i;
    }
  for (PetscInt g = 0; g < e->nghost; g++)
    bd.cmp[e->nown + g] = e->nno + g;
  bd.pass = 1;
  /* fill: a cell refused by its kernel's packing (a PETSC_COMM_SELF error) stops every rank, not this one alone */
  PetscCall(FlxCheckCollectiveError(m->comm, Pass(&bd), PETSC_ERR_PLIB, "the element loop could not store a cell (error above)"));
  for (int s = 0; s < 2; s++) {
    Set *S = &e->set[s];
    if (S->n[CLS_BEAM]) PadBeam(&S->beam[0][S->n[CLS_BEAM] - 1]);
    if (S->n[CLS_BEAMNL]) PadBeam(&S->beam[1][S->n[CLS_BEAMNL] - 1]);
    if (S->n[CLS_QUAD]) PadQuad(&S->quad[S->n[CLS_QUAD] - 1]);
    if (S->n[CLS_TRI]) PadTri(&S->tri[S->n[CLS_TRI] - 1]);
  }
  /* slots of the mixed nodes, in class and cell order */
  if (bd.ntup) qsort(bd.tup, bd.ntup, 4 * sizeof(PetscInt), CompareTuple); /* (a NULL array otherwise) */
  PetscCall(PetscMalloc1(6 * e->nslot + 1, &e->slot));
  PetscCall(PetscMalloc1(e->nslot + 1, &e->slotnl));
  PetscCall(PetscMalloc3(bd.ntup + 1, &e->mix, bd.ntup + 1, &e->mixptr, bd.ntup + 1, &e->mixslot));
  e->mixptr[0] = 0;
  for (PetscInt t = 0; t < bd.ntup; t++) {
    if (!t || bd.tup[4 * t] != bd.tup[4 * (t - 1)]) {
      e->mix[e->nmix]        = bd.tup[4 * t];
      e->mixptr[e->nmix + 1] = e->mixptr[e->nmix];
      e->nmix++;
    }
    e->mixslot[e->mixptr[e->nmix]++] = bd.tup[4 * t + 3];
    e->slotnl[bd.tup[4 * t + 3]]     = (char)(bd.tup[4 * t + 1] == CLS_BEAMNL);
  }
  /* halo */
  PetscCall(PetscMalloc1(6 * (e->nno + e->nghost) + 1, &e->xn));
  if (size > 1) { /* collective, so on every rank, even one without ghosts (a part of the mesh apart, a rank with no cells) */
    IS is;
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 6, 6 * e->nghost, e->xn + 6 * e->nno, &e->xg));
    PetscCall(ISCreateBlock(PETSC_COMM_SELF, 6, e->nghost, l2g + e->nown, PETSC_COPY_VALUES, &is));
    PetscCall(VecScatterCreate(m->mass, is, e->xg, NULL, &e->sct));
    PetscCall(ISDestroy(&is));
  }
  PetscCall(PetscFree(bd.tup));
  PetscCall(PetscFree3(bd.hasfar, bd.hasnear, bd.cmp));
  for (int all = 0; all < 2; all++) { /* logged by every product: counted once */
    PetscReal bytes;
    PetscCall(FlxEbeGetCost(e, (PetscBool)all, PETSC_FALSE, &bytes, &e->flops[all]));
  }
  *out = e;
  PetscFunctionReturn(0);
}

/* f[si] += fe (nn nodes of the n lanes), slots stored. */
static inline void Scatter(int nn, int n, const int si[][W], const PetscReal fe[][W], PetscReal *restrict f, PetscReal *restrict slot)
{
  for (int l = 0; l < n; l++)
    for (int a = 0; a < nn; a++) {
      const int t = si[a][l];
      if (t >= 0) {
        PetscReal *d = f + 6 * t;
        d[0] += fe[6 * a][l];
        d[1] += fe[6 * a + 1][l];
        d[2] += fe[6 * a + 2][l];
        d[3] += fe[6 * a + 3][l];
        d[4] += fe[6 * a + 4][l];
        d[5] += fe[6 * a + 5][l];
      } else if (t < -1) {
        PetscReal *d = slot + 6 * (-2 - t);
        for (int c = 0; c < 6; c++)
          d[c] = fe[6 * a + c][l];
      }
    }
}

static inline void Energy(int n, int own, const PetscReal en[], PetscReal *esum)
{
  for (int l = 0; l < n; l++)
    if (own >> l & 1) *esum += en[l];
}

/* Software prefetch: the loop is otherwise bound by the latency of its loads (on the development VM the hardware
   prefetchers do not follow its streams: without these prefetches the beams' loop on the 1e6-DOF tower takes
   20 ns/DOF, with them 6.7; every cache line of the batch data is needed, every other one gives 18). The batch data
   PREFETCH_BYTES ahead (into the outer caches, prefetcht2: on the AMD EPYC host the non-temporal hint left the loop
   latency bound, tower 0.54 -> 0.43 x MatMult, MITC4 plate 1.02 -> 0.82 x with this one), and for the beams and
   the triangles the nodal values x of the cells PREFETCH_X batches ahead (the triangles' on the Zen 5 host of
   2026-11-29: their loop takes 0.77 to 0.87 x the time it takes without, in six processes, 1, 2 or 3 batches ahead
   alike; on the earlier host of 2026-11-27 the loop was faster without, 6.2 -> 5.9 ns/DOF on the DKT3 plate). The
   quads' nodal values are not prefetched (two batches ahead 0.85 to 1.06 x, three or four up to 1.19 x, by the load),
   and their batches (7.2 KB) two ahead in quarters between the kernel's passes (shellfast.c): issued at once, their
   prefetches stall the loop (a one-pass kernel with the batch prefetched at once: 1.12 to 1.31 x). */
#define PREFETCH_BYTES 8192
#define PREFETCH_X 2
static inline void Prefetch(const void *b, size_t bytes)
{
  for (size_t o = 0; o < bytes; o += 64)
    __builtin_prefetch((const char *)b + o, 0, 1);
}
#define PREFETCH(B, k, k1, nn, x)                                                                                                       \
  do {                                                                                                                                  \
    const PetscInt px_ = sizeof((B)[0]) > 4096 ? 1 : PREFETCH_X, ahead_ = PetscMax(px_ + 1, PREFETCH_BYTES / (PetscInt)sizeof((B)[0])); \
    if ((k) + ahead_ < (k1)) Prefetch(&(B)[(k) + ahead_], sizeof((B)[0]));                                                              \
    if ((k) + px_ < (k1))                                                                                                               \
      for (int a_ = 0; a_ < (nn); a_++)                                                                                                 \
        for (int l_ = 0; l_ < W; l_++) {                                                                                                \
          const PetscReal *xq_ = (x) + 6 * (B)[(k) + px_].gi[a_][l_];                                                                   \
          __builtin_prefetch(xq_, 0, 3);                                                                                                \
          __builtin_prefetch(xq_ + 5, 0, 3);                                                                                            \
        }                                                                                                                               \
  } while (0)

/* Batches k0 .. k1 - 1 of a class of a set. */
static void RunBeams(FlxEbe e, const FlxBeamBatch *B, PetscInt k0, PetscInt k1, const PetscReal *x, PetscReal *f, PetscReal *esum)
{
  PetscReal fe[12][W], en[W];

  for (PetscInt k = k0; k < k1; k++) {
    FlxBeamBatchForce(&B[k], x, fe, esum ? en : NULL);
    PREFETCH(B, k, k1, 2, x); /* after the kernel rather than before it: 9.05 -> 8.68 ns/DOF on the tower */
    Scatter(2, B[k].n, B[k].si, fe, f, e->slot);
    if (esum) Energy(B[k].n, B[k].own, en, esum);
  }
}

static void RunQuads(FlxEbe e, const FlxQuadBatch *B, PetscInt k0, PetscInt k1, const PetscReal *x, PetscReal *f, PetscReal *esum)
{
  PetscReal fe[24][W], en[W];

  for (PetscInt k = k0; k < k1; k++) { /* a quad batch is 7.2 KB: its prefetch paced in quarters inside the kernel */
    FlxQuadBatchForce(&B[k], x, fe, esum ? en : NULL, k + 2 < k1 ? &B[k + 2] : NULL);
    Scatter(4, B[k].n, B[k].si, fe, f, e->slot);
    if (esum) Energy(B[k].n, B[k].own, en, esum);
  }
}

static void RunTris(FlxEbe e, const FlxTriBatch *B, PetscInt k0, PetscInt k1, const PetscReal *x, PetscReal *f, PetscReal *esum)
{
  PetscReal fe[18][W], en[W];

  for (PetscInt k = k0; k < k1; k++) {
    PREFETCH(B, k, k1, 3, x); /* the batch and the nodal values (above) */
    FlxTriBatchForce(&B[k], x, fe, esum ? en : NULL);
    Scatter(3, B[k].n, B[k].si, fe, f, e->slot);
    if (esum) Energy(B[k].n, B[k].own, en, esum);
  }
}

static void RunDense(FlxEbe e, const Dense *D, PetscInt k0, PetscInt k1, const PetscReal *x, PetscReal *f, PetscReal *esum)
{
  for (PetscInt k = k0; k < k1; k++) { /* scalar: few cells */
    const Dense     *d = &D[k];
    const PetscReal *K = e->kpool + d->koff;
    const int        n = 6 * d->nn;
    PetscReal        u[24], y[24], en1 = 0;
    for (int a = 0; a < d->nn; a++)
      for (int c = 0; c < 6; c++)
        u[6 * a + c] = x[6 * d->gi[a] + c];
    for (int i = 0; i < n; i++) {
      PetscReal s = 0;
      for (int j = 0; j < n; j++)
        s += K[n * i + j] * u[j];
      y[i] = s;
      en1 += 0.5 * u[i] * s;
    }
    for (int a = 0; a < d->nn; a++) {
      const int t = d->si[a];
      if (t >= 0)
        for (int c = 0; c < 6; c++)
          f[6 * t + c] += y[6 * a + c];
      else if (t < -1)
        for (int c = 0; c < 6; c++)
          e->slot[6 * (-2 - t) + c] = y[6 * a + c];
    }
    if (esum && d->own) *esum += en1;
  }
}

/* The cells of one set, class by class. */
static void RunSet(FlxEbe e, const Set *S, PetscBool all, const PetscReal *x, PetscReal *f, PetscReal *esum)
{
  RunBeams(e, S->beam[0], 0, S->n[CLS_BEAM], x, f, esum);
  if (all) RunBeams(e, S->beam[1], 0, S->n[CLS_BEAMNL], x, f, esum);
  RunQuads(e, S->quad, 0, S->n[CLS_QUAD], x, f, esum);
  RunTris(e, S->tri, 0, S->n[CLS_TRI], x, f, esum);
  RunDense(e, S->dense, 0, S->n[CLS_DENSE], x, f, esum);
}

/* Seconds per batch of class c with its first batches' data in cache (the set that has them): the fastest of
   five timings of repeated passes over at most 128 KB of them, into scratch forces. */
static PetscErrorCode InCache(FlxEbe e, int c, PetscReal *f, PetscReal *sec)
{
  const size_t     size[NCLS] = {sizeof(FlxBeamBatch), sizeof(FlxBeamBatch), sizeof(FlxQuadBatch), sizeof(FlxTriBatch), 0};
  int              s          = e->set[0].n[c] ? 0 : 1;
  const Set       *S          = &e->set[s];
  PetscInt         nb         = PetscMin(S->n[c], PetscMax(1, (PetscInt)(131072 / size[c]))), reps;
  const PetscReal *x          = s ? e->xn : f; /* values do not matter */

  PetscFunctionBegin;
  *sec = 0;
  if (!nb) PetscFunctionReturn(0);
  reps = PetscMax(1, 20000 / nb);
  for (int trial = 0; trial < 6; trial++) {
    PetscLogDouble t0, t1;
    PetscCall(PetscTime(&t0));
    for (PetscInt r = 0; r < reps; r++) {
      if (c == CLS_BEAM || c == CLS_BEAMNL)
        RunBeams(e, S->beam[c == CLS_BEAMNL], 0, nb, x, f + 6 * e->nown, NULL);
      else if (c == CLS_QUAD)
        RunQuads(e, S->quad, 0, nb, x, f + 6 * e->nown, NULL);
      else
        RunTris(e, S->tri, 0, nb, x, f + 6 * e->nown, NULL);
    }
    PetscCall(PetscTime(&t1));
    if (trial) *sec = trial == 1 ? (t1 - t0) / (reps * nb) : PetscMin(*sec, (t1 - t0) / (reps * nb)); /* the first warms up */
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxEbeComputeTime(FlxEbe e, PetscReal *seconds)
{
  PetscReal *f, t;
  PetscInt   nf = 12 * (e->nown + e->nghost + e->nno) + 6;

  PetscFunctionBegin;
  *seconds = 0;
  PetscCall(PetscCalloc1(nf, &f)); /* x (zeros) and the scratch forces, never the model's */
  for (int c = 0; c < CLS_DENSE; c++) {
    PetscCall(InCache(e, c, f, &t));
    *seconds += t * (e->set[0].n[c] + e->set[1].n[c]);
  }
  PetscCall(PetscFree(f));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxEbeApply(FlxEbe e, Vec x, Vec f, PetscBool all, PetscReal *energy)
{
  const PetscScalar *xa;
  PetscScalar       *fa;
  PetscReal          esum = 0, *ep = energy ? &esum : NULL;

  PetscFunctionBegin;
  if (e->sct) PetscCall(VecScatterBegin(e->sct, x, e->xg, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayWrite(f, &fa));
  PetscCall(PetscArrayzero(fa, 6 * e->nown));
  RunSet(e, &e->set[0], all, xa, fa, ep); /* far cells, while the ghost values travel */
  for (PetscInt k = 0; k < e->nno; k++)
    for (int c = 0; c < 6; c++)
      e->xn[6 * k + c] = xa[6 * e->own[k] + c];
  if (e->sct) PetscCall(VecScatterEnd(e->sct, x, e->xg, INSERT_VALUES, SCATTER_FORWARD));
  RunSet(e, &e->set[1], all, e->xn, fa, ep); /* near cells */
  for (PetscInt k = 0; k < e->nmix; k++) {   /* mixed nodes: their slots in the one-rank order */
    PetscReal s[6] = {0, 0, 0, 0, 0, 0};
    for (PetscInt q = e->mixptr[k]; q < e->mixptr[k + 1]; q++) {
      const PetscInt j = e->mixslot[q];
      if (!all && e->slotnl[j]) continue;
      for (int c = 0; c < 6; c++)
        s[c] += e->slot[6 * j + c];
    }
    for (int c = 0; c < 6; c++)
      fa[6 * e->mix[k] + c] = s[c];
  }
  PetscCall(VecRestoreArrayWrite(f, &fa));
  PetscCall(VecRestoreArrayRead(x, &xa));
  if (energy) *energy = esum;
  PetscCall(PetscLogFlops(e->flops[all ? 1 : 0]));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxEbeGetCost(FlxEbe e, PetscBool all, PetscBool owned, PetscReal *bytes, PetscReal *flops)
{
  PetscReal b = 16.0 * 6 * e->nown, fl = 0; /* x read, f written */

  PetscFunctionBegin;
  for (int c = 0; c < NCLS; c++) {
    const PetscReal n = (PetscReal)(owned ? e->owned[c] : e->set[0].cells[c] + e->set[1].cells[c]);
    if (c == CLS_BEAMNL && !all) continue;
    switch (c) {
    case CLS_BEAM:
    case CLS_BEAMNL:
      b += n * FLX_BEAM_BYTES;
      fl += n * FLX_BEAM_FLOPS;
      break;
    case CLS_QUAD:
      b += n * FLX_QUAD_BYTES;
      fl += n * FLX_QUAD_FLOPS;
      break;
    case CLS_TRI:
      b += n * FLX_TRI_BYTES;
      fl += n * FLX_TRI_FLOPS;
      break;
    default:
      break;
    }
  }
  for (int s = 0; s < 2; s++)
    for (PetscInt k = 0; k < e->set[s].n[CLS_DENSE]; k++) {
      const PetscReal n = 6 * e->set[s].dense[k].nn;
      if (owned && !e->set[s].dense[k].own) continue;
      b += 8 * n * n + 8 * e->set[s].dense[k].nn;
      fl += 2 * n * n;
    }
  *bytes = b;
  *flops = fl;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxEbeGetCounts(FlxEbe e, PetscInt counts[FLX_EBE_NCLASSES])
{
  PetscFunctionBegin;
  for (int c = 0; c < NCLS; c++)
    counts[c] = e->owned[c];
  PetscFunctionReturn(0);
}

const char *FlxEbeClassName(PetscInt c)
{
  return c >= 0 && c < NCLS ? ClsNames[c] : NULL;
}

PetscErrorCode FlxEbeGetHalo(FlxEbe e, PetscInt *near, PetscInt *mixed)
{
  PetscFunctionBegin;
  *near = 0;
  for (int c = 0; c < NCLS; c++)
    *near += e->set[1].cells[c];
  *mixed = e->nmix;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxEbeDestroy(FlxEbe *ep)
{
  FlxEbe e = *ep;

  PetscFunctionBegin;
  if (!e) PetscFunctionReturn(0);
  for (int s = 0; s < 2; s++) {
    for (int k = 0; k < 4; k++)
      PetscCall(PetscFree(e->set[s].raw[k]));
    PetscCall(PetscFree(e->set[s].dense));
  }
  PetscCall(PetscFree(e->kpool));
  PetscCall(PetscFree(e->own));
  PetscCall(PetscFree(e->xn));
  PetscCall(VecDestroy(&e->xg));
  PetscCall(VecScatterDestroy(&e->sct));
  PetscCall(PetscFree(e->slot));
  PetscCall(PetscFree(e->slotnl));
  PetscCall(PetscFree3(e->mix, e->mixptr, e->mixslot));
  PetscCall(PetscFree(e));
  *ep = NULL;
  PetscFunctionReturn(0);
}
