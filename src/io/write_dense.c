/* Dense binary writers: gsp's .gspd and NumPy .npy. Rows are produced one
 * at a time from any storage, so a sparse matrix is never densified in
 * memory as a whole. */
#include <string.h>

#include "io_internal.h"

static void put_u32(unsigned char *b, uint32_t v) {
  for (int k = 0; k < 4; k++) b[k] = (unsigned char)(v >> (8 * k));
}
static void put_u64(unsigned char *b, uint64_t v) {
  put_u32(b, (uint32_t)v);
  put_u32(b + 4, (uint32_t)(v >> 32));
}

static gsp_info put_rows(gsp__writer *w, const struct gsp_matrix_s *A, const void *absent) {
  gsp_info info = GSP_SUCCESS;
  void *row = NULL;
#define GSP_FREE_ALL gsp__free(row)
  size_t ts = gsp_type_size(A->type);
  GSP_ALLOC(row, A->ncols ? (size_t)A->ncols : 1, ts);
  for (int64_t i = 0; i < A->nrows; i++) {
    gsp__dense_row(row, A, i, absent);
    gsp__writer_put(w, row, (size_t)A->ncols * ts);
  }
  gsp__free(row);
#undef GSP_FREE_ALL
  return info;
}

/* Both binary formats are written little-endian, as the host stores them. */
static gsp_info check_little_endian(const gsp__writer *w) {
  const uint16_t one = 1;
  if (*(const uint8_t *)&one == 1) return GSP_SUCCESS;
  return GSP_ERROR(GSP_IO_ERROR, "%s: binary formats need a little-endian host", w->path);
}

gsp_info gsp__write_dense(gsp__writer *w, const struct gsp_matrix_s *A, const void *absent) {
  gsp_info info = check_little_endian(w);
  if (info < 0) return info;
  unsigned char h[GSP_DENSE_HEADER];
  memset(h, 0, sizeof h);
  memcpy(h, GSP_DENSE_MAGIC, 8);
  put_u32(h + 8, GSP_DENSE_VERSION);
  put_u32(h + 12, (uint32_t)A->type);
  put_u64(h + 16, (uint64_t)A->nrows);
  put_u64(h + 24, (uint64_t)A->ncols);
  memcpy(h + 32, absent, gsp_type_size(A->type));
  put_u32(h + 40, GSP_DENSE_HEADER);
  put_u32(h + 44, 1); /* flags: bit 0 = the absent value is meaningful */
  gsp__writer_put(w, h, sizeof h);
  return put_rows(w, A, absent);
}

gsp_info gsp__write_npy(gsp__writer *w, const struct gsp_matrix_s *A, const void *absent) {
  gsp_info info = check_little_endian(w);
  if (info < 0) return info;
  unsigned char h[128];
  gsp__writer_put(w, h, gsp__npy_header(h, A->type, (gsp_index)A->nrows, (gsp_index)A->ncols));
  return put_rows(w, A, absent);
}
