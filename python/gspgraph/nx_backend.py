"""gsp as a NetworkX backend (NetworkX 3.x dispatching).

    >>> nx.floyd_warshall_numpy(G, backend="gsp")      # doctest: +SKIP
    $ NETWORKX_BACKEND_PRIORITY=gsp python ...        # every call gsp implements

The backend's graph, `GspGraph`, holds the NetworkX graph it came from (no
copy: gsp reads the weights from it as the call needs them). A call gsp
cannot answer as NetworkX would (a negative cycle where NetworkX returns
values, negative weights for Dijkstra) raises NotImplementedError, which
lets NetworkX's dispatcher run the next backend (NetworkX itself).
"""

from __future__ import annotations

import math

import numpy as np

from ._errors import NegativeCycleError
from ._graph import nx_arcs

#: functions gsp implements, with a note NetworkX shows in their docs
FUNCTIONS = {
    "floyd_warshall": "blocked Floyd-Warshall (CPU or GPU)",
    "floyd_warshall_numpy": "blocked Floyd-Warshall (CPU or GPU)",
    "floyd_warshall_predecessor_and_distance": "blocked Floyd-Warshall with predecessors",
    "johnson": "Johnson's algorithm, many sources at once",
    "all_pairs_dijkstra_path_length": "multi-source relaxation",
    "all_pairs_bellman_ford_path_length": "Johnson's algorithm (Bellman-Ford potentials)",
    "single_source_dijkstra_path_length": "frontier relaxation",
    "negative_edge_cycle": "Bellman-Ford from a virtual source",
    "find_negative_cycle": "Bellman-Ford",
    "transitive_closure": "bit-packed boolean closure",
    "transitive_closure_dag": "bit-packed boolean closure",
    "has_path": "breadth-first search",
}


def get_info():
    """The `networkx.backend_info` entry point."""
    return {
        "backend_name": "gsp",
        "project": "gspgraph",
        "package": "gspgraph",
        "url": "https://github.com/",
        "short_summary": "Semiring all-pairs shortest paths and closures on CPU and GPU.",
        "functions": {name: {"additional_docs": doc} for name, doc in FUNCTIONS.items()},
        "default_config": {},
    }


class GspGraph:
    """A NetworkX graph handed to gsp (the graph itself, not a copy)."""

    __networkx_backend__ = "gsp"

    def __init__(self, G):
        self.G = G
        self.__networkx_cache__ = {}

    def is_directed(self):
        return self.G.is_directed()

    def is_multigraph(self):
        return self.G.is_multigraph()

    def __len__(self):
        return len(self.G)

    def __iter__(self):
        return iter(self.G)

    def __contains__(self, n):
        return n in self.G


def _nx(G):
    return G.G if isinstance(G, GspGraph) else G


def _arcs(G, weight):
    """(nodes, spec-ready csr, integral) for G; NotImplementedError where
    the weights are not numbers gsp reads as NetworkX does."""
    from ._graph import _min_duplicates, _TYPECODE
    try:
        nodes, r, c, w = nx_arcs(G, weight)
    except TypeError as e:  # weights that are not numbers: NetworkX's own errors
        raise NotImplementedError("gsp: %s" % e) from None
    if w.dtype.kind == "f" and not np.all(np.isfinite(w)):
        raise NotImplementedError("gsp: infinite or NaN weights are left to NetworkX")
    integral = w.dtype.kind in "biu"
    indptr, indices, data = _min_duplicates(len(nodes), r, c, w.astype(np.float64), np.float64)
    return nodes, ("csr", len(nodes), indptr, indices, data, _TYPECODE[np.dtype(np.float64)]), integral


def _num(x, integral):
    """A Python number as NetworkX would give it (int for integer weights)."""
    x = float(x)
    return int(x) if integral and math.isfinite(x) else x


class _Dist(dict):
    """floyd_warshall's rows: a missing pair reads as inf, as NetworkX's defaultdict."""

    def __missing__(self, key):
        return math.inf


def _apsp(G, weight, method, predecessors=False):
    from . import _csgraph
    from ._graph import _min_duplicates  # noqa: F401
    nodes, spec, integral = _arcs(G, weight)
    n = len(nodes)
    src, shape = None, (n,)
    dist, pred = _csgraph._run_apsp(spec, True, src, _csgraph._ALGO[method], "auto", None, np.dtype(np.float64),
                                    predecessors)
    return nodes, dist, pred, integral


