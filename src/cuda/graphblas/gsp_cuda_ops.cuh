/*
 * Internal to the sparse products (gsp_cuda_ops_mem.cu, gsp_cuda_mxv.cu,
 * gsp_cuda_mxm.cu): device vector copies (and, through
 * gsp_cuda_csr_cache.cuh, the device CSR cache), stream-ordered device
 * memory, cuSPARSE / cuBLAS handles, and the error mapping that names the
 * public function. Only .cu files include this.
 */
#ifndef GSP_CUDA_OPS_CUH
#define GSP_CUDA_OPS_CUH

#include <cublas_v2.h>
#include <cusparse.h>

#include "gsp_cuda_csr_cache.cuh" /* gsp_dev_csr, gsp__cu_matrix_csr */
#include "gsp_cuda_internal.cuh"

/* A vector on the device: values and presence, both of length n, and, when
 * built, the list of present indices (the push kernels' frontier). */
struct gsp_dev_vector {
  int64_t n;
  void *x;
  uint8_t *b;
  int32_t *idx; /* NULL until built; nvals entries in any order */
};

/* Device memory for the products: stream-ordered on the legacy stream, so
 * temporaries are cheap after the first call (the pool keeps up to 256 MiB
 * between calls). Zero bytes allocate one word, so empty objects need no
 * special case. */
gsp_info gsp__cu_alloc(void **p, size_t bytes, const char *fn);
void gsp__cu_free(void *p);

/* cudaError_t -> gsp_info with "fn: ..." (clears non-sticky errors). */
gsp_info gsp__cu_ops_error(cudaError_t e, const char *file, int line, const char *fn, const char *what);
gsp_info gsp__cusparse_error(cusparseStatus_t e, const char *file, int line, const char *fn, const char *what);
gsp_info gsp__cublas_error(cublasStatus_t e, const char *file, int line, const char *fn, const char *what);

/* As GSP_CUDA_TRY (injected faults included), naming `fn` (a variable in
 * scope). */
#define GSP_CU_TRY(call)                                                  \
  do {                                                                    \
    cudaError_t gsp_cu_e_ = gsp__cuda_injected();                         \
    if (gsp_cu_e_ == cudaSuccess) gsp_cu_e_ = (call);                     \
    if (gsp_cu_e_ != cudaSuccess) {                                       \
      info = gsp__cu_ops_error(gsp_cu_e_, __FILE__, __LINE__, fn, #call); \
      GSP_FREE_ALL;                                                       \
      return info;                                                        \
    }                                                                     \
  } while (0)
#define GSP_CU_LAUNCHED() GSP_CU_TRY(cudaGetLastError())
/* A library call returning its status type ST, ok on success; err(status,
 * file, line, fn, call) records the failure. */
#define GSP_CU_LIB_TRY_(ST, ok, err, call)                   \
  do {                                                       \
    ST gsp_lib_e_ = (call);                                  \
    if (gsp_lib_e_ != (ok)) {                                \
      info = err(gsp_lib_e_, __FILE__, __LINE__, fn, #call); \
      GSP_FREE_ALL;                                          \
      return info;                                           \
    }                                                        \
  } while (0)
#define GSP_CUSPARSE_TRY(call)    GSP_CU_LIB_TRY_(cusparseStatus_t, CUSPARSE_STATUS_SUCCESS, gsp__cusparse_error, call)
#define GSP_CUBLAS_TRY(call)      GSP_CU_LIB_TRY_(cublasStatus_t, CUBLAS_STATUS_SUCCESS, gsp__cublas_error, call)
#define GSP_CU_DALLOC(ptr, bytes) GSP_TRY(gsp__cu_alloc((void **)&(ptr), (bytes), fn))

/* GSP_ALLOC for C++ (no implicit conversion from void *), naming fn. */
#define GSP_CU_HALLOC(ptr, count, size)                                                             \
  GSP_CHECK(((ptr) = (decltype(ptr))gsp__malloc_array((count), (size))) != NULL, GSP_OUT_OF_MEMORY, \
            "%s: cannot allocate %zu x %zu bytes", fn, (size_t)(count), (size_t)(size))

/* Per-thread library handles on the legacy stream, created on first use. */
gsp_info gsp__cusparse_handle(cusparseHandle_t *h, const char *fn);
gsp_info gsp__cublas_handle(cublasHandle_t *h, const char *fn);

/* The device copy of v (*v->dev; uploaded from v's host arrays when v has
 * none). */
gsp_info gsp__cu_vector_dev(struct gsp_dev_vector **out, const gsp_cuda_vec *v, const char *fn);
/* The list of v's present indices on the device (built when missing). */
gsp_info gsp__cu_vector_index(const int32_t **idx, const gsp_cuda_vec *v, const char *fn);
/* Make (x, b) the content of v's device copy; the old device arrays are
 * freed. Cannot fail when *v->dev exists (*spare, an unused header from
 * gsp__cu_vector_spare, is consumed otherwise). */
void gsp__cu_vector_commit(const gsp_cuda_vec *v, void *x, uint8_t *b, struct gsp_dev_vector **spare);
/* A header for gsp__cu_vector_commit, allocated up front so the commit
 * cannot fail; NULL-safe free. */
gsp_info gsp__cu_vector_spare(struct gsp_dev_vector **spare, const char *fn);
void gsp__cu_vector_spare_free(struct gsp_dev_vector *spare);

/* What a cuSPARSE PLUS_TIMES product on FP32/FP64 values needs: the
 * handle, the value type and the scalars 1 and 0 of that type (static
 * storage); and cuSPARSE's descriptor of a device CSR (32-bit indices). */
struct gsp_cu_plus {
  cusparseHandle_t h;
  cudaDataType dt;
  const void *one, *zero;
};
gsp_info gsp__cu_plus_begin(gsp_cu_plus *k, gsp_type t, const char *fn);
gsp_info gsp__cu_csr_descr(cusparseSpMatDescr_t *mat, const gsp_dev_csr *P, cudaDataType dt, const char *fn);

/* return f.run<S, T>() for the (semiring, type) pair (s, t) of the
 * semiring table (every numeric semiring on the four numeric types, OR_AND
 * on bool); GSP_PANIC for a pair without one. */
template <class F> gsp_info gsp__cu_sr_dispatch(gsp_semiring s, gsp_type t, const char *fn, const F &f) {
#define GSP_CU_CASE_(SR, T, ct) \
  if (s == GSP_##SR && t == GSP_##T) return f.template run<GSP_##SR, ct>();
#define GSP_CU_NUM_(SR, sr, a, m, z, o) \
  GSP_CU_CASE_(SR, INT32, int32_t)      \
  GSP_CU_CASE_(SR, INT64, int64_t) GSP_CU_CASE_(SR, FP32, float) GSP_CU_CASE_(SR, FP64, double)
  GSP_NUM_SEMIRING_LIST(GSP_CU_NUM_)
  GSP_CU_CASE_(OR_AND, BOOL, bool)
#undef GSP_CU_NUM_
#undef GSP_CU_CASE_
  return GSP_ERROR(GSP_PANIC, "%s: no GPU kernel for %s on %s", fn, gsp__semiring_name(s), gsp__type_name(t));
}

/* Launch geometry: blocks of 256 threads covering `threads` threads. */
static inline unsigned gsp__cu_blocks(int64_t threads) {
  return (unsigned)((threads + 255) / 256);
}

#endif /* GSP_CUDA_OPS_CUH */
