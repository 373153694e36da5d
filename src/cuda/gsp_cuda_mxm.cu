/*
 * gsp_mxm on the GPU for a dense second operand: T = op(A) (+.*) op(B).
 *
 *   sparse x dense (a block of frontier vectors as the columns of B):
 *     PLUS_TIMES on FP32/FP64 with a full B: cusparseSpMM on the CSR of
 *     op(A) (row-major B and T); every other semiring / type, or B with
 *     absent entries: our kernel, one warp per row of op(A), each lane one
 *     column of T at a time (32 columns per pass, B's rows read coalesced),
 *     the semiring from gsp_semiring.h (Sr<S, T>). T(i,j) is present iff
 *     some A(i,k) meets a present B(k,j) (GraphBLAS structure).
 *   dense x dense, PLUS_TIMES on full FP32/FP64 operands: cuBLAS sgemm /
 *     dgemm (row-major through the transposed column-major product).
 *
 * T comes back to the host as a dense matrix with a presence array and goes
 * through the host write-back (gsp__ops_matrix_writeback): the mask,
 * accumulator and replace rules stay the CPU's, at the cost of moving m*n
 * values (plus m*n presence bytes) over PCIe, and, with a mask or an
 * accumulator, a host conversion of T to CSR. Dense B is uploaded per call
 * (dense matrices have no general device copy: the closure's copy encodes
 * absence by the semiring zero).
 */
#include "gsp_cuda_ops.cuh"

