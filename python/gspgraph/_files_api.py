"""Graph files: the library's readers and writers (the formats the ``gsp``
command reads and writes, docs/formats.md), with its refusals of bad input."""

from __future__ import annotations

import os

import numpy as np

from . import _files

_FORMATS = {"auto": 0, "mtx": 1, "dimacs": 2, "edgelist": 3, "dense": 4, "npy": 5}
_TYPES = {np.dtype(np.bool_): 0, np.dtype(np.int32): 1, np.dtype(np.int64): 2, np.dtype(np.float32): 3,
          np.dtype(np.float64): 4}
_DTYPES = {code: dt for dt, code in _TYPES.items()}
_DUPS = {"error": 0, "first": 1, "last": 2, "min": 3, "max": 4, "plus": 5}
_IDS = {"zero": 0, "one": 1, "remap": 2}


def _pick(table, value, what):
    try:
        return table[value]
    except (KeyError, TypeError):
        raise ValueError("%s must be one of %s, not %r" % (what, ", ".join(map(str, table)), value)) from None


def read_graph(path, *, format="auto", dtype=None, duplicates="min", ids="zero", symmetrize=False,
               drop_self_loops=False, n=None, round=False, absent=None, return_ids=False):
    """Read a graph file as a ``scipy.sparse.csr_array``, as ``gsp`` reads it.

    Parameters
    ----------
    path : str or os.PathLike
        Matrix Market (``.mtx``), DIMACS (``.gr``), an edge list (SNAP-style
        ``u v [w]`` lines), NumPy ``.npy`` or gsp dense ``.gspd``; any of them
        gzip-compressed (detected by content); ``"-"`` is standard input.
    format : {'auto', 'mtx', 'dimacs', 'edgelist', 'npy', 'dense'}
        'auto' picks by extension, then by content (``--input-format``).
    dtype : numpy dtype, optional
        bool, int32, int64, float32 or float64 (``--type``). Default: bool for
        pattern files, int64 when every weight is an integer, else float64.
        A weight the dtype cannot hold exactly is refused unless ``round``.
    duplicates : {'min', 'max', 'first', 'last', 'plus', 'error'}
        Parallel arcs (``--dup``); 'min' keeps the lightest.
    ids : {'zero', 'one', 'remap'}
        Edge lists: how vertex ids map to indices (``--one-based``, ``--remap``).
    symmetrize, drop_self_loops : bool
        Add the reverse of every arc; leave out arcs i -> i.
    n : int, optional
        Edge lists: the vertex count (an id beyond it is an error).
    round : bool
        Store a value the dtype cannot hold exactly as its nearest.
    absent : float, optional
        Dense inputs: the stored value that means "no arc" (``--absent``).
    return_ids : bool
        Also return the original vertex ids (int64 array; with ids='remap',
        entry k is the label of vertex k).

    Every stored entry is an arc, an explicit zero weight included (scipy's
    csgraph reads explicit zeros of a sparse matrix as zero-weight edges).
    Raises OSError when the file cannot be read, ValueError (naming the line)
    for malformed content, MemoryError.
    """
    import scipy.sparse as sp

    code = -1 if dtype is None else _pick(_TYPES, np.dtype(dtype), "dtype")
    t, nrows, ncols, p, j, x, vid = _files.read(
        os.fspath(path), _pick(_FORMATS, format, "format"), code, _pick(_DUPS, duplicates, "duplicates"),
        _pick(_IDS, ids, "ids"), bool(symmetrize), bool(drop_self_loops), 0 if n is None else int(n), bool(round),
        None if absent is None else float(absent), bool(return_ids))
    indptr = np.frombuffer(p, dtype=np.int64)
    indices = np.frombuffer(j, dtype=np.int64)
    data = np.frombuffer(x, dtype=_DTYPES[t])
    A = sp.csr_array((data, indices, indptr), shape=(nrows, ncols))
    if return_ids:
        return A, np.frombuffer(vid, dtype=np.int64)
    return A


def write_graph(path, graph, *, format="auto", comment=None):
    """Write a graph file, all or nothing, as ``gsp convert`` writes it.

    Parameters
    ----------
    path : str or os.PathLike
        The format follows the extension (``.mtx``, ``.gr``, ``.npy``,
        ``.gspd``, anything else an edge list; ``.gz`` compresses), unless
        ``format`` names it; ``"-"`` is standard output.
    graph : scipy.sparse matrix or array, or a 2-D numpy array
        Sparse: every stored entry is an arc. Dense: every value is stored
        (a dense file keeps it as it is; a sparse format writes every value).
        dtype bool, int32, int64, float32 or float64.
    format : {'auto', 'mtx', 'dimacs', 'edgelist', 'npy', 'dense'}
    comment : str, optional
        One comment line for the text formats.

    The file is written to a temporary beside it and renamed over ``path``:
    an error leaves an existing file unchanged and no partial file.
    """
    import scipy.sparse as sp

    fmt = _pick(_FORMATS, format, "format")
    if sp.issparse(graph):
        G = sp.csr_array(graph)
        G.sum_duplicates()  # sorted indices, one entry per (i, j)
        dt = np.dtype(G.dtype)
        code = _pick(_TYPES, dt, "dtype")
        indptr = np.ascontiguousarray(G.indptr, dtype=np.int64)
        indices = np.ascontiguousarray(G.indices, dtype=np.int64)
        values = np.ascontiguousarray(G.data)
    else:
        values = np.ascontiguousarray(graph)
        if values.ndim != 2:
            raise ValueError("write_graph: a 2-D array or a scipy.sparse matrix expected, got %d dimensions"
                             % values.ndim)
        code = _pick(_TYPES, values.dtype, "dtype")
        indptr = indices = None
    nrows, ncols = (int(s) for s in (graph.shape if sp.issparse(graph) else values.shape))
    _files.write(os.fspath(path), fmt, code, nrows, ncols, indptr, indices, values, comment)
