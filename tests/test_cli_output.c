/* Output files of the `gsp` command line: special files and links written
 * through, modes kept, every output all-or-nothing (errors, full disks,
 * signals), unwritable paths refused before any computation, and a result
 * larger than memory streamed to its .npy file. The built binary runs in a
 * child, with resource limits set between fork and exec where needed. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli_harness.h"
#include "gsp_test.h"

static void setup(void) {
  cli_harness_setup("cli_output");
}

TestSuite(cli_output, .init = setup, .fini = cli_harness_teardown, .timeout = 300);

static bool same_file(const char *a, const char *b) {
  FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
  bool same = f && g;
  while (same) {
    int x = fgetc(f), y = fgetc(g);
    same = x == y;
    if (x == EOF) break;
  }
  if (f) fclose(f);
  if (g) fclose(g);
  return same;
}

/* A small weighted graph (DIMACS, 1-based) and one with a negative cycle. */
static const char *graph_gr = "p sp 5 6\na 1 2 3\na 2 3 4\na 3 4 1\na 4 5 2\na 1 5 20\na 5 1 7\n";
static const char *negcycle_gr = "p sp 4 4\na 1 2 1\na 2 3 -2\na 3 2 1\na 3 4 1\n";

/* ---- item: special files and links are written through ---- */

Test(cli_output, dash_writes_to_stdout) {
  put(tmp("g.gr"), graph_gr);
  cr_assert_eq(gsp("apsp g.gr -q -f mtx -o -"), 0, "%s", err);
  cr_expect(strstr(out, "%%MatrixMarket matrix coordinate integer general"), "stdout: %s", out);
  cr_expect(access(tmp("-"), F_OK) != 0, "a file named '-' was created");
  /* /dev/stdout on a pipe: a link to "pipe:[...]", written through */
  cr_assert_eq(gsp("apsp g.gr -q -f mtx -o /dev/stdout | cat >piped.mtx; true"), 0, "%s", err);
  char piped[4096];
  slurp(tmp("piped.mtx"), piped, sizeof piped);
  cr_expect(strstr(piped, "%%MatrixMarket matrix coordinate integer general"), "through the pipe: %s", piped);
  cr_assert_eq(gsp("sssp g.gr -s 1 -q -o -"), 0, "%s", err);
  cr_expect(strstr(out, "# vertex distance\n1 0\n2 3\n3 7\n"), "stdout: %s", out);
  cr_assert_eq(gsp("convert g.gr -q -f edgelist -"), 0, "%s", err);
  cr_expect(strstr(out, "0 1 3\n"), "stdout: %s", out);
  cr_expect_eq(gsp_test_temporaries(dir), 0);
}

Test(cli_output, device_node_stays_a_device) {
  put(tmp("g.gr"), graph_gr);
  /* a copy of /dev/null made here: a regression cannot replace the
   * machine's own */
  if (mknod(tmp("null"), S_IFCHR | 0666, makedev(1, 3)) != 0)
    cr_skip_test("cannot make a device node here (needs root): %s", strerror(errno));
  cr_assert_eq(gsp("apsp g.gr -q -o null"), 0, "%s", err);
  cr_assert_eq(gsp("apsp g.gr -q -f npy -o null"), 0, "%s", err);
  cr_assert_eq(gsp("generate ring -n 5 -o null"), 0, "%s", err);
  struct stat st;
  cr_assert_eq(lstat(tmp("null"), &st), 0);
  cr_expect(S_ISCHR(st.st_mode), "the device node was replaced by a file");
  cr_expect_eq(st.st_rdev, makedev(1, 3));
  cr_expect_eq(gsp_test_temporaries(dir), 0);
}

