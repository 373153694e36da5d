/* Binary and unary operators as per-(operator, type) functions, monoid
 * identities, and the argument checks for operator codes. The arithmetic
 * itself is the one definition in gsp_semiring.h. */
#include "gsp_ops.h"

/* X(CODE, name): gsp_<name>_<sfx> exists in gsp_semiring.h for every type.
 * (clang-format does not reach a fixed point on an X-macro list.) */
// clang-format off
#define GSP_OPS_BINOP_LIST(X)                                                  \
  X(MIN, min) X(MAX, max) X(PLUS, plus) X(TIMES, times) X(LOR, lor)            \
  X(LAND, land) X(FIRST, first) X(SECOND, second) X(MINUS, minus)
// clang-format on

#define GSP_BOP_FN_(name, ct, sfx)                                        \
  static void bop_##name##_##sfx(void *z, const void *x, const void *y) { \
    *(ct *)z = gsp_##name##_##sfx(*(const ct *)x, *(const ct *)y);        \
  }
#define GSP_BOP_TYPES_(CODE, name) \
  GSP_BOP_FN_(name, bool, b)       \
  GSP_BOP_FN_(name, int32_t, i32)  \
  GSP_BOP_FN_(name, int64_t, i64)  \
  GSP_BOP_FN_(name, float, f32)    \
  GSP_BOP_FN_(name, double, f64)
GSP_OPS_BINOP_LIST(GSP_BOP_TYPES_)
#undef GSP_BOP_TYPES_
#undef GSP_BOP_FN_

gsp__binop_fn gsp__ops_binop(gsp_binop op, gsp_type t) {
  switch (op) {
#define GSP_BOP_CASE_(CODE, name) \
  case GSP_##CODE:                \
    switch (t) {                  \
    case GSP_BOOL:                \
      return bop_##name##_b;      \
    case GSP_INT32:               \
      return bop_##name##_i32;    \
    case GSP_INT64:               \
      return bop_##name##_i64;    \
    case GSP_FP32:                \
      return bop_##name##_f32;    \
    case GSP_FP64:                \
      return bop_##name##_f64;    \
    }                             \
    return NULL;
    GSP_OPS_BINOP_LIST(GSP_BOP_CASE_)
#undef GSP_BOP_CASE_
  case GSP_NOOP:
    return NULL;
  }
  return NULL;
}

/* Unary operators. Identity and one are the same code for every type;
 * integer negation and abs go through unsigned so that INT_MIN wraps (as
 * GraphBLAS does) instead of being undefined; for bool, -x and |x| are x
 * (GraphBLAS semantics). */
#define GSP_UOP_ANY_(T, ct, sfx)                           \
  static void uop_identity_##sfx(void *z, const void *x) { \
    *(ct *)z = *(const ct *)x;                             \
  }                                                        \
  static void uop_one_##sfx(void *z, const void *x) {      \
    (void)x;                                               \
    *(ct *)z = 1;                                          \
  }
GSP_TYPE_LIST(GSP_UOP_ANY_)
#undef GSP_UOP_ANY_
#define GSP_UOP_INT_(ct, uct, sfx)                     \
  static void uop_ainv_##sfx(void *z, const void *x) { \
    uct v = (uct)(*(const ct *)x);                     \
    *(ct *)z = (ct)((uct)0 - v);                       \
  }                                                    \
  static void uop_abs_##sfx(void *z, const void *x) {  \
    ct v = *(const ct *)x;                             \
    *(ct *)z = v < 0 ? (ct)((uct)0 - (uct)v) : v;      \
  }
GSP_UOP_INT_(int32_t, uint32_t, i32)
GSP_UOP_INT_(int64_t, uint64_t, i64)
#undef GSP_UOP_INT_
#define GSP_UOP_FLT_(ct, sfx, absf)                    \
  static void uop_ainv_##sfx(void *z, const void *x) { \
    *(ct *)z = -*(const ct *)x;                        \
  }                                                    \
  static void uop_abs_##sfx(void *z, const void *x) {  \
    *(ct *)z = absf(*(const ct *)x);                   \
  }
GSP_UOP_FLT_(float, f32, fabsf)
GSP_UOP_FLT_(double, f64, fabs)
#undef GSP_UOP_FLT_

