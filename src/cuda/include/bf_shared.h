/*
 * The parent graph of Bellman-Ford and the rounds at which it is searched
 * for a cycle: the contract of gsp_cuda_bf (src/cuda/bf/gsp_cuda_bf.cu),
 * which the CPU rounds (src/ops/bf/bf_cpu*.c) follow too, so that both
 * search the same parent graph at the same rounds; the search itself is
 * the operation's (gsp__bf_find_cycle), so both find the same cycle.
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

#ifdef __cplusplus
}
#endif
#endif /* GSP_BF_SHARED_H */
