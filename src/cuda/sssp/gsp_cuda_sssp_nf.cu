/*
 * Single-source (and nearest-source) shortest paths on the GPU: near-far
 * delta-stepping (Davidson et al., "Work-efficient parallel GPU methods for
 * single-source shortest paths") in ONE persistent cooperative kernel.
 *
 * Why one kernel: a power-law graph needs tens of rounds and a grid
 * thousands; launching kernels and reading the frontier size back every
 * round cost more than the relaxations themselves. Here every round ends in
 * a grid-wide barrier and the queue sizes stay in device memory; the host
 * waits once.
 *
 * A step relaxes every out-arc of the vertices in the current near queue.
 * A vertex whose distance drops is queued for the next step when it falls
 * before the bucket end Tend, else put on the far pile. When a step queues
 * nothing the bucket is done: the least live distance on the far pile gives
 * the next bucket end and the pile is split (stale entries dropped, entries
 * before the new end queued, the rest kept).
 *
 * Work per step is balanced three ways: vertices of out-degree >= the
 * plan's hub degree ("hubs") go to a separate list whose arcs are spread evenly over all the
 * warps of the grid; a warp takes 32 queued vertices, walks the arcs of
 * each one of degree >= 32 with all its lanes, and the arcs of the small
 * ones as one list (prefix sum over the lanes, each lane finds its owner by
 * a binary search over the shuffled offsets).
 *
 * Chains (the plan's chain rounds, for deep graphs): a warp keeps the
 * vertices it lowers below the bucket end in a shared-memory buffer and
 * expands them itself, round after round, before the barrier; what the
 * last round (or a full buffer) leaves is queued. A path then advances
 * several arcs a step, and a step's cost on a deep graph is its chain of
 * dependent memory accesses, not the barrier. Any order of relaxations
 * reaches the same fixpoint, so the results stay bit for bit.
 *
 * Dedup: stamp[v] = the step whose queue holds v (atomicExch), so a vertex
 * is queued at most once per step and nothing needs clearing between
 * steps; byte flags for the far pile. Queue counters rotate over three
 * slots so that the one being reset is neither read nor appended to.
 *
 * Parents: the kernel computes distances alone; then the tree pass
 * (gsp_cuda_sssp_tree.cu) makes one pass over the arcs for the strict rule
 * (a BFS over tight arcs only where zero-length arcs leave ties), on the
 * queues the kernel no longer needs. Riding the parent rule along the
 * relaxation instead (records of key, level and parent, lowered together)
 * cost 16-30% more than distances alone.
 *
 * Results: right behind the kernel a small one counts the reached
 * vertices (so the host knows before copying whether the vectors are full
 * and need no presence).
 * While both run, host threads map the pages of the new result vectors.
 * Then the results come back through pinned slots kept with A, a few MiB a
 * chunk, on a copy stream of their own, the next chunks in flight while
 * the host threads gather the current one (sssp_gather.h: distances,
 * widened parents, presence, count, one pass). Pageable copies into new
 * pages cost ~7 GB/s on one thread; this runs at the PCIe rate. With
 * parents, the distances and presence come back while the parent pass
 * runs, the parents after it.
 */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "gsp_cuda_sssp.cuh"

