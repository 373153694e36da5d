/* gsp convert: read a graph in one format, write it in another. */
#include <inttypes.h>
#include <string.h>

#include "cli.h"

static const char synopsis[] = "gsp convert [options] IN OUT";
static const char description[] = "Convert between Matrix Market, DIMACS .gr, edge lists, gsp dense (.gspd) "
                                  "and\nNumPy .npy; a \".gz\" suffix compresses. Reading options (--type, "
                                  "--symmetrize,\n--remap, ...) apply on the way.";

/* Whether OUT is written as DIMACS: --format, else a .gr or .dimacs name
 * (".gz" dropped), as gsp_matrix_write decides. */
static bool dimacs_out(gsp_file_format f, const char *path) {
  if (f != GSP_FILE_AUTO) return f == GSP_FILE_DIMACS;
  size_t n = strlen(path);
  if (n > 3 && !strcmp(path + n - 3, ".gz")) n -= 3;
  return (n > 3 && !strncmp(path + n - 3, ".gr", 3)) || (n > 7 && !strncmp(path + n - 7, ".dimacs", 7));
}

static int run(cli_ctx *c, const char *cmd) {
  int rc = cli_setup(c, cmd);
  cli_out out;
  if (!rc) rc = cli_out_open(&out, cmd, c->pos[1]);
  if (rc) return rc;
  gsp_matrix A = NULL;
  double tr;
  if ((rc = cli_read(c, cmd, c->pos[0], &A, NULL, NULL, &tr))) {
    cli_out_abort(&out);
    return rc;
  }
  double t0 = cli_now();
  gsp_index nv = 0, nr = 0, nc = 0;
  gsp_matrix_nvals(&nv, A);
  gsp_matrix_nrows(&nr, A);
  gsp_matrix_ncols(&nc, A);
  if (nr != nc && dimacs_out(c->out_format, c->pos[1])) {
    /* the input's shape, not the output file, is the problem */
    fprintf(stderr,
            "gsp %s: %s is %" PRIu64 " x %" PRIu64 "; a DIMACS graph must be square (write mtx, edgelist, "
            "dense or npy)\n",
            cmd, c->pos[0], nr, nc);
    cli_out_abort(&out);
    gsp_matrix_free(&A);
    return CLI_INPUT;
  }
  rc = cli_out_matrix(&out, cmd, A, c->out_format, NULL, NULL);
  gsp_matrix_free(&A);
  if (rc) return rc;
  cli_say(c,
          "%s -> %s: %" PRIu64 " x %" PRIu64 ", %" PRIu64 " entries "
          "(read %.3f s, write %.3f s)\n",
          c->pos[0], c->pos[1], nr, nc, nv, tr, cli_now() - t0);
  return CLI_OK;
}

static const cli_opt opts[] = {
    {"format", 'f', OPT_VALUE, "F  output format mtx|dimacs|edgelist|dense|npy (default: from OUT's extension)"},
    {NULL, 0, OPT_FLAG, NULL}};

const cli_command cmd_convert = {synopsis, description, opts, true, false, 2, "IN and OUT files", run};
