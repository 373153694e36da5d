/*
 * gsp_apsp on the CUDA backend: every algorithm against the CPU backend
 * (integer weights and the relaxation kernels bit for bit; Floyd-Warshall
 * on floats within rounding) and against the Bellman-Ford reference;
 * Johnson with negative weights; a small device memory cap that forces row
 * blocks (into the result and through the callback) with the rows of the
 * whole computation; the AUTO choice on the GPU; negative cycles.
 *
 * Every test skips when gsp_cuda_available finds no device. CUDA is first
 * touched inside a test (Criterion forks each), never in the parent.
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apsp_test_ref.h"

static void gpu_or_skip(void) {
  GSP_TEST_GPU_OR_SKIP();
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  GSP_OK(gsp_set_threads(cpus > 0 ? (int)cpus : 0));
}

static gsp_matrix run(gsp_matrix A, gsp_matrix *P, gsp_apsp_opts o, gsp_apsp_report *rep) {
  gsp_matrix D = NULL;
  gsp_apsp_report local;
  gsp_apsp_advanced oa = o.advanced ? *o.advanced : (gsp_apsp_advanced){0};
  o.advanced = &oa;
  oa.report = rep ? rep : &local;
  GSP_OK(gsp_apsp(&D, P, A, &o));
  return D;
}

/* CUDA run == CPU run (exactly, or within rounding for float FW), and the
 * CUDA result against the references. */
static void both(gsp_matrix A, const tg *g, gsp_apsp_opts o, const gsp_index *src, int64_t ns,
                 gsp_backend want_backend) {
  gsp_apsp_report rc, rg;
  o.backend = GSP_BACKEND_CPU;
  gsp_matrix Pc = NULL, Dc = run(A, &Pc, o, &rc);
  /* where the GPU declines (want_backend CPU) an explicit CUDA request
   * fails (GSP_DOMAIN_MISMATCH) and AUTO runs it on the CPU */
  if (want_backend == GSP_BACKEND_CPU) {
    gsp_matrix Pe = NULL, De = NULL;
    o.backend = GSP_BACKEND_CUDA;
    const gsp_info r = gsp_apsp(&De, &Pe, A, &o);
    cr_assert_eq(r, GSP_DOMAIN_MISMATCH, "%sexplicit CUDA on a declined case -> %s (%s)", gsp_test_ctx, gsp_strerror(r),
                 gsp_last_error());
    cr_assert(De == NULL && Pe == NULL);
  }
  o.backend = want_backend == GSP_BACKEND_CPU ? GSP_BACKEND_AUTO : GSP_BACKEND_CUDA;
  gsp_matrix Pg = NULL, Dg = run(A, &Pg, o, &rg);
  cr_assert_eq(rg.algo, rc.algo);
  cr_assert_eq(rg.backend, want_backend, "%sran on backend %d", gsp_test_ctx, (int)rg.backend);
  const bool flt = g->t == GSP_FP32 || g->t == GSP_FP64;
  const bool fw = rg.algo == GSP_APSP_FLOYD_WARSHALL;
  assert_close(Dg, Dc, fw && flt ? (g->t == GSP_FP32 ? 1e-6 : 1e-14) : 0);
  if (!fw) assert_same(Pg, Pc); /* the parent rule, on both backends */
  check_apsp_rows(g, src, ns, Dg, Pg,
                  (apsp_check){.tol = 0, .rule = !fw, .cutoff = o.has_cutoff ? o.cutoff : INFINITY});
  /* INT32 parents on the GPU: the INT64 ones cast */
  o.parent_type = GSP_INT32;
  gsp_matrix P32 = NULL, Pcast = NULL, D32 = run(A, &P32, o, NULL);
  GSP_OK(gsp_matrix_cast(&Pcast, Pg, GSP_INT32));
  assert_same(D32, Dg);
  assert_same(P32, Pcast);
  gsp_matrix_free(&Dc), gsp_matrix_free(&Pc), gsp_matrix_free(&Dg), gsp_matrix_free(&Pg);
  gsp_matrix_free(&D32), gsp_matrix_free(&P32), gsp_matrix_free(&Pcast);
}