namespace gsp_sssp_cu {

namespace {

constexpr int NF_THREADS = 256;
constexpr int NF_WARPS = NF_THREADS / 32;
constexpr int NF_MAX_BLOCKS_PER_SM = 4;
constexpr int NF_CHAIN = 64;       /* a warp's chain buffer, vertices */
constexpr int64_t NF_HUB_MIN = 32; /* the least hub degree (the plan's, gsp_cuda_sssp_plan) */
constexpr unsigned long long NF_ARC_MASK = (1ull << 40) - 1;
constexpr unsigned FULL = 0xffffffffu;

/* Control block at the start of the workspace. */
struct NfCtl {
  int32_t qcnt[3];            /* near queue size, by step % 3 */
  int32_t fcnt[2];            /* far pile size, by pile */
  unsigned long long hcnt[3]; /* hub list, (count << 40) | arcs, by step % 3 */
  unsigned long long gmin[2]; /* least live far key, by bucket parity */
  int32_t steps;
  unsigned long long expanded; /* vertices whose arcs were relaxed */
  unsigned long long reached;  /* vertices with distance <= lim, counted after the run */
  int32_t tcnt;                /* the tree pass's counter (last: the host reads what is before it) */
};

struct NfWs {
  NfCtl *ctl;
  void *d; /* K[n] */
  int32_t *stamp;
  int32_t *Q[2], *H[2], *Far[2];
  unsigned long long *HS[2]; /* first arc index of each hub in the step's arc list */
  uint8_t *inFar;
  int32_t *pout; /* int32[n] parents (with parents) */
};

struct NfLayout {
  size_t ctl, d, stamp, q[2], h[2], hs[2], f[2], infar, pout, total;
};

NfLayout nf_layout(int64_t n, int64_t m) {
  NfLayout L;
  size_t at = 0;
  auto take = [&at](size_t bytes) {
    const size_t r = at;
    at += (bytes + 255) & ~(size_t)255;
    return r;
  };
  const size_t un = (size_t)(n > 0 ? n : 1), hcap = (size_t)(m / NF_HUB_MIN) + 1;
  L.ctl = take(sizeof(NfCtl));
  L.d = take(un * 8);
  L.stamp = take(un * 4);
  for (int k = 0; k < 2; k++) L.q[k] = take(un * 4);
  for (int k = 0; k < 2; k++) L.h[k] = take(hcap * 4);
  for (int k = 0; k < 2; k++) L.hs[k] = take(hcap * 8);
  for (int k = 0; k < 2; k++) L.f[k] = take(un * 4);
  L.infar = take(un + 16);
  L.pout = take(un * 4);
  L.total = at;
  return L;
}

NfWs nf_ws(void *base, int64_t n, int64_t m) {
  const NfLayout L = nf_layout(n, m);
  char *b = (char *)base;
  NfWs w;
  w.ctl = (NfCtl *)(b + L.ctl);
  w.d = b + L.d;
  w.stamp = (int32_t *)(b + L.stamp);
  for (int k = 0; k < 2; k++) {
    w.Q[k] = (int32_t *)(b + L.q[k]);
    w.H[k] = (int32_t *)(b + L.h[k]);
    w.HS[k] = (unsigned long long *)(b + L.hs[k]);
    w.Far[k] = (int32_t *)(b + L.f[k]);
  }
  w.inFar = (uint8_t *)(b + L.infar);
  w.pout = (int32_t *)(b + L.pout);
  return w;
}

/* ---- distance state: keys ---- */

template <class T> struct St {
  typedef typename Key<T>::K K;
  K *d;
  __device__ __forceinline__ unsigned long long keyu(int32_t v) const {
    return (unsigned long long)__ldcg(d + v);
  }
  __device__ __forceinline__ T load(int32_t u) const {
    return Key<T>::dec(__ldcg(d + u));
  }
  /* Offer key k to v; true when v must be queued again. */
  __device__ __forceinline__ bool offer(int32_t v, K k) const {
    if (!(k < __ldcg(d + v))) return false; /* cheap test first: most offers lose */
    return k < atomicMin(d + v, k);
  }
};

template <class T> struct NfArgs {
  DevGraph g;
  NfWs w;
  T lim;
  double delta;
  int chain;   /* chain rounds a step (gsp_cuda_sssp_plan) */
  int64_t hub; /* out-degree from which arcs are spread over the grid */
};

/* A warp's chain buffer (shared memory): vertices it improved before the
 * bucket end in this step, which it expands itself before the barrier
 * instead of queueing them for the next step. */
struct Chain {
  int32_t *v; /* NF_CHAIN entries */
  int *cnt;   /* appends tried (may pass NF_CHAIN: those were queued) */
  __device__ __forceinline__ bool put(int32_t x) const {
    const int k = atomicAdd(cnt, 1);
    if (k >= NF_CHAIN) return false;
    v[k] = x;
    return true;
  }
};

/* Queue v for step+1 (v's new distance nd before Tend), or put it on far
 * pile fa; ch (may be NULL): the warp's chain buffer, which takes it first
 * when it is near and no hub. A vertex without out-arcs goes nowhere: it
 * has nothing to relax. */
template <class T>
__device__ __forceinline__ void push_next(const NfArgs<T> &a, int32_t v, double nd, double Tend, int step, int fa,
                                          const Chain *ch) {
  const int64_t deg = a.g.off[v + 1] - a.g.off[v];
  if (deg == 0) return;
  if (nd < Tend) {
    if (ch && deg < a.hub && ch->put(v)) return;
    if (atomicExch(&a.w.stamp[v], step + 1) == step + 1) return; /* queued already */
    const int nb = (step + 1) & 1;
    if (deg >= a.hub) {
      const unsigned long long old = atomicAdd(&a.w.ctl->hcnt[(step + 1) % 3], (1ull << 40) | (unsigned long long)deg);
      const unsigned slot = (unsigned)(old >> 40);
      a.w.H[nb][slot] = v;
      a.w.HS[nb][slot] = old & NF_ARC_MASK;
    } else {
      qpush(a.w.Q[nb], &a.w.ctl->qcnt[(step + 1) % 3], v);
    }
  } else if (claim(a.w.inFar, v)) {
    qpush(a.w.Far[fa], &a.w.ctl->fcnt[fa], v);
  }
}

template <class T>
__device__ __forceinline__ void relax(const NfArgs<T> &a, const St<T> &st, int32_t u, T du, int64_t e, double Tend,
                                      int step, int fa, const Chain *ch) {
  const T nd = Key<T>::add(du, ((const T *)a.g.w)[e]);
  if (!(nd <= a.lim)) return;
  const int32_t v = a.g.col[e];
  if (st.offer(v, Key<T>::enc(nd))) push_next(a, v, (double)nd, Tend, step, fa, ch);
}

/* The out-arcs of up to 32 vertices, u on each lane where valid (the
 * whole warp calls it): a list of degree >= 32 with all the lanes, the
 * small ones as one list (prefix sum over the lanes, each lane finds its
 * owner by a binary search over the shuffled offsets). */
template <class T>
__device__ __forceinline__ void expand(const NfArgs<T> &a, const St<T> &st, int32_t u, bool valid, double Tend,
                                       int step, int fa, const Chain *ch) {
  const int lane = threadIdx.x & 31;
  int64_t s = 0, e = 0;
  T du = (T)0;
  if (valid) {
    s = a.g.off[u], e = a.g.off[u + 1];
    du = st.load(u);
  }
  const int64_t deg = e - s;
  /* degree >= 32: the whole warp walks one list at a time */
  unsigned big = __ballot_sync(FULL, valid && deg >= 32);
  while (big) {
    const int l = __ffs(big) - 1;
    big &= big - 1;
    const int32_t uu = __shfl_sync(FULL, u, l);
    const int64_t ss = __shfl_sync(FULL, (long long)s, l), ee = __shfl_sync(FULL, (long long)e, l);
    const T dd = __shfl_sync(FULL, du, l);
    for (int64_t x = ss + lane; x < ee; x += 32) relax(a, st, uu, dd, x, Tend, step, fa, ch);
  }
  /* the small ones: one list of sum(deg) arcs over the lanes */
  const int sd = valid && deg < 32 ? (int)deg : 0;
  int incl = sd;
  for (int o = 1; o < 32; o *= 2) {
    const int t = __shfl_up_sync(FULL, incl, o);
    if (lane >= o) incl += t;
  }
  const int total = __shfl_sync(FULL, incl, 31), excl = incl - sd;
  for (int kb = 0; kb < total; kb += 32) {
    const int k = kb + lane;
    int j = 0; /* the last lane whose list starts at or before k */
    for (int sp = 16; sp > 0; sp /= 2) {
      const int c = j + sp;
      if (__shfl_sync(FULL, excl, c) <= k) j = c;
    }
    const int64_t sj = __shfl_sync(FULL, (long long)s, j);
    const int ej = __shfl_sync(FULL, excl, j);
    const int32_t uj = __shfl_sync(FULL, u, j);
    const T dj = __shfl_sync(FULL, du, j);
    if (k < total) relax(a, st, uj, dj, sj + (k - ej), Tend, step, fa, ch);
  }
}

__device__ __forceinline__ unsigned long long warp_min(unsigned long long x) {
  for (int o = 16; o > 0; o /= 2) {
    const unsigned long long y = __shfl_down_sync(FULL, x, o);
    x = y < x ? y : x;
  }
  return x;
}

template <class T> __global__ void __launch_bounds__(NF_THREADS) nf_kernel(const NfArgs<T> a) {
  typedef Key<T> KT;
  typedef typename KT::K K;
  cg::grid_group grid = cg::this_grid();
  St<T> st;
  st.d = (K *)a.w.d;
  NfCtl *ctl = a.w.ctl;
  const int lane = threadIdx.x & 31;
  const int64_t gtid = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  const int64_t gsize = (int64_t)gridDim.x * blockDim.x;
  const int64_t warp = gtid >> 5, nwarps = gsize >> 5;
  /* the warp's two chain buffers: the one being expanded, the one filled */
  __shared__ int32_t chain_v[NF_WARPS][2][NF_CHAIN];
  __shared__ int chain_n[NF_WARPS][2];
  const int wib = threadIdx.x >> 5;
  const Chain cb0 = {chain_v[wib][0], &chain_n[wib][0]};
  if (lane < 2) chain_n[wib][lane] = 0;
  __syncwarp();
  const Chain *ch0 = a.chain > 0 ? &cb0 : nullptr;
  unsigned long long expanded = 0; /* lane 0's count */
  int step = 1, fa = 0, bucket = 0;
  double Tend = a.delta;
  for (;;) {
    /* Every branch below depends only on values no thread changes during
     * this step, so all threads take it together (grid.sync needs that). */
    const int nq = __ldcg(&ctl->qcnt[step % 3]);
    const unsigned long long hv = __ldcg(&ctl->hcnt[step % 3]);
    if (nq == 0 && hv == 0) {
      /* bucket done: the least live far distance gives the next end */
      const int fb = fa ^ 1;
      const int nfar = __ldcg(&ctl->fcnt[fa]);
      if (nfar == 0) break;
      if (gtid == 0) {
        ctl->fcnt[fb] = 0;
        ctl->gmin[(bucket + 1) & 1] = ULLONG_MAX;
      }
      unsigned long long mn = ULLONG_MAX;
      for (int64_t k = gtid; k < nfar; k += gsize) {
        const unsigned long long key = st.keyu(__ldcg(&a.w.Far[fa][k]));
        if ((double)KT::dec((K)key) >= Tend && key < mn) mn = key;
      }
      mn = warp_min(mn);
      if (lane == 0 && mn != ULLONG_MAX) atomicMin(&ctl->gmin[bucket & 1], mn);
      grid.sync();
      const unsigned long long gm = __ldcg(&ctl->gmin[bucket & 1]);
      if (gm == ULLONG_MAX) break; /* only stale entries left */
      const double Told = Tend, fmin = (double)KT::dec((K)gm);
      Tend = (floor(fmin / a.delta) + 1) * a.delta;
      if (!(Tend > fmin)) Tend = nextafter(fmin, INFINITY);
      if (gtid == 0) ctl->qcnt[(step + 2) % 3] = 0, ctl->hcnt[(step + 2) % 3] = 0;
      for (int64_t k = gtid; k < nfar; k += gsize) {
        const int32_t v = __ldcg(&a.w.Far[fa][k]);
        const double dv = (double)KT::dec((K)st.keyu(v));
        if (dv < Told) {
          a.w.inFar[v] = 0; /* stale: relaxed in an earlier bucket */
        } else if (dv < Tend) {
          a.w.inFar[v] = 0;
          push_next(a, v, dv, Tend, step, fb, nullptr);
        } else {
          qpush(a.w.Far[fb], &ctl->fcnt[fb], v);
        }
      }
      fa = fb;
      bucket++;
      grid.sync();
      step++;
      continue;
    }

    if (gtid == 0) ctl->qcnt[(step + 2) % 3] = 0, ctl->hcnt[(step + 2) % 3] = 0;
    const int nb = step & 1;

    /* hubs: their arcs as one list, an equal contiguous share per warp */
    const unsigned nh = (unsigned)(hv >> 40);
    const int64_t harcs = (int64_t)(hv & NF_ARC_MASK);
    if (gtid == 0) expanded += nh;
    if (harcs > 0) {
      const int64_t per = (((harcs + nwarps - 1) / nwarps) + 31) & ~(int64_t)31;
      const int64_t lo = warp * per, hi = lo + per < harcs ? lo + per : harcs;
      if (lo < hi) {
        const unsigned long long *HS = a.w.HS[nb];
        unsigned s0 = 0, s1 = nh; /* HS[s0] <= lo < HS[s1] */
        while (s1 - s0 > 1) {
          const unsigned mid = (s0 + s1) / 2;
          if ((int64_t)__ldcg(HS + mid) <= lo) s0 = mid;
          else s1 = mid;
        }
        unsigned slot = s0;
        int64_t sstart = (int64_t)__ldcg(HS + slot);
        int64_t send = slot + 1 < nh ? (int64_t)__ldcg(HS + slot + 1) : harcs;
        int32_t u = __ldcg(&a.w.H[nb][slot]);
        T du = st.load(u);
        int64_t ebase = a.g.off[u];
        for (int64_t idx = lo + lane; idx < hi; idx += 32) {
          while (idx >= send) {
            slot++;
            sstart = send;
            send = slot + 1 < nh ? (int64_t)__ldcg(HS + slot + 1) : harcs;
            u = __ldcg(&a.w.H[nb][slot]);
            du = st.load(u);
            ebase = a.g.off[u];
          }
          relax(a, st, u, du, ebase + (idx - sstart), Tend, step, fa, ch0);
        }
      }
    }

    /* queued vertices, 32 per warp */
    const int32_t *Q = a.w.Q[nb];
    for (int64_t base = warp * 32; base < nq; base += nwarps * 32) {
      const int64_t i = base + lane;
      const bool valid = i < nq;
      expand(a, st, valid ? __ldcg(Q + i) : 0, valid, Tend, step, fa, ch0);
      const unsigned vm = __ballot_sync(FULL, valid);
      if (lane == 0) expanded += (unsigned)__popc(vm);
    }
    /* chain: the vertices this warp improved, expanded by it again (up to
     * a.chain rounds) so that a path advances several arcs a barrier; the
     * last round's are queued for the next step */
    if (ch0) {
      int cur = 0;
      for (int r = 0; r < a.chain; r++) {
        __syncwarp();
        const int c = min(chain_n[wib][cur], NF_CHAIN);
        if (c == 0) break;
        const Chain next = {chain_v[wib][cur ^ 1], &chain_n[wib][cur ^ 1]};
        for (int b = 0; b < c; b += 32) {
          const bool valid = b + lane < c;
          expand(a, st, valid ? chain_v[wib][cur][b + lane] : 0, valid, Tend, step, fa, &next);
        }
        if (lane == 0) expanded += (unsigned)c;
        __syncwarp();
        if (lane == 0) chain_n[wib][cur] = 0;
        cur ^= 1;
      }
      __syncwarp();
      const int c = min(chain_n[wib][cur], NF_CHAIN);
      for (int k = lane; k < c; k += 32) {
        const int32_t v = chain_v[wib][cur][k];
        push_next(a, v, (double)st.load(v), Tend, step, fa, nullptr);
      }
      __syncwarp();
      if (lane == 0) chain_n[wib][cur] = 0;
    }
    grid.sync();
    step++;
  }
  if (gtid == 0) ctl->steps = step;
  if (lane == 0 && expanded) atomicAdd(&ctl->expanded, expanded);
}

/* Sources at distance 0, queued for step 1. */
template <class T> __global__ void nf_seed(const NfArgs<T> a, const int32_t *src, int32_t ns) {
  for (int32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < ns; k += gridDim.x * blockDim.x) {
    const int32_t s = src[k];
    ((typename Key<T>::K *)a.w.d)[s] = Key<T>::enc((T)0);
    push_next(a, s, 0.0, INFINITY, 0, 0, nullptr);
  }
}

/* A thread's count of reached vertices into *cnt: one atomic per warp
 * (every thread of the grid calls it once, after its loop). */
__device__ __forceinline__ void count_reached(unsigned long long *cnt, unsigned c) {
  c = __reduce_add_sync(FULL, c);
  if ((threadIdx.x & 31) == 0 && c) atomicAdd(cnt, (unsigned long long)c);
}

/* Distance keys: *cnt += vertices reached. */
template <class T> __global__ void nf_count(const typename Key<T>::K *d, int64_t n, T lim, unsigned long long *cnt) {
  unsigned c = 0;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    c += Key<T>::dec(d[i]) <= lim;
  count_reached(cnt, c);
}

/* Blocks per SM for the persistent kernel (0: cannot launch it). */
template <class T> int nf_blocks_per_sm() {
  static int cached = -1;
  if (cached < 0) {
    int coop = 0, b = 0;
    if (cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, nf_kernel<T>, NF_THREADS, 0) != cudaSuccess) {
      (void)cudaGetLastError();
      coop = 0;
    }
    cached = coop ? (b < NF_MAX_BLOCKS_PER_SM ? b : NF_MAX_BLOCKS_PER_SM) : 0;
  }
  return cached;
}

/* Results come back through pinned slots kept with A (graph_staging): a
 * chunk of vertices per slot, the next ones in flight while the host
 * threads gather the current one into the result vectors. */
constexpr size_t NF_STAGE_SLOT = (size_t)2 << 20; /* bytes */
constexpr int NF_STAGE_SLOTS = 3;

/* Slot bytes: NF_STAGE_SLOT, or the call's stage_bytes knob (tests force
 * many tiny chunks with it). */
size_t stage_slot_bytes(const CallRecord &rec) {
  return rec.stage_bytes >= 16 ? rec.stage_bytes : NF_STAGE_SLOT;
}

/* Queue on stream cs the copies of vertices [lo, lo + len) into one slot
 * (distances at its start unless dd is NULL, parents at poff unless dp
 * is), then the slot's event. */
gsp_info stage_chunk(cudaStream_t cs, char *slot, size_t poff, const char *dd, size_t ts, const char *dp, size_t ps,
                     int64_t lo, int64_t len, cudaEvent_t ev) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  if (dd) GSP_CUDA_TRY(cudaMemcpyAsync(slot, dd + (size_t)lo * ts, (size_t)len * ts, cudaMemcpyDeviceToHost, cs));
  if (dp)
    GSP_CUDA_TRY(cudaMemcpyAsync(slot + poff, dp + (size_t)lo * ps, (size_t)len * ps, cudaMemcpyDeviceToHost, cs));
  GSP_CUDA_TRY(cudaEventRecord(ev, cs));
#undef GSP_FREE_ALL
  return info;
}

