/*
 * gsp_path_from_parent / gsp_path_from_parent_row: walk a parent array
 * from dst up to its root (the vertex that is its own parent), then write
 * the path root-first. The walk is bounded by n steps, so a foreign or
 * corrupt parent array (a cycle, a hole, an index out of range) gives
 * GSP_INVALID_VALUE instead of a loop that never ends.
 */
#include "gsp_internal.h"

/* Entry k of a parent array of type t (GSP_INT64 or GSP_INT32). */
static int64_t parent_at(const void *x, gsp_type t, size_t k) {
  return t == GSP_INT32 ? ((const int32_t *)x)[k] : ((const int64_t *)x)[k];
}

/* Parent of v in one row: GSP_SUCCESS with *pv, or GSP_NO_VALUE. */
typedef gsp_info (*parent_fn)(int64_t *pv, const void *obj, int64_t row, int64_t v);

static gsp_info vector_parent(int64_t *pv, const void *obj, int64_t row, int64_t v) {
  const struct gsp_vector_s *P = obj;
  (void)row;
  if (P->b ? !P->b[v] : P->nvals != P->n) return GSP_NO_VALUE;
  *pv = parent_at(P->x, P->type, (size_t)v);
  return GSP_SUCCESS;
}

static gsp_info matrix_parent(int64_t *pv, const void *obj, int64_t row, int64_t v) {
  const struct gsp_matrix_s *P = obj;
  size_t at;
  const gsp_info info = gsp__matrix_entry_at(&at, P, row, v);
  if (info == GSP_SUCCESS) *pv = parent_at(P->x, P->type, at);
  return info;
}

static gsp_info walk(gsp_index *path, gsp_index *len, parent_fn get, const void *obj, int64_t row, int64_t n,
                     int64_t dst, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  /* first pass: count the vertices, checking every step */
  int64_t count = 1, v = dst, pv = 0; /* set by get() whenever it succeeds */
  for (;;) {
    info = get(&pv, obj, row, v);
    if (info == GSP_NO_VALUE) {
      GSP_CHECK(v == dst, GSP_INVALID_VALUE, "%s: vertex %lld on the path to %lld has no parent", fn, (long long)v,
                (long long)dst);
      return GSP_NO_VALUE; /* dst unreachable; outputs untouched */
    }
    GSP_CHECK(pv >= 0 && pv < n, GSP_INVALID_VALUE, "%s: parent %lld of vertex %lld out of range 0..%lld", fn,
              (long long)pv, (long long)v, (long long)n - 1);
    if (pv == v) break;
    GSP_CHECK(count < n, GSP_INVALID_VALUE, "%s: the parents from %lld form a cycle", fn, (long long)dst);
    count++, v = pv;
  }
  if (*len < (gsp_index)count) {
    *len = (gsp_index)count;
    return GSP_ERROR(GSP_INSUFFICIENT_SPACE, "%s: the path has %lld vertices", fn, (long long)count);
  }
  /* second pass: fill from the end */
  v = dst;
  for (int64_t k = count - 1; k >= 0; k--) {
    path[k] = (gsp_index)v;
    (void)get(&pv, obj, row, v);
    v = pv;
  }
  *len = (gsp_index)count;
  return GSP_SUCCESS;
}

/* Both walkers: parent is a vector (matrix false, row 0: a 1 x n parent
 * matrix) or a matrix; the checks in order: path and len given and not
 * overlapping, the handle, its type, row, dst. */
static gsp_info parent_path(gsp_index *path, gsp_index *len, void *parent, bool matrix, gsp_index row, gsp_index dst,
                            const char *fn) {
  gsp_info info = GSP_SUCCESS;
  GSP_CHECK(path && len, GSP_NULL_POINTER, "%s: path or len is NULL", fn);
  GSP_OUTPUTS(fn, {path, *len > SIZE_MAX / sizeof *path ? SIZE_MAX : *len * sizeof *path, "path"},
              {len, sizeof *len, "len"});
  struct gsp_vector_s *pv = matrix ? NULL : parent;
  struct gsp_matrix_s *pm = matrix ? parent : NULL;
  if (matrix) GSP_TRY(gsp__check_matrix(pm, fn, "parent"));
  else GSP_TRY(gsp__check_vector(pv, fn, "parent"));
  const gsp_type t = matrix ? pm->type : pv->type;
  const int64_t nrows = matrix ? pm->nrows : 1, ncols = matrix ? pm->ncols : pv->n;
  GSP_CHECK(t == GSP_INT64 || t == GSP_INT32, GSP_DOMAIN_MISMATCH, "%s: parent is %s, not GSP_INT64 or GSP_INT32", fn,
            gsp__type_name(t));
  GSP_CHECK(row < (gsp_index)nrows, GSP_INVALID_INDEX, "%s: row %llu out of range 0..%lld", fn, (unsigned long long)row,
            (long long)nrows - 1);
  GSP_CHECK(dst < (gsp_index)ncols, GSP_INVALID_INDEX, "%s: dst %llu out of range 0..%lld", fn, (unsigned long long)dst,
            (long long)ncols - 1);
  if (!matrix) {
    GSP_TRY(gsp__vector_host(pv));
    return walk(path, len, vector_parent, pv, 0, pv->n, (int64_t)dst, fn);
  }
  /* CSR or dense are read directly; other formats convert (content kept) */
  GSP_TRY(gsp__matrix_host(pm));
  struct gsp_matrix_s *P = pm; /* parent is an input: never converted */
  if (P->fmt != GSP_FMT_DENSE) GSP_TRY(gsp__matrix_csr_view(&P, pm));
#undef GSP_FREE_ALL
  return walk(path, len, matrix_parent, P, (int64_t)row, P->ncols, (int64_t)dst, fn);
}

gsp_info gsp_path_from_parent(gsp_index *path, gsp_index *len, const gsp_vector parent, gsp_index dst) {
  return parent_path(path, len, parent, false, 0, dst, "gsp_path_from_parent");
}

gsp_info gsp_path_from_parent_row(gsp_index *path, gsp_index *len, const gsp_matrix parent, gsp_index row,
                                  gsp_index dst) {
  return parent_path(path, len, parent, true, row, dst, "gsp_path_from_parent_row");
}
