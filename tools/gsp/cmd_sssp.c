/* gsp sssp: shortest distances from one source: the library's gsp_sssp, or
 * for graphs with negative weights the Bellman-Ford frontier loop of
 * gsp_vxm on min-plus (cli_sssp.c). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char synopsis[] = "gsp sssp [options] --source V GRAPH";
static const char description[] = "Shortest distances from one source on min-plus. By default the "
                                  "library's\ngsp_sssp; when the graph has a negative weight (or with "
                                  "--method\nbellman-ford) the library's gsp_bellman_ford; with --method vxm "
                                  "a Bellman-Ford\nloop over a frontier of improved vertices composed from "
                                  "gsp_vxm with masks.\nA negative cycle reachable from the source gives "
                                  "exit code 5 (gsp negcycle\nprints one). Unweighted graphs count arcs.";

/* --tree-cutoff X into *cut; false (message printed) unless a distance. */
static bool tree_cutoff(const char *cmd, const char *tc, double *cut) {
  if (!cli_double(cmd, "tree-cutoff", tc, cut)) return false;
  if (!(*cut >= 0)) { /* a distance: NaN and negatives draw nothing */
    fprintf(stderr, "gsp %s: --tree-cutoff %s: expected a distance >= 0\n", cmd, tc);
    return false;
  }
  return true;
}

/* The reached vertices and their distances (*I, *X: *cnt of them). */
static int read_distances(const char *cmd, gsp_vector d, gsp_type t, gsp_index **I, void **X, gsp_index *cnt) {
  gsp_index nv = 0;
  gsp_vector_nvals(&nv, d);
  *I = malloc((nv + 1) * sizeof **I);
  *X = malloc((nv + 1) * gsp_type_size(t));
  if (!*I || !*X) return CLI_FAILURE;
  *cnt = nv;
  gsp_info info = gsp_vector_extract_tuples(*I, *X, cnt, d);
  return info < 0 ? cli_fail(cmd, "cannot read the distances", info) : CLI_OK;
}

/* The farthest reached vertex (src when none is farther than 0), its
 * distance in *best. */
static gsp_index farthest(gsp_type t, const gsp_index *I, const void *X, gsp_index cnt, gsp_index src, double *best) {
  gsp_index far = src;
  *best = 0;
  for (gsp_index k = 0; k < cnt; k++) {
    const double x = cli_value_at(t, X, k);
    if (x > *best) *best = x, far = I[k];
  }
  return far;
}

/* --to: the distance and path src -> dst (d NULL: dst unreachable). */
static int print_to(const cli_ctx *c, const cli_graph *g, gsp_vector d, gsp_index src, gsp_index dst,
                    const gsp_index *path, gsp_index len) {
  int64_t vb[1];
  char val[64];
  if (!d || gsp_vector_extract_element(vb, d, dst) != GSP_SUCCESS) {
    printf("no path from %lld to %lld\n", cli_id(g, src), cli_id(g, dst));
    return CLI_NO_PATH;
  }
  cli_value_str(val, sizeof val, g->type, vb);
  printf("distance %lld -> %lld: %s, %llu vertices\n", cli_id(g, src), cli_id(g, dst), val, (unsigned long long)len);
  cli_print_path(c, g, path, len);
  return CLI_OK;
}

/* -o: "vertex distance" lines of the reached vertices. */
static int write_distances(const cli_ctx *c, const char *cmd, cli_out *dout, const cli_graph *g, gsp_index src,
                           const gsp_index *I, const void *X, gsp_index cnt) {
  FILE *out = cli_out_stream(dout, cmd);
  if (!out) return CLI_OUTPUT;
  fprintf(out, "# shortest distances from vertex %lld in %s\n# vertex distance\n", cli_id(g, src), c->pos[0]);
  const size_t ts = gsp_type_size(g->type);
  for (gsp_index k = 0; k < cnt && !ferror(out); k++) {
    char val[64];
    cli_value_str(val, sizeof val, g->type, (const char *)X + k * ts);
    fprintf(out, "%lld %s\n", cli_id(g, I[k]), val);
  }
  return cli_out_commit(dout, cmd);
}

