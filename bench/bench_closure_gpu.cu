/*
 * GPU closure benchmark: blocked Floyd-Warshall (src/cuda) on device-resident
 * random inputs, against the naive one-thread-per-task GPU baseline (Harish &
 * Narayanan: one launch per k) and our CPU backend on all cores. Prints one
 * table (device, n, type, semiring, median time of >= 5 runs after a warm-up
 * measured with CUDA events, tasks/s = n^3 / time, fraction of the
 * the micro-kernel ceiling) and writes the rows as CSV.
 *
 *   bench_closure_gpu [--quick | --focus | --user | --types | --diag | --halves | --fold] [--csv FILE]
 *
 * The ceilings are measured first: per (semiring, type) the product
 * kernel's register tile updated by the kernel's own task (gspcu policies)
 * with the operands in registers (peak_all). --types: every numeric kernel
 * at n = 2048 .. 16384 with the main stream's time split into round 0,
 * the other tiles and the wait for the lookahead (gsp_cuda_fw_phases).
 * --diag: the diagonal-tile kernel alone for each thread tile (8 also
 * without the register bound, -mb1) and on a cluster (against the first:
 * bit for bit, the cluster within rounding on
 * fractional weights; microseconds a launch), then fp32 min-plus from 256
 * (a call of a few rounds: its fixed cost, medians of 21) to 16384, with
 * the phases, and from 1024 to 8192 with run_fw's choices forced in every
 * round: the diagonal on one block or a cluster (-diag1, -diagc), the
 * other tiles in pairs with either (-pairs, -pairsc), and without
 * programmatic dependent launch (-nopdl, -pairs-nopdl), with the stripe
 * update in one piece (-pairs-nosplit), its rest on a stream of its own
 * or beside the diagonal tile's closure (-pairs-q2, -pairsc-q2,
 * -pairs-beside, -pairsc-beside); the other kernels likewise at 1024 and
 * 2048 (the first four and the last four). --halves: every numeric kernel
 * at 256, 512 and 1024 (medians of 21), the library's choices, then the
 * diagonal on one block and the other tiles one to a block in every round,
 * with and without half-width blocks (rest_halves: -diag1,
 * -diag1-nohalves). --fold: every numeric kernel at 2560, 4096 and 8192
 * (and fp32 min-plus at 16384), the library's choices, then the diagonal
 * on one block in every round with all of the next round's diagonal tile
 * and panels in the other tiles' grid (side_in_rest: -diag1), the same
 * with each such round waiting for all of the round before
 * (-diag1-noflow), only the next stripe's update (stripe_in_rest:
 * -diag1-noside), neither (-diag1-nofold). Each
 * forced result is the library's choice's bit for bit (integer weights).
 * The forced rows are timed without the phase events (four a round cost
 * about 0.3 ms at 2048), which one more run then measures.
 *
 * Each run closes a fresh random matrix (regenerated on the device between
 * runs, outside the timed region). Before timing, the tiled closure is
 * checked against the naive baseline at n = 4099 (exact, integer weights).
 */
#define GSP_HAVE_CUDA 1
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda_runtime.h>

#include "gsp.h"
#include "gsp_cuda_fw.cuh"
#include "gsp_cuda_plugin.h"

#include "bench_cuda_check.h"

static __device__ __forceinline__ uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Complete graph with integer weights 1..1000 on the n x n part. */
template <class T> __global__ void k_gen(T *d, int64_t np, int64_t n, uint64_t seed) {
  for (int64_t i = blockIdx.y; i < n; i += gridDim.y)
    for (int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; j < n; j += (int64_t)gridDim.x * blockDim.x)
      d[i * np + j] = (T)(1 + mix(seed ^ (uint64_t)(i * np + j) * 0x9E3779B97F4A7C15ULL) % 1000);
}
/* Bits with probability 1/16 (so reachability spreads over many rounds). */
__global__ void k_gen_bits(uint64_t *d, int64_t ldw, int64_t n, uint64_t seed) {
  for (int64_t i = blockIdx.y; i < n; i += gridDim.y)
    for (int64_t w = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; w < (n + 63) / 64;
         w += (int64_t)gridDim.x * blockDim.x) {
      uint64_t h = seed ^ (uint64_t)(i * ldw + w) * 0x9E3779B97F4A7C15ULL;
      uint64_t v = mix(h) & mix(h + 1) & mix(h + 2) & mix(h + 3);
      const int64_t left = n - w * 64;
      if (left < 64) v &= (1ull << left) - 1;
      d[i * ldw + w] = v;
    }
}
/* Sparse random digraph, about deg out-edges a vertex (closures stay mixed). */
__global__ void k_gen_sparse_bits(uint64_t *d, int64_t ldw, int64_t n, uint64_t seed, uint64_t deg) {
  for (int64_t i = blockIdx.y; i < n; i += gridDim.y)
    for (int64_t w = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; w < (n + 63) / 64;
         w += (int64_t)gridDim.x * blockDim.x) {
      uint64_t v = 0;
      for (int b = 0; b < 64 && w * 64 + b < n; b++)
        v |= (uint64_t)(mix(seed ^ (uint64_t)(i * n + w * 64 + b) * 0x9E3779B97F4A7C15ULL) % (uint64_t)n < deg) << b;
      d[i * ldw + w] = v;
    }
}
/* Binary tensor-core issue rate: independent m16n8k256 AND-POPC in a loop
 * (operands in registers), the ceiling of the tensor-core bool closure. */
