/*
 * Delta-stepping (Meyer & Sanders), typed body. Bucket b holds the vertices
 * with floor(d / delta) == b (computed in double). Each thread keeps its own
 * bucket lists (as in the GAP benchmark suite), so a relaxation appends
 * without contention; there is no central priority structure to scan.
 *
 *  - The current bucket's vertices relax their light arcs (w <= delta);
 *    vertices that land in the same bucket come back in the next phase,
 *    until the bucket stays empty.
 *  - Then every vertex the bucket processed (lists R) relaxes its heavy
 *    arcs once.
 *  - The next bucket is the least non-empty one over all threads.
 * Buckets live in a window of GSP__DELTA_W lists from `base`; a vertex
 * farther ahead goes to the thread's far list, which is spread into a new
 * window when the current one runs dry. Entries are never removed when a
 * distance drops: a popped entry whose distance now maps to an earlier
 * bucket was processed there and is skipped. Any vertex whose distance drops
 * is queued again, so correctness never depends on the bucket arithmetic:
 * delta only orders the work.
 */
#ifndef GSP__DELTA_W
#define GSP__DELTA_W 1024
/* growable list of vertices */
typedef struct {
  int64_t *v;
  int64_t len, cap;
} gsp__vlist;
typedef struct {
  gsp__vlist *bins; /* GSP__DELTA_W lists */
  gsp__vlist far, R;
  bool oom;
} gsp__delta_thread;

static inline bool gsp__vpush(gsp__vlist *l, int64_t v) {
  if (l->len == l->cap) {
    const int64_t cap = l->cap ? 2 * l->cap : 64;
    int64_t *p = gsp__realloc_array(l->v, (size_t)cap, sizeof *p);
    if (!p) return false;
    l->v = p, l->cap = cap;
  }
  l->v[l->len++] = v;
  return true;
}

/* *F holds at least need entries (grown to exactly that); false when out
 * of memory (*F is then unchanged). */
static inline bool gsp__delta_reserve(int64_t **F, int64_t *cap, int64_t need) {
  if (need <= *cap) return true;
  int64_t *p = gsp__realloc_array(*F, (size_t)need, sizeof **F);
  if (!p) return false;
  *F = p, *cap = need;
  return true;
}

/* bucket of a distance, clamped so that huge ratios stay representable */
static inline int64_t gsp__delta_bin(double x, double delta) {
  const double b = floor(x / delta);
  return b < 4e18 ? (int64_t)b : (int64_t)4e18;
}

/* Queue v for distance x: a window bucket, or far. */
static inline void gsp__delta_queue(gsp__delta_thread *ts, int64_t v, double x, double delta, int64_t base) {
  const int64_t b = gsp__delta_bin(x, delta) - base;
  if (!gsp__vpush(b < GSP__DELTA_W ? &ts->bins[b] : &ts->far, v)) ts->oom = true;
}

static void gsp__delta_free_threads(gsp__delta_thread *ts, int nt) {
  if (!ts) return;
  for (int t = 0; t < nt; t++) {
    if (ts[t].bins)
      for (int b = 0; b < GSP__DELTA_W; b++) gsp__free(ts[t].bins[b].v);
    gsp__free(ts[t].bins);
    gsp__free(ts[t].far.v);
    gsp__free(ts[t].R.v);
  }
  gsp__free(ts);
}

/* Least non-empty bucket of the window from index `from` over all threads
 * (GSP__DELTA_W: none). */
static inline int64_t gsp__delta_least(const gsp__delta_thread *ts, int nt, int64_t from) {
  int64_t b = GSP__DELTA_W;
  for (int t = 0; t < nt; t++)
    for (int64_t k = from; k < b; k++)
      if (ts[t].bins[k].len > 0) {
        b = k;
        break;
      }
  return b;
}

/* Moves every thread's R list (the vertices the finished bucket processed)
 * into *F, grown as needed, and clears their inR flags; *nr: how many. */
