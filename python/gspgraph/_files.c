/*
 * gspgraph._files: the library's graph readers and writers for Python
 * (gsp.read_graph, gsp.write_graph in gsp/_files_api.py).
 *
 * A file is read by gsp_matrix_read_ids, with the options the command
 * line's reading options set, and handed out as CSR arrays that the Python
 * layer wraps in a scipy.sparse.csr_array: the same matrix `gsp convert`
 * reads, and the same refusal (gsp_last_error()'s sentence) for a bad file.
 * Writing goes the other way through gsp_matrix_import_csr (or _dense) and
 * gsp_matrix_write, all or nothing as the library writes every file.
 * Buffers only (no numpy headers); every library call runs without the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <gsp.h>
#include <stdlib.h>
#include <string.h>

/* The exception for a failed call: OSError for a file that cannot be
 * opened, read or written, MemoryError, else ValueError (malformed content
 * or an option that does not fit the file), with the library's sentence. */
static PyObject *raise_info(gsp_info info) {
  const char *detail = gsp_last_error();
  PyObject *type = PyExc_ValueError;
  if (info == GSP_IO_ERROR) type = PyExc_OSError;
  else if (info == GSP_OUT_OF_MEMORY) type = PyExc_MemoryError;
  PyErr_SetString(type, detail[0] ? detail : gsp_strerror(info));
  return NULL;
}

/* A new bytearray of `bytes` bytes: numpy adopts it (np.frombuffer). */
static PyObject *new_bytes(size_t bytes, char **data) {
  PyObject *b = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)bytes);
  if (b) *data = PyByteArray_AsString(b);
  return b;
}

/* read(path, format, type, dup, ids, symmetrize, drop_self_loops,
 *      nvertices, round, absent, want_ids)
 * type and dup: -1 for the file's default; absent: None for the default.
 * Returns (type, nrows, ncols, indptr, indices, values, ids): bytearrays of
 * int64 / int64 / values of the type, ids None unless want_ids. */
static PyObject *py_read(PyObject *self, PyObject *args) {
  const char *path;
  int format, type, dup, ids_mode, symmetrize, no_loops, round, want_ids;
  long long nvertices;
  PyObject *absent;
  if (!PyArg_ParseTuple(args, "siiiippLpOp", &path, &format, &type, &dup, &ids_mode, &symmetrize, &no_loops, &nvertices,
                        &round, &absent, &want_ids))
    return NULL;
  gsp_read_opts o = {0};
  o.format = (gsp_file_format)format;
  o.use_type = type >= 0;
  o.type = (gsp_type)(type >= 0 ? type : 0);
  o.use_dup = dup >= 0;
  o.dup = (gsp_dup)(dup >= 0 ? dup : 0);
  o.ids = (gsp_id_mode)ids_mode;
  o.symmetrize = symmetrize;
  o.drop_self_loops = no_loops;
  o.nvertices = (gsp_index)nvertices;
  o.round = round;
  if (absent != Py_None) {
    o.use_absent = true;
    o.absent = PyFloat_AsDouble(absent);
    if (PyErr_Occurred()) return NULL;
  }
  gsp_matrix A = NULL;
  int64_t *ids = NULL;
  gsp_index nids = 0;
  gsp_info info;
  Py_BEGIN_ALLOW_THREADS info =
      want_ids ? gsp_matrix_read_ids(&A, &ids, &nids, path, &o) : gsp_matrix_read(&A, path, &o);
  Py_END_ALLOW_THREADS if (info < 0) return raise_info(info);

  gsp_index nrows = 0, ncols = 0, nvals = 0;
  gsp_type t = GSP_BOOL;
  gsp_matrix_nrows(&nrows, A);
  gsp_matrix_ncols(&ncols, A);
  gsp_matrix_nvals(&nvals, A);
  gsp_matrix_type(&t, A);
  char *p = NULL, *j = NULL, *x = NULL;
  PyObject *bp = new_bytes((size_t)(nrows + 1) * sizeof(gsp_index), &p);
  PyObject *bj = bp ? new_bytes((size_t)nvals * sizeof(gsp_index), &j) : NULL;
  PyObject *bx = bj ? new_bytes((size_t)nvals * gsp_type_size(t), &x) : NULL;
  PyObject *bids = Py_None, *out = NULL;
  Py_INCREF(Py_None);
  if (bx) {
    Py_BEGIN_ALLOW_THREADS info = gsp_matrix_export_csr((gsp_index *)p, (gsp_index *)j, x, A);
    Py_END_ALLOW_THREADS if (info < 0) raise_info(info);
  }
  if (bx && info >= 0 && ids) {
    char *d = NULL;
    Py_DECREF(bids);
    bids = new_bytes((size_t)nids * sizeof *ids, &d);
    if (bids) memcpy(d, ids, (size_t)nids * sizeof *ids);
  }
  if (bx && info >= 0 && bids)
    out = Py_BuildValue("iLLOOOO", (int)t, (long long)nrows, (long long)ncols, bp, bj, bx, bids);
  Py_XDECREF(bp);
  Py_XDECREF(bj);
  Py_XDECREF(bx);
  Py_XDECREF(bids);
  free(ids);
  gsp_matrix_free(&A);
  return out;
}

