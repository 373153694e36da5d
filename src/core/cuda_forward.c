/*
 * The C gateway's functions (gsp_cuda.h, gsp_cuda_fw.h, gsp_cuda_scale.h)
 * on the core's side: each forwards to the plugin's table
 * (src/cuda/include/gsp_cuda_plugin.h, loaded by cuda_loader.c), so callers keep
 * calling them by name. Without the plugin: questions answer "no GPU"
 * (gsp_cuda_usable says why), releases have nothing to release (no object
 * got device data), and a call that would run on the device fails with
 * GSP_NO_DEVICE and the reason, never running elsewhere in silence.
 */
#ifdef GSP_HAVE_CUDA

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "gsp_cuda_plugin.h"

/* A matrix's (or vector's) device copy is one cache that every GPU call on
 * it shares and may replace (CSR, transpose, shortest-path data). Calls that
 * read one object from several threads therefore take its lock for their
 * device part: the cache is built once and never replaced under another
 * call. Striped by the address of the object's device slot (`dev`, which a
 * matrix's gsp_cuda_arrays view carries too). Plain locks: the plugin calls nothing back
 * into the core but its allocator, log and team, so no call comes back
 * into the gateway while one is held. Never taken while holding the
 * core's conversion lock (matrix_format.c): the operation converts storage
 * before its device call. */
#define DEV_STRIPES 64
static pthread_mutex_t dev_lock[DEV_STRIPES];
static pthread_once_t dev_once = PTHREAD_ONCE_INIT;

static void dev_lock_init(void) {
  for (int k = 0; k < DEV_STRIPES; k++) pthread_mutex_init(&dev_lock[k], NULL);
}

static int stripe(const void *obj) {
  return (int)(((uintptr_t)obj >> 6) % DEV_STRIPES);
}

/* Lock the stripes of up to two objects (NULL: none), lower index first. */
typedef struct {
  int k[2];
} dev_held;

static dev_held dev_enter(const void *x, const void *y) {
  pthread_once(&dev_once, dev_lock_init);
  int a = x ? stripe(x) : -1, b = y ? stripe(y) : -1;
  if (a == b) b = -1;
  if (a < 0 || (b >= 0 && b < a)) {
    const int t = a;
    a = b;
    b = t;
  }
  if (a >= 0) pthread_mutex_lock(&dev_lock[a]);
  if (b >= 0) pthread_mutex_lock(&dev_lock[b]);
  return (dev_held){{a, b}};
}

static void dev_leave(dev_held h) {
  for (int i = 1; i >= 0; i--)
    if (h.k[i] >= 0) pthread_mutex_unlock(&dev_lock[h.k[i]]);
}

/* A device entry that reads x and y (NULL: none) under their locks. */
#define GSP_RUN_LOCKED_(fn, x, y, call)  \
  do {                                   \
    const gsp__cuda_api *a_ = need(fn);  \
    if (!a_) {                           \
      *taken = true;                     \
      return GSP_NO_DEVICE;              \
    }                                    \
    const dev_held h_ = dev_enter(x, y); \
    const gsp_info r_ = a_->call;        \
    dev_leave(h_);                       \
    return r_;                           \
  } while (0)

/* The table, loading the plugin if needed; NULL after recording
 * GSP_NO_DEVICE with the reason for `fn`. */
static const gsp__cuda_api *need(const char *fn) {
  char why[512] = "";
  const gsp__cuda_api *a = gsp__cuda_plugin(why, sizeof why);
  if (!a) (void)GSP_ERROR(GSP_NO_DEVICE, "%s: %s", fn, why);
  return a;
}

/* ---- gsp_cuda.h ---- */

bool gsp_cuda_usable(char *desc, size_t len) {
  const gsp__cuda_api *a = gsp__cuda_plugin(desc, len);
  return a && a->usable(desc, len);
}

void gsp_cuda_start(void) {
  const gsp__cuda_api *a = gsp__cuda_plugin(NULL, 0);
  if (a) a->start();
}

int gsp_cuda_usable_count(void) {
  const gsp__cuda_api *a = gsp__cuda_plugin(NULL, 0);
  return a ? a->usable_count() : 0;
}

