/*
 * Many-source shortest paths on the GPU (gateway gsp_cuda_msssp), after
 * Okuyama et al.'s task-parallel scheme; the kernels and the layout are in
 * gsp_cuda_msssp_kernels.cuh. This file is the host pipeline:
 *
 *  - batches of N sources; per batch the relaxation rounds are queued ahead
 *    (as many as the last batch needed) and the host reads one flag only
 *    when that many have run, so rounds cost a launch, not a round trip;
 *  - while the device relaxes batch b a host thread of its own copies
 *    batch b-1 out of pinned staging into the result rows (with OpenMP
 *    threads; the presence bytes and parents, widened to int64 unless
 *    int32 was asked for, on the way),
 *    so the output transfer and the host page faults overlap the device
 *    work, and the thread that drives the device never waits for them
 *    (with parents the rows take about as long as the rounds: driven from
 *    one thread, the device idled while the host copied);
 *  - the device turns each finished batch source-major through a shared
 *    memory transpose, so one contiguous copy holds nb whole rows; that
 *    copy runs on a second stream, beside the next batch's rounds (the
 *    next transpose waits for it).
 *
 * Phase times (events and host clock) go to the caller's stats.
 *
 * Parents: the rounds are those of distances alone; then the recording
 * pass, and a BFS over tight arcs only for batches with ties (see the
 * kernels). The BFS keeps its levels in the parents' transpose buffer,
 * free until the batch's transpose.
 */
#include <stdlib.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "gsp_cuda_msssp_kernels.cuh"

namespace gsp_sssp_cu {

/* The host side of the batch copies, on a thread of its own. Each job is
 * one batch of rows: while its copy is still on the way, the job maps the
 * rows' new pages (first touch: the kernel zeroes them, the costliest part
 * of writing them); then it gathers the rows from staging into the result.
 *
 * Presence: result rows are mostly complete (a strongly connected graph
 * has every cell), and untouched presence pages cost nothing, so the rows
 * are gathered with a count only. The first batch that lacks cells starts
 * the presence: the bytes of the rows before it are set, its own come from
 * its distances in place, and every later batch writes them as it goes.
 *
 * Jobs run in order; done counts the finished ones. Without a thread (the
 * system refused one) post() runs the job in place. */
struct Gatherer {
  struct Job {
    cudaEvent_t ev;
    gsp__sssp_sink rows;
    const void *sd, *sp;
    int64_t at, cells; /* first cell of the rows in the result, count */
  };
  gsp_type type;
  const void *lim;
  uint8_t *b[2]; /* the whole presence arrays (of dist, of parents) */
  int dev = 0, threads = 1;
  bool marking = false; /* presence started */
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Job> q;
  int64_t done = 0, total = 0;
  double copy_s = 0; /* gathering, after the copy arrived */
  cudaError_t err = cudaSuccess;
  bool stop = false;
  std::thread th;

  Gatherer(gsp_type t, const void *l, uint8_t *present, uint8_t *ppresent) : type(t), lim(l), b{present, ppresent} {
    (void)cudaGetDevice(&dev);
    /* one core is left to the thread that drives the device: with all of
     * them gathering (OpenMP's idle threads spin a while after each pass),
     * the driver waited for a core before it could queue the next rounds,
     * and the device idled. Okuyama's random graph, |V| = 4677, on a
     * 16-core H100 host: calls spread 14-29 ms with 16 threads. */
    const int all = gsp__threads();
    threads = all > 1 ? all - 1 : 1;
    try {
      th = std::thread([this] { loop(); });
    } catch (...) {}
  }
  ~Gatherer() {
    close();
  }

