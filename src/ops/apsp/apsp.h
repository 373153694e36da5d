/*
 * Internal interface of gsp_apsp (src/ops/apsp/gsp_apsp.c): the cost model that
 * AUTO uses (apsp_cost.c, constants in one place), Johnson's reweighting
 * and the typed finishing of result rows (apsp_johnson.c, apsp_rows.c), and
 * the run that follows the plan (apsp_run.c; the plan: apsp_plan.h).
 */
#ifndef GSP_APSP_H
#define GSP_APSP_H

#include <stdbool.h>
#include <stdint.h>

#include "gsp_internal.h"
#include "sssp_cpu.h"
#include "star.h"

/* What the cost model needs to know about one call. */
typedef struct {
  int64_t n, m, ns; /* vertices, arcs, sources (result rows) */
  gsp_type t;       /* A's type */
  bool negative;    /* some weight < 0 */
  bool paths;       /* parents requested */
  bool blocks;      /* the result goes out in row blocks (callback, or
                        larger than the device memory cap) */
  bool fw_gpu;      /* Floyd-Warshall would run on the GPU (usable, fits,
                        and successors possible there when paths) */
  bool relax_gpu;   /* the multi-source kernel would run on the GPU */
  int64_t batch;    /* its sources a batch (0: the kernel's choice) */
  double depth;     /* hops of the deepest shortest-path tree, estimated
                        (gsp__apsp_depth; 0: not probed, a random graph's) */
  int threads;      /* CPU threads */
  /* The sparse star's symbolic analysis, when it was made (star.h):
   * multiply-adds of the factorization and of one row's solve */
  bool star;
  double star_factor_ops, star_solve_ops;
} gsp__apsp_shape;

/* The depth estimate of the cost model: twice the largest breadth-first
 * eccentricity among a few of the sources src[0..ns) (a shortest-path tree
 * is deeper than the breadth-first one; a ring's are n / 2 deep, a random
 * graph's a few dozen). O(n + m) a probe; 0 where memory is short. */
double gsp__apsp_depth(const struct gsp_matrix_s *G, const int64_t *src, int64_t ns);

/* Predicted seconds of each algorithm, indexed by gsp_apsp_algo (sec[0]
 * unused; +inf where it cannot run). */
void gsp__apsp_predict(double sec[GSP_APSP_ALGOS], const gsp__apsp_shape *s);

/* Whether the sparse star may win, so that AUTO pays for its symbolic
 * analysis to price it: a sparse graph with deep shortest-path trees
 * (s->depth probed), as road networks, meshes and grids have, where the
 * best of the other predictions sec[] is well above the analysis's cost;
 * random graphs (shallow, large separators) are left to the others
 * unanalyzed. */
bool gsp__apsp_star_worth(const gsp__apsp_shape *s, const double sec[GSP_APSP_ALGOS]);

/* AUTO's pick from the predictions: the cheapest that may run. */
gsp_apsp_algo gsp__apsp_pick(const double sec[GSP_APSP_ALGOS], const gsp__apsp_shape *s);

/* Host bytes a row block may take at most when gsp_apsp stages rows itself
 * (a callback, or a type conversion); less when less memory is available
 * (gsp__host_memory_available) or host_memory_cap says so. Each
 * block is one call of the many-source kernel (on the GPU: a graph upload
 * and fresh batch buffers), so blocks should not be small. */
#define GSP_APSP_STAGING_BYTES ((size_t)2 << 30)
/* The same for rows relaxed on the CPU, where a block costs only its
 * sources' work: a staging buffer is memory touched fresh once, which
 * costs about 1 s per GB on a VM (measured: 3.2 GB in 2.7-7 s), and
 * small blocks keep that off the time of a large result. */
#define GSP_APSP_CPU_STAGING_BYTES ((size_t)64 << 20)

/* ---- Johnson ---- */

/* The reweighted graph: A's CSR pattern with weights w' = w + h(u) - h(v)
 * in type *tw (INT32 A becomes INT64 when a path sum could overflow INT32).
 * *x is a new array of m values of *tw. Floats: w' is computed in double
 * and a value that rounds below 0 is stored as 0. Integers are exact;
 * GSP_TOO_LARGE when the potentials or reweighted sums do not fit (h
 * saturated, or (n-1) * max w' beyond INT64). */
gsp_info gsp__johnson_reweight(void **x, gsp_type *tw, const struct gsp_matrix_s *A, const int64_t *h_int,
                               const double *h_fp, const char *fn);

/* Upper bound of d'(s,v) = d(s,v) + h(s) - h(v) for d <= cutoff: the limit
 * for the kernels on the reweighted graph (cutoff - min h, rounded up into
 * type tw; the largest finite value without a cutoff). */
gsp__value gsp__johnson_limit(gsp_type tw, bool has_cutoff, double cutoff, const int64_t *h_int, const double *h_fp,
                              int64_t n);

/* The potentials h (n values of A's type t) widened for the arithmetic
 * above: *h_int (integer t) or *h_fp (float t), a new array. */
gsp_info gsp__johnson_widen(int64_t **h_int, double **h_fp, const void *h, gsp_type t, int64_t n);

/* ---- finishing rows ---- */

