/* Nodal rotary inertia tensors of a FlxSystem (inertia.c; the public functions are in include/flexure/system.h).
   Private to src/steppers. */
#pragma once
#include <flexure/flexure.h>

typedef struct _FlxInertia *FlxInertia;
struct _FlxInertia {
  PetscInt   n;   /* local tensor nodes */
  PetscInt  *dof; /* local index of each node's first rotational DOF */
  PetscReal *J0;  /* material tensors, 9 per node */
  PetscReal *Js;  /* work: spatial tensors, 9 per node */
  PetscBool  has; /* some rank has a tensor node */
};

/* The system's slot for its inertia tensors (system.c). Not collective. */
PETSC_INTERN PetscErrorCode FlxSystemGetInertia_Private(FlxSystem sys, FlxInertia **slot);
/* Free them (FlxSystemDestroy). Not collective. */
PETSC_INTERN PetscErrorCode FlxInertiaDestroy(FlxInertia *in);
