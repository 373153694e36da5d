/*
 * gsp_closure / gsp_closure_ext: argument checks, the backend decision and
 * the branch (closure_branch.c), and the commit. Every path but the
 * resident GPU one (whose result stays on the device) computes on a private
 * host copy of M, committed with gsp__matrix_swap_in only when complete, so
 * every error (a negative cycle included) leaves M as it was.
 */
#include <math.h>
#include <string.h>

#include "closure_branch.h"
#include "closure_cpu.h"
#include "gsp_internal.h"
#include "gsp_semiring.h"
#include "ops_backend.h"
#include "gsp_cuda_plugin.h"

static const char *const fn = "gsp_closure";

/* Whether any stored value of M is NaN (absent slots of dense storage are
 * not values and are skipped). */
static bool has_nan(const struct gsp_matrix_s *M) {
  if (M->type != GSP_FP32 && M->type != GSP_FP64) return false;
  size_t count = M->fmt == GSP_FMT_CSR ? (size_t)M->nvals : (size_t)M->nrows * (size_t)M->ncols;
  const uint8_t *b = M->fmt == GSP_FMT_DENSE ? M->b : NULL;
  int nan = 0;
  const int nt = count < ((size_t)1 << 18) ? 1 : gsp__threads();
  if (M->type == GSP_FP32) {
    const float *x = M->x;
#pragma omp parallel for num_threads(nt) schedule(static) reduction(| : nan) if (nt > 1)
    for (size_t k = 0; k < count; k++) nan |= isnan(x[k]) && (!b || b[k]);
  } else {
    const double *x = M->x;
#pragma omp parallel for num_threads(nt) schedule(static) reduction(| : nan) if (nt > 1)
    for (size_t k = 0; k < count; k++) nan |= isnan(x[k]) && (!b || b[k]);
  }
  return nan != 0;
}

static int64_t popcount_words(const uint64_t *w, size_t count) {
  int64_t c = 0;
  for (size_t k = 0; k < count; k++) {
#if defined(__GNUC__)
    c += __builtin_popcountll(w[k]);
#else
    for (uint64_t v = w[k]; v; v &= v - 1) c++;
#endif
  }
  return c;
}

/* The closure of the full host copy W (n x n values, the zero of s where
 * absent) on the GPU(s) of the plan: out of core or over several GPUs.
 * Fills the report. */
static gsp_info closure_gpu_host(struct gsp_matrix_s *W, gsp_semiring s, bool reflexive, const gsp__closure_plan *pl,
                                 const gsp__progress *pg, bool *cycle, gsp__scale_record *rec) {
  gsp_info info = GSP_SUCCESS;
  gsp_cuda_mgpu mg = NULL;
  const gsp__cuda_api *cu = NULL;
#define GSP_FREE_ALL \
  if (mg) cu->mgpu_destroy(mg)
  GSP_TRY(gsp__cuda_get(&cu, fn));
  const int64_t n = W->nrows;
  rec->mode = pl->mode;
  rec->gpus = pl->gpus;
  if (pl->mode == GSP_SCALE_MGPU) {
    GSP_TRY(cu->mgpu_create(&mg, W->type, n, pl->gpus, pl->cap, gsp__setting_nccl_library()));
    GSP_TRY(cu->mgpu_upload(mg, W->x, s));
    cu->mgpu_grid(mg, &rec->grid_rows, &rec->grid_cols);
    GSP_TRY(cu->mgpu_run(mg, s, reflexive, pl->nonneg_i32, pg, cycle));
    if (!*cycle) GSP_TRY(cu->mgpu_download(mg, W->x));
  } else {
    gsp_cuda_ooc_report rep;
    GSP_TRY(cu->fw_ooc(W->x, n, W->type, s, reflexive, &pl->page, pg, cycle, &rep));
    rec->page_rows = rep.page_rows;
    rec->pages = rep.pages;
    rec->slots = rep.slots;
    rec->loads = rep.loads;
    rec->stores = rep.stores;
    gsp__burble("%s: out of core: %lld pages of %lld rows, %d slots, %lld loads, %lld stores", fn, (long long)rep.pages,
                (long long)rep.page_rows, rep.slots, (long long)rep.loads, (long long)rep.stores);
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_closure(gsp_matrix M, gsp_semiring s) {
  return gsp__closure_run(M, NULL, s, NULL, NULL, NULL);
}

gsp_info gsp_closure_ext(gsp_matrix M, gsp_matrix *succ, gsp_semiring s, const gsp_closure_opts *opts) {
  return gsp__closure_run(M, succ, s, opts, NULL, NULL);
}

/* The arguments of a closure call. */
static gsp_info check_call(gsp_matrix M, const gsp_matrix *succ, gsp_semiring s, const gsp_closure_opts *opts) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__check_matrix(M, fn, "M"));
  /* succ pointing at the caller's handle of M: the commit would replace
   * that handle with the successor matrix and lose the closure */
  GSP_CHECK(succ == NULL || *succ != M, GSP_INVALID_VALUE,
            "%s: outputs succ and M alias each other (succ points at M's handle)", fn);
  const gsp_closure_opts o = opts ? *opts : (gsp_closure_opts){0};
  GSP_CHECK(s >= GSP_MIN_PLUS && s <= GSP_PLUS_TIMES, GSP_INVALID_VALUE, "%s: invalid semiring code %d", fn, (int)s);
  GSP_CHECK(gsp_semiring_has_closure(s), GSP_DOMAIN_MISMATCH, "%s: %s has no closure (I + A + A^2 + ... diverges)", fn,
            gsp__semiring_name(s));
  GSP_CHECK(gsp__semiring_fits(s, M->type), GSP_DOMAIN_MISMATCH, "%s: semiring %s does not apply to type %s", fn,
            gsp__semiring_name(s), gsp__type_name(M->type));
  GSP_CHECK(M->nrows == M->ncols, GSP_DIMENSION_MISMATCH, "%s: M is %lld x %lld, not square", fn, (long long)M->nrows,
            (long long)M->ncols);
  GSP_CHECK(!o.advanced || o.advanced->gpus >= 0, GSP_INVALID_VALUE, "%s: gpus = %d in options is negative", fn,
            o.advanced ? o.advanced->gpus : 0);
  return info;
}

