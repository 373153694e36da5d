/*
 * Sparse products on the GPU: one frontier step w = u min.+ A (gsp_vxm) on
 * an R-MAT graph (default scale 21, edge factor 16, Graph500 parameters,
 * FP32 weights in [1, 255]), push vs pull vs the automatic choice at
 * several frontier fills, and PLUS_TIMES with a full u: cuSPARSE SpMV (the
 * AUTO path) against our own pull and push kernels on the same graph.
 *
 * Each call is timed whole (wall clock; every call ends with the entry-count
 * read-back): device kernels, the device write-back and the per-call
 * overhead, with A and u already on the device (warm-up calls upload them
 * and build the transpose). Median of --reps after 2 warm-ups.
 * Columns: frontier = entries of u, arcs = out-arcs of the frontier (the
 * terms of the product), GTEPS = arcs / time (useful work), and for
 * comparison graph GTEPS = all arcs / time. "pull !visited" masks the
 * output with the complement of a random visited set holding 90% of the
 * vertices (Martin's relax_U: settled rows are skipped). The CPU backend
 * (all cores) runs the same product in AUTO direction for reference.
 * Last, sparse x sparse C = A * A under PLUS_TIMES (cuSPARSE SpGEMM vs the
 * CPU backend) on a random graph of 2^(S-4) vertices, 8 arcs a row, and an
 * R-MAT graph of scale S-7, edge factor 8, in FP32 and FP64.
 *
 * Usage: bench_ops_gpu [--scale S] [--edgefactor E] [--reps K] [--csv FILE]
 *        [--quick] [--spgemm-only]
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gsp.h"

static void die(const char *what, gsp_info info) {
  fprintf(stderr, "bench_ops_gpu: %s: %s: %s\n", what, gsp_strerror(info), gsp_last_error());
  exit(1);
}
#define TRY(call)               \
  do {                          \
    gsp_info i_ = (call);       \
    if (i_ < 0) die(#call, i_); \
  } while (0)

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

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

/* Vector of size n with about fill * n entries (value x) at random places;
 * *arcs = the out-arcs of those places (rowptr of A). */
static gsp_vector frontier(gsp_type t, gsp_index n, double fill, double x, const gsp_index *rowptr, uint64_t seed,
                           double *arcs) {
  gsp_index *I = malloc((n + 1) * sizeof *I);
  void *X = malloc((n + 1) * 8);
  if (!I || !X) die("malloc", GSP_OUT_OF_MEMORY);
  gsp_index k = 0;
  double a = 0;
  uint64_t s = seed;
  const uint64_t cut = fill >= 1 ? UINT64_MAX : (uint64_t)(fill * 18446744073709551615.0);
  for (gsp_index i = 0; i < n; i++) {
    if (fill < 1 && rng(&s) > cut) continue;
    I[k] = i;
    if (t == GSP_FP32) ((float *)X)[k] = (float)x;
    else if (t == GSP_BOOL) ((bool *)X)[k] = true;
    else ((double *)X)[k] = x;
    if (rowptr) a += (double)(rowptr[i + 1] - rowptr[i]);
    k++;
  }
  gsp_vector v = NULL;
  TRY(gsp_vector_new(&v, t, n));
  TRY(gsp_vector_build(v, I, X, k, GSP_DUP_ERROR));
  free(I), free(X);
  if (arcs) *arcs = a;
  return v;
}

typedef struct {
  int reps;
  const char *csv;
  char device[256];
  gsp_index n, m;
} config;

/* Median seconds of one call. */
static double time_vxm(const config *c, gsp_vector w, gsp_vector mask, gsp_semiring s, gsp_vector u, gsp_matrix A,
                       const gsp_desc *d, int reps) {
  double t[64];
  if (reps > 64) reps = 64;
  for (int r = -2; r < reps; r++) {
    const double t0 = now();
    TRY(gsp_vxm(w, mask, GSP_NOOP, s, u, A, d));
    gsp_index nv;
    TRY(gsp_vector_nvals(&nv, w)); /* known after the call: no download */
    if (r >= 0) t[r] = now() - t0;
  }
  (void)c;
  qsort(t, (size_t)reps, sizeof *t, cmp_double);
  return t[reps / 2];
}

