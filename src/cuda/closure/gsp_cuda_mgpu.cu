/*
 * Several GPUs of one host (gsp_cuda_scale.h): one process drives every GPU
 * from one thread, one stream per GPU; the blocks of a Pr x Pc grid, the
 * per-round broadcasts over NCCL (ncclBroadcast inside ncclGroupStart/End,
 * communicators from ncclCommInitAll: all GPUs, each grid row, each grid
 * column), the schedule in gsp_cuda_sched.hpp.
 *
 * NCCL is loaded at run time with dlopen (GSP_NCCL_LIBRARY, else the library
 * CMake found, else libnccl.so.2 on the loader's path), so that libgsp and
 * its consumers never link against it: a machine without NCCL still runs
 * every single-GPU path. Only its header is needed to build this part.
 *
 * NCCL_NVLS_ENABLE is forced to 0 before every communicator is made, even
 * when the user set it: NVLink multicast (NVLS) can take the shared GPUs of
 * a host out of service, and the broadcasts here gain nothing from it.
 */
#include <stdio.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <mutex>
#include <new>
#include <vector>

#include "gsp_cuda_scale.cuh"

#ifdef GSP_HAVE_NCCL
#include <nccl.h>

#include "gsp_nccl_config.h" /* GSP_NCCL_LIBRARY_PATH, written by CMake */
#endif

using gspsched::Grid;
using gspsched::TB;

/* ---- usable devices ---- */

static std::vector<int> usable_devices() {
  std::vector<int> d;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return d;
  }
  for (int k = 0; k < count; k++) {
    int major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, k) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, k) != cudaSuccess) {
      (void)cudaGetLastError();
      continue;
    }
    if (major == 9 && minor == 0) d.push_back(k); /* sm_90a kernels only */
  }
  return d;
}

int gsp_cuda_usable_count(void) {
  return (int)usable_devices().size();
}

/* Restores the caller's current device on scope exit. */
struct DeviceGuard {
  int dev = -1;
  DeviceGuard() {
    if (cudaGetDevice(&dev) != cudaSuccess) {
      (void)cudaGetLastError();
      dev = -1;
    }
  }
  ~DeviceGuard() {
    if (dev >= 0) cudaSetDevice(dev);
    (void)cudaGetLastError();
  }
};

/* ---- NCCL ---- */

#ifdef GSP_HAVE_NCCL
typedef ncclComm_t comm_t;

namespace {
struct NcclApi {
  void *lib = nullptr;
  decltype(&ncclCommInitAll) init_all = nullptr;
  decltype(&ncclCommDestroy) destroy = nullptr;
  decltype(&ncclBroadcast) bcast = nullptr;
  decltype(&ncclGroupStart) group_start = nullptr;
  decltype(&ncclGroupEnd) group_end = nullptr;
  decltype(&ncclGetErrorString) error_string = nullptr;
  char why[512] = "";
};
NcclApi api;
std::mutex api_lock; /* loading, NCCL_NVLS_ENABLE, communicator cache */

#ifndef GSP_NCCL_LIBRARY_PATH
#define GSP_NCCL_LIBRARY_PATH "libnccl.so.2"
#endif

/* nccl: the caller's library setting (GSP_NCCL_LIBRARY), or NULL */
bool load_nccl(const char *nccl) {
  if (api.lib) return true;
  const char *cands[] = {nccl, GSP_NCCL_LIBRARY_PATH, "libnccl.so.2", "libnccl.so"};
  void *lib = nullptr;
  const char *err = "no candidate";
  for (const char *c : cands) {
    if (!c) continue;
    lib = dlopen(c, RTLD_NOW | RTLD_LOCAL);
    if (lib) break;
    err = dlerror();
  }
  if (!lib) {
    snprintf(api.why, sizeof api.why, "cannot load NCCL (%s); set GSP_NCCL_LIBRARY to libnccl.so.2", err);
    return false;
  }
  NcclApi a;
  a.lib = lib;
  a.init_all = (decltype(a.init_all))dlsym(lib, "ncclCommInitAll");
  a.destroy = (decltype(a.destroy))dlsym(lib, "ncclCommDestroy");
  a.bcast = (decltype(a.bcast))dlsym(lib, "ncclBroadcast");
  a.group_start = (decltype(a.group_start))dlsym(lib, "ncclGroupStart");
  a.group_end = (decltype(a.group_end))dlsym(lib, "ncclGroupEnd");
  a.error_string = (decltype(a.error_string))dlsym(lib, "ncclGetErrorString");
  if (!a.init_all || !a.destroy || !a.bcast || !a.group_start || !a.group_end || !a.error_string) {
    snprintf(api.why, sizeof api.why, "NCCL library lacks a needed symbol");
    dlclose(lib);
    return false;
  }
  api = a;
  return true;
}

gsp_info nccl_error(ncclResult_t r, const char *what) {
  return GSP_ERROR(GSP_DEVICE_ERROR, "NCCL error %d: %s (%s)", (int)r, api.error_string ? api.error_string(r) : "?",
                   what);
}
} // namespace
#else
typedef void *comm_t;
#endif

