/* Beam section shapes: area, second moments, torsion constant, shear areas and stress-recovery points from
   the dimensions of a rectangle, solid circle, tube, box or I-section.

   Axes: the depth h runs along local y (the orientation vector's direction), the width b along local z, so
   Iz = b h^3 / 12 is the strong axis of a deep rectangle and bending in the local x-y plane uses it.

   Torsion constants. Rectangle: Saint-Venant's series (Timoshenko and Goodier, Theory of Elasticity, 3rd ed.,
   section 109), J = l s^3 [1/3 - 64 s / (pi^5 l) sum_{n odd} tanh(n pi l / 2 s) / n^5] with s <= l, which gives
   0.140577 a^4 for a square. Circle and tube: the polar moment (exact). Box: Bredt's thin-walled formula on
   the wall centre lines, J = 4 A_m^2 / (2 b_m / tf + 2 h_m / tw). I-section: open thin-walled,
   J = (2 b tf^3 + (h - 2 tf) tw^3) / 3.

   Shear areas kappa A with Cowper's factors (G. R. Cowper, "The shear coefficient in Timoshenko's beam theory",
   J. Appl. Mech. 33, 1966, Table 1): rectangle 10(1+nu)/(12+11nu); circle 6(1+nu)/(7+6nu); tube with
   m = r_i/r_o 6(1+nu)(1+m^2)^2/((7+6nu)(1+m^2)^2+(20+12nu)m^2); thin-walled box and I-section (web direction)
   with m and n from the centre-line dimensions. The I-section's flange direction takes the rectangle's factor
   on the two flanges (2 b tf), which carry that shear.

   Stress-recovery points: the extreme fibres (corners, flange tips, eight points around circles) and the points
   of largest shear (mid-sides, webs at the neutral axis). Shear stress along the boundary tangent
   tau = cT T + cVy Vy + cVz Vz: torsion from the same theory as J (rectangle: the series' stress at mid-side;
   circle and tube T r / J; box T / (2 A_m t); I-section T t / J); transverse shear from Jourawski's formula
   (rectangle 1.5 V / A at mid-side, circle 4 V / 3A at the neutral axis varying as the sine of the angle, tube
   and box and I-section from their thin-walled shear flows). */
#include <flexure/private/elementimpl.h>

const char *const FlxSectionShapes[] = {"none", "rectangle", "circle", "tube", "box", "isection", "FlxSectionShape", "FLX_SHAPE_", NULL};

PetscBool FlxSectionShapeUses(FlxSectionShape shape, const char key[])
{
  static const char *const keys[][5] = {
      {NULL},
      {"b", "h", NULL},
      {"d", NULL},
      {"d", "t", NULL},
      {"b", "h", "tf", "tw", NULL},
      {"b", "h", "tf", "tw", NULL},
  };
  for (int k = 0; keys[shape][k]; k++)
    if (!strcmp(keys[shape][k], key)) return PETSC_TRUE;
  return PETSC_FALSE;
}

PetscReal FlxRectangleTorsionConstant(PetscReal b, PetscReal h)
{
  PetscReal s = PetscMin(b, h), l = PetscMax(b, h), sum = 0;
  for (int n = 1; n < 2000; n += 2)
    sum += PetscTanhReal(n * PETSC_PI * l / (2 * s)) / PetscPowRealInt(n, 5);
  return l * s * s * s * (1.0 / 3 - 64 * s / (PetscPowRealInt(PETSC_PI, 5) * l) * sum);
}

/* Torsion shear stress at the middle of a side of length ls of a rectangle whose other side is d, per unit
   G theta (so tau = f T / J). Two forms of the same series, each used where it converges fast. */
static PetscReal RectangleMidSideShear(PetscReal ls, PetscReal d)
{
  PetscReal sum = 0;
  if (ls >= d) {
    for (int n = 1; n < 200; n += 2) {
      PetscReal x = n * PETSC_PI * ls / (2 * d);
      if (x > 700) break;
      sum += 1 / (n * n * PetscCoshReal(x));
    }
    return d * (1 - 8 / (PETSC_PI * PETSC_PI) * sum);
  } else {
    const PetscReal catalan = 0.91596559417721901505;
    for (int n = 1, k = 0; n < 200; n += 2, k++) {
      PetscReal x = n * PETSC_PI * d / (2 * ls);
      if (x > 350) break;
      sum += (k % 2 ? -1 : 1) * 2 / ((PetscExpReal(2 * x) + 1) * n * n); /* (1 - tanh x) / n^2 */
    }
    return 8 * ls / (PETSC_PI * PETSC_PI) * (catalan - sum);
  }
}

