#!/usr/bin/env bash
# The GPU test tiers on the device (tests/CMakeLists.txt, labels gpu-quick
# and gpu-long): a Release build with CUDA, then
#   1. ctest -L gpu-quick -j4   the per-change tier (every kernel, type and
#                               semiring at small sizes; a few minutes)
#   2. ctest -L gpu-long -j4    the large sizes (skipped with --quick)
# both on the one GPU at once (-j4), then a table: tier, suite, seconds,
# result. The log and the table go to $OUT (default bench/results/gpu_tests).
#
#   bash bench/run_gpu_tests.sh [--quick] [--jobs N]
# Environment: BUILD_DIR (default build-gpu), SKIP_BUILD=1 (reuse it).
# Exit status: 0 when every test of the tiers run passed, 1 otherwise.
set -u -o pipefail
cd "$(dirname "$0")/.."
B=${BUILD_DIR:-build-gpu}
OUT=${OUT:-$PWD/bench/results/gpu_tests}
jobs=4 tiers="gpu-quick gpu-long"
while [ $# -gt 0 ]; do
  case "$1" in
  --quick) tiers="gpu-quick" ;;
  --jobs) jobs="$2"; shift ;;
  *) echo "unknown option $1"; exit 2 ;;
  esac
  shift
done
mkdir -p "$OUT"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
log="$OUT/$stamp.log" table="$OUT/$stamp.txt"

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  cmake -S . -B "$B" -DGSP_CUDA=ON -DCMAKE_BUILD_TYPE=Release -DGSP_BUILD_BENCH=OFF \
    -DGSP_BUILD_EXAMPLES=OFF > "$OUT/$stamp.cmake.log" 2>&1 || { tail -20 "$OUT/$stamp.cmake.log"; exit 1; }
  # only the GPU suites (both builds of the tiered ones)
  targets=$(ctest --test-dir "$B" -N -L gpu 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: *\([^ ]*\)$/\1/p')
  # shellcheck disable=SC2086
  cmake --build "$B" -j"$(nproc)" --target $targets > "$OUT/$stamp.build.log" 2>&1 \
    || { tail -30 "$OUT/$stamp.build.log"; exit 1; }
fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee -a "$log"

status=0
printf '%-10s %-28s %9s  %s\n' tier suite seconds result > "$table"
for tier in $tiers; do
  t0=$(date +%s)
  ctest --test-dir "$B" -L "$tier" -j"$jobs" --output-on-failure 2>&1 | tee -a "$log" > "$OUT/$stamp.$tier.log" || status=1
  # "  3/10 Test  #12: test_cuda_sssp .........   Passed   41.20 sec"
  sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: \([^ ]*\) [ .*]*\([A-Za-z][A-Za-z ]*[a-z]\) *\([0-9.]*\) sec$/\1 \3 \2/p' \
    "$OUT/$stamp.$tier.log" | sort | while read -r suite secs result; do
      printf '%-10s %-28s %9s  %s\n' "$tier" "$suite" "$secs" "$result"
    done >> "$table"
  printf '%-10s %-28s %9s  %s\n' "$tier" "(wall, -j$jobs)" "$(( $(date +%s) - t0 ))" "" >> "$table"
  grep -q 'tests passed, 0 tests failed' "$OUT/$stamp.$tier.log" || status=1
done
cat "$table"
echo "log: $log"
exit $status
