/*
 * Where a closure runs (src/ops/closure/closure_branch.c), decided on the
 * CPU from the device's answers: one GPU resident, out of core within the
 * cap or the free memory, several GPUs (automatic from n = 32768, or asked
 * for), the CPU with a reason where the GPU cannot take it; the test knobs
 * of gsp__closure_run; the semiring facts every part reads
 * (src/semiring/gsp_semiring.h); and the burble, which prints one line per
 * decision to stderr when switched on.
 */
#define GSP_ADVANCED_API         /* gsp.h's advanced part */
#define _POSIX_C_SOURCE  200809L /* fileno, dup */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "closure_branch.h"
#include "gsp_semiring.h"
#include "gsp_test.h"

#define GIB ((size_t)1 << 30)

/* The block of the largest GPU over g (square grid of 128-tiles): 0 when n
 * has fewer tiles than GPUs in a row. */
static size_t fake_mgpu_bytes(gsp_type t, int64_t n, int g) {
  const int64_t tiles = (n + 127) / 128;
  if (tiles < g) return 0;
  const size_t side = (size_t)((tiles + g - 1) / g) * 128;
  return side * (size_t)((n + 127) / 128 * 128) * gsp_type_size(t);
}

/* A device of `usable` GPUs with `free_gib` GiB free, for an n-vertex FP32
 * closure (needs n^2 * 4 bytes and some workspace). */
static gsp__closure_device device(int usable, size_t free_bytes, int64_t n) {
  gsp__closure_device d;
  memset(&d, 0, sizeof d);
  d.usable = usable;
  d.mgpu_built = true;
  d.memory_known = true;
  d.free_bytes = free_bytes;
  d.np = (n + 127) / 128 * 128;
  d.need_bytes = (size_t)d.np * (size_t)d.np * 4 + ((size_t)1 << 20);
  d.mgpu_bytes = fake_mgpu_bytes;
  return d;
}

static gsp__closure_plan pick_ok(const gsp__closure_device *d, int64_t n, bool paths, long want, size_t cap,
                                 const gsp__closure_knobs *k) {
  gsp__closure_plan p;
  gsp__device_decline_clear();
  const gsp_info info = gsp__closure_plan_pick(&p, d, GSP_FP32, n, paths, want, cap, k, "test");
  cr_assert_eq(info, GSP_SUCCESS, "%s", gsp_last_error());
  return p;
}

Test(closure_branch, resident_when_it_fits) {
  const gsp__closure_device d = device(1, 80 * GIB, 10000);
  const gsp__closure_plan p = pick_ok(&d, 10000, true, 0, 0, NULL);
  cr_assert_eq(p.mode, GSP_SCALE_IN_CORE);
  cr_assert_eq(p.gpus, 1);
}

Test(closure_branch, several_gpus_from_the_threshold_or_when_asked) {
  const int64_t big = GSP_CLOSURE_MGPU_AUTO_N;
  gsp__closure_device d = device(4, 80 * GIB, big);
  gsp__closure_plan p = pick_ok(&d, big, false, 0, 0, NULL);
  cr_assert_eq(p.mode, GSP_SCALE_MGPU);
  cr_assert_eq(p.gpus, 4);
  /* below the threshold: one GPU; the knob lowers the threshold */
  d = device(4, 80 * GIB, 2000);
  cr_assert_eq(pick_ok(&d, 2000, false, 0, 0, NULL).mode, GSP_SCALE_IN_CORE);
  const gsp__closure_knobs k = {.mgpu_auto_n = 1024};
  p = pick_ok(&d, 2000, false, 0, 0, &k);
  cr_assert_eq(p.mode, GSP_SCALE_MGPU);
  cr_assert_eq(p.gpus, 4);
  /* asked for: that many, even below the threshold */
  p = pick_ok(&d, 2000, false, 2, 0, NULL);
  cr_assert_eq(p.mode, GSP_SCALE_MGPU);
  cr_assert_eq(p.gpus, 2);
  /* successors are closed on one GPU */
  cr_assert_eq(pick_ok(&d, 2000, true, 2, 0, NULL).mode, GSP_SCALE_IN_CORE);
  /* a build without the multi-GPU path: automatic stays on one */
  d.mgpu_built = false;
  cr_assert_eq(pick_ok(&d, 2000, false, 0, 0, &k).mode, GSP_SCALE_IN_CORE);
}

Test(closure_branch, more_gpus_than_usable_fail) {
  const gsp__closure_device d = device(2, 80 * GIB, 2000);
  gsp__closure_plan p;
  cr_assert_eq(gsp__closure_plan_pick(&p, &d, GSP_FP32, 2000, false, 3, 0, NULL, "test"), GSP_NO_DEVICE);
  cr_assert(strstr(gsp_last_error(), "3 GPUs asked for, 2 usable"), "%s", gsp_last_error());
}

Test(closure_branch, out_of_core_within_the_cap_and_the_knobs) {
  const int64_t n = 4000;
  const gsp__closure_device d = device(1, 80 * GIB, n);
  const size_t cap = d.need_bytes / 3;
  gsp__closure_plan p = pick_ok(&d, n, false, 0, cap, NULL);
  cr_assert_eq(p.mode, GSP_SCALE_OOC);
  cr_assert_eq(p.budget, cap, "a cap is the budget, with no margin");
  cr_assert_leq(p.page.bytes, cap);
  cr_assert_geq(p.page.pages, 3);
  const gsp__closure_knobs k = {.ooc_page_rows = 256, .ooc_slots = 3};
  p = pick_ok(&d, n, false, 0, cap, &k);
  cr_assert_eq(p.mode, GSP_SCALE_OOC);
  cr_assert_eq(p.page.page_rows, 256);
  cr_assert_eq(p.page.slots, 3);
  /* without a cap the free memory is the limit, less a margin */
  const int64_t big = 16000; /* half its matrix is well above the margin */
  const gsp__closure_device small = device(1, device(1, 0, big).need_bytes / 2, big);
  p = pick_ok(&small, big, false, 0, 0, NULL);
  cr_assert_eq(p.mode, GSP_SCALE_OOC);
  cr_assert_eq(p.budget, small.free_bytes - GSP_CLOSURE_OOC_MARGIN);
}

