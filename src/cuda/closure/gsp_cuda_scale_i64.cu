/* Out-of-core and multi-GPU closure kernels for int64_t (one file per type:
 * parallel builds). */
#include "gsp_cuda_scale.cuh"

GSP_CU_SCALE_DEFINE_(i64, int64_t)
