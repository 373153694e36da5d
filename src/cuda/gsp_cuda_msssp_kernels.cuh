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
 * Parents: the relaxation carries, per cell, the hop count of the best walk
 * (ties on distance broken by fewer hops). At the fixpoint that count is
 * the level of the tight-arc BFS of the documented parent rule; one final
 * pull pass picks the smallest tight tail one level up and at the same
 * time checks the level equations (see gsp_cuda_msssp.cu).
 *
 * With 32-bit keys (INT32, FP32) a cell is ONE 64-bit word,
 * key << 32 | hops (PK, "packed"): a tail's distance and count come in
 * one load, the (distance, hops) order is the unsigned order of the word,
 * and a cell is written with one store, so a reader never pairs a new
 * distance with an old count. 64-bit keys keep the count in a separate
 * array H, written before the distance behind a fence.
 */
#ifndef GSP_CUDA_MSSSP_KERNELS_CUH
#define GSP_CUDA_MSSSP_KERNELS_CUH

#include "gsp_cuda_sssp.cuh"

namespace gsp_sssp_cu {

#define GSP_MS_FULL 0xffffffffu
#define GSP_MS_NOHOP INT32_MAX

/* Packed cells (32-bit keys, non-negative so that their unsigned order is
 * theirs): key << 32 | hops. */
template <class T> struct Pk {
  typedef typename Key<T>::K K;
  static __host__ __device__ __forceinline__ unsigned long long word(K k, uint32_t h) {
    return ((unsigned long long)(uint32_t)k << 32) | h;
  }
  static __device__ __forceinline__ T dist(unsigned long long x) { return Key<T>::dec((K)(uint32_t)(x >> 32)); }
  static __device__ __forceinline__ uint32_t hops(unsigned long long x) { return (uint32_t)x; }
};


/* What a round relaxes. */
enum { MS_DIST = 0, /* distances only */
       MS_HOPS = 1, /* distances and hop counts (lexicographic) */
       MS_LEVEL = 2 /* hop counts over tight arcs, distances fixed (repair) */ };

/* Arrays of one batch on the device. */
template <class K> struct MsBatch {
  int32_t n;
  int C, N;      /* chunks of 32 sources, N = 32*C */
  K *D;          /* n*N distance keys (split cells) */
  int32_t *H;    /* n*N hop counts (split cells, parents only) */
  unsigned long long *DH; /* n*N packed cells key << 32 | hops (PK) */
  int32_t *P;    /* n*N parents, vertex-major */
  uint32_t *chg; /* 3 x n chunk masks */
  int *alive;    /* 3 flags, then the "bad level" flag */
  const int32_t *S;
};

/* Distance of cell `at`, either layout. */
template <class T, bool PK>
__device__ __forceinline__ T ms_dist(const MsBatch<typename Key<T>::K> &b, int64_t at) {
  if constexpr (PK) return Pk<T>::dist(b.DH[at]);
  else return Key<T>::dec(b.D[at]);
}

/* Lane s < nb starts at S[s]; everything else is unreached. Round 0 reads
 * mask and flag slot 2. */
template <class K>
__global__ void ms_seed(MsBatch<K> b, int nb, K zero) {
  for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < nb; s += gridDim.x * blockDim.x) {
    const int64_t at = (int64_t)b.S[s] * b.N + s;
    if (b.DH) b.DH[at] = ((unsigned long long)(uint32_t)zero << 32); /* hops 0 */
    else b.D[at] = zero;
    if (b.H) b.H[at] = 0;
    atomicOr(&b.chg[2 * (int64_t)b.n + b.S[s]], 1u << (s >> 5));
    if (s == 0) b.alive[2] = 1;
  }
}

/* Packed cells: every count to none, distances kept (the level repair). */
__global__ void ms_clear_hops(unsigned long long *DH, int64_t cells) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < cells; i += (int64_t)gridDim.x * blockDim.x)
    DH[i] = (DH[i] & 0xffffffff00000000ull) | (uint32_t)GSP_MS_NOHOP;
}

/* Round r over every (vertex, chunk) warp. The arcs are read 32 at a time
 * (one per lane, coalesced); the flagged ones are broadcast four at a time
 * so that four distance loads are in flight. */
