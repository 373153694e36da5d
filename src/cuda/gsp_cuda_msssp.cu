/*
 * Many-source shortest paths on the GPU (gateway gsp_cuda_msssp), after
 * Okuyama et al.'s task-parallel scheme: a batch of N sources (N a multiple
 * of 32) is relaxed together with distances stored vertex-major,
 * source-minor (D[v*N + s]). One warp serves one vertex and 32 of the
 * batch's sources: its lanes walk the vertex's adjacency list together
 * (each arc is one broadcast load) and relax 32 consecutive, coalesced
 * distances per arc. Rounds are Harish-style with a per-(vertex, source)
 * modified mask and a vertex frontier holding every vertex with any
 * modified source, relaxed in place (atomicMin on keys) as in the paper.
 *
 * Parents come from a second, recording pass in the same layout: the
 * tight-arc BFS of gsp_cuda_sssp_tree.cu run for all sources of the batch
 * at once, each lane keeping its own level and parent.
 */
#include <stdlib.h>
#include <utility>

#include "gsp_cuda_sssp.cuh"

namespace gsp_sssp_cu {

#define GSP_CU_FULL 0xffffffffu

/* One warp per (frontier vertex, chunk of 32 sources). */
template <class T>
__global__ void ok_relax(const DevGraph g, typename Key<T>::K *D, uint8_t *mcur, uint8_t *mnext, const int32_t *Fv,
                         int32_t nf, int C, int N, uint8_t *vflag, int32_t *Fv2, int32_t *cnt, T lim) {
  typedef Key<T> KT;
  const T *w = (const T *)g.w;
  const int lane = threadIdx.x & 31;
  const int64_t nw = ((int64_t)gridDim.x * blockDim.x) >> 5;
  for (int64_t it = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) >> 5; it < (int64_t)nf * C; it += nw) {
    const int32_t u = Fv[it / C];
    const int64_t lane_off = (int64_t)(it % C) * 32 + lane;
    const int64_t at = (int64_t)u * N + lane_off;
    const bool act = mcur[at] != 0;
    if (!__any_sync(GSP_CU_FULL, act)) continue;
    T du = KT::inf();
    if (act) {
      mcur[at] = 0; /* a later drop of D[at] sets mnext again */
      du = KT::dec(D[at]);
    }
    for (int64_t e = g.off[u]; e < g.off[u + 1]; e++) {
      const int32_t v = g.col[e];
      const T nd = KT::add(du, w[e]);
      bool imp = false;
      if (act && nd <= lim) {
        const int64_t av = (int64_t)v * N + lane_off;
        const typename KT::K key = KT::enc(nd);
        if (key < atomicMin(&D[av], key)) {
          mnext[av] = 1;
          imp = true;
        }
      }
      if (__any_sync(GSP_CU_FULL, imp) && lane == 0 && claim(vflag, v)) qpush(Fv2, cnt, v);
    }
  }
}

/* Tight-arc BFS, level L -> L+1, for every source of the batch. */
template <class T>
__global__ void ok_tree(const DevGraph g, const typename Key<T>::K *D, int32_t *lev, int32_t *par, const int32_t *Fv,
                        int32_t nf, int C, int N, int32_t L, uint8_t *vflag, int32_t *Fv2, int32_t *cnt, T lim) {
  typedef Key<T> KT;
  const T *w = (const T *)g.w;
  const int lane = threadIdx.x & 31;
  const int64_t nw = ((int64_t)gridDim.x * blockDim.x) >> 5;
  for (int64_t it = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) >> 5; it < (int64_t)nf * C; it += nw) {
    const int32_t u = Fv[it / C];
    const int64_t lane_off = (int64_t)(it % C) * 32 + lane;
    const int64_t at = (int64_t)u * N + lane_off;
    const bool act = lev[at] == L;
    if (!__any_sync(GSP_CU_FULL, act)) continue;
    const T du = act ? KT::dec(D[at]) : KT::inf();
    for (int64_t e = g.off[u]; e < g.off[u + 1]; e++) {
      const int32_t v = g.col[e];
      bool got = false;
      if (act) {
        const int64_t av = (int64_t)v * N + lane_off;
        const T dv = KT::dec(D[av]);
        const int32_t lv = lev[av];
        if ((lv == -1 || lv == L + 1) && dv <= lim && KT::add(du, w[e]) == dv) {
          if (lv == -1 && atomicCAS(&lev[av], -1, L + 1) == -1) got = true;
          atomicMin(&par[av], u);
        }
      }
      if (__any_sync(GSP_CU_FULL, got) && lane == 0 && claim(vflag, v)) qpush(Fv2, cnt, v);
    }
  }
}

