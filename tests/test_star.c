/*
 * The sparse star (gsp_star_*): rows and columns of A* from the
 * factorization against the dense Floyd-Warshall closure (gsp_closure,
 * itself checked against SuiteSparse:GraphBLAS in test_closure), on every
 * closure semiring and type: grids, random directed graphs, disconnected
 * graphs, negative arcs, DAGs, repeats of a source; negative cycles; a
 * refactorization with new weights; bad input. Integer-valued weights, so
 * every comparison is exact.
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "closure_branch.h"
#include "gsp.h"
#include "gsp_internal.h"
#include "gsp_test.h"
#include "star.h"

/* The dense closure of A over s (the reference). */
static gsp_matrix dense_star(gsp_matrix A, gsp_semiring s) {
  gsp_matrix D = NULL;
  GSP_OK(gsp_matrix_dup(&D, A));
  GSP_OK(gsp_closure(D, s));
  return D;
}

/* Every row and every column of A* from the factorization equal the dense
 * closure's, with both orderings. */
static void check_star(gsp_matrix A, gsp_semiring s, const char *what) {
  gsp_index n = 0;
  GSP_OK(gsp_matrix_nrows(&n, A));
  gsp_matrix D = dense_star(A, s), DT = NULL;
  GSP_OK(gsp_matrix_transpose(&DT, D));
  for (int ord = GSP_ORDERING_METIS; ord <= GSP_ORDERING_AMD; ord++) {
    gsp_test_context("%s, %s, %s order", what, gsp_test_semiring_name(s), ord == GSP_ORDERING_METIS ? "METIS" : "AMD");
    gsp_star F = NULL;
    gsp_matrix R = NULL, C = NULL;
    const gsp_star_opts o = {.ordering = (gsp_ordering)ord};
    GSP_OK(gsp_star_factor(&F, A, s, &o));
    GSP_OK(gsp_star_rows(&R, F, NULL, n));
    gsp_test_assert_matrix_same(R, D, 0);
    GSP_OK(gsp_star_cols(&C, F, NULL, n));
    gsp_test_assert_matrix_same(C, DT, 0);
    GSP_OK(gsp_matrix_free(&R));
    GSP_OK(gsp_matrix_free(&C));
    GSP_OK(gsp_star_free(&F));
    cr_assert_null(F);
  }
  GSP_OK(gsp_matrix_free(&D));
  GSP_OK(gsp_matrix_free(&DT));
}

static gsp_matrix grid(gsp_type t, gsp_index r, gsp_index c, uint64_t seed) {
  gsp_matrix G = NULL, A = NULL;
  GSP_OK(gsp_generate_grid(&G, GSP_INT64, r, c, 1, 9, seed));
  GSP_OK(gsp_matrix_cast(&A, G, t));
  GSP_OK(gsp_matrix_free(&G));
  return A;
}

static const gsp_type num_types[] = {GSP_INT32, GSP_INT64, GSP_FP32, GSP_FP64};

Test(star, grids_min_plus_every_type) {
  for (int k = 0; k < 4; k++) {
    gsp_matrix A = grid(num_types[k], 17, 23, 7 + (uint64_t)k);
    check_star(A, GSP_MIN_PLUS, gsp_test_type_name(num_types[k]));
    GSP_OK(gsp_matrix_free(&A));
  }
}

/* Above STAR_METIS_MIN_N, so AUTO's order is METIS's nested dissection. */
Test(star, large_grid_auto_order) {
  gsp_matrix A = grid(GSP_INT32, 40, 45, 3), D = dense_star(A, GSP_MIN_PLUS);
  gsp_star F = NULL;
  gsp_matrix R = NULL;
  gsp_index n = 0;
  GSP_OK(gsp_matrix_nrows(&n, A));
  GSP_OK(gsp_star_factor(&F, A, GSP_MIN_PLUS, NULL));
  gsp_star_report rep;
  GSP_OK(gsp_star_report_get(&rep, F));
  cr_assert_str_eq(rep.ordering, "METIS");
  /* nested dissection of a 2-D grid: the widest supernode is about one
   * separator (45 vertices, a few more with amalgamation), the factor far
   * below n^2 */
  cr_assert(rep.max_supernode >= 40 && rep.max_supernode < 200, "widest supernode %llu",
            (unsigned long long)rep.max_supernode);
  cr_assert((double)rep.factor_values < 0.2 * (double)n * (double)n, "factor %llu values",
            (unsigned long long)rep.factor_values);
  GSP_OK(gsp_star_rows(&R, F, NULL, n));
  gsp_test_assert_matrix_same(R, D, 0);
  GSP_OK(gsp_matrix_free(&R));
  GSP_OK(gsp_star_free(&F));
  GSP_OK(gsp_matrix_free(&A));
  GSP_OK(gsp_matrix_free(&D));
}

