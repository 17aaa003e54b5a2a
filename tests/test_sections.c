/* Unit checks of the beam section shapes (A, Iy, Iz, J, shear areas and stresses against closed forms and
   published tables) and of the beam element's line loads and section forces (one-element cantilevers under
   every uniform distributed load, against the exact Timoshenko solution). */
#include <flexure/flexure.h>

static PetscInt fails = 0;

static void Check(PetscBool ok, const char *what, double value, double ref, double rel)
{
  printf("%s: %s %.12g (reference %.12g, relative %.2e, tolerance %.0e)\n", ok ? "PASS" : "FAIL", what, value, ref, ref != 0 ? fabs(value / ref - 1) : fabs(value), rel);
  if (!ok) fails++;
}

static void Near(const char *what, double value, double ref, double rel)
{
  Check(fabs(value - ref) <= rel * fabs(ref), what, value, ref, rel);
}

static void Abs(const char *what, double value, double ref, double tol)
{
  PetscBool ok = fabs(value - ref) <= tol ? PETSC_TRUE : PETSC_FALSE;
  printf("%s: %s %.12g (reference %.12g, difference %.2e, tolerance %.0e)\n", ok ? "PASS" : "FAIL", what, value, ref, fabs(value - ref), tol);
  if (!ok) fails++;
}

static PetscErrorCode Shape(FlxSectionShape shape, FlxShapeDimensions d, FlxSectionProps *p)
{
  char err[256];

  PetscFunctionBegin;
  p->E  = 210e9;
  p->nu = 0.3;
  p->G  = p->E / 2.6;
  PetscCall(FlxSectionShapeCompute(shape, &d, p, err, sizeof(err)));
  PetscFunctionReturn(0);
}

