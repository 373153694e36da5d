/*
 * Shared by test_cuda_ooc.c and test_cuda_multigpu.c: integer-weighted
 * random graphs (exact in every type, so every path order gives the same
 * sums) built from dense arrays, and one closure with its path record.
 */
#ifndef CUDA_SCALE_TEST_H
#define CUDA_SCALE_TEST_H

#ifndef GSP_ADVANCED_API
#define GSP_ADVANCED_API /* gsp.h's advanced part: caps and GPUs */
#endif
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "closure_branch.h" /* gsp__closure_run: knobs and the path record */
#include "closure_scale.h"
#include "gsp_test.h"

static const gsp_type scale_types[] = {GSP_INT32, GSP_INT64, GSP_FP32, GSP_FP64};
static const gsp_semiring scale_srs[] = {GSP_MIN_PLUS, GSP_MAX_PLUS, GSP_MAX_MIN, GSP_MIN_MAX};

typedef enum { K_RANDOM, K_NEGATIVE, K_SPARSE, K_DISCONNECTED, K_DENSE } scale_kind;
static const char *const scale_kind_names[] = {"random", "negative", "sparse", "disconnected", "dense"};

static void scale_gpu_or_skip(void) {
  bool ok = false;
  char desc[256] = "";
  GSP_OK(gsp_cuda_available(&ok, desc, sizeof desc));
  if (!ok) cr_skip_test("no usable GPU: %s", desc);
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  GSP_OK(gsp_set_threads(cpus > 0 ? (int)cpus : 0));
}

/* The "no edge" value of s for type t as an int64 pattern written by
 * gsp_test_value_set would not reach infinity: write it directly. */
static void scale_absent(void *x, gsp_semiring s, gsp_type t) {
  const bool hi = s == GSP_MIN_PLUS || s == GSP_MIN_MAX;
  switch (t) {
  case GSP_INT32:
    *(int32_t *)x = hi ? INT32_MAX : INT32_MIN;
    break;
  case GSP_INT64:
    *(int64_t *)x = hi ? INT64_MAX : INT64_MIN;
    break;
  case GSP_FP32:
    *(float *)x = hi ? INFINITY : -INFINITY;
    break;
  default:
    *(double *)x = hi ? INFINITY : -INFINITY;
    break;
  }
}

/* Potential of a vertex: w = base + p(i) - p(j) has no negative cycle. */
static int64_t scale_pot(int64_t v) {
  return (int64_t)(((uint64_t)v * 0x9E3779B97F4A7C15ULL) >> 40) % 21;
}

/* An n x n graph for semiring s: integer weights, no negative (MAX_PLUS:
 * positive) cycle. */
static gsp_matrix scale_graph(gsp_type t, gsp_semiring s, int64_t n, scale_kind k, double density, uint64_t seed) {
  uint64_t st = seed * 0x2545F4914F6CDD1DULL + 11;
  if (k == K_SPARSE) density = n > 2 ? 3.0 / (double)n : 0.5;
  if (k == K_DENSE) density = 1.0;
  const size_t ts = gsp_type_size(t), nn = (size_t)n * (size_t)n;
  char *X = malloc(nn * ts), absent[16];
  cr_assert(X != NULL);
  scale_absent(absent, s, t);
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) {
      char *x = X + ((size_t)i * n + j) * ts;
      const bool cut = k == K_DISCONNECTED && (i < n / 2) != (j < n / 2);
      if (cut || gsp_test_uniform(&st) >= density) {
        memcpy(x, absent, ts);
        continue;
      }
      int64_t base = (int64_t)(gsp_test_rand(&st) % 10), w;
      const int64_t pot = k == K_NEGATIVE ? scale_pot(i) - scale_pot(j) : 0;
      switch (s) {
      case GSP_MIN_PLUS:
        w = base + pot;
        break;
      case GSP_MAX_PLUS:
        w = -base + pot;
        break;
      default:
        w = (int64_t)(gsp_test_rand(&st) % 19) - 9;
        break;
      }
      gsp_test_value_set(t, x, w);
    }
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_import_dense(&A, t, (gsp_index)n, (gsp_index)n, X, absent));
  free(X);
  return A;
}

/* Add the cycle a -> b -> c -> a of total weight -1 (MAX_PLUS: +1). */
static void scale_add_cycle(gsp_matrix A, gsp_type t, gsp_semiring s, int64_t a, int64_t b, int64_t c) {
  const int64_t e[3][3] = {{a, b, 5}, {b, c, 3}, {c, a, -9}};
  for (int k = 0; k < 3; k++) {
    char x[16];
    gsp_test_value_set(t, x, s == GSP_MAX_PLUS ? -e[k][2] : e[k][2]);
    GSP_OK(gsp_matrix_set_element(A, (gsp_index)e[k][0], (gsp_index)e[k][1], x));
  }
}

