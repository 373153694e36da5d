/*
 * Inside libgsp_cuda.so, the core functions the CUDA code calls, by their
 * own names: each forwards to the core that opened the plugin (the table
 * gsp_cuda_plugin_open keeps), so errors land in the caller's thread-local
 * message and every allocation goes through the core's counted allocator
 * (its failure injection included). What needs no core (type sizes and
 * names, size arithmetic) is answered here from src/semiring. Local to the
 * plugin (gsp_cuda_plugin.map).
 */
#include <stdarg.h>

#include "gsp_cuda_plugin.h"
#include "gsp_names.h"

extern const gsp__cuda_host *gsp__cuda_host_table;
#define H gsp__cuda_host_table

gsp_info gsp__error(gsp_info code, const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  gsp_info r = H->verror(code, file, line, fmt, ap);
  va_end(ap);
  return r;
}
const char *gsp_last_error(void) {
  return H->last_error();
}
void gsp__device_decline(gsp_info code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  H->device_vdecline(code, fmt, ap);
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
  return H->malloc_array(count, size);
}
void *gsp__calloc(size_t count, size_t size) {
  return H->calloc(count, size);
}
void gsp__free(void *p) {
  H->free(p);
}

int gsp__threads(void) {
  return H->threads();
}
void gsp__team(int nthreads, void (*body)(void *ctx, int t, int nt), void *ctx) {
  H->team(nthreads, body, ctx);
}
const char *gsp__setting_nccl_library(void) {
  return H->nccl_library();
}
bool gsp__burble_on(void) {
  return H->burble_on();
}
void gsp__burble(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  H->vburble(fmt, ap);
  va_end(ap);
}

gsp_info gsp__matrix_host(struct gsp_matrix_s *A) {
  return H->matrix_host(A);
}
gsp_info gsp__matrix_to_csr(struct gsp_matrix_s *A) {
  return H->matrix_to_csr(A);
}
gsp_info gsp__matrix_to_dense(struct gsp_matrix_s *A) {
  return H->matrix_to_dense(A);
}

int64_t gsp__sssp_gather(const gsp__sssp_sink *s, gsp_type t, const void *lim, bool full, int64_t lo, int64_t len,
                         const void *sd, const void *sp, int psize, int nthreads) {
  return H->sssp_gather(s, t, lim, full, lo, len, sd, sp, psize, nthreads);
}
void gsp__sssp_touch(const gsp__sssp_sink *s, gsp_type t, int64_t n, int nthreads) {
  H->sssp_touch(s, t, n, nthreads);
}
void gsp__sssp_present_all(uint8_t *b, int64_t n, int nthreads) {
  H->sssp_present_all(b, n, nthreads);
}
