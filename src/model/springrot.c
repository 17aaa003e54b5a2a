/* Springs of geometrically nonlinear models beyond their linear matrix (docs/nonlinear.md, "Springs"): rotational
   stiffness, and the anisotropic translational stiffness of zero-length cells.

   A spring with rotational stiffness K (3 x 3, global axes at the start: R^T diag(krx, kry, krz) R) between nodes a
   and b stores the energy V = 1/2 phi . K phi of the relative rotation phi = log(R_a^T R_b) (for a spring to ground,
   phi = log(R_b) = psi_b, the node's own rotation vector). phi is material (in node a's frame carried back to the
   start), so a rigid rotation of the pair leaves V unchanged whatever the axes: the spring is objective. With spatial
   spins (dR = skew(dtheta) R) and the left Jacobian T (rotation.h), d(R_a^T R_b) (R_a^T R_b)^T = skew(R_a^T (dtheta_b -
   dtheta_a)) and dphi = T(phi)^-1 R_a^T (dtheta_b - dtheta_a), so the moments conjugate to the spins are
     m_b = R_a g(phi), m_a = -m_b,   g(phi) = T(phi)^-T K phi = K phi + phi x K phi / 2 + c(|phi|) phi x (phi x K phi)
   with c(a) = (1 - (a/2) cot(a/2)) / a^2 (for K = k I, g = k phi: the small-rotation form is then exact), and the
   tangent blocks d m_b / d theta_b = R_a G T^-1 R_a^T =: Q, d m_b / d theta_a = -skew(m_b) - Q, G = dg/dphi.

   The model's K and K_lin keep the spring's linear matrix (K (psi_b - psi_a) on the rotational DOFs), so the
   initial stiffness, the critical step and the modes see the spring; the functions here add the difference between
   the exact force (energy, tangent) and that linear one. The log is defined for |phi| < pi; past 3 rad (0.95 pi)
   the run stops naming the spring (also when phi jumps from beyond 2.5 rad to the other side of pi between two
   evaluations, where the log wrapped).

   A zero-length cell with anisotropic translational stiffness K_t (global axes at the start) has its axes carried by
   node a, like the rotational spring's: K = R_a K_t R_a^T acts on d = x_b - x_a, energy 1/2 d . K d, so a rigid
   rotation of the joint turns its axes with it (in axes fixed in space, a bushing on a spinning hub would be stiff
   along the wrong directions). With p = K d and dK = skew(w) K - K skew(w) under a spatial spin w of node a,
     f_b = p, f_a = -p, m_a = p x d
   (the forces act at one point and the moment is the axes' turning: the angular momentum is kept; isotropic K gives
   m_a = 0, and such a cell is left to K_lin), dp = K dd + P w with P = K skew(d) - skew(p), and
   dm_a = (skew(p) - skew(d) K) dd - skew(d) P w, dd = du_b - du_a. K_lin carries K_t (u_b - u_a). Each rank adds the rows of its owned nodes, item by item in a fixed order
   (springs.c, FlxModelVisitNonlinearSprings: the global cell order, then the springs to ground), after every
   element: the sums are the same at any number of ranks. */
#include <flexure/private/modelimpl.h>
#include <flexure/private/elementimpl.h>
#include <flexure/rotation.h>

#define FLX_SPRING_MAX_ANGLE 3.0 /* rad: the largest relative rotation of a rotational spring (log defined below pi) */

typedef struct {
  PetscInt  node[2];    /* local nodes a, b; a = -1: to ground */
  PetscBool own;        /* its energy counts on this rank (the cell's owner: its first node's) */
  PetscBool rot, trans; /* rotational stiffness; anisotropic translational stiffness (a zero-length cell) */
  PetscReal K[9];       /* rotational stiffness, global axes at the start */
  PetscReal Kt[9];      /* translational stiffness, global axes at the start */
  PetscReal last[3];    /* phi at the last force evaluation: a jump to the other side of pi is caught */
  char      name[FLX_NAME_LEN];
} RotSpring;

struct _FlxRotSprings {
  PetscInt   n, cap, nown;
  RotSpring *s;
};

