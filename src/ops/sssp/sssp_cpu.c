/* The single-source CPU kernels (Harish, DA2CF, delta-stepping): each body
 * stamped once per weight type, and their dispatch. */
#include <math.h>
#include <omp.h>
#include <string.h>

#include "sssp_cpu.h"

#define SSSP_BODY "sssp_cpu_typed.h"
#include "sssp_cpu_stamp.h"
#define SSSP_BODY "sssp_cpu_harish_body.h"
#include "sssp_cpu_stamp.h"
#define SSSP_BODY "sssp_cpu_da2cf_body.h"
#include "sssp_cpu_stamp.h"
#define SSSP_BODY "sssp_cpu_delta_body.h"
#include "sssp_cpu_stamp.h"

gsp_info gsp__sssp_cpu_harish(void *d, const gsp__sssp_graph *g, const int64_t *src,
                              int64_t nsrc){SSSP_DISPATCH(harish, g->t, d, g, src, nsrc)}

gsp_info gsp__sssp_cpu_da2cf(void *d, const gsp__sssp_graph *g, const int64_t *src,
                             int64_t nsrc){SSSP_DISPATCH(da2cf, g->t, d, g, src, nsrc)}

gsp_info gsp__sssp_cpu_delta(void *d, const gsp__sssp_graph *g, const int64_t *src, int64_t nsrc) {
  SSSP_DISPATCH(delta, g->t, d, g, src, nsrc)
}
