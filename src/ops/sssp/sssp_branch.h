/*
 * The GPU decisions of the shortest-path family (sssp_branch.c), and the
 * internal entries tests call with knobs and a report (gsp_diag.h).
 */
#ifndef GSP_SSSP_BRANCH_H
#define GSP_SSSP_BRANCH_H

#include <stdbool.h>
#include <stdint.h>

#include "gsp_diag.h"
#include "gsp_internal.h"
#include "sssp_cpu.h"
#include "gsp_cuda_plugin.h"

/* How gsp_cuda_sssp runs a call with options o on the prepared graph g
 * (test knobs k, may be NULL, override the choice). */
gsp_cuda_sssp_plan gsp__sssp_gpu_plan(const gsp_sssp_opts *o, const gsp__sssp_graph *g, const gsp__sssp_knobs *k);

/*
 * Sources per pass of gsp_cuda_msssp for A (host CSR) and nsrc sources:
 * the request (rounded up to 32; 0: 1024, wider batches share each arc load
 * among more sources), no wider than the sources need, then narrowed until
 * the batch fits in 80% of the free device memory. *batch = 0 when not even
 * 32 fit: the reason is recorded with gsp__device_decline.
 */
void gsp__msssp_batch(int64_t *batch, const struct gsp_matrix_s *A, int64_t nsrc, int64_t requested, bool parents);

/* gsp_sssp / gsp_nearest_source (fn names which) with test knobs k and a
 * report diag (both may be NULL). */
gsp_info gsp__sssp_run(const char *fn, gsp_vector *dist, gsp_vector *source, gsp_vector *parent, gsp_matrix A,
                       const gsp_index *sources, gsp_index nsources, const gsp_sssp_opts *opts,
                       const gsp__sssp_knobs *k, gsp__diag *diag);

/* gsp_msssp with a report diag (may be NULL). */
gsp_info gsp__msssp_run(gsp_matrix *dist, gsp_matrix *parent, const gsp_matrix A, const gsp_index *sources,
                        gsp_index nsources, const gsp_msssp_opts *opts, gsp__diag *diag);

#endif /* GSP_SSSP_BRANCH_H */
