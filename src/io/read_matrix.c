/* gsp_matrix_read: option defaults, format detection, value checking. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "io_internal.h"

/* Extension of path after dropping a ".gz" (lower case, without the dot)
 * into ext[len]. */
static void extension(const char *path, char *ext, size_t len) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strlen(base);
  if (n > 3 && strcmp(base + n - 3, ".gz") == 0) n -= 3;
  size_t dot = n;
  while (dot > 0 && base[dot - 1] != '.') dot--;
  ext[0] = '\0';
  if (dot == 0 || n - dot >= len) return;
  for (size_t k = dot; k < n; k++) ext[k - dot] = (char)(base[k] | 0x20);
  ext[n - dot] = '\0';
}

gsp_file_format gsp__format_from_path(const char *path) {
  char ext[16];
  extension(path, ext, sizeof ext);
  if (!strcmp(ext, "mtx") || !strcmp(ext, "mm")) return GSP_FILE_MTX;
  if (!strcmp(ext, "gr") || !strcmp(ext, "dimacs")) return GSP_FILE_DIMACS;
  if (!strcmp(ext, "npy")) return GSP_FILE_NPY;
  if (!strcmp(ext, "gspd")) return GSP_FILE_DENSE;
  if (!strcmp(ext, "txt") || !strcmp(ext, "el") || !strcmp(ext, "edges") || !strcmp(ext, "edgelist") ||
      !strcmp(ext, "tsv") || !strcmp(ext, "csv") || !strcmp(ext, "snap"))
    return GSP_FILE_EDGELIST;
  return GSP_FILE_AUTO;
}

/* Decide the format from the first bytes of the open input (magic numbers,
 * then the first non-blank line), without consuming them: the same stream
 * then goes to the format reader, so a pipe is read once. */
static gsp_info sniff(gsp_file_format *f, gsp__reader *r) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__reader_peek(r, 8));
  const char *h = r->buf + r->pos;
  size_t got = r->len - r->pos;
  *f = GSP_FILE_EDGELIST;
  GSP_CHECK(!(got >= 4 && memcmp(h, "PK\x03\x04", 4) == 0), GSP_PARSE_ERROR,
            "%s: a zip archive (an .npz?) is not supported; write one array "
            "with numpy.save to a .npy file",
            r->path);
  if (got >= 6 && memcmp(h, "\x93NUMPY", 6) == 0) *f = GSP_FILE_NPY;
  else if (got >= 8 && memcmp(h, GSP_DENSE_MAGIC, 8) == 0) *f = GSP_FILE_DENSE;
  else if (got >= 2 && memcmp(h, "%%", 2) == 0) *f = GSP_FILE_MTX;
  else if (got > 0) {
    /* text: decide on the first line that is not blank */
    GSP_TRY(gsp__reader_peek(r, (size_t)1 << 16));
    const char *p = r->buf + r->pos, *e = r->buf + r->len;
    while (p < e && (gsp__is_space(*p) || *p == '\n')) p++;
    if (p < e && (*p == 'c' || *p == 'p') &&
        (p + 1 == e || p[1] == ' ' || p[1] == '\t' || p[1] == '\r' || p[1] == '\n'))
      *f = GSP_FILE_DIMACS;
  }
  return info;
}

/* the token's length, only ever needed for a message */
#define tl gsp__token_len(tok, 40)

/* No type asked for: integers stay integers until a real weight makes
 * every weight fp64 (then each must be exact there, or --round). */
