/* The shortest-path tree drawn by `gsp sssp --geojson/--svg`, rebuilt from
 * the distances alone so that every SSSP method (gsp_sssp, Bellman-Ford,
 * the vxm loop) gives one: breadth-first from the source over tight arcs,
 * d[u] + w(u,v) == d[v] evaluated in the graph's own type (exactly the
 * sums the methods formed). Breadth-first order makes it a tree even when
 * zero-weight cycles give a vertex several tight in-arcs. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

gsp_info cli_tight_tree(gsp_index **parent_out, gsp_matrix A, gsp_index src, const gsp_index *I, const void *X,
                        gsp_index cnt, const double *cutoff) {
  gsp_info info;
  gsp_index n, m;
  gsp_type ty;
  if ((info = gsp_matrix_nrows(&n, A)) < 0 || (info = gsp_matrix_nvals(&m, A)) < 0 ||
      (info = gsp_matrix_type(&ty, A)) < 0)
    return info;
  size_t ts = gsp_type_size(ty);
  gsp_index *rp = malloc((n + 1) * sizeof *rp);
  gsp_index *ci = malloc((m + 1) * sizeof *ci);
  void *W = malloc((m + 1) * ts), *D = calloc(n + 1, ts);
  gsp_index *parent = malloc((n + 1) * sizeof *parent);
  gsp_index *queue = malloc((n + 1) * sizeof *queue);
  bool *in = calloc(n + 1, 1);
  if (!rp || !ci || !W || !D || !parent || !queue || !in) {
    info = GSP_OUT_OF_MEMORY;
    goto done;
  }
  if ((info = gsp_matrix_export_csr(rp, ci, W, A)) < 0) goto done;
  for (gsp_index k = 0; k < cnt; k++) {
    const void *x = (const char *)X + k * ts;
    if (cutoff && cli_value_at(ty, X, k) > *cutoff) continue;
    in[I[k]] = true;
    memcpy((char *)D + I[k] * ts, x, ts);
  }
  for (gsp_index v = 0; v < n; v++) parent[v] = n;
  gsp_index head = 0, tail = 0;
  if (src < n && in[src]) {
    parent[src] = src;
    queue[tail++] = src;
  }
  while (head < tail) {
    gsp_index u = queue[head++];
    for (gsp_index k = rp[u]; k < rp[u + 1]; k++) {
      gsp_index v = ci[k];
      if (!in[v] || parent[v] != n || !cli_tight(ty, D, u, v, W, k)) continue;
      parent[v] = u;
      queue[tail++] = v;
    }
  }
  *parent_out = parent;
  parent = NULL;
  info = GSP_SUCCESS;
done:
  free(rp);
  free(ci);
  free(W);
  free(D);
  free(parent);
  free(queue);
  free(in);
  return info;
}
