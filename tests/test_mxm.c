/*
 * gsp_mxm against GrB_mxm: every (semiring, type) pair, several shapes and
 * densities, every mask/complement/replace/accumulator configuration and
 * every combination of transposed inputs. Values are small integers (see
 * gsp_test_range), so results are exact except the stated float PLUS_TIMES
 * tolerance; the structure must match exactly.
 */
#include <criterion/criterion.h>

#include "gsp_internal.h"
#include "gsp_test.h"

typedef struct {
  gsp_index m, k, n;
  double da, db;
} shape;

static const shape shapes[] = {
    {0, 0, 0, 0.5, 0.5},    /* empty */
    {1, 1, 1, 1.0, 1.0},    /* 1x1 */
    {5, 0, 4, 0.5, 0.5},    /* no inner dimension: T is empty */
    {7, 13, 5, 0.3, 0.3},   /* rectangular */
    {12, 12, 12, 1.0, 1.0}, /* dense */
    {40, 30, 35, 0.05, 0.1} /* sparse */
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static void check_mxm(gsp_semiring s, gsp_type t, shape sh, int cfgk, bool ta, bool tb, uint64_t seed) {
  gsp_test_config cfg = gsp_test_config_get(cfgk);
  gsp_test_context("mxm %s %s %llux%llux%llu %s%s%s seed %llu", gsp_test_semiring_name(s), gsp_test_type_name(t),
                   (unsigned long long)sh.m, (unsigned long long)sh.k, (unsigned long long)sh.n,
                   gsp_test_config_name(cfg), ta ? " A'" : "", tb ? " B'" : "", (unsigned long long)seed);
  int64_t lo, hi;
  gsp_test_range(s, &lo, &hi);
  gsp_matrix A = ta ? gsp_test_random_matrix(t, sh.k, sh.m, sh.da, lo, hi, seed)
                    : gsp_test_random_matrix(t, sh.m, sh.k, sh.da, lo, hi, seed);
  gsp_matrix B = tb ? gsp_test_random_matrix(t, sh.n, sh.k, sh.db, lo, hi, seed + 1)
                    : gsp_test_random_matrix(t, sh.k, sh.n, sh.db, lo, hi, seed + 1);
  gsp_matrix C = gsp_test_random_matrix(t, sh.m, sh.n, 0.3, lo, hi, seed + 2);
  gsp_matrix M = cfg.mask ? gsp_test_random_mask(sh.m, sh.n, 0.5, seed + 3) : NULL;
  gsp_binop accum = cfg.accum ? gsp_test_accum((int)seed) : GSP_NOOP;
  GrB_Matrix gA = gsp_test_to_grb_matrix(A), gB = gsp_test_to_grb_matrix(B);
  GrB_Matrix gC = gsp_test_to_grb_matrix(C), gM = M ? gsp_test_to_grb_matrix(M) : NULL;
  gsp_desc d = gsp_test_desc(cfg, ta, tb);
  GrB_Descriptor gd = gsp_test_grb_desc(&d);

  GSP_OK(gsp_mxm(C, M, accum, s, A, B, &d));
  if (sh.m > 0 && sh.n > 0) {
    GRB_OK(GrB_mxm(gC, gM, gsp_test_grb_binop(accum, t), gsp_test_grb_semiring(s, t), gA, gB, gd));
    gsp_test_assert_matrix_eq(C, gC, gsp_test_tol(s, t));
  } else {
    /* SuiteSparse 7.4 crashes (GB_subassign_08s_and_16) on 0 x 0 outputs
     * with a mask and an accumulator; nothing to compare there anyway */
    gsp_index nv;
    GSP_OK(gsp_matrix_nvals(&nv, C));
    cr_assert_eq(nv, 0, "%san empty matrix has entries", gsp_test_ctx);
  }

  GrB_free(&gA), GrB_free(&gB), GrB_free(&gC), GrB_free(&gd);
  if (gM) GrB_free(&gM);
  gsp_matrix_free(&A), gsp_matrix_free(&B), gsp_matrix_free(&C), gsp_matrix_free(&M);
}

/* All shapes x configurations x transposes for one semiring, every type. */
static void sweep(gsp_semiring s) {
  /* small inputs: threads would only add wake-up costs */
  GSP_OK(gsp_set_threads(1));
  uint64_t seed = 1000 * (uint64_t)s;
  for (int ti = 0; ti < GSP_TEST_NTYPES; ti++) {
    gsp_type t = gsp_test_types[ti];
    if (!gsp_test_fits(s, t)) continue;
    for (size_t k = 0; k < NSHAPES; k++)
      for (int c = 0; c < GSP_TEST_NCONFIG; c++)
        for (int tr = 0; tr < 4; tr++) check_mxm(s, t, shapes[k], c, tr & 1, tr & 2, seed++);
  }
}

Test(mxm, min_plus) {
  sweep(GSP_MIN_PLUS);
}
Test(mxm, max_plus) {
  sweep(GSP_MAX_PLUS);
}
Test(mxm, max_min) {
  sweep(GSP_MAX_MIN);
}
Test(mxm, min_max) {
  sweep(GSP_MIN_MAX);
}
Test(mxm, or_and) {
  sweep(GSP_OR_AND);
}
Test(mxm, plus_times) {
  sweep(GSP_PLUS_TIMES);
}

/* Larger products (several OpenMP chunks, dense-row scan and sort paths),
 * no mask. */
Test(mxm, larger) {
  GSP_OK(gsp_set_threads(2)); /* exercise the parallel paths */
  const shape big[] = {{300, 200, 250, 0.02, 0.03}, {120, 80, 100, 0.3, 0.5}};
  uint64_t seed = 77;
  for (int si = 0; si < GSP_TEST_NSEMIRINGS; si++)
    for (int ti = 0; ti < GSP_TEST_NTYPES; ti++)
      if (gsp_test_fits(gsp_test_semirings[si], gsp_test_types[ti]))
        for (int b = 0; b < 2; b++)
          check_mxm(gsp_test_semirings[si], gsp_test_types[ti], big[b], 0, false, false, seed++);
  /* and a masked one: the mask restricts which entries are computed */
  check_mxm(GSP_PLUS_TIMES, GSP_FP64, big[1], 1, false, false, seed++);
  check_mxm(GSP_MIN_PLUS, GSP_INT32, big[0], 2, true, false, seed++);
}

/* Absent is not zero: a product whose terms all equal the semiring zero is
 * still an entry. */
Test(mxm, zero_valued_terms_are_entries) {
  gsp_matrix A = NULL, B = NULL, C = NULL;
  GSP_OK(gsp_matrix_new(&A, GSP_FP64, 2, 2));
  GSP_OK(gsp_matrix_new(&B, GSP_FP64, 2, 2));
  GSP_OK(gsp_matrix_new(&C, GSP_FP64, 2, 2));
  double inf = INFINITY, zero = 0;
  GSP_OK(gsp_matrix_set_element(A, 0, 1, &inf));
  GSP_OK(gsp_matrix_set_element(B, 1, 0, &zero));
  GSP_OK(gsp_mxm(C, NULL, GSP_NOOP, GSP_MIN_PLUS, A, B, NULL));
  gsp_index nv;
  double x = 0;
  GSP_OK(gsp_matrix_nvals(&nv, C));
  cr_assert_eq(nv, 1, "C(0,0) = inf + 0 must be an entry");
  GSP_OK(gsp_matrix_extract_element(&x, C, 0, 0));
  cr_assert(isinf(x) && x > 0);
  /* PLUS_TIMES: 0 * 5 gives an explicit 0 */
  double five = 5;
  GSP_OK(gsp_matrix_set_element(A, 0, 1, &zero));
  GSP_OK(gsp_matrix_set_element(B, 1, 0, &five));
  GSP_OK(gsp_mxm(C, NULL, GSP_NOOP, GSP_PLUS_TIMES, A, B, NULL));
  GSP_OK(gsp_matrix_nvals(&nv, C));
  cr_assert_eq(nv, 1);
  GSP_OK(gsp_matrix_extract_element(&x, C, 0, 0));
  cr_assert_eq(x, 0.0);
  gsp_matrix_free(&A), gsp_matrix_free(&B), gsp_matrix_free(&C);
}

/* Integer MIN_PLUS saturates: INT_MAX is infinity and large sums clamp
 * (GraphBLAS would wrap, so this is checked against explicit values). */
Test(mxm, int_min_plus_saturates) {
  gsp_matrix A = NULL, B = NULL, C = NULL;
  GSP_OK(gsp_matrix_new(&A, GSP_INT32, 1, 2));
  GSP_OK(gsp_matrix_new(&B, GSP_INT32, 2, 1));
  GSP_OK(gsp_matrix_new(&C, GSP_INT32, 1, 1));
  int32_t big = INT32_MAX - 5, inf = INT32_MAX, ten = 10, neg = -3;
  GSP_OK(gsp_matrix_set_element(A, 0, 0, &big));
  GSP_OK(gsp_matrix_set_element(B, 0, 0, &ten)); /* big + 10 clamps to INT32_MAX */
  GSP_OK(gsp_matrix_set_element(A, 0, 1, &inf));
  GSP_OK(gsp_matrix_set_element(B, 1, 0, &neg)); /* inf + (-3) stays inf */
  GSP_OK(gsp_mxm(C, NULL, GSP_NOOP, GSP_MIN_PLUS, A, B, NULL));
  int32_t x = 0;
  GSP_OK(gsp_matrix_extract_element(&x, C, 0, 0));
  cr_assert_eq(x, INT32_MAX, "got %d", x);
  gsp_matrix_free(&A), gsp_matrix_free(&B), gsp_matrix_free(&C);
}

/* The output may be an input: C = C * C and C<C> = C * A. */
Test(mxm, aliased_output) {
  for (int round = 0; round < 2; round++) {
    gsp_matrix C = gsp_test_random_matrix(GSP_INT64, 20, 20, 0.2, -5, 5, 11 + round);
    gsp_matrix A = gsp_test_random_matrix(GSP_INT64, 20, 20, 0.2, -5, 5, 13 + round);
    GrB_Matrix gC = gsp_test_to_grb_matrix(C), gA = gsp_test_to_grb_matrix(A);
    if (round == 0) {
      GSP_OK(gsp_mxm(C, NULL, GSP_NOOP, GSP_MIN_PLUS, C, C, NULL));
      GRB_OK(GrB_mxm(gC, NULL, NULL, GrB_MIN_PLUS_SEMIRING_INT64, gC, gC, NULL));
    } else {
      GSP_OK(gsp_mxm(C, C, GSP_PLUS, GSP_PLUS_TIMES, C, A, NULL));
      GRB_OK(GrB_mxm(gC, gC, GrB_PLUS_INT64, GrB_PLUS_TIMES_SEMIRING_INT64, gC, gA, NULL));
    }
    gsp_test_context("aliased round %d", round);
    gsp_test_assert_matrix_eq(C, gC, 0);
    GrB_free(&gC), GrB_free(&gA);
    gsp_matrix_free(&C), gsp_matrix_free(&A);
  }
}

/* Inputs in dense and bit-packed storage give the same products. */
Test(mxm, dense_and_bits_inputs) {
  gsp_test_grb_init();
  double d[9] = {1, 0, 2, 0, 0, 3, 4, 5, 0}, absent = 0;
  gsp_matrix A = NULL, C = NULL;
  GSP_OK(gsp_matrix_import_dense(&A, GSP_FP64, 3, 3, d, &absent));
  GSP_OK(gsp__matrix_to_dense(A));
  GSP_OK(gsp_matrix_new(&C, GSP_FP64, 3, 3));
  GrB_Matrix gA = gsp_test_to_grb_matrix(A), gC = NULL;
  GRB_OK(GrB_Matrix_new(&gC, GrB_FP64, 3, 3));
  GSP_OK(gsp_mxm(C, NULL, GSP_NOOP, GSP_MAX_PLUS, A, A, NULL));
  GRB_OK(GrB_mxm(gC, NULL, NULL, GrB_MAX_PLUS_SEMIRING_FP64, gA, gA, NULL));
  gsp_test_context("dense input");
  gsp_test_assert_matrix_eq(C, gC, 0);
  GrB_free(&gA), GrB_free(&gC);
  gsp_matrix_free(&A), gsp_matrix_free(&C);

  bool bd[9] = {1, 0, 1, 0, 0, 1, 1, 1, 0}, bfalse = false;
  gsp_matrix R = NULL, RC = NULL;
  GSP_OK(gsp_matrix_import_dense(&R, GSP_BOOL, 3, 3, bd, &bfalse));
  GSP_OK(gsp_matrix_new(&RC, GSP_BOOL, 3, 3));
  gsp_matrix R2 = NULL;
  GSP_OK(gsp_matrix_dup(&R2, R));
  GSP_OK(gsp__matrix_to_bits(R));
  GSP_OK(gsp__matrix_to_dense(R2));
  GSP_OK(gsp_mxm(RC, NULL, GSP_NOOP, GSP_OR_AND, R, R2, NULL));
  GrB_Matrix gR = gsp_test_to_grb_matrix(R), gRC = NULL;
  GRB_OK(GrB_Matrix_new(&gRC, GrB_BOOL, 3, 3));
  GRB_OK(GrB_mxm(gRC, NULL, NULL, GrB_LOR_LAND_SEMIRING_BOOL, gR, gR, NULL));
  gsp_test_context("bool dense input");
  gsp_test_assert_matrix_eq(RC, gRC, 0);
  GrB_free(&gR), GrB_free(&gRC);
  gsp_matrix_free(&R), gsp_matrix_free(&R2), gsp_matrix_free(&RC);
}

/* Output and mask in dense / bit-packed storage go through the same
 * write-back: C<M> += A B with C dense and M bit-packed. */
Test(mxm, dense_output_and_bits_mask) {
  GSP_OK(gsp_set_threads(1));
  for (int round = 0; round < 4; round++) {
    gsp_test_context("dense output, bits mask, round %d", round);
    gsp_matrix A = gsp_test_random_matrix(GSP_FP32, 9, 7, 0.4, -9, 9, 100 + round);
    gsp_matrix B = gsp_test_random_matrix(GSP_FP32, 7, 8, 0.4, -9, 9, 200 + round);
    gsp_matrix C = gsp_test_random_matrix(GSP_FP32, 9, 8, 0.5, -9, 9, 300 + round);
    gsp_matrix M = gsp_test_random_matrix(GSP_BOOL, 9, 8, 0.5, 0, 1, 400 + round);
    GrB_Matrix gA = gsp_test_to_grb_matrix(A), gB = gsp_test_to_grb_matrix(B);
    GrB_Matrix gC = gsp_test_to_grb_matrix(C), gM = gsp_test_to_grb_matrix(M);
    GSP_OK(gsp__matrix_to_dense(C));
    /* bits hold only true entries: compare with that mask's structure */
    GSP_OK(gsp__matrix_to_bits(M));
    gsp_desc d = {.mask_complement = round & 1, .replace = round & 2};
    GrB_Descriptor gd = gsp_test_grb_desc(&d);
    GrB_Matrix gMb = gsp_test_to_grb_matrix(M);
    GSP_OK(gsp_mxm(C, M, GSP_MAX, GSP_MIN_PLUS, A, B, &d));
    GRB_OK(GrB_mxm(gC, gMb, GrB_MAX_FP32, GrB_MIN_PLUS_SEMIRING_FP32, gA, gB, gd));
    gsp_test_assert_matrix_eq(C, gC, 0);
    GrB_free(&gA), GrB_free(&gB), GrB_free(&gC), GrB_free(&gM), GrB_free(&gMb), GrB_free(&gd);
    gsp_matrix_free(&A), gsp_matrix_free(&B), gsp_matrix_free(&C), gsp_matrix_free(&M);
  }
}

/* Calls on different objects may run concurrently: four threads each run
 * their own products and must all match the oracle. */
Test(mxm, concurrent_calls_on_different_objects) {
  enum { NT = 4 };
  gsp_matrix A[NT], B[NT], C[NT];
  gsp_info r[NT];
  for (int k = 0; k < NT; k++) {
    A[k] = gsp_test_random_matrix(GSP_INT64, 60, 50, 0.1, -9, 9, 500 + k);
    B[k] = gsp_test_random_matrix(GSP_INT64, 50, 40, 0.1, -9, 9, 600 + k);
    GSP_OK(gsp_matrix_new(&C[k], GSP_INT64, 60, 40));
  }
#pragma omp parallel for num_threads(NT)
  for (int k = 0; k < NT; k++)
    for (int rep = 0; rep < 20 && (rep == 0 || r[k] == GSP_SUCCESS); rep++)
      r[k] = gsp_mxm(C[k], NULL, rep ? GSP_MIN : GSP_NOOP, GSP_MIN_PLUS, A[k], B[k], NULL);
  for (int k = 0; k < NT; k++) {
    GSP_OK(r[k]);
    gsp_test_context("concurrent product %d", k);
    GrB_Matrix gA = gsp_test_to_grb_matrix(A[k]), gB = gsp_test_to_grb_matrix(B[k]), gC = NULL;
    GRB_OK(GrB_Matrix_new(&gC, GrB_INT64, 60, 40));
    GRB_OK(GrB_mxm(gC, NULL, NULL, GrB_MIN_PLUS_SEMIRING_INT64, gA, gB, NULL));
    gsp_test_assert_matrix_eq(C[k], gC, 0);
    GrB_free(&gA), GrB_free(&gB), GrB_free(&gC);
    gsp_matrix_free(&A[k]), gsp_matrix_free(&B[k]), gsp_matrix_free(&C[k]);
  }
}
