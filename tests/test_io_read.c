/* Readers: Matrix Market, DIMACS (.gr, .ss, .p2p) and edge lists on valid
 * files and on the malformed corpus in tests/data; gzip variants. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "gsp_test.h"

static const char *data(const char *name) {
  static char buf[8][1024];
  static int k;
  k = (k + 1) % 8;
  snprintf(buf[k], sizeof buf[k], "%s/%s", GSP_TEST_DATA_DIR, name);
  return buf[k];
}

static gsp_matrix read_ok(const char *name, const gsp_read_opts *o) {
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_read(&A, data(name), o));
  cr_assert_not_null(A);
  return A;
}

static void dims(gsp_matrix A, gsp_index r, gsp_index c, gsp_index nv, gsp_type t) {
  gsp_index x;
  gsp_type ty;
  GSP_OK(gsp_matrix_nrows(&x, A));
  cr_assert_eq(x, r, "nrows %llu, expected %llu", (unsigned long long)x, (unsigned long long)r);
  GSP_OK(gsp_matrix_ncols(&x, A));
  cr_assert_eq(x, c);
  GSP_OK(gsp_matrix_nvals(&x, A));
  cr_assert_eq(x, nv, "nvals %llu, expected %llu", (unsigned long long)x, (unsigned long long)nv);
  GSP_OK(gsp_matrix_type(&ty, A));
  cr_assert_eq(ty, t, "type %d, expected %d", ty, t);
}

static double get(gsp_matrix A, gsp_index i, gsp_index j) {
  union {
    bool b;
    int32_t i32;
    int64_t i64;
    float f;
    double d;
  } v;
  gsp_type t;
  GSP_OK(gsp_matrix_type(&t, A));
  gsp_info info = gsp_matrix_extract_element(&v, A, i, j);
  cr_assert(info == GSP_SUCCESS, "no entry at (%llu, %llu)", (unsigned long long)i, (unsigned long long)j);
  switch (t) {
  case GSP_BOOL:
    return v.b;
  case GSP_INT32:
    return v.i32;
  case GSP_INT64:
    return (double)v.i64;
  case GSP_FP32:
    return v.f;
  default:
    return v.d;
  }
}

static bool has(gsp_matrix A, gsp_index i, gsp_index j) {
  int64_t v[2];
  return gsp_matrix_extract_element(v, A, i, j) == GSP_SUCCESS;
}

/* ---- Matrix Market ---- */

Test(io_read, mtx_general_with_odd_comments) {
  gsp_matrix A = read_ok("mtx_general.mtx", NULL);
  dims(A, 4, 5, 6, GSP_FP64);
  cr_expect_eq(get(A, 0, 0), 1.5);
  cr_expect_eq(get(A, 1, 2), -2.25);
  cr_expect_eq(get(A, 2, 4), 1000.0);
  cr_expect_eq(get(A, 3, 0), 0.0); /* an explicit zero is an entry */
  cr_expect_eq(get(A, 1, 4), 0.5);
  cr_expect(!has(A, 0, 1));
  gsp_matrix_free(&A);
}

Test(io_read, mtx_symmetric_expands_both_triangles) {
  gsp_matrix A = read_ok("mtx_symmetric.mtx", NULL);
  dims(A, 3, 3, 6, GSP_INT64);
  cr_expect_eq(get(A, 1, 0), 7);
  cr_expect_eq(get(A, 0, 1), 7);
  cr_expect_eq(get(A, 2, 1), -1);
  cr_expect_eq(get(A, 1, 2), -1);
  cr_expect_eq(get(A, 0, 0), 5);
  gsp_matrix_free(&A);
}

Test(io_read, mtx_skew_symmetric_negates_mirror) {
  gsp_matrix A = read_ok("mtx_skew.mtx", NULL);
  dims(A, 3, 3, 4, GSP_FP64);
  cr_expect_eq(get(A, 1, 0), 4);
  cr_expect_eq(get(A, 0, 1), -4);
  cr_expect_eq(get(A, 2, 0), -0.5);
  cr_expect_eq(get(A, 0, 2), 0.5);
  gsp_matrix_free(&A);
}

