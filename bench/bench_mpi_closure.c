/*
 * Multi-process closure benchmark (libgsp_mpi, CPU backend): tasks/s
 * (n^3 / seconds) of gsp_mpi_closure and gsp_mpi_closure_dist on K ranks.
 *
 *   mpirun -n K bench_mpi_closure [-n 2048,4096] [-t fp32|fp64|int32|int64]
 *                                 [-r repeats] [-d density] [-s seed]
 *                                 [--csv file]
 *
 * The graph: gsp_generate_random with density * n * (n-1) arcs, weights
 * 1..100, the same on every rank (deterministic from the seed).
 *  - "collective": rank 0 holds M; the time covers the whole call (the
 *    root's dense copy, dealing the tiles, the rounds, collecting them and
 *    the result matrix), as a user of the collective form sees it;
 *  - "dist": every rank brings its block (gsp_mpi_local_block, untimed); the
 *    time covers gsp_mpi_closure_dist, i.e. the rounds and the local
 *    conversions, which is what scales with the ranks;
 *  - "single" (K = 1 only): gsp_closure on the CPU backend, the baseline.
 * Median of the repeats after one warm-up, a barrier before each start.
 * Threads per rank: OMP_NUM_THREADS (or gsp's default). The checksum (entry
 * count and sum of the finite values of the collective result) must be the
 * same for every K: the results are bit-identical.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsp_mpi.h"

static int rank, size;

static void die(const char *what, gsp_info info) {
  fprintf(stderr, "rank %d: %s: %s (%s)\n", rank, what, gsp_strerror(info), gsp_last_error());
  MPI_Abort(MPI_COMM_WORLD, 1);
}
#define TRY(what, call)        \
  do {                         \
    gsp_info i_ = (call);      \
    if (i_ < 0) die(what, i_); \
  } while (0)

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static gsp_matrix make_graph(gsp_type t, int64_t n, double density, uint64_t seed) {
  gsp_matrix A = NULL;
  gsp_index m = (gsp_index)(density * (double)n * (double)(n - 1));
  TRY("generate", gsp_generate_random(&A, t, (gsp_index)n, m, 1, 100, seed));
  return A;
}

/* Entry count and the sum of the values as doubles. */
static void checksum(gsp_matrix A, gsp_index *nv, double *sum) {
  gsp_type t;
  gsp_matrix_type(&t, A);
  gsp_matrix_nvals(nv, A);
  gsp_matrix D = NULL;
  TRY("cast", gsp_matrix_cast(&D, A, GSP_FP64));
  *sum = 0;
  TRY("reduce", gsp_matrix_reduce_scalar(sum, GSP_PLUS, D));
  gsp_matrix_free(&D);
}

typedef enum { SINGLE, COLLECTIVE, DIST } form;
static const char *form_name[] = {"single", "collective", "dist"};

