"""Results left on the GPU (device=True) and handed to PyTorch / CuPy through DLPack.

The argument checks and the no-GPU error run everywhere; the rest needs a
usable GPU and PyTorch or CuPy built for CUDA, and skips with the reason
otherwise.
"""

import gc

import numpy as np
import pytest

import gspgraph as gsp
from conftest import _GPU, gpu

GSP_NO_DEVICE = -13  # gsp_info's code for "no usable GPU"


def _torch():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no CUDA device")
    return torch


def _cupy():
    cupy = pytest.importorskip("cupy", reason="CuPy is not installed")
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            pytest.skip("CuPy sees no CUDA device")
    except cupy.cuda.runtime.CUDARuntimeError as e:
        pytest.skip("CuPy sees no CUDA device: %s" % e)
    return cupy


def _int_graph(n=300, m=1500, seed=7):
    """Integer weights 1..9 (exact in every dtype); no arc enters vertex n-1."""
    import scipy.sparse as sp
    rng = np.random.default_rng(seed)
    r, c = rng.integers(0, n, m), rng.integers(0, n - 1, m)
    w = rng.integers(1, 10, m).astype(float)
    A = sp.coo_array((w, (r, c)), shape=(n, n)).tocsr()
    A.sum_duplicates()
    return A


# ---- everywhere --------------------------------------------------------------


@pytest.mark.parametrize("kw", [dict(method="D"), dict(method="J"), dict(method="BF"),
                                dict(return_predecessors=True), dict(indices=[0, 1]), dict(backend="cpu")])
def test_shortest_path_device_refuses_what_cannot_stay_on_the_gpu(kw):
    G = np.array([[0, 1.0], [0, 0]])
    with pytest.raises(ValueError, match="device=True"):
        gsp.shortest_path(G, device=True, **kw)


def test_closure_device_refuses_or_and_and_cpu():
    G = np.array([[0, 1.0], [0, 0]])
    with pytest.raises(ValueError, match="bit-packed"):
        gsp.closure(G, "or_and", device=True)
    with pytest.raises(ValueError, match="backend must be 'cuda' or 'auto'"):
        gsp.closure(G, device=True, backend="cpu")
    with pytest.raises(ValueError, match="device=True"):
        gsp.floyd_warshall(G, return_predecessors=True, device=True)


def test_device_without_gpu_raises_no_device():
    if _GPU:
        pytest.skip("a usable GPU is present: the no-device error is not reachable")
    G = np.array([[0, 1.0], [0, 0]])
    for call in (lambda: gsp.closure(G, device=True), lambda: gsp.shortest_path(G, device=True),
                 lambda: gsp.floyd_warshall(G, device=True, backend="cuda")):
        with pytest.raises(gsp.GspError) as e:
            call()
        assert e.value.code == GSP_NO_DEVICE
        assert "CUDA" in str(e.value)


# ---- on the GPU ----------------------------------------------------------------


@gpu
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("directed", [True, False])
def test_shortest_path_torch_matches_host(dtype, directed):
    torch = _torch()
    import scipy.sparse.csgraph as cg
    A = _int_graph()
    D = gsp.shortest_path(A, method="FW", directed=directed, backend="cuda", dtype=dtype, device=True)
    assert isinstance(D, gsp.DeviceArray)
    assert D.shape == (300, 300) and D.dtype == np.dtype(dtype) and D.ld >= 300
    assert gsp.last_run == {"method": "FW", "backend": "cuda"}
    T = torch.from_dlpack(D)
    assert T.is_cuda and T.device.index == D.device_id
    assert tuple(T.shape) == (300, 300) and T.stride() == (D.ld, 1)
    assert T.data_ptr() == D.__cuda_array_interface__["data"][0]  # no copy
    host = gsp.shortest_path(A, method="FW", directed=directed, backend="cuda", dtype=dtype)
    np.testing.assert_array_equal(T.cpu().numpy(), host)
    np.testing.assert_array_equal(T.cpu().numpy(), cg.shortest_path(A, directed=directed).astype(dtype))
    assert D.absent == np.inf
    if directed:  # nothing enters vertex 299; undirected, its own arcs lead back to it
        assert np.isinf(host[0, 299])


