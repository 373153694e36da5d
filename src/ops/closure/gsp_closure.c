/*
 * gsp_closure / gsp_closure_ext: argument checks, backend choice, and the
 * CPU path. The result is computed on a private copy of M and committed with
 * gsp__matrix_swap_in only when complete, so every error (a negative cycle
 * included) leaves M as it was.
 */
#include <math.h>
#include <string.h>

#include "closure_cpu.h"
#include "closure_scale.h"
#include "gsp_internal.h"
#include "ops_backend.h"
#ifdef GSP_HAVE_CUDA
#include "gsp_cuda.h"
#endif

static const char *const fn = "gsp_closure";

/* Whether any stored value of M is NaN (absent slots of dense storage are
 * not values and are skipped). */
static bool has_nan(const struct gsp_matrix_s *M) {
  if (M->type != GSP_FP32 && M->type != GSP_FP64) return false;
  size_t count = M->fmt == GSP_FMT_CSR ? (size_t)M->nvals : (size_t)M->nrows * (size_t)M->ncols;
  const uint8_t *b = M->fmt == GSP_FMT_DENSE ? M->b : NULL;
  int nan = 0;
  const int nt = count < ((size_t)1 << 18) ? 1 : gsp__threads();
  if (M->type == GSP_FP32) {
    const float *x = M->x;
#pragma omp parallel for num_threads(nt) schedule(static) reduction(| : nan) if (nt > 1)
    for (size_t k = 0; k < count; k++) nan |= isnan(x[k]) && (!b || b[k]);
  } else {
    const double *x = M->x;
#pragma omp parallel for num_threads(nt) schedule(static) reduction(| : nan) if (nt > 1)
    for (size_t k = 0; k < count; k++) nan |= isnan(x[k]) && (!b || b[k]);
  }
  return nan != 0;
}

static int64_t popcount_words(const uint64_t *w, size_t count) {
  int64_t c = 0;
  for (size_t k = 0; k < count; k++) {
#if defined(__GNUC__)
    c += __builtin_popcountll(w[k]);
#else
    for (uint64_t v = w[k]; v; v &= v - 1) c++;
#endif
  }
  return c;
}

gsp_info gsp_closure(gsp_matrix M, gsp_semiring s) {
  return gsp_closure_ext(M, NULL, s, NULL);
}

gsp_info gsp_closure_ext(gsp_matrix M, gsp_matrix *succ, gsp_semiring s, const gsp_closure_opts *opts) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *W = NULL, *S = NULL;
  int64_t *sx = NULL;
#define GSP_FREE_ALL (gsp__matrix_destroy(W), gsp__matrix_destroy(S), gsp__free(sx))

  GSP_TRY(gsp__check_matrix(M, fn, "M"));
  /* succ pointing at the caller's handle of M: the commit would replace
   * that handle with the successor matrix and lose the closure */
  GSP_CHECK(succ == NULL || *succ != M, GSP_INVALID_VALUE,
            "%s: outputs succ and M alias each other (succ points at M's handle)", fn);
  const gsp_closure_opts o = opts ? *opts : (gsp_closure_opts){0};
  GSP_CHECK(s >= GSP_MIN_PLUS && s <= GSP_PLUS_TIMES, GSP_INVALID_VALUE, "%s: invalid semiring code %d", fn, (int)s);
  GSP_CHECK(s != GSP_PLUS_TIMES, GSP_DOMAIN_MISMATCH, "%s: PLUS_TIMES has no closure (I + A + A^2 + ... diverges)", fn);
  GSP_CHECK(gsp__semiring_fits(s, M->type), GSP_DOMAIN_MISMATCH, "%s: semiring %s does not apply to type %s", fn,
            gsp__semiring_name(s), gsp__type_name(M->type));
  GSP_CHECK(M->nrows == M->ncols, GSP_DIMENSION_MISMATCH, "%s: M is %lld x %lld, not square", fn, (long long)M->nrows,
            (long long)M->ncols);
  const int64_t n = M->nrows;
  const bool reflexive = !o.non_reflexive;

  GSP_CHECK(o.gpus >= 0, GSP_INVALID_VALUE, "%s: gpus = %d in options is negative", fn, o.gpus);
  {
    const gsp__scale_record cpu = {GSP_SCALE_CPU, 0, 0, 0, 0, 0, 0, 0, 0};
    gsp__scale_note(&cpu); /* the GPU paths overwrite it */
  }

  gsp__backend_choice be;
  GSP_TRY(gsp__backend_pick(&be, o.backend, true, fn));
