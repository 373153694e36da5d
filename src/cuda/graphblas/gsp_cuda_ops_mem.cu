/*
 * Device copies for the sparse products: CSR of a matrix and of its
 * transpose (cuSPARSE csr2csc), vectors (values + presence + the index list
 * of present entries), stream-ordered memory, library handles and error
 * mapping.
 *
 * Residency rules (as for the closure's dense copy): a CSR copy mirrors the
 * host CSR and lives in the matrix's device slot until the core frees it
 * (gsp_cuda_dev_free: host data changed, format converted, matrix freed).
 * A vector's copy mirrors its host arrays, or holds the only valid data
 * after a product (the core marks the vector device-only), until the core
 * downloads it (gsp_cuda_vec_download) or frees it (gsp_cuda_vec_free).
 */
#include <stdio.h>
#include <string.h>

#include "gsp_cuda_ops.cuh"

/* ---- errors ---- */

gsp_info gsp__cu_ops_error(cudaError_t e, const char *file, int line, const char *fn, const char *what) {
  (void)cudaGetLastError();
  if (e == cudaErrorMemoryAllocation)
    return gsp__error(GSP_DEVICE_OUT_OF_MEMORY, file, line, "%s: device memory: CUDA: %s (%s)", fn,
                      cudaGetErrorString(e), what);
  return gsp__error(GSP_DEVICE_ERROR, file, line, "%s: CUDA error %s: %s (%s)", fn, cudaGetErrorName(e),
                    cudaGetErrorString(e), what);
}

gsp_info gsp__cusparse_error(cusparseStatus_t e, const char *file, int line, const char *fn, const char *what) {
  (void)cudaGetLastError();
  if (e == CUSPARSE_STATUS_ALLOC_FAILED || e == CUSPARSE_STATUS_INSUFFICIENT_RESOURCES)
    return gsp__error(GSP_DEVICE_OUT_OF_MEMORY, file, line, "%s: cuSPARSE is out of device memory (%s)", fn, what);
  return gsp__error(GSP_DEVICE_ERROR, file, line, "%s: cuSPARSE error %d: %s (%s)", fn, (int)e,
                    cusparseGetErrorString(e), what);
}

gsp_info gsp__cublas_error(cublasStatus_t e, const char *file, int line, const char *fn, const char *what) {
  (void)cudaGetLastError();
  if (e == CUBLAS_STATUS_ALLOC_FAILED)
    return gsp__error(GSP_DEVICE_OUT_OF_MEMORY, file, line, "%s: cuBLAS is out of device memory (%s)", fn, what);
  return gsp__error(GSP_DEVICE_ERROR, file, line, "%s: cuBLAS error %d (%s)", fn, (int)e, what);
}

/* ---- memory ---- */

gsp_info gsp__cu_alloc(void **p, size_t bytes, const char *fn) {
  static bool pool_set = false; /* racing first calls set the same value */
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  if (!pool_set) {
    cudaMemPool_t pool;
    if (cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess) {
      uint64_t keep = 256ull << 20;
      (void)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    }
    (void)cudaGetLastError();
    pool_set = true;
  }
  *p = NULL;
  GSP_CU_TRY(cudaMallocAsync(p, bytes < 16 ? 16 : bytes, 0));
#undef GSP_FREE_ALL
  return info;
}

void gsp__cu_free(void *p) {
  if (!p) return;
  cudaFreeAsync(p, 0);
  (void)cudaGetLastError();
}

/* ---- handles ---- */

/* *h = the calling thread's handle in *slot, made by create on first use;
 * a failing status (not ok) is recorded by err, naming the call `what`. */
template <class Hd, class St, class Create, class Err>
static gsp_info thread_handle(Hd *h, Hd *slot, Create create, St ok, Err err, const char *what, const char *fn) {
  if (!*slot) {
    const St e = create(slot);
    if (e != ok) return err(e, __FILE__, __LINE__, fn, what);
  }
  *h = *slot;
  return GSP_SUCCESS;
}

gsp_info gsp__cusparse_handle(cusparseHandle_t *h, const char *fn) {
  static thread_local cusparseHandle_t handle = NULL;
  return thread_handle(h, &handle, cusparseCreate, CUSPARSE_STATUS_SUCCESS, gsp__cusparse_error,
                       "cusparseCreate(&handle)", fn);
}

gsp_info gsp__cublas_handle(cublasHandle_t *h, const char *fn) {
  static thread_local cublasHandle_t handle = NULL;
  return thread_handle(h, &handle, cublasCreate, CUBLAS_STATUS_SUCCESS, gsp__cublas_error, "cublasCreate(&handle)", fn);
}

