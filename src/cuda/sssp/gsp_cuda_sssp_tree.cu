/*
 * Parents on the GPU from final distances, by the rules every backend uses
 * (gsp__sssp_cpu_tree):
 *
 *  - strict (non-negative weights): one pass over the arcs gives each
 *    vertex the smallest tight tail u with d[u] < d[v] (atomicMin, so the
 *    result does not depend on thread timing). The vertices left without
 *    one ("ties": reached only over tight arcs of zero length) are rare;
 *    only when there are any, a level-synchronous BFS over the tight arcs,
 *    seeded with every vertex that has its parent, gives them the smallest
 *    tight tail one level up;
 *  - BFS (Bellman-Ford): that BFS from the sources alone, for every vertex.
 *
 * The arc pass is arc-parallel (each warp a contiguous chunk of arcs, their
 * tails laid out in shared memory first), so hubs cost no more than their
 * arcs.
 */
#include "gsp_cuda_sssp.cuh"

namespace gsp_sssp_cu {

namespace {

constexpr int TREE_CHUNK = 1024; /* arcs per warp in the arc pass */

/* The largest u in [lo, hi] with off[u] <= e (off[lo] <= e): the tail of
 * arc e, empty rows skipped. */
__device__ __forceinline__ int32_t arc_tail(const int64_t *off, int32_t lo, int32_t hi, int64_t e) {
  while (lo < hi) {
    const int32_t mid = lo + (hi - lo + 1) / 2;
    if (off[mid] <= e) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* Shared-memory slot of arc position i of a warp's chunk: one pad word
 * every 32, so that a lane walking 32 consecutive positions and a warp
 * reading 32 consecutive ones are both free of bank conflicts. */
__device__ __forceinline__ int tail_slot(int i) {
  return i + (i >> 5);
}

/* par[v] = min over tight arcs u -> v with d[u] < d[v] of u. A warp takes
 * TREE_CHUNK consecutive arcs; their tails go to shared memory first (each
 * row of the chunk marks the position where it starts, then a running max
 * over the positions), so the arc loop's iterations are independent and
 * their loads overlap. Needs blockDim.x == 256. */
template <class T>
__global__ void __launch_bounds__(256)
    tree_strict(const DevGraph g, const typename Key<T>::K *__restrict__ d, int32_t *__restrict__ par, T lim) {
  typedef Key<T> KT;
  constexpr int SLOTS = TREE_CHUNK + TREE_CHUNK / 32;
  __shared__ int32_t tails[256 / 32][SLOTS];
  int32_t *tl = tails[threadIdx.x >> 5];
  const T *__restrict__ w = (const T *)g.w;
  const int32_t *__restrict__ col = g.col;
  const int64_t *__restrict__ off = g.off;
  const int lane = threadIdx.x & 31;
  const int64_t nw = ((int64_t)gridDim.x * blockDim.x) >> 5;
  for (int64_t c = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5; c * TREE_CHUNK < g.m; c += nw) {
    const int64_t e0 = c * TREE_CHUNK, e1 = e0 + TREE_CHUNK < g.m ? e0 + TREE_CHUNK : g.m;
    const int32_t ufirst = arc_tail(off, 0, g.n - 1, e0), ulast = arc_tail(off, ufirst, g.n - 1, e1 - 1);
    __syncwarp();
    for (int i = lane; i < TREE_CHUNK; i += 32) tl[tail_slot(i)] = i == 0 ? ufirst : -1;
    __syncwarp();
    /* rows after the first start inside the chunk; empty rows share a
     * start with the next one, which must win: the max */
    for (int32_t r = ufirst + 1 + lane; r <= ulast; r += 32) atomicMax(&tl[tail_slot((int)(off[r] - e0))], r);
    __syncwarp();
    int32_t run = -1; /* running max: lane owns positions lane*32 .. lane*32+31 */
    for (int j = 0; j < 32; j++) run = max(run, tl[tail_slot(lane * 32 + j)]);
    for (int o = 1; o < 32; o <<= 1) {
      const int32_t x = __shfl_up_sync(0xffffffffu, run, o);
      if (lane >= o) run = max(run, x);
    }
    int32_t pre = __shfl_up_sync(0xffffffffu, run, 1); /* the max before this lane's positions */
    if (lane == 0) pre = -1;
    for (int j = 0; j < 32; j++) {
      const int sl = tail_slot(lane * 32 + j);
      pre = max(pre, tl[sl]);
      tl[sl] = pre;
    }
    __syncwarp();
#pragma unroll 4
    for (int j = 0; j < TREE_CHUNK / 32; j++) {
      const int64_t e = e0 + j * 32 + lane;
      if (e >= e1) continue;
      const int32_t u = tl[tail_slot(j * 32 + lane)];
      const int32_t v = col[e];
      const T du = KT::dec(d[u]), dv = KT::dec(d[v]);
      if (du <= lim && du < dv && dv <= lim && KT::add(du, w[e]) == dv) atomicMin(&par[v], u);
    }
  }
}

/* Unreached vertices get -1; *cnt += the reached ones with no parent yet
 * (INT32_MAX). */
template <class T>
__global__ void tree_open(const typename Key<T>::K *d, int32_t *par, int32_t n, T lim, int32_t *cnt) {
  int c = 0;
  for (int64_t v = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; v < n; v += (int64_t)gridDim.x * blockDim.x) {
    if (!(Key<T>::dec(d[v]) <= lim)) par[v] = -1;
    else c += par[v] == INT32_MAX;
  }
  c = __reduce_add_sync(0xffffffffu, c);
  if ((threadIdx.x & 31) == 0 && c) atomicAdd(cnt, c);
}

/* BFS seed of the strict rule: level 0 and queued for every vertex with a
 * parent, -1 for the others. */
__global__ void tree_seed_levels(const int32_t *par, int32_t n, int32_t *level, int32_t *order, int32_t *cnt) {
  for (int64_t v = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; v < n; v += (int64_t)gridDim.x * blockDim.x) {
    const bool has = par[v] >= 0 && par[v] != INT32_MAX;
    level[v] = has ? 0 : -1;
    if (has) qpush(order, cnt, (int32_t)v);
  }
}

/* One BFS level: the vertices order[lo, hi) of level L look at their
 * arcs; an unlevelled (or this level's) target v on a tight arc takes
 * level L + 1 (the first claim queues it) and parent = atomicMin. */
template <class T, int G>
__global__ void tree_level(const DevGraph g, const typename Key<T>::K *d, int32_t *order, int32_t lo, int32_t hi,
                           int32_t L, int32_t *level, int32_t *par, int32_t *cnt, T lim) {
  typedef Key<T> KT;
  const T *w = (const T *)g.w;
  const int lane = threadIdx.x % G;
  for (int64_t k = lo + group_id<G>(); k < hi; k += group_stride<G>()) {
    const int32_t u = order[k];
    const T du = KT::dec(d[u]);
    for (int64_t e = g.off[u] + lane; e < g.off[u + 1]; e += G) {
      const int32_t v = g.col[e];
      const int32_t lv = level[v];
      if (lv != -1 && lv != L + 1) continue;
      const T dv = KT::dec(d[v]);
      if (!(dv <= lim) || KT::add(du, w[e]) != dv) continue;
      if (lv == -1 && atomicCAS(&level[v], -1, L + 1) == -1) qpush(order, cnt, v);
      atomicMin(&par[v], u);
    }
  }
}

/* Sources: their own parents (and level 0, queued, when level != NULL). */
__global__ void tree_seed(const int32_t *src, int32_t nsrc, int32_t *level, int32_t *par) {
  for (int32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < nsrc; k += gridDim.x * blockDim.x) {
    if (level) level[src[k]] = 0;
    par[src[k]] = src[k];
  }
}

/* BFS levels from order[0, hi) (level 0) until no vertex is added. */
template <class T>
gsp_info tree_bfs(const DevGraph &g, const typename Key<T>::K *d, int32_t *par, TreeWs ws, int32_t hi, T lim,
                  int32_t *levels) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  const bool wide = g.m >= 12 * (int64_t)(g.n > 0 ? g.n : 1);
  int32_t lo = 0, L = 0;
  for (; lo < hi; L++) {
    if (wide)
      tree_level<T, 32>
          <<<blocks_for((int64_t)(hi - lo) * 32), 256>>>(g, d, ws.order, lo, hi, L, ws.level, par, ws.cnt, lim);
    else
      tree_level<T, 4>
          <<<blocks_for((int64_t)(hi - lo) * 4), 256>>>(g, d, ws.order, lo, hi, L, ws.level, par, ws.cnt, lim);
    GSP_CUDA_LAUNCHED();
    lo = hi;
    GSP_TRY(read_count(&hi, ws.cnt));
  }
  *levels = L;
#undef GSP_FREE_ALL
  return info;
}

/* Zero the counter, run tree_open, read the count. */
template <class T>
gsp_info open_count(int32_t *out, const typename Key<T>::K *d, int32_t *par, int32_t n, T lim, int32_t *cnt) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  GSP_CUDA_TRY(cudaMemsetAsync(cnt, 0, sizeof *cnt, 0));
  tree_open<T><<<blocks_for(n), 256>>>(d, par, n, lim, cnt);
  GSP_CUDA_LAUNCHED();
  GSP_TRY(read_count(out, cnt));
#undef GSP_FREE_ALL
  return info;
}

} // namespace

template <class T>
gsp_info tree_start(int32_t *par, const typename Key<T>::K *d, const DevGraph &g, const int32_t *src, int32_t nsrc,
                    T lim, bool strict, TreeWs ws) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  const int32_t n = g.n;
  GSP_TRY(fill<int32_t>(par, n, INT32_MAX));
  /* async: a plain copy from pageable memory would wait for the kernel */
  GSP_CUDA_TRY(cudaMemcpyAsync(ws.order, src, (size_t)nsrc * sizeof *src, cudaMemcpyHostToDevice, 0));
  if (strict) {
    tree_seed<<<blocks_for(nsrc), 256>>>(ws.order, nsrc, NULL, par);
    GSP_CUDA_LAUNCHED();
    if (g.m > 0) {
      tree_strict<T><<<blocks_for((g.m + TREE_CHUNK - 1) / TREE_CHUNK * 32), 256>>>(g, d, par, lim);
      GSP_CUDA_LAUNCHED();
    }
    GSP_CUDA_TRY(cudaMemsetAsync(ws.cnt, 0, sizeof *ws.cnt, 0));
    tree_open<T><<<blocks_for(n), 256>>>(d, par, n, lim, ws.cnt);
    GSP_CUDA_LAUNCHED();
  } else {
    GSP_TRY(fill<int32_t>(ws.level, n, -1));
    GSP_CUDA_TRY(cudaMemcpyAsync(ws.cnt, &nsrc, sizeof nsrc, cudaMemcpyHostToDevice, 0));
    tree_seed<<<blocks_for(nsrc), 256>>>(ws.order, nsrc, ws.level, par);
    GSP_CUDA_LAUNCHED();
  }
#undef GSP_FREE_ALL
  return info;
}

