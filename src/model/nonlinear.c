/* Geometrically nonlinear models (docs/nonlinear.md): sections with geometry nonlinear make their beams
   co-rotational (src/elements/corotbeam.c). The state x holds translations and, per node, the rotation vector of
   the node's frame relative to its initial one; the system gets:
   - f_int(x) = K_lin x (+ C_d v) over the linear elements (assembled, the deterministic product without the zero
     blocks; K_lin freed when it is zero: every element co-rotational and no springs) plus the element
     loop over the nonlinear ones: every rank visits its owned and halo cells in the global cell order (a function
     of the mesh alone) and adds the rows of its owned nodes, so each nodal sum runs in the same order at any number
     of ranks (bit-identical);
   - the Jacobian K_lin + sum of the element tangents (K's pattern: nonlinear cells put zero blocks into K);
   - the configuration update (translations add, rotations compose R_new = exp(skew(dtheta)) R);
   - the strain energy (1/2 x^T K_lin x over the linear elements plus the elements' energies, owned cells);
   - for springs with rotational stiffness, f_int, the Jacobian and the strain energy add the difference between the
     exact finite-rotation spring and the linear form K_lin carries (springrot.c), after every element.
   The explicit step's f_int takes a fast path when every nonlinear cell is a co-rotational beam (today: always;
   -model_nonlinear_cache false turns it off): a cache built at set-up holds, per nonlinear cell (owned and halo, in
   the loop's cell order), its local nodes and the constant element data (initial length and axes, the entries
   of the local stiffness: FlxCorotBeamData) in batches of FLX_COROT_LANES cells, and one loop
   (FlxCorotBeamAddForces, corotfast.c: a SIMD lane per cell) streams through it with the nodal states (position, unit
   quaternion: one cache line per node) built once per call: no per-cell property lookups, allocation or complex
   arithmetic. The arithmetic is the general kernel's formulas; the forces are added cell by cell in the loop's order.
   The strain energy of the owned cells comes with it; StrainEnergy reuses it when asked for the state of the last f_int
   (the same vector with its PETSc object state unchanged, else compared bitwise; on every rank). The nodal states read the owned nodes' DOFs from x (only the ghosts scattered) when
   the owned nodes lead the local numbering in x's order. The configuration update has a local form on a range of nodes
   (FlxSystemSetConfigurationUpdateLocal), which the GCD step fuses into its pass. The tangent keeps the general
   (complex-step) kernel. */
#include <flexure/private/modelimpl.h>
#include <flexure/private/elementimpl.h>
#include <petsc/private/petscimpl.h> /* PetscObjectStateGet: whether x changed since the last f_int */

struct _FlxNonlinear {
  VecScatter         toloc; /* global DOF vector -> owned and ghost nodes */
  Vec                xloc;
  VecScatter         toghost; /* -> the ghost nodes only, when the owned ones lead xloc in x's order (NULL: else) */
  Vec                xg;
  PetscReal         *s;    /* state of every local node: position, unit quaternion, 0 (FLX_COROT_STATE each) */
  void              *sraw; /* the allocation s lies in, on 64 bytes (FlxMallocAligned) */
  PetscInt           nloc, nown;
  PetscInt           nbatch; /* the cache (fast path; NULL: the general loop) */
  FlxCorotBeamBatch *batch;
  PetscBool          samelayout; /* the owned nodes lead xloc in x's order: the cached pass reads them from x */
  PetscBool          evalid;     /* energy is the owned cells' strain energy at the state in xloc */
  Vec                xlast;      /* the vector x of the last nodal states (a reference) and its object state then */
  PetscObjectState   xstate;
  PetscReal          energy, elin; /* of the co-rotational cells; of the linear ones (element loop) */
  FlxNodeRot         rot;          /* the nodes' rotations as cached quaternions (noderot.c) */
  FlxRotSprings      rs;           /* rotational springs (springrot.c; NULL: none) */
};

