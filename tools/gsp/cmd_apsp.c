/* gsp apsp (alias closure): all-pairs shortest paths by gsp_apsp (min-plus:
 * Floyd-Warshall, multi-source relaxation or Johnson, chosen or forced), or
 * the closure of a graph on another semiring by gsp_closure_ext; with
 * timing, reachability statistics and a sample path. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char synopsis[] = "gsp apsp [options] GRAPH";
static const char description[] = "All-pairs shortest paths (or another closure) of GRAPH: M* = I + M + M^2 "
                                  "+ ...\non the chosen semiring. Min-plus runs gsp_apsp: Floyd-Warshall, "
                                  "multi-source\nrelaxation, Johnson (negative weights) or the sparse star "
                                  "(elimination in a\nfill-reducing order: road networks, meshes), picked by a cost "
                                  "model (--algo auto,\n-v names the pick) or forced; --sources limits the "
                                  "rows. The other semirings,\n--non-reflexive and --succ-output run the "
                                  "blocked Floyd-Warshall closure\n(gsp_closure_ext). On the GPU when one "
                                  "is usable. Prints the time taken, how\nmany pairs are connected and a "
                                  "sample optimal path (for min-plus the pair\nfarthest apart). Vertices "
                                  "are named as in the file (1-based for Matrix Market\nand DIMACS).";

/* Print path p[0..len) from src to dst (its extraction gave info) with
 * its value (one value of the graph's type; NULL: unknown); frees p.
 * CLI_NO_PATH when there is none. */
static int show_path(const cli_ctx *c, const cli_graph *g, gsp_info info, gsp_index *p, gsp_index len,
                     const void *value, gsp_index src, gsp_index dst, const char *label, const cli_map *map,
                     const char *what) {
  int rc = CLI_OK;
  if (info == GSP_NO_VALUE) {
    printf("%s: no path from %lld to %lld\n", label, cli_id(g, src), cli_id(g, dst));
    rc = CLI_NO_PATH;
  } else if (info < 0) {
    rc = cli_fail("apsp", "cannot extract the path", info);
  } else {
    char val[64] = "?";
    if (value) cli_value_str(val, sizeof val, g->type, value);
    printf("%s: %lld -> %lld, value %s, %llu vertices\n", label, cli_id(g, src), cli_id(g, dst), val,
           (unsigned long long)len);
    cli_print_path(c, g, p, len);
    rc = cli_map_path(c, "apsp", g, map, p, len, val, what); /* --svg, --geojson */
  }
  free(p);
  return rc;
}

/* V(row, dst) into buf (8 bytes); buf, or NULL when absent. */
static const void *value_at(int64_t *buf, gsp_matrix V, gsp_index row, gsp_index dst) {
  return gsp_matrix_extract_element(buf, V, row, dst) == GSP_SUCCESS ? buf : NULL;
}

/* The optimal path src -> dst from a successor matrix, with its value. */
static int print_path(const cli_ctx *c, const cli_graph *g, gsp_matrix M, gsp_matrix succ, gsp_index src, gsp_index dst,
                      const char *label, const cli_map *map, const char *what) {
  gsp_index len = g->n ? g->n : 1;
  gsp_index *p = malloc(len * sizeof *p);
  if (!p) return CLI_FAILURE;
  gsp_info info = gsp_path_from_succ(p, &len, succ, src, dst);
  int64_t v[1];
  return show_path(c, g, info, p, len, value_at(v, M, src, dst), src, dst, label, map, what);
}

/* As print_path, from row `row` (source src) of a parent matrix. */
static int print_parent_path(const cli_ctx *c, const cli_graph *g, gsp_matrix D, gsp_matrix P, gsp_index row,
                             gsp_index src, gsp_index dst, const char *label, const cli_map *map) {
  gsp_index len = g->n ? g->n : 1;
  gsp_index *p = malloc(len * sizeof *p);
  if (!p) return CLI_FAILURE;
  gsp_info info = gsp_path_from_parent_row(p, &len, P, row, dst);
  int64_t v[1];
  return show_path(c, g, info, p, len, value_at(v, D, row, dst), src, dst, label, map, "distance");
}

/* The sample path src -> dst (row `row` of D) from one single-source
 * search with parents, not from the parents of every source: it costs one
 * search more than the all-pairs run, not a parent matrix as large as D.
 * Negative weights (GSP_INVALID_VALUE from gsp_sssp) search by
 * Bellman-Ford. The parents follow the same rule as gsp_apsp's. */
static int print_search_path(const cli_ctx *c, const cli_graph *g, gsp_index src, gsp_index dst, const gsp_apsp_opts *o,
                             const char *label, const cli_map *map) {
  gsp_vector d = NULL, par = NULL;
  gsp_sssp_opts so = {.backend = o->backend, .has_cutoff = o->has_cutoff, .cutoff = o->cutoff};
  gsp_info info = gsp_sssp(&d, &par, g->A, src, &so);
  if (info == GSP_INVALID_VALUE) {
    gsp_bf_opts bo = {.backend = o->backend};
    info = gsp_bellman_ford(&d, &par, g->A, src, &bo);
  }
  int64_t v[1];
  const bool has_value = info >= 0 && gsp_vector_extract_element(v, d, dst) == GSP_SUCCESS;
  gsp_vector_free(&d);
  gsp_index len = g->n ? g->n : 1;
  gsp_index *p = info < 0 ? NULL : malloc(len * sizeof *p);
  if (p) info = gsp_path_from_parent(p, &len, par, dst);
  gsp_vector_free(&par);
  if (info < 0) {
    free(p);
    return cli_fail("apsp", "cannot search the sample path", info);
  }
  if (!p) return CLI_FAILURE;
  return show_path(c, g, info, p, len, has_value ? v : NULL, src, dst, label, map, "distance");
}

/* Row i of M as dense values and presence: e_i (+.*) M on PLUS_TIMES is
 * exactly row i (one term, times 1), with no n^2 copy of M. */