/* Communicators of one grid: world[g], row[g] (g's grid row), col[g]. */
struct CommSet {
  std::vector<int> devs;
  int Pr = 0, Pc = 0;
  std::vector<comm_t> world, row, col;
  bool empty() const {
    return devs.empty();
  }
};

#ifdef GSP_HAVE_NCCL
namespace {
CommSet cache; /* one idle set, reused by the next context of the same shape */

void comms_destroy(CommSet &c) {
  for (auto *v : {&c.world, &c.row, &c.col})
    for (comm_t x : *v)
      if (x) api.destroy(x);
  c = CommSet();
}

gsp_info init_group(std::vector<comm_t> &dst, const std::vector<int> &grid_gpus, const std::vector<int> &devs) {
  std::vector<int> list;
  for (int g : grid_gpus) list.push_back(devs[g]);
  std::vector<comm_t> tmp(list.size(), nullptr);
  /* forced, not a default: see the file comment */
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  ncclResult_t r = api.init_all(tmp.data(), (int)list.size(), list.data());
  if (r != ncclSuccess) return nccl_error(r, "ncclCommInitAll");
  for (size_t k = 0; k < grid_gpus.size(); k++) dst[grid_gpus[k]] = tmp[k];
  return GSP_SUCCESS;
}

/* Communicators for devs arranged as g (caller holds api_lock). */
gsp_info comms_get(CommSet *out, const std::vector<int> &devs, const Grid &g) {
  if (!cache.empty()) {
    if (cache.devs == devs && cache.Pr == g.Pr && cache.Pc == g.Pc) {
      *out = cache;
      cache = CommSet();
      return GSP_SUCCESS;
    }
    comms_destroy(cache);
  }
  CommSet c;
  c.devs = devs;
  c.Pr = g.Pr;
  c.Pc = g.Pc;
  c.world.assign(g.G, nullptr);
  c.row.assign(g.G, nullptr);
  c.col.assign(g.G, nullptr);
  gsp_info info = GSP_SUCCESS;
  std::vector<int> all;
  for (int k = 0; k < g.G; k++) all.push_back(k);
  if (g.G > 1) info = init_group(c.world, all, devs);
  for (int r = 0; r < g.Pr && info == GSP_SUCCESS && g.Pc > 1; r++) {
    std::vector<int> members;
    for (int cc = 0; cc < g.Pc; cc++) members.push_back(g.gpu(r, cc));
    info = init_group(c.row, members, devs);
  }
  for (int cc = 0; cc < g.Pc && info == GSP_SUCCESS && g.Pr > 1; cc++) {
    std::vector<int> members;
    for (int r = 0; r < g.Pr; r++) members.push_back(g.gpu(r, cc));
    info = init_group(c.col, members, devs);
  }
  if (info != GSP_SUCCESS) {
    comms_destroy(c);
    return info;
  }
  *out = c;
  return GSP_SUCCESS;
}

void comms_put(CommSet &c) {
  if (c.empty()) return;
  std::lock_guard<std::mutex> lk(api_lock);
  if (cache.empty()) cache = c;
  else comms_destroy(c);
  c = CommSet();
}
} // namespace
#endif

bool gsp_cuda_mgpu_built(void) {
#ifdef GSP_HAVE_NCCL
  return true;
#else
  return false;
#endif
}

/* ---- context ---- */

struct gsp_mgpu_s {
  gsp_type t;
  size_t ts;
  int64_t n, np;
  Grid grid;
  std::vector<int> devs;
  std::vector<cudaStream_t> streams;
  std::vector<void *> D, DG, DGT, W, RP;
  std::vector<int *> flag;
  CommSet comms;
};

static size_t block_bytes(const Grid &g, size_t ts, int r, int c) {
  const size_t R = (size_t)g.rows(r), C = (size_t)g.cols(c);
  return (R * C + 2 * (size_t)TB * TB + (size_t)TB * R + (size_t)TB * C) * ts + 256;
}

