/*
 * Every public function, called with a NULL where a pointer or handle is
 * required and with a freed handle, returns the specific code with a
 * message and leaves its outputs untouched; so do bad options of the
 * shortest-path and closure entry points.
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsp.h"

/* The library never clears its message on success, so an earlier message
 * must not pass for this call's: a marker message is set first (by a
 * failing call of another function) and the call must replace it. */
static char marker[512];
static void set_marker(void) {
  gsp_set_threads(-12345);
  snprintf(marker, sizeof marker, "%s", gsp_last_error());
}

#define EXPECT(code, call)                                                                              \
  do {                                                                                                  \
    set_marker();                                                                                       \
    gsp_info r_ = (call);                                                                               \
    cr_expect_eq(r_, (code), "%s -> %s, expected %s (%s)", #call, gsp_strerror(r_), gsp_strerror(code), \
                 gsp_last_error());                                                                     \
    cr_expect(strcmp(gsp_last_error(), marker) != 0, "%s: no message of its own", #call);               \
  } while (0)

static gsp_matrix A, SA; /* live and freed */
static gsp_vector v, SV;

static void setup(void) {
  const gsp_index I[] = {0, 1}, J[] = {1, 2};
  const double X[] = {1, 2};
  cr_assert_eq(gsp_matrix_new(&A, GSP_FP64, 3, 3), GSP_SUCCESS);
  cr_assert_eq(gsp_matrix_build(A, I, J, X, 2, GSP_DUP_ERROR), GSP_SUCCESS);
  cr_assert_eq(gsp_vector_new(&v, GSP_FP64, 3), GSP_SUCCESS);
  cr_assert_eq(gsp_matrix_new(&SA, GSP_FP64, 3, 3), GSP_SUCCESS);
  cr_assert_eq(gsp_vector_new(&SV, GSP_FP64, 3), GSP_SUCCESS);
  gsp_matrix fa = SA;
  gsp_vector fv = SV;
  gsp_matrix_free(&fa);
  gsp_vector_free(&fv); /* SA and SV are now stale copies of freed handles */
}

TestSuite(api_guards, .init = setup);

Test(api_guards, settings) {
  EXPECT(GSP_NULL_POINTER, gsp_get_backend(NULL));
  EXPECT(GSP_INVALID_VALUE, gsp_set_backend((gsp_backend)42));
  EXPECT(GSP_NULL_POINTER, gsp_get_threads(NULL));
  EXPECT(GSP_INVALID_VALUE, gsp_set_threads(-1));
  EXPECT(GSP_NULL_POINTER, gsp_cuda_available(NULL, NULL, 0));
  EXPECT(GSP_NULL_POINTER, gsp_cuda_device_count(NULL));
}

Test(api_guards, matrix_objects) {
  gsp_matrix out = (gsp_matrix)&out; /* sentinel: must survive every error */
  gsp_index n = 77, cap = 0, I[4], J[4], rp[4] = {0, 0, 0, 0};
  gsp_type t;
  double x = 5, d[9];
  EXPECT(GSP_NULL_POINTER, gsp_matrix_new(NULL, GSP_FP64, 1, 1));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_free(&SA));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_dup(NULL, A));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_dup(&out, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_dup(&out, SA));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_cast(&out, SA, GSP_FP32));
  EXPECT(GSP_INVALID_VALUE, gsp_matrix_cast(&out, A, (gsp_type)9));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_pattern(&out, SA));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_transpose(NULL, A));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_transpose(&out, SA));
  cr_expect_eq(out, (gsp_matrix)&out, "an output handle was written on error");
  EXPECT(GSP_NULL_POINTER, gsp_matrix_nrows(NULL, A));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_nrows(&n, SA));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_ncols(&n, SA));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_nvals(&n, SA));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_type(&t, SA));
  cr_expect_eq(n, 77);
  EXPECT(GSP_NULL_POINTER, gsp_matrix_clear(NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_clear(SA));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_build(SA, I, J, &x, 0, GSP_DUP_FIRST));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_build(NULL, I, J, &x, 0, GSP_DUP_FIRST));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_set_element(A, 0, 0, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_set_element(SA, 0, 0, &x));
  EXPECT(GSP_INVALID_INDEX, gsp_matrix_remove_element(A, 3, 0));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_remove_element(SA, 0, 0));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_extract_element(NULL, A, 0, 1));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_extract_element(&x, SA, 0, 1));
  cr_expect_eq(x, 5);
  EXPECT(GSP_NULL_POINTER, gsp_matrix_extract_tuples(I, J, d, NULL, A));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_extract_tuples(I, J, d, &cap, SA));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_import_csr(NULL, GSP_FP64, 3, 3, rp, J, d));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_import_csr(&out, GSP_FP64, 3, 3, NULL, J, d));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_pack_csr(&out, GSP_FP64, 3, 3, NULL, NULL, NULL));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_export_csr(NULL, J, d, A));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_export_csr(rp, J, d, SA));
  gsp_index *p = NULL, *j = NULL;
  void *xv = NULL;
  EXPECT(GSP_NULL_POINTER, gsp_matrix_unpack_csr(&p, &j, &xv, &n, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_unpack_csr(&p, &j, &xv, &n, &SA));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_import_dense(&out, GSP_FP64, 3, 3, NULL, NULL));
  EXPECT(GSP_TOO_LARGE, gsp_matrix_import_dense(&out, GSP_FP64, GSP_INDEX_MAX + 1, 3, d, NULL));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_pack_dense(&out, GSP_FP64, 3, 3, NULL, NULL));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_export_dense(NULL, &x, A));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_export_dense(d, &x, SA));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_unpack_dense(&xv, &x, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_unpack_dense(&xv, &x, &SA));
  cr_expect(p == NULL && j == NULL && xv == NULL, "unpack outputs written on error");
  cr_expect_eq(out, (gsp_matrix)&out, "an output handle was written on error");
}