static bool get_row(gsp_matrix M, gsp_type t, gsp_index nrows, gsp_index n, gsp_index i, gsp_index *I, void *X,
                    gsp_index *cnt) {
  gsp_vector e = NULL, r = NULL;
  int64_t one_buf[1];
  if (t == GSP_BOOL) return false;
  (void)gsp_semiring_identities(NULL, one_buf, GSP_PLUS_TIMES, t);
  bool ok = gsp_vector_new(&e, t, nrows) == GSP_SUCCESS && gsp_vector_new(&r, t, n) == GSP_SUCCESS &&
            gsp_vector_set_element(e, i, one_buf) == GSP_SUCCESS &&
            gsp_vxm(r, NULL, GSP_NOOP, GSP_PLUS_TIMES, e, M, NULL) == GSP_SUCCESS;
  *cnt = n;
  ok = ok && gsp_vector_extract_tuples(I, X, cnt, r) == GSP_SUCCESS;
  gsp_vector_free(&e);
  gsp_vector_free(&r);
  return ok;
}

/* Pick the sample pair: for min-plus (max-plus) the reachable pair i != j
 * with the largest (smallest) finite value: the row holding the extreme
 * (gsp_matrix_reduce_vector), then the extreme in that row. For the other
 * semirings, a reachable pair from a pseudo-random row. */
static bool sample_pair(gsp_matrix M, const cli_graph *g, gsp_semiring s, gsp_index nrows, const gsp_index *rows,
                        gsp_index *si, gsp_index *sj) {
  gsp_index n = g->n;
  if (nrows == 0) return false;
  gsp_type t = g->type;
  if (n < 2 || t == GSP_BOOL) return false;
  size_t ts = gsp_type_size(t);
  gsp_index cap = n > nrows ? n : nrows;
  gsp_index *I = malloc(cap * sizeof *I);
  void *X = malloc(cap * ts);
  gsp_vector ext = NULL;
  bool found = false, minp = s == GSP_MIN_PLUS, maxp = s == GSP_MAX_PLUS;
  gsp_index row = (gsp_index)(nrows * 0.61803398875) % nrows, cnt = 0;
  if (!I || !X) goto done;
  if (minp || maxp) { /* row with the extreme entry */
    if (gsp_vector_new(&ext, t, nrows) != GSP_SUCCESS ||
        gsp_matrix_reduce_vector(ext, NULL, GSP_NOOP, minp ? GSP_MAX : GSP_MIN, M, NULL) != GSP_SUCCESS)
      goto done;
    cnt = nrows;
    if (gsp_vector_extract_tuples(I, X, &cnt, ext) != GSP_SUCCESS) goto done;
    double best = 0;
    for (gsp_index k = 0; k < cnt; k++) {
      double v = cli_value_at(t, X, k);
      if (!isfinite(v)) continue;
      if (k == 0 || (minp ? v > best : v < best)) best = v, row = I[k];
    }
  }
  if (!get_row(M, t, nrows, n, row, I, X, &cnt)) goto done;
  gsp_index vrow = rows ? rows[row] : row; /* the row's source vertex */
  double best = 0;
  for (gsp_index k = 0; k < cnt; k++) {
    double v = cli_value_at(t, X, k);
    if (I[k] == vrow || !isfinite(v)) continue;
    if (!found || (minp && v > best) || (maxp && v < best)) {
      best = v;
      *si = row;
      *sj = I[k];
      found = true;
      if (!minp && !maxp) break;
    }
  }
done:
  gsp_vector_free(&ext);
  free(I);
  free(X);
  return found;
}

/* The min-plus sample pair of the rows D (ns x n): the reachable pair
 * (row i, vertex j), j not row i's source, farthest apart, the first in
 * row-major order among equals (sample_pair's pick). One pass over D's
 * dense array, unpacked and packed back (no copy where D is dense):
 * sample_pair's reduction and row product would first convert an n x n D
 * to CSR, three times its size (n = 6000: 0.4 GB and 1.5 s more than the
 * run without a sample). */
static int farthest_pair(gsp_matrix *D, gsp_type t, gsp_index ns, gsp_index n, const gsp_index *src, gsp_index *si,
                         gsp_index *sj, bool *found) {
  int64_t zero[1];
  void *x = NULL;
  (void)gsp_semiring_identities(zero, NULL, GSP_MIN_PLUS, t);
  gsp_info info = gsp_matrix_unpack_dense(&x, zero, D);
  if (info < 0) return cli_fail("apsp", "cannot read the result", info);
  bool any = false;
  gsp_index bi = 0, bj = 0;
  switch (t) {
#define GSP_FAR(code, T)                                                                                 \
  case code: {                                                                                           \
    const T *v = x, z = *(const T *)zero;                                                                \
    T best = 0;                                                                                          \
    for (gsp_index i = 0; i < ns; i++) {                                                                 \
      const gsp_index s = src ? src[i] : i;                                                              \
      const T *row = v + (size_t)i * (size_t)n;                                                          \
      for (gsp_index j = 0; j < n; j++)                                                                  \
        if (row[j] != z && j != s && (!any || row[j] > best)) best = row[j], bi = i, bj = j, any = true; \
    }                                                                                                    \
  } break;
    GSP_FAR(GSP_INT32, int32_t)
    GSP_FAR(GSP_INT64, int64_t)
    GSP_FAR(GSP_FP32, float)
    GSP_FAR(GSP_FP64, double)
#undef GSP_FAR
  default:
    break;
  }
  *found = any, *si = bi, *sj = bj;
  info = gsp_matrix_pack_dense(D, t, ns, n, &x, zero);
  if (info < 0) {
    free(x);
    return cli_fail("apsp", "cannot keep the result", info);
  }
  return CLI_OK;
}

/* MPI mode (cli_mpi.c): rank 0 reads, prints and writes as the plain
 * command does; the closure runs on all ranks (CPU backend, distances
 * only: successors are not recorded, so no paths). */
