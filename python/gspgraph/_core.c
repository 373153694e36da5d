/*
 * gspgraph._core: the compiled bridge between numpy buffers and the gsp C API.
 *
 * Only the CPython C API and the buffer protocol are used, so the module
 * needs no numpy headers at build time. Inputs arrive as objects exporting
 * C-contiguous buffers (numpy arrays); outputs are numpy arrays allocated
 * by the Python layer and filled in place by the library's row callback.
 * Every gsp call runs with the GIL released; the row callback takes the
 * GIL back for a moment to let Ctrl-C stop the computation (GSP_ABORTED).
 * Results asked for on the device are handed out through DLPack instead.
 */
#define GSP_ADVANCED_API /* gsp.h's advanced part */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <gsp.h>
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "_dense.h"

static PyObject *GspError;           /* gsp.GspError, set by gsp/__init__.py */
static PyObject *NegativeCycleError; /* gspgraph._errors.negative_cycle: (message, cycle) -> the exception */

/* ---- errors ------------------------------------------------------------ */

/* A Python exception for a failed call on graph A (A may be NULL). A
 * negative cycle is named: gsp_negative_cycle gives its vertices. */
static PyObject *raise_info(gsp_info info, gsp_matrix A) {
  if (PyErr_Occurred()) return NULL; /* e.g. KeyboardInterrupt from the callback */
  const char *detail = gsp_last_error();
  char msg[1024];
  snprintf(msg, sizeof msg, "%s", detail[0] ? detail : gsp_strerror(info));
  if (info == GSP_NEGATIVE_CYCLE && NegativeCycleError) {
    PyObject *cyc = PyList_New(0);
    gsp_index n = 0, len = 0;
    gsp_index *buf = NULL;
    if (A && gsp_matrix_nrows(&n, A) == GSP_SUCCESS && n > 0 && (buf = malloc(n * sizeof *buf))) {
      len = n;
      gsp_info ci;
      Py_BEGIN_ALLOW_THREADS ci = gsp_negative_cycle(buf, &len, A, NULL);
      Py_END_ALLOW_THREADS if (ci == GSP_SUCCESS) for (gsp_index k = 0; k < len && cyc; k++) {
        PyObject *v = PyLong_FromUnsignedLongLong(buf[k]);
        if (!v || PyList_Append(cyc, v) < 0) Py_CLEAR(cyc);
        Py_XDECREF(v);
      }
      free(buf);
    }
    if (!cyc) return NULL;
    PyObject *exc = PyObject_CallFunction(NegativeCycleError, "sO", msg, cyc);
    Py_DECREF(cyc);
    if (exc) {
      PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
      Py_DECREF(exc);
    }
    return NULL;
  }
  PyObject *type = GspError ? GspError : PyExc_RuntimeError;
  if (info == GSP_OUT_OF_MEMORY) type = PyExc_MemoryError;
  else if (info == GSP_INVALID_INDEX) type = PyExc_IndexError;
  else if (info == GSP_INVALID_VALUE || info == GSP_DIMENSION_MISMATCH || info == GSP_DOMAIN_MISMATCH)
    type = PyExc_ValueError;
  PyObject *exc = PyObject_CallFunction(type, "s", msg);
  if (exc) {
    PyObject *code = PyLong_FromLong(info);
    if (code && (type != GspError || PyObject_SetAttrString(exc, "code", code) == 0)) PyErr_SetObject(type, exc);
    Py_XDECREF(code);
    Py_DECREF(exc);
  }
  return NULL;
}

/* ---- buffers ------------------------------------------------------------ */

/* A C-contiguous buffer of `count` items of `itemsize` bytes (count < 0:
 * any length). */
static int get_buffer(PyObject *o, Py_buffer *v, Py_ssize_t itemsize, Py_ssize_t count, bool writable,
                      const char *what) {
  if (PyObject_GetBuffer(o, v, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) < 0) return -1;
  if (v->itemsize != itemsize || (count >= 0 && v->len != count * itemsize)) {
    PyErr_Format(PyExc_ValueError,
                 "gspgraph._core: %s: %zd items of %zd bytes expected, got %zd bytes of %zd-byte items", what, count,
                 itemsize, v->len, v->itemsize);
    PyBuffer_Release(v);
    return -1;
  }
  return 0;
}

static gsp_type type_of(int code) {
  switch (code) {
  case 'f':
    return GSP_FP32;
  case 'd':
    return GSP_FP64;
  case 'i':
    return GSP_INT32;
  case 'q':
    return GSP_INT64;
  default:
    return GSP_BOOL;
  }
}

/* ---- graphs ------------------------------------------------------------- */

static void release(Py_buffer *v) {
  if (v->obj) PyBuffer_Release(v);
}

/* Index array (int32 or int64 items) copied into a new malloc()ed gsp_index
 * array: the one copy the library's 64-bit indices need. */
static gsp_index *index_copy(const Py_buffer *v) {
  const Py_ssize_t k = v->len / v->itemsize;
  gsp_index *out = malloc((size_t)(k > 0 ? k : 1) * sizeof *out);
  if (!out) return NULL;
  if (v->itemsize == 4) {
    const int32_t *p = v->buf;
    for (Py_ssize_t i = 0; i < k; i++) out[i] = (gsp_index)(int64_t)p[i];
  } else {
    memcpy(out, v->buf, (size_t)k * sizeof *out);
  }
  return out;
}

/* The CSR graph ("csr", n, indptr, indices, data, typecode): the index
 * arrays copied to 64 bits, the values copied; the matrix owns the copies. */
