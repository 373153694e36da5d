/*
 * Internal to src/cuda: the device copy of a matrix, error mapping, and the
 * (semiring, type) policies every kernel is templated on. Only .cu files
 * include this.
 */
#ifndef GSP_CUDA_INTERNAL_CUH
#define GSP_CUDA_INTERNAL_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "gsp_cuda.h"
#include "gsp_cuda_fw.h"
#include "gsp_cuda_guard.cuh"
#include "gsp_semiring.h"

struct gsp_dev_csr;   /* gsp_cuda_ops.cuh */
struct gsp_dev_graph; /* gsp_cuda_sssp.cuh */

/* The device copy of a matrix. Numeric matrices are dense np x np row-major
 * (np = n padded, see gsp_cuda_padded_n) with absent entries holding the zero
 * of semiring `enc`; bool matrices are bit-packed, np/64 64-bit words a row,
 * bit j of a row is entry (i, j). Padding rows and columns hold "no edge". */
struct gsp_dev_matrix {
  void *d;
  int64_t n, np;
  gsp_semiring enc; /* whose zero marks "absent" (MIN_PLUS ~ MIN_MAX, MAX_* alike) */
  bool closed;      /* d is the closure under `closed_sr` (re-closing cannot fail) */
  gsp_semiring closed_sr;
  bool nonneg; /* every finite value >= 0 (enables the DPX int32 path) */
  /* The sparse cache (gsp_cuda_ops_mem.cu): CSR copies of the host CSR and
   * of its transpose, built when a product or a shortest-path call first
   * needs them (d may then be NULL), and what the shortest-path calls derive
   * from them (graph: their view, the weight sum, a workspace; its presence
   * also means the weights passed the shortest-path checks). All freed with
   * the rest of the device copy, i.e. by every change of the matrix. */
  struct gsp_dev_csr *csr, *csrT;
  struct gsp_dev_graph *graph;
};
/* Release the sparse cache of dev (NULL-safe): csr, csrT and graph;
 * defined in gsp_cuda_ops_mem.cu. */
void gsp__cuda_csr_release(struct gsp_dev_matrix *dev);
/* Free what graph points at (gsp_cuda_sssp_graph.cu). */
void gsp__cuda_graph_free(struct gsp_dev_graph *graph);
/* Load the many-source kernels of gsp_cuda_msssp.cu now (lazy module
 * loading would on their first launch, inside the first call); for
 * gsp_cuda_start. */
void gsp__cuda_msssp_preload(void);

/* cudaError_t -> gsp_info with the message recorded; clears the error state
 * where CUDA allows it so the library stays usable after e.g. an OOM. */
gsp_info gsp__cuda_error(cudaError_t e, const char *file, int line, const char *what);

/* A fault armed by gsp__debug_device_fault_after, or cudaSuccess. */
static inline cudaError_t gsp__cuda_injected(void) {
  switch (gsp__device_fault_due()) {
  case GSP_FAULT_DEVICE_OOM:
    return cudaErrorMemoryAllocation;
  case GSP_FAULT_LAUNCH:
    return cudaErrorLaunchOutOfResources;
  default:
    return cudaSuccess;
  }
}

/* Every CUDA call in src/cuda goes through this (GSP_FREE_ALL as in C); an
 * injected fault replaces the call (tests of the error paths). */
