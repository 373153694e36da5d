/*
 * gsp_mxv / gsp_vxm / gsp_mxm on the CUDA backend against the CPU backend
 * and GrB_mxv / GrB_vxm / GrB_mxm: every (semiring, type) pair, push and
 * pull forced and the automatic choice (which sends full FP32/FP64
 * PLUS_TIMES inputs to cuSPARSE), every mask / complement / replace /
 * accumulator configuration, transposed operands, empty, 1x1 and
 * rectangular shapes, rows long enough for the warp-per-row kernels;
 * sparse x dense mxm (our kernel and cuSPARSE SpMM), dense x dense mxm
 * (cuBLAS) and sparse x sparse PLUS_TIMES mxm (cuSPARSE SpGEMM, each
 * algorithm, real values with a stated tolerance; what stays on the CPU).
 * One device copy per matrix: SSSP and the products share it, and every
 * host change drops it. Residency: a product's result stays on the device until a host
 * read downloads it, host writes drop stale device copies, AUTO follows
 * resident operands. Errors and host allocation failures leave outputs as
 * they were. BFS and SSSP built from repeated GPU gsp_vxm calls equal the
 * CPU / gsp_sssp results.
 *
 * Values are small integers (gsp_test_range): min / max / or results are
 * exact, float PLUS_TIMES is compared with gsp_test_tol (push sums with
 * atomics in any order). Every GPU test skips without a usable device;
 * CUDA is first touched inside a test (Criterion forks each one).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gsp_internal.h"
#include "gsp_test.h"
#include "gsp_test_tier.h"

static void gpu_or_skip(void) {
  GSP_TEST_GPU_OR_SKIP();
  GSP_OK(gsp_set_threads(2));
}

static gsp_desc with(gsp_desc d, gsp_backend b, gsp_direction dir) {
  d.backend = b;
  d.direction = dir;
  return d;
}

static const gsp_direction dirs[3] = {GSP_DIRECTION_AUTO, GSP_DIRECTION_PUSH, GSP_DIRECTION_PULL};
static const char *const dir_names[3] = {"auto", "push", "pull"};

static gsp_info run_mv(bool vxm, gsp_vector w, gsp_vector M, gsp_binop accum, gsp_semiring s, gsp_matrix A,
                       gsp_vector u, const gsp_desc *d) {
  return vxm ? gsp_vxm(w, M, accum, s, u, A, d) : gsp_mxv(w, M, accum, s, A, u, d);
}

/* ---- mxv / vxm sweep ---- */

typedef struct {
  gsp_index m, n; /* A is m x n */
  double da, du;
} shape;

