/*
 * Test support shared by the Criterion suites: random inputs, conversion to
 * and from SuiteSparse:GraphBLAS (the oracle), comparisons, and slow simple
 * reference checkers. Failures inside these helpers are Criterion asserts.
 */
#ifndef GSP_TEST_H
#define GSP_TEST_H

#include <GraphBLAS.h>
#include <stdbool.h>
#include <stdint.h>

#include "gsp.h"

/* Assert that a gsp call succeeded, printing gsp_last_error() otherwise. */
/* Skip the calling test when no usable GPU is present (CUDA is first
 * touched here, inside the test's own process). */
#define GSP_TEST_GPU_OR_SKIP()                                         \
  do {                                                                 \
    bool gsp_ok_ = false;                                              \
    char gsp_desc_[256] = "";                                          \
    GSP_OK(gsp_cuda_available(&gsp_ok_, gsp_desc_, sizeof gsp_desc_)); \
    if (!gsp_ok_) cr_skip_test("no usable GPU: %s", gsp_desc_);        \
  } while (0)

#define GSP_OK(call)                                                                                      \
  do {                                                                                                    \
    gsp_info ok_info_ = (call);                                                                           \
    cr_assert_eq(ok_info_, GSP_SUCCESS, "%s -> %s: %s", #call, gsp_strerror(ok_info_), gsp_last_error()); \
  } while (0)
#define GRB_OK(call)                                                         \
  do {                                                                       \
    GrB_Info grb_info_ = (call);                                             \
    cr_assert_eq(grb_info_, GrB_SUCCESS, "%s -> %d", #call, (int)grb_info_); \
  } while (0)

/* Deterministic PRNG (splitmix64) so failures are reproducible. */
uint64_t gsp_test_rand(uint64_t *state);
double gsp_test_uniform(uint64_t *state); /* [0, 1) */

/* Random nrows x ncols matrix of type t with about density*nrows*ncols
 * entries. Values are integers in [lo, hi] (exact in every type; bool: true
 * or false at random, both present). */
gsp_matrix gsp_test_random_matrix(gsp_type t, gsp_index nrows, gsp_index ncols, double density, int64_t lo, int64_t hi,
                                  uint64_t seed);
gsp_vector gsp_test_random_vector(gsp_type t, gsp_index n, double density, int64_t lo, int64_t hi, uint64_t seed);

/* Every vertex of the square matrix A as a source list 0..n-1 (malloc()ed,
 * release with free()); *n = the vertex count. gsp_msssp takes explicit
 * sources only (all pairs go through gsp_apsp). */
gsp_index *gsp_test_all_sources(gsp_matrix A, gsp_index *n);

/* GraphBLAS type, min/max/plus operators and semirings matching gsp's.
 * Caveat: GraphBLAS's integer MIN_PLUS / MAX_PLUS semirings wrap on
 * overflow and treat INT_MAX as an ordinary number, while gsp's saturate
 * with INT_MAX (INT_MIN) as infinity. Oracle tests therefore use value
 * ranges where sums never reach the extremes (|values| small); the
 * saturating behaviour itself is tested against explicit expectations. */
GrB_Type gsp_test_grb_type(gsp_type t);
GrB_Semiring gsp_test_grb_semiring(gsp_semiring s, gsp_type t);
GrB_BinaryOp gsp_test_grb_binop(gsp_binop op, gsp_type t); /* NULL for NOOP */
GrB_Monoid gsp_test_grb_monoid(gsp_binop op, gsp_type t);

/* Conversions (entries and values copied exactly). */
GrB_Matrix gsp_test_to_grb_matrix(gsp_matrix A);
GrB_Vector gsp_test_to_grb_vector(gsp_vector v);

/* Assert same dimensions, same structure, and values equal within tol
 * (tol = 0: exact; relative for floats otherwise). */
void gsp_test_assert_matrix_eq(gsp_matrix A, GrB_Matrix G, double tol);
void gsp_test_assert_vector_eq(gsp_vector v, GrB_Vector G, double tol);
void gsp_test_assert_matrix_same(gsp_matrix A, gsp_matrix B, double tol);

/* Start GraphBLAS once per test process (GrB_init in non-blocking mode). */
void gsp_test_grb_init(void);

/* ---- added for the operation suites ---- */

/* What the current check is doing ("mxm MIN_PLUS INT32 7x5x9 ..."):
 * comparison failures print it first. */
extern char gsp_test_ctx[256];
void gsp_test_context(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Every type and semiring, for loops over the X-macro-defined instances. */
#define GSP_TEST_NTYPES     5
#define GSP_TEST_NSEMIRINGS 6
extern const gsp_type gsp_test_types[GSP_TEST_NTYPES];
extern const gsp_semiring gsp_test_semirings[GSP_TEST_NSEMIRINGS];
bool gsp_test_fits(gsp_semiring s, gsp_type t); /* OR_AND: bool; else numeric */
const char *gsp_test_type_name(gsp_type t);
const char *gsp_test_semiring_name(gsp_semiring s);
const char *gsp_test_binop_name(gsp_binop op);
/* Comparison tolerance of a semiring result: 0 (exact) except float
 * PLUS_TIMES, where the summation order may differ from GraphBLAS's:
 * relative 1e-5 (FP32) / 1e-12 (FP64). */
double gsp_test_tol(gsp_semiring s, gsp_type t);

/* Output configurations C<M,replace> = accum(C, T) to sweep: mask kind
 * (0 none, 1 value, 2 structure) x complement x replace x accumulator. */
#define GSP_TEST_NCONFIG 24
typedef struct {
  int mask;
  bool comp, replace, accum;
} gsp_test_config;
gsp_test_config gsp_test_config_get(int k);
const char *gsp_test_config_name(gsp_test_config c); /* static buffer */
gsp_desc gsp_test_desc(gsp_test_config c, bool transpose_a, bool transpose_b);
/* GraphBLAS descriptor matching d (NULL when d is NULL); GrB_free it. */
GrB_Descriptor gsp_test_grb_desc(const gsp_desc *d);

/* A 1 x n GraphBLAS matrix holding v (vector select: GraphBLAS treats a
 * vector as a column, gsp's index operators as a row). */
GrB_Matrix gsp_test_vector_to_grb_row(gsp_vector v);
void gsp_test_assert_vector_eq_row(gsp_vector v, GrB_Matrix G, double tol);
void gsp_test_assert_vector_same(gsp_vector a, gsp_vector b, double tol);

/* Value range of random operands for semiring s: small integers, so every
 * result is exact and far from the integer extremes (see the caveat on
 * gsp_test_grb_semiring). */
void gsp_test_range(gsp_semiring s, int64_t *lo, int64_t *hi);
/* The k-th accumulator of a rotation over every binary operator. */
gsp_binop gsp_test_accum(int k);
/* Random mask: type rotates with seed (bool, int32, fp64), values 0 or 1
 * so value and structural masks differ. */
gsp_matrix gsp_test_random_mask(gsp_index nrows, gsp_index ncols, double density, uint64_t seed);
gsp_vector gsp_test_random_vmask(gsp_index n, double density, uint64_t seed);

/* Values of type t equal (tol as above; NaN equals NaN, inf equals inf). */
bool gsp_test_value_eq(gsp_type t, const void *a, const void *b, double tol);
/* One value of type t as a double, for messages. */
double gsp_test_value_f64(gsp_type t, const void *x);
/* Store integer v as type t at x (bool: v != 0; int32 saturates). */
void gsp_test_value_set(gsp_type t, void *x, int64_t v);
/* Store v as type t at x: integers saturate (+-inf to the type's largest
 * and smallest), floats keep -0.0 and NaN, bool is v != 0. */
void gsp_test_value_set_f64(gsp_type t, void *x, double v);

/* Entries of folder dir whose name contains ".tmp": the temporaries an
 * all-or-nothing write left behind. */
int gsp_test_temporaries(const char *dir);

#endif /* GSP_TEST_H */
