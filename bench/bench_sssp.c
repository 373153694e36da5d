/*
 * Shortest-path benchmark.
 *
 *  1. Single source: gsp_sssp with every algorithm on an R-MAT graph
 *     (default scale 21, edge factor 16, Graph500 parameters) and a road-like
 *     grid (default 4096 x 4096), integer weights uniform in [1, 255].
 *     Reported as GTEPS = arcs of the graph / time (docs/performance.md), median
 *     over random sources with at least one out-arc, after a warm-up, and
 *     GTEPS_r = out-arcs of the reached vertices / time (the arcs a
 *     traversal must look at; median over the runs).
 *  2. Many sources: all-pairs shortest paths by gsp_msssp (batches of
 *     sources, Okuyama et al.) on Okuyama's topologies with |V| = 4677:
 *     random and power-law (Chung-Lu) with |E| = 16384, ring and complete,
 *     weights in [1, 4096], with and without parents, against tiled
 *     Floyd-Warshall and gsp_apsp's AUTO pick (gsp_apsp, dense host
 *     result, as msssp's) on the same matrix; --apsp-batches also sweeps
 *     the batch size on the random and power-law graphs.
 *  3. Large all-pairs: a random graph with |V| = 65536,
 *     |E| = 4|V|, weights in [1, 4096]: gsp_msssp time and GTEPS
 *     (relaxations counted as n x arcs), with parents (INT64 and INT32), an optional batch
 *     sweep, our CPU backend on a subset of sources (extrapolated, labeled),
 *     and Floyd-Warshall measured at --apsp-big-fw-n and extrapolated by
 *     n^3 when that is smaller (labeled). --dump-dir writes the sparse
 *     graphs as Matrix Market for bench/apsp_scipy.py (scipy's Dijkstra).
 *  4. Bellman-Ford (gsp_bellman_ford, and gsp_negative_cycle, which is
 *     Johnson's potential pass) on R-MAT graphs of Tastan et al.'s sizes
 *     (scales 13, 15, 18 up to --scale, edge factor 4) whose weights in
 *     [1, 255] are reweighted by random potentials p in [0, 255]
 *     (w + p(u) - p(v): about a third of the arcs negative, no negative
 *     cycle), and once more with a planted negative cycle. GTEPS as above.
 *
 * Usage: bench_sssp [--backend cpu|cuda|auto] [--type int32|int64|fp32|fp64]
 *        [--scale S] [--edgefactor E] [--grid R] [--apsp-n N] [--reps K]
 *        [--algos harish,da2cf,delta,auto] [--max-seconds T]
 *        [--apsp-big-n N] [--apsp-big-fw-n N] [--apsp-batches B1,B2,..]
 *        [--apsp-cpu-sources K] [--apsp-parent-reps K] [--dump-dir DIR]
 *        [--skip-sssp] [--skip-apsp] [--skip-apsp-big] [--skip-fw] [--skip-bf] [--quick]
 *        [--csv FILE] [--graphs rmat,grid] [--dump DIR]
 *        [--deltas D1,D2,..] [--chains C1,..] [--bps B1,..] [--hubs H1,..]
 * With the CUDA backend, the near-far rows are followed by a "phases" line:
 * medians of the persistent kernel alone (CUDA events), the device setup
 * before it, the host side after it (staged chunks, pinned or pageable),
 * the page mapping the host does beside the kernel, the whole gateway
 * call, and the host time outside the gateway in gsp_sssp before and after
 * it, plus the parent record form (packed 64-bit words, or 16-byte
 * records); msssp rows
 * of the large all-pairs table by their device phases (rounds, parent pass,
 * transpose, copy stream) and host phases (row copies, waits).
 * --deltas, --chains, --bps, --hubs: instead of the single-source rows, the
 * GPU near-far sweep over the lists (bucket width, 0: the library's; chain
 * rounds, 0: the library's, -1: none; blocks per SM, 0: the library's; hub
 * degree, 0: the library's), with steps, vertices expanded per vertex
 * reached, and the host time before and after the kernel.
 * --dump writes each graph's CSR, the sources and our distances from the
 * first timed source as raw arrays for bench/bench_sssp_scipy.py.
 * --quick shrinks every size for a smoke test. A run whose warm-up takes
 * longer than --max-seconds (default 30) is timed once and flagged. Without
 * --algos every algorithm runs, except Harish on the grid on the CPU (its
 * Bellman-Ford rounds take hours at 4096 x 4096 there).
 * Rows are appended to --csv FILE (bench/results/ keeps recorded runs).
 * All-pairs times are of the call until its result is complete; freeing
 * the result afterwards (tens of GiB) is not in them.
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsp.h"
#include "sssp_branch.h" /* gsp__sssp_run, gsp__msssp_run: the calls with their report */

/* The report of the last timed shortest-path call (phase times of a GPU
 * run). */
static gsp__diag last_diag;

typedef struct {
  gsp_backend backend;
  gsp_type type;
  int scale, edgefactor, reps;
  gsp_index grid, apsp_n;
  gsp_index big_n, big_fw_n, cpu_sources; /* large all-pairs */
  int par_reps;                           /* timed runs of the large all-pairs with parents */
  const char *batches;                    /* batch sweep, NULL: none */
  const char *dump_dir;                   /* Matrix Market copies for scipy */
  double max_seconds;
  bool skip_sssp, skip_apsp, skip_big, skip_fw, skip_bf;
  const char *algos;  /* NULL: the default set */
  const char *graphs; /* NULL: rmat and grid */
  const char *dump;   /* directory for bench_sssp_scipy.py, or NULL */
  /* GPU near-far sweep (comma lists; NULL: no sweep): bucket widths (0:
   * the library's), chain rounds (0: the library's, -1: none), blocks per
   * SM (0: the library's), hub degrees (0: the library's) */
  const char *deltas, *chains, *bps, *hubs;
  const char *csv;
  char device[256];
} config;

