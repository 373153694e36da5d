/*
 * Single-source shortest paths composed from the library's GraphBLAS-style
 * operations (until a dedicated SSSP call exists): a Bellman-Ford loop
 * whose frontier holds only the vertices improved in the last round, so
 * each round costs the arcs leaving the frontier, not the whole graph.
 *
 *   t = f min.+ A                    gsp_vxm
 *   f = t on vertices d lacks        gsp_vector_apply, complemented mask
 *   f += t where t < d               ewise_mult(MINUS) + select(< 0) mask
 *   d = min(d, f)                    gsp_vector_apply with MIN accumulator
 *
 * Paths come from the distances alone: walking back from the target along
 * tight arcs (d[u] + w(u,v) == d[v], evaluated in the graph's own type, so
 * exactly the sums the loop formed).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define TRY(x)                       \
  do {                               \
    if ((info = (x)) < 0) goto done; \
  } while (0)

gsp_info cli_sssp(gsp_vector *dist, gsp_matrix A, gsp_index src, int *iterations, cli_progress *prog) {
  gsp_info info = GSP_SUCCESS;
  gsp_vector d = NULL, f = NULL, t = NULL, diff = NULL, lt = NULL;
  gsp_index n, nf = 1;
  gsp_type ty;
  TRY(gsp_matrix_nrows(&n, A));
  TRY(gsp_matrix_type(&ty, A));
  int64_t zero_buf = 0; /* zero of every numeric type is all-zero bytes */
  TRY(gsp_vector_new(&d, ty, n));
  TRY(gsp_vector_set_element(d, src, &zero_buf));
  TRY(gsp_vector_dup(&f, d));
  TRY(gsp_vector_new(&t, ty, n));
  TRY(gsp_vector_new(&diff, ty, n));
  TRY(gsp_vector_new(&lt, ty, n));
  const gsp_desc new_only = {.mask_complement = true, .mask_structure = true, .replace = true};
  const gsp_desc structural = {.mask_structure = true};
  int it = 0;
  gsp_index reached = 1;
  for (; nf > 0; it++) {
    if ((gsp_index)it >= n) { /* a simple path has at most n-1 arcs */
      info = GSP_NEGATIVE_CYCLE;
      goto done;
    }
    TRY(gsp_vector_clear(t));
    TRY(gsp_vxm(t, NULL, GSP_NOOP, GSP_MIN_PLUS, f, A, NULL));
    TRY(gsp_vector_apply(f, d, GSP_NOOP, GSP_IDENTITY, t, &new_only));
    TRY(gsp_vector_clear(diff));
    TRY(gsp_vector_ewise_mult(diff, NULL, GSP_NOOP, GSP_MINUS, t, d, NULL));
    TRY(gsp_vector_clear(lt));
    TRY(gsp_vector_select(lt, NULL, GSP_NOOP, GSP_VALUE_LT, diff, &zero_buf, NULL));
    TRY(gsp_vector_apply(f, lt, GSP_NOOP, GSP_IDENTITY, t, &structural));
    TRY(gsp_vector_nvals(&nf, f));
    TRY(gsp_vector_apply(d, NULL, GSP_MIN, GSP_IDENTITY, f, NULL));
    TRY(gsp_vector_nvals(&reached, d));
    if (prog) cli_progress_update((double)reached / (double)n, prog);
  }
  *dist = d;
  d = NULL;
  if (iterations) *iterations = it;
done:
  gsp_vector_free(&d);
  gsp_vector_free(&f);
  gsp_vector_free(&t);
  gsp_vector_free(&diff);
  gsp_vector_free(&lt);
  return info;
}

bool cli_tight(gsp_type ty, const void *D, gsp_index u, gsp_index v, const void *W, gsp_index k) {
  switch (ty) {
  case GSP_INT32:
    return (int64_t)((const int32_t *)D)[u] + ((const int32_t *)W)[k] == ((const int32_t *)D)[v];
  case GSP_INT64:
    return ((const int64_t *)D)[u] + ((const int64_t *)W)[k] == ((const int64_t *)D)[v];
  case GSP_FP32: {
    float s = ((const float *)D)[u] + ((const float *)W)[k];
    return s == ((const float *)D)[v];
  }
  case GSP_FP64: {
    double s = ((const double *)D)[u] + ((const double *)W)[k];
    return s == ((const double *)D)[v];
  }
  default:
    return false;
  }
}

