/*
 * The one diagnostics channel: what an operation decided and how long its
 * phases took, returned through an explicit report the caller passes down
 * the internal calls (NULL when nobody asks). Tests and benchmarks read it;
 * a user sees the same decisions through the burble (gsp_set_burble,
 * GSP_BURBLE=1). Shared by src/ops, which fills the decisions, and the CUDA
 * launchers, which fill their phase times. No CUDA types.
 */
#ifndef GSP_DIAG_H
#define GSP_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where a closure ran (gsp__closure_run). */
typedef enum {
  GSP_SCALE_CPU = 0, /* CPU backend (or a GPU decline) */
  GSP_SCALE_IN_CORE, /* one GPU, matrix resident */
  GSP_SCALE_OOC,     /* one GPU, out of core */
  GSP_SCALE_MGPU     /* several GPUs */
} gsp__scale_mode;

typedef struct {
  gsp__scale_mode mode;
  int64_t page_rows, pages;       /* OOC */
  int slots;                      /* OOC */
  int64_t loads, stores;          /* OOC page transfers */
  int gpus, grid_rows, grid_cols; /* MGPU */
} gsp__scale_record;

/* Phase times of a gsp_cuda_sssp or gsp_cuda_msssp call that ran on the
 * device (seconds; 0 where a phase did not run). Device phases are CUDA
 * events, host ones the host clock. */
typedef struct {
  double call_s; /* the whole gateway call (host clock) */
  /* gsp_cuda_sssp, near-far driver */
  double setup_s;       /* device: workspace reset, seeding (msssp: host,
                           the call's start to its first batch) */
  double kernel_s;      /* device: the persistent kernel alone */
  double out_s;         /* host: from the kernel's end to the call's return
                      (extraction, staged copies, the gather pass) */
  double touch_s;       /* host: mapping the result pages, beside the kernel */
  double launch_s;      /* host: from the gateway's entry to the kernel's launch */
  double wait_s;        /* host: from the launch until the kernel's counts
                           are read (the kernel, the count, the waits) */
  int chunks;           /* staged chunks copied back (last run) */
  int pinned;           /* 1 when the staging was pinned, 0 pageable */
  double host_before_s; /* host, outside the gateway: from gsp_sssp's entry
                           to the gateway (checks, vectors), and */
  double host_after_s;  /* from its return to the published result (filled
                           by gsp__sssp_run) */
  double tree_s;        /* device: the parent pass after the kernel (near-far:
                      the arc pass and count; a tie BFS is not in it) */
  int64_t ties;         /* vertices (msssp: cells) the parent pass left to the
                      tie BFS of the strict rule */
  int tie_levels;       /* levels of that BFS (msssp: the most of any batch) */
  int steps;            /* kernel steps (grid barriers) */
  int chain;            /* near-far: chain rounds a step (the plan's) */
  int blocks;           /* near-far: persistent blocks launched */
  int64_t expanded;     /* near-far: vertices whose arcs were relaxed (a
                           vertex once per time) */
  /* gsp_cuda_msssp, summed over batches */
  int batches;
  int64_t rounds;     /* relaxation rounds run (queued), all batches */
  double relax_s;     /* device: relaxation rounds */
  double parent_s;    /* device: the recording pass (and any tie BFS) */
  double transpose_s; /* device: source-major transpose */
  double d2h_s;       /* device: result copies to pinned staging */
  double host_copy_s; /* host: rows from staging into the result (a thread
                         of their own, beside the driving one) */
  double host_wait_s; /* host: the driving thread waiting (device flags,
                         a staging slot) */
} gsp_cuda_sssp_stats;

/* Settings of one GPU shortest-path call that only tests set: 0 keeps the
 * library's choice. They go into the operation's plan
 * (gsp__sssp_gpu_plan); the staging slot size, which is the plugin's own,
 * is set through its test entry (gsp__debug_sssp_stage_bytes). */
typedef struct {
  int chain;         /* near-far chain rounds (gsp_cuda_sssp_plan); -1:
                        none (tests and bench sweeps) */
  int blocks_per_sm; /* near-far persistent blocks per SM */
  int64_t hub;       /* near-far hub degree */
} gsp__sssp_knobs;

/* One call's report. */
typedef struct {
  gsp__scale_record closure; /* gsp__closure_run: the path taken, also when a
                                cycle fails the call */
  bool sssp_gpu;             /* gsp__sssp_run / gsp__msssp_run: the GPU ran it */
  bool msssp_closure;        /* gsp__msssp_run: computed as rows of the closure */
  gsp_cuda_sssp_stats sssp;  /* ... and its phase times */
} gsp__diag;

#ifdef __cplusplus
}
#endif
#endif /* GSP_DIAG_H */
