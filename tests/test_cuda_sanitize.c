/*
 * The GPU suite for compute-sanitizer (tests/run_gpu_checks.sh runs it under
 * memcheck, racecheck, synccheck and initcheck): every kernel family of the
 * CUDA backend at least once, each on inputs small enough that the whole
 * suite finishes under racecheck, the slowest tool. Every result is checked
 * against the CPU backend (exactly: integer-valued weights, or tolerance
 * for float PLUS_TIMES), so the suite is also a quick native GPU check.
 *
 * Size rule: racecheck instruments every shared-memory access, and one
 * 128-wide diagonal tile of the numeric Floyd-Warshall performs about
 * 6 million of them; so numeric closures stay at n <= 256 (at most two
 * 128-vertex rounds: n in 129..256 runs all three phases) and the suite
 * holds about twenty such rounds in all. Bool closures are padded to 4096
 * bits whatever n is, so there is exactly one.
 *
 * Families: blocked Floyd-Warshall (every type, DPX int32, negative cycle,
 * M+), the successor pass (radix-selected candidates and the exact search),
 * the bool tensor-core closure, out of core (pages), several GPUs (or the
 * GSP_NO_DEVICE answer on one), near-far SSSP (hubs, nearest source,
 * cutoff), the frontier SSSP kernels, msssp (partial batches, level
 * repair), Bellman-Ford and its cycle search, gsp_apsp (Johnson, MSSSP,
 * Floyd-Warshall, row blocks through the callback), mxv / vxm push and pull
 * with masks, and mxm (own kernel, cuSPARSE SpMM, cuBLAS).
 *
 * Every test skips when gsp_cuda_available finds no device; CUDA is first
 * touched inside a test (Criterion forks each).
 */
#define GSP_ADVANCED_API         /* gsp.h's advanced part */
#define _POSIX_C_SOURCE  200809L /* sysconf */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bf_test_ref.h"
#include "cuda_scale_test.h"

static void gpu_or_skip(void) {
  GSP_TEST_GPU_OR_SKIP();
  GSP_OK(gsp_set_threads(4));
}

/* ---- closures ---- */

/* GPU closure of a copy of A == CPU closure (code and result); on error the
 * copy is unchanged. The GPU must have run it in core. */
static void closure_vs_cpu(gsp_matrix A, gsp_semiring s, bool nonrefl, gsp_info expect) {
  gsp_matrix G = NULL, C = NULL;
  GSP_OK(gsp_matrix_dup(&G, A));
  GSP_OK(gsp_matrix_dup(&C, A));
  gsp_closure_opts og = {.backend = GSP_BACKEND_CUDA, .non_reflexive = nonrefl};
  gsp_closure_opts oc = {.backend = GSP_BACKEND_CPU, .non_reflexive = nonrefl};
  gsp__scale_record rec;
  const gsp_info ig = close_recorded(G, NULL, s, &og, &rec);
  const gsp_info ic = gsp_closure_ext(C, NULL, s, &oc);
  cr_assert_eq(ig, expect, "%sGPU: %s (%s)", gsp_test_ctx, gsp_strerror(ig), gsp_last_error());
  cr_assert_eq(ic, expect, "%sCPU: %s", gsp_test_ctx, gsp_strerror(ic));
  cr_assert_eq(rec.mode, GSP_SCALE_IN_CORE, "%sthe GPU did not run it (%s)", gsp_test_ctx, scale_mode_name(rec.mode));
  scale_assert_same(G, ig == GSP_SUCCESS ? C : A);
  gsp_matrix_free(&G), gsp_matrix_free(&C);
}

/* Blocked Floyd-Warshall: each type, each semiring, all three phases. */
Test(cuda_sanitize, closure_numeric) {
  gpu_or_skip();
  const struct {
    gsp_type t;
    gsp_semiring s;
    int64_t n;
    scale_kind k;
    bool nonrefl;
  } c[] = {
      {GSP_FP32, GSP_MIN_PLUS, 200, K_NEGATIVE, false}, /* two rounds: diagonal, panels, product */
      {GSP_INT32, GSP_MIN_PLUS, 100, K_RANDOM, false},  /* non-negative int32: the DPX kernels */
      {GSP_INT32, GSP_MIN_PLUS, 100, K_NEGATIVE, true}, /* saturating int32, M+ */
      {GSP_INT64, GSP_MAX_MIN, 100, K_RANDOM, false},     {GSP_FP64, GSP_MAX_PLUS, 100, K_NEGATIVE, false},
      {GSP_INT64, GSP_MIN_MAX, 60, K_DISCONNECTED, true},
  };
  for (size_t k = 0; k < sizeof c / sizeof *c; k++) {
    gsp_test_context("closure %s %s n=%lld %s: ", gsp_test_semiring_name(c[k].s), gsp_test_type_name(c[k].t),
                     (long long)c[k].n, scale_kind_names[c[k].k]);
    gsp_matrix A = scale_graph(c[k].t, c[k].s, c[k].n, c[k].k, 0.05, 10 + k);
    closure_vs_cpu(A, c[k].s, c[k].nonrefl, GSP_SUCCESS);
    gsp_matrix_free(&A);
  }
}

