/*
 * The closure kernels per instruction set (cpu_isa.h decides which):
 * closure_cpu_fw_isa.h is compiled once per set (closure_cpu_fw.c with the
 * baseline flags, closure_cpu_fw_avx2.c with -mavx2 -mfma,
 * closure_cpu_fw_avx512.c with -mavx512f -mavx512bw -mavx512dq -mavx512vl).
 */
#ifndef GSP_CLOSURE_CPU_ISA_H
#define GSP_CLOSURE_CPU_ISA_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu_isa.h"
#include "gsp_progress.h"

/* The per-set entry points behind gsp__closure_cpu_dense and
 * gsp__fw_tiles_get (closure_cpu.h). */
struct gsp__fw_tiles_s;
#define GSP_CPU_ISA_ENTRIES_(isa)                                                                                      \
  gsp_info gsp__closure_cpu_dense_##isa(void *d, int64_t *succ, int64_t n, gsp_type t, gsp_semiring s, bool reflexive, \
                                        bool *cycle, const gsp__progress *progress);                                   \
  bool gsp__fw_tiles_get_##isa(struct gsp__fw_tiles_s *k, gsp_type t, gsp_semiring s);
GSP_CPU_ISA_ENTRIES_(portable)
#if GSP_CPU_X86_ISAS
GSP_CPU_ISA_ENTRIES_(avx2)
GSP_CPU_ISA_ENTRIES_(avx512)
#endif
#undef GSP_CPU_ISA_ENTRIES_

#endif /* GSP_CLOSURE_CPU_ISA_H */