/* The last x whose nodal states were built, kept (referenced) with its object state: StrainEnergy compares. */
static PetscErrorCode Remember(FlxNonlinear nl, Vec x)
{
  PetscFunctionBegin;
  nl->evalid = PETSC_FALSE;
  PetscCall(PetscObjectReference((PetscObject)x));
  PetscCall(VecDestroy(&nl->xlast));
  nl->xlast = x;
  PetscCall(PetscObjectStateGet((PetscObject)x, &nl->xstate));
  PetscFunctionReturn(0);
}

/* Scatter x to the local nodes and build their states: position X + u and the quaternion of exp(skew(psi)); fzero (may
   be NULL) is zeroed at the owned nodes' DOFs in the same pass. */
static PetscErrorCode LocalState(FlxModel m, Vec x, const PetscScalar **xl, PetscScalar *fzero)
{
  FlxNonlinear     nl = m->nl;
  const PetscReal *X;

  PetscFunctionBegin;
  PetscCall(Remember(nl, x));
  PetscCall(FlxMeshGetCoordinates(m->mesh, &X));
  PetscCall(VecScatterBegin(nl->toloc, x, nl->xloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(nl->toloc, x, nl->xloc, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(nl->xloc, xl));
  PetscCall(FlxNodeRotStates(nl->rot, *xl, *xl + 6 * nl->nown, X, nl->s, fzero)); /* the quaternions of exp(skew(psi)), cached */
  PetscFunctionReturn(0);
}

/* The nodal states alone (the cached pass): the owned nodes' DOFs read from x itself when they lead xloc in x's
   order, only the ghosts scattered (no copy of x); else as LocalState. */
static PetscErrorCode CachedStates(FlxModel m, Vec x, PetscScalar *fzero)
{
  FlxNonlinear       nl = m->nl;
  const PetscReal   *X;
  const PetscScalar *xo, *xg;

  PetscFunctionBegin;
  if (!nl->toghost) {
    PetscCall(LocalState(m, x, &xo, fzero));
    PetscCall(VecRestoreArrayRead(nl->xloc, &xo));
    PetscFunctionReturn(0);
  }
  PetscCall(Remember(nl, x));
  PetscCall(FlxMeshGetCoordinates(m->mesh, &X));
  PetscCall(VecScatterBegin(nl->toghost, x, nl->xg, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(nl->toghost, x, nl->xg, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(x, &xo));
  PetscCall(VecGetArrayRead(nl->xg, &xg));
  PetscCall(FlxNodeRotStates(nl->rot, xo, xg, X, nl->s, fzero));
  PetscCall(VecRestoreArrayRead(nl->xg, &xg));
  PetscCall(VecRestoreArrayRead(x, &xo));
  PetscFunctionReturn(0);
}

/* Element input of a local cell: initial coordinates, element DOFs, nodal rotation matrices. */
static PetscErrorCode CellState(FlxModel m, PetscInt c, const PetscScalar *xl, const FlxSectionProps **p, FlxElementOps *ops, PetscReal X0[], PetscReal u[], PetscReal R[], PetscInt *nn, const PetscInt **nodes)
{
  PetscFunctionBegin;
  PetscCall(FlxModelElementProps(m, c, p, ops, X0));
  PetscCall(FlxMeshGetCell(m->mesh, c, NULL, nn, nodes, NULL));
  for (PetscInt a = 0; a < *nn; a++) {
    for (int d = 0; d < 6; d++)
      u[6 * a + d] = xl[6 * (*nodes)[a] + d];
    FlxRotFromQuaternion(m->nl->s + FLX_COROT_STATE * (*nodes)[a] + 3, R + 9 * a);
  }
  PetscFunctionReturn(0);
}

static PetscBool CellNonlinear(FlxModel m, PetscInt c)
{
  return (PetscBool)(m->cell_section[c] >= 0 && m->sec[m->cell_section[c]].nonlinear);
}

/* The failing element's description into msg (degenerate geometry), with the time t of a transient (t > 0). */
static PetscErrorCode ElementFailure(FlxModel m, PetscInt c, PetscReal t, const char err[], char msg[], size_t len)
{
  char desc[256], when[64] = "";

  PetscFunctionBegin;
  PetscCall(FlxModelCellDescription(m, c, desc, sizeof(desc)));
  if (t > 0) PetscCall(PetscSNPrintf(when, sizeof(when), "at t = %g s, ", (double)t));
  PetscCall(PetscSNPrintf(msg, len, "%sco-rotational %s: %s", when, desc, err));
  PetscFunctionReturn(0);
}

static PetscErrorCode InternalForce(FlxSystem sys, PetscReal t, Vec x, Vec v, Vec f, void *ctx)
{
  FlxModel           m = (FlxModel)ctx;
  const PetscScalar *xl;
  PetscScalar       *fa;
  PetscInt           nown, nc;
  PetscBool          bad      = PETSC_FALSE, zero;
  char               msg[512] = "";

  PetscFunctionBegin;
  m->nl->elin = 0;
  /* zero: co-rotational cells alone, f zeroed in the nodal states' pass */
  zero = (PetscBool)(m->nl->batch && !m->fint_elements && !m->kmultlin && !m->kmultC);
  /* linear elements and springs: the element loop (their strain energy with it), or K_lin */
  if (m->fint_elements)
    PetscCall(FlxEbeApply(m->ebe, x, f, PETSC_FALSE, &m->nl->elin));
  else if (m->kmultlin)
    PetscCall(FlxKMultApply(m->kmultlin, x, f));
  else if (!zero)
    PetscCall(VecZeroEntries(f));
  if (m->kmultC) PetscCall(FlxKMultApplyAdd(m->kmultC, v, f));
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, &nc));
  PetscCall(VecGetArray(f, &fa));
  if (m->nl->batch)
    PetscCall(CachedStates(m, x, zero ? fa : NULL));
  else
    PetscCall(LocalState(m, x, &xl, NULL));
  if (m->nl->batch) { /* the fast path */
    char     err[256];
    PetscInt k = FlxCorotBeamAddForces(m->nl->nbatch, m->nl->batch, m->nl->s, nown, fa, &m->nl->energy, err, sizeof(err));
    if (k >= 0) {
      PetscCall(ElementFailure(m, k, t, err, msg, sizeof(msg)));
      bad = PETSC_TRUE;
    } else
      m->nl->evalid = PETSC_TRUE;
    nc = 0;
  }
  for (PetscInt c = 0; c < nc && !bad; c++) {
    const FlxSectionProps *p;
    FlxElementOps          ops;
    PetscReal              X0[12], u[24], R[36], fe[24], en;
    const PetscInt        *nodes;
    PetscInt               nn;
    char                   err[256];
    PetscErrorCode         ierr;
    if (!CellNonlinear(m, c)) continue;
    PetscCall(CellState(m, c, xl, &p, &ops, X0, u, R, &nn, &nodes));
    ierr = ops->internal_force(X0, u, R, p, fe, &en, err, sizeof(err));
    if (ierr == PETSC_ERR_USER_INPUT) {
      PetscCall(ElementFailure(m, c, t, err, msg, sizeof(msg)));
      bad = PETSC_TRUE;
      break;
    }
    PetscCall(ierr);
    for (PetscInt a = 0; a < nn; a++)
      if (nodes[a] < nown)
        for (int d = 0; d < 6; d++)
          fa[6 * nodes[a] + d] += fe[6 * a + d];
  }
  if (!bad) PetscCall(FlxRotSpringsAddForce(m, m->nl->rs, t, m->nl->s, fa, NULL, msg, sizeof(msg), &bad)); /* after every element: the same sums at any number of ranks */
  PetscCall(VecRestoreArray(f, &fa));
  if (!m->nl->batch) PetscCall(VecRestoreArrayRead(m->nl->xloc, &xl));
  /* during a transient (t > 0) the run failed (exit code 2); at t = 0 (statics, the initial state) the input */
  PetscCall(FlxCheckCollective(m->comm, bad, t > 0 ? PETSC_ERR_NOT_CONVERGED : PETSC_ERR_USER_INPUT, msg));
  PetscFunctionReturn(0);
}

static PetscErrorCode Jacobian(FlxSystem sys, PetscReal t, Vec x, Vec v, PetscReal shiftV, Mat J, void *ctx)
{
  FlxModel           m = (FlxModel)ctx;
  const PetscScalar *xl;
  PetscInt           nc;
  PetscBool          bad      = PETSC_FALSE;
  char               msg[512] = "";

  PetscFunctionBegin;
  PetscCall(FlxModelAssembleStiffness(m)); /* K_lin, on first need */
  if (m->Klin) PetscCall(MatAXPY(J, 1.0, m->Klin, SAME_NONZERO_PATTERN));
  if (m->Cd && shiftV != 0) PetscCall(MatAXPY(J, shiftV, m->Cd, SUBSET_NONZERO_PATTERN));
  PetscCall(FlxMeshGetLocalSizes(m->mesh, NULL, NULL, &nc));
  PetscCall(LocalState(m, x, &xl, NULL));
  for (PetscInt c = 0; c < nc && !bad; c++) {
    const FlxSectionProps *p;
    FlxElementOps          ops;
    PetscReal              X0[12], u[24], R[36], Ke[24 * 24];
    const PetscInt        *nodes;
    PetscInt               nn;
    char                   err[256];
    PetscErrorCode         ierr;
    if (!CellNonlinear(m, c)) continue;
    PetscCall(CellState(m, c, xl, &p, &ops, X0, u, R, &nn, &nodes));
    ierr = ops->tangent(X0, u, R, p, Ke, err, sizeof(err));
    if (ierr == PETSC_ERR_USER_INPUT) {
      PetscCall(ElementFailure(m, c, t, err, msg, sizeof(msg)));
      bad = PETSC_TRUE;
      break;
    }
    PetscCall(ierr);
    PetscCall(FlxModelAddOwnedRows(m, J, nn, nodes, Ke, NULL));
  }
  if (!bad) PetscCall(FlxRotSpringsAddTangent(m, m->nl->rs, m->nl->s, J));
  PetscCall(VecRestoreArrayRead(m->nl->xloc, &xl));
  PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY)); /* assembled even when an element failed: the caller may retry */
  PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  PetscCall(FlxCheckCollective(m->comm, bad, t > 0 ? PETSC_ERR_NOT_CONVERGED : PETSC_ERR_USER_INPUT, msg));
  PetscFunctionReturn(0);
}

