/* Import and export of raw CSR and dense row-major arrays, copying or
 * zero-copy (pack/unpack: ownership of malloc()ed arrays moves). */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise (huge pages for fresh n^2 arrays) */
#endif
#include <stdlib.h>
#include <string.h>

#include "bits_pack.h"
#include "dense_pass.h"
#include "gsp_internal.h"
#include "gsp_cuda_plugin.h"

static gsp_info check_new_args(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols, const char *fn) {
  if (!A) return GSP_ERROR(GSP_NULL_POINTER, "%s: A is NULL", fn);
  gsp_info info = gsp__check_type(t, fn);
  if (info < 0) return info;
  if (nrows > GSP_INDEX_MAX || ncols > GSP_INDEX_MAX)
    return GSP_ERROR(GSP_TOO_LARGE, "%s: dimensions %llu x %llu exceed the limit", fn, (unsigned long long)nrows,
                     (unsigned long long)ncols);
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
    return GSP_ERROR(GSP_INVALID_VALUE, "%s: rowptr[0] is %llu, must be 0", fn, (unsigned long long)rowptr[0]);
  for (gsp_index i = 0; i < nrows; i++) {
    if (rowptr[i + 1] < rowptr[i])
      return GSP_ERROR(GSP_INVALID_VALUE, "%s: rowptr decreases at row %llu", fn, (unsigned long long)i);
    if (rowptr[i + 1] - rowptr[i] > ncols)
      return GSP_ERROR(GSP_INVALID_VALUE,
                       "%s: row %llu has %llu entries (rowptr[%llu] = %llu), more than its %llu columns", fn,
                       (unsigned long long)i, (unsigned long long)(rowptr[i + 1] - rowptr[i]),
                       (unsigned long long)i + 1, (unsigned long long)rowptr[i + 1], (unsigned long long)ncols);
  }
  if (rowptr[nrows] > GSP_MAX_ARRAY_ENTRIES)
    return GSP_ERROR(GSP_INVALID_VALUE, "%s: rowptr[%llu] = %llu entries; no colidx array can hold that many", fn,
                     (unsigned long long)nrows, (unsigned long long)rowptr[nrows]);
  return GSP_SUCCESS;
}

/* Whether every row's columns are in range and strictly increasing (one
 * parallel pass; the tuple sorter then has nothing to do), copying them to
 * copy (when not NULL) in the same pass. */
static bool sorted_rows(const gsp_index *p, const gsp_index *j, gsp_index nrows, gsp_index ncols, gsp_index *copy) {
  int bad = 0;
  const int nt = gsp__pass_threads((size_t)p[nrows]);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 256) reduction(| : bad) if (nt > 1)
  for (int64_t i = 0; i < (int64_t)nrows; i++) {
    for (gsp_index k = p[i]; k < p[i + 1]; k++) bad |= j[k] >= ncols || (k > p[i] && j[k] <= j[k - 1]);
    if (copy) memcpy(copy + p[i], j + p[i], (size_t)(p[i + 1] - p[i]) * sizeof *j);
  }
  return !bad;
}

