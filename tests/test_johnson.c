/*
 * Johnson's algorithm inside gsp_apsp (GSP_APSP_JOHNSON, CPU backend):
 * negative weights made by the potential trick (w + p(u) - p(v) on a
 * non-negative graph: same shortest paths, no negative cycle) against a
 * Bellman-Ford reference per source, exact on integer weights (and on
 * integer-valued floats), parents by the rule of the relaxation kernels;
 * equal to Floyd-Warshall and to GraphBLAS vxm relaxation; negative cycles
 * (reachable from every source, from some, or from none) give
 * GSP_NEGATIVE_CYCLE with the cycle named and outputs untouched; INT32
 * graphs whose reweighted sums need INT64; potentials that saturate.
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apsp_test_ref.h"

static void cpu_setup(void) {
  GSP_OK(gsp_set_backend(GSP_BACKEND_CPU));
  GSP_OK(gsp_set_threads(2));
}

TestSuite(johnson, .init = cpu_setup);

#define SENT ((gsp_matrix)(uintptr_t)0x5e47)

static gsp_matrix run(gsp_matrix A, gsp_matrix *P, gsp_apsp_opts o) {
  gsp_matrix D = NULL;
  gsp_apsp_report rep;
  gsp_apsp_advanced oa = o.advanced ? *o.advanced : (gsp_apsp_advanced){0};
  o.advanced = &oa;
  oa.report = &rep;
  GSP_OK(gsp_apsp(&D, P, A, &o));
  cr_assert_eq(rep.algo, o.algo == GSP_APSP_AUTO ? rep.algo : o.algo);
  cr_assert_eq(rep.backend, GSP_BACKEND_CPU);
  return D;
}

Test(johnson, potential_trick_all_types_exact) {
  const family fams[] = {F_RANDOM, F_RMAT, F_GRID, F_RING2, F_DISCONNECTED, F_ZERO, F_COMPLETE};
  for (size_t fi = 0; fi < sizeof fams / sizeof *fams; fi++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A0 = family_matrix(fams[fi], t, 120, 5 + fi), A = potential_trick(A0, 40, 17 + fi);
      tg g = tg_from_matrix(A);
      cr_assert(has_negative(&g), "the trick made no negative arc");
      gsp_test_context("johnson %s %s: ", family_names[fams[fi]], type_name(t));
      gsp_matrix P = NULL, D = run(A, &P, aopts(GSP_APSP_JOHNSON, GSP_BACKEND_CPU));
      gsp_index *all = malloc((size_t)g.n * sizeof *all);
      for (int64_t v = 0; v < g.n; v++) all[v] = (gsp_index)v;
      /* integer-valued weights: exact in every type (sums stay far below 2^24) */
      check_apsp_rows(&g, all, g.n, D, P, (apsp_check){.tol = 0, .rule = true, .cutoff = INFINITY});
      /* without parents: the same distances */
      gsp_matrix D2 = run(A, NULL, aopts(GSP_APSP_JOHNSON, GSP_BACKEND_CPU));
      assert_same(D, D2);
      /* Floyd-Warshall gives the same distances */
      gsp_matrix F = run(A, NULL, aopts(GSP_APSP_FLOYD_WARSHALL, GSP_BACKEND_CPU));
      assert_same(D, F);
      free(all);
      gsp_matrix_free(&D), gsp_matrix_free(&P), gsp_matrix_free(&D2), gsp_matrix_free(&F);
      tg_free(&g);
      gsp_matrix_free(&A0), gsp_matrix_free(&A);
    }
  }
}

/* On a non-negative graph Johnson is the relaxation on a shifted graph:
 * distances and parents equal MSSSP's exactly (integer types). */
Test(johnson, equals_msssp_without_negative_weights) {
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A = family_matrix(F_ZERO, t, 150, 3);
    gsp_test_context("%s: ", type_name(t));
    gsp_matrix Pj = NULL, Pm = NULL;
    gsp_matrix Dj = run(A, &Pj, aopts(GSP_APSP_JOHNSON, GSP_BACKEND_CPU));
    gsp_matrix Dm = run(A, &Pm, aopts(GSP_APSP_MSSSP, GSP_BACKEND_CPU));
    assert_same(Dj, Dm);
    assert_same(Pj, Pm);
    gsp_matrix_free(&Dj), gsp_matrix_free(&Pj), gsp_matrix_free(&Dm), gsp_matrix_free(&Pm), gsp_matrix_free(&A);
  }
}

/* Rows against GraphBLAS: d = e_s, d = min(d, d min.+ A) to a fixpoint is
 * Bellman-Ford, so it holds for negative weights too. */
