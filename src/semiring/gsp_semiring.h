/*
 * The one definition of every semiring and binary operator, compiled by both
 * the C compiler and nvcc. Instances are generated from two X-macro tables:
 *
 *   GSP_NUM_TYPE_LIST(X)       X(TYPE, ctype, suffix, POS_INF, NEG_INF)
 *   GSP_NUM_SEMIRING_LIST(X)   X(SEMIRING, name, add, mul, zero, one)
 *
 * and the facts every part of the library asks about a semiring (which have
 * a closure, which cycles diverge, ...) from GSP_SEMIRING_FACTS below.
 *
 * For each (semiring, numeric type) the functions
 *   gsp_<sr>_add_<sfx>(a, b), gsp_<sr>_mul_<sfx>(a, b),
 *   gsp_<sr>_zero_<sfx>(),    gsp_<sr>_one_<sfx>()
 * exist, plus gsp_or_and_*_b for bool. Identities are written out
 * explicitly (INFINITY, INT32_MAX): never through numeric_limits.
 */
#ifndef GSP_SEMIRING_H
#define GSP_SEMIRING_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "gsp.h"

#ifdef __CUDACC__
#define GSP_HD static inline __host__ __device__
#else
#define GSP_HD static inline
#endif

/* Numeric types: X(TYPE, ctype, suffix, +infinity, -infinity). For integers
 * the extreme values play the role of the infinities. */
#define GSP_NUM_TYPE_LIST(X)                   \
  X(INT32, int32_t, i32, INT32_MAX, INT32_MIN) \
  X(INT64, int64_t, i64, INT64_MAX, INT64_MIN) \
  X(FP32, float, f32, INFINITY, -INFINITY)     \
  X(FP64, double, f64, ((double)INFINITY), ((double)-INFINITY))

/* All types: X(TYPE, ctype, suffix). */
#define GSP_TYPE_LIST(X) \
  X(BOOL, bool, b)       \
  X(INT32, int32_t, i32) \
  X(INT64, int64_t, i64) \
  X(FP32, float, f32)    \
  X(FP64, double, f64)

/* Semirings over numeric types: X(SR, lower-case name, add op, mul op,
 * zero, one) where add/mul name the operators below and zero/one are PINF,
 * NINF or a literal. OR_AND (bool) is defined separately. */
#define GSP_NUM_SEMIRING_LIST(X)                     \
  X(MIN_PLUS, min_plus, min, plus_sat_inf, PINF, 0)  \
  X(MAX_PLUS, max_plus, max, plus_sat_ninf, NINF, 0) \
  X(MAX_MIN, max_min, max, min, NINF, PINF)          \
  X(MIN_MAX, min_max, min, max, PINF, NINF)          \
  X(PLUS_TIMES, plus_times, plus, times, 0, 1)

/* ---- primitive operators, one per (operator, type) ---- */

#define GSP_DEF_PRIMS_(T, ct, sfx, PINF_, NINF_) \
  GSP_HD ct gsp_min_##sfx(ct a, ct b) {          \
    return b < a ? b : a;                        \
  }                                              \
  GSP_HD ct gsp_max_##sfx(ct a, ct b) {          \
    return b > a ? b : a;                        \
  }                                              \
  GSP_HD ct gsp_pinf_##sfx(void) {               \
    return (ct)(PINF_);                          \
  }                                              \
  GSP_HD ct gsp_ninf_##sfx(void) {               \
    return (ct)(NINF_);                          \
  }
GSP_NUM_TYPE_LIST(GSP_DEF_PRIMS_)
#undef GSP_DEF_PRIMS_

/* min/max that propagate NaN are not wanted: weights are checked for NaN at
 * the API boundary, so the cheap compare-select above is exact. */

/* Ordinary + and * : floats as is, integers wrap (computed unsigned so the
 * C code has no signed-overflow UB). */
