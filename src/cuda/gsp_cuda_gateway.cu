/*
 * The C gateway (gsp_cuda.h): device discovery, the resident closure's
 * launcher, and the device copy of a matrix (upload, lazy download,
 * release). Where a closure runs is decided in src/ops/closure.
 *
 * A closure result stays on the device (the matrix's dev slot; the core
 * marks it device-only with its entry count); the host copy is made only
 * when core code asks for it (gsp__matrix_host -> gsp_cuda_dense_download
 * into arrays the core owns). A later closure of the same matrix reuses
 * the device copy instead of uploading.
 */
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <mutex>

#include <sys/mman.h>

#include "bits_pack.h"
#include "gsp_cuda_internal.cuh"
#include "gsp_cuda_stage.h"

/* GSP_ALLOC for C++ (no implicit conversion from void *). */
#define GSP_CU_ALLOC(ptr, count, size)                                                              \
  GSP_CHECK(((ptr) = (decltype(ptr))gsp__malloc_array((count), (size))) != NULL, GSP_OUT_OF_MEMORY, \
            "cannot allocate %zu x %zu bytes", (size_t)(count), (size_t)(size))

gsp_info gsp__cuda_error(cudaError_t e, const char *file, int line, const char *what) {
  (void)cudaGetLastError(); /* clear a non-sticky error so later calls work */
  if (e == cudaErrorMemoryAllocation)
    return gsp__error(GSP_DEVICE_OUT_OF_MEMORY, file, line, "CUDA: %s (%s)", cudaGetErrorString(e), what);
  return gsp__error(GSP_DEVICE_ERROR, file, line, "CUDA error %s: %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e),
                    what);
}

/* A usable device stays usable for the process: its description is kept
 * after the first positive probe (cudaGetDeviceProperties costs far more
 * than a short shortest-path call can spare; every GPU call asks). */
static std::atomic<bool> usable_known{false};
static char usable_desc[256];
static std::mutex usable_mu;

bool gsp_cuda_usable(char *desc, size_t len) {
  if (usable_known.load(std::memory_order_acquire)) {
    if (desc && len > 0) snprintf(desc, len, "%s", usable_desc);
    return true;
  }
  char buf[256];
  bool ok = false;
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e == cudaErrorNoDevice ||
      (e == cudaErrorInsufficientDriver && access("/proc/driver/nvidia/version", F_OK) != 0)) {
    /* without any NVIDIA driver the runtime reports an "insufficient"
     * driver; the truth for the user is that there is no GPU */
    (void)cudaGetLastError();
    snprintf(buf, sizeof buf, "no GPU found%s", e == cudaErrorNoDevice ? "" : " (no NVIDIA driver is loaded)");
  } else if (e != cudaSuccess) {
    (void)cudaGetLastError();
    snprintf(buf, sizeof buf, "no usable CUDA device: %s", cudaGetErrorString(e));
  } else if (count == 0) {
    snprintf(buf, sizeof buf, "no GPU found");
  } else {
    cudaDeviceProp p;
    e = cudaGetDeviceProperties(&p, 0);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      snprintf(buf, sizeof buf, "CUDA device 0 unreadable: %s", cudaGetErrorString(e));
    } else if (p.major != 9 || p.minor != 0) {
      /* the kernels are built for sm_90a (Hopper) only */
      snprintf(buf, sizeof buf, "%s has compute capability %d.%d; this build has sm_90a kernels only", p.name, p.major,
               p.minor);
    } else {
      snprintf(buf, sizeof buf, "%s (sm_%d%d, %d SMs, %.1f GiB)", p.name, p.major, p.minor, p.multiProcessorCount,
               p.totalGlobalMem / 1073741824.0);
      ok = true;
    }
  }
  if (desc && len > 0) snprintf(desc, len, "%s", buf);
  if (ok) {
    std::lock_guard<std::mutex> lock(usable_mu);
    if (!usable_known.load(std::memory_order_relaxed)) {
      snprintf(usable_desc, sizeof usable_desc, "%s", buf);
      usable_known.store(true, std::memory_order_release);
    }
  }
  return ok;
}

void gsp_cuda_start(void) {
  if (!gsp_cuda_usable(NULL, 0)) return;
  /* the primary context of device 0, made once; the runtime makes a
   * concurrent first call wait for it */
  (void)cudaFree(0);
  gsp__cuda_msssp_preload();
  (void)cudaGetLastError();
}

/* ---- device copy ---- */

