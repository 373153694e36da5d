/*
 * Shared by the all-pairs suites (test_apsp.c, test_johnson.c,
 * test_cuda_apsp.c), on top of sssp_test_ref.h: graphs with negative
 * weights made by the potential trick, a slow Bellman-Ford reference in
 * double per source (each addition rounded to A's type as its arithmetic
 * does), and the checks of a gsp_apsp result: distances against the
 * reference, every parent chain walked with gsp_path_from_parent_row and
 * its weights summed from the source, and (for the relaxation-based
 * algorithms) the parent rule of sssp_test_ref.h (Johnson's on its
 * reweighted distances).
 * Everything here is static: each suite includes it once.
 */
#ifndef APSP_TEST_REF_H
#define APSP_TEST_REF_H

#include "sssp_test_ref.h"

/* A with every arc reweighted to w + p(u) - p(v), p(v) uniform in
 * [-range, range] (integer-valued, exact in every type): the same shortest
 * paths, d'(s,v) = d(s,v) + p(s) - p(v), negative arcs, no negative cycle
 * (every cycle keeps its weight). A's type and pattern. */
static gsp_matrix potential_trick(gsp_matrix A, int64_t range, uint64_t seed) {
  gsp_index n, nv;
  gsp_type t;
  GSP_OK(gsp_matrix_nrows(&n, A));
  GSP_OK(gsp_matrix_nvals(&nv, A));
  GSP_OK(gsp_matrix_type(&t, A));
  gsp_matrix F = NULL, B = NULL, C = NULL;
  GSP_OK(gsp_matrix_cast(&F, A, GSP_FP64));
  gsp_index *I = malloc((nv + 1) * sizeof *I), *J = malloc((nv + 1) * sizeof *J);
  double *X = malloc((nv + 1) * sizeof *X), *p = malloc((n + 1) * sizeof *p);
  cr_assert(I && J && X && p);
  gsp_index cnt = nv;
  GSP_OK(gsp_matrix_extract_tuples(I, J, X, &cnt, F));
  uint64_t st = seed;
  for (gsp_index v = 0; v < n; v++) p[v] = (double)((int64_t)(gsp_test_rand(&st) % (uint64_t)(2 * range + 1)) - range);
  for (gsp_index k = 0; k < cnt; k++) X[k] += p[I[k]] - p[J[k]];
  GSP_OK(gsp_matrix_new(&B, GSP_FP64, n, n));
  GSP_OK(gsp_matrix_build(B, I, J, X, cnt, GSP_DUP_ERROR));
  GSP_OK(gsp_matrix_cast(&C, B, t));
  free(I), free(J), free(X), free(p);
  gsp_matrix_free(&F), gsp_matrix_free(&B);
  return C;
}

/* Does A have a negative weight? */
static bool has_negative(const tg *g) {
  for (int64_t e = 0; e < g->m; e++)
    if (g->w[e] < 0) return true;
  return false;
}

/* Bellman-Ford from s in double, sums rounded to g's type (tsum); the
 * graph must have no negative cycle reachable from s. d[v] = INFINITY
 * where unreachable. */
static void ref_bf(const tg *g, int64_t s, double *d) {
  const int64_t n = g->n;
  for (int64_t v = 0; v < n; v++) d[v] = INFINITY;
  d[s] = 0;
  for (int64_t round = 0; round <= n; round++) {
    bool changed = false;
    for (int64_t u = 0; u < n; u++) {
      if (isinf(d[u])) continue;
      for (int64_t e = g->p[u]; e < g->p[u + 1]; e++) {
        const double nd = tsum(g->t, d[u], g->w[e]);
        if (nd < d[g->j[e]]) d[g->j[e]] = nd, changed = true;
      }
    }
    if (!changed) return;
    cr_assert(round < n, "%sreference Bellman-Ford: negative cycle reachable from %lld", gsp_test_ctx, (long long)s);
  }
}

/* Johnson's potentials: h[v] = the distance to v from a virtual source
 * joined to every vertex by a 0-weight arc (so h <= 0), by Bellman-Ford
 * in double (exact for the integer-valued test weights). */
static void ref_potentials(const tg *g, double *h) {
  const int64_t n = g->n;
  for (int64_t v = 0; v < n; v++) h[v] = 0;
  for (int64_t round = 0; round <= n; round++) {
    bool changed = false;
    for (int64_t u = 0; u < n; u++)
      for (int64_t e = g->p[u]; e < g->p[u + 1]; e++)
        if (h[u] + g->w[e] < h[g->j[e]]) h[g->j[e]] = h[u] + g->w[e], changed = true;
    if (!changed) return;
  }
  cr_assert(false, "%sreference potentials: negative cycle", gsp_test_ctx);
}

