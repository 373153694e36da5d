/* Building matrices from tuples, and single-element access. */
#include <stdlib.h>
#include <string.h>

#include "gsp_internal.h"
#include "gsp_semiring.h"

/* Combine x (earlier) with y (later) by a duplicate policy, in place in x. */
static void dup_combine(void *x, const void *y, gsp_type t, gsp_dup dup) {
  switch (dup) {
  case GSP_DUP_ERROR:
  case GSP_DUP_FIRST:
    return;
  case GSP_DUP_LAST:
    gsp__memcpy(x, y, gsp_type_size(t));
    return;
  default:
    break;
  }
  switch (t) {
#define GSP_DUP_CASE_(T, ct, sfx)                           \
  case GSP_##T: {                                           \
    ct a = *(ct *)x, b = *(const ct *)y;                    \
    *(ct *)x = dup == GSP_DUP_MIN   ? gsp_min_##sfx(a, b)   \
               : dup == GSP_DUP_MAX ? gsp_max_##sfx(a, b)   \
                                    : gsp_plus_##sfx(a, b); \
    return;                                                 \
  }
    GSP_TYPE_LIST(GSP_DUP_CASE_)
#undef GSP_DUP_CASE_
  }
}

typedef struct {
  gsp_index j, k; /* column, position in the input */
} col_pos;

static int cmp_col_pos(const void *a, const void *b) {
  const col_pos *x = a, *y = b;
  if (x->j != y->j) return x->j < y->j ? -1 : 1;
  return x->k < y->k ? -1 : x->k > y->k;
}

/* Every tuple's row (I == NULL: row 0) and column within the matrix. */
static gsp_info check_indices(int64_t nrows, int64_t ncols, const gsp_index *I, const gsp_index *J, gsp_index n,
                              const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  for (gsp_index k = 0; k < n; k++) {
    gsp_index i = I ? I[k] : 0;
    GSP_CHECK(i < (gsp_index)nrows, GSP_INVALID_INDEX, "%s: tuple %llu: row index %llu out of range 0..%lld", fn,
              (unsigned long long)k, (unsigned long long)i, (long long)nrows - 1);
    GSP_CHECK(J[k] < (gsp_index)ncols, GSP_INVALID_INDEX, "%s: tuple %llu: index %llu out of range 0..%lld", fn,
              (unsigned long long)k, (unsigned long long)J[k], (long long)ncols - 1);
  }
#undef GSP_FREE_ALL
  return info;
}

/* Sort each row of cp (rows by p) by (column, input position) and count
 * its distinct columns into count[i]. Returns the largest input position of
 * a duplicate under GSP_DUP_ERROR, else -1. */
static int64_t sort_rows(col_pos *cp, gsp_index *count, const gsp_index *p, int64_t nrows, gsp_dup dup) {
  int64_t bad_dup = -1;
#pragma omp parallel for schedule(dynamic, 256) num_threads(gsp__threads()) reduction(max : bad_dup)
  for (int64_t i = 0; i < nrows; i++) {
    gsp_index lo = p[i], hi = p[i + 1];
    if (hi - lo > 1) qsort(cp + lo, hi - lo, sizeof(col_pos), cmp_col_pos);
    gsp_index distinct = 0;
    for (gsp_index q = lo; q < hi; q++) {
      if (q > lo && cp[q].j == cp[q - 1].j) {
        if (dup == GSP_DUP_ERROR && (int64_t)cp[q].k > bad_dup) bad_dup = (int64_t)cp[q].k;
      } else {
        distinct++;
      }
    }
    count[i] = distinct;
  }
  return bad_dup;
}

/* The output rows (starting at rp[i]): one entry per distinct column,
 * duplicates combined by dup in input order; X == NULL: every value 1. */
static void combine_rows(gsp_index *jj, void *x, const gsp_index *rp, const gsp_index *p, const col_pos *cp,
                         int64_t nrows, const void *X, gsp_type t, gsp_dup dup) {
  const size_t ts = gsp_type_size(t);
  const bool one = true;
#pragma omp parallel for schedule(dynamic, 256) num_threads(gsp__threads())
  for (int64_t i = 0; i < nrows; i++) {
    gsp_index out = rp[i];
    for (gsp_index q = p[i]; q < p[i + 1]; q++) {
      const void *v = X ? gsp__cat(X, t, (int64_t)cp[q].k) : (const void *)&one;
      if (q > p[i] && cp[q].j == cp[q - 1].j) {
        dup_combine(gsp__at(x, t, (int64_t)out - 1), v, t, dup);
      } else {
        jj[out] = cp[q].j;
        gsp__memcpy(gsp__at(x, t, (int64_t)out), v, ts);
        out++;
      }
    }
  }
}