static inline gsp_info gsp__delta_take_R(gsp__delta_thread *ts, int nt, int64_t **F, int64_t *fcap, uint8_t *inR,
                                         int64_t *nr) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  *nr = 0;
  for (int t = 0; t < nt; t++) *nr += ts[t].R.len;
  if (*nr == 0) return info;
  GSP_CHECK(gsp__delta_reserve(F, fcap, *nr), GSP_OUT_OF_MEMORY, "delta-stepping: out of memory");
  int64_t at = 0;
  for (int t = 0; t < nt; t++) {
    for (int64_t k = 0; k < ts[t].R.len; k++) inR[ts[t].R.v[k]] = 0;
    if (ts[t].R.len > 0) memcpy(*F + at, ts[t].R.v, (size_t)ts[t].R.len * sizeof **F);
    at += ts[t].R.len, ts[t].R.len = 0;
  }
#undef GSP_FREE_ALL
  return info;
}
#endif

/* One phase: the vertices of list F relax their light (or heavy) arcs. */
static void SSSP_FN(delta_phase)(SSSP_T *d, const gsp__sssp_graph *g, const int64_t *F, int64_t nf, bool light,
                                 int64_t base, gsp__delta_thread *ts, uint8_t *inR) {
  const SSSP_T *w = (const SSSP_T *)g->w, lim = SSSP_LIM(g);
  const gsp_index *p = g->p, *jx = g->j;
  const double delta = g->delta;
#pragma omp parallel num_threads(g->nthreads) if (nf > GSP__SSSP_PAR_MIN)
  {
    gsp__delta_thread *me = &ts[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 16)
    for (int64_t k = 0; k < nf; k++) {
      const int64_t u = F[k];
      if (light && gsp__sssp_claim(&inR[u]) && !gsp__vpush(&me->R, u)) me->oom = true;
      const SSSP_T du = SSSP_FN(aload)(&d[u]);
      for (gsp_index e = p[u]; e < p[u + 1]; e++) {
        if (((double)w[e] <= delta) != light) continue;
        const int64_t v = (int64_t)jx[e];
        const SSSP_T nd = SSSP_ADD(du, w[e]);
        if (nd <= lim && SSSP_FN(amin)(&d[v], nd)) gsp__delta_queue(me, v, (double)nd, delta, base);
      }
    }
  }
}

/* Setup: every distance +inf, the sources at 0 in thread 0's bucket 0. */
static inline gsp_info SSSP_FN(delta_seed)(SSSP_T *d, int64_t n, int nt, const int64_t *src, int64_t nsrc,
                                           gsp__delta_thread *ts) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
#pragma omp parallel for num_threads(nt) schedule(static) if (n > 65536)
  for (int64_t v = 0; v < n; v++) d[v] = SSSP_INF;
  for (int64_t k = 0; k < nsrc; k++) {
    if (d[src[k]] == 0) continue;
    d[src[k]] = 0;
    GSP_CHECK(gsp__vpush(&ts[0].bins[0], src[k]), GSP_OUT_OF_MEMORY, "delta-stepping: out of memory");
  }
#undef GSP_FREE_ALL
  return info;
}

/* Window exhausted: the next one starts at the least live far bucket (a far
 * entry whose distance has since moved into the window was processed
 * there), and the far entries that fall in it move to its buckets. *done:
 * no live far entry is left. */
static inline gsp_info SSSP_FN(delta_refill)(const SSSP_T *d, gsp__delta_thread *ts, int nt, double delta,
                                             int64_t *base, int64_t *curr, bool *done) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  int64_t fmin = INT64_MAX;
  for (int t = 0; t < nt; t++)
    for (int64_t k = 0; k < ts[t].far.len; k++) {
      const int64_t fb = gsp__delta_bin((double)d[ts[t].far.v[k]], delta);
      if (fb >= *base + GSP__DELTA_W && fb < fmin) fmin = fb;
    }
  *done = fmin == INT64_MAX;
  if (*done) return info;
  const int64_t old_end = *base + GSP__DELTA_W;
  *base = *curr = fmin;
  for (int t = 0; t < nt; t++) {
    gsp__vlist *far = &ts[t].far;
    int64_t keep = 0;
    for (int64_t k = 0; k < far->len; k++) {
      const int64_t v = far->v[k], fb = gsp__delta_bin((double)d[v], delta);
      if (fb < old_end) continue; /* stale */
      if (fb - *base < GSP__DELTA_W) {
        GSP_CHECK(gsp__vpush(&ts[t].bins[fb - *base], v), GSP_OUT_OF_MEMORY, "delta-stepping: out of memory");
      } else {
        far->v[keep++] = v;
      }
    }
    far->len = keep;
  }
