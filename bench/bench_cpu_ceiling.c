/*
 * CPU ceiling probe: the inner loop of the CPU closure measured alone, per
 * type (min-plus), the CPU counterpart of the GPU micro-kernel ceiling.
 * The loop is the library's own phase-3 tile product (gsp__fw_tiles
 * .product: register-tiled, src/ops/closure/closure_cpu_fw_tile.h) of the
 * instruction set in use, run over and over on one cache-resident set of
 * GSP_FW_TILE^2 tiles per thread (B, the operand every register block
 * reads, stays in L1 for fp32 and int32), so no memory traffic, barrier or
 * diagonal phase is counted: what the closure could reach if phase 3 were
 * all there is. A task is one (i, k, j) update, 64^3 per call.
 *
 *   bench_cpu_ceiling [-t fp32,fp64,int32,int64] [-i isa] [-s seconds]
 *                     [--csv file]
 *
 * -i portable|avx2|avx512 forces an instruction set (default: the
 * library's choice). Prints tasks/s on one thread and on every thread of
 * gsp_get_threads (each its own tiles), the median of 5 timed runs, by the
 * wall clock and by the threads' CPU time (tasks/cpu-s: the rate of the
 * cores while they ran the probe; the two agree on an idle machine).
 */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "closure_cpu.h"
#include "gsp.h"

static const struct {
  const char *name;
  gsp_type type;
} kinds[] = {{"fp32", GSP_FP32}, {"fp64", GSP_FP64}, {"int32", GSP_INT32}, {"int64", GSP_INT64}};

/* Small non-negative weights: the fast form of every type (no negative a). */
static void fill(void *x, gsp_type t, size_t count, unsigned seed) {
  for (size_t q = 0; q < count; q++) {
    const unsigned v = 1u + (unsigned)((q * 2654435761u + seed) >> 7) % 100u;
    switch (t) {
    case GSP_FP32:
      ((float *)x)[q] = (float)v;
      break;
    case GSP_FP64:
      ((double *)x)[q] = (double)v;
      break;
    case GSP_INT32:
      ((int32_t *)x)[q] = (int32_t)v;
      break;
    case GSP_INT64:
      ((int64_t *)x)[q] = (int64_t)v;
      break;
    default:
      break;
    }
  }
}

/* tasks/s of calls products per thread on nth threads, median of 5 runs:
 * by the wall clock (rate[0]) and by each thread's CPU time, summed over
 * the threads (rate[1]: what the cores did while they ran this, the
 * figure that holds on a machine shared with other work). */
static void rate(const gsp__fw_tiles *k, gsp_type t, int nth, long calls, double rates[2]) {
  const int64_t tb = GSP_FW_TILE;
  const size_t cells = (size_t)(tb * tb), es = k->esize;
  const double tasks = (double)calls * (double)(tb * tb * tb);
  double wall[5], cpu[5];
  for (int r = -1; r < 5; r++) {
    double t0 = 0, t1 = 0, sum = 0;
#pragma omp parallel num_threads(nth) reduction(+ : sum)
    {
      unsigned char *buf = aligned_alloc(64, 3 * cells * es);
      if (buf) {
        fill(buf, t, 3 * cells, (unsigned)omp_get_thread_num());
        void *C = buf, *A = buf + cells * es, *B = buf + 2 * cells * es;
        for (int w = 0; w < 4; w++) k->product(C, A, B, tb); /* warm the caches */
#pragma omp barrier
#pragma omp master
        t0 = bench_seconds(CLOCK_MONOTONIC);
        const double c0 = bench_seconds(CLOCK_THREAD_CPUTIME_ID);
        for (long c = 0; c < calls; c++) k->product(C, A, B, tb);
        sum += tasks / (bench_seconds(CLOCK_THREAD_CPUTIME_ID) - c0);
#pragma omp barrier
#pragma omp master
        t1 = bench_seconds(CLOCK_MONOTONIC);
        free(buf);
      }
    }
    if (r >= 0) wall[r] = (double)nth * tasks / (t1 - t0), cpu[r] = sum;
  }
  qsort(wall, 5, sizeof wall[0], bench_cmp_double);
  qsort(cpu, 5, sizeof cpu[0], bench_cmp_double);
  rates[0] = wall[2], rates[1] = cpu[2];
}

int main(int argc, char **argv) {
  const char *types = "fp32,fp64,int32,int64", *csv = NULL, *isa_name = NULL;
  double seconds = 0.3;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "-t") && a + 1 < argc) types = argv[++a];
    else if (!strcmp(argv[a], "-i") && a + 1 < argc) isa_name = argv[++a];
    else if (!strcmp(argv[a], "-s") && a + 1 < argc) seconds = atof(argv[++a]);
    else if (!strcmp(argv[a], "--csv") && a + 1 < argc) csv = argv[++a];
    else {
      fprintf(stderr, "usage: %s [-t types] [-i portable|avx2|avx512] [-s seconds] [--csv file]\n", argv[0]);
      return 2;
    }
  }
  if (isa_name) {
    int found = -1;
    for (int i = 0; i < GSP_CPU_ISA_COUNT; i++)
      if (!strcmp(isa_name, gsp__cpu_isa_name((gsp__cpu_isa_t)i))) found = i;
    if (found < 0 || gsp__cpu_isa_force((gsp__cpu_isa_t)found) != GSP_SUCCESS) {
      fprintf(stderr, "instruction set %s: not available here\n", isa_name);
      return 1;
    }
  }
  const char *isa = gsp__cpu_isa_name(gsp__cpu_isa());
  int threads = 0;
  gsp_get_threads(&threads);
  if (threads < 1) threads = 1;
  FILE *out = NULL;
  if (csv &&
      !(out = bench_csv_open(csv, "isa,type,semiring,threads,tasks_per_s,tasks_per_cpu_s,tasks_per_cpu_s_per_core")))
    return 1;

  printf("CPU ceiling: min-plus phase-3 tile product (%s), cache-resident tiles\n", isa);
  printf("%6s %8s %14s %14s %14s\n", "type", "threads", "tasks/s", "tasks/cpu-s", "per core");
  for (size_t q = 0; q < sizeof kinds / sizeof kinds[0]; q++) {
    if (!strstr(types, kinds[q].name)) continue;
    gsp__fw_tiles k;
    if (gsp__fw_tiles_get(&k, kinds[q].type, GSP_MIN_PLUS) != GSP_SUCCESS) return 1;
    /* calls for about `seconds` a run, from a one-thread estimate */
    double est[2];
    rate(&k, kinds[q].type, 1, 20, est);
    const long calls = (long)(seconds * est[0] / (double)(GSP_FW_TILE * GSP_FW_TILE * GSP_FW_TILE)) + 1;
    const int nths[2] = {1, threads};
    for (int v = 0; v < (threads > 1 ? 2 : 1); v++) {
      double r[2];
      rate(&k, kinds[q].type, nths[v], calls, r);
      printf("%6s %8d %14.4g %14.4g %14.4g\n", kinds[q].name, nths[v], r[0], r[1], r[1] / nths[v]);
      fflush(stdout);
      if (out)
        fprintf(out, "%s,%s,min_plus,%d,%.6g,%.6g,%.6g\n", isa, kinds[q].name, nths[v], r[0], r[1], r[1] / nths[v]);
    }
  }
  if (out) fclose(out);
  return 0;
}
