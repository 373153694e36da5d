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
#include "gsp_cuda_plugin.h"

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

/* The result vectors, uninitialised: every entry and presence byte is
 * written by the run (or the presence is dropped as full), and new pages are
 * mapped in parallel by whoever writes them first. *P is made when the
 * parents or the sources are asked for (the roots derive from it). */
static gsp_info new_outputs(struct gsp_vector_s **D, struct gsp_vector_s **P, struct gsp_vector_s **S, gsp_type t,
                            int64_t n, bool want_parent, bool want_source, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__ops_vector_new_uninit(D, t, n, fn));
  if (want_parent || want_source) {
    GSP_TRY(gsp__ops_vector_new_uninit(P, GSP_INT64, n, fn));
    if (want_source) GSP_TRY(gsp__ops_vector_new_uninit(S, GSP_INT64, n, fn));
  }
#undef GSP_FREE_ALL
  return info;
}

/* The call offered to the GPU: *taken when it ran there (the sink and
 * *nvals then written, the roots derived here from the parents); a decline
 * fails an explicit CUDA request with the reason. */
static gsp_info run_gpu(gsp__backend_choice *be, const gsp__sssp_sink *sink, int64_t *nvals, const gsp__sssp_graph *g,
                        const int64_t *src, int64_t nsrc, const gsp_sssp_opts *o, const gsp__sssp_knobs *k,
                        gsp_cuda_sssp_stats *stats, bool *taken, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  const gsp_cuda_sssp_plan plan = gsp__sssp_gpu_plan(o, g, k);
  gsp__sssp_sink dev_sink = *sink;
  dev_sink.root = NULL;
  const gsp_cuda_arrays csr = gsp__matrix_cuda_arrays(g->csr);
  const gsp__cuda_api *cu;
  GSP_TRY(gsp__cuda_get(&cu, fn));
  GSP_TRY(cu->sssp(&dev_sink, nvals, &csr, src, nsrc, &plan, &g->lim, stats, taken));
  if (*taken && sink->root) GSP_TRY(gsp__sssp_roots(sink->root, sink->parent, g->n));
  if (!*taken) GSP_TRY(gsp__backend_declined(be, fn));
#undef GSP_FREE_ALL
  return info;
}

/* Completes the presence of the vectors (nvals entries), publishes them and
 * hands them out; *D, *P, *S are NULL after, success or not (a failed
 * publish destroys them). P is dropped unless the parents are asked for. */
static gsp_info hand_out(gsp_vector *dist, gsp_vector *source, gsp_vector *parent, struct gsp_vector_s **D,
                         struct gsp_vector_s **P, struct gsp_vector_s **S, int64_t nvals) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL (void)(*D = *P = *S = NULL)
  if (!parent) gsp__vector_destroy(*P), *P = NULL; /* only needed for the sources */
  struct gsp_vector_s *outs[3] = {*D, *P, *S};
  for (int k = 0; k < 3; k++)
    if (outs[k]) gsp__ops_vector_done_count(outs[k], nvals);
  GSP_TRY(gsp__sssp_publish_vectors(*D, *P, *S));
  *dist = *D;
  if (parent) *parent = *P;
  if (source) *source = *S;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* The caller's report and the diagnostics of a run that succeeded. */
static void report_run(const gsp_sssp_opts *o, gsp__diag *diag, bool taken, double t_entry, double t_gate,
                       double t_back) {
  if (o->advanced && o->advanced->report)
    *o->advanced->report = (gsp_run_report){.backend = taken ? GSP_BACKEND_CUDA : GSP_BACKEND_CPU, .gpus = taken};
  if (diag && taken) {
    diag->sssp_gpu = true;
    diag->sssp.host_before_s = t_gate - t_entry;
    diag->sssp.host_after_s = seconds() - t_back;
  }
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
  const int64_t n = g.n, nsrc = (int64_t)nsources;
  GSP_TRY(gsp__sssp_sources(&src, sources, nsrc, n, fn));
  GSP_TRY(new_outputs(&D, &P, &S, g.t, n, parent != NULL, source != NULL, fn));
  int64_t *px = P ? (int64_t *)P->x : NULL, *sx = S ? (int64_t *)S->x : NULL;
  /* a parent (and a root) exists exactly where a distance does: one pass
   * writes the three presence arrays (P's only when it is returned) */
  const gsp__sssp_sink sink = {
      .dist = D->x, .parent = px, .root = sx, .b = {D->b, parent ? P->b : NULL, S ? S->b : NULL}};
  int64_t nvals = 0;

  bool taken = false;
  gsp__backend_choice be;
  GSP_TRY(gsp__backend_pick(&be, o.backend, true, fn));
  if (be.gpu) {
    if (diag) t_gate = seconds();
    GSP_TRY(run_gpu(&be, &sink, &nvals, &g, src, nsrc, &o, k, stats, &taken, fn));
    if (diag) t_back = seconds();
  }
  if (!taken) {
    GSP_TRY(run_cpu(D->x, &g, o.algo, src, nsrc));
    if (px) GSP_TRY(gsp__sssp_cpu_tree(px, sx, D->x, &g, src, nsrc, true));
    nvals = gsp__sssp_gather(&sink, g.t, &g.lim, false, 0, n, NULL, NULL, 0, g.nthreads);
  }
  /* the presence is complete (or, at nvals == n, dropped unwritten) */
  GSP_TRY(hand_out(dist, source, parent, &D, &P, &S, nvals));
  report_run(&o, diag, taken, t_entry, t_gate, t_back);
  GSP_FREE_ALL;
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