/* On stream cs (which waits for them to be final): n distances (ts bytes
 * each at dd, device; or none, dd NULL and ts 0) and parents (ps bytes each
 * at dp, or none) into out, with the presence unless full; *count =
 * vertices present (n when full). */
gsp_info fetch(cudaStream_t cs, const gsp__sssp_sink *out, gsp_type t, const void *lim, bool full, int64_t n,
               const void *dd, size_t ts, const void *dp, size_t ps, struct gsp_dev_graph *dg, int64_t *count,
               CallRecord &rec) {
  gsp_info info = GSP_SUCCESS;
  cudaEvent_t ev[NF_STAGE_SLOTS] = {};
  char *heap = NULL;
  /* on error, copies may still be in flight into the staging */
#define GSP_FREE_ALL                    \
  do {                                  \
    (void)cudaStreamSynchronize(cs);    \
    for (cudaEvent_t e : ev)            \
      if (e) (void)cudaEventDestroy(e); \
    gsp__free(heap);                    \
    (void)cudaGetLastError();           \
  } while (0)
  gsp_cuda_sssp_stats &stats = rec.stats;
  int64_t C = (int64_t)(stage_slot_bytes(rec) / (ts + ps)); /* vertices a chunk */
  C = C < 1 ? 1 : C > n ? n : C;
  const size_t poff = ((size_t)C * ts + 15) & ~(size_t)15, slot = (poff + (size_t)C * ps + 255) & ~(size_t)255;
  const int64_t nch = (n + C - 1) / C;
  const int ns = nch < NF_STAGE_SLOTS ? (int)nch : NF_STAGE_SLOTS;
  char *stage = NULL;
  GSP_TRY(graph_staging((void **)&stage, dg, (size_t)ns * slot));
  stats.pinned = stage != NULL;
  if (!stage) { /* the host would not pin: pageable staging, same steps */
    heap = (char *)gsp__malloc_array((size_t)ns, slot);
    GSP_CHECK(heap != NULL, GSP_OUT_OF_MEMORY, "cannot stage the results of %lld vertices", (long long)n);
    stage = heap;
  }
  for (int k = 0; k < ns; k++) GSP_CUDA_TRY(cudaEventCreateWithFlags(&ev[k], cudaEventDisableTiming));
  const char *cd = (const char *)dd, *cp = (const char *)dp;
  for (int64_t c = 0; c < ns; c++)
    GSP_TRY(
        stage_chunk(cs, stage + (size_t)c * slot, poff, cd, ts, cp, ps, c * C, C < n - c * C ? C : n - c * C, ev[c]));
  const int nt = gsp__threads();
  int64_t cnt = 0;
  for (int64_t c = 0; c < nch; c++) {
    const int k = (int)(c % ns);
    const int64_t lo = c * C, len = C < n - lo ? C : n - lo;
    GSP_CUDA_TRY(cudaEventSynchronize(ev[k]));
    char *sl = stage + (size_t)k * slot;
    cnt += gsp__sssp_gather(out, t, lim, full, lo, len, dd ? sl : NULL, dp ? sl + poff : NULL, (int)ps, nt);
    const int64_t nx = c + ns;
    if (nx < nch) GSP_TRY(stage_chunk(cs, sl, poff, cd, ts, cp, ps, nx * C, C < n - nx * C ? C : n - nx * C, ev[k]));
  }
  stats.chunks += (int)nch;
  *count = cnt;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* The events of one nf_run on the legacy stream, in queue order. */
enum { E_START, E_SEEDED, E_KERNEL, E_COUNTED, E_ARCS, E_TREE, E_COUNT };

/* One nf_run's inputs and what its steps share: the kernel's arguments
 * (a.w: the workspace), its events (nf_run destroys them, also on error),
 * the copy stream cs and the parent pass's scratch tw. */
template <class T> struct NfCall {
  const DevGraph *g;
  struct gsp_dev_graph *dg;
  const int32_t *src;
  int32_t ns;
  T lim;
  CallRecord *rec;
  NfArgs<T> a;
  cudaEvent_t ev[E_COUNT] = {};
  cudaStream_t cs = NULL;
  TreeWs tw;
};

/* The kernel's arguments, its workspace cleared (distances infinite) and
 * the sources seeded, between events E_START and E_SEEDED. */
template <class T> gsp_info nf_setup(NfCall<T> &c, void *ws, const gsp_cuda_sssp_plan &plan) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  typedef Key<T> KT;
  typedef typename KT::K K;
  NfArgs<T> &a = c.a;
  const int64_t n = c.g->n;
  a.g = *c.g;
  a.w = nf_ws(ws, n, c.g->m);
  a.lim = c.lim;
  a.delta = plan.delta > 0 ? plan.delta : 1.0;
  a.chain = plan.chain > 0 ? plan.chain : 0;
  a.hub = plan.hub > NF_HUB_MIN ? plan.hub : NF_HUB_MIN;
  GSP_CUDA_TRY(cudaEventRecord(c.ev[E_START], 0));
  GSP_CUDA_TRY(cudaMemsetAsync(a.w.ctl, 0, sizeof(NfCtl), 0));
  const unsigned long long none[2] = {ULLONG_MAX, ULLONG_MAX};
  GSP_CUDA_TRY(cudaMemcpy(a.w.ctl->gmin, none, sizeof none, cudaMemcpyHostToDevice));
  GSP_CUDA_TRY(cudaMemsetAsync(a.w.stamp, 0, (size_t)n * 4, 0));
  GSP_CUDA_TRY(cudaMemsetAsync(a.w.inFar, 0, (size_t)n + 16, 0));
  GSP_TRY(fill<K>((K *)a.w.d, n, KT::enc(KT::inf())));
  /* the sources, staged in the step-2 queue (free until step 1 runs) */
  GSP_CUDA_TRY(cudaMemcpy(a.w.Q[0], c.src, (size_t)c.ns * sizeof *c.src, cudaMemcpyHostToDevice));
  nf_seed<T><<<blocks_for(c.ns), 256>>>(a, a.w.Q[0], c.ns);
  GSP_CUDA_LAUNCHED();
  GSP_CUDA_TRY(cudaEventRecord(c.ev[E_SEEDED], 0));
#undef GSP_FREE_ALL
  return info;
}

