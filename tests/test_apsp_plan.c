/*
 * gsp_apsp's plan (src/ops/apsp/apsp_plan.c), made on the CPU from made-up
 * facts: no graph and no GPU. Which algorithm AUTO takes and where it runs,
 * what fits the device (the closure, the many-source kernel and its batch
 * within a cap), the row blocks (asked for, sized from the host memory,
 * parts for a progress callback), the refusals, and when the planner asks
 * for the graph's depth or the star's analysis.
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part (apsp.h names the row callback) */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "apsp_plan.h"
#include "gsp_test.h"

#define MIB ((size_t)1 << 20)
#define GIB ((size_t)1 << 30)

/* An n-vertex FP64 graph with m arcs, all pairs, on a CPU of 8 threads. */
static gsp__apsp_facts cpu_facts(int64_t n, int64_t m) {
  gsp__apsp_facts f;
  memset(&f, 0, sizeof f);
  f.asked = GSP_APSP_AUTO;
  f.out = GSP_FP64;
  f.shape.n = n;
  f.shape.m = m;
  f.shape.ns = n;
  f.shape.t = GSP_FP64;
  f.shape.threads = 8;
  f.positive = true;
  f.host_bytes = 64 * GIB;
  return f;
}

/* The same with a GPU of dev bytes: the closure takes n^2 * 8 bytes, the
 * many-source kernel 1 MiB plus 16 n bytes a source. */
static gsp__apsp_facts gpu_facts(int64_t n, int64_t m, size_t dev) {
  gsp__apsp_facts f = cpu_facts(n, m);
  f.gpu = true;
  f.dev_bytes = dev;
  f.closure_bytes = (size_t)n * (size_t)n * 8;
  for (int k = 0; k < GSP_APSP_BATCHES; k++) f.msssp_bytes[k] = MIB + (size_t)(32 * (k + 1)) * (size_t)n * 16;
  return f;
}

static gsp__apsp_plan plan_ok(const gsp__apsp_facts *f) {
  gsp__apsp_plan p;
  const gsp_info info = gsp__apsp_plan_make(&p, f, "test");
  cr_assert_eq(info, GSP_SUCCESS, "%s", gsp_last_error());
  cr_assert_neq(p.algo, GSP_APSP_AUTO);
  cr_assert_geq(p.row_block, 1);
  cr_assert_eq(p.row_blocks, (f->shape.ns + p.row_block - 1) / p.row_block);
  return p;
}

/* AUTO takes the cheapest prediction that may run, on the CPU here. */
Test(apsp_plan, auto_takes_the_cheapest_prediction) {
  for (int64_t m = 4000; m <= 4000000; m *= 10) {
    const gsp__apsp_facts f = cpu_facts(2000, m);
    const gsp__apsp_plan p = plan_ok(&f);
    cr_assert_eq(p.algo, gsp__apsp_pick(p.predicted, &p.shape));
    for (int a = 1; a < GSP_APSP_ALGOS; a++)
      if (a != GSP_APSP_JOHNSON) /* Johnson is the relaxation's twin without negative weights */
        cr_assert_leq(p.predicted[p.algo], p.predicted[a], "m = %lld: %s predicted %g s, algorithm %d %g s",
                      (long long)m, gsp__apsp_algo_name(p.algo), p.predicted[p.algo], a, p.predicted[a]);
    cr_assert_eq(p.backend, GSP_BACKEND_CPU);
    cr_assert(!p.gpu);
    cr_assert_eq(p.row_block, 2000, "the whole result in one block");
  }
  /* a dense graph goes to Floyd-Warshall, a sparse one to the relaxation */
  gsp__apsp_facts f = cpu_facts(2000, 2000 * 1999);
  cr_assert_eq(plan_ok(&f).algo, GSP_APSP_FLOYD_WARSHALL);
  f = cpu_facts(100000, 400000);
  f.shape.ns = 64;
  f.shape.depth = 40;
  cr_assert_eq(plan_ok(&f).algo, GSP_APSP_MSSSP);
  f.shape.negative = true;
  cr_assert_eq(plan_ok(&f).algo, GSP_APSP_JOHNSON);
}