static void dev_free(struct gsp_dev_matrix *dev) {
  if (!dev) return;
  gsp__cuda_csr_release(dev);
  if (dev->d) {
    cudaFree(dev->d);
    (void)cudaGetLastError();
  }
  gsp__free(dev);
}

void gsp_cuda_dev_free(struct gsp_dev_matrix *dev) {
  dev_free(dev);
}

/* Free *slot and clear it. */
static void slot_free(struct gsp_dev_matrix **slot) {
  dev_free(*slot);
  *slot = NULL;
}

void gsp_cuda_dense_state(gsp_cuda_dense_info *out, const gsp_cuda_arrays *A) {
  const struct gsp_dev_matrix *dev = *A->dev;
  memset(out, 0, sizeof *out);
  out->any = dev != NULL;
  if (!dev || !dev->d) return;
  const size_t dnp = (size_t)dev->np;
  out->np = dev->np;
  out->enc = dev->enc;
  out->closed = dev->closed;
  out->closed_sr = dev->closed_sr;
  out->bytes = A->type == GSP_BOOL ? dnp * dnp / 8 : dnp * dnp * gsp_type_size(A->type);
}

/* ---- staged conversions (gsp_cuda_stage.h): one pass over each row ---- */

/* fn<T> for the numeric type t (the closures' four). */
#define GSP_CU_BY_TYPE(t, fn) \
  ((t) == GSP_INT32 ? fn<int32_t> : (t) == GSP_INT64 ? fn<int64_t> : (t) == GSP_FP32 ? fn<float> : fn<double>)

/* Transparent huge pages for a fresh result array (advice only): its 4 KiB
 * page faults would cost more than the copy into it. */
static void huge_pages(void *p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const uintptr_t h = (uintptr_t)1 << 21, a = ((uintptr_t)p + h - 1) & ~(h - 1), e = ((uintptr_t)p + bytes) & ~(h - 1);
  if (p && bytes >= ((size_t)64 << 20) && e > a) (void)madvise((void *)a, (size_t)(e - a), MADV_HUGEPAGE);
#else
  (void)p, (void)bytes;
#endif
}

struct UpCtx {
  const gsp_cuda_arrays *M;
  int64_t n;
  unsigned char zero[16];
  bool check_nan;
  std::atomic<bool> negative{false}, nan{false};
};

/* What the upload must learn of the values it moves: NaN for floats (the
 * closure refuses them), the sign for integers (int32's DPX path needs no
 * negative weight). An integer OR over a row, so that the row loops below
 * vectorize: a branch per entry on a random presence pattern mispredicts so
 * often that it held the upload to a third of the PCIe rate. */
template <class T> struct Flag;
template <> struct Flag<float> {
  typedef int32_t acc;
  static int32_t of(float v) {
    return (int32_t)(v != v);
  }
};
template <> struct Flag<double> {
  typedef int64_t acc;
  static int64_t of(double v) {
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return (int64_t)((u << 1) > 0xffe0000000000000ull); /* exponent all ones, mantissa not 0 */
  }
};
template <> struct Flag<int32_t> {
  typedef int32_t acc;
  static int32_t of(int32_t v) {
    return v;
  }
};
template <> struct Flag<int64_t> {
  typedef int64_t acc;
  static int64_t of(int64_t v) {
    return v;
  }
};

/* o[e] = b[e] ? x[e] : zero (x read whatever b says: no branch). */
template <class T>
static typename Flag<T>::acc select_row(T *__restrict__ o, const T *__restrict__ x, const uint8_t *__restrict__ b,
                                        size_t len, T zero) {
  typename Flag<T>::acc f = 0;
  for (size_t e = 0; e < len; e++) {
    const T v = x[e], w = b[e] ? v : zero;
    o[e] = w;
    f |= Flag<T>::of(w);
  }
  return f;
}

template <class T> static typename Flag<T>::acc copy_row(T *__restrict__ o, const T *__restrict__ x, size_t len) {
  typename Flag<T>::acc f = 0;
  for (size_t e = 0; e < len; e++) {
    const T v = x[e];
    o[e] = v;
    f |= Flag<T>::of(v);
  }
  return f;
}

/* Numeric rows: present values, the zero of s where absent; int32 rows also
 * tell whether a value is negative (the DPX path needs none), float rows
 * whether a present value is NaN. */
