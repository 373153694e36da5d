/*
 * "Brutal" allocation-failure walks (as in GraphBLAS and LAGraph): for
 * k = 0, 1, 2, ... the k-th allocation inside a call fails. Every such run
 * must return GSP_OUT_OF_MEMORY, leave its inputs and outputs as they were,
 * and leak nothing (leaks are caught by the sanitizer build of the suite);
 * the walk ends at the first k where the call succeeds.
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gsp_internal.h"
#include "gsp_test.h"

/* Entries of A as a dense double picture (NAN = absent). */
static double *picture(gsp_matrix A) {
  gsp_index n, m, nv;
  GSP_OK(gsp_matrix_nrows(&n, A));
  GSP_OK(gsp_matrix_ncols(&m, A));
  GSP_OK(gsp_matrix_nvals(&nv, A));
  gsp_type t;
  GSP_OK(gsp_matrix_type(&t, A));
  gsp_index *I = malloc((nv + 1) * sizeof *I), *J = malloc((nv + 1) * sizeof *J);
  char *X = malloc((nv + 1) * 8);
  GSP_OK(gsp_matrix_extract_tuples(I, J, X, &nv, A));
  double *d = malloc((n * m + 1) * sizeof *d);
  for (gsp_index k = 0; k < n * m; k++) d[k] = NAN;
  for (gsp_index k = 0; k < nv; k++) {
    double v;
    gsp__cast_value(&v, GSP_FP64, X + k * gsp_type_size(t), t);
    d[I[k] * m + J[k]] = v;
  }
  free(I), free(J), free(X);
  return d;
}

static void assert_picture(gsp_matrix A, const double *want, gsp_index count, long long k) {
  double *got = picture(A);
  for (gsp_index q = 0; q < count; q++)
    cr_assert((isnan(got[q]) && isnan(want[q])) || got[q] == want[q], "input changed at entry %llu after failure %lld",
              (unsigned long long)q, k);
  free(got);
}

/* Walk one closure configuration. */
static void walk_closure(gsp_matrix M0, gsp_semiring s, bool paths) {
  gsp_index n;
  GSP_OK(gsp_matrix_nrows(&n, M0));
  double *before = picture(M0);
  gsp_closure_opts o = {.backend = GSP_BACKEND_CPU};
  long long k = 0;
  for (;; k++) {
    gsp_matrix M, S = NULL;
    GSP_OK(gsp_matrix_dup(&M, M0));
    gsp__debug_fail_after(k);
    gsp_info info = gsp_closure_ext(M, paths ? &S : NULL, s, &o);
    gsp__debug_fail_after(-1);
    if (info == GSP_SUCCESS) {
      cr_assert(!paths || S != NULL);
      gsp_matrix_free(&M);
      gsp_matrix_free(&S);
      break;
    }
    cr_assert_eq(info, GSP_OUT_OF_MEMORY, "failure %lld gave %s: %s", k, gsp_strerror(info), gsp_last_error());
    cr_assert_null(S, "succ written on failure %lld", k);
    assert_picture(M, before, n * n, k);
    gsp_matrix_free(&M);
  }
  cr_assert_gt(k, 0, "the walk never failed: injection not reached");
  cr_log_info("closure %d paths=%d: %lld failure points walked", (int)s, (int)paths, k);
  free(before);
}

Test(alloc_failures, closure_min_plus_with_paths) {
  gsp_matrix A = gsp_test_random_matrix(GSP_FP32, 70, 70, 0.1, 1, 9, 11);
  walk_closure(A, GSP_MIN_PLUS, true);
  walk_closure(A, GSP_MAX_MIN, false);
  gsp_matrix_free(&A);
}

Test(alloc_failures, closure_or_and_bits) {
  gsp_matrix A = gsp_test_random_matrix(GSP_BOOL, 130, 130, 0.02, 1, 1, 12);
  walk_closure(A, GSP_OR_AND, false);
  walk_closure(A, GSP_OR_AND, true);
  gsp_matrix_free(&A);
}

