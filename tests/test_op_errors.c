/*
 * Argument errors of every operation: NULL and freed/foreign handles,
 * dimension and domain mismatches, invalid enum codes, NULL scalars. Each
 * must return its code, leave a message naming the function, and leave the
 * output untouched. Then allocation failures injected at every step
 * (LAGraph's "brutal" tests): each must give GSP_OUT_OF_MEMORY with the
 * output untouched, until the operation succeeds with the right result.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "gsp_internal.h"
#include "gsp_test.h"

/* Expect `call` to fail with `code` and a message naming `fn`. */
#define EXPECT_ERR(call, code, fn)                                                                                    \
  do {                                                                                                                \
    gsp_info e_ = (call);                                                                                             \
    cr_assert_eq(e_, (code), "%s -> %s, expected %s (%s)", #call, gsp_strerror(e_), gsp_strerror(code),               \
                 gsp_last_error());                                                                                   \
    cr_assert(strstr(gsp_last_error(), (fn)) != NULL, "%s: message \"%s\" does not name %s", #call, gsp_last_error(), \
              (fn));                                                                                                  \
  } while (0)

/* Fixture: INT32 A 4x5, B 5x3, C 4x3 (with entries), vectors u5, w4, and
 * copies of the outputs to compare with after each error. */
static gsp_matrix A, B, C, Cref, Af, M43, M34;
static gsp_vector u5, u4, w4, w3, wref4, wref3, uf5, m4;
static struct gsp_matrix_s fake_matrix; /* never registered: foreign */
static struct gsp_vector_s fake_vector;

static void setup(void) {
  A = gsp_test_random_matrix(GSP_INT32, 4, 5, 0.5, -5, 5, 1);
  B = gsp_test_random_matrix(GSP_INT32, 5, 3, 0.5, -5, 5, 2);
  C = gsp_test_random_matrix(GSP_INT32, 4, 3, 0.5, -5, 5, 3);
  Af = gsp_test_random_matrix(GSP_FP64, 4, 5, 0.5, -5, 5, 4);
  M43 = gsp_test_random_mask(4, 3, 0.5, 5);
  M34 = gsp_test_random_mask(3, 4, 0.5, 6);
  u5 = gsp_test_random_vector(GSP_INT32, 5, 0.6, -5, 5, 7);
  u4 = gsp_test_random_vector(GSP_INT32, 4, 0.6, -5, 5, 8);
  w4 = gsp_test_random_vector(GSP_INT32, 4, 0.6, -5, 5, 9);
  w3 = gsp_test_random_vector(GSP_INT32, 3, 0.6, -5, 5, 10);
  uf5 = gsp_test_random_vector(GSP_FP32, 5, 0.6, -5, 5, 11);
  m4 = gsp_test_random_vmask(4, 0.5, 12);
  GSP_OK(gsp_matrix_dup(&Cref, C));
  GSP_OK(gsp_vector_dup(&wref4, w4));
  GSP_OK(gsp_vector_dup(&wref3, w3));
  memset(&fake_matrix, 0, sizeof fake_matrix);
  fake_matrix.magic = GSP_MAGIC_MATRIX;
  memset(&fake_vector, 0, sizeof fake_vector);
  fake_vector.magic = GSP_MAGIC_VECTOR;
}

static void teardown(void) {
  gsp_matrix_free(&A), gsp_matrix_free(&B), gsp_matrix_free(&C), gsp_matrix_free(&Cref);
  gsp_matrix_free(&Af), gsp_matrix_free(&M43), gsp_matrix_free(&M34);
  gsp_vector_free(&u5), gsp_vector_free(&u4), gsp_vector_free(&w4), gsp_vector_free(&w3);
  gsp_vector_free(&wref4), gsp_vector_free(&wref3), gsp_vector_free(&uf5), gsp_vector_free(&m4);
}

static void unchanged(void) {
  gsp_test_context("output after an error");
  gsp_test_assert_matrix_same(C, Cref, 0);
  gsp_test_assert_vector_same(w4, wref4, 0);
  gsp_test_assert_vector_same(w3, wref3, 0);
}

/* A matrix handle that was freed (checked before anything else allocates,
 * so its address cannot have been reused). */
