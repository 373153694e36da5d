/*
 * Apply: T = f(A) with a unary operator, or T = A op y with a bound second
 * operand. T has A's structure (A' with transpose_a).
 */
#include "gsp_ops.h"

/* The operator as the caller named it: f, or op with y bound (bound). */
typedef struct {
  gsp_unop f;
  gsp_binop op;
  const void *y;
  bool bound;
} ap_call;

/* T(entries) = f(x) or op(x, y): one of the two function pointers is set. */
typedef struct {
  gsp__unop_fn f;
  gsp__binop_fn op;
  const void *y;
} ap_fn;

static gsp_info ap_resolve(ap_fn *af, const ap_call *c, gsp_type t, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  if (c->bound) {
    GSP_TRY(gsp__ops_check_binop(c->op, fn));
    GSP_CHECK(c->y != NULL, GSP_NULL_POINTER, "%s: y is NULL", fn);
    *af = (ap_fn){.op = gsp__ops_binop(c->op, t), .y = c->y};
  } else {
    GSP_CHECK(c->f >= GSP_IDENTITY && c->f <= GSP_ONE, GSP_INVALID_VALUE, "%s: invalid unary operator code %d", fn,
              (int)c->f);
    *af = (ap_fn){.f = gsp__ops_unop(c->f, t)};
  }
#undef GSP_FREE_ALL
  return info;
}

static inline void ap_one(const ap_fn *a, void *z, const void *x) {
  if (a->f) a->f(z, x);
  else a->op(z, x, a->y);
}

static gsp_info matrix_apply(struct gsp_matrix_s *C, struct gsp_matrix_s *mask, gsp_binop accum, const ap_call *call,
                             struct gsp_matrix_s *A, const gsp_desc *desc, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *AT = NULL, *T = NULL;
  gsp_index *p = NULL, *jj = NULL;
  void *x = NULL;
#define GSP_FREE_ALL (gsp__matrix_destroy(AT), gsp__matrix_destroy(T), gsp__free(p), gsp__free(jj), gsp__free(x))
  GSP_TRY(gsp__ops_check_matrix_out(C, mask, accum, fn));
  GSP_TRY(gsp__check_matrix(A, fn, "A"));
  ap_fn af;
  GSP_TRY(ap_resolve(&af, call, C->type, fn));
  const gsp_desc d = gsp__ops_desc(desc);
  const struct gsp_matrix_s *a;
  GSP_TRY(gsp__ops_operand(&a, &AT, C, A, d.transpose_a, "A", fn));
  const int64_t m = C->nrows, n = C->ncols;
  const size_t ts = gsp_type_size(C->type);
  const int64_t nv = a->nvals;
  GSP_OPS_ALLOC(p, (size_t)m + 1, sizeof(gsp_index));
  GSP_OPS_ALLOC(jj, (size_t)nv, sizeof(gsp_index));
  GSP_OPS_ALLOC(x, (size_t)nv, ts);
  memcpy(p, a->p, ((size_t)m + 1) * sizeof(gsp_index));
  if (nv > 0) memcpy(jj, a->j, (size_t)nv * sizeof(gsp_index));
  const int nth = gsp__ops_nthreads((double)nv);
#pragma omp parallel for num_threads(nth) schedule(static) if (nth > 1)
  for (int64_t q = 0; q < nv; q++) ap_one(&af, (char *)x + (size_t)q * ts, (const char *)a->x + (size_t)q * ts);
  GSP_TRY(gsp__ops_matrix_from_csr(&T, C->type, m, n, &p, &jj, &x, fn));
  GSP_TRY(gsp__ops_matrix_writeback(C, mask, accum, &T, &d, fn));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

static bool ap_entry(const void *ctx, int64_t i, void *z, const void *x) {
  (void)i;
  ap_one(ctx, z, x);
  return true;
}

static gsp_info vector_apply(struct gsp_vector_s *w, struct gsp_vector_s *mask, gsp_binop accum, const ap_call *call,
                             struct gsp_vector_s *u, const gsp_desc *desc, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__ops_check_vector_out(w, mask, accum, fn));
  GSP_TRY(gsp__check_vector(u, fn, "u"));
  ap_fn af;
  GSP_TRY(ap_resolve(&af, call, w->type, fn));
  GSP_TRY(gsp__ops_vector_map(w, mask, accum, u, ap_entry, &af, desc, fn));
#undef GSP_FREE_ALL
  return info;
}

/* gsp_{matrix,vector}_apply (f) and _apply_scalar (op with y bound). */
#define GSP_APPLY_ENTRIES_(obj)                                                                                 \
  gsp_info gsp_##obj##_apply(gsp_##obj C, const gsp_##obj mask, gsp_binop accum, gsp_unop f, const gsp_##obj A, \
                             const gsp_desc *desc) {                                                            \
    const ap_call call = {.f = f};                                                                              \
    return obj##_apply(C, mask, accum, &call, A, desc, "gsp_" #obj "_apply");                                   \
  }                                                                                                             \
  gsp_info gsp_##obj##_apply_scalar(gsp_##obj C, const gsp_##obj mask, gsp_binop accum, gsp_binop op,           \
                                    const gsp_##obj A, const void *y, const gsp_desc *desc) {                   \
    const ap_call call = {.op = op, .y = y, .bound = true};                                                     \
    return obj##_apply(C, mask, accum, &call, A, desc, "gsp_" #obj "_apply_scalar");                            \
  }
GSP_APPLY_ENTRIES_(matrix)
GSP_APPLY_ENTRIES_(vector)
#undef GSP_APPLY_ENTRIES_