Test(io_read, mtx_pattern_is_bool) {
  gsp_matrix A = read_ok("mtx_pattern.mtx", NULL);
  dims(A, 3, 3, 3, GSP_BOOL);
  cr_expect_eq(get(A, 0, 1), 1);
  cr_expect_eq(get(A, 2, 0), 1);
  gsp_matrix_free(&A);
  A = read_ok("mtx_pattern_symmetric.mtx", NULL);
  dims(A, 3, 3, 3, GSP_BOOL);
  cr_expect(has(A, 0, 1) && has(A, 1, 0) && has(A, 2, 2));
  gsp_matrix_free(&A);
  /* pattern read as int32: every entry weighs 1 */
  gsp_read_opts o = {.use_type = true, .type = GSP_INT32};
  A = read_ok("mtx_pattern.mtx", &o);
  dims(A, 3, 3, 3, GSP_INT32);
  cr_expect_eq(get(A, 1, 2), 1);
  gsp_matrix_free(&A);
}

Test(io_read, mtx_array_column_major) {
  gsp_matrix A = read_ok("mtx_array.mtx", NULL);
  dims(A, 2, 3, 6, GSP_FP64);
  cr_expect_eq(get(A, 0, 0), 1);
  cr_expect_eq(get(A, 1, 0), 2);
  cr_expect_eq(get(A, 0, 1), 3);
  cr_expect_eq(get(A, 1, 2), 6);
  gsp_matrix_free(&A);
  A = read_ok("mtx_array_symmetric.mtx", NULL);
  dims(A, 3, 3, 9, GSP_INT64);
  cr_expect_eq(get(A, 0, 0), 1);
  cr_expect_eq(get(A, 1, 0), 2);
  cr_expect_eq(get(A, 0, 1), 2);
  cr_expect_eq(get(A, 2, 0), 3);
  cr_expect_eq(get(A, 1, 1), 4);
  cr_expect_eq(get(A, 2, 1), 5);
  cr_expect_eq(get(A, 1, 2), 5);
  cr_expect_eq(get(A, 2, 2), 6);
  gsp_matrix_free(&A);
}

Test(io_read, crlf_line_ends) {
  gsp_matrix A = read_ok("mtx_crlf.mtx", NULL);
  dims(A, 2, 2, 2, GSP_INT64);
  cr_expect_eq(get(A, 0, 1), 3);
  cr_expect_eq(get(A, 1, 0), 4);
  gsp_matrix_free(&A);
  A = read_ok("gr_crlf.gr", NULL);
  dims(A, 3, 3, 2, GSP_INT64);
  cr_expect_eq(get(A, 1, 2), 6);
  gsp_matrix_free(&A);
  A = read_ok("el_crlf.txt", NULL);
  dims(A, 3, 3, 3, GSP_INT64);
  cr_expect_eq(get(A, 2, 0), 5);
  gsp_matrix_free(&A);
}

Test(io_read, duplicate_policies) {
  gsp_matrix A = read_ok("mtx_dup.mtx", NULL); /* default: keep the min */
  dims(A, 2, 2, 2, GSP_INT64);
  cr_expect_eq(get(A, 0, 1), 3);
  gsp_matrix_free(&A);
  const struct {
    gsp_dup d;
    double want;
  } cases[] = {{GSP_DUP_MAX, 9}, {GSP_DUP_FIRST, 5}, {GSP_DUP_LAST, 9}, {GSP_DUP_PLUS, 17}, {GSP_DUP_MIN, 3}};
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    gsp_read_opts o = {.use_dup = true, .dup = cases[k].d};
    A = read_ok("mtx_dup.mtx", &o);
    cr_expect_eq(get(A, 0, 1), cases[k].want, "policy %d", cases[k].d);
    gsp_matrix_free(&A);
    A = read_ok("el_dup.txt", &o); /* unsorted input: the radix-sort path */
    cr_expect_eq(get(A, 0, 1),
                 cases[k].d == GSP_DUP_FIRST  ? 5
                 : cases[k].d == GSP_DUP_LAST ? 8
                 : cases[k].d == GSP_DUP_PLUS ? 15
                 : cases[k].d == GSP_DUP_MAX  ? 8
                                              : 2,
                 "edge list policy %d", cases[k].d);
    cr_expect_eq(get(A, 1, 0), 4);
    gsp_matrix_free(&A);
  }
  gsp_read_opts o = {.use_dup = true, .dup = GSP_DUP_ERROR};
  gsp_info info = gsp_matrix_read(&A, data("mtx_dup.mtx"), &o);
  cr_expect_eq(info, GSP_DUPLICATE_ENTRY);
  cr_expect_null(A);
  cr_expect(strstr(gsp_last_error(), "duplicate entry (1, 2) (row, column as in the file)") != NULL, "%s",
            gsp_last_error());
}

