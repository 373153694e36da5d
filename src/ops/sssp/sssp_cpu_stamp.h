/*
 * Stamps the typed kernel body named by SSSP_BODY (a header) once per
 * weight type. Inside the body:
 *   SSSP_T        the weight/distance type
 *   SSSP_FN(f)    f suffixed with the type (f_i32, ...)
 *   SSSP_ADD(a,b) MIN_PLUS multiply of gsp_semiring.h (saturating for ints)
 *   SSSP_INF      +infinity of the type ("unreached")
 *   SSSP_LIM(g)   the graph's distance limit in the type
 * The body may define static functions; it must #undef what it defines
 * for itself. Included from .c files only.
 */
#ifndef SSSP_BODY
#error "define SSSP_BODY before including sssp_cpu_stamp.h"
#endif

#define SSSP_T      int32_t
#define SSSP_FN(f)  f##_i32
#define SSSP_ADD    gsp_min_plus_mul_i32
#define SSSP_INF    INT32_MAX
#define SSSP_LIM(g) ((g)->lim.i32)
#include SSSP_BODY
#undef SSSP_T
#undef SSSP_FN
#undef SSSP_ADD
#undef SSSP_INF
#undef SSSP_LIM

#define SSSP_T      int64_t
#define SSSP_FN(f)  f##_i64
#define SSSP_ADD    gsp_min_plus_mul_i64
#define SSSP_INF    INT64_MAX
#define SSSP_LIM(g) ((g)->lim.i64)
#include SSSP_BODY
#undef SSSP_T
#undef SSSP_FN
#undef SSSP_ADD
#undef SSSP_INF
#undef SSSP_LIM

#define SSSP_T      float
#define SSSP_FN(f)  f##_f32
#define SSSP_ADD    gsp_min_plus_mul_f32
#define SSSP_INF    ((float)INFINITY)
#define SSSP_LIM(g) ((g)->lim.f32)
#include SSSP_BODY
#undef SSSP_T
#undef SSSP_FN
#undef SSSP_ADD
#undef SSSP_INF
#undef SSSP_LIM

#define SSSP_T      double
#define SSSP_FN(f)  f##_f64
#define SSSP_ADD    gsp_min_plus_mul_f64
#define SSSP_INF    ((double)INFINITY)
#define SSSP_LIM(g) ((g)->lim.f64)
#include SSSP_BODY
#undef SSSP_T
#undef SSSP_FN
#undef SSSP_ADD
#undef SSSP_INF
#undef SSSP_LIM

#undef SSSP_BODY
