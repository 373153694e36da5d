/*
 * Internal interface of the shortest-path code in src/ops: the prepared
 * graph every kernel reads, the CPU kernels (OpenMP), and the helpers the
 * typed kernel bodies share.
 *
 * Every kernel works for one or many sources at once (nearest-source mode
 * starts from all of them at distance 0) and writes distances into an array
 * of the weight type where "unreached" is the type's +infinity (INT_MAX for
 * integers). Because weights are non-negative and A's addition is monotone,
 * every correct relaxation order reaches the same fixpoint, so the
 * algorithms (and the GPU) agree exactly; parents are then chosen from the
 * distances by a deterministic rule (gsp__sssp_cpu_tree), never by
 * relaxation order.
 */
#ifndef SSSP_CPU_H
#define SSSP_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "gsp_internal.h"
#include "gsp_semiring.h"

/* A graph ready for the kernels: A's CSR arrays (host, sorted rows) and the
 * per-call settings. */
typedef struct {
  int64_t n;
  const gsp_index *p, *j; /* CSR of A: arcs u -> j[e], e in p[u]..p[u+1) */
  /* A itself when stored as CSR, else its CSR copy (gsp__matrix_csr_view):
   * the matrix the GPU kernels take, whatever A's storage */
  struct gsp_matrix_s *csr;
  const void *w; /* weights, type t, all >= 0 and not NaN */
  gsp_type t;
  /* A distance is kept only when d <= lim: the cutoff rounded down into the
   * type, or its largest finite value. +inf (unreached) never passes. */
  gsp__value lim;
  double delta; /* delta-stepping bucket width (> 0) */
  int nthreads;
} gsp__sssp_graph;

/* Single/nearest-source kernels: d[n] (type t) gets the distances from the
 * nearest of src[0..nsrc) (+inf where unreached). Errors: GSP_OUT_OF_MEMORY. */
gsp_info gsp__sssp_cpu_harish(void *d, const gsp__sssp_graph *g, const int64_t *src, int64_t nsrc);
gsp_info gsp__sssp_cpu_da2cf(void *d, const gsp__sssp_graph *g, const int64_t *src, int64_t nsrc);
gsp_info gsp__sssp_cpu_delta(void *d, const gsp__sssp_graph *g, const int64_t *src, int64_t nsrc);

/* root[v] = the source at the top of v's parent chain (parent[s] == s),
 * -1 where parent[v] < 0; GSP_PANIC if a chain closes a cycle,
 * GSP_OUT_OF_MEMORY. O(n): each vertex is walked once (sssp_roots.c). */
gsp_info gsp__sssp_roots(int64_t *root, const int64_t *parent, int64_t n);

/*
 * Parents from final distances d, by one deterministic rule on every
 * backend. An arc u -> v is tight when d[u] + w == d[v] exactly in A's
 * arithmetic; sources get parent[s] = s.
 *  strict (non-negative weights: gsp_sssp, gsp_nearest_source, and the
 *  same rule in gsp__msssp_cpu): parent[v] is the smallest tight tail u
 *  with d[u] < d[v] where one exists (the common case: one sweep over the
 *  arcs). The other reached vertices ("ties", reached only through tight
 *  arcs between equal distances: zero weights, absorbed float sums) get
 *  hop levels by a BFS over tight arcs seeded with all vertices placed so
 *  far (level 0), and parent[v] = the smallest tight tail one level up.
 *  !strict (Bellman-Ford, where a vertex may have only tight tails of
 *  larger distance): the BFS from the sources alone gives every level, and
 *  parent[v] = the smallest tight tail one level up.
 * Either way the result is a tree even with zero-weight cycles (along
 * parents d falls, or d stays and the level falls) and walking it back
 * reproduces d exactly. parent[v] = -1 where d[v] is +inf. root (may be
 * NULL) gets the source at the top of each vertex's tree (-1 where
 * unreached). GSP_PANIC if a reached vertex has no tight path (cannot
 * happen for a fixpoint), GSP_OUT_OF_MEMORY.
 */
gsp_info gsp__sssp_cpu_tree(int64_t *parent, int64_t *root, const void *d, const gsp__sssp_graph *g, const int64_t *src,
                            int64_t nsrc, bool strict);

/*
 * Many sources, one row each: dist[k*n + v] (type t) is the distance from
 * src[k] to v (+inf where unreached); parent (may be NULL) the same layout
 * with the strict rule of gsp__sssp_cpu_tree (-1 where unreached), or
 * parent32 (may be NULL; used instead of parent) the same as int32. OpenMP
 * over sources; each thread runs a sequential Dijkstra (binary heap) and
 * the parent passes for its source, which is the least work per source on
 * a CPU.
 */
