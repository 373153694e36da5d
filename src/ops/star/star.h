/*
 * The sparse star: A* of a sparse matrix by Gaussian elimination over the
 * semiring (Carre's algorithm) in a fill-reducing order, internal to
 * src/ops. gsp_star.c owns the public object; this header joins the three
 * steps it runs:
 *
 *  - symbolic (star_symbolic.c): the symmetrized pattern ordered by METIS
 *    nested dissection or AMD, and CHOLMOD's supernodal analysis of it
 *    (supernodes, their row structures, the assembly tree);
 *  - numeric (star_numeric.c): per supernode in tree order, the closure D
 *    of its diagonal block, the panels L = F[R,K] (x) D and U = F[K,R],
 *    and the update of its ancestors, C = F[R,R] + L (x) U, passed to the
 *    parent by relative indices (multifrontal extend-add);
 *  - solves (star_solve.c): rows and columns of A* from the factor, a block
 *    of STAR_B right-hand sides at a time.
 *
 * With the vertices in elimination order and K, R the columns and the
 * other rows of a supernode, row x = e A* is found as
 *   forward, supernodes ascending:  x_K := x_K (x) D;  x_R += x_K (x) F[K,R]
 *   backward, descending:           x_K += x_R (x) L
 * and column y = A* e as
 *   forward:   y_R += L (x) y_K
 *   backward:  y_K := D (x) (y_K + F[K,R] (x) y_R)
 * (the 2 x 2 block form of the star, applied recursively; Backhouse and
 * Carre 1975). The work of a row is the factor's size, not n^2 or m n.
 */
#ifndef GSP_STAR_H
#define GSP_STAR_H

#include <stdbool.h>
#include <stdint.h>

#include "gsp_internal.h"
#include "sssp_cpu.h"

/* Right-hand sides solved together: one row of the work array W holds
 * STAR_B values of one vertex, a whole number of cache lines of every
 * type, and the inner loops are STAR_B wide vector operations. */
#define STAR_B 64

/* The symbolic analysis: everything that depends on A's pattern alone. */
typedef struct {
  int64_t n, m;   /* vertices, arcs of A (its CSR entries) */
  int64_t nsuper; /* supernodes, in elimination (post)order */
  int64_t *perm;  /* perm[k]: the vertex eliminated k-th */
  int64_t *iperm; /* iperm[v]: v's position in that order */
  int64_t *super; /* nsuper + 1: supernode s has positions super[s] ..
                        super[s + 1] - 1 (its columns K) */
  int64_t *rp;    /* nsuper + 1: its other rows R are rows[rp[s] ..
                        rp[s + 1]), positions in ascending order, all
                        after K (they belong to ancestors) */
  int64_t *rows;
  int64_t *parent;    /* the supernode holding R's first row; -1: a root */
  int64_t *vp;        /* nsuper + 1: s's values in the factor start at
                        vp[s]: D (ns x ns), L (nr x ns), U (nr x ns), each
                        row-major; L[r][k] = F[R_r, K_k], U[r][k] =
                        F[K_k, R_r] */
  int64_t *rel;       /* rp-indexed: where R_r of s lies in its parent's
                        front, 0 .. ns_p + nr_p - 1 (K_p first, then R_p) */
  int64_t *col_super; /* n: the supernode of each position */
  /* where each arc of A goes: value e of A's CSR lands at factor value
     arc_at[e] (or, for arcs between two rows of R, nowhere: none exist) */
  int64_t *arc_at;
  int64_t nvals; /* values of the factor */
  int64_t max_ns, max_nr;
  double factor_ops;    /* semiring multiply-adds of the numeric factorization */
  double solve_ops;     /* of one full row (or column) solve, per right-hand side */
  const char *ordering; /* "METIS", "AMD" or "natural" */
} gsp__star_symbolic;

/* Orderings of the symbolic analysis (gsp_star_opts). */
typedef enum { STAR_ORDER_AUTO = 0, STAR_ORDER_METIS, STAR_ORDER_AMD } star_order;

/* The analysis of the square CSR matrix G (its pattern; the diagonal is
 * ignored by the ordering). Errors: GSP_OUT_OF_MEMORY, GSP_TOO_LARGE (more
 * than 2^31 - 1 vertices or arcs for METIS), GSP_PANIC (an ordering or
 * analysis failure, named). */
gsp_info gsp__star_analyze(gsp__star_symbolic *S, const struct gsp_matrix_s *G, star_order order, const char *fn);
void gsp__star_symbolic_free(gsp__star_symbolic *S);

