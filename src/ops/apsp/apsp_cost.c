/*
 * The cost model behind GSP_APSP_AUTO (docs/apsp.md): predicted seconds of
 * Floyd-Warshall, multi-source relaxation and Johnson from the graph's
 * shape and where each would run. Every constant is here, with where it
 * was measured. Calibrate them from the rows of bench/bench_apsp (see
 * docs/apsp.md, "Calibration"): the model only needs to rank the three
 * algorithms, so the ratios between the rates matter more than each rate.
 */
#include <math.h>

#include "apsp.h"

/* ---- Floyd-Warshall on the GPU (H200; docs/performance.md "GPU closure")
 * t = n^3 / rate + rounds * round_s + n^2 * host_cell_s, rounds = n / 128.
 * Rate and round cost: a fit of the fp32 rows n = 4096 / 8192 / 16384
 * (0.0120 / 0.0572 / 0.384 s): 1.2e13 tasks/s and 0.2 ms a round. 8-byte
 * types: fp64 8192 (2.60e12) and int64 8192 (1.29e12): 2.0e12.
 * host_cell_s: gsp_closure end to end (upload, NaN scan, download, marking
 * absent entries) took 14.1 s at n = 32768 and 0.36 s at 4677 (int32,
 * "Many-source SSSP" section, bench/results/msssp_gpu_nvidia-h200.txt)
 * against ~3 s and ~0.016 s of kernels: about 10 ns a cell. Successors:
 * fp32 16384 with successors 0.746 s against 0.384 s (x1.95).
 * bench_apsp rows "fw" calibrate all of these: on the H200 run of
 * bench/results/apsp_nvidia-h200.log (INT32, n = 6301 .. 26518, results
 * streamed through the row callback) the host side fits 1.2e-8 s a cell
 * (1.13e-8 .. 1.67e-8, the small graphs the dearest). */
#define FW_GPU_RATE_4B 1.2e13
#define FW_GPU_RATE_8B 2.0e12
/* INT32 with a negative weight leaves the DPX path for the saturating
 * operator: "int32 min-plus (saturating, inputs < 0)" 8192: 2.37e12. */
#define FW_GPU_RATE_I32_NEG 2.4e12
#define FW_GPU_ROUND_S      2.0e-4
#define FW_GPU_HOST_CELL_S  1.2e-8
#define FW_GPU_PATHS_FACTOR 1.95

/* ---- Floyd-Warshall on the CPU (docs/performance.md "CPU closure"):
 * per thread, 16-core H200 host: n = 4096 fp32 in 1.03 s = 6.7e10 tasks/s
 * = 4.2e9 a thread; 8-byte types about half (fp64 9.5e9 against fp32
 * 1.65e10 on the 2-core machine). Successors (textbook order): x3.5. */
#define FW_CPU_RATE_4B_THREAD 4.2e9
#define FW_CPU_RATE_8B_THREAD 2.0e9
#define FW_CPU_PATHS_FACTOR   3.5
#define FW_CPU_CELL_S         1.0e-9 /* the copy and the absent marks of n^2 cells */

/* ---- Multi-source relaxation on the GPU (gsp_cuda_msssp, pull rounds,
 * batches of 1024; H200, docs/performance.md "Many-source SSSP",
 * bench/results/msssp_gpu_nvidia-h200.txt): t = fixed + k m / rate +
 * k n cell_s. Random graphs, int32, host result included: |V| = 65536,
 * 262144 arcs in 3.63 s (4.7e9 sources x arcs / s) and |V| = 4677, 16384
 * arcs in 46.7 ms: rate 6e9, 0.2 ns a cell (the host copy overlaps the
 * device), 20 ms a call. A deep ring is 10x slower (its rounds, not its
 * arcs, cost; the model ignores the diameter). Parents: +21% at 4677,
 * +162% at 65536 (int64 parents written to fresh host pages): x1.3 on the
 * device part and 2 ns a cell. bench_apsp rows "msssp" calibrate. */
#define RELAX_GPU_RATE         6.0e9
#define RELAX_GPU_CELL_S       2.0e-10
#define RELAX_GPU_FIXED_S      0.02
#define RELAX_GPU_PATHS_FACTOR 1.3
#define RELAX_GPU_PATHS_CELL_S 2.0e-9

/* ---- Multi-source relaxation on the CPU (msssp_cpu.c: a binary-heap
 * Dijkstra per source, sources over threads): per thread, arcs plus
 * n log2 n heap steps per second. Estimate from the 2-core development
 * machine (bench_sssp --backend cpu); bench_apsp --backend cpu rows
 * "msssp" calibrate. */
