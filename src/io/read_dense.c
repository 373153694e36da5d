/* Readers of the two dense binary formats: gsp's own .gspd (self-describing
 * 64-byte header) and NumPy .npy (2-D, C order, bool/int32/int64/float32/
 * float64, little-endian). Values equal to the absent value are absent. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "io_internal.h"

static bool little_endian(void) {
  const uint16_t one = 1;
  return *(const uint8_t *)&one == 1;
}

static uint32_t get_u32(const unsigned char *b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}
static uint64_t get_u64(const unsigned char *b) {
  return (uint64_t)get_u32(b) | (uint64_t)get_u32(b + 4) << 32;
}

/* Value k of a dense array of type t as a double / as an int64. */
static double dval(const void *x, gsp_type t, size_t k) {
  return gsp__value_f64(gsp__cat(x, t, (int64_t)k), t);
}
static int64_t ival(const void *x, gsp_type t, size_t k) {
  return t == GSP_INT32 ? ((const int32_t *)x)[k] : t == GSP_INT64 ? ((const int64_t *)x)[k] : ((const uint8_t *)x)[k];
}

/* The caller's absent value (gsp_read_opts.absent) as one value of type t
 * into *out; *nan tells that NaN entries are the absent ones. */
static gsp_info user_absent(const gsp__reader *r, const gsp__read_ctx *c, gsp_type t, void *out, bool *nan) {
  double a = c->o.absent;
  *nan = isnan(a);
  switch (t) {
  case GSP_BOOL:
    *(bool *)out = a != 0;
    break;
  case GSP_INT32:
  case GSP_INT64:
    /* +-inf: the integer "infinity" gsp writes (INT_MAX), and its mirror */
    if (isinf(a)) {
      bool neg = a < 0;
      if (t == GSP_INT32) *(int32_t *)out = neg ? INT32_MIN : INT32_MAX;
      else *(int64_t *)out = neg ? INT64_MIN : INT64_MAX;
      break;
    }
    if (isnan(a) || a != floor(a) ||
        (t == GSP_INT32 ? (a < INT32_MIN || a > INT32_MAX)
                        : (a < -9223372036854775808.0 || a >= 9223372036854775808.0)))
      return GSP_ERROR(GSP_INVALID_VALUE,
                       "%s: absent value %g is not a value of the file's "
                       "integer dtype %s (an integer, or inf for the "
                       "largest value)",
                       r->path, a, t == GSP_INT32 ? "int32" : "int64");
    if (t == GSP_INT32) *(int32_t *)out = (int32_t)a;
    else *(int64_t *)out = (int64_t)a;
    break;
  case GSP_FP32:
    *(float *)out = (float)a;
    break;
  default:
    *(double *)out = a;
    break;
  }
  return GSP_SUCCESS;
}

/* Before converting the stored values to the caller's type u: every
 * present value must fit by the value rule of gsp_read_opts.round. */
static gsp_info check_cast(const gsp__reader *r, const void *x, gsp_type t, gsp_type u, size_t nn, uint64_t ncols,
                           const void *absent) {
  const char *un = u == GSP_INT32 ? "int32" : u == GSP_INT64 ? "int64" : u == GSP_FP32 ? "fp32" : "fp64";
  size_t ts = gsp_type_size(t);
  for (size_t k = 0; k < nn; k++) {
    const void *v = (const char *)x + k * ts;
    if (absent && (t == GSP_FP32   ? *(const float *)v == *(const float *)absent
                   : t == GSP_FP64 ? *(const double *)v == *(const double *)absent
                                   : memcmp(v, absent, ts) == 0))
      continue;
    bool ok = true;
    bool is_int = t == GSP_BOOL || t == GSP_INT32 || t == GSP_INT64;
    double d = dval(x, t, k);
    int64_t i = is_int ? ival(x, t, k) : 0;
    switch (u) {
    case GSP_BOOL:
      break;
    case GSP_INT32:
    case GSP_INT64:
      if (is_int) ok = u == GSP_INT64 || (i >= INT32_MIN && i <= INT32_MAX);
      else
        ok = isfinite(d) && d == floor(d) &&
             (u == GSP_INT32 ? d >= INT32_MIN && d <= INT32_MAX
                             : d >= -9223372036854775808.0 && d < 9223372036854775808.0);
      break;
    case GSP_FP32:
      if (is_int) ok = gsp__int_exact_fp32(i);
      else ok = !isfinite(d) || d == 0 || (fabs(d) <= FLT_MAX && fabs(d) >= FLT_MIN);
      break;
    case GSP_FP64:
      if (is_int) ok = gsp__int_exact_fp64(i);
      break;
    }
    if (!ok)
      return GSP_ERROR(GSP_PARSE_ERROR,
                       "%s: value %.17g at (%llu, %llu) cannot be stored as "
                       "%s without rounding or overflow (read option round, "
                       "gsp --round, accepts the nearest value)",
                       r->path, d, (unsigned long long)(k / ncols), (unsigned long long)(k % ncols), un);
  }
  return GSP_SUCCESS;
}

