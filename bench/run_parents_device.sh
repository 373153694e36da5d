#!/usr/bin/env bash
# One device call for issue 5's parent overhead (target: parents at most
# +10% over distances alone) and the near-far kernel time on R-MAT-21
# (target <= 8 ms): build with CUDA, run test_cuda_sssp and test_cuda_msssp,
# then the benchmark rows
#   - R-MAT-21 (edge factor 16) single source, delta / auto / auto+parents,
#     with the kernel-alone phase line (CUDA events inside the gateway);
#   - grid 4096 x 4096, the same rows;
#   - all pairs of a random graph, |V| = 65536, |E| = 4|V|, with and without
#     parents, with the device and host phases of each;
# and a short table last. Logs and CSV go to $OUT. About 4-5 minutes on an
# H200 (build ~1.5 min with 16 jobs, tests ~1 min, bench ~2 min).
# Usage (repository root, on the device machine):
#   source .deps/unpack.sh unpack; bash bench/run_parents_device.sh
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=${BUILD_DIR:-build-parents}
t0=$(date +%s)
stamp() { echo "[$(( $(date +%s) - t0 ))s] $*"; }
summary=()
note() { summary+=("$1"); echo "$1"; }

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,temperature.gpu \
  --format=csv,noheader | tee "$OUT/gpu.txt"
echo "THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)" | tee -a "$OUT/gpu.txt"
stamp configure
cmake -S . -B "$B" -DGSP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release -DGSP_BUILD_TESTS=ON \
  -DGSP_BUILD_EXAMPLES=OFF > "$OUT/cmake.log" 2>&1 || { tail -20 "$OUT/cmake.log"; exit 1; }
stamp build
cmake --build "$B" -j16 --target test_cuda_sssp test_cuda_msssp test_cuda_faults bench_sssp > "$OUT/build.log" 2>&1 \
  || { grep -E "error" "$OUT/build.log" | head -30; tail -5 "$OUT/build.log"; exit 1; }
stamp built

trc=0
if [ -z "${SKIP_TESTS:-}" ]; then
  suite() { # name [criterion args]
    local t=$1; shift
    timeout "${TEST_TIMEOUT:-150}" "$B/tests/$t" --jobs 4 "$@" > "$OUT/$t.log" 2>&1
    local rc=$?
    [ $rc -ne 0 ] && trc=$rc
    note "$t: rc=$rc $(grep -o 'Tested: .*' "$OUT/$t.log" | tail -1)"
    grep -E "FAIL|Assertion|rash|signal|Timed out" "$OUT/$t.log" | head -8
  }
  suite test_cuda_sssp
  suite test_cuda_msssp
  # every CUDA call of gsp_sssp / gsp_msssp failing in turn (staging included)
  suite test_cuda_faults --filter 'cuda_faults/sssp_and_msssp'
  stamp "tests done"
fi

BS="$B/bench/bench_sssp --backend cuda --skip-apsp --skip-bf --skip-apsp-big --max-seconds 3"
stamp "bench rmat-21"
timeout 60 $BS --graphs rmat --algos delta,auto --reps 9 --csv "$OUT/parents.csv" 2>&1 | tee "$OUT/bench_rmat.log"
stamp "bench grid-4096"
timeout 60 $BS --graphs grid --algos auto --reps 5 --csv "$OUT/parents.csv" 2>&1 | tee "$OUT/bench_grid.log"
stamp "bench msssp 65536"
timeout "${BENCH_TIMEOUT:-150}" "$B/bench/bench_sssp" --backend cuda --skip-sssp --skip-apsp --skip-bf --skip-fw \
  --apsp-cpu-sources 0 --reps 3 --apsp-parent-reps 3 --csv "$OUT/parents.csv" 2>&1 | tee "$OUT/bench_msssp.log"
stamp done

echo "==== summary ($(head -1 "$OUT/gpu.txt"); $(sed -n 2p "$OUT/gpu.txt"))"
printf '%s\n' "${summary[@]}"
echo "single source (ms; 'phases' = kernel alone by CUDA events, after kernel = staged copies + gather, host before/after gateway = gsp_sssp.c):"
grep -hE '^\| (rmat|grid)|^\|   phases' "$OUT/bench_rmat.log" "$OUT/bench_grid.log" | grep -v skipped
med() { grep -E "^\| $1 " "$2" | grep -E "\| $3 " | awk -F'|' '{gsub(/ /,"",$6); print $6}' | head -1; }
for g in rmat-21:bench_rmat grid-4096:bench_grid; do
  name=${g%%:*}; log="$OUT/${g##*:}.log"
  a=$(med "$name" "$log" 'auto          '); p=$(med "$name" "$log" 'auto\+parents ')
  [ -n "$a" ] && [ -n "$p" ] && awk -v a="$a" -v p="$p" -v g="$name" \
    'BEGIN { printf "%s: auto %.2f ms, +parents %.2f ms: parents %+.1f%% (target <= +10%%)\n", g, a, p, 100 * (p / a - 1) }'
done
echo "all pairs |V| = 65536:"
grep -E '^\| gsp_msssp|^\|   phases' "$OUT/bench_msssp.log"
exit $trc
