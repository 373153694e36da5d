/*
 * gsp: a GraphBLAS-style semiring matrix library with CUDA kernels.
 *
 * The whole public C API. No CUDA types appear here. The header has two
 * parts:
 *  1. The stable API: objects, operations, closure, single-, multi- and
 *     all-pairs shortest paths, path walkers, files and generators. Its
 *     names, arguments and documented behaviour keep their meaning across
 *     minor versions.
 *  2. The advanced API (after the line "ADVANCED"): device views, row
 *     callbacks and cost-model reports of gsp_apsp, memory caps,
 *     multi-GPU options and progress callbacks, output files written all
 *     or nothing as a result streams. It exposes how the library works
 *     today and may change in any release, so it is opt-in, as zstd's
 *     ZSTD_STATIC_LINKING_ONLY part is: a program sees it only when it
 *     defines GSP_ADVANCED_API before including gsp.h.
 *       #define GSP_ADVANCED_API
 *       #include "gsp.h"
 *     An options struct of the stable part reaches its advanced options
 *     through one member, `advanced`, a pointer to a struct of the
 *     advanced part (NULL: the defaults), so a program without the macro
 *     still passes the stable struct.
 *
 * Conventions
 *  - Opaque handles (gsp_matrix, gsp_vector). Names are gsp_<object>_<verb>;
 *    outputs come first, inputs after, options last.
 *  - Every call returns gsp_info: 0 is success, negative is an error, positive
 *    is informational (GSP_NO_VALUE). gsp_strerror() names a code and
 *    gsp_last_error() gives the calling thread's last detail sentence.
 *  - On error nothing the caller owns is changed: outputs are untouched.
 *  - The library never aborts or exits, and prints only when the burble is
 *    switched on (gsp_set_burble, GSP_BURBLE=1).
 *  - An absent entry means "no edge". An explicit entry is an edge, also when
 *    its value is 0. Dense results mark "no path" as absent.
 *  - Scalars passed as `const void *` / `void *` point at one value of the
 *    object's own type (bool, int32_t, int64_t, float or double).
 *  - Indices are 0-based gsp_index values. Row and column counts are at most
 *    GSP_INDEX_MAX.
 *  - Paths: `parent` names predecessor records (parent(v) is the vertex
 *    before v on a shortest path from the source; parent(source) = source),
 *    `succ` the closure's successor matrix (succ(i,j) is the vertex after i
 *    on a path to j). Each is walked by gsp_path_from_<what>.
 *  - Options structs: NULL or all-zero means the defaults.
 *  - Thread safety: calls on different objects may run concurrently from
 *    several threads. Calls that touch the same object (even read-only
 *    calls, since they may convert its storage) must be serialised by the
 *    caller. Error messages are per thread.
 */
#ifndef GSP_H
#define GSP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#if defined(GSP_ADVANCED_API) || defined(GSP_BUILDING_LIBRARY)
#include <stdio.h> /* FILE: the advanced part's output streams */
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden visibility: everything declared here is
 * its exported interface, nothing else. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

#define GSP_VERSION_MAJOR 0
#define GSP_VERSION_MINOR 1
#define GSP_VERSION_PATCH 0

typedef uint64_t gsp_index;
/* Largest row or column count (indices are stored as 64-bit, but n x n
 * products must stay representable). */
#define GSP_INDEX_MAX ((gsp_index)INT32_MAX)

/* ====================================================================== */
/* STABLE API                                                             */
/* ====================================================================== */

/* ---------------------------------------------------------------------- */
/* Return codes                                                            */
/* ---------------------------------------------------------------------- */

/* X(name, value, description): the enum and gsp_strerror come from here. */
#define GSP_INFO_LIST(X)                                                 \
  X(GSP_SUCCESS, 0, "success")                                           \
  X(GSP_NO_VALUE, 1, "no entry at that position")                        \
  X(GSP_NULL_POINTER, -1, "a required pointer argument is NULL")         \
  X(GSP_INVALID_VALUE, -2, "an argument has an invalid value")           \
  X(GSP_INVALID_INDEX, -3, "an index is out of range")                   \
  X(GSP_DOMAIN_MISMATCH, -4, "types or semiring do not fit together")    \
  X(GSP_DIMENSION_MISMATCH, -5, "dimensions do not agree")               \
  X(GSP_INVALID_OBJECT, -6, "handle is uninitialised, freed or corrupt") \
  X(GSP_OUTPUT_NOT_EMPTY, -7, "output object must be empty")             \
  X(GSP_DUPLICATE_ENTRY, -8, "duplicate entry")                          \
  X(GSP_INSUFFICIENT_SPACE, -9, "output array is too small")             \
  X(GSP_OUT_OF_MEMORY, -10, "out of host memory")                        \
  X(GSP_TOO_LARGE, -11, "size overflows or exceeds the supported limit") \
  X(GSP_NEGATIVE_CYCLE, -12, "the graph has a negative cycle")           \
  X(GSP_NO_DEVICE, -13, "no usable GPU for the requested backend")       \
  X(GSP_DEVICE_OUT_OF_MEMORY, -14, "out of device memory")               \
  X(GSP_DEVICE_ERROR, -15, "CUDA error")                                 \
  X(GSP_IO_ERROR, -16, "file cannot be opened, read or written")         \
  X(GSP_PARSE_ERROR, -17, "malformed input file")                        \
  X(GSP_ABORTED, -18, "stopped by the caller's callback")                \
  X(GSP_PANIC, -99, "internal error")

typedef enum {
#define GSP_INFO_ENUM_(name, value, text) name = value,
  GSP_INFO_LIST(GSP_INFO_ENUM_)
#undef GSP_INFO_ENUM_
} gsp_info;

/* Name and short description of a code, e.g. "GSP_INVALID_INDEX: an index
 * is out of range". Never NULL. */
const char *gsp_strerror(gsp_info info);

/* The calling thread's last error detail, e.g. "gsp_matrix_build: entry 3:
 * row index 7 out of range 0..4". Empty string if none. Never NULL. */
const char *gsp_last_error(void);

/* ---------------------------------------------------------------------- */
/* Types, semirings, operators                                             */
/* ---------------------------------------------------------------------- */

typedef enum {
  GSP_BOOL = 0, /* bool */
  GSP_INT32,    /* int32_t */
  GSP_INT64,    /* int64_t */
  GSP_FP32,     /* float */
  GSP_FP64      /* double */
} gsp_type;

/* Size in bytes of one value of type t (0 for an invalid type). */
size_t gsp_type_size(gsp_type t);

/*
 * Semirings (add monoid, multiply; zero = add identity = "no path").
 *   MIN_PLUS   min  +    zero +inf / INT_MAX   one 0        shortest paths
 *   MAX_PLUS   max  +    zero -inf / INT_MIN   one 0        longest paths
 *   MAX_MIN    max  min  zero -inf / INT_MIN   one +inf/MAX widest paths
 *   MIN_MAX    min  max  zero +inf / INT_MAX   one -inf/MIN minimax paths
 *   OR_AND     or   and  zero false            one true     reachability
 *   PLUS_TIMES +    *    zero 0                one 1        ordinary algebra
 * OR_AND works on GSP_BOOL objects; the others on INT32, INT64, FP32, FP64.
 * Integer "+" in MIN_PLUS / MAX_PLUS saturates: INT_MAX (resp. INT_MIN) is
 * infinity and absorbs, and overflowing sums clamp instead of wrapping.
 */
typedef enum { GSP_MIN_PLUS = 0, GSP_MAX_PLUS, GSP_MAX_MIN, GSP_MIN_MAX, GSP_OR_AND, GSP_PLUS_TIMES } gsp_semiring;

/* *zero = the zero of semiring s in type t (its add's identity: "no path",
 * as the table above gives it) and *one = its one (the multiply's identity,
 * the empty path), each gsp_type_size(t) bytes; either may be NULL.
 * Errors: GSP_INVALID_VALUE (an unknown semiring or type),
 * GSP_DOMAIN_MISMATCH (OR_AND with a type other than GSP_BOOL, or another
 * semiring with GSP_BOOL). */
gsp_info gsp_semiring_identities(void *zero, void *one, gsp_semiring s, gsp_type t);

/* Binary operators for element-wise operations, accumulators and reduction
 * monoids. On GSP_BOOL, MIN/TIMES/LAND are "and", MAX/PLUS/LOR are "or"
 * (GraphBLAS semantics). Integer PLUS and TIMES wrap (two's complement). */
typedef enum {
  GSP_NOOP = 0, /* as accumulator: none */
  GSP_MIN,
  GSP_MAX,
  GSP_PLUS,
  GSP_TIMES,
  GSP_LOR,
  GSP_LAND,
  GSP_FIRST,  /* x */
  GSP_SECOND, /* y */
  GSP_MINUS   /* x - y (not a monoid) */
} gsp_binop;

/* Unary operators for gsp_*_apply. */
typedef enum {
  GSP_IDENTITY = 0,
  GSP_AINV, /* -x (bool: x) */
  GSP_ABS,
  GSP_ONE /* 1 / true: the structure of the input */
} gsp_unop;

/* Selection operators for gsp_*_select. VALUE_* compare each entry with the
 * thunk (a value of the object's type); TRIL/TRIU/DIAG/OFFDIAG use the
 * int64_t thunk k: keep j <= i + k, j >= i + k, j == i + k, j != i + k.
 * For vectors the index operators use j = i and i = 0. */
