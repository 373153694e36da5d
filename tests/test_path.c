/*
 * Successor matrices from gsp_closure_ext and gsp_path_from_succ: every
 * reconstructed path starts and ends right, uses only edges of the input,
 * and its cost (the semiring product of the original edge weights along
 * it) equals the closure value. Tie-heavy inputs (weights in {0, 1, 2},
 * zero-weight cycles) stress the successor updates. Plus the documented
 * GSP_NO_VALUE / GSP_INSUFFICIENT_SPACE behaviour and corrupt successor
 * matrices, which must give an error instead of a walk that never ends.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gsp.h"
#include "gsp_test.h"

static double sr_mul(gsp_semiring s, double a, double b) {
  switch (s) {
  case GSP_MIN_PLUS:
  case GSP_MAX_PLUS:
    return a + b;
  case GSP_MAX_MIN:
    return fmin(a, b);
  case GSP_MIN_MAX:
    return fmax(a, b);
  default:
    return (a != 0) && (b != 0);
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
  default:
    return 1;
  }
}

/* Random graph, dense n x n weights in W (NAN = no edge). Weights keep the
 * closure defined: MIN_PLUS >= 0 (re-weighted by potentials when `neg`, so
 * edges may be negative but cycles are not), MAX_PLUS mirrored. */
static gsp_matrix make_graph(gsp_semiring s, gsp_type t, int64_t n, double density, int64_t span, bool neg,
                             uint64_t seed, double *W) {
  uint64_t st = seed * 1315423911u + (uint64_t)n;
  double *pot = malloc(((size_t)n + 1) * sizeof *pot);
  for (int64_t v = 0; v < n; v++) pot[v] = neg ? (double)(gsp_test_rand(&st) % 30) : 0;
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, t, (gsp_index)n, (gsp_index)n));
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) {
      W[i * n + j] = NAN;
      if (gsp_test_uniform(&st) >= density) continue;
      double w = (double)(gsp_test_rand(&st) % (uint64_t)(span + 1));
      if (s == GSP_OR_AND) w = 1;
      else if (s == GSP_MIN_PLUS) w += pot[i] - pot[j];
      else if (s == GSP_MAX_PLUS) w = -w - (pot[i] - pot[j]);
      else w -= (double)(span / 2);
      W[i * n + j] = w;
      char x[16];
      gsp_test_value_set(t, x, (int64_t)w);
      GSP_OK(gsp_matrix_set_element(A, (gsp_index)i, (gsp_index)j, x));
    }
  free(pot);
  return A;
}

