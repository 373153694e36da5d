/* Output files of the command line: opened (and so checked) before any
 * computation, written to a temporary, and committed whole or not at all;
 * temporaries are removed when the process is interrupted or exits early. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Who owns the temporaries: IDLE, SETTLING (cli_out_settle renames them)
 * or DYING (a signal handler removes them). A signal may run its handler
 * on any thread (OpenMP workers do not block it), so blocking it in the
 * settling thread is not enough: the handler defers to a settle under way,
 * and a settle waits for a handler that came first. Lock-free atomics are
 * async-signal-safe. */
enum { IDLE, SETTLING, DYING };
static atomic_int owner = IDLE;
static volatile sig_atomic_t deferred; /* the signal that came while settling */

static void die_of(int sig) {
  gsp_output_remove_temporaries(); /* unlink only: async-signal-safe */
  signal(sig, SIG_DFL);
  raise(sig);
}

static void on_signal(int sig) {
  int idle = IDLE;
  if (atomic_compare_exchange_strong(&owner, &idle, DYING)) die_of(sig);
  else if (idle == SETTLING) deferred = sig; /* cli_out_settle raises it */
  else
    for (;;) pause(); /* another handler is ending the process */
}

/* Whatever was not committed when the process ends is not a result. */
static void at_exit(void) {
  gsp_output_remove_temporaries();
}

/* Outputs whose data is complete, waiting for the command to end: renamed
 * together by cli_out_settle, so a command with several outputs replaces
 * all of them or none (a full disk on the second leaves the first old). */
#define PENDING_MAX 8
static gsp_output pending[PENDING_MAX];
static int npending;

void cli_output_cleanup_install(void) {
  /* a write over RLIMIT_FSIZE fails with EFBIG like a full disk instead of
   * killing the process with its temporaries left behind */
  signal(SIGXFSZ, SIG_IGN);
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
  gsp_output_abort(&o->f); /* the temporary removed, the target untouched */
  o->open = false;
  return info == GSP_OUT_OF_MEMORY ? CLI_FAILURE : CLI_OUTPUT;
}

int cli_out_open(cli_out *o, const char *cmd, const char *path) {
  memset(o, 0, sizeof *o);
  o->path = path;
  if (!path) return CLI_OK;
  gsp_info info = gsp_output_open(&o->f, path);
  if (info < 0) return out_error(o, cmd, info);
  o->open = true;
  return CLI_OK;
}

FILE *cli_out_stream(cli_out *o, const char *cmd) {
  FILE *f = NULL;
  gsp_info info = gsp_output_stream(&f, o->f);
  if (info < 0) {
    out_error(o, cmd, info);
    return NULL;
  }
  return f;
}

int cli_out_commit(cli_out *o, const char *cmd) {
  if (!o->open) return CLI_OK;
  gsp_info info = npending < PENDING_MAX ? gsp_output_finish(o->f) : gsp_output_commit(&o->f);
  if (info < 0) return out_error(o, cmd, info);
  if (npending < PENDING_MAX) pending[npending++] = o->f; /* renamed by cli_out_settle */
  o->f = NULL;
  o->open = false;
  return CLI_OK;
}

int cli_out_settle(int rc, const char *cmd) {
  /* a result (0) or an answer (6, no path) keeps its outputs */
  bool keep = rc == CLI_OK || rc == CLI_NO_PATH;
  sigset_t all, old;
  sigemptyset(&all);
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
  for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++) sigaddset(&all, sigs[k]);
  /* the renames run back to back; a signal waits until they are done */
  sigprocmask(SIG_BLOCK, &all, &old);
  int idle = IDLE;
  if (!atomic_compare_exchange_strong(&owner, &idle, SETTLING))
    for (;;) pause(); /* a signal handler is removing the temporaries */
  for (int k = 0; k < npending; k++) {
    gsp_info info = keep ? gsp_output_commit(&pending[k]) : (gsp_output_abort(&pending[k]), GSP_SUCCESS);
    if (info < 0) {
      fprintf(stderr, "gsp %s: cannot write the output: %s\n  %s\n", cmd, gsp_strerror(info), gsp_last_error());
      rc = CLI_OUTPUT;
      keep = false;
    }
  }
  npending = 0;
  atomic_store(&owner, IDLE);
  sigprocmask(SIG_SETMASK, &old, NULL);
  /* a signal that came during the renames ends the process now */
  if (deferred && atomic_exchange(&owner, DYING) == IDLE) die_of(deferred);
  return rc;
}

void cli_out_abort(cli_out *o) {
  if (o->open) gsp_output_abort(&o->f);
  o->open = false;
}

int cli_out_matrix(cli_out *o, const char *cmd, gsp_matrix M, gsp_file_format f, const void *absent,
                   const char *comment) {
  if (!o->open) return CLI_OK;
  gsp_write_opts w = {.format = f, .absent = absent, .comment = comment};
  o->open = false;
  gsp_info info = gsp_matrix_write_output(o->f, M, &w); /* finishes, or removes the temporary */
  if (info < 0) return out_error(o, cmd, info);
  o->open = true;
  return cli_out_commit(o, cmd);
}
