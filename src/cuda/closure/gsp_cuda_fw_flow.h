/*
 * The bookkeeping of the closure's flowing rounds (side_in_rest with
 * RestFold::flow, gsp_cuda_fw.cuh), plain C++ so that the same code runs in
 * k_rest and in the CPU model of tests/test_fw_flow_sim.cpp, which checks
 * that the waits order every pair of blocks that touch the same data.
 * Block indices: nb x nb tiles of FWB x FWB; round r's K is block r.
 */
#ifndef GSP_CUDA_FW_FLOW_H
#define GSP_CUDA_FW_FLOW_H

#include <stdint.h>

#if defined(__CUDACC__)
#define GSP_FLOW_FN __host__ __device__ __forceinline__
#else
#define GSP_FLOW_FN inline
#endif

namespace gspflow {

/* Tile t of round r's other tiles (those outside stripes r and r + 1),
 * by their distance from block r in rotated coordinates (u = (i - r) mod
 * nb, v likewise): shells d = 2, 3, ... of min(u, v) = d, each row part
 * first. Round r + 1 then takes the tiles in the order round r finished
 * them (its shell d is round r's d + 1), and round r + 1's lead, stripe
 * r + 2, is round r's first shell. */
GSP_FLOW_FN void rest_shell(int64_t nb, int64_t r, int64_t t, int64_t *i, int64_t *j) {
  int64_t d = 2, len = 2 * (nb - d) - 1;
  for (; t >= len; d++, len -= 2) t -= len;
  const int64_t u = t < nb - d ? d : t - (nb - d) + d + 1, v = t < nb - d ? d + t : d;
  *i = (u + r) % nb, *j = (v + r) % nb;
}

/* The tile flags a block of flowing round r waits for before it updates
 * tile (i, j) (all: every one, for its panel blocks, which overwrite
 * T(r + 1) = T(r - 1) that round r - 1's tiles read): tile (i, j) as
 * round p = r - 1 left it, and where i = p, all p's tiles of column j,
 * which read that tile as their row panel. p's tiles are those outside
 * stripes p and r; the tiles inside were last stored by the panels of
 * round p - 1 or r, which the count of p's panel blocks orders (p's
 * closure, panels and lead waited for them before raising it). Candidate
 * e < count(): flag(e, &a, &c) says whether to wait for tile (a, c). */
struct FlowWait {
  int64_t r, i, j, rows, cols;
  GSP_FLOW_FN FlowWait(int64_t nb, int64_t r_, int64_t i_, int64_t j_, bool all)
      : r(r_), i(i_), j(j_), rows(all || i_ == r_ - 1 ? nb : 1), cols(all ? nb : 1) {}
  GSP_FLOW_FN int64_t count() const {
    return rows * cols;
  }
  GSP_FLOW_FN bool flag(int64_t e, int64_t *a, int64_t *c) const {
    const int64_t p = r - 1;
    *a = rows == 1 ? i : e / cols, *c = cols == 1 ? j : e % cols;
    return *a != p && *a != r && *c != p && *c != r;
  }
};

} /* namespace gspflow */

#endif /* GSP_CUDA_FW_FLOW_H */