GSP_HD int32_t gsp_plus_i32(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a + (uint32_t)b);
}
GSP_HD int64_t gsp_plus_i64(int64_t a, int64_t b) {
  return (int64_t)((uint64_t)a + (uint64_t)b);
}
GSP_HD float gsp_plus_f32(float a, float b) {
  return a + b;
}
GSP_HD double gsp_plus_f64(double a, double b) {
  return a + b;
}
GSP_HD int32_t gsp_times_i32(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a * (uint32_t)b);
}
GSP_HD int64_t gsp_times_i64(int64_t a, int64_t b) {
  return (int64_t)((uint64_t)a * (uint64_t)b);
}
GSP_HD float gsp_times_f32(float a, float b) {
  return a * b;
}
GSP_HD double gsp_times_f64(double a, double b) {
  return a * b;
}
GSP_HD int32_t gsp_minus_i32(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a - (uint32_t)b);
}
GSP_HD int64_t gsp_minus_i64(int64_t a, int64_t b) {
  return (int64_t)((uint64_t)a - (uint64_t)b);
}
GSP_HD float gsp_minus_f32(float a, float b) {
  return a - b;
}
GSP_HD double gsp_minus_f64(double a, double b) {
  return a - b;
}

/* Clamped a + b without branches (so CPU loops vectorise as compare +
 * blend): the wrapped sum overflowed iff a and b share a sign that s lacks,
 * and then the true sum lies beyond the extreme of a's sign. */
GSP_HD int32_t gsp_plus_clamp_i32(int32_t a, int32_t b) {
  const int32_t s = (int32_t)((uint32_t)a + (uint32_t)b);
  return ((a ^ s) & (b ^ s)) < 0 ? (a < 0 ? INT32_MIN : INT32_MAX) : s;
}
GSP_HD int64_t gsp_plus_clamp_i64(int64_t a, int64_t b) {
  const int64_t s = (int64_t)((uint64_t)a + (uint64_t)b);
  return ((a ^ s) & (b ^ s)) < 0 ? (a < 0 ? INT64_MIN : INT64_MAX) : s;
}
/* Saturating + where +inf (INT_MAX) absorbs: the multiply of MIN_PLUS.
 * inf + x = inf for every x; finite overflow clamps to INT_MAX / INT_MIN.
 * Floats: IEEE addition already has inf + finite = inf. */
GSP_HD int32_t gsp_plus_sat_inf_i32(int32_t a, int32_t b) {
  return (a == INT32_MAX || b == INT32_MAX) ? INT32_MAX : gsp_plus_clamp_i32(a, b);
}
GSP_HD int64_t gsp_plus_sat_inf_i64(int64_t a, int64_t b) {
  return (a == INT64_MAX || b == INT64_MAX) ? INT64_MAX : gsp_plus_clamp_i64(a, b);
}
/* Saturating + where -inf (INT_MIN) absorbs: the multiply of MAX_PLUS. */
GSP_HD int32_t gsp_plus_sat_ninf_i32(int32_t a, int32_t b) {
  return (a == INT32_MIN || b == INT32_MIN) ? INT32_MIN : gsp_plus_clamp_i32(a, b);
}
GSP_HD int64_t gsp_plus_sat_ninf_i64(int64_t a, int64_t b) {
  return (a == INT64_MIN || b == INT64_MIN) ? INT64_MIN : gsp_plus_clamp_i64(a, b);
}
GSP_HD float gsp_plus_sat_inf_f32(float a, float b) {
  return a + b;
}
GSP_HD double gsp_plus_sat_inf_f64(double a, double b) {
  return a + b;
}
GSP_HD float gsp_plus_sat_ninf_f32(float a, float b) {
  return a + b;
}
GSP_HD double gsp_plus_sat_ninf_f64(double a, double b) {
  return a + b;
}

/* ---- semiring instances ---- */

#define GSP_SR_ID_PINF_(sfx) gsp_pinf_##sfx()
#define GSP_SR_ID_NINF_(sfx) gsp_ninf_##sfx()
#define GSP_SR_ID_0_(sfx)    0
#define GSP_SR_ID_1_(sfx)    1

