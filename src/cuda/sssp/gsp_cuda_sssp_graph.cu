/*
 * Device CSR for the shortest-path kernels. gsp_cuda_sssp reads the matrix's
 * one device CSR cache (A->dev, shared with the sparse products,
 * gsp_cuda_csr_cache.cuh) through a DevGraph view: out-arcs from A's CSR,
 * in-arcs from the CSR of A' for the pull kernels, and keeps what it derives
 * (weight sum, workspace) with that cache. msssp and Bellman-Ford upload a
 * private copy per call (graph_upload: out-arcs as they are, in-arcs by a
 * host counting sort). Column indices are int32 on the device.
 */
#include <stdlib.h>

#include "gsp_cuda_csr_cache.cuh"
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

bool graph_taken(const gsp_cuda_arrays *A) {
  if (A->type == GSP_BOOL) {
    gsp__device_decline(GSP_DOMAIN_MISMATCH, "the GPU shortest-path kernels take numeric weights only");
    return false;
  }
  if (A->nrows >= INT32_MAX) {
    gsp__device_decline(GSP_TOO_LARGE, "the GPU shortest-path kernels take fewer than 2^31 - 1 vertices");
    return false;
  }
  return A->nrows > 0;
}

bool device_fits(size_t need) {
  size_t free_b = 0, total_b = 0;
  const cudaError_t e = cudaMemGetInfo(&free_b, &total_b);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    gsp__device_decline(GSP_DEVICE_OUT_OF_MEMORY, "the free device memory cannot be read: %s", cudaGetErrorString(e));
    return false;
  }
  if (need <= free_b / 10 * 9) return true;
  gsp__device_decline(GSP_DEVICE_OUT_OF_MEMORY, "it needs %zu bytes of device memory and %zu are free", need, free_b);
  return false;
}

gsp_info distinct_sources(int32_t **out, int32_t *ns, const int64_t *src, int64_t nsrc, int64_t n) {
  gsp_info info = GSP_SUCCESS;
  int32_t *S = NULL;
  uint8_t *seen = NULL;
#define GSP_FREE_ALL (gsp__free(S), gsp__free(seen))
  S = (int32_t *)gsp__malloc_array(nsrc > 0 ? (size_t)nsrc : 1, sizeof *S);
  GSP_CHECK(S, GSP_OUT_OF_MEMORY, "cannot stage %lld sources", (long long)nsrc);
  int32_t k2 = 0;
  if (nsrc <= 64) { /* no O(n) scratch for the usual one or few sources */
    for (int64_t k = 0; k < nsrc; k++) {
      bool dup = false;
      for (int32_t i = 0; i < k2 && !dup; i++) dup = S[i] == src[k];
      if (!dup) S[k2++] = (int32_t)src[k];
    }
  } else {
    seen = (uint8_t *)gsp__calloc((size_t)n, 1);
    GSP_CHECK(seen, GSP_OUT_OF_MEMORY, "cannot stage %lld sources", (long long)nsrc);
    for (int64_t k = 0; k < nsrc; k++)
      if (!seen[src[k]]) seen[src[k]] = 1, S[k2++] = (int32_t)src[k];
    gsp__free(seen);
  }
  *out = S, *ns = k2;
#undef GSP_FREE_ALL
  return info;
}

size_t graph_bytes(const gsp_cuda_arrays *A, bool reverse) {
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

/* Add the in-arcs of A to g (g->roff == NULL before). On error g keeps
 * what it had before the call. */
static gsp_info upload_reverse(DevGraph *g, const gsp_cuda_arrays *A) {
  static const char *const fn = "shortest paths (CUDA)";
  gsp_info info = GSP_SUCCESS;
  gsp_index *rp = NULL, *rj = NULL;
  void *rx = NULL;
#define GSP_FREE_ALL                                                                                                \
  (cudaFree(g->roff), cudaFree(g->rcol), cudaFree(g->rw), (void)cudaGetLastError(), g->roff = NULL, g->rcol = NULL, \
   g->rw = NULL, gsp__free(rp), gsp__free(rj), gsp__free(rx))
  GSP_TRY(gsp__csr_transpose_host(&rp, &rj, &rx, A, fn));
  GSP_TRY(upload_csr(&g->roff, &g->rcol, &g->rw, rp, rj, rx, A->nrows, A->nvals, gsp_type_size(A->type)));
  gsp__free(rp), gsp__free(rj), gsp__free(rx);
#undef GSP_FREE_ALL
  return info;
}

gsp_info graph_upload(DevGraph *g, const gsp_cuda_arrays *A, bool reverse) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL graph_free(g)
  memset(g, 0, sizeof *g);
  const int64_t n = A->nrows, m = A->nvals;
  g->n = (int32_t)n;
  g->m = m;
  GSP_TRY(upload_csr(&g->off, &g->col, &g->w, A->p, A->j, A->x, n, m, gsp_type_size(A->type)));
  if (reverse) GSP_TRY(upload_reverse(g, A));
#undef GSP_FREE_ALL
  return info;
}

/* Sum of the finite weights, in double (one atomicAdd per block). */
template <class T> __global__ void weight_sum_kernel(const T *w, int64_t m, T inf, double *sum) {
  double s = 0;
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < m; e += (int64_t)gridDim.x * blockDim.x)
    if (w[e] != inf) s += (double)w[e];
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  __shared__ double part[32];
  if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    double b = 0;
    for (unsigned k = 0; k < blockDim.x / 32; k++) b += part[k];
    atomicAdd(sum, b);
  }
}

