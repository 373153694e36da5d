/*
 * gsp_mpi_closure: the collective form. The root checks M and exports it
 * densely (absent = the semiring zero), deals the tiles to the ranks,
 * the ranks run the distributed Floyd-Warshall, and the root collects the
 * tiles and commits the result to M only once every step succeeded.
 */
#include "mpi_internal.h"

static const char fn[] = "gsp_mpi_closure";

/* What the root tells every rank before the work starts. */
typedef struct {
  int64_t n;
  int type, semiring, reflexive, nprow;
} job_header;

/* Root: check the arguments and export M into *X (n x n, absent = zero). */
static gsp_info root_prepare(job_header *h, unsigned char **X, gsp_matrix M, gsp_semiring s, const gsp_mpi_opts *opts,
                             int size) {
  gsp_info info = GSP_SUCCESS;
  unsigned char *x = NULL;
#define GSP_FREE_ALL gsp__free(x)
  GSP_TRY(gsp__check_matrix(M, fn, "M"));
  gsp_type t;
  gsp_index n, nc;
  gsp_matrix_type(&t, M);
  gsp_matrix_nrows(&n, M);
  gsp_matrix_ncols(&nc, M);
  GSP_TRY(mpi_check_semiring(s, t, fn));
  GSP_CHECK(n == nc, GSP_DIMENSION_MISMATCH, "%s: M is %llu x %llu, not square", fn, (unsigned long long)n,
            (unsigned long long)nc);
  const int nprow = mpi_grid_rows(size, opts);
  GSP_CHECK(nprow > 0, GSP_INVALID_VALUE, "%s: nprow %d does not divide the %d ranks", fn, opts ? opts->nprow : 0,
            size);
  gsp__fw_tiles k;
  GSP_TRY(gsp__fw_tiles_get(&k, t, s));
  GSP_CHECK((x = gsp__malloc_array((size_t)(n * n), k.esize)) != NULL, GSP_OUT_OF_MEMORY,
            "%s: cannot allocate the %llu x %llu dense copy of M", fn, (unsigned long long)n, (unsigned long long)n);
  GSP_TRY(gsp_matrix_export_dense(x, k.zero, M));
  GSP_CHECK(!mpi_has_nan(x, (size_t)(n * n), t), GSP_INVALID_VALUE, "%s: M holds a NaN weight", fn);
  *h = (job_header){
      .n = (int64_t)n, .type = (int)t, .semiring = (int)s, .reflexive = !(opts && opts->non_reflexive), .nprow = nprow};
  *X = x;
#undef GSP_FREE_ALL
  return info;
}

/* Copy the tiles of grid position (r, c) between the dense n x n array X
 * and the tile array buf: to the tiles when in, else back to X. */
static void deal(unsigned char *X, unsigned char *buf, const mpi_grid *g, int r, int c, bool in) {
  const int64_t lr = mpi_tiles_of(g->nb, g->pr, r), lc = mpi_tiles_of(g->nb, g->pc, c);
  const int64_t n = g->n;
  const size_t es = g->k.esize;
#pragma omp parallel for collapse(2) schedule(static)
  for (int64_t li = 0; li < lr; li++) {
    for (int64_t lj = 0; lj < lc; lj++) {
      const int64_t i0 = (li * g->pr + r) * TB, j0 = (lj * g->pc + c) * TB;
      const int64_t nr = n - i0 < TB ? n - i0 : TB, nc = n - j0 < TB ? n - j0 : TB;
      unsigned char *a = X + (size_t)(i0 * n + j0) * es;
      unsigned char *tile = buf + (size_t)(li * lc + lj) * g->tbytes;
      if (in) mpi_tile_in(tile, a, n, nr, nc, &g->k);
      else mpi_tile_out(a, n, tile, nr, nc, es);
    }
  }
}

