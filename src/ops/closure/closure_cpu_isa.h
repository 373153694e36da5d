/*
 * Instruction sets of the CPU closure kernels. closure_cpu_fw_isa.h is
 * compiled once per set (closure_cpu_fw.c with the baseline flags,
 * closure_cpu_fw_avx2.c with -mavx2 -mfma, closure_cpu_fw_avx512.c with
 * -mavx512f -mavx512bw -mavx512dq -mavx512vl), and one is chosen once, from
 * CPUID, at the first call: never -march=native, so one build runs on any
 * x86-64 (and the portable unit alone on other processors).
 *
 * GSP_CPU_ISA=portable|avx2|avx512 in the environment caps the choice (a
 * set the processor lacks falls back to the best one it has); tests force
 * each set with gsp__cpu_isa_force. Every set gives bit-identical results:
 * the same operations on the same operands in the same order, only wider.
 */
#ifndef GSP_CLOSURE_CPU_ISA_H
#define GSP_CLOSURE_CPU_ISA_H

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

/* The per-set entry points behind gsp__closure_cpu_dense and
 * gsp__fw_tiles_get (closure_cpu.h). */
struct gsp__fw_tiles_s;
#define GSP_CPU_ISA_ENTRIES_(isa)                                                                                      \
  gsp_info gsp__closure_cpu_dense_##isa(void *d, int64_t *succ, int64_t n, gsp_type t, gsp_semiring s, bool reflexive, \
                                        bool *cycle);                                                                  \
  bool gsp__fw_tiles_get_##isa(struct gsp__fw_tiles_s *k, gsp_type t, gsp_semiring s);
GSP_CPU_ISA_ENTRIES_(portable)
#if GSP_CPU_X86_ISAS
GSP_CPU_ISA_ENTRIES_(avx2)
GSP_CPU_ISA_ENTRIES_(avx512)
#endif
#undef GSP_CPU_ISA_ENTRIES_

#endif /* GSP_CLOSURE_CPU_ISA_H */
