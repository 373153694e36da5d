/*
 * Thread safety as documented in gsp.h: calls on different objects may run
 * concurrently, and each thread has its own error message. Several threads
 * run the same work on their own objects at once; each result must equal
 * the one computed alone: closure and mxm, the shortest-path entry points
 * (Bellman-Ford, Johnson, msssp, sssp), and handle churn.
 */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t */
#ifdef GSP_TEST_PLAIN           /* the ThreadSanitizer build: see tests/tsan/criterion_plain.h */
#include "criterion_plain.h"
#else
#include <criterion/criterion.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsp_test.h"

enum { NTHREADS = 6, ROUNDS = 8, N = 60 };

typedef struct {
  int id;
  gsp_matrix expect; /* closure computed alone */
  int failures;
  char why[256];
} job;

static gsp_matrix make_graph(void) {
  return gsp_test_random_matrix(GSP_INT32, N, N, 0.08, 1, 20, 99);
}

static void *worker(void *arg) {
  job *j = arg;
  for (int r = 0; r < ROUNDS && !j->failures; r++) {
    gsp_matrix A = make_graph(), C = NULL;
    gsp_closure_opts o = {.backend = GSP_BACKEND_CPU};
    if (gsp_closure_ext(A, NULL, GSP_MIN_PLUS, &o) != GSP_SUCCESS) {
      j->failures++;
      snprintf(j->why, sizeof j->why, "closure: %s", gsp_last_error());
    }
    /* compare tuples with the reference */
    gsp_index na, ne;
    gsp_matrix_nvals(&na, A);
    gsp_matrix_nvals(&ne, j->expect);
    if (na != ne) {
      j->failures++;
      snprintf(j->why, sizeof j->why, "round %d: %llu entries, expected %llu", r, (unsigned long long)na,
               (unsigned long long)ne);
    } else {
      for (gsp_index i = 0; i < N; i++)
        for (gsp_index k = 0; k < N; k++) {
          int32_t a = 0, e = 0;
          gsp_info ia = gsp_matrix_extract_element(&a, A, i, k);
          gsp_info ie = gsp_matrix_extract_element(&e, j->expect, i, k);
          if (ia != ie || a != e) {
            j->failures++;
            snprintf(j->why, sizeof j->why, "round %d: (%llu,%llu) differs", r, (unsigned long long)i,
                     (unsigned long long)k);
          }
        }
    }
    /* an op and an error message of this thread's own */
    if (gsp_matrix_new(&C, GSP_INT32, N, N) != GSP_SUCCESS ||
        gsp_mxm(C, NULL, GSP_NOOP, GSP_MIN_PLUS, A, A, NULL) != GSP_SUCCESS) {
      j->failures++;
      snprintf(j->why, sizeof j->why, "mxm: %s", gsp_last_error());
    }
    gsp_index bad = (gsp_index)(1000 + j->id);
    int32_t x;
    if (gsp_matrix_extract_element(&x, A, bad, 0) != GSP_INVALID_INDEX) j->failures++;
    char want[64];
    snprintf(want, sizeof want, "(%llu, 0)", (unsigned long long)bad);
    if (!strstr(gsp_last_error(), want)) {
      j->failures++;
      snprintf(j->why, sizeof j->why, "message of another thread: %s", gsp_last_error());
    }
    gsp_matrix_free(&A);
    gsp_matrix_free(&C);
  }
  return NULL;
}

Test(threads, concurrent_calls_on_different_objects) {
  gsp_matrix expect = make_graph();
  gsp_closure_opts o = {.backend = GSP_BACKEND_CPU};
  GSP_OK(gsp_closure_ext(expect, NULL, GSP_MIN_PLUS, &o));
  pthread_t th[NTHREADS];
  job jobs[NTHREADS];
  for (int t = 0; t < NTHREADS; t++) {
    jobs[t] = (job){.id = t, .expect = expect};
    cr_assert_eq(pthread_create(&th[t], NULL, worker, &jobs[t]), 0);
  }
  for (int t = 0; t < NTHREADS; t++) pthread_join(th[t], NULL);
  for (int t = 0; t < NTHREADS; t++) cr_assert_eq(jobs[t].failures, 0, "thread %d: %s", t, jobs[t].why);
  gsp_matrix_free(&expect);
}

/* Handle creation and destruction from many threads keeps the registry of
 * live handles consistent. */
