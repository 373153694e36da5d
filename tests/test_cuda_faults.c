/*
 * Device faults: every CUDA call of a GPU entry point is made to fail in
 * turn (a device out-of-memory, then a failed kernel launch, injected by
 * gsp__debug_device_fault_after), and each call must return
 * GSP_DEVICE_OUT_OF_MEMORY / GSP_DEVICE_ERROR with the CUDA error string in
 * gsp_last_error, leave its inputs and outputs as they were, and the very
 * next call without a fault must give the right answer (the library stays
 * usable). Also: a closure that cannot fit in the device memory left free
 * falls back to the CPU, and a download of a device-only result that fails
 * loses nothing.
 *
 * Skips without a usable GPU; CUDA is first touched inside a test.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "gsp_internal.h"
#include "gsp_test.h"
#include "gsp_test_tier.h"

#ifdef GSP_TEST_CUDA_RUNTIME
#include <cuda_runtime_api.h>
#endif

static void gpu_or_skip(void) {
  GSP_TEST_GPU_OR_SKIP();
}

static const gsp_fault kinds[] = {GSP_FAULT_DEVICE_OOM, GSP_FAULT_LAUNCH};
static const gsp_info kind_code[] = {GSP_DEVICE_OUT_OF_MEMORY, GSP_DEVICE_ERROR};
/* cudaGetErrorString of cudaErrorMemoryAllocation / LaunchOutOfResources */
static const char *const kind_text[] = {"out of memory", "too many resources requested for launch"};

/* One GPU call under test: runs on `in` (which it may modify, as the real
 * call does) and returns the code; `check` compares a successful result
 * with the reference. */
typedef struct {
  const char *name;
  gsp_info (*call)(gsp_matrix in, void **out);
  void (*check)(gsp_matrix in, void *out, gsp_matrix ref_in, void *ref_out);
  void (*release)(void **out);
} gpu_call;

/* The walk: fault k = 0, 1, 2 ... until a call completes without reaching
 * the armed fault. Each faulted call must fail cleanly; the call right
 * after it must succeed and match the reference. */
static void walk(const gpu_call *c, gsp_matrix A) {
  gsp_matrix ref_in = NULL;
  void *ref_out = NULL;
  GSP_OK(gsp_matrix_dup(&ref_in, A));
  GSP_OK(c->call(ref_in, &ref_out));
  for (size_t ki = 0; ki < 2; ki++) {
    long long k = 0;
    for (;; k++) {
      cr_assert(k < 10000, "%s: the walk does not end", c->name);
      gsp_matrix in = NULL;
      GSP_OK(gsp_matrix_dup(&in, A));
      void *out = NULL;
      gsp__debug_device_fault_after(k, kinds[ki]);
      gsp_info r = c->call(in, &out);
      const bool fired = gsp__debug_device_fault_disarm() < 0;
      if (!fired) { /* past the last CUDA call: the walk is complete */
        GSP_OK(r);
        c->check(in, out, ref_in, ref_out);
        c->release(&out);
        gsp_matrix_free(&in);
        break;
      }
      cr_assert_eq(r, kind_code[ki], "%s, fault %lld (%s): got %s: %s", c->name, k, kind_text[ki], gsp_strerror(r),
                   gsp_last_error());
      cr_assert(strstr(gsp_last_error(), kind_text[ki]) != NULL, "%s, fault %lld: message '%s'", c->name, k,
                gsp_last_error());
      cr_assert_null(out, "%s, fault %lld: an output was written", c->name, k);
      gsp_test_assert_matrix_same(in, A, 0); /* input untouched */
      /* usable at once: the same call on the same object now succeeds */
      GSP_OK(c->call(in, &out));
      c->check(in, out, ref_in, ref_out);
      c->release(&out);
      gsp_matrix_free(&in);
    }
    cr_log_info("%s: %lld CUDA calls faulted with %s", c->name, k, kind_text[ki]);
  }
  c->release(&ref_out);
  gsp_matrix_free(&ref_in);
}

static gsp_closure_opts cuda_closure = {.backend = GSP_BACKEND_CUDA};

static gsp_info call_closure(gsp_matrix in, void **out) {
  (void)out;
  return gsp_closure_ext(in, NULL, GSP_MIN_PLUS, &cuda_closure);
}
static gsp_info call_closure_paths(gsp_matrix in, void **out) {
  return gsp_closure_ext(in, (gsp_matrix *)out, GSP_MIN_PLUS, &cuda_closure);
}
static gsp_info call_closure_bool(gsp_matrix in, void **out) {
  (void)out;
  return gsp_closure_ext(in, NULL, GSP_OR_AND, &cuda_closure);
}
static void check_closure(gsp_matrix in, void *out, gsp_matrix ref_in, void *ref_out) {
  gsp_test_assert_matrix_same(in, ref_in, 0);
  if (ref_out) gsp_test_assert_matrix_same((gsp_matrix)out, (gsp_matrix)ref_out, 0);
}
static void release_matrix(void **out) {
  gsp_matrix_free((gsp_matrix *)out);
}

