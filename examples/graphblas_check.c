/* Cross-check gsp's shortest paths against SuiteSparse:GraphBLAS.
 *
 *   example_graphblas_check [GRAPH]
 *
 * gsp: min-plus closure (all pairs). GraphBLAS: for a few sources, relax
 * d = min(d, d min.+ A) with GrB_vxm until nothing changes. The two must
 * agree exactly on integer weights. Built only when GraphBLAS is found. */
#include <GraphBLAS.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsp.h"

#define CHECK(call)                                         \
  do {                                                      \
    gsp_info info_ = (call);                                \
    if (info_ < 0) {                                        \
      fprintf(stderr, "%s: %s\n", #call, gsp_last_error()); \
      exit(1);                                              \
    }                                                       \
  } while (0)
#define GRB_TRY(call)                        \
  do {                                       \
    if ((call) != GrB_SUCCESS) {             \
      fprintf(stderr, "%s failed\n", #call); \
      exit(1);                               \
    }                                        \
  } while (0)

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "data/helsinki_drive.gr.gz";
  gsp_read_opts ro = {.use_type = true, .type = GSP_INT64};
  gsp_matrix A = NULL, D = NULL;
  CHECK(gsp_matrix_read(&A, path, &ro));
  gsp_index n, m;
  CHECK(gsp_matrix_nrows(&n, A));
  CHECK(gsp_matrix_nvals(&m, A));

  /* the same graph as a GraphBLAS matrix, from gsp's CSR */
  gsp_index *rp = malloc((n + 1) * sizeof *rp), *ci = malloc(m * sizeof *ci);
  int64_t *w = malloc(m * sizeof *w);
  GrB_Index *I = malloc(m * sizeof *I), *J = malloc(m * sizeof *J);
  CHECK(gsp_matrix_export_csr(rp, ci, w, A));
  for (gsp_index i = 0; i < n; i++)
    for (gsp_index k = rp[i]; k < rp[i + 1]; k++) I[k] = i, J[k] = ci[k];
  GRB_TRY(GrB_init(GrB_NONBLOCKING));
  GrB_Matrix G = NULL;
  GRB_TRY(GrB_Matrix_new(&G, GrB_INT64, n, n));
  GRB_TRY(GrB_Matrix_build_INT64(G, I, J, w, m, GrB_MIN_INT64));

  CHECK(gsp_matrix_dup(&D, A));
  CHECK(gsp_closure(D, GSP_MIN_PLUS));

  gsp_index bad = 0;
  for (gsp_index q = 0; q < 8 && q < n; q++) {
    gsp_index s = q * (n / 8);
    GrB_Vector d = NULL;
    GRB_TRY(GrB_Vector_new(&d, GrB_INT64, n));
    GRB_TRY(GrB_Vector_setElement_INT64(d, 0, s));
    for (gsp_index it = 0; it < n; it++) { /* settles in < n rounds */
      GrB_Vector old = NULL, changed = NULL;
      GrB_Index nold, nnew, nchanged;
      GRB_TRY(GrB_Vector_dup(&old, d));
      GRB_TRY(GrB_vxm(d, NULL, GrB_MIN_INT64, GrB_MIN_PLUS_SEMIRING_INT64, d, G, NULL));
      GRB_TRY(GrB_Vector_new(&changed, GrB_BOOL, n));
      GRB_TRY(GrB_eWiseMult(changed, NULL, NULL, GrB_NE_INT64, d, old, NULL));
      GRB_TRY(GrB_Vector_select_BOOL(changed, NULL, NULL, GrB_VALUEEQ_BOOL, changed, true, NULL));
      GRB_TRY(GrB_Vector_nvals(&nold, old));
      GRB_TRY(GrB_Vector_nvals(&nnew, d));
      GRB_TRY(GrB_Vector_nvals(&nchanged, changed));
      GrB_Vector_free(&old);
      GrB_Vector_free(&changed);
      if (nold == nnew && nchanged == 0) break;
    }
    for (gsp_index j = 0; j < n; j++) {
      int64_t a, b;
      bool ga = gsp_matrix_extract_element(&a, D, s, j) == GSP_SUCCESS;
      bool gb = GrB_Vector_extractElement_INT64(&b, d, j) == GrB_SUCCESS;
      if (ga != gb || (ga && a != b)) bad++;
    }
    GrB_Vector_free(&d);
  }
  printf("%s: %llu disagreements between gsp and GraphBLAS on 8 sources\n", path, (unsigned long long)bad);
  GrB_Matrix_free(&G);
  GrB_finalize();
  gsp_matrix_free(&A);
  gsp_matrix_free(&D);
  free(rp);
  free(ci);
  free(w);
  free(I);
  free(J);
  return bad ? 1 : 0;
}