/* Random directed graphs (one-way arcs, self-loops, unreachable pairs) on
 * every closure semiring and type. */
Test(star, random_directed_every_semiring) {
  const gsp_semiring srs[] = {GSP_MIN_PLUS, GSP_MAX_MIN, GSP_MIN_MAX, GSP_OR_AND};
  for (int i = 0; i < 4; i++)
    for (int k = 0; k < 5; k++) {
      const gsp_type t = k < 4 ? num_types[k] : GSP_BOOL;
      if (!gsp_test_fits(srs[i], t)) continue;
      int64_t lo, hi;
      gsp_test_range(srs[i], &lo, &hi);
      if (srs[i] == GSP_MIN_PLUS) lo = 0;
      for (gsp_index n = 1; n <= 150; n += 37) {
        gsp_matrix A = gsp_test_random_matrix(t, n, n, 2.5 / (double)n, lo, hi, 11 * n + (uint64_t)k);
        char what[64];
        snprintf(what, sizeof what, "random n=%llu %s", (unsigned long long)n, gsp_test_type_name(t));
        check_star(A, srs[i], what);
        GSP_OK(gsp_matrix_free(&A));
      }
    }
}

/* MAX_PLUS (longest paths) where the graph is acyclic. */
Test(star, dag_max_plus) {
  for (int k = 0; k < 4; k++) {
    gsp_matrix A = NULL;
    GSP_OK(gsp_generate_dag(&A, num_types[k], 120, 400, -20, 20, 5 + (uint64_t)k));
    check_star(A, GSP_MAX_PLUS, "dag");
    GSP_OK(gsp_matrix_free(&A));
  }
}

/* Two components, and isolated vertices. */
Test(star, disconnected) {
  gsp_index I[] = {0, 1, 2, 5, 6, 6}, J[] = {1, 2, 0, 6, 5, 7};
  int32_t X[] = {3, 4, 5, 1, 1, 2};
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, GSP_INT32, 9, 9));
  GSP_OK(gsp_matrix_build(A, I, J, X, 6, GSP_DUP_ERROR));
  check_star(A, GSP_MIN_PLUS, "disconnected");
  GSP_OK(gsp_matrix_free(&A));
}

/* Negative arcs without a negative cycle: a grid reweighted by potentials
 * h (w + h(u) - h(v) keeps every cycle's sum). */
Test(star, negative_arcs) {
  const gsp_index r = 12, c = 13, n = r * c;
  gsp_matrix G = grid(GSP_INT64, r, c, 9), A = NULL;
  gsp_index m = 0;
  GSP_OK(gsp_matrix_nvals(&m, G));
  gsp_index *I = malloc(m * sizeof *I), *J = malloc(m * sizeof *J);
  int64_t *X = malloc(m * sizeof *X);
  GSP_OK(gsp_matrix_extract_tuples(I, J, X, &m, G));
  int negatives = 0;
  for (gsp_index e = 0; e < m; e++) {
    X[e] += (int64_t)((I[e] * 7919) % 23) - (int64_t)((J[e] * 7919) % 23);
    negatives += X[e] < 0;
  }
  cr_assert(negatives > 0);
  GSP_OK(gsp_matrix_new(&A, GSP_INT64, n, n));
  GSP_OK(gsp_matrix_build(A, I, J, X, m, GSP_DUP_ERROR));
  check_star(A, GSP_MIN_PLUS, "negative arcs");
  free(I), free(J), free(X);
  GSP_OK(gsp_matrix_free(&G));
  GSP_OK(gsp_matrix_free(&A));
}

/* A negative cycle is GSP_NEGATIVE_CYCLE with its vertices named, as the
 * dense closure reports it; a positive one of MAX_PLUS likewise. */
Test(star, cycles_reported) {
  gsp_matrix A = grid(GSP_INT32, 10, 10, 4);
  GSP_OK(gsp_matrix_set_element(A, 55, 56, &(int32_t){-30}));
  gsp_star F = NULL;
  cr_assert_eq(gsp_star_factor(&F, A, GSP_MIN_PLUS, NULL), GSP_NEGATIVE_CYCLE);
  cr_assert_null(F);
  cr_assert(strstr(gsp_last_error(), "55") && strstr(gsp_last_error(), "56"), "%s", gsp_last_error());
  gsp_matrix D = NULL;
  GSP_OK(gsp_matrix_dup(&D, A));
  cr_assert_eq(gsp_closure(D, GSP_MIN_PLUS), GSP_NEGATIVE_CYCLE);
  /* a negative self-loop is a cycle too */
  GSP_OK(gsp_matrix_set_element(A, 55, 56, &(int32_t){5}));
  GSP_OK(gsp_matrix_set_element(A, 3, 3, &(int32_t){-1}));
  cr_assert_eq(gsp_star_factor(&F, A, GSP_MIN_PLUS, NULL), GSP_NEGATIVE_CYCLE);
  /* MAX_PLUS on a graph with a cycle of positive weight */
  cr_assert_eq(gsp_star_factor(&F, A, GSP_MAX_PLUS, NULL), GSP_NEGATIVE_CYCLE);
  cr_assert(strstr(gsp_last_error(), "positive"), "%s", gsp_last_error());
  GSP_OK(gsp_matrix_free(&A));
  GSP_OK(gsp_matrix_free(&D));
}

