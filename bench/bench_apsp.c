/*
 * All-pairs shortest paths benchmark: gsp_apsp's three algorithms and its
 * AUTO choice on graphs shaped like the SNAP graphs of Tastan et al.'s
 * Johnson table (p2p-Gnutella08 ... email-EuAll): R-MAT (src/io generator,
 * Graph500 parameters, labels permuted) restricted to the first n vertices
 * and thinned to exactly m arcs, integer weights uniform in [1, wmax]; the
 * "negative" variant reweights every arc to w + p(u) - p(v) with p uniform
 * in [0, pmax] (same shortest paths, no negative cycle, a few percent of
 * the arcs negative).
 *
 * For each graph: Floyd-Warshall and Johnson on the negative variant,
 * multi-source relaxation (MSSSP) and Floyd-Warshall on the non-negative
 * one, and AUTO's pick for each variant (a dry run of the full request; its
 * time is the picked algorithm's time plus the planning). Results go
 * through the row-block callback, which checksums a fixed sample of rows
 * (the same rows for every algorithm: the "check" column must agree within
 * a variant) and keeps nothing else, so no n x n result is ever built.
 * Relaxation runs whose predicted time exceeds --max-seconds run a subset
 * of sources and are extrapolated (t(k) - t(32) per source, plus t(32):
 * the fixed part once), labeled "extrapolated"; Floyd-Warshall, which has
 * no subset, is skipped above 2 x --max-seconds or when n^2 does not fit
 * the device. Units (docs/performance.md): Floyd-Warshall n^3 tasks / s,
 * relaxation sources x arcs / s (of the full problem).
 *
 * The constants of the cost model (src/ops/apsp/apsp_cost.c) are calibrated from
 * these rows: the "meas/pred" column is measured over predicted time.
 *
 * Usage: bench_apsp [--backend cpu|cuda|auto] [--type int32|int64|fp32|fp64]
 *        [--max-seconds T] [--budget S] [--only NAME] [--scale-down F]
 *        [--wmax W] [--pmax P] [--write-graphs DIR] [--csv FILE] [--quick]
 *        [--generate-only]
 * --quick: every graph shrunk 16x and T = 2 (a smoke test).
 * --generate-only: with --write-graphs, write the graphs and stop.
 * --write-graphs DIR writes each negative variant as DIR/<name>.mtx for the
 * scipy companion (bench/bench_apsp_scipy.py), with the sample sources.
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsp.h"

typedef struct {
  const char *name;
  gsp_index n, m;
} shape;

/* Tastan et al.'s table (SNAP sizes: vertices, arcs). */
static const shape graphs[] = {
    {"p2p-Gnutella08", 6301, 20777},   {"p2p-Gnutella09", 8114, 26013},     {"p2p-Gnutella04", 10876, 39994},
    {"p2p-Gnutella25", 22687, 54705},  {"p2p-Gnutella24", 26518, 65369},    {"p2p-Gnutella30", 36682, 88328},
    {"p2p-Gnutella31", 62586, 147892}, {"soc-Slashdot0902", 82168, 948464}, {"email-EuAll", 265214, 420045},
};
#define NGRAPHS (sizeof graphs / sizeof *graphs)

typedef struct {
  gsp_backend backend;
  gsp_type type;
  double max_seconds, budget, scale_down;
  int64_t wmax, pmax;
  const char *only, *write_dir, *csv;
  bool generate_only;
  char device[256];
} config;

