/*
 * Successors of a closure, found after it instead of tracked through it.
 *
 * With strictly positive MIN_PLUS (strictly negative MAX_PLUS) arcs, v is a
 * valid successor of i towards j when the arc i -> v is tight:
 * w(i,v) ⊗ D(v,j) = D(i,j) (with D(j,j) taken as the empty path). Such
 * first hops are almost always among the few best arcs of row i (on random
 * complete graphs the first tight one is at rank 1-2 on average, at most a
 * few tens), so before the closure overwrites the arcs, the SL best arcs of
 * every row are kept (O(n x SL) workspace, no second matrix); after it, each
 * (i, j) scans them best first and stops at the first tight one, or as soon
 * as an arc alone is worse than D(i,j). A warp's 32 j share each candidate
 * v, so the loads of D(v, j) are coalesced. Entries none of these arcs
 * explains go to a slow exact search over all of row i. The closure itself
 * runs at full speed: recording paths costs a few percent, where tracking
 * the argmin through every product doubled the time (docs/performance.md).
 *
 * Floats: tightness is exact equality, which holds whenever the sums are
 * exact (e.g. integer-valued weights). Otherwise rounding may leave no arc
 * exactly tight, and the nearest arc within a relative 1e-4 (fp32) /
 * 1e-12 (fp64) is taken. Every step must strictly improve the distance to
 * j (D(v,j) better than D(i,j)), so successor chains never loop.
 */
#ifndef GSP_CUDA_FW_SUCC_CUH
#define GSP_CUDA_FW_SUCC_CUH

#include <type_traits>

#include "gsp_cuda_internal.cuh"

namespace gspcu {

constexpr int SL = 128; /* candidate arcs kept per row */
constexpr int ST = 256; /* threads of the successor kernels */

/* Order-preserving unsigned keys: smaller key = smaller value. */
template <class T> struct Key;
template <> struct Key<float> {
  typedef uint32_t U;
  static __device__ U of(float x) {
    const uint32_t u = __float_as_uint(x);
    return u ^ ((u >> 31) ? 0xFFFFFFFFu : 0x80000000u);
  }
};
template <> struct Key<double> {
  typedef uint64_t U;
  static __device__ U of(double x) {
    const uint64_t u = (uint64_t)__double_as_longlong(x);
    return u ^ ((u >> 63) ? ~0ull : 1ull << 63);
  }
};
template <> struct Key<int32_t> {
  typedef uint32_t U;
  static __device__ U of(int32_t x) {
    return (uint32_t)x ^ 0x80000000u;
  }
};
template <> struct Key<int64_t> {
  typedef uint64_t U;
  static __device__ U of(int64_t x) {
    return (uint64_t)x ^ (1ull << 63);
  }
};

/* Best first: MIN_PLUS ascending, MAX_PLUS descending. */
template <gsp_semiring S, class T> __device__ typename Key<T>::U best_key(T x) {
  const typename Key<T>::U k = Key<T>::of(x);
  return S == GSP_MIN_PLUS ? k : ~k;
}

/* Exclusive prefix of flag over the block (ST threads); *total = the sum. */
__device__ inline unsigned block_scan(bool flag, unsigned *warp_sums, unsigned *total) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const unsigned b = __ballot_sync(0xffffffffu, flag);
  if (lane == 0) warp_sums[warp] = __popc(b);
  __syncthreads();
  unsigned before = 0, all = 0;
  for (int w = 0; w < ST / 32; w++) {
    before += w < warp ? warp_sums[w] : 0;
    all += warp_sums[w];
  }
  __syncthreads(); /* warp_sums is reused by the next call */
  *total = all;
  return before + __popc(b & ((1u << lane) - 1));
}

/*
 * Row i's SL best arcs of the input (before the closure): radix-select the
 * SL-th best key (8 bits a pass), take every arc better than it and the
 * tied ones in column order, sort by (key, column). CV = column or -1,
 * CW = the arc's weight.
 */
