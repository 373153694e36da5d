/*
 * Batched many-source kernel, typed body (stamped by sssp_cpu_stamp.h):
 * MB_LANES sources at once, their distances interleaved per vertex
 * (D[v * MB_LANES + lane], MB_BYTES), relaxed by a FIFO
 * label-correcting loop (Bellman-Ford ordered by a queue) where one
 * vertex is queued while any lane of it changed, and one arc relaxes all
 * lanes with one vector add, compare and blend. Non-negative weights and a
 * monotone addition give every relaxation order the same fixpoint, so the
 * rows equal per-source Dijkstra's bit for bit. The relaxation loop is
 * compiled once per instruction set (msssp_cpu_batch_relax.h) and chosen
 * at run time.
 */
#define MB_LANES ((int)(MB_BYTES / sizeof(SSSP_T)))

/* vectors of each instruction set's register width, and their masks */
typedef SSSP_T SSSP_FN(mb_v64) __attribute__((vector_size(64)));
typedef SSSP_T SSSP_FN(mb_v32) __attribute__((vector_size(32)));
typedef SSSP_T SSSP_FN(mb_v16) __attribute__((vector_size(16)));
typedef __typeof__((SSSP_FN(mb_v64)){0} < (SSSP_FN(mb_v64)){0}) SSSP_FN(mb_m64);
typedef __typeof__((SSSP_FN(mb_v32)){0} < (SSSP_FN(mb_v32)){0}) SSSP_FN(mb_m32);
typedef __typeof__((SSSP_FN(mb_v16)){0} < (SSSP_FN(mb_v16)){0}) SSSP_FN(mb_m16);

#if MB_X86
#define MB_RELAX  SSSP_FN(mb_relax_avx512)
#define MB_ATTR   __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl")))
#define MB_V      SSSP_FN(mb_v64)
#define MB_M      SSSP_FN(mb_m64)
#define MB_ANY(m) (_mm512_test_epi64_mask((__m512i)(m), (__m512i)(m)) != 0)
#include "msssp_cpu_batch_relax.h"
#define MB_RELAX  SSSP_FN(mb_relax_avx2)
#define MB_ATTR   __attribute__((target("avx2")))
#define MB_V      SSSP_FN(mb_v32)
#define MB_M      SSSP_FN(mb_m32)
#define MB_ANY(m) (!_mm256_testz_si256((__m256i)(m), (__m256i)(m)))
#include "msssp_cpu_batch_relax.h"
#endif
#define MB_RELAX SSSP_FN(mb_relax_base)
#define MB_ATTR
#define MB_V SSSP_FN(mb_v16)
#define MB_M SSSP_FN(mb_m16)
#include "msssp_cpu_batch_relax.h"

/* Rows out[k * n + v] of sources src[0..nb), nb <= MB_LANES, on ws (see
 * gsp__msssp_batch_rows). */
static int64_t SSSP_FN(mb_rows)(SSSP_T *out, const gsp__sssp_graph *g, const int64_t *src, int64_t nb, void *ws,
                                int64_t budget, int isa) {
  const int64_t n = g->n;
  SSSP_T *D = (SSSP_T *)ws;
  int32_t *queue = (int32_t *)(D + (size_t)n * MB_LANES);
  uint8_t *inq = (uint8_t *)(queue + n + 1);
  /* unreached: the least value above the limit (+inf when the limit is the
   * largest finite value), which no kept distance reaches */
  const SSSP_T lim = SSSP_LIM(g), integer = (SSSP_T)0.5 == 0;
  const SSSP_T over = integer               ? (SSSP_T)(lim + 1)
                      : sizeof(SSSP_T) == 4 ? (SSSP_T)nextafterf((float)lim, INFINITY)
                                            : (SSSP_T)nextafter((double)lim, INFINITY);
  for (size_t i = 0; i < (size_t)n * MB_LANES; i++) D[i] = over;
  memset(inq, 0, (size_t)n);
  int64_t qn = 0;
  for (int64_t k = 0; k < nb; k++) {
    D[(size_t)src[k] * MB_LANES + (size_t)k] = 0;
    if (!inq[src[k]]) inq[src[k]] = 1, queue[qn++] = (int32_t)src[k];
  }
  int64_t work;
#if MB_X86
  if (isa == 2) work = SSSP_FN(mb_relax_avx512)(D, queue, inq, g, qn, budget);
  else if (isa == 1) work = SSSP_FN(mb_relax_avx2)(D, queue, inq, g, qn, budget);
  else
#endif
    work = SSSP_FN(mb_relax_base)(D, queue, inq, g, qn, budget);
  (void)isa;
  if (work > budget) return -1;
  /* lanes out to rows, a block of vertices at a time */
  for (int64_t v0 = 0; v0 < n; v0 += 256) {
    const int64_t v1 = v0 + 256 < n ? v0 + 256 : n;
    for (int64_t k = 0; k < nb; k++) {
      SSSP_T *row = out + (size_t)k * (size_t)n;
      for (int64_t v = v0; v < v1; v++) {
        const SSSP_T d = D[(size_t)v * MB_LANES + (size_t)k];
        row[v] = d == over ? SSSP_INF : d;
      }
    }
  }
  return work;
}

#undef MB_LANES
