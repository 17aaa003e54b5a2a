/* SIMD helpers shared by the batched element loops (corotfast.c, shellfast.c, beamfast.c): an 8 x 8 transpose of
   AVX-512 registers, which turns the nodal values of a batch's 8 cells (one contiguous row per cell) into one register
   per component (lane l = cell l) with contiguous loads instead of gathers, and back (the forces of a node of each
   cell, added from registers). */
#ifndef FLEXURE_PRIVATE_LANES_H
#define FLEXURE_PRIVATE_LANES_H
#if defined(__AVX512F__)
#include <immintrin.h>

/* c[j] = column j of the 8 x 8 matrix of rows r[i]: three rounds of two-source permutes. */
static inline void FlxTranspose8(const __m512d r[8], __m512d c[8])
{
  const __m512i lo1 = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0), hi1 = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
  const __m512i lo2 = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0), hi2 = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4);
  __m512d       t[8], u[8];

  for (int i = 0; i < 8; i += 2) {
    t[i]     = _mm512_unpacklo_pd(r[i], r[i + 1]); /* (r_i, r_i+1) at columns 0, 2, 4, 6 */
    t[i + 1] = _mm512_unpackhi_pd(r[i], r[i + 1]); /* at columns 1, 3, 5, 7 */
  }
  for (int i = 0; i < 8; i += 4) {
    u[i]     = _mm512_permutex2var_pd(t[i], lo1, t[i + 2]); /* rows i .. i+3 at columns 0, 4 */
    u[i + 1] = _mm512_permutex2var_pd(t[i + 1], lo1, t[i + 3]);
    u[i + 2] = _mm512_permutex2var_pd(t[i], hi1, t[i + 2]); /* columns 2, 6 */
    u[i + 3] = _mm512_permutex2var_pd(t[i + 1], hi1, t[i + 3]);
  }
  for (int j = 0; j < 4; j++) {
    c[j]     = _mm512_permutex2var_pd(u[j], lo2, u[j + 4]);
    c[j + 4] = _mm512_permutex2var_pd(u[j], hi2, u[j + 4]);
  }
}
#endif

/* xs[a][c][l] = x[6 g[a][l] + c], c < 6, for the nn nodes of 8 cells (xs 64-byte aligned; rows 6, 7 are scratch):
   the six values of each node by one masked contiguous load, then transposed (g: local node numbers, any integer
   type; x: 6 values per local node). */
#if defined(__AVX512F__)
#define FLX_GATHER6(nn, g, x, xs)                                            \
  do {                                                                       \
    for (int a_ = 0; a_ < (nn); a_++) {                                      \
      __m512d r_[8], c_[8];                                                  \
      for (int l_ = 0; l_ < 8; l_++)                                         \
        r_[l_] = _mm512_maskz_loadu_pd(0x3F, (x) + 6 * (size_t)(g)[a_][l_]); \
      FlxTranspose8(r_, c_);                                                 \
      for (int j_ = 0; j_ < 6; j_++)                                         \
        _mm512_store_pd((xs)[a_][j_], c_[j_]);                               \
    }                                                                        \
  } while (0)
#else
#define FLX_GATHER6(nn, g, x, xs)                               \
  do {                                                          \
    for (int a_ = 0; a_ < (nn); a_++)                           \
      for (int j_ = 0; j_ < 6; j_++)                            \
        for (int l_ = 0; l_ < 8; l_++)                          \
          (xs)[a_][j_][l_] = (x)[6 * (size_t)(g)[a_][l_] + j_]; \
  } while (0)
#endif

#if defined(__AVX512F__)
/* c[a][l] = (fe[6 a][l], ..., fe[6 a + 5][l], 0, 0): the forces of node a of lane l in one register, for the nn nodes
   of 8 lanes (fe: one row of 8 lanes per component, 6 components per node). */
static inline void FlxNodeForces(int nn, const double fe[][8], __m512d c[][8])
{
  for (int a = 0; a < nn; a++) {
    __m512d r[8];
    for (int i = 0; i < 6; i++)
      r[i] = _mm512_loadu_pd(fe[6 * a + i]);
    r[6] = r[7] = _mm512_setzero_pd();
    FlxTranspose8(r, c[a]);
  }
}

/* f[i] += v[i], i < 6: each component one addition, as a scalar loop would do it. From the registers, so that no
   load waits on the stores of a round trip through memory (co-rotational f_int in cache 15.9 -> 15.2 ns/DOF; the
   linear loops' scalar additions from fe are faster than this: triangles 6.3 against 6.9 ns/DOF in cache). */
static inline void FlxAddNode6(double *f, __m512d v)
{
  _mm256_storeu_pd(f, _mm256_add_pd(_mm256_loadu_pd(f), _mm512_castpd512_pd256(v)));
  _mm_storeu_pd(f + 4, _mm_add_pd(_mm_loadu_pd(f + 4), _mm256_castpd256_pd128(_mm512_extractf64x4_pd(v, 1)))); /* AVX512F alone */
}
#endif
#endif
