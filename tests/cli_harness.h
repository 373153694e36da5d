/* What the `gsp` command-line suites (test_cli*.c) share: a scratch folder
 * per process, files in it, and runs of the built binary (GSP_CLI_PATH)
 * through the shell with stdout and stderr captured. */
#ifndef GSP_CLI_HARNESS_H
#define GSP_CLI_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>

extern char dir[256];                   /* the scratch folder */
extern char out[1 << 16], err[1 << 16]; /* the last run's stdout and stderr */
extern const char *cli_cwd;             /* where gsp() runs (default: dir) */

/* Make /tmp/gsp_<suite>_<pid> (the suite's .init) and remove it (.fini). */
void cli_harness_setup(const char *suite);
void cli_harness_teardown(void);

/* dir/name, in one of 8 rotating buffers. */
const char *tmp(const char *name);
/* The file at path into buf (NUL-terminated, at most len - 1 bytes; empty
 * when missing); the bytes read. */
size_t slurp(const char *path, char *buf, size_t len);
/* Write text to the file at path (the test fails when it cannot). */
void put(const char *path, const char *text);

/* Resource limits of the child: 0 = none. */
typedef struct {
  rlim_t as, fsize;
} cli_limits;

/* Run the shell line (printf-style) in dir, every word GSP in it standing
 * for the binary; the exit code, or 128 + signal. */
int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Run `gsp ARGS` (shell syntax, stdin /dev/null) in cli_cwd. */
int gsp(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* As gsp, in dir, with the limits set between fork and exec. */
int gsp_lim(cli_limits lim, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* GSP_CLI_HARNESS_H */
