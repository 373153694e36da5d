/*
 * Thread safety as documented in gsp.h: calls on different objects may run
 * concurrently, and each thread has its own error message. Several threads
 * run the same work on their own objects at once; each result must equal
 * the one computed alone.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
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
