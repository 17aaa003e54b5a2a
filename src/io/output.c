/* FlxOutput: the output of a run. Reads -output_* and -probe_* options, opens the results file,
   writes mesh and attributes, defines the probes and connects the stepper's output callbacks: fields and
   reactions at output steps; the energy ledger, probes and reaction totals per boundary condition at every
   history step (-output_history_interval). */
#include <flexure/flexure.h>
#include <sys/stat.h>
#include "flx_revision.h" /* FLX_GIT_REVISION, written at every build (scripts/revision.cmake) */

#define FLX_MAX_PROBE_NAMES 64

typedef struct {
  char      name[FLX_NAME_LEN];
  PetscInt  node, ndof, dofs[6];
  char      group[FLX_NAME_LEN];
  PetscReal point[3];
  PetscBool bypoint;
} ProbeDef;

#define FLX_HISTORY_ROWS 100000 /* rows of the histories by default (-output_history_interval 0) */

struct _p_FlxOutput {
  MPI_Comm   comm;
  char       path[PETSC_MAX_PATH_LEN], xdmf[PETSC_MAX_PATH_LEN];
  PetscInt   interval, frames;
  ProbeDef   probe[FLX_MAX_PROBE_NAMES];
  PetscInt   nprobe, ntotal;
  FlxWriter  writer;
  FlxModel   model;
  Vec        nat[3];
  PetscReal *times; /* probe times of a flush, grown on demand */
  PetscInt   ntimes;
  PetscInt   hinterval;                     /* -output_history_interval */
  PetscBool  probes_resolved;               /* probe nodes found (FlxOutputSetUpProbes) */
  PetscInt   nbc, hid[FLX_MAX_PROBE_NAMES]; /* reaction totals per boundary condition: /history/reactions/NAME */
  Vec        R, Rnat;                       /* reactions (DOF layout, zero on free DOFs) and in natural order */
  PetscReal *hrow;                          /* staging of one boundary condition's rows */
  PetscInt   nhrow;
  PetscInt   base, hbase; /* base excitation (FlxBaseFormulation) and its history /history/base */
  Vec        bnat;        /* a frame's fields in the other formulation (natural order) */
};

