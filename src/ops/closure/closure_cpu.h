/*
 * CPU closure kernels (OpenMP). Internal to src/ops: gsp_closure.c checks the
 * arguments, owns the objects and calls these on raw arrays.
 */
#ifndef GSP_CLOSURE_CPU_H
#define GSP_CLOSURE_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "closure_cpu_isa.h"
#include "gsp_internal.h"

/* Tile edge of the blocked Floyd-Warshall: three fp32 tiles (C, A, B of one
 * phase-3 update) take 48 KiB, inside L2 of every current x86/ARM core, and
 * a k-block of 64 keeps the update compute-bound (docs/performance.md,
 * "Closure in detail": the tile product runs at 0.6-0.9 of its ceiling). */
#define GSP_FW_TILE 64

/*
 * Floyd-Warshall on a full dense row-major n x n array d of type t (absent
 * entries hold the semiring zero). On return d holds M+, or M* when
 * reflexive (diagonal add(one, .)). Without successors it runs the blocked
 * algorithm; when succ != NULL (n x n, written, no initial content needed)
 * it runs the standard k-i-j order and records succ(i,j) = the vertex after
 * i on an optimal path, -1 where there is none, succ(i,i) = i for the empty
 * path of M* (see closure_cpu_fw_body.h for why the order matters).
 *
 * MIN_PLUS (MAX_PLUS) stops as soon as a diagonal entry improves on the
 * semiring one, i.e. a negative (positive) cycle exists: *cycle = true and
 * d, succ hold garbage. Semiring s must be one of the four numeric closure
 * semirings with a numeric t, or OR_AND with GSP_BOOL (byte per entry).
 * progress (may be NULL) is called after each round of k-blocks but the
 * last with the fraction of rounds done.
 * Fails only with GSP_OUT_OF_MEMORY (padding buffer) or GSP_PANIC.
 */
gsp_info gsp__closure_cpu_dense(void *d, int64_t *succ, int64_t n, gsp_type t, gsp_semiring s, bool reflexive,
                                bool *cycle, const gsp__progress *progress);

/*
 * Bit-packed Warshall (OR_AND): bits is n rows of wpr 64-bit words, bit j of
 * row i (word j/64, bit j%64) set when (i,j) is an edge. On return it holds
 * the transitive closure M+, or M* (diagonal set) when reflexive. Bits past
 * column n-1 must be zero and stay zero. progress (may be NULL) as for
 * gsp__closure_cpu_dense, per block of 64 vertices.
 */
void gsp__closure_cpu_bits(uint64_t *bits, int64_t n, int64_t wpr, bool reflexive, const gsp__progress *progress);

/*
 * The tile kernels of the blocked driver, for a caller that places the tiles
 * itself (the distributed closure of libgsp_mpi): these are the very
 * functions fw_blocked calls, so a driver that applies them in the same
 * order (diagonal tile, then its row and column panels in place, then every
 * other tile) gets results bit-identical to gsp__closure_cpu_dense. Tiles
 * are GSP_FW_TILE x GSP_FW_TILE values with a row stride of ld values.
 */
typedef struct gsp__fw_tiles_s {
  size_t esize;           /* bytes per value */
  unsigned char zero[16]; /* the semiring zero ("no path"), one value */
  /* phase 1: Floyd-Warshall inside the diagonal tile T, in place */
  void (*diag)(void *T, int64_t ld);
  /* phases 2 and 3: C = add(C, A (x) B); C may be A or B (phase 2) */
  void (*update)(void *C, const void *A, const void *B, int64_t ld);
  /* phase 3 only (C apart from A and B): the same values as update, by
   * the register-tiled SIMD kernel of the instruction set in use */
  void (*product)(void *C, const void *A, const void *B, int64_t ld);
  /* whether a diagonal entry of the closed diagonal tile T beats the empty
   * path: a negative (MIN_PLUS) or positive (MAX_PLUS) cycle */
  bool (*cycle)(const void *T, int64_t ld);
  /* T(i,i) = add(one, T(i,i)) for i < m: the empty paths of M* */
  void (*reflexive)(void *T, int64_t ld, int64_t m);
} gsp__fw_tiles;

/* The tile kernels for (t, s), of the instruction set in use
 * (closure_cpu_isa.h): one of the closure pairs of gsp__closure_cpu_dense,
 * else GSP_PANIC. */
GSP_COMPANION gsp_info gsp__fw_tiles_get(gsp__fw_tiles *k, gsp_type t, gsp_semiring s);

#endif /* GSP_CLOSURE_CPU_H */
