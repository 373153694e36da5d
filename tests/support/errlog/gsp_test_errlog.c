/*
 * Linked into every test program (an object library, so it is kept even
 * where nothing refers to it): with GSP_TEST_ERROR_LOG=<file> in the
 * environment, every error the library records is appended to that file as
 * "<code>\t<message>" (the message names the function and ends in the
 * [file:line] of the check). scripts/error_census.py turns a whole test run
 * into the per-function table of docs/reliability.md. Without the variable
 * nothing happens.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gsp_internal.h"

static char log_path[1024];

static void log_error(gsp_info code, const char *message) {
  char line[700];
  int len = snprintf(line, sizeof line, "%d\t%s\n", (int)code, message);
  if (len < 0) return;
  if ((size_t)len >= sizeof line) len = (int)sizeof line - 1, line[len - 1] = '\n';
  /* one write per line with O_APPEND: lines of concurrent test processes
   * and threads do not interleave */
  int fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0) return;
  ssize_t w = write(fd, line, (size_t)len);
  (void)w;
  close(fd);
}

__attribute__((constructor)) static void install(void) {
  const char *p = getenv("GSP_TEST_ERROR_LOG");
  if (!p || !*p || strlen(p) >= sizeof log_path) return;
  strcpy(log_path, p);
  gsp__debug_on_error(log_error);
}
