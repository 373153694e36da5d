/*
 * Many-source CPU kernel, typed body: the distances of a batch of sources
 * by the batched kernel (msssp_cpu_batch.c) or, per source, by a
 * sequential Dijkstra with an indexed binary heap (decrease-key); then the
 * parents by the strict rule of the parallel gsp__sssp_cpu_tree
 * (tree_seq), both on one thread's workspace. Batches and sources are
 * spread over threads.
 */
static inline void SSSP_FN(heap_up)(int32_t *heap, int32_t *pos, const SSSP_T *d, int32_t i) {
  const int32_t v = heap[i];
  while (i > 0) {
    const int32_t up = (i - 1) / 2;
    if (!(d[v] < d[heap[up]])) break;
    heap[i] = heap[up], pos[heap[i]] = i, i = up;
  }
  heap[i] = v, pos[v] = i;
}

static inline void SSSP_FN(heap_down)(int32_t *heap, int32_t *pos, const SSSP_T *d, int32_t hn) {
  const int32_t v = heap[0];
  int32_t i = 0;
  for (;;) {
    int32_t c = 2 * i + 1;
    if (c >= hn) break;
    if (c + 1 < hn && d[heap[c + 1]] < d[heap[c]]) c++;
    if (!(d[heap[c]] < d[v])) break;
    heap[i] = heap[c], pos[heap[i]] = i, i = c;
  }
  heap[i] = v, pos[v] = i;
}

/* pos: -1 never queued, -2 settled, else the heap slot. */
static void SSSP_FN(dijkstra)(SSSP_T *d, const gsp__sssp_graph *g, int64_t s, int32_t *heap, int32_t *pos) {
  const int64_t n = g->n;
  const SSSP_T *w = (const SSSP_T *)g->w, lim = SSSP_LIM(g);
  const gsp_index *p = g->p, *jx = g->j;
  for (int64_t v = 0; v < n; v++) d[v] = SSSP_INF, pos[v] = -1;
  d[s] = 0, heap[0] = (int32_t)s, pos[s] = 0;
  int32_t hn = 1;
  while (hn > 0) {
    const int32_t u = heap[0];
    pos[u] = -2;
    if (--hn > 0) {
      heap[0] = heap[hn];
      SSSP_FN(heap_down)(heap, pos, d, hn);
    }
    const SSSP_T du = d[u];
    for (gsp_index e = p[u]; e < p[u + 1]; e++) {
      const int32_t v = (int32_t)jx[e];
      if (pos[v] == -2) continue;
      const SSSP_T nd = SSSP_ADD(du, w[e]);
      if (!(nd <= lim) || !(nd < d[v])) continue;
      d[v] = nd;
      if (pos[v] == -1) heap[hn] = v, pos[v] = hn, hn++;
      SSSP_FN(heap_up)(heap, pos, d, pos[v]);
    }
  }
}

/* Parents by the strict rule of gsp__sssp_cpu_tree, sequentially. Pass A:
 * arcs in increasing tail order, so the first tight tail of smaller
 * distance a vertex meets is its smallest. Pass B, only when some reached
 * vertex is left (a tie): a BFS queue seeded with every placed vertex
 * (level 0) meets every vertex of level L-1 before any of level L, so a
 * tie's parent is its least tight tail one level up. Returns false when a
 * reached vertex has no tight path (cannot happen). */
static bool SSSP_FN(tree_seq)(int64_t *parent, const SSSP_T *d, const gsp__sssp_graph *g, int64_t s, int32_t *level,
                              int32_t *queue) {
  const int64_t n = g->n;
  const SSSP_T *w = (const SSSP_T *)g->w, lim = SSSP_LIM(g);
  const gsp_index *p = g->p, *jx = g->j;
  for (int64_t v = 0; v < n; v++) parent[v] = -1;
  parent[s] = s;
  for (int64_t u = 0; u < n; u++) {
    const SSSP_T du = d[u];
    if (!(du <= lim)) continue;
    for (gsp_index e = p[u]; e < p[u + 1]; e++) {
      const int32_t v = (int32_t)jx[e];
      const SSSP_T dv = d[v];
      if (parent[v] < 0 && du < dv && dv <= lim && SSSP_ADD(du, w[e]) == dv) parent[v] = u;
    }
  }
  int64_t ties = 0, qt = 0;
  for (int64_t v = 0; v < n; v++) {
    level[v] = parent[v] >= 0 ? 0 : -1;
    ties += level[v] < 0 && d[v] <= lim;
  }
  if (ties == 0) return true;
  for (int64_t v = 0; v < n; v++)
    if (level[v] == 0) queue[qt++] = (int32_t)v;
  for (int64_t qh = 0; qh < qt; qh++) {
    const int32_t u = queue[qh];
    const SSSP_T du = d[u];
    for (gsp_index e = p[u]; e < p[u + 1]; e++) {
      const int32_t v = (int32_t)jx[e];
      const SSSP_T dv = d[v];
      if (!(dv <= lim) || SSSP_ADD(du, w[e]) != dv) continue;
      if (level[v] < 0) {
        level[v] = level[u] + 1, parent[v] = u, queue[qt++] = v, ties--;
      } else if (level[v] == level[u] + 1 && u < parent[v]) {
        parent[v] = u;
      }
    }
  }
  return ties == 0;
}

/* Row k's parents (int64 into parent, or through the thread's wide row
 * into parent32) from its distances; false when a tree could not be built. */
