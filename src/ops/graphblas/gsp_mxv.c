/*
 * gsp_mxv and gsp_vxm: w<mask> = accum(w, A (+.*) u) and accum(w, u (+.*) A):
 * the argument checks, the backend decision and the write-back. The
 * kernels: mxv_cpu.c (pull and push over A's CSR rows) and
 * src/cuda/graphblas/gsp_cuda_mxv.cu.
 */
#include "graphblas_cpu.h"
#include "gsp_cuda_plugin.h"

/* Shared body of mxv (vec_first = false) and vxm (true). */
static gsp_info mv(struct gsp_vector_s *w, struct gsp_vector_s *mask, gsp_binop accum, gsp_semiring s,
                   struct gsp_matrix_s *A, struct gsp_vector_s *u, const gsp_desc *desc, bool vec_first,
                   const char *fn) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_vector_s *T = NULL;
#define GSP_FREE_ALL gsp__vector_destroy(T)
  GSP_TRY(gsp__ops_check_vector_out(w, mask, accum, fn));
  GSP_TRY(gsp__check_matrix(A, fn, "A"));
  GSP_TRY(gsp__check_vector(u, fn, "u"));
  const gsp_desc d = gsp__ops_desc(desc);
  GSP_TRY(gsp__ops_check_product_types(s, w->type, A->type, "A", u->type, "u", fn));
  /* mxv: A (m x k) * u; vxm: u * A (k x m), i.e. A' * u */
  const bool tr = vec_first ? !d.transpose_b : d.transpose_a;
  const int64_t m = gsp__ops_rows(A, tr), k = gsp__ops_cols(A, tr);
  const char *aname = vec_first ? (d.transpose_b ? "A'" : "A") : (d.transpose_a ? "A'" : "A");
  /* the shape of A (or A') as the caller wrote it */
  const long long ar = vec_first ? k : m, ac = vec_first ? m : k;
  GSP_CHECK(u->n == k, GSP_DIMENSION_MISMATCH, "%s: u has size %lld but %s is %lld x %lld", fn, (long long)u->n, aname,
            ar, ac);
  GSP_CHECK(w->n == m, GSP_DIMENSION_MISMATCH, "%s: w has size %lld but %s is %lld x %lld", fn, (long long)w->n, aname,
            ar, ac);
  /* The GPU (src/cuda/graphblas/gsp_cuda_mxv.cu) computes T and writes w back on the
   * device, where w then stays. AUTO: an operand already there, or A with
   * at least 2^20 entries (smaller products cost less than the transfers). */
  gsp__backend_choice be;
  const bool resident = A->dev || u->dev || w->dev || (mask && mask->dev);
  GSP_TRY(gsp__ops_desc_backend(&be, &d, resident || A->nvals >= 1048576, fn));
  if (be.gpu) {
    bool taken = false;
    /* the GPU takes A as CSR: its CSR copy, never A converted in place
     * (other threads may be reading A) */
    struct gsp_matrix_s *Acsr = NULL;
    GSP_TRY(gsp__matrix_csr_view(&Acsr, A));
    const gsp_cuda_arrays a = gsp__matrix_cuda_arrays(Acsr);
    const gsp_cuda_vec wv = gsp__vector_cuda_arrays(w), uv = gsp__vector_cuda_arrays(u);
    const gsp_cuda_vec mv = mask ? gsp__vector_cuda_arrays(mask) : (gsp_cuda_vec){0};
    const gsp__cuda_api *cu;
    GSP_TRY(gsp__cuda_get(&cu, fn));
    int64_t nvals = 0;
    info = cu->mxv(&nvals, &wv, mask ? &mv : NULL, accum, s, &a, &uv, &d, tr, fn, &taken);
    if (taken && info >= 0) w->nvals = nvals, w->dev_only = true; /* the result stays on the device */
    if (taken) return info;
    GSP_TRY(gsp__backend_declined(&be, fn));
  }
  GSP_TRY(gsp__ops_vectors_host(fn, w, mask, u, NULL));
  GSP_TRY(gsp__mxv_cpu(&T, s, A, u, tr, fn));
  GSP_TRY(gsp__ops_vector_writeback(w, mask, accum, &T, &d, fn));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_mxv(gsp_vector w, const gsp_vector mask, gsp_binop accum, gsp_semiring s, const gsp_matrix A,
                 const gsp_vector u, const gsp_desc *desc) {
  return mv(w, mask, accum, s, A, u, desc, false, "gsp_mxv");
}

gsp_info gsp_vxm(gsp_vector w, const gsp_vector mask, gsp_binop accum, gsp_semiring s, const gsp_vector u,
                 const gsp_matrix A, const gsp_desc *desc) {
  return mv(w, mask, accum, s, A, u, desc, true, "gsp_vxm");
}
