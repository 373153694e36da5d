/* Import and export of raw CSR and dense row-major arrays, copying or
 * zero-copy (pack/unpack: ownership of malloc()ed arrays moves). */
#include <stdlib.h>
#include <string.h>

#include "gsp_internal.h"

static gsp_info check_new_args(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols,
                               const char *fn) {
  if (!A) return GSP_ERROR(GSP_NULL_POINTER, "%s: A is NULL", fn);
  gsp_info info = gsp__check_type(t, fn);
  if (info < 0) return info;
  if (nrows > GSP_INDEX_MAX || ncols > GSP_INDEX_MAX)
    return GSP_ERROR(GSP_TOO_LARGE, "%s: dimensions %llu x %llu exceed the limit", fn,
                     (unsigned long long)nrows, (unsigned long long)ncols);
  return GSP_SUCCESS;
}

/* Entries no caller's array can hold: 2^56 bytes is the largest user
 * address space of any 64-bit platform (57-bit virtual addresses). */
#define GSP_MAX_ARRAY_ENTRIES (((gsp_index)1 << 56) / sizeof(gsp_index))

/* rowptr must start at 0 and never decrease, and no row may hold more
 * entries than there are columns (with no duplicates it cannot), so that an
 * impossible entry count is refused as a bad argument before anything is
 * allocated or read from colidx. */
static gsp_info check_rowptr(const gsp_index *rowptr, gsp_index nrows, gsp_index ncols, const char *fn) {
  if (rowptr[0] != 0)
    return GSP_ERROR(GSP_INVALID_VALUE, "%s: rowptr[0] is %llu, must be 0", fn,
                     (unsigned long long)rowptr[0]);
  for (gsp_index i = 0; i < nrows; i++) {
    if (rowptr[i + 1] < rowptr[i])
      return GSP_ERROR(GSP_INVALID_VALUE, "%s: rowptr decreases at row %llu", fn,
                       (unsigned long long)i);
    if (rowptr[i + 1] - rowptr[i] > ncols)
      return GSP_ERROR(GSP_INVALID_VALUE,
                       "%s: row %llu has %llu entries (rowptr[%llu] = %llu), more than its %llu columns", fn,
                       (unsigned long long)i, (unsigned long long)(rowptr[i + 1] - rowptr[i]),
                       (unsigned long long)i + 1, (unsigned long long)rowptr[i + 1], (unsigned long long)ncols);
  }
  if (rowptr[nrows] > GSP_MAX_ARRAY_ENTRIES)
    return GSP_ERROR(GSP_INVALID_VALUE, "%s: rowptr[%llu] = %llu entries; no colidx array can hold that many",
                     fn, (unsigned long long)nrows, (unsigned long long)rowptr[nrows]);
  return GSP_SUCCESS;
}

