/* Test support: generators, GraphBLAS glue and comparisons (gsp_test.h). */
#include "gsp_test.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char gsp_test_ctx[256];

void gsp_test_context(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(gsp_test_ctx, sizeof gsp_test_ctx - 2, fmt, ap);
  va_end(ap);
  strcat(gsp_test_ctx, ": ");
}

const gsp_type gsp_test_types[GSP_TEST_NTYPES] = {GSP_BOOL, GSP_INT32, GSP_INT64, GSP_FP32, GSP_FP64};
const gsp_semiring gsp_test_semirings[GSP_TEST_NSEMIRINGS] = {GSP_MIN_PLUS, GSP_MAX_PLUS, GSP_MAX_MIN,
                                                              GSP_MIN_MAX,  GSP_OR_AND,   GSP_PLUS_TIMES};

uint64_t gsp_test_rand(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double gsp_test_uniform(uint64_t *state) {
  return (double)(gsp_test_rand(state) >> 11) * (1.0 / 9007199254740992.0);
}

void gsp_test_value_set(gsp_type t, void *x, int64_t v) {
  if (t == GSP_INT64) *(int64_t *)x = v; /* exact beyond 2^53 */
  else gsp_test_value_set_f64(t, x, (double)v);
}

void gsp_test_value_set_f64(gsp_type t, void *x, double v) {
  switch (t) {
  case GSP_BOOL:
    *(bool *)x = v != 0;
    break;
  case GSP_INT32:
    *(int32_t *)x = v >= INT32_MAX ? INT32_MAX : v <= INT32_MIN ? INT32_MIN : (int32_t)v;
    break;
  case GSP_INT64:
    *(int64_t *)x = v >= 0x1p63 ? INT64_MAX : v <= -0x1p63 ? INT64_MIN : (int64_t)v;
    break;
  case GSP_FP32:
    *(float *)x = (float)v;
    break;
  case GSP_FP64:
    *(double *)x = v;
    break;
  }
}

double gsp_test_value_f64(gsp_type t, const void *x) {
  switch (t) {
  case GSP_BOOL:
    return *(const bool *)x;
  case GSP_INT32:
    return *(const int32_t *)x;
  case GSP_INT64:
    return (double)*(const int64_t *)x;
  case GSP_FP32:
    return *(const float *)x;
  case GSP_FP64:
    return *(const double *)x;
  }
  return NAN;
}

bool gsp_test_value_eq(gsp_type t, const void *a, const void *b, double tol) {
  switch (t) {
  case GSP_BOOL:
    return *(const bool *)a == *(const bool *)b;
  case GSP_INT32:
    return *(const int32_t *)a == *(const int32_t *)b;
  case GSP_INT64:
    return *(const int64_t *)a == *(const int64_t *)b;
  case GSP_FP32:
  case GSP_FP64: {
    double x = gsp_test_value_f64(t, a), y = gsp_test_value_f64(t, b);
    if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
    if (x == y) return true; /* also equal infinities */
    if (isinf(x) || isinf(y)) return false;
    double scale = fmax(1.0, fmax(fabs(x), fabs(y)));
    return fabs(x - y) <= tol * scale;
  }
  }
  return false;
}

/* Random value of type t: an integer in [lo, hi], or a random bool. */
static void random_value(gsp_type t, void *x, int64_t lo, int64_t hi, uint64_t *st) {
  if (t == GSP_BOOL) {
    *(bool *)x = gsp_test_rand(st) & 1;
    return;
  }
  uint64_t span = (uint64_t)(hi - lo) + 1;
  gsp_test_value_set(t, x, lo + (int64_t)(span ? gsp_test_rand(st) % span : gsp_test_rand(st)));
}

gsp_index *gsp_test_all_sources(gsp_matrix A, gsp_index *n) {
  GSP_OK(gsp_matrix_nrows(n, A));
  gsp_index *s = malloc((size_t)(*n + 1) * sizeof *s);
  cr_assert(s != NULL);
  for (gsp_index v = 0; v < *n; v++) s[v] = v;
  return s;
}

gsp_matrix gsp_test_random_matrix(gsp_type t, gsp_index nrows, gsp_index ncols, double density, int64_t lo, int64_t hi,
                                  uint64_t seed) {
  uint64_t st = seed * 0x2545F4914F6CDD1DULL + 1;
  size_t ts = gsp_type_size(t), cap = 64, n = 0;
  gsp_index *I = malloc(cap * sizeof *I), *J = malloc(cap * sizeof *J);
  char *X = malloc(cap * ts);
  cr_assert(I && J && X, "out of memory in the test generator");
  /* Bernoulli(density) per cell; sparse matrices skip ahead by geometric
   * gaps instead of drawing for every cell */
  const double cells = (double)nrows * (double)ncols;
  const bool skip = density > 0 && density < 0.25;
  const double lq = skip ? log1p(-density) : 0;
  for (double pos = -1;;) {
    if (skip) {
      double u = gsp_test_uniform(&st);
      pos += 1 + floor(log1p(-u) / lq);
    } else {
      pos += 1;
      if (pos < cells && gsp_test_uniform(&st) >= density) continue;
    }
    if (pos >= cells || density <= 0) break;
    gsp_index cell = (gsp_index)pos;
    if (n == cap) {
      cap *= 2;
      I = realloc(I, cap * sizeof *I);
      J = realloc(J, cap * sizeof *J);
      X = realloc(X, cap * ts);
      cr_assert(I && J && X, "out of memory in the test generator");
    }
    I[n] = cell / ncols;
    J[n] = cell % ncols;
    random_value(t, X + n * ts, lo, hi, &st);
    n++;
  }
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, t, nrows, ncols));
  GSP_OK(gsp_matrix_build(A, I, J, X, n, GSP_DUP_ERROR));
  free(I), free(J), free(X);
  return A;
}