static void AddPoint(FlxRecoveryPoints *rp, PetscReal y, PetscReal z, PetscReal cT, PetscReal cVy, PetscReal cVz)
{
  rp->y[rp->n]     = y;
  rp->z[rp->n]     = z;
  rp->cT[rp->n]    = cT;
  rp->cVy[rp->n]   = cVy;
  rp->cVz[rp->n++] = cVz;
}

/* Cowper's factor of thin-walled box and I-sections (Table 1); extra is the term in n^2. */
static PetscReal CowperThinWalled(PetscReal nu, PetscReal m, PetscReal extra)
{
  PetscReal num = 10 * (1 + nu) * PetscSqr(1 + 3 * m);
  PetscReal den = (12 + 72 * m + 150 * m * m + 90 * m * m * m) + nu * (11 + 66 * m + 135 * m * m + 90 * m * m * m) + extra;
  return num / den;
}

static PetscErrorCode Rectangle(const FlxShapeDimensions *dm, FlxSectionProps *p)
{
  const PetscReal b = dm->b, h = dm->h, kappa = 10 * (1 + p->nu) / (12 + 11 * p->nu);
  PetscReal       fb, fh;

  PetscFunctionBegin;
  p->A   = b * h;
  p->Iz  = b * h * h * h / 12;
  p->Iy  = h * b * b * b / 12;
  p->J   = FlxRectangleTorsionConstant(b, h);
  p->Asy = p->Asz = kappa * p->A;
  fb              = RectangleMidSideShear(b, h) / p->J; /* the sides y = +-h/2 have length b */
  fh              = RectangleMidSideShear(h, b) / p->J; /* the sides z = +-b/2 have length h */
  for (int sy = -1; sy <= 1; sy += 2)
    for (int sz = -1; sz <= 1; sz += 2)
      AddPoint(&p->rp, sy * h / 2, sz * b / 2, 0, 0, 0);
  for (int s = -1; s <= 1; s += 2) {
    AddPoint(&p->rp, s * h / 2, 0, fb, 0, s * 1.5 / p->A);  /* tangent s z */
    AddPoint(&p->rp, 0, s * b / 2, fh, -s * 1.5 / p->A, 0); /* tangent -s y */
  }
  PetscFunctionReturn(0);
}

/* Eight points at 45 degrees on the outer radius r; shear of Vy and Vz at the neutral axis cv. */
static void RoundPoints(FlxRecoveryPoints *rp, PetscReal r, PetscReal cT, PetscReal cv)
{
  for (int k = 0; k < 8; k++) {
    PetscReal phi = k * PETSC_PI / 4, c = PetscCosReal(phi), s = PetscSinReal(phi);
    AddPoint(rp, r * c, r * s, cT, -cv * s, cv * c); /* tangent (-sin, cos) */
  }
}

static PetscErrorCode Round(FlxSectionShape shape, const FlxShapeDimensions *dm, FlxSectionProps *p)
{
  const PetscReal ro = dm->d / 2, ri = shape == FLX_SHAPE_TUBE ? ro - dm->t : 0, nu = p->nu;
  PetscReal       kappa;

  PetscFunctionBegin;
  p->A  = PETSC_PI * (ro * ro - ri * ri);
  p->Iy = p->Iz = PETSC_PI / 4 * (PetscPowRealInt(ro, 4) - PetscPowRealInt(ri, 4));
  p->J          = 2 * p->Iy;
  if (shape == FLX_SHAPE_TUBE) {
    PetscReal m = ri / ro, q = PetscSqr(1 + m * m);
    kappa = 6 * (1 + nu) * q / ((7 + 6 * nu) * q + (20 + 12 * nu) * m * m);
    RoundPoints(&p->rp, ro, ro / p->J, 1 / (PETSC_PI * (ro + ri) / 2 * dm->t)); /* thin-walled: 2 V / A */
  } else {
    kappa = 6 * (1 + nu) / (7 + 6 * nu);
    RoundPoints(&p->rp, ro, ro / p->J, 4 / (3 * p->A));
  }
  p->Asy = p->Asz = kappa * p->A;
  PetscFunctionReturn(0);
}

