#!/usr/bin/env python3
"""scipy.sparse.csgraph.floyd_warshall on the graphs of bench_closure_cpu.

Same graph for the same (n, density, seed): edge (i, j), i != j, when the
uniform draw u1(k) < density, weight 1 + (r2(k) mod 100), k = i*n + j, with
u1 and r2 from splitmix64 at counters 2k+1 and 2k+2 (bench_closure_cpu.c).
The graph is handed over as a float32 CSR matrix (explicit entries are
edges; scipy computes in float64 internally). Timed: the floyd_warshall call,
median of the repeats after one warm-up (no warm-up with --no-warmup, for
sizes where one run takes a minute). Prints a table and, with --csv, writes
rows in the same columns as bench_closure_cpu, plus a checksum of the
result (sum and count of finite distances) to compare the two programs.
"""
import argparse
import statistics
import sys
import time

import numpy as np
import scipy
import scipy.sparse as sp
from scipy.sparse.csgraph import floyd_warshall

GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def mix64(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def make_graph(n, density, seed):
    rows, cols, vals = [], [], []
    seed = np.uint64(seed)
    with np.errstate(over="ignore"):
        for i0 in range(0, n, 256):  # row blocks keep the temporaries small
            i1 = min(n, i0 + 256)
            k = (np.arange(i0 * n, i1 * n, dtype=np.uint64))
            u = (mix64(seed + (np.uint64(2) * k + np.uint64(1)) * GOLDEN) >> np.uint64(11)).astype(np.float64) * 2.0**-53
            i = (k // np.uint64(n)).astype(np.int64)
            j = (k % np.uint64(n)).astype(np.int64)
            keep = (u < density) & (i != j)
            w = 1.0 + (mix64(seed + (np.uint64(2) * k[keep] + np.uint64(2)) * GOLDEN) % np.uint64(100)).astype(np.float64)
            rows.append(i[keep])
            cols.append(j[keep])
            vals.append(w.astype(np.float32))
    r, c, v = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
    return sp.csr_matrix((v, (r, c)), shape=(n, n), dtype=np.float32)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", default="1024,2048")
    ap.add_argument("-r", "--reps", type=int, default=5)
    ap.add_argument("-d", "--density", type=float, default=0.1)
    ap.add_argument("-s", "--seed", type=int, default=42)
    ap.add_argument("--no-warmup", action="store_true")
    ap.add_argument("--csv")
    a = ap.parse_args()
    out = open(a.csv, "w") if a.csv else None
    if out:
        out.write("impl,n,type,density,seed,threads,reps,median_s,min_s,tasks_per_s,finite,sum_finite\n")
    print(f"scipy {scipy.__version__} floyd_warshall (float64 inside, one thread), "
          f"density {a.density:g}, seed {a.seed}")
    print(f"{'n':>7} {'median_s':>12} {'min_s':>12} {'tasks/s':>14} {'finite':>10} {'sum_finite':>16}")
    for n in (int(x) for x in a.n.split(",")):
        g = make_graph(n, a.density, a.seed)
        if not a.no_warmup:
            floyd_warshall(g, directed=True)
        times, dist = [], None
        for _ in range(a.reps):
            t0 = time.perf_counter()
            dist = floyd_warshall(g, directed=True)
            times.append(time.perf_counter() - t0)
        fin = np.isfinite(dist)
        nfin, total = int(fin.sum()), float(dist[fin].sum())
        med = statistics.median(times)
        print(f"{n:>7} {med:>12.4f} {min(times):>12.4f} {n**3 / med:>14.4g} {nfin:>10} {total:>16.1f}")
        sys.stdout.flush()
        if out:
            out.write(f"scipy,{n},fp32,{a.density:g},{a.seed},1,{a.reps},{med:.6f},{min(times):.6f},"
                      f"{n**3 / med:.6g},{nfin},{total:.1f}\n")
            out.flush()
    if out:
        out.close()


if __name__ == "__main__":
    main()
