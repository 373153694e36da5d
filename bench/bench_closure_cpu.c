/*
 * CPU closure benchmark: gsp_closure(M, MIN_PLUS) with the CPU backend on
 * random directed graphs, timed as a whole call (copy, kernel, result
 * conversion), median of >= 5 repeats after one warm-up, fresh copy of the
 * input for every repeat.
 *
 *   bench_closure_cpu [-n 1024,2048] [-t fp32,fp64,int32,int64,bool]
 *                     [-r repeats] [-d density] [-s seed] [--paths]
 *                     [--csv file]
 *
 * --paths also records successors (gsp_closure_ext with succ != NULL).
 *
 * The graph is the one bench/scipy_fw.py builds for the same (n, density,
 * seed): edge (i,j), i != j, when the uniform draw u1(k) < density, weight
 * 1 + (r2(k) mod 100), with k = i*n + j and u1, r2 from splitmix64 at
 * counters 2k+1 and 2k+2. Integer weights make every type exact.
 *
 * Prints a table: n, type, median seconds, tasks/s (tasks = n^3), and a
 * checksum of the result (entry count, sum of the values as double) that
 * bench/scipy_fw.py prints too, so that the two programs can be compared.
 * The CSV also has the instruction set of the kernels and tasks/cpu-s:
 * n^3 x threads / the process's CPU seconds (median), the all-core rate
 * while the threads ran, which holds on a machine shared with other work
 * (with OMP_WAIT_POLICY=passive, so that no thread burns CPU time spinning
 * at a barrier for a peer that is not running); on an idle machine it
 * matches tasks/s.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "closure_cpu_isa.h"
#include "gsp.h"

#define GOLDEN 0x9E3779B97F4A7C15ULL

static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static void die(const char *what, gsp_info info) {
  fprintf(stderr, "%s: %s (%s)\n", what, gsp_strerror(info), gsp_last_error());
  exit(1);
}

/* The benchmark graph as tuples (weights as doubles; cast per type). */
static gsp_matrix make_graph(gsp_type t, int64_t n, double density, uint64_t seed) {
  size_t cap = (size_t)((double)n * (double)n * density * 1.2) + 64, m = 0;
  gsp_index *I = malloc(cap * sizeof *I), *J = malloc(cap * sizeof *J);
  double *W = malloc(cap * sizeof *W);
  if (!I || !J || !W) die("malloc", GSP_OUT_OF_MEMORY);
  for (int64_t i = 0; i < n; i++) {
    for (int64_t j = 0; j < n; j++) {
      uint64_t k = (uint64_t)(i * n + j);
      double u = (double)(mix64(seed + (2 * k + 1) * GOLDEN) >> 11) * 0x1.0p-53;
      if (i == j || u >= density) continue;
      if (m == cap) {
        cap *= 2;
        I = realloc(I, cap * sizeof *I);
        J = realloc(J, cap * sizeof *J);
        W = realloc(W, cap * sizeof *W);
        if (!I || !J || !W) die("realloc", GSP_OUT_OF_MEMORY);
      }
      I[m] = (gsp_index)i;
      J[m] = (gsp_index)j;
      W[m] = 1.0 + (double)(mix64(seed + (2 * k + 2) * GOLDEN) % 100);
      m++;
    }
  }
  size_t ts = gsp_type_size(t);
  char *X = malloc(m * ts + 1);
  if (!X) die("malloc", GSP_OUT_OF_MEMORY);
  for (size_t e = 0; e < m; e++) {
    switch (t) {
    case GSP_BOOL:
      ((bool *)X)[e] = true;
      break;
    case GSP_INT32:
      ((int32_t *)X)[e] = (int32_t)W[e];
      break;
    case GSP_INT64:
      ((int64_t *)X)[e] = (int64_t)W[e];
      break;
    case GSP_FP32:
      ((float *)X)[e] = (float)W[e];
      break;
    case GSP_FP64:
      ((double *)X)[e] = W[e];
      break;
    }
  }
  gsp_matrix A = NULL;
  gsp_info info = gsp_matrix_new(&A, t, (gsp_index)n, (gsp_index)n);
  if (info == GSP_SUCCESS) info = gsp_matrix_build(A, I, J, X, (gsp_index)m, GSP_DUP_ERROR);
  if (info != GSP_SUCCESS) die("building the graph", info);
  free(I);
  free(J);
  free(W);
  free(X);
  return A;
}

/* Entry count and sum of the values of A (as double). */
static void checksum(gsp_matrix A, gsp_type t, gsp_index *count, double *sum) {
  gsp_index nv = 0;
  gsp_info info = gsp_matrix_nvals(&nv, A);
  if (info != GSP_SUCCESS) die("gsp_matrix_nvals", info);
  size_t ts = gsp_type_size(t);
  char *X = malloc(nv * ts + 1);
  if (!X) die("malloc", GSP_OUT_OF_MEMORY);
  info = gsp_matrix_extract_tuples(NULL, NULL, X, &nv, A);
  if (info != GSP_SUCCESS) die("gsp_matrix_extract_tuples", info);
  double s = 0;
  for (gsp_index k = 0; k < nv; k++) {
    switch (t) {
    case GSP_BOOL:
      s += ((bool *)X)[k];
      break;
    case GSP_INT32:
      s += ((int32_t *)X)[k];
      break;
    case GSP_INT64:
      s += (double)((int64_t *)X)[k];
      break;
    case GSP_FP32:
      s += ((float *)X)[k];
      break;
    case GSP_FP64:
      s += ((double *)X)[k];
      break;
    }
  }
  free(X);
  *count = nv;
  *sum = s;
}