/* Rows v[0 .. nv) of R are rows v[k] of D (both nv x n / n x n FP64). */
static void assert_rows_of(gsp_matrix R, gsp_matrix D, const gsp_index *v, gsp_index nv, gsp_index n) {
  double *r = malloc(nv * n * sizeof *r), *d = malloc(n * n * sizeof *d);
  const double absent = -12345;
  GSP_OK(gsp_matrix_export_dense(r, &absent, R));
  GSP_OK(gsp_matrix_export_dense(d, &absent, D));
  for (gsp_index k = 0; k < nv; k++)
    for (gsp_index j = 0; j < n; j++)
      cr_assert_eq(r[k * n + j], d[v[k] * n + j], "row %llu (vertex %llu), column %llu: %g vs %g",
                   (unsigned long long)k, (unsigned long long)v[k], (unsigned long long)j, r[k * n + j],
                   d[v[k] * n + j]);
  free(r), free(d);
}

/* Chosen rows and columns (repeats, any order) and a refactorization. */
Test(star, rows_cols_refactor) {
  gsp_matrix A = grid(GSP_FP64, 20, 21, 1), B = grid(GSP_FP64, 20, 21, 2);
  gsp_matrix DA = dense_star(A, GSP_MIN_PLUS), DB = dense_star(B, GSP_MIN_PLUS), DBT = NULL;
  GSP_OK(gsp_matrix_transpose(&DBT, DB));
  const gsp_index v[] = {419, 0, 7, 7, 200, 3, 419};
  const gsp_index nv = sizeof v / sizeof *v;
  gsp_star F = NULL;
  GSP_OK(gsp_star_factor(&F, A, GSP_MIN_PLUS, NULL));
  gsp_matrix R = NULL, C = NULL;
  GSP_OK(gsp_star_rows(&R, F, v, nv));
  assert_rows_of(R, DA, v, nv, 420);
  GSP_OK(gsp_matrix_free(&R));
  GSP_OK(gsp_star_refactor(F, B));
  GSP_OK(gsp_star_rows(&R, F, v, nv));
  assert_rows_of(R, DB, v, nv, 420);
  GSP_OK(gsp_star_cols(&C, F, v, nv));
  assert_rows_of(C, DBT, v, nv, 420);
  GSP_OK(gsp_matrix_free(&R));
  GSP_OK(gsp_matrix_free(&C));
  GSP_OK(gsp_star_free(&F));
  GSP_OK(gsp_matrix_free(&A));
  GSP_OK(gsp_matrix_free(&B));
  GSP_OK(gsp_matrix_free(&DA));
  GSP_OK(gsp_matrix_free(&DB));
  GSP_OK(gsp_matrix_free(&DBT));
}

