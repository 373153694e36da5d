/*
 * Closure past one GPU's memory and over several GPUs, FP32 min-plus on a
 * complete random graph (integer weights 1..1000, so every schedule gives
 * the same bits):
 *   (a) out of core with the device capped at a quarter of the matrix vs the
 *       in-core closure (device-resident), n = 32768 by default;
 *   (b) a matrix larger than the (capped) device: out of core, n = 65536
 *       with an 8 GiB cap by default (--big-n / --big-cap; --big-gpus G > 1
 *       runs it over G GPUs instead, e.g. n = 200000 on 4 H200);
 *   (c) 1, 2 and 4 GPUs (as many as are visible) at n = 65536.
 * Also measures the bandwidths the time model of docs/distributed.md uses:
 * pinned host <-> device (each way and both at once) and GPU 0 -> GPU 1.
 * Every result is checked against the in-core closure by a checksum over
 * all n^2 entries (position-hashed, so a moved or wrong entry changes it).
 * Prints one table and writes CSV rows.
 *
 *   bench_closure_scale [--parts abc] [--csv FILE] [--ooc-n N] [--mg-n N]
 *                       [--big-n N] [--big-cap BYTES] [--big-gpus G] [--reps R]
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part */
#define GSP_HAVE_CUDA    1
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

#include "closure_scale.h"
#include "gsp.h"
#include "gsp_cuda_plugin.h"

#include "bench_cuda_check.h"

/* the plugin's gateway table (the library calls it only through it) */
static const gsp__cuda_api *CU;

static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static __host__ __device__ __forceinline__ uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static __host__ __device__ __forceinline__ float weight(uint64_t seed, int64_t i, int64_t j, int64_t n) {
  return (float)(1 + mix(seed ^ (uint64_t)(i * n + j) * 0x9E3779B97F4A7C15ULL) % 1000);
}

/* rows x cols block at global (r0, c0), leading dimension ld, of the n x n
 * graph; entries outside n x n are left alone (the padding). */
__global__ void k_gen(float *d, int64_t ld, int64_t r0, int64_t rows, int64_t c0, int64_t cols, int64_t n,
                      uint64_t seed) {
  for (int64_t i = blockIdx.y; i < rows; i += gridDim.y)
    for (int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; j < cols; j += (int64_t)gridDim.x * blockDim.x)
      if (r0 + i < n && c0 + j < n) d[i * ld + j] = weight(seed, r0 + i, c0 + j, n);
}

/* Position-hashed checksum of the n x n part of a block. */
__global__ void k_sum(const float *d, int64_t ld, int64_t r0, int64_t rows, int64_t c0, int64_t cols, int64_t n,
                      unsigned long long *out) {
  unsigned long long h = 0;
  for (int64_t i = blockIdx.y; i < rows; i += gridDim.y)
    for (int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; j < cols; j += (int64_t)gridDim.x * blockDim.x)
      if (r0 + i < n && c0 + j < n) {
        uint32_t b;
        memcpy(&b, &d[i * ld + j], 4);
        h += mix((uint64_t)((r0 + i) * n + c0 + j)) * (b | 1ull);
      }
  for (int o = 16; o > 0; o /= 2) h += __shfl_down_sync(0xffffffffu, h, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, h);
}

static unsigned long long dev_sum(const float *d, int64_t ld, int64_t r0, int64_t rows, int64_t c0, int64_t cols,
                                  int64_t n) {
  unsigned long long *o = NULL, h = 0;
  CK(cudaMalloc((void **)&o, sizeof *o));
  CK(cudaMemset(o, 0, sizeof *o));
  k_sum<<<dim3(8, (unsigned)std::min<int64_t>(rows, 65535)), 256>>>(d, ld, r0, rows, c0, cols, n, o);
  CK(cudaGetLastError());
  CK(cudaMemcpy(&h, o, sizeof h, cudaMemcpyDeviceToHost));
  CK(cudaFree(o));
  return h;
}