  /* Rows into the result; the cells present among them. */
  int64_t gather(const Job &j) {
    gsp__sssp_sink rows = j.rows;
    if (!marking) rows.b[0] = rows.b[1] = NULL;
    const int64_t c = gsp__sssp_gather(&rows, type, lim, false, 0, j.cells, j.sd, j.sp, 4, threads);
    if (marking || c == j.cells) return c;
    marking = true;
    for (int k = 0; k < 2; k++)
      if (b[k]) gsp__sssp_present_all(b[k], j.at, threads);
    const gsp__sssp_sink pres = {j.rows.dist, NULL, NULL, {j.rows.b[0], j.rows.b[1], NULL}};
    return gsp__sssp_gather(&pres, type, lim, false, 0, j.cells, NULL, NULL, 0, threads);
  }
  void run(const Job &j) {
    if (cudaEventQuery(j.ev) == cudaErrorNotReady) {
      const gsp__sssp_sink rows = {j.rows.dist, j.rows.parent, NULL, {NULL, NULL, NULL}, j.rows.parent32};
      gsp__sssp_touch(&rows, type, j.cells, threads);
    }
    const cudaError_t e = cudaEventSynchronize(j.ev);
    const double t1 = host_seconds();
    const int64_t c = e == cudaSuccess && err == cudaSuccess ? gather(j) : 0;
    std::lock_guard<std::mutex> g(mu);
    if (e != cudaSuccess && err == cudaSuccess) err = e;
    total += c, copy_s += host_seconds() - t1;
    done++;
    cv.notify_all();
  }
  void loop() {
    (void)cudaSetDevice(dev);
    std::unique_lock<std::mutex> g(mu);
    for (;;) {
      cv.wait(g, [this] { return stop || !q.empty(); });
      if (q.empty()) return;
      const Job j = q.front();
      q.pop_front();
      g.unlock();
      run(j);
      g.lock();
    }
  }
  void post(const Job &j) {
    if (!th.joinable()) return run(j);
    std::lock_guard<std::mutex> g(mu);
    q.push_back(j);
    cv.notify_all();
  }
  /* Until k jobs have finished; the seconds waited. */
  double wait_done(int64_t k) {
    const double t0 = host_seconds();
    std::unique_lock<std::mutex> g(mu);
    cv.wait(g, [this, k] { return done >= k; });
    return host_seconds() - t0;
  }
  /* The queued jobs run, then the thread ends. */
  void close() {
    {
      std::lock_guard<std::mutex> g(mu);
      stop = true;
      cv.notify_all();
    }
    if (th.joinable()) th.join();
  }
};

/* Timing events of one batch, on the compute stream: rounds start, rounds
 * done, parents done, transpose done; on the copy stream: copy done. */
enum { EV_START = 0, EV_RELAXED, EV_PARENTS, EV_TRANSPOSED, EV_COPIED, EV_COUNT };

/* Pinned staging slots: a batch's rows wait in one until the gatherer has
 * them. A third slot (the gatherer a batch further behind) measured no
 * better at |V| = 65536 on an H200, within the host's run-to-run spread. */
constexpr int MS_SLOTS = 2;

/* Pinned host staging: the flag word and MS_SLOTS slots, each pinned on its
 * own and kept between calls (pinning costs more than a small all-pairs
 * run). One call at a time uses the pool; a concurrent one pins its own. */
struct Staging {
  int *flag = NULL;
  unsigned char *slot[MS_SLOTS] = {};
  size_t cap = 0; /* bytes of each slot */
};
static std::mutex pool_mu;
static bool pool_busy = false; /* a call holds the pool */
static Staging pool;

static void staging_free(Staging *s) {
  if (s->flag) cudaFreeHost(s->flag);
  for (int k = 0; k < MS_SLOTS; k++) gsp__pinned_free(s->slot[k]);
  *s = Staging();
}

/* A call's staging. The slots it lacks are pinned on a thread of its own,
 * slot 0 first, while the call uploads the graph and the device relaxes
 * the first batches: a batch waits only for its own slot, before its copy
 * out (at |V| = 65536, two slots of 256 MiB: gsp__pinned_alloc, about
 * 40 ms each; cudaHostAlloc took 160-200 ms each and held the driver's lock,
 * so the first call of a process spent 358 ms before its first batch). */
struct Pinned {
  Staging s;
  bool pooled = false;
  int dev = 0;
  std::thread th;
  std::mutex mu;
  std::condition_variable cv;
  int ready = 0; /* slots pinned */
  cudaError_t err = cudaSuccess;