gsp_vector gsp_test_random_vector(gsp_type t, gsp_index n, double density, int64_t lo, int64_t hi, uint64_t seed) {
  uint64_t st = seed * 0x9E3779B97F4A7C15ULL + 7;
  size_t ts = gsp_type_size(t), k = 0;
  gsp_index *I = malloc((n + 1) * sizeof *I);
  char *X = malloc((n + 1) * ts);
  cr_assert(I && X, "out of memory in the test generator");
  for (gsp_index i = 0; i < n; i++) {
    if (gsp_test_uniform(&st) >= density) continue;
    I[k] = i;
    random_value(t, X + k * ts, lo, hi, &st);
    k++;
  }
  gsp_vector v = NULL;
  GSP_OK(gsp_vector_new(&v, t, n));
  GSP_OK(gsp_vector_build(v, I, X, k, GSP_DUP_ERROR));
  free(I), free(X);
  return v;
}

/* ---- GraphBLAS objects matching gsp's ---- */

GrB_Type gsp_test_grb_type(gsp_type t) {
  switch (t) {
  case GSP_BOOL:
    return GrB_BOOL;
  case GSP_INT32:
    return GrB_INT32;
  case GSP_INT64:
    return GrB_INT64;
  case GSP_FP32:
    return GrB_FP32;
  case GSP_FP64:
    return GrB_FP64;
  }
  return NULL;
}