static gsp_matrix freed_matrix(void) {
  gsp_matrix X = NULL;
  GSP_OK(gsp_matrix_new(&X, GSP_INT32, 4, 5));
  gsp_matrix dead = X;
  GSP_OK(gsp_matrix_free(&X));
  return dead;
}

static gsp_vector freed_vector(void) {
  gsp_vector X = NULL;
  GSP_OK(gsp_vector_new(&X, GSP_INT32, 5));
  gsp_vector dead = X;
  GSP_OK(gsp_vector_free(&X));
  return dead;
}

TestSuite(op_errors, .init = setup, .fini = teardown);

Test(op_errors, mxm) {
  const char *fn = "gsp_mxm";
  gsp_desc ta = {.transpose_a = true};
  EXPECT_ERR(gsp_mxm(NULL, NULL, GSP_NOOP, GSP_MIN_PLUS, A, B, NULL), GSP_NULL_POINTER, fn);
  EXPECT_ERR(gsp_mxm(C, NULL, GSP_NOOP, GSP_MIN_PLUS, NULL, B, NULL), GSP_NULL_POINTER, fn);
  EXPECT_ERR(gsp_mxm(C, NULL, GSP_NOOP, GSP_MIN_PLUS, A, NULL, NULL), GSP_NULL_POINTER, fn);
  EXPECT_ERR(gsp_mxm(C, NULL, GSP_NOOP, GSP_MIN_PLUS, freed_matrix(), B, NULL), GSP_INVALID_OBJECT, fn);
  EXPECT_ERR(gsp_mxm(C, NULL, GSP_NOOP, GSP_MIN_PLUS, A, &fake_matrix, NULL), GSP_INVALID_OBJECT, fn);
  EXPECT_ERR(gsp_mxm(C, &fake_matrix, GSP_NOOP, GSP_MIN_PLUS, A, B, NULL), GSP_INVALID_OBJECT, fn);
  EXPECT_ERR(gsp_mxm(C, NULL, GSP_NOOP, GSP_MIN_PLUS, Af, B, NULL), GSP_DOMAIN_MISMATCH, fn);
  EXPECT_ERR(gsp_mxm(C, NULL, GSP_NOOP, GSP_OR_AND, A, B, NULL), GSP_DOMAIN_MISMATCH, fn);
  EXPECT_ERR(gsp_mxm(C, NULL, GSP_NOOP, (gsp_semiring)99, A, B, NULL), GSP_INVALID_VALUE, fn);
  EXPECT_ERR(gsp_mxm(C, NULL, (gsp_binop)99, GSP_MIN_PLUS, A, B, NULL), GSP_INVALID_VALUE, fn);
  EXPECT_ERR(gsp_mxm(C, NULL, (gsp_binop)-1, GSP_MIN_PLUS, A, B, NULL), GSP_INVALID_VALUE, fn);
  EXPECT_ERR(gsp_mxm(C, NULL, GSP_NOOP, GSP_MIN_PLUS, A, A, NULL), GSP_DIMENSION_MISMATCH, fn);
  EXPECT_ERR(gsp_mxm(C, NULL, GSP_NOOP, GSP_MIN_PLUS, A, B, &ta), GSP_DIMENSION_MISMATCH, fn);
  EXPECT_ERR(gsp_mxm(C, M34, GSP_NOOP, GSP_MIN_PLUS, A, B, NULL), GSP_DIMENSION_MISMATCH, fn);
  /* A as the output: 4x5, but the product is 4x3 */
  EXPECT_ERR(gsp_mxm(A, NULL, GSP_NOOP, GSP_MIN_PLUS, A, B, NULL), GSP_DIMENSION_MISMATCH, fn);
  unchanged();
  /* a mask of another type is fine */
  GSP_OK(gsp_mxm(C, M43, GSP_PLUS, GSP_MIN_PLUS, A, B, NULL));
}

