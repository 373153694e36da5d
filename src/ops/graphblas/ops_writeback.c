/*
 * The one write-back of every operation: C<M,replace> = accum(C, T).
 *
 *   Z = accum ? C (+) T on the union of structures (accum where both) : T
 *   where the mask holds:  C(i,j) = Z(i,j)  (absent if Z is)
 *   elsewhere:             C(i,j) unchanged, or absent with replace
 *
 * The mask holds at (i,j) when M(i,j) is present and (structural, or its
 * value is nonzero), negated by mask_complement. No mask means "everywhere",
 * and a complemented missing mask means "nowhere" (GraphBLAS semantics).
 * Every output position lies in the union of C's and T's structures, so a
 * row-wise merge of C, T and M (all CSR, sorted) builds the result.
 */
#include "gsp_ops.h"

typedef struct {
  const struct gsp_matrix_s *C, *T, *M;
  gsp__binop_fn acc; /* NULL: no accumulator */
  bool comp, structural, replace;
  size_t ts;
} wb_args;

/* Count (when Rj == NULL) or write row i of the result; returns its count. */
static gsp_index wb_row(const void *ctx, int64_t i, gsp_index *Rj, char *Rx) {
  const wb_args *a = ctx;
  const struct gsp_matrix_s *C = a->C, *T = a->T, *M = a->M;
  const size_t ts = a->ts;
  gsp_index pc = C->p[i], ec = C->p[i + 1];
  gsp_index pt = T->p[i], et = T->p[i + 1];
  gsp_index pm = M ? M->p[i] : 0, em = M ? M->p[i + 1] : 0;
  gsp_index out = 0;
  while (pc < ec || pt < et) {
    gsp_index jc = pc < ec ? C->j[pc] : GSP_INDEX_MAX + 1;
    gsp_index jt = pt < et ? T->j[pt] : GSP_INDEX_MAX + 1;
    gsp_index j = jc < jt ? jc : jt;
    bool has_c = jc == j, has_t = jt == j;
    bool m;
    if (M) {
      while (pm < em && M->j[pm] < j) pm++;
      m = pm < em && M->j[pm] == j && (a->structural || gsp__ops_truthy(M->type, M->x, (int64_t)pm));
    } else {
      m = true;
    }
    if (a->comp) m = !m;
    const void *src = NULL;
    bool combine = false;
    if (m) {
      if (has_t && has_c && a->acc) combine = true;
      else if (has_t) src = (const char *)T->x + pt * ts;
      else if (has_c && a->acc) src = (const char *)C->x + pc * ts;
    } else if (has_c && !a->replace) {
      src = (const char *)C->x + pc * ts;
    }
    if (src || combine) {
      if (Rj) {
        Rj[out] = j;
        if (combine) a->acc(Rx + out * ts, (const char *)C->x + pc * ts, (const char *)T->x + pt * ts);
        else memcpy(Rx + out * ts, src, ts);
      }
      out++;
    }
    if (has_c) pc++;
    if (has_t) pt++;
  }
  return out;
}

