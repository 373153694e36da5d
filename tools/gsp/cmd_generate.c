/* gsp generate: write a generated graph to a file. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char synopsis[] = "gsp generate KIND [options] -o FILE\n"
                               "       KIND: random | rmat | grid | ring | complete | dag";
static const char description[] = "Generate a graph, deterministic from --seed, with integer weights drawn "
                                  "uniformly\nfrom [wmin, wmax]:\n"
                                  "  random    --n N --m M: exactly M distinct random arcs (DIMACS "
                                  "challenge style)\n"
                                  "  rmat      --scale S --edgefactor E: R-MAT / Kronecker (Graph500 "
                                  "parameters)\n"
                                  "  grid      --rows R --cols C: road-like 4-neighbour grid, both "
                                  "directions\n"
                                  "  ring      --n N [--undirected]: cycle 0 -> 1 -> ... -> N-1 -> 0\n"
                                  "  complete  --n N: every arc i -> j, i != j\n"
                                  "  dag       --n N --m M: M random arcs i -> j with i < j";

static bool get_int(const cli_ctx *c, const char *cmd, const char *name, int64_t lo, int64_t hi, int64_t def,
                    int64_t *out) {
  const char *v = cli_get(c, name);
  if (!v) {
    if (def < lo) {
      fprintf(stderr, "gsp %s: --%s is required for this kind\n", cmd, name);
      return false;
    }
    *out = def;
    return true;
  }
  return cli_int(cmd, name, v, lo, hi, out);
}

static int generate(cli_ctx *cp, const char *cmd, cli_out *out);

static int run(cli_ctx *c, const char *cmd) {
  int rc;
  if (!c->output) {
    fprintf(stderr, "gsp %s: expected -o FILE (see gsp %s --help)\n", cmd, cmd);
    return CLI_USAGE;
  }
  if ((rc = cli_setup(c, cmd))) return rc;
  cli_out out;
  if ((rc = cli_out_open(&out, cmd, c->output))) return rc;
  rc = generate(c, cmd, &out);
  cli_out_abort(&out); /* not committed: an error came first */
  return rc;
}

