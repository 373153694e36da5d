/*
 * Shared machinery of the operations in src/ops: argument checks, typed
 * element operators, CSR helpers and the one write-back routine that
 * applies C<M,replace> = accum(C, T) for every operation.
 *
 * Each operation checks its arguments, computes T in new storage, and hands
 * T to gsp__ops_*_writeback, which builds the final C in new storage and
 * commits it with gsp__*_swap_in. So an error anywhere leaves C unchanged.
 */
#ifndef GSP_OPS_H
#define GSP_OPS_H

#include <string.h>

#include "gsp_internal.h"
#include "gsp_semiring.h"
#include "ops_backend.h"

#if defined(__GNUC__)
#define GSP_FORCE_INLINE static inline __attribute__((always_inline))
#else
#define GSP_FORCE_INLINE static inline
#endif

/* Allocation that fails with a message naming the public function, taken
 * from the variable `fn` in scope. */
#define GSP_OPS_ALLOC(ptr, count, size)                                              \
  GSP_CHECK(((ptr) = gsp__malloc_array((count), (size))) != NULL, GSP_OUT_OF_MEMORY, \
            "%s: cannot allocate %zu x %zu bytes", fn, (size_t)(count), (size_t)(size))
#define GSP_OPS_CALLOC(ptr, count, size)                                                                              \
  GSP_CHECK(((ptr) = gsp__calloc((count), (size))) != NULL, GSP_OUT_OF_MEMORY, "%s: cannot allocate %zu x %zu bytes", \
            fn, (size_t)(count), (size_t)(size))

/* ---- argument checks (each records a message naming fn) ---- */

/* accum: GSP_NOOP (none) or a valid binary operator. */
gsp_info gsp__ops_check_accum(gsp_binop accum, const char *fn);
/* op: a valid binary operator other than GSP_NOOP. */
gsp_info gsp__ops_check_binop(gsp_binop op, const char *fn);
/* op: one of the monoids MIN, MAX, PLUS, TIMES, LOR, LAND. */
gsp_info gsp__ops_check_monoid(gsp_binop op, const char *fn);
gsp_info gsp__ops_check_semiring(gsp_semiring s, gsp_type t, const char *fn);
/* Value operand `what` has the output's type t. */
gsp_info gsp__ops_check_same_type(gsp_type t, gsp_type got, const char *fn, const char *what);
/* The value operands of a semiring product: A (named an) and B (bn) have
 * the output's type t, and s applies to t. */
gsp_info gsp__ops_check_product_types(gsp_semiring s, gsp_type t, gsp_type at, const char *an, gsp_type bt,
                                      const char *bn, const char *fn);

/* Dimensions of A after the optional transpose. */
static inline int64_t gsp__ops_rows(const struct gsp_matrix_s *A, bool tr) {
  return tr ? A->ncols : A->nrows;
}
static inline int64_t gsp__ops_cols(const struct gsp_matrix_s *A, bool tr) {
  return tr ? A->nrows : A->ncols;
}

/* Threads for a parallel loop doing about `work` simple steps: one below
 * a threshold, since waking a thread team costs more than small loops. */
static inline int gsp__ops_nthreads(double work) {
  if (work < 32768) return 1;
  int nth = gsp__threads();
  double cap = work / 16384;
  return cap < nth ? (int)cap : nth;
}

/* Desc with NULL meaning all false. */
static inline gsp_desc gsp__ops_desc(const gsp_desc *d) {
  gsp_desc z = {0};
  return d ? *d : z;
}

/* ---- element operators through function pointers (ewise, accum, apply,
 * reduce: memory-bound code where one indirect call per entry is cheap) ---- */

typedef void (*gsp__binop_fn)(void *z, const void *x, const void *y);
typedef void (*gsp__unop_fn)(void *z, const void *x);