@gpu
def test_shortest_path_auto_is_floyd_warshall():
    torch = _torch()
    A = _int_graph(200, 900, 3)
    D = gsp.shortest_path(A, device=True)
    np.testing.assert_array_equal(torch.from_dlpack(D).cpu().numpy(),
                                  gsp.shortest_path(A, method="FW", backend="cuda"))


@gpu
@pytest.mark.parametrize("semiring", ["min_plus", "max_min", "min_max"])
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_closure_torch_matches_host(semiring, dtype):
    torch = _torch()
    A = _int_graph(257, 1200, 11)
    D = gsp.closure(A, semiring, dtype=dtype, backend="cuda", device=True)
    host = gsp.closure(A, semiring, dtype=dtype, backend="cuda")
    got = torch.from_dlpack(D).cpu().numpy()
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got, host)
    # "no path" is the semiring's zero: the largest value for min_*, the smallest for max_*
    assert got[0, 256] == D.absent
    if np.dtype(dtype).kind == "i":
        info = np.iinfo(dtype)
        assert D.absent == (info.min if semiring == "max_min" else info.max)


@gpu
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_cupy_matches_host(dtype):
    cupy = _cupy()
    A = _int_graph(200, 800, 5)
    D = gsp.closure(A, dtype=dtype, backend="cuda", device=True)
    host = gsp.closure(A, dtype=dtype, backend="cuda")
    C = cupy.from_dlpack(D)
    assert C.shape == (200, 200) and C.strides == (D.ld * C.itemsize, C.itemsize)
    np.testing.assert_array_equal(cupy.asnumpy(C), host)
    np.testing.assert_array_equal(cupy.asnumpy(cupy.asarray(D)), host)  # __cuda_array_interface__


@gpu
def test_dlpack_protocol():
    _torch()
    D = gsp.closure(_int_graph(64, 200, 2), backend="cuda", device=True)
    assert D.__dlpack_device__() == (2, D.device_id)
    assert '"dltensor"' in repr(D.__dlpack__())
    assert '"dltensor"' in repr(D.__dlpack__(max_version=(0, 8)))
    assert '"dltensor_versioned"' in repr(D.__dlpack__(max_version=(1, 0), stream=1))
    with pytest.raises(BufferError):
        D.__dlpack__(dl_device=(1, 0))
    with pytest.raises(BufferError):
        D.__dlpack__(copy=True)
    with pytest.raises(ValueError):
        D.__dlpack__(stream=0)
    assert "cuda:%d" % D.device_id in repr(D)


@gpu
def test_tensor_outlives_device_array_and_memory_is_released():
    torch = _torch()
    A = _int_graph(300, 1500, 9)
    host = gsp.shortest_path(A, method="FW", backend="cuda")
    D = gsp.shortest_path(A, device=True)
    T = torch.from_dlpack(D)
    del D
    gc.collect()
    np.testing.assert_array_equal(T.cpu().numpy(), host)  # the tensor keeps the matrix alive
    del T
    # 24 results of 2048 x 2048 float64 (32 MiB each): freed as they go, or
    # 768 MiB would stay taken
    G = np.ones((2048, 2048))
    torch.cuda.synchronize()
    free0, _ = torch.cuda.mem_get_info()
    for _ in range(24):
        T = torch.from_dlpack(gsp.closure(G, device=True))
        del T
        cap = gsp.closure(G, device=True).__dlpack__()  # never consumed: the capsule frees it
        del cap
    gc.collect()
    free1, _ = torch.cuda.mem_get_info()
    assert free0 - free1 < 256 << 20, "device memory not released: %d MiB" % ((free0 - free1) >> 20)


@gpu
def test_device_negative_cycle():
    G = np.array([[0, 1.0, 0], [0, 0, -3.0], [1.0, 0, 0]])
    with pytest.raises(gsp.NegativeCycleError) as e:
        gsp.shortest_path(G, device=True)
    assert sorted(e.value.cycle) == [0, 1, 2]

