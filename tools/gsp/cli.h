/* Shared pieces of the `gsp` command line: exit codes, option parsing,
 * graph loading, vertex naming, timing and the progress bar. */
#ifndef GSP_CLI_H
#define GSP_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* The command line is a user of the public header only, its advanced part
 * included (output files, row callbacks, device options). */
#ifndef GSP_ADVANCED_API
#define GSP_ADVANCED_API
#endif
#include "gsp.h"

/* Exit codes (documented in docs/cli.md and `gsp --help`). */
enum {
  CLI_OK = 0,
  CLI_FAILURE = 1,    /* a library call failed (memory, device, internal) */
  CLI_USAGE = 2,      /* bad command line */
  CLI_INPUT = 3,      /* input file cannot be read or is malformed */
  CLI_OUTPUT = 4,     /* output file cannot be written */
  CLI_NEG_CYCLE = 5,  /* negative (or, for max-plus, positive) cycle */
  CLI_NO_PATH = 6,    /* path: the target is unreachable */
  CLI_MISMATCH = 7,   /* check: gsp and GraphBLAS disagree */
  CLI_UNAVAILABLE = 8 /* a requested feature is not in this build / no GPU */
};

/* ---- options ---- */

typedef enum { OPT_FLAG, OPT_VALUE } cli_opt_kind;

typedef struct {
  const char *lng; /* "--name" without dashes */
  char shrt;       /* single-letter alias or 0 */
  cli_opt_kind kind;
  const char *help; /* "VALUE  text" shown by --help */
} cli_opt;

/* Everything the subcommands share. */
typedef struct {
  const char *cmd; /* the subcommand's name, for messages */
  /* common */
  gsp_backend backend;
  int threads;
  int verbosity; /* 0 quiet, 1 normal, 2 verbose */
  bool progress; /* --progress: progress lines also when stderr is not a terminal */
  const char *output;
  gsp_file_format out_format;
  /* reading */
  gsp_read_opts read;
  const char *semiring_name;
  /* parsed values of subcommand-specific options, by name */
  const char *values[64];
  const char *names[64];
  int nvalues;
  /* positional arguments */
  const char *pos[16];
  int npos;
  bool help;
} cli_ctx;

/* Options every subcommand takes, those that read a graph, and those
 * that draw maps. */
extern const cli_opt cli_common_opts[];
extern const cli_opt cli_read_opts[];
extern const cli_opt cli_map_opts[];
/* The --semiring option of a command: the path semirings, then those in
 * `more` (a string literal such as ", or-and", or nothing). */
#define CLI_OPT_SEMIRING(more) \
  { "semiring", 's', OPT_VALUE, "S  min-plus (default), max-plus, max-min, min-max" more }

/* A subcommand (cmd_*.c): its --help text, its own options, what its
 * positional arguments must be, and what it does once its command line is
 * parsed and checked. */
typedef struct {
  const char *synopsis, *description;
  const cli_opt *opts;                     /* ending with a {NULL} entry */
  bool reads;                              /* takes the reading options (cli_read_opts) */
  bool maps;                               /* takes --geojson, --svg and --coords (cli_map_opts) */
  int npos;                                /* positional arguments */
  const char *what;                        /* their description in "expected <what>" */
  int (*run)(cli_ctx *c, const char *cmd); /* cmd: c->cmd */
} cli_command;

/* Run a subcommand on argv (argv[0] its name): parse argv, answer --help,
 * check that there are cmd->npos positional arguments (else print
 * "expected <what>"), then cmd->run. Returns the exit code. */
int cli_run(const cli_command *cmd, int argc, char **argv);

/* Parse argv (argv[0] the subcommand's name) against the options cmd
 * takes. Prints the problem and returns CLI_USAGE on error. */
int cli_parse(cli_ctx *c, int argc, char **argv, const cli_command *cmd);
/* Value of a subcommand option, or NULL when not given (flags: "1"). */
const char *cli_get(const cli_ctx *c, const char *name);
/* Parse helpers: print "gsp CMD: --name: ..." and return false on error. */
bool cli_int(const char *cmd, const char *name, const char *s, int64_t lo, int64_t hi, int64_t *out);
bool cli_double(const char *cmd, const char *name, const char *s, double *out);
/* A byte count: digits with an optional k, M or G suffix (powers of 1024). */
bool cli_bytes(const char *cmd, const char *name, const char *s, size_t *out);
/* One choice among names: *out = the value of s in names (ending with a
 * {NULL} entry); false, printing "gsp CMD: --OPT: 'S' is not a, b or c",
 * when s is none of them. */