typedef enum {
  GSP_TRIL = 0,
  GSP_TRIU,
  GSP_DIAG,
  GSP_OFFDIAG,
  GSP_VALUE_EQ,
  GSP_VALUE_NE,
  GSP_VALUE_LT,
  GSP_VALUE_LE,
  GSP_VALUE_GT,
  GSP_VALUE_GE
} gsp_selop;

/* Policy for duplicate (i, j) entries when building from tuples. */
typedef enum {
  GSP_DUP_ERROR = 0, /* GSP_DUPLICATE_ENTRY, nothing changed */
  GSP_DUP_FIRST,     /* keep the first occurrence */
  GSP_DUP_LAST,      /* keep the last occurrence */
  GSP_DUP_MIN,
  GSP_DUP_MAX,
  GSP_DUP_PLUS
} gsp_dup;

/* Where an operation runs. AUTO = CUDA when a usable device exists and the
 * GPU kernels take the call, else CPU. The environment variable
 * GSP_BACKEND=cpu|cuda|auto sets the process default. */
typedef enum { GSP_BACKEND_AUTO = 0, GSP_BACKEND_CPU, GSP_BACKEND_CUDA } gsp_backend;

/* Process-wide default backend (initially from GSP_BACKEND, else AUTO). */
gsp_info gsp_set_backend(gsp_backend b);
gsp_info gsp_get_backend(gsp_backend *b);

/* Number of CPU threads for OpenMP kernels; 0 = the default: OpenMP's
 * (OMP_NUM_THREADS, else the CPUs), capped at each call by the CPUs the
 * process's affinity mask allows then (taskset, sched_setaffinity). */
gsp_info gsp_set_threads(int nthreads);
gsp_info gsp_get_threads(int *nthreads);

/* Whether this build has the CUDA backend and a usable device. Writes a
 * one-line description of the device (or why there is none) to `desc` when
 * desc != NULL and len > 0. */
gsp_info gsp_cuda_available(bool *available, char *desc, size_t len);

/* Start the GPU's context now, and load the kernels of gsp_apsp's and
 * gsp_msssp's many-source path, when this build has the CUDA backend and a
 * device is usable (nothing otherwise; always GSP_SUCCESS). The first GPU
 * call of a process pays for it (about 0.3-0.5 s): a program can call this
 * on a thread of its own while it reads its input. */
gsp_info gsp_cuda_warm_up(void);

/* ---------------------------------------------------------------------- */
/* Descriptor                                                             */
/* ---------------------------------------------------------------------- */

/* Direction of a matrix-vector product on the CUDA backend (gsp_mxv,
 * gsp_vxm). PUSH scatters each entry of the input vector along its row of
 * the matrix with atomic updates; PULL has every output entry that the mask
 * allows gather over its row of the transposed matrix (no atomics; a
 * complemented mask of settled vertices skips them). AUTO pushes from a
 * sparse input vector and pulls into a dense one (PLUS_TIMES on FP32/FP64
 * with a full input vector goes to cuSPARSE). The result is the same
 * either way; the CPU backend ignores the field. */
typedef enum { GSP_DIRECTION_AUTO = 0, GSP_DIRECTION_PUSH, GSP_DIRECTION_PULL } gsp_direction;

/* Options of an operation  C<M> = accum(C, T). NULL means all false. */
typedef struct {
  bool mask_complement; /* use !M */
  bool mask_structure;  /* M(i,j) counts if present, whatever its value */
  bool replace;         /* clear C outside the mask before writing */
  bool transpose_a;     /* use A' (first matrix input) */
  bool transpose_b;     /* use B' (second matrix input) */
  /* gsp_mxm, gsp_mxv and gsp_vxm only (the other operations run on the
   * CPU): where the product runs. AUTO: the process default (gsp_set_backend,
   * GSP_BACKEND); when that is AUTO too, the GPU takes the call when an
   * operand is already on the device or the product is large enough to
   * repay the transfers, else the CPU (sparse x sparse mxm stays on the CPU).
   * Results are the same on either. CUDA with no usable device gives
   * GSP_NO_DEVICE; a case the GPU kernels do not cover (more than 2^31 - 1
   * rows, columns or entries: GSP_TOO_LARGE; sparse x sparse mxm other than
   * PLUS_TIMES on FP32/FP64: GSP_DOMAIN_MISMATCH) fails under CUDA with the
   * reason, and runs on the CPU under AUTO. */
  gsp_backend backend;
  gsp_direction direction; /* gsp_mxv / gsp_vxm on the GPU: push or pull */
} gsp_desc;

/* ---------------------------------------------------------------------- */
/* Matrices                                                                */
/* ---------------------------------------------------------------------- */

typedef struct gsp_matrix_s *gsp_matrix;

/* New empty nrows x ncols matrix of type t (both dimensions may be 0). */
gsp_info gsp_matrix_new(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols);

/* Free *A (NULL-safe: *A == NULL or A == NULL is a no-op) and set *A = NULL. */
gsp_info gsp_matrix_free(gsp_matrix *A);

/* *C = a deep copy of A. */
gsp_info gsp_matrix_dup(gsp_matrix *C, const gsp_matrix A);

/* *C = A with every value converted to type t (to bool: x != 0). */
gsp_info gsp_matrix_cast(gsp_matrix *C, const gsp_matrix A, gsp_type t);

/* *C = the structure of A as a GSP_BOOL matrix: true at every entry. */
gsp_info gsp_matrix_pattern(gsp_matrix *C, const gsp_matrix A);

/* *C = A' (a new matrix). */
gsp_info gsp_matrix_transpose(gsp_matrix *C, const gsp_matrix A);

gsp_info gsp_matrix_nrows(gsp_index *nrows, const gsp_matrix A);
gsp_info gsp_matrix_ncols(gsp_index *ncols, const gsp_matrix A);
gsp_info gsp_matrix_nvals(gsp_index *nvals, const gsp_matrix A);
gsp_info gsp_matrix_type(gsp_type *t, const gsp_matrix A);

/* Remove every entry; the dimensions stay. */
gsp_info gsp_matrix_clear(gsp_matrix A);

/* Add n tuples (I[k], J[k], X[k]) to A, which must have no entries
 * (GSP_OUTPUT_NOT_EMPTY otherwise). X holds n values of A's type; X may be
 * NULL for a GSP_BOOL matrix (all true). Duplicates follow `dup`. */
gsp_info gsp_matrix_build(gsp_matrix A, const gsp_index *I, const gsp_index *J, const void *X, gsp_index n,
                          gsp_dup dup);

/* A(i,j) = *x (inserting or overwriting). */
gsp_info gsp_matrix_set_element(gsp_matrix A, gsp_index i, gsp_index j, const void *x);

/* Remove A(i,j) if present (GSP_SUCCESS either way). */
gsp_info gsp_matrix_remove_element(gsp_matrix A, gsp_index i, gsp_index j);

/* *x = A(i,j); GSP_NO_VALUE (and *x untouched) if absent. */
gsp_info gsp_matrix_extract_element(void *x, const gsp_matrix A, gsp_index i, gsp_index j);

/* Copy all entries, in row-major order, to I, J, X (each may be NULL).
 * *n is the capacity on input and the entry count on output;
 * GSP_INSUFFICIENT_SPACE (arrays untouched, *n = nvals) if too small. */
gsp_info gsp_matrix_extract_tuples(gsp_index *I, gsp_index *J, void *X, gsp_index *n, const gsp_matrix A);

/* New matrix from CSR arrays (copied): rowptr[nrows+1] with rowptr[0] = 0,
 * nondecreasing; colidx[nvals] < ncols, any order within a row, no
 * duplicates; values[nvals] of type t (NULL for bool: all true). */
gsp_info gsp_matrix_import_csr(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols, const gsp_index *rowptr,
                               const gsp_index *colidx, const void *values);

/* Zero-copy variant: A takes ownership of malloc()ed arrays (checked as for
 * import; values must be non-NULL). Rows whose columns are not strictly
 * increasing are sorted into new arrays (a transient copy) and the caller's
 * are freed. On success the three pointers are set to NULL; on error the
 * caller still owns them, unchanged. */
gsp_info gsp_matrix_pack_csr(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols, gsp_index **rowptr,
                             gsp_index **colidx, void **values);

/* Copy A out as CSR with sorted column indices. Caller-provided arrays:
 * rowptr[nrows+1], colidx[nvals], values[nvals] (values may be NULL). */
gsp_info gsp_matrix_export_csr(gsp_index *rowptr, gsp_index *colidx, void *values, const gsp_matrix A);

/* Zero-copy variant: hand A's CSR arrays to the caller (to be released with
 * free()) and free A (*A = NULL). */
gsp_info gsp_matrix_unpack_csr(gsp_index **rowptr, gsp_index **colidx, void **values, gsp_index *nvals, gsp_matrix *A);

/* As gsp_matrix_export_csr, with colidx of index_size bytes (4: int32,
 * when ncols fits; 8: int64), in two calls: colidx == NULL counts
 * (rowptr[nrows+1] filled, rowptr[nrows] = nvals), then arrays of that size
 * are filled. Built in parallel from A's own storage (bit-packed rows of a
 * bool closure included) without converting A. values may be NULL. */
gsp_info gsp_matrix_export_csr_indexed(gsp_index *rowptr, void *colidx, size_t index_size, void *values,
                                       const gsp_matrix A);

