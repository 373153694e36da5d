/* Vector objects: values x[n] with a presence array b[n] (NULL when full). */
#include <string.h>

#include "gsp_internal.h"
#include "gsp_cuda_plugin.h"

gsp_info gsp__vector_host(struct gsp_vector_s *v) {
  return v ? gsp__download_shared(&v->dev_only, NULL, v) : GSP_SUCCESS;
}

void gsp__vector_host_changed(struct gsp_vector_s *v) {
  const gsp__cuda_api *cu = gsp__cuda_plugin_loaded(); /* it made the copy */
  if (v->dev && cu) cu->vec_free(v->dev);
  v->dev = NULL;
  v->dev_only = false;
}

gsp_cuda_vec gsp__vector_cuda_arrays(const struct gsp_vector_s *v) {
  return (gsp_cuda_vec){
      .type = v->type, .n = v->n, .nvals = v->nvals, .x = v->x, .b = v->b, .dev = (struct gsp_dev_vector **)&v->dev};
}

gsp_info gsp__vector_download(struct gsp_vector_s *v) {
  static const char *const fn = "gsp (vector download)";
  gsp_info info = GSP_SUCCESS;
  uint8_t *fresh = NULL;
#define GSP_FREE_ALL gsp__free(fresh)
  if (!v->dev_only || !v->dev) return info;
  const gsp__cuda_api *cu;
  GSP_TRY(gsp__cuda_get(&cu, fn));
  const bool full = v->nvals == v->n;
  /* the host arrays are stale while dev_only: overwriting them is safe */
  if (!full && !v->b) GSP_ALLOC(fresh, v->n > 0 ? v->n : 1, 1);
  const gsp_cuda_vec view = gsp__vector_cuda_arrays(v);
  GSP_TRY(cu->vec_download(v->x, full ? NULL : fresh ? fresh : v->b, &view));
  if (full) GSP_FREE(v->b);
  if (fresh) v->b = fresh;
  v->dev_only = false; /* the device copy stays as a mirror */
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__check_vector(const struct gsp_vector_s *v, const char *fn, const char *what) {
  if (v == NULL) return GSP_ERROR(GSP_NULL_POINTER, "%s: %s is NULL", fn, what);
  if (!gsp__is_live(v) || v->magic != GSP_MAGIC_VECTOR)
    return GSP_ERROR(GSP_INVALID_OBJECT, "%s: %s is not a live gsp_vector (freed or never created)", fn, what);
  return GSP_SUCCESS;
}

gsp_info gsp__vector_alloc(struct gsp_vector_s **out, gsp_type t, int64_t n) {
  struct gsp_vector_s *v = gsp__calloc(1, sizeof *v);
  if (!v) return GSP_ERROR(GSP_OUT_OF_MEMORY, "cannot allocate a vector header");
  v->magic = GSP_MAGIC_VECTOR;
  v->type = t;
  v->n = n;
  v->x = gsp__calloc((size_t)n, gsp_type_size(t));
  v->b = gsp__calloc((size_t)n, 1);
  if (!v->x || !v->b) {
    gsp__vector_destroy(v);
    return GSP_ERROR(GSP_OUT_OF_MEMORY, "cannot allocate a vector of %lld entries", (long long)n);
  }
  *out = v;
  return GSP_SUCCESS;
}

gsp_info gsp__vector_publish(struct gsp_vector_s *v) {
  return gsp__register(v);
}

void gsp__vector_destroy(struct gsp_vector_s *v) {
  if (!v) return;
  gsp__vector_host_changed(v);
  gsp__free(v->x);
  gsp__free(v->b);
  v->magic = 0;
  gsp__free(v);
}

void gsp__vector_swap_in(struct gsp_vector_s *dst, struct gsp_vector_s *src) {
  gsp__vector_host_changed(dst);
  gsp__free(dst->x);
  gsp__free(dst->b);
  dst->x = src->x;
  dst->b = src->b;
  dst->nvals = src->nvals;
  src->x = NULL;
  src->b = NULL;
  gsp__vector_destroy(src);
}

gsp_info gsp_vector_new(gsp_vector *v, gsp_type t, gsp_index n) {
  gsp_info info;
  if (!v) return GSP_ERROR(GSP_NULL_POINTER, "gsp_vector_new: v is NULL");
  if ((info = gsp__check_type(t, "gsp_vector_new")) < 0) return info;
  if (n > GSP_INDEX_MAX)
    return GSP_ERROR(GSP_TOO_LARGE, "gsp_vector_new: size %llu exceeds the limit", (unsigned long long)n);
  struct gsp_vector_s *w;
  if ((info = gsp__vector_alloc(&w, t, (int64_t)n)) < 0) return info;
  if ((info = gsp__vector_publish(w)) < 0) {
    gsp__vector_destroy(w);
    return info;
  }
  *v = w;
  return GSP_SUCCESS;
}

gsp_info gsp_vector_free(gsp_vector *v) {
  if (!v || !*v) return GSP_SUCCESS;
  gsp_info info = gsp__check_vector(*v, "gsp_vector_free", "*v");
  if (info < 0) return info;
  gsp__unregister(*v);
  gsp__vector_destroy(*v);
  *v = NULL;
  return GSP_SUCCESS;
}

gsp_info gsp_vector_dup(gsp_vector *w, const gsp_vector v) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_vector_s *c = NULL;
#define GSP_FREE_ALL gsp__vector_destroy(c)
  GSP_CHECK(w != NULL, GSP_NULL_POINTER, "gsp_vector_dup: w is NULL");
  GSP_TRY(gsp__check_vector(v, "gsp_vector_dup", "v"));
  GSP_TRY(gsp__vector_host(v));
  GSP_TRY(gsp__vector_alloc(&c, v->type, v->n));
  gsp__memcpy(c->x, v->x, (size_t)v->n * gsp_type_size(v->type));
  if (v->b) gsp__memcpy(c->b, v->b, (size_t)v->n);
  else GSP_FREE(c->b);
  c->nvals = v->nvals;
  GSP_TRY(gsp__vector_publish(c));
  *w = c;
#undef GSP_FREE_ALL
  return info;
}

