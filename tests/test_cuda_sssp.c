/*
 * gsp_sssp, gsp_nearest_source and gsp_msssp on the CUDA backend: every
 * result must equal the CPU backend's bit for bit (distances and parents),
 * and is also checked against the reference Dijkstra and parent rule of
 * sssp_test_ref.h. Covers every algorithm and weight type, push and pull
 * rounds (small and large frontiers), cutoffs, many-source batch widths
 * that are and are not multiples of the warp size, and graphs large enough
 * to fill the device.
 *
 * Every test skips when gsp_cuda_available finds no device. CUDA is first
 * touched inside a test (Criterion runs each in a forked child), never in
 * the parent process.
 *
 * Parents come from one pass over the arcs after the distances; the tie
 * BFS behind it (vertices reached only over zero-length tight arcs) is
 * exercised by zero-weight graphs, float absorption and a zero-weight ring
 * whose every vertex is a tie, its levels as deep as the ring is long.
 */
#define _POSIX_C_SOURCE  200809L
#define GSP_ADVANCED_API /* gsp_run_report */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda_ties_test.h"
#include "sssp_test_ref.h"

static void gpu_or_skip(void) {
  GSP_TEST_GPU_OR_SKIP();
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  GSP_OK(gsp_set_threads(cpus > 0 ? (int)cpus : 0));
}

static gsp_sssp_opts sopts(gsp_sssp_algo a, gsp_backend b) {
  gsp_sssp_opts o = {0};
  o.algo = a, o.backend = b;
  return o;
}

/* Test settings of the GPU calls of sssp_both (zero: the library's). */
static gsp__sssp_knobs stage_knobs;

/* GPU run (o.backend, CUDA when CPU is given) == CPU run with the same
 * options, and == the references. */
static void sssp_both(gsp_matrix A, const tg *g, gsp_index src, gsp_sssp_opts o) {
  gsp_vector dc = NULL, pc = NULL, dg = NULL, pg = NULL;
  const gsp_backend gb = o.backend == GSP_BACKEND_CPU ? GSP_BACKEND_CUDA : o.backend;
  o.backend = GSP_BACKEND_CPU;
  GSP_OK(gsp_sssp(&dc, &pc, A, src, &o));
  o.backend = gb;
  GSP_OK(sssp_reported(&dg, &pg, A, src, &o, &stage_knobs));
  gsp_test_assert_vector_same(dg, dc, 0);
  gsp_test_assert_vector_same(pg, pc, 0);
  const int64_t s = (int64_t)src;
  check_sssp_result(g, &s, 1, o.has_cutoff ? o.cutoff : INFINITY, dg, pg, NULL);
  /* distances alone */
  gsp_vector d2 = NULL;
  GSP_OK(sssp_reported(&d2, NULL, A, src, &o, &stage_knobs));
  gsp_test_assert_vector_same(d2, dc, 0);
  gsp_vector_free(&dc), gsp_vector_free(&pc), gsp_vector_free(&dg), gsp_vector_free(&pg), gsp_vector_free(&d2);
}

Test(cuda_sssp, families_types_algorithms) {
  gpu_or_skip();
  for (int f = 0; f < F_COUNT; f++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A = family_matrix((family)f, t, 400, 17 + (uint64_t)f);
      tg g = tg_from_matrix(A);
      for (size_t ai = 0; ai < 4; ai++) {
        for (gsp_index src = 0; src < 2; src++) {
          gsp_test_context("gpu %s %s %s src %llu", family_names[f], type_name(t), sssp_algo_names[sssp_algos[ai]],
                           (unsigned long long)src);
          sssp_both(A, &g, src * (gsp_index)(g.n / 2), sopts(sssp_algos[ai], GSP_BACKEND_CUDA));
        }
      }
      tg_free(&g);
      gsp_matrix_free(&A);
    }
  }
}