#define GSP_CUDA_TRY(call)                                          \
  do {                                                              \
    cudaError_t gsp_cu_e_ = gsp__cuda_injected();                   \
    if (gsp_cu_e_ == cudaSuccess) gsp_cu_e_ = (call);               \
    if (gsp_cu_e_ != cudaSuccess) {                                 \
      info = gsp__cuda_error(gsp_cu_e_, __FILE__, __LINE__, #call); \
      GSP_FREE_ALL;                                                 \
      return info;                                                  \
    }                                                               \
  } while (0)
/* After every kernel launch. */
#define GSP_CUDA_LAUNCHED() GSP_CUDA_TRY(cudaGetLastError())

/* ---- (semiring, type) operators, taken from gsp_semiring.h ---- */

template <gsp_semiring S, class T> struct Sr;
#define GSP_CU_SR_(SRE, sr, ct, sfx)                                \
  template <> struct Sr<SRE, ct> {                                  \
    static __host__ __device__ __forceinline__ ct add(ct a, ct b) { \
      return gsp_##sr##_add_##sfx(a, b);                            \
    }                                                               \
    static __host__ __device__ __forceinline__ ct mul(ct a, ct b) { \
      return gsp_##sr##_mul_##sfx(a, b);                            \
    }                                                               \
    static __host__ __device__ __forceinline__ ct zero() {          \
      return gsp_##sr##_zero_##sfx();                               \
    }                                                               \
    static __host__ __device__ __forceinline__ ct one() {           \
      return gsp_##sr##_one_##sfx();                                \
    }                                                               \
  };
#define GSP_CU_SR_TYPES_(SRE, sr)   \
  GSP_CU_SR_(SRE, sr, int32_t, i32) \
  GSP_CU_SR_(SRE, sr, int64_t, i64) \
  GSP_CU_SR_(SRE, sr, float, f32)   \
  GSP_CU_SR_(SRE, sr, double, f64)
GSP_CU_SR_TYPES_(GSP_MIN_PLUS, min_plus)
GSP_CU_SR_TYPES_(GSP_MAX_PLUS, max_plus)
GSP_CU_SR_TYPES_(GSP_MAX_MIN, max_min)
GSP_CU_SR_TYPES_(GSP_MIN_MAX, min_max)
GSP_CU_SR_TYPES_(GSP_PLUS_TIMES, plus_times)
GSP_CU_SR_(GSP_OR_AND, or_and, bool, b)
#undef GSP_CU_SR_TYPES_
#undef GSP_CU_SR_

/* The add of gsp_semiring.h for floats is `b < a ? b : a`, which nvcc must
 * compile to FSETP+FSEL (it keeps a NaN in a, and +0 for min(+0,-0)). In the
 * closure a (the accumulator) is never NaN and b's NaN case gives a in both,
 * so fminf/fmaxf (one FMNMX) compute the same values; only the sign of a zero
 * may differ, which compares equal. Integers already give IMNMX. The
 * multiply of MAX_MIN (min) and MIN_MAX (max) likewise: the closure's inputs
 * hold no NaN (gsp_closure rejects them) and min/max make none. */
template <gsp_semiring S, class T> struct Fast {
  static __device__ __forceinline__ T add(T a, T b) {
    return Sr<S, T>::add(a, b);
  }
  static __device__ __forceinline__ T mul(T a, T b) {
    return Sr<S, T>::mul(a, b);
  }
};
#define GSP_CU_FAST_(SRE, ct, addfn, mulfn)                \
  template <> struct Fast<SRE, ct> {                       \
    static __device__ __forceinline__ ct add(ct a, ct b) { \
      return addfn(a, b);                                  \
    }                                                      \
    static __device__ __forceinline__ ct mul(ct a, ct b) { \
      return mulfn(a, b);                                  \
    }                                                      \
  };
GSP_CU_FAST_(GSP_MIN_PLUS, float, fminf, gsp_min_plus_mul_f32)
GSP_CU_FAST_(GSP_MIN_MAX, float, fminf, fmaxf)
GSP_CU_FAST_(GSP_MAX_PLUS, float, fmaxf, gsp_max_plus_mul_f32)
GSP_CU_FAST_(GSP_MAX_MIN, float, fmaxf, fminf)
GSP_CU_FAST_(GSP_MIN_PLUS, double, fmin, gsp_min_plus_mul_f64)
GSP_CU_FAST_(GSP_MIN_MAX, double, fmin, fmax)
GSP_CU_FAST_(GSP_MAX_PLUS, double, fmax, gsp_max_plus_mul_f64)
GSP_CU_FAST_(GSP_MAX_MIN, double, fmax, fmin)
#undef GSP_CU_FAST_

/* Policy for a dense numeric closure: T is the element of C and B, TA the
 * element of the staged A operand (A' from the workspace), fma the task
 * c = add(c, mul(a, b)). */
template <gsp_semiring S, class T> struct PolNum {
  typedef T TC;
  typedef T TA;
  static const gsp_semiring sr = S;
  static __device__ __forceinline__ T fma(T c, T a, T b) {
    return Fast<S, T>::add(c, Fast<S, T>::mul(a, b));
  }
  /* the candidate that fma compares with c: fma(c, a, b) is c or this */
  static __device__ __forceinline__ T cand(T a, T b) {
    return Sr<S, T>::mul(a, b);
  }
  static __host__ __device__ __forceinline__ T zero() {
    return Sr<S, T>::zero();
  }
  static __host__ __device__ __forceinline__ T one() {
    return Sr<S, T>::one();
  }
  static __device__ __forceinline__ T add(T a, T b) {
    return Sr<S, T>::add(a, b);
  }
};

/* INT32 MIN_PLUS when every value is >= 0 (absent = INT32_MAX): the unsigned
 * sum of two values in [0, INT32_MAX] cannot wrap, and whenever the exact sum
 * is >= INT32_MAX (an infinity involved, or a saturating overflow) the
 * saturating gsp_plus_sat_inf_i32 gives INT32_MAX >= c, so min leaves c: the
 * same as unsigned min(c, a + b). One DPX VIADDMNMX.U32 per task. */
struct PolMinPlusU32 : PolNum<GSP_MIN_PLUS, int32_t> {
  static __device__ __forceinline__ int32_t fma(int32_t c, int32_t a, int32_t b) {
    return (int32_t)__viaddmin_u32((unsigned)a, (unsigned)b, (unsigned)c);
  }
  static __device__ __forceinline__ int32_t cand(int32_t a, int32_t b) {
    return (int32_t)((unsigned)a + (unsigned)b);
  }
};

/* OR_AND on 64-bit words: C and B are words of 64 columns, A is a 32-bit mask
 * (0 or ~0) for one bit of A, widened to 64 bits: one LOP3 per 32 tasks. */
struct PolBits {
  typedef uint64_t TC;
  typedef uint32_t TA;
  static const gsp_semiring sr = GSP_OR_AND;
  static __device__ __forceinline__ uint64_t fma(uint64_t c, uint32_t a, uint64_t b) {
    return gsp_or_and_fma_w64(c, ((uint64_t)a << 32) | a, b);
  }
};

#endif /* GSP_CUDA_INTERNAL_CUH */
