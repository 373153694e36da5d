/*
 * The host path of a user's call (host arrays in, host arrays out) on the
 * CPU: dense pack/import and export/unpack, CSR import (the canonical copy
 * and the sorting path), format conversions (dense, CSR, bits), the NaN
 * check and negative cycles leaving the input unchanged, and the complete
 * generator. Sizes exceed the threshold where these passes go parallel, and
 * every result is compared with a plain loop in this file.
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gsp_test.h"
#include "hostpath_test.h"

#define N 613 /* 375769 entries: above the parallel threshold (2^18) */

static const gsp_type all_types[] = {GSP_BOOL, GSP_INT32, GSP_INT64, GSP_FP32, GSP_FP64};

/* equal as values (floats: -0 == 0), as gsp compares with the absent value */
static bool same_value(const void *a, const void *b, gsp_type t) {
  switch (t) {
  case GSP_BOOL:
    return *(const uint8_t *)a == *(const uint8_t *)b;
  case GSP_INT32:
    return *(const int32_t *)a == *(const int32_t *)b;
  case GSP_INT64:
    return *(const int64_t *)a == *(const int64_t *)b;
  case GSP_FP32:
    return *(const float *)a == *(const float *)b;
  default:
    return *(const double *)a == *(const double *)b;
  }
}

/* A dense n x n array of type t: values 1..50, the absent value (0) at
 * about a third of the cells, -0.0 (absent too) and NaN (present) among the
 * floats. */
static void *dense_array(gsp_type t, int64_t n, uint64_t seed) {
  const size_t nn = (size_t)n * (size_t)n, ts = gsp_type_size(t);
  char *x = malloc(nn * ts);
  cr_assert(x);
  uint64_t st = seed;
  for (size_t k = 0; k < nn; k++) {
    const uint64_t r = gsp_test_rand(&st);
    double v = r % 3 == 0 ? 0 : (double)(1 + (r >> 8) % 50);
    if (t == GSP_BOOL) v = r % 3 != 0;
    gsp_test_value_set_f64(t, x + k * ts, v);
    if ((t == GSP_FP32 || t == GSP_FP64) && (r >> 20) % 97 == 0) gsp_test_value_set_f64(t, x + k * ts, -0.0);
    if ((t == GSP_FP32 || t == GSP_FP64) && (r >> 20) % 89 == 0) gsp_test_value_set_f64(t, x + k * ts, NAN);
  }
  return x;
}

/* export_dense of A with absent value `fill`, compared cell by cell with
 * what x (absent = zero) implies; also the entry count. */
static void check_dense(gsp_matrix A, const char *x, gsp_type t, int64_t n) {
  const size_t nn = (size_t)n * (size_t)n, ts = gsp_type_size(t);
  char zero[8], fill[8], *y = malloc(nn * ts);
  cr_assert(y);
  gsp_test_value_set_f64(t, zero, 0);
  gsp_test_value_set_f64(t, fill, t == GSP_BOOL ? 0 : 77);
  GSP_OK(gsp_matrix_export_dense(y, fill, A));
  gsp_index nv = 0, want = 0;
  GSP_OK(gsp_matrix_nvals(&nv, A));
  for (size_t k = 0; k < nn; k++) {
    const bool present = !same_value(x + k * ts, zero, t);
    want += present;
    const char *expect = present ? x + k * ts : fill;
    const bool nan =
        (t == GSP_FP32 && isnan(*(const float *)expect)) || (t == GSP_FP64 && isnan(*(const double *)expect));
    if (nan) cr_assert(memcmp(y + k * ts, expect, ts) == 0, "type %d cell %zu: NaN lost", (int)t, k);
    else cr_assert(same_value(y + k * ts, expect, t), "type %d cell %zu differs", (int)t, k);
  }
  cr_assert_eq(nv, want, "type %d: %llu entries, expected %llu", (int)t, (unsigned long long)nv,
               (unsigned long long)want);
  free(y);
}