/* New matrix from a dense row-major array of nrows*ncols values of type t.
 * Entries equal to *absent are left out (absent == NULL: all present). */
gsp_info gsp_matrix_import_dense(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols, const void *values,
                                 const void *absent);

/* Zero-copy variant: A takes ownership of a malloc()ed array; all entries
 * present except those equal to *absent (when absent != NULL). */
gsp_info gsp_matrix_pack_dense(gsp_matrix *A, gsp_type t, gsp_index nrows, gsp_index ncols, void **values,
                               const void *absent);

/* Write A to values[nrows*ncols] row-major; absent entries get *absent. */
gsp_info gsp_matrix_export_dense(void *values, const void *absent, const gsp_matrix A);

/* Zero-copy variant: hand the dense array to the caller (release with
 * free()), absent entries set to *absent, and free A. */
gsp_info gsp_matrix_unpack_dense(void **values, const void *absent, gsp_matrix *A);

/* ---------------------------------------------------------------------- */
/* Vectors                                                                 */
/* ---------------------------------------------------------------------- */

typedef struct gsp_vector_s *gsp_vector;

gsp_info gsp_vector_new(gsp_vector *v, gsp_type t, gsp_index n);
gsp_info gsp_vector_free(gsp_vector *v);
gsp_info gsp_vector_dup(gsp_vector *w, const gsp_vector v);
gsp_info gsp_vector_size(gsp_index *n, const gsp_vector v);
gsp_info gsp_vector_nvals(gsp_index *nvals, const gsp_vector v);
gsp_info gsp_vector_type(gsp_type *t, const gsp_vector v);
gsp_info gsp_vector_clear(gsp_vector v);
/* As gsp_matrix_build, for a vector that has no entries. */
gsp_info gsp_vector_build(gsp_vector v, const gsp_index *I, const void *X, gsp_index n, gsp_dup dup);
gsp_info gsp_vector_set_element(gsp_vector v, gsp_index i, const void *x);
gsp_info gsp_vector_remove_element(gsp_vector v, gsp_index i);
gsp_info gsp_vector_extract_element(void *x, const gsp_vector v, gsp_index i);
/* As gsp_matrix_extract_tuples, in increasing index order. */
gsp_info gsp_vector_extract_tuples(gsp_index *I, void *X, gsp_index *n, const gsp_vector v);
/* New vector from values[n]; entries equal to *absent left out. */
gsp_info gsp_vector_import_dense(gsp_vector *v, gsp_type t, gsp_index n, const void *values, const void *absent);
/* Write v to values[n]; absent entries get *absent. */
gsp_info gsp_vector_export_dense(void *values, const void *absent, const gsp_vector v);

/* ---------------------------------------------------------------------- */
/* Operations: C<M> = accum(C, T)                                          */
/*                                                                         */
/* mask may be NULL (no mask); accum may be GSP_NOOP (T replaces C within   */
/* the mask). All value inputs and the output must share one type (masks  */
/* may have any type). GraphBLAS semantics: T has an entry wherever at     */
/* least one term contributes, even when its value is the semiring zero.   */
/* ---------------------------------------------------------------------- */

/* T = A (+.*) B on semiring s. */
gsp_info gsp_mxm(gsp_matrix C, const gsp_matrix mask, gsp_binop accum, gsp_semiring s, const gsp_matrix A,
                 const gsp_matrix B, const gsp_desc *desc);
/* t = A (+.*) u. */
gsp_info gsp_mxv(gsp_vector w, const gsp_vector mask, gsp_binop accum, gsp_semiring s, const gsp_matrix A,
                 const gsp_vector u, const gsp_desc *desc);
/* t = u (+.*) A (desc->transpose_b transposes A).
 * gsp_mxv / gsp_vxm on the CUDA backend (see gsp_desc.backend) leave w on
 * the device: its entry count is known at once, and the first host read of
 * its values (extract, export, a CPU operation) downloads them. Matrix and
 * vector operands keep device copies until their host data changes. */
gsp_info gsp_vxm(gsp_vector w, const gsp_vector mask, gsp_binop accum, gsp_semiring s, const gsp_vector u,
                 const gsp_matrix A, const gsp_desc *desc);

/* T = A op B on the union of the structures (one-sided entries copied). */
gsp_info gsp_matrix_ewise_add(gsp_matrix C, const gsp_matrix mask, gsp_binop accum, gsp_binop op, const gsp_matrix A,
                              const gsp_matrix B, const gsp_desc *desc);
/* T = A op B on the intersection of the structures. */
gsp_info gsp_matrix_ewise_mult(gsp_matrix C, const gsp_matrix mask, gsp_binop accum, gsp_binop op, const gsp_matrix A,
                               const gsp_matrix B, const gsp_desc *desc);
gsp_info gsp_vector_ewise_add(gsp_vector w, const gsp_vector mask, gsp_binop accum, gsp_binop op, const gsp_vector u,
                              const gsp_vector v, const gsp_desc *desc);
gsp_info gsp_vector_ewise_mult(gsp_vector w, const gsp_vector mask, gsp_binop accum, gsp_binop op, const gsp_vector u,
                               const gsp_vector v, const gsp_desc *desc);

/* t(i) = reduction with monoid op (MIN, MAX, PLUS, TIMES, LOR, LAND) of row i
 * of A (of column i with desc->transpose_a). Empty rows give no entry. */
gsp_info gsp_matrix_reduce_vector(gsp_vector w, const gsp_vector mask, gsp_binop accum, gsp_binop op,
                                  const gsp_matrix A, const gsp_desc *desc);
/* *s = reduction of all entries (the monoid identity if A has none). */
gsp_info gsp_matrix_reduce_scalar(void *s, gsp_binop op, const gsp_matrix A);
gsp_info gsp_vector_reduce_scalar(void *s, gsp_binop op, const gsp_vector v);

/* T = f(A). */
gsp_info gsp_matrix_apply(gsp_matrix C, const gsp_matrix mask, gsp_binop accum, gsp_unop f, const gsp_matrix A,
                          const gsp_desc *desc);
/* T = A op y for a scalar *y of A's type. */
gsp_info gsp_matrix_apply_scalar(gsp_matrix C, const gsp_matrix mask, gsp_binop accum, gsp_binop op, const gsp_matrix A,
                                 const void *y, const gsp_desc *desc);
gsp_info gsp_vector_apply(gsp_vector w, const gsp_vector mask, gsp_binop accum, gsp_unop f, const gsp_vector u,
                          const gsp_desc *desc);
gsp_info gsp_vector_apply_scalar(gsp_vector w, const gsp_vector mask, gsp_binop accum, gsp_binop op, const gsp_vector u,
                                 const void *y, const gsp_desc *desc);

/* T = the entries of A that pass op with thunk (see gsp_selop). */
gsp_info gsp_matrix_select(gsp_matrix C, const gsp_matrix mask, gsp_binop accum, gsp_selop op, const gsp_matrix A,
                           const void *thunk, const gsp_desc *desc);
gsp_info gsp_vector_select(gsp_vector w, const gsp_vector mask, gsp_binop accum, gsp_selop op, const gsp_vector u,
                           const void *thunk, const gsp_desc *desc);

/* ---------------------------------------------------------------------- */
/* Closure                                                                */
/* ---------------------------------------------------------------------- */

/* Advanced options of gsp_closure_ext (memory cap, GPUs, progress):
 * defined in the advanced part below. */
typedef struct gsp_closure_advanced gsp_closure_advanced;

/* Options of gsp_closure_ext. NULL means all defaults (zero). */
typedef struct {
  bool non_reflexive;                   /* compute M+ = M M* instead of M* = I + M+ */
  gsp_backend backend;                  /* AUTO: process default */
  const gsp_closure_advanced *advanced; /* NULL: defaults */
} gsp_closure_opts;

/*
 * Replace the square matrix M by its Kleene closure M* on semiring s:
 * M*(i,j) is the add-reduction over all paths i -> j of the multiply-product
 * of their edge weights; the diagonal includes the empty path (semiring one).
 * Defined for MIN_PLUS, MAX_PLUS, MAX_MIN, MIN_MAX (numeric types) and OR_AND
 * (GSP_BOOL); PLUS_TIMES gives GSP_DOMAIN_MISMATCH. Pairs with no path are
 * absent. With MIN_PLUS a negative cycle (with MAX_PLUS a positive one)
 * gives GSP_NEGATIVE_CYCLE and leaves M unchanged. Floating-point NaN
 * weights give GSP_INVALID_VALUE. Blocked Floyd-Warshall computes it, or,
 * for a matrix stored sparse whose graph is sparse and deep (road
 * networks, meshes, grids; every semiring but OR_AND), the sparse star
 * where gsp_apsp's cost model predicts it faster (docs/apsp.md): the same
 * values (floats: sums in another order, so within rounding unless the
 * weights are integer-valued).
 */
gsp_info gsp_closure(gsp_matrix M, gsp_semiring s);

/*
 * As gsp_closure, with options, and when succ != NULL it also returns
 * *succ: a new GSP_INT64 n x n matrix where succ(i,j) is the vertex after i
 * on an optimal path from i to j (present wherever M(i,j) is; for the empty
 * path of M*, succ(i,i) = i). Walk it with gsp_path_from_succ. For
 * shortest-path distances between all pairs use gsp_apsp, which picks
 * this closure when it is the fastest route.
 */
