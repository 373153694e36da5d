/*
 * The public output files (gsp_output, gsp.h's advanced part): nothing
 * replaces the target before gsp_output_commit, abort leaves it as it was,
 * a streamed .npy (header, then rows) reads back as the matrix written
 * whole, a commit after a failed write fails, and the host memory count.
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part: output files */
#define _POSIX_C_SOURCE  200809L
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gsp.h"
#include "gsp_test.h"

static char dir[64];

static void setup(void) {
  snprintf(dir, sizeof dir, "/tmp/gsp_output_api_%d", (int)getpid());
  cr_assert_eq(mkdir(dir, 0700) == 0 || access(dir, W_OK) == 0, true);
}

static const char *at(char *buf, const char *name) {
  snprintf(buf, 256, "%s/%s", dir, name);
  return buf;
}

static size_t slurp(const char *path, char *buf, size_t len) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t n = fread(buf, 1, len, f);
  fclose(f);
  return n;
}

static void teardown(void) {
  char cmd[96];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  cr_expect_eq(system(cmd), 0);
}

TestSuite(output_api, .init = setup, .fini = teardown);

Test(output_api, commit_replaces_abort_keeps) {
  char p[256], buf[64] = {0};
  FILE *f = fopen(at(p, "t.txt"), "w");
  fputs("old\n", f), fclose(f);
  gsp_output o = NULL;
  GSP_OK(gsp_output_open(&o, p));
  FILE *s = NULL;
  GSP_OK(gsp_output_stream(&s, o));
  fputs("new\n", s);
  GSP_OK(gsp_output_finish(o));
  cr_assert_eq(slurp(p, buf, sizeof buf), 4);
  cr_assert_str_eq(buf, "old\n", "replaced before the commit");
  GSP_OK(gsp_output_commit(&o));
  cr_assert_null(o);
  memset(buf, 0, sizeof buf);
  slurp(p, buf, sizeof buf);
  cr_assert_str_eq(buf, "new\n");
  GSP_OK(gsp_output_open(&o, p));
  GSP_OK(gsp_output_stream(&s, o));
  fputs("lost\n", s);
  gsp_output_abort(&o);
  cr_assert_null(o);
  gsp_output_abort(&o); /* NULL: nothing */
  memset(buf, 0, sizeof buf);
  slurp(p, buf, sizeof buf);
  cr_assert_str_eq(buf, "new\n", "abort changed the target");
}

Test(output_api, unwritable_path_refused_at_open) {
  gsp_output o = NULL;
  char p[256];
  cr_assert_eq(gsp_output_open(&o, at(p, "no/such/dir/x.npy")), GSP_IO_ERROR);
  cr_assert_null(o);
  cr_assert(strstr(gsp_last_error(), "no/such/dir") != NULL, "%s", gsp_last_error());
}

/* Header then rows, as a row callback streams them: the same bytes as the
 * whole matrix written by gsp_matrix_write_output. */
Test(output_api, streamed_npy_equals_whole) {
  const gsp_index n = 5;
  gsp_matrix A = NULL;
  GSP_OK(gsp_generate_complete(&A, GSP_FP64, n, 1, 9, 3));
  double x[25];
  for (gsp_index i = 0; i < n; i++)
    for (gsp_index j = 0; j < n; j++) {
      double v = 0;
      x[i * n + j] = gsp_matrix_extract_element(&v, A, i, j) == GSP_SUCCESS ? v : 1.0 / 0.0;
    }
  char p1[256], p2[256];
  gsp_output o = NULL;
  GSP_OK(gsp_output_open(&o, at(p1, "s.npy")));
  GSP_OK(gsp_output_npy_header(o, GSP_FP64, n, n));
  FILE *s = NULL;
  GSP_OK(gsp_output_stream(&s, o));
  for (gsp_index i = 0; i < n; i++) cr_assert_eq(fwrite(x + i * n, sizeof *x, n, s), n);
  GSP_OK(gsp_output_commit(&o));
  GSP_OK(gsp_output_open(&o, at(p2, "w.npy")));
  GSP_OK(gsp_matrix_write_output(o, A, NULL));
  GSP_OK(gsp_output_commit(&o));
  static char b1[4096], b2[4096];
  const size_t l1 = slurp(p1, b1, sizeof b1), l2 = slurp(p2, b2, sizeof b2);
  cr_assert_eq(l1, l2);
  cr_assert_eq(memcmp(b1, b2, l1), 0, "streamed and whole .npy differ");
  gsp_matrix B = NULL;
  GSP_OK(gsp_matrix_read(&B, p1, NULL));
  gsp_test_assert_matrix_same(A, B, 0);
  gsp_matrix_free(&A), gsp_matrix_free(&B);
}

/* A write that failed gives up the output: the commit says so. */
Test(output_api, commit_after_a_failed_write_fails) {
  char p[256];
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, GSP_FP64, 3, 4));
  gsp_output o = NULL;
  GSP_OK(gsp_output_open(&o, at(p, "bad.gr")));
  cr_assert_eq(gsp_matrix_write_output(o, A, NULL), GSP_INVALID_VALUE); /* DIMACS of a non-square matrix */
  cr_assert_eq(gsp_output_commit(&o), GSP_IO_ERROR);
  cr_assert_null(o);
  cr_assert_eq(access(p, F_OK), -1, "a file was left at %s", p);
  gsp_matrix_free(&A);
}

Test(output_api, host_memory_available) {
  size_t b = 0;
  GSP_OK(gsp_host_memory_available(&b));
  cr_assert_gt(b, 0);
  cr_assert_eq(gsp_host_memory_available(NULL), GSP_NULL_POINTER);
}