Test(hostpath, dense_import_pack_export_unpack_every_type) {
  GSP_OK(gsp_set_threads(2));
  for (size_t q = 0; q < sizeof all_types / sizeof all_types[0]; q++) {
    const gsp_type t = all_types[q];
    const size_t nn = (size_t)N * N, ts = gsp_type_size(t);
    char *x = dense_array(t, N, 11 + q), zero[8];
    gsp_test_value_set_f64(t, zero, 0);
    gsp_matrix A = NULL, B = NULL;
    GSP_OK(gsp_matrix_import_dense(&A, t, N, N, x, zero));
    check_dense(A, x, t, N);
    /* the dense -> CSR conversion and back */
    gsp_index *rp = malloc((N + 1) * sizeof *rp), *cj = malloc(nn * sizeof *cj);
    char *v = malloc(nn * ts);
    GSP_OK(gsp_matrix_export_csr(rp, cj, v, A));
    gsp_matrix C = NULL;
    GSP_OK(gsp_matrix_import_csr(&C, t, N, N, rp, cj, v));
    check_dense(C, x, t, N);
    /* pack: zero-copy of the same array */
    void *px = malloc(nn * ts);
    memcpy(px, x, nn * ts);
    GSP_OK(gsp_matrix_pack_dense(&B, t, N, N, &px, zero));
    cr_assert_null(px);
    check_dense(B, x, t, N);
    void *out = NULL;
    char fill[8];
    gsp_test_value_set_f64(t, fill, t == GSP_BOOL ? 0 : 77);
    GSP_OK(gsp_matrix_unpack_dense(&out, fill, &B));
    cr_assert_null(B);
    for (size_t k = 0; k < nn; k++) {
      const bool present = !same_value(x + k * ts, zero, t);
      if (present)
        cr_assert(memcmp((char *)out + k * ts, x + k * ts, ts) == 0 || same_value((char *)out + k * ts, x + k * ts, t));
      else cr_assert(same_value((char *)out + k * ts, fill, t), "type %d cell %zu: absent not filled", (int)t, k);
    }
    free(out);
    free(rp), free(cj), free(v), free(x);
    GSP_OK(gsp_matrix_free(&A));
    GSP_OK(gsp_matrix_free(&C));
  }
}

Test(hostpath, csr_import_sorted_copy_equals_sorting_path) {
  GSP_OK(gsp_set_threads(2));
  const int64_t n = 2000, deg = 150; /* 300000 entries */
  gsp_index *rp = malloc((n + 1) * sizeof *rp), *cj = malloc(n * deg * sizeof *cj), *rj = malloc(n * deg * sizeof *rj);
  float *w = malloc(n * deg * sizeof *w), *rw = malloc(n * deg * sizeof *rw);
  uint64_t st = 5;
  for (int64_t i = 0; i < n; i++) {
    rp[i] = (gsp_index)(i * deg);
    const int64_t step = n / deg, start = (int64_t)(gsp_test_rand(&st) % (uint64_t)step);
    for (int64_t d = 0; d < deg; d++) {
      cj[i * deg + d] = (gsp_index)(start + d * step);
      w[i * deg + d] = (float)(1 + gsp_test_rand(&st) % 1000);
    }
    for (int64_t d = 0; d < deg; d++) { /* the same row, columns reversed */
      rj[i * deg + d] = cj[i * deg + deg - 1 - d];
      rw[i * deg + d] = w[i * deg + deg - 1 - d];
    }
  }
  rp[n] = (gsp_index)(n * deg);
  gsp_matrix A = NULL, B = NULL;
  GSP_OK(gsp_matrix_import_csr(&A, GSP_FP32, n, n, rp, cj, w));
  GSP_OK(gsp_matrix_import_csr(&B, GSP_FP32, n, n, rp, rj, rw));
  float *ya = malloc((size_t)n * n * 4), *yb = malloc((size_t)n * n * 4);
  const float inf = INFINITY;
  GSP_OK(gsp_matrix_export_dense(ya, &inf, A));
  GSP_OK(gsp_matrix_export_dense(yb, &inf, B));
  cr_assert(memcmp(ya, yb, (size_t)n * n * 4) == 0);
  for (int64_t i = 0; i < n; i += 97)
    for (int64_t d = 0; d < deg; d++) cr_assert_eq(ya[i * n + (int64_t)cj[i * deg + d]], w[i * deg + d]);
  /* a duplicate and an out-of-range column are still reported; *A untouched */
  gsp_matrix C = NULL;
  const gsp_index keep = cj[5 * deg + 1];
  cj[5 * deg + 1] = cj[5 * deg];
  cr_assert_eq(gsp_matrix_import_csr(&C, GSP_FP32, n, n, rp, cj, w), GSP_DUPLICATE_ENTRY);
  cr_assert_null(C);
  cj[5 * deg + 1] = (gsp_index)n;
  cr_assert_eq(gsp_matrix_import_csr(&C, GSP_FP32, n, n, rp, cj, w), GSP_INVALID_INDEX);
  cr_assert_null(C);
  /* pack_csr is checked as for import (the header's contract): unsorted
   * rows are accepted, a duplicate is refused with the caller's arrays kept
   * unchanged */
  gsp_index *prp = malloc((n + 1) * sizeof *prp), *pcj = malloc(n * deg * sizeof *pcj);
  void *pw = malloc(n * deg * 4);
  memcpy(prp, rp, (n + 1) * sizeof *prp);
  memcpy(pcj, cj, n * deg * sizeof *pcj); /* cj[5 * deg + 1] is out of range */
  memcpy(pw, w, n * deg * 4);
  cr_assert_eq(gsp_matrix_pack_csr(&C, GSP_FP32, n, n, &prp, &pcj, &pw), GSP_INVALID_INDEX);
  cr_assert(prp && pcj && pw && !C);
  cr_assert(memcmp(pcj, cj, n * deg * sizeof *pcj) == 0, "the caller's columns reordered behind an error");
  cj[5 * deg + 1] = keep;
  memcpy(pcj, rj, n * deg * sizeof *pcj);
  memcpy(pw, rw, n * deg * 4);
  GSP_OK(gsp_matrix_pack_csr(&C, GSP_FP32, n, n, &prp, &pcj, &pw));
  cr_assert(!prp && !pcj && !pw, "the arrays were taken");
  GSP_OK(gsp_matrix_export_dense(yb, &inf, C));
  cr_assert(memcmp(ya, yb, (size_t)n * n * 4) == 0);
  GSP_OK(gsp_matrix_free(&C));
  prp = malloc((n + 1) * sizeof *prp), pcj = malloc(n * deg * sizeof *pcj), pw = malloc(n * deg * 4);
  memcpy(prp, rp, (n + 1) * sizeof *prp);
  memcpy(pcj, cj, n * deg * sizeof *pcj);
  memcpy(pw, w, n * deg * 4);
  GSP_OK(gsp_matrix_pack_csr(&C, GSP_FP32, n, n, &prp, &pcj, &pw));
  GSP_OK(gsp_matrix_export_dense(yb, &inf, C));
  cr_assert(memcmp(ya, yb, (size_t)n * n * 4) == 0);
  GSP_OK(gsp_matrix_free(&A));
  GSP_OK(gsp_matrix_free(&B));
  GSP_OK(gsp_matrix_free(&C));
  free(rp), free(cj), free(rj), free(w), free(rw), free(ya), free(yb);
}

