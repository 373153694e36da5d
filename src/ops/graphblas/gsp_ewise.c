/*
 * Element-wise operations: T = A op B on the union (add) or intersection
 * (mult) of the structures. Matrices: a row-wise merge of sorted CSR rows,
 * counted then filled (OpenMP over rows). Vectors: one pass over the dense
 * storage. An entry present in only one operand of ewise_add is copied
 * unchanged (also for MINUS, as in GraphBLAS).
 */
#include "gsp_ops.h"

typedef struct {
  const struct gsp_matrix_s *A, *B;
  gsp__binop_fn op;
  bool uni; /* union (add) or intersection (mult) */
  size_t ts;
} ew_args;

/* Count (Tj == NULL) or write row i; returns its entry count. */
static gsp_index ew_row(const void *ctx, int64_t i, gsp_index *Tj, char *Tx) {
  const ew_args *g = ctx;
  const struct gsp_matrix_s *A = g->A, *B = g->B;
  const size_t ts = g->ts;
  gsp_index pa = A->p[i], ea = A->p[i + 1], pb = B->p[i], eb = B->p[i + 1], out = 0;
  while (pa < ea || pb < eb) {
    gsp_index ja = pa < ea ? A->j[pa] : GSP_INDEX_MAX + 1;
    gsp_index jb = pb < eb ? B->j[pb] : GSP_INDEX_MAX + 1;
    if (!g->uni && (pa == ea || pb == eb)) break;
    gsp_index j = ja < jb ? ja : jb;
    bool ha = ja == j, hb = jb == j;
    if (ha && hb) {
      if (Tj) {
        Tj[out] = j;
        g->op(Tx + out * ts, (const char *)A->x + pa * ts, (const char *)B->x + pb * ts);
      }
      out++;
    } else if (g->uni) {
      if (Tj) {
        Tj[out] = j;
        memcpy(Tx + out * ts, ha ? (const char *)A->x + pa * ts : (const char *)B->x + pb * ts, ts);
      }
      out++;
    }
    if (ha) pa++;
    if (hb) pb++;
  }
  return out;
}

static gsp_info matrix_ewise(struct gsp_matrix_s *C, struct gsp_matrix_s *mask, gsp_binop accum, gsp_binop op,
                             struct gsp_matrix_s *A, struct gsp_matrix_s *B, const gsp_desc *desc, bool uni,
                             const char *fn) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *AT = NULL, *BT = NULL, *T = NULL;
#define GSP_FREE_ALL (gsp__matrix_destroy(AT), gsp__matrix_destroy(BT), gsp__matrix_destroy(T))
  GSP_TRY(gsp__ops_check_matrix_args(C, mask, accum, A, B, fn));
  GSP_TRY(gsp__ops_check_binop(op, fn));
  const gsp_desc d = gsp__ops_desc(desc);
  const struct gsp_matrix_s *a, *b;
  GSP_TRY(gsp__ops_operand(&a, &AT, C, A, d.transpose_a, "A", fn));
  GSP_TRY(gsp__ops_operand(&b, &BT, C, B, d.transpose_b, "B", fn));
  const ew_args g = {.A = a, .B = b, .op = gsp__ops_binop(op, C->type), .uni = uni, .ts = gsp_type_size(C->type)};
  const int nth = gsp__ops_nthreads((double)C->nrows + (double)a->nvals + (double)b->nvals);
  GSP_TRY(gsp__ops_matrix_by_rows(&T, C->type, C->nrows, C->ncols, ew_row, &g, nth, fn));
  GSP_TRY(gsp__ops_matrix_writeback(C, mask, accum, &T, &d, fn));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

static gsp_info vector_ewise(struct gsp_vector_s *w, struct gsp_vector_s *mask, gsp_binop accum, gsp_binop op,
                             struct gsp_vector_s *u, struct gsp_vector_s *v, const gsp_desc *desc, bool uni,
                             const char *fn) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_vector_s *T = NULL;
#define GSP_FREE_ALL gsp__vector_destroy(T)
  GSP_TRY(gsp__ops_check_vector_out(w, mask, accum, fn));
  GSP_TRY(gsp__check_vector(u, fn, "u"));
  GSP_TRY(gsp__check_vector(v, fn, "v"));
  GSP_TRY(gsp__ops_check_binop(op, fn));
  GSP_TRY(gsp__ops_check_same_type(w->type, u->type, fn, "u"));
  GSP_TRY(gsp__ops_check_same_type(w->type, v->type, fn, "v"));
  GSP_CHECK(u->n == w->n && v->n == w->n, GSP_DIMENSION_MISMATCH, "%s: sizes differ: w %lld, u %lld, v %lld", fn,
            (long long)w->n, (long long)u->n, (long long)v->n);
  GSP_TRY(gsp__ops_vectors_host(fn, w, mask, u, v));
  const int64_t n = w->n;
  const size_t ts = gsp_type_size(w->type);
  const gsp__binop_fn f = gsp__ops_binop(op, w->type);
  GSP_TRY(gsp__ops_vector_new(&T, w->type, n, fn));
  char *Tx = T->x;
  uint8_t *Tb = T->b;
  const char *ux = u->x, *vx = v->x;
  const int nth = gsp__ops_nthreads(4.0 * (double)n);
#pragma omp parallel for num_threads(nth) schedule(static) if (nth > 1)
  for (int64_t i = 0; i < n; i++) {
    bool hu = gsp__ops_vpresent(u, i), hv = gsp__ops_vpresent(v, i);
    if (hu && hv) {
      f(Tx + i * ts, ux + i * ts, vx + i * ts);
      Tb[i] = 1;
    } else if (uni && (hu || hv)) {
      memcpy(Tx + i * ts, hu ? ux + i * ts : vx + i * ts, ts);
      Tb[i] = 1;
    }
  }
  gsp__ops_vector_done(T);
  GSP_TRY(gsp__ops_vector_writeback(w, mask, accum, &T, desc, fn));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* The four entry points: {matrix, vector} x {add (union), mult (intersection)}. */
#define GSP_EWISE_ENTRY_(obj, kind, uni)                                                              \
  gsp_info gsp_##obj##_ewise_##kind(gsp_##obj C, const gsp_##obj mask, gsp_binop accum, gsp_binop op, \
                                    const gsp_##obj A, const gsp_##obj B, const gsp_desc *desc) {     \
    return obj##_ewise(C, mask, accum, op, A, B, desc, uni, "gsp_" #obj "_ewise_" #kind);             \
  }
GSP_EWISE_ENTRY_(matrix, add, true)
GSP_EWISE_ENTRY_(matrix, mult, false)
GSP_EWISE_ENTRY_(vector, add, true)
GSP_EWISE_ENTRY_(vector, mult, false)
#undef GSP_EWISE_ENTRY_
