/*
 * A stand-in for <criterion/criterion.h> for the ThreadSanitizer build of
 * test_threads (tests/CMakeLists.txt defines GSP_TEST_PLAIN there).
 * Criterion runs each test in a forked worker and shares an arena with it
 * that it maps at random fixed addresses; TSan's shadow layout refuses most
 * of those ("Could not initialize inheritable arena: Resource temporarily
 * unavailable"). Here the tests of the file run in one process, one after
 * the other, each timed; a failed assertion prints its message and exits 1.
 * Only what test_threads.c and tests/support/gsp_test.h use is provided.
 */
#ifndef GSP_CRITERION_PLAIN_H
#define GSP_CRITERION_PLAIN_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*plain_test_fn)(void);
static struct {
  const char *name;
  plain_test_fn fn;
} plain_tests[64];
static int plain_ntests;

static void plain_register(const char *name, plain_test_fn fn) {
  if (plain_ntests == (int)(sizeof plain_tests / sizeof plain_tests[0])) {
    fprintf(stderr, "criterion_plain: more than %d tests\n", plain_ntests);
    exit(2);
  }
  plain_tests[plain_ntests].name = name;
  plain_tests[plain_ntests++].fn = fn;
}

#define Test(suite, name)                                                    \
  static void suite##_##name(void);                                          \
  __attribute__((constructor)) static void suite##_##name##_register(void) { \
    plain_register(#suite "::" #name, suite##_##name);                       \
  }                                                                          \
  static void suite##_##name(void)

static void plain_fail(const char *file, int line, const char *expr, const char *fmt, ...) {
  fprintf(stderr, "%s:%d: assertion failed: %s\n  ", file, line, expr);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(1);
}

/* cr_assert(cond) or cr_assert(cond, "format", args...) */
#define cr_assert(cond, ...)    ((cond) ? (void)0 : plain_fail(__FILE__, __LINE__, #cond, "" __VA_ARGS__))
#define cr_expect               cr_assert
#define cr_assert_eq(a, b, ...) cr_assert((a) == (b), __VA_ARGS__)
#define cr_expect_eq            cr_assert_eq

/* Run every test, or those whose name contains the first argument that is
 * not an option (Criterion's options, e.g. --jobs 1, are ignored). */
int main(int argc, char **argv) {
  const char *only = NULL;
  for (int a = 1; a < argc; a++)
    if (argv[a][0] == '-') a += argv[a][1] == '-' && !strchr(argv[a], '=') && a + 1 < argc && argv[a + 1][0] != '-';
    else only = argv[a];
  int ran = 0;
  for (int k = 0; k < plain_ntests; k++) {
    if (only && !strstr(plain_tests[k].name, only)) continue;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    plain_tests[k].fn();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("[PASS] %s (%.2fs)\n", plain_tests[k].name,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    fflush(stdout);
    ran++;
  }
  printf("%d of %d tests passed\n", ran, plain_ntests);
  return ran > 0 ? 0 : 1;
}

#endif
