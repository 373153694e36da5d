/*
 * gsp_bellman_ford, gsp_negative_cycle and gsp__bf_potentials on the CUDA
 * backend: every result must equal the CPU backend's bit for bit
 * (distances, parents, and the very same cycle), and is also checked
 * against the references of bf_test_ref.h. Covers every weight type,
 * narrow and wide rows (4 or 32 threads per frontier vertex), negative
 * cycles reachable and unreachable, a cycle found at a power-of-two
 * checkpoint and one found only at round n, saturation, and graphs large
 * enough to fill the device.
 *
 * Every test skips when gsp_cuda_available finds no device. CUDA is first
 * touched inside a test (Criterion runs each in a forked child).
 */
#define GSP_ADVANCED_API /* gsp_run_report */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bellman_ford.h" /* gsp__bf_potentials */
#include "bf_test_ref.h"
#include "gsp_test_tier.h"

static void gpu_or_skip(void) {
  GSP_TEST_GPU_OR_SKIP();
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  GSP_OK(gsp_set_threads(cpus > 0 ? (int)cpus : 0));
}

static const gsp_bf_opts cpu = {.backend = GSP_BACKEND_CPU}, gpu = {.backend = GSP_BACKEND_CUDA};

/* GPU == CPU for distances and parents; references when check. */
static void bf_both(gsp_matrix A, gsp_index src, bool check) {
  gsp_vector dc = NULL, pc = NULL, dg = NULL, pg = NULL, d2 = NULL;
  GSP_OK(gsp_bellman_ford(&dc, &pc, A, src, &cpu));
  GSP_OK(gsp_bellman_ford(&dg, &pg, A, src, &gpu));
  gsp_test_assert_vector_same(dg, dc, 0);
  gsp_test_assert_vector_same(pg, pc, 0);
  GSP_OK(gsp_bellman_ford(&d2, NULL, A, src, &gpu));
  gsp_test_assert_vector_same(d2, dc, 0);
  if (check) {
    tg g = tg_from_matrix(A);
    check_bf_result(&g, (int64_t)src, dg, pg);
    tg_free(&g);
  }
  gsp_vector_free(&dc), gsp_vector_free(&pc), gsp_vector_free(&dg), gsp_vector_free(&pg), gsp_vector_free(&d2);
}

/* Both backends find the same negative cycle, and it is one. */
static void cycle_both(gsp_matrix A, gsp_index n) {
  gsp_index *c1 = malloc(n * sizeof *c1), *c2 = malloc(n * sizeof *c2), l1 = n, l2 = n;
  cr_assert(c1 && c2);
  GSP_OK(gsp_negative_cycle(c1, &l1, A, &cpu));
  GSP_OK(gsp_negative_cycle(c2, &l2, A, &gpu));
  cr_assert_eq(l1, l2, "%scycle lengths: CPU %llu, GPU %llu", gsp_test_ctx, (unsigned long long)l1,
               (unsigned long long)l2);
  cr_assert(memcmp(c1, c2, l1 * sizeof *c1) == 0, "%sthe backends found different cycles", gsp_test_ctx);
  tg g = tg_from_matrix(A);
  check_cycle(&g, c2, l2);
  tg_free(&g);
  free(c1), free(c2);
}

Test(cuda_bellman_ford, reweighted_families_all_types) {
  gpu_or_skip();
  const family fams[] = {F_RANDOM, F_RMAT, F_GRID, F_RING2, F_COMPLETE, F_DISCONNECTED, F_ZERO, F_FRACTION};
  for (size_t f = 0; f < sizeof fams / sizeof *fams; f++) {
    gsp_matrix B = family_matrix(fams[f], GSP_FP64, 500, 3 + f), R = reweighted(B, 30, 5 + f);
    for (size_t ti = 0; ti < 4; ti++) {
      if (fams[f] == F_FRACTION && ti < 2) continue; /* fractions are for floats */
      gsp_matrix A = as_type(R, sssp_types[ti]);
      gsp_index n = 0;
      GSP_OK(gsp_matrix_nrows(&n, A)); /* some families round the size */
      for (gsp_index src = 0; src < 2; src++) {
        gsp_test_context("gpu %s %s src %llu: ", family_names[fams[f]], type_name(sssp_types[ti]),
                         (unsigned long long)src);
        bf_both(A, src * (n / 2), true);
      }
      gsp_index c[1], len = 1;
      cr_assert_eq(gsp_negative_cycle(c, &len, A, &gpu), GSP_NO_VALUE);
      gsp_matrix_free(&A);
    }
    gsp_matrix_free(&B), gsp_matrix_free(&R);
  }
}

