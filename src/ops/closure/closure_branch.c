/* Where a closure runs: the plan (closure_branch.h). */
#include "closure_branch.h"

#include <string.h>

#include "gsp_semiring.h"
#include "gsp_cuda_plugin.h"

/* No function here owns memory on its failure paths. */
#define GSP_FREE_ALL

#define MIB(b) ((double)(b) / 1048576.0)

gsp_info gsp__closure_plan_pick(gsp__closure_plan *p, const gsp__closure_device *d, gsp_type t, int64_t n, bool paths,
                                long want, size_t cap, const gsp__closure_knobs *k, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  memset(p, 0, sizeof *p);
  p->mode = GSP_SCALE_CPU;
  const bool bits = t == GSP_BOOL;
  GSP_CHECK(want <= d->usable, GSP_NO_DEVICE, "%s: %ld GPUs asked for, %d usable", fn, want, d->usable);
  int G = want > 1 ? (int)want : 1;
  const int64_t auto_n = k && k->mgpu_auto_n > 0 ? k->mgpu_auto_n : GSP_CLOSURE_MGPU_AUTO_N;
  if (want == 0 && d->usable > 1 && n >= auto_n && d->mgpu_built) G = d->usable;
  /* successors and bit-packed OR_AND are closed on one GPU; matrices with
   * fewer 128-tiles than GPUs in a grid row as well */
  if (G > 1 && (bits || paths || d->mgpu_bytes(t, n, G) == 0)) G = 1;
  if (!d->memory_known) {
    gsp__device_decline(GSP_DEVICE_OUT_OF_MEMORY, "the free device memory cannot be read");
    return info;
  }
  if (G > 1 && want == 0) {
    /* automatic: only when the blocks fit (free memory of this GPU as the
     * estimate for all) */
    const size_t per = d->mgpu_bytes(t, n, G);
    if (per > d->free_bytes || (cap && per > cap)) G = 1;
  }
  if (G > 1) {
    p->mode = GSP_SCALE_MGPU;
    p->gpus = G;
    p->cap = cap;
    return info;
  }
  p->gpus = 1;
  const size_t room = d->free_bytes + d->resident_bytes; /* a resident copy of M is reused */
  const bool uncapped = cap == 0 || cap >= room;
  const size_t limit = uncapped ? room : cap;
  if (d->need_bytes <= limit) {
    p->mode = GSP_SCALE_IN_CORE;
    return info;
  }
  /* Out of core. Not for successors or bit-packed OR_AND: the CPU runs
   * those. Without a cap some free memory is left to the runtime. */
  if (bits || paths) {
    gsp__device_decline(GSP_DEVICE_OUT_OF_MEMORY,
                        "n = %lld: the closure%s needs %zu bytes of device memory and %zu are available "
                        "(out of core covers neither successors nor bit-packed OR_AND)",
                        (long long)n, paths ? " with successors" : "", d->need_bytes, limit);
    return info;
  }
  const size_t budget = !uncapped ? limit : limit > GSP_CLOSURE_OOC_MARGIN ? limit - GSP_CLOSURE_OOC_MARGIN : 0;
  const size_t ts = gsp_type_size(t), least = gsp__ooc_bytes(d->np, ts, 128, 2);
  if (!gsp__ooc_plan_make(&p->page, d->np, ts, budget, k ? k->ooc_page_rows : 0, k ? k->ooc_slots : 0)) {
    /* the device is nearly full (other processes hold it): the CPU runs it under AUTO */
    if (uncapped) {
      gsp__device_decline(GSP_DEVICE_OUT_OF_MEMORY,
                          "n = %lld: the device has %zu bytes free, below the %zu bytes that out-of-core "
                          "closure needs",
                          (long long)n, room, least);
      return info;
    }
    return GSP_ERROR(GSP_DEVICE_OUT_OF_MEMORY,
                     "%s: n = %lld: the device memory cap of %zu bytes is below the %zu bytes that out-of-core "
                     "closure needs (two pages of 128 rows)",
                     fn, (long long)n, cap, least);
  }
  p->mode = GSP_SCALE_OOC;
  p->budget = budget;
  return info;
}