static PetscErrorCode Collect(FlxModel m, PetscInt nn, const PetscInt nodes[], const PetscReal Kr[], const PetscReal Kt[], const char name[], void *ctx)
{
  FlxRotSprings rs = (FlxRotSprings)ctx;
  RotSpring    *r;

  PetscFunctionBegin;
  if (nodes[0] >= rs->nown && (nn == 1 || nodes[1] >= rs->nown)) PetscFunctionReturn(0); /* adds to no owned row */
  if (rs->n == rs->cap) {
    rs->cap = 2 * rs->cap + 16;
    PetscCall(PetscRealloc(sizeof(RotSpring) * rs->cap, &rs->s));
  }
  r          = &rs->s[rs->n++];
  r->node[0] = nn == 2 ? nodes[0] : -1;
  r->node[1] = nodes[nn - 1];
  r->own     = (PetscBool)(nodes[0] < rs->nown);
  r->last[0] = r->last[1] = r->last[2] = 0;
  r->rot                               = (PetscBool)(Kr != NULL);
  r->trans                             = (PetscBool)(Kt != NULL && nn == 2);
  for (int i = 0; i < 9; i++) {
    r->K[i]  = Kr ? Kr[i] : 0;
    r->Kt[i] = Kt ? Kt[i] : 0;
  }
  PetscCall(PetscStrncpy(r->name, name, sizeof(r->name)));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxRotSpringsCreate(FlxModel m, FlxRotSprings *out)
{
  FlxRotSprings rs;
  PetscInt      n;

  PetscFunctionBegin;
  *out = NULL;
  PetscCall(PetscNew(&rs));
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &rs->nown, NULL, NULL));
  PetscCall(FlxModelVisitNonlinearSprings(m, Collect, rs));
  PetscCallMPI(MPI_Allreduce(&rs->n, &n, 1, MPIU_INT, MPI_SUM, m->comm));
  if (!n) PetscCall(FlxRotSpringsDestroy(&rs));
  *out = rs;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxRotSpringsDestroy(FlxRotSprings *rs)
{
  PetscFunctionBegin;
  if (!*rs) PetscFunctionReturn(0);
  PetscCall(PetscFree((*rs)->s));
  PetscCall(PetscFree(*rs));
  PetscFunctionReturn(0);
}

/* g = T(phi)^-T K phi and, if G is not NULL, G = dg/dphi (row-major). */
static void Moment(const PetscReal K[9], const PetscReal phi[3], PetscReal g[3], PetscReal G[9])
{
  const PetscReal a2 = phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2];
  PetscReal       w[3], pw[3], ppw[3], c, dc, pdw; /* w = K phi; dc = c'(a)/a */

  if (a2 < 1e-2) { /* a < 0.1: the series of c and c'/a (the closed forms cancel: c'/a's numerator is 2 u^4 / 45) */
    c  = 1.0 / 12 + a2 * (1.0 / 720 + a2 * (1.0 / 30240 + a2 / 1209600));
    dc = 1.0 / 360 + a2 * (1.0 / 7560 + a2 / 201600);
  } else {
    const PetscReal a = PetscSqrtReal(a2), u = 0.5 * a, cu = PetscCosReal(u) / PetscSinReal(u), s2 = PetscSqr(PetscSinReal(u));
    c  = (1 - u * cu) / a2;
    dc = (u * cu + u * u / s2 - 2) / (8 * u * u * u) / a;
  }
  FlxRotMatVec(K, phi, w);
  FlxRotCross(phi, w, pw);
  FlxRotCross(phi, pw, ppw);
  for (int i = 0; i < 3; i++)
    g[i] = w[i] + 0.5 * pw[i] + c * ppw[i];
  if (!G) return;
  pdw = phi[0] * w[0] + phi[1] * w[1] + phi[2] * w[2];
  /* d(K phi) = K; d(phi x w)/2 = (skew(phi) K - skew(w)) / 2; d(c ppw) = dc ppw phi^T + c ((phi.w) I + 2 phi w^T - 2 w phi^T - a^2 K), K symmetric */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      G[3 * i + j] = K[3 * i + j] * (1 - c * a2) + dc * ppw[i] * phi[j] + c * ((i == j ? pdw : 0) + 2 * phi[i] * w[j] - 2 * w[i] * phi[j]);
  for (int j = 0; j < 3; j++) { /* (skew(phi) K)_ij = (phi x K e_j)_i, skew(w)_ij */
    const PetscReal kj[3] = {K[j], K[3 + j], K[6 + j]};
    PetscReal       pk[3];
    FlxRotCross(phi, kj, pk);
    for (int i = 0; i < 3; i++)
      G[3 * i + j] += 0.5 * pk[i];
  }
  G[1] += 0.5 * w[2]; /* - skew(w) / 2 */
  G[2] -= 0.5 * w[1];
  G[3] -= 0.5 * w[2];
  G[5] += 0.5 * w[0];
  G[6] += 0.5 * w[1];
  G[7] -= 0.5 * w[0];
}