static gsp_info natural_value(const gsp__reader *r, bool round, gsp__num_kind kind, int64_t iv, double dv,
                              const char *tok, gsp__tuples *T, gsp__val *out) {
  if (kind == GSP_NUM_INT) {
    if (T->real) {
      if (!round && !gsp__int_exact_fp64(iv))
        return gsp__parse_error(r,
                                "integer weight %lld cannot be stored "
                                "exactly as fp64 (the file has real "
                                "weights; --round accepts the "
                                "nearest value)",
                                (long long)iv);
      out->d = (double)iv;
    } else {
      out->i = iv;
    }
    return GSP_SUCCESS;
  }
  if (!T->real) {
    if (!round)
      for (size_t k = 0; k < T->n; k++)
        if (!gsp__int_exact_fp64(T->val[k].i))
          return gsp__parse_error(r,
                                  "real weight '%.*s' makes the weights fp64, but an "
                                  "earlier integer weight %lld cannot be stored exactly "
                                  "as fp64 (--round accepts the nearest value)",
                                  tl, tok, (long long)T->val[k].i);
    gsp__tuples_make_real(T);
  }
  out->d = dv;
  return GSP_SUCCESS;
}

/* INT32 or INT64 asked for: a real weight must be a whole number in range. */
static gsp_info int_value(const gsp__reader *r, gsp_type t, bool round, gsp__num_kind kind, int64_t iv, double dv,
                          const char *tok, gsp__val *out) {
  const char *tn = t == GSP_INT32 ? "int32" : "int64";
  if (kind == GSP_NUM_REAL) {
    if (!isfinite(dv)) return gsp__parse_error(r, "weight %g cannot be stored as %s", dv, tn);
    if (dv != floor(dv)) {
      if (!round)
        return gsp__parse_error(r,
                                "weight %.*s is not an integer (type "
                                "%s); --round accepts the nearest "
                                "integer",
                                tl, tok, tn);
      dv = nearbyint(dv);
    }
    if (dv < -9223372036854775808.0 || dv >= 9223372036854775808.0)
      return gsp__parse_error(r, "weight '%.*s' out of range of %s", tl, tok, tn);
    iv = (int64_t)dv;
  }
  if (t == GSP_INT32 && (iv < INT32_MIN || iv > INT32_MAX))
    return gsp__parse_error(r, "weight %lld out of range of int32", (long long)iv);
  out->i = iv;
  return GSP_SUCCESS;
}

/* FP32 or FP64 asked for: integers exact (or --round), no overflow or
 * underflow of fp32. */
static gsp_info float_value(const gsp__reader *r, gsp_type t, bool round, gsp__num_kind kind, int64_t iv, double dv,
                            const char *tok, gsp__val *out) {
  const bool f32 = t == GSP_FP32;
  const char *tn = f32 ? "fp32" : "fp64";
  if (kind == GSP_NUM_INT) {
    if (!round && !(f32 ? gsp__int_exact_fp32(iv) : gsp__int_exact_fp64(iv)))
      return gsp__parse_error(r,
                              "integer weight %lld cannot be stored "
                              "exactly as %s (nearest: %.17g; --round "
                              "accepts the nearest value)",
                              (long long)iv, tn, f32 ? (double)(float)iv : (double)iv);
    out->d = (double)iv;
    return GSP_SUCCESS;
  }
  if (f32 && isfinite(dv) && fabs(dv) > FLT_MAX)
    return gsp__parse_error(r, "weight '%.*s' out of range of fp32", tl, tok);
  if (f32 && !round && dv != 0 && fabs(dv) < FLT_MIN)
    return gsp__parse_error(r,
                            "weight '%.*s' underflows: it is below the "
                            "smallest normal fp32 number (1.2e-38) and "
                            "would lose digits or become 0 ",
                            tl, tok);
  out->d = dv;
  return GSP_SUCCESS;
}

/* The value rule (docs/formats.md, "Exact values"): integers are stored
 * exactly or refused; reals are rounded to the nearest value of the type but
 * must not overflow or underflow (fall below the smallest normal number);
 * gsp_read_opts.round accepts the nearest value instead of refusing. */
