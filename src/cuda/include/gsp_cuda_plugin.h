/*
 * The CUDA backend as a plugin: libgsp_cuda.so (the .cu files of src/cuda) is
 * opened at run time by the core's loader (src/core/cuda_loader.c), so
 * libgsp itself never links the CUDA libraries and runs where they are
 * absent. The two sides meet through two tables of function pointers:
 *
 *  - gsp__cuda_host: four functions of the core (the counted allocator, the
 *    log of errors, declines and burble lines, the thread team). The
 *    plugin's shims (gsp_cuda_host_shims.c) define the core's names of them
 *    and forward through it, so the plugin allocates and records errors
 *    through the one core a process has (the allocation-failure tests count
 *    every allocation).
 *  - gsp__cuda_api: every entry of the C gateway (gsp_cuda.h, gsp_cuda_fw.h,
 *    gsp_cuda_scale.h), which the plugin defines. The operations and the
 *    core call them through it (gsp__cuda_get, gsp__cuda_plugin), never by
 *    name: libgsp does not define those names. Every argument is an array,
 *    a size, a type or a plan; the plugin calls nothing of the core but the
 *    four functions above.
 *
 * The plugin exports gsp_cuda_plugin_open (type gsp__cuda_plugin_open_fn)
 * and, for tests and benchmarks only, gsp_cuda_plugin_testing (the fault
 * injection, forced algorithms, the bench's phase timings: settings that
 * stay out of the production tables). Both sides come from one build: the
 * ABI number and the table sizes are checked at open. No CUDA types here.
 */
#ifndef GSP_CUDA_PLUGIN_H
#define GSP_CUDA_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gsp_cuda.h"
#include "gsp_cuda_fw.h"
#include "gsp_cuda_scale.h"
#include "gsp_host.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Raise with any change of a table. */
#define GSP_CUDA_PLUGIN_ABI    11
#define GSP_CUDA_PLUGIN_SYMBOL "gsp_cuda_plugin_open"
/* The entry of the settings only tests and benchmarks use (a separate
 * symbol: none of it travels through the production tables). */
#define GSP_CUDA_PLUGIN_TESTING_SYMBOL "gsp_cuda_plugin_testing"

/* What a plugin records through the host's log: an error of the calling
 * thread (as gsp__error), why the GPU declines a call (gsp__device_decline)
 * or a burble line (gsp__burble). */
typedef enum { GSP__CUDA_LOG_ERROR, GSP__CUDA_LOG_DECLINE, GSP__CUDA_LOG_BURBLE } gsp__cuda_log_kind;

/* The core, as the plugin sees it: only what must be the process's one copy.
 * Everything else comes down in a call's arguments (settings, plans) or the
 * plugin answers itself (type sizes and names, size arithmetic, the result
 * passes of sssp_gather.h); the plugin never calls into core or ops
 * otherwise. */
typedef struct {
  int abi;
  size_t size; /* sizeof(gsp__cuda_host) */
  /* count x size bytes from the counted allocator (zeroed when `zero`);
   * NULL when the product overflows or the allocation fails */
  void *(*alloc)(size_t count, size_t size, bool zero);
  void (*free)(void *p);
  /* records msg (already formatted) as `kind` says and returns code; for
   * GSP__CUDA_LOG_BURBLE it returns whether the burble is on, and msg NULL
   * only asks that */
  gsp_info (*log)(gsp__cuda_log_kind kind, gsp_info code, const char *file, int line, const char *msg);
  /* runs body on a team of nthreads of the library's threads and returns
   * the team's size; body NULL runs nothing and returns the library's
   * thread count (gsp_set_threads) */
  int (*team)(int nthreads, void (*body)(void *ctx, int t, int nt), void *ctx);
} gsp__cuda_host;

/* The gateway, as the core sees it: one pointer per function of
 * gsp_cuda.h, gsp_cuda_fw.h and gsp_cuda_scale.h, same names. */