static gsp_info weight_sum(double *out, const DevGraph &g, gsp_type t) {
  gsp_info info = GSP_SUCCESS;
  double *sum = NULL;
#define GSP_FREE_ALL (cudaFree(sum), (void)cudaGetLastError())
  *out = 0;
  if (g.m == 0) return info;
  GSP_CUDA_TRY(cudaMalloc((void **)&sum, sizeof *sum));
  GSP_CUDA_TRY(cudaMemset(sum, 0, sizeof *sum));
  switch (t) {
  case GSP_INT32:
    weight_sum_kernel<int32_t><<<blocks_for(g.m), 256>>>((const int32_t *)g.w, g.m, gsp_pinf_i32(), sum);
    break;
  case GSP_INT64:
    weight_sum_kernel<int64_t><<<blocks_for(g.m), 256>>>((const int64_t *)g.w, g.m, gsp_pinf_i64(), sum);
    break;
  case GSP_FP32:
    weight_sum_kernel<float><<<blocks_for(g.m), 256>>>((const float *)g.w, g.m, gsp_pinf_f32(), sum);
    break;
  default:
    weight_sum_kernel<double><<<blocks_for(g.m), 256>>>((const double *)g.w, g.m, gsp_pinf_f64(), sum);
    break;
  }
  GSP_CUDA_LAUNCHED();
  GSP_CUDA_TRY(cudaMemcpy(out, sum, sizeof *out, cudaMemcpyDeviceToHost));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

gsp_info graph_get(const DevGraph **out, const gsp_cuda_arrays *A, bool reverse) {
  static const char *const fn = "gsp_sssp (CUDA)";
  gsp_info info = GSP_SUCCESS;
  struct gsp_dev_graph *dg = NULL;
#define GSP_FREE_ALL gsp__free(dg)
  const gsp_dev_csr *c = NULL, *ct = NULL;
  GSP_TRY(gsp__cu_matrix_csr(&c, A, false, fn));
  if (reverse) GSP_TRY(gsp__cu_matrix_csr(&ct, A, true, fn));
  struct gsp_dev_matrix *dev = *A->dev; /* exists now */
  if (!dev->graph) {
    dg = (struct gsp_dev_graph *)gsp__calloc(1, sizeof *dg);
    GSP_CHECK(dg != NULL, GSP_OUT_OF_MEMORY, "%s: cannot allocate a device graph header", fn);
    dg->g.n = (int32_t)A->nrows;
    dg->g.m = c->nnz;
    dg->g.off = c->p64, dg->g.col = c->j, dg->g.w = c->x;
    GSP_TRY(weight_sum(&dg->wsum, dg->g, A->type));
    dev->graph = dg;
    dg = NULL;
  }
  DevGraph *g = &dev->graph->g;
  if (dev->csrT) g->roff = dev->csrT->p64, g->rcol = dev->csrT->j, g->rw = dev->csrT->x;
  *out = g;
#undef GSP_FREE_ALL
  return info;
}

gsp_info graph_workspace(void **ws, const gsp_cuda_arrays *A, size_t bytes) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  struct gsp_dev_graph *dg = (*A->dev)->graph;
  if (dg->ws_bytes < bytes) {
    cudaFree(dg->ws);
    dg->ws = NULL, dg->ws_bytes = 0;
    GSP_CUDA_TRY(cudaMalloc(&dg->ws, bytes));
    dg->ws_bytes = bytes;
  }
  *ws = dg->ws;
#undef GSP_FREE_ALL
  return info;
}

gsp_info graph_staging(void **p, struct gsp_dev_graph *dg, size_t bytes) {
  if (dg->pin_bytes < bytes) {
    gsp__pinned_free(dg->pin);
    dg->pin = gsp__pinned_alloc(bytes);
    dg->pin_bytes = dg->pin ? bytes : 0;
  }
  *p = dg->pin;
  return GSP_SUCCESS;
}

gsp_info graph_copy_stream(cudaStream_t *s, struct gsp_dev_graph *dg) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  if (!dg->copy) GSP_CUDA_TRY(cudaStreamCreateWithFlags(&dg->copy, cudaStreamNonBlocking));
  *s = dg->copy;
#undef GSP_FREE_ALL
  return info;
}

size_t graph_missing_bytes(const gsp_cuda_arrays *A, bool reverse) {
  const size_t one = graph_bytes(A, false) + ((size_t)A->nrows + 1) * 4; /* the cache has 32-bit offsets too */
  const struct gsp_dev_matrix *dev = *A->dev;
  return (dev && dev->csr ? 0 : one) + (reverse && !(dev && dev->csrT) ? one : 0);
}

size_t graph_workspace_bytes(const gsp_cuda_arrays *A) {
  const struct gsp_dev_matrix *dev = *A->dev;
  return dev && dev->graph ? dev->graph->ws_bytes : 0;
}

} // namespace gsp_sssp_cu

extern "C" bool gsp_cuda_weights_checked(const gsp_cuda_arrays *A, double *wsum) {
  const gsp__cu_guard guard(A->dev);
  const struct gsp_dev_matrix *dev = *A->dev;
  if (!dev || !dev->graph) return false;
  *wsum = dev->graph->wsum;
  return true;
}

/* The view points into the cache's CSR copies: only the header and the
 * workspace belong to the graph. */
void gsp__cuda_graph_free(struct gsp_dev_graph *dg) {
  if (!dg) return;
  cudaFree(dg->ws);
  gsp__pinned_free(dg->pin);
  if (dg->copy) cudaStreamDestroy(dg->copy);
  (void)cudaGetLastError();
  gsp__free(dg);
}