/* A and B hold the same entries with equal values (as values of their
 * type: +0 == -0), through dense exports: fast for n^2 entries. */
static void scale_assert_same(gsp_matrix A, gsp_matrix B) {
  gsp_index n, m, na, nb;
  gsp_type t;
  GSP_OK(gsp_matrix_nrows(&n, A));
  GSP_OK(gsp_matrix_ncols(&m, A));
  GSP_OK(gsp_matrix_type(&t, A));
  GSP_OK(gsp_matrix_nvals(&na, A));
  GSP_OK(gsp_matrix_nvals(&nb, B));
  cr_assert_eq(na, nb, "%sentry counts differ: %llu vs %llu", gsp_test_ctx, (unsigned long long)na,
               (unsigned long long)nb);
  const size_t ts = gsp_type_size(t), nn = (size_t)n * m;
  char *x = malloc(nn * ts + 1), *y = malloc(nn * ts + 1), absent[16] = {0};
  cr_assert(x && y);
  /* a value no closure here produces: a NaN pattern for floats, 0x5a.. for ints */
  memset(absent, 0x5a, sizeof absent);
  if (t == GSP_FP32) *(float *)absent = NAN;
  if (t == GSP_FP64) *(double *)absent = NAN;
  if (t == GSP_BOOL) absent[0] = 0;
  GSP_OK(gsp_matrix_export_dense(x, absent, A));
  GSP_OK(gsp_matrix_export_dense(y, absent, B));
  size_t bad = 0, first = 0;
  for (size_t k = 0; k < nn; k++) {
    const char *a = x + k * ts, *b = y + k * ts;
    bool same;
    switch (t) {
    case GSP_INT32:
      same = *(const int32_t *)a == *(const int32_t *)b;
      break;
    case GSP_INT64:
      same = *(const int64_t *)a == *(const int64_t *)b;
      break;
    case GSP_FP32:
      same = *(const float *)a == *(const float *)b || (isnan(*(const float *)a) && isnan(*(const float *)b));
      break;
    case GSP_FP64:
      same = *(const double *)a == *(const double *)b || (isnan(*(const double *)a) && isnan(*(const double *)b));
      break;
    default:
      same = *(const unsigned char *)a == *(const unsigned char *)b;
      break;
    }
    if (!same && bad++ == 0) first = k;
  }
  double va = 0, vb = 0;
  if (bad) {
    va = gsp_test_value_f64(t, x + first * ts);
    vb = gsp_test_value_f64(t, y + first * ts);
  }
  free(x), free(y);
  cr_assert_eq(bad, 0, "%s%zu of %zu entries differ, first (%zu,%zu): %g vs %g", gsp_test_ctx, bad, nn,
               first / (size_t)m, first % (size_t)m, va, vb);
}

/* Test settings of every closure below (zero: the library's choices). */
static gsp__closure_knobs scale_knobs;

/* gsp_closure_ext with scale_knobs, *rec the path it took. */
static gsp_info close_recorded(gsp_matrix M, gsp_matrix *succ, gsp_semiring s, const gsp_closure_opts *o,
                               gsp__scale_record *rec) {
  gsp__diag d;
  memset(&d, 0, sizeof d);
  const gsp_info info = gsp__closure_run(M, succ, s, o, &scale_knobs, &d);
  *rec = d.closure;
  return info;
}

/* Closure of a copy of A with these options; returns the code, *out the
 * result (or NULL on error, after checking it equals A), *rec the path. */
static gsp_info scale_close(gsp_matrix A, gsp_semiring s, bool nonrefl, size_t cap, int gpus, gsp_matrix *out,
                            gsp__scale_record *rec, char *err, size_t errlen) {
  gsp_matrix M = NULL;
  GSP_OK(gsp_matrix_dup(&M, A));
  gsp_closure_advanced oadv = {.device_memory_cap = cap, .gpus = gpus};
  gsp_closure_opts o;
  memset(&o, 0, sizeof o);
  o.backend = GSP_BACKEND_CUDA;
  o.non_reflexive = nonrefl;
  o.advanced = &oadv;
  gsp_info info = close_recorded(M, NULL, s, &o, rec);
  if (err) snprintf(err, errlen, "%s", info == GSP_SUCCESS ? "" : gsp_last_error());
  if (info != GSP_SUCCESS) {
    scale_assert_same(M, A); /* unchanged on error */
    gsp_matrix_free(&M);
  }
  *out = M;
  return info;
}

static const char *scale_mode_name(gsp__scale_mode m) {
  static const char *const names[] = {"cpu", "in-core", "out-of-core", "multi-gpu"};
  return (unsigned)m < 4 ? names[m] : "?";
}

#endif /* CUDA_SCALE_TEST_H */
