/* gsp: command-line front end of the gsp library. Each subcommand lives in
 * its own cmd_*.c file; this one dispatches and prints the overview. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const struct {
  const char *name;
  const cli_command *cmd;
  const char *summary;
} commands[] = {
    {"apsp", &cmd_apsp,
     "all-pairs shortest paths (any closure), timing, "
     "sample path"},
    {"closure", &cmd_apsp,
     "same as apsp (use --semiring or-and for "
     "reachability)"},
    {"sssp", &cmd_sssp, "shortest distances from one source"},
    {"path", &cmd_path,
     "one optimal path between two vertices, with its "
     "value"},
    {"queries", &cmd_queries,
     "answer DIMACS .ss (sources) or .p2p (pairs) "
     "query files"},
    {"generate", &cmd_generate,
     "write a random, R-MAT, grid, ring, complete "
     "or DAG graph"},
    {"info", &cmd_info, "vertices, arcs, degrees, weights of a graph"},
    {"convert", &cmd_convert, "convert between graph file formats"},
    {"check", &cmd_check, "cross-check results against SuiteSparse:GraphBLAS"},
    {"negcycle", &cmd_negcycle,
     "find a negative cycle (Bellman-Ford), if "
     "there is one"},
};
#define NCOMMANDS (sizeof commands / sizeof *commands)

static void overview(FILE *f) {
  fprintf(f,
          "usage: gsp COMMAND [options] ...\n\n"
          "Semiring graph computations with the gsp library (version "
          "%d.%d.%d).\n\ncommands:\n",
          GSP_VERSION_MAJOR, GSP_VERSION_MINOR, GSP_VERSION_PATCH);
  for (size_t k = 0; k < NCOMMANDS; k++) fprintf(f, "  %-10s %s\n", commands[k].name, commands[k].summary);
  fprintf(f, "\nRun 'gsp COMMAND --help' for a command's options.\n"
             "Graph files: Matrix Market (.mtx), DIMACS (.gr), edge lists "
             "(.txt/.el/...),\ngsp dense (.gspd), NumPy (.npy); any may be "
             "gzip-compressed (.gz).\n\n"
             "Exit codes: 0 ok, 1 failure, 2 usage, 3 bad input, 4 cannot "
             "write output,\n5 negative cycle, 6 no path, 7 check mismatch, 8 "
             "not available in this build.\n");
}

/* OpenMP threads that wait at a barrier sleep rather than spin, unless the
 * user chose (OMP_WAIT_POLICY or GOMP_SPINCOUNT set): on a machine whose
 * cores other processes also use, a spinning thread takes the core from
 * the thread the barrier waits for (Floyd-Warshall n = 1500 on 2 cores,
 * one busy: 1.6 s spinning, 1.1 s sleeping; no slower on idle cores).
 * libgomp reads the policy once, when it loads, before main: so the
 * program sets it and starts itself again (same pid, arguments and
 * environment otherwise); if that exec fails it runs on as it is. */
static void wait_passively(char **argv) {
  if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT")) return;
  if (setenv("OMP_WAIT_POLICY", "PASSIVE", 1) != 0) return;
  execv("/proc/self/exe", argv);
}

int main(int argc, char **argv) {
  wait_passively(argv);
  if (argc < 2) {
    overview(stderr);
    return CLI_USAGE;
  }
  cli_output_cleanup_install();
  const char *c = argv[1];
  if (!strcmp(c, "--help") || !strcmp(c, "-h") || !strcmp(c, "help")) {
    if (argc > 2 && strcmp(c, "help") == 0) {
      for (size_t k = 0; k < NCOMMANDS; k++)
        if (!strcmp(argv[2], commands[k].name)) {
          char *args[] = {argv[2], "--help", NULL};
          return cli_run(commands[k].cmd, 2, args);
        }
    }
    overview(stdout);
    return CLI_OK;
  }
  if (!strcmp(c, "--version") || !strcmp(c, "version")) {
    bool gpu = false;
    char desc[256] = "";
    gsp_cuda_available(&gpu, desc, sizeof desc);
    printf("gsp %d.%d.%d (%s)\n", GSP_VERSION_MAJOR, GSP_VERSION_MINOR, GSP_VERSION_PATCH,
           desc[0] ? desc
           : gpu   ? "CUDA"
                   : "CPU only");
    return CLI_OK;
  }
  for (size_t k = 0; k < NCOMMANDS; k++)
    if (!strcmp(c, commands[k].name)) return cli_run(commands[k].cmd, argc - 1, argv + 1);
  fprintf(stderr, "gsp: unknown command '%s' (run 'gsp --help')\n", c);
  return CLI_USAGE;
}
