#!/usr/bin/env python3
"""The sparse star's benchmark graphs and scipy's all pairs on them.

Writes the road-like graphs of the "star" suite into DIR (k x k grids by
`gsp generate grid`, weights 1-9 both ways; Delaunay triangulations of
random points in the unit square by scipy.spatial, arcs both ways weighing
their length in units of 1e-4, rounded to integers), then times
scipy.sparse.csgraph.shortest_path(method='D') on one core for a sample of
k sources after a warm-up and extrapolates to all n sources (t(k) / k * n:
Dijkstra's work is per source), with the checksum of the sample rows
(count and sum of finite distances). bench_star runs gsp on the same files;
bench/run.sh star joins both into one CSV.

Usage: bench_star_scipy.py DIR --gsp GSP_CLI [--grids K,...] [--delaunay N,...]
                           [--k K] [--csv FILE] [--write-only]
"""
import argparse
import os
import subprocess
import time

import numpy as np
import scipy.io
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path
from scipy.spatial import Delaunay


def delaunay_graph(n, seed):
    pts = np.random.default_rng(seed).random((n, 2))
    tri = Delaunay(pts).simplices
    e = np.concatenate([tri[:, [0, 1]], tri[:, [1, 2]], tri[:, [2, 0]]])
    e = np.unique(np.sort(e, axis=1), axis=0)
    w = np.maximum(np.rint(np.linalg.norm(pts[e[:, 0]] - pts[e[:, 1]], axis=1) * 1e4), 1)
    i = np.concatenate([e[:, 0], e[:, 1]])
    j = np.concatenate([e[:, 1], e[:, 0]])
    return sp.csr_array((np.concatenate([w, w]).astype(np.float64), (i, j)), shape=(n, n))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--gsp", required=True)
    ap.add_argument("--grids", default="64,128,256")
    ap.add_argument("--delaunay", default="20000,100000")
    ap.add_argument("--k", type=int, default=64)
    ap.add_argument("--csv", default="bench_star_scipy.csv")
    ap.add_argument("--write-only", action="store_true")
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    files = []
    for k in [int(x) for x in a.grids.split(",") if x]:
        path = os.path.join(a.dir, "grid-%dx%d.mtx" % (k, k))
        subprocess.run([a.gsp, "generate", "grid", "--rows", str(k), "--wmin", "1", "--wmax", "9", "-t", "fp32",
                        "-o", path], check=True, stdout=subprocess.DEVNULL)
        files.append(path)
    for n in [int(x) for x in a.delaunay.split(",") if x]:
        path = os.path.join(a.dir, "delaunay-%d.mtx" % n)
        scipy.io.mmwrite(path, delaunay_graph(n, n), field="real", symmetry="general")
        files.append(path)
    print("\n".join(files))
    if a.write_only:
        return
    with open(a.csv, "w") as f:
        f.write("graph,n,arcs,algo,ran,seconds,gpairs_per_s,predicted_s,note\n")
        for path in files:
            G = scipy.io.mmread(path).tocsr()
            n = G.shape[0]
            k = min(a.k, n)
            S = (np.arange(k) * (n // k)).astype(np.int64)
            shortest_path(G, method="D", indices=S[:1])
            t0 = time.perf_counter()
            D = shortest_path(G, method="D", indices=S)
            tk = time.perf_counter() - t0
            t = tk / k * n
            fin = np.isfinite(D)
            note = "extrapolated from %d sources; check %d / %.6g" % (k, fin.sum(), D[fin].sum())
            name = os.path.basename(path)
            print("%-22s scipy-D %.3f s (%s)" % (name, t, note))
            f.write("%s,%d,%d,scipy-D,scipy-D,%.6f,%.4g,,%s\n" % (name, n, G.nnz, t, n * n / t * 1e-9, note))


if __name__ == "__main__":
    main()
