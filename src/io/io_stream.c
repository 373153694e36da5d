/* Streaming input over plain or gzip files, one line at a time, so no
 * reader ever holds the whole text. The input is opened once and read
 * strictly front to back (format detection peeks at the decoded buffer), so
 * pipes, FIFOs and stdin read exactly like regular files. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io_internal.h"

#define READ_CHUNK ((size_t)1 << 20)
#define RAW_CHUNK  ((size_t)1 << 18)
#define MAX_LINE   ((size_t)1 << 26) /* longer lines are not a graph file */

/* Read more raw bytes after the held ones (dropping consumed ones). */
static gsp_info raw_fill(gsp__reader *r) {
  if (r->raw_pos > 0) {
    memmove(r->raw, r->raw + r->raw_pos, r->raw_len - r->raw_pos);
    r->raw_len -= r->raw_pos;
    r->raw_pos = 0;
  }
  if (r->raw_eof || r->raw_len == RAW_CHUNK) return GSP_SUCCESS;
  ssize_t got;
  do {
    got = read(r->fd, r->raw + r->raw_len, RAW_CHUNK - r->raw_len);
  } while (got < 0 && errno == EINTR);
  if (got < 0)
    return GSP_ERROR(GSP_IO_ERROR, "%s: read error near line %lld: %s", r->path, (long long)r->lineno + 1,
                     strerror(errno));
  if (got == 0) r->raw_eof = true;
  r->raw_len += (size_t)got;
  r->raw_read += got;
  if (r->progress && r->file_size > 0 && r->raw_read >= r->next_report) {
    r->next_report = r->raw_read + (4 << 20);
    r->progress((double)r->raw_read / (double)r->file_size, r->progress_ctx);
  }
  return GSP_SUCCESS;
}

/* Decode up to n bytes into dst; *got = 0 only at the end of the input. */
static gsp_info decode(gsp__reader *r, unsigned char *dst, size_t n, size_t *got) {
  *got = 0;
  if (n == 0) return GSP_SUCCESS;
  for (;;) {
    if (r->raw_pos == r->raw_len && !r->gzip && !r->raw_eof && n >= RAW_CHUNK) {
      /* large binary reads go straight to the caller's buffer */
      ssize_t g;
      do {
        g = read(r->fd, dst, n > ((size_t)1 << 30) ? ((size_t)1 << 30) : n);
      } while (g < 0 && errno == EINTR);
      if (g < 0) return GSP_ERROR(GSP_IO_ERROR, "%s: read error: %s", r->path, strerror(errno));
      if (g == 0) {
        r->raw_eof = true;
        break;
      }
      r->raw_read += g;
      *got = (size_t)g;
      if (r->progress && r->file_size > 0 && r->raw_read >= r->next_report) {
        r->next_report = r->raw_read + (4 << 20);
        r->progress((double)r->raw_read / (double)r->file_size, r->progress_ctx);
      }
      break;
    }
    if (r->raw_pos == r->raw_len) {
      if (r->raw_eof) break;
      gsp_info info = raw_fill(r);
      if (info < 0) return info;
      continue;
    }
    if (!r->gzip) {
      size_t take = r->raw_len - r->raw_pos;
      if (take > n) take = n;
      memcpy(dst, r->raw + r->raw_pos, take);
      r->raw_pos += take;
      *got = take;
      break;
    }
    if (r->z_member_end) {
      /* another gzip member may follow; anything else is an error */
      if (r->raw_len - r->raw_pos < 2 && !r->raw_eof) {
        gsp_info info = raw_fill(r);
        if (info < 0) return info;
        continue;
      }
      if (r->raw_len - r->raw_pos < 2 || r->raw[r->raw_pos] != 0x1f || r->raw[r->raw_pos + 1] != 0x8b)
        return GSP_ERROR(GSP_PARSE_ERROR,
                         "%s: unexpected data after the end of the gzip "
                         "stream (%lld bytes into the file)",
                         r->path, (long long)(r->raw_read - (int64_t)(r->raw_len - r->raw_pos)));
      inflateReset(&r->z);
      r->z_member_end = false;
    }
    r->z.next_in = r->raw + r->raw_pos;
    r->z.avail_in = (uInt)(r->raw_len - r->raw_pos);
    r->z.next_out = dst;
    r->z.avail_out = n > (size_t)1 << 30 ? 1u << 30 : (uInt)n;
    int zr = inflate(&r->z, Z_NO_FLUSH);
    r->raw_pos = r->raw_len - r->z.avail_in;
    *got = (size_t)(r->z.next_out - dst);
    if (zr == Z_STREAM_END) r->z_member_end = true;
    else if (zr != Z_OK && zr != Z_BUF_ERROR)
      return GSP_ERROR(GSP_PARSE_ERROR, "%s: corrupt gzip data near line %lld: %s", r->path, (long long)r->lineno + 1,
                       r->z.msg ? r->z.msg : "inflate failed");
    if (*got > 0) break;
  }
  if (*got == 0 && r->gzip && !r->z_member_end)
    return GSP_ERROR(GSP_PARSE_ERROR,
                     "%s: truncated gzip data near line %lld (the "
                     "compressed stream ends early)",
                     r->path, (long long)r->lineno + 1);
  r->decoded += (int64_t)*got;
  return GSP_SUCCESS;
}

