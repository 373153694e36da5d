/* Matrix Market reader: coordinate and array; real, integer, pattern;
 * general, symmetric, skew-symmetric. Comment and blank lines are accepted
 * anywhere after the banner (the format only allows them before the size
 * line, but files in the wild put them elsewhere). */
#include <string.h>

#include "io_internal.h"

typedef enum { MM_GENERAL, MM_SYMMETRIC, MM_SKEW } mm_symmetry;

/* Lower-case copy of the next whitespace-separated word of the banner. */
static const char *banner_word(const char *p, char *w, size_t len) {
  p = gsp__skip_space(p);
  size_t n = 0;
  while (*p && !gsp__is_space(*p)) {
    if (n + 1 < len) w[n++] = (char)(*p | 0x20);
    p++;
  }
  w[n] = '\0';
  return p;
}

/* Next line that is neither blank nor a '%' comment; *line = NULL at EOF. */
static gsp_info content_line(gsp__reader *r, char **line) {
  char *end;
  for (;;) {
    gsp_info info = gsp__reader_line(r, line, &end);
    if (info < 0 || !*line) return info;
    const char *p = gsp__skip_space(*line);
    if (*p != '\0' && *p != '%') {
      *line = (char *)p;
      return GSP_SUCCESS;
    }
  }
}

static gsp_info end_of_line(const gsp__reader *r, const char *p) {
  p = gsp__skip_space(p);
  if (*p == '\0' || *p == '%') return GSP_SUCCESS;
  return gsp__parse_error(r, "unexpected '%.*s' after the entry", gsp__token_len(p, 40), p);
}

/* The mirror value of a skew-symmetric entry. */
static gsp_info negate(const gsp__reader *r, const gsp__tuples *T, gsp__val *v) {
  if (T->real) {
    v->d = -v->d;
  } else {
    if (v->i == INT64_MIN)
      return gsp__parse_error(r, "cannot negate the weight for the mirror "
                                 "entry of a skew-symmetric matrix");
    v->i = -v->i;
  }
  return GSP_SUCCESS;
}

/* What the banner and the size line say. */
typedef struct {
  bool array, pattern, integer;
  mm_symmetry sym;
  char symname[32];   /* as written, for messages */
  uint64_t m, n, nnz; /* nnz: entries announced, or values an array holds */
} mm_header;

/* The banner line. Nothing to release here. */
#define GSP_FREE_ALL
static gsp_info read_banner(gsp__reader *r, mm_header *h) {
  gsp_info info = GSP_SUCCESS;
  char *line, *end;
  GSP_TRY(gsp__reader_line(r, &line, &end));
  GSP_CHECK(line != NULL, GSP_PARSE_ERROR, "%s: empty file", r->path);
  char w[5][32];
  const char *p = banner_word(line, w[0], sizeof w[0]);
  for (int k = 1; k < 5; k++) p = banner_word(p, w[k], sizeof w[k]);
  if (strcmp(w[0], "%%matrixmarket") != 0)
    GSP_TRY(gsp__parse_error(r, "not a Matrix Market file (banner "
                                "\"%%%%MatrixMarket matrix ...\" missing)"));
  if (strcmp(w[1], "matrix") != 0) GSP_TRY(gsp__parse_error(r, "object '%s' is not supported (only matrix)", w[1]));
  h->array = !strcmp(w[2], "array");
  if (!h->array && strcmp(w[2], "coordinate") != 0)
    GSP_TRY(gsp__parse_error(r, "format '%s' is not coordinate or array", w[2]));
  h->pattern = !strcmp(w[3], "pattern");
  h->integer = !strcmp(w[3], "integer");
  if (!strcmp(w[3], "complex")) GSP_TRY(gsp__parse_error(r, "complex matrices are not supported"));
  if (!h->pattern && !h->integer && strcmp(w[3], "real") && strcmp(w[3], "double"))
    GSP_TRY(gsp__parse_error(r,
                             "unknown field '%s' (real, integer or "
                             "pattern expected)",
                             w[3]));
  if (!strcmp(w[4], "general")) h->sym = MM_GENERAL;
  else if (!strcmp(w[4], "symmetric")) h->sym = MM_SYMMETRIC;
  else if (!strcmp(w[4], "skew-symmetric")) h->sym = MM_SKEW;
  else if (!strcmp(w[4], "hermitian")) return gsp__parse_error(r, "hermitian matrices are not supported");
  else return gsp__parse_error(r, "unknown symmetry '%s'", w[4]);
  memcpy(h->symname, w[4], sizeof h->symname);
  if (h->pattern && (h->array || h->sym == MM_SKEW))
    GSP_TRY(gsp__parse_error(r, "pattern is not valid with %s", h->array ? "array" : "skew-symmetric"));
  return info;
}