/* The distances as a dense array *D_out (n + 1 values of ts bytes), with
 * (*has_out)[v] marking the vertices that have one. */
static gsp_info dense_distances(void **D_out, bool **has_out, gsp_vector dist, gsp_index n, size_t ts) {
  gsp_info info = GSP_SUCCESS;
  gsp_index *I = NULL;
  void *X = NULL, *D = NULL;
  bool *has = NULL;
  gsp_index nv;
  TRY(gsp_vector_nvals(&nv, dist));
  I = malloc((nv + 1) * sizeof *I);
  X = malloc((nv + 1) * ts);
  D = calloc(n + 1, ts);
  has = calloc(n + 1, 1);
  if (!I || !X || !D || !has) {
    info = GSP_OUT_OF_MEMORY;
    goto done;
  }
  gsp_index cnt = nv;
  TRY(gsp_vector_extract_tuples(I, X, &cnt, dist));
  for (gsp_index k = 0; k < cnt; k++) {
    has[I[k]] = true;
    memcpy((char *)D + I[k] * ts, (char *)X + k * ts, ts);
  }
  *D_out = D, *has_out = has;
  D = NULL, has = NULL;
done:
  free(I);
  free(X);
  free(D);
  free(has);
  return info;
}

/* (*next_out)[u]: u's successor toward dst on a tight arc (n: none), by a
 * breadth-first search from dst over the in-arcs (rows of A'), which stops
 * once src is reached. */
static gsp_info tight_successors(gsp_index **next_out, gsp_matrix A, gsp_type ty, gsp_index n, const void *D,
                                 const bool *has, gsp_index src, gsp_index dst) {
  gsp_info info = GSP_SUCCESS;
  gsp_matrix AT = NULL;
  gsp_index *rp = NULL, *ci = NULL, *next = NULL, *queue = NULL;
  void *W = NULL;
  TRY(gsp_matrix_transpose(&AT, A));
  gsp_index m;
  TRY(gsp_matrix_nvals(&m, AT));
  rp = malloc((n + 1) * sizeof *rp);
  ci = malloc((m + 1) * sizeof *ci);
  W = malloc((m + 1) * gsp_type_size(ty));
  next = malloc(n * sizeof *next);
  queue = malloc(n * sizeof *queue);
  if (!rp || !ci || !W || !next || !queue) {
    info = GSP_OUT_OF_MEMORY;
    goto done;
  }
  TRY(gsp_matrix_export_csr(rp, ci, W, AT));
  for (gsp_index v = 0; v < n; v++) next[v] = n; /* n: unvisited */
  gsp_index head = 0, tail = 0;
  queue[tail++] = dst;
  next[dst] = dst;
  while (head < tail && next[src] == n) {
    gsp_index v = queue[head++];
    for (gsp_index k = rp[v]; k < rp[v + 1]; k++) {
      gsp_index u = ci[k];
      if (next[u] != n || !has[u] || !cli_tight(ty, D, u, v, W, k)) continue;
      next[u] = v; /* u's successor toward dst */
      queue[tail++] = u;
    }
  }
  *next_out = next;
  next = NULL;
done:
  gsp_matrix_free(&AT);
  free(rp);
  free(ci);
  free(W);
  free(next);
  free(queue);
  return info;
}

