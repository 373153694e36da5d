"""gsp as a NetworkX backend: every function it implements against NetworkX's own answer."""

import os
import subprocess
import sys

import networkx as nx
import numpy as np
import pytest

import gspgraph as gsp


def _graphs():
    rng = np.random.default_rng(7)
    D = nx.gnm_random_graph(30, 90, seed=1, directed=True)
    for u, v in D.edges():
        D.edges[u, v]["weight"] = int(rng.integers(1, 10))
    U = nx.relabel_nodes(nx.les_miserables_graph(), {"Valjean": ("v", 1)})
    M = nx.MultiDiGraph()
    M.add_weighted_edges_from([("a", "b", 4), ("a", "b", 1), ("b", "c", 2.5), ("c", "a", 1), ("d", "a", 7)])
    N = nx.DiGraph()
    N.add_weighted_edges_from([(0, 1, 2), (1, 2, -1), (2, 3, 4), (0, 3, 9), (3, 1, 1)])
    return {"directed": D, "undirected": U, "multi": M, "negative": N}


GRAPHS = _graphs()


def _ran_gsp(call):
    gsp.last_run.clear()
    out = call()
    if hasattr(out, "__next__"):
        out = dict(out)
    assert gsp.last_run, "the call fell back to NetworkX"
    return out


def test_entry_points_are_installed():
    assert "gsp" in nx.utils.backends.backends
    info = nx.utils.backends.backend_info["gsp"]
    for name in ("floyd_warshall", "floyd_warshall_numpy", "floyd_warshall_predecessor_and_distance", "johnson",
                 "all_pairs_dijkstra_path_length", "all_pairs_bellman_ford_path_length",
                 "single_source_dijkstra_path_length", "negative_edge_cycle", "find_negative_cycle",
                 "transitive_closure", "transitive_closure_dag", "has_path"):
        assert name in info["functions"]


@pytest.mark.parametrize("name", GRAPHS)
def test_all_pairs_lengths(name):
    G = GRAPHS[name]
    assert _ran_gsp(lambda: nx.floyd_warshall(G, backend="gsp")) == nx.floyd_warshall(G)
    assert _ran_gsp(lambda: nx.all_pairs_bellman_ford_path_length(G, backend="gsp")) == \
        dict(nx.all_pairs_bellman_ford_path_length(G))
    if name != "negative":
        assert _ran_gsp(lambda: nx.all_pairs_dijkstra_path_length(G, backend="gsp")) == \
            dict(nx.all_pairs_dijkstra_path_length(G))
        assert _ran_gsp(lambda: nx.all_pairs_dijkstra_path_length(G, cutoff=5, backend="gsp")) == \
            dict(nx.all_pairs_dijkstra_path_length(G, cutoff=5))
        s = next(iter(G))
        got = _ran_gsp(lambda: nx.single_source_dijkstra_path_length(G, s, backend="gsp"))
        ref = nx.single_source_dijkstra_path_length(G, s)
        assert got == ref and [got[v] for v in got] == sorted(ref.values())


@pytest.mark.parametrize("name", GRAPHS)
def test_floyd_warshall_numpy_predecessors_and_johnson(name):
    G = GRAPHS[name]
    nodelist = list(G)[::-1]
    got = _ran_gsp(lambda: nx.floyd_warshall_numpy(G, nodelist=nodelist, backend="gsp"))
    np.testing.assert_array_equal(got, nx.floyd_warshall_numpy(G, nodelist=nodelist))
    with pytest.raises(nx.NetworkXError):
        nx.floyd_warshall_numpy(G, nodelist=nodelist[1:], backend="gsp")
    pred, dist = _ran_gsp(lambda: nx.floyd_warshall_predecessor_and_distance(G, backend="gsp"))
    pred_nx, dist_nx = nx.floyd_warshall_predecessor_and_distance(G)
    assert dist == dist_nx
    assert {u: set(p) for u, p in pred.items()} == {u: set(p) for u, p in pred_nx.items() if p}
    for u in pred:  # every predecessor path costs the distance
        for v in pred[u]:
            path = nx.reconstruct_path(u, v, pred)
            assert nx.path_weight(G, path, "weight") == pytest.approx(dist[u][v]) or G.is_multigraph()
    paths = _ran_gsp(lambda: nx.johnson(G, backend="gsp"))
    ref = nx.johnson(G)
    assert {u: set(p) for u, p in paths.items()} == {u: set(p) for u, p in ref.items()}
    for u in paths:
        for v, p in paths[u].items():
            assert p[0] == u and p[-1] == v and (G.is_multigraph() or
                                                 nx.path_weight(G, p, "weight") == nx.path_weight(G, ref[u][v],
                                                                                                   "weight"))


