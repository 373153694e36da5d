/*
 * gsp_msssp and gsp_path_from_parent_row on the CPU backend: every row
 * against the reference Dijkstra in A's arithmetic and the parent rule
 * (sssp_test_ref.h), rows identical to gsp_sssp from the same source,
 * all-pairs results identical to gsp_closure on MIN_PLUS, GraphBLAS vxm
 * relaxation for sample rows; subsets with repeated sources, cutoffs,
 * errors and allocation failures.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gsp_internal.h" /* gsp__debug_fail_after */
#include "sssp_branch.h"  /* gsp__msssp_run and its report */
#include "sssp_cpu.h"     /* gsp__debug_msssp_kernel */
#include "sssp_test_ref.h"

static void cpu_setup(void) {
  GSP_OK(gsp_set_backend(GSP_BACKEND_CPU));
  GSP_OK(gsp_set_threads(2));
}

TestSuite(msssp, .init = cpu_setup);

static gsp_msssp_opts mopts(void) {
  gsp_msssp_opts o = {0};
  o.backend = GSP_BACKEND_CPU;
  return o;
}

/* Every row of D / P against the references; cutoff as given. */
static void check_rows(const tg *g, gsp_matrix D, gsp_matrix P, const gsp_index *src, gsp_index ns, double cutoff) {
  gsp_index nr, nc;
  gsp_type t;
  GSP_OK(gsp_matrix_nrows(&nr, D));
  GSP_OK(gsp_matrix_ncols(&nc, D));
  GSP_OK(gsp_matrix_type(&t, D));
  cr_assert(nr == ns && nc == (gsp_index)g->n && t == g->t, "%sresult is %llux%llu of type %d", gsp_test_ctx,
            (unsigned long long)nr, (unsigned long long)nc, (int)t);
  if (P) { /* the type asked for is checked by the caller */
    GSP_OK(gsp_matrix_type(&t, P));
    cr_assert(t == GSP_INT64 || t == GSP_INT32, "%sparents of type %d", gsp_test_ctx, (int)t);
  }
  double *dd = malloc((size_t)(g->n + 1) * sizeof *dd), *pp = malloc((size_t)(g->n + 1) * sizeof *pp);
  gsp_index *path = malloc((size_t)(g->n + 1) * sizeof *path);
  cr_assert(dd && pp && path);
  for (gsp_index r = 0; r < ns; r++) {
    const int64_t s = src ? (int64_t)src[r] : (int64_t)r;
    row_dense(dd, D, r, INFINITY);
    if (P) row_dense(pp, P, r, -1);
    check_dense(g, &s, 1, cutoff, dd, P ? pp : NULL, NULL);
    if (P && r % 7 == 0) { /* walk some rows with the public walker */
      for (int64_t v = 0; v < g->n; v += 3) {
        gsp_index len = (gsp_index)g->n;
        gsp_info info = gsp_path_from_parent_row(path, &len, P, r, (gsp_index)v);
        if (isinf(dd[v])) {
          cr_assert_eq(info, GSP_NO_VALUE);
          continue;
        }
        cr_assert_eq(info, GSP_SUCCESS, "%srow %llu path to %lld: %s", gsp_test_ctx, (unsigned long long)r,
                     (long long)v, gsp_last_error());
        cr_assert(path[0] == (gsp_index)s && path[len - 1] == (gsp_index)v);
        double sum = 0;
        for (gsp_index k = 1; k < len; k++) sum = tsum(g->t, sum, tg_arc(g, (int64_t)path[k - 1], (int64_t)path[k]));
        cr_assert(sum == dd[v], "%srow %llu path to %lld sums to %.17g, dist %.17g", gsp_test_ctx,
                  (unsigned long long)r, (long long)v, sum, dd[v]);
      }
    }
  }
  free(dd), free(pp), free(path);
}

