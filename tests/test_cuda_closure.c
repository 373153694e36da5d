/*
 * GPU closure (backend CUDA through gsp_closure_ext) against the CPU backend,
 * exactly, for every semiring and type the GPU kernels serve, sizes around
 * the 128 tile and the 4096-bit bool tile, and random, dense, sparse,
 * disconnected and negative-weight inputs; negative cycles; recorded paths;
 * the device memory cap; a result that stays on the device.
 *
 * Every test skips when gsp_cuda_available finds no device. CUDA is first
 * touched inside a test (Criterion runs each in a forked child), never in the
 * parent process.
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part: the memory cap */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "gsp_test.h"
#include "gsp_test_tier.h"

static void gpu_or_skip(void) {
  GSP_TEST_GPU_OR_SKIP();
  /* the CPU reference may use every core of the device machine */
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  GSP_OK(gsp_set_threads(cpus > 0 ? (int)cpus : 0));
}

typedef enum { RANDOM, DENSE, SPARSE, DISCONNECTED, NEGATIVE, POSITIVE, NKINDS } kind;
static const char *const kind_names[] = {"random", "dense", "sparse", "disconnected", "negative", "positive"};

static const gsp_type num_types[] = {GSP_INT32, GSP_INT64, GSP_FP32, GSP_FP64};
static const gsp_semiring num_srs[] = {GSP_MIN_PLUS, GSP_MAX_PLUS, GSP_MAX_MIN, GSP_MIN_MAX};

/* Edge weights without negative (MIN_PLUS) / positive (MAX_PLUS) cycles:
 * w = base + p(i) - p(j) telescopes to the base sum on every cycle. */
static int64_t weight(gsp_semiring s, kind k, int64_t i, int64_t j, uint64_t *st) {
  /* POSITIVE: no zero weights, so no zero-weight cycles (MAX_PLUS: all < 0)
   * and the GPU takes path recording (see strictly_signed in src/cuda) */
  int64_t base = k == POSITIVE ? 1 + (int64_t)(gsp_test_rand(st) % 9) : (int64_t)(gsp_test_rand(st) % 10);
  int64_t pot = 0;
  if (k == NEGATIVE) {
    uint64_t a = (uint64_t)i * 0x9E3779B97F4A7C15ULL, b = (uint64_t)j * 0x9E3779B97F4A7C15ULL;
    pot = (int64_t)((a >> 40) % 21) - (int64_t)((b >> 40) % 21);
  }
  switch (s) {
  case GSP_MIN_PLUS:
    return base + pot;
  case GSP_MAX_PLUS:
    return -base + pot;
  default:
    return (int64_t)(gsp_test_rand(st) % 19) - 9;
  }
}

/* An n x n graph of the given kind with values for semiring s. */
static gsp_matrix make_graph(gsp_type t, gsp_semiring s, int64_t n, kind k, double density, uint64_t seed) {
  uint64_t st = seed * 0x2545F4914F6CDD1DULL + 7;
  if (k == DENSE) density = 1.0;
  if (k == SPARSE) density = n > 2 ? 2.0 / (double)n : 0.5;
  size_t cap = 1024, cnt = 0, ts = gsp_type_size(t);
  gsp_index *I = malloc(cap * sizeof *I), *J = malloc(cap * sizeof *J);
  char *X = malloc(cap * ts);
  cr_assert(I && J && X);
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) {
      if (k == DISCONNECTED && (i < n / 2) != (j < n / 2)) continue;
      if (gsp_test_uniform(&st) >= density) continue;
      if (cnt == cap) {
        cap *= 2;
        I = realloc(I, cap * sizeof *I);
        J = realloc(J, cap * sizeof *J);
        X = realloc(X, cap * ts);
        cr_assert(I && J && X);
      }
      I[cnt] = (gsp_index)i;
      J[cnt] = (gsp_index)j;
      /* bool: explicit false entries too (absent under OR_AND) */
      gsp_test_value_set(t, X + cnt * ts,
                         t == GSP_BOOL ? (int64_t)(gsp_test_rand(&st) % 4 != 0) : weight(s, k, i, j, &st));
      cnt++;
    }
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, t, (gsp_index)n, (gsp_index)n));
  GSP_OK(gsp_matrix_build(A, I, J, X, cnt, GSP_DUP_ERROR));
  free(I), free(J), free(X);
  return A;
}

