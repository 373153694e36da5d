/*
 * gsp_mpi: the closure of gsp over several processes with MPI.
 *
 * A separate library (libgsp_mpi, pkg-config gsp_mpi, CMake gsp::gsp_mpi
 * from find_package(gsp COMPONENTS mpi)) so that libgsp itself never depends
 * on MPI. It uses the gsp objects and error codes of gsp.h; gsp_last_error()
 * gives the detail of a failure here too.
 *
 * The matrix is split into GSP_MPI_BLOCK x GSP_MPI_BLOCK blocks, dealt 2D
 * block-cyclically over a process grid of nprow x npcol ranks: block (I, J)
 * lives on grid position (I mod nprow, J mod npcol), which is rank
 * (I mod nprow) * npcol + (J mod npcol) of the communicator. Each round of
 * blocked Floyd-Warshall closes the pivot diagonal block on its owner,
 * updates the pivot row and column panels, broadcasts them down the process
 * columns and across the process rows, and every rank updates its blocks
 * with gsp's own CPU tile kernels. The arithmetic is the same as that of
 * gsp_closure on the CPU backend, in the same order: results are
 * bit-identical to it for every semiring, type and rank count.
 *
 * Every function taking an MPI_Comm is collective over it: all its ranks
 * call it with the same arguments where documented. Errors are collective
 * too: when a rank fails (bad input on the root, a NaN weight, memory),
 * every rank returns the same code, and gsp_last_error() on the other ranks
 * names the failing rank and its message; nothing is changed anywhere.
 * MPI failures themselves follow the communicator's error handler (by
 * default they abort the job). Call MPI_Init before, MPI_Finalize after.
 */
#ifndef GSP_MPI_H
#define GSP_MPI_H

#include <mpi.h>

#include "gsp.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* Edge of a distribution block: the tile of gsp's CPU Floyd-Warshall. */
#define GSP_MPI_BLOCK 64

/* Options of the gsp_mpi_* calls. NULL means all defaults (zero). */
typedef struct {
  bool non_reflexive; /* compute M+ = M M* instead of M* = I + M+ */
  int root;           /* gsp_mpi_closure: the rank holding M (default 0);
                         the same on every rank */
  int nprow;          /* process grid rows; 0: automatic (the divisor of the
                         rank count nearest below its square root, so 4
                         ranks are 2 x 2 and 6 are 2 x 3); otherwise it must
                         divide the rank count */
} gsp_mpi_opts;

/*
 * Collective closure of a matrix held by one rank: on opts->root (rank 0
 * by default) M is the input and is replaced by its closure M* (M+ with
 * opts->non_reflexive) on semiring s, exactly as gsp_closure(M, s) would
 * on the CPU backend; the other ranks pass M = NULL (ignored) and lend
 * their memory and cores. The root's M, s and options count; the root
 * needs room for two copies of M as a dense array, every rank for its
 * share (n^2 / ranks values plus two panels).
 *
 * Returns the same code on every rank. GSP_NEGATIVE_CYCLE (MIN_PLUS with a
 * negative cycle, MAX_PLUS with a positive one) leaves M unchanged; the
 * argument errors are those of gsp_closure (GSP_NULL_POINTER,
 * GSP_INVALID_OBJECT, GSP_INVALID_VALUE for a bad semiring, option or NaN
 * weight, GSP_DOMAIN_MISMATCH, GSP_DIMENSION_MISMATCH), plus
 * GSP_OUT_OF_MEMORY from any rank.
 */
gsp_info gsp_mpi_closure(gsp_matrix M, gsp_semiring s, MPI_Comm comm, const gsp_mpi_opts *opts);

/* ---------------------------------------------------------------------- */
/* Distributed form: each rank holds only its blocks, so the n x n matrix  */
/* never has to fit in one process.                                        */
/* ---------------------------------------------------------------------- */

/* Where an n x n matrix lives on the ranks of a communicator. */
typedef struct {
  gsp_index n;                        /* global order */
  int nprow, npcol;                   /* process grid */
  int myrow, mycol;                   /* this rank's position in it */
  gsp_index local_nrows, local_ncols; /* this rank's local matrix */
} gsp_mpi_layout;

/* The layout of an n x n matrix over comm (collective only in that every
 * rank must ask with the same n and nprow to get matching layouts; no
 * communication). A rank's local matrix holds the global rows
 * i with (i / GSP_MPI_BLOCK) mod nprow == myrow and the columns j with
 * (j / GSP_MPI_BLOCK) mod npcol == mycol, in increasing order; it may be
 * 0 x k or k x 0 when n is small. Errors: GSP_NULL_POINTER,
 * GSP_INVALID_VALUE (nprow does not divide the rank count),
 * GSP_TOO_LARGE (n > GSP_INDEX_MAX). */
gsp_info gsp_mpi_layout_get(gsp_mpi_layout *L, gsp_index n, MPI_Comm comm, const gsp_mpi_opts *opts);

/* Global row *i and column *j of local entry (li, lj) of this rank
 * (GSP_INVALID_INDEX when outside the local matrix). Either output may be
 * NULL. */
gsp_info gsp_mpi_local_to_global(gsp_index *i, gsp_index *j, const gsp_mpi_layout *L, gsp_index li, gsp_index lj);

/* The rank that holds global entry (i, j) and its local position there
 * (GSP_INVALID_INDEX when i or j >= n). Outputs may be NULL. */
gsp_info gsp_mpi_global_to_local(int *rank, gsp_index *li, gsp_index *lj, const gsp_mpi_layout *L, gsp_index i,
                                 gsp_index j);

/* *local = a new local_nrows x local_ncols matrix with this rank's entries
 * of the n x n matrix A (e.g. a sparse graph that every rank has read: its
 * m edges fit where n^2 values would not). Not collective. */
gsp_info gsp_mpi_local_block(gsp_matrix *local, const gsp_matrix A, const gsp_mpi_layout *L);

/*
 * Closure of a distributed matrix: on every rank `local` is its block of
 * the n x n matrix (local_nrows x local_ncols, all ranks one type, from the
 * same layout) and is replaced by its block of M* (M+ with
 * opts->non_reflexive), bit-identical to the corresponding entries of
 * gsp_closure on the whole matrix. s and opts must agree on all ranks
 * (checked: GSP_INVALID_VALUE). Returns the same code on every rank; on
 * any error (a NaN on one rank, a negative cycle, memory) no rank's block
 * changes.
 */
gsp_info gsp_mpi_closure_dist(gsp_matrix local, const gsp_mpi_layout *L, gsp_semiring s, MPI_Comm comm,
                              const gsp_mpi_opts *opts);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif /* GSP_MPI_H */
