/*
 * gsp_apsp on the CPU backend: the three algorithms agree with each other
 * and with the Bellman-Ford reference (exact on integer weights), subsets
 * of sources with repeats, output types, cutoffs, row blocks (an explicit
 * block size, a memory cap, the callback; the callback abort), the AUTO
 * choice on representative graphs (and its report), dry runs, empty
 * inputs, and every error code with outputs untouched.
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

TestSuite(apsp, .init = cpu_setup);

#define SENT ((gsp_matrix)(uintptr_t)0x5e47)

static gsp_matrix run(gsp_matrix A, gsp_matrix *P, gsp_apsp_opts o, gsp_apsp_report *rep) {
  gsp_matrix D = NULL;
  gsp_apsp_report local;
  gsp_apsp_advanced oa = o.advanced ? *o.advanced : (gsp_apsp_advanced){0};
  o.advanced = &oa;
  oa.report = rep ? rep : &local;
  GSP_OK(gsp_apsp(&D, P, A, &o));
  return D;
}

static gsp_index *iota(int64_t n) {
  gsp_index *s = malloc((size_t)(n + 1) * sizeof *s);
  for (int64_t v = 0; v < n; v++) s[v] = (gsp_index)v;
  return s;
}

Test(apsp, three_algorithms_agree_non_negative) {
  const family fams[] = {F_RANDOM, F_RMAT, F_GRID, F_RING, F_COMPLETE, F_DISCONNECTED, F_ZERO};
  for (size_t fi = 0; fi < sizeof fams / sizeof *fams; fi++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A = family_matrix(fams[fi], t, 100, 31 + fi);
      tg g = tg_from_matrix(A);
      gsp_index *all = iota(g.n);
      gsp_matrix D[APSP_NALGOS], P[APSP_NALGOS];
      for (int a = 0; a < APSP_NALGOS; a++) {
        gsp_test_context("%s %s %s: ", family_names[fams[fi]], type_name(t), apsp_algo_names[apsp_algos[a]]);
        gsp_apsp_report rep;
        D[a] = run(A, &P[a], aopts(apsp_algos[a], GSP_BACKEND_CPU), &rep);
        cr_assert_eq(rep.algo, apsp_algos[a]);
        cr_assert(rep.row_blocks == 1 && rep.row_block == (gsp_index)g.n);
        check_apsp_rows(&g, all, g.n, D[a], P[a],
                        (apsp_check){.tol = 0, .rule = apsp_algos[a] != GSP_APSP_FLOYD_WARSHALL, .cutoff = INFINITY});
        if (a > 0) assert_same(D[a], D[0]);
      }
      /* the relaxation-based algorithms give the same parents too */
      assert_same(P[1], P[2]);
      /* and the same as gsp_msssp, and gsp_closure */
      gsp_matrix M = NULL, C = NULL;
      gsp_msssp_opts mo = {.backend = GSP_BACKEND_CPU};
      GSP_OK(gsp_msssp(&M, NULL, A, all, g.n, &mo));
      assert_same(D[1], M);
      GSP_OK(gsp_matrix_dup(&C, A));
      GSP_OK(gsp_closure(C, GSP_MIN_PLUS));
      assert_same(D[0], C);
      for (int a = 0; a < APSP_NALGOS; a++) gsp_matrix_free(&D[a]), gsp_matrix_free(&P[a]);
      gsp_matrix_free(&M), gsp_matrix_free(&C), gsp_matrix_free(&A);
      free(all);
      tg_free(&g);
    }
  }
}

Test(apsp, fw_and_johnson_agree_negative) {
  const family fams[] = {F_RANDOM, F_RMAT, F_RING2, F_COMPLETE, F_ZERO};
  for (size_t fi = 0; fi < sizeof fams / sizeof *fams; fi++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A0 = family_matrix(fams[fi], t, 90, 3 + fi), A = potential_trick(A0, 20, 9 + fi);
      tg g = tg_from_matrix(A);
      gsp_index *all = iota(g.n);
      gsp_test_context("%s %s: ", family_names[fams[fi]], type_name(t));
      gsp_matrix Pf = NULL, Pj = NULL;
      gsp_matrix Df = run(A, &Pf, aopts(GSP_APSP_FLOYD_WARSHALL, GSP_BACKEND_CPU), NULL);
      gsp_matrix Dj = run(A, &Pj, aopts(GSP_APSP_JOHNSON, GSP_BACKEND_CPU), NULL);
      assert_same(Df, Dj);
      check_apsp_rows(&g, all, g.n, Df, Pf, (apsp_check){.tol = 0, .rule = false, .cutoff = INFINITY});
      check_apsp_rows(&g, all, g.n, Dj, Pj, (apsp_check){.tol = 0, .rule = true, .cutoff = INFINITY});
      /* MSSSP refuses the negative weight with its own message */
      gsp_matrix X = SENT;
      gsp_apsp_opts o = aopts(GSP_APSP_MSSSP, GSP_BACKEND_CPU);
      cr_assert_eq(gsp_apsp(&X, NULL, A, &o), GSP_INVALID_VALUE);
      cr_assert(strstr(gsp_last_error(), "non-negative"), "%s", gsp_last_error());
      cr_assert_eq(X, SENT);
      gsp_matrix_free(&Df), gsp_matrix_free(&Pf), gsp_matrix_free(&Dj), gsp_matrix_free(&Pj);
      gsp_matrix_free(&A0), gsp_matrix_free(&A);
      free(all);
      tg_free(&g);
    }
  }
}

