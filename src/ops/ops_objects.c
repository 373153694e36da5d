/* Object helpers for the operations: CSR views of inputs, transposes,
 * result construction, and the output/mask checks every operation shares. */
#include <stdio.h>
#include <stdlib.h>

#include <stdatomic.h>

#include "gsp_ops.h"

/* Prefix the message of a failed core call with the public function name,
 * so every error of an operation says which call failed. */
static gsp_info with_fn(gsp_info info, const char *fn) {
  if (info >= 0) return info;
  char msg[400];
  snprintf(msg, sizeof msg, "%s", gsp_last_error());
  return GSP_ERROR(info, "%s: %s", fn, msg);
}

gsp_info gsp__ops_csr(struct gsp_matrix_s *A, const char *fn) {
  return with_fn(gsp__matrix_to_csr(A), fn);
}

gsp_info gsp__ops_view(struct gsp_matrix_s **V, struct gsp_matrix_s *A, const char *fn) {
  return with_fn(gsp__matrix_csr_view(V, A), fn);
}

gsp_info gsp__ops_transpose(struct gsp_matrix_s **AT, const struct gsp_matrix_s *A, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  gsp_index *p = NULL, *jj = NULL, *pos = NULL;
  void *x = NULL;
#define GSP_FREE_ALL (gsp__free(p), gsp__free(jj), gsp__free(x), gsp__free(pos))
  const int64_t m = A->nrows, n = A->ncols, nv = A->nvals;
  const size_t ts = gsp_type_size(A->type);
  GSP_OPS_CALLOC(p, (size_t)n + 1, sizeof(gsp_index));
  GSP_OPS_ALLOC(jj, (size_t)nv, sizeof(gsp_index));
  GSP_OPS_ALLOC(x, (size_t)nv, ts);
  GSP_OPS_ALLOC(pos, (size_t)n + 1, sizeof(gsp_index));
  /* counting sort by column; rows come out sorted within each column */
  for (int64_t k = 0; k < nv; k++) p[A->j[k] + 1]++;
  for (int64_t c = 0; c < n; c++) p[c + 1] += p[c];
  memcpy(pos, p, ((size_t)n + 1) * sizeof(gsp_index));
  for (int64_t i = 0; i < m; i++) {
    for (gsp_index k = A->p[i]; k < A->p[i + 1]; k++) {
      gsp_index d = pos[A->j[k]]++;
      jj[d] = (gsp_index)i;
      memcpy((char *)x + d * ts, (const char *)A->x + k * ts, ts);
    }
  }
  gsp__free(pos);
  pos = NULL;
#undef GSP_FREE_ALL
#define GSP_FREE_ALL
  GSP_TRY(gsp__ops_matrix_from_csr(AT, A->type, n, m, &p, &jj, &x, fn));
  return info;
}

