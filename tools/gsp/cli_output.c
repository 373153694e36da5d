/* Output files of the command line: opened (and so checked) before any
 * computation, written to a temporary, and committed whole or not at all;
 * temporaries are removed when the process is interrupted or exits early. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void on_signal(int sig) {
  gsp__remove_temporaries(); /* unlink only: async-signal-safe */
  signal(sig, SIG_DFL);
  raise(sig);
}

/* Whatever was not committed when the process ends is not a result. */
static void at_exit(void) {
  gsp__remove_temporaries();
}

void cli_output_cleanup_install(void) {
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
  for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    struct sigaction old;
    /* a signal the caller ignores (nohup) stays ignored */
    if (sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sigs[k], &sa, NULL);
  }
  atexit(at_exit);
}

static int out_error(cli_out *o, const char *cmd, gsp_info info) {
  fprintf(stderr, "gsp %s: cannot write %s: %s\n  %s\n", cmd, o->path ? o->path : "the output", gsp_strerror(info),
          gsp_last_error());
  o->open = false;
  return info == GSP_OUT_OF_MEMORY ? CLI_FAILURE : CLI_OUTPUT;
}

int cli_out_open(cli_out *o, const char *cmd, const char *path) {
  memset(o, 0, sizeof *o);
  o->path = path;
  if (!path) return CLI_OK;
  gsp_info info = gsp__ofile_open(&o->f, path);
  if (info < 0) return out_error(o, cmd, info);
  o->open = true;
  return CLI_OK;
}

FILE *cli_out_stream(cli_out *o, const char *cmd) {
  FILE *f = NULL;
  gsp_info info = gsp__ofile_stream(&o->f, &f);
  if (info < 0) {
    gsp__ofile_abort(&o->f);
    out_error(o, cmd, info);
    return NULL;
  }
  return f;
}

int cli_out_commit(cli_out *o, const char *cmd) {
  if (!o->open) return CLI_OK;
  o->open = false;
  gsp_info info = gsp__ofile_commit(&o->f);
  return info < 0 ? out_error(o, cmd, info) : CLI_OK;
}

void cli_out_abort(cli_out *o) {
  if (o->open) gsp__ofile_abort(&o->f);
  o->open = false;
}

int cli_out_matrix(cli_out *o, const char *cmd, gsp_matrix M, gsp_file_format f, const void *absent,
                   const char *comment) {
  if (!o->open) return CLI_OK;
  gsp_write_opts w = {.format = f, .absent = absent, .comment = comment};
  o->open = false;
  gsp_info info = gsp__matrix_write_to(&o->f, M, &w); /* commits or aborts */
  return info < 0 ? out_error(o, cmd, info) : CLI_OK;
}
