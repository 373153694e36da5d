/* Parents from final distances (the two parent rules): typed bodies and
 * dispatch. */
#include <math.h>

#include "sssp_cpu.h"
#include "sssp_gather.h"

#define SSSP_BODY "sssp_cpu_tree_body.h"
#include "sssp_cpu_stamp.h"

gsp_info gsp__sssp_cpu_tree(int64_t *parent, int64_t *root, const void *d, const gsp__sssp_graph *g, const int64_t *src,
                            int64_t nsrc, bool strict) {
  SSSP_DISPATCH(tree, g->t, parent, root, d, g, src, nsrc, strict)
}
