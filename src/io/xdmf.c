/* The XDMF sidecar of the results file, written by rank 0 under a temporary name and renamed, so a run killed at any
   instant leaves a complete XML file. Every registered node and cell field is listed: a temporal collection of
   frames (transient) or of modes (modes file), or one spatial collection (static file); each frame holds one grid per
   cell type, with the node groups (0/1 per group) and the element group index as arrays to threshold on.
   ParaView has two XDMF readers. Its default (Xdmf3) skips every "HyperSlab" item (it cannot tell their number type
   before reading: "Skipping unrecognized array type [None]"), but reads a slab given in the heavy-data path
   (FILE:/DATASET|start:stride:count:dims); the legacy reader reads HyperSlab items only. Each slab is written for both:
   an item of the Xdmf 1 style Type="HyperSlab" (Xdmf3 looks only at ItemType) whose text is the Xdmf3 path and whose
   children are the legacy selection and source. */
#include <flexure/private/writerimpl.h>
#include <errno.h>

/* Write s to fp with the XML special characters escaped. */
static void Esc(FILE *fp, const char *s)
{
  for (; *s; s++)
    switch (*s) {
    case '&':
      fputs("&amp;", fp);
      break;
    case '<':
      fputs("&lt;", fp);
      break;
    case '>':
      fputs("&gt;", fp);
      break;
    case '"':
      fputs("&quot;", fp);
      break;
    case '\'':
      fputs("&apos;", fp);
      break;
    default:
      if ((unsigned char)*s < 0x20 && *s != '\t')
        fputc(' ', fp); /* control characters are not XML */
      else
        fputc(*s, fp);
    }
}

/* A slab of dataset path (rank r, full dims) from start with count (last dimension count[r-1] components). */
static void Slab(FILE *fp, FlxWriter w, const char path[], int r, const long long dims[], const long long start[], const long long count[], const char ntype[], int prec)
{
  int       ncomp = (int)count[r - 1];
  long long rows  = count[r - 2];

  fprintf(fp, "    <DataItem Type=\"HyperSlab\" Dimensions=\"%lld %d\" NumberType=\"%s\" Precision=\"%d\" Format=\"HDF\">", rows, ncomp, ntype, prec);
  Esc(fp, w->h5base);
  fprintf(fp, ":/%s|", path);
  for (int i = 0; i < r; i++)
    fprintf(fp, "%s%lld", i ? " " : "", start[i]);
  fputc(':', fp);
  for (int i = 0; i < r; i++)
    fprintf(fp, "%s1", i ? " " : "");
  fputc(':', fp);
  for (int i = 0; i < r; i++)
    fprintf(fp, "%s%lld", i ? " " : "", count[i]);
  fputc(':', fp);
  for (int i = 0; i < r; i++)
    fprintf(fp, "%s%lld", i ? " " : "", dims[i]);
  fprintf(fp, "\n     <DataItem Dimensions=\"3 %d\" Format=\"XML\">", r);
  for (int i = 0; i < r; i++)
    fprintf(fp, "%s%lld", i ? " " : "", start[i]);
  for (int i = 0; i < r; i++)
    fprintf(fp, " 1");
  for (int i = 0; i < r; i++)
    fprintf(fp, " %lld", count[i]);
  fprintf(fp, "</DataItem>\n     <DataItem Dimensions=\"");
  for (int i = 0; i < r; i++)
    fprintf(fp, "%s%lld", i ? " " : "", dims[i]);
  fprintf(fp, "\" NumberType=\"%s\" Precision=\"%d\" Format=\"HDF\">", ntype, prec);
  Esc(fp, w->h5base);
  fprintf(fp, ":/%s</DataItem>\n    </DataItem>\n", path);
}

static void AttributeBegin(FILE *fp, const char prefix[], const char name[], const char type[], const char center[])
{
  fprintf(fp, "   <Attribute Name=\"");
  Esc(fp, prefix);
  Esc(fp, name);
  fprintf(fp, "\" AttributeType=\"%s\" Center=\"%s\">\n", type, center);
}

/* Whole dataset path (dims d0 [x d1]) as an attribute. */
static void WholeAttribute(FILE *fp, FlxWriter w, const char name[], const char path[], long long d0, const char ntype[], int prec)
{
  AttributeBegin(fp, "", name, "Scalar", "Cell");
  fprintf(fp, "    <DataItem Dimensions=\"%lld\" NumberType=\"%s\" Precision=\"%d\" Format=\"HDF\">", d0, ntype, prec);
  Esc(fp, w->h5base);
  fprintf(fp, ":/%s</DataItem>\n   </Attribute>\n", path);
}

