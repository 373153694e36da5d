/*
 * Internal definitions of the library's C side (never installed): the
 * matrix and vector objects, their storage and the settings. What the CUDA
 * plugin shares with it (errors, allocator, burble, team, value helpers)
 * is gsp_host.h, included here.
 */
#ifndef GSP_INTERNAL_H
#define GSP_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gsp.h"
#include "gsp_host.h"
#include "gsp_semiring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Tests: make the k-th CUDA call from now (0 = the next) fail once with a
 * device out-of-memory or a failed kernel launch (gsp__device_fault_due of
 * gsp_host.h). Disarming returns what was left of the countdown: -1 once
 * the fault was delivered. Not for production use. */
void gsp__debug_device_fault_after(long long k, gsp_fault kind);
long long gsp__debug_device_fault_disarm(void);
/* Tests: force cuSPARSE SpGEMM's algorithm for sparse x sparse gsp_mxm on
 * the GPU (0: automatic; 1, 2, 3: ALG1, ALG2, ALG3). */
void gsp__debug_spgemm_alg(int alg);
/* Tests: make the k-th allocation from now (0 = the next) and all later ones
 * fail; k < 0 disarms. Not for production use. */
void gsp__debug_fail_after(long long k);
/* Tests: call hook(code, message) for every error recorded from now on
 * (NULL: none); the message always ends with " [file:line]". Lets the test build count the error checks each public
 * function exercised (tests/support/errlog). Not for production use. */
void gsp__debug_on_error(void (*hook)(gsp_info code, const char *message));
/* Number of errors this thread has recorded (gsp_last_error() is new when
 * it changed across a call). */
uint64_t gsp__error_serial(void);

/* The CUDA gateway's results as host arrays (gsp_cuda_host_result of
 * gsp_cuda.h, src/core/matrix_device.c): gsp__matrix_take_result puts
 * them into A as its storage (CSR or dense, as the result says; A's old
 * storage released) and cannot fail, so callers allocate A before the
 * device call; gsp__cuda_result_free frees them. *r holds no arrays after
 * either. */
struct gsp_cuda_host_result;
void gsp__matrix_take_result(struct gsp_matrix_s *A, struct gsp_cuda_host_result *r);
void gsp__cuda_result_free(struct gsp_cuda_host_result *r);
/* The arrays of A's host storage, CSR or dense (the caller made it
 * one of them, and not device-only), and the slot of its device cache:
 * what the GPU's calls read of a matrix (gsp_cuda_arrays of gsp_cuda.h). A
 * const A's cache may still be filled: it is a cache, not content. */
struct gsp_cuda_arrays;
struct gsp_cuda_arrays gsp__matrix_cuda_arrays(const struct gsp_matrix_s *A);
/* Whether the dense device copy of v serves semiring s (its absent entries
 * hold s's zero) with padded order np (0: any). */
bool gsp__dense_serves(const struct gsp_cuda_arrays *v, gsp_semiring s, int64_t np);
/* The device-only content of A into new host storage (dense, or bit rows
 * for bool), which becomes A's; A->dev_only is cleared. Nothing to do when
 * A is not device-only; on error A is unchanged. Callers go through
 * gsp__matrix_host, which serialises it. */
gsp_info gsp__matrix_download(struct gsp_matrix_s *A);
/* Free A's device copy, if any (the host copy is the content again). */
void gsp__matrix_release_device(struct gsp_matrix_s *A);
/* A vector's arrays and device slot as the GPU reads them (gsp_cuda_vec of
 * gsp_cuda.h), and the download of a device-only vector's content into its
 * host arrays (callers go through gsp__vector_host, which serialises it). */
struct gsp_cuda_vec;
struct gsp_cuda_vec gsp__vector_cuda_arrays(const struct gsp_vector_s *v);
gsp_info gsp__vector_download(struct gsp_vector_s *v);
/* Tests: bytes of one staging slot of the GPU shortest-path results (0:
 * the default; >= 16 forces many tiny chunks). */
void gsp__debug_sssp_stage_bytes(size_t bytes);