Test(msssp, subsets_against_references_and_sssp) {
  for (int f = 0; f < F_COUNT; f++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A = family_matrix((family)f, t, 200, 41 + (uint64_t)f);
      tg g = tg_from_matrix(A);
      const gsp_index src[] = {0, (gsp_index)g.n / 3, (gsp_index)g.n - 1, 0, 5};
      gsp_test_context("msssp %s %s", family_names[f], type_name(t));
      gsp_msssp_opts o = mopts();
      gsp_matrix D = NULL, P = NULL;
      GSP_OK(gsp_msssp(&D, &P, A, src, 5, &o));
      check_rows(&g, D, P, src, 5, INFINITY);
      /* rows equal gsp_sssp from the same source, bit for bit */
      for (int r = 0; r < 5; r += 2) {
        gsp_sssp_opts so = {.backend = GSP_BACKEND_CPU, .algo = (gsp_sssp_algo)(r % 4)};
        gsp_vector d = NULL, p = NULL;
        GSP_OK(gsp_sssp(&d, &p, A, src[r], &so));
        double *a = malloc((size_t)g.n * sizeof *a), *b = malloc((size_t)g.n * sizeof *b);
        vec_dense(a, d, INFINITY), row_dense(b, D, (gsp_index)r, INFINITY);
        cr_assert(memcmp(a, b, (size_t)g.n * sizeof *a) == 0, "%srow %d differs from gsp_sssp", gsp_test_ctx, r);
        vec_dense(a, p, -1), row_dense(b, P, (gsp_index)r, -1);
        cr_assert(memcmp(a, b, (size_t)g.n * sizeof *a) == 0, "%sparents of row %d differ", gsp_test_ctx, r);
        free(a), free(b);
        gsp_vector_free(&d), gsp_vector_free(&p);
      }
      /* without parents: the same distances */
      gsp_matrix D2 = NULL;
      GSP_OK(gsp_msssp(&D2, NULL, A, src, 5, &o));
      gsp_test_assert_matrix_same(D, D2, 0);
      gsp_matrix_free(&D), gsp_matrix_free(&P), gsp_matrix_free(&D2);
      tg_free(&g);
      gsp_matrix_free(&A);
    }
  }
}

Test(msssp, apsp_equals_closure) {
  const family fams[] = {F_RANDOM, F_RMAT, F_RING, F_RING2, F_COMPLETE, F_DISCONNECTED, F_ZERO, F_GRID};
  for (size_t fi = 0; fi < sizeof fams / sizeof *fams; fi++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A = family_matrix(fams[fi], t, 150, 77);
      gsp_test_context("apsp %s %s", family_names[fams[fi]], type_name(t));
      gsp_msssp_opts o = mopts();
      gsp_matrix D = NULL, P = NULL, C = NULL;
      gsp_index ns;
      gsp_index *all = gsp_test_all_sources(A, &ns);
      GSP_OK(gsp_msssp(&D, &P, A, all, ns, &o));
      free(all);
      GSP_OK(gsp_matrix_dup(&C, A));
      GSP_OK(gsp_closure(C, GSP_MIN_PLUS));
      gsp_test_assert_matrix_same(D, C, 0);
      if (ti == 0) {
        tg g = tg_from_matrix(A);
        gsp_index n = (gsp_index)g.n;
        check_rows(&g, D, P, NULL, n, INFINITY);
        tg_free(&g);
      }
      gsp_matrix_free(&D), gsp_matrix_free(&P), gsp_matrix_free(&C), gsp_matrix_free(&A);
    }
  }
}

/* Distances only, integer weights, a dense graph: the rows of the closure
 * (the cost model's pick), cell for cell the relaxation's; parents, a
 * floating-point type and an explicit batch keep the relaxation. */
Test(msssp, dense_integer_rows_by_closure) {
  enum { N = 300 };
  gsp_index src[N];
  for (int k = 0; k < N; k++) src[k] = (gsp_index)((k * 7) % N); /* permuted */
  for (int fp = 0; fp < 2; fp++) {
    const gsp_type t = fp ? GSP_FP32 : GSP_INT32;
    gsp_test_context("%s: ", type_name(t));
    gsp_matrix A = NULL, D = NULL, R = NULL, P = NULL;
    GSP_OK(gsp_generate_complete(&A, t, N, 1, 100, 5));
    gsp_msssp_opts o = mopts();
    gsp__diag d;
    GSP_OK(gsp__msssp_run(&D, NULL, A, src, N, &o, &d));
    cr_assert_eq(d.msssp_closure, !fp, "%sby the closure: %d", gsp_test_ctx, (int)d.msssp_closure);
    GSP_OK(gsp__msssp_run(&R, &P, A, src, N, &o, &d));
    cr_assert(!d.msssp_closure, "%swith parents", gsp_test_ctx);
    gsp_test_assert_matrix_same(D, R, 0);
    gsp_matrix_free(&R), gsp_matrix_free(&P);
    o.batch = 32;
    GSP_OK(gsp__msssp_run(&R, NULL, A, src, N, &o, &d));
    cr_assert(!d.msssp_closure, "%swith a batch", gsp_test_ctx);
    gsp_test_assert_matrix_same(D, R, 0);
    tg g = tg_from_matrix(A);
    check_rows(&g, D, NULL, src, N, INFINITY);
    tg_free(&g);
    gsp_matrix_free(&D), gsp_matrix_free(&R), gsp_matrix_free(&A);
  }
}

