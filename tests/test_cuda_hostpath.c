/*
 * The GPU closure's host path: pipelined staged upload (absent entries to
 * the semiring zero, NaN check, bytes to bits) and download (copy and
 * presence, successors widened to int64), compared exactly with the CPU
 * backend for every numeric type and semiring, dense and CSR inputs, bool
 * bytes and CSR; NaN and negative cycles leave the input unchanged. Sizes
 * span several staging blocks (8 MiB) so the workers' blocks interleave.
 * Every test skips when gsp_cuda_available finds no device.
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gsp_test.h"
#include "hostpath_test.h"

static void gpu_or_skip(void) {
  GSP_TEST_GPU_OR_SKIP();
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  GSP_OK(gsp_set_threads(cpus > 0 ? (int)cpus : 0));
}

/* The absent value a user passes: the semiring's "no edge" where it has
 * one the kernels share (inf / INT_MAX for MIN_*, -inf / INT_MIN for
 * MAX_*), so both the fill and the presence paths run. */
static void absent_of(void *p, gsp_type t, gsp_semiring s) {
  const bool lo = s == GSP_MIN_PLUS || s == GSP_MIN_MAX;
  gsp_test_value_set_f64(t, p, t == GSP_BOOL ? 0 : lo ? INFINITY : -INFINITY);
}

/* Dense n x n input for (t, s): sparse weights without negative (MIN_PLUS)
 * or positive (MAX_PLUS) cycles: w = base + p(i) - p(j) telescopes. */
static void *dense_input(gsp_type t, gsp_semiring s, int64_t n, double density, uint64_t seed) {
  const size_t ts = gsp_type_size(t), nn = (size_t)n * (size_t)n;
  char *x = malloc(nn * ts), absent[8];
  cr_assert(x);
  absent_of(absent, t, s);
  uint64_t st = seed;
  const uint64_t cut = (uint64_t)(density * 1e6);
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) {
      const size_t k = (size_t)i * (size_t)n + (size_t)j;
      const uint64_t r = gsp_test_rand(&st);
      if (r % 1000000 >= cut) {
        memcpy(x + k * ts, absent, ts);
        continue;
      }
      int64_t w = 1 + (int64_t)((r >> 24) % 50);
      if (s == GSP_MIN_PLUS) w += (i % 7) - (j % 7) + 6;
      if (s == GSP_MAX_PLUS) w = -w - ((i % 7) - (j % 7) + 6);
      gsp_test_value_set(t, x + k * ts, w);
    }
  return x;
}

/* Close a copy of x on `backend` and return the dense result (absent ->
 * `absent`); also the entry count. */
static void *closed(const void *x, gsp_type t, gsp_semiring s, int64_t n, gsp_backend backend, bool csr,
                    gsp_index *nvals) {
  const size_t ts = gsp_type_size(t), nn = (size_t)n * (size_t)n;
  char absent[8];
  absent_of(absent, t, s);
  gsp_matrix A = NULL;
  if (!csr) {
    GSP_OK(gsp_matrix_import_dense(&A, t, n, n, x, absent));
  } else {
    gsp_matrix D = NULL;
    GSP_OK(gsp_matrix_import_dense(&D, t, n, n, x, absent));
    gsp_index nv = 0;
    GSP_OK(gsp_matrix_nvals(&nv, D));
    gsp_index *rp = malloc((n + 1) * sizeof *rp), *cj = malloc((nv + 1) * sizeof *cj);
    void *v = malloc((nv + 1) * ts);
    GSP_OK(gsp_matrix_export_csr(rp, cj, v, D));
    GSP_OK(gsp_matrix_import_csr(&A, t, n, n, rp, cj, v));
    GSP_OK(gsp_matrix_free(&D));
    free(rp), free(cj), free(v);
  }
  gsp_closure_opts co = {.backend = backend};
  GSP_OK(gsp_closure_ext(A, NULL, s, &co));
  GSP_OK(gsp_matrix_nvals(nvals, A));
  void *y = malloc(nn * ts);
  GSP_OK(gsp_matrix_export_dense(y, absent, A));
  GSP_OK(gsp_matrix_free(&A));
  return y;
}

