/* Dense numpy graphs read as scipy reads them, in one parallel pass
 * (_dense.h). Each row goes through a row of doubles in cache (NaN: a
 * non-edge), which every source type but int64 holds exactly, so the
 * per-type code is one reader per source and one writer per target; int64
 * sources, which a double would round, have writers of their own. The
 * values' rules are the Python readers' (gspgraph._graph.cast_exact). */
#define _GNU_SOURCE /* madvise's MADV_HUGEPAGE, posix_memalign */
#include "_dense.h"

#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define NONE  ((size_t)-1)
#define TWO63 9223372036854775808.0 /* 2^63: the first double beyond int64 */

void *dense_alloc(size_t bytes) {
  const size_t huge = (size_t)1 << 21;
  void *p = NULL;
  if (bytes < ((size_t)64 << 20)) return malloc(bytes ? bytes : 1);
  if (posix_memalign(&p, huge, bytes) != 0) return NULL;
#ifdef MADV_HUGEPAGE
  (void)madvise(p, bytes & ~(huge - 1), MADV_HUGEPAGE); /* advice only */
#endif
  return p;
}

dense_kind dense_kind_of(const char *format, size_t itemsize) {
  char c = format ? format[0] : 'B';
  if (c == '<' || c == '=' || c == '@' || c == '!' || c == '>') c = format[1];
  if (c == '?') return DENSE_BOOL;
  if (c == 'd' || c == 'f') return itemsize == 8 ? DENSE_F64 : itemsize == 4 ? DENSE_F32 : DENSE_UNREAD;
  const bool is_signed = c == 'b' || c == 'h' || c == 'i' || c == 'l' || c == 'q' || c == 'n';
  const bool is_unsigned = c == 'B' || c == 'H' || c == 'I' || c == 'L' || c == 'Q' || c == 'N';
  if (is_signed) return itemsize == 8 ? DENSE_I64 : itemsize == 4 ? DENSE_I32 : itemsize == 2 ? DENSE_I16 : DENSE_I8;
  if (is_unsigned && itemsize < 8) return itemsize == 4 ? DENSE_U32 : itemsize == 2 ? DENSE_U16 : DENSE_U8;
  return DENSE_UNREAD; /* uint64 (beyond int64), float16, long double: numpy casts them first */
}

static bool is_real(dense_kind k) {
  return k == DENSE_F64 || k == DENSE_F32;
}

/* ---- one row of the source as doubles (NaN: a non-edge) ---- */

#define READER(NAME, S)                                                                                     \
  static void NAME(double *row, const void *src, size_t n, const dense_read *r) {                           \
    const S *s = src;                                                                                       \
    for (size_t j = 0; j < n; j++) {                                                                        \
      const double a = (double)s[j];                                                                        \
      row[j] = isnan(a) || isinf(a) || (r->has_null && a == r->null_value) ? NAN : r->unweighted ? 1.0 : a; \
    }                                                                                                       \
  }
READER(read_f64, double)
READER(read_f32, float)
READER(read_i32, int32_t)
READER(read_i16, int16_t)
READER(read_i8, int8_t)
READER(read_u32, uint32_t)
READER(read_u16, uint16_t)
READER(read_u8, uint8_t)
READER(read_bool, _Bool)
#undef READER

typedef void (*reader)(double *, const void *, size_t, const dense_read *);

static reader reader_of(dense_kind k) {
  static const reader table[] = {[DENSE_F64] = read_f64, [DENSE_F32] = read_f32, [DENSE_I32] = read_i32,
                                 [DENSE_I16] = read_i16, [DENSE_I8] = read_i8,   [DENSE_U32] = read_u32,
                                 [DENSE_U16] = read_u16, [DENSE_U8] = read_u8,   [DENSE_BOOL] = read_bool};
  return k < DENSE_UNREAD ? table[k] : NULL;
}

/* ---- the rules, one value at a time ---- */

/* A weight a (an edge) as an integer in [lo, hi]: whether it is one. */
static bool int_ok(double a, bool round, double lo, double hi, double *out) {
  const double v = round ? nearbyint(a) : a;
  *out = v;
  return v == trunc(v) && v >= lo && v <= hi;
}

