/*
 * gsp_closure / gsp_closure_ext on every (semiring, type) where closure is
 * defined, checked three ways: SuiteSparse:GraphBLAS (D = I + A, then
 * D = D + D (+.*) D to a fixpoint), a slow triple-loop reference of our own
 * in double, and (MIN_PLUS, non-negative weights) Dijkstra with a binary
 * heap. Weights are small integers, so every comparison is exact.
 * Sizes avoid multiples of the tile (64) on purpose: 31, 33, 65, 100, 200.
 */
#define GSP_ADVANCED_API /* gsp_run_report */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gsp.h"
#include "gsp_test.h"

/* ------------------------------------------------------------------------ */
/* Graphs as tuples with integer-valued double weights                       */
/* ------------------------------------------------------------------------ */

typedef enum { G_RANDOM, G_DENSE, G_SPARSE, G_DISCONNECTED, G_NEGATIVE, G_NKINDS } gkind;
static const char *const gkind_name[] = {"random", "dense", "sparse", "disconnected", "negative"};

typedef struct {
  int64_t n;
  size_t m;
  gsp_index *I, *J;
  double *W; /* bool graphs: 1 = true, 0 = an explicit false entry */
} graph;

static void graph_add(graph *g, int64_t i, int64_t j, double w) {
  g->I[g->m] = (gsp_index)i;
  g->J[g->m] = (gsp_index)j;
  g->W[g->m] = w;
  g->m++;
}

static void graph_free(graph *g) {
  free(g->I), free(g->J), free(g->W);
  memset(g, 0, sizeof *g);
}

/* Weight range so that the closure exists: MIN_PLUS non-negative (zero
 * included: zero-weight edges and cycles), MAX_PLUS non-positive, the
 * bottleneck semirings any sign. */
static void weight_range(gsp_semiring s, int64_t *lo, int64_t *hi) {
  switch (s) {
  case GSP_MIN_PLUS:
    *lo = 0, *hi = 40;
    break;
  case GSP_MAX_PLUS:
    *lo = -40, *hi = 0;
    break;
  default:
    *lo = -50, *hi = 50;
    break;
  }
}

static graph make_graph(gkind kind, int64_t n, gsp_semiring s, uint64_t seed) {
  graph g = {.n = n};
  size_t cap = (size_t)(n * n) + 1;
  g.I = malloc(cap * sizeof *g.I), g.J = malloc(cap * sizeof *g.J), g.W = malloc(cap * sizeof *g.W);
  cr_assert(g.I && g.J && g.W);
  uint64_t st = seed * 7919 + (uint64_t)n * 31 + (uint64_t)kind;
  int64_t lo, hi;
  weight_range(s, &lo, &hi);
  double density = kind == G_DENSE ? 1.0 : kind == G_SPARSE ? (n ? 1.5 / (double)n : 0) : 0.12;
  /* Potentials for G_NEGATIVE: w = w0 + p(i) - p(j) keeps every cycle's
   * weight (sum of w0) but makes many edges negative (MIN_PLUS), mirrored
   * for MAX_PLUS. */
  double *pot = calloc((size_t)n + 1, sizeof *pot);
  for (int64_t v = 0; v < n; v++) pot[v] = (double)(gsp_test_rand(&st) % 60);
  for (int64_t i = 0; i < n; i++) {
    for (int64_t j = 0; j < n; j++) {
      if (gsp_test_uniform(&st) >= density) continue;
      /* two halves with no edge between them, and vertex 0 isolated */
      if (kind == G_DISCONNECTED && ((i < n / 2) != (j < n / 2) || i == 0 || j == 0)) continue;
      double w;
      if (s == GSP_OR_AND) {
        w = gsp_test_rand(&st) % 5 ? 1 : 0; /* some explicit false entries */
      } else {
        w = (double)(lo + (int64_t)(gsp_test_rand(&st) % (uint64_t)(hi - lo + 1)));
        if (kind == G_NEGATIVE && s == GSP_MIN_PLUS) w += pot[i] - pot[j];
        if (kind == G_NEGATIVE && s == GSP_MAX_PLUS) w -= pot[i] - pot[j];
      }
      graph_add(&g, i, j, w);
    }
  }
  free(pot);
  return g;
}

static gsp_matrix graph_to_gsp(const graph *g, gsp_type t) {
  size_t ts = gsp_type_size(t);
  char *X = malloc(g->m * ts + 1);
  for (size_t e = 0; e < g->m; e++) gsp_test_value_set_f64(t, X + e * ts, g->W[e]);
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, t, (gsp_index)g->n, (gsp_index)g->n));
  GSP_OK(gsp_matrix_build(A, g->I, g->J, X, (gsp_index)g->m, GSP_DUP_ERROR));
  free(X);
  return A;
}