static void compare(gsp_type t, gsp_semiring s, int64_t n, double density, bool csr) {
  void *x = dense_input(t, s, n, density, 1000 + (uint64_t)t * 10 + (uint64_t)s);
  gsp_index nc = 0, ng = 0;
  void *yc = closed(x, t, s, n, GSP_BACKEND_CPU, csr, &nc);
  void *yg = closed(x, t, s, n, GSP_BACKEND_CUDA, csr, &ng);
  cr_assert_eq(nc, ng, "type %d semiring %d n %lld%s: %llu entries on the CPU, %llu on the GPU", (int)t, (int)s,
               (long long)n, csr ? " csr" : "", (unsigned long long)nc, (unsigned long long)ng);
  const size_t ts = gsp_type_size(t), nn = (size_t)n * (size_t)n;
  for (size_t k = 0; k < nn; k++)
    cr_assert(memcmp((char *)yc + k * ts, (char *)yg + k * ts, ts) == 0,
              "type %d semiring %d n %lld%s: cell %zu differs", (int)t, (int)s, (long long)n, csr ? " csr" : "", k);
  free(x), free(yc), free(yg);
}

Test(cuda_hostpath, every_type_and_semiring_dense, .timeout = 600) {
  gpu_or_skip();
  const gsp_type ts[] = {GSP_INT32, GSP_INT64, GSP_FP32, GSP_FP64};
  const gsp_semiring ss[] = {GSP_MIN_PLUS, GSP_MAX_PLUS, GSP_MAX_MIN, GSP_MIN_MAX};
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++) {
      compare(ts[a], ss[b], 1500, 0.002, false); /* 9-18 MiB: 2-3 blocks */
      /* one small block: the staged copy must wait for the device's zero
       * fill (a race the larger sizes hide) */
      compare(ts[a], ss[b], 300, 0.01, false);
      compare(ts[a], ss[b], 129, 0.05, true);
    }
}

Test(cuda_hostpath, csr_inputs, .timeout = 600) {
  gpu_or_skip();
  compare(GSP_FP32, GSP_MIN_PLUS, 2100, 0.001, true);
  compare(GSP_INT32, GSP_MIN_PLUS, 2100, 0.001, true);
  compare(GSP_FP64, GSP_MAX_MIN, 1300, 0.002, true);
  /* sparse enough that entries stay absent: the download's presence pass */
  compare(GSP_FP32, GSP_MIN_PLUS, 2100, 0.0002, false);
}

Test(cuda_hostpath, bool_bytes_and_csr, .timeout = 600) {
  gpu_or_skip();
  for (int c = 0; c < 2; c++) {
    const int64_t n = 9000; /* 81 MB of bytes: several blocks of bits rows */
    const size_t nn = (size_t)n * (size_t)n;
    uint8_t *x = calloc(nn, 1);
    uint64_t st = 44 + (uint64_t)c;
    for (int64_t e = 0; e < n; e++)
      x[(gsp_test_rand(&st) % (uint64_t)n) * (uint64_t)n + gsp_test_rand(&st) % (uint64_t)n] = 1;
    gsp_index nc = 0, ng = 0;
    void *yc = closed(x, GSP_BOOL, GSP_OR_AND, n, GSP_BACKEND_CPU, c == 1, &nc);
    void *yg = closed(x, GSP_BOOL, GSP_OR_AND, n, GSP_BACKEND_CUDA, c == 1, &ng);
    cr_assert_eq(nc, ng);
    cr_assert(memcmp(yc, yg, nn) == 0, "%s: bool closures differ", c ? "csr" : "bytes");
    free(x), free(yc), free(yg);
  }
}

