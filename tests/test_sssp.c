/*
 * gsp_sssp, gsp_nearest_source and gsp_path_from_parent on the CPU
 * backend: every algorithm on every weight type over random, R-MAT, grid,
 * ring, complete, disconnected, zero-weight, fractional and float-absorbing
 * graphs, checked against a reference Dijkstra in A's own arithmetic (so
 * every comparison is exact, floats included), the parent rule rebuilt
 * from scratch, parent chains summed back to the distance, and
 * SuiteSparse:GraphBLAS vxm relaxation to a fixpoint. Then cutoffs, delta
 * choices, thread counts, saturation, argument errors and allocation
 * failures.
 */
#define GSP_ADVANCED_API /* gsp_run_report */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gsp_internal.h" /* gsp__debug_fail_after */
#include "sssp_test_ref.h"

static void cpu_setup(void) {
  GSP_OK(gsp_set_backend(GSP_BACKEND_CPU));
  GSP_OK(gsp_set_threads(2));
}

TestSuite(sssp, .init = cpu_setup);

static gsp_sssp_opts opts_for(gsp_sssp_algo a) {
  gsp_sssp_opts o = {0};
  o.algo = a;
  o.backend = GSP_BACKEND_CPU;
  return o;
}

/* One run of gsp_sssp checked against the references. */
static void run_check(gsp_matrix A, const tg *g, gsp_index src, const gsp_sssp_opts *o, bool paths) {
  gsp_vector d = NULL, p = NULL;
  GSP_OK(gsp_sssp(&d, &p, A, src, o));
  const int64_t s = (int64_t)src;
  check_sssp_result(g, &s, 1, o->has_cutoff ? o->cutoff : INFINITY, d, p, NULL);
  if (paths) check_paths(g, d, p, 200);
  /* without parents: same distances */
  gsp_vector d2 = NULL;
  GSP_OK(gsp_sssp(&d2, NULL, A, src, o));
  gsp_test_assert_vector_same(d, d2, 0);
  gsp_vector_free(&d), gsp_vector_free(&p), gsp_vector_free(&d2);
}

Test(sssp, families_types_algorithms) {
  for (int f = 0; f < F_COUNT; f++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A = family_matrix((family)f, t, 300, 11 + (uint64_t)f);
      tg g = tg_from_matrix(A);
      const gsp_index srcs[2] = {0, (gsp_index)(g.n / 2 + 1) % (gsp_index)g.n};
      for (int si = 0; si < 2; si++) {
        for (size_t ai = 0; ai < 4; ai++) {
          gsp_test_context("%s %s src %llu %s", family_names[f], type_name(t), (unsigned long long)srcs[si],
                           sssp_algo_names[sssp_algos[ai]]);
          gsp_sssp_opts o = opts_for(sssp_algos[ai]);
          run_check(A, &g, srcs[si], &o, ai == 0);
        }
      }
      tg_free(&g);
      gsp_matrix_free(&A);
    }
  }
}

Test(sssp, graphblas_vxm_fixpoint) {
  for (int f = 0; f < F_COUNT; f++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      if (f == F_ABSORB && (t == GSP_INT32 || t == GSP_INT64)) continue; /* GraphBLAS wraps near INT_MAX */
      gsp_matrix A = family_matrix((family)f, t, 200, 5 + (uint64_t)f);
      for (size_t ai = 0; ai < 4; ai++) {
        gsp_test_context("GraphBLAS %s %s %s", family_names[f], type_name(t), sssp_algo_names[sssp_algos[ai]]);
        gsp_sssp_opts o = opts_for(sssp_algos[ai]);
        gsp_vector d = NULL;
        GSP_OK(gsp_sssp(&d, NULL, A, 3, &o));
        GrB_Vector G = grb_sssp(A, t, 3);
        gsp_test_assert_vector_eq(d, G, 0);
        GrB_free(&G);
        gsp_vector_free(&d);
      }
      gsp_matrix_free(&A);
    }
  }
}

