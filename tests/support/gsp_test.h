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
#define GSP_OK(call)                                                           \
  do {                                                                         \
    gsp_info ok_info_ = (call);                                                \
    cr_assert_eq(ok_info_, GSP_SUCCESS, "%s -> %s: %s", #call,                 \
                 gsp_strerror(ok_info_), gsp_last_error());                    \
  } while (0)
#define GRB_OK(call)                                                           \
  do {                                                                         \
    GrB_Info grb_info_ = (call);                                               \
    cr_assert_eq(grb_info_, GrB_SUCCESS, "%s -> %d", #call, (int)grb_info_);   \
  } while (0)

/* Deterministic PRNG (splitmix64) so failures are reproducible. */
uint64_t gsp_test_rand(uint64_t *state);
double gsp_test_uniform(uint64_t *state); /* [0, 1) */

/* Random nrows x ncols matrix of type t with about density*nrows*ncols
 * entries. Values are integers in [lo, hi] (exact in every type; bool: true
 * or false at random, both present). */
gsp_matrix gsp_test_random_matrix(gsp_type t, gsp_index nrows, gsp_index ncols,
                                  double density, int64_t lo, int64_t hi,
                                  uint64_t seed);
gsp_vector gsp_test_random_vector(gsp_type t, gsp_index n, double density,
                                  int64_t lo, int64_t hi, uint64_t seed);

/* GraphBLAS type, min/max/plus operators and semirings matching gsp's. */
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

#endif /* GSP_TEST_H */
