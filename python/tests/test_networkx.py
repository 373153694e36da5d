"""gsp on NetworkX's real graphs, against NetworkX and scipy; closures and blocks."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph as cg

import gspgraph as gsp
from conftest import gpu, random_graph

GRAPHS = {
    "karate": nx.karate_club_graph,
    "les_miserables": nx.les_miserables_graph,
    "florentine": nx.florentine_families_graph,
}


@pytest.mark.parametrize("name", GRAPHS)
@pytest.mark.parametrize("method", ["auto", "FW", "D", "J", "BF"])
def test_real_graphs_against_networkx(name, method):
    G = GRAPHS[name]()
    nodes = list(G)
    w = "weight" if name != "florentine" else None
    D, P = gsp.shortest_path(G, method=method, return_predecessors=True, weight=w)
    ref = dict(nx.all_pairs_dijkstra_path_length(G, weight=w or (lambda u, v, d: 1)))
    for i, u in enumerate(nodes):
        for j, v in enumerate(nodes):
            assert D[i, j] == pytest.approx(ref[u].get(v, np.inf))
            if i != j and np.isfinite(D[i, j]):  # the predecessor path costs the distance
                cost, k = 0.0, j
                while k != i:
                    p = P[i, k]
                    cost += G.edges[nodes[p], nodes[k]].get("weight", 1) if w else 1
                    k = p
                assert cost == pytest.approx(D[i, j])
    A = nx.to_scipy_sparse_array(G, nodelist=nodes, weight=w)
    np.testing.assert_allclose(D, cg.shortest_path(A, method=method, directed=False))


def test_networkx_digraph_weight_attribute_and_zero_weights():
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 0.0), (1, 2, 2.5), (0, 2, 3.0), (2, 0, 1.0)], weight="cost")
    G.add_node(3)
    D = gsp.shortest_path(G, weight="cost")
    ref = dict(nx.all_pairs_dijkstra_path_length(G, weight="cost"))
    for i in range(4):
        for j in range(4):
            assert D[i, j] == ref[i].get(j, np.inf)


@pytest.mark.parametrize("reflexive", [False, True, None])
@pytest.mark.parametrize("seed", [1, 2])
def test_transitive_closure_like_networkx(reflexive, seed):
    G = nx.gnp_random_graph(30, 0.06, seed=seed, directed=True)
    G.add_edge(5, 5)
    T = gsp.transitive_closure(G, reflexive=reflexive)
    R = nx.transitive_closure(G, reflexive=reflexive)
    assert isinstance(T, nx.DiGraph)
    assert set(T.edges()) == set(R.edges())
    A = nx.to_scipy_sparse_array(G, nodelist=list(G))
    S = gsp.transitive_closure(A, reflexive=reflexive)
    assert sp.issparse(S)
    D = gsp.transitive_closure(A.toarray(), reflexive=reflexive)
    assert D.dtype == bool
    np.testing.assert_array_equal(S.toarray(), D)
    np.testing.assert_array_equal(D, nx.to_numpy_array(R, nodelist=list(G)) != 0)


def _brute_closure(W, add, mul, zero, one):
    n = W.shape[0]
    C = W.copy()
    for k in range(n):
        C = add(C, mul(C[:, k:k + 1], C[k:k + 1, :]))
    np.fill_diagonal(C, add(np.diag(C), one))
    return C


@pytest.mark.parametrize("semiring", ["min_plus", "max_min", "min_max"])
def test_closure_semirings(semiring):
    rng = np.random.default_rng(3)
    n = 25
    E = rng.random((n, n)) < 0.15
    W = rng.integers(1, 20, (n, n)).astype(float)
    add, mul, zero, one = {
        "min_plus": (np.minimum, np.add, np.inf, 0.0),
        "max_min": (np.maximum, np.minimum, -np.inf, np.inf),
        "min_max": (np.minimum, np.maximum, np.inf, -np.inf),
    }[semiring]
    X = np.where(E, W, zero)
    C = gsp.closure(np.where(E, W, 0.0), semiring)
    np.testing.assert_array_equal(C, _brute_closure(X, add, mul, zero, one))
    if semiring == "min_plus":
        np.testing.assert_array_equal(C, cg.floyd_warshall(np.where(E, W, 0.0)))


def test_closure_max_plus_on_a_dag_and_positive_cycle():
    W = np.array([[0, 2, 1], [0, 0, 4], [0, 0, 0]], float)
    C = gsp.closure(W, "max_plus")
    assert C[0, 2] == 6 and C[2, 0] == -np.inf and C[1, 1] == 0
    with pytest.raises(gsp.NegativeCycleError):
        gsp.closure(W + W.T, "max_plus")


def test_closure_or_and_int_types_and_non_reflexive():
    A = random_graph(20, 30, seed=4)
    R = gsp.closure(A, "or_and")
    assert R.dtype == bool and R.diagonal().all()
    Ci = gsp.closure(A, dtype=np.int64)
    np.testing.assert_array_equal(np.where(Ci == np.iinfo(np.int64).max, np.inf, Ci), cg.floyd_warshall(A))
    Cp = gsp.closure(A, reflexive=False)
    np.testing.assert_array_equal(np.isfinite(Cp), gsp.transitive_closure(A, format="dense"))


@pytest.mark.parametrize("method", ["auto", "D", "J", "BF"])
def test_shortest_path_blocks(method):
    G = random_graph(70, 300, seed=11)
    full, fullp = cg.shortest_path(G, return_predecessors=True)
    seen = []
    for rows, D, P in gsp.shortest_path_blocks(G, block=16, method=method, return_predecessors=True):
        assert D.shape == (rows.size, 70) and rows.size <= 16
        np.testing.assert_allclose(D, full[rows])
        seen.extend(rows.tolist())
    assert seen == list(range(70))


def test_keyboard_interrupt_surfaces():
    import _thread
    import signal
    import threading
    import time
    G = random_graph(4000, 40000, seed=12)
    # the interrupt a sixth of the way into the call (about 0.15 s on two
    # cores, less on more), so it lands inside it on any machine
    start = time.perf_counter()
    gsp.shortest_path(G, method="D", backend="cpu")
    whole = time.perf_counter() - start
    # Python's own SIGINT handler: a process started in the background by a
    # shell inherits SIGINT ignored, and interrupt_main then does nothing
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    t = threading.Timer(whole / 6, _thread.interrupt_main)
    try:
        with pytest.raises(KeyboardInterrupt):
            t.start()
            gsp.shortest_path(G, method="D", backend="cpu")
    finally:
        t.join()
        signal.signal(signal.SIGINT, old)


@gpu
@pytest.mark.parametrize("method", ["auto", "FW", "D", "J"])
def test_gpu_matches_scipy(method):
    G = random_graph(500, 4000, seed=13)
    D, P = gsp.shortest_path(G, method=method, backend="cuda", return_predecessors=True)
    np.testing.assert_allclose(D, cg.shortest_path(G, method=method))
    assert gsp.last_run["backend"] == "cuda"
    D32 = gsp.shortest_path(G, backend="cuda", dtype=np.float32)
    np.testing.assert_array_equal(D32, D.astype(np.float32))


@gpu
def test_gpu_closure_and_transitive_closure():
    A = random_graph(300, 1500, seed=14)
    np.testing.assert_array_equal(gsp.closure(A, backend="cuda"), cg.floyd_warshall(A))
    np.testing.assert_array_equal(gsp.transitive_closure(A, backend="cuda", format="dense"),
                                  gsp.transitive_closure(A, backend="cpu", format="dense"))