/* NULL for GSP_NOOP or an invalid (op, type). */
gsp__binop_fn gsp__ops_binop(gsp_binop op, gsp_type t);
gsp__unop_fn gsp__ops_unop(gsp_unop f, gsp_type t);
/* Identity of monoid op on type t into out (false if op is no monoid). */
bool gsp__ops_monoid_identity(void *out, gsp_binop op, gsp_type t);
/* Whether x[k] of type t is nonzero (the value-mask test). */
bool gsp__ops_truthy(gsp_type t, const void *x, int64_t k);

/* ---- typed semiring operators, folded when s is a constant ----
 * gsp__sr_add_<sfx>(s, x, y), gsp__sr_mul_<sfx>(s, x, y) for the numeric
 * types, generated from GSP_NUM_SEMIRING_LIST; bool has OR_AND only. */

#define GSP_SR_GEN_(base, x) \
  _Generic((x), int32_t : base##_i32, int64_t : base##_i64, float : base##_f32, double : base##_f64)
#define GSP_SR_CASE_(SR, sr, op) \
  case GSP_##SR:                 \
    return GSP_SR_GEN_(gsp_##sr##_##op, x)(x, y);
#define GSP_SR_ADD_CASE_(SR, sr, a, m, z, o) GSP_SR_CASE_(SR, sr, add)
#define GSP_SR_MUL_CASE_(SR, sr, a, m, z, o) GSP_SR_CASE_(SR, sr, mul)
#define GSP_DEF_SR_OP_(ct, sfx, op, OP)                                  \
  GSP_FORCE_INLINE ct gsp__sr_##op##_##sfx(gsp_semiring s, ct x, ct y) { \
    switch (s) {                                                         \
      GSP_NUM_SEMIRING_LIST(GSP_SR_##OP##_CASE_)                         \
    default:                                                             \
      return x;                                                          \
    }                                                                    \
  }
#define GSP_DEF_SR_OPS_(T, ct, sfx, PINF, NINF) GSP_DEF_SR_OP_(ct, sfx, add, ADD) GSP_DEF_SR_OP_(ct, sfx, mul, MUL)
GSP_NUM_TYPE_LIST(GSP_DEF_SR_OPS_)
#undef GSP_DEF_SR_OPS_
#undef GSP_DEF_SR_OP_
#undef GSP_SR_CASE_
#undef GSP_SR_ADD_CASE_
#undef GSP_SR_MUL_CASE_
#undef GSP_SR_GEN_
GSP_FORCE_INLINE bool gsp__sr_add_b(gsp_semiring s, bool x, bool y) {
  (void)s;
  return gsp_or_and_add_b(x, y);
}
GSP_FORCE_INLINE bool gsp__sr_mul_b(gsp_semiring s, bool x, bool y) {
  (void)s;
  return gsp_or_and_mul_b(x, y);
}

/* w[jw] = (init ? a[ka] (x) b[kb] : w[jw] (+) (a[ka] (x) b[kb])) on typed
 * arrays; with constant s and t this is one typed multiply-add. */
GSP_FORCE_INLINE void gsp__sr_fma(gsp_semiring s, gsp_type t, void *w, int64_t jw, const void *a, int64_t ka,
                                  const void *b, int64_t kb, bool init) {
  switch (t) {
#define GSP_FMA_CASE_(T, ct, sfx)                                             \
  case GSP_##T: {                                                             \
    ct *W = (ct *)w;                                                          \
    ct prod = gsp__sr_mul_##sfx(s, ((const ct *)a)[ka], ((const ct *)b)[kb]); \
    W[jw] = init ? prod : gsp__sr_add_##sfx(s, W[jw], prod);                  \
    return;                                                                   \
  }
    GSP_TYPE_LIST(GSP_FMA_CASE_)
#undef GSP_FMA_CASE_
  }
}

/* w[jw] = w[jw] (+) x[kx] (combining per-thread partial results). */
GSP_FORCE_INLINE void gsp__sr_add_into(gsp_semiring s, gsp_type t, void *w, int64_t jw, const void *x, int64_t kx) {
  switch (t) {
#define GSP_ADDI_CASE_(T, ct, sfx)                            \
  case GSP_##T: {                                             \
    ct *W = (ct *)w;                                          \
    W[jw] = gsp__sr_add_##sfx(s, W[jw], ((const ct *)x)[kx]); \
    return;                                                   \
  }
    GSP_TYPE_LIST(GSP_ADDI_CASE_)
#undef GSP_ADDI_CASE_
  }
}