gsp_info gsp_closure_ext(gsp_matrix M, gsp_matrix *succ, gsp_semiring s, const gsp_closure_opts *opts);

/* ---------------------------------------------------------------------- */
/* Single- and multi-source shortest paths                                 */
/*                                                                         */
/* Frontier relaxation on MIN_PLUS over a square matrix A of type INT32,   */
/* INT64, FP32 or FP64: A(i,j) is the weight of arc i -> j (an explicit 0  */
/* is an arc). Weights must be non-negative: a negative weight gives       */
/* GSP_INVALID_VALUE (use Bellman-Ford or Johnson for those), as does a    */
/* NaN weight. Integer sums saturate as in MIN_PLUS: INT_MAX is "no path". */
/* Results are the same on every backend and algorithm: distances are the  */
/* exact fixpoint of d(v) = min(d(u) + A(u,v)) in A's arithmetic. Parents  */
/* follow the tight arcs (d(u) + A(u,v) == d(v)): parent(v) is the         */
/* smallest u on a tight arc with d(u) < d(v). Where there is none (a tie: */
/* zero weights, or float sums that absorb a small weight) it is the       */
/* smallest tight u one hop closer, over tight arcs, to the sources and    */
/* the vertices of the first kind. Following parents from v back to the    */
/* source and adding the arc weights from the source onward reproduces     */
/* d(v) exactly. Unreachable vertices (and those beyond the cutoff) are    */
/* absent entries. On error every output is untouched.                     */
/* ---------------------------------------------------------------------- */

/* Single-source algorithms. */
typedef enum {
  GSP_SSSP_AUTO = 0, /* the library's pick for the backend and graph */
  GSP_SSSP_HARISH,   /* Harish & Narayanan: relax every modified vertex each
                        round (Bellman-Ford restricted to a frontier) */
  GSP_SSSP_DA2CF,    /* Dijkstra adapted to compound frontiers (Ortega-
                        Arranz et al.): relax, min-reduce, settle every vertex
                        under the Crauser in/out thresholds */
  GSP_SSSP_DELTA     /* Meyer & Sanders delta-stepping, buckets of width
                        delta, light edges within a bucket, heavy after */
} gsp_sssp_algo;

/* Advanced options of gsp_sssp and gsp_nearest_source (the report of
 * where they ran): defined in the advanced part below. */
typedef struct gsp_sssp_advanced gsp_sssp_advanced;

/* Options of gsp_sssp and gsp_nearest_source. NULL means all defaults. */
typedef struct {
  gsp_sssp_algo algo;                /* AUTO: chosen per backend and graph */
  gsp_backend backend;               /* AUTO: process default */
  bool has_cutoff;                   /* leave out vertices farther than cutoff */
  double cutoff;                     /* >= 0, compared with distances as double */
  double delta;                      /* GSP_SSSP_DELTA bucket width (> 0); 0: heuristic */
  const gsp_sssp_advanced *advanced; /* NULL: defaults */
} gsp_sssp_opts;

/*
 * Shortest paths from src: *dist = a new vector of A's type and size n with
 * d(v) for every vertex v reachable from src (within the cutoff); d(src) = 0.
 * When parent != NULL, *parent = a new GSP_INT64 vector with the parent of
 * every vertex present in *dist, and parent(src) = src.
 * Errors: GSP_NULL_POINTER, GSP_INVALID_OBJECT (A), GSP_DIMENSION_MISMATCH
 * (A not square), GSP_INVALID_INDEX (src >= n), GSP_DOMAIN_MISMATCH (A is
 * GSP_BOOL), GSP_INVALID_VALUE (negative or NaN weight, bad options),
 * GSP_NO_DEVICE (CUDA requested and unusable), GSP_OUT_OF_MEMORY and the
 * device errors.
 */
gsp_info gsp_sssp(gsp_vector *dist, gsp_vector *parent, const gsp_matrix A, gsp_index src, const gsp_sssp_opts *opts);

/* Options of gsp_msssp. NULL means all defaults. */
typedef struct {
  gsp_backend backend; /* AUTO: process default */
  bool has_cutoff;     /* leave out entries farther than cutoff */
  double cutoff;
  gsp_index batch;      /* sources relaxed together (on the GPU a multiple of
                          32, the warp size, rounded up); 0: automatic */
  gsp_type parent_type; /* of *parent: GSP_INT64, or GSP_INT32 (half the
                          memory; needs n <= INT32_MAX); 0 (GSP_BOOL)
                          means GSP_INT64 */
} gsp_msssp_opts;

/*
 * Many sources at once (Okuyama et al.'s task-parallel scheme: a batch of
 * sources is relaxed together in a vertex-major, source-minor layout, so the
 * threads working for one vertex share its adjacency list). sources holds
 * nsources vertices (repeats allowed; nsources == 0 gives an empty result);
 * sources == NULL is GSP_INVALID_VALUE: all pairs go through gsp_apsp,
 * which runs these kernels when they are the fastest route.
 * *dist = a new nsources x n matrix of A's type whose row k holds the
 * distances from sources[k] (absent: unreachable). When parent != NULL,
 * *parent = a new nsources x n matrix of opts->parent_type (GSP_INT64 by
 * default) whose row k holds the parents in the tree of sources[k] (walk
 * with gsp_path_from_parent_row). With integer weights and no parents,
 * the rows come from the dense closure instead where gsp_apsp's cost model
 * predicts that faster (a small, dense or deep graph: a ring needs
 * thousands of rounds); the distances are the same, and a nonzero
 * opts->batch keeps the relaxation. Errors as for gsp_sssp; a source >= n
 * gives GSP_INVALID_INDEX; a parent_type other than INT32 or INT64, or
 * INT32 with n > INT32_MAX, gives GSP_INVALID_VALUE.
 */
gsp_info gsp_msssp(gsp_matrix *dist, gsp_matrix *parent, const gsp_matrix A, const gsp_index *sources,
                   gsp_index nsources, const gsp_msssp_opts *opts);

/*
 * Nearest-source mode: d(v) = min over the nsources sources s of the
 * distance s -> v. *dist = a new vector of A's type, *source (when not
 * NULL) = a new GSP_INT64 vector with a source that attains d(v) (the root
 * of v's tree), *parent (when not NULL) = a new GSP_INT64 vector of parents
 * (parent(s) = s for every source). nsources >= 1. Errors as for gsp_sssp.
 */
gsp_info gsp_nearest_source(gsp_vector *dist, gsp_vector *source, gsp_vector *parent, const gsp_matrix A,
                            const gsp_index *sources, gsp_index nsources, const gsp_sssp_opts *opts);

/* ---------------------------------------------------------------------- */
/* Bellman-Ford: shortest paths with negative weights                      */
/*                                                                         */
/* A is square, INT32, INT64, FP32 or FP64, and may hold negative weights  */
/* (NaN and -inf are GSP_INVALID_VALUE). Distances are those of the SSSP   */
/* section above (the fixpoint in A's arithmetic, integer sums             */
/* saturating). Parents have their own rule, since with negative arcs a    */
/* vertex may have only tight tails of larger distance: parent(v) is the   */
/* smallest u on a tight arc (d(u) + A(u,v) == d(v)) whose hop level is    */
/* one below v's, levels counted by a BFS from the source over the tight   */
/* arcs. Both are the same on every backend. A negative cycle is one whose */
/* arc weights sum below zero: exactly for integers (also when saturated   */
/* sums would hide it), in A's arithmetic for floats (with integer-valued  */
/* weights and sums below 2^24 for FP32, 2^53 for FP64, the same thing).   */
/* Relaxation stops after n rounds, or earlier when the parent graph       */
/* closes a cycle, so every call terminates. The cycle found is a function */
/* of A (and src) alone: the same on every backend and thread count.       */
/* ---------------------------------------------------------------------- */

/* Advanced options of gsp_bellman_ford and gsp_negative_cycle (the report
 * of where they ran): defined in the advanced part below. */
typedef struct gsp_bf_advanced gsp_bf_advanced;

/* Options of gsp_bellman_ford and gsp_negative_cycle. NULL means all
 * defaults (zero). */
typedef struct {
  gsp_backend backend;             /* AUTO: process default */
  const gsp_bf_advanced *advanced; /* NULL: defaults */
} gsp_bf_opts;

/*
 * Shortest paths from src with negative weights allowed: *dist = a new
 * vector of A's type with d(v) for every vertex reachable from src, and when
 * parent != NULL *parent = a new GSP_INT64 vector of parents (parent(src) =
 * src), as gsp_sssp gives them. GSP_NEGATIVE_CYCLE when a negative cycle is
 * reachable from src (gsp_last_error() lists its vertices; a cycle
 * elsewhere in A does not matter); the outputs are untouched then.
 * Errors: GSP_NULL_POINTER, GSP_INVALID_OBJECT, GSP_DIMENSION_MISMATCH,
 * GSP_INVALID_INDEX (src >= n), GSP_DOMAIN_MISMATCH (GSP_BOOL),
 * GSP_INVALID_VALUE (NaN or -inf weight, bad options), GSP_NO_DEVICE,
 * GSP_OUT_OF_MEMORY and the device errors.
 */
gsp_info gsp_bellman_ford(gsp_vector *dist, gsp_vector *parent, const gsp_matrix A, gsp_index src,
                          const gsp_bf_opts *opts);

