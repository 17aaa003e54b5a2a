/* FlxWriter: one HDF5 results file per run, written collectively with parallel HDF5, and an XDMF file beside it so
   that ParaView opens it (its default reader, Xdmf3, and the legacy one). Layout (README "Output"): /mesh, /time,
   /fields/NAME (node fields, T x N x 6) and /fields/NAME/TYPE (cell fields, T x E_t x ncomp), /static/... for a file
   without frames, /modes, /history/NAME series, /energy, /probes/NAME and root attributes.
   Every HDF5 failure, on any rank, is decided collectively: all ranks stop at the same call, the file is closed (what
   was flushed before stays readable) and PETSC_ERR_FILE_WRITE is raised everywhere with the cause ("no space left on
   device"). Space for each write is reserved before HDF5 writes it, so a full disk is found before the file is
   touched. Each frame is flushed once complete; the XDMF is replaced atomically, so a killed run leaves both files readable. */
#pragma once
#include <flexure/mesh.h>
#include <flexure/stepper.h>
#include <flexure/model.h>

typedef struct _p_FlxWriter *FlxWriter;

/* Create PATH.h5 (written under PATH.h5.tmp until its mesh is flushed, so an earlier file of that name survives a
   failed set-up) and remember PATH.xdmf beside it. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterCreate(MPI_Comm comm, const char path[], FlxWriter *w);
/* Write /mesh from the mesh (needs the mesh of rank 0, i.e. before it is released), and /mesh/node_groups
   (N x G, 1 where node n belongs to group g), then give the file its name. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterWriteMesh(FlxWriter w, FlxMesh mesh);
/* Root attributes. Collective, same values on all ranks. */
PETSC_EXTERN PetscErrorCode FlxWriterSetAttribute(FlxWriter w, const char name[], const char value[]);
PETSC_EXTERN PetscErrorCode FlxWriterSetAttributeReal(FlxWriter w, const char name[], PetscReal value);
/* Append one output step: /time and the node fields displacement, velocity, acceleration given in natural order
   (6 per node). Starts a frame; the frame's other fields follow with FlxWriterWriteFrameNodeField and
   FlxWriterWriteCellField, then FlxWriterFlush (one flush per frame; a frame left unflushed is flushed when the next
   one starts or the writer is destroyed). Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterWriteFields(FlxWriter w, PetscReal t, Vec x, Vec v, Vec a);
/* An extra node field (6 per node, natural order, e.g. "reaction") at the frame just written: /fields/NAME
   (T x N x 6); in a file without frames (static), /static/NAME (N x 6). Listed in the XDMF. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterWriteFrameNodeField(FlxWriter w, const char name[], Vec xnat);
/* A cell field: r[t] holds ncomp values per cell of type t in natural order (NULL for types without this field).
   In a transient file, at the frame just written: /fields/NAME/TYPE (T x E_t x ncomp); in a file without frames:
   /static/NAME/TYPE (E_t x ncomp). Attribute "components" names the columns (compnames). Each component is a cell
   attribute "NAME_COMPONENT" of the XDMF. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterWriteCellField(FlxWriter w, const char name[], PetscInt ncomp, const char *const compnames[], Vec r[]);
/* The same, in pieces, so that no rank holds a whole field: Begin names the field and the types that carry it
   (has[t]) and creates or extends their datasets; each Rows call writes rows [lo, lo + n) of type t's natural order
   from rows (n rows of width >= ncomp values, the first ncomp written; n may be 0, and every rank makes the same
   number of calls for each type); End completes the field. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterBeginCellField(FlxWriter w, const char name[], PetscInt ncomp, const char *const compnames[], const PetscBool has[]);
PETSC_EXTERN PetscErrorCode FlxWriterWriteCellFieldRows(FlxWriter w, int t, PetscInt lo, PetscInt n, PetscInt width, const PetscScalar rows[]);
PETSC_EXTERN PetscErrorCode FlxWriterEndCellField(FlxWriter w);
/* Write a single node field (N x 6, natural order) as dataset name, e.g. "/static/displacement" (listed in the XDMF
   when under /static). Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterWriteNodeField(FlxWriter w, const char name[], Vec x);
/* Shell stress resultants: FlxWriterWriteCellField(w, "shell_resultants", FLX_SHELL_NRESULTANTS, ...). Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterWriteResultants(FlxWriter w, Vec r[]);
/* Write the load-deflection path of a nonlinear static solve: /static/path/load_factor (n) and
   /static/path/displacement (n x N x 6, natural node order; x[i] natural-order vectors). Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterWritePath(FlxWriter w, PetscInt n, const PetscReal lambda[], Vec x[]);
/* Write /modes/frequency (Hz), /modes/rigid_body (1 for rigid-body modes), /modes/omega_max (rad/s) and
   /modes/shape (n x N x 6, natural node order, mass-normalized), and make the XDMF step through the modes.
   shapes are natural-order vectors. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterWriteModes(FlxWriter w, PetscInt n, const PetscReal freq[], const PetscBool rigid[], PetscReal omega_max, Vec shapes[]);
/* Read /modes/omega_max (rad/s) from a results file of 'flexure modes'. Collective. */
PETSC_EXTERN PetscErrorCode FlxReadModesOmegaMax(MPI_Comm comm, const char path[], PetscReal *omega_max);