/* A negative (MAX_PLUS: positive) cycle, the case where k_diag once raced:
 * GSP_NEGATIVE_CYCLE from both backends, M unchanged. */
Test(cuda_sanitize, closure_negative_cycle) {
  gpu_or_skip();
  gsp_test_context("cycle int32 min-plus n=100: ");
  gsp_matrix A = scale_graph(GSP_INT32, GSP_MIN_PLUS, 100, K_NEGATIVE, 0.05, 21);
  scale_add_cycle(A, GSP_INT32, GSP_MIN_PLUS, 10, 70, 40);
  closure_vs_cpu(A, GSP_MIN_PLUS, false, GSP_NEGATIVE_CYCLE);
  gsp_matrix_free(&A);
  gsp_test_context("cycle fp32 max-plus n=150: ");
  A = scale_graph(GSP_FP32, GSP_MAX_PLUS, 150, K_RANDOM, 0.05, 22);
  scale_add_cycle(A, GSP_FP32, GSP_MAX_PLUS, 3, 140, 77);
  closure_vs_cpu(A, GSP_MAX_PLUS, true, GSP_NEGATIVE_CYCLE);
  gsp_matrix_free(&A);
}

/* Every pair of the GPU successor matrix walks a path of A whose weights
 * sum to the closure's distance (integer weights: exact). */
static void successors_vs_cpu(gsp_matrix A, gsp_semiring s) {
  gsp_index n;
  GSP_OK(gsp_matrix_nrows(&n, A));
  gsp_matrix G = NULL, C = NULL, S = NULL;
  GSP_OK(gsp_matrix_dup(&G, A));
  GSP_OK(gsp_matrix_dup(&C, A));
  gsp_closure_opts og = {.backend = GSP_BACKEND_CUDA}, oc = {.backend = GSP_BACKEND_CPU};
  gsp__scale_record rec;
  GSP_OK(close_recorded(G, &S, s, &og, &rec));
  cr_assert_eq(rec.mode, GSP_SCALE_IN_CORE, "%sthe GPU did not record the paths", gsp_test_ctx);
  GSP_OK(gsp_closure_ext(C, NULL, s, &oc));
  scale_assert_same(G, C);
  tg g = tg_from_matrix(A);
  gsp_index *path = malloc((n + 1) * sizeof *path);
  cr_assert(path);
  gsp_index walked = 0;
  for (gsp_index i = 0; i < n; i++)
    for (gsp_index j = 0; j < n; j++) {
      double want = 0;
      char dv[16];
      const gsp_info have = gsp_matrix_extract_element(dv, G, i, j);
      gsp_index len = n + 1;
      const gsp_info pi = gsp_path_from_succ(path, &len, S, i, j);
      if (have == GSP_NO_VALUE) {
        cr_assert_eq(pi, GSP_NO_VALUE, "%s(%llu,%llu): a path but no distance", gsp_test_ctx, (unsigned long long)i,
                     (unsigned long long)j);
        continue;
      }
      cr_assert_eq(pi, GSP_SUCCESS, "%spath (%llu,%llu): %s", gsp_test_ctx, (unsigned long long)i,
                   (unsigned long long)j, gsp_last_error());
      want = gsp_test_value_f64(g.t, dv);
      double sum = 0;
      for (gsp_index h = 1; h < len; h++) {
        const double w = tg_arc(&g, (int64_t)path[h - 1], (int64_t)path[h]);
        cr_assert(!isnan(w), "%spath (%llu,%llu) uses a missing arc", gsp_test_ctx, (unsigned long long)i,
                  (unsigned long long)j);
        sum += w;
      }
      cr_assert(sum == want || (i == j && len == 1), "%spath (%llu,%llu) costs %g, distance %g", gsp_test_ctx,
                (unsigned long long)i, (unsigned long long)j, sum, want);
      walked++;
    }
  cr_assert_gt(walked, n, "%stoo few paths to mean anything", gsp_test_ctx);
  free(path);
  tg_free(&g);
  gsp_matrix_free(&G), gsp_matrix_free(&C), gsp_matrix_free(&S);
}

/* The successor pass after the closure: rows with more than the 128
 * candidate arcs (radix select), a first hop beyond them (the exact row
 * search), MAX_PLUS with strictly negative weights. */
