/* Explicit fast path of the co-rotational beam (corotbeam.c, docs/nonlinear.md "Performance"): the internal force
   of FLX_COROT_LANES cells at once, one SIMD lane per cell, from a model's cache of the cells' constant data
   (FlxCorotBeamBatch) and the nodal states built once per evaluation (nonlinear.c).

   Each lane repeats the general kernel's formulas (corotkernel.h, eqs. (C2)-(C7) of corotbeam.c) operation by
   operation, in the same order, for the branches a deforming beam takes: the local rotation's matrix has the
   dominant trace (Spurrier's first case: local rotations below 90 degrees at least) and the local rotations are
   below 0.141 rad (the series of the logarithm's atan and of T^-T's coefficient, FLX_COROT_Y2_SERIES). A lane
   outside them (larger local rotations, degenerate geometry, NaN) is done again by the general kernel (included
   here), so the result is the general kernel's for every state, to round-off at most (the two may differ by
   contractions into fused multiply-adds the compiler chooses differently; test nonlinear_fast_force measures 0).
   The forces are then added cell by cell in the cache's (natural) order: the nodal sums are those of the general
   loop. Keep this file in step with corotkernel.h. */
#include <flexure/private/elementimpl.h>
#include <flexure/private/lanes.h>

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

/* Column b of R_a E^T, R_a e_b (e_b row b of E): t_i = R[3i] E[3b] + R[3i+1] E[3b+1] + R[3i+2] E[3b+2], R[j] = n[3 + j][l]
   (n: one end's nodal states, component-major). */
static inline V3 Triad(const PetscReal n[12][W], int l, PetscReal e0, PetscReal e1, PetscReal e2)
{
  V3 t = {n[3][l] * e0 + n[4][l] * e1 + n[5][l] * e2, n[6][l] * e0 + n[7][l] * e1 + n[8][l] * e2, n[9][l] * e0 + n[10][l] * e1 + n[11][l] * e2};
  return t;
}

typedef struct {
  V3   th;
  long slow; /* 8 bytes, as every value of the lanes' loop: it vectorizes at the full width */
} LocalRot;

/* theta = log(Rbar), Rbar = R_r^T [t0 t1 t2] (Rbar_ib = r_i . t_b), by corotkernel.h's Log in its first branch with
   the series; slow when the lane needs another branch. */
static inline LocalRot LogFirstBranch(V3 r1, V3 r2, V3 r3, V3 t0, V3 t1, V3 t2)
{
  LocalRot  o;
  PetscReal R0 = Dot(r1, t0), R1 = Dot(r1, t1), R2 = Dot(r1, t2), R3 = Dot(r2, t0), R4 = Dot(r2, t1), R5 = Dot(r2, t2);
  PetscReal R6 = Dot(r3, t0), R7 = Dot(r3, t1), R8 = Dot(r3, t2), tr = R0 + R4 + R8;
  PetscReal w = 1 / (1 + tr), d1 = R7 - R5, d2 = R2 - R6, d3 = R3 - R1;
  PetscReal y2 = (d1 * d1 + d2 * d2 + d3 * d3) * (w * w);
  PetscReal f  = 2 * w * RealAtanRatio(y2);

  o.slow = (R0 > tr) | (R4 > tr) | (R8 > tr) | !(y2 < FLX_COROT_Y2_SERIES);
  o.th.x = f * d1;
  o.th.y = f * d2;
  o.th.z = f * d3;
  return o;
}

/* mt = T(th)^-T m with the series of the coefficient (corotkernel.h's TinvT): the lane is slow unless
   |th|^2 < FLX_COROT_A2_SERIES. */
static inline V3 TinvT(V3 th, V3 m)
{
  PetscReal a2 = Dot(th, th), c = RealCotSeries(a2);
  V3        pm = Cross(th, m), ppm = Cross(th, pm), mt = {m.x + 0.5 * pm.x + c * ppm.x, m.y + 0.5 * pm.y + c * ppm.y, m.z + 0.5 * pm.z + c * ppm.z};

  return mt;
}

/* Forces fe (12 per lane), energies and the lanes to redo with the general kernel, for one batch whose nodal states
   (position, rotation matrix) are st[a][c][l] (end a, component c, lane l). */