/* ------------------------------------------------------------------------ */
/* Reference 1: triple loop in double (presence tracked separately)           */
/* ------------------------------------------------------------------------ */

static double sr_add(gsp_semiring s, double a, double b) {
  switch (s) {
  case GSP_MIN_PLUS:
  case GSP_MIN_MAX:
    return fmin(a, b);
  case GSP_MAX_PLUS:
  case GSP_MAX_MIN:
    return fmax(a, b);
  case GSP_OR_AND:
    return (a != 0) || (b != 0);
  default:
    return NAN;
  }
}
static double sr_mul(gsp_semiring s, double a, double b) {
  switch (s) {
  case GSP_MIN_PLUS:
  case GSP_MAX_PLUS:
    return a + b;
  case GSP_MAX_MIN:
    return fmin(a, b);
  case GSP_MIN_MAX:
    return fmax(a, b);
  case GSP_OR_AND:
    return (a != 0) && (b != 0);
  default:
    return NAN;
  }
}
static double sr_one(gsp_semiring s) {
  switch (s) {
  case GSP_MIN_PLUS:
  case GSP_MAX_PLUS:
    return 0;
  case GSP_MAX_MIN:
    return INFINITY;
  case GSP_MIN_MAX:
    return -INFINITY;
  case GSP_OR_AND:
    return 1;
  default:
    return NAN;
  }
}

/* D, P: n x n; P(i,j) = there is a path. */
static void ref_closure(const graph *g, gsp_semiring s, bool reflexive, double *D, bool *P) {
  const int64_t n = g->n;
  memset(P, 0, (size_t)(n * n) * sizeof *P);
  for (size_t e = 0; e < g->m; e++) {
    if (s == GSP_OR_AND && g->W[e] == 0) continue; /* false is not an edge */
    D[g->I[e] * n + g->J[e]] = g->W[e];
    P[g->I[e] * n + g->J[e]] = true;
  }
  for (int64_t k = 0; k < n; k++)
    for (int64_t i = 0; i < n; i++) {
      if (!P[i * n + k]) continue;
      for (int64_t j = 0; j < n; j++) {
        if (!P[k * n + j]) continue;
        double v = sr_mul(s, D[i * n + k], D[k * n + j]);
        D[i * n + j] = P[i * n + j] ? sr_add(s, D[i * n + j], v) : v;
        P[i * n + j] = true;
      }
    }
  if (reflexive)
    for (int64_t i = 0; i < n; i++) {
      D[i * n + i] = P[i * n + i] ? sr_add(s, sr_one(s), D[i * n + i]) : sr_one(s);
      P[i * n + i] = true;
    }
}

/* Exact comparison of a gsp result with reference D, P. */
static void assert_matches(gsp_matrix C, gsp_type t, int64_t n, const double *D, const bool *P) {
  size_t ts = gsp_type_size(t);
  gsp_index nv = 0, want = 0;
  for (int64_t k = 0; k < n * n; k++) want += P[k];
  GSP_OK(gsp_matrix_nvals(&nv, C));
  cr_assert_eq(nv, want, "%sgsp has %llu entries, the reference %llu", gsp_test_ctx, (unsigned long long)nv,
               (unsigned long long)want);
  gsp_index *I = malloc((nv + 1) * sizeof *I), *J = malloc((nv + 1) * sizeof *J);
  char *X = malloc((nv + 1) * ts), y[16];
  GSP_OK(gsp_matrix_extract_tuples(I, J, X, &nv, C));
  for (gsp_index k = 0; k < nv; k++) {
    int64_t at = (int64_t)(I[k] * (gsp_index)n + J[k]);
    cr_assert(P[at], "%sentry (%llu,%llu) has no path in the reference", gsp_test_ctx, (unsigned long long)I[k],
              (unsigned long long)J[k]);
    gsp_test_value_set_f64(t, y, D[at]);
    cr_assert(gsp_test_value_eq(t, X + k * ts, y, 0), "%s(%llu,%llu): gsp %.17g, reference %.17g", gsp_test_ctx,
              (unsigned long long)I[k], (unsigned long long)J[k], gsp_test_value_f64(t, X + k * ts),
              gsp_test_value_f64(t, y));
  }
  free(I), free(J), free(X);
}

/* ------------------------------------------------------------------------ */
/* Reference 2: Dijkstra with a binary heap (MIN_PLUS, weights >= 0)          */
/* ------------------------------------------------------------------------ */

typedef struct {
  double d;
  int64_t v;
} heap_item;

static void heap_push(heap_item *h, int64_t *len, heap_item x) {
  int64_t c = (*len)++;
  while (c > 0 && h[(c - 1) / 2].d > x.d) {
    h[c] = h[(c - 1) / 2];
    c = (c - 1) / 2;
  }
  h[c] = x;
}

