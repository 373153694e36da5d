/*
 * The CUDA executor of the schedules in gsp_cuda_sched.hpp (out of core and
 * several GPUs): the kernels of gsp_cuda_fw.cuh launched on explicit
 * streams with explicit pointers and leading dimensions, plus a transpose
 * and fills with separate leading dimensions. Included by one
 * gsp_cuda_scale_<type>.cu per element type (parallel builds).
 */
#ifndef GSP_CUDA_SCALE_CUH
#define GSP_CUDA_SCALE_CUH

#include <vector>

#include "gsp_cuda_fw.cuh"
#include "gsp_cuda_scale.h"
#include "gsp_cuda_sched.hpp"

/* One broadcast of a group, in bytes (gsp_cuda_mgpu.cu runs it on NCCL). */
struct gsp_bcast_bytes {
  int comm, gpu;
  const void *send;
  void *recv;
  size_t bytes;
  int root;
};
gsp_info gsp__mgpu_bcast(struct gsp_mgpu_s *m, const gsp_bcast_bytes *ops, int nops);

/* The parts of a multi-GPU context the typed runners need. */
struct gsp_mgpu_view {
  const gspsched::Grid *grid;
  const int *devs;       /* CUDA device of each grid GPU */
  cudaStream_t *streams; /* one per grid GPU */
  void *const *D, *const *DG, *const *DGT, *const *W, *const *RP;
  int *const *flag;              /* one device int per GPU */
  struct gsp_mgpu_s *ctx;        /* for the broadcasts */
  const gsp__progress *progress; /* the caller's, may be NULL */
};

namespace gspcu {

/* dst[k*ldd + i] = src[i*lds + k] for i < rows, k < cols (multiples of 32). */
template <class T> __global__ void k_tr(T *__restrict__ dst, int64_t ldd, const T *__restrict__ src, int64_t lds) {
  __shared__ T tile[32][33];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t k0 = (int64_t)blockIdx.x * 32, i0 = (int64_t)blockIdx.y * 32;
#pragma unroll
  for (int y = 0; y < 32; y += 8) tile[ty + y][tx] = src[(size_t)(i0 + ty + y) * lds + k0 + tx];
  __syncthreads();
#pragma unroll
  for (int y = 0; y < 32; y += 8) dst[(size_t)(k0 + ty + y) * ldd + i0 + tx] = tile[tx][ty + y];
}

template <class T> __global__ void k_fill2d(T *p, int64_t rows, int64_t cols, int64_t ld, T v) {
  for (int64_t i = blockIdx.y; i < rows; i += gridDim.y)
    for (int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; j < cols; j += (int64_t)gridDim.x * blockDim.x)
      p[(size_t)i * ld + j] = v;
}

/* D[t*(ld+1)] = add(D[t*(ld+1)], one) for t < count: M* on a diagonal run. */
template <class P> __global__ void k_diag_one(typename P::TC *D, int64_t ld, int64_t count) {
  const int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (t < count) D[(size_t)t * (ld + 1)] = P::add(D[(size_t)t * (ld + 1)], P::one());
}

/* *flag = 1 when some D[t*(ld+1)] < one (MIN_PLUS; MAX_PLUS: > one). */
template <class P> __global__ void k_diag_cycle(const typename P::TC *D, int64_t ld, int64_t count, int *flag) {
  const int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (t < count && P::add(D[(size_t)t * (ld + 1)], P::one()) != P::one()) *flag = 1;
}

inline gsp_info cuda_ok(cudaError_t e, const char *what) {
  return e == cudaSuccess ? GSP_SUCCESS : gsp__cuda_error(e, __FILE__, __LINE__, what);
}

/* The executor (see gsp_cuda_sched.hpp) for policy P. Logical device d is
 * CUDA device devs[d]; every call first makes it current. */
template <class P> struct CudaExec {
  typedef typename P::TC T;
  typedef cudaStream_t Q;
  typedef cudaEvent_t E;
  static_assert(std::is_same<typename P::TC, typename P::TA>::value, "numeric policies only");

  const int *devs;
  struct gsp_mgpu_s *ctx = nullptr;
  int cur = -1;
  size_t gsm = Shape<P>::smem();

  explicit CudaExec(const int *devs) : devs(devs) {}

  gsp_info use(int d) {
    if (d == cur) return GSP_SUCCESS;
    gsp_info info = cuda_ok(cudaSetDevice(devs[d]), "cudaSetDevice");
    if (info == GSP_SUCCESS) cur = d;
    return info;
  }
  /* Kernel attributes are per device: call once per device used. */
  gsp_info prepare(int d) {
    gsp_info info = use(d);
    if (info == GSP_SUCCESS)
      info = cuda_ok(cudaFuncSetAttribute(k_gemm<P>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)gsm),
                     "cudaFuncSetAttribute(k_gemm)");
    return info;
  }