/* Check every pair (i, j) of one closure with successors. */
static void check_all_paths(gsp_semiring s, gsp_type t, int64_t n, double density, int64_t span, bool neg,
                            bool reflexive, uint64_t seed) {
  gsp_test_context("%s %s n=%lld density %.2f span %lld %s%s", gsp_test_semiring_name(s), gsp_test_type_name(t),
                   (long long)n, density, (long long)span, neg ? "negative " : "", reflexive ? "M*" : "M+");
  double *W = malloc(((size_t)(n * n) + 1) * sizeof *W);
  gsp_matrix M = make_graph(s, t, n, density, span, neg, seed, W), S = NULL;
  gsp_closure_opts o = {.non_reflexive = !reflexive};
  GSP_OK(gsp_closure_ext(M, &S, s, &o));
  gsp_type st;
  gsp_index sn, sm, mv, sv;
  GSP_OK(gsp_matrix_type(&st, S));
  GSP_OK(gsp_matrix_nrows(&sn, S));
  GSP_OK(gsp_matrix_ncols(&sm, S));
  cr_assert(st == GSP_INT64 && sn == (gsp_index)n && sm == (gsp_index)n, "%ssucc shape/type", gsp_test_ctx);
  GSP_OK(gsp_matrix_nvals(&mv, M));
  GSP_OK(gsp_matrix_nvals(&sv, S));
  cr_assert_eq(mv, sv, "%ssucc has %llu entries, M %llu", gsp_test_ctx, (unsigned long long)sv, (unsigned long long)mv);
  gsp_index *path = malloc(((size_t)n + 1) * sizeof *path);
  for (int64_t i = 0; i < n; i++) {
    for (int64_t j = 0; j < n; j++) {
      char x[16];
      int64_t sij;
      gsp_info have = gsp_matrix_extract_element(x, M, (gsp_index)i, (gsp_index)j);
      gsp_info hs = gsp_matrix_extract_element(&sij, S, (gsp_index)i, (gsp_index)j);
      cr_assert_eq(have, hs, "%s(%lld,%lld): M and succ structures differ", gsp_test_ctx, (long long)i, (long long)j);
      if (reflexive && i == j) cr_assert_eq(sij, i, "%ssucc(i,i) = i for the empty path", gsp_test_ctx);
      gsp_index len = (gsp_index)n;
      gsp_info info = gsp_path_from_succ(path, &len, S, (gsp_index)i, (gsp_index)j);
      if (i == j) { /* documented: the one-vertex path */
        cr_assert(info == GSP_SUCCESS && len == 1 && path[0] == (gsp_index)i);
        continue;
      }
      if (have == GSP_NO_VALUE) {
        cr_assert_eq(info, GSP_NO_VALUE, "%s(%lld,%lld) has no path: %s", gsp_test_ctx, (long long)i, (long long)j,
                     gsp_strerror(info));
        continue;
      }
      cr_assert_eq(info, GSP_SUCCESS, "%spath (%lld,%lld): %s %s", gsp_test_ctx, (long long)i, (long long)j,
                   gsp_strerror(info), gsp_last_error());
      cr_assert(len >= 2 && len <= (gsp_index)n && path[0] == (gsp_index)i && path[len - 1] == (gsp_index)j,
                "%spath (%lld,%lld) has wrong ends or length %llu", gsp_test_ctx, (long long)i, (long long)j,
                (unsigned long long)len);
      double cost = sr_one(s);
      for (gsp_index h = 0; h + 1 < len; h++) {
        double w = W[path[h] * (gsp_index)n + path[h + 1]];
        cr_assert(!isnan(w), "%spath (%lld,%lld) uses %llu -> %llu, not an edge", gsp_test_ctx, (long long)i,
                  (long long)j, (unsigned long long)path[h], (unsigned long long)path[h + 1]);
        cost = sr_mul(s, cost, w);
      }
      double d = gsp_test_value_f64(t, x);
      cr_assert_eq(cost, d, "%spath (%lld,%lld): cost %g, closure %g", gsp_test_ctx, (long long)i, (long long)j, cost,
                   d);
    }
  }
  free(path), free(W);
  gsp_matrix_free(&M), gsp_matrix_free(&S);
}

static const int64_t sizes[] = {1, 2, 33, 65, 100};

static void path_sweep(gsp_semiring s, gsp_type t) {
  for (size_t q = 0; q < sizeof sizes / sizeof sizes[0]; q++) {
    int64_t n = sizes[q];
    for (int refl = 1; refl >= 0; refl--) {
      check_all_paths(s, t, n, 0.08, 40, false, refl, 1 + q);
      check_all_paths(s, t, n, 0.3, 2, false, refl, 11 + q); /* ties, zero weights */
      if (s == GSP_MIN_PLUS || s == GSP_MAX_PLUS) check_all_paths(s, t, n, 0.1, 20, true, refl, 21 + q);
      check_all_paths(s, t, n, 1.5 / (double)n, 9, false, refl, 31 + q); /* sparse: unreachable pairs */
    }
  }
}