Test(cuda_sanitize, closure_successors) {
  gpu_or_skip();
  /* 0 -> 1..140 weight 1 (dead ends), 0 -> 141 weight 50, then a chain
   * 141 -> ... -> 199 of weight 2 and 199 -> 0: the pairs (0, chain) need
   * the 141st-ranked arc of row 0 */
  enum { N = 200 };
  gsp_index I[N + 150], J[N + 150];
  double W[N + 150];
  gsp_index m = 0;
  for (gsp_index v = 1; v <= 140; v++) I[m] = 0, J[m] = v, W[m] = 1, m++;
  I[m] = 0, J[m] = 141, W[m] = 50, m++;
  for (gsp_index v = 141; v + 1 < N; v++) I[m] = v, J[m] = v + 1, W[m] = 2, m++;
  I[m] = N - 1, J[m] = 0, W[m] = 3, m++;
  gsp_test_context("successors beyond the candidates int32 n=200: ");
  gsp_matrix A = small_graph(GSP_INT32, N, I, J, W, m);
  successors_vs_cpu(A, GSP_MIN_PLUS);
  gsp_matrix_free(&A);
  /* dense strictly positive weights: every row has > 128 arcs */
  gsp_test_context("successors dense fp32 n=150: ");
  A = gsp_test_random_matrix(GSP_FP32, 150, 150, 0.9, 1, 40, 31);
  successors_vs_cpu(A, GSP_MIN_PLUS);
  gsp_matrix_free(&A);
  gsp_test_context("successors max-plus int64 n=60: ");
  A = gsp_test_random_matrix(GSP_INT64, 60, 60, 0.1, -9, -1, 32);
  successors_vs_cpu(A, GSP_MAX_PLUS);
  gsp_matrix_free(&A);
}

/* OR_AND on binary tensor cores (the matrix is padded to 4096 bits). */
Test(cuda_sanitize, closure_bool_tensor_cores) {
  gpu_or_skip();
  gsp_test_context("or-and n=300: ");
  gsp_matrix A = gsp_test_random_matrix(GSP_BOOL, 300, 300, 0.006, 0, 1, 41);
  closure_vs_cpu(A, GSP_OR_AND, false, GSP_SUCCESS);
  gsp_matrix_free(&A);
}

/* Out of core: three pages of 128 rows in two slots, against the CPU; a
 * cap below two pages is GSP_DEVICE_OUT_OF_MEMORY with M unchanged. */
Test(cuda_sanitize, out_of_core) {
  gpu_or_skip();
  gsp_test_context("out of core int32 n=300: ");
  gsp_matrix A = scale_graph(GSP_INT32, GSP_MIN_PLUS, 300, K_NEGATIVE, 0.03, 51), O = NULL, C = NULL;
  gsp__scale_record rec;
  char err[256];
  const size_t cap = gsp__ooc_bytes(384, 4, 128, 2);
  GSP_OK(scale_close(A, GSP_MIN_PLUS, false, cap, 1, &O, &rec, err, sizeof err));
  cr_assert_eq(rec.mode, GSP_SCALE_OOC, "%sran %s", gsp_test_ctx, scale_mode_name(rec.mode));
  cr_assert_geq(rec.pages, 3);
  GSP_OK(gsp_matrix_dup(&C, A));
  gsp_closure_opts oc = {.backend = GSP_BACKEND_CPU};
  GSP_OK(gsp_closure_ext(C, NULL, GSP_MIN_PLUS, &oc));
  scale_assert_same(O, C);
  gsp_matrix X = NULL;
  cr_assert_eq(
      scale_close(A, GSP_MIN_PLUS, false, gsp__ooc_bytes(384, 4, 128, 2) - 4096 * 4, 1, &X, &rec, err, sizeof err),
      GSP_DEVICE_OUT_OF_MEMORY, "%s%s", gsp_test_ctx, err);
  gsp_matrix_free(&A), gsp_matrix_free(&O), gsp_matrix_free(&C);
}

/* Several GPUs when there are; on one GPU, asking for two is GSP_NO_DEVICE
 * with M unchanged. */
Test(cuda_sanitize, multi_gpu) {
  gpu_or_skip();
  int count = 0;
  GSP_OK(gsp_cuda_device_count(&count));
  gsp_test_context("two GPUs fp32 n=300 (%d usable): ", count);
  gsp_matrix A = scale_graph(GSP_FP32, GSP_MIN_PLUS, 300, K_RANDOM, 0.03, 61), O = NULL;
  gsp__scale_record rec;
  char err[256];
  const gsp_info info = scale_close(A, GSP_MIN_PLUS, false, 0, 2, &O, &rec, err, sizeof err);
  if (count < 2) {
    cr_assert_eq(info, GSP_NO_DEVICE, "%s%s", gsp_test_ctx, err);
  } else {
    cr_assert_eq(info, GSP_SUCCESS, "%s%s", gsp_test_ctx, err);
    cr_assert_eq(rec.mode, GSP_SCALE_MGPU);
    gsp_matrix C = NULL;
    GSP_OK(gsp_matrix_dup(&C, A));
    gsp_closure_opts oc = {.backend = GSP_BACKEND_CPU};
    GSP_OK(gsp_closure_ext(C, NULL, GSP_MIN_PLUS, &oc));
    scale_assert_same(O, C);
    gsp_matrix_free(&C), gsp_matrix_free(&O);
  }
  gsp_matrix_free(&A);
}