static const shape shapes[] = {
    {0, 0, 0.5, 0.5},      /* empty */
    {1, 1, 1.0, 1.0},      /* 1x1 */
    {6, 0, 0.5, 0.5},      /* no columns */
    {0, 6, 0.5, 0.5},      /* no rows */
    {7, 13, 0.3, 0.5},     /* rectangular */
    {12, 12, 1.0, 1.0},    /* dense, full u */
    {50, 40, 0.05, 0.1},   /* sparse matrix, sparse frontier */
    {300, 200, 0.2, 0.02}, /* long rows (warp per row), frontier under 5%: push */
    {200, 300, 0.15, 1.0}, /* long rows, full u (cuSPARSE for float PLUS_TIMES) */
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

/* One configuration: CPU backend, GraphBLAS, and the GPU in each direction. */
static void check_mv(bool vxm, gsp_semiring s, gsp_type t, shape sh, int cfgk, bool tr, uint64_t seed) {
  gsp_test_config cfg = gsp_test_config_get(cfgk);
  int64_t lo, hi;
  gsp_test_range(s, &lo, &hi);
  gsp_index nu = (vxm != tr) ? sh.m : sh.n, nw = (vxm != tr) ? sh.n : sh.m;
  gsp_matrix A = gsp_test_random_matrix(t, sh.m, sh.n, sh.da, lo, hi, seed);
  gsp_vector u = gsp_test_random_vector(t, nu, sh.du, lo, hi, seed + 1);
  gsp_vector w = gsp_test_random_vector(t, nw, 0.4, lo, hi, seed + 2);
  gsp_vector M = cfg.mask ? gsp_test_random_vmask(nw, 0.5, seed + 3) : NULL;
  gsp_binop accum = cfg.accum ? gsp_test_accum((int)seed) : GSP_NOOP;
  const gsp_desc d0 = gsp_test_desc(cfg, !vxm && tr, vxm && tr);
  const double tol = gsp_test_tol(s, t);

  gsp_vector wc = NULL;
  GSP_OK(gsp_vector_dup(&wc, w));
  gsp_desc dc = with(d0, GSP_BACKEND_CPU, GSP_DIRECTION_AUTO);
  GSP_OK(run_mv(vxm, wc, M, accum, s, A, u, &dc));
  GrB_Vector gw = NULL;
  if (nw > 0) { /* SuiteSparse 7.4 crashes on empty outputs with mask and accumulator */
    GrB_Matrix gA = gsp_test_to_grb_matrix(A);
    GrB_Vector gu = gsp_test_to_grb_vector(u), gM = M ? gsp_test_to_grb_vector(M) : NULL;
    gw = gsp_test_to_grb_vector(w);
    GrB_Descriptor gd = gsp_test_grb_desc(&d0);
    GrB_BinaryOp gacc = gsp_test_grb_binop(accum, t);
    GrB_Semiring gs = gsp_test_grb_semiring(s, t);
    if (vxm) GRB_OK(GrB_vxm(gw, gM, gacc, gs, gu, gA, gd));
    else GRB_OK(GrB_mxv(gw, gM, gacc, gs, gA, gu, gd));
    GrB_free(&gA), GrB_free(&gu), GrB_free(&gd);
    if (gM) GrB_free(&gM);
  }
  for (int di = 0; di < 3; di++) {
    gsp_test_context("gpu %s %s %s %s A %llux%llu %s%s seed %llu", vxm ? "vxm" : "mxv", dir_names[di],
                     gsp_test_semiring_name(s), gsp_test_type_name(t), (unsigned long long)sh.m,
                     (unsigned long long)sh.n, gsp_test_config_name(cfg), tr ? " A'" : "", (unsigned long long)seed);
    gsp_vector wg = NULL;
    GSP_OK(gsp_vector_dup(&wg, w));
    gsp_desc dg = with(d0, GSP_BACKEND_CUDA, dirs[di]);
    GSP_OK(run_mv(vxm, wg, M, accum, s, A, u, &dg));
    cr_assert(wg->dev_only, "%sthe GPU result is not device-resident", gsp_test_ctx);
    gsp_test_assert_vector_same(wg, wc, tol);
    if (gw) gsp_test_assert_vector_eq(wg, gw, tol);
    gsp_vector_free(&wg);
  }
  if (gw) GrB_free(&gw);
  gsp_matrix_free(&A), gsp_vector_free(&u), gsp_vector_free(&w), gsp_vector_free(&M), gsp_vector_free(&wc);
}

static void sweep(bool vxm, gsp_semiring s) {
  gpu_or_skip();
  uint64_t seed = 7000 * (uint64_t)s + 300000 * vxm;
  for (int ti = 0; ti < GSP_TEST_NTYPES; ti++) {
    gsp_type t = gsp_test_types[ti];
    if (!gsp_test_fits(s, t)) continue;
    /* quick tier: every fourth descriptor configuration, a different
     * quarter for each type and shape so that a sweep still meets them all */
    for (size_t k = 0; k < NSHAPES; k++)
      for (int c = GSP_TIER((int)((ti + k) % 4), 0); c < GSP_TEST_NCONFIG; c += GSP_TIER(4, 1))
        for (int tr = 0; tr < 2; tr++) check_mv(vxm, s, t, shapes[k], c, tr, seed++);
  }
}

Test(cuda_mxv, min_plus) {
  sweep(false, GSP_MIN_PLUS);
}
Test(cuda_mxv, max_plus) {
  sweep(false, GSP_MAX_PLUS);
}
Test(cuda_mxv, max_min) {
  sweep(false, GSP_MAX_MIN);
}
Test(cuda_mxv, min_max) {
  sweep(false, GSP_MIN_MAX);
}
Test(cuda_mxv, or_and) {
  sweep(false, GSP_OR_AND);
}
Test(cuda_mxv, plus_times) {
  sweep(false, GSP_PLUS_TIMES);
}
Test(cuda_vxm, min_plus) {
  sweep(true, GSP_MIN_PLUS);
}
Test(cuda_vxm, max_plus) {
  sweep(true, GSP_MAX_PLUS);
}
Test(cuda_vxm, max_min) {
  sweep(true, GSP_MAX_MIN);
}
Test(cuda_vxm, min_max) {
  sweep(true, GSP_MIN_MAX);
}
Test(cuda_vxm, or_and) {
  sweep(true, GSP_OR_AND);
}
Test(cuda_vxm, plus_times) {
  sweep(true, GSP_PLUS_TIMES);
}

/* Integer MIN_PLUS saturates on the GPU as on the CPU: INT_MAX absorbs,
 * overflowing sums clamp, in both directions. */
Test(cuda_vxm, int_min_plus_saturates) {
  gpu_or_skip();
  gsp_matrix A = NULL;
  gsp_vector u = NULL;
  GSP_OK(gsp_matrix_new(&A, GSP_INT32, 2, 3));
  GSP_OK(gsp_vector_new(&u, GSP_INT32, 2));
  int32_t big = INT32_MAX - 5, inf = INT32_MAX, ten = 10, one = 1;
  GSP_OK(gsp_matrix_set_element(A, 0, 0, &ten)); /* big + 10: clamps to INT_MAX */
  GSP_OK(gsp_matrix_set_element(A, 1, 1, &inf)); /* 1 + inf: inf */
  GSP_OK(gsp_matrix_set_element(A, 1, 2, &one)); /* 1 + 1 */
  GSP_OK(gsp_vector_set_element(u, 0, &big));
  GSP_OK(gsp_vector_set_element(u, 1, &one));
  for (int di = 0; di < 3; di++) {
    gsp_vector w = NULL;
    GSP_OK(gsp_vector_new(&w, GSP_INT32, 3));
    gsp_desc d = with((gsp_desc){0}, GSP_BACKEND_CUDA, dirs[di]);
    GSP_OK(gsp_vxm(w, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &d));
    int32_t x;
    GSP_OK(gsp_vector_extract_element(&x, w, 0));
    cr_assert_eq(x, INT32_MAX, "%s: saturating sum %d", dir_names[di], x);
    GSP_OK(gsp_vector_extract_element(&x, w, 1));
    cr_assert_eq(x, INT32_MAX, "%s: inf absorbs: %d", dir_names[di], x);
    GSP_OK(gsp_vector_extract_element(&x, w, 2));
    cr_assert_eq(x, 2);
    gsp_vector_free(&w);
  }
  gsp_matrix_free(&A), gsp_vector_free(&u);
}

/* A relaxed distance equal to +inf is still an entry (structure, not
 * value), and an explicit 0 weight is an arc. */
Test(cuda_vxm, infinite_and_zero_terms_are_entries) {
  gpu_or_skip();
  gsp_matrix A = NULL;
  gsp_vector u = NULL;
  GSP_OK(gsp_matrix_new(&A, GSP_FP32, 3, 3));
  GSP_OK(gsp_vector_new(&u, GSP_FP32, 3));
  float inf = INFINITY, zero = 0, one = 1;
  GSP_OK(gsp_matrix_set_element(A, 0, 1, &inf));
  GSP_OK(gsp_matrix_set_element(A, 0, 2, &zero));
  GSP_OK(gsp_vector_set_element(u, 0, &one));
  for (int di = 0; di < 3; di++) {
    gsp_vector w = NULL;
    GSP_OK(gsp_vector_new(&w, GSP_FP32, 3));
    gsp_desc d = with((gsp_desc){0}, GSP_BACKEND_CUDA, dirs[di]);
    GSP_OK(gsp_vxm(w, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &d));
    gsp_index nv;
    float x = 0;
    GSP_OK(gsp_vector_nvals(&nv, w));
    cr_assert_eq(nv, 2, "%s", dir_names[di]);
    GSP_OK(gsp_vector_extract_element(&x, w, 1));
    cr_assert(isinf(x));
    GSP_OK(gsp_vector_extract_element(&x, w, 2));
    cr_assert_eq(x, 1.0f);
    cr_assert_eq(gsp_vector_extract_element(&x, w, 0), GSP_NO_VALUE);
    gsp_vector_free(&w);
  }
  gsp_matrix_free(&A), gsp_vector_free(&u);
}

/* The output may also be the input and the mask: u<u> = min(u, u A). */
Test(cuda_vxm, aliased_output) {
  gpu_or_skip();
  for (int di = 0; di < 3; di++) {
    gsp_matrix A = gsp_test_random_matrix(GSP_INT32, 60, 60, 0.2, -5, 5, 3);
    gsp_vector u = gsp_test_random_vector(GSP_INT32, 60, 0.3, -5, 5, 4);
    GrB_Matrix gA = gsp_test_to_grb_matrix(A);
    GrB_Vector gu = gsp_test_to_grb_vector(u);
    gsp_desc d = with((gsp_desc){0}, GSP_BACKEND_CUDA, dirs[di]);
    GSP_OK(gsp_vxm(u, u, GSP_MIN, GSP_MIN_PLUS, u, A, &d));
    GRB_OK(GrB_vxm(gu, gu, GrB_MIN_INT32, GrB_MIN_PLUS_SEMIRING_INT32, gu, gA, NULL));
    gsp_test_context("aliased gpu vxm %s", dir_names[di]);
    gsp_test_assert_vector_eq(u, gu, 0);
    GrB_free(&gA), GrB_free(&gu);
    gsp_matrix_free(&A), gsp_vector_free(&u);
  }
}

/* ---- mxm: sparse x dense (frontier blocks) and dense x dense ---- */

/* A new DENSE-format copy of X (entries kept; bool drops explicit false,
 * since false is the only value a presence test can use there). */
static gsp_matrix dense_copy(gsp_matrix X) {
  gsp_index m, n;
  gsp_type t;
  GSP_OK(gsp_matrix_nrows(&m, X));
  GSP_OK(gsp_matrix_ncols(&n, X));
  GSP_OK(gsp_matrix_type(&t, X));
  size_t ts = gsp_type_size(t);
  void *v = malloc((size_t)(m * n + 1) * ts);
  char absent[16];
  gsp_test_value_set(t, absent, t == GSP_BOOL ? 0 : 12345);
  GSP_OK(gsp_matrix_export_dense(v, absent, X));
  gsp_matrix D = NULL;
  GSP_OK(gsp_matrix_import_dense(&D, t, m, n, v, absent));
  free(v);
  return D;
}

typedef struct {
  gsp_index m, k, n;
  double da, db;
} mshape;

static const mshape mshapes[] = {
    {1, 1, 1, 1.0, 1.0},    /* 1x1 */
    {5, 0, 4, 0.5, 0.5},    /* no inner dimension: T is empty */
    {0, 4, 3, 0.5, 0.5},    /* no rows */
    {7, 13, 5, 0.3, 0.6},   /* rectangular, B with absent entries */
    {7, 13, 5, 0.3, 1.0},   /* full B: cuSPARSE SpMM for float PLUS_TIMES */
    {40, 30, 70, 0.1, 0.5}, /* more than 32 columns: two lane passes */
};
#define NMSHAPES (sizeof mshapes / sizeof mshapes[0])

static void check_mxm(gsp_semiring s, gsp_type t, mshape sh, int cfgk, bool ta, bool tb, bool dense_a, uint64_t seed) {
  gsp_test_config cfg = gsp_test_config_get(cfgk);
  gsp_test_context("gpu mxm %s %s %llux%llux%llu %s%s%s%s seed %llu", gsp_test_semiring_name(s), gsp_test_type_name(t),
                   (unsigned long long)sh.m, (unsigned long long)sh.k, (unsigned long long)sh.n,
                   gsp_test_config_name(cfg), ta ? " A'" : "", tb ? " B'" : "", dense_a ? " dense A" : "",
                   (unsigned long long)seed);
  int64_t lo, hi;
  gsp_test_range(s, &lo, &hi);
  gsp_matrix A0 = ta ? gsp_test_random_matrix(t, sh.k, sh.m, sh.da, lo, hi, seed)
                     : gsp_test_random_matrix(t, sh.m, sh.k, sh.da, lo, hi, seed);
  gsp_matrix B0 = tb ? gsp_test_random_matrix(t, sh.n, sh.k, sh.db, lo, hi, seed + 1)
                     : gsp_test_random_matrix(t, sh.k, sh.n, sh.db, lo, hi, seed + 1);
  gsp_matrix A = dense_a ? dense_copy(A0) : A0;
  gsp_matrix Bg = dense_copy(B0), Bc = dense_copy(B0);
  gsp_matrix C = gsp_test_random_matrix(t, sh.m, sh.n, 0.3, lo, hi, seed + 2);
  gsp_matrix Cc = NULL;
  GSP_OK(gsp_matrix_dup(&Cc, C));
  gsp_matrix M = cfg.mask ? gsp_test_random_mask(sh.m, sh.n, 0.5, seed + 3) : NULL;
  gsp_binop accum = cfg.accum ? gsp_test_accum((int)seed) : GSP_NOOP;
  const gsp_desc d0 = gsp_test_desc(cfg, ta, tb);
  GrB_Matrix gC = gsp_test_to_grb_matrix(C);

  gsp_desc dg = with(d0, GSP_BACKEND_CUDA, GSP_DIRECTION_AUTO), dc = with(d0, GSP_BACKEND_CPU, GSP_DIRECTION_AUTO);
  GSP_OK(gsp_mxm(C, M, accum, s, A, Bg, &dg));
  const bool gemm = dense_a && s == GSP_PLUS_TIMES && (t == GSP_FP32 || t == GSP_FP64) && sh.k > 0;
  if (!gemm) cr_assert(A->dev != NULL, "%sthe GPU did not take the product", gsp_test_ctx);
  GSP_OK(gsp_mxm(Cc, M, accum, s, A, Bc, &dc));
  gsp_test_assert_matrix_same(C, Cc, gsp_test_tol(s, t));
  if (sh.m > 0 && sh.n > 0) {
    GrB_Matrix gA = gsp_test_to_grb_matrix(A), gB = gsp_test_to_grb_matrix(Bc);
    GrB_Matrix gM = M ? gsp_test_to_grb_matrix(M) : NULL;
    GrB_Descriptor gd = gsp_test_grb_desc(&d0);
    GRB_OK(GrB_mxm(gC, gM, gsp_test_grb_binop(accum, t), gsp_test_grb_semiring(s, t), gA, gB, gd));
    gsp_test_assert_matrix_eq(C, gC, gsp_test_tol(s, t));
    GrB_free(&gA), GrB_free(&gB), GrB_free(&gd);
    if (gM) GrB_free(&gM);
  }
  GrB_free(&gC);
  if (A != A0) gsp_matrix_free(&A);
  gsp_matrix_free(&A0), gsp_matrix_free(&B0), gsp_matrix_free(&Bg), gsp_matrix_free(&Bc);
  gsp_matrix_free(&C), gsp_matrix_free(&Cc), gsp_matrix_free(&M);
}

static void msweep(gsp_semiring s) {
  gpu_or_skip();
  uint64_t seed = 900000 + 5000 * (uint64_t)s;
  for (int ti = 0; ti < GSP_TEST_NTYPES; ti++) {
    gsp_type t = gsp_test_types[ti];
    if (!gsp_test_fits(s, t)) continue;
    /* quick tier: every fourth configuration (a rotating quarter) */
    for (size_t k = 0; k < NMSHAPES; k++)
      for (int c = GSP_TIER((int)((ti + k) % 4), 0); c < GSP_TEST_NCONFIG; c += GSP_TIER(4, 1) * (k < 3 ? 1 : 5))
        for (int tr = 0; tr < 4; tr++) check_mxm(s, t, mshapes[k], c, tr & 1, tr & 2, false, seed++);
  }
}

Test(cuda_mxm, min_plus) {
  msweep(GSP_MIN_PLUS);
}
Test(cuda_mxm, max_plus) {
  msweep(GSP_MAX_PLUS);
}
Test(cuda_mxm, max_min) {
  msweep(GSP_MAX_MIN);
}
Test(cuda_mxm, min_max) {
  msweep(GSP_MIN_MAX);
}
Test(cuda_mxm, or_and) {
  msweep(GSP_OR_AND);
}
Test(cuda_mxm, plus_times) {
  msweep(GSP_PLUS_TIMES);
}

/* Dense x dense: cuBLAS gemm for full float PLUS_TIMES (both transposes),
 * our kernel over A's CSR for the other semirings. */
Test(cuda_mxm, dense_dense) {
  gpu_or_skip();
  const mshape sh[] = {{1, 1, 1, 1.0, 1.0}, {17, 9, 33, 1.0, 1.0}, {64, 80, 48, 1.0, 1.0}};
  uint64_t seed = 42;
  for (size_t k = 0; k < sizeof sh / sizeof *sh; k++)
    for (int tr = 0; tr < 4; tr++) {
      check_mxm(GSP_PLUS_TIMES, GSP_FP32, sh[k], 0, tr & 1, tr & 2, true, seed++);
      check_mxm(GSP_PLUS_TIMES, GSP_FP64, sh[k], 13, tr & 1, tr & 2, true, seed++);
      check_mxm(GSP_MAX_MIN, GSP_INT64, sh[k], 7, tr & 1, tr & 2, true, seed++);
    }
}

/* ---- sparse x sparse: cuSPARSE SpGEMM ---- */

/* Positive real values in [0.5, 2) on a random pattern of the given
 * density (rows emptier than that where `empty_rows`: every third row). */
static gsp_matrix real_matrix(gsp_type t, gsp_index m, gsp_index n, double density, bool empty_rows, uint64_t seed) {
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, t, m, n));
  size_t cap = (size_t)((double)m * (double)n * density * 1.2) + 16, cnt = 0;
  gsp_index *I = malloc(cap * sizeof *I), *J = malloc(cap * sizeof *J);
  double *xd = malloc(cap * sizeof *xd);
  float *xf = malloc(cap * sizeof *xf);
  uint64_t st = seed * 2654435761u + 1;
  for (gsp_index i = 0; i < m; i++) {
    if (empty_rows && i % 3 == 1) continue;
    for (gsp_index j = 0; j < n && cnt < cap; j++)
      if ((double)(gsp_test_rand(&st) % 1000000) < density * 1e6) {
        const double v = 0.5 + 1.5 * (double)(gsp_test_rand(&st) % 1000003) / 1000003.0;
        I[cnt] = i, J[cnt] = j, xd[cnt] = v, xf[cnt] = (float)v, cnt++;
      }
  }
  GSP_OK(gsp_matrix_build(A, I, J, t == GSP_FP32 ? (const void *)xf : (const void *)xd, cnt, GSP_DUP_ERROR));
  free(I), free(J), free(xd), free(xf);
  return A;
}

