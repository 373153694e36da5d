/*
 * gsp_bellman_ford, gsp_negative_cycle and the Johnson potentials
 * (gsp__bf_potentials) on the CPU backend. Graphs with negative weights but
 * no negative cycle are non-negative graphs reweighted by random potentials
 * (w + p(u) - p(v) keeps every cycle's weight); others carry a negative
 * cycle reachable or unreachable from the source. Checked against a plain
 * Bellman-Ford in A's arithmetic (long double), the parent rule rebuilt from
 * scratch, parent chains summed back to the distance, SuiteSparse:GraphBLAS
 * vxm relaxation, and every returned cycle checked to be a negative cycle of
 * A. Then tiny graphs, self loops, saturation, thread counts, argument
 * errors and allocation failures.
 */
#define GSP_ADVANCED_API /* gsp_run_report */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bellman_ford.h" /* gsp__bf_potentials */
#include "bf_test_ref.h"
#include "gsp_internal.h" /* gsp__debug_fail_after */

static void cpu_setup(void) {
  GSP_OK(gsp_set_backend(GSP_BACKEND_CPU));
  GSP_OK(gsp_set_threads(2));
}

TestSuite(bellman_ford, .init = cpu_setup);

#define SENTINEL ((gsp_vector)(uintptr_t)0x5a5a)

static const gsp_bf_opts cpu_opts = {.backend = GSP_BACKEND_CPU};

/* gsp_bellman_ford from src checked against the references (and GraphBLAS
 * when grb). */
static void run_check(gsp_matrix A, gsp_index src, bool grb) {
  tg g = tg_from_matrix(A);
  gsp_vector d = NULL, p = NULL, d2 = NULL;
  GSP_OK(gsp_bellman_ford(&d, &p, A, src, &cpu_opts));
  check_bf_result(&g, (int64_t)src, d, p);
  GSP_OK(gsp_bellman_ford(&d2, NULL, A, src, &cpu_opts));
  gsp_test_assert_vector_same(d, d2, 0);
  if (grb) {
    GrB_Vector G = grb_sssp(A, g.t, src);
    gsp_test_assert_vector_eq(d, G, 0);
    GrB_free(&G);
  }
  gsp_vector_free(&d), gsp_vector_free(&p), gsp_vector_free(&d2);
  tg_free(&g);
}

Test(bellman_ford, reweighted_families_all_types) {
  const family fams[] = {F_RANDOM, F_RMAT, F_GRID, F_RING, F_RING2, F_COMPLETE, F_DISCONNECTED, F_ZERO};
  for (size_t f = 0; f < sizeof fams / sizeof *fams; f++) {
    gsp_matrix B = family_matrix(fams[f], GSP_FP64, 300, 5 + f), R = reweighted(B, 40, 9 + f);
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A = as_type(R, t);
      gsp_index n;
      GSP_OK(gsp_matrix_nrows(&n, A));
      const gsp_index srcs[2] = {0, n / 2 + 1};
      for (int si = 0; si < 2; si++) {
        gsp_test_context("%s reweighted %s src %llu: ", family_names[fams[f]], type_name(t),
                         (unsigned long long)srcs[si]);
        run_check(A, srcs[si], si == 0);
      }
      /* no negative cycle anywhere */
      gsp_index cyc[400], len = 400;
      cr_assert_eq(gsp_negative_cycle(cyc, &len, A, &cpu_opts), GSP_NO_VALUE, "%s", gsp_test_ctx);
      cr_assert_eq(len, 400, "len untouched without a cycle");
      gsp_matrix_free(&A);
    }
    gsp_matrix_free(&B), gsp_matrix_free(&R);
  }
}

Test(bellman_ford, fractional_weights) {
  /* non-integer weights in floats: still exact against the reference, which
   * rounds as A does */
  gsp_matrix B = family_matrix(F_FRACTION, GSP_FP64, 400, 3), R = reweighted(B, 7, 4);
  for (int k = 0; k < 2; k++) {
    gsp_matrix A = as_type(R, k ? GSP_FP32 : GSP_FP64);
    gsp_test_context("fraction %s: ", k ? "FP32" : "FP64");
    run_check(A, 1, false);
    gsp_matrix_free(&A);
  }
  gsp_matrix_free(&B), gsp_matrix_free(&R);
}

