/* gsp check: recompute rows of the closure with SuiteSparse:GraphBLAS and
 * compare. GraphBLAS has no Floyd-Warshall, so each reference row is a
 * relaxation to a fixpoint from one source: d = d (+) d (+.*) A, i.e.
 * Bellman-Ford with GrB_vxm, which shares no code with gsp's kernels. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char synopsis[] = "gsp check [options] GRAPH";
static const char description[] = "Cross-check gsp against SuiteSparse:GraphBLAS on GRAPH: gsp computes the "
                                  "closure\n(or, for large min-plus graphs, SSSP rows), GraphBLAS relaxes "
                                  "d = d (+) d (+.*) A\nto a fixpoint from each sampled source, and the "
                                  "rows are compared (exactly for\nintegers and booleans). Exit code 7 on "
                                  "any disagreement, 8 when this gsp was\nbuilt without GraphBLAS.";

#ifndef GSP_CLI_HAVE_GRAPHBLAS

static int run(cli_ctx *c, const char *cmd) {
  (void)c;
  fprintf(stderr,
          "gsp %s: this gsp was built without SuiteSparse:GraphBLAS "
          "(install libgraphblas-dev and reconfigure)\n",
          cmd);
  return CLI_UNAVAILABLE;
}

#else

#include <GraphBLAS.h>

static GrB_Type grb_type(gsp_type t) {
  switch (t) {
  case GSP_BOOL:
    return GrB_BOOL;
  case GSP_INT32:
    return GrB_INT32;
  case GSP_INT64:
    return GrB_INT64;
  case GSP_FP32:
    return GrB_FP32;
  default:
    return GrB_FP64;
  }
}

/* GraphBLAS semiring and its add operator (the accumulator). */
static bool grb_semiring(gsp_semiring s, gsp_type t, GrB_Semiring *sr, GrB_BinaryOp *add) {
#define PICK(S, A)    \
  switch (t) {        \
  case GSP_INT32:     \
    *sr = S##_INT32;  \
    *add = A##_INT32; \
    return true;      \
  case GSP_INT64:     \
    *sr = S##_INT64;  \
    *add = A##_INT64; \
    return true;      \
  case GSP_FP32:      \
    *sr = S##_FP32;   \
    *add = A##_FP32;  \
    return true;      \
  case GSP_FP64:      \
    *sr = S##_FP64;   \
    *add = A##_FP64;  \
    return true;      \
  default:            \
    return false;     \
  }
  switch (s) {
  case GSP_MIN_PLUS:
    PICK(GrB_MIN_PLUS_SEMIRING, GrB_MIN)
  case GSP_MAX_PLUS:
    PICK(GrB_MAX_PLUS_SEMIRING, GrB_MAX)
  case GSP_MAX_MIN:
    PICK(GrB_MAX_MIN_SEMIRING, GrB_MAX)
  case GSP_MIN_MAX:
    PICK(GrB_MIN_MAX_SEMIRING, GrB_MIN)
  case GSP_OR_AND:
    if (t != GSP_BOOL) return false;
    *sr = GrB_LOR_LAND_SEMIRING_BOOL;
    *add = GrB_LOR;
    return true;
  default:
    return false;
  }
#undef PICK
}

/* Reference row: relax d from source s to a fixpoint. present/vals hold
 * the result densely. */
static GrB_Info reference_row(GrB_Matrix G, GrB_Semiring sr, GrB_BinaryOp add, gsp_type t, gsp_semiring s, gsp_index n,
                              gsp_index src, bool *present, void *vals, GrB_Index *I, void *X) {
  GrB_Vector d = NULL;
  GrB_Info info;
  GrB_Index nv = 0, prev = (GrB_Index)-1;
  size_t ts = gsp_type_size(t);
  char one[8];
  (void)gsp_semiring_identities(NULL, one, s, t); /* the empty path */
  if ((info = GrB_Vector_new(&d, grb_type(t), n)) != GrB_SUCCESS) return info;
  /* the source's entry, the semiring's one, set through a type that holds
   * it exactly (GraphBLAS casts it to d's type) */
  if (t == GSP_BOOL) info = GrB_Vector_setElement_BOOL(d, *(bool *)one, src);
  else if (t == GSP_INT32) info = GrB_Vector_setElement_INT64(d, *(int32_t *)one, src);
  else if (t == GSP_INT64) info = GrB_Vector_setElement_INT64(d, *(int64_t *)one, src);
  else info = GrB_Vector_setElement_FP64(d, cli_value_at(t, one, 0), src);
  /* iterate until the values stop changing: compare dense snapshots */
  char *snap = calloc(n + 1, ts);
  char *cur = calloc(n + 1, ts);
  bool *had = calloc(n + 1, 1);
  if (!snap || !cur || !had) info = GrB_OUT_OF_MEMORY;
  for (gsp_index it = 0; info == GrB_SUCCESS && it <= n; it++) {
    info = GrB_vxm(d, NULL, add, sr, d, G, NULL);
    if (info != GrB_SUCCESS) break;
    GrB_Vector_nvals(&nv, d);
    GrB_Index cnt = nv;
    info = t == GSP_BOOL    ? GrB_Vector_extractTuples_BOOL(I, X, &cnt, d)
           : t == GSP_INT32 ? GrB_Vector_extractTuples_INT32(I, X, &cnt, d)
           : t == GSP_INT64 ? GrB_Vector_extractTuples_INT64(I, X, &cnt, d)
           : t == GSP_FP32  ? GrB_Vector_extractTuples_FP32(I, X, &cnt, d)
                            : GrB_Vector_extractTuples_FP64(I, X, &cnt, d);
    memset(present, 0, n);
    for (GrB_Index k = 0; k < cnt; k++) {
      present[I[k]] = true;
      memcpy(cur + I[k] * ts, (char *)X + k * ts, ts);
    }
    bool same = nv == prev && !memcmp(cur, snap, n * ts) && !memcmp(had, present, n);
    memcpy(snap, cur, n * ts);
    memcpy(had, present, n);
    prev = nv;
    if (same) break;
  }
  memcpy(vals, snap, n * ts);
  free(snap);
  free(cur);
  free(had);
  GrB_Vector_free(&d);
  return info;
}

