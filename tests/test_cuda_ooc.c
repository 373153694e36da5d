/*
 * Out-of-core GPU closure (gsp_closure_opts.device_memory_cap below what the
 * matrix needs): the result equals the in-core GPU closure bit for bit (and
 * the CPU where checked) for every semiring and type, page counts of 4, 9,
 * 16 and more, 2 to 5 page slots, sizes that are not tile multiples,
 * negative weights and cycles; the path record shows the closure really ran
 * out of core. Weights are integers, so every summation order is exact.
 *
 * Every test skips without a usable GPU. The schedule itself (ordering,
 * races, indices) is also checked on the CPU by test_sched_sim.
 */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include <math.h>

#include "cuda_scale_test.h"

/* The cap that makes the planner choose pages of B rows with S slots for
 * n x n of type t (the bytes of that plan: S pages, the B x B panel, slack). */
static size_t cap_for(gsp_type t, int64_t n, int64_t B, int S) {
  const int64_t np = (n + 127) / 128 * 128;
  return gsp__ooc_bytes(np, gsp_type_size(t), B, S);
}

/* In-core (no cap) vs out of core (cap): same code, same matrix; the
 * out-of-core run used >= min_pages pages. */
static void same_as_in_core(gsp_matrix A, gsp_type t, gsp_semiring s, bool nonrefl, size_t cap, int64_t min_pages,
                            gsp_info expect) {
  gsp_matrix I = NULL, O = NULL;
  gsp__scale_record ri, ro;
  char ei[256], eo[256];
  gsp_info ii = scale_close(A, s, nonrefl, 0, 1, &I, &ri, ei, sizeof ei);
  gsp_info io = scale_close(A, s, nonrefl, cap, 1, &O, &ro, eo, sizeof eo);
  cr_assert_eq(ii, expect, "%sin-core: %s (%s)", gsp_test_ctx, gsp_strerror(ii), ei);
  cr_assert_eq(io, expect, "%sout-of-core: %s (%s)", gsp_test_ctx, gsp_strerror(io), eo);
  cr_assert_eq(ri.mode, GSP_SCALE_IN_CORE, "%sno cap ran %s", gsp_test_ctx, scale_mode_name(ri.mode));
  cr_assert_eq(ro.mode, GSP_SCALE_OOC, "%scap %zu ran %s", gsp_test_ctx, cap, scale_mode_name(ro.mode));
  if (expect == GSP_SUCCESS) {
    cr_assert_geq(ro.pages, min_pages, "%s%lld pages of %lld rows, %d slots", gsp_test_ctx, (long long)ro.pages,
                  (long long)ro.page_rows, ro.slots);
    cr_assert_geq(ro.loads, ro.pages, "%s", gsp_test_ctx);
    scale_assert_same(O, I);
  }
  gsp_matrix_free(&I), gsp_matrix_free(&O);
  (void)t;
}

static void page_case(gsp_type t, gsp_semiring s, int64_t n, scale_kind k, bool nonrefl, int64_t B, int S,
                      int64_t min_pages, uint64_t seed) {
  gsp_test_context("%s %s n=%lld %s %s B=%lld S=%d seed %llu", gsp_test_semiring_name(s), gsp_test_type_name(t),
                   (long long)n, scale_kind_names[k], nonrefl ? "M+" : "M*", (long long)B, S, (unsigned long long)seed);
  gsp_matrix A = scale_graph(t, s, n, k, 0.01, seed);
  same_as_in_core(A, t, s, nonrefl, cap_for(t, n, B, S), min_pages, GSP_SUCCESS);
  gsp_matrix_free(&A);
}

/* 4, 9, 16 and 24 pages (two slots: the smallest plans). */
Test(cuda_ooc, page_counts) {
  scale_gpu_or_skip();
  page_case(GSP_FP32, GSP_MIN_PLUS, 1000, K_RANDOM, false, 256, 2, 4, 1);
  page_case(GSP_FP32, GSP_MIN_PLUS, 1100, K_NEGATIVE, true, 128, 2, 9, 2);
  page_case(GSP_INT32, GSP_MIN_PLUS, 2000, K_RANDOM, false, 128, 2, 16, 3);
  page_case(GSP_INT32, GSP_MIN_PLUS, 3000, K_NEGATIVE, false, 128, 2, 24, 4);
  page_case(GSP_FP64, GSP_MIN_PLUS, 1025, K_RANDOM, false, 128, 2, 9, 5); /* last page: one real row */
}