Test(sssp, larger_graphs_all_algorithms_agree) {
  /* big enough that every round runs multi-threaded */
  const family fams[] = {F_RMAT, F_GRID, F_RANDOM, F_ZERO};
  for (size_t fi = 0; fi < 4; fi++) {
    for (size_t ti = 0; ti < 4; ti += 3) { /* INT32 and FP64 */
      const gsp_type t = sssp_types[ti];
      gsp_matrix A = family_matrix(fams[fi], t, 1 << 14, 99);
      tg g = tg_from_matrix(A);
      for (size_t ai = 0; ai < 3; ai++) {
        gsp_test_context("large %s %s %s", family_names[fams[fi]], type_name(t), sssp_algo_names[sssp_algos[ai]]);
        gsp_sssp_opts o = opts_for(sssp_algos[ai]);
        run_check(A, &g, 7, &o, false);
      }
      tg_free(&g);
      gsp_matrix_free(&A);
    }
  }
}

Test(sssp, cutoff) {
  const family fams[] = {F_RANDOM, F_GRID, F_ZERO, F_FRACTION};
  const double cuts[] = {0, 1, 7.5, 12, 30, 1e300, INFINITY};
  for (size_t fi = 0; fi < 4; fi++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A = family_matrix(fams[fi], t, 250, 3);
      tg g = tg_from_matrix(A);
      for (size_t ci = 0; ci < sizeof cuts / sizeof *cuts; ci++) {
        for (size_t ai = 0; ai < 4; ai++) {
          gsp_test_context("cutoff %g %s %s %s", cuts[ci], family_names[fams[fi]], type_name(t),
                           sssp_algo_names[sssp_algos[ai]]);
          gsp_sssp_opts o = opts_for(sssp_algos[ai]);
          o.has_cutoff = true;
          o.cutoff = cuts[ci];
          run_check(A, &g, 1, &o, false);
        }
      }
      tg_free(&g);
      gsp_matrix_free(&A);
    }
  }
}

Test(sssp, delta_widths) {
  const family fams[] = {F_RANDOM, F_ZERO, F_FRACTION, F_RMAT, F_ABSORB};
  const double deltas[] = {0.25, 1, 3, 1000, 1e12};
  for (size_t fi = 0; fi < 5; fi++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A = family_matrix(fams[fi], t, 300, 8);
      tg g = tg_from_matrix(A);
      for (size_t k = 0; k < 5; k++) {
        gsp_test_context("delta %g %s %s", deltas[k], family_names[fams[fi]], type_name(t));
        gsp_sssp_opts o = opts_for(GSP_SSSP_DELTA);
        o.delta = deltas[k];
        run_check(A, &g, 2, &o, false);
      }
      tg_free(&g);
      gsp_matrix_free(&A);
    }
  }
}

Test(sssp, thread_counts) {
  gsp_matrix A = family_matrix(F_RMAT, GSP_FP32, 4096, 21);
  tg g = tg_from_matrix(A);
  for (int nt = 1; nt <= 4; nt++) {
    GSP_OK(gsp_set_threads(nt));
    for (size_t ai = 0; ai < 3; ai++) {
      gsp_test_context("%d threads %s", nt, sssp_algo_names[sssp_algos[ai]]);
      gsp_sssp_opts o = opts_for(sssp_algos[ai]);
      run_check(A, &g, 0, &o, false);
    }
  }
  tg_free(&g);
  gsp_matrix_free(&A);
}

Test(sssp, nearest_source) {
  for (int f = 0; f < F_COUNT; f++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A = family_matrix((family)f, t, 240, 31 + (uint64_t)f);
      tg g = tg_from_matrix(A);
      const gsp_index srcs[] = {0, 5, 17, 5, (gsp_index)g.n - 1};
      const int64_t s64[] = {0, 5, 17, 5, g.n - 1};
      for (size_t ai = 0; ai < 4; ai++) {
        gsp_test_context("nearest %s %s %s", family_names[f], type_name(t), sssp_algo_names[sssp_algos[ai]]);
        gsp_sssp_opts o = opts_for(sssp_algos[ai]);
        gsp_vector d = NULL, s = NULL, p = NULL;
        GSP_OK(gsp_nearest_source(&d, &s, &p, A, srcs, 5, &o));
        check_sssp_result(&g, s64, 5, INFINITY, d, p, s);
        if (ai == 0) check_paths(&g, d, p, 100);
        /* source without parents, and neither */
        gsp_vector d2 = NULL, s2 = NULL;
        GSP_OK(gsp_nearest_source(&d2, &s2, NULL, A, srcs, 5, &o));
        gsp_test_assert_vector_same(s, s2, 0);
        gsp_vector_free(&d2), gsp_vector_free(&s2);
        GSP_OK(gsp_nearest_source(&d2, NULL, NULL, A, srcs, 5, &o));
        gsp_test_assert_vector_same(d, d2, 0);
        gsp_vector_free(&d), gsp_vector_free(&s), gsp_vector_free(&p), gsp_vector_free(&d2);
      }
      tg_free(&g);
      gsp_matrix_free(&A);
    }
  }
}

