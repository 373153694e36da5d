/*
 * Live-handle check for the test build. The handle registry keeps every
 * live matrix and vector reachable, so LeakSanitizer never reports a handle
 * a test forgot to free. With GSP_TEST_LEAKS=1 in the environment
 * (tests/CMakeLists.txt sets it for every suite):
 *  - in a Criterion suite, a test body may not leave more handles live than
 *    it found: else the live handles are listed and the test fails.
 *    Criterion runs each test in a worker process and ignores how the
 *    worker ends once the test has reported, so a check at exit could not
 *    fail it; the check wraps criterion_internal_test_main, through which
 *    every Test() runs its body in the worker (Criterion 2.4's
 *    <criterion/internal/test.h>), and calls Criterion's own with the body
 *    followed by the check;
 *  - in any other program (leak_one_matrix, the TSan build's test_threads),
 *    at exit: the handles are listed and the process exits with status 3.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gsp_internal.h"

static bool enabled(void) {
  const char *on = getenv("GSP_TEST_LEAKS");
  return on && strcmp(on, "1") == 0;
}

/* List the live handles on stderr; their count. */
static size_t report_live(const char *when) {
  const void *live[16];
  const size_t n = gsp__live_handles(live, 16);
  if (n == 0) return 0;
  fprintf(stderr, "gsp test build: %zu handle(s) still live %s (not freed):\n", n, when);
  for (size_t k = 0; k < n && k < 16; k++) {
    const struct gsp_matrix_s *A = live[k];
    const struct gsp_vector_s *v = live[k];
    if (A->magic == GSP_MAGIC_MATRIX)
      fprintf(stderr, "  matrix %p: %s, %lld x %lld, %lld entries\n", live[k], gsp__type_name(A->type),
              (long long)A->nrows, (long long)A->ncols, (long long)A->nvals);
    else if (v->magic == GSP_MAGIC_VECTOR)
      fprintf(stderr, "  vector %p: %s, size %lld, %lld entries\n", live[k], gsp__type_name(v->type), (long long)v->n,
              (long long)v->nvals);
  }
  if (n > 16) fprintf(stderr, "  ... and %zu more\n", n - 16);
  fflush(stderr);
  return n;
}

static bool in_criterion_test; /* a Criterion test ran in this process */
static void (*test_body)(void);

/* The test's body, then the check, before Criterion's end-of-test event
 * (an assertion after it no longer fails the test). Handles of the suite's
 * init, freed by its fini after this point, are not the body's: only a
 * growth of the live count counts. */
static void checked_body(void) {
  const size_t before = gsp__live_handles(NULL, 0);
  test_body();
  const size_t after = gsp__live_handles(NULL, 0);
  if (after > before) {
    report_live("after the test body");
    cr_expect_fail("the test left %zu gsp handle(s) live (listed on stderr)", after - before);
  }
}

void criterion_internal_test_main(void (*fn)(void)) {
  static void (*criterion_own)(void (*)(void));
  if (!criterion_own) *(void **)&criterion_own = dlsym(RTLD_NEXT, "criterion_internal_test_main");
  in_criterion_test = true;
  if (!enabled()) {
    criterion_own(fn);
    return;
  }
  test_body = fn;
  criterion_own(checked_body);
}

static void check_at_exit(void) {
  if (!in_criterion_test && report_live("at exit")) _exit(3);
}

__attribute__((constructor)) static void install(void) {
  if (enabled()) atexit(check_at_exit);
}
