/*
 * gsp_matrix_device_view: the dense device copy of a matrix, handed out for
 * DLPack consumers.
 *
 * The argument checks run everywhere; without a usable GPU the call must
 * give GSP_NO_DEVICE. The GPU cases (skipped with the reason elsewhere)
 * close a matrix on the GPU, take the view, copy it back with the CUDA
 * runtime of the test itself (a runtime of its own, sharing the device's
 * primary context with the plugin's) and compare it with
 * gsp_matrix_export_dense; also a re-encoded copy, an upload of a host
 * matrix, its reuse by a later GPU closure, and the empty matrix.
 *
 * CUDA is first touched inside a test (Criterion forks for each).
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gsp_internal.h"
#include "gsp_test.h"

#ifdef GSP_TEST_CUDA_RUNTIME
#include <cuda_runtime_api.h>
#endif

/* Sentinels: an error must leave every output as it was. */
#define DATA0 ((void *)0x5a5a)
#define LD0   ((gsp_index)777)
#define DEV0  (-42)

#define EXPECT_FAIL(code, call)                                                                         \
  do {                                                                                                  \
    data = DATA0;                                                                                       \
    ld = LD0;                                                                                           \
    dev = DEV0;                                                                                         \
    gsp_info r_ = (call);                                                                               \
    cr_expect_eq(r_, (code), "%s -> %s, expected %s (%s)", #call, gsp_strerror(r_), gsp_strerror(code), \
                 gsp_last_error());                                                                     \
    cr_expect(strstr(gsp_last_error(), "gsp_matrix_device_view") != NULL, "%s: message '%s'", #call,    \
              gsp_last_error());                                                                        \
    cr_expect(data == DATA0 && ld == LD0 && dev == DEV0, "%s: an output was written", #call);           \
  } while (0)

static gsp_matrix small(gsp_type t, gsp_index nrows, gsp_index ncols) {
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, t, nrows, ncols));
  const gsp_index I[] = {0, 1}, J[] = {1, 0};
  char X[2 * 8];
  gsp_test_value_set(t, X, 3);
  gsp_test_value_set(t, X + gsp_type_size(t), 4);
  GSP_OK(gsp_matrix_build(A, I, J, X, 2, GSP_DUP_ERROR));
  return A;
}

Test(device_view_args, null_outputs_and_handles) {
  void *data;
  gsp_index ld;
  int dev;
  gsp_matrix A = small(GSP_FP64, 3, 3);
  EXPECT_FAIL(GSP_NULL_POINTER, gsp_matrix_device_view(NULL, &ld, &dev, A, GSP_MIN_PLUS));
  EXPECT_FAIL(GSP_NULL_POINTER, gsp_matrix_device_view(&data, NULL, &dev, A, GSP_MIN_PLUS));
  EXPECT_FAIL(GSP_NULL_POINTER, gsp_matrix_device_view(&data, &ld, NULL, A, GSP_MIN_PLUS));
  EXPECT_FAIL(GSP_NULL_POINTER, gsp_matrix_device_view(&data, &ld, &dev, NULL, GSP_MIN_PLUS));
  gsp_matrix stale = A;
  GSP_OK(gsp_matrix_free(&A));
  EXPECT_FAIL(GSP_INVALID_OBJECT, gsp_matrix_device_view(&data, &ld, &dev, stale, GSP_MIN_PLUS));
}

Test(device_view_args, types_semirings_shapes) {
  void *data;
  gsp_index ld;
  int dev;
  gsp_matrix B = small(GSP_BOOL, 3, 3), A = small(GSP_INT32, 3, 3), R = small(GSP_FP32, 2, 3);
  /* bool is bit-packed on the device: no dense view */
  EXPECT_FAIL(GSP_DOMAIN_MISMATCH, gsp_matrix_device_view(&data, &ld, &dev, B, GSP_MIN_PLUS));
  EXPECT_FAIL(GSP_DOMAIN_MISMATCH, gsp_matrix_device_view(&data, &ld, &dev, B, GSP_OR_AND));
  cr_expect(strstr(gsp_last_error(), "bit-packed") != NULL, "message '%s'", gsp_last_error());
  EXPECT_FAIL(GSP_DOMAIN_MISMATCH, gsp_matrix_device_view(&data, &ld, &dev, A, GSP_OR_AND));
  EXPECT_FAIL(GSP_DOMAIN_MISMATCH, gsp_matrix_device_view(&data, &ld, &dev, A, GSP_PLUS_TIMES));
  EXPECT_FAIL(GSP_INVALID_VALUE, gsp_matrix_device_view(&data, &ld, &dev, A, (gsp_semiring)99));
  EXPECT_FAIL(GSP_INVALID_VALUE, gsp_matrix_device_view(&data, &ld, &dev, A, (gsp_semiring)-1));
  EXPECT_FAIL(GSP_DIMENSION_MISMATCH, gsp_matrix_device_view(&data, &ld, &dev, R, GSP_MIN_PLUS));
  /* the matrices are unchanged */
  gsp_index nv = 0;
  GSP_OK(gsp_matrix_nvals(&nv, A));
  cr_expect_eq(nv, 2);
  gsp_matrix_free(&A), gsp_matrix_free(&B), gsp_matrix_free(&R);
}