/* Bellman-Ford: no output object (or cycle) on failure, A intact. */
Test(alloc_failures, bellman_ford_and_negative_cycle) {
  enum { N = 50, T = 200 };
  gsp_index I[T + 2], J[T + 2];
  int64_t X[T + 2], pot[N];
  uint64_t st = 11;
  for (int v = 0; v < N; v++) pot[v] = (int64_t)(gsp_test_rand(&st) % 21) - 10;
  for (int q = 0; q < T; q++) { /* reweighted non-negative arcs: no negative cycle */
    I[q] = gsp_test_rand(&st) % N;
    J[q] = gsp_test_rand(&st) % N;
    X[q] = (int64_t)(gsp_test_rand(&st) % 9) + pot[I[q]] - pot[J[q]];
  }
  for (int with_cycle = 0; with_cycle < 2; with_cycle++) {
    gsp_matrix A;
    GSP_OK(gsp_matrix_new(&A, GSP_INT64, N, N));
    /* with_cycle: 3 <-> 4 weighing -1 in all */
    I[T] = 3, J[T] = 4, X[T] = -1 + pot[3] - pot[4], I[T + 1] = 4, J[T + 1] = 3, X[T + 1] = pot[4] - pot[3];
    GSP_OK(gsp_matrix_build(A, I, J, X, with_cycle ? T + 2 : T, GSP_DUP_LAST));
    double *before = picture(A);
    long long k;
    for (k = 0;; k++) {
      gsp_vector d = NULL, p = NULL;
      gsp_index cyc[N], len = N;
      gsp__debug_fail_after(k);
      gsp_info info = with_cycle ? gsp_negative_cycle(cyc, &len, A, NULL) : gsp_bellman_ford(&d, &p, A, 0, NULL);
      gsp__debug_fail_after(-1);
      if (info == GSP_SUCCESS) {
        cr_assert(with_cycle ? len >= 1 && len <= N : d != NULL && p != NULL);
        gsp_vector_free(&d), gsp_vector_free(&p);
        break;
      }
      cr_assert_eq(info, GSP_OUT_OF_MEMORY, "failure %lld gave %s (%s)", k, gsp_strerror(info), gsp_last_error());
      cr_assert(d == NULL && p == NULL && len == N, "outputs changed at failure %lld", k);
      assert_picture(A, before, N * N, k);
    }
    cr_assert_gt(k, 0, "the walk never failed: injection not reached");
    cr_log_info("%s: %lld failure points walked", with_cycle ? "negative_cycle" : "bellman_ford", k);
    free(before);
    gsp_matrix_free(&A);
  }
}

