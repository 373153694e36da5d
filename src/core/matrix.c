/* Matrix objects: lifetime, copies, queries. */
#include <string.h>

#include "gsp_internal.h"

gsp_info gsp__check_matrix(const struct gsp_matrix_s *A, const char *fn, const char *what) {
  if (A == NULL) return GSP_ERROR(GSP_NULL_POINTER, "%s: %s is NULL", fn, what);
  if (!gsp__is_live(A) || A->magic != GSP_MAGIC_MATRIX)
    return GSP_ERROR(GSP_INVALID_OBJECT, "%s: %s is not a live gsp_matrix (freed or never created)", fn, what);
  return GSP_SUCCESS;
}

gsp_info gsp__matrix_alloc_dense(struct gsp_matrix_s **A, gsp_type t, int64_t nrows, int64_t ncols) {
  struct gsp_matrix_s *M = gsp__calloc(1, sizeof *M);
  if (!M) return GSP_ERROR(GSP_OUT_OF_MEMORY, "cannot allocate a matrix header");
  M->magic = GSP_MAGIC_MATRIX;
  M->type = t;
  M->nrows = nrows;
  M->ncols = ncols;
  M->fmt = GSP_FMT_DENSE;
  *A = M;
  return GSP_SUCCESS;
}

gsp_info gsp__matrix_alloc(struct gsp_matrix_s **A, gsp_type t, int64_t nrows, int64_t ncols) {
  struct gsp_matrix_s *M = NULL; /* set whenever info >= 0 */
  gsp_info info = gsp__matrix_alloc_dense(&M, t, nrows, ncols);
  if (info < 0) return info;
  M->fmt = GSP_FMT_CSR;
  M->p = gsp__calloc((size_t)nrows + 1, sizeof(gsp_index));
  if (!M->p) {
    gsp__free(M);
    return GSP_ERROR(GSP_OUT_OF_MEMORY, "cannot allocate %lld row pointers", (long long)nrows + 1);
  }
  *A = M;
  return info;
}

gsp_info gsp__matrix_publish(struct gsp_matrix_s *A) {
  return gsp__register(A);
}

void gsp__matrix_clear_storage(struct gsp_matrix_s *A) {
  gsp__matrix_release_device(A);
  GSP_FREE(A->p);
  GSP_FREE(A->j);
  GSP_FREE(A->x);
  GSP_FREE(A->b);
  GSP_FREE(A->bits);
  gsp__matrix_drop_view(A);
  A->nvals = 0;
  A->wpr = 0;
  A->fmt = GSP_FMT_CSR;
  A->dev_only = false;
}

void gsp__matrix_destroy(struct gsp_matrix_s *A) {
  if (!A) return;
  gsp__matrix_clear_storage(A);
  A->magic = 0;
  gsp__free(A);
}

void gsp__matrix_set_storage(struct gsp_matrix_s *A, gsp_format fmt, gsp_index *p, gsp_index *j, void *x, uint8_t *b,
                             uint64_t *bits, int64_t wpr, int64_t nvals) {
  gsp__matrix_clear_storage(A);
  A->fmt = fmt;
  A->p = p;
  A->j = j;
  A->x = x;
  A->b = b;
  A->bits = bits;
  A->wpr = wpr;
  A->nvals = nvals;
}

void gsp__matrix_swap_in(struct gsp_matrix_s *dst, struct gsp_matrix_s *src) {
  gsp__matrix_set_storage(dst, src->fmt, src->p, src->j, src->x, src->b, src->bits, src->wpr, src->nvals);
  dst->dev = src->dev;
  dst->dev_only = src->dev_only;
  src->p = src->j = NULL;
  src->x = NULL;
  src->b = NULL;
  src->bits = NULL;
  src->dev = NULL;
  gsp__matrix_destroy(src);
}

static gsp_info check_dims(gsp_index nrows, gsp_index ncols, const char *fn) {
  if (nrows > GSP_INDEX_MAX || ncols > GSP_INDEX_MAX)
    return GSP_ERROR(GSP_TOO_LARGE, "%s: dimensions %llu x %llu exceed the limit %llu", fn, (unsigned long long)nrows,
                     (unsigned long long)ncols, (unsigned long long)GSP_INDEX_MAX);
  return GSP_SUCCESS;
}

