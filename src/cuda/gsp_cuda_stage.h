/*
 * Pipelined transfers of a row-major host matrix to and from a pitched
 * device matrix through pinned staging buffers (gsp_cuda_stage.cu).
 *
 * The host side converts rows (absent entries to the semiring zero, bytes to
 * bits, int32 to int64, presence flags) while the copy engine moves other
 * rows: W workers each own two pinned buffers and a stream, take blocks of
 * rows in turn, convert one buffer while the other is in flight. A call
 * then costs about the larger of the conversion and the PCIe copy, plus one
 * block, with no registration of the caller's memory.
 */
#ifndef GSP_CUDA_STAGE_H
#define GSP_CUDA_STAGE_H

#include <stddef.h>
#include <stdint.h>

#include "gsp.h"

/* Rows [r0, r0 + rn) of the host matrix, converted into (fill) or out of
 * (drain) the staging buffer buf (rn rows of row_bytes). ctx is the
 * caller's; it may be called from several threads at once, for disjoint
 * rows. */
typedef void (*gsp__stage_fn)(void *ctx, int64_t r0, int64_t rn, void *buf);

/* Host -> device: rows of row_bytes, device rows dpitch bytes apart. */
gsp_info gsp__cuda_stage_upload(void *d, size_t dpitch, int64_t rows, size_t row_bytes, gsp__stage_fn fill, void *ctx);
/* Device -> host. */
gsp_info gsp__cuda_stage_download(const void *d, size_t dpitch, int64_t rows, size_t row_bytes, gsp__stage_fn drain,
                                  void *ctx);

/* Run body(ctx, lo, hi) over [0, count) split across gsp's threads (host
 * work of the gateway; one thread below `grain` items). */
typedef void (*gsp__range_fn)(void *ctx, int64_t lo, int64_t hi);
void gsp__host_parallel(int64_t count, int64_t grain, gsp__range_fn body, void *ctx);

/* Pinned host memory of `bytes` for staging: allocated, its pages touched
 * by gsp's threads, then registered with the device. cudaHostAlloc zeroes
 * and pins a page at a time on one thread and holds the driver's lock
 * meanwhile: 256 MiB took 157-197 ms on an H100 host, and a cudaMalloc on
 * another thread waited for it; touched in parallel and registered, 18-25 ms
 * and 11-20 ms. NULL on failure (no CUDA error left behind). */
void *gsp__pinned_alloc(size_t bytes);
/* Unregister and free (NULL: nothing). */
void gsp__pinned_free(void *p);

#endif
