/*
 * The sparse star against gsp's other all-pairs algorithms on road-like
 * graphs: k x k grids (gsp_generate_grid, weights 1-9 both ways) and the
 * graph files named on the command line (the bundled Helsinki graphs,
 * Delaunay meshes written by bench/bench_star_scipy.py).
 *
 * For each graph and algorithm, gsp_apsp over all sources with a row-block
 * callback that counts the rows and keeps nothing (no n x n result is
 * built, so a 65536-vertex grid fits any machine): the sparse star (its
 * analysis, factorization and solves, all inside the call), many-source
 * relaxation, and Floyd-Warshall where n^3 fits the time budget. An
 * algorithm predicted over --max-seconds runs a subset of sources
 * (multiples of 64) and is extrapolated: t(k) - t(64) per source, plus
 * t(64) once; labeled "extrapolated". The star's rows alone (gsp_star_rows
 * on an existing factorization) and a refactorization with new weights
 * are timed too. Medians of --reps runs.
 *
 * Work: the star's solve multiply-adds (one per lane of every factor value
 * a row's solve touches, from gsp_star_report: nsources x solve_ops, plus
 * factor_ops); relaxation sources x arcs; Floyd-Warshall n^3. "pairs/s" is
 * the same unit for all: result cells a second.
 *
 * Usage: bench_star [--grids K,K,...] [--reps R] [--max-seconds T]
 *        [--type int32|int64|fp32|fp64] [--csv FILE] [--quick] [FILE...]
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part */
#define _POSIX_C_SOURCE  200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "gsp.h"

typedef struct {
  gsp_index rows;
} sink;

/* Rows are counted and dropped: the benchmark times the computation and
 * the delivery, not a result held in memory (test_star and test_apsp check
 * the values). */
static int count_rows(void *ctx, gsp_index first, gsp_index nrows, const void *dist, const int64_t *parent) {
  sink *s = ctx;
  (void)first, (void)dist, (void)parent;
  s->rows += nrows;
  return 0;
}

static double now(void) {
  return bench_seconds(CLOCK_MONOTONIC);
}

static int cmp(const void *a, const void *b) {
  return bench_cmp_double(a, b);
}

/* Median seconds of reps runs of gsp_apsp(algo) over sources 0..ns-1;
 * *pred = its predicted seconds for all n sources. -1 on error. */
static double run_apsp(gsp_matrix A, gsp_apsp_algo algo, gsp_index ns, int reps, double *pred, gsp_apsp_algo *ran) {
  gsp_index n = 0;
  gsp_matrix_nrows(&n, A);
  gsp_index *src = malloc((ns > 0 ? ns : 1) * sizeof *src);
  for (gsp_index k = 0; k < ns; k++) src[k] = k * (n / ns);
  double t[16];
  for (int r = 0; r < reps; r++) {
    sink s = {0};
    gsp_apsp_report rep;
    gsp_apsp_advanced adv = {.rows = count_rows, .rows_ctx = &s, .report = &rep};
    gsp_apsp_opts o = {.algo = algo, .backend = GSP_BACKEND_CPU, .advanced = &adv};
    if (ns < n) o.sources = src, o.nsources = ns;
    gsp_matrix D = NULL;
    const double t0 = now();
    const gsp_info info = gsp_apsp(&D, NULL, A, &o);
    t[r] = now() - t0;
    if (info != GSP_SUCCESS) {
      fprintf(stderr, "gsp_apsp: %s\n", gsp_last_error());
      free(src);
      return -1;
    }
    if (pred) *pred = rep.predicted_seconds[rep.algo] * (double)n / (double)ns;
    if (ran) *ran = rep.algo;
  }
  free(src);
  qsort(t, (size_t)reps, sizeof *t, cmp);
  return t[reps / 2];
}