Test(cuda_sssp, large_graphs_push_and_pull) {
  gpu_or_skip();
  /* dense frontiers (R-MAT: pull rounds), long thin ones (grid, ring) */
  const family fams[] = {F_RMAT, F_GRID, F_RANDOM, F_ZERO, F_RING2, F_ABSORB};
  for (size_t fi = 0; fi < sizeof fams / sizeof *fams; fi++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      const int64_t size = fams[fi] == F_RING2 ? 20000 : 1 << 17;
      gsp_matrix A = family_matrix(fams[fi], t, size, 5);
      tg g = tg_from_matrix(A);
      for (size_t ai = 0; ai < 3; ai++) {
        if (sssp_algos[ai] == GSP_SSSP_HARISH && (fams[fi] == F_GRID || fams[fi] == F_RING2)) continue; /* slow */
        gsp_test_context("gpu large %s %s %s", family_names[fams[fi]], type_name(t), sssp_algo_names[sssp_algos[ai]]);
        sssp_both(A, &g, 3, sopts(sssp_algos[ai], GSP_BACKEND_CUDA));
      }
      tg_free(&g);
      gsp_matrix_free(&A);
    }
  }
}

Test(cuda_sssp, cutoff_and_delta) {
  gpu_or_skip();
  const double cuts[] = {0, 6, 13.5, 40};
  const double deltas[] = {0.5, 2, 50, 1e9};
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A = family_matrix(F_RANDOM, t, 3000, 2);
    tg g = tg_from_matrix(A);
    for (size_t k = 0; k < 4; k++) {
      for (size_t ai = 0; ai < 4; ai++) {
        gsp_test_context("gpu cutoff %g %s %s", cuts[k], type_name(t), sssp_algo_names[sssp_algos[ai]]);
        gsp_sssp_opts o = sopts(sssp_algos[ai], GSP_BACKEND_CUDA);
        o.has_cutoff = true, o.cutoff = cuts[k];
        sssp_both(A, &g, 1, o);
      }
      gsp_test_context("gpu delta %g %s", deltas[k], type_name(t));
      gsp_sssp_opts o = sopts(GSP_SSSP_DELTA, GSP_BACKEND_CUDA);
      o.delta = deltas[k];
      sssp_both(A, &g, 1, o);
    }
    tg_free(&g);
    gsp_matrix_free(&A);
  }
}

Test(cuda_sssp, nearest_source) {
  gpu_or_skip();
  for (int f = 0; f < F_COUNT; f++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A = family_matrix((family)f, t, 2000, 9 + (uint64_t)f);
      tg g = tg_from_matrix(A);
      const gsp_index srcs[] = {0, 11, 11, (gsp_index)g.n / 2, (gsp_index)g.n - 1};
      const int64_t s64[] = {0, 11, 11, g.n / 2, g.n - 1};
      for (size_t ai = 0; ai < 4; ai++) {
        gsp_test_context("gpu nearest %s %s %s", family_names[f], type_name(t), sssp_algo_names[sssp_algos[ai]]);
        gsp_sssp_opts o = sopts(sssp_algos[ai], GSP_BACKEND_CPU);
        gsp_vector dc = NULL, sc = NULL, pc = NULL, dg = NULL, sg = NULL, pg = NULL;
        GSP_OK(gsp_nearest_source(&dc, &sc, &pc, A, srcs, 5, &o));
        o.backend = GSP_BACKEND_CUDA;
        GSP_OK(gsp_nearest_source(&dg, &sg, &pg, A, srcs, 5, &o));
        gsp_test_assert_vector_same(dg, dc, 0);
        gsp_test_assert_vector_same(sg, sc, 0);
        gsp_test_assert_vector_same(pg, pc, 0);
        check_sssp_result(&g, s64, 5, INFINITY, dg, pg, sg);
        gsp_vector_free(&dc), gsp_vector_free(&sc), gsp_vector_free(&pc);
        gsp_vector_free(&dg), gsp_vector_free(&sg), gsp_vector_free(&pg);
      }
      tg_free(&g);
      gsp_matrix_free(&A);
    }
  }
}

/* msssp GPU == CPU for a batch width. */
static void msssp_both(gsp_matrix A, const gsp_index *src, gsp_index ns, gsp_index batch, bool cut, double cutoff) {
  gsp_index *all = NULL;
  if (!src) src = all = gsp_test_all_sources(A, &ns);
  gsp_msssp_opts o = {0};
  o.has_cutoff = cut, o.cutoff = cutoff;
  o.backend = GSP_BACKEND_CPU;
  gsp_matrix Dc = NULL, Pc = NULL, Dg = NULL, Pg = NULL;
  GSP_OK(gsp_msssp(&Dc, &Pc, A, src, ns, &o));
  o.backend = GSP_BACKEND_CUDA, o.batch = batch;
  GSP_OK(gsp_msssp(&Dg, &Pg, A, src, ns, &o));
  gsp_test_assert_matrix_same(Dg, Dc, 0);
  gsp_test_assert_matrix_same(Pg, Pc, 0);
  gsp_matrix D2 = NULL;
  GSP_OK(gsp_msssp(&D2, NULL, A, src, ns, &o));
  gsp_test_assert_matrix_same(D2, Dc, 0);
  gsp_matrix_free(&Dc), gsp_matrix_free(&Pc), gsp_matrix_free(&Dg), gsp_matrix_free(&Pg), gsp_matrix_free(&D2);
  free(all);
}