/* x_new = x (+) dx: translations add, rotation vectors compose with the spatial increments. */
static PetscErrorCode Update(FlxSystem sys, Vec x, Vec dx, Vec xnew, void *ctx)
{
  FlxModel           m = (FlxModel)ctx;
  const PetscScalar *xa, *da;
  PetscScalar       *na;
  PetscInt           n;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(x, &n));
  PetscCall(VecGetArrayRead(dx, &da));
  if (xnew == x) {
    PetscCall(VecGetArray(xnew, &na));
    xa = na;
  } else {
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecGetArrayWrite(xnew, &na));
  }
  PetscCheck(n == 6 * m->nl->nown, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "configuration update: %" PetscInt_FMT " local DOFs, not 6 per owned node", n);
  PetscCall(FlxNodeRotUpdate(m->nl->rot, 0, m->nl->nown, xa, da, na)); /* quaternions: psi_new = log(exp(skew(dtheta)) exp(skew(psi))) */
  if (xnew == x)
    PetscCall(VecRestoreArray(xnew, &na));
  else {
    PetscCall(VecRestoreArrayRead(x, &xa));
    PetscCall(VecRestoreArrayWrite(xnew, &na));
  }
  PetscCall(VecRestoreArrayRead(dx, &da));
  PetscFunctionReturn(0);
}

