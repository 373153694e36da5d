/*
 * The C gateway to the CUDA backend: the only header outside src/cuda that
 * names anything of it. No CUDA types appear here. The plugin defines these
 * functions; the library calls them through the plugin's table
 * (gsp_cuda_plugin.h), which it has whether or not it was built with CUDA.
 */
#ifndef GSP_CUDA_H
#define GSP_CUDA_H

#include <stdbool.h>
#include <stddef.h>

#include "gsp_diag.h"
#include "gsp_progress.h"
#include "gsp_host.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A result the gateway hands back as host arrays, made by the counted
 * allocator, which the caller takes over (into a matrix it allocated:
 * gsp__matrix_set_storage): CSR (p[nrows + 1], j[nvals], x[nvals], columns
 * sorted in each row) when p != NULL, else dense row-major
 * x[nrows * ncols] with presence b (NULL: every entry present). */
typedef struct gsp_cuda_host_result {
  gsp_index *p, *j;
  void *x;
  uint8_t *b;
  int64_t nvals;
} gsp_cuda_host_result;

/* A matrix's host arrays as the GPU reads them (gsp__matrix_cuda_arrays
 * makes it from a matrix whose host storage the operation has made CSR or
 * dense) and the slot of its device cache (the matrix's `dev`: the plugin
 * fills, reuses and replaces what it holds; the core frees it with
 * gsp_cuda_dev_free). The plugin reads nothing else of the matrix and changes none of its
 * storage. */
struct gsp_dev_matrix;
typedef struct gsp_cuda_arrays {
  gsp_type type;
  int64_t nrows, ncols, nvals;
  /* CSR when p != NULL: p[nrows + 1], j[nvals], x[nvals], columns sorted in
   * each row; bit rows when bits != NULL; else dense row-major
   * x[nrows * ncols] with presence b (NULL: every entry present) */
  const gsp_index *p, *j;
  const void *x;
  const uint8_t *b;
  const uint64_t *bits; /* instead: bool rows of wpr 64-bit words */
  int64_t wpr;
  struct gsp_dev_matrix **dev;
} gsp_cuda_arrays;

/* A vector as the GPU reads it (gsp__vector_cuda_arrays): its host arrays
 * (stale when the device holds the only valid copy: then *dev has it), its
 * entry count and the slot of its device copy (the vector's `dev`: the
 * plugin fills and replaces what it holds; the core frees it with
 * gsp_cuda_vec_free). */
struct gsp_dev_vector;
typedef struct gsp_cuda_vec {
  gsp_type type;
  int64_t n, nvals;
  const void *x;    /* x[n] */
  const uint8_t *b; /* presence b[n]; NULL when every entry is present */
  struct gsp_dev_vector **dev;
} gsp_cuda_vec;

/* Whether a device is usable; fills desc (device name, or why not). Never
 * creates a context in a way that breaks a later fork: callers only ask when
 * they are about to use the GPU. */
bool gsp_cuda_usable(char *desc, size_t len);

/* Start device 0's context (about 0.3-0.5 s the first time in a process)
 * and load the many-source shortest-path kernels (gsp_apsp's GPU path)
 * when a device is usable; nothing otherwise. For callers that overlap it
 * with work of their own (gsp_cuda_warm_up). */
void gsp_cuda_start(void);

/* What a matrix's device copy holds (*A->dev), for the operation's
 * decisions: whether a closure can run on it in place, whether a host copy
 * must be made first, what it occupies. */
typedef struct {
  bool any;         /* a device copy exists (dense or the sparse cache) */
  int64_t np;       /* the dense copy's padded order (0: none) */
  gsp_semiring enc; /* whose zero marks "absent" in it */
  bool closed;      /* it holds the closure under closed_sr */
  gsp_semiring closed_sr;
  size_t bytes; /* of the dense copy */
} gsp_cuda_dense_info;
void gsp_cuda_dense_state(gsp_cuda_dense_info *out, const gsp_cuda_arrays *A);

/*
 * The closure of A on one GPU with A resident (src/ops/closure decides that
 * it runs here: gsp__closure_branch). The device copy (*A->dev) is used
 * when it has one, else made from the host arrays (a NaN weight is
 * GSP_INVALID_VALUE, checked in that pass); the operation has released a
 * copy of another encoding or order and, where a cycle could destroy the
 * only copy (dev_only: no valid host copy), made a host copy first. On
 * success *A->dev holds A* with *nvals its entries (the caller marks A
 * device-only) and, when succ != NULL, *succ the n x n INT64 successor
 * matrix as dense arrays (MIN_PLUS / MAX_PLUS with provably loop-free
 * successors only); on error A's content is unchanged (a device copy
 * changed in place is released when the host copy is valid) and *succ
 * holds no arrays. progress (may be NULL): the caller's callback, as
 * gsp_cuda_fw_device calls it.
 */
gsp_info gsp_cuda_closure_resident(const gsp_cuda_arrays *A, bool dev_only, int64_t *nvals, gsp_cuda_host_result *succ,
                                   gsp_semiring s, bool reflexive, const gsp__progress *progress);

