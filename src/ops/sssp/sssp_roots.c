/*
 * One parallel pass over the result vectors of a single/nearest-source run
 * (see sssp_gather.h). Each thread takes a contiguous slice, so the new
 * pages of a slice are faulted in by the thread that writes them.
 */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

#include "sssp_gather.h"

/* dst = src, bytes of them, with non-temporal stores where the CPU has
 * them: the results are written once into new pages, and plain stores
 * would first read every line they fill (half the memory traffic). */
static void stream_copy(void *dst, const void *src, size_t bytes) {
#if defined(__SSE2__)
  char *d = (char *)dst;
  const char *s = (const char *)src;
  size_t head = (size_t)(-(uintptr_t)d & 15);
  if (head > bytes) head = bytes;
  memcpy(d, s, head);
  d += head, s += head, bytes -= head;
  for (; bytes >= 16; d += 16, s += 16, bytes -= 16)
    _mm_stream_si128((__m128i *)d, _mm_loadu_si128((const __m128i *)s));
  memcpy(d, s, bytes);
#else
  memcpy(dst, src, bytes);
#endif
}

/* pb[i] = (x[i] <= lim) for the len values at x; returns the count. */
static int64_t presence(gsp_type t, const void *lim, const char *x, uint8_t *pb, int64_t len) {
  int64_t c = 0;
#define GSP_PRESENT_(ct)                                \
  {                                                     \
    const ct l = *(const ct *)lim, *xv = (const ct *)x; \
    for (int64_t i = 0; i < len; i++) {                 \
      const uint8_t r = xv[i] <= l;                     \
      pb[i] = r;                                        \
      c += r;                                           \
    }                                                   \
  }
  switch (t) {
  case GSP_INT32:
    GSP_PRESENT_(int32_t) break;
  case GSP_INT64:
    GSP_PRESENT_(int64_t) break;
  case GSP_FP32:
    GSP_PRESENT_(float) break;
  case GSP_FP64:
    GSP_PRESENT_(double) break;
  default:
    break;
  }
#undef GSP_PRESENT_
  return c;
}

/* Cells a thread handles at a time: its presence and widened parents are
 * built in small buffers (in L1) and streamed out. */
#define GATHER_BLOCK 1024

int64_t gsp__sssp_gather(const gsp__sssp_sink *s, gsp_type t, const void *lim, bool full, int64_t lo, int64_t len,
                         const void *sd, const void *sp, int psize, int nthreads) {
  if (len <= 0) return 0;
  const size_t ts = gsp_type_size(t);
  int nt = nthreads > 0 ? nthreads : 1;
  if (len < 32768) nt = 1; /* a parallel region costs more than the work */
  uint8_t *b[3];
  int nb = 0;
  for (int k = 0; k < 3; k++)
    if (s->b[k] && !full) b[nb++] = s->b[k] + lo;
  char *x = (char *)s->dist + (size_t)lo * ts;
  int64_t *par = s->parent && sp ? s->parent + lo : NULL;
  int32_t *par32 = s->parent32 && sp ? s->parent32 + lo : NULL;
  int64_t cnt = 0;
#pragma omp parallel num_threads(nt) reduction(+ : cnt) if (nt > 1)
  {
#ifdef _OPENMP
    const int64_t k = omp_get_thread_num(), nk = omp_get_num_threads();
#else
    const int64_t k = 0, nk = 1;
#endif
    const int64_t a = len * k / nk, e = len * (k + 1) / nk;
    uint8_t pres[GATHER_BLOCK];
    int64_t wide[GATHER_BLOCK];
    for (int64_t i = a; i < e; i += GATHER_BLOCK) {
      const int64_t m = e - i < GATHER_BLOCK ? e - i : GATHER_BLOCK;
      if (sd) stream_copy(x + (size_t)i * ts, (const char *)sd + (size_t)i * ts, (size_t)m * ts);
      if (!full) {
        cnt += presence(t, lim, sd ? (const char *)sd + (size_t)i * ts : x + (size_t)i * ts, pres, m);
        for (int q = 0; q < nb; q++) stream_copy(b[q] + i, pres, (size_t)m);
      }
      if (par && psize == 4) {
        const int32_t *p32 = (const int32_t *)sp + i;
        for (int64_t j = 0; j < m; j++) wide[j] = p32[j];
        stream_copy(par + i, wide, (size_t)m * sizeof *par);
      } else if (par) {
        stream_copy(par + i, (const int64_t *)sp + i, (size_t)m * sizeof *par);
      } else if (par32 && psize == 4) {
        stream_copy(par32 + i, (const int32_t *)sp + i, (size_t)m * sizeof *par32);
      } else if (par32) { /* narrowed: the caller checked n < 2^31 */
        const int64_t *p64 = (const int64_t *)sp + i;
        int32_t *narrow = (int32_t *)wide;
        for (int64_t j = 0; j < m; j++) narrow[j] = (int32_t)p64[j];
        stream_copy(par32 + i, narrow, (size_t)m * sizeof *par32);
      }
    }
#if defined(__SSE2__)
    _mm_sfence(); /* the streamed stores are visible before the region ends */
#endif
  }
  return full ? len : cnt;
}

void gsp__sssp_touch(const gsp__sssp_sink *s, gsp_type t, int64_t n, int nthreads) {
  if (n <= 0) return;
  const size_t page = 4096;
  char *arr[7] = {(char *)s->dist, (char *)s->parent, (char *)s->parent32, (char *)s->root};
  size_t bytes[7] = {(size_t)n * gsp_type_size(t), (size_t)n * 8, (size_t)n * 4, (size_t)n * 8};
  /* presence arrays last; any array NULL is skipped */
  int na = 4;
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

void gsp__sssp_present_all(uint8_t *b, int64_t n, int nthreads) {
  const int64_t chunk = (int64_t)1 << 22, nc = (n + chunk - 1) / chunk;
  const int nt = nc > 1 && nthreads > 1 ? nthreads : 1;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (int64_t k = 0; k < nc; k++) memset(b + k * chunk, 1, (size_t)(n - k * chunk < chunk ? n - k * chunk : chunk));
}

gsp_info gsp__sssp_roots(int64_t *root, const int64_t *parent, int64_t n) {
  gsp_info info = GSP_SUCCESS;
  int64_t *path = NULL;
#define GSP_FREE_ALL gsp__free(path)
  GSP_ALLOC(path, n > 0 ? n : 1, sizeof *path);
  for (int64_t v = 0; v < n; v++) root[v] = parent[v] < 0 ? -1 : -2; /* -2: not known yet */
  for (int64_t v = 0; v < n; v++) {
    if (root[v] != -2) continue;
    int64_t len = 0, x = v;
    while (root[x] == -2 && parent[x] != x) {
      GSP_CHECK(len < n, GSP_PANIC, "shortest-path tree: the parents of vertex %lld form a cycle", (long long)v);
      path[len++] = x;
      x = parent[x];
    }
    if (root[x] == -2) root[x] = x; /* a source */
    const int64_t r = root[x];
    while (len > 0) root[path[--len]] = r;
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
