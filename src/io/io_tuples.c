/*
 * Tuples -> CSR with about the memory of the final matrix.
 *
 * Entries are held as 64-bit keys (row << 32 | column), so sorting the keys
 * sorts row-major, and the key array becomes the CSR column array in place.
 * Input already in row-major order (most files) needs no sorting at all;
 * otherwise an in-place MSD radix sort (American flag sort) does it without
 * a second copy. Only the FIRST/LAST duplicate policies, which need the
 * input order of equal keys, use a stable out-of-place counting sort (and
 * so about twice the memory).
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "io_internal.h"

#define ROW(k) ((k) >> 32)
#define COL(k) ((k)&0xffffffffu)

gsp_info gsp__tuples_init(gsp__tuples *T, bool weighted, size_t reserve) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL gsp__tuples_free(T)
  memset(T, 0, sizeof *T);
  T->weighted = weighted;
  T->sorted = true;
  T->cap = reserve < 1024 ? 1024 : reserve;
  GSP_ALLOC(T->key, T->cap, sizeof(uint64_t));
  if (weighted) GSP_ALLOC(T->val, T->cap, sizeof(gsp__val));
#undef GSP_FREE_ALL
  return info;
}

void gsp__tuples_free(gsp__tuples *T) {
  GSP_FREE(T->key);
  GSP_FREE(T->val);
  T->n = T->cap = 0;
}

gsp_info gsp__tuples_grow(gsp__tuples *T) {
  /* x1.5: large blocks are mmap()ed and realloc moves them with mremap, so
   * growth costs no copy and no transient double footprint */
  size_t ncap = T->cap + T->cap / 2 + 1024;
  uint64_t *k = gsp__realloc_array(T->key, ncap, sizeof *k);
  if (!k) return GSP_ERROR(GSP_OUT_OF_MEMORY, "cannot hold %zu entries", ncap);
  T->key = k;
  if (T->val) {
    gsp__val *v = gsp__realloc_array(T->val, ncap, sizeof *v);
    if (!v) return GSP_ERROR(GSP_OUT_OF_MEMORY, "cannot hold %zu entries", ncap);
    T->val = v;
  }
  T->cap = ncap;
  return GSP_SUCCESS;
}

void gsp__tuples_make_real(gsp__tuples *T) {
  if (T->real) return;
  for (size_t k = 0; k < T->n; k++) T->val[k].d = (double)T->val[k].i;
  T->real = true;
}

gsp_type gsp__natural_type(const gsp__tuples *T) {
  return !T->weighted ? GSP_BOOL : T->real ? GSP_FP64 : GSP_INT64;
}

/* ---- sorting ---- */

/* Insertion sort (stable) of k[0..n) with v alongside. */
static void isort(uint64_t *k, gsp__val *v, size_t n) {
  for (size_t a = 1; a < n; a++) {
    uint64_t key = k[a];
    gsp__val val = v ? v[a] : (gsp__val){0};
    size_t b = a;
    while (b > 0 && k[b - 1] > key) {
      k[b] = k[b - 1];
      if (v) v[b] = v[b - 1];
      b--;
    }
    k[b] = key;
    if (v) v[b] = val;
  }
}

/* Stable merge sort using tmp buffers of n entries. */
static void msort_kv(uint64_t *k, gsp__val *v, size_t n, uint64_t *tk, gsp__val *tv) {
  if (n <= 24) {
    isort(k, v, n);
    return;
  }
  size_t h = n / 2;
  msort_kv(k, v, h, tk, tv);
  msort_kv(k + h, v ? v + h : NULL, n - h, tk, tv);
  if (k[h - 1] <= k[h]) return;
  memcpy(tk, k, h * sizeof *k);
  if (v) memcpy(tv, v, h * sizeof *v);
  size_t a = 0, b = h, o = 0;
  while (a < h && b < n) {
    if (k[b] < tk[a]) {
      k[o] = k[b];
      if (v) v[o] = v[b];
      b++;
    } else {
      k[o] = tk[a];
      if (v) v[o] = tv[a];
      a++;
    }
    o++;
  }
  while (a < h) {
    k[o] = tk[a];
    if (v) v[o] = tv[a];
    a++;
    o++;
  }
}

/* ---- row bucketing ---- */

