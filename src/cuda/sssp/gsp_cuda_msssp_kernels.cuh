/*
 * Device kernels of many-source shortest paths (gsp_cuda_msssp.cu), after
 * Okuyama et al.: a batch of N = 32*C sources is relaxed together, distances
 * stored vertex-major, source-minor (D[v*N + s]), so one warp serves one
 * vertex and a chunk of 32 sources and walks the vertex's arcs once for all
 * 32 with coalesced distance accesses.
 *
 * Rounds are pull-based (each (v, chunk) warp gathers over v's in-arcs;
 * the owner is the only writer of its cells, so there are no atomics on
 * distances and no lost updates). A 32-bit mask per vertex says which
 * chunks changed in the previous round; a warp reads a tail's distances
 * only when that tail's chunk changed, so the work follows the per-source
 * frontiers at warp granularity. Rounds run on the device with no host
 * readback: three rotating change masks and "alive" flags let round r clear
 * what round r+1 writes, and a round after a quiet one returns at once, so
 * the host queues rounds ahead and checks a flag only now and then.
 *
 * Parents: the rounds compute distances alone. Then Okuyama's recording
 * pass (ms_parents), one pull over the in-arcs of every cell, gives each
 * the smallest tight tail with a smaller distance (the strict rule of
 * gsp__sssp_cpu_tree). Cells without one ("ties": reached only over tight
 * arcs of zero length) are marked; only when a batch has any, a BFS over
 * tight arcs from the cells that have their parents gives them levels and
 * the smallest tight tail one level up (ms_tie_round, one launch per
 * level).
 */
#ifndef GSP_CUDA_MSSSP_KERNELS_CUH
#define GSP_CUDA_MSSSP_KERNELS_CUH

#include "gsp_cuda_sssp.cuh"

namespace gsp_sssp_cu {

#define GSP_MS_FULL 0xffffffffu

/* P of a reached cell that the recording pass left to the tie BFS. */
#define GSP_MS_TIE (-2)

/* Flags of a batch (MsBatch::alive): three rotating round flags, then the
 * tie pass's. */
enum {
  MS_TIES = 3,   /* count of cells marked GSP_MS_TIE */
  MS_GREW = 4,   /* a tie level was given this launch */
  MS_NOPATH = 5, /* a reached cell has no tight path */
  MS_FLAGS = 6
};

/* Arrays of one batch on the device. */
template <class K> struct MsBatch {
  int32_t n;
  int C, N;      /* chunks of 32 sources, N = 32*C */
  K *D;          /* n*N distance keys */
  int32_t *P;    /* n*N parents, vertex-major */
  uint32_t *chg; /* 3 x n chunk masks */
  int *alive;    /* MS_FLAGS flags */
  const int32_t *S;
};

/* Lane s < nb starts at S[s]; everything else is unreached. Round 0 reads
 * mask and flag slot 2. */
template <class K> __global__ void ms_seed(MsBatch<K> b, int nb, K zero) {
  for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < nb; s += gridDim.x * blockDim.x) {
    b.D[(int64_t)b.S[s] * b.N + s] = zero;
    atomicOr(&b.chg[2 * (int64_t)b.n + b.S[s]], 1u << (s >> 5));
    if (s == 0) b.alive[2] = 1;
  }
}

/* Round r over every (vertex, chunk) warp. The arcs are read 32 at a time
 * (one per lane, coalesced); the flagged ones are broadcast four at a time
 * so that four distance loads are in flight. */
