#!/usr/bin/env bash
# Bounded fuzzing for the test command: build every libFuzzer target with
# clang (CPU only, address and undefined-behaviour sanitizers) in BUILD_DIR,
# then run each for SECONDS over a scratch copy of its corpus
# (tests/fuzz/corpus/<target> is only read). Exits non-zero when clang
# cannot build the targets or when any target finds a crash, a leak, a
# sanitizer report or a broken contract; the crashing input is left in
# BUILD_DIR/fuzz_smoke/<target>/ and its path printed.
#   tests/fuzz/run_smoke.sh build-fuzz 20
set -u -o pipefail
BUILD=${1:?usage: run_smoke.sh BUILD_DIR SECONDS}
SECS=${2:?usage: run_smoke.sh BUILD_DIR SECONDS}
BUILD=$(mkdir -p "$BUILD" && cd "$BUILD" && pwd) # the targets run from their own directories
SRC=$(cd "$(dirname "$0")/../.." && pwd)
CC_FUZZ=${CC_FUZZ:-clang}
JOBS=${JOBS:-2}

command -v "$CC_FUZZ" >/dev/null || { echo "fuzz smoke: $CC_FUZZ not found (libFuzzer needs clang)"; exit 1; }
CC="$CC_FUZZ" cmake -S "$SRC" -B "$BUILD" -DGSP_FUZZ=ON -DGSP_CUDA=OFF \
  -DGSP_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGSP_BUILD_BENCH=OFF -DGSP_BUILD_EXAMPLES=OFF >"$BUILD/fuzz_configure.log" 2>&1 \
  || { echo "fuzz smoke: configure failed (see $BUILD/fuzz_configure.log)"; tail -20 "$BUILD/fuzz_configure.log"; exit 1; }
cmake --build "$BUILD" -j"$JOBS" --target fuzz_targets >"$BUILD/fuzz_build.log" 2>&1 \
  || { echo "fuzz smoke: build failed (see $BUILD/fuzz_build.log)"; tail -20 "$BUILD/fuzz_build.log"; exit 1; }

W=$(cd "$BUILD" && pwd)/fuzz_smoke
rm -rf "$W"
fail=0
n=0
for bin in "$BUILD"/tests/fuzz/fuzz_*; do
  [ -x "$bin" ] || continue
  t=$(basename "$bin" | sed 's/^fuzz_//')
  n=$((n + 1))
  mkdir -p "$W/$t/corpus"
  cp "$SRC/tests/fuzz/corpus/$t"/* "$W/$t/corpus/" 2>/dev/null
  # -rss_limit_mb: a reader must not need more than this for a small input
  if (cd "$W/$t" && "$bin" corpus -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$W/$t/" -print_final_stats=1 >log 2>&1); then
    echo "fuzz smoke: $t ok ($(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$W/$t/log" | grep -o '[0-9]*$') runs in ${SECS} s)"
  else
    fail=1
    echo "fuzz smoke: $t FAILED; input: $(ls "$W/$t"/crash-* "$W/$t"/leak-* "$W/$t"/timeout-* "$W/$t"/oom-* 2>/dev/null | head -1)"
    grep -m5 -E 'ERROR|SUMMARY|runtime error' "$W/$t/log"
  fi
done
[ "$n" -gt 0 ] || { echo "fuzz smoke: no fuzz_* targets built in $BUILD"; exit 1; }
exit $fail