Test(io_read, forced_types_are_exact_or_errors) {
  gsp_read_opts o = {.use_type = true, .type = GSP_INT32};
  gsp_matrix A = NULL;
  gsp_info info = gsp_matrix_read(&A, data("mtx_real_as_int.mtx"), &o);
  cr_expect_eq(info, GSP_PARSE_ERROR);
  cr_expect(strstr(gsp_last_error(), "line 3: weight 2.5 is not an integer") != NULL, "%s", gsp_last_error());
  o.type = GSP_FP32;
  A = read_ok("mtx_real_as_int.mtx", &o);
  dims(A, 2, 2, 2, GSP_FP32);
  cr_expect_eq(get(A, 0, 0), 2.5);
  gsp_matrix_free(&A);
  o.type = GSP_INT32;
  A = read_ok("gr_valid.gr", &o);
  dims(A, 5, 5, 7, GSP_INT32);
  gsp_matrix_free(&A);
}

/* ---- DIMACS ---- */

Test(io_read, dimacs_graph) {
  gsp_matrix A = read_ok("gr_valid.gr", NULL);
  dims(A, 5, 5, 7, GSP_INT64);
  cr_expect_eq(get(A, 0, 1), 10);
  cr_expect_eq(get(A, 2, 1), 4);
  cr_expect_eq(get(A, 4, 0), 1);
  gsp_matrix_free(&A);
  A = read_ok("gr_parallel.gr", NULL); /* parallel arcs: lightest kept */
  dims(A, 3, 3, 2, GSP_INT64);
  cr_expect_eq(get(A, 0, 1), 4);
  gsp_matrix_free(&A);
  gsp_read_opts o = {.symmetrize = true};
  A = read_ok("gr_valid.gr", &o);
  dims(A, 5, 5, 14, GSP_INT64); /* 7 arcs on 7 distinct pairs */
  cr_expect_eq(get(A, 1, 0), 10);
  cr_expect_eq(get(A, 1, 2), 4);
  cr_expect_eq(get(A, 2, 1), 4);
  gsp_matrix_free(&A);
}

Test(io_read, dimacs_sources_and_pairs) {
  gsp_index *s = NULL, *a = NULL, *b = NULL, k = 0;
  GSP_OK(gsp_dimacs_read_sources(&s, &k, 5, data("gr_valid.ss")));
  cr_assert_eq(k, 3);
  cr_expect(s[0] == 0 && s[1] == 4 && s[2] == 2);
  free(s);
  GSP_OK(gsp_dimacs_read_pairs(&a, &b, &k, 5, data("gr_valid.p2p")));
  cr_assert_eq(k, 2);
  cr_expect(a[0] == 0 && b[0] == 4 && a[1] == 3 && b[1] == 1);
  free(a);
  free(b);
  s = NULL;
  gsp_info info = gsp_dimacs_read_sources(&s, &k, 5, data("gr_bad.ss"));
  cr_expect_eq(info, GSP_PARSE_ERROR);
  cr_expect_null(s);
  cr_expect(strstr(gsp_last_error(), "gr_bad.ss line 3: vertex 9 out of range 1..5"), "%s", gsp_last_error());
  /* a well-formed file of the other kind: its own code, the file named */
  a = b = NULL;
  info = gsp_dimacs_read_pairs(&a, &b, &k, 5, data("gr_valid.ss"));
  cr_expect_eq(info, GSP_INVALID_VALUE);
  cr_expect(a == NULL && b == NULL);
  cr_expect(strstr(gsp_last_error(), "gr_valid.ss line") && strstr(gsp_last_error(), "a source file"), "%s",
            gsp_last_error());
  info = gsp_dimacs_read_sources(&s, &k, 5, data("gr_valid.p2p"));
  cr_expect_eq(info, GSP_INVALID_VALUE);
  cr_expect_null(s);
  cr_expect(strstr(gsp_last_error(), "a pair file"), "%s", gsp_last_error());
}

/* ---- edge lists ---- */

