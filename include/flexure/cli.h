/* flexure's command line: the case file (validated before PETSc reads it), the command line itself, the
   reference printed by -help and the exit codes. Used by the flexure program (src/app/main.c); the case-file
   parser is a pure function of a buffer (no PETSc, no MPI), so a fuzzer can call it. */
#pragma once
#include <stddef.h>

/* Exit codes of the flexure program (documented in README.md and -help). */
#define FLX_EXIT_OK 0
#define FLX_EXIT_INPUT 1    /* bad input: case file, option, mesh, model */
#define FLX_EXIT_UNSTABLE 2 /* the run went unstable or a solve diverged */
#define FLX_EXIT_SYSTEM 3   /* I/O or system failure: a write failed, the disk is full, out of memory */
#define FLX_EXIT_INTERNAL 4 /* an internal error (a bug in flexure or a library) */

/* One option of a case file, flattened the way PETSc's YAML reader flattens it. */
typedef struct {
  char *name;  /* option name without the leading '-', e.g. "load_tip_value" */
  char *value; /* its value as PETSc stores it (a list joined with ','; "" when empty) */
  int   line;  /* 1-based line and column of its key */
  int   column;
  int   merged; /* line of the YAML merge key '<<' that brought it in, or 0 */
} FlxCaseOption;

/* The options of a case file, in file order. */
typedef struct {
  FlxCaseOption *opt;
  int            n, cap;
  char          *file; /* the file name used in messages */
} FlxCaseFile;

/* Limits of the case-file reader (beyond them a file is refused with a message). */
#define FLX_CASE_MAX_BYTES (16 * 1024 * 1024)
#define FLX_CASE_MAX_DEPTH 16     /* nested mappings (PETSc allows 25 prefixes) */
#define FLX_CASE_MAX_NAME 255     /* flattened option name (PETSc cuts names at 511 characters) */
#define FLX_CASE_MAX_NODES 100000 /* keys visited, aliases expanded */

/* Parse and validate the YAML case file held in buf[0..len) (need not be NUL-terminated). On success returns 0
   and fills cf (free with FlxCaseFileFree); on failure returns 1, cf is empty and err holds one line
   "FILE:LINE:COLUMN: what is wrong and what to do". Refuses what PETSc's YAML reader would misread or fail on:
   syntax errors, NUL bytes, a root that is not a mapping, keys that are not plain names, duplicate options
   (PETSc keeps the last silently; option names ignore case), a merge key '<<' that would override an explicit
   key, null values (~), lists of lists or of mappings, empty list items, local tags and !include, nesting
   deeper than FLX_CASE_MAX_DEPTH, names longer than FLX_CASE_MAX_NAME. Pure: no I/O, no PETSc, no MPI. */
int FlxCaseFileParse(const char *buf, size_t len, const char *fname, FlxCaseFile *cf, char *err, size_t errlen);
/* Free what FlxCaseFileParse() allocated (safe on an empty or zeroed FlxCaseFile). */
void FlxCaseFileFree(FlxCaseFile *cf);
/* The option of that name (case-insensitive, as PETSc compares names; with or without the leading '-'), or NULL. */
const FlxCaseOption *FlxCaseFileFind(const FlxCaseFile *cf, const char *name);
/* Read a case file into a NUL-terminated buffer (free() it). Refuses a missing or unreadable file, a directory,
   anything but a regular file and files over FLX_CASE_MAX_BYTES, with one line in err. Returns 0 or 1. */
int FlxCaseFileRead(const char *path, char **buf, size_t *len, char *err, size_t errlen);

/* The command line of flexure, split as PETSc would split it. */
typedef struct {
  const char  *command;  /* run, static, modes or stability */
  const char  *casefile; /* or NULL */
  int          help;     /* -help/-h given: 1; "-help petsc": 2; "-help intro": 3 */
  int          nopt;     /* options: name (with '-') and value (NULL for none), in order */
  const char **name, **value;
} FlxCommandLine;

/* Split argv[1..argc) into the subcommand (first, or right after the case file), the case file and the options,
   with PETSc's rule for option values (the next word unless it is an option name; negative numbers are values).
   Returns 0, or 1 with one line in err (an unknown subcommand, two case files, a stray word). Free with
   FlxCommandLineFree. Pure. */
int  FlxCommandLineParse(int argc, char **argv, FlxCommandLine *cl, char *err, size_t errlen);
void FlxCommandLineFree(FlxCommandLine *cl);
/* If value holds a number that is not finite (nan, inf, 1e999), alone or in a comma-separated list, returns 1 and
   copies the offending item to bad. Pure. */
int FlxValueIsNonFinite(const char *value, char *bad, size_t badlen);

#include <petscsys.h>
/* Tell the unused-option check (FlxOptionsCheckUnused) which options came from the case file and which from the
   command line, so that it can name where each comes from, let through the keys of named things the command
   line dropped (-load_names a when the case declares a,b) and the case file's options of the other subcommands.
   Both must outlive the run (NULL to forget). Not collective. */
PETSC_EXTERN PetscErrorCode FlxOptionsSetSources(const FlxCaseFile *cf, const FlxCommandLine *cl);
/* Refuse any option of the case file or the command line whose value is a non-finite number, naming it. Collective. */
PETSC_EXTERN PetscErrorCode FlxOptionsCheckFinite(MPI_Comm comm, const FlxCaseFile *cf, const FlxCommandLine *cl);
/* PETSc's "Input string abc has no numeric value" and "Unknown logical value: maybe" do not name the option:
   rewrite msg to name the option of the command line or the case file (with its line) that holds the value. */
PETSC_EXTERN void FlxOptionsExplainError(char msg[], size_t len);
/* After a run: a warning for each solver diagnostic option (-ts_ksp_view ...) that no solver used. Collective. */
PETSC_EXTERN PetscErrorCode FlxOptionsWarnUnusedDiagnostics(MPI_Comm comm);

/* Print flexure's option reference (-help): every option the readers of the mesh, model, steppers, output,
   modes and stability analysis read, grouped, with default and meaning, named things with NAME in their keys;
   petsc: also PETSc's own options. Reads a private options database, so the user's options do not change it,
   then the user's (a case file's options of its own are added). Collective. */
PETSC_EXTERN PetscErrorCode FlxHelpPrint(MPI_Comm comm, const char usage[], PetscBool petsc);
/* Every option name the reference lists (with NAME), for the "did you mean" of the unused-option check. */
PETSC_EXTERN PetscErrorCode FlxHelpGetOptionNames(MPI_Comm comm, PetscInt *n, const char *const **names);

/* The exit code for the error recorded by FlxErrorHandler (FLX_EXIT_INPUT, _SYSTEM or _INTERNAL). */
PETSC_EXTERN int FlxErrorGetExitCode(void);
