"""scipy.sparse.csgraph's shortest-path calls, computed by gsp."""

from __future__ import annotations

import warnings

import numpy as np

from . import _core
from ._device import check_backend, closure_device
from ._graph import graph_spec, _is_networkx, _is_sparse, _min_duplicates

NULL_PRED = -9999
_ALGO = {"auto": 0, "FW": 1, "D": 2, "J": 3, "S": 4}
_BACKEND = {"auto": 0, "cpu": 1, "cuda": 2}
_ALGO_NAME = {1: "FW", 2: "D", 3: "J", 4: "S"}
_BACKEND_NAME = {1: "cpu", 2: "cuda"}

#: What the last call ran: {"method": "FW"|"D"|"J"|"BF", "backend": "cpu"|"cuda"}, and for
#: all-pairs calls the library's phases in seconds ("prepare_s", "compute_s",
#: "device_s", "copy_s", "finish_s").
last_run: dict = {}


def _backend(backend):
    try:
        return _BACKEND[backend]
    except KeyError:
        raise ValueError("backend must be 'auto', 'cpu' or 'cuda', not %r" % (backend,)) from None


def _dtype(dtype):
    dt = np.dtype(dtype)
    if dt not in (np.dtype(np.float64), np.dtype(np.float32)):
        raise ValueError("dtype must be float64 or float32, not %s" % dt)
    return dt


def node_positions(G, indices):
    """NetworkX input: `indices` as node labels (a node, or a list of them)
    turned into positions in ``list(G)``; a value that is not a node of G is
    kept as a position."""
    if indices is None or not _is_networkx(G):
        return indices
    pos = {v: k for k, v in enumerate(G)}

    def one(x):
        try:
            return pos[x] if x in pos else x
        except TypeError:  # an unhashable value: not a label
            return x
    try:
        if indices in pos:
            return pos[indices]
    except TypeError:
        pass
    if isinstance(indices, (list, tuple)):
        return [one(x) for x in indices]
    return indices


def _indices(indices, n):
    """(int64 sources or None, result shape prefix) as scipy reads `indices`."""
    if indices is None:
        return None, (n,)
    idx = np.array(indices, dtype=np.int64, copy=True, order="C")
    shape = idx.shape
    idx = np.atleast_1d(idx).reshape(-1)
    idx[idx < 0] += n
    if np.any(idx < 0) or np.any(idx >= n):
        raise ValueError("indices out of range 0...N")
    return np.ascontiguousarray(idx), shape


def _has_negative(spec):
    if spec[0] == "csr":
        d = spec[4]
        return d.size > 0 and d.dtype.kind in "fi" and d.min() < 0
    return _core.has_negative(spec)


def dense_result(buf, dt, n):
    """The n x n array over the library's result buffer (no copy: numpy
    adopts the array the library computed in, as a C caller's
    gsp_matrix_unpack_dense hands it over)."""
    return np.frombuffer(buf, dtype=dt).reshape(n, n)


def _rows(ns, n, dtype):
    """np.empty((ns, n)) without numpy's transparent-huge-page advice: where
    the kernel compacts memory for huge pages on a fault (THP "madvise"), the
    first write of a 3.2 GB result took 15-20 s with the advice and 4-5 s
    without (a loaded 2-core VM)."""
    mod = getattr(np, "_core", None) or np.core
    advise = getattr(mod.multiarray, "_set_madvise_hugepage", None)
    if advise is None:
        return np.empty((ns, n), dtype=dtype)
    was = advise(False)
    try:
        return np.empty((ns, n), dtype=dtype)
    finally:
        advise(was)


def _run_apsp(spec, directed, src, algo, backend, cutoff, dtype, return_predecessors, row_block=0):
    n = spec[1]
    ns = n if src is None else src.size
    dist = _rows(ns, n, dtype)
    pred = _rows(ns, n, np.int32) if return_predecessors else None
    a, b, _, _, secs = _core.apsp(spec, not directed, src, algo, _backend(backend), cutoff, dist, pred, row_block)
    last_run.clear()
    last_run.update(method=_ALGO_NAME.get(a, "auto"), backend=_BACKEND_NAME.get(b, "cpu"))
    # the library's phases (seconds): gsp_apsp_report's
    last_run.update(zip(("prepare_s", "compute_s", "device_s", "copy_s", "finish_s"), secs))
    return dist, pred


