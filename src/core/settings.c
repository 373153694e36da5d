/* Types, semiring facts, value helpers and process-wide settings. */
#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsp_internal.h"
#include "gsp_names.h"
#include "gsp_semiring.h"

size_t gsp_type_size(gsp_type t) {
  return gsp__tsize(t);
}

const char *gsp__type_name(gsp_type t) {
  return gsp_names_type(t);
}

const char *gsp__semiring_name(gsp_semiring s) {
  return gsp_names_semiring(s);
}

gsp_info gsp__check_type(gsp_type t, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  if (gsp_type_size(t) == 0) info = GSP_ERROR(GSP_INVALID_VALUE, "%s: invalid type code %d", fn, (int)t);
  return info;
}

bool gsp__semiring_fits(gsp_semiring s, gsp_type t) {
  if (gsp_type_size(t) == 0) return false;
  switch (s) {
  case GSP_OR_AND:
    return t == GSP_BOOL;
  case GSP_MIN_PLUS:
  case GSP_MAX_PLUS:
  case GSP_MAX_MIN:
  case GSP_MIN_MAX:
  case GSP_PLUS_TIMES:
    return t != GSP_BOOL;
  }
  return false;
}

bool gsp__is_nan(gsp_type t, const void *x) {
  if (t == GSP_FP32) return isnan(*(const float *)x);
  if (t == GSP_FP64) return isnan(*(const double *)x);
  return false;
}

/* Float to integer conversion with saturation (C leaves out-of-range
 * conversion undefined); NaN becomes 0 as in GraphBLAS. */
static int64_t f64_to_i64(double v, int64_t lo, int64_t hi) {
  if (isnan(v)) return 0;
  if (v <= (double)lo) return lo;
  if (v >= (double)hi) return hi;
  return (int64_t)v;
}

void gsp__cast_value(void *dst, gsp_type dt, const void *src, gsp_type st) {
  if (dt == st) {
    gsp__memcpy(dst, src, gsp_type_size(dt));
    return;
  }
  bool int_src = st == GSP_BOOL || st == GSP_INT32 || st == GSP_INT64;
  int64_t iv = st == GSP_INT64 ? *(const int64_t *)src : (int_src ? (int64_t)gsp__value_f64(src, st) : 0);
  double dv = gsp__value_f64(src, st);
  switch (dt) {
  case GSP_BOOL:
    *(bool *)dst = int_src ? iv != 0 : dv != 0;
    break;
  case GSP_INT32:
    *(int32_t *)dst = int_src ? (int32_t)(iv > INT32_MAX   ? INT32_MAX
                                          : iv < INT32_MIN ? INT32_MIN
                                                           : iv)
                              : (int32_t)f64_to_i64(dv, INT32_MIN, INT32_MAX);
    break;
  case GSP_INT64:
    *(int64_t *)dst = int_src ? iv : f64_to_i64(dv, INT64_MIN, INT64_MAX);
    break;
  case GSP_FP32:
    *(float *)dst = int_src ? (float)iv : (float)dv;
    break;
  case GSP_FP64:
    *(double *)dst = int_src ? (double)iv : dv;
    break;
  }
}

/* The values come from gsp_semiring.h, the one definition C and CUDA share. */
void gsp__semiring_zero(void *out, gsp_semiring s, gsp_type t) {
  gsp_semiring_zero_value(out, s, t);
}

void gsp__semiring_one(void *out, gsp_semiring s, gsp_type t) {
  gsp_semiring_one_value(out, s, t);
}

/* ---- process-wide settings ----
 *
 * The environment settings the documentation promises are read here and
 * nowhere else: GSP_BACKEND (the default backend), GSP_GPUS (the closure's
 * GPU count), GSP_BURBLE (the burble), GSP_DEBUG (source locations in
 * messages), GSP_CPU_ISA (caps the CPU kernels' instruction set),
 * GSP_CUDA_PLUGIN (where the loader
 * finds the plugin), GSP_NCCL_LIBRARY (the multi-GPU path's NCCL). */

static _Atomic int g_backend = -1; /* -1: not yet read from the environment */
static _Atomic int g_threads = 0;
static _Atomic int g_burble = -1; /* -1: not yet read from the environment */

static gsp_backend backend_from_env(void) {
  const char *e = getenv("GSP_BACKEND");
  if (e && strcmp(e, "cpu") == 0) return GSP_BACKEND_CPU;
  if (e && strcmp(e, "cuda") == 0) return GSP_BACKEND_CUDA;
  return GSP_BACKEND_AUTO;
}

