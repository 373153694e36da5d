/*
 * gsp_star_*: the sparse star's factorization object (gsp.h). Checks,
 * the three steps of star.h, and the result matrices; the CSR pattern of
 * the factored matrix is kept so that a refactorization can prove it has
 * the same one.
 */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise (huge pages for the n^2 result) */
#endif
#include <string.h>
#include <omp.h>

#include "dense_pass.h"
#include "gsp_ops.h"
#include "sssp_prepare.h"
#include "star.h"

#define GSP_MAGIC_STAR 0x53505347u /* "GSPS" */

struct gsp_star_s {
  uint32_t magic;
  gsp_semiring sr;
  gsp_type t;
  gsp__star_symbolic S;
  gsp__star_kernels k;
  void *x;            /* the factor's values */
  gsp_index *ap, *aj; /* the pattern factored (CSR of A) */
  double analyze_s, factor_s;
};

static gsp_info check_star(const struct gsp_star_s *F, const char *fn) {
  if (!F) return GSP_ERROR(GSP_NULL_POINTER, "%s: F is NULL", fn);
  if (!gsp__is_live(F) || F->magic != GSP_MAGIC_STAR)
    return GSP_ERROR(GSP_INVALID_OBJECT, "%s: F is not a live gsp_star (freed or never created)", fn);
  return GSP_SUCCESS;
}

static void star_destroy(struct gsp_star_s *F) {
  if (!F) return;
  gsp__star_symbolic_free(&F->S);
  gsp__free(F->x);
  gsp__free(F->ap);
  gsp__free(F->aj);
  gsp__free(F);
}

/* The numeric factorization of G into a new value array *x. */
static gsp_info factor_values(void **x, const struct gsp_star_s *F, const struct gsp_matrix_s *G, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  void *v = NULL;
#define GSP_FREE_ALL gsp__free(v)
  GSP_ALLOC(v, F->S.nvals > 0 ? (size_t)F->S.nvals : 1, F->k.esize);
  GSP_TRY(gsp__star_factor(v, &F->k, &F->S, G, gsp__threads(), fn));
  *x = v;
  return info;
#undef GSP_FREE_ALL
}

/* G = A's CSR form, after the checks every entry point shares. */
static gsp_info star_input(struct gsp_matrix_s **G, gsp_matrix A, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__check_matrix(A, fn, "A"));
  GSP_CHECK(A->nrows == A->ncols, GSP_DIMENSION_MISMATCH, "%s: A is %lld x %lld, not square", fn, (long long)A->nrows,
            (long long)A->ncols);
  GSP_TRY(gsp__matrix_csr_view(G, A));
  if ((*G)->type == GSP_FP32 || (*G)->type == GSP_FP64) {
    const int64_t m = (*G)->nvals;
    int64_t nan_at = -1;
    for (int64_t e = 0; e < m && nan_at < 0; e++) {
      const double w = (*G)->type == GSP_FP32 ? (double)((const float *)(*G)->x)[e] : ((const double *)(*G)->x)[e];
      if (w != w) nan_at = e;
    }
    GSP_CHECK(nan_at < 0, GSP_INVALID_VALUE, "%s: A has a NaN weight (entry %lld in row order)", fn, (long long)nan_at);
  }
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_star_factor(gsp_star *Fp, const gsp_matrix A, gsp_semiring s, const gsp_star_opts *opts) {
  static const char *const fn = "gsp_star_factor";
  gsp_info info = GSP_SUCCESS;
  struct gsp_star_s *F = NULL;
#define GSP_FREE_ALL star_destroy(F)
  GSP_CHECK(Fp != NULL, GSP_NULL_POINTER, "%s: F is NULL", fn);
  const gsp_star_opts o = opts ? *opts : (gsp_star_opts){0};
  GSP_CHECK(o.ordering >= GSP_ORDERING_AUTO && o.ordering <= GSP_ORDERING_AMD, GSP_INVALID_VALUE,
            "%s: invalid ordering %d in options", fn, (int)o.ordering);
  struct gsp_matrix_s *G = NULL;
  GSP_TRY(star_input(&G, A, fn));
  F = gsp__calloc(1, sizeof *F);
  GSP_CHECK(F != NULL, GSP_OUT_OF_MEMORY, "%s: cannot allocate the factorization", fn);
  F->sr = s;
  F->t = G->type;
  GSP_TRY(gsp__star_kernels_get(&F->k, G->type, s, fn));
  const int64_t n = G->nrows, m = G->nvals;
  GSP_ALLOC(F->ap, (size_t)n + 1, sizeof *F->ap);
  GSP_ALLOC(F->aj, m > 0 ? (size_t)m : 1, sizeof *F->aj);
  memcpy(F->ap, G->p, ((size_t)n + 1) * sizeof *F->ap);
  if (m > 0) memcpy(F->aj, G->j, (size_t)m * sizeof *F->aj);
  double t0 = omp_get_wtime();
  const star_order ord = o.ordering == GSP_ORDERING_METIS ? STAR_ORDER_METIS
                         : o.ordering == GSP_ORDERING_AMD ? STAR_ORDER_AMD
                                                          : STAR_ORDER_AUTO;
  GSP_TRY(gsp__star_analyze(&F->S, G, ord, fn));
  F->analyze_s = omp_get_wtime() - t0;
  t0 = omp_get_wtime();
  GSP_TRY(factor_values(&F->x, F, G, fn));
  F->factor_s = omp_get_wtime() - t0;
  gsp__burble("%s: %s order, %lld supernodes (widest %lld), %lld factor values, %.3g ops; analysis %.3f s, "
              "factorization %.3f s",
              fn, F->S.ordering, (long long)F->S.nsuper, (long long)F->S.max_ns, (long long)F->S.nvals, F->S.factor_ops,
              F->analyze_s, F->factor_s);
  F->magic = GSP_MAGIC_STAR;
  GSP_TRY(gsp__register(F));
  *Fp = F;
  return GSP_SUCCESS;
#undef GSP_FREE_ALL
}