/* A real weight as float32: not when it overflows or underflows to a
 * nonzero below the smallest normal number. An integer weight: only when
 * stored exactly, unless round. */
static bool f32_ok(double a, float c, bool integer, bool round) {
  if (integer) return round || (double)c == a;
  return !isinf(c) && !(a != 0 && fabs((double)c) < FLT_MIN);
}

/* ---- one row of doubles into the target ---- */

static size_t write_f64(void *dst, const double *row, size_t n, const dense_read *r) {
  double *d = dst;
  const double z = *(const double *)r->absent;
  for (size_t j = 0; j < n; j++) d[j] = isnan(row[j]) ? z : row[j];
  return NONE;
}

static size_t write_f32(void *dst, const double *row, size_t n, const dense_read *r) {
  float *d = dst;
  const float z = *(const float *)r->absent;
  size_t bad = NONE;
  const bool integer = !is_real(r->src) && !r->unweighted;
  for (size_t j = 0; j < n; j++) {
    const double a = row[j];
    const float c = isnan(a) ? z : (float)a;
    if (!isnan(a) && bad == NONE && !f32_ok(a, c, integer, r->round)) bad = j;
    d[j] = c;
  }
  return bad;
}

#define INT_WRITER(NAME, T, LO, HI)                                                 \
  static size_t NAME(void *dst, const double *row, size_t n, const dense_read *r) { \
    T *d = dst;                                                                     \
    const T z = *(const T *)r->absent;                                              \
    size_t bad = NONE;                                                              \
    for (size_t j = 0; j < n; j++) {                                                \
      double v = 0;                                                                 \
      if (isnan(row[j])) d[j] = z;                                                  \
      else if (int_ok(row[j], r->round, LO, HI, &v)) d[j] = (T)v;                   \
      else if (bad == NONE) bad = j;                                                \
    }                                                                               \
    return bad;                                                                     \
  }
INT_WRITER(write_i32, int32_t, (double)INT32_MIN, (double)INT32_MAX)
INT_WRITER(write_i64, int64_t, -TWO63, 0x1.fffffffffffffp+62) /* the largest double below 2^63 */
#undef INT_WRITER

static size_t write_bool(void *dst, const double *row, size_t n, const dense_read *r) {
  _Bool *d = dst;
  for (size_t j = 0; j < n; j++) d[j] = !isnan(row[j]);
  (void)r;
  return NONE;
}

typedef size_t (*writer)(void *, const double *, size_t, const dense_read *);

static writer writer_of(gsp_type t) {
  switch (t) {
  case GSP_FP64:
    return write_f64;
  case GSP_FP32:
    return write_f32;
  case GSP_INT32:
    return write_i32;
  case GSP_INT64:
    return write_i64;
  default:
    return write_bool;
  }
}

/* ---- int64 sources, which doubles would round ---- */

static bool i64_edge(int64_t a, const dense_read *r) {
  return !(r->has_null && (double)a == r->null_value);
}

/* One int64 weight into the target at d; false when t cannot hold it. */
static bool i64_one(void *d, int64_t a, const dense_read *r) {
  const int64_t w = r->unweighted ? 1 : a;
  switch (r->t) {
  case GSP_FP64: {
    const double c = (double)w;
    *(double *)d = c;
    return r->round || (c < TWO63 && (int64_t)c == w);
  }
  case GSP_FP32: {
    const float c = (float)w;
    *(float *)d = c;
    return r->round || ((double)c < TWO63 && (int64_t)c == w);
  }
  case GSP_INT64:
    *(int64_t *)d = w;
    return true;
  case GSP_INT32:
    *(int32_t *)d = (int32_t)w;
    return w >= INT32_MIN && w <= INT32_MAX;
  default:
    *(_Bool *)d = 1;
    return true;
  }
}

static size_t write_i64_row(void *dst, const int64_t *s, size_t n, const dense_read *r) {
  const size_t ts = gsp_type_size(r->t);
  size_t bad = NONE;
  for (size_t j = 0; j < n; j++) {
    char *d = (char *)dst + j * ts;
    if (!i64_edge(s[j], r)) memcpy(d, r->absent, ts);
    else if (!i64_one(d, s[j], r) && bad == NONE) bad = j;
  }
  return bad;
}

