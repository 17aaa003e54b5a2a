/* Rigid-body motions of a model: the six vectors (GAMG's near-null space, the modes' deflation) and the check that
   the boundary conditions and the springs to ground hold each of them. */
#include <flexure/private/modelimpl.h>
#include <petscblaslapack.h>

/* Centroid of the nodes, and their largest distance from it (1 for a single node). Collective. */
static PetscErrorCode Centroid(FlxModel m, PetscReal cg[3], PetscReal *lb)
{
  const PetscReal *X;
  PetscInt         nown, N;
  PetscReal        c[3] = {0, 0, 0}, r2 = 0, R2;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  PetscCall(FlxMeshGetNodeLayout(m->mesh, &N, NULL));
  PetscCall(FlxMeshGetCoordinates(m->mesh, &X));
  for (PetscInt i = 0; i < nown; i++)
    for (int d = 0; d < 3; d++)
      c[d] += X[3 * i + d] / N;
  PetscCallMPI(MPI_Allreduce(c, cg, 3, MPIU_REAL, MPI_SUM, m->comm));
  for (PetscInt i = 0; i < nown; i++) {
    PetscReal s = 0;
    for (int d = 0; d < 3; d++)
      s += (X[3 * i + d] - cg[d]) * (X[3 * i + d] - cg[d]);
    r2 = PetscMax(r2, s);
  }
  PetscCallMPI(MPI_Allreduce(&r2, &R2, 1, MPIU_REAL, MPI_MAX, m->comm));
  *lb = R2 > 0 ? PetscSqrtReal(R2) : 1;
  PetscFunctionReturn(0);
}

typedef struct {
  PetscReal          cg[3], lb;
  const PetscReal   *X;
  const PetscScalar *frl; /* the free-DOF mask of the owned and ghost nodes */
  PetscInt           nown;
  PetscInt           K;    /* parts (parts.c) */
  const PetscInt    *part; /* of each local node (-1: in no element or spring cell) */
  PetscReal         *cgk;  /* each part's centroid and radius (3 K, K) */
  PetscReal         *lbk;
  PetscReal         *H;    /* each part's Gram matrix of the held motions (36 K) */
  const PetscBool   *held; /* the parts found held so far: a spring to one of them is a spring to ground */
} Held;

/* The six rigid motions at node X: Q[6 d + k] is DOF d of motion k. Translations e_k; rotations e_k x (X - cg) / lb
   on the translational DOFs and e_k on the rotational ones (lb = 1: the rigid motions themselves; lb the model's
   radius: all of unit size, for the check, where each DOF's row may be scaled at will: only which combinations
   vanish on the held DOFs matters). */
static void NodeRows(const PetscReal cg[3], PetscReal lb, const PetscReal X[3], PetscReal Q[36])
{
  const PetscReal r[3] = {(X[0] - cg[0]) / lb, (X[1] - cg[1]) / lb, (X[2] - cg[2]) / lb};

  for (int i = 0; i < 36; i++)
    Q[i] = 0;
  for (int k = 0; k < 3; k++) {
    Q[6 * k + k]           = 1;
    Q[6 * (3 + k) + 3 + k] = 1;
  }
  Q[6 * 1 + 3] = -r[2]; /* about x: (0, -r_z, r_y) */
  Q[6 * 2 + 3] = r[1];
  Q[6 * 0 + 4] = r[2]; /* about y: (r_z, 0, -r_x) */
  Q[6 * 2 + 4] = -r[0];
  Q[6 * 0 + 5] = -r[1]; /* about z: (-r_y, r_x, 0) */
  Q[6 * 1 + 5] = r[0];
}

