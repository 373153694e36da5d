/* The GPU decisions of the shortest-path family (sssp_branch.h). */
#include "sssp_branch.h"

#include <math.h>

/* AUTO on the GPU: near-far delta-stepping in one persistent kernel; DA2CF's
 * O(open) reduction per round and Harish's repeated relaxations lose on
 * every graph measured (docs/performance.md). */
static gsp_sssp_algo gpu_algo(gsp_sssp_algo requested) {
  return requested == GSP_SSSP_AUTO ? GSP_SSSP_DELTA : requested;
}

/* The near-far kernel's parameters, from the H100 sweeps of bench_sssp
 * (--deltas --chains --bps --hubs; R-MAT scale 21 and a 4096 x 4096 grid,
 * weights 1..255; kernel times).
 *
 * Hubs: a vertex's arcs are spread over the whole grid from out-degree 64;
 * from 1024 on, the vertices of degree 64..1023 that one warp walked alone
 * kept the others waiting at the barrier (R-MAT: 6.8 ms at 1024, 4.5 ms at
 * 128, 4.0 ms at 64, delta 32).
 *
 * Power-law graphs (average out-degree 8 and more): buckets an eighth of
 * the CPU's width (a quarter of the mean weight): 1.1 vertices expanded per
 * vertex reached against 2.5 at the CPU's width, for 60 steps against 22,
 * which are cheap once the hubs are spread (R-MAT: 4.0-4.1 ms against
 * 6.0 ms at the CPU's width). Chains lose there (their rounds fall on few warps:
 * 7.4 ms to 10.4 ms with 2 rounds).
 *
 * Low-degree graphs (roads, grids) are deep: their time is the steps a
 * shortest path needs times the dependent memory accesses of a step, not
 * the arcs. Chains of 8 rounds advance a path several arcs a barrier,
 * buckets 16 times the CPU's width make fewer buckets (each costs two
 * barriers) at 6 expansions per vertex, and one block per SM makes the
 * barriers cheaper (grid: 181 ms at the CPU's width without chains on 4
 * blocks per SM, 12600 steps; 84-88 ms so, 800-900 steps). */
gsp_cuda_sssp_plan gsp__sssp_gpu_plan(const gsp_sssp_opts *o, const gsp__sssp_graph *g, const gsp__sssp_knobs *k) {
  gsp_cuda_sssp_plan p = {.algo = gpu_algo(o->algo), .delta = g->delta, .hub = 64};
  const bool asked = o->delta > 0, deep = g->csr->nvals < 8 * g->n;
  if (deep) {
    if (!asked) p.delta = g->delta * 16;
    p.chain = 8, p.blocks_per_sm = 1;
  } else if (!asked) {
    p.delta = g->delta / 8;
    if (g->t == GSP_INT32 || g->t == GSP_INT64) p.delta = p.delta < 1 ? 1 : floor(p.delta);
  }
  if (k && k->chain) p.chain = k->chain > 0 ? k->chain : 0;
  if (k && k->blocks_per_sm > 0) p.blocks_per_sm = k->blocks_per_sm;
  if (k && k->hub > 0) p.hub = k->hub;
  return p;
}

void gsp__msssp_batch(int64_t *batch, const struct gsp_matrix_s *A, int64_t nsrc, int64_t requested, bool parents) {
  /* 1024: the sweep on an H100 gave 1.66 / 1.40 / 1.17 / 1.19 s at
   * |V| = 65536 and 45 / 36 / 25 / 17 ms at 4677 for 128 / 256 / 512 / 1024
   * (bench/results/msssp_gpu_nvidia-h100.*) */
  int64_t N = requested > 0 && requested < 1024 ? (requested + 31) / 32 * 32 : 1024;
  const int64_t need_n = (nsrc + 31) / 32 * 32;
  if (N > need_n) N = need_n;
  if (requested <= 0 && nsrc > N) {
    /* the same batches, evened out: a round costs about its lanes, so a
     * short last batch (4677 = 4 x 1024 + 581) pays for the lanes it lacks */
    const int64_t k = (nsrc + N - 1) / N;
    N = ((nsrc + k - 1) / k + 31) / 32 * 32;
  }
  *batch = 0;
  size_t free_b = 0, total_b = 0;
  const gsp__cuda_api *cu = gsp__cuda_plugin(NULL, 0);
  if (!cu || !cu->memory(&free_b, &total_b)) {
    gsp__device_decline(GSP_DEVICE_OUT_OF_MEMORY, "the free device memory cannot be read");
    return;
  }
  const size_t avail = free_b / 10 * 8;
  /* gsp_cuda_msssp_bytes counts the sources of one batch; every source is
   * on the device */
  const gsp_cuda_arrays csr = gsp__matrix_cuda_arrays(A);
#define BYTES_(N) (cu->msssp_bytes(&csr, (N), parents) - (size_t)(N)*4 + (size_t)nsrc * 4)
  while (N > 32 && BYTES_(N) > avail) N -= 32;
  if (BYTES_(N) > avail) { /* the CPU takes it under AUTO */
    gsp__device_decline(GSP_DEVICE_OUT_OF_MEMORY,
                        "a batch of %lld sources needs %zu bytes of device memory and %zu are usable", (long long)N,
                        BYTES_(N), avail);
    return;
  }
#undef BYTES_
  *batch = N;
  gsp__burble("gsp_msssp: %lld sources, batches of %lld", (long long)nsrc, (long long)N);
}
