/* Element-by-element internal force of the flat shells (MITC4 quads, DKT3 triangles), FLX_EBE_LANES cells at once,
   one SIMD lane per cell (docs/methods.md, "Performance").

   A flat shell's stiffness is T^T K_l T (shell.c): T takes the global DOFs of a real node to the local DOFs of its
   projection on the mean plane (the frame R, rows x, y, z, and the rigid link of the offset h along z:
   u_l = (R u)_x - h (R theta)_y, v_l = (R u)_y + h (R theta)_x), and K_l, computed on the flat projection,
   never couples the membrane DOFs (u, v and the drilling rotation theta_z) with the bending ones (w, theta_x,
   theta_y). A quad keeps R's rows x and z (y = z x x, as shell.c builds it), its offsets and the two symmetric
   blocks of K_l as upper triangles: 166 numbers (against 300 for the symmetric 24 x 24 global matrix and about
   3 x 24 x 24 for its share of the assembled rows). A triangle is flat (no offsets) and keeps the bending block only,
   its constant-strain membrane recomputed from 10 numbers: 61 in all. The product is

     u_l = T u_e, f_l = K_l u_l (the two blocks), f_e = T^T f_l:
     per node, force R^T (f_u, f_v, f_w) and moment R^T (f_rx + h f_v, f_ry - h f_u, f_rz).

   Every lane runs the same operations, so a cell's result does not depend on its batch. */
#include <flexure/private/elementimpl.h>
#include <flexure/private/lanes.h>

#define W FLX_EBE_LANES
#if W != 8
#error "the shells' gather (lanes.h) takes batches of 8 cells"
#endif
#if defined(_OPENMP) || defined(FLX_HAVE_OPENMP_SIMD)
#define FLX_SIMD _Pragma("omp simd")
#else
#define FLX_SIMD
#endif

static const int Mem[3] = {0, 1, 5}, Ben[3] = {2, 3, 4}; /* local DOFs of the membrane and bending blocks */

/* Upper triangle of block (the local DOFs dofs[] of each node) of Kl into k[.][l]; the entries that couple the two
   blocks must be zero. */
static PetscErrorCode Pack(PetscInt nn, const PetscReal Kl[], PetscInt l, PetscReal (*km)[W], PetscReal (*kb)[W])
{
  const PetscInt n = 6 * nn, nb = 3 * nn;
  PetscInt       q = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < nb; i++)
    for (PetscInt j = i; j < nb; j++, q++) {
      PetscInt ia = 6 * (i / 3), ja = 6 * (j / 3);
      km[q][l] = Kl[n * (ia + Mem[i % 3]) + ja + Mem[j % 3]];
      kb[q][l] = Kl[n * (ia + Ben[i % 3]) + ja + Ben[j % 3]];
    }
  for (PetscInt i = 0; i < nb; i++)
    for (PetscInt j = 0; j < nb; j++) {
      PetscInt ia = 6 * (i / 3), ja = 6 * (j / 3);
      PetscCheck(Kl[n * (ia + Mem[i % 3]) + ja + Ben[j % 3]] == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "shell kernel: the local stiffness couples membrane and bending DOFs (%" PetscInt_FMT ", %" PetscInt_FMT ")", i, j);
    }
  PetscFunctionReturn(0);
}

static void SetFrame(PetscInt nn, const FlxShellFrame *f, PetscInt l, PetscReal (*e1)[W], PetscReal (*e3)[W], PetscReal (*h)[W])
{
  for (int c = 0; c < 3; c++) {
    e1[c][l] = f->R[c];
    e3[c][l] = f->R[6 + c];
  }
  if (h)
    for (PetscInt a = 0; a < nn; a++)
      h[a][l] = f->h[a];
}

