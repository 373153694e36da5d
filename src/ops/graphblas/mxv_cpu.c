/*
 * The CPU kernels of gsp_mxv and gsp_vxm. Both reduce to two kernels on
 * A's CSR rows, so no transpose is ever built:
 *   pull  t(i) = (+)_k A(i,k) (x) u(k)   over row i      (mxv, vxm with A')
 *   push  t(j) = (+)_i u(i) (x) A(i,j)   scatter row i   (mxv with A', vxm)
 * Every multiply of the semirings is commutative, so the operand order of
 * (x) needs no separate kernels. Pull is parallel over rows. Push scatters
 * only the rows of present u(i) (cheap for sparse frontiers, as in SSSP);
 * with enough work it runs on per-thread accumulators over contiguous
 * ranges of i, combined in thread order (so float sums do not depend on
 * scheduling).
 *
 * Kernels use the force-inlined generic body + stamped wrapper scheme of
 * mxm_cpu.c.
 */
#include <omp.h>

#include "graphblas_cpu.h"

typedef struct {
  const struct gsp_matrix_s *A; /* CSR */
  const void *ux;
  const uint8_t *ub; /* NULL: u is full */
  int64_t nu;        /* length of u (rows of A for push) */
  void *tx;          /* result values */
  uint8_t *tb;       /* result presence */
  int64_t nt;        /* length of t */
  /* push with threads: per-thread accumulators of nt values and flags */
  void *wx;
  uint8_t *wb;
  int nth;
} mv_args;

GSP_FORCE_INLINE void pull_row(const mv_args *g, int64_t i, const gsp_semiring s, const gsp_type t) {
  const struct gsp_matrix_s *A = g->A;
  bool any = false;
  for (gsp_index pa = A->p[i]; pa < A->p[i + 1]; pa++) {
    gsp_index k = A->j[pa];
    if (g->ub && !g->ub[k]) continue;
    gsp__sr_fma(s, t, g->tx, i, A->x, (int64_t)pa, g->ux, (int64_t)k, !any);
    any = true;
  }
  g->tb[i] = any;
}

/* Scatter rows [i0, i1) into (wx, wb). */
GSP_FORCE_INLINE void push_range(const mv_args *g, void *wx, uint8_t *wb, int64_t i0, int64_t i1, const gsp_semiring s,
                                 const gsp_type t) {
  const struct gsp_matrix_s *A = g->A;
  for (int64_t i = i0; i < i1; i++) {
    if (g->ub && !g->ub[i]) continue;
    for (gsp_index pa = A->p[i]; pa < A->p[i + 1]; pa++) {
      gsp_index j = A->j[pa];
      bool init = !wb[j];
      wb[j] = 1;
      gsp__sr_fma(s, t, wx, (int64_t)j, g->ux, i, A->x, (int64_t)pa, init);
    }
  }
}

/* t(j) = (+) over threads of their partial results, in thread order. */
GSP_FORCE_INLINE void push_combine(const mv_args *g, int64_t j, const gsp_semiring s, const gsp_type t) {
  const size_t ts = gsp__tsize(t);
  bool any = false;
  for (int q = 0; q < g->nth; q++) {
    size_t at = (size_t)q * (size_t)g->nt + (size_t)j;
    if (!g->wb[at]) continue;
    if (!any) memcpy((char *)g->tx + (size_t)j * ts, (const char *)g->wx + at * ts, ts);
    else gsp__sr_add_into(s, t, g->tx, j, g->wx, (int64_t)at);
    any = true;
  }
  g->tb[j] = any;
}

typedef void (*mv_kernel)(const mv_args *g);

