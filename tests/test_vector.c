/* Vector objects: lifetime, building, element access, dense import/export. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "gsp.h"

#define OK(call)                                                                              \
  do {                                                                                        \
    gsp_info i_ = (call);                                                                     \
    cr_assert_eq(i_, GSP_SUCCESS, "%s -> %s: %s", #call, gsp_strerror(i_), gsp_last_error()); \
  } while (0)

Test(vector, build_access_tuples) {
  gsp_vector v, w;
  OK(gsp_vector_new(&v, GSP_FP32, 6));
  const gsp_index I[] = {4, 1, 4, 0};
  const float X[] = {2, 0, 5, -1};
  OK(gsp_vector_build(v, I, X, 4, GSP_DUP_MIN));
  gsp_index nv, n;
  OK(gsp_vector_nvals(&nv, v));
  OK(gsp_vector_size(&n, v));
  cr_assert(nv == 3 && n == 6);
  float x;
  OK(gsp_vector_extract_element(&x, v, 4));
  cr_assert_eq(x, 2);
  OK(gsp_vector_extract_element(&x, v, 1)); /* explicit zero is an entry */
  cr_assert_eq(x, 0);
  cr_assert_eq(gsp_vector_extract_element(&x, v, 2), GSP_NO_VALUE);
  cr_assert_eq(gsp_vector_extract_element(&x, v, 6), GSP_INVALID_INDEX);
  cr_assert_eq(gsp_vector_build(v, I, X, 4, GSP_DUP_MIN), GSP_OUTPUT_NOT_EMPTY);
  OK(gsp_vector_dup(&w, v));
  OK(gsp_vector_remove_element(w, 4));
  OK(gsp_vector_nvals(&nv, w));
  cr_assert_eq(nv, 2);
  OK(gsp_vector_nvals(&nv, v));
  cr_assert_eq(nv, 3);
  gsp_index oi[3], cap = 3;
  float ox[3];
  OK(gsp_vector_extract_tuples(oi, ox, &cap, v));
  cr_assert(cap == 3 && oi[0] == 0 && oi[1] == 1 && oi[2] == 4 && ox[0] == -1 && ox[2] == 2);
  cap = 1;
  cr_assert_eq(gsp_vector_extract_tuples(oi, ox, &cap, v), GSP_INSUFFICIENT_SPACE);
  cr_assert_eq(cap, 3);
  const gsp_index dupI[] = {1, 1};
  gsp_vector e;
  OK(gsp_vector_new(&e, GSP_FP32, 3));
  cr_assert_eq(gsp_vector_build(e, dupI, X, 2, GSP_DUP_ERROR), GSP_DUPLICATE_ENTRY);
  OK(gsp_vector_nvals(&nv, e));
  cr_assert_eq(nv, 0);
  gsp_vector stale = w;
  OK(gsp_vector_free(&w));
  cr_assert_eq(gsp_vector_nvals(&nv, stale), GSP_INVALID_OBJECT);
  gsp_vector_free(&v);
  gsp_vector_free(&e);
}

Test(vector, dense_import_export) {
  const int32_t absent = INT32_MAX;
  const int32_t d[5] = {3, INT32_MAX, 0, INT32_MAX, 9};
  gsp_vector v;
  OK(gsp_vector_import_dense(&v, GSP_INT32, 5, d, &absent));
  gsp_index nv;
  OK(gsp_vector_nvals(&nv, v));
  cr_assert_eq(nv, 3);
  int32_t out[5], mark = -1;
  OK(gsp_vector_export_dense(out, &mark, v));
  cr_assert(out[0] == 3 && out[1] == -1 && out[2] == 0 && out[3] == -1 && out[4] == 9);
  cr_assert_eq(gsp_vector_export_dense(out, NULL, v), GSP_NULL_POINTER);
  OK(gsp_vector_clear(v));
  OK(gsp_vector_nvals(&nv, v));
  cr_assert_eq(nv, 0);
  int32_t x = 4;
  OK(gsp_vector_set_element(v, 2, &x));
  OK(gsp_vector_nvals(&nv, v));
  cr_assert_eq(nv, 1);
  gsp_vector_free(&v);
}
