/* Test tool for the Gmsh MSH readers, in the normal build:
     msh_tool dump FILE          prints the serial mesh read from FILE (hexadecimal floats, so that meshes
                                 compare exactly), or the reader's message and exit 1
     msh_tool read FILE          reads FILE and prints its counts and the time taken
     msh_tool replay PATH...     runs the fuzz target (fuzz_msh.c) on every file, or every file of every
                                 directory, given: the regression inputs of the fuzzer */
#include <flexure/private/meshimpl.h>
#include <dirent.h>
#include <sys/stat.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int Dump(const char *file, PetscBool all)
{
  FlxSerialMesh *sm;
  PetscLogDouble t0, t1;

  if (PetscInitializeNoArguments()) return 2;
  PetscPushErrorHandler(FlxErrorHandler, NULL);
  if (FlxSerialMeshCreate(&sm)) return 2;
  PetscTime(&t0);
  if (FlxSerialMeshReadGmsh(file, sm)) {
    printf("error: %s\n", FlxErrorGetMessage());
    FlxSerialMeshDestroy(&sm);
    PetscFinalize();
    return 1;
  }
  PetscTime(&t1);
  if (!all) {
    printf("%s: %d nodes, %d cells, %d groups read in %.3f s\n", file, (int)sm->nnodes, (int)sm->ncells, (int)sm->ngroups, (double)(t1 - t0));
    FlxSerialMeshDestroy(&sm);
    return PetscFinalize() ? 2 : 0;
  }
  printf("nodes %d\n", (int)sm->nnodes);
  for (PetscInt i = 0; i < sm->nnodes; i++)
    printf("%d %a %a %a\n", (int)i, sm->xyz[3 * i], sm->xyz[3 * i + 1], sm->xyz[3 * i + 2]);
  printf("cells %d\n", (int)sm->ncells);
  for (PetscInt c = 0; c < sm->ncells; c++) {
    printf("%d %s %d:", (int)c, FlxCellTypeNames[sm->type[c]], (int)sm->group[c]);
    for (PetscInt k = sm->cptr[c]; k < sm->cptr[c + 1]; k++)
      printf(" %d", (int)sm->conn[k]);
    printf("\n");
  }
  printf("groups %d\n", (int)sm->ngroups);
  for (PetscInt g = 0; g < sm->ngroups; g++) {
    printf("%d '%s' dim %d nodes", (int)g, sm->gname[g], (int)sm->gdim[g]);
    for (PetscInt k = sm->gpptr[g]; k < sm->gpptr[g + 1]; k++)
      printf(" %d", (int)sm->gpnodes[k]);
    printf("\n");
  }
  FlxSerialMeshDestroy(&sm);
  return PetscFinalize() ? 2 : 0;
}

static int ReplayFile(const char *path)
{
  FILE          *fp = fopen(path, "rb");
  unsigned char *buf;
  long           n;

  if (!fp || fseek(fp, 0, SEEK_END) || (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET)) {
    fprintf(stderr, "msh_tool: cannot read %s\n", path);
    return 1;
  }
  buf = (unsigned char *)malloc((size_t)n + 1);
  if (!buf || fread(buf, 1, (size_t)n, fp) != (size_t)n) return 1;
  fclose(fp);
  LLVMFuzzerTestOneInput(buf, (size_t)n); /* aborts on a failure */
  free(buf);
  return 0;
}

static int Replay(int n, char **paths)
{
  int bad = 0, count = 0;

  LLVMFuzzerInitialize(NULL, NULL);
  for (int k = 0; k < n; k++) {
    struct stat st;
    if (stat(paths[k], &st)) {
      fprintf(stderr, "msh_tool: no such file or directory: %s\n", paths[k]);
      bad++;
    } else if (S_ISDIR(st.st_mode)) {
      struct dirent **list;
      int             m = scandir(paths[k], &list, NULL, alphasort);
      for (int i = 0; i < m; i++) {
        char p[PETSC_MAX_PATH_LEN];
        if (list[i]->d_name[0] != '.') {
          snprintf(p, sizeof(p), "%s/%s", paths[k], list[i]->d_name);
          bad += ReplayFile(p);
          count++;
        }
        free(list[i]);
      }
      if (m >= 0) free(list);
    } else {
      bad += ReplayFile(paths[k]);
      count++;
    }
  }
  printf("msh_tool: %d inputs replayed, %d unreadable\n", count, bad);
  PetscFinalize();
  return bad || !count ? 1 : 0;
}

int main(int argc, char **argv)
{
  if (argc == 3 && !strcmp(argv[1], "dump")) return Dump(argv[2], PETSC_TRUE);
  if (argc == 3 && !strcmp(argv[1], "read")) return Dump(argv[2], PETSC_FALSE);
  if (argc >= 3 && !strcmp(argv[1], "replay")) return Replay(argc - 2, argv + 2);
  fprintf(stderr, "usage: msh_tool dump FILE | msh_tool read FILE | msh_tool replay PATH...\n");
  return 2;
}
