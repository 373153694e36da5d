/*
 * The diagonal tile of a Floyd-Warshall round, D[K, K] closed in place
 * (K = k0 .. k0 + FWB - 1), as sequential steps k in K:
 * D[i][j] ⊕= D[i][k] ⊗ D[k][j]. Two kernels, chosen per policy and round by
 * diag_on_cluster (gsp_cuda_fw.cuh):
 *
 *  k_diag          one block on one SM: (FWB/TQ)^2 threads, each holding
 *                  TQ x TQ entries in registers;
 *  k_diag_cluster  a cluster of DC blocks on DC SMs, block c holding the
 *                  strip of rows c*DS .. c*DS + DS - 1 (DT x DT a thread).
 *
 * Step k needs row k and column k. Before step k the threads that hold them
 * publish them in shared memory (double-buffered: one barrier a step).
 * Entry (k, k) is published as the semiring zero in both, which every
 * policy's fma absorbs (fma(c, zero, b) = c), so row and column k stay as
 * they are at step k: they change only when D[k][k] is below the semiring
 * one (a negative cycle, MAX_PLUS: positive), and then D[k][k] is already
 * and stays negative, so the cycle is still reported.
 *
 * The cluster runs the steps in DC phases of DS. In phase p block p, which
 * holds rows p*DS.., runs them first, with row k from its own registers as
 * k_diag does; it then stores its strip, closed over those DS vertices, into
 * the shared memory of every other block (distributed shared memory), and
 * after a cluster barrier the others run the phase's steps with row k from
 * that copy. Taking row k as it is after the phase rather than at step k
 * only adds paths through the phase's vertices: the same closure, since the
 * algebra is idempotent. Per block a step is DS x FWB tasks instead of FWB^2,
 * but the dependent chain is about 2 x FWB steps and DC + 1 cluster
 * barriers: it pays where a task costs several instructions (an H100 closes
 * an fp64 tile alone in 99 us against 119, int64 177 against 229), not where
 * the steps wait on the barrier and the shared memory (fp32 38 against 35,
 * DPX int32 34 against 30; bench_closure_gpu --diag).
 */
#ifndef GSP_CUDA_FW_DIAG_CUH
#define GSP_CUDA_FW_DIAG_CUH

#include <cooperative_groups.h>

#include <type_traits>

#include "gsp_cuda_internal.cuh"
#include "gsp_cuda_fw_pdl.cuh"
#include "gsp_cuda_fw_vec.cuh"