size_t gsp_cuda_mgpu_bytes(gsp_type t, int64_t n, int gpus) {
  if (t == GSP_BOOL || gpus < 1 || n < 1) return 0;
  Grid g;
  if (!gspsched::make_grid(&g, gpus, n, gsp_cuda_padded_n(t, n))) return 0;
  size_t most = 0;
  for (int r = 0; r < g.Pr; r++)
    for (int c = 0; c < g.Pc; c++) most = std::max(most, block_bytes(g, gsp_type_size(t), r, c));
  return most;
}

void gsp_cuda_mgpu_destroy(gsp_cuda_mgpu m) {
  if (!m) return;
  {
    DeviceGuard guard;
    for (size_t d = 0; d < m->devs.size(); d++) {
      if (cudaSetDevice(m->devs[d]) != cudaSuccess) continue;
      if (d < m->streams.size() && m->streams[d]) cudaStreamSynchronize(m->streams[d]);
      for (auto *v : {&m->D, &m->DG, &m->DGT, &m->W, &m->RP})
        if (d < v->size() && (*v)[d]) cudaFree((*v)[d]);
      if (d < m->flag.size() && m->flag[d]) cudaFree(m->flag[d]);
      if (d < m->streams.size() && m->streams[d]) cudaStreamDestroy(m->streams[d]);
    }
    (void)cudaGetLastError();
  }
#ifdef GSP_HAVE_NCCL
  comms_put(m->comms);
#endif
  delete m;
}

gsp_info gsp_cuda_mgpu_create(gsp_cuda_mgpu *out, gsp_type t, int64_t n, int gpus, size_t cap_per_gpu,
                              const char *nccl) {
  static const char *const fn = "gsp_closure (CUDA, several GPUs)";
  gsp_info info = GSP_SUCCESS;
  *out = nullptr;
  if (t == GSP_BOOL || n < 1 || gpus < 1) return GSP_ERROR(GSP_PANIC, "%s: numeric types, n >= 1, gpus >= 1", fn);
  std::vector<int> usable = usable_devices();
  if ((int)usable.size() < gpus)
    return GSP_ERROR(GSP_NO_DEVICE, "%s: %d GPUs asked for, %d usable", fn, gpus, (int)usable.size());
#ifndef GSP_HAVE_NCCL
  if (gpus > 1)
    return GSP_ERROR(GSP_NO_DEVICE, "%s: this build has no multi-GPU path (NCCL was not found at build time)", fn);
#else
  if (gpus > 1) {
    std::lock_guard<std::mutex> lk(api_lock);
    if (!load_nccl(nccl)) return GSP_ERROR(GSP_NO_DEVICE, "%s: %s", fn, api.why);
  }
#endif
  gsp_mgpu_s *m = new (std::nothrow) gsp_mgpu_s;
  if (!m) return GSP_ERROR(GSP_OUT_OF_MEMORY, "%s: cannot allocate the context", fn);
#define GSP_FREE_ALL gsp_cuda_mgpu_destroy(m)
  DeviceGuard guard;
  m->t = t;
  m->ts = gsp_type_size(t);
  m->n = n;
  m->np = gsp_cuda_padded_n(t, n);
  m->devs.assign(usable.begin(), usable.begin() + gpus);
  GSP_CHECK(gspsched::make_grid(&m->grid, gpus, n, m->np), GSP_INVALID_VALUE,
            "%s: n = %lld is too small to split over %d GPUs (fewer 128-vertex tiles than GPUs in a grid row)", fn,
            (long long)n, gpus);
  const Grid &g = m->grid;
  const int G = g.G;
  m->streams.assign(G, nullptr);
  for (auto *v : {&m->D, &m->DG, &m->DGT, &m->W, &m->RP}) v->assign(G, nullptr);
  m->flag.assign(G, nullptr);
  for (int r = 0; r < g.Pr; r++)
    for (int c = 0; c < g.Pc; c++) {
      const int d = g.gpu(r, c);
      const size_t need = block_bytes(g, m->ts, r, c);
      GSP_CHECK(cap_per_gpu == 0 || need <= cap_per_gpu, GSP_DEVICE_OUT_OF_MEMORY,
                "%s: a %lld x %lld block needs %zu bytes on GPU %d, over the cap of %zu bytes", fn,
                (long long)g.rows(r), (long long)g.cols(c), need, m->devs[d], cap_per_gpu);
      GSP_CUDA_TRY(cudaSetDevice(m->devs[d]));
      size_t free_b = 0, total_b = 0;
      GSP_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
      GSP_CHECK(need <= free_b, GSP_DEVICE_OUT_OF_MEMORY, "%s: a %lld x %lld block needs %zu bytes on GPU %d, %zu free",
                fn, (long long)g.rows(r), (long long)g.cols(c), need, m->devs[d], free_b);
      GSP_CUDA_TRY(cudaStreamCreateWithFlags(&m->streams[d], cudaStreamNonBlocking));
      GSP_CUDA_TRY(cudaMalloc(&m->D[d], (size_t)g.rows(r) * g.cols(c) * m->ts));
      GSP_CUDA_TRY(cudaMalloc(&m->DG[d], (size_t)TB * TB * m->ts));
      GSP_CUDA_TRY(cudaMalloc(&m->DGT[d], (size_t)TB * TB * m->ts));
      GSP_CUDA_TRY(cudaMalloc(&m->W[d], (size_t)TB * g.rows(r) * m->ts));
      GSP_CUDA_TRY(cudaMalloc(&m->RP[d], (size_t)TB * g.cols(c) * m->ts));
      GSP_CUDA_TRY(cudaMalloc((void **)&m->flag[d], sizeof(int)));
    }
#ifdef GSP_HAVE_NCCL
  if (G > 1) {
    std::lock_guard<std::mutex> lk(api_lock);
    GSP_TRY(comms_get(&m->comms, m->devs, g));
  }
#endif
  *out = m;
#undef GSP_FREE_ALL
  return info;
}

