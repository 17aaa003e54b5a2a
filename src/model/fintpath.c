/* The path of the linear elements' internal force (-model_internal_force): the element loop (ebe.c) or the assembled
   K (assemble.c, kmult.c), chosen by the roofline of one product of each: time ~ max(bytes, flops / B) with B the
   machine's balance in flops per byte (-model_machine_balance; flexure-bench measures it: the element kernels'
   in-cache rate over the STREAM triad's bandwidth). The choice depends on the mesh and the options only, so it is the
   same at any number of ranks. Also the products through either path on request (flexure-bench, the tests) and the
   roofline's numbers. */
#include <flexure/private/modelimpl.h>

const char *const FlxInternalForcePaths[] = {"auto", "elements", "assembled", "FlxInternalForcePath", "FLX_FINT_", NULL};

/* Time of a product on the roofline, in units of bytes at the machine's bandwidth: max(bytes, flops / balance). */
static PetscReal Roofline(PetscReal bytes, PetscReal flops, PetscReal balance)
{
  return PetscMax(bytes, flops / balance);
}

/* Bytes and flops of one assembled product (global): the blocks' values and column indices, the row starts, x and f. */
static PetscErrorCode AssembledCost(FlxModel m, PetscReal *bytes, PetscReal *flops)
{
  PetscInt        nown;
  const PetscInt *dnz, *onz;
  PetscReal       c[2], blocks = 0;

  PetscFunctionBegin;
  PetscCall(FlxMeshGetLocalSizes(m->mesh, &nown, NULL, NULL));
  PetscCall(FlxMeshGetPreallocation(m->mesh, &dnz, &onz));
  for (PetscInt i = 0; i < nown; i++)
    blocks += dnz[i] + onz[i];
  c[0] = blocks * (36 * sizeof(PetscScalar) + sizeof(PetscInt)) + (nown + 1) * sizeof(PetscInt) + 16.0 * 6 * nown;
  c[1] = 72 * blocks;
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, c, 2, MPIU_REAL, MPIU_SUM, m->comm));
  *bytes = c[0];
  *flops = c[1];
  PetscFunctionReturn(0);
}