/* Reachability by plain Warshall on bytes (reflexive). */
static void warshall(uint8_t *r, int64_t n) {
  for (int64_t i = 0; i < n; i++) r[i * n + i] = 1;
  for (int64_t k = 0; k < n; k++)
    for (int64_t i = 0; i < n; i++)
      if (r[i * n + k])
        for (int64_t j = 0; j < n; j++) r[i * n + j] |= r[k * n + j];
}

Test(hostpath, bool_bytes_bits_and_back) {
  GSP_OK(gsp_set_threads(2));
  const int64_t n = 700; /* 490000 bytes; rows of 11 words, the last partial */
  uint8_t *x = calloc((size_t)n * n, 1), *ref = malloc((size_t)n * n);
  uint64_t st = 9;
  for (size_t k = 0; k < (size_t)n * n; k++) x[k] = gsp_test_rand(&st) % 1500 == 0;
  memcpy(ref, x, (size_t)n * n);
  warshall(ref, n);
  gsp_matrix A = NULL;
  const uint8_t f = 0;
  GSP_OK(gsp_matrix_import_dense(&A, GSP_BOOL, n, n, x, &f));
  gsp_closure_opts co = {.backend = GSP_BACKEND_CPU};
  GSP_OK(gsp_closure_ext(A, NULL, GSP_OR_AND, &co));
  uint8_t *y = malloc((size_t)n * n);
  GSP_OK(gsp_matrix_export_dense(y, &f, A)); /* from bits */
  cr_assert(memcmp(y, ref, (size_t)n * n) == 0);
  gsp_index nv = 0, want = 0;
  GSP_OK(gsp_matrix_nvals(&nv, A));
  for (size_t k = 0; k < (size_t)n * n; k++) want += ref[k];
  cr_assert_eq(nv, want);
  /* bits -> CSR */
  gsp_index *rp = malloc((n + 1) * sizeof *rp), *cj = malloc((size_t)want * sizeof *cj);
  GSP_OK(gsp_matrix_export_csr(rp, cj, NULL, A));
  for (int64_t i = 0; i < n; i++) {
    gsp_index k = rp[i];
    for (int64_t j = 0; j < n; j++)
      if (ref[i * n + j]) cr_assert_eq(cj[k++], (gsp_index)j, "row %lld", (long long)i);
    cr_assert_eq(k, rp[i + 1]);
  }
  /* bits -> dense bytes by unpack (the dense conversion) */
  void *u = NULL;
  GSP_OK(gsp_matrix_unpack_dense(&u, &f, &A));
  cr_assert(memcmp(u, ref, (size_t)n * n) == 0);
  free(u), free(x), free(ref), free(y), free(rp), free(cj);
}