gsp_info gsp_matrix_new(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols) {
  gsp_info info = GSP_SUCCESS;
  if (!A) return GSP_ERROR(GSP_NULL_POINTER, "gsp_matrix_new: A is NULL");
  if ((info = gsp__check_type(t, "gsp_matrix_new")) < 0) return info;
  if ((info = check_dims(nrows, ncols, "gsp_matrix_new")) < 0) return info;
  struct gsp_matrix_s *M;
  if ((info = gsp__matrix_alloc(&M, t, (int64_t)nrows, (int64_t)ncols)) < 0) return info;
  if ((info = gsp__matrix_publish(M)) < 0) {
    gsp__matrix_destroy(M);
    return info;
  }
  *A = M;
  return info;
}

gsp_info gsp_matrix_free(gsp_matrix *A) {
  if (!A || !*A) return GSP_SUCCESS;
  gsp_info info = gsp__check_matrix(*A, "gsp_matrix_free", "*A");
  if (info < 0) return info;
  if (!gsp__unregister_idle(*A, &(*A)->busy))
    return GSP_ERROR(GSP_INVALID_VALUE, "gsp_matrix_free: *A is in use by a running call (freed from its callback?)");
  gsp__matrix_destroy(*A);
  *A = NULL;
  return GSP_SUCCESS;
}

/* Deep copy of the host storage of A (A must be host-valid). */
static gsp_info copy_storage(struct gsp_matrix_s *C, const struct gsp_matrix_s *A) {
  gsp_info info = GSP_SUCCESS;
  size_t ts = gsp_type_size(A->type);
  size_t nn = (size_t)A->nrows * (size_t)A->ncols;
#define GSP_FREE_ALL gsp__matrix_clear_storage(C)
  gsp__matrix_clear_storage(C);
  C->fmt = A->fmt;
  C->nvals = A->nvals;
  C->wpr = A->wpr;
  switch (A->fmt) {
  case GSP_FMT_CSR:
    GSP_ALLOC(C->p, (size_t)A->nrows + 1, sizeof(gsp_index));
    GSP_ALLOC(C->j, (size_t)A->nvals, sizeof(gsp_index));
    GSP_ALLOC(C->x, (size_t)A->nvals, ts);
    gsp__memcpy(C->p, A->p, ((size_t)A->nrows + 1) * sizeof(gsp_index));
    gsp__memcpy(C->j, A->j, (size_t)A->nvals * sizeof(gsp_index));
    gsp__memcpy(C->x, A->x, (size_t)A->nvals * ts);
    break;
  case GSP_FMT_DENSE:
    GSP_ALLOC(C->x, nn, ts);
    gsp__memcpy(C->x, A->x, nn * ts);
    if (A->b) {
      GSP_ALLOC(C->b, nn, 1);
      gsp__memcpy(C->b, A->b, nn);
    }
    break;
  case GSP_FMT_BITS:
    GSP_ALLOC(C->bits, (size_t)A->nrows * (size_t)A->wpr, sizeof(uint64_t));
    gsp__memcpy(C->bits, A->bits, (size_t)A->nrows * (size_t)A->wpr * sizeof(uint64_t));
    break;
  }
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_matrix_dup(gsp_matrix *C, const gsp_matrix A) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *M = NULL;
#define GSP_FREE_ALL gsp__matrix_destroy(M)
  GSP_CHECK(C != NULL, GSP_NULL_POINTER, "gsp_matrix_dup: C is NULL");
  GSP_TRY(gsp__check_matrix(A, "gsp_matrix_dup", "A"));
  GSP_TRY(gsp__matrix_host(A));
  GSP_TRY(gsp__matrix_alloc(&M, A->type, A->nrows, A->ncols));
  GSP_TRY(copy_storage(M, A));
  GSP_TRY(gsp__matrix_publish(M));
  *C = M;
#undef GSP_FREE_ALL
  return info;
}

/* New CSR matrix of type t with A's structure; values cast from A, or all
 * true when `pattern`. */