/* A negative cycle reachable from src: GSP_NEGATIVE_CYCLE, outputs
 * untouched, a message naming it; gsp_negative_cycle returns a real one. */
Test(bellman_ford, negative_cycle_reachable_and_not) {
  const int64_t sizes[] = {12, 60, 301};
  const int64_t clens[] = {1, 2, 3, 5};
  for (size_t si = 0; si < 3; si++)
    for (size_t ci = 0; ci < 4; ci++)
      for (int bridge = 0; bridge < 2; bridge++) {
        gsp_matrix R = with_cycle(sizes[si], clens[ci], bridge, 17 + si * 5 + ci);
        for (size_t ti = 0; ti < 4; ti++) {
          const gsp_type t = sssp_types[ti];
          gsp_test_context("cycle n %lld len %lld %s %s: ", (long long)sizes[si], (long long)clens[ci],
                           bridge ? "reachable" : "unreachable", type_name(t));
          gsp_matrix A = as_type(R, t);
          tg g = tg_from_matrix(A);
          long double *ref = malloc((size_t)g.n * sizeof *ref);
          cr_assert(ref);
          const bool ref_neg = ref_bf(&g, 0, ref);
          cr_assert_eq(ref_neg, (bool)bridge, "%sthe reference disagrees with the construction", gsp_test_ctx);
          gsp_vector d = SENTINEL, p = SENTINEL;
          gsp_info info = gsp_bellman_ford(&d, &p, A, 0, &cpu_opts);
          if (bridge) {
            cr_assert_eq(info, GSP_NEGATIVE_CYCLE, "%s%s", gsp_test_ctx, gsp_strerror(info));
            cr_assert(d == SENTINEL && p == SENTINEL, "%soutputs changed", gsp_test_ctx);
            cr_assert(strstr(gsp_last_error(), "gsp_bellman_ford: a negative cycle") != NULL, "%s", gsp_last_error());
          } else {
            cr_assert_eq(info, GSP_SUCCESS, "%s%s %s", gsp_test_ctx, gsp_strerror(info), gsp_last_error());
            check_bf_result(&g, 0, d, p);
            gsp_vector_free(&d), gsp_vector_free(&p);
          }
          /* the second part always holds one */
          gsp_index cyc[400], len = (gsp_index)g.n;
          GSP_OK(gsp_negative_cycle(cyc, &len, A, &cpu_opts));
          check_cycle(&g, cyc, len);
          /* too small a buffer: the size, nothing written */
          gsp_index small[400], slen = len - 1;
          for (int k = 0; k < 400; k++) small[k] = 12345;
          cr_assert_eq(gsp_negative_cycle(small, &slen, A, &cpu_opts), GSP_INSUFFICIENT_SPACE);
          cr_assert_eq(slen, len);
          for (int k = 0; k < 400; k++) cr_assert_eq(small[k], 12345);
          /* from a source inside the second part it is always reachable */
          d = SENTINEL;
          cr_assert_eq(gsp_bellman_ford(&d, NULL, A, cyc[0], &cpu_opts), GSP_NEGATIVE_CYCLE);
          cr_assert(d == SENTINEL);
          free(ref);
          tg_free(&g);
          gsp_matrix_free(&A);
        }
        gsp_matrix_free(&R);
      }
}