Test(cli_output, fifo_with_a_reader_gets_the_bytes) {
  put(tmp("g.gr"), graph_gr);
  cr_assert_eq(mkfifo(tmp("fifo"), 0600), 0);
  pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) { /* the reader: copies the FIFO to got.txt; never a
                    writer (the FIFO replaced) ends it after 60 s */
    alarm(60);
    int in = open(tmp("fifo"), O_RDONLY), o = open(tmp("got.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char buf[4096];
    ssize_t n;
    while ((n = read(in, buf, sizeof buf)) > 0)
      if (write(o, buf, (size_t)n) != n) _exit(1);
    _exit(n == 0 ? 0 : 1);
  }
  cr_assert_eq(gsp("apsp g.gr -q -f mtx -o fifo"), 0, "%s", err);
  int st = 0;
  cr_assert_eq(waitpid(pid, &st, 0), pid);
  cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  char got[4096];
  slurp(tmp("got.txt"), got, sizeof got);
  cr_expect(strstr(got, "%%MatrixMarket matrix coordinate integer general") && strstr(got, "\n1 5 10\n"),
            "the reader got: %s", got);
  struct stat s;
  cr_assert_eq(lstat(tmp("fifo"), &s), 0);
  cr_expect(S_ISFIFO(s.st_mode), "the FIFO was replaced by a file");
}

Test(cli_output, symlink_followed_and_mode_kept) {
  put(tmp("g.gr"), graph_gr);
  put(tmp("target.txt"), "old\n");
  cr_assert_eq(chmod(tmp("target.txt"), 0600), 0);
  cr_assert_eq(symlink("target.txt", tmp("link.txt")), 0);
  cr_assert_eq(gsp("sssp g.gr -s 1 -q -o link.txt"), 0, "%s", err);
  struct stat st;
  cr_assert_eq(lstat(tmp("link.txt"), &st), 0);
  cr_expect(S_ISLNK(st.st_mode), "the link was replaced by a file");
  cr_assert_eq(stat(tmp("target.txt"), &st), 0);
  cr_expect_eq(st.st_mode & 07777, 0600, "mode %o, not 600", (unsigned)(st.st_mode & 07777));
  char got[4096];
  slurp(tmp("target.txt"), got, sizeof got);
  cr_expect(strstr(got, "5 10\n"), "target: %s", got);
  /* a link into another directory: the file goes there */
  cr_assert_eq(mkdir(tmp("sub"), 0700), 0);
  cr_assert_eq(symlink("sub/d.mtx", tmp("dlink.mtx")), 0);
  cr_assert_eq(gsp("apsp g.gr -q -o dlink.mtx"), 0, "%s", err);
  cr_assert_eq(lstat(tmp("dlink.mtx"), &st), 0);
  cr_expect(S_ISLNK(st.st_mode));
  cr_expect_eq(stat(tmp("sub/d.mtx"), &st), 0, "the link's target was not written");
  cr_expect_eq(gsp_test_temporaries(dir), 0);
}

/* ---- item: unwritable outputs are refused before any computation ---- */

Test(cli_output, unwritable_outputs_refused_first) {
  put(tmp("g.gr"), graph_gr);
  put(tmp("file"), "x\n");
  cr_assert_eq(mkdir(tmp("adir"), 0700), 0);
  static const char *bad[] = {"/nonexistent/d.npy", "adir", "file/d.npy", "nodir/x.txt"};
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    /* the graph does not exist either: the output is checked first */
    cr_expect_eq(gsp("apsp missing.gr -o %s", bad[k]), 4, "apsp -o %s: %s", bad[k], err);
    cr_expect(strstr(err, "cannot write"), "%s", err);
    cr_expect_eq(gsp("apsp g.gr -o d.npy --parent-output %s", bad[k]), 4, "%s", err);
    cr_expect(!strstr(out, "closure by"), "computed before refusing: %s", out);
    cr_expect_eq(gsp("sssp missing.gr -s 1 -o %s", bad[k]), 4, "sssp -o %s: %s", bad[k], err);
    cr_expect_eq(gsp("queries missing.gr missing.ss -o %s", bad[k]), 4, "%s", err);
    cr_expect_eq(gsp("convert missing.gr %s", bad[k]), 4, "%s", err);
    cr_expect_eq(gsp("generate ring -n 5 -o %s", bad[k]), 4, "%s", err);
    /* maps: opened with the coordinates, before the computation */
    cr_expect_eq(gsp("path g.gr 1 2 --svg %s", bad[k]), 4, "path --svg %s: %s", bad[k], err);
    cr_expect(!strstr(out, "path 1"), "computed before refusing: %s", out);
    cr_expect_eq(gsp("sssp g.gr -s 1 --geojson %s", bad[k]), 4, "sssp --geojson %s: %s", bad[k], err);
    cr_expect_eq(gsp("apsp g.gr --svg %s", bad[k]), 4, "apsp --svg %s: %s", bad[k], err);
    cr_expect(!strstr(out, "closure by"), "computed before refusing: %s", out);
  }
  cr_expect_eq(access(tmp("d.npy"), F_OK), -1, "a refused run left d.npy");
  cr_expect_eq(gsp_test_temporaries(dir), 0);
}

