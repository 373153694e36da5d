/*
 * gsp_apsp: all-pairs (or many-source) shortest paths by Floyd-Warshall,
 * multi-source relaxation, Johnson or the sparse star, chosen by the cost
 * model of
 * apsp_cost.c or by the caller, with the result built whole or handed out
 * in row blocks. Checks, planning and the row-block driver are here; the
 * kernels are gsp_closure_ext's, gsp_msssp's (msssp_cpu.c and
 * gsp_cuda_msssp) and Bellman-Ford's (gsp__bf_potentials).
 *
 * Every algorithm ends in the same place: rows of distances in some work
 * type (A's, or the reweighted graph's) and parent rows, which
 * gsp__apsp_finish_rows turns into output rows (potentials taken out,
 * cutoff, output type), then either written into the result matrices or
 * passed to the callback.
 */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise (huge pages for fresh n^2 arrays) */
#endif
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <omp.h>

#include "apsp.h"
#include "bellman_ford.h"
#include "dense_pass.h"
#include "host_memory.h"
#include "ops_backend.h"
#include "sssp_branch.h"
#include "sssp_prepare.h"
#include "star.h"
#ifdef GSP_HAVE_CUDA
#include "gsp_cuda.h"
#include "gsp_cuda_fw.h"
#endif

static const char *const fn = "gsp_apsp";

/* ---- one run ---- */

typedef struct {
  const struct gsp_matrix_s *A;
  int64_t n, ns, B; /* vertices, result rows, rows per block */
  const int64_t *src;
  gsp_type out;
  bool paths;
  gsp_apsp_rows_fn rows;
  void *rows_ctx;
  void *dx; /* result values (ns x n, out); with a callback the caller's
               rows_out or NULL */
  void *px; /* result parents, NULL without paths or with a callback */
  bool p32; /* px is int32 (else int64); rows are computed as int64 */
  int nthreads;
  bool gpu;      /* try the GPU */
  bool required; /* GSP_BACKEND_CUDA asked for: no CPU fallback for lack of memory */
  int64_t batch; /* GPU sources per pass (0: the kernel's choice) */
  size_t cap;    /* device memory cap for the closure */
  int gpus;      /* GPUs for the closure */
  bool ran_gpu;  /* set when a kernel ran on the GPU */
  int64_t blocks;
  /* The result's presence flags (ns x n), written by the GPU kernel where it
   * computes rows straight into the result; pres_ok stays true while every
   * block came that way, and then nvals counts the entries. */
  uint8_t *db;
  bool pres_ok;
  int64_t nvals;
  void (*progress)(double fraction, void *ctx);
  void *progress_ctx;
  double device_s, copy_s; /* summed GPU kernel and copy seconds */
} apsp_run;

/* Hand rows k0 .. k0+nb-1 over: to the callback, or copied into the result
 * unless they were computed in place. */
static gsp_info deliver(apsp_run *r, int64_t k0, int64_t nb, const void *o, const int64_t *p) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  r->blocks++;
  const size_t os = gsp_type_size(r->out), cells = (size_t)nb * (size_t)r->n;
  char *dst = r->dx ? (char *)r->dx + (size_t)k0 * (size_t)r->n * os : NULL;
  if (dst && (const void *)dst != o) gsp__pass_memcpy(dst, o, cells * os);
  if (r->rows) {
    const int rc = r->rows(r->rows_ctx, (gsp_index)k0, (gsp_index)nb, dst ? dst : o, r->paths ? p : NULL);
    GSP_CHECK(rc == 0, GSP_ABORTED, "%s: the row callback returned %d for rows %lld..%lld: stopped", fn, rc,
              (long long)k0, (long long)(k0 + nb - 1));
    return info;
  }
  if (r->paths && r->p32) {
    int32_t *pd = (int32_t *)r->px + (size_t)k0 * (size_t)r->n;
    const int64_t len = (int64_t)cells;
#pragma omp parallel for num_threads(r->nthreads) schedule(static) if (len > 65536)
    for (int64_t k = 0; k < len; k++) pd[k] = (int32_t)p[k]; /* n <= INT32_MAX was checked */
  } else if (r->paths) {
    int64_t *pd = (int64_t *)r->px + (size_t)k0 * (size_t)r->n;
    if (pd != p) memcpy(pd, p, cells * sizeof *pd);
  }
#undef GSP_FREE_ALL
  return info;
}

/* Distances (and parents) of sources src[0..nb) on graph G, rows of G's
 * type: the GPU kernel when it takes the call, else the CPU one. */
