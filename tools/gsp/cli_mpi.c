/* The MPI mode of `gsp apsp`: under mpirun with more than one rank (or with
 * --mpi) rank 0 reads the graph and writes the results, and the closure runs
 * over all ranks with libgsp_mpi. Built without libgsp_mpi, only --mpi is
 * refused; a multi-rank launch then runs independent single-process copies
 * (as any program that knows nothing of MPI would). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifdef GSP_CLI_HAVE_MPI
#include <omp.h>

#include "gsp_mpi.h"
#endif

/* Rank count announced by the launcher (Open MPI, MPICH / Hydra, PMIx,
 * Slurm), read before MPI_Init so that a plain run never initialises MPI. */
static long launch_size(void) {
  static const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS", "SLURM_NTASKS"};
  for (size_t k = 0; k < sizeof vars / sizeof *vars; k++) {
    const char *v = getenv(vars[k]);
    if (v && *v) return strtol(v, NULL, 10);
  }
  return 0;
}

#ifdef GSP_CLI_HAVE_MPI

static int mpi_rank, mpi_size;

int cli_mpi_begin(bool forced, const char *cmd, int *rank, int *size) {
  *rank = 0, *size = 1;
  if (!forced && launch_size() <= 1) return 0;
  int inited = 0;
  MPI_Initialized(&inited);
  if (!inited) MPI_Init(NULL, NULL);
  MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
  *rank = mpi_rank, *size = mpi_size;
  /* Without --threads or OMP_NUM_THREADS, share the cores of a host among
   * its ranks instead of giving each rank all of them. */
  if (!getenv("OMP_NUM_THREADS")) {
    MPI_Comm node;
    int local = 1;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, mpi_rank, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &local);
    MPI_Comm_free(&node);
    int per = omp_get_num_procs() / local;
    gsp_set_threads(per > 0 ? per : 1);
  }
  (void)cmd;
  return 1;
}

void cli_mpi_end(void) {
  int fin = 0;
  MPI_Finalized(&fin);
  if (!fin) MPI_Finalize();
}

int cli_mpi_share_rc(int rc) {
  MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return rc;
}

gsp_info cli_mpi_closure(gsp_matrix M, gsp_semiring s, bool non_reflexive) {
  gsp_mpi_opts o = {.non_reflexive = non_reflexive};
  return gsp_mpi_closure(M, s, MPI_COMM_WORLD, &o);
}

#else /* no libgsp_mpi in this build */

int cli_mpi_begin(bool forced, const char *cmd, int *rank, int *size) {
  *rank = 0, *size = 1;
  if (!forced) return 0;
  fprintf(stderr, "gsp %s: --mpi: this gsp was built without MPI (libgsp_mpi)\n", cmd);
  return -1;
}
void cli_mpi_end(void) {}
int cli_mpi_share_rc(int rc) {
  return rc;
}
gsp_info cli_mpi_closure(gsp_matrix M, gsp_semiring s, bool non_reflexive) {
  (void)M, (void)s, (void)non_reflexive;
  return GSP_PANIC;
}

#endif
