/* Unit checks of src/util/rotation.c: exp against closed forms (quarter and half turns), log(exp(psi)) = psi for
   angles from 1e-12 to pi (skew axes, including the wrap at pi), orthonormality, composition, T(psi) against a
   central finite difference of exp, T^-1 T = I, and the update psi (+) dtheta. Prints each measure; fails above
   its tolerance. */
#include <flexure/rotation.h>
#include <petsc.h>

static PetscInt fails = 0;

static void Check(const char *what, PetscReal err, PetscReal tol)
{
  PetscBool ok = (PetscBool)(err <= tol);
  if (!ok) fails++;
  PetscCallAbort(PETSC_COMM_SELF, PetscPrintf(PETSC_COMM_SELF, "%-58s %10.3e (tol %8.1e) %s\n", what, (double)err, (double)tol, ok ? "ok" : "FAILED"));
}

static PetscReal MaxDiff(PetscInt n, const PetscReal a[], const PetscReal b[])
{
  PetscReal m = 0;
  for (PetscInt i = 0; i < n; i++)
    m = PetscMax(m, PetscAbsReal(a[i] - b[i]));
  return m;
}

int main(int argc, char **argv)
{
  const PetscReal axes[3][3] = {{1, 2, 3}, {-0.3, 0.9, -0.2}, {0, 0, 1}};

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  { /* closed forms: a quarter turn about z maps x to y; a half turn about (1,1,0)/sqrt2 swaps x and y, flips z */
    PetscReal R[9], psi[3] = {0, 0, PETSC_PI / 2}, Rq[9] = {0, -1, 0, 1, 0, 0, 0, 0, 1};
    PetscReal s2 = PETSC_PI / PetscSqrtReal(2.0), ph[3] = {s2, s2, 0}, Rh[9] = {0, 1, 0, 1, 0, 0, 0, 0, -1};
    FlxRotExp(psi, R);
    Check("exp: quarter turn about z", MaxDiff(9, R, Rq), 1e-15);
    FlxRotExp(ph, R);
    Check("exp: half turn about (1,1,0)", MaxDiff(9, R, Rh), 1e-15);
  }
  { /* log(exp(psi)) = psi, orthonormality */
    const PetscReal angles[] = {1e-12, 1e-7, 1e-4 * 0.999, 1e-4 * 1.001, 0.3, 1.0, 2.0, 3.0, PETSC_PI - 1e-6, PETSC_PI - 1e-12};
    PetscReal       emax = 0, omax = 0;
    for (int a = 0; a < 3; a++)
      for (size_t k = 0; k < sizeof(angles) / sizeof(angles[0]); k++) {
        PetscReal n = PetscSqrtReal(axes[a][0] * axes[a][0] + axes[a][1] * axes[a][1] + axes[a][2] * axes[a][2]), psi[3], R[9], back[3], RRt[9], Rt[9];
        for (int c = 0; c < 3; c++)
          psi[c] = angles[k] * axes[a][c] / n;
        FlxRotExp(psi, R);
        FlxRotLog(R, back);
        emax = PetscMax(emax, MaxDiff(3, psi, back) / PetscMax(angles[k], 1e-300) * PetscMin(angles[k], 1.0));
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++)
            Rt[3 * i + j] = R[3 * j + i];
        FlxRotCompose(R, Rt, RRt);
        for (int i = 0; i < 3; i++)
          RRt[4 * i] -= 1;
        omax = PetscMax(omax, MaxDiff(9, RRt, (PetscReal[9]){0}));
      }
    Check("log(exp(psi)) - psi (relative below 1 rad), 0..pi", emax, 1e-13);
    Check("exp(psi) exp(psi)^T - I", omax, 1e-14);
  }
  { /* past pi: log returns the equivalent vector of angle 2 pi - a about the opposite axis */
    PetscReal psi[3] = {0, 0, PETSC_PI + 0.2}, R[9], back[3], want[3] = {0, 0, -(PETSC_PI - 0.2)};
    FlxRotExp(psi, R);
    FlxRotLog(R, back);
    Check("log wraps at pi (angle pi + 0.2 about z)", MaxDiff(3, back, want), 1e-14);
  }
  { /* composition: exp(a n) exp(b n) = exp((a + b) n) */
    PetscReal n[3] = {0.6, 0, 0.8}, A[9], B[9], C[9], D[9];
    for (int c = 0; c < 3; c++) {
      A[c] = 0.7 * n[c];
      B[c] = 1.1 * n[c];
      C[c] = 1.8 * n[c];
    }
    FlxRotExp(A, D);
    FlxRotExp(B, A);
    FlxRotCompose(D, A, B);
    FlxRotExp(C, A);
    Check("exp(0.7 n) exp(1.1 n) - exp(1.8 n)", MaxDiff(9, A, B), 1e-15);
  }
  { /* T(psi) against finite differences: skew(dtheta) = dR R^T, dtheta = T dpsi; T^-1 T = I */
    const PetscReal angles[] = {1e-6, 0.5, 2.0, 3.1};
    PetscReal       tmax = 0, imax = 0, h = 1e-6;
    for (int a = 0; a < 3; a++)
      for (size_t k = 0; k < sizeof(angles) / sizeof(angles[0]); k++) {
        PetscReal n = PetscSqrtReal(axes[a][0] * axes[a][0] + axes[a][1] * axes[a][1] + axes[a][2] * axes[a][2]), psi[3], T[9], Ti[9], P[9];
        for (int c = 0; c < 3; c++)
          psi[c] = angles[k] * axes[a][c] / n;
        FlxRotTangent(psi, T);
        FlxRotTangentInverse(psi, Ti);
        for (int j = 0; j < 3; j++) {
          PetscReal pp[3] = {psi[0], psi[1], psi[2]}, pm[3] = {psi[0], psi[1], psi[2]}, Rp[9], Rm[9], R[9], dR[9], Rt[9], W[9];
          pp[j] += h;
          pm[j] -= h;
          FlxRotExp(pp, Rp);
          FlxRotExp(pm, Rm);
          FlxRotExp(psi, R);
          for (int i = 0; i < 9; i++)
            dR[i] = (Rp[i] - Rm[i]) / (2 * h);
          for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
              Rt[3 * r + c] = R[3 * c + r];
          FlxRotCompose(dR, Rt, W); /* skew(T e_j) */
          tmax = PetscMax(tmax, PetscAbsReal(W[7] - T[3 * 0 + j]));
          tmax = PetscMax(tmax, PetscAbsReal(W[2] - T[3 * 1 + j]));
          tmax = PetscMax(tmax, PetscAbsReal(W[3] - T[3 * 2 + j]));
        }
        FlxRotCompose(Ti, T, P);
        for (int i = 0; i < 3; i++)
          P[4 * i] -= 1;
        imax = PetscMax(imax, MaxDiff(9, P, (PetscReal[9]){0}));
      }
    Check("T(psi) - finite difference of exp (h = 1e-6)", tmax, 1e-9);
    Check("T^-1(psi) T(psi) - I", imax, 1e-13);
  }
  { /* update: psi (+) dtheta for a small spatial increment = psi + T^-1 dtheta to second order */
    PetscReal psi[3] = {0.4, -1.2, 2.1}, dth[3] = {1e-4, 2e-4, -1.5e-4}, pn[3], Ti[9], lin[3];
    FlxRotUpdate(psi, dth, pn);
    FlxRotTangentInverse(psi, Ti);
    for (int i = 0; i < 3; i++)
      lin[i] = psi[i] + Ti[3 * i] * dth[0] + Ti[3 * i + 1] * dth[1] + Ti[3 * i + 2] * dth[2];
    Check("psi (+) dtheta - (psi + T^-1 dtheta), |dtheta| = 2.9e-4", MaxDiff(3, pn, lin), 1e-7);
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s\n", fails ? "rotation_unit: FAILED" : "rotation_unit: all checks passed"));
  PetscCall(PetscFinalize());
  return fails ? 1 : 0;
}
