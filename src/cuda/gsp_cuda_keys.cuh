/*
 * Order-preserving integer keys of the numeric types, for atomicMin and
 * atomicMax on values of any type: the shortest-path kernels' distances
 * (sssp/, bf/) and the min / max products' accumulators
 * (graphblas/gsp_cuda_mxv.cu). Only .cu files include this.
 */
#ifndef GSP_CUDA_KEYS_CUH
#define GSP_CUDA_KEYS_CUH

#include <string.h>

#include <type_traits>

#include "gsp_cuda_internal.cuh"

namespace gsp_keys {

/* Key<T>: the weight T as an integer K ordered as the weights, for
 * atomicMin. Integers are their own keys; a float's bits with the magnitude
 * bits of a negative one flipped (sign-magnitude order made two's
 * complement): flip is 0 for the integers. */
template <class T> struct KeyBits {
  typedef typename std::conditional<sizeof(T) == 4, int, long long>::type K;
  static constexpr K flip = std::is_floating_point<T>::value ? (K)(~0ull >> (65 - 8 * sizeof(K))) : (K)0;
  static __host__ __device__ __forceinline__ K enc(T x) {
    K b;
    memcpy(&b, &x, sizeof b);
    return b >= 0 ? b : b ^ flip;
  }
  static __host__ __device__ __forceinline__ T dec(K k) {
    const K b = k >= 0 ? k : k ^ flip;
    T x;
    memcpy(&x, &b, sizeof x);
    return x;
  }
};
template <class T> struct Key;
#define GSP_KEY_(TY, ct, sfx, PINF, NINF)                           \
  template <> struct Key<ct> : KeyBits<ct> {                        \
    static __host__ __device__ __forceinline__ ct add(ct a, ct b) { \
      return gsp_min_plus_mul_##sfx(a, b);                          \
    }                                                               \
    static __host__ __device__ __forceinline__ ct inf() {           \
      return gsp_pinf_##sfx();                                      \
    }                                                               \
  };
GSP_NUM_TYPE_LIST(GSP_KEY_)
#undef GSP_KEY_

} // namespace gsp_keys

#endif /* GSP_CUDA_KEYS_CUH */
