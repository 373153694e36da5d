/*
 * The facts gsp_apsp's plan is made from (apsp_plan.h): the call's options,
 * the graph's shape, what the GPU offers (the gateway's answers, gathered
 * here and nowhere else), and the measurements the planner asks for (the
 * graph's depth, the star's analysis).
 */
#include <string.h>

#include "apsp_plan.h"
#include "host_memory.h"
#include "gsp_cuda_plugin.h"

static const char *const fn = "gsp_apsp";

/* Nothing here owns memory. */
#define GSP_FREE_ALL

/* What the GPU offers: f->gpu, f->dev_bytes and the kernels' bytes. */
static gsp_info device_facts(gsp__apsp_facts *f, const struct gsp_matrix_s *G, const gsp__apsp_args *c) {
  gsp_info info = GSP_SUCCESS;
  if (!f->gpu) return info;
  const gsp_apsp_advanced oa = c->oa;
  const int64_t n = c->n;
  const bool want_paths = c->paths;
  size_t dev_bytes = 0;
  size_t fb = 0, tb = 0;
  const gsp__cuda_api *cu = gsp__cuda_plugin(NULL, 0);
  if (cu && cu->memory(&fb, &tb))
    dev_bytes = oa.device_memory_cap && oa.device_memory_cap < fb ? oa.device_memory_cap : fb;
  else f->gpu = false;
  GSP_CHECK(f->gpu || !f->required, GSP_DEVICE_OUT_OF_MEMORY,
            "%s: CUDA backend requested, but the free device memory cannot be read", fn);
  if (!f->gpu) return info;
  f->dev_bytes = dev_bytes;
  f->closure_bytes = cu->closure_bytes(G->type, n, want_paths);
  gsp_cuda_arrays probe = gsp__matrix_cuda_arrays(G);
  probe.type = f->shape.negative && G->type == GSP_INT32 ? GSP_INT64 : G->type; /* Johnson may widen INT32 */
  for (int k = 0; k < GSP_APSP_BATCHES; k++) {
    const int64_t batch = 32 * (int64_t)(k + 1);
    f->msssp_bytes[k] = cu->msssp_bytes(&probe, batch, want_paths);
  }
  return info;
}

/* The facts of the call on A's CSR form G with sources src, and where it
 * may run (*be). */
gsp_info gsp__apsp_call_facts(gsp__apsp_facts *f, gsp__backend_choice *be, const struct gsp_matrix_s *G,
                              const gsp__weights *ws, const gsp__apsp_args *c) {
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
                         .required = be->required};
  GSP_TRY(device_facts(f, G, c));
  return info;
}

/* The plan, with the graph's depth and the star's analysis (into *sym,
 * which the star's run uses) made where the planner asks for them. */
gsp_info gsp__apsp_plan_call(gsp__apsp_plan *p, gsp__star_symbolic *sym, gsp__apsp_facts *f,
                             const struct gsp_matrix_s *G, const int64_t *src) {
  gsp_info info = GSP_SUCCESS;
  if (gsp__apsp_plan_wants_depth(f)) f->shape.depth = gsp__apsp_depth(G, src, f->shape.ns);
  if (gsp__apsp_plan_wants_star(f)) {
    GSP_TRY(gsp__star_analyze(sym, G, STAR_ORDER_AUTO, fn));
    f->shape.star = true;
    f->shape.star_factor_ops = sym->factor_ops;
    f->shape.star_solve_ops = sym->solve_ops;
  }
  GSP_TRY(gsp__apsp_plan_make(p, f, fn));
  if (p->staged && !f->host_cap) { /* blocks sized from the host memory */
    f->host_bytes = gsp__host_memory_available();
    GSP_TRY(gsp__apsp_plan_make(p, f, fn));
  }
  if (f->shape.star)
    gsp__burble("%s: sparse star analysis: %s order, %lld supernodes (widest %lld), %lld factor values; "
                "predicted %.3g s (Floyd-Warshall %.3g s, relaxation %.3g s, Johnson %.3g s)",
                fn, sym->ordering, (long long)sym->nsuper, (long long)sym->max_ns, (long long)sym->nvals,
                p->predicted[GSP_APSP_SPARSE_STAR], p->predicted[GSP_APSP_FLOYD_WARSHALL], p->predicted[GSP_APSP_MSSSP],
                p->predicted[GSP_APSP_JOHNSON]);
  return info;
}
#undef GSP_FREE_ALL
