/*
 * Device-level blocked Floyd-Warshall, C-callable, on matrices already in
 * device memory. Used by the gateway (gsp_cuda_gateway.cu) and by the GPU
 * benchmark, which times the kernels on device-resident data. No CUDA types.
 */
#ifndef GSP_CUDA_FW_H
#define GSP_CUDA_FW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gsp.h"
#include "gsp_progress.h"

#ifdef __cplusplus
extern "C" {
#endif

/* FW block (tile) size in vertices: the k-depth of one round. */
#define GSP_CUDA_FW_BLOCK 128

/* Padded dimension for an n-vertex closure: a multiple of the tile sizes
 * (128 for numeric types; 4096 for bit-packed bool, one phase-3 tile is 64
 * words wide). */
int64_t gsp_cuda_padded_n(gsp_type t, int64_t n);

/* Bytes of device memory a closure of n vertices needs: the matrix, the
 * int32 successor matrix when paths are recorded, and the O(n x tile)
 * workspace. */
size_t gsp_cuda_closure_bytes(gsp_type t, int64_t n, bool paths);

/*
 * In-place closure of the np x np device matrix d (np from
 * gsp_cuda_padded_n; entries outside n x n must hold the semiring zero,
 * bool: zero bits). t == GSP_BOOL means bit-packed words (s must be OR_AND).
 * succ (np x np int32, may be NULL; MIN_PLUS / MAX_PLUS with strictly
 * positive / negative arcs only) receives successors (-1: no path).
 * reflexive: M*, else M+.
 * nonneg_i32: INT32 MIN_PLUS input with every value >= 0 (exact DPX path).
 * *cycle is set when MIN_PLUS has a negative (MAX_PLUS a positive) cycle;
 * d is then garbage. Runs on the default stream; returns after the work is
 * queued and the cycle flag read (which synchronises). progress (may be
 * NULL) hears the fraction of rounds done every few rounds, the stream
 * synchronized first (gsp_progress.h).
 */
gsp_info gsp_cuda_fw_device(void *d, int32_t *succ, int64_t n, int64_t np, gsp_type t, gsp_semiring s, bool reflexive,
                            bool nonneg_i32, const gsp__progress *progress, bool *cycle);

/* Bool OR_AND closure of a bit-packed device matrix (as gsp_cuda_fw_device)
 * with a chosen product, for comparison: tc_depth 256 or 512 = binary
 * tensor cores (mma.sync b1 AND-POPC) with rounds of that many vertices
 * (gsp_cuda_fw_device: 512 from np = 65536, else 256), 0 = LOP3 on
 * 64-bit words. */
gsp_info gsp_cuda_fw_bits_impl(void *d, int64_t n, int64_t np, bool reflexive, int tc_depth);

/* For the benchmark: the reflexive closure of a numeric device matrix (as
 * gsp_cuda_fw_device, no successors) with CUDA events on its main stream;
 * ms[0..2] = round 0's diagonal tile and panels, the other tiles of every
 * round, the waits for the next round's diagonal tile and panels (the
 * lookahead, gsp_cuda_fw.cuh) that the other tiles did not hide; ms NULL:
 * no events (the time of the forced choices as a call's). variant: -1 the
 * library's choices, else in every round bit 0 the diagonal tile on a
 * cluster (else one block), bit 1 the other tiles in pairs (else one to a
 * block), bit 2 no programmatic dependent launch, bit 3 the stripe update
 * in one piece, bit 4 / bit 5 its split rest not / beside the diagonal
 * tile's closure, bit 6 the other tiles never in half-width blocks, bit 7
 * the next stripe's update never in the other tiles' grid, bit 8 the next
 * diagonal tile and panels never there, bit 9 a round with them there
 * waits for all of the round before (FwForce, gsp_cuda_fw.cuh). */
gsp_info gsp_cuda_fw_phases(void *d, int64_t n, int64_t np, gsp_type t, gsp_semiring s, bool nonneg_i32, int variant,
                            float ms[3]);

/* Number of entries of the n x n part of d that differ from the semiring
 * zero (bool: set bits). */
gsp_info gsp_cuda_count_present(int64_t *count, const void *d, int64_t n, int64_t np, gsp_type t, gsp_semiring s);

/* Fill the np x np device matrix with the semiring zero (bool: 0 words). */
gsp_info gsp_cuda_fill_zero(void *d, int64_t np, gsp_type t, gsp_semiring s);

#ifdef __cplusplus
}
#endif
#endif /* GSP_CUDA_FW_H */