GSP_OBJECT_QUERY(vector, v, size, gsp_index, v->n)
GSP_OBJECT_QUERY(vector, v, nvals, gsp_index, v->nvals)
GSP_OBJECT_QUERY(vector, v, type, gsp_type, v->type)

gsp_info gsp_vector_clear(gsp_vector v) {
  gsp_info info = GSP_SUCCESS;
  uint8_t *b = NULL;
#define GSP_FREE_ALL
  GSP_TRY(gsp__check_vector(v, "gsp_vector_clear", "v"));
  GSP_CALLOC(b, (size_t)v->n, 1);
  gsp__vector_host_changed(v); /* every entry goes: nothing to download */
  gsp__free(v->b);
  v->b = b;
  v->nvals = 0;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_vector_build(gsp_vector v, const gsp_index *I, const void *X, gsp_index n, gsp_dup dup) {
  gsp_info info = GSP_SUCCESS;
  gsp_index *p = NULL, *jj = NULL;
  void *x = NULL;
#define GSP_FREE_ALL (gsp__free(p), gsp__free(jj), gsp__free(x))
  GSP_TRY(gsp__check_vector(v, "gsp_vector_build", "v"));
  GSP_CHECK(n == 0 || I, GSP_NULL_POINTER, "gsp_vector_build: I is NULL");
  GSP_CHECK(n == 0 || X || v->type == GSP_BOOL, GSP_NULL_POINTER,
            "gsp_vector_build: X is NULL (only bool vectors may omit values)");
  GSP_CHECK(dup >= GSP_DUP_ERROR && dup <= GSP_DUP_PLUS, GSP_INVALID_VALUE,
            "gsp_vector_build: invalid duplicate policy %d", (int)dup);
  GSP_CHECK(v->nvals == 0, GSP_OUTPUT_NOT_EMPTY, "gsp_vector_build: v already has %lld entries", (long long)v->nvals);
  GSP_TRY(gsp__vector_host(v));
  int64_t nvals;
  /* a vector is a single row: indices become column indices */
  GSP_TRY(gsp__tuples_to_csr(&p, &jj, &x, &nvals, v->type, 1, v->n, NULL, I, X, n, dup, "gsp_vector_build"));
  if (!v->b) GSP_CALLOC(v->b, (size_t)v->n, 1);
  size_t ts = gsp_type_size(v->type);
  for (int64_t k = 0; k < nvals; k++) {
    gsp__memcpy(gsp__at(v->x, v->type, (int64_t)jj[k]), gsp__cat(x, v->type, k), ts);
    v->b[jj[k]] = 1;
  }
  v->nvals = nvals;
  gsp__vector_host_changed(v);
  GSP_FREE_ALL;
#undef GSP_FREE_ALL
  return info;
}

/* The checks of the element calls (x: checked unless the call has no
 * value), then v's host copy made valid. */
static gsp_info element_at(struct gsp_vector_s *v, gsp_index i, bool has_x, const void *x, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__check_vector(v, fn, "v"));
  GSP_CHECK(!has_x || x != NULL, GSP_NULL_POINTER, "%s: x is NULL", fn);
  GSP_CHECK(i < (gsp_index)v->n, GSP_INVALID_INDEX, "%s: index %llu out of range 0..%lld", fn, (unsigned long long)i,
            (long long)v->n - 1);
  GSP_TRY(gsp__vector_host(v));
  return info;
}

gsp_info gsp_vector_set_element(gsp_vector v, gsp_index i, const void *x) {
  gsp_info info = GSP_SUCCESS;
  GSP_TRY(element_at(v, i, true, x, "gsp_vector_set_element"));
  gsp__vector_host_changed(v);
  if (v->b && !v->b[i]) {
    v->b[i] = 1;
    v->nvals++;
  }
  gsp__memcpy(gsp__at(v->x, v->type, (int64_t)i), x, gsp_type_size(v->type));
  return info;
}

