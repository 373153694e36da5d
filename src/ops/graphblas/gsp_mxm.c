/*
 * gsp_mxm: C<M> = accum(C, A (+.*) B).
 *
 * Gustavson's row-wise SpGEMM: a symbolic pass counts the distinct columns
 * of each row of T (structure only, semiring-independent), then a numeric
 * pass per (semiring, type) accumulates row i of T in a per-thread dense
 * workspace with a marker array. Transposed inputs are transposed to CSR
 * first. With a plain (non-complemented) mask, T is computed only where the
 * mask holds: the write-back never reads T elsewhere.
 *
 * Kernels follow zstd's ZSTD_GEN_FAST_FN trick: mxm_row() is force-inlined
 * and takes the semiring and type as arguments; thin wrappers stamped from
 * the X-macro tables call it with constants, so the switches fold away and
 * each wrapper is a typed loop. The OpenMP region lives in the wrapper so
 * that the constants reach the outlined parallel body.
 */
#include <math.h>
#include <omp.h>

#include "gsp_ops.h"
#ifdef GSP_HAVE_CUDA
#include "gsp_cuda.h"
#endif

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
  const size_t ts = gsp__ops_tsize(t);
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

gsp_info gsp_mxm(gsp_matrix C, const gsp_matrix mask, gsp_binop accum, gsp_semiring s, const gsp_matrix A,
                 const gsp_matrix B, const gsp_desc *desc) {
  static const char fn[] = "gsp_mxm";
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *AT = NULL, *BT = NULL, *T = NULL;
  gsp_index *cnt = NULL, *p = NULL, *jj = NULL;
  void *x = NULL, *work = NULL;
  int64_t *mark = NULL, *allow = NULL;
#define GSP_FREE_ALL                                                                                       \
  (gsp__matrix_destroy(AT), gsp__matrix_destroy(BT), gsp__matrix_destroy(T), gsp__free(cnt), gsp__free(p), \
   gsp__free(jj), gsp__free(x), gsp__free(work), gsp__free(mark), gsp__free(allow))
  GSP_TRY(gsp__ops_check_matrix_out(C, mask, accum, fn));
  GSP_TRY(gsp__check_matrix(A, fn, "A"));
  GSP_TRY(gsp__check_matrix(B, fn, "B"));
  const gsp_desc d = gsp__ops_desc(desc);
  GSP_TRY(gsp__ops_check_same_type(C->type, A->type, fn, "A"));
  GSP_TRY(gsp__ops_check_same_type(C->type, B->type, fn, "B"));
  GSP_TRY(gsp__ops_check_semiring(s, C->type, fn));
  const int64_t m = gsp__ops_rows(A, d.transpose_a), k = gsp__ops_cols(A, d.transpose_a);
  const int64_t kb = gsp__ops_rows(B, d.transpose_b), n = gsp__ops_cols(B, d.transpose_b);
  GSP_CHECK(k == kb, GSP_DIMENSION_MISMATCH, "%s: inner dimensions differ: A%s is %lld x %lld, B%s is %lld x %lld", fn,
            d.transpose_a ? "'" : "", (long long)m, (long long)k, d.transpose_b ? "'" : "", (long long)kb,
            (long long)n);
  GSP_CHECK(C->nrows == m && C->ncols == n, GSP_DIMENSION_MISMATCH,
            "%s: C is %lld x %lld but the product is %lld x %lld", fn, (long long)C->nrows, (long long)C->ncols,
            (long long)m, (long long)n);

  /* GPU (src/cuda/graphblas/gsp_cuda_mxm.cu): sparse x dense, dense x dense, and
   * sparse x sparse PLUS_TIMES on FP32/FP64 (cuSPARSE SpGEMM; the gateway
   * declines the rest); T comes back to the host for the write-back below.
   * AUTO against a dense B: an operand already on the device, or
   * nvals(A) * n >= 2^24 multiply-adds. Against a sparse B, AUTO stays on
   * the CPU: end to end (result back to host CSR, A on the device)
   * cuSPARSE SpGEMM took 2x-5x the CPU's time at 8-17 M products on an
   * H200 against 16 host threads (docs/performance.md, "SpGEMM");
   * GSP_BACKEND_CUDA still asks for it. */
  const bool sparse_b = B->fmt != GSP_FMT_DENSE && !B->dev_only;
  gsp__backend_choice be;
  GSP_TRY(gsp__ops_desc_backend(&be, &d, !sparse_b && (A->dev || B->dev || (double)A->nvals * (double)n >= 16777216.0),
                                fn));
#ifdef GSP_HAVE_CUDA
  if (be.gpu) {
    bool taken = false;
    info = gsp_cuda_mxm(&T, s, A, B, d.transpose_a, d.transpose_b, fn, &taken);
    if (taken) {
      GSP_TRY(info);
      if (mask || accum != GSP_NOOP || d.mask_complement) GSP_TRY(gsp__ops_csr(T, fn));
      GSP_TRY(gsp__ops_matrix_writeback(C, mask, accum, &T, &d, fn));
      GSP_FREE_ALL;
      return info;
    }
    GSP_TRY(gsp__backend_declined(&be, fn));
  }
#endif

  const gsp_type t = C->type;
  const size_t ts = gsp_type_size(t);
  const struct gsp_matrix_s *a, *b;
  GSP_TRY(gsp__ops_input(&a, &AT, A, d.transpose_a, fn));
  GSP_TRY(gsp__ops_input(&b, &BT, B, d.transpose_b, fn));
  const bool filter = mask != NULL && !d.mask_complement;
  struct gsp_matrix_s *mview = NULL; /* the mask is an input: never converted */
  if (filter) GSP_TRY(gsp__ops_view(&mview, mask, fn));
  /* flops of the product decide whether threads pay off */
  double flops = (double)m;
  for (int64_t q = 0; q < a->nvals; q++) flops += (double)(b->p[a->j[q] + 1] - b->p[a->j[q]]);
  int nth = gsp__ops_nthreads(flops);
  /* each thread holds dense n-wide workspaces: cap them at about 1 GiB */
  const double per_thread = (double)n * (double)(2 * sizeof(int64_t) + ts);
  while (nth > 1 && (double)nth * per_thread > 1073741824.0) nth--;
  mxm_args g = {.A = a, .B = b, .M = mview, .structural = d.mask_structure, .m = m, .n = n, .nth = nth};

  /* symbolic pass: row counts, then row pointers */
  size_t nn;
  GSP_CHECK(gsp__mul_size(&nn, (size_t)nth, (size_t)n), GSP_OUT_OF_MEMORY, "%s: workspace size overflows", fn);
  GSP_OPS_ALLOC(mark, nn, sizeof(int64_t));
  if (filter) GSP_OPS_ALLOC(allow, nn, sizeof(int64_t));
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

  GSP_TRY(gsp__ops_matrix_from_csr(&T, t, m, n, &p, &jj, &x, fn));
  GSP_TRY(gsp__ops_matrix_writeback(C, mask, accum, &T, &d, fn));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