Test(io_read, edgelist_weighted_comments) {
  gsp_matrix A = read_ok("el_weighted.txt", NULL);
  dims(A, 4, 4, 4, GSP_FP64);
  cr_expect_eq(get(A, 0, 1), 2.5);
  cr_expect_eq(get(A, 1, 2), 0.25);
  cr_expect_eq(get(A, 3, 0), -1);
  gsp_matrix_free(&A);
  A = read_ok("el_csv.csv", NULL);
  dims(A, 3, 3, 2, GSP_INT64);
  gsp_matrix_free(&A);
}

Test(io_read, edgelist_unweighted_and_bases) {
  gsp_matrix A = read_ok("el_unweighted.txt", NULL);
  dims(A, 4, 4, 4, GSP_BOOL);
  cr_expect(has(A, 2, 3) && !has(A, 3, 2));
  gsp_matrix_free(&A);
  gsp_read_opts o = {.ids = GSP_IDS_ONE_BASED};
  A = read_ok("el_onebased.txt", &o);
  dims(A, 3, 3, 3, GSP_INT64);
  cr_expect_eq(get(A, 0, 1), 5);
  cr_expect_eq(get(A, 2, 0), 7);
  gsp_matrix_free(&A);
  /* read as 0-based, the same file has an isolated vertex 0 */
  A = read_ok("el_onebased.txt", NULL);
  dims(A, 4, 4, 3, GSP_INT64);
  gsp_matrix_free(&A);
  o.ids = GSP_IDS_ZERO_BASED;
  o.nvertices = 10;
  A = read_ok("el_unweighted.txt", &o);
  dims(A, 10, 10, 4, GSP_BOOL);
  gsp_matrix_free(&A);
  o.nvertices = 3;
  gsp_info info = gsp_matrix_read(&A, data("el_unweighted.txt"), &o);
  cr_expect_eq(info, GSP_PARSE_ERROR);
  cr_expect(strstr(gsp_last_error(), "line 5: target vertex id 3 out of range 0..2"), "%s", gsp_last_error());
}

Test(io_read, edgelist_remap_sparse_ids) {
  gsp_read_opts o = {.ids = GSP_IDS_REMAP};
  gsp_matrix A = NULL;
  int64_t *ids = NULL;
  gsp_index n = 0;
  GSP_OK(gsp_matrix_read_ids(&A, &ids, &n, data("el_sparse_ids.txt"), &o));
  cr_assert_eq(n, 3);
  cr_expect_eq(ids[0], 1000000007);
  cr_expect_eq(ids[1], 42);
  cr_expect_eq(ids[2], 99999999999LL);
  dims(A, 3, 3, 3, GSP_INT64);
  cr_expect_eq(get(A, 0, 1), 3);
  cr_expect_eq(get(A, 1, 2), 4);
  cr_expect_eq(get(A, 2, 0), 5);
  free(ids);
  gsp_matrix_free(&A);
  /* without remapping the ids are out of range, with a hint */
  gsp_info info = gsp_matrix_read(&A, data("el_sparse_ids.txt"), NULL);
  cr_expect_eq(info, GSP_PARSE_ERROR);
  cr_expect(strstr(gsp_last_error(), "line 3: target vertex id 99999999999 out of range") &&
                strstr(gsp_last_error(), "remapping"),
            "%s", gsp_last_error());
  /* identity ids for 1-based formats */
  GSP_OK(gsp_matrix_read_ids(&A, &ids, &n, data("gr_valid.gr"), NULL));
  cr_expect(n == 5 && ids[0] == 1 && ids[4] == 5);
  free(ids);
  gsp_matrix_free(&A);
}

Test(io_read, self_loops_dropped_on_request) {
  gsp_read_opts o = {.drop_self_loops = true};
  gsp_matrix A = read_ok("mtx_symmetric.mtx", &o);
  dims(A, 3, 3, 4, GSP_INT64);
  cr_expect(!has(A, 0, 0) && !has(A, 2, 2));
  gsp_matrix_free(&A);
}

/* ---- malformed corpus: error code and message, output untouched ---- */