/* gsp_closure's sparse branch (closure_star.c) for a host M with no NaN:
 * *done when the star computed M* (and *succ). */
static gsp_info try_star(gsp_matrix M, gsp_matrix *succ, gsp_semiring s, bool fw_gpu, const gsp__progress *pg,
                         bool *done) {
  gsp_info info = GSP_SUCCESS;
  GSP_CHECK(!has_nan(M), GSP_INVALID_VALUE, "%s: M holds a NaN weight", fn);
  struct gsp_matrix_s *ss = NULL;
  GSP_TRY(gsp__star_closure_try(M, succ ? &ss : NULL, s, fw_gpu, done, pg, fn));
  if (*done && succ) *succ = ss;
  return info;
}

/* *W = a private working copy of M (unregistered): M stays untouched until
 * the commit. */
static gsp_info working_copy(struct gsp_matrix_s **W, gsp_matrix M) {
  gsp_info info = GSP_SUCCESS;
  /* NaN has no place in an ordered semiring: min/max would silently drop or
   * keep it depending on operand order. The resident GPU path checks it in
   * its own pass over M (the upload's conversion). A device-resident M is
   * the result of an earlier closure whose input passed this check, and
   * closures make no NaN: scanning it would cost a full download and defeat
   * residency. */
  if (!M->dev_only) GSP_CHECK(!has_nan(M), GSP_INVALID_VALUE, "%s: M holds a NaN weight", fn);
  gsp_matrix copy = NULL;
  GSP_TRY(gsp_matrix_dup(&copy, M));
  gsp__unregister(copy);
  *W = copy;
#undef GSP_FREE_ALL
  return info;
}

/* The dense closure of the working copy W on the host (the CPU kernel, or
 * the GPU out of core or on several GPUs as the plan says), with *S = the
 * successor matrix (unpublished) when S != NULL. */