gsp_info gsp_matrix_import_csr(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols,
                               const gsp_index *rowptr, const gsp_index *colidx,
                               const void *values) {
  gsp_info info = GSP_SUCCESS;
  const char *fn = "gsp_matrix_import_csr";
  gsp_index *I = NULL;
  struct gsp_matrix_s *M = NULL;
#define GSP_FREE_ALL (gsp__free(I), gsp__matrix_destroy(M))
  GSP_TRY(check_new_args(A, t, nrows, ncols, fn));
  GSP_CHECK(rowptr && colidx, GSP_NULL_POINTER, "%s: rowptr or colidx is NULL", fn);
  GSP_CHECK(values || t == GSP_BOOL, GSP_NULL_POINTER, "%s: values is NULL", fn);
  GSP_TRY(check_rowptr(rowptr, nrows, ncols, fn));
  gsp_index nv = rowptr[nrows];
  /* expand row indices and reuse the tuple sorter: it checks columns,
   * sorts rows and rejects duplicates */
  GSP_ALLOC(I, nv, sizeof(gsp_index));
  for (gsp_index i = 0; i < nrows; i++)
    for (gsp_index k = rowptr[i]; k < rowptr[i + 1]; k++) I[k] = i;
  GSP_TRY(gsp__matrix_alloc(&M, t, (int64_t)nrows, (int64_t)ncols));
  gsp__free(M->p);
  M->p = NULL;
  GSP_TRY(gsp__tuples_to_csr(&M->p, &M->j, &M->x, &M->nvals, t, (int64_t)nrows, (int64_t)ncols, I,
                             colidx, values, nv, GSP_DUP_ERROR, fn));
  GSP_FREE(I);
  GSP_TRY(gsp__matrix_publish(M));
  *A = M;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_matrix_pack_csr(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols,
                             gsp_index **rowptr, gsp_index **colidx, void **values) {
  gsp_info info = GSP_SUCCESS;
  const char *fn = "gsp_matrix_pack_csr";
  struct gsp_matrix_s *M = NULL;
#define GSP_FREE_ALL gsp__matrix_destroy(M)
  GSP_TRY(check_new_args(A, t, nrows, ncols, fn));
  GSP_CHECK(rowptr && colidx && values && *rowptr && *colidx && *values, GSP_NULL_POINTER,
            "%s: rowptr, colidx or values is NULL", fn);
  const gsp_index *p = *rowptr, *j = *colidx;
  GSP_TRY(check_rowptr(p, nrows, ncols, fn));
  /* zero-copy cannot reorder the caller's arrays behind an error, so the
   * columns must already be strictly increasing within each row */
  for (gsp_index i = 0; i < nrows; i++)
    for (gsp_index k = p[i]; k < p[i + 1]; k++) {
      GSP_CHECK(j[k] < ncols, GSP_INVALID_INDEX, "%s: row %llu: column %llu out of range 0..%llu", fn,
                (unsigned long long)i, (unsigned long long)j[k], (unsigned long long)ncols - 1);
      GSP_CHECK(k == p[i] || j[k] > j[k - 1], GSP_INVALID_VALUE,
                "%s: row %llu: columns not strictly increasing at position %llu", fn,
                (unsigned long long)i, (unsigned long long)k);
    }
  GSP_TRY(gsp__matrix_alloc(&M, t, (int64_t)nrows, (int64_t)ncols));
  GSP_TRY(gsp__matrix_publish(M));
  gsp__free(M->p);
  M->p = *rowptr;
  M->j = *colidx;
  M->x = *values;
  M->nvals = (int64_t)p[nrows];
  *rowptr = NULL;
  *colidx = NULL;
  *values = NULL;
  *A = M;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_matrix_export_csr(gsp_index *rowptr, gsp_index *colidx, void *values,
                               const gsp_matrix A) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__check_matrix(A, "gsp_matrix_export_csr", "A"));
  GSP_CHECK(rowptr && colidx, GSP_NULL_POINTER, "gsp_matrix_export_csr: rowptr or colidx is NULL");
  GSP_OUTPUTS("gsp_matrix_export_csr", {rowptr, ((size_t)A->nrows + 1) * sizeof *rowptr, "rowptr"},
              {colidx, (size_t)A->nvals * sizeof *colidx, "colidx"},
              {values, (size_t)A->nvals * gsp_type_size(A->type), "values"});
  struct gsp_matrix_s *V = NULL; /* A's CSR form; A itself is not converted */
  GSP_TRY(gsp__matrix_csr_view(&V, A));
  gsp__memcpy(rowptr, V->p, ((size_t)V->nrows + 1) * sizeof(gsp_index));
  gsp__memcpy(colidx, V->j, (size_t)V->nvals * sizeof(gsp_index));
  if (values) gsp__memcpy(values, V->x, (size_t)V->nvals * gsp_type_size(V->type));
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_matrix_unpack_csr(gsp_index **rowptr, gsp_index **colidx, void **values,
                               gsp_index *nvals, gsp_matrix *A) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_CHECK(rowptr && colidx && values && nvals && A, GSP_NULL_POINTER,
            "gsp_matrix_unpack_csr: an output pointer is NULL");
  GSP_OUTPUTS("gsp_matrix_unpack_csr", {rowptr, sizeof *rowptr, "rowptr"}, {colidx, sizeof *colidx, "colidx"},
              {values, sizeof *values, "values"}, {nvals, sizeof *nvals, "nvals"}, {A, sizeof *A, "A"});
  GSP_TRY(gsp__check_matrix(*A, "gsp_matrix_unpack_csr", "*A"));
  struct gsp_matrix_s *M = *A;
  GSP_TRY(gsp__matrix_to_csr(M));
  *rowptr = M->p;
  *colidx = M->j;
  *values = M->x;
  *nvals = (gsp_index)M->nvals;
  M->p = M->j = NULL;
  M->x = NULL;
  gsp__unregister(M);
  gsp__matrix_destroy(M);
  *A = NULL;
#undef GSP_FREE_ALL
  return info;
}

