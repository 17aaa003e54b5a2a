/* FlxWriter: one HDF5 results file per run, written collectively with parallel HDF5, and an XDMF
   file beside it so that ParaView opens the time series. Layout (README "Output"):
   /mesh, /time, /fields/{displacement,velocity,acceleration} (T x N x 6), the /energy series,
   the /probes/NAME series and root attributes. Every output step is flushed, so a killed run leaves a readable file. */
#pragma once
#include <flexure/mesh.h>
#include <flexure/stepper.h>
#include <flexure/model.h>

typedef struct _p_FlxWriter *FlxWriter;

/* Create (truncate) PATH.h5 and remember PATH.xdmf beside it. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterCreate(MPI_Comm comm, const char path[], FlxWriter *w);
/* Write /mesh from the mesh (needs the mesh of rank 0, i.e. before it is released). Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterWriteMesh(FlxWriter w, FlxMesh mesh);
/* Root attributes. Collective, same values on all ranks. */
PETSC_EXTERN PetscErrorCode FlxWriterSetAttribute(FlxWriter w, const char name[], const char value[]);
PETSC_EXTERN PetscErrorCode FlxWriterSetAttributeReal(FlxWriter w, const char name[], PetscReal value);
/* Append one output step of node fields given in natural order (6 per node). Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterWriteFields(FlxWriter w, PetscReal t, Vec x, Vec v, Vec a);
/* Write a single node field (N x 6, natural order) as dataset name, e.g. "/static/displacement". Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterWriteNodeField(FlxWriter w, const char name[], Vec x);
/* Append ledger rows (same on all ranks). Collective. */
/* Write /modes/frequency (Hz), /modes/rigid_body (1 for rigid-body modes), /modes/omega_max (rad/s) and
   /modes/shape (n x N x 6, natural node order, mass-normalized), and make the XDMF step through the modes.
   shapes are natural-order vectors. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterWriteModes(FlxWriter w, PetscInt n, const PetscReal freq[], const PetscBool rigid[], PetscReal omega_max, Vec shapes[]);
/* Append the shell stress resultants of the frame just written: r[t] (natural order of the cells of type t,
   FLX_SHELL_NRESULTANTS per cell; NULL for types without shells) into /fields/shell_resultants/TYPE,
   and show them as cell attributes in the XDMF. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterWriteResultants(FlxWriter w, Vec r[]);
/* Read /modes/omega_max (rad/s) from a results file of 'flexure modes'. Collective. */
PETSC_EXTERN PetscErrorCode FlxReadModesOmegaMax(MPI_Comm comm, const char path[], PetscReal *omega_max);
PETSC_EXTERN PetscErrorCode FlxWriterAppendEnergy(FlxWriter w, PetscInt n, const FlxLedgerRow rows[]);
/* Declare probe p with its DOF names (comma-separated) and count. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterDefineProbe(FlxWriter w, const char name[], PetscInt ndof, const char dofnames[]);
/* Append n rows of probe p: times, and values ndof x 3 (x, v, a) per row, valid on rank 0. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterAppendProbe(FlxWriter w, PetscInt p, PetscInt n, const PetscReal times[], const PetscReal values[], PetscInt stride);
/* Attribute 'node' (natural 0-based node id) on /probes/NAME of probe p. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterSetProbeNode(FlxWriter w, PetscInt p, PetscInt node);
/* Generic API (temporary implementation until the writer branch lands): an extra 6-per-node field at the
   current frame (/fields/NAME, T x N x 6; without frames /static/NAME, N x 6); history series /history/NAME
   (rows x ncol, column names in the attribute 'columns') with /history/time. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterWriteFrameNodeField(FlxWriter w, const char name[], Vec xnat);
PETSC_EXTERN PetscErrorCode FlxWriterDefineHistory(FlxWriter w, const char name[], PetscInt ncol, const char colnames[], PetscInt *id);
PETSC_EXTERN PetscErrorCode FlxWriterAppendHistory(FlxWriter w, PetscInt id, PetscInt n, const PetscReal rows[]);
PETSC_EXTERN PetscErrorCode FlxWriterAppendHistoryTime(FlxWriter w, PetscInt n, const PetscReal t[]);
/* Flush to disk (H5Fflush) and rewrite the XDMF file. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterFlush(FlxWriter w);
/* Close the file. Collective. */
PETSC_EXTERN PetscErrorCode FlxWriterDestroy(FlxWriter *w);

/* Output glue of a transient run: reads -output_file, -output_interval, -probe_names ...; writes the
   mesh and attributes; sets the stepper's output callbacks. */
typedef struct _p_FlxOutput *FlxOutput;
PETSC_EXTERN PetscErrorCode  FlxOutputCreate(MPI_Comm comm, FlxOutput *out);
/* Read the output and probe options. Collective. */
PETSC_EXTERN PetscErrorCode FlxOutputSetFromOptions(FlxOutput out);
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