static int apsp_mpi(cli_ctx *c, const char *cmd, gsp_semiring s, int rank, int size) {
  int rc = CLI_OK;
  cli_graph g;
  memset(&g, 0, sizeof g);
  cli_out mout;
  memset(&mout, 0, sizeof mout);
  if (cli_get(c, "path") || cli_get(c, "succ-output") || cli_get(c, "svg") || cli_get(c, "geojson") ||
      c->backend == GSP_BACKEND_CUDA) {
    if (rank == 0)
      fprintf(stderr,
              "gsp %s: with MPI the closure runs on the CPU and "
              "records no successors (no --path, --succ-output, "
              "--svg, --geojson or --backend cuda)\n",
              cmd);
    rc = CLI_UNAVAILABLE;
    goto done;
  }
  if (rank != 0) c->verbosity = 0;
  /* rank 0 writes: its output is checked before the graph is read */
  if ((rc = cli_setup(c, cmd)) == CLI_OK && rank == 0 && (rc = cli_out_open(&mout, cmd, c->output)) == CLI_OK &&
      (rc = cli_load(c, cmd, c->pos[0], &g)) == CLI_OK)
    rc = cli_prepare(c, cmd, &g, s);
  if ((rc = cli_mpi_share_rc(rc))) goto done;
  int threads = 0;
  gsp_get_threads(&threads);
  cli_say(c,
          "graph: %s: %" PRIu64 " vertices, %" PRIu64 " arcs, %s (read "
          "in %.3f s)\n",
          c->pos[0], g.n, g.nvals, cli_type_name(g.type), g.seconds);
  double t0 = cli_now();
  gsp_info info = cli_mpi_closure(rank == 0 ? g.A : NULL, s, cli_get(c, "non-reflexive") != NULL);
  double secs = cli_now() - t0;
  if (info < 0) {
    if (rank == 0) rc = cli_fail_graph(cmd, "closure failed", info, &g);
  } else if (rank == 0) {
    gsp_index reach = 0;
    gsp_matrix_nvals(&reach, g.A);
    double n3 = (double)g.n * (double)g.n * (double)g.n;
    cli_say(c,
            "%s closure (mpi: %d ranks x %d threads, cpu): %.3f s, %.2f G "
            "relaxations/s (n^3 = %.3g)\n",
            cli_semiring_name(s), size, threads, secs, secs > 0 ? n3 / secs * 1e-9 : 0.0, n3);
    double all = (double)g.n * (double)g.n;
    cli_say(c, "connected pairs: %" PRIu64 " of %.0f (%.1f%%)\n", reach, all,
            all > 0 ? 100.0 * (double)reach / all : 0.0);
    if (c->output) {
      int64_t zero[1];
      (void)gsp_semiring_identities(zero, NULL, s, g.type);
      char note[128];
      snprintf(note, sizeof note, "%s closure of %s", cli_semiring_name(s), c->pos[0]);
      rc = cli_out_matrix(&mout, cmd, g.A, c->out_format, zero, note);
      if (!rc) cli_verbose(c, "wrote %s\n", c->output);
    }
  }
  rc = cli_mpi_share_rc(rc);
done:
  cli_out_abort(&mout);
  cli_graph_free(&g);
  cli_mpi_end();
  return rc;
}

/* --device-memory-cap and --gpus; false (message printed) when malformed. */
static bool device_options(cli_ctx *c, const char *cmd, size_t *cap, int *gpus) {
  const char *capv = cli_get(c, "device-memory-cap"), *gpuv = cli_get(c, "gpus");
  if (capv && !cli_bytes(cmd, "device-memory-cap", capv, cap)) return false;
  if (gpuv) {
    int64_t ng;
    if (!cli_int(cmd, "gpus", gpuv, 0, 1024, &ng)) return false;
    *gpus = (int)ng;
  }
  return true;
}

static const char *algo_name(gsp_apsp_algo a) {
  return a == GSP_APSP_FLOYD_WARSHALL ? "fw"
         : a == GSP_APSP_MSSSP        ? "msssp"
         : a == GSP_APSP_JOHNSON      ? "johnson"
         : a == GSP_APSP_SPARSE_STAR  ? "star"
                                      : "auto";
}

/* --sources: file ids separated by commas, or a DIMACS .ss file. *src is
 * malloc()ed. */
static bool parse_sources(const char *cmd, const cli_graph *g, const char *s, gsp_index **src, gsp_index *ns) {
  size_t len = strlen(s);
  if (len > 3 && !strcmp(s + len - 3, ".ss")) {
    gsp_info info = gsp_dimacs_read_sources(src, ns, g->n, s);
    if (info < 0) {
      fprintf(stderr, "gsp %s: --sources %s: %s\n  %s\n", cmd, s, gsp_strerror(info), gsp_last_error());
      return false;
    }
    return true;
  }
  gsp_index cap = 1;
  for (const char *q = s; *q; q++) cap += *q == ',';
  gsp_index *v = malloc(cap * sizeof *v);
  char *copy = malloc(len + 1);
  if (copy) memcpy(copy, s, len + 1);
  if (!v || !copy) {
    free(v), free(copy);
    return false;
  }
  gsp_index k = 0;
  /* every comma separates two ids: "1,,2", ",1" and "1," are refused */
  for (char *tok = copy, *next; *s && tok; tok = next) {
    next = strchr(tok, ',');
    if (next) *next++ = '\0';
    if (*tok == '\0') {
      fprintf(stderr,
              "gsp %s: --sources: empty vertex id in '%s' (ids are "
              "separated by single commas)\n",
              cmd, s);
      free(v), free(copy);
      return false;
    }
    if (!cli_vertex(cmd, g, tok, &v[k])) {
      free(v), free(copy);
      return false;
    }
    k++;
  }
  free(copy);
  if (k == 0) {
    fprintf(stderr, "gsp %s: --sources: no vertex given\n", cmd);
    free(v);
    return false;
  }
  *src = v;
  *ns = k;
  return true;
}

/* ---- a result larger than memory, streamed to .npy files ---- */

/* Row blocks from gsp_apsp's callback go straight to the open outputs
 * (header first, with the full shape), so memory holds one block; the
 * --path row is kept as it passes. */
typedef struct {
  FILE *d, *p;     /* distances, parents (NULL when not written) */
  gsp_type dt, pt; /* their types in the files */
  int64_t n;
  uint64_t reach;     /* entries with a path */
  gsp_index prow;     /* row of --path, or (gsp_index)-1 */
  int64_t *path_par;  /* its parents */
  char path_dist[16]; /* its distance to the --path target */
  gsp_index pd;
  bool path_seen;
  void *conv;      /* one parent row in the file's type */
  bool parent_bad; /* the write that failed was the parents' (messages) */
  int err;         /* its errno */
} stream_ctx;