static heap_item heap_pop(heap_item *h, int64_t *len) {
  heap_item top = h[0], last = h[--(*len)];
  int64_t c = 0;
  for (;;) {
    int64_t l = 2 * c + 1, m = c;
    double md = last.d;
    if (l < *len && h[l].d < md) m = l, md = h[l].d;
    if (l + 1 < *len && h[l + 1].d < md) m = l + 1;
    if (m == c) break;
    h[c] = h[m];
    c = m;
  }
  if (*len > 0) h[c] = last;
  return top;
}

/* M* of a non-negative MIN_PLUS graph, one Dijkstra per source. */
static void dijkstra_all(const graph *g, double *D, bool *P) {
  const int64_t n = g->n;
  int64_t *rowp = calloc((size_t)n + 2, sizeof *rowp), *adj = malloc((g->m + 1) * sizeof *adj);
  double *w = malloc((g->m + 1) * sizeof *w);
  for (size_t e = 0; e < g->m; e++) rowp[g->I[e] + 1]++;
  for (int64_t v = 0; v < n; v++) rowp[v + 1] += rowp[v];
  int64_t *fill = calloc((size_t)n + 1, sizeof *fill);
  for (size_t e = 0; e < g->m; e++) {
    int64_t at = rowp[g->I[e]] + fill[g->I[e]]++;
    adj[at] = (int64_t)g->J[e];
    w[at] = g->W[e];
  }
  heap_item *h = malloc((g->m + (size_t)n + 1) * sizeof *h);
  bool *done = malloc((size_t)n + 1);
  for (int64_t src = 0; src < n; src++) {
    double *d = D + src * n;
    bool *p = P + src * n;
    memset(p, 0, (size_t)n);
    memset(done, 0, (size_t)n);
    int64_t len = 0;
    d[src] = 0, p[src] = true;
    heap_push(h, &len, (heap_item){0, src});
    while (len > 0) {
      heap_item it = heap_pop(h, &len);
      if (done[it.v]) continue;
      done[it.v] = true;
      for (int64_t e = rowp[it.v]; e < rowp[it.v + 1]; e++) {
        int64_t u = adj[e];
        double nd = it.d + w[e];
        if (!p[u] || nd < d[u]) {
          d[u] = nd, p[u] = true;
          heap_push(h, &len, (heap_item){nd, u});
        }
      }
    }
  }
  free(rowp), free(adj), free(w), free(fill), free(h), free(done);
}

/* ------------------------------------------------------------------------ */
/* Reference 3: GraphBLAS, D = I + A; D = D + D (+.*) D until unchanged       */
/* ------------------------------------------------------------------------ */

static gsp_binop add_binop(gsp_semiring s) {
  switch (s) {
  case GSP_MIN_PLUS:
  case GSP_MIN_MAX:
    return GSP_MIN;
  case GSP_MAX_PLUS:
  case GSP_MAX_MIN:
    return GSP_MAX;
  default:
    return GSP_LOR;
  }
}

static bool grb_equal(GrB_Matrix A, GrB_Matrix B, gsp_type t) {
  GrB_Index na, nb, nc;
  GRB_OK(GrB_Matrix_nvals(&na, A));
  GRB_OK(GrB_Matrix_nvals(&nb, B));
  if (na != nb) return false;
  GrB_Index n;
  GRB_OK(GrB_Matrix_nrows(&n, A));
  GrB_Matrix C;
  GRB_OK(GrB_Matrix_new(&C, GrB_BOOL, n, n));
  GrB_BinaryOp eq = t == GSP_BOOL    ? GrB_EQ_BOOL
                    : t == GSP_INT32 ? GrB_EQ_INT32
                    : t == GSP_INT64 ? GrB_EQ_INT64
                    : t == GSP_FP32  ? GrB_EQ_FP32
                                     : GrB_EQ_FP64;
  GRB_OK(GrB_Matrix_eWiseMult_BinaryOp(C, NULL, NULL, eq, A, B, NULL));
  GRB_OK(GrB_Matrix_nvals(&nc, C));
  bool all = true;
  if (nc > 0) GRB_OK(GrB_Matrix_reduce_BOOL(&all, NULL, GrB_LAND_MONOID_BOOL, C, NULL));
  GrB_Matrix_free(&C);
  return nc == na && all;
}

