/* Matrix objects: lifetime, building, element access, formats, import and
 * export; building and transposing cross-checked with GraphBLAS. */
#include <GraphBLAS.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gsp.h"
#include "gsp_internal.h"

#define OK(call)                                                                              \
  do {                                                                                        \
    gsp_info i_ = (call);                                                                     \
    cr_assert_eq(i_, GSP_SUCCESS, "%s -> %s: %s", #call, gsp_strerror(i_), gsp_last_error()); \
  } while (0)

static uint64_t rng(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Same dimensions, structure and values (compared through the tuples). */
static void assert_same(gsp_matrix A, gsp_matrix B) {
  gsp_index na, nb, ma, mb, ra, rb;
  gsp_type ta, tb;
  OK(gsp_matrix_nrows(&ra, A));
  OK(gsp_matrix_nrows(&rb, B));
  OK(gsp_matrix_ncols(&ma, A));
  OK(gsp_matrix_ncols(&mb, B));
  OK(gsp_matrix_type(&ta, A));
  OK(gsp_matrix_type(&tb, B));
  OK(gsp_matrix_nvals(&na, A));
  OK(gsp_matrix_nvals(&nb, B));
  cr_assert(ra == rb && ma == mb && ta == tb && na == nb, "shape, type or entry count differ");
  size_t ts = gsp_type_size(ta);
  gsp_index *ia = malloc((na + 1) * sizeof *ia), *ja = malloc((na + 1) * sizeof *ja);
  gsp_index *ib = malloc((nb + 1) * sizeof *ib), *jb = malloc((nb + 1) * sizeof *jb);
  char *xa = malloc((na + 1) * ts), *xb = malloc((nb + 1) * ts);
  OK(gsp_matrix_extract_tuples(ia, ja, xa, &na, A));
  OK(gsp_matrix_extract_tuples(ib, jb, xb, &nb, B));
  cr_assert(memcmp(ia, ib, na * sizeof *ia) == 0 && memcmp(ja, jb, na * sizeof *ja) == 0, "structures differ");
  cr_assert(memcmp(xa, xb, na * ts) == 0, "values differ");
  free(ia), free(ja), free(ib), free(jb), free(xa), free(xb);
}

Test(matrix, lifetime_and_queries) {
  gsp_matrix A = NULL, B = NULL;
  OK(gsp_matrix_new(&A, GSP_FP32, 3, 5));
  gsp_index v;
  gsp_type t;
  OK(gsp_matrix_nrows(&v, A));
  cr_assert_eq(v, 3);
  OK(gsp_matrix_ncols(&v, A));
  cr_assert_eq(v, 5);
  OK(gsp_matrix_nvals(&v, A));
  cr_assert_eq(v, 0);
  OK(gsp_matrix_type(&t, A));
  cr_assert_eq(t, GSP_FP32);
  B = A; /* a stale copy of the handle */
  OK(gsp_matrix_free(&A));
  cr_assert_null(A);
  OK(gsp_matrix_free(&A)); /* NULL-safe */
  OK(gsp_matrix_free(NULL));
  cr_assert_eq(gsp_matrix_nvals(&v, B), GSP_INVALID_OBJECT);
  cr_assert(strstr(gsp_last_error(), "gsp_matrix_nvals") != NULL, "%s", gsp_last_error());
  cr_assert_eq(gsp_matrix_free(&B), GSP_INVALID_OBJECT);
  cr_assert_eq(gsp_matrix_new(NULL, GSP_FP32, 1, 1), GSP_NULL_POINTER);
  cr_assert_eq(gsp_matrix_new(&A, (gsp_type)99, 1, 1), GSP_INVALID_VALUE);
  cr_assert_null(A);
  cr_assert_eq(gsp_matrix_new(&A, GSP_FP32, GSP_INDEX_MAX + 1, 1), GSP_TOO_LARGE);
  OK(gsp_matrix_new(&A, GSP_INT64, 0, 0));
  OK(gsp_matrix_free(&A));
}

Test(matrix, build_dup_policies_match_graphblas) {
  GrB_init(GrB_NONBLOCKING);
  const gsp_index I[] = {0, 2, 0, 1, 0, 2, 2};
  const gsp_index J[] = {1, 2, 1, 0, 1, 2, 0};
  const double X[] = {5, -1, 3, 0, 7, 4, 2};
  struct {
    gsp_dup d;
    GrB_BinaryOp op;
    double at01, at22;
  } cases[] = {{GSP_DUP_FIRST, GrB_FIRST_FP64, 5, -1},
               {GSP_DUP_LAST, GrB_SECOND_FP64, 7, 4},
               {GSP_DUP_MIN, GrB_MIN_FP64, 3, -1},
               {GSP_DUP_MAX, GrB_MAX_FP64, 7, 4},
               {GSP_DUP_PLUS, GrB_PLUS_FP64, 15, 3}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    gsp_matrix A;
    GrB_Matrix G;
    OK(gsp_matrix_new(&A, GSP_FP64, 3, 3));
    OK(gsp_matrix_build(A, I, J, X, 7, cases[c].d));
    GrB_Matrix_new(&G, GrB_FP64, 3, 3);
    GrB_Matrix_build_FP64(G, I, J, X, 7, cases[c].op);
    GrB_Index gn;
    gsp_index an;
    GrB_Matrix_nvals(&gn, G);
    OK(gsp_matrix_nvals(&an, A));
    cr_assert_eq(an, gn);
    for (gsp_index i = 0; i < 3; i++)
      for (gsp_index j = 0; j < 3; j++) {
        double a, g;
        gsp_info ia = gsp_matrix_extract_element(&a, A, i, j);
        GrB_Info ig = GrB_Matrix_extractElement_FP64(&g, G, i, j);
        cr_assert_eq(ia == GSP_SUCCESS, ig == GrB_SUCCESS, "presence differs at (%llu,%llu)", (unsigned long long)i,
                     (unsigned long long)j);
        if (ia == GSP_SUCCESS) cr_assert_eq(a, g);
      }
    double a;
    OK(gsp_matrix_extract_element(&a, A, 0, 1));
    cr_assert_eq(a, cases[c].at01);
    OK(gsp_matrix_extract_element(&a, A, 2, 2));
    cr_assert_eq(a, cases[c].at22);
    /* the explicit zero at (1,0) is an entry */
    OK(gsp_matrix_extract_element(&a, A, 1, 0));
    cr_assert_eq(a, 0.0);
    cr_assert_eq(gsp_matrix_extract_element(&a, A, 1, 1), GSP_NO_VALUE);
    gsp_matrix_free(&A);
    GrB_free(&G);
  }
  GrB_finalize();
}

Test(matrix, build_errors_leave_matrix_untouched) {
  gsp_matrix A;
  OK(gsp_matrix_new(&A, GSP_INT32, 2, 2));
  const gsp_index I[] = {0, 1, 0}, J[] = {1, 2, 1};
  const int32_t X[] = {1, 2, 3};
  cr_assert_eq(gsp_matrix_build(A, I, J, X, 3, GSP_DUP_FIRST), GSP_INVALID_INDEX);
  cr_assert(strstr(gsp_last_error(), "tuple 1") != NULL, "%s", gsp_last_error());
  const gsp_index J2[] = {1, 0, 1};
  cr_assert_eq(gsp_matrix_build(A, I, J2, X, 3, GSP_DUP_ERROR), GSP_DUPLICATE_ENTRY);
  cr_assert_eq(gsp_matrix_build(A, I, J2, NULL, 3, GSP_DUP_FIRST), GSP_NULL_POINTER);
  cr_assert_eq(gsp_matrix_build(A, I, J2, X, 3, (gsp_dup)42), GSP_INVALID_VALUE);
  gsp_index nv;
  OK(gsp_matrix_nvals(&nv, A));
  cr_assert_eq(nv, 0);
  OK(gsp_matrix_build(A, I, J2, X, 3, GSP_DUP_LAST));
  cr_assert_eq(gsp_matrix_build(A, I, J2, X, 3, GSP_DUP_LAST), GSP_OUTPUT_NOT_EMPTY);
  int32_t x;
  OK(gsp_matrix_extract_element(&x, A, 0, 1));
  cr_assert_eq(x, 3);
  cr_assert_eq(gsp_matrix_extract_element(&x, A, 2, 0), GSP_INVALID_INDEX);
  gsp_matrix_free(&A);
}

/* Random tuples through every storage format give the same matrix. */
Test(matrix, formats_round_trip) {
  uint64_t s = 7;
  for (int trial = 0; trial < 20; trial++) {
    gsp_index n = 1 + rng(&s) % 70, m = 1 + rng(&s) % 70, nt = rng(&s) % (n * m + 5);
    gsp_index *I = malloc((nt + 1) * sizeof *I), *J = malloc((nt + 1) * sizeof *J);
    bool *X = malloc(nt + 1);
    for (gsp_index k = 0; k < nt; k++) {
      I[k] = rng(&s) % n;
      J[k] = rng(&s) % m;
      X[k] = true;
    }
    gsp_matrix A, B;
    OK(gsp_matrix_new(&A, GSP_BOOL, n, m));
    OK(gsp_matrix_build(A, I, J, X, nt, GSP_DUP_FIRST));
    OK(gsp_matrix_dup(&B, A));
    OK(gsp__matrix_to_dense(B));
    assert_same(A, B);
    OK(gsp__matrix_to_bits(B));
    cr_assert_eq(B->fmt, GSP_FMT_BITS);
    assert_same(A, B);
    OK(gsp__matrix_to_csr(B));
    assert_same(A, B);
    OK(gsp__matrix_to_bits(B));
    OK(gsp__matrix_to_dense(B));
    assert_same(A, B);
    /* element access works in every format */
    for (int f = 0; f < 3; f++) {
      gsp_matrix C;
      OK(gsp_matrix_dup(&C, A));
      if (f == 1) OK(gsp__matrix_to_dense(C));
      if (f == 2) OK(gsp__matrix_to_bits(C));
      gsp_index i = rng(&s) % n, j = rng(&s) % m;
      bool t = true, got;
      OK(gsp_matrix_set_element(C, i, j, &t));
      OK(gsp_matrix_extract_element(&got, C, i, j));
      cr_assert(got);
      OK(gsp_matrix_remove_element(C, i, j));
      cr_assert_eq(gsp_matrix_extract_element(&got, C, i, j), GSP_NO_VALUE);
      gsp_index nv, nva;
      OK(gsp_matrix_nvals(&nv, C));
      OK(gsp_matrix_nvals(&nva, A));
      bool was;
      cr_assert_eq(nv, nva - (gsp_matrix_extract_element(&was, A, i, j) == GSP_SUCCESS));
      gsp_matrix_free(&C);
    }
    gsp_matrix_free(&A);
    gsp_matrix_free(&B);
    free(I);
    free(J);
    free(X);
  }
}

Test(matrix, extract_tuples_row_major_and_capacity) {
  gsp_matrix A;
  OK(gsp_matrix_new(&A, GSP_INT64, 3, 4));
  const gsp_index I[] = {2, 0, 1, 0}, J[] = {3, 2, 0, 0};
  const int64_t X[] = {40, 30, 20, 10};
  OK(gsp_matrix_build(A, I, J, X, 4, GSP_DUP_ERROR));
  gsp_index oi[4], oj[4], n = 3;
  int64_t ox[4];
  cr_assert_eq(gsp_matrix_extract_tuples(oi, oj, ox, &n, A), GSP_INSUFFICIENT_SPACE);
  cr_assert_eq(n, 4);
  OK(gsp_matrix_extract_tuples(oi, oj, ox, &n, A));
  const gsp_index ei[] = {0, 0, 1, 2}, ej[] = {0, 2, 0, 3};
  const int64_t ex[] = {10, 30, 20, 40};
  for (int k = 0; k < 4; k++) {
    cr_assert_eq(oi[k], ei[k]);
    cr_assert_eq(oj[k], ej[k]);
    cr_assert_eq(ox[k], ex[k]);
  }
  gsp_matrix_free(&A);
}

Test(matrix, csr_import_export_pack_unpack) {
  const gsp_index rp[] = {0, 2, 2, 4}, ci[] = {3, 1, 0, 2};
  const float vals[] = {1.5f, 0.0f, -2.0f, 4.0f};
  gsp_matrix A;
  OK(gsp_matrix_import_csr(&A, GSP_FP32, 3, 4, rp, ci, vals));
  gsp_index orp[4], oci[4];
  float ov[4];
  OK(gsp_matrix_export_csr(orp, oci, ov, A));
  const gsp_index erp[] = {0, 2, 2, 4}, eci[] = {1, 3, 0, 2};
  const float ev[] = {0.0f, 1.5f, -2.0f, 4.0f};
  for (int k = 0; k < 4; k++) {
    cr_assert_eq(orp[k], erp[k]);
    cr_assert_eq(oci[k], eci[k]);
    cr_assert_eq(ov[k], ev[k]);
  }
  /* duplicate columns, bad rowptr, bad column: rejected, *B untouched */
  gsp_matrix B = NULL;
  const gsp_index dupc[] = {1, 1, 0, 2};
  cr_assert_eq(gsp_matrix_import_csr(&B, GSP_FP32, 3, 4, rp, dupc, vals), GSP_DUPLICATE_ENTRY);
  const gsp_index badrp[] = {0, 3, 2, 4};
  cr_assert_eq(gsp_matrix_import_csr(&B, GSP_FP32, 3, 4, badrp, ci, vals), GSP_INVALID_VALUE);
  const gsp_index badc[] = {3, 1, 0, 9};
  cr_assert_eq(gsp_matrix_import_csr(&B, GSP_FP32, 3, 4, rp, badc, vals), GSP_INVALID_INDEX);
  cr_assert_null(B);

  /* zero-copy: arrays move in, then out again */
  gsp_index *p = malloc(4 * sizeof *p), *j = malloc(4 * sizeof *j);
  void *x = malloc(4 * sizeof(float));
  memcpy(p, erp, sizeof erp);
  memcpy(j, dupc, sizeof dupc); /* a duplicate: refused, arrays still ours */
  memcpy(x, ev, sizeof ev);
  cr_assert_eq(gsp_matrix_pack_csr(&B, GSP_FP32, 3, 4, &p, &j, &x), GSP_DUPLICATE_ENTRY);
  cr_assert(p && j && x && !B);
  /* unsorted row 0: checked as for import, so accepted (sorted copies) */
  memcpy(j, ci, sizeof ci);
  memcpy(x, vals, sizeof ev);
  OK(gsp_matrix_pack_csr(&B, GSP_FP32, 3, 4, &p, &j, &x));
  cr_assert(!p && !j && !x);
  assert_same(A, B);
  gsp_matrix_free(&B);
  p = malloc(4 * sizeof *p), j = malloc(4 * sizeof *j), x = malloc(4 * sizeof(float));
  memcpy(p, erp, sizeof erp);
  memcpy(x, ev, sizeof ev);
  memcpy(j, eci, sizeof eci);
  gsp_index *keep = j;
  OK(gsp_matrix_pack_csr(&B, GSP_FP32, 3, 4, &p, &j, &x));
  cr_assert_null(p);
  assert_same(A, B);
  gsp_index nv;
  OK(gsp_matrix_unpack_csr(&p, &j, &x, &nv, &B));
  cr_assert_null(B);
  cr_assert_eq(j, keep, "unpack of a packed CSR matrix is zero-copy");
  cr_assert_eq(nv, 4);
  free(p);
  free(j);
  free(x);
  gsp_matrix_free(&A);
}

Test(matrix, dense_import_export_absent) {
  const double inf = INFINITY;
  double d[6] = {0, inf, 3, inf, -1, inf};
  gsp_matrix A;
  OK(gsp_matrix_import_dense(&A, GSP_FP64, 2, 3, d, &inf));
  gsp_index nv;
  OK(gsp_matrix_nvals(&nv, A));
  cr_assert_eq(nv, 3);
  double x;
  OK(gsp_matrix_extract_element(&x, A, 0, 0)); /* zero-weight edge stays */
  cr_assert_eq(x, 0.0);
  cr_assert_eq(gsp_matrix_extract_element(&x, A, 0, 1), GSP_NO_VALUE);
  double out[6];
  const double minus1 = -7;
  OK(gsp_matrix_export_dense(out, &minus1, A));
  cr_assert_eq(out[1], -7);
  cr_assert_eq(out[4], -1);
  cr_assert_eq(gsp_matrix_export_dense(out, NULL, A), GSP_NULL_POINTER);
  /* pack/unpack keep the very same buffer */
  void *buf = malloc(sizeof d);
  memcpy(buf, d, sizeof d);
  void *orig = buf;
  gsp_matrix B;
  OK(gsp_matrix_pack_dense(&B, GSP_FP64, 2, 3, &buf, &inf));
  cr_assert_null(buf);
  assert_same(A, B);
  OK(gsp_matrix_unpack_dense(&buf, &inf, &B));
  cr_assert_eq(buf, orig);
  cr_assert_eq(memcmp(buf, d, sizeof d), 0);
  free(buf);
  gsp_matrix_free(&A);
}

Test(matrix, transpose_cast_pattern) {
  GrB_init(GrB_NONBLOCKING);
  uint64_t s = 3;
  gsp_index n = 37, m = 23, nt = 300, I[300], J[300];
  int32_t X[300];
  for (gsp_index k = 0; k < nt; k++) {
    I[k] = rng(&s) % n;
    J[k] = rng(&s) % m;
    X[k] = (int32_t)(rng(&s) % 200) - 100;
  }
  gsp_matrix A, T, C, P;
  OK(gsp_matrix_new(&A, GSP_INT32, n, m));
  OK(gsp_matrix_build(A, I, J, X, nt, GSP_DUP_PLUS));
  OK(gsp_matrix_transpose(&T, A));
  GrB_Matrix G, GT;
  GrB_Matrix_new(&G, GrB_INT32, n, m);
  GrB_Matrix_build_INT32(G, I, J, X, nt, GrB_PLUS_INT32);
  GrB_Matrix_new(&GT, GrB_INT32, m, n);
  GrB_transpose(GT, NULL, NULL, G, NULL);
  GrB_Index gn;
  gsp_index tn;
  GrB_Matrix_nvals(&gn, GT);
  OK(gsp_matrix_nvals(&tn, T));
  cr_assert_eq(tn, gn);
  for (gsp_index i = 0; i < m; i++)
    for (gsp_index j = 0; j < n; j++) {
      int32_t a, g;
      gsp_info ia = gsp_matrix_extract_element(&a, T, i, j);
      GrB_Info ig = GrB_Matrix_extractElement_INT32(&g, GT, i, j);
      cr_assert_eq(ia == GSP_SUCCESS, ig == GrB_SUCCESS);
      if (ia == GSP_SUCCESS) cr_assert_eq(a, g);
    }
  OK(gsp_matrix_cast(&C, A, GSP_FP64));
  OK(gsp_matrix_pattern(&P, A));
  gsp_index an, cn, pn;
  OK(gsp_matrix_nvals(&an, A));
  OK(gsp_matrix_nvals(&cn, C));
  OK(gsp_matrix_nvals(&pn, P));
  cr_assert(an == cn && an == pn);
  for (gsp_index k = 0; k < nt; k++) {
    int32_t a;
    double c;
    bool p;
    OK(gsp_matrix_extract_element(&a, A, I[k], J[k]));
    OK(gsp_matrix_extract_element(&c, C, I[k], J[k]));
    OK(gsp_matrix_extract_element(&p, P, I[k], J[k]));
    cr_assert_eq(c, (double)a);
    cr_assert(p);
  }
  gsp_matrix_free(&A);
  gsp_matrix_free(&T);
  gsp_matrix_free(&C);
  gsp_matrix_free(&P);
  GrB_free(&G);
  GrB_free(&GT);
  GrB_finalize();
}

Test(errors, strerror_names_every_code) {
#define CHECK_NAME_(name, value, text) \
  cr_assert(strncmp(gsp_strerror(name), #name, strlen(#name)) == 0, "%s", gsp_strerror(name));
  GSP_INFO_LIST(CHECK_NAME_)
#undef CHECK_NAME_
  cr_assert_not_null(gsp_strerror((gsp_info)12345));
  cr_assert_eq(gsp_type_size(GSP_FP64), 8);
  cr_assert_eq(gsp_type_size((gsp_type)-3), 0);
}

Test(errors, messages_are_per_thread_and_name_the_call) {
  gsp_matrix A;
  OK(gsp_matrix_new(&A, GSP_FP32, 2, 2));
  float x = 1;
  cr_assert_eq(gsp_matrix_set_element(A, 5, 0, &x), GSP_INVALID_INDEX);
  cr_assert(strstr(gsp_last_error(), "gsp_matrix_set_element: (5, 0) out of range") != NULL, "%s", gsp_last_error());
  cr_assert_eq(gsp_matrix_set_element(A, 0, 0, NULL), GSP_NULL_POINTER);
  gsp_matrix_free(&A);
}

/* gsp_matrix_export_csr_indexed gives gsp_matrix_export_csr's arrays from
 * every storage (CSR, dense with absent entries, bits), in 4- and 8-byte
 * indices, without changing the matrix's storage. */
Test(matrix, export_csr_indexed_matches_export_csr_in_every_format) {
  uint64_t s = 11;
  for (int trial = 0; trial < 12; trial++) {
    const gsp_index n = 1 + rng(&s) % 150, m = 1 + rng(&s) % 150, nt = rng(&s) % (n * m / 3 + 2);
    const gsp_type t = trial % 2 ? GSP_BOOL : GSP_FP64;
    gsp_index *I = malloc((nt + 1) * sizeof *I), *J = malloc((nt + 1) * sizeof *J);
    double *X = malloc((nt + 1) * sizeof *X);
    bool *XB = malloc(nt + 1);
    for (gsp_index k = 0; k < nt; k++) I[k] = rng(&s) % n, J[k] = rng(&s) % m, X[k] = (double)k, XB[k] = true;
    gsp_matrix A;
    OK(gsp_matrix_new(&A, t, n, m));
    OK(gsp_matrix_build(A, I, J, t == GSP_BOOL ? (void *)XB : (void *)X, nt, GSP_DUP_FIRST));
    gsp_index nv;
    OK(gsp_matrix_nvals(&nv, A));
    const size_t ts = gsp_type_size(t);
    gsp_index *rp = malloc((n + 1) * sizeof *rp), *ci = malloc((nv + 1) * sizeof *ci);
    char *xv = malloc((nv + 1) * ts);
    OK(gsp_matrix_export_csr(rp, ci, xv, A));
    for (int f = 0; f < 3; f++) {
      if (f == 1) OK(gsp__matrix_to_dense(A));
      if (f == 2 && t == GSP_BOOL) OK(gsp__matrix_to_bits(A));
      const int fmt = A->fmt;
      for (size_t is = 4; is <= 8; is += 4) {
        gsp_index *rp2 = malloc((n + 1) * sizeof *rp2);
        char *ci2 = malloc((nv + 1) * is), *xv2 = malloc((nv + 1) * ts);
        OK(gsp_matrix_export_csr_indexed(rp2, NULL, is, NULL, A));
        cr_assert_eq(rp2[n], nv);
        OK(gsp_matrix_export_csr_indexed(rp2, ci2, is, xv2, A));
        cr_assert_eq(memcmp(rp, rp2, (n + 1) * sizeof *rp), 0);
        for (gsp_index k = 0; k < nv; k++)
          cr_assert_eq(is == 4 ? (gsp_index)((int32_t *)ci2)[k] : (gsp_index)((int64_t *)ci2)[k], ci[k]);
        cr_assert_eq(memcmp(xv, xv2, nv * ts), 0);
        cr_assert_eq(A->fmt, fmt); /* the matrix keeps its storage */
        free(rp2), free(ci2), free(xv2);
      }
    }
    cr_assert_eq(gsp_matrix_export_csr_indexed(rp, ci, 2, NULL, A), GSP_INVALID_VALUE);
    cr_assert_eq(gsp_matrix_export_csr_indexed(NULL, ci, 8, NULL, A), GSP_NULL_POINTER);
    gsp_matrix_free(&A);
    free(I), free(J), free(X), free(XB), free(rp), free(ci), free(xv);
  }
}

/* gsp_semiring_identities: the table of gsp.h, and the domain checks. */
Test(matrix, semiring_identities_are_the_tables) {
  float fz, fo;
  OK(gsp_semiring_identities(&fz, &fo, GSP_MIN_PLUS, GSP_FP32));
  cr_assert(isinf(fz) && fz > 0 && fo == 0.0f);
  int32_t iz, io;
  OK(gsp_semiring_identities(&iz, &io, GSP_MAX_MIN, GSP_INT32));
  cr_assert(iz == INT32_MIN && io == INT32_MAX);
  int64_t lz;
  OK(gsp_semiring_identities(&lz, NULL, GSP_MAX_PLUS, GSP_INT64));
  cr_assert_eq(lz, INT64_MIN);
  double dz, dO;
  OK(gsp_semiring_identities(&dz, &dO, GSP_PLUS_TIMES, GSP_FP64));
  cr_assert(dz == 0.0 && dO == 1.0);
  bool bz = true, bo = false;
  OK(gsp_semiring_identities(&bz, &bo, GSP_OR_AND, GSP_BOOL));
  cr_assert(!bz && bo);
  cr_assert_eq(gsp_semiring_identities(&fz, NULL, GSP_OR_AND, GSP_FP32), GSP_DOMAIN_MISMATCH);
  cr_assert_eq(gsp_semiring_identities(&bz, NULL, GSP_MIN_PLUS, GSP_BOOL), GSP_DOMAIN_MISMATCH);
  cr_assert_eq(gsp_semiring_identities(&fz, NULL, (gsp_semiring)99, GSP_FP32), GSP_INVALID_VALUE);
}