Test(cuda_hostpath, successors_match_distances, .timeout = 600) {
  gpu_or_skip();
  const int64_t n = 1800;
  float *x = dense_input(GSP_FP32, GSP_MIN_PLUS, n, 0.003, 5);
  const float inf = INFINITY;
  gsp_matrix A = NULL, S = NULL, C = NULL;
  GSP_OK(gsp_matrix_import_dense(&A, GSP_FP32, n, n, x, &inf));
  GSP_OK(gsp_matrix_import_dense(&C, GSP_FP32, n, n, x, &inf));
  gsp_closure_opts cu = {.backend = GSP_BACKEND_CUDA}, cp = {.backend = GSP_BACKEND_CPU};
  GSP_OK(gsp_closure_ext(A, &S, GSP_MIN_PLUS, &cu));
  GSP_OK(gsp_closure_ext(C, NULL, GSP_MIN_PLUS, &cp));
  const size_t nn = (size_t)n * (size_t)n;
  float *d = malloc(nn * 4), *dc = malloc(nn * 4);
  int64_t *s = malloc(nn * 8);
  const int64_t none = -1;
  GSP_OK(gsp_matrix_export_dense(d, &inf, A));
  GSP_OK(gsp_matrix_export_dense(dc, &inf, C));
  GSP_OK(gsp_matrix_export_dense(s, &none, S));
  cr_assert(memcmp(d, dc, nn * 4) == 0);
  /* the successor starts a shortest path: d(i,j) = w(i,s) + d(s,j) */
  for (int64_t i = 0; i < n; i += 7)
    for (int64_t j = 0; j < n; j++) {
      const size_t k = (size_t)i * n + j;
      if (i == j || isinf(d[k])) {
        cr_assert(i == j || s[k] == -1);
        continue;
      }
      const int64_t v = s[k];
      cr_assert(v >= 0 && v < n, "(%lld,%lld): successor %lld", (long long)i, (long long)j, (long long)v);
      const float rest = v == j ? 0 : d[(size_t)v * n + j];
      cr_assert_eq(d[k], x[(size_t)i * n + v] + rest, "(%lld,%lld) via %lld", (long long)i, (long long)j, (long long)v);
    }
  GSP_OK(gsp_matrix_free(&A));
  GSP_OK(gsp_matrix_free(&S));
  GSP_OK(gsp_matrix_free(&C));
  free(x), free(d), free(dc), free(s);
}

Test(cuda_hostpath, nan_and_negative_cycle_leave_input_unchanged, .timeout = 300) {
  gpu_or_skip();
  const int64_t n = 2100;
  const size_t nn = (size_t)n * (size_t)n;
  float *x = dense_input(GSP_FP32, GSP_MIN_PLUS, n, 0.002, 8);
  x[nn - 5] = NAN; /* in the last staging block */
  const float inf = INFINITY;
  expect_failed_closure_keeps_input(GSP_FP32, x, &inf, n, GSP_BACKEND_CUDA, GSP_INVALID_VALUE);
  /* still usable: without the NaN it closes */
  gsp_matrix A = NULL;
  x[nn - 5] = INFINITY;
  GSP_OK(gsp_matrix_import_dense(&A, GSP_FP32, n, n, x, &inf));
  gsp_closure_opts cu = {.backend = GSP_BACKEND_CUDA};
  GSP_OK(gsp_closure_ext(A, NULL, GSP_MIN_PLUS, &cu));
  GSP_OK(gsp_matrix_free(&A));
  /* negative cycle 3 -> 4 -> 3 */
  x[3 * n + 4] = 1;
  x[4 * n + 3] = -2;
  expect_failed_closure_keeps_input(GSP_FP32, x, &inf, n, GSP_BACKEND_CUDA, GSP_NEGATIVE_CYCLE);
  free(x);
}

Test(cuda_hostpath, pack_closure_unpack_round_trip, .timeout = 300) {
  gpu_or_skip();
  /* the user's call: pack, closure on the device, unpack (download into a
   * fresh array, the absent value written back) */
  const int64_t n = 3000;
  const size_t nn = (size_t)n * (size_t)n;
  int32_t *x = dense_input(GSP_INT32, GSP_MIN_PLUS, n, 0.0003, 12);
  gsp_index nc = 0;
  int32_t *ref = closed(x, GSP_INT32, GSP_MIN_PLUS, n, GSP_BACKEND_CPU, false, &nc);
  const int32_t imax = INT32_MAX, fill = -7;
  gsp_matrix A = NULL;
  void *px = x;
  GSP_OK(gsp_matrix_pack_dense(&A, GSP_INT32, n, n, &px, &imax));
  gsp_closure_opts cu = {.backend = GSP_BACKEND_CUDA};
  GSP_OK(gsp_closure_ext(A, NULL, GSP_MIN_PLUS, &cu));
  gsp_index ng = 0;
  GSP_OK(gsp_matrix_nvals(&ng, A));
  cr_assert_eq(ng, nc);
  void *y = NULL;
  GSP_OK(gsp_matrix_unpack_dense(&y, &fill, &A));
  for (size_t k = 0; k < nn; k++) cr_assert_eq(((int32_t *)y)[k], ref[k] == INT32_MAX ? fill : ref[k], "cell %zu", k);
  free(y), free(ref);
}

