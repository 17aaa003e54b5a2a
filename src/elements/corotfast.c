/* Explicit fast path of the co-rotational beam (corotbeam.c, docs/nonlinear.md "Performance"): the internal force
   of FLX_COROT_LANES cells at once, one SIMD lane per cell, from a model's cache of the cells' constant data
   (FlxCorotBeamBatch) and the nodal states built once per evaluation (nonlinear.c, noderot.c: position and unit
   quaternion, one cache line per node; the element frame E by its quaternion too, 4 numbers instead of 9: the
   nodal triads R_a E^T from one quaternion product and its matrix per end, Triads).

   Each lane evaluates the general kernel's formulas (corotkernel.h, eqs. (C2)-(C7) of corotbeam.c), rearranged for
   the latency of the chain of dependent operations (BatchForce: the same quantities, results to round-off), for the
   branches a deforming beam takes: the local rotation's matrix has the dominant trace (Spurrier's first case,
   tested as a trace above 2) and the local rotations are below 0.141 rad (the series of the logarithm's atan and of
   T^-T's coefficient, FLX_COROT_Y2_SERIES). A lane outside them (larger local rotations, an end turned over,
   degenerate geometry, NaN) is done again by the general kernel (included here), so the result is the general
   kernel's for every state, to round-off (test nonlinear_fast_force: 1.2e-15 of the largest force). A lane's result
   depends on its own cell's values only, never on its batch: histories stay bit-identical across rank counts.
   The forces are then added cell by cell in the cache's order (the global cell order): the nodal sums are those of
   the general loop. Keep this file in step with corotkernel.h. */
#include <flexure/private/elementimpl.h>
#include <flexure/private/lanes.h>
#include <flexure/rotation.h>

#define FLX_S PetscReal
#define FLX_SQRT PetscSqrtReal
#define FLX_ATAN PetscAtanReal
#define FLX_SIN PetscSinReal
#define FLX_COS PetscCosReal
#define FLX_RE(x) (x)
#define FLX_FN(name) Real##name
#include "corotkernel.h" /* the general real kernel: its series, and the lanes it redoes */

#define W FLX_COROT_LANES
#if defined(_OPENMP) || defined(FLX_HAVE_OPENMP_SIMD)
#define FLX_SIMD _Pragma("omp simd")
#else
#define FLX_SIMD
#endif

typedef struct {
  PetscReal x, y, z;
} V3;

static inline V3 Cross(V3 a, V3 b)
{
  V3 c = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
  return c;
}