/* In-place MSD radix sort (American flag sort) of keys with their values,
 * on the key bits below `top`, most significant byte first. The 256 write
 * fronts stay in cache, so the in-place permutation runs at memory speed,
 * unlike a permutation straight into rows (one cache miss per element).
 * (11-bit digits, one pass fewer, measured slower.) */
#define RADIX_MAX 256
static void flag_sort(uint64_t *K, gsp__val *V, size_t n, int top, bool parallel) {
  if (n <= 32) {
    isort(K, V, n);
    return;
  }
  int bits = top < 8 ? top : 8;
  const int shift = top - bits;
  const unsigned R = 1u << bits, mask = R - 1;
  size_t count[RADIX_MAX], next[RADIX_MAX], end[RADIX_MAX];
  memset(count, 0, R * sizeof *count);
  for (size_t i = 0; i < n; i++) count[(K[i] >> shift) & mask]++;
  size_t sum = 0;
  bool one = false;
  for (unsigned b = 0; b < R; b++) {
    next[b] = sum;
    sum += count[b];
    end[b] = sum;
    one |= count[b] == n;
  }
  if (!one) {
    for (unsigned b = 0; b < R; b++) {
      while (next[b] < end[b]) {
        size_t at = next[b];
        uint64_t key = K[at];
        gsp__val val = V ? V[at] : (gsp__val){0};
        unsigned d = (unsigned)(key >> shift) & mask;
        while (d != b) { /* carry the element to its bucket */
          size_t dst = next[d]++;
          uint64_t k2 = K[dst];
          K[dst] = key;
          key = k2;
          if (V) {
            gsp__val v2 = V[dst];
            V[dst] = val;
            val = v2;
          }
          d = (unsigned)(key >> shift) & mask;
        }
        K[at] = key;
        if (V) V[at] = val;
        next[b]++;
      }
    }
  }
  if (shift == 0) return;
  for (unsigned b = 0; b < R; b++) next[b] = end[b] - count[b]; /* starts */
  int nth = gsp__threads();
#pragma omp parallel for num_threads(nth) schedule(dynamic, 1) if (parallel)
  for (int b = 0; b < (int)R; b++)
    if (count[b] > 1) flag_sort(K + next[b], V ? V + next[b] : NULL, count[b], shift, false);
}

/* Sort all entries by key. Keys are first packed as row << cb | column
 * with cb the bits the columns need, so no pass is spent on the always-zero
 * high column bits, then unpacked again. */
static void sort_keys(gsp__tuples *T, gsp_index ncols) {
  int cb = 0;
  while (cb < 32 && ((uint64_t)1 << cb) < ncols) cb++;
  uint64_t mask = ((uint64_t)1 << cb) - 1, top = 0;
  for (size_t k = 0; k < T->n; k++) {
    uint64_t key = T->key[k];
    key = (key >> 32) << cb | (key & mask);
    T->key[k] = key;
    top |= key;
  }
  int bits = 0; /* significant key bits */
  while (bits < 64 && (top >> bits)) bits++;
  if (bits > 0) flag_sort(T->key, T->val, T->n, bits, T->n > 100000);
  for (size_t k = 0; k < T->n; k++) {
    uint64_t key = T->key[k];
    T->key[k] = (key >> cb) << 32 | (key & mask);
  }
}

/* Stable counting sort by row into new arrays (for FIRST / LAST). */
static gsp_info bucket_stable(gsp__tuples *T, const gsp_index *rowptr, gsp_index *next, gsp_index nrows) {
  gsp_info info = GSP_SUCCESS;
  uint64_t *K = NULL;
  gsp__val *V = NULL;
#define GSP_FREE_ALL (gsp__free(K), gsp__free(V))
  GSP_ALLOC(K, T->n ? T->n : 1, sizeof *K);
  if (T->val) GSP_ALLOC(V, T->n ? T->n : 1, sizeof *V);
  memcpy(next, rowptr, (size_t)nrows * sizeof *next);
  for (size_t k = 0; k < T->n; k++) {
    gsp_index dst = next[ROW(T->key[k])]++;
    K[dst] = T->key[k];
    if (V) V[dst] = T->val[k];
  }
  gsp__free(T->key);
  gsp__free(T->val);
  T->key = K;
  T->val = V;
  T->cap = T->n;
#undef GSP_FREE_ALL
  return info;
}