/*
 * A negative cycle anywhere in A (Bellman-Ford from a virtual source joined
 * to every vertex): cycle[0] -> cycle[1] -> ... -> cycle[len-1] -> cycle[0]
 * are arcs of A whose weights sum below zero, cycle[0] its smallest vertex.
 * *len is the capacity on input and the vertex count on output;
 * GSP_INSUFFICIENT_SPACE (cycle untouched, *len = needed) if too small. A
 * buffer of n vertices always suffices. GSP_NO_VALUE (nothing written) when
 * A has no negative cycle. Errors as for gsp_bellman_ford.
 */
gsp_info gsp_negative_cycle(gsp_index *cycle, gsp_index *len, const gsp_matrix A, const gsp_bf_opts *opts);
/* ---------------------------------------------------------------------- */
/* All-pairs shortest paths                                                */
/*                                                                         */
/* THE call for "distances from every (or many) source(s)" on MIN_PLUS,   */
/* negative weights included. Three algorithms, chosen by a cost model or  */
/* forced (docs/apsp.md): Floyd-Warshall (gsp_closure_ext; n^3 work, best  */
/* for dense or small graphs), multi-source relaxation (gsp_msssp's        */
/* kernels; about nsources x arcs work; non-negative weights only), and    */
/* Johnson (Bellman-Ford potentials h from a virtual source, arcs          */
/* reweighted to w + h(u) - h(v) >= 0, the multi-source kernels on that    */
/* graph, distances mapped back; for sparse graphs with negative weights). */
/* ---------------------------------------------------------------------- */

typedef enum {
  GSP_APSP_AUTO = 0,       /* the cost model's pick (docs/apsp.md) */
  GSP_APSP_FLOYD_WARSHALL, /* blocked Floyd-Warshall closure */
  GSP_APSP_MSSSP,          /* batched multi-source relaxation (weights >= 0) */
  GSP_APSP_JOHNSON,        /* Bellman-Ford reweighting, then relaxation */
  GSP_APSP_SPARSE_STAR     /* elimination in a fill-reducing order, then
                              triangular solves (gsp_star_factor; road
                              networks, meshes, grids) */
} gsp_apsp_algo;

/* Number of gsp_apsp_algo values (the size of per-algorithm arrays). */
#define GSP_APSP_ALGOS 5

/* Advanced options of gsp_apsp (row callbacks, memory caps, GPUs, the
 * cost model's report): defined in the advanced part below. */
typedef struct gsp_apsp_advanced gsp_apsp_advanced;

/* Options of gsp_apsp. NULL means all defaults (zero). */
typedef struct {
  gsp_apsp_algo algo;       /* AUTO: chosen by the cost model */
  gsp_backend backend;      /* AUTO: process default */
  const gsp_index *sources; /* the sources, one result row each (repeats
                               allowed); NULL: every vertex 0..n-1 */
  gsp_index nsources;       /* entries in sources (ignored when NULL) */
  bool has_cutoff;          /* leave out distances above cutoff */
  double cutoff;            /* compared with distances in A's type */
  bool use_type;            /* output type `type` (INT32, INT64, FP32,
                               FP64) instead of A's: values converted as
                               gsp_matrix_cast does (integers saturate;
                               a distance beyond INT32 becomes "no path") */
  gsp_type type;
  gsp_type parent_type;              /* of *parent: GSP_INT64, or GSP_INT32 (half
                               the memory; needs n <= INT32_MAX); 0
                               (GSP_BOOL) means GSP_INT64 */
  const gsp_apsp_advanced *advanced; /* NULL: defaults */
} gsp_apsp_opts;

/*
 * Shortest-path distances on MIN_PLUS from each source to every vertex of
 * the square matrix A (INT32, INT64, FP32 or FP64; A(i,j) is the weight of
 * arc i -> j, negative allowed). *dist = a new dense nsources x n matrix of
 * the output type, row k = distances from sources[k] (absent: no path, or
 * beyond the cutoff). When parent != NULL, *parent = a new nsources x n
 * matrix of parents of opts->parent_type (GSP_INT64 by default): row k is
 * the shortest-path tree of sources[k] (parent(s) = s; absent where dist
 * is), walked with gsp_path_from_parent_row whatever the algorithm. With
 * a row callback (opts->advanced->rows) the rows go to the callback
 * instead and *dist (and *parent) become NULL.
 *
 * Integer weights give exact distances with every algorithm (Johnson's
 * reweighting is exact in integers; sums saturate as in MIN_PLUS). Float
 * weights: Floyd-Warshall and relaxation give the distances in A's
 * arithmetic (different algorithms may differ in the last bits, the sums
 * being taken in different orders); Johnson's mapped-back distances carry
 * the rounding of h (relative error about n * epsilon of the path's
 * weights and potentials) and a reweighted arc that rounds below zero is
 * taken as 0. MSSSP's parents follow the rule of the SSSP section;
 * Johnson's follow it on the reweighted distances d(s,v) + h(s) - h(v)
 * (the same as MSSSP's when no weight is negative). Parents from
 * Floyd-Warshall may differ from the others' where paths tie; every tree
 * is a shortest-path tree.
 *
 * Errors: GSP_NULL_POINTER, GSP_INVALID_OBJECT (A), GSP_DIMENSION_MISMATCH
 * (A not square), GSP_DOMAIN_MISMATCH (A or the output type GSP_BOOL),
 * GSP_INVALID_INDEX (a source >= n), GSP_INVALID_VALUE (NaN or -inf weight,
 * a negative weight with GSP_APSP_MSSSP forced, bad options, a
 * parent_type other than INT32 or INT64, INT32 with n > INT32_MAX),
 * GSP_NEGATIVE_CYCLE (a negative cycle anywhere in A, also one no source
 * reaches; the message names its vertices), GSP_TOO_LARGE, GSP_ABORTED
 * (the callback returned nonzero), GSP_NO_DEVICE, GSP_OUT_OF_MEMORY and the
 * device errors. On error *dist and *parent are untouched (rows already
 * handed to a callback stay delivered).
 */
gsp_info gsp_apsp(gsp_matrix *dist, gsp_matrix *parent, const gsp_matrix A, const gsp_apsp_opts *opts);

/* ---------------------------------------------------------------------- */
/* The sparse star: A* of a sparse matrix by elimination                  */
/*                                                                         */
/* Gaussian elimination over the semiring (Carre's algorithm) with the     */
/* vertices in a fill-reducing order of the symmetrized pattern (METIS     */
/* nested dissection, or AMD) and CHOLMOD's supernodes: each supernode's   */
/* diagonal block is closed, its panels scaled and its ancestors updated   */
/* by dense products. Rows and columns of A* then come from triangular     */
/* solves whose work is the size of the factor, not n^2 per row. On road   */
/* networks, meshes and grids (small separators) the factor is small and   */
/* this is by far the fastest way to all pairs; on random graphs of        */
/* average degree 4 and more it fills in (docs/apsp.md). Directed graphs   */
/* are handled as they are: only the order uses the symmetrized pattern.   */
/* ---------------------------------------------------------------------- */

/* A factorization, for repeated queries (as scipy's splu is for linear
 * systems). */
typedef struct gsp_star_s *gsp_star;

/* Fill-reducing orderings of the symbolic analysis. */
typedef enum {
  GSP_ORDERING_AUTO = 0, /* METIS from 256 vertices, AMD below */
  GSP_ORDERING_METIS,    /* METIS nested dissection */
  GSP_ORDERING_AMD       /* approximate minimum degree (CHOLMOD's AMD) */
} gsp_ordering;

/* Options of gsp_star_factor. NULL means all defaults (zero). */
typedef struct {
  gsp_ordering ordering;
} gsp_star_opts;

/* What a factorization holds and cost (gsp_star_report_get). */
typedef struct {
  gsp_index n;   /* vertices */
  gsp_type type; /* of the values (the factored matrix's) */
  gsp_semiring semiring;
  const char *ordering;    /* "METIS" or "AMD" */
  gsp_index supernodes;    /* supernodes of the factor */
  gsp_index factor_values; /* values stored (diagonal blocks and panels) */
  gsp_index max_supernode; /* columns of the widest supernode */
  double factor_ops;       /* semiring multiply-adds of the factorization */
  double solve_ops;        /* of one row or column of A* */
  double analyze_s;        /* seconds of the symbolic analysis */
  double factor_s;         /* of the last numeric factorization */
} gsp_star_report;

/*
 * *F = the factorization of the square matrix A over semiring s, for the
 * star A* = I + A + A^2 + ... (reflexive: the diagonal is the semiring
 * one unless a cycle makes it better). s is one of MIN_PLUS, MAX_PLUS,
 * MAX_MIN, MIN_MAX with a numeric A, or OR_AND with a GSP_BOOL A. A is
 * read, not kept: the factorization owns its copies.
 * Errors: GSP_NULL_POINTER, GSP_INVALID_OBJECT, GSP_DIMENSION_MISMATCH
 * (A not square), GSP_DOMAIN_MISMATCH (s and A's type do not fit, or
 * PLUS_TIMES), GSP_INVALID_VALUE (a NaN weight, bad options),
 * GSP_NEGATIVE_CYCLE (MIN_PLUS: a negative cycle, its vertices named in
 * gsp_last_error(); MAX_PLUS: a positive one, a vertex on it named),
 * GSP_TOO_LARGE (beyond METIS's 32-bit indices), GSP_OUT_OF_MEMORY. On
 * error *F is untouched.
 */
