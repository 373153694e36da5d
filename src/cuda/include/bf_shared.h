/*
 * Bellman-Ford pieces both backends use (src/ops/apsp/bf_cpu.c and
 * src/cuda/sssp/gsp_cuda_bf.cu), so they search the same parent graph at
 * the same rounds and find the same cycle.
 */
#ifndef GSP_BF_SHARED_H
#define GSP_BF_SHARED_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Parent-graph markers (parents are vertices otherwise). */
#define GSP__BF_UNREACHED (-1)
#define GSP__BF_ROOT      (-2)

/* After round r (1-based) of n vertices, whether to search the parent
 * graph: at every power of two from 8 (O(n log n) in all) and from round n
 * on, where a change proves a negative cycle. Both backends use it, so they
 * find the same cycle. */
static inline bool gsp__bf_check_round(int64_t r, int64_t n) {
  return r >= n || (r >= 8 && (r & (r - 1)) == 0);
}

/* A cycle of the parent graph pred[n] (entries: a vertex, or a marker
 * above): the first one met walking from vertices 0, 1, ... in turn,
 * written to cycle in arc order (pred[cycle[i+1]] == cycle[i]) starting at
 * its smallest vertex. Returns its length, 0 when there is none. scratch:
 * n values. */
int64_t gsp__bf_find_cycle(int64_t *cycle, const int64_t *pred, int64_t n, int64_t *scratch);

#ifdef __cplusplus
}
#endif
#endif /* GSP_BF_SHARED_H */