typedef struct {
  const char *name;
  int value;
} cli_name;
bool cli_choice(const char *cmd, const char *opt, const char *s, const cli_name *names, int *out);
bool cli_semiring(const char *cmd, const char *s, gsp_semiring *out);
bool cli_type(const char *cmd, const char *s, gsp_type *out);
/* A file format, for option --opt (format or input-format). */
bool cli_format(const char *cmd, const char *opt, const char *s, gsp_file_format *out);
const char *cli_semiring_name(gsp_semiring s);
const char *cli_type_name(gsp_type t);

/* Print the usage of a subcommand: synopsis, description, options. */
void cli_usage(FILE *f, const cli_command *cmd);

/* Apply --backend / --threads to the library. */
int cli_setup(const cli_ctx *c, const char *cmd);

/* ---- graphs ---- */

/* A loaded graph and how to name its vertices as in the file. */
typedef struct {
  gsp_matrix A;
  int64_t *ids; /* file id of each vertex */
  gsp_index nids;
  gsp_index n, nvals;
  gsp_type type;
  double seconds; /* time to read */
} cli_graph;

/* Read path with the read options and a progress bar into *A (and the
 * file's vertex ids when ids is not NULL), timing it; prints errors.
 * Returns CLI_OK, CLI_INPUT, CLI_USAGE (a reading option that does not
 * apply to the file's format) or CLI_FAILURE. */
int cli_read(cli_ctx *c, const char *cmd, const char *path, gsp_matrix *A, int64_t **ids, gsp_index *nids,
             double *seconds);
/* Read c->pos[0] with the read options; prints errors. Returns CLI_OK,
 * CLI_INPUT, CLI_USAGE (a reading option that does not apply to the
 * file's format) or CLI_FAILURE. */
int cli_load(cli_ctx *c, const char *cmd, const char *path, cli_graph *g);
void cli_graph_free(cli_graph *g);
/* Fit the graph to semiring s: the structure for or-and, weight 1 (int32)
 * for an unweighted graph on a numeric semiring. */
int cli_prepare(const cli_ctx *c, const char *cmd, cli_graph *g, gsp_semiring s);
/* Print "  a -> b -> c" with file ids (abbreviated past 24 vertices unless
 * verbose). */
void cli_print_path(const cli_ctx *c, const cli_graph *g, const gsp_index *p, gsp_index len);
/* Vertex index of a file id given on the command line. */
bool cli_vertex(const char *cmd, const cli_graph *g, const char *s, gsp_index *v);
/* File id of vertex v. */
static inline long long cli_id(const cli_graph *g, gsp_index v) {
  return g->ids && v < g->nids ? (long long)g->ids[v] : (long long)v;
}

/* Map a gsp_info failure to an exit code, printing the library's message. */
int cli_fail(const char *cmd, const char *what, gsp_info info);
/* As cli_fail for a computation on graph g: vertices that the library's
 * message names (0-based indices) are printed as the file's ids. */
int cli_fail_graph(const char *cmd, const char *what, gsp_info info, const cli_graph *g);

/* ---- output ---- */

