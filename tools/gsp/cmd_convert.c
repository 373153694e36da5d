/* gsp convert: read a graph in one format, write it in another. */
#include <inttypes.h>

#include "cli.h"

static const char synopsis[] = "gsp convert [options] IN OUT";
static const char description[] = "Convert between Matrix Market, DIMACS .gr, edge lists, gsp dense (.gspd) "
                                  "and\nNumPy .npy; a \".gz\" suffix compresses. Reading options (--type, "
                                  "--symmetrize,\n--remap, ...) apply on the way.";

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
  rc = cli_out_matrix(&out, cmd, A, c->out_format, NULL, NULL);
  gsp_index nv = 0, nr = 0, nc = 0;
  gsp_matrix_nvals(&nv, A);
  gsp_matrix_nrows(&nr, A);
  gsp_matrix_ncols(&nc, A);
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