gsp_info gsp__cu_plus_begin(gsp_cu_plus *k, gsp_type t, const char *fn) {
  static const float one_f = 1, zero_f = 0;
  static const double one_d = 1, zero_d = 0;
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  GSP_TRY(gsp__cusparse_handle(&k->h, fn));
  k->dt = t == GSP_FP32 ? CUDA_R_32F : CUDA_R_64F;
  k->one = t == GSP_FP32 ? (const void *)&one_f : (const void *)&one_d;
  k->zero = t == GSP_FP32 ? (const void *)&zero_f : (const void *)&zero_d;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__cu_csr_descr(cusparseSpMatDescr_t *mat, const gsp_dev_csr *P, cudaDataType dt, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  GSP_CUSPARSE_TRY(cusparseCreateCsr(mat, P->nrows, P->ncols, P->nnz, P->p, P->j, P->x, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, dt));
#undef GSP_FREE_ALL
  return info;
}

/* ---- matrices ---- */

/* A descriptor freed: its device arrays, then itself. */
template <class... P> static void free_descr(void *descr, P *...arrays) {
  (gsp__cu_free(arrays), ...);
  gsp__free(descr);
}

static void csr_free(struct gsp_dev_csr *c) {
  if (c) free_descr(c, c->p, c->p64, c->j, c->x);
}

void gsp__cuda_csr_release(struct gsp_dev_matrix *dev) {
  if (!dev) return;
  gsp__cuda_graph_free(dev->graph); /* derived from csr / csrT: goes first */
  csr_free(dev->csr);
  csr_free(dev->csrT);
  dev->csr = dev->csrT = NULL;
  dev->graph = NULL;
}

__global__ void narrow_kernel(int32_t *dst, const int64_t *src, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) dst[i] = (int32_t)src[i];
}

__global__ void widen_kernel(int64_t *dst, const int32_t *src, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i];
}