Test(cuda_sssp, msssp_families_batches) {
  gpu_or_skip();
  const gsp_index batches[] = {0, 32, 40, 64, 1000};
  for (int f = 0; f < F_COUNT; f++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A = family_matrix((family)f, t, 300, 23 + (uint64_t)f);
      gsp_index n;
      GSP_OK(gsp_matrix_nrows(&n, A));
      gsp_index src[100];
      for (int k = 0; k < 100; k++) src[k] = (gsp_index)((k * 37) % (int)n); /* repeats included */
      for (size_t bi = 0; bi < 5; bi++) {
        gsp_test_context("gpu msssp %s %s batch %llu", family_names[f], type_name(t), (unsigned long long)batches[bi]);
        msssp_both(A, src, 100, batches[bi], false, 0);
      }
      gsp_test_context("gpu msssp %s %s cutoff", family_names[f], type_name(t));
      msssp_both(A, src, 100, 0, true, 9.5);
      /* all pairs, and against the references for a few rows */
      gsp_test_context("gpu apsp %s %s", family_names[f], type_name(t));
      msssp_both(A, NULL, 0, 0, false, 0);
      gsp_matrix_free(&A);
    }
  }
}

Test(cuda_sssp, msssp_rows_against_reference) {
  gpu_or_skip();
  gsp_matrix A = family_matrix(F_RMAT, GSP_FP32, 4096, 3);
  tg g = tg_from_matrix(A);
  gsp_index src[70];
  for (int k = 0; k < 70; k++) src[k] = (gsp_index)(k * 53 % 4096);
  gsp_msssp_opts o = {0};
  o.backend = GSP_BACKEND_CUDA;
  gsp_matrix D = NULL, P = NULL;
  GSP_OK(gsp_msssp(&D, &P, A, src, 70, &o));
  double *dd = malloc(4096 * sizeof *dd), *pp = malloc(4096 * sizeof *pp);
  for (int r = 0; r < 70; r += 9) {
    gsp_test_context("gpu msssp row %d", r);
    row_dense(dd, D, (gsp_index)r, INFINITY);
    row_dense(pp, P, (gsp_index)r, -1);
    const int64_t s = (int64_t)src[r];
    check_dense(&g, &s, 1, INFINITY, dd, pp, NULL);
  }
  free(dd), free(pp);
  gsp_matrix_free(&D), gsp_matrix_free(&P);
  tg_free(&g);
  gsp_matrix_free(&A);
}

Test(cuda_sssp, auto_backend_and_decline) {
  gpu_or_skip();
  /* AUTO backend runs (on the GPU when it takes the call) and agrees */
  gsp_matrix A = family_matrix(F_GRID, GSP_INT32, 10000, 8);
  tg g = tg_from_matrix(A);
  gsp_test_context("auto backend");
  sssp_both(A, &g, 0, sopts(GSP_SSSP_AUTO, GSP_BACKEND_AUTO));
  tg_free(&g);
  gsp_matrix_free(&A);
  /* a result of the GPU closure (kept on the device) as input */
  A = family_matrix(F_RANDOM, GSP_FP64, 300, 4);
  gsp_matrix C = NULL;
  GSP_OK(gsp_matrix_dup(&C, A));
  gsp_closure_opts co = {0};
  co.backend = GSP_BACKEND_CUDA;
  GSP_OK(gsp_closure_ext(C, NULL, GSP_MIN_PLUS, &co));
  g = tg_from_matrix(C);
  gsp_test_context("closure result as input");
  sssp_both(C, &g, 5, sopts(GSP_SSSP_DA2CF, GSP_BACKEND_CUDA));
  tg_free(&g);
  gsp_matrix_free(&C), gsp_matrix_free(&A);
}

/* ---- the persistent near-far kernel (AUTO / DELTA on the GPU) ---- */