Test(cuda_apsp, algorithms_types_against_cpu) {
  gpu_or_skip();
  const family fams[] = {F_RANDOM, F_RMAT, F_GRID, F_ZERO, F_COMPLETE};
  for (size_t fi = 0; fi < sizeof fams / sizeof *fams; fi++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A0 = family_matrix(fams[fi], t, 300, 40 + fi), A = potential_trick(A0, 30, 3 + fi);
      tg g0 = tg_from_matrix(A0), g = tg_from_matrix(A);
      const gsp_index n = (gsp_index)g.n; /* complete: 80, R-MAT: 256, grid: 289 */
      const gsp_index src[] = {0, 1, 17 % n, n / 2, 17 % n, n - 1};
      for (int a = 0; a < 3; a++) {
        gsp_test_context("%s %s %s: ", family_names[fams[fi]], type_name(t), apsp_algo_names[apsp_algos[a]]);
        gsp_apsp_opts o = aopts(apsp_algos[a], GSP_BACKEND_CUDA);
        o.sources = src, o.nsources = 6;
        /* Floyd-Warshall records successors on the GPU only for strictly
         * positive weights: other paths requests run on the CPU */
        const bool fw_cpu = apsp_algos[a] == GSP_APSP_FLOYD_WARSHALL &&
                            (fams[fi] == F_ZERO || fams[fi] == F_RANDOM || fams[fi] == F_RMAT);
        both(A0, &g0, o, src, 6, fw_cpu ? GSP_BACKEND_CPU : GSP_BACKEND_CUDA);
        if (apsp_algos[a] != GSP_APSP_MSSSP) /* negative weights */
          both(A, &g, o, src, 6, apsp_algos[a] == GSP_APSP_FLOYD_WARSHALL ? GSP_BACKEND_CPU : GSP_BACKEND_CUDA);
      }
      tg_free(&g0), tg_free(&g);
      gsp_matrix_free(&A0), gsp_matrix_free(&A);
    }
  }
}

/* Floyd-Warshall without paths runs on the GPU whatever the signs. */
Test(cuda_apsp, floyd_warshall_distances_on_gpu) {
  gpu_or_skip();
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A0 = family_matrix(F_RMAT, t, 512, 2), A = potential_trick(A0, 20, 2);
    gsp_apsp_opts o = aopts(GSP_APSP_FLOYD_WARSHALL, GSP_BACKEND_CUDA);
    gsp_apsp_report rep;
    gsp_matrix Dg = run(A, NULL, o, &rep);
    cr_assert_eq(rep.backend, GSP_BACKEND_CUDA);
    o.backend = GSP_BACKEND_CPU;
    gsp_matrix Dc = run(A, NULL, o, NULL);
    gsp_test_context("%s: ", type_name(t));
    assert_same(Dg, Dc); /* integer-valued weights: exact in every type */
    gsp_matrix_free(&Dg), gsp_matrix_free(&Dc), gsp_matrix_free(&A0), gsp_matrix_free(&A);
  }
}

/* A device memory cap far below the result: row blocks on the GPU, into
 * the result and through the callback, equal to the CPU's whole result. */
Test(cuda_apsp, memory_cap_row_blocks) {
  gpu_or_skip();
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A0 = family_matrix(F_RMAT, t, 1024, 5), A = potential_trick(A0, 25, 5);
    gsp_index n;
    GSP_OK(gsp_matrix_nrows(&n, A));
    for (int neg = 0; neg < 2; neg++) {
      gsp_matrix B = neg ? A : A0;
      gsp_test_context("%s neg %d: ", type_name(t), neg);
      gsp_apsp_opts o = aopts(GSP_APSP_AUTO, GSP_BACKEND_CPU);
      gsp_apsp_advanced oa = {0};
      o.advanced = &oa;
      gsp_matrix Pc = NULL, Dc = run(B, &Pc, o, NULL);
      o.backend = GSP_BACKEND_CUDA;
      oa.device_memory_cap = (size_t)2 << 20; /* 2 MiB: 128 rows of n x 16 bytes */
      gsp_apsp_report rep;
      gsp_matrix Pg = NULL, Dg = run(B, &Pg, o, &rep);
      cr_assert_eq(rep.algo, neg ? GSP_APSP_JOHNSON : GSP_APSP_MSSSP);
      cr_assert_eq(rep.backend, GSP_BACKEND_CUDA);
      cr_assert_gt(rep.row_blocks, 4, "%s%llu blocks", gsp_test_ctx, (unsigned long long)rep.row_blocks);
      assert_same(Dg, Dc);
      assert_same(Pg, Pc);
      /* through the callback */
      double *wd = dense_all(Dc, INFINITY), *wp = dense_all(Pc, -1);
      rows_sink s = {.n = (int64_t)n, .rows = (int64_t)n, .t = t};
      s.d = malloc(n * n * sizeof *s.d);
      s.p = malloc(n * n * sizeof *s.p);
      oa.rows = rows_sink_fn, oa.rows_ctx = &s;
      gsp_matrix Dx = NULL, Px = NULL;
      oa.report = &rep;
      GSP_OK(gsp_apsp(&Dx, &Px, B, &o));
      cr_assert(Dx == NULL && Px == NULL && s.next == (int64_t)n && s.calls == (int64_t)rep.row_blocks);
      for (gsp_index k = 0; k < n * n; k++)
        cr_assert(s.d[k] == wd[k] && s.p[k] == wp[k], "%sentry %llu: %g/%g vs %g/%g", gsp_test_ctx,
                  (unsigned long long)k, s.d[k], s.p[k], wd[k], wp[k]);
      free(s.d), free(s.p), free(wd), free(wp);
      gsp_matrix_free(&Dc), gsp_matrix_free(&Pc), gsp_matrix_free(&Dg), gsp_matrix_free(&Pg);
    }
    gsp_matrix_free(&A0), gsp_matrix_free(&A);
  }
}