#define RELAX_CPU_RATE_THREAD  6.0e7
#define RELAX_CPU_PATHS_FACTOR 1.5

/* ---- Johnson's extra work: Bellman-Ford (a handful of passes over the
 * arcs from the virtual source: potentials of random negative weights
 * settle in few rounds), the reweighting (one pass) and mapping every
 * result cell back (one subtraction and conversion a cell). bench_apsp
 * rows "johnson" against "msssp" on the same graph calibrate
 * JOHNSON_CELL_S: on the H200 run (bench/results/apsp_nvidia-h200.log)
 * Johnson - MSSSP is 2.0e-10 .. 3.8e-10 s a cell on the seven Gnutella
 * shapes (the first prediction, 1e-9, made Johnson 1.3x-2.6x too dear).
 * The INT64 relaxation an INT32 graph needs when (n-1) max w' overflows
 * INT32 is left out: it did not occur on any benchmark graph. */
#define BF_PASSES          20.0
#define BF_GPU_RATE        1.0e9 /* arcs a second */
#define BF_CPU_RATE_THREAD 1.0e8
#define JOHNSON_CELL_S     3.0e-10

static double fw_seconds(const gsp__apsp_shape *s) {
  const double n = (double)s->n, n3 = n * n * n, cells = n * n;
  const bool wide = s->t == GSP_INT64 || s->t == GSP_FP64;
  const double out = (double)s->ns * n * FW_CPU_CELL_S;
  if (s->fw_gpu) {
    const double rate = wide ? FW_GPU_RATE_8B : s->t == GSP_INT32 && s->negative ? FW_GPU_RATE_I32_NEG : FW_GPU_RATE_4B;
    double t = n3 / rate + ceil(n / 128) * FW_GPU_ROUND_S;
    if (s->paths) t *= FW_GPU_PATHS_FACTOR;
    return t + cells * FW_GPU_HOST_CELL_S * (s->paths ? 2 : 1) + out;
  }
  const double th = s->threads > 0 ? s->threads : 1;
  double t = n3 / ((wide ? FW_CPU_RATE_8B_THREAD : FW_CPU_RATE_4B_THREAD) * th);
  if (s->paths) t *= FW_CPU_PATHS_FACTOR;
  return t + cells * FW_CPU_CELL_S * (s->paths ? 3 : 1) + out;
}

static double relax_seconds(const gsp__apsp_shape *s) {
  const double n = (double)s->n, m = (double)s->m, ns = (double)s->ns;
  if (s->relax_gpu) {
    double t = ns * m / RELAX_GPU_RATE;
    if (s->paths) t *= RELAX_GPU_PATHS_FACTOR;
    return RELAX_GPU_FIXED_S + t + ns * n * (RELAX_GPU_CELL_S + (s->paths ? RELAX_GPU_PATHS_CELL_S : 0));
  }
  const double th = s->threads > 0 ? s->threads : 1;
  const double lg = n > 2 ? log2(n) : 1;
  double t = ns * (m + n * lg) / (RELAX_CPU_RATE_THREAD * th);
  if (s->paths) t *= RELAX_CPU_PATHS_FACTOR;
  return t;
}

void gsp__apsp_predict(double sec[4], const gsp__apsp_shape *s) {
  sec[GSP_APSP_AUTO] = 0;
  sec[GSP_APSP_FLOYD_WARSHALL] = fw_seconds(s);
  sec[GSP_APSP_MSSSP] = s->negative ? INFINITY : relax_seconds(s);
  const double th = s->threads > 0 ? s->threads : 1;
  const double bf = (double)s->m * BF_PASSES / (s->relax_gpu ? BF_GPU_RATE : BF_CPU_RATE_THREAD * th);
  sec[GSP_APSP_JOHNSON] = bf + relax_seconds(s) + (double)s->ns * (double)s->n * JOHNSON_CELL_S;
}

gsp_apsp_algo gsp__apsp_pick(const double sec[4], const gsp__apsp_shape *s) {
  /* Johnson only pays off with negative weights: without them it is the
   * relaxation plus extra passes. Floyd-Warshall cannot stream row blocks. */
  const gsp_apsp_algo relax = s->negative ? GSP_APSP_JOHNSON : GSP_APSP_MSSSP;
  if (s->blocks) return relax;
  return sec[GSP_APSP_FLOYD_WARSHALL] < sec[relax] ? GSP_APSP_FLOYD_WARSHALL : relax;
}
