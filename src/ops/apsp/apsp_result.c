/*
 * gsp_apsp's result (apsp.h, "the call"): the arrays the rows are computed
 * into, and the commit that makes them the result matrices.
 */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise (huge pages for fresh n^2 arrays) */
#endif
#include <string.h>

#include "apsp.h"
#include "dense_pass.h"
#include "sssp_prepare.h"

/* New unpublished dense rows x n matrix of type t owning *x; entries equal
 * to *absent are marked absent, unless b and *b give the presence flags
 * (nvals of them set). *x and *b are consumed. */
static gsp_info dense_result(struct gsp_matrix_s **out, gsp_type t, int64_t rows, int64_t n, void **x,
                             const void *absent, uint8_t **b, int64_t nvals) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *M = NULL;
#undef GSP_FREE_ALL
#define GSP_FREE_ALL gsp__matrix_destroy(M)
  GSP_TRY(gsp__matrix_alloc_dense(&M, t, rows, n));
  M->x = *x;
  *x = NULL;
  M->nvals = rows * n;
  if (b && *b) { /* presence known already */
    M->nvals = nvals;
    if (nvals == rows * n) gsp__free(*b);
    else M->b = *b;
    *b = NULL;
  } else {
    GSP_TRY(gsp__matrix_mark_absent(M, absent));
  }
  *out = M;
#undef GSP_FREE_ALL
  return info;
}

void gsp__apsp_owned_free(gsp__apsp_owned *w) {
  gsp__matrix_destroy(w->D);
  gsp__matrix_destroy(w->P);
  gsp__free(w->src);
  gsp__free(w->px);
  gsp__free(w->dx);
  gsp__free(w->db);
  gsp_matrix_free(&w->whole);
  gsp__star_symbolic_free(&w->sym);
  memset(w, 0, sizeof *w);
}

#define GSP_FREE_ALL gsp__apsp_owned_free(w)

gsp_info gsp__apsp_alloc_result(gsp__apsp_owned *w, const gsp__apsp_args *c, bool presence) {
  gsp_info info = GSP_SUCCESS;
  if (c->oa.rows) return info;
  const size_t cells = c->cells, os = gsp_type_size(c->out);
  GSP_ALLOC(w->dx, cells > 0 ? cells : 1, os);
  gsp__pass_huge(w->dx, cells * os);
  if (c->paths) GSP_ALLOC(w->px, cells > 0 ? cells : 1, gsp_type_size(c->pt));
  if (presence) {
    GSP_ALLOC(w->db, cells > 0 ? cells : 1, 1);
    gsp__pass_huge(w->db, cells);
  }
  return info;
}

gsp_info gsp__apsp_commit(gsp_matrix *dist, gsp_matrix *parent, gsp__apsp_owned *w, const gsp__apsp_args *c,
                          const gsp__apsp_tally *got) {
  gsp_info info = GSP_SUCCESS;
  if (c->oa.rows) {
    *dist = NULL;
    if (c->paths) *parent = NULL;
    return info;
  }
  if (w->whole) { /* the closure matrix itself (no paths), already published */
    *dist = w->whole;
    w->whole = NULL;
    return info;
  }
  gsp__value inf;
  gsp__semiring_zero(&inf, GSP_MIN_PLUS, c->out);
  if (!got->pres_ok) GSP_FREE(w->db);
  GSP_TRY(dense_result(&w->D, c->out, c->ns, c->n, &w->dx, &inf, &w->db, got->nvals));
  if (c->paths) {
    const int64_t none = -1;
    const int32_t none32 = -1;
    GSP_TRY(dense_result(&w->P, c->pt, c->ns, c->n, &w->px, c->p32 ? (const void *)&none32 : &none, NULL, 0));
  }
  GSP_TRY(gsp__sssp_publish_matrices(w->D, w->P));
  *dist = w->D;
  if (c->paths) *parent = w->P;
  w->D = w->P = NULL;
  return info;
}
#undef GSP_FREE_ALL
