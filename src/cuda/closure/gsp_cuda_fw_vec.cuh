/*
 * Register arrays to and from memory (global or shared) in 16-byte (else
 * 8-byte) vector accesses, for the closure kernels: the product tiles
 * (gsp_cuda_fw.cuh) and the diagonal tile (gsp_cuda_fw_diag.cuh).
 */
#ifndef GSP_CUDA_FW_VEC_CUH
#define GSP_CUDA_FW_VEC_CUH

#include <stdint.h>
#include <string.h>

#include <cuda_runtime.h>

#include "gsp_cuda_fw.h"

namespace gspcu {

constexpr int FWB = GSP_CUDA_FW_BLOCK; /* FW tile = k-depth of a round */

/* The vector of an access of VB bytes (16: uint4, 8: uint2). */
template <int VB> struct VecOf;
template <> struct VecOf<16> { typedef uint4 V; };
template <> struct VecOf<8> { typedef uint2 V; };
template <class X, int N> __host__ __device__ constexpr int vec_bytes() {
  static_assert(N * sizeof(X) % 8 == 0, "8- or 16-byte chunks");
  return N * sizeof(X) % 16 == 0 ? 16 : 8;
}

/* dst[OFF .. OFF+N) = src[0 .. N) with 16-byte (else 8-byte) vector
 * accesses; src aligned to the access width. stv: the reverse. */
template <int N, int OFF, int M, class X> __device__ __forceinline__ void ldv(X (&dst)[M], const X *src) {
  constexpr int VB = vec_bytes<X, N>(), E = VB / sizeof(X);
  typedef typename VecOf<VB>::V V;
#pragma unroll
  for (int q = 0; q < N / E; q++) {
    const V v = reinterpret_cast<const V *>(src)[q];
    uint32_t w[VB / 4];
    memcpy(w, &v, VB);
#pragma unroll
    for (int e = 0; e < E; e++) memcpy(&dst[OFF + q * E + e], &w[e * sizeof(X) / 4], sizeof(X));
  }
}
template <int N, int OFF, int M, class X> __device__ __forceinline__ void stv(X *dst, const X (&src)[M]) {
  constexpr int VB = vec_bytes<X, N>(), E = VB / sizeof(X);
  typedef typename VecOf<VB>::V V;
#pragma unroll
  for (int q = 0; q < N / E; q++) {
    uint32_t w[VB / 4];
#pragma unroll
    for (int e = 0; e < E; e++) memcpy(&w[e * sizeof(X) / 4], &src[OFF + q * E + e], sizeof(X));
    V v;
    memcpy(&v, w, VB);
    reinterpret_cast<V *>(dst)[q] = v;
  }
}

} /* namespace gspcu */

#endif /* GSP_CUDA_FW_VEC_CUH */