def test_negative_cycles():
    G = nx.cycle_graph(5, create_using=nx.DiGraph())
    nx.add_cycle(G, [3, 5, 6, 7, 8, 9])
    assert not _ran_gsp(lambda: nx.negative_edge_cycle(G, backend="gsp")) and not nx.negative_edge_cycle(G)
    G.add_edge(1, 2, weight=-30)
    assert _ran_gsp(lambda: nx.negative_edge_cycle(G, backend="gsp")) and nx.negative_edge_cycle(G)
    for source in (1, 7):
        got = _ran_gsp(lambda: nx.find_negative_cycle(G, source, backend="gsp"))
        ref = nx.find_negative_cycle(G, source)
        # the same cycle; gsp starts it at its smallest vertex
        assert got[0] == got[-1] and sorted(got[:-1]) == sorted(ref[:-1]) and got[0] == min(got)
        assert sum(G.edges[u, v].get("weight", 1) for u, v in zip(got, got[1:])) < 0
    H = nx.path_graph(5, create_using=nx.DiGraph())
    H.add_edge(0, 0, weight=-1)
    with pytest.raises(nx.NetworkXError):  # the negative loop at 0 is out of 3's reach
        nx.find_negative_cycle(H, 3, backend="gsp")
    with pytest.raises(nx.NetworkXUnbounded):
        nx.johnson(G, backend="gsp")
    with pytest.raises(nx.NetworkXUnbounded):
        dict(nx.all_pairs_bellman_ford_path_length(G, backend="gsp"))


@pytest.mark.parametrize("reflexive", [False, True, None])
def test_transitive_closures_and_has_path(reflexive):
    for G in (nx.gnp_random_graph(25, 0.06, seed=3, directed=True), nx.Graph([(0, 1), (1, 2), (3, 4)])):
        T = _ran_gsp(lambda: nx.transitive_closure(G, reflexive, backend="gsp"))
        R = nx.transitive_closure(G, reflexive)
        assert type(T) is type(R) and set(T.edges()) == set(R.edges())
        for u in G:
            for v in G:
                assert nx.has_path(G, u, v, backend="gsp") == nx.has_path(G, u, v)
    D = nx.gn_graph(30, seed=2)
    T = _ran_gsp(lambda: nx.transitive_closure_dag(D, backend="gsp"))
    assert set(T.edges()) == set(nx.transitive_closure_dag(D).edges())
    D.add_edge(0, 5)
    D.add_edge(5, 0)
    with pytest.raises(nx.NetworkXUnfeasible):
        nx.transitive_closure_dag(D, backend="gsp")
    with pytest.raises(nx.NodeNotFound):
        nx.has_path(D, 0, "nowhere", backend="gsp")


def test_backend_priority_from_the_environment():
    code = ("import networkx as nx, gspgraph as gsp\n"
            "G = nx.path_graph(4)\n"
            "gsp.last_run.clear()\n"
            "D = nx.floyd_warshall_numpy(G)\n"
            "assert gsp.last_run['method'] == 'FW', gsp.last_run\n"
            "assert D[0, 3] == 3\n"
            "print('ok')\n")
    env = dict(os.environ, NETWORKX_BACKEND_PRIORITY="gsp")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
