/*
 * The numeric factorization of the sparse star (star.h): every supernode
 * closes its diagonal block, scales its lower panel and leaves its update
 * block for its parent, which adds its children's blocks into its front
 * (multifrontal extend-add by the relative indices of the symbolic
 * analysis) before its own turn. Independent subtrees run as OpenMP tasks;
 * the arithmetic is in star_kernels_body.h.
 */
#include <stdio.h>
#include <string.h>
#include <omp.h>

#include "bellman_ford.h"
#include "star.h"

typedef struct {
  void *x;
  const gsp__star_kernels *k;
  const gsp__star_symbolic *S;
  int64_t *child, *next; /* children lists: first child, next sibling */
  int64_t *pending;      /* children not yet done */
  void **upd;            /* each supernode's update block, until its parent takes it */
  char *work;            /* a scratch per thread */
  size_t wbytes;
  gsp_info info; /* the first error */
  int64_t bad;   /* its vertex, for a cycle */
} factor_ctx;

static void fail(factor_ctx *c, gsp_info e, int64_t bad) {
#pragma omp critical(gsp_star_factor)
  if (c->info >= 0) c->info = e, c->bad = bad;
}

/* Supernode s, once its children are done: their update blocks into its
 * front, then its own factorization. */
static bool one(factor_ctx *c, int64_t s) {
  const gsp__star_symbolic *S = c->S;
  const int64_t nr = S->rp[s + 1] - S->rp[s];
  void *C = NULL;
  if (nr > 0) {
    C = gsp__malloc_array((size_t)(nr * nr), c->k->esize);
    if (!C) {
      fail(c,
           GSP_ERROR(GSP_OUT_OF_MEMORY, "gsp_star: cannot allocate a %lld x %lld update block", (long long)nr,
                     (long long)nr),
           -1);
      return false;
    }
    c->k->fill_zero(C, nr * nr);
  }
  for (int64_t ch = c->child[s]; ch >= 0; ch = c->next[ch]) {
    c->k->extend_add(c->x, C, c->upd[ch], S, ch);
    GSP_FREE(c->upd[ch]);
  }
  int64_t kb = 0;
  const gsp_info info = c->k->factor(c->x, C, S, s, c->work + (size_t)omp_get_thread_num() * c->wbytes, &kb);
  if (info < 0) {
    gsp__free(C);
    fail(c, info, info == GSP_NEGATIVE_CYCLE ? S->perm[S->super[s] + kb] : -1);
    return false;
  }
  c->upd[s] = C;
  return true;
}

/* From leaf s up the tree: the child that finishes last goes on with its
 * parent, so no task waits and no recursion grows with the tree's depth. */
static void climb(factor_ctx *c, int64_t s) {
  for (;;) {
    gsp_info failed;
#pragma omp atomic read
    failed = c->info;
    if (failed < 0 || !one(c, s)) return;
    const int64_t p = c->S->parent[s];
    if (p < 0) return;
    int64_t left;
#pragma omp atomic capture seq_cst
    left = --c->pending[p];
    if (left > 0) return;
    s = p;
  }
}

/* The message of a cycle the elimination found at vertex bad: a negative
 * one is listed by Bellman-Ford (as gsp_apsp's other algorithms name it),
 * a positive one (MAX_PLUS) by that vertex. */
static gsp_info cycle_error(const gsp__star_kernels *k, const struct gsp_matrix_s *G, int64_t bad, const char *fn) {
  const int64_t n = G->nrows;
  void *h = k->sr == GSP_MIN_PLUS ? gsp__malloc_array((size_t)n, k->esize) : NULL;
  int64_t *cyc = h ? gsp__malloc_array((size_t)n, sizeof *cyc) : NULL, len = 0;
  if (!cyc || gsp__bf_potentials(h, (struct gsp_matrix_s *)G, GSP_BACKEND_CPU, cyc, &len) != GSP_NEGATIVE_CYCLE)
    len = 0;
  char buf[256];
  int at = 0;
  for (int64_t i = 0; i < len && i < 12; i++)
    at += snprintf(buf + at, sizeof buf - (size_t)at, "%lld -> ", (long long)cyc[i]);
  if (len > 0) snprintf(buf + at, sizeof buf - (size_t)at, "%s%lld", len > 12 ? "... -> " : "", (long long)cyc[0]);
  gsp__free(h), gsp__free(cyc);
  if (len > 0)
    return GSP_ERROR(GSP_NEGATIVE_CYCLE,
                     "%s: the graph has a negative cycle, %s (%lld arcs; found by the sparse star's "
                     "elimination)",
                     fn, buf, (long long)len);
  return GSP_ERROR(GSP_NEGATIVE_CYCLE, "%s: the graph has a %s cycle through vertex %lld", fn,
                   k->sr == GSP_MAX_PLUS ? "positive" : "negative", (long long)bad);
}

gsp_info gsp__star_factor(void *x, const gsp__star_kernels *k, const gsp__star_symbolic *S,
                          const struct gsp_matrix_s *G, int nthreads, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  const int64_t ns = S->nsuper;
  const int nt = nthreads > 0 ? nthreads : 1;
  factor_ctx c = {.x = x, .k = k, .S = S, .info = GSP_SUCCESS, .bad = -1};
#define GSP_FREE_ALL                                         \
  do {                                                       \
    if (c.upd)                                               \
      for (int64_t q = 0; q < ns; q++) gsp__free(c.upd[q]);  \
    gsp__free(c.upd), gsp__free(c.work), gsp__free(c.child); \
    gsp__free(c.next), gsp__free(c.pending);                 \
  } while (0)
  k->fill_zero(x, S->nvals);
  k->assemble(x, S->arc_at, G->x, S->m);
  const size_t n1 = ns > 0 ? (size_t)ns : 1;
  GSP_ALLOC(c.upd, n1, sizeof *c.upd);
  memset(c.upd, 0, n1 * sizeof *c.upd);
  GSP_ALLOC(c.child, n1, sizeof *c.child);
  GSP_ALLOC(c.next, n1, sizeof *c.next);
  GSP_ALLOC(c.pending, n1, sizeof *c.pending);
  c.wbytes = (size_t)S->max_ns * (size_t)(S->max_ns + S->max_nr) * k->esize + 64;
  GSP_ALLOC(c.work, (size_t)nt, c.wbytes);
  /* children lists (ascending), and how many each supernode waits for */
  for (int64_t s = 0; s < ns; s++) c.child[s] = -1, c.pending[s] = 0;
  for (int64_t s = ns - 1; s >= 0; s--) {
    const int64_t p = S->parent[s];
    if (p >= 0) c.next[s] = c.child[p], c.child[p] = s, c.pending[p]++;
  }
  /* a task from every leaf; small leaves would cost more to schedule than
   * to factor, but the climb from a leaf does its ancestors' work too */
#pragma omp parallel num_threads(nt)
#pragma omp single
  for (int64_t s = 0; s < ns; s++) {
    if (c.child[s] >= 0) continue;
#pragma omp task default(shared) firstprivate(s)
    climb(&c, s);
  }
  info = c.info == GSP_NEGATIVE_CYCLE ? cycle_error(k, G, c.bad, fn) : c.info;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
