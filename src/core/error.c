/* Error codes, their names, and the thread-local detail message. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gsp_internal.h"

static _Thread_local char gsp_errbuf[512];
static void (*_Atomic error_hook)(gsp_info, const char *);

void gsp__debug_on_error(void (*hook)(gsp_info, const char *)) { error_hook = hook; }

const char *gsp_strerror(gsp_info info) {
  switch (info) {
#define GSP_INFO_CASE_(name, value, text)                                      \
  case name:                                                                   \
    return #name ": " text;
    GSP_INFO_LIST(GSP_INFO_CASE_)
#undef GSP_INFO_CASE_
  }
  return "unknown gsp_info code";
}

const char *gsp_last_error(void) { return gsp_errbuf; }

gsp_info gsp__verror(gsp_info code, const char *file, int line, const char *fmt, va_list ap) {
  int len = vsnprintf(gsp_errbuf, sizeof gsp_errbuf, fmt, ap);
  if (len < 0) len = 0;
  if ((size_t)len < sizeof gsp_errbuf) {
    /* keep only the file's base name: the message is for users */
    const char *base = strrchr(file, '/');
    snprintf(gsp_errbuf + len, sizeof gsp_errbuf - (size_t)len, " [%s:%d]",
             base ? base + 1 : file, line);
  }
  void (*hook)(gsp_info, const char *) = error_hook;
  if (hook) hook(code, gsp_errbuf);
  return code;
}

gsp_info gsp__error(gsp_info code, const char *file, int line,
                    const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  gsp_info r = gsp__verror(code, file, line, fmt, ap);
  va_end(ap);
  return r;
}
