/*
 * gsp_apsp: all-pairs (or many-source) shortest paths by Floyd-Warshall,
 * multi-source relaxation, Johnson or the sparse star, with the result
 * built whole or handed out in row blocks. This file holds the checks, the
 * facts the plan is made from (the graph's shape, what the GPU offers),
 * the result's arrays and its commit; the plan is apsp_plan.c's (the one
 * place the algorithm is decided), the run apsp_run.c's.
 */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise (huge pages for fresh n^2 arrays) */
#endif
#include <string.h>
#include <omp.h>

#include "apsp.h"
#include "apsp_plan.h"
#include "dense_pass.h"
#include "host_memory.h"
#include "ops_backend.h"
#include "sssp_prepare.h"
#ifdef GSP_HAVE_CUDA
#include "gsp_cuda.h"
#include "gsp_cuda_fw.h"
#endif

static const char *const fn = "gsp_apsp";

/* Most functions here own nothing; those that do say so below. */
#define GSP_FREE_ALL

/* The call, checked. */
typedef struct {
  gsp_apsp_opts o;
  gsp_apsp_advanced oa;
  gsp_type out, pt; /* output and parent types */
  int64_t n, ns;    /* vertices, result rows */
  size_t cells;     /* ns x n */
  bool paths, p32;  /* parents asked for; as int32 into a result matrix */
} apsp_args;

static gsp_info check_call(apsp_args *c, gsp_matrix *dist, gsp_matrix *parent, const gsp_matrix A,
                           const gsp_apsp_opts *opts) {
  gsp_info info = GSP_SUCCESS;
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
  const gsp_index nsrc = o.sources ? o.nsources : (gsp_index)n;
  GSP_CHECK(nsrc <= GSP_INDEX_MAX, GSP_TOO_LARGE, "%s: %llu sources exceed the row limit", fn,
            (unsigned long long)nsrc);
  const int64_t ns = (int64_t)nsrc;
  size_t cells, bytes;
  GSP_CHECK(gsp__mul_size(&cells, (size_t)ns, (size_t)n) && gsp__mul_size(&bytes, cells, 16), GSP_TOO_LARGE,
            "%s: %lld x %lld result is too large", fn, (long long)ns, (long long)n);
  *c = (apsp_args){.o = o,
                   .oa = oa,
                   .out = out,
                   .pt = pt,
                   .n = n,
                   .ns = ns,
                   .cells = cells,
                   .paths = parent != NULL,
                   .p32 = parent != NULL && pt == GSP_INT32 && !oa.rows};
  return info;
}

/* What the GPU offers: f->gpu, f->dev_bytes and the kernels' bytes. */
static gsp_info device_facts(gsp__apsp_facts *f, const struct gsp_matrix_s *G, const apsp_args *c) {
  gsp_info info = GSP_SUCCESS;
#ifdef GSP_HAVE_CUDA
  if (!f->gpu) return info;
  const gsp_apsp_advanced oa = c->oa;
  const int64_t n = c->n;
  const bool want_paths = c->paths;
  size_t dev_bytes = 0;
  size_t fb = 0, tb = 0;
  if (gsp_cuda_memory(&fb, &tb))
    dev_bytes = oa.device_memory_cap && oa.device_memory_cap < fb ? oa.device_memory_cap : fb;
  else f->gpu = false;
  GSP_CHECK(f->gpu || !f->required, GSP_DEVICE_OUT_OF_MEMORY,
            "%s: CUDA backend requested, but the free device memory cannot be read", fn);
  if (!f->gpu) return info;
  f->dev_bytes = dev_bytes;
  f->closure_bytes = gsp_cuda_closure_bytes(G->type, n, want_paths);
  struct gsp_matrix_s probe = *G; /* Johnson may widen INT32 to INT64 */
  probe.type = f->shape.negative && G->type == GSP_INT32 ? GSP_INT64 : G->type;
  for (int k = 0; k < GSP_APSP_BATCHES; k++) {
    const int64_t batch = 32 * (int64_t)(k + 1);
    f->msssp_bytes[k] = gsp_cuda_msssp_bytes(&probe, batch, want_paths);
  }
#else
  (void)G, (void)c;
#endif
  return info;
}

/* The facts of the call on A's CSR form G with sources src, and where it
 * may run (*be). */
