/* gsp apsp (alias closure): all-pairs closure of a graph on a semiring,
 * with timing, reachability statistics and a sample path. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const cli_opt opts[] = {
    {"semiring", 's', OPT_VALUE, "S  min-plus (default), max-plus, max-min, "
                                 "min-max, or-and"},
    {"output", 'o', OPT_VALUE, "FILE  write the result matrix (format from "
                               "the extension or --format)"},
    {"format", 'f', OPT_VALUE, "F  output format: mtx|dimacs|edgelist|dense|"
                               "npy"},
    {"succ-output", 0, OPT_VALUE, "FILE  write the successor matrix (int64, "
                                  "0-based vertices)"},
    {"path", 'p', OPT_VALUE, "SRC:DST  print the optimal path SRC -> DST "
                             "(file ids)"},
    {"no-sample", 0, OPT_FLAG, "   do not print a sample path"},
    {"non-reflexive", 0, OPT_FLAG, "   compute M+ (paths of >= 1 arc) instead "
                                   "of M*"},
    {"device-memory-cap", 0, OPT_VALUE, "BYTES  GPU memory to use at most "
                                        "(k/M/G suffixes); a larger matrix "
                                        "is closed out of core"},
    {"gpus", 0, OPT_VALUE, "N  GPUs to use (default 0: automatic, or "
                           "GSP_GPUS)"},
    {NULL, 0, OPT_FLAG, NULL}};

static const char *synopsis = "gsp apsp [options] GRAPH";
static const char *description =
    "All-pairs shortest paths (or another closure) of GRAPH: M* = I + M + M^2 "
    "+ ...\non the chosen semiring, by blocked Floyd-Warshall (gsp_closure_"
    "ext), on the GPU\nwhen one is usable. Prints the time taken, how many "
    "pairs are connected and a\nsample optimal path (for min-plus the pair "
    "farthest apart). Vertices are\nnamed as in the file (1-based for Matrix "
    "Market and DIMACS).";

/* The semiring's "no path" value of type t. */
static void semiring_zero(void *out, gsp_semiring s, gsp_type t) {
  bool hi = s == GSP_MIN_PLUS || s == GSP_MIN_MAX;
  switch (t) {
  case GSP_BOOL: *(bool *)out = false; break;
  case GSP_INT32: *(int32_t *)out = hi ? INT32_MAX : INT32_MIN; break;
  case GSP_INT64: *(int64_t *)out = hi ? INT64_MAX : INT64_MIN; break;
  case GSP_FP32: *(float *)out = hi ? INFINITY : -INFINITY; break;
  case GSP_FP64: *(double *)out = hi ? INFINITY : -INFINITY; break;
  }
}

static double as_double(gsp_type t, const void *x) {
  /* values compared as doubles: exact for the integer ranges of paths */
  switch (t) {
  case GSP_BOOL: return *(const bool *)x;
  case GSP_INT32: return *(const int32_t *)x;
  case GSP_INT64: return (double)*(const int64_t *)x;
  case GSP_FP32: return *(const float *)x;
  default: return *(const double *)x;
  }
}

/* Print the optimal path src -> dst with its value. Returns CLI_NO_PATH
 * when there is none. */
static int print_path(const cli_ctx *c, const cli_graph *g, gsp_matrix M,
                      gsp_matrix succ, gsp_index src, gsp_index dst,
                      const char *label) {
  gsp_index len = g->n ? g->n : 1;
  gsp_index *p = malloc(len * sizeof *p);
  if (!p) return CLI_FAILURE;
  gsp_info info = gsp_path_extract(p, &len, succ, src, dst);
  if (info == GSP_NO_VALUE) {
    free(p);
    printf("%s: no path from %lld to %lld\n", label, cli_id(g, src),
           cli_id(g, dst));
    return CLI_NO_PATH;
  }
  if (info < 0) {
    free(p);
    return cli_fail("apsp", "cannot extract the path", info);
  }
  int64_t vbuf[2];
  char val[64] = "?";
  if (gsp_matrix_extract_element(vbuf, M, src, dst) == GSP_SUCCESS)
    cli_value_str(val, sizeof val, g->type, vbuf);
  printf("%s: %lld -> %lld, value %s, %llu vertices\n", label,
         cli_id(g, src), cli_id(g, dst), val, (unsigned long long)len);
  cli_print_path(c, g, p, len);
  free(p);
  return CLI_OK;
}