Test(closure_branch, declines_and_errors_past_the_memory) {
  const int64_t n = 4000;
  const gsp__closure_device d = device(1, 80 * GIB, n);
  /* successors do not go out of core: the CPU, with the reason */
  gsp__closure_plan p = pick_ok(&d, n, true, 0, d.need_bytes / 2, NULL);
  cr_assert_eq(p.mode, GSP_SCALE_CPU);
  cr_assert_eq(gsp__device_declined("test"), GSP_DEVICE_OUT_OF_MEMORY);
  cr_assert(strstr(gsp_last_error(), "out of core covers neither successors"), "%s", gsp_last_error());
  /* a cap below two pages of 128 rows: an error for the caller */
  cr_assert_eq(gsp__closure_plan_pick(&p, &d, GSP_FP32, n, false, 0, 4096, NULL, "test"), GSP_DEVICE_OUT_OF_MEMORY);
  cr_assert(strstr(gsp_last_error(), "device memory cap of 4096 bytes"), "%s", gsp_last_error());
  /* a device nearly full (no cap): the CPU under AUTO */
  const gsp__closure_device full = device(1, 4096, n);
  p = pick_ok(&full, n, false, 0, 0, NULL);
  cr_assert_eq(p.mode, GSP_SCALE_CPU);
  cr_assert_eq(gsp__device_declined("test"), GSP_DEVICE_OUT_OF_MEMORY);
  /* free memory unknown: the CPU */
  gsp__closure_device unknown = device(1, 80 * GIB, n);
  unknown.memory_known = false;
  cr_assert_eq(pick_ok(&unknown, n, false, 0, 0, NULL).mode, GSP_SCALE_CPU);
  cr_assert_eq(gsp__device_declined("test"), GSP_DEVICE_OUT_OF_MEMORY);
}

Test(closure_branch, semiring_facts) {
  const struct {
    gsp_semiring s;
    bool closure;
    int sign;
    bool path;
  } f[] = {{GSP_MIN_PLUS, true, -1, true}, {GSP_MAX_PLUS, true, 1, true}, {GSP_MAX_MIN, true, 0, true},
           {GSP_MIN_MAX, true, 0, true},   {GSP_OR_AND, true, 0, false},  {GSP_PLUS_TIMES, false, 0, false}};
  for (size_t k = 0; k < sizeof f / sizeof *f; k++) {
    cr_assert_eq(gsp_semiring_has_closure(f[k].s), f[k].closure, "semiring %d", (int)f[k].s);
    cr_assert_eq(gsp_semiring_cycle_sign(f[k].s), f[k].sign, "semiring %d", (int)f[k].s);
    cr_assert_eq(gsp_semiring_path_encoding(f[k].s), f[k].path, "semiring %d", (int)f[k].s);
  }
  double z = 0, o = 0;
  gsp_semiring_zero_value(&z, GSP_MAX_PLUS, GSP_FP64);
  gsp_semiring_one_value(&o, GSP_MAX_MIN, GSP_FP64);
  cr_assert(z < 0 && isinf(z));
  cr_assert(o > 0 && isinf(o));
  int32_t zi = 0;
  gsp_semiring_zero_value(&zi, GSP_MIN_PLUS, GSP_INT32);
  cr_assert_eq(zi, INT32_MAX);
  /* PLUS_TIMES is refused by the closure through that fact */
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, GSP_FP32, 3, 3));
  cr_assert_eq(gsp_closure(A, GSP_PLUS_TIMES), GSP_DOMAIN_MISMATCH);
  gsp_matrix_free(&A);
}

/* stderr of fn() as a string (at most len - 1 bytes). */
static void capture_stderr(void (*fn)(void), char *buf, size_t len) {
  fflush(stderr);
  FILE *tmp = tmpfile();
  cr_assert_not_null(tmp);
  const int saved = dup(fileno(stderr));
  cr_assert_geq(saved, 0);
  cr_assert_geq(dup2(fileno(tmp), fileno(stderr)), 0);
  fn();
  fflush(stderr);
  dup2(saved, fileno(stderr));
  close(saved);
  rewind(tmp);
  const size_t got = fread(buf, 1, len - 1, tmp);
  buf[got] = '\0';
  fclose(tmp);
}

static void close_a_ring(void) {
  gsp_matrix A = NULL;
  GSP_OK(gsp_generate_ring(&A, GSP_FP32, 50, true, 1, 5, 7));
  gsp_closure_opts o = {.backend = GSP_BACKEND_CPU};
  GSP_OK(gsp_closure_ext(A, NULL, GSP_MIN_PLUS, &o));
  gsp_matrix_free(&A);
}

Test(closure_branch, burble_prints_the_decisions_when_on) {
  char out[4096];
  capture_stderr(close_a_ring, out, sizeof out);
  cr_assert_str_empty(out, "the burble is off by default, yet: %s", out);
  GSP_OK(gsp_set_burble(true));
  capture_stderr(close_a_ring, out, sizeof out);
  GSP_OK(gsp_set_burble(false));
  cr_assert(strstr(out, "[gsp] gsp_closure: runs on the CPU (CPU backend)\n"), "burble: '%s'", out);
  capture_stderr(close_a_ring, out, sizeof out);
  cr_assert_str_empty(out, "the burble is off again, yet: %s", out);
}
