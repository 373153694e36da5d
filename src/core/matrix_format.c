/* Storage formats of a matrix and the conversions between them. Each
 * conversion builds the new storage completely before releasing the old, so
 * a failure leaves the matrix as it was. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise (huge pages for fresh n^2 arrays) */
#endif
#include <pthread.h>
#include <string.h>

#include "bits_pack.h"
#include "dense_pass.h"
#include "gsp_internal.h"

/* Serializes the one-time work that read-only calls do on a shared input
 * (the download of a device-only matrix, the build of a CSR copy). Each
 * happens once per version of a matrix, so one process-wide lock costs
 * little and cannot deadlock. */
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;

gsp_info gsp__download_shared(bool *dev_only, struct gsp_matrix_s *A, struct gsp_vector_s *v) {
  if (!__atomic_load_n(dev_only, __ATOMIC_ACQUIRE)) return GSP_SUCCESS;
  pthread_mutex_lock(&shared_lock);
  gsp_info info = !*dev_only ? GSP_SUCCESS : A ? gsp__matrix_download(A) : gsp__vector_download(v);
  if (info >= 0) __atomic_store_n(dev_only, false, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&shared_lock);
  return info;
}

gsp_info gsp__matrix_host(struct gsp_matrix_s *A) {
  return gsp__download_shared(&A->dev_only, A, NULL);
}

void gsp__matrix_drop_view(struct gsp_matrix_s *A) {
  struct gsp_matrix_s *V = A->csr_view;
  A->csr_view = NULL;
  gsp__matrix_destroy(V);
}

void gsp__matrix_host_changed(struct gsp_matrix_s *A) {
  gsp__matrix_release_device(A);
  A->dev_only = false;
  gsp__matrix_drop_view(A);
}

static bool dense_size(size_t *nn, const struct gsp_matrix_s *A) {
  size_t bytes;
  return gsp__mul_size(nn, (size_t)A->nrows, (size_t)A->ncols) && gsp__mul_size(&bytes, *nn, gsp_type_size(A->type));
}

static inline bool bit_get(const uint64_t *row, int64_t j) {
  return (row[j >> 6] >> (j & 63)) & 1;
}