template <gsp_semiring S, class T>
__global__ void __launch_bounds__(ST) k_succ_candidates(const T *D, int64_t np, int64_t n, int32_t *CV, T *CW) {
  typedef typename Key<T>::U U;
  constexpr int BITS = 8 * sizeof(U);
  __shared__ unsigned hist[256], warp_sums[ST / 32];
  __shared__ unsigned s_count, s_rank;
  __shared__ U s_prefix;
  __shared__ U sk[SL];
  __shared__ int32_t sv[SL];
  const int tid = threadIdx.x;
  const int64_t i = blockIdx.x;
  const T *row = D + (size_t)i * np;
  const T zero = Sr<S, T>::zero();
  if (tid == 0) s_count = 0;
  __syncthreads();
  unsigned c = 0;
  for (int64_t j = tid; j < n; j += ST) c += row[j] != zero;
  atomicAdd(&s_count, c);
  __syncthreads();
  const unsigned total = s_count;
  U kth = ~(U)0; /* every arc when there are at most SL */
  unsigned ties = 0;
  if (total > SL) {
    U prefix = 0;
    unsigned rank = SL; /* 1-based rank of the wanted key among those left */
    for (int sh = BITS - 8; sh >= 0; sh -= 8) {
      for (int b = tid; b < 256; b += ST) hist[b] = 0;
      __syncthreads();
      for (int64_t j = tid; j < n; j += ST) {
        const T x = row[j];
        if (x == zero) continue;
        const U k = best_key<S, T>(x);
        if (sh + 8 >= BITS || (k >> (sh + 8)) == prefix) atomicAdd(&hist[(k >> sh) & 255], 1u);
      }
      __syncthreads();
      if (tid == 0) {
        unsigned cum = 0;
        int dg = 0;
        while (cum + hist[dg] < rank) cum += hist[dg++];
        s_rank = rank - cum;
        s_prefix = (prefix << 8) | (U)dg;
      }
      __syncthreads();
      rank = s_rank;
      prefix = s_prefix;
    }
    kth = prefix;
    ties = rank;
  }
  __syncthreads();
  if (tid == 0) s_count = 0;
  __syncthreads();
  for (int64_t j = tid; j < n; j += ST) {
    const T x = row[j];
    if (x == zero) continue;
    const U k = best_key<S, T>(x);
    if (total <= SL || k < kth) {
      const unsigned slot = atomicAdd(&s_count, 1u);
      sk[slot] = k;
      sv[slot] = (int32_t)j;
    }
  }
  __syncthreads();
  if (total > SL) { /* the first `ties` arcs equal to kth, in column order */
    const unsigned base = s_count;
    unsigned taken = 0;
    for (int64_t j0 = 0; j0 < n && taken < ties; j0 += ST) {
      const int64_t j = j0 + tid;
      const bool eq = j < n && row[j] != zero && best_key<S, T>(row[j]) == kth;
      unsigned chunk = 0;
      const unsigned pos = block_scan(eq, warp_sums, &chunk);
      if (eq && taken + pos < ties) {
        sk[base + taken + pos] = kth;
        sv[base + taken + pos] = (int32_t)j;
      }
      taken += chunk;
    }
    __syncthreads();
    if (tid == 0) s_count = base + (taken < ties ? taken : ties);
    __syncthreads();
  }
  const unsigned cnt = s_count;
  for (int t = tid; t < SL; t += ST)
    if (t >= (int)cnt) sk[t] = ~(U)0, sv[t] = INT32_MAX;
  __syncthreads();
  /* bitonic sort of (key, column) */
  for (int k = 2; k <= SL; k <<= 1)
    for (int h = k >> 1; h > 0; h >>= 1) {
      for (int t = tid; t < SL; t += ST) {
        const int u = t ^ h;
        if (u > t) {
          const bool up = (t & k) == 0;
          const bool gt = sk[t] > sk[u] || (sk[t] == sk[u] && sv[t] > sv[u]);
          if (gt == up) {
            const U tk = sk[t];
            sk[t] = sk[u], sk[u] = tk;
            const int32_t tv = sv[t];
            sv[t] = sv[u], sv[u] = tv;
          }
        }
      }
      __syncthreads();
    }
  for (int t = tid; t < SL; t += ST) {
    const bool real = t < (int)cnt;
    CV[(size_t)i * SL + t] = real ? sv[t] : -1;
    CW[(size_t)i * SL + t] = real ? row[sv[t]] : zero;
  }
}

template <class T> __device__ bool near(T c, T d) {
  if (std::is_integral<T>::value) return c == d;
  const double tol = sizeof(T) == 4 ? 1e-4 : 1e-12;
  return fabs((double)c - (double)d) <= tol * fabs((double)d);
}

/* The first of row i's candidate arcs that is tight for j (APPROX: nearly
 * tight), or -1. */
template <gsp_semiring S, class T, bool APPROX>
__device__ int32_t scan_arcs(const T *D, int64_t np, int64_t j, T dij, const int32_t *cv, const T *cw) {
  typedef Sr<S, T> R;
  const typename Key<T>::U dk = best_key<S, T>(dij);
  for (int t = 0; t < SL; t++) {
    const int32_t v = cv[t];
    if (v < 0) break;
    const T w = cw[t];
    if (!APPROX && best_key<S, T>(w) > dk) break; /* this arc alone is worse */
    const T dvj = v == j ? R::one() : D[(size_t)v * np + j];
    const T c = R::mul(w, dvj);
    const bool tight = APPROX ? near(c, dij) : c == dij;
    if (tight && (v == j || (R::add(dvj, dij) == dvj && dvj != dij))) return v;
  }
  return -1;
}

/* S(i,j) for every entry: the first tight candidate arc; -2 (counted in
 * *left) where none is. Grid: x = row, y = column block. */
