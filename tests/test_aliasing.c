/*
 * Outputs that alias each other are refused: every public call with two or
 * more outputs returns GSP_INVALID_VALUE ("... alias each other") when two
 * of them are the same object or overlap, before it writes anything (the
 * outputs keep a sentinel value). A call that cannot honour an output
 * aliasing its in/out matrix (gsp_closure_ext's succ pointing at M's
 * handle) refuses it too. Distinct outputs still work.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gsp.h"

#define ALIAS(call)                                                                                  \
  do {                                                                                               \
    gsp_info r_ = (call);                                                                            \
    cr_expect_eq(r_, GSP_INVALID_VALUE, "%s -> %s (%s)", #call, gsp_strerror(r_), gsp_last_error()); \
    cr_expect(strstr(gsp_last_error(), "alias") != NULL, "%s: message %s", #call, gsp_last_error()); \
  } while (0)

#define SENTINEL ((void *)(uintptr_t)0x5a5a5a5a)

static gsp_matrix A; /* 4 x 4 FP64, weights >= 0, a path 0 -> 1 -> 2 -> 3 */

static void setup(void) {
  const gsp_index I[] = {0, 1, 2, 0}, J[] = {1, 2, 3, 3};
  const double X[] = {1, 2, 3, 9};
  cr_assert_eq(gsp_matrix_new(&A, GSP_FP64, 4, 4), GSP_SUCCESS);
  cr_assert_eq(gsp_matrix_build(A, I, J, X, 4, GSP_DUP_ERROR), GSP_SUCCESS);
}
static void teardown(void) {
  gsp_matrix_free(&A);
}

TestSuite(aliasing, .init = setup, .fini = teardown);

Test(aliasing, apsp) {
  gsp_matrix D = SENTINEL;
  ALIAS(gsp_apsp(&D, &D, A, NULL));
  cr_expect_eq(D, SENTINEL, "dist written on error");
  gsp_matrix P = NULL;
  D = NULL;
  cr_expect_eq(gsp_apsp(&D, &P, A, NULL), GSP_SUCCESS, "%s", gsp_last_error());
  cr_expect(D && P && D != P);
  gsp_matrix_free(&D), gsp_matrix_free(&P);
}

Test(aliasing, sssp_bellman_ford_nearest) {
  gsp_vector d = SENTINEL, s = SENTINEL;
  ALIAS(gsp_sssp(&d, &d, A, 0, NULL));
  ALIAS(gsp_bellman_ford(&d, &d, A, 0, NULL));
  const gsp_index src[] = {0, 2};
  ALIAS(gsp_nearest_source(&d, &d, NULL, A, src, 2, NULL));
  ALIAS(gsp_nearest_source(&d, NULL, &d, A, src, 2, NULL));
  ALIAS(gsp_nearest_source(&d, &s, &s, A, src, 2, NULL));
  cr_expect(d == SENTINEL && s == SENTINEL, "an output written on error");
  gsp_vector p = NULL;
  d = s = NULL;
  cr_expect_eq(gsp_nearest_source(&d, &s, &p, A, src, 2, NULL), GSP_SUCCESS, "%s", gsp_last_error());
  gsp_vector_free(&d), gsp_vector_free(&s), gsp_vector_free(&p);
}

Test(aliasing, msssp) {
  gsp_matrix D = SENTINEL;
  const gsp_index src[] = {0, 1};
  ALIAS(gsp_msssp(&D, &D, A, src, 2, NULL));
  cr_expect_eq(D, SENTINEL);
}

Test(aliasing, closure_ext_succ_on_m) {
  gsp_matrix M = NULL;
  cr_assert_eq(gsp_matrix_dup(&M, A), GSP_SUCCESS);
  gsp_matrix keep = M;
  ALIAS(gsp_closure_ext(M, &M, GSP_MIN_PLUS, NULL)); /* succ would overwrite M's handle */
  cr_expect_eq(M, keep);
  gsp_index nv = 0;
  gsp_matrix_nvals(&nv, M);
  cr_expect_eq(nv, 4, "M changed on error");
  gsp_matrix_free(&M);
}