/* How rows of one block become result rows. */
typedef struct {
  int64_t n;
  gsp_type tw;     /* type of the computed distances */
  gsp__value wlim; /* computed values above this are "no path" */
  gsp_type out;    /* output type */
  /* Johnson potentials, or both NULL: h_int for integer types, h_fp for
   * floats; d = d' - h(s) + h(v). */
  const int64_t *h_int;
  const double *h_fp;
  /* Mapped-back distances are values of A's type: 1 = INT32 computed in
   * INT64 (above INT32_MAX - 1 is "no path", below INT32_MIN clamps, as
   * saturation does), 2 = FP32 computed in double (rounded), 0 = as is. */
  int to_t;
  bool has_cutoff;
  double cutoff; /* applied to the final distance, as double */
} gsp__apsp_finish;

/* Whether finishing changes anything (else the computed rows are the
 * result as they are). */
bool gsp__apsp_finish_needed(const gsp__apsp_finish *f);

/* Rows k = 0..nb-1 (source src[k]): w (nb x n, type tw) -> out (nb x n,
 * type out, +inf / INT_MAX for no path); par (may be NULL; nb x n) loses
 * the parents of dropped vertices (beyond the cutoff or the output type's
 * range) except those still on a kept vertex's tree path. out may be w
 * itself when tw == out. Errors: GSP_OUT_OF_MEMORY. */
gsp_info gsp__apsp_finish_rows(void *out, int64_t *par, const void *w, const int64_t *src, int64_t nb,
                               const gsp__apsp_finish *f, int nthreads);

/* ---- the run (apsp_run.c) ---- */

/* What a run does, fixed by the entry from the checks and the plan. */
typedef struct {
  const struct gsp_matrix_s *A; /* the caller's A in CSR form */
  int64_t n, ns, B;             /* vertices, result rows, rows per block */
  const int64_t *src;           /* the ns sources */
  gsp_type out;                 /* output type */
  bool paths;
  bool p32;      /* parents into int32 (computed as int64 rows) */
  bool identity; /* the sources are 0 .. n-1: a closure is the result as it is */
  bool negative; /* some weight < 0 */
  bool has_cutoff;
  double cutoff;
  gsp_backend backend; /* the CUDA backend when required, else the resolved one */
  int nthreads;
  bool gpu;      /* offer the computation to the GPU (the plan's) */
  bool required; /* GSP_BACKEND_CUDA asked for: no CPU fallback for lack of memory */
  int64_t batch; /* GPU sources per pass (0: the kernel's choice) */
  size_t cap;    /* device memory cap for the closure */
  int gpus;      /* GPUs for the closure */
} gsp__apsp_config;

/* Where the rows go: the callback (with the caller's rows_out or NULL in
 * dx), or the result arrays. */
typedef struct {
  gsp_apsp_rows_fn rows;
  void *rows_ctx;
  void *dx;    /* result values (ns x n, out) */
  void *px;    /* result parents, NULL without paths or with a callback */
  uint8_t *db; /* the result's presence flags (ns x n), written by the GPU
                  kernel where it computes rows straight into the result */
  void (*progress)(double fraction, void *ctx);
  void *progress_ctx;
} gsp__apsp_sink;

/* What the run reports back. */
typedef struct {
  bool ran_gpu;   /* a kernel ran on the GPU */
  int64_t blocks; /* blocks delivered */
  /* stays true while every block's presence came from the GPU kernel into
   * db; then nvals counts the entries */
  bool pres_ok;
  int64_t nvals;
  double device_s, copy_s; /* summed GPU kernel and copy seconds */
} gsp__apsp_tally;

typedef struct {
  gsp__apsp_config cfg;
  gsp__apsp_sink to;
  gsp__apsp_tally got;
} gsp__apsp_run;

/* Run algo (never AUTO) as r->cfg says, into r->to; A is the caller's
 * handle, sym the star's analysis (GSP_APSP_SPARSE_STAR). *whole: with
 * Floyd-Warshall on all sources in order and nothing to finish, the
 * closure matrix itself (published), else left NULL. */
gsp_info gsp__apsp_compute(gsp__apsp_run *r, gsp_apsp_algo algo, gsp_matrix A, const gsp__star_symbolic *sym,
                           struct gsp_matrix_s **whole);

/* ---- the call (gsp_apsp.c; its result: apsp_result.c) ---- */

/* The call, checked (gsp_apsp.c). */
typedef struct {
  gsp_apsp_opts o;
  gsp_apsp_advanced oa;
  gsp_type out, pt; /* output and parent types */
  int64_t n, ns;    /* vertices, result rows */
  size_t cells;     /* ns x n */
  bool paths, p32;  /* parents asked for; as int32 into a result matrix */
} gsp__apsp_args;

/* What the call allocates and owns until it commits. */
typedef struct {
  struct gsp_matrix_s *D, *P, *whole;
  int64_t *src;
  void *dx, *px;
  uint8_t *db;
  gsp__star_symbolic sym;
} gsp__apsp_owned;

/* Releases everything and leaves w empty (so a second call does nothing). */
void gsp__apsp_owned_free(gsp__apsp_owned *w);

/* The result's arrays (none with a callback): values, parents, and with
 * presence the flags the GPU relaxation writes beside the rows. */
gsp_info gsp__apsp_alloc_result(gsp__apsp_owned *w, const gsp__apsp_args *c, bool presence);

/* Hand the result over: the closure matrix itself, or the result matrices
 * made from the arrays (none with a callback); got: the run's tally. */
gsp_info gsp__apsp_commit(gsp_matrix *dist, gsp_matrix *parent, gsp__apsp_owned *w, const gsp__apsp_args *c,
                          const gsp__apsp_tally *got);

#endif /* GSP_APSP_H */
