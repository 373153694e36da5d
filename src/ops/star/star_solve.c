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

gsp_info gsp__star_solve(void *out, const gsp__star_kernels *k, const gsp__star_symbolic *S, const void *x,
                         const int64_t *v, int64_t nv, bool col, int nthreads) {
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
    k->unpack(out, Wt, S->iperm, n, row, nb);
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
