/*
 * gsp_apsp's drivers (apsp.h, "the run"): every algorithm ends in the same
 * place, rows of distances in some work type (A's, or the reweighted
 * graph's) and parent rows, which gsp__apsp_finish_rows turns into output
 * rows (potentials taken out, cutoff, output type), then either written
 * into the result or passed to the callback, a block at a time. The kernels
 * are gsp_closure_ext's (Floyd-Warshall), gsp_msssp's (msssp_cpu.c and
 * gsp_cuda_msssp), Bellman-Ford's (gsp__bf_potentials) and the sparse
 * star's. They follow the plan (apsp_plan.c) and decide nothing.
 */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise (huge pages for fresh n^2 arrays) */
#endif
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <omp.h>

#include "apsp_plan.h"
#include "bellman_ford.h"
#include "dense_pass.h"
#include "ops_backend.h"
#include "sssp_branch.h"
#include "sssp_prepare.h"
#include "gsp_cuda_plugin.h"

static const char *const fn = "gsp_apsp";

/* Hand rows k0 .. k0+nb-1 over: to the callback, or copied into the result
 * unless they were computed in place. */
static gsp_info deliver(gsp__apsp_run *r, int64_t k0, int64_t nb, const void *o, const int64_t *p) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  r->got.blocks++;
  const size_t os = gsp_type_size(r->cfg.out), cells = (size_t)nb * (size_t)r->cfg.n;
  char *dst = r->to.dx ? (char *)r->to.dx + (size_t)k0 * (size_t)r->cfg.n * os : NULL;
  if (dst && (const void *)dst != o) gsp__pass_memcpy(dst, o, cells * os);
  if (r->to.rows) {
    const int rc = r->to.rows(r->to.rows_ctx, (gsp_index)k0, (gsp_index)nb, dst ? dst : o, r->cfg.paths ? p : NULL);
    GSP_CHECK(rc == 0, GSP_ABORTED, "%s: the row callback returned %d for rows %lld..%lld: stopped", fn, rc,
              (long long)k0, (long long)(k0 + nb - 1));
    return info;
  }
  if (r->cfg.paths && r->cfg.p32) {
    int32_t *pd = (int32_t *)r->to.px + (size_t)k0 * (size_t)r->cfg.n;
    const int64_t len = (int64_t)cells;
#pragma omp parallel for num_threads(r->cfg.nthreads) schedule(static) if (len > 65536)
    for (int64_t k = 0; k < len; k++) pd[k] = (int32_t)p[k]; /* n <= INT32_MAX was checked */
  } else if (r->cfg.paths) {
    int64_t *pd = (int64_t *)r->to.px + (size_t)k0 * (size_t)r->cfg.n;
    if (pd != p) memcpy(pd, p, cells * sizeof *pd);
  }
#undef GSP_FREE_ALL
  return info;
}

/* Distances (and parents) of sources src[0..nb) on graph G, rows of G's
 * type: the GPU kernel when it takes the call, else the CPU one. */