Test(cuda_apsp, auto_selection_on_gpu) {
  gpu_or_skip();
  gsp_apsp_report rep;
  gsp_apsp_opts o = aopts(GSP_APSP_AUTO, GSP_BACKEND_CUDA);
  gsp_apsp_advanced oa = {0};
  o.advanced = &oa;
  oa.report = &rep;
  gsp_matrix A = NULL, D = NULL;
  GSP_OK(gsp_generate_complete(&A, GSP_FP32, 2048, 1, 100, 1));
  GSP_OK(gsp_apsp(&D, NULL, A, &o));
  cr_assert(rep.algo == GSP_APSP_FLOYD_WARSHALL && rep.backend == GSP_BACKEND_CUDA, "dense 2048: %d on %d",
            (int)rep.algo, (int)rep.backend);
  gsp_matrix_free(&D), gsp_matrix_free(&A);
  oa.dry_run = true;
  GSP_OK(gsp_generate_rmat(&A, GSP_INT32, 17, 4, 0, 0, 0, 1, 100, 2)); /* 131072 vertices */
  GSP_OK(gsp_apsp(&D, NULL, A, &o));
  cr_assert_eq(rep.algo, GSP_APSP_MSSSP, "sparse 2^17: %d (fw %g s, msssp %g s)", (int)rep.algo,
               rep.predicted_seconds[1], rep.predicted_seconds[2]);
  gsp_matrix N = potential_trick(A, 50, 2);
  GSP_OK(gsp_apsp(&D, NULL, N, &o));
  cr_assert_eq(rep.algo, GSP_APSP_JOHNSON);
  cr_assert_null(D);
  gsp_matrix_free(&A), gsp_matrix_free(&N);
}

Test(cuda_apsp, negative_cycle) {
  gpu_or_skip();
  gsp_matrix A0 = family_matrix(F_RANDOM, GSP_INT32, 400, 3), A = NULL;
  GSP_OK(gsp_matrix_dup(&A, A0));
  const int32_t w = -1000;
  GSP_OK(gsp_matrix_set_element(A, 10, 11, &w));
  GSP_OK(gsp_matrix_set_element(A, 11, 10, &w));
  for (int a = 0; a < 3; a += 2) {
    gsp_apsp_opts o = aopts(apsp_algos[a], GSP_BACKEND_CUDA);
    gsp_matrix D = NULL, P = NULL;
    /* Floyd-Warshall without paths: the GPU closure finds the cycle */
    const bool fw = apsp_algos[a] == GSP_APSP_FLOYD_WARSHALL;
    cr_assert_eq(gsp_apsp(&D, fw ? NULL : &P, A, &o), GSP_NEGATIVE_CYCLE, "%s", apsp_algo_names[apsp_algos[a]]);
    cr_assert(D == NULL && P == NULL);
    /* which cycle is named depends on the graph (many pass 10 -> 11 or
     * 11 -> 10); that one is named at all is the point */
    cr_assert(strstr(gsp_last_error(), "negative cycle, ") && strstr(gsp_last_error(), " arcs; found by"), "%s",
              gsp_last_error());
  }
  gsp_matrix_free(&A0), gsp_matrix_free(&A);
}

/* Johnson on a larger R-MAT graph with negative weights: the GPU's rows
 * equal the CPU's (sample of sources). */
Test(cuda_apsp, johnson_larger_graph) {
  gpu_or_skip();
  gsp_matrix A0 = NULL;
  GSP_OK(gsp_generate_rmat(&A0, GSP_INT32, 14, 8, 0, 0, 0, 1, 1000, 9));
  gsp_matrix A = potential_trick(A0, 200, 9);
  gsp_index n;
  GSP_OK(gsp_matrix_nrows(&n, A));
  gsp_index src[100];
  for (int k = 0; k < 100; k++) src[k] = (gsp_index)((k * 2654435761u) % n);
  gsp_apsp_opts o = aopts(GSP_APSP_JOHNSON, GSP_BACKEND_CUDA);
  o.sources = src, o.nsources = 100;
  gsp_apsp_report rep;
  gsp_matrix Pg = NULL, Dg = run(A, &Pg, o, &rep);
  cr_assert_eq(rep.backend, GSP_BACKEND_CUDA);
  o.backend = GSP_BACKEND_CPU;
  gsp_matrix Pc = NULL, Dc = run(A, &Pc, o, NULL);
  assert_same(Dg, Dc);
  assert_same(Pg, Pc);
  gsp_matrix_free(&Dg), gsp_matrix_free(&Pg), gsp_matrix_free(&Dc), gsp_matrix_free(&Pc);
  gsp_matrix_free(&A0), gsp_matrix_free(&A);
}
