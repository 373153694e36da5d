/*
 * Bellman-Ford on the GPU (gateway gsp_cuda_bf): the rounds of
 * gsp__bf_cpu (src/ops/bf/bf_cpu_body.h) with device queues.
 *
 * Each round: relax the out-arcs of the frontier (the vertices changed in
 * the previous round) into U with atomicMin on distance keys, appending
 * each improved vertex once (byte flags); a second pass over the same arcs
 * gives every improved vertex the smallest tail whose offer equals its new
 * distance (atomicMin on the tail); commit U, the parents, and the next
 * frontier. The host reads one counter per round. At the checkpoints of
 * gsp__bf_check_round the parent array comes back and the host walks it
 * for a cycle; when there is one, the call returns that parent graph and
 * the operation picks the cycle out of it with the CPU's own routine
 * (gsp__bf_find_cycle), so both backends report the same cycle. Parents of
 * the final tree come from the SSSP tree pass.
 */
#include <stdlib.h>

#include "gsp_cuda_sssp.cuh"

extern "C" {
#include "bf_shared.h"
}

namespace gsp_sssp_cu {

template <class T>
__global__ void bf_seed(typename Key<T>::K *d, typename Key<T>::K *U, int32_t *pred, const int32_t *S, int32_t ns) {
  for (int32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < ns; k += gridDim.x * blockDim.x) {
    d[S[k]] = U[S[k]] = Key<T>::enc((T)0);
    pred[S[k]] = GSP__BF_ROOT;
  }
}

template <class T, int G>
__global__ void bf_parents(const DevGraph g, const typename Key<T>::K *d, const typename Key<T>::K *U, const int32_t *F,
                           int32_t nf, const uint8_t *touched, int32_t *cand) {
  typedef Key<T> KT;
  const T *w = (const T *)g.w;
  frontier_arcs<T, G>(g, d, F, nf, [&](int32_t u, T du, int64_t e) {
    const int32_t v = g.col[e];
    if (!touched[v] || KT::add(du, w[e]) != KT::dec(U[v])) return;
    atomicMin(&cand[v], u);
  });
}

template <class K>
__global__ void bf_commit(K *d, const K *U, int32_t *pred, const int32_t *cand, const int32_t *Tq, int32_t nt,
                          uint8_t *touched) {
  for (int32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < nt; k += gridDim.x * blockDim.x) {
    const int32_t v = Tq[k];
    touched[v] = 0;
    d[v] = U[v];
    pred[v] = cand[v];
  }
}

/* Whether the parent graph pred[n] (a vertex, or a marker < 0) has a
 * cycle: each walk from an unvisited vertex stamps the vertices it passes
 * and stops at a marker, at a vertex stamped by an earlier walk, or at one
 * of its own (a cycle). O(n); stamp: n zeroed values. */
static bool parent_cycle(const int32_t *pred, int32_t n, uint32_t *stamp) {
  for (int32_t s = 0; s < n; s++) {
    if (stamp[s]) continue;
    const uint32_t walk = (uint32_t)s + 1;
    int32_t v = s;
    while (v >= 0 && !stamp[v]) {
      stamp[v] = walk;
      v = pred[v];
    }
    if (v >= 0 && stamp[v] == walk) return true;
  }
  return false;
}

/* The rounds; GSP_NEGATIVE_CYCLE (no message) with the parent graph that
 * shows the cycle in hpred[n] on the host. */
template <class T>
static gsp_info bf_rounds(typename Key<T>::K *d, const DevGraph &g, const int32_t *S, int32_t ns, T lim,
                          int64_t *hpred) {
  gsp_info info = GSP_SUCCESS;
  typedef Key<T> KT;
  typedef typename KT::K K;
  const int32_t n = g.n;
  K *U = NULL;
  int32_t *F = NULL, *Tq = NULL, *cnt = NULL, *pred = NULL, *cand = NULL, *hpred32 = NULL;
  uint32_t *stamp = NULL;
  uint8_t *touched = NULL;
#define GSP_FREE_ALL                                                                                         \
  (cudaFree(U), cudaFree(F), cudaFree(Tq), cudaFree(cnt), cudaFree(pred), cudaFree(cand), cudaFree(touched), \
   (void)cudaGetLastError(), gsp__free(hpred32), gsp__free(stamp))
  GSP_CU_MALLOC(U, n, sizeof *U);
  GSP_CU_MALLOC(F, n, sizeof *F);
  GSP_CU_MALLOC(Tq, n, sizeof *Tq);
  GSP_CU_MALLOC(cnt, 1, sizeof *cnt);
  GSP_CU_MALLOC(pred, n, sizeof *pred);
  GSP_CU_MALLOC(cand, n, sizeof *cand);
  GSP_CU_MALLOC(touched, n, 1);
  GSP_CUDA_TRY(cudaMemset(touched, 0, (size_t)n + 16));
  GSP_TRY(fill<K>(d, n, KT::enc(KT::inf())));
  GSP_TRY(fill<K>(U, n, KT::enc(KT::inf())));
  GSP_TRY(fill<int32_t>(pred, n, GSP__BF_UNREACHED));
  GSP_CUDA_TRY(cudaMemcpy(F, S, (size_t)ns * sizeof *F, cudaMemcpyHostToDevice));
  bf_seed<T><<<blocks_for(ns), 256>>>(d, U, pred, F, ns);
  GSP_CUDA_LAUNCHED();
  const bool wide = g.m >= 12 * (int64_t)(n > 0 ? n : 1);
  int32_t nf = ns;
  for (int64_t r = 1; nf > 0; r++) {
    GSP_CUDA_TRY(cudaMemset(cnt, 0, sizeof *cnt));
    if (wide) {
      push_relax<T, 32><<<blocks_for((int64_t)nf * 32), 256>>>(g, d, U, F, nf, touched, cand, Tq, cnt, lim);
      GSP_CUDA_LAUNCHED();
      bf_parents<T, 32><<<blocks_for((int64_t)nf * 32), 256>>>(g, d, U, F, nf, touched, cand);
    } else {
      push_relax<T, 4><<<blocks_for((int64_t)nf * 4), 256>>>(g, d, U, F, nf, touched, cand, Tq, cnt, lim);
      GSP_CUDA_LAUNCHED();
      bf_parents<T, 4><<<blocks_for((int64_t)nf * 4), 256>>>(g, d, U, F, nf, touched, cand);
    }
    GSP_CUDA_LAUNCHED();
    int32_t nt = 0;
    GSP_TRY(read_count(&nt, cnt)); /* the one read-back of the round */
    if (nt > 0) {
      bf_commit<K><<<blocks_for(nt), 256>>>(d, U, pred, cand, Tq, nt, touched);
      GSP_CUDA_LAUNCHED();
    }
    int32_t *tmp = F;
    F = Tq, Tq = tmp, nf = nt;
    if (nf > 0 && gsp__bf_check_round(r, n)) {
      if (!hpred32) {
        hpred32 = (int32_t *)gsp__malloc_array((size_t)n + 1, sizeof *hpred32);
        stamp = (uint32_t *)gsp__malloc_array((size_t)n + 1, sizeof *stamp);
        GSP_CHECK(hpred32 && stamp, GSP_OUT_OF_MEMORY, "cannot stage the parents of %d vertices", n);
      }
      GSP_CUDA_TRY(cudaMemcpy(hpred32, pred, (size_t)n * sizeof *hpred32, cudaMemcpyDeviceToHost));
      memset(stamp, 0, (size_t)n * sizeof *stamp);
      if (parent_cycle(hpred32, n, stamp)) {
        for (int32_t v = 0; v < n; v++) hpred[v] = hpred32[v];
        GSP_FREE_ALL;
        return GSP_NEGATIVE_CYCLE;
      }
      GSP_CHECK(r < n, GSP_PANIC, "Bellman-Ford (GPU): round %lld changed distances but the parent graph has no cycle",
                (long long)r);
    }
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

template <class T>
static gsp_info bf_typed(T *dist, int64_t *parent, int64_t *pred, const gsp_cuda_arrays *A, const int32_t *S,
                         int32_t ns, T lim) {
  gsp_info info = GSP_SUCCESS;
  typedef typename Key<T>::K K;
  DevGraph g;
  memset(&g, 0, sizeof g);
  K *d = NULL;
#define GSP_FREE_ALL (graph_free(&g), cudaFree(d), (void)cudaGetLastError())
  const int32_t n = (int32_t)A->nrows;
  GSP_TRY(graph_upload(&g, A, false));
  GSP_CU_MALLOC(d, n, sizeof *d);
  info = bf_rounds<T>(d, g, S, ns, lim, pred);
  if (info != GSP_SUCCESS) {
    GSP_FREE_ALL;
    return info;
  }
  CallRecord rec; /* the tree pass's counts: not reported for Bellman-Ford */
  memset(&rec, 0, sizeof rec);
  GSP_TRY(finish<T>(dist, parent, d, g, S, ns, lim, false, rec));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

} // namespace gsp_sssp_cu

using namespace gsp_sssp_cu;

namespace {
struct BfRun {
  void *dist;
  int64_t *parent, *pred;
  const gsp_cuda_arrays *A;
  const int32_t *S;
  int32_t ns;
  const void *lim;
  template <class T> gsp_info run() const {
    return bf_typed<T>((T *)dist, parent, pred, A, S, ns, *(const T *)lim);
  }
};
} // namespace

gsp_info gsp_cuda_bf(void *dist, int64_t *parent, int64_t *pred, const gsp_cuda_arrays *A, const int64_t *src,
                     int64_t nsrc, const void *lim, bool *taken) {
  gsp_info info = GSP_SUCCESS;
  int32_t *S = NULL;
#define GSP_FREE_ALL gsp__free(S)
  *taken = false;
  const gsp__cu_guard guard(A->dev);
  if (!graph_taken(A)) return GSP_SUCCESS;
  const int64_t n = A->nrows;
  const size_t ks = A->type == GSP_INT32 || A->type == GSP_FP32 ? 4 : 8;
  /* graph, d and U, F, Tq, pred, cand, flags, the tree's four arrays */
  if (!device_fits(graph_bytes(A, false) + (size_t)n * (2 * ks + 4 * 4 + 1 + 3 * 4) + 4096))
    return GSP_SUCCESS; /* the CPU takes it */
  *taken = true;
  int32_t ns = 0;
  GSP_TRY(distinct_sources(&S, &ns, src, nsrc, n));
  info = by_type(A->type, BfRun{dist, parent, pred, A, S, ns, lim});
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
