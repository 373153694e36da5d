/*
 * Inside libgsp_cuda.so, the core functions the CUDA code calls, by their
 * own names: the allocator, errors, declines, the burble and the thread
 * team forward to the core that opened the plugin (the table
 * gsp_cuda_plugin_open keeps), so errors land in the caller's thread-local
 * message and every allocation goes through the core's counted allocator
 * (its failure injection included). Messages are formatted here, into a
 * buffer as large as the core's own (src/core/error.c). What needs no core
 * (type sizes and names, size arithmetic) is answered here from
 * src/semiring. Local to the plugin (gsp_cuda_plugin.map).
 */
#include <stdarg.h>
#include <stdio.h>

#include "gsp_cuda_plugin.h"
#include "gsp_names.h"

extern const gsp__cuda_host *gsp__cuda_host_table;
#define H gsp__cuda_host_table

/* The core's error text takes 3 x 2048 bytes before it is escaped. */
#define MSG_BYTES 6144

static gsp_info vlog(gsp__cuda_log_kind kind, gsp_info code, const char *file, int line, const char *fmt, va_list ap) {
  char msg[MSG_BYTES];
  vsnprintf(msg, sizeof msg, fmt, ap);
  return H->log(kind, code, file, line, msg);
}

gsp_info gsp__error(gsp_info code, const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  gsp_info r = vlog(GSP__CUDA_LOG_ERROR, code, file, line, fmt, ap);
  va_end(ap);
  return r;
}
void gsp__device_decline(gsp_info code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vlog(GSP__CUDA_LOG_DECLINE, code, __FILE__, __LINE__, fmt, ap);
  va_end(ap);
}
bool gsp__burble_on(void) {
  return H->log(GSP__CUDA_LOG_BURBLE, GSP_SUCCESS, __FILE__, __LINE__, NULL) != 0;
}
void gsp__burble(const char *fmt, ...) {
  if (!gsp__burble_on()) return; /* format nothing that is not shown */
  va_list ap;
  va_start(ap, fmt);
  vlog(GSP__CUDA_LOG_BURBLE, GSP_SUCCESS, __FILE__, __LINE__, fmt, ap);
  va_end(ap);
}

bool gsp__mul_size(size_t *out, size_t a, size_t b) {
  if (a != 0 && b > SIZE_MAX / a) return false;
  *out = a * b;
  return true;
}
size_t gsp_type_size(gsp_type t) {
  return gsp__tsize(t);
}
const char *gsp__type_name(gsp_type t) {
  return gsp_names_type(t);
}
const char *gsp__semiring_name(gsp_semiring s) {
  return gsp_names_semiring(s);
}

void *gsp__malloc_array(size_t count, size_t size) {
  return H->alloc(count, size, false);
}
void *gsp__calloc(size_t count, size_t size) {
  return H->alloc(count, size, true);
}
void gsp__free(void *p) {
  H->free(p);
}

int gsp__threads(void) {
  return H->team(0, NULL, NULL);
}
void gsp__team(int nthreads, void (*body)(void *ctx, int t, int nt), void *ctx) {
  H->team(nthreads, body, ctx);
}