gsp_info gsp__value_accept(const gsp__reader *r, const gsp__read_ctx *c, gsp__num_kind kind, int64_t iv, double dv,
                           const char *tok, gsp__tuples *T, gsp__val *out) {
  /* callers report NONE / JUNK themselves (they know the token) */
  if (!tok) tok = "";
  const bool round = c->o.round;
  if (kind == GSP_NUM_NAN) return gsp__parse_error(r, "weight is NaN");
  if (kind == GSP_NUM_RANGE) return gsp__parse_error(r, "weight out of range of 64-bit numbers");
  if (kind == GSP_NUM_UNDERFLOW) {
    if (!round && !(c->o.use_type && c->type == GSP_BOOL))
      return gsp__parse_error(r,
                              "weight '%.*s' underflows: it is below the "
                              "smallest normal fp64 number (2.2e-308) "
                              "and would lose digits or become 0 "
                              "(--round accepts that)",
                              tl, tok);
    kind = GSP_NUM_REAL;
  }
  if (!c->o.use_type) return natural_value(r, round, kind, iv, dv, tok, T, out);
  switch (c->type) {
  case GSP_BOOL:
    out->i = kind == GSP_NUM_INT ? iv != 0 : dv != 0;
    return GSP_SUCCESS;
  case GSP_INT32:
  case GSP_INT64:
    return int_value(r, c->type, round, kind, iv, dv, tok, out);
  case GSP_FP32:
  case GSP_FP64:
    return float_value(r, c->type, round, kind, iv, dv, tok, out);
  }
  return gsp__parse_error(r, "invalid result type");
}
#undef tl

gsp_info gsp__read_value(const gsp__reader *r, const gsp__read_ctx *c, const char **p, gsp__tuples *T, gsp__val *out) {
  *p = gsp__skip_space(*p);
  const char *tok = *p;
  int64_t iv = 0;
  double dv = 0;
  gsp__num_kind kind = gsp__parse_number(p, &iv, &dv);
  if (kind == GSP_NUM_NONE || kind == GSP_NUM_JUNK) {
    if (*tok == '\0' || *tok == '#') return gsp__parse_error(r, "missing weight");
    return gsp__parse_error(r, "weight '%.*s' is not a number", gsp__token_len(tok, 40), tok);
  }
  return gsp__value_accept(r, c, kind, iv, dv, tok, T, out);
}

gsp_info gsp__read_index(const gsp__reader *r, const char **p, uint64_t *out, const char *what) {
  *p = gsp__skip_space(*p);
  const char *tok = *p;
  gsp__num_kind kind = gsp__parse_index(p, out);
  if (kind == GSP_NUM_INT) return GSP_SUCCESS;
  if (*tok == '\0' || *tok == '#' || *tok == '%') return gsp__parse_error(r, "missing %s", what);
  if (*tok == '-') return gsp__parse_error(r, "%s '%.*s' is negative", what, gsp__token_len(tok, 40), tok);
  if (kind == GSP_NUM_RANGE) return gsp__parse_error(r, "%s '%.*s' is too large", what, gsp__token_len(tok, 40), tok);
  return gsp__parse_error(r, "%s '%.*s' is not a non-negative integer", what, gsp__token_len(tok, 40), tok);
}

gsp_info gsp__tuples_for(gsp__tuples *T, const gsp__read_ctx *c, bool weighted, size_t reserve) {
  gsp_info info = gsp__tuples_init(T, weighted, reserve);
  if (info < 0) return info;
  T->real = c->o.use_type && (c->type == GSP_FP32 || c->type == GSP_FP64);
  return GSP_SUCCESS;
}

gsp_type gsp__result_type(const gsp__read_ctx *c, const gsp__tuples *T) {
  return c->o.use_type ? c->type : gsp__natural_type(T);
}

gsp_info gsp__check_dims(const gsp__reader *r, uint64_t nrows, uint64_t ncols, const char *source, const char *hint) {
  uint64_t bytes = r->decoded > 0 ? (uint64_t)r->decoded : 0;
  uint64_t limit = bytes > GSP_READ_DIM_FLOOR / 4 ? 4 * bytes : GSP_READ_DIM_FLOOR;
  if (nrows <= limit && ncols <= limit) return GSP_SUCCESS;
  return GSP_ERROR(GSP_PARSE_ERROR,
                   "%s: %s %llu x %llu, but the input holds only %llu bytes; "
                   "dimensions above %llu (4 per input byte, at least %llu) "
                   "are refused so that a short or damaged file cannot "
                   "allocate gigabytes%s",
                   r->path, source, (unsigned long long)nrows, (unsigned long long)ncols, (unsigned long long)bytes,
                   (unsigned long long)limit, (unsigned long long)GSP_READ_DIM_FLOOR, hint);
}

