/* Closure kernels instantiated for float (one file per type: parallel builds). */
#include "gsp_cuda_fw.cuh"

GSP_CU_DEFINE_TYPE_(f32, float)