static inline PetscReal Dot(V3 a, V3 b)
{
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

/* The nodal triad of one end of lane l: the columns t0, t1, t2 of R_a E^T = R(q_a e*) (t_b = R_a e_b, e_b row b of
   E), from the end's quaternion q_a = n[3 .. 6][l] and the element frame's e (Hamilton's product, then the matrix of
   the unit quaternion p; corotkernel.h's states carry R_a itself). */
typedef struct {
  V3 t0, t1, t2;
} Triad3;

static inline Triad3 Triads(const PetscReal n[FLX_COROT_STATE][W], int l, PetscReal e0, PetscReal e1, PetscReal e2, PetscReal e3)
{
  const PetscReal a0 = n[3][l], a1 = n[4][l], a2 = n[5][l], a3 = n[6][l];
  const PetscReal p0 = a0 * e0 + a1 * e1 + a2 * e2 + a3 * e3, p1 = a1 * e0 - a0 * e1 - a2 * e3 + a3 * e2;
  const PetscReal p2 = a2 * e0 - a0 * e2 + a1 * e3 - a3 * e1, p3 = a3 * e0 - a0 * e3 - a1 * e2 + a2 * e1;
  const PetscReal u1 = 2 * p1, u2 = 2 * p2, u3 = 2 * p3;
  const PetscReal xx = p1 * u1, yy = p2 * u2, zz = p3 * u3, xy = p1 * u2, xz = p1 * u3, yz = p2 * u3, wx = p0 * u1, wy = p0 * u2, wz = p0 * u3;
  Triad3          t = {
               {1 - (yy + zz), xy + wz, xz - wy},
               {xy - wz, 1 - (xx + zz), yz + wx},
               {xz + wy, yz - wx, 1 - (xx + yy)}};

  return t;
}

/* The trace tr and the antisymmetric part's axial vector dv (R7 - R5, R2 - R6, R3 - R1) of Rbar = R_r^T [t0 t1 t2]
   (Rbar_ib = r_i . t_b): what the logarithm's first branch reads. */
static inline V3 AxialTrace(V3 v1, V3 v2, V3 v3, PetscReal s1, PetscReal s2, PetscReal s3, V3 t0, V3 t1, V3 t2, PetscReal *tr)
{
  V3 dv = {s3 * Dot(v3, t1) - s2 * Dot(v2, t2), s1 * Dot(v1, t2) - s3 * Dot(v3, t0), s2 * Dot(v2, t0) - s1 * Dot(v1, t1)};

  *tr = s1 * Dot(v1, t0) + s2 * Dot(v2, t1) + s3 * Dot(v3, t2);
  return dv;
}

/* mt = T(th)^-T m with the coefficient's series at a2 = |th|^2 (corotkernel.h's TinvT). */
static inline V3 TinvT(V3 th, PetscReal a2, V3 m)
{
  PetscReal c  = RealCotSeries(a2);
  V3        pm = Cross(th, m), ppm = Cross(th, pm), mt = {m.x + 0.5 * pm.x + c * ppm.x, m.y + 0.5 * pm.y + c * ppm.y, m.z + 0.5 * pm.z + c * ppm.z};

  return mt;
}

/* Forces fe (12 per lane), energies and the lanes to redo with the general kernel, for one batch whose nodal states
   (position, unit quaternion) are st[a][c][l] (end a, component c, lane l). The formulas of corotkernel.h's
   CorotForce, rearranged (results change by round-off only; each measured in interleaved runs, the kernel being
   bound by the latency of its chain of dependent operations more than by their number):
   - the frame's axes r1 = d / |d|, r3 = d x q / |d x q| and r2 = r3 x r1 = ((d x q) x d) / (|d| |d x q|), and
     q . r2 = |d x q| / |d| (one division fewer): the rows of Rbar are dotted unnormalized while the square roots
     and divisions that scale them are under way (f_int in cache 16.4 -> 16.0 ns/DOF; 17.2 -> 16.0 with the items
     below);
   - |theta_a|^2 = f_a^2 |dv_a|^2 (theta_a = f_a dv_a) instead of a dot product;
   - Spurrier's case tested as tr > 2 (every diagonal entry of the orthogonal Rbar is at most 1, so the trace
     dominates: the general kernel's first branch; a lane in the series has tr > 2.98): off the chain, and it
     also catches an end turned by pi, where 1 + tr and dv are both round-off and y2 could fall anywhere (test
     corotational_objectivity, "turned over"). */
static void BatchForce(const FlxCorotBeamBatch *restrict b, const PetscReal st[2][FLX_COROT_STATE][W], PetscReal fe[12][W], PetscReal en[W], long slow[W])
{
  FLX_SIMD
  for (int l = 0; l < W; l++) {
    const PetscReal l0 = b->l0[l], e0 = b->e[0][l], e1 = b->e[1][l], e2 = b->e[2][l], e3 = b->e[3][l];
    const PetscReal k0 = b->k[0][l], k1 = b->k[1][l], k2 = b->k[2][l], k3 = b->k[3][l], k4 = b->k[4][l], k5 = b->k[5][l];
    PetscReal       dd, dq, i2, ln, il, nc, inc, qx, iqy, p0, f0, f1, f2, f3, f4, f5, f6, energy, g, tr1, tr2, u1, u2, w1, w2, s1, s2, y1, y2, h1, h2, a1, a2;
    V3              d, c, gv, r1, r2, r3, q, t10, t11, t12, t20, t21, t22, dv1, dv2, th1, th2, m1, m2, mt1, mt2, sm, qr;
    Triad3          T1, T2;
    long            sl;

    d.x   = st[1][0][l] - st[0][0][l]; /* chord and frame, eq. (C2) */
    d.y   = st[1][1][l] - st[0][1][l];
    d.z   = st[1][2][l] - st[0][2][l];
    dd    = Dot(d, d);
    T1    = Triads(st[0], l, e0, e1, e2, e3); /* t_ab = R_a e_b: t_a1, the nodal y axis */
    T2    = Triads(st[1], l, e0, e1, e2, e3);
    t10   = T1.t0;
    t11   = T1.t1;
    t12   = T1.t2;
    t20   = T2.t0;
    t21   = T2.t1;
    t22   = T2.t2;
    q.x   = 0.5 * (t11.x + t21.x);
    q.y   = 0.5 * (t11.y + t21.y);
    q.z   = 0.5 * (t11.z + t21.z);
    dq    = Dot(d, q);
    c     = Cross(d, q); /* r1 = d / |d|, r3 = c / |c|, r2 = r3 x r1 = gv / (|d| |c|) with gv = (d x q) x d */
    gv.x  = q.x * dd - d.x * dq;
    gv.y  = q.y * dd - d.y * dq;
    gv.z  = q.z * dd - d.z * dq;
    ln    = PetscSqrtReal(dd);
    nc    = PetscSqrtReal(Dot(c, c));
    il    = 1 / ln;
    inc   = 1 / nc;
    i2    = il * inc;
    sl    = !(ln > 1e-8 * l0) | !(nc > 1e-6 * ln);
    dv1   = AxialTrace(d, gv, c, il, i2, inc, t10, t11, t12, &tr1); /* eq. (C3), corotkernel.h's Log */
    dv2   = AxialTrace(d, gv, c, il, i2, inc, t20, t21, t22, &tr2);
    r1.x  = d.x * il;
    r1.y  = d.y * il;
    r1.z  = d.z * il;
    r2.x  = gv.x * i2;
    r2.y  = gv.y * i2;
    r2.z  = gv.z * i2;
    r3.x  = c.x * inc;
    r3.y  = c.y * inc;
    r3.z  = c.z * inc;
    qx    = dq * il;  /* q . r1 */
    iqy   = ln * inc; /* 1 / (q . r2) = |d| / |d x q| */
    u1    = 1 + tr1;
    u2    = 1 + tr2;
    w1    = 1 / u1;
    w2    = 1 / u2;
    s1    = Dot(dv1, dv1);
    s2    = Dot(dv2, dv2);
    y1    = s1 * (w1 * w1);
    y2    = s2 * (w2 * w2);
    h1    = 2 * w1 * RealAtanRatio(y1);
    h2    = 2 * w2 * RealAtanRatio(y2);
    th1.x = h1 * dv1.x;
    th1.y = h1 * dv1.y;
    th1.z = h1 * dv1.z;
    th2.x = h2 * dv2.x;
    th2.y = h2 * dv2.y;
    th2.z = h2 * dv2.z;
    a1    = (h1 * h1) * s1;
    a2    = (h2 * h2) * s2;
    sl |= !(tr1 > 2) | !(tr2 > 2) | !(y1 < FLX_COROT_Y2_SERIES) | !(y2 < FLX_COROT_Y2_SERIES) | !(a1 < FLX_COROT_A2_SERIES) | !(a2 < FLX_COROT_A2_SERIES);
    p0        = ln - l0; /* eq. (C4) */
    f0        = k0 * p0;
    f1        = k1 * th1.x - k1 * th2.x;
    f2        = k2 * th1.y + k3 * th2.y;
    f3        = k4 * th1.z + k5 * th2.z;
    f4        = -k1 * th1.x + k1 * th2.x;
    f5        = k3 * th1.y + k2 * th2.y;
    f6        = k5 * th1.z + k4 * th2.z;
    energy    = 0.5 * ((p0 * f0 + (th1.x * f1 + th1.y * f2 + th1.z * f3)) + (th2.x * f4 + th2.y * f5 + th2.z * f6));
    m1.x      = f1;
    m1.y      = f2;
    m1.z      = f3;
    m2.x      = f4;
    m2.y      = f5;
    m2.z      = f6;
    mt1       = TinvT(th1, a1, m1); /* eq. (C5) */
    mt2       = TinvT(th2, a2, m2);
    sm.x      = mt1.x + mt2.x;
    sm.y      = mt1.y + mt2.y;
    sm.z      = mt1.z + mt2.z;
    g         = (sm.x * qx * iqy + sm.y) * il; /* eq. (C7) */
    fe[6][l]  = f0 * r1.x + g * r3.x - sm.z * il * r2.x;
    fe[7][l]  = f0 * r1.y + g * r3.y - sm.z * il * r2.y;
    fe[8][l]  = f0 * r1.z + g * r3.z - sm.z * il * r2.z;
    fe[0][l]  = -fe[6][l];
    fe[1][l]  = -fe[7][l];
    fe[2][l]  = -fe[8][l];
    qr        = Cross(t11, r3);
    fe[3][l]  = r1.x * mt1.x + r2.x * mt1.y + r3.x * mt1.z - sm.x * 0.5 * iqy * qr.x;
    fe[4][l]  = r1.y * mt1.x + r2.y * mt1.y + r3.y * mt1.z - sm.x * 0.5 * iqy * qr.y;
    fe[5][l]  = r1.z * mt1.x + r2.z * mt1.y + r3.z * mt1.z - sm.x * 0.5 * iqy * qr.z;
    qr        = Cross(t21, r3);
    fe[9][l]  = r1.x * mt2.x + r2.x * mt2.y + r3.x * mt2.z - sm.x * 0.5 * iqy * qr.x;
    fe[10][l] = r1.y * mt2.x + r2.y * mt2.y + r3.y * mt2.z - sm.x * 0.5 * iqy * qr.y;
    fe[11][l] = r1.z * mt2.x + r2.z * mt2.y + r3.z * mt2.z - sm.x * 0.5 * iqy * qr.z;
    en[l]     = energy;
    slow[l]   = sl;
  }
}

void FlxCorotBeamBatchSet(FlxCorotBeamBatch *b, PetscInt l, PetscInt node0, PetscInt node1, PetscInt cell, PetscBool owned, const FlxCorotBeamData *d)
{
  PetscReal e[4];

  FlxRotToQuaternion(d->E, e);
  b->node[0][l] = node0;
  b->node[1][l] = node1;
  b->cell[l]    = cell;
  b->owned[l]   = owned ? 1 : 0;
  b->l0[l]      = d->l0;
  for (int i = 0; i < 4; i++)
    b->e[i][l] = e[i];
  for (int i = 0; i < 6; i++)
    b->k[i][l] = d->k[i];
}

/* The constant data of lane l. */
static void LaneData(const FlxCorotBeamBatch *b, PetscInt l, FlxCorotBeamData *d)
{
  const PetscReal e[4] = {b->e[0][l], b->e[1][l], b->e[2][l], b->e[3][l]};

  d->l0 = b->l0[l];
  FlxRotFromQuaternion(e, d->E);
  for (int i = 0; i < 6; i++)
    d->k[i] = b->k[i][l];
}

/* st[a][c][l] = s[FLX_COROT_STATE node[a][l] + c]: the batch's nodal states in lane order (AVX-512: one cache line
   per node, a contiguous load and a transpose per end instead of 16 gathers; the same values). */
static inline void GatherStates(const FlxCorotBeamBatch *b, const PetscReal *s, PetscReal st[2][FLX_COROT_STATE][W])
{
#if defined(__AVX512F__) && W == 8 && FLX_COROT_STATE == 8
  for (int a = 0; a < 2; a++) {
    __m512d r[8], c[8];
    for (int l = 0; l < 8; l++)
      r[l] = _mm512_loadu_pd(s + FLX_COROT_STATE * (size_t)b->node[a][l]);
    FlxTranspose8(r, c);
    for (int j = 0; j < 8; j++)
      _mm512_store_pd(st[a][j], c[j]);
  }
#else
  for (int a = 0; a < 2; a++)
    for (int c = 0; c < FLX_COROT_STATE; c++)
      for (int l = 0; l < W; l++)
        st[a][c][l] = s[FLX_COROT_STATE * (size_t)b->node[a][l] + c];
#endif
}

/* The general kernel's state of a node (12: position, rotation matrix) from its state s (position, quaternion). */
static inline void FullState(const PetscReal *s, PetscReal n[12])
{
  for (int c = 0; c < 3; c++)
    n[c] = s[c];
  FlxRotFromQuaternion(s + 3, n + 3);
}

/* fl[l][i] = fe[i][l]: the forces of each lane contiguous (12 of 16). */
static inline void LaneForces(const PetscReal fe[12][W], PetscReal fl[W][16])
{
#if defined(__AVX512F__) && W == 8
  __m512d r[8], c[8];
  for (int i = 0; i < 8; i++)
    r[i] = _mm512_load_pd(fe[i]);
  FlxTranspose8(r, c);
  for (int l = 0; l < 8; l++)
    _mm512_store_pd(fl[l], c[l]);
  for (int i = 0; i < 4; i++)
    r[i] = _mm512_load_pd(fe[8 + i]);
  for (int i = 4; i < 8; i++)
    r[i] = _mm512_setzero_pd();
  FlxTranspose8(r, c);
  for (int l = 0; l < 8; l++)
    _mm512_store_pd(fl[l] + 8, c[l]);
#else
  for (int l = 0; l < W; l++)
    for (int i = 0; i < 12; i++)
      fl[l][i] = fe[i][l];
#endif
}

/* fa[c] += fe[c], c < 6: each component one addition, as in a scalar loop. */
static inline void AddNode(PetscReal *fa, const PetscReal *fe)
{
#if defined(__AVX512F__)
  _mm256_storeu_pd(fa, _mm256_add_pd(_mm256_loadu_pd(fa), _mm256_loadu_pd(fe)));
  _mm_storeu_pd(fa + 4, _mm_add_pd(_mm_loadu_pd(fa + 4), _mm_loadu_pd(fe + 4)));
#else
  for (int c = 0; c < 6; c++)
    fa[c] += fe[c];
#endif
}

/* f[6 n + c] += fe[6 a + c][l] at the nodes n = node[a][l], lane by lane, end 0 then end 1: AddNode's additions,
   from the transposed registers (no round trip through memory, whose stores the loads would wait on). */
static inline void ScatterPlain(const FlxCorotBeamBatch *b, const PetscReal fe[12][W], PetscReal f[])
{
#if defined(__AVX512F__) && W == 8
  __m512d c[2][8];
  FlxNodeForces(2, fe, c);
  for (int l = 0; l < 8; l++)
    for (int a = 0; a < 2; a++)
      FlxAddNode6(f + 6 * b->node[a][l], c[a][l]);
#else
  PetscReal fl[W][16];
  LaneForces(fe, fl);
  for (int l = 0; l < W; l++)
    for (int a = 0; a < 2; a++)
      AddNode(f + 6 * b->node[a][l], fl[l] + 6 * a);
#endif
}

/* Whether batch b is full, every lane owned, in the SIMD branches, and every node owned (f added to at both ends). */
static inline PetscBool Plain(const FlxCorotBeamBatch *b, const long slow[W], PetscInt nown)
{
  long bad = b->n != W;

  for (int l = 0; l < W; l++)
    bad |= slow[l] | !b->owned[l] | (b->node[0][l] >= nown) | (b->node[1][l] >= nown);
  return bad ? PETSC_FALSE : PETSC_TRUE;
}

PetscInt FlxCorotBeamAddForces(PetscInt nb, const FlxCorotBeamBatch b[], const PetscReal s[], PetscInt nown, PetscReal f[], PetscReal *energy, char err[], size_t len)
{
  PetscReal esum = 0, fe[12][W] __attribute__((aligned(64))), en[W], st[2][FLX_COROT_STATE][W] __attribute__((aligned(64))), fl[W][16] __attribute__((aligned(64)));
  long      slow[W];
  PetscInt  bad = -1;

  for (PetscInt k = 0; k < nb && !(f && bad >= 0); k++) {
    const FlxCorotBeamBatch *bk = &b[k];
    /* Software prefetch (the hardware's does not follow these streams), issued between the gather, the kernel and
       the scatter rather than at once (f_int on the 1e6-DOF tower 22.3 -> 21.3 ns/DOF): */
    GatherStates(bk, s, st);
    if (k + 7 < nb) /* the batch data 7 batches (5.9 KB) ahead (prefetcht2, as ebe.c), */
      for (size_t o = 0; o < sizeof(FlxCorotBeamBatch); o += 64)
        __builtin_prefetch((const char *)&b[k + 7] + o, 0, 1);
    BatchForce(bk, st, fe, en, slow);
    if (k + 2 < nb) /* the nodal states of the cells two batches ahead */
      for (int a = 0; a < 2; a++)
        for (int l = 0; l < W; l++)
          __builtin_prefetch(s + FLX_COROT_STATE * b[k + 2].node[a][l], 0, 3);
    if (f && Plain(bk, slow, nown)) { /* the common batch: straight-line, the same additions in the same order */
      for (int l = 0; l < W; l++)
        esum += en[l];
      ScatterPlain(bk, fe, f);
      continue;
    }
    LaneForces(fe, fl);
    for (PetscInt l = 0; l < bk->n; l++) {
      PetscReal e = en[l];
      if (!f && !bk->owned[l]) continue;
      if (slow[l]) { /* another branch, or degenerate: the general kernel */
        FlxCorotBeamData d;
        int              code;
        PetscReal        n1[12], n2[12];
        LaneData(bk, l, &d);
        FullState(s + FLX_COROT_STATE * bk->node[0][l], n1);
        FullState(s + FLX_COROT_STATE * bk->node[1][l], n2);
        code = RealCorotForce(&d, n1, n2, fl[l], &e);
        if (code) {
          if (bad < 0) {
            FlxCorotBeamReason(code, err, len);
            bad = bk->cell[l];
          }
          if (f) break;
          continue;
        }
      }
      if (bk->owned[l]) esum += e;
      if (!f) continue;
      for (int a = 0; a < 2; a++)
        if (bk->node[a][l] < nown) AddNode(f + 6 * bk->node[a][l], fl[l] + 6 * a);
    }
  }
  if (energy) *energy = esum;
  return bad;
}
