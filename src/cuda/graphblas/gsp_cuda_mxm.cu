/*
 * gsp_mxm on the GPU: T = op(A) (+.*) op(B).
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
 *   sparse x sparse, PLUS_TIMES on FP32/FP64: cuSPARSE SpGEMM on the cached
 *     CSR of op(A) and op(B) (their transposes from the same cache); T comes
 *     back as host CSR. Structure as on the CPU (every (i, j) some A(i,k)
 *     B(k,j) meets, cancelled sums included); values differ from the CPU's
 *     only by the order of the float sums. Other semirings and integer
 *     types stay on the CPU.
 *
 * A dense T comes back to the host with a presence array and goes
 * through the host write-back (gsp__ops_matrix_writeback): the mask,
 * accumulator and replace rules stay the CPU's, at the cost of moving m*n
 * values (plus m*n presence bytes) over PCIe, and, with a mask or an
 * accumulator, a host conversion of T to CSR. Dense B is uploaded per call
 * (dense matrices have no general device copy: the closure's copy encodes
 * absence by the semiring zero).
 */
#include <string.h>

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

struct SpmmOwn {
  const MCtx &c;
  template <gsp_semiring S, class T> gsp_info run() const {
    return spmm_own<S, T>(c);
  }
};

gsp_info spmm_own_any(const MCtx &c) {
  return gsp__cu_sr_dispatch(c.s, c.t, c.fn, SpmmOwn{c});
}

/* cusparseSpMM, row-major B (not transposed, full) and T. *done = false
 * when cuSPARSE does not support the case (our kernel takes it then). */