/* A small graph from tuples. */
Test(sssp, tiny_graphs_and_zero_weights) {
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    for (size_t ai = 0; ai < 4; ai++) {
      gsp_sssp_opts o = opts_for(sssp_algos[ai]);
      gsp_test_context("tiny %s %s", type_name(t), sssp_algo_names[sssp_algos[ai]]);
      gsp_info info;
      /* one vertex, no arcs */
      gsp_matrix A = small_graph(t, 1, NULL, NULL, NULL, 0);
      gsp_vector d = NULL, p = NULL;
      GSP_OK(gsp_sssp(&d, &p, A, 0, &o));
      cr_assert_eq(vget(d, 0, &info), 0);
      cr_assert_eq(vget(p, 0, &info), 0);
      gsp_vector_free(&d), gsp_vector_free(&p), gsp_matrix_free(&A);
      /* zero-weight cycle through the source and a zero self-loop:
       * 0 -0-> 1 -0-> 2 -0-> 0, 2 -0-> 2, 1 -5-> 3, 2 -5-> 3, 4 isolated */
      const gsp_index I[] = {0, 1, 2, 2, 1, 2}, J[] = {1, 2, 0, 2, 3, 3};
      const double W[] = {0, 0, 0, 0, 5, 5};
      A = small_graph(t, 5, I, J, W, 6);
      GSP_OK(gsp_sssp(&d, &p, A, 2, &o));
      cr_assert_eq(vget(d, 0, &info), 0);
      cr_assert_eq(vget(d, 1, &info), 0);
      cr_assert_eq(vget(d, 2, &info), 0);
      cr_assert_eq(vget(d, 3, &info), 5);
      (void)vget(d, 4, &info);
      cr_assert_eq(info, GSP_NO_VALUE, "isolated vertex must be absent");
      cr_assert_eq(vget(p, 2, &info), 2, "parent of the source is itself");
      cr_assert_eq(vget(p, 0, &info), 2);
      cr_assert_eq(vget(p, 1, &info), 0);
      cr_assert_eq(vget(p, 3, &info), 1, "1 and 2 are tight tails of smaller distance: the smaller, 1");
      (void)vget(p, 4, &info);
      cr_assert_eq(info, GSP_NO_VALUE);
      gsp_index nv;
      GSP_OK(gsp_vector_nvals(&nv, d));
      cr_assert_eq(nv, 4);
      gsp_vector_free(&d), gsp_vector_free(&p), gsp_matrix_free(&A);
    }
  }
}

/*
 * The parent rule pinned by hand where it differs from "the smallest tight
 * tail one hop level up from the source" (Bellman-Ford's rule: see
 * test_bellman_ford.c, rule_pinned_by_hand, on the same graph):
 *   0 -1-> 2 -1-> 4 -1-> 7,  0 -2-> 5 -1-> 7,  0 -3-> 6 -0-> 1,
 *   1 -0-> 3, 3 -0-> 1, 7 -0-> 3
 * d = 0 3 1 3 2 2 3 3 from 0. Vertex 7 has the tight tails 4 (two hops
 * from 0) and 5 (one hop), both of smaller distance: parent 4, the
 * smaller (hop levels would give 5). 1 and 3 are ties (their tight tails
 * have distance 3 too). Level 0: 0 and the vertices with a parent of
 * smaller distance (2 4 5 6 7); 1 is one tight hop from 6 and 3 one from
 * 7, so parent(1) = 6 and parent(3) = 7, though 1 is 3's smallest tight
 * tail (hop levels from 0 would give 1: 0-6-1 is shorter in hops than
 * 0-2-4-7). Parents: 0 6 0 7 2 0 0 4.
 * From the sources {6, 0} (gsp_nearest_source): d = 0 0 1 0 2 2 0 3, 1
 * is a tie one hop from the source 6 and 3 one from 1; 7 again takes 4
 * (hop levels: 5). Parents 0 6 0 1 2 0 6 4, roots 0 6 0 6 0 0 6 0.
 */

