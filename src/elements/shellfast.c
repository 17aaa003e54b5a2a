/* Element-by-element internal force of the flat shells (MITC4 quads, DKT3 triangles), FLX_EBE_LANES cells at once,
   one SIMD lane per cell (docs/methods.md, "Performance").

   A flat shell's stiffness is T^T K_l T (shell.c): T takes the global DOFs of a real node to the local DOFs of its
   projection on the mean plane (the frame R, rows x, y, z, and the rigid link of the offset h along z:
   u_l = (R u)_x - h (R theta)_y, v_l = (R u)_y + h (R theta)_x), and K_l, computed on the flat projection,
   never couples the membrane DOFs (u, v and the drilling rotation theta_z) with the bending ones (w, theta_x,
   theta_y). Each block vanishes for the three rigid motions of its plane (membrane: translations along x and y, the
   rotation about z, (u, v, theta_z)_a = (-y_a, x_a, 1); bending: translation along z, rotations about x and y,
   (w, theta_x, theta_y)_a = (y_a, 1, 0) and (-x_a, 0, 1)). So a block is P^T K_r P: P takes a node's DOFs to its
   motion relative to the rigid motion of node 0 (d_a = u_a - rigid(u_0) at node a, a >= 1; node coordinates
   relative to node 0's), K_r is the block's rows and columns of nodes 1 .. nn - 1, and node 0's force follows from
   equilibrium (its rows of P^T). A quad keeps R's rows x and z (y = z x x, as shell.c builds it), its offsets, the
   coordinates of nodes 1 .. 3 and the two 9 x 9 K_r as upper triangles: 106 numbers (against 300 for the symmetric
   24 x 24 global matrix and about 3 x 24 x 24 for its share of the assembled rows). A triangle is flat (no offsets)
   and keeps the bending block only (6 x 6), its constant-strain membrane recomputed from 10 numbers: 41 in all. The
   product is

     u_l = T u_e, d = P u_l, f_l = P^T K_r d (the two blocks), f_e = T^T f_l:
     per node, force R^T (f_u, f_v, f_w) and moment R^T (f_rx + h f_v, f_ry - h f_u, f_rz),

   and the strain energy u_e . f_e / 2 = d . K_r d / 2. Every lane runs the same operations, so a cell's result does
   not depend on its batch. */
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

/* Rigid motion mode (0 .. 2) of the membrane block (mem) or the bending block at a node (dx, dy: its coordinates
   relative to node 0). */
static void Rigid(PetscBool mem, int mode, PetscReal dx, PetscReal dy, PetscReal r[3])
{
  r[0] = r[1] = r[2] = 0;
  if (mode < 2 && mem)
    r[mode] = 1; /* translations along x, y */
  else if (mode == 0)
    r[0] = 1;     /* along z */
  else if (mem) { /* rotation about z */
    r[0] = -dy;
    r[1] = dx;
    r[2] = 1;
  } else if (mode == 1) { /* about x */
    r[0] = dy;
    r[1] = 1;
  } else { /* about y */
    r[0] = -dx;
    r[2] = 1;
  }
}

/* The entry of block dofs of Kl (6 nn square) at node DOFs i, j (3 per node). */
#define KBLK(dofs, i, j) Kl[n * (6 * ((i) / 3) + dofs[(i) % 3]) + 6 * ((j) / 3) + dofs[(j) % 3]]

/* Upper triangle of block dofs (the local DOFs of each node: Mem, Ben) of Kl, rows and columns of nodes 1 .. nn - 1,
   into k[.][l] (NULL: only the checks); PETSC_ERR_PLIB when Kl couples the two blocks or when the block does not
   vanish for the rigid motions of the element's plane to round-off (the reduction P^T K_r P would then be wrong). */