/* C<M> = accum(C, op(A) op(B)) under PLUS_TIMES with both operands sparse:
 * the GPU (cuSPARSE SpGEMM with algorithm `alg`, 0 automatic) against the
 * CPU backend and GrB_mxm. Tolerance rule: results are sums of the same
 * terms in another order; with the positive terms used here the relative
 * error of either sum is at most (terms) x eps, so |gpu - cpu| <= tol x
 * max(1, |gpu|, |cpu|) with tol = 1e-4 for FP32 (up to ~800 terms a
 * result) and 1e-12 for FP64; structures must be identical. Small integer
 * values (gsp_test_range) are exact in both types, so those compare with
 * gsp_test_tol's 1e-5 / 1e-12. */
static void check_spgemm(gsp_type t, gsp_matrix A, gsp_matrix B, bool ta, bool tb, int cfgk, int alg, double tol,
                         uint64_t seed, const char *what) {
  gsp_test_config cfg = gsp_test_config_get(cfgk);
  gsp_index m, n;
  GSP_OK(ta ? gsp_matrix_ncols(&m, A) : gsp_matrix_nrows(&m, A));
  GSP_OK(tb ? gsp_matrix_nrows(&n, B) : gsp_matrix_ncols(&n, B));
  gsp_test_context("gpu spgemm %s %s %llux%llu %s%s%s alg %d seed %llu", what, gsp_test_type_name(t),
                   (unsigned long long)m, (unsigned long long)n, gsp_test_config_name(cfg), ta ? " A'" : "",
                   tb ? " B'" : "", alg, (unsigned long long)seed);
  gsp_matrix C = gsp_test_random_matrix(t, m, n, 0.3, 1, 9, seed + 2), Cc = NULL;
  GSP_OK(gsp_matrix_dup(&Cc, C));
  gsp_matrix M = cfg.mask ? gsp_test_random_mask(m, n, 0.5, seed + 3) : NULL;
  gsp_binop accum = cfg.accum ? gsp_test_accum((int)seed) : GSP_NOOP;
  const gsp_desc d0 = gsp_test_desc(cfg, ta, tb);
  GrB_Matrix gC = gsp_test_to_grb_matrix(C);
  gsp_desc dg = with(d0, GSP_BACKEND_CUDA, GSP_DIRECTION_AUTO), dc = with(d0, GSP_BACKEND_CPU, GSP_DIRECTION_AUTO);
  gsp__debug_spgemm_alg(alg);
  GSP_OK(gsp_mxm(C, M, accum, GSP_PLUS_TIMES, A, B, &dg));
  gsp__debug_spgemm_alg(0);
  cr_assert(A->dev != NULL && B->dev != NULL, "%sthe GPU did not take the product", gsp_test_ctx);
  GSP_OK(gsp_mxm(Cc, M, accum, GSP_PLUS_TIMES, A, B, &dc));
  gsp_test_assert_matrix_same(C, Cc, tol);
  if (m > 0 && n > 0) {
    GrB_Matrix gA = gsp_test_to_grb_matrix(A), gB = gsp_test_to_grb_matrix(B);
    GrB_Matrix gM = M ? gsp_test_to_grb_matrix(M) : NULL;
    GrB_Descriptor gd = gsp_test_grb_desc(&d0);
    GRB_OK(GrB_mxm(gC, gM, gsp_test_grb_binop(accum, t), gsp_test_grb_semiring(GSP_PLUS_TIMES, t), gA, gB, gd));
    gsp_test_assert_matrix_eq(C, gC, tol);
    GrB_free(&gA), GrB_free(&gB), GrB_free(&gd);
    if (gM) GrB_free(&gM);
  }
  GrB_free(&gC);
  gsp_matrix_free(&C), gsp_matrix_free(&Cc), gsp_matrix_free(&M);
}