gsp_info spmm_library(const MCtx &c, bool *done) {
  gsp_info info = GSP_SUCCESS;
  const char *fn = c.fn;
  cusparseSpMatDescr_t mat = NULL;
  cusparseDnMatDescr_t mb = NULL, mc = NULL;
  void *buf = NULL;
#define GSP_FREE_ALL                                                                               \
  (mat ? (void)cusparseDestroySpMat(mat) : (void)0, mb ? (void)cusparseDestroyDnMat(mb) : (void)0, \
   mc ? (void)cusparseDestroyDnMat(mc) : (void)0, gsp__cu_free(buf))
  *done = true;
  const gsp_dev_csr *P = c.P;
  const int64_t mn = (int64_t)P->nrows * c.n;
  if (mn == 0) return info;
  rows_dense_kernel<<<gsp__cu_blocks(mn), 256>>>(c.tbm, P->p, P->nrows, c.n);
  GSP_CU_LAUNCHED();
  if (P->nnz == 0 || P->ncols == 0) return info; /* no entry anywhere */
  gsp_cu_plus k;
  GSP_TRY(gsp__cu_plus_begin(&k, c.t, fn));
  GSP_TRY(gsp__cu_csr_descr(&mat, P, k.dt, fn));
  GSP_CUSPARSE_TRY(cusparseCreateDnMat(&mb, P->ncols, c.n, c.n, (void *)c.bx, k.dt, CUSPARSE_ORDER_ROW));
  GSP_CUSPARSE_TRY(cusparseCreateDnMat(&mc, P->nrows, c.n, c.n, c.tx, k.dt, CUSPARSE_ORDER_ROW));
  size_t bytes = 0;
  cusparseStatus_t st = cusparseSpMM_bufferSize(k.h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                                k.one, mat, mb, k.zero, mc, k.dt, CUSPARSE_SPMM_ALG_DEFAULT, &bytes);
  if (st == CUSPARSE_STATUS_NOT_SUPPORTED) {
    *done = false;
    GSP_FREE_ALL;
    return info;
  }
  GSP_CUSPARSE_TRY(st);
  GSP_CU_DALLOC(buf, bytes);
  st = cusparseSpMM(k.h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, k.one, mat, mb, k.zero, mc,
                    k.dt, CUSPARSE_SPMM_ALG_DEFAULT, buf);
  if (st == CUSPARSE_STATUS_NOT_SUPPORTED) *done = false;
  else GSP_CUSPARSE_TRY(st);
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* ---- sparse x sparse: cuSPARSE SpGEMM ---- */

/* One cuSPARSE SpGEMM of P (m x k) and Q (k x n) with algorithm alg into
 * the device CSR arrays *cp, *cj, *cx (nnz entries). ALG2 / ALG3 bound
 * their memory (ALG3 in chunks of a fifth of the products). *big: C has
 * more entries than the products take (nothing allocated then). */
gsp_info spgemm_run(const gsp_dev_csr *P, const gsp_dev_csr *Q, gsp_type t, cusparseSpGEMMAlg_t alg, int32_t **cp,
                    int32_t **cj, void **cx, int64_t *nnz, bool *big, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  cusparseSpMatDescr_t ma = NULL, mb = NULL, mc = NULL;
  cusparseSpGEMMDescr_t sd = NULL;
  void *b1 = NULL, *b2 = NULL, *b3 = NULL;
  int32_t *p = NULL, *j = NULL;
  void *x = NULL;
#define GSP_FREE_ALL                                                                                    \
  (ma ? (void)cusparseDestroySpMat(ma) : (void)0, mb ? (void)cusparseDestroySpMat(mb) : (void)0,        \
   mc ? (void)cusparseDestroySpMat(mc) : (void)0, sd ? (void)cusparseSpGEMM_destroyDescr(sd) : (void)0, \
   gsp__cu_free(b1), gsp__cu_free(b2), gsp__cu_free(b3), gsp__cu_free(p), gsp__cu_free(j), gsp__cu_free(x))
  const cusparseOperation_t N = CUSPARSE_OPERATION_NON_TRANSPOSE;
  gsp_cu_plus k;
  GSP_TRY(gsp__cu_plus_begin(&k, t, fn));
  GSP_TRY(gsp__cu_csr_descr(&ma, P, k.dt, fn));
  GSP_TRY(gsp__cu_csr_descr(&mb, Q, k.dt, fn));
  GSP_CU_DALLOC(p, ((size_t)P->nrows + 1) * 4);
  GSP_CUSPARSE_TRY(cusparseCreateCsr(&mc, P->nrows, Q->ncols, 0, p, NULL, NULL, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_BASE_ZERO, k.dt));
  GSP_CUSPARSE_TRY(cusparseSpGEMM_createDescr(&sd));
  size_t s1 = 0, s2 = 0, s3 = 0;
  GSP_CUSPARSE_TRY(cusparseSpGEMM_workEstimation(k.h, N, N, k.one, ma, mb, k.zero, mc, k.dt, alg, sd, &s1, NULL));
  GSP_CU_DALLOC(b1, s1);
  GSP_CUSPARSE_TRY(cusparseSpGEMM_workEstimation(k.h, N, N, k.one, ma, mb, k.zero, mc, k.dt, alg, sd, &s1, b1));
  if (alg == CUSPARSE_SPGEMM_ALG2 || alg == CUSPARSE_SPGEMM_ALG3) {
    const float chunk = alg == CUSPARSE_SPGEMM_ALG3 ? 0.2f : 1.0f;
    GSP_CUSPARSE_TRY(
        cusparseSpGEMM_estimateMemory(k.h, N, N, k.one, ma, mb, k.zero, mc, k.dt, alg, sd, chunk, &s3, NULL, NULL));
    GSP_CU_DALLOC(b3, s3);
    GSP_CUSPARSE_TRY(
        cusparseSpGEMM_estimateMemory(k.h, N, N, k.one, ma, mb, k.zero, mc, k.dt, alg, sd, chunk, &s3, b3, &s2));
    gsp__cu_free(b3);
    b3 = NULL;
  } else {
    GSP_CUSPARSE_TRY(cusparseSpGEMM_compute(k.h, N, N, k.one, ma, mb, k.zero, mc, k.dt, alg, sd, &s2, NULL));
  }
  GSP_CU_DALLOC(b2, s2);
  GSP_CUSPARSE_TRY(cusparseSpGEMM_compute(k.h, N, N, k.one, ma, mb, k.zero, mc, k.dt, alg, sd, &s2, b2));
  gsp__cu_free(b1);
  b1 = NULL;
  int64_t r = 0, c = 0, nz = 0;
  GSP_CUSPARSE_TRY(cusparseSpMatGetSize(mc, &r, &c, &nz));
  *big = nz > GSP_CU_OPS_MAX;
  if (*big) {
    GSP_FREE_ALL;
    return info;
  }
  GSP_CU_DALLOC(j, (size_t)nz * 4);
  GSP_CU_DALLOC(x, (size_t)nz * gsp_type_size(t));
  GSP_CUSPARSE_TRY(cusparseCsrSetPointers(mc, p, j, x));
  GSP_CUSPARSE_TRY(cusparseSpGEMM_copy(k.h, N, N, k.one, ma, mb, k.zero, mc, k.dt, alg, sd));
  *cp = p, *cj = j, *cx = x, *nnz = nz;
  p = NULL, j = NULL, x = NULL;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* Swap entries a and b of a row (index and value). */
static inline void swap_entry(gsp_index *j, unsigned char *x, size_t ts, gsp_index a, gsp_index b) {
  unsigned char tmp[16];
  const gsp_index tj = j[a];
  j[a] = j[b], j[b] = tj;
  memcpy(tmp, x + a * ts, ts);
  memcpy(x + a * ts, x + b * ts, ts);
  memcpy(x + b * ts, tmp, ts);
}

/* Sort each row of host CSR (p, j, x) by column where it is not already
 * (cuSPARSE does not promise sorted rows; the library's CSR is sorted):
 * an in-place heapsort of the row's (index, value) pairs, O(r log r). */
void sort_rows(const gsp_index *p, gsp_index *j, void *xv, int64_t m, size_t ts) {
  unsigned char *x = (unsigned char *)xv;
  for (int64_t i = 0; i < m; i++) {
    const gsp_index lo = p[i], r = p[i + 1] - lo;
    bool sorted = true;
    for (gsp_index q = lo + 1; q < p[i + 1] && sorted; q++) sorted = j[q - 1] < j[q];
    if (sorted) continue;
    gsp_index *rj = j + lo;
    unsigned char *rx = x + lo * ts;
    for (gsp_index end = r; end > 1; end--) {
      if (end == r) /* build the max-heap once */
        for (gsp_index s0 = r / 2; s0-- > 0;)
          for (gsp_index c = s0, k; (k = 2 * c + 1) < r; c = k) {
            if (k + 1 < r && rj[k + 1] > rj[k]) k++;
            if (rj[c] >= rj[k]) break;
            swap_entry(rj, rx, ts, c, k);
          }
      swap_entry(rj, rx, ts, 0, end - 1); /* largest to the end, sift the new root */
      for (gsp_index c = 0, k; (k = 2 * c + 1) < end - 1; c = k) {
        if (k + 1 < end - 1 && rj[k + 1] > rj[k]) k++;
        if (rj[c] >= rj[k]) break;
        swap_entry(rj, rx, ts, c, k);
      }
    }
  }
}

/* *T = op(A) op(B) under PLUS_TIMES on FP32/FP64, both sparse, as host CSR
 * arrays (m x n). cuSPARSE's default algorithm first;
 * when the device runs out of memory, ALG3 (bounded memory); when that
 * fails too, or C has more than GSP_CU_OPS_MAX entries, *declined (the CPU
 * takes the product; nothing changed). */
gsp_info spgemm(gsp_cuda_host_result *T, const gsp_cuda_arrays *A, const gsp_cuda_arrays *B, bool ta, bool tb,
                int64_t m, int64_t n, const char *fn, bool *declined) {
  gsp_info info = GSP_SUCCESS;
  int32_t *cp = NULL, *cj = NULL, *h32 = NULL;
  void *cx = NULL;
  gsp_index *p = NULL, *j = NULL;
  void *x = NULL;
#define GSP_FREE_ALL \
  (gsp__cu_free(cp), gsp__cu_free(cj), gsp__cu_free(cx), gsp__free(h32), gsp__free(p), gsp__free(j), gsp__free(x))
  const gsp_type t = A->type;
  const size_t ts = gsp_type_size(t);
  const gsp_dev_csr *P = NULL, *Q = NULL;
  GSP_TRY(gsp__cu_matrix_csr(&P, A, ta, fn));
  GSP_TRY(gsp__cu_matrix_csr(&Q, B, tb, fn));
  int64_t nnz = 0;
  if (m > 0 && n > 0 && P->nnz > 0 && Q->nnz > 0) { /* else no term anywhere (cuSPARSE wants entries) */
    const int forced = gsp__spgemm_alg();
    static const cusparseSpGEMMAlg_t pick[4] = {CUSPARSE_SPGEMM_DEFAULT, CUSPARSE_SPGEMM_ALG1, CUSPARSE_SPGEMM_ALG2,
                                                CUSPARSE_SPGEMM_ALG3};
    bool big = false;
    info = spgemm_run(P, Q, t, pick[forced >= 1 && forced <= 3 ? forced : 0], &cp, &cj, &cx, &nnz, &big, fn);
    if (info == GSP_DEVICE_OUT_OF_MEMORY && forced == 0)
      info = spgemm_run(P, Q, t, CUSPARSE_SPGEMM_ALG3, &cp, &cj, &cx, &nnz, &big, fn);
    if (info == GSP_DEVICE_OUT_OF_MEMORY || (info == GSP_SUCCESS && big)) {
      if (big) gsp__device_decline(GSP_TOO_LARGE, "the product has more than 2^31 - 2 entries");
      else gsp__device_decline(GSP_DEVICE_OUT_OF_MEMORY, "cuSPARSE SpGEMM ran out of device memory");
      *declined = true;
      return GSP_SUCCESS;
    }
    GSP_TRY(info);
  }
  /* download, 32-bit indices widened on the host */
  GSP_CU_HALLOC(p, (size_t)m + 1, sizeof *p);
  GSP_CU_HALLOC(j, nnz > 0 ? (size_t)nnz : 1, sizeof *j);
  GSP_CU_HALLOC(x, nnz > 0 ? (size_t)nnz : 1, ts);
  if (nnz > 0) {
    GSP_CU_HALLOC(h32, (size_t)(nnz > m + 1 ? nnz : m + 1), sizeof *h32);
    GSP_CU_TRY(cudaMemcpy(h32, cp, ((size_t)m + 1) * 4, cudaMemcpyDeviceToHost));
    for (int64_t i = 0; i <= m; i++) p[i] = (gsp_index)h32[i];
    GSP_CU_TRY(cudaMemcpy(h32, cj, (size_t)nnz * 4, cudaMemcpyDeviceToHost));
    for (int64_t e = 0; e < nnz; e++) j[e] = (gsp_index)h32[e];
    GSP_CU_TRY(cudaMemcpy(x, cx, (size_t)nnz * ts, cudaMemcpyDeviceToHost));
    sort_rows(p, j, x, m, ts);
  } else {
    memset(p, 0, ((size_t)m + 1) * sizeof *p);
  }
  T->p = p, T->j = j, T->x = x, T->b = NULL;
  T->nvals = nnz;
  p = NULL, j = NULL, x = NULL;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

} // namespace

gsp_info gsp_cuda_mxm(gsp_cuda_host_result *T, gsp_semiring s, const gsp_cuda_arrays *A, const gsp_cuda_arrays *B,
                      bool ta, bool tb, const char *fn, bool *taken) {
  gsp_info info = GSP_SUCCESS;
  void *da = NULL, *dbx = NULL, *tx = NULL;
  uint8_t *dbb = NULL, *tbm = NULL;
  void *hx = NULL;
  uint8_t *hb = NULL;
#define GSP_FREE_ALL                                                                                           \
  (gsp__cu_free(da), gsp__cu_free(dbx), gsp__cu_free(tx), gsp__cu_free(dbb), gsp__cu_free(tbm), gsp__free(hx), \
   gsp__free(hb))
  *taken = false;
  memset(T, 0, sizeof *T);
  const gsp__cu_guard guard(A->dev, B->dev);
  const gsp_type t = A->type;
  const size_t ts = gsp_type_size(t);
  const int64_t m = ta ? A->ncols : A->nrows, k = ta ? A->nrows : A->ncols, n = tb ? B->nrows : B->ncols;
  if (m > GSP_CU_OPS_MAX || k > GSP_CU_OPS_MAX || n > GSP_CU_OPS_MAX || A->nvals > GSP_CU_OPS_MAX) {
    gsp__device_decline(GSP_TOO_LARGE, "the GPU product takes at most 2^31 - 2 rows, columns and entries");
    return info;
  }
  const bool floating = t == GSP_FP32 || t == GSP_FP64;
  /* sparse x sparse: cuSPARSE SpGEMM for PLUS_TIMES on floats; other
   * semirings and the integer types (cuSPARSE has no integer SpGEMM, and
   * integer sums must wrap exactly as on the CPU) stay with the CPU's
   * Gustavson. */
  if (B->p) {
    if (s != GSP_PLUS_TIMES || !floating) {
      gsp__device_decline(GSP_DOMAIN_MISMATCH, "the GPU's sparse x sparse product is PLUS_TIMES on FP32 and FP64 only");
      return info;
    }
    if (B->nvals > GSP_CU_OPS_MAX) {
      gsp__device_decline(GSP_TOO_LARGE, "the GPU product takes at most 2^31 - 2 entries");
      return info;
    }
    *taken = true;
    bool declined = false;
    GSP_TRY(spgemm(T, A, B, ta, tb, m, n, fn, &declined));
    *taken = !declined;
    return info;
  }
  size_t mn;
  if (!gsp__mul_size(&mn, (size_t)m, (size_t)n) || mn > ((size_t)1 << 40) / ts) {
    gsp__device_decline(GSP_TOO_LARGE, "the dense GPU product takes at most 2^40 bytes");
    return info;
  }
  *taken = true;
  /* cuBLAS when the operation left A dense (gsp_mxm: both full, PLUS_TIMES
   * on floats), else A is CSR */
  const bool gemm = !A->p;
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
  T->p = NULL, T->j = NULL, T->x = hx, T->b = hb;
  T->nvals = nvals;
  hx = NULL;
  hb = NULL;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