/* ---- single and many sources ---- */

/* gsp_sssp with o on the GPU == on the CPU, with and without parents. */
static void sssp_vs_cpu(gsp_matrix A, gsp_index src, gsp_sssp_opts o) {
  gsp_vector dc = NULL, pc = NULL, dg = NULL, pg = NULL, d2 = NULL;
  o.backend = GSP_BACKEND_CPU;
  GSP_OK(gsp_sssp(&dc, &pc, A, src, &o));
  o.backend = GSP_BACKEND_CUDA;
  GSP_OK(gsp_sssp(&dg, &pg, A, src, &o));
  GSP_OK(gsp_sssp(&d2, NULL, A, src, &o));
  gsp_test_assert_vector_same(dg, dc, 0);
  gsp_test_assert_vector_same(pg, pc, 0);
  gsp_test_assert_vector_same(d2, dc, 0);
  gsp_vector_free(&dc), gsp_vector_free(&pc), gsp_vector_free(&dg), gsp_vector_free(&pg), gsp_vector_free(&d2);
}

/* A hub of out-degree 1100 (the near-far kernel spreads arcs of degree >=
 * 1024 over the grid) in a random graph of 1200 vertices. */
static gsp_matrix hub_graph(gsp_type t, uint64_t seed) {
  enum { N = 1200, HUB = 1100, M = HUB + 3 * N };
  gsp_index *I = malloc(M * sizeof *I), *J = malloc(M * sizeof *J);
  double *W = malloc(M * sizeof *W);
  cr_assert(I && J && W);
  uint64_t st = seed;
  gsp_index m = 0;
  for (gsp_index v = 1; v <= HUB; v++) I[m] = 0, J[m] = v, W[m] = (double)(1 + gsp_test_rand(&st) % 30), m++;
  for (gsp_index u = 0; u < N; u++)
    for (int k = 0; k < 3; k++) I[m] = u, J[m] = gsp_test_rand(&st) % N, W[m] = (double)(gsp_test_rand(&st) % 20), m++;
  gsp_matrix D = NULL, A = NULL;
  GSP_OK(gsp_matrix_new(&D, GSP_FP64, N, N));
  GSP_OK(gsp_matrix_build(D, I, J, W, m, GSP_DUP_MIN));
  A = as_type(D, t);
  free(I), free(J), free(W);
  gsp_matrix_free(&D);
  return A;
}

/* Near-far delta-stepping (one persistent cooperative kernel): every type,
 * parents, a cutoff, many buckets, a hub, nearest source. */
Test(cuda_sanitize, sssp_near_far) {
  gpu_or_skip();
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A = family_matrix(F_RANDOM, t, 300, 70 + ti);
    gsp_test_context("near-far random %s: ", type_name(t));
    gsp_sssp_opts o = {.algo = GSP_SSSP_DELTA};
    sssp_vs_cpu(A, 3, o);
    o.delta = 1, o.has_cutoff = true, o.cutoff = 25;
    sssp_vs_cpu(A, 0, o);
    gsp_matrix_free(&A);
  }
  gsp_test_context("near-far hub fp32: ");
  gsp_matrix H = hub_graph(GSP_FP32, 77);
  sssp_vs_cpu(H, 0, (gsp_sssp_opts){.algo = GSP_SSSP_DELTA});
  sssp_vs_cpu(H, 5, (gsp_sssp_opts){.algo = GSP_SSSP_AUTO});
  gsp_index srcs[40];
  for (int k = 0; k < 40; k++) srcs[k] = (gsp_index)((k * 97) % 1200);
  srcs[3] = 0;       /* the hub */
  srcs[4] = srcs[5]; /* a repeat */
  gsp_sssp_opts o = {.algo = GSP_SSSP_DELTA, .backend = GSP_BACKEND_CPU};
  gsp_vector dc = NULL, sc = NULL, pc = NULL, dg = NULL, sg = NULL, pg = NULL;
  GSP_OK(gsp_nearest_source(&dc, &sc, &pc, H, srcs, 40, &o));
  o.backend = GSP_BACKEND_CUDA;
  GSP_OK(gsp_nearest_source(&dg, &sg, &pg, H, srcs, 40, &o));
  gsp_test_assert_vector_same(dg, dc, 0);
  gsp_test_assert_vector_same(sg, sc, 0);
  gsp_test_assert_vector_same(pg, pc, 0);
  gsp_vector_free(&dc), gsp_vector_free(&sc), gsp_vector_free(&pc);
  gsp_vector_free(&dg), gsp_vector_free(&sg), gsp_vector_free(&pg);
  gsp_matrix_free(&H);
}