Test(api_guards, vector_objects) {
  gsp_vector out = (gsp_vector)&out;
  gsp_index n = 77, I[3];
  gsp_type t;
  double x = 5, d[3];
  EXPECT(GSP_NULL_POINTER, gsp_vector_new(NULL, GSP_FP64, 3));
  EXPECT(GSP_INVALID_OBJECT, gsp_vector_free(&SV));
  EXPECT(GSP_INVALID_OBJECT, gsp_vector_dup(&out, SV));
  EXPECT(GSP_NULL_POINTER, gsp_vector_dup(NULL, v));
  EXPECT(GSP_INVALID_OBJECT, gsp_vector_size(&n, SV));
  EXPECT(GSP_INVALID_OBJECT, gsp_vector_nvals(&n, SV));
  EXPECT(GSP_INVALID_OBJECT, gsp_vector_type(&t, SV));
  EXPECT(GSP_NULL_POINTER, gsp_vector_size(NULL, v));
  cr_expect_eq(n, 77);
  EXPECT(GSP_INVALID_OBJECT, gsp_vector_clear(SV));
  EXPECT(GSP_INVALID_OBJECT, gsp_vector_build(SV, I, d, 0, GSP_DUP_FIRST));
  EXPECT(GSP_INVALID_OBJECT, gsp_vector_set_element(SV, 0, &x));
  EXPECT(GSP_NULL_POINTER, gsp_vector_set_element(v, 0, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_vector_remove_element(SV, 0));
  EXPECT(GSP_INVALID_OBJECT, gsp_vector_extract_element(&x, SV, 0));
  EXPECT(GSP_NULL_POINTER, gsp_vector_extract_tuples(I, d, NULL, v));
  EXPECT(GSP_NULL_POINTER, gsp_vector_import_dense(&out, GSP_FP64, 3, NULL, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_vector_export_dense(d, &x, SV));
  cr_expect_eq(x, 5);
  cr_expect_eq(out, (gsp_vector)&out);
}

Test(api_guards, operations) {
  double s = 5;
  EXPECT(GSP_NULL_POINTER, gsp_mxm(NULL, NULL, GSP_NOOP, GSP_MIN_PLUS, A, A, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_mxm(A, NULL, GSP_NOOP, GSP_MIN_PLUS, SA, A, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_mxm(A, SA, GSP_NOOP, GSP_MIN_PLUS, A, A, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_mxv(v, NULL, GSP_NOOP, GSP_MIN_PLUS, A, SV, NULL));
  EXPECT(GSP_NULL_POINTER, gsp_vxm(v, NULL, GSP_NOOP, GSP_MIN_PLUS, NULL, A, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_ewise_add(A, NULL, GSP_NOOP, GSP_MIN, A, SA, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_ewise_mult(SA, NULL, GSP_NOOP, GSP_MIN, A, A, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_vector_ewise_add(v, NULL, GSP_NOOP, GSP_MIN, SV, v, NULL));
  EXPECT(GSP_NULL_POINTER, gsp_vector_ewise_mult(v, NULL, GSP_NOOP, GSP_MIN, v, NULL, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_reduce_vector(v, NULL, GSP_NOOP, GSP_MIN, SA, NULL));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_reduce_scalar(NULL, GSP_MIN, A));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_reduce_scalar(&s, GSP_MIN, SA));
  EXPECT(GSP_INVALID_OBJECT, gsp_vector_reduce_scalar(&s, GSP_MIN, SV));
  cr_expect_eq(s, 5);
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_apply(A, NULL, GSP_NOOP, GSP_AINV, SA, NULL));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_apply_scalar(A, NULL, GSP_NOOP, GSP_PLUS, A, NULL, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_vector_apply(SV, NULL, GSP_NOOP, GSP_AINV, v, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_vector_apply_scalar(v, NULL, GSP_NOOP, GSP_PLUS, SV, &s, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_select(A, NULL, GSP_NOOP, GSP_VALUE_GT, SA, &s, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_vector_select(v, NULL, GSP_NOOP, GSP_VALUE_GT, SV, &s, NULL));
}

Test(api_guards, closure_paths_sssp) {
  gsp_matrix succ = (gsp_matrix)&succ;
  gsp_vector dist = (gsp_vector)&dist, par = (gsp_vector)&par;
  gsp_index path[4], len = 4, src = 0;
  EXPECT(GSP_NULL_POINTER, gsp_closure(NULL, GSP_MIN_PLUS));
  EXPECT(GSP_INVALID_OBJECT, gsp_closure(SA, GSP_MIN_PLUS));
  EXPECT(GSP_INVALID_OBJECT, gsp_closure_ext(SA, &succ, GSP_MIN_PLUS, NULL));
  EXPECT(GSP_NULL_POINTER, gsp_path_from_succ(path, NULL, A, 0, 1));
  EXPECT(GSP_INVALID_OBJECT, gsp_path_from_succ(path, &len, SA, 0, 1));
  EXPECT(GSP_NULL_POINTER, gsp_sssp(NULL, NULL, A, 0, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_sssp(&dist, &par, SA, 0, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_msssp(&succ, NULL, SA, &src, 1, NULL));
  EXPECT(GSP_NULL_POINTER, gsp_apsp(NULL, NULL, A, NULL));
  EXPECT(GSP_NULL_POINTER, gsp_apsp(&succ, NULL, NULL, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_apsp(&succ, &succ, SA, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_nearest_source(&dist, &par, NULL, SA, &src, 1, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_path_from_parent(path, &len, SV, 1));
  EXPECT(GSP_INVALID_OBJECT, gsp_path_from_parent_row(path, &len, SA, 0, 1));
  cr_expect_eq(len, 4);
  cr_expect_eq(succ, (gsp_matrix)&succ);
  cr_expect(dist == (gsp_vector)&dist && par == (gsp_vector)&par);
}

Test(api_guards, bellman_ford) {
  gsp_vector dist = (gsp_vector)&dist, par = (gsp_vector)&par;
  gsp_index cyc[4] = {7, 7, 7, 7}, len = 4;
  EXPECT(GSP_NULL_POINTER, gsp_bellman_ford(NULL, NULL, A, 0, NULL));
  EXPECT(GSP_NULL_POINTER, gsp_bellman_ford(&dist, &par, NULL, 0, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_bellman_ford(&dist, &par, SA, 0, NULL));
  EXPECT(GSP_NULL_POINTER, gsp_negative_cycle(cyc, NULL, A, NULL));
  EXPECT(GSP_NULL_POINTER, gsp_negative_cycle(NULL, &len, A, NULL));
  EXPECT(GSP_NULL_POINTER, gsp_negative_cycle(cyc, &len, NULL, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_negative_cycle(cyc, &len, SA, NULL));
  cr_expect(dist == (gsp_vector)&dist && par == (gsp_vector)&par);
  cr_expect(len == 4 && cyc[0] == 7 && cyc[3] == 7);
}

Test(api_guards, files_and_generators) {
  gsp_matrix out = (gsp_matrix)&out;
  gsp_index *src = NULL, *dst = NULL, k = 9;
  EXPECT(GSP_NULL_POINTER, gsp_matrix_read(NULL, "x.mtx", NULL));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_read(&out, NULL, NULL));
  EXPECT(GSP_IO_ERROR, gsp_matrix_read(&out, "/nonexistent/graph.mtx", NULL));
  EXPECT(GSP_IO_ERROR, gsp_matrix_read_ids(&out, NULL, NULL, "/nonexistent/graph.txt", NULL));
  EXPECT(GSP_NULL_POINTER, gsp_dimacs_read_sources(NULL, &k, 10, "q.ss"));
  EXPECT(GSP_IO_ERROR, gsp_dimacs_read_pairs(&src, &dst, &k, 10, "/nonexistent/q.p2p"));
  EXPECT(GSP_NULL_POINTER, gsp_dimacs_read_pairs(&src, NULL, &k, 10, "q.p2p"));
  EXPECT(GSP_NULL_POINTER, gsp_matrix_read_ids(NULL, NULL, NULL, "graph.txt", NULL));
  cr_expect(src == NULL && dst == NULL && k == 9);
  EXPECT(GSP_NULL_POINTER, gsp_matrix_write(NULL, A, NULL));
  EXPECT(GSP_INVALID_OBJECT, gsp_matrix_write("/tmp/gsp-guard.mtx", SA, NULL));
  EXPECT(GSP_IO_ERROR, gsp_matrix_write("/nonexistent/dir/out.mtx", A, NULL));
  EXPECT(GSP_NULL_POINTER, gsp_generate_random(NULL, GSP_INT32, 10, 20, 1, 9, 1));
  EXPECT(GSP_NULL_POINTER, gsp_generate_rmat(NULL, GSP_INT32, 5, 4, 0.57, 0.19, 0.19, 1, 9, 1));
  EXPECT(GSP_NULL_POINTER, gsp_generate_grid(NULL, GSP_INT32, 4, 4, 1, 9, 1));
  EXPECT(GSP_NULL_POINTER, gsp_generate_ring(NULL, GSP_INT32, 4, false, 1, 9, 1));
  EXPECT(GSP_NULL_POINTER, gsp_generate_complete(NULL, GSP_INT32, 4, 1, 9, 1));
  EXPECT(GSP_NULL_POINTER, gsp_generate_dag(NULL, GSP_INT32, 4, 3, 1, 9, 1));
  EXPECT(GSP_INVALID_VALUE, gsp_generate_random(&out, GSP_INT32, 10, 20, 9, 1, 1));
  cr_expect_eq(out, (gsp_matrix)&out);
}

/* Bad options of the newer entry points: each a specific code and message,
 * outputs untouched (A itself is a valid 3 x 3 FP64 graph). */
Test(api_guards, options) {
  gsp_matrix M = NULL, D = (gsp_matrix)&D, P = (gsp_matrix)&P, S = (gsp_matrix)&S;
  gsp_vector d = (gsp_vector)&d, p = (gsp_vector)&p, r = (gsp_vector)&r;
  gsp_index src[2] = {0, 3}, cyc[3] = {7, 7, 7}, len = 3;
  cr_assert_eq(gsp_matrix_dup(&M, A), GSP_SUCCESS);
  const gsp_closure_advanced many = {.gpus = -1};
  const gsp_closure_opts neg_gpus = {.advanced = &many}, bad_cb = {.backend = (gsp_backend)7};
  EXPECT(GSP_INVALID_VALUE, gsp_closure_ext(M, &S, GSP_MIN_PLUS, &neg_gpus));
  EXPECT(GSP_INVALID_VALUE, gsp_closure_ext(M, NULL, GSP_MIN_PLUS, &bad_cb));
  EXPECT(GSP_INVALID_VALUE, gsp_closure_ext(M, NULL, (gsp_semiring)99, NULL));
  const gsp_sssp_opts bad_algo = {.algo = (gsp_sssp_algo)9}, nan_cut = {.has_cutoff = true, .cutoff = NAN},
                      neg_delta = {.algo = GSP_SSSP_DELTA, .delta = -1};
  EXPECT(GSP_INVALID_VALUE, gsp_sssp(&d, &p, A, 0, &bad_algo));
  EXPECT(GSP_INVALID_VALUE, gsp_sssp(&d, &p, A, 0, &nan_cut));
  EXPECT(GSP_INVALID_VALUE, gsp_sssp(&d, &p, A, 0, &neg_delta));
  EXPECT(GSP_INVALID_INDEX, gsp_sssp(&d, &p, A, 3, NULL));
  EXPECT(GSP_INVALID_VALUE, gsp_nearest_source(&d, &r, &p, A, src, 0, NULL));
  EXPECT(GSP_INVALID_INDEX, gsp_nearest_source(&d, &r, &p, A, src, 2, NULL));
  const gsp_msssp_opts m_bad = {.backend = (gsp_backend)5}, m_cut = {.has_cutoff = true, .cutoff = -2};
  EXPECT(GSP_INVALID_VALUE, gsp_msssp(&D, &P, A, src, 1, &m_bad));
  EXPECT(GSP_INVALID_VALUE, gsp_msssp(&D, &P, A, src, 1, &m_cut));
  EXPECT(GSP_INVALID_INDEX, gsp_msssp(&D, &P, A, src, 2, NULL));
  const gsp_bf_opts bf_bad = {.backend = (gsp_backend)5};
  EXPECT(GSP_INVALID_VALUE, gsp_bellman_ford(&d, &p, A, 0, &bf_bad));
  EXPECT(GSP_INVALID_INDEX, gsp_bellman_ford(&d, &p, A, 3, NULL));
  EXPECT(GSP_INVALID_VALUE, gsp_negative_cycle(cyc, &len, A, &bf_bad));
  EXPECT(GSP_NULL_POINTER, gsp_negative_cycle(NULL, &len, A, NULL));
  gsp_apsp_opts o = {.algo = (gsp_apsp_algo)8};
  EXPECT(GSP_INVALID_VALUE, gsp_apsp(&D, &P, A, &o));
  o = (gsp_apsp_opts){.backend = (gsp_backend)6};
  EXPECT(GSP_INVALID_VALUE, gsp_apsp(&D, &P, A, &o));
  o = (gsp_apsp_opts){.has_cutoff = true, .cutoff = NAN};
  EXPECT(GSP_INVALID_VALUE, gsp_apsp(&D, &P, A, &o));
  o = (gsp_apsp_opts){.use_type = true, .type = GSP_BOOL};
  EXPECT(GSP_DOMAIN_MISMATCH, gsp_apsp(&D, &P, A, &o));
  o = (gsp_apsp_opts){.sources = src, .nsources = 2};
  EXPECT(GSP_INVALID_INDEX, gsp_apsp(&D, &P, A, &o));
  o = (gsp_apsp_opts){.algo = GSP_APSP_MSSSP, .advanced = &(gsp_apsp_advanced){.gpus = -2}};
  EXPECT(GSP_INVALID_VALUE, gsp_apsp(&D, &P, A, &o));
  o = (gsp_apsp_opts){.algo = GSP_APSP_MSSSP, .backend = GSP_BACKEND_CPU};
  gsp_matrix N = NULL;
  const double neg = -1;
  cr_assert_eq(gsp_matrix_dup(&N, A), GSP_SUCCESS);
  cr_assert_eq(gsp_matrix_set_element(N, 2, 0, &neg), GSP_SUCCESS);
  EXPECT(GSP_INVALID_VALUE, gsp_apsp(&D, &P, N, &o)); /* MSSSP forced on a negative weight */
  cr_expect(D == (gsp_matrix)&D && P == (gsp_matrix)&P && S == (gsp_matrix)&S, "a matrix output was written");
  cr_expect(d == (gsp_vector)&d && p == (gsp_vector)&p && r == (gsp_vector)&r, "a vector output was written");
  cr_expect(len == 3 && cyc[0] == 7, "the cycle buffer was written");
  gsp_matrix_free(&M), gsp_matrix_free(&N);
}

/* An impossible entry count in rowptr is a bad argument, refused before
 * anything is allocated or read from colidx (it was GSP_OUT_OF_MEMORY); an
 * output type code that is no gsp_type is a bad option (it was
 * GSP_DOMAIN_MISMATCH, which stays for the real type GSP_BOOL). */
Test(api_guards, error_codes) {
  gsp_matrix M = (gsp_matrix)&M, D = (gsp_matrix)&D;
  const gsp_index colidx[2] = {0, 1};
  const double x[2] = {1, 2};
  const gsp_index huge[2] = {0, (gsp_index)1 << 62}, over[3] = {0, 3, 3}, big2[3] = {0, 1, (gsp_index)1 << 61};
  EXPECT(GSP_INVALID_VALUE, gsp_matrix_import_csr(&M, GSP_FP64, 1, 2, huge, colidx, x));
  EXPECT(GSP_INVALID_VALUE, gsp_matrix_import_csr(&M, GSP_FP64, 2, 2, over, colidx, x));
  EXPECT(GSP_INVALID_VALUE, gsp_matrix_import_csr(&M, GSP_FP64, 2, GSP_INDEX_MAX, big2, colidx, x));
  gsp_index *p = malloc(sizeof huge), *j = malloc(sizeof colidx);
  void *v = malloc(sizeof x);
  cr_assert(p && j && v);
  memcpy(p, huge, sizeof huge), memcpy(j, colidx, sizeof colidx), memcpy(v, x, sizeof x);
  EXPECT(GSP_INVALID_VALUE, gsp_matrix_pack_csr(&M, GSP_FP64, 1, 2, &p, &j, &v));
  cr_expect(p && j && v, "the caller still owns its arrays after an error");
  free(p), free(j), free(v);
  cr_expect_eq(M, (gsp_matrix)&M, "A written on error");
  gsp_apsp_opts o = {.use_type = true, .type = (gsp_type)42};
  EXPECT(GSP_INVALID_VALUE, gsp_apsp(&D, NULL, A, &o));
  o.type = (gsp_type)-1;
  EXPECT(GSP_INVALID_VALUE, gsp_apsp(&D, NULL, A, &o));
  cr_expect_eq(D, (gsp_matrix)&D);
}