static int stream_rows(void *ctx, gsp_index first, gsp_index nrows, const void *dist, const int64_t *par) {
  stream_ctx *s = ctx;
  const size_t os = gsp_type_size(s->dt), cells = (size_t)nrows * (size_t)s->n;
  if (fwrite(dist, os, cells, s->d) != cells) return s->err = errno, 1;
  s->reach += cli_reached(s->dt, dist, cells);
  for (gsp_index r = 0; par && r < nrows; r++) {
    const int64_t *row = par + (size_t)r * (size_t)s->n;
    if (first + r == s->prow) {
      memcpy(s->path_par, row, (size_t)s->n * sizeof *row);
      memcpy(s->path_dist, (const char *)dist + ((size_t)r * (size_t)s->n + s->pd) * os, os);
      s->path_seen = true;
    }
    if (!s->p) continue;
    /* "no parent" is the dense files' absent value, as when written whole */
    if (s->pt == GSP_INT32) {
      int32_t *o = s->conv;
      for (int64_t v = 0; v < s->n; v++) o[v] = row[v] < 0 ? INT32_MAX : (int32_t)row[v];
    } else {
      int64_t *o = s->conv;
      for (int64_t v = 0; v < s->n; v++) o[v] = row[v] < 0 ? INT64_MAX : row[v];
    }
    if (fwrite(s->conv, gsp_type_size(s->pt), (size_t)s->n, s->p) != (size_t)s->n)
      return s->parent_bad = true, s->err = errno, 1;
  }
  s->parent_bad = !ferror(s->d) && s->p && ferror(s->p);
  s->err = errno;
  return ferror(s->d) || (s->p && ferror(s->p));
}

static bool is_npy(const char *path, gsp_file_format f) {
  if (f != GSP_FILE_AUTO) return f == GSP_FILE_NPY;
  size_t len = path ? strlen(path) : 0;
  return len > 4 && !strcmp(path + len - 4, ".npy");
}

/* Open the stream of an output and write its .npy header. */
static FILE *npy_begin(cli_out *o, const char *cmd, gsp_type t, gsp_index rows, gsp_index n) {
  FILE *f = cli_out_stream(o, cmd);
  return f && gsp_output_npy_header(o->f, t, rows, n) == GSP_SUCCESS ? f : NULL;
}

/* A dense integer result says "no path" with the type's maximum, which a
 * numpy user could read as a weight: a line on stderr (not with -q) says
 * so, and how to turn it into numpy's inf (docs/cli.md). */
static void say_npy_no_path(const cli_ctx *c, const char *path, gsp_file_format f, gsp_type t) {
  if (c->verbosity < 1 || !is_npy(path, f) || (t != GSP_INT32 && t != GSP_INT64)) return;
  fprintf(stderr,
          "gsp apsp: no path is %s in %s (the type's maximum, not a weight); numpy: D = np.where(D == "
          "np.iinfo(D.dtype).max, np.inf, D)\n",
          t == GSP_INT32 ? "2147483647" : "9223372036854775807", path);
}

/* Print the path src -> dst from one row of parents (dist its value). */
static int print_par_row(const cli_ctx *c, const cli_graph *g, const int64_t *par, const void *dist, gsp_index src,
                         gsp_index dst) {
  char inf[16], val[64];
  (void)gsp_semiring_identities(inf, NULL, GSP_MIN_PLUS, g->type);
  if (!memcmp(dist, inf, gsp_type_size(g->type)) || par[dst] < 0) {
    printf("path: no path from %lld to %lld\n", cli_id(g, src), cli_id(g, dst));
    return CLI_NO_PATH;
  }
  gsp_index *p = malloc((g->n ? g->n : 1) * sizeof *p), len = 0;
  if (!p) return CLI_FAILURE;
  for (int64_t v = (int64_t)dst; len < g->n; v = par[v]) {
    p[len++] = (gsp_index)v;
    if ((gsp_index)v == src || par[v] == v) break;
  }
  for (gsp_index a = 0, b = len - 1; a < b; a++, b--) {
    gsp_index t = p[a];
    p[a] = p[b], p[b] = t;
  }
  cli_value_str(val, sizeof val, g->type, dist);
  printf("path: %lld -> %lld, value %s, %llu vertices\n", cli_id(g, src), cli_id(g, dst), val, (unsigned long long)len);
  cli_print_path(c, g, p, len);
  free(p);
  return CLI_OK;
}

/* The graph line, and with -v the device, the CPU threads and their wait
 * policy; whether a GPU is usable. */
static bool say_graph(const cli_ctx *c, const cli_graph *g) {
  bool gpu = false;
  char dev[200] = "";
  gsp_cuda_available(&gpu, dev, sizeof dev);
  cli_say(c, "graph: %s: %" PRIu64 " vertices, %" PRIu64 " arcs, %s (read in %.3f s)\n", c->pos[0], g->n, g->nvals,
          cli_type_name(g->type), g->seconds);
  int threads = 0;
  gsp_get_threads(&threads);
  const char *wait = getenv("OMP_WAIT_POLICY");
  cli_verbose(c, "device: %s; %d CPU thread%s (OMP_WAIT_POLICY=%s)\n", dev, threads, threads == 1 ? "" : "s",
              wait ? wait : "default");
  return gpu;
}

/* One min-plus run: its options, where its rows go, its result. */
typedef struct {
  gsp_apsp_opts o;
  gsp_apsp_advanced oa;
  gsp_apsp_report rep;
  gsp_index *src, ns, prow; /* --sources (NULL: every vertex), their count, the row of --path's source */
  bool sample, want_paths, stream, summarize;
  double need, have; /* bytes of the result, bytes there are for it */
  const char *po;    /* --parent-output */
  stream_ctx st;     /* stream: the rows to the .npy files */
  cli_summary sum;   /* summarize: the rows computed straight into one array (rows_out: AUTO
                        decides as for a matrix, and as the Python call), then counted */
  void *rows;        /* that array */
  gsp_matrix D, P;   /* otherwise the result matrices */
} apsp_job;

/* The run's options from the command line; CLI_USAGE (message printed)
 * when one is malformed. */