/* Lane s < nb starts at vertex S[s]: distance 0, modified, level 0. */
template <class T>
__global__ void ok_seed(typename Key<T>::K *D, uint8_t *mcur, int32_t *lev, int32_t *par, const int32_t *S, int nb,
                        int N) {
  for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < nb; s += gridDim.x * blockDim.x) {
    const int64_t at = (int64_t)S[s] * N + s;
    if (D) D[at] = Key<T>::enc((T)0), mcur[at] = 1;
    if (lev) lev[at] = 0, par[at] = S[s];
  }
}

__global__ void ok_clear_flags(uint8_t *flag, const int32_t *q, int32_t nq) {
  for (int32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < nq; k += gridDim.x * blockDim.x) flag[q[k]] = 0;
}

template <class T> struct Batch {
  typedef Key<T> KT;
  typedef typename KT::K K;
  const DevGraph &g;
  int32_t n;
  int N, C;
  T lim;
  K *D;
  uint8_t *mcur, *mnext, *vflag;
  int32_t *Fv, *Fv2, *cnt, *S, *lev, *par;
};

/* Distinct vertices of S[0..nb) into Fv on the device; returns the count. */
static gsp_info seed_frontier(int32_t *nf, int32_t *Fv, const int32_t *S, int nb) {
  gsp_info info = GSP_SUCCESS;
  int32_t *h = NULL;
#define GSP_FREE_ALL gsp__free(h)
  h = (int32_t *)gsp__malloc_array((size_t)nb + 1, sizeof *h);
  GSP_CHECK(h != NULL, GSP_OUT_OF_MEMORY, "cannot stage %d sources", nb);
  int32_t k = 0;
  for (int s = 0; s < nb; s++) {
    bool dup = false;
    for (int r = 0; r < s && !dup; r++) dup = S[r] == S[s]; /* nb <= a few thousand */
    if (!dup) h[k++] = S[s];
  }
  GSP_CUDA_TRY(cudaMemcpy(Fv, h, (size_t)k * sizeof *h, cudaMemcpyHostToDevice));
  *nf = k;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* Rounds of relaxation (or BFS levels when tree) until the frontier dies. */
template <class T> static gsp_info batch_rounds(Batch<T> &b, int nb, const int32_t *Sh, bool tree) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  int32_t nf = 0;
  GSP_TRY(seed_frontier(&nf, b.Fv, Sh, nb));
  for (int32_t L = 0; nf > 0; L++) {
    GSP_CUDA_TRY(cudaMemset(b.cnt, 0, sizeof *b.cnt));
    const int64_t warps = (int64_t)nf * b.C;
    if (tree)
      ok_tree<T><<<blocks_for(warps * 32), 256>>>(b.g, b.D, b.lev, b.par, b.Fv, nf, b.C, b.N, L, b.vflag, b.Fv2,
                                                  b.cnt, b.lim);
    else
      ok_relax<T><<<blocks_for(warps * 32), 256>>>(b.g, b.D, b.mcur, b.mnext, b.Fv, nf, b.C, b.N, b.vflag, b.Fv2,
                                                   b.cnt, b.lim);
    GSP_CUDA_LAUNCHED();
    int32_t nn = 0;
    GSP_TRY(read_count(&nn, b.cnt));
    if (nn > 0) {
      ok_clear_flags<<<blocks_for(nn), 256>>>(b.vflag, b.Fv2, nn);
      GSP_CUDA_LAUNCHED();
    }
    std::swap(b.Fv, b.Fv2);
    if (!tree) std::swap(b.mcur, b.mnext);
    nf = nn;
  }
#undef GSP_FREE_ALL
  return info;
}