/* Without a usable GPU (or without the CUDA backend) the view is refused
 * with GSP_NO_DEVICE, the reason in the message, and nothing written. */
Test(device_view_args, no_device) {
  bool ok = false;
  char desc[256] = "";
  GSP_OK(gsp_cuda_available(&ok, desc, sizeof desc));
  if (ok) cr_skip_test("a usable GPU is present (%s): the no-device path is not reachable", desc);
  void *data;
  gsp_index ld;
  int dev;
  const gsp_type types[] = {GSP_INT32, GSP_INT64, GSP_FP32, GSP_FP64};
  for (size_t k = 0; k < 4; k++) {
    gsp_matrix A = small(types[k], 3, 3);
    EXPECT_FAIL(GSP_NO_DEVICE, gsp_matrix_device_view(&data, &ld, &dev, A, GSP_MIN_PLUS));
    gsp_index nv = 0;
    GSP_OK(gsp_matrix_nvals(&nv, A));
    cr_expect_eq(nv, 2);
    gsp_matrix_free(&A);
  }
  /* the empty matrix as well: there is no device to name */
  gsp_matrix E = NULL;
  GSP_OK(gsp_matrix_new(&E, GSP_FP64, 0, 0));
  EXPECT_FAIL(GSP_NO_DEVICE, gsp_matrix_device_view(&data, &ld, &dev, E, GSP_MIN_PLUS));
  gsp_matrix_free(&E);
}

/* ---- on the GPU ---- */

#ifdef GSP_TEST_CUDA_RUNTIME

static void gpu_or_skip(void) {
  GSP_TEST_GPU_OR_SKIP();
}

/* The zero of s in type t ("no path"). */
static void zero_of(void *out, gsp_semiring s, gsp_type t) {
  const bool low = s == GSP_MAX_PLUS || s == GSP_MAX_MIN;
  switch (t) {
  case GSP_INT32:
    *(int32_t *)out = low ? INT32_MIN : INT32_MAX;
    break;
  case GSP_INT64:
    *(int64_t *)out = low ? INT64_MIN : INT64_MAX;
    break;
  case GSP_FP32:
    *(float *)out = low ? -INFINITY : INFINITY;
    break;
  default:
    *(double *)out = low ? -INFINITY : INFINITY;
    break;
  }
}

/* A random n x n graph of type t with weights in [lo, hi] (no negative
 * cycle for MIN_PLUS when lo >= 0) and about 4 arcs a vertex, plus a
 * vertex no arc reaches, so some pairs have no path. */
static gsp_matrix graph(gsp_type t, gsp_index n, int64_t lo, int64_t hi, uint64_t seed) {
  uint64_t st = seed * 0x9E3779B97F4A7C15ULL + 1;
  gsp_index m = 4 * n, k = 0;
  gsp_index *I = malloc(m * sizeof *I), *J = malloc(m * sizeof *J);
  char *X = malloc(m * 8);
  for (gsp_index e = 0; e < m; e++) {
    gsp_index i = gsp_test_rand(&st) % n, j = gsp_test_rand(&st) % (n - 1); /* nothing enters n-1 */
    I[k] = i;
    J[k] = j;
    gsp_test_value_set(t, X + k * gsp_type_size(t), lo + (int64_t)(gsp_test_rand(&st) % (uint64_t)(hi - lo + 1)));
    k++;
  }
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, t, n, n));
  GSP_OK(gsp_matrix_build(A, I, J, X, k, GSP_DUP_MIN));
  free(I), free(J), free(X);
  return A;
}

/* Copy the view back through the test's own runtime and compare it with
 * gsp_matrix_export_dense (absent = the zero of s), bit for bit. The
 * copy is made before the export: the export may release the view. */
