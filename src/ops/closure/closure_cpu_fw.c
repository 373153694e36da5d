/*
 * The CPU closure kernels: the portable instance of closure_cpu_fw_isa.h
 * (baseline flags, no intrinsics) and the run-time choice between it and
 * the AVX2 / AVX-512 instances (closure_cpu_fw_avx2.c, _avx512.c).
 */
#define FW_ISA portable
#include "closure_cpu_fw_isa.h"

gsp_info gsp__closure_cpu_dense(void *d, int64_t *succ, int64_t n, gsp_type t, gsp_semiring s, bool reflexive,
                                bool *cycle, const gsp__progress *progress) {
  switch (gsp__cpu_isa()) {
#if GSP_CPU_X86_ISAS
  case GSP_CPU_AVX512:
    return gsp__closure_cpu_dense_avx512(d, succ, n, t, s, reflexive, cycle, progress);
  case GSP_CPU_AVX2:
    return gsp__closure_cpu_dense_avx2(d, succ, n, t, s, reflexive, cycle, progress);
#endif
  default:
    return gsp__closure_cpu_dense_portable(d, succ, n, t, s, reflexive, cycle, progress);
  }
}

gsp_info gsp__fw_tiles_get(gsp__fw_tiles *k, gsp_type t, gsp_semiring s) {
  bool ok = false;
  switch (gsp__cpu_isa()) {
#if GSP_CPU_X86_ISAS
  case GSP_CPU_AVX512:
    ok = gsp__fw_tiles_get_avx512(k, t, s);
    break;
  case GSP_CPU_AVX2:
    ok = gsp__fw_tiles_get_avx2(k, t, s);
    break;
#endif
  default:
    ok = gsp__fw_tiles_get_portable(k, t, s);
  }
  if (!ok) return GSP_ERROR(GSP_PANIC, "closure: no tile kernels for semiring %d on type %d", (int)s, (int)t);
  return GSP_SUCCESS;
}