def _shape(dist, pred, shape, return_predecessors):
    dist = dist.reshape(shape + dist.shape[1:])
    if return_predecessors:
        return dist, pred.reshape(dist.shape)
    return dist


def shortest_path(csgraph, method="auto", directed=True, return_predecessors=False, unweighted=False,
                  overwrite=False, indices=None, *, backend="auto", dtype=np.float64, null_value=0.0,
                  weight="weight", device=False, round=False):
    """
    Perform a shortest-path graph search on a directed or undirected graph.

    The same call as ``scipy.sparse.csgraph.shortest_path``, computed by gsp
    (on the GPU when one is usable and the cost model takes it).

    Parameters
    ----------
    csgraph : array_like, sparse array or matrix, or networkx graph
        The N x N array of distances representing the input graph. Dense
        input: entries equal to `null_value` (0), NaN and infinities are
        non-edges. Sparse input: every stored entry is an edge, explicit
        zeros included. Masked arrays: masked entries are non-edges, the others
        as dense input.
        NetworkX graphs: edge attribute `weight`, vertices in ``list(G)``
        order.
    method : {'auto', 'FW', 'D', 'J', 'S', 'BF'}, optional
        'auto' (default) lets gsp's cost model choose among Floyd-Warshall,
        multi-source relaxation, Johnson and the sparse star. 'FW'
        Floyd-Warshall (blocked closure, ``O[N^3]``); 'D' Dijkstra-like
        multi-source relaxation (with negative weights a warning is given
        and the search is scipy's, as `dijkstra` describes); 'J' Johnson's
        algorithm; 'S' the sparse star (elimination in a nested-dissection
        order, then triangular solves: road networks, meshes, grids; see
        `StarFactor`); 'BF' Bellman-Ford, once per source.
    directed : bool, optional
        If True (default), find the shortest path on a directed graph: only
        move from point i to point j along paths csgraph[i, j]. If False,
        find the shortest path on an undirected graph: the algorithm can
        progress from i to j along csgraph[i, j] or csgraph[j, i] (the
        lighter where both exist).
    return_predecessors : bool, optional
        If True, return the size (N, N) predecessor matrix.
    unweighted : bool, optional
        If True, find unweighted distances: every edge has weight 1.
    overwrite : bool, optional
        Accepted for scipy compatibility; the input is never modified.
    indices : array_like or int, optional
        If specified, only compute the paths from the points at the given
        indices (node labels for a NetworkX graph). Incompatible with
        method == 'FW'.
    backend : {'auto', 'cpu', 'cuda'}, optional
        Where to compute. 'cuda' raises ``GspError`` without a usable GPU.
    dtype : {numpy.float64, numpy.float32}, optional
        Type of the computation and of the distances (float32 halves the
        memory; integer weights are exact below 2**24).
    null_value : float or None, optional
        Dense input only: the value of a non-edge (NaN and infinities are
        non-edges always). None: every finite entry is an edge.
    weight : str or None, optional
        NetworkX input only: the edge attribute holding the weight (1 where
        it is missing; None: all weights 1).
    device : bool, optional
        False (default): numpy results. True: all-pairs distances computed
        on the GPU by Floyd-Warshall (method 'FW', or 'auto', which then
        means 'FW') and left there, as a `DeviceArray` that
        ``torch.from_dlpack`` / ``cupy.from_dlpack`` take without a copy
        (``np.inf`` where there is no path). Only the dense closure stays
        on the GPU: 'D', 'J' and 'BF', `indices` and
        `return_predecessors` give ``ValueError``; backend must be 'auto'
        or 'cuda'.

    Returns
    -------
    dist_matrix : ndarray or DeviceArray
        The N x N matrix of distances between graph nodes. dist_matrix[i,j]
        gives the shortest distance from point i to point j along the
        graph; ``np.inf`` where there is no path.
    predecessors : ndarray, int32
        Returned only if return_predecessors == True. The N x N matrix of
        predecessors, which can be used to reconstruct the shortest paths.
        Row i of the predecessor matrix contains information on the
        shortest paths from point i: each entry predecessors[i, j] gives
        the index of the previous node in the path from point i to point j.
        If no path exists between point i and j (or i == j), then
        predecessors[i, j] = -9999.

    Raises
    ------
    NegativeCycleError
        If there are negative cycles in the graph (it names one).
    GspError
        If the library reports another failure (its message says what);
        with ``device=True`` and no usable GPU, code -13 (GSP_NO_DEVICE).
    ValueError
        With ``device=True`` and a method, `indices` or
        `return_predecessors` whose result cannot stay on the GPU.

    Notes
    -----
    A long call releases the GIL. Ctrl-C stops it between row blocks of the
    result (Floyd-Warshall's closure itself runs to its end first).

    Examples
    --------
    >>> import numpy as np, gspgraph as gsp
    >>> G = np.array([[0, 1, 2, 0], [0, 0, 0, 1], [2, 0, 0, 3], [0, 0, 0, 0]])
    >>> gsp.shortest_path(G, directed=False, indices=0)
    array([0., 1., 2., 2.])
    """
    if method not in ("auto", "FW", "D", "J", "S", "BF"):
        raise ValueError("unrecognized method '%s'" % (method,))
    dt = _dtype(dtype)
    if device:
        _check_device(method, indices, return_predecessors, backend)
    spec, n = graph_spec(csgraph, dt, unweighted, null_value, weight, round)
    if device:
        # the reflexive min_plus closure is Floyd-Warshall's distance matrix
        D = closure_device(spec, 0 if directed else 1, 0, True, np.inf)
        last_run.clear()
        last_run.update(method="FW", backend="cuda")
        return D
    if method == "FW" and indices is not None:
        raise ValueError("Cannot specify indices with method == 'FW'.")
    if method == "FW" and not return_predecessors:
        # Floyd-Warshall's distances are the reflexive min_plus closure (what
        # gsp_apsp's FW route computes), handed over in the array the library
        # computed them in, as gsp_matrix_unpack_dense hands a C caller
        buf, code = _core.closure(spec, 0 if directed else 1, 0, True, _backend(backend), np.inf)
        D = dense_result(buf, dt, n)
        last_run.clear()
        last_run.update(method="FW", backend=_BACKEND_NAME[code])
        return D
    src, shape = _indices(node_positions(csgraph, indices), n)
    if method == "BF":
        return _bellman_ford(spec, directed, src, shape, return_predecessors, backend, dt)
    algo = _ALGO[method]
    if method == "D" and _has_negative(spec):
        warnings.warn("Graph has negative weights: dijkstra will give inaccurate results if the graph "
                      "contains negative cycles. Consider johnson or bellman_ford.", UserWarning, stacklevel=2)
        return _dijkstra_negative(spec, directed, src, shape, np.inf, False, return_predecessors, dt)
    dist, pred = _run_apsp(spec, directed, src, algo, backend, None, dt, return_predecessors)
    return _shape(dist, pred, shape, return_predecessors)


