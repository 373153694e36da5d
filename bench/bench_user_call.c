/*
 * The call as a user makes it: a matrix in host memory in, the result in
 * host memory out, through the public API only. Each row times every phase
 * (build or pack the input, the closure call, export or unpack the result)
 * and their sum, median of --reps runs on fresh random inputs.
 *
 *   bench_user_call [--backend auto|cpu|cuda] [--quick] [--reps R] [--csv FILE]
 *                   [--rows LIST] [--npy-dir DIR]
 *
 * Rows (n shrinks with --quick, for the CPU backend and a smoke run):
 *   fp32 dense   pack_dense -> closure(MIN_PLUS) -> unpack_dense
 *   fp32 CSR     pack_csr (complete graph; zero-copy: the arrays become the
 *                matrix's, as pack_dense's do) -> closure -> export_dense
 *   fp32 succ    pack_dense -> closure_ext(succ) -> unpack_dense x 2
 *   int32 dense  pack_dense -> closure(MIN_PLUS) -> unpack_dense
 *   bool dense   pack_dense (bytes) -> closure(OR_AND) -> unpack_dense
 *   bool CSR     import_csr (8 arcs a row) -> closure(OR_AND) -> export_dense
 *   generate     gsp_generate_complete (fp32)
 *   apsp         gsp_generate_random (int32, 4 arcs a vertex) -> gsp_apsp
 *   msssp        the same graph -> gsp_msssp (all sources): gsp_apsp's bound
 *   apsp + .npy  8 arcs a vertex -> gsp_apsp -> gsp_matrix_write(.npy)
 * The kernel-only time of the same closures: on the CPU backend measured
 * here (the closure alone on the row's input as a packed dense matrix,
 * column kernel_s); on the GPU bench_closure_gpu --user's (device-resident
 * inputs), which bench/run.sh runs in the same call.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "gsp.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

typedef enum {
  ROW_F32_DENSE,
  ROW_F32_CSR,
  ROW_F32_SUCC,
  ROW_I32_DENSE,
  ROW_BOOL_DENSE,
  ROW_BOOL_CSR,
  ROW_GENERATE,
  ROW_APSP,
  ROW_MSSSP,
  ROW_APSP_NPY
} row_kind;
static const char *const row_name[] = {"fp32 dense in/out",      "fp32 CSR in, dense out",  "fp32 + succ, dense in/out",
                                       "int32 dense in/out",     "bool dense bytes in/out", "bool CSR in, bytes out",
                                       "generate_complete fp32", "gsp_apsp random int32",   "gsp_msssp same graph",
                                       "gsp_apsp + write .npy"};

static const char *npy_dir = "/tmp"; /* --npy-dir: where the .npy row writes */

typedef struct {
  double in, call, out;
} phases;

/* Dense weights 1..1000 with a fraction of absent entries (inf / INT32_MAX /
 * false): the closure then has work to do on every row. */
static void *dense_input(gsp_type t, int64_t n) {
  const size_t nn = (size_t)n * (size_t)n;
  void *x = malloc(nn * (t == GSP_BOOL ? 1 : 4));
  if (!x) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  /* written by every thread, as the library's arrays are: from one writer
   * the pages all lay on one memory node, and the call on them measured up
   * to 28% slower than the same closure on a copy (16-core host) */
  const uint64_t seed = rnd();
#pragma omp parallel for schedule(static)
  for (size_t k = 0; k < nn; k++) {
    uint64_t r = seed + 0x9E3779B97F4A7C15ull * (k + 1); /* splitmix64 of k */
    r = (r ^ (r >> 30)) * 0xbf58476d1ce4e5b9ull;
    r = (r ^ (r >> 27)) * 0x94d049bb133111ebull;
    r ^= r >> 31;
    const bool present = (r & 7) == 0;
    const uint32_t w = 1 + (uint32_t)((r >> 8) % 1000);
    if (t == GSP_FP32) ((float *)x)[k] = present ? (float)w : INFINITY;
    else if (t == GSP_INT32) ((int32_t *)x)[k] = present ? (int32_t)w : INT32_MAX;
    else ((uint8_t *)x)[k] = (r & 63) == 0;
  }
  return x;
}

/* The absent value of the dense rows: +inf, INT32_MAX, false. */
static const void *absent_of(gsp_type t) {
  static const float finf = INFINITY;
  static const int32_t imax = INT32_MAX;
  static const bool bfalse = false;
  return t == GSP_FP32 ? (const void *)&finf : t == GSP_INT32 ? (const void *)&imax : (const void *)&bfalse;
}