Test(alloc_failures, build_import_transpose) {
  enum { N = 40, T = 300 };
  gsp_index I[T], J[T];
  int64_t X[T];
  uint64_t st = 5;
  for (int q = 0; q < T; q++) {
    I[q] = gsp_test_rand(&st) % N;
    J[q] = gsp_test_rand(&st) % N;
    X[q] = (int64_t)(gsp_test_rand(&st) % 100);
  }
  long long k;
  for (k = 0;; k++) { /* build: the matrix stays empty on failure */
    gsp_matrix A;
    GSP_OK(gsp_matrix_new(&A, GSP_INT64, N, N));
    gsp__debug_fail_after(k);
    gsp_info info = gsp_matrix_build(A, I, J, X, T, GSP_DUP_PLUS);
    gsp__debug_fail_after(-1);
    gsp_index nv;
    GSP_OK(gsp_matrix_nvals(&nv, A));
    gsp_matrix_free(&A);
    if (info == GSP_SUCCESS) break;
    cr_assert_eq(info, GSP_OUT_OF_MEMORY, "build failure %lld gave %s", k, gsp_strerror(info));
    cr_assert_eq(nv, 0);
  }
  cr_assert_gt(k, 0);
  gsp_matrix A;
  GSP_OK(gsp_matrix_new(&A, GSP_INT64, N, N));
  GSP_OK(gsp_matrix_build(A, I, J, X, T, GSP_DUP_PLUS));
  double *before = picture(A);
  /* calls that make a new object: no object on failure, A intact */
  for (int call = 0; call < 4; call++) {
    for (k = 0;; k++) {
      gsp_matrix C = NULL;
      gsp__debug_fail_after(k);
      gsp_info info = call == 0   ? gsp_matrix_transpose(&C, A)
                      : call == 1 ? gsp_matrix_dup(&C, A)
                      : call == 2 ? gsp_matrix_cast(&C, A, GSP_FP32)
                                  : gsp_matrix_pattern(&C, A);
      gsp__debug_fail_after(-1);
      if (info == GSP_SUCCESS) {
        gsp_matrix_free(&C);
        break;
      }
      cr_assert_eq(info, GSP_OUT_OF_MEMORY, "call %d failure %lld gave %s", call, k, gsp_strerror(info));
      cr_assert_null(C);
      assert_picture(A, before, N * N, k);
    }
    cr_assert_gt(k, 0);
  }
  /* dense import and format conversions */
  int64_t dense[N * N];
  const int64_t absent = -1;
  for (int q = 0; q < N * N; q++) dense[q] = (q % 3) ? q : -1;
  for (k = 0;; k++) {
    gsp_matrix C = NULL;
    gsp__debug_fail_after(k);
    gsp_info info = gsp_matrix_import_dense(&C, GSP_INT64, N, N, dense, &absent);
    if (info == GSP_SUCCESS) info = gsp__matrix_to_csr(C);
    gsp__debug_fail_after(-1);
    if (info == GSP_SUCCESS) {
      gsp_matrix_free(&C);
      break;
    }
    cr_assert_eq(info, GSP_OUT_OF_MEMORY);
    if (C) { /* the conversion failed: the dense matrix must be intact */
      int64_t back[N * N];
      GSP_OK(gsp_matrix_export_dense(back, &absent, C));
      cr_assert_eq(memcmp(back, dense, sizeof dense), 0, "conversion failure %lld changed C", k);
      gsp_matrix_free(&C);
    }
  }
  cr_assert_gt(k, 1);
  free(before);
  gsp_matrix_free(&A);
}

/* ---- gsp_apsp ---- */

static int apsp_count_rows(void *ctx, gsp_index first, gsp_index nrows, const void *dist, const int64_t *parent) {
  (void)first, (void)dist, (void)parent;
  *(gsp_index *)ctx += nrows;
  return 0;
}

/* Walk gsp_apsp with every algorithm (negative weights for Floyd-Warshall
 * and Johnson), with paths, a type conversion, a cutoff, row blocks and the
 * callback: every failure is GSP_OUT_OF_MEMORY with A and the outputs as
 * they were. */