static const mshape sshapes[] = {
    {1, 1, 1, 1.0, 1.0},      /* 1x1 */
    {5, 0, 4, 0.5, 0.5},      /* no inner dimension: T is empty */
    {0, 4, 3, 0.5, 0.5},      /* no rows */
    {6, 5, 7, 0.0, 0.5},      /* A has no entry */
    {7, 13, 5, 0.3, 0.6},     /* rectangular */
    {60, 50, 70, 0.05, 0.05}, /* sparse: many empty rows in A and in T */
    {120, 90, 150, 0.2, 0.3}, /* denser rows */
};
#define NSSHAPES (sizeof sshapes / sizeof sshapes[0])

/* Random integer-valued operands: every shape, mask / accumulator /
 * replace configuration, transpose and algorithm. */
Test(cuda_spgemm, sweep) {
  gpu_or_skip();
  uint64_t seed = 770000;
  const gsp_type types[] = {GSP_FP32, GSP_FP64};
  for (int ti = 0; ti < 2; ti++)
    for (size_t k = 0; k < NSSHAPES; k++)
      for (int c = 0; c < GSP_TEST_NCONFIG; c += (k < 4 ? 5 : 1))
        for (int tr = 0; tr < 4; tr++, seed++) {
          const mshape sh = sshapes[k];
          const bool ta = tr & 1, tb = tr & 2;
          gsp_matrix A = ta ? gsp_test_random_matrix(types[ti], sh.k, sh.m, sh.da, -3, 9, seed)
                            : gsp_test_random_matrix(types[ti], sh.m, sh.k, sh.da, -3, 9, seed);
          gsp_matrix B = tb ? gsp_test_random_matrix(types[ti], sh.n, sh.k, sh.db, -3, 9, seed + 1)
                            : gsp_test_random_matrix(types[ti], sh.k, sh.n, sh.db, -3, 9, seed + 1);
          check_spgemm(types[ti], A, B, ta, tb, c, (int)(seed % 4), gsp_test_tol(GSP_PLUS_TIMES, types[ti]), seed,
                       "random");
          gsp_matrix_free(&A), gsp_matrix_free(&B);
        }
}

/* Real values, empty rows, and sizes where cuSPARSE's kernels change: short
 * rows, rows of thousands of products (R-MAT hubs: A*A), and a product of
 * ~10^7 terms; each with ALG1, ALG2, ALG3 and the automatic choice. */
Test(cuda_spgemm, real_values_and_sizes) {
  gpu_or_skip();
  const gsp_type types[] = {GSP_FP32, GSP_FP64};
  const double tol[] = {1e-4, 1e-12};
  for (int ti = 0; ti < 2; ti++) {
    const gsp_type t = types[ti];
    gsp_matrix A = real_matrix(t, 300, 400, 0.02, true, 1 + ti), B = real_matrix(t, 400, 250, 0.03, false, 3 + ti);
    for (int alg = 0; alg < 4; alg++) check_spgemm(t, A, B, false, false, alg * 7, alg, tol[ti], 10 + alg, "real");
    gsp_matrix_free(&A), gsp_matrix_free(&B);
    /* power-law: hub rows meet hub rows */
    gsp_matrix R = NULL;
    GSP_OK(gsp_generate_rmat(&R, t, 12, 8, 0, 0, 0, 1, 9, 40 + ti));
    for (int alg = 0; alg < 4; alg++) check_spgemm(t, R, R, false, alg & 1, 0, alg, tol[ti], 20 + alg, "rmat");
    gsp_matrix_free(&R);
#ifdef GSP_TEST_LONG
    /* larger: 20000 x 20000, 16 a row (~5e6 products) */
    gsp_matrix L = NULL;
    GSP_OK(gsp_generate_random(&L, t, 20000, 320000, 1, 9, 60 + ti));
    check_spgemm(t, L, L, false, false, 0, 0, tol[ti], 30, "large");
    check_spgemm(t, L, L, true, false, 13, 3, tol[ti], 31, "large");
    gsp_matrix_free(&L);
#endif
  }
}

/* What stays on the CPU: integer types and the other semirings (the GPU
 * gateway declines before touching the operands): refused under an
 * explicit CUDA request, run on the CPU under AUTO with equal results. */
Test(cuda_spgemm, declined_cases_run_on_the_cpu) {
  gpu_or_skip();
  const gsp_semiring srs[] = {GSP_PLUS_TIMES, GSP_PLUS_TIMES, GSP_MIN_PLUS, GSP_MAX_MIN};
  const gsp_type ts[] = {GSP_INT32, GSP_INT64, GSP_FP64, GSP_FP32};
  for (int k = 0; k < 4; k++) {
    gsp_matrix A = gsp_test_random_matrix(ts[k], 30, 20, 0.2, 1, 9, 80 + k);
    gsp_matrix B = gsp_test_random_matrix(ts[k], 20, 25, 0.2, 1, 9, 90 + k);
    gsp_matrix C = NULL, Cc = NULL;
    GSP_OK(gsp_matrix_new(&C, ts[k], 30, 25));
    GSP_OK(gsp_matrix_new(&Cc, ts[k], 30, 25));
    gsp_desc dg = {.backend = GSP_BACKEND_CUDA}, dc = {.backend = GSP_BACKEND_CPU};
    /* an explicit CUDA request is refused with the reason, C untouched */
    const gsp_info r = gsp_mxm(C, NULL, GSP_NOOP, srs[k], A, B, &dg);
    cr_assert_eq(r, GSP_DOMAIN_MISMATCH, "%s", gsp_last_error());
    cr_assert_eq(C->nvals, 0);
    dg.backend = GSP_BACKEND_AUTO; /* AUTO runs it on the CPU */
    GSP_OK(gsp_mxm(C, NULL, GSP_NOOP, srs[k], A, B, &dg));
    cr_assert(A->dev == NULL && B->dev == NULL, "%s on %s went to the GPU", gsp_test_semiring_name(srs[k]),
              gsp_test_type_name(ts[k]));
    GSP_OK(gsp_mxm(Cc, NULL, GSP_NOOP, srs[k], A, B, &dc));
    gsp_test_context("declined %s %s", gsp_test_semiring_name(srs[k]), gsp_test_type_name(ts[k]));
    gsp_test_assert_matrix_same(C, Cc, 0);
    gsp_matrix_free(&A), gsp_matrix_free(&B), gsp_matrix_free(&C), gsp_matrix_free(&Cc);
  }
}