static unsigned long long host_sum(const float *H, int64_t n) {
  const int T = std::max(1u, std::min(32u, std::thread::hardware_concurrency()));
  std::vector<unsigned long long> part(T, 0);
  std::vector<std::thread> th;
  for (int t = 0; t < T; t++)
    th.emplace_back([&, t] {
      unsigned long long h = 0;
      for (int64_t i = t; i < n; i += T)
        for (int64_t j = 0; j < n; j++) {
          uint32_t b;
          memcpy(&b, &H[i * n + j], 4);
          h += mix((uint64_t)(i * n + j)) * (b | 1ull);
        }
      part[t] = h;
    });
  for (auto &x : th) x.join();
  unsigned long long h = 0;
  for (auto p : part) h += p;
  return h;
}

/* H (n x n, pinned or not) := the graph, generated on the device in slabs. */
static void host_gen(float *H, int64_t n, uint64_t seed) {
  const int64_t R = std::max<int64_t>(1, ((int64_t)256 << 20) / (n * 4));
  float *d = NULL;
  CK(cudaMalloc((void **)&d, (size_t)R * n * 4));
  for (int64_t r0 = 0; r0 < n; r0 += R) {
    const int64_t rn = std::min(R, n - r0);
    k_gen<<<dim3(16, (unsigned)std::min<int64_t>(rn, 65535)), 256>>>(d, n, r0, rn, 0, n, n, seed);
    CK(cudaGetLastError());
    CK(cudaMemcpy(H + r0 * n, d, (size_t)rn * n * 4, cudaMemcpyDeviceToHost));
  }
  CK(cudaFree(d));
}

struct Row {
  std::string part, impl;
  int64_t n;
  int gpus;
  double cap_gib;
  int64_t pages;
  int slots;
  double sec, tasks, vs;
  std::string note;
};
static std::vector<Row> rows;
static char device_name[256];

static void print_row(const Row &r) {
  printf("  %-2s %-22s n=%6lld gpus=%d cap=%6.2f GiB pages=%3lld slots=%d  %9.3f s  %7.3f Ttasks/s  %5.2fx  %s\n",
         r.part.c_str(), r.impl.c_str(), (long long)r.n, r.gpus, r.cap_gib, (long long)r.pages, r.slots, r.sec,
         r.tasks / 1e12, r.vs, r.note.c_str());
  fflush(stdout);
}

/* ---- bandwidths ---- */
static void bandwidths() {
  const size_t B = (size_t)1 << 30;
  float *h1 = NULL, *h2 = NULL, *d1 = NULL, *d2 = NULL;
  CK(cudaMallocHost((void **)&h1, B));
  CK(cudaMallocHost((void **)&h2, B));
  CK(cudaMalloc((void **)&d1, B));
  CK(cudaMalloc((void **)&d2, B));
  memset(h1, 1, B);
  memset(h2, 2, B);
  cudaStream_t s1, s2;
  CK(cudaStreamCreate(&s1));
  CK(cudaStreamCreate(&s2));
  auto timed = [&](int which) {
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
      CK(cudaDeviceSynchronize());
      double t0 = now();
      if (which & 1) CK(cudaMemcpyAsync(d1, h1, B, cudaMemcpyHostToDevice, s1));
      if (which & 2) CK(cudaMemcpyAsync(h2, d2, B, cudaMemcpyDeviceToHost, s2));
      CK(cudaDeviceSynchronize());
      best = std::min(best, now() - t0);
    }
    return B / best / 1e9;
  };
  const double h2d = timed(1), d2h = timed(2), both = timed(3);
  printf("bandwidth: pinned host->device %.1f GB/s, device->host %.1f GB/s, both at once %.1f GB/s each way\n", h2d,
         d2h, both);
  rows.push_back({"bw", "pcie-h2d", 0, 1, 0, 0, 0, 0, h2d * 1e9, 0, "bytes/s"});
  rows.push_back({"bw", "pcie-d2h", 0, 1, 0, 0, 0, 0, d2h * 1e9, 0, "bytes/s"});
  rows.push_back({"bw", "pcie-both-each", 0, 1, 0, 0, 0, 0, both * 1e9, 0, "bytes/s"});
  int count = 0;
  CK(cudaGetDeviceCount(&count));
  if (count > 1) {
    int can = 0;
    CK(cudaDeviceCanAccessPeer(&can, 0, 1));
    float *p1 = NULL;
    CK(cudaSetDevice(1));
    CK(cudaMalloc((void **)&p1, B));
    if (can) cudaDeviceEnablePeerAccess(0, 0);
    CK(cudaSetDevice(0));
    if (can) cudaDeviceEnablePeerAccess(1, 0);
    (void)cudaGetLastError();
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
      CK(cudaDeviceSynchronize());
      double t0 = now();
      CK(cudaMemcpyPeerAsync(p1, 1, d1, 0, B, s1));
      CK(cudaStreamSynchronize(s1));
      best = std::min(best, now() - t0);
    }
    printf("bandwidth: GPU 0 -> GPU 1 %.1f GB/s (peer access %s)\n", B / best / 1e9, can ? "on" : "off");
    rows.push_back({"bw", "gpu0-gpu1", 0, 2, 0, 0, 0, 0, B / best, 0, can ? "peer" : "no peer"});
    if (can) cudaDeviceDisablePeerAccess(1);
    CK(cudaSetDevice(1));
    if (can) cudaDeviceDisablePeerAccess(0);
    (void)cudaGetLastError();
    CK(cudaFree(p1));
    CK(cudaSetDevice(0));
  }
  cudaStreamDestroy(s1), cudaStreamDestroy(s2);
  cudaFreeHost(h1), cudaFreeHost(h2), cudaFree(d1), cudaFree(d2);
}

