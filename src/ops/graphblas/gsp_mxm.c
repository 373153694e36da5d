/*
 * gsp_mxm: C<M> = accum(C, A (+.*) B): the argument checks, the backend
 * decision and the write-back. The kernels: mxm_cpu.c (Gustavson's SpGEMM
 * on CSR; transposed inputs are transposed to CSR first) and
 * src/cuda/graphblas/gsp_cuda_mxm.cu.
 */
#include "graphblas_cpu.h"
#include "gsp_cuda_plugin.h"

gsp_info gsp_mxm(gsp_matrix C, const gsp_matrix mask, gsp_binop accum, gsp_semiring s, const gsp_matrix A,
                 const gsp_matrix B, const gsp_desc *desc) {
  static const char fn[] = "gsp_mxm";
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *AT = NULL, *BT = NULL, *T = NULL;
#define GSP_FREE_ALL (gsp__matrix_destroy(AT), gsp__matrix_destroy(BT), gsp__matrix_destroy(T))
  GSP_TRY(gsp__ops_check_matrix_args(C, mask, accum, A, B, fn));
  const gsp_desc d = gsp__ops_desc(desc);
  GSP_TRY(gsp__ops_check_product_types(s, C->type, A->type, "A", B->type, "B", fn));
  const int64_t m = gsp__ops_rows(A, d.transpose_a), k = gsp__ops_cols(A, d.transpose_a);
  const int64_t kb = gsp__ops_rows(B, d.transpose_b), n = gsp__ops_cols(B, d.transpose_b);
  GSP_CHECK(k == kb, GSP_DIMENSION_MISMATCH, "%s: inner dimensions differ: A%s is %lld x %lld, B%s is %lld x %lld", fn,
            d.transpose_a ? "'" : "", (long long)m, (long long)k, d.transpose_b ? "'" : "", (long long)kb,
            (long long)n);
  GSP_CHECK(C->nrows == m && C->ncols == n, GSP_DIMENSION_MISMATCH,
            "%s: C is %lld x %lld but the product is %lld x %lld", fn, (long long)C->nrows, (long long)C->ncols,
            (long long)m, (long long)n);

  /* GPU (src/cuda/graphblas/gsp_cuda_mxm.cu): sparse x dense, dense x dense, and
   * sparse x sparse PLUS_TIMES on FP32/FP64 (cuSPARSE SpGEMM; the gateway
   * declines the rest); T comes back to the host for the write-back below.
   * AUTO against a dense B: an operand already on the device, or
   * nvals(A) * n >= 2^24 multiply-adds. Against a sparse B, AUTO stays on
   * the CPU: end to end (result back to host CSR, A on the device)
   * cuSPARSE SpGEMM took 2x-5x the CPU's time at 8-17 M products on an
   * H200 against 16 host threads (docs/performance.md, "SpGEMM");
   * GSP_BACKEND_CUDA still asks for it. */
  const bool sparse_b = B->fmt != GSP_FMT_DENSE && !B->dev_only;
  gsp__backend_choice be;
  GSP_TRY(gsp__ops_desc_backend(&be, &d, !sparse_b && (A->dev || B->dev || (double)A->nvals * (double)n >= 16777216.0),
                                fn));
  if (be.gpu) {
    /* The GPU reads host arrays in the forms decided here: a device-only
     * operand comes back first; B dense, or CSR for sparse x sparse; A
     * stays dense only where cuBLAS multiplies two full dense
     * FP32/FP64 operands under PLUS_TIMES, else it is read as CSR. */
    GSP_TRY(gsp__matrix_host(A));
    GSP_TRY(sparse_b ? gsp__matrix_to_csr(B) : gsp__matrix_to_dense(B));
    const bool gemm = !sparse_b && s == GSP_PLUS_TIMES && (A->type == GSP_FP32 || A->type == GSP_FP64) &&
                      A->fmt == GSP_FMT_DENSE && !A->b && !B->b && k > 0;
    if (!gemm) GSP_TRY(gsp__matrix_to_csr(A));
    const gsp_cuda_arrays a = gsp__matrix_cuda_arrays(A), b = gsp__matrix_cuda_arrays(B);
    bool taken = false;
    gsp_cuda_host_result r = {0};
    const gsp__cuda_api *cu;
    GSP_TRY(gsp__cuda_get(&cu, fn));
    info = cu->mxm(&r, s, &a, &b, d.transpose_a, d.transpose_b, fn, &taken);
    if (taken) {
      if (info >= 0) info = gsp__matrix_alloc_dense(&T, A->type, m, n);
      if (info < 0) gsp__cuda_result_free(&r);
      GSP_TRY(info);
      gsp__matrix_take_result(T, &r); /* CSR or dense, as the product came back */
      if (mask || accum != GSP_NOOP || d.mask_complement) GSP_TRY(gsp__ops_csr(T, fn));
      GSP_TRY(gsp__ops_matrix_writeback(C, mask, accum, &T, &d, fn));
      GSP_FREE_ALL;
      return info;
    }
    GSP_TRY(gsp__backend_declined(&be, fn));
  }

  const struct gsp_matrix_s *a, *b;
  GSP_TRY(gsp__ops_input(&a, &AT, A, d.transpose_a, fn));
  GSP_TRY(gsp__ops_input(&b, &BT, B, d.transpose_b, fn));
  /* a plain mask limits where T is computed: the write-back never reads T
   * elsewhere */
  struct gsp_matrix_s *mview = NULL; /* the mask is an input: never converted */
  if (mask && !d.mask_complement) GSP_TRY(gsp__ops_view(&mview, mask, fn));
  GSP_TRY(gsp__mxm_cpu(&T, s, a, b, mview, d.mask_structure, fn));
  GSP_TRY(gsp__ops_matrix_writeback(C, mask, accum, &T, &d, fn));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
