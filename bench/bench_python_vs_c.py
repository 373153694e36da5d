#!/usr/bin/env python3
"""The Python call against the C call on the same inputs, in one run.

Each case writes its input once (a dense .npy or a Matrix Market file in a
scratch folder), times the Python call on the array or graph (median of
--reps runs after a warm-up) and runs bench_python_peer (bench/
bench_python_peer.c: the C user's call on the same file, host array in,
host array out, median of 3 after a warm-up), and prints python_s / c_s /
ratio (target: <= 1.10):

  fp32 closure       gsp.closure(W, 'min_plus', dtype=float32)  vs pack_dense -> closure -> unpack_dense
  fp32 floyd_warshall gsp.floyd_warshall(W, dtype=float32)       vs the same C call
  int32 closure      gsp.closure(W, dtype=int32)                vs the same, int32
  bool closure       gsp.transitive_closure(B, True, format='dense') vs OR_AND closure
  apsp sparse fp64   gsp.shortest_path(A) (4 arcs a vertex)      vs gsp_apsp + export_dense
  transitive_closure sparse out (m = 2n)                         vs the C closure with dense bytes out
  first call         a fresh process: import + the fp32 closure  vs a fresh C process's first call
  shortest_path vs CLI  gsp.shortest_path(A) against `gsp apsp A --no-sample` (same algorithm, time)
  fp32 closure device=True  gsp.closure(W, device=True) (result left on the GPU) vs pack -> closure ->
                     gsp_matrix_device_view (upload + kernel; target: C + 30 ms)
  reconstruct_path   gsp.reconstruct_path(A, P[0]) vs scipy's on the same arrays (peer: scipy, target <= 1)

    python bench/bench_python_vs_c.py --peer build/bench/bench_python_peer --cli build/gsp
    python bench/bench_python_vs_c.py ... --backend cuda --dense 8192,16384 --tc 16384,30000
Writes bench/results/python_vs_c_<backend>_<host>.csv.
"""

import argparse
import csv
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.io
import scipy.sparse as sp
import scipy.sparse.csgraph

import gspgraph as gsp


