/*
 * gsp_msssp on the CUDA backend (Okuyama's batched pull rounds and
 * recording pass, gsp_cuda_msssp.cu): every result must equal the CPU backend's bit
 * for bit (distances, parents, presence), and sampled rows are checked
 * against the reference Dijkstra, the parent rule rebuilt from scratch and
 * parent chains walked with gsp_path_from_parent_row back to the distance.
 * GSP_INT32 parents must equal the GSP_INT64 ones cast.
 *
 * Cases aimed at the batch pipeline: batch widths that are not multiples of
 * 32, source counts that are not multiples of the batch, the full 1024-wide
 * batch (all 32 chunk bits), many batches through the double-buffered
 * staging, repeated and single sources, long paths (rings: more rounds than
 * first queued), complete and disconnected graphs, zero-weight arcs and
 * float absorption (cells left to the tie BFS), a zero-weight ring whose
 * tie levels are as deep as the ring, cutoffs and all four types; calls
 * from several threads at once, of growing sizes (one holds the pinned
 * staging pool, pinned slot by slot beside the first batches; the others
 * pin their own).
 *
 * Every test skips when gsp_cuda_available finds no device; CUDA is first
 * touched inside a test (Criterion forks each).
 */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include <criterion/criterion.h>
#include <pthread.h>
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

/* Walk row r's parents to vertex v with gsp_path_from_parent_row; the
 * weights summed from the source in A's arithmetic give the distance. */
static void walk_rows(const tg *g, gsp_matrix D, gsp_matrix P, gsp_index r, gsp_index src, int64_t limit) {
  const int64_t n = g->n;
  double *dd = malloc((size_t)(n + 1) * sizeof *dd);
  gsp_index *path = malloc((size_t)(n + 1) * sizeof *path);
  cr_assert(dd && path);
  row_dense(dd, D, r, INFINITY);
  const int64_t step = n > limit ? n / limit : 1;
  for (int64_t v = 0; v < n; v += step) {
    gsp_index len = (gsp_index)n;
    const gsp_info info = gsp_path_from_parent_row(path, &len, P, r, (gsp_index)v);
    if (isinf(dd[v])) {
      cr_assert_eq(info, GSP_NO_VALUE, "%srow %llu: path to unreachable %lld: %s", gsp_test_ctx, (unsigned long long)r,
                   (long long)v, gsp_strerror(info));
      continue;
    }
    cr_assert_eq(info, GSP_SUCCESS, "%srow %llu: path to %lld: %s %s", gsp_test_ctx, (unsigned long long)r,
                 (long long)v, gsp_strerror(info), gsp_last_error());
    cr_assert(path[0] == src && path[len - 1] == (gsp_index)v, "%srow %llu: path %llu .. %llu", gsp_test_ctx,
              (unsigned long long)r, (unsigned long long)path[0], (unsigned long long)path[len - 1]);
    double s = 0;
    for (gsp_index k = 1; k < len; k++) {
      const double w = tg_arc(g, (int64_t)path[k - 1], (int64_t)path[k]);
      cr_assert(!isnan(w), "%sarc %llu -> %llu not in A", gsp_test_ctx, (unsigned long long)path[k - 1],
                (unsigned long long)path[k]);
      s = tsum(g->t, s, w);
    }
    cr_assert(s == dd[v], "%srow %llu: path to %lld sums to %.17g, dist %.17g", gsp_test_ctx, (unsigned long long)r,
              (long long)v, s, dd[v]);
  }
  free(dd), free(path);
}

/* GPU == CPU (with and without parents), then `rows` sampled rows against
 * the references and walked. src NULL: all pairs. */
