/* Read a graph file with options and report what was read and how long it
 * took (the reader benchmark of docs/performance.md uses this program).
 *
 *   example_read_graph FILE [--one-based|--remap] [--symmetrize] [--fp64]
 *
 * Errors come back as GSP_PARSE_ERROR / GSP_IO_ERROR with the file, line
 * and problem in gsp_last_error(). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "gsp.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr,
            "usage: %s FILE [--one-based|--remap] [--symmetrize] "
            "[--fp64]\n",
            argv[0]);
    return 2;
  }
  gsp_read_opts o = {0}; /* all defaults: format from the extension, ... */
  for (int k = 2; k < argc; k++) {
    if (!strcmp(argv[k], "--one-based")) o.ids = GSP_IDS_ONE_BASED;
    else if (!strcmp(argv[k], "--remap")) o.ids = GSP_IDS_REMAP;
    else if (!strcmp(argv[k], "--symmetrize")) o.symmetrize = true;
    else if (!strcmp(argv[k], "--fp64")) o.use_type = true, o.type = GSP_FP64;
  }
  gsp_matrix A = NULL;
  double t0 = now();
  gsp_info info = gsp_matrix_read(&A, argv[1], &o);
  double secs = now() - t0;
  if (info != GSP_SUCCESS) {
    fprintf(stderr, "%s\n  %s\n", gsp_strerror(info), gsp_last_error());
    return 1;
  }
  gsp_index n, m;
  gsp_type t;
  gsp_matrix_nrows(&n, A);
  gsp_matrix_nvals(&m, A);
  gsp_matrix_type(&t, A);
  static const char *const names[] = {"bool", "int32", "int64", "fp32", "fp64"};
  double csr_mb = ((double)(n + 1) * 8 + (double)m * (8 + (double)gsp_type_size(t))) / 1e6;
  printf("%s: %llu vertices, %llu entries, %s; read in %.3f s (%.1f M entries/s); "
         "CSR %.1f MB\n",
         argv[1], (unsigned long long)n, (unsigned long long)m, names[t], secs, (double)m / secs * 1e-6, csr_mb);
  gsp_matrix_free(&A);
  return 0;
}