static void *churn(void *arg) {
  int *bad = arg;
  for (int r = 0; r < 2000; r++) {
    gsp_vector v;
    if (gsp_vector_new(&v, GSP_FP64, 3) != GSP_SUCCESS) (*bad)++;
    gsp_index n;
    if (gsp_vector_size(&n, v) != GSP_SUCCESS || n != 3) (*bad)++;
    gsp_vector stale = v;
    gsp_vector_free(&v);
    (void)stale;
  }
  return NULL;
}

Test(threads, registry_under_churn) {
  pthread_t th[NTHREADS];
  int bad[NTHREADS] = {0};
  for (int t = 0; t < NTHREADS; t++) pthread_create(&th[t], NULL, churn, &bad[t]);
  for (int t = 0; t < NTHREADS; t++) pthread_join(th[t], NULL);
  for (int t = 0; t < NTHREADS; t++) cr_assert_eq(bad[t], 0);
}

/* The shortest-path entry points from several threads at once, each on its
 * own copy of a graph with negative arcs: Bellman-Ford, Johnson through
 * gsp_apsp, msssp and sssp on the non-negative original, every result equal
 * (value for value) to the one computed alone. */
enum { SP_N = 80 };

typedef struct {
  gsp_matrix base, neg;        /* inputs (each thread dups them) */
  double *bf, *apsp, *ms, *ss; /* results computed alone, dense, NAN absent */
  int failures;
  char why[256];
} sp_job;

static double *vec_picture(gsp_vector v) {
  double *x = malloc(SP_N * sizeof *x), absent = NAN;
  if (x && gsp_vector_export_dense(x, &absent, v) != GSP_SUCCESS) free(x), x = NULL;
  return x;
}

static double *mat_picture(gsp_matrix M, gsp_index rows) {
  double *x = malloc(rows * SP_N * sizeof *x), absent = NAN;
  if (x && gsp_matrix_export_dense(x, &absent, M) != GSP_SUCCESS) free(x), x = NULL;
  return x;
}

static bool same(const double *a, const double *b, size_t k) {
  if (!a || !b) return false;
  for (size_t e = 0; e < k; e++)
    if (!(a[e] == b[e] || (a[e] != a[e] && b[e] != b[e]))) return false;
  return true;
}

/* The four results for copies of base and neg; NULL entries on failure. */
static void sp_run(gsp_matrix base, gsp_matrix neg, double **bf, double **ap, double **ms, double **ss) {
  gsp_matrix B = NULL, G = NULL, D = NULL, P = NULL;
  gsp_vector d = NULL, p = NULL;
  const gsp_index src[] = {0, 17, 79};
  *bf = *ap = *ms = *ss = NULL;
  gsp_matrix_dup(&B, base);
  gsp_matrix_dup(&G, neg);
  const gsp_bf_opts bo = {.backend = GSP_BACKEND_CPU};
  if (gsp_bellman_ford(&d, &p, G, 1, &bo) == GSP_SUCCESS) *bf = vec_picture(d);
  gsp_vector_free(&d), gsp_vector_free(&p);
  const gsp_apsp_opts ao = {.algo = GSP_APSP_JOHNSON, .backend = GSP_BACKEND_CPU, .sources = src, .nsources = 3};
  if (gsp_apsp(&D, &P, G, &ao) == GSP_SUCCESS) *ap = mat_picture(D, 3);
  gsp_matrix_free(&D), gsp_matrix_free(&P);
  const gsp_msssp_opts mo = {.backend = GSP_BACKEND_CPU};
  if (gsp_msssp(&D, &P, B, src, 3, &mo) == GSP_SUCCESS) *ms = mat_picture(D, 3);
  gsp_matrix_free(&D), gsp_matrix_free(&P);
  const gsp_sssp_opts so = {.algo = GSP_SSSP_DELTA, .backend = GSP_BACKEND_CPU};
  if (gsp_sssp(&d, &p, B, 5, &so) == GSP_SUCCESS) *ss = vec_picture(d);
  gsp_vector_free(&d), gsp_vector_free(&p);
  gsp_matrix_free(&B), gsp_matrix_free(&G);
}

static void *sp_worker(void *arg) {
  sp_job *j = arg;
  for (int r = 0; r < 4 && !j->failures; r++) {
    double *bf, *ap, *ms, *ss;
    sp_run(j->base, j->neg, &bf, &ap, &ms, &ss);
    const char *bad = !same(bf, j->bf, SP_N)         ? "bellman_ford"
                      : !same(ap, j->apsp, 3 * SP_N) ? "apsp"
                      : !same(ms, j->ms, 3 * SP_N)   ? "msssp"
                      : !same(ss, j->ss, SP_N)       ? "sssp"
                                                     : NULL;
    if (bad) j->failures++, snprintf(j->why, sizeof j->why, "round %d: %s differs or failed", r, bad);
    free(bf), free(ap), free(ms), free(ss);
  }
  return NULL;
}