/* The node fields at row f (f < 0: static fields) as two vectors each (components 0-2 and 3-5). */
static void NodeFields(FILE *fp, FlxWriter w, PetscInt f, const char prefix[])
{
  size_t lp = strlen(prefix);

  for (PetscInt k = 0; k < w->nnf; k++) {
    NodeField *nf = &w->nf[k];
    int        r  = f < 0 ? 2 : 3;
    long long  dims[3], start[3], count[3];
    if (strncmp(nf->name, prefix, lp)) continue;
    if (f >= 0 && (f < nf->first || f >= nf->nrows)) continue;
    dims[0]  = f < 0 ? w->N : nf->nrows;
    dims[1]  = f < 0 ? 6 : w->N;
    dims[2]  = 6;
    start[0] = f < 0 ? 0 : f;
    count[0] = f < 0 ? w->N : 1;
    start[1] = 0;
    count[1] = f < 0 ? 3 : w->N;
    count[2] = 3;
    for (int part = 0; part < 2; part++) {
      start[r - 1] = 3 * part;
      AttributeBegin(fp, "", part ? nf->label2 : nf->label, "Vector", "Node");
      Slab(fp, w, nf->name, r, dims, start, count, "Float", 8);
      fprintf(fp, "   </Attribute>\n");
    }
  }
}

/* The cell fields of type t at frame f (f < 0: static fields), one scalar per component, named FIELD_COMPONENT. */
static void CellFields(FILE *fp, FlxWriter w, int t, PetscInt f)
{
  for (PetscInt k = 0; k < w->ncf; k++) {
    CellField *cf = &w->cf[k];
    char       path[400], prefix[300];
    int        r = f < 0 ? 2 : 3;
    long long  dims[3], start[3], count[3];
    if (!cf->has[t] || (f < 0) != (cf->isstatic == PETSC_TRUE)) continue;
    if (f >= 0 && (f < cf->first[t] || f >= cf->nrows[t])) continue;
    snprintf(path, sizeof(path), "%s/%s/%s", f < 0 ? "static" : "fields", cf->name, FlxCellTypeNames[t]);
    snprintf(prefix, sizeof(prefix), "%s_", cf->name);
    dims[0]  = f < 0 ? w->ncells[t] : cf->nrows[t];
    dims[1]  = f < 0 ? cf->ncomp : w->ncells[t];
    dims[2]  = cf->ncomp;
    start[0] = f < 0 ? 0 : f;
    count[0] = f < 0 ? w->ncells[t] : 1;
    start[1] = 0;
    count[1] = f < 0 ? 1 : w->ncells[t];
    count[2] = 1;
    for (PetscInt c = 0; c < cf->ncomp; c++) {
      start[r - 1] = c;
      AttributeBegin(fp, prefix, cf->comp[c], "Scalar", "Cell");
      Slab(fp, w, path, r, dims, start, count, "Float", 8);
      fprintf(fp, "   </Attribute>\n");
    }
  }
}

/* The arrays to threshold on: node groups (0/1 per group), element group index, partition. */
static void GroupArrays(FILE *fp, FlxWriter w, int t)
{
  char path[64];

  for (PetscInt g = 0; g < w->ngroups; g++) {
    long long dims[2] = {w->N, w->ngroups}, start[2] = {0, g}, count[2] = {w->N, 1};
    AttributeBegin(fp, "node_group_", w->gname[g], "Scalar", "Node");
    Slab(fp, w, "mesh/node_groups", 2, dims, start, count, "UChar", 1);
    fprintf(fp, "   </Attribute>\n");
  }
  snprintf(path, sizeof(path), "mesh/%s/group", FlxCellTypeNames[t]);
  WholeAttribute(fp, w, "element_group", path, w->ncells[t], "Int", 8);
  snprintf(path, sizeof(path), "mesh/%s/partition", FlxCellTypeNames[t]);
  WholeAttribute(fp, w, "partition", path, w->ncells[t], "Int", 8);
}

