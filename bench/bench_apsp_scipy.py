#!/usr/bin/env python3
"""scipy.sparse.csgraph.johnson on the graphs of bench_apsp, side by side.

bench_apsp --write-graphs DIR writes the negative variant of each graph as
DIR/<name>.mtx. For each, this script times scipy's johnson (one core)
from k/2 and from k sources after a warm-up (indices=, the same sample
sources as bench_apsp: S[i] = (i * 1000003 + 7) mod n), and extrapolates
to all n sources: t(k) + (t(k) - t(k/2)) / (k/2) * (n - k), i.e. the
one-time Bellman-Ford once and the per-source Dijkstra n times. Rows are labeled
"extrapolated from k sources". It also prints the checksum of the first 32
sample rows (count / sum of finite distances), which must equal bench_apsp's
"check" column of the negative variant. Each graph runs in a child process
with a time limit (--per-graph seconds); a graph over it is reported as
such.

Usage: bench_apsp_scipy.py DIR [--per-graph S] [--k K] [--csv FILE]
"""
import argparse
import glob
import multiprocessing as mp
import os
import time

NCHECK = 32


def sample(i, n):
    return (i * 1000003 + 7) % n


def work(path, k, q):
    import numpy as np
    import scipy.io
    from scipy.sparse.csgraph import johnson

    G = scipy.io.mmread(path).tocsr()
    n = G.shape[0]
    k = min(k, n)
    S = np.array([sample(i, n) for i in range(k)])
    t0 = time.perf_counter()
    johnson(G, indices=S[:1])  # warm-up; also how long one source takes
    t1 = time.perf_counter() - t0
    q.put(("t1", n, G.nnz, t1))
    h = max(k // 2, 1)
    t0 = time.perf_counter()
    johnson(G, indices=S[:h])
    th = time.perf_counter() - t0
    t0 = time.perf_counter()
    D = johnson(G, indices=S)
    tk = time.perf_counter() - t0
    rows = D[: min(NCHECK, k)]
    fin = np.isfinite(rows)
    q.put(("tk", n, G.nnz, th, tk, h, k, int(fin.sum()), float(rows[fin].sum())))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--per-graph", type=float, default=40)
    ap.add_argument("--k", type=int, default=256)
    ap.add_argument("--csv")
    a = ap.parse_args()
    import scipy

    print(f"scipy {scipy.__version__} csgraph.johnson, one core; extrapolated per source from indices= runs\n")
    print(f"| {'graph':16} | {'n':>7} | {'arcs':>7} | {'run':32} | {'seconds (all n)':>15} | "
          f"{'tasks/s':>9} | {'check (count / sum)':22} |")
    print("|------------------|---------|---------|----------------------------------|-----------------|"
          "-----------|------------------------|")
    csv = open(a.csv, "a") if a.csv else None
    if csv:
        csv.write("graph,n,m,seconds_extrapolated,t_half,t_k,k,check_count,check_sum,note\n")
    for path in sorted(glob.glob(os.path.join(a.dir, "*.mtx")), key=os.path.getsize):
        name = os.path.basename(path)[:-4]
        q = mp.Queue()
        p = mp.Process(target=work, args=(path, a.k, q))
        p.start()
        p.join(a.per_graph)
        msgs = []
        while not q.empty():
            msgs.append(q.get())
        if p.is_alive():
            p.terminate()
            p.join()
        done = [m for m in msgs if m[0] == "tk"]
        if done:
            _, n, m, th, tk, h, k, cnt, s = done[0]
            # per source from the difference of the two runs; if noise
            # makes it non-positive, the average of the k-source run
            per = (tk - th) / (k - h) if k > h and tk > th else tk / k
            full = tk + per * (n - k)
            t1 = th
            run = f"extrapolated from {k} sources"
            print(f"| {name:16} | {n:7} | {m:7} | {run:32} | {full:15.1f} | {n * m / full:9.3g} | "
                  f"{f'{cnt} / {s:.0f}':22} |")
            if csv:
                csv.write(f"{name},{n},{m},{full:.6g},{t1:.6g},{tk:.6g},{k},{cnt},{s:.17g},\n")
        else:
            t1 = [m for m in msgs if m[0] == "t1"]
            note = (f"1 source took {t1[0][3]:.1f} s; {a.k} sources did not finish in {a.per_graph:.0f} s"
                    if t1 else f"1 source did not finish in {a.per_graph:.0f} s")
            print(f"| {name:16} | {'':7} | {'':7} | {note:32} |")
            if csv:
                csv.write(f"{name},,,,,,,,,\"{note}\"\n")
        if csv:
            csv.flush()


if __name__ == "__main__":
    main()