template <class T> static void up_fill(void *c, int64_t r0, int64_t rn, void *buf) {
  UpCtx &u = *(UpCtx *)c;
  const gsp_cuda_arrays *M = u.M;
  const int64_t n = u.n;
  const T zero = *(const T *)u.zero, *x = (const T *)M->x;
  T *o = (T *)buf;
  typename Flag<T>::acc f = 0;
  if (M->p) {
    for (int64_t i = r0; i < r0 + rn; i++) {
      T *row = o + (size_t)(i - r0) * n;
      const gsp_index k0 = M->p[i], len = M->p[i + 1] - k0;
      if ((int64_t)len >= n - 1 && n > 0) {
        /* a full row, or full but for one column (a complete graph's
         * without its self-loop): CSR columns are strictly increasing, so
         * the missing one is the first k with j[k] != k; the values are
         * copied without reading the columns (8 of the 12 bytes an entry) */
        int64_t m = (int64_t)len; /* the missing column; len == n: none */
        if ((int64_t)len == n - 1) {
          int64_t lo = 0, hi = n - 1; /* j[k] == k for k < m, k + 1 from m */
          while (lo < hi) {
            const int64_t mid = lo + (hi - lo) / 2;
            if ((int64_t)M->j[k0 + mid] == mid) lo = mid + 1;
            else hi = mid;
          }
          m = lo;
        }
        f |= copy_row(row, x + k0, (size_t)m);
        if (m < n) {
          row[m] = zero;
          f |= copy_row(row + m + 1, x + k0 + m, (size_t)(n - 1 - m));
        }
        continue;
      }
      for (int64_t j = 0; j < n; j++) row[j] = zero;
      for (gsp_index k = k0; k < k0 + len; k++) {
        const T v = x[k];
        row[M->j[k]] = v;
        f |= Flag<T>::of(v);
      }
    }
  } else {
    const size_t base = (size_t)r0 * n, len = (size_t)rn * n;
    f = M->b ? select_row(o, x + base, M->b + base, len, zero) : copy_row(o, x + base, len);
  }
  if (f == 0) return;
  if ((T)0.5 != (T)0) { /* float: a NaN */
    if (u.check_nan) u.nan.store(true, std::memory_order_relaxed);
  } else if (f < 0) {
    u.negative.store(true, std::memory_order_relaxed);
  }
}

/* Bool rows into bits (BITS rows are copied as they are). */
static void up_bits(void *c, int64_t r0, int64_t rn, void *buf) {
  UpCtx &u = *(UpCtx *)c;
  const gsp_cuda_arrays *M = u.M;
  const int64_t n = u.n, wpr = (n + 63) / 64;
  uint64_t *w = (uint64_t *)buf;
  if (M->bits) {
    for (int64_t i = r0; i < r0 + rn; i++)
      memcpy(w + (size_t)(i - r0) * wpr, M->bits + (size_t)i * M->wpr, (size_t)wpr * 8);
    return;
  }
  memset(w, 0, (size_t)rn * wpr * 8);
  for (int64_t i = r0; i < r0 + rn; i++) {
    uint64_t *row = w + (size_t)(i - r0) * wpr;
    if (M->p) {
      for (gsp_index k = M->p[i]; k < M->p[i + 1]; k++)
        if (!M->x || ((const uint8_t *)M->x)[k]) row[M->j[k] >> 6] |= 1ull << (M->j[k] & 63);
    } else {
      const uint8_t *xr = (const uint8_t *)M->x + (size_t)i * n, *br = M->b ? M->b + (size_t)i * n : NULL;
      for (int64_t j0 = 0; j0 < n; j0 += 64)
        row[j0 >> 6] = gsp__pack64(xr + j0, br ? br + j0 : NULL, n - j0 < 64 ? n - j0 : 64);
    }
  }
}

/* Upload the host content of M (any format) into a new device copy encoded
 * for semiring s: absent entries and padding hold the zero of s. With
 * check_nan, a NaN weight fails it (GSP_INVALID_VALUE): the scan rides on
 * the conversion instead of a pass of its own. */
static gsp_info upload(struct gsp_dev_matrix **out, const gsp_cuda_arrays *M, gsp_semiring s, int64_t np,
                       bool check_nan) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_dev_matrix *dev = NULL;
