/* Element-by-element internal force of the linear Timoshenko beam (beam3d.c), FLX_EBE_LANES cells at once, one SIMD
   lane per cell (docs/methods.md, "Performance"). What a cell keeps is what a co-rotational beam keeps
   (FlxCorotBeamData: the frame and the six independent entries of the local stiffness), minus the y axis, which is
   z x x as beam3d.c builds it: 13 numbers. The product K_e u_e needs no 12 x 12 matrix:

     local relative translation d = E (u_1 - u_2), local rotations a_b = E theta_b (b = 1, 2), E rows x, y, z;
     axial N = k_0 d_x, torsion T = k_1 (a_1x - a_2x);
     bending in the x-y plane (v, theta_z), with b_z = (k_4 + k_5) / L = 6 L c and a_z = 2 b_z / L = 12 c:
       V_y = a_z d_y + b_z (a_1z + a_2z), M_1z = b_z d_y + k_4 a_1z + k_5 a_2z, M_2z = b_z d_y + k_5 a_1z + k_4 a_2z;
     bending in the x-z plane (w, theta_y), b_y = (k_2 + k_3) / L, a_y = 2 b_y / L:
       V_z = a_y d_z - b_y (a_1y + a_2y), M_1y = -b_y d_z + k_2 a_1y + k_3 a_2y, M_2y = -b_y d_z + k_3 a_1y + k_2 a_2y;
     node 1: force E^T (N, V_y, V_z), moment E^T (T, M_1y, M_1z); node 2: minus that force, moment E^T (-T, M_2y, M_2z).

   These are the rows of beam3d's K_l (Przemieniecki's interdependent interpolation) written with the identities
   (4 + Phi) L^2 c + (2 - Phi) L^2 c = 6 L^2 c, so the result equals the assembled K x to round-off. */
#include <flexure/private/elementimpl.h>
#include <flexure/private/lanes.h>

#define W FLX_EBE_LANES
#if W != 8
#error "the beams' gather (lanes.h) takes batches of 8 cells"
#endif
#if defined(_OPENMP) || defined(FLX_HAVE_OPENMP_SIMD)
#define FLX_SIMD _Pragma("omp simd")
#else
#define FLX_SIMD
#endif

void FlxBeamBatchSet(FlxBeamBatch *b, PetscInt l, const FlxCorotBeamData *d)
{
  b->il[l] = 1 / d->l0;
  for (int c = 0; c < 3; c++) {
    b->e1[c][l] = d->E[c];
    b->e3[c][l] = d->E[6 + c];
  }
  for (int i = 0; i < 6; i++)
    b->k[i][l] = d->k[i];
}

/* The batch's forces; energy: also the strain energies (a compile-time constant of the two callers). */
static inline __attribute__((always_inline)) void Force(const FlxBeamBatch *restrict b, const PetscReal *restrict x, PetscReal fe[][W], PetscReal *restrict en, const int energy)
{
  PetscReal xs[2][8][W] __attribute__((aligned(64)));

  FLX_GATHER6(2, b->gi, x, xs); /* contiguous loads and transposes rather than gathers */
  FLX_SIMD
  for (int l = 0; l < W; l++) {
    const PetscReal x0 = b->e1[0][l], x1 = b->e1[1][l], x2 = b->e1[2][l], z0 = b->e3[0][l], z1 = b->e3[1][l], z2 = b->e3[2][l];
    const PetscReal y0 = z1 * x2 - z2 * x1, y1 = z2 * x0 - z0 * x2, y2 = z0 * x1 - z1 * x0, il = b->il[l];
    const PetscReal k0 = b->k[0][l], k1 = b->k[1][l], k2 = b->k[2][l], k3 = b->k[3][l], k4 = b->k[4][l], k5 = b->k[5][l];
    const PetscReal g0 = xs[0][0][l] - xs[1][0][l], g1 = xs[0][1][l] - xs[1][1][l], g2 = xs[0][2][l] - xs[1][2][l];
    const PetscReal dx = x0 * g0 + x1 * g1 + x2 * g2, dy = y0 * g0 + y1 * g1 + y2 * g2, dz = z0 * g0 + z1 * g1 + z2 * g2;
    const PetscReal a1x = x0 * xs[0][3][l] + x1 * xs[0][4][l] + x2 * xs[0][5][l], a1y = y0 * xs[0][3][l] + y1 * xs[0][4][l] + y2 * xs[0][5][l], a1z = z0 * xs[0][3][l] + z1 * xs[0][4][l] + z2 * xs[0][5][l];
    const PetscReal a2x = x0 * xs[1][3][l] + x1 * xs[1][4][l] + x2 * xs[1][5][l], a2y = y0 * xs[1][3][l] + y1 * xs[1][4][l] + y2 * xs[1][5][l], a2z = z0 * xs[1][3][l] + z1 * xs[1][4][l] + z2 * xs[1][5][l];
    const PetscReal bz = (k4 + k5) * il, az = 2 * bz * il, by = (k2 + k3) * il, ay = 2 * by * il;
    const PetscReal N = k0 * dx, T = k1 * (a1x - a2x);
    const PetscReal Vy = az * dy + bz * (a1z + a2z), M1z = bz * dy + k4 * a1z + k5 * a2z, M2z = bz * dy + k5 * a1z + k4 * a2z;
    const PetscReal Vz = ay * dz - by * (a1y + a2y), M1y = -by * dz + k2 * a1y + k3 * a2y, M2y = -by * dz + k3 * a1y + k2 * a2y;
    const PetscReal F0 = x0 * N + y0 * Vy + z0 * Vz, F1 = x1 * N + y1 * Vy + z1 * Vz, F2 = x2 * N + y2 * Vy + z2 * Vz;
    fe[0][l]  = F0;
    fe[1][l]  = F1;
    fe[2][l]  = F2;
    fe[3][l]  = x0 * T + y0 * M1y + z0 * M1z;
    fe[4][l]  = x1 * T + y1 * M1y + z1 * M1z;
    fe[5][l]  = x2 * T + y2 * M1y + z2 * M1z;
    fe[6][l]  = -F0;
    fe[7][l]  = -F1;
    fe[8][l]  = -F2;
    fe[9][l]  = -x0 * T + y0 * M2y + z0 * M2z;
    fe[10][l] = -x1 * T + y1 * M2y + z1 * M2z;
    fe[11][l] = -x2 * T + y2 * M2y + z2 * M2z;
    if (energy) en[l] = 0.5 * (N * dx + T * (a1x - a2x) + Vy * dy + Vz * dz + M1y * a1y + M2y * a2y + M1z * a1z + M2z * a2z);
  }
}

void FlxBeamBatchForce(const FlxBeamBatch *b, const PetscReal x[], PetscReal fe[][W], PetscReal en[])
{
  if (en)
    Force(b, x, fe, en, 1);
  else
    Force(b, x, fe, NULL, 0);
}
