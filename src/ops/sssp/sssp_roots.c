/* The roots of a shortest-path tree (sssp_cpu.h). */
#include "sssp_cpu.h"

gsp_info gsp__sssp_roots(int64_t *root, const int64_t *parent, int64_t n) {
  gsp_info info = GSP_SUCCESS;
  int64_t *path = NULL;
#define GSP_FREE_ALL gsp__free(path)
  GSP_ALLOC(path, n > 0 ? n : 1, sizeof *path);
  for (int64_t v = 0; v < n; v++) root[v] = parent[v] < 0 ? -1 : -2; /* -2: not known yet */
  for (int64_t v = 0; v < n; v++) {
    if (root[v] != -2) continue;
    int64_t len = 0, x = v;
    while (root[x] == -2 && parent[x] != x) {
      GSP_CHECK(len < n, GSP_PANIC, "shortest-path tree: the parents of vertex %lld form a cycle", (long long)v);
      path[len++] = x;
      x = parent[x];
    }
    if (root[x] == -2) root[x] = x; /* a source */
    const int64_t r = root[x];
    while (len > 0) root[path[--len]] = r;
  }
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