/* The rotations of spring r from the nodal states s (unit quaternions): R_a (identity to ground), phi, and the
   rotation vectors psi_a, psi_b the linear matrix acts on. */
static void Kinematics(const RotSpring *r, const PetscReal s[], PetscReal Ra[9], PetscReal phi[3], PetscReal pa[3], PetscReal pb[3])
{
  PetscReal Rb[9], Rrel[9];

  FlxRotFromQuaternion(s + FLX_COROT_STATE * r->node[1] + 3, Rb);
  FlxRotLog(Rb, pb);
  if (r->node[0] < 0) {
    for (int i = 0; i < 9; i++)
      Ra[i] = (i % 4 == 0);
    pa[0] = pa[1] = pa[2] = 0;
    for (int i = 0; i < 3; i++)
      phi[i] = pb[i];
    return;
  }
  FlxRotFromQuaternion(s + FLX_COROT_STATE * r->node[0] + 3, Ra);
  FlxRotLog(Ra, pa);
  for (int i = 0; i < 3; i++) /* R_a^T R_b */
    for (int j = 0; j < 3; j++)
      Rrel[3 * i + j] = Ra[i] * Rb[j] + Ra[3 + i] * Rb[3 + j] + Ra[6 + i] * Rb[6 + j];
  FlxRotLog(Rrel, phi);
}

/* The translational part of spring r (a zero-length cell with anisotropic stiffness): K = R_a K_t R_a^T, d = x_b - x_a,
   p = K d. */
static void TransKinematics(const RotSpring *r, const PetscReal s[], PetscReal K[9], PetscReal d[3], PetscReal p[3])
{
  const PetscReal *xa = s + FLX_COROT_STATE * r->node[0], *xb = s + FLX_COROT_STATE * r->node[1];
  PetscReal        Ra[9], T[9];

  FlxRotFromQuaternion(xa + 3, Ra);
  for (int i = 0; i < 3; i++) /* T = R_a K_t */
    for (int j = 0; j < 3; j++)
      T[3 * i + j] = Ra[3 * i] * r->Kt[j] + Ra[3 * i + 1] * r->Kt[3 + j] + Ra[3 * i + 2] * r->Kt[6 + j];
  for (int i = 0; i < 3; i++) /* K = T R_a^T */
    for (int j = 0; j < 3; j++)
      K[3 * i + j] = T[3 * i] * Ra[3 * j] + T[3 * i + 1] * Ra[3 * j + 1] + T[3 * i + 2] * Ra[3 * j + 2];
  for (int i = 0; i < 3; i++)
    d[i] = xb[i] - xa[i];
  FlxRotMatVec(K, d, p);
}

/* The rotational part of spring r: f (may be NULL) += the exact moments minus the linear ones, energy += the same
   difference of energy (r's owner); a turn past the largest angle sets bad and msg (the first one). */
