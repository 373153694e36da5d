/* gsp negcycle: a negative cycle of a graph, through gsp_negative_cycle
 * (Bellman-Ford from a virtual source joined to every vertex). */
#include <stdlib.h>

#include "cli.h"

static const char synopsis[] = "gsp negcycle [options] GRAPH";
static const char description[] = "Look for a negative cycle anywhere in GRAPH (min-plus weights) with "
                                  "Bellman-Ford\nfrom a virtual source joined to every vertex. Prints the "
                                  "cycle (file ids, from\nits smallest vertex, back to it) and its total "
                                  "weight, and exits with code 5;\nprints \"no negative cycle\" and exits "
                                  "with 0 when there is none.";

static int run(cli_ctx *c, const char *cmd) {
  gsp_index *cyc = NULL, len = 0;
  cli_graph g;
  int rc = cli_start(c, cmd, NULL, NULL, &g);
  if (rc) return rc;
  if ((rc = cli_prepare(c, cmd, &g, GSP_MIN_PLUS))) goto done;
  len = g.n ? g.n : 1;
  cyc = malloc((len + 1) * sizeof *cyc);
  if (!cyc) {
    rc = CLI_FAILURE;
    goto done;
  }
  double t0 = cli_now();
  gsp_bf_opts o = {.backend = c->backend};
  gsp_info info = gsp_negative_cycle(cyc, &len, g.A, &o);
  double secs = cli_now() - t0;
  if (info == GSP_NO_VALUE) {
    printf("no negative cycle (%llu vertices, %llu arcs, %.3f s)\n", (unsigned long long)g.n,
           (unsigned long long)g.nvals, secs);
    rc = CLI_OK;
    goto done;
  }
  if (info < 0) {
    rc = cli_fail(cmd, "Bellman-Ford failed", info);
    goto done;
  }
  /* total weight, summed in double from the arcs of the file */
  double total = 0;
  for (gsp_index k = 0; k < len; k++) {
    int64_t x[1];
    gsp_type t = g.type;
    if (gsp_matrix_extract_element(x, g.A, cyc[k], cyc[(k + 1) % len]) == GSP_SUCCESS) total += cli_value_at(t, x, 0);
  }
  cyc[len] = cyc[0]; /* print it closed */
  printf("negative cycle of %llu vertices, weight %.17g (%.3f s):\n", (unsigned long long)len, total, secs);
  cli_print_path(c, &g, cyc, len + 1);
  rc = CLI_NEG_CYCLE;
done:
  free(cyc);
  cli_graph_free(&g);
  return rc;
}

static const cli_opt opts[] = {{NULL, 0, OPT_FLAG, NULL}};

const cli_command cmd_negcycle = {synopsis, description, opts, true, false, 1, "one GRAPH file", run};
