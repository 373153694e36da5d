/*
 * Shared by the shortest-path suites (test_sssp.c, test_msssp.c,
 * test_cuda_sssp.c): test graphs, and slow simple references written
 * independently of the library:
 *  - Dijkstra with a binary heap in double, where every addition is rounded
 *    to the weight type as A's arithmetic does (float for FP32), so its
 *    result is the exact fixpoint the library must reproduce;
 *  - the parent rule checked from scratch: the smallest tight tail of
 *    smaller distance, else (ties: zero weights, absorbed float sums) the
 *    smallest tight tail one level up, levels relaxed over tight arcs from
 *    the vertices placed so far;
 *  - every parent chain walked with gsp_path_from_parent and its weights
 *    summed from the source in A's arithmetic: the sum must equal dist;
 *  - SuiteSparse:GraphBLAS: GrB_vxm on GrB_MIN_PLUS_SEMIRING_<T> with a MIN
 *    accumulator, repeated to a fixpoint.
 * Everything here is static: each suite includes it once.
 */
#ifndef SSSP_TEST_REF_H
#define SSSP_TEST_REF_H

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gsp.h"
#include "gsp_test.h"

static const gsp_type sssp_types[] = {GSP_INT32, GSP_INT64, GSP_FP32, GSP_FP64};
static const gsp_sssp_algo sssp_algos[] = {GSP_SSSP_HARISH, GSP_SSSP_DA2CF, GSP_SSSP_DELTA, GSP_SSSP_AUTO};
static const char *const sssp_algo_names[] = {"AUTO", "HARISH", "DA2CF", "DELTA"};

/* ---- a graph as CSR with double weights (exact copies of A's values) ---- */

typedef struct {
  int64_t n, m;
  gsp_type t;
  int64_t *p, *j;
  double *w;
} tg;

static void tg_free(tg *g) {
  free(g->p), free(g->j), free(g->w);
  memset(g, 0, sizeof *g);
}

/* The arcs of A (any numeric type) in row-major order. */
static tg tg_from_matrix(gsp_matrix A) {
  tg g = {0};
  gsp_index n, nv;
  GSP_OK(gsp_matrix_nrows(&n, A));
  GSP_OK(gsp_matrix_nvals(&nv, A));
  GSP_OK(gsp_matrix_type(&g.t, A));
  gsp_matrix D = NULL;
  GSP_OK(gsp_matrix_cast(&D, A, GSP_FP64)); /* exact for every value used */
  gsp_index *I = malloc((nv + 1) * sizeof *I), *J = malloc((nv + 1) * sizeof *J);
  double *X = malloc((nv + 1) * sizeof *X);
  g.p = calloc(n + 1, sizeof *g.p);
  g.j = malloc((nv + 1) * sizeof *g.j);
  g.w = malloc((nv + 1) * sizeof *g.w);
  cr_assert(I && J && X && g.p && g.j && g.w);
  gsp_index cnt = nv;
  GSP_OK(gsp_matrix_extract_tuples(I, J, X, &cnt, D));
  cr_assert_eq(cnt, nv);
  g.n = (int64_t)n, g.m = (int64_t)nv;
  for (gsp_index k = 0; k < nv; k++) {
    cr_assert(k == 0 || I[k] > I[k - 1] || (I[k] == I[k - 1] && J[k] > J[k - 1]), "tuples not sorted");
    g.p[I[k] + 1]++;
    g.j[k] = (int64_t)J[k];
    g.w[k] = X[k];
  }
  for (gsp_index i = 0; i < n; i++) g.p[i + 1] += g.p[i];
  free(I), free(J), free(X);
  gsp_matrix_free(&D);
  return g;
}

/* a + w in the arithmetic of type t (inputs are values of t). */
static double tsum(gsp_type t, double a, double w) {
  if (isinf(a) || isinf(w)) return INFINITY;
  if (t == GSP_FP32) return (double)(float)((float)a + (float)w);
  return a + w; /* FP64, and integers (the test values stay far below 2^53) */
}