PetscErrorCode FlxOutputCreate(MPI_Comm comm, FlxOutput *out)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(out));
  (*out)->comm      = comm;
  (*out)->frames    = 100;
  (*out)->hinterval = 0;
  PetscCall(PetscStrncpy((*out)->path, "results.h5", sizeof((*out)->path)));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxOutputSetFromOptions(FlxOutput out)
{
  char    *names[FLX_MAX_PROBE_NAMES];
  PetscInt n = FLX_MAX_PROBE_NAMES;

  PetscFunctionBegin;
  PetscOptionsBegin(out->comm, NULL, "Output options", "FlxOutput");
  PetscCall(PetscOptionsString("-output_file", "Results file PATH.h5 (PATH.xdmf is written beside it)", "FlxOutputSetFromOptions", out->path, out->path, sizeof(out->path), NULL));
  PetscCall(PetscOptionsInt("-output_interval", "Steps between field outputs (0: from -output_frames)", "FlxOutputSetFromOptions", out->interval, &out->interval, NULL));
  PetscCall(PetscOptionsInt("-output_frames", "Number of field outputs over the run, when -output_interval is 0", "FlxOutputSetFromOptions", out->frames, &out->frames, NULL));
  PetscCall(PetscOptionsInt("-output_history_interval", "Steps between rows of the histories: probes, energy ledger, reaction totals (the ledger still sums every step); 0: every step up to 100000 steps, else about 100000 rows", "FlxOutputSetFromOptions", out->hinterval, &out->hinterval, NULL));
  PetscCall(PetscOptionsStringArray("-probe_names", "Names of the probes (node DOFs recorded at every history step); each configured with -probe_NAME_node, _group or _point, and _dofs", "FlxOutputSetFromOptions", names, &n, NULL));
  PetscOptionsEnd();
  PetscCheck(out->interval >= 0 && out->frames > 0, out->comm, PETSC_ERR_USER_INPUT, "-output_interval must be >= 0 and -output_frames > 0");
  PetscCheck(out->hinterval >= 0, out->comm, PETSC_ERR_USER_INPUT, "-output_history_interval %" PetscInt_FMT " must be positive (1: every step; 0: automatic)", out->hinterval);
  out->nprobe = n;
  for (PetscInt k = 0; k < n; k++) { /* names become HDF5 groups /probes/NAME */
    size_t len = strlen(names[k]);
    PetscCheck(len > 0 && len < FLX_NAME_LEN, out->comm, PETSC_ERR_USER_INPUT, "-probe_names: probe name '%s' must have 1 to %d characters", names[k], FLX_NAME_LEN - 1);
    PetscCheck(!strchr(names[k], '/') && strcmp(names[k], ".") && strcmp(names[k], ".."), out->comm, PETSC_ERR_USER_INPUT, "-probe_names: probe name '%s' must not contain '/' (nor be . or ..)", names[k]);
    for (PetscInt j = 0; j < k; j++)
      PetscCheck(strcmp(names[j], names[k]), out->comm, PETSC_ERR_USER_INPUT, "-probe_names: probe '%s' is listed twice", names[k]);
  }
  for (PetscInt k = 0; k < n; k++) {
    ProbeDef *p = &out->probe[k];
    char      pre[128], dofs[128] = "ux,uy,uz,rx,ry,rz", buf[128], *tok, *save = NULL, group[PETSC_MAX_PATH_LEN] = "";
    PetscBool setn, setg, setp;
    PetscInt  np = 3;
    PetscCall(PetscStrncpy(p->name, names[k], sizeof(p->name)));
    PetscCall(PetscFree(names[k]));
    PetscCall(PetscSNPrintf(pre, sizeof(pre), "probe_%s_", p->name));
    p->node = -1;
    PetscOptionsBegin(out->comm, pre, "Probe", "FlxOutput");
    PetscCall(PetscOptionsInt("-node", "Node number (0-based, natural order of the mesh)", "FlxOutputSetFromOptions", p->node, &p->node, &setn));
    PetscCall(PetscOptionsString("-group", "Physical group of exactly one node", "FlxOutputSetFromOptions", group, group, sizeof(group), &setg));
    PetscCall(FlxOptionsRealArray("-point", "Coordinates x,y,z: the probe is at the nearest node", "FlxOutputSetFromOptions", p->point, &np, &setp));
    PetscCall(PetscOptionsString("-dofs", "DOFs recorded: list of ux,uy,uz,rx,ry,rz", "FlxOutputSetFromOptions", dofs, dofs, sizeof(dofs), NULL));
    PetscOptionsEnd();
    PetscCheck((setn ? 1 : 0) + (setg ? 1 : 0) + (setp ? 1 : 0) == 1, out->comm, PETSC_ERR_USER_INPUT, "probe '%s': give exactly one of -%snode, -%sgroup or -%spoint", p->name, pre, pre, pre);
    PetscCheck(!setp || np == 3, out->comm, PETSC_ERR_USER_INPUT, "probe '%s': -%spoint needs three coordinates x,y,z", p->name, pre);
    PetscCheck(strlen(group) < sizeof(p->group), out->comm, PETSC_ERR_USER_INPUT, "-%sgroup: group name '%s' is longer than %d characters", pre, group, (int)sizeof(p->group) - 1);
    PetscCall(PetscStrncpy(p->group, group, sizeof(p->group)));
    p->bypoint = setp;
    PetscCall(PetscStrncpy(buf, dofs, sizeof(buf)));
    p->ndof = 0;
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      PetscInt d = -1;
      for (int j = 0; j < 6; j++)
        if (!strcmp(tok, FlxDofNames[j])) d = j;
      PetscCheck(d >= 0 && p->ndof < 6, out->comm, PETSC_ERR_USER_INPUT, "probe '%s': unknown DOF '%s' in -%sdofs (use ux,uy,uz,rx,ry,rz)", p->name, tok, pre);
      p->dofs[p->ndof++] = d;
    }
    out->ntotal += p->ndof;
  }
  PetscFunctionReturn(0);
}

