/*
 * One parallel pass over the result vectors of a single/nearest-source run
 * (see sssp_gather.h). Each thread takes a contiguous slice, so the new
 * pages of a slice are faulted in by the thread that writes them.
 */
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "sssp_gather.h"

/* Distances of [a, e) (from xs, or in place when xs is NULL) and their
 * presence into pb (may be NULL); returns the count present. */
static int64_t dist_slice(gsp_type t, const void *lim, char *x, const char *xs, uint8_t *pb, int64_t a,
                          int64_t e) {
  int64_t c = 0;
#define GSP_GATHER_(ct)                                                        \
  {                                                                            \
    const ct l = *(const ct *)lim;                                             \
    ct *xd = (ct *)x;                                                          \
    if (xs) {                                                                  \
      const ct *xv = (const ct *)xs;                                           \
      for (int64_t i = a; i < e; i++) {                                        \
        const ct val = xv[i];                                                  \
        const uint8_t r = val <= l;                                            \
        xd[i] = val;                                                           \
        pb[i] = r;                                                             \
        c += r;                                                                \
      }                                                                        \
    } else {                                                                   \
      for (int64_t i = a; i < e; i++) {                                        \
        const uint8_t r = xd[i] <= l;                                          \
        pb[i] = r;                                                             \
        c += r;                                                                \
      }                                                                        \
    }                                                                          \
  }
  switch (t) {
  case GSP_INT32: GSP_GATHER_(int32_t) break;
  case GSP_INT64: GSP_GATHER_(int64_t) break;
  case GSP_FP32: GSP_GATHER_(float) break;
  case GSP_FP64: GSP_GATHER_(double) break;
  default: break;
  }
#undef GSP_GATHER_
  return c;
}

int64_t gsp__sssp_gather(const gsp__sssp_sink *s, gsp_type t, const void *lim, bool full, int64_t lo,
                         int64_t len, const void *sd, const void *sp, int psize, int nthreads) {
  if (len <= 0) return 0;
  const size_t ts = gsp_type_size(t);
  int nt = nthreads > 0 ? nthreads : 1;
  if (len < 32768) nt = 1; /* a parallel region costs more than the work */
  uint8_t *b[3];
  int nb = 0;
  for (int k = 0; k < 3; k++)
    if (s->b[k]) b[nb++] = s->b[k] + lo;
  char *x = (char *)s->dist + (size_t)lo * ts;
  int64_t *par = s->parent ? s->parent + lo : NULL;
  int64_t cnt = 0;
#pragma omp parallel num_threads(nt) reduction(+ : cnt) if (nt > 1)
  {
#ifdef _OPENMP
    const int64_t k = omp_get_thread_num(), nk = omp_get_num_threads();
#else
    const int64_t k = 0, nk = 1;
#endif
    const int64_t a = len * k / nk, e = len * (k + 1) / nk;
    if (full) {
      if (sd) memcpy(x + (size_t)a * ts, (const char *)sd + (size_t)a * ts, (size_t)(e - a) * ts);
    } else if (nb > 0) {
      /* distances and the first presence array in one sweep, the others
       * copied from it while its slice is in cache */
      cnt += dist_slice(t, lim, x, (const char *)sd, b[0], a, e);
      for (int q = 1; q < nb; q++) memcpy(b[q] + a, b[0] + a, (size_t)(e - a));
    } else {
      if (sd) memcpy(x + (size_t)a * ts, (const char *)sd + (size_t)a * ts, (size_t)(e - a) * ts);
    }
    if (sp && par) {
      if (psize == 4) {
        const int32_t *p32 = (const int32_t *)sp;
        for (int64_t i = a; i < e; i++) par[i] = p32[i];
      } else {
        memcpy(par + a, (const int64_t *)sp + a, (size_t)(e - a) * sizeof *par);
      }
    }
  }
  return full ? len : cnt;
}

void gsp__sssp_touch(const gsp__sssp_sink *s, gsp_type t, int64_t n, int nthreads) {
  if (n <= 0) return;
  const size_t page = 4096;
  char *arr[6] = {(char *)s->dist, (char *)s->parent, (char *)s->root, NULL, NULL, NULL};
  size_t bytes[6] = {(size_t)n * gsp_type_size(t), (size_t)n * 8, (size_t)n * 8, 0, 0, 0};
  /* presence arrays last; any array NULL is skipped */
  int na = 3;
  for (int k = 0; k < 3; k++)
    if (s->b[k]) arr[na] = (char *)s->b[k], bytes[na] = (size_t)n, na++;
  for (int q = 0; q < na; q++) {
    char *p = arr[q];
    if (!p) continue;
    const int64_t np = (int64_t)((bytes[q] + page - 1) / page);
    const int nt = np >= 64 && nthreads > 1 ? nthreads : 1;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (int64_t i = 0; i < np; i++) ((volatile char *)p)[(size_t)i * page] = 0;
    ((volatile char *)p)[bytes[q] - 1] = 0; /* the last page, when p is not page-aligned */
  }
}
