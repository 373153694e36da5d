"""Beyond scipy: semiring closures, transitive closure and row blocks of all-pairs results."""

from __future__ import annotations

import warnings

import numpy as np

from . import _core
from ._device import check_backend, closure_device
from ._csgraph import (_ALGO, _BACKEND_NAME, _backend, _dijkstra_negative, _dtype, _has_negative, _indices, _run_apsp,
                       dense_result, last_run, node_positions)
from ._graph import graph_spec, _is_networkx, _is_sparse

_SEMIRING = {"min_plus": 0, "max_plus": 1, "max_min": 2, "min_max": 3, "or_and": 4}


def _zero(semiring, dt):
    """The semiring's "no path" value in dtype dt."""
    if semiring == "or_and":
        return False
    low = semiring in ("max_plus", "max_min")
    if dt.kind == "f":
        return -np.inf if low else np.inf
    info = np.iinfo(dt)
    return int(info.min if low else info.max)


def closure(csgraph, semiring="min_plus", *, directed=True, reflexive=True, dtype=None, backend="auto",
            null_value=0.0, weight="weight", device=False, round=False):
    """
    Kleene closure of a graph on a path semiring, as a dense matrix.

    ``C[i, j]`` is the semiring's add-reduction, over all paths from i to j,
    of the multiply-product of the path's weights.

    Parameters
    ----------
    csgraph : array_like, sparse array or matrix, or networkx graph
        The N x N graph, read as `shortest_path` reads it.
    semiring : {'min_plus', 'max_plus', 'max_min', 'min_max', 'or_and'}
        'min_plus' shortest paths, 'max_plus' longest paths (a positive
        cycle is an error), 'max_min' widest (bottleneck) paths, 'min_max'
        minimax paths, 'or_and' reachability (boolean).
    directed : bool, optional
        If False, every edge goes both ways; where both directions exist,
        the semiring's add picks one (the lighter for min_plus and
        min_max, the heavier for max_plus and max_min).
    reflexive : bool, optional
        True (default): M* = I + M + M^2 + ..., the empty path included
        (diagonal = semiring one). False: M+ = M + M^2 + ..., paths of at
        least one edge.
    dtype : numpy dtype, optional
        float64 (default), float32, int64 or int32; bool for 'or_and'
        (the default there).
    backend : {'auto', 'cpu', 'cuda'}, optional
        Where to compute.
    device : bool, optional
        False (default): the result comes back as a numpy array. True:
        computed on the GPU and left there, as a `DeviceArray` that
        ``torch.from_dlpack`` / ``cupy.from_dlpack`` take without a copy
        (backend 'auto' or 'cuda'; a numeric semiring: 'or_and' results
        are bit-packed on the GPU, so use e.g. 'min_plus' with an integer
        dtype and read finite entries as reachable).

    Returns
    -------
    C : ndarray or DeviceArray, shape (N, N)
        The closure; pairs with no path hold the semiring's zero: +inf
        (min_plus, min_max), -inf (max_plus, max_min), the integer limits
        for integer dtypes (the largest value for min_plus and min_max,
        the smallest for max_plus and max_min), False for or_and.

    Raises
    ------
    NegativeCycleError
        min_plus with a negative cycle, max_plus with a positive one.
    GspError
        With ``device=True`` and no usable GPU (code -13, GSP_NO_DEVICE;
        the message says why).
    ValueError
        With ``device=True`` and 'or_and' or backend 'cpu'.
    """
    if semiring not in _SEMIRING:
        raise ValueError("semiring must be one of %s, not %r" % (", ".join(_SEMIRING), semiring))
    if device:
        check_backend(backend)
        if semiring == "or_and":
            raise ValueError("device=True: 'or_and' results are bit-packed on the GPU and cannot be handed out; "
                             "use semiring 'min_plus' (or 'max_min') with an integer dtype, where finite entries "
                             "are the reachable pairs, or device=False")
    if dtype is None:
        dtype = np.bool_ if semiring == "or_and" else np.float64
    dt = np.dtype(dtype)
    if (semiring == "or_and") != (dt == np.dtype(np.bool_)):
        raise ValueError("semiring 'or_and' works on bool, the others on int32/int64/float32/float64")
    if dt not in (np.dtype(t) for t in (np.bool_, np.int32, np.int64, np.float32, np.float64)):
        raise ValueError("unsupported dtype %s" % dt)
    zero = _zero(semiring, dt)
    spec, n = graph_spec(csgraph, dt, False, null_value, weight, round, zero)
    mode = 0 if directed else 2 if semiring in ("max_plus", "max_min") else 1
    if device:
        out = closure_device(spec, mode, _SEMIRING[semiring], reflexive, zero)
        ran = "cuda"
    else:
        buf, code = _core.closure(spec, mode, _SEMIRING[semiring], reflexive, _backend(backend), zero)
        out, ran = dense_result(buf, dt, n), _BACKEND_NAME[code]
    last_run.clear()
    last_run.update(method="closure", semiring=semiring, backend=ran)
    return out



