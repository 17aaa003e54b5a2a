/* The nodal rotations of a geometrically nonlinear model as unit quaternions (docs/nonlinear.md, "Performance"): a
   cache, per owned node, of the quaternion q of its frame and the rotation vector psi (the state's component) it
   belongs to.

   The configuration update psi_{n+1} = log(exp(skew(dtheta)) exp(skew(psi_n))) took two exponentials (sines and
   cosines), a matrix product and a logarithm through a quaternion per node and step, and the internal force another
   exponential per local node: about half of a co-rotational explicit step. With the cache:
   - update: q_{n+1} = q(dtheta) q_n (the increment's quaternion by its series: |dtheta| is small; q_n the cached one
     when psi_n is the cached vector, bit for bit), normalized, q0 >= 0, and psi_{n+1} = 2 atan2(|v|, q0) v / |v|
     (one arctangent, no sine or cosine);
   - nodal states of f_int: the cached quaternion itself of every owned node whose psi is the cached one (else
     q = exp(psi), which then becomes the cached pair), with the position: one cache line per node (the co-rotational
     kernel takes the nodal triads from it, corotfast.c); ghost nodes receive their owner's quaternion, so every rank
     holds the same state for a node and the results stay bit-identical at 1, 2 and 4 ranks.
   The quaternions the chain carries and exp(psi) of the psi it writes agree to round-off, not bit for bit. Only the
   node's owner computes its pair, in the same sequence of calls at any number of ranks. */
#include <flexure/private/modelimpl.h>
#include <flexure/private/elementimpl.h>

struct _FlxNodeRot {
  PetscInt   nown, nghost;
  Vec        Q;   /* quaternions of the owned nodes (4 each) */
  PetscReal *psi; /* the rotation vector each belongs to (3 per owned node; NaN: none yet) */
  Vec        Qg;  /* the ghost nodes' quaternions, from their owners */
  VecScatter sct;
};

/* q = exp of the rotation vector p as a unit quaternion: q0 >= 0 for |p| <= pi (a longer prescribed rotation gives
   q0 < 0 from pi to 3 pi: -q, the same frame); series below 0.03 rad. */
static inline void QuatExp(const PetscReal p[3], PetscReal q[4])
{
  const PetscReal a2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
  PetscReal       c, s; /* cos(a/2), sin(a/2)/a */

  if (a2 < 9e-4) { /* x = a/2 < 0.015: the truncations are below 1e-19 */
    const PetscReal x2 = 0.25 * a2;
    c                  = 1 + x2 * (-1.0 / 2 + x2 * (1.0 / 24 + x2 * (-1.0 / 720 + x2 * (1.0 / 40320))));
    s                  = 0.5 * (1 + x2 * (-1.0 / 6 + x2 * (1.0 / 120 + x2 * (-1.0 / 5040 + x2 * (1.0 / 362880)))));
  } else {
    const PetscReal a = PetscSqrtReal(a2);
    c                 = PetscCosReal(0.5 * a);
    s                 = PetscSinReal(0.5 * a) / a;
  }
  q[0] = c;
  q[1] = s * p[0];
  q[2] = s * p[1];
  q[3] = s * p[2];
}

/* p = log(q), |p| <= pi, for a unit quaternion with q0 >= 0. */
static inline void QuatLog(const PetscReal q[4], PetscReal p[3])
{
  const PetscReal s2 = q[1] * q[1] + q[2] * q[2] + q[3] * q[3], w = q[0];
  PetscReal       f; /* angle / |v| */

  if (s2 < 1e-8 * w * w) { /* 2 atan(t)/(t w), t = |v|/w < 1e-4: series to t^6 */
    const PetscReal t2 = s2 / (w * w);
    f                  = 2 / w * (1 + t2 * (-1.0 / 3 + t2 * (1.0 / 5 - t2 / 7)));
  } else {
    const PetscReal s = PetscSqrtReal(s2);
    f                 = 2 * PetscAtan2Real(s, w) / s;
  }
  p[0] = f * q[1];
  p[1] = f * q[2];
  p[2] = f * q[3];
}

static inline PetscBool Same(const PetscReal a[3], const PetscReal b[3])
{
  return (PetscBool)(a[0] == b[0] && a[1] == b[1] && a[2] == b[2]);
}

