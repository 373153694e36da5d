#!/usr/bin/env bash
# The session's closing device call (4-GPU machine): one build, every GPU
# suite touched by this round (capped), then the out-of-core / multi-GPU
# benchmark with what time is left. Logs to $OUT.
#   source .deps/unpack.sh unpack; bash bench/run_device_final.sh
set -u -o pipefail
OUT=${OUT:-$PWD/out}
B=${BUILD_DIR:-build-dev}
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
cmake -S . -B "$B" -DGSP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release \
  -DGSP_BUILD_EXAMPLES=OFF > "$OUT/cmake.log" 2>&1 || { tail -20 "$OUT/cmake.log"; exit 1; }
grep -E "multi-GPU|NCCL" "$OUT/cmake.log"
cmake --build "$B" -j"$(nproc)" --target test_cuda_closure test_cuda_ooc test_cuda_multigpu test_cuda_apsp \
  test_cuda_bellman_ford test_cuda_faults bench_closure_scale > "$OUT/build.log" 2>&1 \
  || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
stamp built
for s in test_cuda_closure:130 test_cuda_ooc:100 test_cuda_multigpu:80 test_cuda_apsp:80 \
         test_cuda_bellman_ford:50 test_cuda_faults:30; do
  t=${s%%:*}
  timeout "${s##*:}" "$B/tests/$t" --jobs 8 > "$OUT/$t.log" 2>&1
  echo "$t: rc=$? $(grep -o 'Tested: .*' "$OUT/$t.log" | tail -1)"
  grep -B2 -A6 "Assertion Failed" "$OUT/$t.log" | head -24
done
stamp "suites done"
left=$(( ${BUDGET:-555} - ($(date +%s) - t0) ))
if [ $left -gt 40 ]; then
  timeout $left "$B/bench/bench_closure_scale" --reps 1 --csv "$OUT/bench_closure_scale.csv" > "$OUT/bench.log" 2>&1
  echo "bench rc=$?"
  grep -E "^bandwidth|^\(|verify|checksum" "$OUT/bench.log" | head -20
  sed -n '/^device  /,$p' "$OUT/bench.log"
fi
stamp done
