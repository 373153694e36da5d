/*
 * The AVX-512 instance of the sparse star's kernels (star_kernels_isa.h),
 * compiled with -mavx512f/bw/dq/vl (CMakeLists.txt) and called only where
 * CPUID reports them (star_kernels.c).
 */
#include "cpu_isa.h"

#if GSP_CPU_X86_ISAS
#define STAR_ISA avx512
#include "star_kernels_isa.h"
#else
typedef int gsp__star_kernels_avx512_unused; /* ISO C: no empty unit */
#endif