PetscErrorCode FlxNodeRotCreate(FlxModel m, FlxNodeRot *out)
{
  FlxNodeRot      r;
  const PetscInt *l2g;
  IS              is;

  PetscFunctionBegin;
  PetscCall(PetscNew(&r));
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &r->nown, &r->nghost, NULL));
  PetscCall(FlxMeshGetLocalToGlobal(m->mesh, &l2g));
  PetscCall(VecCreateMPI(m->comm, 4 * r->nown, PETSC_DETERMINE, &r->Q));
  PetscCall(VecSetBlockSize(r->Q, 4));
  PetscCall(PetscMalloc1(3 * r->nown + 1, &r->psi));
  for (PetscInt i = 0; i < 3 * r->nown; i++)
    r->psi[i] = PETSC_MAX_REAL; /* no state matches: the first use computes exp(psi) */
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 4 * r->nghost, &r->Qg));
  PetscCall(ISCreateBlock(PETSC_COMM_SELF, 4, r->nghost, l2g + r->nown, PETSC_COPY_VALUES, &is));
  PetscCall(VecScatterCreate(r->Q, is, r->Qg, NULL, &r->sct));
  PetscCall(ISDestroy(&is));
  *out = r;
  PetscFunctionReturn(0);
}

#if defined(_OPENMP) || defined(FLX_HAVE_OPENMP_SIMD)
#define FLX_SIMD _Pragma("omp simd")
#else
#define FLX_SIMD
#endif
#define NV 8

/* The rotation update of NV nodes in SIMD lanes, from their data in lane order (structure of arrays: p the rotation
   vectors, e the increments, q, pc the cached quaternions and vectors), for the lanes whose state is the cached one and
   whose increment is below 0.03 rad (the common case; the others are flagged slow, for the scalar path): the scalar
   path's formulas, with the arctangent of atan2(|v|, q0) (both >= 0) by its Taylor series to t^25 (truncation below
   5e-17; libm's atan2 has no SIMD form). A node rotated by at most 30 degrees (t = |v|/q0 <= tan(pi/12), the common
   case) takes angle/|v| = 2 atan(t)/(t q0) = (2/q0) sum_k (-t^2)^k/(2k + 1): one division, no square root. Only a
   block with a larger rotation computes, for those lanes, the range reduction (atan(t) = pi/6 + atan((sqrt(3) t -
   1)/(sqrt(3) + t)) above tan(pi/12), pi/2 - atan(1/t) above 1). Each lane's result depends on its own node only, not
   on the block it falls in (one compiled body, noinline): the same at any number of ranks. Results in qn (4), pn (3). */
static void UpdateNode(PetscInt, const PetscReal *, const PetscReal *, PetscReal *, PetscReal *, PetscReal *);

/* atan(t)/t as a function of z = t^2, |t| <= tan(pi/12): its Taylor series to t^24 (truncation below 5e-17), in
   Estrin's scheme (pairs of terms combined by z^2, z^4, z^8: a dependent chain 4 long instead of Horner's 12). */
static inline PetscReal AtanSeries(PetscReal z)
{
  const PetscReal z2 = z * z, z4 = z2 * z2, z8 = z4 * z4;
  const PetscReal p0 = 1 - z * (1.0 / 3), p1 = 1.0 / 5 - z * (1.0 / 7), p2 = 1.0 / 9 - z * (1.0 / 11), p3 = 1.0 / 13 - z * (1.0 / 15);
  const PetscReal p4 = 1.0 / 17 - z * (1.0 / 19), p5 = 1.0 / 21 - z * (1.0 / 23);
  return ((p0 + z2 * p1) + z4 * (p2 + z2 * p3)) + z8 * ((p4 + z2 * p5) + z4 * (1.0 / 25));
}