/* Integer types: the largest finite value; the library's infinity is MAX. */
static double tmax(gsp_type t) {
  return t == GSP_INT32 ? (double)INT32_MAX : t == GSP_INT64 ? 9.2e18 : INFINITY;
}

/* ---- reference Dijkstra ---- */

static void heap_sift_up(int64_t *h, int64_t *pos, const double *d, int64_t i) {
  int64_t v = h[i];
  while (i > 0 && d[v] < d[h[(i - 1) / 2]]) {
    h[i] = h[(i - 1) / 2], pos[h[i]] = i, i = (i - 1) / 2;
  }
  h[i] = v, pos[v] = i;
}

static void heap_sift_down(int64_t *h, int64_t *pos, const double *d, int64_t hn) {
  int64_t v = h[0], i = 0;
  for (;;) {
    int64_t c = 2 * i + 1;
    if (c >= hn) break;
    if (c + 1 < hn && d[h[c + 1]] < d[h[c]]) c++;
    if (!(d[h[c]] < d[v])) break;
    h[i] = h[c], pos[h[i]] = i, i = c;
  }
  h[i] = v, pos[v] = i;
}

/* d[v] = distance from the nearest of src[0..ns) (INFINITY: unreachable or
 * beyond the cutoff). */
static void ref_dijkstra(const tg *g, const int64_t *src, int64_t ns, double cutoff, double *d) {
  const int64_t n = g->n;
  int64_t *h = malloc((size_t)(n + 1) * sizeof *h), *pos = malloc((size_t)(n + 1) * sizeof *pos);
  cr_assert(h && pos);
  int64_t hn = 0;
  for (int64_t v = 0; v < n; v++) d[v] = INFINITY, pos[v] = -1;
  for (int64_t k = 0; k < ns; k++) {
    if (pos[src[k]] != -1) continue;
    d[src[k]] = 0, h[hn] = src[k], pos[src[k]] = hn, hn++;
  }
  while (hn > 0) {
    const int64_t u = h[0];
    pos[u] = -2;
    if (--hn > 0) h[0] = h[hn], heap_sift_down(h, pos, d, hn);
    for (int64_t e = g->p[u]; e < g->p[u + 1]; e++) {
      const int64_t v = g->j[e];
      const double nd = tsum(g->t, d[u], g->w[e]);
      if (pos[v] == -2 || !(nd <= cutoff) || !(nd < tmax(g->t)) || !(nd < d[v])) continue;
      d[v] = nd;
      if (pos[v] == -1) h[hn] = v, pos[v] = hn, hn++;
      heap_sift_up(h, pos, d, pos[v]);
    }
  }
  free(h), free(pos);
}

/* ---- the parent rule, from scratch ---- */

/*
 * Expected parent (-1 unreachable) and root of every vertex, by the rule
 * for non-negative weights. Tight: u -> v with d[u] + w == d[v] in A's
 * arithmetic, v reached. key orders the vertices (NULL: key = d; Johnson
 * passes its reweighted distances up to a constant): a vertex with a tight
 * tail of smaller key is "strict", its parent the smallest such tail, level
 * 0 like the sources; every other reached vertex (a tie: all its tight
 * tails have its own key) has level 1 + the least level of its tight
 * tails, and its parent is the smallest tight tail one level up. Levels by
 * plain relaxation to a fixpoint, not by a BFS.
 */