/* The kernel alone for a closure row on the CPU: the row's input M as a
 * packed dense matrix (built untimed), the closure on it timed. */
static double kernel_alone(gsp_matrix M, gsp_type t, bool succ, const gsp_closure_opts *co) {
  gsp_index n;
  BENCH_CK(gsp_matrix_nrows(&n, M));
  const void *absent = absent_of(t);
  void *x = malloc((size_t)n * (size_t)n * (t == GSP_BOOL ? 1 : 4));
  if (!x) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  BENCH_CK(gsp_matrix_export_dense(x, absent, M));
  gsp_matrix K = NULL, S = NULL;
  BENCH_CK(gsp_matrix_pack_dense(&K, t, n, n, &x, absent));
  const double t0 = bench_seconds(CLOCK_MONOTONIC);
  BENCH_CK(gsp_closure_ext(K, succ ? &S : NULL, t == GSP_BOOL ? GSP_OR_AND : GSP_MIN_PLUS, co));
  const double s = bench_seconds(CLOCK_MONOTONIC) - t0;
  BENCH_CK(gsp_matrix_free(&K));
  BENCH_CK(gsp_matrix_free(&S));
  return s;
}

/* One row; *kernel (when not NULL, closure rows) the kernel alone on the
 * same input. */
static phases run_row(row_kind row, int64_t n, gsp_backend be, double *kernel) {
  phases p = {0, 0, 0};
  gsp_closure_opts co;
  memset(&co, 0, sizeof co);
  co.backend = be;
  gsp_matrix M = NULL, S = NULL;
  double t0;
  switch (row) {
  case ROW_F32_DENSE:
  case ROW_I32_DENSE:
  case ROW_BOOL_DENSE:
  case ROW_F32_SUCC: {
    const gsp_type t = row == ROW_I32_DENSE ? GSP_INT32 : row == ROW_BOOL_DENSE ? GSP_BOOL : GSP_FP32;
    void *x = dense_input(t, n);
    const void *absent = absent_of(t);
    t0 = bench_seconds(CLOCK_MONOTONIC);
    BENCH_CK(gsp_matrix_pack_dense(&M, t, n, n, &x, absent));
    p.in = bench_seconds(CLOCK_MONOTONIC) - t0;
    if (kernel) *kernel = kernel_alone(M, t, row == ROW_F32_SUCC, &co);
    t0 = bench_seconds(CLOCK_MONOTONIC);
    BENCH_CK(gsp_closure_ext(M, row == ROW_F32_SUCC ? &S : NULL, t == GSP_BOOL ? GSP_OR_AND : GSP_MIN_PLUS, &co));
    p.call = bench_seconds(CLOCK_MONOTONIC) - t0;
    t0 = bench_seconds(CLOCK_MONOTONIC);
    void *y = NULL, *s = NULL;
    BENCH_CK(gsp_matrix_unpack_dense(&y, absent, &M));
    if (S) {
      const int64_t none = -1;
      BENCH_CK(gsp_matrix_unpack_dense(&s, &none, &S));
    }
    p.out = bench_seconds(CLOCK_MONOTONIC) - t0;
    free(y);
    free(s);
    break;
  }
  case ROW_F32_CSR:
  case ROW_BOOL_CSR: {
    const bool bits = row == ROW_BOOL_CSR;
    const int64_t deg = bits ? 8 : n - 1;
    gsp_index *rp = malloc(sizeof *rp * (size_t)(n + 1));
    gsp_index *cj = malloc(sizeof *cj * (size_t)(n * deg));
    float *w = bits ? NULL : malloc(sizeof *w * (size_t)(n * deg));
    if (!rp || !cj || (!bits && !w)) {
      fprintf(stderr, "out of memory\n");
      exit(1);
    }
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
      rp[i] = (gsp_index)k;
      if (bits) {
        /* 8 distinct columns a row, sorted: strided from a random start */
        const int64_t step = n / 8, start = (int64_t)(rnd() % (uint64_t)step);
        for (int64_t d = 0; d < 8; d++) cj[k++] = (gsp_index)(start + d * step);
      } else {
        for (int64_t j = 0; j < n; j++)
          if (j != i) {
            cj[k] = (gsp_index)j;
            w[k++] = (float)(1 + rnd() % 1000);
          }
      }
    }
    rp[n] = (gsp_index)k;
    /* fp32: the user's arrays handed over (import_csr would copy 3.2 GB at
     * n = 16384, about 0.19 s on 16 cores); bool: imported (pack_csr takes
     * no all-true NULL values; 8 arcs a row cost nothing to copy) */
    t0 = bench_seconds(CLOCK_MONOTONIC);
    if (bits) BENCH_CK(gsp_matrix_import_csr(&M, GSP_BOOL, n, n, rp, cj, NULL));
    else BENCH_CK(gsp_matrix_pack_csr(&M, GSP_FP32, n, n, &rp, &cj, (void **)&w));
    p.in = bench_seconds(CLOCK_MONOTONIC) - t0;
    free(rp);
    free(cj);
    free(w);
    if (kernel) *kernel = kernel_alone(M, bits ? GSP_BOOL : GSP_FP32, false, &co);
    t0 = bench_seconds(CLOCK_MONOTONIC);
    BENCH_CK(gsp_closure_ext(M, NULL, bits ? GSP_OR_AND : GSP_MIN_PLUS, &co));
    p.call = bench_seconds(CLOCK_MONOTONIC) - t0;
    void *y = malloc((size_t)n * (size_t)n * (bits ? 1 : 4));
    if (!y) {
      fprintf(stderr, "out of memory\n");
      exit(1);
    }
    t0 = bench_seconds(CLOCK_MONOTONIC);
    BENCH_CK(gsp_matrix_export_dense(y, absent_of(bits ? GSP_BOOL : GSP_FP32), M));
    p.out = bench_seconds(CLOCK_MONOTONIC) - t0;
    free(y);
    BENCH_CK(gsp_matrix_free(&M));
    break;
  }
  case ROW_APSP:
  case ROW_MSSSP:
  case ROW_APSP_NPY: {
    /* all pairs of a random graph, 4 (8 for the .npy row) arcs a vertex,
     * weights 1..4096, int32: gsp apsp's rows, as a library call */
    const int64_t m = row == ROW_APSP_NPY ? 8 * n : 4 * n;
    gsp_matrix A = NULL;
    t0 = bench_seconds(CLOCK_MONOTONIC);
    BENCH_CK(gsp_generate_random(&A, GSP_INT32, n, m, 1, 4096, 1));
    p.in = bench_seconds(CLOCK_MONOTONIC) - t0;
    t0 = bench_seconds(CLOCK_MONOTONIC);
    if (row == ROW_MSSSP) {
      /* every vertex a source, listed (gsp_msssp takes no implicit all) */
      gsp_index *src = malloc(sizeof *src * (size_t)(n > 0 ? n : 1));
      if (!src) {
        fprintf(stderr, "out of memory\n");
        exit(1);
      }
      for (int64_t v = 0; v < n; v++) src[v] = (gsp_index)v;
      gsp_msssp_opts mo;
      memset(&mo, 0, sizeof mo);
      mo.backend = be;
      BENCH_CK(gsp_msssp(&M, NULL, A, src, (gsp_index)n, &mo));
      free(src);
    } else {
      gsp_apsp_opts ao;
      memset(&ao, 0, sizeof ao);
      ao.backend = be;
      BENCH_CK(gsp_apsp(&M, NULL, A, &ao));
    }
    p.call = bench_seconds(CLOCK_MONOTONIC) - t0;
    if (row == ROW_APSP_NPY) {
      char path[4096];
      snprintf(path, sizeof path, "%s/bench_user_call.npy", npy_dir);
      t0 = bench_seconds(CLOCK_MONOTONIC);
      BENCH_CK(gsp_matrix_write(path, M, NULL));
      p.out = bench_seconds(CLOCK_MONOTONIC) - t0;
      remove(path);
    }
    t0 = bench_seconds(CLOCK_MONOTONIC);
    BENCH_CK(gsp_matrix_free(&M));
    BENCH_CK(gsp_matrix_free(&A));
    if (row != ROW_APSP_NPY) p.out = bench_seconds(CLOCK_MONOTONIC) - t0;
    break;
  }
  case ROW_GENERATE:
    t0 = bench_seconds(CLOCK_MONOTONIC);
    BENCH_CK(gsp_generate_complete(&M, GSP_FP32, n, 1, 1000, rnd()));
    p.call = bench_seconds(CLOCK_MONOTONIC) - t0;
    BENCH_CK(gsp_matrix_free(&M));
    break;
  }
  return p;
}

