/*
 * Closure over several GPUs (gsp_closure_opts.gpus, GSP_GPUS): the result
 * equals the single-GPU closure bit for bit for G = 2, 3 and 4 (as many as
 * are visible), every semiring and type, sizes that are not tile
 * multiples, negative weights and cycles; the automatic choice; NCCL's
 * NVLink multicast forced off. Skipped with fewer than two GPUs.
 */
#define GSP_ADVANCED_API         /* gsp.h's advanced part */
#define _POSIX_C_SOURCE  200809L /* setenv */
#include <math.h>

#include "cuda_scale_test.h"

static int gpus_or_skip(int want) {
  scale_gpu_or_skip();
  int count = 0;
  GSP_OK(gsp_cuda_device_count(&count));
  if (count < want) cr_skip_test("%d GPUs usable, the test needs %d", count, want);
  return count;
}

/* One GPU vs G GPUs: same code, same matrix, the multi-GPU path taken. */
static void same_as_one_gpu(gsp_matrix A, gsp_semiring s, bool nonrefl, int G, gsp_info expect) {
  gsp_matrix one = NULL, many = NULL;
  gsp__scale_record r1, rg;
  char e1[256], eg[256];
  gsp_info i1 = scale_close(A, s, nonrefl, 0, 1, &one, &r1, e1, sizeof e1);
  gsp_info ig = scale_close(A, s, nonrefl, 0, G, &many, &rg, eg, sizeof eg);
  cr_assert_eq(i1, expect, "%s1 GPU: %s (%s)", gsp_test_ctx, gsp_strerror(i1), e1);
  cr_assert_eq(ig, expect, "%s%d GPUs: %s (%s)", gsp_test_ctx, G, gsp_strerror(ig), eg);
  cr_assert_eq(r1.mode, GSP_SCALE_IN_CORE, "%s1 GPU ran %s", gsp_test_ctx, scale_mode_name(r1.mode));
  cr_assert_eq(rg.mode, GSP_SCALE_MGPU, "%s%d GPUs ran %s", gsp_test_ctx, G, scale_mode_name(rg.mode));
  cr_assert_eq(rg.gpus, G);
  cr_assert_eq(rg.grid_rows * rg.grid_cols, G);
  if (expect == GSP_SUCCESS) {
    scale_assert_same(many, one);
  }
  gsp_matrix_free(&one), gsp_matrix_free(&many);
}

static void mg_case(gsp_type t, gsp_semiring s, int64_t n, scale_kind k, bool nonrefl, int G, uint64_t seed) {
  gsp_test_context("%s %s n=%lld %s %s G=%d seed %llu", gsp_test_semiring_name(s), gsp_test_type_name(t), (long long)n,
                   scale_kind_names[k], nonrefl ? "M+" : "M*", G, (unsigned long long)seed);
  gsp_matrix A = scale_graph(t, s, n, k, 0.01, seed);
  same_as_one_gpu(A, s, nonrefl, G, GSP_SUCCESS);
  gsp_matrix_free(&A);
}

/* G = 2, 3, 4 as visible: every semiring and type (G = 3: every semiring,
 * types in turn), uneven blocks. */
static void every_semiring_type(int G) {
  uint64_t seed = 100 * (uint64_t)G;
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++) {
      if (G == 3 && b != a) continue;
      mg_case(scale_types[b], scale_srs[a], 1000 + 37 * a, K_RANDOM, (seed & 1) != 0, G, seed);
      seed++;
    }
}

Test(cuda_multigpu, two_every_semiring_type) {
  gpus_or_skip(2);
  every_semiring_type(2);
}
Test(cuda_multigpu, three_every_semiring_type) {
  gpus_or_skip(3);
  every_semiring_type(3);
}
Test(cuda_multigpu, four_every_semiring_type) {
  gpus_or_skip(4);
  every_semiring_type(4);
}

/* Kinds and sizes: negative weights (int32 saturating and DPX products),
 * sparse, disconnected, dense; small n where a block is one tile; the
 * last tile holding one vertex. */
Test(cuda_multigpu, kinds_and_sizes) {
  const int count = gpus_or_skip(2);
  uint64_t seed = 900;
  for (int G = 2; G <= (count < 4 ? count : 4); G++) {
    for (int k = 0; k < 5; k++) {
      mg_case(GSP_INT32, GSP_MIN_PLUS, 1500, (scale_kind)k, false, G, seed++);
      mg_case(GSP_FP32, GSP_MIN_PLUS, 1500, (scale_kind)k, k & 1, G, seed++);
    }
    mg_case(GSP_FP64, GSP_MAX_PLUS, 129 * G, K_NEGATIVE, false, G, seed++);
    mg_case(GSP_INT64, GSP_MIN_PLUS, 128 * 3 * G + 1, K_RANDOM, false, G, seed++);
    mg_case(GSP_FP32, GSP_MAX_MIN, 4099, K_SPARSE, true, G, seed++);
  }
}

/* A negative (MAX_PLUS: positive) cycle over several GPUs: the code, M
 * unchanged, as on one GPU. */
