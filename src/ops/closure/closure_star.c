/*
 * gsp_closure's sparse branch: M* of a sparse M by the sparse star when
 * gsp_apsp's cost model (apsp_cost.c, the one place the algorithms are
 * priced) predicts it faster than Floyd-Warshall. The same analysis gate
 * as gsp_apsp's AUTO: only a sparse, deep graph (road networks, meshes,
 * grids) pays for the symbolic analysis that prices the star.
 *
 * Successors (MIN_PLUS): succ(i, j) is the parent of i in the tree of j in
 * the reverse graph, whose distances d(., j) are column j of M*; so the
 * star solves columns, a block of targets at a time, and each column's
 * tree follows the rule of every other algorithm (gsp__star_tree_row).
 */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise (huge pages for the n^2 result) */
#endif
#include <math.h>
#include <string.h>

#include "apsp.h"
#include "closure_branch.h"
#include "dense_pass.h"
#include "gsp_ops.h"
#include "sssp_prepare.h"
#include "star.h"

/* A block of solved columns: distances and successors into the results. */
typedef struct {
  const gsp__star_kernels *k;
  const gsp__star_symbolic *S;
  const int64_t *v;          /* the targets (0 .. n - 1) */
  const gsp__sssp_graph *gt; /* the reverse graph */
  bool strict;
  char *d;       /* nthreads x STAR_B x n scratch distances */
  int64_t *p;    /* nthreads x STAR_B x n scratch parents */
  char *out;     /* M*, n x n */
  int64_t *succ; /* n x n */
  const char *fn;
} succ_ctx;

static gsp_info succ_block(void *ctx, const void *W, const int64_t *row, int64_t nb, int t) {
  const succ_ctx *c = ctx;
  const int64_t n = c->S->n;
  const size_t es = c->k->esize, cells = (size_t)STAR_B * (size_t)n;
  char *d = c->d + (size_t)t * cells * es;
  int64_t *p = c->p + (size_t)t * cells, lane[STAR_B];
  for (int64_t b = 0; b < STAR_B; b++) lane[b] = b;
  c->k->unpack(d, W, c->S->iperm, n, lane, nb); /* d row b: d(., v[row[b]]) */
  for (int64_t b = 0; b < nb; b++) {
    const int64_t j = c->v[row[b]];
    const gsp_info info = gsp__star_tree_row(d + (size_t)b * (size_t)n * es, p + b * n, j, c->gt, c->strict, c->fn);
    if (info < 0) return info;
    for (int64_t i = 0; i < n; i++) {
      memcpy(c->out + ((size_t)i * (size_t)n + (size_t)j) * es, d + ((size_t)b * (size_t)n + (size_t)i) * es, es);
      c->succ[(size_t)i * (size_t)n + (size_t)j] = p[b * n + i];
    }
  }
  return GSP_SUCCESS;
}

/* Targets per solve: all at once, or with a progress callback in batches
 * of at least a block a thread, about GSP_PROGRESS_REPORTS of them. */
static int64_t star_batch(int64_t n, int nt, const gsp__progress *pg) {
  if (!pg || !pg->fn) return n > 0 ? n : 1;
  const int64_t least = (int64_t)STAR_B * (nt > 0 ? nt : 1);
  const int64_t b = (n + GSP_PROGRESS_REPORTS - 1) / GSP_PROGRESS_REPORTS;
  return b > least ? b : least;
}

/* M* (and succ) of the factor x on S into the new dense matrices *W, *P;
 * progress after each batch of targets. */