Test(cuda_bellman_ford, negative_cycles) {
  gpu_or_skip();
  const int64_t sizes[] = {12, 301, 5000};
  const int64_t clens[] = {1, 2, 9};
  for (size_t si = 0; si < GSP_TIER(2, 3); si++) /* n = 5000 in the long tier */
    for (size_t ci = 0; ci < 3; ci++)
      for (int bridge = 0; bridge < 2; bridge++) {
        gsp_matrix R = with_cycle(sizes[si], clens[ci], bridge, 41 + si * 3 + ci);
        for (size_t ti = 0; ti < 4; ti++) {
          gsp_test_context("gpu cycle n %lld len %lld %s %s: ", (long long)sizes[si], (long long)clens[ci],
                           bridge ? "reachable" : "unreachable", type_name(sssp_types[ti]));
          gsp_matrix A = as_type(R, sssp_types[ti]);
          gsp_vector d = NULL, p = NULL;
          if (bridge) {
            cr_assert_eq(gsp_bellman_ford(&d, &p, A, 0, &gpu), GSP_NEGATIVE_CYCLE, "%s%s", gsp_test_ctx,
                         gsp_last_error());
            cr_assert(d == NULL && p == NULL);
          } else {
            bf_both(A, 0, sizes[si] < 1000);
          }
          cycle_both(A, (gsp_index)sizes[si]);
          gsp_matrix_free(&A);
        }
        gsp_matrix_free(&R);
      }
}

Test(cuda_bellman_ford, cycle_found_only_at_round_n) {
  gpu_or_skip();
  /* a chain 0 -> 1 -> ... -> n-1 of -1 arcs closed by n-1 -> 0: the cycle
   * needs every vertex, and the parent graph closes it only late */
  const int64_t sizes[] = {7, 100, 3000};
  for (size_t si = 0; si < GSP_TIER(2, 3); si++) { /* n = 3000 in the long tier */
    const int64_t n = sizes[si];
    gsp_index *I = malloc(n * sizeof *I), *J = malloc(n * sizeof *J);
    double *W = malloc(n * sizeof *W);
    cr_assert(I && J && W);
    for (int64_t v = 0; v < n; v++)
      I[v] = (gsp_index)v, J[v] = (gsp_index)((v + 1) % n), W[v] = v + 1 < n ? -1 : (double)n - 2;
    for (size_t ti = 0; ti < 4; ti++) {
      gsp_test_context("gpu ring n %lld %s: ", (long long)n, type_name(sssp_types[ti]));
      gsp_matrix A = small_graph(sssp_types[ti], (gsp_index)n, I, J, W, (gsp_index)n);
      cycle_both(A, (gsp_index)n);
      gsp_vector d = NULL;
      cr_assert_eq(gsp_bellman_ford(&d, NULL, A, (gsp_index)n / 2, &gpu), GSP_NEGATIVE_CYCLE);
      gsp_matrix_free(&A);
    }
    free(I), free(J), free(W);
  }
}

#ifdef GSP_TEST_LONG /* R-MAT scale 17 and a 300 x 300 grid */
Test(cuda_bellman_ford, large_graphs) {
  gpu_or_skip();
  /* R-MAT (wide rows: 32 threads per vertex) and a grid (many rounds) */
  gsp_matrix B = NULL, R = NULL;
  GSP_OK(gsp_generate_rmat(&B, GSP_FP64, 17, 16, 0, 0, 0, 0, 100, 7));
  R = reweighted(B, 60, 3);
  for (size_t ti = 0; ti < 4; ti++) {
    gsp_test_context("gpu rmat 2^17 %s: ", type_name(sssp_types[ti]));
    gsp_matrix A = as_type(R, sssp_types[ti]);
    bf_both(A, 1, ti == 0);
    gsp_matrix_free(&A);
  }
  gsp_matrix_free(&B), gsp_matrix_free(&R);
  GSP_OK(gsp_generate_grid(&B, GSP_FP64, 300, 300, 1, 9, 4));
  R = reweighted(B, 20, 8);
  for (size_t ti = 0; ti < 4; ti += 3) {
    gsp_test_context("gpu grid 300x300 %s: ", type_name(sssp_types[ti]));
    gsp_matrix A = as_type(R, sssp_types[ti]);
    bf_both(A, 0, true);
    gsp_matrix_free(&A);
  }
  gsp_matrix_free(&B), gsp_matrix_free(&R);
}
#endif