Test(op_errors, mxv_vxm) {
  gsp_desc tb = {.transpose_b = true};
  EXPECT_ERR(gsp_mxv(NULL, NULL, GSP_NOOP, GSP_MIN_PLUS, A, u5, NULL), GSP_NULL_POINTER, "gsp_mxv");
  EXPECT_ERR(gsp_mxv(w4, NULL, GSP_NOOP, GSP_MIN_PLUS, A, NULL, NULL), GSP_NULL_POINTER, "gsp_mxv");
  EXPECT_ERR(gsp_mxv(w4, NULL, GSP_NOOP, GSP_MIN_PLUS, A, freed_vector(), NULL), GSP_INVALID_OBJECT, "gsp_mxv");
  EXPECT_ERR(gsp_mxv(w4, &fake_vector, GSP_NOOP, GSP_MIN_PLUS, A, u5, NULL), GSP_INVALID_OBJECT, "gsp_mxv");
  EXPECT_ERR(gsp_mxv(w4, NULL, GSP_NOOP, GSP_MIN_PLUS, A, uf5, NULL), GSP_DOMAIN_MISMATCH, "gsp_mxv");
  EXPECT_ERR(gsp_mxv(w4, NULL, GSP_NOOP, GSP_MIN_PLUS, Af, u5, NULL), GSP_DOMAIN_MISMATCH, "gsp_mxv");
  EXPECT_ERR(gsp_mxv(w4, NULL, GSP_NOOP, GSP_OR_AND, A, u5, NULL), GSP_DOMAIN_MISMATCH, "gsp_mxv");
  EXPECT_ERR(gsp_mxv(w4, NULL, GSP_NOOP, (gsp_semiring)-3, A, u5, NULL), GSP_INVALID_VALUE, "gsp_mxv");
  EXPECT_ERR(gsp_mxv(w4, NULL, (gsp_binop)42, GSP_MIN_PLUS, A, u5, NULL), GSP_INVALID_VALUE, "gsp_mxv");
  EXPECT_ERR(gsp_mxv(w4, NULL, GSP_NOOP, GSP_MIN_PLUS, A, u4, NULL), GSP_DIMENSION_MISMATCH, "gsp_mxv");
  EXPECT_ERR(gsp_mxv(w3, NULL, GSP_NOOP, GSP_MIN_PLUS, A, u5, NULL), GSP_DIMENSION_MISMATCH, "gsp_mxv");
  EXPECT_ERR(gsp_mxv(w4, u5, GSP_NOOP, GSP_MIN_PLUS, A, u5, NULL), GSP_DIMENSION_MISMATCH, "gsp_mxv");
  EXPECT_ERR(gsp_vxm(w3, NULL, GSP_NOOP, GSP_MAX_MIN, u5, A, NULL), GSP_DIMENSION_MISMATCH, "gsp_vxm");
  EXPECT_ERR(gsp_vxm(w3, NULL, GSP_NOOP, GSP_MAX_MIN, u5, A, &tb), GSP_DIMENSION_MISMATCH, "gsp_vxm");
  EXPECT_ERR(gsp_vxm(w3, NULL, GSP_NOOP, GSP_OR_AND, u5, B, NULL), GSP_DOMAIN_MISMATCH, "gsp_vxm");
  EXPECT_ERR(gsp_vxm(w3, NULL, GSP_NOOP, GSP_MAX_MIN, NULL, B, NULL), GSP_NULL_POINTER, "gsp_vxm");
  unchanged();
  GSP_OK(gsp_vxm(w3, NULL, GSP_MIN, GSP_MAX_MIN, u5, B, NULL));
  GSP_OK(gsp_vxm(w4, m4, GSP_NOOP, GSP_MAX_MIN, u5, A, &tb));
}

