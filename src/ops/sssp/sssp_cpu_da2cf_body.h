/*
 * DA2CF (Ortega-Arranz et al., Dijkstra adapted to compound frontiers),
 * typed body. Each round: relax the arcs of the frontier F (the vertices
 * settled last round) into the unsettled vertices; min-reduce over the open
 * vertices (reached, unsettled); settle every open v that no unsettled
 * vertex can still improve, by Crauser's criteria:
 *   OUT: d[v] <= min over open u of (d[u] + minout[u])
 *   IN:  d[v] <= min over open u of d[u], plus minin[v]
 * Both sums are formed in the type's own arithmetic: any path through an
 * unsettled vertex costs at least that rounded sum (addition is monotone
 * and weights are non-negative), so the tests stay exact for floats. The
 * open list is kept compact, so a round costs O(|F| arcs + |open|), not the
 * paper's O(n) scan.
 */
/* Setup: the lightest arc out of and into every vertex (+inf: none), and
 * every distance +inf. */
static inline void SSSP_FN(da2cf_minarcs)(SSSP_T *minout, SSSP_T *minin, SSSP_T *d, const gsp__sssp_graph *g) {
  const SSSP_T *w = (const SSSP_T *)g->w;
  const gsp_index *p = g->p, *jx = g->j;
  const int64_t n = g->n;
#pragma omp parallel num_threads(g->nthreads) if (n > 4096)
  {
#pragma omp for schedule(static)
    for (int64_t v = 0; v < n; v++) {
      SSSP_T m = SSSP_INF;
      for (gsp_index e = p[v]; e < p[v + 1]; e++) m = w[e] < m ? w[e] : m;
      minout[v] = m;
      minin[v] = SSSP_INF;
      d[v] = SSSP_INF;
    }
#pragma omp for schedule(dynamic, 256)
    for (int64_t u = 0; u < n; u++)
      for (gsp_index e = p[u]; e < p[u + 1]; e++) (void)SSSP_FN(amin)(&minin[jx[e]], w[e]);
  }
}

/* The min-reduction over the open vertices O[0..no): *dmin, the least
 * distance, and *dout, the least d[u] + minout[u] (the two thresholds). */
static inline void SSSP_FN(da2cf_bounds)(const SSSP_T *d, const SSSP_T *minout, const int64_t *O, int64_t no, int nt,
                                         SSSP_T *dmin_out, SSSP_T *dout_out) {
  SSSP_T dmin = SSSP_INF, dout = SSSP_INF;
#pragma omp parallel for num_threads(nt) schedule(static) reduction(min : dmin, dout) if (no > 4 * GSP__SSSP_PAR_MIN)
  for (int64_t k = 0; k < no; k++) {
    const int64_t v = O[k];
    const SSSP_T dv = d[v], o = SSSP_ADD(dv, minout[v]);
    dmin = dv < dmin ? dv : dmin;
    dout = o < dout ? o : dout;
  }
  *dmin_out = dmin, *dout_out = dout;
}

/* Update: settle the open vertices under either threshold (into F, the next
 * frontier, *nf of them) and keep the rest open (into O2, *no2 of them). */
static inline void SSSP_FN(da2cf_settle)(const SSSP_T *d, const SSSP_T *minin, SSSP_T dmin, SSSP_T dout,
                                         uint8_t *settled, uint8_t *open, const int64_t *O, int64_t no, int nt,
                                         int64_t *F, int64_t *nf, int64_t *O2, int64_t *no2) {
  int64_t nset = 0, nkeep = 0;
#pragma omp parallel num_threads(nt) if (no > 4 * GSP__SSSP_PAR_MIN)
  {
    gsp__sssp_queue qf, qo;
    gsp__sssp_queue_init(&qf, F, &nset);
    gsp__sssp_queue_init(&qo, O2, &nkeep);
#pragma omp for schedule(static) nowait
    for (int64_t k = 0; k < no; k++) {
      const int64_t v = O[k];
      const SSSP_T dv = d[v];
      if (dv <= dout || dv <= SSSP_ADD(dmin, minin[v])) {
        settled[v] = 1;
        open[v] = 0;
        gsp__sssp_push(&qf, v);
      } else {
        gsp__sssp_push(&qo, v);
      }
    }
    gsp__sssp_flush(&qf);
    gsp__sssp_flush(&qo);
  }
  *nf = nset, *no2 = nkeep;
}

static gsp_info SSSP_FN(da2cf)(SSSP_T *d, const gsp__sssp_graph *g, const int64_t *src, int64_t nsrc) {
  gsp_info info = GSP_SUCCESS;
  const int64_t n = g->n;
  SSSP_T *mins = NULL;   /* minout, minin */
  int64_t *ints = NULL;  /* F, O, O2 */
  uint8_t *flags = NULL; /* settled, open */
#define GSP_FREE_ALL (gsp__free(mins), gsp__free(ints), gsp__free(flags))
  GSP_ALLOC(mins, 2 * (size_t)n, sizeof *mins);
  GSP_ALLOC(ints, 3 * (size_t)n, sizeof *ints);
  GSP_CALLOC(flags, 2 * (size_t)n, 1);
  SSSP_T *minout = mins, *minin = mins + n;
  int64_t *F = ints, *O = ints + n, *O2 = ints + 2 * n;
  uint8_t *settled = flags, *open = flags + n;
  const int nt = g->nthreads;

  SSSP_FN(da2cf_minarcs)(minout, minin, d, g);
  int64_t nf = 0, no = 0;
  for (int64_t k = 0; k < nsrc; k++) {
    const int64_t s = src[k];
    if (!settled[s]) d[s] = 0, settled[s] = 1, F[nf++] = s;
  }

  while (nf > 0) {
    /* relax: settled distances are final and only unsettled ones change */
#pragma omp parallel num_threads(nt) if (nf > GSP__SSSP_PAR_MIN)
    {
      gsp__sssp_queue q;
      gsp__sssp_queue_init(&q, O, &no);
      SSSP_FN(offer)(g, d, d, open, settled, NULL, F, nf, &q);
    }
    if (no == 0) break;
    SSSP_T dmin, dout;
    SSSP_FN(da2cf_bounds)(d, minout, O, no, nt, &dmin, &dout);
    SSSP_FN(da2cf_settle)(d, minin, dmin, dout, settled, open, O, no, nt, F, &nf, O2, &no);
    int64_t *tmp = O;
    O = O2, O2 = tmp;
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