static gsp_info cast_csr(gsp_matrix *C, const gsp_matrix A, gsp_type t, bool pattern, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *M = NULL;
#define GSP_FREE_ALL gsp__matrix_destroy(M)
  GSP_CHECK(C != NULL, GSP_NULL_POINTER, "%s: C is NULL", fn);
  GSP_TRY(gsp__check_matrix(A, fn, "A"));
  GSP_TRY(gsp__check_type(t, fn));
  struct gsp_matrix_s *V = NULL; /* A's CSR form; A itself is not converted */
  GSP_TRY(gsp__matrix_csr_view(&V, A));
  GSP_TRY(gsp__matrix_alloc(&M, t, V->nrows, V->ncols));
  size_t nv = (size_t)V->nvals;
  GSP_ALLOC(M->j, nv, sizeof(gsp_index));
  GSP_ALLOC(M->x, nv, gsp_type_size(t));
  gsp__memcpy(M->p, V->p, ((size_t)V->nrows + 1) * sizeof(gsp_index));
  gsp__memcpy(M->j, V->j, nv * sizeof(gsp_index));
  const bool one = true;
  for (size_t k = 0; k < nv; k++) {
    if (pattern) gsp__cast_value(gsp__at(M->x, t, (int64_t)k), t, &one, GSP_BOOL);
    else gsp__cast_value(gsp__at(M->x, t, (int64_t)k), t, gsp__cat(V->x, V->type, (int64_t)k), V->type);
  }
  M->nvals = V->nvals;
  GSP_TRY(gsp__matrix_publish(M));
  *C = M;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_matrix_cast(gsp_matrix *C, const gsp_matrix A, gsp_type t) {
  return cast_csr(C, A, t, false, "gsp_matrix_cast");
}

gsp_info gsp_matrix_pattern(gsp_matrix *C, const gsp_matrix A) {
  return cast_csr(C, A, GSP_BOOL, true, "gsp_matrix_pattern");
}

gsp_info gsp_matrix_transpose(gsp_matrix *C, const gsp_matrix A) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *M = NULL;
  gsp_index *pos = NULL;
#define GSP_FREE_ALL (gsp__matrix_destroy(M), gsp__free(pos))
  GSP_CHECK(C != NULL, GSP_NULL_POINTER, "gsp_matrix_transpose: C is NULL");
  GSP_TRY(gsp__check_matrix(A, "gsp_matrix_transpose", "A"));
  struct gsp_matrix_s *V = NULL; /* A's CSR form; A itself is not converted */
  GSP_TRY(gsp__matrix_csr_view(&V, A));
  GSP_TRY(gsp__matrix_alloc(&M, V->type, V->ncols, V->nrows));
  size_t ts = gsp_type_size(V->type), nv = (size_t)V->nvals;
  GSP_ALLOC(M->j, nv, sizeof(gsp_index));
  GSP_ALLOC(M->x, nv, ts);
  GSP_CALLOC(pos, (size_t)V->ncols + 1, sizeof(gsp_index));
  /* counting sort by column: rows come out sorted within each column */
  for (size_t k = 0; k < nv; k++) pos[V->j[k] + 1]++;
  for (int64_t c = 0; c < V->ncols; c++) pos[c + 1] += pos[c];
  gsp__memcpy(M->p, pos, ((size_t)V->ncols + 1) * sizeof(gsp_index));
  for (int64_t i = 0; i < V->nrows; i++) {
    for (gsp_index k = V->p[i]; k < V->p[i + 1]; k++) {
      gsp_index d = pos[V->j[k]]++;
      M->j[d] = (gsp_index)i;
      gsp__memcpy(gsp__at(M->x, V->type, (int64_t)d), gsp__cat(V->x, V->type, (int64_t)k), ts);
    }
  }
  M->nvals = V->nvals;
  gsp__free(pos);
  pos = NULL;
  GSP_TRY(gsp__matrix_publish(M));
  *C = M;
#undef GSP_FREE_ALL
  return info;
}

GSP_OBJECT_QUERY(matrix, A, nrows, gsp_index, A->nrows)
GSP_OBJECT_QUERY(matrix, A, ncols, gsp_index, A->ncols)
GSP_OBJECT_QUERY(matrix, A, type, gsp_type, A->type)

gsp_info gsp_matrix_nvals(gsp_index *nvals, const gsp_matrix A) {
  gsp_info info;
  if (!nvals) return GSP_ERROR(GSP_NULL_POINTER, "gsp_matrix_nvals: output is NULL");
  if ((info = gsp__check_matrix(A, "gsp_matrix_nvals", "A")) < 0) return info;
  /* a device-resident result learns its entry count when it comes home */
  if ((info = gsp__matrix_host(A)) < 0) return info;
  *nvals = (gsp_index)A->nvals;
  return GSP_SUCCESS;
}

gsp_info gsp_matrix_clear(gsp_matrix A) {
  gsp_info info = GSP_SUCCESS;
  gsp_index *p = NULL;
#define GSP_FREE_ALL gsp__free(p)
  GSP_TRY(gsp__check_matrix(A, "gsp_matrix_clear", "A"));
  GSP_CALLOC(p, (size_t)A->nrows + 1, sizeof(gsp_index));
  gsp__matrix_clear_storage(A);
  A->p = p;
#undef GSP_FREE_ALL
  return info;
}