/* Queue the persistent kernel (bps blocks an SM; *t_launch: when, on the
 * host clock), the count of reached vertices and, with parents, the tree
 * pass's start (tree_start). */
template <class T> gsp_info nf_launch(NfCall<T> &c, int bps, bool parents, double *t_launch) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  typedef typename Key<T>::K K;
  NfArgs<T> &a = c.a;
  const int64_t n = c.g->n;
  void *args[] = {(void *)&a};
  GSP_CUDA_TRY(cudaLaunchCooperativeKernel((const void *)nf_kernel<T>, dim3((unsigned)(sm_count() * bps)),
                                           dim3(NF_THREADS), args, 0, 0));
  *t_launch = host_seconds();
  GSP_CUDA_TRY(cudaEventRecord(c.ev[E_KERNEL], 0));
  /* right behind the kernel: the count of reached vertices, so the host
   * knows before copying whether the vectors are full */
  nf_count<T><<<blocks_for(n), 256>>>((const K *)a.w.d, n, c.lim, &a.w.ctl->reached);
  GSP_CUDA_LAUNCHED();
  GSP_CUDA_TRY(cudaEventRecord(c.ev[E_COUNTED], 0));
  /* the parent pass, queued behind, on the queues and stamps the kernel is
   * done with; it runs while the distances are copied out */
  c.tw = {a.w.stamp, a.w.Q[0], &a.w.ctl->tcnt};
  if (parents) {
    GSP_TRY(tree_start<T>(a.w.pout, (const K *)a.w.d, *c.g, c.src, c.ns, c.lim, true, c.tw));
    GSP_CUDA_TRY(cudaEventRecord(c.ev[E_ARCS], 0));
  }