/* Number of usable devices (Hopper); the multi-GPU closure uses the first
 * N of them. */
int gsp_cuda_usable_count(void);

/*
 * Shortest paths on the GPU (src/cuda/gsp_cuda_sssp*.cu). A is host CSR
 * with checked non-negative weights; lim points at one value of A's type
 * (distances above it are dropped: the cutoff). Declines (*taken = false,
 * GSP_SUCCESS, nothing written) when the graph is too large for int32
 * vertex ids or for the free device memory.
 *
 * gsp_cuda_sssp: out->dist[n] (A's type) gets the distances from the
 * nearest of src[0..nsrc) (+inf where unreached); out->parent[n] (may be
 * NULL) follows the strict rule of gsp__sssp_cpu_tree, -1 where unreached
 * (out->root must be NULL: the caller derives the roots from the parents,
 * GSP_PANIC otherwise); *nvals = the vertices reached
 * (distance <= lim), and unless that is all n the presence arrays out->b[]
 * (see src/ops/sssp/sssp_gather.h) are written too. The arrays may be new,
 * uninitialised memory: the gateway maps their pages in parallel while the
 * kernel runs and fills them in one parallel pass from pinned staging.
 * plan is the caller's choice of algorithm and parameters; stats (may be
 * NULL) receives the call's phase times.
 *
 * gsp_cuda_msssp: Okuyama's batched kernel; dist[k*n + v] (A's type) is the
 * distance from src[k] (+inf where unreached), parent (may be NULL) the same
 * layout (-1 where unreached), or parent32 (may be NULL; instead of
 * parent) the same as int32, present[k*n + v] = 1 where reached (and the
 * same in ppresent, when not NULL: the parents' presence) and *nvals =
 * their count. batch: sources per pass, the caller's choice (a multiple
 * of 32, at most 1024, that fits the device: gsp__msssp_batch). stats (may
 * be NULL) receives the call's phase times.
 */
struct gsp__sssp_sink;
/* How gsp_cuda_sssp runs a call: the operation's decision
 * (gsp__sssp_gpu_plan). */
typedef struct {
  gsp_sssp_algo algo; /* never GSP_SSSP_AUTO */
  double delta;       /* bucket width (> 0) */
  int chain;          /* near-far: rounds a warp relaxes the vertices it just
                         improved, before the grid barrier (0: none) */
  int blocks_per_sm;  /* near-far: persistent blocks per SM (0: as many as
                         fit, at most 4) */
  int64_t hub;        /* near-far: out-degree from which a vertex's arcs are
                         spread over the whole grid (at least 32) */
} gsp_cuda_sssp_plan;
gsp_info gsp_cuda_sssp(const struct gsp__sssp_sink *out, int64_t *nvals, const gsp_cuda_arrays *A, const int64_t *src,
                       int64_t nsrc, const gsp_cuda_sssp_plan *plan, const void *lim, gsp_cuda_sssp_stats *stats,
                       bool *taken);
gsp_info gsp_cuda_msssp(void *dist, int64_t *parent, int32_t *parent32, uint8_t *present, uint8_t *ppresent,
                        int64_t *nvals, const gsp_cuda_arrays *A, const int64_t *src, int64_t nsrc, const void *lim,
                        int64_t batch, gsp_cuda_sssp_stats *stats, bool *taken);

/* gsp_cuda_sssp keeps its view of A's device CSR cache (A->dev, shared
 * with the sparse products) for the next call. gsp_cuda_weights_checked:
 * whether A has that view, which means its weights passed the
 * shortest-path checks and A has not changed since; *wsum is then the sum
 * of its finite weights (for the default delta). gsp_cuda_dev_free frees
 * it with the rest of the cache. */
bool gsp_cuda_weights_checked(const gsp_cuda_arrays *A, double *wsum);

/* ---- gsp_apsp's planner (src/cuda/sssp/gsp_cuda_apsp.cu) ---- */

/* Free and total device memory in bytes; false when the query fails. */
bool gsp_cuda_memory(size_t *free_bytes, size_t *total_bytes);

/* Device bytes gsp_cuda_msssp takes for A with `batch` sources a pass
 * (batch a multiple of 32), with or without parents. */
size_t gsp_cuda_msssp_bytes(const gsp_cuda_arrays *A, int64_t batch, bool parents);

/*
 * Bellman-Ford on the GPU (src/cuda/bf/gsp_cuda_bf.cu), the rounds of
 * gsp__bf_cpu: A is host CSR checked by gsp__bf_prepare (negative weights
 * allowed), lim one value of A's type (the largest finite distance). dist[n]
 * gets the distances from src[0..nsrc) (+inf where unreached) and parent[n]
 * (may be NULL) the tree of gsp__sssp_cpu_tree with strict false (the BFS
 * rule). GSP_NEGATIVE_CYCLE (no message recorded, dist and parent
 * unspecified) when the parent graph of a round of gsp__bf_check_round
 * shows a cycle: pred[n] is then that parent graph (bf_shared.h's form),
 * for the caller to pick the cycle out. Declines as gsp_cuda_sssp does.
 */
