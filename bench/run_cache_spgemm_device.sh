#!/usr/bin/env bash
# One device call for the shared device CSR cache and sparse x sparse gsp_mxm
# (cuSPARSE SpGEMM): build, run the GPU suites the change touches
# (test_cuda_ops: SpGEMM + cache cases; test_cuda_sssp / msssp /
# bellman_ford / faults: the shortest-path paths now on the shared cache and
# helpers), then the SpGEMM rows of bench_ops_gpu (GPU vs CPU backend).
# Logs and CSV go to $OUT; a summary is printed last. About 3-4 minutes on
# one H100/H200 (build ~2 min at -j16).
# Usage on the device machine (repository root):
#   source .deps/unpack.sh unpack; bash bench/run_cache_spgemm_device.sh
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=${BUILD_DIR:-build-spgemm-gpu}
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
summary=()
note() { summary+=("$1"); echo "$1"; }

stamp configure
cmake -S . -B $B -DGSP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release \
  -DGSP_BUILD_EXAMPLES=OFF > "$OUT/cmake.log" 2>&1 || { tail -20 "$OUT/cmake.log"; exit 1; }
stamp build
cmake --build $B -j16 --target test_cuda_ops test_cuda_sssp test_cuda_msssp test_cuda_bellman_ford \
  test_cuda_faults bench_ops_gpu > "$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -20; exit 1; }
stamp built
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"

run() { # name timeout
  timeout $2 $B/tests/$1 --jobs 8 > "$OUT/$1.log" 2>&1
  note "$1: rc=$? $(grep -o 'Tested: .*' "$OUT/$1.log" | tail -1)"
  grep -E "FAIL|CRASH|Assertion" "$OUT/$1.log" | head -12
}
run test_cuda_ops 90
run test_cuda_sssp 40
run test_cuda_msssp 40
run test_cuda_bellman_ford 40
run test_cuda_faults 60
stamp "suites done"

timeout 60 $B/bench/bench_ops_gpu --spgemm-only --reps 5 --csv "$OUT/spgemm_gpu.csv" > "$OUT/bench_spgemm.log" 2>&1
note "bench_ops_gpu --spgemm-only: rc=$?"
stamp done
echo "==== summary"
printf '%s\n' "${summary[@]}"
cat "$OUT/bench_spgemm.log"