  void pin_slots() {
    (void)cudaSetDevice(dev);
    for (int k = ready; k < MS_SLOTS; k++) {
      void *p = gsp__pinned_alloc(s.cap);
      std::lock_guard<std::mutex> g(mu);
      if (!p) {
        err = cudaErrorMemoryAllocation;
        cv.notify_all();
        return;
      }
      s.slot[k] = (unsigned char *)p;
      ready++;
      cv.notify_all();
    }
  }
  /* Slot k once it is pinned. */
  cudaError_t slot(int k, unsigned char **out, double *waited) {
    const double t0 = host_seconds();
    std::unique_lock<std::mutex> g(mu);
    cv.wait(g, [this, k] { return ready > k || err != cudaSuccess; });
    *waited += host_seconds() - t0;
    *out = s.slot[k];
    return ready > k ? cudaSuccess : err;
  }
};

/* The flag now; the slots of `bytes` each as they are pinned (Pinned::slot). */
static gsp_info pinned_get(Pinned *pin, size_t bytes) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  {
    std::lock_guard<std::mutex> g(pool_mu);
    if (!pool_busy) pool_busy = true, pin->pooled = true, pin->s = pool, pool = Staging();
  }
  if (pin->s.cap < bytes) { /* slots too small (or none): new ones */
    for (int k = 0; k < MS_SLOTS; k++) gsp__pinned_free(pin->s.slot[k]), pin->s.slot[k] = NULL;
    pin->s.cap = bytes;
  }
  if (!pin->s.flag) GSP_CUDA_TRY(cudaHostAlloc((void **)&pin->s.flag, 64, cudaHostAllocDefault));
  while (pin->ready < MS_SLOTS && pin->s.slot[pin->ready]) pin->ready++;
  if (pin->ready == MS_SLOTS) return info;
  GSP_CUDA_TRY(cudaGetDevice(&pin->dev));
  try {
    pin->th = std::thread([pin] { pin->pin_slots(); });
  } catch (...) {
    pin->pin_slots(); /* no thread: pinned in place */
  }
#undef GSP_FREE_ALL
  return info;
}

/* The slots back to the pool (or freed), once the pinning thread is done. */
static void pinned_put(Pinned *pin) {
  if (pin->th.joinable()) pin->th.join();
  if (pin->err != cudaSuccess || !pin->pooled) staging_free(&pin->s);
  if (pin->pooled) {
    std::lock_guard<std::mutex> g(pool_mu);
    pool = pin->s, pool_busy = false;
  }
  pin->s = Staging(), pin->pooled = false, pin->ready = 0, pin->err = cudaSuccess;
}

template <class T> struct Run {
  typedef typename Key<T>::K K;
  MsBatch<K> b;
  DevGraph g;
  cudaStream_t st = NULL, cs = NULL;        /* compute, copies */
  cudaEvent_t ev[MS_SLOTS] = {};            /* batch copied out (slot = batch % MS_SLOTS), for the host */
  cudaEvent_t fev = NULL;                   /* a flag read */
  cudaEvent_t tev[MS_SLOTS][EV_COUNT] = {}; /* timing, by slot */
  int *hflag = NULL;                        /* pinned */
  unsigned grid = 1;
  int queued = 0;                    /* rounds queued in this batch */
  int rounds = 0;                    /* rounds run, all batches */
  double t_call = 0;                 /* host clock at the call's start */
  double wait_s = 0;                 /* host time spent waiting for the device */
  gsp_cuda_sssp_stats *stats = NULL; /* the call's phase times */
  bool par = false;                  /* parents asked */
  int32_t *Sh = NULL, *Sd = NULL;    /* the sources as int32: host, device */
  T *Tdist = NULL;                   /* the batch source-major, for the copy out */
  int32_t *Tpar = NULL;              /* its parents (before: the tie BFS's levels) */
};