/* A C-contiguous read-only buffer of n items of `size` bytes (n < 0: any). */
static int get_buffer(PyObject *o, Py_buffer *v, Py_ssize_t size, Py_ssize_t n, const char *what) {
  if (PyObject_GetBuffer(o, v, PyBUF_C_CONTIGUOUS) < 0) return -1;
  if (v->len % size || (n >= 0 && v->len != n * size)) {
    PyErr_Format(PyExc_ValueError, "gspgraph._files: %s: %zd bytes do not hold %zd items of %zd bytes", what, v->len, n,
                 size);
    PyBuffer_Release(v);
    return -1;
  }
  return 0;
}

/* write(path, format, type, nrows, ncols, indptr, indices, values, comment)
 * with int64 indptr / indices (indices sorted in each row) and values of
 * the type; or, indptr None, `values` a dense row-major nrows x ncols array
 * (every value an entry). comment: None or one line. */
static PyObject *py_write(PyObject *self, PyObject *args) {
  const char *path, *comment;
  int format, type;
  long long nrows, ncols;
  PyObject *op, *oj, *ox;
  if (!PyArg_ParseTuple(args, "siiLLOOOz", &path, &format, &type, &nrows, &ncols, &op, &oj, &ox, &comment)) return NULL;
  const gsp_type t = (gsp_type)type;
  const Py_ssize_t ts = (Py_ssize_t)gsp_type_size(t);
  if (ts == 0 || nrows < 0 || ncols < 0) {
    PyErr_SetString(PyExc_ValueError, "gspgraph._files: bad type or shape");
    return NULL;
  }
  Py_buffer vp = {0}, vj = {0}, vx = {0};
  gsp_matrix A = NULL;
  gsp_info info = GSP_SUCCESS;
  if (op == Py_None) {
    if (get_buffer(ox, &vx, ts, (Py_ssize_t)(nrows * ncols), "values") < 0) return NULL;
    Py_BEGIN_ALLOW_THREADS info = gsp_matrix_import_dense(&A, t, (gsp_index)nrows, (gsp_index)ncols, vx.buf, NULL);
    Py_END_ALLOW_THREADS
  } else {
    if (get_buffer(op, &vp, sizeof(gsp_index), (Py_ssize_t)nrows + 1, "indptr") < 0) return NULL;
    const Py_ssize_t nnz = (Py_ssize_t)((const gsp_index *)vp.buf)[nrows];
    if (get_buffer(oj, &vj, sizeof(gsp_index), nnz, "indices") < 0) {
      PyBuffer_Release(&vp);
      return NULL;
    }
    if (get_buffer(ox, &vx, ts, nnz, "values") < 0) {
      PyBuffer_Release(&vp);
      PyBuffer_Release(&vj);
      return NULL;
    }
    Py_BEGIN_ALLOW_THREADS info =
        gsp_matrix_import_csr(&A, t, (gsp_index)nrows, (gsp_index)ncols, vp.buf, vj.buf, vx.buf);
    Py_END_ALLOW_THREADS
  }
  if (info >= 0) {
    gsp_write_opts w = {.format = (gsp_file_format)format, .comment = comment};
    Py_BEGIN_ALLOW_THREADS info = gsp_matrix_write(path, A, &w);
    Py_END_ALLOW_THREADS
  }
  gsp_matrix_free(&A);
  if (vp.obj) PyBuffer_Release(&vp);
  if (vj.obj) PyBuffer_Release(&vj);
  PyBuffer_Release(&vx);
  if (info < 0) return raise_info(info);
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {{"read", py_read, METH_VARARGS, "gsp_matrix_read_ids into CSR arrays"},
                                {"write", py_write, METH_VARARGS, "gsp_matrix_write from CSR or dense arrays"},
                                {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT,
                                    "gspgraph._files",
                                    "The library's graph readers and writers.",
                                    -1,
                                    methods,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL};

PyMODINIT_FUNC PyInit__files(void) {
  return PyModule_Create(&module);
}
