#!/usr/bin/env bash
# One device call over every GPU suite and the main GPU benchmarks, from one
# build: suites first (each capped), then benchmark rows, logs and CSV to
# $OUT. PARTS selects: tests, sssp, ops, bf, apsp, closure, scale.
# Usage (repository root, device machine):
#   source .deps/unpack.sh unpack; PARTS="tests sssp" bash bench/run_device_all.sh
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=${BUILD_DIR:-build-dev}
PARTS=${PARTS:-tests sssp ops}
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
has() { [[ " $PARTS " == *" $1 "* ]]; }
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
stamp configure
cmake -S . -B "$B" -DGSP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release \
  -DGSP_BUILD_EXAMPLES=OFF > "$OUT/cmake.log" 2>&1 || { tail -20 "$OUT/cmake.log"; exit 1; }
cmake --build "$B" -j16 --target ${TARGETS:-} > "$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
stamp built
suite() { # name cap [filter]
  timeout "$2" "$B/tests/$1" --jobs "${JOBS:-8}" ${3:+--filter "$3"} > "$OUT/$1.log" 2>&1
  echo "$1: rc=$? $(grep -o 'Tested: .*' "$OUT/$1.log" | tail -1)"
  grep -E "FAIL|Assertion|CRASH|signal" "$OUT/$1.log" | head -6
}
if has tests; then
  for s in ${SUITES:-}; do suite "${s%%:*}" "${s##*:}"; done
  stamp "suites done"
fi
if has sssp; then
  BS="$B/bench/bench_sssp --skip-apsp --skip-apsp-big --skip-bf --max-seconds 1"
  timeout 50 $BS --backend cuda --graphs rmat --csv "$OUT/sssp.csv" > "$OUT/bench_sssp_rmat.log" 2>&1
  timeout 30 $BS --backend cuda --graphs grid --algos delta,auto --csv "$OUT/sssp.csv" > "$OUT/bench_sssp_grid.log" 2>&1
  grep -hE '^\| (rmat|grid)' "$OUT"/bench_sssp_rmat.log "$OUT"/bench_sssp_grid.log | grep -v skipped
  stamp "sssp bench done"
fi
if has ops; then
  timeout 60 "$B/bench/bench_ops_gpu" --csv "$OUT/ops_gpu.csv" > "$OUT/bench_ops_gpu.log" 2>&1
  echo "bench_ops_gpu rc=$?"; tail -45 "$OUT/bench_ops_gpu.log"
  stamp "ops bench done"
fi