static gsp_closure_opts opts_for(gsp_backend b, bool non_reflexive) {
  gsp_closure_opts o;
  memset(&o, 0, sizeof o);
  o.non_reflexive = non_reflexive;
  o.backend = b;
  return o;
}

/* Path cost under s of the edges of A along path[0..len). */
static double path_cost(gsp_semiring s, gsp_type t, gsp_matrix A, const gsp_index *path, gsp_index len) {
  double c = 0;
  switch (s) {
  case GSP_MIN_PLUS:
  case GSP_MAX_PLUS:
    c = 0;
    break;
  case GSP_MAX_MIN:
    c = 1e300;
    break;
  default:
    c = -1e300;
    break;
  }
  for (gsp_index h = 0; h + 1 < len; h++) {
    char x[16];
    gsp_info info = gsp_matrix_extract_element(x, A, path[h], path[h + 1]);
    cr_assert_eq(info, GSP_SUCCESS, "%spath uses a missing edge (%llu,%llu)", gsp_test_ctx, (unsigned long long)path[h],
                 (unsigned long long)path[h + 1]);
    double w = gsp_test_value_f64(t, x);
    switch (s) {
    case GSP_MIN_PLUS:
    case GSP_MAX_PLUS:
      c += w;
      break;
    case GSP_MAX_MIN:
      c = w < c ? w : c;
      break;
    default:
      c = w > c ? w : c;
      break;
    }
  }
  return c;
}

/* Every reconstructed path (all pairs, or `samples` random ones) costs
 * exactly the closure value, and succ is present exactly where D is. */
/* relative tolerance of distances (GPU vs CPU) and path costs; 0 = exact,
 * as integer-valued weights give: real-valued sums round in each
 * backend's own order */
static double real_tol = 0;
static void check_paths(gsp_semiring s, gsp_type t, gsp_matrix A, gsp_matrix D, gsp_matrix S, bool non_reflexive,
                        int samples, uint64_t seed) {
  gsp_index n, nd, ns;
  GSP_OK(gsp_matrix_nrows(&n, A));
  GSP_OK(gsp_matrix_nvals(&nd, D));
  GSP_OK(gsp_matrix_nvals(&ns, S));
  cr_assert_eq(nd, ns, "%ssucc has %llu entries, the closure %llu", gsp_test_ctx, (unsigned long long)ns,
               (unsigned long long)nd);
  gsp_index *path = malloc((n + 1) * sizeof *path);
  cr_assert(path);
  uint64_t st = seed;
  const uint64_t total = (uint64_t)n * n;
  const uint64_t count = samples <= 0 || (uint64_t)samples > total ? total : (uint64_t)samples;
  for (uint64_t q = 0; q < count; q++) {
    uint64_t e = count == total ? q : gsp_test_rand(&st) % total;
    gsp_index i = e / n, j = e % n;
    if (non_reflexive && i == j) continue; /* a cycle: extract gives [i] */
    char dv[16];
    gsp_info have = gsp_matrix_extract_element(dv, D, i, j);
    gsp_index len = n + 1;
    gsp_info pinfo = gsp_path_from_succ(path, &len, S, i, j);
    if (have == GSP_NO_VALUE) {
      cr_assert_eq(pinfo, GSP_NO_VALUE, "%s(%llu,%llu) has no distance but a path", gsp_test_ctx, (unsigned long long)i,
                   (unsigned long long)j);
      continue;
    }
    cr_assert_eq(pinfo, GSP_SUCCESS, "%spath (%llu,%llu): %s %s", gsp_test_ctx, (unsigned long long)i,
                 (unsigned long long)j, gsp_strerror(pinfo), gsp_last_error());
    cr_assert(path[0] == i && path[len - 1] == j);
    double c = path_cost(s, t, A, path, len), want = gsp_test_value_f64(t, dv);
    if (i == j && len == 1) c = want; /* the empty path of M*: cost one */
    cr_assert(real_tol ? fabs(c - want) <= real_tol * fabs(want) : c == want,
              "%spath (%llu,%llu) of %llu vertices costs %g, distance %g", gsp_test_ctx, (unsigned long long)i,
              (unsigned long long)j, (unsigned long long)len, c, want);
  }
  free(path);
}