Test(io_read, malformed_corpus) {
  static const struct {
    const char *file;
    gsp_info code;
    const char *msg; /* must appear in gsp_last_error() */
  } bad[] = {
      {"mtx_bad_banner.mtx", GSP_PARSE_ERROR, "mtx_bad_banner.mtx line 1: not a Matrix Market file"},
      {"mtx_bad_field.mtx", GSP_PARSE_ERROR, "line 1: unknown field 'quaternion'"},
      {"mtx_complex.mtx", GSP_PARSE_ERROR, "complex matrices are not supported"},
      {"mtx_truncated.mtx", GSP_PARSE_ERROR, "line 4: file ends after 2 of 4 entries (truncated?)"},
      {"mtx_col_zero.mtx", GSP_PARSE_ERROR, "mtx_col_zero.mtx line 5: column 0 out of range 1..100"},
      {"mtx_row_range.mtx", GSP_PARSE_ERROR, "line 4: row 4 out of range 1..3"},
      {"mtx_nonnumeric.mtx", GSP_PARSE_ERROR, "line 4: weight 'abc' is not a number"},
      {"mtx_nan.mtx", GSP_PARSE_ERROR, "line 4: weight is NaN"},
      {"mtx_too_many.mtx", GSP_PARSE_ERROR, "line 4: more entries than the 1 the size line announces"},
      {"mtx_extra_token.mtx", GSP_PARSE_ERROR, "line 3: unexpected '7' after the entry"},
      {"mtx_skew_diag.mtx", GSP_PARSE_ERROR, "line 3: diagonal entry (2, 2) in a skew-symmetric matrix"},
      {"mtx_missing_value.mtx", GSP_PARSE_ERROR, "line 4: missing weight"},
      {"mtx_int_with_real.mtx", GSP_PARSE_ERROR, "line 3: weight 2.5 is not an integer (type int64)"},
      {"mtx_no_size.mtx", GSP_PARSE_ERROR, "file ends before the size line"},
      {"mtx_array_short.mtx", GSP_PARSE_ERROR, "file ends after 3 of 4 values"},
      {"empty.mtx", GSP_PARSE_ERROR, "empty.mtx: empty input"},
      {"gr_no_p.gr", GSP_PARSE_ERROR, "gr_no_p.gr: empty input"},
      {"gr_arc_before_p.gr", GSP_PARSE_ERROR, "line 1: arc before the problem line"},
      {"gr_truncated.gr", GSP_PARSE_ERROR, "line 3: file ends after 2 of 3 arcs"},
      {"gr_vertex_range.gr", GSP_PARSE_ERROR, "line 3: head vertex 5 out of range 1..4"},
      {"gr_bad_line.gr", GSP_PARSE_ERROR, "line 3: unknown line type 'x'"},
      {"gr_nan.gr", GSP_PARSE_ERROR, "line 3: weight is NaN"},
      {"gr_two_p.gr", GSP_PARSE_ERROR, "line 2: second problem line"},
      {"gr_bad_weight.gr", GSP_PARSE_ERROR, "line 2: weight '12x' is not a number"},
      {"el_mixed_columns.txt", GSP_PARSE_ERROR, "line 2: 2 columns, but the first edge line had 3"},
      {"el_negative_id.txt", GSP_PARSE_ERROR, "line 2: source vertex id '-1' is negative"},
      {"el_nonnumeric.txt", GSP_PARSE_ERROR, "line 2: weight 'heavy' is not a number"},
      {"el_nan.txt", GSP_PARSE_ERROR, "line 2: weight is NaN"},
      {"el_too_many_columns.txt", GSP_PARSE_ERROR, "line 1: unexpected '1700000000' after the weight"},
      {"el_nul_byte.txt", GSP_PARSE_ERROR, "line 2: NUL byte in the line"},
      {"el_huge_id.txt", GSP_PARSE_ERROR, "line 2: source vertex id 5000000000 out of range"},
      {"no_such_file.mtx", GSP_IO_ERROR, "no_such_file.mtx: cannot open: No such file"},
  };
  gsp_matrix keep = NULL;
  GSP_OK(gsp_matrix_new(&keep, GSP_INT32, 2, 2));
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    gsp_matrix A = keep; /* a live handle: must come back unchanged */
    gsp_info info = gsp_matrix_read(&A, data(bad[k].file), NULL);
    cr_expect_eq(info, bad[k].code, "%s: got %s (%s)", bad[k].file, gsp_strerror(info), gsp_last_error());
    cr_expect(A == keep, "%s: output changed on error", bad[k].file);
    cr_expect(strstr(gsp_last_error(), bad[k].msg) != NULL, "%s: message \"%s\" lacks \"%s\"", bad[k].file,
              gsp_last_error(), bad[k].msg);
  }
  gsp_index nv = 1;
  GSP_OK(gsp_matrix_nvals(&nv, keep));
  cr_expect_eq(nv, 0);
  gsp_matrix_free(&keep);
  gsp_read_opts o = {.ids = GSP_IDS_ONE_BASED};
  gsp_matrix A = NULL;
  cr_expect_eq(gsp_matrix_read(&A, data("el_zero_onebased.txt"), &o), GSP_PARSE_ERROR);
  cr_expect(strstr(gsp_last_error(), "line 2: source vertex id 0 in a file read as 1-based"), "%s", gsp_last_error());
  cr_expect_eq(gsp_matrix_read(&A, GSP_TEST_DATA_DIR, NULL), GSP_IO_ERROR);
  cr_expect_eq(gsp_matrix_read(NULL, data("gr_valid.gr"), NULL), GSP_NULL_POINTER);
  gsp_read_opts bad_dup = {.use_dup = true, .dup = (gsp_dup)42};
  cr_expect_eq(gsp_matrix_read(&A, data("gr_valid.gr"), &bad_dup), GSP_INVALID_VALUE);
  cr_expect_null(A);
}

