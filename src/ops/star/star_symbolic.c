/*
 * The symbolic analysis of the sparse star (star.h): a fill-reducing order
 * of the symmetrized pattern of A from METIS (nested dissection) or AMD,
 * and the supernodes of the factor with their row structures from
 * CHOLMOD's supernodal analysis (relaxed amalgamation, postorder). What
 * the numeric factorization and the solves need is copied out into plain
 * arrays (positions, relative indices, each arc's place in the factor), so
 * neither library is needed after this file.
 */
#include <stdlib.h>
#include <string.h>

#include <metis.h>
#include <cholmod.h>

#include "star.h"

/* Below this many vertices METIS's dissection costs more than it saves. */
#define STAR_METIS_MIN_N 256

void gsp__star_symbolic_free(gsp__star_symbolic *S) {
  if (!S) return;
  gsp__free(S->perm);
  gsp__free(S->iperm);
  gsp__free(S->super);
  gsp__free(S->rp);
  gsp__free(S->rows);
  gsp__free(S->parent);
  gsp__free(S->vp);
  gsp__free(S->rel);
  gsp__free(S->col_super);
  gsp__free(S->arc_at);
  memset(S, 0, sizeof *S);
}

/* The pattern of G + G^T without the diagonal or repeats, as CSR (both
 * halves: the graph METIS reads; its upper part is CHOLMOD's). */