#define GSP_FREE_ALL dev_free(dev)
  const int64_t n = M->nrows;
  const gsp_type t = M->type;
  const bool bits = t == GSP_BOOL;
  dev = (struct gsp_dev_matrix *)gsp__calloc(1, sizeof *dev);
  GSP_CHECK(dev != NULL, GSP_OUT_OF_MEMORY, "cannot allocate a device matrix header");
  dev->n = n;
  dev->np = np;
  dev->enc = s;
  const size_t bytes = bits ? (size_t)np * np / 8 : (size_t)np * np * gsp_type_size(t);
  GSP_CUDA_TRY(cudaMalloc(&dev->d, bytes));
  GSP_TRY(gsp_cuda_fill_zero(dev->d, np, t, s));
  UpCtx u;
  u.M = M;
  u.n = n;
  u.check_nan = check_nan;
  if (bits) {
    GSP_TRY(gsp__cuda_stage_upload(dev->d, (size_t)np / 8, n, (size_t)((n + 63) / 64) * 8, up_bits, &u));
    dev->nonneg = true;
  } else {
    const size_t ts = gsp_type_size(t);
    gsp_semiring_zero_value(u.zero, s, t);
    gsp__stage_fn f = GSP_CU_BY_TYPE(t, up_fill);
    GSP_TRY(gsp__cuda_stage_upload(dev->d, (size_t)np * ts, n, (size_t)n * ts, f, &u));
    GSP_CHECK(!u.nan.load(), GSP_INVALID_VALUE, "gsp_closure: M holds a NaN weight");
    /* only int32 uses it (DPX); other types keep the old meaning: true */
    dev->nonneg = t != GSP_INT32 || !u.negative.load();
  }
  *out = dev;
  return info;
#undef GSP_FREE_ALL
}

struct DownCtx {
  void *x;
  uint8_t *b; /* NULL: every entry present */
  int64_t n;
  unsigned char zero[16];
};

template <class T> static void down_drain(void *c, int64_t r0, int64_t rn, void *buf) {
  DownCtx &d = *(DownCtx *)c;
  const size_t base = (size_t)r0 * d.n, len = (size_t)rn * d.n;
  const T *in = (const T *)buf;
  if (!d.b) {
    memcpy((T *)d.x + base, in, len * sizeof(T));
    return;
  }
  T *o = (T *)d.x + base;
  uint8_t *b = d.b + base;
  const T zero = *(const T *)d.zero;
  for (size_t e = 0; e < len; e++) {
    const T v = in[e];
    o[e] = v;
    b[e] = !(v == zero);
  }
}

static void down_bits(void *c, int64_t r0, int64_t rn, void *buf) {
  DownCtx &d = *(DownCtx *)c;
  const size_t wpr = (size_t)(d.n + 63) / 64;
  memcpy((uint64_t *)d.x + (size_t)r0 * wpr, buf, (size_t)rn * wpr * 8);
}

gsp_info gsp_cuda_dense_download(void *x, uint8_t *b, const gsp_cuda_arrays *A) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  const struct gsp_dev_matrix *dev = *A->dev;
  const int64_t n = A->nrows;
  GSP_CHECK(dev && dev->d, GSP_PANIC, "gsp_cuda_dense_download: no dense device copy");
  if (n == 0) return info;
  const int64_t np = dev->np;
  DownCtx dc;
  dc.n = n;
  dc.x = x;
  if (A->type == GSP_BOOL) {
    const int64_t wpr = (n + 63) / 64;
    dc.b = NULL;
    GSP_TRY(gsp__cuda_stage_download(dev->d, (size_t)np / 8, n, (size_t)wpr * 8, down_bits, &dc));
  } else {
    const gsp_type t = A->type;
    const size_t ts = gsp_type_size(t);
    dc.b = b;
    gsp_semiring_zero_value(dc.zero, dev->enc, t);
    gsp__stage_fn f = GSP_CU_BY_TYPE(t, down_drain);
    GSP_TRY(gsp__cuda_stage_download(dev->d, (size_t)np * ts, n, (size_t)n * ts, f, &dc));
  }
#undef GSP_FREE_ALL
  return info;
}

struct ExportCtx {
  void *x;
  int64_t n;
  bool fill; /* entries equal to zero are absent: written as absent */
  unsigned char zero[16], absent[16];
};

template <class T> static void export_drain(void *c, int64_t r0, int64_t rn, void *buf) {
  ExportCtx &d = *(ExportCtx *)c;
  const size_t base = (size_t)r0 * d.n, len = (size_t)rn * d.n;
  const T *__restrict__ in = (const T *)buf;
  T *__restrict__ o = (T *)d.x + base;
  if (!d.fill) {
    memcpy(o, in, len * sizeof(T));
    return;
  }
  const T zero = *(const T *)d.zero, a = *(const T *)d.absent;
  for (size_t e = 0; e < len; e++) {
    const T v = in[e];
    o[e] = v == zero ? a : v;
  }
}

