/* FlxModes: natural frequencies and mode shapes of a model with SLEPc, for the lumped-mass system
   K x = omega^2 M x on the free DOFs. The lowest modes come from shift-and-invert (direct solver by
   default, any KSP/PC through -modes_st_ksp_type/-modes_st_pc_type), the highest frequency from a
   Krylov-Schur solve for the largest eigenvalue (what the explicit step needs). */
#pragma once
#include <flexure/model.h>
#include <flexure/writer.h>

typedef struct _p_FlxModes *FlxModes;

/* Create the modal analysis of a set-up model. Collective. */
PETSC_EXTERN PetscErrorCode FlxModesCreate(FlxModel model, FlxModes *modes);
/* -modes_n, -modes_rigid_tol, -modes_omega_max, and the SLEPc options under -modes_. Collective. */
PETSC_EXTERN PetscErrorCode FlxModesSetFromOptions(FlxModes modes);
/* Solve for the lowest modes and the highest frequency. Collective. */
PETSC_EXTERN PetscErrorCode FlxModesSolve(FlxModes modes);
/* Print the table of frequencies (rigid-body modes marked) and omega_max. Collective. */
PETSC_EXTERN PetscErrorCode FlxModesView(FlxModes modes, PetscViewer viewer);
/* Write /modes to the results file. Collective. */
PETSC_EXTERN PetscErrorCode FlxModesWrite(FlxModes modes, FlxWriter w);
/* Number of converged modes, frequency (Hz) of mode k and whether it is a rigid-body mode. Not collective. */
PETSC_EXTERN PetscErrorCode FlxModesGetNumModes(FlxModes modes, PetscInt *n);
PETSC_EXTERN PetscErrorCode FlxModesGetFrequency(FlxModes modes, PetscInt k, PetscReal *hz, PetscBool *rigid);
/* Highest circular frequency of the lumped-mass system (rad/s). Not collective. */
PETSC_EXTERN PetscErrorCode FlxModesGetOmegaMax(FlxModes modes, PetscReal *omega_max);
/* With -modes_deformed: the deformed static state the modes are about (DOF vector, owned by modes), else NULL. Not collective. */
PETSC_EXTERN PetscErrorCode FlxModesGetDeformedState(FlxModes modes, Vec *x);
PETSC_EXTERN PetscErrorCode FlxModesDestroy(FlxModes *modes);