/* The frontier kernels of gsp_cuda_sssp.cu: Harish and DA2CF. */
Test(cuda_sanitize, sssp_frontier) {
  gpu_or_skip();
  for (size_t ti = 0; ti < 4; ti += 3) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A = family_matrix(F_RMAT, t, 256, 80 + ti);
    gsp_test_context("frontier rmat %s: ", type_name(t));
    sssp_vs_cpu(A, 1, (gsp_sssp_opts){.algo = GSP_SSSP_HARISH});
    sssp_vs_cpu(A, 1, (gsp_sssp_opts){.algo = GSP_SSSP_DA2CF});
    gsp_matrix_free(&A);
  }
}

/* gsp_msssp on the GPU == on the CPU. */
static void msssp_vs_cpu(gsp_matrix A, const gsp_index *src, gsp_index ns, gsp_msssp_opts o) {
  gsp_matrix Dc = NULL, Pc = NULL, Dg = NULL, Pg = NULL, D2 = NULL;
  o.backend = GSP_BACKEND_CPU;
  GSP_OK(gsp_msssp(&Dc, &Pc, A, src, ns, &o));
  o.backend = GSP_BACKEND_CUDA;
  GSP_OK(gsp_msssp(&Dg, &Pg, A, src, ns, &o));
  GSP_OK(gsp_msssp(&D2, NULL, A, src, ns, &o));
  gsp_test_assert_matrix_same(Dg, Dc, 0);
  gsp_test_assert_matrix_same(Pg, Pc, 0);
  gsp_test_assert_matrix_same(D2, Dc, 0);
  gsp_matrix_free(&Dc), gsp_matrix_free(&Pc), gsp_matrix_free(&Dg), gsp_matrix_free(&Pg), gsp_matrix_free(&D2);
}

/* Okuyama's batched kernel: a partial last batch (70 sources in batches of
 * 64), a cutoff, all pairs, and the tie BFS of the recording pass. */
Test(cuda_sanitize, msssp) {
  gpu_or_skip();
  gsp_index src[70];
  for (int k = 0; k < 70; k++) src[k] = (gsp_index)((k * 37) % 200);
  for (size_t ti = 0; ti < 4; ti += 2) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A = family_matrix(F_RANDOM, t, 200, 90 + ti);
    gsp_test_context("msssp %s: ", type_name(t));
    msssp_vs_cpu(A, src, 70, (gsp_msssp_opts){.batch = 64});
    msssp_vs_cpu(A, src, 70, (gsp_msssp_opts){.has_cutoff = true, .cutoff = 30});
    gsp_matrix_free(&A);
  }
  gsp_matrix Z = family_matrix(F_ZERO, GSP_INT64, 150, 95);
  gsp_test_context("msssp tie BFS zero weights int64: ");
  gsp_index nall = 0;
  gsp_index *all = gsp_test_all_sources(Z, &nall);
  msssp_vs_cpu(Z, all, nall, (gsp_msssp_opts){.batch = 96});
  free(all);
  gsp_matrix_free(&Z);
}

/* ---- negative weights ---- */

static const gsp_bf_opts bf_cpu = {.backend = GSP_BACKEND_CPU}, bf_gpu = {.backend = GSP_BACKEND_CUDA};

/* Bellman-Ford: every type on reweighted graphs (narrow rows, and the wide
 * rows of a complete graph), a reachable negative cycle, and
 * gsp_negative_cycle finding the same cycle on both backends. */
Test(cuda_sanitize, bellman_ford) {
  gpu_or_skip();
  const family fams[] = {F_RANDOM, F_COMPLETE};
  for (size_t f = 0; f < 2; f++) {
    gsp_matrix B = family_matrix(fams[f], GSP_FP64, 200, 100 + f), R = reweighted(B, 20, 101 + f);
    for (size_t ti = 0; ti < 4; ti++) {
      gsp_matrix A = as_type(R, sssp_types[ti]);
      gsp_test_context("bellman-ford %s %s: ", family_names[fams[f]], type_name(sssp_types[ti]));
      gsp_vector dc = NULL, pc = NULL, dg = NULL, pg = NULL;
      GSP_OK(gsp_bellman_ford(&dc, &pc, A, 1, &bf_cpu));
      GSP_OK(gsp_bellman_ford(&dg, &pg, A, 1, &bf_gpu));
      gsp_test_assert_vector_same(dg, dc, 0);
      gsp_test_assert_vector_same(pg, pc, 0);
      gsp_index c[1], len = 1;
      cr_assert_eq(gsp_negative_cycle(c, &len, A, &bf_gpu), GSP_NO_VALUE, "%s%s", gsp_test_ctx, gsp_last_error());
      gsp_vector_free(&dc), gsp_vector_free(&pc), gsp_vector_free(&dg), gsp_vector_free(&pg);
      gsp_matrix_free(&A);
    }
    gsp_matrix_free(&B), gsp_matrix_free(&R);
  }
  gsp_matrix R = with_cycle(120, 5, true, 103);
  for (size_t ti = 0; ti < 4; ti += 3) {
    gsp_matrix A = as_type(R, sssp_types[ti]);
    gsp_test_context("bellman-ford cycle %s: ", type_name(sssp_types[ti]));
    gsp_vector d = NULL, p = NULL;
    cr_assert_eq(gsp_bellman_ford(&d, &p, A, 0, &bf_gpu), GSP_NEGATIVE_CYCLE, "%s%s", gsp_test_ctx, gsp_last_error());
    cr_assert(d == NULL && p == NULL);
    gsp_index c1[120], c2[120], l1 = 120, l2 = 120;
    GSP_OK(gsp_negative_cycle(c1, &l1, A, &bf_cpu));
    GSP_OK(gsp_negative_cycle(c2, &l2, A, &bf_gpu));
    cr_assert(l1 == l2 && memcmp(c1, c2, l1 * sizeof *c1) == 0, "%sthe backends found different cycles", gsp_test_ctx);
    gsp_matrix_free(&A);
  }
  gsp_matrix_free(&R);
}