Test(johnson, graphblas_rows) {
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A0 = family_matrix(F_RMAT, t, 128, 21), A = potential_trick(A0, 25, 4);
    gsp_index n;
    GSP_OK(gsp_matrix_nrows(&n, A));
    const gsp_index src[] = {0, 7, 7, n - 1, 64};
    gsp_apsp_opts o = aopts(GSP_APSP_JOHNSON, GSP_BACKEND_CPU);
    o.sources = src, o.nsources = 5;
    gsp_matrix D = run(A, NULL, o);
    double *x = dense_all(D, INFINITY);
    for (int r = 0; r < 5; r++) {
      gsp_test_context("GraphBLAS %s row %d: ", type_name(t), r);
      GrB_Vector G = grb_sssp(A, t, src[r]);
      GrB_Index nv, present = 0;
      GRB_OK(GrB_Vector_nvals(&nv, G));
      for (GrB_Index v = 0; v < n; v++) {
        double y;
        GrB_Info gi = GrB_Vector_extractElement_FP64(&y, G, v);
        if (gi == GrB_NO_VALUE) {
          cr_assert(isinf(x[r * n + v]), "%sentry %llu = %g in gsp, absent in GraphBLAS", gsp_test_ctx,
                    (unsigned long long)v, x[r * n + v]);
        } else {
          cr_assert(x[r * n + v] == y, "%sentry %llu: gsp %.17g, GraphBLAS %.17g", gsp_test_ctx, (unsigned long long)v,
                    x[r * n + v], y);
          present++;
        }
      }
      cr_assert_eq(present, nv);
      GrB_free(&G);
    }
    free(x);
    gsp_matrix_free(&D), gsp_matrix_free(&A0), gsp_matrix_free(&A);
  }
}

/* Only part of the graph is reachable from some sources: a DAG whose arcs
 * all go from lower to higher vertices, negative weights included. */
Test(johnson, partly_reachable_negative_dag) {
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A = NULL;
    GSP_OK(gsp_generate_dag(&A, t, 90, 500, -30, 20, 11));
    tg g = tg_from_matrix(A);
    cr_assert(has_negative(&g));
    const gsp_index src[] = {0, 45, 89, 3};
    gsp_apsp_opts o = aopts(GSP_APSP_JOHNSON, GSP_BACKEND_CPU);
    o.sources = src, o.nsources = 4;
    gsp_test_context("dag %s: ", type_name(t));
    gsp_matrix P = NULL, D = run(A, &P, o);
    check_apsp_rows(&g, src, 4, D, P, (apsp_check){.tol = 0, .rule = true, .cutoff = INFINITY});
    /* the last vertex reaches nothing but itself */
    gsp_index nv = 0;
    gsp_matrix R = NULL;
    const gsp_index last = 89;
    o.sources = &last, o.nsources = 1;
    R = run(A, NULL, o);
    GSP_OK(gsp_matrix_nvals(&nv, R));
    cr_assert_eq(nv, 1);
    gsp_matrix_free(&R), gsp_matrix_free(&D), gsp_matrix_free(&P), gsp_matrix_free(&A);
    tg_free(&g);
  }
}

/* A negative cycle on vertices 40..42 of a graph whose first half cannot
 * reach it: GSP_NEGATIVE_CYCLE whatever the sources (also one that does
 * not reach the cycle), the cycle named, and nothing written. */
Test(johnson, negative_cycle_anywhere) {
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_index I[64], J[64];
    double X[64];
    int m = 0;
    for (int v = 0; v < 19; v++) I[m] = v, J[m] = v + 1, X[m++] = 3;   /* 0..19 chain */
    for (int v = 30; v < 49; v++) I[m] = v, J[m] = v + 1, X[m++] = -1; /* 30..49 chain */
    I[m] = 40, J[m] = 41, X[m++] = 2;                                  /* duplicate of 40->41 replaced below */
    m--;
    I[m] = 42, J[m] = 40, X[m++] = -1; /* 40 -> 41 -> 42 -> 40 sums to -3 */
    gsp_matrix F = NULL, A = NULL;
    GSP_OK(gsp_matrix_new(&F, GSP_FP64, 50, 50));
    GSP_OK(gsp_matrix_build(F, I, J, X, (gsp_index)m, GSP_DUP_ERROR));
    GSP_OK(gsp_matrix_cast(&A, F, t));
    const gsp_index far[] = {0, 5}, near[] = {31};
    for (int algo = 0; algo < 2; algo++) {
      for (int q = 0; q < 3; q++) {
        gsp_apsp_opts o = aopts(algo ? GSP_APSP_FLOYD_WARSHALL : GSP_APSP_JOHNSON, GSP_BACKEND_CPU);
        gsp_apsp_advanced oa = {0};
        o.advanced = &oa;
        if (q == 0) o.sources = far, o.nsources = 2;
        if (q == 1) o.sources = near, o.nsources = 1;
        gsp_matrix D = SENT, P = SENT;
        gsp_apsp_report rep = {.row_blocks = 12345};
        oa.report = &rep;
        gsp_info info = gsp_apsp(&D, q == 2 ? NULL : &P, A, &o);
        cr_assert_eq(info, GSP_NEGATIVE_CYCLE, "%s %s sources %d: %s", type_name(t), apsp_algo_names[o.algo], q,
                     gsp_strerror(info));
        cr_assert(D == SENT && P == SENT, "output written on a negative cycle");
        cr_assert_eq(rep.row_blocks, 12345, "report written on error");
        cr_assert(strstr(gsp_last_error(), "40 -> 41 -> 42 -> 40") != NULL, "message: %s", gsp_last_error());
      }
    }
    /* with the cycle's arc removed, it runs */
    gsp_matrix_free(&F), gsp_matrix_free(&A);
  }
}