Test(sssp, parent_rule_pinned_by_hand) {
  const double d0[] = {0, 3, 1, 3, 2, 2, 3, 3}, p0[] = {0, 6, 0, 7, 2, 0, 0, 4};
  const double dn[] = {0, 0, 1, 0, 2, 2, 0, 3}, pn[] = {0, 6, 0, 1, 2, 0, 6, 4}, rn[] = {0, 6, 0, 6, 0, 0, 6, 0};
  for (int nt = 1; nt <= 2; nt++) {
    GSP_OK(gsp_set_threads(nt));
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A = pinned_graph(t);
      for (size_t ai = 0; ai < 4; ai++) {
        gsp_test_context("pinned %s %s %d threads: ", type_name(t), sssp_algo_names[sssp_algos[ai]], nt);
        gsp_sssp_opts o = opts_for(sssp_algos[ai]);
        gsp_info info;
        gsp_vector d = NULL, p = NULL, r = NULL;
        GSP_OK(gsp_sssp(&d, &p, A, 0, &o));
        for (gsp_index v = 0; v < 8; v++) {
          cr_assert_eq(vget(d, v, &info), d0[v], "%sdist[%llu]", gsp_test_ctx, (unsigned long long)v);
          cr_assert_eq(vget(p, v, &info), p0[v], "%sparent[%llu]: %g, expected %g", gsp_test_ctx, (unsigned long long)v,
                       vget(p, v, &info), p0[v]);
        }
        gsp_vector_free(&d), gsp_vector_free(&p);
        const gsp_index srcs[] = {6, 0};
        GSP_OK(gsp_nearest_source(&d, &r, &p, A, srcs, 2, &o));
        for (gsp_index v = 0; v < 8; v++) {
          cr_assert_eq(vget(d, v, &info), dn[v], "%snearest dist[%llu]", gsp_test_ctx, (unsigned long long)v);
          cr_assert_eq(vget(p, v, &info), pn[v], "%snearest parent[%llu]: %g, expected %g", gsp_test_ctx,
                       (unsigned long long)v, vget(p, v, &info), pn[v]);
          cr_assert_eq(vget(r, v, &info), rn[v], "%snearest root[%llu]", gsp_test_ctx, (unsigned long long)v);
        }
        gsp_vector_free(&d), gsp_vector_free(&p), gsp_vector_free(&r);
      }
      gsp_matrix_free(&A);
    }
  }
}

/* A matrix from typed tuples (set_element on an empty matrix would do too,
 * but one build keeps the arrays exact). */
static gsp_matrix typed(gsp_type t, gsp_index n, const gsp_index *I, const gsp_index *J, const void *X, gsp_index m) {
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, t, n, n));
  GSP_OK(gsp_matrix_build(A, I, J, X, m, GSP_DUP_ERROR));
  return A;
}

Test(sssp, integer_saturation_and_infinite_arcs) {
  /* INT32: 0 -> 1 costs MAX-10, 1 -> 2 costs 100: the sum saturates to
   * MAX, which is "no path"; an arc of weight MAX is no arc at all. */
  const gsp_index I[] = {0, 1, 0}, J[] = {1, 2, 3};
  for (size_t ai = 0; ai < 4; ai++) {
    gsp_sssp_opts o = opts_for(sssp_algos[ai]);
    gsp_info info;
    const int32_t w32[] = {INT32_MAX - 10, 100, INT32_MAX};
    gsp_matrix A = typed(GSP_INT32, 4, I, J, w32, 3);
    gsp_vector d = NULL, p = NULL;
    GSP_OK(gsp_sssp(&d, &p, A, 0, &o));
    cr_assert_eq(vget(d, 1, &info), (double)(INT32_MAX - 10));
    (void)vget(d, 2, &info);
    cr_assert_eq(info, GSP_NO_VALUE, "saturated sum must be absent");
    (void)vget(d, 3, &info);
    cr_assert_eq(info, GSP_NO_VALUE, "infinite arc must not reach");
    gsp_vector_free(&d), gsp_vector_free(&p), gsp_matrix_free(&A);

    /* INT64 likewise */
    const int64_t w64[] = {INT64_MAX - 10, 100, INT64_MAX};
    A = typed(GSP_INT64, 4, I, J, w64, 3);
    GSP_OK(gsp_sssp(&d, NULL, A, 0, &o));
    (void)vget(d, 2, &info);
    cr_assert_eq(info, GSP_NO_VALUE);
    (void)vget(d, 3, &info);
    cr_assert_eq(info, GSP_NO_VALUE);
    gsp_vector_free(&d), gsp_matrix_free(&A);

    /* FP32: a +inf arc, and a sum that overflows to +inf */
    const gsp_index If[] = {0, 0, 2}, Jf[] = {1, 2, 3};
    const float wf[] = {INFINITY, FLT_MAX, FLT_MAX};
    A = typed(GSP_FP32, 4, If, Jf, wf, 3);
    GSP_OK(gsp_sssp(&d, &p, A, 0, &o));
    (void)vget(d, 1, &info);
    cr_assert_eq(info, GSP_NO_VALUE);
    cr_assert_eq(vget(d, 2, &info), FLT_MAX);
    (void)vget(d, 3, &info);
    cr_assert_eq(info, GSP_NO_VALUE, "FLT_MAX + FLT_MAX is +inf: unreachable");
    gsp_vector_free(&d), gsp_vector_free(&p), gsp_matrix_free(&A);
  }
}

