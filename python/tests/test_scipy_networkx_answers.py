"""Answers that once came back wrong without an error, each against scipy or NetworkX."""

import time
import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph as cg

import gspgraph as gsp


def test_explicit_zero_arcs_count_in_transitive_closure_and_or_and():
    Z = sp.csr_array(([0.0], [1], [0, 1, 1]), shape=(2, 2))
    reach = np.isfinite(cg.shortest_path(Z))
    assert reach[0, 1]
    np.testing.assert_array_equal(gsp.transitive_closure(Z, reflexive=True, format="dense"), reach)
    np.testing.assert_array_equal(gsp.closure(Z, "or_and"), reach)
    # a dense graph read with null_value=None: its 0 entries are arcs
    np.testing.assert_array_equal(gsp.closure(np.zeros((2, 2)), "or_and", null_value=None), np.ones((2, 2), bool))


def test_callable_weight_on_a_networkx_graph():
    G = nx.DiGraph()
    G.add_edge("a", "b", w=1.0, ok=True)
    G.add_edge("b", "c", w=2.0, ok=True)
    G.add_edge("a", "c", w=10.0, ok=True)
    G.add_edge("c", "a", w=1.0, ok=False)

    def weight(u, v, d):
        return 3 * d["w"] if d["ok"] else None  # None hides the edge, as in NetworkX

    D = gsp.shortest_path(G, weight=weight)
    ref = dict(nx.all_pairs_dijkstra_path_length(G, weight=weight))
    nodes = list(G)
    for i, u in enumerate(nodes):
        for j, v in enumerate(nodes):
            assert D[i, j] == ref[u].get(v, np.inf)
    # undirected: each direction weighed by the callable in its own direction
    H = nx.Graph()
    H.add_edge(0, 1, w=2)
    H.add_edge(1, 2, w=5)

    def directional(u, v, d):
        return d["w"] if u < v else 10 * d["w"]

    D = gsp.shortest_path(H, weight=directional)
    ref = dict(nx.all_pairs_dijkstra_path_length(H, weight=directional))
    for u in H:
        for v in H:
            assert D[u, v] == ref[u][v]


@pytest.mark.parametrize("reflexive", [False, True, None])
def test_transitive_closure_of_an_undirected_networkx_graph(reflexive):
    G = nx.Graph(name="g")
    G.add_edge(0, 1, weight=3)
    G.add_edge(1, 2)
    G.add_edge(2, 0)
    G.add_edge(4, 4)
    G.add_node(3, color="red")
    T = gsp.transitive_closure(G, reflexive=reflexive)
    R = nx.transitive_closure(G, reflexive=reflexive)
    assert type(T) is type(R) is nx.Graph
    assert T.graph == R.graph
    assert dict(T.nodes(data=True)) == dict(R.nodes(data=True))
    assert {frozenset(e) for e in T.edges()} == {frozenset(e) for e in R.edges()}
    assert T.edges[0, 1] == R.edges[0, 1] == {"weight": 3}


def test_directed_transitive_closure_keeps_attributes_like_networkx():
    G = nx.DiGraph(name="d")
    G.add_edge(0, 1, weight=2)
    G.add_edge(1, 2)
    G.add_edge(2, 1)
    for reflexive in (False, True, None):
        T, R = gsp.transitive_closure(G, reflexive=reflexive), nx.transitive_closure(G, reflexive=reflexive)
        assert set(T.edges()) == set(R.edges()) and T.graph == R.graph and T.edges[0, 1] == R.edges[0, 1]


def _neg_graph():
    # 0 -> 1 (2), 1 -> 2 (-2), 0 -> 2 (5); a negative cycle 3 <-> 4 that 0..2 cannot reach
    A = np.zeros((5, 5))
    A[0, 1], A[1, 2], A[0, 2], A[3, 4], A[4, 3] = 2, -2, 5, -1, -1
    return A


