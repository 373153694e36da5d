/* Graph loading, error reporting, output helpers and the progress bar. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

double cli_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cli_say(const cli_ctx *c, const char *fmt, ...) {
  if (c->verbosity < 1) return;
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
}

void cli_verbose(const cli_ctx *c, const char *fmt, ...) {
  if (c->verbosity < 2) return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
}

/* The exit code of a failed library call. */
static int exit_code(gsp_info info) {
  switch (info) {
  case GSP_IO_ERROR:
  case GSP_PARSE_ERROR:
    return CLI_INPUT;
  case GSP_NEGATIVE_CYCLE:
    return CLI_NEG_CYCLE;
  case GSP_NO_DEVICE:
    return CLI_UNAVAILABLE;
  default:
    return CLI_FAILURE;
  }
}

int cli_fail(const char *cmd, const char *what, gsp_info info) {
  fprintf(stderr, "gsp %s: %s: %s\n  %s\n", cmd, what, gsp_strerror(info), gsp_last_error());
  return exit_code(info);
}

/* Is the number at msg[at] a vertex of the library's message? Those are
 * the numbers after "source " / "vertex " and those in "a -> b" chains. */
static bool names_vertex(const char *msg, size_t at, size_t end) {
  static const char *const before[] = {"source ", "vertex ", "-> "};
  for (int k = 0; k < 3; k++) {
    size_t n = strlen(before[k]);
    if (at >= n && !strncmp(msg + at - n, before[k], n)) return true;
  }
  return !strncmp(msg + end, " ->", 3);
}

int cli_fail_graph(const char *cmd, const char *what, gsp_info info, const cli_graph *g) {
  /* the library counts vertices from 0; the user knows the file's ids */
  const char *msg = gsp_last_error();
  char buf[4096];
  size_t o = 0, len = strlen(msg);
  bool renumbered = false;
  for (size_t k = 0; k < len && o + 32 < sizeof buf;) {
    bool start = (msg[k] >= '0' && msg[k] <= '9') &&
                 (k == 0 || !((msg[k - 1] >= '0' && msg[k - 1] <= '9') || msg[k - 1] == '.' || msg[k - 1] == ':'));
    if (start) {
      size_t e = k;
      while (e < len && msg[e] >= '0' && msg[e] <= '9') e++;
      if (names_vertex(msg, k, e)) {
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%lld", cli_id(g, (gsp_index)strtoull(msg + k, NULL, 10)));
        renumbered = true;
        k = e;
        continue;
      }
    }
    buf[o++] = msg[k++];
  }
  buf[o] = '\0';
  fprintf(stderr, "gsp %s: %s: %s\n  %s\n", cmd, what, gsp_strerror(info), buf);
  if (renumbered) fprintf(stderr, "  (vertices numbered as in the file)\n");
  return exit_code(info);
}

int cli_setup(const cli_ctx *c, const char *cmd) {
  gsp_info info;
  if ((info = gsp_set_backend(c->backend)) < 0) return cli_fail(cmd, "--backend", info);
  if (c->backend == GSP_BACKEND_CUDA) {
    bool ok = false;
    char desc[256] = "";
    gsp_cuda_available(&ok, desc, sizeof desc);
    if (!ok) {
      fprintf(stderr, "gsp %s: --backend cuda: no usable GPU: %s\n", cmd, desc);
      return CLI_UNAVAILABLE;
    }
  }
  if (c->threads > 0 && (info = gsp_set_threads(c->threads)) < 0) return cli_fail(cmd, "--threads", info);
  return CLI_OK;
}

void cli_progress_start(cli_progress *p, const cli_ctx *c, const char *label) {
  const bool tty = isatty(STDERR_FILENO);
  p->on = c->verbosity >= 1 && (tty || c->progress);
  p->lines = !tty;
  p->label = label;
  p->last = -1;
  p->start = cli_now();
}