#define PICK_T_(prefix, suffix, t)            \
  ((t) == GSP_BOOL    ? prefix##BOOL##suffix  \
   : (t) == GSP_INT32 ? prefix##INT32##suffix \
   : (t) == GSP_INT64 ? prefix##INT64##suffix \
   : (t) == GSP_FP32  ? prefix##FP32##suffix  \
                      : prefix##FP64##suffix)
#define PICK_NUM_(prefix, t) \
  ((t) == GSP_INT32 ? prefix##INT32 : (t) == GSP_INT64 ? prefix##INT64 : (t) == GSP_FP32 ? prefix##FP32 : prefix##FP64)

GrB_Semiring gsp_test_grb_semiring(gsp_semiring s, gsp_type t) {
  if (s == GSP_OR_AND) return t == GSP_BOOL ? GrB_LOR_LAND_SEMIRING_BOOL : NULL;
  if (t == GSP_BOOL) return NULL;
  switch (s) {
  case GSP_MIN_PLUS:
    return PICK_NUM_(GrB_MIN_PLUS_SEMIRING_, t);
  case GSP_MAX_PLUS:
    return PICK_NUM_(GrB_MAX_PLUS_SEMIRING_, t);
  case GSP_MAX_MIN:
    return PICK_NUM_(GrB_MAX_MIN_SEMIRING_, t);
  case GSP_MIN_MAX:
    return PICK_NUM_(GrB_MIN_MAX_SEMIRING_, t);
  case GSP_PLUS_TIMES:
    return PICK_NUM_(GrB_PLUS_TIMES_SEMIRING_, t);
  default:
    return NULL;
  }
}

GrB_BinaryOp gsp_test_grb_binop(gsp_binop op, gsp_type t) {
  switch (op) {
  case GSP_NOOP:
    return NULL;
  case GSP_MIN:
    return PICK_T_(GrB_MIN_, , t);
  case GSP_MAX:
    return PICK_T_(GrB_MAX_, , t);
  case GSP_PLUS:
    return PICK_T_(GrB_PLUS_, , t);
  case GSP_TIMES:
    return PICK_T_(GrB_TIMES_, , t);
  case GSP_MINUS:
    return PICK_T_(GrB_MINUS_, , t);
  case GSP_FIRST:
    return PICK_T_(GrB_FIRST_, , t);
  case GSP_SECOND:
    return PICK_T_(GrB_SECOND_, , t);
  case GSP_LOR:
    return t == GSP_BOOL ? GrB_LOR : PICK_NUM_(GxB_LOR_, t);
  case GSP_LAND:
    return t == GSP_BOOL ? GrB_LAND : PICK_NUM_(GxB_LAND_, t);
  }
  return NULL;
}

GrB_Monoid gsp_test_grb_monoid(gsp_binop op, gsp_type t) {
  /* GraphBLAS has no logical monoids on numbers: made once per process */
  static GrB_Monoid lor[GSP_TEST_NTYPES], land[GSP_TEST_NTYPES];
  if (t == GSP_BOOL) {
    switch (op) {
    case GSP_MIN:
    case GSP_TIMES:
    case GSP_LAND:
      return GrB_LAND_MONOID_BOOL;
    case GSP_MAX:
    case GSP_PLUS:
    case GSP_LOR:
      return GrB_LOR_MONOID_BOOL;
    default:
      return NULL;
    }
  }
  switch (op) {
  case GSP_MIN:
    return PICK_NUM_(GrB_MIN_MONOID_, t);
  case GSP_MAX:
    return PICK_NUM_(GrB_MAX_MONOID_, t);
  case GSP_PLUS:
    return PICK_NUM_(GrB_PLUS_MONOID_, t);
  case GSP_TIMES:
    return PICK_NUM_(GrB_TIMES_MONOID_, t);
  case GSP_LOR:
  case GSP_LAND: {
    GrB_Monoid *slot = op == GSP_LOR ? &lor[t] : &land[t];
    if (!*slot) {
      GrB_BinaryOp f = gsp_test_grb_binop(op, t);
      int64_t id = op == GSP_LAND;
      switch (t) {
      case GSP_INT32:
        GRB_OK(GrB_Monoid_new_INT32(slot, f, (int32_t)id));
        break;
      case GSP_INT64:
        GRB_OK(GrB_Monoid_new_INT64(slot, f, id));
        break;
      case GSP_FP32:
        GRB_OK(GrB_Monoid_new_FP32(slot, f, (float)id));
        break;
      default:
        GRB_OK(GrB_Monoid_new_FP64(slot, f, (double)id));
        break;
      }
    }
    return *slot;
  }
  default:
    return NULL;
  }
}

void gsp_test_grb_init(void) {
  static bool done = false;
  if (done) return;
  GRB_OK(GrB_init(GrB_NONBLOCKING));
  /* one thread: ctest runs suites side by side on CI's two cores */
  GRB_OK(GxB_Global_Option_set(GxB_NTHREADS, 1));
  done = true;
}

/* ---- conversions ---- */

/* All tuples of A in arrays the caller frees. */
static gsp_index matrix_tuples(gsp_matrix A, gsp_index **I, gsp_index **J, void **X) {
  gsp_index nv;
  gsp_type t;
  GSP_OK(gsp_matrix_nvals(&nv, A));
  GSP_OK(gsp_matrix_type(&t, A));
  *I = malloc((nv + 1) * sizeof **I);
  *J = malloc((nv + 1) * sizeof **J);
  *X = malloc((nv + 1) * gsp_type_size(t));
  cr_assert(*I && *J && *X, "out of memory in the test helpers");
  gsp_index n = nv;
  GSP_OK(gsp_matrix_extract_tuples(*I, *J, *X, &n, A));
  cr_assert_eq(n, nv, "extract_tuples gave %llu of %llu entries", (unsigned long long)n, (unsigned long long)nv);
  return nv;
}

static gsp_index vector_tuples(gsp_vector v, gsp_index **I, void **X) {
  gsp_index nv;
  gsp_type t;
  GSP_OK(gsp_vector_nvals(&nv, v));
  GSP_OK(gsp_vector_type(&t, v));
  *I = malloc((nv + 1) * sizeof **I);
  *X = malloc((nv + 1) * gsp_type_size(t));
  cr_assert(*I && *X, "out of memory in the test helpers");
  gsp_index n = nv;
  GSP_OK(gsp_vector_extract_tuples(*I, *X, &n, v));
  cr_assert_eq(n, nv, "extract_tuples gave %llu of %llu entries", (unsigned long long)n, (unsigned long long)nv);
  return nv;
}

static void grb_matrix_build(GrB_Matrix G, gsp_type t, const gsp_index *I, const gsp_index *J, const void *X,
                             gsp_index n) {
  switch (t) {
  case GSP_BOOL:
    GRB_OK(GrB_Matrix_build_BOOL(G, I, J, X, n, GrB_FIRST_BOOL));
    break;
  case GSP_INT32:
    GRB_OK(GrB_Matrix_build_INT32(G, I, J, X, n, GrB_FIRST_INT32));
    break;
  case GSP_INT64:
    GRB_OK(GrB_Matrix_build_INT64(G, I, J, X, n, GrB_FIRST_INT64));
    break;
  case GSP_FP32:
    GRB_OK(GrB_Matrix_build_FP32(G, I, J, X, n, GrB_FIRST_FP32));
    break;
  case GSP_FP64:
    GRB_OK(GrB_Matrix_build_FP64(G, I, J, X, n, GrB_FIRST_FP64));
    break;
  }
}

GrB_Matrix gsp_test_to_grb_matrix(gsp_matrix A) {
  gsp_test_grb_init();
  gsp_index m, n, *I, *J;
  gsp_type t;
  void *X;
  GSP_OK(gsp_matrix_nrows(&m, A));
  GSP_OK(gsp_matrix_ncols(&n, A));
  GSP_OK(gsp_matrix_type(&t, A));
  gsp_index nv = matrix_tuples(A, &I, &J, &X);
  GrB_Matrix G = NULL;
  GRB_OK(GrB_Matrix_new(&G, gsp_test_grb_type(t), m, n));
  grb_matrix_build(G, t, I, J, X, nv);
  free(I), free(J), free(X);
  return G;
}

GrB_Vector gsp_test_to_grb_vector(gsp_vector v) {
  gsp_test_grb_init();
  gsp_index n, *I;
  gsp_type t;
  void *X;
  GSP_OK(gsp_vector_size(&n, v));
  GSP_OK(gsp_vector_type(&t, v));
  gsp_index nv = vector_tuples(v, &I, &X);
  GrB_Vector G = NULL;
  GRB_OK(GrB_Vector_new(&G, gsp_test_grb_type(t), n));
  switch (t) {
  case GSP_BOOL:
    GRB_OK(GrB_Vector_build_BOOL(G, I, X, nv, GrB_FIRST_BOOL));
    break;
  case GSP_INT32:
    GRB_OK(GrB_Vector_build_INT32(G, I, X, nv, GrB_FIRST_INT32));
    break;
  case GSP_INT64:
    GRB_OK(GrB_Vector_build_INT64(G, I, X, nv, GrB_FIRST_INT64));
    break;
  case GSP_FP32:
    GRB_OK(GrB_Vector_build_FP32(G, I, X, nv, GrB_FIRST_FP32));
    break;
  case GSP_FP64:
    GRB_OK(GrB_Vector_build_FP64(G, I, X, nv, GrB_FIRST_FP64));
    break;
  }
  free(I), free(X);
  return G;
}

GrB_Matrix gsp_test_vector_to_grb_row(gsp_vector v) {
  gsp_test_grb_init();
  gsp_index n, *I;
  gsp_type t;
  void *X;
  GSP_OK(gsp_vector_size(&n, v));
  GSP_OK(gsp_vector_type(&t, v));
  gsp_index nv = vector_tuples(v, &I, &X);
  gsp_index *Z = calloc(nv + 1, sizeof *Z);
  cr_assert(Z, "out of memory in the test helpers");
  GrB_Matrix G = NULL;
  GRB_OK(GrB_Matrix_new(&G, gsp_test_grb_type(t), 1, n));
  grb_matrix_build(G, t, Z, I, X, nv);
  free(I), free(X), free(Z);
  return G;
}

/* G(i,j) into x (of type t); false when absent. */
static bool grb_matrix_get(void *x, gsp_type t, GrB_Matrix G, gsp_index i, gsp_index j) {
  GrB_Info r = GrB_NO_VALUE;
  switch (t) {
  case GSP_BOOL:
    r = GrB_Matrix_extractElement_BOOL(x, G, i, j);
    break;
  case GSP_INT32:
    r = GrB_Matrix_extractElement_INT32(x, G, i, j);
    break;
  case GSP_INT64:
    r = GrB_Matrix_extractElement_INT64(x, G, i, j);
    break;
  case GSP_FP32:
    r = GrB_Matrix_extractElement_FP32(x, G, i, j);
    break;
  case GSP_FP64:
    r = GrB_Matrix_extractElement_FP64(x, G, i, j);
    break;
  }
  cr_assert(r == GrB_SUCCESS || r == GrB_NO_VALUE, "GrB extractElement -> %d", (int)r);
  return r == GrB_SUCCESS;
}

static bool grb_vector_get(void *x, gsp_type t, GrB_Vector G, gsp_index i) {
  GrB_Info r = GrB_NO_VALUE;
  switch (t) {
  case GSP_BOOL:
    r = GrB_Vector_extractElement_BOOL(x, G, i);
    break;
  case GSP_INT32:
    r = GrB_Vector_extractElement_INT32(x, G, i);
    break;
  case GSP_INT64:
    r = GrB_Vector_extractElement_INT64(x, G, i);
    break;
  case GSP_FP32:
    r = GrB_Vector_extractElement_FP32(x, G, i);
    break;
  case GSP_FP64:
    r = GrB_Vector_extractElement_FP64(x, G, i);
    break;
  }
  cr_assert(r == GrB_SUCCESS || r == GrB_NO_VALUE, "GrB extractElement -> %d", (int)r);
  return r == GrB_SUCCESS;
}

static void assert_grb_type(GrB_Type gt, gsp_type t) {
  cr_assert(gt == gsp_test_grb_type(t), "GraphBLAS object has another type than the gsp %s", gsp_test_type_name(t));
}

/* Same dimensions and entry count, and every gsp entry present in G with an
 * equal value: then the structures are equal too. */
void gsp_test_assert_matrix_eq(gsp_matrix A, GrB_Matrix G, double tol) {
  gsp_index m, n, *I, *J;
  GrB_Index gm, gn, gnv;
  gsp_type t;
  GrB_Type gt;
  void *X;
  GSP_OK(gsp_matrix_nrows(&m, A));
  GSP_OK(gsp_matrix_ncols(&n, A));
  GSP_OK(gsp_matrix_type(&t, A));
  GRB_OK(GrB_Matrix_nrows(&gm, G));
  GRB_OK(GrB_Matrix_ncols(&gn, G));
  GRB_OK(GrB_Matrix_nvals(&gnv, G));
  GRB_OK(GxB_Matrix_type(&gt, G));
  assert_grb_type(gt, t);
  cr_assert(m == gm && n == gn, "%sgsp matrix is %llu x %llu, GraphBLAS %llu x %llu", gsp_test_ctx,
            (unsigned long long)m, (unsigned long long)n, (unsigned long long)gm, (unsigned long long)gn);
  gsp_index nv = matrix_tuples(A, &I, &J, &X);
  cr_assert_eq(nv, gnv, "%sgsp has %llu entries, GraphBLAS %llu", gsp_test_ctx, (unsigned long long)nv,
               (unsigned long long)gnv);
  size_t ts = gsp_type_size(t);
  double y[1];
  for (gsp_index k = 0; k < nv; k++) {
    const void *x = (const char *)X + k * ts;
    cr_assert(grb_matrix_get(y, t, G, I[k], J[k]), "entry (%llu,%llu) = %g in gsp is absent in GraphBLAS",
              (unsigned long long)I[k], (unsigned long long)J[k], gsp_test_value_f64(t, x));
    cr_assert(gsp_test_value_eq(t, x, y, tol), "%sentry (%llu,%llu): gsp %.17g, GraphBLAS %.17g", gsp_test_ctx,
              (unsigned long long)I[k], (unsigned long long)J[k], gsp_test_value_f64(t, x), gsp_test_value_f64(t, y));
  }
  free(I), free(J), free(X);
}

void gsp_test_assert_vector_eq(gsp_vector v, GrB_Vector G, double tol) {
  gsp_index n, *I;
  GrB_Index gn, gnv;
  gsp_type t;
  GrB_Type gt;
  void *X;
  GSP_OK(gsp_vector_size(&n, v));
  GSP_OK(gsp_vector_type(&t, v));
  GRB_OK(GrB_Vector_size(&gn, G));
  GRB_OK(GrB_Vector_nvals(&gnv, G));
  GRB_OK(GxB_Vector_type(&gt, G));
  assert_grb_type(gt, t);
  cr_assert_eq(n, gn, "%sgsp vector has size %llu, GraphBLAS %llu", gsp_test_ctx, (unsigned long long)n,
               (unsigned long long)gn);
  gsp_index nv = vector_tuples(v, &I, &X);
  cr_assert_eq(nv, gnv, "%sgsp has %llu entries, GraphBLAS %llu", gsp_test_ctx, (unsigned long long)nv,
               (unsigned long long)gnv);
  size_t ts = gsp_type_size(t);
  double y[1];
  for (gsp_index k = 0; k < nv; k++) {
    const void *x = (const char *)X + k * ts;
    cr_assert(grb_vector_get(y, t, G, I[k]), "%sentry %llu = %g in gsp is absent in GraphBLAS", gsp_test_ctx,
              (unsigned long long)I[k], gsp_test_value_f64(t, x));
    cr_assert(gsp_test_value_eq(t, x, y, tol), "%sentry %llu: gsp %.17g, GraphBLAS %.17g", gsp_test_ctx,
              (unsigned long long)I[k], gsp_test_value_f64(t, x), gsp_test_value_f64(t, y));
  }
  free(I), free(X);
}

void gsp_test_assert_vector_eq_row(gsp_vector v, GrB_Matrix G, double tol) {
  gsp_index n, *I;
  GrB_Index gm, gn, gnv;
  gsp_type t;
  void *X;
  GSP_OK(gsp_vector_size(&n, v));
  GSP_OK(gsp_vector_type(&t, v));
  GRB_OK(GrB_Matrix_nrows(&gm, G));
  GRB_OK(GrB_Matrix_ncols(&gn, G));
  GRB_OK(GrB_Matrix_nvals(&gnv, G));
  cr_assert(gm == 1 && gn == n, "%sGraphBLAS row is %llu x %llu, gsp vector has size %llu", gsp_test_ctx,
            (unsigned long long)gm, (unsigned long long)gn, (unsigned long long)n);
  gsp_index nv = vector_tuples(v, &I, &X);
  cr_assert_eq(nv, gnv, "%sgsp has %llu entries, GraphBLAS %llu", gsp_test_ctx, (unsigned long long)nv,
               (unsigned long long)gnv);
  size_t ts = gsp_type_size(t);
  double y[1];
  for (gsp_index k = 0; k < nv; k++) {
    const void *x = (const char *)X + k * ts;
    cr_assert(grb_matrix_get(y, t, G, 0, I[k]), "%sentry %llu in gsp is absent in GraphBLAS", gsp_test_ctx,
              (unsigned long long)I[k]);
    cr_assert(gsp_test_value_eq(t, x, y, tol), "%sentry %llu: gsp %.17g, GraphBLAS %.17g", gsp_test_ctx,
              (unsigned long long)I[k], gsp_test_value_f64(t, x), gsp_test_value_f64(t, y));
  }
  free(I), free(X);
}

void gsp_test_assert_matrix_same(gsp_matrix A, gsp_matrix B, double tol) {
  gsp_index ma, na, mb, nb, *Ia, *Ja, *Ib, *Jb;
  gsp_type ta, tb;
  void *Xa, *Xb;
  GSP_OK(gsp_matrix_nrows(&ma, A));
  GSP_OK(gsp_matrix_ncols(&na, A));
  GSP_OK(gsp_matrix_nrows(&mb, B));
  GSP_OK(gsp_matrix_ncols(&nb, B));
  GSP_OK(gsp_matrix_type(&ta, A));
  GSP_OK(gsp_matrix_type(&tb, B));
  cr_assert(ma == mb && na == nb && ta == tb, "%sshapes or types differ", gsp_test_ctx);
  gsp_index ka = matrix_tuples(A, &Ia, &Ja, &Xa), kb = matrix_tuples(B, &Ib, &Jb, &Xb);
  cr_assert_eq(ka, kb, "%sentry counts differ: %llu vs %llu", gsp_test_ctx, (unsigned long long)ka,
               (unsigned long long)kb);
  size_t ts = gsp_type_size(ta);
  for (gsp_index k = 0; k < ka; k++) {
    cr_assert(Ia[k] == Ib[k] && Ja[k] == Jb[k], "%sstructures differ at tuple %llu", gsp_test_ctx,
              (unsigned long long)k);
    cr_assert(gsp_test_value_eq(ta, (char *)Xa + k * ts, (char *)Xb + k * ts, tol), "values differ at (%llu,%llu)",
              (unsigned long long)Ia[k], (unsigned long long)Ja[k]);
  }
  free(Ia), free(Ja), free(Xa), free(Ib), free(Jb), free(Xb);
}

void gsp_test_assert_vector_same(gsp_vector a, gsp_vector b, double tol) {
  gsp_index na, nb, *Ia, *Ib;
  gsp_type ta, tb;
  void *Xa, *Xb;
  GSP_OK(gsp_vector_size(&na, a));
  GSP_OK(gsp_vector_size(&nb, b));
  GSP_OK(gsp_vector_type(&ta, a));
  GSP_OK(gsp_vector_type(&tb, b));
  cr_assert(na == nb && ta == tb, "%ssizes or types differ", gsp_test_ctx);
  gsp_index ka = vector_tuples(a, &Ia, &Xa), kb = vector_tuples(b, &Ib, &Xb);
  cr_assert_eq(ka, kb, "%sentry counts differ: %llu vs %llu", gsp_test_ctx, (unsigned long long)ka,
               (unsigned long long)kb);
  size_t ts = gsp_type_size(ta);
  for (gsp_index k = 0; k < ka; k++) {
    cr_assert(Ia[k] == Ib[k], "%sstructures differ at tuple %llu", gsp_test_ctx, (unsigned long long)k);
    cr_assert(gsp_test_value_eq(ta, (char *)Xa + k * ts, (char *)Xb + k * ts, tol), "values differ at %llu",
              (unsigned long long)Ia[k]);
  }
  free(Ia), free(Xa), free(Ib), free(Xb);
}

/* ---- names, tolerances, configurations ---- */

bool gsp_test_fits(gsp_semiring s, gsp_type t) {
  return s == GSP_OR_AND ? t == GSP_BOOL : t != GSP_BOOL;
}

const char *gsp_test_type_name(gsp_type t) {
  static const char *names[] = {"BOOL", "INT32", "INT64", "FP32", "FP64"};
  return (unsigned)t < 5 ? names[t] : "?";
}

const char *gsp_test_semiring_name(gsp_semiring s) {
  static const char *names[] = {"MIN_PLUS", "MAX_PLUS", "MAX_MIN", "MIN_MAX", "OR_AND", "PLUS_TIMES"};
  return (unsigned)s < 6 ? names[s] : "?";
}

const char *gsp_test_binop_name(gsp_binop op) {
  static const char *names[] = {"NOOP", "MIN", "MAX", "PLUS", "TIMES", "LOR", "LAND", "FIRST", "SECOND", "MINUS"};
  return (unsigned)op < 10 ? names[op] : "?";
}

double gsp_test_tol(gsp_semiring s, gsp_type t) {
  if (s != GSP_PLUS_TIMES) return 0;
  return t == GSP_FP32 ? 1e-5 : t == GSP_FP64 ? 1e-12 : 0;
}

gsp_test_config gsp_test_config_get(int k) {
  gsp_test_config c = {.mask = k % 3, .comp = (k / 3) % 2, .replace = (k / 6) % 2, .accum = (k / 12) % 2};
  return c;
}

const char *gsp_test_config_name(gsp_test_config c) {
  static char buf[96];
  snprintf(buf, sizeof buf, "mask=%s%s%s%s",
           c.mask == 0   ? "none"
           : c.mask == 1 ? "value"
                         : "struct",
           c.comp ? " complement" : "", c.replace ? " replace" : "", c.accum ? " accum" : "");
  return buf;
}

gsp_desc gsp_test_desc(gsp_test_config c, bool transpose_a, bool transpose_b) {
  gsp_desc d = {.mask_complement = c.comp,
                .mask_structure = c.mask == 2,
                .replace = c.replace,
                .transpose_a = transpose_a,
                .transpose_b = transpose_b};
  return d;
}

GrB_Descriptor gsp_test_grb_desc(const gsp_desc *d) {
  gsp_test_grb_init();
  if (!d) return NULL;
  GrB_Descriptor g = NULL;
  GRB_OK(GrB_Descriptor_new(&g));
  if (d->mask_complement) GRB_OK(GrB_Descriptor_set(g, GrB_MASK, GrB_COMP));
  if (d->mask_structure) GRB_OK(GrB_Descriptor_set(g, GrB_MASK, GrB_STRUCTURE));
  if (d->replace) GRB_OK(GrB_Descriptor_set(g, GrB_OUTP, GrB_REPLACE));
  if (d->transpose_a) GRB_OK(GrB_Descriptor_set(g, GrB_INP0, GrB_TRAN));
  if (d->transpose_b) GRB_OK(GrB_Descriptor_set(g, GrB_INP1, GrB_TRAN));
  return g;
}

void gsp_test_range(gsp_semiring s, int64_t *lo, int64_t *hi) {
  *lo = s == GSP_PLUS_TIMES ? -3 : -9;
  *hi = s == GSP_PLUS_TIMES ? 3 : 9;
}

gsp_binop gsp_test_accum(int k) {
  static const gsp_binop ops[] = {GSP_PLUS,  GSP_MIN,    GSP_MAX, GSP_TIMES, GSP_MINUS,
                                  GSP_FIRST, GSP_SECOND, GSP_LOR, GSP_LAND};
  return ops[(unsigned)k % (sizeof ops / sizeof ops[0])];
}

static gsp_type mask_type(uint64_t seed) {
  static const gsp_type ts[] = {GSP_BOOL, GSP_INT32, GSP_FP64};
  return ts[seed % 3];
}

gsp_matrix gsp_test_random_mask(gsp_index nrows, gsp_index ncols, double density, uint64_t seed) {
  return gsp_test_random_matrix(mask_type(seed), nrows, ncols, density, 0, 1, seed ^ 0x5151);
}

gsp_vector gsp_test_random_vmask(gsp_index n, double density, uint64_t seed) {
  return gsp_test_random_vector(mask_type(seed), n, density, 0, 1, seed ^ 0x5151);
}

int gsp_test_temporaries(const char *dir) {
  DIR *d = opendir(dir);
  cr_assert_not_null(d, "%s", dir);
  int k = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (strstr(e->d_name, ".tmp")) k++;
  closedir(d);
  return k;
}
