/* What sets the explicit critical step: the element with the largest element frequency (the element-by-element
   bound lambda_max(M_e^-1 K_e) >= omega_max^2) and the kind of its highest mode, read from the mode's kinetic
   energy: rotations (rotary inertia sets the step: the radius of gyration of a beam section, the thickness of a
   shell), translations along the element (axial or membrane stiffness and the element size), or across it
   (transverse shear and bending). */
#include <flexure/private/modelimpl.h>
#include <petscblaslapack.h>

/* Kinetic-energy fractions of the highest mode of element c: rotation, translation in the element's axis or plane,
   translation normal to it (beams: across the axis). */
static PetscErrorCode ModeFractions(FlxModel m, PetscInt c, PetscReal frac[3])
{
  const FlxSectionProps *p;
  FlxElementOps          ops;
  FlxCellType            t;
  PetscReal              xyz[12], Ke[576], me[24], A[576], w[24], work[24 * 34], axis[3] = {0, 0, 0}, nrm;
  PetscInt               nn;
  PetscBLASInt           n, lwork = 24 * 34, info;
  char                   err[256];

  PetscFunctionBegin;
  PetscCall(FlxModelElementProps(m, c, &p, &ops, xyz));
  PetscCall(FlxMeshGetCell(m->mesh, c, &t, &nn, NULL, NULL));
  n = (PetscBLASInt)(6 * nn);
  PetscCall(ops->stiffness(xyz, p, Ke, err, sizeof(err)));
  PetscCall(ops->lumped_mass(xyz, p, me));
  for (PetscInt i = 0; i < n; i++) /* A = M^-1/2 K M^-1/2 (column-major = row-major: symmetric) */
    for (PetscInt j = 0; j < n; j++)
      A[i * n + j] = me[i] > 0 && me[j] > 0 ? Ke[i * n + j] / PetscSqrtReal(me[i] * me[j]) : 0;
  PetscCall(PetscFPTrapPush(PETSC_FP_TRAP_OFF));
  PetscCallBLAS("LAPACKsyev", LAPACKsyev_("V", "U", &n, A, &n, w, work, &lwork, &info));
  PetscCall(PetscFPTrapPop());
  PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK syev failed (%d)", (int)info);
  if (t == FLX_CELL_LINE2)
    for (int d = 0; d < 3; d++)
      axis[d] = xyz[3 + d] - xyz[d];
  else { /* normal: cross product of the diagonals (quads) or of two edges (triangles) */
    PetscReal a[3], b[3];
    for (int d = 0; d < 3; d++) {
      a[d] = xyz[6 + d] - xyz[d];
      b[d] = nn == 4 ? xyz[9 + d] - xyz[3 + d] : xyz[3 + d] - xyz[d];
    }
    axis[0] = a[1] * b[2] - a[2] * b[1];
    axis[1] = a[2] * b[0] - a[0] * b[2];
    axis[2] = a[0] * b[1] - a[1] * b[0];
  }
  nrm = PetscSqrtReal(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  for (int d = 0; d < 3; d++)
    axis[d] /= nrm > 0 ? nrm : 1;
  frac[0] = frac[1] = frac[2] = 0;
  for (PetscInt a = 0; a < nn; a++) { /* the last eigenvector (largest eigenvalue), y = M^1/2 phi: y^2 is kinetic energy */
    const PetscReal *y     = A + (n - 1) * n + 6 * a;
    PetscReal        along = y[0] * axis[0] + y[1] * axis[1] + y[2] * axis[2], tt = y[0] * y[0] + y[1] * y[1] + y[2] * y[2];
    frac[0] += y[3] * y[3] + y[4] * y[4] + y[5] * y[5];
    if (t == FLX_CELL_LINE2) {
      frac[1] += along * along;
      frac[2] += tt - along * along;
    } else {
      frac[1] += tt - along * along;
      frac[2] += along * along;
    }
  }
  PetscFunctionReturn(0);
}

PetscErrorCode FlxModelDescribeCriticalElement(FlxModel m, char buf[], size_t len)
{
  struct {
    double l;
    int    r;
  } mine, top;
  PetscMPIInt rank;
  char        msg[512] = "";

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(m->comm, &rank));
  mine.l = m->crit_cell >= 0 ? (double)m->crit_lambda : -1;
  mine.r = rank;
  PetscCallMPI(MPI_Allreduce(&mine, &top, 1, MPI_DOUBLE_INT, MPI_MAXLOC, m->comm));
  if (rank == (PetscMPIInt)top.r && m->crit_cell >= 0) {
    PetscReal      f[3] = {0, 0, 0};
    char           desc[256];
    const char    *what;
    PetscBool      shell = (PetscBool)(m->sec[m->cell_section[m->crit_cell]].shell);
    PetscErrorCode ierr;
    PetscCall(FlxModelCellDescription(m, m->crit_cell, desc, sizeof(desc)));
    ierr = ModeFractions(m, m->crit_cell, f); /* a description only: its failure (LAPACK) must not stop this rank alone */
    if (ierr) {
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s (section '%s'): its highest mode could not be analysed (%s)", desc, m->sec[m->cell_section[m->crit_cell]].name, FlxErrorGetMessage()));
    } else {
      if (f[0] >= f[1] && f[0] >= f[2])
        what = shell ? "rotary inertia sets it (thickness t: the rotation and transverse-shear mode scales with t; -section_NAME_rotary_inertia_scale raises the step)" : "rotary inertia sets it (the section's radius of gyration against the element length; -section_NAME_rotary_inertia_scale raises the step)";
      else if (f[1] >= f[2])
        what = shell ? "the membrane stiffness and the element size set it" : "the axial stiffness and the element length set it";
      else
        what = shell ? "transverse shear and bending across the element set it" : "transverse shear and bending set it";
      PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s (section '%s'): its highest mode is %.0f%% rotation, %.0f%% %s, %.0f%% %s translation: %s", desc, m->sec[m->cell_section[m->crit_cell]].name, (double)(100 * f[0]), (double)(100 * f[1]), shell ? "in-plane" : "axial", (double)(100 * f[2]), shell ? "normal" : "transverse", what));
    }
  }
  PetscCallMPI(MPI_Bcast(msg, sizeof(msg), MPI_CHAR, (PetscMPIInt)top.r, m->comm));
  PetscCall(PetscStrncpy(buf, msg, len));
  PetscFunctionReturn(0);
}