void cli_progress_update(double fraction, void *ctx) {
  cli_progress *p = ctx;
  if (!p || !p->on) return;
  if (fraction < 0) fraction = 0;
  if (fraction > 1) fraction = 1;
  int pct = (int)(fraction * 100);
  if (p->lines) { /* a pipe or a file: a line at each tenth */
    if (pct / 10 == p->last / 10 && p->last >= 0) return;
    p->last = pct;
    fprintf(stderr, "%s: %d%% (%.1f s)\n", p->label, pct / 10 * 10, cli_now() - p->start);
    fflush(stderr);
    return;
  }
  if (pct == p->last) return;
  p->last = pct;
  char bar[31];
  int fill = pct * 30 / 100;
  for (int k = 0; k < 30; k++) bar[k] = k < fill ? '#' : '.';
  bar[30] = '\0';
  fprintf(stderr, "\r%-12s [%s] %3d%%  %.1f s", p->label, bar, pct, cli_now() - p->start);
  fflush(stderr);
}

void cli_progress_end(cli_progress *p) {
  if (p->on && !p->lines && p->last >= 0) fprintf(stderr, "\r\033[K");
  p->on = false;
}

int cli_read(cli_ctx *c, const char *cmd, const char *path, gsp_matrix *A, int64_t **ids, gsp_index *nids,
             double *seconds) {
  cli_progress prog;
  cli_progress_start(&prog, c, "reading");
  gsp_read_opts o = c->read;
  o.progress = cli_progress_update;
  o.progress_ctx = &prog;
  double t0 = cli_now();
  gsp_info info = ids ? gsp_matrix_read_ids(A, ids, nids, path, &o) : gsp_matrix_read(A, path, &o);
  cli_progress_end(&prog);
  *seconds = cli_now() - t0;
  if (info >= 0) return CLI_OK;
  int rc = cli_fail(cmd, ids ? "cannot read the graph" : "cannot read the input", info);
  /* the reader's only invalid values are reading options that do not
   * apply to the file's format (--one-based, --remap): a usage error */
  return info == GSP_INVALID_VALUE ? CLI_USAGE : rc;
}

int cli_load(cli_ctx *c, const char *cmd, const char *path, cli_graph *g) {
  memset(g, 0, sizeof *g);
  int rc = cli_read(c, cmd, path, &g->A, &g->ids, &g->nids, &g->seconds);
  if (rc) return rc;
  gsp_matrix_nrows(&g->n, g->A);
  gsp_matrix_nvals(&g->nvals, g->A);
  gsp_matrix_type(&g->type, g->A);
  gsp_index ncols;
  gsp_matrix_ncols(&ncols, g->A);
  if (ncols != g->n) {
    fprintf(stderr, "gsp %s: %s is %" PRIu64 " x %" PRIu64 ", not a square adjacency matrix\n", cmd, path, g->n, ncols);
    cli_graph_free(g);
    return CLI_INPUT;
  }
  cli_verbose(c,
              "read %s: %" PRIu64 " vertices, %" PRIu64 " arcs, %s, "
              "%.3f s\n",
              path, g->n, g->nvals, cli_type_name(g->type), g->seconds);
  return CLI_OK;
}

int cli_start(cli_ctx *c, const char *cmd, cli_out *out, const char *out_path, cli_graph *g) {
  int rc = cli_setup(c, cmd);
  if (!rc && out) rc = cli_out_open(out, cmd, out_path);
  if (rc) return rc;
  if ((rc = cli_load(c, cmd, c->pos[0], g)) && out) cli_out_abort(out);
  return rc;
}

void cli_graph_free(cli_graph *g) {
  gsp_matrix_free(&g->A);
  free(g->ids);
  g->ids = NULL;
}

bool cli_vertex(const char *cmd, const cli_graph *g, const char *s, gsp_index *v) {
  char *end;
  errno = 0;
  long long id = strtoll(s, &end, 10);
  if (errno || end == s || *end != '\0') {
    fprintf(stderr, "gsp %s: vertex '%s' is not an integer\n", cmd, s);
    return false;
  }
  for (gsp_index k = 0; k < g->nids; k++)
    if (g->ids[k] == id) {
      *v = k;
      return true;
    }
  if (!g->ids && id >= 0 && (gsp_index)id < g->n) {
    *v = (gsp_index)id;
    return true;
  }
  if (g->nids > 0)
    fprintf(stderr,
            "gsp %s: vertex %lld is not in the graph (ids %lld..%lld "
            "as in the file)\n",
            cmd, id, (long long)g->ids[0], (long long)g->ids[g->nids - 1]);
  else fprintf(stderr, "gsp %s: vertex %lld is not in the graph\n", cmd, id);
  return false;
}