static void die(const char *what, gsp_info info) {
  fprintf(stderr, "bench_sssp: %s: %s: %s\n", what, gsp_strerror(info), gsp_last_error());
  exit(1);
}
#define TRY(call)               \
  do {                          \
    gsp_info i_ = (call);       \
    if (i_ < 0) die(#call, i_); \
  } while (0)

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static uint64_t rng(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static const char *backend_name(gsp_backend b) {
  return b == GSP_BACKEND_CPU ? "cpu" : b == GSP_BACKEND_CUDA ? "cuda" : "auto";
}
static const char *type_name(gsp_type t) {
  const char *n[] = {"bool", "int32", "int64", "fp32", "fp64"};
  return n[t];
}
static const char *algo_name(gsp_sssp_algo a) {
  const char *n[] = {"auto", "harish", "da2cf", "delta"};
  return n[a];
}

static void csv_row(const config *c, const char *bench, const char *graph, gsp_index n, gsp_index m, const char *algo,
                    int reps, double med, double lo, double rate, const char *unit) {
  if (!c->csv) return;
  FILE *f = fopen(c->csv, "a");
  if (!f) {
    perror(c->csv);
    return;
  }
  fprintf(f, "%s,%s,\"%s\",%s,%s,%llu,%llu,%s,%d,%.6f,%.6f,%.6g,%s\n", bench, backend_name(c->backend), c->device,
          type_name(c->type), graph, (unsigned long long)n, (unsigned long long)m, algo, reps, med, lo, rate, unit);
  fclose(f);
}

/* Vertices with out-arcs (to pick sources), and the row pointers (*rowp,
 * to count the arcs of reached vertices). */
static gsp_index *out_degree_vertices(gsp_matrix A, gsp_index *count, gsp_index **rowp) {
  gsp_index n, nv;
  TRY(gsp_matrix_nrows(&n, A));
  TRY(gsp_matrix_nvals(&nv, A));
  gsp_index *p = malloc((n + 1) * sizeof *p), *j = malloc((nv + 1) * sizeof *j), *list = malloc((n + 1) * sizeof *list);
  if (!p || !j || !list) die("out of memory", GSP_OUT_OF_MEMORY);
  TRY(gsp_matrix_export_csr(p, j, NULL, A));
  gsp_index k = 0;
  for (gsp_index v = 0; v < n; v++)
    if (p[v + 1] > p[v]) list[k++] = v;
  free(j);
  *rowp = p;
  *count = k;
  return list;
}

/* Out-arcs of the vertices that have a distance in d. */
static gsp_index reached_arcs(gsp_vector d, const gsp_index *p) {
  gsp_index nv;
  TRY(gsp_vector_nvals(&nv, d));
  gsp_index *I = malloc((nv + 1) * sizeof *I), got = nv, arcs = 0;
  if (!I) die("out of memory", GSP_OUT_OF_MEMORY);
  TRY(gsp_vector_extract_tuples(I, NULL, &got, d));
  for (gsp_index k = 0; k < got; k++) arcs += p[I[k] + 1] - p[I[k]];
  free(I);
  return arcs;
}

static void dump_array(const config *c, const char *graph, const char *what, const void *x, size_t bytes) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s_%s", c->dump, graph, what);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(x, 1, bytes, f) != bytes) {
    perror(path);
    exit(1);
  }
  fclose(f);
}

/* Raw CSR (int64 indptr, int32 indices, weights as float64), the sources
 * of the first algorithm's runs (warm-up first) and our distances from the
 * first timed one (float64, inf where unreached) for the scipy peer. */
static void dump_graph(const config *c, const char *name, gsp_matrix A, const gsp_index *srcs, gsp_index nsrc) {
  gsp_index n, nv;
  TRY(gsp_matrix_nrows(&n, A));
  TRY(gsp_matrix_nvals(&nv, A));
  gsp_matrix D = NULL;
  TRY(gsp_matrix_cast(&D, A, GSP_FP64));
  gsp_index *p = malloc((n + 1) * sizeof *p), *j = malloc((nv + 1) * sizeof *j);
  double *w = malloc((nv + 1) * sizeof *w), *dist = malloc(n * sizeof *dist);
  int32_t *j32 = malloc((nv + 1) * sizeof *j32);
  if (!p || !j || !w || !dist || !j32) die("out of memory", GSP_OUT_OF_MEMORY);
  TRY(gsp_matrix_export_csr(p, j, w, D));
  for (gsp_index e = 0; e < nv; e++) j32[e] = (int32_t)j[e];
  dump_array(c, name, "indptr.i64", p, (n + 1) * sizeof *p);
  dump_array(c, name, "indices.i32", j32, nv * sizeof *j32);
  dump_array(c, name, "weights.f64", w, nv * sizeof *w);
  uint64_t st = 12345;
  int64_t *s = malloc((size_t)(c->reps + 1) * sizeof *s);
  for (int r = 0; r <= c->reps; r++) s[r] = (int64_t)srcs[rng(&st) % (nsrc ? nsrc : 1)];
  dump_array(c, name, "sources.i64", s, (size_t)(c->reps + 1) * sizeof *s);
  gsp_vector d = NULL;
  gsp_sssp_opts o = {.backend = c->backend};
  TRY(gsp_sssp(&d, NULL, A, (gsp_index)s[c->reps > 0 ? 1 : 0], &o));
  gsp_index got = n;
  gsp_index *I = malloc((n + 1) * sizeof *I);
  int64_t *x = malloc((n + 1) * sizeof *x); /* room for any type */
  if (!I || !x) die("out of memory", GSP_OUT_OF_MEMORY);
  TRY(gsp_vector_extract_tuples(I, x, &got, d));
  for (gsp_index v = 0; v < n; v++) dist[v] = INFINITY;
  for (gsp_index k = 0; k < got; k++) {
    switch (c->type) {
    case GSP_INT32:
      dist[I[k]] = ((const int32_t *)x)[k];
      break;
    case GSP_INT64:
      dist[I[k]] = (double)x[k];
      break;
    case GSP_FP32:
      dist[I[k]] = ((const float *)x)[k];
      break;
    default:
      dist[I[k]] = ((const double *)x)[k];
      break;
    }
  }
  dump_array(c, name, "dist.f64", dist, n * sizeof *dist);
  gsp_vector_free(&d), gsp_matrix_free(&D);
  free(p), free(j), free(w), free(dist), free(j32), free(s), free(I), free(x);
}

/* Phase times of the timed GPU runs of one row (the report of each call;
 * only calls that ran on the device count). */
#define PH_MAX 64
typedef struct {
  int k;
  double wall[PH_MAX], call[PH_MAX], setup[PH_MAX], kernel[PH_MAX], out[PH_MAX];
  double touch[PH_MAX], before[PH_MAX], after[PH_MAX], tree[PH_MAX];
  long long ties;
  int tie_levels, steps, chunks, pinned;
} phase_acc;

static double median_of(double *x, int k) {
  qsort(x, (size_t)k, sizeof *x, cmp_double);
  return k > 0 ? x[k / 2] : NAN;
}

static void phase_add(phase_acc *a, double wall) {
#ifdef GSP_HAVE_CUDA
  const gsp_cuda_sssp_stats s = last_diag.sssp;
  if (!last_diag.sssp_gpu || s.kernel_s <= 0 || a->k >= PH_MAX) return; /* not the near-far driver */
  a->wall[a->k] = wall, a->call[a->k] = s.call_s, a->setup[a->k] = s.setup_s, a->kernel[a->k] = s.kernel_s;
  a->out[a->k] = s.out_s;
  a->touch[a->k] = s.touch_s, a->before[a->k] = s.host_before_s, a->after[a->k] = s.host_after_s;
  a->tree[a->k] = s.tree_s;
  a->ties = (long long)s.ties, a->tie_levels = s.tie_levels, a->steps = s.steps;
  a->chunks = s.chunks, a->pinned = s.pinned;
  a->k++;
#else
  (void)a, (void)wall;
#endif
}