/* GPU closure of A equals the CPU closure; with paths, both successor
 * matrices reconstruct optimal paths. Returns the closure code. */
static gsp_info check_closure(gsp_matrix A, gsp_type t, gsp_semiring s, bool non_reflexive, bool paths, int samples) {
  gsp_matrix G = NULL, C = NULL, SG = NULL, SC = NULL;
  GSP_OK(gsp_matrix_dup(&G, A));
  GSP_OK(gsp_matrix_dup(&C, A));
  gsp_closure_opts og = opts_for(GSP_BACKEND_CUDA, non_reflexive);
  gsp_closure_opts oc = opts_for(GSP_BACKEND_CPU, non_reflexive);
  gsp_info ig = gsp_closure_ext(G, paths ? &SG : NULL, s, &og);
  if (ig == GSP_DOMAIN_MISMATCH && paths) {
    /* successors the GPU does not record (MAX_MIN, MIN_MAX, weights that
     * may tie along zero cycles): refused under explicit CUDA, G as it
     * was; AUTO runs them on the CPU */
    gsp_test_assert_matrix_same(G, A, 0);
    cr_assert(SG == NULL);
    og.backend = GSP_BACKEND_AUTO;
    ig = gsp_closure_ext(G, &SG, s, &og);
  }
  char gerr[256];
  snprintf(gerr, sizeof gerr, "%s", gsp_last_error());
  gsp_info ic = gsp_closure_ext(C, paths ? &SC : NULL, s, &oc);
  cr_assert_eq(ig, ic, "%sGPU %s (%s) vs CPU %s", gsp_test_ctx, gsp_strerror(ig), gerr, gsp_strerror(ic));
  if (ig == GSP_SUCCESS) {
    gsp_test_assert_matrix_same(G, C, real_tol);
    if (paths) check_paths(s, t, A, G, SG, non_reflexive, samples, 12345);
  } else {
    gsp_test_assert_matrix_same(G, A, 0); /* unchanged on error */
  }
  gsp_matrix_free(&G), gsp_matrix_free(&C), gsp_matrix_free(&SG), gsp_matrix_free(&SC);
  return ig;
}

static void run_case(gsp_type t, gsp_semiring s, int64_t n, kind k, bool nonrefl, bool paths, uint64_t seed) {
  gsp_test_context("%s %s n=%lld %s %s%s seed %llu", gsp_test_semiring_name(s), gsp_test_type_name(t), (long long)n,
                   kind_names[k], nonrefl ? "M+" : "M*", paths ? " paths" : "", (unsigned long long)seed);
  double density = n <= 200 ? 0.3 : n <= 1000 ? 0.05 : 0.01;
  gsp_matrix A = make_graph(t, s, n, k, density, seed);
  gsp_info info = check_closure(A, t, s, nonrefl, paths, n <= 129 ? 0 : 3000);
  if (k == NEGATIVE || s == GSP_MIN_PLUS || s == GSP_MAX_PLUS)
    cr_assert_eq(info, GSP_SUCCESS, "%sinput has no negative cycle by construction", gsp_test_ctx);
  gsp_matrix_free(&A);
}

static const int64_t small_sizes[] = {1, 2, 31, 33, 127, 129};

Test(cuda_closure, small_every_semiring_type_kind) {
  gpu_or_skip();
  uint64_t seed = 1;
  for (size_t a = 0; a < 4; a++)
    for (size_t b = 0; b < 4; b++)
      for (size_t z = 0; z < sizeof small_sizes / sizeof *small_sizes; z++)
        for (int k = 0; k < NKINDS; k++) {
          if ((k == NEGATIVE || k == POSITIVE) && num_srs[a] != GSP_MIN_PLUS && num_srs[a] != GSP_MAX_PLUS) continue;
          run_case(num_types[b], num_srs[a], small_sizes[z], (kind)k, (seed & 1) != 0, false, seed);
          seed++;
        }
}