Test(cuda_bellman_ford, potentials_and_saturation) {
  gpu_or_skip();
  gsp_matrix B = family_matrix(F_RMAT, GSP_FP64, 4000, 2), R = reweighted(B, 50, 6);
  for (size_t ti = 0; ti < 4; ti++) {
    gsp_test_context("gpu potentials %s: ", type_name(sssp_types[ti]));
    gsp_matrix A = as_type(R, sssp_types[ti]);
    gsp_index n;
    GSP_OK(gsp_matrix_nrows(&n, A));
    char *h1 = malloc(n * 8), *h2 = malloc(n * 8);
    cr_assert(h1 && h2);
    GSP_OK(gsp__bf_potentials(h1, A, GSP_BACKEND_CPU, NULL, NULL));
    GSP_OK(gsp__bf_potentials(h2, A, GSP_BACKEND_CUDA, NULL, NULL));
    cr_assert(memcmp(h1, h2, n * gsp_type_size(sssp_types[ti])) == 0, "%spotentials differ", gsp_test_ctx);
    free(h1), free(h2);
    gsp_matrix_free(&A);
  }
  gsp_matrix_free(&B), gsp_matrix_free(&R);
  /* clamping at INT32_MIN hides the cycle 2 <-> 3 from the rounds; the
   * exact re-check finds it on either backend */
  const gsp_index I[] = {0, 1, 2, 3}, J[] = {1, 2, 3, 2};
  const int32_t w[] = {-2000000000, -2000000000, 1, -2};
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, GSP_INT32, 10, 10));
  GSP_OK(gsp_matrix_build(A, I, J, w, 4, GSP_DUP_ERROR));
  gsp_vector d = NULL;
  cr_assert_eq(gsp_bellman_ford(&d, NULL, A, 0, &gpu), GSP_NEGATIVE_CYCLE);
  gsp_test_context("gpu saturation: ");
  cycle_both(A, 10);
  gsp_matrix_free(&A);
}

Test(cuda_bellman_ford, auto_backend) {
  gpu_or_skip();
  gsp_matrix B = family_matrix(F_RANDOM, GSP_FP64, 300, 1), R = reweighted(B, 10, 2);
  gsp_bf_opts o = {0};
  gsp_vector d = NULL, p = NULL;
  GSP_OK(gsp_bellman_ford(&d, &p, R, 0, &o));
  tg g = tg_from_matrix(R);
  gsp_test_context("gpu auto: ");
  check_bf_result(&g, 0, d, p);
  tg_free(&g);
  gsp_vector_free(&d), gsp_vector_free(&p);
  gsp_matrix_free(&B), gsp_matrix_free(&R);
}

/* Asked for the GPU (and under AUTO, which takes it), the report says so. */
Test(cuda_bellman_ford, report_says_the_gpu_ran) {
  gpu_or_skip();
  gsp_matrix A = NULL;
  GSP_OK(gsp_generate_grid(&A, GSP_FP32, 64, 64, 1, 9, 3));
  const gsp_backend asked[] = {GSP_BACKEND_CUDA, GSP_BACKEND_AUTO};
  for (int k = 0; k < 2; k++) {
    gsp_run_report rep = {.backend = GSP_BACKEND_AUTO};
    const gsp_bf_advanced adv = {.report = &rep};
    const gsp_bf_opts o = {.backend = asked[k], .advanced = &adv};
    gsp_vector d = NULL;
    GSP_OK(gsp_bellman_ford(&d, NULL, A, 0, &o));
    cr_assert_eq(rep.backend, GSP_BACKEND_CUDA, "asked %d", (int)asked[k]);
    gsp_vector_free(&d);
  }
  gsp_matrix_free(&A);
}