/* Presence array of a dense array: NULL when all present (or absent NULL). */
static gsp_info dense_presence(uint8_t **b_out, int64_t *nvals, gsp_type t, const void *x, size_t nn,
                               const void *absent) {
  gsp_info info = GSP_SUCCESS;
  uint8_t *b = NULL;
#define GSP_FREE_ALL gsp__free(b)
  *b_out = NULL;
  *nvals = (int64_t)nn;
  if (!absent) return info;
  GSP_ALLOC(b, nn, 1);
  size_t ts = gsp_type_size(t);
  int64_t cnt = 0;
  for (size_t k = 0; k < nn; k++) {
    const void *v = gsp__cat(x, t, (int64_t)k);
    /* compare as values (floats: -0 == 0), via double for non-integers */
    bool same;
    if (t == GSP_FP32) same = *(const float *)v == *(const float *)absent;
    else if (t == GSP_FP64) same = *(const double *)v == *(const double *)absent;
    else same = memcmp(v, absent, ts) == 0;
    b[k] = !same;
    cnt += !same;
  }
  if ((size_t)cnt == nn) GSP_FREE(b);
  *b_out = b;
  *nvals = cnt;
#undef GSP_FREE_ALL
  return info;
}

static gsp_info dense_count(size_t *nn, gsp_type t, gsp_index nrows, gsp_index ncols, const char *fn) {
  size_t bytes;
  if (!gsp__mul_size(nn, (size_t)nrows, (size_t)ncols) || !gsp__mul_size(&bytes, *nn, gsp_type_size(t)))
    return GSP_ERROR(GSP_TOO_LARGE, "%s: %llu x %llu dense values overflow memory sizes", fn,
                     (unsigned long long)nrows, (unsigned long long)ncols);
  return GSP_SUCCESS;
}

