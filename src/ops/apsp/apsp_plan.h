/*
 * gsp_apsp's plan (apsp_plan.c): the one place where the all-pairs
 * algorithm, where it runs, its GPU batch and its row blocks are decided.
 * A pure function of plain facts: the call's options, the graph's shape and
 * what the machine offers (free device memory, what the GPU kernels would
 * take, host memory), gathered by gsp_apsp.c; tests make their own. The
 * drivers (apsp_run.c) follow the plan and decide nothing; the plan is
 * what gsp_apsp_report and the burble show.
 */
#ifndef GSP_APSP_PLAN_H
#define GSP_APSP_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apsp.h"
#include "ops_backend.h"
#include "sssp_prepare.h"

/* Batches of the many-source kernel the planner prices: 32, 64, ... 1024
 * sources (whole warps). */
#define GSP_APSP_BATCHES 32

/* What the planner is told. */
typedef struct {
  /* the call */
  gsp_apsp_algo asked; /* the option (AUTO: the cost model's pick) */
  gsp_index row_block; /* advanced option; 0: sized from the memory */
  size_t device_cap;   /* advanced device_memory_cap; 0: none */
  size_t host_cap;     /* advanced host_memory_cap; 0: none */
  bool callback;       /* rows go to a callback */
  bool rows_out;       /* ... into the caller's whole-result array */
  bool progress;       /* a progress callback wants parts */
  gsp_type out;        /* output type */
  bool p32;            /* int32 parents into a result matrix */
  /* the graph (n, m, ns, t, negative, paths, threads; depth and the
   * star's operation counts once measured, see below) */
  gsp__apsp_shape shape;
  bool positive; /* every weight > 0 */
  /* the machine */
  bool gpu;             /* the backend decision offers the call to the GPU
                            and its free memory could be read */
  bool required;        /* the CUDA backend was asked for */
  size_t dev_bytes;     /* device bytes to plan with: free, or the cap */
  size_t closure_bytes; /* a resident GPU closure of A (gsp_cuda_closure_bytes) */
  /* the many-source kernel's bytes for a batch of 32 (k + 1) sources on A
   * (INT32 A with a negative weight: as INT64, Johnson's widening) */
  size_t msssp_bytes[GSP_APSP_BATCHES];
  size_t host_bytes; /* host memory the process may still take
                            (gsp__host_memory_available) */
} gsp__apsp_facts;

/* The plan. */
typedef struct {
  gsp_apsp_algo algo;  /* never AUTO */
  bool gpu;            /* offer the computation to the GPU */
  gsp_backend backend; /* where it is expected to run (the report's, before
                           the run says where it did) */
  int64_t batch;       /* GPU sources per pass; 0: the kernel's choice */
  int64_t row_block;   /* rows per block (>= 1) */
  int64_t row_blocks;  /* blocks */
  /* CUDA required, rows by relaxation, and not even a batch of 32 sources
   * fits the device: GSP_DEVICE_OUT_OF_MEMORY when the call runs (a dry
   * run still reports the plan) */
  bool device_short;
  /* the row blocks were sized from the host memory (f->host_bytes; the
   * caller reads it only then, and plans again) */
  bool staged;
  gsp__apsp_shape shape;            /* as priced */
  double predicted[GSP_APSP_ALGOS]; /* seconds, by gsp_apsp_algo */
} gsp__apsp_plan;

/* Whether the plan needs the graph's depth (gsp__apsp_depth) before it can
 * pick: AUTO, where the relaxation may win or the star may be worth
 * pricing. The caller stores it in f->shape.depth. */
bool gsp__apsp_plan_wants_depth(const gsp__apsp_facts *f);

/* Whether the plan needs the sparse star's symbolic analysis: asked for, or
 * AUTO where the cost model says it may win (gsp__apsp_star_worth). The
 * caller makes it (gsp__star_analyze) and stores its counts in f->shape
 * (star, star_factor_ops, star_solve_ops). */
bool gsp__apsp_plan_wants_star(const gsp__apsp_facts *f);

/* The plan for the facts f. Errors (GSP_INVALID_VALUE, recorded for fn):
 * the sparse star with CUDA required, MSSSP on a negative weight. */
gsp_info gsp__apsp_plan_make(gsp__apsp_plan *p, const gsp__apsp_facts *f, const char *fn);

/* The algorithm's name, for messages and the burble. */
const char *gsp__apsp_algo_name(gsp_apsp_algo a);

/* ---- a call's facts and plan (apsp_facts.c), its run (apsp_run.c) ---- */

/* The facts of the checked call c on A's CSR form G with weights ws, and
 * where it may run (*be: the backend decision). GSP_DEVICE_OUT_OF_MEMORY
 * when CUDA is required and the free device memory cannot be read. */
gsp_info gsp__apsp_call_facts(gsp__apsp_facts *f, gsp__backend_choice *be, const struct gsp_matrix_s *G,
                              const gsp__weights *ws, const gsp__apsp_args *c);

/* The plan, with the graph's depth (from the sources src) and the star's
 * analysis (into *sym, which the star's run uses) made where the planner
 * asks for them. */
gsp_info gsp__apsp_plan_call(gsp__apsp_plan *p, gsp__star_symbolic *sym, gsp__apsp_facts *f,
                             const struct gsp_matrix_s *G, const int64_t *src);

/* The run's configuration from the checks, the plan and the arrays. */
gsp__apsp_run gsp__apsp_run_of(const gsp__apsp_args *c, const gsp__apsp_plan *p, const gsp__apsp_owned *w,
                               const struct gsp_matrix_s *G, bool identity, gsp_backend backend);

#endif /* GSP_APSP_PLAN_H */