Test(apsp, subsets_with_repeats) {
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A0 = family_matrix(F_RMAT, t, 128, 2), A = potential_trick(A0, 10, 2);
    tg g = tg_from_matrix(A0), gn = tg_from_matrix(A);
    const gsp_index src[] = {5, 0, 127, 5, 64, 3, 3};
    for (int a = 0; a < APSP_NALGOS; a++) {
      gsp_apsp_opts o = aopts(apsp_algos[a], GSP_BACKEND_CPU);
      o.sources = src, o.nsources = 7;
      gsp_test_context("%s %s: ", type_name(t), apsp_algo_names[apsp_algos[a]]);
      gsp_matrix P = NULL, D = run(A0, &P, o, NULL);
      check_apsp_rows(&g, src, 7, D, P,
                      (apsp_check){.tol = 0, .rule = apsp_algos[a] != GSP_APSP_FLOYD_WARSHALL, .cutoff = INFINITY});
      gsp_matrix_free(&D), gsp_matrix_free(&P);
      if (apsp_algos[a] == GSP_APSP_MSSSP) continue;
      D = run(A, &P, o, NULL);
      check_apsp_rows(&gn, src, 7, D, P, (apsp_check){.tol = 0, .rule = false, .cutoff = INFINITY});
      gsp_matrix_free(&D), gsp_matrix_free(&P);
    }
    /* no sources: a 0 x n result */
    gsp_apsp_opts o = aopts(GSP_APSP_AUTO, GSP_BACKEND_CPU);
    o.sources = src, o.nsources = 0;
    gsp_matrix P = NULL, D = run(A, &P, o, NULL);
    gsp_index nr, nc, nv;
    GSP_OK(gsp_matrix_nrows(&nr, D));
    GSP_OK(gsp_matrix_ncols(&nc, D));
    GSP_OK(gsp_matrix_nvals(&nv, P));
    cr_assert(nr == 0 && nc == 128 && nv == 0);
    gsp_matrix_free(&D), gsp_matrix_free(&P), gsp_matrix_free(&A0), gsp_matrix_free(&A);
    tg_free(&g), tg_free(&gn);
  }
}

/* GSP_INT32 parents: every algorithm gives the INT64 trees cast, whole or
 * in row blocks, with a subset and a cutoff, on weights of both signs. */
Test(apsp, int32_parents_every_algorithm) {
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A0 = family_matrix(F_RMAT, t, 90, 5), An = potential_trick(A0, 12, 5);
    for (int neg = 0; neg < 2; neg++) {
      gsp_matrix A = neg ? An : A0;
      tg g = tg_from_matrix(A);
      gsp_index *all = iota(g.n);
      const gsp_index src[] = {7, 0, (gsp_index)g.n - 1, 7, 40};
      for (int a = 0; a < APSP_NALGOS; a++) {
        if (neg && apsp_algos[a] == GSP_APSP_MSSSP) continue;
        for (int shape = 0; shape < 3; shape++) {
          gsp_test_context("%s %s %s shape %d: ", type_name(t), neg ? "negative" : "non-negative",
                           apsp_algo_names[apsp_algos[a]], shape);
          gsp_apsp_opts o = aopts(apsp_algos[a], GSP_BACKEND_CPU);
          gsp_apsp_advanced oa = {0};
          o.advanced = &oa;
          if (shape == 1) oa.row_block = 7;                /* blocks of rows */
          if (shape == 2) o.sources = src, o.nsources = 5; /* a subset with a repeat */
          if (shape == 2) o.has_cutoff = true, o.cutoff = 900;
          gsp_matrix P = NULL, P32 = NULL, Pc = NULL, D = run(A, &P, o, NULL);
          o.parent_type = GSP_INT32;
          gsp_apsp_report rep;
          gsp_matrix D32 = run(A, &P32, o, &rep);
          if (shape == 1)
            cr_assert_eq(rep.row_blocks, ((gsp_index)g.n + 6) / 7, "%s%llu blocks", gsp_test_ctx,
                         (unsigned long long)rep.row_blocks);
          gsp_type pt;
          GSP_OK(gsp_matrix_type(&pt, P32));
          cr_assert_eq(pt, GSP_INT32, "%sparent type %d", gsp_test_ctx, (int)pt);
          assert_same(D32, D);
          GSP_OK(gsp_matrix_cast(&Pc, P, GSP_INT32));
          assert_same(P32, Pc);
          check_apsp_rows(&g, shape == 2 ? src : all, shape == 2 ? 5 : g.n, D32, P32,
                          (apsp_check){.tol = 0, .rule = false, .cutoff = shape == 2 ? 900 : INFINITY});
          gsp_matrix_free(&D), gsp_matrix_free(&P), gsp_matrix_free(&D32), gsp_matrix_free(&P32);
          gsp_matrix_free(&Pc);
        }
      }
      free(all);
      tg_free(&g);
    }
    gsp_matrix_free(&A0), gsp_matrix_free(&An);
  }
}

