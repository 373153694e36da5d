#!/usr/bin/env bash
# One device call for the GPU sparse products (gsp_mxv / gsp_vxm / gsp_mxm):
# build the needed targets, run tests/test_cuda_ops.c, the CPU ops suites
# that share the code paths, the push/pull/cuSPARSE benchmark on R-MAT-21,
# then (time allowing) compute-sanitizer memcheck on the residency, error
# and BFS tests. Logs and CSV go to $OUT; a summary is printed last.
# Usage on the device machine (repository root):
#   source .deps/unpack.sh unpack; bash bench/run_ops_gpu.sh
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=${BUILD_DIR:-build-ops-gpu}
BUDGET=${BUDGET:-290}
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
summary=()
note() { summary+=("$1"); echo "$1"; }

stamp configure
cmake -S . -B $B -DGSP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release \
  -DGSP_BUILD_EXAMPLES=OFF > "$OUT/cmake.log" 2>&1 || { tail -20 "$OUT/cmake.log"; exit 1; }
stamp build
cmake --build $B -j16 --target test_cuda_ops test_mxv_vxm test_mxm bench_ops_gpu > "$OUT/build.log" 2>&1 \
  || { grep -E "error" "$OUT/build.log" | head -20; exit 1; }
stamp built
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"

timeout 150 $B/tests/test_cuda_ops --jobs 8 > "$OUT/test_cuda_ops.log" 2>&1
note "test_cuda_ops: rc=$? $(grep -o 'Tested: .*' "$OUT/test_cuda_ops.log" | tail -1)"
grep -E "FAIL|CRASH|Assertion|error" "$OUT/test_cuda_ops.log" | head -20
for t in test_mxv_vxm test_mxm; do
  timeout 60 $B/tests/$t --jobs 8 > "$OUT/$t.log" 2>&1
  note "$t (CPU backend): rc=$? $(grep -o 'Tested: .*' "$OUT/$t.log" | tail -1)"
done
stamp "suites done"

timeout 120 $B/bench/bench_ops_gpu --csv "$OUT/ops_gpu.csv" > "$OUT/bench_ops_gpu.log" 2>&1
note "bench_ops_gpu: rc=$?"
stamp "bench done"

left=$(( BUDGET - ($(date +%s) - t0) ))
if [ $left -gt 40 ]; then
  timeout $(( left - 10 )) compute-sanitizer --target-processes all --error-exitcode 99 --tool memcheck \
    $B/tests/test_cuda_ops --jobs 1 --filter 'cuda_@(residency|errors|algorithms)/*' > "$OUT/cs_memcheck.log" 2>&1
  note "compute-sanitizer memcheck (residency, errors, algorithms): rc=$? $(grep -o 'Tested: .*' "$OUT/cs_memcheck.log" | tail -1) $(grep -E 'ERROR SUMMARY' "$OUT/cs_memcheck.log" | sort | uniq -c | tr '\n' ' ')"
fi
stamp done
echo "==== summary"
printf '%s\n' "${summary[@]}"
cat "$OUT/bench_ops_gpu.log"
