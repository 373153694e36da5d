"""Turning the inputs scipy.sparse.csgraph accepts into the extension's graph specs."""

from __future__ import annotations

import sys

import numpy as np

_TYPECODE = {np.dtype(np.float64): ord("d"), np.dtype(np.float32): ord("f"),
             np.dtype(np.int64): ord("q"), np.dtype(np.int32): ord("i"),
             np.dtype(np.bool_): ord("?")}


def _is_networkx(g) -> bool:
    return type(g).__module__.startswith("networkx.") and hasattr(g, "adj")


def _is_sparse(g) -> bool:
    # a scipy.sparse object exists only once scipy.sparse is imported: no
    # import here (a third of a second) for the dense and NetworkX inputs
    sp = sys.modules.get("scipy.sparse")
    return sp is not None and sp.issparse(g)


def _numeric(a):
    """a as a numeric ndarray, refusing what scipy refuses.

    Object and string arrays raise TypeError (scipy's ufuncs do), so None
    or '1' never become weights; complex values keep their real part with
    numpy's ComplexWarning, as scipy reads them.
    """
    a = np.asarray(a)
    if a.dtype.kind not in "biuf" and a.dtype.kind != "c":
        raise TypeError("graph weights must be numbers (bool, integer, real or complex), not %s" % a.dtype)
    if a.dtype.kind == "c":
        a = a.astype(np.float64)  # numpy's ComplexWarning says the imaginary part is dropped
    return a


