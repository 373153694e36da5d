#!/usr/bin/env bash
# One device call for many-source shortest paths (issue 5's all-pairs
# targets): build only the msssp targets, run the GPU suites, the all-pairs
# benchmark (Okuyama's four topologies at |V| = 4677 against Floyd-Warshall,
# then |V| = 65536 with parents, a batch sweep, the CPU backend and FW), and
# scipy's Dijkstra on the same graphs. Logs and CSV go to $OUT; the tables
# come last. About 4-6 minutes on an H100/H200.
# Usage (repository root, on the device machine):
#   source .deps/unpack.sh unpack; bash bench/run_msssp_device.sh
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=${BUILD_DIR:-build-msssp}
G=$(mktemp -d)
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
summary=()
note() { summary+=("$1"); echo "$1"; }

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,temperature.gpu \
  --format=csv,noheader | tee "$OUT/gpu.txt"
stamp configure
cmake -S . -B "$B" -DGSP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release \
  -DGSP_BUILD_EXAMPLES=OFF > "$OUT/cmake.log" 2>&1 || { tail -20 "$OUT/cmake.log"; exit 1; }
stamp build
cmake --build "$B" -j16 --target test_cuda_msssp test_cuda_sssp test_msssp bench_sssp > "$OUT/build.log" 2>&1 \
  || { grep -E "error" "$OUT/build.log" | head -30; tail -5 "$OUT/build.log"; exit 1; }
stamp built

trc=0
if [ -z "${SKIP_TESTS:-}" ]; then
  suite() { # name filter
    timeout "${TEST_TIMEOUT:-150}" "$B/tests/$1" --jobs 4 --filter "$2" > "$OUT/$1.log" 2>&1
    local rc=$?
    [ $rc -ne 0 ] && trc=$rc
    note "$1 '$2': rc=$rc $(grep -o 'Tested: .*' "$OUT/$1.log" | tail -1)"
    grep -E "FAIL|Assertion|rash|signal" "$OUT/$1.log" | head -8
  }
  suite test_cuda_msssp '*/*'
  suite test_msssp '*/*'
  suite test_cuda_sssp 'cuda_sssp/msssp*'

  stamp "tests done"
fi

stamp bench
timeout "${BENCH_TIMEOUT:-300}" "$B/bench/bench_sssp" --backend cuda --skip-sssp --reps 5 \
  --apsp-batches "${BATCHES:-128,256,512,1024}" --dump-dir "$G" --csv "$OUT/msssp_bench.csv" ${BENCH_ARGS:-} \
  2>&1 | tee "$OUT/bench.log"
note "bench rc=$?"
stamp scipy
PYTHONUNBUFFERED=1 timeout "${SCIPY_TIMEOUT:-90}" python3 bench/apsp_scipy.py "${SCIPY_BUDGET:-8}" \
  "$G"/apsp_random_4677.mtx "$G"/apsp_power-law_4677.mtx "$G"/apsp_ring_4677.mtx "$G"/apsp_random_65536.mtx \
  2>"$OUT/scipy.err" | tee "$OUT/scipy.log"
stamp done
rm -rf "$G"
echo "==== summary ($(cat "$OUT/gpu.txt"))"
printf '%s\n' "${summary[@]}"
sed -n '/^All-pairs, /,$p' "$OUT/bench.log"
grep -v '^csv,' "$OUT/scipy.log"
exit $trc
