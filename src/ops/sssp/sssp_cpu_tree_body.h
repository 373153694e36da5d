/*
 * Parents from final distances (see gsp__sssp_cpu_tree), typed body.
 * strict (non-negative weights): pass A, one sweep over the arcs, gives
 * every vertex with a tight tail of smaller distance the smallest such
 * tail; only when some reached vertex is left (a "tie": all its tight
 * tails have its own distance) does pass B run, the BFS below seeded with
 * every vertex placed so far (level 0). !strict (Bellman-Ford): the BFS
 * alone, seeded with the sources.
 * The BFS is level-synchronous: the vertices of level L (a slice of
 * `order`) look at their arcs; a target v that is unlevelled or already
 * claimed for level L+1, with d[u] + w == d[v] exactly, takes level L+1
 * (first claim appends it to `order`) and parent = min(parent, u). Both
 * passes keep only the smallest u, whatever the thread timing.
 * (Unreached targets hold +inf, which a saturating sum can equal: the
 * test `dv <= lim` keeps them out.)
 */

/* Pass A: parent[v] = min u over tight arcs u -> v with d[u] < d[v] (a
 * source never qualifies: d[s] = 0 and weights are >= 0). */
static inline void SSSP_FN(tree_pass_a)(int64_t *parent, const SSSP_T *d, const gsp__sssp_graph *g) {
  const SSSP_T *w = (const SSSP_T *)g->w, lim = SSSP_LIM(g);
  const gsp_index *p = g->p, *jx = g->j;
  const int64_t n = g->n;
#pragma omp parallel for num_threads(g->nthreads) schedule(dynamic, 64) if (n > GSP__SSSP_PAR_MIN)
  for (int64_t u = 0; u < n; u++) {
    const SSSP_T du = d[u];
    if (!(du <= lim)) continue;
    for (gsp_index e = p[u]; e < p[u + 1]; e++) {
      const int64_t v = (int64_t)jx[e];
      const SSSP_T dv = d[v];
      if (!(du < dv) || !(dv <= lim) || SSSP_ADD(du, w[e]) != dv) continue;
      int64_t cur = __atomic_load_n(&parent[v], __ATOMIC_RELAXED);
      while (u < cur && !__atomic_compare_exchange_n(&parent[v], &cur, u, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    }
  }
}

/* After pass A: placed vertices take level 0; when some reached vertex is
 * left (a tie), every level-0 vertex seeds the BFS (pass B). Returns the
 * seeds put in order (0: no tie, nothing left to do). */
static inline int64_t SSSP_FN(tree_seed_ties)(int32_t *level, int64_t *order, const int64_t *parent, const SSSP_T *d,
                                              const gsp__sssp_graph *g) {
  const SSSP_T lim = SSSP_LIM(g);
  const int64_t n = g->n;
  const int nt = g->nthreads;
  int64_t ties = 0, cnt = 0;
#pragma omp parallel for num_threads(nt) schedule(static) reduction(+ : ties) if (n > 65536)
  for (int64_t v = 0; v < n; v++) {
    if (!(d[v] <= lim) || level[v] == 0) continue;
    if (parent[v] != INT64_MAX) level[v] = 0;
    else ties++;
  }
  if (ties == 0) return 0;
#pragma omp parallel num_threads(nt) if (n > 65536)
  {
    gsp__sssp_queue q;
    gsp__sssp_queue_init(&q, order, &cnt);
#pragma omp for schedule(static) nowait
    for (int64_t v = 0; v < n; v++)
      if (level[v] == 0) gsp__sssp_push(&q, v);
    gsp__sssp_flush(&q);
  }
  return cnt;
}

/* The level-synchronous BFS from the cnt vertices of order (level 0). */
static inline void SSSP_FN(tree_bfs)(int64_t *parent, int32_t *level, int64_t *order, int64_t cnt, const SSSP_T *d,
                                     const gsp__sssp_graph *g) {
  const SSSP_T *w = (const SSSP_T *)g->w, lim = SSSP_LIM(g);
  const gsp_index *p = g->p, *jx = g->j;
  int64_t lo = 0, hi = cnt;
  for (int32_t L = 0; lo < hi; L++) {
#pragma omp parallel num_threads(g->nthreads) if (hi - lo > GSP__SSSP_PAR_MIN)
    {
      gsp__sssp_queue q;
      gsp__sssp_queue_init(&q, order, &cnt);
#pragma omp for schedule(dynamic, 16) nowait
      for (int64_t k = lo; k < hi; k++) {
        const int64_t u = order[k];
        const SSSP_T du = d[u];
        for (gsp_index e = p[u]; e < p[u + 1]; e++) {
          const int64_t v = (int64_t)jx[e];
          int32_t lv = __atomic_load_n(&level[v], __ATOMIC_RELAXED);
          const SSSP_T dv = d[v];
          if ((lv != -1 && lv != L + 1) || !(dv <= lim) || SSSP_ADD(du, w[e]) != dv) continue;
          if (lv == -1 && __atomic_compare_exchange_n(&level[v], &lv, L + 1, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            gsp__sssp_push(&q, v);
          int64_t cur = __atomic_load_n(&parent[v], __ATOMIC_RELAXED);
          while (u < cur &&
                 !__atomic_compare_exchange_n(&parent[v], &cur, u, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
        }
      }
      gsp__sssp_flush(&q);
    }
    lo = hi, hi = cnt;
  }
}

/* Unreached vertices get parent -1; returns the largest reached vertex
 * left out of the tree (-1: none, as it must be). */
static inline int64_t SSSP_FN(tree_finish)(int64_t *parent, const int32_t *level, const SSSP_T *d,
                                           const gsp__sssp_graph *g) {
  const SSSP_T lim = SSSP_LIM(g);
  const int64_t n = g->n;
  int64_t missing = -1;
#pragma omp parallel for num_threads(g->nthreads) schedule(static) reduction(max : missing) if (n > 65536)
  for (int64_t v = 0; v < n; v++) {
    const bool reached = d[v] <= lim;
    if (reached && level[v] < 0) missing = v > missing ? v : missing;
    if (!reached) parent[v] = -1;
  }
  return missing;
}

static gsp_info SSSP_FN(tree)(int64_t *parent, int64_t *root, const SSSP_T *d, const gsp__sssp_graph *g,
                              const int64_t *src, int64_t nsrc, bool strict) {
  gsp_info info = GSP_SUCCESS;
  const int64_t n = g->n;
  int32_t *level = NULL;
  int64_t *order = NULL;
#define GSP_FREE_ALL (gsp__free(level), gsp__free(order))
  GSP_ALLOC(level, n, sizeof *level);
  GSP_ALLOC(order, n, sizeof *order);

#pragma omp parallel for num_threads(g->nthreads) schedule(static) if (n > 65536)
  for (int64_t v = 0; v < n; v++) level[v] = -1, parent[v] = INT64_MAX;
  int64_t cnt = 0;
  for (int64_t k = 0; k < nsrc; k++) {
    const int64_t s = src[k];
    if (level[s] < 0) level[s] = 0, parent[s] = s, order[cnt++] = s;
  }
  if (strict) {
    SSSP_FN(tree_pass_a)(parent, d, g);
    cnt = SSSP_FN(tree_seed_ties)(level, order, parent, d, g);
  }
  SSSP_FN(tree_bfs)(parent, level, order, cnt, d, g);

  /* every vertex with a distance must be in the tree */
  const int64_t missing = SSSP_FN(tree_finish)(parent, level, d, g);
  GSP_CHECK(missing < 0, GSP_PANIC, "shortest-path tree: vertex %lld has a distance but no tight path",
            (long long)missing);
  if (root) GSP_TRY(gsp__sssp_roots(root, parent, n));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