Test(bellman_ford, tiny_graphs_self_loops_zero_cycles) {
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_test_context("tiny %s: ", type_name(t));
    gsp_info info;
    gsp_index cyc[8], len = 8;
    /* one vertex, no arc; a zero self loop; a negative self loop */
    gsp_matrix A = small_graph(t, 1, NULL, NULL, NULL, 0);
    gsp_vector d = NULL, p = NULL;
    GSP_OK(gsp_bellman_ford(&d, &p, A, 0, &cpu_opts));
    cr_assert_eq(vget(d, 0, &info), 0);
    cr_assert_eq(vget(p, 0, &info), 0);
    cr_assert_eq(gsp_negative_cycle(cyc, &len, A, &cpu_opts), GSP_NO_VALUE);
    gsp_vector_free(&d), gsp_vector_free(&p), gsp_matrix_free(&A);
    const gsp_index I0[] = {0}, J0[] = {0};
    const double zero[] = {0}, minus[] = {-1}, plus[] = {2};
    A = small_graph(t, 1, I0, J0, zero, 1);
    GSP_OK(gsp_bellman_ford(&d, &p, A, 0, &cpu_opts));
    cr_assert_eq(vget(d, 0, &info), 0);
    cr_assert_eq(vget(p, 0, &info), 0);
    cr_assert_eq(gsp_negative_cycle(cyc, &len, A, &cpu_opts), GSP_NO_VALUE);
    gsp_vector_free(&d), gsp_vector_free(&p), gsp_matrix_free(&A);
    A = small_graph(t, 1, I0, J0, minus, 1);
    cr_assert_eq(gsp_bellman_ford(&d, &p, A, 0, &cpu_opts), GSP_NEGATIVE_CYCLE);
    len = 8;
    GSP_OK(gsp_negative_cycle(cyc, &len, A, &cpu_opts));
    cr_assert(len == 1 && cyc[0] == 0);
    gsp_matrix_free(&A);
    A = small_graph(t, 1, I0, J0, plus, 1);
    GSP_OK(gsp_bellman_ford(&d, NULL, A, 0, &cpu_opts));
    cr_assert_eq(vget(d, 0, &info), 0);
    gsp_vector_free(&d), gsp_matrix_free(&A);

    /* 0 -2-> 1 -(-3)-> 2 -3-> 1 (zero cycle 1 <-> 2 through a negative arc),
     * 2 -(-1)-> 3, 3 -0-> 3, 0 -5-> 4 -(-6)-> 3, 5 isolated, 6 -(-4)-> 6
     * (a negative self loop nobody reaches from 0) */
    const gsp_index I[] = {0, 1, 2, 2, 3, 0, 4, 6}, J[] = {1, 2, 1, 3, 3, 4, 3, 6};
    const double W[] = {2, -3, 3, -1, 0, 5, -6, -4};
    A = small_graph(t, 7, I, J, W, 8);
    GSP_OK(gsp_bellman_ford(&d, &p, A, 0, &cpu_opts));
    const double ed[] = {0, 2, -1, -2, 5};
    const double ep[] = {0, 0, 1, 2, 0};
    for (gsp_index v = 0; v < 5; v++) {
      cr_assert_eq(vget(d, v, &info), ed[v], "%sdist %llu", gsp_test_ctx, (unsigned long long)v);
      cr_assert_eq(vget(p, v, &info), ep[v], "%sparent %llu", gsp_test_ctx, (unsigned long long)v);
    }
    (void)vget(d, 5, &info);
    cr_assert_eq(info, GSP_NO_VALUE);
    (void)vget(p, 6, &info);
    cr_assert_eq(info, GSP_NO_VALUE);
    gsp_vector_free(&d), gsp_vector_free(&p);
    len = 8;
    GSP_OK(gsp_negative_cycle(cyc, &len, A, &cpu_opts));
    cr_assert(len == 1 && cyc[0] == 6, "%sthe self loop at 6, got %llu vertices from %llu", gsp_test_ctx,
              (unsigned long long)len, (unsigned long long)cyc[0]);
    /* from 6 the loop is reachable */
    cr_assert_eq(gsp_bellman_ford(&d, NULL, A, 6, &cpu_opts), GSP_NEGATIVE_CYCLE);
    gsp_matrix_free(&A);
  }
}

/* Bellman-Ford keeps the hop-level rule (parent = the smallest tight tail
 * one tight-arc BFS level from the source up), pinned by hand on the
 * graph of test_sssp.c's parent_rule_pinned_by_hand, where gsp_sssp's
 * rule differs at 3 and 7: hop levels from 0 are 0 2 1 3 2 1 1 2, so 7
 * takes 5 (not 4) and 3 takes 1 (not 7). */
Test(bellman_ford, rule_pinned_by_hand) {
  const double ed[] = {0, 3, 1, 3, 2, 2, 3, 3}, ep[] = {0, 6, 0, 1, 2, 0, 0, 5};
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_test_context("pinned %s: ", type_name(t));
    gsp_matrix A = pinned_graph(t);
    gsp_vector d = NULL, p = NULL;
    gsp_info info;
    GSP_OK(gsp_bellman_ford(&d, &p, A, 0, &cpu_opts));
    for (gsp_index v = 0; v < 8; v++) {
      cr_assert_eq(vget(d, v, &info), ed[v], "%sdist %llu", gsp_test_ctx, (unsigned long long)v);
      cr_assert_eq(vget(p, v, &info), ep[v], "%sparent %llu: %g, expected %g", gsp_test_ctx, (unsigned long long)v,
                   vget(p, v, &info), ep[v]);
    }
    gsp_vector_free(&d), gsp_vector_free(&p), gsp_matrix_free(&A);
  }
}