@pytest.mark.parametrize("limit", [np.inf, 4.0, 1.5, 0.0])
def test_dijkstra_with_negative_weights_is_scipys(limit):
    A = _neg_graph()
    for kw in ({}, {"return_predecessors": True}):
        with pytest.warns(UserWarning, match="negative weights"):
            got = gsp.dijkstra(A, indices=[0, 1], limit=limit, **kw)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = cg.dijkstra(A, indices=[0, 1], limit=limit, **kw)
        for g, r in zip(got if kw else [got], ref if kw else [ref]):
            np.testing.assert_array_equal(g, r)
    with pytest.warns(UserWarning):
        got = gsp.dijkstra(A, indices=[0, 1], limit=limit, min_only=True, return_predecessors=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = cg.dijkstra(A, indices=[0, 1], limit=limit, min_only=True, return_predecessors=True)
    for g, r in zip(got, ref):
        np.testing.assert_array_equal(g, r)
    with pytest.warns(UserWarning):
        np.testing.assert_array_equal(gsp.shortest_path(A, method="D", indices=0),
                                      cg.bellman_ford(A, indices=0))


def test_dijkstra_on_a_reachable_negative_cycle_raises():
    # scipy's search never ends here; gsp names the cycle's presence
    A = _neg_graph()
    with pytest.warns(UserWarning), pytest.raises(gsp.NegativeCycleError):
        gsp.dijkstra(A, indices=3)


def _every_call(A, backend):
    """(call, expected last_run without the backend) for each kind of call."""
    return [
        (lambda: gsp.closure(A, "max_min", backend=backend), {"method": "closure", "semiring": "max_min"}),
        (lambda: gsp.transitive_closure(A, backend=backend), {"method": "transitive_closure", "semiring": "or_and"}),
        (lambda: gsp.transitive_closure(A, format="dense", backend=backend),
         {"method": "transitive_closure", "semiring": "or_and"}),
        (lambda: gsp.dijkstra(A, indices=[0, 1], min_only=True, backend=backend), {"method": "D"}),
        (lambda: gsp.bellman_ford(A, backend=backend), {"method": "BF"}),
        (lambda: gsp.floyd_warshall(A, backend=backend), {"method": "FW"}),
    ]


def test_last_run_reports_every_call():
    # each call says where the library ran it: never 'auto'; without a
    # usable GPU the CPU, and asked for the CPU the CPU
    A = sp.csr_array(np.array([[0, 1.0], [0, 0]]))
    for backend in ("auto", "cpu"):
        for call, want in _every_call(A, backend):
            gsp.last_run.clear()
            call()
            ran = gsp.last_run.pop("backend")
            assert gsp.last_run == want
            assert ran == "cpu" if backend == "cpu" or not gsp.cuda_available() else ran in ("cpu", "cuda")
    gsp.shortest_path(A)
    assert gsp.last_run["method"] in ("FW", "D", "J") and gsp.last_run["backend"] in ("cpu", "cuda")


def test_cuda_available_is_a_bool():
    assert type(gsp.cuda_available()) is bool
    assert isinstance(gsp.cuda_info(), str) and gsp.cuda_info()


def test_networkx_node_labels_as_indices():
    G = nx.les_miserables_graph()
    D = gsp.dijkstra(G, indices="Valjean")
    ref = nx.single_source_dijkstra_path_length(G, "Valjean")
    assert {v: D[k] for k, v in enumerate(G)} == pytest.approx(ref)
    D2 = gsp.shortest_path(G, indices=["Valjean", "Javert"])
    np.testing.assert_array_equal(D2[0], D)


def test_reconstruct_path_matches_scipy_and_refuses_a_non_arc():
    rng = np.random.default_rng(3)
    A = sp.random_array((200, 200), density=0.05, rng=rng, format="csr")
    for directed in (True, False):
        _, P = cg.dijkstra(A, directed=directed, indices=0, return_predecessors=True)
        T, R = gsp.reconstruct_path(A, P, directed), cg.reconstruct_path(A, P, directed)
        np.testing.assert_array_equal(T.toarray(), R.toarray())
        assert T.nnz == R.nnz
    G = np.array([[0, 1, 0], [0, 0, 1], [0, 0, 0]], float)
    bad = np.array([-9999, 0, 0])  # 0 -> 2 is no arc: scipy stores 0 (directed) or +inf (undirected)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isinf(cg.reconstruct_path(G, bad, directed=False).toarray()[0, 2])
    for directed in (True, False):
        with pytest.raises(ValueError, match="not an arc"):
            gsp.reconstruct_path(G, bad, directed)


def test_reconstruct_path_is_as_fast_as_scipys():
    rng = np.random.default_rng(4)
    n = 20000
    A = sp.random_array((n, n), density=4 / n, rng=rng, format="csr") + sp.eye_array(n, k=1, format="csr")
    _, P = cg.dijkstra(A, indices=0, return_predecessors=True)
    best = {}
    for name, f in (("gsp", gsp.reconstruct_path), ("scipy", cg.reconstruct_path)):
        best[name] = min(_timed(f, A, P) for _ in range(5))
    assert best["gsp"] <= 1.5 * best["scipy"] + 2e-3, best


def _timed(f, *args):
    t = time.perf_counter()
    f(*args)
    return time.perf_counter() - t


def test_narrowing_is_refused_unless_round():
    for v in (3e9, 2.0 ** 40, 2.5):
        W = np.array([[0, v], [0, 0]])
        with pytest.raises(ValueError, match="int32"):
            gsp.closure(W, dtype=np.int32)
    assert gsp.closure(np.array([[0, 2.5], [0, 0]]), dtype=np.int32, round=True)[0, 1] == 2
    with pytest.raises(ValueError):
        gsp.closure(np.array([[0, 3e9], [0, 0]]), dtype=np.int32, round=True)  # beyond the range stays an error
    with pytest.raises(ValueError, match="float32"):
        gsp.shortest_path(np.array([[0, 16777217], [0, 0]], dtype=np.int64), dtype=np.float32)
    assert gsp.shortest_path(np.array([[0, 16777217], [0, 0]]), dtype=np.float32, round=True)[0, 1] == 16777216
    with pytest.raises(ValueError, match="overflows"):
        gsp.shortest_path(np.array([[0, 1e40], [0, 0]]), dtype=np.float32)
    with pytest.raises(ValueError, match="int64"):
        gsp.closure(sp.csr_array(np.array([[0, 1e19], [0, 0]])), dtype=np.int64)
    # what fits is kept exactly
    np.testing.assert_array_equal(gsp.closure(np.array([[0, 2.0 ** 31 - 1], [0, 0]]), dtype=np.int32)[0, 1],
                                  2 ** 31 - 1)


@pytest.mark.parametrize("G", [np.array([[0, None], [1, 0]], dtype=object),
                               np.array([[0, "a"], [1, 0]], dtype=object),
                               np.array([[0, 2], [1, 0]], dtype=object), [[0, "1"], [1, 0]]])
def test_object_and_string_arrays_raise_typeerror_like_scipy(G):
    with pytest.raises(TypeError):
        cg.shortest_path(G)
    with pytest.raises(TypeError):
        gsp.shortest_path(G)
    with pytest.raises(TypeError):
        gsp.closure(G, "or_and")


def test_coo_and_csr_duplicates_are_parallel_arcs_alike():
    coo = sp.coo_array(([5.0, 3.0], ([0, 0], [1, 1])), shape=(2, 2))
    csr = sp.csr_array((np.array([5.0, 3.0]), np.array([1, 1]), np.array([0, 2, 2])), shape=(2, 2))
    M = nx.MultiDiGraph()
    M.add_weighted_edges_from([(0, 1, 5.0), (0, 1, 3.0)])
    assert cg.dijkstra(csr)[0, 1] == nx.dijkstra_path_length(M, 0, 1) == 3.0
    for X in (coo, sp.coo_matrix(coo), csr, sp.csr_matrix(csr), M):
        for method in ("FW", "D", "J", "BF"):
            assert gsp.shortest_path(X, method=method)[0, 1] == 3.0


def test_masked_complex_array_reads_the_real_part_like_scipy():
    # unmasked complex NaN / inf are non-edges, 1j (real part 0) an arc of weight 0
    A = np.array([[0, 1j, 3], [np.inf, 0, 1], [1, np.nan, 0]])
    for M in (np.ma.masked_array(A, mask=np.eye(3)), np.ma.masked_invalid(A), np.ma.masked_equal(A, 0)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = cg.shortest_path(M, method="D")
            got = gsp.shortest_path(M)
        assert ref[0, 1] == 0
        np.testing.assert_array_equal(got, ref)


def test_dense_float64_to_float32_refuses_underflow_and_overflow_in_c():
    W = np.array([[0, 1e-50], [2, 0]])
    with pytest.raises(ValueError, match="underflows float32"):
        gsp.floyd_warshall(W, dtype=np.float32)
    with pytest.raises(ValueError, match="overflows float32"):
        gsp.floyd_warshall(np.array([[0, -1e39], [2, 0]]), dtype=np.float32)
    # a non-edge never is: null_value, NaN, inf are read in float64 before the cast
    W = np.array([[0, 0.1, np.nan], [np.inf, 0, 3], [1e-50, 0.5, 0]])
    got = gsp.floyd_warshall(W, dtype=np.float32, null_value=1e-50)
    ref = cg.floyd_warshall(cg.csgraph_from_dense(W, null_value=1e-50)).astype(np.float32)
    np.testing.assert_allclose(got, ref, rtol=1e-6)


@pytest.mark.parametrize("n", [0, 1, 7, 300])
def test_sparse_transitive_closure_is_scipys_csr_of_the_dense_one(n):
    A = sp.random_array((n, n), density=min(1.0, 1.5 / max(n, 1)), rng=np.random.default_rng(n), format="csr")
    S = gsp.transitive_closure(A)
    R = sp.csr_array(gsp.transitive_closure(A, format="dense"))
    assert S.dtype == bool and S.has_canonical_format and S.indices.dtype == R.indices.dtype
    assert S.shape == (n, n) and (S != R).nnz == 0
    np.testing.assert_array_equal(S.indptr, R.indptr)


@pytest.mark.parametrize("reflexive", [True, False, None])
def test_sparse_transitive_closure_from_the_bits_has_the_dense_ones_diagonal(reflexive):
    # self-loops on some vertices, cycles through others: the diagonal of
    # each reflexive mode, built by the library from the closure's bits
    A = sp.random_array((200, 200), density=0.006, rng=np.random.default_rng(5), format="lil")
    for v in (3, 50, 199):
        A[v, v] = 1.0
    A = A.tocsr()
    S = gsp.transitive_closure(A, reflexive=reflexive, format="sparse")
    R = gsp.transitive_closure(A, reflexive=reflexive, format="dense")
    assert S.indices.dtype == np.int32 and S.has_canonical_format
    np.testing.assert_array_equal(S.toarray(), R)
    if reflexive is None:
        assert set(np.flatnonzero(R.diagonal())) == {3, 50, 199}
    G = nx.from_scipy_sparse_array(A, create_using=nx.DiGraph)
    ref = nx.transitive_closure(G, reflexive=reflexive)
    assert set(gsp.transitive_closure(G, reflexive=reflexive).edges) == set(ref.edges)


def test_shortest_path_blocks_method_d_on_negative_weights_is_dijkstras():
    A = _neg_graph()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = cg.dijkstra(A, indices=[0, 1, 2])
    with pytest.warns(UserWarning, match="negative weights"):
        blocks = list(gsp.shortest_path_blocks(A, block=2, method="D", indices=[0, 1, 2]))
    np.testing.assert_array_equal(np.vstack([D for _, D in blocks]), ref)
    with pytest.raises(gsp.NegativeCycleError):  # Johnson sees the cycle the sources cannot reach
        list(gsp.shortest_path_blocks(A, method="J", indices=[0]))


def test_negative_arcs_of_a_dense_graph_are_read_as_scipy_reads_them():
    W = np.array([[0, -1, 2], [-np.inf, 0, 1], [np.nan, -1, 0]], dtype=np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # null_value -1: no negative arc, no warning
        np.testing.assert_array_equal(gsp.dijkstra(W, null_value=-1),
                                      cg.dijkstra(cg.csgraph_from_dense(W, null_value=-1)))
    with pytest.warns(UserWarning, match="negative weights"):
        gsp.dijkstra(W, indices=0)


@pytest.mark.skipif(not gsp.cuda_available(), reason="needs a usable GPU: " + gsp.cuda_info())
def test_last_run_reports_the_gpu():
    A = sp.csr_array(np.array([[0, 1.0], [0, 0]]))
    for call, want in _every_call(A, "cuda"):
        gsp.last_run.clear()
        call()
        assert gsp.last_run == dict(want, backend="cuda")
