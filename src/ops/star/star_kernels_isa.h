/*
 * The sparse star's kernels for one instruction set, stamped from
 * star_kernels_body.h for every closure semiring gsp has and every type it
 * applies to (17 pairs). Included by star_kernels_portable.c, _avx2.c and
 * _avx512.c with STAR_ISA defined; each unit is compiled with its own -m
 * flags (CMakeLists.txt) and star_kernels.c picks one at run time
 * (cpu_isa.h). The sets differ only in vector width: same operations,
 * same order, bit-identical results.
 */
#include <string.h>

#include "gsp_semiring.h"
#include "star.h"

/* The four numeric semirings of each numeric type (star_kernels_num.h),
 * then OR_AND on bool. */
#define STAR_CT  int32_t
#define STAR_SFX i32
#include "star_kernels_num.h"
#define STAR_CT  int64_t
#define STAR_SFX i64
#include "star_kernels_num.h"
#define STAR_CT  float
#define STAR_SFX f32
#include "star_kernels_num.h"
#define STAR_CT  double
#define STAR_SFX f64
#include "star_kernels_num.h"

#define STAR_CT  bool
#define STAR_SFX b
#define STAR_SR  or_and
#define STAR_SRE GSP_OR_AND
#include "star_kernels_body.h"
#undef STAR_SR
#undef STAR_SRE
#undef STAR_CT
#undef STAR_SFX

#define STAR_ISA_FN_(isa) gsp__star_kernels_##isa
#define STAR_ISA_FN(isa)  STAR_ISA_FN_(isa)

const gsp__star_kernels *STAR_ISA_FN(STAR_ISA)(gsp_type t, gsp_semiring s) {
#define STAR_PICK_(sr)                               \
  return t == GSP_INT32   ? &star_##sr##_i32_kernels \
         : t == GSP_INT64 ? &star_##sr##_i64_kernels \
         : t == GSP_FP32  ? &star_##sr##_f32_kernels \
         : t == GSP_FP64  ? &star_##sr##_f64_kernels \
                          : NULL;
  switch (s) {
  case GSP_MIN_PLUS:
    STAR_PICK_(min_plus)
  case GSP_MAX_PLUS:
    STAR_PICK_(max_plus)
  case GSP_MAX_MIN:
    STAR_PICK_(max_min)
  case GSP_MIN_MAX:
    STAR_PICK_(min_max)
  case GSP_OR_AND:
    return t == GSP_BOOL ? &star_or_and_b_kernels : NULL;
  default:
    return NULL;
  }
#undef STAR_PICK_
}
