/*
 * Shared by test_hostpath.c (CPU) and test_cuda_hostpath.c (GPU): a
 * closure that fails on the user's input (a NaN weight, a negative cycle)
 * must leave that input as it was.
 */
#ifndef GSP_HOSTPATH_TEST_H
#define GSP_HOSTPATH_TEST_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "gsp_test.h"

/* Import the dense n x n array x of type t (absent value *absent), close it
 * on min-plus with backend b, expect the error code, and expect the
 * export to give x back byte for byte. */
static void expect_failed_closure_keeps_input(gsp_type t, const void *x, const void *absent, int64_t n, gsp_backend b,
                                              gsp_info code) {
  const size_t bytes = (size_t)n * (size_t)n * gsp_type_size(t);
  void *y = malloc(bytes);
  cr_assert_not_null(y);
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_import_dense(&A, t, n, n, x, absent));
  gsp_closure_opts o = {.backend = b};
  cr_assert_eq(gsp_closure_ext(A, NULL, GSP_MIN_PLUS, &o), code, "%s", gsp_last_error());
  GSP_OK(gsp_matrix_export_dense(y, absent, A));
  cr_assert(memcmp(x, y, bytes) == 0, "the failed closure changed its input");
  GSP_OK(gsp_matrix_free(&A));
  free(y);
}

#endif /* GSP_HOSTPATH_TEST_H */
