/*
 * Shared by the Bellman-Ford suites (test_bellman_ford.c,
 * test_cuda_bellman_ford.c): graphs with negative weights, and slow simple
 * references written independently of the library:
 *  - plain Bellman-Ford (every arc, every round, Jacobi-style) in long
 *    double, where every addition follows A's arithmetic: rounded to float
 *    for FP32, clamped for integers with INT_MAX as an absorbing infinity;
 *    and the same without clamping to decide whether a negative cycle is
 *    reachable (exact for the integer values used here);
 *  - the parent rule rebuilt by a BFS over the tight arcs;
 *  - every returned cycle checked to be a cycle of A with a negative sum;
 *  - SuiteSparse:GraphBLAS vxm relaxation to a fixpoint (grb_sssp).
 * Everything is static: each suite includes it once.
 */
#ifndef BF_TEST_REF_H
#define BF_TEST_REF_H

#include "sssp_test_ref.h"

/* a + w in A's arithmetic; +INFINITY is "unreached" (and INT_MAX arcs). */
static long double bf_sum(gsp_type t, long double a, long double w) {
  if (isinf(a) && a > 0) return INFINITY;
  switch (t) {
  case GSP_INT32: {
    if (w == (long double)INT32_MAX) return INFINITY;
    const long double s = a + w;
    if (s >= (long double)INT32_MAX) return INFINITY;
    return s < (long double)INT32_MIN ? (long double)INT32_MIN : s;
  }
  case GSP_INT64: {
    if (w == (long double)INT64_MAX) return INFINITY;
    const long double s = a + w; /* exact: 64-bit mantissa, |s| < 2^64 */
    if (s >= (long double)INT64_MAX) return INFINITY;
    return s < (long double)INT64_MIN ? (long double)INT64_MIN : s;
  }
  case GSP_FP32:
    return (long double)((float)a + (float)w);
  default:
    return (long double)((double)a + (double)w);
  }
}

/* Reference Bellman-Ford from src: d[v] in A's arithmetic (INFINITY:
 * unreachable). Returns whether a negative cycle is reachable (decided
 * without clamping; the values in the tests keep that exact). */
static bool ref_bf(const tg *g, int64_t src, long double *d) {
  const int64_t n = g->n;
  long double *nd = malloc((size_t)(n + 1) * sizeof *nd), *x = malloc((size_t)(n + 1) * sizeof *x);
  cr_assert(nd && x);
  for (int64_t v = 0; v < n; v++) d[v] = x[v] = INFINITY;
  d[src] = x[src] = 0;
  bool changed = true;
  for (int64_t r = 0; r < n && changed; r++) { /* clamped, to the fixpoint */
    changed = false;
    memcpy(nd, d, (size_t)n * sizeof *nd);
    for (int64_t u = 0; u < n; u++)
      for (int64_t e = g->p[u]; e < g->p[u + 1]; e++) {
        const long double s = bf_sum(g->t, d[u], g->w[e]);
        if (s < nd[g->j[e]]) nd[g->j[e]] = s, changed = true;
      }
    memcpy(d, nd, (size_t)n * sizeof *nd);
  }
  bool neg = false;
  for (int64_t r = 0; r <= n; r++) { /* unclamped: a change in round n+1 is a cycle */
    bool ch = false;
    for (int64_t u = 0; u < n; u++)
      for (int64_t e = g->p[u]; e < g->p[u + 1]; e++) {
        const bool inf_arc = (g->t == GSP_INT32 && g->w[e] == (double)INT32_MAX) ||
                             (g->t == GSP_INT64 && g->w[e] >= 9.2e18) || isinf(g->w[e]);
        if (isinf(x[u]) || inf_arc) continue;
        const long double s =
            g->t == GSP_FP32 ? (long double)((float)x[u] + (float)g->w[e]) : x[u] + (long double)g->w[e];
        if (s < x[g->j[e]]) x[g->j[e]] = s, ch = true;
      }
    if (!ch) break;
    if (r == n) neg = true;
  }
  free(nd), free(x);
  return neg;
}

/* The cycle is a cycle of A (consecutive vertices joined by arcs, back to
 * the start, no vertex twice, starting at its smallest vertex) whose weights
 * sum below zero. */
static void check_cycle(const tg *g, const gsp_index *c, gsp_index len) {
  cr_assert(len >= 1 && len <= (gsp_index)g->n, "%scycle length %llu", gsp_test_ctx, (unsigned long long)len);
  long double s = 0;
  for (gsp_index k = 0; k < len; k++) {
    cr_assert(c[k] < (gsp_index)g->n);
    cr_assert(c[k] >= c[0], "%scycle does not start at its smallest vertex", gsp_test_ctx);
    for (gsp_index i = 0; i < k; i++)
      cr_assert(c[i] != c[k], "%svertex %llu twice", gsp_test_ctx, (unsigned long long)c[k]);
    const int64_t u = (int64_t)c[k], v = (int64_t)c[(k + 1) % len];
    const double w = tg_arc(g, u, v);
    cr_assert(!isnan(w), "%scycle arc %lld -> %lld is not in A", gsp_test_ctx, (long long)u, (long long)v);
    s += (long double)w;
  }
  cr_assert(s < 0, "%scycle of %llu vertices sums to %Lg", gsp_test_ctx, (unsigned long long)len, s);
}