/* ---- item: all-or-nothing outputs ---- */

Test(cli_output, negative_cycle_keeps_old_files) {
  put(tmp("n.gr"), negcycle_gr);
  put(tmp("old.txt"), "old\n");
  put(tmp("old.npy"), "old\n");
  put(tmp("oldp.npy"), "old\n");
  cr_expect_eq(gsp("sssp n.gr -s 1 -o old.txt"), 5, "%s", err);
  cr_expect_eq(gsp("apsp n.gr -o old.npy --parent-output oldp.npy"), 5, "%s", err);
  cr_expect_eq(gsp("apsp n.gr -o old.npy --memory-cap 1k"), 5, "%s", err);
  char got[64];
  slurp(tmp("old.txt"), got, sizeof got);
  cr_expect_str_eq(got, "old\n");
  slurp(tmp("old.npy"), got, sizeof got);
  cr_expect_str_eq(got, "old\n");
  slurp(tmp("oldp.npy"), got, sizeof got);
  cr_expect_str_eq(got, "old\n");
  cr_expect_eq(gsp_test_temporaries(dir), 0);
}

/* A full disk: the file size limit makes writes fail with EFBIG. */
Test(cli_output, full_disk_keeps_old_files_and_stops) {
  cr_assert_eq(gsp("generate random -n 3000 -m 30000 -o r.gr -q"), 0, "%s", err);
  /* 200 sources: their result lines pass the limit after about 30 */
  FILE *f = fopen(tmp("q.ss"), "w");
  fprintf(f, "p aux sp ss 200\n");
  for (int k = 1; k <= 200; k++) fprintf(f, "s %d\n", k);
  fclose(f);
  put(tmp("old.txt"), "old\n");
  cli_limits lim = {0, 1024};
  cr_expect_eq(gsp_lim(lim, "queries r.gr q.ss -o old.txt"), 4, "%s", err);
  /* it stopped at the failed write instead of answering all 200: 1024
   * bytes hold about 30 result lines, one buffer flush later it knows */
  unsigned long long done = 0, all = 0;
  const char *at = strstr(err, "stopped after ");
  cr_assert(at && sscanf(at, "stopped after %llu of %llu", &done, &all) == 2, "%s", err);
  cr_expect(all == 200 && done < 100, "answered %llu of %llu queries with a full disk", done, all);
  char got[64];
  slurp(tmp("old.txt"), got, sizeof got);
  cr_expect_str_eq(got, "old\n");
  put(tmp("old.npy"), "old\n");
  put(tmp("oldp.npy"), "old\n");
  cr_expect_eq(gsp_lim(lim, "apsp r.gr -q -o old.npy"), 4, "%s", err);
  cr_expect_eq(gsp_lim(lim, "apsp r.gr -q -o old.npy --parent-output oldp.npy --memory-cap 1M"), 4, "%s", err);
  cr_expect_eq(gsp_lim(lim, "sssp r.gr -s 1 -q -o old.npy"), 4, "%s", err);
  cr_expect_eq(gsp_lim(lim, "convert r.gr old.npy"), 4, "%s", err);
  cr_expect_eq(gsp_lim(lim, "generate random -n 3000 -m 30000 -o old.npy -f mtx"), 4, "%s", err);
  /* SIGXFSZ (default action in the child) is a full disk: exit 4 with the
   * reason, not a kill (exit 153) that leaves the temporary */
  cr_expect(strstr(err, "File too large") != NULL, "%s", err);
  slurp(tmp("old.npy"), got, sizeof got);
  cr_expect_str_eq(got, "old\n");
  slurp(tmp("oldp.npy"), got, sizeof got);
  cr_expect_str_eq(got, "old\n");
  cr_expect_eq(gsp_test_temporaries(dir), 0);
}

/* Several outputs are replaced together or not at all: the distances fit
 * in 1 KiB, the dense parents do not, so the second output fails after
 * the first was complete; the first must keep its old content. */
