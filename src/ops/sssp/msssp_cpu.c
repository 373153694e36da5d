/* CPU many-source shortest paths: typed bodies and dispatch. */
#include <math.h>
#include <omp.h>

#include "sssp_cpu.h"

/* The batched kernel stays while a batch scans at most this many arcs (and
 * vertices) per source times those of the graph (Dijkstra scans each
 * once). Measured per source, fp64, 16 lanes, against Dijkstra's time:
 * random n = 20000, m = 100000: 0.37 (4-5x faster); grid 141 x 141: 3.0
 * (as fast); grid 400 x 400: 6.9 (7x slower, its lanes no longer fit in
 * the caches). */
#define GSP__MSSSP_BATCH_RATIO 2.0

#define SSSP_BODY "msssp_cpu_body.h"
#include "sssp_cpu_stamp.h"

gsp_info gsp__msssp_cpu(void *dist, int64_t *parent, int32_t *parent32, const gsp__sssp_graph *g, const int64_t *src,
                        int64_t nsrc) {
  SSSP_DISPATCH(msssp, g->t, dist, parent, parent32, g, src, nsrc)
}