/* ---- combining duplicates ---- */

static inline void combine(gsp__val *acc, gsp__val x, bool real, gsp_dup dup) {
  switch (dup) {
  case GSP_DUP_LAST:
    *acc = x;
    break;
  case GSP_DUP_MIN:
    if (real ? x.d < acc->d : x.i < acc->i) *acc = x;
    break;
  case GSP_DUP_MAX:
    if (real ? x.d > acc->d : x.i > acc->i) *acc = x;
    break;
  case GSP_DUP_PLUS:
    if (real) acc->d += x.d;
    else acc->i = (int64_t)((uint64_t)acc->i + (uint64_t)x.i); /* wraps */
    break;
  default:
    break; /* FIRST: keep */
  }
}

/* Convert the 8-byte values in place to type t (narrowing front to back is
 * safe: element k of the new array never lies beyond element k of the old). */
static gsp_info convert_values(void *x, const gsp__tuples *T, size_t n, gsp_type t, const char *what) {
  gsp__val *V = T->val;
  switch (t) {
  case GSP_BOOL: {
    bool *o = x;
    for (size_t k = 0; k < n; k++) o[k] = T->real ? V[k].d != 0 : V[k].i != 0;
    break;
  }
  case GSP_INT32: {
    int32_t *o = x;
    for (size_t k = 0; k < n; k++) {
      int64_t v = T->real ? (int64_t)V[k].d : V[k].i;
      if (v < INT32_MIN || v > INT32_MAX)
        return GSP_ERROR(GSP_PARSE_ERROR,
                         "%s: summed duplicate entries give %lld, beyond "
                         "int32",
                         what, (long long)v);
      o[k] = (int32_t)v;
    }
    break;
  }
  case GSP_INT64:
    if (T->real)
      for (size_t k = 0; k < n; k++) V[k].i = (int64_t)V[k].d;
    break;
  case GSP_FP32: {
    float *o = x;
    for (size_t k = 0; k < n; k++) {
      double d = T->real ? V[k].d : (double)V[k].i;
      if (isfinite(d) && fabs(d) > FLT_MAX)
        return GSP_ERROR(GSP_PARSE_ERROR,
                         "%s: summed duplicate entries give %g, beyond "
                         "float",
                         what, d);
      o[k] = (float)d;
    }
    break;
  }
  case GSP_FP64:
    if (!T->real)
      for (size_t k = 0; k < n; k++) V[k].d = (double)V[k].i;
    break;
  }
  return GSP_SUCCESS;
}

/* Entries on the diagonal left out, in order. */
static void drop_self_loops(gsp__tuples *T) {
  size_t o = 0;
  for (size_t k = 0; k < T->n; k++) {
    if (ROW(T->key[k]) == COL(T->key[k])) continue;
    T->key[o] = T->key[k];
    if (T->val) T->val[o] = T->val[k];
    o++;
  }
  T->n = o; /* removing entries keeps sorted input sorted */
}

/* FIRST / LAST need the input order of equal keys: stable counting sort by
 * row (rowptr: the rows' starts) into new arrays, then a stable sort within
 * each row. */