namespace gspcu {

/* k_diag: each thread holds TQ x TQ entries of the diagonal tile, so the
 * block has (FWB / TQ)^2 threads. */
template <int TQ> constexpr int diag_threads() {
  static_assert(FWB % TQ == 0 && TQ % 2 == 0, "whole thread tiles; an even count for the double buffer");
  return (FWB / TQ) * (FWB / TQ);
}
/* Whether a task of the policy is several integer instructions: int64's
 * add and min, int32's saturating add (not DPX's one instruction). */
template <class P> constexpr bool diag_multi_instruction() {
  typedef typename P::TC TC;
  return std::is_same<TC, int64_t>::value ||
         (std::is_same<TC, int32_t>::value && !std::is_same<P, PolMinPlusU32>::value &&
          (P::sr == GSP_MIN_PLUS || P::sr == GSP_MAX_PLUS));
}
/* k_diag's thread tile TQ and its registers for a policy, from
 * bench_closure_gpu --diag on an H100 (us a tile):
 *
 *                 TQ = 8     TQ = 8, <= 128 registers    TQ = 4
 *   fp32 min+       35         31                          39
 *   fp32 max-min    45         40                          48
 *   DPX int32       29         25                          35
 *   fp64           119        212                         128
 *   int64          276        407                         229
 *   sat. int32     147        151                         113
 *
 * TQ = 8 (256 threads) has a quarter of the warps at each barrier for the
 * same tasks a step; a multi-instruction task runs out of registers with
 * it. A minimum of two blocks an SM (diag_min_blocks) holds it to 128
 * registers a thread: nvcc then schedules the one-instruction steps faster
 * than with the 110 it picks unbounded (first column), and the block fits
 * beside a product block (128 x 256 registers) where the other tiles fill
 * the SMs (fp32 n = 4096 was 2 % slower with one that did not). */
template <class P> constexpr int diag_tq() {
  return diag_multi_instruction<P>() ? 4 : 8;
}
template <class P, int TQ> constexpr int diag_min_blocks() {
  return TQ == 8 && sizeof(typename P::TC) == 4 && !diag_multi_instruction<P>() ? 2 : 1;
}

/* The cluster's shape: DC blocks, a strip of DS rows each, DT x DT entries
 * a thread, one warp a row of threads. */
constexpr int DC = 4;
constexpr int DS = FWB / DC;
constexpr int DT = 4;
constexpr int DX = FWB / DT; /* threads across a strip */
constexpr int DC_THREADS = DX * (DS / DT);
static_assert(DX == 32 && DS % DT == 0, "a warp per row of threads");

/* A block of either kernel: it holds rows R * rank .. R * rank + R - 1 of
 * the tile; its thread (ty, tx) holds TQ x TQ of them from row ty * TQ and
 * column tx * TQ. Steps go in phases of R / TQ quads (4-step groups for TQ
 * = 4), phase p owned by block p (k_diag: R = FWB, one phase, its own). */
template <class P, int TQ, int R> struct DiagBlock {
  typedef typename P::TC TC;
  static constexpr int QP = R / TQ; /* step quads a phase */
  int rank, ty, tx;
  TC (*rowk)[FWB]; /* [2]: row k, published by this block (own phases) */
  TC (*colk)[R];   /* [2]: column k of this block's rows */
  const TC *strip; /* the phase owner's rows as pushed (other phases) */
  __device__ __forceinline__ bool own(int kq) const {
    return R == FWB || kq / QP == rank;
  }
};

/* Before step k = kq * TQ + Q: the threads holding row k (in an own phase)
 * and column k publish them. */
template <class P, int TQ, int R, int Q>
__device__ __forceinline__ void diag_publish(const typename P::TC (&c)[TQ][TQ], int kq, const DiagBlock<P, TQ, R> &b) {
  typedef typename P::TC TC;
  const int gty = b.rank * (R / TQ) + b.ty; /* the thread's row quad in the tile */
  TC v[TQ];
  if (b.own(kq) && gty == kq) {
#pragma unroll
    for (int e = 0; e < TQ; e++) v[e] = b.tx == kq && e == Q ? P::zero() : c[Q][e];
    stv<TQ, 0>(b.rowk[Q & 1] + b.tx * TQ, v);
  }
  if (b.tx == kq) {
#pragma unroll
    for (int r = 0; r < TQ; r++) v[r] = gty == kq && r == Q ? P::zero() : c[r][Q];
    stv<TQ, 0>(b.colk[Q & 1] + b.ty * TQ, v);
  }
}

/* Steps k = kq*TQ + Q .. kq*TQ + TQ - 1, each publishing row and column
 * k + 1 for the next. */
template <class P, int TQ, int R, int Q>
__device__ __forceinline__ void diag_steps(typename P::TC (&c)[TQ][TQ], int kq, const DiagBlock<P, TQ, R> &b) {
  typedef typename P::TC TC;
  __syncthreads();
  TC x[TQ], y[TQ];
  ldv<TQ, 0>(x, b.colk[Q & 1] + b.ty * TQ);
  if (b.own(kq)) {
    ldv<TQ, 0>(y, b.rowk[Q & 1] + b.tx * TQ);
  } else {
    ldv<TQ, 0>(y, b.strip + (size_t)((kq % (R / TQ)) * TQ + Q) * FWB + b.tx * TQ);
    if (b.tx == kq) y[Q] = P::zero();
  }
#pragma unroll
  for (int r = 0; r < TQ; r++)
#pragma unroll
    for (int e = 0; e < TQ; e++) c[r][e] = P::fma(c[r][e], x[r], y[e]);
  constexpr int QN = (Q + 1) % TQ;
  const int kn = Q + 1 < TQ ? kq : kq + 1;
  if (kn < FWB / TQ) diag_publish<P, TQ, R, QN>(c, kn, b);
  if constexpr (Q + 1 < TQ) diag_steps<P, TQ, R, Q + 1>(c, kq, b);
}

/* Both kernels store the closed tile into D and, transposed, into Xt[k][k0 +
 * i] = D[k0 + i][k0 + k] (row stride ld; none where null): its rows of the
 * workspace X of the round's panels (FwWork, gsp_cuda_fw.cuh). c: a
 * thread's entries, rows i0 .. of D, columns kc .. of the tile. */
template <class TC, int R, int C>
__device__ __forceinline__ void diag_store_transposed(TC *Xt, int64_t ld, int64_t i0, int kc, const TC (&c)[R][C]) {
#pragma unroll
  for (int e = 0; e < C; e++) {
    TC v[R];
#pragma unroll
    for (int r = 0; r < R; r++) v[r] = c[r][e];
    stv<R, 0>(Xt + (size_t)(kc + e) * ld + i0, v);
  }
}

/* Block b (k_diag's, or k_rest's closure block: side_in_rest) closes
 * the diagonal tile at k0 (tile = D + k0 * ld + k0); trigger:
 * pdl_trigger before the stores. */
template <class P, int TQ>
__device__ __forceinline__ void diag_close(const DiagBlock<P, TQ, FWB> &b, typename P::TC *tile, int64_t ld, int64_t k0,
                                           typename P::TC *Xt, bool trigger) {
  typedef typename P::TC TC;
  constexpr int S = FWB / TQ;
  TC c[TQ][TQ];
#pragma unroll
  for (int r = 0; r < TQ; r++) ldv<TQ, 0>(c[r], tile + (size_t)(b.ty * TQ + r) * ld + b.tx * TQ);
  diag_publish<P, TQ, FWB, 0>(c, 0, b);
#pragma unroll 1
  for (int kq = 0; kq < S; kq++) diag_steps<P, TQ, FWB, 0>(c, kq, b);
  if (trigger) pdl_trigger();
#pragma unroll
  for (int r = 0; r < TQ; r++) stv<TQ, 0>(tile + (size_t)(b.ty * TQ + r) * ld + b.tx * TQ, c[r]);
  if (Xt) diag_store_transposed(Xt, ld, k0 + b.ty * TQ, b.tx * TQ, c);
}

template <class P, int TQ = diag_tq<P>(), int MB = diag_min_blocks<P, TQ>()>
__global__ void __launch_bounds__(diag_threads<TQ>(), MB)
    k_diag(typename P::TC *D, int64_t ld, int64_t k0, typename P::TC *Xt, bool early, const int *ready, int want) {
  typedef typename P::TC TC;
  constexpr int S = FWB / TQ;
  __shared__ __align__(16) TC rowk[2][FWB], colk[2][FWB];
  const DiagBlock<P, TQ, FWB> b{0, (int)threadIdx.x / S, (int)threadIdx.x % S, rowk, colk, nullptr};
  TC *tile = D + (size_t)k0 * ld + k0;
  if (early) pdl_trigger();
  pdl_wait();
  if (ready) wait_count(ready, want); /* the tile's update by the round before, in its k_rest */
  diag_close<P, TQ>(b, tile, ld, k0, Xt, !early);
}

/* k_diag_cluster's shared memory: the phase owner's strip as pushed,
 * double-buffered by phase (the owner of phase p + 1 may push while a block
 * still reads phase p's copy), and the published row and column. */
template <class TC> struct DiagClusterSmem {
  TC strip[2][DS][FWB];
  TC rowk[2][FWB];
  TC colk[2][DS];
};
/* Dynamic shared memory of a cluster block: more than half of an SM's, so
 * that no two blocks of the cluster share an SM (which would serialise them
 * again), yet a block fits beside one product block (k_rest: 72-96 KB). */
template <class TC> constexpr size_t diag_cluster_smem() {
  return sizeof(DiagClusterSmem<TC>) > (size_t)116 << 10 ? sizeof(DiagClusterSmem<TC>) : (size_t)116 << 10;
}

template <class P>
__global__ void __launch_bounds__(DC_THREADS)
    k_diag_cluster(typename P::TC *D, int64_t ld, int64_t k0, typename P::TC *Xt, bool early) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  __trap(); /* clusters need sm_90; diag_on_cluster never picks this there */
#else
  namespace cg = cooperative_groups;
  typedef typename P::TC TC;
  constexpr int QP = DS / DT;
  extern __shared__ __align__(16) unsigned char diag_smem_raw[];
  DiagClusterSmem<TC> &sm = *reinterpret_cast<DiagClusterSmem<TC> *>(diag_smem_raw);
  cg::cluster_group cl = cg::this_cluster();
  DiagBlock<P, DT, DS> b{(int)cl.block_rank(), (int)threadIdx.x / DX, (int)threadIdx.x % DX, sm.rowk, sm.colk, nullptr};
  TC c[DT][DT];
  TC *strip = D + (size_t)(k0 + b.rank * DS) * ld + k0;
  if (early) pdl_trigger();
  pdl_wait();
#pragma unroll
  for (int r = 0; r < DT; r++) ldv<DT, 0>(c[r], strip + (size_t)(b.ty * DT + r) * ld + b.tx * DT);
  /* no block's shared memory is written before every block has started:
   * this barrier's wait comes before the first push */
  (void)cl.barrier_arrive();
  diag_publish<P, DT, DS, 0>(c, 0, b);
#pragma unroll 1
  for (int p = 0; p < DC; p++) {
    const bool own = p == b.rank;
    if (own) {
#pragma unroll 1
      for (int kq = p * QP; kq < (p + 1) * QP; kq++) diag_steps<P, DT, DS, 0>(c, kq, b);
    }
    if (p == 0) cl.barrier_wait();
    if (own) {
#pragma unroll 1
      for (int o = 1; o < DC; o++) {
        TC *dst = cl.map_shared_rank(&sm.strip[p & 1][0][0], (b.rank + o) % DC);
#pragma unroll
        for (int r = 0; r < DT; r++) stv<DT, 0>(dst + (size_t)(b.ty * DT + r) * FWB + b.tx * DT, c[r]);
      }
    }
    /* the owner's strip has landed everywhere (release / acquire), and
     * every block is done with the copy of phase p - 1 */
    (void)cl.barrier_arrive();
    cl.barrier_wait();
    if (!own) {
      b.strip = &sm.strip[p & 1][0][0];
#pragma unroll 1
      for (int kq = p * QP; kq < (p + 1) * QP; kq++) diag_steps<P, DT, DS, 0>(c, kq, b);
    }
  }
  if (!early) pdl_trigger();
#pragma unroll
  for (int r = 0; r < DT; r++) stv<DT, 0>(strip + (size_t)(b.ty * DT + r) * ld + b.tx * DT, c[r]);
  if (Xt) diag_store_transposed(Xt, ld, k0 + b.rank * DS + b.ty * DT, b.tx * DT, c);
#endif
}