/* Stamp `GEN(SR, T)` for every (semiring, type) pair that fits. */
#define GSP_OPS_NUM_PAIRS_(SR, sr, a, m, z, o) \
  GSP_OPS_GEN(SR, INT32) GSP_OPS_GEN(SR, INT64) GSP_OPS_GEN(SR, FP32) GSP_OPS_GEN(SR, FP64)
#define GSP_OPS_FOR_EACH_PAIR GSP_NUM_SEMIRING_LIST(GSP_OPS_NUM_PAIRS_) GSP_OPS_GEN(OR_AND, BOOL)

/* ---- objects ---- */

/* Make A host-valid CSR (A's content is unchanged; only its format). */
gsp_info gsp__ops_csr(struct gsp_matrix_s *A, const char *fn);
/* A read-only input in CSR form without converting A (gsp__matrix_csr_view):
 * *V is A or A's CSR copy. */
gsp_info gsp__ops_view(struct gsp_matrix_s **V, struct gsp_matrix_s *A, const char *fn);
/* *AT = A' as a new unpublished CSR matrix (A must be CSR). */
gsp_info gsp__ops_transpose(struct gsp_matrix_s **AT, const struct gsp_matrix_s *A, const char *fn);
/* A as CSR, transposed when tr: *use points at A or at a new matrix stored
 * in *tmp (to destroy after use). */
gsp_info gsp__ops_input(const struct gsp_matrix_s **use, struct gsp_matrix_s **tmp, struct gsp_matrix_s *A, bool tr,
                        const char *fn);
/* New unpublished CSR matrix taking over *p, *j, *x (nvals = p[nrows]).
 * The three pointers are set to NULL whatever happens: on failure the arrays
 * are freed, so callers never free them twice. */
gsp_info gsp__ops_matrix_from_csr(struct gsp_matrix_s **T, gsp_type t, int64_t nrows, int64_t ncols, gsp_index **p,
                                  gsp_index **j, void **x, const char *fn);
/* New unpublished vector with allocated x[n] and presence b[n] (all
 * absent). Producers fill both, then call gsp__ops_vector_done. */
gsp_info gsp__ops_vector_new(struct gsp_vector_s **v, gsp_type t, int64_t n, const char *fn);
/* Recount nvals from b and drop b when every entry is present. */
void gsp__ops_vector_done(struct gsp_vector_s *v);
/* The same two for producers that write every x[i] and b[i] themselves
 * and know the count: storage left uninitialised (no serial zeroing of
 * recycled memory; new pages are mapped by whoever writes them first), and
 * nvals set without a recount (b dropped when every entry is present, in
 * which case b need not have been written). */
gsp_info gsp__ops_vector_new_uninit(struct gsp_vector_s **v, gsp_type t, int64_t n, const char *fn);
void gsp__ops_vector_done_count(struct gsp_vector_s *v, int64_t nvals);
/* Whether v(i) is present. */
static inline bool gsp__ops_vpresent(const struct gsp_vector_s *v, int64_t i) {
  return v->b ? v->b[i] != 0 : v->nvals == v->n;
}

/* A result built row by row in two passes: called with j == NULL it
 * returns the count of row i, else it also writes the row's column indices
 * into j and its values into x. */
typedef gsp_index (*gsp__ops_row_fn)(const void *ctx, int64_t i, gsp_index *j, char *x);
/* *T = the new nrows x ncols CSR matrix of type t whose rows row() gives:
 * one pass counts the rows, the second fills them (nth threads). */