template <class T>
gsp_info tree_end(int32_t *par, const typename Key<T>::K *d, const DevGraph &g, int32_t nsrc, T lim, bool strict,
                  TreeWs ws, CallRecord &rec) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  const int32_t n = g.n;
  gsp_cuda_sssp_stats &stats = rec.stats;
  int32_t open = 0, levels = 0, hi = nsrc;
  if (strict) {
    GSP_TRY(read_count(&open, ws.cnt));
    stats.ties += open;
    if (open == 0) return info;
    /* ties: the BFS from every vertex that has its parent */
    GSP_CUDA_TRY(cudaMemsetAsync(ws.cnt, 0, sizeof *ws.cnt, 0));
    tree_seed_levels<<<blocks_for(n), 256>>>(par, n, ws.level, ws.order, ws.cnt);
    GSP_CUDA_LAUNCHED();
    GSP_TRY(read_count(&hi, ws.cnt));
  }
  GSP_TRY(tree_bfs<T>(g, d, par, ws, hi, lim, &levels));
  stats.tie_levels += levels;
  GSP_TRY(open_count<T>(&open, d, par, n, lim, ws.cnt));
  GSP_CHECK(open == 0, GSP_PANIC, "shortest-path tree: %d vertices have distances but no tight path", open);
#undef GSP_FREE_ALL
  return info;
}