/* *x = the bytes (exactly `bytes` of them, then the end of the data) of
 * nrows x ncols values. The header is not trusted with the allocation:
 * the buffer grows as data arrives, so a small file claiming huge
 * dimensions fails as truncated instead of first asking for gigabytes. */
static gsp_info read_bytes(void **x, gsp__reader *r, size_t bytes, uint64_t nrows, uint64_t ncols) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL GSP_FREE(*x)
  size_t cap = bytes < ((size_t)64 << 20) ? bytes : ((size_t)64 << 20), have = 0, got;
  GSP_ALLOC(*x, cap ? cap : 1, 1);
  while (have < bytes) {
    if (have == cap) {
      size_t ncap = cap > bytes / 2 ? bytes : 2 * cap;
      void *nx = gsp__realloc_array(*x, ncap, 1);
      GSP_CHECK(nx != NULL, GSP_OUT_OF_MEMORY, "%s: cannot allocate %zu bytes of values", r->path, ncap);
      *x = nx;
      cap = ncap;
    }
    GSP_TRY(gsp__reader_bytes(r, (char *)*x + have, cap - have, &got));
    if (got == 0) break;
    have += got;
  }
  GSP_CHECK(have == bytes, GSP_PARSE_ERROR, "%s: truncated: %zu of the %zu bytes of %llu x %llu values", r->path, have,
            bytes, (unsigned long long)nrows, (unsigned long long)ncols);
  char extra;
  GSP_TRY(gsp__reader_bytes(r, &extra, 1, &got));
  GSP_CHECK(got == 0, GSP_PARSE_ERROR, "%s: data continues after the %llu x %llu values", r->path,
            (unsigned long long)nrows, (unsigned long long)ncols);
#undef GSP_FREE_ALL
  return info;
}

#define GSP_FREE_ALL

/* NaN marks absence: NaN never compares equal, so the absent entries get a
 * value the data does not hold, which becomes *mine. */
static gsp_info mark_nan_absent(const gsp__reader *r, void *x, gsp_type t, size_t nn, gsp__value *mine) {
  gsp_info info = GSP_SUCCESS;
  static const double marks[] = {INFINITY, -INFINITY, DBL_MAX, -DBL_MAX};
  int pick = -1;
  for (int m = 0; m < 4 && pick < 0; m++) {
    double mk = t == GSP_FP32 ? (double)(float)marks[m] : marks[m];
    bool used = false;
    for (size_t k = 0; k < nn && !used; k++) used = dval(x, t, k) == mk;
    if (!used) pick = m;
  }
  GSP_CHECK(pick >= 0, GSP_PARSE_ERROR,
            "%s: with NaN as the absent value the data must leave one of "
            "inf, -inf or the largest finite value unused",
            r->path);
  for (size_t k = 0; k < nn; k++) {
    if (!isnan(dval(x, t, k))) continue;
    if (t == GSP_FP32) ((float *)x)[k] = (float)marks[pick];
    else ((double *)x)[k] = marks[pick];
  }
  if (t == GSP_FP32) mine->f32 = (float)marks[pick];
  else mine->f64 = marks[pick];
  return info;
}

/* numpy / networkx adjacency matrices write 0 for "no edge"; gsp writes
 * inf / INT_MAX. A matrix holding no inf / INT_MAX at all but a 0 off the
 * diagonal is most likely the former, so the caller must say (a matrix
 * that holds both is read the gsp way: 0 is a weight). */
static gsp_info refuse_ambiguous_zero(const gsp__reader *r, const void *x, gsp_type t, size_t nn, uint64_t ncols,
                                      const void *absent) {
  gsp_info info = GSP_SUCCESS;
  const size_t ts = gsp_type_size(t);
  bool gsp_style = false;
  for (size_t k = 0; k < nn && !gsp_style; k++) gsp_style = memcmp((const char *)x + k * ts, absent, ts) == 0;
  for (size_t k = 0; k < nn && !gsp_style; k++) {
    if (k / ncols == k % ncols || dval(x, t, k) != 0) continue;
    GSP_CHECK(false, GSP_PARSE_ERROR,
              "%s: value 0 at (%llu, %llu), off the diagonal, and no "
              "absent value was given: pass --absent 0 (read option "
              "use_absent/absent) if 0 means no arc, as in numpy and "
              "networkx adjacency matrices, or --absent inf if 0 is an arc "
              "weight",
              r->path, (unsigned long long)(k / ncols), (unsigned long long)(k % ncols));
  }
  return info;
}
#undef GSP_FREE_ALL