class _Backend:
    """The `networkx.backends` entry point: the functions, conversions and choices."""

    @staticmethod
    def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False, preserve_node_attrs=False,
                        preserve_graph_attrs=False, name=None, graph_name=None, **kwargs):
        return GspGraph(G)

    @staticmethod
    def convert_to_nx(result, *, name=None):
        return result.G if isinstance(result, GspGraph) else result

    @staticmethod
    def can_run(name, args, kwargs):
        if name not in FUNCTIONS:
            return False
        if name in ("floyd_warshall", "floyd_warshall_numpy", "floyd_warshall_predecessor_and_distance"):
            w = kwargs.get("weight", args[-1] if name != "floyd_warshall_numpy" and len(args) > 1 else "weight")
            if callable(w):
                return "gsp: NetworkX's Floyd-Warshall takes an attribute name as weight"
        return True

    @staticmethod
    def should_run(name, args, kwargs):
        return True

    # ---- all pairs -------------------------------------------------------------

    @staticmethod
    def floyd_warshall(G, weight="weight"):
        G = _nx(G)
        nodes, D, _, integral = _fw(G, weight)
        return {u: _Dist(zip(nodes, (_num(x, integral) for x in D[i].tolist()))) for i, u in enumerate(nodes)}

    @staticmethod
    def floyd_warshall_predecessor_and_distance(G, weight="weight"):
        G = _nx(G)
        nodes, D, P, integral = _fw(G, weight, True)
        dist = {u: _Dist(zip(nodes, (_num(x, integral) for x in D[i].tolist()))) for i, u in enumerate(nodes)}
        pred = {}
        for i, u in enumerate(nodes):
            row = P[i]
            js = np.nonzero(row >= 0)[0]
            if js.size:
                pred[u] = {nodes[j]: nodes[p] for j, p in zip(js.tolist(), row[js].tolist())}
        return pred, dist

    @staticmethod
    def floyd_warshall_numpy(G, nodelist=None, weight="weight"):
        import networkx as nx
        G = _nx(G)
        if nodelist is not None and not (len(nodelist) == len(G) == len(set(nodelist))):
            raise nx.NetworkXError("nodelist must contain every node in G with no repeats."
                                   "If you wanted a subgraph of G use G.subgraph(nodelist)")
        nodes, D, _, _ = _fw(G, weight)
        if nodelist is not None:
            pos = {v: k for k, v in enumerate(nodes)}
            order = np.array([pos[v] for v in nodelist], dtype=np.int64)
            D = D[np.ix_(order, order)]
        return D

    @staticmethod
    def johnson(G, weight="weight"):
        nodes, _, D, P = _johnson_rows(G, weight, True)
        out = {}
        for i, u in enumerate(nodes):
            paths = {u: [u]}
            row = P[i]
            for j in np.nonzero(np.isfinite(D[i]))[0].tolist():
                if j == i:
                    continue
                path, k = [], j
                while k != i:
                    path.append(nodes[k])
                    k = int(row[k])
                path.append(u)
                paths[nodes[j]] = path[::-1]
            out[u] = paths
        return out

    @staticmethod
    def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight"):
        G = _nx(G)
        nodes, spec, integral = _arcs(G, weight)
        if spec[4].size and spec[4].min() < 0:
            raise NotImplementedError("gsp: NetworkX's Dijkstra on negative weights")
        from . import _csgraph
        D, _ = _csgraph._run_apsp(spec, True, None, _csgraph._ALGO["D"], "auto", cutoff, np.dtype(np.float64), False)
        return ((u, _row_dict(nodes, D[i], integral)) for i, u in enumerate(nodes))

    @staticmethod
    def all_pairs_bellman_ford_path_length(G, weight="weight"):
        nodes, integral, D, _ = _johnson_rows(G, weight, False)
        return ((u, _row_dict(nodes, D[i], integral)) for i, u in enumerate(nodes))

    @staticmethod
    def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
        import networkx as nx
        G = _nx(G)
        if source not in G:
            raise nx.NodeNotFound(f"Node {source} not found in graph")
        nodes, spec, integral = _arcs(G, weight)
        if spec[4].size and spec[4].min() < 0:
            raise NotImplementedError("gsp: NetworkX's Dijkstra on negative weights")
        from . import _csgraph
        s = np.array([nodes.index(source)], dtype=np.int64)
        D, _ = _csgraph._run_apsp(spec, True, s, _csgraph._ALGO["D"], "auto", cutoff, np.dtype(np.float64), False)
        return _row_dict(nodes, D[0], integral)

    # ---- negative cycles ---------------------------------------------------------

    @staticmethod
    def negative_edge_cycle(G, weight="weight", heuristic=True):
        G = _nx(G)
        _ran("negative_cycle")
        if G.size() == 0:
            return False
        nodes, spec, _ = _arcs(G, weight)
        if not (spec[4].size and spec[4].min() < 0):
            return False
        from . import _core
        return _core.negative_cycle(spec) is not None

    @staticmethod
    def find_negative_cycle(G, source, weight="weight"):
        import networkx as nx
        G = _nx(G)
        if source not in G:
            raise nx.NodeNotFound(f"Source {source} not in G")
        nodes, spec, _ = _arcs(G, weight)
        from . import _core
        # a cycle the source reaches: search the graph the source reaches
        keep = _reached(spec, nodes.index(source))
        sub = _subgraph(spec, keep)
        cycle = _core.negative_cycle(sub) if sub[4].size and sub[4].min() < 0 else None
        _ran("negative_cycle")
        if cycle is None:
            raise nx.NetworkXError("No negative cycles detected.")
        cyc = [nodes[keep[k]] for k in cycle]
        return cyc + [cyc[0]]

    # ---- reachability ------------------------------------------------------------

    @staticmethod
    def transitive_closure(G, reflexive=False):
        import networkx as nx
        from ._closure import transitive_closure
        if reflexive not in {None, True, False}:
            raise nx.NetworkXError("Incorrect value for the parameter `reflexive`")
        return transitive_closure(_nx(G), reflexive=reflexive, format="networkx")

    @staticmethod
    def transitive_closure_dag(G, topo_order=None):
        import networkx as nx
        from ._closure import transitive_closure
        G = _nx(G)
        if not G.is_directed():
            raise nx.NetworkXNotImplemented("not implemented for undirected type")
        if topo_order is None:
            from . import _core
            nodes, spec, _ = _arcs(G, None)
            # with every weight -1, any cycle is a negative one
            if _core.negative_cycle(spec[:4] + (np.full(spec[4].size, -1.0),) + spec[5:]) is not None:
                raise nx.NetworkXUnfeasible("Graph contains a cycle or graph changed during iteration")
        return transitive_closure(G, reflexive=False, format="networkx")

    @staticmethod
    def has_path(G, source, target):
        import networkx as nx
        G = _nx(G)
        for v in (source, target):
            if v not in G:
                raise nx.NodeNotFound(f"Source {source} is not in G" if v == source else
                                      f"Target {target} is not in G")
        if source == target:
            return True
        nodes, spec, _ = _arcs(G, None)
        _ran("reach")
        return bool(np.any(_reached(spec, nodes.index(source)) == nodes.index(target)))