#define GSP_DEF_SR_TYPE_(sr, addop, mulop, zero, one, ct, sfx) \
  GSP_HD ct gsp_##sr##_add_##sfx(ct a, ct b) {                 \
    return gsp_##addop##_##sfx(a, b);                          \
  }                                                            \
  GSP_HD ct gsp_##sr##_mul_##sfx(ct a, ct b) {                 \
    return gsp_##mulop##_##sfx(a, b);                          \
  }                                                            \
  GSP_HD ct gsp_##sr##_zero_##sfx(void) {                      \
    return (ct)GSP_SR_ID_##zero##_(sfx);                       \
  }                                                            \
  GSP_HD ct gsp_##sr##_one_##sfx(void) {                       \
    return (ct)GSP_SR_ID_##one##_(sfx);                        \
  }

#define GSP_DEF_SR_(SR, sr, addop, mulop, zero, one)          \
  GSP_DEF_SR_TYPE_(sr, addop, mulop, zero, one, int32_t, i32) \
  GSP_DEF_SR_TYPE_(sr, addop, mulop, zero, one, int64_t, i64) \
  GSP_DEF_SR_TYPE_(sr, addop, mulop, zero, one, float, f32)   \
  GSP_DEF_SR_TYPE_(sr, addop, mulop, zero, one, double, f64)
GSP_NUM_SEMIRING_LIST(GSP_DEF_SR_)
#undef GSP_DEF_SR_
#undef GSP_DEF_SR_TYPE_

/* OR_AND on bool, and its bit-packed form on 64-bit words (64 tasks each). */
GSP_HD bool gsp_or_and_add_b(bool a, bool b) {
  return a || b;
}
GSP_HD bool gsp_or_and_mul_b(bool a, bool b) {
  return a && b;
}
GSP_HD bool gsp_or_and_zero_b(void) {
  return false;
}
GSP_HD bool gsp_or_and_one_b(void) {
  return true;
}
GSP_HD uint64_t gsp_or_and_fma_w64(uint64_t c, uint64_t a_bits, uint64_t b) {
  return c | (a_bits & b);
}

/* ---- bool versions of the binary operators (GraphBLAS semantics) ---- */
GSP_HD bool gsp_min_b(bool a, bool b) {
  return a && b;
}
GSP_HD bool gsp_max_b(bool a, bool b) {
  return a || b;
}
GSP_HD bool gsp_plus_b(bool a, bool b) {
  return a || b;
}
GSP_HD bool gsp_times_b(bool a, bool b) {
  return a && b;
}
GSP_HD bool gsp_minus_b(bool a, bool b) {
  return a != b;
}

/* Logical operators on every type: nonzero is true; the result is 1 or 0. */
#define GSP_DEF_LOGIC_(T, ct, sfx)         \
  GSP_HD ct gsp_lor_##sfx(ct a, ct b) {    \
    return (ct)((a != 0) || (b != 0));     \
  }                                        \
  GSP_HD ct gsp_land_##sfx(ct a, ct b) {   \
    return (ct)((a != 0) && (b != 0));     \
  }                                        \
  GSP_HD ct gsp_first_##sfx(ct a, ct b) {  \
    (void)b;                               \
    return a;                              \
  }                                        \
  GSP_HD ct gsp_second_##sfx(ct a, ct b) { \
    (void)a;                               \
    return b;                              \
  }
GSP_TYPE_LIST(GSP_DEF_LOGIC_)
#undef GSP_DEF_LOGIC_

/* ---- facts of each semiring: the one place they are written ----
 *
 *   GSP_SEMIRING_FACTS(X)   X(SR, closure, cycle_sign, path_encoding)
 *
 * closure: the additive monoid is idempotent, so M* = I + M + M^2 + ... is
 *   the Floyd-Warshall closure (gsp_closure, the CPU and the CUDA kernels,
 *   dense numeric or bit-packed for OR_AND); PLUS_TIMES's would be
 *   (I - M)^-1, a linear solve.
 * cycle_sign: -1 when a negative cycle makes the closure diverge
 *   (MIN_PLUS), +1 for a positive one (MAX_PLUS), 0 when no cycle can.
 *   Successors are provably loop-free on the GPU when every off-diagonal
 *   weight has the opposite sign.
 * path_encoding: a path semiring over numeric types, whose zero marks an
 *   absent entry of a dense copy (gsp_matrix_device_view). */