typedef struct {
  int abi;
  size_t size; /* sizeof(gsp__cuda_api) */
  /* gsp_cuda.h */
  bool (*usable)(char *desc, size_t len);
  void (*start)(void);
  int (*usable_count)(void);
  gsp_info (*closure_resident)(const gsp_cuda_arrays *A, bool dev_only, int64_t *nvals, gsp_cuda_host_result *succ,
                               gsp_semiring s, bool reflexive, const gsp__progress *progress);
  void (*dense_state)(gsp_cuda_dense_info *out, const gsp_cuda_arrays *A);
  gsp_info (*sssp)(const struct gsp__sssp_sink *out, int64_t *nvals, const gsp_cuda_arrays *A, const int64_t *src,
                   int64_t nsrc, const gsp_cuda_sssp_plan *plan, const void *lim, gsp_cuda_sssp_stats *stats,
                   bool *taken);
  gsp_info (*msssp)(void *dist, int64_t *parent, int32_t *parent32, uint8_t *present, uint8_t *ppresent, int64_t *nvals,
                    const gsp_cuda_arrays *A, const int64_t *src, int64_t nsrc, const void *lim, int64_t batch,
                    gsp_cuda_sssp_stats *stats, bool *taken);
  bool (*weights_checked)(const gsp_cuda_arrays *A, double *wsum);
  bool (*memory)(size_t *free_bytes, size_t *total_bytes);
  size_t (*msssp_bytes)(const gsp_cuda_arrays *A, int64_t batch, bool parents);
  gsp_info (*bf)(void *dist, int64_t *parent, int64_t *pred, const gsp_cuda_arrays *A, const int64_t *src, int64_t nsrc,
                 const void *lim, bool *taken);
  gsp_info (*dense_download)(void *x, uint8_t *b, const gsp_cuda_arrays *A);
  gsp_info (*dense_export)(void *out, const void *absent, const gsp_cuda_arrays *A, bool *done);
  void (*dev_free)(struct gsp_dev_matrix *dev);
  gsp_info (*dense_view)(void **data, int64_t *ld, int *device, const gsp_cuda_arrays *A, gsp_semiring enc);
  gsp_info (*mxv)(int64_t *w_nvals, const gsp_cuda_vec *w, const gsp_cuda_vec *mask, gsp_binop accum, gsp_semiring s,
                  const gsp_cuda_arrays *A, const gsp_cuda_vec *u, const gsp_desc *desc, bool tr, const char *fn,
                  bool *taken);
  gsp_info (*mxm)(gsp_cuda_host_result *T, gsp_semiring s, const gsp_cuda_arrays *A, const gsp_cuda_arrays *B, bool ta,
                  bool tb, const char *fn, bool *taken);
  gsp_info (*vec_download)(void *x, uint8_t *b, const gsp_cuda_vec *v);
  void (*vec_free)(struct gsp_dev_vector *dev);
  /* gsp_cuda_fw.h */
  int64_t (*padded_n)(gsp_type t, int64_t n);
  size_t (*closure_bytes)(gsp_type t, int64_t n, bool paths);
  gsp_info (*fw_device)(void *d, int32_t *succ, int64_t n, int64_t np, gsp_type t, gsp_semiring s, bool reflexive,
                        bool nonneg_i32, const gsp__progress *progress, bool *cycle);
  gsp_info (*count_present)(int64_t *count, const void *d, int64_t n, int64_t np, gsp_type t, gsp_semiring s);
  gsp_info (*fill_zero)(void *d, int64_t np, gsp_type t, gsp_semiring s);
  /* gsp_cuda_scale.h */
  gsp_info (*fw_ooc)(void *H, int64_t n, gsp_type t, gsp_semiring s, bool reflexive, const gsp_cuda_ooc_plan *plan,
                     const gsp__progress *progress, bool *cycle, gsp_cuda_ooc_report *rep);
  bool (*mgpu_built)(void);
  size_t (*mgpu_bytes)(gsp_type t, int64_t n, int gpus);
  gsp_info (*mgpu_create)(gsp_cuda_mgpu *out, gsp_type t, int64_t n, int gpus, size_t cap_per_gpu, const char *nccl);
  void (*mgpu_destroy)(gsp_cuda_mgpu m);
  void (*mgpu_grid)(const gsp_cuda_mgpu m, int *grid_rows, int *grid_cols);
  void (*mgpu_block)(const gsp_cuda_mgpu m, int g, void **d, int *device, int64_t *row0, int64_t *rows, int64_t *col0,
                     int64_t *cols);
  gsp_info (*mgpu_fill)(gsp_cuda_mgpu m, gsp_semiring s);
  gsp_info (*mgpu_upload)(gsp_cuda_mgpu m, const void *H, gsp_semiring s);
  gsp_info (*mgpu_run)(gsp_cuda_mgpu m, gsp_semiring s, bool reflexive, bool nonneg_i32, const gsp__progress *progress,
                       bool *cycle);
  gsp_info (*mgpu_download)(gsp_cuda_mgpu m, void *H);
} gsp__cuda_api;

