/*
 * Reductions with a monoid (MIN, MAX, PLUS, TIMES, LOR, LAND): rows of a
 * matrix to a vector (columns with transpose_a), or everything to a scalar.
 * Values are folded in storage order (row-major), so results are
 * reproducible; float sums may differ from another library's order in the
 * last bits.
 */
#include "gsp_ops.h"

gsp_info gsp_matrix_reduce_vector(gsp_vector w, const gsp_vector mask, gsp_binop accum, gsp_binop op,
                                  const gsp_matrix A, const gsp_desc *desc) {
  static const char fn[] = "gsp_matrix_reduce_vector";
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *AT = NULL;
  struct gsp_vector_s *T = NULL;
#define GSP_FREE_ALL (gsp__matrix_destroy(AT), gsp__vector_destroy(T))
  GSP_TRY(gsp__ops_check_vector_out(w, mask, accum, fn));
  GSP_TRY(gsp__check_matrix(A, fn, "A"));
  GSP_TRY(gsp__ops_check_monoid(op, fn));
  const gsp_desc d = gsp__ops_desc(desc);
  GSP_TRY(gsp__ops_check_same_type(w->type, A->type, fn, "A"));
  const int64_t m = gsp__ops_rows(A, d.transpose_a);
  GSP_CHECK(w->n == m, GSP_DIMENSION_MISMATCH, "%s: w has size %lld but A%s has %lld rows", fn, (long long)w->n,
            d.transpose_a ? "'" : "", (long long)m);
  GSP_TRY(gsp__ops_vectors_host(fn, w, mask, NULL, NULL));
  const struct gsp_matrix_s *a;
  GSP_TRY(gsp__ops_input(&a, &AT, A, d.transpose_a, fn));
  GSP_TRY(gsp__ops_vector_new(&T, w->type, m, fn));
  const gsp__binop_fn f = gsp__ops_binop(op, w->type);
  const size_t ts = gsp_type_size(w->type);
  char *Tx = T->x;
  uint8_t *Tb = T->b;
  const char *Ax = a->x;
  const int nth = gsp__ops_nthreads((double)m + (double)a->nvals);
#pragma omp parallel for num_threads(nth) schedule(dynamic, 256) if (nth > 1)
  for (int64_t i = 0; i < m; i++) {
    gsp_index q = a->p[i], e = a->p[i + 1];
    if (q == e) continue;
    char *z = Tx + (size_t)i * ts;
    memcpy(z, Ax + q * ts, ts);
    for (q++; q < e; q++) f(z, z, Ax + q * ts);
    Tb[i] = 1;
  }
  gsp__ops_vector_done(T);
  GSP_TRY(gsp__ops_vector_writeback(w, mask, accum, &T, &d, fn));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* z = the fold by op of the n values at x (type t) that are present (all
 * when b is NULL). The fold starts from the first entry, not the identity:
 * LOR/LAND on numbers are monoids only up to the 0/1 result, and one entry
 * reduces to itself. No entry gives op's identity. */
static void fold(void *z, gsp_binop op, gsp_type t, const void *x, const uint8_t *b, int64_t n) {
  const gsp__binop_fn f = gsp__ops_binop(op, t);
  const size_t ts = gsp_type_size(t);
  bool any = false;
  gsp__ops_monoid_identity(z, op, t);
  for (int64_t i = 0; i < n; i++) {
    if (b && !b[i]) continue;
    const char *xi = (const char *)x + (size_t)i * ts;
    if (any) f(z, z, xi);
    else memcpy(z, xi, ts);
    any = true;
  }
}

/* The reduction of a matrix A (when matrix) or vector v to the scalar *s. */
static gsp_info reduce_scalar(void *s, gsp_binop op, bool matrix, struct gsp_matrix_s *A, struct gsp_vector_s *v,
                              const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_CHECK(s != NULL, GSP_NULL_POINTER, "%s: s is NULL", fn);
  if (matrix) GSP_TRY(gsp__check_matrix(A, fn, "A"));
  else GSP_TRY(gsp__check_vector(v, fn, "v"));
  GSP_TRY(gsp__ops_check_monoid(op, fn));
  gsp__value z;
  gsp_type t;
  if (matrix) {
    struct gsp_matrix_s *V = NULL;
    GSP_TRY(gsp__ops_view(&V, A, fn));
    t = V->type;
    fold(&z, op, t, V->x, NULL, V->nvals);
  } else {
    GSP_TRY(gsp__ops_vectors_host(fn, v, NULL, NULL, NULL));
    t = v->type;
    fold(&z, op, t, v->x, v->b, v->nvals == 0 ? 0 : v->n); /* no b: all present, or none */
  }
  memcpy(s, &z, gsp_type_size(t));
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_matrix_reduce_scalar(void *s, gsp_binop op, const gsp_matrix A) {
  return reduce_scalar(s, op, true, A, NULL, "gsp_matrix_reduce_scalar");
}

gsp_info gsp_vector_reduce_scalar(void *s, gsp_binop op, const gsp_vector v) {
  return reduce_scalar(s, op, false, NULL, v, "gsp_vector_reduce_scalar");
}