/* The size line. */
static gsp_info read_size(gsp__reader *r, mm_header *h) {
  gsp_info info = GSP_SUCCESS;
  char *line;
  GSP_TRY(content_line(r, &line));
  GSP_CHECK(line != NULL, GSP_PARSE_ERROR, "%s line %lld: file ends before the size line", r->path,
            (long long)r->lineno);
  uint64_t m, n, nnz = 0;
  const char *p = line;
  GSP_TRY(gsp__read_index(r, &p, &m, "row count"));
  GSP_TRY(gsp__read_index(r, &p, &n, "column count"));
  if (!h->array) GSP_TRY(gsp__read_index(r, &p, &nnz, "entry count"));
  GSP_TRY(end_of_line(r, p));
  if (m > GSP_INDEX_MAX || n > GSP_INDEX_MAX)
    GSP_TRY(gsp__parse_error(r,
                             "%llu x %llu exceeds the largest matrix "
                             "(%llu rows or columns)",
                             (unsigned long long)m, (unsigned long long)n, (unsigned long long)GSP_INDEX_MAX));
  if (h->sym != MM_GENERAL && m != n)
    GSP_TRY(gsp__parse_error(r, "a %s matrix must be square, not %llu x %llu", h->symname, (unsigned long long)m,
                             (unsigned long long)n));
  if (h->array) { /* values stored: all, lower triangle, strict lower */
    nnz = h->sym == MM_GENERAL ? m * n : h->sym == MM_SYMMETRIC ? n * (n + 1) / 2 : n * (n - 1) / 2;
  } else if (nnz > m * n) {
    GSP_TRY(gsp__parse_error(r, "%llu entries cannot fit in %llu x %llu", (unsigned long long)nnz,
                             (unsigned long long)m, (unsigned long long)n));
  }
  h->m = m;
  h->n = n;
  h->nnz = nnz;
  return info;
}

/* An entry and, for a symmetric or skew-symmetric matrix, its mirror. */
static gsp_info push_entry(const gsp__reader *r, const mm_header *h, gsp__tuples *T, uint64_t i, uint64_t j,
                           gsp__val v) {
  gsp_info info = GSP_SUCCESS;
  GSP_TRY(gsp__tuples_push(T, i, j, v));
  if (h->sym != MM_GENERAL && i != j) {
    if (h->sym == MM_SKEW) GSP_TRY(negate(r, T, &v));
    GSP_TRY(gsp__tuples_push(T, j, i, v));
  }
  return info;
}

/* Position of the next value of an array: row *ai, column *aj. */
typedef struct {
  uint64_t count, ai, aj;
} mm_cursor;

/* One line of an array file: one or more values, column by column. */
static gsp_info array_line(gsp__reader *r, const gsp__read_ctx *c, const mm_header *h, gsp__tuples *T, const char *p,
                           mm_cursor *at) {
  gsp_info info = GSP_SUCCESS;
  while (*(p = gsp__skip_space(p)) != '\0' && *p != '%') {
    if (at->count == h->nnz)
      GSP_TRY(gsp__parse_error(r,
                               "more than the %llu values a %llu x "
                               "%llu %s array holds",
                               (unsigned long long)h->nnz, (unsigned long long)h->m, (unsigned long long)h->n,
                               h->symname));
    gsp__val v;
    GSP_TRY(gsp__read_value(r, c, &p, T, &v));
    GSP_TRY(push_entry(r, h, T, at->ai, at->aj, v));
    at->count++;
    if (++at->ai == h->m) {
      at->aj++;
      at->ai = h->sym == MM_GENERAL ? 0 : h->sym == MM_SYMMETRIC ? at->aj : at->aj + 1;
    }
  }
  return info;
}