Test(cuda_closure, small_or_and) {
  gpu_or_skip();
  uint64_t seed = 100;
  for (size_t z = 0; z < sizeof small_sizes / sizeof *small_sizes; z++)
    for (int k = 0; k < NEGATIVE; k++)
      for (int nr = 0; nr < 2; nr++) run_case(GSP_BOOL, GSP_OR_AND, small_sizes[z], (kind)k, nr, false, seed++);
}

/* Several rounds (3 and 5 tiles of 128): the lookahead's two workspaces
 * alternate and the next round's stripe is updated apart from the rest. */
Test(cuda_closure, rounds_every_semiring_type) {
  gpu_or_skip();
  const int64_t sizes[] = {300, 600};
  uint64_t seed = 150;
  for (size_t a = 0; a < 4; a++)
    for (size_t b = 0; b < 4; b++)
      for (size_t z = 0; z < 2; z++)
        run_case(num_types[b], num_srs[a], sizes[z], RANDOM, (seed & 1) != 0, false, seed++);
}

#ifdef GSP_TEST_LONG /* the small_* cases cover every semiring, type and kind */
Test(cuda_closure, n1000_every_semiring_type) {
  gpu_or_skip();
  uint64_t seed = 200;
  for (size_t a = 0; a < 4; a++)
    for (size_t b = 0; b < 4; b++) run_case(num_types[b], num_srs[a], 1000, RANDOM, false, false, seed++);
  run_case(GSP_BOOL, GSP_OR_AND, 1000, RANDOM, false, false, seed++);
  run_case(GSP_BOOL, GSP_OR_AND, 1000, SPARSE, true, false, seed++);
}
#endif

#ifdef GSP_TEST_LONG /* the small_* cases cover every semiring, type and kind */
Test(cuda_closure, n1000_kinds) {
  gpu_or_skip();
  uint64_t seed = 300;
  for (int k = 0; k < NKINDS; k++) {
    run_case(GSP_FP32, GSP_MIN_PLUS, 1000, (kind)k, k & 1, false, seed++);
    run_case(GSP_INT32, GSP_MIN_PLUS, 1000, (kind)k, false, false, seed++);
    run_case(GSP_INT64, GSP_MAX_PLUS, 1000, (kind)k, false, false, seed++);
  }
}
#endif

#ifdef GSP_TEST_LONG /* the small_* cases cover every semiring, type and kind */
Test(cuda_closure, n4099) {
  gpu_or_skip();
  run_case(GSP_FP32, GSP_MIN_PLUS, 4099, RANDOM, false, false, 400);
  run_case(GSP_INT32, GSP_MIN_PLUS, 4099, RANDOM, false, false, 401);   /* DPX path */
  run_case(GSP_INT32, GSP_MIN_PLUS, 4099, NEGATIVE, false, false, 402); /* saturating path */
  run_case(GSP_FP64, GSP_MAX_MIN, 4099, SPARSE, true, false, 403);
  run_case(GSP_BOOL, GSP_OR_AND, 4099, SPARSE, false, false, 404);
  run_case(GSP_INT64, GSP_MIN_PLUS, 2600, NEGATIVE, false, false, 405); /* the next stripe in k_rest's grid */
  run_case(GSP_FP32, GSP_MAX_MIN, 4099, SPARSE, true, false, 406);      /* and S(r + 1) too (side_in_rest) */
}
#endif

/* INT32 MIN_PLUS near the top of the range: sums overflow and must saturate
 * to INT32_MAX ("no path") exactly as the CPU does, on the DPX path. */
Test(cuda_closure, int32_saturation) {
  gpu_or_skip();
  gsp_test_context("int32 saturation");
  const int64_t n = 129;
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, GSP_INT32, n, n));
  uint64_t st = 5;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++)
      if (gsp_test_uniform(&st) < 0.2) {
        int32_t w = (int32_t)(1000000000 + gsp_test_rand(&st) % 200000000);
        GSP_OK(gsp_matrix_set_element(A, i, j, &w));
      }
  check_closure(A, GSP_INT32, GSP_MIN_PLUS, false, false, 0);
  check_closure(A, GSP_INT32, GSP_MIN_PLUS, true, true, 0);
  gsp_matrix_free(&A);
}