/* Add slot k's phase times to the stats (its events have all completed). */
template <class T> static void add_phases(Run<T> &R, int k, bool parents) {
  gsp_cuda_sssp_stats &s = *R.stats;
  float ms[4] = {0, 0, 0, 0};
  cudaEvent_t *e = R.tev[k];
  if (cudaEventElapsedTime(&ms[0], e[EV_START], e[EV_RELAXED]) != cudaSuccess ||
      (parents && cudaEventElapsedTime(&ms[1], e[EV_RELAXED], e[EV_PARENTS]) != cudaSuccess) ||
      cudaEventElapsedTime(&ms[2], parents ? e[EV_PARENTS] : e[EV_RELAXED], e[EV_TRANSPOSED]) != cudaSuccess ||
      cudaEventElapsedTime(&ms[3], e[EV_TRANSPOSED], e[EV_COPIED]) != cudaSuccess) {
    (void)cudaGetLastError(); /* timing only: never an error of the call */
    return;
  }
  s.relax_s += ms[0] * 1e-3, s.parent_s += ms[1] * 1e-3, s.transpose_s += ms[2] * 1e-3, s.d2h_s += ms[3] * 1e-3;
  s.batches++;
}

/* Queue rounds [r0, r1) of the current batch. */
template <class T> static gsp_info queue_rounds(Run<T> &R, int r0, int r1, T lim) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  for (int r = r0; r < r1; r++) {
    ms_round<T><<<R.grid, 256, 0, R.st>>>(R.b, R.g, r, lim);
    GSP_CUDA_LAUNCHED();
  }
#undef GSP_FREE_ALL
  return info;
}

/* Device int (alive flag slot) to the host, after everything queued. */
template <class T> static gsp_info read_flag(Run<T> &R, int slot, int *out) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  GSP_CUDA_TRY(cudaMemcpyAsync(R.hflag, R.b.alive + slot, sizeof(int), cudaMemcpyDeviceToHost, R.st));
  GSP_CUDA_TRY(cudaEventRecord(R.fev, R.st));
  const double t0 = host_seconds();
  GSP_CUDA_TRY(cudaEventSynchronize(R.fev));
  R.wait_s += host_seconds() - t0;
  *out = *R.hflag;
#undef GSP_FREE_ALL
  return info;
}

/* Queue more rounds until the last one saw no change. */
template <class T> static gsp_info converge(Run<T> &R, T lim) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  int step = 8;
  for (;;) {
    int alive = 0;
    GSP_TRY(read_flag(R, (R.queued - 1) % 3, &alive));
    if (!alive) break;
    GSP_TRY(queue_rounds<T>(R, R.queued, R.queued + step, lim));
    R.queued += step;
    if (step < 256) step *= 2;
  }
#undef GSP_FREE_ALL
  return info;
}

/* Distances to +inf, masks and flags cleared, lanes [0, nb) seeded. */
template <class T> static gsp_info seed(Run<T> &R, int nb) {
  gsp_info info = GSP_SUCCESS;
  typedef Key<T> KT;
#define GSP_FREE_ALL ((void)0)
  const int64_t cells = (int64_t)R.b.n * R.b.N;
  fill_kernel<typename KT::K><<<blocks_for(cells), 256, 0, R.st>>>(R.b.D, cells, KT::enc(KT::inf()));
  GSP_CUDA_LAUNCHED();
  GSP_CUDA_TRY(cudaMemsetAsync(R.b.chg, 0, (size_t)3 * R.b.n * sizeof(uint32_t), R.st));
  GSP_CUDA_TRY(cudaMemsetAsync(R.b.alive, 0, MS_FLAGS * sizeof(int), R.st));
  ms_seed<typename KT::K><<<blocks_for(nb), 256, 0, R.st>>>(R.b, nb, KT::enc((T)0));
  GSP_CUDA_LAUNCHED();
#undef GSP_FREE_ALL
  return info;
}

/* The batch's ties (cells the recording pass left, GSP_MS_TIE): BFS levels
 * over tight arcs in Lv (n*N), one launch per level, until none grows. */
template <class T> static gsp_info tie_bfs(Run<T> &R, int32_t *Lv, int64_t k0, int nb) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  const int64_t cells = (int64_t)R.b.n * R.b.N;
  ms_tie_seed<<<blocks_for(cells), 256, 0, R.st>>>(R.b.P, Lv, cells);
  GSP_CUDA_LAUNCHED();
  for (int32_t k = 1;; k++) {
    int grew = 0, open = 0;
    GSP_CUDA_TRY(cudaMemsetAsync(R.b.alive + MS_GREW, 0, 2 * sizeof(int), R.st));
    ms_tie_round<T><<<R.grid, 256, 0, R.st>>>(R.b, R.g, Lv, k);
    GSP_CUDA_LAUNCHED();
    GSP_TRY(read_flag(R, MS_GREW, &grew));
    if (grew) continue;
    GSP_TRY(read_flag(R, MS_NOPATH, &open));
    GSP_CHECK(!open, GSP_PANIC, "gsp_msssp: sources %lld..%lld reach a vertex with no tight path", (long long)k0,
              (long long)(k0 + nb - 1));
    if (k - 1 > R.stats->tie_levels) R.stats->tie_levels = k - 1;
    break;
  }
