/* A steadily spinning initial state (-ic_NAME_type spin with -ic_NAME_steady; docs/nonlinear.md, "Test
   spinning_star").

   A structure that spins rigidly at the angular velocity W about an axis through p is in a relative equilibrium
   when, in the frame turning with it, its internal forces balance the inertial forces of the rotation:

       f_int(x) + M W x (W x (X + u - p)) + W x J W = 0        (nodes of the group; J W only for inertia tensors)

   (the centripetal acceleration of each node times its mass; the rotational DOFs turn at the constant rate W, so
   their inertial force is the gyroscopic one alone). Started there, with the velocities of the rigid rotation of the
   deformed configuration, a conservative model keeps spinning without vibrating; started undeformed, the arms
   stretch and bend under the centrifugal forces and vibrate about that state for ever. Loads, damping and prescribed
   motions are left out of this equation (a loaded or damped structure has no steady spin); nodes outside the group
   are at rest and take part only through the elements.

   Newton on the free DOFs, x_{k+1} = x_k (+) du with the configuration update (rotations compose), the tangent
   K_t(x) + M skew(W)^2 (the centrifugal softening) + d(W x J W)/dtheta, regularized by 2 |W|^2 M: a free body has
   rigid-body motions of zero stiffness (and the centrifugal terms make the others negative), so the tangent itself is
   singular. The shift changes only the path, not the solution (a fixed point has r = 0); the rate is about
   2 |W|^2 / omega_1^2, omega_1 the lowest elastic frequency: a few iterations for a stiff rotor. The residual has no
   rigid-body component when the centre of mass lies on the axis and the axis is a principal axis, which the steady
   state needs anyway. KSP prefix static_ (LU; MUMPS on more than one rank). */
#include <flexure/private/modelimpl.h>
#include <flexure/rotation.h>

typedef struct {
  FlxModel   m;
  FlxSystem  sys;
  PetscReal  w[3], p[3];
  PetscBool *in; /* owned node spins */
  Vec        zero, vrot, arot, g, r, du;
  Mat        J, Jc;
  IS         fixed;
  KSP        ksp;
  PetscReal *blk;       /* inertia tangent blocks */
  PetscBool  free_body; /* no prescribed DOF: the residual's rigid-body part is balanced by a rigid acceleration */
  Vec        R[6], MR[6];
  PetscReal  Gi[36]; /* (R^T M R)^-1 */
  PetscReal  rigid;  /* the rigid-body part of the last residual (balanced by a rigid acceleration) */
} Spin;

/* A free body: its rigid-body motions R at the configuration x (translations; rotations about the origin,
   W x (X + u) and W on the rotational DOFs: f_int is objective, so it is orthogonal to them at x), M R and
   (R^T M R)^-1 by Gauss-Jordan. */