/* gsp_matrix_import_csr under the name fn (pack uses it for unsorted rows). */
static gsp_info import_csr(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols, const gsp_index *rowptr,
                           const gsp_index *colidx, const void *values, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  gsp_index *I = NULL;
  struct gsp_matrix_s *M = NULL;
#define GSP_FREE_ALL (gsp__free(I), gsp__matrix_destroy(M))
  GSP_TRY(check_new_args(A, t, nrows, ncols, fn));
  GSP_CHECK(rowptr && colidx, GSP_NULL_POINTER, "%s: rowptr or colidx is NULL", fn);
  GSP_CHECK(values || t == GSP_BOOL, GSP_NULL_POINTER, "%s: values is NULL", fn);
  GSP_TRY(check_rowptr(rowptr, nrows, ncols, fn));
  gsp_index nv = rowptr[nrows];
  /* already canonical (the common case): the arrays copied as they are,
   * the columns checked as they are copied */
  GSP_TRY(gsp__matrix_alloc(&M, t, (int64_t)nrows, (int64_t)ncols));
  GSP_ALLOC(M->j, nv > 0 ? nv : 1, sizeof(gsp_index));
  gsp__pass_huge(M->j, (size_t)nv * sizeof(gsp_index));
  if (sorted_rows(rowptr, colidx, nrows, ncols, M->j)) {
    const size_t ts = gsp_type_size(t);
    GSP_ALLOC(M->x, nv > 0 ? nv : 1, ts);
    gsp__pass_huge(M->x, (size_t)nv * ts);
    gsp__pass_memcpy(M->p, rowptr, ((size_t)nrows + 1) * sizeof(gsp_index));
    if (values) gsp__pass_memcpy(M->x, values, (size_t)nv * ts);
    else memset(M->x, 1, (size_t)nv); /* bool without values: all true */
    M->nvals = (int64_t)nv;
    GSP_TRY(gsp__matrix_publish(M));
    *A = M;
    return info;
  }
  gsp__matrix_destroy(M);
  M = NULL;
  /* expand row indices and reuse the tuple sorter: it checks columns,
   * sorts rows and rejects duplicates */
  GSP_ALLOC(I, nv, sizeof(gsp_index));
  for (gsp_index i = 0; i < nrows; i++)
    for (gsp_index k = rowptr[i]; k < rowptr[i + 1]; k++) I[k] = i;
  GSP_TRY(gsp__matrix_alloc(&M, t, (int64_t)nrows, (int64_t)ncols));
  gsp__free(M->p);
  M->p = NULL;
  GSP_TRY(gsp__tuples_to_csr(&M->p, &M->j, &M->x, &M->nvals, t, (int64_t)nrows, (int64_t)ncols, I, colidx, values, nv,
                             GSP_DUP_ERROR, fn));
  GSP_FREE(I);
  GSP_TRY(gsp__matrix_publish(M));
  *A = M;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_matrix_import_csr(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols, const gsp_index *rowptr,
                               const gsp_index *colidx, const void *values) {
  return import_csr(A, t, nrows, ncols, rowptr, colidx, values, "gsp_matrix_import_csr");
}

gsp_info gsp_matrix_pack_csr(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols, gsp_index **rowptr,
                             gsp_index **colidx, void **values) {
  gsp_info info = GSP_SUCCESS;
  const char *fn = "gsp_matrix_pack_csr";
  struct gsp_matrix_s *M = NULL;
#define GSP_FREE_ALL gsp__matrix_destroy(M)
  GSP_TRY(check_new_args(A, t, nrows, ncols, fn));
  GSP_CHECK(rowptr && colidx && values && *rowptr && *colidx && *values, GSP_NULL_POINTER,
            "%s: rowptr, colidx or values is NULL", fn);
  const gsp_index *p = *rowptr, *j = *colidx;
  GSP_TRY(check_rowptr(p, nrows, ncols, fn));
  /* checked as for import: columns in any order within a row. Zero-copy
   * cannot reorder the caller's arrays behind an error, so unsorted rows are
   * imported (sorted into new arrays, duplicates refused) and the caller's
   * arrays freed only on success */
  if (!sorted_rows(p, j, nrows, ncols, NULL)) {
    GSP_TRY(import_csr(A, t, nrows, ncols, p, j, *values, fn));
    free(*rowptr), free(*colidx), free(*values);
    *rowptr = NULL, *colidx = NULL, *values = NULL;
    return info;
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

gsp_info gsp_matrix_export_csr(gsp_index *rowptr, gsp_index *colidx, void *values, const gsp_matrix A) {
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
  return info;
}

gsp_info gsp_matrix_unpack_csr(gsp_index **rowptr, gsp_index **colidx, void **values, gsp_index *nvals, gsp_matrix *A) {
  gsp_info info = GSP_SUCCESS;
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

/* Presence array of a dense array: NULL when all present (or absent NULL).
 * One parallel pass: compare each value with *absent (as values: -0 == 0
 * for floats; bool compares as bytes), write the flag, count, and copy the
 * value to copy[] when copy is not NULL. */
static gsp_info dense_presence(uint8_t **b_out, int64_t *nvals, gsp_type t, const void *x, size_t nn,
                               const void *absent, void *copy) {
  gsp_info info = GSP_SUCCESS;
  uint8_t *b = NULL;
#define GSP_FREE_ALL gsp__free(b)
  *b_out = NULL;
  *nvals = (int64_t)nn;
  if (!absent) {
    if (copy) gsp__pass_memcpy(copy, x, nn * gsp_type_size(t));
    return info;
  }
  GSP_ALLOC(b, nn, 1);
  gsp__pass_huge(b, nn);
  int64_t cnt = 0;
  const int nt = gsp__pass_threads(nn);
  switch (t) {
#define GSP_PRES_(code, ct)                                                                                           \
  case code: {                                                                                                        \
    const ct *v = (const ct *)x, a = *(const ct *)absent;                                                             \
    ct *d = (ct *)copy;                                                                                               \
    if (d) {                                                                                                          \
      _Pragma("omp parallel for num_threads(nt) schedule(static) reduction(+ : cnt) if (nt > 1)") for (size_t k = 0;  \
                                                                                                       k < nn; k++) { \
        const ct e = v[k];                                                                                            \
        const uint8_t p = !(e == a);                                                                                  \
        d[k] = e;                                                                                                     \
        b[k] = p;                                                                                                     \
        cnt += p;                                                                                                     \
      }                                                                                                               \
    } else {                                                                                                          \
      _Pragma("omp parallel for num_threads(nt) schedule(static) reduction(+ : cnt) if (nt > 1)") for (size_t k = 0;  \
                                                                                                       k < nn; k++) { \
        const uint8_t p = !(v[k] == a);                                                                               \
        b[k] = p;                                                                                                     \
        cnt += p;                                                                                                     \
      }                                                                                                               \
    }                                                                                                                 \
  } break;
    GSP_PASS_TYPES(GSP_PRES_)
#undef GSP_PRES_
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
    return GSP_ERROR(GSP_TOO_LARGE, "%s: %llu x %llu dense values overflow memory sizes", fn, (unsigned long long)nrows,
                     (unsigned long long)ncols);
  return GSP_SUCCESS;
}

/* gsp_matrix_import_dense (pack false: values copied) and _pack_dense
 * (pack: *vp taken, NULL on success). */
static gsp_info new_dense(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols, const void *values, void **vp,
                          bool pack, const void *absent, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *M = NULL;
#define GSP_FREE_ALL gsp__matrix_destroy(M)
  GSP_TRY(check_new_args(A, t, nrows, ncols, fn));
  GSP_CHECK(pack ? vp && *vp : values != NULL, GSP_NULL_POINTER, "%s: values is NULL", fn);
  size_t nn;
  GSP_TRY(dense_count(&nn, t, nrows, ncols, fn));
  GSP_TRY(gsp__matrix_alloc_dense(&M, t, (int64_t)nrows, (int64_t)ncols));
  if (pack) {
    GSP_TRY(dense_presence(&M->b, &M->nvals, t, *vp, nn, absent, NULL));
    GSP_TRY(gsp__matrix_publish(M));
    M->x = *vp;
    *vp = NULL;
  } else {
    GSP_ALLOC(M->x, nn, gsp_type_size(t));
    gsp__pass_huge(M->x, nn * gsp_type_size(t));
    GSP_TRY(dense_presence(&M->b, &M->nvals, t, values, nn, absent, M->x));
    GSP_TRY(gsp__matrix_publish(M));
  }
  *A = M;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_matrix_import_dense(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols, const void *values,
                                 const void *absent) {
  return new_dense(A, t, nrows, ncols, values, NULL, false, absent, "gsp_matrix_import_dense");
}

gsp_info gsp_matrix_pack_dense(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols, void **values,
                               const void *absent) {
  return new_dense(A, t, nrows, ncols, NULL, values, true, absent, "gsp_matrix_pack_dense");
}

/* Write A densely into out (absent entries = *absent): one parallel pass
 * over the rows, whatever the storage. */
static gsp_info write_dense(void *out, const void *absent, struct gsp_matrix_s *A, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  const size_t nn = (size_t)A->nrows * (size_t)A->ncols, ts = gsp_type_size(A->type);
  /* nvals holds also while the content is on the device */
  GSP_CHECK(absent || (size_t)A->nvals == nn, GSP_NULL_POINTER, "%s: absent is NULL but the matrix has absent entries",
            fn);
  if (__atomic_load_n(&A->dev_only, __ATOMIC_ACQUIRE) && out != A->x) {
    /* a GPU result goes straight from the device into out */
    bool done = false;
    const gsp_cuda_arrays v = gsp__matrix_cuda_arrays(A);
    const gsp__cuda_api *cu = gsp__cuda_plugin_loaded();
    if (cu) GSP_TRY(cu->dense_export(out, (size_t)A->nvals == nn ? NULL : absent, &v, &done));
    if (done) return info;
  }
  GSP_TRY(gsp__matrix_host(A));
  const int64_t n = A->nrows, m = A->ncols;
  const int nt = gsp__pass_threads(nn);
  if (A->fmt == GSP_FMT_DENSE) {
    if (!A->b) {
      if (out != A->x) gsp__pass_memcpy(out, A->x, nn * ts);
      return info;
    }
    const uint8_t *b = A->b;
    switch (A->type) {
#define GSP_WD_(code, ct)                                                                                           \
  case code: {                                                                                                      \
    const ct *x = (const ct *)A->x, a = *(const ct *)absent;                                                        \
    ct *o = (ct *)out;                                                                                              \
    _Pragma("omp parallel for num_threads(nt) schedule(static) if (nt > 1)") for (size_t k = 0; k < nn; k++) o[k] = \
        b[k] ? x[k] : a;                                                                                            \
  } break;
      GSP_PASS_TYPES(GSP_WD_)
#undef GSP_WD_
    }
    return info;
  }
  if (A->fmt == GSP_FMT_CSR) {
    switch (A->type) {
#define GSP_WC_(code, ct)                                                                                           \
  case code: {                                                                                                      \
    const ct *x = (const ct *)A->x;                                                                                 \
    const ct a = absent ? *(const ct *)absent : (ct)0;                                                              \
    ct *o = (ct *)out;                                                                                              \
    _Pragma("omp parallel for num_threads(nt) schedule(dynamic, 64) if (nt > 1)") for (int64_t i = 0; i < n; i++) { \
      ct *row = o + (size_t)i * (size_t)m;                                                                          \
      if (absent)                                                                                                   \
        for (int64_t j = 0; j < m; j++) row[j] = a;                                                                 \
      for (gsp_index k = A->p[i]; k < A->p[i + 1]; k++) row[A->j[k]] = x[k];                                        \
    }                                                                                                               \
  } break;
      GSP_PASS_TYPES(GSP_WC_)
#undef GSP_WC_
    }
    return info;
  }
  /* BITS (bool): every byte written, true where the bit is set; explicit
   * false entries were dropped when the bits were made, so the absent
   * value and false coincide unless *absent is true. */
  const uint8_t a = absent ? *(const uint8_t *)absent : 0;
  const uint64_t *bits = A->bits;
  const int64_t wpr = A->wpr;
  uint8_t *o = out;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (int64_t i = 0; i < n; i++) {
    uint8_t *row = o + (size_t)i * (size_t)m;
    const uint64_t *w = bits + (size_t)i * (size_t)wpr;
    for (int64_t j0 = 0; j0 < m; j0 += 64) {
      const uint64_t v = w[j0 >> 6];
      const int64_t len = m - j0 < 64 ? m - j0 : 64;
      if (a == 0) gsp__unpack64(row + j0, v, len);
      else
        for (int64_t q = 0; q < len; q++) row[j0 + q] = ((v >> q) & 1) ? 1 : a;
    }
  }
  return info;
}

gsp_info gsp_matrix_export_dense(void *values, const void *absent, const gsp_matrix A) {
  gsp_info info = GSP_SUCCESS;
  GSP_TRY(gsp__check_matrix(A, "gsp_matrix_export_dense", "A"));
  GSP_CHECK(values != NULL, GSP_NULL_POINTER, "gsp_matrix_export_dense: values is NULL");
  /* the caller's array is often fresh (malloc'ed for this call): its page
   * faults would cost more than the copy */
  gsp__pass_huge(values, (size_t)A->nrows * (size_t)A->ncols * gsp_type_size(A->type));
  GSP_TRY(write_dense(values, absent, A, "gsp_matrix_export_dense"));
#undef GSP_FREE_ALL
  return info;
}

/* Bool bits (a bool closure's result, on the GPU or not) are unpacked
 * straight into the bytes the caller gets, in one parallel pass: into the
 * dense array the matrix still holds (the caller's packed array, stale
 * while the result lives on the device: pages already touched) or a fresh
 * one; never through a dense copy and its presence flags. *out owns it. */
static gsp_info unpack_bits(void **out, const void *absent, struct gsp_matrix_s *M, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  void *x = NULL;
#define GSP_FREE_ALL gsp__free(x)
  const size_t nn = (size_t)M->nrows * (size_t)M->ncols;
  if (M->dev_only && M->fmt == GSP_FMT_DENSE && M->x) {
    x = M->x; /* the download frees no array it no longer sees */
    M->x = NULL;
    info = gsp__matrix_host(M);
    if (info < 0) {
      M->x = x; /* still dev_only: the stale array goes back */
      return info;
    }
  } else GSP_TRY(gsp__matrix_host(M));
  if (M->fmt != GSP_FMT_BITS) {
    if (!M->x) M->x = x; /* nothing replaced it: the array goes back */
    else gsp__free(x);   /* stale storage the download replaced */
    x = NULL;
    GSP_TRY(gsp__matrix_to_dense(M));
    GSP_TRY(write_dense(M->x, absent, M, fn));
    *out = M->x;
    M->x = NULL;
    return info;
  }
  if (!x) {
    GSP_ALLOC(x, nn > 0 ? nn : 1, 1);
    gsp__pass_huge(x, nn);
  }
  GSP_TRY(write_dense(x, absent, M, fn));
  *out = x;
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
  void *out = NULL;
  if (M->type == GSP_BOOL) GSP_TRY(unpack_bits(&out, absent, M, fn));
  else {
    GSP_TRY(gsp__matrix_to_dense(M));
    GSP_TRY(write_dense(M->x, absent, M, fn));
    out = M->x;
    M->x = NULL;
  }
  *values = out;
  gsp__unregister(M);
  gsp__matrix_destroy(M);
  *A = NULL;
#undef GSP_FREE_ALL
  return info;
}
