/* FlxModel: options (materials, sections, boundary conditions, loads, initial conditions, point masses,
   damping), life cycle and accessors. Named things are declared by a list option and configured under
   their own prefix: -material_names steel -material_steel_E 210e9 ... */
#include <flexure/private/modelimpl.h>

const char *const FlxDofNames[] = {"ux", "uy", "uz", "rx", "ry", "rz"};

static PetscErrorCode ConsistentMassProvider(FlxSystem, Mat *, void *);
static PetscErrorCode NearNullSpaceProvider(FlxSystem, MatNullSpace *, void *);

PetscErrorCode FlxModelCreate(FlxMesh mesh, FlxModel *model)
{
  FlxModel m;

  PetscFunctionBegin;
  PetscCall(PetscNew(&m));
  PetscCall(FlxMeshGetComm(mesh, &m->comm));
  m->mesh = mesh;
  PetscCall(FlxSystemCreate(m->comm, &m->sys));
  *model = m;
  PetscFunctionReturn(0);
}

/* Read "-<what>_names a,b,c" into names. */
static PetscErrorCode ReadNames(MPI_Comm comm, const char what[], const char help[], char names[][FLX_NAME_LEN], PetscInt *n)
{
  char     opt[64], *list[FLX_MAX_NAMES];
  PetscInt nmax = FLX_MAX_NAMES;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%s_names", what));
  PetscOptionsBegin(comm, NULL, "Model", "FlxModel");
  PetscCall(PetscOptionsStringArray(opt, help, "FlxModelSetFromOptions", list, &nmax, NULL));
  PetscOptionsEnd();
  for (PetscInt k = 0; k < nmax; k++) {
    PetscCall(PetscStrncpy(names[k], list[k], FLX_NAME_LEN));
    PetscCall(PetscFree(list[k]));
  }
  *n = nmax;
  PetscFunctionReturn(0);
}

