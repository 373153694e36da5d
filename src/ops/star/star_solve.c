/*
 * Rows and columns of A* from the sparse star's factor (star.h): blocks of
 * STAR_B right-hand sides, one block per thread at a time, each in its own
 * vertex-major work array. The right-hand sides are taken in elimination
 * order, so a block's vertices share most of their path up the tree and
 * the forward pass touches few supernodes; each lane's result goes to its
 * caller's row.
 */
#include <stdlib.h>
#include <string.h>
#include <omp.h>

#include "star.h"

typedef struct {
  int64_t pos, row; /* a right-hand side's position, and its output row */
} star_rhs;

static int by_pos(const void *a, const void *b) {
  const star_rhs *x = a, *y = b;
  return x->pos < y->pos ? -1 : x->pos > y->pos ? 1 : (x->row > y->row) - (x->row < y->row);
}

gsp_info gsp__star_solve_each(const gsp__star_kernels *k, const gsp__star_symbolic *S, const void *x, const int64_t *v,
                              int64_t nv, bool col, int nthreads, gsp__star_block_fn fn, void *ctx) {
  gsp_info info = GSP_SUCCESS;
  star_rhs *rhs = NULL;
  char *W = NULL, *work = NULL;
  uint8_t *active = NULL;
#define GSP_FREE_ALL (gsp__free(rhs), gsp__free(W), gsp__free(work), gsp__free(active))
  const int64_t n = S->n, nblocks = (nv + STAR_B - 1) / STAR_B;
  if (nv == 0) return GSP_SUCCESS;
  int nt = nthreads > 0 ? nthreads : 1;
  if (nt > nblocks) nt = (int)nblocks;
  const size_t wbytes = (size_t)n * STAR_B * k->esize,
               kbytes = (size_t)(S->max_ns > 0 ? S->max_ns : 1) * STAR_B * k->esize;
  const size_t abytes = (size_t)(S->nsuper > 0 ? S->nsuper : 1);
  GSP_ALLOC(rhs, (size_t)nv, sizeof *rhs);
  GSP_ALLOC(W, (size_t)nt, wbytes);
  GSP_ALLOC(work, (size_t)nt, kbytes);
  GSP_ALLOC(active, (size_t)nt, abytes);
  for (int64_t i = 0; i < nv; i++) rhs[i] = (star_rhs){.pos = S->iperm[v[i]], .row = i};
  qsort(rhs, (size_t)nv, sizeof *rhs, by_pos);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
  for (int64_t b = 0; b < nblocks; b++) {
    const int t = omp_get_thread_num();
    void *Wt = W + (size_t)t * wbytes;
    uint8_t *act = active + (size_t)t * abytes;
    const int64_t nb = nv - b * STAR_B < STAR_B ? nv - b * STAR_B : STAR_B;
    int64_t pos[STAR_B], row[STAR_B];
    memset(act, 0, abytes);
    for (int64_t i = 0; i < nb; i++) {
      pos[i] = rhs[b * STAR_B + i].pos;
      row[i] = rhs[b * STAR_B + i].row;
      for (int64_t s = S->col_super[pos[i]]; s >= 0 && !act[s]; s = S->parent[s]) act[s] = 1;
    }
    k->unit(Wt, n, pos, nb);
    k->solve(Wt, x, S, act, col, work + (size_t)t * kbytes);
    const gsp_info e = fn(ctx, Wt, row, nb, t);
    if (e < 0) {
#pragma omp critical(gsp_star_solve)
      if (info >= 0) info = e;
    }
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

typedef struct {
  void *out;
  const gsp__star_kernels *k;
  const gsp__star_symbolic *S;
} unpack_ctx;

static gsp_info unpack_block(void *ctx, const void *W, const int64_t *row, int64_t nb, int thread) {
  const unpack_ctx *c = ctx;
  (void)thread;
  c->k->unpack(c->out, W, c->S->iperm, c->S->n, row, nb);
  return GSP_SUCCESS;
}

gsp_info gsp__star_solve(void *out, const gsp__star_kernels *k, const gsp__star_symbolic *S, const void *x,
                         const int64_t *v, int64_t nv, bool col, int nthreads) {
  unpack_ctx c = {.out = out, .k = k, .S = S};
  return gsp__star_solve_each(k, S, x, v, nv, col, nthreads, unpack_block, &c);
}