static gsp_info call_facts(gsp__apsp_facts *f, gsp__backend_choice *be, const struct gsp_matrix_s *G,
                           const gsp__weights *ws, const apsp_args *c) {
  gsp_info info = GSP_SUCCESS;
  GSP_TRY(gsp__backend_pick(be, c->o.backend, c->n > 0, fn));
  *f = (gsp__apsp_facts){.asked = c->o.algo,
                         .row_block = c->oa.row_block,
                         .device_cap = c->oa.device_memory_cap,
                         .host_cap = c->oa.host_memory_cap,
                         .callback = c->oa.rows != NULL,
                         .rows_out = c->oa.rows_out != NULL,
                         .progress = c->oa.progress != NULL,
                         .out = c->out,
                         .p32 = c->p32,
                         .shape = {.n = c->n,
                                   .m = G->nvals,
                                   .ns = c->ns,
                                   .t = G->type,
                                   .negative = ws->negative >= 0,
                                   .paths = c->paths,
                                   .threads = gsp__threads()},
                         .positive = ws->positive,
                         .gpu = be->gpu && c->n > 0,
                         .required = be->required,
                         .host_bytes = gsp__host_memory_available()};
  GSP_TRY(device_facts(f, G, c));
  return info;
}

/* The plan, with the graph's depth and the star's analysis (into *sym,
 * which the star's run uses) made where the planner asks for them. */
static gsp_info make_plan(gsp__apsp_plan *p, gsp__star_symbolic *sym, gsp__apsp_facts *f, const struct gsp_matrix_s *G,
                          const int64_t *src) {
  gsp_info info = GSP_SUCCESS;
  if (gsp__apsp_plan_wants_depth(f)) f->shape.depth = gsp__apsp_depth(G, src, f->shape.ns);
  if (gsp__apsp_plan_wants_star(f)) {
    GSP_TRY(gsp__star_analyze(sym, G, STAR_ORDER_AUTO, fn));
    f->shape.star = true;
    f->shape.star_factor_ops = sym->factor_ops;
    f->shape.star_solve_ops = sym->solve_ops;
  }
  GSP_TRY(gsp__apsp_plan_make(p, f, fn));
  if (f->shape.star)
    gsp__burble("%s: sparse star analysis: %s order, %lld supernodes (widest %lld), %lld factor values; "
                "predicted %.3g s (Floyd-Warshall %.3g s, relaxation %.3g s, Johnson %.3g s)",
                fn, sym->ordering, (long long)sym->nsuper, (long long)sym->max_ns, (long long)sym->nvals,
                p->predicted[GSP_APSP_SPARSE_STAR], p->predicted[GSP_APSP_FLOYD_WARSHALL], p->predicted[GSP_APSP_MSSSP],
                p->predicted[GSP_APSP_JOHNSON]);
  return info;
}

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

/* What the call allocates and owns until it commits. */
typedef struct {
  struct gsp_matrix_s *D, *P, *whole;
  int64_t *src;
  void *dx, *px;
  uint8_t *db;
  gsp__star_symbolic sym;
} apsp_owned;