Test(threads, shortest_paths_concurrently) {
  gsp_matrix base = gsp_test_random_matrix(GSP_INT64, SP_N, SP_N, 0.06, 0, 20, 5), neg = NULL;
  /* w + p(u) - p(v) with p(v) = v % 7: negative arcs, no negative cycle */
  gsp_index nv, *I = malloc(SP_N * SP_N * sizeof *I), *J = malloc(SP_N * SP_N * sizeof *J);
  int64_t *X = malloc(SP_N * SP_N * sizeof *X);
  cr_assert(I && J && X);
  GSP_OK(gsp_matrix_nvals(&nv, base));
  GSP_OK(gsp_matrix_extract_tuples(I, J, X, &nv, base));
  for (gsp_index k = 0; k < nv; k++) X[k] += (int64_t)(I[k] % 7) - (int64_t)(J[k] % 7);
  GSP_OK(gsp_matrix_new(&neg, GSP_INT64, SP_N, SP_N));
  GSP_OK(gsp_matrix_build(neg, I, J, X, nv, GSP_DUP_ERROR));
  free(I), free(J), free(X);
  sp_job ref = {.base = base, .neg = neg};
  sp_run(base, neg, &ref.bf, &ref.apsp, &ref.ms, &ref.ss);
  cr_assert(ref.bf && ref.apsp && ref.ms && ref.ss, "a reference run failed: %s", gsp_last_error());
  pthread_t th[NTHREADS];
  sp_job jobs[NTHREADS];
  for (int t = 0; t < NTHREADS; t++) {
    jobs[t] = ref;
    cr_assert_eq(pthread_create(&th[t], NULL, sp_worker, &jobs[t]), 0);
  }
  for (int t = 0; t < NTHREADS; t++) pthread_join(th[t], NULL);
  for (int t = 0; t < NTHREADS; t++) cr_assert_eq(jobs[t].failures, 0, "thread %d: %s", t, jobs[t].why);
  free(ref.bf), free(ref.apsp), free(ref.ms), free(ref.ss);
  gsp_matrix_free(&base), gsp_matrix_free(&neg);
}

/* One read-only matrix shared by every thread, in each storage format
 * (CSR, dense with absent entries, full dense, bool bit-packed): the
 * read-only calls (sssp, msssp, apsp, mxv, reduce, export, extract, dup,
 * transpose) run from NTHREADS threads at once on the same handle, each
 * thread in its own order so that calls wanting different formats overlap,
 * and every result equals the one computed alone on a private copy. A read
 * must never convert the shared matrix under another reader's feet. */
enum { SH_N = 48, SH_ROUNDS = 3, SH_OPS = 10 };

typedef struct {
  gsp_matrix A;          /* shared, never written */
  double expect[SH_OPS]; /* digests computed alone */
  int id, failures;
  char why[256];
} sh_job;

static double digest_vector(gsp_vector v) {
  gsp_type t;
  gsp_index I[SH_N], n = SH_N;
  int64_t X[SH_N]; /* room for SH_N values of any type */
  double s = 0;
  if (!v || gsp_vector_type(&t, v) != GSP_SUCCESS || gsp_vector_extract_tuples(I, X, &n, v) != GSP_SUCCESS) return NAN;
  for (gsp_index k = 0; k < n; k++)
    s += (double)(I[k] + 1) * gsp_test_value_f64(t, (const char *)X + k * gsp_type_size(t));
  return s;
}

static double digest_matrix(gsp_matrix M) {
  gsp_index n = 0, nr = 0, nc = 0;
  if (!M || gsp_matrix_nvals(&n, M) != GSP_SUCCESS) return NAN;
  gsp_matrix_nrows(&nr, M), gsp_matrix_ncols(&nc, M);
  gsp_index *I = malloc((n + 1) * sizeof *I), *J = malloc((n + 1) * sizeof *J);
  gsp_matrix D = NULL;
  double *X = malloc((n + 1) * sizeof *X), s = (double)(nr * 1000 + nc);
  /* values as FP64 whatever M's type: a cast is itself a read of M */
  if (I && J && X && gsp_matrix_cast(&D, M, GSP_FP64) == GSP_SUCCESS &&
      gsp_matrix_extract_tuples(I, J, X, &n, D) == GSP_SUCCESS)
    for (gsp_index k = 0; k < n; k++) s += (double)(I[k] * 31 + J[k] * 17 + 1) * X[k];
  else s = NAN;
  gsp_matrix_free(&D);
  free(I), free(J), free(X);
  return s;
}