#undef GSP_FREE_ALL
  return info;
}

static void destroy_events(cudaEvent_t *e, int count) {
  for (int k = 0; k < count; k++)
    if (e[k]) cudaEventDestroy(e[k]), e[k] = NULL;
}

/* msssp_typed's result arrays (gsp_cuda_msssp's), n cells a source. */
template <class T> struct MsOut {
  T *dist;
  int64_t *parent;
  int32_t *parent32;
  uint8_t *present, *ppresent;
};

/* Batch bi: sources k0 .. k0 + nb - 1, in staging and event slot k. */
struct BatchPos {
  int bi, k, nb;
  int64_t k0;
};

/* The call's staging (pinned slots, the sources as int32) and device state
 * in R: the graph with its in-arcs, the streams, events and buffers. What
 * it makes, msssp_typed frees, also on error. */
template <class T>
static gsp_info call_setup(Run<T> &R, Pinned &pin, const gsp_cuda_arrays *A, const int64_t *src, int64_t nsrc, int N) {
  gsp_info info = GSP_SUCCESS;
  typedef typename Key<T>::K K;
#define GSP_FREE_ALL ((void)0)
  const int32_t n = (int32_t)A->nrows;
  const size_t cells = (size_t)n * (size_t)N, ts = sizeof(T);
  /* staging: the flag, and MS_SLOTS slots of (values, parents) pinned
   * beside the work below */
  const size_t slot = cells * ts + (R.par ? cells * sizeof(int32_t) : 0);
  GSP_TRY(pinned_get(&pin, slot));
  R.hflag = pin.s.flag;
  R.Sh = (int32_t *)gsp__malloc_array((size_t)nsrc, sizeof *R.Sh);
  GSP_CHECK(R.Sh != NULL, GSP_OUT_OF_MEMORY, "gsp_msssp: cannot stage %lld sources", (long long)nsrc);
  for (int64_t k = 0; k < nsrc; k++) R.Sh[k] = (int32_t)src[k];
  GSP_TRY(graph_upload(&R.g, A, true));
  GSP_CUDA_TRY(cudaStreamCreateWithFlags(&R.st, cudaStreamNonBlocking));
  GSP_CUDA_TRY(cudaStreamCreateWithFlags(&R.cs, cudaStreamNonBlocking));
  /* the waits spin: the driving thread keeps the core the gatherer leaves
   * it (Gatherer::threads) and queues the next rounds at once (sleeping
   * waits: rounds 10.4 ms against 9.8 at |V| = 4677 on an H100) */
  const unsigned wait_flags = cudaEventDisableTiming;
  for (int k = 0; k < MS_SLOTS; k++) GSP_CUDA_TRY(cudaEventCreateWithFlags(&R.ev[k], wait_flags));
  GSP_CUDA_TRY(cudaEventCreateWithFlags(&R.fev, wait_flags));
  for (int k = 0; k < MS_SLOTS; k++)
    for (int e = 0; e < EV_COUNT; e++) GSP_CUDA_TRY(cudaEventCreate(&R.tev[k][e]));
  GSP_CU_MALLOC(R.b.D, cells, sizeof(K));
  GSP_CU_MALLOC(R.b.chg, 3 * (size_t)n, sizeof(uint32_t));
  GSP_CU_MALLOC(R.b.alive, MS_FLAGS, sizeof(int));
  GSP_CU_MALLOC(R.Sd, nsrc, sizeof(int32_t));
  GSP_CU_MALLOC(R.Tdist, cells, ts);
  if (R.par) {
    GSP_CU_MALLOC(R.b.P, cells, sizeof(int32_t));
    GSP_CU_MALLOC(R.Tpar, cells, sizeof(int32_t));
  }
  GSP_CUDA_TRY(cudaMemcpyAsync(R.Sd, R.Sh, (size_t)nsrc * sizeof *R.Sh, cudaMemcpyHostToDevice, R.st));
  R.b.n = n, R.b.N = N, R.b.C = N / 32;
  R.grid = blocks_for((int64_t)n * R.b.C * 32);
#undef GSP_FREE_ALL
  return info;
}

