/* Reachability (transitive closure) on the boolean OR_AND semiring.
 *
 *   example_reachability [GRAPH]
 *
 * Keeps only the structure of the graph, closes it, and reports how many
 * vertices each of the first few vertices reaches, and the graph's
 * strongly connected pairs (i reaches j and j reaches i). */
#include <stdio.h>
#include <stdlib.h>

#include "gsp.h"

#define CHECK(call)                                         \
  do {                                                      \
    gsp_info info_ = (call);                                \
    if (info_ < 0) {                                        \
      fprintf(stderr, "%s: %s\n", #call, gsp_last_error()); \
      exit(1);                                              \
    }                                                       \
  } while (0)

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "data/helsinki_drive.gr.gz";
  gsp_matrix A = NULL, R = NULL, RT = NULL, S = NULL;
  CHECK(gsp_matrix_read(&A, path, NULL));
  CHECK(gsp_matrix_pattern(&R, A));  /* GSP_BOOL: true at every arc */
  CHECK(gsp_closure(R, GSP_OR_AND)); /* R(i,j): j reachable from i */

  /* out-reach of each vertex: row sums of R (PLUS on bool is "or", so
   * count through an int32 cast) */
  gsp_matrix C = NULL;
  gsp_index n;
  CHECK(gsp_matrix_nrows(&n, R));
  CHECK(gsp_matrix_cast(&C, R, GSP_INT32));
  gsp_vector reach = NULL;
  CHECK(gsp_vector_new(&reach, GSP_INT32, n));
  CHECK(gsp_matrix_reduce_vector(reach, NULL, GSP_NOOP, GSP_PLUS, C, NULL));
  for (gsp_index i = 0; i < n && i < 5; i++) {
    int32_t k = 0;
    gsp_vector_extract_element(&k, reach, i);
    printf("vertex %llu reaches %d vertices (itself included)\n", (unsigned long long)i, k);
  }

  /* strongly connected pairs: R and R' both true */
  CHECK(gsp_matrix_transpose(&RT, R));
  CHECK(gsp_matrix_new(&S, GSP_BOOL, n, n));
  CHECK(gsp_matrix_ewise_mult(S, NULL, GSP_NOOP, GSP_LAND, R, RT, NULL));
  gsp_index pairs, scc;
  CHECK(gsp_matrix_nvals(&pairs, R));
  CHECK(gsp_matrix_nvals(&scc, S));
  printf("%llu reachable pairs, %llu of them mutually reachable\n", (unsigned long long)pairs, (unsigned long long)scc);
  gsp_matrix_free(&A);
  gsp_matrix_free(&R);
  gsp_matrix_free(&RT);
  gsp_matrix_free(&S);
  gsp_matrix_free(&C);
  gsp_vector_free(&reach);
  return 0;
}