/* Output types: the values of a run in A's type converted as
 * gsp_matrix_cast converts them, for every algorithm. */
Test(apsp, output_types) {
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A0 = family_matrix(F_FRACTION, t, 80, 4), A = potential_trick(A0, 6, 1);
    for (int a = 0; a < APSP_NALGOS; a++) {
      gsp_matrix B = apsp_algos[a] == GSP_APSP_MSSSP ? A0 : A;
      gsp_matrix D = run(B, NULL, aopts(apsp_algos[a], GSP_BACKEND_CPU), NULL);
      for (size_t oi = 0; oi < 4; oi++) {
        const gsp_type out = sssp_types[oi];
        gsp_test_context("%s -> %s %s: ", type_name(t), type_name(out), apsp_algo_names[apsp_algos[a]]);
        gsp_apsp_opts o = aopts(apsp_algos[a], GSP_BACKEND_CPU);
        o.use_type = true, o.type = out;
        gsp_matrix P = NULL, Dt = run(B, &P, o, NULL), C = NULL;
        gsp_type got;
        GSP_OK(gsp_matrix_type(&got, Dt));
        cr_assert_eq(got, out);
        GSP_OK(gsp_matrix_cast(&C, D, out));
        /* Floyd-Warshall with paths runs on A transposed, and the sparse
         * star with paths recomputes by relaxation a row whose fractional
         * sums miss a tight arc: float sums in another order, equal up to
         * rounding */
        const bool fwf = (apsp_algos[a] == GSP_APSP_FLOYD_WARSHALL || apsp_algos[a] == GSP_APSP_SPARSE_STAR) &&
                         (t == GSP_FP32 || t == GSP_FP64);
        assert_close(Dt, C, fwf ? (t == GSP_FP32 ? 1e-6 : 1e-14) : 0);
        /* parents where distances are */
        gsp_index nd, np;
        GSP_OK(gsp_matrix_nvals(&nd, Dt));
        GSP_OK(gsp_matrix_nvals(&np, P));
        cr_assert_eq(nd, np);
        gsp_matrix_free(&Dt), gsp_matrix_free(&P), gsp_matrix_free(&C);
      }
      gsp_matrix_free(&D);
    }
    gsp_matrix_free(&A0), gsp_matrix_free(&A);
  }
}

/* FP64 -> FP32 and INT64 -> INT32 conversions that lose range: a distance
 * beyond FLT_MAX or INT32 becomes "no path" (and its parent goes too). */
Test(apsp, output_type_range) {
  const gsp_index I[] = {0, 1}, J[] = {1, 2};
  const double X[] = {3e38, 3e38};
  const int64_t Y[] = {3000000000LL, -1};
  gsp_matrix F = NULL, G = NULL;
  GSP_OK(gsp_matrix_new(&F, GSP_FP64, 3, 3));
  GSP_OK(gsp_matrix_build(F, I, J, X, 2, GSP_DUP_ERROR));
  GSP_OK(gsp_matrix_new(&G, GSP_INT64, 3, 3));
  GSP_OK(gsp_matrix_build(G, I, J, Y, 2, GSP_DUP_ERROR));
  for (int a = 0; a < APSP_NALGOS; a++) {
    gsp_apsp_opts o = aopts(apsp_algos[a], GSP_BACKEND_CPU);
    o.use_type = true, o.type = GSP_FP32;
    gsp_matrix P = NULL, D = run(F, &P, o, NULL);
    float f = 0;
    GSP_OK(gsp_matrix_extract_element(&f, D, 0, 1));
    cr_assert_eq(f, 3e38f);
    cr_assert_eq(gsp_matrix_extract_element(&f, D, 0, 2), GSP_NO_VALUE); /* 6e38 > FLT_MAX */
    int64_t p = 0;
    cr_assert_eq(gsp_matrix_extract_element(&p, P, 0, 2), GSP_NO_VALUE);
    gsp_matrix_free(&D), gsp_matrix_free(&P);
    if (apsp_algos[a] == GSP_APSP_MSSSP) continue; /* G has a negative arc */
    o.type = GSP_INT32;
    D = run(G, &P, o, NULL);
    int32_t x = 0;
    cr_assert_eq(gsp_matrix_extract_element(&x, D, 0, 1), GSP_NO_VALUE);
    cr_assert_eq(gsp_matrix_extract_element(&x, D, 0, 2), GSP_NO_VALUE);
    GSP_OK(gsp_matrix_extract_element(&x, D, 1, 2));
    cr_assert_eq(x, -1);
    gsp_matrix_free(&D), gsp_matrix_free(&P);
  }
  gsp_matrix_free(&F), gsp_matrix_free(&G);
}

