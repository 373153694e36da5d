/* Writers: round trips writer -> reader for every format, type and gzip;
 * dense formats keep "absent" apart from values; NumPy can load .npy;
 * failures leave no partial file. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gsp_test.h"

static char dir[256];

static void setup(void) {
  snprintf(dir, sizeof dir, "/tmp/gsp_io_write_%d", (int)getpid());
  mkdir(dir, 0700);
}

static void teardown(void) {
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  cr_expect_eq(system(cmd), 0);
}

static const char *tmp(const char *name) {
  static char buf[4][512];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
  return buf[k];
}

static bool exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

TestSuite(io_write, .init = setup, .fini = teardown);

Test(io_write, round_trip_all_formats_and_types) {
  static const struct {
    const char *name;
    gsp_file_format f;
  } formats[] = {{"a.mtx", GSP_FILE_MTX},       {"a.mtx.gz", GSP_FILE_MTX},
                 {"a.gr", GSP_FILE_DIMACS},     {"a.gr.gz", GSP_FILE_DIMACS},
                 {"a.txt", GSP_FILE_EDGELIST},  {"a.el.gz", GSP_FILE_EDGELIST},
                 {"a.gspd", GSP_FILE_DENSE},    {"a.gspd.gz", GSP_FILE_DENSE},
                 {"a.npy", GSP_FILE_NPY},       {"a.npy.gz", GSP_FILE_NPY}};
  for (int t = GSP_BOOL; t <= GSP_FP64; t++) {
    /* square, with negative and zero weights; bool has false entries */
    gsp_matrix A = gsp_test_random_matrix((gsp_type)t, 37, 37, 0.2, -50, 50,
                                          (uint64_t)t + 11);
    if (t == GSP_FP32 || t == GSP_FP64) { /* non-integers too */
      double v = 0.1;
      float fv = 0.1f;
      GSP_OK(gsp_matrix_set_element(A, 3, 4, t == GSP_FP32 ? (void *)&fv : (void *)&v));
    }
    for (size_t k = 0; k < sizeof formats / sizeof *formats; k++) {
      const char *p = tmp(formats[k].name);
      GSP_OK(gsp_matrix_write(p, A, NULL)); /* format from the extension */
      gsp_read_opts o = {.use_type = true, .type = (gsp_type)t,
                         .use_dup = true, .dup = GSP_DUP_ERROR,
                         .nvertices = 37};
      gsp_matrix B = NULL;
      GSP_OK(gsp_matrix_read(&B, p, &o));
      bool dense = formats[k].f == GSP_FILE_DENSE || formats[k].f == GSP_FILE_NPY;
      if (t == GSP_BOOL && dense) {
        /* dense bool files cannot tell false from absent: only true stays */
        gsp_matrix E = NULL;
        bool yes = true;
        GSP_OK(gsp_matrix_new(&E, GSP_BOOL, 37, 37));
        GSP_OK(gsp_matrix_select(E, NULL, GSP_NOOP, GSP_VALUE_EQ, A, &yes, NULL));
        gsp_test_assert_matrix_same(E, B, 0);
        gsp_matrix_free(&E);
      } else {
        gsp_test_assert_matrix_same(A, B, 0);
      }
      gsp_matrix_free(&B);
      remove(p);
    }
    gsp_matrix_free(&A);
  }
}

Test(io_write, rectangular_and_explicit_format) {
  gsp_matrix A = gsp_test_random_matrix(GSP_FP64, 5, 9, 0.5, -3, 3, 5);
  gsp_write_opts w = {.format = GSP_FILE_MTX, .comment = "a test matrix"};
  const char *p = tmp("rect.data"); /* unknown extension: format given */
  GSP_OK(gsp_matrix_write(p, A, &w));
  gsp_read_opts o = {.format = GSP_FILE_MTX};
  gsp_matrix B = NULL;
  GSP_OK(gsp_matrix_read(&B, p, &o));
  gsp_test_assert_matrix_same(A, B, 0);
  gsp_matrix_free(&B);
  /* content sniffing finds Matrix Market without the extension */
  GSP_OK(gsp_matrix_read(&B, p, NULL));
  gsp_test_assert_matrix_same(A, B, 0);
  gsp_matrix_free(&B);
  /* DIMACS needs a square matrix; nothing is left behind */
  w.format = GSP_FILE_DIMACS;
  cr_expect_eq(gsp_matrix_write(tmp("rect.gr"), A, &w), GSP_INVALID_VALUE);
  cr_expect(!exists(tmp("rect.gr")));
  gsp_matrix_free(&A);
}

Test(io_write, reals_written_shortest_exact) {
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, GSP_FP64, 1, 4));
  double v[4] = {0.1, 1.0 / 3.0, 1e-300, -2.5e17};
  for (int k = 0; k < 4; k++) GSP_OK(gsp_matrix_set_element(A, 0, (gsp_index)k, &v[k]));
  const char *p = tmp("reals.mtx");
  GSP_OK(gsp_matrix_write(p, A, NULL));
  FILE *f = fopen(p, "r");
  char text[4096] = {0};
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  cr_assert(n > 0);
  cr_expect(strstr(text, "1 1 0.1\n") != NULL, "%s", text);
  gsp_matrix B = NULL;
  GSP_OK(gsp_matrix_read(&B, p, NULL));
  gsp_test_assert_matrix_same(A, B, 0); /* bit-exact */
  gsp_matrix_free(&A);
  gsp_matrix_free(&B);
}