Test(apsp_plan, what_fits_the_gpu) {
  /* the closure fits: Floyd-Warshall on the GPU */
  gsp__apsp_facts f = gpu_facts(4096, 4096 * 2000, 80 * GIB);
  gsp__apsp_plan p = plan_ok(&f);
  cr_assert(p.shape.fw_gpu && p.shape.relax_gpu);
  cr_assert_eq(p.algo, GSP_APSP_FLOYD_WARSHALL);
  cr_assert(p.gpu);
  cr_assert_eq(p.backend, GSP_BACKEND_CUDA);
  cr_assert_eq(p.batch, 0, "no cap: the kernel picks its batch");
  /* with paths, the closure's successors need positive weights */
  f.shape.paths = true;
  f.positive = false;
  p = plan_ok(&f);
  cr_assert(!p.shape.fw_gpu);
  /* neither fits: the CPU */
  f = gpu_facts(4096, 4096 * 2000, MIB);
  p = plan_ok(&f);
  cr_assert(!p.shape.fw_gpu && !p.shape.relax_gpu);
  cr_assert(!p.gpu);
  cr_assert_eq(p.backend, GSP_BACKEND_CPU);
  cr_assert(!p.device_short);
}

/* Under a device cap the batch is the largest whole number of warps (at
 * most 1024 sources) whose bytes fit. */
Test(apsp_plan, batch_within_the_cap) {
  const int64_t n = 100000;
  gsp__apsp_facts f = gpu_facts(n, 4 * n, 0);
  f.shape.ns = 4096;
  f.device_cap = MIB + (size_t)320 * (size_t)n * 16 + 1000;
  f.dev_bytes = f.device_cap;
  gsp__apsp_plan p = plan_ok(&f);
  cr_assert(p.shape.relax_gpu);
  cr_assert_eq(p.batch, 320);
  f.device_cap = f.dev_bytes = 64 * GIB;
  cr_assert_eq(plan_ok(&f).batch, 1024);
  f.device_cap = f.dev_bytes = MIB + (size_t)31 * (size_t)n * 16;
  p = plan_ok(&f);
  cr_assert(!p.shape.relax_gpu, "not even 32 sources fit");
  cr_assert_eq(p.batch, 0);
}

Test(apsp_plan, cuda_required) {
  const int64_t n = 100000;
  gsp__apsp_facts f = gpu_facts(n, 4 * n, MIB);
  f.required = true;
  f.shape.ns = 64;
  f.asked = GSP_APSP_MSSSP;
  gsp__apsp_plan p = plan_ok(&f);
  cr_assert(p.device_short, "relaxation asked on CUDA with no room for 32 sources");
  f.asked = GSP_APSP_FLOYD_WARSHALL;
  p = plan_ok(&f);
  cr_assert(!p.device_short, "the closure runs out of core");
  cr_assert(p.gpu, "an explicit CUDA request offers Floyd-Warshall to the GPU");
  f.asked = GSP_APSP_SPARSE_STAR;
  gsp__apsp_plan q;
  cr_assert_eq(gsp__apsp_plan_make(&q, &f, "test"), GSP_INVALID_VALUE);
  cr_assert(strstr(gsp_last_error(), "runs on the CPU"), "%s", gsp_last_error());
}

Test(apsp_plan, msssp_refuses_negative_weights) {
  gsp__apsp_facts f = cpu_facts(1000, 5000);
  f.asked = GSP_APSP_MSSSP;
  f.shape.negative = true;
  gsp__apsp_plan p;
  cr_assert_eq(gsp__apsp_plan_make(&p, &f, "test"), GSP_INVALID_VALUE);
  cr_assert(strstr(gsp_last_error(), "non-negative"), "%s", gsp_last_error());
  cr_assert(isinf(p.predicted[GSP_APSP_MSSSP]));
}

/* Rows to a callback go out in blocks, where Floyd-Warshall cannot serve;
 * into the caller's whole-result array they are the whole result. */
Test(apsp_plan, callbacks_and_blocks) {
  gsp__apsp_facts f = cpu_facts(20000, (int64_t)20000 * 19999);
  f.callback = true;
  gsp__apsp_plan p = plan_ok(&f);
  cr_assert(p.shape.blocks);
  cr_assert_neq(p.algo, GSP_APSP_FLOYD_WARSHALL);
  cr_assert_eq(p.row_block, 416, "CPU rows staged in 64 MiB blocks of whole warps: %lld", (long long)p.row_block);
  f.rows_out = true;
  p = plan_ok(&f);
  cr_assert(!p.shape.blocks);
  cr_assert_eq(p.algo, GSP_APSP_FLOYD_WARSHALL);
}

