#!/usr/bin/env python3
"""scipy.sparse.csgraph.dijkstra on the graphs `bench_sssp --dump DIR` wrote.

For each graph in DIR (files <graph>_indptr.i64, _indices.i32, _weights.f64,
_sources.i64, _dist.f64): time dijkstra from the first timed sources (the
same ones bench_sssp's first algorithm used, warm-up skipped), report ms,
GTEPS (arcs / time) and GTEPS_r (out-arcs of reached vertices / time), and
check that scipy's distances from the first source equal gsp's.

Usage: bench_sssp_scipy.py DIR [max_runs] [budget_seconds_per_graph]
Prints table rows in bench_sssp's layout, then CSV lines prefixed 'csv,'.
"""
import glob
import os
import sys
import time

import numpy as np
import scipy
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra


def main():
    d = sys.argv[1]
    max_runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    budget = float(sys.argv[3]) if len(sys.argv) > 3 else 60.0
    names = sorted(os.path.basename(p)[: -len("_indptr.i64")] for p in glob.glob(os.path.join(d, "*_indptr.i64")))
    rows = []
    for name in names:
        f = lambda what: os.path.join(d, f"{name}_{what}")
        indptr = np.fromfile(f("indptr.i64"), dtype=np.int64)
        indices = np.fromfile(f("indices.i32"), dtype=np.int32)
        w = np.fromfile(f("weights.f64"), dtype=np.float64)
        srcs = np.fromfile(f("sources.i64"), dtype=np.int64)
        ours = np.fromfile(f("dist.f64"), dtype=np.float64)
        n, m = len(indptr) - 1, len(indices)
        A = csr_matrix((w, indices, indptr), shape=(n, n))
        deg = np.diff(indptr)
        timed = list(srcs[1:] if len(srcs) > 1 else srcs)
        t, rate, ok = [], [], None
        start = time.perf_counter()
        for k, s in enumerate(timed[:max_runs]):
            t0 = time.perf_counter()
            dist = dijkstra(A, directed=True, indices=int(s))
            dt = time.perf_counter() - t0
            reached = np.isfinite(dist)
            t.append(dt)
            rate.append(float(deg[reached].sum()) / dt)
            if k == 0:
                ok = bool(np.array_equal(dist, ours))
                nreached = int(reached.sum())
            if time.perf_counter() - start > budget:
                break
        t.sort()
        rate.sort()
        med, lo, r = t[len(t) // 2], t[0], rate[len(rate) // 2]
        rows.append(
            f"| {name:<10} | {n:9d} | {m:10d} | {'scipy dijkstra':<14} | {med*1e3:9.2f} | {lo*1e3:9.2f} | "
            f"{m/med/1e9:8.4f} | {r/1e9:8.4f} | {nreached:9d} | runs {len(t)}, dist == gsp: {ok}"
        )
        print(rows[-1], flush=True)
        print(f"csv,sssp,scipy,\"scipy {scipy.__version__} dijkstra (1 thread)\",fp64,{name},{n},{m},dijkstra,"
              f"{len(t)},{med:.6f},{lo:.6f},{m/med/1e9:.6g},GTEPS", flush=True)
        print(f"csv,sssp,scipy,\"scipy {scipy.__version__} dijkstra (1 thread)\",fp64,{name},{n},{m},dijkstra,"
              f"{len(t)},{med:.6f},{lo:.6f},{r/1e9:.6g},GTEPS_r", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