/* Batch bp's rounds: *est of them queued ahead (as many as the last batch
 * needed, then updated), more until the last one changed nothing. */
template <class T> static gsp_info batch_relax(Run<T> &R, const BatchPos &bp, T lim, int *est) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  const int k = bp.k;
  if (bp.bi >= MS_SLOTS) { /* slot k's timing events, of batch bi - MS_SLOTS, are reused */
    const double t0 = host_seconds();
    GSP_CUDA_TRY(cudaEventSynchronize(R.tev[k][EV_COPIED]));
    R.wait_s += host_seconds() - t0;
    add_phases(R, k, R.par);
  }
  R.b.S = R.Sd + bp.k0;
  GSP_CUDA_TRY(cudaEventRecord(R.tev[k][EV_START], R.st));
  GSP_TRY(seed(R, bp.nb));
  R.queued = *est;
  GSP_TRY(queue_rounds<T>(R, 0, *est, lim));
  GSP_TRY(converge<T>(R, lim));
  *est = R.queued;
  R.rounds += R.queued;
  GSP_CUDA_TRY(cudaEventRecord(R.tev[k][EV_RELAXED], R.st));
#undef GSP_FREE_ALL
  return info;
}

/* Batch bp's parents (the recording pass; the tie BFS where it left ties),
 * then the batch source-major into R.Tdist and R.Tpar. */
template <class T> static gsp_info batch_transpose(Run<T> &R, const BatchPos &bp, T lim) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  const int32_t n = R.b.n;
  const int k = bp.k, nb = bp.nb;
  /* the transpose buffers are free once the last batch's copy is done
   * (long before: a batch's rounds take several times its copy) */
  if (bp.bi > 0) GSP_CUDA_TRY(cudaStreamWaitEvent(R.st, R.ev[(bp.bi - 1) % MS_SLOTS], 0));
  if (R.par) {
    int ties = 0;
    ms_parents<T><<<R.grid, 256, 0, R.st>>>(R.b, R.g, nb, lim);
    GSP_CUDA_LAUNCHED();
    GSP_TRY(read_flag(R, MS_TIES, &ties));
    R.stats->ties += ties;
    if (ties) GSP_TRY(tie_bfs(R, R.Tpar, bp.k0, nb));
    GSP_CUDA_TRY(cudaEventRecord(R.tev[k][EV_PARENTS], R.st));
  }
  const dim3 tg((unsigned)((n + 31) / 32), (unsigned)((nb + 31) / 32)), tb(32, 8);
  ms_transpose<T><<<tg, tb, 0, R.st>>>(R.b, R.b.P, R.Tdist, R.Tpar, n, R.b.N, nb);
  GSP_CUDA_LAUNCHED();
  GSP_CUDA_TRY(cudaEventRecord(R.tev[k][EV_TRANSPOSED], R.st));
#undef GSP_FREE_ALL
  return info;
}

/* Batch bp's rows out: copied into staging slot k on the copy stream,
 * then gathered into out by G's thread. */
