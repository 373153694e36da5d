/* gsp queries: run a DIMACS challenge query file against a graph: a source
 * file (.ss) gives one SSSP per source, a pair file (.p2p) one distance per
 * pair. Results print as DIMACS-like lines (1-based vertices as in the
 * query file). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char synopsis[] = "gsp queries [options] GRAPH QUERIES.ss|QUERIES.p2p";
static const char description[] = "Answer DIMACS shortest-path challenge queries. For a source file "
                                  "(\"p aux sp ss k\",\n\"s v\" lines) print one line per source: \"s <v> "
                                  "<reached> <sum of distances>\n<max distance> <seconds>\"; for a pair "
                                  "file (\"p aux sp p2p k\", \"q u v\" lines)\n\"q <u> <v> <distance>\" "
                                  "(\"none\" when unreachable). Vertices are numbered as in\nthe query "
                                  "file (1-based). The kind is taken from the problem line.";

/* The query file: sources (.ss) or pairs (.p2p), told by its problem
 * line: read as sources first, as pairs where the reader says the file is
 * of the other kind (GSP_INVALID_VALUE). */
static gsp_info read_queries(gsp_index n, const char *path, gsp_index **a, gsp_index **b, gsp_index *k, bool *pairs) {
  gsp_info info = gsp_dimacs_read_sources(a, k, n, path);
  *pairs = false;
  if (info == GSP_INVALID_VALUE) {
    info = gsp_dimacs_read_pairs(a, b, k, n, path);
    *pairs = true;
  }
  return info;
}

/* The "s SOURCE REACHED SUM MAX SECONDS" line of one source's search d
 * (I, X: room for n tuples). */
static int source_line(const char *cmd, FILE *out, const cli_graph *g, gsp_vector d, gsp_index s, gsp_index *I, void *X,
                       double secs) {
  gsp_index cnt = g->n;
  gsp_info info = gsp_vector_extract_tuples(I, X, &cnt, d);
  if (info < 0) return cli_fail(cmd, "cannot read the distances", info);
  double sum = 0, max = 0;
  for (gsp_index j = 0; j < cnt; j++) {
    const double v = cli_value_at(g->type, X, j);
    sum += v;
    if (v > max) max = v;
  }
  fprintf(out, "s %llu %" PRIu64 " %.17g %.17g %.6f\n", (unsigned long long)s + 1, cnt, sum, max, secs);
  return CLI_OK;
}

/* Whether a write failed (a full disk), said once: that ends the run,
 * with nothing more to compute for an output that will not be kept (the
 * output flushed after every source, every 64 pairs). */
static bool write_failed(const char *cmd, const char *path, FILE *out, bool pairs, gsp_index q, gsp_index k) {
  if (!ferror(out) && !((!pairs || q % 64 == 63) && q > 0 && fflush(out) != 0)) return false;
  fprintf(stderr, "gsp %s: cannot write %s: %s (stopped after %llu of %llu queries)\n", cmd,
          path ? path : "standard output", strerror(errno ? errno : EIO), (unsigned long long)q, (unsigned long long)k);
  return true;
}

static int run(cli_ctx *c, const char *cmd) {
  int rc;
  cli_sssp_method method = CLI_SSSP_AUTO;
  if (!cli_sssp_method_parse(cmd, cli_get(c, "method"), &method)) return CLI_USAGE;
  cli_out qout;
  cli_graph g;
  if ((rc = cli_start(c, cmd, &qout, c->output, &g))) return rc;
  gsp_index *a = NULL, *b = NULL, k = 0, *I = NULL;
  void *X = NULL;
  gsp_vector d = NULL;
  FILE *out = stdout;
  if ((rc = cli_prepare(c, cmd, &g, GSP_MIN_PLUS))) goto done;
  bool pairs = false;
  gsp_info info = read_queries(g.n, c->pos[1], &a, &b, &k, &pairs);
  if (info < 0) {
    rc = cli_fail(cmd, "cannot read the queries", info);
    goto done;
  }
  if (c->output && !(out = cli_out_stream(&qout, cmd))) {
    rc = CLI_OUTPUT;
    goto done;
  }
  size_t ts = gsp_type_size(g.type);
  I = malloc((g.n + 1) * sizeof *I);
  X = malloc((g.n + 1) * ts);
  if (!I || !X) {
    rc = CLI_FAILURE;
    goto done;
  }
  const char *used = "";
  double total = 0;
  gsp_index last_src = g.n; /* consecutive pairs from one source share a run */
  for (gsp_index q = 0; q < k; q++) {
    if (write_failed(cmd, c->output, out, pairs, q, k)) {
      rc = CLI_OUTPUT;
      goto done;
    }
    if (!pairs || a[q] != last_src) {
      gsp_vector_free(&d);
      double t0 = cli_now();
      info = cli_shortest(&d, NULL, NULL, g.A, a[q], 0, method, c->backend, &used, NULL, NULL);
      double secs = cli_now() - t0;
      total += secs;
      if (info < 0) {
        /* the library numbers vertices from 0; the file from 1 */
        rc = cli_fail_graph(
            cmd, info == GSP_NEGATIVE_CYCLE ? "a negative cycle is reachable from the source" : "sssp failed", info,
            &g);
        goto done;
      }
      last_src = a[q];
      if (!pairs) {
        if ((rc = source_line(cmd, out, &g, d, a[q], I, X, secs))) goto done;
        continue;
      }
    }
    int64_t vb[1];
    char val[64] = "none";
    if (gsp_vector_extract_element(vb, d, b[q]) == GSP_SUCCESS) cli_value_str(val, sizeof val, g.type, vb);
    fprintf(out, "q %llu %llu %s\n", (unsigned long long)a[q] + 1, (unsigned long long)b[q] + 1, val);
  }
  if (c->output) rc = cli_out_commit(&qout, cmd);
  else if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "gsp %s: cannot write standard output\n", cmd);
    rc = CLI_OUTPUT;
  }
  if (rc) goto done;
  if (c->verbosity >= 1 && out != stdout)
    printf("%llu %s answered in %.3f s (%s)\n", (unsigned long long)k, pairs ? "pairs" : "sources", total, used);
  cli_verbose(c, "%llu queries, %.3f s of SSSP (%s)\n", (unsigned long long)k, total, used);
done:
  cli_out_abort(&qout); /* not committed: an error came first */
  free(a);
  free(b);
  free(I);
  free(X);
  gsp_vector_free(&d);
  cli_graph_free(&g);
  return rc;
}

static const cli_opt opts[] = {{"method", 'm', OPT_VALUE, "M  auto (default), library, vxm: as in gsp sssp"},
                               {"output", 'o', OPT_VALUE, "FILE  write the result lines there instead of stdout"},
                               {NULL, 0, OPT_FLAG, NULL}};

const cli_command cmd_queries = {synopsis, description, opts, true, false, 2, "GRAPH and a .ss or .p2p file", run};