Test(apsp, cutoff_every_algorithm) {
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A = family_matrix(F_RANDOM, t, 100, 12);
    tg g = tg_from_matrix(A);
    const gsp_index src[] = {0, 33, 99};
    const double cuts[] = {0, 4, 9.5, 1e9};
    for (int c = 0; c < 4; c++) {
      gsp_matrix D0 = NULL;
      for (int a = 0; a < APSP_NALGOS; a++) {
        gsp_apsp_opts o = aopts(apsp_algos[a], GSP_BACKEND_CPU);
        o.sources = src, o.nsources = 3, o.has_cutoff = true, o.cutoff = cuts[c];
        gsp_test_context("%s cutoff %g %s: ", type_name(t), cuts[c], apsp_algo_names[apsp_algos[a]]);
        gsp_matrix P = NULL, D = run(A, &P, o, NULL);
        check_apsp_rows(&g, src, 3, D, P, (apsp_check){.tol = 0, .rule = false, .cutoff = cuts[c]});
        if (D0) assert_same(D, D0);
        else D0 = D, D = NULL;
        gsp_matrix_free(&D), gsp_matrix_free(&P);
      }
      gsp_matrix_free(&D0);
    }
    gsp_matrix_free(&A);
    tg_free(&g);
  }
}

/* Row blocks: an explicit block size, a memory cap and the callback all
 * give the rows of the whole computation, for every algorithm and with
 * type conversion. */
Test(apsp, row_blocks_and_callback) {
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A0 = family_matrix(F_RMAT, t, 64, 6), A = potential_trick(A0, 9, 6);
    gsp_index n;
    GSP_OK(gsp_matrix_nrows(&n, A));
    const gsp_index src[] = {1, 2, 3, 5, 8, 13, 21, 34, 55, 1, 0};
    for (int a = 0; a < APSP_NALGOS; a++) {
      gsp_matrix B = apsp_algos[a] == GSP_APSP_MSSSP ? A0 : A;
      for (int conv = 0; conv < 2; conv++) {
        gsp_apsp_opts o = aopts(apsp_algos[a], GSP_BACKEND_CPU);
        gsp_apsp_advanced oa = {0};
        o.advanced = &oa;
        o.sources = src, o.nsources = 11;
        if (conv) o.use_type = true, o.type = t == GSP_FP64 ? GSP_INT32 : GSP_FP64;
        const gsp_type out = conv ? o.type : t;
        gsp_test_context("%s %s conv %d: ", type_name(t), apsp_algo_names[apsp_algos[a]], conv);
        gsp_matrix P = NULL, D = run(B, &P, o, NULL);
        double *wd = dense_all(D, INFINITY), *wp = dense_all(P, -1);
        /* an explicit block size */
        gsp_apsp_report rep;
        oa.row_block = 3;
        gsp_matrix P3 = NULL, D3 = run(B, &P3, o, &rep);
        cr_assert(rep.row_block == 3 && rep.row_blocks == 4, "%sblocks %llu x %llu", gsp_test_ctx,
                  (unsigned long long)rep.row_block, (unsigned long long)rep.row_blocks);
        assert_same(D3, D);
        assert_same(P3, P);
        gsp_matrix_free(&D3), gsp_matrix_free(&P3);
        /* a memory cap of about 5 rows */
        oa.row_block = 0;
        oa.device_memory_cap = (size_t)n * 16 * 5;
        D3 = run(B, &P3, o, &rep);
        cr_assert(rep.row_block == 5 && rep.row_blocks == 3, "%scap: blocks %llu x %llu", gsp_test_ctx,
                  (unsigned long long)rep.row_block, (unsigned long long)rep.row_blocks);
        assert_same(D3, D);
        assert_same(P3, P);
        gsp_matrix_free(&D3), gsp_matrix_free(&P3);
        /* the callback, with and without parents */
        for (int wantp = 0; wantp < 2; wantp++) {
          rows_sink s = {.n = (int64_t)n, .rows = 11, .t = out};
          s.d = malloc(11 * n * sizeof *s.d);
          s.p = malloc(11 * n * sizeof *s.p);
          oa.rows = rows_sink_fn, oa.rows_ctx = &s, oa.row_block = 4, oa.device_memory_cap = 0;
          gsp_matrix Dc = SENT, Pc = SENT;
          GSP_OK(gsp_apsp(&Dc, wantp ? &Pc : NULL, B, &o));
          cr_assert(Dc == NULL && (wantp ? Pc == NULL : Pc == SENT));
          cr_assert_eq(s.calls, 3);
          cr_assert_eq(s.next, 11);
          for (gsp_index k = 0; k < 11 * n; k++) {
            cr_assert(s.d[k] == wd[k], "%scallback entry %llu: %g, whole %g", gsp_test_ctx, (unsigned long long)k,
                      s.d[k], wd[k]);
            cr_assert(s.p[k] == (wantp ? wp[k] : -2), "%scallback parent %llu: %g, whole %g", gsp_test_ctx,
                      (unsigned long long)k, s.p[k], wp[k]);
          }
          free(s.d), free(s.p);
          oa.rows = NULL;
        }
        free(wd), free(wp);
        gsp_matrix_free(&D), gsp_matrix_free(&P);
      }
    }
    gsp_matrix_free(&A0), gsp_matrix_free(&A);
  }
}

