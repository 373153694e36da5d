/*
 * Shortest-path benchmark.
 *
 *  1. Single source: gsp_sssp with every algorithm on an R-MAT graph
 *     (default scale 21, edge factor 16, Graph500 parameters) and a road-like
 *     grid (default 4096 x 4096), integer weights uniform in [1, 255].
 *     Reported as GTEPS = arcs of the graph / time (PERFORMANCE.md), median
 *     over random sources with at least one out-arc, after a warm-up.
 *  2. Many sources: all-pairs shortest paths by gsp_msssp (batches of
 *     sources, Okuyama et al.) on Okuyama's topologies with |V| = 4677:
 *     random, power-law (Chung-Lu), ring and complete, against tiled
 *     Floyd-Warshall (gsp_closure on MIN_PLUS) on the same matrix.
 *  3. Bellman-Ford (gsp_bellman_ford, and gsp_negative_cycle, which is
 *     Johnson's potential pass) on R-MAT graphs of Tastan et al.'s sizes
 *     (scales 13, 15, 18 up to --scale, edge factor 4) whose weights in
 *     [1, 255] are reweighted by random potentials p in [0, 255]
 *     (w + p(u) - p(v): about a third of the arcs negative, no negative
 *     cycle), and once more with a planted negative cycle. GTEPS as above.
 *
 * Usage: bench_sssp [--backend cpu|cuda|auto] [--type int32|int64|fp32|fp64]
 *        [--scale S] [--edgefactor E] [--grid R] [--apsp-n N] [--reps K]
 *        [--algos harish,da2cf,delta,auto] [--max-seconds T]
 *        [--skip-sssp] [--skip-apsp] [--skip-fw] [--skip-bf] [--quick] [--csv FILE]
 * --quick shrinks every size for a smoke test. A run whose warm-up takes
 * longer than --max-seconds (default 30) is timed once and flagged. Without
 * --algos every algorithm runs, except Harish on the grid on the CPU (its
 * Bellman-Ford rounds take hours at 4096 x 4096 there).
 * Rows are appended to --csv FILE (bench/results/ keeps recorded runs).
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsp.h"

typedef struct {
  gsp_backend backend;
  gsp_type type;
  int scale, edgefactor, reps;
  gsp_index grid, apsp_n;
  double max_seconds;
  bool skip_sssp, skip_apsp, skip_fw, skip_bf;
  const char *algos; /* NULL: the default set */
  const char *csv;
  char device[256];
} config;