/* Bytes of M's dense device copy (0 when none): a closure reuses them. */
static size_t resident_bytes(const gsp__cuda_api *cu, const struct gsp_matrix_s *M) {
  gsp_cuda_dense_info st;
  const gsp_cuda_arrays v = gsp__matrix_cuda_arrays(M);
  cu->dense_state(&st, &v);
  return st.bytes;
}

/* What the GPUs offer a closure of M, as the planner reads it. */
static gsp_info device_facts(gsp__closure_device *d, const struct gsp_matrix_s *M, bool paths, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  const gsp__cuda_api *cu;
  GSP_TRY(gsp__cuda_get(&cu, fn));
  memset(d, 0, sizeof *d);
  size_t total = 0;
  d->usable = cu->usable_count();
  d->mgpu_built = cu->mgpu_built();
  d->memory_known = cu->memory(&d->free_bytes, &total);
  d->resident_bytes = resident_bytes(cu, M);
  d->need_bytes = cu->closure_bytes(M->type, M->nrows, paths);
  d->np = cu->padded_n(M->type, M->nrows);
  d->mgpu_bytes = cu->mgpu_bytes;
  return info;
}

/* Whether every present value of M has the sign `sign` (> 0 or < 0; with
 * zero_ok, >= 0 or <= 0), skipping the diagonal when off_diagonal. Bit-packed
 * storage has no signs: false. */
#define SIGN_OK_(v) (zero_ok ? (sign > 0 ? (v) >= 0 : (v) <= 0) : (sign > 0 ? (v) > 0 : (v) < 0))
#define SIGN_SCAN_(ct)                                                                                                \
  {                                                                                                                   \
    const ct *x = (const ct *)M->x;                                                                                   \
    _Pragma(                                                                                                          \
        "omp parallel for num_threads(nt) schedule(dynamic, 256) reduction(| : bad) if (nt > 1)") for (int64_t i = 0; \
                                                                                                       i < n; i++) {  \
      if (M->fmt == GSP_FMT_CSR) {                                                                                    \
        for (gsp_index q = M->p[i]; q < M->p[i + 1]; q++)                                                             \
          bad |= !(off_diagonal && (int64_t)M->j[q] == i) && !SIGN_OK_(x[q]);                                         \
      } else {                                                                                                        \
        const ct *xr = x + (size_t)i * (size_t)n;                                                                     \
        const uint8_t *br = M->b ? M->b + (size_t)i * (size_t)n : NULL;                                               \
        for (int64_t j = 0; j < n; j++) bad |= !(off_diagonal && j == i) && (!br || br[j]) && !SIGN_OK_(xr[j]);       \
      }                                                                                                               \
    }                                                                                                                 \
  }
static bool all_signed(const struct gsp_matrix_s *M, int sign, bool zero_ok, bool off_diagonal) {
  const int64_t n = M->nrows;
  const size_t work = M->fmt == GSP_FMT_CSR ? (size_t)M->nvals : (size_t)n * (size_t)n;
  const int nt = work < ((size_t)1 << 18) ? 1 : gsp__threads();
  int bad = 0;
  switch (M->fmt == GSP_FMT_BITS ? GSP_BOOL : M->type) {
  case GSP_INT32:
    SIGN_SCAN_(int32_t) break;
  case GSP_INT64:
    SIGN_SCAN_(int64_t) break;
  case GSP_FP32:
    SIGN_SCAN_(float) break;
  case GSP_FP64:
    SIGN_SCAN_(double) break;
  default:
    return false;
  }
  return bad == 0;
}
#undef SIGN_SCAN_
#undef SIGN_OK_

static const char *const mode_names[] = {"CPU", "one GPU, resident", "one GPU, out of core", "several GPUs"};