/* Bad input: clear errors, nothing the caller owns changed. */
Test(star, bad_input) {
  gsp_matrix A = grid(GSP_INT32, 5, 5, 1), N = NULL, B = NULL, Z = NULL;
  gsp_star F = NULL, G = NULL;
  cr_assert_eq(gsp_star_factor(NULL, A, GSP_MIN_PLUS, NULL), GSP_NULL_POINTER);
  cr_assert_eq(gsp_star_factor(&F, NULL, GSP_MIN_PLUS, NULL), GSP_NULL_POINTER);
  cr_assert_eq(gsp_star_factor(&F, A, GSP_PLUS_TIMES, NULL), GSP_DOMAIN_MISMATCH);
  cr_assert_eq(gsp_star_factor(&F, A, GSP_OR_AND, NULL), GSP_DOMAIN_MISMATCH);
  cr_assert_eq(gsp_star_factor(&F, A, GSP_MIN_PLUS, &(gsp_star_opts){.ordering = (gsp_ordering)9}), GSP_INVALID_VALUE);
  GSP_OK(gsp_matrix_new(&N, GSP_INT32, 3, 4));
  cr_assert_eq(gsp_star_factor(&F, N, GSP_MIN_PLUS, NULL), GSP_DIMENSION_MISMATCH);
  GSP_OK(gsp_matrix_new(&Z, GSP_FP32, 2, 2));
  GSP_OK(gsp_matrix_set_element(Z, 0, 1, &(float){NAN}));
  cr_assert_eq(gsp_star_factor(&F, Z, GSP_MIN_PLUS, NULL), GSP_INVALID_VALUE);
  cr_assert_null(F);
  GSP_OK(gsp_star_factor(&F, A, GSP_MIN_PLUS, NULL));
  gsp_matrix R = NULL;
  cr_assert_eq(gsp_star_rows(&R, F, (const gsp_index[]){25}, 1), GSP_INVALID_INDEX);
  cr_assert_eq(gsp_star_rows(&R, F, NULL, 3), GSP_NULL_POINTER);
  cr_assert_null(R);
  /* another pattern, or another type, is not a refactorization */
  B = grid(GSP_INT32, 5, 5, 2);
  GSP_OK(gsp_matrix_remove_element(B, 0, 1));
  cr_assert_eq(gsp_star_refactor(F, B), GSP_INVALID_VALUE);
  GSP_OK(gsp_matrix_free(&B));
  B = grid(GSP_INT64, 5, 5, 2);
  cr_assert_eq(gsp_star_refactor(F, B), GSP_INVALID_VALUE);
  /* F still answers as before */
  GSP_OK(gsp_star_rows(&R, F, NULL, 25));
  gsp_matrix D = dense_star(A, GSP_MIN_PLUS);
  gsp_test_assert_matrix_same(R, D, 0);
  G = F;
  GSP_OK(gsp_star_free(&F));
  cr_assert_eq(gsp_star_rows(&R, G, NULL, 25), GSP_INVALID_OBJECT);
  GSP_OK(gsp_star_free(&F)); /* NULL-safe */
  GSP_OK(gsp_matrix_free(&R));
  GSP_OK(gsp_matrix_free(&D));
  GSP_OK(gsp_matrix_free(&A));
  GSP_OK(gsp_matrix_free(&B));
  GSP_OK(gsp_matrix_free(&N));
  GSP_OK(gsp_matrix_free(&Z));
}

/* gsp_apsp's AUTO analyzes and picks the sparse star on a grid (deep, small
 * separators) and leaves a random graph of average degree 4 (shallow, the
 * factor fills in) to the relaxation without analyzing it. */
Test(star, apsp_auto_picks_the_star_where_it_wins) {
  gsp_matrix G = grid(GSP_INT32, 60, 60, 5), R = NULL, D = NULL, DS = NULL, DF = NULL;
  gsp_apsp_report rep;
  gsp_apsp_advanced adv = {.report = &rep};
  gsp_apsp_opts o = {.backend = GSP_BACKEND_CPU, .advanced = &adv};
  GSP_OK(gsp_apsp(&D, NULL, G, &o));
  cr_assert_eq(rep.algo, GSP_APSP_SPARSE_STAR);
  cr_assert(rep.predicted_seconds[GSP_APSP_SPARSE_STAR] < rep.predicted_seconds[GSP_APSP_MSSSP]);
  o.algo = GSP_APSP_FLOYD_WARSHALL;
  GSP_OK(gsp_apsp(&DF, NULL, G, &o));
  gsp_test_assert_matrix_same(D, DF, 0);
  GSP_OK(gsp_generate_random(&R, GSP_INT32, 4000, 16000, 1, 9, 3));
  o.algo = GSP_APSP_AUTO;
  adv.dry_run = true;
  GSP_OK(gsp_apsp(&DS, NULL, R, &o));
  cr_assert_eq(rep.algo, GSP_APSP_MSSSP);
  cr_assert(isinf(rep.predicted_seconds[GSP_APSP_SPARSE_STAR]), "the random graph was analyzed: %g s",
            rep.predicted_seconds[GSP_APSP_SPARSE_STAR]);
  GSP_OK(gsp_matrix_free(&G));
  GSP_OK(gsp_matrix_free(&R));
  GSP_OK(gsp_matrix_free(&D));
  GSP_OK(gsp_matrix_free(&DF));
}

/* A negative cycle through gsp_apsp's star: named, outputs untouched; the
 * CUDA backend required is refused (the star runs on the CPU). */