/* dst[0..n) = (int32) host src[0..n), through a bounded staging buffer. */
static gsp_info upload_narrow(int32_t *dst, const gsp_index *src, int64_t n, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  int64_t *stage = NULL;
#define GSP_FREE_ALL gsp__cu_free(stage)
  const int64_t chunk = n < (8 << 20) ? n : (8 << 20);
  if (n == 0) return info;
  GSP_CU_DALLOC(stage, (size_t)chunk * sizeof(int64_t));
  for (int64_t k = 0; k < n; k += chunk) {
    const int64_t c = n - k < chunk ? n - k : chunk;
    GSP_CU_TRY(cudaMemcpy(stage, src + k, (size_t)c * sizeof(int64_t), cudaMemcpyHostToDevice));
    narrow_kernel<<<gsp__cu_blocks(c), 256>>>(dst + k, stage, c);
    GSP_CU_LAUNCHED();
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* New device CSR from host arrays p[nrows+1], j[nnz], x[nnz] (x NULL: bool
 * without values, all true). The 32-bit offsets are narrowed on the device
 * from the 64-bit ones. */
static gsp_info csr_upload(struct gsp_dev_csr **out, int64_t nrows, int64_t ncols, const gsp_index *p,
                           const gsp_index *j, const void *x, gsp_type t, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_dev_csr *c = NULL;
#define GSP_FREE_ALL csr_free(c)
  static_assert(sizeof(gsp_index) == sizeof(int64_t), "gsp_index is 64-bit");
  c = (struct gsp_dev_csr *)gsp__calloc(1, sizeof *c);
  GSP_CHECK(c != NULL, GSP_OUT_OF_MEMORY, "%s: cannot allocate a device CSR header", fn);
  c->nrows = (int32_t)nrows;
  c->ncols = (int32_t)ncols;
  c->nnz = (int64_t)p[nrows];
  const size_t ts = gsp_type_size(t), np = (size_t)nrows + 1, nnz = (size_t)c->nnz;
  GSP_CU_DALLOC(c->p64, np * 8);
  GSP_CU_DALLOC(c->j, nnz * 4);
  GSP_CU_DALLOC(c->x, nnz * ts);
  GSP_CU_TRY(cudaMemcpy(c->p64, p, np * 8, cudaMemcpyHostToDevice));
  if (c->nnz <= GSP_CU_OPS_MAX) {
    GSP_CU_DALLOC(c->p, np * 4);
    narrow_kernel<<<gsp__cu_blocks((int64_t)np), 256>>>(c->p, c->p64, (int64_t)np);
    GSP_CU_LAUNCHED();
  }
  GSP_TRY(upload_narrow(c->j, j, c->nnz, fn));
  if (nnz && x) GSP_CU_TRY(cudaMemcpy(c->x, x, nnz * ts, cudaMemcpyHostToDevice));
  else if (nnz) GSP_CU_TRY(cudaMemsetAsync(c->x, 1, nnz, 0)); /* bool without values: true */
  *out = c;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__csr_transpose_host(gsp_index **rpo, gsp_index **rjo, void **rxo, const gsp_cuda_arrays *A,
                                 const char *fn) {
  gsp_info info = GSP_SUCCESS;
  gsp_index *rp = NULL, *rj = NULL, *fill = NULL;
  unsigned char *rx = NULL;
#define GSP_FREE_ALL (gsp__free(rp), gsp__free(rj), gsp__free(rx), gsp__free(fill))
  const int64_t n = A->nrows, nc = A->ncols, m = A->nvals;
  const size_t ts = gsp_type_size(A->type);
  rp = (gsp_index *)gsp__calloc((size_t)nc + 1, sizeof *rp);
  fill = (gsp_index *)gsp__malloc_array((size_t)nc + 1, sizeof *fill);
  rj = (gsp_index *)gsp__malloc_array(m > 0 ? (size_t)m : 1, sizeof *rj);
  if (A->x) rx = (unsigned char *)gsp__malloc_array(m > 0 ? (size_t)m : 1, ts);
  GSP_CHECK(rp && fill && rj && (rx || !A->x), GSP_OUT_OF_MEMORY, "%s: cannot build the transpose of A (%lld entries)",
            fn, (long long)m);
  for (int64_t e = 0; e < m; e++) rp[A->j[e] + 1]++;
  for (int64_t v = 0; v < nc; v++) rp[v + 1] += rp[v];
  memcpy(fill, rp, ((size_t)nc + 1) * sizeof *fill);
  for (int64_t u = 0; u < n; u++)
    for (gsp_index e = A->p[u]; e < A->p[u + 1]; e++) {
      const gsp_index at = fill[A->j[e]]++;
      rj[at] = (gsp_index)u;
      if (rx) memcpy(rx + at * ts, (const unsigned char *)A->x + e * ts, ts);
    }
  gsp__free(fill);
  *rpo = rp, *rjo = rj, *rxo = rx;
#undef GSP_FREE_ALL
  return info;
}

__global__ void iota_f64_kernel(double *a, int32_t n) {
  const int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = (double)i;
}

/* dst[q] = src[perm[q]] for elements of `size` bytes; perm holds exact
 * integers as doubles (see csr_transpose). */
__global__ void gather_kernel(void *dst, const void *src, const double *perm, int32_t n, int size) {
  const int32_t q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= n) return;
  const int64_t k = (int64_t)perm[q];
  switch (size) {
  case 1:
    ((uint8_t *)dst)[q] = ((const uint8_t *)src)[k];
    break;
  case 4:
    ((uint32_t *)dst)[q] = ((const uint32_t *)src)[k];
    break;
  default:
    ((uint64_t *)dst)[q] = ((const uint64_t *)src)[k];
    break;
  }
}

/* New device CSR of A' from the device CSR of A. csr2csc moves the values
 * of the positions 0..nnz-1 (as doubles: exact below 2^53, whatever the
 * library does with them), and one gather applies that permutation to
 * values of any type, bool and integers included. */
static gsp_info csr_transpose(struct gsp_dev_csr **out, const struct gsp_dev_csr *a, gsp_type t, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_dev_csr *c = NULL;
  double *pos = NULL, *perm = NULL;
  void *buf = NULL;
#define GSP_FREE_ALL (csr_free(c), gsp__cu_free(pos), gsp__cu_free(perm), gsp__cu_free(buf))
  cusparseHandle_t h;
  GSP_TRY(gsp__cusparse_handle(&h, fn));
  c = (struct gsp_dev_csr *)gsp__calloc(1, sizeof *c);
  GSP_CHECK(c != NULL, GSP_OUT_OF_MEMORY, "%s: cannot allocate a device CSR header", fn);
  c->nrows = a->ncols;
  c->ncols = a->nrows;
  c->nnz = a->nnz;
  const size_t ts = gsp_type_size(t);
  const size_t np = (size_t)c->nrows + 1;
  GSP_CU_DALLOC(c->p, np * 4);
  GSP_CU_DALLOC(c->p64, np * 8);
  GSP_CU_DALLOC(c->j, (size_t)c->nnz * 4);
  GSP_CU_DALLOC(c->x, (size_t)c->nnz * ts);
  if (a->nnz == 0 || a->nrows == 0 || a->ncols == 0) {
    /* cuSPARSE wants nonzero sizes: the transpose has empty rows */
    GSP_CU_TRY(cudaMemsetAsync(c->p, 0, np * 4, 0));
    GSP_CU_TRY(cudaMemsetAsync(c->p64, 0, np * 8, 0));
    *out = c;
    return info;
  }
  GSP_CU_DALLOC(pos, (size_t)a->nnz * sizeof(double));
  GSP_CU_DALLOC(perm, (size_t)a->nnz * sizeof(double));
  iota_f64_kernel<<<gsp__cu_blocks(a->nnz), 256>>>(pos, (int32_t)a->nnz);
  GSP_CU_LAUNCHED();
  size_t bytes = 0;
  const int nnz = (int)a->nnz;
  GSP_CUSPARSE_TRY(cusparseCsr2cscEx2_bufferSize(h, a->nrows, a->ncols, nnz, pos, a->p, a->j, perm, c->p, c->j,
                                                 CUDA_R_64F, CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO,
                                                 CUSPARSE_CSR2CSC_ALG1, &bytes));
  GSP_CU_DALLOC(buf, bytes);
  GSP_CUSPARSE_TRY(cusparseCsr2cscEx2(h, a->nrows, a->ncols, nnz, pos, a->p, a->j, perm, c->p, c->j, CUDA_R_64F,
                                      CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, buf));
  gather_kernel<<<gsp__cu_blocks(a->nnz), 256>>>(c->x, a->x, perm, (int32_t)a->nnz, (int)ts);
  GSP_CU_LAUNCHED();
  widen_kernel<<<gsp__cu_blocks((int64_t)np), 256>>>(c->p64, c->p, (int64_t)np);
  GSP_CU_LAUNCHED();
  gsp__cu_free(pos);
  gsp__cu_free(perm);
  gsp__cu_free(buf);
  *out = c;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__cu_matrix_csr(const struct gsp_dev_csr **out, const gsp_cuda_arrays *A, bool transposed, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_dev_csr *c = NULL, *ct = NULL;
  struct gsp_dev_matrix *hdr = NULL;
  gsp_index *rp = NULL, *rj = NULL;
  void *rx = NULL;
#define GSP_FREE_ALL (csr_free(c), csr_free(ct), gsp__free(hdr), gsp__free(rp), gsp__free(rj), gsp__free(rx))
  struct gsp_dev_matrix *dev = *A->dev;
  if (dev && (transposed ? dev->csrT : dev->csr)) {
    *out = transposed ? dev->csrT : dev->csr;
    return info;
  }
  if (!dev) {
    hdr = (struct gsp_dev_matrix *)gsp__calloc(1, sizeof *hdr);
    GSP_CHECK(hdr != NULL, GSP_OUT_OF_MEMORY, "%s: cannot allocate a device matrix header", fn);
    hdr->n = A->nrows;
  }
  struct gsp_dev_csr *base = dev ? dev->csr : NULL;
  if (!base) GSP_TRY(csr_upload(&c, A->nrows, A->ncols, A->p, A->j, A->x, A->type, fn));
  if (transposed) {
    if (A->nvals <= GSP_CU_OPS_MAX) {
      GSP_TRY(csr_transpose(&ct, base ? base : c, A->type, fn));
    } else { /* past csr2csc's int range (shortest paths only) */
      GSP_TRY(gsp__csr_transpose_host(&rp, &rj, &rx, A, fn));
      GSP_TRY(csr_upload(&ct, A->ncols, A->nrows, rp, rj, rx, A->type, fn));
    }
  }
  /* commit: keep the plain copy too, the next call may want it */
  if (hdr) *A->dev = dev = hdr;
  if (c) dev->csr = c;
  if (ct) dev->csrT = ct;
  *out = transposed ? ct : dev->csr;
  gsp__free(rp), gsp__free(rj), gsp__free(rx);
#undef GSP_FREE_ALL
  return info;
}

/* ---- vectors ---- */

static void vec_free(struct gsp_dev_vector *d) {
  if (d) free_descr(d, d->x, d->b, d->idx);
}

void gsp_cuda_vec_free(struct gsp_dev_vector *dev) {
  vec_free(dev);
}

gsp_info gsp__cu_vector_dev(struct gsp_dev_vector **out, const gsp_cuda_vec *v, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_dev_vector *d = NULL;
#define GSP_FREE_ALL vec_free(d)
  if (*v->dev) {
    *out = *v->dev;
    return info;
  }
  d = (struct gsp_dev_vector *)gsp__calloc(1, sizeof *d);
  GSP_CHECK(d != NULL, GSP_OUT_OF_MEMORY, "%s: cannot allocate a device vector header", fn);
  d->n = v->n;
  const size_t ts = gsp_type_size(v->type), n = (size_t)v->n;
  GSP_CU_DALLOC(d->x, n * ts);
  GSP_CU_DALLOC(d->b, n);
  if (n) {
    GSP_CU_TRY(cudaMemcpy(d->x, v->x, n * ts, cudaMemcpyHostToDevice));
    if (v->b) GSP_CU_TRY(cudaMemcpy(d->b, v->b, n, cudaMemcpyHostToDevice));
    else GSP_CU_TRY(cudaMemsetAsync(d->b, v->nvals == v->n ? 1 : 0, n, 0));
  }
  *v->dev = d;
  *out = d;
#undef GSP_FREE_ALL
  return info;
}

/* Append every present index to idx (any order; one atomic per warp). */
__global__ void index_kernel(int32_t *idx, unsigned *cnt, const uint8_t *b, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  const bool on = i < n && b[i];
  const unsigned ballot = __ballot_sync(0xffffffffu, on);
  if (!ballot) return;
  const int lane = threadIdx.x & 31, leader = __ffs(ballot) - 1;
  unsigned base = 0;
  if (lane == leader) base = atomicAdd(cnt, (unsigned)__popc(ballot));
  base = __shfl_sync(0xffffffffu, base, leader);
  if (on) idx[base + __popc(ballot & ((1u << lane) - 1))] = (int32_t)i;
}

gsp_info gsp__cu_vector_index(const int32_t **idx, const gsp_cuda_vec *v, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  int32_t *q = NULL;
  unsigned *cnt = NULL;
#define GSP_FREE_ALL (gsp__cu_free(q), gsp__cu_free(cnt))
  struct gsp_dev_vector *d;
  GSP_TRY(gsp__cu_vector_dev(&d, v, fn));
  if (!d->idx) {
    GSP_CU_DALLOC(q, (size_t)v->nvals * 4);
    GSP_CU_DALLOC(cnt, sizeof *cnt);
    GSP_CU_TRY(cudaMemsetAsync(cnt, 0, sizeof *cnt, 0));
    if (v->n) {
      index_kernel<<<gsp__cu_blocks(v->n), 256>>>(q, cnt, d->b, v->n);
      GSP_CU_LAUNCHED();
    }
    gsp__cu_free(cnt);
    d->idx = q;
  }
  *idx = d->idx;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__cu_vector_spare(struct gsp_dev_vector **spare, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  *spare = (struct gsp_dev_vector *)gsp__calloc(1, sizeof **spare);
  GSP_CHECK(*spare != NULL, GSP_OUT_OF_MEMORY, "%s: cannot allocate a device vector header", fn);
#undef GSP_FREE_ALL
  return info;
}

void gsp__cu_vector_spare_free(struct gsp_dev_vector *spare) {
  vec_free(spare);
}

void gsp__cu_vector_commit(const gsp_cuda_vec *v, void *x, uint8_t *b, struct gsp_dev_vector **spare) {
  struct gsp_dev_vector *d = *v->dev;
  if (d) {
    gsp__cu_free(d->x);
    gsp__cu_free(d->b);
    gsp__cu_free(d->idx);
  } else {
    d = *spare;
    *spare = NULL;
    *v->dev = d;
  }
  d->n = v->n;
  d->x = x;
  d->b = b;
  d->idx = NULL;
}

gsp_info gsp_cuda_vec_download(void *x, uint8_t *b, const gsp_cuda_vec *v) {
  static const char *const fn = "gsp (vector download)";
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  const struct gsp_dev_vector *d = *v->dev;
  const size_t n = (size_t)v->n;
  if (b && n) GSP_CU_TRY(cudaMemcpy(b, d->b, n, cudaMemcpyDeviceToHost));
  if (n) GSP_CU_TRY(cudaMemcpy(x, d->x, n * gsp_type_size(v->type), cudaMemcpyDeviceToHost));
#undef GSP_FREE_ALL
  return info;
}