static int job_options(cli_ctx *c, const char *cmd, const cli_graph *g, const char *pathq, gsp_index ps, apsp_job *j) {
  static const cli_name algos[] = {{"auto", GSP_APSP_AUTO},
                                   {"fw", GSP_APSP_FLOYD_WARSHALL},
                                   {"floyd-warshall", GSP_APSP_FLOYD_WARSHALL},
                                   {"msssp", GSP_APSP_MSSSP},
                                   {"johnson", GSP_APSP_JOHNSON},
                                   {"star", GSP_APSP_SPARSE_STAR},
                                   {NULL, 0}};
  static const cli_name parent_types[] = {{"int64", GSP_INT64}, {"int32", GSP_INT32}, {NULL, 0}};
  j->o.advanced = &j->oa;
  j->o.backend = c->backend;
  j->oa.report = &j->rep;
  if (!device_options(c, cmd, &j->oa.device_memory_cap, &j->oa.gpus)) return CLI_USAGE;
  const char *mc = cli_get(c, "memory-cap"), *a = cli_get(c, "algo"), *cut = cli_get(c, "cutoff");
  if (mc && !cli_bytes(cmd, "memory-cap", mc, &j->oa.host_memory_cap)) return CLI_USAGE;
  int algo = GSP_APSP_AUTO, ptype = GSP_INT64;
  if (a && !cli_choice(cmd, "algo", a, algos, &algo)) return CLI_USAGE;
  j->o.algo = (gsp_apsp_algo)algo;
  if (cut) {
    if (!cli_double(cmd, "cutoff", cut, &j->o.cutoff)) return CLI_USAGE;
    if (j->o.cutoff < 0) {
      fprintf(stderr, "gsp %s: --cutoff: '%s' is negative (distances above X are left out; X must be >= 0)\n", cmd,
              cut);
      return CLI_USAGE;
    }
    j->o.has_cutoff = true;
  }
  const char *pt = cli_get(c, "parent-type"), *ss = cli_get(c, "sources");
  if (pt && !cli_choice(cmd, "parent-type", pt, parent_types, &ptype)) return CLI_USAGE;
  if (pt) j->o.parent_type = (gsp_type)ptype;
  if (ss) {
    if (!parse_sources(cmd, g, ss, &j->src, &j->ns)) return CLI_USAGE;
    j->o.sources = j->src;
    j->o.nsources = j->ns;
  }
  j->prow = ps; /* the row of the --path source */
  if (pathq && j->src) {
    j->prow = j->ns;
    for (gsp_index k = 0; k < j->ns && j->prow == j->ns; k++)
      if (j->src[k] == ps) j->prow = k;
    if (j->prow == j->ns) {
      fprintf(stderr, "gsp %s: --path: source %lld is not among --sources\n", cmd, cli_id(g, ps));
      return CLI_USAGE;
    }
  }
  j->po = cli_get(c, "parent-output");
  j->want_paths = pathq || j->po; /* the sample path: one search afterwards */
  return CLI_OK;
}

/* The rows land in the caller's array (rows_out) as gsp_apsp computes
 * them; the summary is taken over the whole array afterwards
 * (summarize_result), so the closure's time is the library's call alone, as
 * for the C and Python callers. */
static int rows_landed(void *ctx, gsp_index first, gsp_index nrows, const void *dist, const int64_t *par) {
  (void)ctx, (void)first, (void)nrows, (void)dist, (void)par;
  return 0;
}

/* The summary of a result held whole in j->rows: the connected pairs, and
 * the farthest pair where the sample path is wanted. */
static void summarize_result(const cli_ctx *c, const cli_graph *g, apsp_job *j) {
  const double t0 = cli_now();
  if (j->sample) cli_summary_rows(&j->sum, 0, j->ns, j->rows, NULL);
  else j->sum.reach = cli_reached(g->type, j->rows, (size_t)j->ns * (size_t)g->n);
  cli_verbose(c, "summary of the result (%s): %.3f s\n",
              j->sample ? "connected pairs, farthest pair" : "connected pairs", cli_now() - t0);
}

/* Where the rows go: a result larger than the memory there is to its .npy
 * outputs in row blocks as gsp_apsp computes them (no sample path then);
 * one without parents into one array (rows_out), summarized after the call;
 * else the result matrices. */
static int job_outputs(cli_ctx *c, const char *cmd, const cli_graph *g, const char *pathq, gsp_index pd, cli_out *outs,
                       apsp_job *j) {
  const size_t ts = gsp_type_size(g->type), pts = j->o.parent_type == GSP_INT32 ? 4 : 8;
  j->need = (double)j->ns * (double)g->n * (double)(ts + (j->want_paths ? pts : 0));
  size_t avail = SIZE_MAX;
  (void)gsp_host_memory_available(&avail);
  j->have = j->oa.host_memory_cap ? (double)j->oa.host_memory_cap : (double)avail / 2;
  j->stream =
      j->need > j->have && c->output && is_npy(c->output, c->out_format) && (!j->po || is_npy(j->po, c->out_format));
  j->summarize = !j->stream && !j->want_paths;
  stream_ctx *st = &j->st;
  if (j->stream) {
    st->dt = g->type;
    st->pt = j->o.parent_type == GSP_INT32 ? GSP_INT32 : GSP_INT64;
    st->n = (int64_t)g->n;
    st->prow = pathq ? j->prow : (gsp_index)-1;
    st->pd = pd;
    st->path_par = malloc((g->n ? g->n : 1) * sizeof *st->path_par);
    st->conv = malloc((g->n ? g->n : 1) * 8);
    if (!st->path_par || !st->conv) return CLI_FAILURE;
    if (!(st->d = npy_begin(&outs[0], cmd, g->type, j->ns, g->n)) ||
        (j->po && !(st->p = npy_begin(&outs[1], cmd, st->pt, j->ns, g->n))))
      return CLI_OUTPUT;
    j->oa.rows = stream_rows;
    j->oa.rows_ctx = st;
    cli_verbose(c, "the result (%.3g bytes) does not fit in %.3g bytes: streamed to %s in row blocks\n", j->need,
                j->have, c->output);
  } else if (j->summarize) {
    j->sum.t = g->type, j->sum.n = g->n, j->sum.src = j->src;
    (void)gsp_semiring_identities(j->sum.zero, NULL, GSP_MIN_PLUS, g->type);
    if (!(j->rows = malloc(ts * (size_t)j->ns * (size_t)g->n + 1))) {
      fprintf(stderr, "gsp %s: no memory for the result (%.3g bytes)\n", cmd, j->need);
      return CLI_FAILURE;
    }
    j->oa.rows = rows_landed;
    j->oa.rows_out = j->rows;
  }
  return CLI_OK;
}

