/*
 * Bellman-Ford on the CPU: the typed rounds (bf_cpu_body.h), the search for
 * a cycle in the parent graph, the exact re-check for integer distances
 * that saturated (the graph comes from gsp__bf_prepare, gsp_bellman_ford.c).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bellman_ford.h"

#define SSSP_BODY "sssp_cpu_typed.h"
#include "sssp_cpu_stamp.h"
#define SSSP_BODY "bf_cpu_body.h"
#include "sssp_cpu_stamp.h"

gsp_info gsp__bf_cpu(void *d, const gsp__sssp_graph *g, const int64_t *src, int64_t nsrc, int64_t *cycle, int64_t *clen,
                     int64_t *rounds){SSSP_DISPATCH(bf, g->t, d, g, src, nsrc, cycle, clen, rounds)}

int64_t gsp__bf_find_cycle(int64_t *cycle, const int64_t *pred, int64_t n, int64_t *scratch) {
  int64_t *stamp = scratch;
  for (int64_t v = 0; v < n; v++) stamp[v] = 0;
  for (int64_t s = 0; s < n; s++) {
    if (stamp[s] != 0) continue;
    int64_t x = s;
    while (x >= 0 && stamp[x] == 0) stamp[x] = s + 1, x = pred[x];
    if (x < 0 || stamp[x] != s + 1) continue; /* reached a root or an earlier walk */
    /* x is on a cycle: collect it against the arcs, then reverse */
    int64_t len = 0, y = x;
    do {
      cycle[len++] = y;
      y = pred[y];
    } while (y != x);
    for (int64_t i = 0, j = len - 1; i < j; i++, j--) {
      const int64_t t = cycle[i];
      cycle[i] = cycle[j], cycle[j] = t;
    }
    /* start at the smallest vertex, so the answer does not depend on x */
    int64_t at = 0;
    for (int64_t i = 1; i < len; i++)
      if (cycle[i] < cycle[at]) at = i;
    for (int64_t i = 0; i < len; i++) stamp[i] = cycle[(at + i) % len];
    for (int64_t i = 0; i < len; i++) cycle[i] = stamp[i];
    return len;
  }
  return 0;
}

/* ---- exact re-check for integers ---- */

/* Integer sums clamp at INT_MIN, which can stop a negative cycle from
 * lowering distances any further: the clamped rounds then reach a fixpoint
 * although a negative cycle is reachable. Without a distance at INT_MIN the
 * fixpoint proves there is none (every arc then satisfies d(v) <= d(u) + w
 * in exact arithmetic), so this sequential Bellman-Ford in 128-bit integers
 * (no overflow within n rounds) runs only in that rare case. */
typedef __int128 bf_wide;

gsp_info gsp__bf_exact_cycle(const gsp__sssp_graph *g, const int64_t *src, int64_t nsrc, int64_t *cycle,
                             int64_t *clen) {
  gsp_info info = GSP_SUCCESS;
  const int64_t n = g->n;
  bf_wide *wide = NULL; /* D, U */
  int64_t *ints = NULL; /* F, T, pred, cand */
  uint8_t *touched = NULL;
#define GSP_FREE_ALL (gsp__free(wide), gsp__free(ints), gsp__free(touched))
  GSP_ALLOC(wide, 2 * (size_t)n, sizeof *wide);
  GSP_ALLOC(ints, 4 * (size_t)n, sizeof *ints);
  GSP_CALLOC(touched, n, 1);
  bf_wide *D = wide, *U = wide + n;
  int64_t *F = ints, *T = ints + n, *pred = ints + 2 * n, *cand = ints + 3 * n;
  *clen = 0;
  const int32_t *w32 = g->t == GSP_INT32 ? (const int32_t *)g->w : NULL;
  const int64_t *w64 = g->t == GSP_INT64 ? (const int64_t *)g->w : NULL;
  const int64_t wmax = w32 ? INT32_MAX : INT64_MAX; /* an infinite arc */
  GSP_CHECK(w32 || w64, GSP_PANIC, "gsp__bf_exact_cycle: type %d", (int)g->t);
  for (int64_t v = 0; v < n; v++) D[v] = U[v] = 0, pred[v] = GSP__BF_UNREACHED;
  int64_t nf = 0;
  for (int64_t k = 0; k < nsrc; k++)
    if (pred[src[k]] == GSP__BF_UNREACHED) pred[src[k]] = GSP__BF_ROOT, F[nf++] = src[k];
#define BF_W(e) (w32 ? (int64_t)w32[e] : w64[e])
  for (int64_t r = 1; nf > 0; r++) {
    int64_t cnt = 0;
    for (int64_t k = 0; k < nf; k++) {
      const int64_t u = F[k];
      for (gsp_index e = g->p[u]; e < g->p[u + 1]; e++) {
        const int64_t v = (int64_t)g->j[e], x = BF_W(e);
        if (x == wmax) continue;
        const bf_wide nd = D[u] + x;
        if (pred[v] != GSP__BF_UNREACHED && !(nd < U[v])) continue;
        if (pred[v] == GSP__BF_UNREACHED && touched[v] && !(nd < U[v])) continue;
        U[v] = nd;
        if (!touched[v]) touched[v] = 1, cand[v] = INT64_MAX, T[cnt++] = v;
      }
    }
    for (int64_t k = 0; k < nf; k++) {
      const int64_t u = F[k];
      for (gsp_index e = g->p[u]; e < g->p[u + 1]; e++) {
        const int64_t v = (int64_t)g->j[e], x = BF_W(e);
        if (x != wmax && touched[v] && D[u] + x == U[v] && u < cand[v]) cand[v] = u;
      }
    }
    for (int64_t k = 0; k < cnt; k++) {
      const int64_t v = T[k];
      touched[v] = 0, D[v] = U[v], pred[v] = cand[v];
    }
    int64_t *tmp = F;
    F = T, T = tmp, nf = cnt;
    if (nf > 0 && r >= n) {
      *clen = gsp__bf_find_cycle(cycle, pred, n, T);
      GSP_CHECK(*clen > 0, GSP_PANIC, "exact Bellman-Ford: round %lld changed distances but no cycle", (long long)r);
      break;
    }
  }
#undef BF_W
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}