Test(star, apsp_negative_cycle_and_backend) {
  gsp_matrix A = grid(GSP_INT64, 8, 9, 2), D = NULL;
  GSP_OK(gsp_matrix_set_element(A, 20, 21, &(int64_t){-40}));
  gsp_apsp_opts o = {.algo = GSP_APSP_SPARSE_STAR, .backend = GSP_BACKEND_CPU};
  cr_assert_eq(gsp_apsp(&D, NULL, A, &o), GSP_NEGATIVE_CYCLE);
  cr_assert_null(D);
  cr_assert(strstr(gsp_last_error(), "20 -> 21"), "%s", gsp_last_error());
  GSP_OK(gsp_matrix_set_element(A, 20, 21, &(int64_t){4}));
  o.backend = GSP_BACKEND_CUDA;
  const gsp_info info = gsp_apsp(&D, NULL, A, &o);
  cr_assert(info == GSP_INVALID_VALUE || info == GSP_NO_DEVICE, "%s", gsp_strerror(info));
  cr_assert_null(D);
  GSP_OK(gsp_matrix_free(&A));
}

/* Cross-check with SuiteSparse:GraphBLAS, as the other closures are: the
 * star by repeated squaring, D = I + A, D = D + D (x) D to a fixpoint,
 * against every row of the factorization (directed random graphs, MIN_PLUS
 * and MAX_MIN, two types each). */
Test(star, graphblas_oracle) {
  gsp_test_grb_init();
  const gsp_semiring srs[] = {GSP_MIN_PLUS, GSP_MAX_MIN};
  const gsp_binop adds[] = {GSP_MIN, GSP_MAX};
  const gsp_type types[] = {GSP_INT64, GSP_FP32};
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < 2; k++) {
      const gsp_index n = 90;
      int64_t lo, hi;
      gsp_test_range(srs[i], &lo, &hi);
      if (srs[i] == GSP_MIN_PLUS) lo = 0;
      gsp_matrix A = gsp_test_random_matrix(types[k], n, n, 3.0 / (double)n, lo, hi, 77 + (uint64_t)(2 * i + k));
      gsp_matrix I = NULL, R = NULL;
      GSP_OK(gsp_matrix_new(&I, types[k], n, n));
      char one[16];
      gsp_test_value_set_f64(types[k], one, srs[i] == GSP_MIN_PLUS ? 0.0 : INFINITY);
      if (types[k] == GSP_INT64 && srs[i] == GSP_MAX_MIN) *(int64_t *)one = INT64_MAX;
      for (gsp_index v = 0; v < n; v++) GSP_OK(gsp_matrix_set_element(I, v, v, one));
      GrB_Matrix GA = gsp_test_to_grb_matrix(A), GI = gsp_test_to_grb_matrix(I), D = NULL, D2 = NULL;
      GrB_BinaryOp add = gsp_test_grb_binop(adds[i], types[k]);
      GrB_Semiring sr = gsp_test_grb_semiring(srs[i], types[k]);
      GRB_OK(GrB_Matrix_new(&D, gsp_test_grb_type(types[k]), n, n));
      GRB_OK(GrB_Matrix_eWiseAdd_BinaryOp(D, NULL, NULL, add, GI, GA, NULL));
      for (int it = 0; it < 10; it++) { /* 2^10 > n hops */
        GRB_OK(GrB_Matrix_dup(&D2, D));
        GRB_OK(GrB_mxm(D2, NULL, add, sr, D, D, NULL));
        GrB_Matrix_free(&D);
        D = D2;
      }
      gsp_test_context("GraphBLAS, %s %s: ", gsp_test_semiring_name(srs[i]), gsp_test_type_name(types[k]));
      gsp_star F = NULL;
      GSP_OK(gsp_star_factor(&F, A, srs[i], NULL));
      GSP_OK(gsp_star_rows(&R, F, NULL, n));
      gsp_test_assert_matrix_eq(R, D, 0);
      GSP_OK(gsp_star_free(&F));
      GrB_Matrix_free(&D), GrB_Matrix_free(&GA), GrB_Matrix_free(&GI);
      GSP_OK(gsp_matrix_free(&A));
      GSP_OK(gsp_matrix_free(&I));
      GSP_OK(gsp_matrix_free(&R));
    }
}

/* gsp_closure of a matrix stored sparse: the sparse star's branch takes a
 * grid (and gives what Floyd-Warshall gives on the same matrix stored
 * dense), leaves a random graph and OR_AND alone, and reports a negative
 * cycle with M unchanged. */