gsp_info gsp__ops_input(const struct gsp_matrix_s **use, struct gsp_matrix_s **tmp, struct gsp_matrix_s *A, bool tr,
                        const char *fn) {
  gsp_info info = GSP_SUCCESS;
  *tmp = NULL;
  GSP_TRY(gsp__ops_view(&A, A, fn));
  if (tr) {
    GSP_TRY(gsp__ops_transpose(tmp, A, fn));
    *use = *tmp;
  } else {
    *use = A;
  }
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__ops_matrix_from_csr(struct gsp_matrix_s **T, gsp_type t, int64_t nrows, int64_t ncols, gsp_index **pp,
                                  gsp_index **jp, void **xp, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *M = NULL;
  gsp_index *p = *pp, *j = *jp;
  void *x = *xp;
  *pp = *jp = NULL;
  *xp = NULL;
#define GSP_FREE_ALL (gsp__free(p), gsp__free(j), gsp__free(x))
  GSP_TRY(with_fn(gsp__matrix_alloc(&M, t, nrows, ncols), fn));
  gsp__free(M->p);
  M->p = p;
  M->j = j;
  M->x = x;
  M->nvals = (int64_t)p[nrows];
  M->fmt = GSP_FMT_CSR;
  *T = M;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__ops_vector_new(struct gsp_vector_s **v, gsp_type t, int64_t n, const char *fn) {
  /* gsp__vector_alloc gives x[n] and an all-absent b[n] */
  return with_fn(gsp__vector_alloc(v, t, n), fn);
}

gsp_info gsp__ops_vector_new_uninit(struct gsp_vector_s **v, gsp_type t, int64_t n, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_vector_s *V = NULL;
#define GSP_FREE_ALL gsp__vector_destroy(V)
  GSP_TRY(with_fn(gsp__vector_alloc(&V, t, 0), fn)); /* the header */
  gsp__free(V->x), gsp__free(V->b);
  V->n = n;
  V->x = gsp__malloc_array(n > 0 ? (size_t)n : 1, gsp_type_size(t));
  V->b = gsp__malloc(n > 0 ? (size_t)n : 1);
  GSP_CHECK(V->x && V->b, GSP_OUT_OF_MEMORY, "%s: cannot allocate a vector of %lld entries", fn, (long long)n);
  *v = V;
#undef GSP_FREE_ALL
  return info;
}

void gsp__ops_vector_done_count(struct gsp_vector_s *v, int64_t nvals) {
  v->nvals = nvals;
  if (nvals == v->n) GSP_FREE(v->b);
}

void gsp__ops_vector_done(struct gsp_vector_s *v) {
  int64_t cnt = 0;
  const int64_t n = v->n;
  const uint8_t *b = v->b;
  const int nth = gsp__ops_nthreads((double)n);
#pragma omp parallel for num_threads(nth) reduction(+ : cnt) schedule(static) if (nth > 1)
  for (int64_t i = 0; i < n; i++) cnt += b[i] != 0;
  v->nvals = cnt;
  if (cnt == n) GSP_FREE(v->b);
}

gsp_info gsp__ops_matrix_by_rows(struct gsp_matrix_s **T, gsp_type t, int64_t nrows, int64_t ncols, gsp__ops_row_fn row,
                                 const void *ctx, int nth, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  gsp_index *cnt = NULL, *p = NULL, *jj = NULL;
  void *x = NULL;
#define GSP_FREE_ALL (gsp__free(cnt), gsp__free(p), gsp__free(jj), gsp__free(x))
  const size_t ts = gsp_type_size(t);
  GSP_OPS_ALLOC(cnt, (size_t)nrows + 1, sizeof(gsp_index));
  GSP_OPS_ALLOC(p, (size_t)nrows + 1, sizeof(gsp_index));
#pragma omp parallel for num_threads(nth) schedule(dynamic, 256) if (nth > 1)
  for (int64_t i = 0; i < nrows; i++) cnt[i] = row(ctx, i, NULL, NULL);
  gsp__ops_cumsum(p, cnt, nrows);
  GSP_FREE(cnt);
  GSP_OPS_ALLOC(jj, (size_t)p[nrows], sizeof(gsp_index));
  GSP_OPS_ALLOC(x, (size_t)p[nrows], ts);
#pragma omp parallel for num_threads(nth) schedule(dynamic, 256) if (nth > 1)
  for (int64_t i = 0; i < nrows; i++) (void)row(ctx, i, jj + p[i], (char *)x + p[i] * ts);
  GSP_TRY(gsp__ops_matrix_from_csr(T, t, nrows, ncols, &p, &jj, &x, fn));
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__ops_operand(const struct gsp_matrix_s **a, struct gsp_matrix_s **AT, const struct gsp_matrix_s *C,
                          struct gsp_matrix_s *A, bool transpose, const char *name, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__ops_check_same_type(C->type, A->type, fn, name));
  const int64_t m = gsp__ops_rows(A, transpose), n = gsp__ops_cols(A, transpose);
  GSP_CHECK(C->nrows == m && C->ncols == n, GSP_DIMENSION_MISMATCH, "%s: %s%s is %lld x %lld but C is %lld x %lld", fn,
            name, transpose ? "'" : "", (long long)m, (long long)n, (long long)C->nrows, (long long)C->ncols);
  GSP_TRY(gsp__ops_input(a, AT, A, transpose, fn));
  return info;
}

gsp_info gsp__ops_vector_operand(const struct gsp_vector_s *w, const struct gsp_vector_s *u, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  GSP_TRY(gsp__ops_check_same_type(w->type, u->type, fn, "u"));
  GSP_CHECK(u->n == w->n, GSP_DIMENSION_MISMATCH, "%s: u has size %lld but w has size %lld", fn, (long long)u->n,
            (long long)w->n);
  return info;
}

void gsp__ops_cumsum(gsp_index *p, const gsp_index *cnt, int64_t n) {
  gsp_index s = 0;
  for (int64_t i = 0; i < n; i++) {
    p[i] = s;
    s += cnt[i];
  }
  p[n] = s;
}

static int cmp_index(const void *a, const void *b) {
  gsp_index x = *(const gsp_index *)a, y = *(const gsp_index *)b;
  return (x > y) - (x < y);
}

void gsp__ops_sort_index(gsp_index *a, int64_t n) {
  if (n < 24) { /* insertion sort: most rows are short */
    for (int64_t i = 1; i < n; i++) {
      gsp_index v = a[i];
      int64_t k = i - 1;
      while (k >= 0 && a[k] > v) {
        a[k + 1] = a[k];
        k--;
      }
      a[k + 1] = v;
    }
    return;
  }
  qsort(a, (size_t)n, sizeof *a, cmp_index);
}

gsp_info gsp__ops_vectors_host(const char *fn, struct gsp_vector_s *a, struct gsp_vector_s *b, struct gsp_vector_s *c,
                               struct gsp_vector_s *d) {
  struct gsp_vector_s *v[4] = {a, b, c, d};
  for (int k = 0; k < 4; k++) {
    gsp_info info = v[k] ? with_fn(gsp__vector_host(v[k]), fn) : GSP_SUCCESS;
    if (info < 0) return info;
  }
  return GSP_SUCCESS;
}

gsp_info gsp__ops_desc_backend(gsp__backend_choice *be, const gsp_desc *d, bool auto_gpu, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  GSP_CHECK(d->direction == GSP_DIRECTION_AUTO || d->direction == GSP_DIRECTION_PUSH ||
                d->direction == GSP_DIRECTION_PULL,
            GSP_INVALID_VALUE, "%s: invalid direction %d in the descriptor", fn, (int)d->direction);
  GSP_TRY(gsp__backend_pick(be, d->backend, auto_gpu, fn));
  return info;
}

gsp_info gsp__ops_check_matrix_out(struct gsp_matrix_s *C, struct gsp_matrix_s *mask, gsp_binop accum, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  GSP_TRY(gsp__check_matrix(C, fn, "C"));
  if (mask) {
    GSP_TRY(gsp__check_matrix(mask, fn, "mask"));
    GSP_CHECK(mask->nrows == C->nrows && mask->ncols == C->ncols, GSP_DIMENSION_MISMATCH,
              "%s: mask is %lld x %lld but C is %lld x %lld", fn, (long long)mask->nrows, (long long)mask->ncols,
              (long long)C->nrows, (long long)C->ncols);
  }
  GSP_TRY(gsp__ops_check_accum(accum, fn));
  return info;
}

gsp_info gsp__ops_check_matrix_args(struct gsp_matrix_s *C, struct gsp_matrix_s *mask, gsp_binop accum,
                                    struct gsp_matrix_s *A, struct gsp_matrix_s *B, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  GSP_TRY(gsp__ops_check_matrix_out(C, mask, accum, fn));
  GSP_TRY(gsp__check_matrix(A, fn, "A"));
  GSP_TRY(gsp__check_matrix(B, fn, "B"));
  return info;
}

gsp_info gsp__ops_check_vector_out(struct gsp_vector_s *w, struct gsp_vector_s *mask, gsp_binop accum, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  GSP_TRY(gsp__check_vector(w, fn, "w"));
  if (mask) {
    GSP_TRY(gsp__check_vector(mask, fn, "mask"));
    GSP_CHECK(mask->n == w->n, GSP_DIMENSION_MISMATCH, "%s: mask has size %lld but w has size %lld", fn,
              (long long)mask->n, (long long)w->n);
  }
  GSP_TRY(gsp__ops_check_accum(accum, fn));
#undef GSP_FREE_ALL
  return info;
}