double cli_now(void);
/* Normal output (suppressed by -q) and verbose output (-v only). */
void cli_say(const cli_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_verbose(const cli_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Progress on stderr, not with -q: a bar when stderr is a terminal; with
 * --progress otherwise, a line at each tenth ("computing: 40% (1.2 s)"). */
typedef struct {
  bool on;
  bool lines; /* lines, not a bar */
  const char *label;
  int last;
  double start;
} cli_progress;
void cli_progress_start(cli_progress *p, const cli_ctx *c, const char *label);
void cli_progress_update(double fraction, void *p); /* gsp_read_opts shape */
void cli_progress_end(cli_progress *p);

/* Element k of an array of type t, as a double. */
double cli_value_at(gsp_type t, const void *x, size_t k);

/* Format one value of type t (for messages). */
void cli_value_str(char *buf, size_t len, gsp_type t, const void *x);

/* ---- the summary of a min-plus result (apsp_summary.c) ---- */

/* Pairs with a path and the farthest pair of rows of a result (a row
 * callback's block, or the whole result), on the library's thread count
 * with the results of one pass in row-major order. */
typedef struct {
  gsp_type t;
  gsp_index n;
  const gsp_index *src; /* the rows' sources (NULL: row k is vertex k) */
  int64_t zero[1];      /* "no path", one value of t */
  uint64_t reach;       /* cells with a path */
  bool found;           /* a pair (si, sj) with a path, sj not row si's source */
  gsp_index si, sj;     /* the farthest such pair, the first in row-major order */
  int64_t ibest;        /* its distance (integer types) */
  double fbest;         /* its distance (float types) */
} cli_summary;
int cli_summary_rows(void *ctx, gsp_index first, gsp_index nrows, const void *dist, const int64_t *par);
/* The cells of dist (min-plus distances of type t) with a path. */
uint64_t cli_reached(gsp_type t, const void *dist, size_t cells);

/* ---- output files (cli_output.c) ---- */

/* Every file a command writes: opened before the computation starts (so a
 * path that cannot be written is refused at once, exit CLI_OUTPUT), written
 * to a temporary beside it (special files and "-", standard output, are
 * written through), and put in place whole by cli_out_commit, or not at
 * all: cli_out_abort, an error, a signal or an early exit leaves the old
 * file untouched and no temporary behind. */
typedef struct {
  gsp_output f;     /* NULL once committed, aborted or handed on */
  const char *path; /* as given; NULL: no output asked for */
  bool open;
} cli_out;

/* SIGINT/SIGTERM/SIGHUP/SIGQUIT and exit remove uncommitted temporaries
 * (main calls this once). */
void cli_output_cleanup_install(void);
/* Open path (NULL: nothing to open, o stays closed). Prints the problem and
 * returns CLI_OUTPUT when it cannot be written. */
int cli_out_open(cli_out *o, const char *cmd, const char *path);
/* The stream to write to; NULL (printed, o aborted) on failure. */
FILE *cli_out_stream(cli_out *o, const char *cmd);
/* Complete the output (flush, fsync); prints and returns CLI_OUTPUT when
 * any write failed (the old file is then untouched). CLI_OK when o is not
 * open. The rename waits for cli_out_settle, with every other output. */
int cli_out_commit(cli_out *o, const char *cmd);
/* At the end of a command: rename every completed output over its target
 * (signals held back meanwhile) when rc is CLI_OK or CLI_NO_PATH, else
 * remove them all, the old files untouched. Returns rc, or CLI_OUTPUT
 * when a rename failed. */
int cli_out_settle(int rc, const char *cmd);
void cli_out_abort(cli_out *o);
/* Write M (as gsp_matrix_write, format f or from the path) and commit. */
int cli_out_matrix(cli_out *o, const char *cmd, gsp_matrix M, gsp_file_format f, const void *absent,
                   const char *comment);

/* The start of a subcommand that reads a graph: --backend and --threads
 * applied (cli_setup), `out` opened on out_path (when out is not NULL;
 * a NULL out_path opens nothing) before anything is read, then GRAPH
 * (c->pos[0]) loaded; on failure `out` is aborted and the exit code
 * returned. */
int cli_start(cli_ctx *c, const char *cmd, cli_out *out, const char *out_path, cli_graph *g);

/* ---- maps: --geojson and --svg (geo_coords.c, geo_write.c, geo_svg.c,
 * geo_tree.c) ---- */

/* Vertex coordinates and the graph's arcs, for drawing. */
typedef struct {
  bool on;             /* --geojson or --svg asked and coordinates read */
  const char *geojson; /* output files (NULL: not asked) */
  const char *svg;
  const char *graph;   /* the graph file, for captions */
  char *path;          /* the coordinates file read */
  double *lon, *lat;   /* degrees per vertex; NAN where the file has none */
  gsp_index n, placed; /* vertices, and those with coordinates */
  double lon_min, lon_max, lat_min, lat_max, lat_mean;
  gsp_index *rp, *ci; /* the arcs as read (CSR structure) */
  cli_out *out;       /* [0] GeoJSON, [1] SVG: opened with the map, before
                          the computation, committed when written */
} cli_map;

/* When --geojson or --svg is given: open those outputs (CLI_OUTPUT when one
 * cannot be written), read the coordinates (--coords FILE, else the .co or
 * .co.gz of GRAPH's stem beside it) and keep the arcs. CLI_OK with map->on
 * false when neither is asked; CLI_INPUT, the message naming the file, when
 * the coordinates are missing or malformed. cli_map_free aborts an output
 * not written. */
int cli_map_open(const cli_ctx *c, const char *cmd, const cli_graph *g, cli_map *map);
void cli_map_free(cli_map *map);
bool cli_map_has(const cli_map *map, gsp_index v);
/* CLI_INPUT (message printed) when a vertex of p lacks coordinates. */
int cli_map_require(const char *cmd, const cli_graph *g, const cli_map *map, const gsp_index *p, gsp_index len);

/* Write the path p[0..len) with its value (as printed; `what` names it:
 * "distance" or "value") to the --geojson and --svg files asked for. */
int cli_map_path(const cli_ctx *c, const char *cmd, const cli_graph *g, const cli_map *map, const gsp_index *p,
                 gsp_index len, const char *value, const char *what);

/* The shortest-path tree from src given the reached vertices I[0..cnt)
 * and their distances X (type of A), up to *cutoff when not NULL, to the
 * --geojson and --svg files; path (or NULL) is the --to path drawn too. */
int cli_map_tree(const cli_ctx *c, const char *cmd, const cli_graph *g, const cli_map *map, gsp_index src,
                 const gsp_index *I, const void *X, gsp_index cnt, const double *cutoff, const gsp_index *path,
                 gsp_index len);

/* Parent of each vertex in a shortest-path tree from src: breadth-first
 * over tight arcs (d[u] + w(u,v) == d[v] in A's type) of the vertices whose
 * distance is at most *cutoff (all when NULL). parent[src] = src, n for a
 * vertex outside the tree; *parent is malloc()ed. */
gsp_info cli_tight_tree(gsp_index **parent, gsp_matrix A, gsp_index src, const gsp_index *I, const void *X,
                        gsp_index cnt, const double *cutoff);

/* ---- subcommands ---- */

extern const cli_command cmd_apsp, cmd_sssp, cmd_path, cmd_queries, cmd_generate, cmd_info, cmd_convert, cmd_check,
    cmd_negcycle;

/* Whether the arc u -> v (weight W[k]) is tight: D[u] + W[k] == D[v],
 * evaluated in type ty, exactly the sum the SSSP methods form. */
bool cli_tight(gsp_type ty, const void *D, gsp_index u, gsp_index v, const void *W, gsp_index k);

/* Single-source shortest distances on MIN_PLUS by a Bellman-Ford frontier
 * loop of gsp_vxm (see cli_sssp.c). *dist gets a new vector; returns a
 * gsp_info (GSP_NEGATIVE_CYCLE when the loop does not settle). */
gsp_info cli_sssp(gsp_vector *dist, gsp_matrix A, gsp_index src, int *iterations, cli_progress *prog);
/* Shortest path src -> dst from a distance vector: reverse breadth-first
 * search over tight arcs (d[u] + w(u,v) == d[v]) from dst. *path gets a
 * malloc()ed vertex list. GSP_NO_VALUE when dst is unreachable. */
gsp_info cli_tight_path(gsp_index **path, gsp_index *len, gsp_matrix A, gsp_vector dist, gsp_index src, gsp_index dst);

/* How single-source distances are computed: the library's gsp_sssp
 * (non-negative weights), the vxm Bellman-Ford loop above (any weights),
 * the library's gsp_bellman_ford (any weights), or AUTO: gsp_sssp unless
 * the graph has a negative weight, then gsp_bellman_ford. */
typedef enum { CLI_SSSP_AUTO, CLI_SSSP_LIBRARY, CLI_SSSP_VXM, CLI_SSSP_BELLMAN_FORD } cli_sssp_method;
/* Parse --method auto|library|vxm|bellman-ford (NULL: auto); prints and
 * returns false on anything else. */
bool cli_sssp_method_parse(const char *cmd, const char *s, cli_sssp_method *out);

/* Distances from src into *dist and, when path != NULL, the path to dst
 * (malloc()ed, *len vertices). Returns GSP_NO_VALUE (with *dist set) when
 * dst is unreachable. *used names the method that ran. */
gsp_info cli_shortest(gsp_vector *dist, gsp_index **path, gsp_index *len, gsp_matrix A, gsp_index src, gsp_index dst,
                      cli_sssp_method method, gsp_backend backend, const char **used, int *iterations,
                      cli_progress *prog);

/* ---- MPI mode of apsp (cli_mpi.c) ---- */

/* Enter MPI mode when forced (--mpi) or launched by mpirun with more than
 * one rank: initialise MPI, share each host's cores among its ranks (unless
 * OMP_NUM_THREADS says otherwise). Returns 1 in MPI mode, 0 otherwise, -1
 * (message printed) when --mpi is asked of a build without MPI. */
int cli_mpi_begin(bool forced, const char *cmd, int *rank, int *size);
void cli_mpi_end(void);
/* Rank 0's exit code, for every rank. */
int cli_mpi_share_rc(int rc);
/* gsp_mpi_closure over MPI_COMM_WORLD (M: rank 0's graph, NULL elsewhere). */
gsp_info cli_mpi_closure(gsp_matrix M, gsp_semiring s, bool non_reflexive);

#endif /* GSP_CLI_H */
