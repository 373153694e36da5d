/*
 * The last pass of gsp_sssp and gsp_nearest_source over their new result
 * vectors (and of gsp_msssp's rows on the GPU): one parallel pass that
 * writes the distances (from a staging buffer, or already in place), widens
 * the parents, writes every presence array and counts, so nothing scans the
 * results again. Plain C, included by the CUDA launchers as well (they call
 * it per staged chunk or batch).
 */
#ifndef SSSP_GATHER_H
#define SSSP_GATHER_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "gsp_host.h"

/* SSE2 streaming stores in the host code of either compiler */
#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
#define GSP__GATHER_SSE2 1
#include <emmintrin.h>
#else
#define GSP__GATHER_SSE2 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Host arrays of n entries that a run fills (new vectors' storage, maybe
 * fresh pages). */
typedef struct gsp__sssp_sink {
  void *dist;        /* distances, the graph's type */
  int64_t *parent;   /* parents (-1 where unreached), or NULL */
  int64_t *root;     /* nearest sources (-1 where unreached), or NULL */
  uint8_t *b[3];     /* presence to write (NULL: none): of dist, parent, root */
  int32_t *parent32; /* instead of parent: the parents as int32 (n < 2^31) */
} gsp__sssp_sink;

/* The passes below are defined here, inline, so the plugin compiles its own
 * copy from this one definition and calls nothing back; they run on the
 * library's thread team (gsp__team), slices of contiguous cells, so the new
 * pages of a slice are faulted in by the thread that writes them. */

/* dst = src, bytes of them, with non-temporal stores where the CPU has
 * them: the results are written once into new pages, and plain stores
 * would first read every line they fill (half the memory traffic). */