namespace {

template <gsp_semiring S, class T>
__global__ void __launch_bounds__(256)
    spmm_kernel(int32_t m, int32_t n, const int32_t *__restrict__ rp, const int32_t *__restrict__ ci,
                const T *__restrict__ av, const T *__restrict__ bx, const uint8_t *__restrict__ bb, int64_t sk,
                int64_t sj, T *__restrict__ tx, uint8_t *__restrict__ tbm) {
  typedef Sr<S, T> R;
  const int64_t gt = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  const int64_t i = gt / 32;
  const int lane = (int)(gt % 32);
  if (i >= m) return;
  const int32_t p0 = rp[i], p1 = rp[i + 1];
  for (int64_t j = lane; j < n; j += 32) {
    T acc = R::zero();
    uint8_t any = 0;
    for (int32_t p = p0; p < p1; p++) {
      const int64_t off = (int64_t)ci[p] * sk + j * sj;
      if (!bb || bb[off]) {
        acc = R::add(acc, R::mul(av[p], bx[off]));
        any = 1;
      }
    }
    tx[i * n + j] = acc;
    tbm[i * n + j] = any;
  }
}

/* Row i of T is present wherever row i of op(A) has an entry (full B). */
__global__ void rows_dense_kernel(uint8_t *tbm, const int32_t *rp, int32_t m, int32_t n) {
  const int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (e < (int64_t)m * n) {
    const int64_t i = e / n;
    tbm[e] = rp[i + 1] > rp[i];
  }
}

struct MCtx {
  const char *fn;
  gsp_semiring s;
  gsp_type t;
  const gsp_dev_csr *P; /* CSR of op(A), m x k */
  int32_t n;
  const void *bx;
  const uint8_t *bb; /* NULL: B full */
  int64_t sk, sj;    /* B(k, j) at k * sk + j * sj */
  void *tx;
  uint8_t *tbm;
};

template <gsp_semiring S, class T> gsp_info spmm_own(const MCtx &c) {
  gsp_info info = GSP_SUCCESS;
  const char *fn = c.fn;
#define GSP_FREE_ALL ((void)0)
  if (c.P->nrows == 0 || c.n == 0) return info;
  spmm_kernel<S, T><<<gsp__cu_blocks((int64_t)c.P->nrows * 32), 256>>>(
      c.P->nrows, c.n, c.P->p, c.P->j, (const T *)c.P->x, (const T *)c.bx, c.bb, c.sk, c.sj, (T *)c.tx, c.tbm);
  GSP_CU_LAUNCHED();
#undef GSP_FREE_ALL
  return info;
}

gsp_info spmm_own_any(const MCtx &c) {
#define GSP_CU_CASE_(SR, T, ct)                                                \
  if (c.s == GSP_##SR && c.t == GSP_##T) return spmm_own<GSP_##SR, ct>(c);
#define GSP_CU_NUM_(SR, sr, a, m, z, o)                                        \
  GSP_CU_CASE_(SR, INT32, int32_t)                                             \
  GSP_CU_CASE_(SR, INT64, int64_t) GSP_CU_CASE_(SR, FP32, float) GSP_CU_CASE_(SR, FP64, double)
  GSP_NUM_SEMIRING_LIST(GSP_CU_NUM_)
  GSP_CU_CASE_(OR_AND, BOOL, bool)
#undef GSP_CU_NUM_
#undef GSP_CU_CASE_
  return GSP_ERROR(GSP_PANIC, "%s: no GPU kernel for %s on %s", c.fn, gsp__semiring_name(c.s),
                   gsp__type_name(c.t));
}

/* cusparseSpMM, row-major B (not transposed, full) and T. *done = false
 * when cuSPARSE does not support the case (our kernel takes it then). */
gsp_info spmm_library(const MCtx &c, bool *done) {
  gsp_info info = GSP_SUCCESS;
  const char *fn = c.fn;
  cusparseSpMatDescr_t mat = NULL;
  cusparseDnMatDescr_t mb = NULL, mc = NULL;
  void *buf = NULL;
#define GSP_FREE_ALL                                                           \
  (mat ? (void)cusparseDestroySpMat(mat) : (void)0, mb ? (void)cusparseDestroyDnMat(mb) : (void)0, \
   mc ? (void)cusparseDestroyDnMat(mc) : (void)0, gsp__cu_free(buf))
  *done = true;
  const gsp_dev_csr *P = c.P;
  const int64_t mn = (int64_t)P->nrows * c.n;
  if (mn == 0) return info;
  rows_dense_kernel<<<gsp__cu_blocks(mn), 256>>>(c.tbm, P->p, P->nrows, c.n);
  GSP_CU_LAUNCHED();
  if (P->nnz == 0 || P->ncols == 0) return info; /* no entry anywhere */
  cusparseHandle_t h;
  GSP_TRY(gsp__cusparse_handle(&h, fn));
  const cudaDataType dt = c.t == GSP_FP32 ? CUDA_R_32F : CUDA_R_64F;
  const float one_f = 1, zero_f = 0;
  const double one_d = 1, zero_d = 0;
  const void *one = c.t == GSP_FP32 ? (const void *)&one_f : (const void *)&one_d;
  const void *zero = c.t == GSP_FP32 ? (const void *)&zero_f : (const void *)&zero_d;
  GSP_CUSPARSE_TRY(cusparseCreateCsr(&mat, P->nrows, P->ncols, P->nnz, P->p, P->j, P->x, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, dt));
  GSP_CUSPARSE_TRY(cusparseCreateDnMat(&mb, P->ncols, c.n, c.n, (void *)c.bx, dt, CUSPARSE_ORDER_ROW));
  GSP_CUSPARSE_TRY(cusparseCreateDnMat(&mc, P->nrows, c.n, c.n, c.tx, dt, CUSPARSE_ORDER_ROW));
  size_t bytes = 0;
  cusparseStatus_t st = cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                CUSPARSE_OPERATION_NON_TRANSPOSE, one, mat, mb, zero, mc, dt,
                                                CUSPARSE_SPMM_ALG_DEFAULT, &bytes);
  if (st == CUSPARSE_STATUS_NOT_SUPPORTED) {
    *done = false;
    GSP_FREE_ALL;
    return info;
  }
  GSP_CUSPARSE_TRY(st);
  GSP_CU_DALLOC(buf, bytes);
  st = cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, one, mat, mb, zero,
                    mc, dt, CUSPARSE_SPMM_ALG_DEFAULT, buf);
  if (st == CUSPARSE_STATUS_NOT_SUPPORTED) *done = false;
  else GSP_CUSPARSE_TRY(st);
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

} // namespace