/* Operation k on A (read only); its result as a number. */
static double sh_op(gsp_matrix A, int k) {
  gsp_type t;
  gsp_matrix_type(&t, A);
  const bool num = t != GSP_BOOL;
  gsp_vector d = NULL, p = NULL, u = NULL;
  gsp_matrix D = NULL, P = NULL;
  double r = NAN;
  const gsp_index src[] = {0, 5, 47};
  switch (k) {
  case 0: { /* sssp (numeric) or a bool mxv */
    const gsp_sssp_opts o = {.backend = GSP_BACKEND_CPU};
    if (!num) return sh_op(A, 3);
    if (gsp_sssp(&d, &p, A, 3, &o) == GSP_SUCCESS) r = digest_vector(d) + digest_vector(p);
    break;
  }
  case 1: {
    const gsp_msssp_opts o = {.backend = GSP_BACKEND_CPU};
    if (!num) return sh_op(A, 4);
    if (gsp_msssp(&D, &P, A, src, 3, &o) == GSP_SUCCESS) r = digest_matrix(D) + digest_matrix(P);
    break;
  }
  case 2: {
    const gsp_apsp_opts o = {.backend = GSP_BACKEND_CPU, .sources = src, .nsources = 3};
    if (!num) return sh_op(A, 5);
    if (gsp_apsp(&D, &P, A, &o) == GSP_SUCCESS) r = digest_matrix(D);
    break;
  }
  case 3: { /* w = A u on MIN_PLUS (OR_AND for bool) */
    u = gsp_test_random_vector(t, SH_N, 0.5, 0, 9, 3);
    const gsp_desc dc = {.backend = GSP_BACKEND_CPU};
    if (gsp_vector_new(&d, t, SH_N) == GSP_SUCCESS &&
        gsp_mxv(d, NULL, GSP_NOOP, num ? GSP_MIN_PLUS : GSP_OR_AND, A, u, &dc) == GSP_SUCCESS)
      r = digest_vector(d);
    break;
  }
  case 4: { /* row reduction and the scalar one */
    double s = 0;
    const gsp_desc dc = {.backend = GSP_BACKEND_CPU};
    if (gsp_vector_new(&d, t, SH_N) == GSP_SUCCESS &&
        gsp_matrix_reduce_vector(d, NULL, GSP_NOOP, num ? GSP_MAX : GSP_LOR, A, &dc) == GSP_SUCCESS) {
      gsp_matrix_cast(&D, A, GSP_FP64);
      if (D && gsp_matrix_reduce_scalar(&s, GSP_PLUS, D) == GSP_SUCCESS) r = digest_vector(d) + s;
    }
    break;
  }
  case 5: { /* export_dense */
    double *x = malloc(SH_N * SH_N * sizeof *x), absent = -3, s = 0;
    gsp_matrix_cast(&D, A, GSP_FP64); /* export needs one type: via a cast */
    if (x && D && gsp_matrix_export_dense(x, &absent, D) == GSP_SUCCESS) {
      for (int e = 0; e < SH_N * SH_N; e++) s += (e % 97 + 1) * x[e];
      r = s;
    }
    free(x);
    break;
  }
  case 6: { /* export_dense and export_csr of A itself, in its own type */
    const size_t ts = gsp_type_size(t);
    gsp_index nv = 0;
    gsp_matrix_nvals(&nv, A);
    char *x = calloc(SH_N * SH_N, ts), *v = calloc(nv + 1, ts), absent[8] = {0};
    gsp_index *rp = malloc((SH_N + 1) * sizeof *rp), *ci = malloc((nv + 1) * sizeof *ci);
    if (x && v && rp && ci && gsp_matrix_export_dense(x, absent, A) == GSP_SUCCESS &&
        gsp_matrix_export_csr(rp, ci, v, A) == GSP_SUCCESS) {
      double s = 0;
      for (size_t e = 0; e < (size_t)SH_N * SH_N * ts; e++) s += (double)(e % 89 + 1) * (unsigned char)x[e];
      for (gsp_index e = 0; e < nv; e++) s += (double)(ci[e] + 3) * (unsigned char)v[e * ts];
      for (int e = 0; e <= SH_N; e++) s += (double)rp[e];
      r = s;
    }
    free(x), free(v), free(rp), free(ci);
    break;
  }
  case 7: { /* extract_element on every cell */
    char x[8];
    double s = 0;
    for (gsp_index i = 0; i < SH_N; i++)
      for (gsp_index j = 0; j < SH_N; j++)
        if (gsp_matrix_extract_element(x, A, i, j) == GSP_SUCCESS) s += (double)(i * SH_N + j) * (unsigned char)x[0];
    r = s;
    break;
  }
  case 8: /* dup */
    if (gsp_matrix_dup(&D, A) == GSP_SUCCESS) r = digest_matrix(D);
    break;
  case 9: /* transpose, pattern */
    if (gsp_matrix_transpose(&D, A) == GSP_SUCCESS && gsp_matrix_pattern(&P, A) == GSP_SUCCESS)
      r = digest_matrix(D) + digest_matrix(P);
    break;
  }
  gsp_vector_free(&d), gsp_vector_free(&p), gsp_vector_free(&u);
  gsp_matrix_free(&D), gsp_matrix_free(&P);
  return r;
}