static PetscErrorCode Shapes(void)
{
  FlxSectionProps    p  = {0};
  const double       nu = 0.3, pi = PETSC_PI;
  double             smax, smin, vm;
  FlxShapeDimensions d;

  PetscFunctionBegin;
  { /* rectangle b x h: h along y */
    const double b = 0.03, h = 0.07, k = 10 * (1 + nu) / (12 + 11 * nu);
    d = (FlxShapeDimensions){.b = b, .h = h};
    PetscCall(Shape(FLX_SHAPE_RECTANGLE, d, &p));
    Near("rectangle A = b h", p.A, b * h, 1e-14);
    Near("rectangle Iz = b h^3/12", p.Iz, b * h * h * h / 12, 1e-14);
    Near("rectangle Iy = h b^3/12", p.Iy, h * b * b * b / 12, 1e-14);
    Near("rectangle shear areas = Cowper 10(1+nu)/(12+11nu) A", p.Asy, k * b * h, 1e-14);
    Near("rectangle Asz", p.Asz, k * b * h, 1e-14);
    { /* pure bending and tension: extreme fibres */
      const PetscReal s[6] = {1000, 0, 0, 0, 50, -80};
      FlxSectionStresses(&p, s, &smax, &smin, &vm);
      Near("rectangle extreme fibre N/A + |My| b/2Iy + |Mz| h/2Iz", smax, 1000 / p.A + 50 * b / 2 / p.Iy + 80 * h / 2 / p.Iz, 1e-14);
      Near("rectangle smallest fibre stress", smin, 1000 / p.A - 50 * b / 2 / p.Iy - 80 * h / 2 / p.Iz, 1e-14);
      Near("rectangle von Mises = extreme fibre (no shear)", vm, smax, 1e-14);
    }
    { /* shear: 1.5 V / A at the neutral axis */
      const PetscReal s[6] = {0, 700, 0, 0, 0, 0};
      FlxSectionStresses(&p, s, &smax, &smin, &vm);
      Near("rectangle shear Vy: von Mises sqrt(3) 1.5 V/A", vm, PetscSqrtReal(3.0) * 1.5 * 700 / p.A, 1e-14);
    }
  }
  { /* torsion constants against the series (Timoshenko and Goodier) and the tables (k1 a b^3, tau = T / (k2 a b^2)) */
    const double ratio[3] = {1, 2, 10}, k1[3] = {0.1406, 0.229, 0.312}, k2[3] = {0.208, 0.246, 0.312};
    for (int i = 0; i < 3; i++) {
      const PetscReal s[6] = {0, 0, 0, 1, 0, 0};
      char            what[128];
      d = (FlxShapeDimensions){.b = 0.02, .h = 0.02 * ratio[i]};
      PetscCall(Shape(FLX_SHAPE_RECTANGLE, d, &p));
      snprintf(what, sizeof(what), "rectangle %g:1 J / (h b^3) vs the table's k1 (3 digits)", ratio[i]);
      Abs(what, p.J / (d.h * d.b * d.b * d.b), k1[i], 5e-4);
      FlxSectionStresses(&p, s, &smax, &smin, &vm);
      snprintf(what, sizeof(what), "rectangle %g:1 largest torsion stress: k2 = T / (tau h b^2) vs the table's (3 digits)", ratio[i]);
      Abs(what, 1 / (vm / PetscSqrtReal(3.0) * d.h * d.b * d.b), k2[i], 5e-4);
    }
    d = (FlxShapeDimensions){.b = 0.05, .h = 0.05};
    PetscCall(Shape(FLX_SHAPE_RECTANGLE, d, &p));
    Abs("square J / a^4 = 0.1406", p.J / PetscPowRealInt(0.05, 4), 0.1406, 1e-4);
    Near("square J / a^4 = 0.1405770149551555 (series to 2000 terms)", p.J / PetscPowRealInt(0.05, 4), 0.1405770149551555, 1e-12);
    Near("rectangle J symmetric in b and h", FlxRectangleTorsionConstant(0.02, 0.07), FlxRectangleTorsionConstant(0.07, 0.02), 1e-15);
  }
  { /* solid circle */
    const double D = 0.04, A = pi * D * D / 4, Ic = pi * D * D * D * D / 64;
    d = (FlxShapeDimensions){.d = D};
    PetscCall(Shape(FLX_SHAPE_CIRCLE, d, &p));
    Near("circle A = pi d^2/4", p.A, A, 1e-14);
    Near("circle Iy = Iz = pi d^4/64", p.Iy, Ic, 1e-14);
    Near("circle Iz", p.Iz, Ic, 1e-14);
    Near("circle J = pi d^4/32", p.J, 2 * Ic, 1e-14);
    Near("circle shear area = Cowper 6(1+nu)/(7+6nu) A", p.Asy, 6 * (1 + nu) / (7 + 6 * nu) * A, 1e-14);
    {
      const PetscReal s[6] = {0, 0, 0, 30, 0, 0}, b[6] = {0, 0, 0, 0, 40, 0}, v[6] = {0, 0, 500, 0, 0, 0};
      FlxSectionStresses(&p, s, &smax, &smin, &vm);
      Near("circle torsion: von Mises sqrt(3) T r / J", vm, PetscSqrtReal(3.0) * 30 * D / 2 / (2 * Ic), 1e-14);
      FlxSectionStresses(&p, b, &smax, &smin, &vm);
      Near("circle bending: extreme fibre M r / I", smax, 40 * D / 2 / Ic, 1e-14);
      FlxSectionStresses(&p, v, &smax, &smin, &vm);
      Near("circle shear Vz: von Mises sqrt(3) 4 V / 3A", vm, PetscSqrtReal(3.0) * 4 * 500 / (3 * A), 1e-14);
    }
  }
  { /* tubes: exact polar moment; thin tube against 2 pi r^3 t within its thin-wall error (t/r)^2/4 */
    const double D = 0.2, t = 0.002, r = (D - t) / 2, ro = D / 2, ri = D / 2 - t, m = ri / ro;
    double       e, q = PetscSqr(1 + m * m);
    d = (FlxShapeDimensions){.d = D, .t = t};
    PetscCall(Shape(FLX_SHAPE_TUBE, d, &p));
    Near("thin tube A = 2 pi r t (exact with the mean radius)", p.A, 2 * pi * r * t, 1e-13);
    Near("tube I = pi (ro^4 - ri^4)/4", p.Iz, pi / 4 * (pow(ro, 4) - pow(ri, 4)), 1e-14);
    e = p.J / (2 * pi * r * r * r * t) - 1;
    Check(e > 0 && e <= t * t / (4 * r * r) * (1 + 1e-6) ? PETSC_TRUE : PETSC_FALSE, "thin tube J / (2 pi r^3 t) - 1 within the thin-wall error (t/r)^2/4", e, t * t / (4 * r * r), 0);
    Near("tube shear area = Cowper 6(1+nu)(1+m^2)^2/((7+6nu)(1+m^2)^2+(20+12nu)m^2) A", p.Asy, 6 * (1 + nu) * q / ((7 + 6 * nu) * q + (20 + 12 * nu) * m * m) * p.A, 1e-14);
    Abs("thin tube Cowper factor -> 2(1+nu)/(4+3nu)", p.Asy / p.A, 2 * (1 + nu) / (4 + 3 * nu), 2e-4);
    {
      const PetscReal v[6] = {0, 900, 0, 0, 0, 0};
      FlxSectionStresses(&p, v, &smax, &smin, &vm);
      Near("thin tube shear: von Mises sqrt(3) 2 V / A", vm, PetscSqrtReal(3.0) * 2 * 900 / p.A, 1e-13);
    }
  }
  { /* box: exact A and I; Bredt's J on the centre line; Cowper's thin-walled square tube 20(1+nu)/(48+39nu) */
    const double b = 0.1, h = 0.16, tf = 0.006, tw = 0.004, bm = b - tw, hm = h - tf, Am = bm * hm;
    d = (FlxShapeDimensions){.b = b, .h = h, .tf = tf, .tw = tw};
    PetscCall(Shape(FLX_SHAPE_BOX, d, &p));
    Near("box A", p.A, 2 * b * tf + 2 * (h - 2 * tf) * tw, 1e-14);
    Near("box Iz", p.Iz, (b * h * h * h - (b - 2 * tw) * pow(h - 2 * tf, 3)) / 12, 1e-14);
    Near("box J = 4 Am^2 / sum(s/t) (Bredt)", p.J, 4 * Am * Am / (2 * bm / tf + 2 * hm / tw), 1e-14);
    {
      const PetscReal s[6] = {0, 0, 0, 250, 0, 0};
      FlxSectionStresses(&p, s, &smax, &smin, &vm);
      Near("box torsion: von Mises sqrt(3) T / (2 Am t_min)", vm, PetscSqrtReal(3.0) * 250 / (2 * Am * tw), 1e-14);
    }
    d = (FlxShapeDimensions){.b = 0.1, .h = 0.1, .tf = 0.001, .tw = 0.001};
    PetscCall(Shape(FLX_SHAPE_BOX, d, &p));
    Near("thin square box: Cowper factor 20(1+nu)/(48+39nu)", p.Asy / p.A, 20 * (1 + nu) / (48 + 39 * nu), 1e-14);
    Near("thin square box: Asz = Asy", p.Asz, p.Asy, 1e-14);
  }
  { /* I-section */
    const double b = 0.1, h = 0.2, tf = 0.0085, tw = 0.0056, hw = h - 2 * tf, hm = h - tf;
    const double m = 2 * b * tf / (hm * tw), n = b / hm;
    const double k = 10 * (1 + nu) * pow(1 + 3 * m, 2) / (12 + 72 * m + 150 * m * m + 90 * m * m * m + nu * (11 + 66 * m + 135 * m * m + 90 * m * m * m) + 30 * n * n * (m + m * m) + 5 * nu * n * n * (8 * m + 9 * m * m));
    d              = (FlxShapeDimensions){.b = b, .h = h, .tf = tf, .tw = tw};
    PetscCall(Shape(FLX_SHAPE_ISECTION, d, &p));
    Near("I-section A = 2 b tf + (h - 2 tf) tw", p.A, 2 * b * tf + hw * tw, 1e-14);
    Near("I-section Iz (strong axis)", p.Iz, b * h * h * h / 12 - (b - tw) * hw * hw * hw / 12, 1e-14);
    Near("I-section Iy (weak axis)", p.Iy, 2 * tf * b * b * b / 12 + hw * tw * tw * tw / 12, 1e-14);
    Near("I-section J = sum b t^3 / 3 (open thin-walled)", p.J, (2 * b * tf * tf * tf + hw * tw * tw * tw) / 3, 1e-14);
    Near("I-section web shear area: Cowper", p.Asy, k * p.A, 1e-14);
    Check(p.Asy > 0.9 * hw * tw && p.Asy < 1.3 * h * tw, "I-section web shear area close to the web area", p.Asy, h * tw, 0.3);
    {
      const PetscReal v[6] = {0, 1e4, 0, 0, 0, 0}, t[6] = {0, 0, 0, 20, 0, 0};
      const double    Q = b * tf * hm / 2 + tw * hw * hw / 8;
      FlxSectionStresses(&p, v, &smax, &smin, &vm);
      Near("I-section web shear at the neutral axis: von Mises sqrt(3) V Q / (I tw)", vm, PetscSqrtReal(3.0) * 1e4 * Q / (p.Iz * tw), 1e-14);
      FlxSectionStresses(&p, t, &smax, &smin, &vm);
      Near("I-section torsion: von Mises sqrt(3) T tf / J (thickest wall)", vm, PetscSqrtReal(3.0) * 20 * tf / p.J, 1e-14);
    }
  }
  { /* impossible and missing dimensions are refused */
    char           err[256] = "";
    PetscErrorCode ierr;
    d    = (FlxShapeDimensions){.d = 0.1, .t = 0.05};
    ierr = FlxSectionShapeCompute(FLX_SHAPE_TUBE, &d, &p, err, sizeof(err));
    Check(ierr == PETSC_ERR_USER_INPUT, "tube t >= d/2 refused", ierr, PETSC_ERR_USER_INPUT, 0);
    printf("  (%s)\n", err);
    d    = (FlxShapeDimensions){.b = 0.1, .h = -0.2};
    ierr = FlxSectionShapeCompute(FLX_SHAPE_RECTANGLE, &d, &p, err, sizeof(err));
    Check(ierr == PETSC_ERR_USER_INPUT, "negative dimension refused", ierr, PETSC_ERR_USER_INPUT, 0);
    printf("  (%s)\n", err);
    d    = (FlxShapeDimensions){.b = 0.1, .h = 0.2, .tf = 0.1, .tw = 0.01};
    ierr = FlxSectionShapeCompute(FLX_SHAPE_ISECTION, &d, &p, err, sizeof(err));
    Check(ierr == PETSC_ERR_USER_INPUT, "I-section with 2 tf >= h refused", ierr, PETSC_ERR_USER_INPUT, 0);
    printf("  (%s)\n", err);
  }
  PetscFunctionReturn(0);
}

