/*
 * A caller's progress callback (gsp_closure_advanced.progress) as the
 * round loops of the closures get it: the CPU kernels, the sparse star and
 * the CUDA launchers alike. It is the user's function, called as it is
 * from the calling thread, never a call back into the library. No CUDA
 * types.
 */
#ifndef GSP_PROGRESS_H
#define GSP_PROGRESS_H

#include <stdint.h>

typedef struct {
  void (*fn)(double fraction, void *ctx); /* NULL: none */
  void *ctx;
} gsp__progress;

/* At most this many reports a loop: a GPU loop synchronizes its stream for
 * each, which costs a pipeline drain. */
#define GSP_PROGRESS_REPORTS 16

/* Whether a loop of `rounds` reports after round r (0-based): every
 * rounds / GSP_PROGRESS_REPORTS rounds, never after the last (the closure
 * reports 1 itself once its result is complete). */
static inline int gsp__progress_due(const gsp__progress *p, int64_t r, int64_t rounds) {
  const int64_t every = rounds > GSP_PROGRESS_REPORTS ? (rounds + GSP_PROGRESS_REPORTS - 1) / GSP_PROGRESS_REPORTS : 1;
  return p && p->fn && r + 1 < rounds && (r + 1) % every == 0;
}

/* Report `fraction` (0..1) when there is a callback. */
static inline void gsp__progress_report(const gsp__progress *p, double fraction) {
  if (p && p->fn) p->fn(fraction, p->ctx);
}

#endif /* GSP_PROGRESS_H */