static void *sh_worker(void *arg) {
  sh_job *j = arg;
  for (int r = 0; r < SH_ROUNDS && !j->failures; r++)
    for (int s = 0; s < SH_OPS; s++) {
      const int k = (s * (j->id % 2 ? 7 : 3) + j->id) % SH_OPS; /* each thread its own order */
      const double got = sh_op(j->A, k);
      if (!(got == j->expect[k])) {
        j->failures++;
        snprintf(j->why, sizeof j->why, "round %d op %d: %g, alone %g (%s)", r, k, got, j->expect[k], gsp_last_error());
      }
    }
  return NULL;
}

typedef enum { SH_CSR, SH_DENSE, SH_FULL, SH_BITS } sh_format;

/* A fresh matrix in format f: every call builds the same content. */
static gsp_matrix sh_make(sh_format f) {
  gsp_matrix A = NULL;
  if (f == SH_BITS) { /* a bool closure on the CPU leaves its result bit-packed */
    A = gsp_test_random_matrix(GSP_BOOL, SH_N, SH_N, 0.03, 1, 1, 11);
    const gsp_closure_opts o = {.backend = GSP_BACKEND_CPU};
    if (gsp_closure_ext(A, NULL, GSP_OR_AND, &o) != GSP_SUCCESS) gsp_matrix_free(&A);
    return A;
  }
  uint64_t st = 42;
  int32_t x[SH_N * SH_N], absent = -1;
  for (int e = 0; e < SH_N * SH_N; e++)
    x[e] = f == SH_FULL                  ? (int32_t)(gsp_test_rand(&st) % 50)
           : gsp_test_uniform(&st) < 0.1 ? (int32_t)(gsp_test_rand(&st) % 50)
                                         : -1;
  if (f == SH_CSR) {
    gsp_matrix_import_dense(&A, GSP_INT32, SH_N, SH_N, x, &absent);
    gsp_index *rp = malloc((SH_N + 1) * sizeof *rp), nv = 0;
    gsp_matrix_nvals(&nv, A);
    gsp_index *ci = malloc((nv + 1) * sizeof *ci);
    int32_t *v = malloc((nv + 1) * sizeof *v);
    gsp_matrix B = NULL;
    if (gsp_matrix_export_csr(rp, ci, v, A) == GSP_SUCCESS) gsp_matrix_import_csr(&B, GSP_INT32, SH_N, SH_N, rp, ci, v);
    free(rp), free(ci), free(v);
    gsp_matrix_free(&A);
    return B;
  }
  gsp_matrix_import_dense(&A, GSP_INT32, SH_N, SH_N, x, f == SH_FULL ? NULL : &absent);
  return A;
}

