#!/usr/bin/env python3
"""scipy.sparse.csgraph.dijkstra on the all-pairs graphs of bench_sssp.

Usage: apsp_scipy.py BUDGET_SECONDS FILE.mtx [FILE.mtx ...]
(the files come from `bench_sssp --dump-dir DIR`). For each graph: time
dijkstra(indices=K sources) with K grown from 8 until a run takes about
BUDGET/2 seconds (or K = n), then report the measured time and the all-pairs
time EXTRAPOLATED by n/K. One table row per graph on stdout, CSV-style
lines prefixed 'csv,' too.
"""
import sys
import time

import numpy as np
import scipy
import scipy.io
from scipy.sparse.csgraph import dijkstra


def main():
    budget = float(sys.argv[1])
    print(f"scipy {scipy.__version__} dijkstra (one core), sources = a prefix of 0..n-1")
    print("| graph | n | arcs | sources | measured s | all-pairs s | GTEPS | note |")
    print("|---|---|---|---|---|---|---|---|")
    for path in sys.argv[2:]:
        A = scipy.io.mmread(path).tocsr().astype(np.float64)
        n, m = A.shape[0], A.nnz
        k, t = 8, 0.0
        while True:
            k = min(k, n)
            t0 = time.perf_counter()
            dijkstra(A, directed=True, indices=np.arange(k))
            t = time.perf_counter() - t0
            if k == n or t > budget / 4:
                break
            k = min(n, max(k * 2, int(k * (budget / 2) / max(t, 1e-6))))
        allp = t * n / k
        note = "measured" if k == n else f"EXTRAPOLATED x n/{k}"
        name = path.rsplit("/", 1)[-1]
        print(f"| {name} | {n} | {m} | {k} | {t:.3f} | {allp:.3f} | {n * m / allp / 1e9:.4f} | {note} |")
        print(f"csv,apsp-scipy,{name},{n},{m},{k},{t:.6f},{allp:.6f},{note}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