static PetscErrorCode RotationalForce(FlxModel m, RotSpring *r, PetscInt nown, PetscReal t, const PetscReal s[], PetscScalar f[], PetscReal *energy, char msg[], size_t len, PetscBool *bad)
{
  PetscReal Ra[9], phi[3], pa[3], pb[3], d[3], g[3], mb[3], kd[3], kphi[3], a, al, dot;
  PetscBool past;

  PetscFunctionBegin;
  Kinematics(r, s, Ra, phi, pa, pb);
  a   = PetscSqrtReal(phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2]);
  al  = PetscSqrtReal(r->last[0] * r->last[0] + r->last[1] * r->last[1] + r->last[2] * r->last[2]);
  dot = phi[0] * r->last[0] + phi[1] * r->last[1] + phi[2] * r->last[2];
  /* past the largest angle, or (the log wraps at pi) from beyond 2.5 rad to the opposite direction in one change */
  past = (PetscBool)(a > FLX_SPRING_MAX_ANGLE || (al > 2.5 && dot < 0));
  if (past && !*bad) {
    const PetscReal *X, *xb;
    char             when[64] = "";
    PetscCall(FlxMeshGetCoordinates(m->mesh, &X));
    xb = X + 3 * r->node[1];
    if (t > 0) PetscCall(PetscSNPrintf(when, sizeof(when), "at t = %g s ", (double)t));
    PetscCall(PetscSNPrintf(msg, len, "%sthe rotational spring '%s' at the node at (%g, %g, %g) m has turned by %s%.3f rad%s: a rotational spring acts on the rotation vector of its relative rotation, which is defined below pi; past %.1f rad it is not modelled (a joint for large relative rotations is not implemented yet): stiffen the spring, %s", when, r->name, (double)xb[0], (double)xb[1], (double)xb[2], a > FLX_SPRING_MAX_ANGLE ? "" : "more than pi, from ", a > FLX_SPRING_MAX_ANGLE ? a : al,
                            r->node[0] < 0 ? " from its start" : " relative to its other node", (double)FLX_SPRING_MAX_ANGLE, t > 0 ? "shorten the run or take smaller steps" : "lower the load"));
    *bad = PETSC_TRUE;
  }
  if (f && !past) /* a state refused is not a reference: a retry from the last good state must not read as a jump */
    for (int i = 0; i < 3; i++)
      r->last[i] = phi[i];
  for (int i = 0; i < 3; i++)
    d[i] = pb[i] - pa[i];
  Moment(r->K, phi, g, NULL);
  FlxRotMatVec(Ra, g, mb);
  FlxRotMatVec(r->K, d, kd);
  for (int i = 0; i < 3 && f; i++) {
    const PetscReal df = mb[i] - kd[i]; /* the exact moment minus the linear one */
    if (r->node[1] < nown) f[6 * r->node[1] + 3 + i] += df;
    if (r->node[0] >= 0 && r->node[0] < nown) f[6 * r->node[0] + 3 + i] -= df;
  }
  if (energy && r->own) {
    FlxRotMatVec(r->K, phi, kphi);
    *energy += 0.5 * (phi[0] * kphi[0] + phi[1] * kphi[1] + phi[2] * kphi[2]) - 0.5 * (d[0] * kd[0] + d[1] * kd[1] + d[2] * kd[2]);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxRotSpringsAddForce(FlxModel m, FlxRotSprings rs, PetscReal t, const PetscReal s[], PetscScalar f[], PetscReal *energy, char msg[], size_t len, PetscBool *bad)
{
  PetscFunctionBegin;
  if (energy) *energy = 0;
  if (!rs) PetscFunctionReturn(0);
  for (PetscInt k = 0; k < rs->n; k++) {
    RotSpring *r = &rs->s[k];
    if (r->rot) PetscCall(RotationalForce(m, r, rs->nown, t, s, f, energy, msg, len, bad));
    if (r->trans) { /* f_b = p, f_a = -p, m_a = p x d, minus the linear K_t d */
      PetscReal K[9], d[3], p[3], kd[3], md[3];
      TransKinematics(r, s, K, d, p);
      FlxRotMatVec(r->Kt, d, kd);
      FlxRotCross(p, d, md);
      for (int i = 0; i < 3 && f; i++) {
        if (r->node[1] < rs->nown) f[6 * r->node[1] + i] += p[i] - kd[i];
        if (r->node[0] < rs->nown) {
          f[6 * r->node[0] + i] -= p[i] - kd[i];
          f[6 * r->node[0] + 3 + i] += md[i];
        }
      }
      if (energy && r->own) *energy += 0.5 * (d[0] * (p[0] - kd[0]) + d[1] * (p[1] - kd[1]) + d[2] * (p[2] - kd[2]));
    }
  }
  PetscFunctionReturn(0);
}

/* Ke (6 nn square, row-major) += the rotational tangent of spring r minus the linear one. */
static void RotationalTangent(const RotSpring *r, PetscInt nn, const PetscReal s[], PetscReal Ke[])
{
  PetscReal Ra[9], phi[3], pa[3], pb[3], g[3], G[9], Ti[9], GT[9], Q[9], mb[3];
  const int n = 6 * (int)nn, b = 6 * ((int)nn - 1) + 3, a = 3; /* rows and columns of theta_b and theta_a */

  Kinematics(r, s, Ra, phi, pa, pb);
  Moment(r->K, phi, g, G);
  FlxRotTangentInverse(phi, Ti);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      GT[3 * i + j] = G[3 * i] * Ti[j] + G[3 * i + 1] * Ti[3 + j] + G[3 * i + 2] * Ti[6 + j];
  for (int i = 0; i < 3; i++) /* Q = R_a G T^-1 R_a^T */
    for (int j = 0; j < 3; j++) {
      PetscReal q = 0;
      for (int p = 0; p < 3; p++)
        for (int l = 0; l < 3; l++)
          q += Ra[3 * i + p] * GT[3 * p + l] * Ra[3 * j + l];
      Q[3 * i + j] = q;
    }
  FlxRotMatVec(Ra, g, mb);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      const PetscReal qk = Q[3 * i + j] - r->K[3 * i + j]; /* exact minus linear */
      Ke[n * (b + i) + b + j] += qk;
      if (nn == 2) {
        const PetscReal sk = (i == j) ? 0 : ((j == (i + 1) % 3) ? -mb[3 - i - j] : mb[3 - i - j]); /* skew(m_b)_ij */
        Ke[n * (b + i) + a + j] += -sk - qk;
        Ke[n * (a + i) + a + j] += sk + qk;
        Ke[n * (a + i) + b + j] += -qk;
      }
    }
}