def _check_device(method, indices, return_predecessors, backend):
    """device=True keeps Floyd-Warshall's dense distance matrix on the GPU, nothing else."""
    if method not in ("auto", "FW"):
        raise ValueError("device=True keeps only Floyd-Warshall's dense result on the GPU: use method 'FW' or "
                         "'auto' (method %r returns its rows to the host; use device=False)" % (method,))
    if indices is not None:
        raise ValueError("device=True computes all pairs (Floyd-Warshall): indices must be None")
    if return_predecessors:
        raise ValueError("device=True returns distances only: use return_predecessors=False, or device=False "
                         "for predecessors")
    check_backend(backend)


def floyd_warshall(csgraph, directed=True, return_predecessors=False, unweighted=False, overwrite=False, *,
                   backend="auto", dtype=np.float64, null_value=0.0, weight="weight", device=False, round=False):
    """
    Compute the shortest path lengths using the Floyd-Warshall algorithm.

    As ``scipy.sparse.csgraph.floyd_warshall``; gsp runs a blocked
    Floyd-Warshall closure (on the GPU when one is usable).

    Parameters
    ----------
    csgraph : array_like, sparse array or matrix, or networkx graph
        The N x N array of distances representing the input graph.
    directed : bool, optional
        If True (default), find the shortest path on a directed graph.
        If False, on an undirected graph.
    return_predecessors : bool, optional
        If True, return the size (N, N) predecessor matrix.
    unweighted : bool, optional
        If True, every edge has weight 1.
    overwrite : bool, optional
        Accepted for scipy compatibility; the input is never modified.
    backend, dtype, null_value, weight, device
        As for `shortest_path`.

    Returns
    -------
    dist_matrix : ndarray or DeviceArray
        The N x N matrix of distances (``np.inf`` where there is no path);
        a `DeviceArray` on the GPU with ``device=True``.
    predecessors : ndarray, int32
        Returned only if return_predecessors == True; -9999 where there is
        no path or i == j.

    Raises
    ------
    NegativeCycleError
        If there are negative cycles in the graph.
    """
    return shortest_path(csgraph, "FW", directed, return_predecessors, unweighted, overwrite, backend=backend,
                         dtype=dtype, null_value=null_value, weight=weight, device=device, round=round)