PetscErrorCode FlxQuadBatchSet(FlxQuadBatch *b, PetscInt l, const FlxShellFrame *f, const PetscReal Kl[])
{
  PetscFunctionBegin;
  SetFrame(4, f, l, b->e1, b->e3, b->h);
  PetscCall(Pack(4, Kl, l, b->km, b->kb));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxTriBatchSet(FlxTriBatch *b, PetscInt l, const FlxShellFrame *f, const FlxSectionProps *p, const PetscReal Kl[])
{
  const PetscReal x21 = f->x[1] - f->x[0], y21 = f->y[1] - f->y[0], x31 = f->x[2] - f->x[0], y31 = f->y[2] - f->y[0];
  const PetscReal det = x21 * y31 - x31 * y21, c = p->t * p->E / (1 - p->nu * p->nu) * f->area;
  PetscReal       km[FLX_TRI_NK][W];

  PetscFunctionBegin;
  SetFrame(3, f, l, b->e1, b->e3, NULL);
  PetscCall(Pack(3, Kl, l, km, b->kb)); /* the bending block (and the check that the blocks do not couple) */
  b->dn[0][l] = (y21 - y31) / det;      /* dkt3.c's linear shape functions, d/dx then d/dy */
  b->dn[1][l] = y31 / det;
  b->dn[2][l] = -y21 / det;
  b->dn[3][l] = (x31 - x21) / det;
  b->dn[4][l] = -x31 / det;
  b->dn[5][l] = x21 / det;
  b->mc[0][l] = c;
  b->mc[1][l] = c * p->nu;
  b->mc[2][l] = c * (1 - p->nu) / 2;
  b->mc[3][l] = p->drill * p->G * p->t * f->area / 3;
  PetscFunctionReturn(0);
}

/* y = K u for the symmetric NB x NB block whose upper triangle is k[.][l] (row by row). */
#define SYMV(NB, k, u, y)                                           \
  do {                                                              \
    int q                                                      = 0; \
    _Pragma("GCC unroll 16") for (int i = 0; i < NB; i++) y[i] = 0; \
    _Pragma("GCC unroll 16") for (int i = 0; i < NB; i++)           \
    {                                                               \
      y[i] += k[q++][l] * u[i];                                     \
      _Pragma("GCC unroll 16") for (int j = i + 1; j < NB; j++)     \
      {                                                             \
        const PetscReal kij = k[q++][l];                            \
        y[i] += kij * u[j];                                         \
        y[j] += kij * u[i];                                         \
      }                                                             \
    }                                                               \
  } while (0)

/* y = K_m u for the membrane of a triangle (u_a, v_a, theta_z,a per node): the constant-strain membrane of DKT3 and
   its drilling penalty at the three points of dkt3.c, from the derivatives of the linear shape functions (dNx, dNy)
   and the scaled constants (c A, c nu A, c (1 - nu) A / 2 with c = E t / (1 - nu^2), gamma A / 3). */
#define CST(u, y)                                                                                                                     \
  do {                                                                                                                                \
    const PetscReal nx0 = b->dn[0][l], nx1 = b->dn[1][l], nx2 = b->dn[2][l], ny0 = b->dn[3][l], ny1 = b->dn[4][l], ny2 = b->dn[5][l]; \
    const PetscReal ex = nx0 * u[0] + nx1 * u[3] + nx2 * u[6], ey = ny0 * u[1] + ny1 * u[4] + ny2 * u[7];                             \
    const PetscReal gxy = ny0 * u[0] + ny1 * u[3] + ny2 * u[6] + nx0 * u[1] + nx1 * u[4] + nx2 * u[7];                                \
    const PetscReal sx = b->mc[0][l] * ex + b->mc[1][l] * ey, sy = b->mc[1][l] * ex + b->mc[0][l] * ey, sxy = b->mc[2][l] * gxy;      \
    const PetscReal w0 = 0.5 * (ny0 * u[0] + ny1 * u[3] + ny2 * u[6] - nx0 * u[1] - nx1 * u[4] - nx2 * u[7]);                         \
    const PetscReal q0 = w0 + (2.0 / 3) * u[2] + (1.0 / 6) * u[5] + (1.0 / 6) * u[8];                                                 \
    const PetscReal q1 = w0 + (1.0 / 6) * u[2] + (2.0 / 3) * u[5] + (1.0 / 6) * u[8];                                                 \
    const PetscReal q2 = w0 + (1.0 / 6) * u[2] + (1.0 / 6) * u[5] + (2.0 / 3) * u[8];                                                 \
    const PetscReal g = b->mc[3][l], gs = 0.5 * g * (q0 + q1 + q2);                                                                   \
    y[0] = nx0 * sx + ny0 * sxy + ny0 * gs;                                                                                           \
    y[1] = ny0 * sy + nx0 * sxy - nx0 * gs;                                                                                           \
    y[2] = g * ((2.0 / 3) * q0 + (1.0 / 6) * q1 + (1.0 / 6) * q2);                                                                    \
    y[3] = nx1 * sx + ny1 * sxy + ny1 * gs;                                                                                           \
    y[4] = ny1 * sy + nx1 * sxy - nx1 * gs;                                                                                           \
    y[5] = g * ((1.0 / 6) * q0 + (2.0 / 3) * q1 + (1.0 / 6) * q2);                                                                    \
    y[6] = nx2 * sx + ny2 * sxy + ny2 * gs;                                                                                           \
    y[7] = ny2 * sy + nx2 * sxy - nx2 * gs;                                                                                           \
    y[8] = g * ((1.0 / 6) * q0 + (1.0 / 6) * q1 + (2.0 / 3) * q2);                                                                    \
  } while (0)

/* The offsets' terms: kept (quads) or left out (triangles, flat by construction: FlxShellFrameCompute sets their
   offsets to zero). */
#define SHELL_OFFSETS(...) __VA_ARGS__
#define SHELL_FLAT(...)

/* The frame's axes x, y = z x x and z of lane l. */
#define SHELL_AXES                                                                                                            \
  const PetscReal x0 = b->e1[0][l], x1 = b->e1[1][l], x2 = b->e1[2][l], z0 = b->e3[0][l], z1 = b->e3[1][l], z2 = b->e3[2][l]; \
  const PetscReal y0 = z1 * x2 - z2 * x1, y1 = z2 * x0 - z0 * x2, y2 = z0 * x1 - z1 * x0

/* u_l = T u_e of the NN nodes of lane l, from their values xs[a][c][l] (FLX_GATHER6): membrane um (u, v, theta_z
   per node) and bending ub (w, theta_x, theta_y); IX: [l] when they are arrays of lanes, empty when they are the
   lane's own; OFF: SHELL_OFFSETS or SHELL_FLAT. */
// clang-format off
#define SHELL_GATHER(NN, IX, OFF)                                                                         \
  do {                                                                                                    \
    SHELL_AXES;                                                                                           \
    _Pragma("GCC unroll 4") for (int a = 0; a < NN; a++) {                                                \
      const PetscReal u0 = xs[a][0][l], u1 = xs[a][1][l], u2 = xs[a][2][l];                               \
      const PetscReal u3 = xs[a][3][l], u4 = xs[a][4][l], u5 = xs[a][5][l];                               \
      const PetscReal rx = x0 * u3 + x1 * u4 + x2 * u5, ry = y0 * u3 + y1 * u4 + y2 * u5;                 \
      um[3 * a] IX     = x0 * u0 + x1 * u1 + x2 * u2 OFF(-b->h[a][l] * ry);                               \
      um[3 * a + 1] IX = y0 * u0 + y1 * u1 + y2 * u2 OFF(+b->h[a][l] * rx);                               \
      um[3 * a + 2] IX = z0 * u3 + z1 * u4 + z2 * u5;                                                     \
      ub[3 * a] IX     = z0 * u0 + z1 * u1 + z2 * u2;                                                     \
      ub[3 * a + 1] IX = rx;                                                                              \
      ub[3 * a + 2] IX = ry;                                                                              \
    }                                                                                                     \
  } while (0)
// clang-format on

/* f_e = T^T f_l: per node, force R^T (f_u, f_v, f_w) and moment R^T (f_rx + h f_v, f_ry - h f_u, f_rz); the energy. */
#define SHELL_SCATTER(NN, IX, OFF)                                                                                \
  do {                                                                                                            \
    SHELL_AXES;                                                                                                   \
    _Pragma("GCC unroll 4") for (int a = 0; a < NN; a++)                                                          \
    {                                                                                                             \
      const PetscReal fu = ym[3 * a] IX, fv = ym[3 * a + 1] IX, frz = ym[3 * a + 2] IX, fw = yb[3 * a] IX;        \
      const PetscReal frx = yb[3 * a + 1] IX OFF(+b->h[a][l] * fv), fry = yb[3 * a + 2] IX OFF(-b->h[a][l] * fu); \
      fe[6 * a][l]     = x0 * fu + y0 * fv + z0 * fw;                                                             \
      fe[6 * a + 1][l] = x1 * fu + y1 * fv + z1 * fw;                                                             \
      fe[6 * a + 2][l] = x2 * fu + y2 * fv + z2 * fw;                                                             \
      fe[6 * a + 3][l] = x0 * frx + y0 * fry + z0 * frz;                                                          \
      fe[6 * a + 4][l] = x1 * frx + y1 * fry + z1 * frz;                                                          \
      fe[6 * a + 5][l] = x2 * frx + y2 * fry + z2 * frz;                                                          \
    }                                                                                                             \
    if (energy) {                                                                                                 \
      PetscReal e = 0;                                                                                            \
      _Pragma("GCC unroll 12") for (int i = 0; i < 3 * NN; i++) e += um[i] IX * ym[i] IX + ub[i] IX * yb[i] IX;   \
      en[l] = 0.5 * e;                                                                                            \
    }                                                                                                             \
  } while (0)

/* One batch of NN-node shells in one SIMD pass, the membrane's operation (um -> ym) after NN (a macro so that every
   loop bound is a constant the compiler unrolls): the triangles, whose offsets are zero. */
#define SHELL_FORCE(NN, ...)                                  \
  FLX_SIMD for (int l = 0; l < W; l++)                        \
  {                                                           \
    PetscReal um[3 * NN], ub[3 * NN], ym[3 * NN], yb[3 * NN]; \
    SHELL_GATHER(NN, , SHELL_FLAT);                           \
    __VA_ARGS__;                                              \
    SYMV(3 * NN, b->kb, ub, yb);                              \
    SHELL_SCATTER(NN, , SHELL_FLAT);                          \
  }

/* A quarter (part 0 .. 3) of the batch of bytes at pf (NULL: none) prefetched into the outer caches. */
static inline void PrefetchPart(const char *pf, size_t bytes, int part)
{
  const size_t q = (bytes / 4 + 63) & ~(size_t)63;
  if (!pf) return;
  for (size_t o = part * q; o < PetscMin((part + 1) * q, bytes); o += 64)
    __builtin_prefetch(pf + o, 0, 1);
}

/* yo = K ui for one 12 x 12 block of a quad whose upper triangle is k, lane by lane. */
#define QUAD_BLOCK(k, ui, yo)                                              \
  FLX_SIMD for (int l = 0; l < W; l++)                                     \
  {                                                                        \
    PetscReal u[12], y[12];                                                \
    _Pragma("GCC unroll 12") for (int i = 0; i < 12; i++) u[i] = ui[i][l]; \
    SYMV(12, k, u, y);                                                     \
    _Pragma("GCC unroll 12") for (int i = 0; i < 12; i++) yo[i][l] = y[i]; \
  }

/* A quad batch in four SIMD passes (frame and offsets; membrane; bending; back to global axes), with a quarter of the
   batch at pf (NULL: none) prefetched after each: a batch is 10.9 KB, and its 170 prefetches issued at once stall
   the loop (1e6-DOF plate, 1 rank: element loop 13.3 -> 11.5 ns/DOF against a burst before the kernel and one after
   it). The triangles' smaller batches run faster in one pass (9.7 against 10.9 ns/DOF split). */
static inline __attribute__((always_inline)) void QuadForce(const FlxQuadBatch *restrict b, const PetscReal *restrict x, PetscReal fe[][W], PetscReal *restrict en, const int energy, const char *pf)
{
  PetscReal um[12][W], ub[12][W], ym[12][W], yb[12][W], xs[4][8][W] __attribute__((aligned(64)));

  FLX_GATHER6(4, b->gi, x, xs); /* contiguous loads and transposes: in cache 5.9 -> 5.0 ns/DOF (gathers) */
  FLX_SIMD for (int l = 0; l < W; l++) SHELL_GATHER(4, [l], SHELL_OFFSETS);
  PrefetchPart(pf, sizeof(*b), 0);
  QUAD_BLOCK(b->km, um, ym);
  PrefetchPart(pf, sizeof(*b), 1);
  QUAD_BLOCK(b->kb, ub, yb);
  PrefetchPart(pf, sizeof(*b), 2);
  FLX_SIMD for (int l = 0; l < W; l++) SHELL_SCATTER(4, [l], SHELL_OFFSETS);
  PrefetchPart(pf, sizeof(*b), 3);
}

static inline __attribute__((always_inline)) void TriForce(const FlxTriBatch *restrict b, const PetscReal *restrict x, PetscReal fe[][W], PetscReal *restrict en, const int energy)
{
  PetscReal xs[3][8][W] __attribute__((aligned(64)));

  FLX_GATHER6(3, b->gi, x, xs); /* 6.9 -> 5.9 ns/DOF */
  SHELL_FORCE(3, CST(um, ym))
}

void FlxQuadBatchForce(const FlxQuadBatch *b, const PetscReal x[], PetscReal fe[][W], PetscReal en[], const FlxQuadBatch *pf)
{
  if (en)
    QuadForce(b, x, fe, en, 1, (const char *)pf);
  else
    QuadForce(b, x, fe, NULL, 0, (const char *)pf);
}

void FlxTriBatchForce(const FlxTriBatch *b, const PetscReal x[], PetscReal fe[][W], PetscReal en[])
{
  if (en)
    TriForce(b, x, fe, en, 1);
  else
    TriForce(b, x, fe, NULL, 0);
}
