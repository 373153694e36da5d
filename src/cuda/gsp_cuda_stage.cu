/*
 * Pipelined host <-> device transfers through pinned staging buffers (see
 * gsp_cuda_stage.h). The pinned pool is made once per process (pinning
 * costs more than it saves on one call) and shared by calls in turn; a
 * call that finds it busy, or rows too long for its blocks, pins buffers
 * of its own.
 */
#include <stdio.h>
#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <mutex>

#include "gsp_cuda_internal.cuh"
#include "gsp_cuda_stage.h"

#define GSP_STAGE_WORKERS    16
#define GSP_STAGE_BLOCK      ((size_t)4 << 20)   /* bytes a buffer: 2 per worker */
#define GSP_STAGE_PER_WORKER 4                   /* blocks a worker at least, where large enough */
#define GSP_STAGE_MIN_BLOCK  ((size_t)256 << 10) /* bytes: smaller copies lose PCIe rate */

namespace {

struct Pool {
  void *buf[GSP_STAGE_WORKERS][2] = {};
  cudaStream_t stream[GSP_STAGE_WORKERS] = {};
  size_t block = 0;
  int workers = 0;
};

Pool shared_pool;
std::mutex shared_mu;

void pool_free(Pool &p) {
  for (int w = 0; w < p.workers; w++) {
    for (int q = 0; q < 2; q++) gsp__pinned_free(p.buf[w][q]);
    if (p.stream[w]) cudaStreamDestroy(p.stream[w]);
  }
  (void)cudaGetLastError();
  p = Pool();
}

cudaError_t pool_make(Pool &p, int workers, size_t block) {
  p.workers = workers;
  p.block = block;
  for (int w = 0; w < workers; w++) {
    cudaError_t e = cudaStreamCreateWithFlags(&p.stream[w], cudaStreamNonBlocking);
    for (int q = 0; q < 2 && e == cudaSuccess; q++)
      if (!(p.buf[w][q] = gsp__pinned_alloc(block))) e = cudaErrorMemoryAllocation;
    if (e != cudaSuccess) {
      pool_free(p);
      return e;
    }
  }
  return cudaSuccess;
}

struct Job {
  bool up;
  char *d;
  size_t dpitch, row_bytes;
  int64_t rows, block_rows;
  gsp__stage_fn fn;
  void *ctx;
  std::atomic<int64_t> next{0};
  std::atomic<int> err{0}; /* first cudaError_t */
};

void fail(Job &j, cudaError_t e) {
  int zero = 0;
  j.err.compare_exchange_strong(zero, (int)e);
}

/* One worker: blocks r = next++; two buffers alternate, so the conversion of
 * one overlaps the copy of the other. */
void work(Job &j, Pool &p, int w) {
  cudaStream_t s = p.stream[w];
  cudaEvent_t ev[2] = {nullptr, nullptr};
  int64_t pend_r0[2] = {-1, -1}, pend_rn[2] = {0, 0};
  cudaError_t e = cudaEventCreateWithFlags(&ev[0], cudaEventDisableTiming);
  if (e == cudaSuccess) e = cudaEventCreateWithFlags(&ev[1], cudaEventDisableTiming);
  if (e != cudaSuccess) {
    fail(j, e);
    return;
  }
  int q = 0;
  for (;;) {
    if (j.err.load(std::memory_order_relaxed)) break;
    const int64_t b = j.next.fetch_add(1);
    const int64_t r0 = b * j.block_rows;
    if (r0 >= j.rows) break;
    const int64_t rn = r0 + j.block_rows < j.rows ? j.block_rows : j.rows - r0;
    void *buf = p.buf[w][q];
    if (j.up) {
      /* the copy that last read this buffer must be done */
      if (pend_r0[q] >= 0 && (e = cudaEventSynchronize(ev[q])) != cudaSuccess) break;
      j.fn(j.ctx, r0, rn, buf);
      e = j.dpitch == j.row_bytes /* contiguous: one plain copy */
              ? cudaMemcpyAsync(j.d + (size_t)r0 * j.dpitch, buf, j.row_bytes * (size_t)rn, cudaMemcpyHostToDevice, s)
              : cudaMemcpy2DAsync(j.d + (size_t)r0 * j.dpitch, j.dpitch, buf, j.row_bytes, j.row_bytes, (size_t)rn,
                                  cudaMemcpyHostToDevice, s);
      if (e == cudaSuccess) e = cudaEventRecord(ev[q], s);
      if (e != cudaSuccess) break;
      pend_r0[q] = r0;
    } else {
      /* start this block's copy, then drain the other buffer's block */
      e = j.dpitch == j.row_bytes
              ? cudaMemcpyAsync(buf, j.d + (size_t)r0 * j.dpitch, j.row_bytes * (size_t)rn, cudaMemcpyDeviceToHost, s)
              : cudaMemcpy2DAsync(buf, j.row_bytes, j.d + (size_t)r0 * j.dpitch, j.dpitch, j.row_bytes, (size_t)rn,
                                  cudaMemcpyDeviceToHost, s);
      if (e == cudaSuccess) e = cudaEventRecord(ev[q], s);
      if (e != cudaSuccess) break;
      pend_r0[q] = r0;
      pend_rn[q] = rn;
      const int o = q ^ 1;
      if (pend_r0[o] >= 0) {
        if ((e = cudaEventSynchronize(ev[o])) != cudaSuccess) break;
        j.fn(j.ctx, pend_r0[o], pend_rn[o], p.buf[w][o]);
        pend_r0[o] = -1;
      }
    }
    q ^= 1;
  }
  if (e == cudaSuccess && !j.up) /* the last block in flight */
    for (int k = 0; k < 2 && e == cudaSuccess; k++) {
      const int o = q ^ 1 ^ k;
      if (pend_r0[o] < 0) continue;
      if ((e = cudaEventSynchronize(ev[o])) == cudaSuccess) j.fn(j.ctx, pend_r0[o], pend_rn[o], p.buf[w][o]);
      pend_r0[o] = -1;
    }
  if (e == cudaSuccess) e = cudaStreamSynchronize(s);
  if (e != cudaSuccess) fail(j, e);
  cudaEventDestroy(ev[0]);
  cudaEventDestroy(ev[1]);
}

/* The workers are gsp's OpenMP threads (gsp__team): threads of their own
 * compete for the cores with that pool while it still spins after the pass
 * just before (the pack's presence pass): 67 MB took 7 ms that way, 2.5-5
 * ms on the team, for about 1.5 ms of copy. */
struct Team {
  Job *j;
  Pool *p;
  int dev;
};

void team_work(void *c, int t, int nt) {
  (void)nt;
  Team &tm = *(Team *)c;
  if (t > 0 && cudaSetDevice(tm.dev) != cudaSuccess) fail(*tm.j, cudaGetLastError());
  else work(*tm.j, *tm.p, t);
}

gsp_info run(Job &j) {
  gsp_info info = GSP_SUCCESS;
  Pool own;
  std::unique_lock<std::mutex> lock(shared_mu, std::try_to_lock);
  Pool *p = &shared_pool;
#define GSP_FREE_ALL ((void)0)
  if (j.rows <= 0) return info;
  int dev = 0;
  GSP_CUDA_TRY(cudaGetDevice(&dev));
  /* The workers' streams are non-blocking: they do not wait for work on
   * the legacy default stream (the zero fill before an upload, the kernel
   * before a download), so wait for it here. They end synchronized. */
  GSP_CUDA_TRY(cudaDeviceSynchronize());
  if (!lock.owns_lock() || j.row_bytes > GSP_STAGE_BLOCK) {
    /* busy, or rows longer than a block: buffers of this call's own */
    p = &own;
    const size_t block = j.row_bytes > GSP_STAGE_BLOCK ? j.row_bytes : GSP_STAGE_BLOCK;
    GSP_CUDA_TRY(pool_make(own, 2, block));
  } else if (!shared_pool.workers) {
    GSP_CUDA_TRY(pool_make(shared_pool, GSP_STAGE_WORKERS, GSP_STAGE_BLOCK));
  }
#undef GSP_FREE_ALL
#define GSP_FREE_ALL (p == &own ? pool_free(own) : (void)0)
  int W = gsp__threads();
  if (W > p->workers) W = p->workers;
  /* Blocks of at most a buffer, but at least GSP_STAGE_PER_WORKER of them a
   * worker (down to GSP_STAGE_MIN_BLOCK bytes): a transfer of one block per
   * worker would convert everything first and copy it all after, with
   * nothing overlapped (67 MB at n = 4096 then took 11 ms). */
  size_t block = (size_t)j.rows * j.row_bytes / ((size_t)(W > 0 ? W : 1) * GSP_STAGE_PER_WORKER);
  if (block < GSP_STAGE_MIN_BLOCK) block = GSP_STAGE_MIN_BLOCK;
  if (block > p->block) block = p->block;
  j.block_rows = (int64_t)(block / j.row_bytes);
  if (j.block_rows < 1) j.block_rows = 1;
  const int64_t blocks = (j.rows + j.block_rows - 1) / j.block_rows;
  if (W > blocks) W = (int)blocks;
  if (W < 1) W = 1;
  const auto t0 = std::chrono::steady_clock::now();
  Team tm{&j, p, dev};
  gsp__team(W, team_work, &tm);
  if (gsp__burble_on()) { /* what each staged transfer cost */
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double gb = (double)j.rows * (double)j.row_bytes / 1e9;
    gsp__burble("stage: %s %.3f GB in %.2f ms (%.1f GB/s, %d workers)", j.up ? "upload" : "download", gb, s * 1e3,
                s > 0 ? gb / s : 0.0, W);
  }
  const cudaError_t e = (cudaError_t)j.err.load();
  if (e != cudaSuccess) GSP_CUDA_TRY(e);
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

} // namespace

static gsp_info stage(bool up, const void *d, size_t dpitch, int64_t rows, size_t row_bytes, gsp__stage_fn fn,
                      void *ctx) {
  Job j;
  j.up = up;
  j.d = (char *)d;
  j.dpitch = dpitch;
  j.row_bytes = row_bytes;
  j.rows = rows;
  j.fn = fn;
  j.ctx = ctx;
  return run(j);
}

gsp_info gsp__cuda_stage_upload(void *d, size_t dpitch, int64_t rows, size_t row_bytes, gsp__stage_fn fill, void *ctx) {
  return stage(true, d, dpitch, rows, row_bytes, fill, ctx);
}

gsp_info gsp__cuda_stage_download(const void *d, size_t dpitch, int64_t rows, size_t row_bytes, gsp__stage_fn drain,
                                  void *ctx) {
  return stage(false, d, dpitch, rows, row_bytes, drain, ctx);
}

struct RangeCtx {
  int64_t count, per;
  gsp__range_fn body;
  void *ctx;
};

static void range_part(void *c, int t, int nt) {
  (void)nt;
  const RangeCtx &r = *(const RangeCtx *)c;
  const int64_t lo = t * r.per, hi = lo + r.per < r.count ? lo + r.per : r.count;
  if (lo < hi) r.body(r.ctx, lo, hi);
}

void gsp__host_parallel(int64_t count, int64_t grain, gsp__range_fn body, void *ctx) {
  int T = gsp__threads();
  if (count < grain * 2 || T < 2) {
    if (count > 0) body(ctx, 0, count);
    return;
  }
  if ((int64_t)T > count / grain) T = (int)(count / grain);
  /* parts by the team's asked size: a smaller team (nested in a caller's
   * parallel region) runs the others' parts too */
  RangeCtx r{count, (count + T - 1) / T, body, ctx};
  struct Parts {
    RangeCtx *r;
    int T;
  } parts{&r, T};
  gsp__team(
      T,
      [](void *c, int t, int nt) {
        Parts &q = *(Parts *)c;
        for (int k = t; k < q.T; k += nt) range_part(q.r, k, q.T);
      },
      &parts);
}

void *gsp__pinned_alloc(size_t bytes) {
  const size_t page = 4096, len = (bytes + page - 1) / page * page;
  char *p = len ? (char *)aligned_alloc(page, len) : NULL;
  if (!p) return NULL;
  gsp__host_parallel((int64_t)(len / page), 256,
                     [](void *c, int64_t lo, int64_t hi) {
                       for (int64_t k = lo; k < hi; k++) ((volatile char *)c)[k * 4096] = 0;
                     },
                     p);
  if (cudaHostRegister(p, len, cudaHostRegisterDefault) != cudaSuccess) {
    (void)cudaGetLastError();
    free(p);
    return NULL;
  }
  return p;
}

void gsp__pinned_free(void *p) {
  if (!p) return;
  (void)cudaHostUnregister(p);
  (void)cudaGetLastError();
  free(p);
}