gsp_info gsp_star_factor(gsp_star *F, const gsp_matrix A, gsp_semiring s, const gsp_star_opts *opts);

/*
 * The same factorization with the weights of A, which must have F's
 * pattern (the same arcs; values may change, explicit entries stay
 * entries): the symbolic analysis is reused, only the numeric part runs.
 * GSP_INVALID_VALUE when the pattern or type differs. On error F is left
 * as it was.
 */
gsp_info gsp_star_refactor(gsp_star F, const gsp_matrix A);

/*
 * *R = a new dense nv x n matrix of A's type: row k is row v[k] of A*
 * (from v[k] to every vertex); absent where there is no path. Repeats
 * allowed; v == NULL with nv == n gives every row (all pairs). Errors:
 * GSP_NULL_POINTER, GSP_INVALID_OBJECT, GSP_INVALID_INDEX (v[k] >= n),
 * GSP_TOO_LARGE, GSP_OUT_OF_MEMORY.
 */
gsp_info gsp_star_rows(gsp_matrix *R, const gsp_star F, const gsp_index *v, gsp_index nv);

/* As gsp_star_rows for columns: row k of *C is column v[k] of A* (from
 * every vertex to v[k]). */
gsp_info gsp_star_cols(gsp_matrix *C, const gsp_star F, const gsp_index *v, gsp_index nv);

/* *rep = what F holds and what it cost. */
gsp_info gsp_star_report_get(gsp_star_report *rep, const gsp_star F);

/* Free a factorization (NULL-safe; *F = NULL). */
gsp_info gsp_star_free(gsp_star *F);

/* ---------------------------------------------------------------------- */
/* Paths                                                                  */
/* ---------------------------------------------------------------------- */

/* Walkers of the path records above. Each writes the vertex sequence of one
 * path to path[]: *len is the capacity on input and the vertex count on
 * output; GSP_INSUFFICIENT_SPACE (path untouched, *len = needed) if too
 * small (a buffer of n vertices always suffices); GSP_NO_VALUE if there is
 * no path. */

/*
 * From a successor matrix (gsp_closure_ext): path[0] = src,
 * path[len-1] = dst. src == dst gives the one-vertex path.
 */
gsp_info gsp_path_from_succ(gsp_index *path, gsp_index *len, const gsp_matrix succ, gsp_index src, gsp_index dst);

/*
 * From a parent vector (gsp_sssp, gsp_nearest_source, gsp_bellman_ford):
 * path[0] = the root (its own parent), path[len-1] = dst. GSP_NO_VALUE if
 * dst has no parent (unreachable). The walk is bounded by n steps: a cycle,
 * a hole or an index out of range gives GSP_INVALID_VALUE. parent must be
 * GSP_INT64 or GSP_INT32 (else GSP_DOMAIN_MISMATCH).
 */
gsp_info gsp_path_from_parent(gsp_index *path, gsp_index *len, const gsp_vector parent, gsp_index dst);

/* As gsp_path_from_parent, on row `row` of a parent matrix (gsp_msssp,
 * gsp_apsp); GSP_INVALID_INDEX when row or dst is out of range. */
gsp_info gsp_path_from_parent_row(gsp_index *path, gsp_index *len, const gsp_matrix parent, gsp_index row,
                                  gsp_index dst);

/* ---------------------------------------------------------------------- */
/* I/O and generators                                                      */
/* ---------------------------------------------------------------------- */

/* Graph and matrix file formats. Any of them may be gzip-compressed: a
 * reader decompresses transparently, a writer compresses when the path ends
 * in ".gz". Formats are described in docs/formats.md. */
typedef enum {
  GSP_FILE_AUTO = 0, /* reader: by extension (.mtx .gr .npy .gspd, anything
                         else is an edge list), else by content; writer: by
                         extension, Matrix Market if unknown */
  GSP_FILE_MTX,      /* Matrix Market, coordinate or array */
  GSP_FILE_DIMACS,   /* DIMACS shortest-path challenge .gr ("p sp n m",
                         "a u v w"), 1-based */
  GSP_FILE_EDGELIST, /* SNAP-style "u v [w]" lines, '#' or '%' comments */
  GSP_FILE_DENSE,    /* gsp binary dense matrix (.gspd): 64-byte header
                         (magic "GSPDENSE", version, type, nrows, ncols,
                         absent value), then row-major values */
  GSP_FILE_NPY       /* NumPy .npy, 2-D C order (np.load reads it) */
} gsp_file_format;

/* How vertex ids in an edge list map to indices. */
typedef enum {
  GSP_IDS_ZERO_BASED = 0, /* id k is vertex k; n = largest id + 1 */
  GSP_IDS_ONE_BASED,      /* id k is vertex k-1; id 0 is an error */
  GSP_IDS_REMAP           /* any non-negative 64-bit ids; numbered 0, 1, ...
                             in order of first appearance */
} gsp_id_mode;

/* Options of gsp_matrix_read. NULL or all-zero means the defaults. */
typedef struct {
  gsp_file_format format; /* GSP_FILE_AUTO: detect */
  /* Result type. Default (use_type false): GSP_BOOL for pattern files and
   * unweighted edge lists, GSP_INT64 when every weight is an integer,
   * GSP_FP64 otherwise. A weight that the chosen type cannot hold is a
   * parse error naming the line and the value (2.5 or 3e10 as GSP_INT32). */
  bool use_type;
  gsp_type type;
  /* Duplicate (i, j) entries. Default (use_dup false): GSP_DUP_MIN, the
   * lightest of parallel edges, which is what shortest paths need (for
   * GSP_BOOL all duplicates are true anyway). GSP_DUP_ERROR fails with
   * GSP_DUPLICATE_ENTRY naming the (row, column). FIRST / LAST follow file
   * order (and need about twice the memory while building). */
  bool use_dup;
  gsp_dup dup;
  gsp_id_mode ids; /* edge lists only (Matrix Market and DIMACS are
                        1-based by definition) */
  /* Text formats only (the dense binary formats are read as stored): */
  bool symmetrize;      /* also add (j, i) for every (i, j): undirected graph */
  bool drop_self_loops; /* leave out (i, i) entries */
  gsp_index nvertices;  /* edge lists: vertex count; 0 = from the ids. An id
                           beyond it is an error */
  /* Called now and then with the fraction of the input read (0..1), e.g.
   * for a progress bar. NULL: none. */
  void (*progress)(double fraction, void *ctx);
  void *progress_ctx;
  /* Values are never changed silently. By default (round false): a weight
   * written as an integer must be stored exactly (16777217 is refused as
   * GSP_FP32, 2^53+1 as GSP_FP64); a weight written as a real (with '.' or
   * an exponent) is stored as the nearest value of the type, as any binary
   * format must store 0.1, but is refused when it overflows the type or
   * underflows (is nonzero and below the smallest normal number: 1e-400,
   * or 1e-40 as GSP_FP32); a real is refused for an integer type unless it
   * is an integer. The same holds for dense inputs converted to `type`.
   * round true accepts the nearest value instead (reals to integer types
   * round half to even); values beyond the type's range stay errors. */
  bool round;
  /* Dense inputs (.npy, .gspd): the stored value that means "no arc"
   * (use_absent true; NaN, +-inf and 0 are all allowed; for integer dtypes
   * it must be an integer of the dtype). Default: a .gspd file's own absent
   * value; for .npy the writer's defaults (+inf, INT32_MAX / INT64_MAX,
   * false), and a numeric .npy with a 0 off the diagonal is refused as
   * ambiguous (numpy and networkx write 0 for "no edge"), naming the
   * option to pass. */
  bool use_absent;
  double absent;
} gsp_read_opts;

/*
 * *A = a new matrix read from the file at path (plain or gzip, detected by
 * its magic bytes; "-" is stdin). The input is opened once and read once,
 * so a pipe or FIFO gives the same matrix as a regular file. Errors:
 * GSP_IO_ERROR (cannot open or read), GSP_PARSE_ERROR (malformed content;
 * gsp_last_error() names the file, line and problem, e.g. "graph.mtx line
 * 17: column 0 out of range 1..100"), GSP_DUPLICATE_ENTRY (with
 * GSP_DUP_ERROR), GSP_TOO_LARGE, GSP_OUT_OF_MEMORY. NaN and infinite weights
 * are rejected. Lines may end in LF or CRLF. On error *A is untouched.
 * Matrix Market symmetric files are expanded to both triangles, skew-
 * symmetric ones with negated mirror entries; array files give an entry for
 * every stored value. Edge lists and DIMACS graphs are square.
 */
gsp_info gsp_matrix_read(gsp_matrix *A, const char *path, const gsp_read_opts *opts);

/*
 * As gsp_matrix_read, and when ids != NULL also *ids = a new array of
 * *nids original vertex ids (entry k is the id in the file of vertex k),
 * released with free(). Most useful with GSP_IDS_REMAP (where *nids counts
 * the distinct ids, which may be fewer than an explicit nvertices); for
 * other modes it is the identity (plus one for 1-based files).
 */
gsp_info gsp_matrix_read_ids(gsp_matrix *A, int64_t **ids, gsp_index *nids, const char *path,
                             const gsp_read_opts *opts);

