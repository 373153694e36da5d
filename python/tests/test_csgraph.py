"""gsp's scipy.sparse.csgraph calls against scipy.sparse.csgraph itself."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph as cg

import gspgraph as gsp
from conftest import random_graph

METHODS = ["auto", "FW", "D", "J", "BF"]


def check_predecessors(G, dist, pred, sources, directed=True):
    """Every path read from the predecessors costs its distance."""
    W = G.toarray() if sp.issparse(G) else np.asarray(G, float)
    if sp.issparse(G):
        W = np.where(_pattern(G), W, np.inf)
    else:
        W = np.where((W == 0) | ~np.isfinite(W), np.inf, W)
    if not directed:
        W = np.minimum(W, W.T)
    for k, s in enumerate(sources):
        for v in range(dist.shape[1]):
            if v == s or not np.isfinite(dist[k, v]):
                assert pred[k, v] == -9999
                continue
            cost, u, hops = 0.0, v, 0
            while u != s:
                p = pred[k, u]
                assert p >= 0
                cost += W[p, u]
                u, hops = p, hops + 1
                assert hops <= dist.shape[1]
            assert np.isclose(cost, dist[k, v], rtol=1e-9, atol=1e-9)


def _pattern(G):
    P = np.zeros(G.shape, bool)
    C = sp.coo_array(G)
    P[C.row, C.col] = True
    return P


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("directed", [True, False])
def test_random_sparse(method, directed):
    G = random_graph(60, 240, seed=1)
    D, P = gsp.shortest_path(G, method=method, directed=directed, return_predecessors=True)
    R = cg.shortest_path(G, method=method, directed=directed)
    np.testing.assert_allclose(D, R)
    assert D.dtype == np.float64 and P.dtype == np.int32 and P.shape == D.shape
    check_predecessors(G, D, P, range(60), directed)


@pytest.mark.parametrize("method", ["auto", "FW", "J", "BF"])
def test_negative_weights(method):
    # a DAG with negative weights: no negative cycle
    rng = np.random.default_rng(7)
    W = np.triu(rng.integers(-5, 9, (40, 40)).astype(float), 1) * (rng.random((40, 40)) < 0.2)
    G = sp.csr_array(W)
    D, P = gsp.shortest_path(G, method=method, return_predecessors=True)
    np.testing.assert_allclose(D, cg.shortest_path(G, method=method))
    check_predecessors(G, D, P, range(40))


def test_dijkstra_with_negative_weights_warns_and_is_exact():
    G = sp.csr_array(np.array([[0, 2, 5], [0, 0, -4], [0, 0, 0]], float))
    with pytest.warns(UserWarning, match="negative weights"):
        D = gsp.dijkstra(G)
    np.testing.assert_allclose(D, cg.johnson(G))


@pytest.mark.parametrize("method", ["auto", "FW", "J", "BF"])
def test_negative_cycle(method):
    G = sp.csr_array(np.array([[0, 1, 0, 0], [0, 0, -3, 0], [1, 0, 0, 0], [0, 0, 0, 0]], float))
    with pytest.raises(gsp.NegativeCycleError) as e:
        gsp.shortest_path(G, method=method)
    assert sorted(e.value.cycle) == [0, 1, 2]
    assert "Negative cycle in nodes [0 1 2]" in str(e.value)
    assert isinstance(e.value, cg.NegativeCycleError)
    with pytest.raises(cg.NegativeCycleError):
        cg.shortest_path(G, method=method)


def test_bellman_ford_ignores_unreachable_negative_cycle_like_scipy():
    G = sp.csr_array(np.array([[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, -1], [0, 0, -1, 0]], float))
    np.testing.assert_allclose(gsp.bellman_ford(G, indices=[0, 1]), cg.bellman_ford(G, indices=[0, 1]))
    with pytest.raises(gsp.NegativeCycleError):
        gsp.bellman_ford(G, indices=2)
    with pytest.raises(gsp.NegativeCycleError):
        gsp.johnson(G, indices=0)  # Johnson, as scipy's, sees every cycle


def test_undirected_negative_edge_is_a_cycle():
    G = sp.csr_array(np.array([[0, -1], [0, 0]], float))
    with pytest.raises(gsp.NegativeCycleError):
        gsp.bellman_ford(G, directed=False)
    with pytest.raises(cg.NegativeCycleError):
        cg.bellman_ford(G, directed=False)


@pytest.mark.parametrize("method", METHODS)
def test_explicit_zeros_in_sparse_input_are_edges(method):
    G = sp.csr_array((np.array([0.0, 2.0, 0.0]), np.array([1, 2, 0]), np.array([0, 1, 2, 3])), shape=(3, 3))
    D, P = gsp.shortest_path(G, method=method, return_predecessors=True)
    np.testing.assert_array_equal(D, cg.shortest_path(G, method=method))
    check_predecessors(G, D, P, range(3))


def test_dense_input_zero_inf_nan_are_non_edges():
    G = np.array([[0, 0, np.inf, 1], [1, 0, np.nan, 0], [0, 0, 0, 2], [0, 3, 0, 0]])
    for m in METHODS:
        np.testing.assert_array_equal(gsp.shortest_path(G, method=m), cg.shortest_path(G, method=m))
    # null_value: zero-weight edges in a dense array
    Z = np.array([[np.inf, 0.0], [np.inf, np.inf]])
    np.testing.assert_array_equal(gsp.shortest_path(Z, null_value=np.inf),
                                  cg.shortest_path(cg.csgraph_from_dense(Z, null_value=np.inf)))


@pytest.mark.parametrize("method", ["auto", "FW", "D", "J", "BF"])
def test_masked_input_unmasked_zeros_are_edges(method):
    # scipy documents masked input as the way to give zero-weight edges
    # (csgraph_from_masked; its D, J and BF read them so; its FW drops them)
    M = np.ma.masked_array([[0, 0, 5], [1, 0, 0], [0, 2, 0]], mask=[[1, 0, 0], [0, 1, 1], [1, 0, 1]])
    ref = cg.shortest_path(cg.csgraph_from_masked(M), method="D")
    assert ref[0, 1] == 0
    np.testing.assert_array_equal(gsp.shortest_path(M, method=method), ref)
    np.testing.assert_array_equal(gsp.shortest_path(M, method=method), cg.shortest_path(M, method="D"))


def test_self_loops_and_unreachable():
    W = np.array([[3, 1, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 1, 5]], float)
    for m in METHODS:
        D, P = gsp.shortest_path(sp.csr_array(W), method=m, return_predecessors=True)
        R, Q = cg.shortest_path(sp.csr_array(W), method=m, return_predecessors=True)
        np.testing.assert_array_equal(D, R)
        np.testing.assert_array_equal(P, Q)
        assert np.all(np.diag(D) == 0)


@pytest.mark.parametrize("method", METHODS)
def test_int_input_gives_float64(method):
    G = np.array([[0, 3, 0], [0, 0, 4], [1, 0, 0]], dtype=np.int32)
    D = gsp.shortest_path(G, method=method)
    assert D.dtype == np.float64
    np.testing.assert_array_equal(D, cg.shortest_path(G, method=method))


def test_float32_results():
    G = random_graph(50, 200, seed=3)
    D = gsp.shortest_path(G, dtype=np.float32)
    assert D.dtype == np.float32
    np.testing.assert_array_equal(D, cg.shortest_path(G).astype(np.float32))
    D32 = gsp.shortest_path(G.astype(np.float32))  # float32 weights, float64 results as scipy
    assert D32.dtype == np.float64


@pytest.mark.parametrize("method", ["auto", "D", "J", "BF"])
def test_indices(method):
    G = random_graph(50, 150, seed=4)
    for idx in (0, -1, [3, 1, 3], np.array([[0, 1], [2, 3]])):
        D, P = gsp.shortest_path(G, method=method, indices=idx, return_predecessors=True)
        R, Q = cg.shortest_path(G, method=method, indices=idx, return_predecessors=True)
        assert D.shape == R.shape and P.shape == Q.shape
        np.testing.assert_allclose(D, R)
        src = np.atleast_1d(np.array(idx)).reshape(-1) % 50
        check_predecessors(G, D.reshape(-1, 50), P.reshape(-1, 50), src)
    with pytest.raises(ValueError, match="indices out of range"):
        gsp.shortest_path(G, method=method, indices=50)


def test_fw_with_indices_is_refused_like_scipy():
    with pytest.raises(ValueError, match="Cannot specify indices with method == 'FW'"):
        gsp.shortest_path(np.eye(3), method="FW", indices=[0])


def test_floyd_warshall_johnson_bellman_ford():
    G = random_graph(40, 160, seed=5)
    np.testing.assert_allclose(gsp.floyd_warshall(G), cg.floyd_warshall(G))
    np.testing.assert_allclose(gsp.johnson(G, indices=[1, 2]), cg.johnson(G, indices=[1, 2]))
    np.testing.assert_allclose(gsp.bellman_ford(G, directed=False), cg.bellman_ford(G, directed=False))
    np.testing.assert_allclose(gsp.floyd_warshall(G, unweighted=True), cg.floyd_warshall(G, unweighted=True))


def test_dijkstra_limit():
    G = random_graph(80, 300, seed=6)
    for limit in (0.0, 3.0, 7.5, np.inf):
        np.testing.assert_allclose(gsp.dijkstra(G, limit=limit), cg.dijkstra(G, limit=limit))
    with pytest.raises(ValueError):
        gsp.dijkstra(G, limit=-1)


@pytest.mark.parametrize("limit", [np.inf, 4.0])
def test_dijkstra_min_only(limit):
    G = random_graph(80, 240, seed=8)
    idx = [3, 17, 40]
    D, P, S = gsp.dijkstra(G, indices=idx, min_only=True, return_predecessors=True, limit=limit)
    R, Q, T = cg.dijkstra(G, indices=idx, min_only=True, return_predecessors=True, limit=limit)
    np.testing.assert_allclose(D, R)
    np.testing.assert_array_equal(np.isfinite(D), S != -9999)
    W = G.toarray()
    for v in range(80):
        if np.isfinite(D[v]):  # walking the predecessors reaches S[v] at cost D[v]
            cost, u = 0.0, v
            while P[u] != -9999:
                cost, u = cost + W[P[u], u], P[u]
            assert u == S[v] and np.isclose(cost, D[v])
    for s in idx:
        assert P[s] == -9999 and S[s] == s
    assert gsp.dijkstra(G, indices=idx, min_only=True).shape == (80,)


def test_reconstruct_path():
    G = random_graph(30, 90, seed=9)
    _, P = gsp.dijkstra(G, indices=0, return_predecessors=True)
    T = gsp.reconstruct_path(G, P)
    R = cg.reconstruct_path(G, P)
    assert type(T) is type(R)
    np.testing.assert_array_equal(T.toarray(), R.toarray())
    Gm = sp.csr_matrix(G)
    assert type(gsp.reconstruct_path(Gm, P)) is type(cg.reconstruct_path(Gm, P))


def test_errors_carry_the_library_message():
    with pytest.raises(ValueError, match="graph should have two dimensions"):
        gsp.shortest_path(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="unrecognized method"):
        gsp.shortest_path(np.eye(2), method="X")
    ok = gsp.cuda_available()
    if not ok:
        with pytest.raises(gsp.GspError, match="CUDA") as e:
            gsp.shortest_path(np.ones((3, 3)), backend="cuda")
        assert e.value.code == -13


def test_empty_graph():
    D = gsp.shortest_path(sp.csr_array((0, 0)))
    assert D.shape == (0, 0)
    np.testing.assert_array_equal(gsp.shortest_path(np.zeros((3, 3))), cg.shortest_path(np.zeros((3, 3))))


def test_help_reads_like_scipy():
    doc = gsp.shortest_path.__doc__
    for section in ("Parameters", "Returns", "Raises", "dist_matrix", "predecessors", "-9999"):
        assert section in doc