def transitive_closure(G, reflexive=False, *, format="auto", backend="auto"):
    """
    Transitive closure of a directed graph, with NetworkX's semantics.

    Parameters
    ----------
    G : array_like, sparse array or matrix, or networkx graph
        The graph; every edge counts whatever its weight (dense input:
        nonzero finite entries are edges).
    reflexive : bool or None, optional
        As ``networkx.transitive_closure``: False (default) a pair (u, u)
        only where u lies on a cycle (a path of length >= 1); True every
        (u, u) (the reflexive transitive closure); None no (u, u) beyond
        the self-loops of G itself.
    format : {'auto', 'dense', 'sparse', 'networkx'}, optional
        'dense' a bool ndarray, 'sparse' a scipy.sparse.csr_array of bool,
        'networkx' as ``networkx.transitive_closure`` gives it: a copy of
        G (its class and attributes) with the closure's edges added (a
        DiGraph for a matrix input). 'auto': like the
        input (networkx in, networkx out; sparse in, sparse out; else dense).
    backend : {'auto', 'cpu', 'cuda'}, optional
        Where to compute.

    Returns
    -------
    TC : ndarray, csr_array or networkx graph
        TC[i, j] is True when there is a path from i to j as `reflexive`
        defines it.
    """
    if reflexive not in (True, False, None):
        raise ValueError("reflexive must be True, False or None")
    if format == "auto":
        format = "networkx" if _is_networkx(G) else "sparse" if _is_sparse(G) else "dense"
    if format not in ("dense", "sparse", "networkx"):
        raise ValueError("format must be 'auto', 'dense', 'sparse' or 'networkx'")
    spec, n = graph_spec(G, np.bool_, False, 0.0, None)
    # NetworkX keeps the graph's own self-loops and adds none with reflexive
    # None, and with False on an undirected graph (its edge search never
    # walks an edge back to where it started): M+ holds every self-loop
    # (a loop is a cycle), so the library removes the other (u, u)
    loops = None
    if reflexive is None or (reflexive is False and _is_networkx(G) and not G.is_directed()):
        loops = _self_loops(spec)
    args = (spec, 0, _SEMIRING["or_and"], bool(reflexive), _backend(backend), loops)
    if format == "dense":
        buf, code = _core.closure(*args[:5], False, loops)
        R = dense_result(buf, np.bool_, n)
    else:
        *arrays, code = _core.closure_csr(*args, np.empty)
        R = _csr_array(n, *arrays)
    last_run.clear()
    last_run.update(method="transitive_closure", semiring="or_and", backend=_BACKEND_NAME[code])
    return _closure_graph(G, R) if format == "networkx" else R


def _self_loops(spec):
    """Which vertices of a bool graph spec have an arc to themselves."""
    if spec[0] == "dense":
        d = np.diagonal(spec[2])  # a non-edge: NaN, +-inf or null_value
        edge = np.isfinite(d) if d.dtype.kind == "f" else np.ones(d.shape, bool)
        return edge & (d != spec[4]) if spec[4] is not None else edge
    n = spec[1]
    loops = np.zeros(n, dtype=bool)
    rows = np.repeat(np.arange(n), np.diff(spec[2]))
    loops[rows[np.asarray(spec[3]) == rows]] = True
    return loops


def _csr_array(n, indptr, indices, data):
    """A scipy csr_array adopting the library's arrays (indices already in
    scipy's index type; only indptr, n + 1 items, is narrowed to it)."""
    import scipy.sparse as sp
    out = sp.csr_array((data, indices, indptr.astype(indices.dtype, copy=False)), shape=(n, n), copy=False)
    out.has_sorted_indices = True
    return out


