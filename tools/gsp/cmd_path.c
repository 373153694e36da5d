/* gsp path: one optimal path between two vertices, with its value. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char synopsis[] = "gsp path [options] GRAPH SRC DST";
static const char description[] =
    "Print an optimal path SRC -> DST (file ids) and its value. On min-plus "
    "it runs\nSSSP from SRC: the library's gsp_sssp with parent recording, or, "
    "when a weight\nis negative, gsp_bellman_ford (with --method vxm, a "
    "Bellman-Ford loop of gsp_vxm\nand a walk back along tight arcs). Other semirings (or "
    "--method closure) use the closure\nwith successor recording, which "
    "costs n^3. Exit code 6 when DST is not\nreachable.";

/* --method: a single-source search (*sm) or the closure with successors
 * (*closure, also for the semirings other than min-plus); false (message
 * printed) when it does not fit. */
static bool path_method(const cli_ctx *c, const char *cmd, gsp_semiring s, bool *closure, cli_sssp_method *sm) {
  const char *method = cli_get(c, "method");
  /* "sssp" is auto; "closure" (-1) the closure with successors */
  static const cli_name methods[] = {{"sssp", CLI_SSSP_AUTO},
                                     {"library", CLI_SSSP_LIBRARY},
                                     {"vxm", CLI_SSSP_VXM},
                                     {"bellman-ford", CLI_SSSP_BELLMAN_FORD},
                                     {"bf", CLI_SSSP_BELLMAN_FORD},
                                     {"closure", -1},
                                     {NULL, 0}};
  int m = CLI_SSSP_AUTO;
  if (method && !cli_choice(cmd, "method", method, methods, &m)) return false;
  if (m < 0) *closure = true;
  *sm = m < 0 ? CLI_SSSP_AUTO : (cli_sssp_method)m;
  if (method && strcmp(method, "closure") != 0 && s != GSP_MIN_PLUS) {
    fprintf(stderr, "gsp %s: --method %s works on min-plus only\n", cmd, method);
    return false;
  }
  return true;
}

static int run(cli_ctx *c, const char *cmd) {
  int rc;
  gsp_semiring s = GSP_MIN_PLUS;
  if (c->semiring_name && !cli_semiring(cmd, c->semiring_name, &s)) return CLI_USAGE;
  if (s == GSP_PLUS_TIMES || s == GSP_OR_AND) {
    fprintf(stderr,
            "gsp %s: paths need min-plus, max-plus, max-min or "
            "min-max\n",
            cmd);
    return CLI_USAGE;
  }
  bool closure = s != GSP_MIN_PLUS;
  cli_sssp_method sm = CLI_SSSP_AUTO;
  if (!path_method(c, cmd, s, &closure, &sm)) return CLI_USAGE;
  cli_graph g;
  if ((rc = cli_start(c, cmd, NULL, NULL, &g))) return rc;
  gsp_index src, dst, len = 0, *path = NULL;
  gsp_vector d = NULL;
  gsp_matrix succ = NULL;
  int64_t vb[1];
  gsp_info info;
  cli_map map = {0};
  if (!cli_vertex(cmd, &g, c->pos[1], &src) || !cli_vertex(cmd, &g, c->pos[2], &dst)) {
    rc = CLI_USAGE;
    goto done;
  }
  if ((rc = cli_prepare(c, cmd, &g, s))) goto done;
  if ((rc = cli_map_open(c, cmd, &g, &map))) goto done;
  double t0 = cli_now();
  const char *used = "closure";
  if (!closure) {
    info = cli_shortest(&d, &path, &len, g.A, src, dst, sm, c->backend, &used, NULL, NULL);
    if (info < 0) {
      rc = cli_fail_graph(cmd, "sssp failed", info, &g);
      goto done;
    }
    if (info == GSP_SUCCESS) info = gsp_vector_extract_element(vb, d, dst);
  } else {
    gsp_closure_opts co = {.backend = c->backend};
    info = gsp_closure_ext(g.A, &succ, s, &co);
    if (info < 0) {
      rc = cli_fail_graph(cmd, "closure failed", info, &g);
      goto done;
    }
    len = g.n ? g.n : 1;
    path = malloc(len * sizeof *path);
    if (!path) {
      rc = CLI_FAILURE;
      goto done;
    }
    info = gsp_path_from_succ(path, &len, succ, src, dst);
    if (info == GSP_SUCCESS) info = gsp_matrix_extract_element(vb, g.A, src, dst);
  }
  double secs = cli_now() - t0;
  if (info == GSP_NO_VALUE) {
    printf("no path from %lld to %lld\n", cli_id(&g, src), cli_id(&g, dst));
    rc = CLI_NO_PATH;
    goto done;
  }
  if (info < 0) {
    rc = cli_fail_graph(cmd, "cannot find the path", info, &g);
    goto done;
  }
  char val[64];
  cli_value_str(val, sizeof val, g.type, vb);
  printf("path %lld -> %lld: value %s, %llu vertices (%s, %.3f s)\n", cli_id(&g, src), cli_id(&g, dst), val,
         (unsigned long long)len, used, secs);
  for (gsp_index k = 0; k < len; k++) /* in full: it is the answer */
    printf("%s%lld", k ? " -> " : "  ", cli_id(&g, path[k]));
  printf("\n");
  rc = cli_map_path(c, cmd, &g, &map, path, len, val, s == GSP_MIN_PLUS ? "distance" : "value");
done:
  cli_map_free(&map);
  free(path);
  gsp_vector_free(&d);
  gsp_matrix_free(&succ);
  cli_graph_free(&g);
  return rc;
}

static const cli_opt opts[] = {
    CLI_OPT_SEMIRING(),
    {"method", 'm', OPT_VALUE,
     "M  sssp (default for min-plus: gsp_sssp, or gsp_bellman_ford for negative weights), library, vxm, bellman-ford, closure"},
    {NULL, 0, OPT_FLAG, NULL}};

const cli_command cmd_path = {synopsis, description, opts, true, true, 3, "GRAPH SRC DST", run};