/* Read nrows*ncols values of type t, check size and NaN, and build *A.
 * `absent` is the file's own absent value (or NULL); the caller's
 * gsp_read_opts.absent overrides it. `ask_absent`: the format cannot say
 * which value means "no arc" (.npy), so zeros off the diagonal without an
 * explicit absent value are refused as ambiguous. */
static gsp_info read_values(gsp_matrix *A, gsp__reader *r, const gsp__read_ctx *c, gsp_type t, uint64_t nrows,
                            uint64_t ncols, const void *absent, bool ask_absent) {
  gsp_info info = GSP_SUCCESS;
  void *x = NULL;
  gsp_matrix M = NULL;
#define GSP_FREE_ALL (gsp__free(x), gsp_matrix_free(&M))
  GSP_CHECK(nrows <= GSP_INDEX_MAX && ncols <= GSP_INDEX_MAX, GSP_PARSE_ERROR,
            "%s: %llu x %llu exceeds the largest matrix", r->path, (unsigned long long)nrows,
            (unsigned long long)ncols);
  size_t ts = gsp_type_size(t), nn, bytes;
  GSP_CHECK(gsp__mul_size(&nn, nrows, ncols) && gsp__mul_size(&bytes, nn, ts), GSP_TOO_LARGE,
            "%s: %llu x %llu values overflow memory sizes", r->path, (unsigned long long)nrows,
            (unsigned long long)ncols);
  GSP_TRY(read_bytes(&x, r, bytes, nrows, ncols));
  /* an empty array (one dimension 0) justifies no size: 2e9 x 0 would
   * otherwise become 16 GB of row pointers later */
  GSP_TRY(gsp__check_dims(r, nrows, ncols, "the header declares", ""));
  gsp__value mine;
  bool nan_absent = false;
  if (c->o.use_absent) {
    GSP_TRY(user_absent(r, c, t, &mine, &nan_absent));
    absent = &mine;
  }
  bool fp = t == GSP_FP32 || t == GSP_FP64;
  if (fp && nan_absent) GSP_TRY(mark_nan_absent(r, x, t, nn, &mine));
  for (size_t k = 0; k < nn && fp; k++) {
    double v = dval(x, t, k);
    GSP_CHECK(!isnan(v), GSP_PARSE_ERROR,
              "%s: value (%llu, %llu) is NaN (pass NaN as the absent value, "
              "gsp --absent nan, if NaN means no arc)",
              r->path, (unsigned long long)(k / ncols), (unsigned long long)(k % ncols));
  }
  if (t == GSP_BOOL) /* any nonzero byte is true; normalise */
    for (size_t k = 0; k < nn; k++) ((uint8_t *)x)[k] = ((uint8_t *)x)[k] != 0;
  if (ask_absent && !c->o.use_absent && t != GSP_BOOL) GSP_TRY(refuse_ambiguous_zero(r, x, t, nn, ncols, absent));
  if (c->o.use_type && c->type != t && !c->o.round) GSP_TRY(check_cast(r, x, t, c->type, nn, ncols, absent));
  GSP_TRY(gsp_matrix_pack_dense(&M, t, nrows, ncols, &x, absent));
  if (c->o.use_type && c->type != t) {
    gsp_matrix C = NULL;
    GSP_TRY(gsp_matrix_cast(&C, M, c->type));
    gsp_matrix_free(&M);
    M = C;
  }
  *A = M;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__read_dense(gsp_matrix *A, gsp__reader *r, const gsp__read_ctx *c) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_CHECK(little_endian(), GSP_IO_ERROR, "%s: binary formats need a little-endian host", r->path);
  unsigned char h[GSP_DENSE_HEADER];
  size_t got;
  GSP_TRY(gsp__reader_bytes(r, h, sizeof h, &got));
  GSP_CHECK(got >= 8 && memcmp(h, GSP_DENSE_MAGIC, 8) == 0, GSP_PARSE_ERROR,
            "%s: not a gsp dense file (magic \"GSPDENSE\" missing)", r->path);
  GSP_CHECK(got == sizeof h, GSP_PARSE_ERROR, "%s: truncated header", r->path);
  uint32_t version = get_u32(h + 8), type = get_u32(h + 12);
  GSP_CHECK(version == GSP_DENSE_VERSION, GSP_PARSE_ERROR, "%s: unsupported version %u (this library reads %u)",
            r->path, version, GSP_DENSE_VERSION);
  GSP_CHECK(type <= GSP_FP64, GSP_PARSE_ERROR, "%s: unknown type code %u", r->path, type);
  GSP_CHECK(get_u32(h + 40) == GSP_DENSE_HEADER, GSP_PARSE_ERROR, "%s: header size %u, expected %u", r->path,
            get_u32(h + 40), GSP_DENSE_HEADER);
  bool has_absent = get_u32(h + 44) & 1;
  if (has_absent && (type == GSP_FP32 || type == GSP_FP64)) {
    double a = type == GSP_FP32 ? (double)*(float *)(h + 32) : *(double *)(h + 32);
    GSP_CHECK(!isnan(a), GSP_PARSE_ERROR, "%s: absent value is NaN", r->path);
  }
  GSP_TRY(read_values(A, r, c, (gsp_type)type, get_u64(h + 16), get_u64(h + 24), has_absent ? h + 32 : NULL, false));
  return info;
}