/* Natural node id of the probe nearest to p->point (ties: the lowest id); prints the node and its distance. */
static PetscErrorCode ProbeNearest(FlxOutput out, FlxMesh mesh, ProbeDef *p)
{
  PetscInt         nown, best = PETSC_MAX_INT, gbest;
  const PetscInt  *nat;
  const PetscReal *X;
  PetscReal        d2 = PETSC_MAX_REAL, gd2, xyz[3] = {0, 0, 0}, gxyz[3];

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(mesh, &nown, NULL, NULL));
  PetscCall(FlxMeshGetNaturalIds(mesh, &nat));
  PetscCall(FlxMeshGetCoordinates(mesh, &X));
  for (PetscInt i = 0; i < nown; i++) {
    PetscReal d = 0;
    for (int c = 0; c < 3; c++)
      d += PetscSqr(X[3 * i + c] - p->point[c]);
    if (d < d2 || (d == d2 && nat[i] < best)) {
      d2   = d;
      best = nat[i];
    }
  }
  PetscCallMPI(MPI_Allreduce(&d2, &gd2, 1, MPIU_REAL, MPI_MIN, out->comm));
  if (d2 != gd2) best = PETSC_MAX_INT;
  PetscCallMPI(MPI_Allreduce(&best, &gbest, 1, MPIU_INT, MPI_MIN, out->comm));
  for (PetscInt i = 0; i < nown; i++)
    if (nat[i] == gbest)
      for (int c = 0; c < 3; c++)
        xyz[c] = X[3 * i + c];
  PetscCallMPI(MPI_Allreduce(xyz, gxyz, 3, MPIU_REAL, MPI_SUM, out->comm));
  p->node = gbest;
  PetscCall(PetscPrintf(out->comm, "Probe %s: point (%g, %g, %g) -> node %" PetscInt_FMT " at (%g, %g, %g), distance %g\n", p->name, (double)p->point[0], (double)p->point[1], (double)p->point[2], gbest, (double)gxyz[0], (double)gxyz[1], (double)gxyz[2], (double)PetscSqrtReal(gd2)));
  PetscFunctionReturn(0);
}

/* Natural node id of a probe: given, nearest to a point, or of a one-node group (checked against the mesh). */
static PetscErrorCode ProbeNode(FlxOutput out, FlxMesh mesh, ProbeDef *p)
{
  PetscInt        g, n, tot, id = -1, gid, N;
  const PetscInt *nodes, *nat;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetNodeLayout(mesh, &N, NULL));
  if (p->bypoint) PetscCall(ProbeNearest(out, mesh, p));
  if (!p->group[0]) {
    PetscCheck(p->node >= 0 && p->node < N, out->comm, PETSC_ERR_USER_INPUT, "probe '%s': node %" PetscInt_FMT " (-probe_%s_node) is not in the mesh, whose nodes are 0..%" PetscInt_FMT " (0-based, file order)", p->name, p->node, p->name, N - 1);
    PetscFunctionReturn(0);
  }
  PetscCall(FlxMeshFindGroup(mesh, p->group, &g));
  PetscCheck(g >= 0, out->comm, PETSC_ERR_USER_INPUT, "probe '%s': unknown physical group '%s' (-probe_%s_group)", p->name, p->group, p->name);
  PetscCall(FlxMeshGetGroupNodes(mesh, g, &n, &nodes));
  PetscCall(FlxMeshGetNaturalIds(mesh, &nat));
  PetscCallMPI(MPI_Allreduce(&n, &tot, 1, MPIU_INT, MPI_SUM, out->comm));
  PetscCheck(tot == 1, out->comm, PETSC_ERR_USER_INPUT, "probe '%s': group '%s' has %" PetscInt_FMT " nodes, a probe needs a group of one node (or -probe_%s_node N, -probe_%s_point x,y,z)", p->name, p->group, tot, p->name, p->name);
  if (n) id = nat[nodes[0]];
  PetscCallMPI(MPI_Allreduce(&id, &gid, 1, MPIU_INT, MPI_MAX, out->comm));
  p->node = gid;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxOutputSetUpProbes(FlxOutput out, FlxMesh mesh)
{
  PetscFunctionBegin;
  if (out->probes_resolved) PetscFunctionReturn(0);
  for (PetscInt p = 0; p < out->nprobe; p++)
    PetscCall(ProbeNode(out, mesh, &out->probe[p]));
  out->probes_resolved = PETSC_TRUE;
  PetscFunctionReturn(0);
}