template <class T>
static gsp_info batch_copy(Run<T> &R, Pinned &pin, Gatherer &G, const MsOut<T> &out, const BatchPos &bp) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL ((void)0)
  const int32_t n = R.b.n;
  const int k = bp.k, nb = bp.nb;
  const size_t cells = (size_t)n * (size_t)R.b.N, ts = sizeof(T);
  /* staging slot k is free once the gatherer is done with batch bi - MS_SLOTS
   * (and its events with it) */
  R.wait_s += G.wait_done(bp.bi - (MS_SLOTS - 1));
  /* the copy runs on its own stream, beside the next batch's rounds */
  GSP_CUDA_TRY(cudaStreamWaitEvent(R.cs, R.tev[k][EV_TRANSPOSED], 0));
  unsigned char *sl = NULL;
  GSP_CUDA_TRY(pin.slot(k, &sl, &R.wait_s));
  GSP_CUDA_TRY(cudaMemcpyAsync(sl, R.Tdist, (size_t)nb * n * ts, cudaMemcpyDeviceToHost, R.cs));
  if (R.par)
    GSP_CUDA_TRY(
        cudaMemcpyAsync(sl + cells * ts, R.Tpar, (size_t)nb * n * sizeof(int32_t), cudaMemcpyDeviceToHost, R.cs));
  GSP_CUDA_TRY(cudaEventRecord(R.tev[k][EV_COPIED], R.cs));
  GSP_CUDA_TRY(cudaEventRecord(R.ev[k], R.cs));
  /* then the gatherer's job: the single-source gather (one parallel pass:
   * values, presence of both results, parents widened or copied) over
   * these rows */
  const size_t at = (size_t)bp.k0 * (size_t)n;
  const gsp__sssp_sink rows = {out.dist + at,
                               out.parent ? out.parent + at : NULL,
                               NULL,
                               {out.present + at, R.par && out.ppresent ? out.ppresent + at : NULL, NULL},
                               out.parent32 ? out.parent32 + at : NULL};
  G.post({R.ev[k], rows, sl, R.par ? sl + cells * ts : NULL, (int64_t)at, (int64_t)nb * n});
#undef GSP_FREE_ALL
  return info;
}

template <class T>
static gsp_info msssp_typed(T *dist, int64_t *parent, int32_t *parent32, uint8_t *present, uint8_t *ppresent,
                            int64_t *nvals, const gsp_cuda_arrays *A, const int64_t *src, int64_t nsrc, T lim, int N,
                            gsp_cuda_sssp_stats *stats) {
  gsp_info info = GSP_SUCCESS;
  Run<T> R;
  R.stats = stats;
  R.t_call = host_seconds();
  memset(&R.b, 0, sizeof R.b);
  memset(&R.g, 0, sizeof R.g);
  Pinned pin;
  const bool par = parent || parent32;
  R.par = par;
  Gatherer G(type_of<T>(), &lim, present, par ? ppresent : NULL);
#define GSP_FREE_ALL                                                                                                  \
  (R.st ? (void)cudaStreamSynchronize(R.st) : (void)0, R.cs ? (void)cudaStreamSynchronize(R.cs) : (void)0, G.close(), \
   graph_free(&R.g), cudaFree(R.b.D), cudaFree(R.b.P), cudaFree(R.b.chg), cudaFree(R.b.alive), cudaFree(R.Sd),        \
   cudaFree(R.Tdist), cudaFree(R.Tpar), destroy_events(R.ev, MS_SLOTS),                                               \
   R.fev ? (void)cudaEventDestroy(R.fev) : (void)0, destroy_events(&R.tev[0][0], MS_SLOTS * EV_COUNT),                \
   R.cs ? (void)cudaStreamDestroy(R.cs) : (void)0, R.st ? (void)cudaStreamDestroy(R.st) : (void)0, pinned_put(&pin),  \
   gsp__free(R.Sh), (void)cudaGetLastError())
  GSP_TRY(call_setup<T>(R, pin, A, src, nsrc, N));
  const MsOut<T> out = {dist, parent, parent32, present, ppresent};
  R.stats->setup_s = host_seconds() - R.t_call; /* staging, upload, buffers: before the first batch */
  int est = 8;                                  /* rounds to queue before the first look: the last batch's count */
  const int nbatch = (int)((nsrc + N - 1) / N);
  for (int bi = 0; bi < nbatch; bi++) {
    const int64_t k0 = (int64_t)bi * N;
    const BatchPos bp = {bi, bi % MS_SLOTS, (int)(nsrc - k0 < N ? nsrc - k0 : N), k0};
    GSP_TRY(batch_relax<T>(R, bp, lim, &est));
    GSP_TRY(batch_transpose<T>(R, bp, lim));
    GSP_TRY(batch_copy<T>(R, pin, G, out, bp));
  }
  R.wait_s += G.wait_done(nbatch);
  for (int bi = nbatch - MS_SLOTS < 0 ? 0 : nbatch - MS_SLOTS; bi < nbatch; bi++) add_phases(R, bi % MS_SLOTS, par);
  GSP_CUDA_TRY(G.err);
  *nvals = G.total;
  R.stats->host_wait_s += R.wait_s;
  R.stats->rounds += R.rounds;
  R.stats->host_copy_s += G.copy_s;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* Every kernel a call of type T may launch. */
template <class T> static void preload_typed() {
  typedef typename Key<T>::K K;
  cudaFuncAttributes a;
  (void)cudaFuncGetAttributes(&a, fill_kernel<K>);
  (void)cudaFuncGetAttributes(&a, ms_seed<K>);
  (void)cudaFuncGetAttributes(&a, ms_round<T>);
  (void)cudaFuncGetAttributes(&a, ms_parents<T>);
  (void)cudaFuncGetAttributes(&a, ms_tie_round<T>);
  (void)cudaFuncGetAttributes(&a, ms_transpose<T>);
}

} // namespace gsp_sssp_cu