/* In-core closure on device 0 (device-resident, as bench_closure_gpu):
 * median seconds of reps; *sum the checksum of the last result. */
static double in_core(int64_t n, int reps, uint64_t seed, unsigned long long *sum) {
  const int64_t np = CU->padded_n(GSP_FP32, n);
  float *d = NULL;
  CK(cudaMalloc((void **)&d, (size_t)np * np * 4));
  std::vector<double> t;
  for (int r = 0; r < reps; r++) {
    GK(CU->fill_zero(d, np, GSP_FP32, GSP_MIN_PLUS));
    k_gen<<<dim3(16, (unsigned)std::min<int64_t>(n, 65535)), 256>>>(d, np, 0, n, 0, n, n, seed);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    bool cycle = false;
    const double t0 = now();
    GK(CU->fw_device(d, NULL, n, np, GSP_FP32, GSP_MIN_PLUS, true, false, NULL, &cycle));
    CK(cudaDeviceSynchronize());
    t.push_back(now() - t0);
  }
  *sum = dev_sum(d, np, 0, n, 0, n, n);
  CK(cudaFree(d));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/* Out of core on device 0 within `cap` bytes; H pinned once (outside the
 * timing; its cost is reported). */
static void out_of_core(const char *part, int64_t n, size_t cap, int reps, uint64_t seed, double ref_sec,
                        unsigned long long ref_sum) {
  const size_t bytes = (size_t)n * n * 4;
  float *H = (float *)malloc(bytes);
  if (!H) {
    fprintf(stderr, "cannot allocate %zu bytes of host memory\n", bytes);
    exit(1);
  }
  double t0 = now();
  memset(H, 0, bytes); /* first touch: the VM grows its memory here */
  const double touch = now() - t0;
  t0 = now();
  const bool pinned = cudaHostRegister(H, bytes, cudaHostRegisterPortable) == cudaSuccess;
  (void)cudaGetLastError();
  const double pin = now() - t0;
  printf("  %s: host matrix %.1f GiB: first touch %.2f s, cudaHostRegister %.2f s (%s)\n", part, bytes / 1073741824.0,
         touch, pin, pinned ? "pinned" : "FAILED: pageable copies");
  std::vector<double> t;
  gsp_cuda_ooc_report rep;
  memset(&rep, 0, sizeof rep);
  gsp__ooc_plan plan; /* the plan gsp_closure's branch would make for this budget */
  if (!gsp__ooc_plan_make(&plan, CU->padded_n(GSP_FP32, n), sizeof(float), cap, 0, 0)) {
    fprintf(stderr, "n = %lld: no out-of-core page plan fits %zu bytes\n", (long long)n, cap);
    exit(1);
  }
  for (int r = 0; r < reps; r++) {
    host_gen(H, n, seed);
    bool cycle = false;
    const double s0 = now();
    GK(CU->fw_ooc(H, n, GSP_FP32, GSP_MIN_PLUS, true, &plan, NULL, &cycle, &rep));
    t.push_back(now() - s0);
    if (cycle) {
      fprintf(stderr, "unexpected cycle\n");
      exit(1);
    }
  }
  std::sort(t.begin(), t.end());
  const double sec = t[t.size() / 2], tasks = (double)n * n * n / sec;
  const unsigned long long sum = host_sum(H, n);
  const double moved = (double)(rep.loads + rep.stores) * rep.page_rows * n * 4;
  char note[256];
  snprintf(note, sizeof note, "%s; %.0f GB moved, %.1f GB/s; checksum %s", ref_sum ? "vs in-core" : "", moved / 1e9,
           moved / sec / 1e9,
           !ref_sum         ? "n/a"
           : sum == ref_sum ? "= in-core"
                            : "DIFFERS");
  Row row{part,      "out-of-core", n,   1,     cap / 1073741824.0,
          rep.pages, rep.slots,     sec, tasks, ref_sec > 0 ? ref_sec / sec : 0,
          note};
  rows.push_back(row);
  print_row(row);
  if (ref_sum && sum != ref_sum) {
    fprintf(stderr, "out-of-core result differs from in-core\n");
    exit(1);
  }
  if (pinned) cudaHostUnregister(H);
  free(H);
}

/* G GPUs, blocks generated in place: median seconds of reps of the run. */
static double multi_gpu(const char *part, int64_t n, int G, int reps, uint64_t seed, double ref_sec,
                        unsigned long long ref_sum) {
  gsp_cuda_mgpu m = NULL;
  GK(CU->mgpu_create(&m, GSP_FP32, n, G, 0, NULL));
  int pr = 0, pc = 0;
  CU->mgpu_grid(m, &pr, &pc);
  std::vector<double> t;
  unsigned long long sum = 0;
  for (int r = 0; r < reps; r++) {
    GK(CU->mgpu_fill(m, GSP_MIN_PLUS));
    for (int g = 0; g < G; g++) {
      void *d;
      int dev;
      int64_t r0, nr, c0, nc;
      CU->mgpu_block(m, g, &d, &dev, &r0, &nr, &c0, &nc);
      CK(cudaSetDevice(dev));
      k_gen<<<dim3(16, (unsigned)std::min<int64_t>(nr, 65535)), 256>>>((float *)d, nc, r0, nr, c0, nc, n, seed);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
    }
    CK(cudaSetDevice(0));
    bool cycle = false;
    const double t0 = now();
    GK(CU->mgpu_run(m, GSP_MIN_PLUS, true, false, NULL, &cycle));
    t.push_back(now() - t0);
  }
  for (int g = 0; g < G; g++) {
    void *d;
    int dev;
    int64_t r0, nr, c0, nc;
    CU->mgpu_block(m, g, &d, &dev, &r0, &nr, &c0, &nc);
    CK(cudaSetDevice(dev));
    sum += dev_sum((const float *)d, nc, r0, nr, c0, nc, n);
  }
  CK(cudaSetDevice(0));
  CU->mgpu_destroy(m);
  std::sort(t.begin(), t.end());
  const double sec = t[t.size() / 2];
  char note[128];
  snprintf(note, sizeof note, "grid %dx%d; checksum %s", pr, pc,
           !ref_sum         ? "n/a"
           : sum == ref_sum ? "= 1 GPU"
                            : "DIFFERS");
  Row row{part, "multi-gpu", n, G, 0, 0, 0, sec, (double)n * n * n / sec, ref_sec > 0 ? ref_sec / sec : 0, note};
  rows.push_back(row);
  print_row(row);
  if (ref_sum && sum != ref_sum) {
    fprintf(stderr, "multi-GPU result differs from one GPU\n");
    exit(1);
  }
  return sec;
}

static size_t parse_bytes(const char *s) {
  char *end;
  double v = strtod(s, &end);
  switch (*end) {
  case 'k':
  case 'K':
    v *= 1024;
    break;
  case 'm':
  case 'M':
    v *= 1048576;
    break;
  case 'g':
  case 'G':
    v *= 1073741824.0;
    break;
  default:
    break;
  }
  return (size_t)v;
}

int main(int argc, char **argv) {
  std::string parts = "abc";
  const char *csv = "bench_closure_scale.csv";
  int64_t ooc_n = 32768, mg_n = 65536, big_n = 65536;
  size_t big_cap = (size_t)8 << 30;
  int big_gpus = 1, reps = 3;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--parts") && a + 1 < argc) parts = argv[++a];
    else if (!strcmp(argv[a], "--csv") && a + 1 < argc) csv = argv[++a];
    else if (!strcmp(argv[a], "--ooc-n") && a + 1 < argc) ooc_n = atoll(argv[++a]);
    else if (!strcmp(argv[a], "--mg-n") && a + 1 < argc) mg_n = atoll(argv[++a]);
    else if (!strcmp(argv[a], "--big-n") && a + 1 < argc) big_n = atoll(argv[++a]);
    else if (!strcmp(argv[a], "--big-cap") && a + 1 < argc) big_cap = parse_bytes(argv[++a]);
    else if (!strcmp(argv[a], "--big-gpus") && a + 1 < argc) big_gpus = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
    else {
      fprintf(stderr, "unknown argument %s\n", argv[a]);
      return 2;
    }
  }
  bool ok = false;
  GK(gsp_cuda_available(&ok, device_name, sizeof device_name));
  if (!ok) {
    printf("no usable GPU: %s\n", device_name);
    return 0;
  }
  CU = gsp__cuda_plugin(NULL, 0);
  int gpus = 0;
  GK(gsp_cuda_device_count(&gpus));
  printf("device: %s, %d usable GPUs, multi-GPU path %s\n", device_name, gpus,
         CU->mgpu_built() ? "built" : "NOT built");
  bandwidths();
  { /* warm-up: kernels loaded, clocks up */
    unsigned long long s;
    in_core(4096, 2, 1, &s);
  }
  const uint64_t seed = 12345;
  double ref_mg = 0;
  unsigned long long sum_mg = 0;
  const bool need_mg_ref =
      parts.find('c') != std::string::npos || (parts.find('b') != std::string::npos && big_n == mg_n && big_gpus <= 1);

  if (parts.find('a') != std::string::npos) {
    unsigned long long s = 0;
    const double sec = in_core(ooc_n, reps, seed, &s);
    Row row{"a", "in-core", ooc_n, 1, 0, 1, 0, sec, (double)ooc_n * ooc_n * ooc_n / sec, 1, "device-resident"};
    rows.push_back(row);
    print_row(row);
    out_of_core("a", ooc_n, (size_t)ooc_n * ooc_n * 4 / 4, reps, seed, sec, s);
  }
  if (need_mg_ref) {
    ref_mg = in_core(mg_n, 1, seed, &sum_mg);
    Row row{"c", "in-core", mg_n, 1, 0, 1, 0, ref_mg, (double)mg_n * mg_n * mg_n / ref_mg, 1, "device-resident"};
    rows.push_back(row);
    print_row(row);
  }
  if (parts.find('c') != std::string::npos && CU->mgpu_built()) {
    for (int G : {2, 4})
      if (G <= gpus) multi_gpu("c", mg_n, G, G == 2 ? 2 : 3, seed, ref_mg, sum_mg);
  }
  if (parts.find('b') != std::string::npos) {
    if (big_gpus > 1) multi_gpu("b", big_n, big_gpus, 1, seed, 0, 0);
    else out_of_core("b", big_n, big_cap, 1, seed, big_n == mg_n ? ref_mg : 0, big_n == mg_n ? sum_mg : 0);
  }

  FILE *f = fopen(csv, "w");
  if (f) {
    fprintf(f, "device,part,impl,n,gpus,cap_gib,pages,slots,seconds,tasks_per_s,speedup_vs_ref,note\n");
    for (auto &r : rows)
      fprintf(f, "\"%s\",%s,%s,%lld,%d,%.3f,%lld,%d,%.6f,%.6e,%.4f,\"%s\"\n", device_name, r.part.c_str(),
              r.impl.c_str(), (long long)r.n, r.gpus, r.cap_gib, (long long)r.pages, r.slots, r.sec, r.tasks, r.vs,
              r.note.c_str());
    fclose(f);
  }
  printf("\ndevice  %s\n", device_name);
  printf("  part impl                   n        gpus cap          pages slots     time       rate    vs ref\n");
  for (auto &r : rows)
    if (r.part != "bw") print_row(r);
  return 0;
}