Test(sssp, input_formats) {
  /* A stored dense (with absent entries) and after a closure */
  gsp_matrix A = family_matrix(F_RANDOM, GSP_INT32, 60, 4);
  tg g = tg_from_matrix(A);
  int32_t *dense = malloc(60 * 60 * sizeof *dense);
  const int32_t absent = -1;
  GSP_OK(gsp_matrix_export_dense(dense, &absent, A));
  gsp_matrix B = NULL;
  GSP_OK(gsp_matrix_import_dense(&B, GSP_INT32, 60, 60, dense, &absent));
  free(dense);
  gsp_test_context("dense input");
  gsp_sssp_opts o = opts_for(GSP_SSSP_AUTO);
  run_check(B, &g, 4, &o, true);
  GSP_OK(gsp_closure(B, GSP_MIN_PLUS));
  tg gc = tg_from_matrix(B);
  gsp_test_context("closure as input");
  run_check(B, &gc, 4, &o, false);
  tg_free(&g), tg_free(&gc);
  gsp_matrix_free(&A), gsp_matrix_free(&B);
}

/* ---- errors: specific codes, outputs untouched ---- */

#define SENTINEL ((gsp_vector)(uintptr_t)0x5a5a)

static void expect_fail(gsp_info want, gsp_matrix A, gsp_index src, const gsp_sssp_opts *o, const char *what) {
  gsp_vector d = SENTINEL, p = SENTINEL;
  gsp_info info = gsp_sssp(&d, &p, A, src, o);
  cr_assert_eq(info, want, "%s: got %s (%s), want %s", what, gsp_strerror(info), gsp_last_error(), gsp_strerror(want));
  cr_assert(d == SENTINEL && p == SENTINEL, "%s: outputs changed on error", what);
  cr_assert(strlen(gsp_last_error()) > 0, "%s: no message", what);
}