gsp_info gsp_matrix_import_dense(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols,
                                 const void *values, const void *absent) {
  gsp_info info = GSP_SUCCESS;
  const char *fn = "gsp_matrix_import_dense";
  struct gsp_matrix_s *M = NULL;
#define GSP_FREE_ALL gsp__matrix_destroy(M)
  GSP_TRY(check_new_args(A, t, nrows, ncols, fn));
  GSP_CHECK(values != NULL, GSP_NULL_POINTER, "%s: values is NULL", fn);
  size_t nn;
  GSP_TRY(dense_count(&nn, t, nrows, ncols, fn));
  GSP_TRY(gsp__matrix_alloc_dense(&M, t, (int64_t)nrows, (int64_t)ncols));
  GSP_ALLOC(M->x, nn, gsp_type_size(t));
  gsp__memcpy(M->x, values, nn * gsp_type_size(t));
  GSP_TRY(dense_presence(&M->b, &M->nvals, t, values, nn, absent));
  GSP_TRY(gsp__matrix_publish(M));
  *A = M;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_matrix_pack_dense(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols,
                               void **values, const void *absent) {
  gsp_info info = GSP_SUCCESS;
  const char *fn = "gsp_matrix_pack_dense";
  struct gsp_matrix_s *M = NULL;
#define GSP_FREE_ALL gsp__matrix_destroy(M)
  GSP_TRY(check_new_args(A, t, nrows, ncols, fn));
  GSP_CHECK(values && *values, GSP_NULL_POINTER, "%s: values is NULL", fn);
  size_t nn;
  GSP_TRY(dense_count(&nn, t, nrows, ncols, fn));
  GSP_TRY(gsp__matrix_alloc_dense(&M, t, (int64_t)nrows, (int64_t)ncols));
  GSP_TRY(dense_presence(&M->b, &M->nvals, t, *values, nn, absent));
  GSP_TRY(gsp__matrix_publish(M));
  M->x = *values;
  *values = NULL;
  *A = M;
#undef GSP_FREE_ALL
  return info;
}

/* Write A densely into out (absent entries = *absent). */
static gsp_info write_dense(void *out, const void *absent, struct gsp_matrix_s *A, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__matrix_host(A));
  size_t nn = (size_t)A->nrows * (size_t)A->ncols, ts = gsp_type_size(A->type);
  GSP_CHECK(absent || (size_t)A->nvals == nn, GSP_NULL_POINTER,
            "%s: absent is NULL but the matrix has absent entries", fn);
  if (A->fmt == GSP_FMT_DENSE) {
    if (out != A->x) gsp__memcpy(out, A->x, nn * ts);
    if (A->b)
      for (size_t k = 0; k < nn; k++)
        if (!A->b[k]) gsp__memcpy(gsp__at(out, A->type, (int64_t)k), absent, ts);
    return info;
  }
  for (size_t k = 0; k < nn && absent; k++) gsp__memcpy(gsp__at(out, A->type, (int64_t)k), absent, ts);
  if (A->fmt == GSP_FMT_CSR) {
    for (int64_t i = 0; i < A->nrows; i++)
      for (gsp_index k = A->p[i]; k < A->p[i + 1]; k++)
        gsp__memcpy(gsp__at(out, A->type, i * A->ncols + (int64_t)A->j[k]), gsp__cat(A->x, A->type, (int64_t)k), ts);
  } else {
    for (int64_t i = 0; i < A->nrows; i++)
      for (int64_t j = 0; j < A->ncols; j++)
        if ((A->bits[(size_t)i * (size_t)A->wpr + (size_t)(j >> 6)] >> (j & 63)) & 1)
          ((bool *)out)[i * A->ncols + j] = true;
  }
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_matrix_export_dense(void *values, const void *absent, const gsp_matrix A) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__check_matrix(A, "gsp_matrix_export_dense", "A"));
  GSP_CHECK(values != NULL, GSP_NULL_POINTER, "gsp_matrix_export_dense: values is NULL");
  GSP_TRY(write_dense(values, absent, A, "gsp_matrix_export_dense"));
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_matrix_unpack_dense(void **values, const void *absent, gsp_matrix *A) {
  gsp_info info = GSP_SUCCESS;
  const char *fn = "gsp_matrix_unpack_dense";
#define GSP_FREE_ALL
  GSP_CHECK(values && A, GSP_NULL_POINTER, "%s: values or A is NULL", fn);
  GSP_OUTPUTS(fn, {values, sizeof *values, "values"}, {A, sizeof *A, "A"});
  GSP_TRY(gsp__check_matrix(*A, fn, "*A"));
  struct gsp_matrix_s *M = *A;
  GSP_TRY(gsp__matrix_to_dense(M));
  GSP_TRY(write_dense(M->x, absent, M, fn));
  *values = M->x;
  M->x = NULL;
  gsp__unregister(M);
  gsp__matrix_destroy(M);
  *A = NULL;
#undef GSP_FREE_ALL
  return info;
}