Test(aliasing, negative_cycle_and_paths) {
  gsp_index buf[8] = {7, 7, 7, 7, 7, 7, 7, 7};
  gsp_index *len = &buf[0];
  buf[0] = 8;
  /* len inside the output array */
  ALIAS(gsp_negative_cycle(buf, len, A, NULL));
  gsp_matrix S = NULL, M = NULL;
  cr_assert_eq(gsp_matrix_dup(&M, A), GSP_SUCCESS);
  cr_assert_eq(gsp_closure_ext(M, &S, GSP_MIN_PLUS, NULL), GSP_SUCCESS, "%s", gsp_last_error());
  buf[2] = 6;
  ALIAS(gsp_path_from_succ(buf, &buf[2], S, 0, 3));
  cr_expect_eq(buf[0], 8, "path written on error");
  gsp_vector d = NULL, p = NULL;
  cr_assert_eq(gsp_sssp(&d, &p, A, 0, NULL), GSP_SUCCESS);
  buf[1] = 8;
  ALIAS(gsp_path_from_parent(buf, &buf[1], p, 3));
  gsp_matrix DD = NULL, PP = NULL;
  const gsp_index src[] = {0};
  cr_assert_eq(gsp_msssp(&DD, &PP, A, src, 1, NULL), GSP_SUCCESS);
  buf[3] = 5;
  ALIAS(gsp_path_from_parent_row(buf, &buf[3], PP, 0, 3));
  cr_expect_eq(buf[0], 8, "path written on error");
  /* len just past the path's room: fine */
  gsp_index path[4], n = 4;
  cr_expect_eq(gsp_path_from_parent(path, &n, p, 3), GSP_SUCCESS);
  cr_expect_eq(n, 4);
  gsp_matrix_free(&S), gsp_matrix_free(&M), gsp_matrix_free(&DD), gsp_matrix_free(&PP);
  gsp_vector_free(&d), gsp_vector_free(&p);
}

Test(aliasing, extract_tuples) {
  gsp_index I[8], J[8], n = 8;
  double X[8];
  ALIAS(gsp_matrix_extract_tuples(I, I, X, &n, A));
  ALIAS(gsp_matrix_extract_tuples(I, J, I, &n, A));
  ALIAS(gsp_matrix_extract_tuples(I, J + 1, J, &n, A)); /* X overlaps J */
  I[2] = 8;
  ALIAS(gsp_matrix_extract_tuples(I, J, X, &I[2], A)); /* n inside I */
  cr_expect_eq(n, 8, "n written on error");
  /* small adjacent buffers are too small, not aliased: the caller learns
   * the size it needs (the extents are capacities, not entry counts) */
  gsp_index buf[4], small = 2;
  cr_expect_eq(gsp_matrix_extract_tuples(buf, NULL, buf + 2, &small, A), GSP_INSUFFICIENT_SPACE);
  cr_expect_eq(small, 4, "the size needed is reported");
  cr_expect_eq(gsp_matrix_extract_tuples(I, J, X, &n, A), GSP_SUCCESS);
  cr_expect_eq(n, 4);
  gsp_vector v = NULL;
  cr_assert_eq(gsp_vector_new(&v, GSP_FP64, 4), GSP_SUCCESS);
  const double one = 1;
  gsp_vector_set_element(v, 1, &one);
  gsp_vector_set_element(v, 2, &one);
  n = 8;
  ALIAS(gsp_vector_extract_tuples(I, I, &n, v));
  I[1] = 8;
  ALIAS(gsp_vector_extract_tuples(I, X, &I[1], v));
  small = 1;
  cr_expect_eq(gsp_vector_extract_tuples(buf, buf + 1, &small, v), GSP_INSUFFICIENT_SPACE);
  cr_expect_eq(small, 2, "the size needed is reported");
  cr_expect_eq(gsp_vector_extract_tuples(I, X, &n, v), GSP_SUCCESS);
  gsp_vector_free(&v);
}

