/*
 * Closures past one GPU's memory (out of core): the page plan of the
 * out-of-core schedule (pure arithmetic: the closure's branch computes it,
 * gsp_cuda_fw_ooc runs it; the tests and the benchmark ask it too).
 */
#ifndef GSP_CLOSURE_SCALE_H
#define GSP_CLOSURE_SCALE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gsp.h"
#include "gsp_cuda_scale.h" /* gsp_cuda_ooc_plan */

#ifdef __cplusplus
extern "C" {
#endif

/* Device bytes an out-of-core closure takes besides the pages: workspace
 * flags and rounding. */
#define GSP_OOC_SLACK ((size_t)4096)

/* Page layout (gsp_cuda_scale.h, the plugin's call takes it as it is). */
typedef gsp_cuda_ooc_plan gsp__ooc_plan;

/* Device bytes of `slots` pages of B rows of np elements of ts bytes, the
 * B x B transposed panel, and the slack. */
size_t gsp__ooc_bytes(int64_t np, size_t ts, int64_t B, int slots);

/*
 * The plan for an np x np matrix (np a multiple of 128) of ts-byte elements
 * within `budget` bytes. Without overrides it prefers 5 slots (pivot, next
 * pivot, and three pages so that a load, a computation and a store overlap)
 * as long as pages keep >= 1024 rows (transfers then stay below the
 * computation, docs/distributed.md), then 4 (>= 512 rows), 3 (>= 256), 2
 * (>= 128), with the largest page that fits. force_rows (a multiple of 128)
 * and force_slots (>= 2), when nonzero, fix those values (testing: the
 * knobs of gsp__closure_run). Returns false when no plan fits (not even two
 * pages of 128 rows).
 */
bool gsp__ooc_plan_make(gsp__ooc_plan *pl, int64_t np, size_t ts, size_t budget, int64_t force_rows, int force_slots);

#ifdef __cplusplus
}
#endif
#endif /* GSP_CLOSURE_SCALE_H */