static PetscErrorCode Pack(PetscInt nn, const PetscReal Kl[], const int dofs[3], const FlxShellFrame *f, PetscInt l, PetscReal (*k)[W])
{
  const PetscInt n = 6 * nn, nb = 3 * nn;
  PetscInt       q = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; dofs == Mem && i < nb; i++) /* once per cell */
    for (PetscInt j = 0; j < nb; j++)
      PetscCheck(Kl[n * (6 * (i / 3) + Mem[i % 3]) + 6 * (j / 3) + Ben[j % 3]] == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "shell kernel: the local stiffness couples membrane and bending DOFs (%" PetscInt_FMT ", %" PetscInt_FMT ")", i, j);
  for (int mode = 0; mode < 3; mode++)
    for (PetscInt i = 0; i < nb; i++) {
      PetscReal s = 0, sabs = 0, r[3];
      for (PetscInt j = 0; j < nb; j++) {
        Rigid((PetscBool)(dofs == Mem), mode, f->x[j / 3] - f->x[0], f->y[j / 3] - f->y[0], r);
        s += KBLK(dofs, i, j) * r[j % 3];
        sabs += PetscAbsReal(KBLK(dofs, i, j) * r[j % 3]);
      }
      PetscCheck(PetscAbsReal(s) <= 1e-9 * sabs, PETSC_COMM_SELF, PETSC_ERR_PLIB, "shell kernel: the local stiffness does not vanish for rigid motion %d of the element's plane (row %" PetscInt_FMT ": %g against %g)", mode, i, (double)s, (double)sabs);
    }
  if (k)
    for (PetscInt i = 3; i < nb; i++)
      for (PetscInt j = i; j < nb; j++, q++)
        k[q][l] = KBLK(dofs, i, j);
  PetscFunctionReturn(0);
}
#undef KBLK

/* The frame's axes x and z, the offsets (h: NULL, none) and the coordinates of nodes 1 .. nn - 1 relative to node 0's
   of a shell into lane l. */
static void SetFrame(PetscInt nn, const FlxShellFrame *f, PetscInt l, PetscReal (*e1)[W], PetscReal (*e3)[W], PetscReal (*h)[W], PetscReal (*dx)[W], PetscReal (*dy)[W])
{
  for (int c = 0; c < 3; c++) {
    e1[c][l] = f->R[c];
    e3[c][l] = f->R[6 + c];
  }
  if (h)
    for (PetscInt a = 0; a < nn; a++)
      h[a][l] = f->h[a];
  for (PetscInt a = 1; a < nn; a++) {
    dx[a - 1][l] = f->x[a] - f->x[0];
    dy[a - 1][l] = f->y[a] - f->y[0];
  }
}