/* Tell the model which groups the probes use as node sets (before FlxModelSetUp), so that a group of cells
   without a section that only a probe names is not refused as unused. Not collective. */
PetscErrorCode FlxOutputUseGroups(FlxOutput out, FlxModel model)
{
  PetscFunctionBegin;
  for (PetscInt p = 0; p < out->nprobe; p++)
    if (out->probe[p].group[0]) PetscCall(FlxModelUseGroup(model, out->probe[p].group));
  PetscFunctionReturn(0);
}

/* Under base excitation, the frame's fields in the formulation not solved: absolute = relative + r u_g (and its
   derivatives), r the rigid translation of every node; fields "absolute_displacement", ... in the relative
   formulation and "relative_displacement", ... in the absolute one. Collective. */
static PetscErrorCode WriteOtherFormulation(FlxOutput out, PetscReal t)
{
  static const char *rel[3] = {"relative_displacement", "relative_velocity", "relative_acceleration"};
  static const char *abs[3] = {"absolute_displacement", "absolute_velocity", "absolute_acceleration"};
  PetscReal          g[3][3], sign = out->base == FLX_BASE_RELATIVE ? 1.0 : -1.0;
  PetscInt           form, n;
  PetscScalar       *b;

  PetscFunctionBegin;
  PetscCall(FlxModelGetBaseMotion(out->model, t, &form, g[0], g[1], g[2]));
  for (int k = 0; k < 3; k++) {
    PetscCall(VecCopy(out->nat[k], out->bnat));
    PetscCall(VecGetLocalSize(out->bnat, &n));
    PetscCall(VecGetArray(out->bnat, &b));
    for (PetscInt i = 0; i < n; i += 6)
      for (int c = 0; c < 3; c++)
        b[i + c] += sign * g[k][c];
    PetscCall(VecRestoreArray(out->bnat, &b));
    PetscCall(FlxWriterWriteFrameNodeField(out->writer, out->base == FLX_BASE_RELATIVE ? abs[k] : rel[k], out->bnat));
  }
  PetscFunctionReturn(0);
}

static PetscErrorCode OutputFields(FlxStepper ts, PetscInt step, PetscReal t, Vec x, Vec v, Vec a, void *ctx)
{
  FlxOutput out   = (FlxOutput)ctx;
  Vec       in[3] = {x, v, a};

  PetscFunctionBegin;
  for (int k = 0; k < 3; k++)
    PetscCall(FlxModelToNatural(out->model, in[k], out->nat[k]));
  PetscCall(FlxWriterWriteFields(out->writer, t, out->nat[0], out->nat[1], out->nat[2]));
  if (out->base != FLX_BASE_NONE) PetscCall(WriteOtherFormulation(out, t));
  PetscCall(FlxModelWriteCellFields(out->model, out->writer, t, x)); /* shell resultants and stresses, beam forces and stresses */
  if (out->nbc) {
    PetscCall(FlxStepperComputeReactions(ts, out->R));
    PetscCall(FlxModelToNatural(out->model, out->R, out->Rnat));
    PetscCall(FlxWriterWriteFrameNodeField(out->writer, "reaction", out->Rnat));
  }
  PetscCall(FlxWriterFlush(out->writer)); /* the frame is complete: one flush for all its fields */
  PetscFunctionReturn(0);
}