/* The caps of the issue: a quarter, a ninth, a sixteenth of the matrix, the
 * planner's own choice (sizes where that still fits two 128-row pages). */
Test(cuda_ooc, cap_fractions) {
  scale_gpu_or_skip();
  const struct {
    int64_t n;
    int frac;
  } c[] = {{1500, 4}, {2500, 9}, {4200, 16}};
  for (int k = 0; k < 3; k++) {
    gsp_test_context("fp32 min-plus n=%lld cap 1/%d", (long long)c[k].n, c[k].frac);
    gsp_matrix A = scale_graph(GSP_FP32, GSP_MIN_PLUS, c[k].n, K_RANDOM, 0.005, 10 + k);
    const size_t bytes = (size_t)c[k].n * c[k].n * 4;
    same_as_in_core(A, GSP_FP32, GSP_MIN_PLUS, false, bytes / c[k].frac, c[k].frac, GSP_SUCCESS);
    gsp_matrix_free(&A);
  }
}

/* Every semiring and type at 9 pages, M* and M+. */
Test(cuda_ooc, every_semiring_type) {
  scale_gpu_or_skip();
  uint64_t seed = 100;
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++) {
      page_case(scale_types[b], scale_srs[a], 1100, K_RANDOM, (seed & 1) != 0, 128, 2, 9, seed);
      seed++;
    }
}

/* Kinds: negative weights (DPX is off for int32, saturating product on),
 * sparse, disconnected, dense. */
Test(cuda_ooc, kinds) {
  scale_gpu_or_skip();
  uint64_t seed = 200;
  for (int k = 0; k < 5; k++) {
    page_case(GSP_INT32, GSP_MIN_PLUS, 1100, (scale_kind)k, false, 128, 2, 9, seed++);
    page_case(GSP_FP64, GSP_MAX_PLUS, 1100, (scale_kind)k, k & 1, 128, 2, 9, seed++);
    page_case(GSP_INT64, GSP_MIN_MAX, 700, (scale_kind)k, false, 128, 2, 6, seed++);
  }
}

/* Three, four and five slots (next pivot kept, overlapped copies), pages of
 * several tiles, an uneven last page: forced through the closure's
 * ooc_slots and ooc_page_rows knobs. */
Test(cuda_ooc, slots_and_page_rows) {
  scale_gpu_or_skip();
  const struct {
    int S;
    int64_t B, n;
  } c[] = {{3, 128, 1500}, {4, 256, 1500}, {5, 128, 1500}, {5, 384, 2000}, {3, 256, 1000}, {4, 512, 3000}};
  /* S x B rows must stay below n, or the whole matrix fits the slots */
  uint64_t seed = 300;
  for (int k = 0; k < 6; k++) {
    scale_knobs.ooc_slots = c[k].S;
    scale_knobs.ooc_page_rows = c[k].B;
    const int64_t np = (c[k].n + 127) / 128 * 128;
    page_case(GSP_FP32, GSP_MIN_PLUS, c[k].n, K_NEGATIVE, false, c[k].B, c[k].S, (np + c[k].B - 1) / c[k].B, seed++);
    page_case(GSP_INT32, GSP_MIN_PLUS, c[k].n, K_RANDOM, true, c[k].B, c[k].S, (np + c[k].B - 1) / c[k].B, seed++);
  }
  scale_knobs.ooc_slots = 0;
  scale_knobs.ooc_page_rows = 0;
}

/* Out of core against the CPU backend too (independent of the GPU kernels'
 * in-core schedule). */
Test(cuda_ooc, against_cpu) {
  scale_gpu_or_skip();
  gsp_test_context("ooc vs cpu");
  for (int k = 0; k < 2; k++) {
    const gsp_type t = k ? GSP_INT64 : GSP_FP32;
    gsp_matrix A = scale_graph(t, GSP_MIN_PLUS, 1100, K_NEGATIVE, 0.01, 400 + k), O = NULL, C = NULL;
    gsp__scale_record r;
    cr_assert_eq(scale_close(A, GSP_MIN_PLUS, false, cap_for(t, 1100, 128, 2), 1, &O, &r, NULL, 0), GSP_SUCCESS);
    cr_assert_eq(r.mode, GSP_SCALE_OOC);
    GSP_OK(gsp_matrix_dup(&C, A));
    gsp_closure_opts oc;
    memset(&oc, 0, sizeof oc);
    oc.backend = GSP_BACKEND_CPU;
    GSP_OK(gsp_closure_ext(C, NULL, GSP_MIN_PLUS, &oc));
    scale_assert_same(O, C);
    gsp_matrix_free(&A), gsp_matrix_free(&O), gsp_matrix_free(&C);
  }
}

