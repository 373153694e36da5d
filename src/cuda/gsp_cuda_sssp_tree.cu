/*
 * Parents on the GPU from final distances, by the rule every backend uses
 * (see gsp__sssp_cpu_tree): a level-synchronous BFS over the tight arcs
 * (d[u] + w == d[v] exactly); a vertex takes the first level that reaches
 * it, and parent = atomicMin over the tight tails one level up, so the
 * result is the smallest such tail whatever the thread timing.
 */
#include "gsp_cuda_sssp.cuh"

namespace gsp_sssp_cu {

template <class T, int G>
__global__ void tree_level(const DevGraph g, const typename Key<T>::K *d, const int32_t *order, int32_t lo,
                           int32_t hi, int32_t L, int32_t *level, int32_t *par, int32_t *cnt, T lim) {
  typedef Key<T> KT;
  const T *w = (const T *)g.w;
  const int lane = threadIdx.x % G;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x / G;
  for (int64_t k = lo + (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) / G; k < hi; k += stride) {
    const int32_t u = order[k];
    const T du = KT::dec(d[u]);
    for (int64_t e = g.off[u] + lane; e < g.off[u + 1]; e += G) {
      const int32_t v = g.col[e];
      const int32_t lv = level[v];
      if (lv != -1 && lv != L + 1) continue;
      const T dv = KT::dec(d[v]);
      if (!(dv <= lim) || KT::add(du, w[e]) != dv) continue;
      if (lv == -1 && atomicCAS(&level[v], -1, L + 1) == -1) qpush((int32_t *)order, cnt, v);
      atomicMin(&par[v], u);
    }
  }
}

__global__ void tree_seed(const int32_t *src, int32_t nsrc, int32_t *level, int32_t *par) {
  for (int32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < nsrc; k += gridDim.x * blockDim.x) {
    level[src[k]] = 0;
    par[src[k]] = src[k];
  }
}

template <class T>
gsp_info tree(int64_t *parent, int64_t *root, const typename Key<T>::K *d, const T *dist_host, const DevGraph &g,
              const int32_t *src, int32_t nsrc, T lim) {
  gsp_info info = GSP_SUCCESS;
  const int32_t n = g.n;
  int32_t *level = NULL, *par = NULL, *order = NULL, *cnt = NULL;
  int32_t *hpar = NULL, *horder = NULL;
#define GSP_FREE_ALL                                                           \
  (cudaFree(level), cudaFree(par), cudaFree(order), cudaFree(cnt), (void)cudaGetLastError(), \
   gsp__free(hpar), gsp__free(horder))
  GSP_CU_MALLOC(level, n, sizeof *level);
  GSP_CU_MALLOC(par, n, sizeof *par);
  GSP_CU_MALLOC(order, n, sizeof *order);
  GSP_CU_MALLOC(cnt, 1, sizeof *cnt);
  GSP_TRY(fill<int32_t>(level, n, -1));
  GSP_TRY(fill<int32_t>(par, n, INT32_MAX));
  /* sources (distinct, from the caller): level 0, their own parent */
  hpar = (int32_t *)gsp__malloc_array((size_t)n + 1, sizeof *hpar);
  horder = (int32_t *)gsp__malloc_array((size_t)n + 1, sizeof *horder);
  GSP_CHECK(hpar && horder, GSP_OUT_OF_MEMORY, "cannot stage the shortest-path tree of %d vertices", n);
  GSP_CUDA_TRY(cudaMemcpy(order, src, (size_t)nsrc * sizeof *order, cudaMemcpyHostToDevice));
  GSP_CUDA_TRY(cudaMemcpy(cnt, &nsrc, sizeof nsrc, cudaMemcpyHostToDevice));
  tree_seed<<<blocks_for(nsrc), 256>>>(order, nsrc, level, par);
  GSP_CUDA_LAUNCHED();
  const bool wide = g.m >= 12 * (int64_t)(n > 0 ? n : 1);
  int32_t lo = 0, hi = nsrc;
  for (int32_t L = 0; lo < hi; L++) {
    if (wide)
      tree_level<T, 32><<<blocks_for((int64_t)(hi - lo) * 32), 256>>>(g, d, order, lo, hi, L, level, par, cnt, lim);
    else
      tree_level<T, 4><<<blocks_for((int64_t)(hi - lo) * 4), 256>>>(g, d, order, lo, hi, L, level, par, cnt, lim);
    GSP_CUDA_LAUNCHED();
    lo = hi;
    GSP_TRY(read_count(&hi, cnt));
  }
  GSP_CUDA_TRY(cudaMemcpy(hpar, par, (size_t)n * sizeof *hpar, cudaMemcpyDeviceToHost));
  GSP_CUDA_TRY(cudaMemcpy(horder, order, (size_t)hi * sizeof *horder, cudaMemcpyDeviceToHost));
  /* every vertex with a distance must be in the tree */
  int64_t reached = 0;
  for (int32_t v = 0; v < n; v++) {
    const bool r = dist_host[v] <= lim;
    reached += r;
    parent[v] = r ? (int64_t)hpar[v] : -1;
  }
  GSP_CHECK(reached == hi, GSP_PANIC, "shortest-path tree: %lld vertices have distances, %d have tight paths",
            (long long)reached, hi);
  if (root) {
    for (int32_t v = 0; v < n; v++) root[v] = -1;
    for (int32_t k = 0; k < hi; k++) { /* order lists parents before children */
      const int32_t v = horder[k];
      root[v] = parent[v] == v ? v : root[parent[v]];
    }
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

template <class T>
gsp_info finish(T *dist, int64_t *parent, int64_t *root, const typename Key<T>::K *d, const DevGraph &g,
                const int32_t *src, int32_t nsrc, T lim) {
  gsp_info info = GSP_SUCCESS;
  typename Key<T>::K *hd = NULL;
#define GSP_FREE_ALL gsp__free(hd)
  const int32_t n = g.n;
  hd = (typename Key<T>::K *)gsp__malloc_array((size_t)n + 1, sizeof *hd);
  GSP_CHECK(hd != NULL, GSP_OUT_OF_MEMORY, "cannot stage %d distances", n);
  GSP_CUDA_TRY(cudaMemcpy(hd, d, (size_t)n * sizeof *hd, cudaMemcpyDeviceToHost));
  for (int32_t v = 0; v < n; v++) dist[v] = Key<T>::dec(hd[v]);
  if (parent) GSP_TRY(tree<T>(parent, root, d, dist, g, src, nsrc, lim));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

#define GSP_CU_TREE_(T)                                                        \
  template gsp_info tree<T>(int64_t *, int64_t *, const Key<T>::K *, const T *, const DevGraph &, \
                            const int32_t *, int32_t, T);                       \
  template gsp_info finish<T>(T *, int64_t *, int64_t *, const Key<T>::K *, const DevGraph &, const int32_t *, \
                              int32_t, T);
GSP_CU_TREE_(int32_t)
GSP_CU_TREE_(int64_t)
GSP_CU_TREE_(float)
GSP_CU_TREE_(double)
#undef GSP_CU_TREE_

} // namespace gsp_sssp_cu
