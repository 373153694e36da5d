/* Deliberately leaks one matrix: the live-handle check at exit
 * (gsp_test_leaks.c) must make this program fail (ctest WILL_FAIL). With
 * the check off it exits 0, so the failure is the check's doing. */
#include <stdio.h>

#include "gsp.h"

int main(void) {
  gsp_matrix A = NULL, B = NULL;
  if (gsp_matrix_new(&A, GSP_INT32, 3, 4) != GSP_SUCCESS || gsp_matrix_new(&B, GSP_FP64, 2, 2) != GSP_SUCCESS) return 2;
  gsp_matrix_free(&B); /* freed: not reported */
  A = NULL;            /* lost: reported */
  printf("leaked one 3 x 4 matrix\n");
  return 0;
}