static GrB_Matrix grb_closure(const graph *g, gsp_type t, gsp_semiring s, bool reflexive) {
  gsp_test_grb_init();
  const GrB_Index n = (GrB_Index)g->n;
  /* A without explicit false entries (bool): those are not edges. */
  graph a = {.n = g->n};
  a.I = malloc((g->m + 1) * sizeof *a.I), a.J = malloc((g->m + 1) * sizeof *a.J);
  a.W = malloc((g->m + 1) * sizeof *a.W);
  for (size_t e = 0; e < g->m; e++)
    if (s != GSP_OR_AND || g->W[e] != 0) graph_add(&a, (int64_t)g->I[e], (int64_t)g->J[e], g->W[e]);
  gsp_matrix As = graph_to_gsp(&a, t);
  GrB_Matrix A = gsp_test_to_grb_matrix(As);
  GSP_OK(gsp_matrix_free(&As));
  /* I: the semiring one on the diagonal */
  graph id = {.n = g->n};
  id.I = malloc((size_t)(n + 1) * sizeof *id.I), id.J = malloc((size_t)(n + 1) * sizeof *id.J);
  id.W = malloc((size_t)(n + 1) * sizeof *id.W);
  for (int64_t i = 0; i < g->n; i++) graph_add(&id, i, i, sr_one(s));
  gsp_matrix Is = graph_to_gsp(&id, t);
  GrB_Matrix Id = gsp_test_to_grb_matrix(Is);
  GSP_OK(gsp_matrix_free(&Is));
  graph_free(&id);
  graph_free(&a);

  GrB_Type gt = gsp_test_grb_type(t);
  GrB_Semiring sr = gsp_test_grb_semiring(s, t);
  GrB_BinaryOp add = gsp_test_grb_binop(add_binop(s), t);
  cr_assert(sr && add);
  GrB_Matrix D, D2;
  GRB_OK(GrB_Matrix_new(&D, gt, n, n));
  GRB_OK(GrB_Matrix_eWiseAdd_BinaryOp(D, NULL, NULL, add, Id, A, NULL));
  int it = 0;
  for (;; it++) {
    cr_assert(it < 64, "GraphBLAS fixpoint did not converge");
    GRB_OK(GrB_Matrix_dup(&D2, D));
    GRB_OK(GrB_mxm(D2, NULL, add, sr, D, D, NULL));
    bool same = grb_equal(D, D2, t);
    GrB_Matrix_free(&D);
    D = D2;
    if (same) break;
  }
  if (!reflexive) { /* M+ = A M* */
    GRB_OK(GrB_Matrix_new(&D2, gt, n, n));
    GRB_OK(GrB_mxm(D2, NULL, NULL, sr, A, D, NULL));
    GrB_Matrix_free(&D);
    D = D2;
  }
  GrB_Matrix_free(&A);
  GrB_Matrix_free(&Id);
  return D;
}

/* ------------------------------------------------------------------------ */
/* The sweep: every size x kind x {M*, M+} for one (semiring, type)           */
/* ------------------------------------------------------------------------ */

static const int64_t sizes[] = {0, 1, 2, 31, 33, 64, 65, 100, 200};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static void sweep(gsp_semiring s, gsp_type t) {
  for (size_t q = 0; q < NSIZES; q++) {
    const int64_t n = sizes[q];
    double *D = malloc((size_t)(n * n + 1) * sizeof *D), *D2 = malloc((size_t)(n * n + 1) * sizeof *D2);
    bool *P = malloc((size_t)(n * n + 1)), *P2 = malloc((size_t)(n * n + 1));
    for (int kind = 0; kind < G_NKINDS; kind++) {
      for (int refl = 1; refl >= 0; refl--) {
        gsp_test_context("%s %s n=%lld %s %s", gsp_test_semiring_name(s), gsp_test_type_name(t), (long long)n,
                         gkind_name[kind], refl ? "M*" : "M+");
        graph g = make_graph((gkind)kind, n, s, 1 + (uint64_t)q);
        gsp_matrix M = graph_to_gsp(&g, t);
        if (refl && kind % 2 == 0) {
          GSP_OK(gsp_closure(M, s));
        } else {
          gsp_closure_opts o = {.non_reflexive = !refl, .backend = GSP_BACKEND_CPU};
          GSP_OK(gsp_closure_ext(M, NULL, s, &o));
        }
        ref_closure(&g, s, refl, D, P);
        assert_matches(M, t, n, D, P);
        if (s == GSP_MIN_PLUS && kind != G_NEGATIVE && refl) {
          dijkstra_all(&g, D2, P2);
          assert_matches(M, t, n, D2, P2);
        }
        /* GraphBLAS on a subset of the sizes (it is the slowest check) */
        if (n != 64 && n != 31) {
          GrB_Matrix G = grb_closure(&g, t, s, refl);
          gsp_test_assert_matrix_eq(M, G, 0);
          GrB_Matrix_free(&G);
        }
        GSP_OK(gsp_matrix_free(&M));
        graph_free(&g);
      }
    }
    free(D), free(D2), free(P), free(P2);
  }
}