static PetscErrorCode RigidSetUp(Spin *s, Vec x)
{
  PetscReal          G[36], A[72];
  const PetscReal   *X;
  const PetscScalar *xa;
  PetscInt           nown;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(s->m->mesh, &nown, NULL, NULL));
  PetscCall(FlxMeshGetCoordinates(s->m->mesh, &X));
  PetscCall(VecGetArrayRead(x, &xa));
  for (int k = 0; k < 6; k++) {
    PetscScalar *a;
    if (!s->R[k]) PetscCall(VecDuplicate(s->m->mass, &s->R[k]));
    if (!s->MR[k]) PetscCall(VecDuplicate(s->m->mass, &s->MR[k]));
    PetscCall(VecGetArray(s->R[k], &a));
    for (PetscInt i = 0; i < nown; i++) {
      PetscReal q[3] = {X[3 * i] + xa[6 * i], X[3 * i + 1] + xa[6 * i + 1], X[3 * i + 2] + xa[6 * i + 2]}, e[3] = {0, 0, 0}, u[3];
      for (int d = 0; d < 6; d++)
        a[6 * i + d] = 0;
      if (k < 3) {
        a[6 * i + k] = 1;
        continue;
      }
      e[k - 3] = 1;
      FlxRotCross(e, q, u);
      for (int d = 0; d < 3; d++)
        a[6 * i + d] = u[d];
      a[6 * i + k] = 1;
    }
    PetscCall(VecRestoreArray(s->R[k], &a));
    PetscCall(VecPointwiseMult(s->MR[k], s->m->mass, s->R[k]));
  }
  PetscCall(VecRestoreArrayRead(x, &xa));
  for (int k = 0; k < 6; k++) {
    PetscScalar dots[6];
    PetscCall(VecMDot(s->MR[k], 6, s->R, dots));
    for (int l = 0; l < 6; l++)
      G[6 * k + l] = PetscRealPart(dots[l]);
  }
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 12; j++)
      A[12 * i + j] = j < 6 ? G[6 * i + j] : (j - 6 == i);
  for (int c = 0; c < 6; c++) {
    int piv = c;
    for (int i = c + 1; i < 6; i++)
      if (PetscAbsReal(A[12 * i + c]) > PetscAbsReal(A[12 * piv + c])) piv = i;
    PetscCheck(A[12 * piv + c] != 0, s->m->comm, PETSC_ERR_USER_INPUT, "steady spin: the free body's rigid-body motions have no mass");
    for (int j = 0; j < 12; j++) {
      PetscReal t     = A[12 * c + j];
      A[12 * c + j]   = A[12 * piv + j];
      A[12 * piv + j] = t;
    }
    for (int i = 0; i < 6; i++) {
      PetscReal f = A[12 * i + c] / A[12 * c + c];
      if (i == c) continue;
      for (int j = 0; j < 12; j++)
        A[12 * i + j] -= f * A[12 * c + j];
    }
  }
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      s->Gi[6 * i + j] = A[12 * i + 6 + j] / A[12 * i + i];
  PetscFunctionReturn(0);
}

/* y -= B (R^T M R)^-1 (C^T y), with (B, C) = (M R, R) (inertia relief: the rigid-body part of a force balanced by a
   rigid acceleration) or (R, M R) (the rigid-body part of a displacement removed). */
static PetscErrorCode RigidProject(Spin *s, Vec y, PetscBool force)
{
  PetscScalar c[6], a[6];

  PetscFunctionBegin;
  PetscCall(VecMDot(y, 6, force ? s->R : s->MR, c));
  for (int i = 0; i < 6; i++) {
    a[i] = 0;
    for (int j = 0; j < 6; j++)
      a[i] -= s->Gi[6 * i + j] * c[j];
  }
  PetscCall(VecMAXPY(y, 6, a, force ? s->MR : s->R));
  PetscFunctionReturn(0);
}

/* r = f_int(x, 0) + the inertial forces of the steady rotation, on the free DOFs; its 2-norm and that of the
   centrifugal part. */
static PetscErrorCode Residual(Spin *s, Vec x, PetscReal *rn, PetscReal *fn)
{
  const PetscReal   *X;
  const PetscScalar *xa, *ma, *fr, *ga;
  PetscScalar       *ra;
  PetscInt           nown;
  PetscReal          f2 = 0;

  PetscFunctionBegin;
  PetscCall(FlxSystemComputeInternalForce(s->sys, 0, x, s->zero, s->r));
  PetscCall(VecZeroEntries(s->g));
  PetscCall(FlxSystemComputeInertiaForce(s->sys, x, s->vrot, s->arot, s->g)); /* W x J W at tensor nodes */
  PetscCall(FlxMeshGetLocalSizes(s->m->mesh, &nown, NULL, NULL));
  PetscCall(FlxMeshGetCoordinates(s->m->mesh, &X));
  PetscCall(VecGetArrayRead(x, &xa));
  PetscCall(VecGetArrayRead(s->m->mass, &ma));
  PetscCall(VecGetArrayRead(s->m->free, &fr));
  PetscCall(VecGetArrayRead(s->g, &ga));
  PetscCall(VecGetArray(s->r, &ra));
  for (PetscInt j = 0; j < nown; j++) {
    PetscReal q[3], wq[3], c[3];
    for (int d = 3; d < 6; d++)
      ra[6 * j + d] += ga[6 * j + d];
    if (!s->in[j]) continue;
    for (int d = 0; d < 3; d++)
      q[d] = X[3 * j + d] + xa[6 * j + d] - s->p[d];
    FlxRotCross(s->w, q, wq);
    FlxRotCross(s->w, wq, c); /* the centripetal acceleration */
    for (int d = 0; d < 3; d++) {
      ra[6 * j + d] += ma[6 * j + d] * c[d];
      f2 += PetscRealPart(fr[6 * j + d]) * PetscSqr(ma[6 * j + d] * c[d]);
    }
  }
  for (PetscInt i = 0; i < 6 * nown; i++)
    ra[i] *= fr[i];
  PetscCall(VecRestoreArray(s->r, &ra));
  PetscCall(VecRestoreArrayRead(s->g, &ga));
  PetscCall(VecRestoreArrayRead(s->m->free, &fr));
  PetscCall(VecRestoreArrayRead(s->m->mass, &ma));
  PetscCall(VecRestoreArrayRead(x, &xa));
  if (s->free_body) {
    PetscReal rall;
    PetscCall(RigidSetUp(s, x));
    PetscCall(VecNorm(s->r, NORM_2, &rall));
    PetscCall(RigidProject(s, s->r, PETSC_TRUE));
    PetscCall(VecNorm(s->r, NORM_2, rn));
    s->rigid = PetscSqrtReal(PetscMax(rall * rall - (*rn) * (*rn), 0));
  }
  PetscCall(VecNorm(s->r, NORM_2, rn));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &f2, 1, MPIU_REAL, MPIU_SUM, s->m->comm));
  *fn = PetscSqrtReal(f2);
  PetscFunctionReturn(0);
}