static gsp_matrix typed(gsp_type t, gsp_index n, const gsp_index *I, const gsp_index *J, const void *X, gsp_index m) {
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, t, n, n));
  GSP_OK(gsp_matrix_build(A, I, J, X, m, GSP_DUP_ERROR));
  return A;
}

Test(bellman_ford, integer_saturation) {
  gsp_info info;
  gsp_vector d = NULL, p = NULL;
  gsp_index cyc[8], len = 8;
  /* 0 -> 1 -> 2 -> 3 with -2e9, -2e9, +2e9: the sum clamps at INT32_MIN
   * after two arcs, so d(3) = INT32_MIN + 2e9 (A's arithmetic), no cycle. */
  {
    const gsp_index I[] = {0, 1, 2}, J[] = {1, 2, 3};
    const int32_t w[] = {-2000000000, -2000000000, 2000000000};
    gsp_matrix A = typed(GSP_INT32, 4, I, J, w, 3);
    GSP_OK(gsp_bellman_ford(&d, &p, A, 0, &cpu_opts));
    cr_assert_eq(vget(d, 2, &info), (double)INT32_MIN);
    cr_assert_eq(vget(d, 3, &info), (double)INT32_MIN + 2e9);
    tg g = tg_from_matrix(A);
    gsp_test_context("int32 clamp: ");
    check_bf_result(&g, 0, d, p);
    tg_free(&g);
    gsp_vector_free(&d), gsp_vector_free(&p), gsp_matrix_free(&A);
  }
  /* positive overflow is "no path": INT_MAX absorbs what follows */
  {
    const gsp_index I[] = {0, 1, 2, 0}, J[] = {1, 2, 3, 4};
    const int32_t w[] = {2000000000, 2000000000, -2000000000, INT32_MAX};
    gsp_matrix A = typed(GSP_INT32, 5, I, J, w, 4);
    GSP_OK(gsp_bellman_ford(&d, &p, A, 0, &cpu_opts));
    (void)vget(d, 2, &info);
    cr_assert_eq(info, GSP_NO_VALUE);
    (void)vget(d, 3, &info);
    cr_assert_eq(info, GSP_NO_VALUE);
    (void)vget(d, 4, &info);
    cr_assert_eq(info, GSP_NO_VALUE, "an INT_MAX arc is no arc");
    gsp_vector_free(&d), gsp_vector_free(&p), gsp_matrix_free(&A);
  }
  /* a negative cycle that clamping hides: 0 -> 1 -> 2 reach INT_MIN, then
   * 2 -(+1)-> 3 -(-2)-> 2 cannot lower it any more; the exact re-check
   * still reports the cycle 2 -> 3 (weight -1). Both integer types. */
  for (int k = 0; k < 2; k++) {
    const gsp_index I[] = {0, 1, 2, 3}, J[] = {1, 2, 3, 2};
    gsp_matrix A;
    if (k == 0) {
      const int32_t w[] = {-2000000000, -2000000000, 1, -2};
      A = typed(GSP_INT32, 10, I, J, w, 4);
    } else {
      const int64_t w[] = {-9000000000000000000LL, -9000000000000000000LL, 1, -2};
      A = typed(GSP_INT64, 10, I, J, w, 4);
    }
    d = SENTINEL;
    cr_assert_eq(gsp_bellman_ford(&d, NULL, A, 0, &cpu_opts), GSP_NEGATIVE_CYCLE, "k %d: %s", k, gsp_last_error());
    cr_assert(d == SENTINEL);
    len = 8;
    GSP_OK(gsp_negative_cycle(cyc, &len, A, &cpu_opts));
    cr_assert(len == 2 && cyc[0] == 2 && cyc[1] == 3, "k %d: cycle of %llu from %llu", k, (unsigned long long)len,
              (unsigned long long)cyc[0]);
    gsp_matrix_free(&A);
  }
  /* INT64 clamping without a cycle */
  {
    const gsp_index I[] = {0, 1, 2}, J[] = {1, 2, 3};
    const int64_t w[] = {-9000000000000000000LL, -9000000000000000000LL, 9000000000000000000LL};
    gsp_matrix A = typed(GSP_INT64, 4, I, J, w, 3);
    GSP_OK(gsp_bellman_ford(&d, &p, A, 0, &cpu_opts));
    int64_t x;
    GSP_OK(gsp_vector_extract_element(&x, d, 3));
    cr_assert_eq(x, INT64_MIN + 9000000000000000000LL);
    gsp_vector_free(&d), gsp_vector_free(&p), gsp_matrix_free(&A);
  }
}

