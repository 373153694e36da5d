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

void gsp__star_ws_free(gsp__star_ws *ws) {
  if (!ws) return;
  gsp__free(ws->W);
  gsp__free(ws->work);
  gsp__free(ws->active);
  memset(ws, 0, sizeof *ws);
}

gsp_info gsp__star_ws_make(gsp__star_ws *ws, const gsp__star_kernels *k, const gsp__star_symbolic *S, int nthreads) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL gsp__star_ws_free(ws)
  memset(ws, 0, sizeof *ws);
  ws->nt = nthreads > 0 ? nthreads : 1;
  ws->wbytes = (size_t)S->n * STAR_B * k->esize;
  ws->kbytes = (size_t)(S->max_ns > 0 ? S->max_ns : 1) * STAR_B * k->esize;
  ws->abytes = (size_t)(S->nsuper > 0 ? S->nsuper : 1);
  GSP_ALLOC(ws->W, (size_t)ws->nt, ws->wbytes > 0 ? ws->wbytes : 1);
  GSP_ALLOC(ws->work, (size_t)ws->nt, ws->kbytes);
  GSP_ALLOC(ws->active, (size_t)ws->nt, ws->abytes);
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__star_solve_each(const gsp__star_kernels *k, const gsp__star_symbolic *S, const void *x, const int64_t *v,
                              int64_t nv, bool col, const gsp__star_ws *ws, gsp__star_block_fn fn, void *ctx) {
  gsp_info info = GSP_SUCCESS;
  star_rhs *rhs = NULL;
#define GSP_FREE_ALL gsp__free(rhs)
  const int64_t n = S->n, nblocks = (nv + STAR_B - 1) / STAR_B;
  if (nv == 0) return GSP_SUCCESS;
  const int nt = ws->nt < nblocks ? ws->nt : (int)nblocks;
  GSP_ALLOC(rhs, (size_t)nv, sizeof *rhs);
  for (int64_t i = 0; i < nv; i++) rhs[i] = (star_rhs){.pos = S->iperm[v[i]], .row = i};
  qsort(rhs, (size_t)nv, sizeof *rhs, by_pos);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1)
  for (int64_t b = 0; b < nblocks; b++) {
    const int t = omp_get_thread_num();
    char *Wt = ws->W + (size_t)t * ws->wbytes;
    uint8_t *act = ws->active + (size_t)t * ws->abytes;
    const int64_t nb = nv - b * STAR_B < STAR_B ? nv - b * STAR_B : STAR_B;
    int64_t pos[STAR_B], row[STAR_B];
    memset(act, 0, ws->abytes);
    for (int64_t i = 0; i < nb; i++) {
      pos[i] = rhs[b * STAR_B + i].pos;
      row[i] = rhs[b * STAR_B + i].row;
      for (int64_t s = S->col_super[pos[i]]; s >= 0 && !act[s]; s = S->parent[s]) act[s] = 1;
    }
    k->unit(Wt, n, pos, nb);
    k->solve(Wt, x, S, act, col, ws->work + (size_t)t * ws->kbytes);
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
                         const int64_t *v, int64_t nv, bool col, const gsp__star_ws *ws) {
  unpack_ctx c = {.out = out, .k = k, .S = S};
  return gsp__star_solve_each(k, S, x, v, nv, col, ws, unpack_block, &c);
}
