/* Threads sharing one matrix on the GPU: a matrix's device copy is one cache
 * that every GPU call on it shares, so six threads reading one matrix at once
 * (sssp, msssp, mxv with an explicit CUDA request, dense and CSR storage) must
 * each get the answer the CPU gives. Skips without a GPU. */
#define _POSIX_C_SOURCE 200809L /* barriers */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gsp.h"
#include "gsp_test.h"

#define NT 6
#define N  3000

typedef struct {
  gsp_matrix A;
  pthread_barrier_t *go;
  int id, failures;
  char why[256];
  const int64_t *expect; /* NT rows of N distances (INT64_MAX: no path) */
} job;

static void distances(int64_t *out, gsp_vector d) {
  for (gsp_index v = 0; v < N; v++) {
    int64_t x = INT64_MAX;
    if (gsp_vector_extract_element(&x, d, v) != GSP_SUCCESS) x = INT64_MAX;
    out[v] = x;
  }
}

static void *run(void *arg) {
  job *j = arg;
  pthread_barrier_wait(j->go);
  int64_t got[N];
  for (int rep = 0; rep < 3 && !j->failures; rep++) {
    gsp_sssp_opts so = {.backend = GSP_BACKEND_CUDA};
    gsp_vector d = NULL;
    gsp_info info = gsp_sssp(&d, NULL, j->A, (gsp_index)j->id, &so);
    if (info != GSP_SUCCESS) {
      j->failures++;
      snprintf(j->why, sizeof j->why, "sssp: %s", gsp_last_error());
      break;
    }
    distances(got, d);
    gsp_vector_free(&d);
    if (memcmp(got, j->expect + (size_t)j->id * N, sizeof got)) {
      j->failures++;
      snprintf(j->why, sizeof j->why, "sssp from %d: distances differ", j->id);
    }
    /* a product on the same matrix replaces nothing under the others */
    gsp_vector u = NULL, w = NULL;
    gsp_desc dd = {.backend = GSP_BACKEND_CUDA};
    if (gsp_vector_new(&u, GSP_INT64, N) || gsp_vector_new(&w, GSP_INT64, N) ||
        gsp_vector_set_element(u, (gsp_index)j->id, &(int64_t){0}) ||
        gsp_vxm(w, NULL, GSP_NOOP, GSP_MIN_PLUS, u, j->A, &dd)) {
      j->failures++;
      snprintf(j->why, sizeof j->why, "vxm: %s", gsp_last_error());
    }
    gsp_vector_free(&u);
    gsp_vector_free(&w);
  }
  return NULL;
}

static gsp_matrix make(bool dense) {
  gsp_matrix A = NULL;
  GSP_OK(gsp_generate_random(&A, GSP_INT64, N, 8 * N, 1, 100, 5));
  if (!dense) return A;
  int64_t *x = malloc(sizeof *x * (size_t)N * N);
  const int64_t none = INT64_MAX;
  GSP_OK(gsp_matrix_export_dense(x, &none, A));
  gsp_matrix_free(&A);
  GSP_OK(gsp_matrix_import_dense(&A, GSP_INT64, N, N, x, &none));
  free(x);
  return A;
}

static void six_threads(bool dense) {
  GSP_TEST_GPU_OR_SKIP();
  int64_t *expect = malloc(sizeof *expect * NT * N);
  gsp_matrix A = make(dense);
  for (int t = 0; t < NT; t++) {
    gsp_sssp_opts so = {.backend = GSP_BACKEND_CPU};
    gsp_vector d = NULL;
    GSP_OK(gsp_sssp(&d, NULL, A, (gsp_index)t, &so));
    distances(expect + (size_t)t * N, d);
    gsp_vector_free(&d);
  }
  gsp_matrix_free(&A);
  for (int round = 0; round < 4; round++) {
    gsp_matrix shared = make(dense);
    pthread_barrier_t go;
    pthread_barrier_init(&go, NULL, NT);
    pthread_t th[NT];
    job jobs[NT];
    for (int t = 0; t < NT; t++) {
      jobs[t] = (job){.A = shared, .go = &go, .id = t, .expect = expect};
      cr_assert_eq(pthread_create(&th[t], NULL, run, &jobs[t]), 0);
    }
    for (int t = 0; t < NT; t++) pthread_join(th[t], NULL);
    pthread_barrier_destroy(&go);
    for (int t = 0; t < NT; t++)
      cr_assert_eq(jobs[t].failures, 0, "%s, round %d, thread %d: %s", dense ? "dense" : "CSR", round, t, jobs[t].why);
    gsp_matrix_free(&shared);
  }
  free(expect);
}

Test(cuda_threads, six_threads_on_one_csr_matrix, .timeout = 600) {
  six_threads(false);
}
Test(cuda_threads, six_threads_on_one_dense_matrix, .timeout = 600) {
  six_threads(true);
}