Test(bellman_ford, thread_counts_give_the_same_answers) {
  gsp_matrix B = family_matrix(F_RMAT, GSP_FP64, 2000, 8), R = reweighted(B, 25, 2);
  gsp_matrix C = with_cycle(2000, 7, true, 5);
  gsp_vector d1 = NULL, p1 = NULL;
  gsp_index c1[2000], l1 = 2000;
  GSP_OK(gsp_set_threads(1));
  GSP_OK(gsp_bellman_ford(&d1, &p1, R, 3, &cpu_opts));
  GSP_OK(gsp_negative_cycle(c1, &l1, C, &cpu_opts));
  for (int nt = 2; nt <= 8; nt *= 2) {
    GSP_OK(gsp_set_threads(nt));
    gsp_vector d = NULL, p = NULL;
    gsp_index c[2000], l = 2000;
    GSP_OK(gsp_bellman_ford(&d, &p, R, 3, &cpu_opts));
    gsp_test_assert_vector_same(d, d1, 0);
    gsp_test_assert_vector_same(p, p1, 0);
    GSP_OK(gsp_negative_cycle(c, &l, C, &cpu_opts));
    cr_assert_eq(l, l1);
    cr_assert(memcmp(c, c1, l * sizeof *c) == 0, "%d threads found another cycle", nt);
    gsp_vector_free(&d), gsp_vector_free(&p);
  }
  tg g = tg_from_matrix(C);
  check_cycle(&g, c1, l1);
  tg_free(&g);
  gsp_vector_free(&d1), gsp_vector_free(&p1);
  gsp_matrix_free(&B), gsp_matrix_free(&R), gsp_matrix_free(&C);
}

Test(bellman_ford, long_chain_needs_many_rounds) {
  /* a path 0 -> 1 -> ... -> n-1 listed backwards plus shortcuts that are
   * worse: n-1 rounds exactly, no false alarm at round n-1; and the same
   * chain closed into a negative cycle n-1 -> 0 */
  const int64_t n = 700;
  gsp_index *I = malloc(2 * n * sizeof *I), *J = malloc(2 * n * sizeof *J);
  double *W = malloc(2 * n * sizeof *W);
  cr_assert(I && J && W);
  int64_t m = 0;
  for (int64_t v = n - 2; v >= 0; v--) I[m] = (gsp_index)v, J[m] = (gsp_index)(v + 1), W[m] = -1, m++;
  for (int64_t v = 0; v + 5 < n; v += 5) I[m] = (gsp_index)v, J[m] = (gsp_index)(v + 5), W[m] = -4, m++;
  for (size_t ti = 0; ti < 4; ti++) {
    gsp_test_context("chain %s: ", type_name(sssp_types[ti]));
    gsp_matrix A = small_graph(sssp_types[ti], (gsp_index)n, I, J, W, (gsp_index)m);
    run_check(A, 0, true);
    gsp_matrix_free(&A);
    I[m] = (gsp_index)(n - 1), J[m] = 0, W[m] = (double)n - 2.5; /* cycle weight -1 - 0.5: FP types only */
    W[m] = sssp_types[ti] == GSP_INT32 || sssp_types[ti] == GSP_INT64 ? (double)n - 2 : (double)n - 1.5;
    A = small_graph(sssp_types[ti], (gsp_index)n, I, J, W, (gsp_index)m + 1);
    gsp_index *cyc = malloc(n * sizeof *cyc), len = (gsp_index)n;
    cr_assert(cyc);
    cr_assert_eq(gsp_bellman_ford(&(gsp_vector){NULL}, NULL, A, 0, &cpu_opts), GSP_NEGATIVE_CYCLE);
    GSP_OK(gsp_negative_cycle(cyc, &len, A, &cpu_opts));
    tg g = tg_from_matrix(A);
    check_cycle(&g, cyc, len);
    tg_free(&g);
    free(cyc);
    gsp_matrix_free(&A);
  }
  free(I), free(J), free(W);
}

