/*
 * Semiring laws for every (semiring, type), generated from the same X-macro
 * tables (gsp_semiring.h) that generate the kernels: identities of add and
 * multiply, the zero annihilating multiply, associativity and
 * commutativity, and distributivity on both sides.
 *
 * The sample values are the semiring's own zero and one plus small
 * integers and dyadic fractions, on which every law is exact (also in
 * floating point). Left out on purpose: the opposite infinity
 * (+inf + -inf is NaN) and integer sums that overflow (saturation breaks
 * associativity there; the saturation itself is tested below).
 */
#include <criterion/criterion.h>

#include "gsp_internal.h"
#include "gsp_semiring.h"
#include "gsp_test.h"

#define NSAMPLES 9

/* One test per (semiring, type): LAWS_(SR, sr, ct, sfx, gsp type). */
#define LAWS_(SR, sr, ct, sfx, T)                                                                                 \
  Test(semiring_laws, sr##_##sfx) {                                                                               \
    const ct zero = gsp_##sr##_zero_##sfx(), one = gsp_##sr##_one_##sfx();                                        \
    const ct v[NSAMPLES] = {zero, one, (ct)0, (ct)1, (ct)-1, (ct)2, (ct)-3, (ct)7, (ct)5};                        \
    _Alignas(8) ct lib_zero, lib_one;                                                                             \
    gsp__semiring_zero(&lib_zero, GSP_##SR, GSP_##T);                                                             \
    gsp__semiring_one(&lib_one, GSP_##SR, GSP_##T);                                                               \
    cr_assert(lib_zero == zero && lib_one == one, #SR " " #T ": gsp__semiring_zero/one disagree with the table"); \
    for (int i = 0; i < NSAMPLES; i++) {                                                                          \
      ct a = v[i];                                                                                                \
      cr_assert(gsp_##sr##_add_##sfx(zero, a) == a && gsp_##sr##_add_##sfx(a, zero) == a,                         \
                #SR " " #T ": zero is not the add identity at %g", (double)a);                                    \
      cr_assert(gsp_##sr##_mul_##sfx(one, a) == a && gsp_##sr##_mul_##sfx(a, one) == a,                           \
                #SR " " #T ": one is not the multiply identity at %g", (double)a);                                \
      cr_assert(gsp_##sr##_mul_##sfx(zero, a) == zero && gsp_##sr##_mul_##sfx(a, zero) == zero,                   \
                #SR " " #T ": zero does not annihilate %g", (double)a);                                           \
      for (int j = 0; j < NSAMPLES; j++) {                                                                        \
        ct b = v[j];                                                                                              \
        cr_assert(gsp_##sr##_add_##sfx(a, b) == gsp_##sr##_add_##sfx(b, a),                                       \
                  #SR " " #T ": add not commutative at %g, %g", (double)a, (double)b);                            \
        cr_assert(gsp_##sr##_mul_##sfx(a, b) == gsp_##sr##_mul_##sfx(b, a),                                       \
                  #SR " " #T ": mul not commutative at %g, %g", (double)a, (double)b);                            \
        for (int k = 0; k < NSAMPLES; k++) {                                                                      \
          ct c = v[k];                                                                                            \
          cr_assert(gsp_##sr##_add_##sfx(gsp_##sr##_add_##sfx(a, b), c) ==                                        \
                        gsp_##sr##_add_##sfx(a, gsp_##sr##_add_##sfx(b, c)),                                      \
                    #SR " " #T ": add not associative at %g, %g, %g", (double)a, (double)b, (double)c);           \
          cr_assert(gsp_##sr##_mul_##sfx(gsp_##sr##_mul_##sfx(a, b), c) ==                                        \
                        gsp_##sr##_mul_##sfx(a, gsp_##sr##_mul_##sfx(b, c)),                                      \
                    #SR " " #T ": mul not associative at %g, %g, %g", (double)a, (double)b, (double)c);           \
          cr_assert(gsp_##sr##_mul_##sfx(a, gsp_##sr##_add_##sfx(b, c)) ==                                        \
                        gsp_##sr##_add_##sfx(gsp_##sr##_mul_##sfx(a, b), gsp_##sr##_mul_##sfx(a, c)),             \
                    #SR " " #T ": not left-distributive at %g, %g, %g", (double)a, (double)b, (double)c);         \
          cr_assert(gsp_##sr##_mul_##sfx(gsp_##sr##_add_##sfx(b, c), a) ==                                        \
                        gsp_##sr##_add_##sfx(gsp_##sr##_mul_##sfx(b, a), gsp_##sr##_mul_##sfx(c, a)),             \
                    #SR " " #T ": not right-distributive at %g, %g, %g", (double)a, (double)b, (double)c);        \
        }                                                                                                         \
      }                                                                                                           \
    }                                                                                                             \
  }

#define LAWS_ALL_TYPES_(SR, sr, addop, mulop, z, o) \
  LAWS_(SR, sr, int32_t, i32, INT32)                \
  LAWS_(SR, sr, int64_t, i64, INT64)                \
  LAWS_(SR, sr, float, f32, FP32)                   \
  LAWS_(SR, sr, double, f64, FP64)
GSP_NUM_SEMIRING_LIST(LAWS_ALL_TYPES_)
LAWS_(OR_AND, or_and, bool, b, BOOL)

/* Integer "+" of MIN_PLUS saturates with INT_MAX as +inf (absorbing, also
 * against INT_MIN), and MAX_PLUS's with INT_MIN as -inf. */
Test(semiring_laws, integer_saturation) {
  cr_assert_eq(gsp_min_plus_mul_i32(INT32_MAX - 1, 5), INT32_MAX);
  cr_assert_eq(gsp_min_plus_mul_i32(INT32_MAX, INT32_MIN), INT32_MAX);
  cr_assert_eq(gsp_min_plus_mul_i32(INT32_MIN + 1, -5), INT32_MIN);
  cr_assert_eq(gsp_min_plus_mul_i32(-7, 3), -4);
  cr_assert_eq(gsp_min_plus_mul_i64(INT64_MAX - 1, 5), INT64_MAX);
  cr_assert_eq(gsp_min_plus_mul_i64(INT64_MAX, INT64_MIN), INT64_MAX);
  cr_assert_eq(gsp_min_plus_mul_i64(INT64_MIN + 1, -5), INT64_MIN);
  cr_assert_eq(gsp_max_plus_mul_i32(INT32_MIN, INT32_MAX), INT32_MIN);
  cr_assert_eq(gsp_max_plus_mul_i32(INT32_MAX - 2, 9), INT32_MAX);
  cr_assert_eq(gsp_max_plus_mul_i64(INT64_MIN, INT64_MAX), INT64_MIN);
  cr_assert_eq(gsp_max_plus_mul_i64(INT64_MIN + 3, -9), INT64_MIN);
  /* PLUS_TIMES on integers wraps (GraphBLAS semantics) */
  cr_assert_eq(gsp_plus_times_add_i32(INT32_MAX, 1), INT32_MIN);
}

/* The same laws seen through gsp_mxm: I is the identity matrix of each
 * semiring (one on the diagonal), so A I = I A = A, and an empty matrix
 * (all zero) gives an empty product. */
Test(semiring_laws, identity_matrix_through_mxm) {
  GSP_OK(gsp_set_threads(1));
  for (int si = 0; si < GSP_TEST_NSEMIRINGS; si++) {
    for (int ti = 0; ti < GSP_TEST_NTYPES; ti++) {
      gsp_semiring s = gsp_test_semirings[si];
      gsp_type t = gsp_test_types[ti];
      if (!gsp_test_fits(s, t)) continue;
      gsp_test_context("identity %s %s", gsp_test_semiring_name(s), gsp_test_type_name(t));
      const gsp_index n = 17;
      gsp_matrix A = gsp_test_random_matrix(t, n, n, 0.3, -9, 9, 1 + si * 7 + ti);
      gsp_matrix I = NULL, C = NULL, Z = NULL;
      GSP_OK(gsp_matrix_new(&I, t, n, n));
      GSP_OK(gsp_matrix_new(&C, t, n, n));
      GSP_OK(gsp_matrix_new(&Z, t, n, n));
      double one[1];
      gsp__semiring_one(one, s, t);
      for (gsp_index i = 0; i < n; i++) GSP_OK(gsp_matrix_set_element(I, i, i, one));
      GSP_OK(gsp_mxm(C, NULL, GSP_NOOP, s, A, I, NULL));
      gsp_test_assert_matrix_same(C, A, 0);
      GSP_OK(gsp_mxm(C, NULL, GSP_NOOP, s, I, A, NULL));
      gsp_test_assert_matrix_same(C, A, 0);
      GSP_OK(gsp_mxm(C, NULL, GSP_NOOP, s, Z, A, NULL));
      gsp_index nv;
      GSP_OK(gsp_matrix_nvals(&nv, C));
      cr_assert_eq(nv, 0);
      gsp_matrix_free(&A), gsp_matrix_free(&I), gsp_matrix_free(&C), gsp_matrix_free(&Z);
    }
  }
}
