/*
 * Front end shared by the shortest-path calls: checks that give each bad
 * argument its own code and message, the prepared graph (host CSR plus
 * settings), and helpers for the result objects.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sssp_prepare.h"
#include "gsp_cuda_plugin.h"

/* The row of CSR entry e (p is nondecreasing): the last u with p[u] <= e. */
static int64_t row_of(const gsp_index *p, int64_t n, int64_t e) {
  int64_t lo = 0, hi = n; /* p[lo] <= e < p[hi] */
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (p[mid] <= (gsp_index)e) lo = mid;
    else hi = mid;
  }
  return lo;
}

gsp__weights gsp__weights_scan(const struct gsp_matrix_s *A, int nt) {
  const int64_t m = A->nvals;
  int64_t neg = INT64_MAX, bad = INT64_MAX, nonpos = 0;
  double sum = 0;
  /* one pass for every fact; integers have no NaN and no -inf */
#define GSP_WEIGHTS_SCAN_(ct, sfx, isfloat)                                                                                                \
  {                                                                                                                                        \
    const ct *x = (const ct *)A->x, inf = gsp_pinf_##sfx(), ninf = gsp_ninf_##sfx();                                                       \
    _Pragma("omp parallel for num_threads(nt) schedule(static) reduction(min : neg, bad) reduction(+ : nonpos, sum) if (m > 65536)") for ( \
        int64_t e = 0; e < m; e++) {                                                                                                       \
      const ct v = x[e];                                                                                                                   \
      if (!(v >= 0) && e < neg) neg = e;                                                                                                   \
      if ((isfloat) && !(v > ninf) && e < bad) bad = e;                                                                                    \
      nonpos += !(v > 0);                                                                                                                  \
      if (v != inf) sum += (double)v;                                                                                                      \
    }                                                                                                                                      \
  }
  switch (A->type) {
  case GSP_INT32:
    GSP_WEIGHTS_SCAN_(int32_t, i32, false) break;
  case GSP_INT64:
    GSP_WEIGHTS_SCAN_(int64_t, i64, false) break;
  case GSP_FP32:
    GSP_WEIGHTS_SCAN_(float, f32, true) break;
  case GSP_FP64:
    GSP_WEIGHTS_SCAN_(double, f64, true) break;
  default:
    break;
  }
#undef GSP_WEIGHTS_SCAN_
  return (gsp__weights){.negative = neg == INT64_MAX ? -1 : neg,
                        .invalid = bad == INT64_MAX ? -1 : bad,
                        .positive = nonpos == 0,
                        .sum = sum};
}

gsp_info gsp__weights_check(const struct gsp_matrix_s *A, const gsp__weights *w, bool negative_ok, const char *fn) {
  const int64_t e = negative_ok ? w->invalid : w->negative;
  if (e < 0) return GSP_SUCCESS;
  const long long u = (long long)row_of(A->p, A->nrows, e), j = (long long)A->j[e];
  double v = 0;
  gsp__cast_value(&v, GSP_FP64, gsp__cat(A->x, A->type, e), A->type);
  if (isnan(v) || negative_ok)
    return GSP_ERROR(GSP_INVALID_VALUE, "%s: A(%lld,%lld) is %s%s", fn, u, j, isnan(v) ? "NaN" : "-inf",
                     negative_ok ? "; weights must be numbers above -inf" : "");
  return GSP_ERROR(GSP_INVALID_VALUE,
                   "%s: A(%lld,%lld) = %.17g is negative; these algorithms need non-negative weights "
                   "(negative weights need Bellman-Ford or Johnson's reweighting)",
                   fn, u, j, v);
}

/* Mean weight and the delta heuristic: buckets about as wide as a few
 * average arcs, wider for sparse graphs, so that a bucket holds enough
 * vertices to feed the threads but few are relaxed twice (Meyer and
 * Sanders suggest delta ~ max weight / degree). */
