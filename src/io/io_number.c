/* Hand-written number parsing: graph files are mostly digits, and strtod /
 * strtoll (locale lookups, errno) would dominate reading time. Reals take
 * Clinger's exact fast path when the decimal mantissa and exponent are
 * small, and fall back to strtod otherwise, so results are always the
 * correctly rounded double. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

#define is_digit gsp__is_digit
#define is_end   gsp__is_token_end

int gsp__token_len(const char *p, int max) {
  int n = 0;
  while (n < max && p[n] != '\0' && !gsp__is_space(p[n]) && p[n] != ',') n++;
  return n;
}

#define skip_token gsp__skip_token

static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Case-insensitive match of a word at p, followed by a token end. */
static bool word(const char *p, const char *w, const char **after) {
  size_t n = strlen(w);
  for (size_t k = 0; k < n; k++)
    if ((p[k] | 0x20) != w[k]) return false;
  if (!is_end(p[n])) return false;
  *after = p + n;
  return true;
}

/* A token that does not start as a number (after its sign): nan, inf,
 * infinity, or none. */
static gsp__num_kind special(const char **pp, const char *p, bool neg, double *dv) {
  const char *after;
  if (word(p, "nan", &after)) {
    *pp = after;
    return GSP_NUM_NAN;
  }
  if (word(p, "inf", &after) || word(p, "infinity", &after)) {
    *pp = after;
    *dv = neg ? -INFINITY : INFINITY;
    return GSP_NUM_REAL;
  }
  *pp = skip_token(p);
  return GSP_NUM_NONE;
}

/* The real number s[0..len) that the fast path cannot round exactly, by
 * strtod (which sees the sign). */
static gsp__num_kind strtod_real(const char *s, size_t len, double *dv) {
  char tmp[128];
  double d;
  if (len >= sizeof tmp) {
    char *heap = gsp__malloc(len + 1);
    if (!heap) return GSP_NUM_RANGE;
    memcpy(heap, s, len);
    heap[len] = '\0';
    d = strtod(heap, NULL);
    gsp__free(heap);
  } else {
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    d = strtod(tmp, NULL);
  }
  if (isinf(d)) return GSP_NUM_RANGE; /* 1e999 */
  *dv = d;
  /* a nonzero number that became 0 or lost digits below DBL_MIN */
  return fabs(d) < DBL_MIN ? GSP_NUM_UNDERFLOW : GSP_NUM_REAL;
}

gsp__num_kind gsp__parse_number(const char **pp, int64_t *iv, double *dv) {
  const char *p = *pp, *start = p;
  bool neg = false;
  if (*p == '+' || *p == '-') neg = (*p++ == '-');
  if (!is_digit(*p) && *p != '.') return special(pp, p, neg, dv);
  /* mantissa digits, at most 19 significant ones kept exactly */
  uint64_t m = 0;
  int ndig = 0, dropped = 0, frac = 0;
  bool any = false, real = false, lost = false;
  for (; is_digit(*p); p++) {
    any = true;
    if (ndig < 19) {
      m = m * 10 + (uint64_t)(*p - '0');
      if (m) ndig++;
    } else {
      dropped++;
    }
  }
  if (*p == '.') {
    real = true;
    p++;
    for (; is_digit(*p); p++) {
      any = true;
      if (ndig < 19) {
        m = m * 10 + (uint64_t)(*p - '0');
        if (m) ndig++;
        frac++;
      } else {
        lost = true;
      }
    }
  }
  if (!any) {
    *pp = skip_token(p);
    return GSP_NUM_NONE;
  }
  int64_t ex = 0;
  if (*p == 'e' || *p == 'E') {
    real = true;
    p++;
    bool eneg = false;
    if (*p == '+' || *p == '-') eneg = (*p++ == '-');
    if (!is_digit(*p)) {
      *pp = skip_token(p);
      return GSP_NUM_JUNK;
    }
    for (; is_digit(*p); p++)
      if (ex < 100000) ex = ex * 10 + (*p - '0');
    if (eneg) ex = -ex;
  }
  if (!is_end(*p)) {
    *pp = skip_token(p);
    return GSP_NUM_JUNK;
  }
  *pp = p;
  if (!real) {
    if (dropped || m > (uint64_t)INT64_MAX + neg) return GSP_NUM_RANGE;
    *iv = neg ? (int64_t)(0 - m) : (int64_t)m;
    return GSP_NUM_INT;
  }
  int64_t e10 = ex - frac + dropped;
  double d;
  if (m == 0) {
    d = 0.0;
  } else if (!lost && !dropped && m <= ((uint64_t)1 << 53) && e10 >= -22 && e10 <= 22) {
    d = (double)m; /* exact, and one correctly rounded operation */
    d = e10 < 0 ? d / pow10_exact[-e10] : d * pow10_exact[e10];
  } else {
    return strtod_real(start, (size_t)(p - start), dv);
  }
  *dv = neg ? -d : d;
  return GSP_NUM_REAL;
}