static PetscErrorCode RequireReal(PetscOptionItems *PetscOptionsObject, MPI_Comm comm, const char pre[], const char key[], const char help[], PetscBool positive, PetscReal *v)
{
  PetscBool set;
  char      opt[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%s", key));
  PetscCall(PetscOptionsReal(opt, help, "FlxModelSetFromOptions", *v, v, &set));
  PetscCheck(set, comm, PETSC_ERR_USER_INPUT, "missing property: give -%s%s (%s)", pre, key, help);
  PetscCheck(!PetscIsInfOrNanReal(*v), comm, PETSC_ERR_USER_INPUT, "-%s%s = %g is not a finite number (%s)", pre, key, (double)*v, help);
  PetscCheck(!positive || *v > 0, comm, PETSC_ERR_USER_INPUT, "-%s%s = %g must be positive (%s)", pre, key, (double)*v, help);
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadMaterials(FlxModel m)
{
  char names[FLX_MAX_NAMES][FLX_NAME_LEN];

  PetscFunctionBegin;
  PetscCall(ReadNames(m->comm, "material", "Names of the materials; each configured with -material_NAME_E, _nu, _rho", names, &m->nmat));
  for (PetscInt k = 0; k < m->nmat; k++) {
    FlxMaterial *mt = &m->mat[k];
    char         pre[128];
    PetscCall(PetscStrncpy(mt->name, names[k], FLX_NAME_LEN));
    PetscCall(PetscSNPrintf(pre, sizeof(pre), "material_%s_", mt->name));
    PetscOptionsBegin(m->comm, pre, "Material", "FlxModel");
    PetscCall(RequireReal(PetscOptionsObject, m->comm, pre, "E", "Young's modulus (Pa)", PETSC_TRUE, &mt->E));
    PetscCall(RequireReal(PetscOptionsObject, m->comm, pre, "nu", "Poisson's ratio", PETSC_FALSE, &mt->nu));
    PetscCall(RequireReal(PetscOptionsObject, m->comm, pre, "rho", "Density (kg/m^3; 0 for a massless structure whose free DOFs get mass from point masses)", PETSC_FALSE, &mt->rho));
    PetscOptionsEnd();
    PetscCheck(mt->rho >= 0, m->comm, PETSC_ERR_USER_INPUT, "-%srho = %g must not be negative", pre, (double)mt->rho);
    PetscCheck(mt->nu > -1 && mt->nu < 0.5, m->comm, PETSC_ERR_USER_INPUT, "-%snu = %g is outside (-1, 0.5)", pre, (double)mt->nu);
  }
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

/* Beam section: A, Iy, Iz, J, shear, orientation. */
static PetscErrorCode ReadBeamSection(FlxModel m, FlxSection *s, const char pre[], PetscReal *kappa)
{
  FlxSectionProps *p  = &s->props;
  PetscInt         n2 = 2, n3 = 3;
  PetscReal        sa[2] = {0, 0};
  PetscBool        rigid = PETSC_FALSE, sashear;

  PetscFunctionBegin;
  PetscOptionsBegin(m->comm, pre, "Beam section", "FlxModel");
  PetscCall(RequireReal(PetscOptionsObject, m->comm, pre, "A", "Cross-section area (m^2)", PETSC_TRUE, &p->A));
  PetscCall(RequireReal(PetscOptionsObject, m->comm, pre, "Iy", "Second moment of area about local y (m^4)", PETSC_TRUE, &p->Iy));
  PetscCall(RequireReal(PetscOptionsObject, m->comm, pre, "Iz", "Second moment of area about local z (m^4)", PETSC_TRUE, &p->Iz));
  PetscCall(RequireReal(PetscOptionsObject, m->comm, pre, "J", "Torsion constant (m^4)", PETSC_TRUE, &p->J));
  PetscCall(PetscOptionsRealArray("-shear_areas", "Shear areas Asy,Asz (override the shear correction)", "FlxModelSetFromOptions", sa, &n2, &sashear));
  PetscCall(PetscOptionsBool("-shear_rigid", "Euler-Bernoulli beam (no shear deformation)", "FlxModelSetFromOptions", rigid, &rigid, NULL));
  PetscCall(PetscOptionsRealArray("-orientation", "Orientation vector in the local x-y plane (default global Z, or X for elements along Z)", "FlxModelSetFromOptions", p->orient, &n3, &p->has_orient));
  PetscOptionsEnd();
  PetscCheck(!p->has_orient || n3 == 3, m->comm, PETSC_ERR_USER_INPUT, "-%sorientation needs three components", pre);
  PetscCheck(!sashear || (n2 == 2 && sa[0] > 0 && sa[1] > 0), m->comm, PETSC_ERR_USER_INPUT, "-%sshear_areas needs two positive values", pre);
  p->Asy = rigid ? 0 : (sashear ? sa[0] : *kappa * p->A);
  p->Asz = rigid ? 0 : (sashear ? sa[1] : *kappa * p->A);
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

static PetscErrorCode ReadSections(FlxModel m)
{
  char names[FLX_MAX_NAMES][FLX_NAME_LEN];

  PetscFunctionBegin;
  PetscCall(ReadNames(m->comm, "section", "Names of the sections; each configured with -section_NAME_groups, _material, and _A, _Iy, _Iz, _J (beams) or _thickness (shells)", names, &m->nsec));
  for (PetscInt k = 0; k < m->nsec; k++) {
    FlxSection      *s = &m->sec[k];
    FlxSectionProps *p = &s->props;
    char             pre[128], *glist[FLX_MAX_NAMES];
    PetscInt         ng = FLX_MAX_NAMES, im = -1;
    PetscReal        kappa = 5.0 / 6.0;
    PetscBool        set;
    PetscCall(PetscStrncpy(s->name, names[k], FLX_NAME_LEN));
    PetscCall(PetscSNPrintf(pre, sizeof(pre), "section_%s_", s->name));
    p->rotary_scale = 1;
    PetscOptionsBegin(m->comm, pre, "Section", "FlxModel");
    PetscCall(PetscOptionsStringArray("-groups", "Physical groups (mesh) that take this section", "FlxModelSetFromOptions", glist, &ng, &set));
    PetscCheck(set && ng > 0, m->comm, PETSC_ERR_USER_INPUT, "section '%s' has no groups: give -%sgroups GROUP[,GROUP...]", s->name, pre);
    s->ngroups = ng;
    for (PetscInt g = 0; g < ng; g++) {
      PetscCall(PetscStrncpy(s->groups[g], glist[g], FLX_NAME_LEN));
      PetscCall(PetscFree(glist[g]));
    }
    PetscCall(PetscOptionsString("-material", "Material of the section", "FlxModelSetFromOptions", s->material, s->material, FLX_NAME_LEN, &set));
    PetscCheck(set, m->comm, PETSC_ERR_USER_INPUT, "missing property: section '%s' has no material (-%smaterial NAME)", s->name, pre);
    PetscCall(PetscOptionsReal("-thickness", "Shell thickness (m): makes this a shell section", "FlxModelSetFromOptions", p->t, &p->t, &s->shell));
    PetscCall(PetscOptionsReal("-shear_correction", "Transverse shear correction factor kappa (beams: shear areas kappa A; shells: kappa G t)", "FlxModelSetFromOptions", kappa, &kappa, NULL));
    PetscCall(PetscOptionsReal("-rotary_inertia_scale", "Factor on the lumped rotary inertia (1 = physical)", "FlxModelSetFromOptions", p->rotary_scale, &p->rotary_scale, NULL));
    PetscOptionsEnd();
    PetscCheck(kappa > 0, m->comm, PETSC_ERR_USER_INPUT, "-%sshear_correction must be positive", pre);
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
      PetscCall(ReadBeamSection(m, s, pre, &kappa));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadSixValues(PetscOptionItems *PetscOptionsObject, MPI_Comm comm, const char pre[], const char key[], const char help[], PetscInt minvals, PetscReal v[6], PetscBool required)
{
  PetscInt  n = 6;
  PetscBool set;
  char      opt[64];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%s", key));
  PetscCall(PetscOptionsRealArray(opt, help, "FlxModelSetFromOptions", v, &n, &set));
  PetscCheck(!required || set, comm, PETSC_ERR_USER_INPUT, "missing property: give -%s%s (%s)", pre, key, help);
  PetscCheck(!set || n >= minvals, comm, PETSC_ERR_USER_INPUT, "-%s%s needs at least %" PetscInt_FMT " values", pre, key, minvals);
  for (PetscInt d = set ? n : 0; d < 6; d++)
    v[d] = 0;
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadLoads(FlxModel m)
{
  char              names[FLX_MAX_NAMES][FLX_NAME_LEN];
  const char *const types[] = {"force", "gravity", "pressure", "FlxLoadType", "FLX_LOAD_", NULL};

  PetscFunctionBegin;
  PetscCall(ReadNames(m->comm, "load", "Names of the loads; each configured with -load_NAME_type, _group, _value, _function", names, &m->nload));
  for (PetscInt k = 0; k < m->nload; k++) {
    FlxLoad  *l = &m->load[k];
    char      pre[128], owner[128];
    PetscBool set;
    PetscCall(PetscStrncpy(l->name, names[k], FLX_NAME_LEN));
    PetscCall(PetscSNPrintf(pre, sizeof(pre), "load_%s_", l->name));
    PetscCall(PetscSNPrintf(owner, sizeof(owner), "load '%s'", l->name));
    PetscOptionsBegin(m->comm, pre, "Load", "FlxModel");
    PetscCall(PetscOptionsEnum("-type", "force (nodal force and moment on each node of the group), gravity (acceleration on the mass) or pressure (on the shell elements of the group)", "FlxModelSetFromOptions", types, (PetscEnum)l->type, (PetscEnum *)&l->type, NULL));
    PetscCall(PetscOptionsString("-group", "Physical group of the loaded nodes (gravity: default the whole model)", "FlxModelSetFromOptions", l->group, l->group, FLX_NAME_LEN, &set));
    PetscCall(ReadSixValues(PetscOptionsObject, m->comm, pre, "value", "force: fx,fy,fz[,mx,my,mz] per node (N, N m); gravity: gx,gy,gz (m/s^2); pressure: p (Pa, pushes against the element normal)", l->type == FLX_LOAD_PRESSURE ? 1 : 3, l->value, PETSC_TRUE));
    PetscOptionsEnd();
    PetscCheck(l->type != FLX_LOAD_PRESSURE || (l->value[1] == 0 && l->value[2] == 0), m->comm, PETSC_ERR_USER_INPUT, "-%svalue: a pressure takes one value (Pa)", pre);
    PetscCheck(set || l->type == FLX_LOAD_GRAVITY, m->comm, PETSC_ERR_USER_INPUT, "load '%s' has no group: give -%sgroup NAME", l->name, pre);
    PetscCall(FlxTimeFunctionSetFromOptions(m->comm, pre, owner, &l->tf));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode ReadICsAndMasses(FlxModel m)
{
  char              names[FLX_MAX_NAMES][FLX_NAME_LEN];
  const char *const types[] = {"displacement", "velocity", "mode", "FlxICType", "FLX_IC_", NULL};

  PetscFunctionBegin;
  PetscCall(ReadNames(m->comm, "ic", "Names of the initial conditions; each configured with -ic_NAME_type, and _group and _value (displacement, velocity) or _file, _mode and _amplitude (a mode shape)", names, &m->nic));
  for (PetscInt k = 0; k < m->nic; k++) {
    FlxIC    *c = &m->ic[k];
    char      pre[128];
    PetscBool set, setv, setf;
    PetscCall(PetscStrncpy(c->name, names[k], FLX_NAME_LEN));
    PetscCall(PetscSNPrintf(pre, sizeof(pre), "ic_%s_", c->name));
    c->mode = 1;
    PetscOptionsBegin(m->comm, pre, "Initial condition", "FlxModel");
    PetscCall(PetscOptionsEnum("-type", "displacement or velocity (six values on a group), or mode (a mode shape of 'flexure modes' times an amplitude, whole model)", "FlxModelSetFromOptions", types, (PetscEnum)c->type, (PetscEnum *)&c->type, NULL));
    PetscCall(PetscOptionsString("-group", "Physical group (or node set) of the nodes", "FlxModelSetFromOptions", c->group, c->group, FLX_NAME_LEN, &set));
    PetscCall(ReadSixValues(PetscOptionsObject, m->comm, pre, "value", "Six values ux,uy,uz,rx,ry,rz (or their rates)", 1, c->value, c->type != FLX_IC_MODE ? PETSC_TRUE : PETSC_FALSE));
    PetscCall(PetscOptionsString("-file", "Mode shape: results file of 'flexure modes' on this model", "FlxModelSetFromOptions", c->file, c->file, sizeof(c->file), &setf));
    PetscCall(PetscOptionsInt("-mode", "Mode shape: mode number (1 = the lowest)", "FlxModelSetFromOptions", c->mode, &c->mode, NULL));
    PetscCall(PetscOptionsReal("-amplitude", "Mode shape: largest nodal translation of the initial displacement (m)", "FlxModelSetFromOptions", c->amplitude, &c->amplitude, NULL));
    PetscOptionsEnd();
    setv = (PetscBool)(c->value[0] != 0 || c->value[1] != 0 || c->value[2] != 0 || c->value[3] != 0 || c->value[4] != 0 || c->value[5] != 0);
    if (c->type == FLX_IC_MODE) {
      PetscCheck(setf, m->comm, PETSC_ERR_USER_INPUT, "initial condition '%s' (mode): give -%sfile MODES.h5 (from 'flexure modes' on this model), -%smode and -%samplitude", c->name, pre, pre, pre);
      PetscCheck(!set && !setv, m->comm, PETSC_ERR_USER_INPUT, "initial condition '%s' (mode): a mode shape applies to the whole model; drop -%sgroup and -%svalue", c->name, pre, pre);
      PetscCheck(c->mode >= 1, m->comm, PETSC_ERR_USER_INPUT, "-%smode %" PetscInt_FMT ": modes are numbered from 1", pre, c->mode);
      PetscCheck(c->amplitude != 0 && !PetscIsInfOrNanReal(c->amplitude), m->comm, PETSC_ERR_USER_INPUT, "initial condition '%s' (mode): -%samplitude must be a finite nonzero length", c->name, pre);
    } else {
      PetscCheck(set, m->comm, PETSC_ERR_USER_INPUT, "initial condition '%s' has no group: give -%sgroup NAME", c->name, pre);
      PetscCheck(!setf, m->comm, PETSC_ERR_USER_INPUT, "initial condition '%s': -%sfile is for -%stype mode", c->name, pre, pre);
    }
  }
  PetscCall(ReadNames(m->comm, "pointmass", "Names of the point masses; each configured with -pointmass_NAME_group, _mass, _inertia", names, &m->npm));
  for (PetscInt k = 0; k < m->npm; k++) {
    FlxPointMass *p = &m->pm[k];
    char          pre[128];
    PetscInt      n = 3;
    PetscBool     set;
    PetscCall(PetscStrncpy(p->name, names[k], FLX_NAME_LEN));
    PetscCall(PetscSNPrintf(pre, sizeof(pre), "pointmass_%s_", p->name));
    PetscOptionsBegin(m->comm, pre, "Point mass", "FlxModel");
    PetscCall(PetscOptionsString("-group", "Physical group of the nodes that carry the mass (each node gets it)", "FlxModelSetFromOptions", p->group, p->group, FLX_NAME_LEN, &set));
    PetscCall(RequireReal(PetscOptionsObject, m->comm, pre, "mass", "Mass per node (kg)", PETSC_FALSE, &p->mass));
    PetscCall(PetscOptionsRealArray("-inertia", "Rotary inertia per node about x, y, z (kg m^2)", "FlxModelSetFromOptions", p->inertia, &n, NULL));
    PetscOptionsEnd();
    PetscCheck(set, m->comm, PETSC_ERR_USER_INPUT, "point mass '%s' has no group: give -%sgroup NAME", p->name, pre);
    PetscCheck(p->mass >= 0, m->comm, PETSC_ERR_USER_INPUT, "-%smass must not be negative", pre);
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelSetFromOptions(FlxModel m)
{
  PetscFunctionBegin;
  PetscCall(ReadMaterials(m));
  PetscCall(ReadSections(m));
  PetscCall(FlxModelReadBCs(m));
  PetscCall(ReadLoads(m));
  PetscCall(ReadICsAndMasses(m));
  PetscOptionsBegin(m->comm, NULL, "Model", "FlxModel");
  PetscCall(PetscOptionsReal("-damping_mass", "Rayleigh damping: mass-proportional coefficient a_M (1/s), C = a_M M + b_K K", "FlxModelSetFromOptions", m->aM, &m->aM, NULL));
  PetscCall(PetscOptionsReal("-damping_stiffness", "Rayleigh damping: stiffness-proportional coefficient b_K (s)", "FlxModelSetFromOptions", m->bK, &m->bK, NULL));
  PetscCall(PetscOptionsBool("-model_allow_rigid_body", "Accept a model with rigid-body motions (free-flying structure)", "FlxModelSetFromOptions", m->allow_rigid, &m->allow_rigid, NULL));
  PetscOptionsEnd();
  PetscCheck(m->aM >= 0 && m->bK >= 0, m->comm, PETSC_ERR_USER_INPUT, "-damping_mass and -damping_stiffness must not be negative");
  PetscFunctionReturn(0);
}

/* Group index by name, or a collective error that lists the groups of the mesh. */
PetscErrorCode FlxModelRequireGroup(FlxModel m, const char what[], const char group[], PetscInt *g)
{
  char        list[1024] = "";
  const char *src, *name;
  PetscInt    ng;

  PetscFunctionBegin;
  PetscCall(FlxMeshFindGroup(m->mesh, group, g));
  if (*g >= 0) PetscFunctionReturn(0);
  PetscCall(FlxMeshGetNumGroups(m->mesh, &ng));
  for (PetscInt k = 0; k < ng; k++) {
    PetscCall(FlxMeshGetGroup(m->mesh, k, &name, NULL));
    PetscCall(PetscStrlcat(list, k ? ", " : "", sizeof(list)));
    PetscCall(PetscStrlcat(list, name, sizeof(list)));
  }
  PetscCall(FlxMeshGetSource(m->mesh, &src));
  SETERRQ(m->comm, PETSC_ERR_USER_INPUT, "%s: unknown physical group '%s': mesh %s has the groups %s", what, group, src, list);
}

PetscErrorCode FlxModelCellDescription(FlxModel m, PetscInt cell, char buf[], size_t len)
{
  PetscInt    id, g;
  FlxCellType t;
  const char *gname;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetCellNaturalId(m->mesh, cell, &id));
  PetscCall(FlxMeshGetCell(m->mesh, cell, &t, NULL, NULL, &g));
  PetscCall(FlxMeshGetGroup(m->mesh, g, &gname, NULL));
  PetscCall(PetscSNPrintf(buf, len, "element %" PetscInt_FMT " (%s, group '%s')", id, FlxCellTypeNames[t], gname));
  PetscFunctionReturn(0);
}

/* Map every local cell to its section; errors name the element and its group. */
static PetscErrorCode AssignSections(FlxModel m)
{
  PetscInt  nc, ng, *gsec;
  PetscBool bad      = PETSC_FALSE;
  char      msg[512] = "";

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, NULL, NULL, &nc));
  PetscCall(FlxMeshGetNumGroups(m->mesh, &ng));
  PetscCall(PetscMalloc1(ng + 1, &gsec));
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
  for (PetscInt c = 0; c < nc && !bad; c++) {
    PetscInt    g;
    FlxCellType t;
    char        desc[256];
    PetscCall(FlxMeshGetCell(m->mesh, c, &t, NULL, NULL, &g));
    m->cell_section[c] = gsec[g];
    if (gsec[g] < 0) {
      PetscCall(FlxModelCellDescription(m, c, desc, sizeof(desc)));
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s has no section: add its group to some -section_NAME_groups", desc));
      bad = PETSC_TRUE;
    } else if (!m->sec[gsec[g]].ops[t]) {
      PetscCall(FlxModelCellDescription(m, c, desc, sizeof(desc)));
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s: section '%s' is a %s section and cannot take %s cells (%s)", desc, m->sec[gsec[g]].name, m->sec[gsec[g]].shell ? "shell" : "beam", FlxCellTypeNames[t],
                              m->sec[gsec[g]].shell ? "give line cells a beam section" : "give surface cells a shell section with -section_NAME_thickness"));
      bad = PETSC_TRUE;
    }
  }
  PetscCall(PetscFree(gsec));
  PetscCall(FlxCheckCollective(m->comm, bad, PETSC_ERR_USER_INPUT, msg));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelSetUp(FlxModel m)
{
  PetscFunctionBegin;
  if (m->setup) PetscFunctionReturn(0);
  PetscCall(AssignSections(m));
  PetscCall(FlxModelAssemble(m));
  PetscCall(FlxModelSetUpBCs(m));
  PetscCall(FlxModelSetUpLoads(m));
  for (PetscInt k = 0; k < m->nic; k++) {
    PetscInt g;
    char     what[128];
    if (m->ic[k].type == FLX_IC_MODE) continue;
    PetscCall(PetscSNPrintf(what, sizeof(what), "initial condition '%s' (-ic_%s_group)", m->ic[k].name, m->ic[k].name));
    PetscCall(FlxModelRequireGroup(m, what, m->ic[k].group, &g));
  }
  if (!m->allow_rigid) PetscCall(FlxModelCheckRigidBody(m));
  PetscCall(FlxSystemSetMass(m->sys, m->mass, m->free));
  PetscCall(FlxSystemSetStiffness(m->sys, m->K));
  PetscCall(FlxSystemSetConsistentMassFunction(m->sys, ConsistentMassProvider, m));
  PetscCall(FlxSystemSetNearNullSpaceFunction(m->sys, NearNullSpaceProvider, m));
  PetscCall(FlxSystemSetRayleigh(m->sys, m->aM, m->bK));
  m->setup = PETSC_TRUE;
  PetscFunctionReturn(0);
}

static PetscErrorCode ConsistentMassProvider(FlxSystem sys, Mat *M, void *ctx)
{
  PetscFunctionBegin;
  PetscCall(FlxModelGetConsistentMass((FlxModel)ctx, M));
  PetscFunctionReturn(0);
}

/* The six rigid-body motions, orthonormalized, as the near-null space for GAMG. */
static PetscErrorCode NearNullSpaceProvider(FlxSystem sys, MatNullSpace *nsp, void *ctx)
{
  FlxModel m = (FlxModel)ctx;
  Vec      R[6];

  PetscFunctionBegin;
  PetscCall(FlxModelCreateRigidBodyVectors(m, PETSC_FALSE, R));
  for (PetscInt k = 0; k < 6; k++) {
    PetscScalar dots[6];
    PetscReal   nrm;
    if (k) {
      PetscCall(VecMDot(R[k], k, R, dots));
      for (PetscInt j = 0; j < k; j++)
        dots[j] = -dots[j];
      PetscCall(VecMAXPY(R[k], k, dots, R));
    }
    PetscCall(VecNormalize(R[k], &nrm));
  }
  PetscCall(MatNullSpaceCreate(m->comm, PETSC_FALSE, 6, R, nsp));
  for (PetscInt k = 0; k < 6; k++)
    PetscCall(VecDestroy(&R[k]));
  PetscFunctionReturn(0);
}

/* Total mass (of the translations along x, point masses included), centre of mass and bounding box: a unit slip
   (E in MPa in an SI model, a mesh in mm) shows at once. */
static PetscErrorCode ViewSummary(FlxModel m, PetscViewer viewer)
{
  const PetscScalar *ms;
  const PetscReal   *X;
  PetscInt           nown;
  PetscReal          s[4] = {0, 0, 0, 0}, lo[3] = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL}, hi[3] = {PETSC_MIN_REAL, PETSC_MIN_REAL, PETSC_MIN_REAL};

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  PetscCall(FlxMeshGetCoordinates(m->mesh, &X));
  PetscCall(VecGetArrayRead(m->mass, &ms));
  for (PetscInt i = 0; i < nown; i++) {
    s[0] += ms[6 * i];
    for (int d = 0; d < 3; d++) {
      s[1 + d] += ms[6 * i] * X[3 * i + d];
      lo[d] = PetscMin(lo[d], X[3 * i + d]);
      hi[d] = PetscMax(hi[d], X[3 * i + d]);
    }
  }
  PetscCall(VecRestoreArrayRead(m->mass, &ms));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, s, 4, MPIU_REAL, MPI_SUM, m->comm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, lo, 3, MPIU_REAL, MPI_MIN, m->comm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, hi, 3, MPIU_REAL, MPI_MAX, m->comm));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  total mass %.6g kg, centre of mass (%.6g, %.6g, %.6g), bounding box (%.6g, %.6g, %.6g) to (%.6g, %.6g, %.6g)\n", (double)s[0], (double)(s[0] > 0 ? s[1] / s[0] : 0), (double)(s[0] > 0 ? s[2] / s[0] : 0), (double)(s[0] > 0 ? s[3] / s[0] : 0), (double)lo[0], (double)lo[1], (double)lo[2], (double)hi[0], (double)hi[1], (double)hi[2]));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelView(FlxModel m, PetscViewer viewer)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "Model: %" PetscInt_FMT " materials, %" PetscInt_FMT " sections, %" PetscInt_FMT " boundary conditions (%" PetscInt_FMT " prescribed DOFs), %" PetscInt_FMT " loads, %" PetscInt_FMT " initial conditions, %" PetscInt_FMT " point masses\n", m->nmat, m->nsec, m->nbc, m->nconstrained, m->nload, m->nic, m->npm));
  PetscCall(ViewSummary(m, viewer));
  for (PetscInt s = 0; s < m->nsec; s++) {
    const FlxSectionProps *p = &m->sec[s].props;
    if (m->sec[s].shell)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  section %s: shell (%s quads, %s triangles), material %s (E %g, nu %g, rho %g), thickness %g, shear correction %g, drilling %g G t, rotary inertia x%g\n", m->sec[s].name, m->sec[s].element[FLX_CELL_QUAD4], m->sec[s].element[FLX_CELL_TRI3], m->sec[s].material, (double)p->E, (double)p->nu, (double)p->rho, (double)p->t, (double)p->kappa_s, (double)p->drill, (double)p->rotary_scale));
    else
      PetscCall(PetscViewerASCIIPrintf(viewer, "  section %s: %s, material %s (E %g, nu %g, rho %g), A %g, Iy %g, Iz %g, J %g, shear areas %g %g%s, rotary inertia x%g\n", m->sec[s].name, m->sec[s].element[FLX_CELL_LINE2], m->sec[s].material, (double)p->E, (double)p->nu, (double)p->rho, (double)p->A, (double)p->Iy, (double)p->Iz, (double)p->J, (double)p->Asy, (double)p->Asz, p->Asy > 0 ? "" : " (Euler-Bernoulli)", (double)p->rotary_scale));
  }
  if (m->aM > 0 || m->bK > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  Rayleigh damping: a_M = %g 1/s, b_K = %g s\n", (double)m->aM, (double)m->bK));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelDestroy(FlxModel *model)
{
  FlxModel m = *model;

  PetscFunctionBegin;
  if (!m) PetscFunctionReturn(0);
  for (PetscInt k = 0; k < m->nsec; k++)
    for (int t = 0; t < FLX_NUM_CELL_TYPES; t++)
      PetscCall(PetscFree(m->sec[k].ops[t]));
  PetscCall(FlxModelDestroyBCs(m));
  for (PetscInt k = 0; k < m->nload; k++) {
    PetscCall(FlxTimeFunctionDestroy(&m->load[k].tf));
    PetscCall(PetscFree2(m->load[k].idx, m->load[k].val));
    PetscCall(VecDestroy(&m->load[k].g));
  }
  PetscCall(FlxModelDestroyResultants(m));
  PetscCall(PetscFree(m->cell_section));
  PetscCall(VecDestroy(&m->mass));
  PetscCall(VecDestroy(&m->free));
  PetscCall(VecDestroy(&m->work));
  PetscCall(MatDestroy(&m->K));
  PetscCall(FlxKMultDestroy(&m->kmult));
  PetscCall(MatDestroy(&m->Mc));
  PetscCall(ISLocalToGlobalMappingDestroy(&m->l2g));
  PetscCall(VecScatterDestroy(&m->tonat));
  PetscCall(VecDestroy(&m->xnat));
  PetscCall(FlxSystemDestroy(&m->sys));
  PetscCall(PetscFree(m));
  *model = NULL;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelGetSystem(FlxModel m, FlxSystem *sys)
{
  PetscFunctionBegin;
  *sys = m->sys;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelGetMesh(FlxModel m, FlxMesh *mesh)
{
  PetscFunctionBegin;
  *mesh = m->mesh;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelCreateVector(FlxModel m, Vec *v)
{
  PetscFunctionBegin;
  PetscCall(VecDuplicate(m->mass, v));
  PetscCall(VecZeroEntries(*v));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelGetStiffness(FlxModel m, Mat *K)
{
  PetscFunctionBegin;
  *K = m->K;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelGetInitialConditions(FlxModel m, Vec x, Vec v)
{
  PetscScalar       *xa, *va;
  const PetscScalar *fr;

  PetscFunctionBegin;
  PetscCall(VecZeroEntries(x));
  PetscCall(VecZeroEntries(v));
  for (PetscInt k = 0; k < m->nic; k++) /* mode shapes first: values on groups then overwrite them */
    if (m->ic[k].type == FLX_IC_MODE) {
      char what[256];
      PetscCall(PetscSNPrintf(what, sizeof(what), "initial condition '%s' (-ic_%s_file)", m->ic[k].name, m->ic[k].name));
      PetscCall(FlxModelReadModeShape(m, m->ic[k].file, m->ic[k].mode, m->ic[k].amplitude, what, m->work));
      PetscCall(VecAXPY(x, 1.0, m->work));
    }
  PetscCall(VecGetArray(x, &xa));
  PetscCall(VecGetArray(v, &va));
  PetscCall(VecGetArrayRead(m->free, &fr));
  for (PetscInt k = 0; k < m->nic; k++) {
    PetscInt        g, n;
    const PetscInt *nodes;
    PetscScalar    *a = m->ic[k].type == FLX_IC_VELOCITY ? va : xa;
    if (m->ic[k].type == FLX_IC_MODE) continue;
    PetscCall(FlxMeshFindGroup(m->mesh, m->ic[k].group, &g));
    PetscCall(FlxMeshGetGroupNodes(m->mesh, g, &n, &nodes));
    for (PetscInt i = 0; i < n; i++)
      for (int d = 0; d < 6; d++)
        a[6 * nodes[i] + d] = m->ic[k].value[d] * fr[6 * nodes[i] + d];
  }
  PetscCall(VecRestoreArrayRead(m->free, &fr));
  PetscCall(VecRestoreArray(x, &xa));
  PetscCall(VecRestoreArray(v, &va));
  PetscCall(VecPointwiseMult(x, x, m->free));
  PetscFunctionReturn(0);
}
