/* Generators: exact sizes and structure, weight ranges, no self-loops or
 * duplicates, and determinism (same seed, any thread count). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "gsp_test.h"

typedef struct {
  gsp_index n, m;
  gsp_index *p, *j;
  int64_t *x;
} csr;

/* CSR copy of A as int64 values (bool: 1). */
static csr get_csr(gsp_matrix A) {
  csr c;
  gsp_matrix B = NULL;
  GSP_OK(gsp_matrix_nrows(&c.n, A));
  GSP_OK(gsp_matrix_nvals(&c.m, A));
  GSP_OK(gsp_matrix_cast(&B, A, GSP_INT64));
  c.p = malloc((c.n + 1) * sizeof *c.p);
  c.j = malloc((c.m + 1) * sizeof *c.j);
  c.x = malloc((c.m + 1) * sizeof *c.x);
  GSP_OK(gsp_matrix_export_csr(c.p, c.j, c.x, B));
  gsp_matrix_free(&B);
  return c;
}

static void free_csr(csr *c) {
  free(c->p);
  free(c->j);
  free(c->x);
}

/* No self-loops, weights in [lo, hi]; returns the arc count. */
static gsp_index check_arcs(gsp_matrix A, int64_t lo, int64_t hi, bool dag) {
  csr c = get_csr(A);
  for (gsp_index i = 0; i < c.n; i++)
    for (gsp_index k = c.p[i]; k < c.p[i + 1]; k++) {
      cr_assert_neq(c.j[k], i, "self-loop at %llu", (unsigned long long)i);
      if (dag) cr_assert_gt(c.j[k], i, "DAG arc goes backwards");
      cr_assert(c.x[k] >= lo && c.x[k] <= hi, "weight %lld outside [%lld, %lld]", (long long)c.x[k], (long long)lo,
                (long long)hi);
    }
  gsp_index m = c.m;
  free_csr(&c);
  return m;
}

Test(io_generate, random_exact_count_and_determinism) {
  gsp_matrix A = NULL, B = NULL, C = NULL;
  GSP_OK(gsp_generate_random(&A, GSP_INT32, 500, 3000, 1, 10, 7));
  cr_expect_eq(check_arcs(A, 1, 10, false), 3000);
  GSP_OK(gsp_generate_random(&B, GSP_INT32, 500, 3000, 1, 10, 7));
  gsp_test_assert_matrix_same(A, B, 0);
  GSP_OK(gsp_generate_random(&C, GSP_INT32, 500, 3000, 1, 10, 8));
  gsp_index nv;
  GSP_OK(gsp_matrix_nvals(&nv, C));
  cr_expect_eq(nv, 3000);
  csr a = get_csr(A), c = get_csr(C);
  bool differ = memcmp(a.j, c.j, 3000 * sizeof *a.j) != 0;
  cr_expect(differ, "different seeds gave the same graph");
  free_csr(&a);
  free_csr(&c);
  gsp_matrix_free(&A);
  gsp_matrix_free(&B);
  gsp_matrix_free(&C);
  /* dense request (more than half of all arcs) and the full graph */
  GSP_OK(gsp_generate_random(&A, GSP_FP64, 30, 800, -5, 5, 1));
  cr_expect_eq(check_arcs(A, -5, 5, false), 800);
  gsp_matrix_free(&A);
  GSP_OK(gsp_generate_random(&A, GSP_BOOL, 30, 870, 1, 1, 1));
  cr_expect_eq(check_arcs(A, 1, 1, false), 870);
  gsp_matrix_free(&A);
  cr_expect_eq(gsp_generate_random(&A, GSP_INT32, 30, 871, 1, 1, 1), GSP_INVALID_VALUE);
  cr_expect_null(A);
}

Test(io_generate, dag_is_acyclic_by_order) {
  gsp_matrix A = NULL;
  GSP_OK(gsp_generate_dag(&A, GSP_INT64, 200, 5000, 1, 1000, 3));
  cr_expect_eq(check_arcs(A, 1, 1000, true), 5000);
  gsp_matrix_free(&A);
  GSP_OK(gsp_generate_dag(&A, GSP_INT64, 20, 190, 1, 3, 3)); /* all pairs */
  cr_expect_eq(check_arcs(A, 1, 3, true), 190);
  gsp_matrix_free(&A);
  cr_expect_eq(gsp_generate_dag(&A, GSP_INT64, 20, 191, 1, 3, 3), GSP_INVALID_VALUE);
}