static __attribute__((noinline)) void UpdateBlock(const PetscReal p[3][NV], const PetscReal e[3][NV], const PetscReal q[4][NV], const PetscReal pc[3][NV], PetscReal qn[4][NV], PetscReal pn[3][NV], long slow[NV])
{
  PetscReal s2v[NV], wv[NV], fv[NV], uv[3][NV];
  long      small[NV], nbig = 0;

  FLX_SIMD
  for (int l = 0; l < NV; l++) { /* q_{n+1} = q(dtheta) q_n, normalized with q0 >= 0 */
    const PetscReal e0 = e[0][l], e1 = e[1][l], e2 = e[2][l], a2 = e0 * e0 + e1 * e1 + e2 * e2, x2 = 0.25 * a2, x4 = x2 * x2;
    const PetscReal dc = (1 - x2 * (1.0 / 2)) + x4 * ((1.0 / 24 - x2 * (1.0 / 720)) + x4 * (1.0 / 40320));
    const PetscReal ds = 0.5 * ((1 - x2 * (1.0 / 6)) + x4 * ((1.0 / 120 - x2 * (1.0 / 5040)) + x4 * (1.0 / 362880)));
    const PetscReal d0 = dc, d1 = ds * e0, d2 = ds * e1, d3 = ds * e2, q0 = q[0][l], q1 = q[1][l], q2 = q[2][l], q3 = q[3][l];
    const PetscReal n0 = d0 * q0 - d1 * q1 - d2 * q2 - d3 * q3, n1 = d0 * q1 + d1 * q0 + d2 * q3 - d3 * q2;
    const PetscReal n2 = d0 * q2 - d1 * q3 + d2 * q0 + d3 * q1, n3 = d0 * q3 + d1 * q2 - d2 * q1 + d3 * q0;
    const PetscReal sg = n0 < 0 ? -1 : 1, nq = sg / PetscSqrtReal(n0 * n0 + n1 * n1 + n2 * n2 + n3 * n3);
    const PetscReal w = sg * n0, s2 = n1 * n1 + n2 * n2 + n3 * n3, iw = 1 / w, z = s2 * (iw * iw); /* t^2, t = |v| / q0 */

    /* the angle and the axis do not depend on the quaternion's scale: psi from the product as it is (off the chain
       of its normalization), t = tan(angle / 2) */
    small[l] = s2 <= 0.0717967697244908 * (w * w); /* t <= tan(pi/12): angle / |v| = 2 atan(t) / (t q0) by the series */
    fv[l]    = 2 * iw * AtanSeries(z);
    s2v[l]   = s2;
    wv[l]    = w;
    uv[0][l] = sg * n1;
    uv[1][l] = sg * n2;
    uv[2][l] = sg * n3;
    qn[0][l] = n0 * nq;
    qn[1][l] = n1 * nq;
    qn[2][l] = n2 * nq;
    qn[3][l] = n3 * nq;
    slow[l]  = !((p[0][l] == pc[0][l]) & (p[1][l] == pc[1][l]) & (p[2][l] == pc[2][l])) | !(a2 < 9e-4);
  }
  for (int l = 0; l < NV; l++)
    nbig += !small[l];
  if (nbig) { /* rotations above 30 degrees in the block: those lanes by the range-reduced arctangent */
    FLX_SIMD
    for (int l = 0; l < NV; l++) {
      const PetscReal s2 = s2v[l], w = wv[l], s = PetscSqrtReal(s2), lo = s < w ? s : w, hi = s < w ? w : s, t = lo / hi;
      const PetscReal big = t > 0.2679491924311227 ? 1 : 0, u = big ? (1.7320508075688772 * t - 1) / (1.7320508075688772 + t) : t, z = u * u;
      PetscReal       at = u * AtanSeries(z);
      at += big ? 0.5235987755982988 : 0;
      fv[l] = small[l] ? fv[l] : 2 * (s < w ? at : 1.5707963267948966 - at) / s;
    }
  }
  FLX_SIMD
  for (int l = 0; l < NV; l++) {
    pn[0][l] = fv[l] * uv[0][l];
    pn[1][l] = fv[l] * uv[1][l];
    pn[2][l] = fv[l] * uv[2][l];
  }
}

/* The nodes i0 .. i0 + n - 1 (n <= NV; free lanes repeat the last node): gathered into lane order, updated in SIMD
   lanes, written back; slow lanes by the scalar path. */
static void UpdateNodes(PetscInt i0, PetscInt n, const PetscReal *x, const PetscReal *dx, PetscReal *xnew, PetscReal *Q, PetscReal *pcache)
{
  PetscReal p[3][NV], e[3][NV], q[4][NV], pc[3][NV], qn[4][NV], pn[3][NV];
  long      slow[NV];

  for (int l = 0; l < NV; l++) {
    const PetscInt i = i0 + PetscMin(l, n - 1);
    for (int c = 0; c < 3; c++) {
      p[c][l]  = x[6 * i + 3 + c];
      e[c][l]  = dx[6 * i + 3 + c];
      pc[c][l] = pcache[3 * i + c];
    }
    for (int c = 0; c < 4; c++)
      q[c][l] = Q[4 * i + c];
  }
  UpdateBlock(p, e, q, pc, qn, pn, slow);
  for (int l = 0; l < n; l++) {
    const PetscInt i = i0 + l;
    if (slow[l]) {
      UpdateNode(i, x, dx, xnew, Q, pcache);
      continue;
    }
    for (int c = 0; c < 3; c++) {
      xnew[6 * i + c]     = x[6 * i + c] + dx[6 * i + c];
      xnew[6 * i + 3 + c] = pn[c][l];
      pcache[3 * i + c]   = pn[c][l];
    }
    for (int c = 0; c < 4; c++)
      Q[4 * i + c] = qn[c][l];
  }
}