/* min-plus Floyd-Warshall on doubles, inf = no path, reflexive */
static void fw_ref(double *d, int64_t n) {
  for (int64_t i = 0; i < n; i++) d[i * n + i] = d[i * n + i] < 0 ? d[i * n + i] : 0;
  for (int64_t k = 0; k < n; k++)
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++)
        if (d[i * n + k] + d[k * n + j] < d[i * n + j]) d[i * n + j] = d[i * n + k] + d[k * n + j];
}

Test(hostpath, fp32_dense_closure_matches_reference) {
  GSP_OK(gsp_set_threads(2));
  const int64_t n = 520; /* 270400 cells */
  float *x = malloc((size_t)n * n * 4);
  double *ref = malloc((size_t)n * n * 8);
  uint64_t st = 3;
  for (size_t k = 0; k < (size_t)n * n; k++) {
    const uint64_t r = gsp_test_rand(&st);
    x[k] = r % 40 == 0 ? (float)(1 + (r >> 9) % 100) : INFINITY;
    ref[k] = x[k];
  }
  fw_ref(ref, n);
  gsp_matrix A = NULL;
  const float inf = INFINITY;
  void *px = x;
  GSP_OK(gsp_matrix_pack_dense(&A, GSP_FP32, n, n, &px, &inf));
  gsp_closure_opts co = {.backend = GSP_BACKEND_CPU};
  GSP_OK(gsp_closure_ext(A, NULL, GSP_MIN_PLUS, &co));
  void *y = NULL;
  GSP_OK(gsp_matrix_unpack_dense(&y, &inf, &A));
  for (size_t k = 0; k < (size_t)n * n; k++) cr_assert_eq((double)((float *)y)[k], ref[k], "cell %zu", k);
  free(y), free(ref);
}

Test(hostpath, nan_and_negative_cycle_leave_input_unchanged) {
  GSP_OK(gsp_set_threads(2));
  const int64_t n = 600;
  const size_t nn = (size_t)n * n;
  float *x = malloc(nn * 4);
  uint64_t st = 21;
  for (size_t k = 0; k < nn; k++) x[k] = gsp_test_rand(&st) % 7 == 0 ? (float)(1 + k % 13) : INFINITY;
  x[nn - 3] = NAN; /* in the last rows: every block of a pass is checked */
  const float inf = INFINITY;
  expect_failed_closure_keeps_input(GSP_FP32, x, &inf, n, GSP_BACKEND_CPU, GSP_INVALID_VALUE);
  /* a negative cycle 0 -> 1 -> 0 */
  int32_t *xi = malloc(nn * 4);
  for (size_t k = 0; k < nn; k++) xi[k] = gsp_test_rand(&st) % 7 == 0 ? (int32_t)(1 + k % 13) : INT32_MAX;
  xi[1] = 2;
  xi[n] = -5;
  const int32_t imax = INT32_MAX;
  expect_failed_closure_keeps_input(GSP_INT32, xi, &imax, n, GSP_BACKEND_CPU, GSP_NEGATIVE_CYCLE);
  free(x), free(xi);
}

Test(hostpath, generate_complete_any_thread_count) {
  const int64_t n = 600;
  for (size_t q = 0; q < sizeof all_types / sizeof all_types[0]; q++) {
    const gsp_type t = all_types[q];
    const size_t ts = gsp_type_size(t), nn = (size_t)n * n;
    char *y[3];
    for (int v = 0; v < 3; v++) {
      gsp_matrix A = NULL;
      GSP_OK(gsp_set_threads(v == 0 ? 1 : 2));
      /* v == 2: the random generator asked for every arc lists them with
       * the same per-arc weights */
      if (v < 2) GSP_OK(gsp_generate_complete(&A, t, n, -20, 900, 77));
      else GSP_OK(gsp_generate_random(&A, t, n, n * (n - 1), -20, 900, 77));
      gsp_index nv = 0;
      GSP_OK(gsp_matrix_nvals(&nv, A));
      cr_assert_eq(nv, (gsp_index)(n * (n - 1)));
      y[v] = calloc(nn, ts);
      char fill[8];
      gsp_test_value_set_f64(t, fill, t == GSP_BOOL ? 0 : 12345);
      GSP_OK(gsp_matrix_export_dense(y[v], fill, A));
      GSP_OK(gsp_matrix_free(&A));
    }
    cr_assert(memcmp(y[0], y[1], nn * ts) == 0, "type %d: thread counts differ", (int)t);
    cr_assert(memcmp(y[0], y[2], nn * ts) == 0, "type %d: complete != random with every arc", (int)t);
    for (int v = 0; v < 3; v++) free(y[v]);
  }
}