PetscErrorCode FlxModelCreateRigidBodyVectors(FlxModel m, PetscBool constrained, Vec R[6])
{
  const PetscScalar *fr;
  Held               h;
  PetscReal          Q[36];

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&h, sizeof(h)));
  PetscCall(Centroid(m, h.cg, &h.lb));
  h.lb = 1; /* unscaled: unit translations and rotations about the centroid */
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &h.nown, NULL, NULL));
  PetscCall(FlxMeshGetCoordinates(m->mesh, &h.X));
  PetscCall(VecGetArrayRead(m->free, &fr));
  for (int k = 0; k < 6; k++) {
    PetscScalar *a;
    PetscCall(VecDuplicate(m->mass, &R[k]));
    PetscCall(VecGetArray(R[k], &a));
    for (PetscInt i = 0; i < h.nown; i++) {
      NodeRows(h.cg, h.lb, h.X + 3 * i, Q);
      for (int d = 0; d < 6; d++)
        a[6 * i + d] = constrained ? Q[6 * d + k] * fr[6 * i + d] : Q[6 * d + k];
    }
    PetscCall(VecRestoreArray(R[k], &a));
  }
  PetscCall(VecRestoreArrayRead(m->free, &fr));
  PetscFunctionReturn(0);
}

/* A spring holds the rigid motions that stretch it once the prescribed DOFs and the parts found held are held: with
   Qc the rows of the motions of the part of the row's node at the spring's nn nodes (1: to ground; 2: a spring cell),
   zero on prescribed DOFs and at an end in another part already held, its energy Qc^T K Qc, K scaled to
   D^-1/2 K D^-1/2 (D: the largest translational, rotational diagonal entry) so that it weighs like a held DOF. Added
   by rows, those of owned nodes (a cell seen by several ranks counts once). A spring cell within a part holds nothing
   (it carries no rigid motion); to a clamped anchor or a held part it holds as a spring to ground. */
static PetscErrorCode AddSpring(FlxModel m, PetscInt nn, const PetscInt nodes[], const PetscReal Ke[], const PetscReal Ce[], void *ctx)
{
  Held     *h = (Held *)ctx;
  PetscInt  n = 6 * nn;
  PetscReal Q[2][36], dmax[2] = {0, 0}, sc[12], KQ[12][6];

  PetscFunctionBegin;
  (void)m;
  (void)Ce;
  for (PetscInt i = 0; i < n; i++)
    dmax[(i % 6) / 3] = PetscMax(dmax[(i % 6) / 3], PetscAbsReal(Ke[n * i + i]));
  for (PetscInt i = 0; i < n; i++)
    sc[i] = dmax[(i % 6) / 3] > 0 ? 1 / PetscSqrtReal(dmax[(i % 6) / 3]) : 0;
  for (PetscInt a0 = 0; a0 < nn; a0++) {   /* the rows of owned node a0, for its part p: both ends move with p's motion, */
    const PetscInt p = h->part[nodes[a0]]; /* but not on prescribed DOFs nor at an end in another part already held */
    if (nodes[a0] >= h->nown || p < 0) continue;
    for (PetscInt a = 0; a < nn; a++) {
      const PetscInt q = h->part[nodes[a]];
      NodeRows(h->cgk + 3 * p, h->lbk[p], h->X + 3 * nodes[a], Q[a]);
      for (int d = 0; d < 6; d++)
        if (!(PetscRealPart(h->frl[6 * nodes[a] + d]) >= 0.5) || (q >= 0 && q != p && h->held[q]))
          for (int k = 0; k < 6; k++)
            Q[a][6 * d + k] = 0;
    }
    for (PetscInt i = 6 * a0; i < 6 * a0 + 6; i++) /* KQ = S K S Qc, the rows of a0 */
      for (int k = 0; k < 6; k++) {
        PetscReal s = 0;
        for (PetscInt j = 0; j < n; j++)
          s += Ke[n * i + j] * sc[j] * Q[j / 6][6 * (j % 6) + k];
        KQ[i][k] = sc[i] * s;
      }
    for (int k = 0; k < 6; k++)
      for (int l = 0; l < 6; l++)
        for (int d = 0; d < 6; d++)
          h->H[36 * p + 6 * k + l] += Q[a0][6 * d + k] * KQ[6 * a0 + d][l];
  }
  PetscFunctionReturn(0);
}

