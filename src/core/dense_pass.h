/* Passes over the n^2 entries of dense storage (import, export, format
 * conversion): every one runs on all of gsp's threads once it is large
 * enough to repay a parallel region, and does its work in one sweep. */
#ifndef GSP_DENSE_PASS_H
#define GSP_DENSE_PASS_H

#include <string.h>
#include <sys/mman.h>

#include "gsp_internal.h"

/* Threads for a pass over `work` entries: one below 256 Ki entries (a
 * parallel region costs more than it saves there), else gsp__threads(). */
static inline int gsp__pass_threads(size_t work) {
  return work < ((size_t)1 << 18) ? 1 : gsp__threads();
}

/* X(type code, C type) for each type, to write a pass once for all of them
 * (typed loops: comparisons as values, -0 == 0, NaN never equal). */
#define GSP_PASS_TYPES(X) \
  X(GSP_BOOL, uint8_t)    \
  X(GSP_INT32, int32_t)   \
  X(GSP_INT64, int64_t)   \
  X(GSP_FP32, float)      \
  X(GSP_FP64, double)

/* Ask for transparent huge pages over the 2 MiB-aligned inside of a large
 * array about to be written for the first time: with 4 KiB pages the page
 * faults of a fresh GiB cost more than writing it. Advice only. */
static inline void gsp__pass_huge(void *p, size_t bytes) {
#if defined(__linux__) && !defined(MADV_HUGEPAGE)
#error "define _DEFAULT_SOURCE before the first #include (madvise's MADV_HUGEPAGE)"
#endif
#if defined(__linux__)
  const uintptr_t h = (uintptr_t)1 << 21, a = ((uintptr_t)p + h - 1) & ~(h - 1), e = ((uintptr_t)p + bytes) & ~(h - 1);
  if (p && bytes >= ((size_t)64 << 20) && e > a) (void)madvise((void *)a, (size_t)(e - a), MADV_HUGEPAGE);
#else
  (void)p, (void)bytes;
#endif
}

/* memcpy on gsp__pass_threads threads (first touch of a fresh destination
 * is spread over them too). */
static inline void gsp__pass_memcpy(void *dst, const void *src, size_t bytes) {
  const size_t chunk = (size_t)1 << 22;
  const int64_t parts = (int64_t)((bytes + chunk - 1) / chunk);
  const int nt = gsp__pass_threads(bytes / 4);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (int64_t q = 0; q < parts; q++) {
    const size_t at = (size_t)q * chunk, len = bytes - at < chunk ? bytes - at : chunk;
    memcpy((char *)dst + at, (const char *)src + at, len);
  }
}

/* Write zeros over a fresh array on gsp__pass_threads threads: its pages
 * faulted in by every thread at once, before a copy from the device fills
 * it (a device-to-host copy into pageable memory faults them in one at a
 * time, in the copying thread). */
static inline void gsp__pass_touch(void *p, size_t bytes) {
  const size_t chunk = (size_t)1 << 22;
  const int64_t parts = (int64_t)((bytes + chunk - 1) / chunk);
  const int nt = gsp__pass_threads(bytes / 4);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (int64_t q = 0; q < parts; q++) {
    const size_t at = (size_t)q * chunk;
    memset((char *)p + at, 0, bytes - at < chunk ? bytes - at : chunk);
  }
}

#endif