def cast_exact(vals, dtype, round=False):
    """vals as dtype, refusing values the type cannot hold, by the C readers' rule.

    Integer targets: a real must be an integer (round=True: the nearest,
    half to even) and every value must lie in the type's range. Float
    targets: an integer must be stored exactly (2**24 + 1 is refused as
    float32) unless round; a real is stored as the nearest value but is
    refused when it overflows or underflows to a nonzero below the smallest
    normal number. Bool targets take every value as an arc (the structure).
    """
    dtype = np.dtype(dtype)
    vals = np.asarray(vals)
    if vals.dtype == dtype:
        return np.ascontiguousarray(vals)
    if dtype == np.bool_:
        return np.ones(vals.shape, dtype=np.bool_)
    if vals.dtype == np.bool_:
        return np.ascontiguousarray(vals, dtype=dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        if vals.dtype.kind == "f":
            if vals.size and not np.all(np.isfinite(vals)):
                raise ValueError("weight %r cannot be stored as %s" % (vals[~np.isfinite(vals)][0].item(), dtype))
            r = np.rint(vals) if round else vals
            bad = (r != np.trunc(r)) | (r < info.min) | (r > info.max)
            if bad.any():
                v = vals[bad][0].item()
                why = "out of the type's range" if np.trunc(r[bad][0]) == r[bad][0] else "not an integer; round=True " \
                    "stores the nearest"
                raise ValueError("weight %r cannot be stored as %s exactly (%s)" % (v, dtype, why))
            return np.ascontiguousarray(r, dtype=dtype)
        bad = (vals < info.min) | (vals > info.max)
        if bad.any():
            raise ValueError("weight %r is out of the range of %s" % (vals[bad][0].item(), dtype))
        return np.ascontiguousarray(vals, dtype=dtype)
    # float target (an overflow to inf is refused below)
    with np.errstate(over="ignore"):
        out = np.ascontiguousarray(vals, dtype=dtype)
    if vals.dtype.kind in "iu":
        if not round:
            with np.errstate(invalid="ignore"):
                big = np.abs(out.astype(np.float64)) >= 2.0 ** 63
                back = np.where(big, 0, out).astype(np.int64)
            bad = np.nonzero((big | (back != vals)).reshape(-1))[0]
            if bad.size:
                raise ValueError("weight %d cannot be stored as %s exactly; round=True stores the nearest" %
                                 (vals.reshape(-1)[bad[0]], dtype))
        return out
    fin = np.isfinite(vals)
    over = fin & ~np.isfinite(out)
    under = fin & (vals != 0) & (np.abs(out) < np.finfo(dtype).tiny)
    if over.any() or under.any():
        v = vals[over | under][0].item()
        raise ValueError("weight %r %s %s" % (v, "overflows" if over.any() else "underflows", dtype))
    return out


def _min_duplicates(n, rows, cols, vals, dtype, round=False):
    """CSR arrays of the (row, col, value) arcs, parallel arcs reduced to the lightest."""
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    vals = cast_exact(vals, dtype, round)
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


def nx_arcs(G, weight):
    """(nodes, rows, cols, weights) of a NetworkX graph, as NetworkX's weighted calls see it.

    weight: an attribute name (1 where missing; the lightest of parallel
    edges), None (all 1), or a callable weight(u, v, d) as NetworkX's
    shortest-path calls take it, d the edge's attribute dict (a multigraph's
    dict of keyed dicts); an arc whose weight is None is hidden. Undirected
    edges give both arcs, each weighed in its own direction.
    """
    nodes = list(G)
    index = {v: k for k, v in enumerate(nodes)}
    rows, cols, vals = [], [], []
    multi = G.is_multigraph()
    for u, nbrs in G.adj.items():
        iu = index[u]
        for v, d in nbrs.items():
            if weight is None:
                w = 1
            elif callable(weight):
                w = weight(u, v, d)
                if w is None:
                    continue
            elif multi:
                w = min(dd.get(weight, 1) for dd in d.values())
            else:
                w = d.get(weight, 1)
            rows.append(iu)
            cols.append(index[v])
            vals.append(w)
    return nodes, np.array(rows, dtype=np.int64), np.array(cols, dtype=np.int64), _numeric(vals) if vals else \
        np.zeros(0)


def _from_networkx(G, weight, dtype, round=False):
    nodes, rows, cols, vals = nx_arcs(G, weight)
    n = len(nodes)
    indptr, indices, data = _min_duplicates(n, rows, cols, vals, dtype, round)
    return ("csr", n, indptr, indices, data, _TYPECODE[np.dtype(dtype)]), nodes


def _absent(dtype):
    """The non-edge marker of a dense graph in dtype: +inf, False, or the
    integer type's largest value (min_plus's "no path": an arc of that
    weight is no arc)."""
    if dtype == np.bool_:
        return False
    return np.inf if dtype.kind == "f" else int(np.iinfo(dtype).max)


def graph_spec(csgraph, dtype=np.float64, unweighted=False, null_value=0.0, weight="weight", round=False,
               absent=None):
    """(spec, n) for the extension: scipy.sparse.csgraph's reading of csgraph.

    Sparse input: every stored entry is an arc, explicit zeros included;
    duplicates (of a COO input, or of a non-canonical CSR) are parallel
    arcs, of which the lightest counts. Dense input: entries equal to
    null_value (0 by default), NaN and +-inf are non-edges. Masked arrays:
    masked entries, NaN and +-inf are non-edges, every other entry is an
    edge (zeros included), as scipy reads them. NetworkX graphs: `weight` as
    in `nx_arcs`. Object and string arrays raise TypeError; values that the
    dtype cannot hold exactly raise ValueError unless round (`cast_exact`).
    A bool dtype reads the structure: every arc is True. absent: the
    marker of a dense graph's non-edges in dtype (the semiring's zero;
    default `_absent`).
    """
    dtype = np.dtype(dtype)
    if _is_networkx(csgraph):
        spec, _ = _from_networkx(csgraph, None if unweighted else weight, dtype, round)
        return spec, spec[1]
    if _is_sparse(csgraph):
        if csgraph.ndim != 2 or csgraph.shape[0] != csgraph.shape[1]:
            raise ValueError("compressed-sparse graph must be of shape (N, N)")
        n = csgraph.shape[0]
        if csgraph.format == "csr":
            A = csgraph
        elif csgraph.format == "coo":
            # tocsr() would sum duplicates; they are parallel arcs here as in CSR
            r, c = (np.asarray(x, dtype=np.int64) for x in csgraph.coords) if hasattr(csgraph, "coords") else \
                (np.asarray(csgraph.row, np.int64), np.asarray(csgraph.col, np.int64))
            vals = np.ones(r.size, dtype) if unweighted else _numeric(csgraph.data)
            indptr, indices, data = _min_duplicates(n, r, c, vals, dtype, round)
            return ("csr", n, indptr, indices, data, _TYPECODE[dtype]), n
        else:
            A = csgraph.tocsr()
        data = np.ones(A.nnz, dtype) if unweighted else _numeric(A.data)
        if not A.has_canonical_format:
            rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(A.indptr))
            indptr, indices, data = _min_duplicates(n, rows, A.indices, data, dtype, round)
        else:
            indptr, indices = A.indptr, A.indices
            data = cast_exact(data, dtype, round)
        return ("csr", n, np.ascontiguousarray(indptr), np.ascontiguousarray(indices), data,
                _TYPECODE[dtype]), n
    if np.ma.isMaskedArray(csgraph):
        M = csgraph
        if M.ndim != 2 or M.shape[0] != M.shape[1]:
            raise ValueError("graph should have two dimensions of equal size")
        n = M.shape[0]
        # scipy: masked entries are the non-edges; unmasked zeros are edges
        vals = _numeric(np.ma.getdata(M))
        present = ~np.ma.getmaskarray(M)
        if vals.dtype.kind == "f":
            present &= np.isfinite(vals)
        r, c = np.nonzero(present)
        vals = np.ones(r.size, dtype) if unweighted else vals[present]
        indptr, indices, data = _min_duplicates(n, r, c, vals, dtype, round)
        return ("csr", n, indptr, indices, data, _TYPECODE[dtype]), n
    D = _numeric(csgraph)
    if D.ndim != 2 or D.shape[0] != D.shape[1]:
        raise ValueError("graph should have two dimensions of equal size")
    # the extension reads every real, integer and bool type itself, in one
    # parallel pass (python/gspgraph/_dense.c); the few others are cast here
    if D.dtype.kind == "u" and D.dtype.itemsize == 8:
        if D.size and D.max() > np.iinfo(np.int64).max:
            raise ValueError("weight %d is out of the range of %s" % (D.max(), dtype))
        D = D.astype(np.int64)
    elif D.dtype.kind == "f" and D.dtype.itemsize not in (4, 8):
        D = D.astype(np.float64 if D.dtype.itemsize > 8 else np.float32)
    D = np.ascontiguousarray(D, dtype=D.dtype.newbyteorder("="))
    if absent is None:
        absent = _absent(dtype)
    return ("dense", D.shape[0], D, _TYPECODE[dtype], None if null_value is None else float(null_value), absent,
            bool(unweighted), bool(round)), D.shape[0]
