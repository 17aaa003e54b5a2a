/* corotational_objectivity (issue 14, must-show 1): a space frame of three co-rotational beams (skew members, a
   rectangular and a circular section) given rigid rotations of 30, 90, 180 and 400 degrees about skew axes plus a
   translation has internal forces below 1e-10 of the axial stiffness scale (E A for forces, E A L for moments);
   a deformed state rotated rigidly gives the rotated forces (objectivity); the tangent agrees with central finite
   differences of the internal force (translations and spatial spins R -> exp(skew(h e_k)) R) to 1e-6 relative at
   a strongly deformed state; the strain energy's finite differences give the force. The explicit fast path's SIMD
   lanes (corotfast.c) stop as the general kernel does ("turned over") on 50000 elements whose end is turned by 180
   degrees, in random directions. */
#include <flexure/flexure.h>
#include <flexure/rotation.h>
#include <flexure/private/elementimpl.h>

static PetscInt fails = 0;

static void Check(const char *what, PetscReal err, PetscReal tol)
{
  PetscBool ok = (PetscBool)(err <= tol);
  if (!ok) fails++;
  PetscCallAbort(PETSC_COMM_SELF, PetscPrintf(PETSC_COMM_SELF, "%-64s %10.3e (tol %8.1e) %s\n", what, (double)err, (double)tol, ok ? "ok" : "FAILED"));
}

#define NE 3
static const PetscReal X[4][3] = {{0, 0, 0}, {1.0, 0.3, -0.2}, {1.4, 1.2, 0.5}, {0.9, 2.0, 1.6}};

/* Element kernel input of element e at node translations U (4 x 3) and node rotation matrices Rn (4 x 9). */
static void Gather(PetscInt e, const PetscReal U[][3], const PetscReal Rn[][9], PetscReal X0[6], PetscReal u[12], PetscReal R[18])
{
  for (int a = 0; a < 2; a++) {
    for (int c = 0; c < 3; c++) {
      X0[3 * a + c]    = X[e + a][c];
      u[6 * a + c]     = U[e + a][c];
      u[6 * a + 3 + c] = 0;
    }
    for (int i = 0; i < 9; i++)
      R[9 * a + i] = Rn[e + a][i];
  }
}

