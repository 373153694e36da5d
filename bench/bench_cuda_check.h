/* The GPU benchmarks' failure checks: a benchmark that cannot run its
 * case says why and exits (it is a tool, not the library). */
#ifndef BENCH_CUDA_CHECK_H
#define BENCH_CUDA_CHECK_H

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "gsp.h"

#define CK(x)                                                                                          \
  do {                                                                                                 \
    cudaError_t e_ = (x);                                                                              \
    if (e_ != cudaSuccess) {                                                                           \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorString(e_), __FILE__, __LINE__, #x); \
      exit(1);                                                                                         \
    }                                                                                                  \
  } while (0)
#define GK(x)                                                                    \
  do {                                                                           \
    gsp_info i_ = (x);                                                           \
    if (i_ != GSP_SUCCESS) {                                                     \
      fprintf(stderr, "%s -> %s: %s\n", #x, gsp_strerror(i_), gsp_last_error()); \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

#endif /* BENCH_CUDA_CHECK_H */
