/*
 * gsp_mxv and gsp_vxm against GrB_mxv / GrB_vxm: every (semiring, type)
 * pair, several shapes and densities (empty, 1x1, rectangular, dense,
 * sparse, sparse frontier), every mask/complement/replace/accumulator
 * configuration, with and without the transposed matrix. This covers both
 * kernels: pull (mxv, vxm with A') and push (mxv with A', vxm).
 */
#include <criterion/criterion.h>

#include "gsp_test.h"

typedef struct {
  gsp_index m, n; /* A is m x n */
  double da, du;
} shape;

static const shape shapes[] = {
    {0, 0, 0.5, 0.5},   /* empty */
    {1, 1, 1.0, 1.0},   /* 1x1 */
    {6, 0, 0.5, 0.5},   /* no columns */
    {7, 13, 0.3, 0.5},  /* rectangular */
    {12, 12, 1.0, 1.0}, /* dense */
    {50, 40, 0.05, 0.1} /* sparse matrix, sparse frontier */
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

/* vxm: w = u A (or u A'); mxv: w = A u (or A' u). */
static void check_mv(bool vxm, gsp_semiring s, gsp_type t, shape sh, int cfgk, bool tr, uint64_t seed) {
  gsp_test_config cfg = gsp_test_config_get(cfgk);
  gsp_test_context("%s %s %s A %llux%llu %s%s seed %llu", vxm ? "vxm" : "mxv", gsp_test_semiring_name(s),
                   gsp_test_type_name(t), (unsigned long long)sh.m, (unsigned long long)sh.n, gsp_test_config_name(cfg),
                   tr ? " A'" : "", (unsigned long long)seed);
  int64_t lo, hi;
  gsp_test_range(s, &lo, &hi);
  /* u must match the rows of A for vxm, the columns for mxv (swapped by tr) */
  gsp_index nu = (vxm != tr) ? sh.m : sh.n, nw = (vxm != tr) ? sh.n : sh.m;
  gsp_matrix A = gsp_test_random_matrix(t, sh.m, sh.n, sh.da, lo, hi, seed);
  gsp_vector u = gsp_test_random_vector(t, nu, sh.du, lo, hi, seed + 1);
  gsp_vector w = gsp_test_random_vector(t, nw, 0.4, lo, hi, seed + 2);
  gsp_vector M = cfg.mask ? gsp_test_random_vmask(nw, 0.5, seed + 3) : NULL;
  gsp_binop accum = cfg.accum ? gsp_test_accum((int)seed) : GSP_NOOP;
  GrB_Matrix gA = gsp_test_to_grb_matrix(A);
  GrB_Vector gu = gsp_test_to_grb_vector(u), gw = gsp_test_to_grb_vector(w);
  GrB_Vector gM = M ? gsp_test_to_grb_vector(M) : NULL;
  gsp_desc d = gsp_test_desc(cfg, !vxm && tr, vxm && tr);
  GrB_Descriptor gd = gsp_test_grb_desc(&d);

  if (vxm) GSP_OK(gsp_vxm(w, M, accum, s, u, A, &d));
  else GSP_OK(gsp_mxv(w, M, accum, s, A, u, &d));
  if (nw > 0) {
    GrB_BinaryOp gacc = gsp_test_grb_binop(accum, t);
    GrB_Semiring gs = gsp_test_grb_semiring(s, t);
    if (vxm) GRB_OK(GrB_vxm(gw, gM, gacc, gs, gu, gA, gd));
    else GRB_OK(GrB_mxv(gw, gM, gacc, gs, gA, gu, gd));
    gsp_test_assert_vector_eq(w, gw, gsp_test_tol(s, t));
  } else {
    /* SuiteSparse 7.4 crashes on empty outputs with mask and accumulator */
    gsp_index nv;
    GSP_OK(gsp_vector_nvals(&nv, w));
    cr_assert_eq(nv, 0, "%san empty vector has entries", gsp_test_ctx);
  }

  GrB_free(&gA), GrB_free(&gu), GrB_free(&gw), GrB_free(&gd);
  if (gM) GrB_free(&gM);
  gsp_matrix_free(&A), gsp_vector_free(&u), gsp_vector_free(&w), gsp_vector_free(&M);
}

static void sweep(bool vxm, gsp_semiring s) {
  GSP_OK(gsp_set_threads(1)); /* small inputs: threads only add wake-ups */
  uint64_t seed = 5000 * (uint64_t)s + 100000 * vxm;
  for (int ti = 0; ti < GSP_TEST_NTYPES; ti++) {
    gsp_type t = gsp_test_types[ti];
    if (!gsp_test_fits(s, t)) continue;
    for (size_t k = 0; k < NSHAPES; k++)
      for (int c = 0; c < GSP_TEST_NCONFIG; c++)
        for (int tr = 0; tr < 2; tr++) check_mv(vxm, s, t, shapes[k], c, tr, seed++);
  }
}

Test(mxv, min_plus) {
  sweep(false, GSP_MIN_PLUS);
}
Test(mxv, max_plus) {
  sweep(false, GSP_MAX_PLUS);
}
Test(mxv, max_min) {
  sweep(false, GSP_MAX_MIN);
}
Test(mxv, min_max) {
  sweep(false, GSP_MIN_MAX);
}
Test(mxv, or_and) {
  sweep(false, GSP_OR_AND);
}
Test(mxv, plus_times) {
  sweep(false, GSP_PLUS_TIMES);
}
Test(vxm, min_plus) {
  sweep(true, GSP_MIN_PLUS);
}
Test(vxm, max_plus) {
  sweep(true, GSP_MAX_PLUS);
}
Test(vxm, max_min) {
  sweep(true, GSP_MAX_MIN);
}
Test(vxm, min_max) {
  sweep(true, GSP_MIN_MAX);
}
Test(vxm, or_and) {
  sweep(true, GSP_OR_AND);
}
Test(vxm, plus_times) {
  sweep(true, GSP_PLUS_TIMES);
}

/* Larger inputs with two threads: parallel pull, and push on per-thread
 * accumulators (dense u) as well as the single-accumulator sparse push. */
Test(mxv_vxm, larger_threaded) {
  GSP_OK(gsp_set_threads(2));
  const shape big[] = {{400, 300, 0.6, 1.0}, {3000, 2000, 0.01, 0.002}};
  uint64_t seed = 9;
  /* one type per semiring (rotating): the small sweeps cover every pair */
  for (int si = 0; si < GSP_TEST_NSEMIRINGS; si++) {
    gsp_semiring s = gsp_test_semirings[si];
    gsp_type t = s == GSP_OR_AND ? GSP_BOOL : gsp_test_types[1 + si % 4];
    for (int b = 0; b < 2; b++)
      for (int v = 0; v < 2; v++)
        for (int tr = 0; tr < 2; tr++) check_mv(v, s, t, big[b], 0, tr, seed++);
  }
  check_mv(true, GSP_MIN_PLUS, GSP_FP64, big[0], 13, false, seed++);
}

/* A frontier step of SSSP: w<!visited> = u min.+ A, where a relaxed
 * distance equal to +inf is still an entry (structure, not value). */
Test(mxv_vxm, frontier_keeps_infinite_terms) {
  gsp_matrix A = NULL;
  gsp_vector u = NULL, w = NULL;
  GSP_OK(gsp_matrix_new(&A, GSP_FP32, 3, 3));
  GSP_OK(gsp_vector_new(&u, GSP_FP32, 3));
  GSP_OK(gsp_vector_new(&w, GSP_FP32, 3));
  float inf = INFINITY, one = 1;
  GSP_OK(gsp_matrix_set_element(A, 0, 1, &inf));
  GSP_OK(gsp_matrix_set_element(A, 0, 2, &one));
  GSP_OK(gsp_vector_set_element(u, 0, &one));
  GSP_OK(gsp_vxm(w, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, NULL));
  gsp_index nv;
  float x = 0;
  GSP_OK(gsp_vector_nvals(&nv, w));
  cr_assert_eq(nv, 2);
  GSP_OK(gsp_vector_extract_element(&x, w, 1));
  cr_assert(isinf(x));
  GSP_OK(gsp_vector_extract_element(&x, w, 2));
  cr_assert_eq(x, 2.0f);
  cr_assert_eq(gsp_vector_extract_element(&x, w, 0), GSP_NO_VALUE);
  gsp_matrix_free(&A), gsp_vector_free(&u), gsp_vector_free(&w);
}

/* The output vector may also be the input: u = u A. */
Test(mxv_vxm, aliased_output) {
  gsp_matrix A = gsp_test_random_matrix(GSP_INT32, 30, 30, 0.2, -5, 5, 3);
  gsp_vector u = gsp_test_random_vector(GSP_INT32, 30, 0.3, -5, 5, 4);
  GrB_Matrix gA = gsp_test_to_grb_matrix(A);
  GrB_Vector gu = gsp_test_to_grb_vector(u);
  GSP_OK(gsp_vxm(u, u, GSP_MIN, GSP_MIN_PLUS, u, A, NULL));
  GRB_OK(GrB_vxm(gu, gu, GrB_MIN_INT32, GrB_MIN_PLUS_SEMIRING_INT32, gu, gA, NULL));
  gsp_test_context("aliased vxm");
  gsp_test_assert_vector_eq(u, gu, 0);
  GrB_free(&gA), GrB_free(&gu);
  gsp_matrix_free(&A), gsp_vector_free(&u);
}