/* The callback stops the run: GSP_ABORTED, no more calls, outputs as
 * they were. */
Test(apsp, callback_abort) {
  gsp_matrix A = family_matrix(F_RANDOM, GSP_INT32, 50, 1);
  for (int a = 0; a < APSP_NALGOS; a++) {
    rows_sink s = {.n = 50, .rows = 50, .t = GSP_INT32, .stop_after = 2};
    s.d = malloc(50 * 50 * sizeof *s.d);
    gsp_apsp_opts o = aopts(apsp_algos[a], GSP_BACKEND_CPU);
    gsp_apsp_advanced oa = {0};
    o.advanced = &oa;
    oa.rows = rows_sink_fn, oa.rows_ctx = &s, oa.row_block = 10;
    gsp_apsp_report rep = {.row_blocks = 99};
    oa.report = &rep;
    gsp_matrix D = SENT, P = SENT;
    gsp_info info = gsp_apsp(&D, &P, A, &o);
    cr_assert_eq(info, GSP_ABORTED, "%s: %s", apsp_algo_names[apsp_algos[a]], gsp_strerror(info));
    cr_assert(strstr(gsp_last_error(), "callback returned 7"), "%s", gsp_last_error());
    cr_assert_eq(s.calls, 2);
    cr_assert(D == SENT && P == SENT && rep.row_blocks == 99);
    free(s.d);
  }
  gsp_matrix_free(&A);
}

/* AUTO on representative graphs (dry runs for the large ones: the choice
 * alone), checked against the report of a real run where small. */
Test(apsp, auto_selection) {
  gsp_apsp_report rep;
  gsp_apsp_opts o = aopts(GSP_APSP_AUTO, GSP_BACKEND_CPU);
  gsp_apsp_advanced oa = {0};
  o.advanced = &oa;
  oa.report = &rep;
  /* dense and small: Floyd-Warshall */
  gsp_matrix A = NULL, D = NULL, P = NULL;
  GSP_OK(gsp_generate_complete(&A, GSP_INT32, 64, 1, 100, 1));
  GSP_OK(gsp_apsp(&D, &P, A, &o));
  cr_assert_eq(rep.algo, GSP_APSP_FLOYD_WARSHALL, "dense 64: %d", (int)rep.algo);
  cr_assert(rep.predicted_seconds[GSP_APSP_FLOYD_WARSHALL] < rep.predicted_seconds[GSP_APSP_MSSSP]);
  gsp_matrix_free(&D), gsp_matrix_free(&P);
  /* the same with a callback: never Floyd-Warshall */
  rows_sink s = {.n = 64, .rows = 64, .t = GSP_INT32};
  s.d = malloc(64 * 64 * sizeof *s.d);
  oa.rows = rows_sink_fn, oa.rows_ctx = &s;
  GSP_OK(gsp_apsp(&D, NULL, A, &o));
  cr_assert_eq(rep.algo, GSP_APSP_MSSSP);
  free(s.d);
  oa.rows = NULL;
  /* dense with negative weights: still Floyd-Warshall */
  gsp_matrix N = potential_trick(A, 30, 1);
  oa.dry_run = true;
  GSP_OK(gsp_apsp(&D, NULL, N, &o));
  cr_assert_eq(rep.algo, GSP_APSP_FLOYD_WARSHALL);
  cr_assert(isinf(rep.predicted_seconds[GSP_APSP_MSSSP]));
  cr_assert_null(D, "a dry run wrote the result");
  gsp_matrix_free(&A), gsp_matrix_free(&N);
  /* sparse, non-negative, large: relaxation; with negative weights: Johnson */
  GSP_OK(gsp_generate_random(&A, GSP_INT32, 20000, 80000, 1, 100, 2));
  GSP_OK(gsp_apsp(&D, NULL, A, &o));
  cr_assert_eq(rep.algo, GSP_APSP_MSSSP, "sparse 20000: %d (fw %g s, msssp %g s)", (int)rep.algo,
               rep.predicted_seconds[1], rep.predicted_seconds[2]);
  cr_assert(rep.predicted_seconds[GSP_APSP_MSSSP] * 5 < rep.predicted_seconds[GSP_APSP_FLOYD_WARSHALL]);
  N = potential_trick(A, 50, 2);
  GSP_OK(gsp_apsp(&D, NULL, N, &o));
  cr_assert_eq(rep.algo, GSP_APSP_JOHNSON);
  cr_assert_null(D);
  gsp_matrix_free(&A), gsp_matrix_free(&N);
  /* moderately sized, run for real: the report says what the dry run said */
  GSP_OK(gsp_generate_random(&A, GSP_INT32, 3000, 9000, 1, 100, 3));
  N = potential_trick(A, 50, 3);
  const gsp_index src[] = {0, 1, 2, 3, 4, 5, 6, 7};
  o.sources = src, o.nsources = 8;
  GSP_OK(gsp_apsp(&D, NULL, N, &o));
  cr_assert_eq(rep.algo, GSP_APSP_JOHNSON, "8 sources of 3000: %d", (int)rep.algo);
  oa.dry_run = false;
  GSP_OK(gsp_apsp(&D, NULL, N, &o));
  cr_assert_eq(rep.algo, GSP_APSP_JOHNSON);
  cr_assert_eq(rep.backend, GSP_BACKEND_CPU);
  tg g = tg_from_matrix(N);
  check_apsp_rows(&g, src, 8, D, NULL, (apsp_check){.tol = 0, .cutoff = INFINITY});
  tg_free(&g);
  gsp_matrix_free(&D), gsp_matrix_free(&A), gsp_matrix_free(&N);
  /* the caller can force any */
  GSP_OK(gsp_generate_complete(&A, GSP_INT32, 40, 1, 9, 4));
  for (int a = 0; a < APSP_NALGOS; a++) {
    o.algo = apsp_algos[a];
    GSP_OK(gsp_apsp(&D, NULL, A, &o));
    cr_assert_eq(rep.algo, apsp_algos[a]);
    gsp_matrix_free(&D);
  }
  gsp_matrix_free(&A);
}