/* History callback: this rank's part of the reaction totals of every boundary condition. */
static PetscErrorCode HistoryReactions(FlxStepper ts, PetscReal t, PetscReal local[], void *ctx)
{
  FlxOutput out = (FlxOutput)ctx;

  PetscFunctionBegin;
  PetscCall(FlxStepperComputeReactions(ts, out->R));
  PetscCall(FlxModelComputeReactionTotals(out->model, out->R, local));
  PetscFunctionReturn(0);
}

static PetscErrorCode OutputFlush(FlxStepper ts, PetscInt n, const FlxLedgerRow rows[], const PetscReal probes[], const PetscReal history[], void *ctx)
{
  FlxOutput  out = (FlxOutput)ctx;
  PetscReal *times;
  PetscInt   off = 0;

  PetscFunctionBegin;
  PetscCall(FlxWriterAppendEnergy(out->writer, n, rows));
  if (n > out->ntimes) {
    PetscCall(PetscFree(out->times));
    out->ntimes = n;
    PetscCall(PetscMalloc1(n, &out->times));
  }
  times = out->times;
  for (PetscInt i = 0; i < n; i++)
    times[i] = rows[i].time;
  for (PetscInt p = 0; p < out->nprobe; p++) {
    PetscCall(FlxWriterAppendProbe(out->writer, p, n, times, probes ? probes + 3 * off : NULL, 3 * out->ntotal));
    off += out->probe[p].ndof;
  }
  if (!out->nbc && out->base == FLX_BASE_NONE) PetscFunctionReturn(0);
  PetscCall(FlxWriterAppendHistoryTime(out->writer, n, times));
  if (9 * n > out->nhrow) {
    PetscCall(PetscFree(out->hrow));
    out->nhrow = 9 * n;
    PetscCall(PetscMalloc1(out->nhrow, &out->hrow));
  }
  if (out->base != FLX_BASE_NONE) { /* the ground's motion at the history steps */
    PetscInt form;
    for (PetscInt i = 0; i < n; i++)
      PetscCall(FlxModelGetBaseMotion(out->model, times[i], &form, out->hrow + 9 * i, out->hrow + 9 * i + 3, out->hrow + 9 * i + 6));
    PetscCall(FlxWriterAppendHistory(out->writer, out->hbase, n, out->hrow));
  }
  for (PetscInt b = 0; b < out->nbc; b++) {
    if (history)
      for (PetscInt i = 0; i < n; i++)
        for (int c = 0; c < 6; c++)
          out->hrow[6 * i + c] = history[6 * out->nbc * i + 6 * b + c];
    PetscCall(FlxWriterAppendHistory(out->writer, out->hid[b], n, out->hrow));
  }
  PetscFunctionReturn(0);
}

/* /history/reactions/NAME for every boundary condition, and the history callback that fills them. */
static PetscErrorCode DefineReactionHistories(FlxOutput out, FlxStepper ts)
{
  const char *name;

  PetscFunctionBegin;
  for (out->nbc = 0;; out->nbc++) {
    char path[128];
    PetscCall(FlxModelGetBCName(out->model, out->nbc, &name));
    if (!name) break;
    PetscCheck(out->nbc < FLX_MAX_PROBE_NAMES, out->comm, PETSC_ERR_SUP, "too many boundary conditions");
    PetscCall(PetscSNPrintf(path, sizeof(path), "reactions/%s", name));
    PetscCall(FlxWriterDefineHistory(out->writer, path, 6, "fx,fy,fz,mx,my,mz", &out->hid[out->nbc]));
  }
  if (!out->nbc) PetscFunctionReturn(0);
  PetscCall(FlxModelCreateVector(out->model, &out->R));
  PetscCall(FlxModelCreateNaturalVector(out->model, &out->Rnat));
  PetscCall(FlxStepperSetHistoryFunction(ts, 6 * out->nbc, HistoryReactions, out));
  PetscFunctionReturn(0);
}