/* ---- undirected: both triangles, in tiles ---- */

#define COMBINE(NAME, T, HEAVIER)                                                                                     \
  static void NAME(T *d, size_t n, T z, int how, int nt) {                                                            \
    const size_t B = 64, nb = (n + B - 1) / B;                                                                        \
    _Pragma("omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1)") for (size_t ti = 0; ti < nb; ti++) { \
      for (size_t tj = ti; tj < nb; tj++)                                                                             \
        for (size_t i = ti * B; i < (ti + 1) * B && i < n; i++)                                                       \
          for (size_t j = ti == tj ? i + 1 : tj * B; j < (tj + 1) * B && j < n; j++) {                                \
            const T a = d[i * n + j], b = d[j * n + i];                                                               \
            d[i * n + j] = d[j * n + i] = a == z ? b : b == z ? a : HEAVIER;                                          \
          }                                                                                                           \
    }                                                                                                                 \
  }
COMBINE(combine_f64, double, (how == 2) == (b > a) ? b : a)
COMBINE(combine_f32, float, (how == 2) == (b > a) ? b : a)
COMBINE(combine_i64, int64_t, (how == 2) == (b > a) ? b : a)
COMBINE(combine_i32, int32_t, (how == 2) == (b > a) ? b : a)
COMBINE(combine_bool, _Bool, 1)
#undef COMBINE

static void undirected(void *dst, size_t n, const dense_read *r) {
  const int how = r->undirected, nt = r->threads;
  switch (r->t) {
  case GSP_FP64:
    combine_f64(dst, n, *(const double *)r->absent, how, nt);
    break;
  case GSP_FP32:
    combine_f32(dst, n, *(const float *)r->absent, how, nt);
    break;
  case GSP_INT64:
    combine_i64(dst, n, *(const int64_t *)r->absent, how, nt);
    break;
  case GSP_INT32:
    combine_i32(dst, n, *(const int32_t *)r->absent, how, nt);
    break;
  default:
    combine_bool(dst, n, 0, how, nt);
    break;
  }
}

/* ---- the common pairs, in one vectorizable loop each ---- */

/* A row into the same type, as bits: a cell is a non-edge when its
 * exponent is all ones (reals: NaN, +-inf; expm 0 for integers) or, where
 * there is a null_value (hn), when its bits under nvm equal nv (nvm drops
 * the sign of a real zero: -0 == 0 as numpy's != reads it); a non-edge
 * becomes the marker z. Selected with masks, so the loops vectorize; large
 * arrays are written with streaming stores (SSE2), which do not read every
 * destination line first: the array is read next by the upload or the
 * closure, not from this core's cache. */
typedef struct {
  uint64_t expm, nvm, nv, z;
  bool hn, stream;
} bit_rule;

/* One cell by the rule (the scalar head and tail of the streamed rows). */
#define BIT_SEL(U)                                                                                                 \
  static inline U sel_##U(U a, const bit_rule *b) {                                                                \
    const U x =                                                                                                    \
        (U)0 - (U)(((b->expm != 0) & ((a & (U)b->expm) == (U)b->expm)) | (b->hn & ((a & (U)b->nvm) == (U)b->nv))); \
    return (a & ~x) | ((U)b->z & x);                                                                               \
  }
BIT_SEL(uint32_t)
BIT_SEL(uint64_t)
#undef BIT_SEL