void gsp_cuda_mgpu_grid(const gsp_cuda_mgpu m, int *grid_rows, int *grid_cols) {
  *grid_rows = m->grid.Pr;
  *grid_cols = m->grid.Pc;
}

void gsp_cuda_mgpu_block(const gsp_cuda_mgpu m, int g, void **d, int *device, int64_t *row0, int64_t *rows,
                         int64_t *col0, int64_t *cols) {
  const int r = g / m->grid.Pc, c = g % m->grid.Pc;
  *d = m->D[g];
  *device = m->devs[g];
  *row0 = m->grid.rb[r];
  *rows = m->grid.rows(r);
  *col0 = m->grid.cb[c];
  *cols = m->grid.cols(c);
}

static gsp_info fill_block(gsp_cuda_mgpu m, int d, gsp_semiring s) {
  const Grid &g = m->grid;
  const int r = d / g.Pc, c = d % g.Pc;
  switch (m->t) {
  case GSP_INT32:
    return gsp__cuda_fill2d_i32(m->D[d], g.rows(r), g.cols(c), g.cols(c), s, m->streams[d]);
  case GSP_INT64:
    return gsp__cuda_fill2d_i64(m->D[d], g.rows(r), g.cols(c), g.cols(c), s, m->streams[d]);
  case GSP_FP32:
    return gsp__cuda_fill2d_f32(m->D[d], g.rows(r), g.cols(c), g.cols(c), s, m->streams[d]);
  default:
    return gsp__cuda_fill2d_f64(m->D[d], g.rows(r), g.cols(c), g.cols(c), s, m->streams[d]);
  }
}

static gsp_info sync_all(gsp_cuda_mgpu m) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  for (int d = 0; d < m->grid.G; d++) {
    GSP_CUDA_TRY(cudaSetDevice(m->devs[d]));
    GSP_CUDA_TRY(cudaStreamSynchronize(m->streams[d]));
  }
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_cuda_mgpu_fill(gsp_cuda_mgpu m, gsp_semiring s) {
  gsp_info info = GSP_SUCCESS;
  DeviceGuard guard;
#define GSP_FREE_ALL ((void)0)
  for (int d = 0; d < m->grid.G; d++) {
    GSP_CUDA_TRY(cudaSetDevice(m->devs[d]));
    GSP_TRY(fill_block(m, d, s));
  }
  GSP_TRY(sync_all(m));
#undef GSP_FREE_ALL
  return info;
}

/* Copies between H (n x n, ld n) and the blocks, all GPUs at once; H is
 * page-locked for the duration when the host allows it. */