/* Output arguments of one call: where each is written and how many bytes.
 * gsp__check_outputs fails with GSP_INVALID_VALUE ("fn: outputs a and b
 * alias each other") when two of the k regions overlap, so that a call
 * refuses aliased outputs before it writes anything. NULL pointers and
 * empty regions are skipped. */
typedef struct {
  const void *at;
  size_t bytes;
  const char *name;
} gsp__output;
gsp_info gsp__check_outputs(const char *fn, const gsp__output *out, int k);
#define GSP_OUTPUTS(fn, ...)                                           \
  GSP_TRY(gsp__check_outputs((fn), (const gsp__output[]){__VA_ARGS__}, \
                             (int)(sizeof((const gsp__output[]){__VA_ARGS__}) / sizeof(gsp__output))))

/* ---- handle registry: catches freed and foreign handles without touching
 * their memory ---- */

gsp_info gsp__register(void *obj);
GSP_COMPANION void gsp__unregister(void *obj);
bool gsp__is_live(const void *obj);
/* A handle in use by a running call that calls back into the caller's code
 * (gsp_apsp's row and progress callbacks) cannot be freed: the call adds
 * delta (+1, then -1) to *busy, under the registry's lock, when obj is
 * live (false when it is not). gsp__unregister_idle unregisters obj only
 * when *busy is 0 and says whether it did. */
bool gsp__hold(void *obj, int *busy, int delta);
bool gsp__unregister_idle(void *obj, const int *busy);
/* Tests: the number of live handles (matrices and vectors not yet freed),
 * and up to cap of their addresses in out (out may be NULL). The registry
 * keeps every handle reachable, so LeakSanitizer never reports a lost
 * one: the test build checks this count at exit instead
 * (tests/support/leaks). Not for production use. */
size_t gsp__live_handles(const void **out, size_t cap);

/* ---- objects ---- */

#define GSP_MAGIC_MATRIX 0x4d505347u /* "GSPM" */
#define GSP_MAGIC_VECTOR 0x56505347u /* "GSPV" */

typedef enum {
  GSP_FMT_CSR = 0, /* p[nrows+1], j[nvals] sorted per row, x[nvals] */
  GSP_FMT_DENSE,   /* x[nrows*ncols] row-major; b[] presence (NULL: full) */
  GSP_FMT_BITS     /* bool only: bits[nrows*wpr]; a set bit is a true entry */
} gsp_format;

struct gsp_dev_matrix; /* owned by src/cuda */

struct gsp_matrix_s {
  uint32_t magic;
  gsp_type type;
  int64_t nrows, ncols;
  int64_t nvals;
  gsp_format fmt;
  gsp_index *p, *j; /* CSR */
  void *x;          /* CSR or DENSE values */
  uint8_t *b;       /* DENSE presence (1 = entry), NULL when all present */
  uint64_t *bits;   /* BITS */
  int64_t wpr;      /* BITS: 64-bit words per row */
  /* Device copy, managed by src/cuda: the closure's dense copy and the one
   * sparse cache (CSR, transpose, shortest-path data) that every sparse GPU
   * call shares; dropped by every host change. When dev_only is set the
   * device holds the only valid data and the host fields above are stale. */
  struct gsp_dev_matrix *dev;
  bool dev_only;
  /* CSR copy of a matrix stored otherwise, built by the first read-only
   * call that needs CSR (gsp__matrix_csr_view) and dropped by every change
   * of the storage. Read calls never convert a matrix in place: several
   * threads may read one matrix at once. */
  struct gsp_matrix_s *csr_view;
  int busy; /* running calls holding it (gsp__hold): not freed meanwhile */
};

struct gsp_dev_vector; /* owned by src/cuda */

struct gsp_vector_s {
  uint32_t magic;
  gsp_type type;
  int64_t n;
  int64_t nvals; /* always valid, also when dev_only */
  void *x;       /* x[n] */
  uint8_t *b;    /* presence b[n]; NULL when all present */
  /* Device copy, managed by src/cuda (as for matrices). When dev_only is
   * set the device holds the only valid values: x and b are stale. */
  struct gsp_dev_vector *dev;
  bool dev_only;
};