/* One check: the graph, gsp's rows and the reference's, and the tally. */
typedef struct {
  cli_graph g;
  gsp_semiring s;
  gsp_type t;
  size_t ts;
  gsp_index n;
  double tol;
  char zero[8];       /* the semiring's zero: "no path" */
  GrB_Matrix G;       /* the graph for GraphBLAS */
  void *dense;        /* gsp's closure, n x n (full check) */
  gsp_index *sources; /* the source rows, shuffled */
  gsp_index bad, compared;
  double maxrel;
} check_run;

/* The graph as a GraphBLAS matrix (parallel arcs: the lighter; bool: or). */
static int grb_graph(const char *cmd, check_run *r) {
  const gsp_index n = r->n, m = r->g.nvals;
  gsp_index *rp = malloc((n + 1) * sizeof *rp), *ci = malloc((m + 1) * sizeof *ci);
  GrB_Index *gi = malloc((m + 1) * sizeof *gi), *gj = malloc((m + 1) * sizeof *gj);
  void *x = malloc((m + 1) * r->ts);
  int rc = CLI_OK;
  gsp_info info;
  if (!rp || !ci || !gi || !gj || !x) {
    rc = CLI_FAILURE;
  } else if ((info = gsp_matrix_export_csr(rp, ci, x, r->g.A)) < 0) {
    rc = cli_fail(cmd, "export", info);
  } else {
    for (gsp_index i = 0; i < n; i++)
      for (gsp_index k = rp[i]; k < rp[i + 1]; k++) gi[k] = i, gj[k] = ci[k];
    const gsp_type t = r->t;
    GrB_Info gr = GrB_Matrix_new(&r->G, grb_type(t), n, n);
    if (gr == GrB_SUCCESS)
      gr = t == GSP_BOOL    ? GrB_Matrix_build_BOOL(r->G, gi, gj, x, m, GrB_LOR)
           : t == GSP_INT32 ? GrB_Matrix_build_INT32(r->G, gi, gj, x, m, GrB_MIN_INT32)
           : t == GSP_INT64 ? GrB_Matrix_build_INT64(r->G, gi, gj, x, m, GrB_MIN_INT64)
           : t == GSP_FP32  ? GrB_Matrix_build_FP32(r->G, gi, gj, x, m, GrB_MIN_FP32)
                            : GrB_Matrix_build_FP64(r->G, gi, gj, x, m, GrB_MIN_FP64);
    if (gr != GrB_SUCCESS) {
      fprintf(stderr, "gsp %s: GraphBLAS error %d building the matrix\n", cmd, (int)gr);
      rc = CLI_FAILURE;
    }
  }
  free(rp), free(ci), free(gi), free(gj), free(x);
  return rc;
}

/* The vertices in a seeded shuffle (the first k are the rows checked). */
static gsp_index *shuffled(gsp_index n, int64_t seed) {
  gsp_index *v = malloc(((size_t)n + 1) * sizeof *v);
  if (!v) return NULL;
  for (gsp_index i = 0; i < n; i++) v[i] = i;
  uint64_t st = (uint64_t)seed * 0x9e3779b97f4a7c15ULL + 1;
  for (gsp_index i = n; i > 1; i--) {
    st ^= st << 13, st ^= st >> 7, st ^= st << 17;
    gsp_index j = st % i, tmp = v[i - 1];
    v[i - 1] = v[j];
    v[j] = tmp;
  }
  return v;
}