gsp_info gsp_vector_remove_element(gsp_vector v, gsp_index i) {
  gsp_info info = GSP_SUCCESS;
  GSP_TRY(element_at(v, i, false, NULL, "gsp_vector_remove_element"));
  if (!v->b) {
    GSP_ALLOC(v->b, (size_t)v->n, 1);
    memset(v->b, 1, (size_t)v->n);
  }
  if (v->b[i]) {
    v->b[i] = 0;
    v->nvals--;
    gsp__vector_host_changed(v);
  }
  return info;
}

gsp_info gsp_vector_extract_element(void *x, const gsp_vector v, gsp_index i) {
  gsp_info info = GSP_SUCCESS;
  GSP_TRY(element_at(v, i, true, x, "gsp_vector_extract_element"));
  if (v->b && !v->b[i]) return GSP_NO_VALUE;
  gsp__memcpy(x, gsp__cat(v->x, v->type, (int64_t)i), gsp_type_size(v->type));
  return info;
}

gsp_info gsp_vector_extract_tuples(gsp_index *I, void *X, gsp_index *n, const gsp_vector v) {
  gsp_info info = GSP_SUCCESS;
  GSP_TRY(gsp__check_vector(v, "gsp_vector_extract_tuples", "v"));
  GSP_CHECK(n != NULL, GSP_NULL_POINTER, "gsp_vector_extract_tuples: n is NULL");
  /* measure by what is written: a short capacity writes only *n */
  const size_t nv = *n < (gsp_index)v->nvals ? 0 : (size_t)v->nvals;
  GSP_OUTPUTS("gsp_vector_extract_tuples", {I, nv * sizeof *I, "I"}, {X, nv * gsp_type_size(v->type), "X"},
              {n, sizeof *n, "n"});
  if (*n < (gsp_index)v->nvals) {
    info = GSP_ERROR(GSP_INSUFFICIENT_SPACE, "gsp_vector_extract_tuples: capacity %llu < %lld entries",
                     (unsigned long long)*n, (long long)v->nvals);
    *n = (gsp_index)v->nvals;
    return info;
  }
  GSP_TRY(gsp__vector_host(v));
  size_t ts = gsp_type_size(v->type);
  gsp_index k = 0;
  for (int64_t i = 0; i < v->n; i++) {
    if (v->b && !v->b[i]) continue;
    if (I) I[k] = (gsp_index)i;
    if (X) gsp__memcpy(gsp__at(X, v->type, (int64_t)k), gsp__cat(v->x, v->type, i), ts);
    k++;
  }
  *n = k;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_vector_import_dense(gsp_vector *v, gsp_type t, gsp_index n, const void *values, const void *absent) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_vector_s *w = NULL;
#define GSP_FREE_ALL gsp__vector_destroy(w)
  GSP_CHECK(v && values, GSP_NULL_POINTER, "gsp_vector_import_dense: v or values is NULL");
  GSP_TRY(gsp__check_type(t, "gsp_vector_import_dense"));
  GSP_CHECK(n <= GSP_INDEX_MAX, GSP_TOO_LARGE, "gsp_vector_import_dense: size %llu exceeds the limit",
            (unsigned long long)n);
  GSP_TRY(gsp__vector_alloc(&w, t, (int64_t)n));
  size_t ts = gsp_type_size(t);
  gsp__memcpy(w->x, values, (size_t)n * ts);
  int64_t cnt = 0;
  for (gsp_index i = 0; i < n; i++) {
    const void *x = gsp__cat(values, t, (int64_t)i);
    bool same = absent && (t == GSP_FP32   ? *(const float *)x == *(const float *)absent
                           : t == GSP_FP64 ? *(const double *)x == *(const double *)absent
                                           : memcmp(x, absent, ts) == 0);
    w->b[i] = !same;
    cnt += !same;
  }
  w->nvals = cnt;
  if ((gsp_index)cnt == n) GSP_FREE(w->b);
  GSP_TRY(gsp__vector_publish(w));
  *v = w;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_vector_export_dense(void *values, const void *absent, const gsp_vector v) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(gsp__check_vector(v, "gsp_vector_export_dense", "v"));
  GSP_CHECK(values != NULL, GSP_NULL_POINTER, "gsp_vector_export_dense: values is NULL");
  GSP_CHECK(absent || v->nvals == v->n, GSP_NULL_POINTER,
            "gsp_vector_export_dense: absent is NULL but the vector has absent entries");
  GSP_TRY(gsp__vector_host(v));
  size_t ts = gsp_type_size(v->type);
  gsp__memcpy(values, v->x, (size_t)v->n * ts);
  if (v->b)
    for (int64_t i = 0; i < v->n; i++)
      if (!v->b[i]) gsp__memcpy(gsp__at(values, v->type, i), absent, ts);
#undef GSP_FREE_ALL
  return info;
}
