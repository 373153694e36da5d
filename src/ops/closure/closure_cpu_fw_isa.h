/*
 * Blocked Floyd-Warshall on the CPU (OpenMP) for one instruction set,
 * stamped per (semiring, type) from one generic body
 * (closure_cpu_fw_body.h). Venkataraman-style tiles: per k-block, phase 1
 * closes the diagonal tile, phase 2 updates its row and column panels in
 * parallel, phase 3 every remaining tile in parallel.
 *
 * This file is the template of one translation unit per instruction set
 * (closure_cpu_isa.h): it is included with FW_ISA defined (portable, avx2,
 * avx512), and, by the SIMD units, after the vector operations of their
 * instruction set (closure_cpu_simd_*.h), which give phase 3 its
 * register-tiled kernel. The units are compiled with their own -m flags;
 * closure_cpu_fw.c picks one at run time.
 */
#include <string.h>

#include "closure_cpu.h"
#include "gsp_semiring.h"

#if defined(__GNUC__)
#define FW_INLINE static inline __attribute__((always_inline))
#else
#define FW_INLINE static inline
#endif

#define TB GSP_FW_TILE

#define FW_CAT_(a, b, c, d) a##b##c##d
#define FW_CAT(a, b, c, d)  FW_CAT_(a, b, c, d)

/* Semirings with a closure, X(SR, sr): PLUS_TIMES has none (the series
 * I + A + A^2 + ... diverges in general). Operators: gsp_semiring.h. */
#define FW_NUM_SEMIRINGS(X)  X(MIN_PLUS, min_plus) X(MAX_PLUS, max_plus) X(MAX_MIN, max_min) X(MIN_MAX, min_max)
#define FW_BOOL_SEMIRINGS(X) X(OR_AND, or_and)

/* One instance of the template per type of GSP_TYPE_LIST; FW_INT tells
 * the SIMD tile kernel how the type's multiply saturates. */
#define FW_SR_LIST FW_BOOL_SEMIRINGS
#define FW_CT      bool
#define FW_SFX     b
#include "closure_cpu_fw_body.h"
#undef FW_CT
#undef FW_SFX
#undef FW_SR_LIST

#ifdef FW_SIMD_ISA
#define FW_TILE_SIMD 1
#endif
#define FW_SR_LIST FW_NUM_SEMIRINGS
#define FW_INT     1
#define FW_CT      int32_t
#define FW_SFX     i32
#include "closure_cpu_fw_body.h"
#undef FW_CT
#undef FW_SFX
#define FW_CT  int64_t
#define FW_SFX i64
#include "closure_cpu_fw_body.h"
#undef FW_CT
#undef FW_SFX
#undef FW_INT
#define FW_INT 0
#define FW_CT  float
#define FW_SFX f32
#include "closure_cpu_fw_body.h"
#undef FW_CT
#undef FW_SFX
#define FW_CT  double
#define FW_SFX f64
#include "closure_cpu_fw_body.h"
#undef FW_CT
#undef FW_SFX
#undef FW_INT
#undef FW_SR_LIST

gsp_info FW_CAT(gsp__closure_cpu_dense_, FW_ISA, , )(void *d, int64_t *succ, int64_t n, gsp_type t, gsp_semiring s,
                                                     bool reflexive, bool *cycle, const gsp__progress *progress) {
  switch (t) {
#define FW_TYPE_CASE_(T, ct, sfx) \
  case GSP_##T:                   \
    return fw_dense_##sfx((ct *)d, succ, n, s, reflexive, cycle, progress);
    GSP_TYPE_LIST(FW_TYPE_CASE_)
#undef FW_TYPE_CASE_
  }
  return GSP_ERROR(GSP_PANIC, "closure: type %d has no CPU kernel", (int)t);
}

bool FW_CAT(gsp__fw_tiles_get_, FW_ISA, , )(gsp__fw_tiles *k, gsp_type t, gsp_semiring s) {
  switch (t) {
#define FW_TILES_CASE_(T, ct, sfx) \
  case GSP_##T:                    \
    return fw_tiles_##sfx(k, s);
    GSP_TYPE_LIST(FW_TILES_CASE_)
#undef FW_TILES_CASE_
  }
  return false;
}