typedef struct {
  gsp_index rows, calls;
} row_count;

static int count_rows(void *ctx, gsp_index first, gsp_index nrows, const void *dist, const int64_t *parent) {
  row_count *c = ctx;
  cr_assert_eq(first, c->rows, "row blocks out of order");
  cr_assert(dist != NULL && parent != NULL);
  c->rows += nrows, c->calls++;
  return 0;
}

/* gsp_apsp on the GPU == on the CPU: Johnson (GPU Bellman-Ford potentials,
 * then the many-source kernel) with parents, a source subset, a cutoff and
 * an output type; MSSSP; Floyd-Warshall; row blocks through the callback. */
Test(cuda_sanitize, apsp) {
  gpu_or_skip();
  gsp_matrix B = family_matrix(F_RANDOM, GSP_FP64, 150, 110), R = reweighted(B, 20, 111);
  const gsp_index src[] = {0, 9, 149, 9, 70};
  for (size_t ti = 0; ti < 4; ti++) {
    gsp_matrix A = as_type(R, sssp_types[ti]), P0 = as_type(B, sssp_types[ti]);
    for (int cfg = 0; cfg < 4; cfg++) {
      gsp_apsp_opts o = {.algo = cfg == 1 ? GSP_APSP_MSSSP : cfg == 3 ? GSP_APSP_FLOYD_WARSHALL : GSP_APSP_JOHNSON};
      gsp_apsp_advanced oa = {0};
      o.advanced = &oa;
      if (cfg == 2) { /* subset, cutoff, output type */
        o.sources = src, o.nsources = 5, o.has_cutoff = true, o.cutoff = 40;
        o.use_type = true, o.type = sssp_types[3 - ti];
      }
      gsp_matrix G = cfg == 1 ? P0 : A; /* MSSSP: non-negative weights */
      gsp_test_context("apsp %s cfg %d: ", type_name(sssp_types[ti]), cfg);
      gsp_matrix Dc = NULL, Pc = NULL, Dg = NULL, Pg = NULL;
      gsp_apsp_report rep;
      o.backend = GSP_BACKEND_CPU;
      GSP_OK(gsp_apsp(&Dc, cfg == 3 ? NULL : &Pc, G, &o));
      o.backend = GSP_BACKEND_CUDA, oa.report = &rep;
      GSP_OK(gsp_apsp(&Dg, cfg == 3 ? NULL : &Pg, G, &o));
      cr_assert_eq(rep.backend, GSP_BACKEND_CUDA, "%sran on the CPU", gsp_test_ctx);
      gsp_test_assert_matrix_same(Dg, Dc, 0);
      if (cfg != 3) gsp_test_assert_matrix_same(Pg, Pc, 0);
      gsp_matrix_free(&Dc), gsp_matrix_free(&Pc), gsp_matrix_free(&Dg), gsp_matrix_free(&Pg);
    }
    gsp_matrix_free(&A), gsp_matrix_free(&P0);
  }
  /* row blocks of 32 through the callback (Johnson, int64) */
  gsp_matrix A = as_type(R, GSP_INT64), D = (gsp_matrix)&A, P = (gsp_matrix)&A;
  row_count rc = {0, 0};
  gsp_apsp_opts o = {.algo = GSP_APSP_JOHNSON,
                     .backend = GSP_BACKEND_CUDA,
                     .advanced = &(gsp_apsp_advanced){.row_block = 32, .rows = count_rows, .rows_ctx = &rc}};
  gsp_test_context("apsp row blocks: ");
  GSP_OK(gsp_apsp(&D, &P, A, &o));
  cr_assert(D == NULL && P == NULL);
  cr_assert(rc.rows == 150 && rc.calls == 5, "%s%llu rows in %llu calls", gsp_test_ctx, (unsigned long long)rc.rows,
            (unsigned long long)rc.calls);
  gsp_matrix_free(&A), gsp_matrix_free(&B), gsp_matrix_free(&R);
}