def median_time(f, reps):
    """Median seconds of f() over reps calls after a warm-up. The result is
    released after the clock stops, as the C peer frees its result after
    its clock (freeing a 2 GiB array, unmapping its pages, takes 0.1 s)."""
    f()  # warm-up: thread pool, device
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        r = f()
        ts.append(time.perf_counter() - t)
        del r
    return sorted(ts)[len(ts) // 2]


def peer(args, *rest):
    # the wait policy the Python module gives its own OpenMP threads (gsp's
    # __init__ and the gsp program set it where the user has not)
    env = dict(os.environ)
    if "OMP_WAIT_POLICY" not in env and "GOMP_SPINCOUNT" not in env:
        env["OMP_WAIT_POLICY"] = "PASSIVE"
    out = subprocess.run([args.peer, *map(str, rest)], check=True, capture_output=True, text=True, env=env).stdout
    return float(re.search(r"c_s ([0-9.eE+-]+)", out).group(1))


def dense_weights(n, seed, dtype):
    rng = np.random.default_rng(seed)
    present = rng.random((n, n)) < 0.125
    W = np.where(present, rng.integers(1, 1001, (n, n)), 0)
    return W.astype(dtype)


def sparse_graph(n, m, seed, weighted=True):
    rng = np.random.default_rng(seed)
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    keep = r != c
    w = rng.integers(1, 4097, keep.sum()).astype(np.float64) if weighted else np.ones(keep.sum())
    A = sp.coo_array((w, (r[keep], c[keep])), shape=(n, n)).tocsr()
    A.sum_duplicates()
    return A


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--peer", required=True, help="bench_python_peer binary")
    ap.add_argument("--cli", default=None, help="gsp binary (the shortest_path vs CLI row)")
    ap.add_argument("--backend", default="cpu", choices=["cpu", "cuda", "auto"])
    ap.add_argument("--dense", default="1024,2048", help="dense closure sizes")
    ap.add_argument("--sparse", default="8192", help="apsp sizes (4 arcs a vertex)")
    ap.add_argument("--tc", default="8192", help="transitive closure sizes (m = 2n)")
    ap.add_argument("--first-n", type=int, default=2048, help="first-call size (4096 on the GPU)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    be = a.backend
    rows = []

    def row(case, n, py_s, c_s, note=""):
        r = dict(case=case, n=n, backend=be, python_s=round(py_s, 4), c_s=round(c_s, 4) if c_s else "",
                 ratio=round(py_s / c_s, 3) if c_s else "", note=note)
        rows.append(r)
        print("%-26s n=%-6d python %9.4f s   C %9s s   ratio %6s  %s" % (
            case, n, py_s, "%.4f" % c_s if c_s else "-", "%.3f" % (py_s / c_s) if c_s else "-", note), flush=True)

    print("gsp %s, %d CPUs, GPU: %s" % (gsp.__version__, os.cpu_count(), gsp.cuda_info()))
    with tempfile.TemporaryDirectory() as tmp:
        for n in [int(x) for x in a.dense.split(",") if x]:
            W = dense_weights(n, n, np.float32)
            W[W == 0] = np.inf  # the C user's absent value; a non-edge for scipy too
            f = os.path.join(tmp, "w32.npy")
            np.save(f, W)
            c = peer(a, "closure", f, "fp32", "min_plus", be)
            row("fp32 closure", n, median_time(lambda: gsp.closure(W, dtype=np.float32, backend=be), a.reps), c)
            row("fp32 floyd_warshall", n,
                median_time(lambda: gsp.floyd_warshall(W, dtype=np.float32, backend=be), a.reps), c,
                gsp.last_run.get("method", ""))
            Wi = dense_weights(n, n, np.int32)  # 0: no arc (scipy's null value)
            Ci = np.where(Wi == 0, np.iinfo(np.int32).max, Wi).astype(np.int32)
            np.save(f, Ci)
            c = peer(a, "closure", f, "int32", "min_plus", be)
            row("int32 closure", n, median_time(lambda: gsp.closure(Wi, dtype=np.int32, backend=be), a.reps), c)
            if be != "cpu" and gsp.cuda_available() and n == max(int(x) for x in a.dense.split(",") if x):
                np.save(f, W)
                row("fp32 closure device=True", n, median_time(
                    lambda: gsp.closure(W, dtype=np.float32, device=True), a.reps), peer(a, "device", f),
                    "C: upload + kernel (device_view); target C + 0.030 s")
            B = np.random.default_rng(n).random((n, n)) < 1.0 / 64
            np.save(f, B)
            c = peer(a, "closure", f, "bool", "or_and", be)
            row("bool closure", n, median_time(
                lambda: gsp.transitive_closure(B, reflexive=True, format="dense", backend=be), a.reps), c)
        for n in [int(x) for x in a.sparse.split(",") if x]:
            A = sparse_graph(n, 4 * n, n)
            f = os.path.join(tmp, "g.mtx")
            scipy.io.mmwrite(f, A)
            c = peer(a, "apsp", f, be)
            t = median_time(lambda: gsp.shortest_path(A, backend=be), a.reps)
            lr = gsp.last_run
            row("apsp sparse fp64", n, t, c, "%s; prepare %.3f compute %.3f device %.3f copy %.3f finish %.3f s" % (
                lr.get("method", ""), *(lr.get(k, 0.0) for k in ("prepare_s", "compute_s", "device_s", "copy_s",
                                                                  "finish_s"))))
            _, P = gsp.shortest_path(A, indices=0, return_predecessors=True, backend=be)
            t_gsp = median_time(lambda: gsp.reconstruct_path(A, P), 5)
            t_sp = median_time(lambda: scipy.sparse.csgraph.reconstruct_path(A, P), 5)
            row("reconstruct_path vs scipy", n, t_gsp, t_sp, "peer: scipy.sparse.csgraph.reconstruct_path")
            if a.cli:
                env = dict(os.environ, GSP_BACKEND=be if be != "auto" else "")
                tc = []
                for _ in range(2):
                    out = subprocess.run([a.cli, "apsp", f, "--no-sample", "-t", "fp64"], env=env, check=True,
                                         capture_output=True, text=True).stdout
                    m = re.search(r"closure by (\w+) \([^)]*\): ([0-9.]+) s", out)
                    tc.append(float(m.group(2)))
                row("shortest_path vs gsp apsp", n, t, min(tc), "python %s, cli %s" % (
                    gsp.last_run.get("method", ""), m.group(1)))
        for n in [int(x) for x in a.tc.split(",") if x]:
            G = sparse_graph(n, 2 * n, n + 1, weighted=False)
            f = os.path.join(tmp, "b.npy")
            np.save(f, G.toarray() != 0)
            c = peer(a, "closure", f, "bool", "or_and", be)
            t = median_time(lambda: gsp.transitive_closure(G, format="sparse", backend=be), max(1, a.reps - 1))
            R = gsp.transitive_closure(G, format="sparse", backend=be)
            row("transitive_closure sparse", n, t, c, "%d pairs; C: dense bytes out" % R.nnz)
            del R
        n = a.first_n
        W = dense_weights(n, 7, np.float32)
        W[W == 0] = np.inf
        f = os.path.join(tmp, "first.npy")
        np.save(f, W)
        code = ("import time, numpy as np; W = np.load(%r); t = time.perf_counter(); import gspgraph as gsp; "
                "D = gsp.closure(W, dtype=np.float32, backend=%r); print(time.perf_counter() - t)" % (f, be))
        # the median of three fresh processes each (a process's first call
        # starts the device: its time varies by 0.1 s from one to the next)
        py_first = sorted(float(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                                               text=True).stdout.split()[-1]) for _ in range(3))[1]
        c_first = sorted(peer(a, "first", f, be) for _ in range(3))[1]
        row("first call (import + call)", n, py_first, c_first, "median of 3 processes; target C + 0.050 s")
    out = a.out or os.path.join(os.path.dirname(os.path.abspath(__file__)), "results",
                                "python_vs_c_%s_%s.csv" % (be, platform.node() or "host"))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print("wrote", out)


if __name__ == "__main__":
    main()