/* gsp_apsp by MSSSP on the GPU keeps the kernel's presence flags: whole,
 * and in parts (a progress callback) where some parts are full and others
 * not; against the CPU backend. */
static void count_call(double f, void *ctx) {
  (void)f;
  ++*(int *)ctx;
}

Test(cuda_hostpath, apsp_presence_from_the_kernel, .timeout = 300) {
  gpu_or_skip();
  const gsp_index n = 5000;
  const gsp_index arcs[] = {40000, 5200};
  for (int c = 0; c < 2; c++) {
    gsp_matrix A = NULL, Dc = NULL, Dg = NULL, Dp = NULL;
    GSP_OK(gsp_generate_random(&A, GSP_INT32, n, arcs[c], 1, 1000, 31 + (uint64_t)c));
    gsp_apsp_opts o = {.algo = GSP_APSP_MSSSP, .backend = GSP_BACKEND_CPU};
    GSP_OK(gsp_apsp(&Dc, NULL, A, &o));
    gsp_apsp_report rep;
    gsp_apsp_advanced adv = {.report = &rep};
    o.backend = GSP_BACKEND_CUDA;
    o.advanced = &adv;
    GSP_OK(gsp_apsp(&Dg, NULL, A, &o));
    cr_assert_eq(rep.backend, GSP_BACKEND_CUDA);
    int calls = 0;
    adv.progress = count_call;
    adv.progress_ctx = &calls;
    GSP_OK(gsp_apsp(&Dp, NULL, A, &o));
    cr_assert_geq(calls, 2);
    const size_t nn = (size_t)n * n;
    int32_t *yc = malloc(nn * 4), *yg = malloc(nn * 4);
    const int32_t none = -1;
    gsp_index nc = 0, ng = 0;
    GSP_OK(gsp_matrix_export_dense(yc, &none, Dc));
    GSP_OK(gsp_matrix_nvals(&nc, Dc));
    gsp_matrix Ds[2] = {Dg, Dp};
    for (int v = 0; v < 2; v++) {
      GSP_OK(gsp_matrix_export_dense(yg, &none, Ds[v]));
      GSP_OK(gsp_matrix_nvals(&ng, Ds[v]));
      cr_assert_eq(nc, ng, "%s%s: %llu entries, CPU %llu", c ? "sparse" : "connected", v ? " in parts" : "",
                   (unsigned long long)ng, (unsigned long long)nc);
      cr_assert(memcmp(yc, yg, nn * 4) == 0, "%s%s differs", c ? "sparse" : "connected", v ? " in parts" : "");
    }
    free(yc), free(yg);
    GSP_OK(gsp_matrix_free(&A));
    GSP_OK(gsp_matrix_free(&Dc));
    GSP_OK(gsp_matrix_free(&Dg));
    GSP_OK(gsp_matrix_free(&Dp));
  }
}

/* Successors come back without presence flags when every pair has one and
 * with them otherwise: the same entries and values as the CPU's. */
