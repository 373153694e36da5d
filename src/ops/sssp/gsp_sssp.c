/*
 * gsp_sssp and gsp_nearest_source: checks, backend choice, the CPU
 * algorithms, and the result vectors. Both are one multi-source run: a
 * single source, or every source at distance 0 (the nearest one wins).
 * Results are built in new vectors and handed out only when complete.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <string.h>
#include <time.h>

#include "gsp_ops.h"
#include "sssp_branch.h"
#include "sssp_gather.h"
#include "sssp_prepare.h"
#ifdef GSP_HAVE_CUDA
#include "gsp_cuda.h"
#endif

/* AUTO on the CPU: delta-stepping did the least work per vertex on every
 * graph family measured (bench/bench_sssp.c); Harish re-relaxes vertices
 * many times on power-law graphs, DA2CF needs many rounds on grids. */
static gsp_sssp_algo cpu_auto(const gsp__sssp_graph *g) {
  (void)g;
  return GSP_SSSP_DELTA;
}

static gsp_info run_cpu(void *d, const gsp__sssp_graph *g, gsp_sssp_algo algo, const int64_t *src, int64_t nsrc) {
  if (algo == GSP_SSSP_AUTO) algo = cpu_auto(g);
  switch (algo) {
  case GSP_SSSP_HARISH:
    return gsp__sssp_cpu_harish(d, g, src, nsrc);
  case GSP_SSSP_DA2CF:
    return gsp__sssp_cpu_da2cf(d, g, src, nsrc);
  default:
    return gsp__sssp_cpu_delta(d, g, src, nsrc);
  }
}

/* Seconds on the monotonic clock; taken only for a report. */
static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

gsp_info gsp__sssp_run(const char *fn, gsp_vector *dist, gsp_vector *source, gsp_vector *parent, gsp_matrix A,
                       const gsp_index *sources, gsp_index nsources, const gsp_sssp_opts *opts,
                       const gsp__sssp_knobs *k, gsp__diag *diag) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_vector_s *D = NULL, *P = NULL, *S = NULL;
  int64_t *src = NULL;
  /* host phases around the gateway, for the report */
  const double t_entry = diag ? seconds() : 0;
  double t_gate = 0, t_back = 0;
  gsp_cuda_sssp_stats *stats = diag ? &diag->sssp : NULL;
  if (diag) memset(diag, 0, sizeof *diag);
  (void)k, (void)stats;
#define GSP_FREE_ALL (gsp__vector_destroy(D), gsp__vector_destroy(P), gsp__vector_destroy(S), gsp__free(src))
  GSP_CHECK(dist != NULL, GSP_NULL_POINTER, "%s: dist is NULL", fn);
  GSP_OUTPUTS(fn, {dist, sizeof *dist, "dist"}, {source, sizeof *source, "source"}, {parent, sizeof *parent, "parent"});
  const gsp_sssp_opts o = opts ? *opts : (gsp_sssp_opts){0};
  GSP_CHECK(o.algo >= GSP_SSSP_AUTO && o.algo <= GSP_SSSP_DELTA, GSP_INVALID_VALUE,
            "%s: invalid algorithm %d in options", fn, (int)o.algo);
  gsp__sssp_graph g;
  GSP_TRY(gsp__sssp_prepare(&g, A, o.has_cutoff, o.cutoff, o.delta, o.backend, fn));
  const int64_t n = g.n;
  GSP_TRY(gsp__sssp_sources(&src, sources, (int64_t)nsources, n, fn));

  /* every entry and presence byte is written below (or the presence is
   * dropped as full): no zeroing, and new pages are mapped in parallel by
   * whoever writes them first */
  GSP_TRY(gsp__ops_vector_new_uninit(&D, g.t, n, fn));
  if (parent || source) {
    GSP_TRY(gsp__ops_vector_new_uninit(&P, GSP_INT64, n, fn));
    if (source) GSP_TRY(gsp__ops_vector_new_uninit(&S, GSP_INT64, n, fn));
  }
  int64_t *px = P ? (int64_t *)P->x : NULL, *sx = S ? (int64_t *)S->x : NULL;
  /* a parent (and a root) exists exactly where a distance does: one pass
   * writes the three presence arrays (P's only when it is returned) */
  const gsp__sssp_sink sink = {
      .dist = D->x, .parent = px, .root = sx, .b = {D->b, parent ? P->b : NULL, S ? S->b : NULL}};
  int64_t nvals = 0;

  bool taken = false;
  gsp__backend_choice be;
  GSP_TRY(gsp__backend_pick(&be, o.backend, true, fn));