/* Seconds of one run of the form (collective on every rank). */
static double run_once(form f, gsp_matrix A, const gsp_mpi_layout *L, gsp_semiring s, gsp_matrix *keep) {
  gsp_matrix M = NULL;
  if (f == DIST || rank == 0) TRY("dup", gsp_matrix_dup(&M, A));
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  if (f == SINGLE) TRY("gsp_closure", gsp_closure(M, s));
  else if (f == COLLECTIVE) TRY("gsp_mpi_closure", gsp_mpi_closure(M, s, MPI_COMM_WORLD, NULL));
  else TRY("gsp_mpi_closure_dist", gsp_mpi_closure_dist(M, L, s, MPI_COMM_WORLD, NULL));
  double t = MPI_Wtime() - t0, tmax;
  MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (keep && f != DIST && rank == 0) {
    gsp_matrix_free(keep);
    *keep = M;
    M = NULL;
  }
  gsp_matrix_free(&M);
  return tmax;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *sizes = "2048,4096", *tname = "fp32", *csv = NULL;
  int repeats = 3;
  double density = 0.1;
  uint64_t seed = 42;
  for (int a = 1; a < argc; a++) {
    const char *v = a + 1 < argc ? argv[a + 1] : NULL;
    if (!strcmp(argv[a], "-n") && v) sizes = v, a++;
    else if (!strcmp(argv[a], "-t") && v) tname = v, a++;
    else if (!strcmp(argv[a], "-r") && v) repeats = atoi(v), a++;
    else if (!strcmp(argv[a], "-d") && v) density = atof(v), a++;
    else if (!strcmp(argv[a], "-s") && v) seed = strtoull(v, NULL, 10), a++;
    else if (!strcmp(argv[a], "--csv") && v) csv = v, a++;
    else {
      if (rank == 0) fprintf(stderr, "usage: mpirun -n K %s [-n N,N] [-t T] [-r R] [-d D] [-s S] [--csv F]\n", argv[0]);
      MPI_Finalize();
      return 2;
    }
  }
  gsp_type t = !strcmp(tname, "fp64")    ? GSP_FP64
               : !strcmp(tname, "int32") ? GSP_INT32
               : !strcmp(tname, "int64") ? GSP_INT64
                                         : GSP_FP32;
  if (repeats < 1) repeats = 1;
  gsp_set_backend(GSP_BACKEND_CPU);
  int threads = 0;
  gsp_get_threads(&threads);
  if (threads < 1) threads = omp_get_max_threads();
  FILE *out = NULL;
  if (rank == 0 && csv) {
    out = fopen(csv, "a");
    if (out && ftell(out) == 0)
      fprintf(out, "ranks,grid,threads_per_rank,n,type,form,median_s,tasks_per_s,nvals,sum\n");
  }
  if (rank == 0)
    printf("%5s %5s %7s %6s %5s %10s %9s %12s  %s\n", "ranks", "grid", "threads", "n", "type", "form", "median_s",
           "tasks/s", "checksum (entries, sum)");
  for (const char *p = sizes; *p;) {
    int64_t n = strtoll(p, NULL, 10);
    p = strchr(p, ',') ? strchr(p, ',') + 1 : p + strlen(p);
    gsp_matrix A = make_graph(t, n, density, seed), local = NULL, result = NULL;
    gsp_mpi_layout L;
    TRY("layout", gsp_mpi_layout_get(&L, (gsp_index)n, MPI_COMM_WORLD, NULL));
    TRY("local block", gsp_mpi_local_block(&local, A, &L));
    for (form f = size == 1 ? SINGLE : COLLECTIVE; f <= DIST; f++) {
      double *secs = malloc((size_t)repeats * sizeof *secs);
      run_once(f, f == DIST ? local : A, &L, GSP_MIN_PLUS, NULL); /* warm-up */
      for (int r = 0; r < repeats; r++) secs[r] = run_once(f, f == DIST ? local : A, &L, GSP_MIN_PLUS, &result);
      qsort(secs, (size_t)repeats, sizeof *secs, cmp_double);
      double med = repeats % 2 ? secs[repeats / 2] : 0.5 * (secs[repeats / 2 - 1] + secs[repeats / 2]);
      free(secs);
      gsp_index nv = 0;
      double sum = NAN;
      if (rank == 0 && f != DIST) checksum(result, &nv, &sum);
      double tasks = (double)n * (double)n * (double)n / med;
      if (rank == 0) {
        char grid[16];
        snprintf(grid, sizeof grid, "%dx%d", L.nprow, L.npcol);
        printf("%5d %5s %7d %6lld %5s %10s %9.3f %12.4g  ", size, grid, threads, (long long)n, tname, form_name[f], med,
               tasks);
        if (f != DIST) printf("%llu, %.17g\n", (unsigned long long)nv, sum);
        else printf("-\n");
        fflush(stdout);
        if (out)
          fprintf(out, "%d,%s,%d,%lld,%s,%s,%.6f,%.6g,%llu,%.17g\n", size, grid, threads, (long long)n, tname,
                  form_name[f], med, tasks, (unsigned long long)nv, sum);
      }
    }
    gsp_matrix_free(&result), gsp_matrix_free(&local), gsp_matrix_free(&A);
  }
  if (out) fclose(out);
  MPI_Finalize();
  return 0;
}
