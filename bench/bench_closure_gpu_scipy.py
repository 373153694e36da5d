#!/usr/bin/env python3
"""Peer for bench_closure_gpu: scipy.sparse.csgraph.floyd_warshall (CPU, one
core) on a dense random graph with weights 1..1000, median of a few runs.
Prints CSV rows in bench_closure_gpu's format (no header)."""
import sys
import time

import numpy as np
from scipy.sparse.csgraph import floyd_warshall

budget = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0  # seconds in all
spent = 0.0
for n in (512, 1024, 2048, 4096):
    rng = np.random.default_rng(n)
    a = rng.integers(1, 1001, size=(n, n)).astype(np.float64)
    floyd_warshall(a[:64, :64], directed=True)  # warm-up
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        floyd_warshall(a, directed=True)
        times.append(time.perf_counter() - t0)
        spent += times[-1]
    t = sorted(times)[len(times) // 2]
    print(f'"cpu (scipy)",scipy-fw,fp64,min_plus,{n},{t:.6f},{n**3 / t:.6e},1.3e13,{n**3 / t / 1.3e13:.3f},3',
          flush=True)
    if spent + 3 * 8 * t > budget:  # the next size costs ~8x
        break