/* Hubs of every size class the kernel treats apart: vertex 0 points at
 * every leaf (a hub far above the grid-wide threshold), a few vertices of
 * degree 40..5000 (warp-cooperative and hub lists), leaves with three
 * random arcs each. Weights are integers in [wmin, wmax] (0 gives zero-weight
 * arcs and zero cycles). */
static gsp_matrix hub_graph(gsp_type t, int64_t leaves, int64_t wmin, int64_t wmax, uint64_t seed) {
  static const int64_t mids[] = {40, 200, 1500, 5000, 31, 32, 33, 1023, 1024};
  const int64_t nm = (int64_t)(sizeof mids / sizeof *mids), n = 1 + leaves + nm;
  int64_t cap = leaves * 5 + 16;
  for (int64_t k = 0; k < nm; k++) cap += mids[k];
  gsp_index *I = malloc(cap * sizeof *I), *J = malloc(cap * sizeof *J);
  double *W = malloc(cap * sizeof *W);
  cr_assert(I && J && W);
  uint64_t st = seed;
  int64_t m = 0;
#define ARC(u, v)                                \
  (I[m] = (gsp_index)(u), J[m] = (gsp_index)(v), \
   W[m] = (double)(wmin + (int64_t)(gsp_test_rand(&st) % (uint64_t)(wmax - wmin + 1))), m++)
  for (int64_t v = 1; v <= leaves; v++) ARC(0, v);
  for (int64_t v = 1; v <= leaves; v++) {
    for (int k = 0; k < 3; k++) ARC(v, 1 + (int64_t)(gsp_test_rand(&st) % (uint64_t)(n - 1)));
    if (v % 97 == 0) ARC(v, 1 + leaves + (int64_t)(gsp_test_rand(&st) % (uint64_t)nm));
  }
  for (int64_t k = 0; k < nm; k++)
    for (int64_t e = 0; e < mids[k]; e++) ARC(1 + leaves + k, 1 + (int64_t)(gsp_test_rand(&st) % (uint64_t)(n - 1)));
#undef ARC
  gsp_matrix D = NULL, A = NULL;
  GSP_OK(gsp_matrix_new(&D, GSP_FP64, (gsp_index)n, (gsp_index)n));
  GSP_OK(gsp_matrix_build(D, I, J, W, (gsp_index)m, GSP_DUP_MIN));
  free(I), free(J), free(W);
  if (t == GSP_FP64) return D;
  GSP_OK(gsp_matrix_cast(&A, D, t));
  gsp_matrix_free(&D);
  return A;
}

Test(cuda_sssp, nearfar_hubs_and_zero_weights) {
  gpu_or_skip();
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    for (int z = 0; z < 2; z++) {
      gsp_matrix A = hub_graph(t, 100000, z ? 0 : 1, z ? 3 : 60, 31 + (uint64_t)z);
      tg g = tg_from_matrix(A);
      const gsp_index srcs[] = {0, 5, 100003};
      for (size_t si = 0; si < 3; si++) {
        gsp_test_context("gpu hubs %s zero %d src %llu", type_name(t), z, (unsigned long long)srcs[si]);
        sssp_both(A, &g, srcs[si], sopts(GSP_SSSP_AUTO, GSP_BACKEND_CUDA));
      }
      gsp_test_context("gpu hubs %s zero %d delta 1", type_name(t), z);
      gsp_sssp_opts o = sopts(GSP_SSSP_DELTA, GSP_BACKEND_CUDA);
      o.delta = 1; /* many buckets, far pile splits */
      sssp_both(A, &g, 0, o);
      gsp_test_context("gpu hubs %s zero %d cutoff", type_name(t), z);
      o = sopts(GSP_SSSP_AUTO, GSP_BACKEND_CUDA);
      o.has_cutoff = true, o.cutoff = z ? 2 : 70;
      sssp_both(A, &g, 0, o);
      tg_free(&g);
      gsp_matrix_free(&A);
    }
  }
}

/* All weights 1 (many tight tails per vertex, all strict) and weights in
 * {1, 2}: the parent must be the smallest tight tail, whatever the
 * relaxation order. */