static const struct {
  const char *name;
  gsp_type type;
  gsp_semiring sr;
} kinds[] = {{"bool", GSP_BOOL, GSP_OR_AND},
             {"int32", GSP_INT32, GSP_MIN_PLUS},
             {"int64", GSP_INT64, GSP_MIN_PLUS},
             {"fp32", GSP_FP32, GSP_MIN_PLUS},
             {"fp64", GSP_FP64, GSP_MIN_PLUS}};

int main(int argc, char **argv) {
  const char *sizes = "1024,2048", *types = "fp32", *csv = NULL;
  int reps = 5;
  bool paths = false;
  double density = 0.1;
  uint64_t seed = 42;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "-n") && a + 1 < argc) sizes = argv[++a];
    else if (!strcmp(argv[a], "-t") && a + 1 < argc) types = argv[++a];
    else if (!strcmp(argv[a], "-r") && a + 1 < argc) reps = atoi(argv[++a]);
    else if (!strcmp(argv[a], "-d") && a + 1 < argc) density = atof(argv[++a]);
    else if (!strcmp(argv[a], "-s") && a + 1 < argc) seed = strtoull(argv[++a], NULL, 10);
    else if (!strcmp(argv[a], "--csv") && a + 1 < argc) csv = argv[++a];
    else if (!strcmp(argv[a], "--paths")) paths = true;
    else {
      fprintf(stderr, "usage: %s [-n sizes] [-t types] [-r reps] [-d density] [-s seed] [--paths] [--csv file]\n",
              argv[0]);
      return 2;
    }
  }
  if (reps < 5) reps = 5;
  FILE *out = NULL;
  if (csv && !(out = bench_csv_open(
                   csv, "impl,n,type,density,seed,threads,reps,median_s,min_s,tasks_per_s,finite,sum_finite,isa,"
                        "tasks_per_cpu_s")))
    return 1;

  int threads = 0;
  gsp_get_threads(&threads);
  gsp_set_backend(GSP_BACKEND_CPU);
  printf("gsp CPU closure (MIN_PLUS; OR_AND for bool)%s, %d threads, density %.3g, seed %llu\n",
         paths ? " with successors" : "", threads, density, (unsigned long long)seed);
  const char *isa = gsp__cpu_isa_name(gsp__cpu_isa());
  printf("kernels: %s\n", isa);
  printf("%7s %6s %12s %12s %14s %14s %10s %16s\n", "n", "type", "median_s", "min_s", "tasks/s", "tasks/cpu-s",
         "finite", "sum_finite");
  char *slist = strdup(sizes);
  for (char *ns = strtok(slist, ","); ns; ns = strtok(NULL, ",")) {
    int64_t n = atoll(ns);
    for (size_t q = 0; q < sizeof kinds / sizeof kinds[0]; q++) {
      if (!strstr(types, kinds[q].name)) continue;
      gsp_matrix G = make_graph(kinds[q].type, n, density, seed);
      double *tm = malloc((size_t)reps * sizeof *tm), *tc = malloc((size_t)reps * sizeof *tc), sum = 0;
      gsp_index count = 0;
      for (int r = -1; r < reps; r++) { /* r = -1: warm-up */
        gsp_matrix M = NULL;
        gsp_info info = gsp_matrix_dup(&M, G);
        if (info != GSP_SUCCESS) die("gsp_matrix_dup", info);
        double t0 = bench_seconds(CLOCK_MONOTONIC), c0 = bench_seconds(CLOCK_PROCESS_CPUTIME_ID);
        gsp_matrix S = NULL;
        info = gsp_closure_ext(M, paths ? &S : NULL, kinds[q].sr, NULL);
        double t1 = bench_seconds(CLOCK_MONOTONIC), c1 = bench_seconds(CLOCK_PROCESS_CPUTIME_ID);
        gsp_matrix_free(&S);
        if (info != GSP_SUCCESS) die("gsp_closure", info);
        if (r >= 0) tm[r] = t1 - t0, tc[r] = c1 - c0;
        if (r == reps - 1) checksum(M, kinds[q].type, &count, &sum);
        gsp_matrix_free(&M);
      }
      qsort(tm, (size_t)reps, sizeof *tm, bench_cmp_double);
      qsort(tc, (size_t)reps, sizeof *tc, bench_cmp_double);
      double med = tm[reps / 2], tasks = (double)n * (double)n * (double)n;
      const double cpu_rate = tasks * (threads > 0 ? threads : 1) / tc[reps / 2];
      printf("%7lld %6s %12.4f %12.4f %14.4g %14.4g %10llu %16.1f\n", (long long)n, kinds[q].name, med, tm[0],
             tasks / med, cpu_rate, (unsigned long long)count, sum);
      fflush(stdout);
      if (out)
        fprintf(out, "%s,%lld,%s,%g,%llu,%d,%d,%.6f,%.6f,%.6g,%llu,%.1f,%s,%.6g\n", paths ? "gsp_paths" : "gsp",
                (long long)n, kinds[q].name, density, (unsigned long long)seed, threads, reps, med, tm[0], tasks / med,
                (unsigned long long)count, sum, isa, cpu_rate);
      free(tm);
      free(tc);
      gsp_matrix_free(&G);
    }
  }
  free(slist);
  if (out) fclose(out);
  return 0;
}