#define GSP_OPS_GEN(SR, T)                                                                                      \
  static void pull_##SR##_##T(const mv_args *g) {                                                               \
    _Pragma("omp parallel for num_threads(g->nth) schedule(dynamic, 256) if (g->nth > 1)") for (int64_t i = 0;  \
                                                                                                i < g->nt; i++) \
        pull_row(g, i, GSP_##SR, GSP_##T);                                                                      \
  }                                                                                                             \
  static void push_##SR##_##T(const mv_args *g) {                                                               \
    if (g->nth == 1) {                                                                                          \
      push_range(g, g->tx, g->tb, 0, g->nu, GSP_##SR, GSP_##T);                                                 \
      return;                                                                                                   \
    }                                                                                                           \
    _Pragma("omp parallel num_threads(g->nth)") {                                                               \
      int q = omp_get_thread_num(), nq = omp_get_num_threads(); /* <= nth */                                    \
      int64_t i0 = g->nu * q / nq, i1 = g->nu * (q + 1) / nq;                                                   \
      push_range(g, (char *)g->wx + (size_t)q * (size_t)g->nt * gsp__tsize(GSP_##T),                            \
                 g->wb + (size_t)q * (size_t)g->nt, i0, i1, GSP_##SR, GSP_##T);                                 \
      _Pragma("omp barrier") _Pragma("omp for schedule(static)") for (int64_t j = 0; j < g->nt; j++)            \
          push_combine(g, j, GSP_##SR, GSP_##T);                                                                \
    }                                                                                                           \
  }
GSP_OPS_FOR_EACH_PAIR
#undef GSP_OPS_GEN

static void mv_pick(mv_kernel *pull, mv_kernel *push, gsp_semiring s, gsp_type t) {
  *pull = *push = NULL;
#define GSP_OPS_GEN(SR, T)             \
  if (s == GSP_##SR && t == GSP_##T) { \
    *pull = pull_##SR##_##T;           \
    *push = push_##SR##_##T;           \
  }
  GSP_OPS_FOR_EACH_PAIR
#undef GSP_OPS_GEN
}

gsp_info gsp__mxv_cpu(struct gsp_vector_s **T, gsp_semiring s, struct gsp_matrix_s *A, const struct gsp_vector_s *u,
                      bool push, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  void *wx = NULL;
  uint8_t *wb = NULL;
#define GSP_FREE_ALL (gsp__free(wx), gsp__free(wb))
  GSP_TRY(gsp__ops_view(&A, A, fn)); /* A is an input: never converted */
  const gsp_type t = A->type;
  const int64_t nt = push ? A->ncols : A->nrows;
  GSP_TRY(gsp__ops_vector_new(T, t, nt, fn));
  if (u->nvals == 0 || A->nvals == 0) { /* no term anywhere: t is empty */
    GSP_FREE_ALL;
    return info;
  }
  mv_args g = {.A = A,
               .ux = u->x,
               .ub = u->b,
               .nu = u->n,
               .tx = (*T)->x,
               .tb = (*T)->b,
               .nt = nt,
               .nth = gsp__ops_nthreads((double)A->nrows + (double)A->nvals)};
  if (push) {
    /* threads pay off only when the scatter outweighs combining nth arrays */
    int64_t work = 0;
    for (int64_t i = 0; i < A->nrows; i++)
      if (!g.ub || g.ub[i]) work += (int64_t)(A->p[i + 1] - A->p[i]);
    if (work < 4 * nt || work < 65536) g.nth = 1;
    if (g.nth > 1) {
      size_t nn;
      GSP_CHECK(gsp__mul_size(&nn, (size_t)g.nth, (size_t)nt), GSP_OUT_OF_MEMORY, "%s: workspace size overflows", fn);
      GSP_OPS_ALLOC(wx, nn, gsp_type_size(t));
      GSP_OPS_CALLOC(wb, nn, 1);
      g.wx = wx;
      g.wb = wb;
    }
  }
  mv_kernel pull_k, push_k;
  mv_pick(&pull_k, &push_k, s, t);
  GSP_CHECK(pull_k != NULL, GSP_PANIC, "%s: no kernel for %s on %s", fn, gsp__semiring_name(s), gsp__type_name(t));
  (push ? push_k : pull_k)(&g);
  gsp__ops_vector_done(*T);
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
