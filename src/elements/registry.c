/* Element registry: name -> function that fills the kernel table. */
#include <flexure/private/elementimpl.h>

static PetscFunctionList FlxElementList = NULL;

PetscErrorCode FlxElementRegister(const char name[], PetscErrorCode (*create)(FlxElementOps))
{
  PetscFunctionBegin;
  PetscCall(PetscFunctionListAdd(&FlxElementList, name, create));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxElementFinalizeRegistry(void)
{
  PetscFunctionBegin;
  PetscCall(PetscFunctionListDestroy(&FlxElementList));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxElementRegisterAll(void)
{
  PetscFunctionBegin;
  PetscCall(FlxElementRegister(FLXELEMENTBEAM3D, FlxElementCreate_Beam3d));
  PetscCall(FlxElementRegister(FLXELEMENTMITC4, FlxElementCreate_MITC4));
  PetscCall(FlxElementRegister(FLXELEMENTDKT3, FlxElementCreate_DKT3));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxElementGetOps(const char name[], FlxElementOps *ops)
{
  PetscErrorCode (*create)(FlxElementOps) = NULL;

  PetscFunctionBegin;
  PetscCall(FlxInitializePackage());
  PetscCall(PetscFunctionListFind(FlxElementList, name, &create));
  PetscCheck(create, PETSC_COMM_SELF, PETSC_ERR_USER_INPUT, "unknown element type '%s'", name);
  PetscCall(PetscNew(ops));
  PetscCall(create(*ops));
  PetscFunctionReturn(0);
}

PetscErrorCode FlxElementOmegaSquaredBound(PetscInt n, const PetscReal K[], const PetscReal m[], PetscReal *lambda)
{
  PetscReal A[24 * 24], w[24], s[24];

  PetscFunctionBegin;
  PetscCheck(n <= 24, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "element too large for the bound");
  for (PetscInt i = 0; i < n; i++)
    s[i] = m[i] > 0 ? 1 / PetscSqrtReal(m[i]) : 0;
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < n; j++)
      A[i * n + j] = s[i] * K[i * n + j] * s[j];
  PetscCall(FlxSymEigenvalues(n, A, w));
  *lambda = w[n - 1];
  PetscFunctionReturn(0);
}
