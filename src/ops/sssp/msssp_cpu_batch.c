/* Batched many-source CPU kernel: typed bodies, instruction-set choice and
 * dispatch (msssp_cpu_batch_body.h says how it works). */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "cpu_isa.h"
#include "sssp_cpu.h"

/* The lanes of one vertex: two cache lines (two AVX-512 registers, four
 * AVX2, eight SSE2), 16 sources of 8 bytes or 32 of 4. */
#define MB_BYTES 128
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define MB_X86 1
#include <immintrin.h>
#else
#define MB_X86 0
#endif

#define SSSP_BODY "msssp_cpu_batch_body.h"
#include "sssp_cpu_stamp.h"

/* 2: AVX-512, 1: AVX2, 0: the compiler's baseline (SSE2 on x86-64): the
 * one choice of cpu_isa.c, shared with the closure kernels. */
static int isa_level(void) {
#if MB_X86
  return (int)gsp__cpu_isa();
#else
  return 0;
#endif
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
  /* tests force the AVX2 (3) or baseline (4) loop */
  const int forced = gsp__msssp_kernel(), best = isa_level();
  const int isa = forced == 4 ? 0 : forced == 3 && best > 1 ? 1 : best;
  /* (a type outside the four, which cannot happen, returns an error code:
   * negative, so the caller runs Dijkstra) */
  SSSP_DISPATCH(mb_rows, g->t, out, g, src, nb, a, budget, isa)
}

/* The largest weight and the sum of all weights, or false when one is not
 * a whole number of at most INT32_MAX. */
#define MB_WHOLE_(ct)                                               \
  {                                                                 \
    const ct *x = (const ct *)g->w;                                 \
    for (int64_t e = 0; e < m; e++) {                               \
      const double v = (double)x[e];                                \
      if (!(v == floor(v) && v <= (double)INT32_MAX)) return false; \
      *sum += v, *max = v > *max ? v : *max;                        \
    }                                                               \
  }
static bool whole_weights(double *max, double *sum, const gsp__sssp_graph *g, int64_t m) {
  *max = *sum = 0;
  switch (g->t) {
  case GSP_INT64:
    MB_WHOLE_(int64_t) break;
  case GSP_FP32:
    MB_WHOLE_(float) break;
  case GSP_FP64:
    MB_WHOLE_(double) break;
  default:
    return false;
  }
  return true;
}
#undef MB_WHOLE_

gsp_info gsp__msssp_batch_narrow(gsp__sssp_graph *g32, int32_t **w32, const gsp__sssp_graph *g) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  *w32 = NULL;
  const int64_t n = g->n, m = (int64_t)g->p[n];
  double max, sum;
  if (g->t == GSP_INT32 || !whole_weights(&max, &sum, g, m)) return info;
  /* every shortest path is simple: at most n - 1 arcs, each arc once */
  double bound = (double)(n > 0 ? n - 1 : 0) * max;
  if (sum < bound) bound = sum;
  /* exact sums: INT32 without saturation, and FP32 below 2^24 */
  const double exact = g->t == GSP_FP32 ? 16777216.0 : (double)(INT32_MAX - 1);
  if (!(bound <= exact)) return info;
  GSP_ALLOC(*w32, (size_t)(m > 0 ? m : 1), sizeof(int32_t));
  for (int64_t e = 0; e < m; e++)
    (*w32)[e] = (int32_t)(g->t == GSP_INT64  ? ((const int64_t *)g->w)[e]
                          : g->t == GSP_FP32 ? ((const float *)g->w)[e]
                                             : ((const double *)g->w)[e]);
  /* the limit: distances are whole, so floor(lim) keeps the same ones */
  const double lim = g->t == GSP_INT64 ? (double)g->lim.i64 : g->t == GSP_FP32 ? (double)g->lim.f32 : g->lim.f64;
  *g32 = *g;
  g32->t = GSP_INT32;
  g32->w = *w32;
  g32->lim.i64 = 0;
  g32->lim.i32 = lim >= (double)(INT32_MAX - 1) ? INT32_MAX - 1 : (int32_t)floor(lim);
#undef GSP_FREE_ALL
  return info;
}