static gsp_info call_sssp(gsp_matrix in, void **out) {
  gsp_sssp_opts o = {.algo = GSP_SSSP_AUTO, .backend = GSP_BACKEND_CUDA};
  gsp_vector *v = NULL;
  gsp_info info = GSP_SUCCESS;
  v = calloc(2, sizeof *v);
  cr_assert_not_null(v);
  info = gsp_sssp(&v[0], &v[1], in, 0, &o);
  if (info == GSP_SUCCESS) {
    *out = v;
  } else {
    cr_assert(v[0] == NULL && v[1] == NULL, "gsp_sssp wrote an output on error");
    free(v);
  }
  return info;
}
static void check_sssp(gsp_matrix in, void *out, gsp_matrix ref_in, void *ref_out) {
  gsp_vector *a = out, *b = ref_out;
  gsp_test_assert_matrix_same(in, ref_in, 0);
  gsp_test_assert_vector_same(a[0], b[0], 0);
  gsp_test_assert_vector_same(a[1], b[1], 0);
}
static void release_sssp(void **out) {
  gsp_vector *v = *out;
  if (!v) return;
  gsp_vector_free(&v[0]);
  gsp_vector_free(&v[1]);
  free(v);
  *out = NULL;
}

static gsp_info call_msssp(gsp_matrix in, void **out) {
  gsp_msssp_opts o = {.backend = GSP_BACKEND_CUDA};
  const gsp_index src[] = {0, 3, 3, 77, 150};
  gsp_matrix *m = calloc(2, sizeof *m);
  cr_assert_not_null(m);
  gsp_info info = gsp_msssp(&m[0], &m[1], in, src, 5, &o);
  if (info == GSP_SUCCESS) {
    *out = m;
  } else {
    cr_assert(m[0] == NULL && m[1] == NULL, "gsp_msssp wrote an output on error");
    free(m);
  }
  return info;
}
static void check_msssp(gsp_matrix in, void *out, gsp_matrix ref_in, void *ref_out) {
  gsp_matrix *a = out, *b = ref_out;
  gsp_test_assert_matrix_same(in, ref_in, 0);
  gsp_test_assert_matrix_same(a[0], b[0], 0);
  gsp_test_assert_matrix_same(a[1], b[1], 0);
}
static void release_msssp(void **out) {
  gsp_matrix *m = *out;
  if (!m) return;
  gsp_matrix_free(&m[0]);
  gsp_matrix_free(&m[1]);
  free(m);
  *out = NULL;
}

static gsp_matrix random_graph(gsp_type t, gsp_index n, gsp_index m, int64_t wmin) {
  gsp_matrix A = NULL;
  GSP_OK(gsp_generate_random(&A, t, n, m, wmin, 100, 42));
  return A;
}

Test(cuda_faults, closure_every_type) {
  gpu_or_skip();
  const gsp_type types[] = {GSP_INT32, GSP_INT64, GSP_FP32, GSP_FP64};
  const gpu_call c = {"closure", call_closure, check_closure, release_matrix};
  for (size_t i = 0; i < 4; i++) {
    gsp_test_context("closure %s", gsp_test_type_name(types[i]));
    gsp_matrix A = random_graph(types[i], 200, 2000, 0);
    walk(&c, A);
    gsp_matrix_free(&A);
  }
}

Test(cuda_faults, closure_with_paths) {
  gpu_or_skip();
  /* strictly positive weights: the GPU records successors */
  gsp_matrix A = random_graph(GSP_FP32, 300, 3000, 1);
  const gpu_call c = {"closure+paths", call_closure_paths, check_closure, release_matrix};
  walk(&c, A);
  gsp_matrix_free(&A);
}

Test(cuda_faults, closure_bool) {
  gpu_or_skip();
  gsp_matrix A = random_graph(GSP_BOOL, GSP_TIER(1000, 5000), GSP_TIER(1200, 6000), 1);
  const gpu_call c = {"closure or-and", call_closure_bool, check_closure, release_matrix};
  walk(&c, A);
  gsp_matrix_free(&A);
}