#undef GSP_FREE_ALL
  return info;
}

/* The results into out, on the copy stream: the distances and presence
 * (*cnt vertices reached, which must be ctl's count), then the parents
 * once the tree pass ends. */
template <class T> gsp_info nf_results(NfCall<T> &c, const gsp__sssp_sink *out, const NfCtl &ctl, int64_t *cnt) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  typedef typename Key<T>::K K;
  const int64_t n = c.g->n;
  const bool full = ctl.reached == (unsigned long long)n;
  /* keys of non-negative values are their bit patterns: copied as they
   * are. The distances and every presence first (the presence of the
   * parents and roots is that of the distances) */
  static_assert(sizeof(K) == sizeof(T), "key and value have one size");
  const gsp__sssp_sink dsink = {out->dist, NULL, NULL, {out->b[0], out->b[1], out->b[2]}};
  GSP_TRY(fetch(c.cs, &dsink, type_of<T>(), &c.lim, full, n, c.a.w.d, sizeof(T), NULL, 0, c.dg, cnt, *c.rec));
  GSP_CHECK(*cnt == (int64_t)ctl.reached, GSP_PANIC,
            "shortest paths: the device counted %llu vertices reached, the host %lld", ctl.reached, (long long)*cnt);
  if (out->parent) { /* then the int32 parents, widened by the gather */
    GSP_TRY(tree_end<T>(c.a.w.pout, (const K *)c.a.w.d, *c.g, c.ns, c.lim, true, c.tw, *c.rec));
    GSP_CUDA_TRY(cudaEventRecord(c.ev[E_TREE], 0));
    GSP_CUDA_TRY(cudaStreamWaitEvent(c.cs, c.ev[E_TREE], 0));
    const gsp__sssp_sink psink = {out->dist, out->parent, NULL, {NULL, NULL, NULL}};
    int64_t all = 0;
    GSP_TRY(fetch(c.cs, &psink, type_of<T>(), &c.lim, true, n, NULL, 0, c.a.w.pout, 4, c.dg, &all, *c.rec));
  }