static void BatchForce(const FlxCorotBeamBatch *restrict b, const PetscReal st[2][12][W], PetscReal fe[12][W], PetscReal en[W], long slow[W])
{
  FLX_SIMD
  for (int l = 0; l < W; l++) {
    const PetscReal l0 = b->l0[l], e0 = b->E[0][l], e1 = b->E[1][l], e2 = b->E[2][l], e3 = b->E[3][l], e4 = b->E[4][l];
    const PetscReal e5 = b->E[5][l], e6 = b->E[6][l], e7 = b->E[7][l], e8 = b->E[8][l];
    const PetscReal k0 = b->k[0][l], k1 = b->k[1][l], k2 = b->k[2][l], k3 = b->k[3][l], k4 = b->k[4][l], k5 = b->k[5][l];
    PetscReal       ln, il, n3, qx, qy, iqy, p0, f0, f1, f2, f3, f4, f5, f6, energy, g;
    V3              d, r1, r2, r3, q, t10, t11, t12, t20, t21, t22, m1, m2, mt1, mt2, sm, qr;
    LocalRot        o1, o2;
    long            sl;

    d.x  = st[1][0][l] - st[0][0][l]; /* chord and frame, eq. (C2) */
    d.y  = st[1][1][l] - st[0][1][l];
    d.z  = st[1][2][l] - st[0][2][l];
    ln   = PetscSqrtReal(Dot(d, d));
    sl   = !(ln > 1e-8 * l0);
    il   = 1 / ln;
    r1.x = d.x * il;
    r1.y = d.y * il;
    r1.z = d.z * il;
    t10  = Triad(st[0], l, e0, e1, e2); /* t_ab = R_a e_b: t_a1 = q_a, the nodal y axis */
    t11  = Triad(st[0], l, e3, e4, e5);
    t12  = Triad(st[0], l, e6, e7, e8);
    t20  = Triad(st[1], l, e0, e1, e2);
    t21  = Triad(st[1], l, e3, e4, e5);
    t22  = Triad(st[1], l, e6, e7, e8);
    q.x  = 0.5 * (t11.x + t21.x);
    q.y  = 0.5 * (t11.y + t21.y);
    q.z  = 0.5 * (t11.z + t21.z);
    r3   = Cross(r1, q);
    n3   = PetscSqrtReal(Dot(r3, r3));
    sl |= !(n3 > 1e-6);
    n3   = 1 / n3;
    r3.x = r3.x * n3;
    r3.y = r3.y * n3;
    r3.z = r3.z * n3;
    r2   = Cross(r3, r1);
    qx   = Dot(r1, q);
    qy   = Dot(r2, q);
    iqy  = 1 / qy;
    o1   = LogFirstBranch(r1, r2, r3, t10, t11, t12); /* eq. (C3) */
    o2   = LogFirstBranch(r1, r2, r3, t20, t21, t22);
    sl |= o1.slow | o2.slow;
    p0     = ln - l0; /* eq. (C4) */
    f0     = k0 * p0;
    f1     = k1 * o1.th.x - k1 * o2.th.x;
    f2     = k2 * o1.th.y + k3 * o2.th.y;
    f3     = k4 * o1.th.z + k5 * o2.th.z;
    f4     = -k1 * o1.th.x + k1 * o2.th.x;
    f5     = k3 * o1.th.y + k2 * o2.th.y;
    f6     = k5 * o1.th.z + k4 * o2.th.z;
    energy = 0.5 * ((p0 * f0 + (o1.th.x * f1 + o1.th.y * f2 + o1.th.z * f3)) + (o2.th.x * f4 + o2.th.y * f5 + o2.th.z * f6));
    m1.x   = f1;
    m1.y   = f2;
    m1.z   = f3;
    m2.x   = f4;
    m2.y   = f5;
    m2.z   = f6;
    mt1    = TinvT(o1.th, m1); /* eq. (C5) */
    mt2    = TinvT(o2.th, m2);
    sl |= !(Dot(o1.th, o1.th) < FLX_COROT_A2_SERIES) | !(Dot(o2.th, o2.th) < FLX_COROT_A2_SERIES);
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
  b->node[0][l] = node0;
  b->node[1][l] = node1;
  b->cell[l]    = cell;
  b->owned[l]   = owned ? 1 : 0;
  b->l0[l]      = d->l0;
  for (int i = 0; i < 9; i++)
    b->E[i][l] = d->E[i];
  for (int i = 0; i < 6; i++)
    b->k[i][l] = d->k[i];
}

/* The constant data of lane l. */
static void LaneData(const FlxCorotBeamBatch *b, PetscInt l, FlxCorotBeamData *d)
{
  d->l0 = b->l0[l];
  for (int i = 0; i < 9; i++)
    d->E[i] = b->E[i][l];
  for (int i = 0; i < 6; i++)
    d->k[i] = b->k[i][l];
}

/* st[a][c][l] = s[12 node[a][l] + c]: the batch's nodal states in lane order (AVX-512: contiguous loads and
   transposes instead of 24 gathers; the same values). */
static inline void GatherStates(const FlxCorotBeamBatch *b, const PetscReal *s, PetscReal st[2][12][W])
{
#if defined(__AVX512F__) && W == 8
  for (int a = 0; a < 2; a++) {
    __m512d r[8], q[8], c[8];
    for (int l = 0; l < 8; l++) {
      r[l] = _mm512_loadu_pd(s + 12 * (size_t)b->node[a][l]);
      q[l] = _mm512_maskz_loadu_pd(0x0F, s + 12 * (size_t)b->node[a][l] + 8);
    }
    FlxTranspose8(r, c);
    for (int j = 0; j < 8; j++)
      _mm512_store_pd(st[a][j], c[j]);
    FlxTranspose8(q, c);
    for (int j = 0; j < 4; j++)
      _mm512_store_pd(st[a][8 + j], c[j]);
  }
#else
  for (int a = 0; a < 2; a++)
    for (int c = 0; c < 12; c++)
      for (int l = 0; l < W; l++)
        st[a][c][l] = s[12 * (size_t)b->node[a][l] + c];
#endif
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

PetscInt FlxCorotBeamAddForces(PetscInt nb, const FlxCorotBeamBatch b[], const PetscReal s[], PetscInt nown, PetscReal f[], PetscReal *energy, char err[], size_t len)
{
  PetscReal esum = 0, fe[12][W] __attribute__((aligned(64))), en[W], st[2][12][W] __attribute__((aligned(64))), fl[W][16] __attribute__((aligned(64)));
  long      slow[W];
  PetscInt  bad = -1;

  for (PetscInt k = 0; k < nb && !(f && bad >= 0); k++) {
    const FlxCorotBeamBatch *bk = &b[k];
    /* Software prefetch (the hardware's does not follow these streams), issued between the gather, the kernel and
       the scatter rather than at once (f_int on the 1e6-DOF tower 22.3 -> 21.3 ns/DOF): */
    GatherStates(bk, s, st);
    if (k + 7 < nb) /* the batch data 8 KB ahead (prefetcht2, as ebe.c), */
      for (size_t o = 0; o < sizeof(FlxCorotBeamBatch); o += 64)
        __builtin_prefetch((const char *)&b[k + 7] + o, 0, 1);
    BatchForce(bk, st, fe, en, slow);
    if (k + 2 < nb) /* the nodal states of the cells two batches ahead */
      for (int a = 0; a < 2; a++)
        for (int l = 0; l < W; l++) {
          __builtin_prefetch(s + 12 * b[k + 2].node[a][l], 0, 3);
          __builtin_prefetch(s + 12 * b[k + 2].node[a][l] + 11, 0, 3);
        }
    LaneForces(fe, fl);
    for (PetscInt l = 0; l < bk->n; l++) {
      PetscReal e = en[l];
      if (!f && !bk->owned[l]) continue;
      if (slow[l]) { /* another branch, or degenerate: the general kernel */
        FlxCorotBeamData d;
        int              code;
        LaneData(bk, l, &d);
        code = RealCorotForce(&d, s + 12 * bk->node[0][l], s + 12 * bk->node[1][l], fl[l], &e);
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
