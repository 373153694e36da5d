/*
 * gsp_apsp: all-pairs (or many-source) shortest paths by Floyd-Warshall,
 * multi-source relaxation, Johnson or the sparse star, with the result
 * built whole or handed out in row blocks. The entry: checks, the facts
 * (apsp_facts.c), the plan (apsp_plan.c, the one place the algorithm is
 * decided), the run (apsp_run.c) and the commit (apsp_result.c).
 */
#include <string.h>
#include <omp.h>

#include "apsp_plan.h"

static const char *const fn = "gsp_apsp";

/* The checks own nothing; the call owns what it allocates (gsp__apsp_owned). */
#define GSP_FREE_ALL

static gsp_info check_call(gsp__apsp_args *c, gsp_matrix *dist, gsp_matrix *parent, const gsp_matrix A,
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
  *c = (gsp__apsp_args){.o = o,
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

#undef GSP_FREE_ALL
#define GSP_FREE_ALL gsp__apsp_owned_free(w)

static gsp_info apsp_call(gsp_matrix *dist, gsp_matrix *parent, const gsp_matrix A, const gsp_apsp_opts *opts) {
  gsp_info info = GSP_SUCCESS;
  gsp__apsp_owned own = {0}, *w = &own;
  const double t_start = omp_get_wtime();
  gsp__apsp_args c = {0};
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
  GSP_TRY(gsp__apsp_call_facts(&f, &be, G, &ws, &c));
  gsp__apsp_plan p = {0};
  GSP_TRY(gsp__apsp_plan_call(&p, &w->sym, &f, G, w->src));
  gsp_apsp_report rep = {
      .algo = p.algo, .backend = p.backend, .row_block = (gsp_index)p.row_block, .row_blocks = (gsp_index)p.row_blocks};
  memcpy(rep.predicted_seconds, p.predicted, sizeof rep.predicted_seconds);
  if (c.oa.dry_run) {
    if (c.oa.report) *c.oa.report = rep;
    GSP_FREE_ALL;
    return info;
  }
  GSP_TRY(gsp__apsp_alloc_result(w, &c, p.gpu && p.algo != GSP_APSP_FLOYD_WARSHALL));
  GSP_CHECK(!p.device_short, GSP_DEVICE_OUT_OF_MEMORY,
            "%s: CUDA backend requested, but a batch of 32 sources needs more than the %zu bytes of device "
            "memory available",
            fn, f.dev_bytes);
  const gsp_backend backend = be.required ? GSP_BACKEND_CUDA : gsp__backend_for(c.o.backend);
  gsp__apsp_run r = gsp__apsp_run_of(&c, &p, w, G, identity, backend);
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
  GSP_TRY(gsp__apsp_commit(dist, parent, w, &c, &r.got));
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
