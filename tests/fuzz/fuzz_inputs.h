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

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gsp.h"

enum { FUZZ_MTX, FUZZ_DIMACS, FUZZ_EDGELIST, FUZZ_NPY, FUZZ_DENSE, FUZZ_BUILD, FUZZ_NTARGETS };
static const char *const fuzz_target_names[FUZZ_NTARGETS] = {"mtx", "dimacs", "edgelist", "npy", "dense", "build"};

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

/* Defined by the library (src/core/error.c): errors this thread recorded. */
uint64_t gsp__error_serial(void);

/* Reader options from the input. An input that starts with the marker
 * FUZZ_OPTS carries two option bytes after it (stripped before reading):
 *   o0: bits 0-2 type (0-4 a gsp_type, else the file's), bit 3 symmetrize,
 *       bit 4 drop self-loops, bit 5 round, bit 6 detect the format (AUTO),
 *       bit 7 read through a pipe (/dev/fd/N) instead of a regular file;
 *   o1: bits 0-2 duplicate policy (0-5, else the default), bits 3-5 the
 *       absent value of dense input (none, 0, inf, nan, -inf, 1, none,
 *       none), bits 6-7 the id mode of edge lists (3: from the first byte).
 * Inputs without the marker (most seeds) read with the defaults. */
#define FUZZ_OPTS 0xF5

typedef struct {
  gsp_read_opts o;
  bool pipe;
} fuzz_opts;

static void fuzz_options(int target, const uint8_t **data, size_t *size, fuzz_opts *f) {
  static const gsp_file_format fmt[] = {GSP_FILE_MTX, GSP_FILE_DIMACS, GSP_FILE_EDGELIST, GSP_FILE_NPY, GSP_FILE_DENSE};
  memset(f, 0, sizeof *f);
  f->o.format = fmt[target];
  int idmode = 3;
  if (*size >= 3 && (*data)[0] == FUZZ_OPTS) {
    uint8_t o0 = (*data)[1], o1 = (*data)[2];
    *data += 3;
    *size -= 3;
    if ((o0 & 7) < 5) {
      f->o.use_type = true;
      f->o.type = (gsp_type)(o0 & 7);
    }
    f->o.symmetrize = o0 & 8;
    f->o.drop_self_loops = o0 & 16;
    f->o.round = o0 & 32;
    if (o0 & 64) f->o.format = GSP_FILE_AUTO;
    f->pipe = o0 & 128;
    if ((o1 & 7) < 6) {
      f->o.use_dup = true;
      f->o.dup = (gsp_dup)(o1 & 7);
    }
    static const double absent[] = {0, 0, INFINITY, NAN, -INFINITY, 1, 0, 0};
    int ab = (o1 >> 3) & 7;
    if (ab >= 1 && ab <= 5) {
      f->o.use_absent = true;
      f->o.absent = absent[ab];
    }
    idmode = o1 >> 6;
  }
  /* the first byte picks an id mode for edge lists: all three get fuzzed */
  if (target == FUZZ_EDGELIST) f->o.ids = (gsp_id_mode)(idmode < 3 ? idmode : *size > 0 ? (*data)[0] % 3 : 0);
  /* a lone id of 10^9 legitimately asks for 10^9 vertices; a cap keeps the
   * fuzzer fast and exercises the out-of-range path instead */
  if (target == FUZZ_EDGELIST && f->o.ids != GSP_IDS_REMAP) f->o.nvertices = 1 << 16;
}

/* Readers: the bytes become a file (or a pipe's contents) of that format. */
static int fuzz_read(int target, const uint8_t *data, size_t size) {
  fuzz_opts f;
  fuzz_options(target, &data, &size, &f);
  char path[64];
  int fds[2] = {-1, -1};
  /* a pipe holds 64 KiB without a reader: larger inputs go to a file */
  if (f.pipe && size < 60000 && pipe(fds) == 0) {
    size_t off = 0;
    while (off < size) {
      ssize_t w = write(fds[1], data + off, size - off);
      if (w <= 0) break;
      off += (size_t)w;
    }
    close(fds[1]);
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
  } else {
    snprintf(path, sizeof path, "/tmp/gsp-fuzz-%ld.in", (long)getpid());
    FILE *fp = fopen(path, "wb");
    if (!fp) return 0;
    fwrite(data, 1, size, fp);
    fclose(fp);
    fds[0] = -1;
  }
  gsp_matrix A = NULL;
  uint64_t serial = gsp__error_serial();
  gsp_info info = gsp_matrix_read(&A, path, &f.o);
  if (fds[0] >= 0) close(fds[0]);
  else unlink(path);
  int bad = 0;
  if (info == GSP_SUCCESS) bad = A == NULL || fuzz_check_matrix(A);
  /* an error leaves A alone and records a new, non-empty message */
  else bad = A != NULL || gsp__error_serial() == serial || gsp_last_error()[0] == '\0';
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
      const void *src = t == GSP_BOOL    ? (const void *)&b
                        : t == GSP_INT32 ? (const void *)&v
                        : t == GSP_INT64 ? (const void *)&v64
                        : t == GSP_FP32  ? (const void *)&f
                                         : (const void *)&d;
      memcpy(Xt + k * gsp_type_size(t), src, gsp_type_size(t));
    }
    gsp_matrix A = NULL;
    if (gsp_matrix_new(&A, t, nrows, ncols) == GSP_SUCCESS) {
      uint64_t serial = gsp__error_serial();
      gsp_info info = gsp_matrix_build(A, I, J, Xt, nt, dup);
      bool fresh = gsp__error_serial() != serial;
      gsp_index nv = 0;
      gsp_matrix_nvals(&nv, A);
      if (info == GSP_SUCCESS) bad = fuzz_check_matrix(A) || nv > nt;
      else bad = nv != 0 || !fresh || gsp_last_error()[0] == '\0'; /* untouched on error */
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