gsp_info gsp__ids_identity(int64_t **ids, gsp_index n, int64_t base) {
  gsp_info info = GSP_SUCCESS;
  int64_t *a;
  GSP_ALLOC(a, n ? n : 1, sizeof *a);
  for (gsp_index k = 0; k < n; k++) a[k] = (int64_t)k + base;
  *ids = a;
  return info;
}

/* Vertex id modes number the vertices of edge lists; every other format
 * fixes its own numbering (Matrix Market and DIMACS from 1 by definition,
 * the dense formats by position), so a mode there is refused, not ignored. */
static gsp_info check_id_mode(const char *fn, const gsp__reader *r, gsp_file_format f, gsp_id_mode ids) {
  if (ids == GSP_IDS_ZERO_BASED || f == GSP_FILE_EDGELIST) return GSP_SUCCESS;
  static const char *const what[] = {[GSP_FILE_MTX] = "Matrix Market numbers vertices from 1 by definition",
                                     [GSP_FILE_DIMACS] = "DIMACS numbers vertices from 1 by definition",
                                     [GSP_FILE_DENSE] = "a dense file numbers vertices by position",
                                     [GSP_FILE_NPY] = "a dense file numbers vertices by position"};
  return GSP_ERROR(GSP_INVALID_VALUE, "%s: %s: %s; the id mode %s applies to edge lists only", fn, r->path, what[f],
                   ids == GSP_IDS_ONE_BASED ? "GSP_IDS_ONE_BASED (gsp --one-based)" : "GSP_IDS_REMAP (gsp --remap)");
}

/* Both public readers; fn names the one called in messages. */
/* The reading context of the options (checked). */
static gsp_info read_context(gsp__read_ctx *c, const char *fn, const gsp_read_opts *opts) {
  gsp_info info = GSP_SUCCESS;
  memset(c, 0, sizeof *c);
  if (opts) c->o = *opts;
  c->type = c->o.type;
  c->dup = c->o.use_dup ? c->o.dup : GSP_DUP_MIN;
  if (c->o.use_type) GSP_TRY(gsp__check_type(c->type, fn));
  GSP_CHECK(c->dup >= GSP_DUP_ERROR && c->dup <= GSP_DUP_PLUS, GSP_INVALID_VALUE, "%s: invalid duplicate policy %d", fn,
            (int)c->dup);
  GSP_CHECK(c->o.ids >= GSP_IDS_ZERO_BASED && c->o.ids <= GSP_IDS_REMAP, GSP_INVALID_VALUE, "%s: invalid id mode %d",
            fn, (int)c->o.ids);
  GSP_CHECK(c->o.nvertices <= GSP_INDEX_MAX, GSP_TOO_LARGE, "%s: nvertices %llu exceeds %llu", fn,
            (unsigned long long)c->o.nvertices, (unsigned long long)GSP_INDEX_MAX);
  GSP_CHECK(c->o.format >= GSP_FILE_AUTO && c->o.format <= GSP_FILE_NPY, GSP_INVALID_VALUE, "%s: invalid format %d", fn,
            (int)c->o.format);
#undef GSP_FREE_ALL
  return info;
}

/* The reader of format f. */
static gsp_info read_format(gsp_matrix *M, gsp__reader *r, const gsp__read_ctx *c, gsp_file_format f) {
  switch (f) {
  case GSP_FILE_MTX:
    r->comments = "%";
    return gsp__read_mtx(M, r, c);
  case GSP_FILE_DIMACS:
    r->comments = "c";
    return gsp__read_dimacs(M, r, c);
  case GSP_FILE_DENSE:
    return gsp__read_dense(M, r, c);
  case GSP_FILE_NPY:
    return gsp__read_npy(M, r, c);
  default:
    r->comments = "#%";
    return gsp__read_edgelist(M, r, c);
  }
}