gsp_info gsp__reader_open(gsp__reader *r, const char *path, void (*progress)(double, void *), void *ctx) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL gsp__reader_close(r)
  memset(r, 0, sizeof *r);
  r->fd = -1;
  bool is_stdin = strcmp(path, "-") == 0;
  r->path = is_stdin ? "stdin" : path;
  r->progress = progress;
  r->progress_ctx = ctx;
  errno = 0;
  if (is_stdin) {
    r->fd = STDIN_FILENO;
  } else {
    do {
      r->fd = open(path, O_RDONLY | O_CLOEXEC);
    } while (r->fd < 0 && errno == EINTR);
    GSP_CHECK(r->fd >= 0, GSP_IO_ERROR, "%s: cannot open: %s", path, strerror(errno));
    r->own_fd = true;
  }
  struct stat st;
  GSP_CHECK(fstat(r->fd, &st) == 0, GSP_IO_ERROR, "%s: cannot open: %s", r->path, strerror(errno));
  GSP_CHECK(!S_ISDIR(st.st_mode), GSP_IO_ERROR, "%s: is a directory", r->path);
  r->file_size = S_ISREG(st.st_mode) ? (int64_t)st.st_size : 0;
  r->cap = READ_CHUNK + 1;
  r->buf = gsp__malloc(r->cap);
  r->raw = gsp__malloc(RAW_CHUNK);
  GSP_CHECK(r->buf != NULL && r->raw != NULL, GSP_OUT_OF_MEMORY, "%s: cannot allocate a buffer", r->path);
  r->next_report = 4 << 20;
  /* gzip by its magic bytes, whatever the name */
  while (r->raw_len < 2 && !r->raw_eof) GSP_TRY(raw_fill(r));
  if (r->raw_len >= 2 && r->raw[0] == 0x1f && r->raw[1] == 0x8b) {
    r->gzip = true;
    GSP_CHECK(inflateInit2(&r->z, 15 + 16) == Z_OK, GSP_OUT_OF_MEMORY, "%s: cannot start the gzip decoder", r->path);
    r->z_init = true;
  }
#undef GSP_FREE_ALL
  return info;
}

void gsp__reader_close(gsp__reader *r) {
  if (r->z_init) inflateEnd(&r->z);
  r->z_init = false;
  if (r->own_fd && r->fd >= 0) close(r->fd);
  r->fd = -1;
  r->own_fd = false;
  GSP_FREE(r->buf);
  GSP_FREE(r->raw);
  if (r->progress && r->file_size > 0) r->progress(1.0, r->progress_ctx);
  r->progress = NULL;
}

/* Append up to READ_CHUNK more decoded bytes after the held ones. */
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
    GSP_CHECK(nb != NULL, GSP_OUT_OF_MEMORY, "%s: cannot grow the buffer", r->path);
    r->buf = nb;
    r->cap *= 2;
  }
  size_t got;
  GSP_TRY(decode(r, (unsigned char *)r->buf + r->len, r->cap - 1 - r->len, &got));
  if (got == 0) r->eof = true;
  r->len += got;
