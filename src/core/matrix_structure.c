/* gsp_matrix_export_csr_indexed: a matrix's CSR arrays written into the
 * caller's memory with the index width the caller's consumer keeps (scipy
 * adopts int32 indices as they are), built in parallel straight from the
 * storage the matrix has: bit-packed rows by popcount and count-trailing-
 * zeros, dense rows by their presence flags, CSR rows by copy. No CSR copy
 * of the matrix is made, and the matrix keeps its storage. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise (huge pages for fresh large arrays) */
#endif
#include <stdint.h>
#include <string.h>

#include "dense_pass.h"
#include "gsp_internal.h"

/* Entries of row i. */
static gsp_index row_count(const struct gsp_matrix_s *A, int64_t i) {
  const int64_t m = A->ncols;
  if (A->fmt == GSP_FMT_CSR) return A->p[i + 1] - A->p[i];
  if (A->fmt == GSP_FMT_DENSE) {
    if (!A->b) return (gsp_index)m;
    const uint8_t *b = A->b + (size_t)i * (size_t)m;
    gsp_index c = 0;
    for (int64_t j = 0; j < m; j++) c += b[j] != 0;
    return c;
  }
  const uint64_t *w = A->bits + (size_t)i * (size_t)A->wpr;
  gsp_index c = 0;
  for (int64_t q = 0; q < A->wpr; q++) c += (gsp_index)__builtin_popcountll(w[q]);
  return c;
}

/* Row i's columns (and values when x) from position at of the outputs. */
#define GSP_FILL_ROW(IT)                                                                                         \
  static void fill_row_##IT(const struct gsp_matrix_s *A, int64_t i, IT *cj, char *x, size_t ts, gsp_index at) { \
    const int64_t m = A->ncols;                                                                                  \
    if (A->fmt == GSP_FMT_CSR) {                                                                                 \
      const gsp_index k0 = A->p[i], len = A->p[i + 1] - k0;                                                      \
      for (gsp_index k = 0; k < len; k++) cj[at + k] = (IT)A->j[k0 + k];                                         \
      if (x) memcpy(x + (size_t)at * ts, (const char *)A->x + (size_t)k0 * ts, (size_t)len * ts);                \
    } else if (A->fmt == GSP_FMT_DENSE) {                                                                        \
      const size_t r = (size_t)i * (size_t)m;                                                                    \
      for (int64_t j = 0; j < m; j++)                                                                            \
        if (!A->b || A->b[r + (size_t)j]) {                                                                      \
          if (x) memcpy(x + (size_t)at * ts, (const char *)A->x + (r + (size_t)j) * ts, ts);                     \
          cj[at++] = (IT)j;                                                                                      \
        }                                                                                                        \
    } else {                                                                                                     \
      const uint64_t *w = A->bits + (size_t)i * (size_t)A->wpr;                                                  \
      const gsp_index a0 = at;                                                                                   \
      for (int64_t q = 0; q < A->wpr; q++)                                                                       \
        for (uint64_t v = w[q]; v; v &= v - 1) cj[at++] = (IT)((q << 6) + __builtin_ctzll(v));                   \
      if (x) memset(x + (size_t)a0, 1, (size_t)(at - a0)); /* bool: every stored bit is true */                  \
    }                                                                                                            \
  }
GSP_FILL_ROW(int32_t)
GSP_FILL_ROW(int64_t)
#undef GSP_FILL_ROW

gsp_info gsp_matrix_export_csr_indexed(gsp_index *rowptr, void *colidx, size_t index_size, void *values,
                                       const gsp_matrix A) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  const char *fn = "gsp_matrix_export_csr_indexed";
  GSP_TRY(gsp__check_matrix(A, fn, "A"));
  GSP_CHECK(rowptr != NULL, GSP_NULL_POINTER, "%s: rowptr is NULL", fn);
  GSP_CHECK(index_size == 4 || index_size == 8, GSP_INVALID_VALUE, "%s: index_size is %zu, not 4 or 8", fn, index_size);
  GSP_CHECK(index_size == 8 || (A->ncols <= INT32_MAX), GSP_INVALID_VALUE, "%s: %llu columns do not fit 4-byte indices",
            fn, (unsigned long long)A->ncols);
  GSP_TRY(gsp__matrix_host(A));
  const int64_t n = A->nrows;
  const int nt = gsp__pass_threads((size_t)A->nrows * (size_t)A->ncols / (A->fmt == GSP_FMT_BITS ? 64 : 1));
  /* pass 1: entries per row; then their prefix sum */
#pragma omp parallel for num_threads(nt) schedule(dynamic, 64) if (nt > 1)
  for (int64_t i = 0; i < n; i++) rowptr[i + 1] = row_count(A, i);
  rowptr[0] = 0;
  for (int64_t i = 0; i < n; i++) rowptr[i + 1] += rowptr[i];
  GSP_CHECK(rowptr[n] == (gsp_index)A->nvals, GSP_PANIC, "%s: entry count %llu disagrees with storage (%llu)", fn,
            (unsigned long long)A->nvals, (unsigned long long)rowptr[n]);
  if (!colidx) return info; /* counting call */
  const size_t ts = gsp_type_size(A->type);
  gsp__pass_huge(colidx, (size_t)A->nvals * index_size);
  if (values) gsp__pass_huge(values, (size_t)A->nvals * ts);
    /* pass 2: every row from its offset, rows spread over the threads */
#pragma omp parallel for num_threads(nt) schedule(dynamic, 64) if (nt > 1)
  for (int64_t i = 0; i < n; i++) {
    if (index_size == 4) fill_row_int32_t(A, i, colidx, values, ts, rowptr[i]);
    else fill_row_int64_t(A, i, colidx, values, ts, rowptr[i]);
  }
#undef GSP_FREE_ALL
  return info;
}