static inline void gsp__gather_stream(void *dst, const void *src, size_t bytes) {
#if GSP__GATHER_SSE2
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
static inline int64_t gsp__gather_presence(gsp_type t, const void *lim, const char *x, uint8_t *pb, int64_t len) {
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
#define GSP__GATHER_BLOCK 1024
/* Team members with a count slot of their own. */
#define GSP__GATHER_TEAM 256

typedef struct {
  gsp_type t;
  size_t ts;
  const void *lim, *sd, *sp;
  bool full;
  int psize, nb;
  int64_t len;
  uint8_t *b[3];
  char *x;
  int64_t *par;
  int32_t *par32;
  int64_t cnt[GSP__GATHER_TEAM];
} gsp__gather_job;

static inline void gsp__gather_slice(void *ctx, int k, int nk) {
  gsp__gather_job *g = (gsp__gather_job *)ctx;
  const size_t ts = g->ts;
  const int64_t a = g->len * k / nk, e = g->len * (k + 1) / nk;
  uint8_t pres[GSP__GATHER_BLOCK];
  int64_t wide[GSP__GATHER_BLOCK], cnt = 0;
  for (int64_t i = a; i < e; i += GSP__GATHER_BLOCK) {
    const int64_t m = e - i < GSP__GATHER_BLOCK ? e - i : GSP__GATHER_BLOCK;
    if (g->sd) gsp__gather_stream(g->x + (size_t)i * ts, (const char *)g->sd + (size_t)i * ts, (size_t)m * ts);
    if (!g->full) {
      const char *v = g->sd ? (const char *)g->sd + (size_t)i * ts : g->x + (size_t)i * ts;
      cnt += gsp__gather_presence(g->t, g->lim, v, pres, m);
      for (int q = 0; q < g->nb; q++) gsp__gather_stream(g->b[q] + i, pres, (size_t)m);
    }
    if (g->par && g->psize == 4) {
      const int32_t *p32 = (const int32_t *)g->sp + i;
      for (int64_t j = 0; j < m; j++) wide[j] = p32[j];
      gsp__gather_stream(g->par + i, wide, (size_t)m * sizeof *g->par);
    } else if (g->par) {
      gsp__gather_stream(g->par + i, (const int64_t *)g->sp + i, (size_t)m * sizeof *g->par);
    } else if (g->par32 && g->psize == 4) {
      gsp__gather_stream(g->par32 + i, (const int32_t *)g->sp + i, (size_t)m * sizeof *g->par32);
    } else if (g->par32) { /* narrowed: the caller checked n < 2^31 */
      const int64_t *p64 = (const int64_t *)g->sp + i;
      int32_t *narrow = (int32_t *)wide;
      for (int64_t j = 0; j < m; j++) narrow[j] = (int32_t)p64[j];
      gsp__gather_stream(g->par32 + i, narrow, (size_t)m * sizeof *g->par32);
    }
  }
#if GSP__GATHER_SSE2
  _mm_sfence(); /* the streamed stores are visible before the team ends */
#endif
  g->cnt[k] = cnt;
}

/*
 * Vertices [lo, lo + len): dist[v] = sd[v - lo] (sd NULL: dist already
 * holds them), parent[v] or parent32[v] = sp[v - lo] (sp NULL: none; int32
 * when psize is 4, int64 when 8), and unless `full` every b[k][v] = (dist[v] <= *lim)
 * for the b[k] that are not NULL, lim one value of t. Returns how many of
 * them are present (len when full; counted also when no b[k] is given).
 * Runs on up to nthreads threads.
 */
static inline int64_t gsp__sssp_gather(const gsp__sssp_sink *s, gsp_type t, const void *lim, bool full, int64_t lo,
                                       int64_t len, const void *sd, const void *sp, int psize, int nthreads) {
  if (len <= 0) return 0;
  gsp__gather_job g;
  memset(&g, 0, sizeof g);
  g.t = t, g.ts = gsp_type_size(t), g.lim = lim, g.full = full, g.len = len, g.sd = sd, g.sp = sp, g.psize = psize;
  for (int k = 0; k < 3; k++)
    if (s->b[k] && !full) g.b[g.nb++] = s->b[k] + lo;
  g.x = (char *)s->dist + (size_t)lo * g.ts;
  g.par = s->parent && sp ? s->parent + lo : NULL;
  g.par32 = s->parent32 && sp ? s->parent32 + lo : NULL;
  int nt = nthreads > 0 ? nthreads : 1;
  if (nt > GSP__GATHER_TEAM) nt = GSP__GATHER_TEAM;
  if (len < 32768) nt = 1; /* a team costs more than the work */
  if (nt == 1) gsp__gather_slice(&g, 0, 1);
  else gsp__team(nt, gsp__gather_slice, &g);
  int64_t cnt = 0;
  for (int k = 0; k < nt; k++) cnt += g.cnt[k];
  return full ? len : cnt;
}

typedef struct {
  char *p;
  int64_t pages;       /* touch: 4 KiB pages */
  size_t bytes, chunk; /* ones: bytes set, in chunks of `chunk` */
} gsp__gather_fill;

/* one byte of each 4 KiB page of the team member's share */
static inline void gsp__gather_touch_slice(void *ctx, int k, int nk) {
  const gsp__gather_fill *f = (const gsp__gather_fill *)ctx;
  for (int64_t i = f->pages * k / nk; i < f->pages * (k + 1) / nk; i++) ((volatile char *)f->p)[(size_t)i * 4096] = 0;
}

/* Write one byte of every 4 KiB page of the n-entry arrays of s, so that
 * new pages are mapped by nthreads threads at once; the gateway calls it
 * while the device computes. The bytes written are overwritten later. */
static inline void gsp__sssp_touch(const gsp__sssp_sink *s, gsp_type t, int64_t n, int nthreads) {
  if (n <= 0) return;
  char *arr[7] = {(char *)s->dist, (char *)s->parent, (char *)s->parent32, (char *)s->root};
  size_t bytes[7] = {(size_t)n * gsp_type_size(t), (size_t)n * 8, (size_t)n * 4, (size_t)n * 8};
  /* presence arrays last; any array NULL is skipped */
  int na = 4;
  for (int k = 0; k < 3; k++)
    if (s->b[k]) arr[na] = (char *)s->b[k], bytes[na] = (size_t)n, na++;
  for (int q = 0; q < na; q++) {
    if (!arr[q]) continue;
    gsp__gather_fill f = {arr[q], (int64_t)((bytes[q] + 4095) / 4096), 0, 0};
    if (f.pages >= 64 && nthreads > 1) gsp__team(nthreads, gsp__gather_touch_slice, &f);
    else gsp__gather_touch_slice(&f, 0, 1);
    ((volatile char *)arr[q])[bytes[q] - 1] = 0; /* the last page, when the array is not page-aligned */
  }
}

/* chunks of 4 MiB set to one, the team member's share of them */
static inline void gsp__gather_ones_slice(void *ctx, int k, int nk) {
  const gsp__gather_fill *f = (const gsp__gather_fill *)ctx;
  const int64_t nc = (int64_t)((f->bytes + f->chunk - 1) / f->chunk);
  for (int64_t c = nc * k / nk; c < nc * (k + 1) / nk; c++) {
    const size_t at = (size_t)c * f->chunk;
    memset(f->p + at, 1, f->bytes - at < f->chunk ? f->bytes - at : f->chunk);
  }
}

/* b[0, n) = 1 (every cell present), on up to nthreads threads. */
static inline void gsp__sssp_present_all(uint8_t *b, int64_t n, int nthreads) {
  if (n <= 0) return;
  gsp__gather_fill f = {(char *)b, 0, (size_t)n, (size_t)1 << 22};
  if ((size_t)n > f.chunk && nthreads > 1) gsp__team(nthreads, gsp__gather_ones_slice, &f);
  else gsp__gather_ones_slice(&f, 0, 1);
}

#ifdef __cplusplus
}
#endif
#endif /* SSSP_GATHER_H */