Test(cli_output, two_outputs_commit_together) {
  put(tmp("g.gr"), "p sp 40 1\na 1 2 3\n");
  put(tmp("d.mtx"), "old\n");
  put(tmp("p.npy"), "old\n");
  cli_limits lim = {0, 1024};
  cr_expect_eq(gsp_lim(lim, "apsp g.gr -q -o d.mtx --parent-output p.npy"), 4, "%s", err);
  cr_expect(strstr(err, "p.npy") != NULL && strstr(err, "File too large") != NULL, "%s", err);
  char got[64];
  slurp(tmp("d.mtx"), got, sizeof got);
  cr_expect_str_eq(got, "old\n", "the first output was replaced alone");
  slurp(tmp("p.npy"), got, sizeof got);
  cr_expect_str_eq(got, "old\n");
  cr_expect_eq(gsp_test_temporaries(dir), 0);
  /* the same with the closure's result and successor outputs */
  cr_expect_eq(gsp_lim(lim, "closure g.gr -q -o d.mtx --succ-output p.npy"), 4, "%s", err);
  slurp(tmp("d.mtx"), got, sizeof got);
  cr_expect_str_eq(got, "old\n", "the first output was replaced alone");
  cr_expect_eq(gsp_test_temporaries(dir), 0);
  /* streamed (int32 distances: 1.44 MB fit in 2 MB; int64 parents, 2.88
   * MB, do not): the message names the parents' file, and both stay old */
  cr_assert_eq(gsp("generate random -n 600 -m 6000 -o r.gr -q"), 0, "%s", err);
  put(tmp("d.npy"), "old\n");
  cli_limits two = {0, 2 << 20};
  cr_expect_eq(gsp_lim(two, "apsp r.gr -v -t int32 -o d.npy --parent-output p.npy --memory-cap 1M"), 4, "%s", err);
  cr_expect(strstr(err, "streamed to d.npy") != NULL, "not streamed: %s", err);
  cr_expect(strstr(err, "cannot write p.npy: File too large") != NULL, "%s", err);
  slurp(tmp("d.npy"), got, sizeof got);
  cr_expect_str_eq(got, "old\n");
  slurp(tmp("p.npy"), got, sizeof got);
  cr_expect_str_eq(got, "old\n");
  cr_expect_eq(gsp_test_temporaries(dir), 0);
  /* without the limit both are written */
  cr_expect_eq(gsp("apsp g.gr -q -o d.mtx --parent-output p.npy"), 0, "%s", err);
  slurp(tmp("d.mtx"), got, sizeof got);
  cr_expect(strncmp(got, "%%MatrixMarket", 14) == 0, "%s", got);
}

/* Start `gsp apsp r.gr -q --algo fw -o old.npy [--parent-output oldp.npy]`
 * in dir, wait for its temporaries, send sig; the wait status. */
static int apsp_killed(bool parents, int sig) {
  pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    if (chdir(dir) != 0) _exit(1);
    setenv("OMP_NUM_THREADS", "2", 1);
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, STDOUT_FILENO);
    dup2(devnull, STDERR_FILENO);
    if (parents)
      execl(GSP_CLI_PATH, "gsp", "apsp", "r.gr", "-q", "--algo", "fw", "-o", "old.npy", "--parent-output", "oldp.npy",
            (char *)NULL);
    else execl(GSP_CLI_PATH, "gsp", "apsp", "r.gr", "-q", "--algo", "fw", "-o", "old.npy", (char *)NULL);
    _exit(122);
  }
  /* the temporaries exist from the start (the outputs are opened first) */
  const int want = parents ? 2 : 1;
  for (int k = 0; k < 500 && gsp_test_temporaries(dir) < want; k++) usleep(10000);
  cr_assert_eq(gsp_test_temporaries(dir), want, "no temporary appeared");
  cr_assert_eq(kill(pid, sig), 0);
  int st = 0;
  cr_assert_eq(waitpid(pid, &st, 0), pid);
  return st;
}

Test(cli_output, signal_removes_the_temporary) {
  cr_assert_eq(gsp("generate random -n 3000 -m 60000 -o r.gr -q"), 0, "%s", err);
  put(tmp("old.npy"), "old\n");
  put(tmp("oldp.npy"), "old\n");
  static const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
  for (int k = 0; k < 4; k++) {
    const int sig = sigs[k % 3];
    int st = apsp_killed(k > 0, sig);
    cr_expect(WIFSIGNALED(st) && WTERMSIG(st) == sig, "status %d", st);
    cr_expect_eq(gsp_test_temporaries(dir), 0, "signal %d left a temporary", sig);
    char got[64];
    slurp(tmp("old.npy"), got, sizeof got);
    cr_expect_str_eq(got, "old\n");
    slurp(tmp("oldp.npy"), got, sizeof got);
    cr_expect_str_eq(got, "old\n");
  }
}

/* ---- item: a result larger than memory streams to its file ---- */