static void bits32(uint32_t *restrict d, const uint32_t *restrict s, size_t n, const bit_rule *b) {
  size_t j = 0;
#ifdef __SSE2__
  if (b->stream) {
    for (; j < n && ((uintptr_t)(d + j) & 15); j++) d[j] = sel_uint32_t(s[j], b);
    const __m128i e = _mm_set1_epi32((int)(uint32_t)b->expm), m = _mm_set1_epi32((int)(uint32_t)b->nvm);
    const __m128i v = _mm_set1_epi32((int)(uint32_t)b->nv), z = _mm_set1_epi32((int)(uint32_t)b->z);
    const __m128i h = _mm_set1_epi32(b->hn ? -1 : 0);
    for (; j + 4 <= n; j += 4) {
      const __m128i a = _mm_loadu_si128((const __m128i *)(s + j));
      __m128i x = _mm_and_si128(h, _mm_cmpeq_epi32(_mm_and_si128(a, m), v));
      if (b->expm) x = _mm_or_si128(x, _mm_cmpeq_epi32(_mm_and_si128(a, e), e));
      _mm_stream_si128((__m128i *)(d + j), _mm_or_si128(_mm_andnot_si128(x, a), _mm_and_si128(x, z)));
    }
    _mm_sfence();
  }
#endif
  _Pragma("omp simd") for (size_t k = j; k < n; k++) d[k] = sel_uint32_t(s[k], b);
}

static void bits64(uint64_t *restrict d, const uint64_t *restrict s, size_t n, const bit_rule *b) {
  size_t j = 0;
#ifdef __SSE2__
  if (b->stream) {
    for (; j < n && ((uintptr_t)(d + j) & 15); j++) d[j] = sel_uint64_t(s[j], b);
    const __m128i e = _mm_set1_epi64x((long long)b->expm), m = _mm_set1_epi64x((long long)b->nvm);
    const __m128i v = _mm_set1_epi64x((long long)b->nv), z = _mm_set1_epi64x((long long)b->z);
    const __m128i h = _mm_set1_epi64x(b->hn ? -1 : 0);
    for (; j + 2 <= n; j += 2) {
      const __m128i a = _mm_loadu_si128((const __m128i *)(s + j));
      /* 64-bit equality from 32-bit halves (SSE2 has no pcmpeqq) */
      __m128i q = _mm_cmpeq_epi32(_mm_and_si128(a, m), v);
      __m128i x = _mm_and_si128(h, _mm_and_si128(q, _mm_shuffle_epi32(q, _MM_SHUFFLE(2, 3, 0, 1))));
      if (b->expm) {
        q = _mm_cmpeq_epi32(_mm_and_si128(a, e), e);
        x = _mm_or_si128(x, _mm_and_si128(q, _mm_shuffle_epi32(q, _MM_SHUFFLE(2, 3, 0, 1))));
      }
      _mm_stream_si128((__m128i *)(d + j), _mm_or_si128(_mm_andnot_si128(x, a), _mm_and_si128(x, z)));
    }
    _mm_sfence();
  }
#endif
  for (size_t k = j; k < n; k++) d[k] = sel_uint64_t(s[k], b);
}

/* The bit rule of a same-type read: reals (expm their exponent, sign the
 * sign bit) or integers (expm 0). */
#define RULE_OF(T, U, SIGN, EXP)                                         \
  static bit_rule rule_##T(const dense_read *r) {                        \
    const T nvt = (T)r->null_value, zt = *(const T *)r->absent;          \
    U nv, z;                                                             \
    memcpy(&nv, &nvt, sizeof nv);                                        \
    memcpy(&z, &zt, sizeof z);                                           \
    const U nvm = (EXP) && nvt == 0 ? ~(U)(SIGN) : ~(U)0;                \
    return (bit_rule){.expm = (EXP),                                     \
                      .nvm = nvm,                                        \
                      .nv = nv & nvm,                                    \
                      .z = z,                                            \
                      .hn = r->has_null && (double)nvt == r->null_value, \
                      .stream = r->stream};                              \
  }
RULE_OF(float, uint32_t, 0x80000000u, 0x7f800000u)
RULE_OF(double, uint64_t, 0x8000000000000000u, 0x7ff0000000000000u)
RULE_OF(int32_t, uint32_t, 0, 0)
RULE_OF(int64_t, uint64_t, 0, 0)
#undef RULE_OF

#define SAME_ROW(NAME, T, BITS)                                                   \
  static size_t NAME(void *dst, const void *src, size_t n, const dense_read *r) { \
    const bit_rule b = rule_##T(r);                                               \
    BITS(dst, src, n, &b);                                                        \
    return NONE;                                                                  \
  }