gsp_info gsp_star_refactor(gsp_star F, const gsp_matrix A) {
  static const char *const fn = "gsp_star_refactor";
  gsp_info info = GSP_SUCCESS;
  void *x = NULL;
#define GSP_FREE_ALL gsp__free(x)
  GSP_TRY(check_star(F, fn));
  struct gsp_matrix_s *G = NULL;
  GSP_TRY(star_input(&G, A, fn));
  GSP_CHECK(G->type == F->t, GSP_INVALID_VALUE, "%s: A is %s, the factorization %s", fn, gsp__type_name(G->type),
            gsp__type_name(F->t));
  const int64_t n = F->S.n;
  GSP_CHECK(G->nrows == n && G->nvals == F->S.m && !memcmp(G->p, F->ap, ((size_t)n + 1) * sizeof *F->ap) &&
                (G->nvals == 0 || !memcmp(G->j, F->aj, (size_t)G->nvals * sizeof *F->aj)),
            GSP_INVALID_VALUE, "%s: A's pattern differs from the factored one (use gsp_star_factor)", fn);
  const double t0 = omp_get_wtime();
  GSP_TRY(factor_values(&x, F, G, fn));
  gsp__free(F->x);
  F->x = x;
  F->factor_s = omp_get_wtime() - t0;
  return GSP_SUCCESS;
#undef GSP_FREE_ALL
}

/* Rows or columns v[0 .. nv) of F's star as a new dense matrix. */
static gsp_info star_lines(gsp_matrix *out, const gsp_star F, const gsp_index *v, gsp_index nv, bool col,
                           const char *fn) {
  gsp_info info = GSP_SUCCESS;
  int64_t *idx = NULL;
  void *x = NULL;
  struct gsp_matrix_s *M = NULL;
  gsp__star_ws ws = {0};
#define GSP_FREE_ALL (gsp__free(idx), gsp__free(x), gsp__matrix_destroy(M), gsp__star_ws_free(&ws))
  GSP_CHECK(out != NULL, GSP_NULL_POINTER, "%s: output is NULL", fn);
  GSP_TRY(check_star(F, fn));
  const int64_t n = F->S.n;
  GSP_CHECK(v != NULL || nv == (gsp_index)n, GSP_NULL_POINTER, "%s: v is NULL and nv (%llu) is not n (%lld)", fn,
            (unsigned long long)nv, (long long)n);
  size_t cells = 0;
  GSP_CHECK(nv <= GSP_INDEX_MAX && gsp__mul_size(&cells, (size_t)nv, (size_t)n), GSP_TOO_LARGE,
            "%s: %llu x %lld result is too large", fn, (unsigned long long)nv, (long long)n);
  GSP_TRY(gsp__sssp_sources(&idx, v, (int64_t)nv, n, fn));
  GSP_ALLOC(x, cells > 0 ? cells : 1, F->k.esize);
  gsp__pass_huge(x, cells * F->k.esize);
  GSP_TRY(gsp__star_ws_make(&ws, &F->k, &F->S, gsp__threads()));
  GSP_TRY(gsp__star_solve(x, &F->k, &F->S, F->x, idx, (int64_t)nv, col, &ws));
  GSP_TRY(gsp__matrix_alloc_dense(&M, F->t, (int64_t)nv, n));
  M->x = x;
  x = NULL;
  M->nvals = (int64_t)cells;
  gsp__value zero;
  gsp__semiring_zero(&zero, F->sr, F->t);
  GSP_TRY(gsp__matrix_mark_absent(M, &zero));
  GSP_TRY(gsp__matrix_publish(M));
  *out = M;
  M = NULL;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_star_rows(gsp_matrix *R, const gsp_star F, const gsp_index *v, gsp_index nv) {
  return star_lines(R, F, v, nv, false, "gsp_star_rows");
}

gsp_info gsp_star_cols(gsp_matrix *C, const gsp_star F, const gsp_index *v, gsp_index nv) {
  return star_lines(C, F, v, nv, true, "gsp_star_cols");
}

gsp_info gsp_star_report_get(gsp_star_report *rep, const gsp_star F) {
  static const char *const fn = "gsp_star_report_get";
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_CHECK(rep != NULL, GSP_NULL_POINTER, "%s: rep is NULL", fn);
  GSP_TRY(check_star(F, fn));
  *rep = (gsp_star_report){.n = (gsp_index)F->S.n,
                           .type = F->t,
                           .semiring = F->sr,
                           .ordering = F->S.ordering,
                           .supernodes = (gsp_index)F->S.nsuper,
                           .factor_values = (gsp_index)F->S.nvals,
                           .max_supernode = (gsp_index)F->S.max_ns,
                           .factor_ops = F->S.factor_ops,
                           .solve_ops = F->S.solve_ops,
                           .analyze_s = F->analyze_s,
                           .factor_s = F->factor_s};
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_star_free(gsp_star *F) {
  if (!F || !*F) return GSP_SUCCESS;
  gsp_info info = check_star(*F, "gsp_star_free");
  if (info < 0) return info;
  gsp__unregister(*F);
  star_destroy(*F);
  *F = NULL;
  return GSP_SUCCESS;
}
