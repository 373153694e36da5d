/* Writers: round trips writer -> reader for every format, type and gzip;
 * dense formats keep "absent" apart from values; NumPy can load .npy;
 * failures leave no partial file; output files are all-or-nothing, follow
 * links, keep modes, write special files through, and never collide. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
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
  } formats[] = {{"a.mtx", GSP_FILE_MTX},      {"a.mtx.gz", GSP_FILE_MTX},    {"a.gr", GSP_FILE_DIMACS},
                 {"a.gr.gz", GSP_FILE_DIMACS}, {"a.txt", GSP_FILE_EDGELIST},  {"a.el.gz", GSP_FILE_EDGELIST},
                 {"a.gspd", GSP_FILE_DENSE},   {"a.gspd.gz", GSP_FILE_DENSE}, {"a.npy", GSP_FILE_NPY},
                 {"a.npy.gz", GSP_FILE_NPY}};
  for (int t = GSP_BOOL; t <= GSP_FP64; t++) {
    /* square, with negative and zero weights; bool has false entries */
    gsp_matrix A = gsp_test_random_matrix((gsp_type)t, 37, 37, 0.2, -50, 50, (uint64_t)t + 11);
    if (t == GSP_FP32 || t == GSP_FP64) { /* non-integers too */
      double v = 0.1;
      float fv = 0.1f;
      GSP_OK(gsp_matrix_set_element(A, 3, 4, t == GSP_FP32 ? (void *)&fv : (void *)&v));
    }
    for (size_t k = 0; k < sizeof formats / sizeof *formats; k++) {
      const char *p = tmp(formats[k].name);
      GSP_OK(gsp_matrix_write(p, A, NULL)); /* format from the extension */
      gsp_read_opts o = {.use_type = true, .type = (gsp_type)t, .use_dup = true, .dup = GSP_DUP_ERROR, .nvertices = 37};
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
  cr_expect_eq(h[8], 1);          /* version */
  cr_expect_eq(h[12], GSP_INT32); /* type */
  cr_expect_eq(h[16], 3);         /* nrows */
  cr_expect_eq(h[24], 3);         /* ncols */
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
  if (system("python3 -c 'import numpy' 2>/dev/null") != 0) cr_skip_test("numpy not installed");
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
  cr_expect_eq(gsp_matrix_write("/nonexistent-dir/x.mtx", A, NULL), GSP_IO_ERROR);
  cr_expect(strstr(gsp_last_error(), "/nonexistent-dir/x.mtx: cannot write"), "%s", gsp_last_error());
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

/* ---- all-or-nothing output files ---- */

static gsp_matrix read_back(const char *path) {
  gsp_matrix B = NULL;
  gsp_read_opts ro = {.format = GSP_FILE_MTX};
  GSP_OK(gsp_matrix_read(&B, path, &ro));
  return B;
}

Test(io_write, symlink_followed_and_mode_kept) {
  gsp_matrix A = gsp_test_random_matrix(GSP_INT64, 9, 9, 0.4, 1, 9, 2);
  FILE *f = fopen(tmp("target.mtx"), "w");
  fputs("old\n", f);
  fclose(f);
  cr_assert_eq(chmod(tmp("target.mtx"), 0600), 0);
  cr_assert_eq(symlink("target.mtx", tmp("link.mtx")), 0);
  GSP_OK(gsp_matrix_write(tmp("link.mtx"), A, NULL));
  struct stat st;
  cr_assert_eq(lstat(tmp("link.mtx"), &st), 0);
  cr_expect(S_ISLNK(st.st_mode), "the link was replaced by a file");
  cr_assert_eq(stat(tmp("target.mtx"), &st), 0);
  cr_expect_eq(st.st_mode & 07777, 0600, "mode %o, not 600", st.st_mode & 07777);
  gsp_matrix B = read_back(tmp("target.mtx"));
  gsp_test_assert_matrix_same(A, B, 0);
  /* a new file: 0666 less the umask */
  mode_t old = umask(027);
  GSP_OK(gsp_matrix_write(tmp("new.mtx"), A, NULL));
  umask(old);
  cr_assert_eq(stat(tmp("new.mtx"), &st), 0);
  cr_expect_eq(st.st_mode & 07777, 0640, "mode %o, not 640", st.st_mode & 07777);
  cr_expect_eq(gsp_test_temporaries(dir), 0);
  gsp_matrix_free(&A);
  gsp_matrix_free(&B);
}

Test(io_write, special_files_written_through) {
  gsp_matrix A = gsp_test_random_matrix(GSP_INT64, 12, 12, 0.3, 1, 9, 3);
  /* a FIFO with a reader gets the bytes and stays a FIFO */
  cr_assert_eq(mkfifo(tmp("fifo"), 0600), 0);
  pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    alarm(60); /* never a writer (the FIFO replaced): give up */
    int in = open(tmp("fifo"), O_RDONLY), out = open(tmp("got.mtx"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char buf[4096];
    ssize_t n;
    while ((n = read(in, buf, sizeof buf)) > 0)
      if (write(out, buf, (size_t)n) != n) _exit(1);
    _exit(n == 0 ? 0 : 1);
  }
  GSP_OK(gsp_matrix_write(tmp("fifo"), A, &(gsp_write_opts){.format = GSP_FILE_MTX}));
  int st = 0;
  cr_assert_eq(waitpid(pid, &st, 0), pid);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  struct stat s;
  cr_assert_eq(lstat(tmp("fifo"), &s), 0);
  cr_expect(S_ISFIFO(s.st_mode), "the FIFO was replaced");
  gsp_matrix B = read_back(tmp("got.mtx"));
  gsp_test_assert_matrix_same(A, B, 0);
  gsp_matrix_free(&B);
  /* "-": standard output */
  fflush(stdout);
  int saved = dup(STDOUT_FILENO), fd = open(tmp("stdout.mtx"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  cr_assert(saved >= 0 && fd >= 0);
  dup2(fd, STDOUT_FILENO);
  close(fd);
  gsp_info info = gsp_matrix_write("-", A, NULL);
  fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  GSP_OK(info);
  B = read_back(tmp("stdout.mtx"));
  gsp_test_assert_matrix_same(A, B, 0);
  gsp_matrix_free(&B);
  cr_expect(!exists("-"), "a file named '-' was created");
  /* a character device (a copy of /dev/null, made here so that a
   * regression cannot replace the system's) stays a device */
  if (mknod(tmp("null"), S_IFCHR | 0666, makedev(1, 3)) != 0)
    cr_skip_test("cannot make a device node here (needs root): %s", strerror(errno));
  GSP_OK(gsp_matrix_write(tmp("null"), A, &(gsp_write_opts){.format = GSP_FILE_MTX}));
  cr_assert_eq(lstat(tmp("null"), &s), 0);
  cr_expect(S_ISCHR(s.st_mode), "the device node was replaced by a file");
  cr_expect_eq(gsp_test_temporaries(dir), 0);
  gsp_matrix_free(&A);
}

Test(io_write, temporary_is_unique_and_never_follows_a_planted_link) {
  gsp_matrix A = gsp_test_random_matrix(GSP_INT64, 9, 9, 0.4, 1, 9, 4);
  FILE *f = fopen(tmp("victim"), "w");
  fputs("victim\n", f);
  fclose(f);
  /* the names the old writer used, planted as links to another file */
  char planted[600];
  for (int k = -2; k <= 2; k++) {
    snprintf(planted, sizeof planted, "%s.tmp-%d", tmp("out.mtx"), (int)getpid() + k);
    cr_assert_eq(symlink(tmp("victim"), planted), 0);
  }
  GSP_OK(gsp_matrix_write(tmp("out.mtx"), A, NULL));
  char buf[64] = "";
  f = fopen(tmp("victim"), "r");
  cr_assert(fgets(buf, sizeof buf, f));
  fclose(f);
  cr_expect_str_eq(buf, "victim\n", "the planted link redirected the write");
  gsp_matrix B = read_back(tmp("out.mtx"));
  gsp_test_assert_matrix_same(A, B, 0);
  gsp_matrix_free(&A);
  gsp_matrix_free(&B);
}

/* A full disk in the rename path: the file size limit makes the write
 * fail (EFBIG) in a child; the old file stays and no temporary is left. */
Test(io_write, full_disk_keeps_the_old_file) {
  gsp_matrix small = gsp_test_random_matrix(GSP_INT64, 5, 5, 0.5, 1, 9, 5);
  GSP_OK(gsp_matrix_write(tmp("keep.mtx"), small, NULL));
  /* made before the fork: OpenMP is not usable in a forked child */
  gsp_matrix big = gsp_test_random_matrix(GSP_FP64, 300, 300, 0.5, 1, 1000000, 6);
  pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl = {65536, 65536};
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(3);
    gsp_info info = gsp_matrix_write(tmp("keep.mtx"), big, NULL);
    _exit(info == GSP_IO_ERROR ? 0 : 2);
  }
  int st = 0;
  cr_assert_eq(waitpid(pid, &st, 0), pid);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
  gsp_matrix B = read_back(tmp("keep.mtx"));
  gsp_test_assert_matrix_same(small, B, 0);
  cr_expect_eq(gsp_test_temporaries(dir), 0);
  /* write-through to a full device (a copy of /dev/full made here, so a
   * regression cannot replace the system's) fails with GSP_IO_ERROR */
  if (mknod(tmp("full"), S_IFCHR | 0666, makedev(1, 7)) == 0) {
    cr_expect_eq(gsp_matrix_write(tmp("full"), big, &(gsp_write_opts){.format = GSP_FILE_MTX}), GSP_IO_ERROR);
    struct stat s;
    cr_expect(lstat(tmp("full"), &s) == 0 && S_ISCHR(s.st_mode), "the device node was replaced");
  }
  int made = errno;
  gsp_matrix_free(&big);
  gsp_matrix_free(&small);
  gsp_matrix_free(&B);
  if (!exists(tmp("full"))) cr_skip_test("cannot make a device node here (needs root): %s", strerror(made));
}

/* Eight threads writing one path, round after round: the file always reads
 * back whole, as one of the eight inputs. */
enum { WRITERS = 8, ROUNDS = 6 };
static gsp_matrix inputs[WRITERS];
static gsp_info results[WRITERS];
static char shared_path[512]; /* made once: tmp()'s buffers are not for threads */
static void *writer(void *arg) {
  int k = (int)(intptr_t)arg;
  results[k] = gsp_matrix_write(shared_path, inputs[k], NULL);
  return NULL;
}

Test(io_write, threads_writing_one_path_never_collide) {
  for (int k = 0; k < WRITERS; k++)
    inputs[k] = gsp_test_random_matrix(GSP_INT64, 120, 120, 0.3, 1, 99, 100 + (uint64_t)k);
  snprintf(shared_path, sizeof shared_path, "%s", tmp("shared.npy"));
  for (int round = 0; round < ROUNDS; round++) {
    pthread_t th[WRITERS];
    for (int k = 0; k < WRITERS; k++) pthread_create(&th[k], NULL, writer, (void *)(intptr_t)k);
    for (int k = 0; k < WRITERS; k++) pthread_join(th[k], NULL);
    for (int k = 0; k < WRITERS; k++) GSP_OK(results[k]);
    gsp_matrix B = NULL;
    GSP_OK(gsp_matrix_read(&B, tmp("shared.npy"), NULL));
    bool same = false;
    for (int k = 0; k < WRITERS && !same; k++) {
      gsp_matrix C = NULL;
      GSP_OK(gsp_matrix_dup(&C, inputs[k]));
      gsp_index nb = 0, nc = 0;
      gsp_matrix_nvals(&nb, B);
      gsp_matrix_nvals(&nc, C);
      /* equal as dense arrays: same values everywhere */
      if (nb >= nc) {
        int64_t x = 0;
        same = true;
        for (gsp_index i = 0; i < 120 && same; i++)
          for (gsp_index j = 0; j < 120 && same; j++) {
            int64_t y = INT64_MAX;
            gsp_info a = gsp_matrix_extract_element(&x, B, i, j);
            if (gsp_matrix_extract_element(&y, C, i, j) != GSP_SUCCESS) y = INT64_MAX;
            if (a != GSP_SUCCESS) x = INT64_MAX;
            same = x == y;
          }
      }
      gsp_matrix_free(&C);
    }
    cr_expect(same, "round %d: the file is none of the inputs", round);
    gsp_matrix_free(&B);
  }
  cr_expect_eq(gsp_test_temporaries(dir), 0);
  for (int k = 0; k < WRITERS; k++) gsp_matrix_free(&inputs[k]);
}