Test(aliasing, export_and_unpack_csr) {
  gsp_index rp[8], ci[8];
  double x[8];
  ALIAS(gsp_matrix_export_csr(rp, rp, x, A));
  ALIAS(gsp_matrix_export_csr(rp, ci, rp + 2, A)); /* values overlap the row pointers */
  gsp_matrix M = NULL;
  cr_assert_eq(gsp_matrix_dup(&M, A), GSP_SUCCESS);
  gsp_index *p = SENTINEL, *j = SENTINEL, nv = 0;
  void *vx = SENTINEL;
  ALIAS(gsp_matrix_unpack_csr(&p, &p, &vx, &nv, &M));
  ALIAS(gsp_matrix_unpack_csr(&p, &j, (void **)&j, &nv, &M));
  ALIAS(gsp_matrix_unpack_csr(&p, &j, &vx, &nv, (gsp_matrix *)&vx));
  cr_expect(p == SENTINEL && j == SENTINEL && vx == SENTINEL && M != NULL, "written on error");
  cr_expect_eq(gsp_matrix_unpack_csr(&p, &j, &vx, &nv, &M), GSP_SUCCESS, "%s", gsp_last_error());
  cr_expect(M == NULL && nv == 4);
  free(p), free(j), free(vx);
  cr_assert_eq(gsp_matrix_dup(&M, A), GSP_SUCCESS);
  void *dx = SENTINEL;
  const double absent = -1;
  ALIAS(gsp_matrix_unpack_dense(&dx, &absent, (gsp_matrix *)&dx));
  cr_expect(dx == SENTINEL && M != NULL);
  gsp_matrix_free(&M);
}

Test(aliasing, read_ids_and_dimacs_files) {
  char dir[] = "/tmp/gsp_alias_XXXXXX";
  cr_assert(mkdtemp(dir));
  char g[64], ss[64], p2p[64];
  snprintf(g, sizeof g, "%s/g.txt", dir);
  snprintf(ss, sizeof ss, "%s/g.ss", dir);
  snprintf(p2p, sizeof p2p, "%s/g.p2p", dir);
  FILE *f = fopen(g, "w");
  fputs("0 1\n1 2\n", f), fclose(f);
  f = fopen(ss, "w");
  fputs("p aux sp ss 2\ns 1\ns 2\n", f), fclose(f);
  f = fopen(p2p, "w");
  fputs("p aux sp p2p 1\nq 1 2\n", f), fclose(f);
  gsp_matrix M = SENTINEL;
  int64_t *ids = SENTINEL;
  gsp_index k = 99, *s = SENTINEL, *t = SENTINEL;
  ALIAS(gsp_matrix_read_ids(&M, (int64_t **)&M, &k, g, NULL));
  ALIAS(gsp_dimacs_read_sources(&s, (gsp_index *)&s, 0, ss));
  ALIAS(gsp_dimacs_read_pairs(&s, &s, &k, 0, p2p));
  ALIAS(gsp_dimacs_read_pairs(&s, &t, (gsp_index *)&t, 0, p2p));
  cr_expect(M == SENTINEL && ids == SENTINEL && s == SENTINEL && t == SENTINEL && k == 99, "written on error");
  if (gsp_dimacs_read_pairs(&s, &t, &k, 5, p2p) == GSP_SUCCESS) {
    cr_expect_eq(k, 1);
    free(s), free(t);
  } else {
    cr_expect(false, "distinct outputs: %s", gsp_last_error());
  }
  unlink(g), unlink(ss), unlink(p2p), rmdir(dir);
}

Test(aliasing, cuda_available_text_over_flag) {
  char desc[64];
  ALIAS(gsp_cuda_available((bool *)desc, desc, sizeof desc));
}

/* An output that is also an input (C = A = mask, w = u = mask) is honoured,
 * as in GraphBLAS: the inputs are read before the output is written. Dense
 * inputs too, whose CSR copy the write-back of the output releases. */
