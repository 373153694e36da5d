#!/usr/bin/env bash
# One device call for single-source SSSP: build the two targets, run the GPU
# SSSP suite, then bench_sssp on R-MAT-21 and the 4096 x 4096 grid with the
# CUDA backend, the CPU backend and scipy's dijkstra side by side (same
# graphs, dumped by bench_sssp). Logs and CSV go to $OUT; a summary last.
# Usage on the device machine (repository root), about 5-6 minutes:
#   source .deps/unpack.sh unpack; bash bench/run_sssp_device.sh
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=${BUILD_DIR:-build-sssp}
DUMP=${DUMP_DIR:-/tmp/gsp_sssp_dump}
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }

nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,memory.used --format=csv > "$OUT/gpu.txt" 2>&1
stamp configure
cmake -S . -B "$B" -DGSP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release -DGSP_BUILD_TESTS=ON \
  -DGSP_BUILD_EXAMPLES=OFF > "$OUT/cmake.log" 2>&1 || { tail -20 "$OUT/cmake.log"; exit 1; }
stamp build
cmake --build "$B" -j16 --target test_cuda_sssp bench_sssp > "$OUT/build.log" 2>&1 \
  || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }

stamp tests
timeout "${TEST_TIMEOUT:-150}" "$B/tests/test_cuda_sssp" --jobs 1 > "$OUT/test_cuda_sssp.log" 2>&1
trc=$?
stamp "tests rc=$trc $(grep -o 'Tested: .*' "$OUT/test_cuda_sssp.log" | tail -1)"
grep -E "FAIL|Assertion|CRASH|fail" "$OUT/test_cuda_sssp.log" | head -20

rm -rf "$DUMP"; mkdir -p "$DUMP"
BS="$B/bench/bench_sssp --skip-apsp --max-seconds 3"
stamp "bench cuda rmat (all algorithms)"
timeout 70 $BS --backend cuda --graphs rmat --max-seconds 1 --dump "$DUMP" --csv "$OUT/sssp.csv" > "$OUT/bench_cuda_rmat.log" 2>&1
stamp "bench cuda grid (delta, auto)"
timeout 60 $BS --backend cuda --graphs grid --algos delta,auto --dump "$DUMP" --csv "$OUT/sssp.csv" > "$OUT/bench_cuda_grid.log" 2>&1
stamp "bench cpu (delta, auto)"
timeout 90 $BS --backend cpu --algos delta,auto --reps 3 --csv "$OUT/sssp.csv" > "$OUT/bench_cpu.log" 2>&1
stamp "scipy"
PYTHONUNBUFFERED=1 timeout 120 python3 bench/bench_sssp_scipy.py "$DUMP" 2 40 > "$OUT/scipy.log" 2>&1
grep '^csv,' "$OUT/scipy.log" | sed 's/^csv,//' >> "$OUT/sssp.csv"
stamp done

echo "==== summary ($(sed -n 2p "$OUT/gpu.txt"))"
echo "test_cuda_sssp: rc=$trc $(grep -o 'Tested: .*' "$OUT/test_cuda_sssp.log" | tail -1)"
head -1 "$OUT/bench_cuda_rmat.log"
grep -E '^\| graph|^\|--' "$OUT/bench_cuda_rmat.log" | head -2
for f in bench_cuda_rmat bench_cuda_grid; do grep -E '^\| (rmat|grid)' "$OUT/$f.log" | grep -v skipped | sed 's/^/cuda /'; done
grep -E '^\| (rmat|grid)' "$OUT/bench_cpu.log" | grep -v skipped | sed 's/^/cpu  /'
grep -E '^\| (rmat|grid)' "$OUT/scipy.log" | sed 's/^/scipy/'
exit $trc
