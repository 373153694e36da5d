/* Closure kernels instantiated for int32_t, plus the DPX min-plus instance
 * (VIADDMNMX.U32, exact for inputs >= 0: see PolMinPlusU32). */
#include "gsp_cuda_fw.cuh"

GSP_CU_DEFINE_TYPE_(i32, int32_t)

gsp_info gsp__cuda_fw_i32_dpx(int32_t *d, int32_t *succ, int64_t n, int64_t np, bool reflexive,
                              const gsp__progress *progress, bool *cycle) {
  auto plain = [&] { return gspcu::run_fw<PolMinPlusU32>(d, n, np, reflexive, cycle, progress); };
  return succ ? gspcu::closure_with_successors<GSP_MIN_PLUS, int32_t>(d, succ, n, np, reflexive, cycle, plain)
              : plain();
}

gsp_info gsp__cuda_fw_phases_i32_dpx(int32_t *d, int64_t n, int64_t np, int variant, float ms[3]) {
  return gspcu::timed_closure(variant, ms, [&](gspcu::PhaseClock *c, bool *cycle) {
    return gspcu::run_fw<PolMinPlusU32>(d, n, np, true, cycle, nullptr, c);
  });
}
