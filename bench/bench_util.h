/*
 * Helpers of the C benchmarks: the check of a gsp call, clocks, the median
 * sort, the CSV file. Needs _POSIX_C_SOURCE >= 199309L
 * before the first system header.
 */
#ifndef GSP_BENCH_UTIL_H
#define GSP_BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "gsp.h"

/* A gsp call that must succeed: else its error and exit (a benchmark is a
 * tool, not the library). */
#define BENCH_CK(x)                                                                 \
  do {                                                                              \
    gsp_info i_ = (x);                                                              \
    if (i_ != GSP_SUCCESS) {                                                        \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, gsp_last_error()); \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

/* Seconds on clock id: CLOCK_MONOTONIC (wall), CLOCK_PROCESS_CPUTIME_ID
 * (every thread of the process), CLOCK_THREAD_CPUTIME_ID (this thread). */
static inline double bench_seconds(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* qsort order of doubles, ascending. */
static inline int bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* path opened for writing with its header line written; NULL (and the
 * reason on stderr) when it cannot be. */
static inline FILE *bench_csv_open(const char *path, const char *header) {
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    return NULL;
  }
  fprintf(f, "%s\n", header);
  return f;
}

#endif /* GSP_BENCH_UTIL_H */