gsp_info gsp__ops_matrix_writeback(struct gsp_matrix_s *C, struct gsp_matrix_s *mask, gsp_binop accum,
                                   struct gsp_matrix_s **T, const gsp_desc *desc, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *R = NULL;
#define GSP_FREE_ALL
  const gsp_desc d = gsp__ops_desc(desc);
  if (!mask && !d.mask_complement && accum == GSP_NOOP) {
    /* C = T: commit T itself */
    gsp__matrix_swap_in(C, *T);
    *T = NULL;
    return GSP_SUCCESS;
  }
  GSP_TRY(gsp__ops_csr(C, fn));
  if (mask) GSP_TRY(gsp__ops_view(&mask, mask, fn)); /* an input: not converted */
  const wb_args a = {.C = C,
                     .T = *T,
                     .M = mask,
                     .acc = gsp__ops_binop(accum, C->type),
                     .comp = d.mask_complement,
                     .structural = d.mask_structure,
                     .replace = d.replace,
                     .ts = gsp_type_size(C->type)};
  const int nth =
      gsp__ops_nthreads((double)C->nrows + (double)C->nvals + (double)(*T)->nvals + (mask ? (double)mask->nvals : 0));
  GSP_TRY(gsp__ops_matrix_by_rows(&R, C->type, C->nrows, C->ncols, wb_row, &a, nth, fn));
  gsp__matrix_swap_in(C, R);
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__ops_vector_writeback(struct gsp_vector_s *w, struct gsp_vector_s *mask, gsp_binop accum,
                                   struct gsp_vector_s **T, const gsp_desc *desc, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_vector_s *R = NULL;
#define GSP_FREE_ALL gsp__vector_destroy(R)
  const gsp_desc d = gsp__ops_desc(desc);
  if (!mask && !d.mask_complement && accum == GSP_NOOP) {
    gsp__vector_swap_in(w, *T);
    *T = NULL;
    return GSP_SUCCESS;
  }
  const struct gsp_vector_s *t = *T;
  const int64_t n = w->n;
  const size_t ts = gsp_type_size(w->type);
  const gsp__binop_fn acc = gsp__ops_binop(accum, w->type);
  const bool comp = d.mask_complement, structural = d.mask_structure, replace = d.replace;
  GSP_TRY(gsp__ops_vector_new(&R, w->type, n, fn));
  char *Rx = R->x;
  uint8_t *Rb = R->b;
  const char *Cx = w->x, *Tx = t->x;
  const int nth = gsp__ops_nthreads(4.0 * (double)n);
#pragma omp parallel for num_threads(nth) schedule(static) if (nth > 1)
  for (int64_t i = 0; i < n; i++) {
    bool has_c = gsp__ops_vpresent(w, i), has_t = gsp__ops_vpresent(t, i);
    bool m = true;
    if (mask) m = gsp__ops_vpresent(mask, i) && (structural || gsp__ops_truthy(mask->type, mask->x, i));
    if (comp) m = !m;
    const char *src = NULL;
    if (m) {
      if (has_t && has_c && acc) {
        acc(Rx + i * ts, Cx + i * ts, Tx + i * ts);
        Rb[i] = 1;
        continue;
      }
      if (has_t) src = Tx + i * ts;
      else if (has_c && acc) src = Cx + i * ts;
    } else if (has_c && !replace) {
      src = Cx + i * ts;
    }
    if (src) {
      memcpy(Rx + i * ts, src, ts);
      Rb[i] = 1;
    }
  }
  gsp__ops_vector_done(R);
  gsp__vector_swap_in(w, R);
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__ops_vector_map(struct gsp_vector_s *w, struct gsp_vector_s *mask, gsp_binop accum, struct gsp_vector_s *u,
                             gsp__ops_entry_fn entry, const void *ctx, const gsp_desc *desc, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_vector_s *T = NULL;
#define GSP_FREE_ALL gsp__vector_destroy(T)
  GSP_TRY(gsp__ops_vector_operand(w, u, fn));
  GSP_TRY(gsp__ops_vectors_host(fn, w, mask, u, NULL));
  const int64_t n = w->n;
  const size_t ts = gsp_type_size(w->type);
  GSP_TRY(gsp__ops_vector_new(&T, w->type, n, fn));
  char *Tx = T->x;
  uint8_t *Tb = T->b;
  const int nth = gsp__ops_nthreads(2.0 * (double)n);
#pragma omp parallel for num_threads(nth) schedule(static) if (nth > 1)
  for (int64_t i = 0; i < n; i++)
    if (gsp__ops_vpresent(u, i)) Tb[i] = entry(ctx, i, Tx + (size_t)i * ts, (const char *)u->x + (size_t)i * ts);
  gsp__ops_vector_done(T);
  GSP_TRY(gsp__ops_vector_writeback(w, mask, accum, &T, desc, fn));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