/* Paths: the GPU records successors for strictly positive MIN_PLUS and
 * strictly negative MAX_PLUS weights; with possible ties along zero-weight
 * cycles, and for MAX_MIN / MIN_MAX, the gateway declines (an explicit
 * CUDA request fails, AUTO runs on the CPU): both must give optimal paths
 * through the public API. */
Test(cuda_closure, paths) {
  gpu_or_skip();
  uint64_t seed = 500;
  const int64_t sizes[] = {33, 129, 1000};
  for (size_t z = 0; z < 3; z++) {
    for (size_t b = 0; b < 4; b++) {
      run_case(num_types[b], GSP_MIN_PLUS, sizes[z], POSITIVE, false, true, seed++);
      run_case(num_types[b], GSP_MIN_PLUS, sizes[z], POSITIVE, true, true, seed++);
      run_case(num_types[b], GSP_MAX_PLUS, sizes[z], POSITIVE, false, true, seed++);
    }
    run_case(GSP_FP32, GSP_MIN_PLUS, sizes[z], RANDOM, false, true, seed++);
    run_case(GSP_INT64, GSP_MIN_PLUS, sizes[z], NEGATIVE, true, true, seed++);
    run_case(GSP_INT32, GSP_MAX_MIN, sizes[z], RANDOM, false, true, seed++);
    run_case(GSP_FP64, GSP_MIN_MAX, sizes[z], SPARSE, true, true, seed++);
  }
  run_case(GSP_FP32, GSP_MIN_PLUS, 4099, POSITIVE, false, true, seed++);
}

/* Successors on dense rows: the GPU keeps each row's 128 best arcs
 * (radix-selected) before the closure and finds first hops among them. */
Test(cuda_closure, paths_dense_rows) {
  gpu_or_skip();
  uint64_t seed = 900;
  const int64_t sizes[] = {300, 1000};
  for (size_t z = 0; z < 2; z++)
    for (size_t b = 0; b < 4; b++)
      for (int sr = 0; sr < 2; sr++) {
        const gsp_semiring s = sr ? GSP_MAX_PLUS : GSP_MIN_PLUS;
        gsp_test_context("dense paths %s %s n=%lld", gsp_test_semiring_name(s), gsp_test_type_name(num_types[b]),
                         (long long)sizes[z]);
        gsp_matrix A = make_graph(num_types[b], s, sizes[z], POSITIVE, 1.0, seed++);
        check_closure(A, num_types[b], s, sr == 1, true, 4000);
        gsp_matrix_free(&A);
      }
}

/* A first hop that is not among a row's 128 best arcs: vertex 0 has 300
 * light arcs into dead ends and one heavy arc into a long chain, so the
 * pairs (0, chain) need the search over the whole row. */
Test(cuda_closure, paths_first_hop_beyond_candidates) {
  gpu_or_skip();
  const gsp_type types[] = {GSP_INT32, GSP_FP64};
  for (size_t b = 0; b < 2; b++) {
    const gsp_type t = types[b];
    const gsp_index n = 600, ts = gsp_type_size(t);
    gsp_index I[1000], J[1000];
    char X[1000 * 8];
    size_t cnt = 0;
    for (gsp_index v = 1; v <= 300; v++, cnt++) I[cnt] = 0, J[cnt] = v, gsp_test_value_set(t, X + cnt * ts, 1);
    I[cnt] = 0, J[cnt] = 301, gsp_test_value_set(t, X + cnt * ts, 50), cnt++;
    for (gsp_index v = 301; v + 1 < n; v++, cnt++) I[cnt] = v, J[cnt] = v + 1, gsp_test_value_set(t, X + cnt * ts, 2);
    J[cnt] = 0, I[cnt] = n - 1, gsp_test_value_set(t, X + cnt * ts, 3), cnt++; /* back to 0 */
    gsp_matrix A = NULL;
    GSP_OK(gsp_matrix_new(&A, t, n, n));
    GSP_OK(gsp_matrix_build(A, I, J, X, cnt, GSP_DUP_ERROR));
    for (int nr = 0; nr < 2; nr++) {
      gsp_test_context("first hop beyond the candidates %s %s", gsp_test_type_name(t), nr ? "M+" : "M*");
      check_closure(A, t, GSP_MIN_PLUS, nr == 1, true, 0);
    }
    gsp_matrix_free(&A);
  }
}