/*
 * Sort n tuples into CSR (rows 0..nrows-1), combining duplicates. Shared by
 * matrix and vector building (a vector is one row). Fills out CSR arrays
 * allocated here; on error returns the code with everything freed.
 */
gsp_info gsp__tuples_to_csr(gsp_index **p_out, gsp_index **j_out, void **x_out, int64_t *nvals_out, gsp_type t,
                            int64_t nrows, int64_t ncols, const gsp_index *I, const gsp_index *J, const void *X,
                            gsp_index n, gsp_dup dup, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  gsp_index *p = NULL, *jj = NULL, *fill = NULL;
  col_pos *cp = NULL;
  void *x = NULL;
  size_t ts = gsp_type_size(t);
#define GSP_FREE_ALL (gsp__free(p), gsp__free(jj), gsp__free(fill), gsp__free(cp), gsp__free(x))
  GSP_TRY(check_indices(nrows, ncols, I, J, n, fn));
  GSP_CALLOC(p, (size_t)nrows + 1, sizeof(gsp_index));
  GSP_ALLOC(fill, (size_t)nrows + 1, sizeof(gsp_index));
  GSP_ALLOC(cp, (size_t)n, sizeof(col_pos));
  for (gsp_index k = 0; k < n; k++) p[(I ? I[k] : 0) + 1]++;
  for (int64_t i = 0; i < nrows; i++) p[i + 1] += p[i];
  gsp__memcpy(fill, p, ((size_t)nrows + 1) * sizeof(gsp_index));
  for (gsp_index k = 0; k < n; k++) {
    gsp_index d = fill[I ? I[k] : 0]++;
    cp[d].j = J[k];
    cp[d].k = k;
  }
  const int64_t bad_dup = sort_rows(cp, fill, p, nrows, dup);
  if (bad_dup >= 0) {
    gsp_index k = (gsp_index)bad_dup;
    GSP_CHECK(false, GSP_DUPLICATE_ENTRY, "%s: tuple %llu duplicates entry (%llu, %llu)", fn, (unsigned long long)k,
              (unsigned long long)(I ? I[k] : 0), (unsigned long long)J[k]);
  }
  gsp_index total = 0;
  for (int64_t i = 0; i < nrows; i++) total += fill[i];
  GSP_ALLOC(jj, (size_t)total, sizeof(gsp_index));
  GSP_ALLOC(x, (size_t)total, ts);
  /* fill[] becomes the output row pointers */
  gsp_index run = 0;
  for (int64_t i = 0; i < nrows; i++) {
    gsp_index c = fill[i];
    fill[i] = run;
    run += c;
  }
  fill[nrows] = run;
  combine_rows(jj, x, fill, p, cp, nrows, X, t, dup);
  gsp__free(p);
  gsp__free(cp);
  *p_out = fill;
  *j_out = jj;
  *x_out = x;
  *nvals_out = (int64_t)total;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_matrix_build(gsp_matrix A, const gsp_index *I, const gsp_index *J, const void *X, gsp_index n,
                          gsp_dup dup) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__check_matrix(A, "gsp_matrix_build", "A"));
  GSP_CHECK(n == 0 || (I && J), GSP_NULL_POINTER, "gsp_matrix_build: I or J is NULL");
  GSP_CHECK(n == 0 || X || A->type == GSP_BOOL, GSP_NULL_POINTER,
            "gsp_matrix_build: X is NULL (only bool matrices may omit values)");
  GSP_CHECK(dup >= GSP_DUP_ERROR && dup <= GSP_DUP_PLUS, GSP_INVALID_VALUE,
            "gsp_matrix_build: invalid duplicate policy %d", (int)dup);
  GSP_CHECK(A->nvals == 0, GSP_OUTPUT_NOT_EMPTY, "gsp_matrix_build: A already has %lld entries", (long long)A->nvals);
  gsp_index *p, *jj;
  void *x;
  int64_t nvals;
  GSP_TRY(gsp__tuples_to_csr(&p, &jj, &x, &nvals, A->type, A->nrows, A->ncols, I, J, X, n, dup, "gsp_matrix_build"));
  gsp__matrix_set_storage(A, GSP_FMT_CSR, p, jj, x, NULL, NULL, 0, nvals);
#undef GSP_FREE_ALL
  return info;
}

/* Position of column j in CSR row i, or -1. */
static int64_t csr_find(const struct gsp_matrix_s *A, int64_t i, gsp_index j, gsp_index *ins) {
  gsp_index lo = A->p[i], hi = A->p[i + 1];
  while (lo < hi) {
    gsp_index mid = lo + (hi - lo) / 2;
    if (A->j[mid] < j) lo = mid + 1;
    else hi = mid;
  }
  if (ins) *ins = lo;
  return (lo < A->p[i + 1] && A->j[lo] == j) ? (int64_t)lo : -1;
}

