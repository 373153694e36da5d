/*
 * The cost model behind GSP_APSP_AUTO (docs/apsp.md): predicted seconds of
 * Floyd-Warshall, multi-source relaxation, Johnson and the sparse star from
 * the graph's shape and where each would run. Every constant is here, with where it
 * was measured. Calibrate them from the rows of bench/bench_apsp (see
 * docs/apsp.md, "Calibration"): the model only needs to rank the three
 * algorithms, so the ratios between the rates matter more than each rate.
 */
#include <math.h>

#include "apsp.h"
#include "cpu_isa.h"

/* ---- Floyd-Warshall on the GPU (H100, int32 / fp32; docs/performance.md
 * "GPU closure" and "The call as a user makes it")
 * t = n^3 / rate + rounds * round_s + n^2 * host_cell_s, rounds = n / 128.
 * Rate and round cost: the kernel rows n = 2048 / 4096 / 16384 (about
 * 2.0 ms / 6.7 ms / 0.353 s): 1.3e13 tasks/s and 80 us a round. 8-byte
 * types at 16384 (closure_gpu_types_nvidia-h100.csv): fp64 2.85e12, int64
 * 1.4e12.
 * host_cell_s: gsp_apsp FLOYD_WARSHALL on Okuyama's sparse 4677-vertex
 * graphs, host in and out, 16-19 ms against ~10 ms of kernel (bench_sssp
 * all-pairs rows); the dense user-call rows at 16384 add 0.27-0.31 ns a
 * cell. Successors: fp32 16384 with successors 0.532 s against 0.381 s of
 * call (x1.4; bench_user_call). */
#define FW_GPU_RATE_4B   1.3e13
#define FW_GPU_RATE_FP64 2.8e12
#define FW_GPU_RATE_I64  1.4e12
/* INT32 with a negative weight leaves the DPX path for the saturating
 * operator: 2.75e12 at 16384 (0.96 of its ceiling). */
#define FW_GPU_RATE_I32_NEG 2.7e12
#define FW_GPU_ROUND_S      8.0e-5
#define FW_GPU_HOST_CELL_S  3.0e-10
#define FW_GPU_PATHS_FACTOR 1.4

/* ---- Floyd-Warshall on the CPU (docs/performance.md "CPU closure"):
 * per thread with AVX-512, 2-core VM (bench/results/cpu_closure_*_vm.csv,
 * n = 2048): fp32 2.9e10, int32 1.9e10 tasks/s; fp64 1.3e10, int64 0.8e10.
 * AVX2 has half the lanes, the portable units a quarter (cpu_isa.h).
 * Successors (textbook order): x3.5. */
#define FW_CPU_RATE_4B_THREAD 2.0e10
#define FW_CPU_RATE_8B_THREAD 1.0e10
#define FW_CPU_PATHS_FACTOR   3.5
#define FW_CPU_CELL_S         1.0e-9 /* the copy and the absent marks of n^2 cells */

/* ---- Multi-source relaxation on the GPU (gsp_cuda_msssp: batches of N <=
 * 1024 sources, C = N / 32 chunks; H100, int32, bench_sssp all-pairs rows):
 * t = fixed + batches * rounds * (round_s + (n + m) C chunk_s) + k n cell_s.
 * A round sweeps every (vertex, chunk) and pulls over the changed tails'
 * arcs: a ring's quiet rounds (4677 vertices, 9354 arcs) cost 35 us, a
 * random graph's |V| = 65536, m = 4|V|, 0.54 ms a round (1.11 s for 64
 * batches of 32): round_s 15 us, chunk_s 5e-11 s. Rounds: the deepest
 * tree's hops (depth) and a third more (the host queues them in doubling
 * steps); 32 where the depth was not probed. cell_s: the host side left
 * after the overlap, 4677 random 17.6 ms against 11 ms of rounds.
 * Parents (INT64 rows on fresh host pages): |V| = 65536 4.26 s against
 * 1.21 s, 0.7 ns a cell; the recording pass is a few percent. */
#define RELAX_GPU_ROUND_S      1.5e-5
#define RELAX_GPU_CHUNK_S      5.0e-11
#define RELAX_GPU_ROUNDS       32.0
#define RELAX_GPU_CELL_S       3.0e-10
#define RELAX_GPU_FIXED_S      1.0e-3
#define RELAX_GPU_PATHS_FACTOR 1.1
#define RELAX_GPU_PATHS_CELL_S 7.0e-10

/* ---- Multi-source relaxation on the CPU (msssp_cpu.c: 16 or 32 sources
 * relaxed in vector lanes, msssp_cpu_batch.c, Dijkstra where that loses):
 * per thread, arcs plus n log2 n steps a source per second. The 2-core VM,
 * n = 20000, m = 100000, all pairs in 3.98 s (python_cpu_vm.csv): 9.7e8;
 * the heap Dijkstra alone was 6e7. bench_apsp --backend cpu rows "msssp"
 * calibrate. */
#define RELAX_CPU_RATE_THREAD  6.0e8
#define RELAX_CPU_PATHS_FACTOR 1.5