/* Real-valued float weights: sums round, so a first hop may be tight only
 * within rounding; paths must still be optimal to that precision and every
 * successor chain must end (gsp_path_from_succ fails on a loop). */
Test(cuda_closure, paths_real_weights) {
  gpu_or_skip();
  const gsp_type types[] = {GSP_FP32, GSP_FP64};
  for (size_t b = 0; b < 2; b++) {
    const gsp_type t = types[b];
    const gsp_index n = 700;
    uint64_t st = 77 + b;
    size_t cnt = 0, cap = (size_t)n * n;
    gsp_index *I = malloc(cap * sizeof *I), *J = malloc(cap * sizeof *J);
    double *X = malloc(cap * sizeof *X);
    cr_assert(I && J && X);
    for (gsp_index i = 0; i < n; i++)
      for (gsp_index j = 0; j < n; j++)
        if (i != j && gsp_test_uniform(&st) < (i % 7 == 0 ? 0.9 : 0.05))
          I[cnt] = i, J[cnt] = j, X[cnt++] = 0.1 + 9.9 * gsp_test_uniform(&st);
    gsp_matrix A64 = NULL, A = NULL;
    GSP_OK(gsp_matrix_new(&A64, GSP_FP64, n, n));
    GSP_OK(gsp_matrix_build(A64, I, J, X, cnt, GSP_DUP_ERROR));
    GSP_OK(gsp_matrix_cast(&A, A64, t));
    free(I), free(J), free(X);
    gsp_test_context("real weights %s", gsp_test_type_name(t));
    real_tol = t == GSP_FP32 ? 1e-4 : 1e-9;
    check_closure(A, t, GSP_MIN_PLUS, false, true, 20000);
    real_tol = 0;
    gsp_matrix_free(&A), gsp_matrix_free(&A64);
  }
}

/* A negative cycle (MAX_PLUS: positive) -> GSP_NEGATIVE_CYCLE, M unchanged. */
Test(cuda_closure, negative_cycle) {
  gpu_or_skip();
  for (int sr = 0; sr < 2; sr++)
    for (size_t b = 0; b < 4; b++) {
      const gsp_semiring s = sr ? GSP_MAX_PLUS : GSP_MIN_PLUS;
      const gsp_type t = num_types[b];
      gsp_test_context("cycle %s %s", gsp_test_semiring_name(s), gsp_test_type_name(t));
      gsp_matrix A = make_graph(t, s, 300, RANDOM, 0.02, 600 + b);
      /* the cycle 10 -> 200 -> 150 -> 10 of weight -1 (MAX_PLUS: +1) */
      const int64_t cyc[3][3] = {{10, 200, 5}, {200, 150, 3}, {150, 10, -9}};
      for (int e = 0; e < 3; e++) {
        char x[16];
        gsp_test_value_set(t, x, sr ? -cyc[e][2] : cyc[e][2]);
        GSP_OK(gsp_matrix_set_element(A, cyc[e][0], cyc[e][1], x));
      }
      cr_assert_eq(check_closure(A, t, s, false, false, 0), GSP_NEGATIVE_CYCLE);
      cr_assert_eq(check_closure(A, t, s, true, true, 0), GSP_NEGATIVE_CYCLE);
      gsp_matrix_free(&A);
    }
}

/* A cap below what n x n needs closes out of core (test_cuda_ooc); one
 * below even that: GSP_DEVICE_OUT_OF_MEMORY, M unchanged, and the library
 * still works afterwards. */