static void phase_print(const config *c, phase_acc *a, const char *name, gsp_index n, gsp_index m, const char *label) {
  if (a->k == 0) return;
  const double wall = median_of(a->wall, a->k), call = median_of(a->call, a->k), setup = median_of(a->setup, a->k),
               kern = median_of(a->kernel, a->k), out = median_of(a->out, a->k), touch = median_of(a->touch, a->k),
               before = median_of(a->before, a->k), after = median_of(a->after, a->k), tree = median_of(a->tree, a->k);
  /* gateway = device setup + kernel + after kernel (+ launch and waits);
   * call = host before the gateway + gateway + host after it */
  printf("|   phases   | median of %d: kernel %.2f ms (%.2f GTEPS), device setup %.2f ms, after kernel %.2f ms "
         "(%d %s chunks), page mapping beside the kernel %.2f ms, gateway %.2f ms, host before gateway %.2f ms, "
         "host after gateway %.2f ms, call %.2f ms | %d steps",
         a->k, kern * 1e3, (double)m / kern / 1e9, setup * 1e3, out * 1e3, a->chunks, a->pinned ? "pinned" : "pageable",
         touch * 1e3, call * 1e3, before * 1e3, after * 1e3, wall * 1e3, a->steps);
  if (tree > 0) printf(" | parent pass %.2f ms, %lld ties, %d tie levels", tree * 1e3, a->ties, a->tie_levels);
  printf("\n");
  fflush(stdout);
  char what[96];
  snprintf(what, sizeof what, "%s kernel", label);
  csv_row(c, "sssp-phase", name, n, m, what, a->k, kern, kern, (double)m / kern / 1e9, "GTEPS");
  snprintf(what, sizeof what, "%s gateway", label);
  csv_row(c, "sssp-phase", name, n, m, what, a->k, call, call, (double)m / call / 1e9, "GTEPS");
  snprintf(what, sizeof what, "%s after kernel", label);
  csv_row(c, "sssp-phase", name, n, m, what, a->k, out, out, (double)m / out / 1e9, "GTEPS");
  snprintf(what, sizeof what, "%s host outside gateway", label);
  csv_row(c, "sssp-phase", name, n, m, what, a->k, before + after, before + after, (double)m / (before + after) / 1e9,
          "GTEPS");
}

/* Whether algorithm `label` runs on graph `name`. */
static bool wanted(const config *c, const char *name, const char *label) {
  if (c->algos) {
    char list[256];
    snprintf(list, sizeof list, ",%s,", c->algos);
    char key[64];
    snprintf(key, sizeof key, ",%s,", label);
    return strstr(list, key) != NULL;
  }
  return !(c->backend == GSP_BACKEND_CPU && !strncmp(name, "grid", 4) && !strcmp(label, "harish"));
}

static void bench_sssp_graph(const config *c, const char *name, gsp_matrix A) {
  gsp_index n, m, nsrc;
  TRY(gsp_matrix_nrows(&n, A));
  TRY(gsp_matrix_nvals(&m, A));
  gsp_index *rowp = NULL;
  gsp_index *srcs = out_degree_vertices(A, &nsrc, &rowp);
  if (c->dump) dump_graph(c, name, A, srcs, nsrc);
  const gsp_sssp_algo algos[] = {GSP_SSSP_HARISH, GSP_SSSP_DA2CF, GSP_SSSP_DELTA, GSP_SSSP_AUTO};
  for (int ai = 0; ai < 5; ai++) {
    /* every row times the same sources (parents against distances alone
     * too: the work of a source varies by tens of percent on R-MAT) */
    uint64_t st = 12345;
    const bool parents = ai == 4; /* AUTO again, with the parent tree */
    const gsp_sssp_algo algo = algos[ai < 4 ? ai : 3];
    if (!wanted(c, name, algo_name(algo))) {
      printf("| %-10s | %9llu | %10llu | %-14s | %9s | %9s | %8s | %9s | (skipped; --algos %s)\n", name,
             (unsigned long long)n, (unsigned long long)m, parents ? "auto+parents" : algo_name(algo), "-", "-", "-",
             "-", algo_name(algo));
      continue;
    }
    gsp_sssp_opts o = {.algo = algo, .backend = c->backend};
    double *t = malloc((size_t)(c->reps + 1) * sizeof *t), *rate = malloc((size_t)(c->reps + 1) * sizeof *rate);
    int done = 0;
    double warm = 0;
    gsp_index reached = 0;
    phase_acc ph = {0};
    for (int r = -1; r < c->reps; r++) {
      const gsp_index s = srcs[rng(&st) % (nsrc ? nsrc : 1)];
      gsp_vector d = NULL, p = NULL;
      const double t0 = omp_get_wtime();
      TRY(gsp__sssp_run("gsp_sssp", &d, NULL, parents ? &p : NULL, A, &s, 1, &o, NULL, &last_diag));
      const double dt = omp_get_wtime() - t0;
      if (r >= 0) phase_add(&ph, dt);
      TRY(gsp_vector_nvals(&reached, d));
      const double arcs_r = (double)reached_arcs(d, rowp);
      gsp_vector_free(&d), gsp_vector_free(&p);
      if (r < 0) {
        warm = dt;
        if (dt > c->max_seconds) { /* too slow to repeat: report the one run */
          rate[done] = arcs_r / dt;
          t[done++] = dt;
          break;
        }
        continue;
      }
      rate[done] = arcs_r / dt;
      t[done++] = dt;
    }
    qsort(t, (size_t)done, sizeof *t, cmp_double);
    qsort(rate, (size_t)done, sizeof *rate, cmp_double);
    const double med = t[done / 2], lo = t[0], med_rate = rate[done / 2];
    char label[64];
    snprintf(label, sizeof label, "%s%s", algo_name(algo), parents ? "+parents" : "");
    printf("| %-10s | %9llu | %10llu | %-14s | %9.2f | %9.2f | %8.4f | %8.4f | %9llu | %9.2f |%s\n", name,
           (unsigned long long)n, (unsigned long long)m, label, med * 1e3, lo * 1e3, (double)m / med / 1e9,
           med_rate / 1e9, (unsigned long long)reached, warm * 1e3,
           done == 1 && warm > c->max_seconds ? " (one run: slow)" : "");
    fflush(stdout);
    csv_row(c, "sssp", name, n, m, label, done, med, lo, (double)m / med / 1e9, "GTEPS");
    csv_row(c, "sssp", name, n, m, label, done, med, lo, med_rate / 1e9, "GTEPS_r");
    phase_print(c, &ph, name, n, m, label);
    free(t), free(rate);
  }
  free(srcs), free(rowp);
}

/* Parses the next number of comma list *p (NULL at the end). */
static bool next_num(const char **p, double *x) {
  if (!*p || !**p) return false;
  char *end = NULL;
  *x = strtod(*p, &end);
  *p = *end == ',' ? end + 1 : NULL;
  return true;
}