#define SWEEP_TEST(SR, T)                   \
  Test(closure, SR##_##T, .timeout = 120) { \
    sweep(GSP_##SR, GSP_##T);               \
  }
SWEEP_TEST(MIN_PLUS, INT32)
SWEEP_TEST(MIN_PLUS, INT64)
SWEEP_TEST(MIN_PLUS, FP32)
SWEEP_TEST(MIN_PLUS, FP64)
SWEEP_TEST(MAX_PLUS, INT32)
SWEEP_TEST(MAX_PLUS, INT64)
SWEEP_TEST(MAX_PLUS, FP32)
SWEEP_TEST(MAX_PLUS, FP64)
SWEEP_TEST(MAX_MIN, INT32)
SWEEP_TEST(MAX_MIN, INT64)
SWEEP_TEST(MAX_MIN, FP32)
SWEEP_TEST(MAX_MIN, FP64)
SWEEP_TEST(MIN_MAX, INT32)
SWEEP_TEST(MIN_MAX, INT64)
SWEEP_TEST(MIN_MAX, FP32)
SWEEP_TEST(MIN_MAX, FP64)
SWEEP_TEST(OR_AND, BOOL)

/* ------------------------------------------------------------------------ */
/* Specific behaviour                                                        */
/* ------------------------------------------------------------------------ */

/* Bit-packed Warshall (no successors) and the byte kernel (with) agree. */
Test(closure, or_and_bits_equals_dense_kernel) {
  for (int64_t n = 1; n <= 300; n += 67) {
    graph g = make_graph(G_SPARSE, n, GSP_OR_AND, 9);
    for (int refl = 0; refl < 2; refl++) {
      gsp_matrix A = graph_to_gsp(&g, GSP_BOOL), B = graph_to_gsp(&g, GSP_BOOL), S = NULL;
      gsp_closure_opts o = {.non_reflexive = !refl};
      GSP_OK(gsp_closure_ext(A, NULL, GSP_OR_AND, &o));
      GSP_OK(gsp_closure_ext(B, &S, GSP_OR_AND, &o));
      gsp_test_assert_matrix_same(A, B, 0);
      gsp_matrix_free(&A), gsp_matrix_free(&B), gsp_matrix_free(&S);
    }
    graph_free(&g);
  }
}

/* An explicit 0-weight edge is an edge (scipy's dense input loses it). */
Test(closure, zero_weight_edges_are_edges) {
  const gsp_type types[] = {GSP_INT32, GSP_INT64, GSP_FP32, GSP_FP64};
  for (int q = 0; q < 4; q++) {
    graph g = {.n = 4};
    g.I = malloc(8 * sizeof *g.I), g.J = malloc(8 * sizeof *g.J), g.W = malloc(8 * sizeof *g.W);
    graph_add(&g, 0, 1, 0), graph_add(&g, 1, 2, 0), graph_add(&g, 2, 0, 5);
    gsp_matrix M = graph_to_gsp(&g, types[q]);
    gsp_closure_opts o = {.non_reflexive = true};
    GSP_OK(gsp_closure_ext(M, NULL, GSP_MIN_PLUS, &o));
    gsp_index nv;
    GSP_OK(gsp_matrix_nvals(&nv, M));
    cr_assert_eq(nv, 9, "3 x 3 block of paths expected, got %llu entries", (unsigned long long)nv);
    char x[16];
    GSP_OK(gsp_matrix_extract_element(x, M, 0, 2));
    cr_assert_eq(gsp_test_value_f64(types[q], x), 0);
    GSP_OK(gsp_matrix_extract_element(x, M, 1, 1)); /* the cycle 1 -> 2 -> 0 -> 1 */
    cr_assert_eq(gsp_test_value_f64(types[q], x), 5);
    cr_assert_eq(gsp_matrix_extract_element(x, M, 3, 3), GSP_NO_VALUE, "vertex 3 has no cycle");
    gsp_matrix_free(&M);
    graph_free(&g);
  }
}

/* Integer MIN_PLUS saturates instead of wrapping. */
Test(closure, integer_min_plus_saturates) {
  int32_t w32[2] = {2000000000, 2000000000};
  gsp_matrix M = NULL;
  gsp_index I[2] = {0, 1}, J[2] = {1, 2};
  /* 0 -> 1 -> 2 with 2e9 + 2e9: clamps to INT32_MAX, which is "no path" */
  GSP_OK(gsp_matrix_new(&M, GSP_INT32, 3, 3));
  GSP_OK(gsp_matrix_build(M, I, J, w32, 2, GSP_DUP_ERROR));
  GSP_OK(gsp_closure(M, GSP_MIN_PLUS));
  int32_t v;
  GSP_OK(gsp_matrix_extract_element(&v, M, 0, 1));
  cr_assert_eq(v, 2000000000);
  cr_assert_eq(gsp_matrix_extract_element(&v, M, 0, 2), GSP_NO_VALUE, "sum must clamp to +inf, got %d", v);
  gsp_matrix_free(&M);
  /* -2e9 + -2e9 clamps to INT32_MIN (wrapping would give a positive value) */
  int32_t n32[2] = {-2000000000, -2000000000};
  GSP_OK(gsp_matrix_new(&M, GSP_INT32, 3, 3));
  GSP_OK(gsp_matrix_build(M, I, J, n32, 2, GSP_DUP_ERROR));
  GSP_OK(gsp_closure(M, GSP_MIN_PLUS));
  GSP_OK(gsp_matrix_extract_element(&v, M, 0, 2));
  cr_assert_eq(v, INT32_MIN);
  gsp_matrix_free(&M);
  /* the same at 64 bits */
  int64_t n64[2] = {INT64_MIN / 2 - 5, INT64_MIN / 2 - 5}, v64;
  GSP_OK(gsp_matrix_new(&M, GSP_INT64, 3, 3));
  GSP_OK(gsp_matrix_build(M, I, J, n64, 2, GSP_DUP_ERROR));
  GSP_OK(gsp_closure(M, GSP_MIN_PLUS));
  GSP_OK(gsp_matrix_extract_element(&v64, M, 0, 2));
  cr_assert_eq(v64, INT64_MIN);
  gsp_matrix_free(&M);
}

/* A negative cycle (MIN_PLUS) / positive cycle (MAX_PLUS) is reported and M
 * is left exactly as it was, successor output included. */
static void check_cycle(gsp_semiring s, gsp_type t, int64_t n, int64_t a, int64_t b, int64_t c, double cyc) {
  gsp_test_context("%s %s n=%lld cycle %lld-%lld-%lld", gsp_test_semiring_name(s), gsp_test_type_name(t), (long long)n,
                   (long long)a, (long long)b, (long long)c);
  graph g = make_graph(G_RANDOM, n, s, 3);
  /* make room and add the cycle a -> b -> c -> a (or a self loop if a == b == c) */
  g.I = realloc(g.I, (g.m + 3) * sizeof *g.I), g.J = realloc(g.J, (g.m + 3) * sizeof *g.J);
  g.W = realloc(g.W, (g.m + 3) * sizeof *g.W);
  size_t keep = 0;
  for (size_t e = 0; e < g.m; e++) { /* drop edges that the cycle replaces */
    bool on = (g.I[e] == (gsp_index)a && g.J[e] == (gsp_index)b) ||
              (g.I[e] == (gsp_index)b && g.J[e] == (gsp_index)c) || (g.I[e] == (gsp_index)c && g.J[e] == (gsp_index)a);
    if (!on) g.I[keep] = g.I[e], g.J[keep] = g.J[e], g.W[keep] = g.W[e], keep++;
  }
  g.m = keep;
  if (a == b) {
    graph_add(&g, a, a, cyc);
  } else {
    graph_add(&g, a, b, cyc / 2), graph_add(&g, b, c, cyc / 2), graph_add(&g, c, a, cyc > 0 ? 1 : -1);
  }
  gsp_matrix M = graph_to_gsp(&g, t), before = NULL, succ = NULL;
  GSP_OK(gsp_matrix_dup(&before, M));
  cr_assert_eq(gsp_closure(M, s), GSP_NEGATIVE_CYCLE, "%sgsp_closure: %s", gsp_test_ctx, gsp_last_error());
  gsp_test_assert_matrix_same(M, before, 0);
  gsp_closure_opts o = {.non_reflexive = true};
  cr_assert_eq(gsp_closure_ext(M, &succ, s, &o), GSP_NEGATIVE_CYCLE);
  cr_assert_null(succ);
  gsp_test_assert_matrix_same(M, before, 0);
  gsp_matrix_free(&M), gsp_matrix_free(&before);
  graph_free(&g);
}

Test(closure, negative_cycle_leaves_m_unchanged, .timeout = 60) {
  const gsp_type types[] = {GSP_INT32, GSP_INT64, GSP_FP32, GSP_FP64};
  for (int q = 0; q < 4; q++) {
    check_cycle(GSP_MIN_PLUS, types[q], 2, 0, 0, 0, -1); /* negative self loop */
    check_cycle(GSP_MIN_PLUS, types[q], 3, 0, 1, 2, -4);
    check_cycle(GSP_MIN_PLUS, types[q], 65, 64, 3, 40, -6);      /* spans the tile edge */
    check_cycle(GSP_MIN_PLUS, types[q], 200, 199, 198, 197, -2); /* found in the last block */
    check_cycle(GSP_MAX_PLUS, types[q], 33, 5, 6, 7, 4);         /* positive cycle */
    check_cycle(GSP_MAX_PLUS, types[q], 130, 129, 0, 64, 2);
  }
  /* integer cycles that also overflow on the way: detected, nothing wraps */
  check_cycle(GSP_MIN_PLUS, GSP_INT32, 70, 1, 2, 3, -2000000000.0);
  check_cycle(GSP_MIN_PLUS, GSP_INT64, 70, 1, 2, 3, -9.0e18);
}

/* M+ of a DAG has no diagonal; M* has the semiring one there. */
Test(closure, m_plus_versus_m_star) {
  const gsp_semiring srs[] = {GSP_MIN_PLUS, GSP_MAX_PLUS, GSP_MAX_MIN, GSP_MIN_MAX};
  for (int q = 0; q < 4; q++) {
    gsp_matrix A = NULL, B = NULL;
    const int64_t n = 70;
    GSP_OK(gsp_matrix_new(&A, GSP_FP64, n, n));
    for (int64_t i = 0; i + 1 < n; i++) {
      double w = (double)(i % 7) - 3;
      GSP_OK(gsp_matrix_set_element(A, (gsp_index)i, (gsp_index)i + 1, &w));
    }
    GSP_OK(gsp_matrix_dup(&B, A));
    gsp_closure_opts plus = {.non_reflexive = true};
    GSP_OK(gsp_closure_ext(A, NULL, srs[q], &plus));
    GSP_OK(gsp_closure(B, srs[q]));
    gsp_index na, nb;
    GSP_OK(gsp_matrix_nvals(&na, A));
    GSP_OK(gsp_matrix_nvals(&nb, B));
    cr_assert_eq(na, (gsp_index)(n * (n - 1) / 2), "M+ of a path: strictly upper triangle");
    cr_assert_eq(nb, na + (gsp_index)n, "M* = M+ plus the diagonal");
    double x, one = sr_one(srs[q]);
    for (int64_t i = 0; i < n; i++) {
      cr_assert_eq(gsp_matrix_extract_element(&x, A, (gsp_index)i, (gsp_index)i), GSP_NO_VALUE);
      GSP_OK(gsp_matrix_extract_element(&x, B, (gsp_index)i, (gsp_index)i));
      cr_assert_eq(x, one);
    }
    gsp_matrix_free(&A), gsp_matrix_free(&B);
  }
}

Test(closure, thread_counts_agree) {
  graph g = make_graph(G_NEGATIVE, 150, GSP_MIN_PLUS, 5);
  gsp_matrix A = graph_to_gsp(&g, GSP_FP32), B = graph_to_gsp(&g, GSP_FP32);
  GSP_OK(gsp_set_threads(1));
  GSP_OK(gsp_closure(A, GSP_MIN_PLUS));
  GSP_OK(gsp_set_threads(3));
  GSP_OK(gsp_closure(B, GSP_MIN_PLUS));
  GSP_OK(gsp_set_threads(0));
  gsp_test_assert_matrix_same(A, B, 0);
  gsp_matrix_free(&A), gsp_matrix_free(&B);
  graph_free(&g);
}

/* ------------------------------------------------------------------------ */
/* Errors: the code, and M unchanged                                         */
/* ------------------------------------------------------------------------ */

Test(closure, errors) {
  gsp_matrix M = NULL, R = NULL, dead = NULL, before = NULL, succ = NULL;
  cr_assert_eq(gsp_closure(NULL, GSP_MIN_PLUS), GSP_NULL_POINTER);
  GSP_OK(gsp_matrix_new(&dead, GSP_FP32, 3, 3));
  gsp_matrix alias = dead;
  GSP_OK(gsp_matrix_free(&dead));
  cr_assert_eq(gsp_closure(alias, GSP_MIN_PLUS), GSP_INVALID_OBJECT);

  GSP_OK(gsp_matrix_new(&R, GSP_FP32, 3, 4));
  cr_assert_eq(gsp_closure(R, GSP_MIN_PLUS), GSP_DIMENSION_MISMATCH);

  graph g = make_graph(G_RANDOM, 40, GSP_MIN_PLUS, 2);
  M = graph_to_gsp(&g, GSP_FP32);
  GSP_OK(gsp_matrix_dup(&before, M));
  cr_assert_eq(gsp_closure(M, GSP_PLUS_TIMES), GSP_DOMAIN_MISMATCH);
  cr_assert_eq(gsp_closure(M, GSP_OR_AND), GSP_DOMAIN_MISMATCH);
  cr_assert_eq(gsp_closure(M, (gsp_semiring)42), GSP_INVALID_VALUE);
  gsp_closure_opts bad = {.backend = (gsp_backend)9};
  cr_assert_eq(gsp_closure_ext(M, NULL, GSP_MIN_PLUS, &bad), GSP_INVALID_VALUE);
  bool cuda = false;
  GSP_OK(gsp_cuda_available(&cuda, NULL, 0));
  if (!cuda) {
    gsp_closure_opts want_cuda = {.backend = GSP_BACKEND_CUDA};
    cr_assert_eq(gsp_closure_ext(M, &succ, GSP_MIN_PLUS, &want_cuda), GSP_NO_DEVICE);
    cr_assert_null(succ);
  }
  /* NaN weight: rejected, M unchanged */
  float nan = NAN;
  GSP_OK(gsp_matrix_set_element(M, 7, 3, &nan));
  gsp_matrix withnan = NULL;
  GSP_OK(gsp_matrix_dup(&withnan, M));
  cr_assert_eq(gsp_closure(M, GSP_MIN_PLUS), GSP_INVALID_VALUE);
  cr_assert_eq(gsp_closure_ext(M, &succ, GSP_MAX_MIN, NULL), GSP_INVALID_VALUE);
  cr_assert_null(succ);
  /* compare through the tuples: NaN != NaN, so check the structure and the
   * NaN position separately */
  gsp_index nv1, nv2;
  GSP_OK(gsp_matrix_nvals(&nv1, M));
  GSP_OK(gsp_matrix_nvals(&nv2, withnan));
  cr_assert_eq(nv1, nv2);
  float x;
  GSP_OK(gsp_matrix_extract_element(&x, M, 7, 3));
  cr_assert(isnan(x));
  gsp_matrix_free(&withnan);
  /* the same on FP64, in dense storage */
  double nan64 = NAN, vals[4] = {1, nan64, 2, 3}, absent = INFINITY;
  gsp_matrix D = NULL;
  GSP_OK(gsp_matrix_import_dense(&D, GSP_FP64, 2, 2, vals, &absent));
  cr_assert_eq(gsp_closure(D, GSP_MIN_PLUS), GSP_INVALID_VALUE);
  gsp_matrix_free(&D);
  /* MIN_PLUS on bool */
  gsp_matrix Bm = NULL;
  GSP_OK(gsp_matrix_new(&Bm, GSP_BOOL, 3, 3));
  cr_assert_eq(gsp_closure(Bm, GSP_MIN_PLUS), GSP_DOMAIN_MISMATCH);
  gsp_matrix_free(&Bm), gsp_matrix_free(&M), gsp_matrix_free(&R), gsp_matrix_free(&before);
  graph_free(&g);
}

/* Errors other than NaN leave M unchanged too (one that fails late: the
 * negative cycle is covered above; here early argument failures). */
Test(closure, early_errors_leave_m_unchanged) {
  graph g = make_graph(G_DENSE, 20, GSP_MIN_PLUS, 4);
  gsp_matrix M = graph_to_gsp(&g, GSP_INT32), before = NULL;
  GSP_OK(gsp_matrix_dup(&before, M));
  cr_assert_eq(gsp_closure(M, GSP_PLUS_TIMES), GSP_DOMAIN_MISMATCH);
  gsp_closure_opts bad = {.backend = (gsp_backend)-3};
  cr_assert_eq(gsp_closure_ext(M, NULL, GSP_MIN_PLUS, &bad), GSP_INVALID_VALUE);
  gsp_test_assert_matrix_same(M, before, 0);
  gsp_matrix_free(&M), gsp_matrix_free(&before);
  graph_free(&g);
}

/* The report says where the closure ran: the CPU kernel (dense input, and
 * the bit-packed OR_AND) and the sparse star (a grid) on the CPU backend. */
Test(closure, report_says_where_it_ran) {
  gsp_matrix D = NULL, G = NULL, B = NULL;
  GSP_OK(gsp_generate_complete(&D, GSP_FP64, 40, 1, 9, 3));
  GSP_OK(gsp_generate_grid(&G, GSP_FP64, 24, 24, 1, 9, 3));
  GSP_OK(gsp_generate_random(&B, GSP_BOOL, 100, 300, 1, 1, 4));
  gsp_matrix ms[] = {D, G, B};
  const gsp_semiring ss[] = {GSP_MIN_PLUS, GSP_MIN_PLUS, GSP_OR_AND};
  for (int k = 0; k < 3; k++) {
    gsp_run_report rep = {.backend = GSP_BACKEND_AUTO, .gpus = -1};
    const gsp_closure_advanced adv = {.report = &rep};
    const gsp_closure_opts o = {.backend = GSP_BACKEND_CPU, .advanced = &adv};
    GSP_OK(gsp_closure_ext(ms[k], NULL, ss[k], &o));
    cr_assert_eq(rep.backend, GSP_BACKEND_CPU, "case %d", k);
    cr_assert_eq(rep.gpus, 0, "case %d", k);
  }
  gsp_matrix_free(&D), gsp_matrix_free(&G), gsp_matrix_free(&B);
}