SAME_ROW(row_f32_f32, float, bits32)
SAME_ROW(row_f64_f64, double, bits64)
SAME_ROW(row_i32_i32, int32_t, bits32)
SAME_ROW(row_i64_i64, int64_t, bits64)
#undef SAME_ROW

/* A row of a real source into another real type: as SAME_ROW, and
 * narrowing refuses overflow and underflow (flags or-ed; the first bad cell
 * is looked up only when there is one). */
#define FLOAT_ROW(NAME, S, T)                                                                                   \
  static size_t NAME(void *dst, const void *src, size_t n, const dense_read *r) {                               \
    const S *restrict s = src, nv = (S)r->null_value, big = (S)INFINITY;                                        \
    const int hn = r->has_null && (double)nv == r->null_value;                                                  \
    T *restrict d = dst;                                                                                        \
    const T z = *(const T *)r->absent;                                                                          \
    int bad = 0;                                                                                                \
    for (size_t j = 0; j < n; j++) {                                                                            \
      const S a = s[j];                                                                                         \
      const int edge = (a < big) & (a > -big) & !(hn & (a == nv));                                              \
      const T c = (T)a;                                                                                         \
      if (sizeof(T) < sizeof(S))                                                                                \
        bad |= edge & (!(c < (T)INFINITY) | !(c > -(T)INFINITY) | ((a != 0) & (c < FLT_MIN) & (c > -FLT_MIN))); \
      d[j] = edge ? c : z;                                                                                      \
    }                                                                                                           \
    if (!bad) return NONE;                                                                                      \
    for (size_t j = 0; j < n; j++) {                                                                            \
      const double a = (double)s[j];                                                                            \
      if (!isnan(a) && !isinf(a) && !(hn && s[j] == nv) && !f32_ok(a, (float)a, false, false)) return j;        \
    }                                                                                                           \
    return NONE;                                                                                                \
  }
FLOAT_ROW(row_f64_f32, double, float)
FLOAT_ROW(row_f32_f64, float, double)
#undef FLOAT_ROW

/* A row of an integer (or bool) source into a wider integer type (or bool
 * into bool): null_value to the marker, else the value (every value fits),
 * selected with a mask so that the loop vectorizes. */
#define INT_ROW(NAME, S, T)                                                             \
  static size_t NAME(void *dst, const void *src, size_t n, const dense_read *r) {       \
    const S *restrict s = src, nv = (S)r->null_value;                                   \
    const T hn = r->has_null && (double)nv == r->null_value, z = *(const T *)r->absent; \
    T *restrict d = dst;                                                                \
    _Pragma("omp simd") for (size_t j = 0; j < n; j++) {                                \
      const T m = (T)0 - (hn & (T)(s[j] == nv));                                        \
      d[j] = ((T)s[j] & ~m) | (z & m);                                                  \
    }                                                                                   \
    return NONE;                                                                        \
  }
INT_ROW(row_i32_i64, int32_t, int64_t)
INT_ROW(row_bool_bool, uint8_t, uint8_t)
#undef INT_ROW

typedef size_t (*fast_row)(void *, const void *, size_t, const dense_read *);

/* The one-loop row of (source, target), or NULL: then the rows go through
 * doubles (or the int64 writers). Weighted reads only. */
static fast_row fast_row_of(const dense_read *r) {
  if (r->unweighted) return NULL;
  switch (r->src) {
  case DENSE_F32:
    return r->t == GSP_FP32 ? row_f32_f32 : r->t == GSP_FP64 ? row_f32_f64 : NULL;
  case DENSE_F64:
    return r->t == GSP_FP64 ? row_f64_f64 : r->t == GSP_FP32 ? row_f64_f32 : NULL;
  case DENSE_I32:
    return r->t == GSP_INT32 ? row_i32_i32 : r->t == GSP_INT64 ? row_i32_i64 : NULL;
  case DENSE_I64:
    return r->t == GSP_INT64 ? row_i64_i64 : NULL;
  case DENSE_BOOL:
    return r->t == GSP_BOOL && r->has_null && r->null_value == 0 ? row_bool_bool : NULL;
  default:
    return NULL;
  }
}

static size_t src_size(dense_kind k) {
  static const size_t size[] = {8, 4, 8, 4, 2, 1, 4, 2, 1, sizeof(_Bool)};
  return k < DENSE_UNREAD ? size[k] : 0;
}