/* The GPU near-far sweep on graph `name`: every (delta, chain, blocks per
 * SM, hub degree) of the lists, distances only, the same sources as the
 * rows; median call and kernel time, steps (grid barriers), vertices
 * expanded per vertex reached (work efficiency), and the host time before
 * the kernel's launch (pre) and after the kernel (post: the count, the
 * waits, the copies). */
static void bench_sssp_sweep(const config *c, const char *name, gsp_matrix A) {
#ifdef GSP_HAVE_CUDA
  gsp_index n, m, nsrc;
  TRY(gsp_matrix_nrows(&n, A));
  TRY(gsp_matrix_nvals(&m, A));
  gsp_index *rowp = NULL;
  gsp_index *srcs = out_degree_vertices(A, &nsrc, &rowp);
  printf("| %-10s | %8s | %5s | %4s | %4s | %9s | %9s | %7s | %9s | %8s | %6s | %6s |\n", "graph", "delta", "chain",
         "hub", "blks", "median ms", "kernel ms", "steps", "exp/reach", "GTEPS", "pre ms", "post ms");
  const char *pd = c->deltas ? c->deltas : "0";
  double delta, chain, bps, hub;
  while (next_num(&pd, &delta)) {
    const char *pc = c->chains ? c->chains : "0";
    while (next_num(&pc, &chain)) {
      const char *pb = c->bps ? c->bps : "0";
      while (next_num(&pb, &bps)) {
        const char *ph = c->hubs ? c->hubs : "0";
        while (next_num(&ph, &hub)) {
          gsp_sssp_opts o = {.backend = GSP_BACKEND_CUDA, .delta = delta};
          gsp__sssp_knobs k = {.chain = (int)chain, .blocks_per_sm = (int)bps, .hub = (int64_t)hub};
          uint64_t st = 12345;
          const int R = c->reps;
          double *x = calloc((size_t)R * 6, sizeof *x);
          if (!x) die("out of memory", GSP_OUT_OF_MEMORY);
          double *t = x, *kt = x + R, *steps = x + 2 * R, *eff = x + 3 * R, *pre = x + 4 * R, *post = x + 5 * R;
          int done = 0, ch = 0, blocks = 0;
          for (int r = -1; r < R; r++) {
            gsp_index s = srcs[rng(&st) % (nsrc ? nsrc : 1)];
            gsp_vector d = NULL;
            const double t0 = omp_get_wtime();
            TRY(gsp__sssp_run("gsp_sssp", &d, NULL, NULL, A, &s, 1, &o, &k, &last_diag));
            const double dt = omp_get_wtime() - t0;
            gsp_index reached = 0;
            TRY(gsp_vector_nvals(&reached, d));
            gsp_vector_free(&d);
            if (r < 0 || !last_diag.sssp_gpu) continue;
            const gsp_cuda_sssp_stats *ss = &last_diag.sssp;
            t[done] = dt, kt[done] = ss->kernel_s, steps[done] = ss->steps;
            eff[done] = (double)ss->expanded / (double)(reached ? reached : 1);
            pre[done] = ss->launch_s, post[done] = ss->wait_s - ss->kernel_s + ss->out_s;
            ch = ss->chain, blocks = ss->blocks;
            done++;
          }
          if (done > 0) {
            const double med = median_of(t, done), kmed = median_of(kt, done);
            printf("| %-10s | %8g | %5d | %4g | %4d | %9.2f | %9.2f | %7.0f | %9.2f | %8.3f | %6.3f | %6.3f |\n", name,
                   delta, ch, hub, blocks, med * 1e3, kmed * 1e3, median_of(steps, done), median_of(eff, done),
                   (double)m / med / 1e9, median_of(pre, done) * 1e3, median_of(post, done) * 1e3);
            fflush(stdout);
            char what[128];
            snprintf(what, sizeof what, "sweep delta %g chain %d hub %g blocks %d kernel", delta, ch, hub, blocks);
            csv_row(c, "sssp-sweep", name, n, m, what, done, kmed, kmed, (double)m / kmed / 1e9, "GTEPS");
            snprintf(what, sizeof what, "sweep delta %g chain %d hub %g blocks %d call", delta, ch, hub, blocks);
            csv_row(c, "sssp-sweep", name, n, m, what, done, med, med, (double)m / med / 1e9, "GTEPS");
          }
          free(x);
        }
      }
    }
  }
  free(srcs), free(rowp);
#else
  (void)c, (void)name, (void)A;
  printf("(the near-far sweep needs the CUDA backend)\n");
#endif
}

/* Chung-Lu power-law digraph: expected out- and in-degree of vertex i
 * proportional to (i+1)^(-1/(gamma-1)), average degree avg. */
static gsp_matrix powerlaw(gsp_type t, gsp_index n, double avg, double gamma, int64_t wmax, uint64_t seed) {
  double *wt = malloc(n * sizeof *wt), *cum = malloc((n + 1) * sizeof *cum);
  const gsp_index m = (gsp_index)(avg * (double)n);
  gsp_index *I = malloc(m * sizeof *I), *J = malloc(m * sizeof *J);
  double *W = malloc(m * sizeof *W);
  if (!wt || !cum || !I || !J || !W) die("out of memory", GSP_OUT_OF_MEMORY);
  cum[0] = 0;
  for (gsp_index i = 0; i < n; i++) wt[i] = pow((double)(i + 1), -1.0 / (gamma - 1)), cum[i + 1] = cum[i] + wt[i];
  uint64_t st = seed;
  gsp_index k = 0;
  while (k < m) {
    gsp_index e[2];
    for (int side = 0; side < 2; side++) { /* inverse CDF by bisection */
      const double x = (double)(rng(&st) >> 11) * (1.0 / 9007199254740992.0) * cum[n];
      gsp_index lo = 0, hi = n;
      while (hi - lo > 1) {
        const gsp_index mid = (lo + hi) / 2;
        if (cum[mid] <= x) lo = mid;
        else hi = mid;
      }
      e[side] = lo;
    }
    if (e[0] == e[1]) continue;
    I[k] = e[0], J[k] = e[1], W[k] = (double)(1 + rng(&st) % (uint64_t)wmax), k++;
  }
  gsp_matrix D = NULL, A = NULL;
  TRY(gsp_matrix_new(&D, GSP_FP64, n, n));
  TRY(gsp_matrix_build(D, I, J, W, m, GSP_DUP_MIN));
  TRY(gsp_matrix_cast(&A, D, t));
  gsp_matrix_free(&D);
  free(wt), free(cum), free(I), free(J), free(W);
  return A;
}

/* ---- Bellman-Ford ---- */

/* R-MAT 2^scale x 4 * 2^scale reweighted by potentials in [0, 255]; with
 * cycle, arcs 0 -> 1 -> 2 -> 0 of total weight -1 are added. */