int main(int argc, char **argv) {
  gsp_backend be = GSP_BACKEND_AUTO;
  bool quick = false;
  int reps = 3;
  const char *csv = NULL, *only = NULL; /* --rows: a comma list of row numbers (0-based) */
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--quick")) quick = true;
    else if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--csv") && a + 1 < argc) csv = argv[++a];
    else if (!strcmp(argv[a], "--npy-dir") && a + 1 < argc) npy_dir = argv[++a];
    else if (!strcmp(argv[a], "--rows") && a + 1 < argc) only = argv[++a];
    else if (!strcmp(argv[a], "--backend") && a + 1 < argc) {
      const char *b = argv[++a];
      be = !strcmp(b, "cpu") ? GSP_BACKEND_CPU : !strcmp(b, "cuda") ? GSP_BACKEND_CUDA : GSP_BACKEND_AUTO;
    } else {
      fprintf(stderr,
              "usage: %s [--backend auto|cpu|cuda] [--quick] [--reps R] [--csv FILE] [--rows LIST] "
              "[--npy-dir DIR]\n",
              argv[0]);
      return 2;
    }
  }
  if (reps < 1) reps = 1;
  /* the rows; --quick (or the CPU backend) divides n */
  const struct {
    row_kind row;
    int64_t n;
    double target_s;
  } rows[] = {{ROW_F32_DENSE, 4096, 0.025}, {ROW_F32_DENSE, 8192, 0.09},   {ROW_F32_DENSE, 16384, 0.50},
              {ROW_F32_DENSE, 32768, 3.3},  {ROW_F32_CSR, 16384, 0.60},    {ROW_F32_SUCC, 16384, 0.65},
              {ROW_I32_DENSE, 16384, 0.45}, {ROW_BOOL_DENSE, 32768, 0.25}, {ROW_BOOL_CSR, 32768, 0.15},
              {ROW_GENERATE, 16384, 1.0},   {ROW_APSP, 65536, 2.4},        {ROW_MSSSP, 65536, 2.4},
              {ROW_APSP_NPY, 30000, 7.0}};
  const int64_t shrink = quick ? 16 : be == GSP_BACKEND_CPU ? 8 : 1;
  FILE *out = csv ? fopen(csv, "w") : NULL;
  if (csv && !out) {
    perror(csv);
    return 1;
  }
  if (out) fprintf(out, "row,n,backend,in_s,call_s,out_s,total_s,target_s,kernel_s\n");
  printf("%-28s %6s %9s %9s %9s %9s %8s %9s\n", "host in -> host out", "n", "in s", "call s", "out s", "total s",
         "target", "kernel s");
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    if (only) { /* is r in the list? */
      bool in = false;
      for (const char *q = only; *q; q++)
        if ((q == only || q[-1] == ',') && strtoul(q, NULL, 10) == r) in = true;
      if (!in) continue;
    }
    const int64_t n = rows[r].n / shrink;
    run_row(rows[r].row, n < 256 ? n : 256, be, NULL); /* warm-up: device start, thread pool */
    double in[16], call[16], outt[16], tot[16], kern[16];
    const int R = reps < 16 ? reps : 16;
    /* the CPU kernel alone (on the GPU, bench_closure_gpu --user has it) */
    const bool cpu_kernel = be == GSP_BACKEND_CPU && rows[r].row <= ROW_BOOL_CSR;
    for (int k = 0; k < R; k++) {
      kern[k] = NAN;
      const phases p = run_row(rows[r].row, n, be, cpu_kernel ? &kern[k] : NULL);
      in[k] = p.in, call[k] = p.call, outt[k] = p.out, tot[k] = p.in + p.call + p.out;
    }
    qsort(kern, (size_t)R, sizeof(double), bench_cmp_double);
    qsort(in, (size_t)R, sizeof(double), bench_cmp_double);
    qsort(call, (size_t)R, sizeof(double), bench_cmp_double);
    qsort(outt, (size_t)R, sizeof(double), bench_cmp_double);
    qsort(tot, (size_t)R, sizeof(double), bench_cmp_double);
    const int m = R / 2;
    printf("%-28s %6lld %9.4f %9.4f %9.4f %9.4f %8s %9.4f\n", row_name[rows[r].row], (long long)n, in[m], call[m],
           outt[m], tot[m], shrink == 1 ? "" : "-", kern[m]);
    if (shrink == 1) printf("%-28s %6s %9s %9s %9s %9s %8.3f\n", "", "", "", "", "", "", rows[r].target_s);
    if (out)
      fprintf(out, "\"%s\",%lld,%s,%.6f,%.6f,%.6f,%.6f,%.3f,%.6f\n", row_name[rows[r].row], (long long)n,
              be == GSP_BACKEND_CPU    ? "cpu"
              : be == GSP_BACKEND_CUDA ? "cuda"
                                       : "auto",
              in[m], call[m], outt[m], tot[m], shrink == 1 ? rows[r].target_s : NAN, kern[m]);
    fflush(stdout);
  }
  if (out) fclose(out);
  return 0;
}