/* GSP_INT32 parents: the same trees as GSP_INT64 (equal to the cast, cell
 * for cell and in presence), walkable, with the same distances. */
Test(msssp, int32_parents_equal_int64) {
  const family fams[] = {F_RANDOM, F_RMAT, F_ZERO, F_DISCONNECTED, F_RING};
  for (size_t fi = 0; fi < sizeof fams / sizeof *fams; fi++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A = family_matrix(fams[fi], t, 120, 19 + (uint64_t)fi);
      tg g = tg_from_matrix(A);
      const gsp_index src[] = {3, 0, (gsp_index)g.n - 1, 3};
      for (int all = 0; all < 2; all++) {
        gsp_test_context("int32 parents %s %s %s", family_names[fams[fi]], type_name(t), all ? "all" : "subset");
        gsp_index nall;
        gsp_index *every = gsp_test_all_sources(A, &nall);
        const gsp_index *s = all ? every : src, ns = all ? nall : 4;
        gsp_msssp_opts o = mopts();
        o.has_cutoff = fi == 0, o.cutoff = 400;
        gsp_matrix D = NULL, P = NULL, D32 = NULL, P32 = NULL, Pc = NULL;
        GSP_OK(gsp_msssp(&D, &P, A, s, ns, &o));
        o.parent_type = GSP_INT32;
        GSP_OK(gsp_msssp(&D32, &P32, A, s, ns, &o));
        gsp_type pt;
        GSP_OK(gsp_matrix_type(&pt, P32));
        cr_assert_eq(pt, GSP_INT32, "%sparent type %d", gsp_test_ctx, (int)pt);
        gsp_test_assert_matrix_same(D32, D, 0);
        GSP_OK(gsp_matrix_cast(&Pc, P, GSP_INT32));
        gsp_test_assert_matrix_same(P32, Pc, 0);
        check_rows(&g, D32, P32, s, ns, o.has_cutoff ? o.cutoff : INFINITY);
        gsp_matrix_free(&D), gsp_matrix_free(&P), gsp_matrix_free(&D32), gsp_matrix_free(&P32);
        gsp_matrix_free(&Pc);
        free(every);
      }
      tg_free(&g);
      gsp_matrix_free(&A);
    }
  }
}

Test(msssp, graphblas_rows) {
  const family fams[] = {F_RANDOM, F_RMAT, F_ZERO, F_FRACTION};
  for (size_t fi = 0; fi < 4; fi++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A = family_matrix(fams[fi], t, 150, 13);
      gsp_index n;
      GSP_OK(gsp_matrix_nrows(&n, A)); /* R-MAT rounds down to a power of 2 */
      const gsp_index src[] = {2, 9, 100};
      gsp_msssp_opts o = mopts();
      gsp_matrix D = NULL;
      GSP_OK(gsp_msssp(&D, NULL, A, src, 3, &o));
      for (int r = 0; r < 3; r++) {
        gsp_test_context("GraphBLAS %s %s row %d", family_names[fams[fi]], type_name(t), r);
        GrB_Vector G = grb_sssp(A, t, src[r]);
        /* D's row r as a vector: GrB on D with a row extract is simpler via
         * our dense copy; compare entry by entry */
        double *x = malloc(n * sizeof *x);
        row_dense(x, D, (gsp_index)r, INFINITY);
        GrB_Index nv;
        GRB_OK(GrB_Vector_nvals(&nv, G));
        GrB_Index present = 0;
        for (GrB_Index v = 0; v < n; v++) {
          double y;
          GrB_Info gi = GrB_Vector_extractElement_FP64(&y, G, v);
          cr_assert(gi == GrB_SUCCESS || gi == GrB_NO_VALUE);
          if (gi == GrB_NO_VALUE) {
            cr_assert(isinf(x[v]), "%sentry %llu = %g in gsp, absent in GraphBLAS", gsp_test_ctx, (unsigned long long)v,
                      x[v]);
          } else {
            cr_assert(x[v] == y, "%sentry %llu: gsp %.17g, GraphBLAS %.17g", gsp_test_ctx, (unsigned long long)v, x[v],
                      y);
            present++;
          }
        }
        cr_assert_eq(present, nv);
        free(x);
        GrB_free(&G);
      }
      gsp_matrix_free(&D), gsp_matrix_free(&A);
    }
  }
}

