#!/usr/bin/env bash
# One device call for the GPU test suites: build, run every GPU suite, run
# compute-sanitizer memcheck and racecheck over them, then (time allowing) a
# GPU SSSP benchmark. Logs go to $OUT; a summary table is printed last.
# Usage on the device machine (repository root):
#   source .deps/unpack.sh unpack; bash tests/run_gpu_checks.sh
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=build-gpu
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
summary=()
note() { summary+=("$1"); echo "$1"; }

stamp configure
cmake -S . -B $B -DGSP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release \
  -DGSP_BUILD_EXAMPLES=OFF > "$OUT/cmake.log" 2>&1 || { tail -20 "$OUT/cmake.log"; exit 1; }
stamp build
cmake --build $B -j16 --target test_cuda_closure test_cuda_sssp test_cuda_bellman_ford bench_sssp > "$OUT/build.log" 2>&1 \
  || { grep -E "error" "$OUT/build.log" | head -20; exit 1; }
stamp "built"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"

for t in test_cuda_closure test_cuda_sssp test_cuda_bellman_ford; do
  timeout 240 $B/tests/$t --jobs 1 > "$OUT/$t.log" 2>&1
  note "$t: rc=$? $(grep -o 'Tested: .*' "$OUT/$t.log" | tail -1)"
done
stamp "suites done"

# Sanitizers: the small tests (the n=1000/4099 ones would take too long
# under instrumentation). Criterion forks each test: follow the children.
CS="compute-sanitizer --target-processes all --error-exitcode 99"
run_cs() { # tool suite filter
  timeout "${4:-150}" $CS --tool "$1" $B/tests/$2 --jobs 1 --filter "$3" > "$OUT/cs_$1_$2.log" 2>&1
  local rc=$?
  note "compute-sanitizer $1 $2 '$3': rc=$rc $(grep -o 'Tested: .*' "$OUT/cs_$1_$2.log" | tail -1) $(grep -E 'ERROR SUMMARY' "$OUT/cs_$1_$2.log" | sort | uniq -c | tr '\n' ' ')"
}
run_cs memcheck test_cuda_closure 'cuda_closure/@(small_*|paths|negative_cycle|memory_cap|device_resident_result|int32_saturation)' 170
run_cs memcheck test_cuda_sssp 'cuda_sssp/@(cutoff_and_delta|nearest_source|auto_backend_and_decline|msssp_rows_against_reference|device_graph_follows_changes|nearfar_nearest_source_many)' 150
run_cs memcheck test_cuda_bellman_ford 'cuda_bellman_ford/@(cycle_found_only_at_round_n|auto_backend)' 120
run_cs racecheck test_cuda_closure 'cuda_closure/@(small_or_and|negative_cycle)' 90
run_cs racecheck test_cuda_sssp 'cuda_sssp/@(cutoff_and_delta|device_graph_follows_changes)' 90
stamp "sanitizers done"

left=$(( ${BUDGET:-560} - ($(date +%s) - t0) ))
if [ $left -gt 60 ]; then
  timeout $(( left - 10 )) $B/bench/bench_sssp --backend cuda --skip-fw --max-seconds 10 \
    --csv "$OUT/sssp_gpu.csv" > "$OUT/bench_sssp.log" 2>&1
  note "bench_sssp (cuda): rc=$?"
fi
stamp done
echo "==== summary"
printf '%s\n' "${summary[@]}"
[ -f "$OUT/bench_sssp.log" ] && tail -40 "$OUT/bench_sssp.log"
