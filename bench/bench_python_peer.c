/*
 * The C user's call on a file's graph, for bench_python.py --vs-c: the same
 * input the Python call gets, timed the way bench_user_call times its rows
 * (host array in, host array out, through the public API only).
 *
 *   bench_python_peer closure FILE TYPE SEMIRING BACKEND   (TYPE fp32|int32|bool)
 *       FILE a dense .npy; untimed: read, exported to the user's array;
 *       timed: pack_dense -> gsp_closure_ext -> unpack_dense
 *   bench_python_peer apsp FILE BACKEND
 *       FILE any graph file; untimed: read; timed: gsp_apsp, distances
 *       exported to the user's n x n array
 *   bench_python_peer first FILE BACKEND
 *       as closure fp32 min_plus, once: the first call of the process
 *   bench_python_peer device FILE
 *       as closure fp32 min_plus on the GPU, the result left there
 *       (gsp_matrix_device_view): upload and kernel, no download
 * Prints "c_s SECONDS" (the median of 3 runs; first: the one run).
 */
#define _POSIX_C_SOURCE  200809L
#define GSP_ADVANCED_API /* gsp_matrix_device_view */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "gsp.h"

/* One closure call as a user makes it, on a copy of the user's array x. */
static double closure_once(const void *x, gsp_type t, gsp_index n, gsp_semiring s, gsp_backend be, bool on_device) {
  const size_t bytes = (size_t)n * (size_t)n * gsp_type_size(t);
  void *y = malloc(bytes ? bytes : 1);
  if (!y) exit(1);
  memcpy(y, x, bytes); /* the user's array, warm, as numpy's is */
  static const float finf = INFINITY;
  static const int32_t imax = INT32_MAX;
  static const bool bfalse = false;
  const void *absent = t == GSP_FP32 ? (const void *)&finf : t == GSP_INT32 ? (const void *)&imax : &bfalse;
  gsp_closure_opts co = {.backend = be};
  gsp_matrix M = NULL;
  void *r = NULL;
  const double t0 = bench_seconds(CLOCK_MONOTONIC);
  BENCH_CK(gsp_matrix_pack_dense(&M, t, n, n, &y, absent));
  BENCH_CK(gsp_closure_ext(M, NULL, s, &co));
  if (on_device) { /* the result stays on the GPU, as gsp.closure(..., device=True) leaves it */
    void *data = NULL;
    gsp_index ld = 0;
    int dev = 0;
    BENCH_CK(gsp_matrix_device_view(&data, &ld, &dev, M, s));
  } else {
    BENCH_CK(gsp_matrix_unpack_dense(&r, absent, &M));
  }
  const double sec = bench_seconds(CLOCK_MONOTONIC) - t0;
  free(r);
  BENCH_CK(gsp_matrix_free(&M));
  return sec;
}

static double apsp_once(gsp_matrix A, gsp_backend be) {
  gsp_index n;
  BENCH_CK(gsp_matrix_nrows(&n, A));
  gsp_apsp_opts o = {.backend = be};
  gsp_matrix D = NULL;
  const double t0 = bench_seconds(CLOCK_MONOTONIC);
  BENCH_CK(gsp_apsp(&D, NULL, A, &o));
  gsp_type t;
  BENCH_CK(gsp_matrix_type(&t, D));
  void *out = malloc((size_t)n * (size_t)n * gsp_type_size(t) + 1);
  if (!out) exit(1);
  double inf = INFINITY;
  float finf = INFINITY;
  int64_t lmax = INT64_MAX;
  int32_t imax = INT32_MAX;
  BENCH_CK(gsp_matrix_export_dense(out,
                                   t == GSP_FP64    ? (void *)&inf
                                   : t == GSP_FP32  ? (void *)&finf
                                   : t == GSP_INT64 ? (void *)&lmax
                                                    : (void *)&imax,
                                   D));
  const double sec = bench_seconds(CLOCK_MONOTONIC) - t0;
  free(out);
  BENCH_CK(gsp_matrix_free(&D));
  return sec;
}

int main(int argc, char **argv) {
  if (argc < 3 || (argc < 4 && strcmp(argv[1], "device"))) {
    fprintf(stderr,
            "usage: %s closure FILE TYPE SEMIRING BACKEND | apsp FILE BACKEND | first FILE BACKEND | device FILE\n",
            argv[0]);
    return 2;
  }
  const char *mode = argv[1], *bes = argc > 3 ? argv[argc - 1] : "cuda";
  const gsp_backend be = !strcmp(bes, "cpu")    ? GSP_BACKEND_CPU
                         : !strcmp(bes, "cuda") ? GSP_BACKEND_CUDA
                                                : GSP_BACKEND_AUTO;
  gsp_matrix A = NULL;
  BENCH_CK(gsp_matrix_read(&A, argv[2], NULL));
  gsp_index n;
  gsp_type t;
  BENCH_CK(gsp_matrix_nrows(&n, A));
  BENCH_CK(gsp_matrix_type(&t, A));
  double s[3];
  if (!strcmp(mode, "apsp")) {
    apsp_once(A, be); /* warm-up: thread pool, device */
    for (int k = 0; k < 3; k++) s[k] = apsp_once(A, be);
  } else {
    const bool first = !strcmp(mode, "first"), on_device = !strcmp(mode, "device");
    const char *ts = first || on_device ? "fp32" : argv[3], *ss = first || on_device ? "min_plus" : argv[4];
    const gsp_type want = !strcmp(ts, "int32") ? GSP_INT32 : !strcmp(ts, "bool") ? GSP_BOOL : GSP_FP32;
    const gsp_semiring sr = !strcmp(ss, "or_and") ? GSP_OR_AND : GSP_MIN_PLUS;
    if (want != t) {
      fprintf(stderr, "%s does not hold %s values\n", argv[2], ts);
      return 1;
    }
    const size_t bytes = (size_t)n * (size_t)n * gsp_type_size(t);
    void *x = malloc(bytes ? bytes : 1);
    if (!x) return 1;
    static const float finf = INFINITY;
    static const int32_t imax = INT32_MAX;
    static const bool bfalse = false;
    BENCH_CK(gsp_matrix_export_dense(x,
                                     t == GSP_FP32    ? (const void *)&finf
                                     : t == GSP_INT32 ? (const void *)&imax
                                                      : &bfalse,
                                     A));
    if (first) {
      printf("c_s %.6f\n", closure_once(x, t, n, sr, be, false));
      return 0;
    }
    closure_once(x, t, n, sr, be, on_device);
    for (int k = 0; k < 3; k++) s[k] = closure_once(x, t, n, sr, be, on_device);
    free(x);
  }
  qsort(s, 3, sizeof *s, bench_cmp_double);
  printf("c_s %.6f\n", s[1]);
  BENCH_CK(gsp_matrix_free(&A));
  return 0;
}