#ifdef GSP_HAVE_CUDA
  if (be.gpu) {
    bool taken = false;
    struct gsp_matrix_s *dsucc = NULL;
    info = gsp_cuda_closure(M, succ ? &dsucc : NULL, s, o.non_reflexive, o.device_memory_cap, o.gpus, &taken);
    if (taken) {
      if (info >= 0 && succ) *succ = dsucc;
      return info;
    }
    /* declined: the CPU kernel takes it under AUTO, an explicit CUDA
     * request fails with the gateway's reason */
    info = GSP_SUCCESS;
    GSP_TRY(gsp__backend_declined(&be, fn));
  }
#endif

  /* NaN has no place in an ordered semiring: min/max would silently drop or
   * keep it depending on operand order. The GPU paths check it in their own
   * pass over M (the upload's conversion), so only the CPU path scans here.
   * A device-resident M is the result of an earlier closure whose input
   * passed this check, and closures make no NaN: scanning it would cost a
   * full download and defeat residency. */
  if (!M->dev_only) GSP_CHECK(!has_nan(M), GSP_INVALID_VALUE, "%s: M holds a NaN weight", fn);

  /* Private working copy: M stays untouched until the commit. */
  {
    gsp_matrix copy = NULL;
    GSP_TRY(gsp_matrix_dup(&copy, M));
    gsp__unregister(copy);
    W = copy;
  }

  if (s == GSP_OR_AND && succ == NULL) {
    GSP_TRY(gsp__matrix_to_bits(W));
    gsp__closure_cpu_bits(W->bits, n, W->wpr, reflexive);
    W->nvals = popcount_words(W->bits, (size_t)n * (size_t)W->wpr);
  } else {
    char zero[16]; /* one value of any type */
    gsp__semiring_zero(zero, s, W->type);
    GSP_TRY(gsp__matrix_to_full(W, zero));
    if (succ) {
      const size_t nn = (size_t)n * (size_t)n;
      GSP_ALLOC(sx, nn, sizeof(int64_t));
    }
    bool cycle = false;
    GSP_TRY(gsp__closure_cpu_dense(W->x, sx, n, W->type, s, reflexive, &cycle));
    GSP_CHECK(!cycle, GSP_NEGATIVE_CYCLE, "%s: the graph has a %s cycle (M unchanged)", fn,
              s == GSP_MAX_PLUS ? "positive" : "negative");
    /* "No path" is the semiring zero inside the kernel, absent outside. */
    GSP_TRY(gsp__matrix_mark_absent(W, zero));
    if (succ) {
      const int64_t none = -1;
      GSP_TRY(gsp__matrix_alloc_dense(&S, GSP_INT64, n, n));
      S->x = sx;
      sx = NULL;
      S->nvals = n * n;
      GSP_TRY(gsp__matrix_mark_absent(S, &none));
    }
  }
  gsp__matrix_host_changed(W);
  if (S) GSP_TRY(gsp__matrix_publish(S));
  /* Nothing can fail past this point. */
  gsp__matrix_swap_in(M, W);
  W = NULL;
  gsp__matrix_host_changed(M);
  if (succ) *succ = S;
  S = NULL;
#undef GSP_FREE_ALL
  return info;
}
