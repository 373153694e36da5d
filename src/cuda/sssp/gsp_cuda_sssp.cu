/*
 * Single- and nearest-source shortest paths on the GPU (gateway
 * gsp_cuda_sssp): Harish & Narayanan's relaxation, DA2CF and
 * delta-stepping, then the parent tree (gsp_cuda_sssp_tree.cu).
 *
 * Frontiers are vertex queues filled with warp-aggregated appends and
 * deduplicated by byte flags. Relaxation is push (a group of G threads per
 * frontier vertex walks its out-arcs; atomicMin on distance keys) or, when
 * the frontier is large, pull as Martin et al.'s relax_U (a group per
 * vertex scans its in-arcs from frontier vertices and needs no atomics).
 * G is 32 on dense graphs, 4 on sparse ones.
 */
#include <math.h>
#include <stdlib.h>

#include <cooperative_groups/reduce.h>
#include <chrono>
#include <utility>

#include "gsp_cuda_sssp.cuh"

namespace gsp_sssp_cu {

/* Pull when the frontier holds more than 1/PULL_DIV of the vertices. */
#define GSP_CU_PULL_DIV 16

template <class X> struct MinOp {
  __device__ __forceinline__ X operator()(X a, X b) const {
    return b < a ? b : a;
  }
};

/* ---- shared kernels ---- */

/* d[v] = key of +inf; flags cleared by cudaMemset elsewhere. */
template <class T>
__global__ void seed(typename Key<T>::K *d, typename Key<T>::K *U, const int32_t *S, int32_t ns, uint8_t *flag) {
  for (int32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < ns; k += gridDim.x * blockDim.x) {
    d[S[k]] = Key<T>::enc((T)0);
    if (U) U[S[k]] = Key<T>::enc((T)0);
    if (flag) flag[S[k]] = 1;
  }
}

__global__ void set_flags(uint8_t *flag, const int32_t *q, int32_t nq, uint8_t value) {
  for (int32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < nq; k += gridDim.x * blockDim.x) flag[q[k]] = value;
}

/* ---- Harish ---- */

/* Pull (Martin's relax_U), for Harish and DA2CF: every vertex not in skip
 * (NULL: none) takes the best offer of its frontier in-neighbours into tgt
 * (Harish: U; DA2CF: d itself, whose frontier tails are settled, final);
 * only its own group writes tgt[v], and a vertex that improves is queued
 * once (mark). */
template <class T, int G>
__global__ void pull_relax(const DevGraph g, const typename Key<T>::K *d, typename Key<T>::K *tgt, const uint8_t *skip,
                           const uint8_t *inF, uint8_t *mark, int32_t *Q, int32_t *qcnt, T lim) {
  typedef Key<T> KT;
  const T *w = (const T *)g.rw;
  cg::thread_block_tile<G> tile = cg::tiled_partition<G>(cg::this_thread_block());
  const int lane = tile.thread_rank();
  for (int64_t v = group_id<G>(); v < g.n; v += group_stride<G>()) {
    if (skip && skip[v]) continue; /* uniform over the tile */
    T best = KT::inf();
    for (int64_t e = g.roff[v] + lane; e < g.roff[v + 1]; e += G) {
      const int32_t u = g.rcol[e];
      if (!inF[u]) continue;
      const T c = KT::add(KT::dec(d[u]), w[e]);
      best = c < best ? c : best;
    }
    best = cg::reduce(tile, best, MinOp<T>());
    if (lane == 0 && best <= lim) {
      const typename KT::K key = KT::enc(best);
      if (key < tgt[v]) {
        tgt[v] = key;
        if (claim(mark, (int32_t)v)) qpush(Q, qcnt, (int32_t)v);
      }
    }
  }
}

/* Commit U to d for the touched vertices (the next frontier). */
template <class K> __global__ void harish_commit(K *d, const K *U, const int32_t *Tq, int32_t nt, uint8_t *touched) {
  for (int32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < nt; k += gridDim.x * blockDim.x) {
    const int32_t v = Tq[k];
    touched[v] = 0;
    d[v] = U[v];
  }
}

/* ---- DA2CF ---- */

/* Lightest out-arc and in-arc of every vertex (keys; +inf when none). */
template <class T, int G>
__global__ void min_arcs(const DevGraph g, typename Key<T>::K *minout, typename Key<T>::K *minin) {
  typedef Key<T> KT;
  cg::thread_block_tile<G> tile = cg::tiled_partition<G>(cg::this_thread_block());
  const int lane = tile.thread_rank();
  const T *w = (const T *)g.w, *rw = (const T *)g.rw;
  for (int64_t v = group_id<G>(); v < g.n; v += group_stride<G>()) {
    T mo = KT::inf(), mi = KT::inf();
    for (int64_t e = g.off[v] + lane; e < g.off[v + 1]; e += G) mo = w[e] < mo ? w[e] : mo;
    for (int64_t e = g.roff[v] + lane; e < g.roff[v + 1]; e += G) mi = rw[e] < mi ? rw[e] : mi;
    mo = cg::reduce(tile, mo, MinOp<T>());
    mi = cg::reduce(tile, mi, MinOp<T>());
    if (lane == 0) minout[v] = KT::enc(mo), minin[v] = KT::enc(mi);
  }
}

template <class T, int G>
__global__ void da2cf_push(const DevGraph g, typename Key<T>::K *d, const uint8_t *settled, uint8_t *open,
                           const int32_t *F, int32_t nf, int32_t *O, int32_t *ocnt, T lim) {
  typedef Key<T> KT;
  const T *w = (const T *)g.w;
  frontier_arcs<T, G>(g, d, F, nf, [&](int32_t u, T du, int64_t e) { /* du: u is settled, final */
                                                                     (void)u;
                                                                     const int32_t v = g.col[e];
                                                                     if (settled[v]) return;
                                                                     const T nd = KT::add(du, w[e]);
                                                                     if (!(nd <= lim)) return;
                                                                     const typename KT::K key = KT::enc(nd);
                                                                     if (key < atomicMin(&d[v], key) && claim(open, v))
                                                                       qpush(O, ocnt, v);
  });
}

/* red[0] = min d over the open vertices, red[1] = min (d + minout). */
template <class T>
__global__ void da2cf_reduce(const typename Key<T>::K *d, const typename Key<T>::K *minout, const int32_t *O,
                             int32_t no, typename Key<T>::K *red) {
  typedef Key<T> KT;
  typedef typename KT::K K;
  K a = KT::enc(KT::inf()), b = a;
  for (int32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < no; k += gridDim.x * blockDim.x) {
    const int32_t v = O[k];
    const K dv = d[v], o = KT::enc(KT::add(KT::dec(dv), KT::dec(minout[v])));
    a = dv < a ? dv : a;
    b = o < b ? o : b;
  }
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  a = cg::reduce(warp, a, MinOp<K>());
  b = cg::reduce(warp, b, MinOp<K>());
  if (warp.thread_rank() == 0) {
    atomicMin(&red[0], a);
    atomicMin(&red[1], b);
  }
}

/* Settle the open vertices that pass either Crauser threshold. */
template <class T>
__global__ void da2cf_update(const typename Key<T>::K *d, const typename Key<T>::K *minin, uint8_t *settled,
                             uint8_t *open, const int32_t *O, int32_t no, const typename Key<T>::K *red, int32_t *F,
                             int32_t *fcnt, int32_t *O2, int32_t *o2cnt) {
  typedef Key<T> KT;
  const typename KT::K kout = red[1];
  const T dmin = KT::dec(red[0]);
  for (int32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < no; k += gridDim.x * blockDim.x) {
    const int32_t v = O[k];
    if (d[v] <= kout || KT::dec(d[v]) <= KT::add(dmin, KT::dec(minin[v]))) {
      settled[v] = 1;
      open[v] = 0;
      qpush(F, fcnt, v);
    } else {
      qpush(O2, o2cnt, v);
    }
  }
}

/* ---- delta-stepping (near-far form with light and heavy arcs) ---- */

/* The vertices of F relax their light (heavy) arcs. A vertex whose
 * distance drops goes to the next near list when it falls before the end
 * of the current bucket, else to the far pile. In light mode each vertex
 * clears its current-list flag and joins R (heavy arcs later). */
template <class T, int G>
__global__ void delta_relax(const DevGraph g, typename Key<T>::K *d, const int32_t *F, int32_t nf, bool light,
                            uint8_t *fcur, uint8_t *inR, int32_t *R, int32_t *cnt, uint8_t *fnext, int32_t *N2,
                            uint8_t *inFar, int32_t *Far, double Tend, double delta, T lim) {
  typedef Key<T> KT;
  const T *w = (const T *)g.w;
  const int lane = threadIdx.x % G;
  for (int64_t k = group_id<G>(); k < nf; k += group_stride<G>()) {
    const int32_t u = F[k];
    if (lane == 0) {
      if (light) {
        fcur[u] = 0;
        if (claim(inR, u)) qpush(R, &cnt[2], u);
      } else {
        inR[u] = 0;
      }
    }
    const T du = KT::dec(d[u]);
    for (int64_t e = g.off[u] + lane; e < g.off[u + 1]; e += G) {
      const T we = w[e];
      if (((double)we <= delta) != light) continue;
      const T nd = KT::add(du, we);
      if (!(nd <= lim)) continue;
      const int32_t v = g.col[e];
      const typename KT::K key = KT::enc(nd);
      if (!(key < atomicMin(&d[v], key))) continue;
      if ((double)nd < Tend) {
        if (claim(fnext, v)) qpush(N2, &cnt[0], v);
      } else if (claim(inFar, v)) {
        qpush(Far, &cnt[1], v);
      }
    }
  }
}

/* red = min key over far entries still at or beyond Tend (the rest are
 * stale: their vertices were relaxed in an earlier bucket). */
template <class T>
__global__ void far_min(const typename Key<T>::K *d, const int32_t *Far, int32_t nfar, double Tend,
                        typename Key<T>::K *red) {
  typedef Key<T> KT;
  typedef typename KT::K K;
  K a = KT::enc(KT::inf());
  for (int32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < nfar; k += gridDim.x * blockDim.x) {
    const K dv = d[Far[k]];
    if ((double)KT::dec(dv) >= Tend && dv < a) a = dv;
  }
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  a = cg::reduce(warp, a, MinOp<K>());
  if (warp.thread_rank() == 0) atomicMin(red, a);
}

/* Split the far pile at the new bucket end: stale entries leave, entries
 * before Tnew join the (current) near list, the rest stay. */
template <class T>
__global__ void far_split(const typename Key<T>::K *d, const int32_t *Far, int32_t nfar, double Told, double Tnew,
                          uint8_t *inFar, uint8_t *fcur, int32_t *N, int32_t *cnt, int32_t *Far2) {
  typedef Key<T> KT;
  for (int32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < nfar; k += gridDim.x * blockDim.x) {
    const int32_t v = Far[k];
    const double dv = (double)KT::dec(d[v]);
    if (dv < Told) {
      inFar[v] = 0;
    } else if (dv < Tnew) {
      inFar[v] = 0;
      if (claim(fcur, v)) qpush(N, &cnt[0], v);
    } else {
      qpush(Far2, &cnt[3], v);
    }
  }
}

/* ---- drivers ---- */

template <class T> struct Run {
  typedef Key<T> KT;
  typedef typename KT::K K;
  const DevGraph &g;
  int32_t n;
  bool wide; /* G = 32 rather than 4 */
  T lim;
  Run(const DevGraph &g_, T lim_) : g(g_), n(g_.n), wide(g_.m >= 12 * (int64_t)(g_.n > 0 ? g_.n : 1)), lim(lim_) {}
  unsigned gblocks(int64_t items) const {
    return blocks_for(items * (wide ? 32 : 4));
  }

  gsp_info harish(K *d, const int32_t *S, int32_t ns);
  gsp_info da2cf(K *d, const int32_t *S, int32_t ns);
  gsp_info delta(K *d, const int32_t *S, int32_t ns, double delta);
};

#define GSP_CU_LAUNCH_G(kernel, items, ...)                        \
  do {                                                             \
    if (wide) kernel<T, 32><<<gblocks(items), 256>>>(__VA_ARGS__); \
    else kernel<T, 4><<<gblocks(items), 256>>>(__VA_ARGS__);       \
    GSP_CUDA_LAUNCHED();                                           \
  } while (0)

template <class T> gsp_info Run<T>::harish(K *d, const int32_t *S, int32_t ns) {
  gsp_info info = GSP_SUCCESS;
  K *U = NULL;
  int32_t *F = NULL, *Tq = NULL, *cnt = NULL;
  uint8_t *touched = NULL, *inF = NULL;
#define GSP_FREE_ALL \
  (cudaFree(U), cudaFree(F), cudaFree(Tq), cudaFree(cnt), cudaFree(touched), cudaFree(inF), (void)cudaGetLastError())
  GSP_CU_MALLOC(U, n, sizeof *U);
  GSP_CU_MALLOC(F, n, sizeof *F);
  GSP_CU_MALLOC(Tq, n, sizeof *Tq);
  GSP_CU_MALLOC(cnt, 1, sizeof *cnt);
  GSP_CU_MALLOC(touched, n, 1);
  GSP_CU_MALLOC(inF, n, 1);
  GSP_CUDA_TRY(cudaMemset(touched, 0, (size_t)n + 16));
  GSP_CUDA_TRY(cudaMemset(inF, 0, (size_t)n + 16));
  GSP_TRY(fill<K>(d, n, KT::enc(KT::inf())));
  GSP_TRY(fill<K>(U, n, KT::enc(KT::inf())));
  GSP_CUDA_TRY(cudaMemcpy(F, S, (size_t)ns * sizeof *F, cudaMemcpyHostToDevice));
  seed<T><<<blocks_for(ns), 256>>>(d, U, F, ns, NULL);
  GSP_CUDA_LAUNCHED();
  int32_t nf = ns;
  while (nf > 0) {
    GSP_CUDA_TRY(cudaMemset(cnt, 0, sizeof *cnt));
    if ((int64_t)nf * GSP_CU_PULL_DIV > n) {
      set_flags<<<blocks_for(nf), 256>>>(inF, F, nf, 1);
      GSP_CUDA_LAUNCHED();
      GSP_CU_LAUNCH_G(pull_relax, n, g, d, U, (const uint8_t *)NULL, inF, touched, Tq, cnt, lim);
      set_flags<<<blocks_for(nf), 256>>>(inF, F, nf, 0);
      GSP_CUDA_LAUNCHED();
    } else {
      GSP_CU_LAUNCH_G(push_relax, nf, g, d, U, F, nf, touched, (int32_t *)NULL, Tq, cnt, lim);
    }
    int32_t nt = 0;
    GSP_TRY(read_count(&nt, cnt));
    if (nt > 0) {
      harish_commit<K><<<blocks_for(nt), 256>>>(d, U, Tq, nt, touched);
      GSP_CUDA_LAUNCHED();
    }
    int32_t *tmp = F;
    F = Tq, Tq = tmp, nf = nt;
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

template <class T> gsp_info Run<T>::da2cf(K *d, const int32_t *S, int32_t ns) {
  gsp_info info = GSP_SUCCESS;
  K *minout = NULL, *minin = NULL, *red = NULL;
  int32_t *F = NULL, *O = NULL, *O2 = NULL, *cnt = NULL;
  uint8_t *settled = NULL, *open = NULL, *inF = NULL;
#define GSP_FREE_ALL                                                                                        \
  (cudaFree(minout), cudaFree(minin), cudaFree(red), cudaFree(F), cudaFree(O), cudaFree(O2), cudaFree(cnt), \
   cudaFree(settled), cudaFree(open), cudaFree(inF), (void)cudaGetLastError())
  GSP_CU_MALLOC(minout, n, sizeof *minout);
  GSP_CU_MALLOC(minin, n, sizeof *minin);
  GSP_CU_MALLOC(red, 2, sizeof *red);
  GSP_CU_MALLOC(F, n, sizeof *F);
  GSP_CU_MALLOC(O, n, sizeof *O);
  GSP_CU_MALLOC(O2, n, sizeof *O2);
  GSP_CU_MALLOC(cnt, 3, sizeof *cnt); /* 0: open appends, 1: settled, 2: still open */
  GSP_CU_MALLOC(settled, n, 1);
  GSP_CU_MALLOC(open, n, 1);
  GSP_CU_MALLOC(inF, n, 1);
  GSP_CUDA_TRY(cudaMemset(settled, 0, (size_t)n + 16));
  GSP_CUDA_TRY(cudaMemset(open, 0, (size_t)n + 16));
  GSP_CUDA_TRY(cudaMemset(inF, 0, (size_t)n + 16));
  GSP_TRY(fill<K>(d, n, KT::enc(KT::inf())));
  GSP_CU_LAUNCH_G(min_arcs, n, g, minout, minin);
  GSP_CUDA_TRY(cudaMemcpy(F, S, (size_t)ns * sizeof *F, cudaMemcpyHostToDevice));
  seed<T><<<blocks_for(ns), 256>>>(d, NULL, F, ns, settled);
  GSP_CUDA_LAUNCHED();
  int32_t nf = ns, no = 0;
  const K kinf = KT::enc(KT::inf());
  const K red_init[2] = {kinf, kinf};
  while (nf > 0) {
    /* relax from the vertices settled last round */
    GSP_CUDA_TRY(cudaMemcpy(cnt, &no, sizeof no, cudaMemcpyHostToDevice));
    if ((int64_t)nf * GSP_CU_PULL_DIV > n) {
      set_flags<<<blocks_for(nf), 256>>>(inF, F, nf, 1);
      GSP_CUDA_LAUNCHED();
      GSP_CU_LAUNCH_G(pull_relax, n, g, d, d, settled, inF, open, O, cnt, lim);
      set_flags<<<blocks_for(nf), 256>>>(inF, F, nf, 0);
      GSP_CUDA_LAUNCHED();
    } else {
      GSP_CU_LAUNCH_G(da2cf_push, nf, g, d, settled, open, F, nf, O, cnt, lim);
    }
    GSP_TRY(read_count(&no, cnt));
    if (no == 0) break;
    /* min-reduction, then settle under the thresholds */
    GSP_CUDA_TRY(cudaMemcpy(red, red_init, sizeof red_init, cudaMemcpyHostToDevice));
    da2cf_reduce<T><<<blocks_for(no), 256>>>(d, minout, O, no, red);
    GSP_CUDA_LAUNCHED();
    GSP_CUDA_TRY(cudaMemset(cnt + 1, 0, 2 * sizeof *cnt));
    da2cf_update<T><<<blocks_for(no), 256>>>(d, minin, settled, open, O, no, red, F, cnt + 1, O2, cnt + 2);
    GSP_CUDA_LAUNCHED();
    int32_t c[2];
    GSP_CUDA_TRY(cudaMemcpy(c, cnt + 1, sizeof c, cudaMemcpyDeviceToHost));
    nf = c[0], no = c[1];
    int32_t *tmp = O;
    O = O2, O2 = tmp;
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

template <class T> gsp_info Run<T>::delta(K *d, const int32_t *S, int32_t ns, double delta) {
  gsp_info info = GSP_SUCCESS;
  int32_t *N = NULL, *N2 = NULL, *Far = NULL, *Far2 = NULL, *R = NULL, *cnt = NULL;
  uint8_t *fcur = NULL, *fnext = NULL, *inFar = NULL, *inR = NULL;
  K *red = NULL;
#define GSP_FREE_ALL                                                                                     \
  (cudaFree(N), cudaFree(N2), cudaFree(Far), cudaFree(Far2), cudaFree(R), cudaFree(cnt), cudaFree(fcur), \
   cudaFree(fnext), cudaFree(inFar), cudaFree(inR), cudaFree(red), (void)cudaGetLastError())
  GSP_CU_MALLOC(N, n, sizeof *N);
  GSP_CU_MALLOC(N2, n, sizeof *N2);
  GSP_CU_MALLOC(Far, n, sizeof *Far);
  GSP_CU_MALLOC(Far2, n, sizeof *Far2);
  GSP_CU_MALLOC(R, n, sizeof *R);
  GSP_CU_MALLOC(cnt, 4, sizeof *cnt); /* 0: near appends, 1: far, 2: R, 3: far split */
  GSP_CU_MALLOC(fcur, n, 1);
  GSP_CU_MALLOC(fnext, n, 1);
  GSP_CU_MALLOC(inFar, n, 1);
  GSP_CU_MALLOC(inR, n, 1);
  GSP_CU_MALLOC(red, 1, sizeof *red);
  for (uint8_t *f : {fcur, fnext, inFar, inR}) GSP_CUDA_TRY(cudaMemset(f, 0, (size_t)n + 16));
  GSP_CUDA_TRY(cudaMemset(cnt, 0, 4 * sizeof *cnt));
  GSP_TRY(fill<K>(d, n, KT::enc(KT::inf())));
  GSP_CUDA_TRY(cudaMemcpy(N, S, (size_t)ns * sizeof *N, cudaMemcpyHostToDevice));
  seed<T><<<blocks_for(ns), 256>>>(d, NULL, N, ns, fcur);
  GSP_CUDA_LAUNCHED();
  const K kinf = KT::enc(KT::inf());
  int32_t c[4] = {0, 0, 0, 0}; /* host copies of cnt */
  int32_t nn = ns;
  double Tend = delta;
  for (;;) {
    while (nn > 0) {
      /* light arcs of the bucket until it stops changing */
      while (nn > 0) {
        c[0] = 0;
        GSP_CUDA_TRY(cudaMemcpy(cnt, c, sizeof c[0], cudaMemcpyHostToDevice));
        GSP_CU_LAUNCH_G(delta_relax, nn, g, d, N, nn, true, fcur, inR, R, cnt, fnext, N2, inFar, Far, Tend, delta, lim);
        GSP_CUDA_TRY(cudaMemcpy(c, cnt, sizeof c, cudaMemcpyDeviceToHost));
        std::swap(N, N2), std::swap(fcur, fnext);
        nn = c[0];
      }
      /* heavy arcs of everything the bucket processed */
      if (c[2] > 0) {
        const int32_t nr = c[2];
        c[0] = 0, c[2] = 0;
        GSP_CUDA_TRY(cudaMemcpy(cnt, c, 3 * sizeof c[0], cudaMemcpyHostToDevice));
        GSP_CU_LAUNCH_G(delta_relax, nr, g, d, R, nr, false, fcur, inR, R, cnt, fnext, N2, inFar, Far, Tend, delta,
                        lim);
        GSP_CUDA_TRY(cudaMemcpy(c, cnt, sizeof c, cudaMemcpyDeviceToHost));
        std::swap(N, N2), std::swap(fcur, fnext);
        nn = c[0];
      }
    }
    const int32_t nfar = c[1];
    if (nfar == 0) break;
    /* next bucket: the least live far distance */
    GSP_CUDA_TRY(cudaMemcpy(red, &kinf, sizeof kinf, cudaMemcpyHostToDevice));
    far_min<T><<<blocks_for(nfar), 256>>>(d, Far, nfar, Tend, red);
    GSP_CUDA_LAUNCHED();
    K kmin;
    GSP_CUDA_TRY(cudaMemcpy(&kmin, red, sizeof kmin, cudaMemcpyDeviceToHost));
    const double Told = Tend;
    if (kmin != kinf) {
      const double fmin = (double)KT::dec(kmin);
      Tend = (floor(fmin / delta) + 1) * delta;
      if (!(Tend > fmin)) Tend = nextafter(fmin, INFINITY);
    }
    c[0] = 0, c[3] = 0;
    GSP_CUDA_TRY(cudaMemcpy(cnt, c, sizeof c, cudaMemcpyHostToDevice));
    far_split<T><<<blocks_for(nfar), 256>>>(d, Far, nfar, Told, Tend, inFar, fcur, N, cnt, Far2);
    GSP_CUDA_LAUNCHED();
    GSP_CUDA_TRY(cudaMemcpy(c, cnt, sizeof c, cudaMemcpyDeviceToHost));
    std::swap(Far, Far2);
    nn = c[0], c[1] = c[3], c[3] = 0;
    GSP_CUDA_TRY(cudaMemcpy(cnt, c, sizeof c, cudaMemcpyHostToDevice));
    if (nn == 0 && c[1] == 0) break;
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

#undef GSP_CU_LAUNCH_G

/* Distances (and parents) of one multi-source run, typed. The graph, the
 * near-far workspace and the staging stay with A for the next call. */
template <class T>
static gsp_info sssp_typed(const gsp__sssp_sink *out, int64_t *nvals, const gsp_cuda_arrays *A, const int32_t *S,
                           int32_t ns, const gsp_cuda_sssp_plan &plan, T lim, CallRecord &rec) {
  gsp_info info = GSP_SUCCESS;
  typedef typename Key<T>::K K;
  K *d = NULL;
#define GSP_FREE_ALL (cudaFree(d), (void)cudaGetLastError())
  const int32_t n = (int32_t)A->nrows;
  const DevGraph *gp = NULL;
  const gsp_sssp_algo algo = plan.algo;
  GSP_TRY(graph_get(&gp, A, algo != GSP_SSSP_DELTA));
  const DevGraph &g = *gp;
  if (algo == GSP_SSSP_DELTA) {
    void *ws = NULL;
    GSP_TRY(graph_workspace(&ws, A, nf_workspace_bytes(n, g.m)));
    info = nearfar<T>(out, nvals, g, (*A->dev)->graph, ws, S, ns, lim, plan, rec);
    if (info != GSP_NO_VALUE) return info; /* else: no cooperative launch, the multi-kernel driver */
    info = GSP_SUCCESS;
  }
  GSP_CU_MALLOC(d, n, sizeof *d);
  Run<T> run(g, lim);
  switch (algo) {
  case GSP_SSSP_HARISH:
    GSP_TRY(run.harish(d, S, ns));
    break;
  case GSP_SSSP_DA2CF:
    GSP_TRY(run.da2cf(d, S, ns));
    break;
  default:
    GSP_TRY(run.delta(d, S, ns, plan.delta));
    break;
  }
  GSP_TRY(finish<T>((T *)out->dist, out->parent, d, g, S, ns, lim, true, rec));
  *nvals = gsp__sssp_gather(out, A->type, &lim, false, 0, n, NULL, NULL, 0, gsp__threads()); /* presence */
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

} // namespace gsp_sssp_cu

using namespace gsp_sssp_cu;

double gsp_sssp_cu::host_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

namespace {
struct SsspRun {
  const gsp__sssp_sink *out;
  int64_t *nvals;
  const gsp_cuda_arrays *A;
  const int32_t *S;
  int32_t ns;
  const gsp_cuda_sssp_plan *plan;
  const void *lim;
  CallRecord *rec;
  template <class T> gsp_info run() const {
    return sssp_typed<T>(out, nvals, A, S, ns, *plan, *(const T *)lim, *rec);
  }
};
} // namespace

gsp_info gsp_cuda_sssp(const struct gsp__sssp_sink *out, int64_t *nvals, const gsp_cuda_arrays *A, const int64_t *src,
                       int64_t nsrc, const gsp_cuda_sssp_plan *plan, const void *lim, gsp_cuda_sssp_stats *stats,
                       bool *taken) {
  gsp_info info = GSP_SUCCESS;
  int32_t *S = NULL;
#define GSP_FREE_ALL gsp__free(S)
  *taken = false;
  const gsp__cu_guard guard(A->dev);
  if (!graph_taken(A)) return GSP_SUCCESS;
  const int64_t n = A->nrows;
  const gsp_sssp_algo algo = plan->algo;
  if (algo == GSP_SSSP_AUTO) return GSP_ERROR(GSP_PANIC, "gsp_cuda_sssp: the caller picks the algorithm");
  if (out->root) return GSP_ERROR(GSP_PANIC, "gsp_cuda_sssp: the caller derives the roots from the parents");
  const size_t ks = A->type == GSP_INT32 || A->type == GSP_FP32 ? 4 : 8;
  /* what is not kept with A yet: graph, near-far workspace (or the per-call
   * arrays of the other drivers) */
  const size_t ws = nf_workspace_bytes(n, A->nvals), held = graph_workspace_bytes(A);
  const size_t need = graph_missing_bytes(A, algo != GSP_SSSP_DELTA) +
                      (algo == GSP_SSSP_DELTA ? (ws > held ? ws : 0) : (size_t)n * (3 * ks + 6 * 4 + 8));
  if (!device_fits(need)) return GSP_SUCCESS; /* the CPU takes it */
  *taken = true;
  const double t_call = host_seconds();
  CallRecord rec;
  memset(&rec, 0, sizeof rec);
  rec.stage_bytes = gsp__cuda_sssp_stage_bytes();
  rec.t_entry = t_call;
  int32_t ns = 0;
  GSP_TRY(distinct_sources(&S, &ns, src, nsrc, n));
  info = by_type(A->type, SsspRun{out, nvals, A, S, ns, plan, lim, &rec});
  rec.stats.call_s = host_seconds() - t_call;
  if (stats) *stats = rec.stats;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
