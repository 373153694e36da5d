/*
 * Element-wise add (union) and mult (intersection), matrices and vectors,
 * against GrB_eWiseAdd / GrB_eWiseMult: every type x every binary operator,
 * several shapes, every mask/complement/replace/accumulator configuration,
 * transposed inputs (rotating). Values are small integers: exact.
 */
#include <criterion/criterion.h>

#include "gsp_test.h"

static const gsp_binop ops[] = {GSP_MIN,  GSP_MAX,   GSP_PLUS,   GSP_TIMES, GSP_LOR,
                                GSP_LAND, GSP_FIRST, GSP_SECOND, GSP_MINUS};
#define NOPS (sizeof ops / sizeof ops[0])

typedef struct {
  gsp_index m, n;
  double da, db;
} shape;

static const shape shapes[] = {{0, 0, 0.5, 0.5},   {3, 0, 0.5, 0.5},    {1, 1, 1.0, 1.0}, {7, 11, 0.3, 0.4},
                               {10, 10, 1.0, 1.0}, {30, 25, 0.05, 0.1}, {4, 9, 0.0, 0.5}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static void check_matrix(bool add, gsp_type t, gsp_binop op, shape sh, int cfgk, int tr, uint64_t seed) {
  gsp_test_config cfg = gsp_test_config_get(cfgk);
  bool ta = tr & 1, tb = tr & 2;
  gsp_test_context("matrix_ewise_%s %s %s %llux%llu %s%s%s seed %llu", add ? "add" : "mult", gsp_test_type_name(t),
                   gsp_test_binop_name(op), (unsigned long long)sh.m, (unsigned long long)sh.n,
                   gsp_test_config_name(cfg), ta ? " A'" : "", tb ? " B'" : "", (unsigned long long)seed);
  gsp_matrix A = ta ? gsp_test_random_matrix(t, sh.n, sh.m, sh.da, -9, 9, seed)
                    : gsp_test_random_matrix(t, sh.m, sh.n, sh.da, -9, 9, seed);
  gsp_matrix B = tb ? gsp_test_random_matrix(t, sh.n, sh.m, sh.db, -9, 9, seed + 1)
                    : gsp_test_random_matrix(t, sh.m, sh.n, sh.db, -9, 9, seed + 1);
  gsp_matrix C = gsp_test_random_matrix(t, sh.m, sh.n, 0.3, -9, 9, seed + 2);
  gsp_matrix M = cfg.mask ? gsp_test_random_mask(sh.m, sh.n, 0.5, seed + 3) : NULL;
  gsp_binop accum = cfg.accum ? gsp_test_accum((int)seed) : GSP_NOOP;
  GrB_Matrix gA = gsp_test_to_grb_matrix(A), gB = gsp_test_to_grb_matrix(B);
  GrB_Matrix gC = gsp_test_to_grb_matrix(C), gM = M ? gsp_test_to_grb_matrix(M) : NULL;
  gsp_desc d = gsp_test_desc(cfg, ta, tb);
  GrB_Descriptor gd = gsp_test_grb_desc(&d);
  GrB_BinaryOp gacc = gsp_test_grb_binop(accum, t), gop = gsp_test_grb_binop(op, t);
  if (add) GSP_OK(gsp_matrix_ewise_add(C, M, accum, op, A, B, &d));
  else GSP_OK(gsp_matrix_ewise_mult(C, M, accum, op, A, B, &d));
  if (sh.m > 0 && sh.n > 0) {
    if (add) GRB_OK(GrB_Matrix_eWiseAdd_BinaryOp(gC, gM, gacc, gop, gA, gB, gd));
    else GRB_OK(GrB_Matrix_eWiseMult_BinaryOp(gC, gM, gacc, gop, gA, gB, gd));
    gsp_test_assert_matrix_eq(C, gC, 0);
  } else {
    /* SuiteSparse 7.4 crashes on empty outputs with mask and accumulator */
    gsp_index nv;
    GSP_OK(gsp_matrix_nvals(&nv, C));
    cr_assert_eq(nv, 0, "%san empty matrix has entries", gsp_test_ctx);
  }
  GrB_free(&gA), GrB_free(&gB), GrB_free(&gC), GrB_free(&gd);
  if (gM) GrB_free(&gM);
  gsp_matrix_free(&A), gsp_matrix_free(&B), gsp_matrix_free(&C), gsp_matrix_free(&M);
}

static void check_vector(bool add, gsp_type t, gsp_binop op, gsp_index n, double du, double dv, int cfgk,
                         uint64_t seed) {
  gsp_test_config cfg = gsp_test_config_get(cfgk);
  gsp_test_context("vector_ewise_%s %s %s n=%llu %s seed %llu", add ? "add" : "mult", gsp_test_type_name(t),
                   gsp_test_binop_name(op), (unsigned long long)n, gsp_test_config_name(cfg), (unsigned long long)seed);
  gsp_vector u = gsp_test_random_vector(t, n, du, -9, 9, seed);
  gsp_vector v = gsp_test_random_vector(t, n, dv, -9, 9, seed + 1);
  gsp_vector w = gsp_test_random_vector(t, n, 0.4, -9, 9, seed + 2);
  gsp_vector M = cfg.mask ? gsp_test_random_vmask(n, 0.5, seed + 3) : NULL;
  gsp_binop accum = cfg.accum ? gsp_test_accum((int)seed) : GSP_NOOP;
  GrB_Vector gu = gsp_test_to_grb_vector(u), gv = gsp_test_to_grb_vector(v);
  GrB_Vector gw = gsp_test_to_grb_vector(w), gM = M ? gsp_test_to_grb_vector(M) : NULL;
  gsp_desc d = gsp_test_desc(cfg, false, false);
  GrB_Descriptor gd = gsp_test_grb_desc(&d);
  GrB_BinaryOp gacc = gsp_test_grb_binop(accum, t), gop = gsp_test_grb_binop(op, t);
  if (add) GSP_OK(gsp_vector_ewise_add(w, M, accum, op, u, v, &d));
  else GSP_OK(gsp_vector_ewise_mult(w, M, accum, op, u, v, &d));
  if (n > 0) {
    if (add) GRB_OK(GrB_Vector_eWiseAdd_BinaryOp(gw, gM, gacc, gop, gu, gv, gd));
    else GRB_OK(GrB_Vector_eWiseMult_BinaryOp(gw, gM, gacc, gop, gu, gv, gd));
    gsp_test_assert_vector_eq(w, gw, 0);
  } else {
    gsp_index nv; /* SuiteSparse 7.4 crashes on empty masked outputs */
    GSP_OK(gsp_vector_nvals(&nv, w));
    cr_assert_eq(nv, 0, "%san empty vector has entries", gsp_test_ctx);
  }
  GrB_free(&gu), GrB_free(&gv), GrB_free(&gw), GrB_free(&gd);
  if (gM) GrB_free(&gM);
  gsp_vector_free(&u), gsp_vector_free(&v), gsp_vector_free(&w), gsp_vector_free(&M);
}

static void sweep_matrix(bool add) {
  GSP_OK(gsp_set_threads(1));
  uint64_t seed = add ? 1 : 900000;
  for (int ti = 0; ti < GSP_TEST_NTYPES; ti++)
    for (size_t o = 0; o < NOPS; o++)
      for (size_t k = 0; k < NSHAPES; k++)
        for (int c = 0; c < GSP_TEST_NCONFIG; c++, seed++)
          check_matrix(add, gsp_test_types[ti], ops[o], shapes[k], c, (int)(seed % 4), seed);
}

static void sweep_vector(bool add) {
  GSP_OK(gsp_set_threads(1));
  const gsp_index sizes[] = {1, 17, 60, 0};
  const double dens[][2] = {{1.0, 1.0}, {0.4, 0.5}, {0.05, 0.3}, {0.5, 0.5}};
  uint64_t seed = add ? 333 : 777777;
  for (int ti = 0; ti < GSP_TEST_NTYPES; ti++)
    for (size_t o = 0; o < NOPS; o++)
      for (int k = 0; k < 4; k++)
        for (int c = 0; c < GSP_TEST_NCONFIG; c++, seed++)
          check_vector(add, gsp_test_types[ti], ops[o], sizes[k], dens[k][0], dens[k][1], c, seed);
}

Test(ewise, matrix_add) {
  sweep_matrix(true);
}
Test(ewise, matrix_mult) {
  sweep_matrix(false);
}
Test(ewise, vector_add) {
  sweep_vector(true);
}
Test(ewise, vector_mult) {
  sweep_vector(false);
}

Test(ewise, larger_threaded) {
  GSP_OK(gsp_set_threads(2));
  shape big = {500, 400, 0.2, 0.3};
  check_matrix(true, GSP_FP64, GSP_PLUS, big, 0, 0, 1);
  check_matrix(false, GSP_INT32, GSP_TIMES, big, 4, 1, 2);
  check_matrix(true, GSP_BOOL, GSP_LOR, big, 13, 2, 3);
  check_vector(true, GSP_INT64, GSP_MIN, 100000, 0.5, 0.5, 7, 4);
  check_vector(false, GSP_FP32, GSP_MAX, 100000, 0.5, 0.5, 2, 5);
}

/* One-sided entries of ewise_add are copied, also for MINUS (GraphBLAS):
 * A - B where only B has an entry gives B's value, not its negation. */
Test(ewise, add_minus_copies_one_sided) {
  gsp_vector u = NULL, v = NULL, w = NULL;
  GSP_OK(gsp_vector_new(&u, GSP_INT32, 2));
  GSP_OK(gsp_vector_new(&v, GSP_INT32, 2));
  GSP_OK(gsp_vector_new(&w, GSP_INT32, 2));
  int32_t a = 5, b = 3, x = 0;
  GSP_OK(gsp_vector_set_element(u, 0, &a));
  GSP_OK(gsp_vector_set_element(v, 0, &b));
  GSP_OK(gsp_vector_set_element(v, 1, &b));
  GSP_OK(gsp_vector_ewise_add(w, NULL, GSP_NOOP, GSP_MINUS, u, v, NULL));
  GSP_OK(gsp_vector_extract_element(&x, w, 0));
  cr_assert_eq(x, 2);
  GSP_OK(gsp_vector_extract_element(&x, w, 1));
  cr_assert_eq(x, 3);
  gsp_vector_free(&u), gsp_vector_free(&v), gsp_vector_free(&w);
}
