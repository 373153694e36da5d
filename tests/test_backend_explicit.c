/*
 * An explicit GSP_BACKEND_CUDA runs on the GPU or fails with an error; it
 * never runs on the CPU in silence. Every operation with a backend choice
 * (closure, sssp, nearest_source, msssp, bellman_ford, negative_cycle,
 * apsp, mxm, mxv, vxm), asked for CUDA through its options and through the
 * process default (gsp_set_backend), gives GSP_NO_DEVICE with a message and
 * untouched outputs where no GPU is usable (a CPU-only build, or a machine
 * without a GPU), and succeeds on the GPU where one is. The refusals for
 * lack of device memory (GSP_DEVICE_OUT_OF_MEMORY) are held by
 * test_cuda_faults, which fills the device itself.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "gsp.h"

static gsp_matrix A, C;
static gsp_vector u, w;
static bool gpu;

static void setup(void) {
  const gsp_index I[] = {0, 1, 2, 3}, J[] = {1, 2, 3, 0};
  const double X[] = {1, 2, 3, 4};
  cr_assert_eq(gsp_matrix_new(&A, GSP_FP64, 4, 4), GSP_SUCCESS);
  cr_assert_eq(gsp_matrix_build(A, I, J, X, 4, GSP_DUP_ERROR), GSP_SUCCESS);
  cr_assert_eq(gsp_matrix_new(&C, GSP_FP64, 4, 4), GSP_SUCCESS);
  cr_assert_eq(gsp_vector_new(&u, GSP_FP64, 4), GSP_SUCCESS);
  cr_assert_eq(gsp_vector_new(&w, GSP_FP64, 4), GSP_SUCCESS);
  const double one = 1;
  cr_assert_eq(gsp_vector_set_element(u, 0, &one), GSP_SUCCESS);
  cr_assert_eq(gsp_cuda_available(&gpu, NULL, 0), GSP_SUCCESS);
}

static void teardown(void) {
  gsp_set_backend(GSP_BACKEND_AUTO);
  gsp_matrix_free(&A), gsp_matrix_free(&C);
  gsp_vector_free(&u), gsp_vector_free(&w);
}

TestSuite(backend_explicit, .init = setup, .fini = teardown);

/* The call must run on the GPU (success) or refuse with GSP_NO_DEVICE. */
#define ON_CUDA(call)                                                                                              \
  do {                                                                                                             \
    const gsp_info r_ = (call);                                                                                    \
    if (gpu) cr_expect_eq(r_, GSP_SUCCESS, "%s on the GPU -> %s (%s)", #call, gsp_strerror(r_), gsp_last_error()); \
    else {                                                                                                         \
      cr_expect_eq(r_, GSP_NO_DEVICE, "%s without a GPU -> %s (%s)", #call, gsp_strerror(r_), gsp_last_error());   \
      cr_expect(strstr(gsp_last_error(), "CUDA") != NULL, "%s: message %s", #call, gsp_last_error());              \
    }                                                                                                              \
  } while (0)

/* Every operation once, with `b` in its options. */
static void every_operation(gsp_backend b) {
  gsp_matrix D = NULL, P = NULL, M = NULL, S = NULL;
  gsp_vector d = NULL, p = NULL, r = NULL;
  cr_assert_eq(gsp_matrix_dup(&M, A), GSP_SUCCESS);
  const gsp_index src[] = {0, 2};
  const gsp_closure_opts co = {.backend = b};
  ON_CUDA(gsp_closure_ext(M, &S, GSP_MIN_PLUS, &co));
  const gsp_sssp_opts so = {.backend = b};
  ON_CUDA(gsp_sssp(&d, &p, A, 0, &so));
  gsp_vector_free(&d), gsp_vector_free(&p);
  ON_CUDA(gsp_nearest_source(&d, &r, &p, A, src, 2, &so));
  gsp_vector_free(&d), gsp_vector_free(&p), gsp_vector_free(&r);
  const gsp_msssp_opts mo = {.backend = b};
  ON_CUDA(gsp_msssp(&D, &P, A, src, 2, &mo));
  gsp_matrix_free(&D), gsp_matrix_free(&P);
  const gsp_bf_opts bo = {.backend = b};
  ON_CUDA(gsp_bellman_ford(&d, &p, A, 0, &bo));
  gsp_vector_free(&d), gsp_vector_free(&p);
  gsp_index cyc[4], len = 4;
  const gsp_info nc = gsp_negative_cycle(cyc, &len, A, &bo); /* no cycle: GSP_NO_VALUE on the GPU */
  cr_expect_eq(nc, gpu ? GSP_NO_VALUE : GSP_NO_DEVICE, "negative_cycle -> %s", gsp_strerror(nc));
  for (int algo = GSP_APSP_FLOYD_WARSHALL; algo <= GSP_APSP_JOHNSON; algo++) {
    const gsp_apsp_opts ao = {.backend = b, .algo = (gsp_apsp_algo)algo};
    ON_CUDA(gsp_apsp(&D, &P, A, &ao));
    gsp_matrix_free(&D), gsp_matrix_free(&P);
  }
  const gsp_desc dc = {.backend = b};
  ON_CUDA(gsp_mxm(C, NULL, GSP_NOOP, GSP_PLUS_TIMES, A, A, &dc));
  ON_CUDA(gsp_mxv(w, NULL, GSP_NOOP, GSP_MIN_PLUS, A, u, &dc));
  ON_CUDA(gsp_vxm(w, NULL, GSP_NOOP, GSP_MIN_PLUS, u, A, &dc));
  if (!gpu) cr_expect(D == NULL && P == NULL && S == NULL && d == NULL && p == NULL, "an output was written");
  gsp_matrix_free(&M), gsp_matrix_free(&S), gsp_matrix_free(&D), gsp_matrix_free(&P);
  gsp_vector_free(&d), gsp_vector_free(&p);
}

Test(backend_explicit, cuda_in_the_options) {
  every_operation(GSP_BACKEND_CUDA);
}

Test(backend_explicit, cuda_as_the_process_default) {
  cr_assert_eq(gsp_set_backend(GSP_BACKEND_CUDA), GSP_SUCCESS);
  every_operation(GSP_BACKEND_AUTO);
}

/* The CPU and AUTO still run anywhere. */
Test(backend_explicit, cpu_and_auto_run) {
  for (int b = GSP_BACKEND_AUTO; b <= GSP_BACKEND_CPU; b++) {
    gsp_vector d = NULL;
    const gsp_sssp_opts so = {.backend = (gsp_backend)b};
    cr_expect_eq(gsp_sssp(&d, NULL, A, 0, &so), GSP_SUCCESS, "%s", gsp_last_error());
    gsp_vector_free(&d);
  }
}

/* Calls the GPU declines (no kernel for them): an explicit CUDA request
 * fails with the reason (GSP_DOMAIN_MISMATCH) and leaves the outputs as
 * they were; AUTO runs them on the CPU. Without a GPU: GSP_NO_DEVICE. */
Test(backend_explicit, declined_calls_fail_under_cuda) {
  const gsp_info want = gpu ? GSP_DOMAIN_MISMATCH : GSP_NO_DEVICE;
  for (int b = GSP_BACKEND_AUTO; b <= GSP_BACKEND_CUDA; b++) {
    const bool cuda = b == GSP_BACKEND_CUDA;
    /* sparse x sparse MIN_PLUS: cuSPARSE has PLUS_TIMES only */
    const gsp_desc dc = {.backend = (gsp_backend)b};
    const gsp_info r1 = gsp_mxm(C, NULL, GSP_NOOP, GSP_MIN_PLUS, A, A, &dc);
    cr_expect_eq(r1, cuda ? want : GSP_SUCCESS, "mxm MIN_PLUS, backend %d -> %s (%s)", b, gsp_strerror(r1),
                 gsp_last_error());
    if (cuda) cr_expect(strstr(gsp_last_error(), "CUDA backend requested") != NULL, "%s", gsp_last_error());
    /* successors of MAX_MIN: the GPU records them for MIN_PLUS and MAX_PLUS only */
    gsp_matrix M = NULL, S = NULL;
    cr_assert_eq(gsp_matrix_dup(&M, A), GSP_SUCCESS);
    const gsp_closure_opts co = {.backend = (gsp_backend)b};
    const gsp_info r2 = gsp_closure_ext(M, &S, GSP_MAX_MIN, &co);
    cr_expect_eq(r2, cuda ? want : GSP_SUCCESS, "closure MAX_MIN + successors, backend %d -> %s (%s)", b,
                 gsp_strerror(r2), gsp_last_error());
    gsp_index nv = 0;
    cr_expect_eq(gsp_matrix_nvals(&nv, M), GSP_SUCCESS);
    if (cuda) cr_expect(S == NULL && nv == 4, "a refused closure changed its operands");
    gsp_matrix_free(&M), gsp_matrix_free(&S);
  }
}