Test(cuda_sssp, nearfar_ties_and_levels) {
  gpu_or_skip();
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    for (int wmax = 1; wmax <= 2; wmax++) {
      gsp_matrix A = NULL;
      GSP_OK(gsp_generate_rmat(&A, t, 16, 8, 0, 0, 0, 1, wmax, 40 + (uint64_t)wmax));
      tg g = tg_from_matrix(A);
      gsp_test_context("gpu ties rmat %s w 1..%d", type_name(t), wmax);
      sssp_both(A, &g, 7, sopts(GSP_SSSP_AUTO, GSP_BACKEND_CUDA));
      tg_free(&g);
      gsp_matrix_free(&A);
      GSP_OK(gsp_generate_grid(&A, t, 150, 170, 1, wmax, 50 + (uint64_t)wmax));
      g = tg_from_matrix(A);
      gsp_test_context("gpu ties grid %s w 1..%d", type_name(t), wmax);
      sssp_both(A, &g, 150 * 85 + 3, sopts(GSP_SSSP_AUTO, GSP_BACKEND_CUDA));
      tg_free(&g);
      gsp_matrix_free(&A);
    }
  }
}

/* Thousands of steps in one kernel: a long ring and a long thin grid. */
Test(cuda_sssp, nearfar_long_paths) {
  gpu_or_skip();
  for (size_t ti = 0; ti < 4; ti += 3) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A = NULL;
    GSP_OK(gsp_generate_ring(&A, t, 60000, false, 1, 9, 3));
    tg g = tg_from_matrix(A);
    gsp_test_context("gpu ring %s", type_name(t));
    sssp_both(A, &g, 12, sopts(GSP_SSSP_AUTO, GSP_BACKEND_CUDA));
    tg_free(&g);
    gsp_matrix_free(&A);
    GSP_OK(gsp_generate_grid(&A, t, 8, 20000, 1, 255, 4));
    g = tg_from_matrix(A);
    gsp_test_context("gpu thin grid %s", type_name(t));
    sssp_both(A, &g, 0, sopts(GSP_SSSP_AUTO, GSP_BACKEND_CUDA));
    tg_free(&g);
    gsp_matrix_free(&A);
  }
}

/* Many sources (the source list above 64 entries), hubs among them. */
Test(cuda_sssp, nearfar_nearest_source_many) {
  gpu_or_skip();
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A = hub_graph(t, 20000, 0, 9, 77);
    tg g = tg_from_matrix(A);
    gsp_index srcs[300];
    int64_t s64[300];
    for (int k = 0; k < 300; k++) srcs[k] = (gsp_index)((k * 211) % 20010), s64[k] = (int64_t)srcs[k];
    srcs[7] = s64[7] = 0;         /* the big hub */
    srcs[8] = s64[8] = 20000 + 4; /* a mid hub (degree 5000) */
    srcs[9] = s64[9] = srcs[10];  /* a repeat */
    gsp_test_context("gpu nearest many %s", type_name(t));
    gsp_sssp_opts o = sopts(GSP_SSSP_AUTO, GSP_BACKEND_CPU);
    gsp_vector dc = NULL, sc = NULL, pc = NULL, dg = NULL, sg = NULL, pg = NULL;
    GSP_OK(gsp_nearest_source(&dc, &sc, &pc, A, srcs, 300, &o));
    o.backend = GSP_BACKEND_CUDA;
    GSP_OK(gsp_nearest_source(&dg, &sg, &pg, A, srcs, 300, &o));
    gsp_test_assert_vector_same(dg, dc, 0);
    gsp_test_assert_vector_same(sg, sc, 0);
    gsp_test_assert_vector_same(pg, pc, 0);
    check_sssp_result(&g, s64, 300, INFINITY, dg, pg, sg);
    gsp_vector_free(&dc), gsp_vector_free(&sc), gsp_vector_free(&pc);
    gsp_vector_free(&dg), gsp_vector_free(&sg), gsp_vector_free(&pg);
    tg_free(&g);
    gsp_matrix_free(&A);
  }
}

/* A(i,j) = x in A's type t. */
static void set_typed(gsp_matrix A, gsp_type t, gsp_index i, gsp_index j, double x) {
  int32_t i32 = (int32_t)x;
  int64_t i64 = (int64_t)x;
  float f32 = (float)x;
  const void *p = t == GSP_INT32   ? (const void *)&i32
                  : t == GSP_INT64 ? (const void *)&i64
                  : t == GSP_FP32  ? (const void *)&f32
                                   : (const void *)&x;
  GSP_OK(gsp_matrix_set_element(A, i, j, p));
}

/* The device copy kept with A must follow every change of A: a new arc,
 * a changed weight, and a negative weight (which must still be refused). */