gsp_info gsp_set_backend(gsp_backend b) {
  gsp_info info = GSP_SUCCESS;
  if (b != GSP_BACKEND_AUTO && b != GSP_BACKEND_CPU && b != GSP_BACKEND_CUDA)
    return GSP_ERROR(GSP_INVALID_VALUE, "gsp_set_backend: invalid backend %d", (int)b);
  atomic_store(&g_backend, (int)b);
  return info;
}

gsp_info gsp_get_backend(gsp_backend *b) {
  if (!b) return GSP_ERROR(GSP_NULL_POINTER, "gsp_get_backend: b is NULL");
  *b = gsp__backend_for(GSP_BACKEND_AUTO);
  return GSP_SUCCESS;
}

gsp_backend gsp__backend_for(gsp_backend requested) {
  if (requested == GSP_BACKEND_CPU || requested == GSP_BACKEND_CUDA) return requested;
  int b = atomic_load(&g_backend);
  if (b < 0) {
    b = (int)backend_from_env();
    atomic_store(&g_backend, b);
  }
  return (gsp_backend)b;
}

gsp_info gsp_set_threads(int nthreads) {
  if (nthreads < 0) return GSP_ERROR(GSP_INVALID_VALUE, "gsp_set_threads: negative thread count %d", nthreads);
  atomic_store(&g_threads, nthreads);
  return GSP_SUCCESS;
}

gsp_info gsp_get_threads(int *nthreads) {
  if (!nthreads) return GSP_ERROR(GSP_NULL_POINTER, "gsp_get_threads: nthreads is NULL");
  *nthreads = gsp__threads();
  return GSP_SUCCESS;
}

int gsp__threads(void) {
  int t = atomic_load(&g_threads);
  return t > 0 ? t : gsp__default_threads();
}

void gsp__team(int nthreads, void (*body)(void *ctx, int t, int nt), void *ctx) {
#pragma omp parallel num_threads(nthreads > 0 ? nthreads : 1)
  body(ctx, omp_get_thread_num(), omp_get_num_threads());
}

/* A path setting: NULL when unset or empty. */
static const char *path_setting(const char *name) {
  const char *e = getenv(name);
  return e && *e ? e : NULL;
}

const char *gsp__setting_cuda_plugin(void) {
  return path_setting("GSP_CUDA_PLUGIN");
}

const char *gsp__setting_nccl_library(void) {
  return path_setting("GSP_NCCL_LIBRARY");
}

long gsp__setting_gpus(void) {
  const char *e = getenv("GSP_GPUS");
  if (!e || !*e) return 0;
  char *end = NULL;
  const long v = strtol(e, &end, 10);
  return (*end != '\0' || v < 1 || v > (1L << 30)) ? -1 : v;
}

const char *gsp__setting_gpus_text(void) {
  const char *e = getenv("GSP_GPUS");
  return e ? e : "";
}

/* GSP_CPU_ISA: the highest instruction set the CPU kernels may use
 * (cpu_isa.c decides; NULL when unset). */
const char *gsp__setting_cpu_isa(void) {
  return getenv("GSP_CPU_ISA");
}

/* GSP_DEBUG=1 (any value but empty or "0"), read once: messages end with
 * the source location of the failed check, " [io_stream.c:23]", for bug
 * reports; otherwise a user sees the message alone. */
bool gsp__debug_mode(void) {
  static _Atomic int on = -1;
  int v = atomic_load(&on);
  if (v < 0) {
    const char *e = getenv("GSP_DEBUG");
    v = e && *e && strcmp(e, "0") != 0;
    atomic_store(&on, v);
  }
  return v;
}

gsp_info gsp_set_burble(bool on) {
  atomic_store(&g_burble, on ? 1 : 0);
  return GSP_SUCCESS;
}

bool gsp__burble_on(void) {
  int b = atomic_load(&g_burble);
  if (b < 0) {
    const char *e = getenv("GSP_BURBLE");
    b = e && strcmp(e, "1") == 0;
    atomic_store(&g_burble, b);
  }
  return b > 0;
}

static void vburble(const char *fmt, va_list ap) {
  if (!gsp__burble_on()) return;
  char line[512];
  vsnprintf(line, sizeof line, fmt, ap);
  fprintf(stderr, "[gsp] %s\n", line); /* one write per line: threads do not interleave within it */
}

void gsp__burble(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vburble(fmt, ap);
  va_end(ap);
}
