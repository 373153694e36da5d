"""The exceptions gsp raises."""

from __future__ import annotations

try:  # so that ``except scipy.sparse.csgraph.NegativeCycleError`` catches gsp's too
    from scipy.sparse.csgraph import NegativeCycleError as _Base
except ImportError:  # pragma: no cover - scipy is optional
    _Base = Exception


class GspError(RuntimeError):
    """A gsp library call failed; the message is gsp_last_error()'s sentence.

    Attributes
    ----------
    code : int
        The gsp_info code of the failure (negative).
    """

    code = -99


class NegativeCycleError(_Base):
    """The graph has a negative cycle.

    A subclass of ``scipy.sparse.csgraph.NegativeCycleError`` when scipy is
    installed.

    Attributes
    ----------
    cycle : list of int
        Vertices of one negative cycle, in order (empty when none could be
        named, e.g. a positive cycle of ``max_plus``).
    """

    def __init__(self, message="", cycle=()):
        self.cycle = [int(v) for v in cycle]
        if self.cycle:
            message = "Negative cycle in nodes [%s]: %s" % (" ".join(map(str, self.cycle)), message)
        super().__init__(message)