/* Once per closure: k_diag_cluster's shared memory above the default. */
template <class P> cudaError_t diag_cluster_prepare() {
  return cudaFuncSetAttribute(k_diag_cluster<P>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              (int)diag_cluster_smem<typename P::TC>());
}

/* The diagonal tile of D at (k0, k0) on stream q: one block, or a cluster
 * (after diag_cluster_prepare); pdl as for launch_pdl. early: the kernel
 * after it may launch as it starts (a programmatic dependent that needs the
 * closed tile only at its end: prepare_round), else as it stores the
 * tile. ready (one block only): it first waits until *ready >= want
 * (stripe_in_rest). */
template <class P>
cudaError_t launch_diag(typename P::TC *D, int64_t ld, int64_t k0, typename P::TC *Xt, cudaStream_t q, bool cluster,
                        bool pdl, bool early = false, const int *ready = nullptr, int want = 0) {
  if (!cluster)
    return launch_pdl(k_diag<P>, dim3(1), dim3(diag_threads<diag_tq<P>()>()), 0, q, pdl, D, ld, k0, Xt, early, ready,
                      want);
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute at[2];
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = DC;
  at[0].val.clusterDim.y = 1;
  at[0].val.clusterDim.z = 1;
  at[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at[1].val.programmaticStreamSerializationAllowed = 1;
  cfg.gridDim = dim3(DC);
  cfg.blockDim = dim3(DC_THREADS);
  cfg.dynamicSmemBytes = diag_cluster_smem<typename P::TC>();
  cfg.stream = q;
  cfg.attrs = at;
  cfg.numAttrs = pdl ? 2 : 1;
  return cudaLaunchKernelEx(&cfg, k_diag_cluster<P>, D, ld, k0, Xt, early);
}

} /* namespace gspcu */

#endif /* GSP_CUDA_FW_DIAG_CUH */