static const char *algo_name(gsp_apsp_algo a) {
  return a == GSP_APSP_FLOYD_WARSHALL ? "fw"
         : a == GSP_APSP_MSSSP        ? "msssp"
         : a == GSP_APSP_JOHNSON      ? "johnson"
         : a == GSP_APSP_SPARSE_STAR  ? "star"
                                      : "auto";
}

static void bench_graph(FILE *csv, const char *name, gsp_matrix A, int reps, double max_s) {
  gsp_index n = 0, m = 0;
  gsp_matrix_nrows(&n, A);
  gsp_matrix_nvals(&m, A);
  const double cells = (double)n * (double)n;
  /* the star's own object: analysis, factorization, rows, refactorization */
  gsp_star F = NULL;
  double t0 = now();
  if (gsp_star_factor(&F, A, GSP_MIN_PLUS, NULL) != GSP_SUCCESS) {
    fprintf(stderr, "%s: %s\n", name, gsp_last_error());
    return;
  }
  const double t_factor = now() - t0;
  gsp_star_report sr;
  gsp_star_report_get(&sr, F);
  gsp_index nr = n < 4096 ? n : 4096;
  gsp_index *v = malloc(nr * sizeof *v);
  for (gsp_index k = 0; k < nr; k++) v[k] = k * (n / nr);
  gsp_matrix R = NULL;
  t0 = now();
  gsp_star_rows(&R, F, v, nr);
  const double t_rows = now() - t0;
  gsp_matrix_free(&R);
  t0 = now();
  gsp_star_refactor(F, A);
  const double t_refactor = now() - t0;
  fprintf(csv,
          "%s,%llu,%llu,star-object,,%.6f,,,%s order; %llu supernodes (widest %llu); %llu factor values; "
          "analysis %.4f s; factorization %.4f s; %llu rows %.4f s (%.3g Gop/s); refactor %.4f s\n",
          name, (unsigned long long)n, (unsigned long long)m, t_factor, sr.ordering, (unsigned long long)sr.supernodes,
          (unsigned long long)sr.max_supernode, (unsigned long long)sr.factor_values, sr.analyze_s, sr.factor_s,
          (unsigned long long)nr, t_rows, (double)nr * sr.solve_ops / t_rows * 1e-9, t_refactor);
  printf("%-22s n=%-7llu %s: analysis %.4f s, factor %.4f s, %llu rows %.4f s, refactor %.4f s\n", name,
         (unsigned long long)n, sr.ordering, sr.analyze_s, sr.factor_s, (unsigned long long)nr, t_rows, t_refactor);
  gsp_star_free(&F);
  free(v);

  const gsp_apsp_algo algos[] = {GSP_APSP_AUTO, GSP_APSP_SPARSE_STAR, GSP_APSP_MSSSP, GSP_APSP_FLOYD_WARSHALL};
  for (size_t a = 0; a < sizeof algos / sizeof *algos; a++) {
    double pred = 0;
    gsp_apsp_algo ran = algos[a];
    /* a dry guess from a subset of 64 first, then the whole or a subset */
    const gsp_index probe = n < 64 ? n : 64;
    if (algos[a] == GSP_APSP_FLOYD_WARSHALL) {
      const double fw_guess = (double)n * n * n / 2e10;
      if (fw_guess > 2 * max_s) {
        fprintf(csv, "%s,%llu,%llu,fw,,,,,skipped (predicted %.0f s)\n", name, (unsigned long long)n,
                (unsigned long long)m, fw_guess);
        continue;
      }
    }
    double t64 = run_apsp(A, algos[a], algos[a] == GSP_APSP_FLOYD_WARSHALL ? n : probe, 1, &pred, &ran);
    if (t64 < 0) continue;
    double t;
    const char *how = "measured";
    if (algos[a] == GSP_APSP_FLOYD_WARSHALL || probe == n) {
      t = run_apsp(A, algos[a], n, reps, NULL, NULL);
    } else {
      /* the time per source measured at 64, the whole run where it fits */
      const double guess = t64 * (double)n / (double)probe;
      if (guess <= max_s) {
        t = run_apsp(A, algos[a], n, reps, NULL, &ran);
      } else {
        gsp_index k = (gsp_index)(max_s / (t64 / (double)probe));
        k = k < 2 * probe ? 2 * probe : k - k % 64;
        if (k > n) k = n;
        const double tk = run_apsp(A, algos[a], k, 1, NULL, &ran);
        /* per source from the difference (the fixed part, an analysis,
         * once); where noise makes it no larger, tk / k bounds it */
        const double per = tk > t64 ? (tk - t64) / (double)(k - probe) : tk / (double)k;
        t = t64 + per * (double)(n - probe);
        how = "extrapolated";
      }
    }
    printf("%-22s %-6s (%s) %.4f s %s, %.3g G pairs/s\n", name, algo_name(algos[a]), algo_name(ran), t, how,
           cells / t * 1e-9);
    fprintf(csv, "%s,%llu,%llu,%s,%s,%.6f,%.4g,%.4g,%s\n", name, (unsigned long long)n, (unsigned long long)m,
            algo_name(algos[a]), algo_name(ran), t, cells / t * 1e-9, pred, how);
  }
  fflush(csv);
}