Test(cuda_hostpath, successor_presence_full_and_sparse, .timeout = 300) {
  gpu_or_skip();
  const int64_t n = 1100;
  const size_t nn = (size_t)n * (size_t)n;
  const double dens[] = {1.0, 0.0015};
  for (int c = 0; c < 2; c++) {
    float *x = dense_input(GSP_FP32, GSP_MIN_PLUS, n, dens[c], 70 + (uint64_t)c);
    const float inf = INFINITY;
    int64_t *s[2];
    gsp_index nv[2];
    for (int be = 0; be < 2; be++) {
      gsp_matrix A = NULL, S = NULL;
      GSP_OK(gsp_matrix_import_dense(&A, GSP_FP32, n, n, x, &inf));
      gsp_closure_opts co = {.backend = be ? GSP_BACKEND_CUDA : GSP_BACKEND_CPU};
      GSP_OK(gsp_closure_ext(A, &S, GSP_MIN_PLUS, &co));
      GSP_OK(gsp_matrix_nvals(&nv[be], S));
      s[be] = malloc(nn * 8);
      const int64_t fill = -7; /* not a successor, not the kernel's -1 */
      GSP_OK(gsp_matrix_export_dense(s[be], &fill, S));
      GSP_OK(gsp_matrix_free(&A));
      GSP_OK(gsp_matrix_free(&S));
    }
    cr_assert_eq(nv[0], nv[1], "density %g: %llu successors on the CPU, %llu on the GPU", dens[c],
                 (unsigned long long)nv[0], (unsigned long long)nv[1]);
    if (c == 0) cr_assert_eq(nv[1], (gsp_index)nn, "a complete graph has every successor");
    /* successors may differ between equally short paths; presence may not */
    for (size_t k = 0; k < nn; k++)
      cr_assert_eq(s[0][k] == -7, s[1][k] == -7, "density %g: cell %zu present on one side only", dens[c], k);
    free(x), free(s[0]), free(s[1]);
  }
}

/* Bool bytes packed, closed on the GPU, unpacked into the caller's array
 * straight from the bits: the CPU's bytes, absent as false or as true. */
Test(cuda_hostpath, bool_pack_closure_unpack, .timeout = 300) {
  gpu_or_skip();
  const int64_t n = 5000; /* 25 MB of bytes: many blocks of bits rows */
  const size_t nn = (size_t)n * (size_t)n;
  for (int fill = 0; fill < 2; fill++) {
    uint8_t *y[2];
    for (int be = 0; be < 2; be++) {
      uint8_t *x = calloc(nn, 1);
      uint64_t st = 91;
      for (int64_t e = 0; e < n; e++)
        x[(gsp_test_rand(&st) % (uint64_t)n) * (uint64_t)n + gsp_test_rand(&st) % (uint64_t)n] = 1;
      gsp_matrix A = NULL;
      const uint8_t f = 0, out_absent = (uint8_t)fill;
      void *px = x;
      GSP_OK(gsp_matrix_pack_dense(&A, GSP_BOOL, n, n, &px, &f));
      gsp_closure_opts co = {.backend = be ? GSP_BACKEND_CUDA : GSP_BACKEND_CPU};
      GSP_OK(gsp_closure_ext(A, NULL, GSP_OR_AND, &co));
      void *u = NULL;
      GSP_OK(gsp_matrix_unpack_dense(&u, &out_absent, &A));
      y[be] = u;
    }
    cr_assert(memcmp(y[0], y[1], nn) == 0, "absent as %d: CPU and GPU bytes differ", fill);
    free(y[0]), free(y[1]);
  }
}

/* Dense inputs without presence flags (every entry present): int32 with
 * negative weights (no negative cycle) must not take the non-negative DPX
 * path, and a NaN fails the call with the input unchanged. */
Test(cuda_hostpath, full_dense_negative_weights_and_nan, .timeout = 300) {
  gpu_or_skip();
  const int64_t n = 1200;
  const size_t nn = (size_t)n * (size_t)n;
  int32_t *x = malloc(nn * 4);
  uint64_t st = 5;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) /* c >= 0 plus a potential: cycles >= 0 */
      x[i * n + j] = (int32_t)(1 + gsp_test_rand(&st) % 900) + (int32_t)((i * 37) % 31) - (int32_t)((j * 37) % 31);
  int32_t *y[2];
  for (int be = 0; be < 2; be++) {
    gsp_matrix A = NULL;
    GSP_OK(gsp_matrix_import_dense(&A, GSP_INT32, n, n, x, NULL));
    gsp_closure_opts co = {.backend = be ? GSP_BACKEND_CUDA : GSP_BACKEND_CPU};
    GSP_OK(gsp_closure_ext(A, NULL, GSP_MIN_PLUS, &co));
    y[be] = malloc(nn * 4);
    const int32_t imax = INT32_MAX;
    GSP_OK(gsp_matrix_export_dense(y[be], &imax, A));
    GSP_OK(gsp_matrix_free(&A));
  }
  cr_assert(memcmp(y[0], y[1], nn * 4) == 0, "int32 with negative weights: CPU and GPU differ");
  float *f = malloc(nn * 4), *g = malloc(nn * 4);
  for (size_t k = 0; k < nn; k++) f[k] = (float)(1 + k % 97);
  f[nn / 2 + 3] = NAN;
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_import_dense(&A, GSP_FP32, n, n, f, NULL));
  gsp_closure_opts cu = {.backend = GSP_BACKEND_CUDA};
  cr_assert_eq(gsp_closure_ext(A, NULL, GSP_MIN_PLUS, &cu), GSP_INVALID_VALUE);
  GSP_OK(gsp_matrix_export_dense(g, NULL, A));
  cr_assert(memcmp(f, g, nn * 4) == 0, "the input changed");
  GSP_OK(gsp_matrix_free(&A));
  free(x), free(y[0]), free(y[1]), free(f), free(g);
}