template <class T>
gsp_info finish(T *dist, int64_t *parent, const typename Key<T>::K *d, const DevGraph &g, const int32_t *src,
                int32_t nsrc, T lim, bool strict, CallRecord &rec) {
  gsp_info info = GSP_SUCCESS;
  typename Key<T>::K *hd = NULL;
  int32_t *par = NULL, *hpar = NULL;
  TreeWs ws = {NULL, NULL, NULL};
#define GSP_FREE_ALL                                                                                        \
  (gsp__free(hd), gsp__free(hpar), cudaFree(par), cudaFree(ws.level), cudaFree(ws.order), cudaFree(ws.cnt), \
   (void)cudaGetLastError())
  const int32_t n = g.n;
  hd = (typename Key<T>::K *)gsp__malloc_array((size_t)n + 1, sizeof *hd);
  GSP_CHECK(hd != NULL, GSP_OUT_OF_MEMORY, "cannot stage %d distances", n);
  GSP_CUDA_TRY(cudaMemcpy(hd, d, (size_t)n * sizeof *hd, cudaMemcpyDeviceToHost));
  for (int32_t v = 0; v < n; v++) dist[v] = Key<T>::dec(hd[v]);
  if (parent) {
    GSP_CU_MALLOC(par, n, sizeof *par);
    GSP_CU_MALLOC(ws.level, n, sizeof *ws.level);
    GSP_CU_MALLOC(ws.order, n, sizeof *ws.order);
    GSP_CU_MALLOC(ws.cnt, 1, sizeof *ws.cnt);
    hpar = (int32_t *)gsp__malloc_array((size_t)n + 1, sizeof *hpar);
    GSP_CHECK(hpar != NULL, GSP_OUT_OF_MEMORY, "cannot stage the parents of %d vertices", n);
    GSP_TRY(tree_start<T>(par, d, g, src, nsrc, lim, strict, ws));
    GSP_TRY(tree_end<T>(par, d, g, nsrc, lim, strict, ws, rec));
    GSP_CUDA_TRY(cudaMemcpy(hpar, par, (size_t)n * sizeof *hpar, cudaMemcpyDeviceToHost));
    for (int32_t v = 0; v < n; v++) parent[v] = hpar[v];
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

#define GSP_CU_TREE_(T)                                                                                               \
  template gsp_info tree_start<T>(int32_t *, const Key<T>::K *, const DevGraph &, const int32_t *, int32_t, T, bool,  \
                                  TreeWs);                                                                            \
  template gsp_info tree_end<T>(int32_t *, const Key<T>::K *, const DevGraph &, int32_t, T, bool, TreeWs,             \
                                CallRecord &);                                                                        \
  template gsp_info finish<T>(T *, int64_t *, const Key<T>::K *, const DevGraph &, const int32_t *, int32_t, T, bool, \
                              CallRecord &);
GSP_CU_TREE_(int32_t)
GSP_CU_TREE_(int64_t)
GSP_CU_TREE_(float)
GSP_CU_TREE_(double)
#undef GSP_CU_TREE_

} // namespace gsp_sssp_cu