/* The message of a failed run, in the command line's words. */
static int job_failed(const char *cmd, const cli_ctx *c, const cli_graph *g, gsp_info info, const apsp_job *j) {
  if (info == GSP_ABORTED && j->stream) {
    fprintf(stderr, "gsp %s: cannot write %s: %s\n", cmd, j->st.parent_bad ? j->po : c->output,
            strerror(j->st.err ? j->st.err : EIO));
    return CLI_OUTPUT;
  }
  int64_t lightest[1] = {0};
  if (info == GSP_INVALID_VALUE && j->o.algo == GSP_APSP_MSSSP &&
      gsp_matrix_reduce_scalar(lightest, GSP_MIN, g->A) == GSP_SUCCESS && cli_value_at(g->type, lightest, 0) < 0) {
    fprintf(stderr,
            "gsp %s: --algo msssp needs non-negative weights and the graph has a negative one (use --algo johnson, "
            "--algo fw or --algo auto)\n",
            cmd);
    return CLI_USAGE;
  }
  int rc =
      cli_fail_graph(cmd, info == GSP_NEGATIVE_CYCLE ? "negative cycle" : "all-pairs shortest paths failed", info, g);
  if (info == GSP_OUT_OF_MEMORY && !j->stream && j->need > j->have)
    fprintf(stderr,
            "  the result takes %.3g bytes, more than the %.3g there are: with -o FILE.npy "
            "(and --parent-output FILE.npy) it is streamed to the file in row blocks\n",
            j->need, j->have);
  return rc;
}

/* The lines of a finished run: algorithm, time and rate, the cost model,
 * the GPU's phases, the connected pairs. */
static void job_report(const cli_ctx *c, const cli_graph *g, double secs, const apsp_job *j) {
  const gsp_apsp_report *rep = &j->rep;
  const double n = (double)g->n;
  const bool fw = rep->algo == GSP_APSP_FLOYD_WARSHALL, star = rep->algo == GSP_APSP_SPARSE_STAR;
  const double tasks = fw ? n * n * n : star ? (double)j->ns * n : (double)j->ns * (double)g->nvals;
  cli_say(c, "min-plus closure by %s (%s%s%s): %.3f s, %.2f G %s/s (%s = %.3g)\n", algo_name(rep->algo),
          j->o.algo == GSP_APSP_AUTO ? "auto: " : "", rep->backend == GSP_BACKEND_CUDA ? "cuda" : "cpu",
          j->want_paths ? ", with paths" : "", secs, secs > 0 ? tasks / secs * 1e-9 : 0.0,
          fw     ? "relaxations"
          : star ? "pairs"
                 : "arc relaxations",
          fw     ? "n^3"
          : star ? "sources x n"
                 : "sources x arcs",
          tasks);
  cli_verbose(c,
              "algorithm: %s (%s); predicted fw %.3g s, msssp %.3g s, johnson %.3g s, star %.3g s; %llu row "
              "block(s) of %llu\n",
              algo_name(rep->algo), j->o.algo == GSP_APSP_AUTO ? "chosen by the cost model" : "forced",
              rep->predicted_seconds[GSP_APSP_FLOYD_WARSHALL], rep->predicted_seconds[GSP_APSP_MSSSP],
              rep->predicted_seconds[GSP_APSP_JOHNSON], rep->predicted_seconds[GSP_APSP_SPARSE_STAR],
              (unsigned long long)rep->row_blocks, (unsigned long long)rep->row_block);
  if (rep->backend == GSP_BACKEND_CUDA)
    cli_say(c,
            "phases: read %.3f s, prepare %.3f s, compute %.3f s (device kernels %.3f s, copies to "
            "the host %.3f s, overlapped), result %.3f s\n",
            g->seconds, rep->prepare_s, rep->compute_s, rep->device_s, rep->copy_s, rep->finish_s);
  gsp_index reach = (gsp_index)(j->summarize ? j->sum.reach : j->st.reach);
  if (!j->stream && !j->summarize) gsp_matrix_nvals(&reach, j->D);
  const double all = (double)j->ns * n;
  cli_say(c, "connected pairs: %" PRIu64 " of %.0f (%.1f%%)\n", reach, all,
          all > 0 ? 100.0 * (double)reach / all : 0.0);
}

/* The outputs of a finished run: the streamed files committed, --path,
 * the sample path, -o and --parent-output. */
static int job_results(cli_ctx *c, const char *cmd, const cli_graph *g, const char *pathq, gsp_index ps, gsp_index pd,
                       const cli_map *map, cli_out *outs, apsp_job *j) {
  int rc = CLI_OK;
  const gsp_index *src = j->src;
  if (j->stream) {
    if ((rc = cli_out_commit(&outs[0], cmd)) || (rc = cli_out_commit(&outs[1], cmd))) return rc;
    cli_verbose(c, "wrote %s\n", c->output);
    if (pathq && j->st.path_seen) rc = print_par_row(c, g, j->st.path_par, j->st.path_dist, ps, pd);
    say_npy_no_path(c, c->output, c->out_format, g->type); /* after the path, as for a whole write */
    return rc;
  }
  if (pathq && (rc = print_parent_path(c, g, j->D, j->P, j->prow, ps, pd, "path", map))) return rc;
  gsp_index si = j->sum.si, sj = j->sum.sj;
  bool found = j->sample && j->sum.found;
  const char *label = "sample path (the pair farthest apart)";
  if (j->sample && !pathq && !j->summarize && (rc = farthest_pair(&j->D, g->type, j->ns, g->n, src, &si, &sj, &found)))
    return rc;
  if (found && (rc = j->P ? print_parent_path(c, g, j->D, j->P, si, src ? src[si] : si, sj, label, map)
                          : print_search_path(c, g, src ? src[si] : si, sj, &j->o, label, map)))
    return rc;
  if (c->output) {
    int64_t zero[1];
    (void)gsp_semiring_identities(zero, NULL, GSP_MIN_PLUS, g->type);
    char note[160];
    snprintf(note, sizeof note, "min-plus shortest distances of %s (%s)", c->pos[0], algo_name(j->rep.algo));
    gsp_info pi = j->summarize ? gsp_matrix_pack_dense(&j->D, g->type, j->ns, g->n, &j->rows, zero) : GSP_SUCCESS;
    if (pi < 0) return cli_fail(cmd, "cannot keep the result", pi);
    const double tw = cli_now();
    if ((rc = cli_out_matrix(&outs[0], cmd, j->D, c->out_format, zero, note))) return rc;
    cli_verbose(c, "wrote %s\n", c->output);
    say_npy_no_path(c, c->output, c->out_format, g->type);
    if (j->rep.backend == GSP_BACKEND_CUDA) cli_say(c, "phases: write %.3f s\n", cli_now() - tw);
  }
  if (j->po)
    rc = cli_out_matrix(&outs[1], cmd, j->P, c->out_format, NULL, "parent matrix (0-based; -1 or absent: none)");
  return rc;
}

