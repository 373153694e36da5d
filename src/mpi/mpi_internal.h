/*
 * Internals of libgsp_mpi: the block-cyclic grid, collective error
 * agreement, and the distributed Floyd-Warshall engine on tile arrays.
 */
#ifndef GSP_MPI_INTERNAL_H
#define GSP_MPI_INTERNAL_H

#include "closure_cpu.h"
#include "gsp_internal.h"
#include "gsp_mpi.h"

#if GSP_MPI_BLOCK != GSP_FW_TILE
#error "the distribution block must be the CPU closure tile (bit-identical results)"
#endif
#define TB ((int64_t)GSP_FW_TILE)

/* One rank's view of the process grid for an n x n matrix. The dup of the
 * caller's communicator isolates our messages; row (col) holds the ranks
 * of this process row (column), ordered by column (row). */
typedef struct {
  MPI_Comm comm, row, col;
  int rank, size, pr, pc, myr, myc;
  int64_t n, nb;  /* order, tiles per dimension */
  int64_t lr, lc; /* local tile rows and columns */
  gsp_type t;
  gsp__fw_tiles k;    /* the CPU tile kernels of (t, s) */
  size_t tbytes;      /* bytes of one tile */
  unsigned char *loc; /* lr x lc tiles, tile-major, tile (li, lj) at
                          (li * lc + lj) * tbytes, each row-major */
} mpi_grid;

/* Tiles of the nb per dimension that grid row (column) r of p holds. */
static inline int64_t mpi_tiles_of(int64_t nb, int p, int r) {
  return nb > r ? (nb - r + p - 1) / p : 0;
}

/* nprow for size ranks: opts->nprow, else the divisor nearest below
 * sqrt(size). 0 when opts->nprow does not divide size. */
int mpi_grid_rows(int size, const gsp_mpi_opts *opts);

/* Set up the communicators and sizes of g (collective; no allocation
 * through gsp, so it cannot fail short of an MPI error). */
void mpi_grid_open(mpi_grid *g, MPI_Comm comm, int64_t n, int nprow, gsp_type t, const gsp__fw_tiles *k);
/* Free the communicators and the local tiles. */
void mpi_grid_close(mpi_grid *g);

/*
 * Collective agreement on a status: every rank passes its own info and all
 * return the first failure (the lowest failing rank's code), or `info` when
 * no rank failed. The ranks that did not fail record "fn: rank R failed:
 * <its message>" as their last error.
 */
gsp_info mpi_agree(gsp_info info, MPI_Comm comm, const char *fn);
/* The same when only `root` can have failed: one broadcast. */
gsp_info mpi_agree_root(gsp_info info, int root, MPI_Comm comm, const char *fn);

/* MPI_Bcast / Send / Recv of any number of bytes (MPI counts are int). */
void mpi_bcast_bytes(void *buf, size_t bytes, int root, MPI_Comm comm);
void mpi_send_bytes(const void *buf, size_t bytes, int dest, MPI_Comm comm);
void mpi_recv_bytes(void *buf, size_t bytes, int src, MPI_Comm comm);

/*
 * The distributed blocked Floyd-Warshall on g->loc (zero-padded tiles):
 * collective; allocates its panel buffers (agreed), then runs the rounds.
 * On return *cycle (the same on all ranks) tells of a negative (positive)
 * cycle, in which case g->loc holds garbage. Reflexive adds the empty
 * paths. Fails only with GSP_OUT_OF_MEMORY, on every rank alike.
 */
gsp_info mpi_fw_run(mpi_grid *g, bool reflexive, bool *cycle, const char *fn);

/* Copy between a tile and a dense row-major array with row stride ld:
 * rows r0.. and columns c0.. of the array, nr x nc of them (<= TB); the
 * rest of the tile is the semiring zero. */
void mpi_tile_in(unsigned char *tile, const unsigned char *a, int64_t ld, int64_t nr, int64_t nc,
                 const gsp__fw_tiles *k);
void mpi_tile_out(unsigned char *a, int64_t ld, const unsigned char *tile, int64_t nr, int64_t nc, size_t esize);

/* Argument checks shared by both forms: semiring code and fit with t. */
gsp_info mpi_check_semiring(gsp_semiring s, gsp_type t, const char *fn);
/* Whether a dense array of count values of type t holds a NaN. */
bool mpi_has_nan(const void *x, size_t count, gsp_type t);

#endif /* GSP_MPI_INTERNAL_H */
