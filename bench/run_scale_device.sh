#!/usr/bin/env bash
# Out-of-core and multi-GPU closure on the device machine (made for
# nvidia-h200-x4; works on fewer GPUs, skipping what needs more): build only
# what is needed, run the GPU tests (test_cuda_ooc, test_cuda_multigpu,
# test_cuda_closure), then bench_closure_scale, and print one table. Logs
# and CSV go to $OUT. About 8 minutes in all (build ~3, tests ~2, bench ~3).
# Usage, from the repository root:
#   source .deps/unpack.sh unpack; bash bench/run_scale_device.sh [mode]
# mode: (none) tests + bench | tests | bench | big
#   big: only part (b) at n = 150000 with the cap at an H100's 78 GiB
#        (about 5 minutes; run as its own command), BIG_ARGS to change it,
#        e.g. BIG_ARGS="--big-n 200000 --big-gpus 4" on 4 H200.
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=${BUILD_DIR:-build-scale}
mode=${1:-all}
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
# NVLink multicast stays off whatever the environment says (the library
# forces it too, before every communicator).
export NCCL_NVLS_ENABLE=0

nvidia-smi --query-gpu=index,name,memory.total,clocks.sm,temperature.gpu --format=csv > "$OUT/gpu.txt" 2>&1
nvidia-smi topo -m > "$OUT/topo.txt" 2>&1
stamp "configure"
cmake -S . -B "$B" -DGSP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release -DGSP_BUILD_TESTS=ON \
  -DGSP_BUILD_EXAMPLES=OFF > "$OUT/cmake.log" 2>&1 || { tail -30 "$OUT/cmake.log"; exit 1; }
grep -E "multi-GPU closure|CUDA backend" "$OUT/cmake.log"
targets="bench_closure_scale"
[ "$mode" = all ] || [ "$mode" = tests ] && targets="$targets test_cuda_ooc test_cuda_multigpu test_cuda_closure"
stamp "build $targets"
cmake --build "$B" -j16 --target $targets > "$OUT/build.log" 2>&1 \
  || { grep -E "error" "$OUT/build.log" | head -40; tail -20 "$OUT/build.log"; exit 1; }

trc=0
if [ "$mode" = all ] || [ "$mode" = tests ]; then
  stamp "tests"
  (cd "$B" && timeout "${TEST_TIMEOUT:-300}" ctest -R "${TESTS:-test_cuda_ooc|test_cuda_multigpu|test_cuda_closure}" \
     --output-on-failure) > "$OUT/ctest.log" 2>&1
  trc=$?
  stamp "tests rc=$trc"
  grep -E "Synthesis|FAIL|fail|Passed|tests passed|Skipped|skip" "$OUT/ctest.log" | tail -20
fi

brc=0
if [ "$mode" = all ] || [ "$mode" = bench ]; then
  stamp "bench"
  timeout "${BENCH_TIMEOUT:-330}" "$B/bench/bench_closure_scale" --csv "$OUT/bench_closure_scale.csv" ${BENCH_ARGS:-} \
    2>&1 | tee "$OUT/bench.log"
  brc=${PIPESTATUS[0]}
elif [ "$mode" = big ]; then
  stamp "bench part b, big"
  timeout "${BENCH_TIMEOUT:-560}" "$B/bench/bench_closure_scale" --parts b --big-n 150000 --big-cap 78G \
    --csv "$OUT/bench_closure_scale_big.csv" ${BIG_ARGS:-} 2>&1 | tee "$OUT/bench_big.log"
  brc=${PIPESTATUS[0]}
fi
stamp "done (tests rc=$trc, bench rc=$brc)"
echo "==== summary ($(sed -n 2p "$OUT/gpu.txt"), $(($(wc -l < "$OUT/gpu.txt") - 1)) GPUs)"
[ -f "$OUT/ctest.log" ] && grep -E "tests passed|tests failed" "$OUT/ctest.log" | tail -2
for f in "$OUT/bench.log" "$OUT/bench_big.log"; do
  [ -f "$f" ] && grep -E "^bandwidth" "$f" && sed -n '/^device  /,$p' "$f"
done
[ $trc -ne 0 ] && exit $trc
exit $brc
