/*
 * What the library's two sides share: the error flow, the counted
 * allocator, the burble, the decline protocol, the thread team and the
 * value helpers. The core defines these functions (src/core); inside the
 * CUDA plugin, whose files include this header and never gsp_internal.h,
 * the same names are its shims (src/cuda/gsp_cuda_host_shims.c), which
 * reach the core that opened it through gsp__cuda_host. Never installed.
 *
 * Error flow (LAGraph's LG_FREE_ALL + GRB_TRY): each .c file defines
 * GSP_FREE_ALL (what to release on failure) before using GSP_TRY/GSP_CHECK,
 * and each public function declares `gsp_info info = GSP_SUCCESS;`.
 */
#ifndef GSP_HOST_H
#define GSP_HOST_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gsp.h"
#include "gsp_semiring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Symbols marked GSP_COMPANION are also exported from libgsp.so for gsp's
 * companion library libgsp_mpi (src/mpi), which is built from the same tree
 * and version: a private ABI, not part of the public API (include/gsp.h). */
#if defined(__GNUC__)
#define GSP_COMPANION __attribute__((visibility("default")))
#else
#define GSP_COMPANION
#endif

/* ---- errors ---- */

/* Record "<where>: <message>" in the thread-local buffer (followed by
 * " [file:line]" of the check when GSP_DEBUG=1, see error.c) and return
 * code. Never prints. */
GSP_COMPANION gsp_info gsp__error(gsp_info code, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#define GSP_ERROR(code, ...) gsp__error((code), __FILE__, __LINE__, __VA_ARGS__)

/* Fail with `code` and a message when cond is false. */
#define GSP_CHECK(cond, code, ...)           \
  do {                                       \
    if (!(cond)) {                           \
      info = GSP_ERROR((code), __VA_ARGS__); \
      GSP_FREE_ALL;                          \
      return info;                           \
    }                                        \
  } while (0)

/* Propagate a failing gsp_info (its message is already recorded). */
#define GSP_TRY(expr)                \
  do {                               \
    gsp_info gsp_try_info_ = (expr); \
    if (gsp_try_info_ < 0) {         \
      info = gsp_try_info_;          \
      GSP_FREE_ALL;                  \
      return info;                   \
    }                                \
  } while (0)

/* Allocation that fails with GSP_OUT_OF_MEMORY. */
#define GSP_ALLOC(ptr, count, size)                                                  \
  GSP_CHECK(((ptr) = gsp__malloc_array((count), (size))) != NULL, GSP_OUT_OF_MEMORY, \
            "cannot allocate %zu x %zu bytes", (size_t)(count), (size_t)(size))
#define GSP_CALLOC(ptr, count, size)                                                                              \
  GSP_CHECK(((ptr) = gsp__calloc((count), (size))) != NULL, GSP_OUT_OF_MEMORY, "cannot allocate %zu x %zu bytes", \
            (size_t)(count), (size_t)(size))

/* ---- memory: every allocation goes through these (failure injection) ---- */

void *gsp__malloc(size_t size);
GSP_COMPANION void *gsp__malloc_array(size_t count, size_t size); /* overflow-checked */
void *gsp__calloc(size_t count, size_t size);
void *gsp__realloc_array(void *p, size_t count, size_t size);
GSP_COMPANION void gsp__free(void *p);
#define GSP_FREE(p) (gsp__free(p), (p) = NULL)

/* *out = a * b; false on overflow of size_t. */
bool gsp__mul_size(size_t *out, size_t a, size_t b);

GSP_COMPANION const char *gsp__type_name(gsp_type t);
GSP_COMPANION const char *gsp__semiring_name(gsp_semiring s);

/* One value of any gsp_type, aligned for all; the member is the type's
 * suffix (b, i32, i64, f32, f64). */
typedef union {
#define GSP_VALUE_MEMBER_(T, ct, sfx) ct sfx;
  GSP_TYPE_LIST(GSP_VALUE_MEMBER_)
#undef GSP_VALUE_MEMBER_
} gsp__value;

/* gsp_type_size, inline: it folds where t is a constant (typed kernels). */
static inline size_t gsp__tsize(gsp_type t) {
  switch (t) {
#define GSP_TSIZE_CASE_(T, ct, sfx) \
  case GSP_##T:                     \
    return sizeof(ct);
    GSP_TYPE_LIST(GSP_TSIZE_CASE_)
#undef GSP_TSIZE_CASE_
  }
  return 0;
}

/* memcpy that accepts n == 0 with NULL pointers (empty arrays are NULL). */
static inline void gsp__memcpy(void *dst, const void *src, size_t n) {
  if (n) memcpy(dst, src, n);
}

/* Value helpers: element k of an array of type t. */
static inline void *gsp__at(void *x, gsp_type t, int64_t k) {
  return (char *)x + (size_t)k * gsp_type_size(t);
}
static inline const void *gsp__cat(const void *x, gsp_type t, int64_t k) {
  return (const char *)x + (size_t)k * gsp_type_size(t);
}
/* A value of type t as a double (int64 beyond 2^53 rounded). A bool is
 * read as its byte: one from a file may be neither 0 nor 1. */
static inline double gsp__value_f64(const void *x, gsp_type t) {
  switch (t) {
  case GSP_BOOL:
    return *(const uint8_t *)x;
  case GSP_INT32:
    return *(const int32_t *)x;
  case GSP_INT64:
    return (double)*(const int64_t *)x;
  case GSP_FP32:
    return *(const float *)x;
  case GSP_FP64:
    break;
  }
  return *(const double *)x;
}

/* The "decline or take" protocol of the CUDA gateway. A launcher that
 * does not take a call (no kernel for the type or semiring, sizes past its
 * limits, too little device memory, ...) says why with
 * gsp__device_decline(code, ...): GSP_DEVICE_OUT_OF_MEMORY for memory,
 * GSP_TOO_LARGE for sizes, GSP_DOMAIN_MISMATCH for a type or semiring
 * without a kernel. Under AUTO the CPU then runs the call; under an
 * explicit CUDA request (option or process default) the operation fails
 * with that code and reason (gsp__device_declined; GSP_NO_DEVICE when no
 * reason was given), never a silent CPU run. The operations reach this
 * through gsp__backend_pick / gsp__backend_declined (src/ops/ops_backend.c). */
void gsp__device_decline(gsp_info code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The burble (gsp_set_burble, GSP_BURBLE=1): one line to stderr per
 * decision an operation takes and per phase it times; a no-op when off. */
bool gsp__burble_on(void);
void gsp__burble(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

int gsp__threads(void);
/* body(ctx, t, nt) on each thread t of a team of up to nthreads (the
 * caller's is t = 0): gsp's OpenMP threads, for host work that is not a
 * loop (the GPU's staging workers), so it never competes with a pool
 * still spinning after the previous parallel pass. */
void gsp__team(int nthreads, void (*body)(void *ctx, int t, int nt), void *ctx);

/* The fault a test armed for the next CUDA call (gsp__debug_device_fault_after
 * of gsp_internal.h): the CUDA backend reports it instead of making the call. */
typedef enum { GSP_FAULT_NONE = 0, GSP_FAULT_DEVICE_OOM, GSP_FAULT_LAUNCH } gsp_fault;
gsp_fault gsp__device_fault_due(void);
/* The SpGEMM algorithm a test forced (gsp__debug_spgemm_alg; 0: automatic). */
int gsp__spgemm_alg(void);

#ifdef __cplusplus
}
#endif
#endif /* GSP_HOST_H */