#undef GSP_FREE_ALL
  return info;
}

/* Gathers window bucket b (bucket number curr) into *F: live entries only,
 * each vertex once (inF marks them meanwhile); *nf: how many. */
static inline gsp_info SSSP_FN(delta_gather)(const SSSP_T *d, gsp__delta_thread *ts, int nt, double delta, int64_t b,
                                             int64_t curr, int64_t **F, int64_t *fcap, uint8_t *inF, int64_t *nf) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  int64_t total = 0;
  for (int t = 0; t < nt; t++) total += ts[t].bins[b].len;
  GSP_CHECK(gsp__delta_reserve(F, fcap, total), GSP_OUT_OF_MEMORY, "delta-stepping: out of memory");
  int64_t m = 0;
  for (int t = 0; t < nt; t++) {
    gsp__vlist *l = &ts[t].bins[b];
    for (int64_t k = 0; k < l->len; k++) {
      const int64_t v = l->v[k];
      if (gsp__delta_bin((double)d[v], delta) == curr && !inF[v]) inF[v] = 1, (*F)[m++] = v;
    }
    l->len = 0;
  }
  for (int64_t k = 0; k < m; k++) inF[(*F)[k]] = 0;
  *nf = m;
#undef GSP_FREE_ALL
  return info;
}

static gsp_info SSSP_FN(delta)(SSSP_T *d, const gsp__sssp_graph *g, const int64_t *src, int64_t nsrc) {
  gsp_info info = GSP_SUCCESS;
  const int64_t n = g->n;
  const int nt = g->nthreads > 0 ? g->nthreads : 1;
  gsp__delta_thread *ts = NULL;
  int64_t *F = NULL, fcap = 0;
  uint8_t *inF = NULL, *inR = NULL;
#define GSP_FREE_ALL (gsp__delta_free_threads(ts, nt), gsp__free(F), gsp__free(inF), gsp__free(inR))
  GSP_CALLOC(ts, (size_t)nt, sizeof *ts);
  for (int t = 0; t < nt; t++) GSP_CALLOC(ts[t].bins, GSP__DELTA_W, sizeof *ts[t].bins);
  GSP_CALLOC(inF, n, 1);
  GSP_CALLOC(inR, n, 1);
  fcap = n > 0 ? n : 1;
  GSP_ALLOC(F, fcap, sizeof *F);
  GSP_TRY(SSSP_FN(delta_seed)(d, n, nt, src, nsrc, ts));

  int64_t base = 0, curr = 0;
  for (;;) {
    bool oom = false;
    for (int t = 0; t < nt; t++) oom |= ts[t].oom;
    GSP_CHECK(!oom, GSP_OUT_OF_MEMORY, "delta-stepping: cannot grow a bucket list");
    const int64_t b = gsp__delta_least(ts, nt, curr - base);

    /* bucket `curr` is finished: its vertices relax their heavy arcs */
    int64_t nr = 0;
    if (b != curr - base) GSP_TRY(gsp__delta_take_R(ts, nt, &F, &fcap, inR, &nr));
    if (nr > 0) {
      SSSP_FN(delta_phase)(d, g, F, nr, false, base, ts, inR);
      continue;
    }
    if (b == GSP__DELTA_W) {
      bool done = false;
      GSP_TRY(SSSP_FN(delta_refill)(d, ts, nt, g->delta, &base, &curr, &done));
      if (done) break;
      continue;
    }
    /* bucket b is next: its vertices relax their light arcs */
    curr = base + b;
    int64_t nf = 0;
    GSP_TRY(SSSP_FN(delta_gather)(d, ts, nt, g->delta, b, curr, &F, &fcap, inF, &nf));
    SSSP_FN(delta_phase)(d, g, F, nf, true, base, ts, inR);
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