gsp_info gsp__ops_matrix_by_rows(struct gsp_matrix_s **T, gsp_type t, int64_t nrows, int64_t ncols, gsp__ops_row_fn row,
                                 const void *ctx, int nth, const char *fn);
/* *a = op(A) as host CSR (A' is built into *AT with transpose), once A
 * has been checked to have C's type and op(A) C's shape; name: "A" or "B"
 * in the messages. */
gsp_info gsp__ops_operand(const struct gsp_matrix_s **a, struct gsp_matrix_s **AT, const struct gsp_matrix_s *C,
                          struct gsp_matrix_s *A, bool transpose, const char *name, const char *fn);

/* The entries of a one-input vector operation: z = the result's value
 * for present u(i) = *x; false drops the entry. */
typedef bool (*gsp__ops_entry_fn)(const void *ctx, int64_t i, void *z, const void *x);
/* w<mask> = accum(w, T) where T(i) = entry(u(i)) for the present u(i)
 * that entry keeps (apply, select), with u checked against w first. */
gsp_info gsp__ops_vector_map(struct gsp_vector_s *w, struct gsp_vector_s *mask, gsp_binop accum, struct gsp_vector_s *u,
                             gsp__ops_entry_fn entry, const void *ctx, const gsp_desc *desc, const char *fn);

/* u has w's type and size. */
gsp_info gsp__ops_vector_operand(const struct gsp_vector_s *w, const struct gsp_vector_s *u, const char *fn);

/* Exclusive prefix sum of cnt[0..n) into p[0..n] (p[0] = 0). */
void gsp__ops_cumsum(gsp_index *p, const gsp_index *cnt, int64_t n);
/* Sort gsp_index keys ascending. */
void gsp__ops_sort_index(gsp_index *a, int64_t n);

/* ---- write-back: C<M,replace> = accum(C, T) ----
 * T has C's type and dimensions; mask (may be NULL) any type. *T is
 * consumed (set to NULL) when used as C's new storage; the caller destroys
 * whatever is left. C is changed only on success. */
gsp_info gsp__ops_matrix_writeback(struct gsp_matrix_s *C, struct gsp_matrix_s *mask, gsp_binop accum,
                                   struct gsp_matrix_s **T, const gsp_desc *desc, const char *fn);
gsp_info gsp__ops_vector_writeback(struct gsp_vector_s *w, struct gsp_vector_s *mask, gsp_binop accum,
                                   struct gsp_vector_s **T, const gsp_desc *desc, const char *fn);

/* Make the host copies of up to four vectors valid (NULLs skipped): device-
 * resident results are downloaded before CPU code reads them. */
gsp_info gsp__ops_vectors_host(const char *fn, struct gsp_vector_s *a, struct gsp_vector_s *b, struct gsp_vector_s *c,
                               struct gsp_vector_s *d);

/* Backend of gsp_mxm / gsp_mxv / gsp_vxm: checks desc's direction code
 * (GSP_INVALID_VALUE), then gsp__backend_pick with desc's backend; AUTO
 * offers the call to the GPU when auto_gpu. */
gsp_info gsp__ops_desc_backend(gsp__backend_choice *be, const gsp_desc *d, bool auto_gpu, const char *fn);

/* Common checks of an output/mask pair: handles, mask dimensions, accum. */
gsp_info gsp__ops_check_matrix_out(struct gsp_matrix_s *C, struct gsp_matrix_s *mask, gsp_binop accum, const char *fn);
gsp_info gsp__ops_check_vector_out(struct gsp_vector_s *w, struct gsp_vector_s *mask, gsp_binop accum, const char *fn);
/* The handles of C<mask> = accum(C, A op B): the output checks, then A and B. */
gsp_info gsp__ops_check_matrix_args(struct gsp_matrix_s *C, struct gsp_matrix_s *mask, gsp_binop accum,
                                    struct gsp_matrix_s *A, struct gsp_matrix_s *B, const char *fn);

#endif /* GSP_OPS_H */
