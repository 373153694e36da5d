/*
 * What every fuzz target does with one input, shared by the libFuzzer
 * targets (tests/fuzz/fuzz_*.c) and by the corpus replay suite that runs in
 * every CI build (tests/test_fuzz_corpus.c).
 *
 * The contract checked: any bytes give either GSP_SUCCESS with a valid
 * matrix or an error code with a message, and nothing leaks or crashes.
 */
#ifndef GSP_FUZZ_INPUTS_H
#define GSP_FUZZ_INPUTS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gsp.h"

enum { FUZZ_MTX, FUZZ_DIMACS, FUZZ_EDGELIST, FUZZ_NPY, FUZZ_DENSE, FUZZ_BUILD, FUZZ_NTARGETS };
static const char *const fuzz_target_names[FUZZ_NTARGETS] = {"mtx", "dimacs", "edgelist",
                                                            "npy", "dense", "build"};

/* A matrix that a call returned must be usable: its tuples come out and
 * match its entry count. Returns 0 when it is. */
static int fuzz_check_matrix(gsp_matrix A) {
  gsp_index nv = 0, n = 0;
  if (gsp_matrix_nvals(&nv, A) != GSP_SUCCESS) return 1;
  n = nv;
  gsp_index *I = malloc((nv + 1) * sizeof *I);
  if (!I) return 0;
  int bad = gsp_matrix_extract_tuples(I, NULL, NULL, &n, A) != GSP_SUCCESS || n != nv;
  free(I);
  return bad;
}

/* Readers: the bytes become a file of that format. */
static int fuzz_read(int target, const uint8_t *data, size_t size) {
  static const gsp_file_format fmt[] = {GSP_FILE_MTX, GSP_FILE_DIMACS, GSP_FILE_EDGELIST,
                                        GSP_FILE_NPY, GSP_FILE_DENSE};
  char path[64];
  snprintf(path, sizeof path, "/tmp/gsp-fuzz-%ld.in", (long)getpid());
  FILE *f = fopen(path, "wb");
  if (!f) return 0;
  fwrite(data, 1, size, f);
  fclose(f);
  gsp_read_opts o;
  memset(&o, 0, sizeof o);
  o.format = fmt[target];
  /* the first byte picks an id mode for edge lists: all three get fuzzed */
  if (target == FUZZ_EDGELIST && size > 0) o.ids = (gsp_id_mode)(data[0] % 3);
  /* a lone id of 10^9 legitimately asks for 10^9 vertices; a cap keeps the
   * fuzzer fast and exercises the out-of-range path instead */
  if (target == FUZZ_EDGELIST && o.ids != GSP_IDS_REMAP) o.nvertices = 1 << 16;
  gsp_matrix A = NULL;
  gsp_info info = gsp_matrix_read(&A, path, &o);
  unlink(path);
  int bad = 0;
  if (info == GSP_SUCCESS) bad = A == NULL || fuzz_check_matrix(A);
  else bad = A != NULL || gsp_last_error()[0] == '\0';
  gsp_matrix_free(&A);
  return bad;
}

/* Tuple building: a header (type, dup policy, dimensions) then 12-byte
 * tuples (i, j as 32-bit, value as 32-bit integer). */
static int fuzz_build(const uint8_t *data, size_t size) {
  if (size < 4) return 0;
  gsp_type t = (gsp_type)(data[0] % 5);
  gsp_dup dup = (gsp_dup)(data[1] % 6);
  gsp_index nrows = data[2], ncols = data[3];
  data += 4;
  size -= 4;
  size_t nt = size / 12;
  gsp_index *I = malloc((nt + 1) * sizeof *I), *J = malloc((nt + 1) * sizeof *J);
  double *X = malloc((nt + 1) * sizeof *X);
  char *Xt = malloc((nt + 1) * 8);
  int bad = 0;
  if (I && J && X && Xt) {
    for (size_t k = 0; k < nt; k++) {
      uint32_t w[3];
      memcpy(w, data + 12 * k, 12);
      I[k] = w[0] % 300; /* mostly in range, sometimes not */
      J[k] = w[1] % 300;
      int32_t v = (int32_t)w[2];
      bool b = v != 0;
      int64_t v64 = v;
      float f = (float)v;
      double d = v;
      const void *src = t == GSP_BOOL ? (const void *)&b : t == GSP_INT32 ? (const void *)&v
                        : t == GSP_INT64 ? (const void *)&v64 : t == GSP_FP32 ? (const void *)&f
                                                                              : (const void *)&d;
      memcpy(Xt + k * gsp_type_size(t), src, gsp_type_size(t));
    }
    gsp_matrix A = NULL;
    if (gsp_matrix_new(&A, t, nrows, ncols) == GSP_SUCCESS) {
      gsp_info info = gsp_matrix_build(A, I, J, Xt, nt, dup);
      gsp_index nv = 0;
      gsp_matrix_nvals(&nv, A);
      if (info == GSP_SUCCESS) bad = fuzz_check_matrix(A) || nv > nt;
      else bad = nv != 0 || gsp_last_error()[0] == '\0'; /* untouched on error */
      if (info == GSP_SUCCESS && nrows == ncols) {
        /* and the result goes through a closure when a semiring fits */
        gsp_info c = gsp_closure(A, t == GSP_BOOL ? GSP_OR_AND : GSP_MIN_MAX);
        bad |= c != GSP_SUCCESS;
      }
      gsp_matrix_free(&A);
    }
  }
  free(I), free(J), free(X), free(Xt);
  return bad;
}

static int fuzz_one(int target, const uint8_t *data, size_t size) {
  return target == FUZZ_BUILD ? fuzz_build(data, size) : fuzz_read(target, data, size);
}

#endif
