"""Dense numpy graphs of every type, read in C (python/gspgraph/_dense.c),
against the same graph given sparse (read by the Python readers) and against
scipy."""

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as cg

import gspgraph as gsp

SOURCES = [np.float64, np.float32, np.float16, np.int64, np.int32, np.int16, np.int8, np.uint64, np.uint32,
           np.uint16, np.uint8, np.bool_]


def _graph(src, n=40, seed=0, density=0.15):
    rng = np.random.default_rng(seed)
    present = rng.random((n, n)) < density
    hi = 2 if src == np.bool_ else 100
    W = np.where(present, rng.integers(1, hi, (n, n)), 0)
    return W.astype(src)


def _sparse_of(W, null_value=0):
    r, c = np.nonzero(W != null_value)
    return sp.csr_array((W[r, c].astype(np.float64), (r, c)), shape=W.shape)


@pytest.mark.parametrize("src", SOURCES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32])
@pytest.mark.parametrize("directed", [True, False])
def test_min_plus_of_every_type(src, dtype, directed):
    W = _graph(src)
    want = cg.floyd_warshall(_sparse_of(W), directed=directed)
    got = gsp.closure(W, "min_plus", directed=directed, dtype=dtype)
    zero = np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).max
    np.testing.assert_array_equal(np.where(got == zero, np.inf, got), want)


@pytest.mark.parametrize("src", SOURCES)
def test_transitive_closure_of_every_type(src):
    W = _graph(src, seed=1, density=0.05)
    want = gsp.transitive_closure(_sparse_of(W), format="dense")
    np.testing.assert_array_equal(gsp.transitive_closure(W), want)
    np.testing.assert_array_equal(gsp.closure(W, "or_and"), gsp.closure(_sparse_of(W), "or_and"))


@pytest.mark.parametrize("semiring", ["max_plus", "max_min", "min_max"])
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32])
@pytest.mark.parametrize("directed", [True, False])
def test_other_semirings_dense_equals_sparse(semiring, dtype, directed):
    W = _graph(np.int32, seed=2, density=0.1)
    if semiring == "max_plus":
        W = np.triu(W, 1)  # no positive cycle
        if not directed:  # an undirected arc is a positive cycle: both readers refuse it
            for G in (W, _sparse_of(W)):
                with pytest.raises(gsp.NegativeCycleError):
                    gsp.closure(G, semiring, dtype=dtype, directed=False)
            return
    S = _sparse_of(W)
    np.testing.assert_array_equal(gsp.closure(W, semiring, dtype=dtype, directed=directed),
                                  gsp.closure(S, semiring, dtype=dtype, directed=directed))


def test_integer_marker_is_the_semirings_zero():
    # an int32 arc of weight INT32_MIN is max_plus's zero, INT32_MAX min_plus's:
    # both mean no arc, and every other value is an arc
    big = np.iinfo(np.int32).max
    W = np.array([[0, big - 1, 0], [0, 0, 5], [0, 0, 0]], dtype=np.int64)
    C = gsp.closure(W, "max_plus", dtype=np.int32)
    assert C[0, 1] == big - 1 and C[1, 2] == 5 and C[0, 2] == big  # saturated at the largest value
    assert C[2, 0] == np.iinfo(np.int32).min


@pytest.mark.parametrize("null_value", [None, 0.0, 7.0, -1.0])
def test_null_value_nan_and_inf(null_value):
    # scipy's own reader of dense graphs is the oracle
    W = _graph(np.float64, seed=3)
    W[0, 1], W[1, 2], W[2, 3] = np.nan, np.inf, -np.inf
    W[3, 4], W[4, 5], W[5, 6] = 7.0, -1.0, -0.0  # -0.0 == 0.0: a null_value of 0 takes both
    W[W < 0] = 7.0 if null_value != 7.0 else 2.0  # no negative cycle
    W[4, 5] = -1.0 if null_value == -1.0 else W[4, 5]
    S = cg.csgraph_from_dense(W, null_value=np.nan if null_value is None else null_value)
    want = gsp.floyd_warshall(S)
    np.testing.assert_array_equal(gsp.floyd_warshall(W, null_value=null_value), want)
    np.testing.assert_array_equal(gsp.floyd_warshall(W.astype(np.float32), null_value=null_value, dtype=np.float32),
                                  want.astype(np.float32))
    Wi = np.where(np.isfinite(W), W, 0 if null_value is None else null_value).astype(np.int32)
    Si = cg.csgraph_from_dense(Wi, null_value=np.nan if null_value is None else null_value)
    np.testing.assert_array_equal(gsp.closure(Wi, dtype=np.int64, null_value=null_value),
                                  gsp.closure(Si, dtype=np.int64))


