/* CPU many-source shortest paths: typed bodies and dispatch. */
#include <math.h>
#include <omp.h>

#include "sssp_cpu.h"

#define SSSP_BODY "msssp_cpu_body.h"
#include "sssp_cpu_stamp.h"

gsp_info gsp__msssp_cpu(void *dist, int64_t *parent, int32_t *parent32, const gsp__sssp_graph *g, const int64_t *src,
                        int64_t nsrc) {
  SSSP_DISPATCH(msssp, g->t, dist, parent, parent32, g, src, nsrc)
}