/* Expected parents (the rule) from reference distances d. */
static void ref_bf_parents(const tg *g, const long double *d, int64_t src, int64_t *par) {
  const int64_t n = g->n;
  int64_t *lev = malloc((size_t)(n + 1) * sizeof *lev), *q = malloc((size_t)(n + 1) * sizeof *q);
  cr_assert(lev && q);
  int64_t qh = 0, qt = 0;
  for (int64_t v = 0; v < n; v++) lev[v] = -1, par[v] = -1;
  lev[src] = 0, par[src] = src, q[qt++] = src;
  while (qh < qt) {
    const int64_t u = q[qh++];
    for (int64_t e = g->p[u]; e < g->p[u + 1]; e++) {
      const int64_t v = g->j[e];
      if (isinf(d[v]) || bf_sum(g->t, d[u], g->w[e]) != d[v]) continue;
      if (lev[v] < 0) lev[v] = lev[u] + 1, par[v] = u, q[qt++] = v;
      else if (lev[v] == lev[u] + 1 && u < par[v]) par[v] = u;
    }
  }
  for (int64_t v = 0; v < n; v++)
    cr_assert(isinf(d[v]) || lev[v] >= 0, "%sreference: vertex %lld has no tight path", gsp_test_ctx, (long long)v);
  free(lev), free(q);
}

/* gsp_bellman_ford's vectors against the references: distances exact,
 * parents by the rule, every parent chain summing (in A's arithmetic, from
 * the source on) to the distance. */
static void check_bf_result(const tg *g, int64_t src, gsp_vector dist, gsp_vector parent) {
  const int64_t n = g->n;
  long double *d = malloc((size_t)(n + 1) * sizeof *d);
  double *dd = malloc((size_t)(n + 1) * sizeof *dd), *pp = malloc((size_t)(n + 1) * sizeof *pp);
  int64_t *ep = malloc((size_t)(n + 1) * sizeof *ep);
  cr_assert(d && dd && pp && ep);
  cr_assert(!ref_bf(g, src, d), "%sreference sees a negative cycle", gsp_test_ctx);
  gsp_type t;
  GSP_OK(gsp_vector_type(&t, dist));
  cr_assert_eq(t, g->t);
  if (g->t == GSP_INT64) { /* doubles cannot hold every int64 distance */
    for (int64_t v = 0; v < n; v++) {
      int64_t x;
      gsp_info info = gsp_vector_extract_element(&x, dist, (gsp_index)v);
      if (isinf(d[v]))
        cr_assert_eq(info, GSP_NO_VALUE, "%sdist[%lld] present, reference unreachable", gsp_test_ctx, (long long)v);
      else
        cr_assert(info == GSP_SUCCESS && (long double)x == d[v], "%sdist[%lld]: gsp %lld, reference %Lg", gsp_test_ctx,
                  (long long)v, (long long)x, d[v]);
    }
  } else {
    vec_dense(dd, dist, INFINITY);
    for (int64_t v = 0; v < n; v++)
      cr_assert((long double)dd[v] == d[v] || (isinf(dd[v]) && isinf(d[v])),
                "%sdist[%lld]: gsp %.17g, reference %.17Lg", gsp_test_ctx, (long long)v, dd[v], d[v]);
  }
  if (parent) {
    vec_dense(pp, parent, -1);
    ref_bf_parents(g, d, src, ep);
    for (int64_t v = 0; v < n; v++)
      cr_assert(pp[v] == (double)ep[v], "%sparent[%lld]: gsp %.0f, expected %lld", gsp_test_ctx, (long long)v, pp[v],
                (long long)ep[v]);
    for (int64_t v = 0; v < n; v++) { /* the chain reproduces the distance */
      if (pp[v] < 0) continue;
      int64_t x = v, hops = 0;
      int64_t *chain = ep; /* reuse: parents are checked equal already */
      (void)chain;
      long double s = 0;
      int64_t stack[4096];
      while ((int64_t)pp[x] != x && hops < 4096) stack[hops++] = x, x = (int64_t)pp[x];
      if (hops == 4096) continue;
      for (int64_t k = hops - 1; k >= 0; k--) {
        const int64_t a = k == hops - 1 ? x : stack[k + 1];
        const double w = tg_arc(g, a, stack[k]);
        cr_assert(!isnan(w), "%sparent arc %lld -> %lld not in A", gsp_test_ctx, (long long)a, (long long)stack[k]);
        s = bf_sum(g->t, s, w);
      }
      cr_assert(s == d[v], "%sparent chain to %lld sums to %Lg, dist %Lg", gsp_test_ctx, (long long)v, s, d[v]);
    }
  }
  free(d), free(dd), free(pp), free(ep);
}