static void both(gsp_matrix A, const gsp_index *src, gsp_index ns, gsp_index batch, bool cut, double cutoff, int rows) {
  gsp_index *all = NULL;
  if (!src) src = all = gsp_test_all_sources(A, &ns);
  gsp_msssp_opts o = {0};
  o.has_cutoff = cut, o.cutoff = cutoff;
  o.backend = GSP_BACKEND_CPU;
  gsp_matrix Dc = NULL, Pc = NULL, Dg = NULL, Pg = NULL, D2 = NULL;
  GSP_OK(gsp_msssp(&Dc, &Pc, A, src, ns, &o));
  o.backend = GSP_BACKEND_CUDA, o.batch = batch;
  GSP_OK(gsp_msssp(&Dg, &Pg, A, src, ns, &o));
  gsp_test_assert_matrix_same(Dg, Dc, 0);
  gsp_test_assert_matrix_same(Pg, Pc, 0);
  GSP_OK(gsp_msssp(&D2, NULL, A, src, ns, &o));
  gsp_test_assert_matrix_same(D2, Dc, 0);
  /* INT32 parents: the same trees, written 4 bytes wide by the gatherer */
  gsp_matrix D3 = NULL, P3 = NULL, Pc3 = NULL;
  o.parent_type = GSP_INT32;
  GSP_OK(gsp_msssp(&D3, &P3, A, src, ns, &o));
  GSP_OK(gsp_matrix_cast(&Pc3, Pc, GSP_INT32));
  gsp_test_assert_matrix_same(D3, Dc, 0);
  gsp_test_assert_matrix_same(P3, Pc3, 0);
  gsp_matrix_free(&D3), gsp_matrix_free(&Pc3);
  if (rows > 0) {
    tg g = tg_from_matrix(A);
    gsp_index nr;
    GSP_OK(gsp_matrix_nrows(&nr, Dg));
    double *dd = malloc((size_t)(g.n + 1) * sizeof *dd), *pp = malloc((size_t)(g.n + 1) * sizeof *pp);
    cr_assert(dd && pp);
    const gsp_index step = nr > (gsp_index)rows ? nr / (gsp_index)rows : 1;
    for (gsp_index r = 0; r < nr; r += step) {
      const int64_t s = src ? (int64_t)src[r] : (int64_t)r;
      row_dense(dd, Dg, r, INFINITY);
      row_dense(pp, Pg, r, -1);
      check_dense(&g, &s, 1, cut ? cutoff : INFINITY, dd, pp, NULL);
      walk_rows(&g, Dg, Pg, r, (gsp_index)s, 200);
      walk_rows(&g, Dg, P3, r, (gsp_index)s, 50);
    }
    free(dd), free(pp);
    tg_free(&g);
  }
  gsp_matrix_free(&Dc), gsp_matrix_free(&Pc), gsp_matrix_free(&Dg), gsp_matrix_free(&Pg), gsp_matrix_free(&D2);
  gsp_matrix_free(&P3);
  free(all);
}

Test(cuda_msssp, odd_batches_and_source_counts) {
  gpu_or_skip();
  /* batch widths (rounded up to 32 inside) and counts that leave a partial
   * last batch; 1024 uses every chunk bit of the change masks */
  const gsp_index batches[] = {1, 33, 100, 250, 1024, 5000};
  const gsp_index counts[] = {1, 31, 257, 1100};
  for (size_t ti = 0; ti < 4; ti++) {
    const gsp_type t = sssp_types[ti];
    gsp_matrix A = family_matrix(F_RANDOM, t, 1200, 41 + ti);
    gsp_index *src = malloc(1100 * sizeof *src);
    cr_assert(src);
    for (int k = 0; k < 1100; k++) src[k] = (gsp_index)((k * 7919) % 1200);
    for (size_t bi = 0; bi < sizeof batches / sizeof *batches; bi++)
      for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++) {
        gsp_test_context("%s batch %llu sources %llu", type_name(t), (unsigned long long)batches[bi],
                         (unsigned long long)counts[ci]);
        both(A, src, counts[ci], batches[bi], false, 0, ci == 2 && bi == 1 ? 6 : 0);
      }
    free(src);
    gsp_matrix_free(&A);
  }
}

Test(cuda_msssp, families_all_types_with_references) {
  gpu_or_skip();
  for (int f = 0; f < F_COUNT; f++)
    for (size_t ti = 0; ti < 4; ti++) {
      const gsp_type t = sssp_types[ti];
      gsp_matrix A = family_matrix((family)f, t, 500, 101 + (uint64_t)f);
      gsp_test_context("apsp %s %s", family_names[f], type_name(t));
      both(A, NULL, 0, 0, false, 0, 5);
      gsp_test_context("apsp %s %s batch 96", family_names[f], type_name(t));
      both(A, NULL, 0, 96, false, 0, 0);
      gsp_test_context("apsp %s %s cutoff", family_names[f], type_name(t));
      both(A, NULL, 0, 64, true, f == F_ABSORB ? 2e8 : 7.5, 3);
      gsp_matrix_free(&A);
    }
}

Test(cuda_msssp, repeated_and_single_sources) {
  gpu_or_skip();
  gsp_matrix A = family_matrix(F_ZERO, GSP_INT32, 700, 5);
  gsp_index src[300];
  for (int k = 0; k < 300; k++) src[k] = 17; /* one source, 300 rows */
  gsp_test_context("one source repeated");
  both(A, src, 300, 128, false, 0, 3);
  for (int k = 0; k < 300; k++) src[k] = (gsp_index)(k % 3 == 0 ? 699 : k % 5); /* runs of repeats */
  gsp_test_context("repeats mixed");
  both(A, src, 300, 64, false, 0, 4);
  gsp_test_context("single source");
  both(A, src, 1, 0, false, 0, 1);
  gsp_matrix_free(&A);
}