Test(io_write, dense_keeps_absent_apart) {
  /* a closure-like dense result: explicit zeros and absent entries */
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, GSP_INT32, 3, 3));
  int32_t zero = 0, five = 5;
  GSP_OK(gsp_matrix_set_element(A, 0, 0, &zero));
  GSP_OK(gsp_matrix_set_element(A, 1, 2, &five));
  const char *p = tmp("d.gspd");
  GSP_OK(gsp_matrix_write(p, A, NULL));
  gsp_matrix B = NULL;
  GSP_OK(gsp_matrix_read(&B, p, NULL));
  gsp_test_assert_matrix_same(A, B, 0);
  gsp_matrix_free(&B);
  /* header is self-describing: magic, version, type, dims, absent */
  FILE *f = fopen(p, "rb");
  unsigned char h[64];
  cr_assert_eq(fread(h, 1, 64, f), 64);
  fclose(f);
  cr_expect(memcmp(h, "GSPDENSE", 8) == 0);
  cr_expect_eq(h[8], 1);           /* version */
  cr_expect_eq(h[12], GSP_INT32);  /* type */
  cr_expect_eq(h[16], 3);          /* nrows */
  cr_expect_eq(h[24], 3);          /* ncols */
  int32_t absent;
  memcpy(&absent, h + 32, 4);
  cr_expect_eq(absent, INT32_MAX);
  /* a custom absent value travels in the header */
  int32_t minus = -1;
  gsp_write_opts w = {.absent = &minus};
  GSP_OK(gsp_matrix_write(p, A, &w));
  GSP_OK(gsp_matrix_read(&B, p, NULL));
  gsp_test_assert_matrix_same(A, B, 0);
  gsp_matrix_free(&B);
  /* truncated data is an error */
  f = fopen(p, "r+b");
  cr_assert(ftruncate(fileno(f), 64 + 20) == 0);
  fclose(f);
  B = NULL;
  cr_expect_eq(gsp_matrix_read(&B, p, NULL), GSP_PARSE_ERROR);
  cr_expect(strstr(gsp_last_error(), "truncated"), "%s", gsp_last_error());
  cr_expect_null(B);
  gsp_matrix_free(&A);
}

Test(io_write, numpy_loads_npy) {
  if (system("python3 -c 'import numpy' 2>/dev/null") != 0)
    cr_skip_test("numpy not installed");
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_new(&A, GSP_FP64, 2, 3));
  double a = 1.5, b = 0;
  GSP_OK(gsp_matrix_set_element(A, 0, 1, &a));
  GSP_OK(gsp_matrix_set_element(A, 1, 2, &b));
  const char *p = tmp("m.npy");
  GSP_OK(gsp_matrix_write(p, A, NULL));
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "python3 -c \"import numpy as np, math; a = np.load('%s'); "
           "assert a.shape == (2, 3) and a.dtype == np.float64; "
           "assert a[0, 1] == 1.5 and a[1, 2] == 0; "
           "assert math.isinf(a[0, 0]) and (a == np.inf).sum() == 4\"",
           p);
  cr_expect_eq(system(cmd), 0, "np.load check failed");
  /* and an array written by NumPy reads back */
  snprintf(cmd, sizeof cmd,
           "python3 -c \"import numpy as np; np.save('%s', "
           "np.array([[0, 7], [np.iinfo(np.int64).max, -3]], dtype=np.int64))\"",
           tmp("np.npy"));
  cr_assert_eq(system(cmd), 0);
  gsp_matrix B = NULL;
  GSP_OK(gsp_matrix_read(&B, tmp("np.npy"), NULL));
  gsp_index nv;
  GSP_OK(gsp_matrix_nvals(&nv, B));
  cr_expect_eq(nv, 3); /* INT64_MAX marks "absent" */
  int64_t x;
  GSP_OK(gsp_matrix_extract_element(&x, B, 1, 1));
  cr_expect_eq(x, -3);
  gsp_matrix_free(&A);
  gsp_matrix_free(&B);
}

Test(io_write, failures_leave_nothing) {
  gsp_matrix A = gsp_test_random_matrix(GSP_INT64, 4, 4, 0.5, 1, 9, 1);
  cr_expect_eq(gsp_matrix_write("/nonexistent-dir/x.mtx", A, NULL),
               GSP_IO_ERROR);
  cr_expect(strstr(gsp_last_error(), "/nonexistent-dir/x.mtx: cannot create"),
            "%s", gsp_last_error());
  cr_expect_eq(gsp_matrix_write(NULL, A, NULL), GSP_NULL_POINTER);
  gsp_write_opts w = {.comment = "two\nlines"};
  cr_expect_eq(gsp_matrix_write(tmp("c.mtx"), A, &w), GSP_INVALID_VALUE);
  cr_expect(!exists(tmp("c.mtx")));
  /* an existing file is replaced only on success */
  GSP_OK(gsp_matrix_write(tmp("keep.mtx"), A, NULL));
  gsp_matrix_free(&A);
  cr_expect_eq(gsp_matrix_write(tmp("keep.mtx"), A, NULL), GSP_NULL_POINTER);
  gsp_matrix B = NULL;
  GSP_OK(gsp_matrix_read(&B, tmp("keep.mtx"), NULL));
  gsp_matrix_free(&B);
}
