/*
 * The closure as one persistent kernel over a queue of tile items
 * (gsp_cuda_fw_queue.h): as many blocks as fit on the GPU at once
 * (a cooperative launch, so all of them are resident), each taking the next
 * item, waiting for its counters, computing it with the kernels' own tile
 * code (gemm_tile, diag_block) and signalling. Included by gsp_cuda_fw.cuh
 * after the kernels and FwWork.
 */
#ifndef GSP_CUDA_FW_QUEUE_CUH
#define GSP_CUDA_FW_QUEUE_CUH

#include <vector>

namespace gspcu {

/* Whether a policy has the queue: its product tiles are FWB square (4-byte
 * elements) and its diagonal a block of GT threads. */
template <class P> constexpr bool has_fw_queue() {
  return Shape<P>::BN == FWB && diag_threads<diag_tq<P>()>() == GT;
}

__device__ __forceinline__ int ld_acquire(const int *p) {
  int v;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void add_release(int *p) {
  asm volatile("red.release.gpu.global.add.s32 [%0], 1;" ::"l"(p) : "memory");
}
__device__ __forceinline__ uint64_t global_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
/* Until *p >= target. A wait the queue never satisfies (a broken table)
 * traps after 10 s, an error for the caller instead of a hung device. */
__device__ __forceinline__ void wait_for(const int *p, int target) {
  const uint64_t t0 = global_ns();
  while (ld_acquire(p) < target) {
    __nanosleep(32);
    if (global_ns() - t0 > 10000000000ull) __trap();
  }
}

/* ctr: fwq::counters(nb) counters, then the queue's head; all zero. */
template <class P>
__global__ void __launch_bounds__(GT, 2)
    k_fw_queue(typename P::TC *__restrict__ D, int64_t ld, FwWork<typename P::TA> w, const uint32_t *__restrict__ items,
               int count, int *ctr, int nb) {
  if constexpr (has_fw_queue<P>()) {
    typedef typename P::TC TC;
    typedef typename P::TA TA;
    __shared__ __align__(16) TC rowk[2][FWB], colk[2][FWB];
    __shared__ int taken;
    for (;;) {
      if (threadIdx.x == 0) taken = atomicAdd(ctr + fwq::counters(nb), 1);
      __syncthreads();
      const int k = taken;
      if (k >= count) break;
      const fwq::Item t = fwq::decode(items[k]);
      if (threadIdx.x < fwq::MAX_WAITS) { /* the waits side by side, one a thread */
        fwq::Wait wt[fwq::MAX_WAITS];
        if ((int)threadIdx.x < fwq::waits(t, nb, wt)) wait_for(ctr + wt[threadIdx.x].c, wt[threadIdx.x].target);
      }
      __syncthreads();
      const int64_t k0 = (int64_t)t.r * FWB, xs = fwq::writes_x(t);
      if (t.kind == fwq::DIAG) {
        diag_block<P, diag_tq<P>()>(D, ld, k0, w.X(t.r), rowk, colk, [] {});
      } else {
        /* block (i, j) ⊕= A' ⊗ D[r][j]: A' is X(r) for the panels (ROW: i
         * = r, COL: j = r), T(r) for the rest; COL stores its block
         * transposed into T(r), an item leaving block (i, r + 1) into X(r +
         * 1): both from column j * FWB on */
        const TA *at = t.kind == fwq::REST ? w.T(t.r) : w.X(t.r);
        TA *xt = t.kind == fwq::COL ? w.T(t.r) : xs >= 0 ? w.X(xs) : nullptr;
        gemm_tile<P, Shape<P>, -1, true>(D, ld, at, ld, D + (size_t)k0 * ld, ld, (int64_t)t.i * FWB, (int64_t)t.j * FWB,
                                         xt, (int64_t)t.j * FWB);
      }
      /* the block's stores, then the signals: a release at GPU scope
       * (cumulative: it covers what the barrier ordered before it) */
      __syncthreads();
      if (threadIdx.x < fwq::MAX_SIGNALS) {
        int s[fwq::MAX_SIGNALS];
        if ((int)threadIdx.x < fwq::signals(t, nb, s)) add_release(ctr + s[threadIdx.x]);
      }
    }
  }
}

/* run_fw's rounds as the queue (has_fw_queue<P>, nb <= fwq::MAX_NB; q
 * with FwQueue::need(nb) bytes): lag_code 0 .. 3 is a lag of 0, half, one
 * or two times the resident blocks (FwForce::lag). */
template <class P>
gsp_info run_fw_queue(typename P::TC *d, int64_t np, const FwWork<typename P::TA> &w, FwQueue *q, int lag_code) {
  typedef typename P::TC TC;
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  int nb = (int)(np / FWB);
  const size_t smem = Shape<P>::smem();
  GSP_CUDA_TRY(cudaFuncSetAttribute(k_fw_queue<P>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  int dev = 0, sms = 0, per_sm = 0;
  GSP_CUDA_TRY(cudaGetDevice(&dev));
  GSP_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  GSP_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_fw_queue<P>, GT, smem));
  const int grid = sms * per_sm;
  const int lag = lag_code == 0 ? 0 : lag_code == 1 ? grid / 2 : lag_code == 2 ? grid : 2 * grid;
  if (q->nb != nb || q->lag != lag) {
    std::vector<uint32_t> h((size_t)nb * nb * nb);
    fwq::build(nb, lag, h.data());
    GSP_CUDA_TRY(cudaMemcpy(q->items, h.data(), h.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
    q->nb = nb, q->lag = lag;
  }
  int *ctr = q->ctr();
  GSP_CUDA_TRY(cudaMemsetAsync(ctr, 0, ((size_t)fwq::counters(nb) + 1) * sizeof(int), 0));
  /* X(0): block column 0 transposed (DIAG(0) then rewrites its own rows) */
  k_transpose<TC><<<dim3(FWB / 32, (unsigned)(np / 32)), dim3(32, 8)>>>((const TC *)d, np, 0, w.X(0));
  GSP_CUDA_LAUNCHED();
  const uint32_t *items = q->items;
  int count = nb * nb * nb;
  FwWork<typename P::TA> wk = w;
  int64_t ld = np;
  void *args[] = {&d, &ld, &wk, &items, &count, &ctr, &nb};
  GSP_CUDA_TRY(cudaLaunchCooperativeKernel((const void *)k_fw_queue<P>, dim3(grid), dim3(GT), args, smem, 0));
#undef GSP_FREE_ALL
  return info;
}

} /* namespace gspcu */

#endif /* GSP_CUDA_FW_QUEUE_CUH */