gsp_info gsp_cuda_closure_resident(const gsp_cuda_arrays *A, bool dev_only, int64_t *nvals, gsp_cuda_host_result *succ,
                                   gsp_semiring s, bool reflexive, const gsp__progress *progress) {
  const gsp__cuda_api *a = need("gsp_closure");
  return a ? a->closure_resident(A, dev_only, nvals, succ, s, reflexive, progress) : GSP_NO_DEVICE;
}

void gsp_cuda_dense_state(gsp_cuda_dense_info *out, const gsp_cuda_arrays *A) {
  const gsp__cuda_api *a = gsp__cuda_plugin_loaded();
  if (a) a->dense_state(out, A);
  else memset(out, 0, sizeof *out); /* without the plugin no object has device data */
}

gsp_info gsp_cuda_sssp(const struct gsp__sssp_sink *out, int64_t *nvals, const gsp_cuda_arrays *A, const int64_t *src,
                       int64_t nsrc, const gsp_cuda_sssp_plan *plan, const void *lim, gsp_cuda_sssp_stats *stats,
                       bool *taken) {
  GSP_RUN_LOCKED_("gsp_sssp", A->dev, NULL, sssp(out, nvals, A, src, nsrc, plan, lim, stats, taken));
}

gsp_info gsp_cuda_msssp(void *dist, int64_t *parent, int32_t *parent32, uint8_t *present, uint8_t *ppresent,
                        int64_t *nvals, const gsp_cuda_arrays *A, const int64_t *src, int64_t nsrc, const void *lim,
                        int64_t batch, gsp_cuda_sssp_stats *stats, bool *taken) {
  GSP_RUN_LOCKED_("gsp_msssp", A->dev, NULL,
                  msssp(dist, parent, parent32, present, ppresent, nvals, A, src, nsrc, lim, batch, stats, taken));
}

gsp_info gsp_cuda_bf(void *dist, int64_t *parent, int64_t *pred, const gsp_cuda_arrays *A, const int64_t *src,
                     int64_t nsrc, const void *lim, bool *taken) {
  GSP_RUN_LOCKED_("gsp_bellman_ford", A->dev, NULL, bf(dist, parent, pred, A, src, nsrc, lim, taken));
}

gsp_info gsp_cuda_mxv(struct gsp_vector_s *w, struct gsp_vector_s *mask, gsp_binop accum, gsp_semiring s,
                      const gsp_cuda_arrays *A, struct gsp_vector_s *u, const gsp_desc *desc, bool tr, const char *fn,
                      bool *taken) {
  GSP_RUN_LOCKED_(fn, A->dev, &u->dev, mxv(w, mask, accum, s, A, u, desc, tr, fn, taken));
}

gsp_info gsp_cuda_mxm(gsp_cuda_host_result *T, gsp_semiring s, const gsp_cuda_arrays *A, const gsp_cuda_arrays *B,
                      bool ta, bool tb, const char *fn, bool *taken) {
  GSP_RUN_LOCKED_(fn, A->dev, B->dev, mxm(T, s, A, B, ta, tb, fn, taken));
}

bool gsp_cuda_weights_checked(const gsp_cuda_arrays *A, double *wsum) {
  const gsp__cuda_api *a = gsp__cuda_plugin_loaded();
  if (!a) return false;
  const dev_held h = dev_enter(A->dev, NULL);
  const bool r = a->weights_checked(A, wsum);
  dev_leave(h);
  return r;
}

bool gsp_cuda_memory(size_t *free_bytes, size_t *total_bytes) {
  const gsp__cuda_api *a = gsp__cuda_plugin(NULL, 0);
  return a && a->memory(free_bytes, total_bytes);
}

size_t gsp_cuda_msssp_bytes(const gsp_cuda_arrays *A, int64_t batch, bool parents) {
  const gsp__cuda_api *a = gsp__cuda_plugin(NULL, 0);
  return a ? a->msssp_bytes(A, batch, parents) : SIZE_MAX;
}