Test(op_errors, ewise) {
  gsp_matrix A2 = gsp_test_random_matrix(GSP_INT32, 4, 3, 0.5, -5, 5, 20);
  gsp_desc ta = {.transpose_a = true};
  const char *fa = "gsp_matrix_ewise_add", *fm = "gsp_matrix_ewise_mult";
  EXPECT_ERR(gsp_matrix_ewise_add(NULL, NULL, GSP_NOOP, GSP_PLUS, A2, A2, NULL), GSP_NULL_POINTER, fa);
  EXPECT_ERR(gsp_matrix_ewise_add(C, NULL, GSP_NOOP, GSP_PLUS, freed_matrix(), A2, NULL), GSP_INVALID_OBJECT, fa);
  EXPECT_ERR(gsp_matrix_ewise_add(C, NULL, GSP_NOOP, GSP_NOOP, A2, A2, NULL), GSP_INVALID_VALUE, fa);
  EXPECT_ERR(gsp_matrix_ewise_add(C, NULL, GSP_NOOP, (gsp_binop)10, A2, A2, NULL), GSP_INVALID_VALUE, fa);
  EXPECT_ERR(gsp_matrix_ewise_add(C, NULL, GSP_NOOP, GSP_PLUS, A, A2, NULL), GSP_DIMENSION_MISMATCH, fa);
  EXPECT_ERR(gsp_matrix_ewise_add(C, NULL, GSP_NOOP, GSP_PLUS, A2, A2, &ta), GSP_DIMENSION_MISMATCH, fa);
  EXPECT_ERR(gsp_matrix_ewise_mult(C, NULL, GSP_NOOP, GSP_PLUS, A2, Af, NULL), GSP_DOMAIN_MISMATCH, fm);
  EXPECT_ERR(gsp_matrix_ewise_mult(C, M34, GSP_NOOP, GSP_PLUS, A2, A2, NULL), GSP_DIMENSION_MISMATCH, fm);
  EXPECT_ERR(gsp_matrix_ewise_mult(C, NULL, (gsp_binop)77, GSP_PLUS, A2, A2, NULL), GSP_INVALID_VALUE, fm);
  const char *va = "gsp_vector_ewise_add", *vm = "gsp_vector_ewise_mult";
  EXPECT_ERR(gsp_vector_ewise_add(w4, NULL, GSP_NOOP, GSP_MIN, u4, NULL, NULL), GSP_NULL_POINTER, va);
  EXPECT_ERR(gsp_vector_ewise_add(w4, NULL, GSP_NOOP, GSP_MIN, u4, u5, NULL), GSP_DIMENSION_MISMATCH, va);
  EXPECT_ERR(gsp_vector_ewise_add(w4, NULL, GSP_NOOP, GSP_NOOP, u4, u4, NULL), GSP_INVALID_VALUE, va);
  EXPECT_ERR(gsp_vector_ewise_mult(w4, NULL, GSP_NOOP, GSP_MIN, u4, &fake_vector, NULL), GSP_INVALID_OBJECT, vm);
  EXPECT_ERR(gsp_vector_ewise_mult(w3, NULL, GSP_NOOP, GSP_MIN, uf5, uf5, NULL), GSP_DOMAIN_MISMATCH, vm);
  unchanged();
  gsp_matrix_free(&A2);
}

Test(op_errors, reduce) {
  const char *fv = "gsp_matrix_reduce_vector";
  gsp_desc ta = {.transpose_a = true};
  int32_t s = 123;
  EXPECT_ERR(gsp_matrix_reduce_vector(NULL, NULL, GSP_NOOP, GSP_PLUS, A, NULL), GSP_NULL_POINTER, fv);
  EXPECT_ERR(gsp_matrix_reduce_vector(w4, NULL, GSP_NOOP, GSP_MINUS, A, NULL), GSP_INVALID_VALUE, fv);
  EXPECT_ERR(gsp_matrix_reduce_vector(w4, NULL, GSP_NOOP, GSP_FIRST, A, NULL), GSP_INVALID_VALUE, fv);
  EXPECT_ERR(gsp_matrix_reduce_vector(w4, NULL, GSP_NOOP, GSP_NOOP, A, NULL), GSP_INVALID_VALUE, fv);
  EXPECT_ERR(gsp_matrix_reduce_vector(w4, NULL, GSP_NOOP, GSP_PLUS, A, &ta), GSP_DIMENSION_MISMATCH, fv);
  EXPECT_ERR(gsp_matrix_reduce_vector(w4, NULL, GSP_NOOP, GSP_PLUS, Af, NULL), GSP_DOMAIN_MISMATCH, fv);
  EXPECT_ERR(gsp_matrix_reduce_vector(w4, u5, GSP_NOOP, GSP_PLUS, A, NULL), GSP_DIMENSION_MISMATCH, fv);
  EXPECT_ERR(gsp_matrix_reduce_scalar(NULL, GSP_PLUS, A), GSP_NULL_POINTER, "gsp_matrix_reduce_scalar");
  EXPECT_ERR(gsp_matrix_reduce_scalar(&s, GSP_SECOND, A), GSP_INVALID_VALUE, "gsp_matrix_reduce_scalar");
  EXPECT_ERR(gsp_matrix_reduce_scalar(&s, GSP_PLUS, freed_matrix()), GSP_INVALID_OBJECT, "gsp_matrix_reduce_scalar");
  EXPECT_ERR(gsp_vector_reduce_scalar(&s, GSP_PLUS, NULL), GSP_NULL_POINTER, "gsp_vector_reduce_scalar");
  EXPECT_ERR(gsp_vector_reduce_scalar(&s, (gsp_binop)55, u5), GSP_INVALID_VALUE, "gsp_vector_reduce_scalar");
  cr_assert_eq(s, 123, "the scalar output changed on error");
  unchanged();
}