static void row(const config *c, const char *what, const char *dir, double fill, gsp_index nf, double arcs,
                double sec) {
  const double gteps = arcs / sec / 1e9, graph = (double)c->m / sec / 1e9;
  printf("| %-20s | %-9s | %8.4f | %9llu | %11.0f | %9.3f | %8.3f | %8.3f |\n", what, dir, fill, (unsigned long long)nf,
         arcs, sec * 1e3, gteps, graph);
  if (c->csv) {
    FILE *f = fopen(c->csv, "a");
    if (f) {
      fprintf(f, "ops_gpu,\"%s\",rmat,%llu,%llu,%s,%s,%.6f,%llu,%.0f,%.6f,%.4f,%.4f\n", c->device,
              (unsigned long long)c->n, (unsigned long long)c->m, what, dir, fill, (unsigned long long)nf, arcs,
              sec * 1e3, gteps, graph);
      fclose(f);
    }
  }
}

/* Median seconds of C = A * A (PLUS_TIMES) with descriptor d; *nnz gets
 * the entries of C. The GPU result comes back to the host each call. */
static double time_mxm(gsp_matrix A, const gsp_desc *d, int reps, gsp_index *nnz) {
  double t[64];
  if (reps > 64) reps = 64;
  gsp_index n;
  gsp_type ty;
  TRY(gsp_matrix_nrows(&n, A));
  TRY(gsp_matrix_type(&ty, A));
  for (int r = -1; r < reps; r++) {
    gsp_matrix C = NULL;
    TRY(gsp_matrix_new(&C, ty, n, n));
    const double t0 = now();
    TRY(gsp_mxm(C, NULL, GSP_NOOP, GSP_PLUS_TIMES, A, A, d));
    TRY(gsp_matrix_nvals(nnz, C));
    if (r >= 0) t[r] = now() - t0;
    gsp_matrix_free(&C);
  }
  qsort(t, (size_t)reps, sizeof *t, cmp_double);
  return t[reps / 2];
}

/* Sparse x sparse C = A * A, PLUS_TIMES: cuSPARSE SpGEMM (A resident on the
 * device after the warm-up; C downloaded into a host CSR every call) vs the
 * CPU backend's Gustavson on all cores. products = multiply-adds. */
static void spgemm_rows(const config *c, const char *graph, gsp_matrix A) {
  gsp_index n, m;
  gsp_type ty;
  TRY(gsp_matrix_nrows(&n, A));
  TRY(gsp_matrix_nvals(&m, A));
  TRY(gsp_matrix_type(&ty, A));
  gsp_index *p = malloc((n + 1) * sizeof *p), *j = malloc((m + 1) * sizeof *j);
  if (!p || !j) die("malloc", GSP_OUT_OF_MEMORY);
  TRY(gsp_matrix_export_csr(p, j, NULL, A));
  double prods = 0;
  for (gsp_index e = 0; e < m; e++) prods += (double)(p[j[e] + 1] - p[j[e]]);
  free(p), free(j);
  const gsp_desc gpu = {.backend = GSP_BACKEND_CUDA}, cpu = {.backend = GSP_BACKEND_CPU};
  const char *names[2] = {"SpGEMM cuSPARSE", "SpGEMM CPU"};
  for (int k = 0; k < 2; k++) {
    gsp_index nnz = 0;
    const double sec = time_mxm(A, k == 0 ? &gpu : &cpu, k == 0 ? c->reps : (c->reps < 3 ? c->reps : 3), &nnz);
    printf("| %-16s | %-22s | %4s | %9llu | %10llu | %12.0f | %11llu | %9.3f | %7.3f |\n", names[k], graph,
           ty == GSP_FP32 ? "fp32" : "fp64", (unsigned long long)n, (unsigned long long)m, prods,
           (unsigned long long)nnz, sec * 1e3, 2 * prods / sec / 1e9);
    if (c->csv) {
      FILE *f = fopen(c->csv, "a");
      if (f) {
        fprintf(f, "spgemm,\"%s\",%s,%s,%llu,%llu,%s,%.0f,%llu,%.6f,%.4f\n", c->device, graph,
                ty == GSP_FP32 ? "fp32" : "fp64", (unsigned long long)n, (unsigned long long)m, names[k], prods,
                (unsigned long long)nnz, sec * 1e3, 2 * prods / sec / 1e9);
        fclose(f);
      }
    }
  }
}