__global__ void __launch_bounds__(256) k_bmma_peak(int *out, int iters, uint32_t seed) {
  uint32_t a0 = seed ^ threadIdx.x, a1 = a0 * 3u, a2 = a0 * 5u, a3 = a0 * 7u, b0 = a0 * 11u, b1 = a0 * 13u;
  int c[4][4] = {};
  for (int it = 0; it < iters; it++)
#pragma unroll
    for (int q = 0; q < 4; q++)
      asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc "
                   "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                   : "+r"(c[q][0]), "+r"(c[q][1]), "+r"(c[q][2]), "+r"(c[q][3])
                   : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  int s = 0;
  for (int q = 0; q < 4; q++) s += c[q][0] + c[q][1] + c[q][2] + c[q][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

static void bmma_peak() {
  int sms = 0, khz = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
  const int blocks = sms * 8, iters = 20000;
  int *out = NULL;
  CK(cudaMalloc((void **)&out, (size_t)blocks * 256 * 4));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  k_bmma_peak<<<blocks, 256>>>(out, 100, 1);
  CK(cudaGetLastError());
  float best = 1e30f;
  for (int r = 0; r < 5; r++) {
    CK(cudaEventRecord(e0));
    k_bmma_peak<<<blocks, 256>>>(out, iters, 1);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    best = std::min(best, ms);
  }
  const double mmas = (double)blocks * 8 * iters * 4; /* 8 warps a block */
  printf("bmma peak: %.3e m16n8k256 MMA/s = %.3e bool tasks/s (%.1f clocks per MMA per SM)\n", mmas / (best / 1e3),
         mmas * 32768 / (best / 1e3), (best / 1e3) * khz * 1e3 * sms / mmas);
  cudaFree(out);
}

/* Keeps v in a register the compiler must assume changed (no code). */
template <class T> static __device__ __forceinline__ void opaque(T &v) {
  if constexpr (sizeof(T) == 4) {
    uint32_t u;
    memcpy(&u, &v, 4);
    asm volatile("" : "+r"(u));
    memcpy(&v, &u, 4);
  } else {
    uint64_t u;
    memcpy(&u, &v, 8);
    asm volatile("" : "+l"(u));
    memcpy(&v, &u, 8);
  }
}

/* The ceiling of a policy: the product kernel's TM x TN accumulator tile
 * updated by P::fma from TM + TN operands held in registers (made opaque
 * each iteration so the products cannot be hoisted); no memory traffic. */
template <class P> __global__ void __launch_bounds__(256) k_peak(typename P::TC *out, int iters) {
  typedef typename P::TC TC;
  constexpr int TM = gspcu::Shape<P>::TM, TN = gspcu::Shape<P>::TN;
  const int t = threadIdx.x;
  TC a[TM], b[TN], c[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; i++) a[i] = (TC)(1 + (t + 3 * i) % 5);
#pragma unroll
  for (int j = 0; j < TN; j++) b[j] = (TC)(2 + (t + 7 * j) % 3);
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++) c[i][j] = (TC)(100 + i + j);
#pragma unroll 1
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int i = 0; i < TM; i++) opaque(a[i]);
#pragma unroll
    for (int j = 0; j < TN; j++) opaque(b[j]);
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
      for (int j = 0; j < TN; j++) c[i][j] = P::fma(c[i][j], a[i], b[j]);
  }
  TC s = c[0][0];
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++) s = P::add(s, c[i][j]);
  out[blockIdx.x * blockDim.x + t] = s;
}

struct Ceiling {
  gsp_type t;
  gsp_semiring s;
  bool dpx;
  double tasks;
};
static std::vector<Ceiling> ceilings;

/* Best of 5 runs of k_peak<P> on 8 blocks of 256 threads an SM. */
template <class P> static void peak(gsp_type t, gsp_semiring s, bool dpx, const char *label) {
  typedef typename P::TC TC;
  constexpr int TM = gspcu::Shape<P>::TM, TN = gspcu::Shape<P>::TN;
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int blocks = sms * 8, iters = sizeof(TC) == 4 ? 20000 : 10000;
  TC *out = NULL;
  CK(cudaMalloc((void **)&out, (size_t)blocks * 256 * sizeof(TC)));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  k_peak<P><<<blocks, 256>>>(out, 100);
  CK(cudaGetLastError());
  float best = 1e30f;
  for (int r = 0; r < 5; r++) {
    CK(cudaEventRecord(e0));
    k_peak<P><<<blocks, 256>>>(out, iters);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    best = std::min(best, ms);
  }
  const double tasks = (double)blocks * 256 * iters * TM * TN / (best / 1e3);
  ceilings.push_back({t, s, dpx, tasks});
  printf("ceiling: %-22s %.3e tasks/s\n", label, tasks);
  fflush(stdout);
  cudaEventDestroy(e0), cudaEventDestroy(e1);
  cudaFree(out);
}

static void peak_all() {
  peak<PolNum<GSP_MIN_PLUS, float>>(GSP_FP32, GSP_MIN_PLUS, false, "fp32 min_plus");
  peak<PolNum<GSP_MAX_MIN, float>>(GSP_FP32, GSP_MAX_MIN, false, "fp32 max_min");
  peak<PolNum<GSP_MIN_PLUS, double>>(GSP_FP64, GSP_MIN_PLUS, false, "fp64 min_plus");
  peak<PolMinPlusU32>(GSP_INT32, GSP_MIN_PLUS, true, "int32 min_plus (DPX)");
  peak<PolNum<GSP_MIN_PLUS, int32_t>>(GSP_INT32, GSP_MIN_PLUS, false, "int32 min_plus (sat)");
  peak<PolNum<GSP_MIN_PLUS, int64_t>>(GSP_INT64, GSP_MIN_PLUS, false, "int64 min_plus");
}

