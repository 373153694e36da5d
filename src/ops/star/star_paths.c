/*
 * Shortest-path trees from the sparse star's distances (star.h): the rule
 * every all-pairs algorithm follows (gsp__sssp_cpu_tree), so the star's
 * parents (gsp_apsp) and successors (gsp_closure_ext, trees of the reverse
 * graph) are the ones relaxation would give.
 */
#include "bellman_ford.h"
#include "star.h"

/* Pass A of the strict parent rule (gsp__sssp_cpu_tree) for one row, on
 * one thread without atomics: arcs in tail order, so the first tight tail
 * of smaller distance a vertex meets is its smallest. Returns whether
 * every reached vertex got its parent (else ties need the full rule). */
#define STAR_PASS_A(T, ADD)                                             \
  do {                                                                  \
    const T *dd = d, *w = g->w, lim = *(const T *)&g->lim;              \
    for (int64_t v = 0; v < n; v++) p[v] = -1;                          \
    p[s] = s;                                                           \
    for (int64_t u = 0; u < n; u++) {                                   \
      const T du = dd[u];                                               \
      if (!(du <= lim)) continue;                                       \
      for (gsp_index e = g->p[u]; e < g->p[u + 1]; e++) {               \
        const int64_t v = (int64_t)g->j[e];                             \
        if (p[v] < 0 && du < dd[v] && ADD(du, w[e]) == dd[v]) p[v] = u; \
      }                                                                 \
    }                                                                   \
    for (int64_t v = 0; v < n; v++)                                     \
      if (p[v] < 0 && dd[v] <= lim) return false;                       \
  } while (0)

static bool star_pass_a(const void *d, int64_t *p, int64_t s, const gsp__sssp_graph *g) {
  const int64_t n = g->n;
  switch (g->t) {
  case GSP_INT32:
    STAR_PASS_A(int32_t, gsp_min_plus_mul_i32);
    break;
  case GSP_INT64:
    STAR_PASS_A(int64_t, gsp_min_plus_mul_i64);
    break;
  case GSP_FP32:
    STAR_PASS_A(float, gsp_min_plus_mul_f32);
    break;
  default:
    STAR_PASS_A(double, gsp_min_plus_mul_f64);
    break;
  }
  return true;
}
#undef STAR_PASS_A

gsp_info gsp__star_tree_row(void *d, int64_t *p, int64_t s, const gsp__sssp_graph *g, bool strict, const char *fn) {
  if (strict && star_pass_a(d, p, s, g)) return GSP_SUCCESS;
  gsp_info info = gsp__sssp_cpu_tree(p, NULL, d, g, &s, 1, strict);
  if (info != GSP_PANIC || (g->t != GSP_FP32 && g->t != GSP_FP64)) return info;
  if (strict) return gsp__msssp_cpu(d, p, NULL, g, &s, 1);
  int64_t *cycle = gsp__malloc_array((size_t)g->n, sizeof *cycle), clen = 0, rounds = 0;
  if (!cycle) return GSP_ERROR(GSP_OUT_OF_MEMORY, "%s: cannot allocate a Bellman-Ford row", fn);
  info = gsp__bf_cpu(d, g, &s, 1, cycle, &clen, &rounds);
  gsp__free(cycle);
  return info < 0 ? info : gsp__sssp_cpu_tree(p, NULL, d, g, &s, 1, false);
}
