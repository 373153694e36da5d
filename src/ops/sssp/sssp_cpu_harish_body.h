/*
 * Harish & Narayanan's relaxation, typed body (stamped by sssp_cpu_stamp.h).
 * Each round relaxes the out-arcs of every vertex modified in the previous
 * round into the updating array U (atomic min), then commits U to d for the
 * touched vertices, which form the next round's modified set. Reading d
 * while writing only U keeps rounds Jacobi-style, as in the paper; the
 * touched list replaces the paper's O(n) scan of the mask.
 */
static gsp_info SSSP_FN(harish)(SSSP_T *d, const gsp__sssp_graph *g, const int64_t *src, int64_t nsrc) {
  gsp_info info = GSP_SUCCESS;
  const int64_t n = g->n;
  SSSP_T *U = NULL;
  int64_t *ints = NULL; /* F, T */
  uint8_t *touched = NULL;
#define GSP_FREE_ALL (gsp__free(U), gsp__free(ints), gsp__free(touched))
  GSP_ALLOC(U, n, sizeof *U);
  GSP_ALLOC(ints, 2 * (size_t)n, sizeof *ints);
  GSP_CALLOC(touched, n, 1);
  int64_t *F = ints, *T = ints + n;
  const int nt = g->nthreads;

#pragma omp parallel for num_threads(nt) schedule(static) if (n > 65536)
  for (int64_t v = 0; v < n; v++) d[v] = U[v] = SSSP_INF;
  int64_t nf = 0;
  for (int64_t k = 0; k < nsrc; k++) {
    const int64_t s = src[k];
    if (d[s] != 0) d[s] = U[s] = 0, F[nf++] = s;
  }

  while (nf > 0) {
    int64_t nt_count = 0;
#pragma omp parallel num_threads(nt) if (nf > GSP__SSSP_PAR_MIN)
    {
      gsp__sssp_queue q;
      gsp__sssp_queue_init(&q, T, &nt_count);
      SSSP_FN(offer)(g, d, U, touched, NULL, NULL, F, nf, &q);
    }
    /* Every touched vertex got U[v] < d[v]: commit, and it is modified. */
#pragma omp parallel for num_threads(nt) schedule(static) if (nt_count > 4096)
    for (int64_t k = 0; k < nt_count; k++) {
      const int64_t v = T[k];
      touched[v] = 0;
      d[v] = U[v];
    }
    int64_t *tmp = F;
    F = T, T = tmp, nf = nt_count;
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
