/*
 * The CPU kernel of gsp_mxm: Gustavson's row-wise SpGEMM. A symbolic pass
 * counts the distinct columns of each row of T (structure only,
 * semiring-independent), then a numeric pass per (semiring, type)
 * accumulates row i of T in a per-thread dense workspace with a marker
 * array. With a mask, T is computed only where the mask holds.
 *
 * Kernels follow zstd's ZSTD_GEN_FAST_FN trick: mxm_row() is force-inlined
 * and takes the semiring and type as arguments; thin wrappers stamped from
 * the X-macro tables call it with constants, so the switches fold away and
 * each wrapper is a typed loop. The OpenMP region lives in the wrapper so
 * that the constants reach the outlined parallel body.
 */
#include <omp.h>

#include "graphblas_cpu.h"

typedef struct {
  const struct gsp_matrix_s *A, *B; /* CSR, A m x k, B k x n */
  const struct gsp_matrix_s *M;     /* CSR mask filter, or NULL */
  bool structural;
  int64_t m, n;
  gsp_index *Cp, *Cj;
  void *Cx;
  int64_t *mark;  /* per thread: n markers (row that last touched j) */
  int64_t *allow; /* per thread: n markers of the mask row, with M */
  void *work;     /* per thread: n values */
  int nth;
} mxm_args;

/* Mark the columns where the mask holds in row i (allow[j] == i). */
static inline void mxm_allow_row(const mxm_args *g, int64_t *allow, int64_t i) {
  const struct gsp_matrix_s *M = g->M;
  for (gsp_index q = M->p[i]; q < M->p[i + 1]; q++)
    if (g->structural || gsp__ops_truthy(M->type, M->x, (int64_t)q)) allow[M->j[q]] = i;
}

/* Number of entries of row i of T. */
static gsp_index mxm_count_row(const mxm_args *g, int64_t *mark, int64_t *allow, int64_t i) {
  const struct gsp_matrix_s *A = g->A, *B = g->B;
  gsp_index cnt = 0;
  if (g->M) mxm_allow_row(g, allow, i);
  for (gsp_index pa = A->p[i]; pa < A->p[i + 1]; pa++) {
    gsp_index k = A->j[pa];
    for (gsp_index pb = B->p[k]; pb < B->p[k + 1]; pb++) {
      gsp_index j = B->j[pb];
      if (g->M && allow[j] != i) continue;
      if (mark[j] != i) {
        mark[j] = i;
        cnt++;
      }
    }
  }
  return cnt;
}

GSP_FORCE_INLINE void mxm_row(const mxm_args *g, int tid, int64_t i, const gsp_semiring s, const gsp_type t) {
  const struct gsp_matrix_s *A = g->A, *B = g->B;
  const size_t ts = gsp__tsize(t);
  const int64_t n = g->n;
  int64_t *mark = g->mark + (size_t)tid * (size_t)n;
  int64_t *allow = g->allow ? g->allow + (size_t)tid * (size_t)n : NULL;
  char *w = (char *)g->work + (size_t)tid * (size_t)n * ts;
  gsp_index *cj = g->Cj + g->Cp[i];
  const gsp_index want = g->Cp[i + 1] - g->Cp[i];
  if (want == 0) return;
  if (g->M) mxm_allow_row(g, allow, i);
  int64_t cnt = 0;
  for (gsp_index pa = A->p[i]; pa < A->p[i + 1]; pa++) {
    gsp_index k = A->j[pa];
    for (gsp_index pb = B->p[k]; pb < B->p[k + 1]; pb++) {
      gsp_index j = B->j[pb];
      if (allow && allow[j] != i) continue;
      bool init = mark[j] != i;
      if (init) {
        mark[j] = i;
        cj[cnt++] = j;
      }
      gsp__sr_fma(s, t, w, (int64_t)j, A->x, (int64_t)pa, B->x, (int64_t)pb, init);
    }
  }
  if ((gsp_index)cnt * 16 > (gsp_index)n) {
    /* dense row: a scan of the markers is cheaper than a sort */
    int64_t q = 0;
    for (int64_t j = 0; j < n && q < cnt; j++)
      if (mark[j] == i) cj[q++] = (gsp_index)j;
  } else {
    gsp__ops_sort_index(cj, cnt);
  }
  char *cx = (char *)g->Cx + g->Cp[i] * ts;
  for (int64_t q = 0; q < cnt; q++) memcpy(cx + (size_t)q * ts, w + cj[q] * ts, ts);
}

typedef void (*mxm_kernel)(const mxm_args *g);