Test(io_generate, grid_structure_and_symmetric_weights) {
  gsp_matrix A = NULL;
  GSP_OK(gsp_generate_grid(&A, GSP_INT32, 7, 9, 1, 50, 2));
  /* 2 * (rows*(cols-1) + cols*(rows-1)) arcs */
  cr_expect_eq(check_arcs(A, 1, 50, false), 2 * (7 * 8 + 9 * 6));
  csr c = get_csr(A);
  for (gsp_index i = 0; i < c.n; i++)
    for (gsp_index k = c.p[i]; k < c.p[i + 1]; k++) {
      gsp_index j = c.j[k];
      int64_t d = (int64_t)j - (int64_t)i;
      cr_assert(d == 1 || d == -1 || d == 9 || d == -9, "not a grid neighbour");
      int32_t back;
      GSP_OK(gsp_matrix_extract_element(&back, A, j, i));
      cr_assert_eq(back, c.x[k], "weights differ by direction");
    }
  free_csr(&c);
  gsp_matrix_free(&A);
}

Test(io_generate, ring_and_complete) {
  gsp_matrix A = NULL;
  GSP_OK(gsp_generate_ring(&A, GSP_INT32, 10, false, 2, 2, 1));
  cr_expect_eq(check_arcs(A, 2, 2, false), 10);
  int32_t w;
  GSP_OK(gsp_matrix_extract_element(&w, A, 9, 0));
  gsp_matrix_free(&A);
  GSP_OK(gsp_generate_ring(&A, GSP_INT32, 10, true, 1, 9, 1));
  cr_expect_eq(check_arcs(A, 1, 9, false), 20);
  gsp_matrix_free(&A);
  GSP_OK(gsp_generate_ring(&A, GSP_INT32, 2, true, 1, 9, 1));
  cr_expect_eq(check_arcs(A, 1, 9, false), 2);
  gsp_matrix_free(&A);
  GSP_OK(gsp_generate_complete(&A, GSP_FP32, 12, -3, 3, 1));
  cr_expect_eq(check_arcs(A, -3, 3, false), 132);
  gsp_matrix_free(&A);
}

Test(io_generate, rmat_same_for_any_thread_count) {
  gsp_matrix A = NULL, B = NULL;
  GSP_OK(gsp_set_threads(1));
  GSP_OK(gsp_generate_rmat(&A, GSP_INT64, 14, 8, 0, 0, 0, 1, 100, 42));
  GSP_OK(gsp_set_threads(2));
  GSP_OK(gsp_generate_rmat(&B, GSP_INT64, 14, 8, 0, 0, 0, 1, 100, 42));
  GSP_OK(gsp_set_threads(0));
  gsp_test_assert_matrix_same(A, B, 0);
  gsp_index m = check_arcs(A, 1, 100, false);
  cr_expect(m > 8 * 16384 / 2 && m <= 8 * 16384, "arcs %llu", (unsigned long long)m);
  /* skewed degrees: the largest out-degree is far above the mean */
  csr c = get_csr(A);
  gsp_index maxd = 0;
  for (gsp_index i = 0; i < c.n; i++)
    if (c.p[i + 1] - c.p[i] > maxd) maxd = c.p[i + 1] - c.p[i];
  cr_expect_gt(maxd, 20 * (m / c.n), "max degree %llu", (unsigned long long)maxd);
  free_csr(&c);
  gsp_matrix_free(&A);
  gsp_matrix_free(&B);
  cr_expect_eq(gsp_generate_rmat(&A, GSP_INT64, 10, 4, 0.6, 0.3, 0.3, 1, 2, 1), GSP_INVALID_VALUE);
}

Test(io_generate, argument_checks) {
  gsp_matrix A = NULL;
  cr_expect_eq(gsp_generate_random(&A, GSP_INT32, 10, 5, 9, 1, 1), GSP_INVALID_VALUE);
  cr_expect_eq(gsp_generate_random(&A, GSP_INT32, 10, 5, 1, (int64_t)1 << 40, 1), GSP_INVALID_VALUE);
  cr_expect_eq(gsp_generate_random(NULL, GSP_INT32, 10, 5, 1, 2, 1), GSP_NULL_POINTER);
  cr_expect_eq(gsp_generate_grid(&A, GSP_INT32, 1u << 20, 1u << 20, 1, 2, 1), GSP_TOO_LARGE);
  cr_expect_null(A);
  GSP_OK(gsp_generate_random(&A, GSP_INT32, 0, 0, 1, 2, 1)); /* empty graph */
  gsp_matrix_free(&A);
}

/* The header's contract: a ring has n >= 2 vertices. */
Test(io_generate, ring_needs_two_vertices) {
  gsp_matrix A = NULL;
  for (gsp_index n = 0; n < 2; n++) {
    cr_expect_eq(gsp_generate_ring(&A, GSP_INT32, n, false, 1, 9, 1), GSP_INVALID_VALUE, "n = %llu",
                 (unsigned long long)n);
    cr_expect_null(A);
  }
  cr_assert_eq(gsp_generate_ring(&A, GSP_INT32, 2, true, 1, 9, 1), GSP_SUCCESS);
  gsp_matrix_free(&A);
}