#ifdef GSP_HAVE_CUDA
  if (be.gpu) {
    if (diag) t_gate = seconds();
    const gsp_cuda_sssp_plan plan = gsp__sssp_gpu_plan(&o, &g, k);
    gsp__sssp_sink dev_sink = sink; /* the roots are derived here, from the parents */
    dev_sink.root = NULL;
    GSP_TRY(gsp_cuda_sssp(&dev_sink, &nvals, g.csr, src, (int64_t)nsources, &plan, &g.lim, stats, &taken));
    if (taken && sx) GSP_TRY(gsp__sssp_roots(sx, px, n));
    if (!taken) GSP_TRY(gsp__backend_declined(&be, fn));
    if (diag) t_back = seconds();
  }
#endif
  if (!taken) {
    GSP_TRY(run_cpu(D->x, &g, o.algo, src, (int64_t)nsources));
    if (px) GSP_TRY(gsp__sssp_cpu_tree(px, sx, D->x, &g, src, (int64_t)nsources, true));
    nvals = gsp__sssp_gather(&sink, g.t, &g.lim, false, 0, n, NULL, NULL, 0, g.nthreads);
  }

  /* the presence is complete (or, at nvals == n, dropped unwritten) */
  if (!parent) gsp__vector_destroy(P), P = NULL; /* only needed for the sources */
  struct gsp_vector_s *outs[3] = {D, P, S};
  for (int k = 0; k < 3; k++)
    if (outs[k]) gsp__ops_vector_done_count(outs[k], nvals);
  info = gsp__sssp_publish_vectors(D, P, S);
  if (info < 0) {
    D = P = S = NULL; /* destroyed by the publish */
    GSP_FREE_ALL;
    return info;
  }
  *dist = D;
  if (parent) *parent = P;
  if (source) *source = S;
  gsp__free(src);
  if (o.advanced && o.advanced->report)
    *o.advanced->report = (gsp_run_report){.backend = taken ? GSP_BACKEND_CUDA : GSP_BACKEND_CPU, .gpus = taken};
  if (diag && taken) {
    diag->sssp_gpu = true;
    diag->sssp.host_before_s = t_gate - t_entry;
    diag->sssp.host_after_s = seconds() - t_back;
  }
#undef GSP_FREE_ALL
  return GSP_SUCCESS;
}

gsp_info gsp_sssp(gsp_vector *dist, gsp_vector *parent, const gsp_matrix A, gsp_index src, const gsp_sssp_opts *opts) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__check_matrix(A, "gsp_sssp", "A"));
  GSP_CHECK(src < (gsp_index)A->nrows || A->nrows != A->ncols, GSP_INVALID_INDEX,
            "gsp_sssp: source %llu out of range 0..%lld", (unsigned long long)src, (long long)A->nrows - 1);
#undef GSP_FREE_ALL
  return gsp__sssp_run("gsp_sssp", dist, NULL, parent, A, &src, 1, opts, NULL, NULL);
}

gsp_info gsp_nearest_source(gsp_vector *dist, gsp_vector *source, gsp_vector *parent, const gsp_matrix A,
                            const gsp_index *sources, gsp_index nsources, const gsp_sssp_opts *opts) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_CHECK(sources != NULL, GSP_NULL_POINTER, "gsp_nearest_source: sources is NULL");
  GSP_CHECK(nsources >= 1 && nsources <= GSP_INDEX_MAX, GSP_INVALID_VALUE,
            "gsp_nearest_source: nsources is %llu; give at least one source", (unsigned long long)nsources);
#undef GSP_FREE_ALL
  return gsp__sssp_run("gsp_nearest_source", dist, source, parent, A, sources, nsources, opts, NULL, NULL);
}
