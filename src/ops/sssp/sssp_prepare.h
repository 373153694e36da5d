/*
 * Shared front end of gsp_sssp, gsp_nearest_source and gsp_msssp: argument
 * and weight checks, the prepared graph, and building the result objects.
 */
#ifndef SSSP_PREPARE_H
#define SSSP_PREPARE_H

#include "sssp_cpu.h"

/* Check A (handle, square, numeric type, non-negative and non-NaN weights)
 * and the common options, make A host CSR, and fill *g. cutoff must be
 * >= 0 (+inf allowed); delta >= 0 and finite (0: a heuristic). */
gsp_info gsp__sssp_prepare(gsp__sssp_graph *g, struct gsp_matrix_s *A, bool has_cutoff, double cutoff, double delta,
                           gsp_backend backend, const char *fn);

/* *out = a new int64 copy of the nsrc sources, each checked against n
 * (GSP_INVALID_INDEX naming the position); sources == NULL gives 0..n-1. */
gsp_info gsp__sssp_sources(int64_t **out, const gsp_index *sources, int64_t nsrc, int64_t n, const char *fn);

/* *pt = the parent type of options field `asked` for n vertices: 0
 * (GSP_BOOL) means GSP_INT64; GSP_INT32 needs n <= INT32_MAX; anything
 * else is GSP_INVALID_VALUE. */
gsp_info gsp__sssp_parent_type(gsp_type *pt, gsp_type asked, int64_t n, const char *fn);

/* Presence of distances: b[v] = (d[v] <= lim); returns the count. */
int64_t gsp__sssp_mark(uint8_t *b, const void *d, int64_t count, const gsp__sssp_graph *g);

/* +infinity of the graph's type into out (one value). */
void gsp__sssp_inf(void *out, gsp_type t);

/* Publish up to three new objects together: all become live handles or
 * none (on error every one is destroyed). NULL entries are skipped. */
gsp_info gsp__sssp_publish_vectors(struct gsp_vector_s *a, struct gsp_vector_s *b, struct gsp_vector_s *c);

#endif /* SSSP_PREPARE_H */