static void check_view(gsp_matrix A, gsp_semiring s, const char *what) {
  gsp_type t;
  gsp_index n = 0;
  GSP_OK(gsp_matrix_type(&t, A));
  GSP_OK(gsp_matrix_nrows(&n, A));
  const size_t ts = gsp_type_size(t);
  void *data = NULL;
  gsp_index ld = 0;
  int dev = -1;
  GSP_OK(gsp_matrix_device_view(&data, &ld, &dev, A, s));
  cr_assert_not_null(data, "%s: no device pointer", what);
  cr_assert(ld >= n, "%s: ld %llu < n %llu", what, (unsigned long long)ld, (unsigned long long)n);
  int count = 0;
  cr_assert_eq(cudaGetDeviceCount(&count), cudaSuccess);
  cr_assert(dev >= 0 && dev < count, "%s: device %d of %d", what, dev, count);
  struct cudaPointerAttributes pa;
  cr_assert_eq(cudaPointerGetAttributes(&pa, data), cudaSuccess);
  cr_assert_eq(pa.type, cudaMemoryTypeDevice, "%s: not device memory", what);
  cr_assert_eq(pa.device, dev, "%s: the pointer lives on device %d, the view says %d", what, pa.device, dev);
  /* a second view gives the same copy */
  void *again = NULL;
  gsp_index ld2 = 0;
  int dev2 = -1;
  GSP_OK(gsp_matrix_device_view(&again, &ld2, &dev2, A, s));
  cr_assert(again == data && ld2 == ld && dev2 == dev, "%s: a second view differs", what);

  char *got = malloc(n * n * ts), *want = malloc(n * n * ts);
  cr_assert_eq(cudaMemcpy2D(got, n * ts, data, ld * ts, n * ts, n, cudaMemcpyDeviceToHost), cudaSuccess);
  char zero[8];
  zero_of(zero, s, t);
  GSP_OK(gsp_matrix_export_dense(want, zero, A));
  for (gsp_index k = 0; k < n * n; k++)
    cr_assert(memcmp(got + k * ts, want + k * ts, ts) == 0, "%s: entry (%llu, %llu): device %g, export %g", what,
              (unsigned long long)(k / n), (unsigned long long)(k % n), gsp_test_value_f64(t, got + k * ts),
              gsp_test_value_f64(t, want + k * ts));
  free(got), free(want);
}

static const gsp_type num_types[] = {GSP_INT32, GSP_INT64, GSP_FP32, GSP_FP64};
static const gsp_semiring path_srs[] = {GSP_MIN_PLUS, GSP_MAX_MIN, GSP_MIN_MAX};

/* A GPU closure's result is viewed where it lies: no download (the host
 * copy stays stale) and the values of the closure. Sizes around the
 * 128-tile padding. */
Test(device_view_gpu, closure_result_in_place) {
  gpu_or_skip();
  const gsp_closure_opts cuda = {.backend = GSP_BACKEND_CUDA};
  const gsp_index sizes[] = {1, 5, 127, 128, 129, 300};
  for (size_t a = 0; a < 4; a++)
    for (size_t b = 0; b < 3; b++)
      for (size_t c = 0; c < sizeof sizes / sizeof *sizes; c++) {
        const gsp_type t = num_types[a];
        const gsp_semiring s = path_srs[b];
        gsp_matrix A = graph(t, sizes[c] < 2 ? 2 : sizes[c], s == GSP_MIN_PLUS ? 0 : -9, 9, 17 + c);
        GSP_OK(gsp_closure_ext(A, NULL, s, &cuda));
        cr_assert(A->dev_only, "the GPU closure left no device-only result");
        void *data = NULL;
        gsp_index ld = 0;
        int dev = -1;
        GSP_OK(gsp_matrix_device_view(&data, &ld, &dev, A, s));
        cr_assert(A->dev_only, "%s %s n=%llu: the view downloaded the result", gsp_test_type_name(t),
                  gsp_test_semiring_name(s), (unsigned long long)sizes[c]);
        char what[96];
        snprintf(what, sizeof what, "%s %s n=%llu", gsp_test_type_name(t), gsp_test_semiring_name(s),
                 (unsigned long long)sizes[c]);
        check_view(A, s, what);
        gsp_matrix_free(&A);
      }
}

/* The closure equals the CPU closure through the view as well (the view
 * is the GPU result itself, compared with an independent computation). */
