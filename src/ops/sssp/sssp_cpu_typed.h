/*
 * Typed atomics and the relaxation sweep of the CPU kernels, stamped per
 * type by sssp_cpu_stamp.h (no include guard on purpose). GCC's generic __atomic builtins work on
 * float and double through their bit patterns, which is all a CAS loop
 * needs: the comparison itself is done on the values.
 */

/* Atomic d = min(d, v); true when this call lowered d. */
static inline bool SSSP_FN(amin)(SSSP_T *a, SSSP_T v) {
  SSSP_T cur;
  __atomic_load(a, &cur, __ATOMIC_RELAXED);
  while (v < cur)
    if (__atomic_compare_exchange(a, &cur, &v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return true;
  return false;
}

/* A distance that another thread may be lowering. */
static inline SSSP_T SSSP_FN(aload)(const SSSP_T *a) {
  SSSP_T cur;
  __atomic_load((SSSP_T *)a, &cur, __ATOMIC_RELAXED);
  return cur;
}

/* One relaxation sweep, inside a parallel region (an orphaned omp for,
 * no barrier at its end): the out-arcs of the frontier F[0..nf) offer
 * d[u] + w to U[v] by atomic min, skipping heads v with skip[v] set (skip
 * may be NULL), within the graph's limit. A vertex whose U drops is claimed
 * once by its flag and queued on q (flushed here); cand, when given, is
 * reset to INT64_MAX for it. U may be d itself where the heads' distances
 * are not read in the sweep (DA2CF: only settled tails are read). */
static inline void SSSP_FN(offer)(const gsp__sssp_graph *g, const SSSP_T *d, SSSP_T *U, uint8_t *flag,
                                  const uint8_t *skip, int64_t *cand, const int64_t *F, int64_t nf,
                                  gsp__sssp_queue *q) {
  const SSSP_T *w = (const SSSP_T *)g->w, lim = SSSP_LIM(g);
  const gsp_index *p = g->p, *jx = g->j;
#pragma omp for schedule(dynamic, 16) nowait
  for (int64_t k = 0; k < nf; k++) {
    const int64_t u = F[k];
    const SSSP_T du = d[u];
    for (gsp_index e = p[u]; e < p[u + 1]; e++) {
      const int64_t v = (int64_t)jx[e];
      if (skip && skip[v]) continue;
      const SSSP_T nd = SSSP_ADD(du, w[e]);
      if (nd <= lim && SSSP_FN(amin)(&U[v], nd) && gsp__sssp_claim(&flag[v])) {
        if (cand) cand[v] = INT64_MAX;
        gsp__sssp_push(q, v);
      }
    }
  }
  gsp__sssp_flush(q);
}