static double default_delta(const struct gsp_matrix_s *A, double sum) {
  const int64_t m = A->nvals, n = A->nrows;
  const double mean = m > 0 ? sum / (double)m : 1.0;
  const double deg = n > 0 ? (double)m / (double)n : 1.0;
  double delta = mean * (deg < 8 ? 8.0 / (deg > 1 ? deg : 1) : 1.0) * 2.0;
  if (!(delta > 0) || !isfinite(delta)) delta = 1.0; /* all-zero or huge weights */
  if (A->type == GSP_INT32 || A->type == GSP_INT64) delta = delta < 1 ? 1 : floor(delta);
  return delta;
}

gsp__value gsp__sssp_limit(gsp_type t, bool has_cutoff, double c) {
  gsp__value v;
  memset(&v, 0, sizeof v);
  switch (t) {
  case GSP_INT32:
    v.i32 = !has_cutoff || c >= (double)(INT32_MAX - 1) ? INT32_MAX - 1 : (int32_t)floor(c);
    break;
  case GSP_INT64:
    /* 2^63 - 1024 is the largest double below INT64_MAX */
    v.i64 = !has_cutoff || c >= 9223372036854774784.0 ? INT64_MAX - 1 : (int64_t)floor(c);
    break;
  case GSP_FP32: {
    float f = !has_cutoff || c >= (double)FLT_MAX ? FLT_MAX : (float)c;
    if (has_cutoff && (double)f > c) f = nextafterf(f, 0.0f); /* round down: keep d <= cutoff */
    v.f32 = f;
    break;
  }
  case GSP_FP64:
    v.f64 = !has_cutoff || c > DBL_MAX ? DBL_MAX : c;
    break;
  default:
    break;
  }
  return v;
}

gsp_info gsp__sssp_prepare_graph(gsp__sssp_graph *g, struct gsp_matrix_s *A, bool has_cutoff, double cutoff,
                                 double delta, bool negative_ok, gsp_backend backend, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__check_matrix(A, fn, "A"));
  GSP_CHECK(backend == GSP_BACKEND_AUTO || backend == GSP_BACKEND_CPU || backend == GSP_BACKEND_CUDA, GSP_INVALID_VALUE,
            "%s: invalid backend %d in options", fn, (int)backend);
  GSP_CHECK(!has_cutoff || cutoff >= 0, GSP_INVALID_VALUE, "%s: cutoff %g must be >= 0 (and not NaN)", fn, cutoff);
  GSP_CHECK(delta >= 0 && isfinite(delta), GSP_INVALID_VALUE, "%s: delta %g must be finite and >= 0 (0: automatic)", fn,
            delta);
  GSP_CHECK(A->type != GSP_BOOL, GSP_DOMAIN_MISMATCH,
            "%s: A is GSP_BOOL; shortest paths need INT32, INT64, FP32 or FP64 weights "
            "(cast A, e.g. to GSP_INT32 for hop counts)",
            fn);
  GSP_CHECK(gsp__semiring_fits(GSP_MIN_PLUS, A->type), GSP_DOMAIN_MISMATCH, "%s: MIN_PLUS does not apply to type %s",
            fn, gsp__type_name(A->type));
  GSP_CHECK(A->nrows == A->ncols, GSP_DIMENSION_MISMATCH, "%s: A is %lld x %lld, not square", fn, (long long)A->nrows,
            (long long)A->ncols);
  GSP_TRY(gsp__matrix_csr_view(&A, A)); /* never converts A: others may read it */
  const int nt = gsp__threads();
  /* A device copy kept by an earlier GPU call means the weights passed
   * these checks then and A has not changed since: skip the scan. */
  bool checked = false;
  double wsum = 0;
  if (!negative_ok) {
    const gsp_cuda_arrays csr = gsp__matrix_cuda_arrays(A);
    const gsp__cuda_api *cu = gsp__cuda_plugin_loaded(); /* no plugin: no cache */
    checked = cu && cu->weights_checked(&csr, &wsum);
  }
  if (!checked) {
    const gsp__weights w = gsp__weights_scan(A, nt);
    GSP_TRY(gsp__weights_check(A, &w, negative_ok, fn));
    wsum = w.sum;
  }
  memset(g, 0, sizeof *g);
  g->n = A->nrows;
  g->csr = A;
  g->p = A->p;
  g->j = A->j;
  g->w = A->x;
  g->t = A->type;
  g->lim = gsp__sssp_limit(A->type, has_cutoff, cutoff);
  g->delta = delta > 0 ? delta : default_delta(A, wsum);
  g->nthreads = nt;
  return info;
}

