/*
 * Device CSR for the shortest-path kernels: A's out-arcs as they are, and
 * its in-arcs (the transpose, built on the host by a counting sort) for the
 * pull kernels. Column indices shrink to int32 on the device.
 */
#include <stdlib.h>

#include "gsp_cuda_sssp.cuh"

namespace gsp_sssp_cu {

int sm_count() {
  static int count = 0; /* device 0 never changes within a process */
  if (count == 0) {
    int c = 0;
    if (cudaDeviceGetAttribute(&c, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess) {
      (void)cudaGetLastError();
      c = 1;
    }
    count = c > 0 ? c : 1;
  }
  return count;
}

size_t graph_bytes(const struct gsp_matrix_s *A, bool reverse) {
  const size_t n = (size_t)A->nrows, m = (size_t)A->nvals, ts = gsp_type_size(A->type);
  const size_t one = (n + 1) * 8 + m * (4 + ts) + 64;
  return reverse ? 2 * one : one;
}

void graph_free(DevGraph *g) {
  cudaFree(g->off), cudaFree(g->col), cudaFree(g->w);
  cudaFree(g->roff), cudaFree(g->rcol), cudaFree(g->rw);
  (void)cudaGetLastError();
  memset(g, 0, sizeof *g);
}

/* Upload one CSR (offsets as int64, columns as int32). */
static gsp_info upload_csr(int64_t **doff, int32_t **dcol, void **dw, const gsp_index *p, const gsp_index *j,
                           const void *x, int64_t n, int64_t m, size_t ts) {
  gsp_info info = GSP_SUCCESS;
  int32_t *col = NULL;
#define GSP_FREE_ALL gsp__free(col)
  static_assert(sizeof(gsp_index) == sizeof(int64_t), "gsp_index is 64-bit");
  GSP_CU_MALLOC(*doff, n + 1, sizeof(int64_t));
  GSP_CU_MALLOC(*dcol, m > 0 ? m : 1, sizeof(int32_t));
  GSP_CU_MALLOC(*dw, m > 0 ? m : 1, ts);
  GSP_CUDA_TRY(cudaMemcpy(*doff, p, (size_t)(n + 1) * sizeof(int64_t), cudaMemcpyHostToDevice));
  if (m > 0) {
    col = (int32_t *)gsp__malloc_array((size_t)m, sizeof *col);
    GSP_CHECK(col != NULL, GSP_OUT_OF_MEMORY, "cannot stage %lld column indices", (long long)m);
    for (int64_t e = 0; e < m; e++) col[e] = (int32_t)j[e];
    GSP_CUDA_TRY(cudaMemcpy(*dcol, col, (size_t)m * sizeof *col, cudaMemcpyHostToDevice));
    GSP_CUDA_TRY(cudaMemcpy(*dw, x, (size_t)m * ts, cudaMemcpyHostToDevice));
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

gsp_info graph_upload(DevGraph *g, const struct gsp_matrix_s *A, bool reverse) {
  gsp_info info = GSP_SUCCESS;
  gsp_index *rp = NULL, *rj = NULL, *fill = NULL;
  unsigned char *rx = NULL;
#define GSP_FREE_ALL (graph_free(g), gsp__free(rp), gsp__free(rj), gsp__free(rx), gsp__free(fill))
  memset(g, 0, sizeof *g);
  const int64_t n = A->nrows, m = A->nvals;
  const size_t ts = gsp_type_size(A->type);
  g->n = (int32_t)n;
  g->m = m;
  GSP_TRY(upload_csr(&g->off, &g->col, &g->w, A->p, A->j, A->x, n, m, ts));
  if (reverse) {
    /* transpose by counting sort: in-arcs of v in order of their tails */
    rp = (gsp_index *)gsp__calloc((size_t)n + 1, sizeof *rp);
    fill = (gsp_index *)gsp__malloc_array((size_t)n + 1, sizeof *fill);
    rj = (gsp_index *)gsp__malloc_array(m > 0 ? (size_t)m : 1, sizeof *rj);
    rx = (unsigned char *)gsp__malloc_array(m > 0 ? (size_t)m : 1, ts);
    GSP_CHECK(rp && fill && rj && rx, GSP_OUT_OF_MEMORY, "cannot build the transpose of A (%lld arcs)",
              (long long)m);
    for (int64_t e = 0; e < m; e++) rp[A->j[e] + 1]++;
    for (int64_t v = 0; v < n; v++) rp[v + 1] += rp[v];
    memcpy(fill, rp, ((size_t)n + 1) * sizeof *fill);
    for (int64_t u = 0; u < n; u++)
      for (gsp_index e = A->p[u]; e < A->p[u + 1]; e++) {
        const gsp_index at = fill[A->j[e]]++;
        rj[at] = (gsp_index)u;
        memcpy(rx + at * ts, (const unsigned char *)A->x + e * ts, ts);
      }
    GSP_TRY(upload_csr(&g->roff, &g->rcol, &g->rw, rp, rj, rx, n, m, ts));
    gsp__free(rp), gsp__free(rj), gsp__free(rx), gsp__free(fill);
  }
#undef GSP_FREE_ALL
  return info;
}

} // namespace gsp_sssp_cu
