/* Deterministic products f = A x over assembled MPIBAIJ (block size 6) operators of the model: the
   stiffness K, the damping matrix of discrete dampers C_d, and the rows of prescribed DOFs (reactions).

   PETSc's MatMult sums each row as (diagonal part) + (off-process part), so the order of the terms, and
   with it the last bits of the result, depends on the partition. An explicit run repeats this product
   millions of times and the differences grow. This kernel reads the same storage (the diagonal and
   off-diagonal SeqBAIJ parts) but sums the blocks of every row in increasing natural (file) node order,
   whatever the storage order: the same run at 1, 2 or 4 ranks gives the same bits. Its cost is
   PETSc's: one pass over the matrix, one halo exchange (of the ghost blocks the rows refer to).
   A product may cover a subset of the block rows (a sparse damping matrix, the rows of supports): only
   those rows are read and written, and only their ghost blocks exchanged.
   It keeps pointers into A's storage: A's values must not be changed in place after FlxKMultCreate (the model
   never does; solvers that need a modified matrix work on a copy, as the static solve does). Converting A
   (MatConvert to AIJ, for a direct solve or SLEPc) rebuilds its off-process part: a product notices it by the
   new object's id and builds itself again (on every rank: the conversion is collective). */
#include <flexure/private/modelimpl.h>

struct _FlxKMult {
  FlxModel            m;
  Mat                 A;
  PetscObjectId       aoid; /* id of A's off-process part at the build (0: sequential) */
  PetscInt            nrows, nghost;
  PetscBool           nonzero;     /* leave out the blocks of A that are entirely zero */
  PetscInt           *row;         /* local block row of each computed row (NULL: rows 0..nrows-1) */
  PetscInt           *rowptr, *xi; /* xi >= 0: owned block column; < 0: ghost block -1 - xi */
  const PetscScalar **bp;          /* 36 values of each block, column-major */
  VecScatter          sct;
  VecScatter          sctc[FLX_KMULT_MAXCOMB];    /* copies of sct: one outstanding exchange per scatter */
  Vec                 xg, xgc[FLX_KMULT_MAXCOMB]; /* ghost blocks of x; of the vectors of a combination */
};

typedef struct {
  PetscInt           nat, xi;
  const PetscScalar *bp;
} Entry;

static int CompareEntry(const void *a, const void *b)
{
  PetscInt x = ((const Entry *)a)->nat, y = ((const Entry *)b)->nat;
  return x < y ? -1 : (x > y ? 1 : 0);
}

