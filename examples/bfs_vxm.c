/* Breadth-first search from one vertex, GraphBLAS style: the frontier
 * times the adjacency matrix on OR_AND, masked by the complement of the
 * visited set, so each vertex is reached once.
 *
 *   example_bfs_vxm [GRAPH [SOURCE]]        (SOURCE 0-based)
 *
 * Prints the size of each BFS level (the first 8). */
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
  gsp_index src = argc > 2 ? strtoull(argv[2], NULL, 10) : 0;
  gsp_matrix W = NULL, A = NULL;
  CHECK(gsp_matrix_read(&W, path, NULL));
  CHECK(gsp_matrix_pattern(&A, W)); /* BFS ignores weights */
  gsp_index n;
  CHECK(gsp_matrix_nrows(&n, A));

  gsp_vector visited = NULL, frontier = NULL;
  CHECK(gsp_vector_new(&visited, GSP_BOOL, n));
  CHECK(gsp_vector_new(&frontier, GSP_BOOL, n));
  bool yes = true;
  CHECK(gsp_vector_set_element(frontier, src, &yes));

  /* next = frontier (or.and) A, only where not yet visited */
  const gsp_desc unvisited = {.mask_complement = true, .mask_structure = true, .replace = true};
  gsp_index nf = 1;
  int depth = 0;
  for (; nf > 0; depth++) {
    if (depth < 8 || argc > 3) /* a third argument prints every level */
      printf("level %d: %llu vertices\n", depth, (unsigned long long)nf);
    /* visited |= frontier */
    CHECK(gsp_vector_apply(visited, NULL, GSP_LOR, GSP_IDENTITY, frontier, NULL));
    CHECK(gsp_vxm(frontier, visited, GSP_NOOP, GSP_OR_AND, frontier, A, &unvisited));
    CHECK(gsp_vector_nvals(&nf, frontier));
  }
  gsp_index reached;
  CHECK(gsp_vector_nvals(&reached, visited));
  printf("BFS from %llu: %llu of %llu vertices reached, %d levels\n", (unsigned long long)src,
         (unsigned long long)reached, (unsigned long long)n, depth);
  gsp_matrix_free(&W);
  gsp_matrix_free(&A);
  gsp_vector_free(&visited);
  gsp_vector_free(&frontier);
  return 0;
}
