/*
 * The CPU's instruction set for the vector kernels, one decision for every
 * family (the closure's Floyd-Warshall units closure_cpu_fw_*.c, the batched
 * many-source relaxation msssp_cpu_batch.c): CPUID once, at the first call,
 * never -march=native, so one build runs on any x86-64 (and the portable
 * units alone on other processors).
 *
 * GSP_CPU_ISA=portable|avx2|avx512 in the environment (read in settings.c)
 * caps the choice (a set the processor lacks falls back to the best one it
 * has); tests force each set with gsp__cpu_isa_force. Every set gives
 * bit-identical results: the same operations on the same operands in the
 * same order, only wider.
 */
#ifndef GSP_CPU_ISA_H
#define GSP_CPU_ISA_H

#include <stdbool.h>
#include <stdint.h>

#include "gsp_internal.h"

/* Whether the AVX2 and AVX-512 units are built (x86-64, GCC or Clang). */
#if (defined(__x86_64__) || defined(_M_X64)) && defined(__GNUC__)
#define GSP_CPU_X86_ISAS 1
#else
#define GSP_CPU_X86_ISAS 0
#endif

typedef enum { GSP_CPU_PORTABLE = 0, GSP_CPU_AVX2 = 1, GSP_CPU_AVX512 = 2, GSP_CPU_ISA_COUNT = 3 } gsp__cpu_isa_t;

/* The set the kernels use now: the forced one, else the best the processor
 * supports within GSP_CPU_ISA's cap (decided once). */
GSP_COMPANION gsp__cpu_isa_t gsp__cpu_isa(void);
/* Whether this build and processor can run set isa. */
GSP_COMPANION bool gsp__cpu_isa_supported(gsp__cpu_isa_t isa);
/* Use isa from now on (GSP_CPU_ISA_COUNT: back to the automatic choice).
 * GSP_INVALID_VALUE, nothing changed, when it is not supported. For tests
 * and benchmarks: not meant to be switched while a closure runs. */
GSP_COMPANION gsp_info gsp__cpu_isa_force(gsp__cpu_isa_t isa);
/* "portable", "avx2", "avx512". */
GSP_COMPANION const char *gsp__cpu_isa_name(gsp__cpu_isa_t isa);

#endif /* GSP_CPU_ISA_H */