Test(star, closure_branch) {
  for (int k = 0; k < 4; k++) {
    gsp_matrix A = grid(num_types[k], 30, 31, 8), C = NULL, Dn = NULL;
    gsp_index n = 0;
    GSP_OK(gsp_matrix_nrows(&n, A));
    GSP_OK(gsp_matrix_dup(&C, A));
    bool done = false;
    GSP_OK(gsp__star_closure_try(C, NULL, GSP_MIN_PLUS, false, &done, NULL, "test"));
    cr_assert(done, "the grid was not taken by the sparse star");
    /* the same matrix stored dense goes to Floyd-Warshall */
    const size_t es = gsp_type_size(num_types[k]);
    void *x = malloc(n * n * es);
    char absent[16];
    gsp_test_value_set_f64(num_types[k], absent, INFINITY);
    if (num_types[k] == GSP_INT32) *(int32_t *)absent = INT32_MAX;
    if (num_types[k] == GSP_INT64) *(int64_t *)absent = INT64_MAX;
    GSP_OK(gsp_matrix_export_dense(x, absent, A));
    GSP_OK(gsp_matrix_import_dense(&Dn, num_types[k], n, n, x, absent));
    GSP_OK(gsp_closure(Dn, GSP_MIN_PLUS));
    gsp_test_assert_matrix_same(C, Dn, 0);
    /* and gsp_closure itself on the sparse matrix */
    GSP_OK(gsp_closure(A, GSP_MIN_PLUS));
    gsp_test_assert_matrix_same(A, Dn, 0);
    free(x);
    GSP_OK(gsp_matrix_free(&A));
    GSP_OK(gsp_matrix_free(&C));
    GSP_OK(gsp_matrix_free(&Dn));
  }
  gsp_matrix R = NULL, B = NULL;
  GSP_OK(gsp_generate_random(&R, GSP_INT32, 2000, 8000, 1, 9, 3));
  bool done = true;
  GSP_OK(gsp__star_closure_try(R, NULL, GSP_MIN_PLUS, false, &done, NULL, "test"));
  cr_assert(!done, "a random graph of average degree 4 went to the sparse star");
  B = grid(GSP_INT32, 30, 31, 8);
  gsp_matrix Bb = NULL;
  GSP_OK(gsp_matrix_cast(&Bb, B, GSP_BOOL));
  done = true;
  GSP_OK(gsp__star_closure_try(Bb, NULL, GSP_OR_AND, false, &done, NULL, "test"));
  cr_assert(!done);
  /* a negative cycle: reported, M as it was */
  GSP_OK(gsp_matrix_set_element(B, 100, 101, &(int32_t){-50}));
  gsp_matrix B0 = NULL;
  GSP_OK(gsp_matrix_dup(&B0, B));
  cr_assert_eq(gsp_closure(B, GSP_MIN_PLUS), GSP_NEGATIVE_CYCLE);
  gsp_test_assert_matrix_same(B, B0, 0);
  GSP_OK(gsp_matrix_free(&R));
  GSP_OK(gsp_matrix_free(&B));
  GSP_OK(gsp_matrix_free(&Bb));
  GSP_OK(gsp_matrix_free(&B0));
}

/* "Brutal" allocation failures (test_alloc_failures' walk): the k-th
 * allocation of gsp_star_factor, gsp_star_rows, gsp_star_refactor and
 * gsp_apsp's star fails for k = 0, 1, ... until the call succeeds; each
 * failed call returns GSP_OUT_OF_MEMORY and leaves its outputs as they
 * were (the sanitizer build catches leaks). */
Test(star, allocation_failures) {
  gsp_matrix A = grid(GSP_INT32, 9, 11, 6), S = (gsp_matrix)&A; /* a sentinel */
  gsp_star F = NULL;
  long long k = 0;
  for (;; k++) {
    gsp__debug_fail_after(k);
    const gsp_info info = gsp_star_factor(&F, A, GSP_MIN_PLUS, NULL);
    gsp__debug_fail_after(-1);
    if (info == GSP_SUCCESS) break;
    cr_assert_eq(info, GSP_OUT_OF_MEMORY, "factor, failure %lld: %s", k, gsp_strerror(info));
    cr_assert_null(F);
  }
  cr_assert(k > 3, "only %lld allocations", k);
  for (k = 0;; k++) {
    gsp_matrix R = S;
    gsp__debug_fail_after(k);
    const gsp_info info = gsp_star_rows(&R, F, NULL, 99);
    gsp__debug_fail_after(-1);
    if (info == GSP_SUCCESS) {
      GSP_OK(gsp_matrix_free(&R));
      break;
    }
    cr_assert_eq(info, GSP_OUT_OF_MEMORY, "rows, failure %lld: %s", k, gsp_strerror(info));
    cr_assert_eq(R, S);
  }
  for (k = 0;; k++) {
    gsp__debug_fail_after(k);
    const gsp_info info = gsp_star_refactor(F, A);
    gsp__debug_fail_after(-1);
    if (info == GSP_SUCCESS) break;
    cr_assert_eq(info, GSP_OUT_OF_MEMORY, "refactor, failure %lld: %s", k, gsp_strerror(info));
  }
  for (k = 0;; k++) {
    gsp_matrix D = S, P = S;
    gsp_apsp_opts o = {.algo = GSP_APSP_SPARSE_STAR, .backend = GSP_BACKEND_CPU};
    gsp__debug_fail_after(k);
    const gsp_info info = gsp_apsp(&D, &P, A, &o);
    gsp__debug_fail_after(-1);
    if (info == GSP_SUCCESS) {
      GSP_OK(gsp_matrix_free(&D));
      GSP_OK(gsp_matrix_free(&P));
      break;
    }
    cr_assert_eq(info, GSP_OUT_OF_MEMORY, "apsp, failure %lld: %s", k, gsp_strerror(info));
    cr_assert(D == S && P == S);
  }
  GSP_OK(gsp_star_free(&F));
  GSP_OK(gsp_matrix_free(&A));
}

