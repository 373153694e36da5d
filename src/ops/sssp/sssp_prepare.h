/*
 * Shared front end of the shortest-path calls (gsp_sssp, gsp_nearest_source,
 * gsp_msssp, gsp_apsp, Bellman-Ford in src/ops/bf): argument checks, the one scan of the
 * weights, the prepared graph, and building the result objects.
 */
#ifndef SSSP_PREPARE_H
#define SSSP_PREPARE_H

#include "sssp_cpu.h"

/* Check A (handle, square, numeric type, non-negative and non-NaN weights)
 * and the common options, make A host CSR, and fill *g. cutoff must be
 * >= 0 (+inf allowed); delta >= 0 and finite (0: a heuristic). */
gsp_info gsp__sssp_prepare(gsp__sssp_graph *g, struct gsp_matrix_s *A, bool has_cutoff, double cutoff, double delta,
                           gsp_backend backend, const char *fn);

/* The same with negative_ok: negative weights pass the checks (Bellman-Ford's
 * front, gsp__bf_prepare); NaN and -inf never do. */
gsp_info gsp__sssp_prepare_graph(gsp__sssp_graph *g, struct gsp_matrix_s *A, bool has_cutoff, double cutoff,
                                 double delta, bool negative_ok, gsp_backend backend, const char *fn);

/* What the shortest-path calls need to know of A's weights (entries in
 * CSR storage order). */
typedef struct {
  int64_t negative; /* first entry < 0 or NaN, or -1 */
  int64_t invalid;  /* first NaN or -inf entry, or -1 (never for integers) */
  bool positive;    /* every weight > 0 */
  double sum;       /* sum of the weights below +inf */
} gsp__weights;

/* One pass over the weights of host CSR A with nt threads. */
gsp__weights gsp__weights_scan(const struct gsp_matrix_s *A, int nt);

/* GSP_INVALID_VALUE naming the entry (row and column) when w shows a NaN
 * or -inf weight, or with !negative_ok a negative one; else GSP_SUCCESS. */
gsp_info gsp__weights_check(const struct gsp_matrix_s *A, const gsp__weights *w, bool negative_ok, const char *fn);

/* The distance limit in type t: the cutoff rounded down into t, or
 * without one (or above it) the largest finite value of t. */
gsp__value gsp__sssp_limit(gsp_type t, bool has_cutoff, double cutoff);

/* *out = a new int64 copy of the nsrc sources, each checked against n
 * (GSP_INVALID_INDEX naming the position); sources == NULL gives 0..n-1. */
gsp_info gsp__sssp_sources(int64_t **out, const gsp_index *sources, int64_t nsrc, int64_t n, const char *fn);

/* *pt = the parent type of options field `asked` for n vertices: 0
 * (GSP_BOOL) means GSP_INT64; GSP_INT32 needs n <= INT32_MAX; anything
 * else is GSP_INVALID_VALUE. */
gsp_info gsp__sssp_parent_type(gsp_type *pt, gsp_type asked, int64_t n, const char *fn);

/* Presence of distances: b[v] = (d[v] <= lim); returns the count. */
int64_t gsp__sssp_mark(uint8_t *b, const void *d, int64_t count, const gsp__sssp_graph *g);

/* Publish up to three new objects together: all become live handles or
 * none (on error every one is destroyed). NULL entries are skipped. */
gsp_info gsp__sssp_publish_vectors(struct gsp_vector_s *a, struct gsp_vector_s *b, struct gsp_vector_s *c);

/* Publish the result matrix a and, when not NULL, b together: both become
 * live handles or neither does (the caller still owns them on error). */
gsp_info gsp__sssp_publish_matrices(struct gsp_matrix_s *a, struct gsp_matrix_s *b);

#endif /* SSSP_PREPARE_H */