/* One grid per cell type with the fields of frame f (f < 0: static), node fields under prefix. */
static void Grids(FILE *fp, FlxWriter w, PetscInt f, const char prefix[])
{
  static const char *topo[FLX_NUM_CELL_TYPES] = {"Polyline\" NodesPerElement=\"2", "Triangle", "Quadrilateral"};

  for (int t = 0; t < FLX_NUM_CELL_TYPES; t++) {
    if (!w->ncells[t]) continue;
    fprintf(fp, "  <Grid Name=\"%s\" GridType=\"Uniform\">\n", FlxCellTypeNames[t]);
    fprintf(fp, "   <Topology TopologyType=\"%s\" NumberOfElements=\"%d\">\n    <DataItem Dimensions=\"%d %d\" NumberType=\"Int\" Precision=\"8\" Format=\"HDF\">", topo[t], (int)w->ncells[t], (int)w->ncells[t], (int)FlxCellTypeNodes[t]);
    Esc(fp, w->h5base);
    fprintf(fp, ":/mesh/%s/connectivity</DataItem>\n   </Topology>\n", FlxCellTypeNames[t]);
    fprintf(fp, "   <Geometry GeometryType=\"XYZ\">\n    <DataItem Dimensions=\"%d 3\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">", (int)w->N);
    Esc(fp, w->h5base);
    fprintf(fp, ":/mesh/coordinates</DataItem>\n   </Geometry>\n");
    NodeFields(fp, w, f, prefix);
    CellFields(fp, w, t, f);
    GroupArrays(fp, w, t);
    fprintf(fp, "  </Grid>\n");
  }
}

static void Document(FILE *fp, FlxWriter w)
{
  fprintf(fp, "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n<Domain>\n");
  if (w->ngroups) {
    fprintf(fp, "<Information Name=\"groups\" Value=\"");
    for (PetscInt g = 0; g < w->ngroups; g++) {
      fprintf(fp, "%s%d ", g ? "; " : "", (int)g);
      Esc(fp, w->gname[g]);
    }
    fprintf(fp, "\"/>\n");
  }
  if (w->N && !w->nmodes && !w->nframes) { /* static: one spatial collection */
    fprintf(fp, "<Grid Name=\"static\" GridType=\"Collection\" CollectionType=\"Spatial\">\n");
    Grids(fp, w, -1, "static/");
    fprintf(fp, "</Grid>\n");
  } else if (w->N) {
    fprintf(fp, "<Grid Name=\"flexure\" GridType=\"Collection\" CollectionType=\"Temporal\">\n");
    for (PetscInt f = 0; f < (w->nmodes ? w->nmodes : w->nframes); f++) {
      if (w->nmodes)
        fprintf(fp, " <Grid Name=\"mode %d (%.6g Hz)\" GridType=\"Collection\" CollectionType=\"Spatial\">\n  <Time Value=\"%d\"/>\n", (int)f + 1, (double)w->mode_freq[f], (int)f + 1);
      else
        fprintf(fp, " <Grid Name=\"frame %d\" GridType=\"Collection\" CollectionType=\"Spatial\">\n  <Time Value=\"%.17g\"/>\n", (int)f, (double)w->frame_times[f]);
      Grids(fp, w, f, w->nmodes ? "modes/" : "fields/");
      fprintf(fp, " </Grid>\n");
    }
    fprintf(fp, "</Grid>\n");
  }
  fprintf(fp, "</Domain>\n</Xdmf>\n");
}

PetscErrorCode FlxWriterWriteXdmf(FlxWriter w, PetscBool *ok, int *err)
{
  char           tmp[PETSC_MAX_PATH_LEN + 8];
  FILE          *fp;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  *ok  = PETSC_TRUE;
  *err = 0;
  if (w->rank != 0) PetscFunctionReturn(0);
  PetscCall(PetscTime(&t0));
  /* a long run with many frames: rewrite a large file at most 5% of the time (it then lags a little behind) */
  if (w->xdmf_cost > 0 && t0 - w->xdmf_last < 20 * w->xdmf_cost) PetscFunctionReturn(0);
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", w->xdmf));
  errno = 0;
  fp    = fopen(tmp, "w");
  if (fp) {
    Document(fp, w);
    if (fflush(fp) || ferror(fp)) *err = errno ? errno : EIO;
    if (fclose(fp) && !*err) *err = errno ? errno : EIO;
    if (!*err && rename(tmp, w->xdmf)) *err = errno;
  } else
    *err = errno ? errno : EIO;
  if (*err) {
    (void)remove(tmp);
    *ok = PETSC_FALSE;
  }
  PetscCall(PetscTime(&t1));
  w->xdmf_cost = t1 - t0;
  w->xdmf_last = t1;
  PetscFunctionReturn(0);
}
