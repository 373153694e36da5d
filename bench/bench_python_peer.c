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
 * Prints "c_s SECONDS" (the median of 3 runs; first: the one run).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gsp.h"

#define CK(x)                                                                       \
  do {                                                                              \
    gsp_info i_ = (x);                                                              \
    if (i_ != GSP_SUCCESS) {                                                        \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, gsp_last_error()); \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* One closure call as a user makes it, on a copy of the user's array x. */
static double closure_once(const void *x, gsp_type t, gsp_index n, gsp_semiring s, gsp_backend be) {
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
  const double t0 = now();
  CK(gsp_matrix_pack_dense(&M, t, n, n, &y, absent));
  CK(gsp_closure_ext(M, NULL, s, &co));
  CK(gsp_matrix_unpack_dense(&r, absent, &M));
  const double sec = now() - t0;
  free(r);
  return sec;
}

static double apsp_once(gsp_matrix A, gsp_backend be) {
  gsp_index n;
  CK(gsp_matrix_nrows(&n, A));
  gsp_apsp_opts o = {.backend = be};
  gsp_matrix D = NULL;
  const double t0 = now();
  CK(gsp_apsp(&D, NULL, A, &o));
  gsp_type t;
  CK(gsp_matrix_type(&t, D));
  void *out = malloc((size_t)n * (size_t)n * gsp_type_size(t) + 1);
  if (!out) exit(1);
  double inf = INFINITY;
  float finf = INFINITY;
  int64_t lmax = INT64_MAX;
  int32_t imax = INT32_MAX;
  CK(gsp_matrix_export_dense(out,
                             t == GSP_FP64    ? (void *)&inf
                             : t == GSP_FP32  ? (void *)&finf
                             : t == GSP_INT64 ? (void *)&lmax
                                              : (void *)&imax,
                             D));
  const double sec = now() - t0;
  free(out);
  CK(gsp_matrix_free(&D));
  return sec;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s closure FILE TYPE SEMIRING BACKEND | apsp FILE BACKEND | first FILE BACKEND\n", argv[0]);
    return 2;
  }
  const char *mode = argv[1], *bes = argv[argc - 1];
  const gsp_backend be = !strcmp(bes, "cpu")    ? GSP_BACKEND_CPU
                         : !strcmp(bes, "cuda") ? GSP_BACKEND_CUDA
                                                : GSP_BACKEND_AUTO;
  gsp_matrix A = NULL;
  CK(gsp_matrix_read(&A, argv[2], NULL));
  gsp_index n;
  gsp_type t;
  CK(gsp_matrix_nrows(&n, A));
  CK(gsp_matrix_type(&t, A));
  double s[3];
  if (!strcmp(mode, "apsp")) {
    apsp_once(A, be); /* warm-up: thread pool, device */
    for (int k = 0; k < 3; k++) s[k] = apsp_once(A, be);
  } else {
    const bool first = !strcmp(mode, "first");
    const char *ts = first ? "fp32" : argv[3], *ss = first ? "min_plus" : argv[4];
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
    CK(gsp_matrix_export_dense(x,
                               t == GSP_FP32    ? (const void *)&finf
                               : t == GSP_INT32 ? (const void *)&imax
                                                : &bfalse,
                               A));
    if (first) {
      printf("c_s %.6f\n", closure_once(x, t, n, sr, be));
      return 0;
    }
    closure_once(x, t, n, sr, be);
    for (int k = 0; k < 3; k++) s[k] = closure_once(x, t, n, sr, be);
    free(x);
  }
  qsort(s, 3, sizeof *s, cmp_double);
  printf("c_s %.6f\n", s[1]);
  CK(gsp_matrix_free(&A));
  return 0;
}
