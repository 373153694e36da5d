/* gsp convert: read a graph in one format, write it in another. */
#include <inttypes.h>

#include "cli.h"

static const cli_opt opts[] = {{"format", 'f', OPT_VALUE,
                                "F  output format mtx|dimacs|edgelist|dense|"
                                "npy (default: from OUT's extension)"},
                               {NULL, 0, OPT_FLAG, NULL}};

static const char *synopsis = "gsp convert [options] IN OUT";
static const char *description = "Convert between Matrix Market, DIMACS .gr, edge lists, gsp dense (.gspd) "
                                 "and\nNumPy .npy; a \".gz\" suffix compresses. Reading options (--type, "
                                 "--symmetrize,\n--remap, ...) apply on the way.";

int cmd_convert(int argc, char **argv) {
  const char *cmd = argv[0];
  cli_ctx c;
  int rc = cli_begin(&c, argc, argv, true, opts, synopsis, description, 2, "IN and OUT files");
  if (rc >= 0) return rc;
  if ((rc = cli_setup(&c, cmd))) return rc;
  cli_out out;
  if ((rc = cli_out_open(&out, cmd, c.pos[1]))) return rc;
  gsp_matrix A = NULL;
  cli_progress prog;
  cli_progress_start(&prog, &c, "reading");
  gsp_read_opts ro = c.read;
  ro.progress = cli_progress_update;
  ro.progress_ctx = &prog;
  double t0 = cli_now();
  gsp_info info = gsp_matrix_read(&A, c.pos[0], &ro);
  cli_progress_end(&prog);
  if (info < 0) {
    cli_out_abort(&out);
    return cli_fail(cmd, "cannot read the input", info);
  }
  double tr = cli_now() - t0;
  t0 = cli_now();
  rc = cli_out_matrix(&out, cmd, A, c.out_format, NULL, NULL);
  gsp_index nv = 0, nr = 0, nc = 0;
  gsp_matrix_nvals(&nv, A);
  gsp_matrix_nrows(&nr, A);
  gsp_matrix_ncols(&nc, A);
  gsp_matrix_free(&A);
  if (rc) return rc;
  cli_say(&c,
          "%s -> %s: %" PRIu64 " x %" PRIu64 ", %" PRIu64 " entries "
          "(read %.3f s, write %.3f s)\n",
          c.pos[0], c.pos[1], nr, nc, nv, tr, cli_now() - t0);
  return CLI_OK;
}