static gsp_info sort_stable(gsp__tuples *T, const gsp_index *rowptr, gsp_index nrows, const char *what) {
  gsp_info info = GSP_SUCCESS;
  gsp_index *next = NULL;
  uint64_t *tk = NULL;
  gsp__val *tv = NULL;
#define GSP_FREE_ALL (gsp__free(next), gsp__free(tk), gsp__free(tv))
  GSP_ALLOC(next, (size_t)nrows + 1, sizeof *next);
  GSP_TRY(bucket_stable(T, rowptr, next, nrows));
  GSP_FREE(next);
  size_t maxrow = 0;
  for (gsp_index r = 0; r < nrows; r++)
    if (rowptr[r + 1] - rowptr[r] > maxrow) maxrow = rowptr[r + 1] - rowptr[r];
  if (maxrow > 24) {
    tk = gsp__malloc_array(maxrow, sizeof *tk);
    tv = T->val ? gsp__malloc_array(maxrow, sizeof *tv) : NULL;
    GSP_CHECK(tk && (!T->val || tv), GSP_OUT_OF_MEMORY, "%s: cannot allocate sort buffers", what);
  }
  for (gsp_index r = 0; r < nrows; r++) {
    size_t lo = rowptr[r], len = rowptr[r + 1] - lo;
    if (len < 2) continue;
    msort_kv(T->key + lo, T->val ? T->val + lo : NULL, len, tk, tv);
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* Combine duplicates of the sorted keys, compacting in place (keys become
 * column indices), and rebuild rowptr; *count = the entries left. */
static gsp_info combine_duplicates(gsp__tuples *T, gsp_index *rowptr, gsp_index nrows, gsp_dup dup, const char *what,
                                   size_t *count) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  const size_t n = T->n;
  uint64_t *K = T->key;
  gsp__val *V = T->val;
  size_t o = 0;
  gsp_index r = 0;
  for (size_t k = 0; k < n;) {
    uint64_t key = K[k];
    gsp__val acc = V ? V[k] : (gsp__val){0};
    size_t e = k + 1;
    for (; e < n && K[e] == key; e++) {
      GSP_CHECK(dup != GSP_DUP_ERROR, GSP_DUPLICATE_ENTRY,
                "%s: duplicate entry (%lld, %lld) (row, column as in the "
                "file)",
                what, T->id_of ? (long long)T->id_of[ROW(key)] : (long long)ROW(key) + T->id_base,
                T->id_of ? (long long)T->id_of[COL(key)] : (long long)COL(key) + T->id_base);
      if (V) combine(&acc, V[e], T->real, dup);
    }
    gsp_index row = ROW(key);
    while (r < row) rowptr[++r] = o; /* rows before this one end at o */
    K[o] = COL(key);
    if (V) V[o] = acc;
    o++;
    k = e;
  }
  while (r < nrows) rowptr[++r] = o;
  *count = o;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__tuples_build(gsp_matrix *A, gsp__tuples *T, gsp_type t, gsp_dup dup, bool drop_loops, const char *what) {
  gsp_info info = GSP_SUCCESS;
  gsp_index *rowptr = NULL, *colidx = NULL;
  void *values = NULL;
#define GSP_FREE_ALL (gsp__tuples_free(T), gsp__free(rowptr), gsp__free(colidx), gsp__free(values))
  gsp_index nrows = T->nrows, ncols = T->ncols;
  GSP_CHECK(nrows <= GSP_INDEX_MAX && ncols <= GSP_INDEX_MAX, GSP_TOO_LARGE,
            "%s: %llu x %llu exceeds the largest matrix (%llu)", what, (unsigned long long)nrows,
            (unsigned long long)ncols, (unsigned long long)GSP_INDEX_MAX);
  if (drop_loops) drop_self_loops(T);
  size_t n = T->n;
  GSP_CALLOC(rowptr, (size_t)nrows + 1, sizeof *rowptr);
  for (size_t k = 0; k < n; k++) rowptr[ROW(T->key[k]) + 1]++;
  for (gsp_index r = 0; r < nrows; r++) rowptr[r + 1] += rowptr[r];
  if (!T->sorted && dup != GSP_DUP_FIRST && dup != GSP_DUP_LAST) sort_keys(T, ncols);
  else if (!T->sorted) GSP_TRY(sort_stable(T, rowptr, nrows, what));
  GSP_TRY(combine_duplicates(T, rowptr, nrows, dup, what, &n));
  /* hand the arrays over, narrowing values to the result type */
  uint64_t *K = T->key;
  gsp__val *V = T->val;
  colidx = gsp__realloc_array(K, n ? n : 1, sizeof *colidx);
  if (!colidx) colidx = K; /* shrinking cannot really fail; keep the block */
  T->key = NULL;
  if (V) {
    GSP_TRY(convert_values(V, T, n, t, what));
    values = gsp__realloc_array(V, n ? n : 1, gsp_type_size(t));
    if (!values) values = V;
    T->val = NULL;
  } else {
    GSP_ALLOC(values, n ? n : 1, gsp_type_size(t));
    for (size_t k = 0; k < n; k++) gsp__cast_value(gsp__at(values, t, (int64_t)k), t, &(int64_t){1}, GSP_INT64);
  }
  GSP_TRY(gsp_matrix_pack_csr(A, t, nrows, ncols, &rowptr, &colidx, &values));
  gsp__tuples_free(T);
#undef GSP_FREE_ALL
  return info;
}
