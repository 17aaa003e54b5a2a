/* A named numerical check for the C tests (test_ebe.c, test_nlforce.c, test_springrot.c): prints the error against
   its tolerance and counts the failures in testcheck_fails (the test's exit code). Collective on comm (prints). */
#pragma once
#include <petscsys.h>

static PetscInt testcheck_fails = 0;

static inline PetscErrorCode Check(MPI_Comm comm, const char *what, PetscReal err, PetscReal tol)
{
  PetscBool ok = (PetscBool)(err <= tol);

  PetscFunctionBegin;
  if (!ok) testcheck_fails++;
  PetscCall(PetscPrintf(comm, "%-78s %10.3e (tol %8.1e) %s\n", what, (double)err, (double)tol, ok ? "ok" : "FAILED"));
  PetscFunctionReturn(0);
}
