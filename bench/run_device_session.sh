#!/usr/bin/env bash
# One closing device call for a round of SSSP / ops / robustness work, packed
# to fit about 8 minutes on one H200:
#   1. build every GPU suite touched, bench_sssp and bench_ops_gpu;
#   2. GPU benchmark rows: R-MAT-21 and grid-4096 single source (delta, auto,
#      auto+parents, with the phase lines), all pairs |V| = 65536 with and
#      without parents, SpGEMM against the CPU backend; the graphs are dumped
#      for scipy;
#   3. the GPU suites in two parallel groups, while scipy's dijkstra runs on
#      the dumped graphs (one core) and, if build-fuzzbin/ was carried, the
#      libFuzzer campaign (tests/fuzz/run_campaign.sh) uses the spare cores;
#   4. the CPU backend's rows (all cores, after the fuzzers stop).
# Usage (repository root, device machine; carry .deps and build-fuzzbin):
#   source .deps/unpack.sh unpack; bash bench/run_device_session.sh
set -u -o pipefail
OUT=${OUT:-$PWD/out}
B=${BUILD_DIR:-build-session}
DUMP=/tmp/gsp_sssp_dump
L=/tmp/session_logs # the logs travel back as one archive
FUZZ_SECONDS=${FUZZ_SECONDS:-180}
mkdir -p "$OUT" "$L"
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$L/gpu.txt"

suites_a="test_cuda_sssp:150 test_cuda_msssp:100 test_cuda_faults:90"
suites_b="test_cuda_ops:120 test_cuda_bellman_ford:60 test_cuda_apsp:90 test_cuda_sanitize:40 test_cuda_closure:130"
targets=$(echo "$suites_a $suites_b" | tr ' ' '\n' | sed 's/:.*//' | tr '\n' ' ')
cmake -S . -B "$B" -DGSP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release \
  -DGSP_BUILD_EXAMPLES=OFF > "$L/cmake.log" 2>&1 || { tail -20 "$L/cmake.log"; exit 1; }
# shellcheck disable=SC2086
cmake --build "$B" -j16 --target $targets bench_sssp bench_ops_gpu > "$L/build.log" 2>&1 \
  || { grep -E "error" "$L/build.log" | head -30; exit 1; }
stamp built

rm -rf "$DUMP" && mkdir -p "$DUMP"
BS="$B/bench/bench_sssp --skip-apsp --skip-bf --skip-apsp-big --max-seconds 3"
timeout 60 $BS --backend cuda --graphs rmat --algos delta,auto --reps 9 --dump "$DUMP" --csv "$L/sssp.csv" > "$L/bench_rmat.log" 2>&1
timeout 60 $BS --backend cuda --graphs grid --algos auto --reps 5 --dump "$DUMP" --csv "$L/sssp.csv" > "$L/bench_grid.log" 2>&1
stamp "single source done"
timeout 120 "$B/bench/bench_sssp" --backend cuda --skip-sssp --skip-apsp --skip-bf --skip-fw --apsp-cpu-sources 0 \
  --reps 3 --apsp-parent-reps 3 --csv "$L/msssp.csv" > "$L/bench_msssp.log" 2>&1
timeout 60 "$B/bench/bench_ops_gpu" --spgemm-only --reps 5 --csv "$L/spgemm.csv" > "$L/bench_spgemm.log" 2>&1
stamp "gpu bench done"

PYTHONUNBUFFERED=1 timeout 150 python3 bench/bench_sssp_scipy.py "$DUMP" 2 60 > "$L/scipy.log" 2>&1 &
spid=$!
fpid=""
if [ -x build-fuzzbin/fuzz_mtx ]; then
  ( export LD_LIBRARY_PATH=$PWD/build-fuzzbin; OUT=$L FUZZ_WORK=/tmp/fz \
    nice -n 19 bash tests/fuzz/run_campaign.sh build-fuzzbin "$FUZZ_SECONDS" 2 > "$L/fuzz_table.txt" 2>&1 ) &
  fpid=$!
fi
group() { # "suite:timeout ..."
  for s in $1; do
    t=${s%%:*}
    timeout "${s##*:}" "$B/tests/$t" --jobs 4 > "$L/$t.log" 2>&1
    echo "$t: rc=$? $(grep -o 'Tested: .*' "$L/$t.log" | tail -1)" >> "$L/suites.txt"
    grep -B1 -A6 "Assertion Failed\|CRASH\|Timed out" "$L/$t.log" | head -20 >> "$L/suites.txt"
  done
}
: > "$L/suites.txt"
group "$suites_a" & ga=$!
group "$suites_b" & gb=$!
wait $ga $gb
stamp "suites done"
wait $spid
[ -n "$fpid" ] && wait "$fpid"
grep '^csv,' "$L/scipy.log" | sed 's/^csv,//' >> "$L/sssp.csv"
stamp "scipy and fuzz done"
timeout 90 $BS --backend cpu --algos delta,auto --reps 3 --csv "$L/sssp.csv" > "$L/bench_cpu.log" 2>&1
stamp done

tar -C "$L" -czf "$OUT/session_logs.tar.gz" .
echo "==== summary ($(head -1 "$L/gpu.txt"))"
cat "$L/suites.txt"
for f in bench_rmat bench_grid; do grep -hE '^\| (rmat|grid)|^\|   phases' "$L/$f.log" | grep -v skipped | sed 's/^/cuda  /'; done
grep -E '^\| (rmat|grid)' "$L/bench_cpu.log" | grep -v skipped | sed 's/^/cpu   /'
grep -E '^\| (rmat|grid)' "$L/scipy.log" | sed 's/^/scipy /'
grep -E '^\| gsp_msssp|^\|   phases' "$L/bench_msssp.log"
grep -E '^\|' "$L/bench_spgemm.log" | head -12
[ -f "$L/fuzz_table.txt" ] && grep -E '^\|' "$L/fuzz_table.txt"
exit 0
