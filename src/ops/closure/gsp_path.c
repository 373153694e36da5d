/*
 * gsp_path_from_succ: walk a successor matrix from src towards dst. The walk
 * is bounded by n - 1 hops, so a corrupt or foreign matrix (a cycle, an
 * index out of range, a hole on the way) gives GSP_INVALID_VALUE instead of
 * a loop that never ends.
 */
#include "gsp_internal.h"

static const char *const fn = "gsp_path_from_succ";

/* Next hop from v towards dst: GSP_SUCCESS with *next, GSP_NO_VALUE when
 * succ(v, dst) is absent. */
static gsp_info next_hop(int64_t *next, const struct gsp_matrix_s *S, int64_t v, int64_t dst) {
  size_t at;
  const gsp_info info = gsp__matrix_entry_at(&at, S, v, dst);
  if (info == GSP_SUCCESS) *next = ((const int64_t *)S->x)[at];
  return info;
}

/* Number of vertices on the path (>= 1), or GSP_NO_VALUE / an error. When
 * path != NULL the vertices are written to it (the caller checked room). */
static gsp_info walk(int64_t *count, gsp_index *path, const struct gsp_matrix_s *S, int64_t src, int64_t dst) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  const int64_t n = S->nrows;
  int64_t v = src, len = 1;
  if (path) path[0] = (gsp_index)src;
  while (v != dst) {
    int64_t next = -1;
    gsp_info hop = next_hop(&next, S, v, dst);
    if (hop == GSP_NO_VALUE) {
      GSP_CHECK(v == src, GSP_INVALID_VALUE,
                "%s: succ has no entry (%lld, %lld) on the path %lld -> %lld: not a successor matrix", fn, (long long)v,
                (long long)dst, (long long)src, (long long)dst);
      return GSP_NO_VALUE; /* no path from src at all */
    }
    GSP_CHECK(next >= 0 && next < n, GSP_INVALID_VALUE, "%s: succ(%lld, %lld) = %lld is not a vertex of 0..%lld", fn,
              (long long)v, (long long)dst, (long long)next, (long long)(n - 1));
    /* A simple path has at most n vertices; more means succ has a cycle. */
    GSP_CHECK(len < n, GSP_INVALID_VALUE, "%s: succ loops on the way %lld -> %lld: not a successor matrix", fn,
              (long long)src, (long long)dst);
    if (path) path[len] = (gsp_index)next;
    len++;
    v = next;
  }
  *count = len;
  return info;
}

gsp_info gsp_path_from_succ(gsp_index *path, gsp_index *len, const gsp_matrix succ, gsp_index src, gsp_index dst) {
  gsp_info info = GSP_SUCCESS;
  GSP_CHECK(len != NULL, GSP_NULL_POINTER, "%s: len is NULL", fn);
  GSP_CHECK(path != NULL || *len == 0, GSP_NULL_POINTER, "%s: path is NULL with capacity %llu", fn,
            (unsigned long long)*len);
  GSP_OUTPUTS(fn, {path, *len > SIZE_MAX / sizeof *path ? SIZE_MAX : *len * sizeof *path, "path"},
              {len, sizeof *len, "len"});
  GSP_TRY(gsp__check_matrix(succ, fn, "succ"));
  GSP_CHECK(succ->type == GSP_INT64, GSP_DOMAIN_MISMATCH, "%s: succ has type %s, not INT64", fn,
            gsp__type_name(succ->type));
  GSP_CHECK(succ->nrows == succ->ncols, GSP_DIMENSION_MISMATCH, "%s: succ is %lld x %lld, not square", fn,
            (long long)succ->nrows, (long long)succ->ncols);
  const int64_t n = succ->nrows;
  GSP_CHECK(src < (gsp_index)n && dst < (gsp_index)n, GSP_INVALID_INDEX,
            "%s: src %llu or dst %llu out of range 0..%lld", fn, (unsigned long long)src, (unsigned long long)dst,
            (long long)n - 1);
  /* Dense or CSR are read directly; anything else is converted once. */
  GSP_TRY(gsp__matrix_host(succ));
  if (succ->fmt != GSP_FMT_DENSE && succ->fmt != GSP_FMT_CSR) GSP_TRY(gsp__matrix_to_dense(succ));

  int64_t count = 0;
  info = walk(&count, NULL, succ, (int64_t)src, (int64_t)dst);
  if (info != GSP_SUCCESS) return info;
  if (*len < (gsp_index)count) {
    const gsp_index have = *len;
    *len = (gsp_index)count;
    return GSP_ERROR(GSP_INSUFFICIENT_SPACE, "%s: the path has %lld vertices, room for %llu", fn, (long long)count,
                     (unsigned long long)have);
  }
  GSP_TRY(walk(&count, path, succ, (int64_t)src, (int64_t)dst));
  *len = (gsp_index)count;
#undef GSP_FREE_ALL
  return info;
}
