/* Closure kernels instantiated for int64_t (one file per type: parallel builds). */
#include "gsp_cuda_fw.cuh"

GSP_CU_DEFINE_TYPE_(i64, int64_t)