/* Host allocation failures on the SpGEMM path (headers, the download of
 * C, the write-back) leave C as it was. */
Test(cuda_spgemm, allocation_failures) {
  gpu_or_skip();
  for (int tb = 0; tb < 2; tb++) {
    gsp_info info = GSP_OUT_OF_MEMORY;
    for (long long k = 0; info == GSP_OUT_OF_MEMORY && k < 100; k++) {
      gsp_matrix A = gsp_test_random_matrix(GSP_FP64, 20, 30, 0.2, 1, 9, 161);
      gsp_matrix B = tb ? gsp_test_random_matrix(GSP_FP64, 25, 30, 0.2, 1, 9, 162)
                        : gsp_test_random_matrix(GSP_FP64, 30, 25, 0.2, 1, 9, 162);
      gsp_matrix C = gsp_test_random_matrix(GSP_FP64, 20, 25, 0.3, 1, 9, 163), C0 = NULL;
      gsp_matrix M = gsp_test_random_mask(20, 25, 0.5, 164);
      GSP_OK(gsp_matrix_dup(&C0, C));
      gsp_desc d = {.backend = GSP_BACKEND_CUDA, .transpose_b = tb != 0};
      gsp__debug_fail_after(k);
      info = gsp_mxm(C, M, GSP_PLUS, GSP_PLUS_TIMES, A, B, &d);
      gsp__debug_fail_after(-1);
      cr_assert(info == GSP_SUCCESS || info == GSP_OUT_OF_MEMORY, "k=%lld: %s", k, gsp_strerror(info));
      if (info != GSP_SUCCESS) {
        gsp_test_context("spgemm%s failing at allocation %lld", tb ? " B'" : "", k);
        gsp_test_assert_matrix_same(C, C0, 0);
      }
      gsp_matrix_free(&A), gsp_matrix_free(&B), gsp_matrix_free(&C), gsp_matrix_free(&C0), gsp_matrix_free(&M);
    }
    cr_assert_eq(info, GSP_SUCCESS, "still failing after 100 allocations");
  }
}

/* ---- one device cache per matrix ---- */

static gsp_index source_with_arcs(gsp_matrix A, gsp_index from);

static gsp_vector sssp_on(gsp_matrix A, gsp_index src, gsp_backend b) {
  gsp_sssp_opts o = {.algo = GSP_SSSP_AUTO, .backend = b};
  gsp_vector d = NULL;
  GSP_OK(gsp_sssp(&d, NULL, A, src, &o));
  return d;
}

static void mv_both(gsp_matrix A, gsp_vector u, gsp_index n, const char *what) {
  gsp_vector w = NULL, wc = NULL;
  GSP_OK(gsp_vector_new(&w, GSP_FP64, n));
  GSP_OK(gsp_vector_new(&wc, GSP_FP64, n));
  for (int di = 0; di < 3; di++) {
    gsp_desc d = with((gsp_desc){0}, GSP_BACKEND_CUDA, dirs[di]), dc = {.backend = GSP_BACKEND_CPU};
    GSP_OK(gsp_vxm(w, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &d));
    GSP_OK(gsp_vxm(wc, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &dc));
    gsp_test_context("%s: vxm %s", what, dir_names[di]);
    gsp_test_assert_vector_same(w, wc, 0);
  }
  gsp_vector_free(&w), gsp_vector_free(&wc);
}

static void sssp_both(gsp_matrix A, gsp_index src, const char *what) {
  gsp_vector dg = sssp_on(A, src, GSP_BACKEND_CUDA), dc = sssp_on(A, src, GSP_BACKEND_CPU);
  gsp_test_context("%s: sssp from %llu", what, (unsigned long long)src);
  gsp_test_assert_vector_same(dg, dc, 0);
  gsp_vector_free(&dg), gsp_vector_free(&dc);
}

/* SSSP and the products share A's device copy; every host change drops it,
 * and both see the new values afterwards (after an SSSP, after a vxm). */
Test(cuda_cache, shared_and_invalidated) {
  gpu_or_skip();
  const gsp_index n = 2000;
  gsp_matrix A = NULL;
  GSP_OK(gsp_generate_random(&A, GSP_FP64, n, 16000, 1, 50, 7));
  gsp_vector u = gsp_test_random_vector(GSP_FP64, n, 0.5, 1, 9, 8);
  const gsp_index src = source_with_arcs(A, 5);
  /* SSSP first: its copy serves the products (the same device copy) */
  sssp_both(A, src, "fresh");
  cr_assert(A->dev != NULL, "gsp_sssp kept no device copy");
  const void *dev = A->dev;
  mv_both(A, u, n, "after sssp");
  cr_assert(A->dev == dev, "the products built another device copy");
  sssp_both(A, src, "again");
  cr_assert(A->dev == dev);
  /* mutate after an SSSP (and a vxm): a shorter arc out of the source and
   * a removed one; both see them */
  const double w = 0.25;
  gsp_index j = 0;
  {
    gsp_index nv;
    GSP_OK(gsp_matrix_nvals(&nv, A));
    gsp_index *I = malloc(nv * sizeof *I), *J = malloc(nv * sizeof *J);
    double *X = malloc(nv * sizeof *X);
    GSP_OK(gsp_matrix_extract_tuples(I, J, X, &nv, A));
    for (gsp_index e = 0; e < nv; e++)
      if (I[e] == src) j = J[e];
    free(I), free(J), free(X);
  }
  GSP_OK(gsp_matrix_set_element(A, src, j, &w));
  cr_assert(A->dev == NULL, "a host write left the device copy");
  sssp_both(A, src, "after set_element");
  mv_both(A, u, n, "after set_element");
  GSP_OK(gsp_matrix_remove_element(A, src, j));
  cr_assert(A->dev == NULL);
  mv_both(A, u, n, "after remove_element (vxm first)");
  sssp_both(A, src, "after remove_element");
  /* mutate after a vxm only: SSSP sees it */
  GSP_OK(gsp_matrix_set_element(A, src, j, &w));
  mv_both(A, u, n, "set again");
  GSP_OK(gsp_matrix_set_element(A, src, (j + 1) % n, &w));
  cr_assert(A->dev == NULL);
  sssp_both(A, src, "after a write following a vxm");
  /* a product result written into A (gsp_mxm with A as the output) */
  gsp_matrix I = NULL;
  GSP_OK(gsp_matrix_new(&I, GSP_FP64, n, n));
  for (gsp_index i = 0; i < n; i++) {
    const double half = 0.5;
    GSP_OK(gsp_matrix_set_element(I, i, i, &half));
  }
  gsp_desc dg = {.backend = GSP_BACKEND_CUDA};
  GSP_OK(gsp_mxm(A, NULL, GSP_NOOP, GSP_PLUS_TIMES, A, I, &dg)); /* A = A * I/2 (SpGEMM) */
  sssp_both(A, src, "after A = A * I/2");
  mv_both(A, u, n, "after A = A * I/2");
  gsp_matrix_free(&A), gsp_matrix_free(&I), gsp_vector_free(&u);
}

/* ---- residency ---- */

