#!/usr/bin/env bash
# CPU closure, gsp against scipy.sparse.csgraph.floyd_warshall, on the same
# random graphs (n = 1024, 2048, 4096, fp32 input, density 0.1, seed 42) and
# the same cores. Writes bench/results/cpu_closure_<host>_<utc>.csv (both
# programs' rows) and prints the speedup per n, after checking that both
# produced the same distances (entry count and sum of the finite values).
#
#   bench/run_cpu_closure.sh                 # build dir: ./build (made if absent)
#   BUILD_DIR=build-x SIZES=1024,2048 bench/run_cpu_closure.sh
#
# scipy runs one thread (its floyd_warshall is serial); gsp uses OpenMP's
# default thread count (all cores; set OMP_NUM_THREADS to change it).
# scipy at n >= 4096 takes minutes per run: 3 repeats there, no warm-up.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
sizes=${SIZES:-1024,2048,4096}
density=${DENSITY:-0.1}
seed=${SEED:-42}

if [ ! -x "$build/bench/bench_closure_cpu" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGSP_CUDA=OFF >/dev/null
  cmake --build "$build" --target bench_closure_cpu -j"$(nproc)"
fi

mkdir -p "$root/bench/results"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
host=$(hostname -s 2>/dev/null || echo host)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
"$build/bench/bench_closure_cpu" -n "$sizes" -t fp32 -r 5 -d "$density" -s "$seed" --csv "$tmp/gsp.csv"

small=$(echo "$sizes" | tr ',' '\n' | awk '$1 < 4096' | paste -sd, -)
large=$(echo "$sizes" | tr ',' '\n' | awk '$1 >= 4096' | paste -sd, -)
if [ -n "$small" ]; then
  python3 "$root/bench/scipy_fw.py" -n "$small" -r 5 -d "$density" -s "$seed" --csv "$tmp/scipy_small.csv"
fi
if [ -n "$large" ]; then
  python3 "$root/bench/scipy_fw.py" -n "$large" -r 3 --no-warmup -d "$density" -s "$seed" --csv "$tmp/scipy_large.csv"
fi

out="$root/bench/results/cpu_closure_${host}_${stamp}.csv"
{
  cat "$tmp/gsp.csv"
  for f in "$tmp/scipy_small.csv" "$tmp/scipy_large.csv"; do
    if [ -f "$f" ]; then tail -n +2 "$f"; fi
  done
} >"$out"
echo "== wrote $out"

python3 - "$out" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    by.setdefault(int(r["n"]), {})[r["impl"]] = r
ok = True
print(f"{'n':>6} {'gsp_s':>9} {'scipy_s':>9} {'speedup':>8}  same result")
for n in sorted(by):
    g, s = by[n].get("gsp"), by[n].get("scipy")
    if not g or not s:
        continue
    same = g["finite"] == s["finite"] and float(g["sum_finite"]) == float(s["sum_finite"])
    ok &= same
    print(f"{n:>6} {float(g['median_s']):>9.3f} {float(s['median_s']):>9.3f} "
          f"{float(s['median_s']) / float(g['median_s']):>7.1f}x  {'yes' if same else 'NO'}")
sys.exit(0 if ok else 1)
PY