static void die(const char *what, gsp_info info) {
  fprintf(stderr, "bench_apsp: %s: %s: %s\n", what, gsp_strerror(info), gsp_last_error());
  exit(1);
}
#define TRY(call)               \
  do {                          \
    gsp_info i_ = (call);       \
    if (i_ < 0) die(#call, i_); \
  } while (0)

static uint64_t mix(uint64_t z) { /* splitmix64 finaliser */
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static int cmp_u64(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}
static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static const char *type_name(gsp_type t) {
  const char *n[] = {"bool", "int32", "int64", "fp32", "fp64"};
  return n[t];
}
static const char *algo_name(gsp_apsp_algo a) {
  const char *n[] = {"auto", "fw", "msssp", "johnson"};
  return n[a];
}

/* R-MAT on 2^scale vertices, restricted to vertices < n and thinned to m
 * arcs chosen by a hash (deterministic); weights from the generator (FP64,
 * integers in [1, wmax]). Returns the non-negative graph as FP64. */
static gsp_matrix make_graph(const shape *s, int64_t wmax, uint64_t seed) {
  int scale = 1;
  while (((gsp_index)1 << scale) < s->n) scale++;
  const double N = (double)((gsp_index)1 << scale), keep = ((double)s->n / N) * ((double)s->n / N);
  double ef = ceil(1.3 * (double)s->m / N / keep);
  for (int attempt = 0; attempt < 8; attempt++, ef = ceil(ef * 1.5)) {
    gsp_matrix R = NULL;
    TRY(gsp_generate_rmat(&R, GSP_FP64, scale, (gsp_index)ef, 0, 0, 0, 1, wmax, seed));
    gsp_index nv;
    TRY(gsp_matrix_nvals(&nv, R));
    gsp_index *I = malloc(nv * sizeof *I), *J = malloc(nv * sizeof *J);
    double *X = malloc(nv * sizeof *X);
    uint64_t *key = malloc(nv * sizeof *key);
    if (!I || !J || !X || !key) die("make_graph: out of memory", GSP_OUT_OF_MEMORY);
    TRY(gsp_matrix_extract_tuples(I, J, X, &nv, R));
    gsp_matrix_free(&R);
    gsp_index cand = 0; /* in place: candidates, each keyed (hash, position) */
    for (gsp_index k = 0; k < nv; k++) {
      if (I[k] >= s->n || J[k] >= s->n) continue;
      I[cand] = I[k], J[cand] = J[k], X[cand] = X[k];
      key[cand] = (mix(I[k] * 0x100000001b3ULL ^ J[k] ^ seed) & ~0xffffffffULL) | cand; /* cand < 2^32 */
      cand++;
    }
    if (cand >= s->m) {
      /* the m candidates of smallest hash */
      uint64_t *hk = key;
      qsort(hk, cand, sizeof *hk, cmp_u64);
      gsp_index *I2 = malloc(s->m * sizeof *I2), *J2 = malloc(s->m * sizeof *J2);
      double *X2 = malloc(s->m * sizeof *X2);
      for (gsp_index k = 0; k < s->m; k++) {
        const gsp_index at = hk[k] & 0xffffffffULL;
        I2[k] = I[at], J2[k] = J[at], X2[k] = X[at];
      }
      gsp_matrix A = NULL;
      TRY(gsp_matrix_new(&A, GSP_FP64, s->n, s->n));
      TRY(gsp_matrix_build(A, I2, J2, X2, s->m, GSP_DUP_ERROR));
      free(I2), free(J2), free(X2), free(I), free(J), free(X), free(key);
      return A;
    }
    free(I), free(J), free(X), free(key);
  }
  die("make_graph: R-MAT gave too few arcs", GSP_PANIC);
  return NULL;
}

/* w + p(u) - p(v), p uniform in [0, pmax] (exact integers in FP64). */
static gsp_matrix negative_variant(gsp_matrix A, int64_t pmax, uint64_t seed, double *frac_neg) {
  gsp_index n, nv;
  TRY(gsp_matrix_nrows(&n, A));
  TRY(gsp_matrix_nvals(&nv, A));
  gsp_index *I = malloc(nv * sizeof *I), *J = malloc(nv * sizeof *J);
  double *X = malloc(nv * sizeof *X), *p = malloc(n * sizeof *p);
  TRY(gsp_matrix_extract_tuples(I, J, X, &nv, A));
  for (gsp_index v = 0; v < n; v++) p[v] = (double)(mix(v ^ (seed << 32)) % (uint64_t)(pmax + 1));
  gsp_index neg = 0;
  for (gsp_index k = 0; k < nv; k++) {
    X[k] += p[I[k]] - p[J[k]];
    neg += X[k] < 0;
  }
  *frac_neg = nv ? (double)neg / (double)nv : 0;
  gsp_matrix B = NULL;
  TRY(gsp_matrix_new(&B, GSP_FP64, n, n));
  TRY(gsp_matrix_build(B, I, J, X, nv, GSP_DUP_ERROR));
  free(I), free(J), free(X), free(p);
  return B;
}

/* The sample sources: S[i] = (i * P + 7) mod n with P prime > n, so
 * distinct. Their rows are checksummed. */
#define NCHECK 32
static gsp_index sample_source(gsp_index i, gsp_index n) {
  return (gsp_index)((i * 1000003ULL + 7) % n);
}

typedef struct {
  gsp_type t;
  gsp_index n;
  const gsp_index *srcs; /* the run's sources (NULL: 0..n-1) */
  int64_t *slot;         /* slot[v]: index of v among the sample sources, or -1 */
  int64_t count;         /* finite entries in the sample rows */
  double sum;            /* their sum (exact for integer weights below 2^53) */
} sink;

static int sink_rows(void *ctx, gsp_index first, gsp_index nrows, const void *dist, const int64_t *parent) {
  (void)parent;
  sink *s = ctx;
  for (gsp_index r = 0; r < nrows; r++) {
    const gsp_index row = first + r, src = s->srcs ? s->srcs[row] : row;
    if (s->slot[src] < 0) continue;
    s->slot[src] = -1; /* count each sample row once */
    const char *x = (const char *)dist + r * s->n * gsp_type_size(s->t);
    for (gsp_index v = 0; v < s->n; v++) {
      double d;
      switch (s->t) {
      case GSP_INT32:
        d = ((const int32_t *)x)[v] == INT32_MAX ? INFINITY : ((const int32_t *)x)[v];
        break;
      case GSP_INT64:
        d = ((const int64_t *)x)[v] == INT64_MAX ? INFINITY : (double)((const int64_t *)x)[v];
        break;
      case GSP_FP32:
        d = ((const float *)x)[v];
        break;
      default:
        d = ((const double *)x)[v];
        break;
      }
      if (isfinite(d)) s->count++, s->sum += d;
    }
  }
  return 0;
}

typedef struct {
  double seconds; /* full problem (measured or extrapolated); NAN: not run */
  double predicted;
  gsp_index ran; /* sources of the largest timed run */
  bool extrapolated, skipped;
  char why[96];
  int64_t count;
  double sum;
  gsp_backend backend;
} result;

/* One timed gsp_apsp through the checksumming callback. */
static double timed_run(gsp_matrix A, gsp_apsp_algo algo, const config *c, const gsp_index *srcs, gsp_index ns, sink *s,
                        gsp_apsp_report *rep) {
  gsp_index n;
  TRY(gsp_matrix_nrows(&n, A));
  for (gsp_index v = 0; v < n; v++) s->slot[v] = -1;
  for (gsp_index i = 0; i < NCHECK && i < n; i++) s->slot[sample_source(i, n)] = (int64_t)i;
  s->count = 0, s->sum = 0, s->srcs = srcs;
  gsp_apsp_opts o;
  gsp_apsp_advanced oa;
  memset(&o, 0, sizeof o);
  memset(&oa, 0, sizeof oa);
  o.advanced = &oa;
  o.algo = algo, o.backend = c->backend, o.sources = srcs, o.nsources = ns;
  oa.rows = sink_rows, oa.rows_ctx = s, oa.report = rep;
  gsp_matrix D = NULL;
  const double t0 = omp_get_wtime();
  TRY(gsp_apsp(&D, NULL, A, &o));
  return omp_get_wtime() - t0;
}

static gsp_apsp_report dry(gsp_matrix A, gsp_apsp_algo algo, const config *c, double *secs) {
  gsp_apsp_report rep;
  gsp_apsp_opts o;
  gsp_apsp_advanced oa;
  memset(&o, 0, sizeof o);
  memset(&oa, 0, sizeof oa);
  o.advanced = &oa;
  o.algo = algo, o.backend = c->backend, oa.dry_run = true, oa.report = &rep;
  gsp_matrix D = NULL;
  const double t0 = omp_get_wtime();
  TRY(gsp_apsp(&D, NULL, A, &o));
  if (secs) *secs = omp_get_wtime() - t0;
  return rep;
}

static result measure(gsp_matrix A, gsp_apsp_algo algo, const config *c, bool want_gpu) {
  result r;
  memset(&r, 0, sizeof r);
  r.seconds = NAN;
  gsp_index n, m;
  TRY(gsp_matrix_nrows(&n, A));
  TRY(gsp_matrix_nvals(&m, A));
  gsp_type t;
  TRY(gsp_matrix_type(&t, A));
  const gsp_apsp_report plan = dry(A, algo, c, NULL);
  r.predicted = plan.predicted_seconds[algo];
  sink s = {.t = t, .n = n};
  s.slot = malloc(n * sizeof *s.slot);
  gsp_apsp_report rep;
  if (algo == GSP_APSP_FLOYD_WARSHALL) {
    if (want_gpu && plan.backend != GSP_BACKEND_CUDA) {
      r.skipped = true;
      snprintf(r.why, sizeof r.why, "n^2 does not fit the device");
    } else if (r.predicted > 2 * c->max_seconds) {
      r.skipped = true;
      snprintf(r.why, sizeof r.why, "predicted %.3g s > 2 x max-seconds", r.predicted);
    } else {
      r.seconds = timed_run(A, algo, c, NULL, n, &s, &rep);
      r.ran = n;
      r.backend = rep.backend;
    }
  } else if (r.predicted <= c->max_seconds) {
    /* the whole problem; small ones timed three times (median) */
    double t3[3];
    int k = 0;
    t3[k++] = timed_run(A, algo, c, NULL, n, &s, &rep);
    if (t3[0] < 1.0) {
      t3[k++] = timed_run(A, algo, c, NULL, n, &s, &rep);
      t3[k++] = timed_run(A, algo, c, NULL, n, &s, &rep);
    }
    qsort(t3, (size_t)k, sizeof *t3, cmp_double);
    r.seconds = t3[k / 2];
    r.ran = n;
    r.backend = rep.backend;
  } else {
    /* k sources and 32 sources; the difference per source, scaled */
    gsp_index k = (gsp_index)((double)n * (c->max_seconds / 2) / r.predicted);
    k = k / 32 * 32;
    if (k < 128) k = 128;
    if (k > n) k = n;
    gsp_index *srcs = malloc(k * sizeof *srcs);
    for (gsp_index i = 0; i < k; i++) srcs[i] = sample_source(i, n);
    const gsp_index k1 = 32;
    const double t1 = timed_run(A, algo, c, srcs, k1, &s, &rep);
    const double tk = timed_run(A, algo, c, srcs, k, &s, &rep);
    const double per = (tk - t1) / (double)(k - k1);
    r.seconds = t1 + (per > 0 ? per : tk / (double)k) * (double)(n - k1);
    r.ran = k;
    r.extrapolated = true;
    r.backend = rep.backend;
    free(srcs);
  }
  r.count = s.count, r.sum = s.sum;
  free(s.slot);
  return r;
}

static void csv_row(const config *c, const shape *g, gsp_index n, gsp_index m, const char *variant, const char *algo,
                    const result *r, double tasks) {
  if (!c->csv) return;
  FILE *f = fopen(c->csv, "a");
  if (!f) return;
  fprintf(f, "%s,%s,%llu,%llu,%s,%s,%s,%s,%.6g,%.6g,%.6g,%llu,%d,%lld,%.17g,\"%s\"\n", c->device, g->name,
          (unsigned long long)n, (unsigned long long)m, type_name(c->type), variant, algo,
          r->backend == GSP_BACKEND_CUDA ? "cuda" : "cpu", r->seconds, r->predicted, tasks / r->seconds,
          (unsigned long long)r->ran, (int)r->extrapolated, (long long)r->count, r->sum, r->why);
  fclose(f);
}

static void row(const config *c, const shape *g, gsp_index n, gsp_index m, const char *variant, gsp_apsp_algo a,
                const result *r) {
  const double nn = (double)n, tasks = a == GSP_APSP_FLOYD_WARSHALL ? nn * nn * nn : nn * (double)m;
  if (r->skipped) {
    printf("| %-16s | %-7s | %-7s | %-40s | %11s | %9.3g | %9s | %-22s |\n", g->name, variant, algo_name(a), r->why,
           "-", r->predicted, "-", "-");
  } else {
    char run[64];
    if (r->extrapolated) snprintf(run, sizeof run, "extrapolated from %llu sources", (unsigned long long)r->ran);
    else snprintf(run, sizeof run, "all %llu sources", (unsigned long long)r->ran);
    char check[48];
    snprintf(check, sizeof check, "%lld / %.0f", (long long)r->count, r->sum);
    printf("| %-16s | %-7s | %-7s | %-40s | %11.3f | %9.3g | %9.2f | %-22s | %9.3g |\n", g->name, variant, algo_name(a),
           run, r->seconds, r->predicted, r->seconds / r->predicted, check, tasks / r->seconds);
  }
  fflush(stdout);
  csv_row(c, g, n, m, variant, algo_name(a), r, tasks);
}

int main(int argc, char **argv) {
  config c = {.backend = GSP_BACKEND_AUTO,
              .type = GSP_INT32,
              .max_seconds = 8,
              .budget = 330,
              .scale_down = 1,
              .wmax = 100,
              .pmax = 40};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
    if (!strcmp(a, "--backend")) {
      c.backend = !strcmp(v, "cpu") ? GSP_BACKEND_CPU : !strcmp(v, "cuda") ? GSP_BACKEND_CUDA : GSP_BACKEND_AUTO;
      i++;
    } else if (!strcmp(a, "--type")) {
      c.type = !strcmp(v, "int64")  ? GSP_INT64
               : !strcmp(v, "fp32") ? GSP_FP32
               : !strcmp(v, "fp64") ? GSP_FP64
                                    : GSP_INT32;
      i++;
    } else if (!strcmp(a, "--max-seconds")) c.max_seconds = atof(v), i++;
    else if (!strcmp(a, "--budget")) c.budget = atof(v), i++;
    else if (!strcmp(a, "--only")) c.only = v, i++;
    else if (!strcmp(a, "--scale-down")) c.scale_down = atof(v), i++;
    else if (!strcmp(a, "--wmax")) c.wmax = atoll(v), i++;
    else if (!strcmp(a, "--pmax")) c.pmax = atoll(v), i++;
    else if (!strcmp(a, "--write-graphs")) c.write_dir = v, i++;
    else if (!strcmp(a, "--csv")) c.csv = v, i++;
    else if (!strcmp(a, "--quick")) c.scale_down = 16, c.max_seconds = 2;
    else if (!strcmp(a, "--generate-only")) c.generate_only = true;
    else {
      fprintf(stderr,
              "usage: %s [--backend cpu|cuda|auto] [--type int32|int64|fp32|fp64] [--max-seconds T] [--budget S]\n"
              "       [--only NAME] [--scale-down F] [--wmax W] [--pmax P] [--write-graphs DIR] [--csv FILE] "
              "[--quick] [--generate-only]\n",
              argv[0]);
      return 2;
    }
  }
  bool gpu = false;
  TRY(gsp_cuda_available(&gpu, c.device, sizeof c.device));
  if (c.backend == GSP_BACKEND_CPU || !gpu) {
    snprintf(c.device, sizeof c.device, "cpu (%d threads)", omp_get_max_threads());
    gpu = false;
  }
  printf("gsp all-pairs benchmark: %s, weights %s in [1, %lld], negative variant w + p(u) - p(v), p in [0, %lld];\n"
         "results through the row-block callback (checksum of %d sample rows: count / sum of finite distances);\n"
         "relaxation above %.3g s predicted: extrapolated from a subset of sources\n\n",
         c.device, type_name(c.type), (long long)c.wmax, (long long)c.pmax, NCHECK, c.max_seconds);
  printf("| %-16s | %-7s | %-7s | %-40s | %11s | %9s | %9s | %-22s | %9s |\n", "graph", "variant", "algo", "run",
         "seconds", "predicted", "meas/pred", "check (count / sum)", "tasks/s");
  printf("|------------------|---------|---------|------------------------------------------|-------------|-----------|"
         "-----------|------------------------|-----------|\n");
  if (c.csv) {
    FILE *f = fopen(c.csv, "a");
    if (f) {
      fprintf(f, "device,graph,n,m,type,variant,algo,backend,seconds,predicted,tasks_per_s,sources_run,extrapolated,"
                 "check_count,check_sum,note\n");
      fclose(f);
    }
  }
  typedef struct {
    const char *name, *variant;
    gsp_apsp_algo pick;
    double auto_s, best_s, plan_s;
    gsp_apsp_algo best;
  } verdict;
  verdict v[2 * NGRAPHS];
  int nv = 0;
  const double start = omp_get_wtime();
  for (size_t gi = 0; gi < NGRAPHS; gi++) {
    shape g = graphs[gi];
    if (c.only && !strstr(g.name, c.only)) continue;
    if (omp_get_wtime() - start > c.budget) {
      printf("| %-16s | budget of %.0f s spent: not run |\n", g.name, c.budget);
      continue;
    }
    g.n = (gsp_index)((double)g.n / c.scale_down), g.m = (gsp_index)((double)g.m / c.scale_down);
    gsp_matrix F = make_graph(&g, c.wmax, 1000 + gi), FN = NULL, A = NULL, N = NULL;
    double frac = 0;
    FN = negative_variant(F, c.pmax, 2000 + gi, &frac);
    TRY(gsp_matrix_cast(&A, F, c.type));
    TRY(gsp_matrix_cast(&N, FN, c.type));
    if (c.write_dir) {
      char path[512];
      snprintf(path, sizeof path, "%s/%s.mtx", c.write_dir, g.name);
      char note[128];
      snprintf(note, sizeof note, "bench_apsp %s negative variant (%.1f%% negative arcs)", g.name, 100 * frac);
      gsp_write_opts wo = {.format = GSP_FILE_MTX, .comment = note};
      TRY(gsp_matrix_write(path, N, &wo));
    }
    if (c.generate_only) {
      printf("| %-16s | wrote the negative variant (%.1f%% negative arcs) |\n", g.name, 100 * frac);
      gsp_matrix_free(&F), gsp_matrix_free(&FN), gsp_matrix_free(&A), gsp_matrix_free(&N);
      continue;
    }
    /* the negative variant: Floyd-Warshall, Johnson, AUTO */
    result fw = measure(N, GSP_APSP_FLOYD_WARSHALL, &c, gpu);
    row(&c, &g, g.n, g.m, "neg", GSP_APSP_FLOYD_WARSHALL, &fw);
    result jo = measure(N, GSP_APSP_JOHNSON, &c, gpu);
    row(&c, &g, g.n, g.m, "neg", GSP_APSP_JOHNSON, &jo);
    double plan_s = 0;
    gsp_apsp_report ap = dry(N, GSP_APSP_AUTO, &c, &plan_s);
    const double best_neg = fmin(isnan(fw.seconds) ? INFINITY : fw.seconds, jo.seconds);
    v[nv++] = (verdict){g.name,
                        "neg",
                        ap.algo,
                        (ap.algo == GSP_APSP_FLOYD_WARSHALL ? fw.seconds : jo.seconds) + plan_s,
                        best_neg,
                        plan_s,
                        best_neg == jo.seconds ? GSP_APSP_JOHNSON : GSP_APSP_FLOYD_WARSHALL};
    /* the non-negative variant: MSSSP, Floyd-Warshall, AUTO */
    result ms = measure(A, GSP_APSP_MSSSP, &c, gpu);
    row(&c, &g, g.n, g.m, "nonneg", GSP_APSP_MSSSP, &ms);
    result fw2 = measure(A, GSP_APSP_FLOYD_WARSHALL, &c, gpu);
    row(&c, &g, g.n, g.m, "nonneg", GSP_APSP_FLOYD_WARSHALL, &fw2);
    gsp_apsp_report ap2 = dry(A, GSP_APSP_AUTO, &c, &plan_s);
    const double best_pos = fmin(isnan(fw2.seconds) ? INFINITY : fw2.seconds, ms.seconds);
    v[nv++] = (verdict){g.name,
                        "nonneg",
                        ap2.algo,
                        (ap2.algo == GSP_APSP_FLOYD_WARSHALL ? fw2.seconds : ms.seconds) + plan_s,
                        best_pos,
                        plan_s,
                        best_pos == ms.seconds ? GSP_APSP_MSSSP : GSP_APSP_FLOYD_WARSHALL};
    printf("|   (%.1f%% of the arcs negative in the negative variant) |\n", 100 * frac);
    gsp_matrix_free(&F), gsp_matrix_free(&FN), gsp_matrix_free(&A), gsp_matrix_free(&N);
  }
  printf("\nAUTO (the pick of a dry run for the full problem; its time = that algorithm's row + planning)\n");
  printf("| %-16s | %-7s | %-7s | %10s | %-7s | %10s | %9s | %-10s |\n", "graph", "variant", "auto", "auto s", "best",
         "best s", "auto/best", "within 10%");
  printf("|------------------|---------|---------|------------|---------|------------|-----------|------------|\n");
  int ok = 0, known = 0;
  double plan_max = 0;
  for (int k = 0; k < nv; k++) {
    plan_max = fmax(plan_max, v[k].plan_s);
    const bool have = isfinite(v[k].auto_s) && isfinite(v[k].best_s);
    const double ratio = have ? v[k].auto_s / v[k].best_s : NAN;
    const char *verdict_s = !have ? "unknown (pick not measured)" : ratio <= 1.10 ? "yes" : "NO";
    known += have, ok += have && ratio <= 1.10;
    printf("| %-16s | %-7s | %-7s | %10.3f | %-7s | %10.3f | %9.3f | %-10s |\n", v[k].name, v[k].variant,
           algo_name(v[k].pick), v[k].auto_s, algo_name(v[k].best), v[k].best_s, ratio, verdict_s);
  }
  printf("\nAUTO within 10%% of the best measured algorithm: %d of %d cases (planning adds %.3g s at most)\n", ok,
         known, plan_max);
  printf("total %.1f s\n", omp_get_wtime() - start);
  return 0;
}