static gsp_matrix csr_graph(PyObject *spec, Py_ssize_t n) {
  gsp_matrix A = NULL;
  const gsp_type t = type_of((int)PyLong_AsLong(PyTuple_GET_ITEM(spec, 5)));
  const Py_ssize_t ts = (Py_ssize_t)gsp_type_size(t);
  Py_buffer vp = {0}, vi = {0}, vx = {0};
  if (PyObject_GetBuffer(PyTuple_GET_ITEM(spec, 2), &vp, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0 ||
      PyObject_GetBuffer(PyTuple_GET_ITEM(spec, 3), &vi, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0 ||
      PyObject_GetBuffer(PyTuple_GET_ITEM(spec, 4), &vx, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
    goto done;
  const Py_ssize_t nnz = vi.itemsize ? vi.len / vi.itemsize : 0;
  if ((vp.itemsize != 4 && vp.itemsize != 8) || (vi.itemsize != 4 && vi.itemsize != 8) ||
      vp.len != (n + 1) * vp.itemsize || vx.itemsize != ts || vx.len != nnz * ts) {
    PyErr_SetString(PyExc_ValueError, "gspgraph._core: CSR arrays of inconsistent sizes or types");
    goto done;
  }
  gsp_index *rp = index_copy(&vp), *ci = index_copy(&vi);
  void *x = malloc((size_t)(nnz > 0 ? nnz : 1) * (size_t)ts);
  if (!rp || !ci || !x) {
    free(rp), free(ci), free(x);
    PyErr_NoMemory();
    goto done;
  }
  memcpy(x, vx.buf, (size_t)nnz * (size_t)ts);
  gsp_info info;
  Py_BEGIN_ALLOW_THREADS info = gsp_matrix_pack_csr(&A, t, (gsp_index)n, (gsp_index)n, &rp, &ci, &x);
  Py_END_ALLOW_THREADS free(rp), free(ci), free(x); /* NULL on success: the matrix owns them */
  if (info != GSP_SUCCESS) raise_info(info, NULL);
done:
  release(&vp), release(&vi), release(&vx);
  return A;
}

static int scalar_of(void *out, gsp_type t, PyObject *o);

/* The reading of a dense spec ("dense", n, values, typecode, null_value,
 * absent, unweighted, round); NULL with an exception set when malformed. */
static int dense_spec(PyObject *spec, Py_ssize_t n, Py_buffer *v, dense_read *r, int64_t *absent) {
  PyObject *nv = PyTuple_GET_ITEM(spec, 4);
  r->t = type_of((int)PyLong_AsLong(PyTuple_GET_ITEM(spec, 3)));
  r->has_null = nv != Py_None;
  r->null_value = r->has_null ? PyFloat_AsDouble(nv) : 0.0;
  r->unweighted = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 6)) == 1;
  r->round = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 7)) == 1;
  r->absent = absent;
  if (PyErr_Occurred() || scalar_of(absent, r->t, PyTuple_GET_ITEM(spec, 5)) < 0) return -1;
  if (PyObject_GetBuffer(PyTuple_GET_ITEM(spec, 2), v, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
  r->src = dense_kind_of(v->format, (size_t)v->itemsize);
  if (r->src == DENSE_UNREAD || v->len != n * n * v->itemsize) {
    PyErr_Format(PyExc_ValueError, "gspgraph._core: dense graph: n x n values of a type read in C expected (%s)",
                 v->format);
    PyBuffer_Release(v);
    return -1;
  }
  int threads = 1;
  gsp_get_threads(&threads);
  r->threads = (size_t)n * (size_t)n < ((size_t)1 << 18) ? 1 : threads;
  return 0;
}

/* The dense graph: the caller's values read as scipy reads them, converted
 * to the type and made undirected in one parallel pass (_dense.c), then
 * packed (the library takes the converted array without another copy;
 * entries equal to the absent marker are no arcs). */
static gsp_matrix dense_graph(PyObject *spec, Py_ssize_t n, int undirected) {
  gsp_matrix A = NULL;
  Py_buffer v;
  dense_read r = {.undirected = undirected};
  int64_t absent[1];
  if (dense_spec(spec, n, &v, &r, absent) < 0) return NULL;
  const size_t cells = (size_t)n * (size_t)n;
  void *x = dense_alloc(cells * gsp_type_size(r.t));
  size_t bad = (size_t)-2;
  gsp_info info = GSP_SUCCESS;
  Py_BEGIN_ALLOW_THREADS if (x) bad = dense_convert(x, v.buf, (size_t)n, &r);
  if (bad == (size_t)-1) info = gsp_matrix_pack_dense(&A, r.t, (gsp_index)n, (gsp_index)n, &x, absent);
  Py_END_ALLOW_THREADS free(x); /* NULL once packed */
  if (bad == (size_t)-2) {
    PyErr_NoMemory();
  } else if (bad != (size_t)-1) {
    char msg[200];
    dense_bad(msg, sizeof msg, v.buf, bad, (size_t)n, &r);
    PyErr_SetString(PyExc_ValueError, msg);
  } else if (info != GSP_SUCCESS) {
    raise_info(info, NULL);
  }
  PyBuffer_Release(&v);
  return A;
}

/* A with both directions of every arc: where both exist, the lighter
 * (undirected == 1) or the heavier (2); OR for bool. Frees A. */
static gsp_matrix symmetrized(gsp_matrix A, int undirected) {
  gsp_matrix T = NULL, U = NULL;
  gsp_type t;
  gsp_index n = 0;
  gsp_matrix_type(&t, A);
  gsp_matrix_nrows(&n, A);
  gsp_info info;
  Py_BEGIN_ALLOW_THREADS info = gsp_matrix_transpose(&T, A);
  if (info == GSP_SUCCESS) info = gsp_matrix_new(&U, t, n, n);
  if (info == GSP_SUCCESS)
    info = gsp_matrix_ewise_add(U, NULL, GSP_NOOP,
                                t == GSP_BOOL     ? GSP_LOR
                                : undirected == 2 ? GSP_MAX
                                                  : GSP_MIN,
                                A, T, NULL);
  Py_END_ALLOW_THREADS gsp_matrix_free(&T);
  gsp_matrix_free(&A);
  if (info != GSP_SUCCESS) {
    gsp_matrix_free(&U);
    raise_info(info, NULL);
  }
  return U;
}

/* The graph as a gsp matrix. spec is one of
 *   ("csr", n, indptr, indices, data, typecode)   data: items of the type
 *   ("dense", n, values, typecode, null_value, absent, unweighted, round)
 * Dense values (any numpy real, integer or bool type _dense.c reads) equal
 * to null_value (when not None), NaN and +-inf are non-edges, as
 * scipy.sparse.csgraph reads a dense graph; absent marks them in the type. undirected: the
 * graph with both directions of every arc; where both exist, the lighter
 * one (undirected == 1: scipy's directed=False) or the heavier one
 * (undirected == 2: the add of the max semirings). Returns NULL with an
 * exception set on error. */
static gsp_matrix make_graph_of(PyObject *spec, int undirected) {
  if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) < 4) {
    PyErr_SetString(PyExc_TypeError, "gspgraph._core: bad graph spec");
    return NULL;
  }
  const char *kind = PyUnicode_AsUTF8(PyTuple_GET_ITEM(spec, 0));
  if (!kind) return NULL;
  const Py_ssize_t n = PyLong_AsSsize_t(PyTuple_GET_ITEM(spec, 1));
  if (n < 0) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "gspgraph._core: negative vertex count");
    return NULL;
  }
  if (strcmp(kind, "dense") == 0 && PyTuple_GET_SIZE(spec) == 8) return dense_graph(spec, n, undirected);
  if (strcmp(kind, "csr") != 0 || PyTuple_GET_SIZE(spec) != 6) {
    PyErr_SetString(PyExc_TypeError, "gspgraph._core: bad graph spec");
    return NULL;
  }
  gsp_matrix A = csr_graph(spec, n);
  return A && undirected ? symmetrized(A, undirected) : A;
}

/* make_graph's undirected for semiring s: where both directions of an arc
 * exist, the one the semiring's add picks (the heavier for the max ones). */
static int undirected_mode(int undirected, gsp_semiring s) {
  return !undirected ? 0 : s == GSP_MAX_PLUS || s == GSP_MAX_MIN ? 2 : 1;
}

/* make_graph_of, with the graph's order and type (either may be NULL). */
static gsp_matrix make_graph(PyObject *spec, int undirected, gsp_index *n, gsp_type *t) {
  gsp_matrix A = make_graph_of(spec, undirected);
  if (A && n) gsp_matrix_nrows(n, A);
  if (A && t) gsp_matrix_type(t, A);
  return A;
}

/* Sources: None or a buffer of int64. */
static int get_sources(PyObject *o, Py_buffer *v, const gsp_index **src, gsp_index *ns, gsp_index n) {
  if (o == Py_None) {
    *src = NULL;
    *ns = n;
    v->obj = NULL;
    return 0;
  }
  if (get_buffer(o, v, 8, -1, false, "sources") < 0) return -1;
  *src = v->buf;
  *ns = (gsp_index)(v->len / 8);
  return 0;
}

/* What the search calls (apsp, bellman_ford, nearest) share: the graph,
 * its sources, the distance and predecessor buffers (rows x n items) and a
 * scratch row. */
typedef struct {
  gsp_matrix A;
  gsp_index n, ns;
  gsp_type t;
  const gsp_index *src;
  Py_buffer vs, vd, vp;
  int64_t *tmp;
} search_args;

static void search_close(search_args *a) {
  free(a->tmp);
  release(&a->vs), release(&a->vd), release(&a->vp);
  gsp_matrix_free(&a->A);
}

/* Opens a (zeroed by the caller) for rows result rows: one per source
 * (rows < 0) or the given count. -1 with an exception set, a closed. */
static int search_open(search_args *a, PyObject *spec, int undirected, PyObject *osrc, PyObject *odist, PyObject *opred,
                       Py_ssize_t rows) {
  a->t = GSP_BOOL;
  if (!(a->A = make_graph(spec, undirected, &a->n, &a->t))) return -1;
  if (get_sources(osrc, &a->vs, &a->src, &a->ns, a->n) < 0) goto fail;
  const Py_ssize_t cells = (rows < 0 ? (Py_ssize_t)a->ns : rows) * (Py_ssize_t)a->n;
  if (get_buffer(odist, &a->vd, (Py_ssize_t)gsp_type_size(a->t), cells, true, "dist") < 0) goto fail;
  if (opred != Py_None && get_buffer(opred, &a->vp, 4, cells, true, "predecessors") < 0) goto fail;
  if (!(a->tmp = malloc((a->n > 0 ? (size_t)a->n : 1) * sizeof *a->tmp))) {
    PyErr_NoMemory();
    goto fail;
  }
  return 0;
fail:
  search_close(a);
  return -1;
}

/* ---- row callback --------------------------------------------------------- */