template <class T>
static gsp_info msssp_typed(T *dist, int64_t *parent, const struct gsp_matrix_s *A, const int64_t *src, int64_t nsrc,
                            T lim, int N) {
  gsp_info info = GSP_SUCCESS;
  typedef Key<T> KT;
  typedef typename KT::K K;
  DevGraph g;
  memset(&g, 0, sizeof g);
  const int32_t n = (int32_t)A->nrows;
  Batch<T> b = {g, n, N, N / 32, lim, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  K *hD = NULL;
  int32_t *hP = NULL, *Sh = NULL;
#define GSP_FREE_ALL                                                           \
  (graph_free(&g), cudaFree(b.D), cudaFree(b.mcur), cudaFree(b.mnext), cudaFree(b.vflag), cudaFree(b.Fv), \
   cudaFree(b.Fv2), cudaFree(b.cnt), cudaFree(b.S), cudaFree(b.lev), cudaFree(b.par), (void)cudaGetLastError(), \
   gsp__free(hD), gsp__free(hP), gsp__free(Sh))
  const size_t cells = (size_t)n * (size_t)N;
  GSP_TRY(graph_upload(&g, A, false));
  GSP_CU_MALLOC(b.D, cells, sizeof(K));
  GSP_CU_MALLOC(b.mcur, cells, 1);
  GSP_CU_MALLOC(b.mnext, cells, 1);
  GSP_CU_MALLOC(b.vflag, n, 1);
  GSP_CU_MALLOC(b.Fv, n, sizeof(int32_t));
  GSP_CU_MALLOC(b.Fv2, n, sizeof(int32_t));
  GSP_CU_MALLOC(b.cnt, 1, sizeof(int32_t));
  GSP_CU_MALLOC(b.S, N, sizeof(int32_t));
  if (parent) {
    GSP_CU_MALLOC(b.lev, cells, sizeof(int32_t));
    GSP_CU_MALLOC(b.par, cells, sizeof(int32_t));
  }
  hD = (K *)gsp__malloc_array(cells, sizeof *hD);
  Sh = (int32_t *)gsp__malloc_array((size_t)N, sizeof *Sh);
  if (parent) hP = (int32_t *)gsp__malloc_array(cells, sizeof *hP);
  GSP_CHECK(hD && Sh && (!parent || hP), GSP_OUT_OF_MEMORY, "cannot stage a batch of %d x %d distances", N, n);
  GSP_CUDA_TRY(cudaMemset(b.vflag, 0, (size_t)n + 16));

  for (int64_t k0 = 0; k0 < nsrc; k0 += N) {
    const int nb = (int)(nsrc - k0 < N ? nsrc - k0 : N);
    for (int s = 0; s < nb; s++) Sh[s] = (int32_t)src[k0 + s];
    GSP_CUDA_TRY(cudaMemcpy(b.S, Sh, (size_t)nb * sizeof *Sh, cudaMemcpyHostToDevice));
    /* distances: lanes >= nb have no source and never change */
    GSP_TRY(fill<K>(b.D, (int64_t)cells, KT::enc(KT::inf())));
    GSP_CUDA_TRY(cudaMemset(b.mcur, 0, cells + 16));
    GSP_CUDA_TRY(cudaMemset(b.mnext, 0, cells + 16));
    ok_seed<T><<<blocks_for(nb), 256>>>(b.D, b.mcur, NULL, NULL, b.S, nb, N);
    GSP_CUDA_LAUNCHED();
    GSP_TRY(batch_rounds<T>(b, nb, Sh, false));
    GSP_CUDA_TRY(cudaMemcpy(hD, b.D, cells * sizeof *hD, cudaMemcpyDeviceToHost));
    /* parents: the recording pass */
    if (parent) {
      GSP_TRY(fill<int32_t>(b.lev, (int64_t)cells, -1));
      GSP_TRY(fill<int32_t>(b.par, (int64_t)cells, INT32_MAX));
      ok_seed<T><<<blocks_for(nb), 256>>>(NULL, NULL, b.lev, b.par, b.S, nb, N);
      GSP_CUDA_LAUNCHED();
      GSP_TRY(batch_rounds<T>(b, nb, Sh, true));
      GSP_CUDA_TRY(cudaMemcpy(hP, b.par, cells * sizeof *hP, cudaMemcpyDeviceToHost));
    }
    /* source-minor on the device, one row per source in the result */
    int64_t missing = -1;
    for (int s = 0; s < nb; s++) {
      T *row = dist + (size_t)(k0 + s) * (size_t)n;
      int64_t *prow = parent ? parent + (size_t)(k0 + s) * (size_t)n : NULL;
      for (int32_t v = 0; v < n; v++) {
        const size_t at = (size_t)v * N + s;
        row[v] = KT::dec(hD[at]);
        if (prow) {
          const bool reached = row[v] <= lim;
          prow[v] = reached ? (int64_t)hP[at] : -1;
          if (reached && hP[at] == INT32_MAX) missing = v;
        }
      }
    }
    GSP_CHECK(missing < 0, GSP_PANIC, "many-source tree: vertex %lld has a distance but no tight path",
              (long long)missing);
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

} // namespace gsp_sssp_cu

using namespace gsp_sssp_cu;

gsp_info gsp_cuda_msssp(void *dist, int64_t *parent, const struct gsp_matrix_s *A, const int64_t *src, int64_t nsrc,
                        const void *lim, int64_t batch, bool *taken) {
  *taken = false;
  const int64_t n = A->nrows;
  if (n <= 0 || n >= INT32_MAX || nsrc <= 0 || A->fmt != GSP_FMT_CSR || A->type == GSP_BOOL) return GSP_SUCCESS;
  /* batch: a multiple of the warp size, no wider than the sources need,
   * and small enough that the batch state fits in 80% of free memory */
  const size_t ks = A->type == GSP_INT32 || A->type == GSP_FP32 ? 4 : 8;
  const size_t per_cell = ks + 2 + (parent ? 8 : 0);
  int64_t N = batch > 0 ? (batch + 31) / 32 * 32 : 512;
  const int64_t need_n = (nsrc + 31) / 32 * 32;
  if (N > need_n) N = need_n;
  if (N > 4096) N = 4096;
  size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    (void)cudaGetLastError();
    return GSP_SUCCESS;
  }
  const size_t graph = graph_bytes(A, false) + (size_t)n * 16;
  const size_t avail = free_b / 10 * 8;
  while (N > 32 && graph + (size_t)n * (size_t)N * per_cell > avail) N -= 32;
  if (graph + (size_t)n * (size_t)N * per_cell > avail) return GSP_SUCCESS; /* the CPU takes it */
  *taken = true;
  switch (A->type) {
  case GSP_INT32: return msssp_typed<int32_t>((int32_t *)dist, parent, A, src, nsrc, *(const int32_t *)lim, (int)N);
  case GSP_INT64: return msssp_typed<int64_t>((int64_t *)dist, parent, A, src, nsrc, *(const int64_t *)lim, (int)N);
  case GSP_FP32: return msssp_typed<float>((float *)dist, parent, A, src, nsrc, *(const float *)lim, (int)N);
  case GSP_FP64: return msssp_typed<double>((double *)dist, parent, A, src, nsrc, *(const double *)lim, (int)N);
  default: return GSP_ERROR(GSP_PANIC, "gsp_cuda_msssp: type %d", (int)A->type);
  }
}
