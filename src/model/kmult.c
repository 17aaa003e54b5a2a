/* Deterministic product f = K x over the assembled MPIBAIJ (block size 6) stiffness.

   PETSc's MatMult sums each row as (diagonal part) + (off-process part), so the order of the terms, and
   with it the last bits of the result, depends on the partition. An explicit run repeats this product
   millions of times and the differences grow. This kernel reads the same storage (the diagonal and
   off-diagonal SeqBAIJ parts) but sums the blocks of every row in increasing natural (file) node order,
   which is the order of a 1-rank run: the same run at 1, 2 or 4 ranks gives the same bits. Its cost is
   PETSc's: one pass over the matrix, one halo exchange.
   It keeps pointers into K's storage: K must not be changed in place after FlxKMultCreate (the model never
   does; solvers that need a modified matrix work on a copy, as the static solve does). */
#include <flexure/private/modelimpl.h>

struct _FlxKMult {
  PetscInt            nrows, nghost;
  PetscInt           *rowptr, *xi; /* xi >= 0: owned block column; < 0: ghost block -1 - xi */
  const PetscScalar **bp;          /* 36 values of each block, column-major */
  VecScatter          sct;
  Vec                 xg;
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

PetscErrorCode FlxKMultCreate(FlxModel m, FlxKMult *kmout)
{
  FlxKMult        km;
  Mat             Ad, Ao = NULL;
  const PetscInt *garray = NULL, *ia, *ja, *ib = NULL, *jb = NULL, *nat;
  PetscScalar    *aa, *ba = NULL;
  PetscInt        n, nb, *gnat = NULL, nnz;
  PetscBool       isseq, done;
  Entry          *row;

  PetscFunctionBegin;
  PetscCall(PetscNew(&km));
  PetscCall(PetscObjectTypeCompare((PetscObject)m->K, MATSEQBAIJ, &isseq));
  if (isseq)
    Ad = m->K;
  else
    PetscCall(MatMPIBAIJGetSeqBAIJ(m->K, &Ad, &Ao, &garray));
  PetscCall(FlxMeshGetNaturalIds(m->mesh, &nat));
  PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_TRUE, &n, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetRowIJ failed");
  PetscCall(MatSeqBAIJGetArray(Ad, &aa)); /* the storage outlives the Get/Restore pair */
  {
    PetscScalar *tmp = aa;
    PetscCall(MatSeqBAIJRestoreArray(Ad, &tmp));
  }
  km->nrows = n;
  nnz       = ia[n];
  if (Ao) {
    PetscInt           ncols, nbl;
    IS                 is;
    Vec                natv;
    PetscScalar       *nv;
    const PetscScalar *g;
    PetscCall(MatGetRowIJ(Ao, 0, PETSC_FALSE, PETSC_TRUE, &nb, &ib, &jb, &done));
    PetscCall(MatSeqBAIJGetArray(Ao, &ba));
    {
      PetscScalar *tmp = ba;
      PetscCall(MatSeqBAIJRestoreArray(Ao, &tmp));
    }
    PetscCall(MatGetLocalSize(Ao, NULL, &ncols));
    nbl        = ncols / 6;
    km->nghost = nbl;
    nnz += ib[nb];
    PetscCall(ISCreateBlock(PETSC_COMM_SELF, 6, nbl, garray, PETSC_COPY_VALUES, &is));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 6 * nbl, &km->xg));
    PetscCall(VecDuplicate(m->mass, &natv));
    PetscCall(VecGetArray(natv, &nv));
    for (PetscInt i = 0; i < n; i++)
      nv[6 * i] = (PetscScalar)nat[i];
    PetscCall(VecRestoreArray(natv, &nv));
    PetscCall(VecScatterCreate(natv, is, km->xg, NULL, &km->sct));
    PetscCall(VecScatterBegin(km->sct, natv, km->xg, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(km->sct, natv, km->xg, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(PetscMalloc1(nbl + 1, &gnat));
    PetscCall(VecGetArrayRead(km->xg, &g));
    for (PetscInt k = 0; k < nbl; k++)
      gnat[k] = (PetscInt)g[6 * k];
    PetscCall(VecRestoreArrayRead(km->xg, &g));
    PetscCall(VecDestroy(&natv));
    PetscCall(ISDestroy(&is));
  }
  PetscCall(PetscMalloc3(n + 1, &km->rowptr, nnz + 1, &km->xi, nnz + 1, &km->bp));
  PetscCall(PetscMalloc1(nnz + 1, &row));
  km->rowptr[0] = 0;
  for (PetscInt r = 0; r < n; r++) {
    PetscInt c = 0;
    for (PetscInt k = ia[r]; k < ia[r + 1]; k++) {
      row[c].nat  = nat[ja[k]];
      row[c].xi   = ja[k];
      row[c++].bp = aa + 36 * k;
    }
    if (Ao)
      for (PetscInt k = ib[r]; k < ib[r + 1]; k++) {
        row[c].nat  = gnat[jb[k]];
        row[c].xi   = -1 - jb[k];
        row[c++].bp = ba + 36 * k;
      }
    qsort(row, c, sizeof(Entry), CompareEntry);
    for (PetscInt k = 0; k < c; k++) {
      km->xi[km->rowptr[r] + k] = row[k].xi;
      km->bp[km->rowptr[r] + k] = row[k].bp;
    }
    km->rowptr[r + 1] = km->rowptr[r] + c;
  }
  PetscCall(PetscFree(row));
  PetscCall(PetscFree(gnat));
  PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_TRUE, &n, &ia, &ja, &done));
  if (Ao) PetscCall(MatRestoreRowIJ(Ao, 0, PETSC_FALSE, PETSC_TRUE, &nb, &ib, &jb, &done));
  *kmout = km;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxKMultApply(FlxKMult km, Vec x, Vec y)
{
  const PetscScalar *xl, *xg = NULL;
  PetscScalar       *yl;

  PetscFunctionBegin;
  if (km->sct) {
    PetscCall(VecScatterBegin(km->sct, x, km->xg, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(km->sct, x, km->xg, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGetArrayRead(km->xg, &xg));
  }
  PetscCall(VecGetArrayRead(x, &xl));
  PetscCall(VecGetArrayWrite(y, &yl));
  for (PetscInt r = 0; r < km->nrows; r++) {
    PetscScalar z0 = 0, z1 = 0, z2 = 0, z3 = 0, z4 = 0, z5 = 0;
    for (PetscInt k = km->rowptr[r]; k < km->rowptr[r + 1]; k++) {
      const PetscScalar *b = km->bp[k], *v = km->xi[k] >= 0 ? xl + 6 * km->xi[k] : xg + 6 * (-1 - km->xi[k]);
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
    yl[6 * r]     = z0;
    yl[6 * r + 1] = z1;
    yl[6 * r + 2] = z2;
    yl[6 * r + 3] = z3;
    yl[6 * r + 4] = z4;
    yl[6 * r + 5] = z5;
  }
  PetscCall(VecRestoreArrayWrite(y, &yl));
  PetscCall(VecRestoreArrayRead(x, &xl));
  if (km->sct) PetscCall(VecRestoreArrayRead(km->xg, &xg));
  PetscCall(PetscLogFlops(72.0 * 36 * km->rowptr[km->nrows] / 36));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxKMultDestroy(FlxKMult *km)
{
  PetscFunctionBegin;
  if (!*km) PetscFunctionReturn(0);
  PetscCall(PetscFree3((*km)->rowptr, (*km)->xi, (*km)->bp));
  PetscCall(VecScatterDestroy(&(*km)->sct));
  PetscCall(VecDestroy(&(*km)->xg));
  PetscCall(PetscFree(*km));
  PetscFunctionReturn(0);
}