def _fw(G, weight, predecessors=False):
    """Floyd-Warshall's all pairs as NetworkX computes them (the attribute, 1.0 where missing)."""
    nodes, spec, integral = _arcs(G, weight)
    from . import _csgraph
    try:
        D, P = _csgraph._run_apsp(spec, True, None, _csgraph._ALGO["FW"], "auto", None, np.dtype(np.float64),
                                  predecessors)
    except NegativeCycleError:
        # NetworkX's Floyd-Warshall returns values with a negative cycle
        raise NotImplementedError("gsp: Floyd-Warshall with a negative cycle") from None
    return nodes, D, P, integral


def _ran(method):
    """gsp.last_run for a call that runs on the CPU outside gsp_apsp."""
    from ._csgraph import last_run
    last_run.clear()
    last_run.update(method=method, backend="cpu")


def _reached(spec, s):
    """The vertices reachable from s (sorted), level by level over the CSR."""
    indptr, indices = spec[2], spec[3]
    seen = np.zeros(spec[1], dtype=bool)
    seen[s] = True
    frontier = np.array([s], dtype=np.int64)
    while frontier.size:
        starts, ends = indptr[frontier], indptr[frontier + 1]
        cnt = ends - starts
        if not cnt.sum():
            break
        # every arc of the frontier at once
        idx = np.repeat(starts - np.concatenate([[0], np.cumsum(cnt)[:-1]]), cnt) + np.arange(cnt.sum())
        nxt = np.unique(indices[idx])
        frontier = nxt[~seen[nxt]]
        seen[frontier] = True
    return np.nonzero(seen)[0]


def _subgraph(spec, keep):
    """The spec of the subgraph on the sorted vertices keep, renumbered 0..len-1."""
    from ._graph import _min_duplicates
    n = spec[1]
    r = np.repeat(np.arange(n, dtype=np.int64), np.diff(spec[2]))
    new = np.full(n, -1, dtype=np.int64)
    new[keep] = np.arange(keep.size)
    m = (new[r] >= 0) & (new[spec[3]] >= 0)
    indptr, indices, data = _min_duplicates(keep.size, new[r[m]], new[spec[3][m]], spec[4][m], np.float64)
    return ("csr", int(keep.size), indptr, indices, data) + spec[5:]


def _johnson_rows(G, weight, paths):
    """(nodes, integral, D, P) of every source by Johnson's algorithm, as
    NetworkX's negative-weight calls need them (P None without paths); a
    negative cycle is NetworkX's NetworkXUnbounded."""
    import networkx as nx
    from . import _csgraph
    nodes, spec, integral = _arcs(_nx(G), weight)
    try:
        D, P = _csgraph._run_apsp(spec, True, None, _csgraph._ALGO["J"], "auto", None, np.dtype(np.float64), paths)
    except NegativeCycleError:
        raise nx.NetworkXUnbounded("Negative cycle detected.") from None
    return nodes, integral, D, P


def _row_dict(nodes, row, integral):
    """A row's reachable vertices as NetworkX's Dijkstra gives them: nearest first."""
    js = np.nonzero(np.isfinite(row))[0]
    js = js[np.argsort(row[js], kind="stable")]
    return {nodes[j]: _num(x, integral) for j, x in zip(js.tolist(), row[js].tolist())}


backend_interface = _Backend()
