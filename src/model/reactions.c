/* Reactions at the prescribed DOFs: R = f_int(x, v) + a_M M v + M a - f_ext, the force the supports exert on
   the structure (in statics the reactions and the applied loads sum to zero). Only the block rows of nodes
   with a prescribed DOF are multiplied (rows of K, and of C_d), in natural order: a history step pays a few
   hundred blocks, not a second K x, and the values do not depend on the number of ranks.

   Totals per boundary condition: the force and the moment about -bc_NAME_moment_point (default the origin)
   of the reactions of the DOFs it constrains; a DOF constrained by several boundary conditions counts in the
   first of -bc_names, so the totals add up to the total reaction. */
#include <flexure/private/modelimpl.h>

typedef struct {
  PetscInt       nnode;
  PetscInt      *node; /* owned local nodes */
  unsigned char *mask; /* bit d: DOF d of the node counts in this boundary condition */
} BCNodes;

struct _FlxReactions {
  PetscReal  point[FLX_MAX_NAMES][3];
  BCNodes    bc[FLX_MAX_NAMES];
  PetscInt   nbc, nrows, *rows; /* owned block rows with a prescribed DOF */
  FlxKMult   kK, kC;            /* those rows of K and C_d */
  Mat        Krows;             /* K's rows alone when K is not assembled (element-by-element internal force) */
  PetscReal *w1, *w2;
};