typedef struct {
  PyThreadState *ts; /* the released thread state */
  char *dist;        /* ns x n result of item size ds */
  size_t ds;
  int32_t *pred;        /* ns x n scipy predecessors, or NULL */
  const gsp_index *src; /* sources (NULL: 0..n-1) */
  gsp_index n;
  int threads; /* for the predecessor pass */
} rows_ctx;

/* Distances are computed straight into the result (gsp_apsp_advanced's
 * rows_out; +inf is scipy's "unreachable"); parents become scipy
 * predecessors: -9999 for none and for the source. */
static int on_rows(void *vctx, gsp_index first, gsp_index nrows, const void *dist, const int64_t *parent) {
  rows_ctx *c = vctx;
  const gsp_index n = c->n;
  char *at = c->dist + (size_t)first * n * c->ds;
  if ((const void *)at != dist) memcpy(at, dist, (size_t)nrows * n * c->ds);
  if (c->pred && parent) {
    const int nt = (size_t)nrows * n < ((size_t)1 << 18) ? 1 : c->threads;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
    for (gsp_index r = 0; r < nrows; r++) {
      const gsp_index s = c->src ? c->src[first + r] : first + r;
      int32_t *pd = c->pred + (size_t)(first + r) * n;
      const int64_t *ps = parent + (size_t)r * n;
      for (gsp_index v = 0; v < n; v++) pd[v] = (ps[v] < 0 || v == s) ? -9999 : (int32_t)ps[v];
    }
  }
  /* a KeyboardInterrupt stops the computation between blocks */
  PyEval_RestoreThread(c->ts);
  const int stop = PyErr_CheckSignals();
  c->ts = PyEval_SaveThread();
  return stop ? 1 : 0;
}

/* ---- dijkstra with negative weights ----------------------------------------- */

/* One label-correcting search (a FIFO of vertices whose distance dropped)
 * from the ns sources at distance 0, relaxing an arc only when the new
 * distance is at most limit: the answer scipy's dijkstra gives with
 * negative weights, where a vertex is searched again whenever its distance
 * drops and `limit` prunes every tentative distance. A vertex queued n + 1
 * times lies behind a negative cycle (scipy's loop never ends there): -1.
 * d, p, o: n items each (p, o may be NULL). */
static int relax_limited(gsp_index n, const int64_t *rp, const int64_t *ci, const double *w, const int64_t *src,
                         gsp_index ns, double limit, double *d, int32_t *p, int32_t *o, gsp_index *queue,
                         gsp_index *count, char *queued) {
  for (gsp_index v = 0; v < n; v++) d[v] = INFINITY, count[v] = 0, queued[v] = 0;
  if (p)
    for (gsp_index v = 0; v < n; v++) p[v] = -9999;
  if (o)
    for (gsp_index v = 0; v < n; v++) o[v] = -9999;
  gsp_index head = 0, len = 0; /* ring buffer of n slots: a vertex is queued at most once at a time */
  for (gsp_index k = 0; k < ns; k++) {
    const gsp_index s = (gsp_index)src[k];
    if (queued[s]) continue;
    d[s] = 0.0, queued[s] = 1;
    if (o) o[s] = (int32_t)s;
    queue[(head + len++) % n] = s;
  }
  while (len) {
    const gsp_index u = queue[head];
    head = (head + 1) % n, len--;
    queued[u] = 0;
    if (++count[u] > n) return -1;
    for (int64_t e = rp[u]; e < rp[u + 1]; e++) {
      const gsp_index v = (gsp_index)ci[e];
      const double nd = d[u] + w[e];
      if (nd < d[v] && nd <= limit) {
        d[v] = nd;
        if (p) p[v] = (int32_t)u;
        if (o) o[v] = o[u];
        if (!queued[v]) queued[v] = 1, queue[(head + len++) % n] = v;
      }
    }
  }
  return 0;
}

/* dijkstra_limited(indptr, indices, data, sources, limit, min_only, dist, pred, origin): CSR of int64, int64,
 * float64; sources int64; dist float64 (ns x n, or n with min_only), pred / origin int32 of the same shape
 * or None. Raises NegativeCycleError where a negative cycle is reachable within limit. */
static PyObject *py_dijkstra_limited(PyObject *self, PyObject *args) {
  PyObject *orp, *oci, *ow, *osrc, *od, *op, *oo;
  double limit;
  int min_only;
  if (!PyArg_ParseTuple(args, "OOOOdpOOO", &orp, &oci, &ow, &osrc, &limit, &min_only, &od, &op, &oo)) return NULL;
  Py_buffer vrp = {0}, vci = {0}, vw = {0}, vs = {0}, vd = {0}, vp = {0}, vo = {0};
  PyObject *ret = NULL;
  if (get_buffer(orp, &vrp, 8, -1, false, "indptr") < 0) goto done;
  const gsp_index n = (gsp_index)(vrp.len / 8) - 1;
  if (get_buffer(oci, &vci, 8, -1, false, "indices") < 0 || get_buffer(ow, &vw, 8, vci.len / 8, false, "data") < 0 ||
      get_buffer(osrc, &vs, 8, -1, false, "sources") < 0)
    goto done;
  const gsp_index ns = (gsp_index)(vs.len / 8), rows = min_only ? 1 : ns;
  if (get_buffer(od, &vd, 8, (Py_ssize_t)(rows * n), true, "dist") < 0) goto done;
  if (op != Py_None && get_buffer(op, &vp, 4, (Py_ssize_t)(rows * n), true, "predecessors") < 0) goto done;
  if (oo != Py_None && get_buffer(oo, &vo, 4, (Py_ssize_t)n, true, "sources") < 0) goto done;
  gsp_index *queue = malloc((size_t)(n ? n : 1) * sizeof *queue), *count = malloc((size_t)(n ? n : 1) * sizeof *count);
  char *queued = malloc((size_t)(n ? n : 1));
  int bad = 0;
  if (!queue || !count || !queued) {
    free(queue), free(count), free(queued);
    PyErr_NoMemory();
    goto done;
  }
  Py_BEGIN_ALLOW_THREADS for (gsp_index k = 0; k < rows && !bad; k++) {
    const int64_t *s = (const int64_t *)vs.buf + (min_only ? 0 : k);
    bad = relax_limited(n, vrp.buf, vci.buf, vw.buf, s, min_only ? ns : 1, limit, (double *)vd.buf + k * n,
                        vp.obj ? (int32_t *)vp.buf + k * n : NULL, vo.obj ? vo.buf : NULL, queue, count, queued);
  }
  Py_END_ALLOW_THREADS free(queue), free(count), free(queued);
  if (bad) {
    PyObject *exc = PyObject_CallFunction(NegativeCycleError ? NegativeCycleError : PyExc_RuntimeError, "s",
                                          "a negative cycle is reachable from the sources within the limit");
    if (exc) {
      PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
      Py_DECREF(exc);
    }
    goto done;
  }
  ret = Py_NewRef(Py_None);
done:
  release(&vrp), release(&vci), release(&vw), release(&vs), release(&vd), release(&vp), release(&vo);
  return ret;
}

/* ---- reconstruct_path ---------------------------------------------------------- */

