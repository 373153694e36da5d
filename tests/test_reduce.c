/*
 * Reductions against GraphBLAS: rows (or columns, transposed) of a matrix
 * to a vector with GrB_Matrix_reduce_Monoid, and everything to a scalar
 * with GrB_*_reduce_<T>, for every type and monoid, several shapes and
 * every mask/replace/accumulator configuration. TIMES uses values in
 * [-2, 2]: products are powers of two, exact in floats, and integer
 * overflow wraps the same way in both libraries.
 */
#include <criterion/criterion.h>

#include "gsp_test.h"

static const gsp_binop monoids[] = {GSP_MIN, GSP_MAX, GSP_PLUS, GSP_TIMES, GSP_LOR, GSP_LAND};
#define NMONOIDS (sizeof monoids / sizeof monoids[0])

typedef struct {
  gsp_index m, n;
  double d;
} shape;
static const shape shapes[] = {{0, 0, 0.5}, {1, 1, 1.0}, {6, 0, 0.5}, {9, 14, 0.3}, {12, 12, 1.0}, {40, 35, 0.04}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static int64_t range_of(gsp_binop op) {
  return op == GSP_TIMES ? 2 : 9;
}

static void check_reduce_vector(gsp_type t, gsp_binop op, shape sh, int cfgk, bool tr, uint64_t seed) {
  gsp_test_config cfg = gsp_test_config_get(cfgk);
  gsp_test_context("reduce_vector %s %s %llux%llu %s%s seed %llu", gsp_test_type_name(t), gsp_test_binop_name(op),
                   (unsigned long long)sh.m, (unsigned long long)sh.n, gsp_test_config_name(cfg), tr ? " A'" : "",
                   (unsigned long long)seed);
  int64_t r = range_of(op);
  gsp_index nw = tr ? sh.n : sh.m;
  gsp_matrix A = gsp_test_random_matrix(t, sh.m, sh.n, sh.d, -r, r, seed);
  gsp_vector w = gsp_test_random_vector(t, nw, 0.4, -r, r, seed + 1);
  gsp_vector M = cfg.mask ? gsp_test_random_vmask(nw, 0.5, seed + 2) : NULL;
  gsp_binop accum = cfg.accum ? gsp_test_accum((int)seed) : GSP_NOOP;
  GrB_Matrix gA = gsp_test_to_grb_matrix(A);
  GrB_Vector gw = gsp_test_to_grb_vector(w), gM = M ? gsp_test_to_grb_vector(M) : NULL;
  gsp_desc d = gsp_test_desc(cfg, tr, false);
  GrB_Descriptor gd = gsp_test_grb_desc(&d);
  GSP_OK(gsp_matrix_reduce_vector(w, M, accum, op, A, &d));
  if (nw > 0) {
    GRB_OK(GrB_Matrix_reduce_Monoid(gw, gM, gsp_test_grb_binop(accum, t), gsp_test_grb_monoid(op, t), gA, gd));
    gsp_test_assert_vector_eq(w, gw, 0);
  } else {
    /* SuiteSparse 7.4 crashes on empty outputs with mask and accumulator */
    gsp_index nv;
    GSP_OK(gsp_vector_nvals(&nv, w));
    cr_assert_eq(nv, 0, "%san empty vector has entries", gsp_test_ctx);
  }
  GrB_free(&gA), GrB_free(&gw), GrB_free(&gd);
  if (gM) GrB_free(&gM);
  gsp_matrix_free(&A), gsp_vector_free(&w), gsp_vector_free(&M);
}

/* GraphBLAS reduction of a matrix or vector to a scalar of type t. */
static void grb_reduce_scalar(void *s, gsp_type t, GrB_Monoid mo, GrB_Matrix A, GrB_Vector v) {
#define RED_(T, ct)                                                 \
  if (A) GRB_OK(GrB_Matrix_reduce_##T((ct *)s, NULL, mo, A, NULL)); \
  else GRB_OK(GrB_Vector_reduce_##T((ct *)s, NULL, mo, v, NULL));
  switch (t) {
  case GSP_BOOL:
    RED_(BOOL, bool) break;
  case GSP_INT32:
    RED_(INT32, int32_t) break;
  case GSP_INT64:
    RED_(INT64, int64_t) break;
  case GSP_FP32:
    RED_(FP32, float) break;
  case GSP_FP64:
    RED_(FP64, double) break;
  }
#undef RED_
}

static void check_reduce_scalar(gsp_type t, gsp_binop op, shape sh, uint64_t seed) {
  gsp_test_context("reduce_scalar %s %s %llux%llu seed %llu", gsp_test_type_name(t), gsp_test_binop_name(op),
                   (unsigned long long)sh.m, (unsigned long long)sh.n, (unsigned long long)seed);
  gsp_test_grb_init();
  int64_t r = range_of(op);
  gsp_matrix A = gsp_test_random_matrix(t, sh.m, sh.n, sh.d, -r, r, seed);
  gsp_vector v = gsp_test_random_vector(t, sh.m * sh.n, sh.d, -r, r, seed + 1);
  GrB_Matrix gA = gsp_test_to_grb_matrix(A);
  GrB_Vector gv = gsp_test_to_grb_vector(v);
  GrB_Monoid mo = gsp_test_grb_monoid(op, t);
  double x[1], y[1];
  GSP_OK(gsp_matrix_reduce_scalar(x, op, A));
  grb_reduce_scalar(y, t, mo, gA, NULL);
  cr_assert(gsp_test_value_eq(t, x, y, 0), "%smatrix: gsp %.17g, GraphBLAS %.17g", gsp_test_ctx,
            gsp_test_value_f64(t, x), gsp_test_value_f64(t, y));
  GSP_OK(gsp_vector_reduce_scalar(x, op, v));
  grb_reduce_scalar(y, t, mo, NULL, gv);
  cr_assert(gsp_test_value_eq(t, x, y, 0), "%svector: gsp %.17g, GraphBLAS %.17g", gsp_test_ctx,
            gsp_test_value_f64(t, x), gsp_test_value_f64(t, y));
  GrB_free(&gA), GrB_free(&gv);
  gsp_matrix_free(&A), gsp_vector_free(&v);
}

Test(reduce, to_vector) {
  GSP_OK(gsp_set_threads(1));
  uint64_t seed = 1;
  for (int ti = 0; ti < GSP_TEST_NTYPES; ti++)
    for (size_t o = 0; o < NMONOIDS; o++)
      for (size_t k = 0; k < NSHAPES; k++)
        for (int c = 0; c < GSP_TEST_NCONFIG; c++)
          for (int tr = 0; tr < 2; tr++, seed++)
            check_reduce_vector(gsp_test_types[ti], monoids[o], shapes[k], c, tr, seed);
}

Test(reduce, to_scalar) {
  uint64_t seed = 50;
  for (int ti = 0; ti < GSP_TEST_NTYPES; ti++)
    for (size_t o = 0; o < NMONOIDS; o++)
      for (size_t k = 0; k < NSHAPES; k++, seed++) check_reduce_scalar(gsp_test_types[ti], monoids[o], shapes[k], seed);
}

Test(reduce, larger_threaded) {
  GSP_OK(gsp_set_threads(2));
  shape big = {2000, 300, 0.1};
  check_reduce_vector(GSP_FP64, GSP_PLUS, big, 0, false, 1);
  check_reduce_vector(GSP_INT32, GSP_MIN, big, 14, true, 2);
  check_reduce_scalar(GSP_INT64, GSP_MAX, big, 3);
}

/* Identities of empty reductions: what a caller gets for "no entries". */
Test(reduce, empty_gives_identity) {
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, GSP_INT32, 3, 3));
  int32_t x = 0;
  GSP_OK(gsp_matrix_reduce_scalar(&x, GSP_MIN, A));
  cr_assert_eq(x, INT32_MAX);
  GSP_OK(gsp_matrix_reduce_scalar(&x, GSP_MAX, A));
  cr_assert_eq(x, INT32_MIN);
  GSP_OK(gsp_matrix_reduce_scalar(&x, GSP_TIMES, A));
  cr_assert_eq(x, 1);
  GSP_OK(gsp_matrix_reduce_scalar(&x, GSP_PLUS, A));
  cr_assert_eq(x, 0);
  gsp_matrix_free(&A);
  gsp_vector v = NULL;
  GSP_OK(gsp_vector_new(&v, GSP_FP32, 4));
  float f = 0;
  GSP_OK(gsp_vector_reduce_scalar(&f, GSP_MIN, v));
  cr_assert(isinf(f) && f > 0);
  gsp_vector_free(&v);
}