Test(cuda_msssp, long_paths_complete_disconnected) {
  gpu_or_skip();
  /* rings: thousands of rounds, far more than the first rounds queued */
  gsp_matrix A = family_matrix(F_RING2, GSP_FP32, 3000, 9);
  gsp_test_context("ring2 3000 all pairs");
  both(A, NULL, 0, 0, false, 0, 4);
  gsp_matrix_free(&A);
  A = family_matrix(F_RING, GSP_INT64, 2500, 10);
  gsp_test_context("ring 2500, 40 sources batch 32");
  gsp_index src[40];
  for (int k = 0; k < 40; k++) src[k] = (gsp_index)(k * 61);
  both(A, src, 40, 32, false, 0, 4);
  gsp_matrix_free(&A);
  A = family_matrix(F_COMPLETE, GSP_FP64, 300, 11);
  gsp_test_context("complete 300");
  both(A, NULL, 0, 0, false, 0, 5);
  gsp_matrix_free(&A);
  A = family_matrix(F_DISCONNECTED, GSP_INT32, 2000, 12);
  gsp_test_context("disconnected 2000, batch 64 (many batches through staging)");
  both(A, NULL, 0, 64, false, 0, 5);
  gsp_matrix_free(&A);
}

/* The rows come back with a count only while every batch so far is
 * complete; the first batch with absent cells starts the presence (the
 * rows before it marked whole). A 32-cycle 0 -> .. -> 31 -> 0 feeding a
 * chain 31 -> 32 -> .. -> 127: batches of 32 sources in order are complete
 * (the cycle's) then not; in reverse order the first batches lack cells and
 * the cycle's complete batch comes last; and all sources in one batch. */
Test(cuda_msssp, presence_of_late_incomplete_batches) {
  gpu_or_skip();
  enum { N = 128 };
  gsp_index I[N], J[N], src[N];
  double W[N];
  for (int k = 0; k < N; k++) I[k] = (gsp_index)k, J[k] = (gsp_index)(k == 31 ? 0 : k + 1), W[k] = 1 + k % 5;
  I[N - 1] = 31, J[N - 1] = 32; /* 127 has no out-arc: arc 127 becomes 31 -> 32 */
  gsp_matrix A = small_graph(GSP_INT32, N, I, J, W, N);
  for (int k = 0; k < N; k++) src[k] = (gsp_index)k;
  gsp_test_context("complete batch first");
  both(A, src, N, 32, false, 0, 4);
  for (int k = 0; k < N; k++) src[k] = (gsp_index)(N - 1 - k);
  gsp_test_context("complete batch last");
  both(A, src, N, 32, false, 0, 4);
  gsp_test_context("one batch");
  both(A, NULL, 0, 0, false, 0, 4);
  for (int k = 0; k < 64; k++) src[k] = (gsp_index)(k % 32);
  gsp_test_context("complete batches only");
  both(A, src, 64, 32, false, 0, 2);
  gsp_matrix_free(&A);
}

Test(cuda_msssp, tie_bfs) {
  gpu_or_skip();
  /* zero weights and float absorption: cells whose tight tails all have
   * their distance, parents from the tie BFS; every type */
  const family fams[] = {F_ZERO, F_ABSORB, F_RMAT, F_RING2};
  for (size_t fi = 0; fi < sizeof fams / sizeof *fams; fi++)
    for (size_t ti = 0; ti < 4; ti++) {
      gsp_matrix A = family_matrix(fams[fi], sssp_types[ti], 400, 77 + fi);
      gsp_test_context("ties %s %s", family_names[fams[fi]], type_name(sssp_types[ti]));
      both(A, NULL, 0, 96, false, 0, 3);
      gsp_matrix_free(&A);
    }
  /* a zero-weight ring: from source s every other vertex is a tie, at
   * level = its hop distance, so the BFS runs as long as the ring */
  for (size_t ti = 0; ti < 4; ti += 3) {
    const gsp_index n = 700;
    gsp_matrix A = NULL, D = NULL, P = NULL;
    GSP_OK(gsp_generate_ring(&A, sssp_types[ti], n, false, 0, 0, 5));
    gsp_test_context("zero ring %s", type_name(sssp_types[ti]));
    both(A, NULL, 0, 64, false, 0, 4);
    gsp_msssp_opts o = {0};
    o.backend = GSP_BACKEND_CUDA;
    gsp_index ns;
    gsp_index *all = gsp_test_all_sources(A, &ns);
    GSP_OK(msssp_reported(&D, &P, A, all, ns, &o));
    free(all);
    int levels = 0;
    const int64_t ties = last_ties(&levels);
    if (ties >= 0) {
      cr_assert_eq(ties, (int64_t)n * (int64_t)(n - 1), "%lld ties", (long long)ties);
      cr_assert_eq(levels, (int)n - 1, "%d tie levels", levels);
    }
    gsp_matrix_free(&A), gsp_matrix_free(&D), gsp_matrix_free(&P);
  }
}