gsp_info cli_tight_path(gsp_index **path_out, gsp_index *len_out, gsp_matrix A, gsp_vector dist, gsp_index src,
                        gsp_index dst) {
  gsp_info info = GSP_SUCCESS;
  gsp_index *next = NULL, *path = NULL;
  void *D = NULL;
  bool *has = NULL;
  gsp_index n;
  gsp_type ty;
  TRY(gsp_matrix_nrows(&n, A));
  TRY(gsp_matrix_type(&ty, A));
  TRY(dense_distances(&D, &has, dist, n, gsp_type_size(ty)));
  if (!has[dst] || !has[src]) {
    info = GSP_NO_VALUE;
    goto done;
  }
  TRY(tight_successors(&next, A, ty, n, D, has, src, dst));
  if (src != dst && next[src] == n) {
    info = GSP_NO_VALUE; /* cannot happen for distances from src */
    goto done;
  }
  gsp_index len = 1;
  for (gsp_index v = src; v != dst; v = next[v]) len++;
  path = malloc(len * sizeof *path);
  if (!path) {
    info = GSP_OUT_OF_MEMORY;
    goto done;
  }
  gsp_index k = 0;
  for (gsp_index v = src;; v = next[v]) {
    path[k++] = v;
    if (v == dst) break;
  }
  *path_out = path;
  *len_out = len;
  path = NULL;
done:
  free(next);
  free(path);
  free(D);
  free(has);
  return info;
}

/* Whether A has a negative weight (the library's gsp_sssp refuses them). */
static gsp_info has_negative(gsp_matrix A, bool *neg) {
  gsp_type ty;
  int64_t buf[1] = {0};
  gsp_info info = gsp_matrix_type(&ty, A);
  if (info < 0) return info;
  if ((info = gsp_matrix_reduce_scalar(buf, GSP_MIN, A)) < 0) return info;
  *neg = cli_value_at(ty, buf, 0) < 0; /* false for bool */
  return GSP_SUCCESS;
}

gsp_info cli_shortest(gsp_vector *dist, gsp_index **path, gsp_index *len, gsp_matrix A, gsp_index src, gsp_index dst,
                      cli_sssp_method method, gsp_backend backend, const char **used, int *iterations,
                      cli_progress *prog) {
  gsp_info info = GSP_SUCCESS;
  gsp_vector d = NULL, parent = NULL;
  gsp_index *p = NULL;
  bool neg = false;
  if (method == CLI_SSSP_AUTO) {
    TRY(has_negative(A, &neg));
    method = neg ? CLI_SSSP_BELLMAN_FORD : CLI_SSSP_LIBRARY;
  }
  if (method == CLI_SSSP_LIBRARY || method == CLI_SSSP_BELLMAN_FORD) {
    if (method == CLI_SSSP_LIBRARY) {
      *used = "gsp_sssp";
      gsp_sssp_opts o = {.backend = backend};
      TRY(gsp_sssp(&d, path ? &parent : NULL, A, src, &o));
    } else {
      *used = neg ? "gsp_bellman_ford (negative weights)" : "gsp_bellman_ford";
      gsp_bf_opts o = {.backend = backend};
      TRY(gsp_bellman_ford(&d, path ? &parent : NULL, A, src, &o));
    }
    if (iterations) *iterations = 0;
    if (path) {
      gsp_index n, cap;
      TRY(gsp_vector_size(&n, d));
      cap = n ? n : 1;
      p = malloc(cap * sizeof *p);
      if (!p) {
        info = GSP_OUT_OF_MEMORY;
        goto done;
      }
      info = gsp_path_from_parent(p, &cap, parent, dst);
      if (info == GSP_NO_VALUE) goto finish; /* dst unreachable */
      if (info < 0) goto done;
      *len = cap;
      *path = p;
      p = NULL;
    }
  } else {
    *used = neg ? "Bellman-Ford frontier of gsp_vxm (negative weights)" : "Bellman-Ford frontier of gsp_vxm";
    TRY(cli_sssp(&d, A, src, iterations, prog));
    if (path) {
      info = cli_tight_path(path, len, A, d, src, dst);
      if (info == GSP_NO_VALUE) goto finish;
      if (info < 0) goto done;
    }
  }
finish:
  *dist = d;
  d = NULL;
done:
  free(p);
  gsp_vector_free(&d);
  gsp_vector_free(&parent);
  return info;
}