gsp_info gsp__sssp_prepare(gsp__sssp_graph *g, struct gsp_matrix_s *A, bool has_cutoff, double cutoff, double delta,
                           gsp_backend backend, const char *fn) {
  return gsp__sssp_prepare_graph(g, A, has_cutoff, cutoff, delta, false, backend, fn);
}

gsp_info gsp__sssp_parent_type(gsp_type *pt, gsp_type asked, int64_t n, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  const gsp_type t = asked == GSP_BOOL ? GSP_INT64 : asked;
  GSP_CHECK(t == GSP_INT64 || t == GSP_INT32, GSP_INVALID_VALUE,
            "%s: parent_type %s in options is not GSP_INT64 or GSP_INT32", fn, gsp__type_name(t));
  GSP_CHECK(t == GSP_INT64 || n <= INT32_MAX, GSP_INVALID_VALUE, "%s: %lld vertices do not fit GSP_INT32 parents", fn,
            (long long)n);
  *pt = t;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__sssp_sources(int64_t **out, const gsp_index *sources, int64_t nsrc, int64_t n, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  int64_t *s = NULL;
#define GSP_FREE_ALL gsp__free(s)
  GSP_ALLOC(s, nsrc > 0 ? nsrc : 1, sizeof *s);
  for (int64_t k = 0; k < nsrc; k++) {
    const gsp_index v = sources ? sources[k] : (gsp_index)k;
    GSP_CHECK(v < (gsp_index)n, GSP_INVALID_INDEX, "%s: source %llu (sources[%lld]) out of range 0..%lld", fn,
              (unsigned long long)v, (long long)k, (long long)n - 1);
    s[k] = (int64_t)v;
  }
  *out = s;
#undef GSP_FREE_ALL
  return info;
}

int64_t gsp__sssp_mark(uint8_t *b, const void *d, int64_t count, const gsp__sssp_graph *g) {
  int64_t cnt = 0;
  const int nt = g->nthreads;
#define GSP_SSSP_MARK_(ct, sfx)                                                                                        \
  {                                                                                                                    \
    const ct *x = (const ct *)d, lim = g->lim.sfx;                                                                     \
    _Pragma(                                                                                                           \
        "omp parallel for num_threads(nt) schedule(static) reduction(+ : cnt) if (count > 65536)") for (int64_t v = 0; \
                                                                                                        v < count;     \
                                                                                                        v++) {         \
      b[v] = x[v] <= lim;                                                                                              \
      cnt += b[v];                                                                                                     \
    }                                                                                                                  \
  }
  switch (g->t) {
  case GSP_INT32:
    GSP_SSSP_MARK_(int32_t, i32) break;
  case GSP_INT64:
    GSP_SSSP_MARK_(int64_t, i64) break;
  case GSP_FP32:
    GSP_SSSP_MARK_(float, f32) break;
  case GSP_FP64:
    GSP_SSSP_MARK_(double, f64) break;
  default:
    break;
  }
#undef GSP_SSSP_MARK_
  return cnt;
}

gsp_info gsp__sssp_publish_vectors(struct gsp_vector_s *a, struct gsp_vector_s *b, struct gsp_vector_s *c) {
  struct gsp_vector_s *v[3] = {a, b, c};
  for (int k = 0; k < 3; k++) {
    if (!v[k]) continue;
    gsp_info info = gsp__vector_publish(v[k]);
    if (info < 0) {
      for (int i = 0; i < k; i++)
        if (v[i]) gsp__unregister(v[i]);
      for (int i = 0; i < 3; i++) gsp__vector_destroy(v[i]);
      return info;
    }
  }
  return GSP_SUCCESS;
}

gsp_info gsp__sssp_publish_matrices(struct gsp_matrix_s *a, struct gsp_matrix_s *b) {
  gsp_info info = gsp__matrix_publish(a);
  if (info >= 0 && b && (info = gsp__matrix_publish(b)) < 0) gsp__unregister(a);
  return info;
}