/* gsp's whole closure, densely into r->dense. */
static int gsp_full(const cli_ctx *c, const char *cmd, check_run *r) {
  gsp_matrix M = NULL;
  gsp_closure_opts co = {.backend = c->backend};
  gsp_info info;
  int rc = CLI_OK;
  if ((info = gsp_matrix_dup(&M, r->g.A)) < 0 || (info = gsp_closure_ext(M, NULL, r->s, &co)) < 0)
    rc = cli_fail(cmd, "gsp closure failed", info);
  else if (!(r->dense = malloc((size_t)r->n * r->n * r->ts + 1))) rc = CLI_FAILURE;
  else if ((info = gsp_matrix_export_dense(r->dense, r->zero, M)) < 0) rc = cli_fail(cmd, "export", info);
  gsp_matrix_free(&M);
  return rc;
}

/* Row src: gsp's (mine) against GraphBLAS's (ref, present where rpres),
 * mismatches counted and the first ten printed. */
static void compare_row(check_run *r, gsp_index src, const void *mine, const void *ref, const bool *rpres,
                        cli_progress *prog) {
  const size_t ts = r->ts;
  for (gsp_index j = 0; j < r->n; j++) {
    bool mp = memcmp((const char *)mine + j * ts, r->zero, ts) != 0;
    bool rpz = rpres[j] && memcmp((const char *)ref + j * ts, r->zero, ts) != 0;
    double a = mp ? cli_value_at(r->t, mine, j) : 0, b = rpz ? cli_value_at(r->t, ref, j) : 0;
    bool ok = mp == rpz;
    if (ok && mp && a != b) {
      const double rel = fabs(a - b) / fmax(fabs(a), fabs(b));
      ok = rel <= r->tol;
      if (rel > r->maxrel) r->maxrel = rel;
    }
    r->compared++;
    if (!ok && r->bad++ < 10) {
      if (r->bad == 1) cli_progress_end(prog);
      fprintf(stderr, "mismatch at (%lld, %lld): gsp %s%.17g, GraphBLAS %s%.17g\n", cli_id(&r->g, src),
              cli_id(&r->g, j), mp ? "" : "no path ", mp ? a : 0.0, rpz ? "" : "no path ", rpz ? b : 0.0);
    }
  }
}

/* The options; CLI_USAGE (message printed) when one is malformed. */
static int check_options(cli_ctx *c, const char *cmd, check_run *r, int64_t *k_src, int64_t *seed, int64_t *limit) {
  const char *v;
  if (c->semiring_name && !cli_semiring(cmd, c->semiring_name, &r->s)) return CLI_USAGE;
  if ((v = cli_get(c, "sources")) && !cli_int(cmd, "sources", v, 0, INT32_MAX, k_src)) return CLI_USAGE;
  if ((v = cli_get(c, "seed")) && !cli_int(cmd, "seed", v, 0, INT64_MAX, seed)) return CLI_USAGE;
  if ((v = cli_get(c, "apsp-limit")) && !cli_int(cmd, "apsp-limit", v, 0, 1 << 20, limit)) return CLI_USAGE;
  if ((v = cli_get(c, "tolerance")) && !cli_double(cmd, "tolerance", v, &r->tol)) return CLI_USAGE;
  return CLI_OK;
}

/* Every checked row: gsp's (from the closure, or one search), GraphBLAS's,
 * compared. */
static int check_rows(cli_ctx *c, const char *cmd, check_run *r, GrB_Semiring sr, GrB_BinaryOp add, bool full,
                      gsp_index ks, double *tgsp, double *tref) {
  const gsp_index n = r->n;
  GrB_Index *I = malloc((n + 1) * sizeof *I);
  void *X = malloc((n + 1) * r->ts), *ref = malloc((n + 1) * r->ts), *mine = malloc((n + 1) * r->ts);
  bool *rpres = malloc(n + 1);
  gsp_vector dv = NULL;
  int rc = I && X && ref && mine && rpres ? CLI_OK : CLI_FAILURE;
  cli_progress prog;
  cli_progress_start(&prog, c, "checking");
  for (gsp_index q = 0; q < ks && rc == CLI_OK; q++) {
    const gsp_index src = r->sources[q];
    double t1 = cli_now();
    gsp_info info = GSP_SUCCESS;
    if (full) memcpy(mine, (char *)r->dense + (size_t)src * n * r->ts, n * r->ts);
    else if ((info = cli_sssp(&dv, r->g.A, src, NULL, NULL)) >= 0) info = gsp_vector_export_dense(mine, r->zero, dv);
    gsp_vector_free(&dv);
    if (!full) *tgsp += cli_now() - t1;
    if (info < 0) {
      cli_progress_end(&prog);
      rc = cli_fail(cmd, "gsp sssp failed", info);
      break;
    }
    t1 = cli_now();
    GrB_Info gr = reference_row(r->G, sr, add, r->t, r->s, n, src, rpres, ref, I, X);
    *tref += cli_now() - t1;
    if (gr != GrB_SUCCESS) {
      cli_progress_end(&prog);
      fprintf(stderr, "gsp %s: GraphBLAS error %d\n", cmd, (int)gr);
      rc = CLI_FAILURE;
      break;
    }
    compare_row(r, src, mine, ref, rpres, &prog);
    cli_progress_update((double)(q + 1) / (double)ks, &prog);
  }
  cli_progress_end(&prog);
  free(I), free(X), free(ref), free(mine), free(rpres);
  return rc;
}