/* Releases everything and leaves w empty (so a second call does nothing). */
static void owned_free(apsp_owned *w) {
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

#define GSP_FREE_ALL owned_free(w)

/* The result's arrays (none with a callback): values, parents, and the
 * presence flags the GPU relaxation writes beside the rows. */
static gsp_info alloc_result(apsp_owned *w, const apsp_args *c, const gsp__apsp_plan *p) {
  gsp_info info = GSP_SUCCESS;
  if (c->oa.rows) return info;
  const size_t cells = c->cells, os = gsp_type_size(c->out);
  GSP_ALLOC(w->dx, cells > 0 ? cells : 1, os);
  gsp__pass_huge(w->dx, cells * os);
  if (c->paths) GSP_ALLOC(w->px, cells > 0 ? cells : 1, gsp_type_size(c->pt));
  if (p->gpu && p->algo != GSP_APSP_FLOYD_WARSHALL) {
    GSP_ALLOC(w->db, cells > 0 ? cells : 1, 1);
    gsp__pass_huge(w->db, cells);
  }
  return info;
}

/* The run's configuration from the checks, the plan and the arrays. */
static gsp__apsp_run run_of(const apsp_args *c, const gsp__apsp_plan *p, const apsp_owned *w,
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

/* Hand the result over: the closure matrix itself, or the result matrices
 * made from the arrays (none with a callback). */
static gsp_info commit(gsp_matrix *dist, gsp_matrix *parent, apsp_owned *w, const apsp_args *c,
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

static gsp_info apsp_call(gsp_matrix *dist, gsp_matrix *parent, const gsp_matrix A, const gsp_apsp_opts *opts) {
  gsp_info info = GSP_SUCCESS;
  apsp_owned own = {0}, *w = &own;
  const double t_start = omp_get_wtime();
  apsp_args c = {0};
  GSP_TRY(check_call(&c, dist, parent, A, opts));
  /* A's CSR form (A itself is left as it is: other threads may read it) */
  struct gsp_matrix_s *G = NULL;
  GSP_TRY(gsp__matrix_csr_view(&G, A));
  const gsp__weights ws = gsp__weights_scan(G, gsp__threads());
  GSP_TRY(gsp__weights_check(G, &ws, true, fn));
  GSP_TRY(gsp__sssp_sources(&w->src, c.o.sources, c.ns, c.n, fn));
  /* 0, 1, ..., n - 1 listed is all pairs: Floyd-Warshall's closure is then
   * the result as it is, with no gather of its rows */
  bool identity = c.ns == c.n;
  for (int64_t k = 0; identity && k < c.ns; k++) identity = w->src[k] == k;
  gsp__backend_choice be = {0};
  gsp__apsp_facts f = {0};
  GSP_TRY(call_facts(&f, &be, G, &ws, &c));
  gsp__apsp_plan p = {0};
  GSP_TRY(make_plan(&p, &w->sym, &f, G, w->src));
  gsp_apsp_report rep = {
      .algo = p.algo, .backend = p.backend, .row_block = (gsp_index)p.row_block, .row_blocks = (gsp_index)p.row_blocks};
  memcpy(rep.predicted_seconds, p.predicted, sizeof rep.predicted_seconds);
  if (c.oa.dry_run) {
    if (c.oa.report) *c.oa.report = rep;
    GSP_FREE_ALL;
    return info;
  }
  GSP_TRY(alloc_result(w, &c, &p));
  GSP_CHECK(!p.device_short, GSP_DEVICE_OUT_OF_MEMORY,
            "%s: CUDA backend requested, but a batch of 32 sources needs more than the %zu bytes of device "
            "memory available",
            fn, f.dev_bytes);
  const gsp_backend backend = be.required ? GSP_BACKEND_CUDA : gsp__backend_for(c.o.backend);
  gsp__apsp_run r = run_of(&c, &p, w, G, identity, backend);
  rep.prepare_s = omp_get_wtime() - t_start;
  gsp__burble("%s: %s, %lld sources of %lld vertices, %s%s", fn, gsp__apsp_algo_name(p.algo), (long long)c.ns,
              (long long)c.n, r.cfg.gpu ? "offered to the GPU" : "on the CPU",
              r.to.rows ? ", rows to the callback" : "");
  const double t_compute = omp_get_wtime();
  GSP_TRY(gsp__apsp_compute(&r, p.algo, A, &w->sym, &w->whole));
  rep.backend = r.got.ran_gpu ? GSP_BACKEND_CUDA : GSP_BACKEND_CPU;
  rep.row_blocks = (gsp_index)r.got.blocks;
  rep.compute_s = omp_get_wtime() - t_compute;
  rep.device_s = r.got.device_s;
  rep.copy_s = r.got.copy_s;
  const double t_finish = omp_get_wtime();
  const bool whole = w->whole != NULL;
  GSP_TRY(commit(dist, parent, w, &c, &r.got));
  rep.finish_s = omp_get_wtime() - t_finish;
  if (!whole)
    gsp__burble("%s: prepare %.3f s, compute %.3f s (device %.3f s, copies %.3f s), finish %.3f s", fn, rep.prepare_s,
                rep.compute_s, rep.device_s, rep.copy_s, rep.finish_s);
  if (c.oa.report) *c.oa.report = rep;
  GSP_FREE_ALL;
  return info;
}

/* A is held while the callbacks may run: freeing it from one is refused. */
gsp_info gsp_apsp(gsp_matrix *dist, gsp_matrix *parent, const gsp_matrix A, const gsp_apsp_opts *opts) {
  const bool held = A && gsp__hold(A, &A->busy, 1);
  gsp_info info = apsp_call(dist, parent, A, opts);
  if (held) gsp__hold(A, &A->busy, -1);
  return info;
}