#define GSP_OPS_GEN(SR, T)                                                        \
  static void mxm_##SR##_##T(const mxm_args *g) {                                 \
    _Pragma("omp parallel num_threads(g->nth) if (g->nth > 1)") {                 \
      int tid = omp_get_thread_num();                                             \
      _Pragma("omp for schedule(dynamic, 64)") for (int64_t i = 0; i < g->m; i++) \
          mxm_row(g, tid, i, GSP_##SR, GSP_##T);                                  \
    }                                                                             \
  }
GSP_OPS_FOR_EACH_PAIR
#undef GSP_OPS_GEN

static mxm_kernel mxm_pick(gsp_semiring s, gsp_type t) {
#define GSP_OPS_GEN(SR, T) \
  if (s == GSP_##SR && t == GSP_##T) return mxm_##SR##_##T;
  GSP_OPS_FOR_EACH_PAIR
#undef GSP_OPS_GEN
  return NULL;
}

gsp_info gsp__mxm_cpu(struct gsp_matrix_s **T, gsp_semiring s, const struct gsp_matrix_s *a,
                      const struct gsp_matrix_s *b, const struct gsp_matrix_s *mask, bool structural, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  gsp_index *cnt = NULL, *p = NULL, *jj = NULL;
  void *x = NULL, *work = NULL;
  int64_t *mark = NULL, *allow = NULL;
#define GSP_FREE_ALL \
  (gsp__free(cnt), gsp__free(p), gsp__free(jj), gsp__free(x), gsp__free(work), gsp__free(mark), gsp__free(allow))
  const gsp_type t = a->type;
  const size_t ts = gsp_type_size(t);
  const int64_t m = a->nrows, n = b->ncols;
  /* flops of the product decide whether threads pay off */
  double flops = (double)m;
  for (int64_t q = 0; q < a->nvals; q++) flops += (double)(b->p[a->j[q] + 1] - b->p[a->j[q]]);
  int nth = gsp__ops_nthreads(flops);
  /* each thread holds dense n-wide workspaces: cap them at about 1 GiB */
  const double per_thread = (double)n * (double)(2 * sizeof(int64_t) + ts);
  while (nth > 1 && (double)nth * per_thread > 1073741824.0) nth--;
  mxm_args g = {.A = a, .B = b, .M = mask, .structural = structural, .m = m, .n = n, .nth = nth};

  /* symbolic pass: row counts, then row pointers */
  size_t nn;
  GSP_CHECK(gsp__mul_size(&nn, (size_t)nth, (size_t)n), GSP_OUT_OF_MEMORY, "%s: workspace size overflows", fn);
  GSP_OPS_ALLOC(mark, nn, sizeof(int64_t));
  if (mask) GSP_OPS_ALLOC(allow, nn, sizeof(int64_t));
  GSP_OPS_ALLOC(cnt, (size_t)m + 1, sizeof(gsp_index));
  GSP_OPS_ALLOC(p, (size_t)m + 1, sizeof(gsp_index));
#pragma omp parallel num_threads(nth) if (nth > 1)
  {
    int tid = omp_get_thread_num();
    int64_t *mk = mark + (size_t)tid * (size_t)n;
    int64_t *al = allow ? allow + (size_t)tid * (size_t)n : NULL;
    for (int64_t j = 0; j < n; j++) mk[j] = -1;
    if (al)
      for (int64_t j = 0; j < n; j++) al[j] = -1;
#pragma omp barrier
#pragma omp for schedule(dynamic, 64)
    for (int64_t i = 0; i < m; i++) cnt[i] = mxm_count_row(&g, mk, al, i);
    /* reset for the numeric pass */
    for (int64_t j = 0; j < n; j++) mk[j] = -1;
    if (al)
      for (int64_t j = 0; j < n; j++) al[j] = -1;
  }
  gsp__ops_cumsum(p, cnt, m);
  GSP_FREE(cnt);

  /* numeric pass */
  GSP_OPS_ALLOC(jj, (size_t)p[m], sizeof(gsp_index));
  GSP_OPS_ALLOC(x, (size_t)p[m], ts);
  GSP_OPS_ALLOC(work, nn, ts);
  g.Cp = p;
  g.Cj = jj;
  g.Cx = x;
  g.mark = mark;
  g.allow = allow;
  g.work = work;
  mxm_kernel kern = mxm_pick(s, t);
  GSP_CHECK(kern != NULL, GSP_PANIC, "%s: no kernel for %s on %s", fn, gsp__semiring_name(s), gsp__type_name(t));
  kern(&g);
  GSP_FREE(work);
  GSP_FREE(mark);
  GSP_FREE(allow);

  GSP_TRY(gsp__ops_matrix_from_csr(T, t, m, n, &p, &jj, &x, fn));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
