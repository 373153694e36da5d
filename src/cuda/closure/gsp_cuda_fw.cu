/* Type dispatch of the device-level closure (gsp_cuda_fw.h) and run_fw's
 * kept scratch. */
#include <mutex>

#include "gsp_cuda_fw.cuh"

/* No function here owns memory on its failure paths. */
#define GSP_FREE_ALL ((void)0)

namespace gspcu {

/* Kept scratch, one entry per device (up to FW_SCRATCH_DEVICES); busy while
 * a call holds it. */
constexpr int FW_SCRATCH_DEVICES = 16;
static std::mutex scratch_mu;
static FwScratch scratch_kept[FW_SCRATCH_DEVICES];
static bool scratch_busy[FW_SCRATCH_DEVICES];

static void scratch_free(FwScratch *s) {
  if (s->ws) cudaFree(s->ws);
  if (s->flag) cudaFree(s->flag);
  s->side.release();
  *s = FwScratch();
}

gsp_info fw_scratch_get(FwScratch *s, size_t ws_bytes) {
  gsp_info info = GSP_SUCCESS;
  int dev = 0;
  GSP_CUDA_TRY(cudaGetDevice(&dev));
  if (ws_bytes <= FW_SCRATCH_KEEP && dev < FW_SCRATCH_DEVICES) {
    std::lock_guard<std::mutex> g(scratch_mu);
    if (!scratch_busy[dev]) scratch_busy[dev] = true, *s = scratch_kept[dev], s->slot = dev;
  }
  if (s->cap < ws_bytes) {
    if (s->ws) GSP_CUDA_TRY(cudaFree(s->ws));
    s->ws = nullptr, s->cap = 0;
    GSP_CUDA_TRY(cudaMalloc(&s->ws, ws_bytes));
    s->cap = ws_bytes;
  }
  if (!s->flag) GSP_CUDA_TRY(cudaMalloc((void **)&s->flag, sizeof(int)));
  if (!s->side.q) GSP_CUDA_TRY(s->side.create());
  return info;
}

void fw_scratch_put(FwScratch *s, bool ok) {
  const int slot = s->slot;
  s->slot = -1;
  if (!ok || slot < 0) scratch_free(s); /* after an error its state is unknown */
  if (slot < 0) return;
  std::lock_guard<std::mutex> g(scratch_mu);
  scratch_kept[slot] = *s, scratch_busy[slot] = false;
  *s = FwScratch();
}

} /* namespace gspcu */

int64_t gsp_cuda_padded_n(gsp_type t, int64_t n) {
  /* bool: one phase-3 tile is 64 words = 4096 columns wide */
  const int64_t q = t == GSP_BOOL ? 4096 : GSP_CUDA_FW_BLOCK;
  if (n < 1) n = 1;
  return (n + q - 1) / q * q;
}

size_t gsp_cuda_closure_bytes(gsp_type t, int64_t n, bool paths) {
  const size_t np = (size_t)gsp_cuda_padded_n(t, n);
  if (t == GSP_BOOL) return np * np / 8 + (size_t)GSP_CUDA_FW_BLOCK * np * 4 + 64;
  const size_t ts = gsp_type_size(t);
  /* two workspaces W (gsp_cuda_fw.cuh: one round of lookahead) */
  size_t b = np * np * ts + 2 * (size_t)GSP_CUDA_FW_BLOCK * np * ts + 64;
  /* successors: the int32 matrix and SL candidate arcs a row */
  if (paths) b += np * np * 4 + np * (size_t)gspcu::SL * (4 + ts) + 8;
  return b;
}

