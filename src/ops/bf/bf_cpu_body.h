/*
 * Bellman-Ford rounds on the CPU, typed body (stamped by sssp_cpu_stamp.h;
 * the typed atomics of sssp_cpu_typed.h are stamped before it).
 *
 * Busato & Bombieri's queue: each round expands only the vertices whose
 * distance changed in the previous one (deduplicated by a flag per vertex).
 * Rounds are Jacobi-style, as in Harish's kernel: offers go to U while d
 * keeps the round's start values. Then a second sweep over the same arcs
 * gives every improved vertex the smallest tail whose offer equals its new
 * distance, so the parent graph is the same for every thread count and on
 * the GPU, and each parent arc satisfies d(v) >= d(parent) + w exactly for
 * integers (the invariant that makes a cycle of parents a negative cycle).
 * After n rounds with a change, or at the checkpoints of
 * gsp__bf_check_round, the parent graph is searched for a cycle.
 */
static gsp_info SSSP_FN(bf)(SSSP_T *d, const gsp__sssp_graph *g, const int64_t *src, int64_t nsrc, int64_t *cycle,
                            int64_t *clen, int64_t *rounds) {
  gsp_info info = GSP_SUCCESS;
  const int64_t n = g->n;
  SSSP_T *U = NULL;
  int64_t *ints = NULL; /* F, T, pred, cand */
  uint8_t *touched = NULL;
#define GSP_FREE_ALL (gsp__free(U), gsp__free(ints), gsp__free(touched))
  GSP_ALLOC(U, n, sizeof *U);
  GSP_ALLOC(ints, 4 * (size_t)n, sizeof *ints);
  GSP_CALLOC(touched, n, 1);
  int64_t *F = ints, *T = ints + n, *pred = ints + 2 * n, *cand = ints + 3 * n;
  const SSSP_T *w = (const SSSP_T *)g->w;
  const gsp_index *p = g->p, *jx = g->j;
  const int nt = g->nthreads;

#pragma omp parallel for num_threads(nt) schedule(static) if (n > 65536)
  for (int64_t v = 0; v < n; v++) d[v] = U[v] = SSSP_INF, pred[v] = GSP__BF_UNREACHED;
  int64_t nf = 0;
  for (int64_t k = 0; k < nsrc; k++) {
    const int64_t s = src[k];
    if (pred[s] == GSP__BF_UNREACHED) d[s] = U[s] = 0, pred[s] = GSP__BF_ROOT, F[nf++] = s;
  }

  int64_t r = 0;
  while (nf > 0) {
    r++;
    int64_t cnt = 0;
#pragma omp parallel num_threads(nt) if (nf > GSP__SSSP_PAR_MIN)
    {
      gsp__sssp_queue q;
      gsp__sssp_queue_init(&q, T, &cnt);
      SSSP_FN(offer)(g, d, U, touched, NULL, cand, F, nf, &q);
#pragma omp barrier
      /* parents: the smallest tail whose offer is the new distance */
#pragma omp for schedule(dynamic, 16)
      for (int64_t k = 0; k < nf; k++) {
        const int64_t u = F[k];
        const SSSP_T du = d[u];
        for (gsp_index e = p[u]; e < p[u + 1]; e++) {
          const int64_t v = (int64_t)jx[e];
          if (!touched[v] || SSSP_ADD(du, w[e]) != U[v]) continue;
          int64_t cur = __atomic_load_n(&cand[v], __ATOMIC_RELAXED);
          while (u < cur && !__atomic_compare_exchange_n(&cand[v], &cur, u, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
          }
        }
      }
    }
#pragma omp parallel for num_threads(nt) schedule(static) if (cnt > 4096)
    for (int64_t k = 0; k < cnt; k++) {
      const int64_t v = T[k];
      touched[v] = 0;
      d[v] = U[v];
      pred[v] = cand[v];
    }
    int64_t *tmp = F;
    F = T, T = tmp, nf = cnt;
    if (nf > 0 && gsp__bf_check_round(r, n)) {
      /* T is free scratch now */
      const int64_t len = gsp__bf_find_cycle(cycle, pred, n, T);
      if (len > 0) {
        *clen = len;
        *rounds = r;
        GSP_FREE_ALL;
        return GSP_NEGATIVE_CYCLE;
      }
      GSP_CHECK(r < n, GSP_PANIC, "Bellman-Ford: round %lld changed distances but the parent graph has no cycle",
                (long long)r);
    }
  }
  *rounds = r;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