/* Solve the 6 x 6 system of the free node (DOFs 6..11) of a one-element cantilever: u = K22^-1 f2. */
static void SolveTip(const PetscReal K[144], const PetscReal f[12], PetscReal u[12])
{
  PetscReal A[6][7];
  for (int i = 0; i < 6; i++) {
    for (int j = 0; j < 6; j++)
      A[i][j] = K[(6 + i) * 12 + 6 + j];
    A[i][6] = f[6 + i];
  }
  for (int c = 0; c < 6; c++) {
    int piv = c;
    for (int r = c + 1; r < 6; r++)
      if (fabs(A[r][c]) > fabs(A[piv][c])) piv = r;
    for (int j = 0; j < 7; j++) {
      PetscReal tmp = A[c][j];
      A[c][j]       = A[piv][j];
      A[piv][j]     = tmp;
    }
    for (int r = 0; r < 6; r++)
      if (r != c) {
        PetscReal q = A[r][c] / A[c][c];
        for (int j = c; j < 7; j++)
          A[r][j] -= q * A[c][j];
      }
  }
  for (int i = 0; i < 6; i++) {
    u[i]     = 0;
    u[6 + i] = A[i][6] / A[i][i];
  }
}

/* One-element cantilever (clamped at node 0) under a uniform distributed load: exact Timoshenko tip
   displacements and root section forces, for forces and moments per length along each local axis. */
