/*
 * Johnson's reweighting for gsp_apsp: with potentials h (distances from a
 * virtual source joined to every vertex by 0-weight arcs, so h <= 0 and
 * h(v) <= h(u) + w(u,v)), every arc gets w' = w + h(u) - h(v) >= 0, and a
 * path's reweighted length is its length + h(first) - h(last): shortest
 * paths stay shortest, and d = d' - h(s) + h(v) maps distances back.
 * Integers: exact (wide arithmetic, and the reweighted graph widened to
 * INT64 when an INT32 path sum could overflow). Floats: w' in double, a
 * value that rounds below 0 is taken as 0 (it is 0 up to rounding).
 */
#include <float.h>
#include <math.h>

#include "apsp.h"

__extension__ typedef __int128 i128;

gsp_info gsp__johnson_widen(int64_t **h_int, double **h_fp, const void *h, gsp_type t, int64_t n) {
  gsp_info info = GSP_SUCCESS;
  int64_t *hi = NULL;
  double *hd = NULL;
#define GSP_FREE_ALL (gsp__free(hi), gsp__free(hd))
  if (t == GSP_INT32 || t == GSP_INT64) {
    GSP_ALLOC(hi, n > 0 ? n : 1, sizeof *hi);
    for (int64_t v = 0; v < n; v++) hi[v] = t == GSP_INT32 ? ((const int32_t *)h)[v] : ((const int64_t *)h)[v];
  } else {
    GSP_ALLOC(hd, n > 0 ? n : 1, sizeof *hd);
    for (int64_t v = 0; v < n; v++) hd[v] = t == GSP_FP32 ? ((const float *)h)[v] : ((const double *)h)[v];
  }
  *h_int = hi;
  *h_fp = hd;
#undef GSP_FREE_ALL
  return info;
}

/* Integer weights: w' in 128 bits, its range, then stored in INT32 when
 * every path sum of n-1 arcs stays below INT32_MAX, else INT64. */
static gsp_info reweight_int(void **x, gsp_type *tw, const struct gsp_matrix_s *A, const int64_t *h, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  void *out = NULL;
#define GSP_FREE_ALL gsp__free(out)
  const int64_t n = A->nrows, m = A->nvals;
  const bool i32 = A->type == GSP_INT32;
  const int64_t winf = i32 ? INT32_MAX : INT64_MAX, hfloor = i32 ? INT32_MIN : INT64_MIN;
  for (int64_t v = 0; v < n; v++)
    GSP_CHECK(h[v] > hfloor, GSP_TOO_LARGE,
              "%s: Johnson's potential of vertex %lld saturates %s (negative paths too long for the type; "
              "use INT64 or FP64 weights)",
              fn, (long long)v, gsp__type_name(A->type));
  const int nt = gsp__threads();
  int64_t hi64 = 0, lo64 = 0; /* range of w' (each checked to fit int64) */
  int64_t over = 0;           /* arcs whose w' leaves int64 */
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1024) reduction(max : hi64) reduction(min : lo64) \
    reduction(+ : over) if (m > 65536)
  for (int64_t u = 0; u < n; u++)
    for (gsp_index e = A->p[u]; e < A->p[u + 1]; e++) {
      const int64_t w = i32 ? ((const int32_t *)A->x)[e] : ((const int64_t *)A->x)[e];
      if (w == winf) continue; /* an infinite arc stays infinite */
      const i128 r = (i128)w + h[u] - h[A->j[e]];
      if (r > (i128)INT64_MAX - 1 || r < (i128)INT64_MIN) {
        over++;
        continue;
      }
      if ((int64_t)r > hi64) hi64 = (int64_t)r;
      if ((int64_t)r < lo64) lo64 = (int64_t)r;
    }
  GSP_CHECK(over == 0, GSP_TOO_LARGE, "%s: %lld reweighted arcs exceed INT64 (weights too large for Johnson)", fn,
            (long long)over);
  GSP_CHECK(lo64 >= 0, GSP_PANIC, "%s: a reweighted arc is %lld < 0: the potentials are not feasible", fn,
            (long long)lo64);
  /* every shortest path has at most n-1 arcs, each at most hi64 */
  const i128 bound = (i128)(n > 1 ? n - 1 : 1) * hi64;
  GSP_CHECK(bound <= (i128)INT64_MAX - 1, GSP_TOO_LARGE,
            "%s: reweighted path sums may exceed INT64 (n = %lld, largest reweighted arc %lld)", fn, (long long)n,
            (long long)hi64);
  const bool narrow = i32 && bound <= (i128)INT32_MAX - 1;
  *tw = narrow ? GSP_INT32 : GSP_INT64;
  GSP_ALLOC(out, m > 0 ? m : 1, narrow ? sizeof(int32_t) : sizeof(int64_t));
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1024) if (m > 65536)
  for (int64_t u = 0; u < n; u++)
    for (gsp_index e = A->p[u]; e < A->p[u + 1]; e++) {
      const int64_t w = i32 ? ((const int32_t *)A->x)[e] : ((const int64_t *)A->x)[e];
      /* in range (checked above), but w + h(u) alone may not be */
      const int64_t r = w == winf ? (narrow ? INT32_MAX : INT64_MAX) : (int64_t)((i128)w + h[u] - h[A->j[e]]);
      if (narrow) ((int32_t *)out)[e] = (int32_t)r;
      else ((int64_t *)out)[e] = r;
    }
  *x = out;