static gsp_info dense_closure(struct gsp_matrix_s *W, struct gsp_matrix_s **S, gsp_semiring s, bool reflexive,
                              const gsp__closure_plan *plan, const gsp__progress *pg, gsp__scale_record *rec) {
  gsp_info info = GSP_SUCCESS;
  int64_t *sx = NULL;
#define GSP_FREE_ALL gsp__free(sx)
  const int64_t n = W->nrows;
  char zero[16]; /* one value of any type */
  gsp__semiring_zero(zero, s, W->type);
  GSP_TRY(gsp__matrix_to_full(W, zero));
  if (S) {
    const size_t nn = (size_t)n * (size_t)n;
    GSP_ALLOC(sx, nn, sizeof(int64_t));
  }
  bool cycle = false;
  if (plan->mode != GSP_SCALE_CPU) GSP_TRY(closure_gpu_host(W, s, reflexive, plan, pg, &cycle, rec));
  else GSP_TRY(gsp__closure_cpu_dense(W->x, sx, n, W->type, s, reflexive, &cycle, pg));
  GSP_CHECK(!cycle, GSP_NEGATIVE_CYCLE, "%s: the graph has a %s cycle (M unchanged)", fn,
            gsp_semiring_cycle_sign(s) > 0 ? "positive" : "negative");
  /* "No path" is the semiring zero inside the kernel, absent outside. */
  GSP_TRY(gsp__matrix_mark_absent(W, zero));
  if (S) {
    const int64_t none = -1;
    GSP_TRY(gsp__matrix_alloc_dense(S, GSP_INT64, n, n));
    (*S)->x = sx;
    sx = NULL;
    (*S)->nvals = n * n;
    GSP_TRY(gsp__matrix_mark_absent(*S, &none));
  }
#undef GSP_FREE_ALL
  return info;
}

/* The caller's report (when asked for) of a closure that succeeded. */
static void report_ran(const gsp_closure_advanced *oa, int gpus) {
  if (oa->report) *oa->report = (gsp_run_report){.backend = gpus ? GSP_BACKEND_CUDA : GSP_BACKEND_CPU, .gpus = gpus};
}

/* The plan of a call offered to the GPU (closure_branch.c). Declined: the
 * CPU kernel takes it under AUTO, an explicit CUDA request fails with the
 * reason. */
static gsp_info gpu_plan(gsp__closure_plan *plan, gsp__backend_choice *be, gsp_matrix M, bool want_succ, gsp_semiring s,
                         const gsp_closure_advanced *oa, const gsp__closure_knobs *k) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__closure_branch(plan, M, want_succ, s, oa, k, fn));
  if (plan->mode == GSP_SCALE_CPU) GSP_TRY(gsp__backend_declined(be, fn));
#undef GSP_FREE_ALL
  return info;
}

/* The resident GPU closure: the result stays on the device, the launcher
 * keeps M's device copy. The successor matrix is made and published first
 * and takes the launcher's arrays after, so nothing fails once M holds M*. */
static gsp_info closure_resident(gsp_matrix M, gsp_matrix *succ, gsp_semiring s, bool reflexive,
                                 const gsp__progress *pg, gsp__scale_record *rec) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *S = NULL;
#define GSP_FREE_ALL gsp__matrix_destroy(S)
  const gsp__cuda_api *cu;
  GSP_TRY(gsp__cuda_get(&cu, fn));
  const int64_t n = M->nrows;
  gsp_cuda_host_result sres = {0};
  rec->mode = GSP_SCALE_IN_CORE;
  rec->gpus = 1;
  if (succ) {
    GSP_TRY(gsp__matrix_alloc_dense(&S, GSP_INT64, n, n));
    GSP_TRY(gsp__matrix_publish(S));
  }
  /* A device copy of another order or encoding is made again from the
   * host content; where a cycle could destroy the only copy, a host copy is
   * made first. */
  const gsp_cuda_arrays v0 = gsp__matrix_cuda_arrays(M);
  gsp_cuda_dense_info st;
  cu->dense_state(&st, &v0);
  if (st.any && !gsp__dense_serves(&v0, s, cu->padded_n(M->type, n))) {
    GSP_TRY(gsp__matrix_host(M));
    gsp__matrix_release_device(M);
  } else if (st.any && M->dev_only && gsp_semiring_cycle_sign(s) != 0 && !(st.closed && st.closed_sr == s)) {
    GSP_TRY(gsp__matrix_host(M));
  }
  const gsp_cuda_arrays v = gsp__matrix_cuda_arrays(M);
  int64_t nvals = 0;
  info = cu->closure_resident(&v, M->dev_only, &nvals, succ ? &sres : NULL, s, reflexive, pg);
  if (info >= 0) M->nvals = nvals, M->dev_only = true;
  if (info < 0) {
    if (S) gsp__unregister(S); /* published above; GSP_FREE_ALL destroys it */
    GSP_FREE_ALL;
    return info;
  }
  if (succ) {
    gsp__matrix_take_result(S, &sres);
    *succ = S;
  }
#undef GSP_FREE_ALL
  return info;
}