static PetscErrorCode ElementCost(FlxModel m, PetscReal *bytes, PetscReal *flops)
{
  PetscReal c[2];

  PetscFunctionBegin;
  /* one product K x (the co-rotational cells linearized) over the owned cells: the halo cells a rank also computes
     would make the sum, and so the choice, depend on the number of ranks */
  PetscCall(FlxEbeGetCost(m->ebe, PETSC_TRUE, PETSC_TRUE, &c[0], &c[1]));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, c, 2, MPIU_REAL, MPIU_SUM, m->comm));
  *bytes = c[0];
  *flops = c[1];
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelChooseInternalForce(FlxModel m)
{
  PetscFunctionBegin;
  PetscCall(AssembledCost(m, &m->fint.kbytes, &m->fint.kflops));
  if (m->fint_type != FLX_FINT_ASSEMBLED) {
    PetscCall(FlxEbeCreate(m, &m->ebe));
    PetscCall(ElementCost(m, &m->fint.ebytes, &m->fint.eflops));
  }
  m->fint.chosen_by_roofline = (PetscBool)(m->fint_type == FLX_FINT_AUTO);
  m->fint_elements           = (PetscBool)(m->ebe != NULL);
  if (m->fint_type == FLX_FINT_AUTO && Roofline(m->fint.ebytes, m->fint.eflops, m->balance) > Roofline(m->fint.kbytes, m->fint.kflops, m->balance)) {
    PetscCall(FlxEbeDestroy(&m->ebe));
    m->fint_elements = PETSC_FALSE;
  }
  if (!m->fint_elements) PetscCall(FlxModelAssembleStiffness(m));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelGetInternalForcePath(FlxModel m, FlxInternalForcePath *path)
{
  PetscFunctionBegin;
  *path = m->fint_elements ? FLX_FINT_ELEMENTS : FLX_FINT_ASSEMBLED;
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelMultStiffness(FlxModel m, FlxInternalForcePath path, Vec x, Vec y)
{
  PetscFunctionBegin;
  if (path == FLX_FINT_AUTO) path = m->fint_elements ? FLX_FINT_ELEMENTS : FLX_FINT_ASSEMBLED;
  if (path == FLX_FINT_ELEMENTS) {
    if (!m->ebe) {
      PetscCall(FlxEbeCreate(m, &m->ebe));
      PetscCall(ElementCost(m, &m->fint.ebytes, &m->fint.eflops));
    }
    PetscCall(FlxEbeApply(m->ebe, x, y, PETSC_TRUE, NULL)); /* co-rotational beams linearized, as in K */
  } else {
    PetscCall(FlxModelAssembleStiffness(m));
    PetscCall(FlxKMultApply(m->kmult, x, y));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelGetInternalForceRoofline(FlxModel m, PetscBool measure, FlxInternalForceRoofline *r)
{
  PetscFunctionBegin;
  r->ebytes   = m->fint.ebytes;
  r->eflops   = m->fint.eflops;
  r->kbytes   = m->fint.kbytes;
  r->kflops   = m->fint.kflops;
  r->ecompute = 0;
  if (measure && m->ebe) {
    PetscCall(FlxEbeComputeTime(m->ebe, &r->ecompute));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &r->ecompute, 1, MPIU_REAL, MPIU_MAX, m->comm));
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelViewInternalForce(FlxModel m, PetscViewer viewer)
{
  PetscInt  N, counts[FLX_EBE_NCLASSES] = {0}, near = 0, mixed = 0;
  PetscReal B         = m->balance, te, tk;
  char      list[512] = "";

  PetscFunctionBegin;
  PetscCall(VecGetSize(m->mass, &N));
  if (m->fint_elements) {
    PetscCall(FlxEbeGetCounts(m->ebe, counts));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, counts, FLX_EBE_NCLASSES, MPIU_INT, MPI_SUM, m->comm));
    PetscCall(FlxEbeGetHalo(m->ebe, &near, &mixed));
    PetscCall(PetscInfo(NULL, "element loop: %" PetscInt_FMT " cells touch a ghost node (after the halo exchange), %" PetscInt_FMT " owned nodes sum their terms in slots on this rank\n", near, mixed));
    for (int k = 0; k < FLX_EBE_NCLASSES; k++) {
      char one[128];
      if (!counts[k]) continue;
      PetscCall(PetscSNPrintf(one, sizeof(one), "%s%" PetscInt_FMT " %s", list[0] ? ", " : "", counts[k], FlxEbeClassName(k)));
      FlxStrlcat(list, one, sizeof(list));
    }
    PetscCall(PetscViewerASCIIPrintf(viewer, "  internal force: element by element (%s), the stiffness assembled only if a solve needs it (%s)\n", list, m->fint.chosen_by_roofline ? "-model_internal_force auto" : "-model_internal_force elements"));
  } else
    PetscCall(PetscViewerASCIIPrintf(viewer, "  internal force: assembled stiffness K (%s)\n", m->fint.chosen_by_roofline ? "-model_internal_force auto" : "-model_internal_force assembled"));
  if (m->fint.ebytes > 0) {
    te = Roofline(m->fint.ebytes, m->fint.eflops, B);
    tk = Roofline(m->fint.kbytes, m->fint.kflops, B);
    PetscCall(PetscViewerASCIIPrintf(viewer, "  roofline of one product per DOF: elements %.0f B, %.0f flops (%.2f flops/B), assembled %.0f B, %.0f flops (%.2f flops/B); machine balance %g flops/B (-model_machine_balance): elements %s bound, estimated %.2f x the assembled product\n", (double)(m->fint.ebytes / N), (double)(m->fint.eflops / N), (double)(m->fint.eflops / m->fint.ebytes), (double)(m->fint.kbytes / N), (double)(m->fint.kflops / N), (double)(m->fint.kflops / m->fint.kbytes), (double)B, m->fint.eflops / m->fint.ebytes > B ? "compute" : "memory", (double)(te / tk)));
  }
  PetscFunctionReturn(0);
}