/* Reference potentials: every vertex at 0, relaxed to the fixpoint. */
static void ref_potentials(const tg *g, long double *h) {
  for (int64_t v = 0; v < g->n; v++) h[v] = 0;
  for (bool ch = true; ch;) {
    ch = false;
    for (int64_t u = 0; u < g->n; u++)
      for (int64_t e = g->p[u]; e < g->p[u + 1]; e++) {
        const long double s = bf_sum(g->t, h[u], g->w[e]);
        if (s < h[g->j[e]]) h[g->j[e]] = s, ch = true;
      }
  }
}

Test(bellman_ford, johnson_potentials) {
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_test_context("potentials %s: ", type_name(t));
    gsp_matrix B = family_matrix(F_RANDOM, GSP_FP64, 500, 4 + ti), R = reweighted(B, 50, ti);
    gsp_matrix A = as_type(R, t);
    tg g = tg_from_matrix(A);
    long double *ref = malloc((size_t)g.n * sizeof *ref);
    char *h = malloc((size_t)g.n * 8);
    cr_assert(ref && h);
    ref_potentials(&g, ref);
    GSP_OK(gsp__bf_potentials(h, A, GSP_BACKEND_CPU, NULL, NULL));
    for (int64_t v = 0; v < g.n; v++) {
      const double x = gsp_test_value_f64(t, h + v * (int64_t)gsp_type_size(t));
      cr_assert((long double)x == ref[v] && x <= 0, "%sh[%lld] = %g, reference %Lg", gsp_test_ctx, (long long)v, x,
                ref[v]);
    }
    /* reweighting with h makes every arc non-negative */
    for (int64_t u = 0; u < g.n; u++)
      for (int64_t e = g.p[u]; e < g.p[u + 1]; e++) {
        const double hu = gsp_test_value_f64(t, h + u * (int64_t)gsp_type_size(t));
        const double hv = gsp_test_value_f64(t, h + g.j[e] * (int64_t)gsp_type_size(t));
        cr_assert(g.w[e] + hu - hv >= 0, "%sarc %lld -> %lld reweighted below 0", gsp_test_ctx, (long long)u,
                  (long long)g.j[e]);
      }
    free(ref), free(h);
    tg_free(&g);
    gsp_matrix_free(&A), gsp_matrix_free(&B), gsp_matrix_free(&R);

    /* a negative cycle: h untouched, the cycle given back */
    gsp_matrix C0 = with_cycle(200, 4, false, 31), C = as_type(C0, t);
    g = tg_from_matrix(C);
    char hh[200 * 8];
    int64_t cyc[200], clen = -1;
    memset(hh, 0x5a, sizeof hh);
    cr_assert_eq(gsp__bf_potentials(hh, C, GSP_BACKEND_AUTO, cyc, &clen), GSP_NEGATIVE_CYCLE);
    for (size_t k = 0; k < sizeof hh; k++) cr_assert_eq(hh[k], 0x5a, "h written on a cycle");
    gsp_index gc[200];
    for (int64_t k = 0; k < clen; k++) gc[k] = (gsp_index)cyc[k];
    check_cycle(&g, gc, (gsp_index)clen);
    cr_assert_eq(gsp__bf_potentials(hh, C, GSP_BACKEND_CPU, NULL, NULL), GSP_NEGATIVE_CYCLE);
    tg_free(&g);
    gsp_matrix_free(&C0), gsp_matrix_free(&C);
  }
}

/* ---- errors ---- */