/* Weight of arc u -> v in a canonical CSR (sorted columns), or NAN. */
static double arc_weight(const int64_t *rp, const int64_t *ci, const double *w, int64_t u, int64_t v) {
  int64_t lo = rp[u], hi = rp[u + 1];
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (ci[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo < rp[u + 1] && ci[lo] == v ? w[lo] : NAN;
}

/* tree_csr(indptr, indices, data, pred, directed, out_indptr, out_indices, out_data) -> -1, or the first vertex
 * whose predecessor is not an arc. The graph: canonical CSR (int64, int64, float64); pred: n int32 (-9999:
 * none); the tree's CSR (row = predecessor) is written to out_* (n + 1, and one entry per vertex with a
 * predecessor). Undirected: the lighter of both directions. */
static PyObject *py_tree_csr(PyObject *self, PyObject *args) {
  PyObject *orp, *oci, *ow, *op, *oorp, *ooci, *oow;
  int directed;
  if (!PyArg_ParseTuple(args, "OOOOpOOO", &orp, &oci, &ow, &op, &directed, &oorp, &ooci, &oow)) return NULL;
  Py_buffer vrp = {0}, vci = {0}, vw = {0}, vp = {0}, vorp = {0}, voci = {0}, vow = {0};
  PyObject *ret = NULL;
  if (get_buffer(orp, &vrp, 8, -1, false, "indptr") < 0) goto done;
  const int64_t n = (int64_t)(vrp.len / 8) - 1;
  if (get_buffer(oci, &vci, 8, -1, false, "indices") < 0 || get_buffer(ow, &vw, 8, vci.len / 8, false, "data") < 0 ||
      get_buffer(op, &vp, 4, (Py_ssize_t)n, false, "predecessors") < 0 ||
      get_buffer(oorp, &vorp, 8, (Py_ssize_t)n + 1, true, "tree indptr") < 0 ||
      get_buffer(ooci, &voci, 8, -1, true, "tree indices") < 0 ||
      get_buffer(oow, &vow, 8, voci.len / 8, true, "tree data") < 0)
    goto done;
  const int64_t *rp = vrp.buf, *ci = vci.buf;
  const double *w = vw.buf;
  const int32_t *pred = vp.buf;
  int64_t *trp = vorp.buf, *tci = voci.buf;
  double *tw = vow.buf;
  const int64_t cap = (int64_t)(voci.len / 8);
  int64_t bad = -1;
  Py_BEGIN_ALLOW_THREADS memset(trp, 0, (size_t)(n + 1) * sizeof *trp);
  for (int64_t v = 0; v < n && bad < 0; v++)
    if (pred[v] != -9999) {
      if (pred[v] < 0 || pred[v] >= n) bad = v;
      else trp[pred[v] + 1]++;
    }
  for (int64_t u = 0; u < n; u++) trp[u + 1] += trp[u];
  if (bad < 0 && trp[n] != cap) bad = n; /* cannot happen: the caller counted */
  /* heads in increasing order within each row: a canonical CSR */
  for (int64_t v = 0; v < n && bad < 0; v++) {
    if (pred[v] == -9999) continue;
    const int64_t u = pred[v];
    double x = arc_weight(rp, ci, w, u, v);
    if (!directed) {
      const double y = arc_weight(rp, ci, w, v, u);
      x = isnan(x) ? y : isnan(y) ? x : fmin(x, y);
    }
    if (isnan(x)) bad = v;
    const int64_t at = trp[u]++;
    tci[at] = v, tw[at] = x;
  }
  /* the fill advanced every row start to the next one's: shift back */
  for (int64_t u = n; u > 0; u--) trp[u] = trp[u - 1];
  trp[0] = 0;
  Py_END_ALLOW_THREADS ret = PyLong_FromLongLong(bad);
done:
  release(&vrp), release(&vci), release(&vw), release(&vp), release(&vorp), release(&voci), release(&vow);
  return ret;
}

/* negative_cycle(spec) -> the vertices of a negative cycle (gsp_negative_cycle), or None. */
static PyObject *py_negative_cycle(PyObject *self, PyObject *args) {
  PyObject *spec;
  if (!PyArg_ParseTuple(args, "O", &spec)) return NULL;
  gsp_index n = 0, len = 0;
  gsp_matrix A = make_graph(spec, 0, &n, NULL);
  if (!A) return NULL;
  gsp_index *buf = malloc((size_t)(n ? n : 1) * sizeof *buf);
  PyObject *ret = NULL;
  if (!buf) {
    gsp_matrix_free(&A);
    return PyErr_NoMemory();
  }
  len = n;
  gsp_info info = GSP_NO_VALUE;
  if (n) {
    Py_BEGIN_ALLOW_THREADS info = gsp_negative_cycle(buf, &len, A, NULL);
    Py_END_ALLOW_THREADS
  }
  if (info == GSP_NO_VALUE) {
    ret = Py_NewRef(Py_None);
  } else if (info != GSP_SUCCESS) {
    raise_info(info, NULL);
  } else if ((ret = PyList_New((Py_ssize_t)len))) {
    for (gsp_index k = 0; k < len; k++) {
      PyObject *v = PyLong_FromUnsignedLongLong(buf[k]);
      if (!v) {
        Py_CLEAR(ret);
        break;
      }
      PyList_SET_ITEM(ret, (Py_ssize_t)k, v);
    }
  }
  free(buf);
  gsp_matrix_free(&A);
  return ret;
}

/* has_negative(spec): whether a dense graph spec has an arc below zero:
 * one C pass instead of numpy's several. */
static PyObject *py_has_negative(PyObject *self, PyObject *args) {
  PyObject *spec;
  if (!PyArg_ParseTuple(args, "O!", &PyTuple_Type, &spec)) return NULL;
  if (PyTuple_GET_SIZE(spec) != 8) {
    PyErr_SetString(PyExc_TypeError, "gspgraph._core: has_negative: a dense graph spec expected");
    return NULL;
  }
  Py_buffer v;
  dense_read r = {0};
  int64_t absent[1];
  const Py_ssize_t n = PyLong_AsSsize_t(PyTuple_GET_ITEM(spec, 1));
  if ((n < 0 && PyErr_Occurred()) || dense_spec(spec, n, &v, &r, absent) < 0) return NULL;
  bool neg;
  Py_BEGIN_ALLOW_THREADS neg = dense_has_negative(v.buf, (size_t)n * (size_t)n, &r);
  Py_END_ALLOW_THREADS PyBuffer_Release(&v);
  return PyBool_FromLong(neg);
}

/* ---- calls ----------------------------------------------------------------- */

static PyObject *report_tuple(const gsp_apsp_report *rep) {
  return Py_BuildValue("(iiKK(ddddd))", (int)rep->algo, (int)rep->backend, (unsigned long long)rep->row_block,
                       (unsigned long long)rep->row_blocks, rep->prepare_s, rep->compute_s, rep->device_s, rep->copy_s,
                       rep->finish_s);
}

/* apsp(spec, undirected, sources, algo, backend, cutoff, dist, pred, row_block)
 * -> (algo, backend, row_block, row_blocks, (prepare_s, compute_s, device_s,
 * copy_s, finish_s)). dist: ns x n items of the graph's type; pred: ns x n
 * int32 or None. */
static PyObject *py_apsp(PyObject *self, PyObject *args) {
  PyObject *spec, *osrc, *ocut, *odist, *opred;
  int undirected, algo, backend;
  unsigned long long row_block;
  if (!PyArg_ParseTuple(args, "OpOiiOOOK", &spec, &undirected, &osrc, &algo, &backend, &ocut, &odist, &opred,
                        &row_block))
    return NULL;
  search_args a = {0};
  if (search_open(&a, spec, undirected, osrc, odist, opred, -1) < 0) return NULL;
  PyObject *ret = NULL;
  gsp_apsp_report rep;
  memset(&rep, 0, sizeof rep);
  gsp_apsp_opts o;
  gsp_apsp_advanced oa;
  memset(&o, 0, sizeof o);
  memset(&oa, 0, sizeof oa);
  o.advanced = &oa;
  o.algo = (gsp_apsp_algo)algo;
  o.backend = (gsp_backend)backend;
  o.sources = a.src;
  o.nsources = a.ns;
  if (ocut != Py_None) {
    o.has_cutoff = true;
    o.cutoff = PyFloat_AsDouble(ocut);
    if (PyErr_Occurred()) goto done;
  }
  oa.row_block = (gsp_index)row_block;
  oa.report = &rep;
  oa.rows_out = a.vd.buf;
  gsp_info info = GSP_SUCCESS;
  rows_ctx c = {
      .dist = a.vd.buf, .ds = gsp_type_size(a.t), .pred = opred != Py_None ? a.vp.buf : NULL, .src = a.src, .n = a.n};
  gsp_get_threads(&c.threads);
  c.ts = PyEval_SaveThread();
  if (info == GSP_SUCCESS && a.n > 0 && a.ns > 0) {
    gsp_matrix dd = NULL, pp = NULL;
    oa.rows = on_rows;
    oa.rows_ctx = &c;
    info = gsp_apsp(&dd, opred != Py_None ? &pp : NULL, a.A, &o);
  }
  PyEval_RestoreThread(c.ts);
  if (info != GSP_SUCCESS) {
    raise_info(info, a.A);
    goto done;
  }
  ret = report_tuple(&rep);
done:
  search_close(&a);
  return ret;
}

/* Row r of the outputs from a distance vector and a parent vector. */
static gsp_info vectors_to_row(void *drow, int32_t *prow, gsp_vector d, gsp_vector p, gsp_index s, gsp_index n,
                               gsp_type t, int64_t *tmp) {
  gsp_info info;
  if (t == GSP_FP32) {
    const float inf = INFINITY;
    info = gsp_vector_export_dense(drow, &inf, d);
  } else {
    const double inf = INFINITY;
    info = gsp_vector_export_dense(drow, &inf, d);
  }
  if (info != GSP_SUCCESS || !prow) return info;
  const int64_t none = -1;
  info = gsp_vector_export_dense(tmp, &none, p);
  if (info != GSP_SUCCESS) return info;
  for (gsp_index v = 0; v < n; v++) prow[v] = (tmp[v] < 0 || v == s) ? -9999 : (int32_t)tmp[v];
  return GSP_SUCCESS;
}

/* bellman_ford(spec, undirected, sources, backend, dist, pred) -> the
 * backend that ran (gsp_backend code): one
 * Bellman-Ford run per source, as scipy's bellman_ford does (a negative
 * cycle no source reaches does not matter). */
static PyObject *py_bellman_ford(PyObject *self, PyObject *args) {
  PyObject *spec, *osrc, *odist, *opred;
  int undirected, backend;
  if (!PyArg_ParseTuple(args, "OpOiOO", &spec, &undirected, &osrc, &backend, &odist, &opred)) return NULL;
  search_args a = {0};
  if (search_open(&a, spec, undirected, osrc, odist, opred, -1) < 0) return NULL;
  PyObject *ret = NULL;
  const gsp_index n = a.n;
  const size_t ds = gsp_type_size(a.t);
  gsp_run_report rep = {.backend = GSP_BACKEND_CPU}; /* no source: nothing ran but the host */
  const gsp_bf_advanced adv = {.report = &rep};
  const gsp_bf_opts bo = {.backend = (gsp_backend)backend, .advanced = &adv};
  for (gsp_index k = 0; k < a.ns; k++) {
    const gsp_index s = a.src ? a.src[k] : k;
    gsp_vector d = NULL, p = NULL;
    gsp_info info;
    Py_BEGIN_ALLOW_THREADS info = gsp_bellman_ford(&d, opred != Py_None ? &p : NULL, a.A, s, &bo);
    if (info == GSP_SUCCESS)
      info = vectors_to_row((char *)a.vd.buf + (size_t)k * n * ds,
                            opred != Py_None ? (int32_t *)a.vp.buf + k * n : NULL, d, p, s, n, a.t, a.tmp);
    Py_END_ALLOW_THREADS gsp_vector_free(&d);
    gsp_vector_free(&p);
    if (info != GSP_SUCCESS) {
      raise_info(info, a.A);
      goto done;
    }
    if (PyErr_CheckSignals() < 0) goto done;
  }
  ret = PyLong_FromLong((long)rep.backend);
done:
  search_close(&a);
  return ret;
}

/* nearest(spec, undirected, sources, backend, cutoff, dist, pred, origin)
 * -> the backend that ran: dijkstra(min_only=True). dist: n items; pred, origin: n int32 or None. */
static PyObject *py_nearest(PyObject *self, PyObject *args) {
  PyObject *spec, *osrc, *ocut, *odist, *opred, *oorig;
  int undirected, backend;
  if (!PyArg_ParseTuple(args, "OpOiOOOO", &spec, &undirected, &osrc, &backend, &ocut, &odist, &opred, &oorig))
    return NULL;
  search_args a = {0};
  if (search_open(&a, spec, undirected, osrc, odist, opred, 1) < 0) return NULL;
  PyObject *ret = NULL;
  const gsp_index n = a.n;
  Py_buffer vo = {0};
  if (oorig != Py_None && get_buffer(oorig, &vo, 4, (Py_ssize_t)n, true, "sources out") < 0) goto done;
  gsp_run_report rep = {0};
  const gsp_sssp_advanced adv = {.report = &rep};
  gsp_sssp_opts so = {.backend = (gsp_backend)backend, .advanced = &adv};
  if (ocut != Py_None) {
    so.has_cutoff = true;
    so.cutoff = PyFloat_AsDouble(ocut);
    if (PyErr_Occurred()) goto done;
  }
  gsp_vector d = NULL, o = NULL, p = NULL;
  gsp_info info;
  const bool paths = opred != Py_None;
  Py_BEGIN_ALLOW_THREADS info = gsp_nearest_source(&d, paths ? &o : NULL, paths ? &p : NULL, a.A, a.src, a.ns, &so);
  if (info == GSP_SUCCESS) {
    /* a source is its own parent: its predecessor is -9999, as scipy has it */
    info = vectors_to_row(a.vd.buf, paths ? (int32_t *)a.vp.buf : NULL, d, p, (gsp_index)-1, n, a.t, a.tmp);
    if (info == GSP_SUCCESS && paths) {
      int32_t *pr = a.vp.buf;
      for (gsp_index v = 0; v < n; v++)
        if (pr[v] == (int32_t)v) pr[v] = -9999;
    }
    if (info == GSP_SUCCESS && paths && oorig != Py_None) {
      const int64_t none = -1;
      info = gsp_vector_export_dense(a.tmp, &none, o);
      int32_t *po = vo.buf;
      for (gsp_index v = 0; info == GSP_SUCCESS && v < n; v++) po[v] = a.tmp[v] < 0 ? -9999 : (int32_t)a.tmp[v];
    }
  }
  Py_END_ALLOW_THREADS gsp_vector_free(&d), gsp_vector_free(&o), gsp_vector_free(&p);
  if (info != GSP_SUCCESS) {
    raise_info(info, a.A);
    goto done;
  }
  if (PyErr_CheckSignals() < 0) goto done;
  ret = PyLong_FromLong((long)rep.backend);
done:
  release(&vo);
  search_close(&a);
  return ret;
}

/* The closure of the graph of spec (undirected: 0, 1 or 2 as for
 * make_graph) on the backend; loops (n bytes, or None): the diagonal keeps
 * (i, i) only where loops[i] (a bool closure's bits: O(1) a vertex);
 * *rep: where it ran. NULL with an exception set on error. */
static gsp_matrix closure_of(PyObject *spec, int undirected, int semiring, int reflexive, int backend, PyObject *oloops,
                             gsp_run_report *rep) {
  gsp_index n = 0;
  gsp_matrix A = make_graph(spec, undirected, &n, NULL);
  if (!A) return NULL;
  Py_buffer vl = {0};
  if (oloops != Py_None && get_buffer(oloops, &vl, 1, (Py_ssize_t)n, false, "loops") < 0) {
    gsp_matrix_free(&A);
    return NULL;
  }
  const gsp_closure_advanced adv = {.report = rep};
  const gsp_closure_opts co = {.non_reflexive = !reflexive, .backend = (gsp_backend)backend, .advanced = &adv};
  gsp_info info;
  Py_BEGIN_ALLOW_THREADS info = gsp_closure_ext(A, NULL, (gsp_semiring)semiring, &co);
  for (gsp_index i = 0; info == GSP_SUCCESS && vl.obj && i < n; i++)
    if (!((const char *)vl.buf)[i]) info = gsp_matrix_remove_element(A, i, i);
  Py_END_ALLOW_THREADS release(&vl);
  if (info != GSP_SUCCESS) {
    raise_info(info, A);
    gsp_matrix_free(&A);
    return NULL;
  }
  return A;
}

/* One value of type t from a Python number (a bool for GSP_BOOL). */
static int scalar_of(void *out, gsp_type t, PyObject *o) {
  switch (t) {
  case GSP_BOOL:
    *(bool *)out = PyObject_IsTrue(o) == 1;
    break;
  case GSP_INT32:
    *(int32_t *)out = (int32_t)PyLong_AsLong(o);
    break;
  case GSP_INT64:
    *(int64_t *)out = (int64_t)PyLong_AsLongLong(o);
    break;
  case GSP_FP32:
    *(float *)out = (float)PyFloat_AsDouble(o);
    break;
  default:
    *(double *)out = PyFloat_AsDouble(o);
    break;
  }
  return PyErr_Occurred() ? -1 : 0;
}

/* ---- results the library allocated, handed to numpy without a copy ---- */

/* An array gsp handed out (gsp_matrix_unpack_dense: malloc()ed, the pages
 * already touched by the call), as a writable buffer that numpy.frombuffer
 * adopts; freed with the last array that uses it. */
typedef struct {
  PyObject_HEAD void *data;
  Py_ssize_t len;
} HostBuffer;

static int hb_getbuffer(PyObject *self, Py_buffer *view, int flags) {
  HostBuffer *h = (HostBuffer *)self;
  return PyBuffer_FillInfo(view, self, h->data, h->len, 0, flags);
}

static void hb_dealloc(PyObject *self) {
  free(((HostBuffer *)self)->data);
  Py_TYPE(self)->tp_free(self);
}

static PyBufferProcs hb_buffer = {.bf_getbuffer = hb_getbuffer};

static PyTypeObject HostBufferType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gspgraph._core.HostBuffer",
    .tp_basicsize = sizeof(HostBuffer),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An array the gsp library allocated, for numpy.frombuffer.",
    .tp_dealloc = hb_dealloc,
    .tp_as_buffer = &hb_buffer,
};

/* A's dense values (absent entries = absent) as a HostBuffer; frees A. */
static PyObject *host_buffer_of(gsp_matrix *A, const void *absent) {
  gsp_index n = 0;
  gsp_type t;
  gsp_matrix_nrows(&n, *A);
  gsp_matrix_type(&t, *A);
  HostBuffer *h = PyObject_New(HostBuffer, &HostBufferType);
  if (!h) return NULL;
  h->data = NULL;
  h->len = (Py_ssize_t)((size_t)n * (size_t)n * gsp_type_size(t));
  gsp_info info;
  Py_BEGIN_ALLOW_THREADS info = gsp_matrix_unpack_dense(&h->data, absent, A);
  Py_END_ALLOW_THREADS if (info != GSP_SUCCESS) {
    Py_DECREF(h);
    return raise_info(info, *A);
  }
  return (PyObject *)h;
}

/* closure(spec, undirected, semiring, reflexive, backend, absent, loops)
 * -> (HostBuffer, the backend that ran): the Kleene closure, n x n items of the graph's type
 * (absent: the value for "no path", a number or a bool), in the array the
 * library computed it in; loops as for closure_of. */
static PyObject *py_closure(PyObject *self, PyObject *args) {
  PyObject *spec, *oabs, *oloops = Py_None;
  int undirected, semiring, reflexive, backend;
  if (!PyArg_ParseTuple(args, "OiipiO|O", &spec, &undirected, &semiring, &reflexive, &backend, &oabs, &oloops))
    return NULL;
  gsp_run_report rep = {0};
  gsp_matrix A = closure_of(spec, undirected, semiring, reflexive, backend, oloops, &rep);
  if (!A) return NULL;
  gsp_type t;
  gsp_matrix_type(&t, A);
  int64_t absent[1];
  PyObject *buf = scalar_of(absent, t, oabs) < 0 ? NULL : host_buffer_of(&A, absent);
  gsp_matrix_free(&A);
  if (!buf || PyErr_CheckSignals() < 0) {
    Py_XDECREF(buf);
    return NULL;
  }
  return Py_BuildValue("(Ni)", buf, (int)rep.backend);
}

/* A new array from alloc(count, dtype name), and its writable buffer. */
static PyObject *alloc_array(PyObject *alloc, Py_ssize_t count, const char *dtype, Py_ssize_t itemsize, Py_buffer *v) {
  PyObject *a = PyObject_CallFunction(alloc, "ns", count, dtype);
  if (a && get_buffer(a, v, itemsize, count, true, dtype) < 0) Py_CLEAR(a);
  return a;
}

/* closure_csr(spec, undirected, semiring, reflexive, backend, loops, alloc)
 * -> (indptr, indices, data, the backend that ran): the closure's CSR arrays, built by the library
 * from the closure's own storage (bits for or_and) into arrays from
 * alloc(count, dtype) (numpy.empty): indices int32 where every index and
 * the entry count fit (scipy keeps them as they are), else int64; indptr
 * int64; data of the graph's type. */
static PyObject *py_closure_csr(PyObject *self, PyObject *args) {
  PyObject *spec, *oloops, *alloc;
  int undirected, semiring, reflexive, backend;
  if (!PyArg_ParseTuple(args, "OiipiOO", &spec, &undirected, &semiring, &reflexive, &backend, &oloops, &alloc))
    return NULL;
  gsp_run_report rep = {0};
  gsp_matrix A = closure_of(spec, undirected, semiring, reflexive, backend, oloops, &rep);
  if (!A) return NULL;
  static const char *const dtype_name[] = {[GSP_BOOL] = "bool",
                                           [GSP_INT32] = "int32",
                                           [GSP_INT64] = "int64",
                                           [GSP_FP32] = "float32",
                                           [GSP_FP64] = "float64"};
  PyObject *ret = NULL, *ap = NULL, *ai = NULL, *ax = NULL;
  Py_buffer vp = {0}, vi = {0}, vx = {0};
  gsp_index n = 0, nnz = 0;
  gsp_type t;
  gsp_matrix_nrows(&n, A);
  gsp_matrix_type(&t, A);
  gsp_info info;
  if (!(ap = alloc_array(alloc, (Py_ssize_t)n + 1, "int64", 8, &vp))) goto done;
  Py_BEGIN_ALLOW_THREADS info = gsp_matrix_export_csr_indexed(vp.buf, NULL, 8, NULL, A);
  Py_END_ALLOW_THREADS if (info != GSP_SUCCESS) {
    raise_info(info, A);
    goto done;
  }
  nnz = ((gsp_index *)vp.buf)[n];
  const size_t is = (nnz < ((gsp_index)1 << 31) && n < ((gsp_index)1 << 31)) ? 4 : 8;
  if (!(ai = alloc_array(alloc, (Py_ssize_t)nnz, is == 4 ? "int32" : "int64", (Py_ssize_t)is, &vi)) ||
      !(ax = alloc_array(alloc, (Py_ssize_t)nnz, dtype_name[t], (Py_ssize_t)gsp_type_size(t), &vx)))
    goto done;
  Py_BEGIN_ALLOW_THREADS info = gsp_matrix_export_csr_indexed(vp.buf, vi.buf, is, vx.buf, A);
  Py_END_ALLOW_THREADS if (info != GSP_SUCCESS) {
    raise_info(info, A);
    goto done;
  }
  ret = Py_BuildValue("(OOOi)", ap, ai, ax, (int)rep.backend);
done:
  release(&vp), release(&vi), release(&vx);
  Py_XDECREF(ap), Py_XDECREF(ai), Py_XDECREF(ax);
  gsp_matrix_free(&A);
  return ret;
}

/* ---- results on the device: DLPack ------------------------------------------
 *
 * A closure computed on the GPU stays there: gsp_matrix_device_view gives
 * its dense device copy (n x n, row stride ld, absent entries holding the
 * semiring's zero), and a DeviceMatrix object owns the gsp matrix behind
 * it. __dlpack__ (python/gspgraph/_device.py) hands it out as a DLPack capsule
 * whose tensor keeps the matrix alive: the matrix is freed when the last
 * of the DeviceMatrix and the tensors made from it goes. The structs are
 * those of dlpack.h (v1.0; the unversioned DLManagedTensor of earlier
 * versions as well), written out here so the build needs no DLPack
 * header. */

typedef struct {
  uint32_t major, minor;
} DLPackVersion;
typedef struct {
  int32_t device_type; /* DLDeviceType: kDLCUDA = 2 */
  int32_t device_id;
} DLDevice;
typedef struct {
  uint8_t code; /* DLDataTypeCode: kDLInt = 0, kDLFloat = 2 */
  uint8_t bits;
  uint16_t lanes;
} DLDataType;
typedef struct {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides; /* in elements */
  uint64_t byte_offset;
} DLTensor;
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned *self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;
enum { kDLCUDA = 2, kDLInt = 0, kDLFloat = 2 };

/* The gsp matrix behind a device result, shared by its DeviceMatrix and
 * the DLPack tensors made from it; the last release frees it (from any
 * thread, without the GIL: a consumer may drop its tensor anywhere). */
typedef struct {
  gsp_matrix A;
  atomic_long refs;
} dev_owner;

static void owner_release(dev_owner *o) {
  if (atomic_fetch_sub(&o->refs, 1) == 1) {
    gsp_matrix_free(&o->A);
    free(o);
  }
}

typedef struct {
  PyObject_HEAD dev_owner *owner;
  void *data;
  gsp_index n, ld;
  int device;
  int typecode; /* 'i', 'q', 'f', 'd' */
} DeviceMatrix;

/* One exported tensor: the DLPack struct, its shape and strides, and its
 * reference on the owner; manager_ctx points at it. */
typedef struct {
  DLManagedTensor m;
  int64_t shape[2], strides[2];
  dev_owner *owner;
} dl_plain;
typedef struct {
  DLManagedTensorVersioned m;
  int64_t shape[2], strides[2];
  dev_owner *owner;
} dl_versioned;

static void dl_plain_delete(DLManagedTensor *m) {
  dl_plain *t = m->manager_ctx;
  owner_release(t->owner);
  free(t);
}

static void dl_versioned_delete(DLManagedTensorVersioned *m) {
  dl_versioned *t = m->manager_ctx;
  owner_release(t->owner);
  free(t);
}

/* A capsule never consumed still owns its tensor; a consumer renames it
 * "used_dltensor[_versioned]" and takes over the deleter. */
static void capsule_plain_dtor(PyObject *cap) {
  if (PyCapsule_IsValid(cap, "used_dltensor")) return;
  PyObject *et, *ev, *tb;
  PyErr_Fetch(&et, &ev, &tb);
  DLManagedTensor *m = PyCapsule_GetPointer(cap, "dltensor");
  if (m) m->deleter(m);
  else PyErr_WriteUnraisable(cap);
  PyErr_Restore(et, ev, tb);
}

static void capsule_versioned_dtor(PyObject *cap) {
  if (PyCapsule_IsValid(cap, "used_dltensor_versioned")) return;
  PyObject *et, *ev, *tb;
  PyErr_Fetch(&et, &ev, &tb);
  DLManagedTensorVersioned *m = PyCapsule_GetPointer(cap, "dltensor_versioned");
  if (m) m->deleter(m);
  else PyErr_WriteUnraisable(cap);
  PyErr_Restore(et, ev, tb);
}

static void fill_tensor(DLTensor *t, const DeviceMatrix *d, int64_t *shape, int64_t *strides) {
  shape[0] = shape[1] = (int64_t)d->n;
  strides[0] = (int64_t)d->ld;
  strides[1] = 1;
  t->data = d->data;
  t->device.device_type = kDLCUDA;
  t->device.device_id = d->device;
  t->ndim = 2;
  t->dtype.code = (d->typecode == 'f' || d->typecode == 'd') ? kDLFloat : kDLInt;
  t->dtype.bits = (d->typecode == 'i' || d->typecode == 'f') ? 32 : 64;
  t->dtype.lanes = 1;
  t->shape = shape;
  t->strides = strides;
  t->byte_offset = 0;
}

/* DeviceMatrix.dlpack(versioned): a new capsule holding a reference on
 * the matrix ("dltensor_versioned" with DLPack 1.0's struct, else
 * "dltensor"). Stream and device arguments are checked by the caller. */
static PyObject *dm_dlpack(PyObject *self, PyObject *args) {
  DeviceMatrix *d = (DeviceMatrix *)self;
  int versioned = 0;
  if (!PyArg_ParseTuple(args, "p", &versioned)) return NULL;
  PyObject *cap;
  if (versioned) {
    dl_versioned *t = calloc(1, sizeof *t);
    if (!t) return PyErr_NoMemory();
    t->m.version.major = 1;
    t->m.version.minor = 0;
    t->m.manager_ctx = t;
    t->m.deleter = dl_versioned_delete;
    t->m.flags = 0; /* writable, not a copy */
    fill_tensor(&t->m.dl_tensor, d, t->shape, t->strides);
    t->owner = d->owner;
    cap = PyCapsule_New(&t->m, "dltensor_versioned", capsule_versioned_dtor);
    if (!cap) {
      free(t);
      return NULL;
    }
  } else {
    dl_plain *t = calloc(1, sizeof *t);
    if (!t) return PyErr_NoMemory();
    t->m.manager_ctx = t;
    t->m.deleter = dl_plain_delete;
    fill_tensor(&t->m.dl_tensor, d, t->shape, t->strides);
    t->owner = d->owner;
    cap = PyCapsule_New(&t->m, "dltensor", capsule_plain_dtor);
    if (!cap) {
      free(t);
      return NULL;
    }
  }
  atomic_fetch_add(&d->owner->refs, 1); /* the capsule's (later the consumer's) reference */
  return cap;
}

/* DeviceMatrix.info() -> (pointer, n, ld, device id, typecode). */
static PyObject *dm_info(PyObject *self, PyObject *noargs) {
  DeviceMatrix *d = (DeviceMatrix *)self;
  return Py_BuildValue("(KKKiC)", (unsigned long long)(uintptr_t)d->data, (unsigned long long)d->n,
                       (unsigned long long)d->ld, d->device, d->typecode);
}

static void dm_dealloc(PyObject *self) {
  DeviceMatrix *d = (DeviceMatrix *)self;
  if (d->owner) owner_release(d->owner);
  Py_TYPE(self)->tp_free(self);
}

static PyMethodDef dm_methods[] = {
    {"dlpack", dm_dlpack, METH_VARARGS, "dlpack(versioned) -> a DLPack capsule of the device matrix"},
    {"info", dm_info, METH_NOARGS, "(pointer, n, ld, device id, typecode)"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject DeviceMatrixType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gspgraph._core.DeviceMatrix",
    .tp_basicsize = sizeof(DeviceMatrix),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A gsp matrix whose dense copy lives on a GPU (made by gspgraph._core.closure_device).",
    .tp_dealloc = dm_dealloc,
    .tp_methods = dm_methods,
};

static int typecode_of(gsp_type t) {
  switch (t) {
  case GSP_INT32:
    return 'i';
  case GSP_INT64:
    return 'q';
  case GSP_FP32:
    return 'f';
  default:
    return 'd';
  }
}

/* closure_device(spec, undirected, semiring, reflexive) -> DeviceMatrix:
 * the closure on the GPU (backend CUDA), left on the device, absent
 * entries holding the semiring's zero. */
static PyObject *py_closure_device(PyObject *self, PyObject *args) {
  PyObject *spec;
  int undirected, semiring, reflexive;
  if (!PyArg_ParseTuple(args, "Oiip", &spec, &undirected, &semiring, &reflexive)) return NULL;
  gsp_index n = 0;
  gsp_type t = GSP_BOOL;
  gsp_matrix A = make_graph(spec, undirected, &n, &t);
  if (!A) return NULL;
  gsp_closure_opts co;
  memset(&co, 0, sizeof co);
  co.non_reflexive = !reflexive;
  co.backend = GSP_BACKEND_CUDA;
  void *data = NULL;
  gsp_index ld = 0;
  int device = 0;
  gsp_info info;
  Py_BEGIN_ALLOW_THREADS info = gsp_closure_ext(A, NULL, (gsp_semiring)semiring, &co);
  if (info == GSP_SUCCESS) info = gsp_matrix_device_view(&data, &ld, &device, A, (gsp_semiring)semiring);
  Py_END_ALLOW_THREADS if (info != GSP_SUCCESS) {
    raise_info(info, A);
    gsp_matrix_free(&A);
    return NULL;
  }
  dev_owner *o = malloc(sizeof *o);
  DeviceMatrix *d = o ? PyObject_New(DeviceMatrix, &DeviceMatrixType) : NULL;
  if (!d) {
    free(o);
    gsp_matrix_free(&A);
    return o ? NULL : PyErr_NoMemory();
  }
  o->A = A;
  atomic_init(&o->refs, 1);
  d->owner = o;
  d->data = data;
  d->n = n;
  d->ld = ld;
  d->device = device;
  d->typecode = typecode_of(t);
  return (PyObject *)d;
}

static PyObject *py_cuda_available(PyObject *self, PyObject *noargs) {
  bool ok = false;
  char desc[512] = "";
  gsp_cuda_available(&ok, desc, sizeof desc);
  int count = 0;
  gsp_cuda_device_count(&count);
  return Py_BuildValue("(Osi)", ok ? Py_True : Py_False, desc, count);
}

static PyObject *py_set_threads(PyObject *self, PyObject *args) {
  int k;
  if (!PyArg_ParseTuple(args, "i", &k)) return NULL;
  gsp_info info = gsp_set_threads(k);
  if (info != GSP_SUCCESS) return raise_info(info, NULL);
  Py_RETURN_NONE;
}

static PyObject *py_get_threads(PyObject *self, PyObject *noargs) {
  int k = 0;
  gsp_get_threads(&k);
  return PyLong_FromLong(k);
}

static PyObject *py_set_exceptions(PyObject *self, PyObject *args) {
  PyObject *e, *nc;
  if (!PyArg_ParseTuple(args, "OO", &e, &nc)) return NULL;
  Py_XSETREF(GspError, Py_NewRef(e));
  Py_XSETREF(NegativeCycleError, Py_NewRef(nc));
  Py_RETURN_NONE;
}

/* ---- the sparse star's factorization (gsp.StarFactor) -------------------- */

static void star_capsule_dtor(PyObject *cap) {
  gsp_star F = PyCapsule_GetPointer(cap, "gsp.star");
  gsp_star_free(&F);
}

static gsp_star star_of(PyObject *cap) {
  return PyCapsule_GetPointer(cap, "gsp.star"); /* NULL with an exception set */
}

/* star_factor(spec, undirected, semiring, ordering) -> the factorization. */
static PyObject *py_star_factor(PyObject *self, PyObject *args) {
  PyObject *spec;
  int undirected, sr, ord;
  if (!PyArg_ParseTuple(args, "Opii", &spec, &undirected, &sr, &ord)) return NULL;
  gsp_matrix A = make_graph(spec, undirected_mode(undirected, sr), NULL, NULL);
  if (!A) return NULL;
  gsp_star F = NULL;
  const gsp_star_opts o = {.ordering = (gsp_ordering)ord};
  gsp_info info;
  Py_BEGIN_ALLOW_THREADS info = gsp_star_factor(&F, A, (gsp_semiring)sr, &o);
  Py_END_ALLOW_THREADS if (info != GSP_SUCCESS) raise_info(info, A);
  gsp_matrix_free(&A);
  if (info != GSP_SUCCESS) return NULL;
  PyObject *cap = PyCapsule_New(F, "gsp.star", star_capsule_dtor);
  if (!cap) gsp_star_free(&F);
  return cap;
}

/* star_refactor(factorization, spec, undirected): new weights, same pattern. */
static PyObject *py_star_refactor(PyObject *self, PyObject *args) {
  PyObject *cap, *spec;
  int undirected;
  if (!PyArg_ParseTuple(args, "OOp", &cap, &spec, &undirected)) return NULL;
  gsp_star F = star_of(cap);
  if (!F) return NULL;
  gsp_star_report rep;
  gsp_star_report_get(&rep, F);
  gsp_matrix A = make_graph(spec, undirected_mode(undirected, rep.semiring), NULL, NULL);
  if (!A) return NULL;
  gsp_info info;
  Py_BEGIN_ALLOW_THREADS info = gsp_star_refactor(F, A);
  Py_END_ALLOW_THREADS if (info != GSP_SUCCESS) raise_info(info, A);
  gsp_matrix_free(&A);
  if (info != GSP_SUCCESS) return NULL;
  Py_RETURN_NONE;
}

/* star_lines(factorization, sources or None, col, out): rows (col false) or
 * columns of A* into out (k x n items of the factorization's type), "no
 * path" as the semiring's zero (zero: one item of that value). */
static PyObject *py_star_lines(PyObject *self, PyObject *args) {
  PyObject *cap, *osrc, *out, *zero;
  int col;
  if (!PyArg_ParseTuple(args, "OOpOO", &cap, &osrc, &col, &out, &zero)) return NULL;
  gsp_star F = star_of(cap);
  if (!F) return NULL;
  gsp_star_report rep;
  gsp_star_report_get(&rep, F);
  const Py_ssize_t es = (Py_ssize_t)gsp_type_size(rep.type);
  const gsp_index *src = NULL;
  gsp_index ns = 0;
  Py_buffer vs = {0}, vo = {0}, vz = {0};
  PyObject *ret = NULL;
  gsp_matrix R = NULL;
  if (get_sources(osrc, &vs, &src, &ns, rep.n) < 0) goto done;
  if (get_buffer(out, &vo, es, (Py_ssize_t)(ns * rep.n), true, "out") < 0) goto done;
  if (get_buffer(zero, &vz, es, 1, false, "zero") < 0) goto done;
  gsp_info info;
  Py_BEGIN_ALLOW_THREADS info = col ? gsp_star_cols(&R, F, src, ns) : gsp_star_rows(&R, F, src, ns);
  if (info == GSP_SUCCESS) info = gsp_matrix_export_dense(vo.buf, vz.buf, R);
  Py_END_ALLOW_THREADS if (info != GSP_SUCCESS) {
    raise_info(info, NULL);
    goto done;
  }
  ret = Py_None;
  Py_INCREF(ret);
done:
  gsp_matrix_free(&R);
  release(&vs), release(&vo), release(&vz);
  return ret;
}

/* star_report(factorization) -> (n, ordering, supernodes, factor values,
 * widest supernode, factor ops, solve ops, analyze_s, factor_s). */
static PyObject *py_star_report(PyObject *self, PyObject *args) {
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  gsp_star F = star_of(cap);
  if (!F) return NULL;
  gsp_star_report r;
  gsp_star_report_get(&r, F);
  return Py_BuildValue("(KsKKKdddd)", (unsigned long long)r.n, r.ordering, (unsigned long long)r.supernodes,
                       (unsigned long long)r.factor_values, (unsigned long long)r.max_supernode, r.factor_ops,
                       r.solve_ops, r.analyze_s, r.factor_s);
}

static PyMethodDef methods[] = {
    {"apsp", py_apsp, METH_VARARGS, "gsp_apsp with a row callback into preallocated arrays"},
    {"bellman_ford", py_bellman_ford, METH_VARARGS, "gsp_bellman_ford once per source"},
    {"nearest", py_nearest, METH_VARARGS, "gsp_nearest_source"},
    {"has_negative", py_has_negative, METH_VARARGS, "whether a dense graph has a negative arc"},
    {"negative_cycle", py_negative_cycle, METH_VARARGS, "gsp_negative_cycle: a list of vertices or None"},
    {"tree_csr", py_tree_csr, METH_VARARGS, "reconstruct_path's tree as CSR arrays"},
    {"dijkstra_limited", py_dijkstra_limited, METH_VARARGS, "scipy's dijkstra on negative weights"},
    {"closure", py_closure, METH_VARARGS, "gsp_closure_ext, unpacked densely into a HostBuffer"},
    {"closure_csr", py_closure_csr, METH_VARARGS, "gsp_closure_ext, exported as CSR arrays"},
    {"closure_device", py_closure_device, METH_VARARGS, "gsp_closure_ext on the GPU, left on the device"},
    {"cuda_available", py_cuda_available, METH_NOARGS, "(available, description, device count)"},
    {"set_threads", py_set_threads, METH_VARARGS, "gsp_set_threads"},
    {"get_threads", py_get_threads, METH_NOARGS, "gsp_get_threads"},
    {"_set_exceptions", py_set_exceptions, METH_VARARGS,
     "register gsp.GspError and the maker of gsp.NegativeCycleError"},
    {"star_factor", py_star_factor, METH_VARARGS, "gsp_star_factor"},
    {"star_refactor", py_star_refactor, METH_VARARGS, "gsp_star_refactor"},
    {"star_lines", py_star_lines, METH_VARARGS, "gsp_star_rows / gsp_star_cols, exported densely"},
    {"star_report", py_star_report, METH_VARARGS, "gsp_star_report_get"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "gspgraph._core", "The compiled part of gsp.", -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void) {
  if (PyType_Ready(&DeviceMatrixType) < 0 || PyType_Ready(&HostBufferType) < 0) return NULL;
  PyObject *m = PyModule_Create(&module);
  if (!m) return NULL;
  if (PyModule_AddObjectRef(m, "DeviceMatrix", (PyObject *)&DeviceMatrixType) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  if (PyModule_AddIntConstant(m, "VERSION_MAJOR", GSP_VERSION_MAJOR) < 0 ||
      PyModule_AddIntConstant(m, "VERSION_MINOR", GSP_VERSION_MINOR) < 0 ||
      PyModule_AddIntConstant(m, "VERSION_PATCH", GSP_VERSION_PATCH) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