int main(int argc, char **argv) {
  const char *grids = "64,128,256", *csvp = "bench_star.csv";
  int reps = 3;
  double max_s = 60;
  gsp_type t = GSP_FP32;
  int nf = 0;
  const char *files[64];
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--grids") && i + 1 < argc) grids = argv[++i];
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--max-seconds") && i + 1 < argc) max_s = atof(argv[++i]);
    else if (!strcmp(argv[i], "--csv") && i + 1 < argc) csvp = argv[++i];
    else if (!strcmp(argv[i], "--quick")) grids = "32,48", reps = 1, max_s = 2;
    else if (!strcmp(argv[i], "--type") && i + 1 < argc) {
      const char *s = argv[++i];
      t = !strcmp(s, "int32") ? GSP_INT32 : !strcmp(s, "int64") ? GSP_INT64 : !strcmp(s, "fp64") ? GSP_FP64 : GSP_FP32;
    } else if (argv[i][0] != '-' && nf < 64) files[nf++] = argv[i];
    else {
      fprintf(stderr, "usage: bench_star [--grids K,K,...] [--reps R] [--max-seconds T] [--type T] [--csv FILE] "
                      "[--quick] [FILE...]\n");
      return 2;
    }
  }
  if (reps < 1) reps = 1;
  if (reps > 15) reps = 15;
  FILE *csv = bench_csv_open(csvp, "graph,n,arcs,algo,ran,seconds,gpairs_per_s,predicted_s,note");
  if (!csv) return 1;
  for (const char *p = grids; *p;) {
    const gsp_index k = (gsp_index)strtoull(p, NULL, 10);
    gsp_matrix A = NULL, G = NULL;
    if (gsp_generate_grid(&G, GSP_INT64, k, k, 1, 9, 1) == GSP_SUCCESS && gsp_matrix_cast(&A, G, t) == GSP_SUCCESS) {
      char name[64];
      snprintf(name, sizeof name, "grid-%llux%llu", (unsigned long long)k, (unsigned long long)k);
      bench_graph(csv, name, A, reps, max_s);
    }
    gsp_matrix_free(&A);
    gsp_matrix_free(&G);
    p = strchr(p, ',');
    if (!p) break;
    p++;
  }
  for (int i = 0; i < nf; i++) {
    gsp_matrix A = NULL;
    if (gsp_matrix_read(&A, files[i], NULL) != GSP_SUCCESS) {
      fprintf(stderr, "%s: %s\n", files[i], gsp_last_error());
      continue;
    }
    const char *base = strrchr(files[i], '/');
    bench_graph(csv, base ? base + 1 : files[i], A, reps, max_s);
    gsp_matrix_free(&A);
  }
  fclose(csv);
  return 0;
}