template <class T>
__global__ void __launch_bounds__(256) ms_round(MsBatch<typename Key<T>::K> b, DevGraph g, int r, T lim) {
  typedef Key<T> KT;
  /* every round clears the flag the next one raises, quiet or not, so a
   * round after a quiet one always finds its input flag down */
  if (blockIdx.x == 0 && threadIdx.x == 0) b.alive[(r + 1) % 3] = 0;
  if (*(volatile const int *)(b.alive + (r + 2) % 3) == 0) return; /* converged */
  int *acur = b.alive + r % 3;
  const int64_t n = b.n;
  const uint32_t *cprev = b.chg + (int64_t)((r + 2) % 3) * n;
  uint32_t *cnext = b.chg + (int64_t)(r % 3) * n, *cclear = b.chg + (int64_t)((r + 1) % 3) * n;
  const T *rw = (const T *)g.rw;
  const int lane = threadIdx.x & 31;
  const int64_t nw = ((int64_t)gridDim.x * blockDim.x) >> 5;
  const int C = b.C, N = b.N;
  bool any = false; /* this warp changed a cell: the block raises the flag once */
  for (int64_t it = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5; it < n * C; it += nw) {
    const int32_t v = (int32_t)(it / C);
    const int c = (int)(it - (int64_t)v * C);
    const uint32_t bit = 1u << c;
    const int64_t col = (int64_t)c * 32 + lane;
    if (c == 0 && lane == 0) cclear[v] = 0;
    const int64_t e0 = g.roff[v], e1 = g.roff[v + 1];
    bool loaded = false;
    T old = KT::inf(), best = KT::inf();
    for (int64_t base = e0; base < e1; base += 32) {
      const int64_t e = base + lane;
      int32_t u = 0;
      T w = (T)0;
      bool f = false;
      if (e < e1) {
        u = g.rcol[e];
        f = (cprev[u] & bit) != 0;
        if (f) w = rw[e];
      }
      unsigned m = __ballot_sync(GSP_MS_FULL, f);
      if (!m) continue;
      if (!loaded) {
        loaded = true;
        old = best = KT::dec(b.D[v * (int64_t)N + col]);
      }
      while (m) {
        /* four tails at a time: their loads overlap */
        int32_t uj[4];
        T wj[4], du[4];
#pragma unroll
        for (int q = 0; q < 4; q++) {
          const int j = m ? __ffs(m) - 1 : -1;
          if (m) m &= m - 1;
          uj[q] = __shfl_sync(GSP_MS_FULL, u, j < 0 ? 0 : j);
          wj[q] = __shfl_sync(GSP_MS_FULL, w, j < 0 ? 0 : j);
          if (j < 0) uj[q] = -1;
        }
#pragma unroll
        for (int q = 0; q < 4; q++) du[q] = uj[q] >= 0 ? KT::dec(b.D[uj[q] * (int64_t)N + col]) : KT::inf();
#pragma unroll
        for (int q = 0; q < 4; q++) {
          const T cand = KT::add(du[q], wj[q]);
          if (uj[q] >= 0 && cand <= lim && cand < best) best = cand; /* beyond lim: unreached tail or cutoff */
        }
      }
    }
    const bool ch = loaded && best < old;
    if (ch) b.D[v * (int64_t)N + col] = KT::enc(best);
    if (__any_sync(GSP_MS_FULL, ch)) {
      any = true;
      if (lane == 0) atomicOr(&cnext[v], bit);
    }
  }
  /* one store a block: a store by every changed warp, all to one word,
   * queued at its L2 slice and took half the round (rounds at |V| = 65536
   * on an H100: 2.14 s with it, 1.11 s without) */
  if (__syncthreads_or(any) && threadIdx.x == 0) *acur = 1;
}

/* The pull of the parent passes, for one (vertex, chunk) warp: per lane
 * that wants one, the smallest tail u of a tight in-arc (d(u) + w == d
 * exactly; d is reached, so u is) with d(u) < d (strict), or else with tie
 * level Lv(u) == k - 1; INT32_MAX when there is none. The arcs are read 32
 * at a time and broadcast four at a time so that four loads are in
 * flight. */
template <class T, bool STRICT>
__device__ __forceinline__ int32_t ms_pull(const MsBatch<typename Key<T>::K> &b, const DevGraph &g, int32_t v,
                                           int64_t col, bool want, T d, const int32_t *Lv, int32_t k) {
  typedef Key<T> KT;
  const T *rw = (const T *)g.rw;
  const int lane = threadIdx.x & 31;
  const int N = b.N;
  int32_t p = INT32_MAX;
  const int64_t e0 = g.roff[v], e1 = g.roff[v + 1];
  for (int64_t base = e0; base < e1; base += 32) {
    const int64_t e = base + lane;
    int32_t u = 0;
    T w = (T)0;
    if (e < e1) u = g.rcol[e], w = rw[e];
    const int cnt = e1 - base < 32 ? (int)(e1 - base) : 32;
    for (int j0 = 0; j0 < cnt; j0 += 4) {
      int32_t uj[4];
      T wj[4], du[4];
#pragma unroll
      for (int q = 0; q < 4; q++) {
        const int j = j0 + q < cnt ? j0 + q : 0;
        uj[q] = __shfl_sync(GSP_MS_FULL, u, j);
        wj[q] = __shfl_sync(GSP_MS_FULL, w, j);
        if (j0 + q >= cnt || !want) uj[q] = -1;
      }
#pragma unroll
      for (int q = 0; q < 4; q++) du[q] = uj[q] >= 0 ? KT::dec(b.D[uj[q] * (int64_t)N + col]) : KT::inf();
#pragma unroll
      for (int q = 0; q < 4; q++) {
        if (uj[q] < 0 || uj[q] >= p || KT::add(du[q], wj[q]) != d) continue;
        if (STRICT ? du[q] < d : Lv[uj[q] * (int64_t)N + col] == k - 1) p = uj[q];
      }
    }
  }
  return p;
}

/* One warp per cell (v, c) of the n x C grid of vertices and 32-lane
 * chunks: body(lane, v, c, col, at), col the lane's source column and at
 * its index in the vertex-major n x N arrays. */