/* Whether the product uses block q of values a (all blocks, or the nonzero ones). */
static PetscBool UseBlock(FlxKMult km, const PetscScalar *a, PetscInt q)
{
  if (!km->nonzero) return PETSC_TRUE;
  for (int i = 0; i < 36; i++)
    if (a[36 * q + i] != 0) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* The ghost blocks the selected rows of Ao (values ba) refer to, compacted: gmap[j] = compact index of Ao's block
   column j (-1: unused); a scatter of their values and their natural ids. */
static PetscErrorCode GhostBlocks(FlxModel m, FlxKMult km, PetscInt nsel, const PetscInt sel[], const PetscInt ib[], const PetscInt jb[], const PetscScalar ba[], PetscInt nbl, const PetscInt garray[], PetscInt gmap[], PetscInt **gnat)
{
  PetscInt          *gid, ng = 0;
  const PetscInt    *nat;
  IS                 is;
  Vec                natv;
  PetscScalar       *nv;
  const PetscScalar *g;
  PetscInt           nown;

  PetscFunctionBegin;
  for (PetscInt j = 0; j < nbl; j++)
    gmap[j] = -1;
  for (PetscInt k = 0; k < nsel; k++) {
    PetscInt r = sel ? sel[k] : k;
    for (PetscInt q = ib[r]; q < ib[r + 1]; q++)
      if (UseBlock(km, ba, q)) gmap[jb[q]] = 0;
  }
  PetscCall(PetscMalloc1(nbl + 1, &gid));
  for (PetscInt j = 0; j < nbl; j++)
    if (!gmap[j]) {
      gmap[j]   = ng;
      gid[ng++] = garray[j];
    }
  km->nghost = ng;
  PetscCall(FlxMeshGetNaturalIds(m->mesh, &nat));
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  PetscCall(ISCreateBlock(PETSC_COMM_SELF, 6, ng, gid, PETSC_COPY_VALUES, &is));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 6 * ng, &km->xg));
  PetscCall(VecDuplicate(m->mass, &natv));
  PetscCall(VecGetArray(natv, &nv));
  for (PetscInt i = 0; i < nown; i++)
    nv[6 * i] = (PetscScalar)nat[i];
  PetscCall(VecRestoreArray(natv, &nv));
  PetscCall(VecScatterCreate(natv, is, km->xg, NULL, &km->sct));
  PetscCall(VecScatterBegin(km->sct, natv, km->xg, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(km->sct, natv, km->xg, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(PetscMalloc1(ng + 1, gnat));
  PetscCall(VecGetArrayRead(km->xg, &g));
  for (PetscInt k = 0; k < ng; k++)
    (*gnat)[k] = (PetscInt)g[6 * k];
  PetscCall(VecRestoreArrayRead(km->xg, &g));
  PetscCall(VecDestroy(&natv));
  PetscCall(ISDestroy(&is));
  PetscCall(PetscFree(gid));
  PetscFunctionReturn(0);
}

/* (Re)build the rows of km from A's storage. Collective. */
static PetscErrorCode Build(FlxKMult km)
{
  FlxModel        m = km->m;
  Mat             A = km->A, Ad, Ao = NULL;
  PetscInt        nsel   = km->nrows;
  const PetscInt *sel    = km->row;
  const PetscInt *garray = NULL, *ia, *ja, *ib = NULL, *jb = NULL, *nat;
  PetscScalar    *aa, *ba = NULL;
  PetscInt        n, nb, *gnat = NULL, *gmap = NULL, nnz = 0, maxrow = 0;
  PetscBool       isseq, done;
  Entry          *row;

  PetscFunctionBegin;
  PetscCall(PetscFree3(km->rowptr, km->xi, km->bp));
  PetscCall(VecScatterDestroy(&km->sct));
  PetscCall(VecDestroy(&km->xg));
  for (int j = 0; j < FLX_KMULT_MAXCOMB; j++) {
    PetscCall(VecDestroy(&km->xgc[j]));
    PetscCall(VecScatterDestroy(&km->sctc[j]));
  }
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQBAIJ, &isseq));
  if (isseq)
    Ad = A;
  else {
    PetscCall(MatMPIBAIJGetSeqBAIJ(A, &Ad, &Ao, &garray));
    PetscCall(PetscObjectGetId((PetscObject)Ao, &km->aoid));
  }
  PetscCall(FlxMeshGetNaturalIds(m->mesh, &nat));
  PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_TRUE, &n, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetRowIJ failed");
  PetscCall(MatSeqBAIJGetArray(Ad, &aa)); /* the storage outlives the Get/Restore pair */
  {
    PetscScalar *tmp = aa;
    PetscCall(MatSeqBAIJRestoreArray(Ad, &tmp));
  }
  if (!sel) nsel = km->nrows = n;
  if (Ao) {
    PetscInt ncols;
    PetscCall(MatGetRowIJ(Ao, 0, PETSC_FALSE, PETSC_TRUE, &nb, &ib, &jb, &done));
    PetscCall(MatSeqBAIJGetArray(Ao, &ba));
    {
      PetscScalar *tmp = ba;
      PetscCall(MatSeqBAIJRestoreArray(Ao, &tmp));
    }
    PetscCall(MatGetLocalSize(Ao, NULL, &ncols));
    PetscCall(PetscMalloc1(ncols / 6 + 1, &gmap));
    PetscCall(GhostBlocks(m, km, nsel, sel, ib, jb, ba, ncols / 6, garray, gmap, &gnat));
  }
  for (PetscInt k = 0; k < nsel; k++) {
    PetscInt r = sel ? sel[k] : k, c = 0;
    for (PetscInt q = ia[r]; q < ia[r + 1]; q++)
      if (UseBlock(km, aa, q)) c++;
    if (Ao)
      for (PetscInt q = ib[r]; q < ib[r + 1]; q++)
        if (UseBlock(km, ba, q)) c++;
    nnz += c;
    maxrow = PetscMax(maxrow, c);
  }
  PetscCall(PetscMalloc3(nsel + 1, &km->rowptr, nnz + 1, &km->xi, nnz + 1, &km->bp));
  PetscCall(PetscMalloc1(maxrow + 1, &row));
  km->rowptr[0] = 0;
  for (PetscInt k = 0; k < nsel; k++) {
    PetscInt r = sel ? sel[k] : k, c = 0;
    for (PetscInt q = ia[r]; q < ia[r + 1]; q++) {
      if (!UseBlock(km, aa, q)) continue;
      row[c].nat  = nat[ja[q]];
      row[c].xi   = ja[q];
      row[c++].bp = aa + 36 * q;
    }
    if (Ao)
      for (PetscInt q = ib[r]; q < ib[r + 1]; q++) {
        if (!UseBlock(km, ba, q)) continue;
        row[c].nat  = gnat[gmap[jb[q]]];
        row[c].xi   = -1 - gmap[jb[q]];
        row[c++].bp = ba + 36 * q;
      }
    qsort(row, c, sizeof(Entry), CompareEntry);
    for (PetscInt q = 0; q < c; q++) {
      km->xi[km->rowptr[k] + q] = row[q].xi;
      km->bp[km->rowptr[k] + q] = row[q].bp;
    }
    km->rowptr[k + 1] = km->rowptr[k] + c;
  }
  PetscCall(PetscFree(row));
  PetscCall(PetscFree(gnat));
  PetscCall(PetscFree(gmap));
  PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_TRUE, &n, &ia, &ja, &done));
  if (Ao) PetscCall(MatRestoreRowIJ(Ao, 0, PETSC_FALSE, PETSC_TRUE, &nb, &ib, &jb, &done));
  PetscFunctionReturn(0);
}

