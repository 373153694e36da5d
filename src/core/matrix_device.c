/*
 * A matrix and its device copy: gsp_matrix_device_view (the argument checks
 * and the build decision; the device side, reuse or upload, is
 * gsp_cuda_dense_view in the CUDA plugin), the download of a device-only
 * matrix into storage this file allocates and installs, the release of a
 * device copy, and the arrays view the plugin reads a matrix through. The
 * plugin changes no matrix: its results come back as host arrays that
 * become a matrix's storage here.
 */
#define _DEFAULT_SOURCE /* madvise (dense_pass.h) */
#include "gsp_internal.h"
#include "gsp_semiring.h"
#include "dense_pass.h"
#include "gsp_cuda_plugin.h"

static const char *const fn = "gsp_matrix_device_view";

gsp_info gsp_matrix_device_view(void **data, gsp_index *ld, int *device, gsp_matrix A, gsp_semiring absent_as) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_CHECK(data != NULL && ld != NULL && device != NULL, GSP_NULL_POINTER, "%s: %s is NULL", fn,
            !data ? "data"
            : !ld ? "ld"
                  : "device");
  GSP_TRY(gsp__check_matrix(A, fn, "A"));
  GSP_CHECK(absent_as >= GSP_MIN_PLUS && absent_as <= GSP_PLUS_TIMES, GSP_INVALID_VALUE,
            "%s: invalid semiring code %d for absent_as", fn, (int)absent_as);
  GSP_CHECK(A->type != GSP_BOOL, GSP_DOMAIN_MISMATCH,
            "%s: A is bool, whose device copy is bit-packed (64 entries a word); cast it to a numeric type "
            "for a dense view",
            fn);
  GSP_CHECK(gsp_semiring_path_encoding(absent_as), GSP_DOMAIN_MISMATCH,
            "%s: absent_as must be MIN_PLUS, MAX_PLUS, MAX_MIN or MIN_MAX, not %s", fn, gsp__semiring_name(absent_as));
  GSP_CHECK(A->nrows == A->ncols, GSP_DIMENSION_MISMATCH, "%s: A is %lld x %lld; device copies are square", fn,
            (long long)A->nrows, (long long)A->ncols);
  void *d = NULL;
  int64_t stride = 0;
  int dev = 0;
  /* a copy encoded with another zero is made again from the host content */
  gsp_cuda_arrays v = gsp__matrix_cuda_arrays(A);
  if (A->dev_only && !gsp__dense_serves(&v, absent_as, 0)) {
    GSP_TRY(gsp__matrix_host(A));
    v = gsp__matrix_cuda_arrays(A);
  }
  const gsp__cuda_api *cu;
  GSP_TRY(gsp__cuda_get(&cu, fn));
  GSP_TRY(cu->dense_view(&d, &stride, &dev, &v, absent_as));
  *data = d;
  *ld = (gsp_index)stride;
  *device = dev;
#undef GSP_FREE_ALL
  return info;
}

void gsp__matrix_take_result(struct gsp_matrix_s *A, gsp_cuda_host_result *r) {
  gsp__matrix_set_storage(A, r->p ? GSP_FMT_CSR : GSP_FMT_DENSE, r->p, r->j, r->x, r->b, NULL, 0, r->nvals);
  memset(r, 0, sizeof *r);
}

gsp_cuda_arrays gsp__matrix_cuda_arrays(const struct gsp_matrix_s *A) {
  const bool csr = A->fmt == GSP_FMT_CSR, bits = A->fmt == GSP_FMT_BITS;
  return (gsp_cuda_arrays){.type = A->type,
                           .nrows = A->nrows,
                           .ncols = A->ncols,
                           .nvals = A->nvals,
                           .p = csr ? A->p : NULL,
                           .j = csr ? A->j : NULL,
                           .x = bits ? NULL : A->x,
                           .b = csr || bits ? NULL : A->b,
                           .bits = bits ? A->bits : NULL,
                           .wpr = bits ? A->wpr : 0,
                           .dev = (struct gsp_dev_matrix **)&A->dev};
}