static PetscErrorCode Box(const FlxShapeDimensions *dm, FlxSectionProps *p)
{
  const PetscReal b = dm->b, h = dm->h, tf = dm->tf, tw = dm->tw, bm = b - tw, hm = h - tf, Am = bm * hm, nu = p->nu;
  PetscReal       qy, qz, m, n;

  PetscFunctionBegin;
  p->A  = b * h - (b - 2 * tw) * (h - 2 * tf);
  p->Iz = (b * h * h * h - (b - 2 * tw) * PetscPowRealInt(h - 2 * tf, 3)) / 12;
  p->Iy = (h * b * b * b - (h - 2 * tf) * PetscPowRealInt(b - 2 * tw, 3)) / 12;
  p->J  = 4 * Am * Am / (2 * bm / tf + 2 * hm / tw);
  /* Vy: webs (thickness tw, depth hm) carry it; flanges of width bm, thickness tf */
  m      = bm * tf / (hm * tw);
  n      = bm / hm;
  p->Asy = CowperThinWalled(nu, m, 10 * n * n * ((3 + nu) * m + 3 * m * m)) * p->A;
  m      = hm * tw / (bm * tf);
  n      = hm / bm;
  p->Asz = CowperThinWalled(nu, m, 10 * n * n * ((3 + nu) * m + 3 * m * m)) * p->A;
  /* shear flows: at the corners and the middle of the walls */
  qy = (tf * bm * hm / 4 + tw * hm * hm / 8) / p->Iz; /* web middle, per unit Vy */
  qz = (tw * hm * bm / 4 + tf * bm * bm / 8) / p->Iy; /* flange middle, per unit Vz */
  for (int sy = -1; sy <= 1; sy += 2)
    for (int sz = -1; sz <= 1; sz += 2) /* corners, on the flange (tangent sy z) */
      AddPoint(&p->rp, sy * h / 2, sz * b / 2, 1 / (2 * Am * tf), -sz * bm * hm / (4 * p->Iz), sy * tw * hm * bm / (4 * p->Iy * tf));
  for (int s = -1; s <= 1; s += 2) {
    AddPoint(&p->rp, s * h / 2, 0, 1 / (2 * Am * tf), 0, s * qz / tf);  /* flange middle, tangent s z */
    AddPoint(&p->rp, 0, s * b / 2, 1 / (2 * Am * tw), -s * qy / tw, 0); /* web middle, tangent -s y */
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ISection(const FlxShapeDimensions *dm, FlxSectionProps *p)
{
  const PetscReal b = dm->b, h = dm->h, tf = dm->tf, tw = dm->tw, hw = h - 2 * tf, hm = h - tf, nu = p->nu;
  PetscReal       m, n, Q;

  PetscFunctionBegin;
  p->A   = 2 * b * tf + hw * tw;
  p->Iz  = (b * h * h * h - (b - tw) * hw * hw * hw) / 12;
  p->Iy  = (2 * tf * b * b * b + hw * tw * tw * tw) / 12;
  p->J   = (2 * b * tf * tf * tf + hw * tw * tw * tw) / 3;
  m      = 2 * b * tf / (hm * tw);
  n      = b / hm;
  p->Asy = CowperThinWalled(nu, m, 30 * n * n * (m + m * m) + 5 * nu * n * n * (8 * m + 9 * m * m)) * p->A;
  p->Asz = 10 * (1 + nu) / (12 + 11 * nu) * 2 * b * tf;
  for (int sy = -1; sy <= 1; sy += 2)
    for (int sz = -1; sz <= 1; sz += 2)
      AddPoint(&p->rp, sy * h / 2, sz * b / 2, tf / p->J, 0, 0); /* flange tips */
  Q = b * tf * hm / 2 + tw * hw * hw / 8;                        /* first moment above the neutral axis */
  for (int s = -1; s <= 1; s += 2) {
    AddPoint(&p->rp, s * h / 2, 0, tf / p->J, 0, s * b * b / (8 * p->Iy)); /* flange middle, tangent s z */
    AddPoint(&p->rp, 0, s * tw / 2, tw / p->J, -s * Q / (p->Iz * tw), 0);  /* web at the neutral axis, tangent -s y */
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxSectionShapeCompute(FlxSectionShape shape, const FlxShapeDimensions *dm, FlxSectionProps *p, char err[], size_t len)
{
  const char *keys[]  = {"b", "h", "d", "t", "tf", "tw"};
  PetscReal   vals[6] = {dm->b, dm->h, dm->d, dm->t, dm->tf, dm->tw};

  PetscFunctionBegin;
  for (int k = 0; k < 6; k++)
    if (FlxSectionShapeUses(shape, keys[k]) && !(vals[k] > 0 && !PetscIsInfOrNanReal(vals[k]))) {
      snprintf(err, len, "dimension %s = %g of the %s must be positive and finite", keys[k], (double)vals[k], FlxSectionShapes[shape]);
      PetscFunctionReturn(PETSC_ERR_USER_INPUT);
    }
  if (shape == FLX_SHAPE_TUBE && !(dm->t < dm->d / 2)) {
    snprintf(err, len, "wall thickness t = %g must be below d/2 = %g (a solid bar is the shape circle)", (double)dm->t, (double)(dm->d / 2));
    PetscFunctionReturn(PETSC_ERR_USER_INPUT);
  }
  if ((shape == FLX_SHAPE_BOX || shape == FLX_SHAPE_ISECTION) && !(2 * dm->tf < dm->h)) {
    snprintf(err, len, "the two %s tf = %g must be thinner than the depth h = %g", shape == FLX_SHAPE_BOX ? "walls" : "flanges", (double)dm->tf, (double)dm->h);
    PetscFunctionReturn(PETSC_ERR_USER_INPUT);
  }
  if (shape == FLX_SHAPE_BOX && !(2 * dm->tw < dm->b)) {
    snprintf(err, len, "the two walls tw = %g must be thinner than the width b = %g", (double)dm->tw, (double)dm->b);
    PetscFunctionReturn(PETSC_ERR_USER_INPUT);
  }
  if (shape == FLX_SHAPE_ISECTION && !(dm->tw <= dm->b)) {
    snprintf(err, len, "the web tw = %g must not be wider than the flanges b = %g", (double)dm->tw, (double)dm->b);
    PetscFunctionReturn(PETSC_ERR_USER_INPUT);
  }
  p->rp.n = 0;
  switch (shape) {
  case FLX_SHAPE_RECTANGLE:
    PetscCall(Rectangle(dm, p));
    break;
  case FLX_SHAPE_CIRCLE:
  case FLX_SHAPE_TUBE:
    PetscCall(Round(shape, dm, p));
    break;
  case FLX_SHAPE_BOX:
    PetscCall(Box(dm, p));
    break;
  case FLX_SHAPE_ISECTION:
    PetscCall(ISection(dm, p));
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "no shape");
  }
  PetscFunctionReturn(0);
}

void FlxSectionStresses(const FlxSectionProps *p, const PetscReal s[6], PetscReal *smax, PetscReal *smin, PetscReal *vm)
{
  const FlxRecoveryPoints *rp = &p->rp;
  *smax                       = -PETSC_MAX_REAL;
  *smin                       = PETSC_MAX_REAL;
  *vm                         = 0;
  for (PetscInt k = 0; k < rp->n; k++) {
    PetscReal sig = s[0] / p->A + s[4] * rp->z[k] / p->Iy - s[5] * rp->y[k] / p->Iz;
    PetscReal tau = rp->cT[k] * s[3] + rp->cVy[k] * s[1] + rp->cVz[k] * s[2];
    *smax         = PetscMax(*smax, sig);
    *smin         = PetscMin(*smin, sig);
    *vm           = PetscMax(*vm, PetscSqrtReal(sig * sig + 3 * tau * tau));
  }
}