static gsp_info check_ij(const struct gsp_matrix_s *A, gsp_index i, gsp_index j, const char *fn) {
  if (i >= (gsp_index)A->nrows || j >= (gsp_index)A->ncols)
    return GSP_ERROR(GSP_INVALID_INDEX, "%s: (%llu, %llu) out of range for a %lld x %lld matrix", fn,
                     (unsigned long long)i, (unsigned long long)j, (long long)A->nrows, (long long)A->ncols);
  return GSP_SUCCESS;
}

gsp_info gsp_matrix_set_element(gsp_matrix A, gsp_index i, gsp_index j, const void *xv) {
  gsp_info info = GSP_SUCCESS;
  gsp_index *nj = NULL;
  void *nx = NULL;
#define GSP_FREE_ALL (gsp__free(nj), gsp__free(nx))
  GSP_TRY(gsp__check_matrix(A, "gsp_matrix_set_element", "A"));
  GSP_CHECK(xv != NULL, GSP_NULL_POINTER, "gsp_matrix_set_element: x is NULL");
  GSP_TRY(check_ij(A, i, j, "gsp_matrix_set_element"));
  GSP_TRY(gsp__matrix_host(A));
  size_t ts = gsp_type_size(A->type);
  if (A->fmt == GSP_FMT_BITS) GSP_TRY(gsp__matrix_to_csr(A));
  if (A->fmt == GSP_FMT_DENSE) {
    size_t at = (size_t)i * (size_t)A->ncols + j;
    if (A->b && !A->b[at]) {
      A->b[at] = 1;
      A->nvals++;
    }
    gsp__memcpy(gsp__at(A->x, A->type, (int64_t)at), xv, ts);
  } else {
    gsp_index ins;
    int64_t pos = csr_find(A, (int64_t)i, j, &ins);
    if (pos >= 0) {
      gsp__memcpy(gsp__at(A->x, A->type, pos), xv, ts);
    } else {
      /* insert by copying into new arrays: A stays intact if that fails */
      size_t nv = (size_t)A->nvals;
      GSP_ALLOC(nj, nv + 1, sizeof(gsp_index));
      GSP_ALLOC(nx, nv + 1, ts);
      if (nv > 0) { /* an empty matrix may have NULL arrays */
        gsp__memcpy(nj, A->j, ins * sizeof(gsp_index));
        gsp__memcpy(nj + ins + 1, A->j + ins, (nv - ins) * sizeof(gsp_index));
        gsp__memcpy(nx, A->x, ins * ts);
        gsp__memcpy((char *)nx + (ins + 1) * ts, (char *)A->x + ins * ts, (nv - ins) * ts);
      }
      nj[ins] = j;
      gsp__memcpy((char *)nx + ins * ts, xv, ts);
      gsp__free(A->j);
      gsp__free(A->x);
      A->j = nj;
      A->x = nx;
      nj = NULL;
      nx = NULL;
      for (int64_t r = (int64_t)i + 1; r <= A->nrows; r++) A->p[r]++;
      A->nvals++;
    }
  }
  gsp__matrix_host_changed(A);
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_matrix_remove_element(gsp_matrix A, gsp_index i, gsp_index j) {
  gsp_info info = GSP_SUCCESS;
  uint8_t *b = NULL;
#define GSP_FREE_ALL gsp__free(b)
  GSP_TRY(gsp__check_matrix(A, "gsp_matrix_remove_element", "A"));
  GSP_TRY(check_ij(A, i, j, "gsp_matrix_remove_element"));
  GSP_TRY(gsp__matrix_host(A));
  if (A->fmt == GSP_FMT_DENSE) {
    size_t nn = (size_t)A->nrows * (size_t)A->ncols, at = (size_t)i * (size_t)A->ncols + j;
    if (!A->b) {
      GSP_ALLOC(b, nn, 1);
      memset(b, 1, nn);
      A->b = b;
      b = NULL;
    }
    if (A->b[at]) {
      A->b[at] = 0;
      A->nvals--;
    }
  } else if (A->fmt == GSP_FMT_BITS) {
    uint64_t *w = A->bits + (size_t)i * (size_t)A->wpr + (j >> 6), m = 1ULL << (j & 63);
    if (*w & m) {
      *w &= ~m;
      A->nvals--;
    }
  } else {
    int64_t pos = csr_find(A, (int64_t)i, j, NULL);
    if (pos >= 0) {
      size_t ts = gsp_type_size(A->type), nv = (size_t)A->nvals;
      memmove(A->j + pos, A->j + pos + 1, (nv - (size_t)pos - 1) * sizeof(gsp_index));
      memmove((char *)A->x + (size_t)pos * ts, (char *)A->x + ((size_t)pos + 1) * ts, (nv - (size_t)pos - 1) * ts);
      for (int64_t r = (int64_t)i + 1; r <= A->nrows; r++) A->p[r]--;
      A->nvals--;
    }
  }
  gsp__matrix_host_changed(A);
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_matrix_extract_element(void *xv, const gsp_matrix A, gsp_index i, gsp_index j) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__check_matrix(A, "gsp_matrix_extract_element", "A"));
  GSP_CHECK(xv != NULL, GSP_NULL_POINTER, "gsp_matrix_extract_element: x is NULL");
  GSP_TRY(check_ij(A, i, j, "gsp_matrix_extract_element"));
  GSP_TRY(gsp__matrix_host(A));
  size_t ts = gsp_type_size(A->type);
  if (A->fmt == GSP_FMT_DENSE) {
    size_t at = (size_t)i * (size_t)A->ncols + j;
    if (A->b && !A->b[at]) return GSP_NO_VALUE;
    gsp__memcpy(xv, gsp__cat(A->x, A->type, (int64_t)at), ts);
  } else if (A->fmt == GSP_FMT_BITS) {
    if (!((A->bits[(size_t)i * (size_t)A->wpr + (j >> 6)] >> (j & 63)) & 1)) return GSP_NO_VALUE;
    *(bool *)xv = true;
  } else {
    int64_t pos = csr_find(A, (int64_t)i, j, NULL);
    if (pos < 0) return GSP_NO_VALUE;
    gsp__memcpy(xv, gsp__cat(A->x, A->type, pos), ts);
  }
  return info;
}