/* gsp_apsp on the GPU computes rows straight into the caller's rows_out:
 * the callback's rows are there, equal to the result matrix's. */
static int rows_in_place(void *ctx, gsp_index first, gsp_index nrows, const void *dist, const int64_t *parent) {
  (void)nrows, (void)parent;
  const gsp_index *c = ctx; /* rows_out, n */
  return (const char *)dist == (const char *)(uintptr_t)c[0] + first * c[1] * sizeof(float) ? 0 : 1;
}

Test(cuda_hostpath, apsp_rows_out_on_the_gpu, .timeout = 300) {
  gpu_or_skip();
  GSP_OK(gsp_cuda_warm_up());
  const gsp_index n = 4000;
  const size_t nn = (size_t)n * n;
  gsp_matrix A = NULL, D = NULL;
  GSP_OK(gsp_generate_random(&A, GSP_FP32, n, 5 * n, 1, 100, 8));
  gsp_apsp_opts o = {.algo = GSP_APSP_MSSSP, .backend = GSP_BACKEND_CUDA};
  GSP_OK(gsp_apsp(&D, NULL, A, &o));
  float *ref = malloc(nn * 4), *out = malloc(nn * 4);
  const float inf = INFINITY;
  GSP_OK(gsp_matrix_export_dense(ref, &inf, D));
  GSP_OK(gsp_matrix_free(&D));
  for (int blocks = 0; blocks < 2; blocks++) {
    memset(out, 0xff, nn * 4);
    gsp_index ctx[2] = {(gsp_index)(uintptr_t)out, n};
    gsp_apsp_report rep;
    gsp_apsp_advanced adv = {
        .rows = rows_in_place, .rows_ctx = ctx, .rows_out = out, .row_block = blocks ? 1024 : 0, .report = &rep};
    o.advanced = &adv;
    GSP_OK(gsp_apsp(&D, NULL, A, &o));
    cr_assert_eq(rep.backend, GSP_BACKEND_CUDA);
    cr_assert(memcmp(out, ref, nn * 4) == 0, "blocks %d: rows_out differs", blocks);
  }
  GSP_OK(gsp_matrix_free(&A));
  free(ref), free(out);
}

/* export_dense of a GPU result goes straight from the device into the
 * caller's array (no host copy first): every numeric type, both zeros
 * (MIN_* and MAX_*), absent entries as the caller's value, absent NULL for
 * a complete result; the matrix is unchanged and exports the same after. */