static PetscErrorCode LineLoads(void)
{
  FlxElementOps   ops;
  FlxSectionProps p = {0};
  const PetscReal L = 1.7, q = 350;
  PetscReal       xyz[6] = {0.2, -0.1, 0.3, 0, 0, 0}, R[3][3] = {{0}};
  char            err[256];

  PetscFunctionBegin;
  PetscCall(FlxElementGetOps(FLXELEMENTBEAM3D, &ops));
  p.E = 210e9, p.nu = 0.3, p.G = p.E / 2.6, p.rho = 7850, p.rotary_scale = 1;
  p.A = 4e-4, p.Iy = 1.2e-8, p.Iz = 2.1e-8, p.J = 2.0e-8, p.Asy = 0.7 * p.A, p.Asz = 0.6 * p.A; /* stocky: Phi about 0.003 */
  p.Iy *= 300, p.Iz *= 300;                                                                     /* Phi of order 1, so shear matters */
  p.has_orient = PETSC_TRUE, p.orient[0] = 0.3, p.orient[1] = 1, p.orient[2] = 0.2;
  { /* a skew element: local axes from the orientation vector (as in the element) */
    PetscReal dx[3] = {0.6, 0.8, 0}, v[3] = {p.orient[0], p.orient[1], p.orient[2]}, z[3], n;
    for (int c = 0; c < 3; c++)
      xyz[3 + c] = xyz[c] + L * dx[c];
    z[0] = dx[1] * v[2] - dx[2] * v[1], z[1] = dx[2] * v[0] - dx[0] * v[2], z[2] = dx[0] * v[1] - dx[1] * v[0];
    n = PetscSqrtReal(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
    for (int c = 0; c < 3; c++)
      R[0][c] = dx[c], R[2][c] = z[c] / n;
    R[1][0] = R[2][1] * dx[2] - R[2][2] * dx[1], R[1][1] = R[2][2] * dx[0] - R[2][0] * dx[2], R[1][2] = R[2][0] * dx[1] - R[2][1] * dx[0];
  }
  for (int comp = 0; comp < 6; comp++)
    for (int glob = 0; glob < 2; glob++) {
      PetscReal K[144], f[12], u[12], ul[12], ql[6] = {0}, qg[6] = {0}, r[12], ex[12] = {0}, fx[12] = {0};
      PetscReal EI = comp == 1 || comp == 5 ? p.E * p.Iz : p.E * p.Iy, kGA = comp == 1 ? p.G * p.Asy : p.G * p.Asz, err_u = 0, err_f = 0, umax = 0, fmax = 0;
      char      what[160];
      ql[comp] = q;
      for (int h = 0; h < 2; h++)
        for (int c = 0; c < 3; c++)
          qg[3 * h + c] = R[0][c] * ql[3 * h] + R[1][c] * ql[3 * h + 1] + R[2][c] * ql[3 * h + 2];
      PetscCall(ops->stiffness(xyz, &p, K, err, sizeof(err)));
      PetscCall(ops->line_load(xyz, &p, glob ? qg : ql, glob ? PETSC_FALSE : PETSC_TRUE, f));
      SolveTip(K, f, u);
      for (int a = 0; a < 4; a++)
        for (int c = 0; c < 3; c++)
          ul[3 * a + c] = R[c][0] * u[3 * a] + R[c][1] * u[3 * a + 1] + R[c][2] * u[3 * a + 2];
      /* exact tip displacements (local) and root section forces (reversed reactions) */
      switch (comp) {
      case 0:
        ex[6] = q * L * L / (2 * p.E * p.A), fx[0] = q * L;
        break; /* qx: N(0) = q L */
      case 3:
        ex[9] = q * L * L / (2 * p.G * p.J), fx[3] = q * L;
        break; /* mx: T(0) = m L */
      case 1:
        ex[7] = q * L * L * L * L / (8 * EI) + q * L * L / (2 * kGA), ex[11] = q * L * L * L / (6 * EI), fx[1] = q * L, fx[5] = q * L * L / 2;
        break; /* qy */
      case 2:
        ex[8] = q * L * L * L * L / (8 * EI) + q * L * L / (2 * kGA), ex[10] = -q * L * L * L / (6 * EI), fx[2] = q * L, fx[4] = -q * L * L / 2;
        break; /* qz */
      case 5:
        ex[7] = q * L * L * L / (3 * EI), ex[11] = q * L * L / (2 * EI), fx[5] = q * L;
        break; /* mz */
      case 4:
        ex[8] = -q * L * L * L / (3 * EI), ex[10] = q * L * L / (2 * EI), fx[4] = q * L;
        break; /* my */
      }
      PetscCall(ops->section_forces(xyz, &p, u, f, r));
      for (int i = 0; i < 12; i++) {
        err_u = PetscMax(err_u, PetscAbsReal(ul[i] - ex[i]));
        umax  = PetscMax(umax, PetscAbsReal(ex[i]));
        err_f = PetscMax(err_f, PetscAbsReal(r[i] - fx[i]));
        fmax  = PetscMax(fmax, PetscAbsReal(fx[i]));
      }
      snprintf(what, sizeof(what), "cantilever under a uniform %s %s (%s axes): tip displacements vs Timoshenko, largest error / largest value", comp % 3 == 0 ? "axial" : "transverse", comp < 3 ? "force" : "moment", glob ? "global" : "element");
      Check(err_u <= 1e-10 * umax, what, err_u / umax, 0, 1e-10);
      snprintf(what, sizeof(what), "  and root section forces K u - f = reactions (qL, qL^2/2), free end zero");
      Check(err_f <= 1e-10 * fmax, what, err_f / fmax, 0, 1e-10);
    }
  { /* sign convention: tension positive; same moment sign at both ends under pure bending */
    PetscReal xyz2[6] = {0, 0, 0, 2, 0, 0}, u[12] = {0}, r[12];
    p.has_orient = PETSC_FALSE;
    u[6]         = 1e-4;        /* stretch */
    u[4] = 1e-3, u[10] = -1e-3; /* local z = -global Y: local theta_z from -1e-3 to 1e-3, Mz = E Iz kappa */
    PetscCall(ops->section_forces(xyz2, &p, u, NULL, r));
    Near("tension positive: N at the first node = E A du/L", r[0], p.E * p.A * 1e-4 / 2, 1e-12);
    Near("  N at the second node the same", r[6], r[0], 1e-12);
    Near("pure bending: Mz at the first node = E Iz (theta2 - theta1) / L", r[5], p.E * p.Iz * 2e-3 / 2, 1e-10);
    Near("  Mz at the second node the same (continuous diagram)", r[11], r[5], 1e-10);
  }
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(Shapes());
  PetscCall(LineLoads());
  printf("%s: %d failed checks\n", fails ? "FAIL" : "PASS", (int)fails);
  PetscCall(PetscFinalize());
  return fails ? 1 : 0;
}