Test(msssp, cutoff_batch_threads) {
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A = family_matrix(F_RANDOM, t, 180, 3);
    tg g = tg_from_matrix(A);
    const gsp_index src[] = {4, 8, 15, 16, 23, 42};
    const double cuts[] = {0, 5, 9.5, 20};
    for (size_t ci = 0; ci < 4; ci++) {
      gsp_test_context("cutoff %g %s", cuts[ci], type_name(t));
      gsp_msssp_opts o = mopts();
      o.has_cutoff = true, o.cutoff = cuts[ci];
      gsp_matrix D = NULL, P = NULL;
      GSP_OK(gsp_msssp(&D, &P, A, src, 6, &o));
      check_rows(&g, D, P, src, 6, cuts[ci]);
      gsp_matrix_free(&D), gsp_matrix_free(&P);
    }
    /* batch sizes and thread counts give the same result */
    gsp_matrix R = NULL;
    gsp_msssp_opts o = mopts();
    GSP_OK(gsp_msssp(&R, NULL, A, src, 6, &o));
    for (int k = 0; k < 4; k++) {
      GSP_OK(gsp_set_threads(1 + k));
      o.batch = (gsp_index)(k * 17);
      gsp_matrix D = NULL;
      GSP_OK(gsp_msssp(&D, NULL, A, src, 6, &o));
      gsp_test_assert_matrix_same(D, R, 0);
      gsp_matrix_free(&D);
    }
    GSP_OK(gsp_set_threads(2));
    gsp_matrix_free(&R);
    tg_free(&g);
    gsp_matrix_free(&A);
  }
}

/* D, P of gsp_msssp with the CPU kernel forced (0 chosen, 1 Dijkstra,
 * 2 batched, 3 batched on AVX2 at most, 4 batched on the baseline). */
static void msssp_kernel(gsp_matrix *D, gsp_matrix *P, gsp_matrix A, const gsp_index *src, gsp_index ns,
                         const gsp_msssp_opts *o, int kernel) {
  gsp__debug_msssp_kernel(kernel);
  const gsp_info info = gsp_msssp(D, P, A, src, ns, o);
  gsp__debug_msssp_kernel(0);
  GSP_OK(info);
}

/* A graph with self-loops (weights 0 and 3) on every fifth vertex, in
 * type t: the batched kernel relaxes a vertex into itself. */
static gsp_matrix with_self_loops(family f, gsp_type t, int64_t size, uint64_t seed) {
  gsp_matrix A = family_fp64(f, size, seed), B = NULL;
  gsp_index n;
  GSP_OK(gsp_matrix_nrows(&n, A));
  for (gsp_index v = 0; v < n; v += 5) {
    const double w = v % 10 == 0 ? 0 : 3;
    GSP_OK(gsp_matrix_set_element(A, v, v, &w));
  }
  GSP_OK(gsp_matrix_cast(&B, A, t));
  gsp_matrix_free(&A);
  return B;
}

/* The batched kernel against per-source Dijkstra, bit for bit, distances
 * and both parent types: every family (zero weights, unreachable halves,
 * absorbed float sums), self-loops, source counts that do not fill the
 * last batch (lanes are 16 or 32), repeated sources, cutoffs, thread
 * counts, and the loop of each instruction set in turn (AVX-512 where the
 * CPU has it, AVX2, the baseline). Each result is also checked against the
 * reference. */