def _closure_graph(G, R):
    """networkx.transitive_closure's graph: a copy of G (its class, graph,
    node and edge attributes) with an edge (u, v) added wherever the CSR
    closure R has one and G has none; a DiGraph over 0..n-1 for a matrix
    input."""
    import networkx as nx
    n = R.shape[0]
    if _is_networkx(G):
        H, nodes = G.copy(), list(G)
    else:
        nodes = list(range(n))
        H = nx.DiGraph()
        H.add_nodes_from(nodes)
    r = np.repeat(np.arange(n), np.diff(R.indptr)).tolist()
    H.add_edges_from((nodes[i], nodes[j]) for i, j in zip(r, R.indices.tolist()) if not H.has_edge(nodes[i], nodes[j]))
    return H


def shortest_path_blocks(csgraph, block=4096, method="auto", directed=True, return_predecessors=False,
                         unweighted=False, indices=None, *, backend="auto", dtype=np.float64, null_value=0.0,
                         weight="weight", round=False):
    """
    All-pairs (or many-source) shortest paths, a block of result rows at a time.

    For results that do not fit in memory at once: each step computes the
    rows of `block` sources and yields them.

    Parameters
    ----------
    csgraph : array_like, sparse array or matrix, or networkx graph
        The N x N graph, read as `shortest_path` reads it.
    block : int, optional
        Sources per block (4096 by default).
    method : {'auto', 'D', 'J', 'BF'}, optional
        'auto' the library's pick (relaxation for non-negative weights,
        Johnson's algorithm otherwise; Floyd-Warshall computes every row at
        once and is not offered here); 'D' as `dijkstra` (scipy's search on
        negative weights), 'J' Johnson, 'BF' Bellman-Ford.
    directed, return_predecessors, unweighted, indices, backend, dtype, null_value, weight
        As for `shortest_path`.

    Yields
    ------
    rows : ndarray of int64
        The sources of this block (row k of D belongs to rows[k]).
    D : ndarray, shape (len(rows), N)
        Their distances.
    P : ndarray of int32, shape (len(rows), N)
        Their predecessors, only with return_predecessors=True.

    Examples
    --------
    >>> for rows, D in gsp.shortest_path_blocks(A, block=1024):  # doctest: +SKIP
    ...     np.save("D_%d.npy" % rows[0], D)
    """
    if method not in ("auto", "D", "J", "BF"):
        raise ValueError("method must be 'auto', 'D', 'J' or 'BF' for row blocks")
    if int(block) < 1:
        raise ValueError("block must be at least 1")
    dt = _dtype(dtype)
    spec, n = graph_spec(csgraph, dt, unweighted, null_value, weight, round)
    src, _ = _indices(node_positions(csgraph, indices), n)
    if src is None:
        src = np.arange(n, dtype=np.int64)
    # 'auto' is the library's pick; 'D' on negative weights is dijkstra's
    # (scipy's search), never a silent switch to Johnson
    negative_d = method == "D" and _has_negative(spec)
    if negative_d:
        warnings.warn("Graph has negative weights: dijkstra will give inaccurate results if the graph "
                      "contains negative cycles. Consider johnson or bellman_ford.", UserWarning, stacklevel=2)
    algo = _ALGO[method] if method != "BF" else None
    for k0 in range(0, src.size, int(block)):
        rows = np.ascontiguousarray(src[k0:k0 + int(block)])
        if negative_d:
            out = _dijkstra_negative(spec, directed, rows, (rows.size,), np.inf, False, return_predecessors, dt)
            D, P = out if return_predecessors else (out, None)
        elif method == "BF":
            D = np.empty((rows.size, n), dtype=dt)
            P = np.empty((rows.size, n), dtype=np.int32) if return_predecessors else None
            ran = _core.bellman_ford(spec, not directed, rows, _backend(backend), D, P)
            last_run.clear()
            last_run.update(method="BF", backend=_BACKEND_NAME[ran])
        else:
            D, P = _run_apsp(spec, directed, rows, algo, backend, None, dt, return_predecessors)
        yield (rows, D, P) if return_predecessors else (rows, D)
