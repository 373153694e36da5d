/*
 * The sparse star's kernels of the instruction set in use (cpu_isa.h).
 */
#include "cpu_isa.h"
#include "star.h"

const gsp__star_kernels *gsp__star_kernels_portable(gsp_type t, gsp_semiring s);
#if GSP_CPU_X86_ISAS
const gsp__star_kernels *gsp__star_kernels_avx2(gsp_type t, gsp_semiring s);
const gsp__star_kernels *gsp__star_kernels_avx512(gsp_type t, gsp_semiring s);
#endif

gsp_info gsp__star_kernels_get(gsp__star_kernels *k, gsp_type t, gsp_semiring s, const char *fn) {
  const gsp__star_kernels *pick = gsp__star_kernels_portable(t, s);
#if GSP_CPU_X86_ISAS
  const gsp__cpu_isa_t isa = gsp__cpu_isa();
  if (isa == GSP_CPU_AVX2) pick = gsp__star_kernels_avx2(t, s);
  if (isa == GSP_CPU_AVX512) pick = gsp__star_kernels_avx512(t, s);
#endif
  if (!pick)
    return GSP_ERROR(GSP_DOMAIN_MISMATCH, "%s: the sparse star has no %s closure of %s values", fn,
                     gsp__semiring_name(s), gsp__type_name(t));
  *k = *pick;
  return GSP_SUCCESS;
}