static gsp_info sym_pattern(int64_t **pp, int64_t **pj, const struct gsp_matrix_s *G, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  int64_t *p = NULL, *j = NULL, *mark = NULL;
#define GSP_FREE_ALL (gsp__free(p), gsp__free(j), gsp__free(mark))
  const int64_t n = G->nrows;
  const gsp_index *gp = G->p, *gj = G->j;
  GSP_ALLOC(p, (size_t)n + 1, sizeof *p);
  GSP_ALLOC(mark, n > 0 ? (size_t)n : 1, sizeof *mark);
  /* upper bound: each arc counted in both rows */
  memset(p, 0, ((size_t)n + 1) * sizeof *p);
  for (int64_t u = 0; u < n; u++)
    for (gsp_index e = gp[u]; e < gp[u + 1]; e++)
      if ((int64_t)gj[e] != u) p[u + 1]++, p[gj[e] + 1]++;
  for (int64_t u = 0; u < n; u++) p[u + 1] += p[u];
  GSP_ALLOC(j, p[n] > 0 ? (size_t)p[n] : 1, sizeof *j);
  int64_t *fill = mark; /* next free slot of each row */
  for (int64_t u = 0; u < n; u++) fill[u] = p[u];
  for (int64_t u = 0; u < n; u++)
    for (gsp_index e = gp[u]; e < gp[u + 1]; e++) {
      const int64_t v = (int64_t)gj[e];
      if (v != u) j[fill[u]++] = v, j[fill[v]++] = u;
    }
  /* drop repeats, compacting in place */
  for (int64_t u = 0; u < n; u++) mark[u] = -1;
  int64_t at = 0;
  for (int64_t u = 0; u < n; u++) {
    const int64_t a = p[u], b = p[u + 1];
    p[u] = at;
    for (int64_t e = a; e < b; e++)
      if (mark[j[e]] != u) mark[j[e]] = u, j[at++] = j[e];
  }
  p[n] = at;
  *pp = p;
  *pj = j;
  p = j = NULL;
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* METIS nested dissection: perm[k] = the vertex eliminated k-th. */
static gsp_info metis_order(int64_t *perm, int64_t n, const int64_t *p, const int64_t *j, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  idx_t *xadj = NULL, *adj = NULL, *mp = NULL, *mip = NULL;
#define GSP_FREE_ALL (gsp__free(xadj), gsp__free(adj), gsp__free(mp), gsp__free(mip))
  GSP_CHECK(n < INT32_MAX && p[n] < INT32_MAX, GSP_TOO_LARGE,
            "%s: %lld vertices and %lld symmetric arcs exceed METIS's 32-bit indices", fn, (long long)n,
            (long long)p[n]);
  GSP_ALLOC(xadj, (size_t)n + 1, sizeof *xadj);
  GSP_ALLOC(adj, p[n] > 0 ? (size_t)p[n] : 1, sizeof *adj);
  GSP_ALLOC(mp, (size_t)n, sizeof *mp);
  GSP_ALLOC(mip, (size_t)n, sizeof *mip);
  for (int64_t u = 0; u <= n; u++) xadj[u] = (idx_t)p[u];
  for (int64_t e = 0; e < p[n]; e++) adj[e] = (idx_t)j[e];
  idx_t nv = (idx_t)n, options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  const int rc = METIS_NodeND(&nv, xadj, adj, NULL, options, mp, mip);
  GSP_CHECK(rc == METIS_OK, rc == METIS_ERROR_MEMORY ? GSP_OUT_OF_MEMORY : GSP_PANIC,
            "%s: METIS_NodeND failed (code %d) on %lld vertices", fn, rc, (long long)n);
  /* METIS's "perm" is the elimination order: perm[k] = the k-th vertex
   * (measured: the other array gives a 2-D grid a supernode of 10 x its
   * side) */
  for (int64_t k = 0; k < n; k++) perm[k] = (int64_t)mp[k];
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* Copy CHOLMOD's supernodes out: positions, row structures, parents. */
static gsp_info take_supernodes(gsp__star_symbolic *S, const cholmod_factor *L, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  const int64_t n = S->n, ns = (int64_t)L->nsuper;
  const SuiteSparse_long *super = L->super, *pi = L->pi, *ls = L->s, *Lperm = L->Perm;
  S->nsuper = ns;
  GSP_ALLOC(S->super, (size_t)ns + 1, sizeof *S->super);
  GSP_ALLOC(S->rp, (size_t)ns + 1, sizeof *S->rp);
  GSP_ALLOC(S->parent, ns > 0 ? (size_t)ns : 1, sizeof *S->parent);
  GSP_ALLOC(S->vp, (size_t)ns + 1, sizeof *S->vp);
  GSP_ALLOC(S->col_super, n > 0 ? (size_t)n : 1, sizeof *S->col_super);
  for (int64_t k = 0; k < n; k++) {
    S->perm[k] = (int64_t)Lperm[k];
    S->iperm[S->perm[k]] = k;
  }
  int64_t nrows = 0;
  for (int64_t s = 0; s < ns; s++) nrows += (int64_t)(pi[s + 1] - pi[s]) - (int64_t)(super[s + 1] - super[s]);
  GSP_ALLOC(S->rows, nrows > 0 ? (size_t)nrows : 1, sizeof *S->rows);
  GSP_ALLOC(S->rel, nrows > 0 ? (size_t)nrows : 1, sizeof *S->rel);
  S->rp[0] = S->vp[0] = 0;
  S->factor_ops = S->solve_ops = 0;
  S->max_ns = S->max_nr = 0;
  for (int64_t s = 0; s < ns; s++) {
    const int64_t k0 = (int64_t)super[s], k1 = (int64_t)super[s + 1], w = k1 - k0;
    S->super[s] = k0;
    for (int64_t k = k0; k < k1; k++) S->col_super[k] = s;
    /* CHOLMOD lists K first, then R in ascending order */
    const int64_t *r0 = (const int64_t *)(ls + pi[s]) + w;
    const int64_t nr = (int64_t)(pi[s + 1] - pi[s]) - w;
    int64_t *dst = S->rows + S->rp[s];
    for (int64_t r = 0; r < nr; r++) {
      dst[r] = r0[r];
      GSP_CHECK(dst[r] >= (r ? dst[r - 1] + 1 : k1), GSP_PANIC,
                "%s: CHOLMOD's supernode %lld lists its rows out of order", fn, (long long)s);
    }
    S->rp[s + 1] = S->rp[s] + nr;
    S->vp[s + 1] = S->vp[s] + w * w + 2 * w * nr;
    if (w > S->max_ns) S->max_ns = w;
    if (nr > S->max_nr) S->max_nr = nr;
    /* closure w^3, panel nr w^2, update nr^2 w; a solve touches D, L, U */
    S->factor_ops += (double)w * w * w + (double)nr * w * w + (double)nr * nr * w;
    S->solve_ops += (double)w * w + 2.0 * w * nr;
  }
  S->super[ns] = n;
  S->nvals = S->vp[ns];
  /* parents and relative indices: R of s lies within K and R of its parent */
  for (int64_t s = 0; s < ns; s++) {
    const int64_t a = S->rp[s], b = S->rp[s + 1];
    S->parent[s] = a < b ? S->col_super[S->rows[a]] : -1;
    if (a == b) continue;
    const int64_t q = S->parent[s], qk0 = S->super[q], qw = S->super[q + 1] - qk0;
    const int64_t *qr = S->rows + S->rp[q], qnr = S->rp[q + 1] - S->rp[q];
    int64_t at = 0;
    for (int64_t r = a; r < b; r++) {
      const int64_t pos = S->rows[r];
      if (pos < qk0 + qw) {
        S->rel[r] = pos - qk0;
        continue;
      }
      while (at < qnr && qr[at] < pos) at++;
      GSP_CHECK(at < qnr && qr[at] == pos, GSP_PANIC, "%s: supernode %lld's row %lld is not in its parent's structure",
                fn, (long long)s, (long long)pos);
      S->rel[r] = qw + at;
    }
  }
  return info;
}

/* Where supernode s's front puts position pos (0 .. ns + nr - 1). */
static int64_t front_index(const gsp__star_symbolic *S, int64_t s, int64_t pos) {
  const int64_t k0 = S->super[s], w = S->super[s + 1] - k0;
  if (pos < k0 + w) return pos - k0;
  const int64_t *r = S->rows + S->rp[s];
  int64_t lo = 0, hi = S->rp[s + 1] - S->rp[s];
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (r[mid] < pos) lo = mid + 1;
    else hi = mid;
  }
  return w + lo;
}

/* arc_at: each arc's value in the factor (star.h's layout). */
static gsp_info place_arcs(gsp__star_symbolic *S, const struct gsp_matrix_s *G, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  const int64_t n = S->n;
  GSP_ALLOC(S->arc_at, S->m > 0 ? (size_t)S->m : 1, sizeof *S->arc_at);
  for (int64_t u = 0; u < n; u++)
    for (gsp_index e = G->p[u]; e < G->p[u + 1]; e++) {
      const int64_t pu = S->iperm[u], pv = S->iperm[G->j[e]];
      const int64_t s = S->col_super[pu < pv ? pu : pv];
      const int64_t w = S->super[s + 1] - S->super[s], nr = S->rp[s + 1] - S->rp[s];
      const int64_t i = front_index(S, s, pu), j = front_index(S, s, pv);
      int64_t at;
      if (i < w && j < w) at = i * w + j;           /* D */
      else if (j < w) at = w * w + (i - w) * w + j; /* L[r][k] = F[R_r][K_k] */
      else at = w * w + nr * w + (j - w) * w + i;   /* U[r][k] = F[K_k][R_r] */
      GSP_CHECK(i < w || j < w, GSP_PANIC, "%s: arc %lld -> %lld outside its supernode's front", fn, (long long)u,
                (long long)G->j[e]);
      S->arc_at[e] = S->vp[s] + at;
    }
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__star_analyze(gsp__star_symbolic *S, const struct gsp_matrix_s *G, star_order order, const char *fn) {
  gsp_info info = GSP_SUCCESS;
  int64_t *sp = NULL, *sj = NULL;
  cholmod_common cc;
  bool started = false;
  cholmod_sparse *C = NULL;
  cholmod_factor *L = NULL;
#define GSP_FREE_ALL                                         \
  (gsp__free(sp), gsp__free(sj), gsp__star_symbolic_free(S), \
   started ? (cholmod_l_free_factor(&L, &cc), cholmod_l_free_sparse(&C, &cc), cholmod_l_finish(&cc)) : 0)
  memset(S, 0, sizeof *S);
  const int64_t n = G->nrows;
  S->n = n;
  S->m = G->nvals;
  GSP_ALLOC(S->perm, n > 0 ? (size_t)n : 1, sizeof *S->perm);
  GSP_ALLOC(S->iperm, n > 0 ? (size_t)n : 1, sizeof *S->iperm);
  GSP_TRY(sym_pattern(&sp, &sj, G, fn));
  const bool metis = order == STAR_ORDER_METIS || (order == STAR_ORDER_AUTO && n >= STAR_METIS_MIN_N);
  S->ordering = metis ? "METIS" : "AMD";
  if (metis && n > 0) GSP_TRY(metis_order(S->perm, n, sp, sj, fn));

  /* CHOLMOD reads the upper triangle, column by column: for column v the
   * rows u < v, which are row v's entries below v in the symmetric CSR */
  cholmod_l_start(&cc);
  started = true;
  cc.supernodal = CHOLMOD_SUPERNODAL;
  cc.nmethods = 1;
  cc.method[0].ordering = metis ? CHOLMOD_GIVEN : CHOLMOD_AMD;
  cc.postorder = 1;
  int64_t nup = 0;
  for (int64_t v = 0; v < n; v++)
    for (int64_t e = sp[v]; e < sp[v + 1]; e++) nup += sj[e] < v;
  C = cholmod_l_allocate_sparse((size_t)n, (size_t)n, (size_t)nup, 0, 1, 1, CHOLMOD_PATTERN, &cc);
  GSP_CHECK(C != NULL, cc.status == CHOLMOD_OUT_OF_MEMORY ? GSP_OUT_OF_MEMORY : GSP_PANIC,
            "%s: CHOLMOD could not hold the %lld x %lld pattern (status %d)", fn, (long long)n, (long long)n,
            cc.status);
  SuiteSparse_long *cp = C->p, *ci = C->i;
  nup = 0;
  for (int64_t v = 0; v < n; v++) {
    cp[v] = nup;
    for (int64_t e = sp[v]; e < sp[v + 1]; e++)
      if (sj[e] < v) ci[nup++] = sj[e];
  }
  cp[n] = nup;
  GSP_FREE(sp);
  GSP_FREE(sj);
  L = cholmod_l_analyze_p(C, metis ? (SuiteSparse_long *)S->perm : NULL, NULL, 0, &cc);
  GSP_CHECK(L != NULL && L->is_super, cc.status == CHOLMOD_OUT_OF_MEMORY ? GSP_OUT_OF_MEMORY : GSP_PANIC,
            "%s: CHOLMOD's supernodal analysis failed (status %d)", fn, cc.status);
  GSP_TRY(take_supernodes(S, L, fn));
  GSP_TRY(place_arcs(S, G, fn));
  cholmod_l_free_factor(&L, &cc);
  cholmod_l_free_sparse(&C, &cc);
  cholmod_l_finish(&cc);
#undef GSP_FREE_ALL
  return info;
}
