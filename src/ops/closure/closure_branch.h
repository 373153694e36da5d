/*
 * Where a closure runs (closure_branch.c): every decision of gsp_closure in
 * one function, which returns the plan the launchers then follow: the CPU,
 * one GPU with the matrix resident, one GPU out of core within a budget, or
 * G GPUs. The CUDA launchers compute what the plan says and decide nothing;
 * gsp_closure.c commits the result.
 */
#ifndef GSP_CLOSURE_BRANCH_H
#define GSP_CLOSURE_BRANCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "closure_scale.h"
#include "gsp_diag.h"
#include "gsp_internal.h"
#include "gsp_progress.h"

/* n from which the automatic choice spreads a closure over every GPU: one
 * GPU then computes >= 3 s (n^3 / 12e12 tasks/s), more than the host-side
 * copies the multi-GPU path adds (its result comes back to the host, while
 * one GPU keeps it resident); the per-round broadcasts are then < 5% of a
 * round (docs/distributed.md). */
#define GSP_CLOSURE_MGPU_AUTO_N 32768

/* Device memory an out-of-core closure leaves to the CUDA runtime when no
 * cap is given. */
#define GSP_CLOSURE_OOC_MARGIN ((size_t)256 << 20)

/* Settings only tests pass (gsp__closure_run): 0 keeps the library's
 * choice. */
typedef struct {
  int64_t mgpu_auto_n;   /* n from which AUTO uses every GPU */
  int64_t ooc_page_rows; /* force the out-of-core page rows (rounded to 128) */
  int ooc_slots;         /* force the out-of-core page slots (>= 2) */
} gsp__closure_knobs;

/* The plan. */
typedef struct {
  gsp__scale_mode mode;
  int gpus;           /* MGPU: how many */
  size_t cap;         /* MGPU: device memory cap per GPU (0: none) */
  size_t budget;      /* OOC: device bytes it may use */
  gsp__ooc_plan page; /* OOC: the page plan within budget */
  bool nonneg_i32;    /* MGPU: INT32 MIN_PLUS with no negative value (DPX) */
} gsp__closure_plan;

/* What the device offers a closure of one matrix (the CUDA gateway's
 * answers, gathered by gsp__closure_branch; tests make their own). */
typedef struct {
  int usable;            /* usable GPUs */
  bool mgpu_built;       /* the multi-GPU path exists in this build */
  bool memory_known;     /* free_bytes could be read */
  size_t free_bytes;     /* free memory of the current GPU */
  size_t resident_bytes; /* M's dense device copy, reusable: counts as free */
  size_t need_bytes;     /* a resident closure of M (gsp_cuda_closure_bytes) */
  int64_t np;            /* M's padded dimension (gsp_cuda_padded_n) */
  /* device bytes of M's largest block over g GPUs, 0 when M is too small
   * to split (gsp_cuda_mgpu_bytes) */
  size_t (*mgpu_bytes)(gsp_type t, int64_t n, int g);
} gsp__closure_device;

/*
 * The plan for an n x n closure of type t on the device d. paths: successors
 * are recorded; want: GPUs asked for (0: automatic); cap: the device memory
 * cap (0: none). Where the GPU cannot take it the plan is GSP_SCALE_CPU and
 * the reason is recorded with gsp__device_decline. Errors: GSP_NO_DEVICE
 * (more GPUs asked for than usable), GSP_DEVICE_OUT_OF_MEMORY (the cap is
 * below what out of core needs).
 */
gsp_info gsp__closure_plan_pick(gsp__closure_plan *p, const gsp__closure_device *d, gsp_type t, int64_t n, bool paths,
                                long want, size_t cap, const gsp__closure_knobs *k, const char *fn);

/*
 * gsp_closure's branch: whether the GPU kernels cover (s, M's type, paths),
 * whether successors would be loop-free, how many GPUs (the option, else
 * GSP_GPUS, else automatic), then gsp__closure_plan_pick. oa: the
 * advanced options (never NULL). Called when the
 * backend decision offers the call to the GPU. A device-only M is
 * downloaded to check its signs when paths are asked for.
 */
gsp_info gsp__closure_branch(gsp__closure_plan *p, struct gsp_matrix_s *M, bool paths, gsp_semiring s,
                             const gsp_closure_advanced *oa, const gsp__closure_knobs *k, const char *fn);

/*
 * gsp_closure_ext with the test knobs k (may be NULL) and the report diag
 * (may be NULL; diag->closure is the path taken, also when a cycle fails
 * the call).
 */
gsp_info gsp__closure_run(gsp_matrix M, gsp_matrix *succ, gsp_semiring s, const gsp_closure_opts *opts,
                          const gsp__closure_knobs *k, gsp__diag *diag);

/* gsp_closure's sparse branch (closure_star.c): when M is stored sparse
 * (CSR, on the host), s is not OR_AND (with successors: s is MIN_PLUS),
 * the graph passes gsp_apsp's analysis gate and the star is predicted
 * faster than Floyd-Warshall (fw_gpu: where that would run), M := M* by
 * the star, *succ (when succ != NULL) = a new published GSP_INT64 n x n
 * successor matrix, and *done = true; else M is untouched and *done =
 * false. GSP_NEGATIVE_CYCLE (M unchanged) as the closure reports it.
 * progress (may be NULL) hears 0 when the star is chosen and the share of
 * the targets solved after each batch of them. */
gsp_info gsp__star_closure_try(struct gsp_matrix_s *M, struct gsp_matrix_s **succ, gsp_semiring s, bool fw_gpu,
                               bool *done, const gsp__progress *progress, const char *fn);

#endif /* GSP_CLOSURE_BRANCH_H */