gsp_info gsp__msssp_cpu(void *dist, int64_t *parent, int32_t *parent32, const gsp__sssp_graph *g, const int64_t *src,
                        int64_t nsrc);

/*
 * The batched kernel behind gsp__msssp_cpu (msssp_cpu_batch.c): rows
 * out[k*n + v] (type t, +inf where unreached, the same values as Dijkstra)
 * of sources src[0..nb), nb <= gsp__msssp_batch_lanes(t), on a workspace
 * of gsp__msssp_batch_ws_bytes(n) bytes. Returns the arcs it scanned, or
 * -1 (out untouched) when it stopped after scanning more than budget.
 */
int64_t gsp__msssp_batch_lanes(gsp_type t);
size_t gsp__msssp_batch_ws_bytes(int64_t n);
int64_t gsp__msssp_batch_rows(void *out, const gsp__sssp_graph *g, const int64_t *src, int64_t nb, void *ws,
                              int64_t budget);

/* When every weight of g (INT64, FP32, FP64) is a whole number and no
 * shortest path can sum past what INT32 holds (FP32: 2^24, where its sums
 * stop being exact), the same graph with INT32 weights: *g32 (A's arrays,
 * the new weights *w32, the limit floored) computes the same distances in
 * twice the lanes. Else *w32 = NULL. Errors: GSP_OUT_OF_MEMORY. */
gsp_info gsp__msssp_batch_narrow(gsp__sssp_graph *g32, int32_t **w32, const gsp__sssp_graph *g);

/* Tests: force gsp__msssp_cpu's kernel (0: chosen by the work, 1: Dijkstra
 * per source, 2: batched, 3: batched with AVX2 at most, 4: batched with the
 * baseline instructions). gsp__msssp_kernel reads it. */
void gsp__debug_msssp_kernel(int kernel);
int gsp__msssp_kernel(void);

/* ---- helpers for the typed bodies ---- */

/* A per-thread staging buffer that appends vertices to a shared list with
 * one atomic add per 256 entries. */
#define GSP__SSSP_QBUF 256
typedef struct {
  int64_t *list;  /* shared output list */
  int64_t *count; /* shared length, advanced atomically */
  int k;
  int64_t buf[GSP__SSSP_QBUF];
} gsp__sssp_queue;

static inline void gsp__sssp_queue_init(gsp__sssp_queue *q, int64_t *list, int64_t *count) {
  q->list = list;
  q->count = count;
  q->k = 0;
}
static inline void gsp__sssp_flush(gsp__sssp_queue *q) {
  if (q->k == 0) return;
  const int64_t at = __atomic_fetch_add(q->count, (int64_t)q->k, __ATOMIC_RELAXED);
  for (int i = 0; i < q->k; i++) q->list[at + i] = q->buf[i];
  q->k = 0;
}
static inline void gsp__sssp_push(gsp__sssp_queue *q, int64_t v) {
  q->buf[q->k++] = v;
  if (q->k == GSP__SSSP_QBUF) gsp__sssp_flush(q);
}

/* Set a 0/1 flag; true when this call changed it from 0 (acquire-release,
 * so whoever clears a flag sees the distance written before it was set). */
static inline bool gsp__sssp_claim(uint8_t *flag) {
  return __atomic_exchange_n(flag, (uint8_t)1, __ATOMIC_ACQ_REL) == 0;
}
static inline void gsp__sssp_unclaim(uint8_t *flag) {
  (void)__atomic_exchange_n(flag, (uint8_t)0, __ATOMIC_ACQ_REL);
}

/* Parallel regions for rounds with little work run on one thread. */
#define GSP__SSSP_PAR_MIN 256

/* The body of a typed kernel's entry point: return f_i32 ... f_f64 (the
 * instances sssp_cpu_stamp.h made) for weight type t, GSP_PANIC for any
 * other type. */
#define SSSP_DISPATCH(f, t, ...)                                    \
  switch (t) {                                                      \
  case GSP_INT32:                                                   \
    return f##_i32(__VA_ARGS__);                                    \
  case GSP_INT64:                                                   \
    return f##_i64(__VA_ARGS__);                                    \
  case GSP_FP32:                                                    \
    return f##_f32(__VA_ARGS__);                                    \
  case GSP_FP64:                                                    \
    return f##_f64(__VA_ARGS__);                                    \
  default:                                                          \
    return GSP_ERROR(GSP_PANIC, "%s: type %d", __func__, (int)(t)); \
  }

#endif /* SSSP_CPU_H */
