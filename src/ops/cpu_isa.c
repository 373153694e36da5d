/*
 * The run-time choice of the CPU kernels' instruction set (cpu_isa.h):
 * CPUID once, capped by GSP_CPU_ISA, overridable by tests.
 */
#include <string.h>

#include "cpu_isa.h"

static const char *const isa_names[GSP_CPU_ISA_COUNT] = {"portable", "avx2", "avx512"};

/* -1: not decided yet; else a gsp__cpu_isa_t. */
static int isa_now = -1;

bool gsp__cpu_isa_supported(gsp__cpu_isa_t isa) {
  switch (isa) {
  case GSP_CPU_PORTABLE:
    return true;
#if GSP_CPU_X86_ISAS
  /* __builtin_cpu_supports also checks that the OS saves the registers
   * (XCR0), not only the CPUID bits. */
  case GSP_CPU_AVX2:
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  case GSP_CPU_AVX512:
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#endif
  default:
    return false;
  }
}

/* The best supported set, at most GSP_CPU_ISA's when that names one. */
static gsp__cpu_isa_t isa_auto(void) {
  int cap = GSP_CPU_ISA_COUNT - 1;
  const char *env = gsp__setting_cpu_isa();
  if (env)
    for (int i = 0; i < GSP_CPU_ISA_COUNT; i++)
      if (!strcmp(env, isa_names[i])) cap = i;
  while (cap > 0 && !gsp__cpu_isa_supported((gsp__cpu_isa_t)cap)) cap--;
  return (gsp__cpu_isa_t)cap;
}

gsp__cpu_isa_t gsp__cpu_isa(void) {
  int isa = __atomic_load_n(&isa_now, __ATOMIC_RELAXED);
  if (isa < 0) {
    isa = (int)isa_auto(); /* racing first calls decide the same */
    __atomic_store_n(&isa_now, isa, __ATOMIC_RELAXED);
  }
  return (gsp__cpu_isa_t)isa;
}

gsp_info gsp__cpu_isa_force(gsp__cpu_isa_t isa) {
  if (isa == GSP_CPU_ISA_COUNT) {
    __atomic_store_n(&isa_now, (int)isa_auto(), __ATOMIC_RELAXED);
    return GSP_SUCCESS;
  }
  if ((int)isa < 0 || isa > GSP_CPU_ISA_COUNT || !gsp__cpu_isa_supported(isa))
    return GSP_ERROR(GSP_INVALID_VALUE, "closure: instruction set %d is not available here", (int)isa);
  __atomic_store_n(&isa_now, (int)isa, __ATOMIC_RELAXED);
  return GSP_SUCCESS;
}

const char *gsp__cpu_isa_name(gsp__cpu_isa_t isa) {
  return (int)isa >= 0 && isa < GSP_CPU_ISA_COUNT ? isa_names[isa] : "?";
}