Test(msssp, batched_kernel_equals_dijkstra) {
  for (int f = 0; f <= F_COUNT; f++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A =
          f < F_COUNT ? family_matrix((family)f, t, 150, 5 + (uint64_t)f) : with_self_loops(F_ZERO, t, 150, 9);
      tg g = tg_from_matrix(A);
      gsp_index *all = malloc((size_t)g.n * sizeof *all);
      cr_assert(all);
      for (int64_t v = 0; v < g.n; v++) all[v] = (gsp_index)((v * 7) % g.n);
      all[1] = all[0]; /* a repeat */
      const gsp_index counts[] = {1, 17, 33, (gsp_index)g.n};
      const double cuts[] = {INFINITY, 7.5};
      for (size_t ci = 0; ci < 4; ci++) {
        for (size_t cu = 0; cu < 2; cu++) {
          const int isa = 2 + (f + (int)ti + (int)ci + (int)cu) % 3;
          gsp_test_context("batched (kernel %d) %s %s, %llu sources, cutoff %g", isa,
                           f < F_COUNT ? family_names[f] : "self-loops", type_name(t), (unsigned long long)counts[ci],
                           cuts[cu]);
          gsp_msssp_opts o = mopts();
          o.has_cutoff = !isinf(cuts[cu]), o.cutoff = cuts[cu];
          gsp_matrix D1 = NULL, P1 = NULL, D2 = NULL, P2 = NULL, Q1 = NULL, Q2 = NULL;
          msssp_kernel(&D1, &P1, A, all, counts[ci], &o, 1);
          GSP_OK(gsp_set_threads(1 + (int)ci % 3));
          msssp_kernel(&D2, &P2, A, all, counts[ci], &o, isa);
          GSP_OK(gsp_set_threads(2));
          gsp_test_assert_matrix_same(D1, D2, 0);
          gsp_test_assert_matrix_same(P1, P2, 0);
          if (ci == 1) check_rows(&g, D2, P2, all, counts[ci], cuts[cu]);
          gsp_matrix_free(&D1), gsp_matrix_free(&P1), gsp_matrix_free(&D2), gsp_matrix_free(&P2);
          o.parent_type = GSP_INT32;
          msssp_kernel(&D1, &Q1, A, all, counts[ci], &o, 1);
          msssp_kernel(&D2, &Q2, A, all, counts[ci], &o, isa);
          gsp_test_assert_matrix_same(D1, D2, 0);
          gsp_test_assert_matrix_same(Q1, Q2, 0);
          gsp_matrix_free(&D1), gsp_matrix_free(&D2), gsp_matrix_free(&Q1), gsp_matrix_free(&Q2);
        }
      }
      free(all);
      tg_free(&g);
      gsp_matrix_free(&A);
    }
  }
}

/* Integer sums past the type's range saturate in the batched kernel as in
 * Dijkstra: on a chain of arcs of a third of INT_MAX, vertices four arcs
 * away are unreachable, in INT32 and INT64. */
Test(msssp, batched_kernel_saturates) {
  const int64_t n = 40;
  for (int wide = 0; wide < 2; wide++) {
    const gsp_type t = wide ? GSP_INT64 : GSP_INT32;
    gsp_matrix A = NULL;
    GSP_OK(gsp_matrix_new(&A, t, (gsp_index)n, (gsp_index)n));
    for (int64_t v = 0; v + 1 < n; v++) {
      const int32_t w32 = INT32_MAX / 3 + (int32_t)(v % 5);
      const int64_t w64 = INT64_MAX / 3 + v % 5;
      GSP_OK(gsp_matrix_set_element(A, (gsp_index)v, (gsp_index)(v + 1), wide ? (const void *)&w64 : &w32));
      const int32_t s32 = 1;
      const int64_t s64 = 1;
      if (v % 3 == 0)
        GSP_OK(gsp_matrix_set_element(A, (gsp_index)(v + 1), (gsp_index)v, wide ? (const void *)&s64 : &s32));
    }
    gsp_index src[n];
    for (int64_t v = 0; v < n; v++) src[v] = (gsp_index)v;
    gsp_test_context("saturation %s", type_name(t));
    gsp_msssp_opts o = mopts();
    gsp_matrix D1 = NULL, D2 = NULL, P1 = NULL, P2 = NULL;
    msssp_kernel(&D1, &P1, A, src, (gsp_index)n, &o, 1);
    for (int isa = 2; isa <= 4; isa++) {
      msssp_kernel(&D2, &P2, A, src, (gsp_index)n, &o, isa);
      gsp_test_assert_matrix_same(D1, D2, 0);
      gsp_test_assert_matrix_same(P1, P2, 0);
      if (isa < 4) gsp_matrix_free(&D2), gsp_matrix_free(&P2);
    }
    gsp_index nv;
    GSP_OK(gsp_matrix_nvals(&nv, D2));
    cr_assert(nv > (gsp_index)n && nv < (gsp_index)(n * n), "%s%llu distances", gsp_test_ctx, (unsigned long long)nv);
    gsp_matrix_free(&D1), gsp_matrix_free(&D2), gsp_matrix_free(&P1), gsp_matrix_free(&P2);
    gsp_matrix_free(&A);
  }
}

