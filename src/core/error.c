/* Error codes, their names, the thread-local detail message, and why the GPU
 * last declined a call (the decline protocol of gsp_host.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsp_internal.h"

/* Large enough for a long path and the problem after it; longer messages
 * are cut in the middle, so both ends (the file and the problem) stay. */
#define ERRBUF 2048
static _Thread_local char gsp_errbuf[ERRBUF];
static void (*_Atomic error_hook)(gsp_info, const char *);
/* Errors recorded by this thread so far: a caller (the fuzz harness) can
 * tell a message recorded by its call from one left by an earlier call. */
static _Thread_local uint64_t error_serial;

uint64_t gsp__error_serial(void) {
  return error_serial;
}

void gsp__debug_on_error(void (*hook)(gsp_info, const char *)) {
  error_hook = hook;
}

const char *gsp_strerror(gsp_info info) {
  switch (info) {
#define GSP_INFO_CASE_(name, value, text) \
  case name:                              \
    return #name ": " text;
    GSP_INFO_LIST(GSP_INFO_CASE_)
#undef GSP_INFO_CASE_
  }
  return "unknown gsp_info code";
}

const char *gsp_last_error(void) {
  return gsp_errbuf;
}

/* Append text[0..n) to dst (at *o, capacity cap), control bytes and DEL
 * written as \xNN: messages quote file contents, and a terminal must never
 * receive raw escape sequences from a file. */
static void put_escaped(char *dst, size_t *o, size_t cap, const char *text, size_t n) {
  static const char hex[] = "0123456789abcdef";
  for (size_t k = 0; k < n; k++) {
    unsigned char b = (unsigned char)text[k];
    bool ctl = b < 0x20 || b == 0x7f;
    if (*o + (ctl ? 4 : 1) >= cap) break;
    if (ctl) {
      dst[(*o)++] = '\\';
      dst[(*o)++] = 'x';
      dst[(*o)++] = hex[b >> 4];
      dst[(*o)++] = hex[b & 15];
    } else {
      dst[(*o)++] = (char)b;
    }
  }
  dst[*o] = '\0';
}

static gsp_info verror(gsp_info code, const char *file, int line, const char *fmt, va_list ap) {
  char raw[3 * ERRBUF];
  int len = vsnprintf(raw, sizeof raw, fmt, ap);
  if (len < 0) len = 0;
  size_t n = (size_t)len < sizeof raw ? (size_t)len : sizeof raw - 1;
  /* the source location, kept whatever the length of the message */
  char where[96];
  const char *base = strrchr(file, '/');
  snprintf(where, sizeof where, " [%s:%d]", base ? base + 1 : file, line);
  size_t room = sizeof gsp_errbuf - strlen(where) - 1, o = 0;
  size_t escaped = 0;
  for (size_t k = 0; k < n; k++) escaped += ((unsigned char)raw[k] < 0x20 || raw[k] == 0x7f) ? 4 : 1;
  if (escaped <= room) {
    put_escaped(gsp_errbuf, &o, room + 1, raw, n);
  } else {
    /* cut the middle: the head names the file, the tail the problem */
    size_t head = room / 4, tail = room - head - 5;
    put_escaped(gsp_errbuf, &o, head + 1, raw, n);
    memcpy(gsp_errbuf + o, " ... ", 5);
    o += 5;
    /* the tail: as many raw bytes from the end as fit once escaped */
    size_t from = n, used = 0;
    while (from > 0) {
      unsigned char b = (unsigned char)raw[from - 1];
      size_t w = (b < 0x20 || b == 0x7f) ? 4 : 1;
      if (used + w > tail) break;
      used += w;
      from--;
    }
    put_escaped(gsp_errbuf, &o, room + 1, raw + from, n - from);
  }
  if (gsp__debug_mode()) snprintf(gsp_errbuf + o, sizeof gsp_errbuf - o, "%s", where);
  error_serial++;
  void (*hook)(gsp_info, const char *) = error_hook;
  if (hook) { /* the hook (the tests' error census) counts checks by location */
    char located[ERRBUF + sizeof where];
    snprintf(located, sizeof located, "%.*s%s", (int)o, gsp_errbuf, where);
    hook(code, located);
  }
  return code;
}

gsp_info gsp__error(gsp_info code, const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  gsp_info r = verror(code, file, line, fmt, ap);
  va_end(ap);
  return r;
}

/* Why the CUDA gateway last declined a call on this thread, and the code an
 * explicit CUDA request fails with (gsp__backend_declined). */
static _Thread_local char decline_why[256];
static _Thread_local gsp_info decline_code;

void gsp__device_decline(gsp_info code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(decline_why, sizeof decline_why, fmt, ap);
  va_end(ap);
  decline_code = code;
  gsp__burble("the GPU declines: %s", decline_why);
}

void gsp__device_decline_clear(void) {
  decline_why[0] = '\0';
}

gsp_info gsp__device_declined(const char *fn) {
  gsp_info info;
  if (decline_why[0]) info = GSP_ERROR(decline_code, "%s: CUDA backend requested, but %s", fn, decline_why);
  else info = GSP_ERROR(GSP_NO_DEVICE, "%s: CUDA backend requested, but the GPU has no kernel for this call", fn);
  decline_why[0] = '\0';
  return info;
}
