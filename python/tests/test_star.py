"""gsp.StarFactor (the sparse star's factorization) against scipy.sparse.csgraph and gsp.closure."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path

import gspgraph as gsp
from conftest import random_graph


def grid(k, seed, wmin=1, wmax=9):
    """A k x k grid, both directions, the same random integer weight each way."""
    rng = np.random.default_rng(seed)
    i = np.arange(k * k).reshape(k, k)
    e = np.concatenate([np.stack([i[:, :-1].ravel(), i[:, 1:].ravel()], 1),
                        np.stack([i[:-1].ravel(), i[1:].ravel()], 1)])
    w = rng.integers(wmin, wmax + 1, len(e)).astype(np.float64)
    r = np.concatenate([e[:, 0], e[:, 1]])
    c = np.concatenate([e[:, 1], e[:, 0]])
    return sp.csr_array((np.concatenate([w, w]), (r, c)), shape=(k * k, k * k))


@pytest.mark.parametrize("ordering", ["auto", "metis", "amd"])
def test_rows_and_cols_equal_scipy_on_a_grid(ordering):
    A = grid(30, 1)
    F = gsp.StarFactor(A, ordering=ordering)
    D = shortest_path(A, method="D")
    np.testing.assert_array_equal(F.rows(), D)
    np.testing.assert_array_equal(F.cols([5, 0, 899, 5]), D[:, [5, 0, 899, 5]].T)
    np.testing.assert_array_equal(F.rows(17), D[17])
    np.testing.assert_array_equal(F.rows(-1), D[-1])
    assert F.shape == (900, 900)
    rep = F.report
    assert rep["n"] == 900 and rep["factor_values"] < 900 * 900 // 4
    assert rep["ordering"] == ("AMD" if ordering == "amd" else "METIS")


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32])
def test_directed_random_graphs_every_dtype(dtype):
    A = random_graph(300, 700, 3)  # one-way arcs, unreachable pairs
    F = gsp.StarFactor(A.astype(dtype), dtype=dtype)
    D = shortest_path(A, method="D")
    R = F.rows()
    if np.dtype(dtype).kind == "i":
        none = np.iinfo(dtype).max
        assert np.array_equal(R == none, np.isinf(D))
        np.testing.assert_array_equal(R[R != none], D[np.isfinite(D)])
    else:
        np.testing.assert_array_equal(R, D.astype(dtype))


def test_undirected_and_explicit_zero_arcs():
    # an explicit zero is an edge (scipy's sparse convention)
    A = sp.csr_array((np.array([0.0, 4.0, 2.0]), (np.array([0, 1, 2]), np.array([1, 2, 3]))), shape=(4, 4))
    F = gsp.StarFactor(A, directed=False)
    np.testing.assert_array_equal(F.rows(), shortest_path(A, method="D", directed=False))


def test_refactor_with_new_weights():
    A = grid(25, 2)
    F = gsp.StarFactor(A)
    B = A.copy()
    B.data = np.random.default_rng(7).integers(1, 50, B.nnz).astype(np.float64)
    F.refactor(B)
    np.testing.assert_array_equal(F.rows([0, 100, 624]), shortest_path(B, method="D", indices=[0, 100, 624]))
    C = A.tolil()
    C[0, 600] = 1.0  # another pattern
    with pytest.raises(ValueError, match="pattern"):
        F.refactor(C.tocsr())
    np.testing.assert_array_equal(F.rows(0), shortest_path(B, method="D", indices=0))  # unchanged


def test_negative_arcs_and_negative_cycles():
    A = grid(12, 3).tolil()
    A[5, 6] = -2.0  # 6 -> 5 weighs at least 1: no negative cycle
    A = A.tocsr()
    np.testing.assert_array_equal(gsp.StarFactor(A).rows(), shortest_path(A, method="BF"))
    A = A.tolil()
    A[6, 5] = -3.0
    with pytest.raises(gsp.NegativeCycleError):
        gsp.StarFactor(A.tocsr())


@pytest.mark.parametrize("semiring", ["max_min", "min_max", "or_and"])
def test_other_semirings_equal_the_dense_closure(semiring):
    A = random_graph(150, 400, 5)
    if semiring == "or_and":
        A = A.astype(bool)
    F = gsp.StarFactor(A, semiring)
    np.testing.assert_array_equal(F.rows(), gsp.closure(A, semiring))


def test_bad_arguments():
    A = grid(5, 1)
    with pytest.raises(ValueError):
        gsp.StarFactor(A, "plus_times")
    with pytest.raises(ValueError):
        gsp.StarFactor(A, ordering="nested")
    F = gsp.StarFactor(A)
    with pytest.raises(ValueError):
        F.rows(25)
    with pytest.raises(ValueError):
        F.refactor(grid(6, 1))


def delaunay(n, seed):
    """A Delaunay triangulation of n random points, arcs both ways weighing their length."""
    from scipy.spatial import Delaunay
    pts = np.random.default_rng(seed).random((n, 2))
    t = Delaunay(pts).simplices
    e = np.unique(np.sort(np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]]), axis=1), axis=0)
    w = np.linalg.norm(pts[e[:, 0]] - pts[e[:, 1]], axis=1)
    r = np.concatenate([e[:, 0], e[:, 1]])
    c = np.concatenate([e[:, 1], e[:, 0]])
    return sp.csr_array((np.concatenate([w, w]), (r, c)), shape=(n, n))


def test_delaunay_mesh_equals_scipy_and_shortest_path_picks_it():
    A = delaunay(3000, 4)  # fractional float64 lengths: sums in another order
    F = gsp.StarFactor(A)
    D = shortest_path(A, method="D")
    np.testing.assert_allclose(F.rows(), D, rtol=1e-12)
    np.testing.assert_allclose(F.cols([0, 2999]), D[:, [0, 2999]].T, rtol=1e-12)
    np.testing.assert_allclose(gsp.shortest_path(A), D, rtol=1e-12)


def test_shortest_path_method_s_and_auto_pick_the_star():
    A = grid(40, 6)
    D = shortest_path(A, method="D")
    np.testing.assert_array_equal(gsp.shortest_path(A, method="S", indices=[3, 1000]), D[[3, 1000]])
    assert gsp.last_run["method"] == "S"
    gsp.set_threads(2)  # the pick is priced for the threads there are
    try:
        np.testing.assert_array_equal(gsp.shortest_path(A, backend="cpu"), D)
        assert gsp.last_run["method"] == "S", gsp.last_run
    finally:
        gsp.set_threads(0)
    # a random graph of average degree 4 stays with the relaxation
    R = random_graph(3000, 12000, 9)
    gsp.shortest_path(R, backend="cpu", indices=[0, 1])
    assert gsp.last_run["method"] == "D", gsp.last_run