/* Before a host-side GPU plan (out of core, several GPUs): the host copy
 * becomes the valid one and the device memory is freed for the pages (M's
 * content does not change). */
static gsp_info release_device_copy(gsp_matrix M) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__matrix_host(M));
  gsp__matrix_release_device(M);
#undef GSP_FREE_ALL
  return info;
}

/* The closure of the working copy W on the host side: on bit rows for
 * OR_AND without successors, else dense (*S: the successor matrix when S
 * != NULL). */
static gsp_info host_closure(struct gsp_matrix_s *W, struct gsp_matrix_s **S, gsp_semiring s, bool reflexive,
                             const gsp__closure_plan *plan, const gsp__progress *pg, gsp__scale_record *rec) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  const int64_t n = W->nrows;
  if (s == GSP_OR_AND && S == NULL) {
    GSP_TRY(gsp__matrix_to_bits(W));
    gsp__closure_cpu_bits(W->bits, n, W->wpr, reflexive, pg);
    W->nvals = popcount_words(W->bits, (size_t)n * (size_t)W->wpr);
  } else {
    GSP_TRY(dense_closure(W, S, s, reflexive, plan, pg, rec));
  }
  gsp__matrix_host_changed(W);
#undef GSP_FREE_ALL
  return info;
}

/* The commit: publishes *S, then swaps *W into M and hands *S to *succ
 * (both NULL after); nothing can fail past the publish. */
static gsp_info commit(gsp_matrix M, struct gsp_matrix_s **W, gsp_matrix *succ, struct gsp_matrix_s **S) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  if (*S) GSP_TRY(gsp__matrix_publish(*S));
  gsp__matrix_swap_in(M, *W);
  *W = NULL;
  gsp__matrix_host_changed(M);
  if (succ) *succ = *S;
  *S = NULL;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__closure_run(gsp_matrix M, gsp_matrix *succ, gsp_semiring s, const gsp_closure_opts *opts,
                          const gsp__closure_knobs *k, gsp__diag *diag) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *W = NULL, *S = NULL;
  gsp__scale_record rec;
  memset(&rec, 0, sizeof rec); /* GSP_SCALE_CPU until a GPU path runs */
#define GSP_FREE_ALL (gsp__matrix_destroy(W), gsp__matrix_destroy(S), diag ? (void)(diag->closure = rec) : (void)0)

  GSP_TRY(check_call(M, succ, s, opts));
  const gsp_closure_opts o = opts ? *opts : (gsp_closure_opts){0};
  const gsp_closure_advanced oa = o.advanced ? *o.advanced : (gsp_closure_advanced){0};
  const gsp__progress pg = {.fn = oa.progress, .ctx = oa.progress_ctx};
  const bool reflexive = !o.non_reflexive;

  gsp__closure_plan plan;
  memset(&plan, 0, sizeof plan); /* GSP_SCALE_CPU */
  gsp__backend_choice be;
  GSP_TRY(gsp__backend_pick(&be, o.backend, true, fn));
  /* A sparse graph whose star costs less by elimination in a fill-reducing
   * order (road networks, meshes, grids): the sparse star, priced by the
   * same model as gsp_apsp's AUTO (closure_star.c). It runs on the CPU. */
  if (reflexive && !be.required && !M->dev_only) {
    bool done = false;
    GSP_TRY(try_star(M, succ, s, be.gpu, &pg, &done));
    if (done) {
      report_ran(&oa, 0);
      gsp__progress_report(&pg, 1.0);
      GSP_FREE_ALL;
      return info;
    }
  }

  if (be.gpu) GSP_TRY(gpu_plan(&plan, &be, M, succ != NULL, s, &oa, k));
  if (plan.mode == GSP_SCALE_IN_CORE) {
    info = closure_resident(M, succ, s, reflexive, &pg, &rec);
    if (info >= 0) report_ran(&oa, 1), gsp__progress_report(&pg, 1.0);
    GSP_FREE_ALL;
    return info;
  }
  if (plan.mode != GSP_SCALE_CPU) GSP_TRY(release_device_copy(M));

  GSP_TRY(working_copy(&W, M));
  GSP_TRY(host_closure(W, succ ? &S : NULL, s, reflexive, &plan, &pg, &rec));
  GSP_TRY(commit(M, &W, succ, &S));
  report_ran(&oa, rec.mode == GSP_SCALE_CPU ? 0 : rec.gpus > 0 ? rec.gpus : 1);
  gsp__progress_report(&pg, 1.0);
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
