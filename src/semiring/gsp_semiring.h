/*
 * The one definition of every semiring and binary operator, compiled by both
 * the C compiler and nvcc. Instances are generated from two X-macro tables:
 *
 *   GSP_NUM_TYPE_LIST(X)   X(TYPE, ctype, suffix, POS_INF, NEG_INF)
 *   GSP_SEMIRING_LIST(X)   X(SEMIRING, add, mul, zero, one)
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

#endif /* GSP_SEMIRING_H */