/* Past one value of the header dict: a quoted string, a bracketed tuple or
 * list (nested, with quoted strings inside), or a bare word. NULL when it
 * does not end. */
static const char *skip_value(const char *p) {
  int depth = 0;
  do {
    if (*p == '\'' || *p == '"') {
      const char *q = strchr(p + 1, *p);
      if (!q) return NULL;
      p = q + 1;
      continue;
    }
    if (*p == '\0') return NULL;
    if (*p == '(' || *p == '[') depth++;
    else if (*p == ')' || *p == ']') depth--;
    else if (depth == 0 && (*p == ',' || *p == '}')) return p;
    p++;
  } while (depth > 0 || (*p != ',' && *p != '}'));
  return p;
}

/* Value of key 'name' in the header dict, as the text after the colon.
 * The dict is walked key by key, so a key inside a value is not a key, and
 * a repeated key gives its last value, as numpy reads it. NULL when the key
 * is missing or the dict malformed. */
static const char *dict_value(const char *hdr, const char *name) {
  const char *p = gsp__skip_space(hdr), *found = NULL;
  if (*p++ != '{') return NULL;
  const size_t len = strlen(name);
  for (;;) {
    p = gsp__skip_space(p);
    if (*p == '}') return found;
    if (*p != '\'' && *p != '"') return NULL;
    const char *end = strchr(p + 1, *p);
    if (!end) return NULL;
    const bool match = (size_t)(end - p - 1) == len && strncmp(p + 1, name, len) == 0;
    p = gsp__skip_space(end + 1);
    if (*p++ != ':') return NULL;
    p = gsp__skip_space(p);
    if (match) found = p;
    if (!(p = skip_value(p))) return NULL;
    p = gsp__skip_space(p);
    if (*p == ',') p++;
  }
}

/* The type of the header's descr (a dtype numpy writes for a plain array). */
static gsp_info npy_dtype(gsp_type *t, const gsp__reader *r, const char *d) {
  const gsp_info info = GSP_SUCCESS;
  static const struct {
    const char *descr;
    gsp_type t;
  } dtypes[] = {
      {"'|b1'", GSP_BOOL}, {"'<i4'", GSP_INT32}, {"'<i8'", GSP_INT64}, {"'<f4'", GSP_FP32}, {"'<f8'", GSP_FP64}};
  for (int k = 0; k < 5; k++)
    if (strncmp(d, dtypes[k].descr, strlen(dtypes[k].descr)) == 0) {
      *t = dtypes[k].t;
      return info;
    }
  /* name the whole dtype: a quoted string, or up to the next ',' */
  int n = 0;
  if (*d == '\'' || *d == '"') {
    const char *q = strchr(d + 1, *d);
    n = q ? (int)(q - d) + 1 : (int)strlen(d);
  } else if (*d == '[') {
    const char *q = strchr(d, ']');
    n = q ? (int)(q - d) + 1 : (int)strlen(d);
  } else {
    while (d[n] && d[n] != ',' && d[n] != '}') n++;
  }
  if (n > 80) n = 80;
  return GSP_ERROR(GSP_PARSE_ERROR,
                   "%s: dtype %.*s is not supported; supported dtypes: bool "
                   "'|b1', int32 '<i4', int64 '<i8', float32 '<f4', float64 "
                   "'<f8' (convert with numpy's astype)",
                   r->path, n, d);
}