Test(device_view_gpu, matches_cpu_closure) {
  gpu_or_skip();
  const gsp_closure_opts cuda = {.backend = GSP_BACKEND_CUDA}, cpu = {.backend = GSP_BACKEND_CPU};
  for (size_t a = 0; a < 4; a++) {
    const gsp_type t = num_types[a];
    const gsp_index n = 200;
    gsp_matrix A = graph(t, n, 1, 20, 99), C = NULL;
    GSP_OK(gsp_matrix_dup(&C, A));
    GSP_OK(gsp_closure_ext(A, NULL, GSP_MIN_PLUS, &cuda));
    GSP_OK(gsp_closure_ext(C, NULL, GSP_MIN_PLUS, &cpu));
    void *data = NULL;
    gsp_index ld = 0;
    int dev = -1;
    GSP_OK(gsp_matrix_device_view(&data, &ld, &dev, A, GSP_MIN_PLUS));
    const size_t ts = gsp_type_size(t);
    char *got = malloc(n * n * ts), *want = malloc(n * n * ts), zero[8];
    cr_assert_eq(cudaMemcpy2D(got, n * ts, data, ld * ts, n * ts, n, cudaMemcpyDeviceToHost), cudaSuccess);
    zero_of(zero, GSP_MIN_PLUS, t);
    GSP_OK(gsp_matrix_export_dense(want, zero, C));
    cr_assert(memcmp(got, want, n * n * ts) == 0, "%s: the device view differs from the CPU closure",
              gsp_test_type_name(t));
    /* the unreachable vertex n-1: +inf / INT_MAX in its column */
    cr_assert(memcmp(got + (n - 1) * ts, zero, ts) == 0, "%s: (0, n-1) is not the absent value", gsp_test_type_name(t));
    free(got), free(want);
    gsp_matrix_free(&A), gsp_matrix_free(&C);
  }
}

/* A view with the other zero re-encodes: MIN_PLUS's result as MAX_PLUS's
 * (-inf / INT_MIN for "no path"), content unchanged. */
Test(device_view_gpu, reencoded) {
  gpu_or_skip();
  const gsp_closure_opts cuda = {.backend = GSP_BACKEND_CUDA};
  for (size_t a = 0; a < 4; a++) {
    gsp_matrix A = graph(num_types[a], 150, 0, 9, 5), R = NULL;
    GSP_OK(gsp_closure_ext(A, NULL, GSP_MIN_PLUS, &cuda));
    check_view(A, GSP_MIN_PLUS, "MIN_PLUS");
    GSP_OK(gsp_matrix_dup(&R, A));
    check_view(A, GSP_MAX_PLUS, "MIN_PLUS result viewed as MAX_PLUS");
    gsp_test_assert_matrix_same(A, R, 0);
    check_view(A, GSP_MIN_MAX, "and back");
    gsp_test_assert_matrix_same(A, R, 0);
    gsp_matrix_free(&A), gsp_matrix_free(&R);
  }
}

/* A host matrix is uploaded; A keeps the copy (the host copy stays valid)
 * and a later GPU closure reuses it, giving the CPU's result. */
Test(device_view_gpu, upload_and_reuse) {
  gpu_or_skip();
  for (size_t a = 0; a < 4; a++) {
    const gsp_type t = num_types[a];
    gsp_matrix A = graph(t, 257, 0, 9, 3), C = NULL;
    GSP_OK(gsp_matrix_dup(&C, A));
    check_view(A, GSP_MIN_PLUS, "uploaded");
    cr_assert(!A->dev_only && A->dev != NULL, "the upload was not kept as a mirror");
    void *data = NULL;
    gsp_index ld = 0;
    int dev = -1;
    GSP_OK(gsp_matrix_device_view(&data, &ld, &dev, A, GSP_MIN_PLUS));
    const gsp_closure_opts cuda = {.backend = GSP_BACKEND_CUDA}, cpu = {.backend = GSP_BACKEND_CPU};
    GSP_OK(gsp_closure_ext(A, NULL, GSP_MIN_PLUS, &cuda));
    GSP_OK(gsp_closure_ext(C, NULL, GSP_MIN_PLUS, &cpu));
    void *after = NULL;
    GSP_OK(gsp_matrix_device_view(&after, &ld, &dev, A, GSP_MIN_PLUS));
    cr_assert(after == data, "%s: the closure did not close the uploaded copy in place", gsp_test_type_name(t));
    gsp_test_assert_matrix_same(A, C, 0);
    gsp_matrix_free(&A), gsp_matrix_free(&C);
  }
}

/* The empty matrix: no memory, the current device. */
Test(device_view_gpu, empty) {
  gpu_or_skip();
  gsp_matrix E = NULL;
  GSP_OK(gsp_matrix_new(&E, GSP_FP32, 0, 0));
  void *data = DATA0;
  gsp_index ld = LD0;
  int dev = DEV0, cur = -1;
  GSP_OK(gsp_matrix_device_view(&data, &ld, &dev, E, GSP_MIN_PLUS));
  cr_assert_eq(cudaGetDevice(&cur), cudaSuccess);
  cr_assert(data == NULL && ld == 0 && dev == cur, "empty: data %p, ld %llu, device %d", data, (unsigned long long)ld,
            dev);
  gsp_matrix_free(&E);
}

#else

Test(device_view_gpu, built_without_cuda) {
  cr_skip_test("this build has no CUDA backend: the GPU cases of gsp_matrix_device_view do not apply");
}

#endif