static gsp_info transfer(gsp_cuda_mgpu m, void *H, bool up, gsp_semiring s) {
  gsp_info info = GSP_SUCCESS;
  DeviceGuard guard;
  const Grid &g = m->grid;
  const int64_t n = m->n;
  const size_t ts = m->ts;
  const bool registered = cudaHostRegister(H, (size_t)n * n * ts, cudaHostRegisterPortable) == cudaSuccess;
  (void)cudaGetLastError();
#define GSP_FREE_ALL (registered ? (void)cudaHostUnregister(H) : (void)0, (void)cudaGetLastError())
  for (int r = 0; r < g.Pr; r++)
    for (int c = 0; c < g.Pc; c++) {
      const int d = g.gpu(r, c);
      const int64_t r0 = g.rb[r], c0 = g.cb[c];
      const int64_t vr = std::max<int64_t>(0, std::min(g.rb[r + 1], n) - r0);
      const int64_t vc = std::max<int64_t>(0, std::min(g.cb[c + 1], n) - c0);
      unsigned char *h = (unsigned char *)H + ((size_t)r0 * n + c0) * ts;
      GSP_CUDA_TRY(cudaSetDevice(m->devs[d]));
      if (up) GSP_TRY(fill_block(m, d, s));
      if (vr > 0 && vc > 0) {
        if (up)
          GSP_CUDA_TRY(cudaMemcpy2DAsync(m->D[d], g.cols(c) * ts, h, n * ts, vc * ts, vr, cudaMemcpyHostToDevice,
                                         m->streams[d]));
        else
          GSP_CUDA_TRY(cudaMemcpy2DAsync(h, n * ts, m->D[d], g.cols(c) * ts, vc * ts, vr, cudaMemcpyDeviceToHost,
                                         m->streams[d]));
      }
    }
  GSP_TRY(sync_all(m));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_cuda_mgpu_upload(gsp_cuda_mgpu m, const void *H, gsp_semiring s) {
  return transfer(m, (void *)H, true, s);
}

gsp_info gsp_cuda_mgpu_download(gsp_cuda_mgpu m, void *H) {
  return transfer(m, H, false, GSP_MIN_PLUS);
}

gsp_info gsp_cuda_mgpu_run(gsp_cuda_mgpu m, gsp_semiring s, bool reflexive, bool nonneg_i32,
                           const gsp__progress *progress, bool *cycle) {
  DeviceGuard guard;
  *cycle = false;
  if (!gsp_semiring_path_encoding(s))
    return GSP_ERROR(GSP_PANIC, "gsp_cuda_mgpu_run: semiring %d has no numeric kernel", (int)s);
  gsp_mgpu_view v;
  v.grid = &m->grid;
  v.devs = m->devs.data();
  v.streams = m->streams.data();
  v.D = m->D.data();
  v.DG = m->DG.data();
  v.DGT = m->DGT.data();
  v.W = m->W.data();
  v.RP = m->RP.data();
  v.flag = m->flag.data();
  v.ctx = m;
  v.progress = progress;
  switch (m->t) {
  case GSP_INT32:
    return gsp__cuda_mgpu_i32(v, s, nonneg_i32, reflexive, cycle);
  case GSP_INT64:
    return gsp__cuda_mgpu_i64(v, s, false, reflexive, cycle);
  case GSP_FP32:
    return gsp__cuda_mgpu_f32(v, s, false, reflexive, cycle);
  default:
    return gsp__cuda_mgpu_f64(v, s, false, reflexive, cycle);
  }
}

gsp_info gsp__mgpu_bcast(struct gsp_mgpu_s *m, const gsp_bcast_bytes *ops, int nops) {
#ifdef GSP_HAVE_NCCL
  ncclResult_t first = ncclSuccess;
  ncclResult_t r = api.group_start();
  if (r != ncclSuccess) return nccl_error(r, "ncclGroupStart");
  for (int k = 0; k < nops; k++) {
    const gsp_bcast_bytes &o = ops[k];
    const std::vector<comm_t> &set = o.comm == gspsched::COMM_WORLD ? m->comms.world
                                     : o.comm == gspsched::COMM_ROW ? m->comms.row
                                                                    : m->comms.col;
    r = api.bcast(o.send, o.recv, o.bytes, ncclUint8, o.root, set[o.gpu], m->streams[o.gpu]);
    if (r != ncclSuccess && first == ncclSuccess) first = r;
  }
  r = api.group_end(); /* always closes the group, also after an error */
  if (first != ncclSuccess) return nccl_error(first, "ncclBroadcast");
  if (r != ncclSuccess) return nccl_error(r, "ncclGroupEnd");
  return GSP_SUCCESS;
#else
  (void)m, (void)ops, (void)nops;
  return GSP_ERROR(GSP_PANIC, "gsp_closure (CUDA): no NCCL in this build");
#endif
}
