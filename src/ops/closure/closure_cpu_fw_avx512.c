/*
 * The AVX-512 instance of the CPU closure kernels (closure_cpu_fw_isa.h),
 * compiled with -mavx512f -mavx512bw -mavx512dq -mavx512vl (CMakeLists.txt) and called
 * only where CPUID reports them (closure_cpu_isa.c).
 */
#include "closure_cpu_isa.h"

#if GSP_CPU_X86_ISAS
#define FW_ISA avx512
#include "closure_cpu_simd_avx512.h"
#include "closure_cpu_fw_isa.h"
#else
typedef int gsp__closure_cpu_fw_avx512_unused; /* ISO C: no empty unit */
#endif