Test(cuda_sssp, device_graph_follows_changes) {
  gpu_or_skip();
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A = family_matrix(F_RANDOM, t, 5000, 12);
    tg g = tg_from_matrix(A);
    gsp_test_context("gpu cache %s first", type_name(t));
    sssp_both(A, &g, 1, sopts(GSP_SSSP_AUTO, GSP_BACKEND_CUDA)); /* keeps the device copy */
    tg_free(&g);
    set_typed(A, t, 1, 4999, 0); /* a free shortcut: changes many distances */
    g = tg_from_matrix(A);
    gsp_test_context("gpu cache %s after set_element", type_name(t));
    sssp_both(A, &g, 1, sopts(GSP_SSSP_AUTO, GSP_BACKEND_CUDA));
    sssp_both(A, &g, 1, sopts(GSP_SSSP_DA2CF, GSP_BACKEND_CUDA)); /* adds the in-arcs */
    tg_free(&g);
    set_typed(A, t, 2, 3, -1);
    gsp_vector d = NULL;
    gsp_sssp_opts o = sopts(GSP_SSSP_AUTO, GSP_BACKEND_CUDA);
    gsp_test_context("gpu cache %s negative weight", type_name(t));
    cr_assert_eq(gsp_sssp(&d, NULL, A, 1, &o), GSP_INVALID_VALUE);
    cr_assert_null(d);
    gsp_matrix_free(&A);
  }
}

/* ---- the parent pass and its tie BFS ---- */

/* One GPU run with parents (one source, or nearest of several) against the
 * CPU and the references; returns the ties the GPU's parent pass found. */
static int64_t parents_case(gsp_matrix A, const tg *g, const gsp_index *srcs, gsp_index ns, int *levels) {
  gsp_sssp_opts o = sopts(GSP_SSSP_AUTO, GSP_BACKEND_CPU);
  gsp_vector dc = NULL, pc = NULL, sc = NULL, dg = NULL, pg = NULL, sg = NULL;
  int64_t s64[8];
  for (gsp_index k = 0; k < ns; k++) s64[k] = (int64_t)srcs[k];
  if (ns == 1) GSP_OK(gsp_sssp(&dc, &pc, A, srcs[0], &o));
  else GSP_OK(gsp_nearest_source(&dc, &sc, &pc, A, srcs, ns, &o));
  o.backend = GSP_BACKEND_CUDA;
  if (ns == 1) GSP_OK(sssp_reported(&dg, &pg, A, srcs[0], &o, &stage_knobs));
  else GSP_OK(nearest_reported(&dg, &sg, &pg, A, srcs, ns, &o));
  const int64_t ties = last_ties(levels);
  gsp_test_assert_vector_same(dg, dc, 0);
  gsp_test_assert_vector_same(pg, pc, 0);
  if (ns > 1) gsp_test_assert_vector_same(sg, sc, 0);
  check_sssp_result(g, s64, (int64_t)ns, INFINITY, dg, pg, sg);
  gsp_vector_free(&dc), gsp_vector_free(&pc), gsp_vector_free(&sc);
  gsp_vector_free(&dg), gsp_vector_free(&pg), gsp_vector_free(&sg);
  return ties;
}

/* A directed ring of zero-weight arcs: every vertex but the source is a
 * tie, at BFS level = its distance in hops, so the BFS runs n - 1 levels.
 * Beside it the same ring with weights 1..9: no ties at all. */
Test(cuda_sssp, tie_bfs_zero_ring) {
  gpu_or_skip();
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    const gsp_index n = 5000, src = 17;
    for (int z = 0; z < 2; z++) {
      gsp_matrix A = NULL;
      GSP_OK(gsp_generate_ring(&A, t, n, false, z ? 0 : 1, z ? 0 : 9, 8));
      tg g = tg_from_matrix(A);
      gsp_test_context("gpu ring %s weights %s", type_name(t), z ? "0" : "1..9");
      int levels = 0;
      const int64_t ties = parents_case(A, &g, &src, 1, &levels);
      if (ties >= 0) {
        cr_assert_eq(ties, z ? (int64_t)n - 1 : 0, "%lld ties", (long long)ties);
        if (z) cr_assert_eq(levels, (int)n, "%d BFS launches", levels); /* n - 1 levels, one quiet */
      }
      tg_free(&g);
      gsp_matrix_free(&A);
    }
  }
}