/* Rank 0: whether path is the same file as the existing file cand (same device and inode: links, symlinks and
   relative spellings are all seen through). */
static PetscBool SameFile(const char path[], const char cand[])
{
  struct stat a, b;

  return (PetscBool)(!stat(path, &a) && !stat(cand, &b) && S_ISREG(b.st_mode) && a.st_dev == b.st_dev && a.st_ino == b.st_ino);
}

/* Refuse an output path (the results file, its XDMF or its temporary name) that is an input of the run: a file named
   by any option (the mesh, -ts_omega_max_file, tables...) or on the command line (the case file). Collective. */
static PetscErrorCode CheckNotAnInput(FlxOutput out, const char cmdline[])
{
  char       *all, *cmd, *tok, *save = NULL, msg[2 * PETSC_MAX_PATH_LEN + 256] = "", prev[256] = "";
  const char *outs[3];
  char        tmp[PETSC_MAX_PATH_LEN + 8];
  PetscMPIInt rank;
  int         bad = 0;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(out->comm, &rank));
  PetscCall(FlxOutputGetPath(out, &outs[0], &outs[1]));
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", out->path));
  outs[2] = tmp;
  if (rank == 0) {
    PetscCall(PetscOptionsGetAll(NULL, &all));
    PetscCall(PetscStrallocpy(cmdline ? cmdline : "", &cmd));
    for (int src = 0; src < 2 && !bad; src++) {
      save    = NULL;
      prev[0] = 0;
      for (tok = strtok_r(src ? cmd : all, " ", &save); tok && !bad; tok = strtok_r(NULL, " ", &save)) {
        PetscBool isout;
        PetscCall(PetscStrcmp(prev, "-output_file", &isout));
        if (tok[0] == '-') {
          PetscCall(PetscStrncpy(prev, tok, sizeof(prev)));
          continue;
        }
        if (!isout)
          for (int k = 0; k < 3 && !bad; k++)
            if (SameFile(outs[k], tok)) {
              bad = 1;
              PetscCall(PetscSNPrintf(msg, sizeof(msg), "-output_file %s would overwrite %s, an input of this run (%s): choose another output name", out->path, tok, prev[0] ? prev : "the case file"));
            }
        prev[0] = 0;
      }
    }
    PetscCall(PetscFree(all));
    PetscCall(PetscFree(cmd));
  }
  PetscCall(FlxCheckCollective(out->comm, (PetscBool)bad, PETSC_ERR_USER_INPUT, msg));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxOutputSetUp(FlxOutput out, FlxModel model, FlxStepper ts, const char cmdline[])
{
  FlxMesh     mesh;
  PetscInt   *gdofs, k = 0, nsteps;
  PetscMPIInt size;
  char        desc[512];
  const char *type;

  PetscFunctionBegin;
  out->model = model;
  PetscCall(FlxModelGetMesh(model, &mesh));
  PetscCall(FlxOutputSetUpProbes(out, mesh)); /* input errors before the file exists */
  PetscCall(CheckNotAnInput(out, cmdline));
  PetscCall(FlxWriterCreate(out->comm, out->path, &out->writer));
  PetscCall(FlxWriterWriteMesh(out->writer, mesh));
  PetscCall(FlxWriterSetAttribute(out->writer, "flexure_version", FLX_VERSION_STRING));
  PetscCall(FlxWriterSetAttribute(out->writer, "git_revision", FLX_GIT_REVISION));
  PetscCall(FlxWriterSetAttribute(out->writer, "command_line", cmdline));
  PetscCallMPI(MPI_Comm_size(out->comm, &size));
  PetscCall(FlxWriterSetAttributeReal(out->writer, "ranks", size));
  for (int j = 0; j < 3; j++)
    PetscCall(FlxModelCreateNaturalVector(model, &out->nat[j]));
  if (ts) {
    PetscReal dt, hcrit, Om, wp, wb;
    PetscCall(FlxStepperGetDescription(ts, &type, desc, sizeof(desc)));
    PetscCall(FlxStepperGetTimeStep(ts, &dt));
    PetscCall(FlxStepperGetCriticalStep(ts, &hcrit, &Om, &wp, &wb));
    PetscCall(FlxWriterSetAttribute(out->writer, "stepper", type));
    PetscCall(FlxWriterSetAttribute(out->writer, "stepper_parameters", desc));
    PetscCall(FlxWriterSetAttributeReal(out->writer, "dt", dt));
    PetscCall(FlxWriterSetAttributeReal(out->writer, "critical_step", hcrit));
    PetscCall(FlxWriterSetAttributeReal(out->writer, "omega_max_power", wp));
    PetscCall(FlxWriterSetAttributeReal(out->writer, "omega_max_bound", wb));
    PetscCall(PetscMalloc1(out->ntotal + 1, &gdofs));
    for (PetscInt p = 0; p < out->nprobe; p++) {
      char names[64] = "";
      for (PetscInt d = 0; d < out->probe[p].ndof; d++) {
        PetscCall(FlxModelNaturalDof(model, out->probe[p].node, out->probe[p].dofs[d], &gdofs[k++]));
        PetscCall(PetscStrlcat(names, d ? "," : "", sizeof(names)));
        PetscCall(PetscStrlcat(names, FlxDofNames[out->probe[p].dofs[d]], sizeof(names)));
      }
      PetscCall(FlxWriterDefineProbe(out->writer, out->probe[p].name, out->probe[p].ndof, names));
      PetscCall(FlxWriterSetProbeNode(out->writer, p, out->probe[p].node));
    }
    PetscCall(FlxStepperSetProbes(ts, out->ntotal, gdofs));
    PetscCall(PetscFree(gdofs));
    PetscCall(FlxStepperGetNumSteps(ts, &nsteps));
    if (!out->interval) out->interval = PetscMax(1, nsteps / out->frames);
    PetscCall(FlxStepperSetOutput(ts, out->interval, OutputFields, OutputFlush, out));
    if (!out->hinterval) out->hinterval = PetscMax(1, (nsteps + FLX_HISTORY_ROWS - 1) / FLX_HISTORY_ROWS);
    PetscCall(FlxStepperSetHistoryInterval(ts, out->hinterval));
    PetscCall(DefineReactionHistories(out, ts));
    PetscCall(FlxModelGetBaseMotion(model, 0.0, &out->base, NULL, NULL, NULL));
    if (out->base != FLX_BASE_NONE) {
      PetscCall(FlxWriterSetAttribute(out->writer, "base_formulation", out->base == FLX_BASE_RELATIVE ? "relative" : "absolute"));
      PetscCall(FlxWriterDefineHistory(out->writer, "base", 9, "ux_g,uy_g,uz_g,vx_g,vy_g,vz_g,ax_g,ay_g,az_g", &out->hbase));
      PetscCall(FlxModelCreateNaturalVector(model, &out->bnat));
    }
  }
  PetscCall(FlxWriterFlush(out->writer));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxOutputGetWriter(FlxOutput out, FlxWriter *w)
{
  PetscFunctionBegin;
  *w = out->writer;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxOutputGetPath(FlxOutput out, const char **h5, const char **xdmf)
{
  size_t len;

  PetscFunctionBegin;
  PetscCall(PetscStrncpy(out->xdmf, out->path, sizeof(out->xdmf)));
  PetscCall(PetscStrlen(out->path, &len));
  if (len > 3 && !strcmp(out->path + len - 3, ".h5")) out->xdmf[len - 3] = 0;
  PetscCall(PetscStrlcat(out->xdmf, ".xdmf", sizeof(out->xdmf)));
  if (h5) *h5 = out->path;
  if (xdmf) *xdmf = out->xdmf;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxOutputDestroy(FlxOutput *out)
{
  PetscFunctionBegin;
  if (!*out) PetscFunctionReturn(0);
  PetscCall(FlxWriterDestroy(&(*out)->writer));
  for (int j = 0; j < 3; j++)
    PetscCall(VecDestroy(&(*out)->nat[j]));
  PetscCall(VecDestroy(&(*out)->bnat));
  PetscCall(VecDestroy(&(*out)->R));
  PetscCall(VecDestroy(&(*out)->Rnat));
  PetscCall(PetscFree((*out)->hrow));
  PetscCall(PetscFree((*out)->times));
  PetscCall(PetscFree(*out));
  PetscFunctionReturn(0);
}

/* Print the probed DOFs of u (e.g. a static solution) on rank 0: "probe NAME DOF = value". Collective. */
PetscErrorCode FlxOutputPrintProbes(FlxOutput out, Vec u)
{
  PetscInt lo, hi;

  PetscFunctionBegin;
  PetscCall(VecGetOwnershipRange(u, &lo, &hi));
  for (PetscInt p = 0; p < out->nprobe; p++)
    for (PetscInt d = 0; d < out->probe[p].ndof; d++) {
      PetscInt    g;
      PetscScalar val = 0, sum;
      PetscCall(FlxModelNaturalDof(out->model, out->probe[p].node, out->probe[p].dofs[d], &g));
      if (g >= lo && g < hi) PetscCall(VecGetValues(u, 1, &g, &val));
      PetscCallMPI(MPI_Allreduce(&val, &sum, 1, MPIU_SCALAR, MPI_SUM, out->comm));
      PetscCall(PetscPrintf(out->comm, "probe %s %s = %.15e\n", out->probe[p].name, FlxDofNames[out->probe[p].dofs[d]], (double)sum));
    }
  PetscFunctionReturn(0);
}

/* Reactions of a static solution u: /static/reaction (N x 6, zero on free DOFs) and the totals of every
   boundary condition printed. Collective. */
PetscErrorCode FlxOutputWriteStaticReactions(FlxOutput out, Vec u)
{
  Vec         R, Rnat;
  PetscReal  *loc, *tot;
  PetscInt    nbc = 0;
  const char *name;

  PetscFunctionBegin;
  for (;; nbc++) {
    PetscCall(FlxModelGetBCName(out->model, nbc, &name));
    if (!name) break;
  }
  if (!nbc) PetscFunctionReturn(0);
  PetscCall(FlxModelCreateVector(out->model, &R));
  PetscCall(FlxModelCreateNaturalVector(out->model, &Rnat));
  PetscCall(FlxModelComputeStaticReactions(out->model, u, R));
  PetscCall(FlxModelToNatural(out->model, R, Rnat));
  PetscCall(FlxWriterWriteFrameNodeField(out->writer, "reaction", Rnat));
  PetscCall(PetscMalloc2(6 * nbc, &loc, 6 * nbc, &tot));
  PetscCall(FlxModelComputeReactionTotals(out->model, R, loc));
  PetscCallMPI(MPI_Allreduce(loc, tot, (PetscMPIInt)(6 * nbc), MPIU_REAL, MPI_SUM, out->comm));
  for (PetscInt b = 0; b < nbc; b++) {
    PetscReal p[3], *t = tot + 6 * b;
    PetscCall(FlxModelGetBCName(out->model, b, &name));
    PetscCall(FlxModelGetReactionPoint(out->model, b, p));
    PetscCall(PetscPrintf(out->comm, "reaction %s: force %.10e %.10e %.10e N, moment %.10e %.10e %.10e N m about (%g, %g, %g)\n", name, (double)t[0], (double)t[1], (double)t[2], (double)t[3], (double)t[4], (double)t[5], (double)p[0], (double)p[1], (double)p[2]));
  }
  PetscCall(PetscFree2(loc, tot));
  PetscCall(VecDestroy(&R));
  PetscCall(VecDestroy(&Rnat));
  PetscFunctionReturn(0);
}
