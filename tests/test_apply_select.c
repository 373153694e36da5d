/*
 * Apply (unary operators, and binary operators with a bound second
 * operand) and select (index and value tests), matrices and vectors,
 * against GrB_apply / GrB_select: every type x operator, several shapes,
 * every mask/replace/accumulator configuration, with and without A'.
 * Vector select is compared through a 1 x n GraphBLAS matrix: gsp's index
 * tests see a vector as a row (i = 0), GraphBLAS's as a column.
 */
#include <criterion/criterion.h>

#include "gsp_test.h"

typedef struct {
  gsp_index m, n;
  double d;
} shape;
static const shape shapes[] = {{0, 0, 0.5}, {4, 0, 0.5}, {1, 1, 1.0}, {8, 13, 0.35}, {11, 11, 1.0}, {30, 20, 0.06}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static const gsp_binop binops[] = {GSP_MIN,  GSP_MAX,   GSP_PLUS,   GSP_TIMES, GSP_LOR,
                                   GSP_LAND, GSP_FIRST, GSP_SECOND, GSP_MINUS};
#define NBINOPS (sizeof binops / sizeof binops[0])

static GrB_UnaryOp grb_unop(gsp_unop f, gsp_type t) {
#define PICK_(prefix)               \
  (t == GSP_BOOL    ? prefix##BOOL  \
   : t == GSP_INT32 ? prefix##INT32 \
   : t == GSP_INT64 ? prefix##INT64 \
   : t == GSP_FP32  ? prefix##FP32  \
                    : prefix##FP64)
  switch (f) {
  case GSP_IDENTITY:
    return PICK_(GrB_IDENTITY_);
  case GSP_AINV:
    return PICK_(GrB_AINV_);
  case GSP_ABS:
    return PICK_(GrB_ABS_);
  case GSP_ONE:
    return PICK_(GxB_ONE_);
  }
  return NULL;
}

static GrB_IndexUnaryOp grb_selop(gsp_selop op, gsp_type t) {
  switch (op) {
  case GSP_TRIL:
    return GrB_TRIL;
  case GSP_TRIU:
    return GrB_TRIU;
  case GSP_DIAG:
    return GrB_DIAG;
  case GSP_OFFDIAG:
    return GrB_OFFDIAG;
  case GSP_VALUE_EQ:
    return PICK_(GrB_VALUEEQ_);
  case GSP_VALUE_NE:
    return PICK_(GrB_VALUENE_);
  case GSP_VALUE_LT:
    return PICK_(GrB_VALUELT_);
  case GSP_VALUE_LE:
    return PICK_(GrB_VALUELE_);
  case GSP_VALUE_GT:
    return PICK_(GrB_VALUEGT_);
  case GSP_VALUE_GE:
    return PICK_(GrB_VALUEGE_);
  }
#undef PICK_
  return NULL;
}

/* The operation under test, on gsp and on GraphBLAS objects. */
typedef enum { APPLY, APPLY_SCALAR, SELECT } kind;
typedef struct {
  kind k;
  gsp_unop f;
  gsp_binop op;
  gsp_selop sel;
} operation;

static const char *op_name(operation o) {
  static char buf[48];
  static const char *un[] = {"IDENTITY", "AINV", "ABS", "ONE"};
  static const char *se[] = {"TRIL",     "TRIU",     "DIAG",     "OFFDIAG",  "VALUE_EQ",
                             "VALUE_NE", "VALUE_LT", "VALUE_LE", "VALUE_GT", "VALUE_GE"};
  if (o.k == APPLY) snprintf(buf, sizeof buf, "apply %s", un[o.f]);
  else if (o.k == APPLY_SCALAR) snprintf(buf, sizeof buf, "apply_scalar %s", gsp_test_binop_name(o.op));
  else snprintf(buf, sizeof buf, "select %s", se[o.sel]);
  return buf;
}

/* GraphBLAS C<M> = accum(C, op(A)) on matrices; y is the bound scalar or
 * thunk (int64_t k for the index tests). */
static void grb_run(GrB_Matrix C, GrB_Matrix M, GrB_BinaryOp acc, operation o, gsp_type t, GrB_Matrix A, const void *y,
                    GrB_Descriptor d) {
  if (o.k == APPLY) {
    GRB_OK(GrB_Matrix_apply(C, M, acc, grb_unop(o.f, t), A, d));
    return;
  }
  if (o.k == SELECT && o.sel <= GSP_OFFDIAG) {
    GRB_OK(GrB_Matrix_select_INT64(C, M, acc, grb_selop(o.sel, t), A, *(const int64_t *)y, d));
    return;
  }
#define RUN_(T, ct)                                                                                         \
  if (o.k == APPLY_SCALAR)                                                                                  \
    GRB_OK(GrB_Matrix_apply_BinaryOp2nd_##T(C, M, acc, gsp_test_grb_binop(o.op, t), A, *(const ct *)y, d)); \
  else GRB_OK(GrB_Matrix_select_##T(C, M, acc, grb_selop(o.sel, t), A, *(const ct *)y, d));
  switch (t) {
  case GSP_BOOL:
    RUN_(BOOL, bool) break;
  case GSP_INT32:
    RUN_(INT32, int32_t) break;
  case GSP_INT64:
    RUN_(INT64, int64_t) break;
  case GSP_FP32:
    RUN_(FP32, float) break;
  case GSP_FP64:
    RUN_(FP64, double) break;
  }
#undef RUN_
}

/* The scalar operand: a value of type t in [-3, 3], or an index offset. */
static void pick_scalar(void *y, operation o, gsp_type t, uint64_t seed) {
  if (o.k == SELECT && o.sel <= GSP_OFFDIAG) *(int64_t *)y = (int64_t)(seed % 7) - 3;
  else gsp_test_value_set(t, y, (int64_t)(seed % 7) - 3);
}

static void check_matrix(operation o, gsp_type t, shape sh, int cfgk, bool tr, uint64_t seed) {
  gsp_test_config cfg = gsp_test_config_get(cfgk);
  gsp_test_context("matrix %s %s %llux%llu %s%s seed %llu", op_name(o), gsp_test_type_name(t), (unsigned long long)sh.m,
                   (unsigned long long)sh.n, gsp_test_config_name(cfg), tr ? " A'" : "", (unsigned long long)seed);
  gsp_matrix A = tr ? gsp_test_random_matrix(t, sh.n, sh.m, sh.d, -3, 3, seed)
                    : gsp_test_random_matrix(t, sh.m, sh.n, sh.d, -3, 3, seed);
  gsp_matrix C = gsp_test_random_matrix(t, sh.m, sh.n, 0.3, -3, 3, seed + 1);
  gsp_matrix M = cfg.mask ? gsp_test_random_mask(sh.m, sh.n, 0.5, seed + 2) : NULL;
  gsp_binop accum = cfg.accum ? gsp_test_accum((int)seed) : GSP_NOOP;
  GrB_Matrix gA = gsp_test_to_grb_matrix(A), gC = gsp_test_to_grb_matrix(C);
  GrB_Matrix gM = M ? gsp_test_to_grb_matrix(M) : NULL;
  gsp_desc d = gsp_test_desc(cfg, tr, false);
  GrB_Descriptor gd = gsp_test_grb_desc(&d);
  double y[1];
  pick_scalar(y, o, t, seed);
  switch (o.k) {
  case APPLY:
    GSP_OK(gsp_matrix_apply(C, M, accum, o.f, A, &d));
    break;
  case APPLY_SCALAR:
    GSP_OK(gsp_matrix_apply_scalar(C, M, accum, o.op, A, y, &d));
    break;
  case SELECT:
    GSP_OK(gsp_matrix_select(C, M, accum, o.sel, A, y, &d));
    break;
  }
  if (sh.m > 0 && sh.n > 0) {
    grb_run(gC, gM, gsp_test_grb_binop(accum, t), o, t, gA, y, gd);
    gsp_test_assert_matrix_eq(C, gC, 0);
  } else {
    /* SuiteSparse 7.4 crashes on empty outputs with mask and accumulator */
    gsp_index nv;
    GSP_OK(gsp_matrix_nvals(&nv, C));
    cr_assert_eq(nv, 0, "%san empty matrix has entries", gsp_test_ctx);
  }
  GrB_free(&gA), GrB_free(&gC), GrB_free(&gd);
  if (gM) GrB_free(&gM);
  gsp_matrix_free(&A), gsp_matrix_free(&C), gsp_matrix_free(&M);
}

/* Vectors go to GraphBLAS as 1 x n matrices (see the top comment). */
static void check_vector(operation o, gsp_type t, gsp_index n, double dens, int cfgk, uint64_t seed) {
  gsp_test_config cfg = gsp_test_config_get(cfgk);
  gsp_test_context("vector %s %s n=%llu %s seed %llu", op_name(o), gsp_test_type_name(t), (unsigned long long)n,
                   gsp_test_config_name(cfg), (unsigned long long)seed);
  gsp_vector u = gsp_test_random_vector(t, n, dens, -3, 3, seed);
  gsp_vector w = gsp_test_random_vector(t, n, 0.3, -3, 3, seed + 1);
  gsp_vector M = cfg.mask ? gsp_test_random_vmask(n, 0.5, seed + 2) : NULL;
  gsp_binop accum = cfg.accum ? gsp_test_accum((int)seed) : GSP_NOOP;
  GrB_Matrix gu = gsp_test_vector_to_grb_row(u), gw = gsp_test_vector_to_grb_row(w);
  GrB_Matrix gM = M ? gsp_test_vector_to_grb_row(M) : NULL;
  gsp_desc d = gsp_test_desc(cfg, false, false);
  GrB_Descriptor gd = gsp_test_grb_desc(&d);
  double y[1];
  pick_scalar(y, o, t, seed);
  switch (o.k) {
  case APPLY:
    GSP_OK(gsp_vector_apply(w, M, accum, o.f, u, &d));
    break;
  case APPLY_SCALAR:
    GSP_OK(gsp_vector_apply_scalar(w, M, accum, o.op, u, y, &d));
    break;
  case SELECT:
    GSP_OK(gsp_vector_select(w, M, accum, o.sel, u, y, &d));
    break;
  }
  if (n > 0) {
    grb_run(gw, gM, gsp_test_grb_binop(accum, t), o, t, gu, y, gd);
    gsp_test_assert_vector_eq_row(w, gw, 0);
  } else {
    gsp_index nv; /* SuiteSparse 7.4 crashes on empty masked outputs */
    GSP_OK(gsp_vector_nvals(&nv, w));
    cr_assert_eq(nv, 0, "%san empty vector has entries", gsp_test_ctx);
  }
  GrB_free(&gu), GrB_free(&gw), GrB_free(&gd);
  if (gM) GrB_free(&gM);
  gsp_vector_free(&u), gsp_vector_free(&w), gsp_vector_free(&M);
}

/* Every type, shape and configuration for one operation; transposes and
 * vector sizes rotate with the seed. */
static void sweep(operation o, uint64_t seed) {
  GSP_OK(gsp_set_threads(1));
  for (int ti = 0; ti < GSP_TEST_NTYPES; ti++)
    for (size_t k = 0; k < NSHAPES; k++)
      for (int c = 0; c < GSP_TEST_NCONFIG; c++, seed++) {
        check_matrix(o, gsp_test_types[ti], shapes[k], c, seed & 1, seed);
        check_vector(o, gsp_test_types[ti], shapes[k].m * shapes[k].n, shapes[k].d, c, seed);
      }
}

Test(apply, unary) {
  for (int f = GSP_IDENTITY; f <= GSP_ONE; f++) sweep((operation){.k = APPLY, .f = f}, 1000 * f);
}

Test(apply, bound_scalar) {
  for (size_t o = 0; o < NBINOPS; o++) sweep((operation){.k = APPLY_SCALAR, .op = binops[o]}, 20000 + 1000 * o);
}

Test(select, index_tests) {
  for (int s = GSP_TRIL; s <= GSP_OFFDIAG; s++) sweep((operation){.k = SELECT, .sel = s}, 50000 + 1000 * s);
}

Test(select, value_tests) {
  for (int s = GSP_VALUE_EQ; s <= GSP_VALUE_GE; s++) sweep((operation){.k = SELECT, .sel = s}, 70000 + 1000 * s);
}

Test(apply_select, larger_threaded) {
  GSP_OK(gsp_set_threads(2));
  shape big = {600, 500, 0.3};
  check_matrix((operation){.k = APPLY, .f = GSP_AINV}, GSP_FP64, big, 0, false, 1);
  check_matrix((operation){.k = APPLY_SCALAR, .op = GSP_PLUS}, GSP_INT32, big, 4, true, 2);
  check_matrix((operation){.k = SELECT, .sel = GSP_TRIU}, GSP_INT64, big, 13, false, 3);
  check_matrix((operation){.k = SELECT, .sel = GSP_VALUE_GT}, GSP_FP32, big, 0, true, 4);
  check_vector((operation){.k = APPLY, .f = GSP_ABS}, GSP_INT32, 200000, 0.5, 7, 5);
  check_vector((operation){.k = SELECT, .sel = GSP_VALUE_LE}, GSP_FP64, 200000, 0.5, 2, 6);
}

/* ABS and AINV of INT_MIN wrap (two's complement) instead of trapping. */
Test(apply, int_min_wraps) {
  gsp_vector u = NULL, w = NULL;
  GSP_OK(gsp_vector_new(&u, GSP_INT32, 1));
  GSP_OK(gsp_vector_new(&w, GSP_INT32, 1));
  int32_t x = INT32_MIN, z = 0;
  GSP_OK(gsp_vector_set_element(u, 0, &x));
  GSP_OK(gsp_vector_apply(w, NULL, GSP_NOOP, GSP_ABS, u, NULL));
  GSP_OK(gsp_vector_extract_element(&z, w, 0));
  cr_assert_eq(z, INT32_MIN);
  GSP_OK(gsp_vector_apply(w, NULL, GSP_NOOP, GSP_AINV, u, NULL));
  GSP_OK(gsp_vector_extract_element(&z, w, 0));
  cr_assert_eq(z, INT32_MIN);
  gsp_vector_free(&u), gsp_vector_free(&w);
}