/* Ties among hubs, zero cycles, R-MAT and grids with weights 0..2, and
 * float absorption, from one source and from several (nearest source, with
 * roots): the tie BFS is seeded with every vertex that has its parent. */
Test(cuda_sssp, tie_bfs_zero_weights_and_absorption) {
  gpu_or_skip();
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix H = hub_graph(t, 30000, 0, 3, 91); /* zero weights: ties and zero cycles */
    gsp_matrix R = NULL, G = NULL;
    GSP_OK(gsp_generate_rmat(&R, t, 15, 8, 0, 0, 0, 0, 2, 92));
    GSP_OK(gsp_generate_grid(&G, t, 60, 70, 0, 2, 93));
    gsp_matrix Z = family_matrix(F_ZERO, t, 3000, 94), B = family_matrix(F_ABSORB, t, 3000, 95);
    gsp_matrix mats[] = {H, R, G, Z, B};
    const char *names[] = {"hubs", "rmat", "grid", "zero", "absorb"};
    for (int mi = 0; mi < 5; mi++) {
      tg g = tg_from_matrix(mats[mi]);
      gsp_test_context("gpu ties %s %s", names[mi], type_name(t));
      gsp_index one = 5; /* a source with an out-arc */
      while (g.p[one + 1] == g.p[one]) one = (one + 1) % (gsp_index)g.n;
      int levels = 0;
      const int64_t ties = parents_case(mats[mi], &g, &one, 1, &levels);
      if (ties >= 0 && mi < 4) cr_assert(ties > 0, "zero-weight arcs but no ties");
      const gsp_index many[] = {0, 7, 1000, 2500, 7};
      parents_case(mats[mi], &g, many, 5, &levels);
      tg_free(&g);
    }
    gsp_matrix_free(&H), gsp_matrix_free(&R), gsp_matrix_free(&G), gsp_matrix_free(&Z), gsp_matrix_free(&B);
  }
}

/* ---- results staged back in chunks ---- */

/* Chunks of the last GPU call; -1 when the GPU did not run it. */
static int last_chunks(void) {
  return last_diag.sssp_gpu ? last_diag.sssp.chunks : -1;
}

/* Tiny staging slots (the stage_bytes knob) so that the
 * results come back in many chunks, with the slots reused while copies of
 * later chunks are in flight: distances alone and with parents, full
 * vectors (a grid reaches everything), partial ones (R-MAT, a cutoff) and
 * nearest sources with roots. Every result must equal the CPU's. */
Test(cuda_sssp, staged_chunks) {
  gpu_or_skip();
  const size_t slot_bytes[] = {16, 1000, 40000};
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix G = NULL, R = NULL, S = NULL;
    GSP_OK(gsp_generate_grid(&S, t, 30, 40, 1, 9, 60));   /* 1200 vertices, all reached */
    GSP_OK(gsp_generate_grid(&G, t, 120, 150, 1, 9, 61)); /* 18000 */
    GSP_OK(gsp_generate_rmat(&R, t, 15, 8, 0, 0, 0, 1, 40, 62));
    gsp_matrix mats[] = {S, G, R};
    const char *names[] = {"small grid", "grid", "rmat"};
    for (int mi = 0; mi < 3; mi++) {
      tg g = tg_from_matrix(mats[mi]);
      for (size_t bi = 0; bi < sizeof slot_bytes / sizeof *slot_bytes; bi++) {
        if (bi == 0 && mi > 0) continue; /* a chunk of 1..4 vertices: small graph only */
        gsp__debug_sssp_stage_bytes(slot_bytes[bi]);
        {
          gsp_test_context("gpu staged %s %s slot %zu bytes", names[mi], type_name(t), slot_bytes[bi]);
          gsp_index src = 3;
          while (g.p[src + 1] == g.p[src]) src = (src + 1) % (gsp_index)g.n;
          sssp_both(mats[mi], &g, src, sopts(GSP_SSSP_AUTO, GSP_BACKEND_CUDA));
          /* the last call (distances alone): chunks of slot / type size */
          const int64_t ts = t == GSP_INT32 || t == GSP_FP32 ? 4 : 8, per = (int64_t)slot_bytes[bi] / ts;
          const int64_t cv = per < 1 ? 1 : per > g.n ? g.n : per, ch = last_chunks();
          if (ch >= 0) cr_assert_eq(ch, (g.n + cv - 1) / cv, "%lld chunks of %lld", (long long)ch, (long long)cv);
          gsp_sssp_opts o = sopts(GSP_SSSP_AUTO, GSP_BACKEND_CUDA);
          o.has_cutoff = true, o.cutoff = 25;
          sssp_both(mats[mi], &g, src, o);
          const gsp_index many[] = {0, 7, 700, 1100, 7};
          int levels = 0;
          parents_case(mats[mi], &g, many, 5, &levels);
        }
      }
      gsp__debug_sssp_stage_bytes(0);
      tg_free(&g);
    }
    gsp_matrix_free(&S), gsp_matrix_free(&G), gsp_matrix_free(&R);
  }
}

