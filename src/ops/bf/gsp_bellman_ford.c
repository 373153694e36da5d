/*
 * gsp_bellman_ford, gsp_negative_cycle and the Johnson potentials
 * (gsp__bf_potentials): checks, backend choice, the saturation re-check,
 * and the results. Outputs are built aside and handed out only on success.
 */
#include <stdio.h>
#include <string.h>

#include "bellman_ford.h"
#include "gsp_ops.h"
#include "sssp_prepare.h"
#include "gsp_cuda_plugin.h"

gsp_info gsp__bf_prepare(gsp__sssp_graph *g, struct gsp_matrix_s *A, gsp_backend backend, const char *fn) {
  return gsp__sssp_prepare_graph(g, A, false, 0, 1.0, true, backend, fn);
}

/* Whether an integer distance reached the type's minimum (sums clamp
 * there, which can hide a negative cycle). */
static bool saturated(const void *d, const gsp__sssp_graph *g) {
  const int64_t n = g->n;
  int64_t hit = 0;
  const int nt = g->nthreads;
  if (g->t == GSP_INT32) {
    const int32_t *x = d;
#pragma omp parallel for num_threads(nt) schedule(static) reduction(+ : hit) if (n > 65536)
    for (int64_t v = 0; v < n; v++) hit += x[v] == INT32_MIN;
  } else if (g->t == GSP_INT64) {
    const int64_t *x = d;
#pragma omp parallel for num_threads(nt) schedule(static) reduction(+ : hit) if (n > 65536)
    for (int64_t v = 0; v < n; v++) hit += x[v] == INT64_MIN;
  }
  return hit > 0;
}

/*
 * One Bellman-Ford run from src[0..nsrc): d (n values of A's type), parent
 * (may be NULL) by the tree rule. GSP_NEGATIVE_CYCLE without a message, with
 * the cycle in cycle[0..*clen) (room for n), when one is reachable. *ran:
 * the backend that ran it.
 */
static gsp_info bf_solve(const char *fn, void *d, int64_t *parent, int64_t *cycle, int64_t *clen,
                         const gsp__sssp_graph *g, struct gsp_matrix_s *A, const int64_t *src, int64_t nsrc,
                         gsp_backend requested, gsp_backend *ran) {
  gsp_info info = GSP_SUCCESS;
  int64_t *pred = NULL, *scratch = NULL;
#define GSP_FREE_ALL (gsp__free(pred), gsp__free(scratch))
  bool taken = false;
  gsp__backend_choice be;
  *clen = 0;
  GSP_TRY(gsp__backend_pick(&be, requested, true, fn));
  if (be.gpu) {
    /* the GPU returns the parent graph that shows a cycle; the cycle is
     * picked out here, by the CPU's routine */
    const size_t n1 = (size_t)g->n + 1;
    GSP_ALLOC(pred, n1, sizeof *pred);
    const gsp_cuda_arrays csr = gsp__matrix_cuda_arrays(g->csr);
    const gsp__cuda_api *cu;
    GSP_TRY(gsp__cuda_get(&cu, fn));
    info = cu->bf(d, parent, pred, &csr, src, nsrc, &g->lim, &taken);
    if (info == GSP_NEGATIVE_CYCLE) {
      GSP_ALLOC(scratch, n1, sizeof *scratch);
      *clen = gsp__bf_find_cycle(cycle, pred, g->n, scratch);
      GSP_CHECK(*clen > 0, GSP_PANIC, "%s: the GPU reported a cycle its parent graph does not hold", fn);
      GSP_FREE_ALL;
      return GSP_NEGATIVE_CYCLE;
    }
    GSP_TRY(info);
    gsp__free(pred);
    pred = NULL;
    if (!taken) GSP_TRY(gsp__backend_declined(&be, fn));
  }
  *ran = taken ? GSP_BACKEND_CUDA : GSP_BACKEND_CPU;
  if (!taken) {
    int64_t rounds = 0;
    info = gsp__bf_cpu(d, g, src, nsrc, cycle, clen, &rounds);
    if (info == GSP_NEGATIVE_CYCLE) return info;
    GSP_TRY(info);
  }
  if (saturated(d, g)) {
    GSP_TRY(gsp__bf_exact_cycle(g, src, nsrc, cycle, clen));
    if (*clen > 0) return GSP_NEGATIVE_CYCLE;
  }
  if (!taken && parent) GSP_TRY(gsp__sssp_cpu_tree(parent, NULL, d, g, src, nsrc, false));
#undef GSP_FREE_ALL
  return info;
}