/* ---- graphs ---- */

/* The arcs of base (non-negative weights) reweighted by random integer
 * potentials p in [-P, P]: w'(u,v) = w(u,v) + p(u) - p(v). Every cycle keeps
 * its weight, so there is no negative cycle, but many arcs are negative.
 * Returned as FP64 (exact integers, or the base's fractions plus integers). */
static gsp_matrix reweighted(gsp_matrix base, int64_t P, uint64_t seed) {
  tg g = tg_from_matrix(base);
  uint64_t st = seed * 0x2545f4914f6cdd1dULL + 7;
  double *p = malloc((size_t)(g.n + 1) * sizeof *p);
  gsp_index *I = malloc((size_t)(g.m + 1) * sizeof *I), *J = malloc((size_t)(g.m + 1) * sizeof *J);
  double *W = malloc((size_t)(g.m + 1) * sizeof *W);
  cr_assert(p && I && J && W);
  for (int64_t v = 0; v < g.n; v++) p[v] = (double)((int64_t)(gsp_test_rand(&st) % (uint64_t)(2 * P + 1)) - P);
  for (int64_t u = 0; u < g.n; u++)
    for (int64_t e = g.p[u]; e < g.p[u + 1]; e++)
      I[e] = (gsp_index)u, J[e] = (gsp_index)g.j[e], W[e] = g.w[e] + p[u] - p[g.j[e]];
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, GSP_FP64, (gsp_index)g.n, (gsp_index)g.n));
  GSP_OK(gsp_matrix_build(A, I, J, W, (gsp_index)g.m, GSP_DUP_ERROR));
  free(p), free(I), free(J), free(W);
  tg_free(&g);
  return A;
}

/* FP64 matrix -> type t (exact for the integer values used). */
static gsp_matrix as_type(gsp_matrix A, gsp_type t) {
  if (t == GSP_FP64) {
    gsp_matrix C = NULL;
    GSP_OK(gsp_matrix_dup(&C, A));
    return C;
  }
  gsp_matrix C = NULL;
  GSP_OK(gsp_matrix_cast(&C, A, t));
  return C;
}

/*
 * Two parts: vertices [0, h) hold a reweighted random graph (no negative
 * cycle), vertices [h, n) another one plus a negative cycle of `clen`
 * vertices (weights reweighted from base weights summing to -1). With
 * bridge, arcs 0 -> h and (h-1) -> h+1 join the first part to the second.
 */
static gsp_matrix with_cycle(int64_t n, int64_t clen, bool bridge, uint64_t seed) {
  const int64_t h = n / 2;
  uint64_t st = seed * 0x9e3779b97f4a7c15ULL + 3;
  const int64_t cap = n * 6 + clen + 8;
  gsp_index *I = malloc((size_t)cap * sizeof *I), *J = malloc((size_t)cap * sizeof *J);
  double *W = malloc((size_t)cap * sizeof *W), *p = malloc((size_t)(n + 1) * sizeof *p);
  cr_assert(I && J && W && p);
  for (int64_t v = 0; v < n; v++) p[v] = (double)((int64_t)(gsp_test_rand(&st) % 41) - 20);
  int64_t m = 0;
  for (int64_t k = 0; k < n * 5; k++) {
    const int64_t lo = k % 2 ? h : 0, sz = k % 2 ? n - h : h;
    const int64_t u = lo + (int64_t)(gsp_test_rand(&st) % (uint64_t)sz),
                  v = lo + (int64_t)(gsp_test_rand(&st) % (uint64_t)sz);
    I[m] = (gsp_index)u, J[m] = (gsp_index)v, W[m] = (double)(gsp_test_rand(&st) % 10) + p[u] - p[v], m++;
  }
  for (int64_t k = 0; k < clen; k++) { /* h+1 -> h+3 -> ... : base weights 0, ..., 0, -1 */
    const int64_t u = h + 1 + 2 * k % (n - h - 1), v = h + 1 + 2 * ((k + 1) % clen) % (n - h - 1);
    I[m] = (gsp_index)u, J[m] = (gsp_index)v, W[m] = (k == clen - 1 ? -1.0 : 0.0) + p[u] - p[v], m++;
  }
  if (bridge) {
    I[m] = 0, J[m] = (gsp_index)(h + 1), W[m] = 3, m++;
    I[m] = (gsp_index)(h - 1), J[m] = (gsp_index)h, W[m] = -4, m++;
  }
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, GSP_FP64, (gsp_index)n, (gsp_index)n));
  GSP_OK(gsp_matrix_build(A, I, J, W, (gsp_index)m, GSP_DUP_LAST)); /* cycle arcs win */
  free(I), free(J), free(W), free(p);
  return A;
}

#endif /* BF_TEST_REF_H */
