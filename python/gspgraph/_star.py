"""The sparse star's factorization: repeated all-pairs queries on one graph."""

from __future__ import annotations

import numpy as np

from . import _core
from ._closure import _SEMIRING, _zero
from ._csgraph import _indices
from ._graph import graph_spec

_ORDERING = {"auto": 0, "metis": 1, "amd": 2}


class StarFactor:
    """
    A factorization of the star A* = I + A + A^2 + ... of a sparse graph, for
    repeated queries, as ``scipy.sparse.linalg.splu`` is for linear systems.

    Gaussian elimination over the semiring with the vertices in a
    fill-reducing order (METIS nested dissection, or AMD), then rows
    (from sources) and columns (to targets) of A* by triangular solves: the
    work of a row is the size of the factor, which on road networks, meshes
    and grids is far below n^2. New weights on the same arcs reuse the
    symbolic analysis (`refactor`).

    Parameters
    ----------
    csgraph : array_like, sparse array or matrix, or networkx graph
        The N x N graph, read as `shortest_path` reads it (explicit zeros
        of a sparse input are edges).
    semiring : {'min_plus', 'max_plus', 'max_min', 'min_max', 'or_and'}
        As in `closure`: shortest, longest (acyclic), widest, minimax paths
        or reachability.
    directed : bool, optional
        If False, every edge goes both ways.
    ordering : {'auto', 'metis', 'amd'}, optional
        The fill-reducing order ('auto': METIS from 256 vertices).
    dtype : numpy dtype, optional
        float64 (default), float32, int64 or int32; bool for 'or_and'.

    Raises
    ------
    NegativeCycleError
        A negative cycle ('min_plus'; a positive one for 'max_plus').
    """

    def __init__(self, csgraph, semiring="min_plus", *, directed=True, ordering="auto", dtype=None,
                 null_value=0.0, weight="weight"):
        if semiring not in _SEMIRING:
            raise ValueError("semiring must be one of %s, not %r" % (", ".join(_SEMIRING), semiring))
        if ordering not in _ORDERING:
            raise ValueError("ordering must be 'auto', 'metis' or 'amd', not %r" % (ordering,))
        dt = np.dtype(dtype if dtype is not None else (np.bool_ if semiring == "or_and" else np.float64))
        self._semiring, self._dtype, self._directed = semiring, dt, directed
        self._null_value, self._weight = null_value, weight
        spec, self._n = graph_spec(csgraph, dt, null_value=null_value, weight=weight)
        self._f = _core.star_factor(spec, not directed, _SEMIRING[semiring], _ORDERING[ordering])

    @property
    def shape(self):
        return (self._n, self._n)

    @property
    def report(self) -> dict:
        """What the factorization holds and cost (gsp_star_report)."""
        n, order, sn, vals, widest, fops, sops, a_s, f_s = _core.star_report(self._f)
        return {"n": n, "ordering": order, "supernodes": sn, "factor_values": vals, "max_supernode": widest,
                "factor_ops": fops, "solve_ops": sops, "analyze_s": a_s, "factor_s": f_s}

    def _lines(self, indices, col):
        src, shape = _indices(indices, self._n)
        k = self._n if src is None else src.size
        out = np.empty((k, self._n), dtype=self._dtype)
        zero = np.array([_zero(self._semiring, self._dtype)], dtype=self._dtype)
        _core.star_lines(self._f, src, col, out, zero)
        return out.reshape(tuple(shape) + (self._n,)) if indices is not None else out

    def rows(self, indices=None):
        """Rows of A*: ``rows(i)[j]`` is the value of the best path i -> j
        (np.inf, or the semiring's "no path", where there is none); indices
        as scipy's (an int gives one row, None every row)."""
        return self._lines(indices, False)

    def cols(self, indices=None):
        """Columns of A*, one per row of the result: ``cols(j)[i]`` is the
        value of the best path i -> j."""
        return self._lines(indices, True)

    def refactor(self, csgraph):
        """The same factorization with new weights: csgraph must have the
        factored graph's arcs (values may change). Only the numeric part
        runs again."""
        spec, n = graph_spec(csgraph, self._dtype, null_value=self._null_value, weight=self._weight)
        if n != self._n:
            raise ValueError("refactor: the graph has %d vertices, the factorization %d" % (n, self._n))
        _core.star_refactor(self._f, spec, not self._directed)