/* ---- sparse products ---- */

/* w<M> = accum(w, A (+.*) u) (or u'A) on the GPU, pushed and pulled, ==
 * the CPU backend. */
static void mv_case(bool vxm, gsp_semiring s, gsp_type t, gsp_index m, gsp_index n, double da, double du, int cfgk,
                    bool tr, uint64_t seed) {
  const gsp_test_config cfg = gsp_test_config_get(cfgk);
  int64_t lo, hi;
  gsp_test_range(s, &lo, &hi);
  const gsp_index nu = (vxm != tr) ? m : n, nw = (vxm != tr) ? n : m;
  gsp_matrix A = gsp_test_random_matrix(t, m, n, da, lo, hi, seed);
  gsp_vector u = gsp_test_random_vector(t, nu, du, lo, hi, seed + 1);
  gsp_vector w = gsp_test_random_vector(t, nw, 0.4, lo, hi, seed + 2);
  gsp_vector M = cfg.mask ? gsp_test_random_vmask(nw, 0.5, seed + 3) : NULL, wc = NULL;
  const gsp_binop accum = cfg.accum ? gsp_test_accum((int)seed) : GSP_NOOP;
  gsp_desc d = gsp_test_desc(cfg, !vxm && tr, vxm && tr);
  GSP_OK(gsp_vector_dup(&wc, w));
  d.backend = GSP_BACKEND_CPU;
  GSP_OK(vxm ? gsp_vxm(wc, M, accum, s, u, A, &d) : gsp_mxv(wc, M, accum, s, A, u, &d));
  for (int dir = GSP_DIRECTION_PUSH; dir <= GSP_DIRECTION_PULL; dir++) {
    gsp_test_context("%s %s %s %llux%llu %s%s %s: ", vxm ? "vxm" : "mxv", gsp_test_semiring_name(s),
                     gsp_test_type_name(t), (unsigned long long)m, (unsigned long long)n, gsp_test_config_name(cfg),
                     tr ? " A'" : "", dir == GSP_DIRECTION_PUSH ? "push" : "pull");
    gsp_vector wg = NULL;
    GSP_OK(gsp_vector_dup(&wg, w));
    d.backend = GSP_BACKEND_CUDA, d.direction = (gsp_direction)dir;
    GSP_OK(vxm ? gsp_vxm(wg, M, accum, s, u, A, &d) : gsp_mxv(wg, M, accum, s, A, u, &d));
    gsp_test_assert_vector_same(wg, wc, gsp_test_tol(s, t));
    gsp_vector_free(&wg);
  }
  gsp_matrix_free(&A), gsp_vector_free(&u), gsp_vector_free(&w), gsp_vector_free(&M), gsp_vector_free(&wc);
}

/* mxv and vxm, push and pull: no mask, a complemented value mask, a
 * structural mask with replace and accumulator; short and warp-per-row
 * rows; a full frontier (cuSPARSE for float PLUS_TIMES under AUTO). */
Test(cuda_sanitize, ops_mxv_vxm) {
  gpu_or_skip();
  const gsp_semiring srs[] = {GSP_MIN_PLUS, GSP_PLUS_TIMES, GSP_OR_AND};
  const gsp_type tys[] = {GSP_INT32, GSP_FP32, GSP_BOOL};
  const int cfgs[] = {0, 4, 20};
  uint64_t seed = 1000;
  for (int k = 0; k < 3; k++)
    for (int c = 0; c < 3; c++)
      for (int vxm = 0; vxm < 2; vxm++) {
        mv_case(vxm, srs[k], tys[k], 50, 40, 0.1, 0.2, cfgs[c], c == 1, seed++);
        mv_case(vxm, srs[k], tys[k], 300, 200, 0.2, 0.03, cfgs[c], false, seed++);
      }
  /* AUTO direction with a full vector: cuSPARSE SpMV for FP32 PLUS_TIMES */
  gsp_matrix A = gsp_test_random_matrix(GSP_FP32, 200, 300, 0.15, 0, 5, 1100);
  gsp_vector u = gsp_test_random_vector(GSP_FP32, 300, 1.0, 0, 5, 1101), wc = NULL, wg = NULL;
  GSP_OK(gsp_vector_new(&wc, GSP_FP32, 200));
  GSP_OK(gsp_vector_new(&wg, GSP_FP32, 200));
  gsp_desc dc = {.backend = GSP_BACKEND_CPU}, dg = {.backend = GSP_BACKEND_CUDA};
  GSP_OK(gsp_mxv(wc, NULL, GSP_NOOP, GSP_PLUS_TIMES, A, u, &dc));
  GSP_OK(gsp_mxv(wg, NULL, GSP_NOOP, GSP_PLUS_TIMES, A, u, &dg));
  gsp_test_context("mxv plus-times full u: ");
  gsp_test_assert_vector_same(wg, wc, gsp_test_tol(GSP_PLUS_TIMES, GSP_FP32));
  gsp_matrix_free(&A), gsp_vector_free(&u), gsp_vector_free(&wc), gsp_vector_free(&wg);
}

