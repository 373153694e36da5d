/* Buffered output over plain or gzip files: the formatting primitives the
 * writers share (integers, round-trip reals) and the flush that reports a
 * failed write once, at close. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io_internal.h"

#define WRITE_BUF ((size_t)1 << 20)

gsp_info gsp__writer_open(gsp__writer *w, gsp__ofile *out, bool gzip) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL gsp__writer_abort(w)
  memset(w, 0, sizeof *w);
  w->path = out->shown;
  w->cap = WRITE_BUF;
  GSP_ALLOC(w->buf, w->cap + 64, 1);
  if (gzip) {
    /* level 1: large outputs are written far faster for a few % in size;
     * gzclose closes the duplicate, the output file keeps its descriptor */
    errno = 0;
    int fd = dup(out->fd);
    GSP_CHECK(fd >= 0, GSP_IO_ERROR, "%s: cannot write: %s", w->path, strerror(errno));
    w->gz = gzdopen(fd, "wb1");
    if (!w->gz) close(fd);
    GSP_CHECK(w->gz != NULL, GSP_IO_ERROR, "%s: cannot write: out of memory", w->path);
  } else {
    GSP_TRY(gsp__ofile_stream(out, &w->f));
  }
#undef GSP_FREE_ALL
  return info;
}

static void flush(gsp__writer *w) {
  if (w->len == 0 || w->failed) {
    w->len = 0;
    return;
  }
  if (w->gz) {
    if (gzwrite(w->gz, w->buf, (unsigned)w->len) != (int)w->len) w->failed = true;
  } else if (fwrite(w->buf, 1, w->len, w->f) != w->len) {
    w->failed = true;
  }
  w->len = 0;
}

void gsp__writer_put(gsp__writer *w, const void *data, size_t n) {
  const char *s = data;
  while (n > 0) {
    if (w->len == w->cap) flush(w);
    size_t take = w->cap - w->len < n ? w->cap - w->len : n;
    memcpy(w->buf + w->len, s, take);
    w->len += take;
    s += take;
    n -= take;
  }
}

void gsp__writer_printf(gsp__writer *w, const char *fmt, ...) {
  char tmp[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  gsp__writer_put(w, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

void gsp__writer_uint(gsp__writer *w, uint64_t v) {
  if (w->cap - w->len < 24) flush(w);
  char tmp[24];
  int k = 0;
  do {
    tmp[k++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (k) w->buf[w->len++] = tmp[--k];
}

void gsp__writer_int(gsp__writer *w, int64_t v) {
  if (v < 0) {
    gsp__writer_put(w, "-", 1);
    gsp__writer_uint(w, (uint64_t)0 - (uint64_t)v);
  } else {
    gsp__writer_uint(w, (uint64_t)v);
  }
}

/* A real v (single: an FP32 value) as an integer when it is one, else in
 * the shorter of two precisions that reads back to the same value. */
static void put_real(gsp__writer *w, double v, bool single) {
  const double big = single ? (double)1e15f : 1e15;
  if (v > -big && v < big && v == (double)(int64_t)v) {
    gsp__writer_int(w, (int64_t)v);
    return;
  }
  char tmp[40];
  snprintf(tmp, sizeof tmp, "%.*g", single ? 7 : 15, v);
  if ((single ? (double)strtof(tmp, NULL) : strtod(tmp, NULL)) != v)
    snprintf(tmp, sizeof tmp, "%.*g", single ? 9 : 17, v);
  gsp__writer_put(w, tmp, strlen(tmp));
}

void gsp__writer_value(gsp__writer *w, gsp_type t, const void *x) {
  switch (t) {
  case GSP_BOOL:
    gsp__writer_put(w, *(const bool *)x ? "1" : "0", 1);
    return;
  case GSP_INT32:
    gsp__writer_int(w, *(const int32_t *)x);
    return;
  case GSP_INT64:
    gsp__writer_int(w, *(const int64_t *)x);
    return;
  case GSP_FP32:
    put_real(w, *(const float *)x, true);
    return;
  case GSP_FP64:
    put_real(w, *(const double *)x, false);
    return;
  }
}

gsp_info gsp__writer_close(gsp__writer *w) {
  flush(w);
  bool ok = !w->failed;
  int saved = errno;
  if (w->gz) ok &= gzclose(w->gz) == Z_OK;
  if (w->f) ok &= fflush(w->f) == 0 && !ferror(w->f); /* the output file closes it */
  w->gz = NULL;
  w->f = NULL;
  GSP_FREE(w->buf);
  if (!ok)
    return GSP_ERROR(GSP_IO_ERROR, "%s: write failed: %s", w->path, strerror(errno ? errno : saved ? saved : EIO));
  return GSP_SUCCESS;
}

void gsp__writer_abort(gsp__writer *w) {
  if (w->gz) gzclose(w->gz);
  w->gz = NULL;
  w->f = NULL;
  GSP_FREE(w->buf);
}
