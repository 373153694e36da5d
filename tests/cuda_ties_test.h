/*
 * Shared by test_cuda_sssp.c and test_cuda_msssp.c: what the GPU's parent
 * pass of the last call left to the tie BFS of the strict rule.
 */
#ifndef CUDA_TIES_TEST_H
#define CUDA_TIES_TEST_H

#include <stdint.h>

#ifdef GSP_HAVE_CUDA
#include "gsp_cuda.h" /* gsp_cuda_sssp_last_stats */
#endif

/* Vertices (msssp: cells) left to the tie BFS, and its levels in *levels;
 * -1 for both when the build cannot tell. */
static int64_t last_ties(int *levels) {
#ifdef GSP_HAVE_CUDA
  gsp_cuda_sssp_stats s;
  gsp_cuda_sssp_last_stats(&s);
  *levels = s.tie_levels;
  return s.ties;
#else
  *levels = -1;
  return -1;
#endif
}

#endif /* CUDA_TIES_TEST_H */