/* A DENSE-format copy of X (entries kept; bool: explicit false dropped). */
static gsp_matrix dense_copy(gsp_matrix X) {
  gsp_index m, n;
  gsp_type t;
  GSP_OK(gsp_matrix_nrows(&m, X));
  GSP_OK(gsp_matrix_ncols(&n, X));
  GSP_OK(gsp_matrix_type(&t, X));
  const size_t ts = gsp_type_size(t);
  void *v = malloc((size_t)(m * n + 1) * ts);
  char absent[16];
  cr_assert(v);
  gsp_test_value_set(t, absent, t == GSP_BOOL ? 0 : 12345);
  GSP_OK(gsp_matrix_export_dense(v, absent, X));
  gsp_matrix D = NULL;
  GSP_OK(gsp_matrix_import_dense(&D, t, m, n, v, absent));
  free(v);
  return D;
}

/* C<M> = accum(C, A (+.*) B) with dense B on the GPU == the CPU. */
static void mxm_case(gsp_semiring s, gsp_type t, gsp_index m, gsp_index k, gsp_index n, double da, double db, int cfgk,
                     bool ta, bool dense_a, uint64_t seed) {
  const gsp_test_config cfg = gsp_test_config_get(cfgk);
  gsp_test_context("mxm %s %s %llux%llux%llu %s%s%s: ", gsp_test_semiring_name(s), gsp_test_type_name(t),
                   (unsigned long long)m, (unsigned long long)k, (unsigned long long)n, gsp_test_config_name(cfg),
                   ta ? " A'" : "", dense_a ? " dense A" : "");
  int64_t lo, hi;
  gsp_test_range(s, &lo, &hi);
  gsp_matrix A0 =
      ta ? gsp_test_random_matrix(t, k, m, da, lo, hi, seed) : gsp_test_random_matrix(t, m, k, da, lo, hi, seed);
  gsp_matrix B0 = gsp_test_random_matrix(t, k, n, db, lo, hi, seed + 1);
  gsp_matrix A = dense_a ? dense_copy(A0) : A0, Bg = dense_copy(B0), Bc = dense_copy(B0);
  gsp_matrix C = gsp_test_random_matrix(t, m, n, 0.3, lo, hi, seed + 2), Cc = NULL;
  GSP_OK(gsp_matrix_dup(&Cc, C));
  gsp_matrix M = cfg.mask ? gsp_test_random_mask(m, n, 0.5, seed + 3) : NULL;
  const gsp_binop accum = cfg.accum ? gsp_test_accum((int)seed) : GSP_NOOP;
  gsp_desc dg = gsp_test_desc(cfg, ta, false), dc = dg;
  dg.backend = GSP_BACKEND_CUDA, dc.backend = GSP_BACKEND_CPU;
  GSP_OK(gsp_mxm(C, M, accum, s, A, Bg, &dg));
  GSP_OK(gsp_mxm(Cc, M, accum, s, A, Bc, &dc));
  gsp_test_assert_matrix_same(C, Cc, gsp_test_tol(s, t));
  if (A != A0) gsp_matrix_free(&A);
  gsp_matrix_free(&A0), gsp_matrix_free(&B0), gsp_matrix_free(&Bg), gsp_matrix_free(&Bc);
  gsp_matrix_free(&C), gsp_matrix_free(&Cc), gsp_matrix_free(&M);
}

/* Sparse x dense with our kernel (MIN_PLUS, OR_AND, more than 32 columns),
 * cuSPARSE SpMM (float PLUS_TIMES, full B), dense x dense with cuBLAS. */
Test(cuda_sanitize, ops_mxm) {
  gpu_or_skip();
  mxm_case(GSP_MIN_PLUS, GSP_INT32, 40, 30, 70, 0.2, 0.5, 0, false, false, 1200);
  mxm_case(GSP_MIN_PLUS, GSP_INT64, 40, 30, 70, 0.2, 0.5, 4, true, false, 1201);
  mxm_case(GSP_OR_AND, GSP_BOOL, 40, 30, 20, 0.2, 0.5, 20, false, false, 1202);
  mxm_case(GSP_PLUS_TIMES, GSP_FP32, 40, 30, 20, 0.2, 1.0, 0, false, false, 1203); /* SpMM */
  mxm_case(GSP_PLUS_TIMES, GSP_FP64, 30, 20, 25, 1.0, 1.0, 4, true, true, 1204);   /* gemm */
}
