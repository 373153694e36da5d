#!/usr/bin/env bash
# One device call: build with CUDA (sm_90a), run the GPU tests through ctest,
# run the GPU closure benchmark and the scipy peer, copy logs/CSV to $OUT and
# print a short table last. Usage (repository root, on the device machine):
#   source .deps/unpack.sh unpack; bash bench/run_device.sh [quick]
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=${BUILD_DIR:-build-device}
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }

nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,memory.used --format=csv > "$OUT/gpu.txt" 2>&1
stamp "configure"
cmake -S . -B "$B" -DGSP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release -DGSP_BUILD_TESTS=ON \
  > "$OUT/cmake.log" 2>&1 || { tail -30 "$OUT/cmake.log"; exit 1; }
stamp "build"
cmake --build "$B" -j16 --target test_cuda_closure bench_closure_gpu ${EXTRA_TARGETS:-} > "$OUT/build.log" 2>&1 \
  || { grep -E "error" "$OUT/build.log" | head -40; tail -20 "$OUT/build.log"; exit 1; }

trc=0
if [ -z "${SKIP_TESTS:-}" ]; then
  stamp "tests"
  (cd "$B" && timeout "${TEST_TIMEOUT:-300}" ctest -R "${TESTS:-test_cuda_closure}" --output-on-failure) > "$OUT/ctest.log" 2>&1
  trc=$?
  stamp "tests rc=$trc"
  grep -E "Synthesis|FAIL|fail|Passed|tests passed" "$OUT/ctest.log" | tail -20
fi

if [ "${1:-}" != "notime" ]; then
  stamp "bench"
  timeout "${BENCH_TIMEOUT:-240}" "$B/bench/bench_closure_gpu" ${1:+--$1} --csv "$OUT/bench_closure_gpu.csv" 2>&1 | tee "$OUT/bench.log" | grep -E "^  |verify|device|peak" 
  stamp "scipy"
  PYTHONUNBUFFERED=1 python3 bench/bench_closure_gpu_scipy.py "${SCIPY_BUDGET:-40}" 2>"$OUT/scipy.log" \
    | tee -a "$OUT/bench_closure_gpu.csv"
fi
stamp "done"
echo "==== summary ($(head -2 "$OUT/gpu.txt" | tail -1))"
[ -f "$OUT/ctest.log" ] && grep -E "tests passed|tests failed" "$OUT/ctest.log" | tail -2
[ -f "$OUT/bench.log" ] && sed -n '/^device  /,$p' "$OUT/bench.log"
exit $trc
