/* Streaming input over plain or gzip files (gzread passes plain files
 * through), one line at a time, so no reader ever holds the whole text. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io_internal.h"

#define READ_CHUNK ((size_t)1 << 20)
#define MAX_LINE ((size_t)1 << 26) /* longer lines are not a graph file */

gsp_info gsp__reader_open(gsp__reader *r, const char *path,
                          void (*progress)(double, void *), void *ctx) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL gsp__reader_close(r)
  memset(r, 0, sizeof *r);
  r->path = path;
  r->progress = progress;
  r->progress_ctx = ctx;
  struct stat st;
  errno = 0;
  GSP_CHECK(stat(path, &st) == 0, GSP_IO_ERROR, "%s: cannot open: %s", path,
            strerror(errno));
  GSP_CHECK(!S_ISDIR(st.st_mode), GSP_IO_ERROR, "%s: is a directory", path);
  r->file_size = S_ISREG(st.st_mode) ? (int64_t)st.st_size : 0;
  errno = 0;
  r->gz = gzopen(path, "rb");
  GSP_CHECK(r->gz != NULL, GSP_IO_ERROR, "%s: cannot open: %s", path,
            errno ? strerror(errno) : "out of memory");
  gzbuffer(r->gz, 1u << 18);
  r->cap = READ_CHUNK + 1;
  r->buf = gsp__malloc(r->cap);
  GSP_CHECK(r->buf != NULL, GSP_OUT_OF_MEMORY, "%s: cannot allocate a buffer",
            path);
  r->next_report = 4 << 20;
#undef GSP_FREE_ALL
  return info;
}

void gsp__reader_close(gsp__reader *r) {
  if (r->gz) gzclose(r->gz);
  r->gz = NULL;
  GSP_FREE(r->buf);
  if (r->progress && r->file_size > 0) r->progress(1.0, r->progress_ctx);
  r->progress = NULL;
}

/* Append up to READ_CHUNK more bytes after the held ones. */
static gsp_info fill(gsp__reader *r) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  if (r->pos > 0) { /* drop consumed lines first */
    memmove(r->buf, r->buf + r->pos, r->len - r->pos);
    r->len -= r->pos;
    r->pos = 0;
  }
  if (r->cap - 1 - r->len < READ_CHUNK / 2) {
    GSP_CHECK(r->cap < MAX_LINE, GSP_PARSE_ERROR,
              "%s line %lld: line longer than %zu bytes (not a text graph "
              "file?)",
              r->path, (long long)r->lineno + 1, MAX_LINE);
    char *nb = gsp__realloc_array(r->buf, r->cap * 2, 1);
    GSP_CHECK(nb != NULL, GSP_OUT_OF_MEMORY, "%s: cannot grow the buffer",
              r->path);
    r->buf = nb;
    r->cap *= 2;
  }
  size_t want = r->cap - 1 - r->len;
  if (want > (size_t)INT32_MAX) want = (size_t)INT32_MAX;
  int got = gzread(r->gz, r->buf + r->len, (unsigned)want);
  if (got < 0) {
    int zerr;
    const char *msg = gzerror(r->gz, &zerr);
    return GSP_ERROR(zerr == Z_ERRNO ? GSP_IO_ERROR : GSP_PARSE_ERROR,
                     "%s: read error near line %lld: %s", r->path,
                     (long long)r->lineno + 1,
                     zerr == Z_ERRNO ? strerror(errno) : msg);
  }
  if (got == 0) {
    /* a truncated gzip stream reads as a short file without error from
     * gzread; gzerror reports it */
    int zerr = Z_OK;
    const char *msg = gzerror(r->gz, &zerr);
    GSP_CHECK(zerr == Z_OK || zerr == Z_STREAM_END, GSP_PARSE_ERROR,
              "%s: corrupt or truncated gzip data near line %lld: %s",
              r->path, (long long)r->lineno + 1, msg);
    r->eof = true;
  }
  r->len += (size_t)got;
  if (r->progress && r->file_size > 0) {
    int64_t off = (int64_t)gzoffset(r->gz);
    if (off >= r->next_report) {
      r->next_report = off + (4 << 20);
      r->progress((double)off / (double)r->file_size, r->progress_ctx);
    }
  }
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__reader_line(gsp__reader *r, char **line, char **end) {
  for (;;) {
    char *start = r->buf + r->pos;
    char *nl = memchr(start, '\n', r->len - r->pos);
    if (nl || (r->eof && r->pos < r->len)) {
      char *e = nl ? nl : r->buf + r->len; /* last line without newline */
      r->pos = nl ? (size_t)(nl - r->buf) + 1 : r->len;
      if (e > start && e[-1] == '\r') e--; /* CRLF */
      r->lineno++;
      /* a NUL would end the parsers' view of the line early */
      if (memchr(start, '\0', (size_t)(e - start)))
        return gsp__parse_error(r, "NUL byte in the line (a binary file?)");
      *e = '\0';
      *line = start;
      *end = e;
      return GSP_SUCCESS;
    }
    if (r->eof) {
      *line = *end = NULL;
      return GSP_SUCCESS;
    }
    gsp_info info = fill(r);
    if (info < 0) return info;
  }
}

gsp_info gsp__reader_bytes(gsp__reader *r, void *dst, size_t n, size_t *got) {
  char *out = dst;
  size_t have = r->len - r->pos, take = have < n ? have : n;
  memcpy(out, r->buf + r->pos, take);
  r->pos += take;
  *got = take;
  while (*got < n) {
    size_t want = n - *got;
    if (want > (size_t)1 << 30) want = (size_t)1 << 30;
    int g = gzread(r->gz, out + *got, (unsigned)want);
    if (g < 0) {
      int zerr;
      const char *msg = gzerror(r->gz, &zerr);
      return GSP_ERROR(zerr == Z_ERRNO ? GSP_IO_ERROR : GSP_PARSE_ERROR,
                       "%s: read error: %s", r->path,
                       zerr == Z_ERRNO ? strerror(errno) : msg);
    }
    if (g == 0) {
      int zerr = Z_OK;
      const char *msg = gzerror(r->gz, &zerr);
      if (zerr != Z_OK && zerr != Z_STREAM_END)
        return GSP_ERROR(GSP_PARSE_ERROR, "%s: corrupt or truncated gzip data: %s",
                         r->path, msg);
      break;
    }
    *got += (size_t)g;
    if (r->progress && r->file_size > 0) {
      int64_t off = (int64_t)gzoffset(r->gz);
      if (off >= r->next_report) {
        r->next_report = off + (16 << 20);
        r->progress((double)off / (double)r->file_size, r->progress_ctx);
      }
    }
  }
  return GSP_SUCCESS;
}

gsp_info gsp__parse_error(const gsp__reader *r, const char *fmt, ...) {
  char msg[320];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return GSP_ERROR(GSP_PARSE_ERROR, "%s line %lld: %s", r->path,
                   (long long)r->lineno, msg);
}
