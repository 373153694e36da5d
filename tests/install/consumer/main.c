/* A program outside the tree, built against an installed gsp. */
#include <gsp.h>
#include <stdio.h>

int main(void) {
  gsp_matrix A = NULL;
  const gsp_index I[] = {0, 1}, J[] = {1, 2};
  const double X[] = {2.5, 0.5};
  double d = 0;
  bool gpu = false;
  char desc[256] = "";
  if (gsp_cuda_available(&gpu, desc, sizeof desc) || gsp_matrix_new(&A, GSP_FP64, 3, 3) ||
      gsp_matrix_build(A, I, J, X, 2, GSP_DUP_ERROR) || gsp_closure(A, GSP_MIN_PLUS) ||
      gsp_matrix_extract_element(&d, A, 0, 2)) {
    fprintf(stderr, "consumer: %s\n", gsp_last_error());
    return 1;
  }
  gsp_matrix_free(&A);
  printf("CUDA: %s\nd(0,2) = %g\n", desc, d);
  return d == 3.0 ? 0 : 1;
}