static gsp_matrix dense_copy(gsp_matrix M) {
  double x[16], absent = -1;
  gsp_matrix D = NULL;
  cr_assert_eq(gsp_matrix_export_dense(x, &absent, M), GSP_SUCCESS);
  cr_assert_eq(gsp_matrix_import_dense(&D, GSP_FP64, 4, 4, x, &absent), GSP_SUCCESS);
  return D;
}

static void expect_same(gsp_matrix a, gsp_matrix b, const char *what) {
  double x[16], y[16], absent = -1;
  cr_assert_eq(gsp_matrix_export_dense(x, &absent, a), GSP_SUCCESS);
  cr_assert_eq(gsp_matrix_export_dense(y, &absent, b), GSP_SUCCESS);
  cr_expect(memcmp(x, y, sizeof x) == 0, "%s differs from the unaliased call", what);
}

Test(aliasing, output_may_be_an_input) {
  for (int dense = 0; dense < 2; dense++) {
    gsp_matrix C = dense ? dense_copy(A) : NULL, R = NULL, B = NULL;
    if (!dense) cr_assert_eq(gsp_matrix_dup(&C, A), GSP_SUCCESS);
    cr_assert_eq(gsp_matrix_dup(&R, A), GSP_SUCCESS);
    cr_assert_eq(gsp_matrix_dup(&B, A), GSP_SUCCESS);
    cr_assert_eq(gsp_mxm(R, B, GSP_PLUS, GSP_MIN_PLUS, B, B, NULL), GSP_SUCCESS);
    cr_assert_eq(gsp_mxm(C, C, GSP_PLUS, GSP_MIN_PLUS, C, C, NULL), GSP_SUCCESS, "%s", gsp_last_error());
    expect_same(C, R, dense ? "mxm C = mask = A = B (dense)" : "mxm C = mask = A = B");
    gsp_matrix_free(&C), gsp_matrix_free(&R);
    C = dense ? dense_copy(A) : NULL;
    if (!dense) cr_assert_eq(gsp_matrix_dup(&C, A), GSP_SUCCESS);
    cr_assert_eq(gsp_matrix_new(&R, GSP_FP64, 4, 4), GSP_SUCCESS);
    cr_assert_eq(gsp_matrix_ewise_add(R, NULL, GSP_NOOP, GSP_PLUS, B, B, NULL), GSP_SUCCESS);
    cr_assert_eq(gsp_matrix_ewise_add(C, NULL, GSP_NOOP, GSP_PLUS, C, C, NULL), GSP_SUCCESS);
    expect_same(C, R, "ewise_add C = A = B");
    gsp_matrix_free(&C), gsp_matrix_free(&R), gsp_matrix_free(&B);
  }
  gsp_vector u = NULL, r = NULL;
  const double one = 1;
  cr_assert_eq(gsp_vector_new(&u, GSP_FP64, 4), GSP_SUCCESS);
  cr_assert_eq(gsp_vector_set_element(u, 0, &one), GSP_SUCCESS);
  cr_assert_eq(gsp_vector_set_element(u, 2, &one), GSP_SUCCESS);
  cr_assert_eq(gsp_vector_dup(&r, u), GSP_SUCCESS);
  gsp_vector v = NULL;
  cr_assert_eq(gsp_vector_dup(&v, u), GSP_SUCCESS);
  cr_assert_eq(gsp_mxv(r, v, GSP_MIN, GSP_MIN_PLUS, A, v, NULL), GSP_SUCCESS);
  cr_assert_eq(gsp_mxv(u, u, GSP_MIN, GSP_MIN_PLUS, A, u, NULL), GSP_SUCCESS);
  double x[4], y[4], absent = -1;
  gsp_vector_export_dense(x, &absent, u), gsp_vector_export_dense(y, &absent, r);
  cr_expect(memcmp(x, y, sizeof x) == 0, "mxv w = u = mask differs from the unaliased call");
  gsp_vector_free(&u), gsp_vector_free(&r), gsp_vector_free(&v);
}
