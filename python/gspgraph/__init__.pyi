from collections.abc import Callable, Iterator
from typing import Any, Literal, overload

import numpy as np
import numpy.typing as npt

_Graph = Any  # ndarray, masked array, scipy.sparse array/matrix or networkx graph
_Method = Literal["auto", "FW", "D", "J", "S", "BF"]
_Backend = Literal["auto", "cpu", "cuda"]
_Indices = Any  # int, array_like, or NetworkX node labels
_Weight = str | Callable[[Any, Any, dict], float | None] | None  # NetworkX input: attribute or weight(u, v, d)
_F = npt.NDArray[np.floating[Any]]
_I32 = npt.NDArray[np.int32]

__version__: str
NULL_PRED: int
last_run: dict[str, str | float]

class GspError(RuntimeError):
    code: int

class NegativeCycleError(Exception):
    cycle: list[int]
    def __init__(self, message: str = ..., cycle: Any = ...) -> None: ...

class DeviceArray:
    @property
    def shape(self) -> tuple[int, int]: ...
    @property
    def ndim(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def dtype(self) -> np.dtype[Any]: ...
    @property
    def device_id(self) -> int: ...
    @property
    def ld(self) -> int: ...
    @property
    def absent(self) -> Any: ...
    @property
    def __cuda_array_interface__(self) -> dict[str, Any]: ...
    def __dlpack__(self, *, stream: int | None = ..., max_version: tuple[int, int] | None = ...,
                   dl_device: tuple[int, int] | None = ..., copy: bool | None = ...) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...

@overload
def shortest_path(csgraph: _Graph, method: _Method = ..., directed: bool = ...,
                  return_predecessors: Literal[False] = ..., unweighted: bool = ..., overwrite: bool = ...,
                  indices: _Indices = ..., *, backend: _Backend = ..., dtype: npt.DTypeLike = ...,
                  null_value: float | None = ..., weight: _Weight = ...,
                  device: Literal[False] = ..., round: bool = ...) -> _F: ...
@overload
def shortest_path(csgraph: _Graph, method: _Method = ..., directed: bool = ..., *,
                  return_predecessors: Literal[True], unweighted: bool = ..., overwrite: bool = ...,
                  indices: _Indices = ..., backend: _Backend = ..., dtype: npt.DTypeLike = ...,
                  null_value: float | None = ..., weight: _Weight = ...,
                  device: Literal[False] = ..., round: bool = ...) -> tuple[_F, _I32]: ...
@overload
def shortest_path(csgraph: _Graph, method: Literal["auto", "FW"] = ..., directed: bool = ...,
                  return_predecessors: Literal[False] = ..., unweighted: bool = ..., overwrite: bool = ...,
                  indices: None = ..., *, backend: Literal["auto", "cuda"] = ..., dtype: npt.DTypeLike = ...,
                  null_value: float | None = ..., weight: _Weight = ...,
                  device: Literal[True], round: bool = ...) -> DeviceArray: ...
def floyd_warshall(csgraph: _Graph, directed: bool = ..., return_predecessors: bool = ...,
                   unweighted: bool = ..., overwrite: bool = ..., *, backend: _Backend = ...,
                   dtype: npt.DTypeLike = ..., null_value: float | None = ...,
                   weight: _Weight = ..., device: bool = ..., round: bool = ...) -> _F | tuple[_F, _I32] | DeviceArray: ...
def dijkstra(csgraph: _Graph, directed: bool = ..., indices: _Indices = ..., return_predecessors: bool = ...,
             unweighted: bool = ..., limit: float = ..., min_only: bool = ..., *, backend: _Backend = ...,
             dtype: npt.DTypeLike = ..., null_value: float | None = ...,
             weight: _Weight = ..., round: bool = ...) -> _F | tuple[_F, _I32] | tuple[_F, _I32, _I32]: ...
def bellman_ford(csgraph: _Graph, directed: bool = ..., indices: _Indices = ..., return_predecessors: bool = ...,
                 unweighted: bool = ..., *, backend: _Backend = ..., dtype: npt.DTypeLike = ...,
                 null_value: float | None = ..., weight: _Weight = ..., round: bool = ...) -> _F | tuple[_F, _I32]: ...
def johnson(csgraph: _Graph, directed: bool = ..., indices: _Indices = ..., return_predecessors: bool = ...,
            unweighted: bool = ..., *, backend: _Backend = ..., dtype: npt.DTypeLike = ...,
            null_value: float | None = ..., weight: _Weight = ..., round: bool = ...) -> _F | tuple[_F, _I32]: ...
def reconstruct_path(csgraph: _Graph, predecessors: npt.ArrayLike, directed: bool = ..., *,
                     null_value: float | None = ..., weight: _Weight = ...) -> Any: ...
def closure(csgraph: _Graph, semiring: Literal["min_plus", "max_plus", "max_min", "min_max", "or_and"] = ..., *,
            directed: bool = ..., reflexive: bool = ..., dtype: npt.DTypeLike | None = ...,
            backend: _Backend = ..., null_value: float | None = ..., weight: _Weight = ...,
            device: bool = ..., round: bool = ...) -> npt.NDArray[Any] | DeviceArray: ...
def transitive_closure(G: _Graph, reflexive: bool | None = ..., *,
                       format: Literal["auto", "dense", "sparse", "networkx"] = ...,
                       backend: _Backend = ...) -> Any: ...
def shortest_path_blocks(csgraph: _Graph, block: int = ..., method: Literal["auto", "D", "J", "BF"] = ...,
                         directed: bool = ..., return_predecessors: bool = ..., unweighted: bool = ...,
                         indices: _Indices = ..., *, backend: _Backend = ..., dtype: npt.DTypeLike = ...,
                         null_value: float | None = ...,
                         weight: _Weight = ..., round: bool = ...) -> Iterator[tuple[npt.NDArray[np.int64], _F] |
                                                              tuple[npt.NDArray[np.int64], _F, _I32]]: ...
def cuda_available() -> bool: ...
def cuda_info() -> str: ...
def set_threads(n: int) -> None: ...
def get_threads() -> int: ...

class StarFactor:
    def __init__(self, csgraph: _Graph, semiring: Literal["min_plus", "max_plus", "max_min", "min_max", "or_and"] = ...,
                 *, directed: bool = ..., ordering: Literal["auto", "metis", "amd"] = ...,
                 dtype: npt.DTypeLike | None = ..., null_value: float | None = ...,
                 weight: str | None = ...) -> None: ...
    @property
    def shape(self) -> tuple[int, int]: ...
    @property
    def report(self) -> dict[str, Any]: ...
    def rows(self, indices: _Indices = ...) -> npt.NDArray[Any]: ...
    def cols(self, indices: _Indices = ...) -> npt.NDArray[Any]: ...
    def refactor(self, csgraph: _Graph) -> None: ...

def read_graph(path: str | Any, *, format: Literal["auto", "mtx", "dimacs", "edgelist", "npy", "dense"] = ...,
               dtype: npt.DTypeLike | None = ..., duplicates: Literal["min", "max", "first", "last", "plus", "error"] = ...,
               ids: Literal["zero", "one", "remap"] = ..., symmetrize: bool = ..., drop_self_loops: bool = ...,
               n: int | None = ..., round: bool = ..., absent: float | None = ..., return_ids: bool = ...) -> Any: ...
def write_graph(path: str | Any, graph: Any, *, format: Literal["auto", "mtx", "dimacs", "edgelist", "npy", "dense"] = ...,
                comment: str | None = ...) -> None: ...