/* Min-plus through gsp_apsp. */
static int apsp_route(cli_ctx *c, const char *cmd, cli_graph *g, const char *pathq, gsp_index ps, gsp_index pd,
                      const cli_map *map, cli_out *outs) {
  apsp_job j;
  memset(&j, 0, sizeof j);
  j.ns = g->n;
  int rc = job_options(c, cmd, g, pathq, ps, &j);
  if (rc) goto done;
  j.sample = !cli_get(c, "no-sample") && (c->verbosity >= 1 || map->on);
  say_graph(c, g);
  if ((rc = job_outputs(c, cmd, g, pathq, pd, outs, &j))) goto done;
  cli_progress prog;
  cli_progress_start(&prog, c, "computing");
  if (prog.on) { /* the run in parts, a bar or lines */
    j.oa.progress = cli_progress_update;
    j.oa.progress_ctx = &prog;
  }
  const double t0 = cli_now();
  gsp_info info = gsp_apsp(&j.D, j.want_paths ? &j.P : NULL, g->A, &j.o);
  const double secs = cli_now() - t0;
  cli_progress_end(&prog);
  if (info < 0) {
    rc = job_failed(cmd, c, g, info, &j);
    goto done;
  }
  if (j.summarize) summarize_result(c, g, &j);
  job_report(c, g, secs, &j);
  rc = job_results(c, cmd, g, pathq, ps, pd, map, outs, &j);
done:
  free(j.rows);
  free(j.st.path_par);
  free(j.st.conv);
  gsp_matrix_free(&j.D);
  gsp_matrix_free(&j.P);
  free(j.src);
  return rc;
}

/* The GPU's context starts (gsp_cuda_warm_up) while the graph is read. */
static void *warm_up(void *unused) {
  (void)unused;
  gsp_cuda_warm_up();
  return NULL;
}

/* The closure on another semiring, with successors or M+: gsp_closure_ext
 * on the graph in place, then its lines, paths and outputs. */
static int closure_route(cli_ctx *c, const char *cmd, cli_graph *g, gsp_semiring s, const char *pathq, gsp_index ps,
                         gsp_index pd, const cli_map *map, cli_out *outs) {
  int rc = CLI_OK;
  gsp_matrix succ = NULL;
  const char *what = s == GSP_MIN_PLUS ? "distance" : "value";
  if (cli_get(c, "algo") || cli_get(c, "sources") || cli_get(c, "cutoff") || cli_get(c, "parent-output") ||
      cli_get(c, "parent-type")) {
    fprintf(stderr,
            "gsp %s: --algo, --sources, --cutoff, --parent-output and "
            "--parent-type are for min-plus shortest paths (not with "
            "--succ-output or --non-reflexive)\n",
            cmd);
    return CLI_USAGE;
  }
  bool sample = !cli_get(c, "no-sample") && (c->verbosity >= 1 || map->on);
  bool want_succ = pathq || sample || cli_get(c, "succ-output");
  gsp_closure_advanced ca = {0};
  gsp_closure_opts co = {.non_reflexive = cli_get(c, "non-reflexive") != NULL, .backend = c->backend, .advanced = &ca};
  if (!device_options(c, cmd, &ca.device_memory_cap, &ca.gpus)) return CLI_USAGE;
  const bool gpu = say_graph(c, g);
  const char *where = c->backend == GSP_BACKEND_CPU    ? "cpu"
                      : c->backend == GSP_BACKEND_CUDA ? "cuda"
                      : gpu                            ? "auto: cuda"
                                                       : "auto: cpu";
  cli_progress prog;
  cli_progress_start(&prog, c, "computing");
  if (prog.on) { /* after rounds of Floyd-Warshall, batches of the star */
    ca.progress = cli_progress_update;
    ca.progress_ctx = &prog;
  }
  double t0 = cli_now();
  gsp_info info = gsp_closure_ext(g->A, want_succ ? &succ : NULL, s, &co);
  double secs = cli_now() - t0;
  cli_progress_end(&prog);
  if (info < 0) {
    return cli_fail_graph(cmd, "closure failed", info, g);
  }
  gsp_index reach = 0;
  gsp_matrix_nvals(&reach, g->A);
  double n3 = (double)g->n * (double)g->n * (double)g->n;
  cli_say(c, "%s closure (%s%s): %.3f s, %.2f G relaxations/s (n^3 = %.3g)\n", cli_semiring_name(s), where,
          want_succ ? ", with paths" : "", secs, secs > 0 ? n3 / secs * 1e-9 : 0.0, n3);
  double all = (double)g->n * (double)g->n;
  cli_say(c, "connected pairs: %" PRIu64 " of %.0f (%.1f%%)\n", reach, all,
          all > 0 ? 100.0 * (double)reach / all : 0.0);
  if (pathq) {
    rc = print_path(c, g, g->A, succ, ps, pd, "path", map, what);
    if (rc) goto done;
  }
  gsp_index si, sj;
  if (sample && !pathq && sample_pair(g->A, g, s, g->n, NULL, &si, &sj) &&
      (rc = print_path(c, g, g->A, succ, si, sj,
                       s == GSP_MIN_PLUS ? "sample path (the pair farthest apart)" : "sample path", map, what)))
    goto done;
  if (c->output) {
    int64_t zero[1];
    (void)gsp_semiring_identities(zero, NULL, s, g->type);
    char note[128];
    snprintf(note, sizeof note, "%s closure of %s", cli_semiring_name(s), c->pos[0]);
    if ((rc = cli_out_matrix(&outs[0], cmd, g->A, c->out_format, zero, note))) goto done;
    cli_verbose(c, "wrote %s\n", c->output);
  }
  if ((rc = cli_out_matrix(&outs[2], cmd, succ, c->out_format, NULL, "successor matrix (0-based)"))) goto done;
done:
  gsp_matrix_free(&succ);
  return rc;
}