/* The update of node i, scalar (any state, any increment). */
static void UpdateNode(PetscInt i, const PetscReal *x, const PetscReal *dx, PetscReal *xnew, PetscReal *Q, PetscReal *pcache)
{
  const PetscReal *psi = x + 6 * i + 3;
  PetscReal       *q = Q + 4 * i, *pc = pcache + 3 * i, d[4], qn[4], nq;

  for (int c = 0; c < 3; c++)
    xnew[6 * i + c] = x[6 * i + c] + dx[6 * i + c];
  if (!Same(psi, pc)) QuatExp(psi, q);
  QuatExp(dx + 6 * i + 3, d);
  qn[0] = d[0] * q[0] - d[1] * q[1] - d[2] * q[2] - d[3] * q[3]; /* d q */
  qn[1] = d[0] * q[1] + d[1] * q[0] + d[2] * q[3] - d[3] * q[2];
  qn[2] = d[0] * q[2] - d[1] * q[3] + d[2] * q[0] + d[3] * q[1];
  qn[3] = d[0] * q[3] + d[1] * q[2] - d[2] * q[1] + d[3] * q[0];
  nq    = (qn[0] < 0 ? -1 : 1) / PetscSqrtReal(qn[0] * qn[0] + qn[1] * qn[1] + qn[2] * qn[2] + qn[3] * qn[3]);
  for (int c = 0; c < 4; c++)
    q[c] = nq * qn[c];
  QuatLog(q, pc);
  for (int c = 0; c < 3; c++)
    xnew[6 * i + 3 + c] = pc[c];
}

PetscErrorCode FlxNodeRotUpdate(FlxNodeRot r, PetscInt start, PetscInt n, const PetscReal x[], const PetscReal dx[], PetscReal xnew[])
{
  PetscScalar *Q;

  PetscFunctionBegin;
  PetscCheck(start >= 0 && n >= 0 && start + n <= r->nown, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "configuration update of nodes [%" PetscInt_FMT ", %" PetscInt_FMT "): %" PetscInt_FMT " owned nodes", start, start + n, r->nown);
  PetscCall(VecGetArray(r->Q, &Q));
  for (PetscInt i0 = start; i0 < start + n; i0 += NV) /* a node's arithmetic does not depend on its block */
    UpdateNodes(i0, PetscMin(NV, start + n - i0), x, dx, xnew, Q, r->psi);
  PetscCall(VecRestoreArray(r->Q, &Q));
  PetscCall(PetscLogFlops(90.0 * n));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxNodeRotStates(FlxNodeRot r, const PetscReal xo[], const PetscReal xg[], const PetscReal X[], PetscReal s[], PetscReal fzero[])
{
  PetscScalar       *Q;
  const PetscScalar *Qg;

  PetscFunctionBegin;
  PetscCall(VecGetArray(r->Q, &Q));
  for (PetscInt i = 0; i < r->nown; i++) { /* the owned nodes: the cached quaternion, or exp(psi) (then cached) */
    const PetscReal *psi = xo + 6 * i + 3;
    if (!Same(psi, r->psi + 3 * i)) {
      QuatExp(psi, Q + 4 * i);
      for (int c = 0; c < 3; c++)
        r->psi[3 * i + c] = psi[c];
    }
    for (int c = 0; c < 3; c++) /* one pass over s: position, quaternion */
      s[FLX_COROT_STATE * i + c] = X[3 * i + c] + xo[6 * i + c];
    for (int c = 0; c < 4; c++)
      s[FLX_COROT_STATE * i + 3 + c] = Q[4 * i + c];
    s[FLX_COROT_STATE * i + 7] = 0;
    if (fzero)
      for (int c = 0; c < 6; c++)
        fzero[6 * i + c] = 0;
  }
  PetscCall(VecRestoreArray(r->Q, &Q));
  PetscCall(VecScatterBegin(r->sct, r->Q, r->Qg, INSERT_VALUES, SCATTER_FORWARD)); /* the ghosts: their owners' */
  PetscCall(VecScatterEnd(r->sct, r->Q, r->Qg, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(r->Qg, &Qg));
  for (PetscInt i = r->nown; i < r->nown + r->nghost; i++) {
    const PetscInt g = i - r->nown;
    for (int c = 0; c < 3; c++)
      s[FLX_COROT_STATE * i + c] = X[3 * i + c] + xg[6 * g + c];
    for (int c = 0; c < 4; c++)
      s[FLX_COROT_STATE * i + 3 + c] = Qg[4 * g + c];
    s[FLX_COROT_STATE * i + 7] = 0;
  }
  PetscCall(VecRestoreArrayRead(r->Qg, &Qg));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxNodeRotDestroy(FlxNodeRot *r)
{
  PetscFunctionBegin;
  if (!*r) PetscFunctionReturn(0);
  PetscCall(VecDestroy(&(*r)->Q));
  PetscCall(VecDestroy(&(*r)->Qg));
  PetscCall(VecScatterDestroy(&(*r)->sct));
  PetscCall(PetscFree((*r)->psi));
  PetscCall(PetscFree(*r));
  PetscFunctionReturn(0);
}
