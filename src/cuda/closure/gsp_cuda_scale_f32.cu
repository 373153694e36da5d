/* Out-of-core and multi-GPU closure kernels for float (one file per type:
 * parallel builds). */
#include "gsp_cuda_scale.cuh"

GSP_CU_SCALE_DEFINE_(f32, float)