/* ---- gzip ---- */

static void gzip_file(const char *src, const char *dst, long cut) {
  FILE *f = fopen(src, "rb");
  cr_assert_not_null(f);
  char tmp[] = "/tmp/gsp_gz_XXXXXX";
  int fd = mkstemp(tmp);
  cr_assert(fd >= 0);
  close(fd);
  gzFile g = gzopen(tmp, "wb");
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) gzwrite(g, buf, (unsigned)n);
  fclose(f);
  gzclose(g);
  /* copy, dropping the last `cut` bytes (a truncated archive) */
  f = fopen(tmp, "rb");
  fseek(f, 0, SEEK_END);
  long len = ftell(f) - cut;
  fseek(f, 0, SEEK_SET);
  FILE *o = fopen(dst, "wb");
  for (long k = 0; k < len; k++) fputc(fgetc(f), o);
  fclose(f);
  fclose(o);
  remove(tmp);
}

Test(io_read, gzip_variants_match_plain) {
  static const char *files[] = {"mtx_general.mtx", "gr_valid.gr", "el_weighted.txt", "mtx_symmetric.mtx"};
  for (size_t k = 0; k < 4; k++) {
    char dst[256];
    snprintf(dst, sizeof dst, "/tmp/gsp_test_%d_%s.gz", (int)getpid(), files[k]);
    gzip_file(data(files[k]), dst, 0);
    gsp_matrix A = read_ok(files[k], NULL), B = NULL;
    GSP_OK(gsp_matrix_read(&B, dst, NULL));
    gsp_test_assert_matrix_same(A, B, 0);
    gsp_matrix_free(&A);
    gsp_matrix_free(&B);
    remove(dst);
  }
  /* a malformed file inside gzip reports the same line */
  char dst[256];
  snprintf(dst, sizeof dst, "/tmp/gsp_test_%d_col0.mtx.gz", (int)getpid());
  gzip_file(data("mtx_col_zero.mtx"), dst, 0);
  gsp_matrix A = NULL;
  cr_expect_eq(gsp_matrix_read(&A, dst, NULL), GSP_PARSE_ERROR);
  cr_expect(strstr(gsp_last_error(), "line 5: column 0 out of range 1..100"), "%s", gsp_last_error());
  remove(dst);
  /* a truncated archive is an error, never a silently shorter matrix */
  snprintf(dst, sizeof dst, "/tmp/gsp_test_%d_trunc.gr.gz", (int)getpid());
  gzip_file(data("gr_valid.gr"), dst, 12);
  cr_expect_eq(gsp_matrix_read(&A, dst, NULL), GSP_PARSE_ERROR, "%s", gsp_last_error());
  cr_expect_null(A);
  remove(dst);
}

Test(io_read, bundled_graph) {
  char path[1024];
  snprintf(path, sizeof path, "%s/data/helsinki_drive.gr.gz", GSP_SOURCE_DIR);
  gsp_matrix A = NULL;
  GSP_OK(gsp_matrix_read(&A, path, NULL));
  dims(A, 1437, 1437, 2126, GSP_INT64);
  gsp_matrix_free(&A);
}