/* Each part's centroid and largest distance from it (1 for a single node). Collective. */
static PetscErrorCode PartCentroids(FlxModel m, Held *h)
{
  PetscReal *s;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(4 * h->K + 1, &s));
  for (PetscInt i = 0; i < h->nown; i++) {
    const PetscInt p = h->part[i];
    if (p < 0) continue;
    for (int d = 0; d < 3; d++)
      s[4 * p + d] += h->X[3 * i + d];
    s[4 * p + 3] += 1;
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, s, (PetscMPIInt)(4 * h->K), MPIU_REAL, MPI_SUM, m->comm));
  for (PetscInt p = 0; p < h->K; p++) {
    for (int d = 0; d < 3; d++)
      h->cgk[3 * p + d] = s[4 * p + 3] > 0 ? s[4 * p + d] / s[4 * p + 3] : 0;
    h->lbk[p] = 0;
  }
  for (PetscInt i = 0; i < h->nown; i++) {
    const PetscInt p = h->part[i];
    PetscReal      r = 0;
    if (p < 0) continue;
    for (int d = 0; d < 3; d++)
      r += PetscSqr(h->X[3 * i + d] - h->cgk[3 * p + d]);
    h->lbk[p] = PetscMax(h->lbk[p], r);
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, h->lbk, (PetscMPIInt)h->K, MPIU_REAL, MPI_MAX, m->comm));
  for (PetscInt p = 0; p < h->K; p++)
    h->lbk[p] = h->lbk[p] > 0 ? PetscSqrtReal(h->lbk[p]) : 1;
  PetscCall(PetscFree(s));
  PetscFunctionReturn(0);
}

/* The free-DOF mask on the owned and ghost nodes (the spring cells' ends may be ghosts). Collective. */
static PetscErrorCode LocalFreeMask(FlxModel m, Vec *frl)
{
  const PetscInt *l2g;
  PetscInt        nown, nghost;
  IS              is;
  VecScatter      sct;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, &nghost, NULL));
  PetscCall(FlxMeshGetLocalToGlobal(m->mesh, &l2g));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 6 * (nown + nghost), frl));
  PetscCall(ISCreateBlock(PETSC_COMM_SELF, 6, nown + nghost, l2g, PETSC_COPY_VALUES, &is));
  PetscCall(VecScatterCreate(m->free, is, *frl, NULL, &sct));
  PetscCall(VecScatterBegin(sct, m->free, *frl, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sct, m->free, *frl, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterDestroy(&sct));
  PetscCall(ISDestroy(&is));
  PetscFunctionReturn(0);
}

/* A unit direction's component for print: round-off to zero, and no -0. */
static double Tidy(PetscReal v)
{
  return PetscAbsReal(v) < 1e-9 ? 0.0 : (double)v;
}

/* One free rigid motion c (6, in NodeRows' scaling) in words: a translation, or a rotation about an axis (with a
   slide along it when c is a screw). */