static gsp_info relax_rows(gsp__apsp_run *r, void *w, int64_t *p, const struct gsp_matrix_s *G,
                           const gsp__sssp_graph *g, const int64_t *src, int64_t nb, uint8_t *keep) {
  gsp_info info = GSP_SUCCESS;
  uint8_t *present = NULL;
#define GSP_FREE_ALL gsp__free(present)
  bool taken = false;
  if (r->cfg.gpu) {
    /* the kernel also reports presence: into the result's flags (keep) when
     * the rows are final as computed, else into scratch (the finishing reads
     * the values) */
    int64_t nvals = 0;
    if (!keep) GSP_ALLOC(present, (size_t)nb * (size_t)r->cfg.n + 1, 1);
    const gsp__backend_choice be = {.gpu = true, .required = r->cfg.required};
    gsp__device_decline_clear();
    int64_t batch = 0;
    gsp__msssp_batch(&batch, G, nb, r->cfg.batch, p != NULL);
    gsp_cuda_sssp_stats st;
    const gsp_cuda_arrays csr = gsp__matrix_cuda_arrays(G);
    const gsp__cuda_api *cu;
    GSP_TRY(gsp__cuda_get(&cu, fn));
    if (batch > 0)
      GSP_TRY(cu->msssp(w, p, NULL, keep ? keep : present, NULL, &nvals, &csr, src, nb, &g->lim, batch, &st, &taken));
    r->got.ran_gpu |= taken;
    if (!taken) GSP_TRY(gsp__backend_declined(&be, fn));
    if (taken) {
      r->got.device_s += st.relax_s + st.parent_s + st.transpose_s;
      r->got.copy_s += st.d2h_s;
    }
    if (taken && keep) {
      r->got.nvals += nvals;
      /* the kernel leaves the flags of a block it found full unwritten
       * (the result then has none); with several blocks they must hold */
      const size_t cells = (size_t)nb * (size_t)r->cfg.n;
      if (nvals == (int64_t)cells && r->cfg.B < r->cfg.ns) {
        const size_t chunk = (size_t)1 << 22;
        const int64_t parts = (int64_t)((cells + chunk - 1) / chunk);
#pragma omp parallel for num_threads(r->cfg.nthreads) schedule(static) if (parts > 1)
        for (int64_t q = 0; q < parts; q++) {
          const size_t a = (size_t)q * chunk;
          memset(keep + a, 1, cells - a < chunk ? cells - a : chunk);
        }
      }
    }
  }
  if (keep && !taken) r->got.pres_ok = false;
  if (!taken) GSP_TRY(gsp__msssp_cpu(w, p, NULL, g, src, nb));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* Rows k0 .. k0 + nb - 1 of the result in the work type into w, their
 * parents into p (NULL without paths). keep: the result's presence flags
 * of these rows when the rows are final as computed, else NULL. */
typedef gsp_info (*apsp_block_fn)(gsp__apsp_run *r, void *w, int64_t *p, int64_t k0, int64_t nb, uint8_t *keep,
                                  const void *ctx);

/* The block loop of every algorithm: rows computed by `rows` in the work
 * type tw, straight into the result where its type allows, finished
 * (potentials, cutoff, output type) and delivered a block at a time;
 * progress: report each block to the caller's progress callback. */
static gsp_info run_blocks(gsp__apsp_run *r, gsp_type tw, const gsp__apsp_finish *f, apsp_block_fn rows,
                           const void *ctx, bool progress) {
  gsp_info info = GSP_SUCCESS;
  void *wbuf = NULL, *obuf = NULL;
  int64_t *pbuf = NULL;
#define GSP_FREE_ALL (gsp__free(wbuf), gsp__free(obuf), gsp__free(pbuf))
  const int64_t n = r->cfg.n;
  const bool fin = gsp__apsp_finish_needed(f);
  const size_t ws = gsp_type_size(tw), os = gsp_type_size(r->cfg.out);
  const size_t bcells = (size_t)r->cfg.B * (size_t)n;
  /* computed straight into the result (or the caller's rows_out) where its
   * type allows */
  const bool direct = r->to.dx && tw == r->cfg.out;
  if (!direct) GSP_ALLOC(wbuf, bcells > 0 ? bcells : 1, ws);
  if (r->to.rows && fin && tw != r->cfg.out) GSP_ALLOC(obuf, bcells > 0 ? bcells : 1, os);
  if ((r->to.rows || r->cfg.p32) && r->cfg.paths) GSP_ALLOC(pbuf, bcells > 0 ? bcells : 1, sizeof *pbuf);
  for (int64_t k0 = 0; k0 < r->cfg.ns; k0 += r->cfg.B) {
    const int64_t nb = r->cfg.ns - k0 < r->cfg.B ? r->cfg.ns - k0 : r->cfg.B;
    const size_t at = (size_t)k0 * (size_t)n;
    void *w = direct ? (char *)r->to.dx + at * os : wbuf;
    int64_t *p = !r->cfg.paths ? NULL : pbuf ? pbuf : (int64_t *)r->to.px + at;
    /* the caller's rows_out, fresh from its allocator, is filled by copies
     * from the GPU: its pages are faulted in on every thread first */
    if (direct && r->to.rows && r->cfg.gpu) gsp__pass_touch(w, (size_t)nb * (size_t)n * os);
    GSP_TRY(rows(r, w, p, k0, nb, direct && !fin && r->to.db ? r->to.db + at : NULL, ctx));
    void *o = w;
    if (fin || tw != r->cfg.out) {
      o = r->to.rows ? (tw == r->cfg.out ? w : obuf) : (char *)r->to.dx + at * os;
      GSP_TRY(gsp__apsp_finish_rows(o, p, w, r->cfg.src + k0, nb, f, r->cfg.nthreads));
    }
    GSP_TRY(deliver(r, k0, nb, o, p));
    if (progress && r->to.progress) r->to.progress((double)(k0 + nb) / (double)r->cfg.ns, r->to.progress_ctx);
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

typedef struct {
  const struct gsp_matrix_s *G;
  const gsp__sssp_graph *g;
} relax_ctx;

static gsp_info relax_block(gsp__apsp_run *r, void *w, int64_t *p, int64_t k0, int64_t nb, uint8_t *keep,
                            const void *ctx) {
  const relax_ctx *c = ctx;
  if (!keep) r->got.pres_ok = false;
  return relax_rows(r, w, p, c->G, c->g, r->cfg.src + k0, nb, keep);
}

/* The relaxation driver (MSSSP, and Johnson on the reweighted graph). */
static gsp_info run_relax(gsp__apsp_run *r, const struct gsp_matrix_s *G, const gsp__sssp_graph *g,
                          const gsp__apsp_finish *f) {
  const relax_ctx c = {.G = G, .g = g};
  return run_blocks(r, G->type, f, relax_block, &c, true);
}

/* Say which vertices form the negative cycle (Bellman-Ford finds one). */
static gsp_info cycle_error(const int64_t *cycle, int64_t len, const char *how) {
  char buf[320];
  int at = 0;
  for (int64_t k = 0; k < len && k < 12 && at < (int)sizeof buf - 40; k++)
    at += snprintf(buf + at, sizeof buf - (size_t)at, "%lld -> ", (long long)cycle[k]);
  if (len > 12) at += snprintf(buf + at, sizeof buf - (size_t)at, "... -> ");
  if (len > 0) snprintf(buf + at, sizeof buf - (size_t)at, "%lld", (long long)cycle[0]);
  else snprintf(buf, sizeof buf, "(vertices not reported)");
  return GSP_ERROR(GSP_NEGATIVE_CYCLE, "%s: the graph has a negative cycle, %s (%lld arcs; found by %s)", fn, buf,
                   (long long)len, how);
}

/* H is the caller's handle; the kernels read its CSR form A. */
static gsp_info run_msssp(gsp__apsp_run *r, struct gsp_matrix_s *H, bool has_cutoff, double cutoff,
                          gsp_backend backend) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *A = NULL;
#define GSP_FREE_ALL
  gsp__sssp_graph g;
  GSP_TRY(gsp__sssp_prepare(&g, H, has_cutoff, cutoff, 0, backend, fn));
  GSP_TRY(gsp__matrix_csr_view(&A, H));
  /* the kernels apply the cutoff; finishing only converts the type */
  const gsp__apsp_finish f = {.n = r->cfg.n, .tw = A->type, .wlim = g.lim, .out = r->cfg.out};
  GSP_TRY(run_relax(r, A, &g, &f));
#undef GSP_FREE_ALL
  return info;
}

static gsp_info run_johnson(gsp__apsp_run *r, struct gsp_matrix_s *H, bool has_cutoff, double cutoff,
                            gsp_backend backend) {
  gsp_info info = GSP_SUCCESS;
  void *h = NULL, *rx = NULL;
  int64_t *cycle = NULL, *h_int = NULL;
  double *h_fp = NULL;
#define GSP_FREE_ALL (gsp__free(h), gsp__free(rx), gsp__free(cycle), gsp__free(h_int), gsp__free(h_fp))
  const int64_t n = r->cfg.n;
  GSP_ALLOC(h, n > 0 ? n : 1, gsp_type_size(H->type));
  GSP_ALLOC(cycle, n > 0 ? n : 1, sizeof *cycle);
  int64_t clen = 0;
  info = gsp__bf_potentials(h, H, r->cfg.gpu ? backend : GSP_BACKEND_CPU, cycle, &clen);
  if (info == GSP_NEGATIVE_CYCLE) {
    info = cycle_error(cycle, clen, "Bellman-Ford, Johnson's first phase");
    GSP_FREE_ALL;
    return info;
  }
  GSP_TRY(info);
  struct gsp_matrix_s *A = NULL; /* H's CSR form */
  GSP_TRY(gsp__matrix_csr_view(&A, H));
  GSP_TRY(gsp__johnson_widen(&h_int, &h_fp, h, A->type, n));
  gsp_type tw;
  GSP_TRY(gsp__johnson_reweight(&rx, &tw, A, h_int, h_fp, fn));
  /* the reweighted graph: A's pattern, the new weights */
  struct gsp_matrix_s R;
  memset(&R, 0, sizeof R);
  R.magic = GSP_MAGIC_MATRIX;
  R.type = tw;
  R.nrows = R.ncols = n;
  R.nvals = A->nvals;
  R.fmt = GSP_FMT_CSR;
  R.p = A->p;
  R.j = A->j;
  R.x = rx;
  gsp__sssp_graph g;
  memset(&g, 0, sizeof g);
  g.n = n;
  g.p = A->p;
  g.j = A->j;
  g.w = rx;
  g.t = tw;
  g.lim = gsp__johnson_limit(tw, has_cutoff, cutoff, h_int, h_fp, n);
  g.delta = 1;
  g.nthreads = r->cfg.nthreads;
  const gsp__apsp_finish f = {.n = n,
                              .tw = tw,
                              .wlim = g.lim,
                              .out = r->cfg.out,
                              .h_int = h_int,
                              .h_fp = h_fp,
                              .to_t = A->type == GSP_INT32 && tw == GSP_INT64 ? 1
                                      : A->type == GSP_FP32                   ? 2
                                                                              : 0,
                              .has_cutoff = has_cutoff,
                              .cutoff = cutoff};
  GSP_TRY(run_relax(r, &R, &g, &f));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* Rows (or, transposed, columns) src[0..nb) of the dense n x n closure M
 * into w (nb x n, M's type, +inf where absent) and of the successor
 * matrix S into p (-1 where absent). Tiles keep the column gather local. */
static void gather(void *w, int64_t *p, const struct gsp_matrix_s *M, const struct gsp_matrix_s *S, const int64_t *src,
                   int64_t nb, bool transposed, int nt) {
  const int64_t n = M->nrows;
  const size_t ts = gsp_type_size(M->type);
  gsp__value inf;
  gsp__semiring_zero(&inf, GSP_MIN_PLUS, M->type);
  const int64_t T = 64, kt = (nb + T - 1) / T, vt = (n + T - 1) / T;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) collapse(2)
  for (int64_t a = 0; a < kt; a++)
    for (int64_t c = 0; c < vt; c++) {
      const int64_t k1 = (a + 1) * T < nb ? (a + 1) * T : nb, v1 = (c + 1) * T < n ? (c + 1) * T : n;
      for (int64_t v = c * T; v < v1; v++)
        for (int64_t k = a * T; k < k1; k++) {
          const size_t from =
              transposed ? (size_t)v * (size_t)n + (size_t)src[k] : (size_t)src[k] * (size_t)n + (size_t)v;
          const size_t to = (size_t)k * (size_t)n + (size_t)v;
          const bool present = !M->b || M->b[from];
          memcpy((char *)w + to * ts, present ? (const char *)M->x + from * ts : (const char *)&inf, ts);
          if (p) p[to] = S && (!S->b || S->b[from]) ? ((const int64_t *)S->x)[from] : -1;
        }
    }
}

typedef struct {
  const struct gsp_matrix_s *M, *S;
  bool transposed;
} gather_ctx;

static gsp_info gather_block(gsp__apsp_run *r, void *w, int64_t *p, int64_t k0, int64_t nb, uint8_t *keep,
                             const void *ctx) {
  const gather_ctx *c = ctx;
  (void)keep; /* always NULL: only the GPU relaxation writes presence flags (r->to.db) */
  gather(w, p, c->M, c->S, r->cfg.src + k0, nb, c->transposed, r->cfg.nthreads);
  return GSP_SUCCESS;
}

/* Floyd-Warshall: gsp_closure_ext on a copy of A, or with paths on A
 * transposed: a successor in the reverse graph is a predecessor in A, so
 * parent(s, v) = succ^T(v, s) and dist(s, v) = closure(A^T)(v, s). */
static gsp_info run_fw(gsp__apsp_run *r, gsp_matrix A, bool identity_sources, bool has_cutoff, double cutoff,
                       gsp_backend backend, struct gsp_matrix_s **whole) {
  gsp_info info = GSP_SUCCESS;
  gsp_matrix M = NULL, S = NULL;
  int64_t *cycle = NULL;
  void *h = NULL;
#define GSP_FREE_ALL (gsp_matrix_free(&M), gsp_matrix_free(&S), gsp__free(cycle), gsp__free(h))
  const int64_t n = r->cfg.n;
  const bool transposed = r->cfg.paths;
  GSP_TRY(transposed ? gsp_matrix_transpose(&M, A) : gsp_matrix_dup(&M, A));
  /* the closure is the whole computation: the caller's progress is its */
  const gsp_closure_advanced ca = {.device_memory_cap = r->cfg.cap,
                                   .gpus = r->cfg.gpus,
                                   .progress = r->to.progress,
                                   .progress_ctx = r->to.progress_ctx};
  gsp_closure_opts co = {.backend = r->cfg.gpu ? backend : GSP_BACKEND_CPU, .advanced = &ca};
  info = gsp_closure_ext(M, r->cfg.paths ? &S : NULL, GSP_MIN_PLUS, &co);
  if (info == GSP_NEGATIVE_CYCLE) {
    /* name the cycle: Bellman-Ford finds one */
    int64_t clen = 0;
    GSP_ALLOC(h, n > 0 ? n : 1, gsp_type_size(A->type));
    GSP_ALLOC(cycle, n > 0 ? n : 1, sizeof *cycle);
    if (gsp__bf_potentials(h, A, GSP_BACKEND_CPU, cycle, &clen) != GSP_NEGATIVE_CYCLE) clen = 0;
    info = cycle_error(cycle, clen, "Floyd-Warshall");
    GSP_FREE_ALL;
    return info;
  }
  GSP_TRY(info);
  r->got.ran_gpu = M->dev_only;
  GSP_TRY(gsp__matrix_to_dense(M));
  if (S) GSP_TRY(gsp__matrix_to_dense(S));
  gsp__matrix_release_device(M); /* the result lives on the host, as other results do */
  if (S) gsp__matrix_release_device(S);
  const gsp__apsp_finish f = {.n = n,
                              .tw = A->type,
                              .wlim = gsp__sssp_limit(A->type, false, 0),
                              .out = r->cfg.out,
                              .has_cutoff = has_cutoff,
                              .cutoff = cutoff};
  const bool fin = gsp__apsp_finish_needed(&f);
  if (!transposed && identity_sources && !fin && !r->to.rows) {
    /* the closure is the result as it is */
    *whole = M;
    M = NULL;
    r->got.blocks = 1;
    GSP_FREE_ALL;
    return info;
  }
  const gather_ctx c = {.M = M, .S = S, .transposed = transposed};
  GSP_TRY(run_blocks(r, A->type, &f, gather_block, &c, false));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* The sparse star's factor and what its rows need (star_block). */
typedef struct {
  gsp__star_kernels k;
  const gsp__star_symbolic *S;
  const void *x;            /* the factor's values */
  const gsp__sssp_graph *g; /* for the parents */
  bool strict;              /* the parent rule (no negative weight) */
  gsp__star_ws ws;          /* the solves' scratch, made once for every block */
} star_ctx;

static gsp_info star_block(gsp__apsp_run *r, void *w, int64_t *p, int64_t k0, int64_t nb, uint8_t *keep,
                           const void *ctx) {
  const star_ctx *c = ctx;
  (void)keep;
  gsp_info info = gsp__star_solve(w, &c->k, c->S, c->x, r->cfg.src + k0, nb, false, &c->ws);
  if (info < 0 || !p) return info;
  const size_t ws = gsp_type_size(c->g->t), n = (size_t)r->cfg.n;
#pragma omp parallel for num_threads(r->cfg.nthreads) schedule(dynamic, 1)
  for (int64_t i = 0; i < nb; i++) {
    const gsp_info e =
        gsp__star_tree_row((char *)w + (size_t)i * n * ws, p + (size_t)i * n, r->cfg.src[k0 + i], c->g, c->strict, fn);
    if (e < 0) {
#pragma omp critical(gsp_star_parents)
      info = e;
    }
  }
  return info;
}

/* The sparse star: the numeric factorization on the analysis S (made by
 * the caller for the cost model), then rows by triangular solves. */
static gsp_info run_star(gsp__apsp_run *r, const struct gsp_matrix_s *G, const gsp__star_symbolic *S, bool negative,
                         bool has_cutoff, double cutoff) {
  gsp_info info = GSP_SUCCESS;
  void *x = NULL;
  star_ctx c = {.S = S, .strict = !negative};
#define GSP_FREE_ALL (gsp__free(x), gsp__star_ws_free(&c.ws))
  const int64_t n = r->cfg.n;
  GSP_TRY(gsp__star_kernels_get(&c.k, G->type, GSP_MIN_PLUS, fn));
  GSP_ALLOC(x, S->nvals > 0 ? (size_t)S->nvals : 1, c.k.esize);
  const double t0 = omp_get_wtime();
  GSP_TRY(gsp__star_factor(x, &c.k, S, G, r->cfg.nthreads, fn));
  const double t_factor = omp_get_wtime() - t0;
  const gsp__sssp_graph g = {.n = n,
                             .p = G->p,
                             .j = G->j,
                             .csr = (struct gsp_matrix_s *)G,
                             .w = G->x,
                             .t = G->type,
                             .lim = gsp__sssp_limit(G->type, false, 0),
                             .nthreads = 1};
  c.x = x;
  c.g = &g;
  const gsp__apsp_finish f = {
      .n = n, .tw = G->type, .wlim = g.lim, .out = r->cfg.out, .has_cutoff = has_cutoff, .cutoff = cutoff};
  const double t1 = omp_get_wtime();
  GSP_TRY(gsp__star_ws_make(&c.ws, &c.k, S, r->cfg.nthreads));
  GSP_TRY(run_blocks(r, G->type, &f, star_block, &c, true));
  const double t_solve = omp_get_wtime() - t1, ops = (double)r->cfg.ns * S->solve_ops;
  gsp__burble("%s: sparse star: factorization %.3f s (%.3g multiply-adds, %.3g /s), %lld rows %.3f s (%.3g "
              "multiply-adds, %.3g /s)",
              fn, t_factor, S->factor_ops, S->factor_ops / (t_factor > 0 ? t_factor : 1e-9), (long long)r->cfg.ns,
              t_solve, ops, ops / (t_solve > 0 ? t_solve : 1e-9));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__apsp_compute(gsp__apsp_run *r, gsp_apsp_algo algo, gsp_matrix A, const gsp__star_symbolic *sym,
                           struct gsp_matrix_s **whole) {
  const gsp__apsp_config *c = &r->cfg;
  if (c->n == 0) return GSP_SUCCESS;
  switch (algo) {
  case GSP_APSP_FLOYD_WARSHALL:
    return run_fw(r, A, c->identity, c->has_cutoff, c->cutoff, c->backend, whole);
  case GSP_APSP_MSSSP:
    return run_msssp(r, A, c->has_cutoff, c->cutoff, c->backend);
  case GSP_APSP_JOHNSON:
    return run_johnson(r, A, c->has_cutoff, c->cutoff, c->backend);
  default:
    return run_star(r, c->A, sym, c->negative, c->has_cutoff, c->cutoff);
  }
}

gsp__apsp_run gsp__apsp_run_of(const gsp__apsp_args *c, const gsp__apsp_plan *p, const gsp__apsp_owned *w,
                               const struct gsp_matrix_s *G, bool identity, gsp_backend backend) {
  const gsp_apsp_advanced *oa = &c->oa;
  return (gsp__apsp_run){.cfg = {.A = G,
                                 .n = c->n,
                                 .ns = c->ns,
                                 .B = p->row_block,
                                 .src = w->src,
                                 .out = c->out,
                                 .paths = c->paths,
                                 .p32 = c->p32,
                                 .identity = identity,
                                 .negative = p->shape.negative,
                                 .has_cutoff = c->o.has_cutoff,
                                 .cutoff = c->o.cutoff,
                                 .backend = backend,
                                 .nthreads = p->shape.threads,
                                 .gpu = p->gpu,
                                 .required = backend == GSP_BACKEND_CUDA,
                                 .batch = p->batch,
                                 .cap = oa->device_memory_cap,
                                 .gpus = oa->gpus},
                         .to = {.rows = oa->rows,
                                .rows_ctx = oa->rows_ctx,
                                .dx = oa->rows ? oa->rows_out : w->dx,
                                .px = w->px,
                                .db = w->db,
                                .progress = oa->progress,
                                .progress_ctx = oa->progress_ctx},
                         .got = {.pres_ok = w->db != NULL}};
}