Test(cuda_multigpu, negative_cycle) {
  const int count = gpus_or_skip(2);
  for (int G = 2; G <= (count < 4 ? count : 4); G += 2)
    for (int sr = 0; sr < 2; sr++)
      for (int b = 0; b < 4; b++) {
        const gsp_semiring s = sr ? GSP_MAX_PLUS : GSP_MIN_PLUS;
        const gsp_type t = scale_types[b];
        gsp_test_context("cycle %s %s G=%d", gsp_test_semiring_name(s), gsp_test_type_name(t), G);
        gsp_matrix A = scale_graph(t, s, 1200, K_RANDOM, 0.003, 1000 + b + 4 * sr);
        scale_add_cycle(A, t, s, 5, 1190, 640); /* across blocks */
        same_as_one_gpu(A, s, false, G, GSP_NEGATIVE_CYCLE);
        gsp_matrix_free(&A);
      }
}

/* Automatic: every usable GPU from n = 32768 (here lowered through the
 * mgpu_auto_n knob), one GPU below; GSP_GPUS picks a count; too many GPUs is
 * GSP_NO_DEVICE; a user's NCCL_NVLS_ENABLE=1 is overridden. */
Test(cuda_multigpu, automatic_env_and_limits) {
  const int count = gpus_or_skip(2);
  setenv("NCCL_NVLS_ENABLE", "1", 1);
  gsp_test_context("automatic");
  gsp_matrix A = scale_graph(GSP_FP32, GSP_MIN_PLUS, 1500, K_RANDOM, 0.01, 4), M = NULL, one = NULL;
  gsp__scale_record r;
  GSP_OK(scale_close(A, GSP_MIN_PLUS, false, 0, 0, &M, &r, NULL, 0));
  cr_assert_eq(r.mode, GSP_SCALE_IN_CORE, "n = 1500 automatic ran %s", scale_mode_name(r.mode));
  gsp_matrix_free(&M);
  scale_knobs.mgpu_auto_n = 1024;
  GSP_OK(scale_close(A, GSP_MIN_PLUS, false, 0, 0, &M, &r, NULL, 0));
  scale_knobs.mgpu_auto_n = 0;
  cr_assert_eq(r.mode, GSP_SCALE_MGPU, "automatic above the threshold ran %s", scale_mode_name(r.mode));
  cr_assert_eq(r.gpus, count);
  const char *nvls = getenv("NCCL_NVLS_ENABLE");
  cr_assert(nvls && strcmp(nvls, "0") == 0, "NCCL_NVLS_ENABLE=%s after a multi-GPU closure", nvls ? nvls : "(unset)");
  GSP_OK(scale_close(A, GSP_MIN_PLUS, false, 0, 1, &one, &r, NULL, 0));
  cr_assert_eq(r.mode, GSP_SCALE_IN_CORE);
  scale_assert_same(M, one);
  gsp_matrix_free(&M);
  gsp_matrix_free(&one);

  gsp_test_context("GSP_GPUS");
  setenv("GSP_GPUS", "2", 1);
  GSP_OK(scale_close(A, GSP_MIN_PLUS, false, 0, 0, &M, &r, NULL, 0));
  cr_assert_eq(r.mode, GSP_SCALE_MGPU);
  cr_assert_eq(r.gpus, 2);
  gsp_matrix_free(&M);
  setenv("GSP_GPUS", "two", 1);
  cr_assert_eq(scale_close(A, GSP_MIN_PLUS, false, 0, 0, &M, &r, NULL, 0), GSP_INVALID_VALUE);
  unsetenv("GSP_GPUS");
  cr_assert_eq(scale_close(A, GSP_MIN_PLUS, false, 0, count + 1, &M, &r, NULL, 0), GSP_NO_DEVICE);
  gsp_matrix_free(&A);
}

/* Successors and OR_AND stay on one GPU even when several are asked for;
 * a per-GPU cap below the block is GSP_DEVICE_OUT_OF_MEMORY. */
Test(cuda_multigpu, one_gpu_cases_and_cap) {
  gpus_or_skip(2);
  gsp_test_context("successors with gpus=2");
  gsp_matrix A = scale_graph(GSP_FP32, GSP_MIN_PLUS, 500, K_RANDOM, 0.02, 6), M = NULL, S = NULL;
  /* the GPU (strictly signed weights) or the CPU records them, one device */
  GSP_OK(gsp_matrix_dup(&M, A));
  gsp_closure_advanced oadv = {.gpus = 2};
  gsp_closure_opts o;
  memset(&o, 0, sizeof o);
  o.backend = GSP_BACKEND_CUDA;
  o.advanced = &oadv;
  gsp__scale_record r;
  GSP_OK(close_recorded(M, &S, GSP_MIN_PLUS, &o, &r));
  cr_assert(r.mode != GSP_SCALE_MGPU, "successors ran on several GPUs");
  gsp_matrix_free(&M), gsp_matrix_free(&S);

  gsp_test_context("cap per GPU");
  char err[256];
  cr_assert_eq(scale_close(A, GSP_MIN_PLUS, false, 4096, 2, &M, &r, err, sizeof err), GSP_DEVICE_OUT_OF_MEMORY);
  cr_assert(strstr(err, "cap") != NULL, "message: %s", err);
  gsp_matrix_free(&A);
}
