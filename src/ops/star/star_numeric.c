/*
 * The numeric factorization of the sparse star (star.h): supernodes in
 * elimination order, each closing its diagonal block, scaling its lower
 * panel and handing its update block to its parent (multifrontal
 * extend-add by the relative indices of the symbolic analysis). The
 * arithmetic is in star_kernels_body.h.
 */
#include <string.h>

#include "star.h"

gsp_info gsp__star_factor(void *x, const gsp__star_kernels *k, const gsp__star_symbolic *S,
                          const struct gsp_matrix_s *G, int nthreads, int64_t *bad) {
  gsp_info info = GSP_SUCCESS;
  void **upd = NULL, *work = NULL;
  const int64_t ns = S->nsuper;
#define GSP_FREE_ALL                                      \
  do {                                                    \
    if (upd)                                              \
      for (int64_t q = 0; q < ns; q++) gsp__free(upd[q]); \
    gsp__free(upd);                                       \
    gsp__free(work);                                      \
  } while (0)
  (void)nthreads;
  k->fill_zero(x, S->nvals);
  k->assemble(x, S->arc_at, G->x, S->m);
  GSP_ALLOC(upd, ns > 0 ? (size_t)ns : 1, sizeof *upd);
  memset(upd, 0, (ns > 0 ? (size_t)ns : 1) * sizeof *upd);
  const size_t wcells = (size_t)S->max_ns * (size_t)(S->max_ns + S->max_nr);
  GSP_ALLOC(work, wcells > 0 ? wcells : 1, k->esize);
  for (int64_t s = 0; s < ns; s++) {
    const int64_t nr = S->rp[s + 1] - S->rp[s];
    /* s's update block, made by its first child or here */
    if (!upd[s] && nr > 0) {
      GSP_ALLOC(upd[s], (size_t)(nr * nr), k->esize);
      k->fill_zero(upd[s], nr * nr);
    }
    int64_t kb = 0;
    info = k->factor(x, upd[s], S, s, work, &kb);
    if (info == GSP_NEGATIVE_CYCLE) *bad = S->perm[S->super[s] + kb];
    GSP_TRY(info);
    if (nr == 0) continue;
    const int64_t p = S->parent[s], pnr = S->rp[p + 1] - S->rp[p];
    if (!upd[p] && pnr > 0) {
      GSP_ALLOC(upd[p], (size_t)(pnr * pnr), k->esize);
      k->fill_zero(upd[p], pnr * pnr);
    }
    k->extend_add(x, upd[p], upd[s], S, s);
    GSP_FREE(upd[s]);
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
