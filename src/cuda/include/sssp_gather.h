/*
 * The last pass of gsp_sssp and gsp_nearest_source over their new result
 * vectors (and of gsp_msssp's rows on the GPU): one parallel pass that
 * writes the distances (from a staging buffer, or already in place), widens
 * the parents, writes every presence array and counts, so nothing scans the
 * results again. Plain C, included by the CUDA gateways as well (they call
 * it per staged chunk or batch).
 */
#ifndef SSSP_GATHER_H
#define SSSP_GATHER_H

#include <stdbool.h>
#include <stdint.h>

#include "gsp_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Host arrays of n entries that a run fills (new vectors' storage, maybe
 * fresh pages). */
typedef struct gsp__sssp_sink {
  void *dist;        /* distances, the graph's type */
  int64_t *parent;   /* parents (-1 where unreached), or NULL */
  int64_t *root;     /* nearest sources (-1 where unreached), or NULL */
  uint8_t *b[3];     /* presence to write (NULL: none): of dist, parent, root */
  int32_t *parent32; /* instead of parent: the parents as int32 (n < 2^31) */
} gsp__sssp_sink;

/*
 * Vertices [lo, lo + len): dist[v] = sd[v - lo] (sd NULL: dist already
 * holds them), parent[v] or parent32[v] = sp[v - lo] (sp NULL: none; int32
 * when psize is 4, int64 when 8), and unless `full` every b[k][v] = (dist[v] <= *lim)
 * for the b[k] that are not NULL, lim one value of t. Returns how many of
 * them are present (len when full; counted also when no b[k] is given).
 * Runs on up to nthreads OpenMP threads.
 */
int64_t gsp__sssp_gather(const gsp__sssp_sink *s, gsp_type t, const void *lim, bool full, int64_t lo, int64_t len,
                         const void *sd, const void *sp, int psize, int nthreads);

/* Write one byte of every 4 KiB page of the n-entry arrays of s, so that
 * new pages are mapped by nthreads threads at once; the gateway calls it
 * while the device computes. The bytes written are overwritten later. */
void gsp__sssp_touch(const gsp__sssp_sink *s, gsp_type t, int64_t n, int nthreads);

/* b[0, n) = 1 (every cell present), on up to nthreads threads. */
void gsp__sssp_present_all(uint8_t *b, int64_t n, int nthreads);

/* root[v] = the source at the top of v's parent chain (parent[s] == s),
 * -1 where parent[v] < 0; GSP_PANIC if a chain closes a cycle,
 * GSP_OUT_OF_MEMORY. O(n): each vertex is walked once. */
gsp_info gsp__sssp_roots(int64_t *root, const int64_t *parent, int64_t n);

#ifdef __cplusplus
}
#endif
#endif /* SSSP_GATHER_H */
