/*
 * gsp_msssp: shortest paths from many sources, one row of a dense
 * nsources x n result per source (absent: unreachable). Checks and results
 * here; the kernels are msssp_cpu.c and, on the GPU, Okuyama's batched
 * vertex-major kernel behind gsp_cuda_msssp.
 */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise (dense_pass.h) */
#endif
#include <string.h>

#include "dense_pass.h"
#include "gsp_ops.h"
#include "sssp_branch.h"
#include "sssp_prepare.h"
#include "gsp_cuda_plugin.h"

static const char *const fn = "gsp_msssp";

/* New unpublished dense rows x n matrix of type t owning x and the
 * presence bytes *b (nvals of them set; b is dropped when all are). Both
 * are consumed. */
static gsp_info dense_result(struct gsp_matrix_s **out, gsp_type t, int64_t rows, int64_t n, void **x, uint8_t **b,
                             int64_t nvals) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *M = NULL;
#define GSP_FREE_ALL gsp__matrix_destroy(M)
  GSP_TRY(gsp__matrix_alloc_dense(&M, t, rows, n));
  M->x = *x;
  *x = NULL;
  M->nvals = nvals;
  if (nvals == rows * n) gsp__free(*b);
  else M->b = *b;
  *b = NULL;
  *out = M;
#undef GSP_FREE_ALL
  return info;
}

/* Many sources of a small, dense or deep graph (a ring: thousands of
 * rounds) cost less as rows of the dense closure: gsp_apsp's plan decides,
 * as for its AUTO, and *done says it took the call. Integer distances only,
 * where both give the same bits (floating-point sums would associate
 * differently); parents and an explicit batch keep the relaxation. */
static gsp_info closure_rows(gsp_matrix *dist, bool *done, const gsp_matrix A, const gsp_index *sources,
                             gsp_index nsources, const gsp_msssp_opts *o, gsp__diag *diag) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  gsp_apsp_report rep;
  gsp_apsp_advanced adv = {.dry_run = true, .report = &rep};
  gsp_apsp_opts ao = {.backend = o->backend,
                      .sources = sources,
                      .nsources = nsources,
                      .has_cutoff = o->has_cutoff,
                      .cutoff = o->cutoff,
                      .advanced = &adv};
  gsp_matrix none = NULL; /* a dry run makes no result */
  GSP_TRY(gsp_apsp(&none, NULL, A, &ao));
  if (rep.algo != GSP_APSP_FLOYD_WARSHALL) return info;
  gsp__burble("%s: %lld sources as rows of the closure (predicted %.3g s, relaxation %.3g s)", fn, (long long)nsources,
              rep.predicted_seconds[GSP_APSP_FLOYD_WARSHALL], rep.predicted_seconds[GSP_APSP_MSSSP]);
  if (diag) diag->msssp_closure = true;
  adv.dry_run = false, ao.algo = GSP_APSP_FLOYD_WARSHALL;
  GSP_TRY(gsp_apsp(dist, NULL, A, &ao));
  *done = true;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_msssp(gsp_matrix *dist, gsp_matrix *parent, const gsp_matrix A, const gsp_index *sources,
                   gsp_index nsources, const gsp_msssp_opts *opts) {
  return gsp__msssp_run(dist, parent, A, sources, nsources, opts, NULL);
}

