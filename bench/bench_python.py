#!/usr/bin/env python3
"""gsp.shortest_path against scipy.sparse.csgraph.shortest_path, same graphs, same run.

Graphs: dense n = 2048 and 4096 (numpy arrays, every arc present, integer
weights 1..100) and sparse n = 20000, m = 100000 (scipy CSR, random arcs,
integer weights 1..100). gsp computes every result in full, after one
warm-up call (the GPU context and thread pool start once a process), and
reports the median of --reps runs. scipy is timed
in full where that takes reasonable time and otherwise extrapolated, as the
table says:
  - dense: scipy's Floyd-Warshall (its fastest method there), in full for
    n <= --scipy-full-n (2048), else from the largest measured n times
    (n / n0)^3 (Floyd-Warshall's work is exactly n^3);
  - sparse: scipy's Dijkstra on --scipy-sources sources (500), times
    n / sources (each source costs the same work on a uniform random graph).
Distances of the rows both computed are compared (they must be equal).
Beside each wall time the process CPU time (user + system, all threads) of
the same call: on a shared machine that schedules each process a fair
share, the CPU times' ratio is the one that does not move with the load.

    python bench/bench_python.py                    # CPU: backend='cpu'
    python bench/bench_python.py --backend cuda     # GPU
Writes bench/results/python_<backend>_<host>.csv.
"""

import argparse
import csv
import os
import platform
import resource
import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph as cg

import gspgraph as gsp


def dense_graph(n, seed):
    rng = np.random.default_rng(seed)
    W = rng.integers(1, 101, (n, n)).astype(np.float64)
    np.fill_diagonal(W, 0)
    return W


def sparse_graph(n, m, seed):
    rng = np.random.default_rng(seed)
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    keep = r != c
    A = sp.coo_array((rng.integers(1, 101, m)[keep].astype(np.float64), (r[keep], c[keep])), shape=(n, n))
    return A.tocsr()


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def timed(f):
    """(wall seconds, process CPU seconds, result) of f()."""
    c, t = cpu_seconds(), time.perf_counter()
    out = f()
    return time.perf_counter() - t, cpu_seconds() - c, out


def timed_median(f, reps):
    """Median of reps runs by wall time (the last result kept): gsp's calls
    are short."""
    runs, out = [], None
    for _ in range(reps):
        del out
        t, c, out = timed(f)
        runs.append((t, c))
    t, c = sorted(runs)[len(runs) // 2]
    return t, c, out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backend", default="cpu", choices=["cpu", "cuda", "auto"])
    ap.add_argument("--dense", default="2048,4096", help="dense sizes (comma-separated; empty: none)")
    ap.add_argument("--sparse", default="20000:100000", help="sparse n:m pairs (comma-separated; empty: none)")
    ap.add_argument("--scipy-full-n", type=int, default=2048, help="largest dense n scipy runs in full")
    ap.add_argument("--scipy-sources", type=int, default=500, help="sources scipy's Dijkstra runs on (sparse)")
    ap.add_argument("--reps", type=int, default=3, help="gsp runs per graph (the median is reported)")
    ap.add_argument("--out", default=None, help="CSV path (default bench/results/python_<backend>_<host>.csv)")
    a = ap.parse_args()

    cases = [("dense", int(n), int(n) * (int(n) - 1)) for n in a.dense.split(",") if n]
    cases += [("sparse", int(p.split(":")[0]), int(p.split(":")[1])) for p in a.sparse.split(",") if p]
    ok, desc = gsp.cuda_available(), gsp.cuda_info()
    print("gsp %s, scipy %s, threads %s, GPU: %s" % (gsp.__version__, __import__("scipy").__version__,
                                                     os.cpu_count(), desc if ok else "none (%s)" % desc))
    # warm-up: the GPU's context, the CUDA plugin and the thread pool start
    # on the first call, once a process, as a user's program pays them once
    gsp.shortest_path(dense_graph(64, 0), backend=a.backend)
    rows = []
    fw_ref = None  # (n, seconds) of the largest full scipy Floyd-Warshall
    for kind, n, m in cases:
        G = dense_graph(n, 1) if kind == "dense" else sparse_graph(n, m, 1)
        t_gsp, c_gsp, D = timed_median(lambda: gsp.shortest_path(G, backend=a.backend), a.reps)
        ran = dict(gsp.last_run)
        if "compute_s" in ran:  # where the last call's time went
            print("  gsp phases: prepare %.3f s, compute %.3f s (device %.3f s, copies %.3f s), finish %.3f s" % tuple(
                ran[k] for k in ("prepare_s", "compute_s", "device_s", "copy_s", "finish_s")))
        if kind == "dense" and n <= a.scipy_full_n:
            t_sc, c_sc, R = timed(lambda: cg.shortest_path(G, method="FW"))
            how, ok_rows = "FW, full", np.array_equal(D, R)
            fw_ref = (n, t_sc, c_sc)
            del R
        elif kind == "dense":
            if fw_ref is None:
                t0, c0, _ = timed(lambda: cg.shortest_path(G[:1024, :1024], method="FW"))
                fw_ref = (1024, t0, c0)
            t_sc, c_sc = fw_ref[1] * (n / fw_ref[0]) ** 3, fw_ref[2] * (n / fw_ref[0]) ** 3
            how = "FW, extrapolated from n=%d" % fw_ref[0]
            idx = np.arange(8)
            ok_rows = np.array_equal(D[idx], cg.dijkstra(G, indices=idx))
        else:
            k = min(a.scipy_sources, n)
            idx = np.linspace(0, n - 1, k).astype(np.int64)
            t_k, c_k, R = timed(lambda: cg.shortest_path(G, method="D", indices=idx))
            t_sc, c_sc = t_k * n / k, c_k * n / k
            how = "D, %d sources x %d" % (k, n // k) if n % k == 0 else "D, %d sources x %.1f" % (k, n / k)
            ok_rows = np.array_equal(D[idx], R)
        del D
        row = dict(graph=kind, n=n, m=m if kind == "sparse" else n * (n - 1), gsp_backend=ran.get("backend"),
                   gsp_method=ran.get("method"), gsp_s=round(t_gsp, 3), scipy_s=round(t_sc, 3), scipy_how=how,
                   speedup=round(t_sc / t_gsp, 1), gsp_cpu_s=round(c_gsp, 3), scipy_cpu_s=round(c_sc, 3),
                   cpu_speedup=round(c_sc / max(c_gsp, 1e-9), 1), equal=bool(ok_rows))
        rows.append(row)
        print("%-6s n=%-6d m=%-9d gsp %8.2f s (%s, %s)  scipy %9.2f s (%s)  speed-up %7.1fx  "
              "CPU s %.2f / %.2f = %.1fx  equal %s" % (kind, n, row["m"], t_gsp, row["gsp_method"], row["gsp_backend"],
                                                     t_sc, how, row["speedup"], c_gsp, c_sc, row["cpu_speedup"], ok_rows))
    out = a.out or os.path.join(os.path.dirname(os.path.abspath(__file__)), "results",
                                "python_%s_%s.csv" % (a.backend, platform.node() or "host"))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print("wrote", out)
    if not all(r["equal"] for r in rows):
        raise SystemExit("gsp and scipy distances differ")


if __name__ == "__main__":
    main()
