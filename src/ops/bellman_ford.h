/*
 * Bellman-Ford inside the library: the potentials Johnson's algorithm needs
 * (gsp__bf_potentials), and the shared machinery behind gsp_bellman_ford
 * and gsp_negative_cycle (src/ops/gsp_bellman_ford.c, src/ops/bf_cpu*.c).
 */
#ifndef GSP_BELLMAN_FORD_H
#define GSP_BELLMAN_FORD_H

#include <stdint.h>

#include "gsp_internal.h"

/* Johnson potentials: h(v) = the distance to v from a virtual source joined to every vertex by a 0-weight arc (so h <= 0), in A's type and arithmetic (integers saturate as MIN_PLUS). h: n values of A's type, written only on success. backend: CPU or CUDA (AUTO: process default, CUDA declines to CPU as elsewhere). GSP_NEGATIVE_CYCLE when A has a negative cycle anywhere; with cycle/cycle_len non-NULL (cycle has room for n vertices) one such cycle's vertices are returned in order (cycle[0] -> cycle[1] -> ... -> cycle[len-1] -> cycle[0] are arcs whose weights sum < 0). */
gsp_info gsp__bf_potentials(void *h, struct gsp_matrix_s *A, gsp_backend backend, int64_t *cycle, int64_t *cycle_len);

#endif /* GSP_BELLMAN_FORD_H */