def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, limit=np.inf,
             min_only=False, *, backend="auto", dtype=np.float64, null_value=0.0, weight="weight", round=False):
    """
    Dijkstra algorithm: shortest paths from sources on a graph with non-negative weights.

    As ``scipy.sparse.csgraph.dijkstra``; gsp relaxes many sources at once.

    Parameters
    ----------
    csgraph : array_like, sparse array or matrix, or networkx graph
        The N x N array of non-negative distances representing the input
        graph.
    directed : bool, optional
        If True (default), find the shortest path on a directed graph.
        If False, on an undirected graph.
    indices : array_like or int, optional
        If specified, only compute the paths from the points at the given
        indices.
    return_predecessors : bool, optional
        If True, return the size (N, N) predecessor matrix.
    unweighted : bool, optional
        If True, every edge has weight 1.
    limit : float, optional
        The maximum distance to calculate, must be >= 0. Pairs farther apart
        than `limit` get ``np.inf`` (not connected).
    min_only : bool, optional
        If False (default), for every node in the graph, find the shortest
        path from every node in indices. If True, for every node in the
        graph, find the shortest path from any of the nodes in indices
        (much faster).
    backend, dtype, null_value, weight
        As for `shortest_path`.

    Returns
    -------
    dist_matrix : ndarray, shape ([n_indices, ]n_nodes,)
        The matrix of distances between graph nodes. If min_only=False,
        dist_matrix has shape (n_indices, n_nodes) and dist_matrix[i, j]
        gives the shortest distance from point i to point j along the
        graph. If min_only=True, dist_matrix has shape (n_nodes,) and
        contains for a given node the shortest path to that node from any
        of the nodes in indices.
    predecessors : ndarray, int32, shape ([n_indices, ]n_nodes,)
        If min_only=False, this has shape (n_indices, n_nodes), otherwise
        it has shape (n_nodes,). Returned only if return_predecessors ==
        True; -9999 where there is no path (and at the source).
    sources : ndarray, int32, shape (n_nodes,)
        Returned only if min_only=True and return_predecessors=True. The
        source that the shortest path to each node comes from; -9999 for
        unreachable nodes.

    Notes
    -----
    With negative weights a warning is given, as scipy gives it, and the
    search is scipy's: a vertex is searched again whenever its distance
    drops, and `limit` prunes every tentative distance (a vertex reached
    only through one farther than `limit` stays at ``np.inf``), on the
    CPU. Where scipy's search would never end (a negative cycle reachable
    from the sources within `limit`), gsp raises NegativeCycleError.
    """
    dt = _dtype(dtype)
    if limit < 0:
        raise ValueError("limit must be >= 0")
    spec, n = graph_spec(csgraph, dt, unweighted, null_value, weight, round)
    src, shape = _indices(node_positions(csgraph, indices), n)
    cutoff = None if np.isinf(limit) else float(limit)
    negative = _has_negative(spec)
    if negative:
        warnings.warn("Graph has negative weights: dijkstra will give inaccurate results if the graph "
                      "contains negative cycles. Consider johnson or bellman_ford.", UserWarning, stacklevel=2)
        return _dijkstra_negative(spec, directed, src, shape, limit, min_only, return_predecessors, dt)
    if min_only:
        if src is None:
            src = np.arange(n, dtype=np.int64)
        dist = np.empty(n, dtype=dt)
        pred = np.empty(n, dtype=np.int32) if return_predecessors else None
        origin = np.empty(n, dtype=np.int32) if return_predecessors else None
        ran = 1  # nothing to search: the host's answer
        if n and src.size:
            ran = _core.nearest(spec, not directed, src, _backend(backend), cutoff, dist, pred, origin)
        else:
            dist[:] = np.inf
            if return_predecessors:
                pred[:] = NULL_PRED
                origin[:] = NULL_PRED
        last_run.clear()
        last_run.update(method="D", backend=_BACKEND_NAME[ran])
        return (dist, pred, origin) if return_predecessors else dist
    dist, pred = _run_apsp(spec, directed, src, _ALGO["D"], backend, cutoff, dt, return_predecessors)
    return _shape(dist, pred, shape, return_predecessors)


