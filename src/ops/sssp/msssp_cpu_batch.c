/* Batched many-source CPU kernel: typed bodies, instruction-set choice and
 * dispatch (msssp_cpu_batch_body.h says how it works). */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "sssp_cpu.h"

/* Lanes per vertex: MB_VPV vectors of MB_VEC bytes (an AVX-512 register,
 * a cache line). */
#define MB_VEC   64
#define MB_VPV   2
#define MB_BYTES (MB_VEC * MB_VPV)
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define MB_X86 1
#include <immintrin.h>
#else
#define MB_X86 0
#endif

#define SSSP_BODY "msssp_cpu_batch_body.h"
#include "sssp_cpu_stamp.h"

/* 2: AVX-512, 1: AVX2, 0: the compiler's baseline (SSE2 on x86-64). */
static int isa_level(void) {
#if MB_X86
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl"))
    return 2;
  if (__builtin_cpu_supports("avx2")) return 1;
#endif
  return 0;
}

static atomic_int forced_kernel = 0;
void gsp__debug_msssp_kernel(int kernel) {
  atomic_store(&forced_kernel, kernel);
}
int gsp__msssp_kernel(void) {
  return atomic_load_explicit(&forced_kernel, memory_order_relaxed);
}

int64_t gsp__msssp_batch_lanes(gsp_type t) {
  return MB_BYTES / (int64_t)gsp_type_size(t);
}

size_t gsp__msssp_batch_ws_bytes(int64_t n) {
  return (size_t)n * (MB_BYTES + sizeof(int32_t) + 1) + sizeof(int32_t) + MB_BYTES;
}

int64_t gsp__msssp_batch_rows(void *out, const gsp__sssp_graph *g, const int64_t *src, int64_t nb, void *ws,
                              int64_t budget) {
  void *a = (void *)(((uintptr_t)ws + MB_BYTES - 1) & ~(uintptr_t)(MB_BYTES - 1));
  const int isa = isa_level();
  switch (g->t) {
  case GSP_INT32:
    return mb_rows_i32(out, g, src, nb, a, budget, isa);
  case GSP_INT64:
    return mb_rows_i64(out, g, src, nb, a, budget, isa);
  case GSP_FP32:
    return mb_rows_f32(out, g, src, nb, a, budget, isa);
  default:
    return mb_rows_f64(out, g, src, nb, a, budget, isa);
  }
}