/*
 * DIMACS auxiliary files of the shortest-path challenge. A source file
 * (.ss: "p aux sp ss k", then k lines "s v") gives *sources = k 0-based
 * vertices; a pair file (.p2p: "p aux sp p2p k", then "q u v") gives *src
 * and *dst. Arrays are released with free(). Vertices are checked against
 * n (pass 0 to skip the check). Errors as for gsp_matrix_read, and
 * GSP_INVALID_VALUE for an auxiliary file of the other kind (a pair file
 * given to gsp_dimacs_read_sources, a source file to _pairs), so a caller
 * that takes either tries the other reader on that code.
 */
gsp_info gsp_dimacs_read_sources(gsp_index **sources, gsp_index *k, gsp_index n, const char *path);
gsp_info gsp_dimacs_read_pairs(gsp_index **src, gsp_index **dst, gsp_index *k, gsp_index n, const char *path);

/* Options of gsp_matrix_write. NULL or all-zero means the defaults. */
typedef struct {
  gsp_file_format format; /* GSP_FILE_AUTO: by extension */
  /* Dense formats (GSP_FILE_DENSE, GSP_FILE_NPY): the value stored for an
   * absent entry, one value of A's type. NULL: +inf for floats, INT32_MAX /
   * INT64_MAX for integers, false for bool (the "no path" of MIN_PLUS). */
  const void *absent;
  const char *comment; /* one comment line for text formats; NULL: none */
} gsp_write_opts;

/*
 * Write A to path (gzip-compressed when the path ends in ".gz"): Matrix
 * Market coordinate ("pattern" for GSP_BOOL, "integer", "real" with
 * round-trip precision), DIMACS .gr (square; the header counts arcs), edge
 * list (0-based "u v w", no weight for GSP_BOOL), gsp binary dense or NumPy
 * .npy (dtype bool, int32, int64, float32 or float64). All or nothing: the
 * file is written to a new temporary (created with O_EXCL) in the same
 * directory, synced and renamed over path, so an error never leaves a
 * partial file and never changes an existing one; concurrent writers of one
 * path each replace it whole. A symbolic link is followed (the link stays,
 * its target gets the data); an existing file keeps its permission bits, a
 * new one gets 0666 less the umask. A character device, FIFO or socket is
 * written through (not replaced), and "-" writes to standard output. The
 * library installs no signal handler: a temporary is removed on every
 * error, not when the process is killed. Errors: GSP_IO_ERROR (also for a
 * path that cannot be written: missing directory, a directory, no
 * permission), GSP_INVALID_VALUE (e.g. DIMACS of a non-square matrix),
 * GSP_OUT_OF_MEMORY.
 */
gsp_info gsp_matrix_write(const char *path, const gsp_matrix A, const gsp_write_opts *opts);

/*
 * Generators. All are deterministic functions of their arguments (the same
 * seed gives the same matrix on every machine and thread count). Weights are
 * integers drawn uniformly from [wmin, wmax] (wmin <= wmax; negative allowed),
 * stored in type t (GSP_BOOL: all true, weights ignored). No self-loops, no
 * duplicate entries. Errors: GSP_INVALID_VALUE for impossible arguments,
 * GSP_TOO_LARGE beyond GSP_INDEX_MAX vertices.
 */

/* n vertices, exactly m distinct random arcs (m <= n(n-1)), as in the DIMACS
 * challenge's random graphs. */
gsp_info gsp_generate_random(gsp_matrix *A, gsp_type t, gsp_index n, gsp_index m, int64_t wmin, int64_t wmax,
                             uint64_t seed);

/* R-MAT / Kronecker graph: 2^scale vertices, edgefactor * 2^scale arcs drawn
 * with quadrant probabilities a, b, c (d = 1-a-b-c); a = b = c = 0 selects
 * Graph500's 0.57, 0.19, 0.19. Vertex labels are randomly permuted (as in
 * Graph500); self-loops dropped, duplicates collapse to the lightest arc,
 * so the arc count is somewhat below edgefactor * 2^scale. */
gsp_info gsp_generate_rmat(gsp_matrix *A, gsp_type t, int scale, gsp_index edgefactor, double a, double b, double c,
                           int64_t wmin, int64_t wmax, uint64_t seed);

/* Road-like rows x cols grid: vertex r*cols + c joined to its 4 neighbours
 * in both directions with the same random weight each way. */
gsp_info gsp_generate_grid(gsp_matrix *A, gsp_type t, gsp_index rows, gsp_index cols, int64_t wmin, int64_t wmax,
                           uint64_t seed);

/* Ring i -> (i+1) mod n, and also (i+1) mod n -> i when undirected (n >= 2;
 * n == 2 undirected gives the two arcs once). */
gsp_info gsp_generate_ring(gsp_matrix *A, gsp_type t, gsp_index n, bool undirected, int64_t wmin, int64_t wmax,
                           uint64_t seed);

/* Complete directed graph: every arc i -> j, i != j. */
gsp_info gsp_generate_complete(gsp_matrix *A, gsp_type t, gsp_index n, int64_t wmin, int64_t wmax, uint64_t seed);

/* Random DAG: exactly m distinct arcs i -> j with i < j (vertex order is a
 * topological order), m <= n(n-1)/2. */
gsp_info gsp_generate_dag(gsp_matrix *A, gsp_type t, gsp_index n, gsp_index m, int64_t wmin, int64_t wmax,
                          uint64_t seed);

/* ====================================================================== */
/* ADVANCED API: may change in any release                                */
/* (define GSP_ADVANCED_API before including gsp.h to see it)             */
/* ====================================================================== */
#if defined(GSP_ADVANCED_API) || defined(GSP_BUILDING_LIBRARY)

/* ---------------------------------------------------------------------- */
/* Devices                                                                */
/* ---------------------------------------------------------------------- */

/* Number of CUDA devices gsp can use (Hopper, sm_90; 0 without the CUDA
 * backend). gsp_closure_advanced.gpus and GSP_GPUS may ask for up to this many. */
gsp_info gsp_cuda_device_count(int *count);

/* The burble (as GraphBLAS's): when on, operations print one line to stderr
 * per decision they take (backend, the closure's path: CPU, one GPU
 * resident or out of core with its page plan, several GPUs) and per phase
 * they time. Initially on when the environment has GSP_BURBLE=1. */
gsp_info gsp_set_burble(bool on);

/* ---------------------------------------------------------------------- */
/* Reports: where a call ran                                              */
/* ---------------------------------------------------------------------- */

/* Where a call computed its result, filled on success when its advanced
 * options ask for it (gsp_closure_advanced, gsp_sssp_advanced,
 * gsp_bf_advanced; gsp_apsp reports this and more in gsp_apsp_report). */
typedef struct {
  gsp_backend backend; /* GSP_BACKEND_CPU or GSP_BACKEND_CUDA, never AUTO */
  int gpus;            /* GPUs that computed it: 0 on the CPU */
} gsp_run_report;

/* ---------------------------------------------------------------------- */
/* Closure: memory, GPU and progress options                              */
/* ---------------------------------------------------------------------- */

/* Advanced options of gsp_closure_ext (gsp_closure_opts.advanced).
 * All-zero means the defaults. */
struct gsp_closure_advanced {
  /* Bytes of device memory the closure may use on each GPU; 0: the free
   * memory. A matrix over the cap is closed out of core: it stays in host
   * memory and streams through the GPU in pages of rows
   * (docs/distributed.md); a cap too small even for that gives
   * GSP_DEVICE_OUT_OF_MEMORY. Successor recording and OR_AND are not done
   * out of core: over the cap they run on the CPU. */
  size_t device_memory_cap;
  /* GPUs to use. 0: automatic (GSP_GPUS from the environment, else every
   * usable GPU for a numeric closure large enough to gain from them when
   * the multi-GPU path is built, else 1); N > 1: a 2D block distribution
   * over N GPUs with NCCL; more than gsp_cuda_device_count gives
   * GSP_NO_DEVICE. Successors and OR_AND always run on one GPU. */
  int gpus;
  /* Called with the fraction done (0..1, non-decreasing, 1 last on
   * success), e.g. for a progress bar: by Floyd-Warshall after rounds of
   * its k-blocks (on the GPU every few rounds, at most about 16 times), by
   * the sparse star after each batch of its elimination. From the calling
   * thread. NULL: none. */
  void (*progress)(double fraction, void *ctx);
  void *progress_ctx;
  /* When not NULL, filled on success: the CPU for the sparse star and the
   * CPU kernels, CUDA with the GPUs that ran Floyd-Warshall. */
  gsp_run_report *report;
};

/* ---------------------------------------------------------------------- */
/* All-pairs: row callbacks, report, memory and GPU options               */
/* ---------------------------------------------------------------------- */

/*
 * Row-block callback: rows first_row .. first_row + nrows - 1 of the result
 * (row k belongs to source k of the request). dist holds nrows x n values of
 * the output type, row-major, with "no path" (and beyond the cutoff) as +inf
 * for floats and INT32_MAX / INT64_MAX for integers; parent holds nrows x n
 * parents (-1: no path), or is NULL when parents are not recorded. Both are
 * valid during the call only. Return 0 to go on; anything else stops
 * gsp_apsp, which then returns GSP_ABORTED.
 */
typedef int (*gsp_apsp_rows_fn)(void *ctx, gsp_index first_row, gsp_index nrows, const void *dist,
                                const int64_t *parent);

