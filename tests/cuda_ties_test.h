/*
 * Shared by test_cuda_sssp.c and test_cuda_msssp.c: the report of the last
 * GPU call a test made through the internal entries (gsp__sssp_run,
 * gsp__msssp_run), and what its parent pass left to the tie BFS of the
 * strict rule.
 */
#ifndef CUDA_TIES_TEST_H
#define CUDA_TIES_TEST_H

#include <stdint.h>

#include "sssp_branch.h" /* gsp__sssp_run, gsp__msssp_run, gsp__diag */

/* The report of the last call through the entries below. */
static gsp__diag last_diag;

static gsp_info sssp_reported(gsp_vector *dist, gsp_vector *parent, gsp_matrix A, gsp_index src, const gsp_sssp_opts *o,
                              const gsp__sssp_knobs *k) {
  return gsp__sssp_run("gsp_sssp", dist, NULL, parent, A, &src, 1, o, k, &last_diag);
}

static gsp_info nearest_reported(gsp_vector *dist, gsp_vector *source, gsp_vector *parent, gsp_matrix A,
                                 const gsp_index *srcs, gsp_index ns, const gsp_sssp_opts *o) {
  return gsp__sssp_run("gsp_nearest_source", dist, source, parent, A, srcs, ns, o, NULL, &last_diag);
}

static gsp_info msssp_reported(gsp_matrix *D, gsp_matrix *P, gsp_matrix A, const gsp_index *srcs, gsp_index ns,
                               const gsp_msssp_opts *o) {
  return gsp__msssp_run(D, P, A, srcs, ns, o, &last_diag);
}

/* Vertices (msssp: cells) left to the tie BFS, and its levels in *levels;
 * -1 for both when the GPU did not run the last call. */
static int64_t last_ties(int *levels) {
  *levels = last_diag.sssp_gpu ? last_diag.sssp.tie_levels : -1;
  return last_diag.sssp_gpu ? last_diag.sssp.ties : -1;
}

#endif /* CUDA_TIES_TEST_H */