/* ---- Johnson's extra work: Bellman-Ford (a handful of passes over the
 * arcs from the virtual source: potentials of random negative weights
 * settle in few rounds), the reweighting (one pass) and mapping every
 * result cell back (one subtraction and conversion a cell). bench_apsp
 * rows "johnson" against "msssp" on the same graph calibrate
 * JOHNSON_CELL_S: on an H200 Johnson - MSSSP was 2.0e-10 .. 3.8e-10 s a
 * cell on the seven Gnutella shapes (the first prediction, 1e-9, made
 * Johnson 1.3x-2.6x too dear); bench/results/apsp_nvidia-h100.log has the
 * current rows.
 * The INT64 relaxation an INT32 graph needs when (n-1) max w' overflows
 * INT32 is left out: it did not occur on any benchmark graph. */
#define BF_PASSES          20.0
#define BF_GPU_RATE        1.0e9 /* arcs a second */
#define BF_CPU_RATE_THREAD 1.0e8
#define JOHNSON_CELL_S     3.0e-10

/* ---- The sparse star on the CPU (src/ops/star): the factorization's and
 * the row solves' multiply-adds (from the symbolic analysis) a thread a
 * second, AVX2 lanes; the 2-core VM: a 100 x 100 grid's 5.8e9 solve
 * multiply-adds in 0.53 s (fp32), helsinki_walk's 5.8e8 in 0.16 s (int64,
 * half the lanes). Parents: one pass over the arcs and vertices a row
 * (gsp__sssp_cpu_tree). Analysis worth making (gsp__apsp_star_worth):
 * average degree below STAR_MAX_DEGREE and a probed depth of at least
 * STAR_MIN_DEPTH x log2 n hops (a random graph's is about 2 log n, a
 * k x k grid's 2 k). */
#define STAR_CPU_RATE_4B_THREAD 5.0e9
#define STAR_CPU_RATE_8B_THREAD 2.5e9
#define STAR_CPU_TREE_RATE      2.0e8 /* arcs and vertices a thread a second */
#define STAR_MAX_DEGREE         8.0
#define STAR_MIN_DEPTH          4.0
/* The analysis itself (METIS and CHOLMOD, one thread): about 1.2 us a
 * vertex or arc (helsinki_walk 0.022 s, helsinki_drive 0.0034 s, a 256 x 256
 * grid 0.37 s on the H200 host), paid before the star can be priced: it is
 * only worth paying where the other algorithms' best would take several
 * times as long (on 16 cores msssp does helsinki_drive in 3 ms). */
#define STAR_ANALYSIS_S_PER_ITEM 1.2e-6
#define STAR_ANALYSIS_MARGIN     2.0

static double fw_seconds(const gsp__apsp_shape *s) {
  const double n = (double)s->n, n3 = n * n * n, cells = n * n;
  const bool wide = s->t == GSP_INT64 || s->t == GSP_FP64;
  const double out = (double)s->ns * n * FW_CPU_CELL_S;
  if (s->fw_gpu) {
    const double rate = s->t == GSP_FP64                   ? FW_GPU_RATE_FP64
                        : s->t == GSP_INT64                ? FW_GPU_RATE_I64
                        : s->t == GSP_INT32 && s->negative ? FW_GPU_RATE_I32_NEG
                                                           : FW_GPU_RATE_4B;
    double t = n3 / rate + ceil(n / 128) * FW_GPU_ROUND_S;
    if (s->paths) t *= FW_GPU_PATHS_FACTOR;
    return t + cells * FW_GPU_HOST_CELL_S * (s->paths ? 2 : 1) + out;
  }
  const double th = s->threads > 0 ? s->threads : 1;
  const gsp__cpu_isa_t isa = gsp__cpu_isa();
  const double lanes = isa == GSP_CPU_AVX512 ? 1 : isa == GSP_CPU_AVX2 ? 0.5 : 0.25;
  double t = n3 / ((wide ? FW_CPU_RATE_8B_THREAD : FW_CPU_RATE_4B_THREAD) * lanes * th);
  if (s->paths) t *= FW_CPU_PATHS_FACTOR;
  return t + cells * FW_CPU_CELL_S * (s->paths ? 3 : 1) + out;
}

static double relax_seconds(const gsp__apsp_shape *s) {
  const double n = (double)s->n, m = (double)s->m, ns = (double)s->ns;
  if (s->relax_gpu) {
    double N = s->batch > 0 ? (double)s->batch : ns < 1024 ? ceil(ns / 32) * 32 : 1024;
    const double batches = ceil(ns / N);
    N = ceil(ns / batches / 32) * 32; /* evened out (gsp__msssp_batch) */
    const double rounds = s->depth > 0 ? ceil(s->depth * 4 / 3) + 1 : RELAX_GPU_ROUNDS;
    double t = batches * rounds * (RELAX_GPU_ROUND_S + (n + m) * (N / 32) * RELAX_GPU_CHUNK_S);
    if (s->paths) t *= RELAX_GPU_PATHS_FACTOR;
    return RELAX_GPU_FIXED_S + t + ns * n * (RELAX_GPU_CELL_S + (s->paths ? RELAX_GPU_PATHS_CELL_S : 0));
  }
  const double th = s->threads > 0 ? s->threads : 1;
  const double lg = n > 2 ? log2(n) : 1;
  double t = ns * (m + n * lg) / (RELAX_CPU_RATE_THREAD * th);
  if (s->paths) t *= RELAX_CPU_PATHS_FACTOR;
  return t;
}