static gsp_info star_result(struct gsp_matrix_s **W, struct gsp_matrix_s **P, struct gsp_matrix_s *M, gsp_semiring s,
                            const gsp__star_kernels *k, const gsp__star_symbolic *S, const void *x, bool negative,
                            const gsp__progress *pg, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  void *r = NULL, *sd = NULL;
  int64_t *all = NULL, *sx = NULL, *sp = NULL;
  struct gsp_matrix_s *MT = NULL;
  gsp__star_ws ws = {0};
#define GSP_FREE_ALL                                                                                   \
  (gsp__free(r), gsp__free(sd), gsp__free(all), gsp__free(sx), gsp__free(sp), gsp__matrix_destroy(MT), \
   gsp__star_ws_free(&ws))
  const int64_t n = M->nrows;
  const int nt = gsp__threads();
  const size_t cells = (size_t)n * (size_t)n;
  GSP_ALLOC(r, cells, k->esize);
  gsp__pass_huge(r, cells * k->esize);
  GSP_ALLOC(all, (size_t)n, sizeof *all);
  for (int64_t v = 0; v < n; v++) all[v] = v;
  GSP_TRY(gsp__star_ws_make(&ws, k, S, nt));
  const int64_t batch = star_batch(n, nt, pg);
  if (!P) {
    for (int64_t lo = 0; lo < n; lo += batch) {
      const int64_t nv = n - lo < batch ? n - lo : batch;
      GSP_TRY(gsp__star_solve((char *)r + (size_t)lo * (size_t)n * k->esize, k, S, x, all + lo, nv, false, &ws));
      if (lo + nv < n) gsp__progress_report(pg, (double)(lo + nv) / (double)n);
    }
  } else {
    GSP_ALLOC(sx, cells, sizeof *sx);
    gsp__pass_huge(sx, cells * sizeof *sx);
    GSP_ALLOC(sd, (size_t)nt * STAR_B * (size_t)n, k->esize);
    GSP_ALLOC(sp, (size_t)nt * STAR_B * (size_t)n, sizeof *sp);
    GSP_TRY(gsp__ops_transpose(&MT, M, fn));
    const gsp__sssp_graph gt = {.n = n,
                                .p = MT->p,
                                .j = MT->j,
                                .csr = MT,
                                .w = MT->x,
                                .t = MT->type,
                                .lim = gsp__sssp_limit(MT->type, false, 0),
                                .nthreads = 1};
    succ_ctx c = {
        .k = k, .S = S, .v = all, .gt = &gt, .strict = !negative, .d = sd, .p = sp, .out = r, .succ = sx, .fn = fn};
    for (int64_t lo = 0; lo < n; lo += batch) {
      const int64_t nv = n - lo < batch ? n - lo : batch;
      c.v = all + lo;
      GSP_TRY(gsp__star_solve_each(k, S, x, all + lo, nv, true, &ws, succ_block, &c));
      if (lo + nv < n) gsp__progress_report(pg, (double)(lo + nv) / (double)n);
    }
    const int64_t none = -1;
    GSP_TRY(gsp__matrix_alloc_dense(P, GSP_INT64, n, n));
    (*P)->x = sx;
    sx = NULL;
    (*P)->nvals = (int64_t)cells;
    GSP_TRY(gsp__matrix_mark_absent(*P, &none));
  }
  GSP_TRY(gsp__matrix_alloc_dense(W, M->type, n, n));
  (*W)->x = r;
  r = NULL;
  (*W)->nvals = (int64_t)cells;
  gsp__value zero;
  gsp__semiring_zero(&zero, s, M->type);
  GSP_TRY(gsp__matrix_mark_absent(*W, &zero));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__star_closure_try(struct gsp_matrix_s *M, struct gsp_matrix_s **succ, gsp_semiring s, bool fw_gpu,
                               bool *done, const gsp__progress *progress, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  gsp__star_symbolic S = {0};
  void *x = NULL;
  struct gsp_matrix_s *W = NULL, *P = NULL;
#define GSP_FREE_ALL (gsp__star_symbolic_free(&S), gsp__free(x), gsp__matrix_destroy(W), gsp__matrix_destroy(P))
  *done = false;
  const int64_t n = M->nrows;
  if (M->fmt != GSP_FMT_CSR || M->dev_only || s == GSP_OR_AND || n < 32 || (succ && s != GSP_MIN_PLUS))
    return GSP_SUCCESS;
  gsp__apsp_shape shape = {
      .n = n, .m = M->nvals, .ns = n, .t = M->type, .paths = succ != NULL, .fw_gpu = fw_gpu, .threads = gsp__threads()};
  const int64_t probes[3] = {0, n / 3, 2 * n / 3};
  shape.depth = gsp__apsp_depth(M, probes, 3);
  double sec[GSP_APSP_ALGOS];
  gsp__apsp_predict(sec, &shape);
  sec[GSP_APSP_MSSSP] = sec[GSP_APSP_JOHNSON] = INFINITY; /* not the closure's */
  if (!gsp__apsp_star_worth(&shape, sec)) return GSP_SUCCESS;
  GSP_TRY(gsp__star_analyze(&S, M, STAR_ORDER_AUTO, fn));
  shape.star = true;
  shape.star_factor_ops = S.factor_ops;
  shape.star_solve_ops = S.solve_ops;
  gsp__apsp_predict(sec, &shape);
  gsp__burble("%s: sparse star predicted %.3g s, Floyd-Warshall %.3g s (%s order, %lld supernodes, widest %lld)", fn,
              sec[GSP_APSP_SPARSE_STAR], sec[GSP_APSP_FLOYD_WARSHALL], S.ordering, (long long)S.nsuper,
              (long long)S.max_ns);
  if (!(sec[GSP_APSP_SPARSE_STAR] < sec[GSP_APSP_FLOYD_WARSHALL])) {
    GSP_FREE_ALL;
    return GSP_SUCCESS;
  }
  gsp__progress_report(progress, 0.0);
  gsp__star_kernels k;
  GSP_TRY(gsp__star_kernels_get(&k, M->type, s, fn));
  GSP_ALLOC(x, S.nvals > 0 ? (size_t)S.nvals : 1, k.esize);
  GSP_TRY(gsp__star_factor(x, &k, &S, M, gsp__threads(), fn));
  const bool negative = succ && gsp__weights_scan(M, gsp__threads()).negative >= 0;
  GSP_TRY(star_result(&W, succ ? &P : NULL, M, s, &k, &S, x, negative, progress, fn));
  if (P) GSP_TRY(gsp__matrix_publish(P));
  /* nothing can fail past this point */
  gsp__matrix_swap_in(M, W);
  W = NULL;
  gsp__matrix_host_changed(M);
  if (succ) *succ = P;
  P = NULL;
  *done = true;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
