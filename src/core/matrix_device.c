/*
 * gsp_matrix_device_view: the argument checks and the build decision; the
 * device side (reuse, re-encoding, upload) is gsp_cuda_matrix_view in the
 * CUDA plugin (src/cuda/gsp_cuda_gateway.cu). And the other way: results
 * the gateway returns as host arrays become a matrix's storage here.
 */
#include "gsp_internal.h"
#include "gsp_semiring.h"
#ifdef GSP_HAVE_CUDA
#include "gsp_cuda.h"
#endif

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
#ifdef GSP_HAVE_CUDA
  void *d = NULL;
  int64_t stride = 0;
  int dev = 0;
  GSP_TRY(gsp_cuda_matrix_view(&d, &stride, &dev, A, absent_as));
  *data = d;
  *ld = (gsp_index)stride;
  *device = dev;
#else
  GSP_CHECK(false, GSP_NO_DEVICE, "%s: this build of gsp has no CUDA backend", fn);
#endif
#undef GSP_FREE_ALL
  return info;
}

#ifdef GSP_HAVE_CUDA
void gsp__matrix_take_result(struct gsp_matrix_s *A, gsp_cuda_host_result *r) {
  gsp__matrix_set_storage(A, r->p ? GSP_FMT_CSR : GSP_FMT_DENSE, r->p, r->j, r->x, r->b, NULL, 0, r->nvals);
  memset(r, 0, sizeof *r);
}

gsp_cuda_arrays gsp__matrix_cuda_arrays(const struct gsp_matrix_s *A) {
  const bool csr = A->fmt == GSP_FMT_CSR;
  return (gsp_cuda_arrays){.type = A->type,
                           .nrows = A->nrows,
                           .ncols = A->ncols,
                           .nvals = A->nvals,
                           .p = csr ? A->p : NULL,
                           .j = csr ? A->j : NULL,
                           .x = A->x,
                           .b = csr ? NULL : A->b,
                           .dev = (struct gsp_dev_matrix **)&A->dev};
}

void gsp__cuda_result_free(gsp_cuda_host_result *r) {
  gsp__free(r->p);
  gsp__free(r->j);
  gsp__free(r->x);
  gsp__free(r->b);
  memset(r, 0, sizeof *r);
}
#endif
