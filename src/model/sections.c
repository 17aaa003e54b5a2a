/* Sections: beam sections (a shape with its dimensions, or explicit A, Iy, Iz, J) and shell sections, read from
   -section_NAME_*; their assignment to the cells of the mesh; and the node-set rule: a physical group without
   a section is a set of nodes (for bcs, loads, initial conditions, probes, point masses), its cells carry no
   stiffness or mass, and a group of such cells that nothing uses is an error naming it. */
#include <flexure/private/modelimpl.h>

const char *const FlxGeometries[] = {"linear", "nonlinear", "FlxGeometry", "FLX_GEOMETRY_", NULL};

PetscErrorCode FlxModelReadGeometry(FlxModel m)
{
  PetscEnum g   = (PetscEnum)0;
  PetscBool set = PETSC_FALSE, elements = PETSC_FALSE;

  PetscFunctionBegin;
  PetscOptionsBegin(m->comm, NULL, "Model", "FlxModel");
  PetscCall(PetscOptionsEnum("-model_geometry", "Kinematics of every section that does not set -section_NAME_geometry: linear (small displacements) or nonlinear (co-rotational beams, finite rotations; a model without beams or shells: its bodies on springs turn finitely)", "FlxModelSetFromOptions", FlxGeometries, g, &g, &set));
  PetscOptionsEnd();
  m->nonlinear = PETSC_FALSE;
  for (PetscInt k = 0; k < m->nsec; k++) {
    FlxSection *s = &m->sec[k];
    if (s->spring) continue;
    elements = PETSC_TRUE;
    if (!s->geomset) s->nonlinear = (PetscBool)(g == (PetscEnum)1);
    if (s->nonlinear && s->shell) {
      char groups[512] = "";
      for (PetscInt j = 0; j < s->ngroups; j++) {
        PetscCall(PetscStrlcat(groups, j ? ", " : "", sizeof(groups)));
        PetscCall(PetscStrlcat(groups, s->groups[j], sizeof(groups)));
      }
      SETERRQ(m->comm, PETSC_ERR_USER_INPUT, "section '%s' (group %s): geometry nonlinear is not available for shells yet (only beams have a co-rotational form): set -section_%s_geometry linear%s", s->name, groups, s->name, s->geomset ? "" : " (the section takes -model_geometry nonlinear)");
    }
    if (s->nonlinear) m->nonlinear = PETSC_TRUE;
  }
  if (!elements && set && g == (PetscEnum)1) m->nonlinear = PETSC_TRUE; /* no beam or shell: bodies on springs turn finitely */
  PetscFunctionReturn(0);
}

/* Element kernels of a section for one cell type, from the registry. */
static PetscErrorCode SectionElement(FlxModel m, FlxSection *s, FlxCellType t, const char opt[], const char def[])
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(s->element[t], def, FLX_NAME_LEN));
  PetscOptionsBegin(m->comm, NULL, "Section", "FlxModel");
  PetscCall(PetscOptionsString(opt, "Element type of the section for this cell type", "FlxModelSetFromOptions", s->element[t], s->element[t], FLX_NAME_LEN, NULL));
  PetscOptionsEnd();
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = FlxElementGetOps(s->element[t], &s->ops[t]);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(!ierr, m->comm, PETSC_ERR_USER_INPUT, "section '%s': unknown element type '%s' (%s); available: %s, %s, %s", s->name, s->element[t], opt, FLXELEMENTBEAM3D, FLXELEMENTMITC4, FLXELEMENTDKT3);
  PetscCheck(s->ops[t]->nnodes == FlxCellTypeNodes[t], m->comm, PETSC_ERR_USER_INPUT, "section '%s': element type '%s' (%s) has %d nodes and cannot serve %s cells", s->name, s->element[t], opt, (int)s->ops[t]->nnodes, FlxCellTypeNames[t]);
  PetscFunctionReturn(0);
}