Test(op_errors, apply_select) {
  int32_t y = 2;
  int64_t k = 0;
  gsp_matrix A2 = gsp_test_random_matrix(GSP_INT32, 4, 3, 0.5, -5, 5, 21);
  gsp_desc ta = {.transpose_a = true};
  EXPECT_ERR(gsp_matrix_apply(C, NULL, GSP_NOOP, (gsp_unop)9, A2, NULL), GSP_INVALID_VALUE, "gsp_matrix_apply");
  EXPECT_ERR(gsp_matrix_apply(C, NULL, GSP_NOOP, GSP_ABS, A, NULL), GSP_DIMENSION_MISMATCH, "gsp_matrix_apply");
  EXPECT_ERR(gsp_matrix_apply(C, NULL, GSP_NOOP, GSP_ABS, A2, &ta), GSP_DIMENSION_MISMATCH, "gsp_matrix_apply");
  EXPECT_ERR(gsp_matrix_apply(C, NULL, GSP_NOOP, GSP_ABS, NULL, NULL), GSP_NULL_POINTER, "gsp_matrix_apply");
  EXPECT_ERR(gsp_matrix_apply_scalar(C, NULL, GSP_NOOP, GSP_PLUS, A2, NULL, NULL), GSP_NULL_POINTER,
             "gsp_matrix_apply_scalar");
  EXPECT_ERR(gsp_matrix_apply_scalar(C, NULL, GSP_NOOP, GSP_NOOP, A2, &y, NULL), GSP_INVALID_VALUE,
             "gsp_matrix_apply_scalar");
  EXPECT_ERR(gsp_matrix_apply_scalar(C, NULL, GSP_NOOP, GSP_PLUS, &fake_matrix, &y, NULL), GSP_INVALID_OBJECT,
             "gsp_matrix_apply_scalar");
  EXPECT_ERR(gsp_matrix_select(C, NULL, GSP_NOOP, GSP_TRIL, A2, NULL, NULL), GSP_NULL_POINTER, "gsp_matrix_select");
  EXPECT_ERR(gsp_matrix_select(C, NULL, GSP_NOOP, (gsp_selop)10, A2, &k, NULL), GSP_INVALID_VALUE, "gsp_matrix_select");
  EXPECT_ERR(gsp_matrix_select(C, NULL, GSP_NOOP, GSP_DIAG, A, &k, NULL), GSP_DIMENSION_MISMATCH, "gsp_matrix_select");
  EXPECT_ERR(gsp_vector_apply(w4, NULL, GSP_NOOP, GSP_ONE, u5, NULL), GSP_DIMENSION_MISMATCH, "gsp_vector_apply");
  EXPECT_ERR(gsp_vector_apply(w4, NULL, GSP_NOOP, (gsp_unop)-1, u4, NULL), GSP_INVALID_VALUE, "gsp_vector_apply");
  EXPECT_ERR(gsp_vector_apply_scalar(w3, NULL, GSP_NOOP, GSP_TIMES, u5, &y, NULL), GSP_DIMENSION_MISMATCH,
             "gsp_vector_apply_scalar");
  EXPECT_ERR(gsp_vector_apply_scalar(w4, NULL, GSP_NOOP, GSP_TIMES, u4, NULL, NULL), GSP_NULL_POINTER,
             "gsp_vector_apply_scalar");
  EXPECT_ERR(gsp_vector_select(w4, NULL, GSP_NOOP, GSP_VALUE_GT, freed_vector(), &y, NULL), GSP_INVALID_OBJECT,
             "gsp_vector_select");
  EXPECT_ERR(gsp_vector_select(w4, NULL, (gsp_binop)12, GSP_VALUE_GT, u4, &y, NULL), GSP_INVALID_VALUE,
             "gsp_vector_select");
  unchanged();
  gsp_matrix_free(&A2);
}

/* ---- allocation failures: "brutal" sweeps ---- */