/* "3 vertices: 4 -> 7 -> 2 -> 4" (the first few, then "..."). */
static void cycle_text(char *buf, size_t cap, const int64_t *cycle, int64_t len) {
  int at = snprintf(buf, cap, "%lld vertices: ", (long long)len);
  for (int64_t k = 0; k <= len && at > 0 && (size_t)at < cap; k++) {
    if (k == 8 && len > 8) {
      at += snprintf(buf + at, cap - (size_t)at, "...");
      break;
    }
    at += snprintf(buf + at, cap - (size_t)at, k ? " -> %lld" : "%lld", (long long)cycle[k % len]);
  }
}

/* All vertices as sources: the virtual source of Johnson's algorithm. */
static gsp_info all_sources(int64_t **src, int64_t n) {
  gsp_info info = GSP_SUCCESS;
  int64_t *s = NULL;
#define GSP_FREE_ALL
  GSP_ALLOC(s, n > 0 ? n : 1, sizeof *s);
  for (int64_t v = 0; v < n; v++) s[v] = v;
  *src = s;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_bellman_ford(gsp_vector *dist, gsp_vector *parent, const gsp_matrix A, gsp_index src,
                          const gsp_bf_opts *opts) {
  static const char fn[] = "gsp_bellman_ford";
  gsp_info info = GSP_SUCCESS;
  struct gsp_vector_s *D = NULL, *P = NULL;
  int64_t *cycle = NULL;
#define GSP_FREE_ALL (gsp__vector_destroy(D), gsp__vector_destroy(P), gsp__free(cycle))
  GSP_CHECK(dist != NULL, GSP_NULL_POINTER, "%s: dist is NULL", fn);
  GSP_OUTPUTS(fn, {dist, sizeof *dist, "dist"}, {parent, sizeof *parent, "parent"});
  GSP_TRY(gsp__check_matrix(A, fn, "A"));
  GSP_CHECK(src < (gsp_index)A->nrows || A->nrows != A->ncols, GSP_INVALID_INDEX,
            "%s: source %llu out of range 0..%lld", fn, (unsigned long long)src, (long long)A->nrows - 1);
  const gsp_bf_opts o = opts ? *opts : (gsp_bf_opts){0};
  gsp__sssp_graph g;
  GSP_TRY(gsp__bf_prepare(&g, A, o.backend, fn));
  const int64_t n = g.n, s = (int64_t)src;
  GSP_TRY(gsp__ops_vector_new(&D, g.t, n, fn));
  if (parent) GSP_TRY(gsp__ops_vector_new(&P, GSP_INT64, n, fn));
  GSP_ALLOC(cycle, n, sizeof *cycle);
  int64_t clen = 0;
  gsp_backend ran = GSP_BACKEND_CPU;
  info = bf_solve(fn, D->x, P ? (int64_t *)P->x : NULL, cycle, &clen, &g, A, &s, 1, o.backend, &ran);
  if (info == GSP_NEGATIVE_CYCLE) {
    char text[256];
    cycle_text(text, sizeof text, cycle, clen);
    GSP_CHECK(false, GSP_NEGATIVE_CYCLE, "%s: a negative cycle is reachable from source %lld (%s)", fn, (long long)s,
              text);
  }
  GSP_TRY(info);

  D->nvals = gsp__sssp_mark(D->b, D->x, n, &g);
  gsp__ops_vector_done(D);
  if (P) {
    const int64_t *x = P->x;
    for (int64_t v = 0; v < n; v++) P->b[v] = x[v] >= 0;
    gsp__ops_vector_done(P);
  }
  info = gsp__sssp_publish_vectors(D, P, NULL);
  if (info < 0) {
    D = P = NULL; /* destroyed by the publish */
    GSP_FREE_ALL;
    return info;
  }
  *dist = D;
  if (parent) *parent = P;
  if (o.advanced && o.advanced->report)
    *o.advanced->report = (gsp_run_report){.backend = ran, .gpus = ran == GSP_BACKEND_CUDA};
  gsp__free(cycle);
#undef GSP_FREE_ALL
  return GSP_SUCCESS;
}

/* Bellman-Ford from a virtual source (every vertex at 0) on A: d (dbytes,
 * n values of A's type) and the cycle (room for n) are allocated here and
 * freed by pot_free, whatever the outcome; GSP_NEGATIVE_CYCLE with the
 * cycle in cycle[0 .. clen). */
typedef struct {
  void *d;
  int64_t *cycle, clen;
  size_t dbytes;
  gsp_backend ran;
} bf_pot;

static void pot_free(bf_pot *p) {
  gsp__free(p->d);
  gsp__free(p->cycle);
}

static gsp_info potentials(bf_pot *p, struct gsp_matrix_s *A, gsp_backend backend, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  int64_t *src = NULL;
#define GSP_FREE_ALL gsp__free(src)
  gsp__sssp_graph g;
  GSP_TRY(gsp__bf_prepare(&g, A, backend, fn));
  const int64_t n = g.n;
  p->dbytes = (size_t)n * gsp_type_size(g.t);
  GSP_ALLOC(p->d, n > 0 ? n : 1, gsp_type_size(g.t));
  GSP_ALLOC(p->cycle, n > 0 ? n : 1, sizeof *p->cycle);
  GSP_TRY(all_sources(&src, n));
  info = bf_solve(fn, p->d, NULL, p->cycle, &p->clen, &g, A, src, n, backend, &p->ran);
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_negative_cycle(gsp_index *cycle, gsp_index *len, const gsp_matrix A, const gsp_bf_opts *opts) {
  static const char fn[] = "gsp_negative_cycle";
  gsp_info info = GSP_SUCCESS;
  bf_pot p = {0};
#define GSP_FREE_ALL pot_free(&p)
  GSP_CHECK(len != NULL, GSP_NULL_POINTER, "%s: len is NULL", fn);
  GSP_CHECK(cycle != NULL || *len == 0, GSP_NULL_POINTER, "%s: cycle is NULL with capacity %llu", fn,
            (unsigned long long)*len);
  GSP_OUTPUTS(fn, {cycle, *len > SIZE_MAX / sizeof *cycle ? SIZE_MAX : *len * sizeof *cycle, "cycle"},
              {len, sizeof *len, "len"});
  const gsp_bf_opts o = opts ? *opts : (gsp_bf_opts){0};
  info = potentials(&p, A, o.backend, fn);
  if ((info == GSP_SUCCESS || info == GSP_NEGATIVE_CYCLE) && o.advanced && o.advanced->report)
    *o.advanced->report =
        (gsp_run_report){.backend = p.ran, .gpus = p.ran == GSP_BACKEND_CUDA}; /* a cycle: the answer */
  if (info == GSP_SUCCESS) {
    GSP_FREE_ALL;
    return GSP_NO_VALUE;
  }
  if (info != GSP_NEGATIVE_CYCLE) {
    GSP_FREE_ALL;
    return info;
  }
  const int64_t clen = p.clen;
  if (*len < (gsp_index)clen) {
    const gsp_index have = *len;
    *len = (gsp_index)clen;
    GSP_FREE_ALL;
    return GSP_ERROR(GSP_INSUFFICIENT_SPACE, "%s: the cycle has %lld vertices, room for %llu", fn, (long long)clen,
                     (unsigned long long)have);
  }
  for (int64_t k = 0; k < clen; k++) cycle[k] = (gsp_index)p.cycle[k];
  *len = (gsp_index)clen;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return GSP_SUCCESS;
}

gsp_info gsp__bf_potentials(void *h, struct gsp_matrix_s *A, gsp_backend backend, int64_t *cycle, int64_t *cycle_len) {
  static const char fn[] = "Johnson's potentials (Bellman-Ford)";
  gsp_info info = GSP_SUCCESS;
  bf_pot p = {0};
#define GSP_FREE_ALL pot_free(&p)
  GSP_CHECK(h != NULL, GSP_NULL_POINTER, "%s: h is NULL", fn);
  info = potentials(&p, A, backend, fn);
  if (info == GSP_NEGATIVE_CYCLE) {
    if (cycle && cycle_len) {
      memcpy(cycle, p.cycle, (size_t)p.clen * sizeof *cycle);
      *cycle_len = p.clen;
    }
    char text[256];
    cycle_text(text, sizeof text, p.cycle, p.clen);
    GSP_CHECK(false, GSP_NEGATIVE_CYCLE, "%s: A has a negative cycle (%s)", fn, text);
  }
  GSP_TRY(info);
  memcpy(h, p.d, p.dbytes);
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
