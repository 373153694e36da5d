/* Text writers: Matrix Market coordinate, DIMACS .gr, edge list. Entries go
 * out in row-major order; reals with the fewest digits that read back to
 * the same value. */
#include <string.h>

#include "io_internal.h"

typedef struct {
  gsp__writer *w;
  gsp_type t;
  int base;        /* 1 for 1-based formats */
  const char *pre; /* line prefix ("a " for DIMACS) */
  bool weights;    /* write the value column */
} text_ctx;

static void put_entry(void *ctx, gsp_index i, gsp_index j, const void *x) {
  text_ctx *c = ctx;
  if (c->pre[0]) gsp__writer_put(c->w, c->pre, strlen(c->pre));
  gsp__writer_uint(c->w, i + (gsp_index)c->base);
  gsp__writer_put(c->w, " ", 1);
  gsp__writer_uint(c->w, j + (gsp_index)c->base);
  if (c->weights) {
    gsp__writer_put(c->w, " ", 1);
    gsp__writer_value(c->w, c->t, x);
  }
  gsp__writer_put(c->w, "\n", 1);
}

static void note_false(void *ctx, gsp_index i, gsp_index j, const void *x) {
  if (!*(const bool *)x) *(bool *)ctx = true;
}

/* Whether a GSP_BOOL matrix has explicit false entries, which a pattern
 * file cannot express: such matrices are written with 0/1 values. */
static bool has_false(const struct gsp_matrix_s *A) {
  bool any = false;
  if (A->type != GSP_BOOL || A->fmt == GSP_FMT_BITS) return false;
  for (int64_t i = 0; i < A->nrows && !any; i++) gsp__matrix_foreach_in_row(A, i, note_false, &any);
  return any;
}

static void put_rows(const struct gsp_matrix_s *A, text_ctx *c) {
  for (int64_t i = 0; i < A->nrows; i++) gsp__matrix_foreach_in_row(A, i, put_entry, c);
}

gsp_info gsp__write_mtx(gsp__writer *w, const struct gsp_matrix_s *A, const gsp_write_opts *o) {
  bool values = A->type != GSP_BOOL || has_false(A);
  const char *field = !values ? "pattern" : A->type == GSP_FP32 || A->type == GSP_FP64 ? "real" : "integer";
  gsp__writer_printf(w, "%%%%MatrixMarket matrix coordinate %s general\n", field);
  gsp__writer_printf(w, "%% written by gsp %d.%d.%d\n", GSP_VERSION_MAJOR, GSP_VERSION_MINOR, GSP_VERSION_PATCH);
  if (o->comment) gsp__writer_printf(w, "%% %s\n", o->comment);
  gsp__writer_printf(w, "%lld %lld %lld\n", (long long)A->nrows, (long long)A->ncols, (long long)A->nvals);
  text_ctx c = {w, A->type, 1, "", values};
  put_rows(A, &c);
  return GSP_SUCCESS;
}

gsp_info gsp__write_dimacs(gsp__writer *w, const struct gsp_matrix_s *A, const gsp_write_opts *o) {
  gsp__writer_printf(w, "c written by gsp %d.%d.%d\n", GSP_VERSION_MAJOR, GSP_VERSION_MINOR, GSP_VERSION_PATCH);
  if (o->comment) gsp__writer_printf(w, "c %s\n", o->comment);
  gsp__writer_printf(w, "p sp %lld %lld\n", (long long)A->nrows, (long long)A->nvals);
  text_ctx c = {w, A->type, 1, "a ", true};
  put_rows(A, &c);
  return GSP_SUCCESS;
}

gsp_info gsp__write_edgelist(gsp__writer *w, const struct gsp_matrix_s *A, const gsp_write_opts *o) {
  bool values = A->type != GSP_BOOL || has_false(A);
  gsp__writer_printf(w,
                     "# gsp edge list: %lld vertices, %lld edges, 0-based "
                     "ids%s\n",
                     (long long)(A->nrows > A->ncols ? A->nrows : A->ncols), (long long)A->nvals,
                     values ? ", u v weight" : "");
  if (o->comment) gsp__writer_printf(w, "# %s\n", o->comment);
  text_ctx c = {w, A->type, 0, "", values};
  put_rows(A, &c);
  return GSP_SUCCESS;
}