static gsp_matrix bf_graph(const config *c, int scale, bool cycle) {
  gsp_matrix R = NULL, A = NULL;
  TRY(gsp_generate_rmat(&R, GSP_INT64, scale, 4, 0, 0, 0, 1, 255, 3));
  gsp_index n, m;
  TRY(gsp_matrix_nrows(&n, R));
  TRY(gsp_matrix_nvals(&m, R));
  gsp_index *p = malloc((n + 1) * sizeof *p), *j = malloc((m + 3) * sizeof *j), *I = malloc((m + 3) * sizeof *I);
  int64_t *w = malloc((m + 3) * sizeof *w), *pot = malloc(n * sizeof *pot);
  if (!p || !j || !I || !w || !pot) die("out of memory", GSP_OUT_OF_MEMORY);
  TRY(gsp_matrix_export_csr(p, j, w, R));
  uint64_t st = 77;
  for (gsp_index v = 0; v < n; v++) pot[v] = (int64_t)(rng(&st) % 256);
  for (gsp_index u = 0; u < n; u++)
    for (gsp_index e = p[u]; e < p[u + 1]; e++) I[e] = u, w[e] += pot[u] - pot[j[e]];
  gsp_index mm = m;
  if (cycle)
    for (gsp_index k = 0; k < 3; k++) {
      const gsp_index u = k, v = (k + 1) % 3;
      I[mm] = u, j[mm] = v, w[mm] = (k == 2 ? -1 : 0) + pot[u] - pot[v], mm++;
    }
  gsp_matrix B = NULL;
  TRY(gsp_matrix_new(&B, GSP_INT64, n, n));
  TRY(gsp_matrix_build(B, I, j, w, mm, GSP_DUP_LAST));
  TRY(gsp_matrix_cast(&A, B, c->type));
  gsp_matrix_free(&B), gsp_matrix_free(&R);
  free(p), free(j), free(I), free(w), free(pot);
  return A;
}

static void bench_bf(const config *c) {
  printf("\nBellman-Ford, negative weights (R-MAT, edge factor 4, reweighted; GTEPS = arcs / time)\n");
  printf("| %-11s | %9s | %10s | %-16s | %9s | %9s | %8s | %-9s |\n", "graph", "vertices", "arcs", "call", "median ms",
         "min ms", "GTEPS", "result");
  printf(
      "|-------------|-----------|------------|------------------|-----------|-----------|----------|-----------|\n");
  const int scales[] = {13, 15, 18}; /* |V| 8192 .. 262144, as Tastan et al.'s 6301 .. 265214 */
  for (int si = 0; si < 3; si++) {
    const int scale = scales[si];
    if (scale > c->scale && si > 0) break;
    for (int cyc = 0; cyc < 2; cyc++) {
      gsp_matrix A = bf_graph(c, scale, cyc);
      gsp_index n, m, nsrc;
      TRY(gsp_matrix_nrows(&n, A));
      TRY(gsp_matrix_nvals(&m, A));
      gsp_index *rowp = NULL;
      gsp_index *srcs = out_degree_vertices(A, &nsrc, &rowp);
      free(rowp);
      char name[32];
      snprintf(name, sizeof name, "rmat-%d%s", scale, cyc ? "+cyc" : "");
      gsp_bf_opts o = {.backend = c->backend};
      for (int call = 0; call < 2; call++) {
        const char *label = call == 0 ? "bellman_ford" : "negative_cycle";
        double *t = malloc((size_t)(c->reps + 1) * sizeof *t);
        if (!t) die("out of memory", GSP_OUT_OF_MEMORY);
        uint64_t st = 999;
        gsp_info res = GSP_SUCCESS;
        int done = 0;
        for (int r = -1; r < c->reps; r++) { /* r = -1: warm-up */
          const gsp_index s = cyc ? 0 : srcs[rng(&st) % (nsrc ? nsrc : 1)];
          gsp_vector d = NULL, pa = NULL;
          gsp_index *cy = malloc((n + 1) * sizeof *cy), len = n;
          if (!cy) die("out of memory", GSP_OUT_OF_MEMORY);
          const double t0 = omp_get_wtime();
          res = call == 0 ? gsp_bellman_ford(&d, &pa, A, s, &o) : gsp_negative_cycle(cy, &len, A, &o);
          const double dt = omp_get_wtime() - t0;
          if (res < 0 && res != GSP_NEGATIVE_CYCLE) die(label, res);
          gsp_vector_free(&d), gsp_vector_free(&pa);
          free(cy);
          if (r >= 0) t[done++] = dt;
          if (r < 0 && dt > c->max_seconds) {
            t[done++] = dt;
            break;
          }
        }
        qsort(t, (size_t)done, sizeof *t, cmp_double);
        const double med = t[done / 2], lo = t[0];
        const char *what = res == GSP_NEGATIVE_CYCLE || (call == 1 && res == GSP_SUCCESS) ? "neg.cycle"
                           : res == GSP_NO_VALUE                                          ? "no cycle"
                                                                                          : "distances";
        printf("| %-11s | %9llu | %10llu | %-16s | %9.2f | %9.2f | %8.4f | %-9s |\n", name, (unsigned long long)n,
               (unsigned long long)m, label, med * 1e3, lo * 1e3, (double)m / med / 1e9, what);
        fflush(stdout);
        csv_row(c, "bellman_ford", name, n, m, label, done, med, lo, (double)m / med / 1e9, "GTEPS");
        free(t);
      }
      free(srcs);
      gsp_matrix_free(&A);
    }
  }
}

/* The runs time themselves (*secs): the call and whatever completes its
 * result, not the freeing of the result afterwards (tens of GiB at the
 * large all-pairs). */
typedef gsp_info (*run_fn)(void *arg, double *secs);

static double time_once(run_fn fn, void *arg) {
  double secs = 0;
  TRY(fn(arg, &secs));
  return secs;
}

typedef struct {
  gsp_matrix A;
  const config *c;
  bool parents;
  gsp_type parent_type; /* 0: the default, GSP_INT64 */
  gsp_backend backend;  /* AUTO: the run's backend */
  gsp_index batch;
  const gsp_index *sources; /* NULL: all pairs */
  gsp_index nsources;
} apsp_arg;

static gsp_info run_msssp(void *p, double *secs) {
  apsp_arg *a = p;
  gsp_matrix D = NULL, P = NULL;
  gsp_msssp_opts o = {.backend = a->backend != GSP_BACKEND_AUTO ? a->backend : a->c->backend,
                      .batch = a->batch,
                      .parent_type = a->parent_type};
  const double t0 = omp_get_wtime();
  gsp_info info = gsp__msssp_run(&D, a->parents ? &P : NULL, a->A, a->sources, a->nsources, &o, &last_diag);
  *secs = omp_get_wtime() - t0;
  gsp_matrix_free(&D), gsp_matrix_free(&P);
  return info;
}

/* The user's all-pairs call, gsp_apsp (algo: FLOYD_WARSHALL, or AUTO with
 * *picked set to its choice), dense host result. */