/* A negative cycle (MAX_PLUS: positive) out of core: GSP_NEGATIVE_CYCLE and
 * M unchanged (scale_close checks), as in core. */
Test(cuda_ooc, negative_cycle) {
  scale_gpu_or_skip();
  for (int sr = 0; sr < 2; sr++)
    for (int b = 0; b < 4; b++) {
      const gsp_semiring s = sr ? GSP_MAX_PLUS : GSP_MIN_PLUS;
      const gsp_type t = scale_types[b];
      gsp_test_context("cycle %s %s", gsp_test_semiring_name(s), gsp_test_type_name(t));
      gsp_matrix A = scale_graph(t, s, 1100, K_RANDOM, 0.003, 500 + b + 4 * sr);
      scale_add_cycle(A, t, s, 10, 1050, 600); /* across pages */
      same_as_in_core(A, t, s, false, cap_for(t, 1100, 128, 2), 9, GSP_NEGATIVE_CYCLE);
      gsp_matrix_free(&A);
    }
}

/* Successors are not recorded out of core: under a cap an explicit CUDA
 * request fails (M unchanged) and AUTO records them on the CPU, with the
 * CPU's results exactly. */
Test(cuda_ooc, successors_go_to_cpu) {
  scale_gpu_or_skip();
  gsp_test_context("successors under a cap");
  gsp_matrix A = scale_graph(GSP_FP32, GSP_MIN_PLUS, 600, K_RANDOM, 0.02, 600), G = NULL, C = NULL, SG = NULL,
             SC = NULL;
  GSP_OK(gsp_matrix_dup(&G, A));
  GSP_OK(gsp_matrix_dup(&C, A));
  gsp_closure_opts o;
  memset(&o, 0, sizeof o);
  gsp_closure_advanced oadv = {0};
  o.advanced = &oadv;
  o.backend = GSP_BACKEND_CUDA;
  oadv.device_memory_cap = cap_for(GSP_FP32, 600, 128, 2);
  cr_assert_lt(gsp_closure_ext(G, &SG, GSP_MIN_PLUS, &o), 0, "explicit CUDA ran: %s", gsp_last_error());
  cr_assert_null(SG);
  scale_assert_same(G, A);
  o.backend = GSP_BACKEND_AUTO;
  gsp__scale_record r;
  GSP_OK(close_recorded(G, &SG, GSP_MIN_PLUS, &o, &r));
  cr_assert_eq(r.mode, GSP_SCALE_CPU, "ran %s", scale_mode_name(r.mode));
  o.backend = GSP_BACKEND_CPU;
  oadv.device_memory_cap = 0;
  GSP_OK(gsp_closure_ext(C, &SC, GSP_MIN_PLUS, &o));
  scale_assert_same(G, C);
  gsp_test_assert_matrix_same(SG, SC, 0);
  gsp_matrix_free(&A), gsp_matrix_free(&G), gsp_matrix_free(&C), gsp_matrix_free(&SG), gsp_matrix_free(&SC);
}

/* A cap below two 128-row pages: GSP_DEVICE_OUT_OF_MEMORY naming the cap, M
 * unchanged, the library usable afterwards. A cap above the in-core need
 * runs in core. */
Test(cuda_ooc, cap_too_small_and_large) {
  scale_gpu_or_skip();
  gsp_test_context("cap limits");
  gsp_matrix A = scale_graph(GSP_FP32, GSP_MIN_PLUS, 1000, K_RANDOM, 0.01, 700), M = NULL;
  gsp__scale_record r;
  char err[256];
  cr_assert_eq(scale_close(A, GSP_MIN_PLUS, false, cap_for(GSP_FP32, 1000, 128, 2) - 1, 1, &M, &r, err, sizeof err),
               GSP_DEVICE_OUT_OF_MEMORY);
  cr_assert(strstr(err, "cap") != NULL, "message: %s", err);
  GSP_OK(scale_close(A, GSP_MIN_PLUS, false, cap_for(GSP_FP32, 1000, 128, 2), 1, &M, &r, NULL, 0));
  cr_assert_eq(r.mode, GSP_SCALE_OOC);
  gsp_matrix_free(&M);
  GSP_OK(scale_close(A, GSP_MIN_PLUS, false, (size_t)1 << 30, 1, &M, &r, NULL, 0));
  cr_assert_eq(r.mode, GSP_SCALE_IN_CORE);
  gsp_matrix_free(&M);
  gsp_matrix_free(&A);
}