/* One line of a coordinate file: row, column and (unless pattern) value. */
static gsp_info coordinate_line(gsp__reader *r, const gsp__read_ctx *c, const mm_header *h, gsp__tuples *T,
                                const char *p, uint64_t *count) {
  gsp_info info = GSP_SUCCESS;
  const uint64_t m = h->m, n = h->n;
  uint64_t i, j;
  GSP_TRY(gsp__read_index_fast(r, &p, &i, "row"));
  GSP_TRY(gsp__read_index_fast(r, &p, &j, "column"));
  if (i < 1 || i > m)
    GSP_TRY(gsp__parse_error(r, "row %llu out of range 1..%llu", (unsigned long long)i, (unsigned long long)m));
  if (j < 1 || j > n)
    GSP_TRY(gsp__parse_error(r, "column %llu out of range 1..%llu", (unsigned long long)j, (unsigned long long)n));
  gsp__val v = {0};
  if (!h->pattern) GSP_TRY(gsp__read_value_fast(r, c, &p, T, &v));
  GSP_TRY(end_of_line(r, p));
  GSP_TRY(gsp__count_entry(r, count, h->nnz, "entries", "size line"));
  i--;
  j--;
  if (h->sym == MM_SKEW && i == j)
    GSP_TRY(gsp__parse_error(r,
                             "diagonal entry (%llu, %llu) in a "
                             "skew-symmetric matrix",
                             (unsigned long long)i + 1, (unsigned long long)j + 1));
  return push_entry(r, h, T, i, j, v);
}

/* The symmetrize option: every off-diagonal entry also mirrored. */
static gsp_info symmetrize(const gsp__reader *r, gsp__tuples *T) {
  gsp_info info = GSP_SUCCESS;
  const size_t n0 = T->n;
  for (size_t k = 0; k < n0; k++) {
    const uint64_t key = T->key[k];
    if ((key >> 32) == (key & 0xffffffffu)) continue;
    const gsp__val v = T->val ? T->val[k] : (gsp__val){0};
    GSP_TRY(gsp__tuples_push(T, key & 0xffffffffu, key >> 32, v));
  }
  GSP_CHECK(T->nrows == T->ncols, GSP_INVALID_VALUE, "%s: symmetrize needs a square matrix, not %llu x %llu", r->path,
            (unsigned long long)T->nrows, (unsigned long long)T->ncols);
  return info;
}
#undef GSP_FREE_ALL

gsp_info gsp__read_mtx(gsp_matrix *A, gsp__reader *r, const gsp__read_ctx *c) {
  gsp_info info = GSP_SUCCESS;
  gsp__tuples T = {0};
#define GSP_FREE_ALL gsp__tuples_free(&T)
  mm_header h;
  memset(&h, 0, sizeof h);
  GSP_TRY(read_banner(r, &h));
  GSP_TRY(read_size(r, &h));
  /* reserve for the announced entries, capped: a lying header must not
   * allocate gigabytes before the first entry */
  size_t reserve = h.nnz * (h.sym == MM_GENERAL ? 1 : 2);
  if (reserve > ((size_t)1 << 24)) reserve = (size_t)1 << 24;
  /* the header fixes the natural type: "real" values like "3" stay real,
   * and a "2.5" in an integer file is an error */
  gsp__read_ctx cc = *c;
  if (!cc.o.use_type && !h.pattern) {
    cc.o.use_type = true;
    cc.type = h.integer ? GSP_INT64 : GSP_FP64;
  }
  c = &cc;
  GSP_TRY(gsp__tuples_for(&T, c, !h.pattern, reserve));
  T.nrows = h.m;
  T.ncols = h.n;
  T.id_base = 1;
  mm_cursor at = {.ai = h.array && h.sym == MM_SKEW ? 1 : 0};
  for (;;) {
    char *line;
    GSP_TRY(content_line(r, &line));
    if (!line) break;
    if (h.array) GSP_TRY(array_line(r, c, &h, &T, line, &at));
    else GSP_TRY(coordinate_line(r, c, &h, &T, line, &at.count));
  }
  if (at.count < h.nnz)
    GSP_TRY(gsp__parse_error(r, "file ends after %llu of %llu %s (truncated?)", (unsigned long long)at.count,
                             (unsigned long long)h.nnz, h.array ? "values" : "entries"));
  GSP_TRY(gsp__check_dims(r, h.m, h.n, "the size line declares", ""));
  if (c->o.symmetrize && h.sym == MM_GENERAL) GSP_TRY(symmetrize(r, &T));
  GSP_TRY(gsp__tuples_build(A, &T, gsp__result_type(c, &T), c->dup, c->o.drop_self_loops, r->path));
#undef GSP_FREE_ALL
  return info;
}
