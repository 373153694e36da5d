#!/usr/bin/env python3
"""Cross-check `gsp apsp` against scipy.sparse.csgraph.johnson and
bellman_ford on generated graphs with negative weights.

Graphs (integer weights, written as DIMACS .gr by this script):
  - the potential trick: a random non-negative graph reweighted to
    w + p(u) - p(v) (negative arcs, no negative cycle), several sizes,
    explicit zero-weight arcs included;
  - a random DAG with weights in [-30, 20];
  - a graph with a negative cycle that only part of the graph reaches.
Every `--algo` (auto, fw, johnson; msssp on the non-negative original) is
run through the CLI with `-o FILE.npy`; the distances must equal scipy's
exactly (int64 "no path" = INT64_MAX in the file, inf in scipy). Subsets
of sources (`--sources`) are compared with scipy's `indices=`. A negative
cycle must give exit code 5 where scipy raises NegativeCycleError.

Usage: scipy_check_apsp.py GSP_BINARY WORKDIR
Fails (exit 1) when numpy or scipy is missing: a peer check never skips.
The test command runs it under the interpreter of scripts/pyenv.sh.
"""
import os
import subprocess
import sys

try:
    import numpy as np
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import NegativeCycleError, bellman_ford, johnson
except ImportError as e:  # pragma: no cover - depends on the machine
    print(f"FAILED: the peer is missing ({e}); run ./test.sh, which provides it")
    sys.exit(1)

GSP, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
INT64_MAX = np.iinfo(np.int64).max
failures = []


def write_gr(path, n, u, v, w):
    with open(path, "w") as f:
        f.write(f"p sp {n} {len(u)}\n")
        for a, b, c in zip(u, v, w):
            f.write(f"a {a + 1} {b + 1} {int(c)}\n")


def random_graph(rng, n, m, lo, hi):
    """m distinct arcs without self-loops, integer weights in [lo, hi]."""
    seen = set()
    u, v = [], []
    while len(u) < m:
        a, b = int(rng.integers(n)), int(rng.integers(n))
        if a == b or (a, b) in seen:
            continue
        seen.add((a, b))
        u.append(a)
        v.append(b)
    w = rng.integers(lo, hi + 1, size=m)
    return np.array(u), np.array(v), w


def to_csr(n, u, v, w):
    # explicit zeros are arcs for scipy's csgraph when stored in the matrix
    return csr_matrix((w.astype(np.float64), (u, v)), shape=(n, n))


def run_gsp(args):
    p = subprocess.run([GSP] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def load_npy(path):
    d = np.load(path).astype(np.float64)
    raw = np.load(path)
    d[raw == INT64_MAX] = np.inf
    return d


def check(name, got, want):
    if got.shape != want.shape:
        failures.append(f"{name}: shape {got.shape} vs scipy {want.shape}")
        return
    bad = ~((got == want) | (np.isinf(got) & np.isinf(want)))
    if bad.any():
        i, j = np.argwhere(bad)[0]
        failures.append(f"{name}: {bad.sum()} entries differ, first ({i},{j}): gsp {got[i, j]} scipy {want[i, j]}")
    else:
        print(f"ok {name}: {got.shape[0]} x {got.shape[1]}, {int(np.isfinite(got).sum())} finite distances equal")


def case(name, n, u, v, w, algos, sources=None):
    gr = os.path.join(WORK, f"{name}.gr")
    write_gr(gr, n, u, v, w)
    G = to_csr(n, u, v, w)
    idx = None if sources is None else np.array(sources)
    want_j = johnson(G, indices=idx)
    if want_j.ndim == 1:
        want_j = want_j[None, :]
    want_b = bellman_ford(G, indices=idx if idx is not None else np.arange(min(n, 40)))
    for algo in algos:
        out = os.path.join(WORK, f"{name}_{algo}.npy")
        args = ["apsp", "-q", "--algo", algo, "-o", out, gr]
        if sources is not None:
            args[1:1] = ["--sources", ",".join(str(s + 1) for s in sources)]  # DIMACS ids are 1-based
        rc, _, err = run_gsp(args)
        if rc != 0:
            failures.append(f"{name} --algo {algo}: exit {rc}: {err.strip()}")
            continue
        got = load_npy(out)
        check(f"{name} {algo} vs scipy johnson", got, want_j)
        rows = got if sources is not None else got[: min(n, 40)]
        check(f"{name} {algo} vs scipy bellman_ford", rows, want_b)


def main():
    rng = np.random.default_rng(12345)
    for n, m in [(60, 300), (250, 1500), (700, 2500)]:
        u, v, w = random_graph(rng, n, m, 0, 50)
        case(f"nonneg_{n}", n, u, v, w, ["auto", "msssp", "fw", "johnson"])
        p = rng.integers(0, 40, size=n)
        wn = w + p[u] - p[v]
        assert (wn < 0).any()
        case(f"potential_{n}", n, u, v, wn, ["auto", "fw", "johnson"])
        case(f"potential_{n}_subset", n, u, v, wn, ["auto", "fw", "johnson"],
             sources=[0, n // 2, n - 1, 3, n // 2])
    # a random DAG with negative weights: only part of it is reachable
    n = 200
    u, v, w = random_graph(rng, n, 1200, -30, 20)
    keep = u < v
    u, v, w = u[keep], v[keep], w[keep]
    case("dag_negative", n, u, v, w, ["auto", "fw", "johnson"])
    # a negative cycle on 150..152 that vertices below 100 cannot reach
    n = 200
    u, v, w = random_graph(rng, n, 900, 1, 30)
    keep = ~((u >= 100) & (v < 100))  # no arc back from the upper part
    u, v, w = list(u[keep]), list(v[keep]), list(w[keep])
    for a, b in [(150, 151), (151, 152), (152, 150)]:
        if (a, b) in zip(u, v):
            i = list(zip(u, v)).index((a, b))
            w[i] = -5
        else:
            u.append(a), v.append(b), w.append(-5)
    u, v, w = np.array(u), np.array(v), np.array(w)
    gr = os.path.join(WORK, "negcycle.gr")
    write_gr(gr, n, u, v, w)
    G = to_csr(n, u, v, w)
    for fn in (lambda: johnson(G), lambda: bellman_ford(G, indices=[150])):
        try:
            fn()
            failures.append("scipy found no negative cycle (test graph wrong)")
        except NegativeCycleError:
            pass
    for algo in ["auto", "fw", "johnson"]:
        for src in [None, "1"]:  # every source, and one that does not reach the cycle
            args = ["apsp", "-q", "--algo", algo, gr] + (["--sources", src] if src else [])
            rc, _, err = run_gsp(args)
            if rc != 5 or "negative cycle" not in err:
                failures.append(f"negcycle --algo {algo} sources {src}: exit {rc}, expected 5: {err.strip()}")
            else:
                print(f"ok negcycle {algo} sources {src}: exit 5 ({err.strip().splitlines()[-1].strip()})")
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        return 1
    print("all gsp apsp results equal scipy's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
