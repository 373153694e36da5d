/*
 * The plugin's settings that only tests and benchmarks use, behind their
 * own exported symbol (gsp_cuda_plugin_testing, gsp_cuda_plugin.h): the
 * device-fault injection that GSP_CUDA_TRY asks before each CUDA call, the
 * forced SpGEMM algorithm, the staging slot of the shortest-path results,
 * and the bench's phase timings of the closure.
 * The state lives here, beside the code that reads it, so no production
 * call crosses the boundary to ask for it.
 */
#include <stdatomic.h>

#include "gsp_cuda_fw.h"
#include "gsp_cuda_plugin.h"

/* One fault of the armed kind at the k-th CUDA call; -1: disarmed. */
static _Atomic long long device_countdown = -1;
static _Atomic int device_kind = GSP_FAULT_NONE;

static void device_fault_after(long long k, gsp_fault kind) {
  atomic_store(&device_kind, (int)kind);
  atomic_store(&device_countdown, k);
}

static long long device_fault_disarm(void) {
  return atomic_exchange(&device_countdown, -1);
}

/* The core's name for it, called by gsp__cuda_injected (gsp_cuda_internal.cuh). */
gsp_fault gsp__device_fault_due(void) {
  long long c = atomic_load_explicit(&device_countdown, memory_order_relaxed);
  while (c >= 0)
    if (atomic_compare_exchange_weak(&device_countdown, &c, c - 1))
      return c == 0 ? (gsp_fault)atomic_load(&device_kind) : GSP_FAULT_NONE;
  return GSP_FAULT_NONE;
}

static _Atomic int spgemm = 0;
static _Atomic size_t stage_bytes = 0;

static void sssp_stage_bytes(size_t bytes) {
  atomic_store(&stage_bytes, bytes);
}

/* gsp_cuda_sssp's staging slot (gsp_cuda_sssp.cuh), 0: the default. */
size_t gsp__cuda_sssp_stage_bytes(void) {
  return atomic_load_explicit(&stage_bytes, memory_order_relaxed);
}

static void spgemm_alg(int alg) {
  atomic_store(&spgemm, alg);
}

/* The core's name for it, read by gsp_cuda_mxm.cu. */
int gsp__spgemm_alg(void) {
  return atomic_load_explicit(&spgemm, memory_order_relaxed);
}

__attribute__((visibility("default"))) const gsp__cuda_testing *gsp_cuda_plugin_testing(void);

const gsp__cuda_testing *gsp_cuda_plugin_testing(void) {
  static const gsp__cuda_testing t = {
      .abi = GSP_CUDA_PLUGIN_ABI,
      .size = sizeof t,
      .device_fault_after = device_fault_after,
      .device_fault_disarm = device_fault_disarm,
      .spgemm_alg = spgemm_alg,
      .sssp_stage_bytes = sssp_stage_bytes,
      .fw_phases = gsp_cuda_fw_phases,
      .fw_bits_impl = gsp_cuda_fw_bits_impl,
  };
  return &t;
}

/* the entry has the type the loader calls it by */
static const gsp__cuda_plugin_testing_fn testing_type_check __attribute__((unused)) = gsp_cuda_plugin_testing;