/* Whole weights run as INT32 only where that is exact: fractions, sums
 * past INT32 (FP32: past 2^24) and +inf keep their type; the limit is
 * floored. Results are equal either way (batched_kernel_equals_dijkstra
 * covers both routes: fractions, absorbed sums, cutoff 7.5). */
Test(msssp, batched_kernel_narrows_whole_weights) {
  const gsp_index p[] = {0, 1, 2, 2};
  const gsp_index j[] = {1, 2};
  struct {
    gsp_type t;
    double w0, w1, lim;
    bool narrow;
    int32_t lim32;
  } cases[] = {
      {GSP_FP64, 3, 4, 7.5, true, 7},
      {GSP_FP64, 3, 0.5, 7.5, false, 0},
      {GSP_FP64, 1e9, 1.2e9, 1e300, false, 0}, /* 2.2e9 > INT32_MAX */
      {GSP_FP64, 1e9, 1.1e9, 1e300, true, INT32_MAX - 1},
      {GSP_FP32, 8e6, 8e6, 1e30, true, INT32_MAX - 1},
      {GSP_FP32, 9e6, 8e6, 1e30, false, 0}, /* 1.7e7 > 2^24 */
      {GSP_FP64, INFINITY, 1, 1e300, false, 0},
      {GSP_INT64, 5, 6, 10, true, 10},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    double wd[2] = {cases[c].w0, cases[c].w1};
    float wf[2] = {(float)cases[c].w0, (float)cases[c].w1};
    int64_t wi[2] = {(int64_t)cases[c].w0, (int64_t)cases[c].w1};
    gsp__sssp_graph g = {.n = 3, .p = p, .j = j, .t = cases[c].t, .nthreads = 1};
    g.w = cases[c].t == GSP_FP64 ? (const void *)wd : cases[c].t == GSP_FP32 ? (const void *)wf : (const void *)wi;
    if (cases[c].t == GSP_FP64) g.lim.f64 = cases[c].lim;
    else if (cases[c].t == GSP_FP32) g.lim.f32 = (float)cases[c].lim;
    else g.lim.i64 = (int64_t)cases[c].lim;
    gsp__sssp_graph g32;
    int32_t *w32 = NULL;
    GSP_OK(gsp__msssp_batch_narrow(&g32, &w32, &g));
    cr_assert_eq(w32 != NULL, cases[c].narrow, "case %zu", c);
    if (w32) {
      cr_assert(g32.t == GSP_INT32 && g32.w == w32 && g32.p == p && g32.j == j, "case %zu", c);
      cr_assert(w32[0] == (int32_t)cases[c].w0 && w32[1] == (int32_t)cases[c].w1, "case %zu", c);
      cr_assert_eq(g32.lim.i32, cases[c].lim32, "case %zu", c);
    }
    gsp__free(w32);
  }
}

Test(msssp, empty_and_tiny) {
  gsp_matrix A = family_matrix(F_RING, GSP_INT32, 10, 1), D = NULL, P = NULL;
  gsp_msssp_opts o = mopts();
  const gsp_index s = 3;
  GSP_OK(gsp_msssp(&D, &P, A, &s, 0, &o));
  gsp_index nr, nc, nv;
  GSP_OK(gsp_matrix_nrows(&nr, D));
  GSP_OK(gsp_matrix_ncols(&nc, D));
  GSP_OK(gsp_matrix_nvals(&nv, D));
  cr_assert(nr == 0 && nc == 10 && nv == 0);
  gsp_matrix_free(&D), gsp_matrix_free(&P), gsp_matrix_free(&A);
  GSP_OK(gsp_matrix_new(&A, GSP_FP32, 0, 0));
  GSP_OK(gsp_msssp(&D, NULL, A, &s, 0, &o));
  GSP_OK(gsp_matrix_nrows(&nr, D));
  cr_assert_eq(nr, 0);
  gsp_matrix_free(&D), gsp_matrix_free(&A);
}

/* All pairs have one route, gsp_apsp: gsp_msssp refuses a NULL source
 * list (it once meant "every vertex") and names the call to use. */