Test(cuda_residency, result_stays_until_read) {
  gpu_or_skip();
  gsp_matrix A = gsp_test_random_matrix(GSP_FP64, 80, 90, 0.1, 1, 9, 11);
  gsp_vector u = gsp_test_random_vector(GSP_FP64, 80, 0.5, 1, 9, 12);
  gsp_vector w = NULL, wc = NULL;
  GSP_OK(gsp_vector_new(&w, GSP_FP64, 90));
  GSP_OK(gsp_vector_new(&wc, GSP_FP64, 90));
  gsp_desc d = {.backend = GSP_BACKEND_CUDA}, dc = {.backend = GSP_BACKEND_CPU};
  GSP_OK(gsp_vxm(w, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &d));
  GSP_OK(gsp_vxm(wc, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &dc));
  /* operands keep their device copies; the result lives only there */
  cr_assert(A->dev != NULL && u->dev != NULL && !u->dev_only);
  cr_assert(w->dev_only && w->dev != NULL && wc->dev == NULL);
  gsp_index nv, nvc;
  GSP_OK(gsp_vector_nvals(&nv, w)); /* the count is known without a download */
  GSP_OK(gsp_vector_nvals(&nvc, wc));
  cr_assert_eq(nv, nvc);
  cr_assert(w->dev_only);
  /* a host read downloads; the device copy stays as a mirror */
  double x = 0, xc = 0;
  gsp_index i = 0;
  while (gsp_vector_extract_element(&xc, wc, i) == GSP_NO_VALUE) i++;
  GSP_OK(gsp_vector_extract_element(&x, w, i));
  cr_assert_eq(x, xc);
  cr_assert(!w->dev_only && w->dev != NULL);
  gsp_test_context("resident result");
  gsp_test_assert_vector_same(w, wc, 0);

  /* a device-only result as the input of a host operation */
  gsp_vector r = NULL, rc = NULL;
  GSP_OK(gsp_vector_new(&r, GSP_FP64, 90));
  GSP_OK(gsp_vector_new(&rc, GSP_FP64, 90));
  GSP_OK(gsp_vxm(w, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &d));
  cr_assert(w->dev_only);
  GSP_OK(gsp_vector_apply(r, NULL, GSP_NOOP, GSP_AINV, w, NULL));
  GSP_OK(gsp_vector_apply(rc, NULL, GSP_NOOP, GSP_AINV, wc, NULL));
  gsp_test_assert_vector_same(r, rc, 0);
  double s = 0, sc = 0;
  GSP_OK(gsp_vxm(w, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &d));
  GSP_OK(gsp_vector_reduce_scalar(&s, GSP_PLUS, w));
  GSP_OK(gsp_vector_reduce_scalar(&sc, GSP_PLUS, wc));
  cr_assert_eq(s, sc);
  gsp_matrix_free(&A), gsp_vector_free(&u), gsp_vector_free(&w), gsp_vector_free(&wc);
  gsp_vector_free(&r), gsp_vector_free(&rc);
}

/* Host writes drop the device copies: the next GPU product sees them. */
Test(cuda_residency, host_write_invalidates) {
  gpu_or_skip();
  gsp_matrix A = gsp_test_random_matrix(GSP_INT32, 50, 50, 0.2, 1, 9, 21);
  gsp_vector u = gsp_test_random_vector(GSP_INT32, 50, 0.3, 1, 9, 22);
  gsp_vector w = NULL, wc = NULL;
  GSP_OK(gsp_vector_new(&w, GSP_INT32, 50));
  GSP_OK(gsp_vector_new(&wc, GSP_INT32, 50));
  gsp_desc d = {.backend = GSP_BACKEND_CUDA}, dc = {.backend = GSP_BACKEND_CPU};
  GSP_OK(gsp_vxm(w, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &d));
  cr_assert(A->dev && u->dev);
  int32_t one = 1;
  /* the matrix */
  GSP_OK(gsp_matrix_set_element(A, 3, 7, &one));
  GSP_OK(gsp_matrix_remove_element(A, 5, 5));
  cr_assert(A->dev == NULL, "a host write to A left its device copy");
  /* the input vector */
  GSP_OK(gsp_vector_set_element(u, 3, &one));
  cr_assert(u->dev == NULL, "a host write to u left its device copy");
  for (int di = 0; di < 3; di++) {
    gsp_desc dd = with(d, GSP_BACKEND_CUDA, dirs[di]);
    GSP_OK(gsp_vxm(w, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &dd));
    GSP_OK(gsp_vxm(wc, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &dc));
    gsp_test_context("after host writes, %s", dir_names[di]);
    gsp_test_assert_vector_same(w, wc, 0);
    int32_t v = 2 + di;
    GSP_OK(gsp_vector_set_element(u, (gsp_index)(10 + di), &v));
    cr_assert(u->dev == NULL);
  }
  /* a write to a device-only output: downloaded first, then changed */
  GSP_OK(gsp_vxm(w, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &d));
  GSP_OK(gsp_vxm(wc, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &dc));
  cr_assert(w->dev_only);
  int32_t big = 1000;
  GSP_OK(gsp_vector_set_element(w, 0, &big));
  GSP_OK(gsp_vector_set_element(wc, 0, &big));
  cr_assert(w->dev == NULL && !w->dev_only);
  gsp_test_assert_vector_same(w, wc, 0);
  /* accumulate into it on the GPU: its new host value is uploaded */
  GSP_OK(gsp_vxm(w, NULL, GSP_MIN, GSP_MIN_PLUS, u, A, &d));
  GSP_OK(gsp_vxm(wc, NULL, GSP_MIN, GSP_MIN_PLUS, u, A, &dc));
  gsp_test_assert_vector_same(w, wc, 0);
  GSP_OK(gsp_vector_clear(w));
  cr_assert(w->dev == NULL);
  gsp_matrix_free(&A), gsp_vector_free(&u), gsp_vector_free(&w), gsp_vector_free(&wc);
}

/* AUTO: small operands stay on the CPU; a resident operand draws the call
 * to the GPU; a large matrix goes there too. */
Test(cuda_residency, auto_backend) {
  gpu_or_skip();
  GSP_OK(gsp_set_backend(GSP_BACKEND_AUTO));
  gsp_matrix A = gsp_test_random_matrix(GSP_FP32, 40, 40, 0.2, 1, 9, 31);
  gsp_vector u = gsp_test_random_vector(GSP_FP32, 40, 0.3, 1, 9, 32);
  gsp_vector w = NULL, wc = NULL;
  GSP_OK(gsp_vector_new(&w, GSP_FP32, 40));
  GSP_OK(gsp_vector_new(&wc, GSP_FP32, 40));
  GSP_OK(gsp_vxm(w, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, NULL));
  cr_assert(w->dev == NULL && A->dev == NULL, "a small AUTO product went to the GPU");
  gsp_desc d = {.backend = GSP_BACKEND_CUDA};
  GSP_OK(gsp_vxm(w, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &d));
  cr_assert(w->dev_only);
  /* w is resident: the next AUTO product runs on the GPU and keeps it there */
  GSP_OK(gsp_vxm(w, NULL, GSP_MIN, GSP_MIN_PLUS, w, A, NULL));
  cr_assert(w->dev_only, "AUTO ignored the resident operand");
  gsp_desc dc = {.backend = GSP_BACKEND_CPU};
  GSP_OK(gsp_vxm(wc, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &dc));
  GSP_OK(gsp_vxm(wc, NULL, GSP_MIN, GSP_MIN_PLUS, wc, A, &dc));
  gsp_test_context("auto");
  gsp_test_assert_vector_same(w, wc, 0);
  /* the process default */
  GSP_OK(gsp_set_backend(GSP_BACKEND_CUDA));
  gsp_vector w2 = NULL;
  GSP_OK(gsp_vector_new(&w2, GSP_FP32, 40));
  GSP_OK(gsp_vxm(w2, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, NULL));
  cr_assert(w2->dev_only, "the process default CUDA was not used");
  GSP_OK(gsp_set_backend(GSP_BACKEND_AUTO));
  /* large: 2^20 entries */
  gsp_matrix L = NULL;
  GSP_OK(gsp_generate_random(&L, GSP_FP32, 1 << 16, 1 << 20, 1, 9, 5));
  gsp_vector lu = gsp_test_random_vector(GSP_FP32, 1 << 16, 0.01, 1, 9, 6), lw = NULL;
  GSP_OK(gsp_vector_new(&lw, GSP_FP32, 1 << 16));
  GSP_OK(gsp_vxm(lw, NULL, GSP_NOOP, GSP_MIN_PLUS, lu, L, NULL));
  cr_assert(lw->dev_only, "a large AUTO product stayed on the CPU");
  gsp_matrix_free(&A), gsp_matrix_free(&L);
  gsp_vector_free(&u), gsp_vector_free(&w), gsp_vector_free(&wc), gsp_vector_free(&w2);
  gsp_vector_free(&lu), gsp_vector_free(&lw);
}

