/*
 * Device-level closures past one GPU's memory and over several GPUs,
 * C-callable, no CUDA types (gsp_cuda_ooc.cu, gsp_cuda_mgpu.cu). Used by the
 * gateway and by bench/bench_closure_scale.cu.
 */
#ifndef GSP_CUDA_SCALE_H
#define GSP_CUDA_SCALE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gsp_progress.h"

#include "gsp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The page plan of an out-of-core closure, computed by the operation
 * (gsp__ooc_plan_make, src/ops/closure/closure_scale.h) and run by
 * gsp_cuda_fw_ooc: pages of page_rows rows (a multiple of 128; the last
 * page may be shorter) of the np x np matrix, `slots` page buffers on the
 * device. */
typedef struct {
  int64_t page_rows, pages;
  int slots;
  size_t bytes; /* device memory of the plan */
} gsp_cuda_ooc_plan;

/* What an out-of-core run did. */
typedef struct {
  int64_t page_rows, pages;
  int slots;
  size_t device_bytes;
  int64_t loads, stores; /* page transfers (a page: page_rows x n) */
  bool pinned;           /* H was page-locked for the run (else pageable copies) */
  double seconds_pin;    /* cudaHostRegister + cudaHostUnregister */
} gsp_cuda_ooc_report;

/*
 * Out-of-core closure in place of the host matrix H (n x n row-major,
 * leading dimension n, every entry a value: the semiring zero of s where
 * there is no edge) on the current device, by the caller's page plan for
 * np = gsp_cuda_padded_n(t, n) (GSP_INVALID_VALUE when the plan does not
 * cover np). reflexive: M*, else M+. H is page-locked with
 * cudaHostRegister for the run (transfers are direct DMA; when the host
 * refuses, pageable copies are used: correct, slower). *cycle as
 * gsp_cuda_fw_device (H is then garbage). Numeric types only. progress
 * (may be NULL) every few page rounds, the compute stream drained first.
 */
gsp_info gsp_cuda_fw_ooc(void *H, int64_t n, gsp_type t, gsp_semiring s, bool reflexive, const gsp_cuda_ooc_plan *plan,
                         const gsp__progress *progress, bool *cycle, gsp_cuda_ooc_report *rep);

/* ---- several GPUs of one host (NCCL) ---- */

typedef struct gsp_mgpu_s *gsp_cuda_mgpu;

/* Whether this build has the multi-GPU path (NCCL headers found). */
bool gsp_cuda_mgpu_built(void);

/* Bytes of device memory the largest block of an n-vertex closure over
 * `gpus` GPUs needs; 0 when n is too small to split (fewer 128-tiles than
 * GPUs in a grid row or column). */
size_t gsp_cuda_mgpu_bytes(gsp_type t, int64_t n, int gpus);

/* A context over the first `gpus` usable devices: blocks allocated, NCCL
 * communicators made (cached between contexts). cap_per_gpu: 0 or the
 * device-memory cap. Errors: GSP_NO_DEVICE (too few GPUs, no NCCL),
 * GSP_DEVICE_OUT_OF_MEMORY, GSP_INVALID_VALUE (n too small to split).
 * nccl: the NCCL library to try first (the GSP_NCCL_LIBRARY setting), or
 * NULL. */
gsp_info gsp_cuda_mgpu_create(gsp_cuda_mgpu *out, gsp_type t, int64_t n, int gpus, size_t cap_per_gpu,
                              const char *nccl);
void gsp_cuda_mgpu_destroy(gsp_cuda_mgpu m);
/* Grid shape (rows x columns of GPUs). */
void gsp_cuda_mgpu_grid(const gsp_cuda_mgpu m, int *grid_rows, int *grid_cols);
/* GPU g's block: device pointer (row-major, leading dimension *cols), its
 * CUDA device, first global row/column and padded extent. */
void gsp_cuda_mgpu_block(const gsp_cuda_mgpu m, int g, void **d, int *device, int64_t *row0, int64_t *rows,
                         int64_t *col0, int64_t *cols);
/* Every block := the semiring zero (the padding of an input). */
gsp_info gsp_cuda_mgpu_fill(gsp_cuda_mgpu m, gsp_semiring s);
/* Blocks := H (n x n, ld n), padding zero. */
gsp_info gsp_cuda_mgpu_upload(gsp_cuda_mgpu m, const void *H, gsp_semiring s);
/* The closure of the blocks in place; nonneg_i32: INT32 MIN_PLUS input with
 * every value >= 0 (the DPX product). Synchronises. progress (may be NULL)
 * every few rounds, every GPU drained first. */
gsp_info gsp_cuda_mgpu_run(gsp_cuda_mgpu m, gsp_semiring s, bool reflexive, bool nonneg_i32,
                           const gsp__progress *progress, bool *cycle);
/* H (n x n, ld n) := the blocks. */
gsp_info gsp_cuda_mgpu_download(gsp_cuda_mgpu m, void *H);

#ifdef __cplusplus
}
#endif
#endif /* GSP_CUDA_SCALE_H */