static gsp_info run_apsp_algo(void *p, double *secs, gsp_apsp_algo algo, gsp_apsp_algo *picked) {
  apsp_arg *a = p;
  gsp_matrix D = NULL;
  gsp_apsp_report rep;
  gsp_apsp_advanced adv = {.report = &rep};
  gsp_apsp_opts o = {.backend = a->c->backend, .algo = algo, .advanced = &adv};
  const double t0 = omp_get_wtime();
  gsp_info info = gsp_apsp(&D, NULL, a->A, &o);
  *secs = omp_get_wtime() - t0;
  if (picked && info >= 0) *picked = rep.algo;
  gsp_matrix_free(&D);
  return info;
}
static gsp_apsp_algo auto_pick;
static gsp_info run_fw(void *p, double *secs) {
  return run_apsp_algo(p, secs, GSP_APSP_FLOYD_WARSHALL, NULL);
}
static gsp_info run_auto(void *p, double *secs) {
  return run_apsp_algo(p, secs, GSP_APSP_AUTO, &auto_pick);
}

/* 0, 1, ..., n - 1: every vertex a source (gsp_msssp takes a list). */
static gsp_index *all_sources(gsp_index n) {
  gsp_index *s = malloc((n > 0 ? n : 1) * sizeof *s);
  if (!s) die("out of memory", GSP_OUT_OF_MEMORY);
  for (gsp_index k = 0; k < n; k++) s[k] = k;
  return s;
}

/* Median of reps timed runs after a warm-up (one run when slow). */
static double timed(const config *c, run_fn fn, void *arg, int *runs, double *lo) {
  double *t = malloc((size_t)(c->reps + 1) * sizeof *t);
  int k = 0;
  const double warm = time_once(fn, arg);
  if (warm > c->max_seconds) {
    t[k++] = warm;
  } else {
    for (int r = 0; r < c->reps; r++) t[k++] = time_once(fn, arg);
  }
  qsort(t, (size_t)k, sizeof *t, cmp_double);
  const double med = t[k / 2];
  *lo = t[0];
  *runs = k;
  free(t);
  return med;
}

/* Phases of the last gsp_msssp call that ran on the device. */
static void ms_phase_print(const char *what) {
#ifdef GSP_HAVE_CUDA
  const gsp_cuda_sssp_stats s = last_diag.sssp;
  if (!last_diag.sssp_gpu || s.batches == 0) return;
  printf("|   phases of the last run (%s): %d batches; device: rounds %.3f s, parent pass %.3f s, transpose %.3f s, "
         "copies %.3f s (own stream); host: row copies %.3f s, waiting %.3f s; gateway %.3f s\n",
         what, s.batches, s.relax_s, s.parent_s, s.transpose_s, s.d2h_s, s.host_copy_s, s.host_wait_s, s.call_s);
  fflush(stdout);
#else
  (void)what;
#endif
}

static void bench_apsp(const config *c) {
  const gsp_index n = c->apsp_n;
  gsp_index *all = all_sources(n);
  printf("\nAll-pairs, |V| = %llu: gsp_msssp (all sources) vs Floyd-Warshall (gsp_apsp) and gsp_apsp's AUTO pick\n",
         (unsigned long long)n);
  printf("(random and power-law |E| = 16384, weights in [1, 4096]; every time is the call, dense host result)\n");
  printf("| %-9s | %10s | %10s | %10s | %8s | %10s | %12s | %8s | %10s | %-5s |\n", "topology", "arcs", "msssp ms",
         "+par ms", "GTEPS", "FW ms", "FW tasks/s", "FW/msssp", "AUTO ms", "pick");
  printf("|-----------|------------|------------|------------|----------|------------|--------------|----------|---"
         "---------|-------|\n");
  const char *names[] = {"random", "power-law", "ring", "complete"};
  for (int k = 0; k < 4; k++) {
    gsp_matrix A = NULL;
    switch (k) {
    case 0:
      TRY(gsp_generate_random(&A, c->type, n, n < 4096 ? 4 * n : 16384, 1, 4096, 7));
      break;
    case 1:
      A = powerlaw(c->type, n, n < 4096 ? 4.0 : 16384.0 / (double)n, 2.3, 4096, 7);
      break;
    case 2:
      TRY(gsp_generate_ring(&A, c->type, n, true, 1, 4096, 7));
      break;
    default:
      TRY(gsp_generate_complete(&A, c->type, n, 1, 4096, 7));
      break;
    }
    gsp_index m;
    TRY(gsp_matrix_nvals(&m, A));
    if (c->dump_dir && k < 3) {
      char path[1024];
      snprintf(path, sizeof path, "%s/apsp_%s_%llu.mtx", c->dump_dir, names[k], (unsigned long long)n);
      TRY(gsp_matrix_write(path, A, NULL));
    }
    apsp_arg a = {.A = A, .c = c, .sources = all, .nsources = n}, ap = a;
    ap.parents = true;
    int runs_m = 0, runs_p = 0, runs_f = 0, runs_a = 0;
    double lo_m = 0, lo_p = 0, lo_f = 0, lo_a = 0, fw = NAN;
    const double ms = timed(c, run_msssp, &a, &runs_m, &lo_m);
    ms_phase_print(names[k]);
    if (c->batches && k < 2) { /* batch sweep, sparse graphs */
      char list[256];
      snprintf(list, sizeof list, "%s", c->batches);
      for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        apsp_arg ab = a;
        ab.batch = (gsp_index)atoll(tok);
        int runs_b = 0;
        double lo_b = 0;
        const double tb = timed(c, run_msssp, &ab, &runs_b, &lo_b);
        printf("|   batch %4llu: %.2f ms (min %.2f)\n", (unsigned long long)ab.batch, tb * 1e3, lo_b * 1e3);
        ms_phase_print(names[k]);
      }
    }
    const double mp = timed(c, run_msssp, &ap, &runs_p, &lo_p);
    if (!c->skip_fw) fw = timed(c, run_fw, &a, &runs_f, &lo_f);
    const double au = timed(c, run_auto, &a, &runs_a, &lo_a);
    const char *pick = auto_pick == GSP_APSP_FLOYD_WARSHALL ? "fw" : auto_pick == GSP_APSP_MSSSP ? "msssp" : "johnson";
    const double tasks = (double)n * (double)n * (double)n, rel = (double)n * (double)m;
    printf("| %-9s | %10llu | %10.2f | %10.2f | %8.3f | %10.2f | %12.3g | %8.2f | %10.2f | %-5s |\n", names[k],
           (unsigned long long)m, ms * 1e3, mp * 1e3, rel / ms / 1e9, fw * 1e3, tasks / fw, fw / ms, au * 1e3, pick);
    fflush(stdout);
    csv_row(c, "apsp", names[k], n, m, "msssp", runs_m, ms, lo_m, rel / ms, "arc-relaxations/s");
    csv_row(c, "apsp", names[k], n, m, "msssp+parents", runs_p, mp, lo_p, rel / mp, "arc-relaxations/s");
    if (!c->skip_fw) csv_row(c, "apsp", names[k], n, m, "fw", runs_f, fw, lo_f, tasks / fw, "tasks/s");
    char what[32];
    snprintf(what, sizeof what, "auto (%s)", pick);
    csv_row(c, "apsp", names[k], n, m, what, runs_a, au, lo_a, rel / au, "arc-relaxations/s");
    gsp_matrix_free(&A);
  }
  free(all);
}

