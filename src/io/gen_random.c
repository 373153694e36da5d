/* Uniform random graphs with an exact arc count (DIMACS-challenge style)
 * and random DAGs. Arcs are drawn with a counter-based generator and
 * rejected when already present (a hash set of keys); when more than half
 * of all possible arcs are wanted, the missing ones are drawn instead and
 * everything else is listed, so dense requests never stall. */
#include <string.h>

#include "io_internal.h"

gsp_info gsp__gen_check(gsp_matrix *A, gsp_type t, int64_t wmin, int64_t wmax, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_CHECK(A != NULL, GSP_NULL_POINTER, "%s: A is NULL", fn);
  GSP_TRY(gsp__check_type(t, fn));
  if (t == GSP_BOOL) return GSP_SUCCESS;
  GSP_CHECK(wmin <= wmax, GSP_INVALID_VALUE, "%s: weight range [%lld, %lld] is empty", fn, (long long)wmin,
            (long long)wmax);
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  if (t == GSP_INT32) lo = INT32_MIN, hi = INT32_MAX;
  if (t == GSP_FP32) lo = -(1 << 24), hi = 1 << 24; /* exact integers */
  if (t == GSP_FP64) lo = -((int64_t)1 << 53), hi = (int64_t)1 << 53;
  GSP_CHECK(wmin >= lo && wmax <= hi, GSP_INVALID_VALUE, "%s: weights [%lld, %lld] are not all exact in type %s", fn,
            (long long)wmin, (long long)wmax, gsp__type_name(t));
  return info;
}

/* Open-addressing set of nonzero 64-bit keys (key + 1 stored). */
typedef struct {
  uint64_t *slot;
  size_t mask;
} key_set;

static gsp_info set_init(key_set *s, size_t count) {
  gsp_info info = GSP_SUCCESS;
  size_t cap = 1024;
  while (cap < 2 * count + 2) cap *= 2;
  GSP_CALLOC(s->slot, cap, sizeof *s->slot);
  s->mask = cap - 1;
#undef GSP_FREE_ALL
  return info;
}

/* Insert; false if it was present. */
static bool set_add(key_set *s, uint64_t key) {
  size_t h = (size_t)gsp__mix64(key) & s->mask;
  for (;;) {
    if (s->slot[h] == key + 1) return false;
    if (s->slot[h] == 0) {
      s->slot[h] = key + 1;
      return true;
    }
    h = (h + 1) & s->mask;
  }
}

static bool set_has(const key_set *s, uint64_t key) {
  size_t h = (size_t)gsp__mix64(key) & s->mask;
  for (;;) {
    if (s->slot[h] == key + 1) return true;
    if (s->slot[h] == 0) return false;
    h = (h + 1) & s->mask;
  }
}

/* Draw `want` distinct arcs into set s (DAG: i < j). */
static void draw(key_set *s, uint64_t n, uint64_t want, bool dag, uint64_t seed) {
  uint64_t got = 0;
  for (uint64_t k = 0; got < want; k++) {
    uint64_t u = gsp__rand_below(gsp__rand_at(seed, 1, 2 * k), n);
    uint64_t v = gsp__rand_below(gsp__rand_at(seed, 1, 2 * k + 1), n - 1);
    if (v >= u) v++; /* uniform over v != u */
    if (dag && u > v) {
      uint64_t t = u;
      u = v;
      v = t;
    }
    got += set_add(s, u << 32 | v);
  }
}

static gsp_info sample(gsp_matrix *A, gsp_type t, gsp_index n, gsp_index m, bool dag, int64_t wmin, int64_t wmax,
                       uint64_t seed, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  gsp__tuples T = {0};
  key_set s = {0};
#define GSP_FREE_ALL (gsp__tuples_free(&T), gsp__free(s.slot))
  GSP_TRY(gsp__gen_check(A, t, wmin, wmax, fn));
  GSP_CHECK(n <= GSP_INDEX_MAX, GSP_TOO_LARGE, "%s: %llu vertices exceed %llu", fn, (unsigned long long)n,
            (unsigned long long)GSP_INDEX_MAX);
  uint64_t all = n < 2 ? 0 : dag ? n * (n - 1) / 2 : n * (n - 1);
  GSP_CHECK(m <= all, GSP_INVALID_VALUE, "%s: %llu arcs requested, but %llu vertices allow at most %llu", fn,
            (unsigned long long)m, (unsigned long long)n, (unsigned long long)all);
  bool listed = m > all / 2; /* draw the missing arcs instead */
  uint64_t want = listed ? all - m : m;
  GSP_TRY(set_init(&s, want));
  if (n >= 2) draw(&s, n, want, dag, seed);
  bool weighted = t != GSP_BOOL;
  GSP_TRY(gsp__tuples_init(&T, weighted, m));
  T.nrows = T.ncols = n;
  if (listed) { /* every arc not drawn, in row-major order */
    for (uint64_t i = 0; i < n; i++)
      for (uint64_t j = dag ? i + 1 : 0; j < n; j++) {
        uint64_t key = i << 32 | j;
        if (i == j || set_has(&s, key)) continue;
        gsp__val w = {.i = gsp__gen_weight(seed, key, wmin, wmax)};
        GSP_TRY(gsp__tuples_push(&T, i, j, w));
      }
  } else {
    for (size_t h = 0; h <= s.mask; h++) {
      if (!s.slot[h]) continue;
      uint64_t key = s.slot[h] - 1;
      gsp__val w = {.i = gsp__gen_weight(seed, key, wmin, wmax)};
      GSP_TRY(gsp__tuples_push(&T, key >> 32, key & 0xffffffffu, w));
    }
  }
  GSP_FREE(s.slot);
  GSP_TRY(gsp__tuples_build(A, &T, t, GSP_DUP_ERROR, false, fn));
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_generate_random(gsp_matrix *A, gsp_type t, gsp_index n, gsp_index m, int64_t wmin, int64_t wmax,
                             uint64_t seed) {
  return sample(A, t, n, m, false, wmin, wmax, seed, "gsp_generate_random");
}

gsp_info gsp_generate_dag(gsp_matrix *A, gsp_type t, gsp_index n, gsp_index m, int64_t wmin, int64_t wmax,
                          uint64_t seed) {
  return sample(A, t, n, m, true, wmin, wmax, seed, "gsp_generate_dag");
}
