"""Results that stay in GPU memory, handed to CuPy, PyTorch & co. through DLPack."""

from __future__ import annotations

import numpy as np

from . import _core

_KDLCUDA = 2
_DTYPE = {"i": np.dtype(np.int32), "q": np.dtype(np.int64), "f": np.dtype(np.float32), "d": np.dtype(np.float64)}


class DeviceArray:
    """
    A dense N x N result in GPU memory, for array libraries that read DLPack.

    Returned by ``closure(..., device=True)``, ``shortest_path(...,
    device=True)`` and ``floyd_warshall(..., device=True)``. It is gsp's
    own device copy of the result, handed out without a copy:
    ``torch.from_dlpack(D)``, ``cupy.from_dlpack(D)`` (or ``cupy.asarray(D)``
    through ``__cuda_array_interface__``) give tensors that share its
    memory. The memory is freed once this object and every tensor made
    from it are gone.

    Attributes
    ----------
    shape : tuple of int
        ``(N, N)``.
    dtype : numpy.dtype
        float64, float32, int64 or int32.
    device_id : int
        The CUDA device holding the data.
    ld : int
        Row stride in elements (``>= N``: rows are padded for the GPU
        kernels; consumers see strides ``(ld, 1)``, not a contiguous array).
    absent : scalar
        The value of pairs with no path, the semiring's zero: ``inf`` for
        ``min_plus`` and ``min_max`` (as scipy has it), ``-inf`` for
        ``max_plus`` and ``max_min``; for integer dtypes the largest
        (``min_plus``, ``min_max``) or smallest (``max_plus``,
        ``max_min``) value of the type.

    Notes
    -----
    The data is complete when the call that made it returns (gsp
    synchronises the device), so a consumer may read it on any stream;
    ``__dlpack__`` ignores `stream` beyond checking it. Writes through a
    consumer's tensor change this result.
    """

    __slots__ = ("_h", "_ptr", "_n", "_ld", "_device", "_dtype", "_absent")

    def __init__(self, handle, absent):
        ptr, n, ld, device, code = handle.info()
        self._h = handle
        self._ptr, self._n, self._ld, self._device = ptr, n, ld, device
        self._dtype = _DTYPE[code]
        self._absent = self._dtype.type(absent)

    shape = property(lambda self: (self._n, self._n), doc="(N, N)")
    ndim = property(lambda self: 2, doc="2")
    size = property(lambda self: self._n * self._n, doc="N * N")
    dtype = property(lambda self: self._dtype, doc="The element type (a numpy dtype).")
    device_id = property(lambda self: self._device, doc="The CUDA device holding the data.")
    ld = property(lambda self: self._ld, doc="Row stride in elements (>= N).")
    absent = property(lambda self: self._absent, doc="The value of pairs with no path.")

    def __repr__(self):
        return "gsp.DeviceArray(shape=%s, dtype=%s, device='cuda:%d', ld=%d)" % (
            self.shape, self._dtype, self._device, self._ld)

    def __dlpack_device__(self):
        """``(2, device_id)``: kDLCUDA and the device holding the data."""
        return (_KDLCUDA, self._device)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """
        Export the data as a DLPack capsule (the array API's protocol).

        Parameters
        ----------
        stream : int or None, optional
            The consumer's CUDA stream (1: the legacy default stream, 2:
            the per-thread one, -1: no synchronisation). The data is
            already complete, so no stream needs to wait; 0 is refused as
            the protocol asks.
        max_version : tuple of int or None, optional
            The highest DLPack version the consumer reads. ``(1, 0)`` or
            above gives a ``"dltensor_versioned"`` capsule (DLPack 1.0's
            ``DLManagedTensorVersioned``); None or an older version the
            unversioned ``"dltensor"`` capsule.
        dl_device : tuple of int or None, optional
            Must be None or ``__dlpack_device__()``: gsp does not move the
            data to another device.
        copy : bool or None, optional
            None or False: the tensor shares gsp's memory. True is refused
            (``BufferError``): copy on the consumer's side.

        Returns
        -------
        capsule : PyCapsule
            Holding a reference on the data; consumed once, by the
            consumer's ``from_dlpack``.
        """
        if stream is not None:
            if not isinstance(stream, int) or isinstance(stream, bool):
                raise TypeError("stream must be an int or None, not %r" % (stream,))
            if stream == 0:
                raise ValueError("stream 0 is ambiguous for CUDA: pass 1 (legacy default) or 2 (per-thread)")
        if dl_device is not None and tuple(dl_device) != self.__dlpack_device__():
            raise BufferError("gsp.DeviceArray lives on %r and cannot be exported to %r"
                              % (self.__dlpack_device__(), tuple(dl_device)))
        if copy:
            raise BufferError("gsp.DeviceArray is exported without a copy; copy on the consumer's side")
        versioned = max_version is not None and int(max_version[0]) >= 1
        return self._h.dlpack(versioned)

    @property
    def __cuda_array_interface__(self):
        """CUDA Array Interface v3 (CuPy's ``asarray``, Numba): strided, no stream to wait on."""
        item = self._dtype.itemsize
        return {"shape": self.shape, "typestr": self._dtype.str, "data": (self._ptr, False), "version": 3,
                "strides": (self._ld * item, item), "stream": None}


def closure_device(spec, mode, semiring_code, reflexive, absent):
    """The closure of spec on the GPU as a DeviceArray."""
    return DeviceArray(_core.closure_device(spec, mode, semiring_code, reflexive), absent)


def check_backend(backend):
    if backend not in ("auto", "cuda"):
        raise ValueError("device=True computes on the GPU: backend must be 'cuda' or 'auto', not %r" % (backend,))