Test(apsp_plan, row_blocks) {
  gsp__apsp_facts f = cpu_facts(1000, 100000);
  f.asked = GSP_APSP_MSSSP;
  f.row_block = 300;
  gsp__apsp_plan p = plan_ok(&f);
  cr_assert_eq(p.row_block, 300);
  cr_assert_eq(p.row_blocks, 4);
  cr_assert(!p.staged, "asked for: the host memory is not read");
  f.row_block = 5000;
  cr_assert_eq(plan_ok(&f).row_block, 1000, "at most the rows there are");
  /* a type conversion is staged within the host cap: 1000 rows of 8 bytes a
   * value, whole warps */
  f.row_block = 0;
  f.out = GSP_FP32;
  f.host_cap = (size_t)100 * 1000 * 8;
  cr_assert_eq(plan_ok(&f).row_block, 96);
  /* without a cap, a quarter of the host memory */
  f.host_cap = 0;
  f.host_bytes = (size_t)4 * 50 * 1000 * 8;
  p = plan_ok(&f);
  cr_assert_eq(p.row_block, 50);
  cr_assert(p.staged, "sized from the host memory");
  /* progress: at least 8 parts */
  f = cpu_facts(1000, 100000);
  f.asked = GSP_APSP_MSSSP;
  f.progress = true;
  p = plan_ok(&f);
  cr_assert_eq(p.row_block, 125);
  cr_assert_eq(p.row_blocks, 8);
  f.asked = GSP_APSP_FLOYD_WARSHALL;
  cr_assert_eq(plan_ok(&f).row_blocks, 1, "the closure is one part");
}

Test(apsp_plan, what_the_planner_asks_for) {
  gsp__apsp_facts f = cpu_facts(10000, 40000);
  cr_assert(gsp__apsp_plan_wants_depth(&f), "AUTO on the CPU: the star's gate needs the depth");
  f.shape.depth = 30;
  cr_assert(!gsp__apsp_plan_wants_depth(&f), "measured already");
  f.shape.depth = 0;
  f.asked = GSP_APSP_JOHNSON;
  cr_assert(!gsp__apsp_plan_wants_depth(&f));
  cr_assert(!gsp__apsp_plan_wants_star(&f));
  f.asked = GSP_APSP_SPARSE_STAR;
  cr_assert(gsp__apsp_plan_wants_star(&f));
  f.shape.star = true;
  cr_assert(!gsp__apsp_plan_wants_star(&f), "analyzed already");
  f = cpu_facts(0, 0);
  f.asked = GSP_APSP_SPARSE_STAR;
  cr_assert(!gsp__apsp_plan_wants_star(&f), "nothing to analyze");
  /* a deep sparse graph (a road network) is worth the analysis, a shallow
   * dense one is not */
  f = cpu_facts(1000000, 2500000);
  f.shape.depth = 3000;
  cr_assert(gsp__apsp_plan_wants_star(&f));
  f = cpu_facts(4000, 4000 * 1000);
  f.shape.depth = 6;
  cr_assert(!gsp__apsp_plan_wants_star(&f));
  /* CUDA required: the star cannot run, so it is not priced */
  f = cpu_facts(1000000, 2500000);
  f.shape.depth = 3000;
  f.required = true;
  cr_assert(!gsp__apsp_plan_wants_star(&f));
  cr_assert(!gsp__apsp_plan_wants_depth(&f));
}

Test(apsp_plan, names) {
  cr_assert_str_eq(gsp__apsp_algo_name(GSP_APSP_FLOYD_WARSHALL), "Floyd-Warshall");
  cr_assert_str_eq(gsp__apsp_algo_name(GSP_APSP_MSSSP), "many-source relaxation");
  cr_assert_str_eq(gsp__apsp_algo_name(GSP_APSP_JOHNSON), "Johnson");
  cr_assert_str_eq(gsp__apsp_algo_name(GSP_APSP_SPARSE_STAR), "the sparse star");
}
