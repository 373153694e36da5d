/*
 * gsp_mxv and gsp_vxm: w<mask> = accum(w, A (+.*) u) and accum(w, u (+.*) A).
 *
 * Both reduce to two kernels on A's CSR rows, so no transpose is ever built:
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
 * gsp_mxm.c.
 */
#include <omp.h>

#include "gsp_ops.h"
#ifdef GSP_HAVE_CUDA
#include "gsp_cuda.h"
#endif

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
  const size_t ts = gsp__ops_tsize(t);
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
      push_range(g, (char *)g->wx + (size_t)q * (size_t)g->nt * gsp__ops_tsize(GSP_##T),                        \
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

/* t = A (+.*) u with A used as given (pull: A is m x k, u has k entries)
 * or scattered (push: A is k x m). */
static gsp_info mv_compute(struct gsp_vector_s **T, struct gsp_matrix_s *A, struct gsp_vector_s *u, bool push,
                           gsp_semiring s, const char *fn) {
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

/* Shared body of mxv (vec_first = false) and vxm (true). */
static gsp_info mv(struct gsp_vector_s *w, struct gsp_vector_s *mask, gsp_binop accum, gsp_semiring s,
                   struct gsp_matrix_s *A, struct gsp_vector_s *u, const gsp_desc *desc, bool vec_first,
                   const char *fn) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_vector_s *T = NULL;
#define GSP_FREE_ALL gsp__vector_destroy(T)
  GSP_TRY(gsp__ops_check_vector_out(w, mask, accum, fn));
  GSP_TRY(gsp__check_matrix(A, fn, "A"));
  GSP_TRY(gsp__check_vector(u, fn, "u"));
  const gsp_desc d = gsp__ops_desc(desc);
  GSP_TRY(gsp__ops_check_same_type(w->type, A->type, fn, "A"));
  GSP_TRY(gsp__ops_check_same_type(w->type, u->type, fn, "u"));
  GSP_TRY(gsp__ops_check_semiring(s, w->type, fn));
  /* mxv: A (m x k) * u; vxm: u * A (k x m), i.e. A' * u */
  const bool tr = vec_first ? !d.transpose_b : d.transpose_a;
  const int64_t m = gsp__ops_rows(A, tr), k = gsp__ops_cols(A, tr);
  const char *aname = vec_first ? (d.transpose_b ? "A'" : "A") : (d.transpose_a ? "A'" : "A");
  if (vec_first) {
    GSP_CHECK(u->n == k, GSP_DIMENSION_MISMATCH, "%s: u has size %lld but %s is %lld x %lld", fn, (long long)u->n,
              aname, (long long)k, (long long)m);
    GSP_CHECK(w->n == m, GSP_DIMENSION_MISMATCH, "%s: w has size %lld but %s is %lld x %lld", fn, (long long)w->n,
              aname, (long long)k, (long long)m);
  } else {
    GSP_CHECK(u->n == k, GSP_DIMENSION_MISMATCH, "%s: u has size %lld but %s is %lld x %lld", fn, (long long)u->n,
              aname, (long long)m, (long long)k);
    GSP_CHECK(w->n == m, GSP_DIMENSION_MISMATCH, "%s: w has size %lld but %s is %lld x %lld", fn, (long long)w->n,
              aname, (long long)m, (long long)k);
  }
  /* The GPU (src/cuda/graphblas/gsp_cuda_mxv.cu) computes T and writes w back on the
   * device, where w then stays. AUTO: an operand already there, or A with
   * at least 2^20 entries (smaller products cost less than the transfers). */
  gsp__backend_choice be;
  const bool resident = A->dev || u->dev || w->dev || (mask && mask->dev);
  GSP_TRY(gsp__ops_desc_backend(&be, &d, resident || A->nvals >= 1048576, fn));
#ifdef GSP_HAVE_CUDA
  if (be.gpu) {
    bool taken = false;
    /* the GPU takes A as CSR: its CSR copy, never A converted in place
     * (other threads may be reading A) */
    struct gsp_matrix_s *Acsr = NULL;
    GSP_TRY(gsp__matrix_csr_view(&Acsr, A));
    info = gsp_cuda_mxv(w, mask, accum, s, Acsr, u, &d, tr, fn, &taken);
    if (taken) return info;
    GSP_TRY(gsp__backend_declined(&be, fn));
  }
#endif
  GSP_TRY(gsp__ops_vectors_host(fn, w, mask, u, NULL));
  GSP_TRY(mv_compute(&T, A, u, tr, s, fn));
  GSP_TRY(gsp__ops_vector_writeback(w, mask, accum, &T, &d, fn));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_mxv(gsp_vector w, const gsp_vector mask, gsp_binop accum, gsp_semiring s, const gsp_matrix A,
                 const gsp_vector u, const gsp_desc *desc) {
  return mv(w, mask, accum, s, A, u, desc, false, "gsp_mxv");
}

gsp_info gsp_vxm(gsp_vector w, const gsp_vector mask, gsp_binop accum, gsp_semiring s, const gsp_vector u,
                 const gsp_matrix A, const gsp_desc *desc) {
  return mv(w, mask, accum, s, A, u, desc, true, "gsp_vxm");
}