void cli_value_str(char *buf, size_t len, gsp_type t, const void *x) {
  switch (t) {
  case GSP_BOOL:
    snprintf(buf, len, "%s", *(const bool *)x ? "true" : "false");
    break;
  case GSP_INT32:
    snprintf(buf, len, "%" PRId32, *(const int32_t *)x);
    break;
  case GSP_INT64:
    snprintf(buf, len, "%" PRId64, *(const int64_t *)x);
    break;
  case GSP_FP32:
    snprintf(buf, len, "%.9g", (double)*(const float *)x);
    break;
  case GSP_FP64:
    snprintf(buf, len, "%.17g", *(const double *)x);
    break;
  }
}

int cli_prepare(const cli_ctx *c, const char *cmd, cli_graph *g, gsp_semiring s) {
  gsp_matrix B = NULL;
  gsp_info info = GSP_SUCCESS;
  if (s == GSP_OR_AND && g->type != GSP_BOOL) {
    info = gsp_matrix_pattern(&B, g->A); /* reachability: structure only */
    cli_verbose(c, "or-and: using the structure of the %s graph\n", cli_type_name(g->type));
  } else if (s != GSP_OR_AND && g->type == GSP_BOOL) {
    info = gsp_matrix_cast(&B, g->A, GSP_INT32); /* unweighted: hop counts */
    cli_verbose(c, "unweighted graph: every arc weighs 1 (int32)\n");
  } else {
    return CLI_OK;
  }
  if (info < 0) return cli_fail(cmd, "cannot convert the graph", info);
  gsp_matrix_free(&g->A);
  g->A = B;
  gsp_matrix_type(&g->type, g->A);
  return CLI_OK;
}

/* Print a vertex sequence with file ids; long paths are abbreviated unless
 * verbose. */
void cli_print_path(const cli_ctx *c, const cli_graph *g, const gsp_index *p, gsp_index len) {
  bool cut = len > 24 && c->verbosity < 2;
  for (gsp_index k = 0; k < len; k++) {
    if (cut && k == 10) {
      printf(" -> ... (%llu more) ...", (unsigned long long)(len - 20));
      k = len - 10;
    }
    printf("%s%lld", k ? " -> " : "  ", cli_id(g, p[k]));
  }
  printf("\n");
}

int cli_run(const cli_command *cmd, int argc, char **argv) {
  cli_ctx c;
  int rc = cli_parse(&c, argc, argv, cmd);
  if (rc) return rc;
  if (c.help) {
    cli_usage(stdout, cmd);
    return CLI_OK;
  }
  if (c.npos != cmd->npos) {
    fprintf(stderr, "gsp %s: expected %s (see gsp %s --help)\n", c.cmd, cmd->what, c.cmd);
    return CLI_USAGE;
  }
  return cli_out_settle(cmd->run(&c, c.cmd), c.cmd);
}

double cli_value_at(gsp_type t, const void *x, size_t k) {
  switch (t) {
  case GSP_BOOL:
    return ((const bool *)x)[k];
  case GSP_INT32:
    return ((const int32_t *)x)[k];
  case GSP_INT64:
    return (double)((const int64_t *)x)[k];
  case GSP_FP32:
    return ((const float *)x)[k];
  default:
    return ((const double *)x)[k];
  }
}

bool cli_sssp_method_parse(const char *cmd, const char *s, cli_sssp_method *out) {
  static const cli_name methods[] = {{"auto", CLI_SSSP_AUTO},       {"library", CLI_SSSP_LIBRARY},
                                     {"vxm", CLI_SSSP_VXM},         {"bellman-ford", CLI_SSSP_BELLMAN_FORD},
                                     {"bf", CLI_SSSP_BELLMAN_FORD}, {NULL, 0}};
  int m = CLI_SSSP_AUTO;
  if (s && !cli_choice(cmd, "method", s, methods, &m)) return false;
  *out = (cli_sssp_method)m;
  return true;
}