/* Generate the graph of c->pos[0] and write it to out. */
static int generate(cli_ctx *cp, const char *cmd, cli_out *out) {
  cli_ctx c = *cp;
  int rc;
  const char *kind = c.pos[0];
  gsp_type t = GSP_INT32;
  const char *ts = cli_get(&c, "type");
  if (ts && !cli_type(cmd, ts, &t)) return CLI_USAGE;
  int64_t wmin, wmax, seed, n, m, rows, cols, scale, ef;
  const int64_t MAXN = (int64_t)GSP_INDEX_MAX;
  if (!get_int(&c, cmd, "wmin", INT64_MIN, INT64_MAX, 1, &wmin) ||
      !get_int(&c, cmd, "wmax", INT64_MIN, INT64_MAX, 100, &wmax) || !get_int(&c, cmd, "seed", 0, INT64_MAX, 1, &seed))
    return CLI_USAGE;
  gsp_matrix A = NULL;
  gsp_info info;
  double t0 = cli_now();
  if (!strcmp(kind, "random") || !strcmp(kind, "dag")) {
    if (!get_int(&c, cmd, "n", 0, MAXN, -1, &n) || !get_int(&c, cmd, "m", 0, INT64_MAX, -1, &m)) return CLI_USAGE;
    info = kind[0] == 'r' ? gsp_generate_random(&A, t, (gsp_index)n, (gsp_index)m, wmin, wmax, (uint64_t)seed)
                          : gsp_generate_dag(&A, t, (gsp_index)n, (gsp_index)m, wmin, wmax, (uint64_t)seed);
  } else if (!strcmp(kind, "rmat")) {
    double abc[3] = {0, 0, 0};
    const char *s = cli_get(&c, "abc");
    if (s && sscanf(s, "%lf,%lf,%lf", &abc[0], &abc[1], &abc[2]) != 3) {
      fprintf(stderr, "gsp %s: --abc: expected A,B,C like 0.57,0.19,0.19\n", cmd);
      return CLI_USAGE;
    }
    if (!get_int(&c, cmd, "scale", 0, 30, 10, &scale) || !get_int(&c, cmd, "edgefactor", 0, INT32_MAX, 16, &ef))
      return CLI_USAGE;
    info = gsp_generate_rmat(&A, t, (int)scale, (gsp_index)ef, abc[0], abc[1], abc[2], wmin, wmax, (uint64_t)seed);
  } else if (!strcmp(kind, "grid")) {
    if (!get_int(&c, cmd, "rows", 0, MAXN, -1, &rows) || !get_int(&c, cmd, "cols", 0, MAXN, rows, &cols))
      return CLI_USAGE;
    info = gsp_generate_grid(&A, t, (gsp_index)rows, (gsp_index)cols, wmin, wmax, (uint64_t)seed);
  } else if (!strcmp(kind, "ring") || !strcmp(kind, "complete")) {
    if (!get_int(&c, cmd, "n", 0, MAXN, -1, &n)) return CLI_USAGE;
    info = kind[0] == 'r'
               ? gsp_generate_ring(&A, t, (gsp_index)n, cli_get(&c, "undirected") != NULL, wmin, wmax, (uint64_t)seed)
               : gsp_generate_complete(&A, t, (gsp_index)n, wmin, wmax, (uint64_t)seed);
  } else {
    fprintf(stderr,
            "gsp %s: unknown kind '%s' (random, rmat, grid, ring, "
            "complete, dag)\n",
            cmd, kind);
    return CLI_USAGE;
  }
  if (info < 0) {
    fprintf(stderr, "gsp %s: %s\n  %s\n", cmd, gsp_strerror(info), gsp_last_error());
    return info == GSP_INVALID_VALUE || info == GSP_TOO_LARGE ? CLI_USAGE : CLI_FAILURE;
  }
  double tg = cli_now() - t0;
  gsp_index nv, nr;
  gsp_matrix_nvals(&nv, A);
  gsp_matrix_nrows(&nr, A);
  char note[200];
  snprintf(note, sizeof note, "gsp generate %s, seed %lld, weights %lld..%lld", kind, (long long)seed, (long long)wmin,
           (long long)wmax);
  t0 = cli_now();
  rc = cli_out_matrix(out, cmd, A, c.out_format, NULL, note);
  gsp_matrix_free(&A);
  if (rc) return rc;
  cli_say(&c,
          "%s: %" PRIu64 " vertices, %" PRIu64 " arcs (generated in "
          "%.3f s, written in %.3f s)\n",
          c.output, nr, nv, tg, cli_now() - t0);
  return CLI_OK;
}

static const cli_opt opts[] = {
    {"output", 'o', OPT_VALUE, "FILE  where to write (required; format from the extension or --format)"},
    {"format", 'f', OPT_VALUE, "F  mtx|dimacs|edgelist|dense|npy"},
    {"n", 'n', OPT_VALUE, "N  vertices (random, dag, ring, complete)"},
    {"m", 'm', OPT_VALUE, "M  arcs (random, dag)"},
    {"scale", 0, OPT_VALUE, "S  rmat: 2^S vertices (default 10)"},
    {"edgefactor", 0, OPT_VALUE, "E  rmat: E * 2^S arcs drawn (default 16)"},
    {"abc", 0, OPT_VALUE, "A,B,C  rmat quadrant probabilities (default 0.57,0.19,0.19)"},
    {"rows", 0, OPT_VALUE, "R  grid rows"},
    {"cols", 0, OPT_VALUE, "C  grid columns (default: rows)"},
    {"undirected", 'u', OPT_FLAG, "   ring: arcs both ways"},
    {"wmin", 0, OPT_VALUE, "W  smallest weight (default 1)"},
    {"wmax", 0, OPT_VALUE, "W  largest weight (default 100)"},
    {"seed", 0, OPT_VALUE, "S  random seed (default 1)"},
    {"type", 't', OPT_VALUE, "T  bool|int32|int64|fp32|fp64 (default int32)"},
    {NULL, 0, OPT_FLAG, NULL}};

const cli_command cmd_generate = {synopsis, description, opts, false, false, 1, "KIND and -o FILE", run};