/* The whole of M as a dense row-major double array (absent -> `absent`). */
static double *dense_all(gsp_matrix M, double absent) {
  gsp_index nr, nc, nv;
  gsp_type t;
  GSP_OK(gsp_matrix_nrows(&nr, M));
  GSP_OK(gsp_matrix_ncols(&nc, M));
  GSP_OK(gsp_matrix_nvals(&nv, M));
  GSP_OK(gsp_matrix_type(&t, M));
  gsp_index *I = malloc((nv + 1) * sizeof *I), *J = malloc((nv + 1) * sizeof *J);
  char *raw = malloc((nv + 1) * 8);
  double *x = malloc((nr * nc + 1) * sizeof *x);
  cr_assert(I && J && raw && x);
  gsp_index cnt = nv;
  GSP_OK(gsp_matrix_extract_tuples(I, J, raw, &cnt, M));
  for (gsp_index k = 0; k < nr * nc; k++) x[k] = absent;
  for (gsp_index k = 0; k < cnt; k++) x[I[k] * nc + J[k]] = gsp_test_value_f64(t, raw + k * gsp_type_size(t));
  free(I), free(J), free(raw);
  return x;
}

/* A and B have the same shape, type, structure and values (within
 * relative tol; 0: exactly), with the failing entry and gsp_test_ctx in
 * the message. */
static void assert_close(gsp_matrix A, gsp_matrix B, double tol) {
  gsp_index ra, ca, rb, cb;
  gsp_type ta, tb;
  GSP_OK(gsp_matrix_nrows(&ra, A));
  GSP_OK(gsp_matrix_ncols(&ca, A));
  GSP_OK(gsp_matrix_nrows(&rb, B));
  GSP_OK(gsp_matrix_ncols(&cb, B));
  GSP_OK(gsp_matrix_type(&ta, A));
  GSP_OK(gsp_matrix_type(&tb, B));
  cr_assert(ra == rb && ca == cb && ta == tb, "%sshapes or types differ", gsp_test_ctx);
  double *a = dense_all(A, NAN), *b = dense_all(B, NAN);
  for (gsp_index k = 0; k < ra * ca; k++)
    cr_assert(a[k] == b[k] || (isnan(a[k]) && isnan(b[k])) || fabs(a[k] - b[k]) <= tol * (1 + fabs(b[k])),
              "%sentry (%llu,%llu): %.17g vs %.17g", gsp_test_ctx, (unsigned long long)(k / ca),
              (unsigned long long)(k % ca), a[k], b[k]);
  free(a), free(b);
}
static void assert_same(gsp_matrix A, gsp_matrix B) {
  assert_close(A, B, 0);
}

/* How closely distances must match: 0 = exactly; else |gsp - ref| <= tol
 * * (1 + |ref|). */
typedef struct {
  double tol;
  bool rule;     /* parents must follow the parent rule (relaxation-based) */
  double cutoff; /* INFINITY: none */
} apsp_check;

/*
 * Rows of a gsp_apsp result (dist D, parents P or NULL) against the
 * references: row k is source src[k]. Distances: Bellman-Ford per source
 * (cut at the cutoff). Parents: present wherever a distance is; the walk
 * by gsp_path_from_parent_row starts at the source, uses arcs of A, and
 * its weights summed from the source give the distance (within tol);
 * with rule (no cutoff only), each parent follows the rule of
 * ref_parents: on graphs with a negative weight (Johnson) on the
 * reweighted distances d'(s,v) = d(s,v) + h(s) - h(v), i.e. with the key
 * d(s,v) - h(v) (h(s) is one constant per row).
 */