size_t dense_convert(void *dst, const void *src, size_t n, const dense_read *read) {
  const size_t ss = src_size(read->src), ts = gsp_type_size(read->t);
  dense_read streamed = *read;
  streamed.stream = (size_t)n * n * ts >= ((size_t)4 << 20); /* beyond the cores' own caches */
  const dense_read *r = &streamed;
  const reader rd = reader_of(r->src);
  const writer wr = writer_of(r->t);
  const fast_row fast = fast_row_of(r);
  const int nt = r->threads > 1 ? r->threads : 1;
  size_t bad = NONE;
  bool oom = false;
#pragma omp parallel num_threads(nt) if (nt > 1) reduction(min : bad) reduction(|| : oom)
  {
    const bool doubles = !fast && r->src != DENSE_I64;
    double *row = doubles ? malloc((n ? n : 1) * sizeof *row) : NULL;
    oom = doubles && !row;
#pragma omp for schedule(static)
    for (size_t i = 0; i < n; i++) {
      if (oom) continue;
      const void *s = (const char *)src + i * n * ss;
      void *d = (char *)dst + i * n * ts;
      size_t b;
      if (fast) b = fast(d, s, n, r);
      else if (r->src == DENSE_I64) b = write_i64_row(d, s, n, r);
      else rd(row, s, n, r), b = wr(d, row, n, r);
      if (b != NONE && i * n + b < bad) bad = i * n + b;
    }
    free(row);
  }
  if (oom) return (size_t)-2;
  if (bad == NONE && r->undirected) undirected(dst, n, r);
  return bad;
}

static const char *type_name(gsp_type t) {
  switch (t) {
  case GSP_FP64:
    return "float64";
  case GSP_FP32:
    return "float32";
  case GSP_INT64:
    return "int64";
  case GSP_INT32:
    return "int32";
  default:
    return "bool";
  }
}

void dense_bad(char *msg, size_t size, const void *src, size_t k, size_t n, const dense_read *r) {
  const size_t i = k / n, j = k % n, ss = src_size(r->src);
  const char *t = type_name(r->t);
  if (r->src == DENSE_I64) {
    const int64_t a = ((const int64_t *)src)[k];
    snprintf(msg, size, "weight %lld at (%zu, %zu) cannot be stored as %s exactly%s", (long long)a, i, j, t,
             r->t == GSP_INT32 ? " (out of the type's range)" : "; round=True stores the nearest");
    return;
  }
  double a;
  reader_of(r->src)(&a, (const char *)src + k * ss, 1, r);
  if (r->t == GSP_FP32 && is_real(r->src)) {
    snprintf(msg, size, "weight %.17g at (%zu, %zu) %s float32", a, i, j, fabs(a) > 1 ? "overflows" : "underflows");
  } else if (r->t == GSP_FP32) {
    snprintf(msg, size, "weight %.17g at (%zu, %zu) cannot be stored as float32 exactly; round=True stores the nearest",
             a, i, j);
  } else {
    const double v = r->round ? nearbyint(a) : a;
    snprintf(msg, size, "weight %.17g at (%zu, %zu) cannot be stored as %s exactly (%s)", a, i, j, t,
             v == trunc(v) ? "out of the type's range" : "not an integer; round=True stores the nearest");
  }
}

bool dense_has_negative(const void *src, size_t cells, const dense_read *r) {
  bool neg = false;
  const size_t ss = src_size(r->src), step = 4096;
  if (r->src == DENSE_I64) {
    const int64_t *s = src;
    for (size_t k = 0; k < cells && !neg; k++) neg = s[k] < 0 && i64_edge(s[k], r);
    return neg;
  }
  double row[4096];
  for (size_t k0 = 0; k0 < cells && !neg; k0 += step) {
    const size_t m = cells - k0 < step ? cells - k0 : step;
    reader_of(r->src)(row, (const char *)src + k0 * ss, m, r);
    for (size_t k = 0; k < m && !neg; k++) neg = row[k] < 0; /* NaN (a non-edge) compares false */
  }
  return neg;
}