/* Every successor walk i -> ... -> j of M's closure, with its arc weights
 * summed along it (in A's type, as path sums are), against the distance. */
static void assert_succ_walks(gsp_matrix A, gsp_matrix C, gsp_matrix S) {
  gsp_index n = 0;
  GSP_OK(gsp_matrix_nrows(&n, A));
  double *w = malloc(n * n * sizeof *w), *d = malloc(n * n * sizeof *d);
  const double absent = INFINITY;
  gsp_matrix Af = NULL, Cf = NULL;
  GSP_OK(gsp_matrix_cast(&Cf, C, GSP_FP64));
  GSP_OK(gsp_matrix_export_dense(d, &absent, Cf));
  GSP_OK(gsp_matrix_cast(&Af, A, GSP_FP64));
  GSP_OK(gsp_matrix_export_dense(w, &absent, Af));
  GSP_OK(gsp_matrix_free(&Cf));
  gsp_index *path = malloc(n * sizeof *path);
  for (gsp_index i = 0; i < n; i++)
    for (gsp_index j = 0; j < n; j++) {
      gsp_index len = n;
      const gsp_info info = gsp_path_from_succ(path, &len, S, i, j);
      if (isinf(d[i * n + j])) {
        cr_assert_eq(info, GSP_NO_VALUE, "%llu -> %llu: no distance but a path", (unsigned long long)i,
                     (unsigned long long)j);
        continue;
      }
      cr_assert_eq(info, GSP_SUCCESS, "%llu -> %llu: %s", (unsigned long long)i, (unsigned long long)j,
                   gsp_last_error());
      double sum = 0;
      for (gsp_index q = 1; q < len; q++) sum += w[path[q - 1] * n + path[q]];
      cr_assert_eq(sum, d[i * n + j], "%llu -> %llu: the walk sums to %g, the distance is %g", (unsigned long long)i,
                   (unsigned long long)j, sum, d[i * n + j]);
    }
  free(w), free(d), free(path);
  GSP_OK(gsp_matrix_free(&Af));
}

/* gsp_closure_ext with successors on a sparse grid: the star computes both
 * (the same distances as Floyd-Warshall on the dense copy, successors
 * whose walks give them), with zero weights (ties) and negative arcs. */
Test(star, closure_successors) {
  for (int variant = 0; variant < 3; variant++) {
    gsp_matrix G = NULL, A = NULL;
    GSP_OK(gsp_generate_grid(&G, GSP_INT64, 21, 22, variant == 1 ? 0 : 1, variant == 1 ? 2 : 9, 5));
    if (variant == 2) { /* potentials: negative arcs, no negative cycle */
      gsp_index m = 0;
      GSP_OK(gsp_matrix_nvals(&m, G));
      gsp_index *I = malloc(m * sizeof *I), *J = malloc(m * sizeof *J);
      int64_t *X = malloc(m * sizeof *X);
      GSP_OK(gsp_matrix_extract_tuples(I, J, X, &m, G));
      for (gsp_index e = 0; e < m; e++) X[e] += (int64_t)((I[e] * 31) % 7) - (int64_t)((J[e] * 31) % 7);
      GSP_OK(gsp_matrix_clear(G));
      GSP_OK(gsp_matrix_build(G, I, J, X, m, GSP_DUP_ERROR));
      free(I), free(J), free(X);
    }
    GSP_OK(gsp_matrix_cast(&A, G, variant == 0 ? GSP_FP32 : GSP_INT64));
    gsp_test_context("successors, variant %d: ", variant);
    gsp_matrix C = NULL, S = NULL, D = dense_star(A, GSP_MIN_PLUS), C2 = NULL;
    GSP_OK(gsp_matrix_dup(&C, A));
    bool done = false;
    GSP_OK(gsp__star_closure_try(C, &S, GSP_MIN_PLUS, false, &done, NULL, "test"));
    cr_assert(done);
    gsp_test_assert_matrix_same(C, D, 0);
    assert_succ_walks(A, C, S);
    /* and through gsp_closure_ext */
    GSP_OK(gsp_matrix_free(&S));
    GSP_OK(gsp_matrix_dup(&C2, A));
    GSP_OK(gsp_closure_ext(C2, &S, GSP_MIN_PLUS, NULL));
    gsp_test_assert_matrix_same(C2, D, 0);
    assert_succ_walks(A, C2, S);
    GSP_OK(gsp_matrix_free(&S));
    GSP_OK(gsp_matrix_free(&C));
    GSP_OK(gsp_matrix_free(&C2));
    GSP_OK(gsp_matrix_free(&D));
    GSP_OK(gsp_matrix_free(&G));
    GSP_OK(gsp_matrix_free(&A));
  }
}

