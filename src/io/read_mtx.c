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

gsp_info gsp__read_mtx(gsp_matrix *A, gsp__reader *r, const gsp__read_ctx *c) {
  gsp_info info = GSP_SUCCESS;
  gsp__tuples T = {0};
#define GSP_FREE_ALL gsp__tuples_free(&T)
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
  bool array = !strcmp(w[2], "array");
  if (!array && strcmp(w[2], "coordinate") != 0)
    GSP_TRY(gsp__parse_error(r, "format '%s' is not coordinate or array", w[2]));
  bool pattern = !strcmp(w[3], "pattern");
  bool integer = !strcmp(w[3], "integer");
  if (!strcmp(w[3], "complex")) GSP_TRY(gsp__parse_error(r, "complex matrices are not supported"));
  if (!pattern && !integer && strcmp(w[3], "real") && strcmp(w[3], "double"))
    GSP_TRY(gsp__parse_error(r,
                             "unknown field '%s' (real, integer or "
                             "pattern expected)",
                             w[3]));
  mm_symmetry sym;
  if (!strcmp(w[4], "general")) sym = MM_GENERAL;
  else if (!strcmp(w[4], "symmetric")) sym = MM_SYMMETRIC;
  else if (!strcmp(w[4], "skew-symmetric")) sym = MM_SKEW;
  else if (!strcmp(w[4], "hermitian")) return gsp__parse_error(r, "hermitian matrices are not supported");
  else return gsp__parse_error(r, "unknown symmetry '%s'", w[4]);
  if (pattern && (array || sym == MM_SKEW))
    GSP_TRY(gsp__parse_error(r, "pattern is not valid with %s", array ? "array" : "skew-symmetric"));

  /* size line */
  GSP_TRY(content_line(r, &line));
  GSP_CHECK(line != NULL, GSP_PARSE_ERROR, "%s line %lld: file ends before the size line", r->path,
            (long long)r->lineno);
  uint64_t m, n, nnz = 0;
  p = line;
  GSP_TRY(gsp__read_index(r, &p, &m, "row count"));
  GSP_TRY(gsp__read_index(r, &p, &n, "column count"));
  if (!array) GSP_TRY(gsp__read_index(r, &p, &nnz, "entry count"));
  GSP_TRY(end_of_line(r, p));
  if (m > GSP_INDEX_MAX || n > GSP_INDEX_MAX)
    GSP_TRY(gsp__parse_error(r,
                             "%llu x %llu exceeds the largest matrix "
                             "(%llu rows or columns)",
                             (unsigned long long)m, (unsigned long long)n, (unsigned long long)GSP_INDEX_MAX));
  if (sym != MM_GENERAL && m != n)
    GSP_TRY(gsp__parse_error(r, "a %s matrix must be square, not %llu x %llu", w[4], (unsigned long long)m,
                             (unsigned long long)n));
  if (array) { /* values stored: all, lower triangle, strict lower */
    nnz = sym == MM_GENERAL ? m * n : sym == MM_SYMMETRIC ? n * (n + 1) / 2 : n * (n - 1) / 2;
  } else if (nnz > m * n) {
    GSP_TRY(gsp__parse_error(r, "%llu entries cannot fit in %llu x %llu", (unsigned long long)nnz,
                             (unsigned long long)m, (unsigned long long)n));
  }
  /* reserve for the announced entries, capped: a lying header must not
   * allocate gigabytes before the first entry */
  size_t reserve = nnz * (sym == MM_GENERAL ? 1 : 2);
  if (reserve > ((size_t)1 << 24)) reserve = (size_t)1 << 24;
  /* the header fixes the natural type: "real" values like "3" stay real,
   * and a "2.5" in an integer file is an error */
  gsp__read_ctx cc = *c;
  if (!cc.o.use_type && !pattern) {
    cc.o.use_type = true;
    cc.type = integer ? GSP_INT64 : GSP_FP64;
  }
  c = &cc;
  GSP_TRY(gsp__tuples_for(&T, c, !pattern, reserve));
  T.nrows = m;
  T.ncols = n;
  T.id_base = 1;

  uint64_t count = 0, ai = 0, aj = 0; /* array: next row and column */
  if (array && sym == MM_SKEW) ai = 1;
  for (;;) {
    GSP_TRY(content_line(r, &line));
    if (!line) break;
    p = line;
    if (array) {
      /* one or more values per line, column by column */
      while (*(p = gsp__skip_space(p)) != '\0' && *p != '%') {
        if (count == nnz)
          GSP_TRY(gsp__parse_error(r,
                                   "more than the %llu values a %llu x "
                                   "%llu %s array holds",
                                   (unsigned long long)nnz, (unsigned long long)m, (unsigned long long)n, w[4]));
        gsp__val v;
        GSP_TRY(gsp__read_value(r, c, &p, &T, &v));
        GSP_TRY(gsp__tuples_push(&T, ai, aj, v));
        if (sym != MM_GENERAL && ai != aj) {
          if (sym == MM_SKEW) GSP_TRY(negate(r, &T, &v));
          GSP_TRY(gsp__tuples_push(&T, aj, ai, v));
        }
        count++;
        if (++ai == m) {
          aj++;
          ai = sym == MM_GENERAL ? 0 : sym == MM_SYMMETRIC ? aj : aj + 1;
        }
      }
      continue;
    }
    uint64_t i, j;
    GSP_TRY(gsp__read_index_fast(r, &p, &i, "row"));
    GSP_TRY(gsp__read_index_fast(r, &p, &j, "column"));
    if (i < 1 || i > m)
      GSP_TRY(gsp__parse_error(r, "row %llu out of range 1..%llu", (unsigned long long)i, (unsigned long long)m));
    if (j < 1 || j > n)
      GSP_TRY(gsp__parse_error(r, "column %llu out of range 1..%llu", (unsigned long long)j, (unsigned long long)n));
    gsp__val v = {0};
    if (!pattern) GSP_TRY(gsp__read_value_fast(r, c, &p, &T, &v));
    GSP_TRY(end_of_line(r, p));
    GSP_TRY(gsp__count_entry(r, &count, nnz, "entries", "size line"));
    i--;
    j--;
    if (sym == MM_SKEW && i == j)
      GSP_TRY(gsp__parse_error(r,
                               "diagonal entry (%llu, %llu) in a "
                               "skew-symmetric matrix",
                               (unsigned long long)i + 1, (unsigned long long)j + 1));
    GSP_TRY(gsp__tuples_push(&T, i, j, v));
    if (sym != MM_GENERAL && i != j) {
      if (sym == MM_SKEW) GSP_TRY(negate(r, &T, &v));
      GSP_TRY(gsp__tuples_push(&T, j, i, v));
    }
  }
  if (count < nnz)
    GSP_TRY(gsp__parse_error(r, "file ends after %llu of %llu %s (truncated?)", (unsigned long long)count,
                             (unsigned long long)nnz, array ? "values" : "entries"));
  GSP_TRY(gsp__check_dims(r, m, n, "the size line declares", ""));
  if (c->o.symmetrize && sym == MM_GENERAL) {
    size_t n0 = T.n;
    for (size_t k = 0; k < n0; k++) {
      uint64_t key = T.key[k];
      if ((key >> 32) == (key & 0xffffffffu)) continue;
      gsp__val v = T.val ? T.val[k] : (gsp__val){0};
      GSP_TRY(gsp__tuples_push(&T, key & 0xffffffffu, key >> 32, v));
    }
    GSP_CHECK(m == n, GSP_INVALID_VALUE, "%s: symmetrize needs a square matrix, not %llu x %llu", r->path,
              (unsigned long long)m, (unsigned long long)n);
  }
  GSP_TRY(gsp__tuples_build(A, &T, gsp__result_type(c, &T), c->dup, c->o.drop_self_loops, r->path));
#undef GSP_FREE_ALL
  return info;
}