/* Naive baseline: one thread per (i, j), one launch per k. */
__global__ void k_naive(float *d, int64_t n, int64_t k) {
  const int64_t i = blockIdx.y, j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (j < n) {
    const float v = d[i * n + k] + d[k * n + j];
    if (v < d[i * n + j]) d[i * n + j] = v;
  }
}

struct Row {
  std::string impl, type, sr;
  int64_t n;
  double sec, tasks, ceiling;
  int reps;
  float phase_ms[3]; /* gsp_cuda_fw_phases; < 0: not measured */
};
static std::vector<Row> rows;
static char device_name[256];
/* the plugin's gateway and test tables (the library calls it only through them) */
static const gsp__cuda_api *CU;
static const gsp__cuda_testing *CT;

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

static size_t tsize(gsp_type t) {
  return t == GSP_BOOL ? 0 : gsp_type_size(t);
}

static void gen(void *d, gsp_type t, gsp_semiring s, int64_t n, int64_t np, uint64_t seed) {
  GK(CU->fill_zero(d, np, t, s));
  dim3 g((unsigned)std::min<int64_t>(16, (n + 255) / 256), (unsigned)std::min<int64_t>(n, 65535));
  switch (t) {
  case GSP_BOOL:
    k_gen_bits<<<g, 256>>>((uint64_t *)d, np / 64, n, seed);
    break;
  case GSP_INT32:
    k_gen<int32_t><<<g, 256>>>((int32_t *)d, np, n, seed);
    break;
  case GSP_INT64:
    k_gen<int64_t><<<g, 256>>>((int64_t *)d, np, n, seed);
    break;
  case GSP_FP32:
    k_gen<float><<<g, 256>>>((float *)d, np, n, seed);
    break;
  case GSP_FP64:
    k_gen<double><<<g, 256>>>((double *)d, np, n, seed);
    break;
  }
  CK(cudaGetLastError());
}

static const char *tname(gsp_type t) {
  static const char *const n[] = {"bool", "int32", "int64", "fp32", "fp64"};
  return n[t];
}
static const char *sname(gsp_semiring s) {
  static const char *const n[] = {"min_plus", "max_plus", "max_min", "min_max", "or_and"};
  return n[s];
}

/* The ceiling (tasks/s) measured by peak_all; bool: the LOP3 rate (the
 * tensor-core rows use it too); 0: none measured. */
static double ceiling_for(gsp_type t, gsp_semiring s, bool dpx) {
  if (t == GSP_BOOL) return 0.52e15;
  for (const Ceiling &c : ceilings)
    if (c.t == t && c.s == s && c.dpx == (dpx && t == GSP_INT32 && s == GSP_MIN_PLUS)) return c.tasks;
  return 0;
}
static double fp32_ceiling() {
  return ceiling_for(GSP_FP32, GSP_MIN_PLUS, false);
}

/* fp32 min-plus successors of the last run (input regenerated from its
 * seed): 2000 random pairs, each path walked on the host must cost exactly
 * the distance (integer weights: exact sums). */