gsp_info gsp_cuda_mxm(struct gsp_matrix_s **T, gsp_semiring s, struct gsp_matrix_s *A, struct gsp_matrix_s *B,
                      bool ta, bool tb, const char *fn, bool *taken) {
  gsp_info info = GSP_SUCCESS;
  void *da = NULL, *dbx = NULL, *tx = NULL;
  uint8_t *dbb = NULL, *tbm = NULL;
  void *hx = NULL;
  uint8_t *hb = NULL;
  struct gsp_matrix_s *R = NULL;
#define GSP_FREE_ALL                                                           \
  (gsp__cu_free(da), gsp__cu_free(dbx), gsp__cu_free(tx), gsp__cu_free(dbb), gsp__cu_free(tbm), gsp__free(hx), \
   gsp__free(hb), gsp__matrix_destroy(R))
  *taken = false;
  const gsp_type t = A->type;
  const size_t ts = gsp_type_size(t);
  const int64_t m = ta ? A->ncols : A->nrows, k = ta ? A->nrows : A->ncols, n = tb ? B->nrows : B->ncols;
  if (m > GSP_CU_OPS_MAX || k > GSP_CU_OPS_MAX || n > GSP_CU_OPS_MAX || A->nvals > GSP_CU_OPS_MAX) return info;
  /* sparse x sparse: the CPU's Gustavson (a device-only B is a dense
   * closure result) */
  if (B->fmt != GSP_FMT_DENSE && !B->dev_only) return info;
  size_t mn;
  if (!gsp__mul_size(&mn, (size_t)m, (size_t)n) || mn > ((size_t)1 << 40) / ts) return info;
  *taken = true;
  /* device-only closure results: their host copies first (a bool one comes
   * back bit-packed) */
  GSP_TRY(gsp__matrix_host(A));
  GSP_TRY(gsp__matrix_to_dense(B));
  const bool floating = t == GSP_FP32 || t == GSP_FP64;
  const bool gemm = s == GSP_PLUS_TIMES && floating && A->fmt == GSP_FMT_DENSE && !A->b && !B->b && k > 0;
  const size_t kn = (size_t)B->nrows * (size_t)B->ncols;

  GSP_CU_DALLOC(tx, mn * ts);
  if (gemm) {
    cublasHandle_t h;
    GSP_TRY(gsp__cublas_handle(&h, fn));
    const size_t mk = (size_t)A->nrows * (size_t)A->ncols;
    GSP_CU_DALLOC(da, mk * ts);
    GSP_CU_DALLOC(dbx, kn * ts);
    GSP_CU_TRY(cudaMemcpy(da, A->x, mk * ts, cudaMemcpyHostToDevice));
    GSP_CU_TRY(cudaMemcpy(dbx, B->x, kn * ts, cudaMemcpyHostToDevice));
    /* row-major T = op(A) op(B)  <=>  column-major T' = op(B)' op(A)' */
    const cublasOperation_t opb = tb ? CUBLAS_OP_T : CUBLAS_OP_N, opa = ta ? CUBLAS_OP_T : CUBLAS_OP_N;
    const int ldb = (int)B->ncols, lda = (int)A->ncols;
    if (mn) {
      if (t == GSP_FP32) {
        const float one = 1, zero = 0;
        GSP_CUBLAS_TRY(cublasSgemm(h, opb, opa, (int)n, (int)m, (int)k, &one, (const float *)dbx, ldb,
                                   (const float *)da, lda, &zero, (float *)tx, (int)n));
      } else {
        const double one = 1, zero = 0;
        GSP_CUBLAS_TRY(cublasDgemm(h, opb, opa, (int)n, (int)m, (int)k, &one, (const double *)dbx, ldb,
                                   (const double *)da, lda, &zero, (double *)tx, (int)n));
      }
    }
  } else {
    MCtx c = {};
    c.fn = fn;
    c.s = s;
    c.t = t;
    c.n = (int32_t)n;
    GSP_TRY(gsp__cu_matrix_csr(&c.P, A, ta, fn));
    GSP_CU_DALLOC(dbx, kn * ts);
    if (kn) GSP_CU_TRY(cudaMemcpy(dbx, B->x, kn * ts, cudaMemcpyHostToDevice));
    if (B->b) {
      GSP_CU_DALLOC(dbb, kn);
      if (kn) GSP_CU_TRY(cudaMemcpy(dbb, B->b, kn, cudaMemcpyHostToDevice));
    }
    c.bx = dbx;
    c.bb = dbb;
    /* B stored row-major B->nrows x B->ncols; op(B)(k, j) = B(k, j) or B(j, k) */
    c.sk = tb ? 1 : (int64_t)B->ncols;
    c.sj = tb ? (int64_t)B->ncols : 1;
    GSP_CU_DALLOC(tbm, mn);
    c.tx = tx;
    c.tbm = tbm;
    bool done = false;
    if (s == GSP_PLUS_TIMES && floating && !B->b && !tb) GSP_TRY(spmm_library(c, &done));
    if (!done) GSP_TRY(spmm_own_any(c));
  }

  /* T on the host: values, and presence unless every entry is there */
  GSP_CU_HALLOC(hx, mn ? mn : 1, ts);
  if (mn) GSP_CU_TRY(cudaMemcpy(hx, tx, mn * ts, cudaMemcpyDeviceToHost));
  int64_t nvals = (int64_t)mn;
  if (tbm) {
    GSP_CU_HALLOC(hb, mn ? mn : 1, 1);
    if (mn) GSP_CU_TRY(cudaMemcpy(hb, tbm, mn, cudaMemcpyDeviceToHost));
    nvals = 0;
    for (size_t e = 0; e < mn; e++) nvals += hb[e] != 0;
    if ((size_t)nvals == mn) GSP_FREE(hb);
  } else if (k == 0) {
    nvals = 0; /* no term anywhere (not reached: gemm needs k > 0) */
  }
  GSP_TRY(gsp__matrix_alloc_dense(&R, t, m, n));
  R->x = hx;
  R->b = hb;
  R->nvals = nvals;
  hx = NULL;
  hb = NULL;
  *T = R;
  R = NULL;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
