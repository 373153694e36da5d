/*
 * Bellman-Ford inside the library: the potentials Johnson's algorithm needs
 * (gsp__bf_potentials), and the shared machinery behind gsp_bellman_ford
 * and gsp_negative_cycle (src/ops/bf/gsp_bellman_ford.c, src/ops/bf/bf_cpu*.c).
 */
#ifndef GSP_BELLMAN_FORD_H
#define GSP_BELLMAN_FORD_H

#include <stdint.h>

#include "bf_shared.h"
#include "sssp_cpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Johnson potentials: h(v) = the distance to v from a virtual source joined to every vertex by a 0-weight arc (so h <= 0), in A's type and arithmetic (integers saturate as MIN_PLUS). h: n values of A's type, written only on success. backend: CPU or CUDA (AUTO: process default, a GPU decline runs on the CPU under AUTO and fails under CUDA, as elsewhere). GSP_NEGATIVE_CYCLE when A has a negative cycle anywhere; with cycle/cycle_len non-NULL (cycle has room for n vertices) one such cycle's vertices are returned in order (cycle[0] -> cycle[1] -> ... -> cycle[len-1] -> cycle[0] are arcs whose weights sum < 0). */
gsp_info gsp__bf_potentials(void *h, struct gsp_matrix_s *A, gsp_backend backend, int64_t *cycle, int64_t *cycle_len);

/* ---- the CPU side (the rounds the CUDA kernel shares: bf_shared.h) ---- */

/* A cycle of the parent graph pred[n] (entries: a vertex, or a marker of
 * bf_shared.h): the first one met walking from vertices 0, 1, ... in turn,
 * written to cycle in arc order (pred[cycle[i+1]] == cycle[i]) starting at
 * its smallest vertex. Returns its length, 0 when there is none. scratch:
 * n values. The CPU rounds and gsp_bellman_ford's GPU path both pick their
 * cycle with it. */
int64_t gsp__bf_find_cycle(int64_t *cycle, const int64_t *pred, int64_t n, int64_t *scratch);

/* Check A (handle, square, numeric type, no NaN or -inf weight; negative
 * weights allowed), make it host CSR and fill *g (no cutoff). */
gsp_info gsp__bf_prepare(gsp__sssp_graph *g, struct gsp_matrix_s *A, gsp_backend backend, const char *fn);

/*
 * Bellman-Ford from the sources src[0..nsrc) (all at distance 0) on the
 * CPU: d[n] (type g->t) gets the distances, +inf where unreached, and
 * *rounds the rounds run. GSP_NEGATIVE_CYCLE (no message recorded) when a
 * cycle turns up in the parent graph; cycle (room for n) then holds it in
 * arc order from its smallest vertex, *clen its length.
 */
gsp_info gsp__bf_cpu(void *d, const gsp__sssp_graph *g, const int64_t *src, int64_t nsrc, int64_t *cycle, int64_t *clen,
                     int64_t *rounds);

/* Integer graphs whose distances reached INT_MIN: Bellman-Ford again in
 * exact 128-bit arithmetic from the same sources; *clen = 0 when no
 * negative cycle is reachable, else its length and cycle holds it. */
gsp_info gsp__bf_exact_cycle(const gsp__sssp_graph *g, const int64_t *src, int64_t nsrc, int64_t *cycle, int64_t *clen);

#ifdef __cplusplus
}
#endif
#endif /* GSP_BELLMAN_FORD_H */