static void die(const char *what, gsp_info info) {
  fprintf(stderr, "bench_sssp: %s: %s: %s\n", what, gsp_strerror(info), gsp_last_error());
  exit(1);
}
#define TRY(call)                                                              \
  do {                                                                         \
    gsp_info i_ = (call);                                                      \
    if (i_ < 0) die(#call, i_);                                                \
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

static void csv_row(const config *c, const char *bench, const char *graph, gsp_index n, gsp_index m,
                    const char *algo, int reps, double med, double lo, double rate, const char *unit) {
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

/* Out-degree of every vertex (CSR export), to pick sources with arcs. */
static gsp_index *out_degree_vertices(gsp_matrix A, gsp_index *count) {
  gsp_index n, nv;
  TRY(gsp_matrix_nrows(&n, A));
  TRY(gsp_matrix_nvals(&nv, A));
  gsp_index *p = malloc((n + 1) * sizeof *p), *j = malloc((nv + 1) * sizeof *j), *list = malloc((n + 1) * sizeof *list);
  if (!p || !j || !list) die("out of memory", GSP_OUT_OF_MEMORY);
  TRY(gsp_matrix_export_csr(p, j, NULL, A));
  gsp_index k = 0;
  for (gsp_index v = 0; v < n; v++)
    if (p[v + 1] > p[v]) list[k++] = v;
  free(p), free(j);
  *count = k;
  return list;
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
  gsp_index *srcs = out_degree_vertices(A, &nsrc);
  uint64_t st = 12345;
  const gsp_sssp_algo algos[] = {GSP_SSSP_HARISH, GSP_SSSP_DA2CF, GSP_SSSP_DELTA, GSP_SSSP_AUTO};
  for (int ai = 0; ai < 5; ai++) {
    const bool parents = ai == 4; /* AUTO again, with the parent tree */
    const gsp_sssp_algo algo = algos[ai < 4 ? ai : 3];
    if (!wanted(c, name, algo_name(algo))) {
      printf("| %-10s | %9llu | %10llu | %-14s | %9s | %9s | %8s | %9s | (skipped; --algos %s)\n", name,
             (unsigned long long)n, (unsigned long long)m, parents ? "auto+parents" : algo_name(algo), "-", "-", "-",
             "-", algo_name(algo));
      continue;
    }
    gsp_sssp_opts o = {.algo = algo, .backend = c->backend};
    double *t = malloc((size_t)(c->reps + 1) * sizeof *t);
    int done = 0;
    double warm = 0;
    gsp_index reached = 0;
    for (int r = -1; r < c->reps; r++) {
      const gsp_index s = srcs[rng(&st) % (nsrc ? nsrc : 1)];
      gsp_vector d = NULL, p = NULL;
      const double t0 = omp_get_wtime();
      TRY(gsp_sssp(&d, parents ? &p : NULL, A, s, &o));
      const double dt = omp_get_wtime() - t0;
      TRY(gsp_vector_nvals(&reached, d));
      gsp_vector_free(&d), gsp_vector_free(&p);
      if (r < 0) {
        warm = dt;
        if (dt > c->max_seconds) { /* too slow to repeat: report the one run */
          t[done++] = dt;
          break;
        }
        continue;
      }
      t[done++] = dt;
    }
    qsort(t, (size_t)done, sizeof *t, cmp_double);
    const double med = t[done / 2], lo = t[0];
    char label[64];
    snprintf(label, sizeof label, "%s%s", algo_name(algo), parents ? "+parents" : "");
    printf("| %-10s | %9llu | %10llu | %-14s | %9.2f | %9.2f | %8.4f | %9llu |%s\n", name, (unsigned long long)n,
           (unsigned long long)m, label, med * 1e3, lo * 1e3, (double)m / med / 1e9, (unsigned long long)reached,
           done == 1 && warm > c->max_seconds ? " (one run: slow)" : "");
    fflush(stdout);
    csv_row(c, "sssp", name, n, m, label, done, med, lo, (double)m / med / 1e9, "GTEPS");
    free(t);
  }
  free(srcs);
}

/* Chung-Lu power-law digraph: expected out- and in-degree of vertex i
 * proportional to (i+1)^(-1/(gamma-1)), average degree avg. */
static gsp_matrix powerlaw(gsp_type t, gsp_index n, double avg, double gamma, uint64_t seed) {
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
    I[k] = e[0], J[k] = e[1], W[k] = (double)(1 + rng(&st) % 255), k++;
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
  printf("| %-11s | %9s | %10s | %-16s | %9s | %9s | %8s | %-9s |\n", "graph", "vertices", "arcs", "call",
         "median ms", "min ms", "GTEPS", "result");
  printf("|-------------|-----------|------------|------------------|-----------|-----------|----------|-----------|\n");
  const int scales[] = {13, 15, 18}; /* |V| 8192 .. 262144, as Tastan et al.'s 6301 .. 265214 */
  for (int si = 0; si < 3; si++) {
    const int scale = scales[si];
    if (scale > c->scale && si > 0) break;
    for (int cyc = 0; cyc < 2; cyc++) {
      gsp_matrix A = bf_graph(c, scale, cyc);
      gsp_index n, m, nsrc;
      TRY(gsp_matrix_nrows(&n, A));
      TRY(gsp_matrix_nvals(&m, A));
      gsp_index *srcs = out_degree_vertices(A, &nsrc);
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
                           : res == GSP_NO_VALUE                                      ? "no cycle"
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

static double time_once(gsp_info (*fn)(void *), void *arg) {
  const double t0 = omp_get_wtime();
  TRY(fn(arg));
  return omp_get_wtime() - t0;
}

typedef struct {
  gsp_matrix A;
  const config *c;
} apsp_arg;

static gsp_info run_msssp(void *p) {
  apsp_arg *a = p;
  gsp_matrix D = NULL;
  gsp_msssp_opts o = {.backend = a->c->backend};
  gsp_info info = gsp_msssp(&D, NULL, a->A, NULL, 0, &o);
  gsp_matrix_free(&D);
  return info;
}

static gsp_info run_fw(void *p) {
  apsp_arg *a = p;
  gsp_matrix C = NULL;
  gsp_info info = gsp_matrix_dup(&C, a->A);
  if (info < 0) return info;
  gsp_closure_opts o = {.backend = a->c->backend};
  info = gsp_closure_ext(C, NULL, GSP_MIN_PLUS, &o);
  gsp_index nv;
  if (info >= 0) info = gsp_matrix_nvals(&nv, C); /* results left on the device come back */
  gsp_matrix_free(&C);
  return info;
}

/* Median of reps timed runs after a warm-up (one run when slow). */
static double timed(const config *c, gsp_info (*fn)(void *), void *arg, int *runs, double *lo) {
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

static void bench_apsp(const config *c) {
  const gsp_index n = c->apsp_n;
  printf("\nAll-pairs, |V| = %llu: gsp_msssp (all sources) vs Floyd-Warshall (gsp_closure)\n",
         (unsigned long long)n);
  printf("| %-9s | %10s | %12s | %12s | %12s | %8s |\n", "topology", "arcs", "msssp ms", "FW ms", "FW tasks/s",
         "FW/msssp");
  printf("|-----------|------------|--------------|--------------|--------------|----------|\n");
  const char *names[] = {"random", "power-law", "ring", "complete"};
  for (int k = 0; k < 4; k++) {
    gsp_matrix A = NULL;
    switch (k) {
    case 0: TRY(gsp_generate_random(&A, c->type, n, n * 16, 1, 255, 7)); break;
    case 1: A = powerlaw(c->type, n, 16, 2.3, 7); break;
    case 2: TRY(gsp_generate_ring(&A, c->type, n, true, 1, 255, 7)); break;
    default: TRY(gsp_generate_complete(&A, c->type, n, 1, 255, 7)); break;
    }
    gsp_index m;
    TRY(gsp_matrix_nvals(&m, A));
    apsp_arg a = {A, c};
    int runs_m = 0, runs_f = 0;
    double lo_m = 0, lo_f = 0, fw = NAN;
    const double ms = timed(c, run_msssp, &a, &runs_m, &lo_m);
    if (!c->skip_fw) fw = timed(c, run_fw, &a, &runs_f, &lo_f);
    const double tasks = (double)n * (double)n * (double)n;
    printf("| %-9s | %10llu | %12.1f | %12.1f | %12.3g | %8.2f |\n", names[k], (unsigned long long)m, ms * 1e3,
           fw * 1e3, tasks / fw, fw / ms);
    fflush(stdout);
    csv_row(c, "apsp", names[k], n, m, "msssp", runs_m, ms, lo_m, (double)n * (double)m / ms, "arc-relaxations/s");
    if (!c->skip_fw) csv_row(c, "apsp", names[k], n, m, "fw", runs_f, fw, lo_f, tasks / fw, "tasks/s");
    gsp_matrix_free(&A);
  }
}

int main(int argc, char **argv) {
  config c = {.backend = GSP_BACKEND_AUTO, .type = GSP_INT32, .scale = 21, .edgefactor = 16, .reps = 5,
              .grid = 4096, .apsp_n = 4677, .max_seconds = 30};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
    if (!strcmp(a, "--backend")) {
      c.backend = !strcmp(v, "cpu") ? GSP_BACKEND_CPU : !strcmp(v, "cuda") ? GSP_BACKEND_CUDA : GSP_BACKEND_AUTO;
      i++;
    } else if (!strcmp(a, "--type")) {
      c.type = !strcmp(v, "int64") ? GSP_INT64 : !strcmp(v, "fp32") ? GSP_FP32 : !strcmp(v, "fp64") ? GSP_FP64 : GSP_INT32;
      i++;
    } else if (!strcmp(a, "--scale")) c.scale = atoi(v), i++;
    else if (!strcmp(a, "--edgefactor")) c.edgefactor = atoi(v), i++;
    else if (!strcmp(a, "--grid")) c.grid = (gsp_index)atoll(v), i++;
    else if (!strcmp(a, "--apsp-n")) c.apsp_n = (gsp_index)atoll(v), i++;
    else if (!strcmp(a, "--reps")) c.reps = atoi(v) > 0 ? atoi(v) : 1, i++;
    else if (!strcmp(a, "--max-seconds")) c.max_seconds = atof(v), i++;
    else if (!strcmp(a, "--csv")) c.csv = v, i++;
    else if (!strcmp(a, "--algos")) c.algos = v, i++;
    else if (!strcmp(a, "--skip-sssp")) c.skip_sssp = true;
    else if (!strcmp(a, "--skip-apsp")) c.skip_apsp = true;
    else if (!strcmp(a, "--skip-fw")) c.skip_fw = true;
    else if (!strcmp(a, "--skip-bf")) c.skip_bf = true;
    else if (!strcmp(a, "--quick")) c.scale = 14, c.grid = 256, c.apsp_n = 300, c.reps = 3;
    else {
      fprintf(stderr, "usage: %s [--backend cpu|cuda|auto] [--type T] [--scale S] [--edgefactor E] [--grid R]\n"
                      "       [--apsp-n N] [--reps K] [--algos harish,da2cf,delta,auto] [--max-seconds T]\n"
                      "       [--skip-sssp] [--skip-apsp] [--skip-fw] [--skip-bf] [--quick] [--csv FILE]\n", argv[0]);
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
  else
    snprintf(c.device, sizeof c.device, "%s", desc);
  printf("gsp shortest-path benchmark: backend %s, device %s, weights %s in [1, 255], median of %d\n",
         backend_name(c.backend), c.device, type_name(c.type), c.reps);

  if (!c.skip_sssp) {
    printf("\nSingle source (GTEPS = arcs / time; sources with out-arcs, chosen at random)\n");
    printf("| %-10s | %9s | %10s | %-14s | %9s | %9s | %8s | %9s |\n", "graph", "vertices", "arcs", "algorithm",
           "median ms", "min ms", "GTEPS", "reached");
    printf("|------------|-----------|------------|----------------|-----------|-----------|----------|-----------|\n");
    gsp_matrix A = NULL;
    char name[32];
    TRY(gsp_generate_rmat(&A, c.type, c.scale, (gsp_index)c.edgefactor, 0, 0, 0, 1, 255, 1));
    snprintf(name, sizeof name, "rmat-%d", c.scale);
    bench_sssp_graph(&c, name, A);
    gsp_matrix_free(&A);
    TRY(gsp_generate_grid(&A, c.type, c.grid, c.grid, 1, 255, 1));
    snprintf(name, sizeof name, "grid-%llu", (unsigned long long)c.grid);
    bench_sssp_graph(&c, name, A);
    gsp_matrix_free(&A);
  }
  if (!c.skip_apsp) bench_apsp(&c);
  if (!c.skip_bf) bench_bf(&c);
  return 0;
}
