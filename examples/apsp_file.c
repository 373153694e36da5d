/* All-pairs shortest paths of a graph file, then one path.
 *
 *   example_apsp_file [GRAPH [SRC DST]]     (vertices 0-based)
 *
 * Reads any format gsp knows (Matrix Market, DIMACS .gr, edge list, plain
 * or .gz), runs the min-plus closure with successor recording and prints
 * the distance and the vertex sequence from SRC to DST. */
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
  gsp_matrix D = NULL, succ = NULL;
  CHECK(gsp_matrix_read(&D, path, NULL)); /* weights as in the file */
  gsp_index n;
  CHECK(gsp_matrix_nrows(&n, D));
  gsp_index src = argc > 3 ? strtoull(argv[2], NULL, 10) : 0;
  gsp_index dst = argc > 3 ? strtoull(argv[3], NULL, 10) : n - 1;

  /* D becomes the distance matrix; succ(i,j) is the next vertex after i */
  CHECK(gsp_closure_ext(D, &succ, GSP_MIN_PLUS, NULL));

  gsp_index reachable;
  CHECK(gsp_matrix_nvals(&reachable, D));
  printf("%llu vertices, %llu connected pairs\n", (unsigned long long)n, (unsigned long long)reachable);

  int64_t dist; /* the file has integer weights: GSP_INT64 */
  if (gsp_matrix_extract_element(&dist, D, src, dst) == GSP_NO_VALUE) {
    printf("no path from %llu to %llu\n", (unsigned long long)src, (unsigned long long)dst);
  } else {
    gsp_index *p = malloc(n * sizeof *p), len = n;
    CHECK(gsp_path_from_succ(p, &len, succ, src, dst));
    printf("distance %llu -> %llu: %lld via %llu vertices:", (unsigned long long)src, (unsigned long long)dst,
           (long long)dist, (unsigned long long)len);
    for (gsp_index k = 0; k < len; k++) printf(" %llu", (unsigned long long)p[k]);
    printf("\n");
    free(p);
  }
  gsp_matrix_free(&D);
  gsp_matrix_free(&succ);
  return 0;
}
