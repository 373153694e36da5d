"""What importing gspgraph costs and loads."""

import subprocess
import sys

import scipy.sparse.csgraph as cg

import gspgraph as gsp


def test_import_loads_no_scipy():
    # scipy.sparse costs a third of a second to import; a dense call needs none of it
    code = ("import sys, numpy as np, gspgraph as gsp; gsp.closure(np.ones((3, 3))); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('scipy', 'networkx')))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"


def test_negative_cycle_error_is_scipys():
    assert issubclass(gsp.NegativeCycleError, cg.NegativeCycleError)
    try:
        gsp.floyd_warshall([[0, -1], [-1, 0]])
    except cg.NegativeCycleError as e:
        assert isinstance(e, gsp.NegativeCycleError) and e.cycle
    else:
        raise AssertionError("no NegativeCycleError")