static PetscErrorCode DescribeMotion(const PetscReal cg[3], PetscReal lb, const PetscReal cin[6], char *buf, size_t len)
{
  PetscReal        c[6], big = 0;
  const PetscReal *t = c, *w = c + 3;
  PetscReal        ww = cin[3] * cin[3] + cin[4] * cin[4] + cin[5] * cin[5], tt = cin[0] * cin[0] + cin[1] * cin[1] + cin[2] * cin[2], nw = PetscSqrtReal(ww), p[3], tw;

  PetscFunctionBegin;
  for (int k = 0; k < 6; k++) /* the sign that makes the direction's largest component positive (the first of equals) */
    if (k >= 3 || nw < 1e-6 * PetscSqrtReal(tt + ww)) big = PetscMax(big, PetscAbsReal(cin[k]));
  for (int k = 0, found = 0; k < 6 && !found; k++)
    if ((k >= 3 || nw < 1e-6 * PetscSqrtReal(tt + ww)) && PetscAbsReal(cin[k]) > (1 - 1e-6) * big) {
      big   = cin[k];
      found = 1;
    }
  for (int k = 0; k < 6; k++)
    c[k] = big < 0 ? -cin[k] : cin[k];
  if (nw < 1e-6 * PetscSqrtReal(tt + ww)) {
    PetscReal nt = PetscSqrtReal(tt);
    PetscCall(PetscSNPrintf(buf, len, "the translation along (%.3g, %.3g, %.3g)", Tidy(t[0] / nt), Tidy(t[1] / nt), Tidy(t[2] / nt)));
    PetscFunctionReturn(0);
  }
  /* u(X) = t + w x (X - cg) / lb is parallel to w on the axis X = p + s w: p - cg = lb (w x t) / |w|^2 */
  p[0] = cg[0] + lb * (w[1] * t[2] - w[2] * t[1]) / ww;
  p[1] = cg[1] + lb * (w[2] * t[0] - w[0] * t[2]) / ww;
  p[2] = cg[2] + lb * (w[0] * t[1] - w[1] * t[0]) / ww;
  for (int d = 0; d < 3; d++) /* round-off of coordinates far smaller than the model */
    if (PetscAbsReal(p[d] - cg[d]) < 1e-9 * lb && PetscAbsReal(cg[d]) < 1e-9 * lb) p[d] = 0;
  tw = (t[0] * w[0] + t[1] * w[1] + t[2] * w[2]) / nw;
  PetscCall(PetscSNPrintf(buf, len, "the rotation about the axis through (%.4g, %.4g, %.4g) along (%.3g, %.3g, %.3g)%s", (double)p[0], (double)p[1], (double)p[2], Tidy(w[0] / nw), Tidy(w[1] / nw), Tidy(w[2] / nw),
                          PetscAbsReal(tw) > 1e-6 * PetscSqrtReal(tt + ww) ? " with a slide along it" : ""));
  PetscFunctionReturn(0);
}

/* Which rigid motions the boundary conditions and the springs to ground hold, from the geometry alone: a motion is
   held when it moves a prescribed DOF of a node that an element connects, or stretches a spring once the prescribed
   DOFs are held (AddSpring: a spring to ground, or a spring cell to an anchor). With the six rigid motions' rows Q
   (NodeRows), H = sum over held DOFs of Q_d^T Q_d plus the springs' weighted rows is singular exactly when a rigid
   motion is free, and its null vectors are those motions. The elements' stiffness plays no part: a free motion's
   strain energy would be round-off, but so, nearly, is that of a clamped but very slender structure (a 1 km plate
   4 mm thick: lowest eigenvalue 2e-22 of the highest element's), which is held. Refuses, naming the free motions,
   unless -model_allow_rigid_body. Collective. */