Test(apsp, empty_and_tiny) {
  gsp_matrix A = NULL, D = NULL, P = NULL;
  GSP_OK(gsp_matrix_new(&A, GSP_FP64, 0, 0));
  for (int a = 0; a < GSP_APSP_ALGOS; a++) {
    gsp_apsp_opts o = aopts((gsp_apsp_algo)a, GSP_BACKEND_CPU);
    GSP_OK(gsp_apsp(&D, &P, A, &o));
    gsp_index nr, nc;
    GSP_OK(gsp_matrix_nrows(&nr, D));
    GSP_OK(gsp_matrix_ncols(&nc, P));
    cr_assert(nr == 0 && nc == 0);
    gsp_matrix_free(&D), gsp_matrix_free(&P);
  }
  gsp_matrix_free(&A);
  /* one vertex, no arc; one vertex with a zero self-loop */
  GSP_OK(gsp_matrix_new(&A, GSP_INT32, 1, 1));
  for (int loop = 0; loop < 2; loop++) {
    if (loop) {
      const int32_t z = 0;
      GSP_OK(gsp_matrix_set_element(A, 0, 0, &z));
    }
    for (int a = 1; a < GSP_APSP_ALGOS; a++) {
      gsp_apsp_opts o = aopts((gsp_apsp_algo)a, GSP_BACKEND_CPU);
      GSP_OK(gsp_apsp(&D, &P, A, &o));
      int32_t d = -1;
      int64_t p = -1;
      GSP_OK(gsp_matrix_extract_element(&d, D, 0, 0));
      GSP_OK(gsp_matrix_extract_element(&p, P, 0, 0));
      cr_assert(d == 0 && p == 0);
      gsp_matrix_free(&D), gsp_matrix_free(&P);
    }
  }
  /* a negative self-loop is a negative cycle */
  const int32_t neg = -1;
  GSP_OK(gsp_matrix_set_element(A, 0, 0, &neg));
  for (int a = 1; a < GSP_APSP_ALGOS; a++) {
    if (a == GSP_APSP_MSSSP) continue; /* refuses negative weights */
    gsp_apsp_opts o = aopts((gsp_apsp_algo)a, GSP_BACKEND_CPU);
    D = SENT;
    cr_assert_eq(gsp_apsp(&D, NULL, A, &o), GSP_NEGATIVE_CYCLE);
    cr_assert_eq(D, SENT);
  }
  gsp_matrix_free(&A);
}