#undef GSP_FREE_ALL
  return info;
}

/* The device phases into stats, from the events (all complete now). */
gsp_info nf_times(gsp_cuda_sssp_stats &stats, const cudaEvent_t *ev, bool parents) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  float ms_setup = 0, ms_kernel = 0, ms_tree = 0;
  GSP_CUDA_TRY(cudaEventElapsedTime(&ms_setup, ev[E_START], ev[E_SEEDED]));
  GSP_CUDA_TRY(cudaEventElapsedTime(&ms_kernel, ev[E_SEEDED], ev[E_KERNEL]));
  stats.setup_s += ms_setup * 1e-3, stats.kernel_s += ms_kernel * 1e-3;
  if (parents) {
    GSP_CUDA_TRY(cudaEventElapsedTime(&ms_tree, ev[E_COUNTED], ev[E_ARCS]));
    stats.tree_s += ms_tree * 1e-3;
  }
#undef GSP_FREE_ALL
  return info;
}

template <class T>
gsp_info nf_run(const gsp__sssp_sink *out, int64_t *nvals, const DevGraph &g, struct gsp_dev_graph *dg, void *ws,
                const int32_t *src, int32_t ns, T lim, const gsp_cuda_sssp_plan &plan, CallRecord &rec) {
  gsp_info info = GSP_SUCCESS;
  NfCall<T> c;
  c.g = &g, c.dg = dg, c.src = src, c.ns = ns, c.lim = lim, c.rec = &rec;
  /* on error, the tree pass may still be queued on the legacy stream */
#define GSP_FREE_ALL                    \
  do {                                  \
    (void)cudaStreamSynchronize(0);     \
    for (cudaEvent_t e : c.ev)          \
      if (e) (void)cudaEventDestroy(e); \
    (void)cudaGetLastError();           \
  } while (0)
  const int fit = nf_blocks_per_sm<T>();
  if (fit < 1) return GSP_NO_VALUE;
  const int bps = plan.blocks_per_sm > 0 && plan.blocks_per_sm < fit ? plan.blocks_per_sm : fit;
  const int64_t n = g.n;
  gsp_cuda_sssp_stats &stats = rec.stats;
  GSP_TRY(graph_copy_stream(&c.cs, dg));
  for (int k = 0; k < E_COUNT; k++) GSP_CUDA_TRY(cudaEventCreate(&c.ev[k]));
  GSP_TRY(nf_setup<T>(c, ws, plan));
  double t_launch = 0;
  GSP_TRY(nf_launch<T>(c, bps, out->parent != NULL, &t_launch));
  /* meanwhile the host threads map the result pages (new vectors): the
   * page faults leave the critical path */
  const double t_touch = host_seconds();
  gsp__sssp_touch(out, type_of<T>(), n, gsp__threads());
  stats.touch_s += host_seconds() - t_touch;
  GSP_CUDA_TRY(cudaStreamWaitEvent(c.cs, c.ev[E_COUNTED], 0));
  NfCtl ctl; /* all but tcnt, which the parent pass may be changing */
  GSP_CUDA_TRY(cudaMemcpyAsync(&ctl, c.a.w.ctl, offsetof(NfCtl, tcnt), cudaMemcpyDeviceToHost, c.cs));
  GSP_CUDA_TRY(cudaStreamSynchronize(c.cs));
  const double t_out = host_seconds();
  stats.launch_s += t_launch - rec.t_entry, stats.wait_s += t_out - t_launch;
  stats.steps += ctl.steps;
  stats.expanded += (int64_t)ctl.expanded;
  stats.chain = c.a.chain, stats.blocks = sm_count() * bps;
  int64_t cnt = 0;
  GSP_TRY(nf_results<T>(c, out, ctl, &cnt));
  GSP_TRY(nf_times(stats, c.ev, out->parent != NULL));
  *nvals = cnt;
  stats.out_s += host_seconds() - t_out;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
} // namespace

size_t nf_workspace_bytes(int64_t n, int64_t m) {
  return nf_layout(n, m).total;
}

template <class T>
gsp_info nearfar(const gsp__sssp_sink *out, int64_t *nvals, const DevGraph &g, struct gsp_dev_graph *dg, void *ws,
                 const int32_t *src, int32_t nsrc, T lim, const gsp_cuda_sssp_plan &plan, CallRecord &rec) {
  return nf_run<T>(out, nvals, g, dg, ws, src, nsrc, lim, plan, rec);
}

#define GSP_CU_NF_(T)                                                                                               \
  template gsp_info nearfar<T>(const gsp__sssp_sink *, int64_t *, const DevGraph &, struct gsp_dev_graph *, void *, \
                               const int32_t *, int32_t, T, const gsp_cuda_sssp_plan &, CallRecord &);
GSP_CU_NF_(int32_t)
GSP_CU_NF_(int64_t)
GSP_CU_NF_(float)
GSP_CU_NF_(double)
#undef GSP_CU_NF_

} // namespace gsp_sssp_cu
