/*
 * gsp_closure_advanced.progress: the CPU closures report the fraction done
 * after rounds of their k-blocks (Floyd-Warshall, with and without
 * successors; the bit-packed OR_AND), non-decreasing, 1 last, and nothing
 * after an error; the sparse star reports 0 when chosen and 1 at the end.
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part: the progress callback */
#include <criterion/criterion.h>
#include <string.h>

#include "gsp.h"
#include "gsp_test.h"

#define MAXCALLS 4096

typedef struct {
  int calls;
  double f[MAXCALLS];
} heard;

static void listen(double fraction, void *ctx) {
  heard *h = ctx;
  if (h->calls < MAXCALLS) h->f[h->calls] = fraction;
  h->calls++;
}

/* The fractions heard rise from 0..1 to exactly 1, at least `least` of them. */
static void assert_rising_to_one(const heard *h, int least, const char *what) {
  cr_assert_geq(h->calls, least, "%s: %d reports", what, h->calls);
  cr_assert_leq(h->calls, MAXCALLS, "%s", what);
  for (int k = 0; k < h->calls; k++) {
    cr_assert(h->f[k] >= 0 && h->f[k] <= 1, "%s: report %d is %g", what, k, h->f[k]);
    if (k > 0) cr_assert_geq(h->f[k], h->f[k - 1], "%s: report %d (%g) below the one before", what, k, h->f[k]);
  }
  cr_assert_eq(h->f[h->calls - 1], 1.0, "%s: last report %g", what, h->f[h->calls - 1]);
  if (h->calls > 1) cr_assert_lt(h->f[h->calls - 2], 1.0, "%s: 1 reported twice", what);
}

/* The closure of a random graph (shallow: Floyd-Warshall, not the star) on
 * the CPU with progress, equal to the one without. */
static void closure_heard(gsp_semiring s, gsp_type t, gsp_index n, bool paths, int least) {
  gsp_matrix A = NULL, M = NULL, R = NULL, S = NULL, SR = NULL;
  GSP_OK(gsp_generate_random(&A, t, n, 6 * n, 1, 50, 7));
  GSP_OK(gsp_matrix_dup(&M, A));
  GSP_OK(gsp_matrix_dup(&R, A));
  heard h = {0};
  const gsp_closure_advanced oa = {.progress = listen, .progress_ctx = &h};
  const gsp_closure_opts o = {.backend = GSP_BACKEND_CPU, .advanced = &oa}, plain = {.backend = GSP_BACKEND_CPU};
  GSP_OK(gsp_closure_ext(M, paths ? &S : NULL, s, &o));
  GSP_OK(gsp_closure_ext(R, paths ? &SR : NULL, s, &plain));
  gsp_test_assert_matrix_same(M, R, 0);
  if (paths) gsp_test_assert_matrix_same(S, SR, 0);
  char what[64];
  snprintf(what, sizeof what, "semiring %d, n %llu%s", (int)s, (unsigned long long)n, paths ? ", paths" : "");
  assert_rising_to_one(&h, least, what);
  gsp_matrix_free(&A), gsp_matrix_free(&M), gsp_matrix_free(&R), gsp_matrix_free(&S), gsp_matrix_free(&SR);
}

/* n = 300: 5 blocks of 64, so 4 rounds reported and then 1. */
Test(closure_progress, min_plus_rounds) {
  closure_heard(GSP_MIN_PLUS, GSP_FP64, 300, false, 5);
}

Test(closure_progress, max_min_rounds) {
  closure_heard(GSP_MAX_MIN, GSP_INT32, 300, false, 5);
}

Test(closure_progress, min_plus_with_successors) {
  closure_heard(GSP_MIN_PLUS, GSP_INT64, 300, true, 5);
}

Test(closure_progress, or_and_bits) {
  closure_heard(GSP_OR_AND, GSP_BOOL, 300, false, 5);
}

/* More rounds than reports: at most GSP's bound of reports a closure. */
Test(closure_progress, many_rounds_few_reports) {
  heard h = {0};
  gsp_matrix M = NULL;
  GSP_OK(gsp_generate_random(&M, GSP_FP32, 2100, 8000, 1, 50, 3)); /* 33 blocks */
  const gsp_closure_advanced oa = {.progress = listen, .progress_ctx = &h};
  const gsp_closure_opts o = {.backend = GSP_BACKEND_CPU, .advanced = &oa};
  GSP_OK(gsp_closure_ext(M, NULL, GSP_MIN_PLUS, &o));
  assert_rising_to_one(&h, 8, "n 2100");
  cr_assert_leq(h.calls, 17, "%d reports", h.calls);
  gsp_matrix_free(&M);
}

/* A negative cycle: no report of 1 (the closure is not done). */
Test(closure_progress, error_reports_no_completion) {
  heard h = {0};
  gsp_matrix M = NULL;
  GSP_OK(gsp_generate_ring(&M, GSP_INT32, 200, false, -3, -1, 1));
  const gsp_closure_advanced oa = {.progress = listen, .progress_ctx = &h};
  const gsp_closure_opts o = {.backend = GSP_BACKEND_CPU, .advanced = &oa};
  cr_assert_eq(gsp_closure_ext(M, NULL, GSP_MIN_PLUS, &o), GSP_NEGATIVE_CYCLE);
  for (int k = 0; k < h.calls; k++) cr_assert_lt(h.f[k], 1.0, "report %d is %g", k, h.f[k]);
  gsp_matrix_free(&M);
}

/* A grid (sparse, deep): the sparse star where the cost model picks it,
 * else Floyd-Warshall; either way the reports rise to 1. */
Test(closure_progress, grid_star_or_fw) {
  heard h = {0};
  gsp_matrix M = NULL;
  GSP_OK(gsp_generate_grid(&M, GSP_FP64, 40, 40, 1, 9, 5));
  const gsp_closure_advanced oa = {.progress = listen, .progress_ctx = &h};
  const gsp_closure_opts o = {.backend = GSP_BACKEND_CPU, .advanced = &oa};
  GSP_OK(gsp_closure_ext(M, NULL, GSP_MIN_PLUS, &o));
  assert_rising_to_one(&h, 2, "grid 40 x 40");
  gsp_matrix_free(&M);
}
