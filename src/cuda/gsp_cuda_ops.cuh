/*
 * Internal to the sparse products (gsp_cuda_ops_mem.cu, gsp_cuda_mxv.cu,
 * gsp_cuda_mxm.cu): device CSR and vector copies, stream-ordered device
 * memory, cuSPARSE / cuBLAS handles, and the error mapping that names the
 * public function. Only .cu files include this.
 */
#ifndef GSP_CUDA_OPS_CUH
#define GSP_CUDA_OPS_CUH

#include <cublas_v2.h>
#include <cusparse.h>

#include "gsp_cuda_internal.cuh"

/* CSR on the device with 32-bit offsets and indices (what cuSPARSE's
 * generic API and csr2csc take): the products decline larger matrices. */
struct gsp_dev_csr {
  int32_t nrows, ncols, nnz;
  int32_t *p, *j;
  void *x; /* nnz values of the matrix type (bool: one byte) */
};

/* A vector on the device: values and presence, both of length n, and, when
 * built, the list of present indices (the push kernels' frontier). */
struct gsp_dev_vector {
  int64_t n;
  void *x;
  uint8_t *b;
  int32_t *idx; /* NULL until built; nvals entries in any order */
};

/* Largest row, column or entry count the products take. */
#define GSP_CU_OPS_MAX ((int64_t)INT32_MAX - 1)

/* Device memory for the products: stream-ordered on the legacy stream, so
 * temporaries are cheap after the first call (the pool keeps up to 256 MiB
 * between calls). Zero bytes allocate one word, so empty objects need no
 * special case. */
gsp_info gsp__cu_alloc(void **p, size_t bytes, const char *fn);
void gsp__cu_free(void *p);

/* cudaError_t -> gsp_info with "fn: ..." (clears non-sticky errors). */
gsp_info gsp__cu_ops_error(cudaError_t e, const char *file, int line, const char *fn,
                           const char *what);
gsp_info gsp__cusparse_error(cusparseStatus_t e, const char *file, int line, const char *fn,
                             const char *what);
gsp_info gsp__cublas_error(cublasStatus_t e, const char *file, int line, const char *fn,
                           const char *what);

/* As GSP_CUDA_TRY, naming `fn` (a variable in scope). */
#define GSP_CU_TRY(call)                                                       \
  do {                                                                         \
    cudaError_t gsp_cu_e_ = (call);                                            \
    if (gsp_cu_e_ != cudaSuccess) {                                            \
      info = gsp__cu_ops_error(gsp_cu_e_, __FILE__, __LINE__, fn, #call);      \
      GSP_FREE_ALL;                                                            \
      return info;                                                             \
    }                                                                          \
  } while (0)
#define GSP_CU_LAUNCHED() GSP_CU_TRY(cudaGetLastError())
#define GSP_CUSPARSE_TRY(call)                                                 \
  do {                                                                         \
    cusparseStatus_t gsp_sp_e_ = (call);                                       \
    if (gsp_sp_e_ != CUSPARSE_STATUS_SUCCESS) {                                \
      info = gsp__cusparse_error(gsp_sp_e_, __FILE__, __LINE__, fn, #call);    \
      GSP_FREE_ALL;                                                            \
      return info;                                                             \
    }                                                                          \
  } while (0)
#define GSP_CUBLAS_TRY(call)                                                   \
  do {                                                                         \
    cublasStatus_t gsp_bl_e_ = (call);                                         \
    if (gsp_bl_e_ != CUBLAS_STATUS_SUCCESS) {                                  \
      info = gsp__cublas_error(gsp_bl_e_, __FILE__, __LINE__, fn, #call);      \
      GSP_FREE_ALL;                                                            \
      return info;                                                             \
    }                                                                          \
  } while (0)
#define GSP_CU_DALLOC(ptr, bytes)                                              \
  GSP_TRY(gsp__cu_alloc((void **)&(ptr), (bytes), fn))

/* GSP_ALLOC for C++ (no implicit conversion from void *), naming fn. */
#define GSP_CU_HALLOC(ptr, count, size)                                        \
  GSP_CHECK(((ptr) = (decltype(ptr))gsp__malloc_array((count), (size))) != NULL, \
            GSP_OUT_OF_MEMORY, "%s: cannot allocate %zu x %zu bytes", fn, (size_t)(count), \
            (size_t)(size))

/* Per-thread library handles on the legacy stream, created on first use. */
gsp_info gsp__cusparse_handle(cusparseHandle_t *h, const char *fn);
gsp_info gsp__cublas_handle(cublasHandle_t *h, const char *fn);

/* The device CSR of A (transposed: of A'), uploaded from A's host CSR or
 * built from the other one by cuSPARSE csr2csc, and cached in A->dev.
 * A's content is unchanged (its host storage may become CSR). */
gsp_info gsp__cu_matrix_csr(const struct gsp_dev_csr **out, struct gsp_matrix_s *A,
                            bool transposed, const char *fn);
/* The device copy of v (uploaded when v has none). */
gsp_info gsp__cu_vector_dev(struct gsp_dev_vector **out, struct gsp_vector_s *v, const char *fn);
/* The list of v's present indices on the device (built when missing). */
gsp_info gsp__cu_vector_index(const int32_t **idx, struct gsp_vector_s *v, const char *fn);
/* Make (x, b) the device-only content of v with nvals entries; the old
 * device arrays are freed. Cannot fail when v->dev exists (*spare, an
 * unused header from gsp__cu_vector_spare, is consumed otherwise). */
void gsp__cu_vector_commit(struct gsp_vector_s *v, void *x, uint8_t *b, int64_t nvals,
                           struct gsp_dev_vector **spare);
/* A header for gsp__cu_vector_commit, allocated up front so the commit
 * cannot fail; NULL-safe free. */
gsp_info gsp__cu_vector_spare(struct gsp_dev_vector **spare, const char *fn);
void gsp__cu_vector_spare_free(struct gsp_dev_vector *spare);

/* Launch geometry: blocks of 256 threads covering `threads` threads. */
static inline unsigned gsp__cu_blocks(int64_t threads) {
  return (unsigned)((threads + 255) / 256);
}

#endif /* GSP_CUDA_OPS_CUH */