/* gsp_matrix_export_dense of a device-only result: one staged pass from
 * the device copy into the caller's array (no host copy of A, no presence
 * flags, no second pass over n^2 entries). */
gsp_info gsp_cuda_dense_export(void *out, const void *absent, const gsp_cuda_arrays *A, bool *done) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  *done = false;
  const gsp__cu_guard guard(A->dev);
  const struct gsp_dev_matrix *dev = *A->dev;
  if (!dev || !dev->d || A->type == GSP_BOOL) return info;
  const int64_t n = A->nrows, np = dev->np;
  const size_t ts = gsp_type_size(A->type);
  ExportCtx ec;
  ec.x = out;
  ec.n = n;
  ec.fill = absent != NULL;
  gsp_semiring_zero_value(ec.zero, dev->enc, A->type);
  if (ec.fill) memcpy(ec.absent, absent, ts);
  const gsp_type t = A->type;
  gsp__stage_fn f = GSP_CU_BY_TYPE(t, export_drain);
  if (n > 0) GSP_TRY(gsp__cuda_stage_download(dev->d, (size_t)np * ts, n, (size_t)n * ts, f, &ec));
  *done = true;
#undef GSP_FREE_ALL
  return info;
}

/* gsp_matrix_device_view's device side (gsp_cuda.h). */
gsp_info gsp_cuda_dense_view(void **data, int64_t *ld, int *device, const gsp_cuda_arrays *A, gsp_semiring enc) {
  static const char *const fn = "gsp_matrix_device_view";
  gsp_info info = GSP_SUCCESS;
  struct gsp_dev_matrix *fresh = NULL;
#define GSP_FREE_ALL dev_free(fresh)
  const gsp__cu_guard guard(A->dev);
  char desc[256] = "";
  GSP_CHECK(gsp_cuda_usable(desc, sizeof desc), GSP_NO_DEVICE, "%s: %s", fn, desc);
  const int64_t n = A->nrows;
  if (n == 0) {
    int cur = 0;
    GSP_CUDA_TRY(cudaGetDevice(&cur));
    *data = NULL;
    *ld = 0;
    *device = cur;
    return info;
  }
  /* A sparse cache alone (d == NULL) or a copy encoded with the other zero
   * does not serve: upload the host content (the caller has downloaded a
   * device-only result). */
  struct gsp_dev_matrix *dev = *A->dev;
  if (!dev || !dev->d || !gsp_semiring_same_zero(enc, dev->enc)) {
    GSP_TRY(upload(&fresh, A, enc, gsp_cuda_padded_n(A->type, n), false));
    dev = fresh;
  }
  /* the closure kernels and the upload may still run on other streams */
  GSP_CUDA_TRY(cudaDeviceSynchronize());
  cudaPointerAttributes pa;
  GSP_CUDA_TRY(cudaPointerGetAttributes(&pa, dev->d));
  /* Commit: nothing fails past here. */
  if (fresh) {
    dev_free(*A->dev); /* the host copy is valid */
    *A->dev = fresh;
    fresh = NULL;
  }
  *data = dev->d;
  *ld = dev->np;
  *device = pa.device;
#undef GSP_FREE_ALL
  return info;
}

struct SuccCtx {
  int64_t *x;
  uint8_t *b;
  int64_t n;
  std::atomic<int64_t> nvals{0};
};

/* Widen and count: the presence flags are written after, and only when some
 * successor is absent (a closure that connects every pair needs none: n^2
 * fresh bytes less to fault in and write). */
static void succ_drain(void *c, int64_t r0, int64_t rn, void *buf) {
  SuccCtx &d = *(SuccCtx *)c;
  const size_t base = (size_t)r0 * d.n, len = (size_t)rn * d.n;
  const int32_t *__restrict__ in = (const int32_t *)buf;
  int64_t *__restrict__ o = d.x + base;
  int64_t cnt = 0;
  for (size_t e = 0; e < len; e++) {
    const int32_t v = in[e];
    o[e] = v;
    cnt += v >= 0;
  }
  d.nvals.fetch_add(cnt, std::memory_order_relaxed);
}

static void succ_flags(void *c, int64_t lo, int64_t hi) {
  SuccCtx &d = *(SuccCtx *)c;
  for (int64_t e = lo; e < hi; e++) d.b[e] = d.x[e] >= 0;
}