/* New CSR arrays with the content of A (host-valid, not CSR); A unchanged. */
static gsp_info csr_arrays(gsp_index **pp, gsp_index **jp, void **xp, const struct gsp_matrix_s *A) {
  gsp_info info = GSP_SUCCESS;
  gsp_index *p = NULL, *jj = NULL;
  void *x = NULL;
#define GSP_FREE_ALL (gsp__free(p), gsp__free(jj), gsp__free(x))
  const int64_t n = A->nrows, m = A->ncols;
  const size_t ts = gsp_type_size(A->type);
  const bool dense = A->fmt == GSP_FMT_DENSE;
  GSP_ALLOC(p, (size_t)n + 1, sizeof(gsp_index));
  GSP_ALLOC(jj, (size_t)A->nvals, sizeof(gsp_index));
  GSP_ALLOC(x, (size_t)A->nvals, ts);
  gsp__pass_huge(jj, (size_t)A->nvals * sizeof(gsp_index));
  gsp__pass_huge(x, (size_t)A->nvals * ts);
  const int nt = gsp__pass_threads((size_t)n * (size_t)m);
  /* entries per row (p[i + 1]), then their prefix sum, then the fill */
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (int64_t i = 0; i < n; i++) {
    gsp_index c = 0;
    if (dense) {
      if (!A->b) c = (gsp_index)m;
      else
        for (int64_t j = 0; j < m; j++) c += A->b[(size_t)i * (size_t)m + (size_t)j];
    } else {
      const uint64_t *row = A->bits + (size_t)i * (size_t)A->wpr;
      for (int64_t w = 0; w < A->wpr; w++) c += (gsp_index)__builtin_popcountll(row[w]);
    }
    p[i + 1] = c;
  }
  p[0] = 0;
  for (int64_t i = 0; i < n; i++) p[i + 1] += p[i];
  GSP_CHECK(p[n] == (gsp_index)A->nvals, GSP_PANIC, "matrix entry count %lld disagrees with storage (%llu)",
            (long long)A->nvals, (unsigned long long)p[n]);
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (int64_t i = 0; i < n; i++) {
    gsp_index k = p[i];
    for (int64_t j = 0; j < m; j++) {
      const size_t at = (size_t)i * (size_t)m + (size_t)j;
      bool present;
      if (dense) {
        present = !A->b || A->b[at];
        if (present) memcpy((char *)x + (size_t)k * ts, (const char *)A->x + at * ts, ts);
      } else {
        present = bit_get(A->bits + (size_t)i * (size_t)A->wpr, j);
        if (present) ((bool *)x)[k] = true;
      }
      if (present) jj[k++] = (gsp_index)j;
    }
  }
  *pp = p, *jp = jj, *xp = x;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__matrix_to_csr(struct gsp_matrix_s *A) {
  gsp_info info = GSP_SUCCESS;
  gsp_index *p = NULL, *jj = NULL;
  void *x = NULL;
#define GSP_FREE_ALL
  GSP_TRY(gsp__matrix_host(A));
  if (A->fmt == GSP_FMT_CSR) return GSP_SUCCESS;
  GSP_TRY(csr_arrays(&p, &jj, &x, A));
  gsp__matrix_set_storage(A, GSP_FMT_CSR, p, jj, x, NULL, NULL, 0, A->nvals);
  return info;
}

gsp_info gsp__matrix_csr_view(struct gsp_matrix_s **V, struct gsp_matrix_s *A) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *C = NULL;
  GSP_TRY(gsp__matrix_host(A));
  if (A->fmt == GSP_FMT_CSR) {
    *V = A;
    return GSP_SUCCESS;
  }
  C = __atomic_load_n(&A->csr_view, __ATOMIC_ACQUIRE);
  if (!C) {
    pthread_mutex_lock(&shared_lock);
#undef GSP_FREE_ALL
#define GSP_FREE_ALL (pthread_mutex_unlock(&shared_lock), gsp__matrix_destroy(C))
    if (!(C = A->csr_view)) { /* the first reader builds it, the others wait for it */
      GSP_TRY(gsp__matrix_alloc_dense(&C, A->type, A->nrows, A->ncols));
      GSP_TRY(csr_arrays(&C->p, &C->j, &C->x, A));
      C->fmt = GSP_FMT_CSR;
      C->nvals = A->nvals;
      __atomic_store_n(&A->csr_view, C, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&shared_lock);
  }
  *V = C;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__matrix_to_dense(struct gsp_matrix_s *A) {
  gsp_info info = GSP_SUCCESS;
  void *x = NULL;
  uint8_t *b = NULL;
#define GSP_FREE_ALL (gsp__free(x), gsp__free(b))
  GSP_TRY(gsp__matrix_host(A));
  if (A->fmt == GSP_FMT_DENSE) return GSP_SUCCESS;
  size_t nn;
  GSP_CHECK(dense_size(&nn, A), GSP_TOO_LARGE, "a dense %lld x %lld matrix overflows memory sizes", (long long)A->nrows,
            (long long)A->ncols);
  size_t ts = gsp_type_size(A->type);
  bool full = (size_t)A->nvals == nn;
  GSP_CALLOC(x, nn, ts);
  if (!full) GSP_CALLOC(b, nn, 1);
  gsp__pass_huge(x, nn * ts);
  gsp__pass_huge(b, nn);
  const int64_t n = A->nrows, m = A->ncols;
  const int nt = gsp__pass_threads(nn);
  /* rows in parallel (calloc's pages are first touched by the thread that
   * fills them) */
  if (A->fmt == GSP_FMT_CSR) {
#pragma omp parallel for num_threads(nt) schedule(dynamic, 64) if (nt > 1)
    for (int64_t i = 0; i < n; i++)
      for (gsp_index k = A->p[i]; k < A->p[i + 1]; k++) {
        const size_t at = (size_t)i * (size_t)m + A->j[k];
        memcpy((char *)x + at * ts, (const char *)A->x + (size_t)k * ts, ts);
        if (b) b[at] = 1;
      }
  } else {
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t i = 0; i < n; i++) {
      const uint64_t *w = A->bits + (size_t)i * (size_t)A->wpr;
      uint8_t *xr = (uint8_t *)x + (size_t)i * (size_t)m, *br = b ? b + (size_t)i * (size_t)m : NULL;
      for (int64_t j0 = 0; j0 < m; j0 += 64) {
        const uint64_t v = w[j0 >> 6];
        if (!v) continue;
        const int64_t len = m - j0 < 64 ? m - j0 : 64;
        gsp__unpack64(xr + j0, v, len);
        if (br) gsp__unpack64(br + j0, v, len);
      }
    }
  }
  gsp__matrix_set_storage(A, GSP_FMT_DENSE, NULL, NULL, x, b, NULL, 0, A->nvals);
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__matrix_to_bits(struct gsp_matrix_s *A) {
  gsp_info info = GSP_SUCCESS;
  uint64_t *bits = NULL;
#define GSP_FREE_ALL gsp__free(bits)
  GSP_CHECK(A->type == GSP_BOOL, GSP_PANIC, "bit-packed storage is for bool matrices only");
  GSP_TRY(gsp__matrix_host(A));
  if (A->fmt == GSP_FMT_BITS) return GSP_SUCCESS;
  int64_t n = A->nrows, m = A->ncols, wpr = (m + 63) / 64;
  GSP_CALLOC(bits, (size_t)n, (size_t)wpr * sizeof(uint64_t));
  int64_t nvals = 0; /* explicit false entries are dropped: same under OR_AND */
  const int nt = gsp__pass_threads(A->fmt == GSP_FMT_CSR ? (size_t)A->nvals : (size_t)n * (size_t)m);
#pragma omp parallel for num_threads(nt) schedule(static) reduction(+ : nvals) if (nt > 1)
  for (int64_t i = 0; i < n; i++) {
    uint64_t *row = bits + (size_t)i * (size_t)wpr;
    if (A->fmt == GSP_FMT_CSR) {
      for (gsp_index k = A->p[i]; k < A->p[i + 1]; k++)
        if (((const uint8_t *)A->x)[k]) {
          row[A->j[k] >> 6] |= 1ULL << (A->j[k] & 63);
          nvals++;
        }
    } else {
      /* 64 bytes into one word: no branch per entry */
      const uint8_t *xr = (const uint8_t *)A->x + (size_t)i * (size_t)m;
      const uint8_t *br = A->b ? A->b + (size_t)i * (size_t)m : NULL;
      for (int64_t j0 = 0; j0 < m; j0 += 64) {
        const int64_t len = m - j0 < 64 ? m - j0 : 64;
        const uint64_t w = gsp__pack64(xr + j0, br ? br + j0 : NULL, len);
        row[j0 >> 6] = w;
        nvals += __builtin_popcountll(w);
      }
    }
  }
  gsp__matrix_set_storage(A, GSP_FMT_BITS, NULL, NULL, NULL, NULL, bits, wpr, nvals);
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__matrix_to_full(struct gsp_matrix_s *A, const void *fill) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__matrix_to_dense(A));
  if (A->b) {
    const size_t nn = (size_t)A->nrows * (size_t)A->ncols;
    const uint8_t *b = A->b;
    const int nt = gsp__pass_threads(nn);
    switch (A->type) {
#define GSP_FULL_(code, ct)                                                                                         \
  case code: {                                                                                                      \
    ct *x = (ct *)A->x;                                                                                             \
    const ct f = *(const ct *)fill;                                                                                 \
    _Pragma("omp parallel for num_threads(nt) schedule(static) if (nt > 1)") for (size_t k = 0; k < nn; k++) x[k] = \
        b[k] ? x[k] : f;                                                                                            \
  } break;
      GSP_PASS_TYPES(GSP_FULL_)
#undef GSP_FULL_
    }
    GSP_FREE(A->b);
  }
  A->nvals = A->nrows * A->ncols;
  gsp__matrix_host_changed(A);
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__matrix_mark_absent(struct gsp_matrix_s *A, const void *absent) {
  gsp_info info = GSP_SUCCESS;
  uint8_t *b = NULL;
#define GSP_FREE_ALL gsp__free(b)
  GSP_TRY(gsp__matrix_to_dense(A));
  size_t nn = (size_t)A->nrows * (size_t)A->ncols;
  GSP_ALLOC(b, nn, 1);
  gsp__pass_huge(b, nn);
  int64_t nvals = 0;
  const uint8_t *ob = A->b;
  const int nt = gsp__pass_threads(nn);
  switch (A->type) {
#define GSP_MARK_(code, ct)                                                                                           \
  case code: {                                                                                                        \
    const ct *x = (const ct *)A->x, a = *(const ct *)absent;                                                          \
    _Pragma("omp parallel for num_threads(nt) schedule(static) reduction(+ : nvals) if (nt > 1)") for (size_t k = 0;  \
                                                                                                       k < nn; k++) { \
      const uint8_t present = (!ob || ob[k]) && !(x[k] == a);                                                         \
      b[k] = present;                                                                                                 \
      nvals += present;                                                                                               \
    }                                                                                                                 \
  } break;
    GSP_PASS_TYPES(GSP_MARK_)
#undef GSP_MARK_
  }
  if ((size_t)nvals == nn) GSP_FREE(b);
  gsp__free(A->b);
  A->b = b;
  A->nvals = nvals;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__matrix_entry_at(size_t *at, const struct gsp_matrix_s *A, int64_t i, int64_t j) {
  if (A->fmt == GSP_FMT_DENSE) {
    *at = (size_t)i * (size_t)A->ncols + (size_t)j;
    return A->b && !A->b[*at] ? GSP_NO_VALUE : GSP_SUCCESS;
  }
  gsp_index lo = A->p[i], hi = A->p[i + 1];
  while (lo < hi) { /* binary search */
    const gsp_index mid = lo + (hi - lo) / 2;
    if (A->j[mid] < (gsp_index)j) lo = mid + 1;
    else hi = mid;
  }
  if (lo == A->p[i + 1] || A->j[lo] != (gsp_index)j) return GSP_NO_VALUE;
  *at = (size_t)lo;
  return GSP_SUCCESS;
}