#undef GSP_FREE_ALL
  return info;
}

static gsp_info reweight_fp(void **x, const struct gsp_matrix_s *A, const double *h, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  void *out = NULL;
#define GSP_FREE_ALL gsp__free(out)
  const int64_t n = A->nrows, m = A->nvals;
  const bool f32 = A->type == GSP_FP32;
  for (int64_t v = 0; v < n; v++)
    GSP_CHECK(isfinite(h[v]), GSP_TOO_LARGE,
              "%s: Johnson's potential of vertex %lld is %g (negative paths overflow %s)", fn, (long long)v, h[v],
              gsp__type_name(A->type));
  GSP_ALLOC(out, m > 0 ? m : 1, f32 ? sizeof(float) : sizeof(double));
  const int nt = gsp__threads();
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1024) if (m > 65536)
  for (int64_t u = 0; u < n; u++)
    for (gsp_index e = A->p[u]; e < A->p[u + 1]; e++) {
      const double w = f32 ? (double)((const float *)A->x)[e] : ((const double *)A->x)[e];
      double r = w + h[u] - h[A->j[e]]; /* +inf stays +inf */
      if (!(r >= 0)) r = 0;             /* rounding below 0: it is 0 */
      if (f32) ((float *)out)[e] = (float)r;
      else ((double *)out)[e] = r;
    }
  *x = out;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__johnson_reweight(void **x, gsp_type *tw, const struct gsp_matrix_s *A, const int64_t *h_int,
                               const double *h_fp, const char *fn) {
  if (A->type == GSP_INT32 || A->type == GSP_INT64) return reweight_int(x, tw, A, h_int, fn);
  *tw = A->type;
  return reweight_fp(x, A, h_fp, fn);
}

gsp__value gsp__johnson_limit(gsp_type tw, bool has_cutoff, double cutoff, const int64_t *h_int, const double *h_fp,
                              int64_t n) {
  gsp__value v;
  memset(&v, 0, sizeof v);
  /* d <= cutoff gives d' = d + h(s) - h(v) <= cutoff - min h (h <= 0) */
  double hmin = 0;
  for (int64_t k = 0; k < n; k++) {
    const double x = h_int ? (double)h_int[k] : h_fp[k];
    if (x < hmin) hmin = x;
  }
  const double lim = has_cutoff ? floor(cutoff) - hmin : INFINITY;
  switch (tw) {
  case GSP_INT32:
    v.i32 = lim >= (double)(INT32_MAX - 1) ? INT32_MAX - 1 : (int32_t)lim;
    break;
  case GSP_INT64:
    v.i64 = lim >= 9223372036854774784.0 ? INT64_MAX - 1 : (int64_t)lim;
    break;
  case GSP_FP32: {
    /* generous: the float sums of the kernels round; the exact cut is
     * applied to the mapped-back distances */
    const double l = (cutoff - hmin) * 1.001;
    v.f32 = !has_cutoff || l >= (double)FLT_MAX ? FLT_MAX : nextafterf((float)l, INFINITY);
    break;
  }
  default: {
    const double l = (cutoff - hmin) * (1 + 1e-9);
    v.f64 = !has_cutoff || l > DBL_MAX ? DBL_MAX : nextafter(l, INFINITY);
    break;
  }
  }
  return v;
}