/* What a gsp_apsp call did (or, with dry_run, would do). */
typedef struct {
  gsp_apsp_algo algo;   /* the algorithm that ran (never AUTO) */
  gsp_backend backend;  /* where its main phase ran: CPU or CUDA */
  gsp_index row_block;  /* rows per block */
  gsp_index row_blocks; /* blocks (1: the whole result at once) */
  /* The cost model's predicted seconds, indexed by gsp_apsp_algo (entry 0
   * unused); +inf where the algorithm cannot run (MSSSP on negative
   * weights). AUTO never picks Floyd-Warshall for a result that goes out
   * in row blocks, whatever its prediction. */
  double predicted_seconds[GSP_APSP_ALGOS];
  /* Where the time went (seconds, host clock): checks and preparation of
   * the graph; the computation with the result rows arriving on the host
   * (for the GPU the kernels, their uploads and the copies back, which
   * overlap); building the result matrices. Of compute_s, device_s is the
   * GPU kernels alone and copy_s the device-to-host copies (overlapped with
   * the kernels), 0 on the CPU. */
  double prepare_s, compute_s, finish_s, device_s, copy_s;
} gsp_apsp_report;

/* Advanced options of gsp_apsp (gsp_apsp_opts.advanced). All-zero means
 * the defaults. */
struct gsp_apsp_advanced {
  gsp_apsp_rows_fn rows; /* when set, result rows go to rows(rows_ctx,
                               ...) block by block and no result matrix is
                               built (*dist and *parent are set to NULL) */
  void *rows_ctx;
  void *rows_out;           /* with rows: an array of nsources x n values of
                               the output type, row-major, that the rows are
                               computed straight into where the algorithm
                               allows (copied into otherwise); each
                               callback's dist then points into it (the
                               whole result: AUTO may pick Floyd-Warshall
                               as for a result matrix). NULL: gsp's own
                               staging */
  gsp_index row_block;      /* rows per block; 0: chosen from the memory */
  size_t device_memory_cap; /* bytes gsp may take on the GPU; 0: what is
                               free. Results larger than this are computed
                               in row blocks (never by Floyd-Warshall). */
  size_t host_memory_cap;   /* bytes of host memory a row block (its
                               staging for a callback or a type
                               conversion) may take; 0: a share of what the
                               process can still allocate (available
                               memory, RLIMIT_AS, RLIMIT_DATA) */
  int gpus;                 /* Floyd-Warshall on this many GPUs, as
                               gsp_closure_advanced.gpus; 0: automatic */
  bool dry_run;             /* only choose and fill *report; no result */
  gsp_apsp_report *report;  /* when not NULL, filled on success */
  /* Called after each part of the computation with the fraction done
   * (0..1), e.g. for a progress bar; a long all-pairs run is then done in
   * several parts (about 1% slower on a GPU). NULL: none. */
  void (*progress)(double fraction, void *ctx);
  void *progress_ctx;
};

/* ---------------------------------------------------------------------- */
/* Files: all-or-nothing outputs written as they are computed, memory     */
/* ---------------------------------------------------------------------- */

/*
 * An output file written all or nothing, as gsp_matrix_write writes its
 * files, for a program that opens its outputs before it computes (a path
 * that cannot be written is refused before any work) or streams a result
 * as it arrives (a gsp_apsp row callback): a regular file is written to a
 * temporary beside it (O_EXCL), synced and renamed over it only by
 * gsp_output_commit; "-" (standard output), character devices, FIFOs and
 * sockets are written through. Symbolic links and permission bits as for
 * gsp_matrix_write.
 */
typedef struct gsp_output_s *gsp_output;

/* *out = the output `path`. GSP_IO_ERROR (naming the path and the reason:
 * missing or read-only directory, a directory, no permission) creates
 * nothing. */
gsp_info gsp_output_open(gsp_output *out, const char *path);
/* *stream = the output's stream to write to (the same one every call;
 * closed by finish, commit and abort). */
gsp_info gsp_output_stream(FILE **stream, gsp_output out);
/* Write the header of a NumPy .npy array (version 1.0, C order, dtype of
 * t, shape nrows x ncols) to the output's stream; the caller then writes
 * the nrows x ncols values, row-major, as gsp_matrix_write would. */
gsp_info gsp_output_npy_header(gsp_output out, gsp_type t, gsp_index nrows, gsp_index ncols);
/* Complete the data (flush, fsync, close), naming a write error's reason
 * (ENOSPC, EFBIG) with GSP_IO_ERROR, the temporary then removed. The
 * target is replaced only by gsp_output_commit: a program with several
 * outputs finishes each, then commits them all. */
gsp_info gsp_output_finish(gsp_output out);
/* Finish (when not yet done) and rename the temporary over the target;
 * *out is released and set to NULL either way. */
gsp_info gsp_output_commit(gsp_output *out);
/* Give up: the temporary removed, the target untouched; *out released and
 * set to NULL (NULL or an already released output: nothing). */
void gsp_output_abort(gsp_output *out);
/* Remove every temporary of this process not yet committed: only unlink,
 * so async-signal-safe, for a program's SIGINT / SIGTERM handler (the
 * library installs none). */
void gsp_output_remove_temporaries(void);
/* gsp_matrix_write into an output opened earlier (its path as given picks
 * the format and compression); the output is finished on success and its
 * temporary removed on error (commit or abort it either way). */
gsp_info gsp_matrix_write_output(gsp_output out, const gsp_matrix A, const gsp_write_opts *opts);

/* *bytes = the host memory this process can still allocate: the least of
 * what the system reports available and the room under the address-space
 * and data limits (RLIMIT_AS, RLIMIT_DATA), as gsp_apsp's
 * host_memory_cap default reads it; SIZE_MAX when nothing bounds it. */
gsp_info gsp_host_memory_available(size_t *bytes);

/* ---------------------------------------------------------------------- */
/* Device views                                                           */
/* ---------------------------------------------------------------------- */

/*
 * The dense device copy of A, for handing a result to another GPU library
 * (CuPy, PyTorch, ... through DLPack) without copying it.
 *
 * On success *data points at an n x n row-major array of A's type in the
 * memory of CUDA device *device, with a row stride of *ld >= n elements:
 * entry (i, j) is ((T *)*data)[i * *ld + j]. The copy is padded (a DLPack
 * consumer is given shape (n, n) and strides (*ld, 1)); what lies beyond
 * column n - 1 of a row is not part of A. Absent entries hold the zero of
 * the semiring absent_as, its "no path":
 *   MIN_PLUS, MIN_MAX   +inf (FP32, FP64), INT32_MAX, INT64_MAX
 *   MAX_PLUS, MAX_MIN   -inf (FP32, FP64), INT32_MIN, INT64_MIN
 * so a MIN_PLUS closure reads as distances with +inf for "no path". A
 * present entry equal to that value reads as absent.
 *
 * Which copy: a closure on the GPU (gsp_closure / gsp_closure_ext, CUDA
 * backend, in core) leaves its result in device memory, encoded with its
 * semiring's zero; the view returns that copy, with no transfer, when
 * absent_as has the same zero. Otherwise A's content is uploaded to the
 * current CUDA device into a new device copy that A keeps (later GPU calls
 * on A reuse it); a device-only result encoded with the other zero is
 * downloaded first. All device work on the copy has completed when the
 * call returns, so a consumer may read it on any stream.
 *
 * Lifetime: the memory is A's; read it, never write or free it. *data
 * stays valid until A is freed or passed to any gsp call other than
 * gsp_matrix_nrows, gsp_matrix_ncols, gsp_matrix_nvals, gsp_matrix_type and
 * gsp_matrix_device_view with an absent_as of the same zero: any other call
 * on A, also one that only reads it, may convert A's storage and release or
 * overwrite the device copy.
 *
 * A 0 x 0 matrix gives *data = NULL, *ld = 0 and the current device. Types:
 * INT32, INT64, FP32, FP64. GSP_BOOL matrices are bit-packed on the device
 * (64 entries a word), which DLPack cannot describe: GSP_DOMAIN_MISMATCH.
 *
 * Errors: GSP_NULL_POINTER, GSP_INVALID_OBJECT (A), GSP_INVALID_VALUE
 * (absent_as not a semiring code), GSP_DOMAIN_MISMATCH (A is GSP_BOOL;
 * absent_as OR_AND or PLUS_TIMES), GSP_DIMENSION_MISMATCH (A not square:
 * device copies are square), GSP_NO_DEVICE (a build without the CUDA
 * backend, or no usable GPU; the message says why),
 * GSP_DEVICE_OUT_OF_MEMORY, GSP_DEVICE_ERROR, GSP_OUT_OF_MEMORY. On error
 * the outputs are untouched and A's content is unchanged.
 */
gsp_info gsp_matrix_device_view(void **data, gsp_index *ld, int *device, gsp_matrix A, gsp_semiring absent_as);

/* ---------------------------------------------------------------------- */
/* Searches: where they ran                                               */
/* ---------------------------------------------------------------------- */

/* Advanced options of gsp_sssp and gsp_nearest_source
 * (gsp_sssp_opts.advanced). All-zero means the defaults. */
struct gsp_sssp_advanced {
  gsp_run_report *report; /* when not NULL, filled on success */
};

/* Advanced options of gsp_bellman_ford and gsp_negative_cycle
 * (gsp_bf_opts.advanced). All-zero means the defaults. */
struct gsp_bf_advanced {
  gsp_run_report *report; /* when not NULL, filled when the call answers: on success (and by
                             gsp_negative_cycle also with GSP_NO_VALUE) */
};

#endif /* GSP_ADVANCED_API */

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif /* GSP_H */