template <gsp_semiring S, class T>
__global__ void __launch_bounds__(ST) k_succ_search(const T *D, int64_t np, int64_t n, const int32_t *CV, const T *CW,
                                                    int32_t *Sc, bool reflexive, unsigned long long *left) {
  __shared__ int32_t cv[SL];
  __shared__ T cw[SL];
  const int64_t i = blockIdx.x, j = (int64_t)blockIdx.y * ST + threadIdx.x;
  if (i < n)
    for (int t = threadIdx.x; t < SL; t += ST) cv[t] = CV[(size_t)i * SL + t], cw[t] = CW[(size_t)i * SL + t];
  __syncthreads();
  if (j >= np) return;
  int32_t s = -1;
  const T dij = D[(size_t)i * np + j];
  if (i < n && j < n && dij != Sr<S, T>::zero()) {
    if (reflexive && i == j) {
      s = (int32_t)i; /* the empty path */
    } else {
      s = scan_arcs<S, T, false>(D, np, j, dij, cv, cw);
      if (s < 0 && !std::is_integral<T>::value) s = scan_arcs<S, T, true>(D, np, j, dij, cv, cw);
      if (s < 0) {
        s = -2;
        atomicAdd(left, 1ull);
      }
    }
  }
  Sc[(size_t)i * np + j] = s;
}

/* The entries left at -2: over all of row i, the exactly tight v (D(i,v) ⊗
 * D(v,j) = D(i,j), strictly closer to j) with the best D(i,v), which is a
 * first hop (the first hop of its own shortest path is tight and closer).
 * v = j always qualifies, so every entry gets one. */
template <gsp_semiring S, class T>
__global__ void __launch_bounds__(ST) k_succ_fallback(const T *D, int64_t np, int64_t n, int32_t *Sc) {
  typedef Sr<S, T> R;
  const int64_t i = blockIdx.x, j = (int64_t)blockIdx.y * ST + threadIdx.x;
  if (j >= n || Sc[(size_t)i * np + j] != -2) return;
  const T dij = D[(size_t)i * np + j];
  int32_t best = (int32_t)j;
  typename Key<T>::U bk = best_key<S, T>(dij);
  for (int64_t v = 0; v < n; v++) {
    const T div = D[(size_t)i * np + v];
    if (v == i || v == j || div == R::zero()) continue;
    const T dvj = D[(size_t)v * np + j];
    if (R::mul(div, dvj) != dij || !(R::add(dvj, dij) == dvj && dvj != dij)) continue;
    const typename Key<T>::U k = best_key<S, T>(div);
    if (k < bk) bk = k, best = (int32_t)v;
  }
  Sc[(size_t)i * np + j] = best;
}

/*
 * Closure with successors: keep the candidate arcs, run `closure` (the plain
 * blocked FW, which sets *cycle), then fill succ (np x np; -1 where there is
 * no path and in the padding).
 */
template <gsp_semiring S, class T, class Closure>
gsp_info closure_with_successors(T *d, int32_t *succ, int64_t n, int64_t np, bool reflexive, bool *cycle,
                                 Closure closure) {
  gsp_info info = GSP_SUCCESS;
  int32_t *cv = NULL;
  T *cw = NULL;
  unsigned long long *dleft = NULL, left = 0;
#define GSP_FREE_ALL (cudaFree(cv), cudaFree(cw), cudaFree(dleft))
  GSP_CUDA_TRY(cudaMalloc((void **)&cv, (size_t)n * SL * sizeof(int32_t)));
  GSP_CUDA_TRY(cudaMalloc((void **)&cw, (size_t)n * SL * sizeof(T)));
  GSP_CUDA_TRY(cudaMalloc((void **)&dleft, sizeof *dleft));
  GSP_CUDA_TRY(cudaMemset(dleft, 0, sizeof *dleft));
  k_succ_candidates<S, T><<<(unsigned)n, ST>>>(d, np, n, cv, cw);
  GSP_CUDA_LAUNCHED();
  GSP_TRY(closure());
  if (!*cycle) {
    const dim3 grid((unsigned)np, (unsigned)((np + ST - 1) / ST));
    k_succ_search<S, T><<<grid, ST>>>(d, np, n, cv, cw, succ, reflexive, dleft);
    GSP_CUDA_LAUNCHED();
    GSP_CUDA_TRY(cudaMemcpy(&left, dleft, sizeof left, cudaMemcpyDeviceToHost));
    if (left) {
      k_succ_fallback<S, T><<<dim3((unsigned)n, grid.y), ST>>>(d, np, n, succ);
      GSP_CUDA_LAUNCHED();
    }
    GSP_CUDA_TRY(cudaDeviceSynchronize());
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

} /* namespace gspcu */

#endif /* GSP_CUDA_FW_SUCC_CUH */
