"""gsp: all-pairs shortest paths, closures and transitive closure on CPU and GPU.

The calls of ``scipy.sparse.csgraph`` with the same names, arguments and
results (``shortest_path``, ``floyd_warshall``, ``dijkstra``,
``bellman_ford``, ``johnson``, ``reconstruct_path``,
``NegativeCycleError``), computed by the gsp library, plus ``closure``,
``transitive_closure`` and ``shortest_path_blocks``. With ``device=True``
a GPU result stays on the GPU as a ``DeviceArray`` for CuPy or PyTorch
(DLPack).

    >>> import gspgraph as gsp                                  # instead of scipy.sparse.csgraph
    >>> D, P = gsp.shortest_path(A, return_predecessors=True)
"""

import os as _os


def _load_core():
    """Import the extension with OpenMP's threads waiting passively at
    barriers unless the user chose (OMP_WAIT_POLICY or GOMP_SPINCOUNT set):
    a spinning thread takes a core from the thread a barrier waits for when
    other processes (joblib workers, another job) share the cores. libgomp
    reads the policy when it loads, which is here unless another module
    loaded it first; the process environment is left as it was."""
    if "OMP_WAIT_POLICY" in _os.environ or "GOMP_SPINCOUNT" in _os.environ:
        from . import _core
        return _core
    _os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    try:
        from . import _core
    finally:
        del _os.environ["OMP_WAIT_POLICY"]
    return _core


_core = _load_core()

from ._errors import GspError, negative_cycle as _negative_cycle  # noqa: E402

_core._set_exceptions(GspError, _negative_cycle)

from ._csgraph import (  # noqa: E402
    NULL_PRED,
    bellman_ford,
    dijkstra,
    floyd_warshall,
    johnson,
    last_run,
    reconstruct_path,
    shortest_path,
)
from ._closure import closure, shortest_path_blocks, transitive_closure  # noqa: E402
from ._device import DeviceArray  # noqa: E402
from ._star import StarFactor  # noqa: E402
from ._files_api import read_graph, write_graph  # noqa: E402

__version__ = "%d.%d.%d" % (_core.VERSION_MAJOR, _core.VERSION_MINOR, _core.VERSION_PATCH)


def __getattr__(name):
    # NegativeCycleError is made on first use: it subclasses scipy's, and
    # importing scipy.sparse would triple the cost of importing gsp
    if name == "NegativeCycleError":
        from . import _errors
        return _errors.NegativeCycleError
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def cuda_available():
    """Whether the CUDA backend is installed and a GPU is usable (a bool).

    `cuda_info` says which device, or why there is none.
    """
    return bool(_core.cuda_available()[0])


def cuda_info():
    """A sentence naming the GPU gsp would use, or why there is none."""
    return _core.cuda_available()[1]


def set_threads(n):
    """Set the number of CPU threads gsp uses (0: OpenMP's default)."""
    _core.set_threads(int(n))


def get_threads():
    """The number of CPU threads gsp uses (0: OpenMP's default)."""
    return _core.get_threads()


__all__ = [
    "DeviceArray", "GspError", "NegativeCycleError", "NULL_PRED", "bellman_ford", "closure", "cuda_available", "cuda_info", "dijkstra",
    "floyd_warshall", "get_threads", "johnson", "last_run", "read_graph", "reconstruct_path", "set_threads", "shortest_path",
    "shortest_path_blocks", "StarFactor", "transitive_closure", "write_graph",
]
