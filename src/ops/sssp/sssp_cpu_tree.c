/* Parents from final distances (the two parent rules): typed bodies and
 * dispatch. */
#include <math.h>

#include "sssp_cpu.h"
#include "sssp_gather.h"

#define SSSP_BODY "sssp_cpu_tree_body.h"
#include "sssp_cpu_stamp.h"

gsp_info gsp__sssp_cpu_tree(int64_t *parent, int64_t *root, const void *d, const gsp__sssp_graph *g, const int64_t *src,
                            int64_t nsrc, bool strict) {
  switch (g->t) {
  case GSP_INT32:
    return tree_i32(parent, root, d, g, src, nsrc, strict);
  case GSP_INT64:
    return tree_i64(parent, root, d, g, src, nsrc, strict);
  case GSP_FP32:
    return tree_f32(parent, root, d, g, src, nsrc, strict);
  case GSP_FP64:
    return tree_f64(parent, root, d, g, src, nsrc, strict);
  default:
    return GSP_ERROR(GSP_PANIC, "gsp__sssp_cpu_tree: type %d", (int)g->t);
  }
}
