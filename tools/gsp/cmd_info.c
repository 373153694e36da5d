/* gsp info: size, degrees, weights and structure of a graph. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char synopsis[] = "gsp info [options] GRAPH";
static const char description[] = "Describe GRAPH: vertices, arcs, self-loops, out/in-degree statistics, "
                                  "isolated\nvertices, weight range, negative and zero-weight arcs, and "
                                  "whether it is\nsymmetric (undirected).";

/* Whether A' has the same CSR arrays as A (rp, ci, x): an undirected graph. */
static bool symmetric(const cli_graph *g, const gsp_index *rp, const gsp_index *ci, const void *x) {
  const gsp_index n = g->n, m = g->nvals;
  const size_t ts = gsp_type_size(g->type);
  gsp_matrix T = NULL;
  gsp_index *trp = malloc((n + 1) * sizeof *trp), *tci = malloc((m + 1) * sizeof *tci);
  void *tx = malloc((m + 1) * ts);
  const bool sym = trp && tci && tx && gsp_matrix_transpose(&T, g->A) == GSP_SUCCESS &&
                   gsp_matrix_export_csr(trp, tci, tx, T) == GSP_SUCCESS && !memcmp(rp, trp, (n + 1) * sizeof *rp) &&
                   !memcmp(ci, tci, m * sizeof *ci) && !memcmp(x, tx, m * ts);
  free(trp), free(tci), free(tx);
  gsp_matrix_free(&T);
  return sym;
}

static int run(cli_ctx *c, const char *cmd) {
  cli_graph g;
  int rc = cli_start(c, cmd, NULL, NULL, &g);
  if (rc) return rc;
  gsp_index n = g.n, m = g.nvals;
  size_t ts = gsp_type_size(g.type);
  gsp_index *rp = malloc((n + 1) * sizeof *rp), *ci = malloc((m + 1) * sizeof *ci);
  gsp_index *indeg = calloc(n + 1, sizeof *indeg);
  void *x = malloc((m + 1) * ts);
  gsp_info info;
  if (!rp || !ci || !indeg || !x) {
    rc = CLI_FAILURE;
    goto done;
  }
  if ((info = gsp_matrix_export_csr(rp, ci, x, g.A)) < 0) {
    rc = cli_fail(cmd, "export", info);
    goto done;
  }
  gsp_index loops = 0, isolated = 0, neg = 0, zero = 0, maxout = 0, maxin = 0;
  gsp_index argout = 0, argin = 0, sinks = 0, sources = 0;
  double wmin = INFINITY, wmax = -INFINITY;
  for (gsp_index i = 0; i < n; i++) {
    gsp_index d = rp[i + 1] - rp[i];
    if (d > maxout) maxout = d, argout = i;
    for (gsp_index k = rp[i]; k < rp[i + 1]; k++) {
      indeg[ci[k]]++;
      if (ci[k] == i) loops++;
      double w = cli_value_at(g.type, x, k);
      if (w < wmin) wmin = w;
      if (w > wmax) wmax = w;
      neg += w < 0;
      zero += w == 0;
    }
  }
  for (gsp_index i = 0; i < n; i++) {
    gsp_index d = rp[i + 1] - rp[i];
    if (indeg[i] > maxin) maxin = indeg[i], argin = i;
    isolated += d == 0 && indeg[i] == 0;
    sinks += d == 0 && indeg[i] > 0;
    sources += d > 0 && indeg[i] == 0;
  }
  const bool sym = symmetric(&g, rp, ci, x);
  printf("file:        %s (read in %.3f s)\n", c->pos[0], g.seconds);
  printf("type:        %s\n", cli_type_name(g.type));
  printf("vertices:    %" PRIu64 "\n", n);
  printf("arcs:        %" PRIu64 " (%s%" PRIu64 " self-loops)\n", m,
         sym ? "symmetric: undirected graph, " : "directed, ", loops);
  printf("out-degree:  mean %.3f, max %" PRIu64 " (vertex %lld)\n", n ? (double)m / (double)n : 0.0, maxout,
         cli_id(&g, argout));
  printf("in-degree:   max %" PRIu64 " (vertex %lld)\n", maxin, cli_id(&g, argin));
  printf("isolated:    %" PRIu64 ", sources only: %" PRIu64 ", sinks only: %" PRIu64 "\n", isolated, sources, sinks);
  if (g.type != GSP_BOOL && m > 0) {
    printf("weights:     %.17g .. %.17g\n", wmin, wmax);
    printf("negative:    %" PRIu64 " arcs%s\n", neg, neg ? " (min-plus closure may find negative cycles)" : "");
    printf("zero:        %" PRIu64 " arcs\n", zero);
  }
  printf("density:     %.3g\n", n ? (double)m / ((double)n * (double)n) : 0.0);
  printf("dense APSP:  %.3g MB of %s (n^2 values)\n", (double)n * (double)n * (double)ts / 1e6, cli_type_name(g.type));
done:
  free(rp);
  free(ci);
  free(indeg);
  free(x);
  cli_graph_free(&g);
  return rc;
}

static const cli_opt opts[] = {{NULL, 0, OPT_FLAG, NULL}};

const cli_command cmd_info = {synopsis, description, opts, true, false, 1, "one GRAPH file", run};