gsp__unop_fn gsp__ops_unop(gsp_unop f, gsp_type t) {
#define GSP_UOP_PICK_(name) \
  switch (t) {              \
  case GSP_BOOL:            \
    return name##_b;        \
  case GSP_INT32:           \
    return name##_i32;      \
  case GSP_INT64:           \
    return name##_i64;      \
  case GSP_FP32:            \
    return name##_f32;      \
  case GSP_FP64:            \
    return name##_f64;      \
  }                         \
  return NULL;
#define uop_ainv_b uop_identity_b
#define uop_abs_b  uop_identity_b
  switch (f) {
  case GSP_IDENTITY:
    GSP_UOP_PICK_(uop_identity)
  case GSP_AINV:
    GSP_UOP_PICK_(uop_ainv)
  case GSP_ABS:
    GSP_UOP_PICK_(uop_abs)
  case GSP_ONE:
    GSP_UOP_PICK_(uop_one)
  }
#undef uop_ainv_b
#undef uop_abs_b
#undef GSP_UOP_PICK_
  return NULL;
}

bool gsp__ops_monoid_identity(void *out, gsp_binop op, gsp_type t) {
  /* as bool: MIN and TIMES are "and" (identity true), MAX and PLUS "or" */
  switch (op) {
  case GSP_MIN:
  case GSP_MAX:
    if (gsp_type_size(t) == 0) return false;
    if (t == GSP_BOOL) *(bool *)out = op == GSP_MIN;
    /* +inf for MIN, -inf for MAX (INT_MAX, INT_MIN for integers) */
    else gsp__semiring_zero(out, op == GSP_MIN ? GSP_MIN_PLUS : GSP_MAX_PLUS, t);
    return true;
  case GSP_PLUS:
  case GSP_LOR: {
    const bool zero = false;
    gsp__cast_value(out, t, &zero, GSP_BOOL);
    return gsp_type_size(t) != 0;
  }
  case GSP_TIMES:
  case GSP_LAND: {
    const bool one = true;
    gsp__cast_value(out, t, &one, GSP_BOOL);
    return gsp_type_size(t) != 0;
  }
  default:
    return false;
  }
}

bool gsp__ops_truthy(gsp_type t, const void *x, int64_t k) {
  switch (t) {
#define GSP_TRUTHY_CASE_(T, ct, sfx) \
  case GSP_##T:                      \
    return ((const ct *)x)[k] != 0;
    GSP_TYPE_LIST(GSP_TRUTHY_CASE_)
#undef GSP_TRUTHY_CASE_
  }
  return false;
}

static bool binop_valid(gsp_binop op) {
  return op >= GSP_NOOP && op <= GSP_MINUS;
}

gsp_info gsp__ops_check_accum(gsp_binop accum, const char *fn) {
  if (!binop_valid(accum)) return GSP_ERROR(GSP_INVALID_VALUE, "%s: invalid accumulator code %d", fn, (int)accum);
  return GSP_SUCCESS;
}

gsp_info gsp__ops_check_binop(gsp_binop op, const char *fn) {
  if (!binop_valid(op) || op == GSP_NOOP)
    return GSP_ERROR(GSP_INVALID_VALUE, "%s: invalid binary operator code %d", fn, (int)op);
  return GSP_SUCCESS;
}

gsp_info gsp__ops_check_monoid(gsp_binop op, const char *fn) {
  switch (op) {
  case GSP_MIN:
  case GSP_MAX:
  case GSP_PLUS:
  case GSP_TIMES:
  case GSP_LOR:
  case GSP_LAND:
    return GSP_SUCCESS;
  default:
    return GSP_ERROR(GSP_INVALID_VALUE, "%s: operator code %d is not a monoid (use MIN, MAX, PLUS, TIMES, LOR or LAND)",
                     fn, (int)op);
  }
}

gsp_info gsp__ops_check_semiring(gsp_semiring s, gsp_type t, const char *fn) {
  if (s < GSP_MIN_PLUS || s > GSP_PLUS_TIMES)
    return GSP_ERROR(GSP_INVALID_VALUE, "%s: invalid semiring code %d", fn, (int)s);
  if (!gsp__semiring_fits(s, t))
    return GSP_ERROR(GSP_DOMAIN_MISMATCH, "%s: semiring %s does not apply to type %s", fn, gsp__semiring_name(s),
                     gsp__type_name(t));
  return GSP_SUCCESS;
}

gsp_info gsp__ops_check_same_type(gsp_type t, gsp_type got, const char *fn, const char *what) {
  if (t != got)
    return GSP_ERROR(GSP_DOMAIN_MISMATCH, "%s: %s has type %s but the output has type %s", fn, what,
                     gsp__type_name(got), gsp__type_name(t));
  return GSP_SUCCESS;
}

gsp_info gsp__ops_check_product_types(gsp_semiring s, gsp_type t, gsp_type at, const char *an, gsp_type bt,
                                      const char *bn, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__ops_check_same_type(t, at, fn, an));
  GSP_TRY(gsp__ops_check_same_type(t, bt, fn, bn));
  GSP_TRY(gsp__ops_check_semiring(s, t, fn));
#undef GSP_FREE_ALL
  return info;
}
