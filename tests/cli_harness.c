/* The command-line suites' shared helpers (cli_harness.h). */
#define _DEFAULT_SOURCE
#include "cli_harness.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char dir[256];
char out[1 << 16], err[1 << 16];
const char *cli_cwd = dir;

void cli_harness_setup(const char *suite) {
  snprintf(dir, sizeof dir, "/tmp/gsp_%s_%d", suite, (int)getpid());
  mkdir(dir, 0700);
}

void cli_harness_teardown(void) {
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  cr_expect_eq(system(cmd), 0);
}

const char *tmp(const char *name) {
  static char buf[8][512];
  static int k;
  k = (k + 1) % 8;
  snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
  return buf[k];
}

size_t slurp(const char *path, char *buf, size_t len) {
  FILE *f = fopen(path, "rb");
  size_t n = f ? fread(buf, 1, len - 1, f) : 0;
  buf[n] = '\0';
  if (f) fclose(f);
  return n;
}

void put(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f, "%s", path);
  fputs(text, f);
  fclose(f);
}

/* line with every word GSP (not GSP_...) replaced by the quoted binary. */
static void expand(char *dst, size_t cap, const char *line) {
  static const char bin[] = "'" GSP_CLI_PATH "'";
  size_t o = 0;
  for (const char *p = line; *p && o + sizeof bin < cap;) {
    bool word = !strncmp(p, "GSP", 3) && (p == line || !(p[-1] == '_' || (p[-1] >= 'A' && p[-1] <= 'Z'))) &&
                !(p[3] == '_' || (p[3] >= 'A' && p[3] <= 'Z') || (p[3] >= '0' && p[3] <= '9'));
    if (word) {
      memcpy(dst + o, bin, sizeof bin - 1);
      o += sizeof bin - 1;
      p += 3;
    } else {
      dst[o++] = *p++;
    }
  }
  dst[o] = '\0';
}

/* Run line in cwd through /bin/sh with the limits, capturing the output. */
static int run(const char *cwd, cli_limits lim, const char *line) {
  char expanded[6144], cmd[8192];
  expand(expanded, sizeof expanded, line);
  snprintf(cmd, sizeof cmd, "cd '%s' && ( %s ) >%s/stdout 2>%s/stderr", cwd, expanded, dir, dir);
  pid_t pid = fork();
  cr_assert(pid >= 0);
  if (pid == 0) {
    setenv("OMP_NUM_THREADS", "2", 1);
    setenv("MALLOC_ARENA_MAX", "2", 1);
    /* the default action (a write past the size limit kills), as a shell
     * gives it: gsp itself must turn it into an error */
    signal(SIGXFSZ, SIG_DFL);
    if (lim.fsize) {
      struct rlimit rl = {lim.fsize, lim.fsize};
      if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(120);
    }
    if (lim.as) {
      struct rlimit rl = {lim.as, lim.as};
      if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(121);
    }
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(122);
  }
  int st = 0;
  cr_assert_eq(waitpid(pid, &st, 0), pid);
  char path[300]; /* not tmp(): the caller may hold its buffers */
  snprintf(path, sizeof path, "%s/stdout", dir);
  slurp(path, out, sizeof out);
  snprintf(path, sizeof path, "%s/stderr", dir);
  slurp(path, err, sizeof err);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int sh(const char *fmt, ...) {
  char line[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  return run(dir, (cli_limits){0, 0}, line);
}

static int gsp_v(const char *cwd, cli_limits lim, const char *fmt, va_list ap) {
  char args[4000], line[4096];
  vsnprintf(args, sizeof args, fmt, ap);
  snprintf(line, sizeof line, "GSP %s </dev/null", args);
  return run(cwd, lim, line);
}

int gsp(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = gsp_v(cli_cwd, (cli_limits){0, 0}, fmt, ap);
  va_end(ap);
  return rc;
}

int gsp_lim(cli_limits lim, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = gsp_v(dir, lim, fmt, ap);
  va_end(ap);
  return rc;
}