gsp_info gsp__closure_branch(gsp__closure_plan *p, struct gsp_matrix_s *M, bool paths, gsp_semiring s,
                             const gsp_closure_advanced *oa, const gsp__closure_knobs *k, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  memset(p, 0, sizeof *p);
  p->mode = GSP_SCALE_CPU;
  const gsp_type t = M->type;
  const int64_t n = M->nrows;
  /* the GPU kernels: dense numeric for the path semirings, bit-packed for
   * OR_AND, every semiring that has a closure */
  if (!gsp_semiring_has_closure(s) || !gsp__semiring_fits(s, t)) {
    gsp__device_decline(GSP_DOMAIN_MISMATCH, "the GPU closure has no kernel for %s on %s", gsp__semiring_name(s),
                        gsp__type_name(t));
    return info;
  }
  if (t == GSP_BOOL && paths) { /* no bit-packed path recording */
    gsp__device_decline(GSP_DOMAIN_MISMATCH, "the GPU closure of OR_AND records no successors");
    return info;
  }
  if (n == 0) return info;
  if (paths) {
    /* Blocked FW computes exact distances under any ties, but its
     * successors can loop when an optimal walk ties a path through a
     * zero-weight cycle (the panel products use the diagonal tile already
     * closed over the whole k-block, so a lower k can win a tie that
     * sequential FW gives to a higher one). With every cycle strictly
     * positive (MIN_PLUS) or negative (MAX_PLUS), d strictly decreases along
     * the successors and no loop is possible; other inputs with paths go to
     * the CPU. The diagonal is skipped: a self-loop never wins. */
    const int sign = -gsp_semiring_cycle_sign(s);
    if (sign == 0) {
      gsp__device_decline(GSP_DOMAIN_MISMATCH, "the GPU closure records successors for MIN_PLUS and MAX_PLUS only");
      return info;
    }
    GSP_TRY(gsp__matrix_host(M));
    if (!all_signed(M, sign, false, true)) {
      gsp__device_decline(GSP_DOMAIN_MISMATCH,
                          "the GPU closure records successors only where they are provably "
                          "loop-free (every weight %s 0)",
                          sign > 0 ? ">" : "<");
      return info;
    }
  }
  /* How many GPUs: the option, else GSP_GPUS, else automatic. */
  long want = oa->gpus;
  if (want <= 0) {
    want = gsp__setting_gpus();
    GSP_CHECK(want >= 0, GSP_INVALID_VALUE, "%s: GSP_GPUS='%s' is not a positive GPU count", fn,
              gsp__setting_gpus_text());
  }
  gsp__closure_device d;
  GSP_TRY(device_facts(&d, M, paths, fn));
  GSP_TRY(gsp__closure_plan_pick(p, &d, t, n, paths, want, oa->device_memory_cap, k, fn));
  if (gsp__burble_on()) {
    if (p->mode == GSP_SCALE_OOC)
      gsp__burble("%s: n = %lld %s %s: %s, %.0f of %.0f MiB needed fit: pages of %lld rows, %d slots (%.0f MiB)", fn,
                  (long long)n, gsp__semiring_name(s), gsp__type_name(t), mode_names[p->mode], MIB(p->budget),
                  MIB(d.need_bytes), (long long)p->page.page_rows, p->page.slots, MIB(p->page.bytes));
    else if (p->mode != GSP_SCALE_CPU)
      gsp__burble("%s: n = %lld %s %s: %s (%d GPU%s; %.0f MiB needed, %.0f MiB free)", fn, (long long)n,
                  gsp__semiring_name(s), gsp__type_name(t), mode_names[p->mode], p->gpus, p->gpus > 1 ? "s" : "",
                  MIB(d.need_bytes), MIB(d.free_bytes + d.resident_bytes));
  }
  if (p->mode == GSP_SCALE_MGPU && t == GSP_INT32 && s == GSP_MIN_PLUS) {
    /* the DPX product; the several-GPU path takes the host copy anyway */
    GSP_TRY(gsp__matrix_host(M));
    p->nonneg_i32 = all_signed(M, 1, true, false);
  }
  return info;
}
