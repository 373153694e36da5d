/* CPU Harish-style relaxation: the typed bodies and their dispatch. */
#include <math.h>

#include "sssp_cpu.h"

#define SSSP_BODY "sssp_cpu_typed.h"
#include "sssp_cpu_stamp.h"
#define SSSP_BODY "sssp_cpu_harish_body.h"
#include "sssp_cpu_stamp.h"

gsp_info gsp__sssp_cpu_harish(void *d, const gsp__sssp_graph *g, const int64_t *src, int64_t nsrc) {
  switch (g->t) {
  case GSP_INT32:
    return harish_i32(d, g, src, nsrc);
  case GSP_INT64:
    return harish_i64(d, g, src, nsrc);
  case GSP_FP32:
    return harish_f32(d, g, src, nsrc);
  case GSP_FP64:
    return harish_f64(d, g, src, nsrc);
  default:
    return GSP_ERROR(GSP_PANIC, "gsp__sssp_cpu_harish: type %d", (int)g->t);
  }
}
