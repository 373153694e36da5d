"""Turning the inputs scipy.sparse.csgraph accepts into the extension's graph specs."""

from __future__ import annotations

import numpy as np

_TYPECODE = {np.dtype(np.float64): ord("d"), np.dtype(np.float32): ord("f"),
             np.dtype(np.int64): ord("q"), np.dtype(np.int32): ord("i"),
             np.dtype(np.bool_): ord("?")}


def _is_networkx(g) -> bool:
    return type(g).__module__.startswith("networkx.") and hasattr(g, "adj")


def _is_sparse(g) -> bool:
    try:
        import scipy.sparse as sp
    except ImportError:  # pragma: no cover - scipy is optional
        return False
    return sp.issparse(g)


def _min_duplicates(n, rows, cols, vals, dtype):
    """CSR arrays of the (row, col, value) arcs, parallel arcs reduced to the lightest."""
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    vals = np.asarray(vals, dtype=dtype)
    key = rows * max(n, 1) + cols
    order = np.lexsort((vals, key))
    key, vals = key[order], vals[order]
    first = np.ones(key.shape, dtype=bool)
    first[1:] = key[1:] != key[:-1]
    key, vals = key[first], vals[first]
    r = key // max(n, 1)
    c = key - r * max(n, 1)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(r, minlength=n), out=indptr[1:])
    return indptr, c, np.ascontiguousarray(vals)


def _from_networkx(G, weight, dtype):
    nodes = list(G)
    index = {v: k for k, v in enumerate(nodes)}
    n = len(nodes)
    e = list(G.edges(data=weight, default=1)) if weight is not None else [(u, v, 1) for u, v in G.edges()]
    rows = np.fromiter((index[u] for u, _, _ in e), dtype=np.int64, count=len(e))
    cols = np.fromiter((index[v] for _, v, _ in e), dtype=np.int64, count=len(e))
    vals = np.fromiter((w for _, _, w in e), dtype=np.float64, count=len(e))
    if not G.is_directed():
        rows, cols = np.concatenate([rows, cols]), np.concatenate([cols, rows])
        vals = np.concatenate([vals, vals])
    indptr, indices, data = _min_duplicates(n, rows, cols, vals, dtype)
    return ("csr", n, indptr, indices, data, _TYPECODE[np.dtype(dtype)]), nodes


def graph_spec(csgraph, dtype=np.float64, unweighted=False, null_value=0.0, weight="weight"):
    """(spec, n) for the extension: scipy.sparse.csgraph's reading of csgraph.

    Sparse input: every stored entry is an arc, explicit zeros included
    (duplicates of a non-canonical CSR are parallel arcs: the lightest
    counts). Dense input: entries equal to null_value (0 by default), NaN
    and +-inf are non-edges. Masked arrays: masked entries are non-edges, and the
    others as in dense input. NetworkX graphs: the `weight` attribute (1 where missing; all 1 when
    weight is None), parallel edges reduced to the lightest.
    """
    dtype = np.dtype(dtype)
    if _is_networkx(csgraph):
        spec, _ = _from_networkx(csgraph, None if unweighted else weight, dtype)
        return spec, spec[1]
    if _is_sparse(csgraph):
        A = csgraph.tocsr()
        if A.ndim != 2 or A.shape[0] != A.shape[1]:
            raise ValueError("compressed-sparse graph must be of shape (N, N)")
        n = A.shape[0]
        data = np.ones(A.nnz, dtype) if unweighted else A.data
        if not A.has_canonical_format:
            rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(A.indptr))
            indptr, indices, data = _min_duplicates(n, rows, A.indices, data, dtype)
        else:
            indptr, indices = A.indptr, A.indices
            data = np.ascontiguousarray(data, dtype=dtype)
        return ("csr", n, np.ascontiguousarray(indptr), np.ascontiguousarray(indices), data,
                _TYPECODE[dtype]), n
    if np.ma.isMaskedArray(csgraph):
        M = np.ma.asarray(csgraph)
        if M.ndim != 2 or M.shape[0] != M.shape[1]:
            raise ValueError("graph should have two dimensions of equal size")
        n = M.shape[0]
        # scipy reads a masked array as a dense one whose masked entries
        # are non-edges too
        vals = np.asarray(M.data)
        present = ~np.ma.getmaskarray(M)
        if vals.dtype.kind == "f":
            present &= np.isfinite(vals)
        if null_value is not None:
            present &= vals != null_value
        r, c = np.nonzero(present)
        vals = np.ones(r.size, dtype) if unweighted else np.asarray(M.data)[present]
        indptr, indices, data = _min_duplicates(n, r, c, vals, dtype)
        return ("csr", n, indptr, indices, data, _TYPECODE[dtype]), n
    D = np.asarray(csgraph)
    if D.ndim != 2 or D.shape[0] != D.shape[1]:
        raise ValueError("graph should have two dimensions of equal size")
    n = D.shape[0]
    if dtype.kind != "f" or unweighted:
        edge = ~(np.isnan(D) | np.isinf(D)) if D.dtype.kind == "f" else np.ones(D.shape, bool)
        if null_value is not None:
            edge &= D != null_value
        r, c = np.nonzero(edge)
        vals = np.ones(r.size, dtype) if unweighted else D[edge]
        indptr, indices, data = _min_duplicates(n, r, c, vals, dtype)
        return ("csr", n, indptr, indices, data, _TYPECODE[dtype]), n
    D = np.ascontiguousarray(D, dtype=dtype)
    return ("dense", n, D, _TYPECODE[dtype], None if null_value is None else float(null_value)), n