double gsp__apsp_depth(const struct gsp_matrix_s *G, const int64_t *src, int64_t ns) {
  const int64_t n = G->nrows;
  int64_t *level = n > 0 ? gsp__malloc_array((size_t)n, sizeof *level) : NULL;
  int64_t *queue = n > 0 ? gsp__malloc_array((size_t)n, sizeof *queue) : NULL;
  const bool ok = level && queue;
  int64_t ecc = 0;
  if (ok) {
    /* three probes spread over the sources */
    for (int q = 0; q < 3 && q < ns; q++) {
      const int64_t s = src[ns * q / 3];
      for (int64_t v = 0; v < n; v++) level[v] = -1;
      int64_t head = 0, tail = 0;
      level[s] = 0, queue[tail++] = s;
      while (head < tail) {
        const int64_t u = queue[head++];
        for (gsp_index e = G->p[u]; e < G->p[u + 1]; e++) {
          const int64_t v = (int64_t)G->j[e];
          if (level[v] < 0) level[v] = level[u] + 1, queue[tail++] = v;
        }
      }
      if (level[queue[tail - 1]] > ecc) ecc = level[queue[tail - 1]];
    }
  }
  gsp__free(level), gsp__free(queue);
  return ok ? 2.0 * (double)(ecc > 1 ? ecc : 1) : 0;
}

static double star_seconds(const gsp__apsp_shape *s) {
  if (!s->star) return INFINITY;
  const double th = s->threads > 0 ? s->threads : 1, n = (double)s->n, ns = (double)s->ns;
  const bool wide = s->t == GSP_INT64 || s->t == GSP_FP64;
  const gsp__cpu_isa_t isa = gsp__cpu_isa();
  const double lanes = isa == GSP_CPU_AVX512 ? 2 : isa == GSP_CPU_AVX2 ? 1 : 0.5;
  const double rate = (wide ? STAR_CPU_RATE_8B_THREAD : STAR_CPU_RATE_4B_THREAD) * lanes * th;
  double t = (s->star_factor_ops + ns * s->star_solve_ops) / rate + ns * n * FW_CPU_CELL_S;
  if (s->paths) t += ns * (n + (double)s->m) / (STAR_CPU_TREE_RATE * th) + ns * n * FW_CPU_CELL_S;
  return t;
}

bool gsp__apsp_star_worth(const gsp__apsp_shape *s, const double sec[GSP_APSP_ALGOS]) {
  const double n = (double)s->n, analysis = (n + (double)s->m) * STAR_ANALYSIS_S_PER_ITEM;
  double best = sec[GSP_APSP_FLOYD_WARSHALL];
  if (sec[GSP_APSP_MSSSP] < best) best = sec[GSP_APSP_MSSSP];
  if (sec[GSP_APSP_JOHNSON] < best) best = sec[GSP_APSP_JOHNSON];
  return s->n >= 32 && (double)s->m <= STAR_MAX_DEGREE * n && s->depth >= STAR_MIN_DEPTH * log2(n) &&
         best > STAR_ANALYSIS_MARGIN * analysis;
}

void gsp__apsp_predict(double sec[GSP_APSP_ALGOS], const gsp__apsp_shape *s) {
  sec[GSP_APSP_AUTO] = 0;
  sec[GSP_APSP_FLOYD_WARSHALL] = fw_seconds(s);
  sec[GSP_APSP_MSSSP] = s->negative ? INFINITY : relax_seconds(s);
  const double th = s->threads > 0 ? s->threads : 1;
  const double bf = (double)s->m * BF_PASSES / (s->relax_gpu ? BF_GPU_RATE : BF_CPU_RATE_THREAD * th);
  sec[GSP_APSP_JOHNSON] = bf + relax_seconds(s) + (double)s->ns * (double)s->n * JOHNSON_CELL_S;
  sec[GSP_APSP_SPARSE_STAR] = star_seconds(s);
}

gsp_apsp_algo gsp__apsp_pick(const double sec[GSP_APSP_ALGOS], const gsp__apsp_shape *s) {
  /* Johnson only pays off with negative weights: without them it is the
   * relaxation plus extra passes. Floyd-Warshall cannot stream row blocks. */
  const gsp_apsp_algo relax = s->negative ? GSP_APSP_JOHNSON : GSP_APSP_MSSSP;
  const gsp_apsp_algo other = s->blocks || sec[relax] <= sec[GSP_APSP_FLOYD_WARSHALL] ? relax : GSP_APSP_FLOYD_WARSHALL;
  return sec[GSP_APSP_SPARSE_STAR] < sec[other] ? GSP_APSP_SPARSE_STAR : other;
}
