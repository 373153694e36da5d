/*
 * The AVX2 instance of the sparse star's kernels (star_kernels_isa.h),
 * compiled with -mavx2 -mfma (CMakeLists.txt) and called only where CPUID
 * reports them (star_kernels.c).
 */
#include "cpu_isa.h"

#if GSP_CPU_X86_ISAS
#define STAR_ISA avx2
#include "star_kernels_isa.h"
#else
typedef int gsp__star_kernels_avx2_unused; /* ISO C: no empty unit */
#endif