gsp_info gsp_cuda_bf(void *dist, int64_t *parent, int64_t *pred, const gsp_cuda_arrays *A, const int64_t *src,
                     int64_t nsrc, const void *lim, bool *taken);

/* Contract: only gsp_cuda_closure_resident's result is left device-only, and
 * its content is then free of NaN (its input was checked). gsp_closure relies on
 * that to skip the NaN scan of device-resident input; a new producer of
 * device-only results must keep it true or extend that check. */

/* The dense device copy of A (n x n, A->type) into host arrays the core
 * owns: bool as bit rows of (n + 63) / 64 words into x; else the values
 * into x (n x n, row-major) and, when b != NULL, b[e] = whether entry e is
 * present (not the zero of the copy's encoding). */
gsp_info gsp_cuda_dense_download(void *x, uint8_t *b, const gsp_cuda_arrays *A);
/* The dense device copy of numeric A straight into out (n x n, row-major,
 * absent entries as *absent; absent NULL only when every entry is present)
 * and set *done. *done = false, nothing written, when A has no dense device
 * copy: the caller downloads instead. */
gsp_info gsp_cuda_dense_export(void *out, const void *absent, const gsp_cuda_arrays *A, bool *done);

/* Free a device copy (NULL: nothing); the caller clears its slot. */
void gsp_cuda_dev_free(struct gsp_dev_matrix *dev);

/* gsp_matrix_device_view's device side (arguments checked by the caller:
 * A numeric and square, enc one of the four path semirings): A's dense
 * device copy with absent entries holding the zero of enc, reused when it
 * has that encoding, else made by an upload from A's host arrays (valid:
 * the caller downloads a device-only A whose copy does not serve) that
 * replaces *A->dev once it exists. The device is synchronised before
 * returning. GSP_NO_DEVICE without a usable GPU. */
gsp_info gsp_cuda_dense_view(void **data, int64_t *ld, int *device, const gsp_cuda_arrays *A, gsp_semiring enc);

/* ---- sparse products (src/cuda/gsp_cuda_ops*.cu) ----
 *
 * Residency: a matrix operand gets a device CSR copy of its host CSR (and,
 * when a product needs it, of its transpose, built by cuSPARSE), cached in
 * A->dev until the host data changes or A is freed. Vector operands get a
 * device copy (values and presence) cached in v->dev; the result w of
 * gsp_cuda_mxv stays on the device only until the core downloads it
 * (gsp_cuda_vec_download). Arguments are already checked by the
 * caller. Each entry declines (*taken = false, GSP_SUCCESS, nothing
 * changed) for cases without a kernel (more than INT32_MAX - 1 rows,
 * columns or entries); when *taken is true the return code is the result,
 * and on error every operand keeps its content. */

/* w<mask> = accum(w, op(A) (+.*) u) with op(A) = A' when tr (the caller's
 * mapping of gsp_mxv / gsp_vxm and their transpose flags). mask may be
 * NULL. On success *w->dev holds the result and *w_nvals its entries (the
 * caller marks w device-only). */
gsp_info gsp_cuda_mxv(int64_t *w_nvals, const gsp_cuda_vec *w, const gsp_cuda_vec *mask, gsp_binop accum,
                      gsp_semiring s, const gsp_cuda_arrays *A, const gsp_cuda_vec *u, const gsp_desc *desc, bool tr,
                      const char *fn, bool *taken);

/* *T = op(A) (+.*) op(B) as host arrays (m x n) for the caller's
 * write-back. The operation has made the forms it wants the GPU to read
 * (gsp_mxm): both operands on the host, A dense for cuBLAS, else CSR; B
 * dense, or CSR for sparse x sparse. The product is dense with a presence
 * array where some entries are absent when B is dense (sparse x dense:
 * cuSPARSE SpMM for PLUS_TIMES on full FP32/FP64 B, else our kernel; dense
 * x dense: cuBLAS gemm), CSR for sparse x sparse (cuSPARSE SpGEMM).
 * *T holds no arrays when not taken or on error. */
gsp_info gsp_cuda_mxm(gsp_cuda_host_result *T, gsp_semiring s, const gsp_cuda_arrays *A, const gsp_cuda_arrays *B,
                      bool ta, bool tb, const char *fn, bool *taken);

/* The device copy of v (*v->dev) into host arrays of the core's: values
 * x[n] and, unless b is NULL (every entry present), presence b[n]. */
gsp_info gsp_cuda_vec_download(void *x, uint8_t *b, const gsp_cuda_vec *v);
/* Free a vector's device copy (NULL: nothing); the caller clears its slot. */
void gsp_cuda_vec_free(struct gsp_dev_vector *dev);

#ifdef __cplusplus
}
#endif
#endif /* GSP_CUDA_H */