static void expect_fail(gsp_info want, gsp_matrix A, gsp_index src, const gsp_bf_opts *o, const char *what) {
  gsp_vector d = SENTINEL, p = SENTINEL;
  gsp_info info = gsp_bellman_ford(&d, &p, A, src, o);
  cr_assert_eq(info, want, "%s: got %s (%s)", what, gsp_strerror(info), gsp_last_error());
  cr_assert(strstr(gsp_last_error(), "gsp_bellman_ford") != NULL, "%s: message %s", what, gsp_last_error());
  cr_assert(d == SENTINEL && p == SENTINEL, "%s: outputs changed", what);
  gsp_index cyc[4] = {7, 7, 7, 7}, len = 4;
  if (want == GSP_INVALID_INDEX) return; /* no source in gsp_negative_cycle */
  info = gsp_negative_cycle(cyc, &len, A, o);
  cr_assert_eq(info, want, "%s (negative_cycle): got %s (%s)", what, gsp_strerror(info), gsp_last_error());
  cr_assert(strstr(gsp_last_error(), "gsp_negative_cycle") != NULL, "%s: message %s", what, gsp_last_error());
  cr_assert(len == 4 && cyc[0] == 7 && cyc[3] == 7, "%s: outputs changed", what);
}

Test(bellman_ford, errors) {
  gsp_matrix A = NULL, R = NULL, Bo = NULL, N = NULL;
  const gsp_index I[] = {0, 1}, J[] = {1, 2};
  const double W[] = {-1, 2};
  A = small_graph(GSP_FP64, 3, I, J, W, 2);
  expect_fail(GSP_NULL_POINTER, NULL, 0, &cpu_opts, "NULL A");
  gsp_vector d = SENTINEL;
  cr_assert_eq(gsp_bellman_ford(NULL, NULL, A, 0, &cpu_opts), GSP_NULL_POINTER);
  gsp_index cyc[4], len = 4;
  cr_assert_eq(gsp_negative_cycle(cyc, NULL, A, &cpu_opts), GSP_NULL_POINTER);
  cr_assert_eq(gsp_negative_cycle(NULL, &len, A, &cpu_opts), GSP_NULL_POINTER);
  len = 0;
  cr_assert_eq(gsp_negative_cycle(NULL, &len, A, &cpu_opts), GSP_NO_VALUE, "capacity 0 and no cycle");
  expect_fail(GSP_INVALID_INDEX, A, 3, &cpu_opts, "source out of range");
  GSP_OK(gsp_matrix_new(&R, GSP_FP64, 3, 4));
  expect_fail(GSP_DIMENSION_MISMATCH, R, 0, &cpu_opts, "not square");
  GSP_OK(gsp_matrix_new(&Bo, GSP_BOOL, 3, 3));
  expect_fail(GSP_DOMAIN_MISMATCH, Bo, 0, &cpu_opts, "bool");
  const double nan_w[] = {-1, NAN}, minf[] = {-INFINITY, 1};
  N = small_graph(GSP_FP64, 3, I, J, nan_w, 2);
  expect_fail(GSP_INVALID_VALUE, N, 0, &cpu_opts, "NaN");
  gsp_matrix_free(&N);
  N = small_graph(GSP_FP32, 3, I, J, nan_w, 2);
  expect_fail(GSP_INVALID_VALUE, N, 0, &cpu_opts, "NaN fp32");
  gsp_matrix_free(&N);
  N = small_graph(GSP_FP64, 3, I, J, minf, 2);
  expect_fail(GSP_INVALID_VALUE, N, 0, &cpu_opts, "-inf");
  gsp_matrix_free(&N);
  gsp_bf_opts bad = {.backend = (gsp_backend)9};
  expect_fail(GSP_INVALID_VALUE, A, 0, &bad, "bad backend");
  bool avail = false;
  GSP_OK(gsp_cuda_available(&avail, NULL, 0));
  if (!avail) {
    gsp_bf_opts cu = {.backend = GSP_BACKEND_CUDA};
    expect_fail(GSP_NO_DEVICE, A, 0, &cu, "CUDA without a device");
  }
  gsp_matrix F = NULL;
  GSP_OK(gsp_matrix_dup(&F, A));
  gsp_matrix dead = F;
  GSP_OK(gsp_matrix_free(&F));
  expect_fail(GSP_INVALID_OBJECT, dead, 0, &cpu_opts, "freed A");
  /* the graph is unchanged by all that */
  GSP_OK(gsp_bellman_ford(&d, NULL, A, 0, &cpu_opts));
  gsp_info info;
  cr_assert_eq(vget(d, 2, &info), 1);
  gsp_vector_free(&d);
  gsp_matrix_free(&A), gsp_matrix_free(&R), gsp_matrix_free(&Bo);
  /* empty graph: no source exists, and no cycle */
  GSP_OK(gsp_matrix_new(&A, GSP_INT32, 0, 0));
  expect_fail(GSP_INVALID_INDEX, A, 0, &cpu_opts, "empty graph");
  len = 4;
  cr_assert_eq(gsp_negative_cycle(cyc, &len, A, &cpu_opts), GSP_NO_VALUE);
  gsp_matrix_free(&A);
}

