/*
 * Programmatic dependent launch (sm_90) for the closure's rounds
 * (gsp_cuda_fw.cuh): a kernel launched by launch_pdl may start while the
 * kernel before it in its stream ends, so its launch overlaps that
 * kernel's last blocks. It waits in pdl_wait, before it reads anything,
 * until that kernel has finished and its writes are visible; pdl_trigger
 * (each block of the earlier kernel, before its last stores) lets the
 * launch begin; without it, it begins as the blocks exit. A flowing round
 * (RestFold::flow) triggers as each block starts and does not call
 * pdl_wait: its blocks wait for the blocks they need (signal_round,
 * spin_until). Both are no-ops in a kernel launched without the
 * attribute.
 */
#ifndef GSP_CUDA_FW_PDL_CUH
#define GSP_CUDA_FW_PDL_CUH

#include <cuda_runtime.h>

namespace gspcu {

__device__ __forceinline__ void pdl_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void pdl_trigger() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/* A dependency on some blocks of a grid still running (k_rest's stripe
 * blocks, which the next diagonal tile's closure needs, on another stream
 * or in the same grid; that closure, which the next panels need:
 * RestFold), or of the grid before (a flowing round's tiles: RestFold):
 * each of those blocks calls signal_done (or signal_round) after its last
 * stores, and the waiting block's wait_count(ready, want) returns once
 * `want` of them have (the fence and acquire, the barriers for the block's
 * other threads: the pattern of a cooperative grid's barrier). */
__device__ __forceinline__ void signal_done(int *ready) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(ready, 1);
  }
}
/* *flag = round, which only this block writes, once its stores are visible. */
__device__ __forceinline__ void signal_round(int *flag, int round) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicExch(flag, round);
  }
}
/* This thread's part of a wait: until *ready >= want (acquire). */
__device__ __forceinline__ void spin_until(const int *ready, int want) {
  for (;;) {
    int v;
    asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(ready) : "memory");
    if (v >= want) return;
    __nanosleep(128);
  }
}
__device__ __forceinline__ void wait_count(const int *ready, int want) {
  if (threadIdx.x == 0) spin_until(ready, want);
  __syncthreads();
}

/* k<<<grid, block, smem, q>>>(args...), programmatically dependent on the
 * kernel before it in q where pdl (sm_90 and up: run_fw passes the
 * device's cluster support, which comes with it). */
template <class... Kp, class... Args>
cudaError_t launch_pdl(void (*k)(Kp...), dim3 grid, dim3 block, size_t smem, cudaStream_t q, bool pdl, Args... args) {
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = smem;
  cfg.stream = q;
  cfg.attrs = at;
  cfg.numAttrs = pdl ? 1 : 0;
  return cudaLaunchKernelEx(&cfg, k, args...);
}

} /* namespace gspcu */

#endif /* GSP_CUDA_FW_PDL_CUH */