gsp_info gsp_cuda_dense_download(void *x, uint8_t *b, const gsp_cuda_arrays *A) {
  const gsp__cuda_api *a = gsp__cuda_plugin_loaded();
  if (!a) return GSP_ERROR(GSP_NO_DEVICE, "a device-resident matrix without the CUDA backend loaded");
  return a->dense_download(x, b, A);
}

gsp_info gsp_cuda_dense_export(void *out, const void *absent, const gsp_cuda_arrays *A, bool *done) {
  *done = false;
  const gsp__cuda_api *a = gsp__cuda_plugin_loaded();
  if (!a) return GSP_SUCCESS;
  const dev_held h = dev_enter(A->dev, NULL);
  const gsp_info r = a->dense_export(out, absent, A, done);
  dev_leave(h);
  return r;
}

void gsp_cuda_dev_free(struct gsp_dev_matrix *dev) {
  const gsp__cuda_api *a = gsp__cuda_plugin_loaded();
  if (a) a->dev_free(dev);
}

gsp_info gsp_cuda_dense_view(void **data, int64_t *ld, int *device, const gsp_cuda_arrays *A, gsp_semiring enc) {
  const gsp__cuda_api *a = need("gsp_matrix_device_view");
  if (!a) return GSP_NO_DEVICE;
  const dev_held h = dev_enter(A->dev, NULL);
  const gsp_info r = a->dense_view(data, ld, device, A, enc);
  dev_leave(h);
  return r;
}

gsp_info gsp_cuda_vector_download(struct gsp_vector_s *v) {
  const gsp__cuda_api *a = gsp__cuda_plugin_loaded();
  if (!a) return GSP_ERROR(GSP_NO_DEVICE, "a device-resident vector without the CUDA backend loaded");
  return a->vector_download(v);
}

void gsp_cuda_vector_release(struct gsp_vector_s *v) {
  const gsp__cuda_api *a = gsp__cuda_plugin_loaded();
  if (a) a->vector_release(v);
}

/* ---- gsp_cuda_fw.h: device-level closures (the gateway, benchmarks) ---- */

int64_t gsp_cuda_padded_n(gsp_type t, int64_t n) {
  const gsp__cuda_api *a = gsp__cuda_plugin(NULL, 0);
  return a ? a->padded_n(t, n) : n;
}

size_t gsp_cuda_closure_bytes(gsp_type t, int64_t n, bool paths) {
  const gsp__cuda_api *a = gsp__cuda_plugin(NULL, 0);
  return a ? a->closure_bytes(t, n, paths) : SIZE_MAX;
}

gsp_info gsp_cuda_fw_device(void *d, int32_t *succ, int64_t n, int64_t np, gsp_type t, gsp_semiring s, bool reflexive,
                            bool nonneg_i32, const gsp__progress *progress, bool *cycle) {
  const gsp__cuda_api *a = need("gsp_cuda_fw_device");
  return a ? a->fw_device(d, succ, n, np, t, s, reflexive, nonneg_i32, progress, cycle) : GSP_NO_DEVICE;
}

gsp_info gsp_cuda_fw_bits_impl(void *d, int64_t n, int64_t np, bool reflexive, int tc_depth) {
  /* bench-only: through the plugin's test entry, not the gateway table */
  if (!need("gsp_cuda_fw_bits_impl")) return GSP_NO_DEVICE;
  const gsp__cuda_testing *k = gsp__cuda_plugin_testing();
  if (!k) return GSP_ERROR(GSP_PANIC, "gsp_cuda_fw_bits_impl: the CUDA backend has no test entry");
  return k->fw_bits_impl(d, n, np, reflexive, tc_depth);
}

gsp_info gsp_cuda_fw_phases(void *d, int64_t n, int64_t np, gsp_type t, gsp_semiring s, bool nonneg_i32, int variant,
                            float ms[3]) {
  /* bench-only: through the plugin's test entry, not the gateway table */
  if (!need("gsp_cuda_fw_phases")) return GSP_NO_DEVICE;
  const gsp__cuda_testing *k = gsp__cuda_plugin_testing();
  if (!k) return GSP_ERROR(GSP_PANIC, "gsp_cuda_fw_phases: the CUDA backend has no test entry");
  return k->fw_phases(d, n, np, t, s, nonneg_i32, variant, ms);
}