/* The kernels of one (semiring, type), from star_kernels_body.h. */
typedef struct {
  gsp_semiring sr;
  size_t esize;
  /* x[0 .. cnt) = the semiring zero */
  void (*fill_zero)(void *x, int64_t cnt);
  /* x[at[e]] = add(x[at[e]], a[e]) for the m arcs (at[e] >= 0) */
  void (*assemble)(void *x, const int64_t *at, const void *a, int64_t m);
  /* supernode s of the factor x: close D (GSP_NEGATIVE_CYCLE when its
   * diagonal beats the one, *bad = its position in K), L := L (x) D, and
   * C (nr x nr, zero on entry plus the children's updates) += L (x) U;
   * work: ns * (ns + nr) scratch values */
  gsp_info (*factor)(void *x, void *C, const gsp__star_symbolic *S, int64_t s, void *work, int64_t *bad);
  /* the child's update block C (its nr x nr) added into its parent's
   * front (factor values and the parent's C) */
  void (*extend_add)(void *x, void *Cp, const void *C, const gsp__star_symbolic *S, int64_t child);
  /* rows (col = false) or columns of A* for STAR_B right-hand sides in W
   * (n x STAR_B, vertex-major in elimination order; on entry the unit
   * vectors, on return the result); active[s]: s is an ancestor of (or)
   * a right-hand side's supernode (the forward pass skips the others);
   * work: max_ns x STAR_B values */
  void (*solve)(void *W, const void *x, const gsp__star_symbolic *S, const uint8_t *active, bool col, void *work);
  /* lane b of W (positions iperm[v]) into row row[b] of out (n values a
   * row, row-major) */
  void (*unpack)(void *out, const void *W, const int64_t *iperm, int64_t n, const int64_t *row, int64_t nb);
  /* W = zero, W[pos[b]][b] = one for lanes b < nb */
  void (*unit)(void *W, int64_t n, const int64_t *pos, int64_t nb);
} gsp__star_kernels;

/* The kernels of (t, s), or GSP_DOMAIN_MISMATCH when s has no closure of
 * type t (PLUS_TIMES, OR_AND on numbers, numbers on OR_AND). */
gsp_info gsp__star_kernels_get(gsp__star_kernels *k, gsp_type t, gsp_semiring s, const char *fn);

/* The numeric factorization of G (same pattern as S was made from) into
 * x (S->nvals values). GSP_NEGATIVE_CYCLE names the cycle in the message
 * (fn's): for MIN_PLUS its vertices, found by Bellman-Ford on G, for
 * MAX_PLUS a vertex whose elimination closed it. */
gsp_info gsp__star_factor(void *x, const gsp__star_kernels *k, const gsp__star_symbolic *S,
                          const struct gsp_matrix_s *G, int nthreads, const char *fn);

/* The solves' scratch, one set per thread (made once for many calls):
 * the work array W (n x STAR_B), the kernels' work, the active marks. */
typedef struct {
  int nt;
  size_t wbytes, kbytes, abytes;
  char *W, *work;
  uint8_t *active;
} gsp__star_ws;

gsp_info gsp__star_ws_make(gsp__star_ws *ws, const gsp__star_kernels *k, const gsp__star_symbolic *S, int nthreads);
void gsp__star_ws_free(gsp__star_ws *ws);

/* What a solve hands over, one block of right-hand sides at a time (from
 * several threads at once; thread: 0 .. ws->nt - 1): W as the kernels'
 * solve leaves it, lane b holding right-hand side row[b] (an index into
 * v), b < nb. A negative return stops the solve with that code. */
typedef gsp_info (*gsp__star_block_fn)(void *ctx, const void *W, const int64_t *row, int64_t nb, int thread);

/* Rows (col = false) or columns v[0 .. nv) of A*, a block of STAR_B at a
 * time on ws->nt threads, each solved block handed to fn. */
gsp_info gsp__star_solve_each(const gsp__star_kernels *k, const gsp__star_symbolic *S, const void *x, const int64_t *v,
                              int64_t nv, bool col, const gsp__star_ws *ws, gsp__star_block_fn fn, void *ctx);

/* Rows (col = false) or columns v[0 .. nv) of A* into out (nv x n values
 * of the type, row k = row or column v[k]; zero where no path). */
gsp_info gsp__star_solve(void *out, const gsp__star_kernels *k, const gsp__star_symbolic *S, const void *x,
                         const int64_t *v, int64_t nv, bool col, const gsp__star_ws *ws);

/* Row d (the star's distances from s in g, of g's type) and its parents p by the rule of the other algorithms: pass A
 * alone where it places every vertex (no ties, no negative weight: road
 * networks), else gsp__sssp_cpu_tree (strict: no negative weight), which
 * needs every reached vertex at the end of a tight arc in A's arithmetic.
 * Float sums taken in the elimination's order can miss that by a rounding
 * (fractional weights): such a row is computed again by relaxation
 * (Bellman-Ford with a negative weight), whose distances are the fixpoint
 * by construction, and d is overwritten with them. */
gsp_info gsp__star_tree_row(void *d, int64_t *p, int64_t s, const gsp__sssp_graph *g, bool strict, const char *fn);

#endif /* GSP_STAR_H */