Test(cuda_hostpath, export_straight_from_the_device, .timeout = 300) {
  gpu_or_skip();
  const gsp_type ts[] = {GSP_INT32, GSP_INT64, GSP_FP32, GSP_FP64};
  const gsp_semiring ss[] = {GSP_MIN_PLUS, GSP_MAX_MIN};
  const int64_t n = 1300;
  const size_t nn = (size_t)n * (size_t)n;
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 2; b++)
      for (int full = 0; full < 2; full++) {
        const gsp_type t = ts[a];
        const gsp_semiring s = ss[b];
        const size_t sz = gsp_type_size(t);
        void *x = dense_input(t, s, n, full ? 1.0 : 0.0008, 300 + (uint64_t)(a * 4 + b * 2 + full));
        char absent[8], fill[8];
        absent_of(absent, t, s);
        gsp_test_value_set(t, fill, -3);
        char *y[3];
        gsp_index nv[2];
        for (int be = 0; be < 2; be++) {
          gsp_matrix A = NULL;
          GSP_OK(gsp_matrix_import_dense(&A, t, n, n, x, absent));
          gsp_closure_opts co = {.backend = be ? GSP_BACKEND_CUDA : GSP_BACKEND_CPU};
          GSP_OK(gsp_closure_ext(A, NULL, s, &co));
          y[be] = malloc(nn * sz);
          /* first: before anything brings the result to the host */
          GSP_OK(gsp_matrix_export_dense(y[be], full ? NULL : fill, A));
          GSP_OK(gsp_matrix_nvals(&nv[be], A));
          if (be) {
            y[2] = malloc(nn * sz);
            GSP_OK(gsp_matrix_export_dense(y[2], fill, A)); /* from the host copy now */
            cr_assert(memcmp(y[1], y[2], nn * sz) == 0, "type %d semiring %d: device and host exports differ", (int)t,
                      (int)s);
          }
          GSP_OK(gsp_matrix_free(&A));
        }
        cr_assert_eq(nv[0], nv[1], "type %d semiring %d full %d: entries", (int)t, (int)s, full);
        if (full) cr_assert_eq(nv[1], (gsp_index)nn);
        cr_assert(memcmp(y[0], y[1], nn * sz) == 0, "type %d semiring %d full %d: CPU and GPU exports differ", (int)t,
                  (int)s, full);
        free(x), free(y[0]), free(y[1]), free(y[2]);
      }
}

/* CSR rows that are full, or full but for one column (anywhere, the first
 * and the last included), are staged without their column indices: the
 * same closure as the CPU's, with rows of every other length mixed in. */
Test(cuda_hostpath, csr_full_rows, .timeout = 300) {
  gpu_or_skip();
  const int64_t n = 900;
  const gsp_semiring ss[] = {GSP_MIN_PLUS, GSP_MAX_MIN};
  for (int b = 0; b < 2; b++) {
    const gsp_semiring s = ss[b];
    float *x = dense_input(GSP_FP32, s, n, 1.0, 500 + (uint64_t)b);
    float absent;
    absent_of(&absent, GSP_FP32, s);
    for (int64_t i = 0; i < n; i++) {
      if (i % 3 == 0) continue;                                         /* full */
      const int64_t m = i % 3 == 1 ? (i * 7) % n : (i % 2 ? 0 : n - 1); /* one column out */
      x[i * n + m] = absent;
      if (i % 10 == 2) x[i * n + (m + 1) % n] = absent; /* two out: the scatter */
    }
    gsp_index nc = 0, ng = 0;
    float *yc = closed(x, GSP_FP32, s, n, GSP_BACKEND_CPU, true, &nc);
    float *yg = closed(x, GSP_FP32, s, n, GSP_BACKEND_CUDA, true, &ng);
    cr_assert_eq(nc, ng);
    cr_assert(memcmp(yc, yg, (size_t)n * n * 4) == 0, "semiring %d: CSR full rows differ", (int)s);
    free(x), free(yc), free(yg);
  }
  /* the complete generator's rows: n - 1 entries, no self-loop */
  gsp_matrix A = NULL, B = NULL;
  GSP_OK(gsp_generate_complete(&A, GSP_FP32, n, 1, 100, 3));
  GSP_OK(gsp_matrix_dup(&B, A));
  gsp_closure_opts cu = {.backend = GSP_BACKEND_CUDA}, cp = {.backend = GSP_BACKEND_CPU};
  GSP_OK(gsp_closure_ext(A, NULL, GSP_MIN_PLUS, &cu));
  GSP_OK(gsp_closure_ext(B, NULL, GSP_MIN_PLUS, &cp));
  float *ya = malloc((size_t)n * n * 4), *yb = malloc((size_t)n * n * 4);
  const float inf = INFINITY;
  GSP_OK(gsp_matrix_export_dense(ya, &inf, A));
  GSP_OK(gsp_matrix_export_dense(yb, &inf, B));
  cr_assert(memcmp(ya, yb, (size_t)n * n * 4) == 0, "complete graph: CPU and GPU differ");
  GSP_OK(gsp_matrix_free(&A));
  GSP_OK(gsp_matrix_free(&B));
  free(ya), free(yb);
}