template <class K, class Body> __device__ __forceinline__ void ms_for_cells(const MsBatch<K> &b, Body body) {
  const int lane = threadIdx.x & 31;
  const int64_t nw = ((int64_t)gridDim.x * blockDim.x) >> 5, n = b.n;
  const int C = b.C, N = b.N;
  for (int64_t it = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5; it < n * C; it += nw) {
    const int32_t v = (int32_t)(it / C);
    const int c = (int)(it - (int64_t)v * C);
    const int64_t col = (int64_t)c * 32 + lane;
    body(lane, v, c, col, v * (int64_t)N + col);
  }
}

/* Okuyama's recording pass with the strict rule: P = the smallest tight
 * tail with a smaller distance; the lane's source its own parent; -1
 * where unreached; GSP_MS_TIE where a reached cell has no such tail
 * (counted in alive[MS_TIES]). */
template <class T>
__global__ void __launch_bounds__(256) ms_parents(MsBatch<typename Key<T>::K> b, DevGraph g, int nb, T lim) {
  ms_for_cells(b, [&](int lane, int32_t v, int c, int64_t col, int64_t at) {
    if (c * 32 >= nb) { /* lanes without a source: nothing reached */
      b.P[at] = -1;
      return;
    }
    const T d = Key<T>::dec(b.D[at]);
    const bool reached = col < nb && d <= lim, source = reached && b.S[col] == v;
    const bool want = reached && !source;
    int32_t p = INT32_MAX;
    if (__any_sync(GSP_MS_FULL, want)) p = ms_pull<T, true>(b, g, v, col, want, d, NULL, 0);
    if (source) p = v;
    else if (!reached) p = -1;
    else if (p == INT32_MAX) p = GSP_MS_TIE;
    b.P[at] = p;
    const int ties = __popc(__ballot_sync(GSP_MS_FULL, p == GSP_MS_TIE));
    if (ties && lane == 0) atomicAdd(&b.alive[MS_TIES], ties);
  });
}

/* Tie levels in Lv (n*N, vertex-major): 0 where the cell has its parent,
 * -1 elsewhere. */
__global__ void ms_tie_seed(const int32_t *P, int32_t *Lv, int64_t cells) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < cells; i += (int64_t)gridDim.x * blockDim.x)
    Lv[i] = P[i] >= 0 ? 0 : -1;
}

/* BFS level k of the ties: a GSP_MS_TIE cell with a tight tail of level
 * k - 1 takes level k and the smallest such tail as its parent (the
 * levels below k are all known, so that is final); raises alive[MS_GREW]
 * when any did, alive[MS_NOPATH] when a tie is left. */
template <class T>
__global__ void __launch_bounds__(256) ms_tie_round(MsBatch<typename Key<T>::K> b, DevGraph g, int32_t *Lv, int32_t k) {
  ms_for_cells(b, [&](int lane, int32_t v, int c, int64_t col, int64_t at) {
    (void)c;
    const bool want = b.P[at] == GSP_MS_TIE;
    if (!__any_sync(GSP_MS_FULL, want)) return;
    const int32_t p = ms_pull<T, false>(b, g, v, col, want, Key<T>::dec(b.D[at]), Lv, k);
    const bool got = want && p != INT32_MAX;
    if (got) Lv[at] = k, b.P[at] = p;
    if (__any_sync(GSP_MS_FULL, got) && lane == 0) b.alive[MS_GREW] = 1;
    if (__any_sync(GSP_MS_FULL, want && !got) && lane == 0) b.alive[MS_NOPATH] = 1;
  });
}

/* Source-major output of lanes [0, nb): dist[s*n + v] = value of D[v*N + s]
 * and par[s*n + v] = P[v*N + s], through a 32 x 32 shared-memory tile so
 * both sides are coalesced. */
template <class T>
__global__ void ms_transpose(MsBatch<typename Key<T>::K> b, const int32_t *P, T *dist, int32_t *par, int32_t n, int N,
                             int nb) {
  __shared__ T td[32][33];
  __shared__ int32_t tp[32][33];
  const int64_t v0 = (int64_t)blockIdx.x * 32, s0 = (int64_t)blockIdx.y * 32;
  const int tx = threadIdx.x, ty = threadIdx.y; /* 32 x 8 */
  for (int k = ty; k < 32; k += 8) {
    const int64_t v = v0 + k, s = s0 + tx;
    if (v < n && s < nb) {
      td[k][tx] = Key<T>::dec(b.D[v * N + s]);
      if (P) tp[k][tx] = P[v * N + s];
    }
  }
  __syncthreads();
  for (int k = ty; k < 32; k += 8) {
    const int64_t s = s0 + k, v = v0 + tx;
    if (v < n && s < nb) {
      dist[s * n + v] = td[tx][k];
      if (P) par[s * n + v] = tp[tx][k];
    }
  }
}

} // namespace gsp_sssp_cu

#endif /* GSP_CUDA_MSSSP_KERNELS_CUH */