def test_unweighted_dense():
    W = _graph(np.float64, seed=4) * 3.5
    W[5, 6] = np.nan
    np.testing.assert_array_equal(gsp.shortest_path(W, unweighted=True),
                                  cg.shortest_path(W, unweighted=True))
    W[5, 6] = 0
    np.testing.assert_array_equal(gsp.shortest_path(W.astype(np.int16), unweighted=True, directed=False),
                                  cg.shortest_path(W.astype(np.int16), unweighted=True, directed=False))


@pytest.mark.parametrize("W,dtype,match", [
    (np.array([[0, 2.5], [0, 0]]), np.int32, r"weight 2.5 at \(0, 1\) cannot be stored as int32 exactly \(not an "
                                             r"integer; round=True"),
    (np.array([[0, 3e9], [0, 0]]), np.int32, r"weight 3000000000 at \(0, 1\) cannot be stored as int32 exactly "
                                             r"\(out of the type's range\)"),
    (np.array([[0, 2**24 + 1], [0, 0]], dtype=np.int32), np.float32, r"weight 16777217 at \(0, 1\) cannot be stored "
                                                                     r"as float32 exactly"),
    (np.array([[0, 2**53 + 1], [0, 0]], dtype=np.int64), np.float64, r"weight 9007199254740993 at \(0, 1\) cannot "
                                                                     r"be stored as float64 exactly"),
    (np.array([[0, 2**40], [0, 0]], dtype=np.int64), np.int32, r"weight 1099511627776 at \(0, 1\) cannot be stored "
                                                               r"as int32 exactly \(out of the type's range\)"),
    (np.array([[0, 1e300], [0, 0]]), np.float32, r"weight 1.0000000000000001e\+300 at \(0, 1\) overflows float32"),
])
def test_values_the_type_cannot_hold(W, dtype, match):
    with pytest.raises(ValueError, match=match):
        gsp.closure(W, dtype=dtype)


def test_round_stores_the_nearest():
    W = np.array([[0, 2.5, 0], [0, 0, 3.5], [0, 0, 0]])
    np.testing.assert_array_equal(gsp.closure(W, dtype=np.int32, round=True),
                                  [[0, 2, 6], [2**31 - 1, 0, 4], [2**31 - 1, 2**31 - 1, 0]])
    W = np.array([[0, 2**24 + 1], [0, 0]], dtype=np.int32)
    assert gsp.closure(W, dtype=np.float32, round=True)[0, 1] == np.float32(2**24)


def test_non_contiguous_and_byte_swapped():
    W = _graph(np.float64, n=30, seed=5)
    want = gsp.closure(W)
    np.testing.assert_array_equal(gsp.closure(np.asfortranarray(W)), want)
    np.testing.assert_array_equal(gsp.closure(W.astype(">f8")), want)
    np.testing.assert_array_equal(gsp.closure(np.ascontiguousarray(W.T).T), want)


def test_input_left_unchanged():
    W = _graph(np.int32, seed=6)
    keep = W.copy()
    gsp.closure(W, dtype=np.int32, directed=False)
    gsp.transitive_closure(W)
    np.testing.assert_array_equal(W, keep)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_large_arrays_streamed(dtype):
    # 4 MiB and more are written with streaming stores (_dense.c): the same
    # values as the sparse reading of the same graph, every kind of non-edge
    # included, rows of any alignment (n odd)
    n = 1025 if np.dtype(dtype).itemsize == 4 else 725
    rng = np.random.default_rng(8)
    W = np.where(rng.random((n, n)) < 0.002, rng.integers(1, 50, (n, n)), 0).astype(dtype)
    if W.dtype.kind == "f":
        W[3, 5], W[7, 9], W[11, 13], W[17, 19] = np.nan, np.inf, -np.inf, -0.0
    S = cg.csgraph_from_dense(W, null_value=0)
    np.testing.assert_array_equal(gsp.closure(W, dtype=dtype), gsp.closure(S, dtype=dtype))
    np.testing.assert_array_equal(gsp.closure(W, dtype=dtype, directed=False),
                                  gsp.closure(S, dtype=dtype, directed=False))