/* k timed runs, no warm-up (the caller warmed up): median, min. */
static double timed_k(int k, run_fn fn, void *arg, int *runs, double *lo) {
  double t[16];
  if (k > 16) k = 16;
  if (k < 1) k = 1;
  for (int r = 0; r < k; r++) t[r] = time_once(fn, arg);
  qsort(t, (size_t)k, sizeof *t, cmp_double);
  *runs = k, *lo = t[0];
  return t[k / 2];
}

/* One row of the large all-pairs table. */
static void big_row(const config *c, const char *what, gsp_index n, gsp_index m, gsp_index srcs, int runs, double med,
                    double lo, double allpairs, const char *note) {
  printf("| %-28s | %7llu | %8d | %10.3f | %10.3f | %12.3f | %8.2f | %s\n", what, (unsigned long long)srcs, runs, med,
         lo, allpairs, (double)n * (double)m / allpairs / 1e9, note);
  fflush(stdout);
  csv_row(c, "apsp-big", what, n, m, note, runs, med, lo, (double)n * (double)m / allpairs, "arc-relaxations/s");
}

/* All pairs of a random graph, |V| = big_n, |E| = 4|V|. */
static void bench_apsp_big(const config *c) {
  const gsp_index n = c->big_n, m0 = 4 * n;
  gsp_matrix A = NULL;
  TRY(gsp_generate_random(&A, c->type, n, m0, 1, 4096, 11));
  gsp_index m;
  TRY(gsp_matrix_nvals(&m, A));
  if (c->dump_dir) {
    char path[1024];
    snprintf(path, sizeof path, "%s/apsp_random_%llu.mtx", c->dump_dir, (unsigned long long)n);
    TRY(gsp_matrix_write(path, A, NULL));
  }
  printf("\nAll-pairs of a random graph, |V| = %llu, |E| = %llu, weights [1, 4096], %s result %.1f GiB on the "
         "host\n(GTEPS = n x arcs / all-pairs time; 'all-pairs s' is measured, or extrapolated where noted)\n",
         (unsigned long long)n, (unsigned long long)m, type_name(c->type),
         (double)n * (double)n * (c->type == GSP_INT64 || c->type == GSP_FP64 ? 8 : 4) / 1073741824.0);
  printf("| %-28s | %7s | %8s | %10s | %10s | %12s | %8s | note\n", "run", "sources", "runs", "median s", "min s",
         "all-pairs s", "GTEPS");
  printf(
      "|------------------------------|---------|----------|------------|------------|--------------|----------|------\n");
  /* warm-up on a subset: CUDA context, pinned staging, code paths */
  gsp_index ks = n < 2048 ? n : 2048;
  gsp_index *sub = malloc(ks * sizeof *sub);
  if (!sub) die("out of memory", GSP_OUT_OF_MEMORY);
  for (gsp_index k = 0; k < ks; k++) sub[k] = (k * 7919) % n;
  apsp_arg w = {.A = A, .c = c, .sources = sub, .nsources = ks};
  (void)time_once(run_msssp, &w);
  w.parents = true;
  (void)time_once(run_msssp, &w);
  w.parent_type = GSP_INT32;
  (void)time_once(run_msssp, &w);
  const int reps = c->reps < 3 ? c->reps : 3;
  int runs = 0;
  double lo = 0;
  gsp_index *all = all_sources(n);
  apsp_arg a = {.A = A, .c = c, .sources = all, .nsources = n};
  double t = timed_k(reps, run_msssp, &a, &runs, &lo);
  big_row(c, "gsp_msssp", n, m, n, runs, t, lo, t, backend_name(c->backend));
  ms_phase_print("distances");
  const double dist_only = t;
  a.parents = true;
  t = timed_k(c->par_reps, run_msssp, &a, &runs, &lo);
  char note[128];
  snprintf(note, sizeof note, "%s, parents +%.1f%%", backend_name(c->backend), 100.0 * (t / dist_only - 1));
  big_row(c, "gsp_msssp + parents", n, m, n, runs, t, lo, t, note);
  ms_phase_print("parents");
  a.parent_type = GSP_INT32; /* half the parent bytes to map and write */
  t = timed_k(c->par_reps, run_msssp, &a, &runs, &lo);
  snprintf(note, sizeof note, "%s, parents +%.1f%%", backend_name(c->backend), 100.0 * (t / dist_only - 1));
  big_row(c, "gsp_msssp + int32 parents", n, m, n, runs, t, lo, t, note);
  ms_phase_print("int32 parents");
  a.parents = false, a.parent_type = 0;
  if (c->batches) { /* batch sweep */
    char list[256];
    snprintf(list, sizeof list, "%s", c->batches);
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
      a.batch = (gsp_index)atoll(tok);
      t = timed_k(1, run_msssp, &a, &runs, &lo);
      char what[64];
      snprintf(what, sizeof what, "gsp_msssp batch %llu", (unsigned long long)a.batch);
      big_row(c, what, n, m, n, runs, t, lo, t, backend_name(c->backend));
    }
    a.batch = 0;
  }
  if (c->cpu_sources > 0 && c->backend != GSP_BACKEND_CPU) { /* our CPU backend on a subset */
    const gsp_index kc = c->cpu_sources < n ? c->cpu_sources : n;
    apsp_arg ac = {.A = A, .c = c, .backend = GSP_BACKEND_CPU, .sources = sub, .nsources = kc};
    t = timed_k(1, run_msssp, &ac, &runs, &lo);
    int threads = 0;
    TRY(gsp_get_threads(&threads));
    snprintf(note, sizeof note, "cpu %d threads, EXTRAPOLATED x n/sources", threads);
    big_row(c, "gsp_msssp (CPU backend)", n, m, kc, runs, t, lo, t * (double)n / (double)kc, note);
  }
  free(sub);
  free(all);
  gsp_matrix_free(&A);
  if (!c->skip_fw && c->big_fw_n > 0) { /* Floyd-Warshall on the same kind of graph */
    const gsp_index nf = c->big_fw_n < n ? c->big_fw_n : n;
    gsp_matrix F = NULL;
    TRY(gsp_generate_random(&F, c->type, nf, 4 * nf, 1, 4096, 11));
    apsp_arg af = {.A = F, .c = c};
    t = timed_k(1, run_fw, &af, &runs, &lo);
    const double scale = ((double)n / nf) * ((double)n / nf) * ((double)n / nf);
    if (nf == n) snprintf(note, sizeof note, "%s, measured", backend_name(c->backend));
    else
      snprintf(note, sizeof note, "%s, measured at n = %llu, EXTRAPOLATED x (n/%llu)^3", backend_name(c->backend),
               (unsigned long long)nf, (unsigned long long)nf);
    big_row(c, "FW (gsp_apsp)", n, m, nf, runs, t, lo, t * scale, note);
    printf("FW / msssp (all-pairs): %.2f (target >= 4)\n", t * scale / dist_only);
    gsp_matrix_free(&F);
  }
}

