"""The exceptions gsp raises.

NegativeCycleError subclasses scipy's (so that ``except
scipy.sparse.csgraph.NegativeCycleError`` catches gsp's too), but importing
scipy.sparse costs a third of a second: the class is made on first use (an
attribute access or a raise), not when gsp is imported.
"""

from __future__ import annotations


class GspError(RuntimeError):
    """A gsp library call failed; the message is gsp_last_error()'s sentence.

    Attributes
    ----------
    code : int
        The gsp_info code of the failure (negative).
    """

    code = -99


def _make_negative_cycle_error():
    try:
        from scipy.sparse.csgraph import NegativeCycleError as base
    except ImportError:  # pragma: no cover - scipy is optional
        base = Exception

    class NegativeCycleError(base):
        """The graph has a negative cycle.

        A subclass of ``scipy.sparse.csgraph.NegativeCycleError`` when scipy
        is installed.

        Attributes
        ----------
        cycle : list of int
            Vertices of one negative cycle, in order (empty when none could
            be named, e.g. a positive cycle of ``max_plus``).
        """

        def __init__(self, message="", cycle=()):
            self.cycle = [int(v) for v in cycle]
            if self.cycle:
                message = "Negative cycle in nodes [%s]: %s" % (" ".join(map(str, self.cycle)), message)
            super().__init__(message)

    NegativeCycleError.__module__ = "gspgraph"
    return NegativeCycleError


def __getattr__(name):
    if name == "NegativeCycleError":
        cls = globals()["NegativeCycleError"] = _make_negative_cycle_error()
        return cls
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def negative_cycle(message="", cycle=()):
    """A NegativeCycleError instance (the extension raises what this returns)."""
    cls = globals().get("NegativeCycleError") or __getattr__("NegativeCycleError")
    return cls(message, cycle)