/* The plugin's entry: checks host's ABI and size, keeps host for the shims
 * and fills *api. Returns false with a reason in why[len] on a mismatch. */
typedef bool (*gsp__cuda_plugin_open_fn)(const gsp__cuda_host *host, gsp__cuda_api *api, char *why, size_t len);

/* Test and benchmark settings, behind GSP_CUDA_PLUGIN_TESTING_SYMBOL
 * (type gsp__cuda_plugin_testing_fn: the table, with the plugin's ABI
 * number and the table's size to check). The core's gsp__debug_* calls
 * and the bench-only gsp_cuda_fw_phases and gsp_cuda_fw_bits_impl reach the
 * plugin through it alone. */
typedef struct {
  int abi;
  size_t size; /* sizeof(gsp__cuda_testing) */
  /* device-fault injection: one fault of `kind` at the k-th CUDA call */
  void (*device_fault_after)(long long k, gsp_fault kind);
  long long (*device_fault_disarm)(void);
  /* cuSPARSE SpGEMM algorithm of gsp_mxm (0: automatic; 1, 2, 3) */
  void (*spgemm_alg)(int alg);
  /* bytes of one staging slot of gsp_cuda_sssp's near-far results (0: the
   * default; >= 16: tests force many tiny chunks with it) */
  void (*sssp_stage_bytes)(size_t bytes);
  /* gsp_cuda_fw_phases (gsp_cuda_fw.h): the bench's phase timings */
  gsp_info (*fw_phases)(void *d, int64_t n, int64_t np, gsp_type t, gsp_semiring s, bool nonneg_i32, int variant,
                        float ms[3]);
  /* gsp_cuda_fw_bits_impl (gsp_cuda_fw.h): the bench's choice of product */
  gsp_info (*fw_bits_impl)(void *d, int64_t n, int64_t np, bool reflexive, int tc_depth);
} gsp__cuda_testing;
typedef const gsp__cuda_testing *(*gsp__cuda_plugin_testing_fn)(void);

/* ---- the core's side (src/core/cuda_loader.c) ---- */

/* The gateway table when the plugin is loaded and a device usable, else
 * NULL with why the GPU cannot be used in why[len] (may be NULL): no plugin
 * installed, no CUDA driver / GPU, a plugin that does not load. Loads the
 * plugin on the first call (once per process, thread-safe). */
const gsp__cuda_api *gsp__cuda_plugin(char *why, size_t len);
/* The gateway table for a device call of fn: *api, or GSP_NO_DEVICE with
 * "fn: <why the GPU cannot be used>" recorded. */
gsp_info gsp__cuda_get(const gsp__cuda_api **api, const char *fn);
/* The table if the plugin was already loaded, else NULL; never loads (for
 * releases and downloads: without the plugin no object has device data). */
const gsp__cuda_api *gsp__cuda_plugin_loaded(void);
/* The plugin's test table, loading the plugin if needed; NULL when it
 * does not load (then no device call can happen either). */
const gsp__cuda_testing *gsp__cuda_plugin_testing(void);

#ifdef __cplusplus
}
#endif
#endif /* GSP_CUDA_PLUGIN_H */