/* INT32 arcs whose reweighted path sums exceed INT32 are relaxed in INT64:
 * results still exact, and distances that do not fit INT32 become "no
 * path" in an INT32 result as saturation would make them. */
Test(johnson, int32_widens_to_int64) {
  /* a chain 0 -> 1 -> ... -> 39 of weight 2e8 each plus a shortcut of
   * weight -1e9 from 0 to 39: the potential of 39 is -1e9, so reweighted
   * chain arcs sum to 39 * 2e8 + 1e9 > INT32_MAX */
  enum { N = 40 };
  gsp_index I[N + 1], J[N + 1];
  int64_t X[N + 1];
  int m = 0;
  for (int v = 0; v + 1 < N; v++) I[m] = v, J[m] = v + 1, X[m++] = 200000000;
  I[m] = 0, J[m] = N - 1, X[m++] = -1000000000;
  gsp_matrix A64 = NULL, A = NULL;
  GSP_OK(gsp_matrix_new(&A64, GSP_INT64, N, N));
  GSP_OK(gsp_matrix_build(A64, I, J, X, (gsp_index)m, GSP_DUP_ERROR));
  GSP_OK(gsp_matrix_cast(&A, A64, GSP_INT32));
  tg g = tg_from_matrix(A64);
  gsp_matrix P = NULL, D = run(A64, &P, aopts(GSP_APSP_JOHNSON, GSP_BACKEND_CPU));
  gsp_index all[N];
  for (int v = 0; v < N; v++) all[v] = (gsp_index)v;
  gsp_test_context("int64: ");
  check_apsp_rows(&g, all, N, D, P, (apsp_check){.tol = 0, .rule = true, .cutoff = INFINITY});
  /* INT32: distances above INT32_MAX - 1 saturate to "no path" */
  gsp_matrix P32 = NULL, D32 = run(A, &P32, aopts(GSP_APSP_JOHNSON, GSP_BACKEND_CPU));
  double *a = dense_all(D, INFINITY), *b = dense_all(D32, INFINITY);
  int saturated = 0;
  for (int k = 0; k < N * N; k++) {
    const double want = a[k] <= (double)INT32_MAX - 1 && a[k] >= (double)INT32_MIN ? a[k] : INFINITY;
    cr_assert(b[k] == want, "entry %d: int32 %.17g, int64 %.17g", k, b[k], a[k]);
    saturated += !isinf(a[k]) && isinf(b[k]);
  }
  cr_assert_gt(saturated, 0, "the test should have distances beyond INT32");
  /* and the same as Floyd-Warshall on INT32 (saturating) */
  gsp_matrix F = run(A, NULL, aopts(GSP_APSP_FLOYD_WARSHALL, GSP_BACKEND_CPU));
  assert_same(D32, F);
  free(a), free(b);
  gsp_matrix_free(&D), gsp_matrix_free(&P), gsp_matrix_free(&D32), gsp_matrix_free(&P32), gsp_matrix_free(&F);
  gsp_matrix_free(&A64), gsp_matrix_free(&A);
  tg_free(&g);
}

/* Potentials below INT32_MIN: GSP_TOO_LARGE with a message, nothing written;
 * the same graph in INT64 runs. Weights beyond INT64 when reweighted:
 * GSP_TOO_LARGE. */