bool gsp__dense_serves(const gsp_cuda_arrays *v, gsp_semiring s, int64_t np) {
  const gsp__cuda_api *cu = gsp__cuda_plugin_loaded(); /* no plugin: no device copy */
  gsp_cuda_dense_info st = {0};
  if (cu) cu->dense_state(&st, v);
  return st.np > 0 && (np == 0 || st.np == np) && (v->type == GSP_BOOL || gsp_semiring_same_zero(s, st.enc));
}

gsp_info gsp__matrix_download(struct gsp_matrix_s *A) {
  gsp_info info = GSP_SUCCESS;
  void *x = NULL;
  uint8_t *b = NULL;
  uint64_t *bits = NULL;
#define GSP_FREE_ALL (gsp__free(x), gsp__free(b), gsp__free(bits))
  if (!A->dev_only || !A->dev) return info;
  const gsp__cuda_api *cu;
  GSP_TRY(gsp__cuda_get(&cu, "gsp (matrix download)"));
  const gsp_cuda_arrays v = gsp__matrix_cuda_arrays(A);
  const int64_t n = A->nrows;
  if (A->type == GSP_BOOL) {
    const int64_t wpr = (n + 63) / 64;
    GSP_ALLOC(bits, (size_t)(n > 0 ? n : 1), (size_t)(wpr > 0 ? wpr : 1) * 8);
    GSP_TRY(cu->dense_download(bits, NULL, &v));
    GSP_FREE(A->p);
    GSP_FREE(A->j);
    GSP_FREE(A->x);
    GSP_FREE(A->b);
    gsp__free(A->bits);
    A->bits = bits;
    A->wpr = wpr;
    A->fmt = GSP_FMT_BITS;
  } else {
    const size_t ts = gsp_type_size(A->type), nn = (size_t)n * (size_t)n;
    /* Dense host storage of the same shape (stale while dev_only: e.g. the
     * caller's packed array) is overwritten in place: no fresh pages to
     * fault in, no old array to unmap. A failed download leaves the matrix
     * dev_only, whose host arrays are stale anyway. */
    const bool reuse = A->fmt == GSP_FMT_DENSE && A->x != NULL;
    if (!reuse) {
      GSP_ALLOC(x, nn > 0 ? nn : 1, ts);
      gsp__pass_huge(x, nn * ts);
    }
    const bool need_b = (size_t)A->nvals != nn;
    if (need_b && !(reuse && A->b)) {
      GSP_ALLOC(b, nn > 0 ? nn : 1, 1);
      gsp__pass_huge(b, nn);
    }
    GSP_TRY(cu->dense_download(reuse ? A->x : x, !need_b ? NULL : b ? b : A->b, &v));
    GSP_FREE(A->p);
    GSP_FREE(A->j);
    GSP_FREE(A->bits);
    if (!reuse) {
      gsp__free(A->x);
      A->x = x;
    }
    if (!need_b) {
      GSP_FREE(A->b);
    } else if (b) {
      gsp__free(A->b);
      A->b = b;
    }
    x = NULL;
    b = NULL;
    A->wpr = 0;
    A->fmt = GSP_FMT_DENSE;
  }
  A->dev_only = false;
#undef GSP_FREE_ALL
  return info;
}

void gsp__matrix_release_device(struct gsp_matrix_s *A) {
  if (!A || !A->dev) return;
  const gsp__cuda_api *cu = gsp__cuda_plugin_loaded(); /* it made the copy */
  if (cu) cu->dev_free(A->dev);
  A->dev = NULL;
  A->dev_only = false;
}

void gsp__cuda_result_free(gsp_cuda_host_result *r) {
  gsp__free(r->p);
  gsp__free(r->j);
  gsp__free(r->x);
  gsp__free(r->b);
  memset(r, 0, sizeof *r);
}