Test(alloc_failures, apsp) {
  enum { N = 40 };
  gsp_matrix A = gsp_test_random_matrix(GSP_INT32, N, N, 0.1, 0, 9, 21), Aneg = NULL;
  /* negative arcs without a negative cycle: w + p(u) - p(v), p(v) = v % 5 */
  {
    gsp_index nv, I[N * N], J[N * N];
    int32_t X[N * N];
    GSP_OK(gsp_matrix_nvals(&nv, A));
    GSP_OK(gsp_matrix_extract_tuples(I, J, X, &nv, A));
    for (gsp_index k = 0; k < nv; k++) X[k] += (int32_t)(I[k] % 5) - (int32_t)(J[k] % 5);
    GSP_OK(gsp_matrix_new(&Aneg, GSP_INT32, N, N));
    GSP_OK(gsp_matrix_build(Aneg, I, J, X, nv, GSP_DUP_ERROR));
  }
  const gsp_index src[] = {0, 7, 39, 7};
  for (int cfg = 0; cfg < 6; cfg++) {
    const gsp_apsp_algo algo = cfg % 3 == 0   ? GSP_APSP_FLOYD_WARSHALL
                               : cfg % 3 == 1 ? GSP_APSP_MSSSP
                                              : GSP_APSP_JOHNSON;
    gsp_matrix B = algo == GSP_APSP_MSSSP ? A : Aneg;
    double *before = picture(B);
    gsp_index rows = 0;
    gsp_apsp_opts o = {.algo = algo, .backend = GSP_BACKEND_CPU};
    gsp_apsp_advanced oa = {0};
    o.advanced = &oa;
    if (cfg >= 3) { /* subset, conversion, cutoff, blocks of 3 through the callback */
      o.sources = src, o.nsources = 4, o.use_type = true, o.type = GSP_FP64, o.has_cutoff = true, o.cutoff = 6;
      oa.row_block = 3, oa.rows = apsp_count_rows, oa.rows_ctx = &rows;
    }
    long long k = 0;
    for (;; k++) {
      gsp_matrix D = NULL, P = NULL;
      rows = 0;
      gsp__debug_fail_after(k);
      gsp_info info = gsp_apsp(&D, &P, B, &o);
      gsp__debug_fail_after(-1);
      if (info == GSP_SUCCESS) {
        cr_assert(cfg >= 3 ? (D == NULL && rows == 4) : (D != NULL && P != NULL));
        gsp_matrix_free(&D), gsp_matrix_free(&P);
        break;
      }
      cr_assert_eq(info, GSP_OUT_OF_MEMORY, "apsp %d failure %lld gave %s: %s", cfg, k, gsp_strerror(info),
                   gsp_last_error());
      cr_assert(D == NULL && P == NULL, "apsp %d: output written on failure %lld", cfg, k);
      assert_picture(B, before, N * N, k);
    }
    cr_assert_gt(k, 2, "apsp %d: the walk never failed", cfg);
    cr_log_info("apsp %d: %lld failure points walked", cfg, k);
    free(before);
  }
  gsp_matrix_free(&A), gsp_matrix_free(&Aneg);
}

/* gsp_msssp (CPU backend) with parents: presence bytes for both results,
 * with absent entries (a sparse random graph leaves pairs unreached). */
Test(alloc_failures, msssp_with_parents) {
  gsp_matrix A = gsp_test_random_matrix(GSP_INT32, 60, 60, 0.03, 1, 9, 13);
  double *before = picture(A);
  gsp_msssp_opts o = {.backend = GSP_BACKEND_CPU};
  gsp_index ns;
  gsp_index *all = gsp_test_all_sources(A, &ns);
  long long k = 0;
  for (;; k++) {
    gsp_matrix D = NULL, P = NULL;
    gsp__debug_fail_after(k);
    gsp_info info = gsp_msssp(&D, &P, A, all, ns, &o);
    gsp__debug_fail_after(-1);
    if (info == GSP_SUCCESS) {
      gsp_index nd, np;
      GSP_OK(gsp_matrix_nvals(&nd, D));
      GSP_OK(gsp_matrix_nvals(&np, P));
      cr_assert_eq(nd, np);
      cr_assert_lt(nd, 60 * 60, "the graph should leave pairs unreached");
      gsp_matrix_free(&D), gsp_matrix_free(&P);
      break;
    }
    cr_assert_eq(info, GSP_OUT_OF_MEMORY, "failure %lld gave %s: %s", k, gsp_strerror(info), gsp_last_error());
    cr_assert(D == NULL && P == NULL, "output written on failure %lld", k);
    assert_picture(A, before, 60 * 60, k);
  }
  cr_assert_gt(k, 0, "the walk never failed: injection not reached");
  cr_log_info("msssp with parents: %lld failure points walked", k);
  free(before), free(all);
  gsp_matrix_free(&A);
}