/* Assembled internal force F (4 x 6) and energy of the frame. */
static PetscErrorCode Frame(FlxElementOps ops, const FlxSectionProps p[], const PetscReal U[][3], const PetscReal Rn[][9], PetscReal F[4][6], PetscReal *energy)
{
  char err[256];

  PetscFunctionBegin;
  for (int i = 0; i < 4; i++)
    for (int c = 0; c < 6; c++)
      F[i][c] = 0;
  *energy = 0;
  for (PetscInt e = 0; e < NE; e++) {
    PetscReal X0[6], u[12], R[18], f[12], en;
    Gather(e, U, Rn, X0, u, R);
    PetscCall(ops->internal_force(X0, u, R, &p[e], f, &en, err, sizeof(err)));
    *energy += en;
    for (int a = 0; a < 2; a++)
      for (int c = 0; c < 6; c++)
        F[e + a][c] += f[6 * a + c];
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode FrameTangent(FlxElementOps ops, const FlxSectionProps p[], const PetscReal U[][3], const PetscReal Rn[][9], PetscReal K[24][24])
{
  char err[256];

  PetscFunctionBegin;
  for (int i = 0; i < 24; i++)
    for (int j = 0; j < 24; j++)
      K[i][j] = 0;
  for (PetscInt e = 0; e < NE; e++) {
    PetscReal X0[6], u[12], R[18], Ke[144];
    Gather(e, U, Rn, X0, u, R);
    PetscCall(ops->tangent(X0, u, R, &p[e], Ke, err, sizeof(err)));
    for (int i = 0; i < 12; i++)
      for (int j = 0; j < 12; j++)
        K[6 * e + i][6 * e + j] += Ke[12 * i + j];
  }
  PetscFunctionReturn(0);
}

static void MatVec(const PetscReal Q[9], const PetscReal v[3], PetscReal w[3])
{
  for (int i = 0; i < 3; i++)
    w[i] = Q[3 * i] * v[0] + Q[3 * i + 1] * v[1] + Q[3 * i + 2] * v[2];
}

/* The SIMD lanes (corotfast.c) on elements whose second end is turned by pi about the element's y axis (the local
   rotation's matrix at 180 degrees to round-off: 1 + tr and its antisymmetric part both round-off, in random
   directions): each must stop with "turned over", as the general kernel does, none pass as a small rotation.
   Returns the number of elements that passed. */
static PetscErrorCode TurnedOver(const FlxSectionProps *p, PetscInt n, PetscInt *passed)
{
  PetscFunctionBegin;
  *passed = 0;
  for (PetscInt k = 0; k < n; k++) {
    FlxCorotBeamBatch b;
    FlxCorotBeamData  d;
    PetscReal         X0[6], s[2 * FLX_COROT_STATE], f[12], e, psi[3], pq[3], R[9], Q[9], QR[9], u = 0.37 + 0.61 * k;
    char              err[256];
    X0[0] = X0[1] = X0[2] = 0; /* a chord in a direction of its own, 0.5 to 1.5 long */
    X0[3]                 = (0.5 + 0.5 * PetscSinReal(3.1 * u)) * PetscCosReal(7.3 * u);
    X0[4]                 = (0.5 + 0.5 * PetscSinReal(3.1 * u)) * PetscSinReal(7.3 * u);
    X0[5]                 = PetscCosReal(5.7 * u);
    PetscCall(FlxCorotBeamSetUp(X0, p, &d, err, sizeof(err)));
    for (int c = 0; c < 3; c++) {
      psi[c] = PETSC_PI * d.E[3 + c];                 /* pi about the element's y axis: the frame stays, the end turns over */
      pq[c]  = 2.5 * PetscSinReal(1.7 * u + 2.1 * c); /* then the element turned rigidly by Q = exp(pq) */
    }
    FlxRotExp(psi, R);
    FlxRotExp(pq, Q);
    FlxRotCompose(Q, R, QR);
    for (int c = 0; c < 3; c++) { /* the nodal states: position, quaternion, 0 */
      s[c]                   = 0;
      s[FLX_COROT_STATE + c] = Q[3 * c] * X0[3] + Q[3 * c + 1] * X0[4] + Q[3 * c + 2] * X0[5];
    }
    FlxRotToQuaternion(Q, s + 3);
    FlxRotToQuaternion(QR, s + FLX_COROT_STATE + 3);
    s[7] = s[FLX_COROT_STATE + 7] = 0;
    for (int l = 0; l < FLX_COROT_LANES; l++)
      FlxCorotBeamBatchSet(&b, l, 0, 1, k, PETSC_TRUE, &d);
    b.n = FLX_COROT_LANES;
    for (int i = 0; i < 12; i++)
      f[i] = 0;
    if (FlxCorotBeamAddForces(1, &b, s, 2, f, &e, err, sizeof(err)) != k || !strstr(err, "turned over")) (*passed)++;
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  FlxElementOps   ops;
  FlxSectionProps p[NE];
  PetscReal       EA, Lmax = 0;

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(FlxInitializePackage());
  PetscCall(FlxElementGetOps(FLXELEMENTBEAM3D, &ops));
  PetscCall(PetscMemzero(p, sizeof(p)));
  for (int e = 0; e < NE; e++) {
    p[e].E  = 210e9;
    p[e].nu = 0.3;
    p[e].G  = p[e].E / (2 * 1.3);
    if (e == 1) { /* circle d = 0.05 */
      p[e].A  = PETSC_PI * 0.025 * 0.025;
      p[e].Iy = p[e].Iz = PETSC_PI * PetscPowReal(0.025, 4) / 4;
      p[e].J            = 2 * p[e].Iy;
      p[e].Asy = p[e].Asz = 0.9 * p[e].A;
    } else { /* rectangle 0.04 x 0.06 */
      p[e].A   = 0.04 * 0.06;
      p[e].Iy  = 0.06 * PetscPowReal(0.04, 3) / 12;
      p[e].Iz  = 0.04 * PetscPowReal(0.06, 3) / 12;
      p[e].J   = FlxRectangleTorsionConstant(0.04, 0.06);
      p[e].Asy = p[e].Asz = 5.0 / 6 * p[e].A;
    }
  }
  EA = p[0].E * p[0].A;
  for (int e = 0; e < NE; e++) {
    PetscReal L2 = 0;
    for (int c = 0; c < 3; c++)
      L2 += (X[e + 1][c] - X[e][c]) * (X[e + 1][c] - X[e][c]);
    Lmax = PetscMax(Lmax, PetscSqrtReal(L2));
  }
  { /* rigid rotations about skew axes, plus a translation */
    const PetscReal deg[4] = {30, 90, 180, 400}, axis[3] = {0.3, -0.5, 0.81}, shift[3] = {0.7, -2.0, 5.0};
    PetscReal       n = PetscSqrtReal(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    for (int k = 0; k < 4; k++) {
      PetscReal psi[3], Q[9], U[4][3], Rn[4][9], F[4][6], en, fmax = 0, mmax = 0;
      char      what[128];
      for (int c = 0; c < 3; c++)
        psi[c] = deg[k] * PETSC_PI / 180 * axis[c] / n;
      FlxRotExp(psi, Q);
      for (int i = 0; i < 4; i++) {
        PetscReal QX[3];
        MatVec(Q, X[i], QX);
        for (int c = 0; c < 3; c++)
          U[i][c] = QX[c] + shift[c] - X[i][c];
        for (int c = 0; c < 9; c++)
          Rn[i][c] = Q[c];
      }
      PetscCall(Frame(ops, p, U, Rn, F, &en));
      for (int i = 0; i < 4; i++)
        for (int c = 0; c < 3; c++) {
          fmax = PetscMax(fmax, PetscAbsReal(F[i][c]));
          mmax = PetscMax(mmax, PetscAbsReal(F[i][3 + c]));
        }
      PetscCall(PetscSNPrintf(what, sizeof(what), "rigid rotation %3.0f deg: max |f| / EA, max |m| / (EA L)", (double)deg[k]));
      Check(what, PetscMax(fmax / EA, mmax / (EA * Lmax)), 1e-10);
    }
  }
  { /* strongly deformed state: nodal rotations up to 1.2 rad, stretches of a few per cent */
    const PetscReal psis[4][3] = {{0, 0, 0}, {0.4, -0.9, 0.5}, {-0.7, 0.3, 1.0}, {1.1, 0.2, -0.4}};
    const PetscReal disp[4][3] = {{0, 0, 0}, {-0.05, 0.30, 0.25}, {0.10, -0.20, 0.45}, {0.35, 0.10, 0.70}};
    PetscReal       U[4][3], Rn[4][9], F[4][6], K[24][24], en, fref = 0, kref = 0, emax = 0, egrad = 0;
    for (int i = 0; i < 4; i++) {
      for (int c = 0; c < 3; c++)
        U[i][c] = disp[i][c];
      FlxRotExp(psis[i], Rn[i]);
    }
    PetscCall(Frame(ops, p, U, Rn, F, &en));
    PetscCall(FrameTangent(ops, p, U, Rn, K));
    for (int i = 0; i < 4; i++)
      for (int c = 0; c < 6; c++)
        fref = PetscMax(fref, PetscAbsReal(F[i][c]));
    for (int i = 0; i < 24; i++)
      for (int j = 0; j < 24; j++)
        kref = PetscMax(kref, PetscAbsReal(K[i][j]));
    for (int j = 0; j < 24; j++) { /* central differences, h = 1e-6 of the length */
      const PetscReal h = 1e-6;
      PetscReal       Fp[4][6], Fm[4][6], ep, em, Up[4][3], Um[4][3], Rp[4][9], Rm[4][9];
      int             node = j / 6, k = j % 6;
      for (int i = 0; i < 4; i++) {
        for (int c = 0; c < 3; c++)
          Up[i][c] = Um[i][c] = U[i][c];
        for (int c = 0; c < 9; c++)
          Rp[i][c] = Rm[i][c] = Rn[i][c];
      }
      if (k < 3) {
        Up[node][k] += h;
        Um[node][k] -= h;
      } else {
        PetscReal w[3] = {0, 0, 0}, D[9];
        w[k - 3]       = h;
        FlxRotExp(w, D);
        FlxRotCompose(D, Rn[node], Rp[node]);
        w[k - 3] = -h;
        FlxRotExp(w, D);
        FlxRotCompose(D, Rn[node], Rm[node]);
      }
      PetscCall(Frame(ops, p, Up, Rp, Fp, &ep));
      PetscCall(Frame(ops, p, Um, Rm, Fm, &em));
      for (int i = 0; i < 24; i++)
        emax = PetscMax(emax, PetscAbsReal((Fp[i / 6][i % 6] - Fm[i / 6][i % 6]) / (2 * h) - K[i][j]));
      egrad = PetscMax(egrad, PetscAbsReal((ep - em) / (2 * h) - F[node][k]));
    }
    Check("tangent - central difference of f_int, relative to max |K|", emax / kref, 1e-8);
    Check("f_int - central difference of the strain energy, relative", egrad / fref, 1e-8);
    { /* objectivity of a deformed state: rotate everything by Q (250 deg), forces rotate */
      PetscReal psi[3] = {1.2, 3.1, -2.5}, Q[9], U2[4][3], R2[4][9], F2[4][6], en2, err = 0, s = 250 * PETSC_PI / 180 / PetscSqrtReal(1.44 + 9.61 + 6.25);
      for (int c = 0; c < 3; c++)
        psi[c] *= s;
      FlxRotExp(psi, Q);
      for (int i = 0; i < 4; i++) {
        PetscReal x[3], Qx[3];
        for (int c = 0; c < 3; c++)
          x[c] = X[i][c] + U[i][c];
        MatVec(Q, x, Qx);
        for (int c = 0; c < 3; c++)
          U2[i][c] = Qx[c] - X[i][c];
        FlxRotCompose(Q, Rn[i], R2[i]);
      }
      PetscCall(Frame(ops, p, U2, R2, F2, &en2));
      for (int i = 0; i < 4; i++) {
        PetscReal qf[3], qm[3];
        MatVec(Q, F[i], qf);
        MatVec(Q, F[i] + 3, qm);
        for (int c = 0; c < 3; c++)
          err = PetscMax(err, PetscMax(PetscAbsReal(qf[c] - F2[i][c]), PetscAbsReal(qm[c] - F2[i][3 + c])));
      }
      Check("deformed state rotated by 250 deg: |f(QX) - Q f(X)| / max |f|", err / fref, 1e-10);
      Check("deformed state rotated by 250 deg: energy change, relative", PetscAbsReal(en2 - en) / en, 1e-10);
    }
  }
  {
    PetscInt passed;
    PetscCall(TurnedOver(&p[0], 50000, &passed));
    Check("50000 ends turned by 180 deg: SIMD lanes not stopped as turned over", (PetscReal)passed, 0);
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s\n", fails ? "corotational_objectivity: FAILED" : "corotational_objectivity: all checks passed"));
  PetscCall(PetscFree(ops));
  PetscCall(PetscFinalize());
  return fails ? 1 : 0;
}