/* A graph whose factor cannot fit (a random graph of average degree 4: its
 * separators are a constant fraction of n, so the factor is nearly dense)
 * under a 1.5 GiB address space: a clear GSP_OUT_OF_MEMORY from
 * gsp_star_factor and from gsp_apsp's star, nothing crashes, no output is
 * written. (Criterion runs each test in its own process, so the limit
 * stays here.) */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
Test(star, factor_too_large_for_memory) {
#ifdef UNDER_ASAN
  cr_skip_test("AddressSanitizer reserves terabytes of address space: RLIMIT_AS cannot be tested in this build "
               "(the release build runs it)");
#endif
  gsp_matrix A = NULL, D = (gsp_matrix)&A;
  GSP_OK(gsp_generate_random(&A, GSP_FP32, 40000, 160000, 1, 9, 2));
  const struct rlimit lim = {.rlim_cur = (rlim_t)3 << 29, .rlim_max = RLIM_INFINITY};
  cr_assert_eq(setrlimit(RLIMIT_AS, &lim), 0);
  gsp_star F = NULL;
  const gsp_info info = gsp_star_factor(&F, A, GSP_MIN_PLUS, NULL);
  cr_assert_eq(info, GSP_OUT_OF_MEMORY, "%s: %s", gsp_strerror(info), gsp_last_error());
  cr_assert_null(F);
  cr_assert(strstr(gsp_last_error(), "allocate") || strstr(gsp_last_error(), "memory"), "%s", gsp_last_error());
  gsp_apsp_opts o = {
      .algo = GSP_APSP_SPARSE_STAR, .backend = GSP_BACKEND_CPU, .sources = (const gsp_index[]){0}, .nsources = 1};
  cr_assert_eq(gsp_apsp(&D, NULL, A, &o), GSP_OUT_OF_MEMORY, "%s", gsp_last_error());
  cr_assert_eq(D, (gsp_matrix)&A);
  GSP_OK(gsp_matrix_free(&A));
}

/* The bundled road graphs (one-way streets in the drive graph, int64
 * decimetres): gsp_apsp's star equals msssp exactly, distances and
 * parents (the same rule), every source of helsinki_drive and a spread of
 * 320 sources of helsinki_walk. */
Test(star, helsinki_graphs_equal_msssp) {
  const char *files[] = {GSP_SOURCE_DIR "/data/helsinki_drive.gr.gz", GSP_SOURCE_DIR "/data/helsinki_walk.gr.gz"};
  for (int f = 0; f < 2; f++) {
    gsp_matrix A = NULL, D[2] = {NULL, NULL}, P[2] = {NULL, NULL};
    GSP_OK(gsp_matrix_read(&A, files[f], NULL));
    gsp_index n = 0;
    GSP_OK(gsp_matrix_nrows(&n, A));
    const gsp_index ns = f == 0 ? n : 320;
    gsp_index *src = malloc(ns * sizeof *src);
    for (gsp_index k = 0; k < ns; k++) src[k] = k * (n / ns);
    const gsp_apsp_algo algos[] = {GSP_APSP_SPARSE_STAR, GSP_APSP_MSSSP};
    for (int a = 0; a < 2; a++) {
      gsp_apsp_opts o = {.algo = algos[a], .backend = GSP_BACKEND_CPU, .sources = src, .nsources = ns};
      GSP_OK(gsp_apsp(&D[a], &P[a], A, &o));
    }
    gsp_test_context("%s: ", files[f]);
    gsp_test_assert_matrix_same(D[0], D[1], 0);
    gsp_test_assert_matrix_same(P[0], P[1], 0);
    free(src);
    for (int a = 0; a < 2; a++) {
      GSP_OK(gsp_matrix_free(&D[a]));
      GSP_OK(gsp_matrix_free(&P[a]));
    }
    GSP_OK(gsp_matrix_free(&A));
  }
}
