#!/usr/bin/env python3
"""Model of the GPU closure's phase order (src/cuda/closure/gsp_cuda_fw.cuh) on tiny
graphs: does walking the recorded successors reach j with the closure's
cost, or loop? Sequential FW (block = n) never loops; the blocked order
loops when an optimal walk ties through a zero-weight cycle (min-plus with
zero weights) and often for max-min, never with strictly positive min-plus
weights. This is why the GPU records successors only for strictly signed
MIN_PLUS / MAX_PLUS weights (docs/performance.md, "Successors and ties")."""
import random

INF = float("inf")


def blocked(n, W, B, add, mul, one, zero):
    D = [row[:] for row in W]
    for i in range(n):
        D[i][i] = add(D[i][i], one)
    S = [[j if D[i][j] != zero else -1 for j in range(n)] for i in range(n)]

    def upd(i, j, c, s):
        if add(D[i][j], c) != D[i][j]:  # strict improvement
            D[i][j], S[i][j] = c, s

    for kb in range(n // B):
        K = range(kb * B, (kb + 1) * B)
        for k in K:  # phase 1: sequential on the diagonal tile
            for i in K:
                for j in K:
                    upd(i, j, mul(D[i][k], D[k][j]), S[i][k])
        phases = [
            ([i for i in K], [j for j in range(n) if j not in K]),  # row panel
            ([i for i in range(n) if i not in K], list(K)),  # column panel
            ([i for i in range(n) if i not in K], [j for j in range(n) if j not in K]),
        ]
        for rows, cols in phases:  # products on a snapshot, k ascending
            oD, oS = [r[:] for r in D], [r[:] for r in S]
            for i in rows:
                for j in cols:
                    for k in K:
                        upd(i, j, mul(oD[i][k], oD[k][j]), oS[i][k])
    return D, S


def walk_ok(n, W, D, S, mul, one, zero):
    for i in range(n):
        for j in range(n):
            if i == j or D[i][j] == zero:
                continue
            v, c, steps = i, one, 0
            while v != j:
                u = S[v][j]
                if u < 0 or steps > n:
                    return False
                c, v, steps = mul(c, W[v][u]), u, steps + 1
            if c != D[i][j]:
                return False
    return True


def count(lo, hi, B, sr):
    bad = 0
    for seed in range(300):
        random.seed(seed)
        n = 16
        zero = INF if sr == "min_plus" else -INF
        W = [[random.randint(lo, hi) if random.random() < 0.3 else zero for _ in range(n)] for _ in range(n)]
        if sr == "min_plus":
            args = (min, lambda a, b: a + b, 0, INF)
        else:
            args = (max, min, INF, -INF)
        D, S = blocked(n, W, B, *args)
        bad += not walk_ok(n, W, D, S, args[1], args[2], args[3])
    return bad


if __name__ == "__main__":
    for sr, lo, hi in (("min_plus", 0, 9), ("min_plus", 1, 9), ("max_min", -9, 9)):
        for B in (16, 4):
            print(f"{sr} weights {lo}..{hi} block {B:2d}: {count(lo, hi, B, sr)} of 300 graphs loop")