/* Bool closure results come back as the caller's bytes by unpack straight
 * from the bits, in parallel: absent written as false or as the caller's
 * other value, the same bytes as a plain Warshall. */
Test(hostpath, bool_pack_closure_unpack_from_bits) {
  GSP_OK(gsp_set_threads(2));
  const int64_t n = 701; /* 491401 bytes: parallel; rows end in a partial word */
  const size_t nn = (size_t)n * n;
  uint8_t *ref = malloc(nn);
  for (int fill = 0; fill < 2; fill++) {
    uint8_t *x = calloc(nn, 1);
    uint64_t st = 17 + (uint64_t)fill;
    for (size_t k = 0; k < nn; k++) x[k] = gsp_test_rand(&st) % 1400 == 0;
    memcpy(ref, x, nn);
    warshall(ref, n);
    gsp_matrix A = NULL;
    const uint8_t f = 0, out_absent = (uint8_t)fill;
    void *px = x;
    GSP_OK(gsp_matrix_pack_dense(&A, GSP_BOOL, n, n, &px, &f));
    gsp_closure_opts co = {.backend = GSP_BACKEND_CPU};
    GSP_OK(gsp_closure_ext(A, NULL, GSP_OR_AND, &co));
    void *u = NULL;
    GSP_OK(gsp_matrix_unpack_dense(&u, &out_absent, &A));
    cr_assert_null(A);
    for (size_t k = 0; k < nn; k++)
      cr_assert_eq(((uint8_t *)u)[k], ref[k] ? 1 : out_absent, "absent as %d: cell %zu", fill, k);
    free(u);
  }
  free(ref);
}

/* gsp_apsp's rows_out: every algorithm's rows land in the caller's array,
 * each callback's dist points at its rows there, and the values are those
 * of the result matrix gsp_apsp builds without a callback. */
typedef struct {
  const char *out;
  size_t row_bytes;
  int calls, misplaced;
} rows_probe;

static int probe_rows(void *ctx, gsp_index first, gsp_index nrows, const void *dist, const int64_t *parent) {
  rows_probe *p = ctx;
  (void)nrows, (void)parent;
  p->calls++;
  p->misplaced += (const char *)dist != p->out + first * p->row_bytes;
  return 0;
}

Test(hostpath, apsp_rows_out_every_algorithm) {
  GSP_OK(gsp_set_threads(2));
  const gsp_index n = 600;
  gsp_matrix A = NULL;
  GSP_OK(gsp_generate_random(&A, GSP_FP64, n, 6 * n, 1, 100, 5));
  const gsp_apsp_algo algos[] = {GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MSSSP, GSP_APSP_JOHNSON};
  const size_t nn = (size_t)n * n;
  double *ref = malloc(nn * 8), *out = malloc(nn * 8);
  const double inf = INFINITY;
  for (int a = 0; a < 3; a++)
    for (int blocks = 0; blocks < 2; blocks++) {
      gsp_matrix D = NULL, none = NULL;
      gsp_apsp_opts o = {.algo = algos[a], .backend = GSP_BACKEND_CPU};
      GSP_OK(gsp_apsp(&D, NULL, A, &o));
      GSP_OK(gsp_matrix_export_dense(ref, &inf, D));
      GSP_OK(gsp_matrix_free(&D));
      memset(out, 0xff, nn * 8); /* NaN everywhere: every cell must be written */
      rows_probe p = {.out = (const char *)out, .row_bytes = (size_t)n * 8};
      gsp_apsp_advanced adv = {.rows = probe_rows, .rows_ctx = &p, .rows_out = out, .row_block = blocks ? 128 : 0};
      o.advanced = &adv;
      GSP_OK(gsp_apsp(&D, &none, A, &o));
      cr_assert_null(D);
      cr_assert_geq(p.calls, blocks ? 5 : 1);
      cr_assert_eq(p.misplaced, 0, "algo %d: dist outside rows_out", (int)algos[a]);
      cr_assert(memcmp(out, ref, nn * 8) == 0, "algo %d blocks %d: rows_out differs", (int)algos[a], blocks);
    }
  GSP_OK(gsp_matrix_free(&A));
  free(ref), free(out);
}

Test(hostpath, cuda_warm_up_always_succeeds) {
  /* a GPU or none, CUDA build or not: it starts what there is and says OK */
  GSP_OK(gsp_cuda_warm_up());
  GSP_OK(gsp_cuda_warm_up());
}