/* Validate a handle argument: NULL -> GSP_NULL_POINTER, freed or foreign ->
 * GSP_INVALID_OBJECT. `what` names the argument in the message. */
GSP_COMPANION gsp_info gsp__check_matrix(const struct gsp_matrix_s *A, const char *fn, const char *what);
gsp_info gsp__check_vector(const struct gsp_vector_s *v, const char *fn, const char *what);

/* gsp_<obj>_<name>(out, h): *out = expr of the handle h (named h), after
 * the output and handle checks. */
#define GSP_OBJECT_QUERY(obj, h, name, outtype, expr)                                       \
  gsp_info gsp_##obj##_##name(outtype *out, const gsp_##obj h) {                            \
    gsp_info info;                                                                          \
    if (!out) return GSP_ERROR(GSP_NULL_POINTER, "gsp_" #obj "_" #name ": output is NULL"); \
    if ((info = gsp__check_##obj(h, "gsp_" #obj "_" #name, #h)) < 0) return info;           \
    *out = (outtype)(expr);                                                                 \
    return GSP_SUCCESS;                                                                     \
  }
gsp_info gsp__check_type(gsp_type t, const char *fn);
/* Whether semiring s applies to type t (OR_AND: bool; others: numeric). */
GSP_COMPANION bool gsp__semiring_fits(gsp_semiring s, gsp_type t);

/* Allocate a new empty matrix / vector (not registered as live until
 * gsp__matrix_publish). */
gsp_info gsp__matrix_alloc(struct gsp_matrix_s **A, gsp_type t, int64_t nrows, int64_t ncols);
/* The same, in dense format with no storage yet (x, b NULL): dense
 * producers must not pay for nrows+1 row pointers they never use. */
gsp_info gsp__matrix_alloc_dense(struct gsp_matrix_s **A, gsp_type t, int64_t nrows, int64_t ncols);
/* Register a fully built matrix as a live handle. */
gsp_info gsp__matrix_publish(struct gsp_matrix_s *A);
/* Release storage and the struct (no registry check). */
void gsp__matrix_destroy(struct gsp_matrix_s *A);
/* Release all storage, leaving an empty CSR matrix. */
void gsp__matrix_clear_storage(struct gsp_matrix_s *A);
/* Release A's storage and take over the arrays of a new one (the fields of
 * struct gsp_matrix_s for the form fmt; NULL / 0 for the others). */
void gsp__matrix_set_storage(struct gsp_matrix_s *A, gsp_format fmt, gsp_index *p, gsp_index *j, void *x, uint8_t *b,
                             uint64_t *bits, int64_t wpr, int64_t nvals);
/* Move the content (storage, nvals, fmt) of src into dst and destroy src.
 * dst keeps its handle; its old content is released. Types and dimensions
 * must match. Used to commit a result only after it is complete. */
GSP_COMPANION void gsp__matrix_swap_in(struct gsp_matrix_s *dst, struct gsp_matrix_s *src);

/* The download of a device-only matrix A or vector v (the other NULL)
 * that read-only calls may share: done once, under one process-wide lock;
 * clears *dev_only on success. CUDA builds only. */
gsp_info gsp__download_shared(bool *dev_only, struct gsp_matrix_s *A, struct gsp_vector_s *v);

/* Format conversions in place. They either succeed or leave A unchanged.
 * gsp__matrix_host makes the host copy valid (downloads from the device);
 * the others imply it. The in-place conversions are for matrices the call
 * owns or writes (outputs, private copies): a read-only input goes through
 * gsp__matrix_csr_view instead, so that concurrent readers of one matrix
 * never see its storage change. gsp__matrix_host is safe on shared inputs
 * (the download happens once, under a lock). */
gsp_info gsp__matrix_host(struct gsp_matrix_s *A);
gsp_info gsp__matrix_to_csr(struct gsp_matrix_s *A);
gsp_info gsp__matrix_to_dense(struct gsp_matrix_s *A);
gsp_info gsp__matrix_to_bits(struct gsp_matrix_s *A);
/* *V = A when A is stored as CSR, else A's CSR copy (built on first use,
 * under a lock, and kept until A's storage changes). A itself is left as
 * it is. *V belongs to A: valid as long as A is not changed or freed. */
gsp_info gsp__matrix_csr_view(struct gsp_matrix_s **V, struct gsp_matrix_s *A);
/* Where entry (i, j) of a dense or CSR matrix (columns sorted within a row)
 * is stored: *at indexes its values; GSP_NO_VALUE when (i, j) has none. */
gsp_info gsp__matrix_entry_at(size_t *at, const struct gsp_matrix_s *A, int64_t i, int64_t j);
/* Release A's CSR copy (every change of A's storage calls it). */
void gsp__matrix_drop_view(struct gsp_matrix_s *A);
/* Call after changing the host data: drops any device copy. */
void gsp__matrix_host_changed(struct gsp_matrix_s *A);

/* Dense content where absent entries hold `fill` (one value of A's type) and
 * presence is dropped: A becomes full (b == NULL) and nvals = nrows*ncols.
 * Used by closure kernels whose absent value is the semiring zero. */
gsp_info gsp__matrix_to_full(struct gsp_matrix_s *A, const void *fill);
/* The reverse: entries equal to `absent` are marked absent (b[] built). */
gsp_info gsp__matrix_mark_absent(struct gsp_matrix_s *A, const void *absent);

/* Sort n tuples (I may be NULL: all row 0) into new CSR arrays, combining
 * duplicates by `dup`; indices are checked. Shared by matrix and vector. */
gsp_info gsp__tuples_to_csr(gsp_index **p, gsp_index **j, void **x, int64_t *nvals, gsp_type t, int64_t nrows,
                            int64_t ncols, const gsp_index *I, const gsp_index *J, const void *X, gsp_index n,
                            gsp_dup dup, const char *fn);

gsp_info gsp__vector_alloc(struct gsp_vector_s **v, gsp_type t, int64_t n);
/* Make v's host copy valid (downloads when v->dev_only); every host read
 * and write of x / b goes after it. */
gsp_info gsp__vector_host(struct gsp_vector_s *v);
/* Call after changing the host data: drops any device copy. */
void gsp__vector_host_changed(struct gsp_vector_s *v);
gsp_info gsp__vector_publish(struct gsp_vector_s *v);
void gsp__vector_destroy(struct gsp_vector_s *v);
void gsp__vector_swap_in(struct gsp_vector_s *dst, struct gsp_vector_s *src);

/* Whether a value is NaN (false for non-float types). */
bool gsp__is_nan(gsp_type t, const void *x);
/* Convert one value between types (to bool: x != 0). */
void gsp__cast_value(void *dst, gsp_type dt, const void *src, gsp_type st);

/* Identity ("zero") and unit ("one") of semiring s for type t into out. */
void gsp__semiring_zero(void *out, gsp_semiring s, gsp_type t);
void gsp__semiring_one(void *out, gsp_semiring s, gsp_type t);

void gsp__device_decline_clear(void);
gsp_info gsp__device_declined(const char *fn);

/* Backend selection for one call: returns the backend to try. */
gsp_backend gsp__backend_for(gsp_backend requested);
/* OpenMP's default thread count capped by the process's CPU affinity now
 * (src/core/threads.c): gsp__threads() where gsp_set_threads gave none. */
int gsp__default_threads(void);
/* GSP_GPUS (src/core/settings.c, read at each call): 0 when unset, -1 when
 * not a positive count (then gsp__setting_gpus_text() is its text). */
long gsp__setting_gpus(void);
const char *gsp__setting_gpus_text(void);
/* GSP_CUDA_PLUGIN, GSP_NCCL_LIBRARY: the path, NULL when unset or empty. */
const char *gsp__setting_cuda_plugin(void);
const char *gsp__setting_nccl_library(void);
/* GSP_DEBUG: messages carry the source location of the failed check. */
bool gsp__debug_mode(void);
/* GSP_CPU_ISA, the cap on the CPU kernels' instruction set; NULL unset. */
const char *gsp__setting_cpu_isa(void);

#ifdef __cplusplus
}
#endif
#endif /* GSP_INTERNAL_H */