Test(cuda_faults, sssp_and_msssp) {
  gpu_or_skip();
  gsp_matrix A = random_graph(GSP_INT32, GSP_TIER(400, 2000), GSP_TIER(3200, 16000), 0);
  const gpu_call s = {"sssp", call_sssp, check_sssp, release_sssp};
  walk(&s, A);
  const gpu_call m = {"msssp", call_msssp, check_msssp, release_msssp};
  walk(&m, A);
  gsp_matrix_free(&A);
}

/* The closure's result stays on the device; a failed download must keep it
 * there intact, and the next read must see it. */
Test(cuda_faults, failed_download_loses_nothing) {
  gpu_or_skip();
  gsp_matrix A = random_graph(GSP_FP64, 500, 5000, 0), ref = NULL;
  GSP_OK(gsp_matrix_dup(&ref, A));
  gsp_closure_opts cpu = {.backend = GSP_BACKEND_CPU};
  GSP_OK(gsp_closure_ext(ref, NULL, GSP_MIN_PLUS, &cpu));
  GSP_OK(gsp_closure_ext(A, NULL, GSP_MIN_PLUS, &cuda_closure));
  for (size_t ki = 0; ki < 2; ki++) {
    gsp__debug_device_fault_after(0, kinds[ki]);
    double x = -1;
    gsp_info r = gsp_matrix_extract_element(&x, A, 1, 2);
    cr_assert_eq(gsp__debug_device_fault_disarm(), -1, "the download made no CUDA call");
    cr_assert_eq(r, kind_code[ki], "download fault: got %s: %s", gsp_strerror(r), gsp_last_error());
    cr_assert_eq(x, -1, "the output was written");
  }
  gsp_test_assert_matrix_same(A, ref, 0); /* downloads now, intact */
  gsp_matrix_free(&A);
  gsp_matrix_free(&ref);
}

/* More than the device has free: under AUTO the closure runs on a path that
 * fits (the CPU, or out of core) and gives the right answer, never a crash;
 * an explicit CUDA request fails with GSP_DEVICE_OUT_OF_MEMORY and leaves
 * the matrix as it was (it never runs on the CPU in silence). The free
 * memory is taken by the test itself through the CUDA runtime, which is why
 * ctest runs this suite alone (RUN_SERIAL): other suites would find the
 * device full. */
Test(cuda_faults, closure_larger_than_free_memory) {
  gpu_or_skip();
#ifndef GSP_TEST_CUDA_RUNTIME
  cr_skip_test("built without the CUDA runtime");
#else
  gsp_matrix A = random_graph(GSP_FP32, 3000, 30000, 0), ref = NULL;
  GSP_OK(gsp_matrix_dup(&ref, A));
  gsp_closure_opts cpu = {.backend = GSP_BACKEND_CPU};
  GSP_OK(gsp_closure_ext(ref, NULL, GSP_MIN_PLUS, &cpu));
  size_t free_b = 0, total_b = 0;
  cr_assert_eq(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
  /* leave 16 MiB: a 3000 x 3000 fp32 closure needs ~38 MB */
  void *hog = NULL;
  size_t take = free_b - ((size_t)16 << 20);
  while (cudaMalloc(&hog, take) != cudaSuccess) {
    (void)cudaGetLastError();
    take -= (size_t)64 << 20;
  }
  gsp_matrix before = NULL, kept = NULL;
  GSP_OK(gsp_matrix_dup(&before, A));
  const gsp_info ic = gsp_closure_ext(A, NULL, GSP_MIN_PLUS, &cuda_closure);
  char msg[512];
  snprintf(msg, sizeof msg, "%s", gsp_last_error());
  GSP_OK(gsp_matrix_dup(&kept, A)); /* A after the refused call */
  const gsp_closure_opts autob = {.backend = GSP_BACKEND_AUTO};
  const gsp_info ia = gsp_closure_ext(A, NULL, GSP_MIN_PLUS, &autob);
  cudaFree(hog);
  cr_assert_eq(ic, GSP_DEVICE_OUT_OF_MEMORY, "explicit CUDA on a full device -> %s (%s)", gsp_strerror(ic), msg);
  cr_assert(strstr(msg, "CUDA backend requested") != NULL, "%s", msg);
  gsp_test_assert_matrix_same(kept, before, 0);
  cr_assert_eq(ia, GSP_SUCCESS, "AUTO on a full device -> %s", gsp_strerror(ia));
  gsp_test_assert_matrix_same(A, ref, 0);
  gsp_matrix_free(&before), gsp_matrix_free(&kept);
  gsp_matrix_free(&A);
  gsp_matrix_free(&ref);
#endif
}