gsp_info gsp__msssp_run(gsp_matrix *dist, gsp_matrix *parent, const gsp_matrix A, const gsp_index *sources,
                        gsp_index nsources, const gsp_msssp_opts *opts, gsp__diag *diag) {
  gsp_info info = GSP_SUCCESS;
  if (diag) memset(diag, 0, sizeof *diag);
  struct gsp_matrix_s *D = NULL, *P = NULL;
  int64_t *src = NULL;
  void *dx = NULL, *px = NULL;
  uint8_t *db = NULL, *pb = NULL;
#define GSP_FREE_ALL                                                                                            \
  (gsp__matrix_destroy(D), gsp__matrix_destroy(P), gsp__free(src), gsp__free(px), gsp__free(dx), gsp__free(db), \
   gsp__free(pb))
  GSP_CHECK(dist != NULL, GSP_NULL_POINTER, "%s: dist is NULL", fn);
  GSP_OUTPUTS(fn, {dist, sizeof *dist, "dist"}, {parent, sizeof *parent, "parent"});
  GSP_CHECK(sources != NULL, GSP_INVALID_VALUE, "%s: sources is NULL (all pairs: use gsp_apsp)", fn);
  const gsp_msssp_opts o = opts ? *opts : (gsp_msssp_opts){0};
  gsp__sssp_graph g;
  GSP_TRY(gsp__sssp_prepare(&g, A, o.has_cutoff, o.cutoff, 0, o.backend, fn));
  const int64_t n = g.n;
  gsp_type pt;
  GSP_TRY(gsp__sssp_parent_type(&pt, o.parent_type, n, fn));
  GSP_CHECK(nsources <= GSP_INDEX_MAX, GSP_TOO_LARGE, "%s: %llu sources exceed the row limit", fn,
            (unsigned long long)nsources);
  const int64_t ns = (int64_t)nsources;
  size_t cells;
  GSP_CHECK(gsp__mul_size(&cells, (size_t)ns, (size_t)n), GSP_TOO_LARGE, "%s: %lld x %lld result is too large", fn,
            (long long)ns, (long long)n);
  GSP_TRY(gsp__sssp_sources(&src, sources, ns, n, fn));
  if (!parent && o.batch == 0 && ns > 0 && (g.t == GSP_INT32 || g.t == GSP_INT64)) {
    bool done = false;
    GSP_TRY(closure_rows(dist, &done, A, sources, nsources, &o, diag));
    if (done) {
      GSP_FREE_ALL;
      return info;
    }
  }
  GSP_ALLOC(dx, cells > 0 ? cells : 1, gsp_type_size(g.t));
  GSP_ALLOC(db, cells > 0 ? cells : 1, 1);
  if (parent) {
    GSP_ALLOC(px, cells > 0 ? cells : 1, gsp_type_size(pt));
    GSP_ALLOC(pb, cells > 0 ? cells : 1, 1);
  }
  gsp__pass_huge(dx, cells * gsp_type_size(g.t));
  gsp__pass_huge(db, cells);
  if (px) gsp__pass_huge(px, cells * gsp_type_size(pt)), gsp__pass_huge(pb, cells);
  int64_t *p64 = pt == GSP_INT64 ? px : NULL;
  int32_t *p32 = pt == GSP_INT32 ? px : NULL;
  int64_t nvals = 0;
  bool taken = false;
  gsp__backend_choice be;
  GSP_TRY(gsp__backend_pick(&be, o.backend, ns > 0, fn));
  if (be.gpu && ns > 0) {
    /* clamped (wider is 1024 anyway): no huge gsp_index becomes a bad batch */
    int64_t batch = 0;
    gsp__msssp_batch(&batch, g.csr, ns, o.batch > 1024 ? 1024 : (int64_t)o.batch, parent != NULL);
    const gsp_cuda_arrays csr = gsp__matrix_cuda_arrays(g.csr);
    const gsp__cuda_api *cu;
    GSP_TRY(gsp__cuda_get(&cu, fn));
    if (batch > 0)
      GSP_TRY(cu->msssp(dx, p64, p32, db, pb, &nvals, &csr, src, ns, &g.lim, batch, diag ? &diag->sssp : NULL, &taken));
    if (!taken) GSP_TRY(gsp__backend_declined(&be, fn));
    if (diag) diag->sssp_gpu = taken;
  }
  if (!taken && ns > 0) {
    GSP_TRY(gsp__msssp_cpu(dx, p64, p32, &g, src, ns));
    nvals = gsp__sssp_mark(db, dx, (int64_t)cells, &g); /* parallel */
    /* a parent exists exactly where a distance does (the GPU writes both) */
    if (parent && nvals < (int64_t)cells) gsp__pass_memcpy(pb, db, cells);
  }
  GSP_TRY(dense_result(&D, g.t, ns, n, &dx, &db, nvals));
  if (parent) GSP_TRY(dense_result(&P, pt, ns, n, &px, &pb, nvals));
  GSP_TRY(gsp__sssp_publish_matrices(D, P));
  *dist = D;
  if (parent) *parent = P;
  D = P = NULL;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
