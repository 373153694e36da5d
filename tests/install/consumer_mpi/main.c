/* An MPI program outside the tree, built against an installed gsp_mpi:
 * rank 0's 3-vertex graph is closed over all ranks. */
#include <gsp_mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  gsp_matrix A = NULL;
  const gsp_index I[] = {0, 1}, J[] = {1, 2};
  const double X[] = {2.5, 0.5};
  double d = 0;
  int bad = 0;
  if (rank == 0 && (gsp_matrix_new(&A, GSP_FP64, 3, 3) || gsp_matrix_build(A, I, J, X, 2, GSP_DUP_ERROR))) bad = 1;
  if (gsp_mpi_closure(A, GSP_MIN_PLUS, MPI_COMM_WORLD, NULL) != GSP_SUCCESS) bad = 1;
  if (rank == 0 && (gsp_matrix_extract_element(&d, A, 0, 2) || d != 3.0)) bad = 1;
  if (bad) fprintf(stderr, "consumer_mpi rank %d: %s\n", rank, gsp_last_error());
  else if (rank == 0) printf("d(0,2) = %g over MPI\n", d);
  gsp_matrix_free(&A);
  MPI_Finalize();
  return bad;
}