/* --path SRC:DST into the vertices *ps and *pd; false (message printed)
 * when malformed. */
static bool parse_path(const char *cmd, const cli_graph *g, const char *pathq, gsp_index *ps, gsp_index *pd) {
  char a[64], b[64];
  const char *colon = strchr(pathq, ':');
  if (!colon || (size_t)(colon - pathq) >= sizeof a || strlen(colon) >= sizeof b) {
    fprintf(stderr, "gsp %s: --path: expected SRC:DST, got '%s'\n", cmd, pathq);
    return false;
  }
  memcpy(a, pathq, (size_t)(colon - pathq));
  a[colon - pathq] = '\0';
  strcpy(b, colon + 1);
  return cli_vertex(cmd, g, a, ps) && cli_vertex(cmd, g, b, pd);
}

static int run(cli_ctx *c, const char *cmd) {
  int rc;
  gsp_semiring s = GSP_MIN_PLUS;
  if (c->semiring_name && !cli_semiring(cmd, c->semiring_name, &s)) return CLI_USAGE;
  if (s == GSP_PLUS_TIMES) {
    fprintf(stderr, "gsp %s: plus-times has no closure\n", cmd);
    return CLI_USAGE;
  }
  int mpi_rank, mpi_size;
  switch (cli_mpi_begin(cli_get(c, "mpi") != NULL, cmd, &mpi_rank, &mpi_size)) {
  case 1:
    return apsp_mpi(c, cmd, s, mpi_rank, mpi_size);
  case -1:
    return CLI_UNAVAILABLE;
  default:
    break;
  }
  if ((rc = cli_setup(c, cmd))) return rc;
  /* every output is checked before the graph is even read */
  cli_out outs[3]; /* -o, --parent-output, --succ-output */
  memset(outs, 0, sizeof outs);
  cli_graph g;
  memset(&g, 0, sizeof g);
  cli_map map = {0};
  pthread_t warm;
  bool warming = c->backend != GSP_BACKEND_CPU && pthread_create(&warm, NULL, warm_up, NULL) == 0;
  if ((rc = cli_out_open(&outs[0], cmd, c->output)) ||
      (rc = cli_out_open(&outs[1], cmd, cli_get(c, "parent-output"))) ||
      (rc = cli_out_open(&outs[2], cmd, cli_get(c, "succ-output"))) || (rc = cli_load(c, cmd, c->pos[0], &g)))
    goto done;
  gsp_index ps = 0, pd = 0;
  const char *pathq = cli_get(c, "path");
  if (pathq && !parse_path(cmd, &g, pathq, &ps, &pd)) {
    rc = CLI_USAGE;
    goto done;
  }
  if ((rc = cli_prepare(c, cmd, &g, s))) goto done;
  if (warming) { /* the computation's times leave the context's start out: it is a phase of its own */
    const double t0 = cli_now();
    pthread_join(warm, NULL);
    warming = false;
    cli_verbose(c, "device start: %.3f s beyond the read\n", cli_now() - t0);
  }
  if ((cli_get(c, "svg") || cli_get(c, "geojson")) && !pathq && cli_get(c, "no-sample")) {
    fprintf(stderr,
            "gsp %s: --svg and --geojson draw the sample path or "
            "--path SRC:DST (not with --no-sample alone)\n",
            cmd);
    rc = CLI_USAGE;
    goto done;
  }
  if ((rc = cli_map_open(c, cmd, &g, &map))) goto done;
  /* min-plus shortest paths go through gsp_apsp; successors, M+ and the
   * other semirings through the closure */
  bool closure_only = s != GSP_MIN_PLUS || cli_get(c, "succ-output") || cli_get(c, "non-reflexive");
  if (!closure_only) {
    rc = apsp_route(c, cmd, &g, pathq, ps, pd, &map, outs);
    goto done;
  }
  rc = closure_route(c, cmd, &g, s, pathq, ps, pd, &map, outs);
done:
  if (warming) pthread_join(warm, NULL);
  for (int k = 0; k < 3; k++) cli_out_abort(&outs[k]); /* uncommitted: an error came first */
  cli_map_free(&map);
  cli_graph_free(&g);
  return rc;
}

static const cli_opt opts[] = {
    CLI_OPT_SEMIRING(", or-and"),
    {"output", 'o', OPT_VALUE, "FILE  write the result matrix (format from the extension or --format)"},
    {"format", 'f', OPT_VALUE, "F  output format: mtx|dimacs|edgelist|dense|npy"},
    {"succ-output", 0, OPT_VALUE, "FILE  write the successor matrix (int64, 0-based vertices)"},
    {"path", 'p', OPT_VALUE, "SRC:DST  print the optimal path SRC -> DST (file ids)"},
    {"no-sample", 0, OPT_FLAG, "   do not print a sample path"},
    {"non-reflexive", 0, OPT_FLAG, "   compute M+ (paths of >= 1 arc) instead of M*"},
    {"mpi", 0, OPT_FLAG,
     "   run the closure over the MPI ranks (implied under mpirun -n K, K > 1; see docs/distributed.md)"},
    {"algo", 'a', OPT_VALUE, "A  min-plus algorithm: auto (default), fw, msssp, johnson"},
    {"sources", 0, OPT_VALUE, "LIST  only these source rows: file ids separated by commas, or a DIMACS .ss file"},
    {"cutoff", 0, OPT_VALUE, "X  leave out distances above X"},
    {"parent-output", 0, OPT_VALUE, "FILE  write the parent matrix (int64, 0-based; row k = tree of source k)"},
    {"parent-type", 0, OPT_VALUE, "T  parents held as int64 (default) or int32 (half the memory)"},
    {"device-memory-cap", 0, OPT_VALUE,
     "BYTES  GPU memory to use at most (k/M/G suffixes); a larger matrix is closed out of core"},
    {"gpus", 0, OPT_VALUE, "N  GPUs to use (default 0: automatic, or GSP_GPUS)"},
    {"memory-cap", 0, OPT_VALUE,
     "BYTES  host memory for the result at most (k/M/G); a larger min-plus result goes to its .npy file in row blocks"},
    {NULL, 0, OPT_FLAG, NULL}};

const cli_command cmd_apsp = {synopsis, description, opts, true, true, 1, "one GRAPH file", run};