/* The same on the local DOFs [start, start + n) of the arrays (FlxSystemUpdateLocalFn). */
static PetscErrorCode UpdateLocal(FlxSystem sys, PetscInt start, PetscInt n, const PetscScalar x[], const PetscScalar dx[], PetscScalar xnew[], void *ctx)
{
  FlxModel m = (FlxModel)ctx;

  PetscFunctionBegin;
  PetscCheck(start % 6 == 0 && n % 6 == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "configuration update of local DOFs [%" PetscInt_FMT ", %" PetscInt_FMT "): not whole nodes", start, start + n);
  PetscCall(FlxNodeRotUpdate(m->nl->rot, start / 6, n / 6, x, dx, xnew));
  PetscFunctionReturn(0);
}

/* The rotational springs' energy beyond the linear part's (its owned springs) at the nodal states last built. */
static PetscErrorCode SpringEnergy(FlxModel m, PetscReal *elocal)
{
  PetscReal e;
  PetscBool bad = PETSC_FALSE; /* a spring past its angle: reported by f_int */
  char      msg[8];

  PetscFunctionBegin;
  if (!m->nl->rs) PetscFunctionReturn(0);
  PetscCall(FlxRotSpringsAddForce(m, m->nl->rs, 0, m->nl->s, NULL, &e, msg, sizeof(msg), &bad));
  *elocal += e;
  PetscFunctionReturn(0);
}

