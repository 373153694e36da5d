#!/usr/bin/env bash
# One device call for the closure kernels of every numeric type: build the
# plugin and bench_closure_gpu (and the GPU suites named in TESTS, e.g.
# TESTS="test_cuda_closure test_cuda_hostpath"), run those suites, then
# bench_closure_gpu in each of MODES (default "types": the measured
# ceilings, every numeric kernel at n = 2048 .. 16384 with its phase times;
# "full": the default rows; "focus", "quick"). CSVs and logs go to $OUT.
#   source .deps/unpack.sh unpack; bash bench/run_closure_types_device.sh
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=${BUILD_DIR:-build-dev}
L=${LOG_DIR:-/tmp/closure_types_logs}
mkdir -p "$L"
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
cmake -S . -B "$B" -DGSP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
  -DGSP_BUILD_EXAMPLES=OFF -DGSP_PYTHON="$(which python3)" > "$L/cmake.log" 2>&1 || { tail -20 "$L/cmake.log"; exit 1; }
cmake --build "$B" -j16 --target gsp_cuda bench_closure_gpu ${TESTS:-} > "$L/build.log" 2>&1 \
  || { grep -E "error" "$L/build.log" | head -30; tail -5 "$L/build.log"; exit 1; }
grep -i "warning" "$L/build.log" | grep -i "closure\|fw" | head -10
stamp built
for t in ${TESTS:-}; do
  timeout "${TEST_TIMEOUT:-150}" "$B/tests/$t" --jobs 8 > "$L/$t.log" 2>&1
  echo "$t: rc=$? $(grep -o 'Tested: .*' "$L/$t.log" | tail -1)"
  grep -B2 -A6 "Assertion Failed\|CRASH\|signal" "$L/$t.log" | head -24
  grep -qE "Failing: [1-9]|Crashing: [1-9]" "$L/$t.log" && cp "$L/$t.log" "$OUT/"
done
stamp tests
# MODES: types (--types), full (the default rows), focus (--focus), quick
for m in ${MODES:-types}; do
  case "$m" in full) flag= ;; *) flag=--$m ;; esac
  timeout "${MODE_TIMEOUT:-300}" "$B/bench/bench_closure_gpu" $flag --csv "$OUT/closure_gpu_$m.csv" \
    > "$OUT/closure_gpu_$m.log" 2>&1
  echo "$m rc=$?"
  grep -E "^verify|^ceiling|^bmma" "$OUT/closure_gpu_$m.log"
  if [ "$m" = types ]; then grep -E "phases" "$OUT/closure_gpu_$m.log"; else sed -n '/^device  /,$p' "$OUT/closure_gpu_$m.log"; fi
  stamp "$m"
done