/* The n x n INT64 successor matrix as new dense host arrays, from the
 * np x np int32 device matrix (widened in the staged pass). */
static gsp_info download_succ(gsp_cuda_host_result *out, const int32_t *dsucc, int64_t n, int64_t np) {
  gsp_info info = GSP_SUCCESS;
  int64_t *x = NULL;
  uint8_t *b = NULL;
#define GSP_FREE_ALL (gsp__free(x), gsp__free(b))
  const size_t nn = (size_t)n * n;
  GSP_CU_ALLOC(x, nn, sizeof(int64_t));
  huge_pages(x, nn * 8);
  SuccCtx sc;
  sc.x = x;
  sc.b = NULL;
  sc.n = n;
  GSP_TRY(gsp__cuda_stage_download(dsucc, (size_t)np * 4, n, (size_t)n * 4, succ_drain, &sc));
  const int64_t nvals = sc.nvals.load();
  if ((size_t)nvals != nn) {
    GSP_CU_ALLOC(b, nn, 1);
    huge_pages(b, nn);
    sc.b = b;
    gsp__host_parallel((int64_t)nn, (int64_t)1 << 18, succ_flags, &sc);
  }
  out->p = NULL, out->j = NULL, out->x = x, out->b = b;
  out->nvals = nvals;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_cuda_closure_resident(const gsp_cuda_arrays *M, bool dev_only, int64_t *nvals_out,
                                   gsp_cuda_host_result *succ, gsp_semiring s, bool reflexive,
                                   const gsp__progress *progress) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_dev_matrix *fresh = NULL;
  int32_t *dsucc = NULL;
  bool in_place = false; /* *M->dev is being modified while the host copy is valid */
#define GSP_FREE_ALL \
  (dev_free(fresh), cudaFree(dsucc), (void)cudaGetLastError(), in_place ? slot_free(M->dev) : (void)0)
  static const char *const fn = "gsp_closure (CUDA)";
  if (succ) memset(succ, 0, sizeof *succ);
  const gsp_type t = M->type;
  const int64_t n = M->nrows;
  const bool bits = t == GSP_BOOL;
  const int64_t np = gsp_cuda_padded_n(t, n);
  struct gsp_dev_matrix *dev = *M->dev;
  /* the operation released a copy of another order or encoding */
  GSP_CHECK(!dev || (dev->d && dev->np == np && (bits || gsp_semiring_same_zero(s, dev->enc))), GSP_PANIC,
            "%s: the device copy does not serve this closure", fn);
  if (succ) GSP_CUDA_TRY(cudaMalloc((void **)&dsucc, (size_t)np * np * sizeof(int32_t)));
  if (!dev) {
    GSP_TRY(upload(&fresh, M, s, np, true));
    dev = fresh;
  } else {
    in_place = !dev_only;
  }
  /* nonneg is kept exact: set at upload, cleared by any closure but MIN_PLUS */
  const bool dpx = t == GSP_INT32 && s == GSP_MIN_PLUS && dev->nonneg;
  bool cycle = false;
  GSP_TRY(gsp_cuda_fw_device(dev->d, dsucc, n, np, t, s, reflexive, dpx, progress, &cycle));
  GSP_CHECK(!cycle, GSP_NEGATIVE_CYCLE, "%s: the graph has a %s cycle (M unchanged)", fn,
            gsp_semiring_cycle_sign(s) > 0 ? "positive" : "negative");
  int64_t nvals = 0;
  GSP_TRY(gsp_cuda_count_present(&nvals, dev->d, n, np, t, s));
  gsp_cuda_host_result S;
  memset(&S, 0, sizeof S);
  if (succ) {
    GSP_TRY(download_succ(&S, dsucc, n, np));
    cudaFree(dsucc);
    dsucc = NULL;
  }
  /* Commit: nothing fails past here. */
  if (fresh) {
    dev_free(*M->dev);
    *M->dev = fresh;
    fresh = NULL;
  }
  gsp__cuda_csr_release(dev); /* the sparse cache of the old content is stale */
  dev->enc = s;
  dev->closed = true;
  dev->closed_sr = s;
  dev->nonneg = dev->nonneg && s == GSP_MIN_PLUS; /* MIN_MAX's one is INT32_MIN */
  *nvals_out = nvals;
  if (succ) *succ = S;
#undef GSP_FREE_ALL
  return info;
}