Test(msssp, null_sources_refused) {
  gsp_matrix A = family_matrix(F_RING, GSP_INT32, 10, 1), D = NULL, P = NULL;
  gsp_msssp_opts o = mopts();
  cr_assert_eq(gsp_msssp(&D, &P, A, NULL, 0, &o), GSP_INVALID_VALUE);
  cr_assert(D == NULL && P == NULL);
  cr_assert(strstr(gsp_last_error(), "gsp_apsp") != NULL, "%s", gsp_last_error());
  cr_assert_eq(gsp_msssp(&D, NULL, A, NULL, 10, &o), GSP_INVALID_VALUE);
  gsp_matrix_free(&A);
}

/* The parent rule pinned by hand on the graph of test_sssp.c's
 * parent_rule_pinned_by_hand (see there), rows from 0, 2 and 6, through
 * gsp_msssp and gsp_apsp's MSSSP and JOHNSON (no negative weight: the
 * potentials are 0). Row 0 differs from hop levels at 3 and 7. From 2:
 * d = - 2 0 2 1 - - 2; 7 takes 4, 3 is a tie one hop from 7, 1 one from 3.
 * From 6: 1 is a tie one hop from 6, 3 one from 1. */
Test(msssp, parent_rule_pinned_by_hand) {
  const gsp_index src[] = {0, 2, 6};
  const double X = INFINITY;
  const double ed[3][8] = {{0, 3, 1, 3, 2, 2, 3, 3}, {X, 2, 0, 2, 1, X, X, 2}, {X, 0, X, 0, X, X, 0, X}};
  const double ep[3][8] = {{0, 6, 0, 7, 2, 0, 0, 4}, {-1, 3, 2, 7, 2, -1, -1, 4}, {-1, 6, -1, 1, -1, -1, 6, -1}};
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A = pinned_graph(t);
    for (int how = 0; how < 3; how++) {
      gsp_test_context("pinned %s %s: ", type_name(t), how == 0 ? "msssp" : how == 1 ? "apsp MSSSP" : "apsp JOHNSON");
      gsp_matrix D = NULL, P = NULL;
      if (how == 0) {
        gsp_msssp_opts o = mopts();
        GSP_OK(gsp_msssp(&D, &P, A, src, 3, &o));
      } else {
        gsp_apsp_opts o;
        memset(&o, 0, sizeof o);
        o.algo = how == 1 ? GSP_APSP_MSSSP : GSP_APSP_JOHNSON;
        o.backend = GSP_BACKEND_CPU;
        o.sources = src, o.nsources = 3;
        GSP_OK(gsp_apsp(&D, &P, A, &o));
      }
      double d[8], p[8];
      for (gsp_index r = 0; r < 3; r++) {
        row_dense(d, D, r, INFINITY);
        row_dense(p, P, r, -1);
        for (int v = 0; v < 8; v++) {
          cr_assert(d[v] == ed[r][v], "%srow %llu dist[%d]: %g, expected %g", gsp_test_ctx, (unsigned long long)r, v,
                    d[v], ed[r][v]);
          cr_assert(p[v] == ep[r][v], "%srow %llu parent[%d]: %g, expected %g", gsp_test_ctx, (unsigned long long)r, v,
                    p[v], ep[r][v]);
        }
      }
      gsp_matrix_free(&D), gsp_matrix_free(&P);
    }
    gsp_matrix_free(&A);
  }
}

#define MSENT ((gsp_matrix)(uintptr_t)0x5a5a)

static void expect_fail(gsp_info want, gsp_matrix A, const gsp_index *src, gsp_index ns, const gsp_msssp_opts *o,
                        const char *what) {
  gsp_matrix D = MSENT, P = MSENT;
  gsp_info info = gsp_msssp(&D, &P, A, src, ns, o);
  cr_assert_eq(info, want, "%s: got %s (%s), want %s", what, gsp_strerror(info), gsp_last_error(), gsp_strerror(want));
  cr_assert(D == MSENT && P == MSENT, "%s: outputs changed", what);
}