/* ---- errors ---- */

Test(cuda_errors, bad_arguments_leave_outputs) {
  gpu_or_skip();
  gsp_matrix A = gsp_test_random_matrix(GSP_INT64, 10, 12, 0.3, 1, 9, 41);
  gsp_vector u = gsp_test_random_vector(GSP_INT64, 10, 0.5, 1, 9, 42);
  gsp_vector w = gsp_test_random_vector(GSP_INT64, 11, 0.5, 1, 9, 43); /* wrong size */
  gsp_vector w0 = NULL, uf = NULL;
  GSP_OK(gsp_vector_dup(&w0, w));
  GSP_OK(gsp_vector_new(&uf, GSP_FP64, 10));
  gsp_desc d = {.backend = GSP_BACKEND_CUDA};
  cr_assert_eq(gsp_vxm(w, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &d), GSP_DIMENSION_MISMATCH);
  cr_assert(strstr(gsp_last_error(), "gsp_vxm") != NULL, "%s", gsp_last_error());
  cr_assert_eq(gsp_mxv(w, NULL, GSP_NOOP, GSP_MIN_PLUS, A, u, &d), GSP_DIMENSION_MISMATCH);
  gsp_vector w12 = NULL;
  GSP_OK(gsp_vector_new(&w12, GSP_INT64, 12));
  cr_assert_eq(gsp_vxm(w12, NULL, GSP_NOOP, GSP_MIN_PLUS, uf, A, &d), GSP_DOMAIN_MISMATCH);
  cr_assert_eq(gsp_vxm(w12, NULL, GSP_NOOP, GSP_OR_AND, u, A, &d), GSP_DOMAIN_MISMATCH);
  gsp_desc bad = {.backend = (gsp_backend)7};
  cr_assert_eq(gsp_vxm(w12, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &bad), GSP_INVALID_VALUE);
  bad = (gsp_desc){.backend = GSP_BACKEND_CUDA, .direction = (gsp_direction)9};
  cr_assert_eq(gsp_vxm(w12, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &bad), GSP_INVALID_VALUE);
  cr_assert(strstr(gsp_last_error(), "direction") != NULL, "%s", gsp_last_error());
  gsp_index nv;
  GSP_OK(gsp_vector_nvals(&nv, w12));
  cr_assert_eq(nv, 0);
  gsp_test_context("w after errors");
  gsp_test_assert_vector_same(w, w0, 0);
  gsp_matrix B = gsp_test_random_matrix(GSP_INT64, 13, 4, 1.0, 1, 9, 44), Bd = dense_copy(B), C = NULL;
  GSP_OK(gsp_matrix_new(&C, GSP_INT64, 10, 4));
  cr_assert_eq(gsp_mxm(C, NULL, GSP_NOOP, GSP_MIN_PLUS, A, Bd, &d), GSP_DIMENSION_MISMATCH);
  GSP_OK(gsp_matrix_nvals(&nv, C));
  cr_assert_eq(nv, 0);
  gsp_matrix_free(&A), gsp_matrix_free(&B), gsp_matrix_free(&Bd), gsp_matrix_free(&C);
  gsp_vector_free(&u), gsp_vector_free(&w), gsp_vector_free(&w0), gsp_vector_free(&uf), gsp_vector_free(&w12);
}

/* Host allocation failures anywhere on the GPU path (headers, downloads,
 * the dense result of mxm) leave every output as it was. */
Test(cuda_errors, allocation_failures) {
  gpu_or_skip();
  for (int di = 0; di < 3; di++) {
    gsp_info info = GSP_OUT_OF_MEMORY;
    for (long long k = 0; info == GSP_OUT_OF_MEMORY && k < 100; k++) {
      gsp_matrix A = gsp_test_random_matrix(GSP_FP32, 30, 30, 0.2, 1, 9, 51);
      gsp_vector u = gsp_test_random_vector(GSP_FP32, 30, 0.3, 1, 9, 52);
      gsp_vector w = gsp_test_random_vector(GSP_FP32, 30, 0.3, 1, 9, 53), w0 = NULL;
      gsp_vector M = gsp_test_random_vmask(30, 0.5, 54);
      GSP_OK(gsp_vector_dup(&w0, w));
      gsp_desc d = {.backend = GSP_BACKEND_CUDA, .direction = dirs[di], .mask_complement = true};
      gsp__debug_fail_after(k);
      info = gsp_vxm(w, M, GSP_PLUS, GSP_MIN_PLUS, u, A, &d);
      gsp__debug_fail_after(-1);
      cr_assert(info == GSP_SUCCESS || info == GSP_OUT_OF_MEMORY, "k=%lld: %s", k, gsp_strerror(info));
      if (info != GSP_SUCCESS) {
        gsp_test_context("vxm failing at allocation %lld", k);
        gsp_test_assert_vector_same(w, w0, 0);
      }
      gsp_matrix_free(&A), gsp_vector_free(&u), gsp_vector_free(&w), gsp_vector_free(&w0), gsp_vector_free(&M);
    }
    cr_assert_eq(info, GSP_SUCCESS, "still failing after 100 allocations");
  }
  gsp_info info = GSP_OUT_OF_MEMORY;
  for (long long k = 0; info == GSP_OUT_OF_MEMORY && k < 100; k++) {
    gsp_matrix A = gsp_test_random_matrix(GSP_INT32, 20, 30, 0.2, 1, 9, 61);
    gsp_matrix B0 = gsp_test_random_matrix(GSP_INT32, 30, 8, 0.7, 1, 9, 62), B = dense_copy(B0);
    gsp_matrix C = gsp_test_random_matrix(GSP_INT32, 20, 8, 0.3, 1, 9, 63), C0 = NULL;
    GSP_OK(gsp_matrix_dup(&C0, C));
    gsp_desc d = {.backend = GSP_BACKEND_CUDA};
    gsp__debug_fail_after(k);
    info = gsp_mxm(C, NULL, GSP_MIN, GSP_MIN_PLUS, A, B, &d);
    gsp__debug_fail_after(-1);
    cr_assert(info == GSP_SUCCESS || info == GSP_OUT_OF_MEMORY, "k=%lld: %s", k, gsp_strerror(info));
    if (info != GSP_SUCCESS) {
      gsp_test_context("mxm failing at allocation %lld", k);
      gsp_test_assert_matrix_same(C, C0, 0);
    }
    gsp_matrix_free(&A), gsp_matrix_free(&B0), gsp_matrix_free(&B), gsp_matrix_free(&C), gsp_matrix_free(&C0);
  }
  cr_assert_eq(info, GSP_SUCCESS);
}

/* Without a usable device, CUDA requested gives GSP_NO_DEVICE and changes
 * nothing; AUTO quietly runs on the CPU. (Runs where the others skip.) */
Test(cuda_errors, no_device) {
  bool ok = false;
  GSP_OK(gsp_cuda_available(&ok, NULL, 0));
  if (ok) cr_skip_test("a GPU is present");
  gsp_matrix A = gsp_test_random_matrix(GSP_INT32, 10, 10, 0.3, 1, 9, 71);
  gsp_vector u = gsp_test_random_vector(GSP_INT32, 10, 0.5, 1, 9, 72);
  gsp_vector w = gsp_test_random_vector(GSP_INT32, 10, 0.5, 1, 9, 73), w0 = NULL, wa = NULL;
  GSP_OK(gsp_vector_dup(&w0, w));
  GSP_OK(gsp_vector_dup(&wa, w));
  gsp_desc d = {.backend = GSP_BACKEND_CUDA};
  cr_assert_eq(gsp_vxm(w, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &d), GSP_NO_DEVICE);
  cr_assert(strstr(gsp_last_error(), "gsp_vxm") != NULL, "%s", gsp_last_error());
  gsp_test_context("no device");
  gsp_test_assert_vector_same(w, w0, 0);
  gsp_matrix B = NULL, C = NULL;
  GSP_OK(gsp_matrix_new(&C, GSP_INT32, 10, 10));
  cr_assert_eq(gsp_mxm(C, NULL, GSP_NOOP, GSP_MIN_PLUS, A, A, &d), GSP_NO_DEVICE);
  d.backend = GSP_BACKEND_AUTO;
  d.direction = GSP_DIRECTION_PULL; /* ignored on the CPU */
  GSP_OK(gsp_vxm(wa, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &d));
  GrB_Matrix gA = gsp_test_to_grb_matrix(A);
  GrB_Vector gu = gsp_test_to_grb_vector(u), gw = gsp_test_to_grb_vector(w0);
  GRB_OK(GrB_vxm(gw, NULL, NULL, GrB_MIN_PLUS_SEMIRING_INT32, gu, gA, NULL));
  gsp_test_assert_vector_eq(wa, gw, 0);
  GrB_free(&gA), GrB_free(&gu), GrB_free(&gw);
  gsp_matrix_free(&A), gsp_matrix_free(&B), gsp_matrix_free(&C);
  gsp_vector_free(&u), gsp_vector_free(&w), gsp_vector_free(&w0), gsp_vector_free(&wa);
}