PetscErrorCode FlxQuadBatchSet(FlxQuadBatch *b, PetscInt l, const FlxShellFrame *f, const PetscReal Kl[])
{
  PetscFunctionBegin;
  SetFrame(4, f, l, b->e1, b->e3, b->h, b->dx, b->dy);
  PetscCall(Pack(4, Kl, Mem, f, l, b->km));
  PetscCall(Pack(4, Kl, Ben, f, l, b->kb));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxTriBatchSet(FlxTriBatch *b, PetscInt l, const FlxShellFrame *f, const FlxSectionProps *p, const PetscReal Kl[])
{
  const PetscReal x21 = f->x[1] - f->x[0], y21 = f->y[1] - f->y[0], x31 = f->x[2] - f->x[0], y31 = f->y[2] - f->y[0];
  const PetscReal det = x21 * y31 - x31 * y21, c = p->t * p->E / (1 - p->nu * p->nu) * f->area;

  PetscFunctionBegin;
  SetFrame(3, f, l, b->e1, b->e3, NULL, b->dx, b->dy);
  PetscCall(Pack(3, Kl, Mem, f, l, NULL)); /* the membrane: only checked (recomputed by the kernel) */
  PetscCall(Pack(3, Kl, Ben, f, l, b->kb));
  b->dn[0][l] = (y21 - y31) / det; /* dkt3.c's linear shape functions, d/dx then d/dy */
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
   per node) and bending ub (w, theta_x, theta_y); OFF: SHELL_OFFSETS or SHELL_FLAT. */
// clang-format off
#define SHELL_GATHER(NN, OFF)                                                                             \
  do {                                                                                                    \
    SHELL_AXES;                                                                                           \
    _Pragma("GCC unroll 4") for (int a = 0; a < NN; a++) {                                                \
      const PetscReal u0 = xs[a][0][l], u1 = xs[a][1][l], u2 = xs[a][2][l];                               \
      const PetscReal u3 = xs[a][3][l], u4 = xs[a][4][l], u5 = xs[a][5][l];                               \
      const PetscReal rx = x0 * u3 + x1 * u4 + x2 * u5, ry = y0 * u3 + y1 * u4 + y2 * u5;                 \
      um[3 * a]     = x0 * u0 + x1 * u1 + x2 * u2 OFF(-b->h[a][l] * ry);                                  \
      um[3 * a + 1] = y0 * u0 + y1 * u1 + y2 * u2 OFF(+b->h[a][l] * rx);                                  \
      um[3 * a + 2] = z0 * u3 + z1 * u4 + z2 * u5;                                                        \
      ub[3 * a]     = z0 * u0 + z1 * u1 + z2 * u2;                                                        \
      ub[3 * a + 1] = rx;                                                                                 \
      ub[3 * a + 2] = ry;                                                                                 \
    }                                                                                                     \
  } while (0)

/* d = P u: the motion of nodes 1 .. NN - 1 relative to the rigid motion of node 0, membrane (u, v, theta_z: node 0's
   translation and rotation about z) and bending (w, theta_x, theta_y: its translation along z and rotations about x
   and y); dx, dy (ex, ey at node a): the nodes' coordinates relative to node 0's; IX: [l] when d is an array of
   lanes. SHELL_REDUCE is the loop, D0 and D1 the first two components at node a (the third is theta_a - theta_0). */
#define SHELL_REDUCE(NN, u, d, IX, D0, D1)                                             \
  do {                                                                                 \
    _Pragma("GCC unroll 4") for (int a = 1; a < NN; a++) {                             \
      const PetscReal ex = b->dx[a - 1][l], ey = b->dy[a - 1][l];                      \
      d[3 * a - 3] IX = D0;                                                            \
      d[3 * a - 2] IX = D1;                                                            \
      d[3 * a - 1] IX = u[3 * a + 2] - u[2];                                           \
    }                                                                                  \
  } while (0)
#define MEM_REDUCE(NN, u, d, IX) SHELL_REDUCE(NN, u, d, IX, u[3 * a] - u[0] + ey * u[2], u[3 * a + 1] - u[1] - ex * u[2])
#define BEN_REDUCE(NN, u, d, IX) SHELL_REDUCE(NN, u, d, IX, u[3 * a] - u[0] - ey * u[1] + ex * u[2], u[3 * a + 1] - u[1])

/* y = P^T r: nodes 1 .. NN - 1 take r (r0, r1, r2 at node a), node 0 the force and moment that balance them:
   y_0 -= (r0, Y1, Y2). */
#define SHELL_EXPAND(NN, r, y, IX, Y1, Y2)                                             \
  do {                                                                                 \
    y[0] = y[1] = y[2] = 0;                                                            \
    _Pragma("GCC unroll 4") for (int a = 1; a < NN; a++) {                             \
      const PetscReal ex = b->dx[a - 1][l], ey = b->dy[a - 1][l];                      \
      const PetscReal r0 = r[3 * a - 3] IX, r1 = r[3 * a - 2] IX, r2 = r[3 * a - 1] IX; \
      y[3 * a]     = r0;                                                               \
      y[3 * a + 1] = r1;                                                               \
      y[3 * a + 2] = r2;                                                               \
      y[0] -= r0;                                                                      \
      y[1] -= Y1;                                                                      \
      y[2] -= Y2;                                                                      \
    }                                                                                  \
  } while (0)
#define MEM_EXPAND(NN, r, y, IX) SHELL_EXPAND(NN, r, y, IX, r1, r2 - ey * r0 + ex * r1)
#define BEN_EXPAND(NN, r, y, IX) SHELL_EXPAND(NN, r, y, IX, r1 + ey * r0, r2 - ex * r0)
// clang-format on

/* f_e = T^T f_l of lane l: per node, force R^T (f_u, f_v, f_w) and moment R^T (f_rx + h f_v, f_ry - h f_u, f_rz). */
#define SHELL_SCATTER(NN, OFF)                                                                              \
  do {                                                                                                      \
    SHELL_AXES;                                                                                             \
    _Pragma("GCC unroll 4") for (int a = 0; a < NN; a++)                                                    \
    {                                                                                                       \
      const PetscReal fu = ym[3 * a], fv = ym[3 * a + 1], frz = ym[3 * a + 2], fw = yb[3 * a];              \
      const PetscReal frx = yb[3 * a + 1] OFF(+b->h[a][l] * fv), fry = yb[3 * a + 2] OFF(-b->h[a][l] * fu); \
      fe[6 * a][l]     = x0 * fu + y0 * fv + z0 * fw;                                                       \
      fe[6 * a + 1][l] = x1 * fu + y1 * fv + z1 * fw;                                                       \
      fe[6 * a + 2][l] = x2 * fu + y2 * fv + z2 * fw;                                                       \
      fe[6 * a + 3][l] = x0 * frx + y0 * fry + z0 * frz;                                                    \
      fe[6 * a + 4][l] = x1 * frx + y1 * fry + z1 * frz;                                                    \
      fe[6 * a + 5][l] = x2 * frx + y2 * fry + z2 * frz;                                                    \
    }                                                                                                       \
  } while (0)

/* A quarter (part 0 .. 3) of the batch of bytes at pf (NULL: none) prefetched into the outer caches. */
static inline void PrefetchPart(const char *pf, size_t bytes, int part)
{
  const size_t q = (bytes / 4 + 63) & ~(size_t)63;
  if (!pf) return;
  for (size_t o = part * q; o < PetscMin((part + 1) * q, bytes); o += 64)
    __builtin_prefetch(pf + o, 0, 1);
}

/* yo = K_r di for one 9 x 9 block of a quad whose upper triangle is k, lane by lane. */
#define QUAD_BLOCK(k, di, yo)                                            \
  FLX_SIMD for (int l = 0; l < W; l++)                                   \
  {                                                                      \
    PetscReal d[9], y[9];                                                \
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) d[i] = di[i][l]; \
    SYMV(9, k, d, y);                                                    \
    _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) yo[i][l] = y[i]; \
  }