static bool SSSP_FN(parents_row)(int64_t *parent, int32_t *parent32, int64_t *wide, const SSSP_T *d,
                                 const gsp__sssp_graph *g, int64_t s, size_t row, int32_t *a, int32_t *b) {
  const int64_t n = g->n;
  int64_t *pr = parent32 ? wide : parent ? parent + row : NULL;
  if (!pr) return true;
  if (!SSSP_FN(tree_seq)(pr, d, g, s, a, b)) return false;
  if (parent32)
    for (int64_t v = 0; v < n; v++) parent32[row + (size_t)v] = (int32_t)pr[v];
  return true;
}

static gsp_info SSSP_FN(msssp)(SSSP_T *dist, int64_t *parent, int32_t *parent32, const gsp__sssp_graph *g,
                               const int64_t *src, int64_t nsrc) {
  gsp_info info = GSP_SUCCESS;
  const int64_t n = g->n, m = (int64_t)g->p[n];
  const int kernel = gsp__msssp_kernel();
  int32_t *ws = NULL, *w32 = NULL, *rows32 = NULL;
  int64_t *wide = NULL;
  uint8_t *bws = NULL, *done = NULL;
#define GSP_FREE_ALL \
  (gsp__free(ws), gsp__free(wide), gsp__free(bws), gsp__free(done), gsp__free(w32), gsp__free(rows32))
  /* whole weights run as INT32 (twice the lanes), rows widened after */
  gsp__sssp_graph g32;
  if (kernel != 1) GSP_TRY(gsp__msssp_batch_narrow(&g32, &w32, g));
  const gsp__sssp_graph *gb = w32 ? &g32 : g;
  const int64_t lanes = gsp__msssp_batch_lanes(gb->t), nbatch = (nsrc + lanes - 1) / lanes;
  int nt = g->nthreads;
  if (nt > nsrc) nt = (int)(nsrc > 0 ? nsrc : 1);
  const size_t bbytes = gsp__msssp_batch_ws_bytes(n);
  /* per thread: heap, pos (Dijkstra), then level, queue (parents) reuse them */
  GSP_ALLOC(ws, (size_t)nt * 2, (size_t)n * sizeof(int32_t));
  /* int32 parents: each tree is built in a thread's int64 row, then narrowed */
  if (parent32) GSP_ALLOC(wide, (size_t)nt, (size_t)n * sizeof(int64_t));
  if (kernel != 1) {
    GSP_ALLOC(bws, (size_t)nt, bbytes);
    GSP_CALLOC(done, (size_t)(nbatch > 0 ? nbatch : 1), 1);
  }
  if (w32) GSP_ALLOC(rows32, (size_t)nt * (size_t)lanes, (size_t)n * sizeof(int32_t));
  /* The batched kernel first; a batch that scans more arcs (and vertices)
   * than GSP__MSSSP_BATCH_RATIO times Dijkstra's for its sources stops,
   * and its sources and those left go to Dijkstra. */
  int use_batch = kernel != 1;
  const int64_t nq = use_batch ? nbatch : 0;
  int64_t bad = -1;
#pragma omp parallel num_threads(nt)
  {
    const size_t me = (size_t)omp_get_thread_num();
    int32_t *a = ws + me * 2 * (size_t)n, *b = a + n;
    int64_t *wr = parent32 ? wide + me * (size_t)n : NULL;
#pragma omp for schedule(dynamic, 1) reduction(max : bad)
    for (int64_t q = 0; q < nq; q++) {
      int go;
#pragma omp atomic read
      go = use_batch;
      if (!go) continue;
      const int64_t k0 = q * lanes, nb = nsrc - k0 < lanes ? nsrc - k0 : lanes;
      const double cap = GSP__MSSSP_BATCH_RATIO * (double)nb * (double)(m + n);
      const int64_t budget = kernel >= 2 || cap >= (double)INT64_MAX ? INT64_MAX : (int64_t)cap;
      int32_t *r32 = w32 ? rows32 + me * (size_t)lanes * (size_t)n : NULL;
      void *out = w32 ? (void *)r32 : (void *)(dist + (size_t)k0 * (size_t)n);
      if (gsp__msssp_batch_rows(out, gb, src + k0, nb, bws + me * bbytes, budget) < 0) {
#pragma omp atomic write
        use_batch = 0;
        continue;
      }
      if (w32)
        for (size_t i = 0; i < (size_t)nb * (size_t)n; i++)
          dist[(size_t)k0 * (size_t)n + i] = r32[i] == INT32_MAX ? SSSP_INF : (SSSP_T)r32[i];
      done[q] = 1;
      for (int64_t k = k0; k < k0 + nb; k++) {
        const size_t row = (size_t)k * (size_t)n;
        if (!SSSP_FN(parents_row)(parent, parent32, wr, dist + row, g, src[k], row, a, b)) bad = k > bad ? k : bad;
      }
    }
#pragma omp for schedule(dynamic, 1) reduction(max : bad)
    for (int64_t k = 0; k < nsrc; k++) {
      if (done && done[k / lanes]) continue;
      const size_t row = (size_t)k * (size_t)n;
      SSSP_FN(dijkstra)(dist + row, g, src[k], a, b);
      if (!SSSP_FN(parents_row)(parent, parent32, wr, dist + row, g, src[k], row, a, b)) bad = k > bad ? k : bad;
    }
  }
  GSP_CHECK(bad < 0, GSP_PANIC, "shortest-path tree of source %lld: a reached vertex has no tight path",
            (long long)src[bad]);
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
