/*
 * Bit-packed Warshall for OR_AND: a row is wpr 64-bit words, and "row i
 * reaches k" costs one OR of row k into row i (64 tasks per word op).
 *
 * Blocked by 64 vertices (one word column) so that there is one barrier per
 * 64 values of k instead of one per k: the 64 rows of the block are first
 * closed among themselves (phase 1, one thread), after which every other row
 * can run through the 64 k's of the block on its own (phase 2, parallel):
 * a path i -> ... -> j through the block enters it at a first block vertex
 * k*, which row i already reaches, and row k* already holds j.
 */
#include "closure_cpu.h"

static inline bool bit_at(const uint64_t *row, int64_t k) {
  return (row[k >> 6] >> (k & 63)) & 1u;
}

static inline void row_or(uint64_t *restrict ri, const uint64_t *restrict rk, int64_t wpr) {
  for (int64_t w = 0; w < wpr; w++) ri[w] |= rk[w];
}

void gsp__closure_cpu_bits(uint64_t *bits, int64_t n, int64_t wpr, bool reflexive, const gsp__progress *progress) {
  const int64_t nkb = (n + 63) / 64;
  const int nth = gsp__threads() > 0 ? gsp__threads() : 1;
#pragma omp parallel num_threads(nth)
  for (int64_t kb = 0; kb < nkb; kb++) {
    const int64_t k0 = kb * 64, k1 = (k0 + 64 < n) ? k0 + 64 : n;
#pragma omp single
    for (int64_t k = k0; k < k1; k++) {
      const uint64_t *rk = bits + k * wpr;
      for (int64_t i = k0; i < k1; i++) {
        uint64_t *ri = bits + i * wpr;
        if (i != k && bit_at(ri, k)) row_or(ri, rk, wpr);
      }
    }
    /* implicit barrier: the block rows are final for this k-block */
#pragma omp for schedule(static)
    for (int64_t i = 0; i < n; i++) {
      if (i >= k0 && i < k1) continue;
      uint64_t *ri = bits + i * wpr;
      /* Re-read the word each step: ORing row k may add later block bits. */
      for (int64_t k = k0; k < k1; k++)
        if ((ri[kb] >> (k - k0)) & 1u) row_or(ri, bits + k * wpr, wpr);
    }
    /* implicit barrier before the next block reads these rows; the master
     * thread is the caller's */
#pragma omp master
    if (gsp__progress_due(progress, kb, nkb)) gsp__progress_report(progress, (double)(kb + 1) / (double)nkb);
  }
  if (reflexive)
    for (int64_t i = 0; i < n; i++) bits[i * wpr + (i >> 6)] |= (uint64_t)1 << (i & 63);
}