template <class T, int MODE, bool PK>
__global__ void __launch_bounds__(256) ms_round(MsBatch<typename Key<T>::K> b, DevGraph g, int r, T lim) {
  typedef Key<T> KT;
  typedef typename KT::K K;
  static_assert(!PK || (sizeof(K) == 4 && MODE != MS_DIST), "packed cells: 32-bit keys, with hop counts");
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
  for (int64_t it = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5; it < n * C; it += nw) {
    const int32_t v = (int32_t)(it / C);
    const int c = (int)(it - (int64_t)v * C);
    const uint32_t bit = 1u << c;
    const int64_t col = (int64_t)c * 32 + lane;
    if (c == 0 && lane == 0) cclear[v] = 0;
    const int64_t e0 = g.roff[v], e1 = g.roff[v + 1];
    bool loaded = false;
    T old = KT::inf(), best = KT::inf();
    int32_t oldh = GSP_MS_NOHOP, bh = GSP_MS_NOHOP;
    unsigned long long oldw = ~0ull, bestw = ~0ull; /* PK */
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
        if constexpr (PK) {
          oldw = bestw = b.DH[v * (int64_t)N + col];
        } else {
          old = best = KT::dec(b.D[v * (int64_t)N + col]);
          if (MODE != MS_DIST) oldh = bh = b.H[v * (int64_t)N + col];
        }
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
        if constexpr (PK) {
          unsigned long long xu[4];
#pragma unroll
          for (int q = 0; q < 4; q++) xu[q] = uj[q] >= 0 ? b.DH[uj[q] * (int64_t)N + col] : ~0ull;
#pragma unroll
          for (int q = 0; q < 4; q++) {
            const uint32_t hu = Pk<T>::hops(xu[q]);
            if (uj[q] < 0 || hu == (uint32_t)GSP_MS_NOHOP) continue;
            const T cand = KT::add(Pk<T>::dist(xu[q]), wj[q]);
            if (!(cand <= lim)) continue; /* unreached tail, or beyond the cutoff */
            if (MODE == MS_HOPS) {
              const unsigned long long c = Pk<T>::word(KT::enc(cand), hu + 1);
              if (c < bestw) bestw = c;
            } else if (KT::enc(cand) == (K)(uint32_t)(bestw >> 32) && hu + 1 < Pk<T>::hops(bestw)) {
              bestw = Pk<T>::word(KT::enc(cand), hu + 1); /* MS_LEVEL: the distance is final */
            }
          }
        } else {
#pragma unroll
          for (int q = 0; q < 4; q++) du[q] = uj[q] >= 0 ? KT::dec(b.D[uj[q] * (int64_t)N + col]) : KT::inf();
#pragma unroll
          for (int q = 0; q < 4; q++) {
            if (uj[q] < 0) continue;
            const T cand = KT::add(du[q], wj[q]);
            if (!(cand <= lim)) continue; /* unreached tail, or beyond the cutoff */
            if (MODE == MS_DIST) {
              if (cand < best) best = cand;
            } else if (MODE == MS_HOPS) {
              /* L2 read (no stale L1 line): the count is at least as new
               * as the distance just read; none (a torn read) stays none */
              if (cand <= best) {
                const int32_t hu = __ldcg(&b.H[uj[q] * (int64_t)N + col]);
                const int32_t h = hu == GSP_MS_NOHOP ? hu : hu + 1;
                if (cand < best) best = cand, bh = h;
                else if (h < bh) bh = h;
              }
            } else if (cand == best) { /* MS_LEVEL: best is the final distance */
              const int32_t hu = __ldcg(&b.H[uj[q] * (int64_t)N + col]);
              if (hu != GSP_MS_NOHOP && hu + 1 < bh) bh = hu + 1;
            }
          }
        }
      }
    }
    const bool ch = loaded && (PK ? bestw < oldw : best < old || (MODE != MS_DIST && bh < oldh));
    if (ch && PK) {
      b.DH[v * (int64_t)N + col] = bestw;
    } else if (ch) {
      const int64_t at = v * (int64_t)N + col;
      if (MODE != MS_DIST) {
        b.H[at] = bh;
        __threadfence(); /* a reader that sees the new distance sees this count */
      }
      if (MODE != MS_LEVEL) b.D[at] = KT::enc(best);
    }
    if (__any_sync(GSP_MS_FULL, ch) && lane == 0) {
      atomicOr(&cnext[v], bit);
      *acur = 1;
    }
  }
}

/* The parent rule from final distances and hop counts: parent = the
 * smallest tight tail whose count is one less; sources are their own
 * parents; -1 where unreached. Also checks the BFS level equations
 * h(v) = 1 + min{h(u) : u -> v tight}, h = 0 only at the lane's source,
 * and raises b.alive[3] where they fail. */