static PetscErrorCode StrainEnergy(FlxSystem sys, Vec x, PetscReal *elocal, void *ctx)
{
  FlxModel           m = (FlxModel)ctx;
  const PetscScalar *xl, *xa, *ka;
  PetscInt           n, nc;

  PetscFunctionBegin;
  *elocal = 0;
  PetscCall(VecGetLocalSize(x, &n));
  if (m->fint_elements && m->nl->batch) /* linear part: from the element loop (below, with the co-rotational cells' energy) */
    PetscCall(VecGetArrayRead(x, &xa));
  else if (m->fint_elements) { /* linear part: the element loop's owned cells */
    PetscReal el;
    PetscCall(FlxEbeApply(m->ebe, x, m->work, PETSC_FALSE, &el));
    *elocal += el;
    PetscCall(VecGetArrayRead(x, &xa));
  } else if (m->kmultlin) { /* linear part, owned rows */
    PetscCall(FlxKMultApply(m->kmultlin, x, m->work));
    PetscCall(VecGetArrayRead(x, &xa));
    PetscCall(VecGetArrayRead(m->work, &ka));
    for (PetscInt i = 0; i < n; i++)
      *elocal += 0.5 * xa[i] * ka[i];
    PetscCall(VecRestoreArrayRead(m->work, &ka));
  } else
    PetscCall(VecGetArrayRead(x, &xa));
  if (m->nl->batch) { /* the fast path: the energy of the last f_int when x is its state, else the cached loop */
    PetscBool        same = PETSC_FALSE;
    PetscObjectState st   = 0;
    if (m->nl->evalid) PetscCall(PetscObjectStateGet((PetscObject)m->nl->xlast, &st));
    if (m->nl->evalid && st == m->nl->xstate) { /* the last f_int's x still holds its state */
      if (x == m->nl->xlast)
        same = PETSC_TRUE; /* the same vector: no pass over it */
      else {               /* another vector (a copy?): compared bitwise */
        PetscInt n2;
        PetscCall(VecGetLocalSize(m->nl->xlast, &n2));
        if (n2 == n) {
          PetscCall(VecGetArrayRead(m->nl->xlast, &xl));
          same = (PetscBool)(n == 0 || !memcmp(xa, xl, sizeof(PetscScalar) * n)); /* a rank may own no node (no arrays) */
          PetscCall(VecRestoreArrayRead(m->nl->xlast, &xl));
        }
      }
    }
    PetscCall(VecRestoreArrayRead(x, &xa));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &same, 1, MPIU_BOOL, MPI_LAND, m->comm));
    if (!same) {
      char err[256];
      PetscCall(CachedStates(m, x, NULL));
      (void)FlxCorotBeamAddForces(m->nl->nbatch, m->nl->batch, m->nl->s, 0, NULL, &m->nl->energy, err, sizeof(err)); /* degenerate cells add nothing: reported by f_int */
      m->nl->evalid = PETSC_TRUE;
      m->nl->elin   = 0;
      if (m->fint_elements) PetscCall(FlxEbeApply(m->ebe, x, m->work, PETSC_FALSE, &m->nl->elin));
    }
    *elocal += m->nl->energy + (m->fint_elements ? m->nl->elin : 0);
    PetscCall(SpringEnergy(m, elocal)); /* the nodal states are x's */
    PetscFunctionReturn(0);
  }
  PetscCall(VecRestoreArrayRead(x, &xa));
  PetscCall(FlxMeshGetLocalSizes(m->mesh, NULL, NULL, &nc));
  PetscCall(LocalState(m, x, &xl, NULL));
  for (PetscInt c = 0; c < nc; c++) {
    const FlxSectionProps *p;
    FlxElementOps          ops;
    PetscReal              X0[12], u[24], R[36], fe[24], en = 0;
    const PetscInt        *nodes;
    PetscInt               nn;
    PetscBool              owned;
    char                   err[256];
    if (!CellNonlinear(m, c)) continue;
    PetscCall(FlxMeshIsCellOwned(m->mesh, c, &owned));
    if (!owned) continue;
    PetscCall(CellState(m, c, xl, &p, &ops, X0, u, R, &nn, &nodes));
    if (ops->internal_force(X0, u, R, p, fe, &en, err, sizeof(err))) en = 0; /* degenerate: reported by f_int */
    *elocal += en;
  }
  PetscCall(VecRestoreArrayRead(m->nl->xloc, &xl));
  PetscCall(SpringEnergy(m, elocal));
  PetscFunctionReturn(0);
}