/* The regularized tangent at x, prescribed rows and columns replaced by the identity, handed to the KSP. */
static PetscErrorCode Tangent(Spin *s, Vec x)
{
  const PetscReal    w2 = s->w[0] * s->w[0] + s->w[1] * s->w[1] + s->w[2] * s->w[2];
  const PetscScalar *ma;
  const PetscInt    *tdof;
  PetscInt           nown, rstart, nt;

  PetscFunctionBegin;
  PetscCall(FlxSystemComputeJacobian(s->sys, 0, x, s->zero, 0, 2 * w2, s->J)); /* K_t + 2 |W|^2 M */
  PetscCall(FlxMeshGetLocalSizes(s->m->mesh, &nown, NULL, NULL));
  PetscCall(VecGetOwnershipRange(x, &rstart, NULL));
  PetscCall(VecGetArrayRead(s->m->mass, &ma));
  for (PetscInt j = 0; j < nown; j++) { /* d(m W x (W x u))/du = m (W W^T - |W|^2 I) */
    PetscInt    idx[3] = {rstart + 6 * j, rstart + 6 * j + 1, rstart + 6 * j + 2};
    PetscScalar B[9];
    if (!s->in[j]) continue;
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++)
        B[3 * a + b] = ma[6 * j + a] * (s->w[a] * s->w[b] - (a == b ? w2 : 0));
    PetscCall(MatSetValues(s->J, 3, idx, 3, idx, B, ADD_VALUES));
  }
  PetscCall(VecRestoreArrayRead(s->m->mass, &ma));
  PetscCall(FlxSystemGetInertiaTensors(s->sys, &nt, &tdof, NULL));
  if (nt) { /* d(W x J W)/dtheta at the tensor nodes (b = 0) */
    PetscCall(FlxSystemComputeInertiaTangent(s->sys, x, s->vrot, s->zero, s->blk));
    for (PetscInt k = 0; k < nt; k++) {
      PetscInt idx[3] = {rstart + tdof[k], rstart + tdof[k] + 1, rstart + tdof[k] + 2};
      PetscCall(MatSetValues(s->J, 3, idx, 3, idx, s->blk + 27 * k + 9, ADD_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(s->J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(s->J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatConvert(s->J, MATAIJ, s->Jc ? MAT_REUSE_MATRIX : MAT_INITIAL_MATRIX, &s->Jc));
  PetscCall(MatZeroRowsColumnsIS(s->Jc, s->fixed, 1.0, NULL, NULL));
  PetscCall(KSPSetOperators(s->ksp, s->Jc, s->Jc));
  PetscFunctionReturn(0);
}

/* Newton from x (updated in place); msg non-empty when it failed (the caller frees, then raises it). */
static PetscErrorCode Solve(Spin *s, const FlxIC *c, Vec x, char msg[], size_t len)
{
  PetscReal rn, fn, hist[64], dunold = PETSC_MAX_REAL;
  PetscBool monitor = PETSC_FALSE;
  PetscInt  its;
  PetscBool conv   = PETSC_FALSE;
  char      h[512] = "";
  size_t    k      = 0;

  PetscFunctionBegin;
  monitor = s->m->st.monitor; /* -static_newton_monitor */
  for (its = 0; its < 40; its++) {
    KSPConvergedReason reason;
    PetscReal          dun, xn;
    PetscCall(Residual(s, x, &rn, &fn));
    hist[its] = rn;
    if (rn <= 1e-13 * fn || rn == 0) {
      conv = PETSC_TRUE;
      break;
    }
    PetscCall(Tangent(s, x));
    PetscCall(KSPSolve(s->ksp, s->r, s->du));
    PetscCall(KSPGetConvergedReason(s->ksp, &reason));
    if (reason <= 0) {
      PetscCall(PetscSNPrintf(msg, len, "initial condition '%s' (steady spin): the linear solve failed (%s)", c->name, KSPConvergedReasons[reason]));
      PetscFunctionReturn(0);
    }
    PetscCall(VecScale(s->du, -1.0));
    if (s->free_body) PetscCall(RigidProject(s, s->du, PETSC_FALSE)); /* a deformation only: the body is not moved */
    PetscCall(FlxSystemUpdateConfiguration(s->sys, x, s->du, x));
    PetscCall(VecNorm(s->du, NORM_INFINITY, &dun));
    PetscCall(VecNorm(x, NORM_INFINITY, &xn));
    if (monitor) PetscCall(PetscPrintf(s->m->comm, "    steady spin, Newton %2" PetscInt_FMT ": out-of-balance force %.3e, correction %.3e\n", its, (double)rn, (double)dun));
    if (its > 1 && (dun <= 1e-15 * xn || dun >= 0.5 * dunold)) { /* the corrections at round-off (or no longer falling): the force is at the round-off of f_int */
      PetscCall(Residual(s, x, &rn, &fn));
      hist[++its] = rn;
      conv        = PETSC_TRUE;
      break;
    }
    dunold = dun;
  }
  for (PetscInt i = 0; i <= PetscMin(its, 63) && k + 16 < sizeof(h); i++)
    k += (size_t)snprintf(h + k, sizeof(h) - k, "%s%.2e", i ? " " : "", (double)hist[i]);
  if (!conv) {
    PetscCall(PetscSNPrintf(msg, len, "initial condition '%s' (steady spin): Newton did not find the steadily spinning state in %" PetscInt_FMT " iterations (out-of-balance force %s against the centrifugal force %.2e); hint: the spin may be too fast for the structure (near or beyond its lowest frequency), or the axis not a principal axis through the centre of mass", c->name, its, h, (double)fn));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscPrintf(s->m->comm, "initial condition '%s': steady spin at %g rad/s found in %" PetscInt_FMT " Newton iterations (out-of-balance force %s; centrifugal force %.3e)\n", c->name,
                        (double)PetscSqrtReal(s->w[0] * s->w[0] + s->w[1] * s->w[1] + s->w[2] * s->w[2]), its, h, (double)fn));
  if (s->free_body) PetscCall(PetscPrintf(s->m->comm, "  free body: the rigid-body part of the inertial forces, %.3e (the axis is that far from a principal axis of the deformed body, which then precesses slowly), is balanced by a rigid acceleration\n", (double)s->rigid));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelSteadySpin(FlxModel m, PetscInt ic, Vec x, Vec v)
{
  const FlxIC     *c = &m->ic[ic];
  Spin             s;
  PetscInt         g, n, nown, nt;
  const PetscInt  *nodes;
  const PetscReal *X;
  PetscScalar     *xa, *va, *vr;
  char             msg[1024] = "";
  PetscReal        aM;
  PC               pc;
  PetscMPIInt      size;

  PetscFunctionBegin;
  PetscCheck(m->nonlinear, m->comm, PETSC_ERR_USER_INPUT, "initial condition '%s': -ic_%s_steady needs finite rotations (-model_geometry nonlinear or -section_NAME_geometry nonlinear): a steadily spinning structure turns by finite angles", c->name, c->name);
  PetscCall(PetscMemzero(&s, sizeof(s)));
  s.m   = m;
  s.sys = m->sys;
  for (int d = 0; d < 3; d++) {
    s.w[d] = c->value[d];
    s.p[d] = c->point[d];
  }
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  PetscCall(PetscCalloc1(nown + 1, &s.in));
  PetscCall(FlxMeshFindGroup(m->mesh, c->group, &g));
  PetscCall(FlxMeshGetGroupNodes(m->mesh, g, &n, &nodes));
  for (PetscInt i = 0; i < n; i++)
    s.in[nodes[i]] = PETSC_TRUE;
  PetscCall(FlxSystemGetInertiaTensors(m->sys, &nt, NULL, NULL));
  PetscCall(PetscMalloc1(27 * nt + 1, &s.blk));
  Vec *vecs[] = {&s.zero, &s.vrot, &s.arot, &s.g, &s.r, &s.du};
  for (size_t k = 0; k < sizeof(vecs) / sizeof(vecs[0]); k++)
    PetscCall(VecDuplicate(m->mass, vecs[k]));
  PetscCall(VecZeroEntries(s.zero));
  PetscCall(VecZeroEntries(s.vrot));
  PetscCall(FlxSystemGetRayleigh(m->sys, &aM, NULL));
  PetscCall(VecGetArray(s.vrot, &vr));
  for (PetscInt j = 0; j < nown; j++)
    if (s.in[j])
      for (int d = 0; d < 3; d++)
        vr[6 * j + 3 + d] = s.w[d];
  PetscCall(VecRestoreArray(s.vrot, &vr));
  PetscCall(VecCopy(s.vrot, s.arot));
  PetscCall(VecScale(s.arot, -aM)); /* J (a + a_M v) = 0: the gyroscopic force alone */
  PetscCall(FlxSystemCreateJacobianMatrix(m->sys, &s.J));
  PetscCall(FlxSystemCreatePrescribedIS(m->sys, &s.fixed));
  PetscCall(KSPCreate(m->comm, &s.ksp));
  PetscCall(KSPSetOptionsPrefix(s.ksp, "static_"));
  PetscCall(KSPSetType(s.ksp, KSPPREONLY));
  PetscCall(KSPGetPC(s.ksp, &pc));
  PetscCall(PCSetType(pc, PCLU));
  PetscCallMPI(MPI_Comm_size(m->comm, &size));
  if (size > 1) PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  PetscCall(KSPSetErrorIfNotConverged(s.ksp, PETSC_FALSE));
  PetscCall(KSPSetFromOptions(s.ksp));
  s.free_body = (PetscBool)(m->nconstrained == 0);
  PetscCall(Solve(&s, c, x, msg, sizeof(msg)));
  /* the velocities of the rigid rotation of the deformed configuration */
  PetscCall(FlxMeshGetCoordinates(m->mesh, &X));
  PetscCall(VecGetArray(x, &xa));
  PetscCall(VecGetArray(v, &va));
  for (PetscInt j = 0; j < nown; j++) {
    PetscReal q[3], wq[3];
    if (!s.in[j]) continue;
    for (int d = 0; d < 3; d++)
      q[d] = X[3 * j + d] + xa[6 * j + d] - s.p[d];
    FlxRotCross(s.w, q, wq);
    for (int d = 0; d < 3; d++) {
      va[6 * j + d]     = wq[d];
      va[6 * j + 3 + d] = s.w[d];
    }
  }
  PetscCall(VecRestoreArray(v, &va));
  PetscCall(VecRestoreArray(x, &xa));
  PetscCall(VecPointwiseMult(v, v, m->free));
  for (size_t k = 0; k < sizeof(vecs) / sizeof(vecs[0]); k++)
    PetscCall(VecDestroy(vecs[k]));
  PetscCall(MatDestroy(&s.J));
  PetscCall(MatDestroy(&s.Jc));
  PetscCall(ISDestroy(&s.fixed));
  PetscCall(KSPDestroy(&s.ksp));
  PetscCall(PetscFree(s.blk));
  PetscCall(PetscFree(s.in));
  if (s.free_body)
    for (int k = 0; k < 6; k++) {
      PetscCall(VecDestroy(&s.R[k]));
      PetscCall(VecDestroy(&s.MR[k]));
    }
  PetscCheck(!msg[0], m->comm, PETSC_ERR_NOT_CONVERGED, "%s", msg); /* the same on every rank: the norms are global */
  PetscFunctionReturn(0);
}