static int run(cli_ctx *c, const char *cmd) {
  check_run r;
  memset(&r, 0, sizeof r);
  r.s = GSP_MIN_PLUS;
  r.tol = -1;
  int64_t k_src = 16, seed = 1, limit = 4096;
  int rc = check_options(c, cmd, &r, &k_src, &seed, &limit);
  if (rc) return rc;
  if ((rc = cli_start(c, cmd, NULL, NULL, &r.g))) return rc;
  if ((rc = cli_prepare(c, cmd, &r.g, r.s))) {
    cli_graph_free(&r.g);
    return rc;
  }
  r.n = r.g.n, r.t = r.g.type, r.ts = gsp_type_size(r.t);
  if (r.tol < 0) r.tol = r.t == GSP_FP32 ? 1e-5 : r.t == GSP_FP64 ? 1e-9 : 0;
  (void)gsp_semiring_identities(r.zero, NULL, r.s, r.t);
  GrB_Semiring sr;
  GrB_BinaryOp add;
  const bool full = (int64_t)r.n <= limit;
  if (!grb_semiring(r.s, r.t, &sr, &add)) {
    fprintf(stderr, "gsp %s: no GraphBLAS semiring for %s on %s\n", cmd, cli_semiring_name(r.s), cli_type_name(r.t));
    cli_graph_free(&r.g);
    return CLI_USAGE;
  }
  if (!full && r.s != GSP_MIN_PLUS) {
    fprintf(stderr, "gsp %s: %" PRIu64 " vertices exceed --apsp-limit %lld; only min-plus can be checked row by row\n",
            cmd, r.n, (long long)limit);
    cli_graph_free(&r.g);
    return CLI_USAGE;
  }
  GrB_init(GrB_NONBLOCKING);
  const gsp_index ks = k_src == 0 || (gsp_index)k_src > r.n ? r.n : (gsp_index)k_src;
  double t0 = cli_now(), tgsp = 0, tref = 0;
  if (!(r.sources = shuffled(r.n, seed))) rc = CLI_FAILURE;
  if (!rc) rc = grb_graph(cmd, &r);
  t0 = cli_now();
  if (!rc && full) rc = gsp_full(c, cmd, &r);
  tgsp = cli_now() - t0;
  if (!rc) rc = check_rows(c, cmd, &r, sr, add, full, ks, &tgsp, &tref);
  if (!rc) {
    printf("check %s (%s, %s): %" PRIu64 " source rows, %" PRIu64 " pairs compared, %" PRIu64 " disagree%s\n",
           c->pos[0], cli_semiring_name(r.s), cli_type_name(r.t), ks, r.compared, r.bad,
           r.bad ? "" : ": gsp agrees with GraphBLAS");
    cli_say(c, "gsp %s: %.3f s; GraphBLAS relaxation: %.3f s; max relative difference %.3g (tolerance %.3g)\n",
            full ? "closure" : "sssp rows", tgsp, tref, r.maxrel, r.tol);
    rc = r.bad ? CLI_MISMATCH : CLI_OK;
  }
  GrB_Matrix_free(&r.G);
  free(r.dense);
  free(r.sources);
  cli_graph_free(&r.g);
  GrB_finalize();
  return rc;
}
#endif

static const cli_opt opts[] = {
    CLI_OPT_SEMIRING(", or-and"),
    {"sources", 'k', OPT_VALUE, "K  number of source rows compared (default 16; 0 = all)"},
    {"seed", 0, OPT_VALUE, "S  choice of the sources (default 1)"},
    {"apsp-limit", 0, OPT_VALUE,
     "N  largest n for which gsp computes the full closure (default 4096);\n                                 above it, min-plus rows come from gsp's SSSP"},
    {"tolerance", 0, OPT_VALUE, "X  relative tolerance for float types (default 1e-9 fp64, 1e-5 fp32)"},
    {NULL, 0, OPT_FLAG, NULL}};

const cli_command cmd_check = {synopsis, description, opts, true, false, 1, "one GRAPH file", run};