def _csr64(spec, directed):
    """int64/int64/float64 CSR arrays of the graph (both directions, the lighter, when undirected)."""
    n = spec[1]
    if spec[0] == "csr" and directed:  # graph_spec's CSR is canonical already
        return (np.asarray(spec[2], np.int64), np.asarray(spec[3], np.int64),
                np.asarray(spec[4], np.float64))
    if spec[0] == "csr":
        r = np.repeat(np.arange(n, dtype=np.int64), np.diff(spec[2]))
        c, w = np.asarray(spec[3], np.int64), np.asarray(spec[4], np.float64)
    else:
        D = spec[2]
        edge = np.isfinite(D) & ((D != spec[4]) if spec[4] is not None else True)
        r, c = np.nonzero(edge)
        w = D[edge].astype(np.float64)
    if not directed:
        r, c, w = np.concatenate([r, c]), np.concatenate([c, r]), np.concatenate([w, w])
    return _min_duplicates(n, r, c, w, np.float64)


def _dijkstra_negative(spec, directed, src, shape, limit, min_only, return_predecessors, dt):
    """scipy's dijkstra on negative weights: a vertex is searched again when its
    distance drops, `limit` prunes tentative distances; where scipy's search
    never ends (a negative cycle reachable within the limit), NegativeCycleError."""
    n = spec[1]
    indptr, indices, data = _csr64(spec, directed)
    if src is None:
        src = np.arange(n, dtype=np.int64)
    rows = 1 if min_only else src.size
    dist = np.empty((rows, n), dtype=np.float64)
    pred = np.empty((rows, n), dtype=np.int32) if return_predecessors else None
    origin = np.empty(n, dtype=np.int32) if return_predecessors and min_only else None
    if n:
        _core.dijkstra_limited(indptr, indices, data, src, float(limit), bool(min_only), dist, pred, origin)
    last_run.clear()
    last_run.update(method="D", backend="cpu")
    dist = dist.astype(dt, copy=False)
    if min_only:
        return (dist[0], pred[0], origin) if return_predecessors else dist[0]
    return _shape(dist, pred, shape, return_predecessors)


def _bellman_ford(spec, directed, src, shape, return_predecessors, backend, dt):
    n = spec[1]
    ns = n if src is None else src.size
    dist = np.empty((ns, n), dtype=dt)
    pred = np.empty((ns, n), dtype=np.int32) if return_predecessors else None
    ran = _core.bellman_ford(spec, not directed, src, _backend(backend), dist, pred)
    last_run.clear()
    last_run.update(method="BF", backend=_BACKEND_NAME[ran])
    return _shape(dist, pred, shape, return_predecessors)


def bellman_ford(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, *,
                 backend="auto", dtype=np.float64, null_value=0.0, weight="weight", round=False):
    """
    Compute the shortest path lengths using the Bellman-Ford algorithm.

    As ``scipy.sparse.csgraph.bellman_ford``: one Bellman-Ford run per
    source; a negative cycle that no source reaches does not matter.

    Parameters
    ----------
    csgraph : array_like, sparse array or matrix, or networkx graph
        The N x N array of distances representing the input graph
        (negative weights allowed).
    directed : bool, optional
        If True (default), find the shortest path on a directed graph.
        If False, on an undirected graph (a negative edge is then a
        negative cycle).
    indices : array_like or int, optional
        If specified, only compute the paths from the points at the given
        indices.
    return_predecessors : bool, optional
        If True, return the size (N, N) predecessor matrix.
    unweighted : bool, optional
        If True, every edge has weight 1.
    backend, dtype, null_value, weight
        As for `shortest_path`.

    Returns
    -------
    dist_matrix : ndarray
        The N x N matrix of distances (``np.inf`` where there is no path).
    predecessors : ndarray, int32
        Returned only if return_predecessors == True; -9999 where there is
        no path or i == j.

    Raises
    ------
    NegativeCycleError
        If a source reaches a negative cycle.
    """
    dt = _dtype(dtype)
    spec, n = graph_spec(csgraph, dt, unweighted, null_value, weight, round)
    src, shape = _indices(node_positions(csgraph, indices), n)
    return _bellman_ford(spec, directed, src, shape, return_predecessors, backend, dt)


