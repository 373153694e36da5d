#!/usr/bin/env bash
# One device call for gsp_apsp: build with CUDA (sm_90a), run the APSP test
# suites (GPU, CPU, the scipy cross-check), then the all-pairs benchmark on
# the Tastan-shaped graphs with scipy's johnson on the same graphs running
# beside it (one core of 16). Logs and CSV go to $OUT; a summary is printed
# last. Usage on the device machine (repository root):
#   source .deps/unpack.sh unpack; bash bench/run_apsp_device.sh
# PHASES (default "tests bench scipy") picks parts; MAXS (8) is bench_apsp's
# --max-seconds, BUDGET (230) its total budget, SCIPY_PER_GRAPH (25).
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=${BUILD_DIR:-build-apsp}
PHASES=${PHASES:-tests bench scipy}
G=/tmp/apsp_graphs # too large to come back through $OUT
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
summary=()
note() { summary+=("$1"); echo "$1"; }

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ' ' '-')
stamp "configure ($gpu)"
cmake -S . -B "$B" -DGSP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release \
  -DGSP_BUILD_EXAMPLES=OFF > "$OUT/cmake.log" 2>&1 || { tail -30 "$OUT/cmake.log"; exit 1; }
stamp build
cmake --build "$B" -j16 --target test_cuda_apsp test_apsp test_johnson bench_apsp gsp_cli \
  > "$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -40; exit 1; }
stamp built

if [[ " $PHASES " == *" tests "* ]]; then
  for t in test_cuda_apsp test_apsp test_johnson; do
    timeout 200 "$B/tests/$t" --jobs 4 > "$OUT/$t.log" 2>&1
    note "$t: rc=$? $(grep -o 'Tested: .*' "$OUT/$t.log" | tail -1)"
  done
  timeout 120 python3 tests/scipy_check_apsp.py "$B/gsp" /tmp/scipy_check_apsp > "$OUT/scipy_check_apsp.log" 2>&1
  note "scipy_check_apsp: rc=$? $(tail -1 "$OUT/scipy_check_apsp.log")"
  stamp "tests done"
fi

spid=""
if [[ " $PHASES " == *" scipy "* ]]; then
  rm -rf "$G" && mkdir -p "$G"
  "$B/bench/bench_apsp" --generate-only --write-graphs "$G" > "$OUT/generate.log" 2>&1
  PYTHONUNBUFFERED=1 python3 bench/bench_apsp_scipy.py "$G" --per-graph "${SCIPY_PER_GRAPH:-25}" \
    --csv "$OUT/apsp_scipy_$gpu.csv" > "$OUT/bench_apsp_scipy.log" 2>&1 &
  spid=$!
  stamp "scipy started (pid $spid)"
fi
if [[ " $PHASES " == *" bench "* ]]; then
  timeout $(( ${BUDGET:-230} + 120 )) "$B/bench/bench_apsp" --backend cuda --max-seconds "${MAXS:-8}" \
    --budget "${BUDGET:-230}" --csv "$OUT/apsp_$gpu.csv" > "$OUT/bench_apsp.log" 2>&1
  note "bench_apsp: rc=$?"
  stamp "bench done"
fi
if [ -n "$spid" ]; then
  wait "$spid"
  note "bench_apsp_scipy: rc=$?"
fi
stamp done
echo "==== summary"
printf '%s\n' "${summary[@]}"
[ -f "$OUT/bench_apsp.log" ] && cat "$OUT/bench_apsp.log"
[ -f "$OUT/bench_apsp_scipy.log" ] && cat "$OUT/bench_apsp_scipy.log"
exit 0
