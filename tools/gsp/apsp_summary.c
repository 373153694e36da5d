/* The summary of a min-plus result (gsp apsp without paths): the pairs
 * with a path, and the farthest pair. Both run on the library's thread count, over equal spans of the
 * block's cells in row-major order, each span typed (no per-cell memcmp);
 * the spans are combined in order, so the counts and the pair are those of
 * one pass in row-major order whatever the thread count. */
#include <math.h>

#include "cli.h"

/* Below this many cells a block is one span: waking threads costs more. */
#define SPAN_MIN  ((size_t)1 << 16)
#define SPANS_MAX 256

/* The farthest pair of one span, as cli_summary holds it. */
typedef struct {
  uint64_t reach;
  bool found;
  gsp_index i, j;
  int64_t ibest;
  double fbest;
} span_best;

static int span_count(size_t cells) {
  int nt = 1;
  gsp_get_threads(&nt);
  if (nt < 1) nt = 1;
  if (nt > SPANS_MAX) nt = SPANS_MAX;
  const size_t most = cells / SPAN_MIN;
  return most < (size_t)nt ? (most > 0 ? (int)most : 1) : nt;
}

/* Span k of `spans` over `cells`: [*lo, *hi). */
static void span_of(size_t cells, int spans, int k, size_t *lo, size_t *hi) {
  *lo = cells / (size_t)spans * (size_t)k + (size_t)k * (cells % (size_t)spans) / (size_t)spans;
  *hi = cells / (size_t)spans * (size_t)(k + 1) + (size_t)(k + 1) * (cells % (size_t)spans) / (size_t)spans;
}

/* One span of the rows (row r is result row first + r, its source
 * src[first + r] or first + r): every cell other than "no path" counted;
 * the largest value off the source's column kept, the first in row-major
 * order among equals (strictly greater replaces). */
#define SUMMARY_SPAN_(sfx, T, B, LOWEST)                                                                               \
  static void span_##sfx(span_best *o, const T *v, T z, size_t lo, size_t hi, gsp_index n, gsp_index first,            \
                         const gsp_index *src) {                                                                       \
    uint64_t reach = 0;                                                                                                \
    bool found = false;                                                                                                \
    T best = 0;                                                                                                        \
    gsp_index bi = 0, bj = 0;                                                                                          \
    for (size_t c = lo; c < hi;) {                                                                                     \
      const gsp_index r = (gsp_index)(c / n), j0 = (gsp_index)(c % n);                                                 \
      const gsp_index j1 = hi - c < n - j0 ? j0 + (gsp_index)(hi - c) : n;                                             \
      const gsp_index s = src ? src[first + r] : first + r;                                                            \
      const T *row = v + (size_t)r * n;                                                                                \
      /* one branch-free pass (vectorized): the count and the row's largest */                                         \
      uint64_t cnt = 0;                                                                                                \
      T most = LOWEST;                                                                                                 \
      for (gsp_index j = j0; j < j1; j++) {                                                                            \
        const T x = row[j];                                                                                            \
        cnt += x != z;                                                                                                 \
        most = x != z && x > most ? x : most;                                                                          \
      }                                                                                                                \
      reach += cnt;                                                                                                    \
      /* where the row may hold a farther pair: find the first, in order */                                            \
      if (cnt > 0 && (!found || most > best))                                                                          \
        for (gsp_index j = j0; j < j1; j++)                                                                            \
          if (row[j] != z && j != s && (!found || row[j] > best)) best = row[j], bi = first + r, bj = j, found = true; \
      c += (size_t)(j1 - j0);                                                                                          \
    }                                                                                                                  \
    *o = (span_best){.reach = reach, .found = found, .i = bi, .j = bj};                                                \
    o->B = found ? best : 0;                                                                                           \
  }
SUMMARY_SPAN_(i32, int32_t, ibest, INT32_MIN)
SUMMARY_SPAN_(i64, int64_t, ibest, INT64_MIN)
SUMMARY_SPAN_(f32, float, fbest, -INFINITY)
SUMMARY_SPAN_(f64, double, fbest, -INFINITY)
#undef SUMMARY_SPAN_

/* Whether span b's pair replaces the one so far (a, earlier in row-major
 * order): only strictly farther. */
static bool farther(gsp_type t, const span_best *b, bool a_found, int64_t ia, double fa) {
  if (!b->found) return false;
  if (!a_found) return true;
  return t == GSP_INT32 || t == GSP_INT64 ? b->ibest > ia : b->fbest > fa;
}

int cli_summary_rows(void *ctx, gsp_index first, gsp_index nrows, const void *dist, const int64_t *par) {
  cli_summary *s = ctx;
  (void)par;
  const size_t cells = (size_t)nrows * (size_t)s->n;
  const int spans = span_count(cells);
  span_best part[SPANS_MAX];
#pragma omp parallel for num_threads(spans) schedule(static, 1) if (spans > 1)
  for (int k = 0; k < spans; k++) {
    size_t lo, hi;
    span_of(cells, spans, k, &lo, &hi);
    span_best *o = &part[k];
    switch (s->t) {
    case GSP_INT32:
      span_i32(o, dist, *(const int32_t *)s->zero, lo, hi, s->n, first, s->src);
      break;
    case GSP_INT64:
      span_i64(o, dist, *(const int64_t *)s->zero, lo, hi, s->n, first, s->src);
      break;
    case GSP_FP32:
      span_f32(o, dist, *(const float *)s->zero, lo, hi, s->n, first, s->src);
      break;
    case GSP_FP64:
      span_f64(o, dist, *(const double *)s->zero, lo, hi, s->n, first, s->src);
      break;
    default:
      *o = (span_best){0};
      break;
    }
  }
  for (int k = 0; k < spans; k++) { /* in row-major order */
    s->reach += part[k].reach;
    if (farther(s->t, &part[k], s->found, s->ibest, s->fbest)) {
      s->found = true, s->si = part[k].i, s->sj = part[k].j;
      s->ibest = part[k].ibest, s->fbest = part[k].fbest;
    }
  }
  return 0;
}

#define REACHED_SPAN_(sfx, T)                                            \
  static uint64_t reached_##sfx(const T *v, T z, size_t lo, size_t hi) { \
    uint64_t cnt = 0;                                                    \
    for (size_t k = lo; k < hi; k++) cnt += v[k] != z;                   \
    return cnt;                                                          \
  }
REACHED_SPAN_(i32, int32_t)
REACHED_SPAN_(i64, int64_t)
REACHED_SPAN_(f32, float)
REACHED_SPAN_(f64, double)
#undef REACHED_SPAN_

uint64_t cli_reached(gsp_type t, const void *dist, size_t cells) {
  int64_t zero[1];
  (void)gsp_semiring_identities(zero, NULL, GSP_MIN_PLUS, t);
  const int spans = span_count(cells);
  uint64_t reach = 0;
#pragma omp parallel for num_threads(spans) schedule(static, 1) reduction(+ : reach) if (spans > 1)
  for (int k = 0; k < spans; k++) {
    size_t lo, hi;
    span_of(cells, spans, k, &lo, &hi);
    switch (t) {
    case GSP_INT32:
      reach += reached_i32(dist, *(const int32_t *)zero, lo, hi);
      break;
    case GSP_INT64:
      reach += reached_i64(dist, *(const int64_t *)zero, lo, hi);
      break;
    case GSP_FP32:
      reach += reached_f32(dist, *(const float *)zero, lo, hi);
      break;
    case GSP_FP64:
      reach += reached_f64(dist, *(const double *)zero, lo, hi);
      break;
    default:
      break;
    }
  }
  return reach;
}