Test(sssp, errors) {
  gsp_matrix A = family_matrix(F_RANDOM, GSP_FP64, 20, 1);
  gsp_sssp_opts o = opts_for(GSP_SSSP_AUTO);
  gsp_vector p = NULL;
  cr_assert_eq(gsp_sssp(NULL, &p, A, 0, &o), GSP_NULL_POINTER);
  expect_fail(GSP_NULL_POINTER, NULL, 0, &o, "NULL A");
  expect_fail(GSP_INVALID_INDEX, A, 20, &o, "src == n");
  expect_fail(GSP_INVALID_INDEX, A, (gsp_index)-1, &o, "huge src");

  gsp_matrix freed = NULL;
  GSP_OK(gsp_matrix_dup(&freed, A));
  gsp_matrix stale = freed;
  GSP_OK(gsp_matrix_free(&freed));
  expect_fail(GSP_INVALID_OBJECT, stale, 0, &o, "freed A");

  gsp_matrix R = NULL;
  GSP_OK(gsp_matrix_new(&R, GSP_FP64, 3, 4));
  expect_fail(GSP_DIMENSION_MISMATCH, R, 0, &o, "non-square");
  gsp_matrix_free(&R);

  gsp_matrix Bo = NULL;
  GSP_OK(gsp_matrix_pattern(&Bo, A));
  expect_fail(GSP_DOMAIN_MISMATCH, Bo, 0, &o, "bool");
  gsp_matrix_free(&Bo);

  for (size_t ti = 0; ti < 4; ti++) {
    gsp_matrix N = family_matrix(F_RANDOM, sssp_types[ti], 20, 1);
    char x[8];
    gsp_test_value_set(sssp_types[ti], x, -3);
    GSP_OK(gsp_matrix_set_element(N, 4, 9, x));
    expect_fail(GSP_INVALID_VALUE, N, 0, &o, "negative weight");
    cr_assert(strstr(gsp_last_error(), "Bellman-Ford") && strstr(gsp_last_error(), "A(4,9)"),
              "message should name the arc and the way out: %s", gsp_last_error());
    gsp_matrix_free(&N);
  }
  gsp_matrix Nn = family_matrix(F_RANDOM, GSP_FP32, 20, 1);
  float nan = NAN;
  GSP_OK(gsp_matrix_set_element(Nn, 2, 3, &nan));
  expect_fail(GSP_INVALID_VALUE, Nn, 0, &o, "NaN weight");
  cr_assert(strstr(gsp_last_error(), "NaN"), "%s", gsp_last_error());
  gsp_matrix_free(&Nn);

  gsp_sssp_opts bad = o;
  bad.algo = (gsp_sssp_algo)42;
  expect_fail(GSP_INVALID_VALUE, A, 0, &bad, "bad algorithm");
  bad = o, bad.backend = (gsp_backend)9;
  expect_fail(GSP_INVALID_VALUE, A, 0, &bad, "bad backend");
  bad = o, bad.has_cutoff = true, bad.cutoff = -1;
  expect_fail(GSP_INVALID_VALUE, A, 0, &bad, "negative cutoff");
  bad.cutoff = NAN;
  expect_fail(GSP_INVALID_VALUE, A, 0, &bad, "NaN cutoff");
  bad = o, bad.delta = -2;
  expect_fail(GSP_INVALID_VALUE, A, 0, &bad, "negative delta");
  bad.delta = INFINITY;
  expect_fail(GSP_INVALID_VALUE, A, 0, &bad, "infinite delta");

  bool gpu = false;
  GSP_OK(gsp_cuda_available(&gpu, NULL, 0));
  if (!gpu) {
    bad = o, bad.backend = GSP_BACKEND_CUDA;
    expect_fail(GSP_NO_DEVICE, A, 0, &bad, "CUDA without a device");
  }

  /* nearest source */
  gsp_vector d = SENTINEL, s = SENTINEL;
  const gsp_index srcs[] = {1, 20};
  cr_assert_eq(gsp_nearest_source(&d, &s, NULL, A, NULL, 1, &o), GSP_NULL_POINTER);
  cr_assert_eq(gsp_nearest_source(&d, &s, NULL, A, srcs, 0, &o), GSP_INVALID_VALUE);
  cr_assert_eq(gsp_nearest_source(&d, &s, NULL, A, srcs, 2, &o), GSP_INVALID_INDEX);
  cr_assert(strstr(gsp_last_error(), "sources[1]"), "%s", gsp_last_error());
  cr_assert(d == SENTINEL && s == SENTINEL);
  gsp_matrix_free(&A);
}

