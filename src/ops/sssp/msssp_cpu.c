/* CPU many-source shortest paths: typed bodies and dispatch. */
#include <math.h>
#include <omp.h>

#include "sssp_cpu.h"

/* The batched kernel stays while a batch scans at most this many arcs (and
 * vertices) per source times those of the graph: a Dijkstra per source
 * scans each once, at about this many times the batched kernel's cost per
 * arc and lane (measured on random graphs, bench/bench_apsp.c). */
#define GSP__MSSSP_BATCH_RATIO 8.0

#define SSSP_BODY "msssp_cpu_body.h"
#include "sssp_cpu_stamp.h"

gsp_info gsp__msssp_cpu(void *dist, int64_t *parent, int32_t *parent32, const gsp__sssp_graph *g, const int64_t *src,
                        int64_t nsrc) {
  switch (g->t) {
  case GSP_INT32:
    return msssp_i32(dist, parent, parent32, g, src, nsrc);
  case GSP_INT64:
    return msssp_i64(dist, parent, parent32, g, src, nsrc);
  case GSP_FP32:
    return msssp_f32(dist, parent, parent32, g, src, nsrc);
  case GSP_FP64:
    return msssp_f64(dist, parent, parent32, g, src, nsrc);
  default:
    return GSP_ERROR(GSP_PANIC, "gsp__msssp_cpu: type %d", (int)g->t);
  }
}