/* ---- algorithms from repeated products ---- */

/* BFS, GraphBLAS style: frontier<!visited, struct, replace> = frontier
 * or.and A, on the GPU (direction dir) and on the CPU in lockstep: every
 * level's frontier must agree. */
static void bfs_both(gsp_matrix A, gsp_index n, gsp_index src, int di) {
  gsp_vector visited[2] = {NULL, NULL}, frontier[2] = {NULL, NULL};
  gsp_desc step[2] = {with((gsp_desc){0}, GSP_BACKEND_CPU, GSP_DIRECTION_AUTO),
                      with((gsp_desc){0}, GSP_BACKEND_CUDA, dirs[di])};
  bool yes = true;
  for (int b = 0; b < 2; b++) {
    GSP_OK(gsp_vector_new(&visited[b], GSP_BOOL, n));
    GSP_OK(gsp_vector_new(&frontier[b], GSP_BOOL, n));
    GSP_OK(gsp_vector_set_element(frontier[b], src, &yes));
    step[b].mask_complement = step[b].mask_structure = step[b].replace = true;
  }
  gsp_index nf = 1, reached = 0;
  for (int depth = 0; nf > 0; depth++) {
    for (int b = 0; b < 2; b++) {
      GSP_OK(gsp_vector_apply(visited[b], NULL, GSP_LOR, GSP_IDENTITY, frontier[b], NULL));
      GSP_OK(gsp_vxm(frontier[b], visited[b], GSP_NOOP, GSP_OR_AND, frontier[b], A, &step[b]));
    }
    cr_assert(frontier[1]->dev_only, "the GPU frontier is not device-resident");
    gsp_test_context("bfs from %llu, %s, level %d", (unsigned long long)src, dir_names[di], depth + 1);
    gsp_test_assert_vector_same(frontier[1], frontier[0], 0);
    GSP_OK(gsp_vector_nvals(&nf, frontier[0]));
    reached += nf;
  }
  cr_assert(reached > 100, "the test graph is too small to mean much (%llu reached)", (unsigned long long)reached);
  for (int b = 0; b < 2; b++) gsp_vector_free(&visited[b]), gsp_vector_free(&frontier[b]);
}

/* The first vertex >= from with an out-arc (R-MAT leaves many isolated). */
static gsp_index source_with_arcs(gsp_matrix A, gsp_index from) {
  gsp_index n;
  gsp_type t;
  GSP_OK(gsp_matrix_nrows(&n, A));
  GSP_OK(gsp_matrix_type(&t, A));
  gsp_vector deg = NULL;
  GSP_OK(gsp_vector_new(&deg, t, n));
  GSP_OK(gsp_matrix_reduce_vector(deg, NULL, GSP_NOOP, t == GSP_BOOL ? GSP_LOR : GSP_MAX, A, NULL));
  char x[16];
  gsp_index src = from;
  while (src < n && gsp_vector_extract_element(x, deg, src) == GSP_NO_VALUE) src++;
  cr_assert(src < n, "no vertex with out-arcs");
  gsp_vector_free(&deg);
  return src;
}

Test(cuda_algorithms, bfs_by_vxm) {
  gpu_or_skip();
  gsp_matrix A = NULL;
  GSP_OK(gsp_generate_rmat(&A, GSP_BOOL, 12, 8, 0, 0, 0, 1, 1, 77));
  gsp_index n;
  GSP_OK(gsp_matrix_nrows(&n, A));
  const gsp_index src = source_with_arcs(A, 0);
  for (int di = 0; di < 3; di++) bfs_both(A, n, src, di);
  gsp_matrix_free(&A);
}

/* Bellman-Ford restricted to the improved vertices (examples/sssp_vxm.c),
 * every product on the GPU. */
static gsp_vector sssp_by_vxm(gsp_matrix A, gsp_type t, gsp_index n, gsp_index src, gsp_desc step) {
  gsp_vector d = NULL, f = NULL, tt = NULL, diff = NULL, better = NULL;
  GSP_OK(gsp_vector_new(&d, t, n));
  GSP_OK(gsp_vector_new(&tt, t, n));
  GSP_OK(gsp_vector_new(&diff, t, n));
  GSP_OK(gsp_vector_new(&better, t, n));
  char zero[16];
  gsp_test_value_set(t, zero, 0);
  GSP_OK(gsp_vector_set_element(d, src, zero));
  GSP_OK(gsp_vector_dup(&f, d));
  const gsp_desc new_vertices = {.mask_complement = true, .mask_structure = true, .replace = true};
  const gsp_desc structural = {.mask_structure = true};
  gsp_index nf = 1, rounds = 0;
  while (nf > 0) {
    cr_assert(rounds++ <= n, "no convergence");
    GSP_OK(gsp_vector_clear(tt));
    GSP_OK(gsp_vxm(tt, NULL, GSP_NOOP, GSP_MIN_PLUS, f, A, &step));
    GSP_OK(gsp_vector_apply(f, d, GSP_NOOP, GSP_IDENTITY, tt, &new_vertices));
    GSP_OK(gsp_vector_clear(diff));
    GSP_OK(gsp_vector_ewise_mult(diff, NULL, GSP_NOOP, GSP_MINUS, tt, d, NULL));
    GSP_OK(gsp_vector_clear(better));
    GSP_OK(gsp_vector_select(better, NULL, GSP_NOOP, GSP_VALUE_LT, diff, zero, NULL));
    GSP_OK(gsp_vector_apply(f, better, GSP_NOOP, GSP_IDENTITY, tt, &structural));
    GSP_OK(gsp_vector_nvals(&nf, f));
    GSP_OK(gsp_vector_apply(d, NULL, GSP_MIN, GSP_IDENTITY, f, NULL));
  }
  gsp_vector_free(&f), gsp_vector_free(&tt), gsp_vector_free(&diff), gsp_vector_free(&better);
  return d;
}

Test(cuda_algorithms, sssp_by_vxm_equals_gsp_sssp) {
  gpu_or_skip();
  const gsp_type types[] = {GSP_INT64, GSP_FP32};
  for (int ti = 0; ti < 2; ti++) {
    gsp_matrix A = NULL;
    GSP_OK(gsp_generate_rmat(&A, types[ti], 11, 8, 0, 0, 0, 1, 100, 88 + ti));
    gsp_index n;
    GSP_OK(gsp_matrix_nrows(&n, A));
    for (gsp_index k = 1; k < 3; k++) {
      const gsp_index src = source_with_arcs(A, k * 211);
      gsp_vector ref = NULL;
      gsp_sssp_opts o = {.backend = GSP_BACKEND_CPU};
      GSP_OK(gsp_sssp(&ref, NULL, A, src, &o));
      gsp_index reached;
      GSP_OK(gsp_vector_nvals(&reached, ref));
      cr_assert(reached > 100, "source %llu reaches only %llu vertices", (unsigned long long)src,
                (unsigned long long)reached);
      for (int di = 0; di < 3; di++) {
        gsp_vector dd = sssp_by_vxm(A, types[ti], n, src, with((gsp_desc){0}, GSP_BACKEND_CUDA, dirs[di]));
        gsp_test_context("sssp by vxm %s from %llu, %s", gsp_test_type_name(types[ti]), (unsigned long long)src,
                         dir_names[di]);
        gsp_test_assert_vector_same(dd, ref, 0);
        gsp_vector_free(&dd);
      }
      gsp_vector_free(&ref);
    }
    gsp_matrix_free(&A);
  }
}