PetscErrorCode FlxModelCheckRigidBody(FlxModel m)
{
  Held               h;
  const PetscScalar *fr, *kd;
  PetscReal          w[6], work[64], Q[36], loose = 0, L, Hp[36], *Hs;
  PetscBool         *elem, *held, more = PETSC_TRUE;
  PetscInt           nc, *part, *first, nfree = 0, bad = -1, nl;
  Vec                frl;
  PetscBLASInt       n = 6, lwork = 64, info;
  char               msg[1280], what[3][192], note[160] = "", alt[192], where[320] = "";

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&h, sizeof(h)));
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &h.nown, &nl, &nc));
  nl += h.nown;
  PetscCall(FlxMeshGetCoordinates(m->mesh, &h.X));
  PetscCall(FlxModelGetParts(m, &h.K, &part, &first)); /* parts.c */
  if (h.K <= 1 || h.K > 4096) {                        /* no element (springs and masses alone), one part, or too many to hold in every rank's
                                                         memory (36 values each): the model as one part, as the check was before parts */
    PetscCall(PetscInfo(NULL, "rigid-body check: %" PetscInt_FMT " parts, checked as one\n", h.K));
    h.K = 1;
    for (PetscInt i = 0; i < nl; i++)
      part[i] = 0;
  }
  h.part = part;
  PetscCall(PetscCalloc4(3 * h.K, &h.cgk, h.K, &h.lbk, 36 * h.K, &h.H, 36 * h.K, &Hs));
  PetscCall(PetscCalloc1(h.K, &held));
  h.held = held;
  if (h.K == 1)
    PetscCall(Centroid(m, h.cgk, h.lbk)); /* every node, as before parts: the same messages */
  else
    PetscCall(PartCentroids(m, &h));
  PetscCall(PetscCalloc1(h.nown + 1, &elem));
  for (PetscInt c = 0; c < nc; c++) { /* the owned nodes of elements (not springs, not node-set cells) */
    const PetscInt *nodes;
    PetscInt        nn;
    if (m->cell_section[c] < 0 || FlxModelCellIsSpring(m, c)) continue;
    PetscCall(FlxMeshGetCell(m->mesh, c, NULL, &nn, &nodes, NULL));
    for (PetscInt a = 0; a < nn; a++)
      if (nodes[a] < h.nown) elem[nodes[a]] = PETSC_TRUE;
  }
  PetscCall(VecGetArrayRead(m->free, &fr));
  PetscCall(VecGetArrayRead(m->kdiag, &kd));
  for (PetscInt i = 0; i < h.nown; i++) { /* the prescribed DOFs of element nodes, into their parts' Hs */
    const PetscInt p    = part[i];
    PetscBool      rows = PETSC_FALSE;
    for (int d = 0; d < 6; d++) {
      if (!(PetscRealPart(fr[6 * i + d]) < 0.5)) continue;
      if (!(PetscAbsScalar(kd[6 * i + d]) > 0)) loose += 1; /* prescribed, with no stiffness at all: the message says so */
      if (!elem[i] || p < 0) continue;                      /* an anchor of springs holds through them (AddSpring) */
      if (!rows) NodeRows(h.cgk + 3 * p, h.lbk[p], h.X + 3 * i, Q);
      rows = PETSC_TRUE;
      for (int k = 0; k < 6; k++)
        for (int l = 0; l < 6; l++)
          Hs[36 * p + 6 * k + l] += Q[6 * d + k] * Q[6 * d + l];
    }
  }
  PetscCall(VecRestoreArrayRead(m->kdiag, &kd));
  PetscCall(VecRestoreArrayRead(m->free, &fr));
  PetscCall(PetscFree(elem));
  PetscCallMPI(MPI_Allreduce(&loose, &L, 1, MPIU_REAL, MPI_SUM, m->comm));
  PetscCall(LocalFreeMask(m, &frl));
  PetscCall(VecGetArrayRead(frl, &h.frl));
  while (more) { /* the parts held by their supports and springs, then those held by springs to them, ... */
    more = PETSC_FALSE;
    bad  = -1;
    PetscCall(PetscArraycpy(h.H, Hs, 36 * h.K));
    PetscCall(FlxModelVisitSprings(m, AddSpring, &h));
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, h.H, (PetscMPIInt)(36 * h.K), MPIU_REAL, MPI_SUM, m->comm));
    PetscCallMPI(MPI_Bcast(h.H, (PetscMPIInt)(36 * h.K), MPIU_REAL, 0, m->comm)); /* one decision on every rank */
    for (PetscInt p = 0; p < h.K; p++) {
      PetscInt nf = 0;
      if (held[p]) continue;
      PetscCall(PetscArraycpy(Hp, h.H + 36 * p, 36));
      PetscCall(PetscFPTrapPush(PETSC_FP_TRAP_OFF));
      PetscCallBLAS("LAPACKsyev", LAPACKsyev_("V", "U", &n, Hp, &n, w, work, &lwork, &info)); /* ascending; columns = vectors */
      PetscCall(PetscFPTrapPop());
      PetscCheck(!info, m->comm, PETSC_ERR_LIB, "LAPACK syev failed (%d) in the rigid-body check", (int)info);
      for (int k = 0; k < 6; k++)                      /* H's entries are O(1) sums: round-off leaves a free motion near 1e-16 of the largest */
        if (!(w[k] > 1e-12 * PetscMax(w[5], 1))) nf++; /* a held DOF or spring weighs about 1: H of round-off alone holds nothing */
      PetscCall(PetscInfo(NULL, "rigid-body check, part %" PetscInt_FMT " of %" PetscInt_FMT ": eigenvalues of the held motions' Gram matrix %g .. %g, %" PetscInt_FMT " free\n", p, h.K, (double)w[0], (double)w[5], nf));
      if (!nf) {
        held[p] = PETSC_TRUE;
        more    = PETSC_TRUE;
      } else if (bad < 0) { /* the first part (in natural order) with a free motion, its free motions first */
        bad   = p;
        nfree = nf;
        PetscCall(PetscArraycpy(h.H + 36 * p, Hp, 36));
      }
    }
    if (bad < 0) more = PETSC_FALSE;
  }
  PetscCall(VecRestoreArrayRead(frl, &h.frl));
  PetscCall(VecDestroy(&frl));
  if (bad >= 0 && h.K > 1) { /* name the part: its first node, where it is */
    PetscInt cnt = 0, tot;
    for (PetscInt i = 0; i < h.nown; i++)
      if (part[i] == bad) cnt++;
    PetscCallMPI(MPI_Allreduce(&cnt, &tot, 1, MPIU_INT, MPI_SUM, m->comm));
    PetscCall(PetscSNPrintf(where, sizeof(where), " one of its %" PetscInt_FMT " unconnected parts (the %" PetscInt_FMT " nodes joined to node %" PetscInt_FMT ", centroid (%.4g, %.4g, %.4g); nodes at the same place that were never merged, or pieces nothing joins, make parts):", h.K, tot, first ? first[bad] : -1, (double)h.cgk[3 * bad], (double)h.cgk[3 * bad + 1], (double)h.cgk[3 * bad + 2]));
  }
  PetscCall(PetscFree(part));
  PetscCall(PetscFree(first));
  PetscCall(PetscFree(held));
  if (bad < 0 || (m->allow_rigid && !m->require_held[0])) {
    PetscCall(PetscFree4(h.cgk, h.lbk, h.H, Hs));
    PetscFunctionReturn(0);
  }
  if (L > 0) PetscCall(PetscSNPrintf(note, sizeof(note), " (%.0f prescribed DOFs have no stiffness at all, no element or spring acting on them: they hold nothing)", (double)L));
  if (m->require_held[0]) /* -model_allow_rigid_body cannot make a singular static problem solvable */
    PetscCall(PetscSNPrintf(alt, sizeof(alt), "; %s needs every rigid-body motion held (-model_allow_rigid_body accepts free structures in flexure run and modes only)", m->require_held));
  else
    PetscCall(PetscSNPrintf(alt, sizeof(alt), ", or accept a free-flying structure with -model_allow_rigid_body"));
  if (nfree == 6) {
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "the model is unconstrained:%s no boundary condition or spring to ground holds %s, every rigid-body motion is free%s. Add boundary conditions (-bc_names ..., -bc_NAME_group, -bc_NAME_dofs) or springs to ground%s", where, where[0] ? "this part" : "it", note, alt));
  } else {
    for (PetscInt k = 0; k < PetscMin(nfree, 3); k++)
      PetscCall(DescribeMotion(h.cgk + 3 * bad, h.lbk[bad], h.H + 36 * bad + 6 * k, what[k], sizeof(what[k])));
    PetscCall(PetscSNPrintf(msg, sizeof(msg), "the model is unconstrained:%s its boundary conditions and springs to ground leave %" PetscInt_FMT " rigid-body motion%s free: %s%s%s%s%s%s%s. Prescribe DOFs that %s (-bc_NAME_dofs, more -bc_names)%s", where, nfree, nfree > 1 ? "s" : "", what[0], nfree > 1 ? "; " : "", nfree > 1 ? what[1] : "", nfree > 2 ? "; " : "", nfree > 2 ? what[2] : "", nfree > 3 ? "; and more" : "", note, nfree > 1 ? "these motions move" : "it moves", alt));
  }
  PetscCall(PetscFree4(h.cgk, h.lbk, h.H, Hs));
  SETERRQ(m->comm, PETSC_ERR_USER_INPUT, "%s", msg);
}