/* Row i of M as dense values and presence: e_i (+.*) M on PLUS_TIMES is
 * exactly row i (one term, times 1), with no n^2 copy of M. */
static bool get_row(gsp_matrix M, gsp_type t, gsp_index n, gsp_index i,
                    gsp_index *I, void *X, gsp_index *cnt) {
  gsp_vector e = NULL, r = NULL;
  int64_t one_buf[1];
  switch (t) {
  case GSP_INT32: *(int32_t *)one_buf = 1; break;
  case GSP_INT64: *(int64_t *)one_buf = 1; break;
  case GSP_FP32: *(float *)one_buf = 1; break;
  case GSP_FP64: *(double *)one_buf = 1; break;
  default: return false;
  }
  bool ok = gsp_vector_new(&e, t, n) == GSP_SUCCESS &&
            gsp_vector_new(&r, t, n) == GSP_SUCCESS &&
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
static bool sample_pair(gsp_matrix M, const cli_graph *g, gsp_semiring s,
                        gsp_index *si, gsp_index *sj) {
  gsp_index n = g->n;
  gsp_type t = g->type;
  if (n < 2 || t == GSP_BOOL) return false;
  size_t ts = gsp_type_size(t);
  gsp_index *I = malloc(n * sizeof *I);
  void *X = malloc(n * ts);
  gsp_vector ext = NULL;
  bool found = false, minp = s == GSP_MIN_PLUS, maxp = s == GSP_MAX_PLUS;
  gsp_index row = (gsp_index)(n * 0.61803398875) % n, cnt = 0;
  if (!I || !X) goto done;
  if (minp || maxp) { /* row with the extreme entry */
    if (gsp_vector_new(&ext, t, n) != GSP_SUCCESS ||
        gsp_matrix_reduce_vector(ext, NULL, GSP_NOOP, minp ? GSP_MAX : GSP_MIN,
                                 M, NULL) != GSP_SUCCESS)
      goto done;
    cnt = n;
    if (gsp_vector_extract_tuples(I, X, &cnt, ext) != GSP_SUCCESS) goto done;
    double best = 0;
    for (gsp_index k = 0; k < cnt; k++) {
      double v = as_double(t, (char *)X + k * ts);
      if (!isfinite(v)) continue;
      if (k == 0 || (minp ? v > best : v < best)) best = v, row = I[k];
    }
  }
  if (!get_row(M, t, n, row, I, X, &cnt)) goto done;
  double best = 0;
  for (gsp_index k = 0; k < cnt; k++) {
    double v = as_double(t, (char *)X + k * ts);
    if (I[k] == row || !isfinite(v)) continue;
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

static int write_matrix(const char *cmd, const char *path, gsp_matrix M,
                        gsp_file_format f, const void *absent,
                        const char *comment) {
  gsp_write_opts w = {.format = f, .absent = absent, .comment = comment};
  gsp_info info = gsp_matrix_write(path, M, &w);
  if (info < 0) {
    fprintf(stderr, "gsp %s: cannot write %s: %s\n  %s\n", cmd, path,
            gsp_strerror(info), gsp_last_error());
    return info == GSP_IO_ERROR ? CLI_OUTPUT : CLI_FAILURE;
  }
  return CLI_OK;
}

int cmd_apsp(int argc, char **argv) {
  const char *cmd = argv[0];
  cli_ctx c;
  int rc = cli_begin(&c, argc, argv, true, opts, synopsis, description, 1,
                     "one GRAPH file");
  if (rc >= 0) return rc;
  gsp_semiring s = GSP_MIN_PLUS;
  if (c.semiring_name && !cli_semiring(cmd, c.semiring_name, &s))
    return CLI_USAGE;
  if (s == GSP_PLUS_TIMES) {
    fprintf(stderr, "gsp %s: plus-times has no closure\n", cmd);
    return CLI_USAGE;
  }
  if ((rc = cli_setup(&c, cmd))) return rc;
  cli_graph g;
  if ((rc = cli_load(&c, cmd, c.pos[0], &g))) return rc;
  gsp_matrix succ = NULL;
  gsp_index ps = 0, pd = 0;
  const char *pathq = cli_get(&c, "path");
  if (pathq) {
    char a[64], b[64];
    const char *colon = strchr(pathq, ':');
    if (!colon || (size_t)(colon - pathq) >= sizeof a || strlen(colon) >= sizeof b) {
      fprintf(stderr, "gsp %s: --path: expected SRC:DST, got '%s'\n", cmd,
              pathq);
      rc = CLI_USAGE;
      goto done;
    }
    memcpy(a, pathq, (size_t)(colon - pathq));
    a[colon - pathq] = '\0';
    strcpy(b, colon + 1);
    if (!cli_vertex(cmd, &g, a, &ps) || !cli_vertex(cmd, &g, b, &pd)) {
      rc = CLI_USAGE;
      goto done;
    }
  }
  if ((rc = cli_prepare(&c, cmd, &g, s))) goto done;
  bool sample = !cli_get(&c, "no-sample") && c.verbosity >= 1;
  bool want_succ = pathq || sample || cli_get(&c, "succ-output");
  gsp_closure_opts co = {.non_reflexive = cli_get(&c, "non-reflexive") != NULL,
                         .backend = c.backend};
  const char *capv = cli_get(&c, "device-memory-cap"), *gpuv = cli_get(&c, "gpus");
  if (capv && !cli_bytes(cmd, "device-memory-cap", capv, &co.device_memory_cap)) {
    rc = CLI_USAGE;
    goto done;
  }
  if (gpuv) {
    int64_t ng;
    if (!cli_int(cmd, "gpus", gpuv, 0, 1024, &ng)) {
      rc = CLI_USAGE;
      goto done;
    }
    co.gpus = (int)ng;
  }
  bool gpu = false;
  char dev[200] = "";
  gsp_cuda_available(&gpu, dev, sizeof dev);
  const char *where = c.backend == GSP_BACKEND_CPU    ? "cpu"
                      : c.backend == GSP_BACKEND_CUDA ? "cuda"
                      : gpu                           ? "auto: cuda"
                                                      : "auto: cpu";
  cli_say(&c, "graph: %s: %" PRIu64 " vertices, %" PRIu64 " arcs, %s (read "
              "in %.3f s)\n",
          c.pos[0], g.n, g.nvals, cli_type_name(g.type), g.seconds);
  cli_verbose(&c, "device: %s\n", dev);
  double t0 = cli_now();
  gsp_info info = gsp_closure_ext(g.A, want_succ ? &succ : NULL, s, &co);
  double secs = cli_now() - t0;
  if (info < 0) {
    rc = cli_fail(cmd, "closure failed", info);
    goto done;
  }
  gsp_index reach = 0;
  gsp_matrix_nvals(&reach, g.A);
  double n3 = (double)g.n * (double)g.n * (double)g.n;
  cli_say(&c, "%s closure (%s%s): %.3f s, %.2f G relaxations/s (n^3 = %.3g)\n",
          cli_semiring_name(s), where, want_succ ? ", with paths" : "", secs,
          secs > 0 ? n3 / secs * 1e-9 : 0.0, n3);
  double all = (double)g.n * (double)g.n;
  cli_say(&c, "connected pairs: %" PRIu64 " of %.0f (%.1f%%)\n", reach, all,
          all > 0 ? 100.0 * (double)reach / all : 0.0);
  if (pathq) {
    rc = print_path(&c, &g, g.A, succ, ps, pd, "path");
    if (rc) goto done;
  }
  gsp_index si, sj;
  if (sample && !pathq && sample_pair(g.A, &g, s, &si, &sj))
    print_path(&c, &g, g.A, succ, si, sj,
               s == GSP_MIN_PLUS ? "sample path (the pair farthest apart)"
                                 : "sample path");
  if (c.output) {
    int64_t zero[1];
    semiring_zero(zero, s, g.type);
    char note[128];
    snprintf(note, sizeof note, "%s closure of %s", cli_semiring_name(s),
             c.pos[0]);
    if ((rc = write_matrix(cmd, c.output, g.A, c.out_format, zero, note)))
      goto done;
    cli_verbose(&c, "wrote %s\n", c.output);
  }
  const char *so = cli_get(&c, "succ-output");
  if (so && (rc = write_matrix(cmd, so, succ, c.out_format, NULL,
                               "successor matrix (0-based)")))
    goto done;
done:
  gsp_matrix_free(&succ);
  cli_graph_free(&g);
  return rc;
}
