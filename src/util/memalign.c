/* Cache-line alignment of PETSc's allocations.

   PETSc 3.18 as Debian builds it aligns its allocations to PETSC_MEMALIGN = 16 bytes (posix_memalign(16)); glibc
   serves a large block from an mmap or from the heap, 16-byte aligned at best: the Vec arrays of a 1e6-DOF model
   were measured 48 bytes past a cache line. Every 64-byte vector load or store of a vectorized loop over such
   arrays (the GCD fused pass, the element loop's gathers, BLAS) then spans two cache lines: measured on the 1e6-DOF
   plate (scripts/bench), the gcd5 fused pass took 5.0 ns per DOF on the Vecs and 2.05 on the same data 64-byte
   aligned. FlxMemoryAlignInstall puts an allocator with 64-byte alignment in PETSc's place. It is posix_memalign and
   free like PETSc's own, so blocks allocated before the switch are freed correctly after it. It is not installed
   when PETSc traces its allocations (-malloc_debug, -malloc_dump, -malloc_view, -log_view_memory): their allocator
   stays, and alignment is only a matter of speed. */
#include <flexure/flexure.h>
#include <stdlib.h>
#include <string.h>

#define FLX_MEMALIGN 64 /* a cache line; the widest vector (AVX-512) */

#if defined(PETSC_HAVE_POSIX_MEMALIGN) && !defined(PETSC_HAVE_MEMKIND)
static PetscErrorCode MallocAligned(size_t mem, PetscBool clear, int line, const char func[], const char file[], void **result)
{
  if (!mem) {
    *result = NULL;
    return 0;
  }
  if (posix_memalign(result, FLX_MEMALIGN, mem)) {
    *result = NULL;
    return PetscError(PETSC_COMM_SELF, line, func, file, PETSC_ERR_MEM, PETSC_ERROR_INITIAL, "Memory requested %.0f", (PetscLogDouble)mem);
  }
  if (clear) memset(*result, 0, mem);
  return 0;
}

static PetscErrorCode FreeAligned(void *ptr, int line, const char func[], const char file[])
{
  free(ptr);
  return 0;
}

/* realloc keeps no alignment beyond malloc's (16 bytes): a misaligned result is moved to an aligned block */
static PetscErrorCode ReallocAligned(size_t mem, int line, const char func[], const char file[], void **result)
{
  void *p;

  if (!mem) {
    free(*result);
    *result = NULL;
    return 0;
  }
  p = realloc(*result, mem);
  if (!p) return PetscError(PETSC_COMM_SELF, line, func, file, PETSC_ERR_MEM, PETSC_ERROR_INITIAL, "Memory requested %.0f", (PetscLogDouble)mem);
  if ((size_t)p % FLX_MEMALIGN) {
    void *q;
    if (posix_memalign(&q, FLX_MEMALIGN, mem)) {
      *result = p; /* still valid: the caller keeps its block */
      return PetscError(PETSC_COMM_SELF, line, func, file, PETSC_ERR_MEM, PETSC_ERROR_INITIAL, "Memory requested %.0f", (PetscLogDouble)mem);
    }
    memcpy(q, p, mem);
    free(p);
    p = q;
  }
  *result = p;
  return 0;
}
#endif

/* Make PETSc's allocations (Vec arrays among them) 64-byte aligned, unless PETSc traces them or this PETSc does not
   allocate with posix_memalign and free. Called by FlxInitializePackage; idempotent. Not collective. */
PetscErrorCode FlxMemoryAlignInstall(void)
{
#if defined(PETSC_HAVE_POSIX_MEMALIGN) && !defined(PETSC_HAVE_MEMKIND)
  PetscBool      traced;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  if (PetscTrMalloc == MallocAligned) PetscFunctionReturn(0); /* PetscFinalize puts PETSc's back: a restart installs it again */
  PetscCall(PetscMallocGetDebug(&traced, NULL, NULL));
  if (traced) PetscFunctionReturn(0);
  /* PetscMallocSet refuses when PETSc has set its allocator itself (an option such as -malloc_hbw): keep that one */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PetscMallocSet(MallocAligned, FreeAligned, ReallocAligned);
  PetscCall(PetscPopErrorHandler());
  (void)ierr;
  PetscFunctionReturn(0);
#else
  return 0;
#endif
}

/* aligned: PETSC_TRUE when PETSc allocates through the 64-byte aligned allocator of FlxMemoryAlignInstall (and a block
   of 1 MB it returns is aligned). Not collective. */
PetscErrorCode FlxMemoryAligned(PetscBool *aligned)
{
  PetscFunctionBegin;
  *aligned = PETSC_FALSE;
#if defined(PETSC_HAVE_POSIX_MEMALIGN) && !defined(PETSC_HAVE_MEMKIND)
  if (PetscTrMalloc == MallocAligned) {
    void *p = NULL;
    PetscCall(PetscMalloc(1 << 20, &p));
    *aligned = (PetscBool)((size_t)p % FLX_MEMALIGN == 0);
    PetscCall(PetscFree(p));
  }
#endif
  PetscFunctionReturn(0);
}
