/* Out-of-core and multi-GPU closure kernels for int32_t (one file per type:
 * parallel builds). */
#include "gsp_cuda_scale.cuh"

GSP_CU_SCALE_DEFINE_(i32, int32_t)