Test(cuda_msssp, large_rows_against_closure) {
  gpu_or_skip();
  /* 6000 x 6000: the copy-out runs on several threads; rows also equal
   * the Floyd-Warshall closure (M* on MIN_PLUS) */
  gsp_matrix A = NULL, C = NULL, D = NULL;
  GSP_OK(gsp_generate_random(&A, GSP_INT32, 6000, 24000, 1, 4096, 3));
  gsp_msssp_opts o = {0};
  o.backend = GSP_BACKEND_CUDA;
  gsp_index ns;
  gsp_index *all = gsp_test_all_sources(A, &ns);
  GSP_OK(gsp_msssp(&D, NULL, A, all, ns, &o));
  free(all);
  GSP_OK(gsp_matrix_dup(&C, A));
  gsp_closure_opts co = {0};
  co.backend = GSP_BACKEND_CUDA;
  GSP_OK(gsp_closure_ext(C, NULL, GSP_MIN_PLUS, &co));
  gsp_test_context("apsp 6000 vs closure");
  gsp_test_assert_matrix_same(D, C, 0);
  gsp_matrix_free(&C), gsp_matrix_free(&D);
  gsp_index src[500];
  for (int k = 0; k < 500; k++) src[k] = (gsp_index)((k * 4099) % 6000);
  gsp_test_context("500 sources of 6000 with parents");
  both(A, src, 500, 0, false, 0, 3);
  gsp_matrix_free(&A);
}

/* One all-pairs call on the GPU, for a thread of its own. */
typedef struct {
  gsp_matrix A, D, P;
  gsp_info info;
} gpu_call;

static void *gpu_call_run(void *arg) {
  gpu_call *c = arg;
  gsp_msssp_opts o = {0};
  o.backend = GSP_BACKEND_CUDA;
  gsp_index ns;
  gsp_index *all = gsp_test_all_sources(c->A, &ns);
  c->info = all ? gsp_msssp(&c->D, &c->P, c->A, all, ns, &o) : GSP_OUT_OF_MEMORY;
  free(all);
  return NULL;
}

Test(cuda_msssp, concurrent_calls_and_growing_staging) {
  gpu_or_skip();
  /* rounds of 3 threads at once; sizes grow from round to round (the
   * pool's slots are pinned again, larger) and differ between threads */
  enum { ROUNDS = 3, THREADS = 3 };
  for (int r = 0; r < ROUNDS; r++) {
    gpu_call c[THREADS];
    pthread_t th[THREADS];
    bool started[THREADS];
    memset(c, 0, sizeof c);
    for (int k = 0; k < THREADS; k++) {
      const gsp_type t = sssp_types[(r + k) % 4];
      c[k].A = family_matrix(F_RANDOM, t, 700 + 900 * r + 150 * k, 7 + (uint64_t)(r * THREADS + k));
      started[k] = pthread_create(&th[k], NULL, gpu_call_run, &c[k]) == 0;
      if (!started[k]) gpu_call_run(&c[k]);
    }
    for (int k = 0; k < THREADS; k++) {
      if (started[k]) pthread_join(th[k], NULL);
      gsp_test_context("round %d thread %d", r, k);
      cr_assert_eq(c[k].info, GSP_SUCCESS, "%s%s", gsp_test_ctx, gsp_strerror(c[k].info));
      gsp_msssp_opts o = {0};
      o.backend = GSP_BACKEND_CPU;
      gsp_index ns;
      gsp_index *all = gsp_test_all_sources(c[k].A, &ns);
      gsp_matrix Dc = NULL, Pc = NULL;
      GSP_OK(gsp_msssp(&Dc, &Pc, c[k].A, all, ns, &o));
      gsp_test_assert_matrix_same(c[k].D, Dc, 0);
      gsp_test_assert_matrix_same(c[k].P, Pc, 0);
      free(all);
      gsp_matrix_free(&Dc), gsp_matrix_free(&Pc);
      gsp_matrix_free(&c[k].A), gsp_matrix_free(&c[k].D), gsp_matrix_free(&c[k].P);
    }
  }
}
