import numpy as np
import pytest

import gspgraph as gsp

_GPU, _GPU_WHY = gsp.cuda_available(), gsp.cuda_info()

gpu = pytest.mark.skipif(not _GPU, reason="no usable GPU: %s" % _GPU_WHY)


def random_graph(n, m, seed, wmin=1, wmax=9, integer=True, directed=True):
    """A scipy csr_array with m arcs (parallel arcs summed away by scipy's COO -> CSR)."""
    import scipy.sparse as sp
    rng = np.random.default_rng(seed)
    r = rng.integers(0, n, m)
    c = rng.integers(0, n, m)
    w = rng.integers(wmin, wmax + 1, m).astype(float) if integer else rng.uniform(wmin, wmax, m)
    A = sp.coo_array((w, (r, c)), shape=(n, n)).tocsr()
    A.sum_duplicates()
    return A


@pytest.fixture
def rng():
    return np.random.default_rng(12345)