gsp_info gsp_cuda_count_present(int64_t *count, const void *d, int64_t n, int64_t np, gsp_type t, gsp_semiring s) {
  const gsp__cuda_api *a = need("gsp_cuda_count_present");
  return a ? a->count_present(count, d, n, np, t, s) : GSP_NO_DEVICE;
}

gsp_info gsp_cuda_fill_zero(void *d, int64_t np, gsp_type t, gsp_semiring s) {
  const gsp__cuda_api *a = need("gsp_cuda_fill_zero");
  return a ? a->fill_zero(d, np, t, s) : GSP_NO_DEVICE;
}

/* ---- gsp_cuda_scale.h: out of core and several GPUs ---- */

gsp_info gsp_cuda_fw_ooc(void *H, int64_t n, gsp_type t, gsp_semiring s, bool reflexive, const gsp_cuda_ooc_plan *plan,
                         const gsp__progress *progress, bool *cycle, gsp_cuda_ooc_report *rep) {
  const gsp__cuda_api *a = need("gsp_cuda_fw_ooc");
  return a ? a->fw_ooc(H, n, t, s, reflexive, plan, progress, cycle, rep) : GSP_NO_DEVICE;
}

bool gsp_cuda_mgpu_built(void) {
  const gsp__cuda_api *a = gsp__cuda_plugin(NULL, 0);
  return a && a->mgpu_built();
}

size_t gsp_cuda_mgpu_bytes(gsp_type t, int64_t n, int gpus) {
  const gsp__cuda_api *a = gsp__cuda_plugin(NULL, 0);
  return a ? a->mgpu_bytes(t, n, gpus) : 0;
}

gsp_info gsp_cuda_mgpu_create(gsp_cuda_mgpu *out, gsp_type t, int64_t n, int gpus, size_t cap_per_gpu,
                              const char *nccl) {
  const gsp__cuda_api *a = need("gsp_cuda_mgpu_create");
  return a ? a->mgpu_create(out, t, n, gpus, cap_per_gpu, nccl) : GSP_NO_DEVICE;
}

/* A context exists only once the plugin made it: the rest use the loaded
 * table. */
void gsp_cuda_mgpu_destroy(gsp_cuda_mgpu m) {
  const gsp__cuda_api *a = gsp__cuda_plugin_loaded();
  if (a) a->mgpu_destroy(m);
}

void gsp_cuda_mgpu_grid(const gsp_cuda_mgpu m, int *grid_rows, int *grid_cols) {
  gsp__cuda_plugin_loaded()->mgpu_grid(m, grid_rows, grid_cols);
}

void gsp_cuda_mgpu_block(const gsp_cuda_mgpu m, int g, void **d, int *device, int64_t *row0, int64_t *rows,
                         int64_t *col0, int64_t *cols) {
  gsp__cuda_plugin_loaded()->mgpu_block(m, g, d, device, row0, rows, col0, cols);
}

gsp_info gsp_cuda_mgpu_fill(gsp_cuda_mgpu m, gsp_semiring s) {
  return gsp__cuda_plugin_loaded()->mgpu_fill(m, s);
}

gsp_info gsp_cuda_mgpu_upload(gsp_cuda_mgpu m, const void *H, gsp_semiring s) {
  return gsp__cuda_plugin_loaded()->mgpu_upload(m, H, s);
}

gsp_info gsp_cuda_mgpu_run(gsp_cuda_mgpu m, gsp_semiring s, bool reflexive, bool nonneg_i32,
                           const gsp__progress *progress, bool *cycle) {
  return gsp__cuda_plugin_loaded()->mgpu_run(m, s, reflexive, nonneg_i32, progress, cycle);
}

gsp_info gsp_cuda_mgpu_download(gsp_cuda_mgpu m, void *H) {
  return gsp__cuda_plugin_loaded()->mgpu_download(m, H);
}

#endif /* GSP_HAVE_CUDA */