/* Run op with the k-th allocation (and all later ones) failing, for
 * k = 0, 1, ... until it succeeds; every failure must be OUT_OF_MEMORY with
 * the outputs unchanged. Returns the number of failing runs. */
typedef gsp_info (*op_fn)(void);
static int brutal(op_fn op, const char *name) {
  gsp_test_context("brutal %s", name);
  for (int k = 0; k < 10000; k++) {
    gsp__debug_fail_after(k);
    gsp_info r = op();
    gsp__debug_fail_after(-1);
    if (r == GSP_SUCCESS) return k;
    cr_assert_eq(r, GSP_OUT_OF_MEMORY, "%s with allocation %d failing -> %s (%s)", name, k, gsp_strerror(r),
                 gsp_last_error());
    cr_assert(strstr(gsp_last_error(), "gsp_") != NULL, "no function named in \"%s\"", gsp_last_error());
    unchanged();
  }
  cr_assert_fail("%s never succeeded", name);
  return -1;
}

static gsp_desc dcomp = {.mask_complement = true, .replace = true, .transpose_a = true};
static gsp_matrix At; /* A' as a 5x4 matrix, for transposed calls */
static gsp_info op_mxm(void) {
  return gsp_mxm(C, M43, GSP_PLUS, GSP_MIN_PLUS, A, B, NULL);
}
static gsp_info op_mxm_t(void) {
  return gsp_mxm(C, M43, GSP_MIN, GSP_PLUS_TIMES, At, B, &dcomp);
}
static gsp_info op_mxv(void) {
  return gsp_mxv(w4, m4, GSP_MAX, GSP_MAX_PLUS, A, u5, NULL);
}
static gsp_info op_vxm(void) {
  return gsp_vxm(w3, NULL, GSP_NOOP, GSP_MIN_MAX, u5, B, NULL);
}
static gsp_info op_ewise(void) {
  return gsp_matrix_ewise_add(C, M43, GSP_TIMES, GSP_MINUS, C, C, NULL);
}
static gsp_info op_vewise(void) {
  return gsp_vector_ewise_mult(w4, m4, GSP_PLUS, GSP_MIN, w4, u4, NULL);
}
static gsp_info op_reduce(void) {
  return gsp_matrix_reduce_vector(w4, NULL, GSP_PLUS, GSP_MAX, A, NULL);
}
static gsp_info op_apply(void) {
  return gsp_matrix_apply(C, M43, GSP_NOOP, GSP_AINV, C, NULL);
}
static gsp_info op_select(void) {
  int64_t k = 0;
  return gsp_matrix_select(C, NULL, GSP_PLUS, GSP_TRIU, C, &k, NULL);
}

Test(op_errors, allocation_failures) {
  GSP_OK(gsp_matrix_transpose(&At, A));
  struct {
    op_fn f;
    const char *name;
  } ops[] = {{op_mxm, "mxm"},       {op_mxm_t, "mxm transposed"}, {op_mxv, "mxv"},
             {op_vxm, "vxm"},       {op_ewise, "ewise_add"},      {op_vewise, "vector ewise"},
             {op_reduce, "reduce"}, {op_apply, "apply"},          {op_select, "select"}};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    /* expected: the same call on fresh copies */
    gsp_matrix Cs = C;
    gsp_vector w4s = w4, w3s = w3;
    GSP_OK(gsp_matrix_dup(&C, Cs));
    GSP_OK(gsp_vector_dup(&w4, w4s));
    GSP_OK(gsp_vector_dup(&w3, w3s));
    GSP_OK(ops[i].f());
    gsp_matrix Cexp = C;
    gsp_vector w4exp = w4, w3exp = w3;
    C = Cs, w4 = w4s, w3 = w3s;
    int fails = brutal(ops[i].f, ops[i].name);
    cr_assert(fails > 0, "%s: no allocation was ever failed", ops[i].name);
    gsp_test_context("brutal %s result", ops[i].name);
    gsp_test_assert_matrix_same(C, Cexp, 0);
    gsp_test_assert_vector_same(w4, w4exp, 0);
    gsp_test_assert_vector_same(w3, w3exp, 0);
    /* the next op starts from this state */
    gsp_matrix_free(&Cref), gsp_vector_free(&wref4), gsp_vector_free(&wref3);
    Cref = Cexp, wref4 = w4exp, wref3 = w3exp;
  }
  gsp_matrix_free(&At);
}
