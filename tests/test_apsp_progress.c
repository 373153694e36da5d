/*
 * gsp_apsp's progress callback and phase report: with a callback the run is
 * done in parts (fractions rising to 1), the result is the same bits as
 * without one, and the report's phase times are filled.
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "gsp_test.h"

typedef struct {
  int calls;
  double last;
  bool rising;
} seen;

static void on_progress(double f, void *ctx) {
  seen *s = ctx;
  if (f < s->last) s->rising = false;
  s->last = f;
  s->calls++;
}

Test(apsp_progress, parts_give_the_same_result) {
  GSP_OK(gsp_set_threads(2));
  gsp_matrix A = NULL, D1 = NULL, D2 = NULL;
  GSP_OK(gsp_generate_random(&A, GSP_INT32, 900, 5000, 1, 100, 3));
  gsp_apsp_report r1, r2;
  gsp_apsp_advanced adv = {.report = &r1};
  gsp_apsp_opts o = {.algo = GSP_APSP_MSSSP, .advanced = &adv};
  GSP_OK(gsp_apsp(&D1, NULL, A, &o));
  seen s = {0, 0, true};
  adv.report = &r2;
  adv.progress = on_progress;
  adv.progress_ctx = &s;
  GSP_OK(gsp_apsp(&D2, NULL, A, &o));
  cr_assert_geq(s.calls, 8, "%d progress calls", s.calls);
  cr_assert(s.rising);
  cr_assert_float_eq(s.last, 1.0, 1e-12);
  cr_assert_eq(r1.row_blocks, 1);
  cr_assert_geq(r2.row_blocks, 8);
  cr_assert(r1.prepare_s >= 0 && r1.compute_s > 0 && r1.finish_s >= 0);
  const size_t nn = 900 * 900;
  int32_t *y1 = malloc(nn * 4), *y2 = malloc(nn * 4);
  const int32_t none = -1;
  GSP_OK(gsp_matrix_export_dense(y1, &none, D1));
  GSP_OK(gsp_matrix_export_dense(y2, &none, D2));
  cr_assert(memcmp(y1, y2, nn * 4) == 0);
  gsp_index n1 = 0, n2 = 0;
  GSP_OK(gsp_matrix_nvals(&n1, D1));
  GSP_OK(gsp_matrix_nvals(&n2, D2));
  cr_assert_eq(n1, n2);
  free(y1), free(y2);
  GSP_OK(gsp_matrix_free(&A));
  GSP_OK(gsp_matrix_free(&D1));
  GSP_OK(gsp_matrix_free(&D2));
}