using namespace gsp_sssp_cu;

void gsp__cuda_msssp_preload(void) {
  cudaFuncAttributes a;
  (void)cudaFuncGetAttributes(&a, ms_tie_seed);
  preload_typed<int32_t>();
  preload_typed<int64_t>();
  preload_typed<float>();
  preload_typed<double>();
  (void)cudaGetLastError();
}

namespace {
struct MsRun {
  void *dist;
  int64_t *parent;
  int32_t *parent32;
  uint8_t *present, *ppresent;
  int64_t *nvals;
  const gsp_cuda_arrays *A;
  const int64_t *src;
  int64_t nsrc;
  const void *lim;
  int N;
  gsp_cuda_sssp_stats *stats;
  template <class T> gsp_info run() const {
    return msssp_typed<T>((T *)dist, parent, parent32, present, ppresent, nvals, A, src, nsrc, *(const T *)lim, N,
                          stats);
  }
};
} // namespace

gsp_info gsp_cuda_msssp(void *dist, int64_t *parent, int32_t *parent32, uint8_t *present, uint8_t *ppresent,
                        int64_t *nvals, const gsp_cuda_arrays *A, const int64_t *src, int64_t nsrc, const void *lim,
                        int64_t batch, gsp_cuda_sssp_stats *stats, bool *taken) {
  *taken = false;
  const gsp__cu_guard guard(A->dev);
  if (nsrc <= 0 || !graph_taken(A)) return GSP_SUCCESS;
  /* the batch is the caller's (gsp__msssp_batch): a multiple of the warp
   * size, one mask bit per 32 sources, up to 1024 */
  if (batch < 32 || batch > 1024 || batch % 32 != 0)
    return GSP_ERROR(GSP_PANIC, "gsp_cuda_msssp: batch %lld is not a multiple of 32 in 32..1024", (long long)batch);
  const int64_t N = batch;
  *taken = true;
  const double t_call = host_seconds();
  gsp_cuda_sssp_stats rec;
  memset(&rec, 0, sizeof rec);
  const gsp_info info =
      by_type(A->type, MsRun{dist, parent, parent32, present, ppresent, nvals, A, src, nsrc, lim, (int)N, &rec});
  rec.call_s = host_seconds() - t_call;
  if (info >= 0)
    gsp__burble("msssp: %lld sources in %d batches of %lld, %.2f rounds a batch: setup %.2f ms, device %.2f ms "
                "(rounds %.2f, parents %.2f, transpose %.2f, copies %.2f), host gather %.2f ms, waits %.2f ms, "
                "call %.2f ms",
                (long long)nsrc, rec.batches, (long long)N, rec.batches ? (double)rec.rounds / rec.batches : 0.0,
                rec.setup_s * 1e3, (rec.relax_s + rec.parent_s + rec.transpose_s) * 1e3, rec.relax_s * 1e3,
                rec.parent_s * 1e3, rec.transpose_s * 1e3, rec.d2h_s * 1e3, rec.host_copy_s * 1e3,
                rec.host_wait_s * 1e3, rec.call_s * 1e3);
  if (stats) *stats = rec;
  return info;
}