Test(johnson, saturation_is_refused) {
  enum { N = 8 };
  gsp_index I[N], J[N];
  int64_t X[N];
  for (int v = 0; v + 1 < N; v++) I[v] = v, J[v] = v + 1, X[v] = -1000000000;
  gsp_matrix A64 = NULL, A = NULL;
  GSP_OK(gsp_matrix_new(&A64, GSP_INT64, N, N));
  GSP_OK(gsp_matrix_build(A64, I, J, X, N - 1, GSP_DUP_ERROR));
  GSP_OK(gsp_matrix_cast(&A, A64, GSP_INT32));
  gsp_matrix D = SENT;
  gsp_apsp_opts o = aopts(GSP_APSP_JOHNSON, GSP_BACKEND_CPU);
  gsp_info info = gsp_apsp(&D, NULL, A, &o);
  cr_assert_eq(info, GSP_TOO_LARGE, "%s: %s", gsp_strerror(info), gsp_last_error());
  cr_assert(strstr(gsp_last_error(), "potential"), "%s", gsp_last_error());
  cr_assert_eq(D, SENT);
  GSP_OK(gsp_apsp(&D, NULL, A64, &o));
  int64_t d = 0;
  GSP_OK(gsp_matrix_extract_element(&d, D, 0, N - 1));
  cr_assert_eq(d, -7000000000LL);
  gsp_matrix_free(&D);
  /* INT64 weights near the limit */
  gsp_matrix B = NULL;
  const gsp_index bi[] = {0, 2}, bj[] = {1, 1}; /* w'(0,1) = INT64_MAX - 1 */
  const int64_t bx[] = {INT64_MAX / 2, -(INT64_MAX / 2)};
  GSP_OK(gsp_matrix_new(&B, GSP_INT64, 3, 3));
  GSP_OK(gsp_matrix_build(B, bi, bj, bx, 2, GSP_DUP_ERROR));
  D = SENT;
  info = gsp_apsp(&D, NULL, B, &o);
  cr_assert_eq(info, GSP_TOO_LARGE, "%s: %s", gsp_strerror(info), gsp_last_error());
  cr_assert_eq(D, SENT);
  gsp_matrix_free(&A64), gsp_matrix_free(&A), gsp_matrix_free(&B);
}

/* Fractional float weights with negative arcs: Johnson within rounding of
 * the Bellman-Ford reference, every parent chain summing to its distance
 * within the same tolerance. */
Test(johnson, fractional_floats) {
  for (int ti = 2; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    /* fractional weights in [0, 4), integer potentials in [-24, 24] */
    gsp_matrix A0 = family_matrix(F_FRACTION, t, 100, 8), A = potential_trick(A0, 24, 3);
    tg g = tg_from_matrix(A);
    gsp_test_context("%s: ", type_name(t));
    gsp_matrix P = NULL, D = run(A, &P, aopts(GSP_APSP_JOHNSON, GSP_BACKEND_CPU));
    gsp_index all[100];
    for (int v = 0; v < 100; v++) all[v] = (gsp_index)v;
    const double tol = t == GSP_FP32 ? 2e-4 : 1e-11;
    check_apsp_rows(&g, all, 100, D, P, (apsp_check){.tol = tol, .rule = false, .cutoff = INFINITY});
    gsp_matrix_free(&D), gsp_matrix_free(&P), gsp_matrix_free(&A0), gsp_matrix_free(&A);
    tg_free(&g);
  }
}

/* Cutoff with negative weights: kept distances are exactly those <= the
 * cutoff, and a kept vertex's tree path may pass vertices beyond it, whose
 * parents therefore stay. */
Test(johnson, cutoff_keeps_tree_paths) {
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A0 = family_matrix(F_RANDOM, t, 100, 9), A = potential_trick(A0, 30, 5);
    tg g = tg_from_matrix(A);
    const gsp_index src[] = {1, 50, 99};
    const double cuts[] = {0, 3, 17.5, 40};
    for (int c = 0; c < 4; c++) {
      gsp_apsp_opts o = aopts(GSP_APSP_JOHNSON, GSP_BACKEND_CPU);
      o.sources = src, o.nsources = 3, o.has_cutoff = true, o.cutoff = cuts[c];
      gsp_test_context("%s cutoff %g: ", type_name(t), cuts[c]);
      gsp_matrix P = NULL, D = run(A, &P, o);
      check_apsp_rows(&g, src, 3, D, P, (apsp_check){.tol = 0, .rule = false, .cutoff = cuts[c]});
      /* the same distances from Floyd-Warshall with the cutoff */
      o.algo = GSP_APSP_FLOYD_WARSHALL;
      gsp_matrix F = run(A, NULL, o);
      assert_same(D, F);
      gsp_matrix_free(&D), gsp_matrix_free(&P), gsp_matrix_free(&F);
    }
    gsp_matrix_free(&A0), gsp_matrix_free(&A);
    tg_free(&g);
  }
}