Test(cuda_closure, memory_cap) {
  gpu_or_skip();
  gsp_test_context("memory cap");
  gsp_matrix A = make_graph(GSP_FP32, GSP_MIN_PLUS, 500, RANDOM, 0.05, 700), M = NULL;
  GSP_OK(gsp_matrix_dup(&M, A));
  gsp_closure_advanced oadv = {.device_memory_cap = 128 * 512 * 4}; /* not even one 128-row page */
  gsp_closure_opts o = opts_for(GSP_BACKEND_CUDA, false);
  o.advanced = &oadv;
  cr_assert_eq(gsp_closure_ext(M, NULL, GSP_MIN_PLUS, &o), GSP_DEVICE_OUT_OF_MEMORY);
  cr_assert(strstr(gsp_last_error(), "cap") != NULL, "message: %s", gsp_last_error());
  gsp_test_assert_matrix_same(M, A, 0);
  oadv.device_memory_cap = (size_t)64 << 20;
  GSP_OK(gsp_closure_ext(M, NULL, GSP_MIN_PLUS, &o));
  gsp_matrix C = NULL;
  GSP_OK(gsp_matrix_dup(&C, A));
  gsp_closure_opts oc = opts_for(GSP_BACKEND_CPU, false);
  GSP_OK(gsp_closure_ext(C, NULL, GSP_MIN_PLUS, &oc));
  gsp_test_assert_matrix_same(M, C, 0);
  gsp_matrix_free(&A), gsp_matrix_free(&M), gsp_matrix_free(&C);
}

/* The result stays on the device: a second closure reuses it (closing a
 * closure changes nothing), element reads download it lazily, and a host
 * write drops the device copy so the next closure sees the new edge. */
Test(cuda_closure, device_resident_result) {
  gpu_or_skip();
  gsp_test_context("resident");
  gsp_matrix A = make_graph(GSP_FP32, GSP_MIN_PLUS, 300, SPARSE, 0, 800), M = NULL, C = NULL;
  GSP_OK(gsp_matrix_dup(&M, A));
  gsp_closure_opts o = opts_for(GSP_BACKEND_CUDA, false), oc = opts_for(GSP_BACKEND_CPU, false);
  GSP_OK(gsp_closure_ext(M, NULL, GSP_MIN_PLUS, &o));
  gsp_index nv1 = 0, nv2 = 0;
  GSP_OK(gsp_matrix_nvals(&nv1, M));
  GSP_OK(gsp_closure_ext(M, NULL, GSP_MIN_PLUS, &o));
  GSP_OK(gsp_matrix_nvals(&nv2, M));
  cr_assert_eq(nv1, nv2);
  GSP_OK(gsp_matrix_dup(&C, A));
  GSP_OK(gsp_closure_ext(C, NULL, GSP_MIN_PLUS, &oc));
  gsp_test_assert_matrix_same(M, C, 0);
  /* a new edge 0 -> 299 of weight 0.5 (a host change), then close again */
  float w = 0.5f;
  GSP_OK(gsp_matrix_set_element(M, 0, 299, &w));
  GSP_OK(gsp_matrix_set_element(C, 0, 299, &w));
  GSP_OK(gsp_closure_ext(M, NULL, GSP_MIN_PLUS, &o));
  GSP_OK(gsp_closure_ext(C, NULL, GSP_MIN_PLUS, &oc));
  gsp_test_assert_matrix_same(M, C, 0);
  float x = 0;
  GSP_OK(gsp_matrix_extract_element(&x, M, 0, 299));
  cr_assert(x <= 0.5f);
  gsp_matrix_free(&A), gsp_matrix_free(&M), gsp_matrix_free(&C);
}

/* Asked for the GPU, the report says one GPU ran it (in core). */
Test(cuda_closure, report_says_the_gpu_ran) {
  gpu_or_skip();
  gsp_matrix A = NULL;
  GSP_OK(gsp_generate_complete(&A, GSP_FP32, 300, 1, 9, 3));
  gsp_run_report rep = {.backend = GSP_BACKEND_AUTO};
  const gsp_closure_advanced adv = {.report = &rep};
  const gsp_closure_opts o = {.backend = GSP_BACKEND_CUDA, .advanced = &adv};
  GSP_OK(gsp_closure_ext(A, NULL, GSP_MIN_PLUS, &o));
  cr_assert_eq(rep.backend, GSP_BACKEND_CUDA);
  cr_assert_eq(rep.gpus, 1);
  gsp_matrix_free(&A);
}