Test(msssp, errors) {
  gsp_matrix A = family_matrix(F_RANDOM, GSP_INT64, 20, 1);
  gsp_msssp_opts o = mopts();
  const gsp_index src[] = {1, 2, 20};
  cr_assert_eq(gsp_msssp(NULL, NULL, A, src, 2, &o), GSP_NULL_POINTER);
  expect_fail(GSP_NULL_POINTER, NULL, src, 2, &o, "NULL A");
  expect_fail(GSP_INVALID_INDEX, A, src, 3, &o, "source out of range");
  cr_assert(strstr(gsp_last_error(), "sources[2]"), "%s", gsp_last_error());
  gsp_matrix R = NULL;
  GSP_OK(gsp_matrix_new(&R, GSP_INT64, 2, 3));
  expect_fail(GSP_DIMENSION_MISMATCH, R, src, 1, &o, "non-square");
  gsp_matrix_free(&R);
  gsp_matrix B = NULL;
  GSP_OK(gsp_matrix_pattern(&B, A));
  expect_fail(GSP_DOMAIN_MISMATCH, B, src, 1, &o, "bool");
  gsp_matrix_free(&B);
  gsp_matrix N = NULL;
  GSP_OK(gsp_matrix_dup(&N, A));
  const int64_t neg = -1;
  GSP_OK(gsp_matrix_set_element(N, 3, 4, &neg));
  expect_fail(GSP_INVALID_VALUE, N, src, 1, &o, "negative");
  cr_assert(strstr(gsp_last_error(), "Johnson"), "%s", gsp_last_error());
  gsp_matrix_free(&N);
  gsp_msssp_opts bad = o;
  bad.backend = (gsp_backend)7;
  expect_fail(GSP_INVALID_VALUE, A, src, 1, &bad, "bad backend");
  bad = o, bad.has_cutoff = true, bad.cutoff = -0.5;
  expect_fail(GSP_INVALID_VALUE, A, src, 1, &bad, "negative cutoff");
  bad = o, bad.parent_type = GSP_FP32;
  expect_fail(GSP_INVALID_VALUE, A, src, 1, &bad, "FP32 parents");
  cr_assert(strstr(gsp_last_error(), "parent_type"), "%s", gsp_last_error());
  bad.parent_type = (gsp_type)42;
  expect_fail(GSP_INVALID_VALUE, A, src, 1, &bad, "parent type out of range");
  bool gpu = false;
  GSP_OK(gsp_cuda_available(&gpu, NULL, 0));
  if (!gpu) {
    bad = o, bad.backend = GSP_BACKEND_CUDA;
    expect_fail(GSP_NO_DEVICE, A, src, 1, &bad, "CUDA without a device");
  }

  /* gsp_path_from_parent_row arguments */
  gsp_matrix D = NULL, P = NULL;
  GSP_OK(gsp_msssp(&D, &P, A, src, 2, &o));
  gsp_index path[32], len = 32;
  cr_assert_eq(gsp_path_from_parent_row(path, &len, P, 2, 0), GSP_INVALID_INDEX);
  cr_assert_eq(gsp_path_from_parent_row(path, &len, P, 0, 20), GSP_INVALID_INDEX);
  gsp_matrix Df = NULL;
  GSP_OK(gsp_matrix_cast(&Df, D, GSP_FP64));
  cr_assert_eq(gsp_path_from_parent_row(path, &len, Df, 0, 0), GSP_DOMAIN_MISMATCH);
  gsp_matrix_free(&Df);
  cr_assert_eq(gsp_path_from_parent_row(path, NULL, P, 0, 0), GSP_NULL_POINTER);
  GSP_OK(gsp_path_from_parent_row(path, &len, P, 1, 2));
  cr_assert(len == 1 && path[0] == 2);
  gsp_matrix_free(&D), gsp_matrix_free(&P), gsp_matrix_free(&A);
}

Test(msssp, allocation_failures) {
  gsp_matrix A = family_matrix(F_RANDOM, GSP_FP32, 60, 2);
  tg g = tg_from_matrix(A);
  const gsp_index src[] = {1, 30, 59};
  gsp_msssp_opts o = mopts();
  bool done = false;
  for (long long k = 0; k < 400 && !done; k++) {
    gsp_matrix D = MSENT, P = MSENT;
    o.parent_type = k % 2 ? GSP_INT32 : GSP_INT64; /* each failure point with both */
    gsp__debug_fail_after(k / 2);
    gsp_info info = gsp_msssp(&D, &P, A, src, 3, &o);
    gsp__debug_fail_after(-1);
    if (info == GSP_SUCCESS) {
      done = true;
      gsp_test_context("after %lld failures", k);
      check_rows(&g, D, P, src, 3, INFINITY);
      gsp_matrix_free(&D), gsp_matrix_free(&P);
    } else {
      cr_assert_eq(info, GSP_OUT_OF_MEMORY, "failure %lld: %s", k, gsp_last_error());
      cr_assert(D == MSENT && P == MSENT);
    }
  }
  cr_assert(done);
  tg_free(&g);
  gsp_matrix_free(&A);
}