static void check_apsp_rows(const tg *g, const gsp_index *src, int64_t ns, gsp_matrix D, gsp_matrix P, apsp_check c) {
  const int64_t n = g->n;
  gsp_index nr, nc;
  GSP_OK(gsp_matrix_nrows(&nr, D));
  GSP_OK(gsp_matrix_ncols(&nc, D));
  cr_assert(nr == (gsp_index)ns && nc == (gsp_index)n, "%sresult is %llux%llu, expected %lldx%lld", gsp_test_ctx,
            (unsigned long long)nr, (unsigned long long)nc, (long long)ns, (long long)n);
  double *dd = dense_all(D, INFINITY), *pp = P ? dense_all(P, -1) : NULL;
  double *ref = malloc((size_t)(n + 1) * sizeof *ref);
  int64_t *ep = malloc((size_t)(n + 1) * sizeof *ep), *er = malloc((size_t)(n + 1) * sizeof *er);
  gsp_index *path = malloc((size_t)(n + 1) * sizeof *path);
  double *h = NULL, *key = malloc((size_t)(n + 1) * sizeof *key);
  cr_assert(ref && ep && er && path && key);
  if (pp && c.rule && isinf(c.cutoff) && has_negative(g)) {
    h = malloc((size_t)(n + 1) * sizeof *h);
    cr_assert(h);
    ref_potentials(g, h);
  }
  for (int64_t k = 0; k < ns; k++) {
    const int64_t s = (int64_t)src[k];
    const double *row = dd + k * n, *prow = pp ? pp + k * n : NULL;
    ref_bf(g, s, ref);
    if (h)
      for (int64_t v = 0; v < n; v++) key[v] = ref[v] - h[v];
    if (prow && c.rule && isinf(c.cutoff)) ref_parents(g, ref, &s, 1, ep, er, h ? key : NULL);
    for (int64_t v = 0; v < n; v++) {
      const double want = ref[v] <= c.cutoff ? ref[v] : INFINITY;
      if (c.tol == 0 || isinf(want) || isinf(row[v]))
        cr_assert(row[v] == want, "%srow %lld (source %lld) column %lld: gsp %.17g, reference %.17g", gsp_test_ctx,
                  (long long)k, (long long)s, (long long)v, row[v], want);
      else
        cr_assert(fabs(row[v] - want) <= c.tol * (1 + fabs(want)),
                  "%srow %lld (source %lld) column %lld: gsp %.17g, reference %.17g (tol %g)", gsp_test_ctx,
                  (long long)k, (long long)s, (long long)v, row[v], want, c.tol);
    }
    if (!prow) continue;
    for (int64_t v = 0; v < n; v++) {
      if (isinf(row[v])) {
        if (isinf(c.cutoff))
          cr_assert(prow[v] == -1, "%srow %lld: vertex %lld has a parent but no distance", gsp_test_ctx, (long long)k,
                    (long long)v);
        continue;
      }
      if (c.rule && isinf(c.cutoff))
        cr_assert(prow[v] == (double)ep[v], "%srow %lld parent[%lld]: gsp %.0f, rule %lld", gsp_test_ctx, (long long)k,
                  (long long)v, prow[v], (long long)ep[v]);
      gsp_index len = (gsp_index)n;
      gsp_info info = gsp_path_from_parent_row(path, &len, P, (gsp_index)k, (gsp_index)v);
      cr_assert_eq(info, GSP_SUCCESS, "%srow %lld path to %lld: %s %s", gsp_test_ctx, (long long)k, (long long)v,
                   gsp_strerror(info), gsp_last_error());
      cr_assert(path[0] == (gsp_index)s && path[len - 1] == (gsp_index)v, "%srow %lld path to %lld starts at %llu",
                gsp_test_ctx, (long long)k, (long long)v, (unsigned long long)path[0]);
      double sum = 0;
      for (gsp_index q = 1; q < len; q++) {
        const double w = tg_arc(g, (int64_t)path[q - 1], (int64_t)path[q]);
        cr_assert(!isnan(w), "%srow %lld path arc %llu -> %llu is not in A", gsp_test_ctx, (long long)k,
                  (unsigned long long)path[q - 1], (unsigned long long)path[q]);
        sum = tsum(g->t, sum, w);
      }
      if (c.tol == 0)
        cr_assert(sum == row[v], "%srow %lld path to %lld sums to %.17g, dist %.17g", gsp_test_ctx, (long long)k,
                  (long long)v, sum, row[v]);
      else
        cr_assert(fabs(sum - row[v]) <= c.tol * (1 + fabs(row[v])), "%srow %lld path to %lld sums to %.17g, dist %.17g",
                  gsp_test_ctx, (long long)k, (long long)v, sum, row[v]);
    }
  }
  free(dd), free(pp), free(ref), free(ep), free(er), free(path), free(h), free(key);
}

/* Options for a CPU run of one algorithm. */
static gsp_apsp_opts aopts(gsp_apsp_algo a, gsp_backend b) {
  gsp_apsp_opts o;
  memset(&o, 0, sizeof o);
  o.algo = a, o.backend = b;
  return o;
}

/* The forced algorithms; the suites that run on the CPU loop over all
 * APSP_NALGOS, the GPU suites over the first three (the sparse star runs
 * on the CPU). */
static const gsp_apsp_algo apsp_algos[] = {GSP_APSP_FLOYD_WARSHALL, GSP_APSP_MSSSP, GSP_APSP_JOHNSON,
                                           GSP_APSP_SPARSE_STAR};
#define APSP_NALGOS 4
static const char *const apsp_algo_names[] = {"AUTO", "FLOYD_WARSHALL", "MSSSP", "JOHNSON", "SPARSE_STAR"};

/* Row-block callback that copies every block into a dense picture (type
 * FP64, parents as double) and checks that blocks arrive in order. */
typedef struct {
  int64_t n, rows, next, calls, stop_after;
  gsp_type t;
  double *d, *p;
} rows_sink;

static int rows_sink_fn(void *ctx, gsp_index first, gsp_index nrows, const void *dist, const int64_t *parent) {
  rows_sink *s = ctx;
  cr_assert_eq((int64_t)first, s->next, "blocks out of order: %llu after %lld", (unsigned long long)first,
               (long long)s->next);
  cr_assert((int64_t)(first + nrows) <= s->rows);
  for (gsp_index k = 0; k < nrows * (gsp_index)s->n; k++) {
    const size_t at = (size_t)first * (size_t)s->n + k;
    const double x = gsp_test_value_f64(s->t, (const char *)dist + k * gsp_type_size(s->t));
    const bool inf = (s->t == GSP_INT32 && x == (double)INT32_MAX) || (s->t == GSP_INT64 && x >= 9.2e18) || isinf(x);
    s->d[at] = inf ? INFINITY : x;
    if (s->p) s->p[at] = parent ? (double)parent[k] : -2;
  }
  s->next = (int64_t)(first + nrows);
  s->calls++;
  return s->stop_after > 0 && s->calls >= s->stop_after ? 7 : 0;
}

#endif /* APSP_TEST_REF_H */
