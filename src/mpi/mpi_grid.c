/* The process grid, collective error agreement, chunked messages and the
 * tile copies shared by both forms of the distributed closure. */
#include <math.h>
#include <stdio.h>

#include "mpi_internal.h"

int mpi_grid_rows(int size, const gsp_mpi_opts *opts) {
  if (opts && opts->nprow > 0) return size % opts->nprow == 0 ? opts->nprow : 0;
  int pr = 1;
  for (int d = 1; (int64_t)d * d <= size; d++)
    if (size % d == 0) pr = d;
  return pr;
}

void mpi_grid_open(mpi_grid *g, MPI_Comm comm, int64_t n, int nprow, gsp_type t, const gsp__fw_tiles *k) {
  memset(g, 0, sizeof *g);
  MPI_Comm_dup(comm, &g->comm);
  MPI_Comm_rank(g->comm, &g->rank);
  MPI_Comm_size(g->comm, &g->size);
  g->pr = nprow;
  g->pc = g->size / nprow;
  g->myr = g->rank / g->pc;
  g->myc = g->rank % g->pc;
  /* rank in row = grid column, rank in col = grid row */
  MPI_Comm_split(g->comm, g->myr, g->myc, &g->row);
  MPI_Comm_split(g->comm, g->myc, g->myr, &g->col);
  g->n = n;
  g->nb = (n + TB - 1) / TB;
  g->lr = mpi_tiles_of(g->nb, g->pr, g->myr);
  g->lc = mpi_tiles_of(g->nb, g->pc, g->myc);
  g->t = t;
  g->k = *k;
  g->tbytes = (size_t)(TB * TB) * k->esize;
}

void mpi_grid_close(mpi_grid *g) {
  if (g->row != MPI_COMM_NULL) MPI_Comm_free(&g->row);
  if (g->col != MPI_COMM_NULL) MPI_Comm_free(&g->col);
  if (g->comm != MPI_COMM_NULL) MPI_Comm_free(&g->comm);
  gsp__free(g->loc);
  g->loc = NULL;
}

/* Rank `from` failed with info: every rank learns its code and message. */
static gsp_info share_failure(gsp_info info, int from, MPI_Comm comm, const char *fn) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  struct {
    int code;
    char msg[480];
  } m;
  memset(&m, 0, sizeof m);
  if (rank == from) {
    m.code = (int)info;
    snprintf(m.msg, sizeof m.msg, "%s", gsp_last_error());
  }
  MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, from, comm);
  if (rank == from) return info;
  return gsp__error((gsp_info)m.code, __FILE__, __LINE__, "%s: rank %d failed: %s", fn, from, m.msg);
}

gsp_info mpi_agree(gsp_info info, MPI_Comm comm, const char *fn) {
  int rank, size, first;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int key = info < 0 ? rank : size;
  MPI_Allreduce(&key, &first, 1, MPI_INT, MPI_MIN, comm);
  return first == size ? info : share_failure(info, first, comm, fn);
}

gsp_info mpi_agree_root(gsp_info info, int root, MPI_Comm comm, const char *fn) {
  int code = (int)info;
  MPI_Bcast(&code, 1, MPI_INT, root, comm);
  return code >= 0 ? info : share_failure(info, root, comm, fn);
}

/* MPI counts are int: move large buffers in pieces of 1 GiB. */
#define MPI_CHUNK ((size_t)1 << 30)

void mpi_bcast_bytes(void *buf, size_t bytes, int root, MPI_Comm comm) {
  for (size_t off = 0; off < bytes; off += MPI_CHUNK) {
    size_t len = bytes - off < MPI_CHUNK ? bytes - off : MPI_CHUNK;
    MPI_Bcast((char *)buf + off, (int)len, MPI_BYTE, root, comm);
  }
}

void mpi_send_bytes(const void *buf, size_t bytes, int dest, MPI_Comm comm) {
  for (size_t off = 0; off < bytes; off += MPI_CHUNK) {
    size_t len = bytes - off < MPI_CHUNK ? bytes - off : MPI_CHUNK;
    MPI_Send((const char *)buf + off, (int)len, MPI_BYTE, dest, 0, comm);
  }
}

void mpi_recv_bytes(void *buf, size_t bytes, int src, MPI_Comm comm) {
  for (size_t off = 0; off < bytes; off += MPI_CHUNK) {
    size_t len = bytes - off < MPI_CHUNK ? bytes - off : MPI_CHUNK;
    MPI_Recv((char *)buf + off, (int)len, MPI_BYTE, src, 0, comm, MPI_STATUS_IGNORE);
  }
}

void mpi_tile_in(unsigned char *tile, const unsigned char *a, int64_t ld, int64_t nr, int64_t nc,
                 const gsp__fw_tiles *k) {
  const size_t es = k->esize, row = (size_t)TB * es;
  for (int64_t r = 0; r < TB; r++) {
    unsigned char *t = tile + (size_t)r * row;
    int64_t c0 = 0;
    if (r < nr) {
      memcpy(t, a + (size_t)(r * ld) * es, (size_t)nc * es);
      c0 = nc;
    }
    for (int64_t c = c0; c < TB; c++) memcpy(t + (size_t)c * es, k->zero, es);
  }
}

void mpi_tile_out(unsigned char *a, int64_t ld, const unsigned char *tile, int64_t nr, int64_t nc, size_t es) {
  for (int64_t r = 0; r < nr; r++) memcpy(a + (size_t)(r * ld) * es, tile + (size_t)(r * TB) * es, (size_t)nc * es);
}

gsp_info mpi_check_semiring(gsp_semiring s, gsp_type t, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_CHECK(s >= GSP_MIN_PLUS && s <= GSP_PLUS_TIMES, GSP_INVALID_VALUE, "%s: invalid semiring code %d", fn, (int)s);
  GSP_CHECK(s != GSP_PLUS_TIMES, GSP_DOMAIN_MISMATCH, "%s: PLUS_TIMES has no closure (I + A + A^2 + ... diverges)", fn);
  GSP_CHECK(gsp__semiring_fits(s, t), GSP_DOMAIN_MISMATCH, "%s: semiring %s does not apply to type %s", fn,
            gsp__semiring_name(s), gsp__type_name(t));
#undef GSP_FREE_ALL
  return info;
}

bool mpi_has_nan(const void *x, size_t count, gsp_type t) {
  bool nan = false;
  if (t == GSP_FP32) {
    const float *f = x;
    for (size_t k = 0; k < count; k++) nan |= isnan(f[k]);
  } else if (t == GSP_FP64) {
    const double *d = x;
    for (size_t k = 0; k < count; k++) nan |= isnan(d[k]);
  }
  return nan;
}