/* History series: /history/NAME (K x ncol, extendible; NAME may hold one '/' level, e.g. "reactions/base"), column
   names colnames (comma-separated) in the attribute "columns"; *id identifies it. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterDefineHistory(FlxWriter w, const char name[], PetscInt ncol, const char colnames[], PetscInt *id);
/* Append n rows (n x ncol, row-major, valid on rank 0) to series id. No allocation once running. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterAppendHistory(FlxWriter w, PetscInt id, PetscInt n, const PetscReal rows[]);
/* Append n times (valid on rank 0) to /history/time. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterAppendHistoryTime(FlxWriter w, PetscInt n, const PetscReal t[]);
/* Append ledger rows (same on all ranks) to /energy. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterAppendEnergy(FlxWriter w, PetscInt n, const FlxLedgerRow rows[]);
/* Declare probe p with its DOF names (comma-separated) and count: /probes/NAME. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterDefineProbe(FlxWriter w, const char name[], PetscInt ndof, const char dofnames[]);
/* Append n rows of probe p: times, and values ndof x 3 (x, v, a) per row, valid on rank 0. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterAppendProbe(FlxWriter w, PetscInt p, PetscInt n, const PetscReal times[], const PetscReal values[], PetscInt stride);
/* Attribute 'node' (natural 0-based node id) on /probes/NAME of probe p. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterSetProbeNode(FlxWriter w, PetscInt p, PetscInt node);
/* Flush to disk (H5Fflush) and rewrite the XDMF file: call it once a frame's fields are written. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterFlush(FlxWriter w);
/* Close the file (and release the writer). Safe on every error path: after an I/O error the file is already closed
   and only memory is freed. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterDestroy(FlxWriter *w);

/* Output glue of a transient run: reads -output_file, -output_interval, -probe_names ...; writes the
   mesh and attributes; sets the stepper's output callbacks. */
typedef struct _p_FlxOutput *FlxOutput;
PETSC_EXTERN PetscErrorCode  FlxOutputCreate(MPI_Comm comm, FlxOutput *out);
/* Read the output and probe options. Collective. */
PETSC_EXTERN PetscErrorCode FlxOutputSetFromOptions(FlxOutput out);
/* Declare the probes' groups to the model as node sets (FlxModelUseGroup), before FlxModelSetUp. Not collective. */
PETSC_EXTERN PetscErrorCode FlxOutputUseGroups(FlxOutput out, FlxModel model);
/* Open the file, write the mesh and attributes, define probes and hook into the stepper. Collective. */
PETSC_EXTERN PetscErrorCode FlxOutputSetUp(FlxOutput out, FlxModel model, FlxStepper ts, const char cmdline[]);
PETSC_EXTERN PetscErrorCode FlxOutputGetWriter(FlxOutput out, FlxWriter *w);
PETSC_EXTERN PetscErrorCode FlxOutputGetPath(FlxOutput out, const char **h5, const char **xdmf);
PETSC_EXTERN PetscErrorCode FlxOutputPrintProbes(FlxOutput out, Vec u);
/* Find the probes' nodes (by node, one-node group or nearest to a point), refusing bad ones; call after
   FlxMeshSetUp and before the model's set-up so that errors come early (FlxOutputSetUp does it otherwise). Collective. */
PETSC_EXTERN PetscErrorCode FlxOutputSetUpProbes(FlxOutput out, FlxMesh mesh);
/* Reactions of a static solution u: /static/reaction and the totals per boundary condition printed. Collective. */
PETSC_EXTERN PetscErrorCode FlxOutputWriteStaticReactions(FlxOutput out, Vec u);
PETSC_EXTERN PetscErrorCode FlxOutputDestroy(FlxOutput *out);