/* The near-far kernel's chain rounds (a warp expands the vertices it just
 * improved before the barrier), block counts and hub degrees, forced by
 * the knobs: one
 * round, a few, more than a bucket needs; one block per SM and the
 * library's; buckets of the default width, of width 1 (many far splits)
 * and one bucket for everything (the longest chains, buffers overflowing
 * into the queue). Grids, R-MAT (hubs), zero weights and float absorption,
 * every type; distances and parents equal the CPU's, and the report shows
 * the forced settings. */
Test(cuda_sssp, nearfar_chain_rounds_and_blocks) {
  gpu_or_skip();
  const family fams[] = {F_GRID, F_RMAT, F_ZERO, F_ABSORB, F_RING2};
  const int chains[] = {1, 3, 40};
  const int bps[] = {1, 0};
  const double deltas[] = {0, 1, 1e9};
  const int64_t hubs[] = {32, 1 << 20}; /* every degree from 32 spread; none */
  for (size_t fi = 0; fi < sizeof fams / sizeof *fams; fi++) {
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A = family_matrix(fams[fi], t, fams[fi] == F_RING2 ? 3000 : 1 << 14, 23);
      tg g = tg_from_matrix(A);
      for (size_t ci = 0; ci < sizeof chains / sizeof *chains; ci++)
        for (size_t bi = 0; bi < sizeof bps / sizeof *bps; bi++)
          for (size_t di = 0; di < sizeof deltas / sizeof *deltas; di++) {
            gsp_test_context("gpu chain %d bps %d delta %g hub %lld %s %s", chains[ci], bps[bi], deltas[di],
                             (long long)hubs[(ci + di) % 2], family_names[fams[fi]], type_name(t));
            stage_knobs.chain = chains[ci], stage_knobs.blocks_per_sm = bps[bi];
            stage_knobs.hub = hubs[(ci + di) % 2];
            gsp_sssp_opts o = sopts(GSP_SSSP_DELTA, GSP_BACKEND_CUDA);
            o.delta = deltas[di];
            sssp_both(A, &g, 5, o);
            if (last_diag.sssp_gpu && last_diag.sssp.kernel_s > 0) { /* the near-far kernel ran it */
              cr_assert_eq(last_diag.sssp.chain, chains[ci]);
              if (bps[bi] == 1) cr_assert_gt(last_diag.sssp.blocks, 0);
            }
          }
      stage_knobs.chain = 0, stage_knobs.blocks_per_sm = 0, stage_knobs.hub = 0;
      tg_free(&g);
      gsp_matrix_free(&A);
    }
  }
}

/* Asked for the GPU, the report says so, for gsp_sssp and
 * gsp_nearest_source. */
Test(cuda_sssp, report_says_the_gpu_ran) {
  gpu_or_skip();
  gsp_matrix A = NULL;
  GSP_OK(gsp_generate_grid(&A, GSP_FP32, 64, 64, 1, 9, 3));
  const gsp_index src[] = {0, 99};
  gsp_run_report rep = {.backend = GSP_BACKEND_AUTO};
  const gsp_sssp_advanced adv = {.report = &rep};
  const gsp_sssp_opts o = {.backend = GSP_BACKEND_CUDA, .advanced = &adv};
  gsp_vector d = NULL;
  GSP_OK(gsp_sssp(&d, NULL, A, 0, &o));
  cr_assert_eq(rep.backend, GSP_BACKEND_CUDA);
  gsp_vector_free(&d);
  rep.backend = GSP_BACKEND_AUTO;
  GSP_OK(gsp_nearest_source(&d, NULL, NULL, A, src, 2, &o));
  cr_assert_eq(rep.backend, GSP_BACKEND_CUDA);
  gsp_vector_free(&d);
  gsp_matrix_free(&A);
}
