"""Threads under contention: the thread count follows the process's CPU
affinity at each call, and importing gsp leaves the environment as it was."""

import os
import subprocess
import sys

import pytest

import gspgraph as gsp


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs sched_setaffinity and at least 2 CPUs to narrow the mask to one")
def test_thread_count_follows_an_affinity_narrowed_after_import():
    code = ("import os, gspgraph as gsp\n"
            "before = gsp.get_threads()\n"
            "os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})\n"
            "print(before, gsp.get_threads())\n")
    env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
    before, after = map(int, subprocess.check_output([sys.executable, "-c", code], env=env, text=True).split())
    assert before >= 2 and after == 1


def test_import_leaves_the_wait_policy_environment_as_it_was():
    code = "import os, gspgraph as gsp; print(os.environ.get('OMP_WAIT_POLICY', '-'))"
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    assert subprocess.check_output([sys.executable, "-c", code], env=env, text=True).strip() == "-"
    env["OMP_WAIT_POLICY"] = "active"
    assert subprocess.check_output([sys.executable, "-c", code], env=env, text=True).strip() == "active"
    # explicit thread counts are kept as they are
    gsp.set_threads(1)
    try:
        assert gsp.get_threads() == 1
    finally:
        gsp.set_threads(0)