#undef GSP_FREE_ALL
  return info;
}

/* An error of the input itself: recorded so that it wins over "empty". */
static gsp_info input_failed(gsp__reader *r, gsp_info info) {
  if (info < 0) r->failed = true;
  return info;
}

gsp_info gsp__reader_peek(gsp__reader *r, size_t n) {
  while (r->len - r->pos < n && !r->eof) {
    gsp_info info = fill(r);
    if (info < 0) return input_failed(r, info);
  }
  return GSP_SUCCESS;
}

/* What the first line's bytes say about an encoding the readers do not
 * take; NULL when nothing. A BOM is invisible in a message, so it is named. */
static const char *encoding_problem(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  if (n >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf)
    return "the file starts with a UTF-8 byte order mark (bytes EF BB BF); save it without one";
  if (n >= 2 && ((u[0] == 0xff && u[1] == 0xfe) || (u[0] == 0xfe && u[1] == 0xff)))
    return "the file is UTF-16 text (byte order mark FF FE or FE FF); convert it to UTF-8 or ASCII";
  if (n >= 2 && (u[0] == 0 || u[1] == 0) && u[0] != u[1])
    return "NUL bytes between characters: UTF-16 text without a byte order mark? convert it to UTF-8 or ASCII";
  return NULL;
}

/* The checks of one line's bytes [start, e): encoding (first line), NUL,
 * a carriage return that is not part of a CRLF ending. */
static gsp_info check_line(gsp__reader *r, const char *start, const char *e) {
  const char *why = r->lineno == 1 ? encoding_problem(start, (size_t)(e - start)) : NULL;
  if (!why && memchr(start, '\0', (size_t)(e - start))) why = "NUL byte in the line (a binary file?)";
  if (!why && memchr(start, '\r', (size_t)(e - start)))
    why = "carriage return inside the line: CR-only line ends (classic Mac)? use LF or CRLF";
  return why ? input_failed(r, gsp__parse_error(r, "%s", why)) : GSP_SUCCESS;
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
      gsp_info bad = check_line(r, start, e);
      if (bad < 0) return bad;
      *e = '\0';
      if (!r->content) {
        const char *p = gsp__skip_space(start);
        /* a Matrix Market banner ("%%MatrixMarket ...") is a header, not a comment */
        r->content = *p != '\0' && (!(r->comments && strchr(r->comments, *p)) || !strncasecmp(p, "%%matrixmarket", 14));
      }
      *line = start;
      *end = e;
      return GSP_SUCCESS;
    }
    if (r->eof) {
      *line = *end = NULL;
      return GSP_SUCCESS;
    }
    gsp_info info = fill(r);
    if (info < 0) return input_failed(r, info);
  }
}

gsp_info gsp__reader_bytes(gsp__reader *r, void *dst, size_t n, size_t *got) {
  unsigned char *out = dst;
  size_t have = r->len - r->pos, take = have < n ? have : n;
  memcpy(out, r->buf + r->pos, take);
  r->pos += take;
  *got = take;
  while (*got < n && !r->eof) {
    size_t g;
    gsp_info info = decode(r, out + *got, n - *got, &g);
    if (info < 0) return input_failed(r, info);
    if (g == 0) r->eof = true;
    *got += g;
  }
  r->content = r->content || *got > 0;
  return GSP_SUCCESS;
}

gsp_info gsp__parse_error(const gsp__reader *r, const char *fmt, ...) {
  char msg[320];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return GSP_ERROR(GSP_PARSE_ERROR, "%s line %lld: %s", r->path, (long long)r->lineno, msg);
}

gsp_info gsp__count_entry(const gsp__reader *r, uint64_t *count, uint64_t total, const char *what, const char *header) {
  if (*count == total)
    return gsp__parse_error(r, "more %s than the %llu the %s announces", what, (unsigned long long)total, header);
  (*count)++;
  return GSP_SUCCESS;
}