static PetscErrorCode GetReactions(FlxModel m, FlxReactions *r)
{
  PetscFunctionBegin;
  if (!m->reactions) PetscCall(PetscNew(&m->reactions));
  *r = m->reactions;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelReadReactionOptions(FlxModel m)
{
  FlxReactions r = NULL;

  PetscFunctionBegin;
  PetscCall(GetReactions(m, &r));
  for (PetscInt k = 0; k < m->nbc; k++) {
    char     pre[128];
    PetscInt n = 3;
    PetscCall(PetscSNPrintf(pre, sizeof(pre), "bc_%s_", m->bc[k].name));
    PetscOptionsBegin(m->comm, pre, "Boundary condition: reactions", "FlxModel");
    PetscCall(FlxOptionsRealArray("-moment_point", "Point x,y,z about which the moment of this boundary condition's reactions is taken (default the origin)", "FlxModelSetFromOptions", r->point[k], &n, NULL));
    PetscOptionsEnd();
    PetscCheck(n == 3 || n == 0, m->comm, PETSC_ERR_USER_INPUT, "-%smoment_point needs three coordinates x,y,z", pre);
  }
  PetscFunctionReturn(0);
}

/* R = f_int(x1 - x0, v) + a_M M v + M a - f_ext on the prescribed DOFs (FlxSystemReactionFn). */
static PetscErrorCode Reactions(FlxSystem sys, Vec x1, Vec x0, Vec v, Vec a, Vec fext, Vec R, void *ctx)
{
  FlxModel           m  = (FlxModel)ctx;
  FlxReactions       r  = m->reactions;
  const PetscScalar *va = NULL, *aa = NULL, *fa = NULL, *ms, *fr;
  PetscScalar       *Ra;

  PetscFunctionBegin;
  { /* K (x1 - x0 + b_K v): one product, one round of messages */
    Vec       xs[3];
    PetscReal cs[3];
    PetscInt  n = 0;
    xs[n]       = x1;
    cs[n++]     = 1;
    if (x0) {
      xs[n]   = x0;
      cs[n++] = -1;
    }
    if (v && m->bK != 0) {
      xs[n]   = v;
      cs[n++] = m->bK;
    }
    PetscCall(FlxKMultApplyRowsCombination(r->kK, n, cs, xs, r->w1));
  }
  if (v && r->kC) {
    PetscCall(FlxKMultApplyRows(r->kC, v, r->w2));
    for (PetscInt i = 0; i < 6 * r->nrows; i++)
      r->w1[i] += r->w2[i];
  }
  if (v) PetscCall(VecGetArrayRead(v, &va));
  if (a) PetscCall(VecGetArrayRead(a, &aa));
  if (fext) PetscCall(VecGetArrayRead(fext, &fa));
  PetscCall(VecGetArrayRead(m->mass, &ms));
  PetscCall(VecGetArrayRead(m->free, &fr));
  PetscCall(VecGetArray(R, &Ra));
  for (PetscInt k = 0; k < r->nrows; k++)
    for (int d = 0; d < 6; d++) {
      PetscInt  i   = 6 * r->rows[k] + d;
      PetscReal val = r->w1[6 * k + d];
      if (PetscRealPart(fr[i]) > 0.5) continue;
      if (aa) val += PetscRealPart(ms[i] * aa[i]);
      if (va && m->aM != 0) val += m->aM * PetscRealPart(ms[i] * va[i]);
      if (fa) val -= PetscRealPart(fa[i]);
      Ra[i] = val;
    }
  PetscCall(VecRestoreArray(R, &Ra));
  PetscCall(VecRestoreArrayRead(m->free, &fr));
  PetscCall(VecRestoreArrayRead(m->mass, &ms));
  if (fext) PetscCall(VecRestoreArrayRead(fext, &fa));
  if (a) PetscCall(VecRestoreArrayRead(a, &aa));
  if (v) PetscCall(VecRestoreArrayRead(v, &va));
  PetscFunctionReturn(0);
}

/* After the constraints: the rows to multiply, the DOFs of each boundary condition, the system's callback. */
PetscErrorCode FlxModelSetUpReactions(FlxModel m)
{
  FlxReactions       r = NULL;
  const PetscScalar *fr;
  PetscInt           nown;
  PetscInt          *claim;

  PetscFunctionBegin;
  PetscCall(GetReactions(m, &r));
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  PetscCall(PetscMalloc1(nown + 1, &r->rows));
  PetscCall(PetscMalloc1(6 * nown + 1, &claim));
  PetscCall(VecGetArrayRead(m->free, &fr));
  for (PetscInt i = 0; i < nown; i++) {
    PetscBool p = PETSC_FALSE;
    for (int d = 0; d < 6; d++) {
      claim[6 * i + d] = -1;
      if (PetscRealPart(fr[6 * i + d]) < 0.5) p = PETSC_TRUE;
    }
    if (p) r->rows[r->nrows++] = i;
  }
  r->nbc = m->nbc;
  for (PetscInt k = 0; k < m->nbc; k++) {
    PetscInt        g, n, cnt = 0;
    const PetscInt *nodes;
    PetscCall(FlxMeshFindGroup(m->mesh, m->bc[k].group, &g));
    PetscCall(FlxMeshGetGroupNodes(m->mesh, g, &n, &nodes));
    PetscCall(PetscMalloc2(n + 1, &r->bc[k].node, n + 1, &r->bc[k].mask));
    for (PetscInt j = 0; j < n; j++) {
      unsigned char mask = 0;
      for (int d = 0; d < 6; d++) {
        PetscInt i = 6 * nodes[j] + d;
        if (m->bc[k].dofs[d] && PetscRealPart(fr[i]) < 0.5 && claim[i] < 0) {
          claim[i] = k;
          mask |= (unsigned char)(1 << d);
        }
      }
      if (!mask) continue;
      r->bc[k].node[cnt]   = nodes[j];
      r->bc[k].mask[cnt++] = mask;
    }
    r->bc[k].nnode = cnt;
  }
  PetscCall(VecRestoreArrayRead(m->free, &fr));
  PetscCall(PetscFree(claim));
  PetscCall(PetscMalloc2(6 * r->nrows + 1, &r->w1, 6 * r->nrows + 1, &r->w2));
  if (!m->K) PetscCall(FlxModelAssembleRows(m, r->nrows, r->rows, &r->Krows));
  PetscCall(FlxKMultCreate(m, m->K ? m->K : r->Krows, r->nrows, r->rows, &r->kK));
  if (m->Cd) PetscCall(FlxKMultCreate(m, m->Cd, r->nrows, r->rows, &r->kC));
  PetscCall(FlxSystemSetReactionFunction(m->sys, Reactions, m));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelGetBCName(FlxModel m, PetscInt k, const char **name)
{
  PetscFunctionBegin;
  *name = (k >= 0 && k < m->nbc) ? m->bc[k].name : NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelGetReactionPoint(FlxModel m, PetscInt k, PetscReal p[3])
{
  PetscFunctionBegin;
  PetscCheck(m->reactions && k >= 0 && k < m->nbc, m->comm, PETSC_ERR_ARG_OUTOFRANGE, "no boundary condition %" PetscInt_FMT, k);
  for (int c = 0; c < 3; c++)
    p[c] = m->reactions->point[k][c];
  PetscFunctionReturn(0);
}

/* This rank's part of the totals: local[6 k ...] = fx fy fz mx my mz of boundary condition k, summed over its
   owned nodes in local order. */
PetscErrorCode FlxModelComputeReactionTotals(FlxModel m, Vec R, PetscReal local[])
{
  FlxReactions       r = m->reactions;
  const PetscScalar *Ra;
  const PetscReal   *X;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetCoordinates(m->mesh, &X));
  PetscCall(VecGetArrayRead(R, &Ra));
  for (PetscInt k = 0; k < r->nbc; k++) {
    PetscReal *t = local + 6 * k;
    for (int c = 0; c < 6; c++)
      t[c] = 0;
    for (PetscInt j = 0; j < r->bc[k].nnode; j++) {
      PetscInt  i = r->bc[k].node[j];
      PetscReal f[6], d[3];
      for (int c = 0; c < 6; c++)
        f[c] = (r->bc[k].mask[j] >> c) & 1 ? PetscRealPart(Ra[6 * i + c]) : 0;
      for (int c = 0; c < 3; c++)
        d[c] = X[3 * i + c] - r->point[k][c];
      t[0] += f[0];
      t[1] += f[1];
      t[2] += f[2];
      t[3] += d[1] * f[2] - d[2] * f[1] + f[3];
      t[4] += d[2] * f[0] - d[0] * f[2] + f[4];
      t[5] += d[0] * f[1] - d[1] * f[0] + f[5];
    }
  }
  PetscCall(VecRestoreArrayRead(R, &Ra));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelComputeStaticReactions(FlxModel m, Vec u, Vec R)
{
  Vec f;

  PetscFunctionBegin;
  PetscCall(VecDuplicate(m->mass, &f));
  PetscCall(FlxModelComputeStaticLoad(m, f));
  PetscCall(VecZeroEntries(R));
  PetscCall(FlxSystemComputeReactions(m->sys, u, NULL, NULL, NULL, f, R));
  PetscCall(VecDestroy(&f));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelDestroyReactions(FlxModel m)
{
  FlxReactions r = m->reactions;

  PetscFunctionBegin;
  if (!r) PetscFunctionReturn(0);
  for (PetscInt k = 0; k < r->nbc; k++)
    PetscCall(PetscFree2(r->bc[k].node, r->bc[k].mask));
  PetscCall(PetscFree(r->rows));
  PetscCall(PetscFree2(r->w1, r->w2));
  PetscCall(FlxKMultDestroy(&r->kK));
  PetscCall(MatDestroy(&r->Krows));
  PetscCall(FlxKMultDestroy(&r->kC));
  PetscCall(PetscFree(m->reactions));
  PetscFunctionReturn(0);
}