static int run(cli_ctx *c, const char *cmd) {
  int rc;
  const char *src_s = cli_get(c, "source");
  if (!src_s) {
    fprintf(stderr, "gsp %s: expected --source V and one GRAPH file (see gsp %s --help)\n", cmd, cmd);
    return CLI_USAGE;
  }
  cli_out dout;
  cli_graph g;
  if ((rc = cli_start(c, cmd, &dout, c->output, &g))) return rc;
  gsp_vector d = NULL;
  gsp_index *path = NULL, *I = NULL;
  void *X = NULL;
  cli_map map = {0};
  gsp_index src, dst = 0;
  const char *to = cli_get(c, "to");
  if (!cli_vertex(cmd, &g, src_s, &src) || (to && !cli_vertex(cmd, &g, to, &dst))) {
    rc = CLI_USAGE;
    goto done;
  }
  if ((rc = cli_prepare(c, cmd, &g, GSP_MIN_PLUS))) goto done;
  double tree_cut = 0;
  const char *tc = cli_get(c, "tree-cutoff");
  if (tc && !tree_cutoff(cmd, tc, &tree_cut)) {
    rc = CLI_USAGE;
    goto done;
  }
  if ((rc = cli_map_open(c, cmd, &g, &map))) goto done;
  cli_sssp_method method = CLI_SSSP_AUTO;
  if (!cli_sssp_method_parse(cmd, cli_get(c, "method"), &method)) {
    rc = CLI_USAGE;
    goto done;
  }
  cli_progress prog;
  cli_progress_start(&prog, c, "sssp");
  int iters = 0;
  const char *used = "";
  gsp_index len = 0;
  double t0 = cli_now();
  gsp_info info = cli_shortest(&d, to ? &path : NULL, &len, g.A, src, dst, method, c->backend, &used, &iters, &prog);
  double secs = cli_now() - t0;
  cli_progress_end(&prog);
  bool unreachable = info == GSP_NO_VALUE;
  if (info < 0) {
    rc = cli_fail_graph(
        cmd, info == GSP_NEGATIVE_CYCLE ? "a negative cycle is reachable from the source" : "sssp failed", info, &g);
    goto done;
  }
  gsp_index cnt = 0;
  if ((rc = read_distances(cmd, d, g.type, &I, &X, &cnt))) goto done;
  double best = 0;
  const gsp_index far = farthest(g.type, I, X, cnt, src, &best);
  cli_say(c, "graph: %s: %" PRIu64 " vertices, %" PRIu64 " arcs, %s\n", c->pos[0], g.n, g.nvals, cli_type_name(g.type));
  if (iters > 0) cli_say(c, "sssp from %lld: %.3f s, %d rounds (%s)\n", cli_id(&g, src), secs, iters, used);
  else cli_say(c, "sssp from %lld: %.3f s (%s)\n", cli_id(&g, src), secs, used);
  cli_say(c,
          "reached %" PRIu64 " of %" PRIu64 " vertices; farthest %lld at "
          "%.17g\n",
          cnt, g.n, cli_id(&g, far), best);
  if (to) rc = print_to(c, &g, unreachable ? NULL : d, src, dst, path, len);
  if (c->output) {
    const int wrc = write_distances(c, cmd, &dout, &g, src, I, X, cnt);
    if (wrc) rc = wrc;
    if (wrc == CLI_OUTPUT) goto done; /* the file failed: no map either */
  }
  if (map.on) {
    int mrc = cli_map_tree(c, cmd, &g, &map, src, I, X, cnt, tc ? &tree_cut : NULL, rc ? NULL : path, len);
    if (mrc) rc = mrc;
  }
done:
  cli_out_abort(&dout); /* not committed: an error came first */
  cli_map_free(&map);
  free(path);
  free(I);
  free(X);
  gsp_vector_free(&d);
  cli_graph_free(&g);
  return rc;
}

static const cli_opt opts[] = {
    {"source", 's', OPT_VALUE, "V  source vertex (file id; required)"},
    {"to", 0, OPT_VALUE, "V  also print the distance and path to V"},
    {"output", 'o', OPT_VALUE, "FILE  write \"vertex distance\" lines for every reached vertex"},
    {"method", 'm', OPT_VALUE,
     "M  auto (gsp_sssp; gsp_bellman_ford when a weight is negative), library, vxm, bellman-ford"},
    {"tree-cutoff", 0, OPT_VALUE, "X  --geojson/--svg: only the vertices at distance <= X"},
    {NULL, 0, OPT_FLAG, NULL}};

const cli_command cmd_sssp = {synopsis, description, opts, true, true, 1, "--source V and one GRAPH file", run};