static const char *const BeamProp[4] = {"A", "Iy", "Iz", "J"}, *const ShapeDim[6] = {"b", "h", "d", "t", "tf", "tw"};
static const char *const BeamPropHelp[4] = {"Cross-section area (m^2)", "Second moment of area about local y (m^4)", "Second moment of area about local z (m^4)", "Torsion constant (m^4)"};
static const char *const ShapeDimHelp[6] = {"Shape dimension: width along local z (m): rectangle, box, isection (flanges)", "Shape dimension: depth along local y (m): rectangle, box, isection",
                                            "Shape dimension: outer diameter (m): circle, tube", "Shape dimension: wall thickness (m): tube; box (sets tf and tw)",
                                            "Shape dimension: flange thickness (m): isection; box walls normal to local y", "Shape dimension: web thickness (m): isection; box walls normal to local z"};

/* Properties of a shape section from its dimensions (dset: which were given); explicit ones are refused. */
static PetscErrorCode ShapeProperties(FlxModel m, FlxSection *s, const char pre[], const PetscBool given[4], PetscBool dset[6])
{
  FlxShapeDimensions *dm    = &s->dims;
  const char         *shape = FlxSectionShapes[s->shape];
  char                err[256];
  PetscErrorCode      ierr;

  PetscFunctionBegin;
  for (int k = 0; k < 4; k++)
    PetscCheck(!given[k], m->comm, PETSC_ERR_USER_INPUT, "section '%s': -%s%s and -%sshape %s both given: a shape computes A, Iy, Iz and J from its dimensions; give one or the other", s->name, pre, BeamProp[k], pre, shape);
  if (s->shape == FLX_SHAPE_BOX && dset[3]) { /* t: both walls */
    PetscCheck(!dset[4] && !dset[5], m->comm, PETSC_ERR_USER_INPUT, "section '%s': a box takes -%st (both walls) or -%stf and -%stw, not both", s->name, pre, pre, pre);
    dm->tf = dm->tw = dm->t;
    dset[4] = dset[5] = PETSC_TRUE;
    dset[3]           = PETSC_FALSE;
  }
  for (int k = 0; k < 6; k++) {
    PetscBool   uses  = FlxSectionShapeUses(s->shape, ShapeDim[k]);
    const char *takes = s->shape == FLX_SHAPE_RECTANGLE ? "b, h" : s->shape == FLX_SHAPE_CIRCLE ? "d"
                                                               : s->shape == FLX_SHAPE_TUBE     ? "d, t"
                                                               : s->shape == FLX_SHAPE_BOX      ? "b, h and t, or tf and tw"
                                                                                                : "b, h, tf, tw";
    PetscCheck(uses || !dset[k], m->comm, PETSC_ERR_USER_INPUT, "section '%s': -%s%s is not a dimension of a %s (it takes %s)", s->name, pre, ShapeDim[k], shape, takes);
    PetscCheck(!uses || dset[k], m->comm, PETSC_ERR_USER_INPUT, "missing dimension: section '%s' (-%sshape %s) needs -%s%s (%s)", s->name, pre, shape, pre, ShapeDim[k], ShapeDimHelp[k]);
  }
  ierr = FlxSectionShapeCompute(s->shape, dm, &s->props, err, sizeof(err));
  PetscCheck(ierr != PETSC_ERR_USER_INPUT, m->comm, PETSC_ERR_USER_INPUT, "section '%s' (-%sshape %s): %s", s->name, pre, shape, err);
  PetscCall(ierr);
  PetscFunctionReturn(0);
}

/* Beam section: a shape with its dimensions or explicit A, Iy, Iz, J; shear areas; orientation. Shear areas:
   shear_rigid, else shear_areas, else shear_correction times A, else Cowper's (shapes) or 5/6 A. */