static void ref_parents(const tg *g, const double *d, const int64_t *src, int64_t ns, int64_t *par, int64_t *root,
                        const double *key) {
  const int64_t n = g->n;
  if (!key) key = d;
  int64_t *lev = malloc((size_t)(n + 1) * sizeof *lev);
  cr_assert(lev);
  for (int64_t v = 0; v < n; v++) lev[v] = -1, par[v] = -1, root[v] = -1;
  for (int64_t k = 0; k < ns; k++) lev[src[k]] = 0, par[src[k]] = src[k];
  /* strict vertices: the smallest tight tail of smaller key */
  for (int64_t u = 0; u < n; u++)
    for (int64_t e = g->p[u]; e < g->p[u + 1]; e++) {
      const int64_t v = g->j[e];
      if (isinf(d[u]) || isinf(d[v]) || tsum(g->t, d[u], g->w[e]) != d[v]) continue;
      cr_assert(key[u] <= key[v], "%sreference: tight arc %lld -> %lld goes down in key", gsp_test_ctx, (long long)u,
                (long long)v);
      if (par[v] == v || !(key[u] < key[v])) continue;
      if (par[v] < 0 || u < par[v]) par[v] = u, lev[v] = 0;
    }
  /* ties: levels by relaxation over the tight arcs into them */
  for (bool changed = true; changed;) {
    changed = false;
    for (int64_t u = 0; u < n; u++)
      for (int64_t e = g->p[u]; e < g->p[u + 1]; e++) {
        const int64_t v = g->j[e];
        if (lev[u] < 0 || isinf(d[v]) || par[v] >= 0 || tsum(g->t, d[u], g->w[e]) != d[v]) continue;
        if (lev[v] < 0 || lev[u] + 1 < lev[v]) lev[v] = lev[u] + 1, changed = true;
      }
  }
  for (int64_t u = 0; u < n; u++)
    for (int64_t e = g->p[u]; e < g->p[u + 1]; e++) {
      const int64_t v = g->j[e];
      if (lev[v] > 0 && par[v] < 0 && lev[u] == lev[v] - 1 && tsum(g->t, d[u], g->w[e]) == d[v])
        par[v] = u; /* tails in increasing order: the first is the smallest */
    }
  for (int64_t v = 0; v < n; v++) {
    cr_assert(isinf(d[v]) || lev[v] >= 0, "%sreference: vertex %lld has no tight path", gsp_test_ctx, (long long)v);
    int64_t x = v, steps = 0;
    while (x >= 0 && par[x] != x && steps++ <= n) x = par[x];
    cr_assert(steps <= n, "%sreference: the parents of %lld form a cycle", gsp_test_ctx, (long long)v);
    root[v] = x >= 0 ? x : -1;
  }
  free(lev);
}

/* Weight of arc u -> v (NAN if absent); rows are sorted (tg_from_matrix
 * checks), so a binary search. */