gsp_info gsp_mpi_closure(gsp_matrix M, gsp_semiring s, MPI_Comm comm, const gsp_mpi_opts *opts) {
  gsp_info info = GSP_SUCCESS;
  unsigned char *X = NULL, *S = NULL;
  gsp_matrix R = NULL;
  mpi_grid g = {.comm = MPI_COMM_NULL, .row = MPI_COMM_NULL, .col = MPI_COMM_NULL};
#define GSP_FREE_ALL (gsp__free(X), gsp__free(S), gsp_matrix_free(&R), mpi_grid_close(&g))
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int root = opts ? opts->root : 0;
  /* every rank sees the same root (a documented requirement) */
  GSP_CHECK(root >= 0 && root < size, GSP_INVALID_VALUE, "%s: root %d is not a rank of the %d", fn, root, size);

  job_header h = {0};
  if (rank == root) info = root_prepare(&h, &X, M, s, opts, size);
  GSP_TRY(mpi_agree_root(info, root, comm, fn));
  MPI_Bcast(&h, (int)sizeof h, MPI_BYTE, root, comm);
  gsp__fw_tiles k;
  GSP_TRY(gsp__fw_tiles_get(&k, (gsp_type)h.type, (gsp_semiring)h.semiring));
  mpi_grid_open(&g, comm, h.n, h.nprow, (gsp_type)h.type, &k);

  /* the local tiles, and on the root a buffer for the largest share */
  g.loc = gsp__malloc_array((size_t)(g.lr * g.lc > 0 ? g.lr * g.lc : 1), g.tbytes);
  if (!g.loc) info = GSP_ERROR(GSP_OUT_OF_MEMORY, "%s: cannot allocate %lld local tiles", fn, (long long)(g.lr * g.lc));
  const int64_t most = mpi_tiles_of(g.nb, g.pr, 0) * mpi_tiles_of(g.nb, g.pc, 0);
  if (info == GSP_SUCCESS && rank == root && size > 1 &&
      !(S = gsp__malloc_array((size_t)(most > 0 ? most : 1), g.tbytes)))
    info = GSP_ERROR(GSP_OUT_OF_MEMORY, "%s: cannot allocate a buffer of %lld tiles", fn, (long long)most);
  GSP_TRY(mpi_agree(info, g.comm, fn));

  /* deal the tiles (the grid rank of a rank is its rank in comm) */
  if (rank == root) {
    for (int q = 0; q < size; q++) {
      const int r = q / g.pc, c = q % g.pc;
      const size_t bytes = (size_t)(mpi_tiles_of(g.nb, g.pr, r) * mpi_tiles_of(g.nb, g.pc, c)) * g.tbytes;
      if (q == root || bytes == 0) continue;
      deal(X, S, &g, r, c, true);
      mpi_send_bytes(S, bytes, q, g.comm);
    }
    deal(X, g.loc, &g, g.myr, g.myc, true);
  } else if (g.lr * g.lc > 0) {
    mpi_recv_bytes(g.loc, (size_t)(g.lr * g.lc) * g.tbytes, root, g.comm);
  }

  bool cycle = false;
  GSP_TRY(mpi_fw_run(&g, h.reflexive, &cycle, fn));
  GSP_CHECK(!cycle, GSP_NEGATIVE_CYCLE, "%s: the graph has a %s cycle (M unchanged)", fn,
            h.semiring == GSP_MAX_PLUS ? "positive" : "negative");

  /* collect the tiles and commit on the root */
  if (rank == root) {
    deal(X, g.loc, &g, g.myr, g.myc, false);
    for (int q = 0; q < size; q++) {
      const int r = q / g.pc, c = q % g.pc;
      const size_t bytes = (size_t)(mpi_tiles_of(g.nb, g.pr, r) * mpi_tiles_of(g.nb, g.pc, c)) * g.tbytes;
      if (q == root || bytes == 0) continue;
      mpi_recv_bytes(S, bytes, q, g.comm);
      deal(X, S, &g, r, c, false);
    }
    /* "no path" is the semiring zero in the tiles, absent outside */
    info = gsp_matrix_pack_dense(&R, (gsp_type)h.type, (gsp_index)h.n, (gsp_index)h.n, (void **)&X, k.zero);
  } else if (g.lr * g.lc > 0) {
    mpi_send_bytes(g.loc, (size_t)(g.lr * g.lc) * g.tbytes, root, g.comm);
  }
  GSP_TRY(mpi_agree_root(info, root, g.comm, fn));
  if (rank == root) { /* nothing can fail past this point */
    gsp__unregister(R);
    gsp__matrix_swap_in(M, R);
    R = NULL;
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