/* ---- allocation failures: every one gives GSP_OUT_OF_MEMORY, never a
 * crash or a half-built matrix ---- */

#include "gsp_internal.h"

Test(io_read, brutal_allocation_failures) {
  static const char *files[] = {"mtx_symmetric.mtx", "gr_valid.gr", "el_sparse_ids.txt", "el_dup.txt", "mtx_array.mtx"};
  for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
    gsp_read_opts o = {.ids = f == 2 ? GSP_IDS_REMAP : GSP_IDS_ZERO_BASED, .use_dup = f == 3, .dup = GSP_DUP_FIRST};
    gsp_matrix ref = NULL;
    GSP_OK(gsp_matrix_read(&ref, data(files[f]), &o));
    bool done = false;
    for (long long k = 0; k < 1000 && !done; k++) {
      gsp_matrix A = NULL;
      int64_t *ids = NULL;
      gsp_index nids = 0;
      gsp__debug_fail_after(k);
      gsp_info info = gsp_matrix_read_ids(&A, &ids, &nids, data(files[f]), &o);
      gsp__debug_fail_after(-1);
      if (info == GSP_SUCCESS) {
        gsp_test_assert_matrix_same(ref, A, 0);
        done = true;
      } else {
        cr_assert_eq(info, GSP_OUT_OF_MEMORY, "%s, failure %lld: %s (%s)", files[f], k, gsp_strerror(info),
                     gsp_last_error());
        cr_assert_null(A);
        cr_assert_null(ids);
      }
      free(ids);
      gsp_matrix_free(&A);
    }
    cr_expect(done, "%s never succeeded", files[f]);
    gsp_matrix_free(&ref);
  }
}

/* ---- streams, exact values, strict parsing (the library side) ---- */

static const char *scratch(const char *name, const void *bytes, size_t n) {
  static char buf[4][256];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "/tmp/gsp_io_read_%d_%s", (int)getpid(), name);
  FILE *f = fopen(buf[k], "wb");
  cr_assert_not_null(f);
  fwrite(bytes, 1, n, f);
  fclose(f);
  return buf[k];
}

/* "-" reads stdin: here a pipe holding more than one buffer of text, which
 * a second open (or a rewind) would lose. */
Test(io_read, dash_reads_stdin_once) {
  static char text[1 << 20];
  size_t len = 0;
  int m = 0;
  for (; len + 32 < sizeof text / 4; m++)
    len += (size_t)snprintf(text + len, sizeof text - len, "%d %d %d\n", m % 977, (m * 7) % 983, m % 5 + 1);
  int fds[2];
  cr_assert_eq(pipe(fds), 0);
  pid_t child = fork(); /* the writer: more than a pipe holds */
  cr_assert_geq(child, 0);
  if (child == 0) {
    close(fds[0]);
    size_t off = 0;
    while (off < len) {
      ssize_t w = write(fds[1], text + off, len - off);
      if (w <= 0) _exit(1);
      off += (size_t)w;
    }
    _exit(0);
  }
  close(fds[1]);
  cr_assert_eq(dup2(fds[0], 0), 0);
  close(fds[0]);
  gsp_matrix A = NULL, B = NULL;
  GSP_OK(gsp_matrix_read(&A, "-", NULL));
  GSP_OK(gsp_matrix_read(&B, scratch("dash.txt", text, len), NULL));
  gsp_index na, nb;
  GSP_OK(gsp_matrix_nvals(&na, A));
  GSP_OK(gsp_matrix_nvals(&nb, B));
  cr_assert_eq(na, nb);
  cr_assert_gt(na, 0);
  gsp_matrix_free(&A);
  gsp_matrix_free(&B);
  int st;
  cr_assert_eq(waitpid(child, &st, 0), child);
}