static PetscErrorCode ReadBeamSection(FlxModel m, FlxSection *s, const char pre[], PetscReal kappa, PetscBool kappaset)
{
  FlxSectionProps    *p  = &s->props;
  FlxShapeDimensions *dm = &s->dims;
  PetscInt            n2 = 2, n3 = 3;
  PetscReal           sa[2] = {0, 0};
  PetscBool           rigid = PETSC_FALSE, sashear, given[4], dset[6];
  PetscReal          *pv[4] = {&p->A, &p->Iy, &p->Iz, &p->J}, *dv[6] = {&dm->b, &dm->h, &dm->d, &dm->t, &dm->tf, &dm->tw};

  PetscFunctionBegin;
  PetscOptionsBegin(m->comm, pre, "Beam section", "FlxModel");
  PetscCall(PetscOptionsEnum("-shape", "Section shape (A, Iy, Iz, J, shear areas and stress points from its dimensions)", "FlxModelSetFromOptions", FlxSectionShapes, (PetscEnum)s->shape, (PetscEnum *)&s->shape, NULL));
  for (int k = 0; k < 6; k++) {
    char opt[16];
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%s", ShapeDim[k]));
    PetscCall(PetscOptionsReal(opt, ShapeDimHelp[k], "FlxModelSetFromOptions", *dv[k], dv[k], &dset[k]));
  }
  for (int k = 0; k < 4; k++) {
    char opt[16];
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%s", BeamProp[k]));
    PetscCall(PetscOptionsReal(opt, BeamPropHelp[k], "FlxModelSetFromOptions", *pv[k], pv[k], &given[k]));
  }
  PetscCall(FlxOptionsRealArray("-shear_areas", "Shear areas Asy,Asz (override the shear correction and Cowper's factors)", "FlxModelSetFromOptions", sa, &n2, &sashear));
  PetscCall(PetscOptionsBool("-shear_rigid", "Euler-Bernoulli beam (no shear deformation)", "FlxModelSetFromOptions", rigid, &rigid, NULL));
  PetscCall(FlxOptionsRealArray("-orientation", "Orientation vector in the local x-y plane (default global Z, or X for elements along Z)", "FlxModelSetFromOptions", p->orient, &n3, &p->has_orient));
  PetscOptionsEnd();
  if (s->shape != FLX_SHAPE_NONE)
    PetscCall(ShapeProperties(m, s, pre, given, dset));
  else {
    for (int k = 0; k < 6; k++)
      PetscCheck(!dset[k], m->comm, PETSC_ERR_USER_INPUT, "section '%s': dimension -%s%s needs a shape (-%sshape rectangle|circle|tube|box|isection)", s->name, pre, ShapeDim[k], pre);
    for (int k = 0; k < 4; k++) {
      PetscCheck(given[k], m->comm, PETSC_ERR_USER_INPUT, "missing property: give -%s%s (%s) or a shape (-%sshape)", pre, BeamProp[k], BeamPropHelp[k], pre);
      PetscCheck(*pv[k] > 0 && !PetscIsInfOrNanReal(*pv[k]), m->comm, PETSC_ERR_USER_INPUT, "-%s%s = %g must be positive and finite (%s)", pre, BeamProp[k], (double)*pv[k], BeamPropHelp[k]);
    }
    p->Asy = p->Asz = kappa * p->A;
  }
  PetscCheck(!p->has_orient || n3 == 3, m->comm, PETSC_ERR_USER_INPUT, "-%sorientation needs three components", pre);
  PetscCheck(!sashear || (n2 == 2 && sa[0] > 0 && sa[1] > 0), m->comm, PETSC_ERR_USER_INPUT, "-%sshear_areas needs two positive values", pre);
  PetscCheck(!(rigid && sashear), m->comm, PETSC_ERR_USER_INPUT, "section '%s': -%sshear_rigid (Euler-Bernoulli, no shear deformation) leaves no use for -%sshear_areas: give one or the other", s->name, pre, pre);
  if (kappaset) p->Asy = p->Asz = kappa * p->A;
  if (sashear) {
    p->Asy = sa[0];
    p->Asz = sa[1];
  }
  if (rigid) p->Asy = p->Asz = 0;
  {
    char opt[160];
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%selement", pre));
    PetscCall(SectionElement(m, s, FLX_CELL_LINE2, opt, FLXELEMENTBEAM3D));
  }
  PetscFunctionReturn(0);
}

