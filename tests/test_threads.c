/*
 * Thread safety as documented in gsp.h: calls on different objects may run
 * concurrently, and each thread has its own error message. Several threads
 * run the same work on their own objects at once; each result must equal
 * the one computed alone: closure and mxm, the shortest-path entry points
 * (Bellman-Ford, Johnson, msssp, sssp), and handle churn.
 */
#include <criterion/criterion.h>
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
      snprintf(j->why, sizeof j->why, "round %d: %llu entries, expected %llu", r,
               (unsigned long long)na, (unsigned long long)ne);
    } else {
      for (gsp_index i = 0; i < N; i++)
        for (gsp_index k = 0; k < N; k++) {
          int32_t a = 0, e = 0;
          gsp_info ia = gsp_matrix_extract_element(&a, A, i, k);
          gsp_info ie = gsp_matrix_extract_element(&e, j->expect, i, k);
          if (ia != ie || a != e) {
            j->failures++;
            snprintf(j->why, sizeof j->why, "round %d: (%llu,%llu) differs", r,
                     (unsigned long long)i, (unsigned long long)k);
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
  for (int t = 0; t < NTHREADS; t++)
    cr_assert_eq(jobs[t].failures, 0, "thread %d: %s", t, jobs[t].why);
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
  gsp_matrix base, neg;   /* inputs (each thread dups them) */
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
    const char *bad = !same(bf, j->bf, SP_N) ? "bellman_ford" : !same(ap, j->apsp, 3 * SP_N) ? "apsp"
                      : !same(ms, j->ms, 3 * SP_N) ? "msssp" : !same(ss, j->ss, SP_N) ? "sssp" : NULL;
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