static void check_successors(const void *d, const int32_t *succ, int64_t n, int64_t np, uint64_t seed) {
  const size_t cells = (size_t)np * np;
  std::vector<float> D(cells), W(cells);
  std::vector<int32_t> S(cells);
  void *w = NULL;
  CK(cudaMalloc(&w, cells * sizeof(float)));
  gen(w, GSP_FP32, GSP_MIN_PLUS, n, np, seed);
  CK(cudaMemcpy(W.data(), w, cells * sizeof(float), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(D.data(), d, cells * sizeof(float), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(S.data(), succ, cells * sizeof(int32_t), cudaMemcpyDeviceToHost));
  cudaFree(w);
  uint64_t st = 12345;
  int bad = 0;
  for (int q = 0; q < 2000; q++) {
    st = st * 6364136223846793005ULL + 1442695040888963407ULL;
    const int64_t i = (int64_t)((st >> 33) % (uint64_t)n), j = (int64_t)((st >> 13) % (uint64_t)n);
    float cost = 0;
    int64_t v = i, hops = 0;
    while (v != j && hops <= n) {
      const int32_t x = S[(size_t)v * np + j];
      if (x < 0) break;
      cost += W[(size_t)v * np + x];
      v = x, hops++;
    }
    if (v != j || cost != D[(size_t)i * np + j]) bad++;
  }
  printf("verify: successors n=%lld, 2000 sampled paths: %d wrong -> %s\n", (long long)n, bad, bad ? "FAIL" : "ok");
}

/* Tiled GPU closure: median of reps after one warm-up, fresh input each run.
 * variant >= 0: every run through gsp_cuda_fw_phases with run_fw's choices
 * forced (gsp_cuda_fw.h: the diagonal kernel, the other tiles in pairs,
 * programmatic dependent launch, the split stripe update, the panels
 * after the other tiles); its output is
 * then checked against the library's choice on the same input. */
static void bench_tiled(gsp_type t, gsp_semiring s, int64_t n, bool paths, bool dpx, int reps, const char *label,
                        int bits_impl = -1, bool phases = false, int variant = -1) {
  const int64_t np = CU->padded_n(t, n);
  const size_t bytes = t == GSP_BOOL ? (size_t)np * np / 8 : (size_t)np * np * tsize(t);
  void *d = NULL;
  int32_t *succ = NULL;
  CK(cudaMalloc(&d, bytes));
  if (paths) CK(cudaMalloc((void **)&succ, (size_t)np * np * 4));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<double> times;
  for (int r = 0; r <= reps; r++) {
    gen(d, t, s, n, np, 1000 + r);
    CK(cudaDeviceSynchronize());
    bool cycle = false;
    CK(cudaEventRecord(e0));
    /* bits_impl: -1 the default closure, 0 LOP3, 256 / 512 tensor-core depth */
    if (bits_impl >= 0) GK(CT->fw_bits_impl(d, n, np, true, bits_impl));
    else if (variant >= 0) GK(CT->fw_phases(d, n, np, t, s, dpx, variant, NULL));
    else GK(CU->fw_device(d, succ, n, np, t, s, true, dpx, NULL, &cycle));
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (cycle) {
      fprintf(stderr, "unexpected cycle\n");
      exit(1);
    }
    if (r > 0) times.push_back(ms / 1e3);
  }
  if (paths) check_successors(d, succ, n, np, 1000 + reps);
  const double sec = median(times), tasks = (double)n * n * n;
  Row row = {label, tname(t), sname(s), n, sec, tasks / sec, ceiling_for(t, s, dpx), reps, {-1, -1, -1}};
  if (phases) { /* one more run with events between the phases */
    gen(d, t, s, n, np, 999);
    GK(CT->fw_phases(d, n, np, t, s, dpx, variant, row.phase_ms));
  }
  if (variant >= 0) { /* the same closure as the library's choice */
    std::vector<unsigned char> forced(bytes), chosen(bytes);
    bool cycle = false;
    float ph[3];
    gen(d, t, s, n, np, 998);
    GK(CT->fw_phases(d, n, np, t, s, dpx, variant, ph));
    CK(cudaMemcpy(forced.data(), d, bytes, cudaMemcpyDeviceToHost));
    gen(d, t, s, n, np, 998);
    GK(CU->fw_device(d, NULL, n, np, t, s, true, dpx, NULL, &cycle));
    CK(cudaMemcpy(chosen.data(), d, bytes, cudaMemcpyDeviceToHost));
    if (memcmp(forced.data(), chosen.data(), bytes) != 0) {
      fprintf(stderr, "%s n=%lld: differs from the library's choices\n", label, (long long)n);
      exit(1);
    }
  }
  rows.push_back(row);
  printf("  %-14s %-5s %-8s n=%6lld  %9.4f s  %7.3f Ttasks/s", label, tname(t), sname(s), (long long)n, sec,
         tasks / sec / 1e12);
  if (phases)
    printf("  phases: round 0 %.3f ms, other tiles %.3f ms, lookahead wait %.3f ms", row.phase_ms[0], row.phase_ms[1],
           row.phase_ms[2]);
  printf("\n");
  fflush(stdout);
  cudaEventDestroy(e0), cudaEventDestroy(e1);
  cudaFree(d), cudaFree(succ);
}

static void naive_run(float *d, int64_t n) {
  dim3 g((unsigned)((n + 255) / 256), (unsigned)n);
  for (int64_t k = 0; k < n; k++) k_naive<<<g, 256>>>(d, n, k);
  CK(cudaGetLastError());
}

static void bench_naive(int64_t n, int reps) {
  float *d = NULL;
  CK(cudaMalloc((void **)&d, (size_t)n * n * 4));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<double> times;
  for (int r = 0; r <= reps; r++) {
    gen(d, GSP_FP32, GSP_MIN_PLUS, n, n, 1000 + r); /* np == n: unpadded */
    CK(cudaDeviceSynchronize());
    CK(cudaEventRecord(e0));
    naive_run(d, n);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (r > 0) times.push_back(ms / 1e3);
  }
  const double sec = median(times), tasks = (double)n * n * n;
  rows.push_back({"naive-gpu", "fp32", "min_plus", n, sec, tasks / sec, fp32_ceiling(), reps, {-1, -1, -1}});
  printf("  %-14s fp32  min_plus n=%6lld  %9.4f s  %7.3f Ttasks/s\n", "naive-gpu", (long long)n, sec,
         tasks / sec / 1e12);
  fflush(stdout);
  cudaFree(d);
}

/* Fractional weights (sums round: the kernels must agree bit for bit). */
template <class T> __global__ void k_gen_frac(T *d, int64_t n, uint64_t seed) {
  const int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (e < n * n) d[e] = (T)(1 + mix(seed ^ (uint64_t)e * 0x9E3779B97F4A7C15ULL) % 100000) / (T)7;
}

/* k_diag on one FWB x FWB tile for thread tiles TQ = 4 and 8 (and 8 with
 * the registers not held to 128, -mb1: diag_min_blocks), and the cluster:
 * the same output, and the time a launch (100 launches between two
 * events). */
template <class P> static void bench_diag(gsp_type t, gsp_semiring s) {
  typedef typename P::TC TC;
  constexpr int F = gspcu::FWB;
  const size_t bytes = (size_t)F * F * sizeof(TC);
  TC *src = NULL, *d = NULL;
  CK(cudaMalloc((void **)&src, bytes));
  CK(cudaMalloc((void **)&d, bytes));
  k_gen_frac<TC><<<F * F / 256, 256>>>(src, F, 5);
  CK(cudaGetLastError());
  std::vector<unsigned char> first(bytes), got(bytes);
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  /* the cluster's order of the k terms differs (floats: within rounding);
   * the one-block kernels agree bit for bit */
  auto agree = [&](bool exact) {
    if (memcmp(first.data(), got.data(), bytes) == 0) return true;
    if (exact) return false;
    std::vector<TC> a(F * F), b(F * F);
    memcpy(a.data(), first.data(), bytes), memcpy(b.data(), got.data(), bytes);
    for (int e = 0; e < F * F; e++) {
      const double x = (double)a[e], y = (double)b[e];
      if (!std::is_floating_point<TC>::value || std::fabs(x - y) > 1e-5 * std::fabs(x)) return false;
    }
    return true;
  };
  bool have_first = false;
  auto one = [&](const char *label, bool exact, auto launch) {
    CK(cudaMemcpy(d, src, bytes, cudaMemcpyDeviceToDevice));
    launch();
    CK(cudaGetLastError());
    CK(cudaMemcpy(have_first ? got.data() : first.data(), d, bytes, cudaMemcpyDeviceToHost));
    const bool same = !have_first || agree(exact), ref = !have_first;
    have_first = true;
    CK(cudaEventRecord(e0));
    for (int r = 0; r < 100; r++) launch();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    const double sec = ms / 1e3 / 100, tasks = (double)F * F * F;
    rows.push_back({label, tname(t), sname(s), F, sec, tasks / sec, 0, 100, {-1, -1, -1}});
    printf("  %-14s %-5s %-8s %7.2f us a launch  %s\n", label, tname(t), sname(s), sec * 1e6,
           !same   ? "DIFFERS from diag-tq4"
           : ref   ? ""
           : exact ? "same output as diag-tq4"
                   : "agrees with diag-tq4 (floats: within rounding)");
    if (!same) exit(1);
  };
  one("diag-tq4", true,
      [&] { gspcu::k_diag<P, 4><<<1, gspcu::diag_threads<4>()>>>(d, F, 0, nullptr, false, nullptr, 0); });
  one("diag-tq8", true,
      [&] { gspcu::k_diag<P, 8><<<1, gspcu::diag_threads<8>()>>>(d, F, 0, nullptr, false, nullptr, 0); });
  one("diag-tq8-mb1", true,
      [&] { gspcu::k_diag<P, 8, 1><<<1, gspcu::diag_threads<8>()>>>(d, F, 0, nullptr, false, nullptr, 0); });
  CK(gspcu::diag_cluster_prepare<P>());
  one("diag-cluster4", false, [&] { CK(gspcu::launch_diag<P>(d, F, 0, nullptr, 0, true, false)); });
  cudaEventDestroy(e0), cudaEventDestroy(e1);
  cudaFree(src), cudaFree(d);
}

/* Tiled vs naive on the same input at a size that is not a tile multiple. */
static void verify(int64_t n) {
  const int64_t np = CU->padded_n(GSP_FP32, n);
  float *a = NULL, *b = NULL;
  CK(cudaMalloc((void **)&a, (size_t)np * np * 4));
  CK(cudaMalloc((void **)&b, (size_t)n * n * 4));
  gen(a, GSP_FP32, GSP_MIN_PLUS, n, np, 77);
  CK(cudaMemcpy2D(b, n * 4, a, np * 4, n * 4, n, cudaMemcpyDeviceToDevice));
  bool cycle = false;
  GK(CU->fw_device(a, NULL, n, np, GSP_FP32, GSP_MIN_PLUS, false, false, NULL, &cycle));
  naive_run(b, n);
  std::vector<float> ha((size_t)n * n), hb((size_t)n * n);
  CK(cudaMemcpy2D(ha.data(), n * 4, a, np * 4, n * 4, n, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hb.data(), b, (size_t)n * n * 4, cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t e = 0; e < ha.size(); e++) bad += ha[e] != hb[e];
  printf("verify: tiled vs naive fp32 min_plus M+ n=%lld: %zu of %zu entries differ -> %s\n", (long long)n, bad,
         ha.size(), bad ? "FAIL" : "OK");
  cudaFree(a), cudaFree(b);
  if (bad) exit(1);
}

/* Bool closure: tensor cores vs LOP3, bit for bit, on the same input. */
static void verify_bits(int64_t n) {
  const int64_t np = CU->padded_n(GSP_BOOL, n);
  const size_t bytes = (size_t)np * np / 8;
  uint64_t *a = NULL, *b = NULL;
  CK(cudaMalloc((void **)&a, bytes));
  CK(cudaMalloc((void **)&b, bytes));
  GK(CU->fill_zero(a, np, GSP_BOOL, GSP_OR_AND));
  k_gen_sparse_bits<<<dim3(4, (unsigned)n), 256>>>(a, np / 64, n, 99, 2);
  CK(cudaGetLastError());
  CK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
  GK(CT->fw_bits_impl(b, n, np, false, 0)); /* LOP3 reference */
  std::vector<uint64_t> ha(bytes / 8), hb(bytes / 8), h0(bytes / 8);
  CK(cudaMemcpy(hb.data(), b, bytes, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h0.data(), a, bytes, cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (int depth : {256, 512}) {
    CK(cudaMemcpy(a, h0.data(), bytes, cudaMemcpyHostToDevice));
    GK(CT->fw_bits_impl(a, n, np, false, depth));
    CK(cudaMemcpy(ha.data(), a, bytes, cudaMemcpyDeviceToHost));
    size_t diff = 0, ones = 0;
    for (size_t e = 0; e < ha.size(); e++) {
      diff += ha[e] != hb[e];
      ones += __builtin_popcountll(ha[e]);
    }
    printf(
        "verify: bool M+ n=%lld tensor cores (%d-bit rounds) vs LOP3: %zu of %zu words differ (%.3f of bits set) -> %s\n",
        (long long)n, depth, diff, ha.size(), (double)ones / ((double)n * n), diff ? "FAIL" : "OK");
    bad += diff;
  }
  cudaFree(a), cudaFree(b);
  if (bad) exit(1);
}

/* Our CPU backend (all cores) through the public API, host data. */
static void bench_cpu(int64_t n, int reps) {
  std::vector<float> x((size_t)n * n);
  uint64_t st = 1;
  for (auto &v : x) {
    st = st * 6364136223846793005ULL + 1442695040888963407ULL;
    v = (float)(1 + (st >> 33) % 1000);
  }
  gsp_closure_opts o;
  memset(&o, 0, sizeof o);
  o.backend = GSP_BACKEND_CPU;
  std::vector<double> times;
  for (int r = 0; r <= reps; r++) {
    gsp_matrix M = NULL;
    GK(gsp_matrix_import_dense(&M, GSP_FP32, n, n, x.data(), NULL));
    auto t0 = std::chrono::steady_clock::now();
    GK(gsp_closure_ext(M, NULL, GSP_MIN_PLUS, &o));
    auto t1 = std::chrono::steady_clock::now();
    gsp_matrix_free(&M);
    if (r > 0) times.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  const double sec = median(times), tasks = (double)n * n * n;
  rows.push_back({"gsp-cpu", "fp32", "min_plus", n, sec, tasks / sec, fp32_ceiling(), reps, {-1, -1, -1}});
  printf("  %-14s fp32  min_plus n=%6lld  %9.4f s  %7.3f Ttasks/s\n", "gsp-cpu", (long long)n, sec, tasks / sec / 1e12);
  fflush(stdout);
}

/* End to end through gsp_closure_ext: upload, closure, download. */
static void bench_e2e(int64_t n, int reps) {
  std::vector<float> x((size_t)n * n), y((size_t)n * n);
  uint64_t st = 3;
  for (auto &v : x) {
    st = st * 6364136223846793005ULL + 1442695040888963407ULL;
    v = (float)(1 + (st >> 33) % 1000);
  }
  gsp_closure_opts o;
  memset(&o, 0, sizeof o);
  o.backend = GSP_BACKEND_CUDA;
  const float inf = INFINITY;
  std::vector<double> times;
  for (int r = 0; r <= reps; r++) {
    gsp_matrix M = NULL;
    GK(gsp_matrix_import_dense(&M, GSP_FP32, n, n, x.data(), NULL));
    auto t0 = std::chrono::steady_clock::now();
    GK(gsp_closure_ext(M, NULL, GSP_MIN_PLUS, &o));
    GK(gsp_matrix_export_dense(y.data(), &inf, M));
    auto t1 = std::chrono::steady_clock::now();
    gsp_matrix_free(&M);
    if (r > 0) times.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  const double sec = median(times), tasks = (double)n * n * n;
  rows.push_back({"gpu-end2end", "fp32", "min_plus", n, sec, tasks / sec, fp32_ceiling(), reps, {-1, -1, -1}});
  printf("  %-14s fp32  min_plus n=%6lld  %9.4f s  %7.3f Ttasks/s (host in, host out)\n", "gpu-end2end", (long long)n,
         sec, tasks / sec / 1e12);
  fflush(stdout);
}

/* Every numeric kernel (--types, and the --diag comparisons). */
static const struct {
  gsp_type t;
  gsp_semiring s;
  bool dpx;
  const char *label;
} type_cfg[] = {{GSP_FP32, GSP_MIN_PLUS, false, "tiled"},         {GSP_FP32, GSP_MAX_MIN, false, "tiled"},
                {GSP_FP64, GSP_MIN_PLUS, false, "tiled"},         {GSP_INT32, GSP_MIN_PLUS, true, "tiled-dpx"},
                {GSP_INT32, GSP_MIN_PLUS, false, "tiled-satadd"}, {GSP_INT64, GSP_MIN_PLUS, false, "tiled"}};

int main(int argc, char **argv) {
  bool quick = false, focus = false, user = false, types = false, diag = false, halves = false, fold = false;
  const char *csv = "bench_closure_gpu.csv", *one = NULL;
  int64_t one_n = 0;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--quick")) quick = true;
    else if (!strcmp(argv[a], "--focus")) focus = true;
    else if (!strcmp(argv[a], "--user")) user = true;     /* the kernels behind bench_user_call's rows */
    else if (!strcmp(argv[a], "--types")) types = true;   /* every numeric kernel, 2048 .. 16384, phases */
    else if (!strcmp(argv[a], "--diag")) diag = true;     /* the diagonal kernel alone, fp32 256 .. 16384, phases */
    else if (!strcmp(argv[a], "--halves")) halves = true; /* the other tiles' half-width blocks, on and off */
    else if (!strcmp(argv[a], "--fold"))
      fold = true; /* the next stripe's update, or all of S(r + 1), in the other tiles' grid, on and off */
    else if (!strcmp(argv[a], "--csv") && a + 1 < argc) csv = argv[++a];
    else if (!strcmp(argv[a], "--one") && a + 2 < argc) { /* one closure, for a profiler */ one = argv[++a];
      one_n = atoll(argv[++a]);
    }
  }
  bool ok = false;
  GK(gsp_cuda_available(&ok, device_name, sizeof device_name));
  if (!ok) {
    printf("no usable GPU: %s\n", device_name);
    return 0;
  }
  CU = gsp__cuda_plugin(NULL, 0);
  CT = gsp__cuda_plugin_testing();
  if (!CT) {
    printf("the CUDA backend has no test entry\n");
    return 1;
  }
  printf("device: %s\n", device_name);
  if (one) { /* bool | lop3 | fp32 | fp32path */
    const bool b = !strcmp(one, "bool") || !strcmp(one, "lop3");
    bench_tiled(b ? GSP_BOOL : GSP_FP32, b ? GSP_OR_AND : GSP_MIN_PLUS, one_n, !strcmp(one, "fp32path"), false, 1, one,
                !strcmp(one, "lop3") ? 0 : -1);
    return 0;
  }
  verify(4099);
  if (!diag && !halves && !fold) { /* bool: not touched by --diag, --halves or --fold */
    verify_bits(5000);
    bmma_peak();
  }
  peak_all();
  const int R = 5;
  if (diag) {
    bench_diag<PolNum<GSP_MIN_PLUS, float>>(GSP_FP32, GSP_MIN_PLUS);
    bench_diag<PolNum<GSP_MAX_MIN, float>>(GSP_FP32, GSP_MAX_MIN);
    bench_diag<PolNum<GSP_MIN_PLUS, double>>(GSP_FP64, GSP_MIN_PLUS);
    bench_diag<PolNum<GSP_MIN_PLUS, int64_t>>(GSP_INT64, GSP_MIN_PLUS);
    bench_diag<PolMinPlusU32>(GSP_INT32, GSP_MIN_PLUS);
    bench_diag<PolNum<GSP_MIN_PLUS, int32_t>>(GSP_INT32, GSP_MIN_PLUS); /* saturating */
    for (int64_t n : {256, 512, 1024, 2048})                            /* the call's fixed cost: a few rounds */
      bench_tiled(GSP_FP32, GSP_MIN_PLUS, n, false, false, 21, "tiled", -1, true);
    for (int64_t n : {4096, 16384})
      bench_tiled(GSP_FP32, GSP_MIN_PLUS, n, false, false, n >= 16384 ? 3 : R, "tiled", -1, true);
    /* gsp_cuda_fw_phases variants: bit 0 the diagonal on a cluster, bit 1
     * the other tiles in pairs, bit 2 no programmatic dependent launch in
     * the side chain, bit 3 the stripe update in one piece, bit 4 the
     * panels not after the other tiles, bit 5 after them in any case */
    struct Var {
      const char *sfx;
      int v;
    };
    const Var var[] = {{"-diag1", 0},      {"-diagc", 1},         {"-pairs", 2},          {"-pairsc", 3},
                       {"-nopdl", 4},      {"-pairs-nopdl", 6},   {"-pairs-nosplit", 10}, {"-pairs-q2", 18},
                       {"-pairsc-q2", 19}, {"-pairs-beside", 34}, {"-pairsc-beside", 35}};
    for (int64_t n : {1024, 2048, 4096, 8192})
      for (const auto &v : var)
        bench_tiled(GSP_FP32, GSP_MIN_PLUS, n, false, false, 2 * R, (std::string("tiled") + v.sfx).c_str(), -1, true,
                    v.v);
    for (const auto &c : type_cfg) /* the other kernels where the diagonal's chain sets the pace */
      for (int64_t n : {1024, 2048}) {
        if (c.t == GSP_FP32 && c.s == GSP_MIN_PLUS) continue;
        for (const auto &v : var)
          if (v.v < 4 || v.v >= 18)
            bench_tiled(c.t, c.s, n, false, c.dpx, 2 * R, (std::string(c.label) + v.sfx).c_str(), -1, true, v.v);
      }
  } else if (halves) {
    for (const auto &c : type_cfg)
      for (int64_t n : {256, 512, 1024}) { /* where the other tiles fit in half a wave */
        bench_tiled(c.t, c.s, n, false, c.dpx, 21, c.label);
        bench_tiled(c.t, c.s, n, false, c.dpx, 21, (std::string(c.label) + "-diag1").c_str(), -1, false, 0);
        bench_tiled(c.t, c.s, n, false, c.dpx, 21, (std::string(c.label) + "-diag1-nohalves").c_str(), -1, false,
                    64); /* variant bit 6: no halves */
      }
  } else if (fold) {
    for (const auto &c : type_cfg)
      for (int64_t n : {2560, 4096, 8192}) { /* where the other tiles take more than a wave */
        const int reps = n >= 8192 ? R : 2 * R;
        bench_tiled(c.t, c.s, n, false, c.dpx, reps, c.label);
        bench_tiled(c.t, c.s, n, false, c.dpx, reps, (std::string(c.label) + "-diag1").c_str(), -1, false, 0);
        bench_tiled(c.t, c.s, n, false, c.dpx, reps, (std::string(c.label) + "-diag1-noflow").c_str(), -1, false,
                    512); /* variant bit 9: each side_in_rest round waits for all of the one before */
        bench_tiled(c.t, c.s, n, false, c.dpx, reps, (std::string(c.label) + "-diag1-noside").c_str(), -1, false,
                    256); /* variant bit 8: only the stripe update in R(r) */
        bench_tiled(c.t, c.s, n, false, c.dpx, reps, (std::string(c.label) + "-diag1-nofold").c_str(), -1, false,
                    128); /* variant bit 7: the stripe update on the side stream */
      }
    bench_tiled(GSP_FP32, GSP_MIN_PLUS, 16384, false, false, 3, "tiled-diag1", -1, false, 0);
    bench_tiled(GSP_FP32, GSP_MIN_PLUS, 16384, false, false, 3, "tiled-diag1-noside", -1, false, 256);
    bench_tiled(GSP_FP32, GSP_MIN_PLUS, 16384, false, false, 3, "tiled-diag1-nofold", -1, false, 128);
  } else if (types) {
    for (const auto &c : type_cfg)
      for (int64_t n : {2048, 4096, 8192, 16384})
        bench_tiled(c.t, c.s, n, false, c.dpx, n >= 16384 ? 3 : R, c.label, -1, true);
  } else if (user) { /* kernel alone for each bench_user_call row (device-resident input) */
    for (int64_t n : {4096, 8192, 16384, 32768}) bench_tiled(GSP_FP32, GSP_MIN_PLUS, n, false, false, R, "tiled");
    bench_tiled(GSP_FP32, GSP_MIN_PLUS, 16384, true, false, R, "tiled+paths");
    bench_tiled(GSP_INT32, GSP_MIN_PLUS, 16384, false, true, R, "tiled-dpx");
    bench_tiled(GSP_BOOL, GSP_OR_AND, 32768, false, false, R, "tiled-bits");
  } else if (focus) { /* the rows a kernel change touches */
    bench_tiled(GSP_FP32, GSP_MIN_PLUS, 16384, false, false, R, "tiled");
    bench_tiled(GSP_FP32, GSP_MIN_PLUS, 16384, true, false, R, "tiled+paths");
    for (int64_t n : {16384, 65536}) {
      bench_tiled(GSP_BOOL, GSP_OR_AND, n, false, false, R, "tiled-bmma256", 256);
      bench_tiled(GSP_BOOL, GSP_OR_AND, n, false, false, R, "tiled-bmma512", 512);
    }
  } else if (quick) {
    bench_tiled(GSP_FP32, GSP_MIN_PLUS, 4096, false, false, R, "tiled");
    bench_tiled(GSP_BOOL, GSP_OR_AND, 16384, false, false, R, "tiled-bmma");
  } else {
    bench_tiled(GSP_FP32, GSP_MIN_PLUS, 2048, false, false, R, "tiled");
    bench_tiled(GSP_FP32, GSP_MIN_PLUS, 4096, false, false, R, "tiled");
    bench_tiled(GSP_FP32, GSP_MIN_PLUS, 8192, false, false, R, "tiled");
    bench_tiled(GSP_FP32, GSP_MIN_PLUS, 16384, false, false, R, "tiled");
    bench_tiled(GSP_FP32, GSP_MIN_PLUS, 16384, true, false, R, "tiled+paths");
    bench_tiled(GSP_FP32, GSP_MIN_PLUS, 32768, false, false, R, "tiled");
    bench_tiled(GSP_INT32, GSP_MIN_PLUS, 16384, false, true, R, "tiled-dpx");
    bench_tiled(GSP_INT32, GSP_MIN_PLUS, 8192, false, false, R, "tiled-satadd");
    bench_tiled(GSP_FP32, GSP_MAX_MIN, 8192, false, false, R, "tiled");
    bench_tiled(GSP_FP64, GSP_MIN_PLUS, 8192, false, false, R, "tiled");
    bench_tiled(GSP_INT64, GSP_MIN_PLUS, 8192, false, false, R, "tiled");
    bench_tiled(GSP_BOOL, GSP_OR_AND, 16384, false, false, R, "tiled-lop3", 0);
    bench_tiled(GSP_BOOL, GSP_OR_AND, 65536, false, false, R, "tiled-lop3", 0);
    for (int64_t n : {16384, 32768, 65536}) {
      bench_tiled(GSP_BOOL, GSP_OR_AND, n, false, false, R, "tiled-bmma256", 256);
      bench_tiled(GSP_BOOL, GSP_OR_AND, n, false, false, R, "tiled-bmma512", 512);
    }
    bench_naive(4096, R);
    bench_naive(8192, R);
    bench_e2e(8192, R);
    bench_cpu(2048, R);
    bench_cpu(4096, 3);
  }
  FILE *f = fopen(csv, "w");
  if (f)
    fprintf(f, "device,impl,type,semiring,n,seconds,tasks_per_s,ceiling,fraction,reps,round0_ms,rest_ms,wait_ms\n");
  for (const Ceiling &c : ceilings)
    rows.insert(
        rows.begin() + (&c - ceilings.data()),
        Row{"ceiling", tname(c.t), c.dpx ? "min_plus_dpx" : sname(c.s), 0, 0, c.tasks, c.tasks, 0, {-1, -1, -1}});
  printf("\n%-26s %-13s %-5s %-8s %6s %10s %12s %9s\n", "device", "impl", "type", "semiring", "n", "time_s", "tasks/s",
         "of_ceil");
  for (const Row &r : rows) {
    const double frac = r.ceiling > 0 ? r.tasks / r.ceiling : 0;
    char fr[16];
    if (r.ceiling > 0) snprintf(fr, sizeof fr, "%.3f", frac);
    else snprintf(fr, sizeof fr, "-");
    printf("%-26.26s %-13s %-5s %-8s %6lld %10.4f %12.3e %9s\n", device_name, r.impl.c_str(), r.type.c_str(),
           r.sr.c_str(), (long long)r.n, r.sec, r.tasks, fr);
    char ph[64] = ",,";
    if (r.phase_ms[0] >= 0) snprintf(ph, sizeof ph, "%.4f,%.4f,%.4f", r.phase_ms[0], r.phase_ms[1], r.phase_ms[2]);
    if (f)
      fprintf(f, "\"%s\",%s,%s,%s,%lld,%.6f,%.6e,%.3e,%s,%d,%s\n", device_name, r.impl.c_str(), r.type.c_str(),
              r.sr.c_str(), (long long)r.n, r.sec, r.tasks, r.ceiling, fr, r.reps, ph);
  }
  if (f) fclose(f);
  return 0;
}
