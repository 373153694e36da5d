/*
 * Select: T = the entries of A that pass a test. Index tests (TRIL, TRIU,
 * DIAG, OFFDIAG) compare j - i with the int64_t thunk k; value tests compare
 * each entry with a thunk of A's type. For vectors the index tests see
 * i = 0 and j = the entry's index. NaN compares unequal to everything.
 */
#include "gsp_ops.h"

typedef struct {
  gsp_selop op;
  gsp_type t;
  int64_t k;         /* index tests */
  const void *thunk; /* value tests */
} sel_args;

static bool sel_value(const sel_args *s, const void *x, int64_t q) {
  switch (s->t) {
#define GSP_SEL_CASE_(T, ct, sfx)                         \
  case GSP_##T: {                                         \
    ct a = ((const ct *)x)[q], b = *(const ct *)s->thunk; \
    switch (s->op) {                                      \
    case GSP_VALUE_EQ:                                    \
      return a == b;                                      \
    case GSP_VALUE_NE:                                    \
      return a != b;                                      \
    case GSP_VALUE_LT:                                    \
      return a < b;                                       \
    case GSP_VALUE_LE:                                    \
      return a <= b;                                      \
    case GSP_VALUE_GT:                                    \
      return a > b;                                       \
    case GSP_VALUE_GE:                                    \
      return a >= b;                                      \
    default:                                              \
      return false;                                       \
    }                                                     \
  }
    GSP_TYPE_LIST(GSP_SEL_CASE_)
#undef GSP_SEL_CASE_
  }
  return false;
}

/* Whether entry q at (i, j) passes. Indices are below 2^31, so j - i fits. */
static inline bool sel_keep(const sel_args *s, int64_t i, int64_t j, const void *x, int64_t q) {
  int64_t dj = j - i;
  switch (s->op) {
  case GSP_TRIL:
    return dj <= s->k;
  case GSP_TRIU:
    return dj >= s->k;
  case GSP_DIAG:
    return dj == s->k;
  case GSP_OFFDIAG:
    return dj != s->k;
  default:
    return sel_value(s, x, q);
  }
}

static gsp_info sel_setup(sel_args *s, gsp_selop op, gsp_type t, const void *thunk, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_CHECK(op >= GSP_TRIL && op <= GSP_VALUE_GE, GSP_INVALID_VALUE, "%s: invalid select operator code %d", fn,
            (int)op);
  GSP_CHECK(thunk != NULL, GSP_NULL_POINTER, "%s: thunk is NULL", fn);
  s->op = op;
  s->t = t;
  s->thunk = thunk;
  s->k = op <= GSP_OFFDIAG ? *(const int64_t *)thunk : 0;
#undef GSP_FREE_ALL
  return info;
}

/* What selects: the test, the value size and, for matrices, A (CSR) */
typedef struct {
  const sel_args *s;
  const struct gsp_matrix_s *A;
  size_t ts;
} sel_rows;

static gsp_index sel_row(const void *ctx, int64_t i, gsp_index *Tj, char *Tx) {
  const sel_rows *r = ctx;
  const struct gsp_matrix_s *A = r->A;
  gsp_index out = 0;
  for (gsp_index q = A->p[i]; q < A->p[i + 1]; q++) {
    if (!sel_keep(r->s, i, (int64_t)A->j[q], A->x, (int64_t)q)) continue;
    if (Tj) {
      Tj[out] = A->j[q];
      memcpy(Tx + out * r->ts, (const char *)A->x + q * r->ts, r->ts);
    }
    out++;
  }
  return out;
}

gsp_info gsp_matrix_select(gsp_matrix C, const gsp_matrix mask, gsp_binop accum, gsp_selop op, const gsp_matrix A,
                           const void *thunk, const gsp_desc *desc) {
  static const char fn[] = "gsp_matrix_select";
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *AT = NULL, *T = NULL;
#define GSP_FREE_ALL (gsp__matrix_destroy(AT), gsp__matrix_destroy(T))
  GSP_TRY(gsp__ops_check_matrix_out(C, mask, accum, fn));
  GSP_TRY(gsp__check_matrix(A, fn, "A"));
  sel_args s;
  GSP_TRY(sel_setup(&s, op, C->type, thunk, fn));
  const gsp_desc d = gsp__ops_desc(desc);
  const struct gsp_matrix_s *a;
  GSP_TRY(gsp__ops_operand(&a, &AT, C, A, d.transpose_a, "A", fn));
  const sel_rows r = {.s = &s, .A = a, .ts = gsp_type_size(C->type)};
  const int nth = gsp__ops_nthreads((double)C->nrows + (double)a->nvals);
  GSP_TRY(gsp__ops_matrix_by_rows(&T, C->type, C->nrows, C->ncols, sel_row, &r, nth, fn));
  GSP_TRY(gsp__ops_matrix_writeback(C, mask, accum, &T, &d, fn));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* A vector entry: index tests see i = 0 and j = the index. */
static bool sel_entry(const void *ctx, int64_t i, void *z, const void *x) {
  const sel_rows *r = ctx;
  if (!sel_keep(r->s, 0, i, x, 0)) return false;
  memcpy(z, x, r->ts);
  return true;
}

gsp_info gsp_vector_select(gsp_vector w, const gsp_vector mask, gsp_binop accum, gsp_selop op, const gsp_vector u,
                           const void *thunk, const gsp_desc *desc) {
  static const char fn[] = "gsp_vector_select";
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__ops_check_vector_out(w, mask, accum, fn));
  GSP_TRY(gsp__check_vector(u, fn, "u"));
  sel_args s;
  GSP_TRY(sel_setup(&s, op, w->type, thunk, fn));
  const sel_rows r = {.s = &s, .ts = gsp_type_size(w->type)};
  GSP_TRY(gsp__ops_vector_map(w, mask, accum, u, sel_entry, &r, desc, fn));
#undef GSP_FREE_ALL
  return info;
}