  gsp_info alloc(int d, T **p, size_t elems) {
    gsp_info info = use(d);
    if (info == GSP_SUCCESS) info = cuda_ok(cudaMalloc((void **)p, elems * sizeof(T)), "cudaMalloc");
    if (info != GSP_SUCCESS) *p = nullptr;
    return info;
  }
  void release(int d, T *p) {
    if (use(d) == GSP_SUCCESS) cudaFree(p);
    (void)cudaGetLastError();
  }
  gsp_info queue(int d, Q *q) {
    gsp_info info = use(d);
    return info != GSP_SUCCESS ? info
                               : cuda_ok(cudaStreamCreateWithFlags(q, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  void queue_release(int d, Q q) {
    if (use(d) == GSP_SUCCESS) cudaStreamDestroy(q);
    (void)cudaGetLastError();
  }
  gsp_info event(int d, E *e) {
    gsp_info info = use(d);
    return info != GSP_SUCCESS ? info : cuda_ok(cudaEventCreateWithFlags(e, cudaEventDisableTiming), "cudaEventCreate");
  }
  void event_release(int d, E e) {
    if (use(d) == GSP_SUCCESS) cudaEventDestroy(e);
    (void)cudaGetLastError();
  }
  gsp_info record(int d, E e, Q q) {
    gsp_info info = use(d);
    return info != GSP_SUCCESS ? info : cuda_ok(cudaEventRecord(e, q), "cudaEventRecord");
  }
  gsp_info wait(int d, Q q, E e) {
    gsp_info info = use(d);
    return info != GSP_SUCCESS ? info : cuda_ok(cudaStreamWaitEvent(q, e, 0), "cudaStreamWaitEvent");
  }
  gsp_info sync(int d, Q q) {
    gsp_info info = use(d);
    return info != GSP_SUCCESS ? info : cuda_ok(cudaStreamSynchronize(q), "cudaStreamSynchronize");
  }
  gsp_info launched() {
    return cuda_ok(cudaGetLastError(), "kernel launch");
  }

  gsp_info fill(int d, T *p, int64_t rows, int64_t cols, int64_t ld, Q q) {
    gsp_info info = use(d);
    if (info != GSP_SUCCESS || rows <= 0 || cols <= 0) return info;
    const unsigned gx = (unsigned)std::min<int64_t>((cols + 255) / 256, 16);
    const unsigned gy = (unsigned)std::min<int64_t>(rows, 65535);
    k_fill2d<T><<<dim3(gx, gy), 256, 0, q>>>(p, rows, cols, ld, P::zero());
    return launched();
  }
  gsp_info copy2d(int d, T *dst, int64_t dld, const T *src, int64_t sld, int64_t rows, int64_t cols, Q q,
                  cudaMemcpyKind kind) {
    gsp_info info = use(d);
    if (info != GSP_SUCCESS || rows <= 0 || cols <= 0) return info;
    return cuda_ok(cudaMemcpy2DAsync(dst, (size_t)dld * sizeof(T), src, (size_t)sld * sizeof(T),
                                     (size_t)cols * sizeof(T), (size_t)rows, kind, q),
                   "cudaMemcpy2DAsync");
  }
  gsp_info h2d(int d, T *dst, int64_t dld, const T *src, int64_t sld, int64_t rows, int64_t cols, Q q) {
    return copy2d(d, dst, dld, src, sld, rows, cols, q, cudaMemcpyHostToDevice);
  }
  gsp_info d2h(int d, T *dst, int64_t dld, const T *src, int64_t sld, int64_t rows, int64_t cols, Q q) {
    return copy2d(d, dst, dld, src, sld, rows, cols, q, cudaMemcpyDeviceToHost);
  }
  gsp_info d2d(int d, T *dst, int64_t dld, const T *src, int64_t sld, int64_t rows, int64_t cols, Q q) {
    return copy2d(d, dst, dld, src, sld, rows, cols, q, cudaMemcpyDeviceToDevice);
  }
  gsp_info diag(int d, T *D, int64_t ld, Q q) {
    gsp_info info = use(d);
    if (info != GSP_SUCCESS) return info;
    return cuda_ok(launch_diag<P>(D, ld, 0, nullptr, q, false, false), "kernel launch");
  }
  gsp_info tr(int d, T *dst, int64_t ldd, const T *src, int64_t lds, int64_t rows, int64_t cols, Q q) {
    gsp_info info = use(d);
    if (info != GSP_SUCCESS || rows <= 0 || cols <= 0) return info;
    k_tr<T><<<dim3((unsigned)(cols / 32), (unsigned)(rows / 32)), dim3(32, 8), 0, q>>>(dst, ldd, src, lds);
    return launched();
  }
  gsp_info gemm(int d, T *C, int64_t ldc, const T *At, int64_t lda, const T *B, int64_t ldb, int64_t rows, int64_t cols,
                int64_t skip_r, int64_t skip_c, Q q) {
    typedef Shape<P> Sh;
    gsp_info info = use(d);
    if (info != GSP_SUCCESS || rows <= 0 || cols <= 0) return info;
    const int64_t c0 = skip_c < 0 ? 0 : skip_c, c1 = skip_c < 0 ? 0 : skip_c + FWB;
    k_gemm<P><<<dim3((unsigned)(cols / Sh::BN), (unsigned)(rows / Sh::BM)), GT, gsm, q>>>(C, ldc, At, lda, B, ldb, 0, 0,
                                                                                          skip_r, c0, c1);
    return launched();
  }
  gsp_info bcast(const gspsched::Bcast<T> *ops, int nops) {
    if (!ctx) return GSP_ERROR(GSP_PANIC, "gsp_closure (CUDA): broadcast without communicators");
    std::vector<gsp_bcast_bytes> b((size_t)nops);
    for (int k = 0; k < nops; k++)
      b[k] = {ops[k].comm, ops[k].gpu, ops[k].send, ops[k].recv, ops[k].elems * sizeof(T), ops[k].root};
    cur = -1; /* NCCL may switch devices */
    return gsp__mgpu_bcast(ctx, b.data(), nops);
  }
  /* M* on the diagonal run at D (count entries, stride ld + 1). */
  gsp_info diag_one(int d, T *D, int64_t ld, int64_t count, Q q) {
    gsp_info info = use(d);
    if (info != GSP_SUCCESS || count <= 0) return info;
    k_diag_one<P><<<(unsigned)((count + 255) / 256), 256, 0, q>>>(D, ld, count);
    return launched();
  }
  gsp_info diag_cycle(int d, const T *D, int64_t ld, int64_t count, int *flag, Q q) {
    gsp_info info = use(d);
    if (info != GSP_SUCCESS || count <= 0) return info;
    k_diag_cycle<P><<<(unsigned)((count + 255) / 256), 256, 0, q>>>(D, ld, count, flag);
    return launched();
  }
};

/* Out of core with policy P on the host matrix H (already prepared: zero for
 * absent, M*'s diagonal applied). */
template <class P> gsp_info ooc_policy(void *H, const gspsched::OocShape &sh, gspsched::OocStats *st) {
  int dev = 0;
  gsp_info info = cuda_ok(cudaGetDevice(&dev), "cudaGetDevice");
  if (info != GSP_SUCCESS) return info;
  CudaExec<P> x(&dev);
  if ((info = x.prepare(0)) != GSP_SUCCESS) return info;
  return gspsched::ooc_run(x, (typename P::TC *)H, sh, st);
}

/* Several GPUs with policy P on the blocks of v (input in place, padding
 * zero): M*'s diagonal, the rounds, the cycle check. Synchronises. */
template <class P> gsp_info mgpu_policy(const gsp_mgpu_view &v, bool reflexive, bool check_cycle, bool *cycle) {
  typedef typename P::TC T;
  const gspsched::Grid &g = *v.grid;
  CudaExec<P> x(v.devs);
  x.ctx = v.ctx;
  gsp_info info = GSP_SUCCESS;
  std::vector<gspsched::MgpuBufs<T>> b((size_t)g.G);
  std::vector<cudaStream_t> q(v.streams, v.streams + g.G);
  for (int d = 0; d < g.G; d++) {
    b[d].D = (T *)v.D[d];
    b[d].DG = (T *)v.DG[d];
    b[d].DGT = (T *)v.DGT[d];
    b[d].W = (T *)v.W[d];
    b[d].RP = (T *)v.RP[d];
    if ((info = x.prepare(d)) != GSP_SUCCESS) return info;
  }
  /* the diagonal of the n real vertices that lies in block (r, c) */
  auto diag_run = [&](int r, int c, int64_t *row, int64_t *col, int64_t *count) {
    const int64_t lo = std::max(g.rb[r], g.cb[c]), hi = std::min(std::min(g.rb[r + 1], g.cb[c + 1]), g.n);
    *row = lo - g.rb[r];
    *col = lo - g.cb[c];
    *count = hi - lo;
  };
  for (int r = 0; r < g.Pr && info == GSP_SUCCESS; r++)
    for (int c = 0; c < g.Pc && info == GSP_SUCCESS; c++) {
      const int d = g.gpu(r, c);
      int64_t row, col, count;
      diag_run(r, c, &row, &col, &count);
      if (check_cycle &&
          ((info = x.use(d)) != GSP_SUCCESS ||
           (info = cuda_ok(cudaMemsetAsync(v.flag[d], 0, sizeof(int), q[d]), "cudaMemsetAsync")) != GSP_SUCCESS))
        break;
      if (reflexive && count > 0) info = x.diag_one(d, b[d].D + (size_t)row * g.cols(c) + col, g.cols(c), count, q[d]);
    }
  if (info == GSP_SUCCESS) info = gspsched::mgpu_run(x, g, b, q, v.progress);
  for (int r = 0; r < g.Pr && info == GSP_SUCCESS; r++)
    for (int c = 0; c < g.Pc && info == GSP_SUCCESS; c++) {
      const int d = g.gpu(r, c);
      int64_t row, col, count;
      diag_run(r, c, &row, &col, &count);
      if (check_cycle && count > 0)
        info = x.diag_cycle(d, b[d].D + (size_t)row * g.cols(c) + col, g.cols(c), count, v.flag[d], q[d]);
    }
  /* drain every GPU, on error too */
  for (int d = 0; d < g.G; d++) {
    gsp_info e = x.sync(d, q[d]);
    if (info == GSP_SUCCESS) info = e;
  }
  *cycle = false;
  for (int d = 0; d < g.G && info == GSP_SUCCESS && check_cycle; d++) {
    int h = 0;
    if ((info = x.use(d)) == GSP_SUCCESS)
      info = cuda_ok(cudaMemcpy(&h, v.flag[d], sizeof h, cudaMemcpyDeviceToHost), "cudaMemcpy(flag)");
    *cycle = *cycle || h != 0;
  }
  return info;
}

/* Dispatch on the semiring (and the exact DPX policy for INT32 MIN_PLUS with
 * non-negative input). */
template <class T>
gsp_info ooc_numeric(void *H, gsp_semiring s, bool dpx, const gspsched::OocShape &sh, gspsched::OocStats *st) {
  if constexpr (std::is_same<T, int32_t>::value)
    if (dpx && s == GSP_MIN_PLUS) return ooc_policy<PolMinPlusU32>(H, sh, st);
  return by_numeric_semiring<T>(s, "out-of-core closure",
                                [&](auto pol) { return ooc_policy<typename decltype(pol)::type>(H, sh, st); });
}

template <class T>
gsp_info mgpu_numeric(const gsp_mgpu_view &v, gsp_semiring s, bool dpx, bool reflexive, bool *cycle) {
  const bool cyc = s == GSP_MIN_PLUS || s == GSP_MAX_PLUS;
  if constexpr (std::is_same<T, int32_t>::value)
    if (dpx && s == GSP_MIN_PLUS) return mgpu_policy<PolMinPlusU32>(v, reflexive, cyc, cycle);
  return by_numeric_semiring<T>(s, "multi-GPU closure", [&](auto pol) {
    return mgpu_policy<typename decltype(pol)::type>(v, reflexive, cyc, cycle);
  });
}

template <class T>
gsp_info fill_numeric(void *p, int64_t rows, int64_t cols, int64_t ld, gsp_semiring s, cudaStream_t q) {
  if (rows <= 0 || cols <= 0) return GSP_SUCCESS;
  const unsigned gx = (unsigned)std::min<int64_t>((cols + 255) / 256, 16);
  const unsigned gy = (unsigned)std::min<int64_t>(rows, 65535);
  k_fill2d<T><<<dim3(gx, gy), 256, 0, q>>>((T *)p, rows, cols, ld, zero_of<T>(s));
  return cuda_ok(cudaGetLastError(), "kernel launch (fill)");
}

} /* namespace gspcu */

/* Per-type entry points (gsp_cuda_scale_<type>.cu). */
#define GSP_CU_SCALE_DECL_(sfx)                                                                                 \
  gsp_info gsp__cuda_ooc_##sfx(void *H, gsp_semiring s, bool dpx, const gspsched::OocShape &sh,                 \
                               gspsched::OocStats *st);                                                         \
  gsp_info gsp__cuda_mgpu_##sfx(const gsp_mgpu_view &v, gsp_semiring s, bool dpx, bool reflexive, bool *cycle); \
  gsp_info gsp__cuda_fill2d_##sfx(void *p, int64_t rows, int64_t cols, int64_t ld, gsp_semiring s, cudaStream_t q);
GSP_CU_SCALE_DECL_(i32)
GSP_CU_SCALE_DECL_(i64)
GSP_CU_SCALE_DECL_(f32)
GSP_CU_SCALE_DECL_(f64)
#undef GSP_CU_SCALE_DECL_

#define GSP_CU_SCALE_DEFINE_(sfx, ct)                                                                                \
  gsp_info gsp__cuda_ooc_##sfx(void *H, gsp_semiring s, bool dpx, const gspsched::OocShape &sh,                      \
                               gspsched::OocStats *st) {                                                             \
    return gspcu::ooc_numeric<ct>(H, s, dpx, sh, st);                                                                \
  }                                                                                                                  \
  gsp_info gsp__cuda_mgpu_##sfx(const gsp_mgpu_view &v, gsp_semiring s, bool dpx, bool reflexive, bool *cycle) {     \
    return gspcu::mgpu_numeric<ct>(v, s, dpx, reflexive, cycle);                                                     \
  }                                                                                                                  \
  gsp_info gsp__cuda_fill2d_##sfx(void *p, int64_t rows, int64_t cols, int64_t ld, gsp_semiring s, cudaStream_t q) { \
    return gspcu::fill_numeric<ct>(p, rows, cols, ld, s, q);                                                         \
  }

#endif /* GSP_CUDA_SCALE_CUH */