#define GSP_SEMIRING_FACTS(X) \
  X(MIN_PLUS, true, -1, true) \
  X(MAX_PLUS, true, 1, true)  \
  X(MAX_MIN, true, 0, true)   \
  X(MIN_MAX, true, 0, true)   \
  X(OR_AND, true, 0, false)   \
  X(PLUS_TIMES, false, 0, false)

#define GSP_SR_FACT_(name, col)                    \
  GSP_HD int gsp_semiring_##name(gsp_semiring s) { \
    switch (s) { GSP_SEMIRING_FACTS(col) }         \
    return 0;                                      \
  }
#define GSP_SR_CLOSURE_(SR, closure, sign, enc) \
  case GSP_##SR:                                \
    return closure;
#define GSP_SR_SIGN_(SR, closure, sign, enc) \
  case GSP_##SR:                             \
    return sign;
#define GSP_SR_ENC_(SR, closure, sign, enc) \
  case GSP_##SR:                            \
    return enc;
GSP_SR_FACT_(has_closure, GSP_SR_CLOSURE_)
GSP_SR_FACT_(cycle_sign, GSP_SR_SIGN_)
GSP_SR_FACT_(path_encoding, GSP_SR_ENC_)
#undef GSP_SR_FACT_
#undef GSP_SR_CLOSURE_
#undef GSP_SR_SIGN_
#undef GSP_SR_ENC_

/* The zero (absent) and one (identity) of s in type t, as a value of t in
 * out (host code: the C core, the gateway's conversions). Nothing is
 * written for a pair that does not fit (gsp__semiring_fits). */
#define GSP_SR_VALUE_(which)                                                               \
  static inline void gsp_semiring_##which##_value(void *out, gsp_semiring s, gsp_type t) { \
    if (s == GSP_OR_AND) {                                                                 \
      if (t == GSP_BOOL) *(bool *)out = gsp_or_and_##which##_b();                          \
      return;                                                                              \
    }                                                                                      \
    switch (s) { GSP_NUM_SEMIRING_LIST(GSP_SR_##which##_CASE_) default : return; }         \
  }
#define GSP_SR_TYPED_(sr, which)                  \
  switch (t) {                                    \
  case GSP_INT32:                                 \
    *(int32_t *)out = gsp_##sr##_##which##_i32(); \
    return;                                       \
  case GSP_INT64:                                 \
    *(int64_t *)out = gsp_##sr##_##which##_i64(); \
    return;                                       \
  case GSP_FP32:                                  \
    *(float *)out = gsp_##sr##_##which##_f32();   \
    return;                                       \
  case GSP_FP64:                                  \
    *(double *)out = gsp_##sr##_##which##_f64();  \
    return;                                       \
  default:                                        \
    return;                                       \
  }
#define GSP_SR_zero_CASE_(SR, sr, a, m, z, o) \
  case GSP_##SR:                              \
    GSP_SR_TYPED_(sr, zero)
#define GSP_SR_one_CASE_(SR, sr, a, m, z, o) \
  case GSP_##SR:                             \
    GSP_SR_TYPED_(sr, one)
GSP_SR_VALUE_(zero)
GSP_SR_VALUE_(one)
#undef GSP_SR_VALUE_
#undef GSP_SR_TYPED_
#undef GSP_SR_zero_CASE_
#undef GSP_SR_one_CASE_

/* Whether s and e mark "absent" with the same value, so that a dense copy
 * encoded for e serves a closure under s (MIN_PLUS ~ MIN_MAX, MAX_* alike). */
static inline bool gsp_semiring_same_zero(gsp_semiring s, gsp_semiring e) {
  double zs = 0, ze = 0;
  gsp_semiring_zero_value(&zs, s, GSP_FP64);
  gsp_semiring_zero_value(&ze, e, GSP_FP64);
  return zs == ze;
}

#endif /* GSP_SEMIRING_H */
