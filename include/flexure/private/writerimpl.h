/* Implementation of FlxWriter, shared by src/io/writer.c (file, mesh, fields), src/io/series.c (history, energy,
   probes) and src/io/xdmf.c (the XDMF sidecar). Never included by public headers. */
#pragma once
#include <flexure/private/h5util.h>

/* A node field: 6 values per node. Transient: /fields/NAME (T x N x 6); static: /static/NAME (N x 6); modes:
   /modes/shape (n x N x 6). */
typedef struct {
  char    *name;   /* dataset path below the root, e.g. "fields/displacement" */
  char    *label;  /* XDMF attribute name of the first three components */
  char    *label2; /* XDMF attribute name of the last three (rotations, moments) */
  hid_t    dset;   /* transient: open extendible dataset (-1 otherwise) */
  PetscInt nrows;  /* rows written (frames or modes); 0 for a static field */
  PetscInt first;  /* first frame with data */
} NodeField;

/* A cell field: ncomp values per cell of each type. Transient: /fields/NAME/TYPE (T x E_t x ncomp); static:
   /static/NAME/TYPE (E_t x ncomp). */
typedef struct {
  char     *name;
  PetscInt  ncomp;
  char    **comp;
  char     *comps; /* the components, comma-separated (attribute "components") */
  PetscBool isstatic;
  PetscBool has[FLX_NUM_CELL_TYPES];
  hid_t     dset[FLX_NUM_CELL_TYPES]; /* transient: open extendible datasets (-1: none) */
  PetscInt  nrows[FLX_NUM_CELL_TYPES], first[FLX_NUM_CELL_TYPES];
} CellField;

/* A history series /history/NAME (K x ncol), a probe /probes/NAME/{time,values,velocity,acceleration}. */
typedef struct {
  char    *name;
  PetscInt ncol;
  hid_t    dset;
} History;

typedef struct {
  char    *name;
  PetscInt ndof;
  hid_t    time, val[3];
} Probe;

struct _p_FlxWriter {
  FlxH5IO     io; /* first member: the error path gets back to the writer from it */
  MPI_Comm    comm;
  PetscMPIInt rank, size;
  char        h5[PETSC_MAX_PATH_LEN];     /* the results file */
  char        h5tmp[PETSC_MAX_PATH_LEN];  /* the name it is written under until its mesh is flushed */
  char        xdmf[PETSC_MAX_PATH_LEN];   /* the XDMF beside it */
  char        h5base[PETSC_MAX_PATH_LEN]; /* the results file's name, as the XDMF refers to it */
  char        what[160];                  /* what is being written, for error messages */
  PetscBool   renamed;                    /* the file carries its final name */
  hid_t       time, energy[6];
  PetscInt    N, ncells[FLX_NUM_CELL_TYPES], nframes;
  PetscReal  *frame_times;
  PetscInt    frame_cap;
  NodeField  *nf;
  PetscInt    nnf, capnf;
  CellField  *cf;
  PetscInt    ncf, capcf;
  PetscInt    curcf;                     /* the cell field written in pieces (-1: none) */
  hid_t       sdset[FLX_NUM_CELL_TYPES]; /* its static datasets, open until its end */
  History    *hist;
  PetscInt    nhist, caphist;
  hid_t       htime; /* /history/time (-1 until defined) */
  Probe      *probe;
  PetscInt    nprobe, capprobe;
  double     *buf; /* staging for appended rows, grown on demand (no allocation once the run is going) */
  PetscInt    bufcap;
  PetscInt    nmodes; /* modal results: the XDMF steps through the mode shapes */
  PetscReal  *mode_freq;
  PetscInt    ngroups; /* physical groups: node membership in /mesh/node_groups (N x G) */
  char      **gname;
  PetscBool   mesh_written;
  PetscBool   dirty;                /* written since the last flush */
  double      xdmf_cost, xdmf_last; /* wall time of the last XDMF write and when it ended */
};

/* Write rows lo .. lo + cnt - 1 (this rank's, width values each written from rows of mwidth >= width in memory, type
   mtype) into dset (2D, or row 'row' of a 3D one). Collective. */
PETSC_INTERN PetscErrorCode FlxWriterWriteRowsStrided(FlxWriter w, hid_t dset, PetscInt row, PetscInt lo, PetscInt cnt, PetscInt width, PetscInt mwidth, hid_t mtype, const void *data);
/* Staging buffer of at least n doubles. Not collective. */
PETSC_INTERN PetscErrorCode FlxWriterStaging(FlxWriter w, PetscInt n, double **buf);
/* Room for one more entry in *a, an array of n entries of size bytes with capacity *cap (grown to 2 cap + 8, the new
   entries zeroed). Not collective. */
PETSC_INTERN PetscErrorCode FlxWriterGrow(size_t size, PetscInt n, PetscInt *cap, void **a);
/* Set the description of what is being written (for error messages). */
PETSC_INTERN void FlxWriterSetWhat(FlxWriter w, const char fmt[], ...);
/* Rank 0 writes the XDMF beside the results file (under a temporary name, then renamed); *ok says whether it could.
   Not collective; the caller decides collectively. */
PETSC_INTERN PetscErrorCode FlxWriterWriteXdmf(FlxWriter w, PetscBool *ok, int *err);
/* Close the datasets of the series (history, energy, probes), errors ignored. Not collective in itself. */
PETSC_INTERN void FlxWriterCloseSeries(FlxWriter w);
/* Free the series' bookkeeping. Not collective. */
PETSC_INTERN PetscErrorCode FlxWriterFreeSeries(FlxWriter w);
/* Create /energy and /probes. Collective. */
PETSC_INTERN PetscErrorCode FlxWriterCreateSeries(FlxWriter w);
/* Check a name used as one HDF5 link (no '/', not empty, not "." or ".."), naming the option that gave it. Collective
   (same name on all ranks). */
PETSC_INTERN PetscErrorCode FlxWriterCheckName(FlxWriter w, const char name[], const char kind[], PetscBool slash_ok);
