/*
 * Out-of-core closure entry (gsp_cuda_scale.h): the caller's page plan, host-side
 * preparation (M*'s diagonal, the DPX check, the cycle check afterwards),
 * page-locking of the host matrix, and the per-type schedule
 * (gsp_cuda_sched.hpp through gsp_cuda_scale_<type>.cu).
 *
 * Why cudaHostRegister on the caller's buffer rather than staging through
 * pinned bounce buffers: every round moves most of the matrix each way, so
 * a bounce buffer would add a host memcpy of the same volume on the CPU
 * (one core copies ~10 GB/s, below PCIe), and the working copy is a fresh
 * gsp allocation anyway (M stays untouched until the commit), so pinning it
 * for the run costs one registration and nothing else.
 */
#include <chrono>

#include "gsp_cuda_scale.cuh"

namespace {

/* M*'s diagonal on the host, and whether every value is >= 0 (INT32). */
template <gsp_semiring S, class T> void prep(T *H, int64_t n, bool reflexive) {
  if (reflexive)
    for (int64_t i = 0; i < n; i++) H[(size_t)i * n + i] = Sr<S, T>::add(H[(size_t)i * n + i], Sr<S, T>::one());
}
template <gsp_semiring S, class T> bool has_cycle(const T *H, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    if (Sr<S, T>::add(H[(size_t)i * n + i], Sr<S, T>::one()) != Sr<S, T>::one()) return true;
  return false;
}

template <class T> void prep_t(void *H, int64_t n, gsp_semiring s, bool reflexive) {
  switch (s) {
  case GSP_MIN_PLUS:
    prep<GSP_MIN_PLUS, T>((T *)H, n, reflexive);
    break;
  case GSP_MAX_PLUS:
    prep<GSP_MAX_PLUS, T>((T *)H, n, reflexive);
    break;
  case GSP_MAX_MIN:
    prep<GSP_MAX_MIN, T>((T *)H, n, reflexive);
    break;
  default:
    prep<GSP_MIN_MAX, T>((T *)H, n, reflexive);
    break;
  }
}
template <class T> bool cycle_t(const void *H, int64_t n, gsp_semiring s) {
  switch (s) {
  case GSP_MIN_PLUS:
    return has_cycle<GSP_MIN_PLUS, T>((const T *)H, n);
  case GSP_MAX_PLUS:
    return has_cycle<GSP_MAX_PLUS, T>((const T *)H, n);
  default:
    return false; /* MAX_MIN / MIN_MAX have no cycles to report */
  }
}

/* M* on the host copy (the reflexive diagonal) and whether the DPX path
 * applies (INT32 MIN_PLUS with every value >= 0): cheap next to n^3. */
bool prepare_host(void *H, int64_t n, gsp_type t, gsp_semiring s, bool reflexive) {
  bool dpx = false;
  switch (t) {
  case GSP_INT32: {
    prep_t<int32_t>(H, n, s, reflexive);
    if (s == GSP_MIN_PLUS) {
      const int32_t *x = (const int32_t *)H;
      bool nonneg = true;
      for (size_t k = 0; k < (size_t)n * n && nonneg; k++) nonneg = x[k] >= 0;
      dpx = nonneg;
    }
    break;
  }
  case GSP_INT64:
    prep_t<int64_t>(H, n, s, reflexive);
    break;
  case GSP_FP32:
    prep_t<float>(H, n, s, reflexive);
    break;
  default:
    prep_t<double>(H, n, s, reflexive);
    break;
  }
  return dpx;
}

/* The per-type schedule (gsp_cuda_scale_<type>.cu). */
gsp_info run_schedule(void *H, gsp_type t, gsp_semiring s, bool dpx, const gspsched::OocShape &sh,
                      gspsched::OocStats *st) {
  switch (t) {
  case GSP_INT32:
    return gsp__cuda_ooc_i32(H, s, dpx, sh, st);
  case GSP_INT64:
    return gsp__cuda_ooc_i64(H, s, dpx, sh, st);
  case GSP_FP32:
    return gsp__cuda_ooc_f32(H, s, dpx, sh, st);
  default:
    return gsp__cuda_ooc_f64(H, s, dpx, sh, st);
  }
}

/* Whether the closed host matrix shows a cycle that gains (its diagonal). */
bool host_cycle(const void *H, int64_t n, gsp_type t, gsp_semiring s) {
  switch (t) {
  case GSP_INT32:
    return cycle_t<int32_t>(H, n, s);
  case GSP_INT64:
    return cycle_t<int64_t>(H, n, s);
  case GSP_FP32:
    return cycle_t<float>(H, n, s);
  default:
    return cycle_t<double>(H, n, s);
  }
}

} // namespace

gsp_info gsp_cuda_fw_ooc(void *H, int64_t n, gsp_type t, gsp_semiring s, bool reflexive, const gsp_cuda_ooc_plan *plan,
                         const gsp__progress *progress, bool *cycle, gsp_cuda_ooc_report *rep) {
  static const char *const fn = "gsp_closure (CUDA, out of core)";
  *cycle = false;
  if (t == GSP_BOOL || !gsp_semiring_path_encoding(s) || n < 1)
    return GSP_ERROR(GSP_PANIC, "%s: numeric types and semirings only", fn);
  const size_t ts = gsp_type_size(t);
  const int64_t np = gsp_cuda_padded_n(t, n);
  const gsp_cuda_ooc_plan pl = *plan;
  if (pl.page_rows < 128 || pl.page_rows % 128 != 0 || pl.page_rows > np || pl.slots < 2 ||
      pl.pages != (np + pl.page_rows - 1) / pl.page_rows)
    return GSP_ERROR(GSP_INVALID_VALUE, "%s: the page plan (%lld rows, %lld pages, %d slots) does not cover n = %lld",
                     fn, (long long)pl.page_rows, (long long)pl.pages, pl.slots, (long long)n);
  const gspsched::OocShape sh = {n, np, pl.page_rows, pl.pages, pl.slots, progress};

  const bool dpx = prepare_host(H, n, t, s, reflexive);

  const auto t0 = std::chrono::steady_clock::now();
  const size_t bytes = (size_t)n * n * ts;
  cudaError_t e = cudaHostRegister(H, bytes, cudaHostRegisterPortable);
  const bool registered = e == cudaSuccess;
  bool pinned = registered;
  if (!registered) {
    (void)cudaGetLastError();
    pinned = e == cudaErrorHostMemoryAlreadyRegistered; /* the caller pinned it */
  }
  const auto t1 = std::chrono::steady_clock::now();

  gspsched::OocStats st;
  const gsp_info info = run_schedule(H, t, s, dpx, sh, &st);

  const auto t2 = std::chrono::steady_clock::now();
  if (registered) {
    cudaHostUnregister(H);
    (void)cudaGetLastError();
  }
  const auto t3 = std::chrono::steady_clock::now();
  if (info == GSP_SUCCESS && gsp_semiring_cycle_sign(s) != 0) *cycle = host_cycle(H, n, t, s);
  if (rep) {
    rep->page_rows = pl.page_rows;
    rep->pages = pl.pages;
    rep->slots = pl.slots;
    rep->device_bytes = pl.bytes;
    rep->loads = st.loads;
    rep->stores = st.stores;
    rep->pinned = pinned;
    rep->seconds_pin = std::chrono::duration<double>((t1 - t0) + (t3 - t2)).count();
  }
  return info;
}
