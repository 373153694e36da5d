/* Out-of-core and multi-GPU closure kernels for double (one file per type:
 * parallel builds). */
#include "gsp_cuda_scale.cuh"

GSP_CU_SCALE_DEFINE_(f64, double)