static PetscErrorCode Create(FlxModel m, Mat A, PetscBool nonzero, PetscInt nsel, const PetscInt sel[], FlxKMult *kmout)
{
  FlxKMult km;

  PetscFunctionBegin;
  PetscCall(PetscNew(&km));
  km->m       = m;
  km->A       = A;
  km->nonzero = nonzero;
  km->nrows   = nsel;
  if (sel) {
    PetscCall(PetscMalloc1(nsel + 1, &km->row));
    PetscCall(PetscArraycpy(km->row, sel, nsel));
  }
  PetscCall(Build(km));
  *kmout = km;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxKMultCreate(FlxModel m, Mat A, PetscInt nsel, const PetscInt sel[], FlxKMult *kmout)
{
  PetscFunctionBegin;
  PetscCall(Create(m, A, PETSC_FALSE, nsel, sel, kmout));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxKMultCreateNonzero(FlxModel m, Mat A, FlxKMult *kmout)
{
  PetscFunctionBegin;
  PetscCall(Create(m, A, PETSC_TRUE, 0, NULL, kmout));
  PetscFunctionReturn(0);
}

/* The selected block rows of A x: out[6 k + d] for mode OUT_ROWS, or written (or added) into y at their rows. */
typedef enum {
  KM_SET,
  KM_ADD,
  KM_ROWS
} KMMode;

/* Build again when A was converted since the build (its off-process part rebuilt). */
static PetscErrorCode CheckBuild(FlxKMult km)
{
  PetscFunctionBegin;
  if (km->aoid) {
    Mat           Ad, Ao;
    PetscObjectId id;
    PetscCall(MatMPIBAIJGetSeqBAIJ(km->A, &Ad, &Ao, NULL));
    PetscCall(PetscObjectGetId((PetscObject)Ao, &id));
    if (id != km->aoid) PetscCall(Build(km));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode Apply(FlxKMult km, Vec x, KMMode mode, Vec y, PetscReal out[])
{
  const PetscScalar *xl, *xg = NULL;
  PetscScalar       *yl = NULL;

  PetscFunctionBegin;
  PetscCall(CheckBuild(km));
  if (km->sct) {
    PetscCall(VecScatterBegin(km->sct, x, km->xg, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(km->sct, x, km->xg, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGetArrayRead(km->xg, &xg));
  }
  PetscCall(VecGetArrayRead(x, &xl));
  if (mode == KM_SET && !km->row)
    PetscCall(VecGetArrayWrite(y, &yl));
  else if (mode != KM_ROWS)
    PetscCall(VecGetArray(y, &yl));
  for (PetscInt k = 0; k < km->nrows; k++) {
    PetscScalar z0 = 0, z1 = 0, z2 = 0, z3 = 0, z4 = 0, z5 = 0, *o;
    for (PetscInt q = km->rowptr[k]; q < km->rowptr[k + 1]; q++) {
      const PetscScalar *b = km->bp[q], *v = km->xi[q] >= 0 ? xl + 6 * km->xi[q] : xg + 6 * (-1 - km->xi[q]);
      for (int c = 0; c < 6; c++) {
        const PetscScalar vc = v[c], *bc = b + 6 * c;
        z0 += bc[0] * vc;
        z1 += bc[1] * vc;
        z2 += bc[2] * vc;
        z3 += bc[3] * vc;
        z4 += bc[4] * vc;
        z5 += bc[5] * vc;
      }
    }
    o = mode == KM_ROWS ? out + 6 * k : yl + 6 * (km->row ? km->row[k] : k);
    if (mode == KM_ADD) {
      o[0] += z0;
      o[1] += z1;
      o[2] += z2;
      o[3] += z3;
      o[4] += z4;
      o[5] += z5;
    } else {
      o[0] = z0;
      o[1] = z1;
      o[2] = z2;
      o[3] = z3;
      o[4] = z4;
      o[5] = z5;
    }
  }
  if (mode == KM_SET && !km->row)
    PetscCall(VecRestoreArrayWrite(y, &yl));
  else if (mode != KM_ROWS)
    PetscCall(VecRestoreArray(y, &yl));
  PetscCall(VecRestoreArrayRead(x, &xl));
  if (km->sct) PetscCall(VecRestoreArrayRead(km->xg, &xg));
  PetscCall(PetscLogFlops(72.0 * km->rowptr[km->nrows]));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxKMultApply(FlxKMult km, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(Apply(km, x, KM_SET, y, NULL));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxKMultApplyAdd(FlxKMult km, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(Apply(km, x, KM_ADD, y, NULL));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxKMultApplyRows(FlxKMult km, Vec x, PetscReal out[])
{
  PetscFunctionBegin;
  PetscCall(Apply(km, x, KM_ROWS, NULL, out));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxKMultApplyRowsCombination(FlxKMult km, PetscInt n, const PetscReal coef[], Vec x[], PetscReal out[])
{
  const PetscScalar *xl[FLX_KMULT_MAXCOMB], *xg[FLX_KMULT_MAXCOMB];

  PetscFunctionBegin;
  PetscCheck(n > 0 && n <= FLX_KMULT_MAXCOMB, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "a combination of 1 to %d vectors", FLX_KMULT_MAXCOMB);
  PetscCall(CheckBuild(km));
  if (km->sct) { /* one round of messages for all the vectors */
    for (PetscInt j = 0; j < n; j++) {
      if (!km->xgc[j]) {
        PetscCall(VecDuplicate(km->xg, &km->xgc[j]));
        PetscCall(VecScatterCopy(km->sct, &km->sctc[j]));
      }
      PetscCall(VecScatterBegin(km->sctc[j], x[j], km->xgc[j], INSERT_VALUES, SCATTER_FORWARD));
    }
    for (PetscInt j = 0; j < n; j++) {
      PetscCall(VecScatterEnd(km->sctc[j], x[j], km->xgc[j], INSERT_VALUES, SCATTER_FORWARD));
      PetscCall(VecGetArrayRead(km->xgc[j], &xg[j]));
    }
  }
  for (PetscInt j = 0; j < n; j++)
    PetscCall(VecGetArrayRead(x[j], &xl[j]));
  for (PetscInt k = 0; k < km->nrows; k++) {
    PetscScalar z[6] = {0, 0, 0, 0, 0, 0};
    for (PetscInt q = km->rowptr[k]; q < km->rowptr[k + 1]; q++) {
      const PetscScalar *b    = km->bp[q];
      PetscScalar        v[6] = {0, 0, 0, 0, 0, 0};
      for (PetscInt j = 0; j < n; j++) {
        const PetscScalar *vj = km->xi[q] >= 0 ? xl[j] + 6 * km->xi[q] : xg[j] + 6 * (-1 - km->xi[q]);
        for (int c = 0; c < 6; c++)
          v[c] += coef[j] * vj[c];
      }
      for (int c = 0; c < 6; c++)
        for (int r = 0; r < 6; r++)
          z[r] += b[6 * c + r] * v[c];
    }
    for (int r = 0; r < 6; r++)
      out[6 * k + r] = z[r];
  }
  for (PetscInt j = 0; j < n; j++) {
    PetscCall(VecRestoreArrayRead(x[j], &xl[j]));
    if (km->sct) PetscCall(VecRestoreArrayRead(km->xgc[j], &xg[j]));
  }
  PetscCall(PetscLogFlops((72.0 + 12.0 * n) * km->rowptr[km->nrows]));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxKMultDestroy(FlxKMult *km)
{
  PetscFunctionBegin;
  if (!*km) PetscFunctionReturn(0);
  PetscCall(PetscFree((*km)->row));
  PetscCall(PetscFree3((*km)->rowptr, (*km)->xi, (*km)->bp));
  PetscCall(VecScatterDestroy(&(*km)->sct));
  PetscCall(VecDestroy(&(*km)->xg));
  for (int j = 0; j < FLX_KMULT_MAXCOMB; j++) {
    PetscCall(VecDestroy(&(*km)->xgc[j]));
    PetscCall(VecScatterDestroy(&(*km)->sctc[j]));
  }
  PetscCall(PetscFree(*km));
  PetscFunctionReturn(0);
}