static void shared_reads(sh_format f) {
  gsp_matrix priv = sh_make(f), shared = sh_make(f);
  cr_assert(priv && shared, "building format %d: %s", (int)f, gsp_last_error());
  sh_job ref = {.A = shared};
  for (int k = 0; k < SH_OPS; k++) {
    ref.expect[k] = sh_op(priv, k);
    cr_assert(ref.expect[k] == ref.expect[k], "format %d op %d alone failed: %s", (int)f, k, gsp_last_error());
  }
  pthread_t th[NTHREADS];
  sh_job jobs[NTHREADS];
  for (int t = 0; t < NTHREADS; t++) {
    jobs[t] = ref;
    jobs[t].id = t;
    cr_assert_eq(pthread_create(&th[t], NULL, sh_worker, &jobs[t]), 0);
  }
  for (int t = 0; t < NTHREADS; t++) pthread_join(th[t], NULL);
  for (int t = 0; t < NTHREADS; t++)
    cr_assert_eq(jobs[t].failures, 0, "format %d thread %d: %s", (int)f, t, jobs[t].why);
  gsp_matrix_free(&priv), gsp_matrix_free(&shared);
}

Test(threads, shared_matrix_csr) {
  shared_reads(SH_CSR);
}
Test(threads, shared_matrix_dense) {
  shared_reads(SH_DENSE);
}
Test(threads, shared_matrix_full_dense) {
  shared_reads(SH_FULL);
}
Test(threads, shared_matrix_bool_bits) {
  shared_reads(SH_BITS);
}

/* The reported case: gsp_sssp from six threads at once (released together
 * by a barrier) on one matrix imported dense, each from its own source;
 * every round on a fresh matrix, so that the first reads race for it. */
enum { DS_N = 400, DS_ROUNDS = 6 };

typedef struct {
  gsp_matrix A;
  pthread_barrier_t *go;
  double expect;
  int id, failures;
  char why[256];
} ds_job;

static double digest_any(gsp_vector v) {
  gsp_index n = 0;
  if (!v || gsp_vector_nvals(&n, v) != GSP_SUCCESS) return NAN;
  gsp_index *I = malloc((n + 1) * sizeof *I);
  int32_t *X = malloc((n + 1) * sizeof *X);
  double s = 0;
  if (I && X && gsp_vector_extract_tuples(I, X, &n, v) == GSP_SUCCESS)
    for (gsp_index k = 0; k < n; k++) s += (double)(I[k] + 1) * X[k];
  else s = NAN;
  free(I), free(X);
  return s;
}

static void *dense_sssp(void *arg) {
  ds_job *j = arg;
  const gsp_sssp_opts o = {.backend = GSP_BACKEND_CPU};
  gsp_vector d = NULL, p = NULL;
  pthread_barrier_wait(j->go);
  if (gsp_sssp(&d, &p, j->A, (gsp_index)j->id, &o) != GSP_SUCCESS || digest_any(d) != j->expect)
    j->failures++, snprintf(j->why, sizeof j->why, "%s", gsp_last_error());
  gsp_vector_free(&d), gsp_vector_free(&p);
  return NULL;
}

static gsp_matrix ds_make(void) {
  int32_t *x = malloc((size_t)DS_N * DS_N * sizeof *x), absent = -1;
  uint64_t st = 7;
  for (size_t e = 0; e < (size_t)DS_N * DS_N; e++)
    x[e] = gsp_test_uniform(&st) < 0.05 ? (int32_t)(gsp_test_rand(&st) % 100) : -1;
  gsp_matrix A = NULL;
  gsp_matrix_import_dense(&A, GSP_INT32, DS_N, DS_N, x, &absent);
  free(x);
  return A;
}

Test(threads, sssp_six_threads_on_one_dense_matrix) {
  double expect[NTHREADS];
  gsp_matrix priv = ds_make();
  cr_assert(priv);
  for (int t = 0; t < NTHREADS; t++) {
    gsp_vector d = NULL;
    GSP_OK(gsp_sssp(&d, NULL, priv, (gsp_index)t, NULL));
    expect[t] = digest_any(d);
    gsp_vector_free(&d);
  }
  gsp_matrix_free(&priv);
  for (int r = 0; r < DS_ROUNDS; r++) {
    gsp_matrix shared = ds_make();
    cr_assert(shared);
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, NTHREADS);
    pthread_t th[NTHREADS];
    ds_job jobs[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
      jobs[t] = (ds_job){.A = shared, .go = &go, .expect = expect[t], .id = t};
      cr_assert_eq(pthread_create(&th[t], NULL, dense_sssp, &jobs[t]), 0);
    }
    for (int t = 0; t < NTHREADS; t++) pthread_join(th[t], NULL);
    pthread_barrier_destroy(&go);
    for (int t = 0; t < NTHREADS; t++) cr_assert_eq(jobs[t].failures, 0, "round %d thread %d: %s", r, t, jobs[t].why);
    gsp_matrix_free(&shared);
  }
}
