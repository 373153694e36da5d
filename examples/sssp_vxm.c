/* Single-source shortest paths composed from gsp_vxm on MIN_PLUS: a
 * Bellman-Ford loop that only expands the vertices improved in the last
 * round (the frontier), selected with masks.
 *
 *   example_sssp_vxm [GRAPH [SOURCE]]       (SOURCE 0-based) */
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
  gsp_read_opts ro = {.use_type = true, .type = GSP_INT64};
  gsp_matrix A = NULL;
  CHECK(gsp_matrix_read(&A, path, &ro));
  gsp_index n;
  CHECK(gsp_matrix_nrows(&n, A));

  gsp_vector d = NULL, f = NULL, t = NULL, diff = NULL, better = NULL;
  CHECK(gsp_vector_new(&d, GSP_INT64, n)); /* distances found so far */
  CHECK(gsp_vector_new(&t, GSP_INT64, n));
  CHECK(gsp_vector_new(&diff, GSP_INT64, n));
  CHECK(gsp_vector_new(&better, GSP_INT64, n));
  int64_t zero = 0;
  CHECK(gsp_vector_set_element(d, src, &zero));
  CHECK(gsp_vector_dup(&f, d)); /* frontier: vertices improved last round */

  const gsp_desc new_vertices = {.mask_complement = true, .mask_structure = true, .replace = true};
  const gsp_desc structural = {.mask_structure = true};
  gsp_index nf = 1, rounds = 0;
  while (nf > 0) {
    if (rounds++ == n) {
      printf("negative cycle reachable from %llu\n", (unsigned long long)src);
      return 2;
    }
    CHECK(gsp_vector_clear(t)); /* t = f min.+ A: one more arc */
    CHECK(gsp_vxm(t, NULL, GSP_NOOP, GSP_MIN_PLUS, f, A, NULL));
    /* f = t on vertices d has not reached yet ... */
    CHECK(gsp_vector_apply(f, d, GSP_NOOP, GSP_IDENTITY, t, &new_vertices));
    /* ... plus t where t < d */
    CHECK(gsp_vector_clear(diff));
    CHECK(gsp_vector_ewise_mult(diff, NULL, GSP_NOOP, GSP_MINUS, t, d, NULL));
    CHECK(gsp_vector_clear(better));
    CHECK(gsp_vector_select(better, NULL, GSP_NOOP, GSP_VALUE_LT, diff, &zero, NULL));
    CHECK(gsp_vector_apply(f, better, GSP_NOOP, GSP_IDENTITY, t, &structural));
    CHECK(gsp_vector_nvals(&nf, f));
    /* d = min(d, f) */
    CHECK(gsp_vector_apply(d, NULL, GSP_MIN, GSP_IDENTITY, f, NULL));
  }
  gsp_index reached;
  CHECK(gsp_vector_nvals(&reached, d));
  int64_t far = 0;
  CHECK(gsp_vector_reduce_scalar(&far, GSP_MAX, d));
  printf("from %llu: %llu of %llu vertices reached in %llu rounds, "
         "largest distance %lld\n",
         (unsigned long long)src, (unsigned long long)reached, (unsigned long long)n, (unsigned long long)rounds,
         (long long)far);
  gsp_matrix_free(&A);
  gsp_vector_free(&d);
  gsp_vector_free(&f);
  gsp_vector_free(&t);
  gsp_vector_free(&diff);
  gsp_vector_free(&better);
  return 0;
}
