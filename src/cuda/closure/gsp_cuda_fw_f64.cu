/* Closure kernels instantiated for double (one file per type: parallel builds). */
#include "gsp_cuda_fw.cuh"

GSP_CU_DEFINE_TYPE_(f64, double)
