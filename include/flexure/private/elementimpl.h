#pragma once
#include <flexure/flexure.h>
PETSC_INTERN PetscErrorCode FlxElementRegisterAll(void);
PETSC_INTERN PetscErrorCode FlxElementFinalizeRegistry(void);
PETSC_INTERN PetscErrorCode FlxElementCreate_Beam3d(FlxElementOps);