Test(io_read, round_option_and_exact_values) {
  const char *p = scratch("r.txt", "0 1 16777217\n", 13);
  gsp_read_opts o = {.use_type = true, .type = GSP_FP32};
  gsp_matrix A = NULL;
  cr_assert_eq(gsp_matrix_read(&A, p, &o), GSP_PARSE_ERROR);
  cr_assert_null(A);
  cr_assert(strstr(gsp_last_error(), "line 1: integer weight 16777217 cannot be stored exactly as fp32"), "%s",
            gsp_last_error());
  o.round = true;
  GSP_OK(gsp_matrix_read(&A, p, &o));
  float x = 0;
  GSP_OK(gsp_matrix_extract_element(&x, A, 0, 1));
  cr_assert_eq(x, 16777216.0f);
  gsp_matrix_free(&A);
  const char *u = scratch("u.txt", "0 1 1e-400\n", 11);
  cr_assert_eq(gsp_matrix_read(&A, u, NULL), GSP_PARSE_ERROR);
  cr_assert(strstr(gsp_last_error(), "'1e-400' underflows"), "%s", gsp_last_error());
}

Test(io_read, dense_absent_value_is_explicit) {
  /* 3 x 3 float64 0/1 adjacency, as numpy.save writes it */
  char hdr[] = "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 3), }";
  unsigned char file[256];
  size_t n = sizeof hdr - 1, total = 10 + n + 1, pad = (64 - total % 64) % 64, k = 0;
  memcpy(file, "\x93NUMPY\x01\x00", 8);
  k = 8;
  file[k++] = (unsigned char)(n + pad + 1);
  file[k++] = 0;
  memcpy(file + k, hdr, n);
  k += n;
  memset(file + k, ' ', pad);
  k += pad;
  file[k++] = '\n';
  const double v[9] = {0, 1, 0, 1, 0, 1, 0, 1, 0};
  memcpy(file + k, v, sizeof v);
  k += sizeof v;
  const char *p = scratch("a.npy", file, k);
  gsp_matrix A = NULL;
  cr_assert_eq(gsp_matrix_read(&A, p, NULL), GSP_PARSE_ERROR);
  cr_assert(strstr(gsp_last_error(), "value 0 at (0, 2), off the diagonal"), "%s", gsp_last_error());
  gsp_read_opts o = {.use_absent = true, .absent = 0};
  GSP_OK(gsp_matrix_read(&A, p, &o));
  dims(A, 3, 3, 4, GSP_FP64);
  gsp_matrix_free(&A);
  o.absent = INFINITY;
  GSP_OK(gsp_matrix_read(&A, p, &o));
  dims(A, 3, 3, 9, GSP_FP64);
  gsp_matrix_free(&A);
}

Test(io_read, messages_escape_control_bytes_and_keep_the_problem) {
  const char *p = scratch("esc.txt", "0 1 \033[31m\n", 10);
  gsp_matrix A = NULL;
  cr_assert_eq(gsp_matrix_read(&A, p, NULL), GSP_PARSE_ERROR);
  cr_assert(strchr(gsp_last_error(), '\033') == NULL, "%s", gsp_last_error());
  cr_assert(strstr(gsp_last_error(), "'\\x1b[31m' is not a number"), "%s", gsp_last_error());
  /* a path longer than the message buffer: the problem survives */
  static char longp[4096];
  strcpy(longp, "/tmp");
  for (int k = 0; k < 1800; k++) strcat(longp, "/.");
  strcat(longp, p + 4);
  cr_assert_eq(gsp_matrix_read(&A, longp, NULL), GSP_PARSE_ERROR);
  cr_assert(strstr(gsp_last_error(), "line 1: weight '\\x1b[31m' is not a number"), "%s", gsp_last_error());
}

Test(io_read, empty_fields_and_unjustified_sizes) {
  gsp_matrix A = NULL;
  cr_assert_eq(gsp_matrix_read(&A, scratch("e.txt", "0 1\n0,1,\n", 9), NULL), GSP_PARSE_ERROR);
  cr_assert(strstr(gsp_last_error(), "line 2: empty field"), "%s", gsp_last_error());
  cr_assert_eq(gsp_matrix_read(&A, scratch("p.gr", "p sp 200000000 0\n", 17), NULL), GSP_PARSE_ERROR);
  cr_assert(strstr(gsp_last_error(), "only 17 bytes"), "%s", gsp_last_error());
  cr_assert_null(A);
  /* an explicit nvertices is the caller's choice */
  gsp_read_opts o = {.nvertices = 5000000};
  GSP_OK(gsp_matrix_read(&A, scratch("id.txt", "0 4999999\n", 10), &o));
  gsp_matrix_free(&A);
}