template <class T, bool PK>
__global__ void __launch_bounds__(256) ms_parents(MsBatch<typename Key<T>::K> b, DevGraph g, int nb, T lim) {
  typedef Key<T> KT;
  const T *rw = (const T *)g.rw;
  const int lane = threadIdx.x & 31;
  const int64_t nw = ((int64_t)gridDim.x * blockDim.x) >> 5, n = b.n;
  const int C = b.C, N = b.N;
  for (int64_t it = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5; it < n * C; it += nw) {
    const int32_t v = (int32_t)(it / C);
    const int c = (int)(it - (int64_t)v * C);
    const int64_t col = (int64_t)c * 32 + lane, at = v * (int64_t)N + col;
    if (c * 32 >= nb) { /* lanes without a source: nothing reached */
      b.P[at] = -1;
      continue;
    }
    const T d = ms_dist<T, PK>(b, at);
    const bool reached = d <= lim;
    int32_t h = GSP_MS_NOHOP;
    if (reached) h = PK ? (int32_t)Pk<T>::hops(b.DH[at]) : b.H[at];
    const bool want = reached && h > 0;
    int32_t p = INT32_MAX, minh = GSP_MS_NOHOP;
    const int64_t e0 = g.roff[v], e1 = g.roff[v + 1];
    if (__any_sync(GSP_MS_FULL, want)) {
      for (int64_t base = e0; base < e1; base += 32) {
        const int64_t e = base + lane;
        int32_t u = 0;
        T w = (T)0;
        if (e < e1) u = g.rcol[e], w = rw[e];
        const int cnt = e1 - base < 32 ? (int)(e1 - base) : 32;
        for (int j0 = 0; j0 < cnt; j0 += 4) {
          /* four tails at a time, so that their distance loads overlap */
          int32_t uj[4];
          T wj[4], du[4];
#pragma unroll
          for (int q = 0; q < 4; q++) {
            const int j = j0 + q < cnt ? j0 + q : 0;
            uj[q] = __shfl_sync(GSP_MS_FULL, u, j);
            wj[q] = __shfl_sync(GSP_MS_FULL, w, j);
            if (j0 + q >= cnt) uj[q] = -1;
          }
          if (!want) continue;
          int32_t hj[4];
#pragma unroll
          for (int q = 0; q < 4; q++) {
            const int64_t ua = uj[q] * (int64_t)N + col;
            if (uj[q] < 0) {
              du[q] = KT::inf(), hj[q] = GSP_MS_NOHOP;
            } else if constexpr (PK) {
              const unsigned long long x = b.DH[ua];
              du[q] = Pk<T>::dist(x), hj[q] = (int32_t)Pk<T>::hops(x);
            } else {
              du[q] = KT::dec(b.D[ua]), hj[q] = -1; /* H loaded only for tight tails */
            }
          }
#pragma unroll
          for (int q = 0; q < 4; q++) {
            if (uj[q] >= 0 && du[q] <= lim && KT::add(du[q], wj[q]) == d) {
              const int32_t hu = PK ? hj[q] : b.H[uj[q] * (int64_t)N + col];
              if (hu < minh) minh = hu;
              if (hu == h - 1 && uj[q] < p) p = uj[q];
            }
          }
        }
      }
    }
    bool bad = false;
    if (!reached) p = -1;
    else if (h == 0) {
      p = v;
      bad = col >= nb || b.S[col] != v;
    } else {
      bad = minh == GSP_MS_NOHOP || minh + 1 != h;
    }
    if (col >= nb) p = -1;
    b.P[at] = p;
    if (__any_sync(GSP_MS_FULL, bad) && lane == 0) b.alive[3] = 1;
  }
}

/* Source-major output of lanes [0, nb): dist[s*n + v] = value of D[v*N + s]
 * and par[s*n + v] = P[v*N + s], through a 32 x 32 shared-memory tile so
 * both sides are coalesced. */
template <class T, bool PK>
__global__ void ms_transpose(MsBatch<typename Key<T>::K> b, const int32_t *P, T *dist, int32_t *par, int32_t n,
                             int N, int nb) {
  __shared__ T td[32][33];
  __shared__ int32_t tp[32][33];
  const int64_t v0 = (int64_t)blockIdx.x * 32, s0 = (int64_t)blockIdx.y * 32;
  const int tx = threadIdx.x, ty = threadIdx.y; /* 32 x 8 */
  for (int k = ty; k < 32; k += 8) {
    const int64_t v = v0 + k, s = s0 + tx;
    if (v < n && s < nb) {
      td[k][tx] = ms_dist<T, PK>(b, v * N + s);
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
