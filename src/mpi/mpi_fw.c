/*
 * The distributed blocked Floyd-Warshall. Tile (I, J) of the nb x nb tile
 * grid lives on grid position (I mod pr, J mod pc) as local tile
 * (I / pr, J / pc). Round K does what round K of fw_blocked
 * (closure_cpu_fw_body.h) does, with the same tile kernels on the same
 * operands, so every value is computed by the same operations in the same
 * order as in gsp_closure:
 *   1. the owner of (K, K) closes it and checks its diagonal for a cycle;
 *      the closed tile and the verdict go to every rank (one broadcast of
 *      one tile: small next to the panels, and it spares a second
 *      collective for the verdict);
 *   2. the ranks of grid row K mod pr update their tiles of row K, those
 *      of grid column K mod pc their tiles of column K (in place);
 *   3. each grid column receives its part of row K from grid row K mod pr,
 *      each grid row its part of column K from grid column K mod pc;
 *   4. every rank updates each of its other tiles (I, J) with
 *      (I, K) (x) (K, J).
 * Block-cyclic dealing keeps every rank busy in every round, where plain
 * 2D blocks would leave the ranks of finished rows and columns idle.
 */
#include <omp.h>

#include "mpi_internal.h"

#define TILE(g, li, lj) ((g)->loc + (size_t)((li) * (g)->lc + (lj)) * (g)->tbytes)

/* Step 2 of round K: the tiles of row K (on grid row K mod pr) and of
 * column K (on grid column K mod pc) updated in place with the closed
 * diagonal tile D. */
static void update_panels(mpi_grid *g, const unsigned char *D, int64_t K, int nth) {
  const gsp__fw_tiles k = g->k;
  const int64_t lr = g->lr, lc = g->lc, pr = g->pr, pc = g->pc;
  const bool prow = g->myr == (int)(K % pr), pcol = g->myc == (int)(K % pc);
  const int64_t lk = K / pr, lkc = K / pc;
  const int64_t np2 = (prow ? lc : 0) + (pcol ? lr : 0);
#pragma omp parallel for num_threads(nth) schedule(dynamic, 1) if (np2 > 1)
  for (int64_t p = 0; p < np2; p++) {
    if (prow && p < lc) {
      if (p * pc + g->myc == K) continue;
      unsigned char *T = TILE(g, lk, p);
      k.update(T, D, T, TB);
    } else {
      const int64_t li = p - (prow ? lc : 0);
      if (li * pr + g->myr == K) continue;
      unsigned char *T = TILE(g, li, lkc);
      k.update(T, T, D, TB);
    }
  }
}

/* M* = I + M+: the diagonal tiles get the semiring one on the diagonal. */
static void add_identity(mpi_grid *g) {
  const gsp__fw_tiles k = g->k;
  for (int64_t li = 0; li < g->lr; li++) {
    for (int64_t lj = 0; lj < g->lc; lj++) {
      const int64_t I = li * g->pr + g->myr;
      if (I == lj * g->pc + g->myc) k.reflexive(TILE(g, li, lj), TB, g->n - I * TB);
    }
  }
}

gsp_info mpi_fw_run(mpi_grid *g, bool reflexive, bool *cycle, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  unsigned char *D = NULL, *R = NULL, *C = NULL;
#define GSP_FREE_ALL (gsp__free(D), gsp__free(R), gsp__free(C))
  const size_t tb = g->tbytes;
  const int64_t lr = g->lr, lc = g->lc, pr = g->pr, pc = g->pc;
  *cycle = false;
  /* D: the closed diagonal tile and the cycle verdict after it */
  D = gsp__malloc_array(1, tb + sizeof(int));
  R = gsp__malloc_array((size_t)(lc > 0 ? lc : 1), tb);
  C = gsp__malloc_array((size_t)(lr > 0 ? lr : 1), tb);
  if (!D || !R || !C)
    info = GSP_ERROR(GSP_OUT_OF_MEMORY, "%s: cannot allocate the panels of %lld + %lld tiles", fn, (long long)lr,
                     (long long)lc);
  GSP_TRY(mpi_agree(info, g->comm, fn));

  int nth = 0;
  gsp_get_threads(&nth);
  if (nth < 1) nth = omp_get_max_threads();
  const gsp__fw_tiles k = g->k;
  for (int64_t K = 0; K < g->nb; K++) {
    const int pk = (int)(K % pr), qk = (int)(K % pc);
    const int64_t lk = K / pr, lkc = K / pc;
    const bool prow = g->myr == pk, pcol = g->myc == qk;
    const int owner = pk * g->pc + qk;
    /* 1. the diagonal tile */
    if (g->rank == owner) {
      unsigned char *T = TILE(g, lk, lkc);
      k.diag(T, TB);
      const int flag = k.cycle(T, TB);
      memcpy(D, T, tb);
      memcpy(D + tb, &flag, sizeof flag);
    }
    mpi_bcast_bytes(D, tb + sizeof(int), owner, g->comm);
    int flag;
    memcpy(&flag, D + tb, sizeof flag);
    if (flag) { /* as fw_blocked: stop at the first tile that shows it */
      *cycle = true;
      break;
    }
    /* 2. the pivot row and column panels, in place */
    update_panels(g, D, K, nth);
    /* 3. the panels to the ranks that need them. Row K of this grid column
     * is contiguous on its owner and goes out from the tiles themselves
     * (phase 4 never writes row K); column K is packed first. */
    const unsigned char *rowp = prow ? TILE(g, lk, 0) : R;
    if (lc > 0) mpi_bcast_bytes(prow ? TILE(g, lk, 0) : R, (size_t)lc * tb, pk, g->col);
    if (lr > 0) {
      if (pcol)
        for (int64_t li = 0; li < lr; li++) memcpy(C + (size_t)li * tb, TILE(g, li, lkc), tb);
      mpi_bcast_bytes(C, (size_t)lr * tb, qk, g->row);
    }
    /* 4. every other tile */
#pragma omp parallel for collapse(2) num_threads(nth) schedule(static)
    for (int64_t li = 0; li < lr; li++) {
      for (int64_t lj = 0; lj < lc; lj++) {
        if (li * pr + g->myr == K || lj * pc + g->myc == K) continue;
        k.update(TILE(g, li, lj), C + (size_t)li * tb, rowp + (size_t)lj * tb, TB);
      }
    }
  }
  if (!*cycle && reflexive) add_identity(g);
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