Test(apsp, errors_leave_outputs_untouched) {
  gsp_matrix A = family_matrix(F_RANDOM, GSP_FP64, 20, 1), B = NULL, R = NULL, F = NULL;
  GSP_OK(gsp_matrix_new(&B, GSP_BOOL, 4, 4));
  GSP_OK(gsp_matrix_new(&R, GSP_INT32, 4, 5));
  gsp_matrix D = SENT, P = SENT;
  gsp_apsp_opts o = aopts(GSP_APSP_AUTO, GSP_BACKEND_CPU);
#define EXPECT_ERR(code, call)                                                                  \
  do {                                                                                          \
    gsp_info i_ = (call);                                                                       \
    cr_assert_eq(i_, code, "%s -> %s (%s)", #call, gsp_strerror(i_), gsp_last_error());         \
    cr_assert(strstr(gsp_last_error(), "gsp_apsp"), "%s: message %s", #call, gsp_last_error()); \
    cr_assert(D == SENT && P == SENT, "%s wrote an output", #call);                             \
  } while (0)
  EXPECT_ERR(GSP_NULL_POINTER, gsp_apsp(NULL, &P, A, &o));
  EXPECT_ERR(GSP_NULL_POINTER, gsp_apsp(&D, &P, NULL, &o));
  EXPECT_ERR(GSP_DOMAIN_MISMATCH, gsp_apsp(&D, &P, B, &o));
  EXPECT_ERR(GSP_DIMENSION_MISMATCH, gsp_apsp(&D, &P, R, &o));
  o.algo = (gsp_apsp_algo)7;
  EXPECT_ERR(GSP_INVALID_VALUE, gsp_apsp(&D, &P, A, &o));
  o = aopts(GSP_APSP_AUTO, (gsp_backend)9);
  EXPECT_ERR(GSP_INVALID_VALUE, gsp_apsp(&D, &P, A, &o));
  o = aopts(GSP_APSP_AUTO, GSP_BACKEND_CPU);
  o.has_cutoff = true, o.cutoff = -1;
  EXPECT_ERR(GSP_INVALID_VALUE, gsp_apsp(&D, &P, A, &o));
  o.cutoff = NAN;
  EXPECT_ERR(GSP_INVALID_VALUE, gsp_apsp(&D, &P, A, &o));
  o = aopts(GSP_APSP_AUTO, GSP_BACKEND_CPU);
  o.use_type = true, o.type = GSP_BOOL;
  EXPECT_ERR(GSP_DOMAIN_MISMATCH, gsp_apsp(&D, &P, A, &o));
  o.type = (gsp_type)42; /* no type at all: a bad option */
  EXPECT_ERR(GSP_INVALID_VALUE, gsp_apsp(&D, &P, A, &o));
  o = aopts(GSP_APSP_AUTO, GSP_BACKEND_CPU);
  o.parent_type = GSP_FP64;
  EXPECT_ERR(GSP_INVALID_VALUE, gsp_apsp(&D, &P, A, &o));
  cr_assert(strstr(gsp_last_error(), "parent_type"), "%s", gsp_last_error());
  o.parent_type = (gsp_type)42;
  EXPECT_ERR(GSP_INVALID_VALUE, gsp_apsp(&D, &P, A, &o));
  o = aopts(GSP_APSP_AUTO, GSP_BACKEND_CPU);
  const gsp_index bad[] = {3, 20};
  o.sources = bad, o.nsources = 2;
  EXPECT_ERR(GSP_INVALID_INDEX, gsp_apsp(&D, &P, A, &o));
  cr_assert(strstr(gsp_last_error(), "sources[1]"), "%s", gsp_last_error());
  o = aopts(GSP_APSP_AUTO, GSP_BACKEND_CUDA);
  bool gpu = false;
  GSP_OK(gsp_cuda_available(&gpu, NULL, 0));
  if (!gpu) EXPECT_ERR(GSP_NO_DEVICE, gsp_apsp(&D, &P, A, &o));
  /* NaN and -inf weights */
  GSP_OK(gsp_matrix_dup(&F, A));
  double x = NAN;
  GSP_OK(gsp_matrix_set_element(F, 2, 3, &x));
  o = aopts(GSP_APSP_AUTO, GSP_BACKEND_CPU);
  EXPECT_ERR(GSP_INVALID_VALUE, gsp_apsp(&D, &P, F, &o));
  cr_assert(strstr(gsp_last_error(), "A(2,3) is NaN"), "%s", gsp_last_error());
  x = -INFINITY;
  GSP_OK(gsp_matrix_set_element(F, 2, 3, &x));
  EXPECT_ERR(GSP_INVALID_VALUE, gsp_apsp(&D, &P, F, &o));
  cr_assert(strstr(gsp_last_error(), "A(2,3) is -inf"), "%s", gsp_last_error());
  /* a freed handle */
  gsp_matrix stale = F;
  gsp_matrix_free(&F);
  EXPECT_ERR(GSP_INVALID_OBJECT, gsp_apsp(&D, &P, stale, &o));
  /* +inf weights are "no arc" */
  GSP_OK(gsp_matrix_dup(&F, A));
  x = INFINITY;
  GSP_OK(gsp_matrix_set_element(F, 2, 3, &x));
  for (int a = 0; a < APSP_NALGOS; a++) {
    o = aopts(apsp_algos[a], GSP_BACKEND_CPU);
    gsp_matrix E = NULL, Q = NULL;
    GSP_OK(gsp_apsp(&E, &Q, F, &o));
    tg g = tg_from_matrix(F);
    gsp_index all[20];
    for (int v = 0; v < 20; v++) all[v] = (gsp_index)v;
    check_apsp_rows(&g, all, 20, E, Q, (apsp_check){.tol = 0, .cutoff = INFINITY});
    tg_free(&g);
    gsp_matrix_free(&E), gsp_matrix_free(&Q);
  }
  gsp_matrix_free(&A), gsp_matrix_free(&B), gsp_matrix_free(&R), gsp_matrix_free(&F);
#undef EXPECT_ERR
}

Test(apsp, threads_do_not_change_results) {
  gsp_matrix A0 = family_matrix(F_RMAT, GSP_INT64, 128, 7), A = potential_trick(A0, 15, 7);
  for (int a = 0; a < APSP_NALGOS; a++) {
    gsp_matrix B = apsp_algos[a] == GSP_APSP_MSSSP ? A0 : A;
    GSP_OK(gsp_set_threads(1));
    gsp_matrix P1 = NULL, D1 = run(B, &P1, aopts(apsp_algos[a], GSP_BACKEND_CPU), NULL);
    GSP_OK(gsp_set_threads(3));
    gsp_matrix P3 = NULL, D3 = run(B, &P3, aopts(apsp_algos[a], GSP_BACKEND_CPU), NULL);
    assert_same(D1, D3);
    assert_same(P1, P3);
    gsp_matrix_free(&D1), gsp_matrix_free(&P1), gsp_matrix_free(&D3), gsp_matrix_free(&P3);
  }
  gsp_matrix_free(&A0), gsp_matrix_free(&A);
}

/* The row staging follows the host memory cap (by default, the memory the
 * process can still take) rather than a fixed size: a cap of about 5 rows
 * gives blocks of 5, the callback still gets every row. */
Test(apsp, staging_follows_host_memory_cap) {
  gsp_matrix A = family_matrix(F_RANDOM, GSP_INT64, 60, 3);
  gsp_matrix D = run(A, NULL, aopts(GSP_APSP_MSSSP, GSP_BACKEND_CPU), NULL);
  double *wd = dense_all(D, INFINITY);
  rows_sink s = {.n = 60, .rows = 60, .t = GSP_INT64};
  s.d = malloc(60 * 60 * sizeof *s.d);
  s.p = malloc(60 * 60 * sizeof *s.p);
  gsp_apsp_opts o = aopts(GSP_APSP_MSSSP, GSP_BACKEND_CPU);
  gsp_apsp_advanced oa = {0};
  o.advanced = &oa;
  oa.rows = rows_sink_fn, oa.rows_ctx = &s;
  oa.host_memory_cap = 60 * 8 * 5;
  oa.device_memory_cap = (size_t)1 << 30; /* the smaller of the two counts */
  gsp_apsp_report rep;
  oa.report = &rep;
  gsp_matrix Dc = SENT;
  GSP_OK(gsp_apsp(&Dc, NULL, A, &o));
  cr_assert(rep.row_block == 5 && rep.row_blocks == 12, "blocks %llu x %llu", (unsigned long long)rep.row_block,
            (unsigned long long)rep.row_blocks);
  cr_assert_eq(s.next, 60);
  for (int k = 0; k < 60 * 60; k++) cr_assert(s.d[k] == wd[k], "entry %d: %g, whole %g", k, s.d[k], wd[k]);
  free(s.d), free(s.p), free(wd);
  gsp_matrix_free(&D), gsp_matrix_free(&A);
}

/* A handle in use by a running call cannot be freed: gsp_matrix_free of A
 * from A's own row or progress callback is refused (it once returned 0 and
 * the call went on reading freed memory). */
typedef struct {
  gsp_matrix *A;
  gsp_info got;
  int calls;
} free_from_cb;

static int rows_free_a(void *ctx, gsp_index first, gsp_index nrows, const void *dist, const int64_t *parent) {
  (void)first, (void)nrows, (void)dist, (void)parent;
  free_from_cb *f = ctx;
  f->got = gsp_matrix_free(f->A);
  f->calls++;
  return 0;
}

static void progress_free_a(double fraction, void *ctx) {
  (void)fraction;
  free_from_cb *f = ctx;
  f->got = gsp_matrix_free(f->A);
  f->calls++;
}

Test(apsp, handle_in_use_cannot_be_freed_from_a_callback) {
  gsp_matrix A = family_matrix(F_RANDOM, GSP_INT64, 60, 3);
  int progress_calls = 0;
  for (int algo = GSP_APSP_FLOYD_WARSHALL; algo <= GSP_APSP_JOHNSON; algo++) {
    free_from_cb f = {.A = &A, .got = GSP_SUCCESS};
    gsp_apsp_opts o = aopts((gsp_apsp_algo)algo, GSP_BACKEND_CPU);
    gsp_apsp_advanced oa = {0};
    o.advanced = &oa;
    oa.rows = rows_free_a, oa.rows_ctx = &f;
    oa.host_memory_cap = 60 * 8 * 5;
    gsp_matrix D = NULL, P = NULL;
    GSP_OK(gsp_apsp(&D, &P, A, &o));
    cr_assert(f.calls > 0 && A != NULL, "algo %d: A freed inside its own call", algo);
    cr_assert_eq(f.got, GSP_INVALID_VALUE, "algo %d: free returned %d", algo, f.got);
    cr_assert(strstr(gsp_last_error(), "in use") != NULL, "%s", gsp_last_error());
    f.calls = 0;
    oa.rows = NULL, oa.progress = progress_free_a, oa.progress_ctx = &f;
    GSP_OK(gsp_apsp(&D, &P, A, &o));
    cr_assert(A != NULL && (f.calls == 0 || f.got == GSP_INVALID_VALUE), "algo %d: progress", algo);
    progress_calls += f.calls;
    gsp_matrix_free(&D), gsp_matrix_free(&P);
  }
  cr_assert(progress_calls > 0, "no progress callback ran");
  /* once the call is over, A is free to go */
  GSP_OK(gsp_matrix_free(&A));
  cr_assert_null(A);
}