#define PATH_TEST(SR, T)                 \
  Test(path, SR##_##T, .timeout = 120) { \
    path_sweep(GSP_##SR, GSP_##T);       \
  }
PATH_TEST(MIN_PLUS, INT32)
PATH_TEST(MIN_PLUS, INT64)
PATH_TEST(MIN_PLUS, FP32)
PATH_TEST(MIN_PLUS, FP64)
PATH_TEST(MAX_PLUS, INT32)
PATH_TEST(MAX_PLUS, FP64)
PATH_TEST(MAX_MIN, INT32)
PATH_TEST(MAX_MIN, FP32)
PATH_TEST(MIN_MAX, INT64)
PATH_TEST(MIN_MAX, FP64)
PATH_TEST(OR_AND, BOOL)

/* A chain 0 -> 1 -> ... -> 9, and vertex 10 unreachable. */
static gsp_matrix chain_succ(void) {
  gsp_matrix M = NULL, S = NULL;
  GSP_OK(gsp_matrix_new(&M, GSP_FP64, 11, 11));
  for (gsp_index i = 0; i + 1 < 10; i++) {
    double w = 1.5;
    GSP_OK(gsp_matrix_set_element(M, i, i + 1, &w));
  }
  GSP_OK(gsp_closure_ext(M, &S, GSP_MIN_PLUS, NULL));
  gsp_matrix_free(&M);
  return S;
}

Test(path, insufficient_space_and_no_value) {
  gsp_matrix S = chain_succ();
  gsp_index path[12], len;
  for (int k = 0; k < 12; k++) path[k] = 777;
  len = 9; /* the path 0..9 has 10 vertices */
  cr_assert_eq(gsp_path_from_succ(path, &len, S, 0, 9), GSP_INSUFFICIENT_SPACE);
  cr_assert_eq(len, 10);
  for (int k = 0; k < 12; k++) cr_assert_eq(path[k], 777, "path must be untouched");
  len = 0; /* size query with no array */
  cr_assert_eq(gsp_path_from_succ(NULL, &len, S, 2, 5), GSP_INSUFFICIENT_SPACE);
  cr_assert_eq(len, 4);
  len = 4;
  GSP_OK(gsp_path_from_succ(path, &len, S, 2, 5));
  cr_assert(len == 4 && path[0] == 2 && path[1] == 3 && path[2] == 4 && path[3] == 5);
  len = 12;
  cr_assert_eq(gsp_path_from_succ(path, &len, S, 0, 10), GSP_NO_VALUE);
  cr_assert_eq(gsp_path_from_succ(path, &len, S, 9, 0), GSP_NO_VALUE); /* wrong direction */
  len = 0;
  cr_assert_eq(gsp_path_from_succ(NULL, &len, S, 10, 3), GSP_NO_VALUE);
  len = 1;
  GSP_OK(gsp_path_from_succ(path, &len, S, 10, 10));
  cr_assert(len == 1 && path[0] == 10);
  /* arguments */
  cr_assert_eq(gsp_path_from_succ(path, NULL, S, 0, 1), GSP_NULL_POINTER);
  len = 3;
  cr_assert_eq(gsp_path_from_succ(NULL, &len, S, 0, 1), GSP_NULL_POINTER);
  cr_assert_eq(gsp_path_from_succ(path, &len, NULL, 0, 1), GSP_NULL_POINTER);
  cr_assert_eq(gsp_path_from_succ(path, &len, S, 11, 1), GSP_INVALID_INDEX);
  cr_assert_eq(gsp_path_from_succ(path, &len, S, 1, 11), GSP_INVALID_INDEX);
  gsp_matrix_free(&S);
}

/* Hand-made successor matrices (CSR storage) that are not valid. */
static gsp_matrix succ_from(gsp_index n, const gsp_index *I, const gsp_index *J, const int64_t *X, gsp_index m) {
  gsp_matrix S = NULL;
  GSP_OK(gsp_matrix_new(&S, GSP_INT64, n, n));
  GSP_OK(gsp_matrix_build(S, I, J, X, m, GSP_DUP_ERROR));
  return S;
}

Test(path, corrupt_successors_never_loop) {
  gsp_index path[8], len = 8;
  /* towards 3: 0 -> 1 -> 2 -> 0 -> ... */
  gsp_index I1[] = {0, 1, 2}, J1[] = {3, 3, 3};
  int64_t X1[] = {1, 2, 0};
  gsp_matrix S = succ_from(4, I1, J1, X1, 3);
  cr_assert_eq(gsp_path_from_succ(path, &len, S, 0, 3), GSP_INVALID_VALUE);
  gsp_matrix_free(&S);
  /* a self pointer */
  gsp_index I2[] = {0}, J2[] = {2};
  int64_t X2[] = {0};
  S = succ_from(3, I2, J2, X2, 1);
  len = 8;
  cr_assert_eq(gsp_path_from_succ(path, &len, S, 0, 2), GSP_INVALID_VALUE);
  gsp_matrix_free(&S);
  /* out of range and negative successors */
  int64_t X3[] = {7}, X4[] = {-1};
  S = succ_from(3, I2, J2, X3, 1);
  len = 8;
  cr_assert_eq(gsp_path_from_succ(path, &len, S, 0, 2), GSP_INVALID_VALUE);
  gsp_matrix_free(&S);
  S = succ_from(3, I2, J2, X4, 1);
  len = 8;
  cr_assert_eq(gsp_path_from_succ(path, &len, S, 0, 2), GSP_INVALID_VALUE);
  gsp_matrix_free(&S);
  /* a hole on the way: succ(0,2) = 1 but succ(1,2) absent */
  int64_t X5[] = {1};
  S = succ_from(3, I2, J2, X5, 1);
  len = 8;
  cr_assert_eq(gsp_path_from_succ(path, &len, S, 0, 2), GSP_INVALID_VALUE);
  gsp_matrix_free(&S);
  /* a valid CSR one is walked as well */
  gsp_index I6[] = {0, 1}, J6[] = {2, 2};
  int64_t X6[] = {1, 2};
  S = succ_from(3, I6, J6, X6, 2);
  len = 8;
  GSP_OK(gsp_path_from_succ(path, &len, S, 0, 2));
  cr_assert(len == 3 && path[0] == 0 && path[1] == 1 && path[2] == 2);
  gsp_matrix_free(&S);
  /* wrong type and shape */
  gsp_matrix F = NULL;
  GSP_OK(gsp_matrix_new(&F, GSP_FP64, 3, 3));
  cr_assert_eq(gsp_path_from_succ(path, &len, F, 0, 1), GSP_DOMAIN_MISMATCH);
  gsp_matrix_free(&F);
  GSP_OK(gsp_matrix_new(&F, GSP_INT64, 3, 4));
  cr_assert_eq(gsp_path_from_succ(path, &len, F, 0, 1), GSP_DIMENSION_MISMATCH);
  gsp_matrix_free(&F);
}

/* Past one column chunk (512) and several step blocks (64): the fused
 * steps of the successor driver, checked on sampled pairs, and its
 * distances against the blocked driver (no successors). */
Test(path, large_fused_steps, .timeout = 120) {
  const gsp_semiring srs[] = {GSP_MIN_PLUS, GSP_MAX_MIN};
  for (int q = 0; q < 2; q++) {
    const int64_t n = 600;
    gsp_test_context("%s n=%lld", gsp_test_semiring_name(srs[q]), (long long)n);
    double *W = malloc((size_t)(n * n) * sizeof *W);
    gsp_matrix M = make_graph(srs[q], GSP_FP32, n, 0.01, 2, false, 77, W), B = NULL, S = NULL;
    GSP_OK(gsp_matrix_dup(&B, M));
    GSP_OK(gsp_closure_ext(M, &S, srs[q], NULL));
    GSP_OK(gsp_closure(B, srs[q]));
    gsp_test_assert_matrix_same(M, B, 0);
    uint64_t st = 5;
    gsp_index *path = malloc((size_t)n * sizeof *path);
    for (int t = 0; t < 3000; t++) {
      gsp_index i = gsp_test_rand(&st) % (gsp_index)n, j = gsp_test_rand(&st) % (gsp_index)n, len = (gsp_index)n;
      float d;
      gsp_info have = gsp_matrix_extract_element(&d, M, i, j);
      gsp_info info = gsp_path_from_succ(path, &len, S, i, j);
      if (i == j) continue;
      if (have == GSP_NO_VALUE) {
        cr_assert_eq(info, GSP_NO_VALUE);
        continue;
      }
      cr_assert_eq(info, GSP_SUCCESS, "%s(%llu,%llu): %s", gsp_test_ctx, (unsigned long long)i, (unsigned long long)j,
                   gsp_last_error());
      double cost = sr_one(srs[q]);
      for (gsp_index h = 0; h + 1 < len; h++) {
        double w = W[path[h] * (gsp_index)n + path[h + 1]];
        cr_assert(!isnan(w), "%snot an edge", gsp_test_ctx);
        cost = sr_mul(srs[q], cost, w);
      }
      cr_assert(path[0] == i && path[len - 1] == j && cost == d, "%s(%llu,%llu): cost %g, closure %g", gsp_test_ctx,
                (unsigned long long)i, (unsigned long long)j, cost, (double)d);
    }
    free(path), free(W);
    gsp_matrix_free(&M), gsp_matrix_free(&B), gsp_matrix_free(&S);
  }
}

/* The successor driver fuses its steps by blocks but promises every entry
 * the operands of the textbook k-i-j order: then its successors equal,
 * entry for entry, those of a plain textbook loop (strict improvement). */
static void textbook_succ(gsp_semiring s, int64_t n, const double *W, double *D, int64_t *S) {
  for (int64_t q = 0; q < n * n; q++) {
    D[q] = W[q];
    S[q] = isnan(W[q]) ? -1 : q % n;
  }
  for (int64_t k = 0; k < n; k++)
    for (int64_t i = 0; i < n; i++) {
      if (i == k || isnan(D[i * n + k])) continue;
      for (int64_t j = 0; j < n; j++) {
        if (isnan(D[k * n + j])) continue;
        double c = sr_mul(s, D[i * n + k], D[k * n + j]), old = D[i * n + j];
        bool better = isnan(old) || (s == GSP_MIN_PLUS || s == GSP_MIN_MAX ? c < old : c > old);
        if (better) D[i * n + j] = c, S[i * n + j] = S[i * n + k];
      }
    }
}

Test(path, successors_equal_textbook_order, .timeout = 120) {
  const gsp_semiring srs[] = {GSP_MIN_PLUS, GSP_MAX_MIN, GSP_MIN_MAX};
  const int64_t ns[] = {150, 530};
  for (int q = 0; q < 3; q++) {
    for (int z = 0; z < 2; z++) {
      const int64_t n = ns[z];
      gsp_test_context("%s n=%lld", gsp_test_semiring_name(srs[q]), (long long)n);
      double *W = malloc((size_t)(n * n) * sizeof *W), *D = malloc((size_t)(n * n) * sizeof *D);
      int64_t *R = malloc((size_t)(n * n) * sizeof *R), *G = malloc((size_t)(n * n) * sizeof *G);
      gsp_matrix M = make_graph(srs[q], GSP_INT32, n, 4.0 / (double)n, 2, false, 91 + z, W), S = NULL;
      gsp_closure_opts plus = {.non_reflexive = true};
      GSP_OK(gsp_closure_ext(M, &S, srs[q], &plus));
      textbook_succ(srs[q], n, W, D, R);
      int64_t none = -1;
      GSP_OK(gsp_matrix_export_dense(G, &none, S));
      for (int64_t e = 0; e < n * n; e++)
        cr_assert_eq(G[e], R[e], "%ssucc(%lld,%lld): gsp %lld, textbook %lld", gsp_test_ctx, (long long)(e / n),
                     (long long)(e % n), (long long)G[e], (long long)R[e]);
      free(W), free(D), free(R), free(G);
      gsp_matrix_free(&M), gsp_matrix_free(&S);
    }
  }
}