Test(cli_output, memory_cap_streams_the_same_npy) {
  cr_assert_eq(gsp("generate random -n 1500 -m 15000 -o r.gr -q"), 0, "%s", err);
  cr_assert_eq(gsp("apsp r.gr -v -o whole.npy --parent-output wholep.npy --path 3:9"), 0, "%s", err);
  char path_whole[256] = "";
  char *at = strstr(out, "path: ");
  cr_assert_not_null(at, "%s", out);
  strncpy(path_whole, at, sizeof path_whole - 1);
  cr_assert_eq(gsp("apsp r.gr -v -o s.npy --parent-output sp.npy --path 3:9 --memory-cap 2M"), 0, "%s", err);
  cr_expect(strstr(err, "streamed to s.npy in row blocks"), "not streamed: %s", err);
  cr_expect(same_file(tmp("whole.npy"), tmp("s.npy")), "the streamed distances differ");
  cr_expect(same_file(tmp("wholep.npy"), tmp("sp.npy")), "the streamed parents differ");
  at = strstr(out, "path: ");
  cr_assert_not_null(at, "%s", out);
  cr_expect_str_eq(at, path_whole);
  /* int32 parents too */
  cr_assert_eq(gsp("apsp r.gr -q -o s.npy --parent-output sp32.npy --parent-type int32 --memory-cap 2M"), 0, "%s", err);
  cr_assert_eq(gsp("apsp r.gr -q -o whole.npy --parent-output wp32.npy --parent-type int32"), 0, "%s", err);
  cr_expect(same_file(tmp("wp32.npy"), tmp("sp32.npy")), "the streamed int32 parents differ");
  cr_expect_eq(gsp_test_temporaries(dir), 0);
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* n x n x 8 bytes do not fit under the address-space limit, row blocks do:
 * the .npy streams out and equals the unconstrained result. */
Test(cli_output, address_space_limit_streams_the_result) {
#ifdef UNDER_ASAN
  cr_skip_test("AddressSanitizer reserves terabytes of address space: RLIMIT_AS cannot be tested in "
               "this build (the release build runs it)");
#else
  put(tmp("tiny.gr"), graph_gr);
  /* the least limit (in 8 MiB steps) under which gsp runs at all */
  rlim_t base = 0;
  for (rlim_t l = 32u << 20; l <= (rlim_t)4 << 30 && !base; l += 8u << 20)
    if (gsp_lim((cli_limits){l, 0}, "apsp tiny.gr -q -o tiny.npy") == 0) base = l;
  if (!base) cr_skip_test("gsp does not start under a 4 GiB address-space limit (a CUDA-linked binary?): %s", err);
  cr_assert_eq(gsp("generate random -n 3000 -m 30000 -t int64 -o r.gr -q"), 0, "%s", err);
  cr_assert_eq(gsp("apsp r.gr -q -o whole.npy"), 0, "%s", err);
  /* 72 MB of distances; 32 MiB over the base leaves room for blocks only */
  rlim_t lim = base + (32u << 20);
  int rc = gsp_lim((cli_limits){lim, 0}, "apsp r.gr -v -o s.npy");
  cr_assert_eq(rc, 0, "limit %llu MiB: %s", (unsigned long long)(lim >> 20), err);
  cr_expect(strstr(err, "streamed to s.npy in row blocks"), "not streamed: %s", err);
  cr_expect(same_file(tmp("whole.npy"), tmp("s.npy")), "the streamed result differs");
  cr_expect_eq(gsp_test_temporaries(dir), 0);
#endif
}

/* A real full disk and a read-only one: small tmpfs mounts (root only;
 * skipped, visibly, where mounting is not allowed). */
static char mnt_full[300], mnt_ro[300];
static void mount_setup(void) {
  setup();
  snprintf(mnt_full, sizeof mnt_full, "%s/full", dir);
  snprintf(mnt_ro, sizeof mnt_ro, "%s/ro", dir);
  mkdir(mnt_full, 0700);
  mkdir(mnt_ro, 0700);
}
static void mount_teardown(void) {
  char cmd[700];
  snprintf(cmd, sizeof cmd, "umount %s 2>/dev/null; umount %s 2>/dev/null; true", mnt_full, mnt_ro);
  cr_expect_eq(system(cmd), 0);
  cli_harness_teardown();
}

Test(cli_output, tmpfs_full_and_read_only, .init = mount_setup, .fini = mount_teardown) {
  char cmd[700];
  snprintf(cmd, sizeof cmd, "mount -t tmpfs -o size=64k tmpfs %s 2>/dev/null && mount -t tmpfs -o ro tmpfs %s",
           mnt_full, mnt_ro);
  if (system(cmd) != 0) cr_skip_test("cannot mount a tmpfs here (needs root and mount rights)");
  cr_assert_eq(gsp("generate random -n 300 -m 12000 -o r.gr -q"), 0, "%s", err);
  put(tmp("full/old.npy"), "old\n");
  put(tmp("full/old.txt"), "old\n");
  /* 300 x 300 x 4 bytes do not fit in 64 KiB: ENOSPC */
  cr_expect_eq(gsp("apsp r.gr -q -o full/old.npy"), 4, "%s", err);
  cr_expect(strstr(err, "No space left on device"), "%s", err);
  cr_expect_eq(gsp("apsp r.gr -q -o full/old.npy --memory-cap 64k"), 4, "%s", err);
  cr_expect_eq(gsp("convert r.gr full/old.txt -f mtx"), 4, "%s", err);
  /* a text stream (sssp -o) names the reason too, not "Input/output error":
   * the disk filled first, the 300 distance lines then do not fit */
  sh("head -c 100000 /dev/zero > %s/fill", mnt_full);
  cr_expect_eq(gsp("sssp r.gr -s 1 -q -o full/old.txt"), 4, "%s", err);
  cr_expect(strstr(err, "No space left on device"), "%s", err);
  sh("rm -f %s/fill", mnt_full);
  char got[64];
  slurp(tmp("full/old.npy"), got, sizeof got);
  cr_expect_str_eq(got, "old\n");
  slurp(tmp("full/old.txt"), got, sizeof got);
  cr_expect_str_eq(got, "old\n");
  DIR *d = opendir(mnt_full);
  cr_assert_not_null(d);
  int files = 0;
  for (struct dirent *e; (e = readdir(d));) files += e->d_name[0] != '.' || strstr(e->d_name, ".tmp");
  closedir(d);
  cr_expect_eq(files, 2, "a temporary was left on the full disk");
  /* read-only: refused before the graph is read */
  cr_expect_eq(gsp("apsp missing.gr -o ro/d.npy"), 4, "%s", err);
  cr_expect(strstr(err, "Read-only file system"), "%s", err);
  cr_expect_eq(gsp("sssp missing.gr -s 1 -o ro/d.txt"), 4, "%s", err);
}

/* A signal at any moment leaves both outputs old or both new: never a new
 * distance file beside an old parent file (the renames run with INT, TERM,
 * HUP and QUIT held back). 40 runs, the signal sent 0..117 ms in, across the
 * whole run of about 80 ms. */
Test(cli_output, signal_at_any_moment_keeps_outputs_consistent) {
  cr_assert_eq(gsp("generate random -n 400 -m 4000 -o r.gr -q"), 0, "%s", err);
  int both_old = 0, both_new = 0;
  for (int run = 0; run < 40; run++) {
    put(tmp("d.npy"), "old\n");
    put(tmp("p.npy"), "old\n");
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
      if (chdir(dir) != 0) _exit(1);
      setenv("OMP_NUM_THREADS", "2", 1);
      int devnull = open("/dev/null", O_WRONLY);
      dup2(devnull, STDOUT_FILENO);
      dup2(devnull, STDERR_FILENO);
      execl(GSP_CLI_PATH, "gsp", "apsp", "r.gr", "-q", "-o", "d.npy", "--parent-output", "p.npy", (char *)NULL);
      _exit(122);
    }
    usleep((useconds_t)(run * 3000));
    kill(pid, run % 2 ? SIGINT : SIGTERM);
    int st = 0;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    char d[8], p[8];
    slurp(tmp("d.npy"), d, sizeof d);
    slurp(tmp("p.npy"), p, sizeof p);
    const bool d_old = !strcmp(d, "old\n"), p_old = !strcmp(p, "old\n");
    cr_assert_eq(d_old, p_old, "run %d: distances %s, parents %s (status %d)", run, d_old ? "old" : "new",
                 p_old ? "old" : "new", st);
    cr_assert_eq(gsp_test_temporaries(dir), 0, "run %d left a temporary", run);
    both_old += d_old, both_new += !d_old;
  }
  cr_log_info("40 signals: %d runs kept both old files, %d wrote both", both_old, both_new);
}