/* One rule for every format: an input with nothing but blank and comment
 * lines (or no byte at all) is an error, not a graph of 0 vertices. A
 * reader may stop early (at a missing header), so look at the rest. An
 * error of the input itself (r->failed) is the first real problem: it
 * wins, for a file and a pipe alike. info: the reader's answer. */
static gsp_info empty_input(gsp__reader *r, gsp_matrix *M, gsp_info info) {
  while (!r->content && !r->failed) {
    char *line, *end;
    gsp_info more = gsp__reader_line(r, &line, &end);
    if (more < 0) info = more; /* unreadable further on: that is the error */
    if (more < 0 || !line) break;
  }
  if (!r->content && !r->failed && info != GSP_IO_ERROR) {
    gsp_matrix_free(M);
    info = GSP_ERROR(GSP_PARSE_ERROR, "%s: empty input (nothing but blank or comment lines)", r->path);
  }
  return info;
}

static gsp_info read_as(const char *fn, gsp_matrix *A, int64_t **ids, gsp_index *nids, const char *path,
                        const gsp_read_opts *opts) {
  gsp_info info = GSP_SUCCESS;
  gsp__reader r = {0};
  gsp_matrix M = NULL;
  int64_t *idv = NULL;
  gsp_index nid = 0;
#define GSP_FREE_ALL (gsp__reader_close(&r), gsp_matrix_free(&M), gsp__free(idv))
  GSP_CHECK(A != NULL && path != NULL, GSP_NULL_POINTER, "%s: A or path is NULL", fn);
  GSP_CHECK(ids == NULL || nids != NULL, GSP_NULL_POINTER, "%s: nids is NULL", fn);
  gsp__read_ctx c;
  GSP_TRY(read_context(&c, fn, opts));
  gsp_file_format f = c.o.format;
  if (f == GSP_FILE_AUTO) f = gsp__format_from_path(path);
  if (ids) {
    c.ids_out = &idv;
    c.nids_out = &nid;
  }
  /* one open, one pass: sniffing peeks at what the reader then reads */
  GSP_TRY(gsp__reader_open(&r, path, c.o.progress, c.o.progress_ctx));
  if (f == GSP_FILE_AUTO) GSP_TRY(sniff(&f, &r));
  GSP_TRY(check_id_mode(fn, &r, f, c.o.ids));
  GSP_TRY(empty_input(&r, &M, read_format(&M, &r, &c, f)));
  gsp__reader_close(&r);
  if (ids && !idv) { /* formats without remapping: identity */
    gsp_index n;
    GSP_TRY(gsp_matrix_nrows(&n, M));
    int64_t base =
        (f == GSP_FILE_MTX || f == GSP_FILE_DIMACS || (f == GSP_FILE_EDGELIST && c.o.ids == GSP_IDS_ONE_BASED));
    GSP_TRY(gsp__ids_identity(&idv, n, base));
    nid = n;
  }
  *A = M;
  if (ids) {
    *ids = idv;
    *nids = nid;
  }
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_matrix_read_ids(gsp_matrix *A, int64_t **ids, gsp_index *nids, const char *path,
                             const gsp_read_opts *opts) {
  const gsp__output out[] = {{A, sizeof *A, "A"}, {ids, sizeof *ids, "ids"}, {nids, sizeof *nids, "nids"}};
  gsp_info info = gsp__check_outputs("gsp_matrix_read_ids", out, 3);
  if (info < 0) return info;
  return read_as("gsp_matrix_read_ids", A, ids, nids, path, opts);
}

gsp_info gsp_matrix_read(gsp_matrix *A, const char *path, const gsp_read_opts *opts) {
  return read_as("gsp_matrix_read", A, NULL, NULL, path, opts);
}