static double tg_arc(const tg *g, int64_t u, int64_t v) {
  int64_t lo = g->p[u], hi = g->p[u + 1];
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (g->j[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo < g->p[u + 1] && g->j[lo] == v ? g->w[lo] : NAN;
}

/* A small graph from tuples in FP64 (exact in every type), cast to t. */
static inline gsp_matrix small_graph(gsp_type t, gsp_index n, const gsp_index *I, const gsp_index *J, const double *W,
                                     gsp_index m) {
  gsp_matrix D = NULL, A = NULL;
  GSP_OK(gsp_matrix_new(&D, GSP_FP64, n, n));
  GSP_OK(gsp_matrix_build(D, I, J, W, m, GSP_DUP_ERROR));
  GSP_OK(gsp_matrix_cast(&A, D, t));
  gsp_matrix_free(&D);
  return A;
}

/* The 8-vertex graph on which the parent rules are pinned by hand (see
 * test_sssp.c, parent_rule_pinned_by_hand): 0 -1-> 2 -1-> 4 -1-> 7,
 * 0 -2-> 5 -1-> 7, 0 -3-> 6 -0-> 1, 1 -0-> 3, 3 -0-> 1, 7 -0-> 3. */
static inline gsp_matrix pinned_graph(gsp_type t) {
  static const gsp_index I[] = {0, 0, 0, 1, 2, 3, 4, 5, 6, 7}, J[] = {2, 5, 6, 3, 4, 1, 7, 7, 1, 3};
  static const double W[] = {1, 2, 3, 0, 1, 0, 1, 1, 0, 0};
  return small_graph(t, 8, I, J, W, 10);
}

/* ---- reading results ---- */

/* v(i) as a double (NAN when absent); *info = the extract's result. */
static inline double vget(gsp_vector v, gsp_index i, gsp_info *info) {
  gsp_type t;
  GSP_OK(gsp_vector_type(&t, v));
  char x[8];
  *info = gsp_vector_extract_element(x, v, i);
  return *info == GSP_SUCCESS ? gsp_test_value_f64(t, x) : NAN;
}

/* Dense copy of a vector: x[v] (INFINITY / -1 when absent per `absent`). */
static void vec_dense(double *x, gsp_vector v, double absent) {
  gsp_index n, nv;
  gsp_type t;
  GSP_OK(gsp_vector_size(&n, v));
  GSP_OK(gsp_vector_nvals(&nv, v));
  GSP_OK(gsp_vector_type(&t, v));
  gsp_vector c = NULL;
  GSP_OK(gsp_vector_dup(&c, v));
  gsp_index *I = malloc((nv + 1) * sizeof *I);
  double *X = malloc((nv + 1) * sizeof *X);
  void *raw = malloc((nv + 1) * 8);
  cr_assert(I && X && raw);
  gsp_index cnt = nv;
  GSP_OK(gsp_vector_extract_tuples(I, raw, &cnt, c));
  for (gsp_index i = 0; i < n; i++) x[i] = absent;
  for (gsp_index k = 0; k < cnt; k++) x[I[k]] = gsp_test_value_f64(t, (const char *)raw + k * gsp_type_size(t));
  free(I), free(X), free(raw);
  gsp_vector_free(&c);
}

/* Dense copy of row r of a matrix (same conventions). */
static void row_dense(double *x, gsp_matrix M, gsp_index r, double absent) {
  gsp_index n, nv;
  gsp_type t;
  GSP_OK(gsp_matrix_ncols(&n, M));
  GSP_OK(gsp_matrix_nvals(&nv, M));
  GSP_OK(gsp_matrix_type(&t, M));
  gsp_index *I = malloc((nv + 1) * sizeof *I), *J = malloc((nv + 1) * sizeof *J);
  void *raw = malloc((nv + 1) * 8);
  cr_assert(I && J && raw);
  gsp_index cnt = nv;
  GSP_OK(gsp_matrix_extract_tuples(I, J, raw, &cnt, M));
  for (gsp_index i = 0; i < n; i++) x[i] = absent;
  for (gsp_index k = 0; k < cnt; k++)
    if (I[k] == r) x[J[k]] = gsp_test_value_f64(t, (const char *)raw + k * gsp_type_size(t));
  free(I), free(J), free(raw);
}

/* ---- checks ---- */

/* dist / parent (dense, from the library) against the references: exact
 * distances, exact parents by the rule, roots when given, and every
 * parent chain summing to its distance. srcs as passed to the library. */
static void check_dense(const tg *g, const int64_t *src, int64_t ns, double cutoff, const double *dist,
                        const double *par, const double *root) {
  const int64_t n = g->n;
  double *d = malloc((size_t)(n + 1) * sizeof *d);
  int64_t *ep = malloc((size_t)(n + 1) * sizeof *ep), *er = malloc((size_t)(n + 1) * sizeof *er);
  cr_assert(d && ep && er);
  ref_dijkstra(g, src, ns, cutoff, d);
  for (int64_t v = 0; v < n; v++)
    cr_assert(dist[v] == d[v] || (isinf(dist[v]) && isinf(d[v])), "%sdist[%lld]: gsp %.17g, reference Dijkstra %.17g",
              gsp_test_ctx, (long long)v, dist[v], d[v]);
  if (par || root) ref_parents(g, d, src, ns, ep, er, NULL);
  if (par) {
    for (int64_t v = 0; v < n; v++)
      cr_assert(par[v] == (double)ep[v], "%sparent[%lld]: gsp %.0f, expected %lld (dist %.17g)", gsp_test_ctx,
                (long long)v, par[v], (long long)ep[v], d[v]);
    /* the chain reproduces the distance, summed from the root onward */
    for (int64_t v = 0; v < n; v++) {
      if (par[v] < 0) continue;
      int64_t chain[64], len = 0, x = v;
      while (par[x] != x && len < 64) chain[len++] = x, x = (int64_t)par[x];
      if (len == 64) continue; /* long chains: checked through gsp_path_from_parent */
      double s = 0;
      for (int64_t k = len - 1; k >= 0; k--) {
        const int64_t a = k == len - 1 ? x : chain[k + 1];
        const double w = tg_arc(g, a, chain[k]);
        cr_assert(!isnan(w), "%sparent arc %lld -> %lld is not in A", gsp_test_ctx, (long long)a, (long long)chain[k]);
        s = tsum(g->t, s, w);
      }
      cr_assert(s == dist[v], "%sparent chain to %lld sums to %.17g, dist %.17g", gsp_test_ctx, (long long)v, s,
                dist[v]);
    }
  }
  if (root)
    for (int64_t v = 0; v < n; v++)
      cr_assert(root[v] == (double)er[v], "%sroot[%lld]: gsp %.0f, expected %lld", gsp_test_ctx, (long long)v, root[v],
                (long long)er[v]);
  free(d), free(ep), free(er);
}

/* Walk every reachable vertex with gsp_path_from_parent (all of them up
 * to `limit` vertices) and sum the weights along the path. */
static void check_paths(const tg *g, gsp_vector dist, gsp_vector parent, int64_t limit) {
  const int64_t n = g->n;
  double *dd = malloc((size_t)(n + 1) * sizeof *dd);
  gsp_index *path = malloc((size_t)(n + 1) * sizeof *path);
  cr_assert(dd && path);
  vec_dense(dd, dist, INFINITY);
  const int64_t step = n > limit ? n / limit : 1;
  for (int64_t v = 0; v < n; v += step) {
    gsp_index len = (gsp_index)n;
    gsp_info info = gsp_path_from_parent(path, &len, parent, (gsp_index)v);
    if (isinf(dd[v])) {
      cr_assert_eq(info, GSP_NO_VALUE, "%spath to unreachable %lld: %s", gsp_test_ctx, (long long)v,
                   gsp_strerror(info));
      continue;
    }
    cr_assert_eq(info, GSP_SUCCESS, "%spath to %lld: %s %s", gsp_test_ctx, (long long)v, gsp_strerror(info),
                 gsp_last_error());
    cr_assert(len >= 1 && path[len - 1] == (gsp_index)v);
    cr_assert(dd[path[0]] == 0, "%spath to %lld starts at %llu with distance %g", gsp_test_ctx, (long long)v,
              (unsigned long long)path[0], dd[path[0]]);
    double s = 0;
    for (gsp_index k = 1; k < len; k++) {
      const double w = tg_arc(g, (int64_t)path[k - 1], (int64_t)path[k]);
      cr_assert(!isnan(w), "%spath arc %llu -> %llu not in A", gsp_test_ctx, (unsigned long long)path[k - 1],
                (unsigned long long)path[k]);
      s = tsum(g->t, s, w);
    }
    cr_assert(s == dd[v], "%spath to %lld sums to %.17g, dist %.17g", gsp_test_ctx, (long long)v, s, dd[v]);
    if (len > 1) { /* too small a buffer: GSP_INSUFFICIENT_SPACE with the size */
      gsp_index small = len - 1;
      cr_assert_eq(gsp_path_from_parent(path, &small, parent, (gsp_index)v), GSP_INSUFFICIENT_SPACE);
      cr_assert_eq(small, len);
    }
  }
  free(dd), free(path);
}

/* Library vectors against the references. */
static void check_sssp_result(const tg *g, const int64_t *src, int64_t ns, double cutoff, gsp_vector dist,
                              gsp_vector parent, gsp_vector root) {
  gsp_type t;
  GSP_OK(gsp_vector_type(&t, dist));
  cr_assert_eq(t, g->t, "%sdist has type %d, A %d", gsp_test_ctx, (int)t, (int)g->t);
  const int64_t n = g->n;
  double *dd = malloc((size_t)(n + 1) * sizeof *dd), *pp = malloc((size_t)(n + 1) * sizeof *pp),
         *rr = malloc((size_t)(n + 1) * sizeof *rr);
  cr_assert(dd && pp && rr);
  vec_dense(dd, dist, INFINITY);
  if (parent) vec_dense(pp, parent, -1);
  if (root) vec_dense(rr, root, -1);
  check_dense(g, src, ns, cutoff, dd, parent ? pp : NULL, root ? rr : NULL);
  free(dd), free(pp), free(rr);
}

/* GraphBLAS: d = e_src, then d = min(d, d min.+ A) to a fixpoint. */
static GrB_Vector grb_sssp(gsp_matrix A, gsp_type t, gsp_index src) {
  gsp_test_grb_init();
  GrB_Matrix G = gsp_test_to_grb_matrix(A);
  GrB_Index n;
  GRB_OK(GrB_Matrix_nrows(&n, G));
  GrB_Vector d = NULL, prev = NULL;
  GRB_OK(GrB_Vector_new(&d, gsp_test_grb_type(t), n));
  GRB_OK(GrB_Vector_setElement_FP64(d, 0.0, src));
  GrB_BinaryOp mn = gsp_test_grb_binop(GSP_MIN, t);
  GrB_Semiring sr = gsp_test_grb_semiring(GSP_MIN_PLUS, t);
  for (GrB_Index it = 0; it <= n; it++) {
    GRB_OK(GrB_Vector_dup(&prev, d));
    GRB_OK(GrB_vxm(d, NULL, mn, sr, d, G, NULL));
    GrB_Index a, b;
    GRB_OK(GrB_Vector_nvals(&a, d));
    GRB_OK(GrB_Vector_nvals(&b, prev));
    bool same = a == b;
    if (same) { /* equal values: reduce |d == prev| with LAND */
      GrB_Vector eq = NULL;
      bool all = false;
      GRB_OK(GrB_Vector_new(&eq, GrB_BOOL, n));
      GRB_OK(GrB_Vector_eWiseMult_BinaryOp(eq, NULL, NULL, t == GSP_FP32 ? GrB_EQ_FP32 : GrB_EQ_FP64, d, prev, NULL));
      GRB_OK(GrB_Vector_reduce_BOOL(&all, NULL, GrB_LAND_MONOID_BOOL, eq, NULL));
      GrB_Index ne;
      GRB_OK(GrB_Vector_nvals(&ne, eq));
      same = all && ne == a;
      GrB_free(&eq);
    }
    GrB_free(&prev);
    if (same) break;
  }
  GrB_free(&G);
  return d;
}

/* ---- test graphs ---- */

typedef enum {
  F_RANDOM,       /* DIMACS-style random, weights 0..20 */
  F_RMAT,         /* R-MAT power law, weights 0..50 */
  F_GRID,         /* 2-D grid, weights 1..9 */
  F_RING,         /* directed ring, weights 0..5 */
  F_RING2,        /* undirected ring */
  F_COMPLETE,     /* complete digraph, weights 1..100 */
  F_DISCONNECTED, /* two random halves and an isolated vertex */
  F_ZERO,         /* mostly zero weights: zero cycles, many ties */
  F_FRACTION,     /* fractional weights in [0, 4) (integer types: floored) */
  F_ABSORB,       /* 1e8-scale arcs beside unit arcs: float sums absorb */
  F_COUNT
} family;
static const char *const family_names[] = {"random",   "rmat",         "grid", "ring",     "ring2",
                                           "complete", "disconnected", "zero", "fraction", "absorb"};

/* A graph of the family as FP64 (exact integer values except F_FRACTION). */
static gsp_matrix family_fp64(family f, int64_t size, uint64_t seed) {
  gsp_matrix A = NULL;
  switch (f) {
  case F_RANDOM:
    GSP_OK(gsp_generate_random(&A, GSP_FP64, size, (gsp_index)size * 6, 0, 20, seed));
    return A;
  case F_RMAT: {
    int scale = 0;
    while ((1ll << (scale + 1)) <= size) scale++;
    GSP_OK(gsp_generate_rmat(&A, GSP_FP64, scale, 8, 0, 0, 0, 0, 50, seed));
    return A;
  }
  case F_GRID: {
    int64_t r = (int64_t)sqrt((double)size);
    GSP_OK(gsp_generate_grid(&A, GSP_FP64, r, size / r, 1, 9, seed));
    return A;
  }
  case F_RING:
    GSP_OK(gsp_generate_ring(&A, GSP_FP64, size, false, 0, 5, seed));
    return A;
  case F_RING2:
    GSP_OK(gsp_generate_ring(&A, GSP_FP64, size, true, 0, 5, seed));
    return A;
  case F_COMPLETE: {
    const int64_t k = size < 80 ? size : 80;
    GSP_OK(gsp_generate_complete(&A, GSP_FP64, k, 1, 100, seed));
    return A;
  }
  default:
    break;
  }
  /* custom tuples */
  uint64_t st = seed * 0x9e3779b97f4a7c15ULL + (uint64_t)f;
  const int64_t n = size, cap = n * 8 + 16;
  gsp_index *I = malloc(cap * sizeof *I), *J = malloc(cap * sizeof *J);
  double *W = malloc(cap * sizeof *W);
  cr_assert(I && J && W);
  int64_t m = 0;
  for (int64_t k = 0; k < n * 6 && m < cap; k++) {
    int64_t u = (int64_t)(gsp_test_rand(&st) % (uint64_t)n), v = (int64_t)(gsp_test_rand(&st) % (uint64_t)n);
    double w;
    if (f == F_DISCONNECTED) {
      if (u == 0 || v == 0 || (u < n / 2) != (v < n / 2)) continue;
      w = (double)(gsp_test_rand(&st) % 30);
    } else if (f == F_ZERO) {
      w = gsp_test_rand(&st) % 10 < 7 ? 0 : (double)(1 + gsp_test_rand(&st) % 3);
    } else if (f == F_FRACTION) {
      w = 4 * gsp_test_uniform(&st);
    } else { /* F_ABSORB */
      w = gsp_test_rand(&st) % 4 == 0 ? 1e8 + (double)(gsp_test_rand(&st) % 1000) * 64
                                      : (double)(gsp_test_rand(&st) % 3);
    }
    I[m] = (gsp_index)u, J[m] = (gsp_index)v, W[m] = w, m++;
  }
  GSP_OK(gsp_matrix_new(&A, GSP_FP64, (gsp_index)n, (gsp_index)n));
  GSP_OK(gsp_matrix_build(A, I, J, W, (gsp_index)m, GSP_DUP_MIN));
  free(I), free(J), free(W);
  return A;
}

/* The family's graph in type t (FP64 values converted; fractions floored
 * for integers by the cast's truncation). */
static gsp_matrix family_matrix(family f, gsp_type t, int64_t size, uint64_t seed) {
  gsp_matrix A = family_fp64(f, size, seed), B = NULL;
  if (t == GSP_FP64) return A;
  GSP_OK(gsp_matrix_cast(&B, A, t));
  gsp_matrix_free(&A);
  return B;
}

static const char *type_name(gsp_type t) {
  return gsp_test_type_name(t);
}

#endif /* SSSP_TEST_REF_H */