gsp_info gsp_cuda_fw_device(void *d, int32_t *succ, int64_t n, int64_t np, gsp_type t, gsp_semiring s, bool reflexive,
                            bool nonneg_i32, const gsp__progress *progress, bool *cycle) {
  *cycle = false;
  switch (t) {
  case GSP_BOOL:
    if (s != GSP_OR_AND || succ) return GSP_ERROR(GSP_PANIC, "gsp_cuda_fw: bool closure is OR_AND without paths");
    /* 512-bit rounds halve the epilogues but double the per-round fixed
     * kernels (diagonal, column panel): measured faster only from 65536 */
    return gsp__cuda_fw_bits_tc((uint64_t *)d, n, np, reflexive, np >= 65536 ? 512 : 256, progress);
  case GSP_INT32:
    if (s == GSP_MIN_PLUS && nonneg_i32)
      return gsp__cuda_fw_i32_dpx((int32_t *)d, succ, n, np, reflexive, progress, cycle);
    return gsp__cuda_fw_i32((int32_t *)d, succ, n, np, s, reflexive, progress, cycle);
  case GSP_INT64:
    return gsp__cuda_fw_i64((int64_t *)d, succ, n, np, s, reflexive, progress, cycle);
  case GSP_FP32:
    return gsp__cuda_fw_f32((float *)d, succ, n, np, s, reflexive, progress, cycle);
  case GSP_FP64:
    return gsp__cuda_fw_f64((double *)d, succ, n, np, s, reflexive, progress, cycle);
  }
  return GSP_ERROR(GSP_PANIC, "gsp_cuda_fw: invalid type %d", (int)t);
}

gsp_info gsp_cuda_fw_bits_impl(void *d, int64_t n, int64_t np, bool reflexive, int tc_depth) {
  return tc_depth ? gsp__cuda_fw_bits_tc((uint64_t *)d, n, np, reflexive, tc_depth, nullptr)
                  : gsp__cuda_fw_bits((uint64_t *)d, n, np, reflexive);
}

gsp_info gsp_cuda_fw_phases(void *d, int64_t n, int64_t np, gsp_type t, gsp_semiring s, bool nonneg_i32, int variant,
                            float ms[3]) {
  switch (t) {
  case GSP_INT32:
    if (s == GSP_MIN_PLUS && nonneg_i32) return gsp__cuda_fw_phases_i32_dpx((int32_t *)d, n, np, variant, ms);
    return gsp__cuda_fw_phases_i32((int32_t *)d, n, np, s, variant, ms);
  case GSP_INT64:
    return gsp__cuda_fw_phases_i64((int64_t *)d, n, np, s, variant, ms);
  case GSP_FP32:
    return gsp__cuda_fw_phases_f32((float *)d, n, np, s, variant, ms);
  case GSP_FP64:
    return gsp__cuda_fw_phases_f64((double *)d, n, np, s, variant, ms);
  default:
    return GSP_ERROR(GSP_PANIC, "gsp_cuda_fw_phases: numeric types only, not %d", (int)t);
  }
}

gsp_info gsp_cuda_count_present(int64_t *count, const void *d, int64_t n, int64_t np, gsp_type t, gsp_semiring s) {
  switch (t) {
  case GSP_BOOL:
    return gsp__cuda_count_bits(count, (const uint64_t *)d, n, np);
  case GSP_INT32:
    return gsp__cuda_count_i32(count, (const int32_t *)d, n, np, s);
  case GSP_INT64:
    return gsp__cuda_count_i64(count, (const int64_t *)d, n, np, s);
  case GSP_FP32:
    return gsp__cuda_count_f32(count, (const float *)d, n, np, s);
  case GSP_FP64:
    return gsp__cuda_count_f64(count, (const double *)d, n, np, s);
  }
  return GSP_ERROR(GSP_PANIC, "gsp_cuda_count_present: invalid type %d", (int)t);
}

gsp_info gsp_cuda_fill_zero(void *d, int64_t np, gsp_type t, gsp_semiring s) {
  gsp_info info = GSP_SUCCESS;
  switch (t) {
  case GSP_BOOL:
    GSP_CUDA_TRY(cudaMemset(d, 0, (size_t)np * (size_t)np / 8));
    return info;
  case GSP_INT32:
    return gsp__cuda_fill_i32((int32_t *)d, np, s);
  case GSP_INT64:
    return gsp__cuda_fill_i64((int64_t *)d, np, s);
  case GSP_FP32:
    return gsp__cuda_fill_f32((float *)d, np, s);
  case GSP_FP64:
    return gsp__cuda_fill_f64((double *)d, np, s);
  }
  return GSP_ERROR(GSP_PANIC, "gsp_cuda_fill_zero: invalid type %d", (int)t);
}
