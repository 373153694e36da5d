/* A Criterion suite whose one test loses a matrix: with GSP_TEST_LEAKS=1
 * the check (gsp_test_leaks.c) must fail it (ctest WILL_FAIL); with the
 * check off it passes, so the failure is the check's doing. */
#include <criterion/criterion.h>

#include "gsp.h"

Test(leak_probe, loses_a_matrix) {
  gsp_matrix A = NULL, B = NULL;
  cr_assert_eq(gsp_matrix_new(&A, GSP_INT32, 3, 4), GSP_SUCCESS);
  cr_assert_eq(gsp_matrix_new(&B, GSP_FP64, 2, 2), GSP_SUCCESS);
  gsp_matrix_free(&B);
}