/* Shell section: thickness, drilling stiffness, warp limit; quads and triangles. */
static PetscErrorCode ReadShellSection(FlxModel m, FlxSection *s, const char pre[], PetscReal kappa)
{
  FlxSectionProps *p = &s->props;
  char             opt[160], groups[256] = "";

  PetscFunctionBegin;
  for (PetscInt g = 0; g < s->ngroups; g++) {
    PetscCall(PetscStrlcat(groups, g ? ", " : "", sizeof(groups)));
    PetscCall(PetscStrlcat(groups, s->groups[g], sizeof(groups)));
  }
  PetscCheck(p->t > 0, m->comm, PETSC_ERR_USER_INPUT, "section '%s' (groups %s): thickness -%sthickness = %g must be positive", s->name, groups, pre, (double)p->t);
  p->kappa_s  = kappa;
  p->drill    = 1e-3;
  p->max_warp = 0.1;
  PetscOptionsBegin(m->comm, pre, "Shell section", "FlxModel");
  PetscCall(PetscOptionsReal("-drilling_stiffness", "Drilling penalty as a fraction of G t (Hughes-Brezzi)", "FlxModelSetFromOptions", p->drill, &p->drill, NULL));
  PetscCall(PetscOptionsReal("-max_warp", "Largest accepted quad warp: max node offset from the mean plane / sqrt(area)", "FlxModelSetFromOptions", p->max_warp, &p->max_warp, NULL));
  PetscOptionsEnd();
  PetscCheck(p->drill > 0, m->comm, PETSC_ERR_USER_INPUT, "section '%s': -%sdrilling_stiffness must be positive", s->name, pre);
  PetscCheck(p->max_warp > 0, m->comm, PETSC_ERR_USER_INPUT, "section '%s': -%smax_warp must be positive", s->name, pre);
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%squad_element", pre));
  PetscCall(SectionElement(m, s, FLX_CELL_QUAD4, opt, FLXELEMENTMITC4));
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%stri_element", pre));
  PetscCall(SectionElement(m, s, FLX_CELL_TRI3, opt, FLXELEMENTDKT3));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelReadSections(FlxModel m)
{
  char names[FLX_MAX_NAMES][FLX_NAME_LEN];

  PetscFunctionBegin;
  PetscCall(FlxModelReadNames(m->comm, "section", "Names of the sections; each configured with -section_NAME_groups, _material, and _shape with its dimensions or _A, _Iy, _Iz, _J (beams), or _thickness (shells)", names, &m->nsec));
  for (PetscInt k = 0; k < m->nsec; k++) {
    FlxSection      *s = &m->sec[k];
    FlxSectionProps *p = &s->props;
    char             pre[128], *glist[FLX_MAX_NAMES];
    PetscInt         ng = FLX_MAX_NAMES, im = -1;
    PetscReal        kappa = 5.0 / 6.0;
    PetscBool        set, kappaset;
    PetscCall(PetscStrncpy(s->name, names[k], FLX_NAME_LEN));
    PetscCall(PetscSNPrintf(pre, sizeof(pre), "section_%s_", s->name));
    PetscCall(FlxModelReadSpringSection(m, k, pre, &s->spring)); /* springs.c: a section with stiffness or damping */
    if (s->spring) continue;
    p->rotary_scale = 1;
    PetscOptionsBegin(m->comm, pre, "Section", "FlxModel");
    PetscCall(PetscOptionsStringArray("-groups", "Physical groups (mesh) that take this section", "FlxModelSetFromOptions", glist, &ng, &set));
    { /* not given here (a spring section was read above): listed so that -help shows how a section becomes one */
      PetscReal none[6];
      PetscInt  n6 = 6;
      PetscCall(FlxOptionsRealArray("-stiffness", "Spring section: stiffness kx,ky,kz,krx,kry,krz in the spring's axes (N/m, N m/rad); its groups' line cells become springs (-section_NAME_axes global|element|x1,x2,x3,y1,y2,y3)", "FlxModelSetFromOptions", none, &n6, NULL));
      n6 = 6;
      PetscCall(FlxOptionsRealArray("-damping", "Spring section: damper coefficients cx,cy,cz,crx,cry,crz (N s/m, N m s/rad)", "FlxModelSetFromOptions", none, &n6, NULL));
    }
    PetscCheck(set && ng > 0, m->comm, PETSC_ERR_USER_INPUT, "section '%s' has no groups: give -%sgroups GROUP[,GROUP...]", s->name, pre);
    s->ngroups = ng;
    for (PetscInt g = 0; g < ng; g++) {
      PetscCall(PetscStrncpy(s->groups[g], glist[g], FLX_NAME_LEN));
      PetscCall(PetscFree(glist[g]));
    }
    PetscCall(PetscOptionsString("-material", "Material of the section", "FlxModelSetFromOptions", s->material, s->material, FLX_NAME_LEN, &set));
    PetscCheck(set, m->comm, PETSC_ERR_USER_INPUT, "missing property: section '%s' has no material (-%smaterial NAME)", s->name, pre);
    PetscCall(PetscOptionsReal("-thickness", "Shell thickness (m): makes this a shell section", "FlxModelSetFromOptions", p->t, &p->t, &s->shell));
    PetscCall(PetscOptionsReal("-shear_correction", "Transverse shear correction factor kappa (beams: shear areas kappa A, default 5/6, replacing Cowper's factors of a shape; shells: kappa G t)", "FlxModelSetFromOptions", kappa, &kappa, &kappaset));
    PetscCall(PetscOptionsReal("-rotary_inertia_scale", "Factor on the lumped rotary inertia (1 = physical)", "FlxModelSetFromOptions", p->rotary_scale, &p->rotary_scale, NULL));
    {
      PetscEnum g = (PetscEnum)0;
      PetscCall(PetscOptionsEnum("-geometry", "Kinematics of the section's elements: linear (small displacements) or nonlinear (co-rotational beams, finite rotations); default -model_geometry", "FlxModelSetFromOptions", FlxGeometries, g, &g, &s->geomset));
      s->nonlinear = (PetscBool)(g == (PetscEnum)1);
    }
    {
      const char *const rot[] = {"spherical", "tensor", "FlxRotaryInertia", "FLX_ROTARY_", NULL};
      PetscEnum         r     = (PetscEnum)0;
      PetscCall(PetscOptionsEnum("-rotary_inertia", "Geometry nonlinear beams: lumped nodal rotary inertia spherical (the largest lumped value about every axis, no gyroscopic term: explicit steps stay explicit) or tensor (rho L/2 diag(Iy + Iz, Iy, Iz) in the element axes, turning with the node, with its gyroscopic term)", "FlxModelSetFromOptions", rot, r, &r, NULL));
      s->rotary_tensor = (PetscBool)(r == (PetscEnum)1);
    }
    PetscOptionsEnd();
    PetscCheck(kappa > 0, m->comm, PETSC_ERR_USER_INPUT, "-%sshear_correction must be positive", pre);
    PetscCheck(!(s->shell && s->rotary_tensor), m->comm, PETSC_ERR_USER_INPUT, "-%srotary_inertia tensor is for beam sections (shells lump a spherical rotary inertia)", pre);
    PetscCheck(p->rotary_scale > 0, m->comm, PETSC_ERR_USER_INPUT, "-%srotary_inertia_scale must be positive", pre);
    for (PetscInt j = 0; j < m->nmat; j++) {
      PetscBool eq;
      PetscCall(PetscStrcmp(m->mat[j].name, s->material, &eq));
      if (eq) im = j;
    }
    PetscCheck(im >= 0, m->comm, PETSC_ERR_USER_INPUT, "section '%s': material '%s' is not declared in -material_names", s->name, s->material);
    p->E   = m->mat[im].E;
    p->nu  = m->mat[im].nu;
    p->rho = m->mat[im].rho;
    p->G   = p->E / (2 * (1 + p->nu));
    if (s->shell)
      PetscCall(ReadShellSection(m, s, pre, kappa));
    else
      PetscCall(ReadBeamSection(m, s, pre, kappa, kappaset));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelUseGroup(FlxModel m, const char group[])
{
  char(*list)[FLX_NAME_LEN];

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(m->nusegroup + 1, &list));
  if (m->nusegroup) PetscCall(PetscArraycpy(list, m->usegroup, m->nusegroup));
  PetscCall(PetscStrncpy(list[m->nusegroup++], group, FLX_NAME_LEN));
  PetscCall(PetscFree(m->usegroup));
  m->usegroup = list;
  PetscFunctionReturn(0);
}

/* Whether anything in the model or declared with FlxModelUseGroup names group (a node set). */
static PetscBool GroupUsed(FlxModel m, const char group[])
{
  for (PetscInt k = 0; k < m->nbc; k++)
    if (!strcmp(m->bc[k].group, group)) return PETSC_TRUE;
  for (PetscInt k = 0; k < m->nload; k++)
    if (!strcmp(m->load[k].group, group)) return PETSC_TRUE;
  for (PetscInt k = 0; k < m->nic; k++)
    if (!strcmp(m->ic[k].group, group)) return PETSC_TRUE;
  for (PetscInt k = 0; k < m->npm; k++)
    if (!strcmp(m->pm[k].group, group)) return PETSC_TRUE;
  for (PetscInt k = 0; k < m->nusegroup; k++)
    if (!strcmp(m->usegroup[k], group)) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* Every group that a bc, load, initial condition or point mass names exists and has nodes (before the
   expensive set-up, and before an unused group is reported, which a misspelled group name would cause). */
PetscErrorCode FlxModelCheckNodeSets(FlxModel m)
{
  const char *what[4] = {"boundary condition", "load", "initial condition", "point mass"}, *opt[4] = {"bc", "load", "ic", "pointmass"};
  PetscInt    n[4] = {m->nbc, m->nload, m->nic, m->npm};

  PetscFunctionBegin;
  for (int k = 0; k < 4; k++)
    for (PetscInt i = 0; i < n[k]; i++) {
      const char     *name  = k == 0 ? m->bc[i].name : k == 1 ? m->load[i].name
                                                   : k == 2   ? m->ic[i].name
                                                              : m->pm[i].name;
      const char     *group = k == 0 ? m->bc[i].group : k == 1 ? m->load[i].group
                                                    : k == 2   ? m->ic[i].group
                                                               : m->pm[i].group;
      char            desc[160];
      PetscInt        g, nn, tot;
      const PetscInt *nodes;
      if (!group[0]) continue; /* gravity on the whole model */
      PetscCall(PetscSNPrintf(desc, sizeof(desc), "%s '%s' (-%s_%s_group)", what[k], name, opt[k], name));
      PetscCall(FlxModelRequireGroup(m, desc, group, &g));
      PetscCall(FlxMeshGetGroupNodes(m->mesh, g, &nn, &nodes));
      PetscCallMPI(MPI_Allreduce(&nn, &tot, 1, MPIU_INT, MPI_SUM, m->comm));
      PetscCheck(tot > 0, m->comm, PETSC_ERR_USER_INPUT, "%s '%s': group '%s' (-%s_%s_group) is empty: it has no nodes", what[k], name, group, opt[k], name);
    }
  PetscFunctionReturn(0);
}

/* Map every local cell to its section. A cell whose group has no section is a node-set cell (section -1): it
   carries no stiffness or mass, only its nodes (for bcs, loads, probes, initial conditions) and, for lines
   along shells, the edges of edge loads. A group of such cells that nothing uses is an error naming it. */
PetscErrorCode FlxModelAssignSections(FlxModel m)
{
  PetscInt  nc, ng, *gsec, *cnt;
  PetscBool bad      = PETSC_FALSE;
  char      msg[512] = "";

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, NULL, NULL, &nc));
  PetscCall(FlxMeshGetNumGroups(m->mesh, &ng));
  PetscCall(PetscMalloc1(ng + 1, &gsec));
  PetscCall(PetscCalloc1(FLX_NUM_CELL_TYPES * ng + 1, &cnt));
  for (PetscInt g = 0; g < ng; g++)
    gsec[g] = -1;
  for (PetscInt s = 0; s < m->nsec; s++)
    for (PetscInt k = 0; k < m->sec[s].ngroups; k++) {
      PetscInt g;
      char     what[128];
      PetscCall(PetscSNPrintf(what, sizeof(what), "section '%s' (-section_%s_groups)", m->sec[s].name, m->sec[s].name));
      PetscCall(FlxModelRequireGroup(m, what, m->sec[s].groups[k], &g));
      PetscCheck(gsec[g] < 0, m->comm, PETSC_ERR_USER_INPUT, "group '%s' is given two sections ('%s' and '%s')", m->sec[s].groups[k], m->sec[gsec[g]].name, m->sec[s].name);
      gsec[g] = s;
    }
  PetscCall(PetscMalloc1(nc + 1, &m->cell_section));
  for (PetscInt c = 0; c < nc; c++) {
    PetscInt    g;
    FlxCellType t;
    PetscBool   owned;
    char        desc[256];
    PetscCall(FlxMeshGetCell(m->mesh, c, &t, NULL, NULL, &g));
    PetscCall(FlxMeshIsCellOwned(m->mesh, c, &owned));
    m->cell_section[c] = gsec[g];
    if (gsec[g] < 0) {
      if (owned) cnt[FLX_NUM_CELL_TYPES * g + t]++;
    } else if (!m->sec[gsec[g]].ops[t] && !bad) {
      PetscCall(FlxModelCellDescription(m, c, desc, sizeof(desc)));
      const FlxSection *sec  = &m->sec[gsec[g]];
      const char       *kind = "beam", *hint = "give surface cells a shell section with -section_NAME_thickness";
      if (sec->shell) {
        kind = "shell";
        hint = "give line cells a beam section, or no section to make them a node set";
      } else if (sec->spring) {
        kind = "spring";
        hint = "springs are line cells; springs to ground go on node groups with -spring_NAME_group";
      }
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: section '%s' is a %s section and cannot take %s cells (%s)", desc, sec->name, kind, FlxCellTypeNames[t], hint));
      bad = PETSC_TRUE;
    }
  }
  PetscCall(PetscFree(gsec));
  { /* a section that no cell takes is input that nothing honours (its groups hold only nodes, say) */
    PetscInt *used;
    PetscCall(PetscCalloc1(m->nsec + 1, &used));
    for (PetscInt c = 0; c < nc; c++)
      if (m->cell_section[c] >= 0) used[m->cell_section[c]] = 1;
    PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, used, (PetscMPIInt)m->nsec, MPIU_INT, MPI_MAX, m->comm));
    for (PetscInt s = 0; s < m->nsec && !bad; s++)
      if (!used[s]) {
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "section '%s' applies to no element: its groups (-section_%s_groups %s%s) hold no line, quad or triangle cells (a group of points is a node set: name it in a bc, load, probe or point mass); give the section groups of elements, or remove it from -section_names", m->sec[s].name, m->sec[s].name, m->sec[s].groups[0], m->sec[s].ngroups > 1 ? ", ..." : ""));
        bad = PETSC_TRUE;
      }
    PetscCall(PetscFree(used));
  }
  {
    PetscBool any;
    PetscCallMPI(MPI_Allreduce(&bad, &any, 1, MPIU_BOOL, MPI_LOR, m->comm));
    if (any) PetscCall(PetscFree(cnt)); /* the error below leaks nothing */
  }
  PetscCall(FlxCheckCollective(m->comm, bad, PETSC_ERR_USER_INPUT, msg));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, cnt, (PetscMPIInt)(FLX_NUM_CELL_TYPES * ng), MPIU_INT, MPI_SUM, m->comm));
  for (PetscInt g = 0; g < ng; g++) {
    const char *name;
    char        cells[128] = "";
    PetscInt    tot        = 0;
    for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
      char one[40];
      if (!cnt[FLX_NUM_CELL_TYPES * g + t]) continue;
      PetscCall(PetscSNPrintf(one, sizeof(one), "%s%" PetscInt_FMT " %s", tot ? " and " : "", cnt[FLX_NUM_CELL_TYPES * g + t], FlxCellTypeNames[t]));
      PetscCall(PetscStrlcat(cells, one, sizeof(cells)));
      tot += cnt[FLX_NUM_CELL_TYPES * g + t];
    }
    if (!tot) continue;
    PetscCall(FlxMeshGetGroup(m->mesh, g, &name, NULL));
    if (!GroupUsed(m, name)) {
      PetscCall(PetscFree(cnt));
      SETERRQ(m->comm, PETSC_ERR_USER_INPUT, "physical group '%s' has %s cells, no section, and nothing uses it as a node set: give it a section (add it to some -section_NAME_groups) or name it in a bc, load, ic, probe or point mass (or remove it from the mesh)", name, cells);
    }
  }
  PetscCall(PetscFree(cnt));
  PetscFunctionReturn(0);
}