/* f = K_0 x: the initial (linearized) stiffness, unassembled (the element loop) or K. */
static PetscErrorCode InitialStiffness(FlxSystem sys, Vec x, Vec f, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(FlxModelApplyInitialStiffness((FlxModel)ctx, x, f));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelFreeZeroKlin(FlxModel m)
{
  PetscReal norm;

  PetscFunctionBegin;
  if (!m->Klin) PetscFunctionReturn(0);
  PetscCall(MatNorm(m->Klin, NORM_FROBENIUS, &norm));
  if (norm == 0) { /* every element co-rotational and no springs: K_lin is zero (K's pattern of zero blocks) */
    PetscCall(FlxKMultDestroy(&m->kmultlin));
    PetscCall(MatDestroy(&m->Klin));
  }
  PetscFunctionReturn(0);
}

/* The cache of the fast path: every nonlinear local cell in the loop's order with its constant data; none (the
   general loop) when some nonlinear cell is not a co-rotational beam. Collective. */
static PetscErrorCode BuildCache(FlxModel m)
{
  FlxNonlinear nl = m->nl;
  PetscInt     nc, n = 0;
  PetscBool    bad = PETSC_FALSE, corot = PETSC_TRUE;
  char         msg[512] = "";

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, NULL, NULL, &nc));
  for (PetscInt c = 0; c < nc; c++) {
    const FlxSectionProps *p;
    FlxElementOps          ops;
    PetscReal              X0[12];
    if (!CellNonlinear(m, c)) continue;
    PetscCall(FlxModelElementProps(m, c, &p, &ops, X0));
    if (ops->internal_force != FlxCorotBeamInternalForce) corot = PETSC_FALSE;
    n++;
  }
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &corot, 1, MPIU_BOOL, MPI_LAND, m->comm));
  if (!corot) PetscFunctionReturn(0);
  nl->nbatch = (n + FLX_COROT_LANES - 1) / FLX_COROT_LANES;
  PetscCall(PetscCalloc1(nl->nbatch + 1, &nl->batch));
  n = 0;
  for (PetscInt c = 0; c < nc && !bad; c++) {
    FlxCorotBeamBatch     *b = &nl->batch[n / FLX_COROT_LANES];
    FlxCorotBeamData       d;
    const FlxSectionProps *p;
    FlxElementOps          ops;
    PetscReal              X0[12];
    const PetscInt        *nodes;
    PetscInt               nn;
    PetscBool              owned;
    char                   err[256];
    PetscErrorCode         ierr;
    if (!CellNonlinear(m, c)) continue;
    PetscCall(FlxModelElementProps(m, c, &p, &ops, X0));
    PetscCall(FlxMeshGetCell(m->mesh, c, NULL, &nn, &nodes, NULL));
    PetscCall(FlxMeshIsCellOwned(m->mesh, c, &owned));
    ierr = FlxCorotBeamSetUp(X0, p, &d, err, sizeof(err));
    if (ierr == PETSC_ERR_USER_INPUT) {
      PetscCall(ElementFailure(m, c, 0, err, msg, sizeof(msg)));
      bad = PETSC_TRUE;
      break; /* d not set: reported below */
    } else
      PetscCall(ierr);
    FlxCorotBeamBatchSet(b, n % FLX_COROT_LANES, nodes[0], nodes[1], c, owned, &d);
    b->n = n % FLX_COROT_LANES + 1;
    n++;
  }
  if (n % FLX_COROT_LANES) { /* the last batch's free lanes repeat its first cell (computed, never added) */
    FlxCorotBeamBatch *b = &nl->batch[n / FLX_COROT_LANES];
    for (PetscInt l = b->n; l < FLX_COROT_LANES; l++) {
      for (int a = 0; a < 2; a++)
        b->node[a][l] = b->node[a][0];
      b->cell[l]  = b->cell[0];
      b->owned[l] = 0;
      b->l0[l]    = b->l0[0];
      for (int i = 0; i < 4; i++)
        b->e[i][l] = b->e[i][0];
      for (int i = 0; i < 6; i++)
        b->k[i][l] = b->k[i][0];
    }
  }
  PetscCall(FlxCheckCollective(m->comm, bad, PETSC_ERR_USER_INPUT, msg));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelIsNonlinear(FlxModel m, PetscBool *nonlinear)
{
  PetscFunctionBegin;
  *nonlinear = m->nonlinear;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelSetUpNonlinear(FlxModel m)
{
  FlxNonlinear    nl;
  PetscInt        nown, nghost;
  const PetscInt *l2g;
  IS              is;

  PetscFunctionBegin;
  PetscCall(FlxModelSetUpRotaryTensors(m)); /* rotary.c (refuses tensors in a linear model) */
  if (!m->nonlinear) PetscFunctionReturn(0);
  for (PetscInt k = 0; k < m->nsec; k++)
    for (PetscInt t = 0; t < FLX_NUM_CELL_TYPES; t++)
      PetscCheck(!m->sec[k].nonlinear || !m->sec[k].ops[t] || (m->sec[k].ops[t]->internal_force && m->sec[k].ops[t]->tangent), m->comm, PETSC_ERR_USER_INPUT, "section '%s': element type '%s' has no geometrically nonlinear form: set -section_%s_geometry linear", m->sec[k].name, m->sec[k].ops[t]->name, m->sec[k].name);
  PetscCheck(m->bK == 0, m->comm, PETSC_ERR_USER_INPUT, "-damping_stiffness (b_K) is not available with geometry nonlinear sections yet: use -damping_mass or discrete dampers");
  PetscCall(FlxModelFreeZeroKlin(m));
  PetscCall(PetscNew(&nl));
  m->nl = nl;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, &nghost, NULL));
  PetscCall(FlxMeshGetLocalToGlobal(m->mesh, &l2g));
  nl->nloc = nown + nghost;
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 6 * nl->nloc, &nl->xloc));
  PetscCall(ISCreateBlock(PETSC_COMM_SELF, 6, nl->nloc, l2g, PETSC_COPY_VALUES, &is));
  PetscCall(VecScatterCreate(m->mass, is, nl->xloc, NULL, &nl->toloc));
  PetscCall(ISDestroy(&is));
  PetscCall(FlxMallocAligned(sizeof(PetscReal) * (FLX_COROT_STATE * nl->nloc + 1), &nl->sraw, (void **)&nl->s)); /* a node's state in one line */
  PetscCall(FlxNodeRotCreate(m, &nl->rot));
  nl->nown = nown;
  {
    PetscInt rstart;
    PetscCall(FlxMeshGetNodeLayout(m->mesh, NULL, &rstart));
    nl->samelayout = PETSC_TRUE;
    for (PetscInt i = 0; i < nown; i++)
      if (l2g[i] != rstart + i) nl->samelayout = PETSC_FALSE;
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &nl->samelayout, 1, MPIU_BOOL, MPI_LAND, m->comm)); /* one choice: the scatter below is collective */
  }
  if (m->nlcache) PetscCall(BuildCache(m));
  PetscCall(FlxRotSpringsCreate(m, &nl->rs));
  if (nl->batch && nl->samelayout) { /* the cached pass reads the owned nodes from x: scatter the ghosts only */
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 6 * nghost, &nl->xg));
    PetscCall(ISCreateBlock(PETSC_COMM_SELF, 6, nghost, l2g + nown, PETSC_COPY_VALUES, &is));
    PetscCall(VecScatterCreate(m->mass, is, nl->xg, NULL, &nl->toghost));
    PetscCall(ISDestroy(&is));
  }
  PetscCall(PetscInfo(NULL, "nonlinear model: %s; %" PetscInt_FMT " local nodes, owned ones first in x's order: %s; linear part %s\n", nl->batch ? "co-rotational cache" : "general element loop", nl->nloc, nl->samelayout ? "yes" : "no", m->fint_elements ? "element by element" : m->Klin ? "K_lin"
                                                                                                                                                                                                                                                                                              : "zero"));
  PetscCall(FlxSystemSetInternalForce(m->sys, InternalForce, PETSC_FALSE, m));
  PetscCall(FlxSystemSetJacobian(m->sys, Jacobian, m));
  PetscCall(FlxSystemSetConfigurationUpdate(m->sys, Update, m));
  PetscCall(FlxSystemSetConfigurationUpdateLocal(m->sys, UpdateLocal));
  PetscCall(FlxSystemSetStrainEnergy(m->sys, StrainEnergy, m));
  PetscCall(FlxSystemSetInitialStiffnessProduct(m->sys, InitialStiffness, m)); /* the critical step's omega_max */
  PetscCall(FlxSystemSetReactionFunction(m->sys, NULL, NULL));                 /* reactions from f_int (the rows of K_lin miss the beams) */
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelDestroyNonlinear(FlxModel m)
{
  PetscFunctionBegin;
  PetscCall(FlxKMultDestroy(&m->kmultlin));
  PetscCall(MatDestroy(&m->Klin));
  PetscCall(PetscFree(m->rotj));
  if (!m->nl) PetscFunctionReturn(0);
  PetscCall(VecScatterDestroy(&m->nl->toloc));
  PetscCall(VecDestroy(&m->nl->xloc));
  PetscCall(VecScatterDestroy(&m->nl->toghost));
  PetscCall(VecDestroy(&m->nl->xg));
  PetscCall(VecDestroy(&m->nl->xlast));
  PetscCall(PetscFree(m->nl->sraw));
  PetscCall(FlxNodeRotDestroy(&m->nl->rot));
  PetscCall(FlxRotSpringsDestroy(&m->nl->rs));
  PetscCall(PetscFree(m->nl->batch));
  PetscCall(PetscFree(m->nl));
  PetscFunctionReturn(0);
}