static void spgemm_table(const config *c, int scale) {
  printf("\nSparse x sparse C = A * A, PLUS_TIMES (host CSR result, A on the device)\n");
  printf("| %-16s | %-22s | %4s | %9s | %10s | %12s | %11s | %9s | %7s |\n", "product", "graph", "type", "n", "nnz(A)",
         "products", "nnz(C)", "ms", "GFLOPS");
  printf(
      "|------------------|------------------------|------|-----------|------------|--------------|-------------|-----------|---------|\n");
  for (int ti = 0; ti < 2 && scale >= 10; ti++) {
    const gsp_type ty = ti == 0 ? GSP_FP32 : GSP_FP64;
    gsp_matrix S = NULL;
    TRY(gsp_generate_random(&S, ty, (gsp_index)1 << (scale - 4), (gsp_index)8 << (scale - 4), 1, 9, 77));
    spgemm_rows(c, "random, 8 a row", S);
    gsp_matrix_free(&S);
    TRY(gsp_generate_rmat(&S, ty, scale - 7, 8, 0, 0, 0, 1, 9, 78));
    spgemm_rows(c, "R-MAT, edge factor 8", S);
    gsp_matrix_free(&S);
  }
}

int main(int argc, char **argv) {
  int scale = 21, ef = 16, reps = 9;
  bool spgemm_only = false;
  config c = {0};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--scale") && i + 1 < argc) scale = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--edgefactor") && i + 1 < argc) ef = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--csv") && i + 1 < argc) c.csv = argv[++i];
    else if (!strcmp(argv[i], "--quick")) scale = 14, reps = 3;
    else if (!strcmp(argv[i], "--spgemm-only")) spgemm_only = true;
    else {
      fprintf(stderr, "usage: bench_ops_gpu [--scale S] [--edgefactor E] [--reps K] [--csv FILE] [--quick] "
                      "[--spgemm-only]\n");
      return 2;
    }
  }
  c.reps = reps < 1 ? 1 : reps;
  bool ok = false;
  TRY(gsp_cuda_available(&ok, c.device, sizeof c.device));
  if (!ok) {
    printf("bench_ops_gpu: no usable GPU (%s): nothing to measure\n", c.device);
    return 0;
  }
  if (spgemm_only) {
    printf("gsp sparse x sparse products on the GPU: %s; median of %d; CPU: %d threads\n", c.device, c.reps,
           omp_get_max_threads());
    spgemm_table(&c, scale);
    return 0;
  }
  const double tg = now();
  gsp_matrix A = NULL;
  TRY(gsp_generate_rmat(&A, GSP_FP32, scale, (gsp_index)ef, 0, 0, 0, 1, 255, 2024));
  TRY(gsp_matrix_nrows(&c.n, A));
  TRY(gsp_matrix_nvals(&c.m, A));
  gsp_index *rowptr = malloc((c.n + 1) * sizeof *rowptr), *colidx = malloc((c.m + 1) * sizeof *colidx);
  if (!rowptr || !colidx) die("malloc", GSP_OUT_OF_MEMORY);
  TRY(gsp_matrix_export_csr(rowptr, colidx, NULL, A));
  free(colidx);
  printf("gsp sparse products on the GPU: %s\nR-MAT scale %d, edge factor %d: %llu vertices, %llu arcs "
         "(generated in %.1f s); median of %d after 2 warm-ups; CPU: %d threads\n\n",
         c.device, scale, ef, (unsigned long long)c.n, (unsigned long long)c.m, now() - tg, c.reps,
         omp_get_max_threads());

  gsp_vector w = NULL, wb = NULL;
  TRY(gsp_vector_new(&w, GSP_FP32, c.n));
  TRY(gsp_vector_new(&wb, GSP_BOOL, c.n));
  const gsp_desc push = {.backend = GSP_BACKEND_CUDA, .direction = GSP_DIRECTION_PUSH};
  const gsp_desc pull = {.backend = GSP_BACKEND_CUDA, .direction = GSP_DIRECTION_PULL};
  const gsp_desc autod = {.backend = GSP_BACKEND_CUDA};
  const gsp_desc cpu = {.backend = GSP_BACKEND_CPU};
  const gsp_desc pull_unvisited = {
      .backend = GSP_BACKEND_CUDA, .direction = GSP_DIRECTION_PULL, .mask_complement = true, .mask_structure = true};
  const gsp_desc push_unvisited = {
      .backend = GSP_BACKEND_CUDA, .direction = GSP_DIRECTION_PUSH, .mask_complement = true, .mask_structure = true};
  gsp_vector visited = frontier(GSP_BOOL, c.n, 0.9, 1, NULL, 99, NULL);

  printf("Frontier step w = u min.+ A (FP32): push vs pull\n");
  printf("| %-20s | %-9s | %8s | %9s | %11s | %9s | %8s | %8s |\n", "product", "direction", "fill", "frontier", "arcs",
         "ms", "GTEPS", "graph GT");
  printf(
      "|----------------------|-----------|----------|-----------|-------------|-----------|----------|----------|\n");
  const double fills[] = {1e-5, 1e-4, 1e-3, 0.01, 0.05, 0.1, 0.3, 1.0};
  for (size_t k = 0; k < sizeof fills / sizeof *fills; k++) {
    double arcs = 0;
    gsp_vector u = frontier(GSP_FP32, c.n, fills[k], 1.0, rowptr, 7 + k, &arcs);
    gsp_index nf;
    TRY(gsp_vector_nvals(&nf, u));
    row(&c, "vxm min.+", "push", fills[k], nf, arcs, time_vxm(&c, w, NULL, GSP_MIN_PLUS, u, A, &push, c.reps));
    row(&c, "vxm min.+", "pull", fills[k], nf, arcs, time_vxm(&c, w, NULL, GSP_MIN_PLUS, u, A, &pull, c.reps));
    row(&c, "vxm min.+", "auto", fills[k], nf, arcs, time_vxm(&c, w, NULL, GSP_MIN_PLUS, u, A, &autod, c.reps));
    row(&c, "vxm min.+ !visited", "push", fills[k], nf, arcs,
        time_vxm(&c, w, visited, GSP_MIN_PLUS, u, A, &push_unvisited, c.reps));
    row(&c, "vxm min.+ !visited", "pull", fills[k], nf, arcs,
        time_vxm(&c, w, visited, GSP_MIN_PLUS, u, A, &pull_unvisited, c.reps));
    row(&c, "vxm min.+ (CPU)", "auto", fills[k], nf, arcs,
        time_vxm(&c, w, NULL, GSP_MIN_PLUS, u, A, &cpu, c.reps < 3 ? c.reps : 3));
    gsp_vector_free(&u);
  }

  printf("\nBFS step w = u or.and A (bool pattern): push vs pull\n");
  gsp_matrix P = NULL;
  TRY(gsp_matrix_pattern(&P, A));
  for (size_t k = 0; k < sizeof fills / sizeof *fills; k += 2) {
    double arcs = 0;
    gsp_vector u = frontier(GSP_BOOL, c.n, fills[k], 1.0, rowptr, 70 + k, &arcs);
    gsp_index nf;
    TRY(gsp_vector_nvals(&nf, u));
    row(&c, "vxm or.and", "push", fills[k], nf, arcs, time_vxm(&c, wb, NULL, GSP_OR_AND, u, P, &push, c.reps));
    row(&c, "vxm or.and", "pull", fills[k], nf, arcs, time_vxm(&c, wb, NULL, GSP_OR_AND, u, P, &pull, c.reps));
    gsp_vector_free(&u);
  }

  printf("\nPLUS_TIMES with a full u (FP32): cuSPARSE SpMV (auto) vs our kernels\n");
  {
    double arcs = 0;
    gsp_vector u = frontier(GSP_FP32, c.n, 1.0, 0.5, rowptr, 5, &arcs);
    gsp_index nf;
    TRY(gsp_vector_nvals(&nf, u));
    row(&c, "vxm +.* cuSPARSE", "auto", 1.0, nf, arcs, time_vxm(&c, w, NULL, GSP_PLUS_TIMES, u, A, &autod, c.reps));
    row(&c, "vxm +.* own", "pull", 1.0, nf, arcs, time_vxm(&c, w, NULL, GSP_PLUS_TIMES, u, A, &pull, c.reps));
    row(&c, "vxm +.* own", "push", 1.0, nf, arcs, time_vxm(&c, w, NULL, GSP_PLUS_TIMES, u, A, &push, c.reps));
    row(&c, "vxm min.+ own", "pull", 1.0, nf, arcs, time_vxm(&c, w, NULL, GSP_MIN_PLUS, u, A, &pull, c.reps));
    gsp_vector_free(&u);
  }
  spgemm_table(&c, scale);
  free(rowptr);
  gsp_matrix_free(&A), gsp_matrix_free(&P);
  gsp_vector_free(&w), gsp_vector_free(&wb), gsp_vector_free(&visited);
  return 0;
}