/* Ke (12 x 12, nodes a, b) += the translational tangent of spring r minus the linear one (the header's dp, dm_a). */
static void TranslationalTangent(const RotSpring *r, const PetscReal s[], PetscReal Ke[])
{
  PetscReal K[9], d[3], p[3], Sd[9], Sp[9], P[9], S[9], W[9];

  TransKinematics(r, s, K, d, p);
  FlxRotSkew(d, Sd);
  FlxRotSkew(p, Sp);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      PetscReal kd = 0, dk = 0;
      for (int l = 0; l < 3; l++) {
        kd += K[3 * i + l] * Sd[3 * l + j];
        dk += Sd[3 * i + l] * K[3 * l + j];
      }
      P[3 * i + j] = kd - Sp[3 * i + j]; /* dp/dw = K skew(d) - skew(p) */
      S[3 * i + j] = Sp[3 * i + j] - dk; /* dm_a/dd = skew(p) - skew(d) K */
    }
  for (int i = 0; i < 3; i++) /* dm_a/dw = -skew(d) P */
    for (int j = 0; j < 3; j++)
      W[3 * i + j] = -(Sd[3 * i] * P[j] + Sd[3 * i + 1] * P[3 + j] + Sd[3 * i + 2] * P[6 + j]);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) { /* rows and columns: u_a 0, theta_a 3, u_b 6 */
      const PetscReal D = K[3 * i + j] - r->Kt[3 * i + j];
      Ke[12 * (6 + i) + 6 + j] += D;
      Ke[12 * (6 + i) + j] -= D;
      Ke[12 * (6 + i) + 3 + j] += P[3 * i + j];
      Ke[12 * i + 6 + j] -= D;
      Ke[12 * i + j] += D;
      Ke[12 * i + 3 + j] -= P[3 * i + j];
      Ke[12 * (3 + i) + 6 + j] += S[3 * i + j];
      Ke[12 * (3 + i) + j] -= S[3 * i + j];
      Ke[12 * (3 + i) + 3 + j] += W[3 * i + j];
    }
}

PetscErrorCode FlxRotSpringsAddTangent(FlxModel m, FlxRotSprings rs, const PetscReal s[], Mat J)
{
  PetscFunctionBegin;
  if (!rs) PetscFunctionReturn(0);
  for (PetscInt k = 0; k < rs->n; k++) {
    const RotSpring *r  = &rs->s[k];
    const PetscInt   nn = r->node[0] < 0 ? 1 : 2, nodes[2] = {nn == 2 ? r->node[0] : r->node[1], r->node[1]};
    PetscReal        Ke[144] = {0};
    if (r->rot) RotationalTangent(r, nn, s, Ke);
    if (r->trans) TranslationalTangent(r, s, Ke);
    PetscCall(FlxModelAddOwnedRows(m, J, nn, nodes, Ke, NULL));
  }
  PetscFunctionReturn(0);
}