/* The two dimensions of the header's shape "(rows, cols)". */
static gsp_info npy_shape(unsigned long long dims[3], const gsp__reader *r, const char *s) {
  gsp_info info = GSP_SUCCESS;
  int nd = 0;
  const char *p = s;
  GSP_CHECK(*p == '(', GSP_PARSE_ERROR, "%s: malformed shape", r->path);
  p++;
  while (nd < 3) {
    p = gsp__skip_space(p);
    if (*p == ')') break;
    uint64_t v = 0;
    GSP_CHECK(*p >= '0' && *p <= '9', GSP_PARSE_ERROR, "%s: malformed shape", r->path);
    for (; *p >= '0' && *p <= '9'; p++) {
      GSP_CHECK(v < ((uint64_t)1 << 40), GSP_PARSE_ERROR, "%s: shape too large", r->path);
      v = v * 10 + (uint64_t)(*p - '0');
    }
    dims[nd++] = v;
    p = gsp__skip_space(p);
    if (*p == ',') p++;
  }
  GSP_CHECK(nd == 2, GSP_PARSE_ERROR, "%s: a %d-dimensional array is not a matrix", r->path, nd);
  return info;
}
#undef GSP_FREE_ALL

/* *hdr = the header dictionary (a new string) after the magic, version and
 * length. */
static gsp_info npy_header(char **hdr, gsp__reader *r) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL GSP_FREE(*hdr)
  unsigned char pre[10];
  size_t got;
  GSP_TRY(gsp__reader_bytes(r, pre, 8, &got));
  GSP_CHECK(got == 8 && memcmp(pre, "\x93NUMPY", 6) == 0, GSP_PARSE_ERROR, "%s: not a .npy file (magic missing)",
            r->path);
  GSP_CHECK(pre[6] >= 1 && pre[6] <= 3, GSP_PARSE_ERROR, "%s: unsupported .npy version %u.%u", r->path, pre[6], pre[7]);
  size_t hlen;
  if (pre[6] == 1) {
    GSP_TRY(gsp__reader_bytes(r, pre + 8, 2, &got));
    GSP_CHECK(got == 2, GSP_PARSE_ERROR, "%s: truncated header", r->path);
    hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
  } else {
    unsigned char b[4];
    GSP_TRY(gsp__reader_bytes(r, b, 4, &got));
    GSP_CHECK(got == 4, GSP_PARSE_ERROR, "%s: truncated header", r->path);
    hlen = get_u32(b);
  }
  GSP_CHECK(hlen < ((size_t)1 << 20), GSP_PARSE_ERROR, "%s: header of %zu bytes is too long", r->path, hlen);
  GSP_ALLOC(*hdr, hlen + 1, 1);
  GSP_TRY(gsp__reader_bytes(r, *hdr, hlen, &got));
  GSP_CHECK(got == hlen, GSP_PARSE_ERROR, "%s: truncated header", r->path);
  (*hdr)[hlen] = '\0';
  GSP_CHECK(strlen(*hdr) == hlen, GSP_PARSE_ERROR, "%s: NUL in the header", r->path);
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__read_npy(gsp_matrix *A, gsp__reader *r, const gsp__read_ctx *c) {
  gsp_info info = GSP_SUCCESS;
  char *hdr = NULL;
#define GSP_FREE_ALL gsp__free(hdr)
  GSP_CHECK(little_endian(), GSP_IO_ERROR, "%s: binary formats need a little-endian host", r->path);
  GSP_TRY(npy_header(&hdr, r));
  const char *d = dict_value(hdr, "descr");
  const char *f = dict_value(hdr, "fortran_order");
  const char *s = dict_value(hdr, "shape");
  GSP_CHECK(d && f && s, GSP_PARSE_ERROR, "%s: header lacks descr, fortran_order or shape", r->path);
  gsp_type t = GSP_BOOL;
  GSP_TRY(npy_dtype(&t, r, d));
  GSP_CHECK(strncmp(f, "False", 5) == 0, GSP_PARSE_ERROR, "%s: Fortran-order arrays are not supported", r->path);
  unsigned long long dims[3];
  GSP_TRY(npy_shape(dims, r, s));
  gsp__value absent;
  gsp__default_absent(&absent, t);
  GSP_TRY(read_values(A, r, c, t, dims[0], dims[1], &absent, true));
#undef GSP_FREE_ALL
  gsp__free(hdr);
  return info;
}