Test(sssp, path_from_parent_errors) {
  gsp_index path[8], len = 8;
  /* parents 0 <- 1 <- 2, 3 -> 4 -> 3 a cycle, 5 points at an absent 6,
   * 7 out of range; the walker takes INT64 and INT32 parents alike */
  const int64_t par[] = {0, 0, 1, 4, 3, 6, -1, 99};
  const int32_t par32[] = {0, 0, 1, 4, 3, 6, -1, 99};
  const int64_t absent = -1;
  const int32_t absent32 = -1;
  for (int w = 0; w < 2; w++) {
    gsp_vector P = NULL;
    if (w == 0) GSP_OK(gsp_vector_import_dense(&P, GSP_INT64, 8, par, &absent));
    else GSP_OK(gsp_vector_import_dense(&P, GSP_INT32, 8, par32, &absent32));
    len = 8;
    GSP_OK(gsp_path_from_parent(path, &len, P, 2));
    cr_assert(len == 3 && path[0] == 0 && path[1] == 1 && path[2] == 2);
    len = 8;
    GSP_OK(gsp_path_from_parent(path, &len, P, 0));
    cr_assert(len == 1 && path[0] == 0);
    len = 8;
    cr_assert_eq(gsp_path_from_parent(path, &len, P, 3), GSP_INVALID_VALUE, "cycle");
    cr_assert_eq(gsp_path_from_parent(path, &len, P, 5), GSP_INVALID_VALUE, "hole");
    cr_assert_eq(gsp_path_from_parent(path, &len, P, 7), GSP_INVALID_VALUE, "out of range");
    cr_assert_eq(gsp_path_from_parent(path, &len, P, 6), GSP_NO_VALUE, "unreachable");
    cr_assert_eq(gsp_path_from_parent(path, &len, P, 8), GSP_INVALID_INDEX);
    cr_assert_eq(gsp_path_from_parent(NULL, &len, P, 1), GSP_NULL_POINTER);
    cr_assert_eq(len, 8, "len untouched on error");
    len = 2;
    cr_assert_eq(gsp_path_from_parent(path, &len, P, 2), GSP_INSUFFICIENT_SPACE);
    cr_assert_eq(len, 3);
    gsp_vector_free(&P);
  }
  gsp_vector F = NULL;
  GSP_OK(gsp_vector_new(&F, GSP_FP64, 3));
  cr_assert_eq(gsp_path_from_parent(path, &len, F, 0), GSP_DOMAIN_MISMATCH);
  gsp_vector_free(&F);
}

Test(sssp, allocation_failures) {
  gsp_matrix A = family_matrix(F_RANDOM, GSP_INT64, 100, 2);
  tg g = tg_from_matrix(A);
  const gsp_index srcs[] = {3, 50};
  for (size_t ai = 0; ai < 4; ai++) {
    gsp_sssp_opts o = opts_for(sssp_algos[ai]);
    bool done = false;
    for (long long k = 0; k < 400 && !done; k++) {
      gsp_vector d = SENTINEL, p = SENTINEL, s = SENTINEL;
      gsp__debug_fail_after(k);
      gsp_info info = ai == 3 ? gsp_nearest_source(&d, &s, &p, A, srcs, 2, &o) : gsp_sssp(&d, &p, A, 3, &o);
      gsp__debug_fail_after(-1);
      if (info == GSP_SUCCESS) {
        done = true;
        gsp_test_context("after %lld failures %s", k, sssp_algo_names[sssp_algos[ai]]);
        const int64_t s64[] = {3, 50};
        check_sssp_result(&g, s64, ai == 3 ? 2 : 1, INFINITY, d, p, ai == 3 ? s : NULL);
        gsp_vector_free(&d), gsp_vector_free(&p);
        if (ai == 3) gsp_vector_free(&s);
      } else {
        cr_assert_eq(info, GSP_OUT_OF_MEMORY, "failure %lld: %s %s", k, gsp_strerror(info), gsp_last_error());
        cr_assert(d == SENTINEL && p == SENTINEL && s == SENTINEL, "outputs changed on failure %lld", k);
      }
    }
    cr_assert(done, "never succeeded");
  }
  tg_free(&g);
  gsp_matrix_free(&A);
}

/* The report says where the search ran: the CPU here, for gsp_sssp and
 * gsp_nearest_source, asked for the CPU or AUTO (the CPU default). */
Test(sssp, report_says_where_it_ran) {
  gsp_matrix A = NULL;
  GSP_OK(gsp_generate_grid(&A, GSP_INT32, 8, 8, 1, 9, 3));
  const gsp_backend asked[] = {GSP_BACKEND_CPU, GSP_BACKEND_AUTO};
  const gsp_index src[] = {0, 9};
  for (int k = 0; k < 2; k++) {
    gsp_run_report rep = {.backend = GSP_BACKEND_AUTO};
    const gsp_sssp_advanced adv = {.report = &rep};
    const gsp_sssp_opts o = {.backend = asked[k], .advanced = &adv};
    gsp_vector d = NULL;
    GSP_OK(gsp_sssp(&d, NULL, A, 0, &o));
    cr_assert_eq(rep.backend, GSP_BACKEND_CPU);
    gsp_vector_free(&d);
    rep.backend = GSP_BACKEND_AUTO;
    GSP_OK(gsp_nearest_source(&d, NULL, NULL, A, src, 2, &o));
    cr_assert_eq(rep.backend, GSP_BACKEND_CPU);
    gsp_vector_free(&d);
  }
  gsp_matrix_free(&A);
}
