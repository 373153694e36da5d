/* Closure kernels instantiated for int32_t, plus the DPX min-plus instance
 * (VIADDMNMX.U32, exact for inputs >= 0: see PolMinPlusU32). */
#include "gsp_cuda_fw.cuh"

GSP_CU_DEFINE_TYPE_(i32, int32_t)

gsp_info gsp__cuda_fw_i32_dpx(int32_t *d, int32_t *succ, int64_t n, int64_t np, bool reflexive,
                              bool *cycle) {
  return succ ? gspcu::run_fw<PolMinPlusU32, true>(d, succ, n, np, reflexive, cycle)
              : gspcu::run_fw<PolMinPlusU32, false>(d, succ, n, np, reflexive, cycle);
}