Test(bellman_ford, allocation_failures) {
  gsp_matrix B = family_matrix(F_RANDOM, GSP_FP64, 100, 2), R = reweighted(B, 10, 1);
  gsp_matrix A = as_type(R, GSP_INT64), C = with_cycle(60, 3, true, 2);
  tg g = tg_from_matrix(A), gc = tg_from_matrix(C);
  for (int which = 0; which < 3; which++) {
    bool done = false;
    for (long long k = 0; k < 400 && !done; k++) {
      gsp_vector d = SENTINEL, p = SENTINEL;
      gsp_index cyc[60], len = 60;
      char h[100 * 8];
      gsp__debug_fail_after(k);
      gsp_info info = which == 0   ? gsp_bellman_ford(&d, &p, A, 3, &cpu_opts)
                      : which == 1 ? gsp_negative_cycle(cyc, &len, C, &cpu_opts)
                                   : gsp__bf_potentials(h, A, GSP_BACKEND_CPU, NULL, NULL);
      gsp__debug_fail_after(-1);
      if (info == GSP_SUCCESS) {
        done = true;
        if (which == 0) {
          gsp_test_context("after %lld failures: ", k);
          check_bf_result(&g, 3, d, p);
          gsp_vector_free(&d), gsp_vector_free(&p);
        } else if (which == 1) {
          check_cycle(&gc, cyc, len);
        }
      } else {
        cr_assert_eq(info, GSP_OUT_OF_MEMORY, "failure %lld: %s %s", k, gsp_strerror(info), gsp_last_error());
        cr_assert(d == SENTINEL && p == SENTINEL && len == 60, "outputs changed on failure %lld", k);
      }
    }
    cr_assert(done, "never succeeded (%d)", which);
  }
  tg_free(&g), tg_free(&gc);
  gsp_matrix_free(&A), gsp_matrix_free(&B), gsp_matrix_free(&R), gsp_matrix_free(&C);
}

/* The report says where the answer was computed: the CPU here (backend CPU
 * by the options and AUTO under the CPU default), for an answer with a
 * result, a negative-cycle answer and "no cycle". */
Test(bellman_ford, report_says_where_it_ran) {
  gsp_matrix A = NULL, C = NULL;
  GSP_OK(gsp_generate_grid(&A, GSP_FP64, 8, 8, 1, 9, 3));
  C = with_cycle(12, 3, 1, 5);
  const gsp_backend asked[] = {GSP_BACKEND_CPU, GSP_BACKEND_AUTO};
  for (int k = 0; k < 2; k++) {
    gsp_run_report rep = {.backend = GSP_BACKEND_AUTO};
    const gsp_bf_advanced adv = {.report = &rep};
    const gsp_bf_opts o = {.backend = asked[k], .advanced = &adv};
    gsp_vector d = NULL;
    GSP_OK(gsp_bellman_ford(&d, NULL, A, 0, &o));
    cr_assert_eq(rep.backend, GSP_BACKEND_CPU);
    gsp_vector_free(&d);
    gsp_index cyc[64], len = 64;
    rep.backend = GSP_BACKEND_AUTO;
    cr_assert_eq(gsp_negative_cycle(cyc, &len, A, &o), GSP_NO_VALUE);
    cr_assert_eq(rep.backend, GSP_BACKEND_CPU);
    rep.backend = GSP_BACKEND_AUTO;
    len = 64;
    GSP_OK(gsp_negative_cycle(cyc, &len, C, &o));
    cr_assert_eq(rep.backend, GSP_BACKEND_CPU);
  }
  gsp_matrix_free(&A), gsp_matrix_free(&C);
}
