#!/usr/bin/env bash
# A fuzzing campaign over every libFuzzer target at once, for a machine with
# spare cores (the device host has 16). Build the targets anywhere with clang:
#   CC=clang cmake -S . -B build-fuzz -DGSP_FUZZ=ON -DGSP_CUDA=OFF \
#     -DGSP_SANITIZE=address,undefined && cmake --build build-fuzz --target fuzz_targets
# then: tests/fuzz/run_campaign.sh BIN_DIR SECONDS [FORK]
# Each target runs FORK (2) processes (libFuzzer -fork) for SECONDS on a copy
# of tests/fuzz/corpus/<target>; crashes are not fatal (-ignore_crashes) and
# are kept. Afterwards each grown corpus is minimised (-merge=1) against the
# seeds, and $OUT/fuzz_new.tar.gz holds the inputs that add coverage plus
# every crash, timeout and OOM input (and the tail of each log), to be
# replayed and added to the corpus. Prints a table: target, seconds, executions, coverage, findings.
set -u -o pipefail
BIN=$(cd "${1:?usage: run_campaign.sh BIN_DIR SECONDS [FORK]}" && pwd)
SECS=${2:?seconds per target}
FORK=${3:-2}
OUT=${OUT:-$PWD/out}
W=${FUZZ_WORK:-/tmp/gsp_fuzz}
SEEDS=$(cd "$(dirname "$0")" && pwd)/corpus
rm -rf "$W" && mkdir -p "$W/new" "$OUT"

targets=()
for f in "$BIN"/fuzz_*; do [ -x "$f" ] && targets+=("$(basename "$f" | sed 's/^fuzz_//')"); done
[ ${#targets[@]} -gt 0 ] || { echo "no fuzz_* binaries in $BIN"; exit 1; }

for t in "${targets[@]}"; do
  mkdir -p "$W/$t/corpus" "$W/$t/art"
  cp "$SEEDS/$t"/* "$W/$t/corpus/" 2>/dev/null
  # the last corpus argument is read only; new inputs go to the first
  ( cd "$W/$t" && exec "$BIN/fuzz_$t" -fork="$FORK" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
      -max_total_time="$SECS" -artifact_prefix="$W/$t/art/" corpus > log 2>&1 ) &
done
wait

printf '| %-9s | %7s | %12s | %8s | %s |\n' target seconds executions coverage "findings (crash/timeout/oom files)"
printf '|%s|%s|%s|%s|%s|\n' ----------- --------- -------------- ---------- -------------------------------------
for t in "${targets[@]}"; do
  # fork mode prints "#<execs>: cov: <c> ft: ... time: <s>s job: <j> ..."
  last=$(grep -E '^#[0-9]+: cov:' "$W/$t/log" | tail -1)
  execs=$(sed -E 's/^#([0-9]+):.*/\1/' <<< "$last")
  cov=$(sed -E 's/.* cov: ([0-9]+).*/\1/' <<< "$last")
  secs=$(sed -E 's/.* time: ([0-9]+)s.*/\1/' <<< "$last")
  found=$(ls "$W/$t/art" | wc -l)
  printf '| %-9s | %7s | %12s | %8s | %s %s |\n' "$t" "${secs:-?}" "${execs:-?}" "${cov:-?}" "$found" \
    "$(ls "$W/$t/art" | sed -E 's/-.*//' | sort | uniq -c | tr -s ' ' | tr '\n' ' ')"
  # keep only the inputs that add coverage over the seeds
  mkdir -p "$W/new/$t" "$W/min/$t" && cp "$SEEDS/$t"/* "$W/min/$t/" 2>/dev/null
  n0=$(ls "$W/min/$t" | wc -l)
  "$BIN/fuzz_$t" -merge=1 "$W/min/$t" "$W/$t/corpus" > "$W/$t/merge.log" 2>&1
  for f in "$W/min/$t"/*; do [ -e "$SEEDS/$t/$(basename "$f")" ] || cp "$f" "$W/new/$t/"; done
  cp "$W/$t/art"/* "$W/new/$t/" 2>/dev/null
  echo "  $t: $(ls "$W/new/$t" | wc -l) new inputs kept (seeds $n0)"
  mkdir -p "$W/new/logs" && tail -c 4000 "$W/$t/log" > "$W/new/logs/$t.log"
done
tar -C "$W/new" -czf "$OUT/fuzz_new.tar.gz" .