def johnson(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False, *,
            backend="auto", dtype=np.float64, null_value=0.0, weight="weight", round=False):
    """
    Compute the shortest path lengths using Johnson's algorithm.

    As ``scipy.sparse.csgraph.johnson``: Bellman-Ford potentials, then
    relaxation on the reweighted graph (many sources at once).

    Parameters
    ----------
    csgraph : array_like, sparse array or matrix, or networkx graph
        The N x N array of distances representing the input graph
        (negative weights allowed).
    directed : bool, optional
        If True (default), find the shortest path on a directed graph.
        If False, on an undirected graph.
    indices : array_like or int, optional
        If specified, only compute the paths from the points at the given
        indices.
    return_predecessors : bool, optional
        If True, return the size (N, N) predecessor matrix.
    unweighted : bool, optional
        If True, every edge has weight 1.
    backend, dtype, null_value, weight
        As for `shortest_path`.

    Returns
    -------
    dist_matrix : ndarray
        The N x N matrix of distances (``np.inf`` where there is no path).
    predecessors : ndarray, int32
        Returned only if return_predecessors == True; -9999 where there is
        no path or i == j.

    Raises
    ------
    NegativeCycleError
        If there is a negative cycle anywhere in the graph.
    """
    return shortest_path(csgraph, "J", directed, return_predecessors, unweighted, indices=indices,
                         backend=backend, dtype=dtype, null_value=null_value, weight=weight, round=round)


def reconstruct_path(csgraph, predecessors, directed=True, *, null_value=0.0, weight="weight"):
    """
    Construct a tree from a graph and a predecessor list.

    As ``scipy.sparse.csgraph.reconstruct_path`` (needs scipy).

    Parameters
    ----------
    csgraph : array_like, sparse array or matrix, or networkx graph
        The N x N matrix representing the directed or undirected graph from
        which the predecessors are drawn.
    predecessors : array_like, one dimension
        The length-N array of indices of predecessors for the tree. The
        index of the parent of node i is given by predecessors[i]; -9999
        where there is none.
    directed : bool, optional
        If True (default), then operate on a directed graph: only move from
        point i to point j along paths csgraph[i, j]. If False, the lighter
        of csgraph[i, j] and csgraph[j, i].

    Raises
    ------
    ValueError
        Where a predecessor is not an arc of the graph (scipy stores a
        weight of 0 or +inf there; gsp refuses rather than make up an
        arc).

    Returns
    -------
    cstree : csr matrix or csr array
        The N x N directed compressed-sparse representation of the tree
        drawn from csgraph which is encoded by the predecessor list (a
        csr_matrix for a sparse-matrix input, else a csr_array).
    """
    import scipy.sparse as sp
    spec, n = graph_spec(csgraph, np.float64, False, null_value, weight)
    pred = np.asarray(predecessors)
    if pred.shape != (n,):
        raise ValueError("predecessors must be a length-N array")
    if pred.dtype.kind not in "iu" or (pred.size and (pred.min() < NULL_PRED or pred.max() >= n)):
        raise ValueError("predecessors must be integers: vertices 0..N-1, or -9999 for none")
    pred = np.ascontiguousarray(pred, dtype=np.int32)
    indptr, indices, data = _csr64(spec, True)
    m = n - int(np.count_nonzero(pred == NULL_PRED))
    t_indptr, t_indices, t_data = np.empty(n + 1, np.int64), np.empty(m, np.int64), np.empty(m, np.float64)
    bad = _core.tree_csr(indptr, indices, data, pred, directed, t_indptr, t_indices, t_data)
    if bad >= 0:
        p = int(pred[bad])
        if not 0 <= p < n:
            raise ValueError("predecessors hold %d, not a vertex (0..N-1) nor -9999" % p)
        raise ValueError("predecessors[%d] = %d, but %d -> %d is not an arc of the graph" % (bad, p, p, bad))
    out = sp.csr_array((t_data, t_indices, t_indptr), shape=(n, n))
    return sp.csr_matrix(out) if _is_sparse(csgraph) and type(csgraph).__name__.endswith("_matrix") else out