/* A quad batch in four SIMD passes (frame, offsets and d = P u; membrane; bending; f_l = P^T r and back to global
   axes), with a quarter of the batch at pf (NULL: none) prefetched after each: a batch is 7.2 KB, and its prefetches
   issued at once stall the loop (1e6-DOF plate, 1 rank, with the 10.9 KB batches of the full blocks: element loop
   13.3 -> 11.5 ns/DOF against a burst before the kernel and one after it). The triangles' smaller batches run faster
   in one pass (9.7 against 10.9 ns/DOF split). */
static inline __attribute__((always_inline)) void QuadForce(const FlxQuadBatch *restrict b, const PetscReal *restrict x, PetscReal fe[][W], PetscReal *restrict en, const int energy, const char *pf)
{
  PetscReal dm[9][W] __attribute__((aligned(64))), db[9][W] __attribute__((aligned(64))), rm[9][W] __attribute__((aligned(64))), rb[9][W] __attribute__((aligned(64)));
  PetscReal xs[4][8][W] __attribute__((aligned(64)));

  FLX_GATHER6(4, b->gi, x, xs); /* contiguous loads and transposes: in cache 5.9 -> 5.0 ns/DOF (gathers) */
  FLX_SIMD for (int l = 0; l < W; l++)
  {
    PetscReal um[12], ub[12];
    SHELL_GATHER(4, SHELL_OFFSETS);
    MEM_REDUCE(4, um, dm, [l]);
    BEN_REDUCE(4, ub, db, [l]);
  }
  PrefetchPart(pf, sizeof(*b), 0);
  QUAD_BLOCK(b->km, dm, rm);
  PrefetchPart(pf, sizeof(*b), 1);
  QUAD_BLOCK(b->kb, db, rb);
  PrefetchPart(pf, sizeof(*b), 2);
  FLX_SIMD for (int l = 0; l < W; l++)
  {
    PetscReal ym[12], yb[12];
    MEM_EXPAND(4, rm, ym, [l]);
    BEN_EXPAND(4, rb, yb, [l]);
    SHELL_SCATTER(4, SHELL_OFFSETS);
    if (energy) {
      PetscReal e = 0;
      _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) e += dm[i][l] * rm[i][l] + db[i][l] * rb[i][l];
      en[l] = 0.5 * e;
    }
  }
  PrefetchPart(pf, sizeof(*b), 3);
}

/* A triangle batch in one SIMD pass: the membrane recomputed (CST), the bending block reduced. */
static inline __attribute__((always_inline)) void TriForce(const FlxTriBatch *restrict b, const PetscReal *restrict x, PetscReal fe[][W], PetscReal *restrict en, const int energy)
{
  PetscReal xs[3][8][W] __attribute__((aligned(64)));

  FLX_GATHER6(3, b->gi, x, xs); /* 6.9 -> 5.9 ns/DOF */
  FLX_SIMD for (int l = 0; l < W; l++)
  {
    PetscReal um[9], ub[9], ym[9], yb[9], db[6], rb[6];
    SHELL_GATHER(3, SHELL_FLAT);
    CST(um, ym);
    BEN_REDUCE(3, ub, db, );
    SYMV(6, b->kb, db, rb);
    BEN_EXPAND(3, rb, yb, );
    SHELL_SCATTER(3, SHELL_FLAT);
    if (energy) {
      PetscReal e = 0;
      _Pragma("GCC unroll 9") for (int i = 0; i < 9; i++) e += um[i] * ym[i];
      _Pragma("GCC unroll 6") for (int i = 0; i < 6; i++) e += db[i] * rb[i];
      en[l] = 0.5 * e;
    }
  }
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