/* A device-resident input (the result of an in-core closure) closed again
 * out of core: downloaded first, same result (a closure is its own
 * closure), then a host edit and an out-of-core closure match the CPU. */
Test(cuda_ooc, resident_input) {
  scale_gpu_or_skip();
  gsp_test_context("resident input");
  gsp_matrix A = scale_graph(GSP_INT32, GSP_MIN_PLUS, 1100, K_SPARSE, 0, 800), M = NULL, C = NULL;
  GSP_OK(gsp_matrix_dup(&M, A));
  GSP_OK(gsp_matrix_dup(&C, A));
  gsp_closure_opts o, oc;
  memset(&o, 0, sizeof o);
  gsp_closure_advanced oadv = {0};
  o.advanced = &oadv;
  memset(&oc, 0, sizeof oc);
  o.backend = GSP_BACKEND_CUDA;
  oc.backend = GSP_BACKEND_CPU;
  GSP_OK(gsp_closure_ext(M, NULL, GSP_MIN_PLUS, &o)); /* in core, stays on the device */
  oadv.device_memory_cap = cap_for(GSP_INT32, 1100, 128, 2);
  gsp__scale_record r;
  GSP_OK(close_recorded(M, NULL, GSP_MIN_PLUS, &o, &r));
  cr_assert_eq(r.mode, GSP_SCALE_OOC);
  GSP_OK(gsp_closure_ext(C, NULL, GSP_MIN_PLUS, &oc));
  scale_assert_same(M, C);
  int32_t w = 1;
  GSP_OK(gsp_matrix_set_element(M, 0, 1099, &w));
  GSP_OK(gsp_matrix_set_element(C, 0, 1099, &w));
  GSP_OK(gsp_closure_ext(M, NULL, GSP_MIN_PLUS, &o));
  GSP_OK(gsp_closure_ext(C, NULL, GSP_MIN_PLUS, &oc));
  scale_assert_same(M, C);
  gsp_matrix_free(&A), gsp_matrix_free(&M), gsp_matrix_free(&C);
}

/* OR_AND is not out of core: under a cap an explicit CUDA request fails
 * (M unchanged) and AUTO runs it on the CPU, exactly. */
Test(cuda_ooc, or_and_goes_to_cpu) {
  scale_gpu_or_skip();
  gsp_test_context("or-and under a cap");
  gsp_matrix A = NULL, G = NULL, C = NULL;
  const int64_t n = 5000;
  GSP_OK(gsp_matrix_new(&A, GSP_BOOL, n, n));
  uint64_t st = 9;
  for (int64_t e = 0; e < 3 * n; e++) {
    bool v = true;
    GSP_OK(gsp_matrix_set_element(A, gsp_test_rand(&st) % n, gsp_test_rand(&st) % n, &v));
  }
  GSP_OK(gsp_matrix_dup(&G, A));
  GSP_OK(gsp_matrix_dup(&C, A));
  gsp_closure_opts o;
  memset(&o, 0, sizeof o);
  gsp_closure_advanced oadv = {0};
  o.advanced = &oadv;
  o.backend = GSP_BACKEND_CUDA;
  oadv.device_memory_cap = (size_t)1 << 20; /* below 8192^2 / 8 bits */
  /* explicit CUDA: refused (out of core has no OR_AND), G untouched */
  cr_assert_eq(gsp_closure_ext(G, NULL, GSP_OR_AND, &o), GSP_DEVICE_OUT_OF_MEMORY, "%s", gsp_last_error());
  scale_assert_same(G, A);
  o.backend = GSP_BACKEND_AUTO;
  gsp__scale_record r;
  GSP_OK(close_recorded(G, NULL, GSP_OR_AND, &o, &r));
  cr_assert_eq(r.mode, GSP_SCALE_CPU);
  o.backend = GSP_BACKEND_CPU;
  oadv.device_memory_cap = 0;
  GSP_OK(gsp_closure_ext(C, NULL, GSP_OR_AND, &o));
  scale_assert_same(G, C);
  gsp_matrix_free(&A), gsp_matrix_free(&G), gsp_matrix_free(&C);
}