int main(int argc, char **argv) {
  config c = {.backend = GSP_BACKEND_AUTO,
              .type = GSP_INT32,
              .scale = 21,
              .edgefactor = 16,
              .reps = 5,
              .grid = 4096,
              .apsp_n = 4677,
              .big_n = 65536,
              .big_fw_n = 32768,
              .cpu_sources = 256,
              .par_reps = 1,
              .max_seconds = 30};
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
    } else if (!strcmp(a, "--scale")) c.scale = atoi(v), i++;
    else if (!strcmp(a, "--edgefactor")) c.edgefactor = atoi(v), i++;
    else if (!strcmp(a, "--grid")) c.grid = (gsp_index)atoll(v), i++;
    else if (!strcmp(a, "--apsp-n")) c.apsp_n = (gsp_index)atoll(v), i++;
    else if (!strcmp(a, "--reps")) c.reps = atoi(v) > 0 ? atoi(v) : 1, i++;
    else if (!strcmp(a, "--max-seconds")) c.max_seconds = atof(v), i++;
    else if (!strcmp(a, "--csv")) c.csv = v, i++;
    else if (!strcmp(a, "--algos")) c.algos = v, i++;
    else if (!strcmp(a, "--graphs")) c.graphs = v, i++;
    else if (!strcmp(a, "--dump")) c.dump = v, i++;
    else if (!strcmp(a, "--deltas")) c.deltas = v, i++;
    else if (!strcmp(a, "--chains")) c.chains = v, i++;
    else if (!strcmp(a, "--bps")) c.bps = v, i++;
    else if (!strcmp(a, "--hubs")) c.hubs = v, i++;
    else if (!strcmp(a, "--skip-sssp")) c.skip_sssp = true;
    else if (!strcmp(a, "--skip-apsp")) c.skip_apsp = true;
    else if (!strcmp(a, "--skip-fw")) c.skip_fw = true;
    else if (!strcmp(a, "--skip-bf")) c.skip_bf = true;
    else if (!strcmp(a, "--apsp-big-n")) c.big_n = (gsp_index)atoll(v), i++;
    else if (!strcmp(a, "--apsp-big-fw-n")) c.big_fw_n = (gsp_index)atoll(v), i++;
    else if (!strcmp(a, "--apsp-cpu-sources")) c.cpu_sources = (gsp_index)atoll(v), i++;
    else if (!strcmp(a, "--apsp-parent-reps")) c.par_reps = atoi(v) > 0 ? atoi(v) : 1, i++;
    else if (!strcmp(a, "--apsp-batches")) c.batches = v, i++;
    else if (!strcmp(a, "--dump-dir")) c.dump_dir = v, i++;
    else if (!strcmp(a, "--skip-apsp-big")) c.skip_big = true;
    else if (!strcmp(a, "--quick"))
      c.scale = 14, c.grid = 256, c.apsp_n = 300, c.reps = 3, c.big_n = 4096, c.big_fw_n = 2048, c.cpu_sources = 64;
    else {
      fprintf(
          stderr,
          "usage: %s [--backend cpu|cuda|auto] [--type T] [--scale S] [--edgefactor E] [--grid R]\n"
          "       [--apsp-n N] [--reps K] [--algos harish,da2cf,delta,auto] [--max-seconds T]\n"
          "       [--apsp-big-n N] [--apsp-big-fw-n N] [--apsp-batches B1,B2] [--apsp-cpu-sources K]\n"
          "       [--apsp-parent-reps K]\n"
          "       [--dump-dir DIR] [--skip-sssp] [--skip-apsp] [--skip-apsp-big] [--skip-fw] [--skip-bf] [--quick]\n"
          "       [--csv FILE] [--graphs rmat,grid] [--dump DIR] [--deltas D1,..] [--chains C1,..] [--bps B1,..]\n"
          "       [--hubs H1,..]\n",
          argv[0]);
      return 2;
    }
  }
  TRY(gsp_set_backend(c.backend));
  bool gpu = false;
  char desc[256] = "";
  TRY(gsp_cuda_available(&gpu, desc, sizeof desc));
  int threads = 0;
  TRY(gsp_get_threads(&threads));
  if (c.backend == GSP_BACKEND_CPU || (c.backend == GSP_BACKEND_AUTO && !gpu))
    snprintf(c.device, sizeof c.device, "CPU, %d OpenMP threads", threads);
  else snprintf(c.device, sizeof c.device, "%s", desc);
  printf(
      "gsp shortest-path benchmark: backend %s, device %s, weights %s in [1, 255] (all-pairs: [1, 4096]), median of %d\n",
      backend_name(c.backend), c.device, type_name(c.type), c.reps);

  if (!c.skip_sssp) {
    printf("\nSingle source (GTEPS = arcs / time; sources with out-arcs, chosen at random)\n");
    printf("| %-10s | %9s | %10s | %-14s | %9s | %9s | %8s | %8s | %9s | %9s |\n", "graph", "vertices", "arcs",
           "algorithm", "median ms", "min ms", "GTEPS", "GTEPS_r", "reached", "first ms");
    printf("|------------|-----------|------------|----------------|-----------|-----------|----------|----------|"
           "-----------|-----------|\n");
    gsp_matrix A = NULL;
    char name[32];
    if (!c.graphs || strstr(c.graphs, "rmat")) {
      TRY(gsp_generate_rmat(&A, c.type, c.scale, (gsp_index)c.edgefactor, 0, 0, 0, 1, 255, 1));
      snprintf(name, sizeof name, "rmat-%d", c.scale);
      if (c.deltas || c.chains || c.bps || c.hubs) bench_sssp_sweep(&c, name, A);
      else bench_sssp_graph(&c, name, A);
      gsp_matrix_free(&A);
    }
    if (!c.graphs || strstr(c.graphs, "grid")) {
      TRY(gsp_generate_grid(&A, c.type, c.grid, c.grid, 1, 255, 1));
      snprintf(name, sizeof name, "grid-%llu", (unsigned long long)c.grid);
      if (c.deltas || c.chains || c.bps || c.hubs) bench_sssp_sweep(&c, name, A);
      else bench_sssp_graph(&c, name, A);
      gsp_matrix_free(&A);
    }
  }
  if (!c.skip_apsp) bench_apsp(&c);
  if (!c.skip_big && c.big_n > 0) bench_apsp_big(&c);
  if (!c.skip_bf) bench_bf(&c);
  return 0;
}