gsp_info gsp_matrix_extract_tuples(gsp_index *I, gsp_index *J, void *X, gsp_index *n, const gsp_matrix A) {
  gsp_info info = GSP_SUCCESS;
  GSP_TRY(gsp__check_matrix(A, "gsp_matrix_extract_tuples", "A"));
  GSP_CHECK(n != NULL, GSP_NULL_POINTER, "gsp_matrix_extract_tuples: n is NULL");
  {
    /* measure by what is written: a short capacity writes only *n, so
     * small adjacent buffers are not an alias, just too small */
    const size_t nv = *n < (gsp_index)A->nvals ? 0 : (size_t)A->nvals;
    GSP_OUTPUTS("gsp_matrix_extract_tuples", {I, nv * sizeof *I, "I"}, {J, nv * sizeof *J, "J"},
                {X, nv * gsp_type_size(A->type), "X"}, {n, sizeof *n, "n"});
  }
  GSP_TRY(gsp__matrix_host(A));
  if (*n < (gsp_index)A->nvals) {
    info = GSP_ERROR(GSP_INSUFFICIENT_SPACE, "gsp_matrix_extract_tuples: capacity %llu < %lld entries",
                     (unsigned long long)*n, (long long)A->nvals);
    *n = (gsp_index)A->nvals;
    return info;
  }
  /* read each format as it is: converting here would surprise a caller
   * that packed a dense array and expects to unpack the same buffer */
  size_t ts = gsp_type_size(A->type);
  if (A->fmt == GSP_FMT_CSR) {
    for (int64_t i = 0; i < A->nrows; i++)
      for (gsp_index k = A->p[i]; k < A->p[i + 1]; k++) {
        if (I) I[k] = (gsp_index)i;
        if (J) J[k] = A->j[k];
      }
    if (X) gsp__memcpy(X, A->x, (size_t)A->nvals * ts);
  } else {
    gsp_index k = 0;
    for (int64_t i = 0; i < A->nrows; i++)
      for (int64_t j = 0; j < A->ncols; j++) {
        size_t at = (size_t)i * (size_t)A->ncols + (size_t)j;
        bool present = A->fmt == GSP_FMT_DENSE
                           ? (!A->b || A->b[at])
                           : (A->bits[(size_t)i * (size_t)A->wpr + (size_t)(j >> 6)] >> (j & 63)) & 1;
        if (!present) continue;
        if (I) I[k] = (gsp_index)i;
        if (J) J[k] = (gsp_index)j;
        if (X) {
          if (A->fmt == GSP_FMT_DENSE)
            gsp__memcpy(gsp__at(X, A->type, (int64_t)k), gsp__cat(A->x, A->type, (int64_t)at), ts);
          else ((bool *)X)[k] = true;
        }
        k++;
      }
  }
  *n = (gsp_index)A->nvals;
#undef GSP_FREE_ALL
  return info;
}
