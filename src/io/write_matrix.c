/* gsp_matrix_write: format choice and
 * entry iteration over whichever storage the matrix has (CSR, dense or
 * bit-packed), so writing never converts (and never grows) the matrix.
 * The file itself is all-or-nothing (io_output_file.c). */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise (huge pages for fresh n^2 arrays) */
#endif
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dense_pass.h"
#include "io_internal.h"

void gsp__default_absent(void *out, gsp_type t) {
  gsp__semiring_zero(out, t == GSP_BOOL ? GSP_OR_AND : GSP_MIN_PLUS, t); /* false, or +inf */
}

static inline bool bit_get(const uint64_t *row, int64_t j) {
  return (row[j >> 6] >> (j & 63)) & 1;
}

void gsp__matrix_foreach_in_row(const struct gsp_matrix_s *A, int64_t i, gsp__entry_fn fn, void *ctx) {
  const bool yes = true;
  switch (A->fmt) {
  case GSP_FMT_CSR:
    for (gsp_index k = A->p[i]; k < A->p[i + 1]; k++)
      fn(ctx, (gsp_index)i, A->j[k], gsp__cat(A->x, A->type, (int64_t)k));
    break;
  case GSP_FMT_DENSE:
    for (int64_t j = 0; j < A->ncols; j++) {
      size_t at = (size_t)i * (size_t)A->ncols + (size_t)j;
      if (!A->b || A->b[at]) fn(ctx, (gsp_index)i, (gsp_index)j, gsp__cat(A->x, A->type, (int64_t)at));
    }
    break;
  case GSP_FMT_BITS: {
    const uint64_t *row = A->bits + (size_t)i * (size_t)A->wpr;
    for (int64_t j = 0; j < A->ncols; j++)
      if (bit_get(row, j)) fn(ctx, (gsp_index)i, (gsp_index)j, &yes);
    break;
  }
  }
}

typedef struct {
  void *row;
  gsp_type t;
} dense_fill;

static void put_dense(void *ctx, gsp_index i, gsp_index j, const void *x) {
  dense_fill *d = ctx;
  memcpy(gsp__at(d->row, d->t, (int64_t)j), x, gsp_type_size(d->t));
}

void gsp__dense_row(void *row, const struct gsp_matrix_s *A, int64_t i, const void *absent) {
  size_t ts = gsp_type_size(A->type);
  if (A->fmt == GSP_FMT_DENSE && !A->b) {
    memcpy(row, gsp__cat(A->x, A->type, i * A->ncols), (size_t)A->ncols * ts);
    return;
  }
  if (A->fmt == GSP_FMT_DENSE) { /* one typed pass: no call per entry */
    const uint8_t *b = A->b + (size_t)i * (size_t)A->ncols;
    switch (A->type) {
#define GSP_DROW_(code, ct)                                                                 \
  case code: {                                                                              \
    const ct *x = (const ct *)A->x + (size_t)i * (size_t)A->ncols, a = *(const ct *)absent; \
    ct *o = row;                                                                            \
    for (int64_t j = 0; j < A->ncols; j++) o[j] = b[j] ? x[j] : a;                          \
  }                                                                                         \
    return;
      GSP_PASS_TYPES(GSP_DROW_)
#undef GSP_DROW_
    }
  }
  for (int64_t j = 0; j < A->ncols; j++) memcpy((char *)row + (size_t)j * ts, absent, ts);
  dense_fill d = {row, A->type};
  gsp__matrix_foreach_in_row(A, i, put_dense, &d);
}

static bool ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Checks, then the chosen format into w; `path` picks the format. */
static gsp_info write_to(gsp__ofile *out, const char *path, const gsp_matrix A, const gsp_write_opts *opts) {
  gsp_info info = GSP_SUCCESS;
  gsp__writer w = {0};
#define GSP_FREE_ALL gsp__writer_abort(&w)
  const char *fn = "gsp_matrix_write";
  GSP_TRY(gsp__check_matrix(A, fn, "A"));
  gsp_write_opts o;
  memset(&o, 0, sizeof o);
  if (opts) o = *opts;
  gsp_file_format f = o.format;
  GSP_CHECK(f >= GSP_FILE_AUTO && f <= GSP_FILE_NPY, GSP_INVALID_VALUE, "%s: invalid format %d", fn, (int)f);
  if (f == GSP_FILE_AUTO) f = gsp__format_from_path(path);
  if (f == GSP_FILE_AUTO) f = GSP_FILE_MTX;
  if (f == GSP_FILE_DIMACS)
    GSP_CHECK(A->nrows == A->ncols, GSP_INVALID_VALUE, "%s: a DIMACS graph must be square, not %lld x %lld", fn,
              (long long)A->nrows, (long long)A->ncols);
  if (o.comment) GSP_CHECK(strchr(o.comment, '\n') == NULL, GSP_INVALID_VALUE, "%s: the comment must be one line", fn);
  GSP_TRY(gsp__matrix_host(A));
  gsp__value absent;
  if (o.absent) memcpy(&absent, o.absent, gsp_type_size(A->type));
  else gsp__default_absent(&absent, A->type);

  GSP_TRY(gsp__writer_open(&w, out, ends_with(path, ".gz")));
  /* the writer of each format: text formats take the options, binary
   * (dense) ones the absent value */
  static gsp_info (*const text[])(gsp__writer *, const struct gsp_matrix_s *,
                                  const gsp_write_opts *) = {[GSP_FILE_MTX] = gsp__write_mtx,
                                                             [GSP_FILE_DIMACS] = gsp__write_dimacs,
                                                             [GSP_FILE_EDGELIST] = gsp__write_edgelist};
  static gsp_info (*const binary[])(gsp__writer *, const struct gsp_matrix_s *, const void *) = {
      [GSP_FILE_DENSE] = gsp__write_dense, [GSP_FILE_NPY] = gsp__write_npy};
  if (f == GSP_FILE_DENSE || f == GSP_FILE_NPY) GSP_TRY(binary[f](&w, A, &absent));
  else GSP_TRY(text[f](&w, A, &o));
  GSP_TRY(gsp__writer_close(&w));
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__matrix_write_to(gsp__ofile *out, const gsp_matrix A, const gsp_write_opts *opts) {
  gsp_info info = write_to(out, out->shown, A, opts);
  if (info < 0) {
    gsp__ofile_abort(out);
    return info;
  }
  return gsp__ofile_finish(out);
}

gsp_info gsp_matrix_write(const char *path, const gsp_matrix A, const gsp_write_opts *opts) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_CHECK(path != NULL, GSP_NULL_POINTER, "gsp_matrix_write: path is NULL");
  GSP_TRY(gsp__check_matrix(A, "gsp_matrix_write", "A"));
  gsp__ofile out;
  GSP_TRY(gsp__ofile_open(&out, path));
  info = gsp__matrix_write_to(&out, A, opts);
  if (info >= 0) info = gsp__ofile_commit(&out);
#undef GSP_FREE_ALL
  return info;
}