static gsp_info relax_rows(apsp_run *r, void *w, int64_t *p, const struct gsp_matrix_s *G, const gsp__sssp_graph *g,
                           const int64_t *src, int64_t nb, uint8_t *keep) {
  gsp_info info = GSP_SUCCESS;
  uint8_t *present = NULL;
#define GSP_FREE_ALL gsp__free(present)
  bool taken = false;
#ifdef GSP_HAVE_CUDA
  if (r->gpu) {
    /* the kernel also reports presence: into the result's flags (keep) when
     * the rows are final as computed, else into scratch (the finishing reads
     * the values) */
    int64_t nvals = 0;
    if (!keep) GSP_ALLOC(present, (size_t)nb * (size_t)r->n + 1, 1);
    const gsp__backend_choice be = {.gpu = true, .required = r->required};
    gsp__device_decline_clear();
    int64_t batch = 0;
    gsp__msssp_batch(&batch, G, nb, r->batch, p != NULL);
    gsp_cuda_sssp_stats st;
    if (batch > 0)
      GSP_TRY(gsp_cuda_msssp(w, p, NULL, keep ? keep : present, NULL, &nvals, G, src, nb, &g->lim, batch, &st, &taken));
    r->ran_gpu |= taken;
    if (!taken) GSP_TRY(gsp__backend_declined(&be, fn));
    if (taken) {
      r->device_s += st.relax_s + st.parent_s + st.transpose_s;
      r->copy_s += st.d2h_s;
    }
    if (taken && keep) {
      r->nvals += nvals;
      /* the kernel leaves the flags of a block it found full unwritten
       * (the result then has none); with several blocks they must hold */
      const size_t cells = (size_t)nb * (size_t)r->n;
      if (nvals == (int64_t)cells && r->B < r->ns) {
        const size_t chunk = (size_t)1 << 22;
        const int64_t parts = (int64_t)((cells + chunk - 1) / chunk);
#pragma omp parallel for num_threads(r->nthreads) schedule(static) if (parts > 1)
        for (int64_t q = 0; q < parts; q++) {
          const size_t a = (size_t)q * chunk;
          memset(keep + a, 1, cells - a < chunk ? cells - a : chunk);
        }
      }
    }
  }
#endif
  if (keep && !taken) r->pres_ok = false;
  if (!taken) GSP_TRY(gsp__msssp_cpu(w, p, NULL, g, src, nb));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* Rows k0 .. k0 + nb - 1 of the result in the work type into w, their
 * parents into p (NULL without paths). keep: the result's presence flags
 * of these rows when the rows are final as computed, else NULL. */
typedef gsp_info (*apsp_block_fn)(apsp_run *r, void *w, int64_t *p, int64_t k0, int64_t nb, uint8_t *keep,
                                  const void *ctx);

/* The block loop of every algorithm: rows computed by `rows` in the work
 * type tw, straight into the result where its type allows, finished
 * (potentials, cutoff, output type) and delivered a block at a time;
 * progress: report each block to the caller's progress callback. */
static gsp_info run_blocks(apsp_run *r, gsp_type tw, const gsp__apsp_finish *f, apsp_block_fn rows, const void *ctx,
                           bool progress) {
  gsp_info info = GSP_SUCCESS;
  void *wbuf = NULL, *obuf = NULL;
  int64_t *pbuf = NULL;
#define GSP_FREE_ALL (gsp__free(wbuf), gsp__free(obuf), gsp__free(pbuf))
  const int64_t n = r->n;
  const bool fin = gsp__apsp_finish_needed(f);
  const size_t ws = gsp_type_size(tw), os = gsp_type_size(r->out);
  const size_t bcells = (size_t)r->B * (size_t)n;
  /* computed straight into the result (or the caller's rows_out) where its
   * type allows */
  const bool direct = r->dx && tw == r->out;
  if (!direct) GSP_ALLOC(wbuf, bcells > 0 ? bcells : 1, ws);
  if (r->rows && fin && tw != r->out) GSP_ALLOC(obuf, bcells > 0 ? bcells : 1, os);
  if ((r->rows || r->p32) && r->paths) GSP_ALLOC(pbuf, bcells > 0 ? bcells : 1, sizeof *pbuf);
  for (int64_t k0 = 0; k0 < r->ns; k0 += r->B) {
    const int64_t nb = r->ns - k0 < r->B ? r->ns - k0 : r->B;
    const size_t at = (size_t)k0 * (size_t)n;
    void *w = direct ? (char *)r->dx + at * os : wbuf;
    int64_t *p = !r->paths ? NULL : pbuf ? pbuf : (int64_t *)r->px + at;
    GSP_TRY(rows(r, w, p, k0, nb, direct && !fin && r->db ? r->db + at : NULL, ctx));
    void *o = w;
    if (fin || tw != r->out) {
      o = r->rows ? (tw == r->out ? w : obuf) : (char *)r->dx + at * os;
      GSP_TRY(gsp__apsp_finish_rows(o, p, w, r->src + k0, nb, f, r->nthreads));
    }
    GSP_TRY(deliver(r, k0, nb, o, p));
    if (progress && r->progress) r->progress((double)(k0 + nb) / (double)r->ns, r->progress_ctx);
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

typedef struct {
  const struct gsp_matrix_s *G;
  const gsp__sssp_graph *g;
} relax_ctx;

static gsp_info relax_block(apsp_run *r, void *w, int64_t *p, int64_t k0, int64_t nb, uint8_t *keep, const void *ctx) {
  const relax_ctx *c = ctx;
  if (!keep) r->pres_ok = false;
  return relax_rows(r, w, p, c->G, c->g, r->src + k0, nb, keep);
}

/* The relaxation driver (MSSSP, and Johnson on the reweighted graph). */
static gsp_info run_relax(apsp_run *r, const struct gsp_matrix_s *G, const gsp__sssp_graph *g,
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
static gsp_info run_msssp(apsp_run *r, struct gsp_matrix_s *H, bool has_cutoff, double cutoff, gsp_backend backend) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *A = NULL;
#define GSP_FREE_ALL
  gsp__sssp_graph g;
  GSP_TRY(gsp__sssp_prepare(&g, H, has_cutoff, cutoff, 0, backend, fn));
  GSP_TRY(gsp__matrix_csr_view(&A, H));
  /* the kernels apply the cutoff; finishing only converts the type */
  const gsp__apsp_finish f = {.n = r->n, .tw = A->type, .wlim = g.lim, .out = r->out};
  GSP_TRY(run_relax(r, A, &g, &f));
#undef GSP_FREE_ALL
  return info;
}

static gsp_info run_johnson(apsp_run *r, struct gsp_matrix_s *H, bool has_cutoff, double cutoff, gsp_backend backend) {
  gsp_info info = GSP_SUCCESS;
  void *h = NULL, *rx = NULL;
  int64_t *cycle = NULL, *h_int = NULL;
  double *h_fp = NULL;
#define GSP_FREE_ALL (gsp__free(h), gsp__free(rx), gsp__free(cycle), gsp__free(h_int), gsp__free(h_fp))
  const int64_t n = r->n;
  GSP_ALLOC(h, n > 0 ? n : 1, gsp_type_size(H->type));
  GSP_ALLOC(cycle, n > 0 ? n : 1, sizeof *cycle);
  int64_t clen = 0;
  info = gsp__bf_potentials(h, H, r->gpu ? backend : GSP_BACKEND_CPU, cycle, &clen);
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
  g.nthreads = r->nthreads;
  const gsp__apsp_finish f = {.n = n,
                              .tw = tw,
                              .wlim = g.lim,
                              .out = r->out,
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

static gsp_info gather_block(apsp_run *r, void *w, int64_t *p, int64_t k0, int64_t nb, uint8_t *keep, const void *ctx) {
  const gather_ctx *c = ctx;
  (void)keep; /* always NULL: only the GPU relaxation writes presence flags (r->db) */
  gather(w, p, c->M, c->S, r->src + k0, nb, c->transposed, r->nthreads);
  return GSP_SUCCESS;
}

/* Floyd-Warshall: gsp_closure_ext on a copy of A, or with paths on A
 * transposed: a successor in the reverse graph is a predecessor in A, so
 * parent(s, v) = succ^T(v, s) and dist(s, v) = closure(A^T)(v, s). */
static gsp_info run_fw(apsp_run *r, gsp_matrix A, bool identity_sources, bool has_cutoff, double cutoff,
                       gsp_backend backend, struct gsp_matrix_s **whole) {
  gsp_info info = GSP_SUCCESS;
  gsp_matrix M = NULL, S = NULL;
  int64_t *cycle = NULL;
  void *h = NULL;
#define GSP_FREE_ALL (gsp_matrix_free(&M), gsp_matrix_free(&S), gsp__free(cycle), gsp__free(h))
  const int64_t n = r->n;
  const bool transposed = r->paths;
  GSP_TRY(transposed ? gsp_matrix_transpose(&M, A) : gsp_matrix_dup(&M, A));
  gsp_closure_opts co = {.backend = r->gpu ? backend : GSP_BACKEND_CPU, .device_memory_cap = r->cap, .gpus = r->gpus};
  info = gsp_closure_ext(M, r->paths ? &S : NULL, GSP_MIN_PLUS, &co);
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
  r->ran_gpu = M->dev_only;
  GSP_TRY(gsp__matrix_to_dense(M));
  if (S) GSP_TRY(gsp__matrix_to_dense(S));
#ifdef GSP_HAVE_CUDA
  gsp_cuda_matrix_release(M); /* the result lives on the host, as other results do */
  if (S) gsp_cuda_matrix_release(S);
#endif
  const gsp__apsp_finish f = {.n = n,
                              .tw = A->type,
                              .wlim = gsp__sssp_limit(A->type, false, 0),
                              .out = r->out,
                              .has_cutoff = has_cutoff,
                              .cutoff = cutoff};
  const bool fin = gsp__apsp_finish_needed(&f);
  if (!transposed && identity_sources && !fin && !r->rows) {
    /* the closure is the result as it is */
    *whole = M;
    M = NULL;
    r->blocks = 1;
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

static gsp_info star_block(apsp_run *r, void *w, int64_t *p, int64_t k0, int64_t nb, uint8_t *keep, const void *ctx) {
  const star_ctx *c = ctx;
  (void)keep;
  gsp_info info = gsp__star_solve(w, &c->k, c->S, c->x, r->src + k0, nb, false, &c->ws);
  if (info < 0 || !p) return info;
  const size_t ws = gsp_type_size(c->g->t), n = (size_t)r->n;
#pragma omp parallel for num_threads(r->nthreads) schedule(dynamic, 1)
  for (int64_t i = 0; i < nb; i++) {
    const gsp_info e =
        gsp__star_tree_row((char *)w + (size_t)i * n * ws, p + (size_t)i * n, r->src[k0 + i], c->g, c->strict, fn);
    if (e < 0) {
#pragma omp critical(gsp_star_parents)
      info = e;
    }
  }
  return info;
}

/* The sparse star: the numeric factorization on the analysis S (made by
 * the caller for the cost model), then rows by triangular solves. */
static gsp_info run_star(apsp_run *r, const struct gsp_matrix_s *G, const gsp__star_symbolic *S, bool negative,
                         bool has_cutoff, double cutoff) {
  gsp_info info = GSP_SUCCESS;
  void *x = NULL;
  star_ctx c = {.S = S, .strict = !negative};
#define GSP_FREE_ALL (gsp__free(x), gsp__star_ws_free(&c.ws))
  const int64_t n = r->n;
  GSP_TRY(gsp__star_kernels_get(&c.k, G->type, GSP_MIN_PLUS, fn));
  GSP_ALLOC(x, S->nvals > 0 ? (size_t)S->nvals : 1, c.k.esize);
  const double t0 = omp_get_wtime();
  GSP_TRY(gsp__star_factor(x, &c.k, S, G, r->nthreads, fn));
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
      .n = n, .tw = G->type, .wlim = g.lim, .out = r->out, .has_cutoff = has_cutoff, .cutoff = cutoff};
  const double t1 = omp_get_wtime();
  GSP_TRY(gsp__star_ws_make(&c.ws, &c.k, S, r->nthreads));
  GSP_TRY(run_blocks(r, G->type, &f, star_block, &c, true));
  const double t_solve = omp_get_wtime() - t1, ops = (double)r->ns * S->solve_ops;
  gsp__burble("%s: sparse star: factorization %.3f s (%.3g multiply-adds, %.3g /s), %lld rows %.3f s (%.3g "
              "multiply-adds, %.3g /s)",
              fn, t_factor, S->factor_ops, S->factor_ops / (t_factor > 0 ? t_factor : 1e-9), (long long)r->ns, t_solve,
              ops, ops / (t_solve > 0 ? t_solve : 1e-9));
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* New unpublished dense rows x n matrix of type t owning *x; entries equal
 * to *absent are marked absent, unless b and *b give the presence flags
 * (nvals of them set). *x and *b are consumed. */
static gsp_info dense_result(struct gsp_matrix_s **out, gsp_type t, int64_t rows, int64_t n, void **x,
                             const void *absent, uint8_t **b, int64_t nvals) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *M = NULL;
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

static gsp_info apsp_call(gsp_matrix *dist, gsp_matrix *parent, const gsp_matrix A, const gsp_apsp_opts *opts);

/* A is held while the callbacks may run: freeing it from one is refused. */
gsp_info gsp_apsp(gsp_matrix *dist, gsp_matrix *parent, const gsp_matrix A, const gsp_apsp_opts *opts) {
  const bool held = A && gsp__hold(A, &A->busy, 1);
  gsp_info info = apsp_call(dist, parent, A, opts);
  if (held) gsp__hold(A, &A->busy, -1);
  return info;
}

static gsp_info apsp_call(gsp_matrix *dist, gsp_matrix *parent, const gsp_matrix A, const gsp_apsp_opts *opts) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_matrix_s *D = NULL, *P = NULL, *whole = NULL;
  int64_t *src = NULL;
  void *dx = NULL, *px = NULL;
  uint8_t *db = NULL;
  gsp__star_symbolic sym = {0};
#define GSP_FREE_ALL                                                                                            \
  (gsp__matrix_destroy(D), gsp__matrix_destroy(P), gsp__free(src), gsp__free(px), gsp__free(dx), gsp__free(db), \
   gsp_matrix_free(&whole), gsp__star_symbolic_free(&sym))
  const double t_start = omp_get_wtime();
  GSP_CHECK(dist != NULL, GSP_NULL_POINTER, "%s: dist is NULL", fn);
  GSP_TRY(gsp__check_matrix(A, fn, "A"));
  GSP_OUTPUTS(fn, {dist, sizeof *dist, "dist"}, {parent, sizeof *parent, "parent"});
  const gsp_apsp_opts o = opts ? *opts : (gsp_apsp_opts){0};
  const gsp_apsp_advanced oa = o.advanced ? *o.advanced : (gsp_apsp_advanced){0};
  GSP_CHECK(o.algo >= GSP_APSP_AUTO && o.algo < GSP_APSP_ALGOS, GSP_INVALID_VALUE,
            "%s: invalid algorithm %d in options", fn, (int)o.algo);
  GSP_CHECK(!o.has_cutoff || o.cutoff >= 0, GSP_INVALID_VALUE, "%s: cutoff %g must be >= 0 (and not NaN)", fn,
            o.cutoff);
  GSP_CHECK(oa.gpus >= 0, GSP_INVALID_VALUE, "%s: gpus = %d in options is negative", fn, oa.gpus);
  GSP_CHECK(A->type != GSP_BOOL, GSP_DOMAIN_MISMATCH,
            "%s: A is GSP_BOOL; shortest paths need INT32, INT64, FP32 or FP64 weights "
            "(cast A, e.g. to GSP_INT32 for hop counts)",
            fn);
  const gsp_type out = o.use_type ? o.type : A->type;
  /* a code that is no type at all is a bad option; a real type that
   * cannot hold distances (GSP_BOOL) is a domain mismatch */
  GSP_CHECK(gsp_type_size(out) != 0, GSP_INVALID_VALUE, "%s: output type code %d in options is not a gsp_type", fn,
            (int)out);
  GSP_CHECK(out == GSP_INT32 || out == GSP_INT64 || out == GSP_FP32 || out == GSP_FP64, GSP_DOMAIN_MISMATCH,
            "%s: output type %d is not INT32, INT64, FP32 or FP64", fn, (int)out);
  GSP_CHECK(A->nrows == A->ncols, GSP_DIMENSION_MISMATCH, "%s: A is %lld x %lld, not square", fn, (long long)A->nrows,
            (long long)A->ncols);
  const int64_t n = A->nrows;
  gsp_type pt;
  GSP_TRY(gsp__sssp_parent_type(&pt, o.parent_type, n, fn));
  const bool p32 = parent != NULL && pt == GSP_INT32 && !oa.rows;
  const gsp_index nsrc = o.sources ? o.nsources : (gsp_index)n;
  GSP_CHECK(nsrc <= GSP_INDEX_MAX, GSP_TOO_LARGE, "%s: %llu sources exceed the row limit", fn,
            (unsigned long long)nsrc);
  const int64_t ns = (int64_t)nsrc;
  const bool want_paths = parent != NULL;
  size_t cells, bytes;
  GSP_CHECK(gsp__mul_size(&cells, (size_t)ns, (size_t)n) && gsp__mul_size(&bytes, cells, 16), GSP_TOO_LARGE,
            "%s: %lld x %lld result is too large", fn, (long long)ns, (long long)n);

  /* A's CSR form (A itself is left as it is: other threads may read it) */
  struct gsp_matrix_s *G = NULL;
  GSP_TRY(gsp__matrix_csr_view(&G, A));
  const int nt = gsp__threads();
  const gsp__weights ws = gsp__weights_scan(G, nt);
  GSP_TRY(gsp__weights_check(G, &ws, true, fn));
  GSP_TRY(gsp__sssp_sources(&src, o.sources, ns, n, fn));
  /* 0, 1, ..., n - 1 listed is all pairs: Floyd-Warshall's closure is then
   * the result as it is, with no gather of its rows */
  bool identity = ns == n;
  for (int64_t k = 0; identity && k < ns; k++) identity = src[k] == k;

  /* where things can run */
  gsp__backend_choice be;
  GSP_TRY(gsp__backend_pick(&be, o.backend, n > 0, fn));
  const gsp_backend backend = be.required ? GSP_BACKEND_CUDA : gsp__backend_for(o.backend);
  bool gpu = be.gpu && n > 0;
  size_t dev_bytes = 0;
#ifdef GSP_HAVE_CUDA
  if (gpu) {
    size_t fb = 0, tb = 0;
    if (gsp_cuda_memory(&fb, &tb))
      dev_bytes = oa.device_memory_cap && oa.device_memory_cap < fb ? oa.device_memory_cap : fb;
    else gpu = false;
    GSP_CHECK(gpu || !be.required, GSP_DEVICE_OUT_OF_MEMORY,
              "%s: CUDA backend requested, but the free device memory cannot be read", fn);
  }
#endif
  const size_t os = gsp_type_size(out);
  const size_t per_row = (size_t)(n > 0 ? n : 1) * ((os > 8 ? os : 8) + (want_paths ? 8 : 0));
  const size_t result_bytes = (size_t)ns * per_row;
  gsp__apsp_shape shape = {
      .n = n, .m = G->nvals, .ns = ns, .t = G->type, .negative = ws.negative >= 0, .paths = want_paths, .threads = nt};
  /* rows to a callback go out in blocks, unless they land in the caller's
   * whole-result array (rows_out): that is the whole result, and AUTO may
   * take Floyd-Warshall for it */
  shape.blocks = (oa.rows != NULL && oa.rows_out == NULL) ||
                 (oa.device_memory_cap && result_bytes > oa.device_memory_cap) || (gpu && result_bytes > dev_bytes);
  int64_t batch = 0;
#ifdef GSP_HAVE_CUDA
  if (gpu) {
    shape.fw_gpu = gsp_cuda_closure_bytes(G->type, n, want_paths) <= dev_bytes && (!want_paths || ws.positive);
    /* the many-source kernel within the cap: a batch of at least 32 */
    struct gsp_matrix_s probe = *G; /* Johnson may widen INT32 to INT64 */
    probe.type = ws.negative >= 0 && G->type == GSP_INT32 ? GSP_INT64 : G->type;
    shape.relax_gpu = n < INT32_MAX && gsp_cuda_msssp_bytes(&probe, 32, want_paths) <= dev_bytes;
    if (shape.relax_gpu && oa.device_memory_cap) {
      batch = 32;
      while (batch < 1024 && gsp_cuda_msssp_bytes(&probe, batch + 32, want_paths) <= dev_bytes) batch += 32;
    }
  }
#endif
  gsp_apsp_report rep;
  memset(&rep, 0, sizeof rep);
  shape.batch = batch;
  gsp__apsp_predict(rep.predicted_seconds, &shape);
  if (o.algo == GSP_APSP_AUTO && shape.relax_gpu && !shape.blocks &&
      gsp__apsp_pick(rep.predicted_seconds, &shape) != GSP_APSP_FLOYD_WARSHALL) {
    /* the relaxation looks cheaper for a random graph's depth: probe this
     * graph's (O(m), small beside the relaxation's k m) before trusting it */
    shape.depth = gsp__apsp_depth(G, src, ns);
    gsp__apsp_predict(rep.predicted_seconds, &shape);
  }
  /* The sparse star where it may win (or where asked for): priced from
   * its symbolic analysis, which the run then uses. It runs on the CPU. */
  if (n > 0 && o.algo == GSP_APSP_AUTO && !be.required && shape.depth == 0) {
    shape.depth = gsp__apsp_depth(G, src, ns);
    gsp__apsp_predict(rep.predicted_seconds, &shape);
  }
  if (n > 0 && (o.algo == GSP_APSP_SPARSE_STAR ||
                (o.algo == GSP_APSP_AUTO && !be.required && gsp__apsp_star_worth(&shape, rep.predicted_seconds)))) {
    GSP_TRY(gsp__star_analyze(&sym, G, STAR_ORDER_AUTO, fn));
    shape.star = true;
    shape.star_factor_ops = sym.factor_ops;
    shape.star_solve_ops = sym.solve_ops;
    gsp__apsp_predict(rep.predicted_seconds, &shape);
    gsp__burble("%s: sparse star analysis: %s order, %lld supernodes (widest %lld), %lld factor values; "
                "predicted %.3g s (Floyd-Warshall %.3g s, relaxation %.3g s, Johnson %.3g s)",
                fn, sym.ordering, (long long)sym.nsuper, (long long)sym.max_ns, (long long)sym.nvals,
                rep.predicted_seconds[GSP_APSP_SPARSE_STAR], rep.predicted_seconds[GSP_APSP_FLOYD_WARSHALL],
                rep.predicted_seconds[GSP_APSP_MSSSP], rep.predicted_seconds[GSP_APSP_JOHNSON]);
  }
  const gsp_apsp_algo algo = o.algo != GSP_APSP_AUTO ? o.algo : gsp__apsp_pick(rep.predicted_seconds, &shape);
  GSP_CHECK(!(algo == GSP_APSP_SPARSE_STAR && be.required), GSP_INVALID_VALUE,
            "%s: GSP_APSP_SPARSE_STAR runs on the CPU, and the CUDA backend was required", fn);
  GSP_CHECK(!(algo == GSP_APSP_MSSSP && ws.negative >= 0), GSP_INVALID_VALUE,
            "%s: GSP_APSP_MSSSP needs non-negative weights and A has a negative one "
            "(use GSP_APSP_JOHNSON, FLOYD_WARSHALL or AUTO)",
            fn);
  /* rows per block */
  int64_t B = ns;
  /* int32 parents are computed as int64 rows a block at a time */
  const bool staging = out != G->type || (algo == GSP_APSP_JOHNSON && G->type == GSP_INT32) || p32;
  if (oa.row_block > 0) {
    B = oa.row_block < (gsp_index)ns ? (int64_t)oa.row_block : ns;
  } else if (shape.blocks || staging) {
    /* staging sized to the memory there is: a fixed size would fail where
     * the whole result does not fit, the case blocks are for */
    const bool cpu_rows = algo == GSP_APSP_SPARSE_STAR || (algo != GSP_APSP_FLOYD_WARSHALL && !shape.relax_gpu);
    size_t budget = oa.device_memory_cap ? oa.device_memory_cap
                    : cpu_rows           ? GSP_APSP_CPU_STAGING_BYTES
                                         : GSP_APSP_STAGING_BYTES;
    const size_t host = oa.host_memory_cap ? oa.host_memory_cap : gsp__host_memory_available() / 4;
    if (host < budget) budget = host;
    int64_t b = (int64_t)(budget / per_row);
    if (b >= 64) b -= b % 32; /* whole warps of sources on the GPU */
    /* the star solves STAR_B sources a thread at a time: unless the caller
     * caps the memory, a block keeps every thread busy twice over
     * (measured on 16 cores: 128-row blocks of a 65536-vertex grid ran 2
     * threads, 6x slower) */
    const int64_t fill = (int64_t)STAR_B * 2 * nt, room = (int64_t)(host / per_row);
    if (algo == GSP_APSP_SPARSE_STAR && !oa.device_memory_cap && !oa.host_memory_cap && b < fill)
      b = fill < room ? fill : room;
    B = b < 1 ? 1 : b < ns ? b : ns;
  }
  if (oa.progress && algo != GSP_APSP_FLOYD_WARSHALL && oa.row_block == 0) {
    /* parts for the progress callback: 8 at least (whole batches of 1024
     * sources on the GPU); each part drains the GPU's copy pipeline once */
    int64_t part = (ns + 7) / 8;
    if (part > 1024) part = (part + 1023) / 1024 * 1024;
    if (part < B) B = part;
  }
  if (B < 1) B = 1;
  rep.algo = algo;
  rep.backend = GSP_BACKEND_CPU;
  rep.row_block = (gsp_index)B;
  rep.row_blocks = (gsp_index)((ns + B - 1) / B);
  if (algo != GSP_APSP_SPARSE_STAR && (algo == GSP_APSP_FLOYD_WARSHALL ? shape.fw_gpu : shape.relax_gpu))
    rep.backend = GSP_BACKEND_CUDA;
  if (oa.dry_run) {
    if (oa.report) *oa.report = rep;
    GSP_FREE_ALL;
    return info;
  }

  /* the result */
  const bool relax_gpu = gpu && (algo == GSP_APSP_MSSSP || algo == GSP_APSP_JOHNSON) && shape.relax_gpu;
  if (!oa.rows) {
    GSP_ALLOC(dx, cells > 0 ? cells : 1, os);
    gsp__pass_huge(dx, cells * os);
    if (want_paths) GSP_ALLOC(px, cells > 0 ? cells : 1, gsp_type_size(pt));
    if (relax_gpu) { /* the kernel writes the presence flags beside the rows */
      GSP_ALLOC(db, cells > 0 ? cells : 1, 1);
      gsp__pass_huge(db, cells);
    }
  }
#ifdef GSP_HAVE_CUDA
  /* An explicit CUDA request runs there or fails: relaxation needs at least
   * a batch of 32 sources on the device; Floyd-Warshall goes to the GPU
   * closure, which runs out of core when the matrix does not fit. */
  GSP_CHECK(backend != GSP_BACKEND_CUDA || n == 0 || algo == GSP_APSP_FLOYD_WARSHALL || shape.relax_gpu ||
                algo == GSP_APSP_SPARSE_STAR || n >= INT32_MAX,
            GSP_DEVICE_OUT_OF_MEMORY,
            "%s: CUDA backend requested, but a batch of 32 sources needs more than the %zu bytes of device "
            "memory available",
            fn, dev_bytes);
  if (backend == GSP_BACKEND_CUDA && algo == GSP_APSP_FLOYD_WARSHALL) shape.fw_gpu = true;
#endif
  apsp_run r = {.A = G,
                .n = n,
                .ns = ns,
                .B = B,
                .src = src,
                .out = out,
                .paths = want_paths,
                .rows = oa.rows,
                .rows_ctx = oa.rows_ctx,
                .dx = oa.rows ? oa.rows_out : dx,
                .px = px,
                .p32 = p32,
                .nthreads = nt,
                .gpu = gpu && algo != GSP_APSP_SPARSE_STAR &&
                       (algo == GSP_APSP_FLOYD_WARSHALL ? shape.fw_gpu : shape.relax_gpu),
                .batch = batch,
                .cap = oa.device_memory_cap,
                .gpus = oa.gpus,
                .required = backend == GSP_BACKEND_CUDA,
                .db = db,
                .pres_ok = db != NULL,
                .progress = oa.progress,
                .progress_ctx = oa.progress_ctx};
  rep.prepare_s = omp_get_wtime() - t_start;
  gsp__burble("%s: %s, %lld sources of %lld vertices, %s%s", fn,
              algo == GSP_APSP_FLOYD_WARSHALL ? "Floyd-Warshall"
              : algo == GSP_APSP_MSSSP        ? "many-source relaxation"
              : algo == GSP_APSP_JOHNSON      ? "Johnson"
                                              : "the sparse star",
              (long long)ns, (long long)n, r.gpu ? "offered to the GPU" : "on the CPU",
              r.rows ? ", rows to the callback" : "");
  const double t_compute = omp_get_wtime();
  if (n > 0) {
    switch (algo) {
    case GSP_APSP_FLOYD_WARSHALL:
      GSP_TRY(run_fw(&r, A, identity, o.has_cutoff, o.cutoff, backend, &whole));
      break;
    case GSP_APSP_MSSSP:
      GSP_TRY(run_msssp(&r, A, o.has_cutoff, o.cutoff, backend));
      break;
    case GSP_APSP_JOHNSON:
      GSP_TRY(run_johnson(&r, A, o.has_cutoff, o.cutoff, backend));
      break;
    default:
      GSP_TRY(run_star(&r, G, &sym, ws.negative >= 0, o.has_cutoff, o.cutoff));
      break;
    }
  }
  rep.backend = r.ran_gpu ? GSP_BACKEND_CUDA : GSP_BACKEND_CPU;
  rep.row_blocks = (gsp_index)r.blocks;
  rep.compute_s = omp_get_wtime() - t_compute;
  rep.device_s = r.device_s;
  rep.copy_s = r.copy_s;
  const double t_finish = omp_get_wtime();

  if (!oa.rows) {
    if (whole) { /* the closure matrix itself (no paths), already published */
      *dist = whole;
      whole = NULL;
      GSP_FREE_ALL;
      rep.finish_s = omp_get_wtime() - t_finish;
      if (oa.report) *oa.report = rep;
      return info;
    }
    gsp__value inf;
    gsp__semiring_zero(&inf, GSP_MIN_PLUS, out);
    if (!r.pres_ok) GSP_FREE(db);
    GSP_TRY(dense_result(&D, out, ns, n, &dx, &inf, &db, r.nvals));
    if (want_paths) {
      const int64_t none = -1;
      const int32_t none32 = -1;
      GSP_TRY(dense_result(&P, pt, ns, n, &px, p32 ? (const void *)&none32 : &none, NULL, 0));
    }
    GSP_TRY(gsp__sssp_publish_matrices(D, P));
    *dist = D;
    if (want_paths) *parent = P;
    D = P = NULL;
  } else {
    *dist = NULL;
    if (want_paths) *parent = NULL;
  }
  rep.finish_s = omp_get_wtime() - t_finish;
  gsp__burble("%s: prepare %.3f s, compute %.3f s (device %.3f s, copies %.3f s), finish %.3f s", fn, rep.prepare_s,
              rep.compute_s, rep.device_s, rep.copy_s, rep.finish_s);
  if (oa.report) *oa.report = rep;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
