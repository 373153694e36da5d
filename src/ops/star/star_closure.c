/*
 * gsp_closure's sparse branch: M* of a sparse M by the sparse star when
 * gsp_apsp's cost model (apsp_cost.c, the one place the algorithms are
 * priced) predicts it faster than Floyd-Warshall. The same analysis gate
 * as gsp_apsp's AUTO: only a sparse, deep graph (road networks, meshes,
 * grids) pays for the symbolic analysis that prices the star.
 */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise (huge pages for the n^2 result) */
#endif
#include <string.h>

#include "apsp.h"
#include "dense_pass.h"
#include "star.h"

gsp_info gsp__star_closure_try(struct gsp_matrix_s *M, gsp_semiring s, bool fw_gpu, bool *done, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  gsp__star_symbolic S = {0};
  void *x = NULL, *r = NULL;
  int64_t *all = NULL;
  struct gsp_matrix_s *W = NULL;
#define GSP_FREE_ALL (gsp__star_symbolic_free(&S), gsp__free(x), gsp__free(r), gsp__free(all), gsp__matrix_destroy(W))
  *done = false;
  const int64_t n = M->nrows;
  if (M->fmt != GSP_FMT_CSR || M->dev_only || s == GSP_OR_AND || n < 32) return GSP_SUCCESS;
  gsp__apsp_shape shape = {.n = n, .m = M->nvals, .ns = n, .t = M->type, .fw_gpu = fw_gpu, .threads = gsp__threads()};
  const int64_t probes[3] = {0, n / 3, 2 * n / 3};
  shape.depth = gsp__apsp_depth(M, probes, 3);
  if (!gsp__apsp_star_worth(&shape)) return GSP_SUCCESS;
  GSP_TRY(gsp__star_analyze(&S, M, STAR_ORDER_AUTO, fn));
  shape.star = true;
  shape.star_factor_ops = S.factor_ops;
  shape.star_solve_ops = S.solve_ops;
  double sec[GSP_APSP_ALGOS];
  gsp__apsp_predict(sec, &shape);
  gsp__burble("%s: sparse star predicted %.3g s, Floyd-Warshall %.3g s (%s order, %lld supernodes, widest %lld)", fn,
              sec[GSP_APSP_SPARSE_STAR], sec[GSP_APSP_FLOYD_WARSHALL], S.ordering, (long long)S.nsuper,
              (long long)S.max_ns);
  if (!(sec[GSP_APSP_SPARSE_STAR] < sec[GSP_APSP_FLOYD_WARSHALL])) {
    GSP_FREE_ALL;
    return GSP_SUCCESS;
  }
  gsp__star_kernels k;
  GSP_TRY(gsp__star_kernels_get(&k, M->type, s, fn));
  GSP_ALLOC(x, S.nvals > 0 ? (size_t)S.nvals : 1, k.esize);
  int64_t bad = -1;
  info = gsp__star_factor(x, &k, &S, M, gsp__threads(), &bad);
  GSP_CHECK(info != GSP_NEGATIVE_CYCLE, GSP_NEGATIVE_CYCLE,
            "%s: the graph has a %s cycle through vertex %lld (M unchanged)", fn,
            gsp_semiring_cycle_sign(s) > 0 ? "positive" : "negative", (long long)bad);
  GSP_TRY(info);
  const size_t cells = (size_t)n * (size_t)n;
  GSP_ALLOC(r, cells, k.esize);
  gsp__pass_huge(r, cells * k.esize);
  GSP_ALLOC(all, (size_t)n, sizeof *all);
  for (int64_t v = 0; v < n; v++) all[v] = v;
  GSP_TRY(gsp__star_solve(r, &k, &S, x, all, n, false, gsp__threads()));
  GSP_TRY(gsp__matrix_alloc_dense(&W, M->type, n, n));
  W->x = r;
  r = NULL;
  W->nvals = (int64_t)cells;
  gsp__value zero;
  gsp__semiring_zero(&zero, s, M->type);
  GSP_TRY(gsp__matrix_mark_absent(W, &zero));
  /* nothing can fail past this point */
  gsp__matrix_swap_in(M, W);
  W = NULL;
  gsp__matrix_host_changed(M);
  *done = true;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
