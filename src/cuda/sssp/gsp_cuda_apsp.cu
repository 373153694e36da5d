/*
 * Device facts gsp_apsp's planner needs (gateway functions declared in
 * gsp_cuda.h): free memory, and what the many-source kernel of
 * gsp_cuda_msssp.cu takes for a batch.
 */
#include "gsp_cuda_sssp.cuh"

bool gsp_cuda_memory(size_t *free_bytes, size_t *total_bytes) {
  size_t f = 0, t = 0;
  if (cudaMemGetInfo(&f, &t) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  *free_bytes = f;
  *total_bytes = t;
  return true;
}

size_t gsp_cuda_msssp_bytes(const gsp_cuda_arrays *A, int64_t batch, bool parents) {
  /* the same sums as gsp_cuda_msssp's own check: the graph both ways, the
   * per-vertex arrays, the sources, and per (vertex, source) a distance and
   * its transposed copy and, with parents, two int32 arrays */
  const size_t ks = A->type == GSP_INT32 || A->type == GSP_FP32 ? 4 : 8;
  const size_t per_cell = ks + ks + (parents ? 8 : 0);
  const size_t n = (size_t)A->nrows;
  return gsp_sssp_cu::graph_bytes(A, true) + n * 16 + (size_t)batch * 4 + n * (size_t)batch * per_cell;
}
